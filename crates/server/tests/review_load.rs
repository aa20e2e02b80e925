//! Reviews cost what they should: however many are asked for at once, they wait in a queue of
//! their own, after the computer opponents, holding no admission place; other requests keep
//! answering and a computer's round keeps its pace. (A test binary of its own: nothing else
//! runs beside it.)

mod common;

use std::time::{Duration, Instant};

use common::TestApp;
use common::challenge::{ink_state, play_ink_game, play_ink_round};
use common::create;
use hyper::StatusCode;

/// Finished solo games, each with a review still to compute.
async fn finished_games(app: &TestApp, n: u64) -> Vec<String> {
    let mut games = Vec::new();
    for seed in 0..n {
        let (id, token) = create(app, &format!(r#"{{"mode":"solo","seed":{seed}}}"#)).await;
        play_ink_game(app, &id, &token).await;
        games.push(id);
    }
    games
}

#[tokio::test]
async fn three_hundred_reviews_held_leave_room_for_everyone_else() {
    let app = TestApp::start().await;
    let games = finished_games(&app, 6).await;
    // 300 review requests at once, 50 for each game, each on a connection of its own.
    let mut held = Vec::new();
    for i in 0..300 {
        let (addr, path) = (
            app.addr,
            format!("/api/ink/games/{}/review?seat=0", games[i % games.len()]),
        );
        held.push(tokio::spawn(async move {
            let mut client = common::Client::connect(addr).await;
            client.call("GET", &path, None, None).await.0
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Other requests answer at once, one after another.
    for path in ["/api/ink/tiles", "/api/challenges/current", "/api/games"] {
        for _ in 0..5 {
            let started = Instant::now();
            let (status, v) = app.get(path, None).await;
            assert_eq!(status, StatusCode::OK, "{path}: {v}");
            let took = started.elapsed();
            assert!(took < Duration::from_secs(1), "{path} took {took:?}");
        }
    }

    // A computer opponent's round is played in its usual time.
    let (id, token) = create(&app, r#"{"mode":"computer","seed":11,"name":"Ada"}"#).await;
    let first = ink_state(&app, &id, Some(&token)).await.1["round"].clone();
    play_ink_round(&app, &id, &token).await;
    let ended = Instant::now();
    loop {
        let (_, s) = ink_state(&app, &id, Some(&token)).await;
        if s["round"] != first {
            break;
        }
        let took = ended.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "the computer's round took {took:?}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Every review is answered in the end (or refused as busy, never failed).
    let mut answered = 0;
    for task in held {
        let status = task.await.unwrap();
        assert!(
            status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
            "{status}"
        );
        answered += usize::from(status == StatusCode::OK);
    }
    assert!(answered >= games.len(), "{answered} reviews answered");
}
