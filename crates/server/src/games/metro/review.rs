//! The computer's review of a finished Metro game's seat, decision by decision
//! (`metro::ai::review`), served by [`crate::review`].

use metro::ai::review::{Decision, Reason, ReviewConfig, review as review_seat};
use metro::{Action, Player, Tile};
use review_scale::{Label, hundredths};
use serde::Serialize;
use serde_json::Value;

use crate::error::ApiError;

/// One decision as the answer says it (values in points of expected final margin over the
/// best other player, to the hundredth: the margin the seat's game would end with if the strong
/// computer player played on for every seat from there).
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
    reason: ReasonView,
}

/// Why the best move is better, in words with the players' names.
#[derive(Serialize)]
struct ReasonView {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    points: Option<u32>,
    text: String,
}

impl ReasonView {
    fn of(reason: &Reason, names: &[&str]) -> ReasonView {
        let name =
            |p: Player| (names.get(p.index())).map_or_else(|| p.to_string(), |n| (*n).to_owned());
        ReasonView {
            kind: reason.kind.as_str(),
            points: reason.points,
            text: reason.text(&name),
        }
    }
}

#[derive(Serialize)]
struct ReviewView {
    decisions: Vec<DecisionView>,
    loss: f64,
    /// The seat's final score, and its margin over the best other player.
    score: u32,
    margin: i64,
}

impl DecisionView {
    fn of(d: &Decision, names: &[&str]) -> DecisionView {
        let loss = hundredths(d.loss);
        DecisionView {
            index: d.index,
            placed: d.placed,
            hand: d.hand,
            drawn: d.drawn,
            played: d.played,
            best: d.best,
            value_played: hundredths(d.value_played),
            value_best: hundredths(d.value_best),
            loss,
            label: Label::of(loss).as_str(),
            reason: ReasonView::of(&d.reason, names),
        }
    }
}

/// `seat`'s review of the finished `game` (`names[i]` is seat `i`'s name):
/// `{"decisions": […], "loss": …, "score": …, "margin": …}`.
pub(super) fn review(game: &metro::Game, names: &[&str], seat: usize) -> Result<Value, ApiError> {
    let player = Player::from_index(seat)
        .ok_or_else(|| ApiError::NotFound(format!("there is no seat {seat}")))?;
    let reviewed = review_seat(game, player, ReviewConfig::default())
        .map_err(|e| ApiError::Internal(format!("review: {e}")))?;
    let decisions: Vec<DecisionView> = (reviewed.decisions.iter())
        .map(|d| DecisionView::of(d, names))
        .collect();
    serde_json::to_value(ReviewView {
        loss: hundredths(decisions.iter().map(|d| d.loss).sum()),
        decisions,
        score: reviewed.score,
        margin: reviewed.margin,
    })
    .map_err(|e| ApiError::Internal(e.to_string()))
}
