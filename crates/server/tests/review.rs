//! `GET /api/{ink,metro}/games/{id}/review?seat=k` against the real app: `409` while the game
//! goes on, the review's shape once it is over (the same each time, kept in storage), the
//! computer's seat reviewed too, and `403` for a game an open challenge hides; every step
//! labelled on the one scale with a reason in words, the seat's final score, games of the lake
//! and the river reviewed by their own rules, and a review kept by older code still served.

mod common;

use common::TestApp;
use common::challenge::{
    TODAY, TOMORROW, app_at, board, play_ink_game, play_metro_game, wait_for_computer,
};
use common::create;
use hyper::StatusCode;
use railroad_ink::{Board, Expansion, Placement, check_move};
use review_scale::Label;
use serde_json::Value;

fn placements(text: &str) -> Vec<Placement> {
    (0..text.len())
        .step_by(5)
        .map(|i| text[i..i + 5].parse().unwrap())
        .collect()
}

/// Checks a reviewed step (a Railroad Ink round, a Metro decision): its loss is the value of
/// the best move less the played one's, its label the one scale's for that loss, and it has a
/// reason in words (that the move played was as good exactly when it is the best); returns
/// the loss.
fn check_step(step: &Value) -> f64 {
    let (vp, vb, loss) = (
        step["value_played"].as_f64().unwrap(),
        step["value_best"].as_f64().unwrap(),
        step["loss"].as_f64().unwrap(),
    );
    assert!(loss >= 0.0 && (vb - vp - loss).abs() < 0.011, "{step}");
    assert_eq!(step["label"], Label::of(loss).as_str(), "{step}");
    let reason = &step["reason"];
    let text = reason["text"].as_str().expect("a reason in words");
    assert!(text.len() > 20 && text.ends_with('.'), "{step}");
    assert!(
        !text
            .as_bytes()
            .windows(2)
            .any(|w| w[0] == b'-' && w[1].is_ascii_digit()),
        "a minus sign for people, never a hyphen-minus before a number: {step}"
    );
    let as_good = ["same", "as_good"].contains(&reason["kind"].as_str().unwrap());
    assert_eq!(as_good, step["best"] == step["played"], "{step}");
    if let Some(points) = reason["points"].as_i64() {
        assert!(points > 0, "{step}");
    }
    loss
}

/// Checks a review's shape, and that each `best` is a legal round on the seat's board before
/// it with that round's roll only.
fn check_review(v: &Value, seat: usize, rolls: &[railroad_ink::Roll]) {
    check_review_in(Expansion::None, v, seat, rolls);
}

/// [`check_review`] of a game of `expansion`: its rounds, its dice, its rules; and the final
/// score is the board's.
fn check_review_in(expansion: Expansion, v: &Value, seat: usize, rolls: &[railroad_ink::Roll]) {
    assert_eq!(v["seat"], seat, "{v}");
    let rounds = v["rounds"].as_array().expect("rounds");
    assert_eq!(rounds.len(), expansion.rounds(), "{v}");
    let mut board = Board::with_expansion(expansion);
    let mut total = 0.0;
    for (i, r) in rounds.iter().enumerate() {
        assert_eq!(r["round"], i + 1, "{r}");
        let (played, best) = (r["played"].as_str().unwrap(), r["best"].as_str().unwrap());
        let loss = check_step(r);
        check_move(&board, &rolls[i], &placements(best)).unwrap_or_else(|e| panic!("{r}: {e}"));
        assert!(
            placements(best).iter().all(|p| expansion.allows(p.tile)),
            "{r}"
        );
        for p in placements(played) {
            board.place(p).unwrap();
        }
        let flooded: Vec<String> = railroad_ink::square::squares_of(board.flooded())
            .map(|s| s.to_string())
            .collect();
        let listed: Vec<String> = r["flooded"]
            .as_array()
            .map(|a| a.iter().map(|s| s.as_str().unwrap().to_owned()).collect())
            .unwrap_or_default();
        assert_eq!(listed, flooded, "{r}");
        total += loss;
    }
    assert!((v["loss"].as_f64().unwrap() - total).abs() < 0.05, "{v}");
    assert_eq!(
        v["score"],
        board.score().advanced,
        "the seat's final score: {v}"
    );
    let last = rounds.last().unwrap();
    assert_eq!(
        last["value_played"].as_f64().unwrap(),
        f64::from(board.score().advanced),
        "after the last round the estimate is the score: {v}"
    );
}

#[tokio::test]
async fn games_of_the_lake_and_the_river_are_reviewed_by_their_own_rules() {
    let app = TestApp::start().await;
    for (expansion, seed) in [(Expansion::Lake, 3), (Expansion::River, 5)] {
        let (id, token) = create(
            &app,
            &format!(r#"{{"mode":"solo","seed":{seed},"name":"Ada","expansion":"{expansion}"}}"#),
        )
        .await;
        play_ink_game(&app, &id, &token).await;
        let rolls = railroad_ink::Dice::Seed(seed).rolls_in(expansion);
        let (status, v) = app
            .get(&format!("/api/ink/games/{id}/review?seat=0"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{expansion}: {v}");
        check_review_in(expansion, &v, 0, &rolls);
        // The seat placed the expansion's dice wherever they fitted: its tiles are reviewed.
        let played: String = v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["played"].as_str().unwrap())
            .collect();
        let letter = if expansion == Expansion::Lake {
            'L'
        } else {
            'V'
        };
        assert!(played.contains(letter), "{expansion}: {played}");
    }
}

#[tokio::test]
async fn a_review_kept_by_older_code_is_served_on_the_one_scale() {
    let app = TestApp::start().await;
    let (id, token) = create(
        &app,
        r#"{"mode":"computer","seed":7,"name":"Ada","agent":"greedy"}"#,
    )
    .await;
    play_ink_game(&app, &id, &token).await;
    // Kept before labels were one scale and before reasons: a loss of 9.97 (shown as 10.0)
    // labelled a mistake, as Metro's old scale did, and no reason, no score.
    let old = r#"{"seat":0,"rounds":[{"round":1,"played":"A4A10","best":"A4A10","value_played":12.5,"value_best":12.5,"loss":0.0,"label":"best"},{"round":2,"played":"A4B10","best":"A4B10","value_played":2.53,"value_best":12.5,"loss":9.97,"label":"mistake"}],"loss":9.97}"#;
    app.storage()
        .set_review(&id, 0, old.to_owned())
        .await
        .unwrap();
    let (status, v) = app
        .get(&format!("/api/ink/games/{id}/review?seat=0"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rounds"][1]["label"], "blunder", "{v}");
    assert_eq!(v["rounds"][0]["label"], "best", "{v}");
    assert!(
        v["rounds"][1].get("reason").is_none(),
        "served as kept: {v}"
    );
    assert_eq!(v["loss"], 9.97);
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

/// Checks a Metro review's shape, and that each decision's `best` is legal where it was taken.
fn check_metro_review(v: &Value, seat: usize, replayed: &metro::Game) {
    assert_eq!(v["seat"], seat, "{v}");
    let decisions = v["decisions"].as_array().expect("decisions");
    assert!(decisions.len() >= 10, "{v}");
    let mut total = 0.0;
    for d in decisions {
        let index = d["index"].as_u64().unwrap() as usize;
        let before = metro::Game::replay(
            replayed.config(),
            replayed.seed(),
            &replayed.actions()[..index],
        )
        .unwrap();
        assert_eq!(before.turn().map(|p| p.index()), Some(seat), "{d}");
        assert_eq!(d["placed"], before.placements().len(), "{d}");
        let best: metro::Action = serde_json::from_value(d["best"].clone()).unwrap();
        let played: metro::Action = serde_json::from_value(d["played"].clone()).unwrap();
        assert_eq!(played, replayed.actions()[index], "{d}");
        assert!(before.legal_actions().contains(&best), "{d}");
        let loss = check_step(d);
        if d["reason"]["kind"] == "gives" || d["reason"]["kind"] == "closes" {
            // An opponent's line: named by the opponent's name, never the seat's own.
            assert!(
                !d["reason"]["text"].as_str().unwrap().contains("your line"),
                "{d}"
            );
        }
        total += loss;
    }
    assert!((v["loss"].as_f64().unwrap() - total).abs() < 0.011, "{v}");
    let scores = replayed.scores();
    assert_eq!(v["score"], scores[seat], "{v}");
    let other = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat)
        .map(|(_, &s)| i64::from(s))
        .max()
        .unwrap();
    assert_eq!(v["margin"], i64::from(scores[seat]) - other, "{v}");
}

#[tokio::test]
async fn a_finished_metro_games_seats_are_reviewed_decision_by_decision() {
    let app = TestApp::start().await;
    let (status, made) = app
        .post(
            "/api/metro/games",
            None,
            r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"computer","level":"greedy"}],"seed":4}"#,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let token = made["seats"][0]["token"].as_str().unwrap().to_owned();
    let path = format!("/api/metro/games/{id}/review");
    let (status, v) = app.get(&format!("{path}?seat=0"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("review"), "{v}");
    play_metro_game(&app, &id, &token).await;

    // The game as the engine plays it again, from its replay's actions.
    let (status, replay) = app
        .get(&format!("/api/metro/games/{id}/replay"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let seed: u64 = match &replay["seed"] {
        Value::String(s) => s.parse().unwrap(),
        other => other.as_u64().unwrap(),
    };
    let stored = app.storage().load_game(&id).await.unwrap().unwrap();
    let actions: Vec<metro::Action> = stored
        .actions
        .iter()
        .map(|a| serde_json::from_str(&a.action).unwrap())
        .collect();
    let players = metro::PlayerCount::new(2).unwrap();
    let replayed = metro::Game::replay(metro::Config::new(players), seed, &actions).unwrap();

    let (status, first) = app.get(&format!("{path}?seat=0"), None).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    check_metro_review(&first, 0, &replayed);
    assert!(app.storage().review(&id, 0).await.unwrap().is_some());
    assert_eq!(
        app.get(&path, None).await.1,
        first,
        "kept, and seat 0 by default"
    );
    // The greedy computer's seat loses points (it finishes its lines short).
    let (status, computer) = app.get(&format!("{path}?seat=1"), None).await;
    assert_eq!(status, StatusCode::OK, "{computer}");
    check_metro_review(&computer, 1, &replayed);
    assert!(computer["loss"].as_f64().unwrap() > 5.0, "{computer}");
    let (status, v) = app.get(&format!("{path}?seat=2"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
}
