//! Why storage failed, from either backend.

use thiserror::Error;

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
    /// What a command names is not there (a player, an entry).
    #[error("{0}")]
    NotFound(String),
}

impl StorageError {
    /// The error of a failed SQLite statement: [`StorageError::Duplicate`] for a unique key,
    /// [`StorageError::Full`] for a full disk.
    pub(crate) fn of(e: rusqlite::Error) -> StorageError {
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
    pub(crate) fn of_postgres(e: tokio_postgres::Error) -> StorageError {
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
