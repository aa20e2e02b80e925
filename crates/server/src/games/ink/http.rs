//! `/api/ink`: Railroad Ink games over HTTP. Each handler turns a request into one call of
//! [`super`] and its answer into JSON.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use railroad_ink::{Action, Placement};
use serde::{Deserialize, Serialize};

use super::{self as ink, GameView, InkState, TileTable};
use crate::error::ApiError;
use crate::http::games::{seat_action, seat_move};
use crate::http::{JsonBody, Token};
use crate::state::AppState;
use crate::viewer::InkCheck;

/// Railroad Ink's own routes, beside every game's (`crate::http::games`).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
        .route("/expansions", get(expansions))
        .route("/check", post(check))
        .route("/games/{id}/start", post(start))
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
    Ok(Json(crate::viewer::ink_check(
        &req.board,
        req.expansion,
        req.placement,
        &req.tiles,
    )?))
}

/// `POST /api/ink/games/{id}/start`: the creator starts an online game waiting in its lobby.
async fn start(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(ink::start(&app, &id, &token).await?))
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
