//! `GET /api/{game}/games/{id}/review?seat=k`: the computer's review of a finished game's seat,
//! written once for every game; each game reviews a seat of its own ([`GameState::review`]).
//!
//! Seen by whoever may see the game's replay (an open challenge's games stay hidden: `403`);
//! `409` while the game goes on. A review is deterministic, so it is computed once a game and
//! seat and kept in storage, which answers every later request (nothing is replayed then); while
//! one request computes it, others for the same seat wait for it instead of computing it too.
//! It is computed on the thinking threads, in a queue of its own after every hint and computer
//! move (see [`crate::thinking`]), and the request holds no admission place while it waits.
//!
//! Every answer, kept or new, is labelled on the one scale of every game's review
//! ([`review_scale::Label`], by each step's `loss`): a review kept before the scale was one (a
//! Metro decision lost 10.0 labelled a mistake) is told on today's. Reviews kept before reasons
//! were given are served as they were kept, without `reason` and `score`: the page says so.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{ApiError, query};
use crate::game::GameState;
use crate::replay::corrupt;
use crate::state::AppState;
use store::StoredGame;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewQuery {
    seat: Option<usize>,
}

/// The `409` of a game that goes on.
pub fn not_over() -> ApiError {
    ApiError::Conflict("the game is not over yet: its review opens when it ends".into())
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

/// Who may see the game, and whether it is over, are as for its replay; the stored game then.
fn finished<St: GameState>(stored: &StoredGame) -> Result<StoredGame, ApiError> {
    St::replay(stored).map_err(|e| match e {
        ApiError::Conflict(_) => not_over(),
        e => e,
    })?;
    Ok(stored.clone())
}

/// The review of the asked seat of game `id` (seat 0 when none is asked): the one kept, or
/// one computed now and kept.
pub async fn serve<St: GameState>(
    app: &AppState,
    id: &str,
    token: Option<&str>,
    q: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let seat = query(q)?.seat.unwrap_or(0);
    if !crate::ids::is_game_id(id) {
        return Err(ApiError::game_not_found());
    }
    // Who may read it from the game's head alone: a crowd of requests for reviews costs a few
    // small reads each, never a replay.
    let head = app
        .storage
        .game_head(id)
        .await?
        .filter(|h| h.kind == St::KIND)
        .ok_or_else(ApiError::game_not_found)?;
    crate::replay::may_read(
        app,
        id,
        &head.seats,
        head.challenge.as_ref(),
        head.shown,
        token,
    )
    .await?;
    let seats = head.seats.len();
    if seat >= seats {
        return Err(ApiError::NotFound(format!(
            "there is no seat {seat} (the game has {seats})"
        )));
    }
    let raw = |text: String| {
        serde_json::from_str::<Value>(&text)
            .map(relabelled)
            .map_err(|e| corrupt(id, format!("review: {e}")))
    };
    if let Some(kept) = app.storage.review(id, seat).await? {
        return Ok(Json(raw(kept)?));
    }
    // One request computes a seat's review; the others wait for it here, holding no place.
    crate::place::step_aside();
    let lock = computing(id, seat);
    let _computing = lock.lock().await;
    if let Some(kept) = app.storage.review(id, seat).await? {
        return Ok(Json(raw(kept)?));
    }
    let stored = app.stored_game(id).await?;
    // Whether it is over, from its replay (CPU, but a small part of a review's).
    let stored = tokio::task::spawn_blocking(move || finished::<St>(&stored))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let _turn = app.thinking_for_a_review().await?;
    let reviewed = tokio::task::spawn_blocking(move || St::review(&stored, seat))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    let Value::Object(mut answer) = reviewed else {
        return Err(ApiError::Internal("a review is an object".into()));
    };
    answer.insert("seat".into(), Value::from(seat));
    let answer = Value::Object(answer);
    app.storage.set_review(id, seat, answer.to_string()).await?;
    Ok(Json(relabelled(answer)))
}

/// A review's steps (`rounds` of Railroad Ink, `decisions` of Metro) labelled on the one scale
/// by their `loss`; anything else is left as it is.
pub fn relabelled(mut review: Value) -> Value {
    for steps in ["rounds", "decisions"] {
        let Some(Value::Array(steps)) = review.get_mut(steps) else {
            continue;
        };
        for step in steps.iter_mut() {
            let Some(loss) = step.get("loss").and_then(Value::as_f64) else {
                continue;
            };
            if let Value::Object(step) = step {
                step.insert(
                    "label".into(),
                    Value::from(review_scale::Label::of(loss).as_str()),
                );
            }
        }
    }
    review
}
