//! Per-address limits: a refusal is `429` with `Retry-After` and a JSON `error`; live-update
//! streams are capped; the limits are per kind of request.

mod common;

use common::TestApp;
use http_body_util::BodyExt;
use hyper::StatusCode;

async fn limited(limits: server::Limits) -> TestApp {
    TestApp::start_with(|c| c.limits = limits).await
}

#[tokio::test]
async fn making_players_and_games_is_rate_limited_per_kind() {
    let app = limited(server::Limits {
        players: 3,
        games: 2,
        ..server::Limits::off()
    })
    .await;
    let mut client = app.client().await;
    for i in 0..3 {
        let body = format!(r#"{{"name":"P{i}"}}"#);
        let (status, _) = client.call("POST", "/api/players", None, Some(&body)).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let r = client
        .send("POST", "/api/players", &[], br#"{"name":"P4"}"#.to_vec())
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let body = r.into_body().collect().await.unwrap().to_bytes();
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(v["error"].as_str().unwrap().contains("players made"), "{v}");
    // Games have their own allowance.
    for _ in 0..2 {
        let (status, _) = app.post("/api/ink/games", None, r#"{"mode":"solo"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (status, v) = app
        .post(
            "/api/metro/games",
            None,
            r#"{"players":[{"kind":"human"},{"kind":"computer"}]}"#,
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    // Reading is never limited.
    for _ in 0..20 {
        assert_eq!(app.get("/api/health", None).await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn live_update_streams_are_capped_per_address() {
    let app = limited(server::Limits {
        streams: 2,
        ..server::Limits::off()
    })
    .await;
    let (id, _) = common::create(&app, r#"{"mode":"solo"}"#).await;
    let path = format!("/api/ink/games/{id}/events");
    let first = common::Events::open(&app, &path).await;
    let _second = common::Events::open(&app, &path).await;
    let mut client = app.client().await;
    let r = client.send("GET", &path, &[], Vec::new()).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(r.headers().contains_key("retry-after"));
    // One closed, one may open.
    drop(first);
    let mut opened = false;
    for _ in 0..100 {
        let mut client = app.client().await;
        let r = client.send("GET", &path, &[], Vec::new()).await;
        if r.status() == StatusCode::OK {
            opened = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(opened, "a closed stream frees its place");
}

#[tokio::test]
async fn the_defaults_are_on_and_sensible() {
    let d = server::Limits::default();
    assert!(d.games >= 10 && d.players >= 5 && d.hints >= 30 && d.streams == 50);
    assert_eq!(server::Config::new("127.0.0.1:0", "x").limits, d);
}
