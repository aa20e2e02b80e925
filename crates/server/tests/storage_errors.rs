//! Storage that cannot take a write just now, under a running server: a full disk (SQLite) is
//! answered `503` with `Retry-After` and the JSON error that says to try again later, never a
//! 500; nothing of a refused write is kept, what was acknowledged is stored, and reads go on.

mod common;

use std::net::SocketAddr;

use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::Value;

/// Creates a solo game on a connection of its own: status, `Retry-After` and the JSON body.
async fn create_game(addr: SocketAddr) -> (StatusCode, Option<String>, Value) {
    let mut client = common::Client::connect(addr).await;
    let response = client
        .send(
            "POST",
            "/api/ink/games",
            &[("content-type", "application/json")],
            br#"{"mode":"solo"}"#.to_vec(),
        )
        .await;
    let status = response.status();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let bytes = common::body(response).await;
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{status}: not JSON ({e}): {bytes:?}"));
    (status, retry, body)
}

#[tokio::test]
async fn a_full_disk_is_a_503_nothing_half_written_and_reads_go_on() {
    let app = TestApp::start().await;
    if !app.on_sqlite() {
        eprintln!("skipped: a full disk is made on SQLite only");
        return;
    }
    let (id, token) = common::create(&app, r#"{"mode":"solo","seed":3}"#).await;
    let path = format!("/api/ink/games/{id}");
    let before = app.get(&path, Some(&token)).await.is(StatusCode::OK);

    // The file cannot grow any more: games are made (many at once, so that the writer runs
    // them together) until the space left is used up.
    app.storage().limit_pages_for_test(1).await.unwrap();
    let mut created = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..100 {
        let mut batch = tokio::task::JoinSet::new();
        for _ in 0..16 {
            batch.spawn(create_game(app.addr));
        }
        while let Some(answer) = batch.join_next().await {
            let (status, retry, body) = answer.unwrap();
            if status == StatusCode::CREATED {
                created.push(body["id"].as_str().unwrap().to_owned());
            } else {
                refused.push((status, retry, body));
            }
        }
        if !refused.is_empty() {
            break;
        }
    }
    assert!(!refused.is_empty(), "the disk never filled up");
    for (status, retry, body) in &refused {
        assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert!(retry.is_some(), "a 503 without Retry-After: {body}");
        let error = body["error"].as_str().expect("a JSON error");
        assert!(error.contains("try again"), "{error}");
        assert!(!error.contains("internal"), "{error}");
    }

    // An action on the game made before is stored whole or refused the same way.
    let placement = common::first_legal_die(&before).expect("a legal placement");
    let (placed, v) = common::place(&app, &id, &token, &placement).await;
    assert!(
        placed == StatusCode::OK || placed == StatusCode::SERVICE_UNAVAILABLE,
        "{placed}: {v}"
    );

    // Reads go on: the game made before, and the health check.
    app.get(&path, Some(&token)).await.is(StatusCode::OK);
    let health = app.get("/api/health", None).await.is(StatusCode::OK);
    assert_eq!(health["ok"], true, "{health}");

    // Every game acknowledged is stored, no refused one is, nor any part of one.
    let storage = app.db().await;
    for made in created.iter().chain([&id]) {
        assert!(
            storage.load_game(made).await.unwrap().is_some(),
            "game {made} was acknowledged but is not stored"
        );
    }
    let games = storage
        .count_for_test("SELECT count(*) FROM games", &[])
        .await
        .unwrap();
    assert_eq!(games, created.len() as i64 + 1, "a refused game was stored");
    let orphans = storage
        .count_for_test(
            "SELECT count(*) FROM seats WHERE game NOT IN (SELECT id FROM games)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(orphans, 0, "seats of a refused game were stored");
    let actions = storage
        .count_for_test("SELECT count(*) FROM actions WHERE game = ?1", &[&id])
        .await
        .unwrap();
    assert_eq!(actions, i64::from(placed == StatusCode::OK), "{placed}");
    assert!(
        server::storage::check(&app.config.db)
            .await
            .unwrap()
            .is_empty()
    );

    // Space again: the same server stores again.
    app.storage().limit_pages_for_test(1 << 30).await.unwrap();
    let (status, _, body) = create_game(app.addr).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}
