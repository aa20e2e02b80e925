//! A Railroad Ink game's replay, action by action (the runtime replays the log: see
//! [`crate::rules::Replay`]).

use railroad_ink::score::Breakdown;
use railroad_ink::{Action, Square};
use serde::Serialize;
use serde_json::{Value, json};

use super::{Ink, flooded, is_base};

/// One action of a Railroad Ink game, and what it changed.
#[derive(Debug, Clone, Serialize)]
pub struct InkStep {
    /// The seat that acted.
    pub seat: usize,
    pub action: Action,
    /// The round after the action (0–6; 7 once the game is over).
    pub round: usize,
    /// The acting seat's board string after the action, when it changed (place, undo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// That board scored, with its whole breakdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<Breakdown>,
    /// That board's flooded squares (rule E3.3), when it changed and has some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flooded: Option<Vec<Square>>,
}

/// What `seat`'s `action` changed: the round after it and, when its board changed (a place,
/// an undo), the board, scored, and its flooded squares.
pub fn step(_: &Ink, after: &Ink, seat: usize, action: &Action) -> Value {
    let changed = matches!(action, Action::Place { .. } | Action::Undo);
    let board = (after.game.player(seat).ok())
        .map(|p| *p.board())
        .filter(|_| changed);
    to_value(&InkStep {
        seat,
        action: *action,
        round: after.game.round(),
        board: board.map(|b| b.to_string()),
        breakdown: board.map(|b| b.breakdown()),
        flooded: board.map(|b| flooded(&b)).filter(|f| !f.is_empty()),
    })
}

/// What the replay adds at the end: the Deep Blue expansion (absent in a base game) and the
/// rolls, round by round (seven, or six with an expansion).
pub fn end(ink: &Ink) -> Value {
    let game = &ink.game;
    let mut end = json!({ "rolls": game.rolls_so_far() });
    if !is_base(&game.expansion()) {
        end["expansion"] = json!(game.expansion());
    }
    end
}

/// What a seat adds: the step from which it is in the game (a player who joined an online game
/// mid-way starts there, on an empty board; 0 for the seats it began with), and its score.
pub fn seat(ink: &Ink, seat: usize) -> Value {
    let game = &ink.game;
    let from_step = (game.actions().iter())
        .position(|&a| a == (seat, Action::Join))
        .map_or(0, |i| i + 1);
    json!({
        "from_step": from_step,
        "score": game.scores().get(seat),
    })
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| json!({ "error": e.to_string() }))
}
