//! The computer's review of a finished Metro game's seat, decision by decision
//! (`metro::ai::review`), served by [`crate::review`].

use metro::ai::review::{Decision, ReviewConfig, review as review_seat};
use metro::{Action, Player, Tile};
use serde::Serialize;
use serde_json::Value;

use super::replay::metro_game;
use crate::error::ApiError;
use crate::replay::corrupt;
use crate::review::not_over;
use crate::storage::StoredGame;

/// One decision as the answer says it (values in points of expected final margin over the
/// best other player, to the hundredth).
#[derive(Serialize)]
struct DecisionView {
    /// The action's index in the game's log (the replay's step `index + 1` follows it).
    index: usize,
    /// Tiles on the board then.
    placed: usize,
    /// The tile in hand then, and the tile just drawn.
    hand: Option<Tile>,
    drawn: Option<Tile>,
    played: Action,
    best: Action,
    value_played: f64,
    value_best: f64,
    loss: f64,
    label: &'static str,
}

#[derive(Serialize)]
struct ReviewView {
    decisions: Vec<DecisionView>,
    loss: f64,
}

fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl From<&Decision> for DecisionView {
    fn from(d: &Decision) -> DecisionView {
        DecisionView {
            index: d.index,
            placed: d.placed,
            hand: d.hand,
            drawn: d.drawn,
            played: d.played,
            best: d.best,
            value_played: hundredths(d.value_played),
            value_best: hundredths(d.value_best),
            loss: hundredths(d.loss),
            label: d.label.as_str(),
        }
    }
}

/// `seat`'s review: `{"decisions": […], "loss": …}`.
pub(super) fn review(stored: &StoredGame, seat: usize) -> Result<Value, ApiError> {
    let game = metro_game(stored, |_, _, _| {})?;
    if !game.is_over() {
        return Err(not_over());
    }
    let player = Player::from_index(seat)
        .ok_or_else(|| ApiError::NotFound(format!("there is no seat {seat}")))?;
    let reviewed = review_seat(&game, player, ReviewConfig::default())
        .map_err(|e| corrupt(&stored.id, format!("review: {e}")))?;
    let decisions: Vec<DecisionView> = reviewed.decisions.iter().map(DecisionView::from).collect();
    serde_json::to_value(ReviewView {
        loss: hundredths(decisions.iter().map(|d| d.loss).sum()),
        decisions,
    })
    .map_err(|e| ApiError::Internal(e.to_string()))
}
