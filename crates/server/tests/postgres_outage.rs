//! PostgreSQL going away under a running server: requests are answered `503` with
//! `Retry-After` and the JSON error (never a 500, never a crash); once the database is back,
//! the same server plays on, its stored games intact.
//!
//! Needs `TRACKLAYER_TEST_PG` (skipped without it).

mod common;

use common::{Answer, TestApp};
use hyper::StatusCode;
use server::storage::Storage;

/// A database cut off: it refuses connections and its connections are ended, as in an outage
/// (done from another database of the same server).
struct Outage {
    admin: Storage,
    name: String,
}

impl Outage {
    async fn begin(database: &server::Database) -> Outage {
        let elsewhere = server::storage::fresh_test_database()
            .await
            .unwrap()
            .unwrap();
        let admin = Storage::connect(&elsewhere).await.unwrap();
        let name = match database {
            server::Database::Postgres(url) => url.rsplit('/').next().unwrap().to_owned(),
            other => panic!("{other}"),
        };
        admin
            .exec_for_test(
                &format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false"),
                &[],
            )
            .await
            .unwrap();
        admin
            .exec_for_test(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?1",
                &[&name],
            )
            .await
            .unwrap();
        Outage { admin, name }
    }

    /// The database is back.
    async fn end(&self) {
        self.admin
            .exec_for_test(
                &format!("ALTER DATABASE {} ALLOW_CONNECTIONS true", self.name),
                &[],
            )
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn an_outage_is_a_503_and_the_server_plays_on_after_it() {
    let Some(database) = common::postgres_only().await else {
        return;
    };
    let app = TestApp::start_with(|c| c.db = database.clone()).await;
    let made = app
        .post("/api/ink/games", None, r#"{"mode":"solo","seed":3}"#)
        .await
        .is(StatusCode::CREATED);
    let id = made["id"].as_str().unwrap().to_owned();
    let token = made["token"].as_str().unwrap().to_owned();
    let path = format!("/api/ink/games/{id}");
    let (_, s) = app.get(&path, Some(&token)).await;
    let first = common::first_legal_die(&s).unwrap();

    // The database refuses connections and drops the server's (said from another database).
    let outage = Outage::begin(&database).await;
    // The game was dropped from memory? Either way, no request may be a 500.
    let mut unavailable = 0;
    for _ in 0..5 {
        let mut client = app.client().await;
        let response = client
            .send(
                "POST",
                &format!("{path}/place"),
                &[
                    ("content-type", "application/json"),
                    ("authorization", &format!("Bearer {token}")),
                ],
                format!(r#"{{"placement":"{first}"}}"#).into_bytes(),
            )
            .await;
        let status = response.status();
        assert!(
            status != StatusCode::INTERNAL_SERVER_ERROR,
            "a 500 in the outage"
        );
        if status == StatusCode::SERVICE_UNAVAILABLE {
            unavailable += 1;
            assert_eq!(response.headers()["retry-after"], "2");
        }
        // A game made during the outage cannot be stored: 503 too.
        let v = app
            .post("/api/ink/games", None, r#"{"mode":"solo"}"#)
            .await
            .is(StatusCode::SERVICE_UNAVAILABLE);
        assert!(v["error"].as_str().unwrap().contains("try again"), "{v}");
    }
    assert!(
        unavailable > 0,
        "the placement was answered without the database"
    );

    // Back: the same server plays on.
    outage.end().await;
    let s = app.get(&path, Some(&token)).await.is(StatusCode::OK);
    let next = common::first_legal_die(&s).unwrap();
    app.post(
        &format!("{path}/place"),
        Some(&token),
        &format!(r#"{{"placement":"{next}"}}"#),
    )
    .await
    .is(StatusCode::OK);
    app.post("/api/ink/games", None, r#"{"mode":"solo"}"#)
        .await
        .is(StatusCode::CREATED);
}

/// `GET /api/health` with its database down: `503`, `"ok": false`, the reason and
/// `Retry-After`; `200` and `"ok": true` again once the database is back.
#[tokio::test]
async fn health_is_a_503_while_the_database_is_down_and_200_after() {
    let Some(database) = common::postgres_only().await else {
        return;
    };
    let app = TestApp::start_with(|c| c.db = database.clone()).await;
    let health = app.get("/api/health", None).await.is(StatusCode::OK);
    assert_eq!(health["ok"], true, "{health}");
    let process = health["process"].as_str().unwrap().to_owned();

    // The database refuses connections and drops the server's (said from another database).
    let outage = Outage::begin(&database).await;
    let started = std::time::Instant::now();
    let mut client = app.client().await;
    let response = client.send("GET", "/api/health", &[], Vec::new()).await;
    let status = response.status();
    let retry = response.headers().get("retry-after").cloned();
    let bytes = common::body(response).await;
    let health: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{health}");
    assert!(retry.is_some(), "a 503 without Retry-After");
    assert_eq!(health["ok"], false, "{health}");
    assert!(health["database"].is_string(), "{health}");
    assert_eq!(health["process"], process.as_str(), "{health}");
    assert!(health["games_in_memory"].is_number(), "{health}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "the health check took {:?}",
        started.elapsed()
    );

    // Back: healthy again.
    outage.end().await;
    let health = app.get("/api/health", None).await.is(StatusCode::OK);
    assert_eq!(health["ok"], true, "{health}");
    assert!(health.get("database").is_none(), "{health}");
}
