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
pub mod clocks;
pub mod copy;
pub mod entries;
mod error;
mod fair_play;
mod games;
pub mod hex;
pub mod identity;
pub mod moderation;
mod name_keys;
pub mod names;
mod players;
pub mod pool;
mod postgres;
pub mod ratings;
pub mod records;
pub mod reminders;
pub mod reviews;
mod rows;
mod schema;
pub mod sql;
mod sqlite;
pub mod streaks;
mod write;

/// The SQLite schemas of earlier versions and the file's integrity check, for the tests of the
/// upgrades. Test-only.
#[cfg(feature = "test-util")]
pub mod sqlite_for_test {
    pub use crate::sqlite::{SCHEMA, SCHEMA_2, SCHEMA_3, check};
}

pub use error::StorageError;
pub use games::GameHead;
pub(crate) use games::{before_deadline, insert_actions, insert_game, set_finished};
pub use rows::{
    ActionRow, Append, ChallengeRef, Finished, FinishedGame, GameKind, NewGame, Record, SeatKind,
    SeatResult, SeatRow, StoredGame,
};
pub(crate) use schema::{CHALLENGE_SECRETS, COMEBACK, STRANGERS};
pub(crate) use write::{Write, apply};

use tokio::sync::mpsc;

use sql::Sql;

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
            $crate::Backend::Sqlite(db) => {
                db.read(move |conn| {
                    let mut $sql = $crate::sql::Sqlite(conn);
                    $crate::sql::ready($body)
                })
                .await
            }
            $crate::Backend::Postgres(db) => {
                let client = db.client().await?;
                let mut $sql = $crate::sql::Postgres(&client);
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

/// `work` run to its end on a runtime of its own: for the command line, and tests that run no
/// runtime.
pub fn block_on<T>(
    work: impl std::future::Future<Output = Result<T, StorageError>>,
) -> Result<T, StorageError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StorageError::Task(e.to_string()))?
        .block_on(work)
}

/// [`fresh_test_database`] on a runtime of its own, for tests that run no runtime.
#[cfg(any(test, feature = "test-util"))]
#[doc(hidden)]
pub fn fresh_test_database_blocking() -> Result<Option<Database>, StorageError> {
    block_on(fresh_test_database())
}

/// A consistent copy of a SQLite database taken while it serves (see [`sqlite::backup`]): its
/// pages and size in bytes. PostgreSQL has its own tools (`pg_dump`, base backups).
pub fn backup(from: &Database, to: &Path) -> Result<(usize, u64), StorageError> {
    match from {
        Database::Sqlite(path) => sqlite::backup(path, to),
        Database::Postgres(_) => Err(StorageError::Unreachable(
            "a PostgreSQL database is backed up with pg_dump or a base backup (docs/public.md, Backups)"
                .into(),
        )),
    }
}

/// [`check`] on a runtime of its own, for the command line.
pub fn check_blocking(database: &Database) -> Result<Vec<String>, StorageError> {
    block_on(check(database))
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
