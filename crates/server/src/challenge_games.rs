//! What a game gives a challenge: the computer's own game on its seed, how strongly the
//! computer plays it, and a finished game as a friend challenge takes it.

use crate::storage::{ActionRow, Finished, SeatRow};

/// The computer's own game on a challenge's seed, played whole: what storage keeps of it.
#[derive(Debug, Clone)]
pub struct ComputerGame {
    /// The setup as stored.
    pub setup: String,
    pub seats: Vec<SeatRow>,
    pub actions: Vec<ActionRow>,
    /// How it ended (each seat's result: seat 0's is the challenge's computer row).
    pub finished: Finished,
}

/// How a game breaks a tie between equal scores on a leaderboard (its `k2`, higher is better).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreakRule {
    /// Fewer errors (`k2` is minus the errors), shown as `errors`.
    Errors,
    /// The larger margin over the best other seat, shown as `margin`.
    Margin,
}

/// How strong the computer's own game on a challenge plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// As strong as it plays (with this search budget, when given: tests use a small one).
    Full(Option<u32>),
    /// As fast as a hint: anyone can ask for one (a friend challenge).
    Interactive,
}

/// A finished game as a friend challenge takes it: its seed (the same draws for whoever takes
/// the challenge) and each seat's result, `(score, tie break)`.
#[derive(Debug, Clone)]
pub struct FriendGame {
    pub seed: u64,
    pub results: Vec<(i64, i64)>,
}
