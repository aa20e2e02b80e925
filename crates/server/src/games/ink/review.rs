//! The computer's review of a finished Railroad Ink game's seat, round by round
//! (`railroad_ink::ai::review`), served by [`crate::review`].

use railroad_ink::Game;
use railroad_ink::ai::review::review_seat;
use serde_json::Value;

use super::replay::ink_log;
use crate::error::ApiError;
use crate::replay::corrupt;
use crate::review::not_over;
use crate::storage::StoredGame;

/// `seat`'s review: `{"rounds": […], "loss": …}`.
pub(super) fn review(stored: &StoredGame, seat: usize) -> Result<Value, ApiError> {
    let (setup, actions) = ink_log(stored)?;
    let game = Game::replay(setup, &actions)
        .map_err(|(i, e)| corrupt(&stored.id, format!("action {i} does not replay: {e}")))?;
    if !game.is_finished() {
        return Err(not_over());
    }
    let reviewed =
        review_seat(&game, seat, None).map_err(|e| corrupt(&stored.id, format!("review: {e}")))?;
    serde_json::to_value(reviewed).map_err(|e| ApiError::Internal(e.to_string()))
}
