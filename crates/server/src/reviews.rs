//! Reviews of finished games, written once for every game: who may see one (whoever may see
//! the game's replay: `403` for an open challenge's game), `409` while the game goes on, and a
//! review computed once a game and seat on the thinking threads that play the computers' moves,
//! then kept in storage (a review is deterministic). While one request computes a seat's
//! review, others for the same seat wait for it instead of computing it too. Each game gives
//! its finished game from the stored log and its review of a seat (`games::ink::review`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::error::ApiError;
use crate::replay::corrupt;
use crate::state::AppState;
use crate::storage::StoredGame;
use crate::thinking::Priority;

/// A lock held while a game's seat's review is computed.
type Computing = Arc<tokio::sync::Mutex<()>>;

/// One lock a game and seat while its review is computed.
fn computing(id: &str, seat: usize) -> Computing {
    static LOCKS: OnceLock<Mutex<HashMap<(String, usize), Computing>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    // Locks nobody holds or waits on are forgotten.
    locks.retain(|_, lock| Arc::strong_count(lock) > 1);
    locks.entry((id.to_owned(), seat)).or_default().clone()
}

/// What a game gives to be reviewed.
pub struct Reviewer<G> {
    /// The game's kind, as stored.
    pub kind: &'static str,
    /// The finished game of a stored log (`409` while it goes on).
    pub load: fn(&StoredGame) -> Result<G, ApiError>,
    /// How many seats the game has.
    pub seats: fn(&G) -> usize,
    /// The review of a seat, as the API answers it (run on a thinking thread).
    pub review: fn(G, usize) -> Result<Value, String>,
}

/// Seat `seat`'s review of game `id`, for the holder of `token`: kept, or computed now and kept.
pub async fn serve<G: Send + 'static>(
    app: &AppState,
    id: &str,
    token: Option<&str>,
    seat: usize,
    reviewer: Reviewer<G>,
) -> Result<Value, ApiError> {
    let (game, _) = crate::replay::serve(app, id, reviewer.kind, token, reviewer.load).await?;
    let seats = (reviewer.seats)(&game);
    if seat >= seats {
        return Err(ApiError::NotFound(format!(
            "there is no seat {seat} (the game has {seats})"
        )));
    }
    let kept = |text: String| {
        serde_json::from_str::<Value>(&text).map_err(|e| corrupt(id, format!("review: {e}")))
    };
    if let Some(text) = app.storage.review(id, seat).await? {
        return kept(text);
    }
    let lock = computing(id, seat);
    let _computing = lock.lock().await;
    if let Some(text) = app.storage.review(id, seat).await? {
        return kept(text);
    }
    let _turn = app.thinking(Priority::Computer).await;
    let review = reviewer.review;
    let answer = tokio::task::spawn_blocking(move || review(game, seat))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| corrupt(id, format!("review: {e}")))?;
    app.storage.set_review(id, seat, answer.to_string()).await?;
    Ok(answer)
}
