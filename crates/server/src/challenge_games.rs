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

    /// The variant of the game the challenge is played in (see [`variant`]).
    pub fn variant(&self) -> Option<&'static str> {
        variant(&self.challenge.id)
    }

    /// The challenge the game is played in (`None` for a practice game).
    pub fn challenge_ref(&self) -> Option<ChallengeRef> {
        self.entry.is_some().then(|| self.challenge.into())
    }
}

/// The variants of a game a challenge may be played in: Railroad Ink's Deep Blue expansions.
pub const VARIANTS: [&str; 2] = ["lake", "river"];

/// The variant of the game a challenge is played in, read from its id: the weekly Deep Blue
/// challenges (`weekly-lake-2026-W49`, `weekly-river-2026-W50`) and the friend challenges made
/// from a game of an expansion (`friend-lake-…`) name it after their kind; every other
/// challenge plays the game itself (`None`).
pub fn variant(id: &str) -> Option<&'static str> {
    let rest = id
        .strip_prefix("weekly-")
        .or_else(|| id.strip_prefix("friend-"))?;
    VARIANTS
        .into_iter()
        .find(|v| rest.strip_prefix(v).is_some_and(|r| r.starts_with('-')))
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
    /// Whether people other than its seats could know the seed: chosen by whoever made the
    /// game, or a closed challenge's (a practice game's).
    pub seed_known: bool,
    pub results: Vec<(i64, i64)>,
    /// The variant the game was played in (see [`variant`]), for the challenge's id.
    pub variant: Option<&'static str>,
}

#[cfg(test)]
mod tests {
    use super::variant;

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
    }
}
