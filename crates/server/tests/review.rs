//! `GET /api/ink/games/{id}/review?seat=k` against the real app: `409` while the game goes
//! on, the review's shape once it is over (the same each time, kept in storage), the
//! computer's seat reviewed too, and `403` for a game an open challenge hides.

mod common;

use common::TestApp;
use common::challenge::{TODAY, TOMORROW, app_at, board, play_ink_game, wait_for_computer};
use common::create;
use hyper::StatusCode;
use railroad_ink::{Board, Placement, check_move};
use serde_json::Value;

fn placements(text: &str) -> Vec<Placement> {
    (0..text.len())
        .step_by(5)
        .map(|i| text[i..i + 5].parse().unwrap())
        .collect()
}

/// Checks a review's shape, and that each `best` is a legal round on the seat's board before
/// it with that round's roll only.
fn check_review(v: &Value, seat: usize, rolls: &[railroad_ink::Roll]) {
    assert_eq!(v["seat"], seat, "{v}");
    let rounds = v["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), 7, "{v}");
    let mut board = Board::new();
    let mut total = 0.0;
    for (i, r) in rounds.iter().enumerate() {
        assert_eq!(r["round"], i + 1, "{r}");
        let (played, best) = (r["played"].as_str().unwrap(), r["best"].as_str().unwrap());
        let (vp, vb, loss) = (
            r["value_played"].as_f64().unwrap(),
            r["value_best"].as_f64().unwrap(),
            r["loss"].as_f64().unwrap(),
        );
        assert!(loss >= 0.0 && (vb - vp - loss).abs() < 0.011, "{r}");
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"]
                .contains(&r["label"].as_str().unwrap()),
            "{r}"
        );
        check_move(&board, &rolls[i], &placements(best)).unwrap_or_else(|e| panic!("{r}: {e}"));
        for p in placements(played) {
            board.place(p).unwrap();
        }
        total += loss;
    }
    assert!((v["loss"].as_f64().unwrap() - total).abs() < 0.05, "{v}");
}

#[tokio::test]
async fn a_finished_games_seats_are_reviewed_once_and_kept() {
    let app = TestApp::start().await;
    let (id, token) = create(
        &app,
        r#"{"mode":"computer","seed":7,"name":"Ada","agent":"greedy"}"#,
    )
    .await;
    let path = format!("/api/ink/games/{id}/review");
    let (status, v) = app.get(&format!("{path}?seat=0"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].is_string(), "{v}");

    play_ink_game(&app, &id, &token).await;
    let rolls = railroad_ink::Dice::Seed(7).rolls();
    assert!(app.storage().review(&id, 0).await.unwrap().is_none());
    let (status, first) = app.get(&format!("{path}?seat=0"), None).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    check_review(&first, 0, &rolls);
    assert!(app.storage().review(&id, 0).await.unwrap().is_some());
    // Kept: the same review again, and without `seat` it is seat 0's.
    let (status, again) = app.get(&path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, first);
    // The computer's seat, greedy: reviewed as well.
    let (status, computer) = app.get(&format!("{path}?seat=1"), Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{computer}");
    check_review(&computer, 1, &rolls);
    assert!(computer["loss"].as_f64().unwrap() > 0.0, "{computer}");

    for (query, want) in [
        ("?seat=2", StatusCode::NOT_FOUND),
        ("?seat=x", StatusCode::BAD_REQUEST),
        ("?seed=1", StatusCode::BAD_REQUEST),
    ] {
        let (status, v) = app.get(&format!("{path}{query}"), None).await;
        assert_eq!(status, want, "{query}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (status, _) = app
        .get("/api/ink/games/0123456789abcdef01234567/review", None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_open_challenges_game_has_no_review_for_others() {
    let mut app = app_at(TODAY).await;
    wait_for_computer(&app, "daily-2026-11-26").await;
    // The computer's game is named once the challenge has closed (the next day).
    app.config.clock = server::Clock::parse(TOMORROW).unwrap();
    app.restart().await;
    let game = board(&app, "daily-2026-11-26", None).await["leaderboard"]["computer"]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/ink/games/{game}/review?seat=0");
    let (status, v) = app.get(&path, None).await;
    assert_eq!(status, StatusCode::OK, "closed: everyone's: {v}");
    app.config.clock = server::Clock::parse(TODAY).unwrap();
    app.restart().await;
    let (status, v) = app.get(&path, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert!(v["error"].is_string(), "{v}");
}
