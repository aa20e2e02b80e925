//! The API's one error type, mapped to status codes in one place.
//!
//! Handlers return `Result<_, ApiError>` and use `?`. What a client did wrong is told to the
//! client; what went wrong inside (storage, a failed task) is logged and the client only
//! hears "internal error".

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use thiserror::Error;

use store::StorageError;

#[derive(Debug, Error)]
pub enum ApiError {
    /// The request body or a parameter is malformed, too large, or out of range.
    #[error("{0}")]
    BadRequest(String),
    /// An action without `Authorization: Bearer TOKEN`.
    #[error("this needs the seat's token: send `Authorization: Bearer TOKEN`")]
    MissingToken,
    /// A token that is no seat's token in this game.
    #[error("the token is not valid for this game")]
    WrongToken,
    /// A token that does not let its holder see or do this (a challenge's boards before the
    /// holder has finished it; a player token that is nobody's).
    #[error("{0}")]
    Forbidden(String),
    /// A second attempt where one is allowed (refused by a unique key in the database).
    #[error("already there: {0}")]
    Duplicate(String),
    /// No such game, or no such path.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the game's kind, mode or state (joining a solo game, a full
    /// game, a Metro seat that is taken).
    #[error("{0}")]
    Conflict(String),
    /// An action or a new attempt in a challenge after its close (by the database's clock):
    /// nothing was done.
    #[error("{0}")]
    Closed(String),
    /// A game's rules refused the action: their words, and the short, stable name of the rule
    /// broken (see [`Refusal`]). `422`, or `409` when it is another seat's turn.
    #[error("{message}")]
    Rule {
        message: String,
        rule: &'static str,
        not_your_turn: bool,
    },
    /// Other processes kept changing the game while this request was decided (see
    /// `Session::change`): nothing was stored.
    #[error("the game changed while your request was being decided: nothing was done, try again")]
    Stale,
    /// The database cannot be reached just now (PostgreSQL down or restarting): nothing was
    /// done. Logged; the client is told to try again.
    #[error(
        "the game's database cannot be reached just now: nothing was done, try again in a moment"
    )]
    Unavailable(String),
    /// The server is past what it can answer in time (what it is busy with): nothing was done,
    /// try again in a moment.
    #[error("the server is busy {0}: nothing was done, try again in a moment")]
    Busy(String),
    /// The server cannot store anything just now (its disk is full): nothing was done. Logged;
    /// the client is told to try again later.
    #[error("the server cannot store anything just now: nothing was done, try again later")]
    StorageFull(String),
    /// Something failed inside the server. Logged, never shown.
    #[error("internal error: {0}")]
    Internal(String),
}

/// An engine's refusal of an action: its words, and the short, stable name of the rule it
/// broke (the `rule` of an error's body and of a [`Permission`]). Each game implements it for
/// its engine's errors, and turns them into [`ApiError::refused`].
pub trait Refusal: std::fmt::Display {
    fn rule(&self) -> &'static str;
    /// Whether the refusal is only that another seat is to move (a `409`, not a `422`).
    fn not_your_turn(&self) -> bool {
        false
    }
}

impl ApiError {
    /// A game's refusal of an action.
    pub fn refused(e: &impl Refusal) -> ApiError {
        ApiError::Rule {
            message: e.to_string(),
            rule: e.rule(),
            not_your_turn: e.not_your_turn(),
        }
    }
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> ApiError {
        match e {
            StorageError::Duplicate(what) => ApiError::Duplicate(what),
            StorageError::Unreachable(why) => ApiError::Unavailable(why),
            StorageError::Full(why) => ApiError::StorageFull(why),
            // Another process wrote first (a pool's game that seats someone seated already).
            StorageError::Conflict(_) => ApiError::Stale,
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<crate::ids::RandomError> for ApiError {
    fn from(e: crate::ids::RandomError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl From<store::names::NameError> for ApiError {
    fn from(e: store::names::NameError) -> ApiError {
        ApiError::BadRequest(e.to_string())
    }
}

/// A query string, with its rejection as a JSON `400`.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

#[derive(Serialize)]
struct Body<'a> {
    /// What went wrong, in words.
    error: &'a str,
    /// For a refused action: the short name of the rule broken.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'a str>,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::MissingToken => StatusCode::UNAUTHORIZED,
            ApiError::WrongToken | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Duplicate(_) => StatusCode::CONFLICT,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::Stale | ApiError::Closed(_) => StatusCode::CONFLICT,
            ApiError::Rule {
                not_your_turn: true,
                ..
            } => StatusCode::CONFLICT,
            ApiError::Rule { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) | ApiError::StorageFull(_) | ApiError::Busy(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn game_not_found() -> ApiError {
        ApiError::NotFound("no such game".into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        match &self {
            ApiError::Busy(_) => crate::telemetry::refused("thinking"),
            ApiError::Unavailable(_) => crate::telemetry::refused("database"),
            ApiError::StorageFull(_) => crate::telemetry::refused("disk"),
            _ => {}
        }
        // A full disk lasts until someone frees space: no point in asking again at once.
        let retry_after = match self {
            ApiError::StorageFull(_) => "30",
            _ => "2",
        };
        let (message, rule) = match &self {
            ApiError::Internal(detail) => {
                tracing::error!(error = %detail, "internal error");
                ("internal error".to_owned(), None)
            }
            ApiError::Unavailable(detail) => {
                tracing::warn!(error = %detail, "the database cannot be reached");
                (self.to_string(), None)
            }
            ApiError::StorageFull(detail) => {
                tracing::error!(error = %detail, "the disk is full: writes are refused");
                (self.to_string(), None)
            }
            ApiError::Rule { message, rule, .. } => (message.clone(), Some(*rule)),
            other => (other.to_string(), None),
        };
        let mut response = (
            status,
            Json(Body {
                error: &message,
                rule,
            }),
        )
            .into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from_static(retry_after),
            );
        }
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses() {
        assert_eq!(ApiError::WrongToken.status(), StatusCode::FORBIDDEN);
        let refused = |not_your_turn| ApiError::Rule {
            message: "the game is over".into(),
            rule: "finished",
            not_your_turn,
        };
        assert_eq!(refused(false).status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(refused(true).status(), StatusCode::CONFLICT);
        assert_eq!(
            ApiError::Internal("x".into()).into_response().status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }

    #[tokio::test]
    async fn a_full_disk_is_a_503_that_says_to_try_again_later() {
        // (Which SQLite failures are a full disk: the storage crate's own test.)
        let e = StorageError::Full("database or disk is full".into());
        let response = ApiError::from(e).into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(response.headers().contains_key("retry-after"));
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(body["error"].as_str().unwrap().contains("try again later"));
    }
}
