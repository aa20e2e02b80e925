//! A game of rules with a clock: each seat's deadline for the turn it is on, the computer
//! standing in for a seat whose time ran out, and the seat given to the computer after two
//! such turns in a row (see [`crate::deadlines`]).

use serde::Serialize;

use super::{Joining, Ruled, TIMEOUT, computer};
use crate::error::ApiError;
use crate::game::{Changed, GameState};
use crate::rules::{Rules, Turns};
use crate::turns::TimeControl;
use store::clocks::Deadline;
use store::{ActionRow, SeatKind};

/// How many turns in a row may run out before the seat is the computer's for good.
pub const GIVEN_AFTER: u8 = 2;

/// A game's clock as its view shows it: the time control, the server's time now (a page
/// counts down from it), and each seat's clock.
#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    pub control: TimeControl,
    /// What a clock times (`round`, `turn`).
    pub per: &'static str,
    /// The server's time now, milliseconds since the Unix epoch.
    pub now: i64,
    pub seats: Vec<SeatClockView>,
}

/// One seat's clock, as a view shows it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatClockView {
    pub seat: usize,
    /// When the seat's person must have played the turn it is on, while it is theirs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due: Option<i64>,
    /// The computer plays this turn for the seat: its person's time ran out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
    /// How many of its turns ran out (in a row).
    #[serde(skip_serializing_if = "is_zero")]
    pub timeouts: u8,
    /// The computer's for the rest of the game, after two turns in a row ran out.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub given: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn turns<R: Rules>() -> Option<&'static Turns<R>> {
    const { &R::CAPABILITIES.turns }.as_ref()
}

impl<R: Rules> Ruled<R> {
    /// The time control asked for a new game, checked against what the game can time.
    pub(super) fn time_control(
        asked: Option<&crate::turns::ClockRequest>,
    ) -> Result<Option<TimeControl>, ApiError> {
        let Some(asked) = asked else {
            return Ok(None);
        };
        let turns = turns::<R>().ok_or_else(|| {
            ApiError::BadRequest(format!("a game of {} is played without a clock", R::NAME))
        })?;
        computer::<R>()?;
        TimeControl::of(asked, turns.live_seconds).map(Some)
    }

    /// After `seat`'s action: a turn its person played ends their run of turns that ran out,
    /// and a turn the computer played for a seat ends its stand-in.
    pub(super) fn keep_turns(&mut self, seat: usize) {
        if self.table.clock.is_none() {
            return;
        }
        if let Some(s) = self.table.seats.get_mut(seat)
            && s.clock.stand_in.is_none()
            && !s.resigned
        {
            s.clock.timeouts = 0;
        }
        if !(self.table.seats.iter()).any(|s| s.clock.stand_in.is_some()) {
            return;
        }
        let Some(turns) = turns::<R>() else { return };
        let (to_act, turn) = (self.rules.to_act(), (turns.turn)(&self.rules));
        for (i, s) in self.table.seats.iter_mut().enumerate() {
            if s.clock
                .stand_in
                .is_some_and(|k| k != turn || !to_act.contains(&i))
            {
                s.clock.stand_in = None;
            }
        }
    }

    /// The computer stands in for `seat` on the turn it is on (a row of the log): after
    /// [`GIVEN_AFTER`] in a row, for the rest of the game.
    pub(super) fn stand_in(&mut self, seat: usize) -> Result<(), String> {
        let turn = turns::<R>().map_or(0, |t| (t.turn)(&self.rules));
        let s = (self.table.seats.get_mut(seat))
            .filter(|s| s.kind == SeatKind::Human && !s.resigned && s.clock.stand_in.is_none())
            .ok_or_else(|| format!("a time-out of seat {seat}, which is no person's in play"))?;
        s.clock.stand_in = Some(turn);
        s.clock.due = None;
        s.clock.timeouts = s.clock.timeouts.saturating_add(1);
        if s.clock.timeouts >= GIVEN_AFTER {
            s.clock.given = true;
            s.resigned = true;
        }
        self.actions += 1;
        Ok(())
    }

    /// `seat`'s time for its turn `turn` ran out: the computer plays the turn for it. `Ok(None)`
    /// when there is nothing to do (the turn was played meanwhile, the game is over).
    pub fn time_out(&self, seat: usize, turn: u64) -> Result<Option<Changed<Ruled<R>>>, ApiError> {
        let on_turn = (self.table.seats.get(seat)).and_then(|s| s.clock.due.map(|d| d.0));
        if self.is_over() || on_turn != Some(turn) || !self.rules.to_act().contains(&seat) {
            return Ok(None);
        }
        let mut next = self.clone();
        next.stand_in(seat).map_err(ApiError::Internal)?;
        let row = ActionRow {
            seat,
            action: TIMEOUT.to_owned(),
        };
        Ok(Some((next, vec![row])))
    }

    /// Sets each seat's deadline at `now`, after a change: a seat whose person is to play has
    /// one (the one it had, on the same turn; a new one on a new turn), the others none. The
    /// deadlines as stored, in a game with a clock.
    pub fn set_clocks(&mut self, now: i64) -> Option<Vec<Deadline>> {
        let control = self.table.clock?;
        let turns = turns::<R>()?;
        let playing = self.table.joining != Joining::Open && !self.is_over();
        let to_act = if playing {
            self.rules.to_act()
        } else {
            Vec::new()
        };
        let turn = (turns.turn)(&self.rules);
        let mut deadlines = Vec::new();
        for (seat, s) in self.table.seats.iter_mut().enumerate() {
            let timed = s.kind == SeatKind::Human
                && !s.resigned
                && s.clock.stand_in.is_none()
                && to_act.contains(&seat);
            s.clock.due = match s.clock.due {
                _ if !timed => None,
                Some((t, due)) if t == turn => Some((t, due)),
                _ => Some((turn, now + control.turn_ms())),
            };
            if let Some((turn, due)) = s.clock.due {
                deadlines.push(Deadline { seat, turn, due });
            }
        }
        Some(deadlines)
    }

    /// When `seat`'s time for the turn it is on runs out, if it has a clock running.
    pub fn due(&self, seat: usize) -> Option<i64> {
        self.table.seats.get(seat)?.clock.due.map(|d| d.1)
    }

    /// Puts the stored deadlines on the seats (a game read from storage).
    pub(super) fn put_deadlines(&mut self, deadlines: &[Deadline]) {
        for d in deadlines {
            if let Some(s) = self.table.seats.get_mut(d.seat) {
                s.clock.due = Some((d.turn, d.due));
            }
        }
    }

    /// Refuses an action of a seat the computer is playing for, its time having run out.
    pub(super) fn check_not_stood_in(&self, seat: usize) -> Result<(), ApiError> {
        match self.table.seats.get(seat).map(|s| s.clock) {
            Some(c) if c.given => Err(ApiError::Conflict(format!(
                "your time ran out on {GIVEN_AFTER} turns in a row: the computer plays your seat for the rest of the game"
            ))),
            Some(c) if c.stand_in.is_some() => Err(ApiError::Conflict(
                "your time for this turn ran out: the computer is playing it for you, and your next is yours again"
                    .into(),
            )),
            _ => Ok(()),
        }
    }

    /// The clock as a view shows it at `now`, in a game with one.
    pub(super) fn clock_view(&self, now: i64) -> Option<ClockView> {
        let control = self.table.clock?;
        Some(ClockView {
            control,
            per: turns::<R>().map_or("turn", |t| t.called),
            now,
            seats: (self.table.seats.iter().enumerate())
                .map(|(seat, s)| SeatClockView {
                    seat,
                    due: s.clock.due.map(|d| d.1),
                    stand_in: s.clock.stand_in.is_some(),
                    timeouts: s.clock.timeouts,
                    given: s.clock.given,
                })
                .collect(),
        })
    }
}
