//! `/api/metro`: Metro's own routes, beside every game's (`crate::http::games`). Each handler
//! turns a request into one call and its answer into JSON.

use ::metro::{Action, Square, Tile};
use axum::Json;
use axum::Router;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::routing::get;
use serde::Deserialize;

use super::viewer::{self, MetroView};
use super::{self as metro, SeatMove, TileTable};
use crate::error::{ApiError, query};
use crate::http::games::{seat_action, seat_move};
use crate::rules::Ruled;
use crate::state::AppState;

/// A game of Metro at the runtime's table.
type MetroState = Ruled<::metro::Game>;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
        .route("/view", get(view))
        .route(
            "/games/{id}/draw",
            seat_action::<MetroState>(fixed(Action::Draw)),
        )
        .route(
            "/games/{id}/keep",
            seat_action::<MetroState>(fixed(Action::Keep)),
        )
        .route("/games/{id}/place", seat_move::<MetroState, _>(place))
}

async fn tiles() -> Json<TileTable> {
    Json(metro::tile_table())
}

/// A move that names no tile.
fn fixed(action: Action) -> SeatMove {
    SeatMove { action, tile: None }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceRequest {
    /// Row and column digits, such as `"03"`.
    square: Square,
    /// The tile the player means to place (refused with a 409 if another is to be placed).
    tile: Option<Tile>,
}

fn place(req: PlaceRequest) -> SeatMove {
    SeatMove {
        action: Action::Place(req.square),
        tile: req.tile,
    }
}

#[derive(Debug, Deserialize)]
struct ViewQuery {
    players: Option<String>,
    sequence: Option<String>,
}

/// `GET /api/metro/view`: the board viewer. The answer is `200` for any sequence (a malformed
/// or illegal one is described, not refused); only a missing, too long or out-of-range
/// parameter is a `400`.
async fn view(q: Result<Query<ViewQuery>, QueryRejection>) -> Result<Json<MetroView>, ApiError> {
    let q = query(q)?;
    let players: ::metro::PlayerCount = q
        .players
        .as_deref()
        .ok_or_else(|| ApiError::BadRequest("give the number of players as ?players=2…6".into()))?
        .parse()
        .map_err(|e: ::metro::PlayerCountError| ApiError::BadRequest(e.to_string()))?;
    let sequence = q.sequence.ok_or_else(|| {
        ApiError::BadRequest(
            "give the placement sequence as ?sequence=… (empty for the empty board)".into(),
        )
    })?;
    crate::viewer::check_length(&sequence)?;
    Ok(Json(viewer::view(&sequence, players)))
}
