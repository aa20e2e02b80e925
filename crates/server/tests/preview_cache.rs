//! A challenge's link-preview picture is drawn once for what it shows: asked again, the kept
//! one is sent; its `ETag` is what it shows (`304` to `If-None-Match`, without drawing); a new
//! entry changes it, and the picture is drawn again.

mod common;

use common::TestApp;
use common::challenge::{TODAY, app_at, play, play_ink_game, player, wait_for_computer};
use hyper::StatusCode;

const DAILY: &str = "daily-2026-11-26";
const PICTURE: &str = "/api/challenges/daily-2026-11-26/preview.png";

/// The picture, asked for with `If-None-Match: tag` when given: status, `ETag`, body.
async fn picture(app: &TestApp, tag: Option<&str>) -> (StatusCode, String, Vec<u8>) {
    let headers: Vec<(&str, &str)> = tag.map(|t| vec![("if-none-match", t)]).unwrap_or_default();
    let r = app
        .client()
        .await
        .send("GET", PICTURE, &headers, Vec::new())
        .await;
    let status = r.status();
    let etag = r.headers()["etag"].to_str().unwrap().to_owned();
    if status == StatusCode::OK {
        assert_eq!(r.headers()["content-type"], "image/png");
    }
    (status, etag, common::body(r).await.to_vec())
}

#[tokio::test]
async fn the_preview_is_drawn_once_until_what_it_shows_changes() {
    let app = app_at(TODAY).await;
    // The computer's score is on the picture: wait until it is in.
    wait_for_computer(&app, DAILY).await;
    assert_eq!(app.previews_drawn(), 0);

    let (status, tag, png) = picture(&app, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        tag.starts_with('"') && tag.ends_with('"'),
        "a strong tag: {tag}"
    );
    assert_eq!(app.previews_drawn(), 1);

    // Asked again: the kept picture, not drawn again.
    let (status, again, same) = picture(&app, None).await;
    assert_eq!((status, &again), (StatusCode::OK, &tag));
    assert_eq!(same, png);
    assert_eq!(app.previews_drawn(), 1);

    // With the tag: 304, no body, nothing drawn (a weak form of it, or one of a list, too).
    for asked in [tag.clone(), format!("W/{tag}"), format!("\"other\", {tag}")] {
        let (status, etag, body) = picture(&app, Some(&asked)).await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{asked}");
        assert_eq!(etag, tag);
        assert!(body.is_empty());
    }
    assert_eq!(app.previews_drawn(), 1);

    // A new entry changes the figures: a new tag, drawn again (once).
    let (_, ann) = player(&app, "Ann").await;
    let (status, v) = play(&app, DAILY, &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    play_ink_game(
        &app,
        v["game"].as_str().unwrap(),
        v["token"].as_str().unwrap(),
    )
    .await;
    let (status, changed, new_png) = picture(&app, Some(&tag)).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(changed, tag);
    assert_ne!(new_png, png);
    assert_eq!(app.previews_drawn(), 2);
    let (status, etag, _) = picture(&app, Some(&changed)).await;
    assert_eq!((status, etag), (StatusCode::NOT_MODIFIED, changed));
    assert_eq!(app.previews_drawn(), 2);
}

#[tokio::test]
async fn two_requests_for_a_missing_picture_draw_it_once() {
    let app = app_at(TODAY).await;
    wait_for_computer(&app, DAILY).await;
    let (a, b) = tokio::join!(picture(&app, None), picture(&app, None));
    assert_eq!((a.0, b.0), (StatusCode::OK, StatusCode::OK));
    assert_eq!(a.2, b.2);
    assert_eq!(app.previews_drawn(), 1);
}
