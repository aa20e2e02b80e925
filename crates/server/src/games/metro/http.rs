//! `/api/metro`: Metro's own routes, beside every game's (`crate::http::games`). Each handler
//! turns a request into one call and its answer into JSON.

use ::metro::{Action, Square, Tile};
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use serde::Deserialize;

use super::{self as metro, GameView, MetroState, SeatMove, TileTable};
use crate::error::ApiError;
use crate::http::{JsonBody, Token};
use crate::play::commands::act;
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/keep", post(keep))
        .route("/games/{id}/place", post(place))
}

async fn tiles() -> Json<TileTable> {
    Json(metro::tile_table())
}

/// A seat's move.
async fn play(
    app: &AppState,
    id: &str,
    token: &str,
    m: SeatMove,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(act::<MetroState>(app, id, token, m).await?))
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<GameView>, ApiError> {
    let m = SeatMove {
        action: Action::Draw,
        tile: None,
    };
    play(&app, &id, &token, m).await
}

async fn keep(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<GameView>, ApiError> {
    let m = SeatMove {
        action: Action::Keep,
        tile: None,
    };
    play(&app, &id, &token, m).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceRequest {
    /// Row and column digits, such as `"03"`.
    square: Square,
    /// The tile the player means to place (refused with a 409 if another is to be placed).
    tile: Option<Tile>,
}

async fn place(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
    JsonBody(req): JsonBody<PlaceRequest>,
) -> Result<Json<GameView>, ApiError> {
    let m = SeatMove {
        action: Action::Place(req.square),
        tile: req.tile,
    };
    play(&app, &id, &token, m).await
}
