//! A game played to its end in the page with no connection, sent when the connection returns
//! (`POST /api/{kind}/games/played`): stored as an ordinary game once every action replays (a
//! Railroad Ink solo game; a game of Metro against computers, whose turns the server plays
//! again), its player's like any game made on their device, with the score the page showed; a
//! forged log, or one that is not over, is refused in words and nothing is stored.

mod common;

use common::challenge::player;
use common::{Answer, TestApp};
use hyper::StatusCode;
use railroad_ink::view::you;
use railroad_ink::{Action, Dice, Expansion, Game, Placement, Setup};
use serde_json::{Value, json};

/// A whole solo game as the page plays it (the first legal die, in die order, until none fits;
/// then the round's end), on the dice of `seed`: its log and its final score.
fn solo_log(seed: u64, expansion: Expansion) -> (Vec<Action>, i32) {
    let setup = Setup {
        players: 1,
        dice: Dice::Seed(seed),
    };
    let mut game = Game::with_expansion(setup, expansion);
    let mut log = Vec::new();
    while !game.is_finished() {
        let me = you(&game, 0).expect("seat 0");
        let placement = me
            .dice
            .iter()
            .filter(|d| !d.used && !d.optional)
            .find_map(|d| {
                let (o, squares) = d.legal.iter().enumerate().find(|(_, l)| !l.is_empty())?;
                format!("{}{}{o}", d.tile, &squares[..2])
                    .parse::<Placement>()
                    .ok()
            });
        let action = match placement {
            Some(placement) => Action::Place { placement },
            None => Action::EndRound,
        };
        game.act(0, action).expect("legal");
        log.push(action);
    }
    let score = game.scores()[0].advanced;
    (log, score)
}

async fn send(app: &TestApp, key: Option<&str>, body: Value) -> (StatusCode, Value) {
    app.post("/api/ink/games/played", key, &body.to_string())
        .await
}

#[tokio::test]
async fn a_game_played_in_the_page_is_stored_as_an_ordinary_solo_game_of_its_player() {
    let app = TestApp::start().await;
    let (ada, key) = player(&app, "Ada").await;
    for (seed, expansion, options) in [
        (7_u64, Expansion::None, json!({})),
        (8, Expansion::River, json!({ "expansion": "river" })),
    ] {
        let (log, score) = solo_log(seed, expansion);
        let (status, made) = send(
            &app,
            Some(&key),
            json!({ "seed": seed.to_string(), "name": "Ada", "options": options, "actions": log }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_str().expect("an id");
        let token = made["seats"][0]["token"]
            .as_str()
            .expect("the seat's token");
        let state = app
            .get(&format!("/api/ink/games/{id}"), Some(token))
            .await
            .is(StatusCode::OK);
        assert_eq!(state["finished"], true);
        assert_eq!(state["mode"], "solo");
        assert_eq!(state["players"][0]["name"], "Ada");
        assert_eq!(state["players"][0]["score"]["advanced"], score);
        assert_eq!(state["seed"], seed.to_string());
        assert_eq!(
            state["chosen_seed"]["seed"],
            seed.to_string(),
            "the page chose its dice, as the game says"
        );
        // Its replay scores as the page did.
        let replay = app
            .get(&format!("/api/ink/games/{id}/replay"), None)
            .await
            .is(StatusCode::OK);
        assert_eq!(replay["players"][0]["score"]["advanced"], score);
        assert_eq!(replay["steps"].as_array().map(Vec::len), Some(log.len()));
    }
    // Both are the player's, on their page, with their scores.
    let profile = app
        .get(&format!("/api/players/{ada}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(profile["ink"]["games"], 2, "{profile}");
}

#[tokio::test]
async fn a_forged_or_unfinished_log_is_refused_in_words_and_nothing_is_stored() {
    let app = TestApp::start().await;
    let (log, _) = solo_log(11, Expansion::None);

    // The first placement made twice.
    let mut forged = serde_json::to_value(&log).expect("JSON");
    forged[1] = forged[0].clone();
    let (status, refused) = send(&app, None, json!({ "seed": "11", "actions": forged })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    let words = refused["error"].as_str().expect("in words");
    assert!(
        words.starts_with(&format!("action 2 of {} does not replay: ", log.len())),
        "{words}"
    );
    assert!(
        refused["rule"].as_str().is_some_and(|r| !r.is_empty()),
        "{refused}"
    );

    // The same log on other dice does not replay either.
    let (status, refused) = send(&app, None, json!({ "seed": "12", "actions": log })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");

    // Half a game.
    let half = &log[..log.len() / 2];
    let (status, refused) = send(&app, None, json!({ "seed": "11", "actions": half })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("not over")),
        "{refused}"
    );

    // Nothing of these was kept.
    let recent = app.get("/api/games", None).await.is(StatusCode::OK);
    assert_eq!(
        recent["games"].as_array().map(Vec::len),
        Some(0),
        "{recent}"
    );

    // A game of Metro needs its seats, and a request that is not one.
    let (status, _) = app
        .post(
            "/api/metro/games/played",
            None,
            r#"{"seed":"1","actions":[]}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = send(&app, None, json!({ "seed": "x", "actions": [] })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// A game of Metro as the page plays it with no connection: the person (seat `you`, playing
/// as the greedy computer would) against the strong computer in the other seats, each computer
/// turn the engine's own choice: the person's actions and the final scores.
fn metro_log(seed: u64, seats: usize, you: usize) -> (Vec<metro::Action>, Vec<u32>) {
    let count = metro::PlayerCount::new(seats as u8).expect("2 to 6");
    let mut game = metro::Game::new(metro::Config::new(count), seed);
    let mut mine = Vec::new();
    while let Some(turn) = game.turn() {
        let level = if turn.index() == you {
            "greedy"
        } else {
            "strong"
        };
        let action = metro::view::computer(&game, turn, level).expect("a legal choice");
        game.play(turn, action).expect("legal");
        if turn.index() == you {
            mine.push(action);
        }
    }
    (mine, metro::view::board_view(&game).scores)
}

#[tokio::test]
async fn a_game_of_metro_against_computers_played_in_the_page_is_stored_with_the_computers_turns_played_again()
 {
    let app = TestApp::start().await;
    let (ada, key) = player(&app, "Ada").await;
    let (mine, scores) = metro_log(21, 3, 1);
    let players = json!([
        { "kind": "computer", "level": "strong" },
        { "kind": "human", "name": "Ada" },
        { "kind": "computer", "level": "strong" },
    ]);
    let (on, key) = (&app, key.as_str());
    let metro = |body: Value| async move {
        on.post("/api/metro/games/played", Some(key), &body.to_string())
            .await
    };
    let (status, made) = metro(json!({ "seed": "21", "players": players, "actions": mine })).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["id"].as_str().expect("an id");
    assert_eq!(made["seats"][0]["seat"], 1, "{made}");
    let token = made["seats"][0]["token"]
        .as_str()
        .expect("the seat's token");
    let state = app
        .get(&format!("/api/metro/games/{id}"), Some(token))
        .await
        .is(StatusCode::OK);
    assert_eq!(state["finished"], true, "{state}");
    assert_eq!(state["scores"], json!(scores), "the scores the page showed");
    assert_eq!(state["players"][1]["name"], "Ada");
    assert_eq!(state["players"][0]["kind"], "computer");
    assert_eq!(state["chosen_seed"]["seed"], "21");
    // The person's game, with every seat's turns in its replay.
    let profile = app
        .get(&format!("/api/players/{ada}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(profile["metro"]["games"], 1, "{profile}");
    let replay = app
        .get(&format!("/api/metro/games/{id}/replay"), None)
        .await
        .is(StatusCode::OK);
    let steps = replay["steps"].as_array().map_or(0, Vec::len);
    assert!(
        steps > mine.len(),
        "{steps} steps for {} of the person's",
        mine.len()
    );

    // The person's actions on other draws, with an action too many, or with two people.
    let (status, refused) =
        metro(json!({ "seed": "22", "players": players, "actions": mine })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("does not replay")),
        "{refused}"
    );
    let mut more = serde_json::to_value(&mine).expect("JSON");
    more.as_array_mut().expect("a list").push(json!("draw"));
    let (status, refused) =
        metro(json!({ "seed": "21", "players": players, "actions": more })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let two = json!([{ "kind": "human" }, { "kind": "human" }]);
    let (status, refused) = metro(json!({ "seed": "21", "players": two, "actions": mine })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let profile = app
        .get(&format!("/api/players/{ada}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(
        profile["metro"]["games"], 1,
        "nothing more was kept: {profile}"
    );
}
