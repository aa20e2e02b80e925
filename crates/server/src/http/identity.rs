//! `/api/players/me/identity`, `…/devices`, `…/recovery`, `…/link`, `…/passkeys` and the
//! sign-ins (`/api/players/recover`, `/api/players/link`, `/api/players/passkey`): what keeps
//! a player's identity (see [`crate::identity`]).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use webauthn_rs::prelude::{PublicKeyCredential, RegisterPublicKeyCredential};

use super::{JsonBody, Token};
use crate::error::ApiError;
use crate::identity::{self, passkeys};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/me/identity", get(show))
        .route("/api/players/me/devices/{id}", delete(sign_out))
        .route("/api/players/me/recovery", post(new_recovery_code))
        .route("/api/players/me/link", post(new_link))
        .route("/api/players/me/passkeys", post(start_adding))
        .route("/api/players/me/passkeys/finish", post(finish_adding))
        .route("/api/players/me/passkeys/{id}", delete(remove_passkey))
        .route("/api/players/recover", post(recover))
        .route("/api/players/link", post(follow_link))
        .route("/api/players/passkey", post(start_signing_in))
        .route("/api/players/passkey/finish", post(finish_signing_in))
}

/// What the device signing in is called, from its `User-Agent`.
pub(super) fn label(headers: &HeaderMap) -> String {
    identity::device_label(
        headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok()),
    )
}

/// The page's origin, as the browser sends it with the request (`Origin`), which must be this
/// server's address as the request names it (`Host`): passkeys and links are made for it.
fn page_origin(headers: &HeaderMap) -> Result<String, ApiError> {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let origin = text(header::ORIGIN).ok_or_else(|| {
        ApiError::BadRequest(
            "this is asked from the site's page, which sends its address (the Origin header)"
                .into(),
        )
    })?;
    let host = text(header::HOST).unwrap_or("");
    let named = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(|| {
            ApiError::BadRequest(format!("the page's address {origin:?} is not http(s)"))
        })?;
    if !named.eq_ignore_ascii_case(host) {
        return Err(ApiError::BadRequest(format!(
            "the page at {origin:?} is not this server's ({host:?}): open the site at its own address"
        )));
    }
    Ok(origin.to_owned())
}

async fn show(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<Json<identity::IdentityView>, ApiError> {
    Ok(Json(identity::identity(&app, &token).await?))
}

async fn sign_out(
    State(app): State<AppState>,
    Token(token): Token,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    identity::sign_out(&app, &token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn new_recovery_code(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<impl IntoResponse, ApiError> {
    let code = identity::new_recovery_code(&app, &token).await?;
    Ok((StatusCode::CREATED, Json(code)))
}

async fn new_link(
    State(app): State<AppState>,
    headers: HeaderMap,
    Token(token): Token,
) -> Result<impl IntoResponse, ApiError> {
    let origin = page_origin(&headers)?;
    let link = identity::new_link(&app, &token, &origin).await?;
    Ok((StatusCode::CREATED, Json(link)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CodeRequest {
    code: String,
}

async fn recover(
    State(app): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CodeRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let made = identity::recover(&app, &req.code, label(&headers)).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

async fn follow_link(
    State(app): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<CodeRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let made = identity::follow_link(&app, &req.code, label(&headers)).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

async fn start_adding(
    State(app): State<AppState>,
    headers: HeaderMap,
    Token(token): Token,
) -> Result<Json<passkeys::Started>, ApiError> {
    let origin = page_origin(&headers)?;
    Ok(Json(passkeys::start_adding(&app, &token, &origin).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishAdding {
    ceremony: String,
    credential: RegisterPublicKeyCredential,
    name: Option<String>,
}

async fn finish_adding(
    State(app): State<AppState>,
    headers: HeaderMap,
    Token(token): Token,
    JsonBody(req): JsonBody<FinishAdding>,
) -> Result<impl IntoResponse, ApiError> {
    let origin = page_origin(&headers)?;
    let added = passkeys::finish_adding(
        &app,
        &token,
        &origin,
        &req.ceremony,
        &req.credential,
        req.name.as_deref(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(added)))
}

async fn remove_passkey(
    State(app): State<AppState>,
    Token(token): Token,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    passkeys::remove(&app, &token, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn start_signing_in(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<passkeys::Started>, ApiError> {
    let origin = page_origin(&headers)?;
    Ok(Json(passkeys::start_signing_in(&app, &origin).await?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FinishSigningIn {
    ceremony: String,
    credential: PublicKeyCredential,
}

async fn finish_signing_in(
    State(app): State<AppState>,
    headers: HeaderMap,
    JsonBody(req): JsonBody<FinishSigningIn>,
) -> Result<impl IntoResponse, ApiError> {
    let origin = page_origin(&headers)?;
    let made = passkeys::finish_signing_in(
        &app,
        &origin,
        &req.ceremony,
        &req.credential,
        label(&headers),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(made)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h.insert(header::HOST, host.parse().unwrap());
        h
    }

    #[test]
    fn the_origin_must_be_this_servers() {
        let ok = page_origin(&headers(Some("http://localhost:8080"), "localhost:8080"));
        assert_eq!(ok.unwrap(), "http://localhost:8080");
        assert!(page_origin(&headers(Some("https://evil.example"), "localhost:8080")).is_err());
        assert!(page_origin(&headers(None, "localhost:8080")).is_err());
        assert!(page_origin(&headers(Some("ftp://localhost:8080"), "localhost:8080")).is_err());
    }
}
