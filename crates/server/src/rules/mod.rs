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

use crate::challenge_games::{Strength, TieBreakRule};
use crate::challenge_kind::ChallengeKind;
pub use crate::error::ApiError;
pub use crate::replay::SeatResult;
pub use crate::table::Table;
pub use ruled::{ClockView, CreateRequest, Ruled, RuledReplay, RuledView, SEATS_MODE, Setup};

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
    /// How a leaderboard of the game breaks ties between equal scores...
    pub tie_break: TieBreakRule,
    /// ...and whether it decides a game too (else equal scores share the win).
    pub tie_break_wins: bool,
    /// The variants the game is played in (each keeps its own records and challenges).
    pub variants: Option<Variants<R>>,
    /// A finished game may be sent to a friend as a challenge on the same draws.
    pub friend_challenges: bool,
    /// A table people join until its creator starts the game: the rules' action that seats one
    /// more (each join is one of the game's actions, logged as the others are).
    pub join: Option<fn() -> R::Action>,
    /// How a game that is no challenge's is played, as stored with it and shown in its view.
    pub mode: fn(&Table) -> &'static str,
    /// A seat's board as emoji, a line a row, for a shared result (never what was drawn).
    pub share_grid: Option<fn(&R, usize) -> Vec<String>>,
    /// What a replay shows of each action and of the end (without it: each action as sent,
    /// and the result).
    pub replay: Option<Replay<R>>,
    /// The computer's review of a seat of a finished game (`names[i]` is seat `i`'s name), as
    /// its answer's JSON object: CPU work, run on a thinking thread once a game and seat.
    pub review: Option<Review<R>>,
    /// What the game kept before it was a game of rules: the older form of its setup and of
    /// its create request, still read.
    pub older: Option<Older<R>>,
    /// Turns a clock can time (a game with a computer player: it stands in for a seat whose
    /// time ran out).
    pub turns: Option<Turns<R>>,
    /// A game of one person (alone, or against the computer player) may be played to its end
    /// in the page with no connection (the page runs the same rules and computers), then sent
    /// as the person's log (`POST /api/{kind}/games/played`).
    pub offline: bool,
}

/// What a clock times in a game: each seat's turns.
pub struct Turns<R: Rules> {
    /// Which turn the game is on, as a number that changes when a turn ends (a round's number,
    /// the count of turns played): a seat's clock starts again when it does.
    pub turn: fn(&R) -> u64,
    /// A live game's time for one, in seconds, unless its creator chose another.
    pub live_seconds: u32,
    /// What one is called (`round`, `turn`).
    pub called: &'static str,
}

/// The computer's review of `seat` in the finished game (`names[i]` is seat `i`'s name).
pub type Review<R> = fn(&R, names: &[&str], seat: usize) -> Result<Value, ApiError>;

/// What a replay shows, step by step.
pub struct Replay<R: Rules> {
    /// What `seat`'s `action` changed, from the game `before` to the game `after`: one step.
    pub step: fn(before: &R, after: &R, seat: usize, action: &R::Action) -> Value,
    /// What the replay adds once the game is over (an object: its fields join the replay's).
    pub end: fn(&R) -> Value,
    /// What it adds to a seat, if anything (an object: its fields join the seat's).
    pub seat: Option<fn(&R, usize) -> Value>,
}

/// The variants of a game (Railroad Ink's Deep Blue `lake` and `river`).
pub struct Variants<R: Rules> {
    /// The variant a game of these options is played in (`None`: the game itself).
    pub of: fn(&R::Options) -> Option<&'static str>,
    /// The options of a variant (a challenge's setup, a friend challenge's game's).
    pub options: fn(&str) -> Result<R::Options, String>,
}

/// What a game stored, and was asked, before it was a game of rules.
pub struct Older<R: Rules> {
    /// A setup stored in the older form, read with the mode stored beside it.
    pub setup: OlderSetup<R>,
    /// A create request in the older form (one without `players`), as today's.
    pub create: fn(Value) -> Result<CreateRequest<R::Options>, String>,
}

/// A setup stored in an older form, read with the mode stored beside it.
pub type OlderSetup<R> =
    fn(mode: &str, setup: &str) -> Result<Setup<<R as Rules>::Options>, String>;

/// A game that is no challenge's is played at `seats`.
fn seats_mode(_: &Table) -> &'static str {
    SEATS_MODE
}

impl<R: Rules> Capabilities<R> {
    /// Nothing beyond the rules.
    pub const NONE: Capabilities<R> = Capabilities {
        computer: None,
        challenges: &[],
        challenge_seats: 1,
        tie_break: TieBreakRule::most("tie_break"),
        tie_break_wins: false,
        variants: None,
        friend_challenges: false,
        join: None,
        mode: seats_mode,
        share_grid: None,
        replay: None,
        review: None,
        older: None,
        turns: None,
        offline: false,
    };
}

/// A computer player of a game of rules `R`.
pub struct Computer<R: Rules> {
    /// Its levels, weakest first: a seat that names none plays the last.
    pub levels: &'static [&'static str],
    /// The actions it chooses for `seat` at `level` (one of `levels`), each legal after the
    /// one before: its turn (one action, or more in a game where a turn is several); `seed`
    /// varies from one turn to the next, for a player that draws lots.
    pub choose: fn(&R, seat: usize, level: &str, seed: u64) -> Vec<R::Action>,
    /// Its own game on a challenge's draws at `strength`, played whole (each action with its
    /// seat), when it plays one otherwise than turn by turn at its strongest level.
    pub challenge_game: Option<ChallengeGame<R>>,
}

/// The computer's own game on the draws of `seed` in a game of these options.
pub type ChallengeGame<R> = fn(
    &<R as Rules>::Options,
    seed: u64,
    Strength,
) -> Result<Vec<(usize, <R as Rules>::Action)>, ApiError>;

impl<R: Rules> Capabilities<R> {
    /// The computer's levels (none for a game without a computer player).
    pub fn levels(&self) -> &'static [&'static str] {
        self.computer.as_ref().map_or(&[], |c| c.levels)
    }
}
