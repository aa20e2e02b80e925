//! Time controls and the turn deadlines they set: how long a seat has for its turn (a round in
//! Railroad Ink, a turn in Metro), and what happens when it runs out (the computer stands in;
//! see [`crate::rules::Ruled::time_out`]).
//!
//! Deadlines are the database's (see `store::clocks`): every change to a game with a clock
//! replaces its seats' deadlines in the change's transaction. Each process runs [`watch`],
//! which sleeps until the earliest deadline (or a second, since other processes add theirs),
//! claims the passed ones, and has the computer stand in for each seat. A claim is one
//! process's only; the log's unique index refuses a second stand-in for the same turn anyway,
//! so a deadline passes once, whichever processes see it.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, watch};

use crate::error::ApiError;
use crate::state::AppState;

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
    wake: Notify,
    /// How late (milliseconds after it was due) each recent deadline was acted on.
    late: Mutex<VecDeque<i64>>,
}

/// How many latenesses are kept.
const KEPT: usize = 100_000;
/// How long a process holds a claimed deadline before another may act on it.
const HOLD_MS: i64 = 30_000;
/// How many passed deadlines are claimed at once.
const BATCH: usize = 256;
/// The longest sleep between looks (other processes add deadlines this one does not hear of).
const LOOK: Duration = Duration::from_secs(1);

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

    fn note(&self, late: i64) {
        let mut kept = self.late.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back(late);
    }
}

/// Acts on each deadline as it passes, until `stop`.
pub async fn watch(app: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        let now = app.clock.now_ms();
        let sleep = match look(&app, now).await {
            Ok(Some(next)) => Duration::from_millis((next - app.clock.now_ms()).max(0) as u64),
            Ok(None) => LOOK,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the turn deadlines");
                LOOK
            }
        };
        if sleep.is_zero() {
            continue;
        }
        tokio::select! {
            _ = tokio::time::sleep(sleep.min(LOOK)) => {}
            _ = app.deadlines.wake.notified() => {}
            _ = stop.changed() => return,
        }
    }
}

/// Claims the deadlines passed by `now` and has the computer stand in for each; the next
/// deadline nobody holds, if any.
async fn look(app: &AppState, now: i64) -> Result<Option<i64>, ApiError> {
    let passed = app.storage.claim_deadlines(now, HOLD_MS, BATCH).await?;
    let full = passed.len() == BATCH;
    let mut acting = tokio::task::JoinSet::new();
    for p in passed {
        let app = app.clone();
        acting.spawn(async move {
            let late = app.clock.now_ms() - p.deadline.due;
            let done = match app.kind(p.kind.as_str()) {
                Ok(kind) => kind.time_out(&app, &p.game, p.deadline).await,
                Err(e) => Err(e),
            };
            match done {
                Ok(true) => app.deadlines.note(late),
                Ok(false) => {
                    // Nothing to do (the turn was played meanwhile): the deadline goes, unless
                    // the game's deadlines were replaced since.
                    if let Err(e) = app.storage.drop_deadline(&p.game, p.deadline).await {
                        tracing::warn!(game = %p.game, error = %e, "cannot drop a passed deadline");
                    }
                }
                Err(e) => {
                    tracing::warn!(game = %p.game, seat = p.deadline.seat, error = %e,
                        "cannot stand in for a seat whose time ran out: tried again later");
                }
            }
        });
    }
    while acting.join_next().await.is_some() {}
    if full {
        // More passed than one batch: claim the next at once.
        return Ok(Some(now));
    }
    Ok(app.storage.next_deadline(app.clock.now_ms()).await?)
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
