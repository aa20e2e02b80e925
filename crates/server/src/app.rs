//! The server put together: the games it plays, registered in one place ([`Games`]), the
//! application's state built from them, the background work (the minute's sweep, other
//! processes' changes, leases run out), and the router.

use std::collections::HashSet;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;

use crate::challenge_kind::ChallengeKind;
use crate::clock::Clock;
use crate::config::{Config, ServeError};
use crate::game::GameState;
use crate::play::Registration;
use crate::state::{AppState, Registered};
use crate::{challenges, conn, http, memory, play, replay, thinking};
use store::Storage;

/// How long a game stays in memory unused (storage keeps it for good).
const IDLE: Duration = Duration::from_secs(15 * 60);
/// How long a finished game stays in memory unused.
const FINISHED_IDLE: Duration = Duration::from_secs(60);

type Register = fn(Storage, Clock) -> Arc<dyn Registered>;

/// The games a server plays, each registered once: its state (see [`GameState`]) and its
/// routes, nested under `/api/{kind}`.
pub struct Games {
    registrations: Vec<Register>,
    /// Each game's kind and the challenge kinds it declares.
    declared: Vec<(&'static str, &'static [ChallengeKind])>,
    routes: Router<AppState>,
}

impl Games {
    /// No game yet.
    pub fn none() -> Games {
        Games {
            registrations: Vec::new(),
            declared: Vec::new(),
            routes: Router::new(),
        }
    }

    /// Railroad Ink and Metro.
    pub fn standard() -> Games {
        Games::none()
            .rules_with::<crate::games::ink::Ink>(crate::games::ink::http::routes())
            .rules_with::<::metro::Game>(crate::games::metro::http::routes())
    }

    /// These games and `St`, served under `/api/{kind}` by the routes of every game
    /// (`crate::http::games`) and `routes`, its own.
    pub fn with<St: GameState>(mut self, routes: Router<AppState>) -> Games {
        self.registrations
            .push(|storage, clock| Arc::new(Registration::<St>::new(storage, clock)));
        self.declared.push((St::KIND, St::CHALLENGES));
        self.routes = self.routes.nest(
            &format!("/api/{}", St::KIND),
            http::games::routes::<St>().merge(routes),
        );
        self
    }
}

impl Games {
    /// These games and the game of rules `R`, played at the runtime's table (see
    /// [`crate::rules`]): what it offers is read from its capabilities.
    pub fn rules<R: crate::rules::Rules>(self) -> Games {
        self.rules_with::<R>(Router::new())
    }

    /// [`Games::rules`], with `routes` of the game's own beside every game's.
    pub fn rules_with<R: crate::rules::Rules>(self, routes: Router<AppState>) -> Games {
        let routes = match R::CAPABILITIES.join {
            Some(_) => routes.route("/games/{id}/start", http::games::start::<R>()),
            None => routes,
        };
        self.with::<crate::rules::Ruled<R>>(routes)
    }

    /// Checks the challenge kinds the games declare (see [`crate::challenge_kind::check`]).
    fn check_challenges(&self) -> Result<(), ServeError> {
        let kinds: Vec<(&str, &ChallengeKind)> = self
            .declared
            .iter()
            .flat_map(|&(game, kinds)| kinds.iter().map(move |k| (game, k)))
            .collect();
        crate::challenge_kind::check(&kinds).map_err(ServeError::Challenges)
    }
}

/// A server that is listening.
pub struct Running {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<(), std::io::Error>>,
    /// The server's own storage (for tests: see [`Running::storage_for_test`]).
    storage: Storage,
    /// Its link-preview pictures (for tests: see [`Running::previews_drawn_for_test`]).
    previews: Arc<crate::preview::Pictures>,
    /// Its deadline watcher's state (for measurements: see [`Running::deadline_lateness`]).
    deadlines: Arc<crate::turns::Deadlines>,
    /// Where its metrics are served, if anywhere.
    metrics_addr: Option<SocketAddr>,
}

impl Running {
    /// Where the metrics are served (`--metrics-addr`), if anywhere.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// How late (milliseconds after it was due) each deadline this server acted on was, the
    /// most recent 100,000, in the order acted on: for measurements.
    #[doc(hidden)]
    pub fn deadline_lateness(&self) -> Vec<i64> {
        self.deadlines.lateness()
    }

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

    /// How many link-preview pictures the server has drawn (the others it sent were kept ones).
    /// Test-only.
    #[doc(hidden)]
    pub fn previews_drawn_for_test(&self) -> u64 {
        self.previews.drawn()
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
    pub(crate) async fn wait(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        shutdown.await;
        self.stop().await
    }
}

/// Opens the database, binds the address and starts serving `games` on the current tokio
/// runtime.
pub async fn start(config: &Config, games: Games) -> Result<Running, ServeError> {
    games.check_challenges()?;
    let storage = Storage::connect(&config.db)
        .await
        .map_err(|source| ServeError::Storage {
            at: config.db.to_string(),
            source,
        })?;
    let listener = conn::listen(&config.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.addr.clone(),
            source,
        })?;
    let addr = listener.local_addr()?;
    let (stop, shutdown) = watch::channel(false);
    // This server's own measure of the database's clock.
    let clock = config.clock.unshared();
    let kinds: Vec<Arc<dyn Registered>> = games
        .registrations
        .iter()
        .map(|register| register(storage.clone(), clock.clone()))
        .collect();
    let vapid = Arc::new(crate::reminders::vapid_key(storage.secret()));
    let (turns_passed, turns_heard) = tokio::sync::mpsc::channel(4096);
    let state = AppState {
        kinds: kinds.into(),
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
        challenge_budget: config.challenge_budget,
        rank_per_address: config.rank_per_address,
        hints_waiting: config.capacity.hints_waiting,
        reviews_waiting: config.capacity.reviews_waiting,
        previews: Arc::default(),
        deadlines: Arc::default(),
        push: Arc::new(config.push.clone()),
        vapid,
        turns_passed,
        reminders_wake: Arc::default(),
    };
    let limiter = Arc::new(http::limits::Limiter::new(
        config.limits,
        config.trust_proxy,
    ));
    state.measure_database_clock().await;
    tokio::spawn(challenges::resume_computers(state.clone()));
    // Several processes on one database: hear each other's changes, take over the computer
    // seats of a process that stopped.
    play::follow_other_processes(state.clone(), shutdown.clone())
        .await
        .map_err(|source| ServeError::Storage {
            at: config.db.to_string(),
            source,
        })?;
    play::leases::spawn_takeover(
        state.clone(),
        shutdown.clone(),
        challenges::resume_computers,
    );
    if state.storage.upgraded() {
        tokio::spawn(replay::backfill(state.clone()));
    }
    // The dailies that closed while no server ran are rated before the first request.
    if let Err(e) = crate::ratings::rate_closed_dailies(&state).await {
        tracing::warn!(error = %e, "cannot rate the closed daily challenges");
    }
    tokio::spawn(crate::deadlines::watch(state.clone(), shutdown.clone()));
    tokio::spawn(crate::pool::run(state.clone(), shutdown.clone()));
    tokio::spawn(crate::reminders::sender::run(
        state.clone(),
        shutdown.clone(),
    ));
    tokio::spawn(crate::reminders::listen(
        state.clone(),
        turns_heard,
        shutdown.clone(),
    ));
    tokio::spawn(every_minute(
        state.clone(),
        limiter.clone(),
        shutdown.clone(),
    ));
    let storage = state.storage.clone();
    let previews = state.previews.clone();
    let deadlines = state.deadlines.clone();
    let admission = http::admission::Admission::new(config.capacity);
    let metrics_addr = match &config.metrics_addr {
        Some(at) => {
            let listener = TcpListener::bind(at)
                .await
                .map_err(|source| ServeError::Bind {
                    addr: at.clone(),
                    source,
                })?;
            let bound = listener.local_addr()?;
            tokio::spawn(http::metrics::serve(
                listener,
                state.clone(),
                admission.places(),
                shutdown.clone(),
            ));
            tracing::info!(addr = %bound, "metrics served");
            Some(bound)
        }
        None => None,
    };
    let app = http::router(state, games.routes, limiter);
    let task = tokio::spawn(conn::serve(
        listener,
        app,
        admission,
        config.timeouts,
        shutdown,
    ));
    Ok(Running {
        addr,
        stop,
        task,
        storage,
        previews,
        deadlines,
        metrics_addr,
    })
}

/// The minute's work, until `stop`: the limits forget, the database's clock is read, today's
/// challenges exist and their computers play, closed challenges forget their networks, idle
/// games leave memory.
async fn every_minute(
    app: AppState,
    limiter: Arc<http::limits::Limiter>,
    mut stop: watch::Receiver<bool>,
) {
    let mut tick = tokio::time::interval_at(
        tokio::time::Instant::now() + Duration::from_secs(60),
        Duration::from_secs(60),
    );
    loop {
        tokio::select! {
            _ = tick.tick() => {
                limiter.sweep();
                app.measure_database_clock().await;
                // Today's and this week's challenges exist from the start of their period,
                // their computer games played before anyone asks.
                if let Err(e) = challenges::ensure_current(&app).await {
                    tracing::warn!(error = %e, "cannot prepare the current challenges");
                }
                challenges::resume_computers(app.clone()).await;
                if let Err(e) = crate::ratings::rate_closed_dailies(&app).await {
                    tracing::warn!(error = %e, "cannot rate the closed daily challenges");
                }
                // Networks are kept only until their challenge closes.
                if let Err(e) = app.storage.forget_closed_addresses(app.clock.now_ms()).await {
                    tracing::warn!(error = %e, "cannot forget the networks of closed challenges");
                }
                let dropped: usize = app.kinds.iter().map(|k| k.sweep(IDLE, FINISHED_IDLE)).sum();
                if dropped > 0 {
                    tracing::debug!(dropped, loaded = app.loaded(), "idle games dropped from memory");
                }
                memory::give_back();
            }
            _ = stop.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::challenge_kind::{friend_setup, is_friend_id};

    /// The variant of the game a challenge of the standard games is played in, read from its id
    /// by the kinds they declare (a friend challenge's names it).
    fn variant(id: &str) -> Option<&str> {
        if is_friend_id(id) {
            return friend_setup(id);
        }
        let games = super::Games::standard();
        let kinds = games.declared.iter().flat_map(|(_, kinds)| kinds.iter());
        kinds.filter_map(|k| k.parse(id)).find_map(|s| s.setup)
    }

    #[test]
    fn a_challenge_names_its_variant_in_its_id() {
        assert_eq!(variant("weekly-lake-2026-W49"), Some("lake"));
        assert_eq!(variant("weekly-river-2026-W50"), Some("river"));
        assert_eq!(
            variant("friend-lake-0123456789abcdef01234567"),
            Some("lake")
        );
        assert_eq!(variant("weekly-2026-W49"), None);
        assert_eq!(variant("daily-2026-11-27"), None);
        assert_eq!(variant("friend-0123456789abcdef01234567"), None);
        assert_eq!(variant("weekly-lakes-2026"), None);
        assert_eq!(variant("metro-daily-2026-11-27"), None);
        // A weekly's setup is its week's: the lake in odd weeks, the river in even ones.
        assert_eq!(variant("weekly-river-2026-W49"), None);
    }

    #[test]
    fn the_standard_games_offer_their_challenges_in_their_order() {
        // 2026-11-26T12:00:00Z, a Thursday of ISO week 48.
        const THURSDAY_NOON: i64 = 1_795_694_400_000;
        let games = super::Games::standard();
        let mut kinds: Vec<_> = games
            .declared
            .iter()
            .flat_map(|&(game, kinds)| kinds.iter().map(move |k| (game, k)))
            .collect();
        kinds.sort_by_key(|(_, k)| k.listed);
        let ids: Vec<(&str, &str, String)> = kinds
            .iter()
            .map(|(game, k)| (*game, k.kind, k.at(THURSDAY_NOON).id))
            .collect();
        let expected = [
            ("ink", "daily", "daily-2026-11-26"),
            ("ink", "weekly", "weekly-2026-W48"),
            ("ink", "monthly", "monthly-2026-11"),
            ("metro", "metro-daily", "metro-daily-2026-11-26"),
            ("ink", "weekly-deep-blue", "weekly-river-2026-W48"),
        ];
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(g, k, id)| (g, k, id.to_owned()))
            .collect();
        assert_eq!(ids, expected);
        let streaks: Vec<&str> = kinds
            .iter()
            .filter(|(_, k)| k.streak)
            .map(|(_, k)| k.kind)
            .collect();
        assert_eq!(streaks, ["daily", "metro-daily"]);
    }

    #[test]
    fn the_standard_games_challenge_kinds_do_not_clash() {
        let checked = super::Games::standard().check_challenges();
        assert!(checked.is_ok(), "{checked:?}");
    }
}
