//! tracklayer's storage: the only crate that knows SQL, and one that knows no game (it depends
//! on no engine and no module of the server, so the compiler keeps it so). Two backends behind
//! one API: an embedded SQLite file (the default, for one process) and a PostgreSQL database
//! (for any number of server processes on any number of machines).
//!
//! By concern: this file holds the configuration, the errors, the rows of games and actions
//! and their SQL; `challenges` players, challenges and entries; `records` bests; `reviews`
//! reviews kept; `copy` one database into another; `sql` the statements' one dialect; `sqlite`
//! and `postgres` the backends and their schema's history; `names` what makes two names of
//! people one (the players' unique key). Hooks for tests only come with the `test-util`
//! feature.
//!
//! A game is stored as what it was created with (its kind, mode and setup as JSON), its
//! seats, and its ordered actions (as JSON). Its state is never stored: it is a replay of the
//! actions. Nothing here knows the rules of a game; setups and actions are opaque JSON text.
//! When a game ends, its last actions are stored together with when it finished and its
//! result (opaque JSON, for the list of recent games): the list never replays a game.
//!
//! The action log is the truth: an action is `(game, index)`, unique. Two processes that
//! append the same index to one game cannot both succeed: the second gets
//! [`StorageError::Conflict`] and nothing of its write is kept (it reloads the game and tries
//! again; see the server's `play::session`).
//!
//! Every statement is written once, against `sql::Sql`, and runs on either backend.
//! - SQLite (`sqlite`): writes go to one writer thread that runs every waiting write in one
//!   transaction (each in its own savepoint) and commits (synced) before answering: group
//!   commit. Reads use a second connection; with WAL they never wait for the writer.
//! - PostgreSQL (`postgres`): a pool of connections; each write is one transaction. A
//!   change to a game is announced (`NOTIFY`) in its transaction, so every process hears of
//!   it once it is committed ([`Storage::listen`]); computer seats are leased
//!   ([`Storage::lease`]) so that one process at a time plays them.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

pub mod challenges;
pub mod copy;
mod fair_play;
pub mod hex;
mod name_keys;
pub mod names;
mod postgres;
pub mod records;
pub mod reviews;
pub mod sql;
mod sqlite;

use thiserror::Error;
use tokio::sync::mpsc;

use sql::{Sql, args};

/// Where the games are: a SQLite file or a PostgreSQL database.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A `postgres://USER:PASSWORD@HOST:PORT/DATABASE` URL.
    Postgres(String),
}

impl Database {
    /// A URL starting `postgres://` or `postgresql://` is PostgreSQL; anything else is the
    /// path of a SQLite file.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Postgres(text.to_owned())
        } else {
            Database::Sqlite(PathBuf::from(text))
        }
    }

    /// Whether several processes may share it.
    pub fn is_shared(&self) -> bool {
        matches!(self, Database::Postgres(_))
    }
}

impl From<&str> for Database {
    fn from(text: &str) -> Database {
        Database::parse(text)
    }
}

impl From<String> for Database {
    fn from(text: String) -> Database {
        Database::parse(&text)
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl From<&Path> for Database {
    fn from(path: &Path) -> Database {
        Database::Sqlite(path.to_owned())
    }
}

impl From<&PathBuf> for Database {
    fn from(path: &PathBuf) -> Database {
        Database::Sqlite(path.clone())
    }
}

/// Shown without the password of a URL.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&postgres::without_password(url)),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Database({self})")
    }
}

/// Why storage failed. Callers log it; it is never shown to a client.
#[derive(Debug, Error)]
pub enum StorageError {
    #[error("sqlite: {0}")]
    Sqlite(rusqlite::Error),
    /// The disk is full (SQLite could not grow its file or its journal): nothing of the write
    /// was kept. It passes once space is freed; reads go on meanwhile.
    #[error("the disk is full: {0}")]
    Full(String),
    #[error("postgres: {}", postgres_words(.0))]
    Postgres(tokio_postgres::Error),
    #[error("cannot reach the database: {0}")]
    Unreachable(String),
    #[error(
        "the database {at} was written by a newer version of tracklayer (schema {found}, this one knows {known}): run the newer version, or give another --db"
    )]
    NewerSchema { at: String, found: i64, known: i64 },
    #[error("the storage writer has stopped")]
    WriterGone,
    #[error("a background task failed: {0}")]
    Task(String),
    #[error("the transaction failed: {0}")]
    Transaction(String),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
    /// The database is damaged: what its check found.
    #[error(
        "the database {at} is damaged ({}); restore it from a backup, or move it away to start with an empty one (`tracklayer db check --db {at}` lists every problem)",
        problems.first().map(String::as_str).unwrap_or("unreadable")
    )]
    Damaged { at: String, problems: Vec<String> },
    /// A unique key refused the write (say, a second attempt at a challenge): nothing was
    /// written.
    #[error("already stored: {0}")]
    Duplicate(String),
    /// Another process stored an action at one of these indices (or took this seat) first:
    /// nothing was written. The game must be read again.
    #[error("game {0} changed in the meantime")]
    Conflict(String),
    /// The write came at or after its deadline by the database's clock (a challenge game's
    /// action or a new attempt after the challenge closed): nothing was written.
    #[error("too late: the deadline was {deadline} by the database's clock, which read {now}")]
    Closed { deadline: i64, now: i64 },
}

impl StorageError {
    /// The error of a failed SQLite statement: [`StorageError::Duplicate`] for a unique key,
    /// [`StorageError::Full`] for a full disk.
    fn of(e: rusqlite::Error) -> StorageError {
        match &e {
            rusqlite::Error::SqliteFailure(f, msg)
                if f.code == rusqlite::ErrorCode::ConstraintViolation
                    && msg
                        .as_deref()
                        .is_some_and(|m| m.contains("UNIQUE") || m.contains("PRIMARY KEY")) =>
            {
                StorageError::Duplicate(msg.clone().unwrap_or_default())
            }
            _ => StorageError::from(e),
        }
    }

    /// The error of a failed PostgreSQL statement: [`StorageError::Duplicate`] for a unique
    /// key; [`StorageError::Unreachable`] when the connection is gone (closed, or ended by
    /// the server: SQLSTATE classes 08 and 57, as in a restart or an outage).
    fn of_postgres(e: tokio_postgres::Error) -> StorageError {
        use std::error::Error as _;
        match e.as_db_error() {
            Some(db) if *db.code() == tokio_postgres::error::SqlState::UNIQUE_VIOLATION => {
                StorageError::Duplicate(db.message().to_owned())
            }
            Some(db)
                if db.code().code().starts_with("08") || db.code().code().starts_with("57") =>
            {
                StorageError::Unreachable(db.message().to_owned())
            }
            None if e.is_closed()
                || e.source()
                    .is_some_and(|s| s.downcast_ref::<std::io::Error>().is_some()) =>
            {
                StorageError::Unreachable(postgres_words(&e))
            }
            _ => StorageError::Postgres(e),
        }
    }
}

impl From<tokio_postgres::Error> for StorageError {
    fn from(e: tokio_postgres::Error) -> StorageError {
        StorageError::of_postgres(e)
    }
}

impl From<rusqlite::Error> for StorageError {
    /// [`StorageError::Full`] for a full disk (`SQLITE_FULL`, or an I/O error that says
    /// `ENOSPC`), else [`StorageError::Sqlite`].
    fn from(e: rusqlite::Error) -> StorageError {
        if is_disk_full(&e) {
            StorageError::Full(e.to_string())
        } else {
            StorageError::Sqlite(e)
        }
    }
}

/// Whether SQLite failed for want of disk space: `SQLITE_FULL` (a write the disk had no room
/// for, or the file at its size limit), or an I/O error whose words say `ENOSPC`.
fn is_disk_full(e: &rusqlite::Error) -> bool {
    match e {
        rusqlite::Error::SqliteFailure(f, msg) => {
            f.code == rusqlite::ErrorCode::DiskFull
                || (f.code == rusqlite::ErrorCode::SystemIoFailure
                    && msg.as_deref().is_some_and(|m| {
                        m.contains("ENOSPC") || m.contains("No space left on device")
                    }))
        }
        _ => false,
    }
}

impl From<deadpool_postgres::PoolError> for StorageError {
    /// A connection could not be had: the database is unreachable, whatever PostgreSQL said
    /// (it refused the login, the database does not allow connections, the server is down).
    fn from(e: deadpool_postgres::PoolError) -> StorageError {
        StorageError::Unreachable(match e {
            deadpool_postgres::PoolError::Backend(e) => postgres_words(&e),
            other => format!("no connection to the database: {other}"),
        })
    }
}

/// What PostgreSQL said, when it said something; else the error and its cause.
fn postgres_words(e: &tokio_postgres::Error) -> String {
    use std::error::Error as _;
    match (e.as_db_error(), e.source()) {
        (Some(db), _) => db.message().to_owned(),
        (None, Some(source)) => format!("{e}: {source}"),
        (None, None) => e.to_string(),
    }
}

/// The kind of game a row belongs to (`ink`, `metro`: whatever game the server registers;
/// storage knows none of them).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameKind(String);

impl GameKind {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn parse(s: &str) -> Result<GameKind, StorageError> {
        if s.is_empty() || s.len() > 32 {
            return Err(StorageError::Corrupt(format!("a game kind {s:?}")));
        }
        Ok(GameKind(s.to_owned()))
    }
}

impl From<&str> for GameKind {
    fn from(kind: &str) -> GameKind {
        GameKind(kind.to_owned())
    }
}

impl PartialEq<&str> for GameKind {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who sits in a seat (`human` or `computer` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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
    /// The variant of its game it is played in (Railroad Ink's `lake`, `river`), opaque here:
    /// records keep a best for each.
    pub variant: Option<String>,
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
    /// A friend challenge played on new dice (see [`challenges::ChallengeRow::fresh`]).
    pub fresh: bool,
}

impl ChallengeRef {
    /// Whether the challenge has closed by `now` (milliseconds since the Unix epoch).
    pub fn is_closed(&self, now: i64) -> bool {
        self.closes.is_some_and(|t| now >= t)
    }
}

impl From<&challenges::ChallengeRow> for ChallengeRef {
    fn from(c: &challenges::ChallengeRow) -> ChallengeRef {
        ChallengeRef {
            id: c.id.clone(),
            kind: c.kind.clone(),
            closes: c.closes,
            by: c.by.clone(),
            fresh: c.fresh,
        }
    }
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
    /// The game made to play this one again ("Play again"), once one is.
    pub rematch: Option<String>,
    /// When its draws were first shown to someone who does not sit in it (a spectator, a
    /// replay, a review), in milliseconds since the Unix epoch: a friend challenge is never
    /// played on dice shown so.
    pub shown: Option<i64>,
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
    /// Refused ([`StorageError::Closed`]) at or after this time by the database's clock
    /// (milliseconds since the Unix epoch): a challenge game's close.
    pub deadline: Option<i64>,
}

/// The statements of the migration that keeps challenges' secrets (SQLite's schema 4,
/// PostgreSQL's 2: the same text runs on both): a player's name key; an entry's network and
/// whether it is ranked; the ranking index by seat last, over ranked entries; the computer's game
/// and a friend challenge's first game in their challenge; recent games paged by (finish, id).
/// The name keys are filled in after (`challenges::backfill_name_keys`).
pub(crate) const CHALLENGE_SECRETS: &str = "
ALTER TABLE players ADD COLUMN name_key TEXT;
ALTER TABLE entries ADD COLUMN addr TEXT;
ALTER TABLE entries ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1;
DROP INDEX IF EXISTS entries_ranked;
CREATE INDEX entries_ranked
    ON entries (challenge, score DESC, k2 DESC, finished, game, seat)
    WHERE finished IS NOT NULL AND ranked = 1;
CREATE INDEX entries_by_addr ON entries (challenge, addr) WHERE addr IS NOT NULL;
CREATE INDEX challenges_by_origin ON challenges (origin) WHERE origin IS NOT NULL;
DROP INDEX IF EXISTS games_by_finish;
CREATE INDEX games_by_finish ON games (finished DESC, id) WHERE finished IS NOT NULL;
UPDATE games SET challenge = (SELECT c.id FROM challenges c WHERE c.computer_game = games.id)
 WHERE challenge IS NULL
   AND id IN (SELECT computer_game FROM challenges WHERE computer_game IS NOT NULL);
UPDATE games SET challenge =
    (SELECT c.id FROM challenges c WHERE c.origin = games.id ORDER BY c.created, c.id LIMIT 1)
 WHERE challenge IS NULL AND id IN (SELECT origin FROM challenges WHERE origin IS NOT NULL);
";

/// The statements of the migration that brings players back (SQLite's schema 6, PostgreSQL's
/// 4): streaks, a player's current and longest run of consecutive days with a finished daily
/// challenge, per kind of challenge, and the run's last day (filled in after by
/// `challenges::backfill_streaks`, then kept as entries finish); and rematches, the one game
/// made to play a finished game again (its key makes a second one a duplicate).
pub(crate) const COMEBACK: &str = "
CREATE TABLE IF NOT EXISTS streaks (
    player  TEXT NOT NULL REFERENCES players(id),
    kind    TEXT NOT NULL,
    last    TEXT NOT NULL,
    current INTEGER NOT NULL,
    longest INTEGER NOT NULL,
    PRIMARY KEY (player, kind)
);
CREATE TABLE IF NOT EXISTS bests (
    player    TEXT NOT NULL REFERENCES players(id),
    game      TEXT NOT NULL,
    mode      TEXT NOT NULL,
    games     INTEGER NOT NULL,
    best      INTEGER NOT NULL,
    best_game TEXT NOT NULL,
    previous  INTEGER,
    sum       INTEGER NOT NULL,
    PRIMARY KEY (player, game, mode)
);
CREATE TABLE IF NOT EXISTS rematches (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    rematch TEXT NOT NULL REFERENCES games(id)
);
";

/// A change to the database, run in one transaction.
#[derive(Debug, Clone)]
pub(crate) enum Write {
    Create(NewGame),
    Append(Append),
    /// The actions that end a game, and how it ended, in one transaction.
    Finish(Append, Finished),
    /// How an already stored game ended (for games stored before version 2).
    Mark(String, Finished),
    /// Players and challenges (see [`challenges`]).
    Challenge(challenges::Write),
    /// The game made to play a finished one again: `(game, rematch)`.
    Rematch(String, String),
    /// A game's draws were shown to someone who does not sit in it, at this time (kept once).
    Shown(String, i64),
    /// A finished game's seat's review (see [`reviews`]).
    Review(reviews::NewReview),
    /// Rows copied from another database, and its secret (see [`copy`]).
    Copy(Vec<copy::Rows>, Option<String>),
    #[cfg(any(test, feature = "test-util"))]
    /// Finished entries of a challenge, for tests (see [`challenges::fill_for_test`]).
    Fill(String, Vec<(i64, i64, i64)>),
    #[cfg(any(test, feature = "test-util"))]
    /// A statement of a test (see [`Storage::exec_for_test`]).
    Test(String, Vec<sql::Value>),
    #[cfg(any(test, feature = "test-util"))]
    /// At most this many pages in the SQLite file, on the writer's connection: a test's full
    /// disk (see [`Storage::limit_pages_for_test`]).
    PageLimit(u32),
}

impl Write {
    /// The game whose actions this write changes, and how many it has after it: what other
    /// processes are told once it is committed.
    fn announces(&self) -> Option<(&str, usize)> {
        match self {
            Write::Append(a) | Write::Finish(a, _) => {
                Some((a.game.as_str(), a.first + a.actions.len()))
            }
            // The finished game's players hear of its rematch wherever they are.
            Write::Rematch(game, _) => Some((game.as_str(), 0)),
            _ => None,
        }
    }
}

/// Runs a write's statements (inside the caller's transaction).
async fn apply<S: Sql>(s: &mut S, write: &Write) -> Result<(), StorageError> {
    match write {
        Write::Create(game) => insert_game(s, game).await,
        Write::Append(append) => insert_actions(s, append).await,
        Write::Finish(append, finished) => {
            insert_actions(s, append).await?;
            set_finished(s, &append.game, finished).await
        }
        Write::Mark(game, finished) => set_finished(s, game, finished).await,
        Write::Rematch(game, rematch) => {
            s.exec(
                "INSERT INTO rematches (game, rematch) VALUES (?1, ?2)",
                args![game, rematch],
            )
            .await?;
            Ok(())
        }
        Write::Shown(game, at) => {
            s.exec(
                "UPDATE games SET shown = ?2 WHERE id = ?1 AND shown IS NULL",
                args![game, *at],
            )
            .await?;
            Ok(())
        }
        Write::Review(review) => reviews::insert(s, review).await,
        Write::Challenge(write) => challenges::write(s, write).await,
        Write::Copy(rows, secret) => {
            if let Some(secret) = secret {
                copy::set_secret(s, secret).await?;
            }
            copy::insert(s, rows).await
        }
        #[cfg(any(test, feature = "test-util"))]
        Write::Fill(challenge, rows) => challenges::fill(s, challenge, rows).await,
        #[cfg(any(test, feature = "test-util"))]
        Write::PageLimit(pages) => s
            .rows(&format!("PRAGMA max_page_count = {pages}"), &[])
            .await
            .map(drop),
        #[cfg(any(test, feature = "test-util"))]
        Write::Test(statement, values) => {
            let args: Vec<sql::Arg<'_>> = values.iter().map(sql::Arg::from).collect();
            s.exec(statement, &args).await.map(drop)
        }
    }
}

/// A committed change to a game, heard from the database (PostgreSQL only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Process `origin` (see [`Storage::process_id`]) changed game `id`, which has
    /// `actions` actions stored now.
    Changed {
        id: String,
        actions: usize,
        origin: String,
    },
    /// The connection that listens was lost and made again: changes may have been missed,
    /// so every game held in memory should be read again.
    Reconnected,
}

#[derive(Clone)]
enum Backend {
    Sqlite(sqlite::Sqlite),
    Postgres(Arc<postgres::Postgres>),
}

/// The game store. Cheap to clone; every clone talks to the same database.
#[derive(Clone)]
pub struct Storage {
    backend: Backend,
    /// Whether opening upgraded an older database (whose finished games lack results).
    upgraded: bool,
    /// Made once, when the database was created: challenge seeds come from it.
    secret: Arc<[u8; 32]>,
    /// This process (random, made at open): holds leases, signs announcements.
    process: Arc<str>,
}

/// A random name for this process.
fn process_name() -> Result<Arc<str>, StorageError> {
    Ok(crate::hex::random_hex::<8>()
        .map_err(|e| StorageError::Task(e.to_string()))?
        .into())
}

/// Runs a read on either backend: `|sql| future` where the future uses `sql`
/// ([`sql::Sql`]). SQLite's runs on a blocking thread; PostgreSQL's on a pooled connection.
macro_rules! read {
    ($storage:expr, |$sql:ident| $body:expr) => {
        match &$storage.backend {
            Backend::Sqlite(db) => {
                db.read(move |conn| {
                    let mut $sql = sql::Sqlite(conn);
                    sql::ready($body)
                })
                .await
            }
            Backend::Postgres(db) => {
                let client = db.client().await?;
                let mut $sql = sql::Postgres(&client);
                let result = $body.await;
                db.noticed(client, result)
            }
        }
    };
}
pub(crate) use read;

impl Storage {
    /// Opens (creating if needed) the SQLite file at `path` and starts its writer thread.
    /// A damaged file is refused ([`StorageError::Damaged`]): see [`check`].
    pub fn open(path: &Path) -> Result<Storage, StorageError> {
        let (db, upgraded, secret) = sqlite::Sqlite::open(path)?;
        Ok(Storage {
            backend: Backend::Sqlite(db),
            upgraded,
            secret: Arc::new(secret),
            process: process_name()?,
        })
    }

    /// Opens either kind of database: creates or upgrades its tables, refuses one that is
    /// damaged or written by a newer version.
    pub async fn connect(database: &Database) -> Result<Storage, StorageError> {
        match database {
            Database::Sqlite(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || Storage::open(&path))
                    .await
                    .map_err(|e| StorageError::Task(e.to_string()))?
            }
            Database::Postgres(url) => {
                let process = process_name()?;
                let (db, secret) = postgres::Postgres::open(url, process.clone()).await?;
                Ok(Storage {
                    backend: Backend::Postgres(Arc::new(db)),
                    upgraded: false,
                    secret: Arc::new(secret),
                    process,
                })
            }
        }
    }

    /// Whether other processes may write to the same database (PostgreSQL): then changes
    /// are heard through [`Storage::listen`] and computer seats need a [`Storage::lease`].
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// This process's name: the holder of its leases, the origin of its announcements.
    pub fn process_id(&self) -> &str {
        &self.process
    }

    /// The database's secret, made when it was created (challenge seeds come from it).
    pub fn secret(&self) -> &[u8; 32] {
        &self.secret
    }

    /// Whether opening upgraded a database written by an older version that kept no results
    /// of finished games (then the server's `replay::backfill` records them).
    pub fn upgraded(&self) -> bool {
        self.upgraded
    }

    /// Stores a new game with its seats; durable when this returns `Ok`.
    pub async fn create_game(&self, game: NewGame) -> Result<(), StorageError> {
        self.write(Write::Create(game)).await
    }

    /// Appends actions (and a joining seat) to a game; durable when this returns `Ok`.
    ///
    /// Fails without writing anything if an action already has one of the indices (or the
    /// seat is taken): [`StorageError::Conflict`].
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

    /// The most recently finished games that belong to no challenge, newest first (then by
    /// id), of one kind or both, at most `limit`: those after `after` in that order, when
    /// given: `(finished, None)` is every game finished before then (milliseconds since the
    /// Unix epoch); `(finished, Some(id))` what comes after that game (keyset paging: no game
    /// is skipped or repeated, however many finish in one millisecond).
    pub async fn finished_games(
        &self,
        kind: Option<GameKind>,
        after: Option<(i64, Option<String>)>,
        limit: usize,
    ) -> Result<Vec<FinishedGame>, StorageError> {
        read!(self, |s| finished_games(&mut s, kind, after, limit))
    }

    /// The ids of stored games with no finish recorded, oldest first.
    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StorageError> {
        read!(self, |s| unfinished_ids(&mut s))
    }

    /// A stored game's head (who sits in it, its challenge), or `None` if there is no such
    /// game.
    pub async fn game_head(&self, id: &str) -> Result<Option<GameHead>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| head(&mut s, &id))
    }

    /// Everything stored about a game, or `None` if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| load(&mut s, &id))
    }

    /// Records `rematch` as the game made to play `game` again; [`StorageError::Duplicate`] if
    /// one was recorded first (see [`StoredGame::rematch`]).
    pub async fn set_rematch(&self, game: &str, rematch: &str) -> Result<(), StorageError> {
        self.write(Write::Rematch(game.to_owned(), rematch.to_owned()))
            .await
    }

    /// The game made to play `game` again, if any.
    pub async fn rematch_of(&self, game: &str) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT rematch FROM rematches WHERE game = ?1",
                    args![&game],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// Records that a game's draws were shown, at `at`, to someone who does not sit in it (the
    /// first time counts).
    pub async fn mark_shown(&self, game: &str, at: i64) -> Result<(), StorageError> {
        self.write(Write::Shown(game.to_owned(), at)).await
    }

    /// The hash of the token of a game's seat, if the seat is stored and has a token.
    pub async fn seat_token_hash(
        &self,
        game: &str,
        seat: usize,
    ) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT token_hash FROM seats WHERE game = ?1 AND seat = ?2",
                    args![&game, seat],
                )
                .await?
            {
                Some(mut r) => Ok(r.get(0)?),
                None => Ok(None),
            }
        })
    }

    /// How much of a game is stored: its actions and its seats (what a process compares with
    /// its copy before it refuses anything).
    pub async fn game_version(&self, id: &str) -> Result<(usize, usize), StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            let row = s
                .row(
                    "SELECT (SELECT CAST(count(*) AS BIGINT) FROM actions WHERE game = ?1),
                            (SELECT CAST(count(*) AS BIGINT) FROM seats WHERE game = ?1)",
                    args![&id],
                )
                .await?;
            match row {
                Some(mut r) => Ok((r.get(0)?, r.get(1)?)),
                None => Ok((0, 0)),
            }
        })
    }

    /// The challenge a stored game belongs to now (a finished game may have become a friend
    /// challenge's since it was loaded).
    pub async fn game_challenge(&self, id: &str) -> Result<Option<ChallengeRef>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            let row = s
                .row(
                    "SELECT c.id, c.kind, c.closes, c.by_name, c.fresh
                     FROM games g JOIN challenges c ON c.id = g.challenge WHERE g.id = ?1",
                    args![&id],
                )
                .await?;
            match row {
                Some(mut r) => Ok(Some(ChallengeRef {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    closes: r.get(2)?,
                    by: r.get(3)?,
                    fresh: r.get::<i64>(4)? != 0,
                })),
                None => Ok(None),
            }
        })
    }

    /// The kind of a stored game, `None` if there is no such game.
    pub async fn game_kind(&self, id: &str) -> Result<Option<GameKind>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| game_kind(&mut s, &id))
    }

    /// The database's clock (see [`sql::Sql::now_ms`]).
    pub async fn database_now(&self) -> Result<i64, StorageError> {
        read!(self, |s| async move { s.now_ms().await })
    }

    /// Takes (or renews) the lease called `key` for `holder` until `until` (milliseconds
    /// since the Unix epoch), unless another holder has it and it has not run out. Returns
    /// whether `holder` has it now. On SQLite, which one process owns, it is always granted.
    pub async fn lease(&self, key: &str, holder: &str, until: i64) -> Result<bool, StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(true),
            Backend::Postgres(db) => db.lease(key, holder, until, now_ms()).await,
        }
    }

    /// Gives a lease up (if `holder` has it).
    pub async fn release(&self, key: &str, holder: &str) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(db) => db.release(key, holder).await,
        }
    }

    /// Removes the lease `key` if it ran out before `now` (its work turned out to be done).
    pub async fn clear_expired(&self, key: &str, now: i64) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(()),
            Backend::Postgres(db) => db.clear_expired(key, now).await,
        }
    }

    /// The leases that ran out before `now`: their holders stopped (a process died).
    pub async fn expired_leases(&self, now: i64) -> Result<Vec<String>, StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(Vec::new()),
            Backend::Postgres(db) => db.expired_leases(now).await,
        }
    }

    /// The committed changes of every process, from the moment this returns: `None` on
    /// SQLite (this process makes every change itself). The channel ends when the storage is
    /// dropped.
    pub async fn listen(&self) -> Result<Option<mpsc::Receiver<Notice>>, StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(None),
            Backend::Postgres(db) => db.listen().await.map(Some),
        }
    }

    #[cfg(any(test, feature = "test-util"))]
    /// Runs one statement written for SQLite (`?1` placeholders) on either backend, with
    /// text arguments: for tests that change a database behind the server's back.
    #[doc(hidden)]
    pub async fn exec_for_test(&self, statement: &str, args: &[&str]) -> Result<(), StorageError> {
        let values = args
            .iter()
            .map(|a| sql::Value::Text((*a).to_owned()))
            .collect();
        self.write(Write::Test(statement.to_owned(), values)).await
    }

    #[cfg(any(test, feature = "test-util"))]
    /// Lets the SQLite file grow to `pages` pages at most (never less than it has now): from
    /// then on a write that needs more space fails as on a full disk. It holds for the
    /// writer's connection, so for every write of this storage (and of a server that runs on
    /// it: see the server's `Running::storage_for_test`). Test-only; SQLite only.
    #[doc(hidden)]
    pub async fn limit_pages_for_test(&self, pages: u32) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Sqlite(_) => self.write(Write::PageLimit(pages)).await,
            Backend::Postgres(_) => {
                Err(StorageError::Task("a page limit is for SQLite only".into()))
            }
        }
    }

    /// Whether the database answers: one trivial read (`SELECT 1`), for the health check.
    pub async fn ping(&self) -> Result<(), StorageError> {
        read!(
            self,
            |s| async move { s.rows("SELECT 1", &[]).await.map(drop) }
        )
    }

    #[cfg(any(test, feature = "test-util"))]
    /// The first column of the first row of a query (a number), for tests.
    #[doc(hidden)]
    pub async fn count_for_test(
        &self,
        statement: &str,
        args: &[&str],
    ) -> Result<i64, StorageError> {
        let values = args
            .iter()
            .map(|a| sql::Value::Text((*a).to_owned()))
            .collect();
        self.first_number(statement.to_owned(), values).await
    }

    /// The rows of one statement written for SQLite (`?1` placeholders), on either backend.
    async fn query(
        &self,
        statement: String,
        values: Vec<sql::Value>,
    ) -> Result<Vec<sql::Row>, StorageError> {
        read!(self, |s| async move {
            let args: Vec<sql::Arg<'_>> = values.iter().map(sql::Arg::from).collect();
            s.rows(&statement, &args).await
        })
    }

    /// The first column of a query's first row, a number (0 without a row).
    async fn first_number<T: sql::FromValue + Default>(
        &self,
        statement: String,
        values: Vec<sql::Value>,
    ) -> Result<T, StorageError> {
        match self.query(statement, values).await?.into_iter().next() {
            Some(mut r) => r.get(0),
            None => Ok(T::default()),
        }
    }

    async fn write(&self, write: Write) -> Result<(), StorageError> {
        match &self.backend {
            Backend::Sqlite(db) => db.write(write).await,
            Backend::Postgres(db) => db.write(write).await,
        }
    }
}

#[cfg(any(test, feature = "test-util"))]
/// A new, empty PostgreSQL database for a test, made on the server named by the environment
/// variable `TRACKLAYER_TEST_PG` (a URL whose user may create databases). `None` when it is
/// not set: the caller says it skipped; with `TRACKLAYER_REQUIRE_PG=1` (as `.ci/run` sets)
/// that is an error instead.
#[doc(hidden)]
pub async fn fresh_test_database() -> Result<Option<Database>, StorageError> {
    let Ok(admin) = std::env::var("TRACKLAYER_TEST_PG") else {
        if std::env::var("TRACKLAYER_REQUIRE_PG").is_ok_and(|v| v == "1") {
            return Err(StorageError::Unreachable(
                "TRACKLAYER_REQUIRE_PG=1 but TRACKLAYER_TEST_PG is not set".into(),
            ));
        }
        return Ok(None);
    };
    postgres::fresh_database(&admin).await.map(Some)
}

#[cfg(any(test, feature = "test-util"))]
/// [`fresh_test_database`] on a runtime of its own, for tests that run no runtime.
#[doc(hidden)]
pub fn fresh_test_database_blocking() -> Result<Option<Database>, StorageError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StorageError::Task(e.to_string()))?
        .block_on(fresh_test_database())
}

/// [`check`] on a runtime of its own, for the command line.
pub fn check_blocking(database: &Database) -> Result<Vec<String>, StorageError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StorageError::Task(e.to_string()))?
        .block_on(check(database))
}

/// Checks a database's integrity without changing it. Returns what is wrong, empty when it
/// is sound. SQLite: `PRAGMA quick_check` (every page, b-tree and index entry; a file that
/// does not exist yet is sound: it will be created). PostgreSQL: the connection, the schema
/// version, and that every action and seat belongs to a stored game with no gap in its
/// actions.
pub async fn check(database: &Database) -> Result<Vec<String>, StorageError> {
    match database {
        Database::Sqlite(path) => sqlite::check(path),
        Database::Postgres(url) => postgres::check(url).await,
    }
}

pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

async fn insert_game<S: Sql>(s: &mut S, game: &NewGame) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO games (id, kind, mode, setup, created, challenge, variant)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![
            &game.id,
            game.kind.as_str(),
            &game.mode,
            &game.setup,
            game.created,
            game.entry.as_ref().map(|e| e.challenge.as_str()),
            game.variant.as_deref(),
        ],
    )
    .await?;
    for seat in &game.seats {
        insert_seat(s, &game.id, seat, game.created).await?;
    }
    if let Some(entry) = &game.entry {
        challenges::insert_entry(s, &game.id, entry).await?;
    }
    Ok(())
}

async fn insert_seat<S: Sql>(
    s: &mut S,
    game: &str,
    seat: &SeatRow,
    now: i64,
) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO seats (game, seat, name, kind, agent, token_hash, joined, player)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
            game,
            seat.seat,
            &seat.name,
            seat.kind.as_str(),
            seat.agent.as_deref(),
            seat.token_hash.as_deref(),
            now,
            seat.player.as_deref(),
        ],
    )
    .await?;
    Ok(())
}

/// Refuses a write at or after `deadline` by the database's clock.
pub(crate) async fn before_deadline<S: Sql>(
    s: &mut S,
    deadline: Option<i64>,
) -> Result<(), StorageError> {
    if let Some(deadline) = deadline {
        let now = s.now_ms().await?;
        if now >= deadline {
            return Err(StorageError::Closed { deadline, now });
        }
    }
    Ok(())
}

/// Appends actions; an index (or seat) stored already is [`StorageError::Conflict`].
async fn insert_actions<S: Sql>(s: &mut S, append: &Append) -> Result<(), StorageError> {
    before_deadline(s, append.deadline).await?;
    let conflict = |e: StorageError| match e {
        StorageError::Duplicate(_) => StorageError::Conflict(append.game.clone()),
        e => e,
    };
    let now = now_ms();
    if let Some(seat) = &append.seat {
        insert_seat(s, &append.game, seat, now)
            .await
            .map_err(conflict)?;
    }
    for (i, row) in append.actions.iter().enumerate() {
        s.exec(
            "INSERT INTO actions (game, idx, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            args![&append.game, append.first + i, row.seat, &row.action, now],
        )
        .await
        .map_err(conflict)?;
    }
    Ok(())
}

async fn set_finished<S: Sql>(
    s: &mut S,
    game: &str,
    finished: &Finished,
) -> Result<(), StorageError> {
    let changed = s
        .exec(
            "UPDATE games SET finished = ?2, result = ?3 WHERE id = ?1",
            args![game, finished.at, &finished.result],
        )
        .await?;
    if changed != 1 {
        return Err(StorageError::Corrupt(format!(
            "no game {game} to mark finished"
        )));
    }
    records::count_finish(s, game, finished).await?;
    challenges::finish_entries(s, game, finished).await
}

async fn finished_games<S: Sql>(
    s: &mut S,
    kind: Option<GameKind>,
    after: Option<(i64, Option<String>)>,
    limit: usize,
) -> Result<Vec<FinishedGame>, StorageError> {
    let (at, id) = match after {
        Some((at, id)) => (Some(at), id),
        None => (None, None),
    };
    s.rows_as(
            "SELECT id, kind, mode, created, finished, result FROM games
             WHERE finished IS NOT NULL AND challenge IS NULL AND (CAST(?1 AS TEXT) IS NULL OR kind = ?1)
               AND (CAST(?2 AS BIGINT) IS NULL OR finished < ?2
                    OR (finished = ?2 AND CAST(?3 AS TEXT) IS NOT NULL AND id > ?3))
             ORDER BY finished DESC, id LIMIT ?4",
            args![kind.as_ref().map(GameKind::as_str), at, id.as_deref(), limit],
            |mut r| {
                Ok(FinishedGame {
                    id: r.get(0)?,
                    kind: GameKind::parse(&r.get::<String>(1)?)?,
                    mode: r.get(2)?,
                    created: r.get(3)?,
                    finished: Finished {
                        at: r.get(4)?,
                        result: r.get(5)?,
                        entries: Vec::new(),
                    },
                })
            },
        )
        .await
}

async fn unfinished_ids<S: Sql>(s: &mut S) -> Result<Vec<String>, StorageError> {
    s.rows_as(
        "SELECT id FROM games WHERE finished IS NULL ORDER BY created, id",
        args![],
        |mut r| r.get(0),
    )
    .await
}

async fn game_kind<S: Sql>(s: &mut S, id: &str) -> Result<Option<GameKind>, StorageError> {
    match s
        .row("SELECT kind FROM games WHERE id = ?1", args![id])
        .await?
    {
        Some(mut r) => Ok(Some(GameKind::parse(&r.get::<String>(0)?)?)),
        None => Ok(None),
    }
}

/// A stored game's head: what decides who may read it, without its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHead {
    pub kind: GameKind,
    pub mode: String,
    pub setup: String,
    pub created: i64,
    pub seats: Vec<SeatRow>,
    pub challenge: Option<ChallengeRef>,
    /// See [`StoredGame::shown`].
    pub shown: Option<i64>,
}

async fn head<S: Sql>(s: &mut S, id: &str) -> Result<Option<GameHead>, StorageError> {
    let head = s
        .row(
            "SELECT g.kind, g.mode, g.setup, g.created, c.id, c.kind, c.closes, c.by_name, g.shown,
                    c.fresh
             FROM games g LEFT JOIN challenges c ON c.id = g.challenge WHERE g.id = ?1",
            args![id],
        )
        .await?;
    let Some(mut r) = head else {
        return Ok(None);
    };
    let kind = GameKind::parse(&r.get::<String>(0)?)?;
    let (mode, setup, created) = (r.get(1)?, r.get(2)?, r.get(3)?);
    let shown = r.get(8)?;
    let challenge = match r.get::<Option<String>>(4)? {
        Some(id) => Some(ChallengeRef {
            id,
            kind: r.get(5)?,
            closes: r.get(6)?,
            by: r.get(7)?,
            fresh: r.get::<i64>(9)? != 0,
        }),
        None => None,
    };
    let seats = s
        .rows_as(
            "SELECT seat, name, kind, agent, token_hash, player FROM seats WHERE game = ?1 ORDER BY seat",
            args![id],
            |mut r| {
                Ok(SeatRow {
                    seat: r.get(0)?,
                    name: r.get(1)?,
                    kind: SeatKind::parse(&r.get::<String>(2)?)?,
                    agent: r.get(3)?,
                    token_hash: r.get(4)?,
                    player: r.get(5)?,
                })
            },
        )
        .await?;
    Ok(Some(GameHead {
        kind,
        mode,
        setup,
        created,
        seats,
        challenge,
        shown,
    }))
}

async fn load<S: Sql>(s: &mut S, id: &str) -> Result<Option<StoredGame>, StorageError> {
    let Some(GameHead {
        kind,
        mode,
        setup,
        created,
        seats,
        challenge,
        shown,
    }) = head(s, id).await?
    else {
        return Ok(None);
    };
    let rows = s
        .rows(
            "SELECT idx, seat, action FROM actions WHERE game = ?1 ORDER BY idx",
            args![id],
        )
        .await?;
    let mut actions = Vec::with_capacity(rows.len());
    for mut r in rows {
        let idx: usize = r.get(0)?;
        if idx != actions.len() {
            return Err(StorageError::Corrupt(format!(
                "game {id}: action {} is missing",
                actions.len()
            )));
        }
        actions.push(ActionRow {
            seat: r.get(1)?,
            action: r.get(2)?,
        });
    }
    let rematch = match s
        .row("SELECT rematch FROM rematches WHERE game = ?1", args![id])
        .await?
    {
        Some(mut r) => Some(r.get(0)?),
        None => None,
    };
    Ok(Some(StoredGame {
        id: id.to_owned(),
        kind,
        mode,
        setup,
        created,
        seats,
        actions,
        challenge,
        rematch,
        shown,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_told_apart_from_other_failures() {
        use rusqlite::ffi;
        let failure = |code, words: Option<&str>| {
            StorageError::from(rusqlite::Error::SqliteFailure(
                ffi::Error::new(code),
                words.map(str::to_owned),
            ))
        };
        for e in [
            failure(ffi::SQLITE_FULL, None),
            failure(
                ffi::SQLITE_IOERR_WRITE,
                Some("write failed: No space left on device"),
            ),
        ] {
            assert!(matches!(e, StorageError::Full(_)), "{e:?}");
        }
        assert!(matches!(
            failure(ffi::SQLITE_IOERR_WRITE, Some("disk I/O error")),
            StorageError::Sqlite(_)
        ));
    }

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

    /// A database to test on: a SQLite file, or a fresh PostgreSQL database.
    struct TestDb {
        database: Database,
        _dir: Option<tempfile::TempDir>,
    }

    impl TestDb {
        async fn open(&self) -> Storage {
            Storage::connect(&self.database).await.unwrap()
        }
    }

    /// SQLite, and PostgreSQL when `TRACKLAYER_TEST_PG` names a server (see
    /// [`fresh_test_database`]).
    async fn backends() -> Vec<TestDb> {
        let dir = tempfile::tempdir().unwrap();
        let mut dbs = vec![TestDb {
            database: Database::Sqlite(dir.path().join("t.sqlite")),
            _dir: Some(dir),
        }];
        match fresh_test_database().await.unwrap() {
            Some(database) => dbs.push(TestDb {
                database,
                _dir: None,
            }),
            None => eprintln!("PostgreSQL skipped: TRACKLAYER_TEST_PG is not set"),
        }
        dbs
    }

    fn action(seat: usize, text: &str) -> ActionRow {
        ActionRow {
            seat,
            action: text.into(),
        }
    }

    #[tokio::test]
    async fn games_seats_and_actions_round_trip() {
        for db in backends().await {
            games_seats_and_actions_round_trip_on(db).await;
        }
    }

    async fn games_seats_and_actions_round_trip_on(db: TestDb) {
        let storage = db.open().await;
        storage
            .create_game(NewGame {
                mode: "online".into(),
                ..new_game("g1", GameKind::from("ink"), 1)
            })
            .await
            .unwrap();
        storage
            .append(Append {
                seat: Some(seat(1)),
                ..add("g1", 0, vec![action(0, "a"), action(1, "join")])
            })
            .await
            .unwrap();
        // A second append at a taken index fails and writes nothing, not even its seat.
        let clash = storage
            .append(Append {
                seat: Some(seat(2)),
                ..add("g1", 1, vec![action(2, "x")])
            })
            .await;
        assert!(matches!(clash, Err(StorageError::Conflict(_))), "{clash:?}");
        drop(storage);

        let storage = db.open().await;
        let game = storage.load_game("g1").await.unwrap().unwrap();
        assert_eq!(game.kind, GameKind::from("ink"));
        assert_eq!(game.mode, "online");
        assert_eq!(game.created, 1);
        assert_eq!(game.seats, vec![seat(0), seat(1)]);
        assert_eq!(game.actions, vec![action(0, "a"), action(1, "join")]);
        assert!(storage.load_game("nope").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn concurrent_writes_share_transactions_and_all_land() {
        for db in backends().await {
            concurrent_writes_all_land_on(db).await;
        }
    }

    async fn concurrent_writes_all_land_on(db: TestDb) {
        let storage = db.open().await;
        let mut tasks = Vec::new();
        for g in 0..50 {
            let storage = storage.clone();
            tasks.push(tokio::spawn(async move {
                let id = format!("g{g}");
                storage
                    .create_game(new_game(&id, GameKind::from("ink"), 1))
                    .await
                    .unwrap();
                for i in 0..10 {
                    storage
                        .append(add(&id, i, vec![action(0, &i.to_string())]))
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

    /// Actions to add to `game` from index `first`.
    fn add(game: &str, first: usize, actions: Vec<ActionRow>) -> Append {
        Append {
            game: game.into(),
            first,
            actions,
            seat: None,
            deadline: None,
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
            variant: None,
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
        for db in backends().await {
            finished_games_are_listed_on(db).await;
        }
    }

    async fn finished_games_are_listed_on(db: TestDb) {
        let storage = db.open().await;
        for (i, kind) in [
            GameKind::from("ink"),
            GameKind::from("metro"),
            GameKind::from("ink"),
            GameKind::from("ink"),
        ]
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
            .append_finishing(add("g0", 0, vec![action(0, "last")]), finished(100))
            .await
            .unwrap();
        storage.mark_finished("g1", finished(300)).await.unwrap();
        storage.mark_finished("g2", finished(200)).await.unwrap();
        assert!(storage.mark_finished("nope", finished(1)).await.is_err());
        // A finishing append at a taken index writes neither the action nor the finish.
        storage
            .append(add("g3", 0, vec![action(0, "a")]))
            .await
            .unwrap();
        let clash = storage
            .append_finishing(add("g3", 0, vec![action(0, "b")]), finished(400))
            .await;
        assert!(clash.is_err());

        let ids = |games: Vec<FinishedGame>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
        let all = storage.finished_games(None, None, 10).await.unwrap();
        assert_eq!(all[0].finished, finished(300));
        assert_eq!(all[0].kind, GameKind::from("metro"));
        assert_eq!(ids(all), ["g1", "g2", "g0"]);
        let ink = storage
            .finished_games(Some(GameKind::from("ink")), None, 10)
            .await
            .unwrap();
        assert_eq!(ids(ink), ["g2", "g0"]);
        let older = storage
            .finished_games(None, Some((300, None)), 1)
            .await
            .unwrap();
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
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(sqlite::SCHEMA).unwrap();
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

    /// A database of version 3 (players, challenges) takes version 4: names that clash keep
    /// their players (the earliest holds the name), and the games of challenges, the
    /// computer's and a friend challenge's first, become theirs.
    #[tokio::test]
    async fn a_version_3_database_is_upgraded_keeping_its_players() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v3.sqlite");
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.execute_batch(sqlite::SCHEMA).unwrap();
            conn.execute_batch(sqlite::SCHEMA_2).unwrap();
            conn.execute_batch(sqlite::SCHEMA_3).unwrap();
            conn.execute_batch(
                "INSERT INTO meta (key, value) VALUES ('secret', '0000000000000000000000000000000000000000000000000000000000000000');
                 INSERT INTO players (id, name, token_hash, created) VALUES
                    ('p1', 'Ann', 'h1', 1), ('p2', 'ANN', 'h2', 2), ('p3', 'Bob', 'h3', 3);
                 INSERT INTO games (id, kind, mode, setup, created) VALUES
                    ('cg', 'ink', 'challenge', '{}', 1), ('og', 'ink', 'solo', '{}', 1),
                    ('solo', 'ink', 'solo', '{}', 1);
                 INSERT INTO challenges (id, kind, game, opens, closes, seed, created, computer_game)
                    VALUES ('daily-2026-11-26', 'daily', 'ink', 0, 1, 7, 0, 'cg');
                 INSERT INTO challenges (id, kind, game, opens, seed, created, origin)
                    VALUES ('friend-x', 'friend', 'ink', 0, 7, 0, 'og');",
            )
            .unwrap();
            conn.pragma_update(None, "user_version", 3).unwrap();
        }
        let storage = Storage::open(&path).unwrap();
        let ann = storage.player("p1").await.unwrap().unwrap();
        let ann2 = storage.player("p2").await.unwrap().unwrap();
        assert_eq!(ann.name_key.as_deref(), Some("ann"));
        assert_eq!((ann2.name.as_str(), ann2.name_key), ("ANN", None));
        let clash = storage
            .create_player(challenges::PlayerRow {
                id: "p4".into(),
                name: "aNN".into(),
                token_hash: "h4".into(),
                created: 4,
                name_key: Some("ann".into()),
            })
            .await;
        assert!(
            matches!(clash, Err(StorageError::Duplicate(_))),
            "{clash:?}"
        );
        let of = |id: &'static str| {
            let storage = storage.clone();
            async move {
                storage
                    .load_game(id)
                    .await
                    .unwrap()
                    .unwrap()
                    .challenge
                    .map(|c| c.id)
            }
        };
        assert_eq!(of("cg").await.as_deref(), Some("daily-2026-11-26"));
        assert_eq!(of("og").await.as_deref(), Some("friend-x"));
        assert_eq!(of("solo").await, None);
    }

    /// A database of the schema before names were compared by how they look (SQLite's 7,
    /// PostgreSQL's 5) has its name keys made again: the earliest player of each name that now
    /// looks the same keeps the key, the later ones keep their names without one, and a new
    /// look-alike of an old name is a duplicate.
    #[tokio::test]
    async fn records_are_counted_again_variant_by_variant() {
        for db in backends().await {
            records_by_variant_on(db).await;
        }
    }

    async fn records_by_variant_on(db: TestDb) {
        let storage = db.open().await;
        storage
            .create_player(challenges::PlayerRow {
                id: "ann".into(),
                name: "Ann".into(),
                token_hash: "h-ann".into(),
                created: 1,
                name_key: Some("ann".into()),
            })
            .await
            .unwrap();
        // Three solo games stored before variants were: a base game, then a lake game that
        // scored more, then a river game; the records counted them as one.
        for (i, (id, setup, score)) in [
            ("g1", r#"{"players":1,"dice":{"seed":1}}"#, 30),
            (
                "g2",
                r#"{"players":1,"dice":{"seed":2},"expansion":"lake"}"#,
                60,
            ),
            (
                "g3",
                r#"{"players":1,"dice":{"seed":3},"expansion":"river"}"#,
                50,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let mut game = new_game(id, GameKind::from("ink"), i as i64 + 1);
            game.setup = setup.into();
            game.seats[0].player = Some("ann".into());
            storage.create_game(game).await.unwrap();
            let result = format!(
                r#"{{"players":[{{"seat":0,"name":"Ann","score":{score}}}],"winners":[0]}}"#
            );
            storage
                .mark_finished(
                    id,
                    Finished {
                        at: i as i64 + 10,
                        result,
                        entries: vec![challenges::EntryScore {
                            seat: 0,
                            score,
                            k2: 0,
                        }],
                    },
                )
                .await
                .unwrap();
        }
        let mixed = storage.bests("ann").await.unwrap();
        assert_eq!(mixed.len(), 1, "{mixed:?}");
        assert_eq!((mixed[0].games, mixed[0].best), (3, 60));
        let back = match &db.database {
            Database::Sqlite(_) => "PRAGMA user_version = 9",
            Database::Postgres(_) => "UPDATE meta SET value = '7' WHERE key = 'schema'",
        };
        storage.exec_for_test(back, &[]).await.unwrap();
        drop(storage);
        let storage = db.open().await;
        let bests: Vec<(String, i64, i64, Option<i64>)> = storage
            .bests("ann")
            .await
            .unwrap()
            .into_iter()
            .map(|b| (b.game, b.games, b.best, b.previous))
            .collect();
        assert_eq!(
            bests,
            [
                ("ink".to_owned(), 1, 30, None),
                ("ink:lake".to_owned(), 1, 60, None),
                ("ink:river".to_owned(), 1, 50, None),
            ]
        );
    }

    #[tokio::test]
    async fn name_keys_are_made_again_by_how_names_look() {
        for db in backends().await {
            name_keys_are_made_again_on(db).await;
        }
    }

    async fn name_keys_are_made_again_on(db: TestDb) {
        let storage = db.open().await;
        // The players as the older key left them: a Cyrillic А, "rn" for "m" and an invisible
        // character after the name made other keys then.
        for (id, name, created, old_key) in [
            ("p1", "Ann", 1, Some("ann")),
            ("p2", "\u{410}nn", 2, Some("\u{430}nn")),
            ("p3", "Amie", 3, Some("amie")),
            ("p4", "Arnie", 4, Some("arnie")),
            ("p5", "Bob", 5, Some("bob")),
            ("p6", "ANN", 6, None),
            ("p7", "Ann\u{17B4}", 7, Some("ann\u{17B4}")),
            ("p0", "Bob\u{FE0F}", 5, Some("bob\u{FE0F}")),
        ] {
            storage
                .create_player(challenges::PlayerRow {
                    id: id.into(),
                    name: name.into(),
                    token_hash: format!("h-{id}"),
                    created,
                    name_key: old_key.map(Into::into),
                })
                .await
                .unwrap();
        }
        let back = match &db.database {
            Database::Sqlite(_) => "PRAGMA user_version = 7",
            Database::Postgres(_) => "UPDATE meta SET value = '5' WHERE key = 'schema'",
        };
        storage.exec_for_test(back, &[]).await.unwrap();
        drop(storage);
        let storage = db.open().await;
        for (id, name, key) in [
            ("p1", "Ann", Some("Ann")),
            ("p2", "\u{410}nn", None),
            ("p3", "Amie", Some("Amie")),
            ("p4", "Arnie", None),
            // The same time as Bob's: the smaller id is the earlier.
            ("p0", "Bob\u{FE0F}", Some("Bob")),
            ("p5", "Bob", None),
            ("p6", "ANN", None),
            ("p7", "Ann\u{17B4}", None),
        ] {
            let p = storage.player(id).await.unwrap().unwrap();
            assert_eq!(p.name, name, "{id}");
            assert_eq!(p.name_key, key.map(crate::names::key), "{id} {name:?}");
        }
        for (i, name) in ["\u{410}NN", "Ann\u{FE0F}", "Arnie", "Amie"]
            .into_iter()
            .enumerate()
        {
            let clash = storage
                .create_player(challenges::PlayerRow {
                    id: format!("n{i}"),
                    name: name.into(),
                    token_hash: format!("hn{i}"),
                    created: 9,
                    name_key: Some(crate::names::key(name)),
                })
                .await;
            assert!(
                matches!(clash, Err(StorageError::Duplicate(_))),
                "{name:?}: {clash:?}"
            );
        }
        // Opened again, nothing changes.
        drop(storage);
        let storage = db.open().await;
        let p = storage.player("p4").await.unwrap().unwrap();
        assert_eq!(p.name_key, None);
    }

    #[tokio::test]
    async fn a_damaged_file_is_refused_and_names_what_is_wrong() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        assert!(
            sqlite::check(&path).unwrap().is_empty(),
            "a file to be created is sound"
        );
        {
            let storage = Storage::open(&path).unwrap();
            for g in 0..40 {
                storage
                    .create_game(new_game(&format!("g{g}"), GameKind::from("ink"), g))
                    .await
                    .unwrap();
            }
        }
        // Fold the WAL into the file, then damage a page in the middle.
        rusqlite::Connection::open(&path)
            .unwrap()
            .pragma_update(None, "wal_checkpoint", "TRUNCATE")
            .unwrap();
        assert!(sqlite::check(&path).unwrap().is_empty());
        // Every page but the first (the header), in its middle: some are free pages (the
        // migrations make tables again), the others hold the games.
        let pages = std::fs::metadata(&path).unwrap().len() / 4096;
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        for page in 1..pages {
            f.seek(SeekFrom::Start(page * 4096 + 64)).unwrap();
            f.write_all(&[0x5a; 2000]).unwrap();
        }
        drop(f);
        assert!(!sqlite::check(&path).unwrap().is_empty());
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
        for db in backends().await {
            let storage = db.open().await;
            let result = storage
                .append(add("missing", 0, vec![action(0, "a")]))
                .await;
            assert!(result.is_err());
        }
    }

    /// Two processes on one PostgreSQL database: an index taken by one is a conflict for the
    /// other; the change is announced to the other with the taker's name; leases go to one
    /// holder until they run out.
    #[tokio::test]
    async fn two_processes_share_one_postgres_database() {
        let Some(database) = fresh_test_database().await.unwrap() else {
            eprintln!("skipped: TRACKLAYER_TEST_PG is not set");
            return;
        };
        let a = Storage::connect(&database).await.unwrap();
        let b = Storage::connect(&database).await.unwrap();
        assert_ne!(a.process_id(), b.process_id());
        assert_eq!(a.secret(), b.secret(), "one secret, made once");
        let mut heard = b.listen().await.unwrap().unwrap();
        a.create_game(new_game("g", GameKind::from("ink"), 1))
            .await
            .unwrap();
        let append = |text: &str| add("g", 0, vec![action(0, text)]);
        let (ra, rb) = tokio::join!(a.append(append("from a")), b.append(append("from b")));
        assert!(ra.is_ok() != rb.is_ok(), "exactly one wins: {ra:?} {rb:?}");
        let loser = if ra.is_ok() { rb } else { ra };
        assert!(matches!(loser, Err(StorageError::Conflict(_))), "{loser:?}");
        let stored = b.load_game("g").await.unwrap().unwrap();
        assert_eq!(stored.actions.len(), 1);
        let notice = tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv())
            .await
            .expect("announced within a second")
            .unwrap();
        let winner = if stored.actions[0].action == "from a" {
            &a
        } else {
            &b
        };
        assert_eq!(
            notice,
            Notice::Changed {
                id: "g".into(),
                actions: 1,
                origin: winner.process_id().into()
            }
        );

        let now = now_ms();
        assert!(a.lease("game:g", "pa", now + 5_000).await.unwrap());
        assert!(!b.lease("game:g", "pb", now + 5_000).await.unwrap(), "held");
        assert!(
            a.lease("game:g", "pa", now + 6_000).await.unwrap(),
            "renewed"
        );
        assert!(a.expired_leases(now + 5_500).await.unwrap().is_empty());
        assert_eq!(a.expired_leases(now + 7_000).await.unwrap(), ["game:g"]);
        // Once run out, another takes it.
        assert!(b.lease("game:g", "pb", now + 60_000).await.unwrap() == (now_ms() > now + 6_000));
        a.release("game:g", "pa").await.unwrap();
        b.release("game:g", "pb").await.unwrap();
        assert!(
            b.lease("game:g", "pb", now + 5_000).await.unwrap(),
            "free again"
        );
        assert!(check(&database).await.unwrap().is_empty());
        // A lost action is found at start, and by the check.
        a.exec_for_test("DELETE FROM actions WHERE game = 'g' AND idx = 0", &[])
            .await
            .unwrap();
        a.exec_for_test(
            "INSERT INTO actions (game, idx, seat, action, at) VALUES ('g', 3, 0, 'x', 0)",
            &[],
        )
        .await
        .unwrap();
        let damaged = Storage::connect(&database).await.err().expect("refused");
        assert!(
            damaged
                .to_string()
                .contains("game g: 1 actions stored, numbered up to 3"),
            "{damaged}"
        );
        assert_eq!(check(&database).await.unwrap().len(), 1);
        a.exec_for_test("DELETE FROM actions WHERE game = 'g'", &[])
            .await
            .unwrap();
        // A database written by a newer version is refused, and says so.
        a.exec_for_test("UPDATE meta SET value = '99' WHERE key = 'schema'", &[])
            .await
            .unwrap();
        let refused = Storage::connect(&database).await.err().expect("refused");
        let text = refused.to_string();
        assert!(
            text.contains("newer version") && text.contains("99"),
            "{text}"
        );
        assert!(text.contains(":***@"), "no password in {text}");
        assert!(!check(&database).await.unwrap().is_empty());
    }
}
