//! A game of rules with a clock: each seat's deadline for the turn it is on, the computer
//! standing in for a seat whose time ran out, and the seat given to the computer after two
//! such turns in a row (see [`crate::deadlines`]).

use serde::Serialize;

use super::{Ruled, TIMEOUT, computer};
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
        // None before the game starts, nor once it is over.
        let to_act = GameState::to_act(self);
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

#[cfg(test)]
mod tests {
    use super::*;
    use store::{SeatRow, StoredGame};

    type Metro = Ruled<metro::Game>;

    /// A Metro game of Ann and Bob with a 30 s clock, as stored with these log rows.
    fn stored(actions: Vec<ActionRow>) -> StoredGame {
        let setup = serde_json::json!({
            "seed": 3,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "clock": {"live": 30},
        });
        StoredGame {
            id: "0123456789abcdef01234567".into(),
            kind: "metro".into(),
            mode: "seats".into(),
            setup: setup.to_string(),
            created: 0,
            seats: (0..2)
                .map(|seat| SeatRow {
                    seat,
                    name: ["Ann", "Bob"][seat].into(),
                    kind: SeatKind::Human,
                    agent: None,
                    token_hash: Some(format!("{seat:064}")),
                    player: None,
                })
                .collect(),
            actions,
            challenge: None,
            rematch: None,
            shown: None,
            deadlines: Vec::new(),
        }
    }

    /// `seat` plays its own turn (a person: the actions a computer would choose, sent one by one).
    fn person_turn(g: &Metro, seat: usize, rows: &mut Vec<ActionRow>) -> Metro {
        let choose = metro::Game::CAPABILITIES.computer.as_ref().unwrap().choose;
        let mut g = g.clone();
        while GameState::to_act(&g).contains(&seat) {
            for action in choose(&g.rules, seat, "random", 1) {
                let (next, done) = GameState::act(&g, seat, action).unwrap();
                rows.extend(done);
                g = next;
            }
        }
        g
    }

    /// The computer plays the turn it stands in for (each of its actions a thought).
    fn computer_turn(g: &Metro, rows: &mut Vec<ActionRow>) -> Metro {
        let mut g = g.clone();
        assert!(g.computer_thought().is_some(), "the computer stands in");
        while let Some(thought) = g.computer_thought() {
            let decision = Metro::think(&thought);
            let (next, done) = g.computer_moves("test", &thought, decision).unwrap();
            rows.extend(done);
            g = next;
        }
        g
    }

    #[test]
    fn a_turn_run_out_is_the_computers_and_two_in_a_row_the_seats() {
        let mut rows = Vec::new();
        let mut g = Metro::from_stored(stored(Vec::new())).unwrap();
        // Only the seat to play has a clock, from the change that made it its turn.
        assert_eq!(
            g.set_clocks(1_000).unwrap(),
            [Deadline {
                seat: 0,
                turn: 0,
                due: 31_000
            }]
        );
        assert_eq!(
            g.set_clocks(5_000).unwrap()[0].due,
            31_000,
            "the same turn keeps its deadline"
        );
        // A deadline of another turn, or of a seat not to play, does nothing.
        assert!(g.time_out(0, 7).unwrap().is_none());
        assert!(g.time_out(1, 0).unwrap().is_none());

        let (mut g, done) = g.time_out(0, 0).unwrap().unwrap();
        assert_eq!(done[0].action, TIMEOUT);
        rows.extend(done);
        let refused = GameState::act(&g, 0, serde_json::from_str(r#"{"action":"draw"}"#).unwrap());
        assert!(
            matches!(&refused, Err(ApiError::Conflict(m)) if m.contains("ran out")),
            "{refused:?}"
        );
        assert_eq!(
            g.set_clocks(32_000).unwrap(),
            [],
            "no clock while the computer plays the turn"
        );
        g = computer_turn(&g, &mut rows);
        assert_eq!(
            g.table.seats[0].clock.stand_in, None,
            "the stand-in ends with the turn"
        );
        let d = g.set_clocks(33_000).unwrap();
        assert_eq!((d.len(), d[0].seat, d[0].due), (1, 1, 63_000));

        // Bob plays his turn; Ann's time runs out again: her seat is the computer's.
        g = person_turn(&g, 1, &mut rows);
        let d = g.set_clocks(40_000).unwrap();
        assert_eq!(d[0].seat, 0);
        let (g2, done) = g.time_out(0, d[0].turn).unwrap().unwrap();
        rows.extend(done);
        let c = g2.table.seats[0].clock;
        assert!(
            c.given && c.timeouts == 2 && g2.table.seats[0].resigned,
            "{c:?}"
        );
        assert!(g2.check_not_stood_in(0).is_err());
        // Bob's run of time-outs never began: a turn he played himself.
        assert_eq!(g2.table.seats[1].clock.timeouts, 0);

        // The log replays to the same seats' clocks.
        let replayed = Metro::from_stored(stored(rows)).unwrap();
        assert_eq!(replayed.table.seats[0].clock, g2.table.seats[0].clock);
        assert_eq!(replayed.actions(), g2.actions());
    }

    #[test]
    fn a_person_who_plays_ends_the_run() {
        let mut rows = Vec::new();
        let mut g = Metro::from_stored(stored(Vec::new())).unwrap();
        g.set_clocks(0);
        let (mut g, done) = g.time_out(0, 0).unwrap().unwrap();
        rows.extend(done);
        g = computer_turn(&g, &mut rows);
        g = person_turn(&g, 1, &mut rows);
        g.set_clocks(1);
        g = person_turn(&g, 0, &mut rows);
        assert_eq!(
            g.table.seats[0].clock.timeouts, 0,
            "Ann played a turn herself"
        );
        assert!(!g.table.seats[0].clock.given);
    }
}
