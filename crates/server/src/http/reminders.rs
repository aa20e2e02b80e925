//! `/api/players/me/reminders` (what the player chose to be reminded of) and
//! `/api/players/me/push` (this device's push subscription): see [`crate::reminders`].

use axum::extract::State;
use axum::routing::{get, put};
use axum::{Json, Router};

use super::{JsonBody, Token};
use crate::error::ApiError;
use crate::reminders::{self, Chosen, NewSubscription, RemindersView};
use crate::state::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/players/me/reminders", get(show).put(choose))
        .route("/api/players/me/push", put(subscribe).delete(unsubscribe))
}

async fn show(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<Json<RemindersView>, ApiError> {
    Ok(Json(reminders::show(&app, &token).await?))
}

async fn choose(
    State(app): State<AppState>,
    Token(token): Token,
    JsonBody(chosen): JsonBody<Chosen>,
) -> Result<Json<RemindersView>, ApiError> {
    Ok(Json(reminders::choose(&app, &token, chosen).await?))
}

async fn subscribe(
    State(app): State<AppState>,
    Token(token): Token,
    JsonBody(subscription): JsonBody<NewSubscription>,
) -> Result<Json<RemindersView>, ApiError> {
    Ok(Json(
        reminders::subscribe(&app, &token, subscription).await?,
    ))
}

async fn unsubscribe(
    State(app): State<AppState>,
    Token(token): Token,
) -> Result<Json<RemindersView>, ApiError> {
    Ok(Json(reminders::unsubscribe(&app, &token).await?))
}
