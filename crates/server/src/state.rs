//! The application's state, shared by every handler and background task, and the kinds of game
//! registered in it, as the parts of the server that know no game see them ([`Registered`]).

use std::any::Any;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::{Semaphore, watch};

use crate::challenge_games::{ChallengeStart, ComputerGame, FriendGame, Strength, TieBreakRule};
use crate::challenge_kind::ChallengeKind;
use crate::clock::Clock;
use crate::error::ApiError;
use crate::ids;
use crate::thinking;
use store::{Storage, StoredGame};

/// A kind of game, registered (see `crate::play::Registration`, the one implementation, generic
/// over the game): what challenges, leases, live updates from other processes and the minute's
/// sweep need of a game whose kind they learn at run time.
pub trait Registered: Send + Sync + 'static {
    /// The kind, as stored and in paths (`ink`, `metro`).
    fn kind(&self) -> &'static str;
    /// The game's name for people (`Railroad Ink`).
    fn name(&self) -> &'static str;
    /// The registration itself, to reach its typed parts.
    fn as_any(&self) -> &dyn Any;
    /// Games of this kind in memory.
    fn loaded(&self) -> usize;
    /// Drops games unused for `idle` (`finished_idle`, once over); returns how many.
    fn sweep(&self, idle: Duration, finished_idle: Duration) -> usize;
    /// Drops a game from memory: its next request reads it again.
    fn forget(&self, id: &str);
    /// Reads a game again if it is in memory (another process changed it).
    fn refresh(&self, app: &AppState, id: &str);
    /// Reads every game in memory again (changes may have been missed).
    fn refresh_all(&self, app: &AppState);
    /// Tells the watchers of finished game `game` that `rematch` plays it again (made by
    /// another process).
    fn rematch_made(&self, game: &str, rematch: &str);
    /// Loads a game whose computers' lease ran out and sets them going if one has something to
    /// do; whether one had.
    fn take_over<'a>(&'a self, app: &'a AppState, id: &'a str) -> BoxFuture<'a, bool>;
    /// Starts a player's attempt at a challenge of this kind (a practice game without an
    /// entry); the game's id.
    fn start_challenge<'a>(
        &'a self,
        app: &'a AppState,
        start: ChallengeStart<'a>,
    ) -> BoxFuture<'a, Result<String, ApiError>>;
    /// The computer's own game on a challenge's seed (CPU work: call it off the async threads).
    fn computer_challenge(
        &self,
        seed: u64,
        variant: Option<&str>,
        strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError>;
    /// A finished game of this kind as a friend challenge takes it.
    fn friend_game(&self, stored: &store::StoredGame) -> Result<FriendGame, ApiError>;
    /// A seat's board as a grid of emoji for a shared result (see `GameState::share_grid`).
    fn share_grid(&self, stored: store::StoredGame, seat: usize) -> Result<Vec<String>, ApiError>;
    /// The name of the computer's row on a challenge of this kind.
    fn computer_name(&self) -> String;
    /// How a leaderboard of this kind breaks ties.
    fn tie_break(&self) -> TieBreakRule;
    /// The periodic challenges this kind of game offers (see `GameState::CHALLENGES`).
    fn challenge_kinds(&self) -> &'static [ChallengeKind];
    /// How a stored game of this kind ended, replayed (for games stored before results were
    /// kept); `None` if it goes on or does not replay.
    fn finished_of(&self, stored: store::StoredGame, at: i64) -> Option<store::Finished>;
    /// Where game `id` stands for `seat` (see [`crate::turns::YourGame`]).
    fn your_game<'a>(
        &'a self,
        app: &'a AppState,
        id: &'a str,
        seat: usize,
    ) -> BoxFuture<'a, Result<crate::turns::YourGame, ApiError>>;
    /// The pool's rules of the game, if strangers meet in it.
    fn pool_rules(&self) -> Option<crate::turns::PoolRules>;
    /// A game the pool made (see [`crate::game::GameState::start_pool_game`]): its id.
    fn start_pool<'a>(
        &'a self,
        app: &'a AppState,
        people: Vec<crate::turns::PoolPerson>,
        computers: usize,
        clock: crate::turns::TimeControl,
        rated: bool,
        pool: Vec<store::pool::PoolSeat>,
    ) -> BoxFuture<'a, Result<String, ApiError>>;
    /// A seat's deadline passed: the computer stands in for its turn (see
    /// the deadlines' watcher). Whether it did (not: the turn was played meanwhile).
    fn time_out<'a>(
        &'a self,
        app: &'a AppState,
        game: &'a str,
        deadline: store::clocks::Deadline,
    ) -> BoxFuture<'a, Result<bool, ApiError>>;
}

/// The application's state, shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub storage: Storage,
    /// The kinds of game, each with its games in memory.
    pub kinds: Arc<[Arc<dyn Registered>]>,
    /// Becomes `true` when the server shuts down (live-update streams end then).
    pub shutdown: watch::Receiver<bool>,
    /// Computer players (every game's) think on blocking threads, at most one per core at a
    /// time, so a burst of hints or computer turns queues instead of starving the machine; a
    /// hint goes before the computers' moves (see [`thinking`]).
    pub thinkers: Arc<thinking::Thinkers>,
    pub clock: Clock,
    /// The computer's own daily and weekly challenge games think here, one at a time, apart
    /// from `thinkers`: they never hold up a person's hint or computer opponent.
    pub background: Arc<Semaphore>,
    /// Friend challenges' computer games, one at a time, in a queue of their own (bounded:
    /// see `crate::challenges::making::FRIEND_QUEUE`), so that they never hold up a daily's.
    pub friend_background: Arc<Semaphore>,
    /// Challenges whose computer game this process is playing now.
    pub computing: Arc<Mutex<HashSet<String>>>,
    /// Periodic challenges this process knows are stored (no write to make them again).
    pub stored_challenges: Arc<Mutex<HashSet<String>>>,
    pub challenge_budget: Option<u32>,
    pub rank_per_address: bool,
    /// Hints waiting for a turn to think before another is refused at once.
    pub hints_waiting: usize,
    /// Reviews waiting for a turn to think before another is refused at once.
    pub reviews_waiting: usize,
    /// The challenges' link-preview pictures drawn lately.
    pub previews: Arc<crate::preview::Pictures>,
    /// The turn deadlines' watcher's state in this process.
    pub deadlines: Arc<crate::turns::Deadlines>,
    /// How reminders are sent, and the key they are signed with (see [`crate::reminders`]).
    pub push: Arc<crate::push::PushConfig>,
    /// Turns that passed to a person, for their reminders (see [`crate::reminders::listen`]).
    pub turns_passed: tokio::sync::mpsc::Sender<crate::turns::TurnPassed>,
    pub vapid: Arc<web_push_native::jwt_simple::algorithms::ES256KeyPair>,
    /// Wakes the reminders' sender before its next look.
    pub reminders_wake: Arc<tokio::sync::Notify>,
}

impl AppState {
    /// The registered kind of game called `kind`.
    pub fn kind(&self, kind: &str) -> Result<&Arc<dyn Registered>, ApiError> {
        self.kinds
            .iter()
            .find(|k| k.kind() == kind)
            .ok_or_else(|| ApiError::Internal(format!("no game of kind {kind:?} is registered")))
    }

    /// The stored game with this id: `404` for an id that is no game's id, and for a game not
    /// stored.
    pub async fn stored_game(&self, id: &str) -> Result<StoredGame, ApiError> {
        if !ids::is_game_id(id) {
            return Err(ApiError::game_not_found());
        }
        self.storage
            .load_game(id)
            .await?
            .ok_or_else(ApiError::game_not_found)
    }

    /// Every registered game's periodic challenges, with the kind of game each is played
    /// in, in the order they are listed (see [`ChallengeKind::listed`]).
    pub fn challenge_kinds(&self) -> Vec<(&'static str, &'static ChallengeKind)> {
        let mut all: Vec<_> = self
            .kinds
            .iter()
            .flat_map(|k| k.challenge_kinds().iter().map(|c| (k.kind(), c)))
            .collect();
        all.sort_by_key(|(_, c)| c.listed);
        all
    }

    /// The declaration of the periodic challenge kind `kind` of game `game`, if one is
    /// registered.
    pub fn challenge_kind(&self, game: &str, kind: &str) -> Option<&'static ChallengeKind> {
        self.kinds
            .iter()
            .filter(|k| k.kind() == game)
            .flat_map(|k| k.challenge_kinds().iter())
            .find(|c| c.kind == kind)
    }

    /// Games in memory, of every kind.
    pub fn loaded(&self) -> usize {
        self.kinds.iter().map(|k| k.loaded()).sum()
    }

    /// A turn to think for a person waiting (a hint), unless too many wait already: then the
    /// refusal says the server is busy. The request holds no admission place while it waits.
    pub async fn thinking_for_a_person(&self) -> Result<thinking::Turn, ApiError> {
        crate::place::step_aside();
        let asked = std::time::Instant::now();
        let turn = self.thinkers.person_turn(self.hints_waiting).await;
        crate::telemetry::thinking_wait(asked.elapsed());
        turn.ok_or_else(|| ApiError::Busy("thinking about other hints".into()))
    }

    /// A turn to review a finished game (after every hint and computer move, never on the last
    /// free core), unless too many wait already. The request holds no admission place while it
    /// waits.
    pub async fn thinking_for_a_review(&self) -> Result<thinking::Turn, ApiError> {
        crate::place::step_aside();
        let asked = std::time::Instant::now();
        let turn = self.thinkers.review_turn(self.reviews_waiting).await;
        crate::telemetry::thinking_wait(asked.elapsed());
        turn.ok_or_else(|| ApiError::Busy("reviewing other games".into()))
    }

    /// A turn to run a computer player.
    pub async fn thinking(&self, priority: thinking::Priority) -> thinking::Turn {
        let asked = std::time::Instant::now();
        let turn = self.thinkers.turn(priority).await;
        crate::telemetry::thinking_wait(asked.elapsed());
        turn
    }

    /// Reads the database's clock into the server's (on a database shared by several
    /// processes, whose clocks may differ): challenges close by it.
    pub async fn measure_database_clock(&self) {
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
}
