//! The tracklayer game server: Railroad Ink and Metro in the browser.
//!
//! axum serves a JSON API (`/api/ink/...`, `/api/metro/...`), server-sent events for live
//! updates, and the browser front-end embedded at compile time. Games live in SQLite (see
//! [`storage`]): a game is its setup, its seats and its ordered actions, and its state is a
//! replay of them. Every rule is decided by an engine (`railroad_ink`, `metro`).
//!
//! ```no_run
//! let config = server::Config::new("127.0.0.1:8080", "tracklayer.sqlite");
//! server::run(config)?;
//! # Ok::<(), server::ServeError>(())
//! ```

mod challenges;
pub mod clock;
mod conn;
mod error;
mod http;
mod ids;
mod ink;
mod leases;
mod memory;
mod metro;
mod names;
mod players;
mod replay;
pub mod seed;
mod sessions;
mod sse;
pub mod storage;
mod thinking;
mod viewer;

use std::future::Future;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use std::collections::HashSet;
use std::sync::Mutex;

use thiserror::Error;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;

pub use clock::Clock;
pub use conn::Timeouts;
pub use error::ApiError;
pub use http::MAX_BODY;
pub use http::limits::Limits;
pub use ink::MAX_SEATS;
pub use metro::{MAX_PLAYERS as METRO_MAX_PLAYERS, MIN_PLAYERS as METRO_MIN_PLAYERS};
pub use names::MAX_NAME;

use ink::InkState;
use metro::MetroState;
use sessions::Sessions;
pub use storage::Database;
use storage::{Storage, StorageError};

/// Where to listen and where the database is.
#[derive(Debug, Clone)]
pub struct Config {
    /// `host:port`; port 0 picks a free port.
    pub addr: String,
    /// The database: a SQLite file (created if missing) or a PostgreSQL URL.
    pub db: Database,
    /// What time it is (the real clock, or a fixed start for tests).
    pub clock: Clock,
    /// The search budget of the `strong` player in the computer's own game on a daily or
    /// weekly challenge's dice (`None`: its default, the strongest).
    pub challenge_budget: Option<u32>,
    /// How long a client may take to send a request's headers, and to stay idle.
    pub timeouts: Timeouts,
    /// What one address may ask.
    pub limits: Limits,
    /// Whether every client reaches the server through a reverse proxy that appends the
    /// client's address to `X-Forwarded-For` (nginx's `$proxy_add_x_forwarded_for`): the limits
    /// then count the right-most address of that header instead of the connection's peer. Off
    /// by default, since a client that connects directly could write the header itself.
    pub trust_proxy: bool,
    /// Whether a daily or weekly challenge ranks one entry per network (an IPv4 address, an
    /// IPv6 /64): a second entry from the same network is played but ranked apart. On by
    /// default; off for a school or an office whose players share one address.
    pub rank_per_address: bool,
}

impl Config {
    /// Listens on `addr` with the database `db` (a SQLite file's path, or a `postgres://`
    /// URL), on the real clock.
    pub fn new(addr: impl Into<String>, db: impl Into<Database>) -> Config {
        Config {
            addr: addr.into(),
            db: db.into(),
            clock: Clock::real(),
            challenge_budget: None,
            timeouts: Timeouts::default(),
            limits: Limits::default(),
            trust_proxy: false,
            rank_per_address: true,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot open the database {at}: {source}")]
    Storage {
        at: String,
        #[source]
        source: StorageError,
    },
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The application's state, shared by every handler.
#[derive(Clone)]
pub struct AppState {
    storage: Storage,
    /// Railroad Ink games in memory.
    ink: Arc<Sessions<InkState>>,
    /// Metro games in memory.
    metro: Arc<Sessions<MetroState>>,
    /// Becomes `true` when the server shuts down (live-update streams end then).
    shutdown: watch::Receiver<bool>,
    /// Computer players (both games) think on blocking threads, at most one per core at a
    /// time, so a burst of hints or computer turns queues instead of starving the machine; a
    /// hint goes before the computers' moves (see [`thinking`]).
    thinkers: Arc<thinking::Thinkers>,
    clock: Clock,
    /// The computer's own daily and weekly challenge games think here, one at a time, apart
    /// from `thinkers`: they never hold up a person's hint or computer opponent.
    background: Arc<Semaphore>,
    /// Friend challenges' computer games, one at a time, in a queue of their own (bounded:
    /// see [`challenges::FRIEND_QUEUE`]), so that they never hold up a daily's.
    friend_background: Arc<Semaphore>,
    /// Challenges whose computer game this process is playing now.
    computing: Arc<Mutex<HashSet<String>>>,
    /// The per-address limits and what each address has used.
    limiter: Arc<http::limits::Limiter>,
    /// Periodic challenges this process knows are stored (no write to make them again).
    stored_challenges: Arc<Mutex<HashSet<String>>>,
    challenge_budget: Option<u32>,
    rank_per_address: bool,
}

impl AppState {
    /// Reads the database's clock into the server's (on a database shared by several
    /// processes, whose clocks may differ): challenges close by it.
    async fn measure_database_clock(&self) {
        if !self.storage.is_shared() {
            return;
        }
        let before = self.clock.machine_ms();
        match self.storage.database_now().await {
            Ok(database) => {
                let after = self.clock.machine_ms();
                self.clock
                    .set_database(database, before + (after - before) / 2);
            }
            Err(e) => tracing::warn!(error = %e, "cannot read the database's clock"),
        }
    }

    /// A turn to run a computer player.
    async fn thinking(&self, priority: thinking::Priority) -> thinking::Turn {
        self.thinkers.turn(priority).await
    }
}

/// How long a game stays in memory unused (storage keeps it for good).
const IDLE: Duration = Duration::from_secs(15 * 60);
/// How long a finished game stays in memory unused.
const FINISHED_IDLE: Duration = Duration::from_secs(60);

/// A server that is listening.
pub struct Running {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), std::io::Error>>,
    /// The server's own storage (for tests: see [`Running::storage_for_test`]).
    storage: Storage,
}

impl Running {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The storage the server writes with (its SQLite writer connection, say), for tests that
    /// change how it behaves (see [`Storage::limit_pages_for_test`]). Test-only.
    #[doc(hidden)]
    pub fn storage_for_test(&self) -> Storage {
        self.storage.clone()
    }

    /// Stops accepting, ends live-update streams, waits for requests in flight.
    pub async fn stop(self) -> Result<(), ServeError> {
        let _ = self.stop.send(true);
        self.task
            .await
            .map_err(|e| ServeError::Io(std::io::Error::other(e)))??;
        Ok(())
    }

    /// Waits until the server stops (after [`Running::stop`] from elsewhere, or an error).
    async fn wait(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        shutdown.await;
        self.stop().await
    }
}

/// Opens the database, binds the address and starts serving on the current tokio runtime.
pub async fn start(config: &Config) -> Result<Running, ServeError> {
    let storage = Storage::connect(&config.db)
        .await
        .map_err(|source| ServeError::Storage {
            at: config.db.to_string(),
            source,
        })?;
    let listener = TcpListener::bind(&config.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.addr.clone(),
            source,
        })?;
    let addr = listener.local_addr()?;
    let (stop, shutdown) = watch::channel(false);
    // This server's own measure of the database's clock.
    let clock = config.clock.unshared();
    let state = AppState {
        ink: Arc::new(Sessions::new(storage.clone(), clock.clone())),
        metro: Arc::new(Sessions::new(storage.clone(), clock.clone())),
        storage,
        shutdown: shutdown.clone(),
        thinkers: thinking::Thinkers::new(
            std::thread::available_parallelism().map_or(2, |n| n.get()),
        ),
        clock,
        background: Arc::new(Semaphore::new(1)),
        friend_background: Arc::new(Semaphore::new(1)),
        computing: Arc::new(Mutex::new(HashSet::new())),
        stored_challenges: Arc::new(Mutex::new(HashSet::new())),
        limiter: Arc::new(http::limits::Limiter::new(
            config.limits,
            config.trust_proxy,
        )),
        challenge_budget: config.challenge_budget,
        rank_per_address: config.rank_per_address,
    };
    state.measure_database_clock().await;
    tokio::spawn(challenges::resume_computers(state.clone()));
    // Several processes on one database: hear each other's changes, take over the computer
    // seats of a process that stopped.
    sessions::follow_other_processes(state.clone(), shutdown.clone())
        .await
        .map_err(|source| ServeError::Storage {
            at: config.db.to_string(),
            source,
        })?;
    leases::spawn_takeover(state.clone(), shutdown.clone());
    if state.storage.upgraded() {
        tokio::spawn(replay::backfill(state.storage.clone()));
    }
    let (ink_sweeper, metro_sweeper) = (state.ink.clone(), state.metro.clone());
    let mut sweep_stop = shutdown.clone();
    let app = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(
            tokio::time::Instant::now() + Duration::from_secs(60),
            Duration::from_secs(60),
        );
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    app.limiter.sweep();
                    app.measure_database_clock().await;
                    // Today's and this week's challenges exist from the start of their
                    // period, their computer games played before anyone asks.
                    if let Err(e) = challenges::ensure_current(&app).await {
                        tracing::warn!(error = %e, "cannot prepare the current challenges");
                    }
                    challenges::resume_computers(app.clone()).await;
                    // Networks are kept only until their challenge closes.
                    if let Err(e) = app.storage.forget_closed_addresses(app.clock.now_ms()).await {
                        tracing::warn!(error = %e, "cannot forget the networks of closed challenges");
                    }
                    let dropped = ink_sweeper.sweep(IDLE, FINISHED_IDLE)
                        + metro_sweeper.sweep(IDLE, FINISHED_IDLE);
                    if dropped > 0 {
                        let loaded = ink_sweeper.len() + metro_sweeper.len();
                        tracing::debug!(dropped, loaded, "idle games dropped from memory");
                    }
                    memory::give_back();
                }
                _ = sweep_stop.changed() => return,
            }
        }
    });
    let storage = state.storage.clone();
    let app = http::router(state);
    let task = tokio::spawn(conn::serve(listener, app, config.timeouts, shutdown));
    Ok(Running {
        addr,
        stop,
        task,
        storage,
    })
}

/// Serves until Ctrl-C or SIGTERM: builds the runtime, starts, prints where it listens.
pub fn run(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async {
        let running = start(&config).await?;
        tracing::info!(addr = %running.addr(), db = %config.db, "serving");
        // One plain line on stdout, for people and for scripts that start the server.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "tracklayer: serving http://{} (database {})",
            running.addr(),
            config.db
        );
        let _ = out.flush();
        drop(out);
        running.wait(shutdown_signal()).await?;
        tracing::info!("stopped");
        Ok(())
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Logs to stderr. `TRACKLAYER_LOG` sets the filter (default `info`), such as
/// `debug` or `warn,server=debug`.
pub fn init_logging() {
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::prelude::*;

    let filter: Targets = std::env::var("TRACKLAYER_LOG")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::INFO));
    let _ = tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(filter)
        .try_init();
}
