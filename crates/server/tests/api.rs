//! The HTTP API against the real app on a random port with a fresh database: every endpoint,
//! every error status, whole games in each mode, live updates, and a restart.

mod common;

use common::{Answer, Events, TestApp, create, first_legal_die, place, send_junk, squares};
use http_body_util::BodyExt;
use hyper::StatusCode;
use railroad_ink::{Dice, Roll};
use serde_json::Value;

fn state_path(id: &str) -> String {
    format!("/api/ink/games/{id}")
}

async fn state(app: &TestApp, id: &str, token: &str) -> Value {
    app.get(&state_path(id), Some(token))
        .await
        .is(StatusCode::OK)
}

/// The creator starts an online game waiting in its lobby.
async fn start(app: &TestApp, id: &str, token: &str) -> Value {
    let v = app
        .post(&format!("/api/ink/games/{id}/start"), Some(token), "")
        .await
        .is(StatusCode::OK);
    assert_eq!(v["started"], true);
    v
}

async fn end_round(app: &TestApp, id: &str, token: &str) -> (StatusCode, Value) {
    app.post(&format!("/api/ink/games/{id}/end-round"), Some(token), "")
        .await
}

/// Places dice at the first legal places until none fits, then ends the round.
async fn play_round(app: &TestApp, id: &str, token: &str) -> Value {
    let mut s = state(app, id, token).await;
    while let Some(p) = first_legal_die(&s) {
        let (status, v) = place(app, id, token, &p).await;
        assert_eq!(status, StatusCode::OK, "{p}: {v}");
        s = v;
    }
    assert_eq!(s["you"]["end_round"]["allowed"], true, "{}", s["you"]);
    let (status, v) = end_round(app, id, token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Asserts two JSON values are equal, naming the first place they differ.
fn assert_same(path: &str, a: &Value, b: &Value) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<_> = x.keys().chain(y.keys()).collect();
            for k in keys {
                assert_same(
                    &format!("{path}.{k}"),
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                assert_same(&format!("{path}[{i}]"), p, q);
            }
        }
        _ => assert_eq!(a, b, "at {path}"),
    }
}

fn rolls_in(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(7))
        .filter(|&i| {
            b[i] == b'A'
                && b[i + 2] == b'A'
                && b[i + 4] == b'A'
                && b[i + 6] == b'B'
                && [1, 3, 5].iter().all(|&k| (b'0'..=b'5').contains(&b[i + k]))
                && (b'0'..=b'2').contains(&b[i + 7])
        })
        .map(|i| text[i..i + 8].to_owned())
        .collect()
}

#[tokio::test]
async fn health_and_the_tile_table() {
    let app = TestApp::start().await;
    let (status, v) = app.get("/api/health", None).await;
    assert_eq!((status, v["ok"].as_bool()), (StatusCode::OK, Some(true)));
    let t = app.get("/api/ink/tiles", None).await.is(StatusCode::OK);
    assert_eq!(t["tiles"].as_array().unwrap().len(), 15);
    assert_eq!(t["exits"].as_array().unwrap().len(), 12);
    assert_eq!(t["centre"].as_array().unwrap().len(), 9);
    assert_eq!(t["tiles"][8]["tile"], "B2");
    assert_eq!(t["tiles"][8]["overpass"], true);
    assert_eq!(
        t["tiles"][8]["edges"][0],
        serde_json::json!(["highway", "railway", "highway", "railway"])
    );
    assert_eq!(
        t["exits"][0],
        serde_json::json!({"square":"A1","side":"N","route":"highway"})
    );
    let agents: Vec<&str> = common::each(&t["levels"], |a| a.as_str().unwrap());
    assert_eq!(agents, railroad_ink::ai::AGENTS.to_vec());
    assert_eq!(t["specials_per_game"], 3);
    assert_eq!(t["rounds"], 7);
}

#[tokio::test]
async fn the_front_end_is_served() {
    let app = TestApp::start().await;
    let mut client = app.client().await;
    for path in ["/", "/rules", "/ink/0123456789abcdef01234567"] {
        let r = client.send("GET", path, &[], Vec::new()).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(r.headers().contains_key("content-security-policy"));
        let etag = r.headers()["etag"].to_str().unwrap().to_owned();
        let body = common::body(r).await;
        assert!(String::from_utf8_lossy(&body).contains("<script"));
        let again = client
            .send("GET", path, &[("if-none-match", &etag)], Vec::new())
            .await;
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        again.into_body().collect().await.unwrap();
    }
    let r = client.send("GET", "/nope.js", &[], Vec::new()).await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    r.into_body().collect().await.unwrap();
    let v = app.get("/api/nope", None).await.is(StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("/api/nope"));
}

#[tokio::test]
async fn creating_a_game_checks_its_input() {
    let app = TestApp::start().await;
    let bad = [
        ("", "missing field `mode`"),
        (r#"{"mode":"chess"}"#, "unknown variant"),
        (r#"{"mode":"solo","colour":"red"}"#, "unknown field"),
        (r#"{"mode":"solo""#, "malformed JSON"),
        (r#"[1,2]"#, "malformed JSON"),
        (r#"{"mode":"solo","seed":-1}"#, "malformed JSON"),
        (r#"{"mode":"solo","agent":"greedy"}"#, "only in mode"),
        (
            r#"{"mode":"computer","agent":"deep-blue"}"#,
            "unknown computer player",
        ),
        (
            r#"{"mode":"solo","name":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"#,
            "at most 32",
        ),
        (
            "{\"mode\":\"solo\",\"name\":\"a\\u0000b\"}",
            "U+0000, a control character",
        ),
        (
            "{\"mode\":\"solo\",\"name\":\"placed \\u202ecbcb\"}",
            "U+202E, an invisible format character",
        ),
    ];
    for (body, why) in bad {
        let (status, v) = app.post("/api/ink/games", None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(why), "{body}: {error}");
    }
    let huge = format!(
        r#"{{"mode":"solo","name":"{}"}}"#,
        "x".repeat(server::MAX_BODY)
    );
    let v = app
        .post("/api/ink/games", None, &huge)
        .await
        .is(StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("larger than"));

    let v = app
        .post("/api/ink/games", None, r#"{"mode":"solo","name":"Ada"}"#)
        .await
        .is(StatusCode::CREATED);
    assert_eq!(v["seat"], 0);
    assert_eq!(v["id"].as_str().unwrap().len(), 24);
    assert_eq!(v["token"].as_str().unwrap().len(), 64);
}

#[tokio::test]
async fn the_state_shows_this_round_only_and_keeps_the_seed_secret() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":42,"name":"Ada"}"#).await;
    let rolls = Dice::Seed(42).rolls();
    let public = app.get(&state_path(&id), None).await.is(StatusCode::OK);
    assert_eq!(public["id"], id.as_str());
    assert_eq!(public["mode"], "solo");
    assert_eq!(public["round"], 0);
    assert_eq!(public["finished"], false);
    assert_eq!(public["roll"], rolls[0].to_string());
    let dice: Vec<String> = rolls[0].dice().iter().map(|t| t.to_string()).collect();
    assert_eq!(public["dice"], serde_json::json!(dice));
    assert_eq!(public["players"][0]["seat"], 0);
    assert_eq!(public["players"][0]["name"], "Ada");
    assert_eq!(public["players"][0]["board"], "");
    assert_eq!(public["players"][0]["score"]["advanced"], 0);
    assert!(public.get("you").is_none());
    assert!(public.get("seed").is_none());

    let mine = state(&app, &id, &token).await;
    assert_eq!(mine["you"]["seat"], 0);
    assert_eq!(mine["you"]["dice"].as_array().unwrap().len(), 4);
    assert_eq!(mine["you"]["specials"].as_array().unwrap().len(), 6);
    for die in mine["you"]["dice"].as_array().unwrap() {
        assert_eq!(die["legal"].as_array().unwrap().len(), 8);
    }
    // No later roll is anywhere in what is sent.
    let text = mine.to_string();
    let later: Vec<String> = rolls[1..].iter().map(Roll::to_string).collect();
    for roll in rolls_in(&text) {
        assert!(
            roll == rolls[0].to_string() || !later.contains(&roll),
            "{roll}"
        );
    }
    assert!(mine["seed"].is_null());
    // The creator chose the seed, so whoever comes is told (a random seed is never shown).
    assert_eq!(
        public["chosen_seed"],
        serde_json::json!({"seed": "42", "by": "Ada"})
    );
    let (id2, token2) = create(&app, r#"{"mode":"solo"}"#).await;
    let random = state(&app, &id2, &token2).await.to_string();
    assert!(!random.contains("seed"), "{random}");
}

#[tokio::test]
async fn refusals_have_their_status_and_rule() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":7}"#).await;
    let unknown = "0123456789abcdef01234567";
    common::assert_no_such_game(&app, "ink").await;
    let (status, _) = place(&app, unknown, &token, "A4A10").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.post(&format!("/api/ink/games/{unknown}/join"), None, "{}")
        .await
        .is(StatusCode::NOT_FOUND);

    // Tokens.
    for (method, action) in [
        ("POST", "place"),
        ("POST", "undo"),
        ("POST", "end-round"),
        ("GET", "hint"),
    ] {
        let path = format!("/api/ink/games/{id}/{action}");
        let body = Some(r#"{"placement":"A4A10"}"#);
        let (status, v) = app.call(method, &path, Some("wrong"), body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{action}: {v}");
        let (status, _) = app.call(method, &path, None, body).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{action}");
    }
    app.get(&state_path(&id), Some("wrong"))
        .await
        .is(StatusCode::FORBIDDEN);
    let (_, other) = create(&app, r#"{"mode":"solo"}"#).await;
    let (status, _) = place(&app, &id, &other, "A4A10").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "another game's token");

    // Malformed and oversized bodies.
    let path = format!("/api/ink/games/{id}/place");
    for body in [
        "",
        "{}",
        r#"{"placement":"A4A1"}"#,
        r#"{"placement":"a4a10"}"#,
        r#"{"placement":"A9A10"}"#,
        r#"{"placement":42}"#,
        "not json",
    ] {
        let (status, v) = app.post(&path, Some(&token), body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
    }
    let huge = format!(r#"{{"placement":"{}"}}"#, "A".repeat(100_000));
    app.post(&path, Some(&token), &huge)
        .await
        .is(StatusCode::BAD_REQUEST);

    // Rules: 422 with the rule broken.
    let s = state(&app, &id, &token).await;
    let roll: Roll = s["roll"].as_str().unwrap().parse().unwrap();
    let die = roll.dice()[0];
    let (status, v) = place(&app, &id, &token, &format!("{die}D30")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["rule"], "no valid connection");
    assert!(v["error"].as_str().unwrap().contains("no valid connection"));
    let absent = railroad_ink::Tile::ALL[..6]
        .iter()
        .find(|t| !roll.dice().contains(t))
        .unwrap();
    let (status, v) = place(&app, &id, &token, &format!("{absent}A10")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "only the round's dice");
    let (status, v) = end_round(&app, &id, &token).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "every die placed unless none fits");
    let v = app
        .post(&format!("/api/ink/games/{id}/undo"), Some(&token), "")
        .await
        .is(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "nothing to undo");
    let p = first_legal_die(&s).unwrap();
    assert_eq!(place(&app, &id, &token, &p).await.0, StatusCode::OK);
    let (status, v) = place(&app, &id, &token, &p).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["rule"] == "occupied" || v["rule"] == "only the round's dice",
        "{v}"
    );

    // Joining a game that is not online.
    common::join(&app, &id, "Bo").await.is(StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_whole_solo_game() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":2024}"#).await;
    let mut last = Value::Null;
    for round in 0..7 {
        let s = state(&app, &id, &token).await;
        assert_eq!(s["round"], round);
        assert_eq!(s["roll"], Dice::Seed(2024).rolls()[round].to_string());
        last = play_round(&app, &id, &token).await;
    }
    assert_eq!(last["finished"], true);
    assert_eq!(last["round"], 7);
    assert_eq!(last["dice"], serde_json::json!([]));
    assert_eq!(last["winners"], serde_json::json!([0]));
    assert_eq!(last["seed"], "2024");
    let board = last["players"][0]["board"].as_str().unwrap();
    let score = railroad_ink::score(board).unwrap();
    assert_eq!(last["players"][0]["score"]["advanced"], score.advanced);
    assert_eq!(
        last["players"][0]["breakdown"]["score"]["advanced"],
        score.advanced
    );
    assert_eq!(last["players"][0]["rounds"].as_array().unwrap().len(), 7);
    let (status, v) = end_round(&app, &id, &token).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "game over");
    // Nothing is left to hint.
    let v = app
        .get(&format!("/api/ink/games/{id}/hint"), Some(&token))
        .await
        .is(StatusCode::CONFLICT);
    assert!(
        v["error"].as_str().unwrap().contains("the game is over"),
        "{v}"
    );
}

#[tokio::test]
async fn undo_takes_back_this_rounds_placements_only() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":3}"#).await;
    let undo = format!("/api/ink/games/{id}/undo");
    let s = state(&app, &id, &token).await;
    let p = first_legal_die(&s).unwrap();
    let (_, after) = place(&app, &id, &token, &p).await;
    assert_eq!(after["players"][0]["board"], p.as_str());
    assert_eq!(after["you"]["can_undo"], true);
    let v = app.post(&undo, Some(&token), "").await.is(StatusCode::OK);
    assert_eq!(v["players"][0]["board"], "");
    assert_eq!(v["you"]["can_undo"], false);
    assert_eq!(
        v["players"][0]["dice_used"],
        serde_json::json!([false, false, false, false])
    );
    let done = play_round(&app, &id, &token).await;
    assert_eq!(done["round"], 1);
    let (status, v) = app.post(&undo, Some(&token), "").await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "last round is kept"
    );
    assert_eq!(v["rule"], "nothing to undo");
}

#[tokio::test]
async fn specials_one_a_round() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":9}"#).await;
    let s = state(&app, &id, &token).await;
    let specials = s["you"]["specials"].as_array().unwrap();
    assert!(
        specials
            .iter()
            .all(|x| x["allowed"] == true && x["used"] == false)
    );
    // S2 (highway crossroads) fits next to a highway exit, e.g. on D0.
    let legal = squares(&specials[2]["legal"][0]);
    assert!(legal.contains(&"D0".to_owned()), "{legal:?}");
    let (status, v) = place(&app, &id, &token, "S2D00").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["players"][0]["specials"], serde_json::json!(["S2"]));
    let specials = v["you"]["specials"].as_array().unwrap();
    assert_eq!(specials[2]["used"], true);
    assert_eq!(specials[3]["allowed"], false);
    assert_eq!(specials[3]["rule"], "one special a round");
    let (status, v) = place(&app, &id, &token, "S3A30").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "one special a round");
}

#[tokio::test]
async fn the_hint_is_playable() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":11}"#).await;
    let v = app
        .get(&format!("/api/ink/games/{id}/hint"), Some(&token))
        .await
        .is(StatusCode::OK);
    let hint: Vec<String> = common::each(&v["placements"], |p| p.as_str().unwrap().to_owned());
    assert!(!hint.is_empty());
    for p in &hint {
        let (status, v) = place(&app, &id, &token, p).await;
        assert_eq!(status, StatusCode::OK, "{p}: {v}");
    }
    let (status, v) = end_round(&app, &id, &token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

async fn wait_for(app: &TestApp, id: &str, token: &str, what: impl Fn(&Value) -> bool) -> Value {
    common::poll(400, || state(app, id, token), what).await
}

#[tokio::test]
async fn against_the_computer() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"computer","seed":5,"agent":"greedy"}"#).await;
    let s = wait_for(&app, &id, &token, |s| s["players"][1]["round_done"] == true).await;
    assert_eq!(s["players"].as_array().unwrap().len(), 2);
    assert_eq!(s["players"][1]["kind"], "computer");
    assert_eq!(s["players"][1]["level"], "greedy");
    assert_ne!(s["players"][1]["board"], "");
    assert_eq!(s["round"], 0);
    for round in 1..=7 {
        play_round(&app, &id, &token).await;
        let s = wait_for(&app, &id, &token, |s| {
            s["round"] == round && (round == 7 || s["players"][1]["round_done"] == true)
        })
        .await;
        // The computer plays the same rolls.
        let rounds = s["players"][1]["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), round.min(6) + 1);
    }
    let s = state(&app, &id, &token).await;
    assert_eq!(s["finished"], true);
    assert!(!s["winners"].as_array().unwrap().is_empty());
    app.post(&format!("/api/ink/games/{id}/join"), None, "{}")
        .await
        .is(StatusCode::CONFLICT);
    // The computer's seat has no token.
    assert!(s["players"][1].get("token").is_none());
}

#[tokio::test]
async fn the_default_computer_player_is_the_last_listed() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"computer"}"#).await;
    let s = state(&app, &id, &token).await;
    assert_eq!(
        s["players"][1]["level"],
        *railroad_ink::ai::AGENTS.last().unwrap()
    );
}

#[tokio::test]
async fn online_players_share_rolls_and_rounds() {
    let app = TestApp::start().await;
    let (id, a) = create(&app, r#"{"mode":"online","seed":77,"name":"Ann"}"#).await;
    let join = format!("/api/ink/games/{id}/join");
    let v = app
        .post(&join, None, r#"{"name":"Bob"}"#)
        .await
        .is(StatusCode::CREATED);
    assert_eq!(v["seat"], 1);
    assert_eq!(v["id"], id.as_str());
    let b = v["token"].as_str().unwrap().to_owned();
    app.post(&join, None, &format!(r#"{{"name":"{}"}}"#, "z".repeat(40)))
        .await
        .is(StatusCode::BAD_REQUEST);

    // A third player joins in the lobby too.
    let v = app.post(&join, None, "").await.is(StatusCode::CREATED);
    assert_eq!(v["seat"], 2);
    let c = v["token"].as_str().unwrap().to_owned();
    assert_eq!(state(&app, &id, &c).await["players"][2]["name"], "Player 3");
    start(&app, &id, &a).await;

    let sa = state(&app, &id, &a).await;
    let sb = state(&app, &id, &b).await;
    assert_eq!(sa["you"]["seat"], 0);
    assert_eq!(sb["you"]["seat"], 1);
    assert_eq!(sa["dice"], sb["dice"]);
    assert_eq!(sb["players"][1]["name"], "Bob");

    // Ann finishes the round first: it goes on until Bob has finished it too.
    let after = play_round(&app, &id, &a).await;
    assert_eq!(after["round"], 0);
    assert_eq!(after["players"][0]["round_done"], true);
    assert_eq!(after["you"]["round_done"], true);
    let (status, v) = place(&app, &id, &a, "A4A10").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "round ended");
    let after = play_round(&app, &id, &b).await;
    assert_eq!(
        after["round"], 0,
        "the third player has not finished the round"
    );
    let after = play_round(&app, &id, &c).await;
    assert_eq!(after["round"], 1);
    assert_eq!(after["players"][0]["round_done"], false);
    for t in [&a, &b, &c] {
        play_round(&app, &id, t).await;
    }
    assert_eq!(state(&app, &id, &a).await["round"], 2);
}

#[tokio::test]
async fn an_online_game_seats_at_most_eight() {
    let app = TestApp::start().await;
    let (id, _) = create(&app, r#"{"mode":"online"}"#).await;
    let join = format!("/api/ink/games/{id}/join");
    for seat in 1..server::MAX_SEATS {
        let (status, v) = app.post(&join, None, "{}").await;
        assert_eq!(
            (status, v["seat"].as_u64()),
            (StatusCode::CREATED, Some(seat as u64))
        );
    }
    app.post(&join, None, "{}").await.is(StatusCode::CONFLICT);
}

#[tokio::test]
async fn live_updates_over_server_sent_events() {
    let app = TestApp::start().await;
    let (id, a) = create(&app, r#"{"mode":"online","seed":1}"#).await;
    let mut events = Events::open(&app, &format!("/api/ink/games/{id}/events")).await;
    assert_eq!(events.next_state().await, 0);
    app.post(&format!("/api/ink/games/{id}/join"), None, "{}")
        .await
        .is(StatusCode::CREATED);
    assert_eq!(events.next_state().await, 1);
    start(&app, &id, &a).await;
    assert_eq!(events.next_state().await, 2);
    let s = state(&app, &id, &a).await;
    let p = first_legal_die(&s).unwrap();
    place(&app, &id, &a, &p).await;
    assert_eq!(events.next_state().await, 3);
}

#[tokio::test]
async fn a_restarted_server_continues_every_game() {
    let mut app = TestApp::start().await;
    let (solo, ts) = create(&app, r#"{"mode":"solo","seed":31}"#).await;
    let (online, ta) = create(&app, r#"{"mode":"online","seed":32}"#).await;
    let (_, v) = common::join(&app, &online, "Bo").await;
    let tb = v["token"].as_str().unwrap().to_owned();
    start(&app, &online, &ta).await;
    let (computer, tc) = create(&app, r#"{"mode":"computer","seed":33,"agent":"greedy"}"#).await;
    wait_for(&app, &computer, &tc, |s| {
        s["players"][1]["round_done"] == true
    })
    .await;
    play_round(&app, &solo, &ts).await;
    let s = state(&app, &solo, &ts).await;
    place(&app, &solo, &ts, &first_legal_die(&s).unwrap()).await;
    play_round(&app, &online, &ta).await;
    let before = [
        state(&app, &solo, &ts).await,
        state(&app, &online, &ta).await,
        state(&app, &online, &tb).await,
        state(&app, &computer, &tc).await,
    ];
    app.restart().await;
    let after = [
        state(&app, &solo, &ts).await,
        state(&app, &online, &ta).await,
        state(&app, &online, &tb).await,
        state(&app, &computer, &tc).await,
    ];
    for (b, a) in before.iter().zip(&after) {
        assert_same("", b, a);
    }
    // And play goes on.
    play_round(&app, &online, &tb).await;
    assert_eq!(state(&app, &online, &ta).await["round"], 1);
    play_round(&app, &computer, &tc).await;
    wait_for(&app, &computer, &tc, |s| {
        s["round"] == 1 && s["players"][1]["round_done"] == true
    })
    .await;
}

#[tokio::test]
async fn a_computer_whose_round_is_due_plays_when_its_game_loads() {
    use server::game::Seat;

    let mut app = TestApp::start().await;
    // A computer game as a server that stopped before the computer's first round left it.
    let token = "a".repeat(64);
    let hash = server::ids::hash_token(&token);
    let id = "00112233445566778899aabb";
    let seats = vec![
        Seat::person("Ann".into(), hash, None),
        Seat::computer("greedy"),
    ];
    let setup = r#"{"players":2,"dice":{"seed":12}}"#;
    common::store_game(&app, id, "ink", ("computer", setup), seats).await;
    app.restart().await;
    let s = wait_for(&app, id, &token, |s| s["players"][1]["round_done"] == true).await;
    assert_ne!(s["players"][1]["board"], "");
    assert_eq!(s["players"][0]["name"], "Ann");
}

#[tokio::test]
async fn junk_never_gets_a_server_error() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"online","seed":4}"#).await;
    let fragments = [
        "{",
        "}",
        "\"placement\"",
        ":",
        "\"A4A10\"",
        "null",
        "[",
        "]",
        "\"mode\"",
        "\"solo\"",
        "\"seed\"",
        "-1",
        "1e400",
        "\"\\u0000\"",
        ",",
        "\"name\"",
        "true",
        "\u{1F682}",
    ];
    let endpoints = [
        "/api/ink/games".to_owned(),
        format!("/api/ink/games/{id}/join"),
        format!("/api/ink/games/{id}/place"),
        format!("/api/ink/games/{id}/undo"),
        format!("/api/ink/games/{id}/end-round"),
    ];
    let paths = [
        "/api/ink/games/%00",
        "/api/ink/games/..%2F..%2Fetc",
        "/api/ink/games/0123456789abcdef01234567/place/extra",
        "/api/ink/games//place",
        "/api/ink/tiles?x=%ff",
        "/ink/%ff%fe",
        "/%2e%2e/Cargo.toml",
    ];
    // Bodies of random bytes and JSON-ish fragments, and odd paths.
    let game = state_path(&id);
    send_junk(
        &app,
        0x9e37_79b9_7f4a_7c15,
        &game,
        &token,
        &endpoints,
        &fragments,
        &paths,
    )
    .await;
}

/// Whatever part of a request is malformed (path, query, header, body, method), the error is
/// the API's JSON shape.
#[tokio::test]
async fn every_api_error_is_json() {
    let app = TestApp::start().await;
    /// Method, path, headers, body.
    type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>, &'a [u8]);
    let cases: [Case; 8] = [
        ("GET", "/api/ink/games/%ff", vec![], b""),
        ("GET", "/api/metro/games/%ff%fe/replay", vec![], b""),
        ("POST", "/api/challenges/%ff/play", vec![], b""),
        ("GET", "/api/games?limit=many", vec![], b""),
        ("DELETE", "/api/health", vec![], b""),
        (
            "POST",
            "/api/ink/games",
            vec![("content-type", "text/plain")],
            b"\xff\xfe",
        ),
        (
            "GET",
            "/api/ink/games/00112233445566778899aabb",
            vec![("authorization", "Bearer é")],
            b"",
        ),
        ("PUT", "/api/players", vec![], b"{}"),
    ];
    let mut client = app.client().await;
    for (method, path, headers, body) in cases {
        let r = client.send(method, path, &headers, body.to_vec()).await;
        let status = r.status();
        let kind = r
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let bytes = common::body(r).await;
        assert!(status.is_client_error(), "{method} {path}: {status}");
        assert!(
            kind.starts_with("application/json"),
            "{method} {path}: {kind}"
        );
        let v: serde_json::Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {bytes:?}"));
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{method} {path}: {v}"
        );
    }
}
