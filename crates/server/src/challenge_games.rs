//! What a game gives a challenge: the computer's own game on its seed, how strongly the
//! computer plays it, and a finished game as a friend challenge takes it.

use crate::storage::challenges::{ChallengeRow, NewEntry, PlayerRow};
use crate::storage::{ActionRow, ChallengeRef, Finished, SeatRow};

/// A player's attempt at a challenge as a game starts it: the challenge, the player, the seat's
/// token and the player's entry (stored with the game); without an entry, a practice game on
/// the challenge's draws.
pub struct ChallengeStart<'a> {
    pub challenge: &'a ChallengeRow,
    pub player: &'a PlayerRow,
    pub token: &'a str,
    pub entry: Option<NewEntry>,
}

impl ChallengeStart<'_> {
    /// The challenge a practice game practises (`None` for an attempt).
    pub fn practice(&self) -> Option<String> {
        self.entry.is_none().then(|| self.challenge.id.clone())
    }

    /// The challenge the game is played in (`None` for a practice game).
    pub fn challenge_ref(&self) -> Option<ChallengeRef> {
        self.entry.is_some().then(|| self.challenge.into())
    }
}

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
