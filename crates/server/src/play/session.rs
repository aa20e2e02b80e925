//! Games in memory: loaded lazily from storage by replay, kept while in use, dropped when
//! idle (storage holds everything, so a dropped game loads again on its next request).
//!
//! Every kind of game lives in a [`Session`]: the state behind a lock, its live updates, and
//! the driver of its computer seats. What differs between the kinds (how a state is rebuilt
//! from storage, its version, its seats' tokens, its computer players, what the page sees) each
//! says through [`GameState`]. One [`Sessions`] map per kind holds them, in its
//! [`Registration`], which is how the parts of the server that know no game reach it.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{OnceCell, broadcast, watch};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::game::{Change, GameInfo, GameState};
use crate::ids;
use crate::play::leases::{self, Lease};
use crate::state::AppState;
use store::challenges::NewEntry;
use store::ratings::Rating;
use store::{ActionRow, Append, NewGame, Notice, SeatRow, Storage, StorageError, StoredGame};

/// One game, loaded.
pub struct Session<St> {
    pub id: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The server's clock.
    pub clock: Clock,
    state: tokio::sync::Mutex<St>,
    /// The version after each change: a stream needs only the latest (a `watch` keeps one
    /// value, where a broadcast channel would keep a slot for each of the last 64).
    events: watch::Sender<usize>,
    computer_running: AtomicBool,
    /// Woken when another process's change is read in (a driver waiting for a lease held
    /// elsewhere looks again then).
    changed_elsewhere: tokio::sync::Notify,
    /// The game made to play this one again, once one is (live-update streams hear of it from
    /// [`Sessions::announce_rematch`]: a finished game is not kept in memory, so whoever
    /// listens may hold another copy).
    rematch: std::sync::Mutex<Option<String>>,
    /// Whether its draws have been shown to someone who does not sit in it (recorded in
    /// storage the first time: see [`Session::note_seen`]).
    shown: AtomicBool,
    /// The ratings in this game of the players who sit in it, read when it is loaded and when
    /// someone joins (what its view shows beside their names), and whether they were read.
    ratings: std::sync::Mutex<(bool, HashMap<String, Rating>)>,
}

impl<St: GameState> Session<St> {
    fn new(id: String, created: i64, clock: Clock, state: St) -> Session<St> {
        Session {
            id,
            created,
            clock,
            events: watch::Sender::new(state.version()),
            state: tokio::sync::Mutex::new(state),
            computer_running: AtomicBool::new(false),
            changed_elsewhere: tokio::sync::Notify::new(),
            rematch: std::sync::Mutex::new(None),
            shown: AtomicBool::new(false),
            ratings: std::sync::Mutex::new((false, HashMap::new())),
        }
    }

    /// Reads the ratings of `players` in this game (all of its seats' when `None`, once) into
    /// what its views show.
    pub async fn read_ratings(
        &self,
        app: &AppState,
        players: Option<Vec<String>>,
    ) -> Result<(), ApiError> {
        let players = match players {
            Some(players) => players,
            None if self.ratings.lock().unwrap_or_else(|e| e.into_inner()).0 => return Ok(()),
            None => {
                let st = self.state.lock().await;
                st.seat_players().flatten().map(str::to_owned).collect()
            }
        };
        let read = app.storage.ratings_in(St::KIND, players).await?;
        let mut ratings = self.ratings.lock().unwrap_or_else(|e| e.into_inner());
        ratings.0 = true;
        ratings.1.extend(read);
        Ok(())
    }

    /// Each seat's rating (of those that have one), seat 0 first.
    fn seat_ratings(&self, st: &St) -> BTreeMap<usize, crate::ratings::Shown> {
        let ratings = self.ratings.lock().unwrap_or_else(|e| e.into_inner());
        (st.seat_players().enumerate())
            .filter_map(|(seat, p)| Some((seat, crate::ratings::Shown::of(*ratings.1.get(p?)?))))
            .collect()
    }

    /// Rebuilds a session from storage (not found if it is another kind of game).
    fn from_stored(stored: StoredGame, clock: Clock) -> Result<Session<St>, ApiError> {
        if stored.kind != St::KIND {
            return Err(ApiError::game_not_found());
        }
        let (id, created, rematch) = (stored.id.clone(), stored.created, stored.rematch.clone());
        let shown = stored.shown.is_some();
        let session = Session::new(id, created, clock, St::from_stored(stored)?);
        session.set_rematch(rematch);
        session.shown.store(shown, Ordering::Relaxed);
        Ok(session)
    }

    /// Records, before they see it, that the game is seen by `seat` (`None`: someone who does
    /// not sit in it; a friend challenge is never played on dice shown so).
    pub async fn note_seen(&self, app: &AppState, seat: Option<usize>) -> Result<(), ApiError> {
        if seat.is_some() || self.shown.load(Ordering::Relaxed) {
            return Ok(());
        }
        app.storage.mark_shown(&self.id, app.clock.now_ms()).await?;
        self.shown.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// The game made to play this one again, once one is.
    pub fn rematch(&self) -> Option<String> {
        self.rematch
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Records the game made to play this one again.
    pub fn set_rematch(&self, rematch: Option<String>) {
        *self.rematch.lock().unwrap_or_else(|e| e.into_inner()) = rematch;
    }

    /// Stores a new game, then holds it in memory and sets its computer seats going.
    pub async fn create(
        app: &AppState,
        new_game: NewGame,
        state: St,
    ) -> Result<Arc<Session<St>>, ApiError> {
        let session = Arc::new(Session::new(
            new_game.id.clone(),
            new_game.created,
            app.clock.clone(),
            state,
        ));
        let storage = app.storage.clone();
        let writing = Instant::now();
        detached(async move { Ok(storage.create_game(new_game).await?) }).await?;
        crate::telemetry::commit(writing.elapsed());
        Sessions::<St>::of(app).insert(session.clone());
        session.drive_computers(app);
        Ok(session)
    }

    /// Stores a new game made now, `state` (played as `mode`, made from `setup` as stored, its
    /// seats but the open ones, the entry of a challenge's game, and the people of the pool it
    /// seats), then holds it in memory and sets its computers going. Its id.
    pub async fn start(
        app: &AppState,
        mode: &str,
        setup: String,
        state: St,
        entry: Option<NewEntry>,
        pool: Vec<store::pool::PoolSeat>,
    ) -> Result<String, ApiError> {
        let id = ids::new_game_id()?;
        let mut state = state;
        let created = app.clock.now_ms();
        let deadlines = state.set_clocks(created).unwrap_or_default();
        let seats = state.table().taken_rows();
        let new_game = NewGame {
            id: id.clone(),
            kind: St::KIND.into(),
            mode: mode.to_owned(),
            setup,
            created,
            seats,
            entry,
            variant: state.variant().map(str::to_owned),
            deadlines,
            pool,
        };
        Session::create(app, new_game, state).await?;
        Ok(id)
    }

    /// The game with this id, loaded if needed. A computer whose turn is due (say, the server
    /// stopped in the middle of it) is set going.
    pub async fn load(app: &AppState, id: &str) -> Result<Arc<Session<St>>, ApiError> {
        let session = Sessions::<St>::of(app).get(id).await?;
        session.read_ratings(app, None).await?;
        session.drive_computers(app);
        Ok(session)
    }

    /// Reads the game again from storage into `st` (held locked by the caller) and tells the
    /// listeners if it changed: another process changed it.
    async fn reload_into(&self, app: &AppState, st: &mut St) -> Result<(), ApiError> {
        let stored = app
            .storage
            .load_game(&self.id)
            .await?
            .ok_or_else(ApiError::game_not_found)?;
        self.set_rematch(stored.rematch.clone());
        let fresh = St::from_stored(stored)?;
        if fresh.version() != st.version() || fresh.actions() != st.actions() {
            *st = fresh;
            self.events.send_replace(st.version());
            self.changed_elsewhere.notify_waiters();
        }
        Ok(())
    }

    /// Reads the game again after another process changed it, and sets its computers going
    /// if that made it their turn.
    pub async fn refresh(self: &Arc<Self>, app: &AppState) -> Result<(), ApiError> {
        let mut st = self.state.lock().await;
        self.reload_into(app, &mut st).await?;
        // A game finished elsewhere may have changed its players' ratings.
        let players: Vec<String> = match st.is_over() {
            true => st.seat_players().flatten().map(str::to_owned).collect(),
            false => Vec::new(),
        };
        drop(st);
        if !players.is_empty() {
            self.read_ratings(app, Some(players)).await?;
        }
        self.drive_computers(app);
        Ok(())
    }

    /// Decides a change on the state now and stores it: `decide` gives the next state, its
    /// actions, the seat taken (if any) and the answer. If another process changed the game
    /// in the meantime, nothing is stored: the game is read again and `decide` runs again on
    /// what it is now, as if this request had come after that change (it may then refuse).
    pub async fn change<T>(
        &self,
        app: &AppState,
        mut decide: impl FnMut(&St) -> Result<Change<St, T>, ApiError>,
    ) -> Result<T, ApiError> {
        for _ in 0..CHANGE_TRIES {
            let mut st = self.lock().await;
            // A challenge's game takes nothing after the close, whatever the rules would say
            // (the write checks again, by the database's clock).
            let closes = st.challenge().and_then(|c| c.closes);
            if closes.is_some_and(|t| self.clock.now_ms() >= t) {
                return Err(closed_at(closes));
            }
            let Change {
                next,
                actions,
                seat,
                answer,
            } = match decide(&st) {
                Ok(change) => change,
                // A refusal is decided on the game as stored too: where other processes write
                // (an acceptance is safe, the log's unique index refuses a stale append), this
                // copy is checked against the stored version first, and read again if behind.
                Err(refused) => {
                    if app.storage.is_shared() && self.is_behind(app, &st).await? {
                        self.reload_into(app, &mut st).await?;
                        continue;
                    }
                    return Err(refused);
                }
            };
            match self.commit(app, st, next, actions, seat).await {
                Err(ApiError::Stale) => continue,
                Err(e) => return Err(e),
                Ok(()) => return Ok(answer),
            }
        }
        Err(ApiError::Stale)
    }

    /// Whether storage holds more of the game than `st` (actions, or seats taken): another
    /// process changed it, and its notice has not come yet.
    async fn is_behind(&self, app: &AppState, st: &St) -> Result<bool, ApiError> {
        let (actions, seats) = app.storage.game_version(&self.id).await?;
        let taken = st.seats().iter().filter(|s| !s.is_open()).count();
        Ok(actions != st.actions() || seats != taken)
    }

    /// The state as `seat` (if any) may see it, in its place in the world now.
    pub fn view(&self, st: &St, seat: Option<usize>) -> St::View {
        let info = GameInfo {
            id: &self.id,
            created: self.created,
            now: self.clock.now_ms(),
            rematch: self.rematch(),
            ratings: self.seat_ratings(st),
        };
        st.view(&info, seat)
    }

    /// The state now (a copy).
    pub async fn snapshot(&self) -> St {
        self.state.lock().await.clone()
    }

    /// The state, locked: changes go through [`Session::commit`].
    pub async fn lock(&self) -> tokio::sync::MutexGuard<'_, St> {
        self.state.lock().await
    }

    /// The version now: grows with every change.
    pub async fn version(&self) -> usize {
        self.state.lock().await.version()
    }

    /// Live notifications: the version after each change.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.events.subscribe()
    }

    /// Whether anyone is listening for live updates.
    pub fn has_listeners(&self) -> bool {
        self.events.receiver_count() > 0
    }

    /// Makes `next` the state once storage holds the change to it: `actions`, stored after
    /// those before, the seat taken, if any, and how the game ended when `next` ends it. The
    /// listeners then hear of the new version. If another process stored a change first, the
    /// state becomes what storage holds and the answer is [`ApiError::Stale`]: decide again
    /// (see [`Session::change`]). If the write fails otherwise, the state stays as it was and
    /// the session is dropped from memory, so that the next request reloads exactly what
    /// storage holds.
    pub async fn commit(
        &self,
        app: &AppState,
        mut st: tokio::sync::MutexGuard<'_, St>,
        mut next: St,
        actions: Vec<ActionRow>,
        seat: Option<SeatRow>,
    ) -> Result<(), ApiError> {
        let clocks = next.set_clocks(self.clock.now_ms());
        let timed = clocks.as_ref().is_some_and(|c| !c.is_empty());
        // A challenge's game takes no action once the challenge has closed, by the database's
        // clock (the same for every process).
        let closes = st.challenge().and_then(|c| c.closes);
        let append = Append {
            game: self.id.clone(),
            first: st.actions(),
            actions,
            seat,
            deadline: closes.map(|t| self.clock.in_database(t)),
            clocks,
        };
        let finished = if st.is_over() {
            None
        } else {
            next.finish(self.clock.now_ms())
        };
        // A rated game's finish changes its players' ratings: the views show the new ones.
        let rated: Option<Vec<String>> = (finished.as_ref())
            .and_then(|f| f.rated.as_ref())
            .map(|r| r.places.iter().map(|(p, _)| p.clone()).collect());
        let writing = Instant::now();
        let written = match finished {
            Some(finished) => app.storage.append_finishing(append, finished).await,
            None => app.storage.append(append).await,
        };
        crate::telemetry::commit(writing.elapsed());
        if let Err(e) = written {
            if let StorageError::Closed { .. } = e {
                return Err(closed_at(closes));
            }
            if let StorageError::Conflict(_) = e {
                let mut st = st;
                match self.reload_into(app, &mut st).await {
                    Ok(()) => return Err(ApiError::Stale),
                    Err(reload) => {
                        tracing::warn!(game = %self.id, error = %reload, "cannot read a game again after a conflict");
                    }
                }
            }
            Sessions::<St>::of(app).forget(&self.id);
            return Err(e.into());
        }
        let before = st.to_act();
        *st = next;
        let version = st.version();
        if !st.is_over() {
            let passed =
                (st.table()).turns_passed(St::KIND, &self.id, &before, &st.to_act(), st.actions());
            for turn in passed {
                if app.turns_passed.try_send(turn).is_err() {
                    tracing::warn!(game = %self.id, "too many turns waiting for their reminders: one is not reminded");
                }
            }
        }
        drop(st);
        if timed {
            // A new deadline may be the earliest.
            app.deadlines.wake();
        }
        if let Some(players) = rated
            && let Err(e) = self.read_ratings(app, Some(players)).await
        {
            tracing::warn!(game = %self.id, error = %e, "cannot read the ratings after a rated game");
        }
        // Kept whether anyone listens or not.
        self.events.send_replace(version);
        Ok(())
    }

    /// Plays the computer seats in the background, until none has anything to do. At most one
    /// driver runs per game.
    pub fn drive_computers(self: &Arc<Self>, app: &AppState) {
        if let Ok(st) = self.state.try_lock()
            && (!st.computer_to_move()
                || st
                    .challenge()
                    .and_then(|c| c.closes)
                    .is_some_and(|t| self.clock.now_ms() >= t))
        {
            return;
        }
        if self.computer_running.swap(true, Ordering::AcqRel) {
            return; // the running driver loops until nothing is left
        }
        let app = app.clone();
        let session = self.clone();
        tokio::spawn(async move {
            // One process at a time plays a game's computers.
            let Some(_lease) = Lease::take(&app, leases::game_key(&session.id)).await else {
                // Another process plays them. Look again when the game changes there (its
                // driver may be done and have given the lease up) or once its lease would
                // have run out (it stopped); meanwhile this process makes no other attempt.
                tokio::select! {
                    _ = session.changed_elsewhere.notified() => {}
                    _ = tokio::time::sleep(leases::TTL + leases::RENEW) => {}
                }
                session.computer_running.store(false, Ordering::Release);
                session.drive_computers(&app);
                return;
            };
            loop {
                if let Err(e) = session.play_computers(&app).await {
                    if let ApiError::Closed(_) = e {
                        tracing::debug!(game = %session.id, "the challenge closed: the computers stop");
                    } else {
                        tracing::error!(game = %session.id, error = %e, "the computer player failed");
                    }
                    session.computer_running.store(false, Ordering::Release);
                    return;
                }
                session.computer_running.store(false, Ordering::Release);
                // A computer's turn may have come between the last look and the flag going down.
                let more = session.lock().await.computer_to_move();
                if !more || session.computer_running.swap(true, Ordering::AcqRel) {
                    return;
                }
            }
        });
    }
}

impl<St: GameState> Session<St> {
    /// Plays the computer seats, one decision at a time, each stored before the next, until
    /// none has anything to do. Only this driver acts for the computer seats.
    async fn play_computers(self: &Arc<Self>, app: &AppState) -> Result<(), ApiError> {
        loop {
            let (thought, version) = {
                let st = self.lock().await;
                match st.computer_thought() {
                    Some(thought) => (thought, st.version()),
                    None => return Ok(()),
                }
            };
            let permit = app.thinking(crate::thinking::Priority::Computer).await;
            let (thought, decision) = tokio::task::spawn_blocking(move || {
                let decision = St::think(&thought);
                (thought, decision)
            })
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
            drop(permit);
            let st = self.lock().await;
            if st.version() != version {
                // Another process changed the game meanwhile: think again on what it is now.
                continue;
            }
            let (next, actions) = st.computer_moves(&self.id, &thought, decision)?;
            match self.commit(app, st, next, actions, None).await {
                // Another process changed the game: think again on what it is now.
                Err(ApiError::Stale) => continue,
                other => other?,
            }
        }
    }
}

/// The refusal of an action in a challenge game after the challenge closed at `closes`.
pub fn closed_at(closes: Option<i64>) -> ApiError {
    ApiError::Closed(match closes {
        Some(t) => format!(
            "this challenge closed at {}: its games take no more moves, and an unfinished one stays unfinished",
            crate::clock::rfc3339(t)
        ),
        None => "this challenge has closed".into(),
    })
}

/// How many times [`Session::change`] decides again after other processes' changes.
const CHANGE_TRIES: usize = 8;

/// Runs `work` to its end in a task of its own, so that a client that hangs up cannot cut it
/// short (and leave memory and storage apart).
pub async fn detached<T: Send + 'static>(
    work: impl Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
}

struct Slot<S> {
    cell: Arc<OnceCell<Arc<S>>>,
    last_used: Instant,
}

/// The loaded games of one kind, by id.
pub struct Sessions<St> {
    storage: Storage,
    clock: Clock,
    games: Mutex<HashMap<String, Slot<Session<St>>>>,
    /// `(game, rematch)` as each rematch is made, here or in another process: the live-update
    /// streams of finished games listen (see [`Sessions::announce_rematch`]).
    rematches: broadcast::Sender<(String, String)>,
}

impl<St: GameState> Sessions<St> {
    pub fn new(storage: Storage, clock: Clock) -> Sessions<St> {
        Sessions {
            storage,
            clock,
            games: Mutex::new(HashMap::new()),
            rematches: broadcast::channel(64).0,
        }
    }

    /// Tells whoever watches finished game `game` that `rematch` plays it again (a finished
    /// game is not kept in memory: each stream may hold a copy of its own, which it updates).
    pub fn announce_rematch(&self, game: &str, rematch: &str) {
        let held = self
            .map()
            .get(game)
            .and_then(|slot| slot.cell.get().cloned());
        if let Some(session) = held {
            session.set_rematch(Some(rematch.to_owned()));
        }
        let _ = self.rematches.send((game.to_owned(), rematch.to_owned()));
    }

    /// The rematches made from now on (see [`Sessions::announce_rematch`]).
    pub fn subscribe_rematches(&self) -> broadcast::Receiver<(String, String)> {
        self.rematches.subscribe()
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Slot<Session<St>>>> {
        // A panic while holding this lock cannot leave the map half-changed (every change
        // is one insert or remove), so a poisoned lock is still good to use.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game with this id, loading it from storage if needed.
    pub async fn get(&self, id: &str) -> Result<Arc<Session<St>>, ApiError> {
        if !ids::is_game_id(id) {
            return Err(ApiError::game_not_found());
        }
        let cell = {
            let mut map = self.map();
            let slot = map.entry(id.to_owned()).or_insert_with(|| Slot {
                cell: Arc::new(OnceCell::new()),
                last_used: Instant::now(),
            });
            slot.last_used = Instant::now();
            slot.cell.clone()
        };
        let loaded = cell
            .get_or_try_init(|| async {
                let stored = self
                    .storage
                    .load_game(id)
                    .await?
                    .ok_or_else(ApiError::game_not_found)?;
                let session = Session::from_stored(stored, self.clock.clone())?;
                tracing::debug!(game = %id, "game loaded");
                Ok::<_, ApiError>(Arc::new(session))
            })
            .await
            .cloned();
        if let Ok(session) = &loaded
            && session.state.try_lock().is_ok_and(|st| st.is_over())
        {
            // A finished game never changes again: it is read from storage for whoever asks
            // (a spectator, its replay) and kept only as long as they hold it, so that
            // looking at old games costs no memory.
            let mut map = self.map();
            if map.get(id).is_some_and(|s| Arc::ptr_eq(&s.cell, &cell)) {
                map.remove(id);
            }
        }
        if loaded.is_err() {
            // Unknown ids must not pile up in memory.
            let mut map = self.map();
            if map
                .get(id)
                .is_some_and(|s| Arc::ptr_eq(&s.cell, &cell) && s.cell.get().is_none())
            {
                map.remove(id);
            }
        }
        loaded
    }

    /// Adds a game just created.
    pub fn insert(&self, session: Arc<Session<St>>) {
        let id = session.id.clone();
        let cell = Arc::new(OnceCell::new_with(Some(session)));
        self.map().insert(
            id,
            Slot {
                cell,
                last_used: Instant::now(),
            },
        );
    }

    /// Whether the game with this id is in memory or being loaded.
    pub fn holds(&self, id: &str) -> bool {
        self.map().contains_key(id)
    }

    /// Every game in memory.
    pub fn all_loaded(&self) -> Vec<Arc<Session<St>>> {
        self.map()
            .values()
            .filter_map(|slot| slot.cell.get().cloned())
            .collect()
    }

    /// Drops a game from memory (after a failed write), so its next request reloads it.
    pub fn forget(&self, id: &str) {
        self.map().remove(id);
    }

    /// How many games are in memory.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Whether no game is in memory.
    pub fn is_empty(&self) -> bool {
        self.map().is_empty()
    }

    /// Drops games unused for `idle` that nobody holds or listens to. Returns how many.
    /// A finished game goes once unused for `finished_idle` (nobody plays it any more; its
    /// replay reads storage).
    pub fn sweep(&self, idle: Duration, finished_idle: Duration) -> usize {
        let mut map = self.map();
        let before = map.len();
        map.retain(|_, slot| {
            let unused = slot.last_used.elapsed();
            let over = slot
                .cell
                .get()
                .and_then(|s| s.state.try_lock().ok().map(|st| st.is_over()))
                .unwrap_or(false);
            let limit = if over { finished_idle } else { idle };
            if unused < limit || Arc::strong_count(&slot.cell) > 1 {
                return true;
            }
            match slot.cell.get() {
                // Held by a request, a computer player's task or a live-update stream.
                Some(session) => Arc::strong_count(session) > 1 || session.has_listeners(),
                None => false,
            }
        });
        before - map.len()
    }
}

/// On a database shared with other processes: reads again every game in memory that another
/// process changed, as soon as the change is committed (listening before this returns), so
/// that this process's players see it live (and its computers play if it is their turn).
/// Until `shutdown`.
pub async fn follow_other_processes(
    app: AppState,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) -> Result<(), StorageError> {
    let Some(mut notices) = app.storage.listen().await? else {
        return Ok(());
    };
    tokio::spawn(async move {
        loop {
            let notice = tokio::select! {
                n = notices.recv() => n,
                _ = shutdown.changed() => return,
            };
            match notice {
                // No action counts 0: the notice of a finished game's rematch.
                Some(Notice::Changed {
                    id,
                    actions: 0,
                    origin,
                }) => {
                    if origin != app.storage.process_id() {
                        let app = app.clone();
                        tokio::spawn(async move {
                            match app.storage.rematch_of(&id).await {
                                Ok(Some(rematch)) => {
                                    for kind in app.kinds.iter() {
                                        kind.rematch_made(&id, &rematch);
                                    }
                                }
                                Ok(None) => {}
                                Err(e) => {
                                    tracing::warn!(game = %id, error = %e, "cannot read a rematch made by another process");
                                }
                            }
                        });
                    }
                }
                Some(Notice::Changed { id, origin, .. }) => {
                    if origin != app.storage.process_id() {
                        for kind in app.kinds.iter() {
                            kind.refresh(&app, &id);
                        }
                    }
                }
                Some(Notice::Reconnected) => {
                    // Changes may have been missed while the connection was down.
                    for kind in app.kinds.iter() {
                        kind.refresh_all(&app);
                    }
                }
                None => return,
            }
        }
    });
    Ok(())
}
