//! `GET /api/ink/games/{id}/review?seat=k`: the computer's review of a finished game's seat,
//! round by round (`railroad_ink::ai::review`), served as every game's review is
//! ([`crate::reviews`]).

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
use crate::reviews::{Reviewer, serve};
use crate::state::AppState;
use crate::storage::StoredGame;

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

/// A seat's review at the review's default budget, as the API answers it.
fn review_of(game: Game, seat: usize) -> Result<Value, String> {
    let review = review_seat(&game, seat, None).map_err(|e| e.to_string())?;
    serde_json::to_value(SeatReview {
        seat,
        review: &review,
    })
    .map_err(|e| e.to_string())
}

pub(super) async fn review(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    q: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let seat = query(q)?.seat.unwrap_or(0);
    let reviewer = Reviewer {
        kind: "ink",
        load: finished_game,
        seats: |game: &Game| game.players().len(),
        review: review_of,
    };
    Ok(Json(
        serve(&app, &id, token.as_deref(), seat, reviewer).await?,
    ))
}
