//! The computer's review of a finished Railroad Ink game's seat, round by round
//! (`railroad_ink::ai::review`), served by [`crate::review`].

use railroad_ink::Game;
use railroad_ink::ai::review::review_seat;
use serde_json::Value;

use super::replay::{InkLog, ink_log_full};
use crate::error::ApiError;
use crate::replay::corrupt;
use crate::review::not_over;
use store::StoredGame;

/// `seat`'s review: `{"rounds": […], "loss": …, "score": …}`, of the base game or of an
/// expansion's (its six rounds, its dice, its rules and the strong player's evaluation of it).
pub(super) fn review(stored: &StoredGame, seat: usize) -> Result<Value, ApiError> {
    let InkLog {
        setup,
        expansion,
        actions,
        ..
    } = ink_log_full(stored)?;
    let game = Game::replay_with_expansion(setup, expansion, &actions)
        .map_err(|(i, e)| corrupt(&stored.id, format!("action {i} does not replay: {e}")))?;
    if !game.is_finished() {
        return Err(not_over());
    }
    let reviewed =
        review_seat(&game, seat, None).map_err(|e| corrupt(&stored.id, format!("review: {e}")))?;
    serde_json::to_value(reviewed).map_err(|e| ApiError::Internal(e.to_string()))
}
