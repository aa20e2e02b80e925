//! The small interface a game implements to be played by the runtime ([`Rules`]), and what a
//! game may offer beyond it ([`Capabilities`]): a computer player, challenges, a share grid.
//!
//! A game of [`Rules`] gives its setup, its action, how an action changes it for a seat, who
//! may act, what a seat may see and, once it is over, each seat's result. Nothing in it is an
//! HTTP request, a stored row, a token or a seat's name: the runtime's [`Ruled`] keeps the
//! table (seats, tokens, names, joins, the lobby), encodes the action log and replays it,
//! starts challenge games and drives the computer seats, and is the [`GameState`] the rest of
//! the server serves. A game registers with [`crate::Games::rules`]; the registry reads its
//! capabilities, so nothing is declared twice.
//!
//! [`GameState`]: crate::game::GameState

mod ruled;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::challenge_games::TieBreakRule;
use crate::challenge_kind::ChallengeKind;
pub use crate::error::ApiError;
pub use crate::replay::SeatResult;
pub use crate::table::Table;
pub use ruled::{CreateRequest, Ruled, RuledReplay, RuledView, SEATS_MODE};

/// A game's rules, as the runtime plays them.
pub trait Rules: Clone + Send + Sync + Sized + 'static {
    /// The kind as stored and in its paths (`/api/{KIND}/games`).
    const KIND: &'static str;
    /// The game's name for people.
    const NAME: &'static str;
    /// The fewest and the most seats at a table.
    const SEATS: (usize, usize);
    /// What a game is made with beyond its seats and seed (`{}` for a game without options).
    type Options: Serialize + DeserializeOwned + Default + Clone + Send + Sync + 'static;
    /// One seat's action, as it is sent and as the log keeps it.
    type Action: Serialize + DeserializeOwned + Clone + Send + Sync + 'static;
    /// The game as a seat (or, `None`, anyone) may see it.
    type View: Serialize + Send + 'static;

    /// A new game for `seats` seats on the draws of `seed`; the refusal says why in words.
    fn setup(options: &Self::Options, seats: usize, seed: u64) -> Result<Self, String>;
    /// The game after `seat`'s action, or why not: the rule it breaks ([`ApiError::refused`],
    /// with the rule's name), or a plain conflict in words.
    fn act(&self, seat: usize, action: &Self::Action) -> Result<Self, ApiError>;
    /// The seats that may act now (none once the game is over).
    fn to_act(&self) -> Vec<usize>;
    /// Each seat's result, seat 0 first, once the game is over.
    fn results(&self) -> Option<Vec<SeatResult>>;
    /// What `seat` (if any) may see, at `table` (who sits where, and how the game is played).
    fn view(&self, table: &Table, seat: Option<usize>) -> Self::View;
    /// What the game offers beyond its rules (nothing, unless it says).
    const CAPABILITIES: Capabilities<Self> = Capabilities::NONE;
}

/// What a game offers beyond its rules; each is opted into, and the server offers what is.
pub struct Capabilities<R: Rules> {
    /// A computer player: computer seats, and the other seats of a challenge's game.
    pub computer: Option<Computer<R>>,
    /// The periodic challenges the game offers, each played by one person against computers
    /// in the other seats (so a game with challenges has a computer player)...
    pub challenges: &'static [ChallengeKind],
    /// ...at a table of this many seats.
    pub challenge_seats: usize,
    /// How a leaderboard of the game breaks ties between equal scores.
    pub tie_break: TieBreakRule,
    /// A seat's board as emoji, a line a row, for a shared result (never what was drawn).
    pub share_grid: Option<fn(&R, usize) -> Vec<String>>,
    /// What a replay shows of each action and of the end (without it: each action as sent,
    /// and the result).
    pub replay: Option<Replay<R>>,
    /// The computer's review of a seat of a finished game (`names[i]` is seat `i`'s name), as
    /// its answer's JSON object: CPU work, run on a thinking thread once a game and seat.
    pub review: Option<Review<R>>,
}

/// The computer's review of `seat` in the finished game (`names[i]` is seat `i`'s name).
pub type Review<R> = fn(&R, names: &[&str], seat: usize) -> Result<Value, ApiError>;

/// What a replay shows, step by step.
pub struct Replay<R: Rules> {
    /// What `seat`'s action changed, from the game `before` to the game `after`: one step.
    pub step: fn(before: &R, after: &R, seat: usize) -> Value,
    /// What the replay adds once the game is over (an object: its fields join the replay's).
    pub end: fn(&R) -> Value,
}

impl<R: Rules> Capabilities<R> {
    /// Nothing beyond the rules.
    pub const NONE: Capabilities<R> = Capabilities {
        computer: None,
        challenges: &[],
        challenge_seats: 1,
        tie_break: TieBreakRule::most("tie_break"),
        share_grid: None,
        replay: None,
        review: None,
    };
}

/// A computer player of a game of rules `R`.
pub struct Computer<R: Rules> {
    /// Its levels, weakest first: a seat that names none plays the last.
    pub levels: &'static [&'static str],
    /// The action it chooses for `seat` at `level` (one of `levels`); `seed` varies from one
    /// choice to the next, for a player that draws lots.
    pub choose: fn(&R, seat: usize, level: &str, seed: u64) -> R::Action,
}

impl<R: Rules> Capabilities<R> {
    /// The computer's levels (none for a game without a computer player).
    pub fn levels(&self) -> &'static [&'static str] {
        self.computer.as_ref().map_or(&[], |c| c.levels)
    }
}
