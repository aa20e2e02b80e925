//! A person who resigns (or leaves) a game: the computer plays their seat to the end, marked as
//! such in the state (after a restart too); they act no more; in a rated game they place last.

mod common;

use common::challenge::{TODAY, app_at, play_ink_round, player};
use common::{Answer, TestApp, online_game};
use hyper::StatusCode;
use serde_json::Value;

/// A player's page.
async fn page(app: &TestApp, player: &str) -> Value {
    app.get(&format!("/api/players/{player}"), None)
        .await
        .is(StatusCode::OK)
}

#[tokio::test]
async fn the_computer_plays_a_resigned_seat_to_the_end_and_it_places_last() {
    let mut app = app_at(TODAY).await;
    let (ann, ann_key) = player(&app, "Ann").await;
    let (bob, bob_key) = player(&app, "Bob").await;
    let body = r#"{"mode":"online","seed":21,"name":"Ann","rated":true}"#;
    let (id, a, b) = online_game(&app, body, [Some(&ann_key), Some(&bob_key)]).await;
    let path = format!("/api/ink/games/{id}");
    play_ink_round(&app, &id, &a).await;
    play_ink_round(&app, &id, &b).await;

    // A wrong token resigns nothing.
    let (status, _) = app.post(&format!("{path}/resign"), Some("nope"), "").await;
    assert!(status.is_client_error(), "{status}");
    // Bob resigns: the state says so, and Bob acts no more.
    let s = app
        .post(&format!("{path}/resign"), Some(&b), "")
        .await
        .is(StatusCode::OK);
    assert_eq!(s["resigned"], serde_json::json!([1]), "{s}");
    let (status, v) = app.post(&format!("{path}/end-round"), Some(&b), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("you resigned"), "{v}");
    let (status, v) = app.post(&format!("{path}/resign"), Some(&b), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");

    // Ann plays on; the computer plays Bob's rounds, and the game ends.
    let mut last = Value::Null;
    for _ in 1..7 {
        last = play_ink_round(&app, &id, &a).await;
    }
    for _ in 0..200 {
        if last["finished"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        last = app.get(&path, Some(&a)).await.is(StatusCode::OK);
    }
    assert_eq!(last["finished"], true, "{last}");
    // Whoever scored more, the one who stayed wins.
    assert_eq!(last["winners"], serde_json::json!([0]), "{last}");
    // The replay marks what the computer played for Bob, and nothing of Ann's.
    let replay = app
        .get(&format!("{path}/replay"), None)
        .await
        .is(StatusCode::OK);
    let marked: Vec<u64> = (replay["steps"].as_array().unwrap().iter())
        .filter(|s| s["stand_in"] == true)
        .map(|s| s["seat"].as_u64().unwrap())
        .collect();
    assert!(
        !marked.is_empty() && marked.iter().all(|&s| s == 1),
        "{replay}"
    );
    let (status, v) = app.post(&format!("{path}/resign"), Some(&a), "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");

    // Rated: whoever scored more, Bob places last. The computer's play counts in no record
    // of Bob's; Ann's game counts in hers.
    let (ann_page, bob_page) = (page(&app, &ann).await, page(&app, &bob).await);
    // The finished game's own state shows the ratings after it, as the players' pages do.
    let rating = |page: &Value| page["ratings"][0]["rating"].clone();
    let seen = common::poll(
        200,
        || async { app.get(&path, Some(&a)).await.1 },
        |s| s["ratings"]["0"]["rating"] == rating(&ann_page),
    )
    .await;
    assert_eq!(seen["ratings"]["1"]["rating"], rating(&bob_page), "{seen}");
    assert!(ann_page["ratings"][0]["rating"].as_i64().unwrap() > 1500);
    assert!(bob_page["ratings"][0]["rating"].as_i64().unwrap() < 1500);
    assert_eq!(bob_page["bests"].as_array().unwrap().len(), 0);
    assert_eq!(ann_page["bests"].as_array().unwrap().len(), 1);

    // Alone, or in a challenge, nobody stands in.
    let (solo, token) = common::create(&app, r#"{"mode":"solo","seed":3}"#).await;
    let (status, v) = app
        .post(&format!("/api/ink/games/{solo}/resign"), Some(&token), "")
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (status, v) = common::challenge::play(&app, "daily-2026-11-26", &ann_key).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (game, seat) = (v["game"].as_str().unwrap(), v["token"].as_str().unwrap());
    let (status, v) = app
        .post(&format!("/api/ink/games/{game}/resign"), Some(seat), "")
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("challenge"), "{v}");

    // The resign is in the log: a restarted server reads it back.
    app.restart().await;
    let s = app.get(&path, None).await.is(StatusCode::OK);
    assert_eq!(s["resigned"], serde_json::json!([1]), "{s}");
}
