//! `/api/metro`: Metro's own routes, beside every game's (`crate::http::games`). Each handler
//! turns a request into one call and its answer into JSON.

use ::metro::{Action, Square, Tile};
use axum::Json;
use axum::Router;
use axum::routing::get;
use serde::Deserialize;

use super::{self as metro, MetroState, SeatMove, TileTable};
use crate::http::games::{seat_action, seat_move};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
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
