//! SQLite storage: the only module that knows SQL.
//!
//! A game is stored as what it was created with (its kind, mode and setup as JSON), its
//! seats, and its ordered actions (as JSON). Its state is never stored: it is a replay of the
//! actions. Nothing here knows the rules of a game; setups and actions are opaque JSON text.
//!
//! Writes go to one writer thread that owns the write connection. It takes every write that
//! is waiting, runs them in one transaction (each inside its own savepoint, so one failing
//! write does not undo the others) and commits before answering any of them: a write is
//! durable (the WAL is synced, `synchronous=FULL`) before the caller hears that it succeeded.
//! Under load many writers share one fsync (group commit). Reads use a second connection;
//! with WAL they never wait for the writer.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

/// The schema version this code writes (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id      TEXT PRIMARY KEY,
    kind    TEXT NOT NULL CHECK (kind IN ('ink', 'metro')),
    mode    TEXT NOT NULL,
    setup   TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game       TEXT NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    agent      TEXT,
    token_hash TEXT,
    joined     INTEGER NOT NULL,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions (
    game   TEXT NOT NULL REFERENCES games(id),
    idx    INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    action TEXT NOT NULL,
    at     INTEGER NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
";

/// How many waiting writes one transaction takes at most.
const MAX_BATCH: usize = 512;

/// Why storage failed. Callers log it; it is never shown to a client.
#[derive(Debug, Error)]
pub enum StorageError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error(
        "the database at {path} was written by a newer version (schema {found}, this is {SCHEMA_VERSION})"
    )]
    NewerSchema { path: PathBuf, found: i64 },
    #[error("the storage writer has stopped")]
    WriterGone,
    #[error("a background task failed: {0}")]
    Task(String),
    #[error("the transaction failed: {0}")]
    Transaction(String),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
}

/// The game a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    Ink,
    Metro,
}

impl GameKind {
    fn as_str(self) -> &'static str {
        match self {
            GameKind::Ink => "ink",
            GameKind::Metro => "metro",
        }
    }

    fn parse(s: &str) -> Result<GameKind, StorageError> {
        match s {
            "ink" => Ok(GameKind::Ink),
            "metro" => Ok(GameKind::Metro),
            _ => Err(StorageError::Corrupt(format!("unknown game kind {s:?}"))),
        }
    }
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Computer,
}

impl SeatKind {
    fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Computer => "computer",
        }
    }

    fn parse(s: &str) -> Result<SeatKind, StorageError> {
        match s {
            "human" => Ok(SeatKind::Human),
            "computer" => Ok(SeatKind::Computer),
            _ => Err(StorageError::Corrupt(format!("unknown seat kind {s:?}"))),
        }
    }
}

/// A seat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    /// The computer player's name, for a computer seat.
    pub agent: Option<String>,
    /// The hex SHA-256 of the seat's token, for a human seat.
    pub token_hash: Option<String>,
}

/// One action as stored: the seat and the action as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    pub seat: usize,
    pub action: String,
}

/// A new game: its row and its first seats.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    /// The setup as JSON.
    pub setup: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub seats: Vec<SeatRow>,
}

/// Everything stored about one game.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    pub setup: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub seats: Vec<SeatRow>,
    /// In order: the action at index `i` is `actions[i]`.
    pub actions: Vec<ActionRow>,
}

/// Actions to add to a game, and maybe the seat that one of them creates (a join).
#[derive(Debug, Clone)]
pub struct Append {
    pub game: String,
    /// The index of the first new action: the number of actions stored before.
    pub first: usize,
    pub actions: Vec<ActionRow>,
    pub seat: Option<SeatRow>,
}

enum Write {
    Create(NewGame),
    Append(Append),
}

struct Job {
    write: Write,
    reply: oneshot::Sender<Result<(), StorageError>>,
}

/// The game store. Cheap to clone; every clone talks to the same database.
#[derive(Clone)]
pub struct Storage {
    writer: mpsc::Sender<Job>,
    reader: Arc<Mutex<Connection>>,
}

impl Storage {
    /// Opens (creating if needed) the database at `path` and starts its writer thread.
    pub fn open(path: &Path) -> Result<Storage, StorageError> {
        let mut conn = Connection::open(path)?;
        configure(&conn)?;
        migrate(&mut conn, path)?;
        let reader = Connection::open(path)?;
        configure(&reader)?;
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        thread::Builder::new()
            .name("storage-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StorageError::Task(e.to_string()))?;
        Ok(Storage {
            writer: tx,
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// Stores a new game with its seats; durable when this returns `Ok`.
    pub async fn create_game(&self, game: NewGame) -> Result<(), StorageError> {
        self.write(Write::Create(game)).await
    }

    /// Appends actions (and a joining seat) to a game; durable when this returns `Ok`.
    ///
    /// Fails without writing anything if an action already has one of the indices.
    pub async fn append(&self, append: Append) -> Result<(), StorageError> {
        self.write(Write::Append(append)).await
    }

    /// Everything stored about a game, or `None` if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        let reader = self.reader.clone();
        let id = id.to_owned();
        tokio::task::spawn_blocking(move || {
            let conn = reader
                .lock()
                .map_err(|_| StorageError::Task("reader lock poisoned".into()))?;
            load(&conn, &id)
        })
        .await
        .map_err(|e| StorageError::Task(e.to_string()))?
    }

    async fn write(&self, write: Write) -> Result<(), StorageError> {
        let (reply, answer) = oneshot::channel();
        self.writer
            .send(Job { write, reply })
            .await
            .map_err(|_| StorageError::WriterGone)?;
        answer.await.map_err(|_| StorageError::WriterGone)?
    }
}

fn configure(conn: &Connection) -> Result<(), StorageError> {
    // WAL lets reads run beside the writer. synchronous=FULL syncs the WAL at every commit,
    // so an acknowledged action survives a power cut as well as a killed process; group
    // commit keeps that affordable under load.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StorageError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StorageError::NewerSchema {
            path: path.to_owned(),
            found: version,
        });
    }
    let tx = conn.transaction()?;
    tx.execute_batch(SCHEMA)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn writer_loop(mut conn: Connection, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.blocking_recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let results = write_batch(&mut conn, &jobs);
        for (job, result) in jobs.into_iter().zip(results) {
            // The caller may have gone away (its request was dropped); the write stands.
            let _ = job.reply.send(result);
        }
    }
}

/// Runs every job in one transaction, each in a savepoint; commits once.
fn write_batch(conn: &mut Connection, jobs: &[Job]) -> Vec<Result<(), StorageError>> {
    let tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => {
            tracing::error!(error = %e, "cannot begin a transaction");
            let e = e.to_string();
            return jobs
                .iter()
                .map(|_| Err(StorageError::Transaction(e.clone())))
                .collect();
        }
    };
    let mut results: Vec<Result<(), StorageError>> = Vec::with_capacity(jobs.len());
    for job in jobs {
        results.push(run_in_savepoint(&tx, &job.write));
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => {
            tracing::error!(error = %e, "commit failed");
            let e = e.to_string();
            jobs.iter()
                .map(|_| Err(StorageError::Transaction(e.clone())))
                .collect()
        }
    }
}

fn run_in_savepoint(tx: &Transaction<'_>, write: &Write) -> Result<(), StorageError> {
    tx.execute_batch("SAVEPOINT job")?;
    let result = match write {
        Write::Create(game) => insert_game(tx, game),
        Write::Append(append) => insert_actions(tx, append),
    };
    match result {
        Ok(()) => {
            tx.execute_batch("RELEASE job")?;
            Ok(())
        }
        Err(e) => {
            tx.execute_batch("ROLLBACK TO job; RELEASE job")?;
            Err(e)
        }
    }
}

fn insert_game(tx: &Transaction<'_>, game: &NewGame) -> Result<(), StorageError> {
    tx.execute(
        "INSERT INTO games (id, kind, mode, setup, created) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            game.id,
            game.kind.as_str(),
            game.mode,
            game.setup,
            game.created
        ],
    )?;
    for seat in &game.seats {
        insert_seat(tx, &game.id, seat, game.created)?;
    }
    Ok(())
}

fn insert_seat(
    tx: &Transaction<'_>,
    game: &str,
    seat: &SeatRow,
    now: i64,
) -> Result<(), StorageError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO seats (game, seat, name, kind, agent, token_hash, joined)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    stmt.execute(params![
        game,
        seat.seat as i64,
        seat.name,
        seat.kind.as_str(),
        seat.agent,
        seat.token_hash,
        now
    ])?;
    Ok(())
}

fn insert_actions(tx: &Transaction<'_>, append: &Append) -> Result<(), StorageError> {
    let now = now_ms();
    if let Some(seat) = &append.seat {
        insert_seat(tx, &append.game, seat, now)?;
    }
    let mut stmt = tx.prepare_cached(
        "INSERT INTO actions (game, idx, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (i, row) in append.actions.iter().enumerate() {
        stmt.execute(params![
            append.game,
            (append.first + i) as i64,
            row.seat as i64,
            row.action,
            now
        ])?;
    }
    Ok(())
}

fn load(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StorageError> {
    let head = conn
        .prepare_cached("SELECT kind, mode, setup, created FROM games WHERE id = ?1")?
        .query_row([id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })
        .optional()?;
    let Some((kind, mode, setup, created)) = head else {
        return Ok(None);
    };
    let mut seats = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT seat, name, kind, agent, token_hash FROM seats WHERE game = ?1 ORDER BY seat",
    )?;
    let mut rows = stmt.query([id])?;
    while let Some(r) = rows.next()? {
        let seat: i64 = r.get(0)?;
        let kind: String = r.get(2)?;
        seats.push(SeatRow {
            seat: seat as usize,
            name: r.get(1)?,
            kind: SeatKind::parse(&kind)?,
            agent: r.get(3)?,
            token_hash: r.get(4)?,
        });
    }
    let mut actions = Vec::new();
    let mut stmt =
        conn.prepare_cached("SELECT idx, seat, action FROM actions WHERE game = ?1 ORDER BY idx")?;
    let mut rows = stmt.query([id])?;
    while let Some(r) = rows.next()? {
        let idx: i64 = r.get(0)?;
        if idx as usize != actions.len() {
            return Err(StorageError::Corrupt(format!(
                "game {id}: action {} is missing",
                actions.len()
            )));
        }
        let seat: i64 = r.get(1)?;
        actions.push(ActionRow {
            seat: seat as usize,
            action: r.get(2)?,
        });
    }
    Ok(Some(StoredGame {
        id: id.to_owned(),
        kind: GameKind::parse(&kind)?,
        mode,
        setup,
        created,
        seats,
        actions,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: usize) -> SeatRow {
        SeatRow {
            seat,
            name: format!("p{seat}"),
            kind: SeatKind::Human,
            agent: None,
            token_hash: Some("ab".into()),
        }
    }

    fn action(seat: usize, text: &str) -> ActionRow {
        ActionRow {
            seat,
            action: text.into(),
        }
    }

    #[tokio::test]
    async fn games_seats_and_actions_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let storage = Storage::open(&path).unwrap();
        storage
            .create_game(NewGame {
                id: "g1".into(),
                kind: GameKind::Ink,
                mode: "online".into(),
                setup: "{}".into(),
                created: 1,
                seats: vec![seat(0)],
            })
            .await
            .unwrap();
        storage
            .append(Append {
                game: "g1".into(),
                first: 0,
                actions: vec![action(0, "a"), action(1, "join")],
                seat: Some(seat(1)),
            })
            .await
            .unwrap();
        // A second append at a taken index fails and writes nothing, not even its seat.
        let clash = storage
            .append(Append {
                game: "g1".into(),
                first: 1,
                actions: vec![action(2, "x")],
                seat: Some(seat(2)),
            })
            .await;
        assert!(clash.is_err());
        drop(storage);

        let storage = Storage::open(&path).unwrap();
        let game = storage.load_game("g1").await.unwrap().unwrap();
        assert_eq!(game.kind, GameKind::Ink);
        assert_eq!(game.mode, "online");
        assert_eq!(game.created, 1);
        assert_eq!(game.seats, vec![seat(0), seat(1)]);
        assert_eq!(game.actions, vec![action(0, "a"), action(1, "join")]);
        assert!(storage.load_game("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn concurrent_writes_share_transactions_and_all_land() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::open(&dir.path().join("t.sqlite")).unwrap();
        let mut tasks = Vec::new();
        for g in 0..50 {
            let storage = storage.clone();
            tasks.push(tokio::spawn(async move {
                let id = format!("g{g}");
                storage
                    .create_game(NewGame {
                        id: id.clone(),
                        kind: GameKind::Ink,
                        mode: "solo".into(),
                        setup: "{}".into(),
                        created: 1,
                        seats: vec![seat(0)],
                    })
                    .await
                    .unwrap();
                for i in 0..10 {
                    storage
                        .append(Append {
                            game: id.clone(),
                            first: i,
                            actions: vec![action(0, &i.to_string())],
                            seat: None,
                        })
                        .await
                        .unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for g in 0..50 {
            let game = storage.load_game(&format!("g{g}")).await.unwrap().unwrap();
            assert_eq!(game.actions.len(), 10);
            assert_eq!(game.actions[9].action, "9");
        }
    }

    #[tokio::test]
    async fn an_append_to_an_unknown_game_fails() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::open(&dir.path().join("t.sqlite")).unwrap();
        let result = storage
            .append(Append {
                game: "missing".into(),
                first: 0,
                actions: vec![action(0, "a")],
                seat: None,
            })
            .await;
        assert!(result.is_err());
    }
}
