//! `/api/pool`: "play someone now" (see [`crate::pool`]).

use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use super::limits::ClientNetwork;
use super::{JsonBody, MaybeToken};
use crate::error::ApiError;
use crate::pool::{self, JoinPool, PoolState};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/pool", get(counts))
        .route("/api/pool/{kind}", get(status).post(join).delete(leave))
}

/// `GET /api/pool`: how many wait for each game now (`{"ink": 0, "metro": 3}`).
async fn counts(State(app): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    Ok(Json(pool::counts(&app).await?))
}

/// `POST /api/pool/{kind}` with a player's token: waits to be seated (`201`, with the token of
/// the seat to come).
async fn join(
    State(app): State<AppState>,
    Path(kind): Path<String>,
    MaybeToken(token): MaybeToken,
    network: Option<Extension<ClientNetwork>>,
    JsonBody(asked): JsonBody<JoinPool>,
) -> Result<impl IntoResponse, ApiError> {
    let network = network.map(|Extension(ClientNetwork(n))| n);
    let joined = pool::join(&app, &kind, token.as_deref(), network, asked).await?;
    Ok((StatusCode::CREATED, Json(joined)))
}

/// `GET /api/pool/{kind}`: waiting still, or seated (the game and seat).
async fn status(
    State(app): State<AppState>,
    Path(kind): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<Json<PoolState>, ApiError> {
    Ok(Json(pool::status(&app, &kind, token.as_deref()).await?))
}

/// `DELETE /api/pool/{kind}`: stops waiting.
async fn leave(
    State(app): State<AppState>,
    Path(kind): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<impl IntoResponse, ApiError> {
    pool::leave(&app, &kind, token.as_deref()).await?;
    Ok(StatusCode::NO_CONTENT)
}
