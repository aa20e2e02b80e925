//! HTTP: the router, the request extractors, and a layer that logs and sets headers.
//!
//! One module per resource (`ink`, `metro`), and the embedded front-end.

pub mod admission;
pub mod assets;
pub mod challenges;
pub mod games;
mod identity;
pub mod limits;
pub mod metrics;
mod players;
pub mod pool;
pub mod preview;
mod reminders;
pub mod replay;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::game::GameState;
use crate::state::AppState;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The whole app: `games`, each game's routes (nested under `/api/{kind}` by the caller), and
/// the rest, written once; the per-address limits of `limiter`.
pub fn router(state: AppState, games: Router<AppState>, limiter: Arc<limits::Limiter>) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .merge(games)
        .merge(challenges::routes())
        .merge(players::routes())
        .merge(identity::routes())
        .merge(reminders::routes())
        .merge(pool::routes())
        .merge(replay::routes())
        .merge(preview::routes())
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(limiter, limits::limit))
        .layer(middleware::from_fn(log_and_harden))
        .with_state(state)
}

/// How long the health check waits for the database.
const HEALTH_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /api/health`: the server answers and its database does (one trivial read, within
/// [`HEALTH_TIMEOUT`]), and how many games it holds in memory. `503` with `"ok": false`, the
/// reason in `database` and `Retry-After` when the database cannot be reached or does not
/// answer in time.
async fn health(State(app): State<AppState>) -> Response {
    let database = match tokio::time::timeout(HEALTH_TIMEOUT, app.storage.ping()).await {
        Ok(Ok(())) => None,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "health check: the database cannot be reached");
            Some("cannot be reached")
        }
        Err(_) => {
            tracing::warn!(timeout = ?HEALTH_TIMEOUT, "health check: the database did not answer");
            Some("did not answer in time")
        }
    };
    let mut body = serde_json::json!({
        "ok": database.is_none(),
        "games_in_memory": app.loaded(),
        // Which process answered (several may serve one PostgreSQL database).
        "process": app.storage.process_id(),
    });
    match database {
        None => Json(body).into_response(),
        Some(reason) => {
            body["database"] = reason.into();
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "2")],
                Json(body),
            )
                .into_response()
        }
    }
}

/// The seat of a game the holder of `token` sits in (`None`: a spectator), once they may see
/// it: a token of nobody's is refused; so is a spectator of a challenge's game while
/// [`crate::challenges::may_see`] says so.
pub(crate) async fn seen_by<St: GameState>(
    app: &AppState,
    id: &str,
    st: &St,
    token: Option<&str>,
) -> Result<Option<usize>, ApiError> {
    let seats = st
        .seats()
        .iter()
        .map(|s| (s.token_hash.as_deref(), s.player.as_deref()));
    let seat = crate::challenges::seat_of(app, seats, token).await?;
    if seat.is_none()
        && let Some(token) = token
    {
        // A player's token that sits nowhere here watches (a challenge's game, as far as
        // `may_see` lets it); a token of nobody's is refused.
        if crate::challenges::player_of(app, Some(token))
            .await?
            .is_none()
        {
            return Err(ApiError::WrongToken);
        }
    }
    if seat.is_none() {
        if let Some(c) = st.challenge() {
            crate::challenges::may_see(app, c, token).await?;
        } else if st.is_over()
            && let Some(c) = app.storage.game_challenge(id).await?
        {
            // A finished game that became a friend challenge's since it was loaded.
            crate::challenges::may_see(app, &c, token).await?;
        }
    }
    Ok(seat)
}

/// The player whose token came with a request that creates or joins a game (their seat is
/// then theirs); a token of nobody's is ignored, as if none had come.
pub async fn player_id(app: &AppState, token: Option<&str>) -> Result<Option<String>, ApiError> {
    Ok(crate::challenges::player_of(app, token)
        .await?
        .map(|p| p.id))
}

/// Logs each request (at debug level) and sets the headers every response carries.
async fn log_and_harden(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    if path.starts_with("/api/") {
        response = json_error(response).await;
    }
    let status = response.status();
    let elapsed = started.elapsed();
    crate::telemetry::request(
        crate::telemetry::route_class(&method, &path),
        status.as_u16(),
        elapsed,
    );
    let elapsed_us = elapsed.as_micros() as u64;
    // A 503 says so where it is decided (admission logs its refusals once a second, the
    // database its outage): one line each for thousands a second would be the server's work.
    if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        tracing::warn!(%method, %path, status = status.as_u16(), elapsed_us, "request failed");
    } else {
        tracing::debug!(%method, %path, status = status.as_u16(), elapsed_us, "request");
    }
    let h = response.headers_mut();
    harden(h);
    if path.starts_with("/api/") && !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The headers every answer carries: no sniffing of its type, no referrer, never in a frame.
pub(crate) fn harden(h: &mut axum::http::HeaderMap) {
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// Makes an error answer that is not JSON yet (a rejection by axum itself: a path segment that
/// is not UTF-8, a method not allowed, a malformed header) the API's `{"error": …}`.
async fn json_error(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => status
            .canonical_reason()
            .unwrap_or("the request was refused")
            .to_owned(),
    };
    let body = serde_json::json!({ "error": text }).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// A JSON request body. Anything wrong with it (too large, not JSON, wrong fields) is a 400
/// that says what. An empty body reads as `{}`, so all-optional bodies may be left out.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| match e {
            BytesRejection::FailedToBufferBody(_) => ApiError::BadRequest(format!(
                "the request body could not be read or is larger than {MAX_BODY} bytes"
            )),
            other => ApiError::BadRequest(other.body_text()),
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(text)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("malformed JSON body: {e}")))
    }
}

/// The seat token from `Authorization: Bearer TOKEN`, if one was sent.
pub struct MaybeToken(pub Option<String>);

/// The seat token, required.
pub struct Token(pub String);

fn bearer(parts: &Parts) -> Result<Option<String>, ApiError> {
    let Some(value) = parts.headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().map_err(|_| ApiError::WrongToken)?;
    let (scheme, token) = value.split_once(' ').ok_or(ApiError::MissingToken)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::MissingToken);
    }
    let token = token.trim();
    if token.is_empty() || token.len() > 256 {
        return Err(ApiError::WrongToken);
    }
    Ok(Some(token.to_owned()))
}

impl<S: Send + Sync> FromRequestParts<S> for MaybeToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        bearer(parts).map(MaybeToken)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Token {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        bearer(parts)?.map(Token).ok_or(ApiError::MissingToken)
    }
}
