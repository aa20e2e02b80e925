//! What a game gives a challenge: the computer's own game on its seed, how strongly the
//! computer plays it, and a finished game as a friend challenge takes it.

use store::challenges::{ChallengeRow, NewEntry, PlayerRow};
use store::{ActionRow, ChallengeRef, Finished, SeatRow};

/// A player's attempt at a challenge as a game starts it: the challenge, the player, the seat's
/// token and the player's entry (stored with the game); without an entry, a practice game on
/// the challenge's draws.
pub struct ChallengeStart<'a> {
    pub challenge: &'a ChallengeRow,
    pub player: &'a PlayerRow,
    pub token: &'a str,
    pub entry: Option<NewEntry>,
    /// The setup of the game the challenge is played in, as the game declared it (see
    /// [`crate::challenge_kind::ChallengeKind::setups`]); `None`: the game itself.
    pub setup: Option<&'a str>,
}

impl ChallengeStart<'_> {
    /// The challenge a practice game practises (`None` for an attempt).
    pub fn practice(&self) -> Option<String> {
        self.entry.is_none().then(|| self.challenge.id.clone())
    }

    /// The variant of the game the challenge is played in: its setup (see
    /// [`ChallengeStart::setup`]).
    pub fn variant(&self) -> Option<&str> {
        self.setup
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

/// How a game breaks a tie between equal scores on a leaderboard: the name of the number its
/// results give (the answers' field), and which way is better. Stored as `k2`, higher is better
/// (a number where fewer is better is stored negated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieBreakRule {
    /// The field of the answers that shows it (`errors`): beside a row's own fields, so never
    /// `name`, `score` or `game`.
    pub name: &'static str,
    /// Whether fewer is better: then `k2` is minus the number shown.
    pub fewer_is_better: bool,
}

impl TieBreakRule {
    /// Fewer `name` is better (`k2` is minus the number).
    pub const fn fewest(name: &'static str) -> TieBreakRule {
        TieBreakRule {
            name,
            fewer_is_better: true,
        }
    }

    /// More `name` is better (`k2` is the number).
    pub const fn most(name: &'static str) -> TieBreakRule {
        TieBreakRule {
            name,
            fewer_is_better: false,
        }
    }

    /// The number shown for a stored `k2`.
    pub fn shown(&self, k2: i64) -> i64 {
        if self.fewer_is_better { -k2 } else { k2 }
    }
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
    /// Whether people other than its seats could know the seed: chosen by whoever made the
    /// game, or a closed challenge's (a practice game's).
    pub seed_known: bool,
    pub results: Vec<(i64, i64)>,
    /// The variant the game was played in (a setup of its game, see
    /// [`crate::challenge_kind::ChallengeKind::setups`]), for the challenge's id.
    pub variant: Option<&'static str>,
}
