//! The rows of games as the callers see them: what is stored of a game, its seats and
//! actions, and what a change adds.

use crate::StorageError;
use crate::challenges;

/// The kind of game a row belongs to (whatever game the server registers: storage knows none
/// of them).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameKind(String);

impl GameKind {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn parse(s: &str) -> Result<GameKind, StorageError> {
        if s.is_empty() || s.len() > 32 {
            return Err(StorageError::Corrupt(format!("a game kind {s:?}")));
        }
        Ok(GameKind(s.to_owned()))
    }
}

impl From<&str> for GameKind {
    fn from(kind: &str) -> GameKind {
        GameKind(kind.to_owned())
    }
}

impl PartialEq<&str> for GameKind {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who sits in a seat (`human` or `computer` in JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    Human,
    Computer,
}

impl SeatKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Computer => "computer",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<SeatKind, StorageError> {
        match s {
            "human" => Ok(SeatKind::Human),
            "computer" => Ok(SeatKind::Computer),
            _ => Err(StorageError::Corrupt(format!("unknown seat kind {s:?}"))),
        }
    }
}

/// A seat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    /// The computer player's name, for a computer seat.
    pub agent: Option<String>,
    /// The hex SHA-256 of the seat's token, for a human seat.
    pub token_hash: Option<String>,
    /// The player (see [`challenges::PlayerRow`]) who took the seat, when known.
    pub player: Option<String>,
}

/// One action as stored: the seat and the action as JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionRow {
    pub seat: usize,
    pub action: String,
}

/// A new game: its row and its first seats.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    /// The setup as JSON.
    pub setup: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub seats: Vec<SeatRow>,
    /// The challenge the game is played in, and its entry (stored with the game, or not at
    /// all: a second attempt by the same player is [`StorageError::Duplicate`]).
    pub entry: Option<challenges::NewEntry>,
    /// The variant of its game it is played in (as its game names it), opaque here: records
    /// keep a best for each.
    pub variant: Option<String>,
    /// Its seats' first deadlines, in a game with a clock.
    pub deadlines: Vec<crate::clocks::Deadline>,
    /// The people of the pool it seats (each must be waiting still: see [`crate::pool`]).
    pub pool: Vec<crate::pool::PoolSeat>,
}

/// The challenge a game belongs to, as loading the game finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRef {
    pub id: String,
    pub kind: String,
    /// Milliseconds since the Unix epoch; `None` for a challenge that never closes.
    pub closes: Option<i64>,
    /// Whose game a friend challenge comes from.
    pub by: Option<String>,
    /// A friend challenge played on new dice (see [`challenges::ChallengeRow::fresh`]).
    pub fresh: bool,
}

impl ChallengeRef {
    /// Whether the challenge has closed by `now` (milliseconds since the Unix epoch).
    pub fn is_closed(&self, now: i64) -> bool {
        self.closes.is_some_and(|t| now >= t)
    }
}

impl From<&challenges::ChallengeRow> for ChallengeRef {
    fn from(c: &challenges::ChallengeRow) -> ChallengeRef {
        ChallengeRef {
            id: c.id.clone(),
            kind: c.kind.clone(),
            closes: c.closes,
            by: c.by.clone(),
            fresh: c.fresh,
        }
    }
}

/// Everything stored about one game.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    pub setup: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub seats: Vec<SeatRow>,
    /// In order: the action at index `i` is `actions[i]`.
    pub actions: Vec<ActionRow>,
    /// The challenge the game is played in, if any.
    pub challenge: Option<ChallengeRef>,
    /// The game made to play this one again ("Play again"), once one is.
    pub rematch: Option<String>,
    /// When its draws were first shown to someone who does not sit in it (a spectator, a
    /// replay, a review), in milliseconds since the Unix epoch: a friend challenge is never
    /// played on dice shown so.
    pub shown: Option<i64>,
    /// Its seats' deadlines, in a game with a clock.
    pub deadlines: Vec<crate::clocks::Deadline>,
}

/// How a game ended: when, and its result as JSON (what the list of recent games shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// The result as JSON, opaque here.
    pub result: String,
    /// Each seat's result (what its place in a challenge is, should the game be a
    /// challenge's).
    pub entries: Vec<SeatResult>,
    /// The record its players' scores count in, as the site's rules name it (none: counted in
    /// no record).
    pub record: Option<Record>,
    /// Its players' places, in a rated game (see [`crate::ratings`]).
    pub rated: Option<Box<crate::ratings::Rated>>,
}

/// Which of a player's records a finished game counts in, as the server names it: its game
/// (and variant: `KIND` or `KIND:VARIANT`) and its way of playing (`solo`, `computer:greedy`).
/// Storage only keeps the counts (see [`crate::records`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub game: String,
    pub way: String,
}

/// A finished game as the list of recent games shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub id: String,
    pub kind: GameKind,
    pub mode: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub finished: Finished,
}

/// Actions to add to a game, and maybe the seat that one of them creates (a join).
#[derive(Debug, Clone)]
pub struct Append {
    pub game: String,
    /// The index of the first new action: the number of actions stored before.
    pub first: usize,
    pub actions: Vec<ActionRow>,
    pub seat: Option<SeatRow>,
    /// Refused ([`StorageError::Closed`]) at or after this time by the database's clock
    /// (milliseconds since the Unix epoch): a challenge game's close.
    pub deadline: Option<i64>,
    /// In a game with a clock, its seats' deadlines after the change (they replace those
    /// before); `None` in a game without.
    pub clocks: Option<Vec<crate::clocks::Deadline>>,
}

/// One seat's result in a finished game, the one shape every part of the site keeps it in: its
/// score and its tie break `k2` (higher is better: a number where fewer is better is stored
/// negated; the server's games say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatResult {
    pub seat: usize,
    pub score: i64,
    pub k2: i64,
}
