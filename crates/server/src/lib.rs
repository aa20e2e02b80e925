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

pub mod app;
mod challenge_games;
mod challenge_kind;
mod challenges;
pub mod clock;
mod config;
mod conn;
pub mod deadlines;
mod error;
pub mod game;
mod games;
pub mod http;
pub mod identity;
pub mod ids;
pub mod lobby;
mod memory;
pub mod network;
mod place;
pub mod play;
mod players;
pub mod pool;
mod preview;
mod push;
pub mod ratings;
pub mod reminders;
pub mod replay;
mod review;
pub mod rules;
pub mod seed;
mod share;
pub mod state;
pub mod table;
mod telemetry;
mod thinking;
mod ticket;
pub mod turns;
mod viewer;
mod waited;
pub mod written;

use std::io::Write as _;

/// The storage crate: SQL on SQLite or PostgreSQL, which knows no game (`crates/store`).
pub use store as storage;
use store::names;

pub use app::{Games, Running};
pub use clock::Clock;
pub use config::{Config, ServeError};
pub use conn::Timeouts;
pub use error::ApiError;
pub use games::ink::MAX_SEATS;
pub use games::metro::{MAX_PLAYERS as METRO_MAX_PLAYERS, MIN_PLAYERS as METRO_MIN_PLAYERS};
pub use http::MAX_BODY;
pub use http::admission::Capacity;
pub use http::limits::Limits;
pub use names::MAX_NAME;
pub use push::PushConfig;
pub use storage::Database;

/// Opens the database, binds the address and starts serving Railroad Ink and Metro on the
/// current tokio runtime (see [`app::start`] for other games).
pub async fn start(config: &Config) -> Result<Running, ServeError> {
    app::start(config, Games::standard()).await
}

/// Serves until Ctrl-C or SIGTERM: builds the runtime, starts, prints where it listens.
pub fn run(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    // Every connection is a file: take all the system allows (the hard limit), and say so.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(files) => tracing::info!(files, "open files allowed"),
        Err(e) => tracing::warn!(error = %e, "cannot raise the limit of open files"),
    }
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
/// `debug` or `warn,server=debug`; `TRACKLAYER_LOG_FORMAT=json` writes one JSON object a line
/// (its time, level, target and fields), for a log shipper.
pub fn init_logging() {
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::prelude::*;

    let filter: Targets = std::env::var("TRACKLAYER_LOG")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::INFO));
    let format = std::env::var("TRACKLAYER_LOG_FORMAT").unwrap_or_default();
    let json = match format.as_str() {
        "json" => true,
        "" | "text" => false,
        other => {
            eprintln!(
                "TRACKLAYER_LOG_FORMAT={other:?} is not a format: logging as text (json or text)"
            );
            false
        }
    };
    let text_layer = (!json).then(|| tracing_subscriber::fmt::layer().with_writer(std::io::stderr));
    let json_layer = json.then(|| {
        tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_writer(std::io::stderr)
    });
    let _ = tracing_subscriber::registry()
        .with(text_layer)
        .with(json_layer)
        .with(filter)
        .try_init();
}
