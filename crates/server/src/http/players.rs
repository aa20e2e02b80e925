//! `/api/players`: a player is a name and a secret token, no password.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::{JsonBody, Token};
use crate::error::ApiError;
use crate::players::{self, Profile};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players", post(create))
        .route("/api/players/me", get(me))
        .route("/api/players/me/key", post(new_key))
        .route("/api/players/me/games", get(your_games))
        .route("/api/players/{id}", get(profile))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    name: Option<String>,
}

async fn create(
    State(app): State<AppState>,
    headers: axum::http::HeaderMap,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let made = players::create(&app, req.name.as_deref(), super::identity::label(&headers)).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `GET /api/players/me`: the profile of the token's player (to check a key carried to
/// another device); 401 without a token, 403 for a token of nobody's.
async fn me(State(app): State<AppState>, Token(token): Token) -> Result<Json<Profile>, ApiError> {
    let player = crate::challenges::authenticate(&app, Some(&token)).await?;
    Ok(Json(players::profile(&app, &player.id, true).await?))
}

/// `GET /api/players/me/games`: the games waiting for the token's player, and for others.
async fn your_games(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<Json<players::YourGames>, ApiError> {
    Ok(Json(players::your_games(&app, &token).await?))
}

/// `POST /api/players/me/key`: a new key for the token's player (answered as `POST
/// /api/players` is, the new key shown this once); the old one opens nothing from then on.
async fn new_key(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<Json<players::Made>, ApiError> {
    Ok(Json(players::new_key(&app, &token).await?))
}

async fn profile(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    Ok(Json(players::profile(&app, &id, false).await?))
}
