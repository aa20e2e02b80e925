//! The computer's review of a finished Railroad Ink game's seat, round by round
//! (`railroad_ink::ai::review`), served by [`crate::review`].

use railroad_ink::ai::review::review_seat;
use serde_json::Value;

use super::Ink;
use crate::error::ApiError;

/// `seat`'s review: `{"rounds": […], "loss": …, "score": …}`, of the base game or of an
/// expansion's (its six rounds, its dice, its rules and the strong player's evaluation of it).
pub(super) fn review(ink: &Ink, _names: &[&str], seat: usize) -> Result<Value, ApiError> {
    let reviewed = review_seat(&ink.game, seat, None)
        .map_err(|e| ApiError::Internal(format!("review: {e}")))?;
    serde_json::to_value(reviewed).map_err(|e| ApiError::Internal(e.to_string()))
}
