//! The PostgreSQL backend: any number of server processes on one database.
//!
//! A pool of connections (deadpool) runs the statements of [`super::sql`]; each write is one
//! transaction. A write that changes a game's actions announces it (`pg_notify`) inside its
//! transaction, so PostgreSQL tells every listening process once it is committed, never
//! before and never for a write that failed. Computer seats are leased (a row per game with
//! its holder and an expiry) so that one process at a time plays them, and another takes
//! them over once a holder stops renewing.

use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

use super::sql::{self, Sql, args};
use super::{Notice, StorageError, Write, apply, challenges};

/// The channel changes to games are announced on.
const CHANNEL: &str = "tracklayer_games";

/// How long to wait for a connection before saying the database cannot be reached.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The migrations, in order: `(version, statements)`. A database records the last one it ran
/// in `meta` (`schema`); each runs once, in one transaction, under an advisory lock so that
/// processes starting together do not run one twice.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, SCHEMA_1),
    (2, SCHEMA_2),
    (3, SCHEMA_3),
    (4, super::COMEBACK),
    (5, super::reviews::SCHEMA),
    (6, super::name_keys::SCHEMA),
    (7, super::fair_play::COLUMNS_POSTGRES),
    (8, super::records::VARIANT_POSTGRES),
    (9, super::streaks::STREAK_FOLLOWS_POSTGRES),
    (10, super::ratings::SCHEMA),
    (11, super::STRANGERS),
    (12, super::moderation::SCHEMA),
    (13, super::identity::SCHEMA),
];

/// The newest schema version this code knows.
pub(super) const SCHEMA_VERSION: i64 = 13;

/// The same tables as SQLite's schema 3, and the leases of computer seats.
const SCHEMA_1: &str = "
CREATE TABLE games (
    id        TEXT PRIMARY KEY,
    kind      TEXT NOT NULL CHECK (kind IN ('ink', 'metro')),
    mode      TEXT NOT NULL,
    setup     TEXT NOT NULL,
    created   BIGINT NOT NULL,
    finished  BIGINT,
    result    TEXT,
    challenge TEXT
);
CREATE INDEX games_by_finish ON games (finished DESC) WHERE finished IS NOT NULL;
CREATE INDEX games_unfinished ON games (created, id) WHERE finished IS NULL;
CREATE TABLE seats (
    game       TEXT NOT NULL REFERENCES games(id),
    seat       BIGINT NOT NULL,
    name       TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    agent      TEXT,
    token_hash TEXT,
    joined     BIGINT NOT NULL,
    player     TEXT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX seats_by_player ON seats (player) WHERE player IS NOT NULL;
CREATE TABLE actions (
    game   TEXT NOT NULL REFERENCES games(id),
    idx    BIGINT NOT NULL,
    seat   BIGINT NOT NULL,
    action TEXT NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (game, idx)
);
CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created    BIGINT NOT NULL
);
CREATE TABLE challenges (
    id       TEXT PRIMARY KEY,
    kind     TEXT NOT NULL CHECK (kind IN ('daily', 'weekly', 'metro-daily', 'friend')),
    game     TEXT NOT NULL CHECK (game IN ('ink', 'metro')),
    period   TEXT,
    opens    BIGINT NOT NULL,
    closes   BIGINT,
    seed     BIGINT NOT NULL,
    origin   TEXT,
    by_name  TEXT,
    created  BIGINT NOT NULL,
    players  BIGINT NOT NULL DEFAULT 0,
    target   BIGINT,
    computer_game  TEXT,
    computer_score BIGINT,
    computer_k2    BIGINT
);
CREATE INDEX challenges_by_opening ON challenges (opens DESC) WHERE kind <> 'friend';
CREATE TABLE entries (
    challenge TEXT NOT NULL REFERENCES challenges(id),
    game      TEXT NOT NULL REFERENCES games(id),
    seat      BIGINT NOT NULL,
    player    TEXT REFERENCES players(id),
    name      TEXT NOT NULL,
    started   BIGINT NOT NULL,
    finished  BIGINT,
    score     BIGINT,
    k2        BIGINT,
    PRIMARY KEY (challenge, game, seat)
);
CREATE INDEX entries_by_game ON entries (game, seat);
CREATE UNIQUE INDEX entries_one_attempt ON entries (challenge, player);
CREATE INDEX entries_by_player ON entries (player) WHERE player IS NOT NULL;
CREATE INDEX entries_ranked
    ON entries (challenge, score DESC, k2 DESC, finished, game) WHERE finished IS NOT NULL;
CREATE TABLE entry_scores (
    challenge TEXT NOT NULL,
    score     BIGINT NOT NULL,
    count     BIGINT NOT NULL,
    PRIMARY KEY (challenge, score)
);
CREATE TABLE leases (
    key    TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until  BIGINT NOT NULL
);
CREATE INDEX leases_by_expiry ON leases (until);
";

/// As SQLite's schema 4 (see there): name keys, an entry's network and rank, the ranking
/// index by seat, the computer's game and a friend challenge's first game in their challenge,
/// recent games paged by (finish, id). The name keys are filled in after.
const SCHEMA_2: &str = super::CHALLENGE_SECRETS;

/// As SQLite's schema 5: storage knows no game, so the lists of game kinds go (and the
/// challenges' kinds).
const SCHEMA_3: &str = "
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_kind_check;
ALTER TABLE challenges DROP CONSTRAINT IF EXISTS challenges_kind_check;
ALTER TABLE challenges DROP CONSTRAINT IF EXISTS challenges_game_check;
";

/// A PostgreSQL database: its pool, and how to open a connection of its own (to listen).
#[derive(Clone)]
pub(super) struct Postgres {
    pool: Pool,
    config: tokio_postgres::Config,
    /// This process, in announcements (so it can skip its own).
    origin: std::sync::Arc<str>,
}

/// The URL with its password replaced by `***` (for logs and messages).
pub(super) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some(split) => split,
        None => return url.to_owned(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

fn parse(url: &str) -> Result<tokio_postgres::Config, StorageError> {
    let mut config: tokio_postgres::Config = url.parse().map_err(|e| {
        StorageError::Unreachable(format!(
            "{} is not a PostgreSQL URL ({e}); write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE",
            without_password(url)
        ))
    })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    config.application_name("tracklayer");
    Ok(config)
}

/// A pool of at most `size` connections.
fn pool(config: &tokio_postgres::Config, size: usize) -> Result<Pool, StorageError> {
    let manager = Manager::from_config(
        config.clone(),
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(CONNECT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT))
        .build()
        .map_err(|e| StorageError::Unreachable(e.to_string()))
}

/// Why a connection could not be made, in the words of PostgreSQL when it said something
/// ("password authentication failed for user …", "database … does not exist"), with what to
/// check.
fn unreachable(e: deadpool_postgres::PoolError) -> StorageError {
    let reason = match StorageError::from(e) {
        StorageError::Unreachable(reason) => reason,
        other => other.to_string(),
    };
    StorageError::Unreachable(format!(
        "{reason} (is PostgreSQL running there, does the database exist, and may this user log in to it?)"
    ))
}

impl Postgres {
    /// Connects, creates or upgrades the tables, and reads the database's secret.
    pub(super) async fn open(
        url: &str,
        origin: std::sync::Arc<str>,
    ) -> Result<(Postgres, [u8; 32]), StorageError> {
        let config = parse(url)?;
        let pool = pool(&config, 16)?;
        let db = Postgres {
            pool,
            config,
            origin,
        };
        let mut client = db.pool.get().await.map_err(unreachable)?;
        migrate(&mut client, url).await?;
        // As SQLite's file is checked before it is served: a database whose action log has
        // lost rows is refused, naming the games.
        let problems = gaps(&mut sql::Postgres(&client)).await?;
        if !problems.is_empty() {
            return Err(StorageError::Damaged {
                at: without_password(url),
                problems,
            });
        }
        let secret = challenges::secret(&mut sql::Postgres(&client)).await?;
        drop(client);
        Ok((db, secret))
    }

    /// A connection of the pool.
    pub(super) async fn client(&self) -> Result<deadpool_postgres::Client, StorageError> {
        Ok(self.pool.get().await?)
    }

    /// What a statement on `client` ended with. When it found the database gone (PostgreSQL
    /// restarted, or dropped the server's connections), the connection is not given back to
    /// the pool, and neither are the idle ones: the server dropped them too, though their
    /// clients may not have noticed yet, and the next request had better open a fresh one
    /// than fail on a dead one.
    pub(super) fn noticed<T>(
        &self,
        client: deadpool_postgres::Client,
        result: Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        if let Err(StorageError::Unreachable(why)) = &result {
            drop(deadpool_postgres::Object::take(client));
            let gone = self.pool.retain(|_, _| false);
            tracing::warn!(
                error = %why,
                idle_connections_dropped = gone.removed.len(),
                "the database was lost: its connections are let go"
            );
        }
        result
    }

    /// Runs a write in one transaction; announces the change to a game in it.
    pub(super) async fn write(&self, write: Write) -> Result<(), StorageError> {
        let mut client = self.client().await?;
        let result = self.write_on(&mut client, &write).await;
        self.noticed(client, result)
    }

    async fn write_on(
        &self,
        client: &mut deadpool_postgres::Client,
        write: &Write,
    ) -> Result<(), StorageError> {
        let tx = client.transaction().await?;
        apply(&mut sql::Postgres(&tx), write).await?;
        if let Some((game, actions)) = write.announces() {
            let payload = format!("{game} {actions} {}", self.origin);
            sql::Postgres(&tx)
                .exec("SELECT pg_notify(?1, ?2)", args![CHANNEL, &payload])
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn lease(
        &self,
        key: &str,
        holder: &str,
        until: i64,
        now: i64,
    ) -> Result<bool, StorageError> {
        let client = self.client().await?;
        let row = sql::Postgres(&client)
            .row(
                "INSERT INTO leases (key, holder, until) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until
                 WHERE leases.holder = EXCLUDED.holder OR leases.until < ?4
                 RETURNING holder",
                args![key, holder, until, now],
            )
            .await?;
        Ok(row.is_some())
    }

    pub(super) async fn release(&self, key: &str, holder: &str) -> Result<(), StorageError> {
        self.exec(
            "DELETE FROM leases WHERE key = ?1 AND holder = ?2",
            args![key, holder],
        )
        .await
    }

    /// Removes a lease that ran out before `now` (its work turned out to be done).
    pub(super) async fn clear_expired(&self, key: &str, now: i64) -> Result<(), StorageError> {
        self.exec(
            "DELETE FROM leases WHERE key = ?1 AND until < ?2",
            args![key, now],
        )
        .await
    }

    /// Runs one statement on a connection of the pool, outside any transaction.
    async fn exec(&self, statement: &str, args: &[sql::Arg<'_>]) -> Result<(), StorageError> {
        let client = self.client().await?;
        sql::Postgres(&client).exec(statement, args).await?;
        Ok(())
    }

    pub(super) async fn expired_leases(&self, now: i64) -> Result<Vec<String>, StorageError> {
        let client = self.client().await?;
        sql::Postgres(&client)
            .rows_as(
                "SELECT key FROM leases WHERE until < ?1 ORDER BY until LIMIT 1000",
                args![now],
                |mut r| r.get(0),
            )
            .await
    }

    /// Listens for changes on a connection of its own: returns once it listens (so no change
    /// committed after this returns is missed). The connection is made again (after a
    /// second) whenever it is lost; each time, the receiver hears [`Notice::Reconnected`].
    pub(super) async fn listen(&self) -> Result<mpsc::Receiver<Notice>, StorageError> {
        let (tx, rx) = mpsc::channel(4096);
        let first = listening(&self.config).await?;
        let config = self.config.clone();
        tokio::spawn(async move {
            let mut current = Some(first);
            loop {
                if let Some((mut heard, driver)) = current.take() {
                    while let Some(payload) = heard.recv().await {
                        let Some(notice) = notice(&payload) else {
                            tracing::warn!(%payload, "an announcement not understood");
                            continue;
                        };
                        if tx.send(notice).await.is_err() {
                            driver.abort();
                            return;
                        }
                    }
                    driver.abort();
                    tracing::warn!("the connection that listens for changes was lost");
                }
                if tx.is_closed() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
                match listening(&config).await {
                    Ok(again) => {
                        current = Some(again);
                        if tx.send(Notice::Reconnected).await.is_err() {
                            return;
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot listen for changes"),
                }
            }
        });
        Ok(rx)
    }
}

/// A connection that listens: the payloads it hears, and the task that drives it.
async fn listening(
    config: &tokio_postgres::Config,
) -> Result<(mpsc::UnboundedReceiver<String>, tokio::task::JoinHandle<()>), StorageError> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let (heard, hear) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if heard.send(n.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "the listening connection failed");
                    return;
                }
            }
        }
    });
    // The client must live as long as the connection listens: it goes with the driver.
    let listen = client.batch_execute(&format!("LISTEN {CHANNEL}")).await;
    if let Err(e) = listen {
        driver.abort();
        return Err(e.into());
    }
    let driver = tokio::spawn(async move {
        let _client = client;
        let _ = driver.await;
    });
    Ok((hear, driver))
}

/// An announcement's payload: `"{game} {actions} {origin}"`.
fn notice(payload: &str) -> Option<Notice> {
    let mut parts = payload.split(' ');
    let (id, actions, origin) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    Some(Notice::Changed {
        id: id.to_owned(),
        actions: actions.parse().ok()?,
        origin: origin.to_owned(),
    })
}

/// The schema version a database records (0 for an empty database).
async fn version<S: Sql>(s: &mut S) -> Result<i64, StorageError> {
    let tables = s
        .row("SELECT to_regclass('meta')::TEXT", args![])
        .await?
        .map(|mut r| r.get::<Option<String>>(0))
        .transpose()?
        .flatten();
    if tables.is_none() {
        return Ok(0);
    }
    match s
        .row("SELECT value FROM meta WHERE key = 'schema'", args![])
        .await?
    {
        Some(mut r) => r
            .get::<String>(0)?
            .parse()
            .map_err(|_| StorageError::Corrupt("the schema version is not a number".into())),
        None => Ok(0),
    }
}

async fn migrate(client: &mut deadpool_postgres::Client, url: &str) -> Result<(), StorageError> {
    let tx = client.transaction().await?;
    // One process at a time makes or upgrades the tables (the lock ends with the transaction).
    tx.batch_execute("SELECT pg_advisory_xact_lock(7215202611)")
        .await?;
    let found = version(&mut sql::Postgres(&tx)).await?;
    if found > SCHEMA_VERSION {
        return Err(StorageError::NewerSchema {
            at: without_password(url),
            found,
            known: SCHEMA_VERSION,
        });
    }
    if found == 0 {
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        )
        .await?;
    }
    for &(v, statements) in MIGRATIONS {
        if v > found {
            tx.batch_execute(statements).await?;
            if v == 2 {
                crate::players::backfill_name_keys(&mut sql::Postgres(&tx)).await?;
            }
            if v == 4 {
                crate::streaks::backfill_streaks(&mut sql::Postgres(&tx)).await?;
                // The records are counted by version 8, variant by variant.
            }
            if v == 6 {
                super::name_keys::rekey(&mut sql::Postgres(&tx)).await?;
            }
            if v == 7 {
                tx.batch_execute(super::fair_play::SCHEMA).await?;
            }
            if v == 8 {
                tx.batch_execute(super::records::BY_VARIANT).await?;
                super::records::backfill(&mut sql::Postgres(&tx)).await?;
            }
            if v == 13 {
                tx.batch_execute(super::reminders::SCHEMA).await?;
            }
            if v == 9 {
                tx.batch_execute(super::streaks::STREAK_FOLLOWS).await?;
                super::streaks::backfill_follows(&mut sql::Postgres(&tx)).await?;
            }
            tracing::info!(version = v, "database schema upgraded");
        }
    }
    sql::Postgres(&tx)
        .exec(
            "INSERT INTO meta (key, value) VALUES ('schema', ?1)
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            args![&SCHEMA_VERSION.to_string()],
        )
        .await?;
    challenges::make_secret(&mut sql::Postgres(&tx)).await?;
    tx.commit().await?;
    Ok(())
}

/// What is wrong with the database at `url`, empty when it is sound: it can be reached, its
/// schema is one this code knows, and every game's actions run from 0 without a gap.
pub(super) async fn check(url: &str) -> Result<Vec<String>, StorageError> {
    let config = parse(url)?;
    let client = match pool(&config, 1)?.get().await {
        Ok(c) => c,
        Err(e) => return Err(unreachable(e)),
    };
    let mut s = sql::Postgres(&client);
    let mut problems = Vec::new();
    let found = version(&mut s).await?;
    if found > SCHEMA_VERSION {
        problems.push(format!(
            "schema {found} was written by a newer version (this one knows {SCHEMA_VERSION})"
        ));
    } else if found > 0 {
        problems.extend(gaps(&mut s).await?);
    }
    Ok(problems)
}

/// Games whose actions do not run from 0 without a gap (at most 20).
async fn gaps<S: Sql>(s: &mut S) -> Result<Vec<String>, StorageError> {
    s.rows_as(
        "SELECT game, CAST(count(*) AS BIGINT), max(idx) FROM actions GROUP BY game
             HAVING count(*) <> max(idx) + 1 ORDER BY game LIMIT 20",
        args![],
        |mut r| {
            let (game, count, last): (String, i64, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
            Ok(format!(
                "game {game}: {count} actions stored, numbered up to {last}"
            ))
        },
    )
    .await
}

#[cfg(any(test, feature = "test-util"))]
/// Makes an empty database (named `tl_test_` and random) on the server at `admin`; returns
/// its URL.
pub(super) async fn fresh_database(admin: &str) -> Result<super::Database, StorageError> {
    let config = parse(admin)?;
    let client = pool(&config, 1)?.get().await.map_err(unreachable)?;
    let name = format!(
        "tl_test_{}",
        crate::hex::random_hex::<6>().map_err(|e| StorageError::Task(e.to_string()))?
    );
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await?;
    let mut url = admin.to_owned();
    let path_start = url
        .find("://")
        .and_then(|i| url[i + 3..].find('/').map(|j| i + 3 + j));
    match path_start {
        Some(i) => {
            let query = url[i..]
                .find('?')
                .map(|q| url[i + q..].to_owned())
                .unwrap_or_default();
            url.truncate(i);
            url.push('/');
            url.push_str(&name);
            url.push_str(&query);
        }
        None => {
            url.push('/');
            url.push_str(&name);
        }
    }
    Ok(super::Database::Postgres(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            without_password("postgres://tl:secret@db.example:5432/games"),
            "postgres://tl:***@db.example:5432/games"
        );
        assert_eq!(
            without_password("postgres://db.example/games"),
            "postgres://db.example/games"
        );
    }

    #[test]
    fn announcements_are_read() {
        assert_eq!(
            notice("abc 12 p1"),
            Some(Notice::Changed {
                id: "abc".into(),
                actions: 12,
                origin: "p1".into(),
            })
        );
        assert_eq!(notice("abc 12"), None);
        assert_eq!(notice("abc x p1"), None);
        assert_eq!(notice("abc 1 p1 more"), None);
    }
}
