//! What a server is started with ([`Config`]), and why it could not start or stopped
//! ([`ServeError`]).

use store::{Database, StorageError};
use thiserror::Error;

use crate::clock::Clock;
use crate::conn::Timeouts;
use crate::http::admission::Capacity;
use crate::http::limits::Limits;

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
    /// How much the server takes on at once before it refuses (`503`) rather than queue.
    pub capacity: Capacity,
    /// Where Prometheus metrics are served (`GET /metrics`), apart from the public address;
    /// none by default.
    pub metrics_addr: Option<String>,
    /// How reminders are sent by web push.
    pub push: crate::push::PushConfig,
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
            capacity: Capacity::default(),
            metrics_addr: None,
            push: crate::push::PushConfig::default(),
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
    #[error("the games' challenges clash: {0}")]
    Challenges(String),
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
}
