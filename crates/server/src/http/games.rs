//! The routes every game has, written once and generic over [`GameState`] (each game adds its
//! own action routes beside them): under `/api/{kind}`,
//!
//! - `POST /games`: make a game (`201` with its id and the tokens of the seats made here);
//! - `POST /games/played`: a game of one seat played to its end in the page with no
//!   connection, sent as its log (`201` as `POST /games` answers, once every action replays);
//! - `GET /games/{id}`: its state, as the token's seat sees it (without one, as a spectator);
//! - `POST /games/{id}/join`: take a seat (`201` with its token);
//! - `POST /games/{id}/act`: a seat's action (`200` with the state as it sees it);
//! - `GET /games/{id}/events`: live updates (with a seat's token or a ticket, never a
//!   player's key);
//! - `POST /games/{id}/ticket`: a ticket to open them with, for a player's key;
//! - `GET /games/{id}/replay`: a finished game, action by action;
//! - `GET /games/{id}/review?seat=k`: the computer's review of a finished game's seat;
//! - `POST /games/{id}/rematch`: play a finished game again (`201` as `POST /games` answers,
//!   `200` `{"id"}` with the game made before);
//! - `POST /games/{id}/resign`: the token's seat resigns (or leaves): the computer plays it;
//! - `POST /games/{id}/start`: its creator starts a game whose table grows (in a game of rules
//!   that has such tables: see [`start`]).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};

use super::{JsonBody, MaybeToken, Token, player_id};
use crate::error::ApiError;
use crate::game::GameState;
use crate::play::{self, Session};
use crate::rules::Ruled;
use crate::state::AppState;

/// The routes of game `St` (to nest under `/api/{kind}`).
pub fn routes<St: GameState>() -> Router<AppState> {
    Router::new()
        .route("/games", post(create::<St>))
        .route("/games/played", post(played::<St>))
        .route("/games/{id}", get(state::<St>))
        .route("/games/{id}/join", post(join::<St>))
        .route("/games/{id}/act", post(act::<St>))
        .route("/games/{id}/events", get(events::<St>))
        .route("/games/{id}/ticket", post(ticket::<St>))
        .route("/games/{id}/replay", get(replay::<St>))
        .route("/games/{id}/review", get(review::<St>))
        .route("/games/{id}/rematch", post(rematch::<St>))
        .route("/games/{id}/resign", post(resign::<St>))
}

/// `POST /games/{id}/resign`: the token's seat resigns (or leaves the game): the computer plays
/// it to the end. Answered with the state as the seat sees it.
async fn resign<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<St::View>, ApiError> {
    let view = play::commands::by_seat(&app, &id, &token, |st: &St, seat| st.resign(seat)).await?;
    tracing::info!(game = %id, kind = St::KIND, "a seat resigned");
    Ok(Json(view))
}

/// A route of a game's own, `POST /games/{id}/…` without a body: the token's seat plays
/// `action` (answered as `POST /games/{id}/act` is).
pub fn seat_action<St: GameState>(action: St::Action) -> MethodRouter<AppState>
where
    St::Action: Sync,
{
    post(
        |State(app): State<AppState>, Path(id): Path<String>, Token(token): Token| async move {
            Ok::<_, ApiError>(Json(
                play::commands::act::<St>(&app, &id, &token, action).await?,
            ))
        },
    )
}

/// A route of a game's own, `POST /games/{id}/…` with a JSON body of type `B`: the token's seat
/// plays the action `to_action` makes of it (answered as `POST /games/{id}/act` is).
pub fn seat_move<St: GameState, B>(to_action: fn(B) -> St::Action) -> MethodRouter<AppState>
where
    B: serde::de::DeserializeOwned + Send + 'static,
{
    post(
        move |State(app): State<AppState>,
              Path(id): Path<String>,
              Token(token): Token,
              JsonBody(body): JsonBody<B>| async move {
            let action = to_action(body);
            Ok::<_, ApiError>(Json(
                play::commands::act::<St>(&app, &id, &token, action).await?,
            ))
        },
    )
}

/// `POST /games/{id}/start`: the creator starts a game people join a seat each (see
/// [`crate::rules::Ruled::start`]), answered with the state as it sees it.
pub fn start<R: crate::rules::Rules>() -> MethodRouter<AppState> {
    post(
        |State(app): State<AppState>, Path(id): Path<String>, Token(token): Token| async move {
            let view =
                play::commands::by_seat(&app, &id, &token, |st: &Ruled<R>, seat| st.start(seat))
                    .await?;
            tracing::info!(game = %id, kind = R::KIND, "game started");
            Ok::<_, ApiError>(Json(view))
        },
    )
}

async fn rematch<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<axum::response::Response, ApiError> {
    Ok(
        match play::commands::rematch::<St>(&app, &id, &token).await? {
            play::commands::Rematch::Made(created) => {
                (StatusCode::CREATED, Json(created)).into_response()
            }
            play::commands::Rematch::Already(game) => {
                Json(serde_json::json!({ "id": game })).into_response()
            }
        },
    )
}

async fn create<St: GameState>(
    State(app): State<AppState>,
    MaybeToken(player): MaybeToken,
    JsonBody(request): JsonBody<St::Create>,
) -> Result<impl IntoResponse, ApiError> {
    let player = player_id(&app, player.as_deref()).await?;
    let created = St::create(&app, request, player).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// `POST /games/played`: a game played to its end in the page with no connection, sent as its
/// log; stored once every action replays here (`201` as `POST /games` answers).
async fn played<St: GameState>(
    State(app): State<AppState>,
    MaybeToken(player): MaybeToken,
    JsonBody(request): JsonBody<St::Played>,
) -> Result<impl IntoResponse, ApiError> {
    let player = player_id(&app, player.as_deref()).await?;
    let seated = St::played(&app, request, player).await?;
    Ok((StatusCode::CREATED, Json(seated)))
}

/// The state as the token's seat sees it (the seat's token, or the token of the player who
/// sits there; without a token, as a spectator does). A challenge's game is seen by others only
/// as [`crate::challenges::may_see`] allows: then the token may be a player's.
async fn state<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<Json<St::View>, ApiError> {
    let session = Session::<St>::load(&app, &id).await?;
    let st = session.snapshot().await;
    let seat = super::seen_by(&app, &session.id, &st, token.as_deref()).await?;
    session.note_seen(&app, seat).await?;
    Ok(Json(session.view(&st, seat)))
}

async fn join<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(player): MaybeToken,
    JsonBody(request): JsonBody<St::Join>,
) -> Result<impl IntoResponse, ApiError> {
    let player = player_id(&app, player.as_deref()).await?;
    let taken = play::commands::join::<St>(&app, &id, request, player).await?;
    Ok((StatusCode::CREATED, Json(taken)))
}

async fn act<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
    JsonBody(action): JsonBody<St::Action>,
) -> Result<Json<St::View>, ApiError> {
    Ok(Json(
        play::commands::act::<St>(&app, &id, &token, action).await?,
    ))
}

/// The game's live updates, to who may see its state, each event the state as the token's seat
/// sees it. What opens them: a seat's token (as `Authorization`, or as `?token=` for the
/// browser's `EventSource`, which sends no headers), or a ticket from `POST …/ticket`
/// (`?ticket=`); never a player's key, which would be written in the logs of every proxy on
/// the way. `X-Accel-Buffering: no` tells nginx in front (if any) to pass each event on at
/// once, whatever its `proxy_buffering`.
async fn events<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    q: Result<Query<EventsQuery>, QueryRejection>,
) -> Result<impl IntoResponse, ApiError> {
    let session = Session::<St>::load(&app, &id).await?;
    let q = crate::error::query(q)?;
    let seat = match q.ticket {
        Some(ticket) => crate::ticket::check(
            app.storage.secret(),
            &session.id,
            &ticket,
            app.clock.now_ms(),
        )
        .map_err(|e| ApiError::Forbidden(e.to_string()))?,
        None => {
            let token = token.or(q.token);
            if token
                .as_deref()
                .is_some_and(|t| t.is_empty() || t.len() > 256)
            {
                return Err(ApiError::WrongToken);
            }
            let st = session.snapshot().await;
            if let Some(token) = token.as_deref()
                && st.seat_of(token).is_err()
                && crate::challenges::player_of(&app, Some(token))
                    .await?
                    .is_some()
            {
                return Err(ApiError::Forbidden(format!(
                    "live updates take a seat's token or a ticket, never a player's key (an address is written down on its way): ask POST /api/{}/games/{}/ticket with the key as Authorization",
                    St::KIND,
                    session.id
                )));
            }
            super::seen_by(&app, &session.id, &st, token.as_deref()).await?
        }
    };
    session.note_seen(&app, seat).await?;
    let rematches = play::Sessions::<St>::of(&app).subscribe_rematches();
    let events = play::sse::events(session, seat, rematches, app.shutdown.clone()).await;
    Ok(([("x-accel-buffering", "no")], events))
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsQuery {
    token: Option<String>,
    ticket: Option<String>,
}

/// `POST …/games/{id}/ticket`: a ticket to open the game's live updates with (see
/// [`crate::ticket`]), as the token's seat sees them (a seat's token or a player's key, as
/// `Authorization`), for whoever may see the game.
async fn ticket<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Token(token): Token,
) -> Result<Json<serde_json::Value>, ApiError> {
    let session = Session::<St>::load(&app, &id).await?;
    let st = session.snapshot().await;
    let seat = super::seen_by(&app, &session.id, &st, Some(&token)).await?;
    drop(st);
    session.note_seen(&app, seat).await?;
    let now = app.clock.now_ms();
    Ok(Json(serde_json::json!({
        "ticket": crate::ticket::issue(app.storage.secret(), &session.id, seat, now),
        "expires": crate::clock::rfc3339(now + crate::ticket::LIFETIME_MS),
    })))
}

/// The computer's review of a finished game's seat (see [`crate::review`]).
async fn review<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    q: Result<Query<crate::review::ReviewQuery>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    crate::review::serve::<St>(&app, &id, token.as_deref(), q).await
}

/// A finished game replayed from its log, for the holder of the token (see
/// [`crate::replay::serve`]).
async fn replay<St: GameState>(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<Json<St::Replay>, ApiError> {
    let (mut replay, hide_seed) =
        crate::replay::serve(&app, &id, St::KIND, token.as_deref(), St::replay).await?;
    if hide_seed {
        St::hide_seed(&mut replay);
    }
    Ok(Json(replay))
}
