//! `/api/challenges`: today's and this week's challenges, past ones, leaderboards, playing a
//! challenge, and friend challenges. Each handler is one call of [`crate::challenges`].

use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::limits::ClientNetwork;
use super::{JsonBody, MaybeToken};
use crate::challenges::{self, Board, Current, Cursor, FriendMade, MAX_LIMIT, Past};
use crate::clock::parse_rfc3339;
use crate::error::{ApiError, query};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(past).post(make))
        .route("/api/challenges/current", get(current))
        .route("/api/challenges/{id}", get(board))
        .route("/api/challenges/{id}/play", post(play))
        .route("/api/challenges/{id}/practice", post(practice))
        .route("/api/challenges/{id}/share", get(share))
}

async fn current(
    State(app): State<AppState>,
    MaybeToken(token): MaybeToken,
) -> Result<Json<Current>, ApiError> {
    Ok(Json(challenges::current(&app, token.as_deref()).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PastQuery {
    before: Option<String>,
    limit: Option<usize>,
}

fn limit(limit: Option<usize>, default: usize) -> Result<usize, ApiError> {
    match limit.unwrap_or(default) {
        n @ 1..=MAX_LIMIT => Ok(n),
        n => Err(ApiError::BadRequest(format!(
            "limit is from 1 to {MAX_LIMIT}, not {n}"
        ))),
    }
}

async fn past(
    State(app): State<AppState>,
    q: Result<Query<PastQuery>, QueryRejection>,
) -> Result<Json<Past>, ApiError> {
    let q = query(q)?;
    let before = match q.before.as_deref() {
        Some(text) => Some(Cursor::parse(text, parse_rfc3339).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "before {text:?} is neither an RFC 3339 time such as 2026-11-26T00:00:00Z nor a page's next (2026-11-26T00:00:00Z_daily-2026-11-26)"
            ))
        })?),
        None => None,
    };
    let limit = limit(q.limit, 20)?;
    Ok(Json(challenges::past(&app, before, limit).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardQuery {
    limit: Option<usize>,
    around: Option<String>,
}

async fn board(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    q: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<Board>, ApiError> {
    let q = query(q)?;
    let limit = limit(q.limit, MAX_LIMIT)?;
    Ok(Json(
        challenges::board(&app, &id, token.as_deref(), limit, q.around.as_deref()).await?,
    ))
}

async fn play(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    network: Option<Extension<ClientNetwork>>,
) -> Result<impl IntoResponse, ApiError> {
    let network = network.map(|Extension(ClientNetwork(n))| n);
    let (created, played) = challenges::play(&app, &id, token.as_deref(), network).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(played)))
}

/// `GET /api/challenges/{id}/share`: the token's player's result, to share without spoiling.
async fn share(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
    headers: axum::http::HeaderMap,
) -> Result<Json<crate::share::Shared>, ApiError> {
    let base = crate::share::base_url(&headers);
    Ok(Json(
        crate::share::share(&app, &id, token.as_deref(), &base).await?,
    ))
}

/// `POST /api/challenges/{id}/practice`: a new practice game on a closed challenge's draws.
async fn practice(
    State(app): State<AppState>,
    Path(id): Path<String>,
    MaybeToken(token): MaybeToken,
) -> Result<impl IntoResponse, ApiError> {
    let played = challenges::practice(&app, &id, token.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(played)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MakeRequest {
    kind: String,
    from: String,
    /// The maker's seat token in that game, if they played it: their seat's entry is theirs.
    seat_token: Option<String>,
}

async fn make(
    State(app): State<AppState>,
    MaybeToken(token): MaybeToken,
    JsonBody(req): JsonBody<MakeRequest>,
) -> Result<impl IntoResponse, ApiError> {
    if !crate::challenge_kind::is_friend(&req.kind) {
        return Err(ApiError::BadRequest(format!(
            "kind {:?}: only friend challenges are made by request (daily and weekly ones make themselves)",
            req.kind
        )));
    }
    let (created, made): (bool, FriendMade) =
        challenges::friend(&app, &req.from, token.as_deref(), req.seat_token.as_deref()).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(made)))
}
