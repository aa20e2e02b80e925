//! What the runtime keeps of turns and of who plays them, apart from any game: time controls
//! (how long a seat has for its turn), the state of a process's deadline watcher (see
//! [`crate::deadlines`]), the pool's rules of a game (see [`crate::pool`]), and a player's game
//! as the list of games waiting for them shows it.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use crate::error::ApiError;

/// How long a seat has for each of its turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeControl {
    /// A live game: this many seconds.
    Live(u32),
    /// A turn-based game, played over days: this many days.
    Days(u32),
}

/// The fewest and most seconds of a live game's turn.
pub const LIVE_SECONDS: (u32, u32) = (10, 600);
/// The fewest and most days of a turn-based game's turn.
pub const DAYS: (u32, u32) = (1, 7);

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

impl TimeControl {
    /// Milliseconds a turn.
    pub fn turn_ms(self) -> i64 {
        match self {
            TimeControl::Live(s) => i64::from(s) * 1000,
            TimeControl::Days(d) => i64::from(d) * DAY_MS,
        }
    }

    /// The time control as asked (`"live"`: the game's own live time, `live_seconds`), or why
    /// it is out of range.
    pub fn of(asked: &ClockRequest, live_seconds: u32) -> Result<TimeControl, ApiError> {
        let control = match asked {
            ClockRequest::Named(name) if name == "live" => TimeControl::Live(live_seconds),
            ClockRequest::Named(name) => {
                return Err(ApiError::BadRequest(format!(
                    "no time control is called {name:?}: send \"live\", {{\"live\": SECONDS}} or {{\"days\": DAYS}}"
                )));
            }
            ClockRequest::Set(control) => *control,
        };
        match control {
            TimeControl::Live(s) if !(LIVE_SECONDS.0..=LIVE_SECONDS.1).contains(&s) => {
                Err(ApiError::BadRequest(format!(
                    "a live game gives {} to {} seconds a turn, not {s}",
                    LIVE_SECONDS.0, LIVE_SECONDS.1
                )))
            }
            TimeControl::Days(d) if !(DAYS.0..=DAYS.1).contains(&d) => {
                Err(ApiError::BadRequest(format!(
                    "a turn-based game gives {} to {} days a turn, not {d}",
                    DAYS.0, DAYS.1
                )))
            }
            ok => Ok(ok),
        }
    }

    /// The name the pool keeps it by (only equal ones meet): `live:120`, `days:3`.
    pub fn key(self) -> String {
        match self {
            TimeControl::Live(s) => format!("live:{s}"),
            TimeControl::Days(d) => format!("days:{d}"),
        }
    }

    /// Read from [`TimeControl::key`].
    pub fn from_key(key: &str) -> Option<TimeControl> {
        let (kind, n) = key.split_once(':')?;
        let n = n.parse().ok()?;
        match kind {
            "live" => Some(TimeControl::Live(n)),
            "days" => Some(TimeControl::Days(n)),
            _ => None,
        }
    }
}

/// A time control as a request names it: `"live"` (the game's own), or `{"live": SECONDS}` or
/// `{"days": DAYS}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum ClockRequest {
    Named(String),
    Set(TimeControl),
}

/// The deadlines' watcher's state in a process: woken when a deadline may have come nearer
/// (a change here added one), and how late the deadlines it acted on were.
#[derive(Debug, Default)]
pub struct Deadlines {
    pub(crate) wake: Notify,
    /// How late (milliseconds after it was due) each recent deadline was acted on.
    late: Mutex<VecDeque<i64>>,
}

/// How many latenesses are kept.
const KEPT: usize = 100_000;

impl Deadlines {
    /// A deadline may have come nearer: look again now.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// How late the deadlines acted on so far were, in milliseconds (the most recent
    /// [`KEPT`]), in the order acted on.
    pub fn lateness(&self) -> Vec<i64> {
        self.late
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .copied()
            .collect()
    }

    pub(crate) fn note(&self, late: i64) {
        crate::telemetry::deadline_late(late);
        let mut kept = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back(late);
    }
}

/// A turn that passed to a person in a game of two people or more that is not live: whom it
/// waits for now, and what the reminder of it says (see `crate::reminders`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnPassed {
    pub kind: &'static str,
    pub game: String,
    pub seat: usize,
    pub player: String,
    /// The other people's names.
    pub others: Vec<String>,
    /// How many actions the game's log holds: with the game and seat, what makes the turn one.
    pub actions: usize,
}

/// The pool's rules of a game: how many seats it has, a live turn's time, and the computer's
/// level that fills empty seats.
pub struct PoolRules {
    pub seats: (usize, usize),
    pub live_seconds: u32,
    pub level: &'static str,
}

/// A person the pool seats: their name, the hash of their seat's token, their player.
#[derive(Debug, Clone)]
pub struct PoolPerson {
    pub name: String,
    pub token_hash: String,
    pub player: String,
}

/// One of a player's games that others play too, as the start page lists it.
#[derive(Debug, Clone, Serialize)]
pub struct YourGame {
    pub id: String,
    pub kind: &'static str,
    pub seat: usize,
    /// Whether it is the player's turn now...
    pub your_turn: bool,
    /// ...and by when they must play it, in a game with a clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due: Option<i64>,
    /// The other seats' names.
    pub others: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Whether it has started (a table that grows waits for its creator).
    pub started: bool,
    pub created: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(json: &str) -> Result<TimeControl, ApiError> {
        TimeControl::of(&serde_json::from_str(json).unwrap(), 120)
    }

    #[test]
    fn a_time_control_is_asked_by_name_or_set_within_range() {
        assert_eq!(asked(r#""live""#).unwrap(), TimeControl::Live(120));
        assert_eq!(asked(r#"{"live": 30}"#).unwrap(), TimeControl::Live(30));
        assert_eq!(asked(r#"{"days": 3}"#).unwrap(), TimeControl::Days(3));
        for bad in [
            r#""blitz""#,
            r#"{"live": 5}"#,
            r#"{"live": 601}"#,
            r#"{"days": 0}"#,
            r#"{"days": 8}"#,
        ] {
            assert!(matches!(asked(bad), Err(ApiError::BadRequest(_))), "{bad}");
        }
        assert_eq!(TimeControl::Days(3).turn_ms(), 3 * DAY_MS);
        for c in [TimeControl::Live(30), TimeControl::Days(1)] {
            assert_eq!(TimeControl::from_key(&c.key()), Some(c));
        }
        assert_eq!(TimeControl::from_key("week:1"), None);
    }
}
