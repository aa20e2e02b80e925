//! `GET /api/ink/view` and `GET /api/metro/view`: the board viewer. The answer is `200` for
//! any text (a malformed or illegal one is described, not refused); only a missing, too long
//! or out-of-range parameter is a `400`.

use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::routing::get;
use serde::Deserialize;

use crate::error::ApiError;
use crate::state::AppState;
use crate::viewer::{self, InkView, MetroView};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/ink/view", get(ink_view))
        .route("/api/metro/view", get(metro_view))
}

/// A query string, with its rejection as a JSON `400`.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

#[derive(Debug, Deserialize)]
struct InkQuery {
    board: Option<String>,
    /// `lake` or `river` (absent or `none`: the base game).
    expansion: Option<railroad_ink::Expansion>,
}

async fn ink_view(q: Result<Query<InkQuery>, QueryRejection>) -> Result<Json<InkView>, ApiError> {
    let q = query(q)?;
    let board = q.board.ok_or_else(|| {
        ApiError::BadRequest("give the board string as ?board=… (empty for the empty board)".into())
    })?;
    viewer::check_length(&board)?;
    Ok(Json(viewer::ink_in(
        &board,
        q.expansion.unwrap_or_default(),
    )))
}

#[derive(Debug, Deserialize)]
struct MetroQuery {
    players: Option<String>,
    sequence: Option<String>,
}

async fn metro_view(
    q: Result<Query<MetroQuery>, QueryRejection>,
) -> Result<Json<MetroView>, ApiError> {
    let q = query(q)?;
    let players: metro::PlayerCount = q
        .players
        .as_deref()
        .ok_or_else(|| ApiError::BadRequest("give the number of players as ?players=2…6".into()))?
        .parse()
        .map_err(|e: metro::PlayerCountError| ApiError::BadRequest(e.to_string()))?;
    let sequence = q.sequence.ok_or_else(|| {
        ApiError::BadRequest(
            "give the placement sequence as ?sequence=… (empty for the empty board)".into(),
        )
    })?;
    viewer::check_length(&sequence)?;
    Ok(Json(viewer::metro(&sequence, players)))
}
