//! The runtime's own interface to a game in play ([`GameState`], which a game of rules at the
//! runtime's table implements: [`crate::rules::Ruled`]), and what every game shares: a change
//! decided on a state, a game's place in time for its view, who could know its dice in advance,
//! the computer's own game on a challenge's seed.
//!
//! Everything around a game (sessions and their cache, the action log and its conflicts, the
//! computers' turns and their leases, live updates, challenge games) is written once, in
//! [`crate::play`], generic over this trait, and its table (seats, tokens and names, the
//! challenge, practice and chosen seed) in [`crate::table`]. A game implements the small
//! [`crate::rules::Rules`], and is registered in one place (`crate::app`).

use std::collections::BTreeMap;
use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use crate::challenge_games::{
    ChallengeStart, ComputerGame, FriendGame, Strength, TieBreakRule,
};
use crate::challenge_kind::is_friend;
pub use crate::challenge_kind::{ChallengeKind, Period};
use crate::error::ApiError;
use crate::seed::Seed;
use crate::state::AppState;
pub use crate::table::{Seat, SeatToken, Table};
use store::{ActionRow, ChallengeRef, Finished, Record, SeatKind, SeatRow, StoredGame};

/// What a kind of game keeps in memory (the state behind its session's lock), and what it
/// does that no other game does.
pub trait GameState: Clone + Send + Sync + Sized + 'static {
    /// The kind as stored.
    const KIND: &'static str;
    /// The game's name for people (`Railroad Ink`).
    const NAME: &'static str;
    /// The state as `GET /api/{kind}/games/{id}` sends it.
    type View: Serialize + Send + 'static;
    /// What a computer seat thinks over (copied out of the state, to think off the async
    /// threads).
    type Thought: Send + 'static;
    /// What it decided.
    type Decision: Send + 'static;
    /// `POST /api/{kind}/games`: what a game is made with.
    type Create: DeserializeOwned + Send + 'static;
    /// `POST /api/{kind}/games/{id}/join`: what a person who joins asks for.
    type Join: DeserializeOwned + Send + Sync + 'static;
    /// One seat's action, as `POST /api/{kind}/games/{id}/act` sends it.
    type Action: DeserializeOwned + Clone + Send + 'static;
    /// `GET /api/{kind}/games/{id}/replay`: a finished game, action by action.
    type Replay: Serialize + Send + 'static;

    /// Makes a game (its seats on this device are `player`'s, when known), stores it, and sets
    /// its computers going if it is their turn.
    fn create(
        app: &AppState,
        request: Self::Create,
        player: Option<String>,
    ) -> impl Future<Output = Result<Seated, ApiError>> + Send;
    /// `POST /api/{kind}/games/played`: what a game played in the page is sent as.
    type Played: DeserializeOwned + Send + 'static;
    /// Stores a game played to its end in the page with no connection, sent as its log, once
    /// every action of it replays here (its seat `player`'s, when known); a game that is not
    /// over, or an action the rules refuse, is refused in words. A game that cannot be played
    /// in the page refuses.
    fn played(
        app: &AppState,
        request: Self::Played,
        player: Option<String>,
    ) -> impl Future<Output = Result<Seated, ApiError>> + Send;
    /// The pool's rules of the game, if strangers meet in it (a game with a clock).
    fn pool_rules() -> Option<crate::turns::PoolRules>;
    /// A game the pool made: these seats (its people, then computers), rated or not, timed by
    /// `clock`, stored with the pool's entries it seats. Its id.
    fn start_pool_game(
        app: &AppState,
        seats: Vec<Seat>,
        clock: crate::turns::TimeControl,
        rated: bool,
        pool: Vec<store::pool::PoolSeat>,
    ) -> impl Future<Output = Result<String, ApiError>> + Send;
    /// Seats a person who joins, as `request` asks, with the hash of the seat's new token and
    /// its player: the state after, its actions, and the seat taken (the refusal says why not:
    /// the game has started, is full, the seat is taken).
    fn join(
        &self,
        request: &Self::Join,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(Self, Vec<ActionRow>, usize), ApiError>;
    /// `seat`'s action, after the rules accept it: the state after and its actions as stored.
    fn act(&self, seat: usize, action: Self::Action) -> Result<(Self, Vec<ActionRow>), ApiError>;
    /// A finished game played again from its log (see [`crate::replay::serve`]).
    fn replay(stored: &StoredGame) -> Result<Self::Replay, ApiError>;
    /// Leaves the seed out of a replay (a challenge's, until it closes).
    fn hide_seed(replay: &mut Self::Replay);
    /// The computer's review of `seat` in a finished game, as its answer's JSON object (CPU
    /// work: [`crate::review`] runs it on a thinking thread, once a game and seat): `409` while
    /// the game goes on. A game without reviews answers `404`.
    fn review(stored: &StoredGame, seat: usize) -> Result<serde_json::Value, ApiError>;

    /// Rebuilds the state from what storage holds, by replaying its actions.
    fn from_stored(stored: StoredGame) -> Result<Self, ApiError>;
    /// Grows with every change: what live updates announce.
    fn version(&self) -> usize;
    /// The number of actions stored.
    fn actions(&self) -> usize;
    /// Who sits where, and how the game is played (see [`Table`]).
    fn table(&self) -> &Table;
    /// The seats, seat 0 first.
    fn seats(&self) -> &[Seat] {
        &self.table().seats
    }
    /// Whether the game is over.
    fn is_over(&self) -> bool;
    /// How the game ended, once it is over, at `now` (stored with the change that ends it,
    /// for the list of recent games and the game's challenge).
    fn finished(&self, now: i64) -> Option<Finished>;
    /// How the game is played, as stored with it (`solo`, `computer`, `seats`, `challenge`…).
    fn mode(&self) -> &'static str;
    /// How the game ended at `now` ([`GameState::finished`]), with the record its players'
    /// scores count in, by the site's rules: the game and its variant (`ink:lake`), and the way
    /// it was played (its mode; against a computer, which one: `computer:greedy`).
    fn finish(&self, now: i64) -> Option<Finished> {
        let finished = self.finished(now)?;
        let agent = (self.seats().iter())
            .find(|s| s.kind == SeatKind::Computer)
            .and_then(|s| s.agent.as_deref());
        let way = match (self.mode(), agent) {
            ("computer", Some(agent)) => format!("computer:{agent}"),
            (mode, _) => mode.to_owned(),
        };
        let game = store::records::record_game(Self::KIND, self.variant());
        Some(Finished {
            record: Some(Record { game, way }),
            ..finished
        })
    }
    /// The challenge the game is played in, if any.
    fn challenge(&self) -> Option<&ChallengeRef> {
        self.table().challenge.as_ref()
    }
    /// What makes a new game like this finished one for `seat`, who asks ("Play again"): the
    /// same seats, names, computers and settings, new draws; `seat` sits in it first, and the
    /// game's other people join it from the offer in this one's state. A game that offers none
    /// refuses.
    fn rematch_request(&self, seat: usize) -> Result<Self::Create, ApiError>;
    /// `seat`'s board as a grid of emoji, a line a row, for a shared result: where tiles lie
    /// (and, in a game that has them, which squares hold errors), never which tile, turned
    /// how, or what was drawn. Empty for a game without one.
    fn share_grid(&self, seat: usize) -> Vec<String>;
    /// The variant of the game this one is played in (Railroad Ink's Deep Blue `lake`,
    /// `river`): records keep a best for each. None: the game itself.
    fn variant(&self) -> Option<&'static str>;
    /// The closed challenge whose draws the game practises, if it is a practice game.
    fn practice(&self) -> Option<&str> {
        self.table().practice.as_deref()
    }
    /// The state as `seat` (if any) may see it.
    fn view(&self, game: &GameInfo<'_>, seat: Option<usize>) -> Self::View;

    /// What the computer seat that has something to do now would think over, if one has.
    fn computer_thought(&self) -> Option<Self::Thought>;
    /// The computer's thinking (CPU work: run on a blocking thread).
    fn think(thought: &Self::Thought) -> Self::Decision;
    /// The state after the computer's decision, and its actions as stored. A decision the
    /// rules refuse is logged and replaced by legal moves: a computer never stalls a game.
    fn computer_moves(
        &self,
        game: &str,
        thought: &Self::Thought,
        decision: Self::Decision,
    ) -> Result<(Self, Vec<ActionRow>), ApiError>;

    /// Starts a player's attempt at a challenge of this game: the game, stored with its entry
    /// (a second attempt is refused by the database); returns its id. Without an entry, a
    /// practice game on the challenge's draws (a closed challenge's): never ranked, its state
    /// says which challenge it practises (see [`GameState::practice`]).
    fn start_challenge_game(
        app: &AppState,
        start: ChallengeStart<'_>,
    ) -> impl Future<Output = Result<String, ApiError>> + Send;
    /// The computer's own game on a challenge's seed, finished at `at` (CPU work), in the
    /// challenge's variant of the game if it has one (a setup of its
    /// [`GameState::CHALLENGES`], or a friend challenge's from [`FriendGame::variant`]).
    fn computer_challenge_game(
        seed: u64,
        variant: Option<&str>,
        strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError>;
    /// The name of the computer's row on a challenge of this game.
    fn computer_name() -> String;
    /// `seat` resigns (or leaves): the computer plays it to the end; the state after and the
    /// resign as stored.
    fn resign(&self, seat: usize) -> Result<(Self, Vec<ActionRow>), ApiError>;
    /// `seat`'s time for its turn `turn` ran out: the state after (the computer stands in for
    /// the turn) and the time-out as stored; `None` when there is nothing to do (the turn was
    /// played meanwhile).
    #[allow(clippy::type_complexity)]
    fn time_out(&self, seat: usize, turn: u64) -> Result<Option<(Self, Vec<ActionRow>)>, ApiError>;
    /// Sets each seat's deadline at `now`, after a change: the deadlines to store, in a game
    /// with a clock.
    fn set_clocks(&mut self, now: i64) -> Option<Vec<store::clocks::Deadline>>;
    /// When `seat`'s time for the turn it is on runs out, if its clock runs.
    fn due(&self, seat: usize) -> Option<i64>;
    /// The seats that may act now (none before the game starts, or once it is over).
    fn to_act(&self) -> Vec<usize>;
    /// How a leaderboard of this game breaks ties.
    const TIE_BREAK: TieBreakRule;
    /// The periodic challenges the game offers (none by default): each a declaration of its
    /// kind, period, setup, streak and title, collected by the server.
    const CHALLENGES: &'static [ChallengeKind];
    /// A finished game as a friend challenge takes it (its seed, each seat's result); a game
    /// whose draws a friend cannot play again makes none.
    fn friend_game(stored: &StoredGame) -> Result<FriendGame, ApiError>;

    /// Each seat's token hash, seat 0 first (`None` for a seat without a token).
    fn token_hashes(&self) -> impl Iterator<Item = Option<&str>> {
        self.table().token_hashes()
    }

    /// Each seat's player, seat 0 first (`None` for a seat that no player took).
    fn seat_players(&self) -> impl Iterator<Item = Option<&str>> {
        self.table().seat_players()
    }

    /// Whether a computer seat has something to do now.
    fn computer_to_move(&self) -> bool {
        self.computer_thought().is_some()
    }

    /// The seat whose token this is.
    fn seat_of(&self, token: &str) -> Result<usize, ApiError> {
        self.table().seat_of(token)
    }
}

/// A game's place in the world, for its view: its id, when it was made, and the time now.
#[derive(Debug, Clone)]
pub struct GameInfo<'a> {
    pub id: &'a str,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub now: i64,
    /// The game made to play this one again, once one is.
    pub rematch: Option<String>,
    /// The rating of each seat's player in this game, of those that have one.
    pub ratings: BTreeMap<usize, crate::ratings::Shown>,
}

/// A change decided on a game's state: see `Session::change`.
pub struct Change<St, T> {
    pub next: St,
    pub actions: Vec<ActionRow>,
    pub seat: Option<SeatRow>,
    pub answer: T,
}

/// The answer to creating or joining a game, in every game: the game's id and the token of
/// each seat taken on this device (one, or several for a hot-seat game).
#[derive(Debug, Clone, Serialize)]
pub struct Seated {
    pub id: String,
    pub seats: Vec<SeatToken>,
    /// The first of `seats`, kept for one release for clients that read Railroad Ink's older
    /// answer (`{seat, token}`).
    pub seat: usize,
    /// The first seat's token (kept for one release, as `seat`).
    pub token: String,
}

impl Seated {
    /// Game `id` with `seats` taken (at least one: a game is made or joined by a person).
    pub fn new(id: String, seats: Vec<SeatToken>) -> Result<Seated, ApiError> {
        let first = seats
            .first()
            .cloned()
            .ok_or_else(|| ApiError::Internal(format!("game {id} seated nobody")))?;
        Ok(Seated {
            id,
            seats,
            seat: first.seat,
            token: first.token,
        })
    }
}

/// A state after a change, and the change's actions as stored.
pub type Changed<St> = (St, Vec<ActionRow>);

/// The computer player chosen when none is named: the last (strongest) of a game's `levels`.
pub fn default_level(levels: &[&'static str]) -> &'static str {
    levels.last().copied().unwrap_or("greedy")
}

/// The computer player a computer seat asks for (`None`: the [default](default_level)), if it
/// is one of `agents`; else a refusal that begins with `unknown` (`unknown computer player`)
/// and lists them.
pub fn computer_agent(
    asked: Option<String>,
    agents: &[&'static str],
    unknown: &str,
) -> Result<String, ApiError> {
    match asked {
        None => Ok(default_level(agents).to_owned()),
        Some(agent) if agents.contains(&agent.as_str()) => Ok(agent),
        Some(agent) => Err(ApiError::BadRequest(format!(
            "{unknown} {agent:?}; choose one of {}",
            agents.join(", ")
        ))),
    }
}

/// A value as stored: JSON.
pub fn to_json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))
}

/// Dice (or a deck) that somebody could know in advance: `by` chose their seed, or (a friend
/// challenge on its first game's dice) played them first.
#[derive(Debug, Clone, Serialize)]
pub struct ChosenSeed {
    /// The seed; a friend challenge's only to a seat that has finished it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    pub by: String,
}

impl ChosenSeed {
    /// Who could know the draws of `seed` in advance, if anyone, and the seed when the asker
    /// may know it: the creator who chose it (`chosen`, `creator`: everyone is told); a friend
    /// challenge's maker (the seed only once the asker is `done`, a seat that finished).
    pub fn of(
        seed: u64,
        chosen: bool,
        creator: Option<&str>,
        challenge: Option<&ChallengeRef>,
        done: bool,
    ) -> Option<ChosenSeed> {
        let (by, shown) = match challenge {
            // On new dice nobody knew them, its maker neither.
            Some(c) if is_friend(&c.kind) && c.fresh => return None,
            Some(c) if is_friend(&c.kind) => (c.by.clone().unwrap_or_default(), done),
            Some(_) => return None,
            None if chosen => (creator.unwrap_or_default().to_owned(), true),
            None => return None,
        };
        Some(ChosenSeed {
            seed: shown.then_some(Seed(seed)),
            by,
        })
    }
}

/// What every game's view begins with (flattened into it).
#[derive(Debug, Clone, Serialize)]
pub struct ViewHeader {
    pub id: String,
    pub kind: &'static str,
    /// Grows with every change (what live updates announce).
    pub version: usize,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub finished: bool,
    /// The winning seats once the game is over (a tie shares the win).
    pub winners: Vec<usize>,
    /// The seed of the draws, once the game is over (a challenge's, once it has closed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// Who could know the draws in advance: a seed the game's creator chose (everyone is told,
    /// before they join), a friend challenge's maker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen_seed: Option<ChosenSeed>,
    /// The challenge the game is played in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
    /// A practice game on a closed challenge's draws (never ranked)...
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// ...of this challenge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub practice_of: Option<String>,
    /// The game made to play this finished one again (`POST …/rematch`): its other seats join
    /// it from here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// Each seat's rating in this game, by seat (of the seats whose players have one).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<usize, crate::ratings::Shown>,
}

impl ViewHeader {
    /// The header of game `St` as `seat` (if any) sees it: `winners` once it is over, and the
    /// seed of its draws (`None` for draws that no seed decides).
    pub fn of<St: GameState>(
        st: &St,
        info: &GameInfo<'_>,
        seat: Option<usize>,
        winners: Vec<usize>,
        seed: Option<u64>,
    ) -> ViewHeader {
        let finished = st.is_over();
        let challenge = st.challenge();
        ViewHeader {
            id: info.id.to_owned(),
            kind: St::KIND,
            version: st.version(),
            created: info.created,
            finished,
            winners: if finished { winners } else { Vec::new() },
            seed: seed
                .filter(|_| finished && seed_shown(challenge, seat, info.now))
                .map(Seed),
            chosen_seed: seed.and_then(|seed| {
                ChosenSeed::of(
                    seed,
                    st.table().seed_chosen,
                    st.table().creator(),
                    challenge,
                    finished && seat.is_some(),
                )
            }),
            challenge: challenge.map(|c| c.id.clone()),
            practice: st.practice().is_some(),
            practice_of: st.practice().map(str::to_owned),
            rematch: info.rematch.clone(),
            ratings: info.ratings.clone(),
        }
    }
}

/// Whether a finished game's seed may be shown to `seat` (if any) at `now`: a game of no
/// challenge's, always; a challenge's once it has closed, or, a friend challenge's, to a seat
/// (who has played those dice).
pub fn seed_shown(challenge: Option<&ChallengeRef>, seat: Option<usize>, now: i64) -> bool {
    challenge.is_none_or(|c| c.is_closed(now) || (is_friend(&c.kind) && seat.is_some()))
}
