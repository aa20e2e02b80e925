//! Ratings, one per player and game: a rated online game between players of the site changes
//! their ratings (an unrated one, or one with a seat of nobody's, changes none); a daily
//! challenge, once closed, rates its ranked entries (when the server starts after its close);
//! and the ratings made again from the stored results alone are the same.

mod common;

use common::challenge::{TODAY, app_at, play, play_ink_game, play_ink_round, player};
use common::{Answer, TestApp, online_game};
use hyper::StatusCode;
use serde_json::Value;

/// The player's ratings as their page shows them.
async fn ratings(app: &TestApp, player: &str) -> Value {
    let page = app
        .get(&format!("/api/players/{player}"), None)
        .await
        .is(StatusCode::OK);
    page["ratings"].clone()
}

/// Plays a two-seat Railroad Ink game to its end, a round of each seat in turn.
async fn play_both(app: &TestApp, game: &str, a: &str, b: &str) -> Value {
    let mut last = Value::Null;
    for _ in 0..7 {
        play_ink_round(app, game, a).await;
        last = play_ink_round(app, game, b).await;
    }
    assert_eq!(last["finished"], true, "{last}");
    last
}

/// Every rating made again from the stored results alone.
async fn rebuild(app: &TestApp) -> usize {
    app.db()
        .await
        .rebuild_ratings(server::ratings::GAME, server::ratings::FIELD)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_rated_game_changes_its_players_ratings_and_a_rebuild_agrees() {
    let app = app_at(TODAY).await;
    let (ann, ann_key) = player(&app, "Ann").await;
    let (bob, bob_key) = player(&app, "Bob").await;
    let keys = [Some(ann_key.as_str()), Some(bob_key.as_str())];

    // Unrated: nothing changes.
    let body = r#"{"mode":"online","seed":7,"name":"Ann"}"#;
    let (id, a, b) = online_game(&app, body, keys).await;
    play_both(&app, &id, &a, &b).await;
    assert_eq!(ratings(&app, &ann).await, serde_json::json!([]));

    // Rated, but a seat is nobody's (joined without a player): nothing changes either.
    let body = r#"{"mode":"online","seed":8,"name":"Ann","rated":true}"#;
    let (id, a, b) = online_game(&app, body, [keys[0], None]).await;
    play_both(&app, &id, &a, &b).await;
    assert_eq!(ratings(&app, &ann).await, serde_json::json!([]));

    // Rated between two players: both are rated once, the better up, the other down.
    let body = r#"{"mode":"online","seed":9,"name":"Ann","rated":true}"#;
    let (id, a, b) = online_game(&app, body, keys).await;
    let end = play_both(&app, &id, &a, &b).await;
    let (ra, rb) = (ratings(&app, &ann).await, ratings(&app, &bob).await);
    for r in [&ra, &rb] {
        assert_eq!(r[0]["game"], "ink", "{r}");
        assert_eq!(r[0]["games"], 1);
        assert_eq!(r[0]["provisional"], true);
        assert_eq!(r[0]["history"].as_array().unwrap().len(), 1);
    }
    let (sa, sb) = (
        ra[0]["rating"].as_i64().unwrap(),
        rb[0]["rating"].as_i64().unwrap(),
    );
    match end["winners"].as_array().unwrap().as_slice() {
        [w] if w == 0 => assert!(sa > 1500 && sb < 1500, "{sa} {sb}"),
        [w] if w == 1 => assert!(sb > 1500 && sa < 1500, "{sa} {sb}"),
        _ => assert_eq!((sa, sb), (1500, 1500)),
    }
    // The game's replay is the same; its player pages hold the rating.
    let played = app
        .get(&format!("/api/ink/games/{id}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(played["winners"], end["winners"]);

    // A new game's lobby shows each seat's rating beside its name.
    let body = r#"{"mode":"online","seed":10,"name":"Ann"}"#;
    let (id, _, _) = online_game(&app, body, keys).await;
    let lobby = app
        .get(&format!("/api/ink/games/{id}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(lobby["ratings"]["0"]["rating"], ra[0]["rating"], "{lobby}");
    assert_eq!(lobby["ratings"]["1"]["rating"], rb[0]["rating"], "{lobby}");

    // Made again from the stored results: the same ratings and histories.
    assert_eq!(rebuild(&app).await, 1);
    assert_eq!(ratings(&app, &ann).await, ra);
    assert_eq!(ratings(&app, &bob).await, rb);
}

#[tokio::test]
async fn a_closed_daily_rates_its_ranked_entries_once() {
    let mut app = app_at(TODAY).await;
    let mut players = Vec::new();
    for name in ["Cy", "Dee", "Eve"] {
        let (id, key) = player(&app, name).await;
        let (status, v) = play(&app, "daily-2026-11-26", &key).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let game = v["game"].as_str().unwrap().to_owned();
        let token = v["token"].as_str().unwrap().to_owned();
        play_ink_game(&app, &game, &token).await;
        players.push(id);
    }
    // Open: no rating yet.
    assert_eq!(ratings(&app, &players[0]).await, serde_json::json!([]));

    // The next day the server starts again: the closed daily is rated at once.
    app.config.clock = server::Clock::parse("2026-11-27T10:00:00Z").unwrap();
    app.restart().await;
    let mut rated = Vec::new();
    for _ in 0..200 {
        rated = Vec::new();
        for p in &players {
            rated.push(ratings(&app, p).await);
        }
        if rated
            .iter()
            .all(|r| r.as_array().is_some_and(|a| !a.is_empty()))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for r in &rated {
        assert_eq!(r[0]["game"], "ink", "{r}");
        assert_eq!(r[0]["games"], 1, "{r}");
    }
    // Down the leaderboard the ratings never rise (everyone began equal).
    let board = app
        .get("/api/challenges/daily-2026-11-26", None)
        .await
        .is(StatusCode::OK);
    let order: Vec<i64> = common::each(&board["leaderboard"]["entries"], |e| {
        let name = e["name"].as_str().unwrap();
        let at = ["Cy", "Dee", "Eve"]
            .iter()
            .position(|n| *n == name)
            .unwrap();
        rated[at][0]["rating"].as_i64().unwrap()
    });
    assert_eq!(order.len(), 3, "{board}");
    assert!(order.windows(2).all(|w| w[0] >= w[1]), "{order:?}");

    // Rated once: another start changes nothing; a rebuild gives the same.
    app.restart().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    for (p, r) in players.iter().zip(&rated) {
        assert_eq!(&ratings(&app, p).await, r);
    }
    // Both closed dailies were rated: Railroad Ink's, and Metro's, which nobody entered.
    assert_eq!(rebuild(&app).await, 2);
    for (p, r) in players.iter().zip(&rated) {
        assert_eq!(&ratings(&app, p).await, r);
    }
}

/// The daily's rating update at 100,000 ranked entries: how long the close takes. A measurement
/// (`cargo test --release -p server --test ratings -- --ignored --nocapture`).
#[tokio::test]
#[ignore = "a measurement: run it with --release --ignored --nocapture"]
async fn a_daily_of_100000_entries_is_rated_at_its_close() {
    const N: usize = 100_000;
    let app = app_at(TODAY).await;
    let day = "daily-2026-11-26";
    common::challenge::board(&app, day, None).await;
    server::storage::entries::fill_for_test(&app.config.db, day, N, |i| {
        let i = i as i64;
        (i * 7919 % 120, -(i % 11), 1)
    })
    .await
    .unwrap();
    // Each entry a player of its own.
    let db = app.db().await;
    db.exec_for_test(
        "INSERT INTO players (id, name, token_hash, created)
         SELECT game, 'P' || game, game, 0 FROM entries WHERE challenge = ?1",
        &[day],
    )
    .await
    .unwrap();
    db.exec_for_test(
        "UPDATE entries SET player = game WHERE challenge = ?1",
        &[day],
    )
    .await
    .unwrap();
    let closed = server::Clock::parse("2026-11-27T00:00:01Z")
        .unwrap()
        .now_ms();
    let started = std::time::Instant::now();
    let rated = db
        .rate_closed_challenges(&["daily"], closed, server::ratings::FIELD)
        .await
        .unwrap();
    let took = started.elapsed();
    assert_eq!(rated, 1);
    let one = db.ratings(&format!("{:024x}", 17)).await.unwrap();
    assert_eq!(one.len(), 1);
    println!(
        "a daily of {N} ranked entries rated at its close in {:.2} s",
        took.as_secs_f64()
    );
}
