//! The SQLite backend: one file, one process. Writes go to one writer thread that takes every
//! write that is waiting, runs them in one transaction (each inside its own savepoint, so one
//! failing write does not undo the others) and commits before answering any of them: a write
//! is durable (the WAL is synced, `synchronous=FULL`) before the caller hears that it
//! succeeded. Under load many writers share one fsync (group commit). Reads use a second
//! connection; with WAL they never wait for the writer.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread;

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tokio::sync::{mpsc, oneshot};

use super::sql::{self, ready};
use super::{StorageError, Write, apply, challenges};

/// The schema version this code writes (`PRAGMA user_version`).
pub(super) const SCHEMA_VERSION: i64 = 15;

pub const SCHEMA: &str = "
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
pub const SCHEMA_2: &str = "
ALTER TABLE games ADD COLUMN finished INTEGER;
ALTER TABLE games ADD COLUMN result TEXT;
CREATE INDEX IF NOT EXISTS games_by_finish ON games (finished DESC) WHERE finished IS NOT NULL;
";

/// Version 3: players, challenges and their entries (see [`challenges`]); a game may belong
/// to a challenge and a seat to a player; a secret, made once, from which challenge seeds come.
pub const SCHEMA_3: &str = "
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

/// Version 4: what keeps a challenge's secrets and its ranks fair.
/// - A player's name key (unique, see `crate::names::key`; filled in by
///   `challenges::backfill_name_keys`).
/// - An entry's network (a keyed hash, kept until its challenge closes) and whether it is
///   ranked (not when another entry of the challenge came from its network first); the ranking
///   index orders by seat last, and holds ranked entries only.
/// - The computer's game of a challenge, and a friend challenge's first game, belong to it
///   (hidden as its games are until it closes).
/// - Recent games are paged by (finish, id).
pub(super) const SCHEMA_4: &str = super::CHALLENGE_SECRETS;

/// Version 6: each player's streaks of daily challenges (filled in from the finished entries
/// by `challenges::backfill_streaks`).
pub(super) const SCHEMA_6: &str = super::COMEBACK;

/// Version 5: storage knows no game. The tables of games and challenges lose their lists of
/// game kinds (`CHECK (kind IN ('ink', 'metro'))`, the challenges' kinds too), so that a game
/// the server registers is stored like the others. SQLite drops a check only by making its
/// table again: each is copied whole into a table without it, which takes its name and its
/// indices (run with foreign keys off, then checked).
pub(super) const SCHEMA_5: &str = "
CREATE TABLE games_5 (
    id        TEXT PRIMARY KEY,
    kind      TEXT NOT NULL,
    mode      TEXT NOT NULL,
    setup     TEXT NOT NULL,
    created   INTEGER NOT NULL,
    finished  INTEGER,
    result    TEXT,
    challenge TEXT
);
INSERT INTO games_5 (id, kind, mode, setup, created, finished, result, challenge)
    SELECT id, kind, mode, setup, created, finished, result, challenge FROM games;
DROP TABLE games;
ALTER TABLE games_5 RENAME TO games;
CREATE INDEX games_by_finish ON games (finished DESC, id) WHERE finished IS NOT NULL;
CREATE TABLE challenges_5 (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL,
    game     TEXT NOT NULL,
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
INSERT INTO challenges_5 (id, kind, game, period, opens, closes, seed, origin, by_name, created,
        players, target, computer_game, computer_score, computer_k2)
    SELECT id, kind, game, period, opens, closes, seed, origin, by_name, created,
        players, target, computer_game, computer_score, computer_k2 FROM challenges;
DROP TABLE challenges;
ALTER TABLE challenges_5 RENAME TO challenges;
CREATE INDEX challenges_by_opening ON challenges (opens DESC) WHERE kind <> 'friend';
CREATE INDEX challenges_by_origin ON challenges (origin) WHERE origin IS NOT NULL;
";

/// How long a connection waits for another's lock before it gives up.
const BUSY: std::time::Duration = std::time::Duration::from_secs(5);

/// How many waiting writes one transaction takes at most.
const MAX_BATCH: usize = 512;

struct Job {
    write: Write,
    reply: oneshot::Sender<Result<(), StorageError>>,
}

/// A SQLite file: its writer thread and its reading connection.
#[derive(Clone)]
pub(super) struct Sqlite {
    writer: mpsc::Sender<Job>,
    reader: Arc<Mutex<Connection>>,
}

impl Sqlite {
    /// Opens (creating if needed) the file, upgrades its tables, starts the writer thread.
    /// Returns it, whether an older database was upgraded, and the database's secret.
    pub(super) fn open(path: &Path) -> Result<(Sqlite, bool, [u8; 32]), StorageError> {
        let problems = check(path)?;
        if !problems.is_empty() {
            return Err(StorageError::Damaged {
                at: path.display().to_string(),
                problems,
            });
        }
        let mut conn = Connection::open(path)?;
        configure(&conn)?;
        let upgraded = migrate(&mut conn, path)?;
        let secret = ready(challenges::secret(&mut sql::Sqlite(&conn)))?;
        let reader = Connection::open(path)?;
        configure(&reader)?;
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        thread::Builder::new()
            .name("storage-writer".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StorageError::Task(e.to_string()))?;
        Ok((
            Sqlite {
                writer: tx,
                reader: Arc::new(Mutex::new(reader)),
            },
            upgraded,
            secret,
        ))
    }

    /// Runs a read on the reading connection, off the async threads.
    pub(super) async fn read<T: Send + 'static>(
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

    /// Hands a write to the writer thread; answers once it is committed.
    pub(super) async fn write(&self, write: Write) -> Result<(), StorageError> {
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
/// A consistent copy of the SQLite file at `from`, taken while a server writes to it, into a
/// new file `to` (SQLite's online backup: every page in one read transaction, so the copy is
/// the database as of one moment, with every write committed before it began). The copy's pages
/// and its size in bytes. A `to` that exists is refused: nothing is overwritten.
pub fn backup(from: &Path, to: &Path) -> Result<(usize, u64), StorageError> {
    if !from.exists() {
        return Err(StorageError::Unreachable(format!(
            "{} does not exist",
            from.display()
        )));
    }
    if to.exists() {
        return Err(StorageError::Duplicate(format!(
            "{} exists already: back up to a new file",
            to.display()
        )));
    }
    let source = Connection::open_with_flags(
        from,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(BUSY)?;
    let mut copy = Connection::open(to)?;
    let pages = {
        let backup = rusqlite::backup::Backup::new(&source, &mut copy)?;
        // All pages in one step: one read transaction, one moment of the database.
        loop {
            match backup.step(-1)? {
                rusqlite::backup::StepResult::Done => break,
                rusqlite::backup::StepResult::More => continue,
                rusqlite::backup::StepResult::Busy | rusqlite::backup::StepResult::Locked => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                _ => std::thread::sleep(std::time::Duration::from_millis(50)),
            }
        }
        backup.progress().pagecount as usize
    };
    drop(copy);
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok((pages, bytes))
}

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
    conn.busy_timeout(BUSY)?;
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
    // First the wait for another connection's lock (the server's, when a tool or a test opens
    // the file beside it): even switching to WAL, already on, takes a lock.
    conn.busy_timeout(BUSY)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

/// Creates or upgrades the schema. Returns whether an existing older database was upgraded.
///
/// The transaction takes the write lock at once (`IMMEDIATE`), so that it waits for another
/// connection's writes (the busy timeout) instead of failing when it turns from reading the
/// version to writing; an up-to-date database is left unwritten.
fn migrate(conn: &mut Connection, path: &Path) -> Result<bool, StorageError> {
    // Tables are made again below (version 5) with foreign keys off: a pragma that counts only
    // outside a transaction. They are checked before the commit, and on again after it.
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    let upgraded = migrate_tables(conn, path);
    conn.pragma_update(None, "foreign_keys", "ON")?;
    upgraded
}

fn migrate_tables(conn: &mut Connection, path: &Path) -> Result<bool, StorageError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StorageError::NewerSchema {
            at: path.display().to_string(),
            found: version,
            known: SCHEMA_VERSION,
        });
    }
    if version == SCHEMA_VERSION {
        return Ok(false);
    }
    tx.execute_batch(SCHEMA)?;
    if version < 2 {
        tx.execute_batch(SCHEMA_2)?;
    }
    if version < 3 {
        tx.execute_batch(SCHEMA_3)?;
        ready(challenges::make_secret(&mut sql::Sqlite(&tx)))?;
    }
    if version < 4 {
        tx.execute_batch(SCHEMA_4)?;
        ready(crate::players::backfill_name_keys(&mut sql::Sqlite(&tx)))?;
    }
    if version < 5 {
        tx.execute_batch(SCHEMA_5)?;
        let broken: Vec<String> = tx
            .prepare("PRAGMA foreign_key_check")?
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<Result<_, _>>()?;
        if let Some(table) = broken.first() {
            return Err(StorageError::Corrupt(format!(
                "a row of {table} refers to nothing after the tables were made again"
            )));
        }
    }
    if version < 6 {
        tx.execute_batch(SCHEMA_6)?;
        ready(crate::streaks::backfill_streaks(&mut sql::Sqlite(&tx)))?;
        // The records are counted by version 10, variant by variant.
    }
    if version < 7 {
        tx.execute_batch(super::reviews::SCHEMA)?;
    }
    if version < 8 {
        tx.execute_batch(super::name_keys::SCHEMA)?;
        ready(super::name_keys::rekey(&mut sql::Sqlite(&tx)))?;
    }
    if version < 9 {
        add_columns(&tx, &super::fair_play::COLUMNS_SQLITE)?;
        tx.execute_batch(super::fair_play::SCHEMA)?;
    }
    if version < 10 {
        add_columns(&tx, &super::records::VARIANT_SQLITE)?;
        tx.execute_batch(super::records::BY_VARIANT)?;
        ready(super::records::backfill(&mut sql::Sqlite(&tx)))?;
    }
    if version < 11 {
        add_columns(&tx, &super::streaks::STREAK_FOLLOWS_SQLITE)?;
        tx.execute_batch(super::streaks::STREAK_FOLLOWS)?;
        ready(super::streaks::backfill_follows(&mut sql::Sqlite(&tx)))?;
    }
    if version < 12 {
        tx.execute_batch(super::ratings::SCHEMA)?;
    }
    if version < 13 {
        tx.execute_batch(super::STRANGERS)?;
    }
    if version < 14 {
        tx.execute_batch(super::moderation::SCHEMA)?;
    }
    if version < 15 {
        tx.execute_batch(super::identity::SCHEMA)?;
        tx.execute_batch(super::reminders::SCHEMA)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(version == 1)
}

/// Adds each column (table, column, statement) that is not there yet: SQLite knows no `IF NOT
/// EXISTS` for a column, and a database stepped back to an older version (a test's) adds them
/// again.
fn add_columns(tx: &Connection, columns: &[(&str, &str, &str)]) -> Result<(), StorageError> {
    for &(table, column, add) in columns {
        let there: bool = tx.query_row(
            "SELECT count(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |r| r.get(0),
        )?;
        if !there {
            tx.execute_batch(add)?;
        }
    }
    Ok(())
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

/// Runs every job in one transaction, each in a savepoint; commits once. When the transaction
/// fails as a whole, every job fails and nothing of any is kept; a full disk is then
/// [`StorageError::Full`] for each (try again later), anything else
/// [`StorageError::Transaction`].
fn write_batch(conn: &mut Connection, jobs: &[Job]) -> Vec<Result<(), StorageError>> {
    // IMMEDIATE: the write lock at BEGIN, waited for like any other (a deferred transaction
    // that turns from reading to writing fails at once if another connection wrote meanwhile).
    let tx = match conn.transaction_with_behavior(TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => {
            let e = StorageError::from(e);
            tracing::error!(error = %e, "cannot begin a transaction");
            return jobs.iter().map(|_| Err(of_batch(&e))).collect();
        }
    };
    let mut results: Vec<Result<(), StorageError>> = Vec::with_capacity(jobs.len());
    for (i, job) in jobs.iter().enumerate() {
        match run_in_savepoint(&tx, &job.write) {
            Ok(result) => results.push(result.map_err(disk_full)),
            Err(e) => {
                // The transaction is lost (SQLite rolls it back whole on a full disk or an
                // I/O error): the jobs before went with it, and the rest must not run outside
                // it, each committed on its own. Dropping it undoes whatever is left.
                let e = disk_full(e);
                tracing::error!(error = %e, "the transaction failed");
                drop(tx);
                let mut failed: Vec<_> = jobs.iter().map(|_| Err(of_batch(&e))).collect();
                failed[i] = Err(e);
                return failed;
            }
        }
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => {
            let e = disk_full(e.into());
            tracing::error!(error = %e, "commit failed");
            jobs.iter().map(|_| Err(of_batch(&e))).collect()
        }
    }
}

/// Runs a job in a savepoint of the transaction: its result (a failed job's statements are
/// undone). `Err` when the transaction itself cannot go on: SQLite rolled it back (as on a
/// full disk: then the savepoint is gone too), or the savepoint could not be undone.
fn run_in_savepoint(
    tx: &Transaction<'_>,
    write: &Write,
) -> Result<Result<(), StorageError>, StorageError> {
    tx.execute_batch("SAVEPOINT job")?;
    let result = ready(apply(&mut sql::Sqlite(tx), write));
    if tx.is_autocommit() {
        return Err(result.err().unwrap_or_else(|| {
            StorageError::Transaction("the transaction ended in the middle of a write".into())
        }));
    }
    match result {
        Ok(()) => {
            tx.execute_batch("RELEASE job")?;
            Ok(Ok(()))
        }
        Err(e) => {
            tx.execute_batch("ROLLBACK TO job; RELEASE job")?;
            Ok(Err(e))
        }
    }
}

/// The error of each job of a transaction that failed as a whole, for `e`, why it failed.
fn of_batch(e: &StorageError) -> StorageError {
    match e {
        StorageError::Full(why) => StorageError::Full(why.clone()),
        other => StorageError::Transaction(other.to_string()),
    }
}

/// `e` as [`StorageError::Full`] when it is an I/O error of the writer's connection: SQLite
/// reports a write the disk has no room for as `SQLITE_FULL` itself, but a failed sync,
/// truncation or growth of the shared memory file (on a full disk: the system's `ENOSPC`) as a
/// plain I/O error. Either way nothing was stored, and the client may try again later.
fn disk_full(e: StorageError) -> StorageError {
    match &e {
        StorageError::Sqlite(rusqlite::Error::SqliteFailure(f, _))
            if f.code == rusqlite::ErrorCode::SystemIoFailure =>
        {
            StorageError::Full(e.to_string())
        }
        _ => e,
    }
}
