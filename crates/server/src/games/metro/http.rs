//! `/api/metro`: Metro games over HTTP. Each handler turns a request into one call of
//! [`super`] and its answer into JSON.

use ::metro::{Action, Square, Tile};
use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde::Deserialize;

use super::{self as metro, CreateRequest, Created, GameView, MetroState, SeatToken, TileTable};
use crate::error::ApiError;
use crate::http::{JsonBody, MaybeToken, Token, game_events, game_state, player_id};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/tiles", get(tiles))
        .route("/games", post(create))
        .route("/games/{id}", get(game_state::<MetroState>))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/keep", post(keep))
        .route("/games/{id}/place", post(place))
        .route("/games/{id}/events", get(game_events::<MetroState>))
        .route("/games/{id}/replay", get(replay))
}

async fn replay(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<Json<super::replay::MetroReplay>, ApiError> {
    Ok(Json(
        super::replay::serve(&app, &id, token.as_deref()).await?,
    ))
}

async fn tiles() -> Json<TileTable> {
    Json(metro::tile_table())
}

async fn create(
    State(app): State<AppState>,
    MaybeToken(player): MaybeToken,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let player = player_id(&app, player.as_deref()).await?;
    let created: Created = metro::create(&app, req, player).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    name: Option<String>,
    /// The open seat to take (the first open one if not given).
    seat: Option<usize>,
}

async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(player): MaybeToken,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let player = player_id(&app, player.as_deref()).await?;
    let taken: SeatToken = metro::join(&app, &id, req.name, req.seat, player).await?;
    Ok((StatusCode::CREATED, Json(taken)))
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(
        metro::act(&app, &id, &token, Action::Draw, None).await?,
    ))
}

async fn keep(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(
        metro::act(&app, &id, &token, Action::Keep, None).await?,
    ))
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
    let action = Action::Place(req.square);
    Ok(Json(metro::act(&app, &id, &token, action, req.tile).await?))
}
