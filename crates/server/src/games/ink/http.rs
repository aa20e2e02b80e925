//! `/api/ink`: Railroad Ink games over HTTP. Each handler turns a request into one call of
//! [`super`] and its answer into JSON.

use axum::Json;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use railroad_ink::{Action, Placement};
use serde::{Deserialize, Serialize};

use super::viewer::{self, InkCheck, InkView};
use super::{self as ink, InkState, TileTable};
use crate::error::{ApiError, query};
use crate::http::games::{seat_action, seat_move};
use crate::http::{JsonBody, Token};
use crate::state::AppState;

/// Railroad Ink's own routes, beside every game's (`crate::http::games`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
        .route("/expansions", get(expansions))
        .route("/check", post(check))
        .route("/view", get(view))
        .route("/games/{id}/place", seat_move::<InkState, _>(place))
        .route("/games/{id}/undo", seat_action::<InkState>(Action::Undo))
        .route(
            "/games/{id}/end-round",
            seat_action::<InkState>(Action::EndRound),
        )
        .route("/games/{id}/hint", get(hint))
}

async fn tiles() -> Json<TileTable> {
    Json(ink::tile_table())
}

async fn expansions() -> Json<ink::ExpansionTable> {
    Json(ink::expansion_table())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// A board string (`""`: the empty board).
    board: String,
    /// The placement to try on it.
    placement: Option<Placement>,
    /// The tiles whose legal squares to send, on the board after the placement.
    #[serde(default)]
    tiles: Vec<railroad_ink::Tile>,
    /// The expansion the board is played in (absent: the base game).
    #[serde(default)]
    expansion: railroad_ink::Expansion,
}

/// `POST /api/ink/check`: a placement tried on a board by the engine (the tutorial's steps).
async fn check(JsonBody(req): JsonBody<CheckRequest>) -> Result<Json<InkCheck>, ApiError> {
    Ok(Json(viewer::check(
        &req.board,
        req.expansion,
        req.placement,
        &req.tiles,
    )?))
}

#[derive(Debug, Deserialize)]
struct ViewQuery {
    board: Option<String>,
    /// `lake` or `river` (absent or `none`: the base game).
    expansion: Option<railroad_ink::Expansion>,
}

/// `GET /api/ink/view`: the board viewer. The answer is `200` for any board string (a
/// malformed or illegal one is described, not refused); only a missing, too long or
/// out-of-range parameter is a `400`.
async fn view(q: Result<Query<ViewQuery>, QueryRejection>) -> Result<Json<InkView>, ApiError> {
    let q = query(q)?;
    let board = q.board.ok_or_else(|| {
        ApiError::BadRequest("give the board string as ?board=… (empty for the empty board)".into())
    })?;
    crate::viewer::check_length(&board)?;
    Ok(Json(viewer::view(&board, q.expansion.unwrap_or_default())))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceRequest {
    placement: Placement,
}

fn place(req: PlaceRequest) -> Action {
    Action::Place {
        placement: req.placement,
    }
}

#[derive(Debug, Serialize)]
struct Hint {
    placements: Vec<Placement>,
}

async fn hint(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<Hint>, ApiError> {
    let placements = ink::hint(&app, &id, &token).await?;
    Ok(Json(Hint { placements }))
}
