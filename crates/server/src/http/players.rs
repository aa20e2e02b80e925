//! `/api/players`: a player is a name and a secret token, no password.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::JsonBody;
use crate::AppState;
use crate::error::ApiError;
use crate::players::{self, Profile};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players", post(create))
        .route("/api/players/{id}", get(profile))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    name: Option<String>,
}

async fn create(
    State(app): State<AppState>,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let made = players::create(&app, req.name.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

async fn profile(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Profile>, ApiError> {
    Ok(Json(players::profile(&app, &id).await?))
}
