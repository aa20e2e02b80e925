//! `GET /api/games`: the most recently finished games (each game's replay is its own route:
//! `crate::games::*::http`).

use axum::Json;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::challenges::Cursor;
use crate::error::{ApiError, query};
use crate::replay::GameResult;
use crate::state::AppState;
use store::GameKind;

/// The most games `GET /api/games` lists at once.
pub const MAX_LIMIT: usize = 100;

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/games", get(games))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    finished: Option<bool>,
    kind: Option<String>,
    limit: Option<usize>,
    /// `TIME` (milliseconds since the Unix epoch: games finished before then) or a page's
    /// `next` (`TIME_ID`).
    before: Option<String>,
}

#[derive(Debug, Serialize)]
struct GameEntry {
    id: String,
    kind: String,
    mode: String,
    /// Milliseconds since the Unix epoch.
    created: i64,
    finished: i64,
    #[serde(flatten)]
    result: GameResult,
}

#[derive(Debug, Serialize)]
struct Games {
    games: Vec<GameEntry>,
    /// The `before` that lists the next (older) games, when there may be more: the last game's
    /// finish and id, `1795737600000_0123456789abcdef01234567`.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

async fn games(
    State(app): State<AppState>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<Games>, ApiError> {
    let q = query(q)?;
    if q.finished == Some(false) {
        return Err(ApiError::BadRequest(
            "only finished games are listed: finished=true".into(),
        ));
    }
    let kind = match q.kind.as_deref() {
        None | Some("") => None,
        Some(kind) => match app.kind(kind) {
            Ok(_) => Some(GameKind::from(kind)),
            Err(_) => {
                let known: Vec<&str> = app.kinds.iter().map(|k| k.kind()).collect();
                return Err(ApiError::BadRequest(format!(
                    "unknown kind {kind:?}: {}",
                    known.join(" or ")
                )));
            }
        },
    };
    let limit = q.limit.unwrap_or(20);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::BadRequest(format!("limit is 1 to {MAX_LIMIT}")));
    }
    let before = match q.before.as_deref() {
        Some(text) => Some(
            Cursor::parse(text, |t| t.parse::<i64>().ok()).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "before {text:?} is neither a time in milliseconds nor a page's next (1795737600000_0123456789abcdef01234567)"
                ))
            })?,
        ),
        None => None,
    };
    let rows = app
        .storage
        .finished_games(kind, before.map(Cursor::into_pair), limit)
        .await?;
    let next = (rows.len() == limit)
        .then(|| rows.last().map(|g| format!("{}_{}", g.finished.at, g.id)))
        .flatten();
    let games = rows
        .into_iter()
        .filter_map(|g| {
            // A result this server cannot read is left out (and logged), not a failed list.
            let result: GameResult = serde_json::from_str(&g.finished.result)
                .inspect_err(|e| tracing::warn!(game = %g.id, error = %e, "unreadable result"))
                .ok()?;
            Some(GameEntry {
                id: g.id,
                kind: g.kind.to_string(),
                mode: g.mode,
                created: g.created,
                finished: g.finished.at,
                result,
            })
        })
        .collect();
    Ok(Json(Games { games, next }))
}
