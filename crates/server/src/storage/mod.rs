//! SQLite storage: the only module that knows SQL.
//!
//! A game is stored as what it was created with (its kind, mode and setup as JSON), its
//! seats, and its ordered actions (as JSON). Its state is never stored: it is a replay of the
//! actions. Nothing here knows the rules of a game; setups and actions are opaque JSON text.
//! When a game ends, its last actions are stored together with when it finished and its
//! result (opaque JSON, for the list of recent games): the list never replays a game.
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

pub mod challenges;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

/// The schema version this code writes (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 3;

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

/// Version 2: when a game finished, and its result, for the list of recent games. Games of a
/// version-1 database have neither until [`Storage::mark_finished`] sets them.
const SCHEMA_2: &str = "
ALTER TABLE games ADD COLUMN finished INTEGER;
ALTER TABLE games ADD COLUMN result TEXT;
CREATE INDEX IF NOT EXISTS games_by_finish ON games (finished DESC) WHERE finished IS NOT NULL;
";

/// Version 3: players, challenges and their entries (see [`challenges`]); a game may belong
/// to a challenge and a seat to a player; a secret, made once, from which challenge seeds come.
const SCHEMA_3: &str = "
ALTER TABLE games ADD COLUMN challenge TEXT;
ALTER TABLE seats ADD COLUMN player TEXT;
CREATE INDEX IF NOT EXISTS seats_by_player ON seats (player) WHERE player IS NOT NULL;
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS challenges (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('daily', 'weekly', 'metro-daily', 'friend')),
    game     TEXT NOT NULL CHECK (game IN ('ink', 'metro')),
    period   TEXT,
    opens    INTEGER NOT NULL,
    closes   INTEGER,
    seed     INTEGER NOT NULL,
    origin   TEXT,
    by_name  TEXT,
    created  INTEGER NOT NULL,
    players  INTEGER NOT NULL DEFAULT 0,
    target   INTEGER,
    computer_game  TEXT,
    computer_score INTEGER,
    computer_k2    INTEGER
);
CREATE INDEX IF NOT EXISTS challenges_by_opening ON challenges (opens DESC) WHERE kind <> 'friend';
CREATE TABLE IF NOT EXISTS entries (
    challenge TEXT NOT NULL REFERENCES challenges(id),
    game      TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    player    TEXT REFERENCES players(id),
    name      TEXT NOT NULL,
    started   INTEGER NOT NULL,
    finished  INTEGER,
    score     INTEGER,
    k2        INTEGER,
    PRIMARY KEY (challenge, game, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_by_game ON entries (game, seat);
CREATE UNIQUE INDEX IF NOT EXISTS entries_one_attempt ON entries (challenge, player);
CREATE INDEX IF NOT EXISTS entries_by_player ON entries (player) WHERE player IS NOT NULL;
CREATE INDEX IF NOT EXISTS entries_ranked
    ON entries (challenge, score DESC, k2 DESC, finished, game) WHERE finished IS NOT NULL;
CREATE TABLE IF NOT EXISTS entry_scores (
    challenge TEXT NOT NULL,
    score     INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    PRIMARY KEY (challenge, score)
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
    /// The database file is damaged: what SQLite's check found.
    #[error(
        "the database {path} is damaged ({}); restore it from a backup, or move it away to start with an empty one (`tracklayer db check --db {path}` lists every problem)",
        problems.first().map(String::as_str).unwrap_or("unreadable")
    )]
    Damaged {
        path: PathBuf,
        problems: Vec<String>,
    },
    /// A unique key refused the write (say, a second attempt at a challenge): nothing was
    /// written.
    #[error("already stored: {0}")]
    Duplicate(String),
}

impl StorageError {
    /// The error of a failed statement: [`StorageError::Duplicate`] for a unique key.
    fn of(e: rusqlite::Error) -> StorageError {
        match &e {
            rusqlite::Error::SqliteFailure(f, msg)
                if f.code == rusqlite::ErrorCode::ConstraintViolation
                    && msg.as_deref().is_some_and(|m| m.contains("UNIQUE")) =>
            {
                StorageError::Duplicate(msg.clone().unwrap_or_default())
            }
            _ => StorageError::Sqlite(e),
        }
    }
}

/// The game a row belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    Ink,
    Metro,
}

impl GameKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Ink => "ink",
            GameKind::Metro => "metro",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<GameKind, StorageError> {
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
    /// The player (see [`challenges::PlayerRow`]) who took the seat, when known.
    pub player: Option<String>,
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
    /// The challenge the game is played in, and its entry (stored with the game, or not at
    /// all: a second attempt by the same player is [`StorageError::Duplicate`]).
    pub entry: Option<challenges::NewEntry>,
}

/// The challenge a game belongs to, as loading the game finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRef {
    pub id: String,
    pub kind: String,
    /// Milliseconds since the Unix epoch; `None` for a challenge that never closes.
    pub closes: Option<i64>,
    /// Whose game a friend challenge comes from.
    pub by: Option<String>,
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
    /// The challenge the game is played in, if any.
    pub challenge: Option<ChallengeRef>,
}

/// How a game ended: when, and its result as JSON (what the list of recent games shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// The result as JSON, opaque here.
    pub result: String,
    /// Each seat's place in a challenge, should the game be a challenge's: its score and its
    /// tie break (see [`challenges::EntryScore`]).
    pub entries: Vec<challenges::EntryScore>,
}

/// A finished game as the list of recent games shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub finished: Finished,
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
    /// The actions that end a game, and how it ended, in one transaction.
    Finish(Append, Finished),
    /// How an already stored game ended (for games stored before version 2).
    Mark(String, Finished),
    /// Players and challenges (see [`challenges`]).
    Challenge(challenges::Write),
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
    /// Whether opening upgraded an older database (whose finished games lack results).
    upgraded: bool,
    /// Made once, when the database was created: challenge seeds come from it.
    secret: Arc<[u8; 32]>,
}

impl Storage {
    /// Opens (creating if needed) the database at `path` and starts its writer thread.
    /// A damaged file is refused ([`StorageError::Damaged`]): see [`check`].
    pub fn open(path: &Path) -> Result<Storage, StorageError> {
        let problems = check(path)?;
        if !problems.is_empty() {
            return Err(StorageError::Damaged {
                path: path.to_owned(),
                problems,
            });
        }
        let mut conn = Connection::open(path)?;
        configure(&conn)?;
        let upgraded = migrate(&mut conn, path)?;
        let secret = challenges::secret(&conn)?;
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
            upgraded,
            secret: Arc::new(secret),
        })
    }

    /// The database's secret, made when it was created (challenge seeds come from it).
    pub fn secret(&self) -> &[u8; 32] {
        &self.secret
    }

    /// Whether opening upgraded a database written by an older version that kept no results
    /// of finished games (then [`crate::replay::backfill`] records them).
    pub fn upgraded(&self) -> bool {
        self.upgraded
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

    /// Appends the actions that end a game and records how it ended, atomically; durable when
    /// this returns `Ok`.
    pub async fn append_finishing(
        &self,
        append: Append,
        finished: Finished,
    ) -> Result<(), StorageError> {
        self.write(Write::Finish(append, finished)).await
    }

    /// Records how a stored game ended (for games finished before the database recorded it).
    pub async fn mark_finished(&self, id: &str, finished: Finished) -> Result<(), StorageError> {
        self.write(Write::Mark(id.to_owned(), finished)).await
    }

    /// The most recently finished games, newest first: of one kind or both, finished before
    /// `before` (milliseconds since the Unix epoch) if given, at most `limit`.
    pub async fn finished_games(
        &self,
        kind: Option<GameKind>,
        before: Option<i64>,
        limit: usize,
    ) -> Result<Vec<FinishedGame>, StorageError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, kind, mode, created, finished, result FROM games
                 WHERE finished IS NOT NULL AND challenge IS NULL AND (?1 IS NULL OR kind = ?1)
                   AND (?2 IS NULL OR finished < ?2)
                 ORDER BY finished DESC, id LIMIT ?3",
            )?;
            let mut rows = stmt.query(params![kind.map(GameKind::as_str), before, limit as i64])?;
            let mut games = Vec::new();
            while let Some(r) = rows.next()? {
                let kind: String = r.get(1)?;
                games.push(FinishedGame {
                    id: r.get(0)?,
                    kind: GameKind::parse(&kind)?,
                    mode: r.get(2)?,
                    created: r.get(3)?,
                    finished: Finished {
                        at: r.get(4)?,
                        result: r.get(5)?,
                        entries: Vec::new(),
                    },
                });
            }
            Ok(games)
        })
        .await
    }

    /// The ids of stored games with no finish recorded, oldest first.
    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StorageError> {
        self.read(|conn| {
            let mut stmt = conn
                .prepare_cached("SELECT id FROM games WHERE finished IS NULL ORDER BY created")?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// Runs a read on the reading connection, off the async threads.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, StorageError> {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let conn = reader
                .lock()
                .map_err(|_| StorageError::Task("reader lock poisoned".into()))?;
            f(&conn)
        })
        .await
        .map_err(|e| StorageError::Task(e.to_string()))?
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

/// Checks a database file's integrity (`PRAGMA quick_check`: every page, b-tree and index
/// entry, without the slower cross-checks of `integrity_check`). Returns what is wrong, empty
/// when it is sound; a file that does not exist yet is sound (it will be created).
pub fn check(path: &Path) -> Result<Vec<String>, StorageError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let conn = match Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    ) {
        Ok(conn) => conn,
        Err(e) => return Ok(vec![e.to_string()]),
    };
    let rows = conn.prepare("PRAGMA quick_check").and_then(|mut stmt| {
        stmt.query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()
    });
    match rows {
        Ok(rows) if rows == ["ok"] => Ok(Vec::new()),
        Ok(rows) => Ok(rows),
        // "file is not a database", "database disk image is malformed": damage, not a fault
        // of this process.
        Err(rusqlite::Error::SqliteFailure(f, msg))
            if matches!(
                f.code,
                rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt
            ) =>
        {
            Ok(vec![msg.unwrap_or_else(|| f.to_string())])
        }
        Err(e) => Err(e.into()),
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

/// Creates or upgrades the schema. Returns whether an existing older database was upgraded.
fn migrate(conn: &mut Connection, path: &Path) -> Result<bool, StorageError> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StorageError::NewerSchema {
            path: path.to_owned(),
            found: version,
        });
    }
    let tx = conn.transaction()?;
    tx.execute_batch(SCHEMA)?;
    if version < 2 {
        tx.execute_batch(SCHEMA_2)?;
    }
    if version < 3 {
        tx.execute_batch(SCHEMA_3)?;
        challenges::make_secret(&tx)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(version == 1)
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
        Write::Finish(append, finished) => {
            insert_actions(tx, append).and_then(|()| set_finished(tx, &append.game, finished))
        }
        Write::Mark(game, finished) => set_finished(tx, game, finished),
        Write::Challenge(write) => challenges::write(tx, write),
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
        "INSERT INTO games (id, kind, mode, setup, created, challenge) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            game.id,
            game.kind.as_str(),
            game.mode,
            game.setup,
            game.created,
            game.entry.as_ref().map(|e| &e.challenge),
        ],
    )
    .map_err(StorageError::of)?;
    for seat in &game.seats {
        insert_seat(tx, &game.id, seat, game.created)?;
    }
    if let Some(entry) = &game.entry {
        challenges::insert_entry(tx, &game.id, entry)?;
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
        "INSERT INTO seats (game, seat, name, kind, agent, token_hash, joined, player)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    stmt.execute(params![
        game,
        seat.seat as i64,
        seat.name,
        seat.kind.as_str(),
        seat.agent,
        seat.token_hash,
        now,
        seat.player,
    ])
    .map_err(StorageError::of)?;
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
        ])
        .map_err(StorageError::of)?;
    }
    Ok(())
}

fn set_finished(tx: &Transaction<'_>, game: &str, finished: &Finished) -> Result<(), StorageError> {
    let changed = tx.execute(
        "UPDATE games SET finished = ?2, result = ?3 WHERE id = ?1",
        params![game, finished.at, finished.result],
    )?;
    if changed != 1 {
        return Err(StorageError::Corrupt(format!(
            "no game {game} to mark finished"
        )));
    }
    challenges::finish_entries(tx, game, finished)
}

fn load(conn: &Connection, id: &str) -> Result<Option<StoredGame>, StorageError> {
    let head = conn
        .prepare_cached(
            "SELECT g.kind, g.mode, g.setup, g.created, c.id, c.kind, c.closes, c.by_name
             FROM games g LEFT JOIN challenges c ON c.id = g.challenge WHERE g.id = ?1",
        )?
        .query_row([id], |r| {
            let challenge = match r.get::<_, Option<String>>(4)? {
                Some(id) => Some(ChallengeRef {
                    id,
                    kind: r.get(5)?,
                    closes: r.get(6)?,
                    by: r.get(7)?,
                }),
                None => None,
            };
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                challenge,
            ))
        })
        .optional()?;
    let Some((kind, mode, setup, created, challenge)) = head else {
        return Ok(None);
    };
    let mut seats = Vec::new();
    let mut stmt = conn.prepare_cached(
        "SELECT seat, name, kind, agent, token_hash, player FROM seats WHERE game = ?1 ORDER BY seat",
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
            player: r.get(5)?,
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
        challenge,
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
            player: None,
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
                entry: None,
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
                        entry: None,
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

    fn new_game(id: &str, kind: GameKind, created: i64) -> NewGame {
        NewGame {
            id: id.into(),
            kind,
            mode: "solo".into(),
            setup: "{}".into(),
            created,
            seats: vec![seat(0)],
            entry: None,
        }
    }

    fn finished(at: i64) -> Finished {
        Finished {
            at,
            result: format!("{{\"at\":{at}}}"),
            entries: Vec::new(),
        }
    }

    #[tokio::test]
    async fn finished_games_are_listed_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::open(&dir.path().join("t.sqlite")).unwrap();
        for (i, kind) in [GameKind::Ink, GameKind::Metro, GameKind::Ink, GameKind::Ink]
            .into_iter()
            .enumerate()
        {
            storage
                .create_game(new_game(&format!("g{i}"), kind, i as i64))
                .await
                .unwrap();
        }
        // g0 ends with its last action; g1 and g2 end later; g3 goes on.
        storage
            .append_finishing(
                Append {
                    game: "g0".into(),
                    first: 0,
                    actions: vec![action(0, "last")],
                    seat: None,
                },
                finished(100),
            )
            .await
            .unwrap();
        storage.mark_finished("g1", finished(300)).await.unwrap();
        storage.mark_finished("g2", finished(200)).await.unwrap();
        assert!(storage.mark_finished("nope", finished(1)).await.is_err());
        // A finishing append at a taken index writes neither the action nor the finish.
        storage
            .append(Append {
                game: "g3".into(),
                first: 0,
                actions: vec![action(0, "a")],
                seat: None,
            })
            .await
            .unwrap();
        let clash = storage
            .append_finishing(
                Append {
                    game: "g3".into(),
                    first: 0,
                    actions: vec![action(0, "b")],
                    seat: None,
                },
                finished(400),
            )
            .await;
        assert!(clash.is_err());

        let ids = |games: Vec<FinishedGame>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
        let all = storage.finished_games(None, None, 10).await.unwrap();
        assert_eq!(all[0].finished, finished(300));
        assert_eq!(all[0].kind, GameKind::Metro);
        assert_eq!(ids(all), ["g1", "g2", "g0"]);
        let ink = storage
            .finished_games(Some(GameKind::Ink), None, 10)
            .await
            .unwrap();
        assert_eq!(ids(ink), ["g2", "g0"]);
        let older = storage.finished_games(None, Some(300), 1).await.unwrap();
        assert_eq!(ids(older), ["g2"]);
        assert_eq!(storage.unfinished_ids().await.unwrap(), ["g3"]);
        let g0 = storage.load_game("g0").await.unwrap().unwrap();
        assert_eq!(g0.actions, vec![action(0, "last")]);
    }

    #[tokio::test]
    async fn a_version_1_database_is_upgraded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v1.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.execute(
                "INSERT INTO games (id, kind, mode, setup, created) VALUES ('old', 'ink', 'solo', '{}', 5)",
                [],
            )
            .unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
        }
        let storage = Storage::open(&path).unwrap();
        assert_eq!(storage.unfinished_ids().await.unwrap(), ["old"]);
        storage.mark_finished("old", finished(9)).await.unwrap();
        let games = storage.finished_games(None, None, 5).await.unwrap();
        assert_eq!(games[0].created, 5);
        drop(storage);
        // Opening again changes nothing.
        let storage = Storage::open(&path).unwrap();
        assert_eq!(
            storage.finished_games(None, None, 5).await.unwrap().len(),
            1
        );
    }

    #[tokio::test]
    async fn a_damaged_file_is_refused_and_names_what_is_wrong() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        assert!(
            check(&path).unwrap().is_empty(),
            "a file to be created is sound"
        );
        {
            let storage = Storage::open(&path).unwrap();
            for g in 0..40 {
                storage
                    .create_game(new_game(&format!("g{g}"), GameKind::Ink, g))
                    .await
                    .unwrap();
            }
        }
        // Fold the WAL into the file, then damage a page in the middle.
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "wal_checkpoint", "TRUNCATE")
            .unwrap();
        assert!(check(&path).unwrap().is_empty());
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.seek(SeekFrom::Start(2 * 4096 + 64)).unwrap();
        f.write_all(&[0x5a; 2000]).unwrap();
        drop(f);
        assert!(!check(&path).unwrap().is_empty());
        let e = Storage::open(&path).err().expect("refused");
        let text = e.to_string();
        assert!(
            text.contains("damaged") && text.contains("backup"),
            "{text}"
        );
        assert!(text.contains(path.to_str().unwrap()), "{text}");
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
