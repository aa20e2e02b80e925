//! Replays and the list of recent games against the real app: a replay is the stored action
//! log played again through the engine (each step's board is the engine's board of the
//! actions so far), it opens only once the game is over, and finished games are listed
//! newest first with their results, across a restart.

mod common;

use common::{Answer, TestApp, create, first_legal_die};
use hyper::StatusCode;
use railroad_ink::{Action, Game, Setup};
use serde_json::Value;

async fn state(app: &TestApp, id: &str, token: &str) -> Value {
    app.get(&format!("/api/ink/games/{id}"), Some(token))
        .await
        .is(StatusCode::OK)
}

/// Plays a seat's rounds until the game is over (or, with `rounds`, that many rounds), placing
/// dice at the first legal places; undoes one placement of the first round.
async fn play(app: &TestApp, id: &str, token: &str, rounds: usize) -> Value {
    let mut last = Value::Null;
    for round in 0..rounds {
        // Wait for the others (a computer) to finish the round before.
        let mut s = state(app, id, token).await;
        for _ in 0..500 {
            if s["finished"] == true || s["you"]["round_done"] == false {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            s = state(app, id, token).await;
        }
        if s["finished"] == true {
            return s;
        }
        let mut undone = round != 0;
        while let Some(p) = first_legal_die(&s) {
            let v = app
                .post(
                    &format!("/api/ink/games/{id}/place"),
                    Some(token),
                    &format!(r#"{{"placement":"{p}"}}"#),
                )
                .await
                .is(StatusCode::OK);
            s = v;
            if !undone {
                undone = true;
                let v = app
                    .post(&format!("/api/ink/games/{id}/undo"), Some(token), "")
                    .await
                    .is(StatusCode::OK);
                s = v;
            }
        }
        let v = app
            .post(&format!("/api/ink/games/{id}/end-round"), Some(token), "")
            .await
            .is(StatusCode::OK);
        last = v;
    }
    last
}

fn actions_of(replay: &Value) -> Vec<(usize, Action)> {
    replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["seat"].as_u64().unwrap() as usize,
                serde_json::from_value(s["action"].clone()).unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_solo_replay_is_the_action_log_played_again() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":99,"name":"Ada"}"#).await;
    // Not over: no replay yet.
    app.get(&format!("/api/ink/games/{id}/replay"), None)
        .await
        .is(StatusCode::CONFLICT);
    let last = play(&app, &id, &token, 7).await;
    assert_eq!(last["finished"], true);

    let r = app
        .get(&format!("/api/ink/games/{id}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(r["id"], id.as_str());
    assert_eq!(r["kind"], "ink");
    assert_eq!(r["mode"], "solo");
    assert_eq!(r["seed"], "99");
    assert_eq!(r["rolls"].as_array().unwrap().len(), 7);
    assert_eq!(r["players"][0]["name"], "Ada");
    assert_eq!(r["players"][0]["from_step"], 0);
    assert_eq!(r["winners"], serde_json::json!([0]));
    let final_board = last["players"][0]["board"].as_str().unwrap();
    assert_eq!(
        r["players"][0]["score"],
        serde_json::to_value(railroad_ink::score(final_board).unwrap()).unwrap()
    );

    // Step by step, the engine's game of the actions so far.
    let actions = actions_of(&r);
    assert_eq!(actions.len(), last["version"].as_u64().unwrap() as usize);
    assert!(actions.iter().any(|(_, a)| *a == Action::Undo));
    let setup = Setup {
        players: 1,
        dice: railroad_ink::Dice::Seed(99),
    };
    let steps = r["steps"].as_array().unwrap();
    for k in 1..=actions.len() {
        let game = Game::replay(setup, &actions[..k]).unwrap();
        let step = &steps[k - 1];
        assert_eq!(step["round"], game.round(), "step {k}");
        let board = game.players()[0].board();
        match actions[k - 1].1 {
            Action::Place { .. } | Action::Undo => {
                assert_eq!(step["board"], board.to_string(), "step {k}");
                assert_eq!(
                    step["breakdown"],
                    serde_json::to_value(board.breakdown()).unwrap(),
                    "step {k}"
                );
            }
            _ => assert!(step.get("board").is_none(), "step {k}"),
        }
    }
    let last_board = steps
        .iter()
        .rev()
        .find_map(|s| s["board"].as_str())
        .unwrap();
    assert_eq!(last_board, final_board);

    // Listed as finished, with its result.
    let list = app
        .get("/api/games?finished=true", None)
        .await
        .is(StatusCode::OK);
    let g = &list["games"][0];
    assert_eq!(g["id"], id.as_str());
    assert_eq!(g["kind"], "ink");
    assert_eq!(g["mode"], "solo");
    assert_eq!(g["players"][0]["name"], "Ada");
    assert_eq!(
        g["players"][0]["score"],
        last["players"][0]["score"]["advanced"]
    );
    assert_eq!(g["winners"], serde_json::json!([0]));
    assert!(g["finished"].as_i64().unwrap() >= g["created"].as_i64().unwrap());
}

#[tokio::test]
async fn a_computer_game_and_an_online_game_with_a_join_in_the_lobby() {
    let app = TestApp::start().await;
    let (cid, ctoken) = create(
        &app,
        r#"{"mode":"computer","seed":5,"agent":"greedy","name":"Me"}"#,
    )
    .await;
    play(&app, &cid, &ctoken, 7).await;
    // The computer plays each round as it starts; wait for the game to end.
    let mut over = false;
    for _ in 0..200 {
        if state(&app, &cid, &ctoken).await["finished"] == true {
            over = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(over);
    let r = app
        .get(&format!("/api/ink/games/{cid}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(r["players"].as_array().unwrap().len(), 2);
    assert_eq!(r["players"][1]["kind"], "computer");
    assert_eq!(r["players"][1]["level"], "greedy");
    let seats: std::collections::BTreeSet<u64> = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats.into_iter().collect::<Vec<_>>(), [0, 1]);

    // Online: the second player joins in the lobby, then the creator starts the game.
    let body = r#"{"mode":"online","seed":6,"name":"Ann"}"#;
    let (oid, otoken, btoken) = common::online_game(&app, body, [None, None]).await;
    for _ in 0..7 {
        play(&app, &oid, &otoken, 1).await;
        play(&app, &oid, &btoken, 1).await;
    }
    assert_eq!(state(&app, &oid, &otoken).await["finished"], true);
    let r = app
        .get(&format!("/api/ink/games/{oid}/replay"), None)
        .await
        .is(StatusCode::OK);
    let join_step = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["action"]["action"] == "join")
        .unwrap();
    assert_eq!(r["players"][1]["name"], "Bob");
    assert_eq!(r["players"][1]["from_step"], join_step + 1);
    assert_eq!(r["steps"][join_step]["round"], 0);
    // The lobby's start is no step of the replay: the first step after the join is a placement.
    assert_eq!(r["steps"][join_step + 1]["action"]["action"], "place");

    // Newest first; by kind; a page at a time.
    let (_, list) = app.get("/api/games?finished=true&kind=ink", None).await;
    let ids: Vec<&str> = common::each(&list["games"], |g| g["id"].as_str().unwrap());
    assert_eq!(ids, [oid.as_str(), cid.as_str()]);
    let (_, page) = app.get("/api/games?limit=1", None).await;
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    let next = page["next"].as_str().unwrap();
    let (_, page2) = app
        .get(&format!("/api/games?limit=1&before={next}"), None)
        .await;
    assert_eq!(page2["games"][0]["id"], cid.as_str());
    let (_, none) = app.get("/api/games?kind=metro", None).await;
    assert_eq!(none["games"], serde_json::json!([]));
}

#[tokio::test]
async fn refusals_and_a_restart() {
    let mut app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":3}"#).await;
    for path in [
        "/api/ink/games/0123456789abcdef01234567/replay",
        "/api/ink/games/nope/replay",
    ] {
        let (status, v) = app.get(path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {v}");
    }
    for query in [
        "finished=false",
        "kind=chess",
        "limit=0",
        "limit=101",
        "limit=x",
        "before=soon",
        "colour=red",
    ] {
        let (status, v) = app.get(&format!("/api/games?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let list = app.get("/api/games", None).await.is(StatusCode::OK);
    assert_eq!(list["games"], serde_json::json!([]));

    play(&app, &id, &token, 7).await;
    app.restart().await;
    let (_, list) = app.get("/api/games?finished=true", None).await;
    assert_eq!(list["games"][0]["id"], id.as_str());
    app.get(&format!("/api/ink/games/{id}/replay"), None)
        .await
        .is(StatusCode::OK);
}

#[tokio::test]
async fn a_metro_replay_is_its_action_log_played_again() {
    let app = TestApp::start().await;
    let v = app.post("/api/metro/games", None, r#"{"players":[{"kind":"computer","level":"random","name":"Rae"},{"kind":"computer","level":"greedy","name":"Gus"},{"kind":"human","name":"Hu"}],"seed":12}"#).await.is(StatusCode::CREATED);
    let id = v["id"].as_str().unwrap().to_owned();
    let token = v["seats"][0]["token"].as_str().unwrap().to_owned();
    let path = format!("/api/metro/games/{id}");
    let mut last = Value::Null;
    for _ in 0..4000 {
        let (_, s) = app.get(&path, Some(&token)).await;
        if s["finished"] == true {
            last = s;
            break;
        }
        if s["you"]["your_turn"] != true {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        }
        // The person: draw if there is nothing to place, then the first legal square.
        let legal = s["you"]["legal"].as_str().unwrap_or("");
        let (status, v) = if legal.len() >= 2 {
            let body = format!(r#"{{"square":"{}"}}"#, &legal[..2]);
            app.post(&format!("{path}/place"), Some(&token), &body)
                .await
        } else {
            app.post(&format!("{path}/draw"), Some(&token), "").await
        };
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    assert_eq!(last["finished"], true, "the game is played to its end");

    let r = app
        .get(&format!("{path}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(r["kind"], "metro");
    assert_eq!(r["seed"], "12");
    assert_eq!(r["players"][0]["name"], "Rae");
    assert_eq!(r["players"][1]["level"], "greedy");
    assert_eq!(r["scores"], last["scores"]);
    assert_eq!(r["winners"], last["winners"]);
    let steps = r["steps"].as_array().unwrap();
    // Every placement in order rebuilds the game's sequence; each placement's scores are the
    // engine's for the sequence so far.
    let mut sequence = String::new();
    for step in steps {
        for event in step["events"].as_array().unwrap() {
            if event["event"] == "placed" {
                sequence.push_str(event["placement"].as_str().unwrap());
                let board = metro::Board::from_sequence(&sequence.parse().unwrap()).unwrap();
                let scores = metro::scores(&board, metro::PlayerCount::new(3).unwrap());
                assert_eq!(step["scores"], serde_json::json!(scores));
            }
        }
        assert_eq!(step["hands"].as_array().unwrap().len(), 3);
    }
    assert_eq!(sequence, last["sequence"].as_str().unwrap());
    assert!(steps.iter().any(|s| s["events"][0]["event"] == "drew"));

    // Listed with its result, under Metro.
    let (_, list) = app.get("/api/games?kind=metro", None).await;
    let g = &list["games"][0];
    assert_eq!(g["id"], id.as_str());
    assert_eq!(g["kind"], "metro");
    assert_eq!(g["players"][1]["name"], "Gus");
    assert_eq!(g["players"][1]["score"], last["scores"][1]);
    assert!(g["players"][1].get("errors").is_none());
    // Not a Railroad Ink game.
    app.get(&format!("/api/ink/games/{id}/replay"), None)
        .await
        .is(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn games_finished_before_results_were_kept_are_listed_after_the_upgrade() {
    let mut app = TestApp::start().await;
    if !app.on_sqlite() {
        eprintln!("skipped on PostgreSQL: only SQLite databases of version 1 exist");
        return;
    }
    let (id, token) = create(&app, r#"{"mode":"solo","seed":17,"name":"Old"}"#).await;
    let last = play(&app, &id, &token, 7).await;
    assert_eq!(last["finished"], true);
    let (open, _) = create(&app, r#"{"mode":"solo","seed":18}"#).await;
    // Turn the database back into a version-1 one: no finish times, no results.
    app.stop().await;
    {
        let conn = rusqlite::Connection::open(&app.db).unwrap();
        conn.execute_batch(
            "DROP INDEX games_by_finish;
             DROP INDEX seats_by_player;
             DROP TABLE entry_scores; DROP TABLE entries; DROP TABLE challenges;
             DROP TABLE players; DROP TABLE meta;
             ALTER TABLE seats DROP COLUMN player;
             ALTER TABLE games DROP COLUMN challenge;
             ALTER TABLE games DROP COLUMN result;
             ALTER TABLE games DROP COLUMN finished;
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    app.restart().await;
    // The results are recorded in the background, from the action logs.
    let mut listed = Value::Null;
    for _ in 0..200 {
        let (_, list) = app.get("/api/games", None).await;
        if !list["games"].as_array().unwrap().is_empty() {
            listed = list;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let games = listed["games"]
        .as_array()
        .expect("the finished game is listed");
    assert_eq!(games.len(), 1, "only the finished game, not {open}");
    assert_eq!(games[0]["id"], id.as_str());
    assert_eq!(
        games[0]["players"][0]["score"],
        last["players"][0]["score"]["advanced"]
    );
}
