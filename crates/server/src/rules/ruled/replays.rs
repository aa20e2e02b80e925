//! A finished game of rules, step by step: what its replay shows.

use serde::Serialize;
use serde_json::{Value, json};

use super::Ruled;
use crate::error::ApiError;
use crate::game::GameState;
use crate::replay::{ReplayHeader, ReplaySeat, not_over};
use crate::rules::Rules;
use store::StoredGame;

/// `GET /api/{kind}/games/{id}/replay`: a finished game, step by step (see
/// [`super::Replay`]).
#[derive(Debug, Serialize)]
pub struct RuledReplay {
    #[serde(flatten)]
    pub header: ReplayHeader,
    /// Each seat (see [`ReplaySeat`]), with what the game adds to it.
    pub players: Vec<Value>,
    /// The seats with the best score; equal scores share the win.
    pub winners: Vec<usize>,
    pub steps: Vec<Value>,
    /// What the game adds at the end (each seat's result, unless it says).
    #[serde(flatten)]
    pub end: Value,
}

impl<R: Rules> Ruled<R> {
    /// A finished game, step by step (see [`RuledReplay`]).
    pub(super) fn replay_of(stored: &StoredGame) -> Result<RuledReplay, ApiError> {
        let replay = const { &R::CAPABILITIES.replay };
        let mut steps = Vec::with_capacity(stored.actions.len());
        let game = Self::replayed(stored.clone(), |before, after, seat, action, stood_in| {
            let mut step = match replay {
                Some(r) => (r.step)(before, after, seat, action),
                None => json!({ "seat": seat, "action": action }),
            };
            // The computer played it for the seat's person (who resigned, or ran out of time).
            if let (true, Value::Object(step)) = (stood_in, &mut step) {
                step.insert("stand_in".into(), true.into());
            }
            steps.push(step);
        })?;
        let results = game.rules.results().ok_or_else(not_over)?;
        let end = match replay {
            Some(r) => (r.end)(&game.rules),
            None => json!({ "results": crate::replay::game_result(
                &game.table.names(), &results, Vec::new(), Self::TIE_BREAK).players }),
        };
        let players = (stored.seats.iter())
            .map(|row| {
                let mut seat = serde_json::to_value(ReplaySeat::from(row)).unwrap_or_default();
                if let (Some(add), Value::Object(seat)) =
                    (replay.as_ref().and_then(|r| r.seat), &mut seat)
                    && let Value::Object(more) = add(&game.rules, row.seat)
                {
                    seat.extend(more);
                }
                // How many of its turns ran out, and whether the computer took it over.
                let clock = game.table.seats.get(row.seat).map(|s| s.clock);
                if let (Some(c), Value::Object(seat)) = (clock, &mut seat)
                    && c.timeouts > 0
                {
                    seat.insert("timeouts".into(), c.timeouts.into());
                    seat.insert("given".into(), c.given.into());
                }
                seat
            })
            .collect();
        Ok(RuledReplay {
            header: ReplayHeader::of(stored, R::KIND, Some(game.seed)),
            players,
            winners: game.winners(&results),
            steps,
            end,
        })
    }
}
