//! `GET /api/ink/games/{id}/review?seat=k`: the computer's review of a finished game's seat,
//! round by round (`railroad_ink::ai::review`).
//!
//! Seen by whoever may see the game's replay (an open challenge's games stay hidden: `403`);
//! `409` while the game goes on. A review is deterministic, so it is computed once a game and
//! seat, on the thinking threads that play the computers' moves, and kept in storage; while
//! one request computes it, others for the same seat wait for it instead of computing it too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use railroad_ink::Game;
use railroad_ink::ai::review::{Review, review_seat};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::replay::ink_log;
use crate::error::ApiError;
use crate::http::MaybeToken;
use crate::http::viewer::query;
use crate::replay::corrupt;
use crate::state::AppState;
use crate::storage::StoredGame;
use crate::thinking::Priority;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReviewQuery {
    seat: Option<usize>,
}

/// The answer: the seat and its review.
#[derive(Debug, Serialize)]
struct SeatReview<'a> {
    seat: usize,
    #[serde(flatten)]
    review: &'a Review,
}

/// The finished game of a stored log (`409` while it goes on).
fn finished_game(stored: &StoredGame) -> Result<Game, ApiError> {
    let (setup, actions) = ink_log(stored)?;
    let game = Game::replay(setup, &actions)
        .map_err(|(i, e)| corrupt(&stored.id, format!("action {i} does not replay: {e}")))?;
    if !game.is_finished() {
        return Err(ApiError::Conflict(
            "the game is not over yet: its review opens when it ends".into(),
        ));
    }
    Ok(game)
}

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

pub(super) async fn review(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    q: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let seat = query(q)?.seat.unwrap_or(0);
    let (game, _) = crate::replay::serve(&app, &id, "ink", token.as_deref(), finished_game).await?;
    if seat >= game.players().len() {
        return Err(ApiError::NotFound(format!(
            "there is no seat {seat} (the game has {})",
            game.players().len()
        )));
    }
    let raw = |text: String| {
        serde_json::from_str::<Value>(&text).map_err(|e| corrupt(&id, format!("review: {e}")))
    };
    if let Some(kept) = app.storage.review(&id, seat).await? {
        return Ok(Json(raw(kept)?));
    }
    let lock = computing(&id, seat);
    let _computing = lock.lock().await;
    if let Some(kept) = app.storage.review(&id, seat).await? {
        return Ok(Json(raw(kept)?));
    }
    let _turn = app.thinking(Priority::Computer).await;
    let reviewed = tokio::task::spawn_blocking(move || review_seat(&game, seat, None))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| corrupt(&id, format!("review: {e}")))?;
    let answer = serde_json::to_value(SeatReview {
        seat,
        review: &reviewed,
    })
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    app.storage
        .set_review(&id, seat, answer.to_string())
        .await?;
    Ok(Json(answer))
}
