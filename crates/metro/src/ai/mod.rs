//! Computer players behind one small trait.
//!
//! An [`Agent`] is asked for an action on its own turn and is given only the [`View`] of its
//! seat ([`Game::view`]): the board, its own hand and the tile it just drew, who holds a tile,
//! and how many tiles are left. It never sees the game, so it cannot see the order of the draws
//! to come or another player's hand.
//!
//! Agents are reproducible: an agent's choices follow from its seed and the views it is shown,
//! never from the clock, and its strength is set by deterministic work (the `strong` player's
//! budget of play-outs).
//!
//! ```
//! use metro::ai::{agent_by_name, play_game};
//! use metro::{Config, Game, PlayerCount};
//!
//! let mut game = Game::new(Config::new(PlayerCount::new(2).unwrap()), 7);
//! let mut agents = vec![
//!     agent_by_name("greedy", 1, None).unwrap(),
//!     agent_by_name("strong", 2, Some(50)).unwrap(),
//! ];
//! play_game(&mut game, &mut agents).unwrap();
//! assert!(game.is_over() && game.board().is_full());
//! ```

mod policy;
pub mod review;
mod sim;
mod strong;

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::game::{Action, Game, GameError, Phase, View};
use crate::square::{Player, SquareSet};
use crate::tile::Tile;

pub use policy::Weights;
pub use sim::{FastRng, Position, mix};
pub use strong::{DEFAULT_BUDGET, Strong, StrongConfig};

use policy::best_square;

/// A computer player.
pub trait Agent {
    /// The agent's name, as on the command line.
    fn name(&self) -> String;

    /// The action to take, given what this seat may see. Called only on the seat's own turn
    /// (`view.turn == view.viewer`); the action must be legal there.
    fn act(&mut self, view: &View) -> Action;
}

/// The names of the computer players, weakest first.
pub const AGENTS: [&str; 3] = ["random", "greedy", "strong"];

/// The computer player called `name` (one of [`AGENTS`]), seeded with `seed`. `budget` sets
/// the `strong` player's play-outs per decision (default [`DEFAULT_BUDGET`]); the others have
/// nothing to spend it on. `None` for an unknown name.
pub fn agent_by_name(name: &str, seed: u64, budget: Option<u32>) -> Option<Box<dyn Agent + Send>> {
    match name {
        "random" => Some(Box::new(Random { seed })),
        "greedy" => Some(Box::new(Greedy { seed })),
        "strong" => Some(Box::new(Strong::new(
            seed,
            budget.unwrap_or(DEFAULT_BUDGET),
        ))),
        _ => None,
    }
}

/// An agent's action that the rules refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{agent} (seat {seat}) chose {action}, which the rules refuse: {error}")]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// The seat it played.
    pub seat: Player,
    /// What it chose.
    pub action: Action,
    /// Why the rules refused it.
    pub error: GameError,
}

/// How long one seat thought over a game, and how much it did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Total thinking time (wall clock).
    pub think: Duration,
    /// The longest thinking time of one turn (a turn may take two decisions: keep, then place).
    pub longest_turn: Duration,
    /// Total thinking time by the CPU-time clock given to [`play_game_timed`] (zero without).
    pub cpu: Duration,
    /// The longest turn by that clock.
    pub longest_turn_cpu: Duration,
    /// Decisions taken (calls of [`Agent::act`]).
    pub decisions: u32,
    /// Tiles placed: one per turn.
    pub placements: u32,
}

/// Plays `game` to its end, seat `i` (P(i+1)) played by `agents[i]`, each shown only its own
/// view. Returns each seat's thinking time. Fails if an agent chooses an illegal action, or if
/// there are fewer agents than players.
pub fn play_game(
    game: &mut Game,
    agents: &mut [Box<dyn Agent + Send>],
) -> Result<Vec<SeatStats>, AgentError> {
    play_game_timed(game, agents, || Duration::ZERO)
}

/// [`play_game`], also timing each decision by `cpu_clock`, a clock of the CPU time of the
/// calling thread (each decision runs on it), which other work on the machine does not slow.
pub fn play_game_timed(
    game: &mut Game,
    agents: &mut [Box<dyn Agent + Send>],
    cpu_clock: impl Fn() -> Duration,
) -> Result<Vec<SeatStats>, AgentError> {
    let mut stats = vec![SeatStats::default(); agents.len()];
    let (mut turn, mut turn_cpu) = (Duration::ZERO, Duration::ZERO);
    while let Some(seat) = game.turn() {
        let view = game.view(Some(seat));
        let (Some(agent), Some(seat_stats)) =
            (agents.get_mut(seat.index()), stats.get_mut(seat.index()))
        else {
            return Err(AgentError {
                agent: "nobody".to_owned(),
                seat,
                action: Action::Draw,
                error: GameError::NotYourTurn {
                    player: seat,
                    current: seat,
                },
            });
        };
        let (start, start_cpu) = (Instant::now(), cpu_clock());
        let action = agent.act(&view);
        let spent = start.elapsed();
        let spent_cpu = cpu_clock().saturating_sub(start_cpu);
        seat_stats.think += spent;
        seat_stats.cpu += spent_cpu;
        seat_stats.decisions += 1;
        turn += spent;
        turn_cpu += spent_cpu;
        if let Err(error) = game.apply(action) {
            return Err(AgentError {
                agent: agent.name(),
                seat,
                action,
                error,
            });
        }
        if matches!(action, Action::Place(_)) {
            seat_stats.placements += 1;
            seat_stats.longest_turn = seat_stats.longest_turn.max(turn);
            seat_stats.longest_turn_cpu = seat_stats.longest_turn_cpu.max(turn_cpu);
            (turn, turn_cpu) = (Duration::ZERO, Duration::ZERO);
        }
    }
    Ok(stats)
}

/// A seed for one decision: the agent's seed mixed with where the game stands, so a decision
/// depends only on the seed and the view, not on what the agent was asked before.
fn decision_seed(seed: u64, view: &View) -> u64 {
    let phase = match view.phase {
        Phase::Start => 0,
        Phase::Drawn => 1,
        Phase::MustPlace => 2,
        Phase::Over => 3,
    };
    mix(seed ^ mix(view.sequence.len() as u64 * 4 + phase))
}

/// The seat a view belongs to (the player to act, on the seat's own turn).
fn seat_of(view: &View) -> Player {
    view.viewer.or(view.turn).unwrap_or(Player::FIRST)
}

/// The tile [`Action::Place`] would place now, as the view shows it.
fn tile_to_place(view: &View) -> Option<Tile> {
    match view.phase {
        Phase::Start => view.hand,
        Phase::Drawn | Phase::MustPlace => view.drawn,
        Phase::Over => None,
    }
}

/// Where `tile` may go: the view's legal squares, or the board's for this tile.
fn legal_for(view: &View, tile: Tile) -> SquareSet {
    if view.legal_squares.is_empty() {
        view.board.legal_squares(tile)
    } else {
        view.legal_squares
    }
}

/// A fallback that is legal whenever the view is the seat's own turn: draw when there is
/// nothing to place, else the first legal square.
fn fallback(view: &View) -> Action {
    match tile_to_place(view).and_then(|t| legal_for(view, t).first()) {
        Some(square) => Action::Place(square),
        None => Action::Draw,
    }
}

/// Random legal play: a draw or keep with probability 1/2 whenever one is allowed, and a
/// uniformly random legal square (as [`crate::random_action`] plays).
#[derive(Clone, Debug)]
pub struct Random {
    seed: u64,
}

impl Agent for Random {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn act(&mut self, view: &View) -> Action {
        let mut rng = FastRng::new(decision_seed(self.seed, view));
        let Some(tile) = tile_to_place(view) else {
            return Action::Draw;
        };
        if view.can_draw && rng.below(2) == 0 {
            return Action::Draw;
        }
        if view.can_keep && rng.below(2) == 0 {
            return Action::Keep;
        }
        let squares = legal_for(view, tile);
        match squares.nth(rng.below(squares.len())) {
            Some(square) => Action::Place(square),
            None => fallback(view),
        }
    }
}

/// The best immediate gain for itself: the square where the tile finishes the most points of
/// its own lines (among equals, the fewest points for the others, then at random). It keeps a
/// drawn tile, or draws instead of placing the one it holds, when that tile would score nothing
/// for it now.
#[derive(Clone, Debug)]
pub struct Greedy {
    seed: u64,
}

impl Agent for Greedy {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn act(&mut self, view: &View) -> Action {
        let mut rng = FastRng::new(decision_seed(self.seed, view));
        let Some(tile) = tile_to_place(view) else {
            return Action::Draw;
        };
        let pos = Position::new(&view.board, view.players);
        let me = seat_of(view).index();
        let Some((square, _)) = best_square(
            &pos,
            tile,
            legal_for(view, tile),
            me,
            Weights::GREEDY,
            &mut rng,
        ) else {
            return fallback(view);
        };
        let scores = pos.gains(tile, square).get(me).is_some_and(|&g| g > 0);
        match view.phase {
            Phase::Start if view.can_draw && !scores => Action::Draw,
            Phase::Drawn if view.can_keep && !scores => Action::Keep,
            _ => Action::Place(square),
        }
    }
}

#[cfg(test)]
mod tests;
