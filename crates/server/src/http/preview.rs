//! A challenge's link preview: its page carries Open Graph tags (what a chat app or a social
//! network shows for a link), and their picture is a PNG drawn by the server.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::assets;
use crate::challenges;
use crate::error::ApiError;
use crate::preview::{self, Card, Drawing, escape};
use crate::share;
use crate::state::AppState;
use store::challenges::ChallengeStats;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/challenges/{id}", get(page))
        .route("/api/challenges/{id}/preview.png", get(picture))
}

/// What the preview of a challenge says now.
fn card(app: &AppState, stats: &ChallengeStats) -> Card {
    let c = &stats.challenge;
    let title = share::title(app, c);
    let (heading, when) = match title.split_once(" · ") {
        Some((heading, when)) => (heading.to_owned(), when.to_owned()),
        None => (title, "a friend challenge".to_owned()),
    };
    Card {
        heading,
        when,
        players: stats.players,
        best: stats.best,
        computer: stats.computer.as_ref().map(|r| r.result.score),
        closed: challenges::is_closed(c.closes, app.clock.now_ms()),
        game: c.game.to_string(),
    }
}

/// `GET /challenges/{id}`: the app's page, with the challenge's tags for link previews (the
/// page itself is the same app: an unknown challenge gets it without them, and says so).
async fn page(State(app): State<AppState>, Path(id): Path<String>, headers: HeaderMap) -> Response {
    let stats = match challenges::load(&app, &id).await {
        Ok(stats) => stats,
        Err(_) => {
            return assets::page_with_head(
                "challenge",
                "<title>tracklayer: Railroad Ink and Metro</title>",
                &headers,
            );
        }
    };
    let card = card(&app, &stats);
    let base = share::base_url(&headers);
    let id = escape(&stats.challenge.id);
    let title = escape(&format!("{} · {}", card.heading, card.when));
    let description = escape(&card.description());
    let head = format!(
        "<title>{title} · tracklayer</title>\n  \
         <meta name=\"description\" content=\"{description}\">\n  \
         <meta property=\"og:type\" content=\"website\">\n  \
         <meta property=\"og:site_name\" content=\"tracklayer\">\n  \
         <meta property=\"og:title\" content=\"{title}\">\n  \
         <meta property=\"og:description\" content=\"{description}\">\n  \
         <meta property=\"og:url\" content=\"{base}/challenges/{id}\">\n  \
         <meta property=\"og:image\" content=\"{base}/api/challenges/{id}/preview.png\">\n  \
         <meta property=\"og:image:type\" content=\"image/png\">\n  \
         <meta property=\"og:image:width\" content=\"{}\">\n  \
         <meta property=\"og:image:height\" content=\"{}\">\n  \
         <meta name=\"twitter:card\" content=\"summary_large_image\">",
        preview::WIDTH,
        preview::HEIGHT,
    );
    assets::page_with_head("challenge", &head, &headers)
}

/// `GET /api/challenges/{id}/preview.png`: the picture of its link preview, drawn once for
/// what it shows (see [`preview::Pictures`]), with an `ETag` of what it shows (`304 Not
/// Modified` when `If-None-Match` names it, without drawing).
async fn picture(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let stats = challenges::load(&app, &id).await?;
    let drawing = Drawing::of(&card(&app, &stats));
    let tag = HeaderValue::from_str(&drawing.tag).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut response = if assets::not_modified(&headers, &drawing.tag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let png = app.previews.png(&stats.challenge.id, drawing).await?;
        (
            [(header::CONTENT_TYPE, HeaderValue::from_static("image/png"))],
            png,
        )
            .into_response()
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, tag);
    // Previews are fetched once by each app that shows a link: a few minutes old is fine (then
    // asked again with the tag).
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=300"),
    );
    Ok(response)
}
