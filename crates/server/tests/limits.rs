//! Per-address limits: a refusal is `429` with `Retry-After` and a JSON `error`; live-update
//! streams are capped; the limits are per kind of request (reviews and preview pictures too);
//! behind a trusted proxy the address is the one it forwarded, and only then.

mod common;

use common::{Answer, TestApp};
use http_body_util::BodyExt;
use hyper::StatusCode;

async fn limited(limits: server::Limits) -> TestApp {
    TestApp::start_with(|c| c.limits = limits).await
}

/// Opens the live updates at `path` as a request forwarded for `from`: the connection (the
/// stream lasts as long as it) and the answer.
async fn events_from(
    app: &TestApp,
    path: &str,
    from: &str,
) -> (common::Client, hyper::Response<hyper::body::Incoming>) {
    let mut client = app.client().await;
    let headers = [("x-forwarded-for", from)];
    let r = client.send("GET", path, &headers, Vec::new()).await;
    (client, r)
}

#[tokio::test]
async fn an_address_makes_a_few_players_a_day_and_an_ipv6_address_counts_as_its_64() {
    let app = TestApp::start_with(|c| {
        c.limits = server::Limits {
            players_per_day: 2,
            ..server::Limits::off()
        };
        c.trust_proxy = true;
    })
    .await;
    assert_eq!(server::Limits::default().players_per_day, 5);
    let make = |name: &'static str, from: &'static str| {
        let app = &app;
        async move {
            let mut client = app.client().await;
            let body = format!(r#"{{"name":"{name}"}}"#);
            let r = client
                .send(
                    "POST",
                    "/api/players",
                    &[
                        ("content-type", "application/json"),
                        ("x-forwarded-for", from),
                    ],
                    body.into_bytes(),
                )
                .await;
            let status = r.status();
            let retry = r.headers().get("retry-after").cloned();
            let body = common::body(r).await;
            (status, retry, String::from_utf8_lossy(&body).into_owned())
        }
    };
    assert_eq!(make("A1", "2001:db8:7:7::1").await.0, StatusCode::CREATED);
    assert_eq!(
        make("A2", "2001:db8:7:7:abcd::2").await.0,
        StatusCode::CREATED
    );
    // A third from the same /64, whatever address in it: refused for hours, saying so.
    let (status, retry, body) = make("A3", "2001:db8:7:7:ffff:ffff:ffff:ffff").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let retry: u64 = retry.unwrap().to_str().unwrap().parse().unwrap();
    assert!(retry > 3600, "{retry}");
    assert!(body.contains("made 2 players today"), "{body}");
    // The next /64 is another network.
    assert_eq!(make("B1", "2001:db8:7:8::1").await.0, StatusCode::CREATED);
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
    let body = common::body(r).await;
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(v["error"].as_str().unwrap().contains("players made"), "{v}");
    // Games have their own allowance.
    for _ in 0..2 {
        app.post("/api/ink/games", None, r#"{"mode":"solo"}"#)
            .await
            .is(StatusCode::CREATED);
    }
    app.post(
        "/api/metro/games",
        None,
        r#"{"players":[{"kind":"human"},{"kind":"computer"}]}"#,
    )
    .await
    .is(StatusCode::TOO_MANY_REQUESTS);
    // Reading is never limited.
    for _ in 0..20 {
        assert_eq!(app.get("/api/health", None).await.0, StatusCode::OK);
    }
}

#[tokio::test]
async fn reviews_and_preview_pictures_are_rate_limited_per_address() {
    let app = limited(server::Limits {
        reviews: 2,
        previews: 2,
        ..server::Limits::off()
    })
    .await;
    let (id, _) = common::create(&app, r#"{"mode":"solo"}"#).await;
    let review = format!("/api/ink/games/{id}/review");
    let picture = "/api/challenges/nope/preview.png";
    for (path, what) in [(review.as_str(), "reviews"), (picture, "preview pictures")] {
        // Whatever the answer (a review of a game that goes on, a challenge that does not
        // exist), each counts; a HEAD does the work of a GET, and counts as one.
        let mut client = app.client().await;
        for method in ["GET", "HEAD"] {
            let r = client.send(method, path, &[], Vec::new()).await;
            assert_ne!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{method} {path}");
            common::body(r).await;
        }
        let r = client.send("GET", path, &[], Vec::new()).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{path}");
        let retry: u64 = r.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry), "{retry}");
        assert_eq!(r.headers()["content-type"], "application/json");
        let v: serde_json::Value = serde_json::from_slice(&common::body(r).await).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains(&format!("too many {what}")),
            "{v}"
        );
    }
    // Each kind its own allowance: the game itself and the challenge's page still answer.
    app.get(&format!("/api/ink/games/{id}"), None)
        .await
        .is(StatusCode::OK);
    let mut client = app.client().await;
    let page = client
        .send("GET", "/challenges/nope", &[], Vec::new())
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    // Off: no limit.
    let app = limited(server::Limits::off()).await;
    for _ in 0..5 {
        let (status, _) = app.get(picture, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
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
    assert!(d.reviews >= 10 && d.previews >= 30, "{d:?}");
    assert_eq!(server::Config::new("127.0.0.1:0", "x").limits, d);
}

/// Makes a player with `X-Forwarded-For: forwarded` (none when `None`); the answer's status.
async fn make_player(app: &TestApp, forwarded: Option<&str>) -> StatusCode {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(f) = forwarded {
        headers.push(("x-forwarded-for", f));
    }
    // Names are unique: each player its own.
    static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let body = format!(r#"{{"name":"P{n}"}}"#);
    let mut client = app.client().await;
    let r = client
        .send("POST", "/api/players", &headers, body.into_bytes())
        .await;
    let status = r.status();
    r.into_body().collect().await.unwrap();
    status
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_limits() {
    let app = TestApp::start_with(|c| {
        c.limits = server::Limits {
            players: 2,
            streams: 1,
            ..server::Limits::off()
        };
        c.trust_proxy = true;
    })
    .await;
    // Every request comes from 127.0.0.1, the proxy; the address it appended is the client.
    for _ in 0..2 {
        assert_eq!(
            make_player(&app, Some("203.0.113.1")).await,
            StatusCode::CREATED
        );
    }
    assert_eq!(
        make_player(&app, Some("203.0.113.1")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // What the client wrote before the proxy's address changes nothing.
    assert_eq!(
        make_player(&app, Some("198.51.100.77, 203.0.113.1")).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another client through the same proxy has its own allowance.
    for forwarded in ["203.0.113.1, 203.0.113.2", "2001:db8::2"] {
        for _ in 0..2 {
            assert_eq!(
                make_player(&app, Some(forwarded)).await,
                StatusCode::CREATED
            );
        }
        assert_eq!(
            make_player(&app, Some(forwarded)).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
    // A malformed header, or none, counts against the proxy's own address.
    for forwarded in ["not an address", "203.0.113.3, "] {
        assert_eq!(
            make_player(&app, Some(forwarded)).await,
            StatusCode::CREATED
        );
    }
    for forwarded in [None, Some("[::1"), Some("")] {
        assert_eq!(
            make_player(&app, forwarded).await,
            StatusCode::TOO_MANY_REQUESTS,
            "{forwarded:?}"
        );
    }
    // Live-update streams are capped per forwarded address too.
    let (id, _) = common::create(&app, r#"{"mode":"solo"}"#).await;
    let path = format!("/api/ink/games/{id}/events");
    let mut streams = Vec::new();
    for forwarded in ["203.0.113.1", "203.0.113.2"] {
        let stream = events_from(&app, &path, forwarded).await;
        assert_eq!(stream.1.status(), StatusCode::OK, "{forwarded}");
        streams.push(stream);
    }
    let (_client, r) = events_from(&app, &path, "203.0.113.2").await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn without_trust_a_forged_forwarded_for_does_not_escape_the_limits() {
    let app = limited(server::Limits {
        players: 2,
        streams: 1,
        ..server::Limits::off()
    })
    .await;
    assert!(!app.config.trust_proxy, "off by default");
    for forwarded in ["203.0.113.1", "203.0.113.2"] {
        assert_eq!(
            make_player(&app, Some(forwarded)).await,
            StatusCode::CREATED
        );
    }
    for forwarded in ["203.0.113.3", "198.51.100.1, 203.0.113.4", "2001:db8::5"] {
        assert_eq!(
            make_player(&app, Some(forwarded)).await,
            StatusCode::TOO_MANY_REQUESTS,
            "{forwarded}"
        );
    }
    let (id, _) = common::create(&app, r#"{"mode":"solo"}"#).await;
    let path = format!("/api/ink/games/{id}/events");
    let (_first, r) = events_from(&app, &path, "203.0.113.1").await;
    assert_eq!(r.status(), StatusCode::OK);
    let (_second, refused) = events_from(&app, &path, "203.0.113.2").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    drop(r);
}

#[tokio::test]
async fn live_update_streams_tell_nginx_not_to_buffer() {
    let app = TestApp::start().await;
    let (id, _) = common::create(&app, r#"{"mode":"solo"}"#).await;
    let mut client = app.client().await;
    let r = client
        .send(
            "GET",
            &format!("/api/ink/games/{id}/events"),
            &[],
            Vec::new(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["x-accel-buffering"], "no");
}
