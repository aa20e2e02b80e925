//! The lobby of an online Railroad Ink game: players join until its creator starts it; every
//! status of `POST /api/ink/games/{id}/start`, the refusals before and after the start, games
//! that start at once (solo, against the computer), and a start that survives a restart.

mod common;

use common::{Answer, TestApp, create, first_legal_die, place};
use hyper::StatusCode;
use serde_json::Value;

async fn state(app: &TestApp, id: &str, token: Option<&str>) -> Value {
    app.get(&format!("/api/ink/games/{id}"), token)
        .await
        .is(StatusCode::OK)
}

async fn start(app: &TestApp, id: &str, token: Option<&str>) -> (StatusCode, Value) {
    app.post(&format!("/api/ink/games/{id}/start"), token, "")
        .await
}

/// A refusal in the API's one shape: `{"error": words}`, no rule (it is not the engine's).
fn assert_refusal(v: &Value, words: &str) {
    let text = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {v}"));
    assert!(text.contains(words), "{text:?} should say {words:?}");
    assert!(v.get("rule").is_none(), "{v}");
}

#[tokio::test]
async fn an_online_game_waits_in_its_lobby_until_its_creator_starts_it() {
    let app = TestApp::start().await;
    let (id, ann) = create(&app, r#"{"mode":"online","seed":11,"name":"Ann"}"#).await;
    let s = state(&app, &id, Some(&ann)).await;
    assert_eq!(s["started"], false);
    assert_eq!(s["round"], 0);
    assert_eq!(s["dice"], serde_json::json!([]), "no dice before the start");
    assert!(s.get("roll").is_none_or(Value::is_null), "{s}");
    assert_eq!(s["you"]["dice"], serde_json::json!([]));
    assert_eq!(s["you"]["end_round"]["allowed"], false);
    assert_eq!(s["you"]["end_round"]["rule"], "not started");
    assert!(
        s["you"]["specials"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["allowed"] == false)
    );

    // A friend joins; the creator still cannot play: 409 for a placement, the end of a round,
    // an undo or a hint.
    let (status, v) = common::join(&app, &id, "Bob").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let bob = v["token"].as_str().unwrap().to_owned();
    let (status, v) = place(&app, &id, &ann, "A1A10").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_refusal(&v, "has not started yet");
    assert_refusal(&v, "Ann");
    for (method, what) in [("POST", "end-round"), ("POST", "undo"), ("GET", "hint")] {
        let (status, v) = app
            .call(
                method,
                &format!("/api/ink/games/{id}/{what}"),
                Some(&bob),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{what}: {v}");
        assert_refusal(&v, "has not started yet");
    }

    // Only the creator starts it: no token 401, a token of nobody's 403, another seat's 403.
    let (status, v) = start(&app, &id, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
    let (status, v) = start(&app, &id, Some(&"0".repeat(64))).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, v) = start(&app, &id, Some(&bob)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert_refusal(&v, "only the game's creator (Ann) can start it");
    let (status, v) = start(&app, "0123456789abcdef01234567", Some(&ann)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    assert_eq!(state(&app, &id, None).await["started"], false);

    let version = state(&app, &id, None).await["version"].as_u64().unwrap();
    let (status, v) = start(&app, &id, Some(&ann)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["started"], true);
    assert_eq!(v["you"]["seat"], 0);
    assert_eq!(v["dice"].as_array().unwrap().len(), 4);
    assert_eq!(v["version"].as_u64().unwrap(), version + 1);

    // Twice: 409. A join after the start: 409 (the link now lets people watch).
    let (status, v) = start(&app, &id, Some(&ann)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_refusal(&v, "already started");
    let (status, v) = common::join(&app, &id, "Cy").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_refusal(&v, "has started");
    let watched = state(&app, &id, None).await;
    assert_eq!(watched["players"].as_array().unwrap().len(), 2);
    assert!(watched.get("you").is_none());
    assert_eq!(watched["dice"], v_dice(&app, &id, &bob).await);

    // Now both play the same rolls.
    for token in [&ann, &bob] {
        let s = state(&app, &id, Some(token)).await;
        let p = first_legal_die(&s).unwrap();
        let (status, v) = place(&app, &id, token, &p).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

async fn v_dice(app: &TestApp, id: &str, token: &str) -> Value {
    state(app, id, Some(token)).await["dice"].clone()
}

#[tokio::test]
async fn solo_and_computer_games_start_at_once() {
    let app = TestApp::start().await;
    for body in [
        r#"{"mode":"solo","seed":3}"#,
        r#"{"mode":"computer","seed":3,"agent":"greedy"}"#,
    ] {
        let (id, token) = create(&app, body).await;
        let s = state(&app, &id, Some(&token)).await;
        assert_eq!(s["started"], true, "{body}");
        assert_eq!(s["dice"].as_array().unwrap().len(), 4);
        let (status, v) = place(&app, &id, &token, &first_legal_die(&s).unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // There is nothing to start: 409.
        let (status, v) = start(&app, &id, Some(&token)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}: {v}");
        assert_refusal(&v, "only an online game has a lobby");
    }
}

#[tokio::test]
async fn the_start_is_in_the_log_and_survives_a_restart() {
    let mut app = TestApp::start().await;
    let (waiting, wa) = create(&app, r#"{"mode":"online","seed":21,"name":"Wu"}"#).await;
    let (going, ga) = create(&app, r#"{"mode":"online","seed":22,"name":"Gil"}"#).await;
    let (_, v) = common::join(&app, &going, "Hal").await;
    let gb = v["token"].as_str().unwrap().to_owned();
    assert_eq!(start(&app, &going, Some(&ga)).await.0, StatusCode::OK);
    let s = state(&app, &going, Some(&ga)).await;
    let p = first_legal_die(&s).unwrap();
    assert_eq!(place(&app, &going, &ga, &p).await.0, StatusCode::OK);
    let before = [
        state(&app, &waiting, Some(&wa)).await,
        state(&app, &going, Some(&ga)).await,
        state(&app, &going, Some(&gb)).await,
    ];

    app.restart().await;
    let after = [
        state(&app, &waiting, Some(&wa)).await,
        state(&app, &going, Some(&ga)).await,
        state(&app, &going, Some(&gb)).await,
    ];
    assert_eq!(before, after);
    assert_eq!(after[0]["started"], false);
    assert_eq!(after[1]["started"], true);
    // The game in the lobby still takes players and starts; the started one refuses both.
    assert_eq!(
        common::join(&app, &waiting, "Xi").await.0,
        StatusCode::CREATED
    );
    assert_eq!(
        common::join(&app, &going, "Yo").await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(start(&app, &going, Some(&ga)).await.0, StatusCode::CONFLICT);
    assert_eq!(start(&app, &waiting, Some(&wa)).await.0, StatusCode::OK);
    // Play goes on after the restart, with the versions counting the start.
    let s = state(&app, &going, Some(&gb)).await;
    let p = first_legal_die(&s).unwrap();
    let (status, v) = place(&app, &going, &gb, &p).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["version"].as_u64().unwrap(),
        before[2]["version"].as_u64().unwrap() + 1
    );
}
