//! A Metro game's replay, action by action, and how it ended.

use serde::Serialize;
use serde_json::{Value, json};

use super::viewer::begun;
use crate::replay::SeatResult;

/// One action of a Metro game, and what it changed.
#[derive(Debug, Clone, Serialize)]
pub struct MetroStep {
    /// The seat that acted.
    pub seat: usize,
    /// What happened, as the engine tells it: `drew` (with the `tile`), `kept`, `placed`
    /// (with the `placement`), `passed`; the game's last placement also ends it.
    pub events: Vec<metro::Event>,
    /// After a placement: every player's score, and the lines that have begun (as in the
    /// viewer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<super::LineView>>,
    /// The tile each seat holds after the action.
    pub hands: Vec<Option<metro::Tile>>,
}

/// One step of a replay: what `seat`'s action changed from the game `before` to the game
/// `after` (the events, and after a placement every score and the lines begun).
pub fn step(before: &metro::Game, after: &metro::Game, seat: usize, _: &super::SeatMove) -> Value {
    let events = (after.events().get(before.events().len()..))
        .unwrap_or_default()
        .to_vec();
    let placed = (events.iter()).any(|e| matches!(e, metro::Event::Placed { .. }));
    let score = placed.then(|| after.score());
    to_value(MetroStep {
        seat,
        events,
        lines: score.as_ref().map(|s| begun(after.board(), s)),
        scores: score.map(|s| s.totals),
        hands: after.players().players().map(|p| after.hand(p)).collect(),
    })
}

/// What a replay adds at the end: each player's final score, seat 0 first.
pub fn end(game: &metro::Game) -> Value {
    json!({ "scores": game.scores() })
}

fn to_value(step: MetroStep) -> Value {
    serde_json::to_value(step).unwrap_or_else(|e| json!({ "error": e.to_string() }))
}

/// Each seat's result once the game is over: its score, and as its tie break its margin over
/// the best other seat.
pub fn results(game: &metro::Game) -> Option<Vec<SeatResult>> {
    if !game.is_over() {
        return None;
    }
    let totals = game.scores();
    let results = (0..totals.len())
        .map(|seat| {
            let score = i64::from(totals[seat]);
            let best_other = (0..totals.len())
                .filter(|&o| o != seat)
                .map(|o| i64::from(totals[o]))
                .max()
                .unwrap_or(0);
            SeatResult {
                seat,
                score,
                k2: score - best_other,
            }
        })
        .collect();
    Some(results)
}
