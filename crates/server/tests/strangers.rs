//! Playing strangers: the pool that seats people who don't know each other, and the clocks that
//! keep their games moving (the computer stands in for a seat whose time ran out, and takes the
//! seat over after two turns in a row). Days pass by restarting the server with its clock set
//! later (`TRACKLAYER_NOW`): the deadlines are the database's, so they outlive the process.

mod common;

use common::challenge::{TODAY, app_at, player};
use common::{Answer, TestApp, poll};
use hyper::StatusCode;
use serde_json::{Value, json};

const MINUTE: i64 = 60_000;
const DAY: i64 = 24 * 60 * MINUTE;

fn today_ms() -> i64 {
    server::clock::parse_rfc3339(TODAY).unwrap()
}

/// Restarts the server with its clock `ms` after [`TODAY`].
async fn travel(app: &mut TestApp, ms: i64) {
    app.config.clock = server::Clock::starting_at(today_ms() + ms);
    app.restart().await;
}

async fn state(app: &TestApp, kind: &str, id: &str, token: &str) -> Value {
    app.get(&format!("/api/{kind}/games/{id}"), Some(token))
        .await
        .is(StatusCode::OK)
}

/// A Metro game of people on this device with a clock: its id and each seat's token.
async fn metro_game(app: &TestApp, clock: Value) -> (String, Vec<String>) {
    let body = json!({
        "players": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "seed": 7,
        "clock": clock,
    });
    let v = app
        .post("/api/metro/games", None, &body.to_string())
        .await
        .is(StatusCode::CREATED);
    let tokens = (v["seats"].as_array().unwrap().iter())
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    (v["id"].as_str().unwrap().to_owned(), tokens)
}

/// One Metro turn of the asking seat: draw if there is nothing to place, then place at the
/// first legal square.
async fn metro_turn(app: &TestApp, id: &str, token: &str) -> Value {
    let path = format!("/api/metro/games/{id}");
    let mut s = state(app, "metro", id, token).await;
    assert_eq!(s["you"]["your_turn"], true, "{}", s["you"]);
    if s["you"]["tile"].is_null() {
        s = app
            .post(&format!("{path}/draw"), Some(token), "")
            .await
            .is(StatusCode::OK);
    }
    let square = &s["you"]["legal"].as_str().unwrap()[..2];
    app.post(
        &format!("{path}/place"),
        Some(token),
        &json!({ "square": square }).to_string(),
    )
    .await
    .is(StatusCode::OK)
}

/// Waits until the game's state passes `what`.
async fn wait(
    app: &TestApp,
    kind: &str,
    id: &str,
    token: &str,
    what: impl Fn(&Value) -> bool,
) -> Value {
    poll(800, || state(app, kind, id, token), what).await
}

fn seat_clock(s: &Value, seat: usize) -> &Value {
    &s["clock"]["seats"][seat]
}

#[tokio::test]
async fn a_metro_turn_that_runs_out_is_the_computers_and_after_two_the_seat_is() {
    let mut app = app_at(TODAY).await;
    let (id, tokens) = metro_game(&app, json!({"live": 30})).await;
    let s = state(&app, "metro", &id, &tokens[0]).await;
    assert_eq!(s["clock"]["control"], json!({"live": 30}), "{s}");
    assert_eq!(s["clock"]["per"], "turn");
    let due = seat_clock(&s, 0)["due"].as_i64().unwrap();
    assert!((due - today_ms() - 30_000).abs() < 5_000, "{s}");
    assert!(
        seat_clock(&s, 1)["due"].is_null(),
        "only the seat to play has a clock: {s}"
    );

    // Ann plays her turn in time: Bob's clock starts.
    metro_turn(&app, &id, &tokens[0]).await;
    let s = state(&app, "metro", &id, &tokens[1]).await;
    assert!(seat_clock(&s, 0)["due"].is_null(), "{s}");
    assert!(seat_clock(&s, 1)["due"].as_i64().is_some(), "{s}");

    // A minute later (the server was down meanwhile: the deadline is the database's), Bob's
    // time has run out: the computer plays his turn, and Ann's clock starts.
    travel(&mut app, MINUTE).await;
    let s = wait(&app, "metro", &id, &tokens[0], |s| {
        s["you"]["your_turn"] == true && seat_clock(s, 1)["timeouts"] == 1
    })
    .await;
    assert!(
        !seat_clock(&s, 1)["stand_in"].as_bool().unwrap_or(false),
        "{s}"
    );
    assert!(
        seat_clock(&s, 0)["due"].as_i64().unwrap() > today_ms() + MINUTE,
        "{s}"
    );
    assert_eq!(
        s["resigned"],
        Value::Null,
        "one turn run out is no resignation: {s}"
    );

    // Ann plays; Bob's time runs out a second time in a row: the seat is the computer's.
    metro_turn(&app, &id, &tokens[0]).await;
    travel(&mut app, 3 * MINUTE).await;
    let s = wait(&app, "metro", &id, &tokens[1], |s| {
        seat_clock(s, 1)["given"] == true && s["you"]["your_turn"] == false
    })
    .await;
    assert_eq!(s["resigned"], json!([1]), "{s}");
    assert_eq!(seat_clock(&s, 1)["timeouts"], 2, "{s}");
    // Bob acts no more: the refusal says why.
    let (status, v) = app
        .post(&format!("/api/metro/games/{id}/draw"), Some(&tokens[1]), "")
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // The replay marks the turns the computer played for Bob.
    let log = app
        .db()
        .await
        .load_game(&id)
        .await
        .unwrap()
        .unwrap()
        .actions;
    let timeouts: Vec<usize> = (log.iter())
        .filter(|a| a.action.contains("timeout"))
        .map(|a| a.seat)
        .collect();
    assert_eq!(timeouts, [1, 1], "each deadline passed once");
}

#[tokio::test]
async fn an_ink_round_that_runs_out_is_played_by_the_computer() {
    let mut app = app_at(TODAY).await;
    let body = json!({
        "players": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "seed": 11,
        "clock": "live",
    });
    let v = app
        .post("/api/ink/games", None, &body.to_string())
        .await
        .is(StatusCode::CREATED);
    let id = v["id"].as_str().unwrap().to_owned();
    let tokens: Vec<String> = (v["seats"].as_array().unwrap().iter())
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    let s = state(&app, "ink", &id, &tokens[0]).await;
    assert_eq!(s["clock"]["control"], json!({"live": 120}), "{s}");
    assert_eq!(s["clock"]["per"], "round");
    // Both seats play a round at once: both clocks run.
    assert!(
        seat_clock(&s, 0)["due"].is_i64() && seat_clock(&s, 1)["due"].is_i64(),
        "{s}"
    );

    // Ann plays her round; Bob places nothing and his two minutes pass.
    common::challenge::play_ink_round(&app, &id, &tokens[0]).await;
    travel(&mut app, 3 * MINUTE).await;
    // (Rounds count from 0: the second is round 1.)
    let s = wait(&app, "ink", &id, &tokens[0], |s| s["round"] == 1).await;
    assert_eq!(seat_clock(&s, 1)["timeouts"], 1, "{s}");
    // The computer's round for Bob is on his board, and the new round is his again.
    let bob = state(&app, "ink", &id, &tokens[1]).await;
    let bob_round = &bob["players"][1]["rounds"][0];
    assert!(!bob_round.as_array().unwrap().is_empty(), "{bob}");
    assert!(seat_clock(&bob, 1)["due"].is_i64(), "{bob}");

    // Bob's second round runs out too: his seat is the computer's for the rest of the game.
    common::challenge::play_ink_round(&app, &id, &tokens[0]).await;
    travel(&mut app, 6 * MINUTE).await;
    let s = wait(&app, "ink", &id, &tokens[0], |s| {
        seat_clock(s, 1)["given"] == true
    })
    .await;
    assert_eq!(s["resigned"], json!([1]), "{s}");
    let (status, v) = app
        .post(
            &format!("/api/ink/games/{id}/end-round"),
            Some(&tokens[1]),
            "",
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("ran out"), "{v}");
}

#[tokio::test]
async fn a_turn_based_game_goes_on_over_days() {
    let mut app = app_at(TODAY).await;
    let (id, tokens) = metro_game(&app, json!({"days": 1})).await;
    // Day one, evening: Ann plays. Day two: Bob. Day three: Ann again. Nobody runs out.
    metro_turn(&app, &id, &tokens[0]).await;
    travel(&mut app, 20 * 60 * MINUTE).await;
    metro_turn(&app, &id, &tokens[1]).await;
    travel(&mut app, 40 * 60 * MINUTE).await;
    let s = metro_turn(&app, &id, &tokens[0]).await;
    assert!(
        s["clock"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["timeouts"].is_null()),
        "{s}"
    );
    // Bob's day passes without his turn: the computer plays it.
    travel(&mut app, 3 * DAY).await;
    wait(&app, "metro", &id, &tokens[0], |s| {
        s["you"]["your_turn"] == true && seat_clock(s, 1)["timeouts"] == 1
    })
    .await;
}

#[tokio::test]
async fn a_clock_is_asked_within_range() {
    let app = app_at(TODAY).await;
    for (clock, says) in [
        (json!({"live": 5}), "10 to 600 seconds"),
        (json!({"days": 9}), "1 to 7 days"),
        (json!("blitz"), "no time control"),
    ] {
        let body = json!({"players": [{"kind": "human"}, {"kind": "human"}], "clock": clock});
        let (status, v) = app.post("/api/metro/games", None, &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{v}");
    }
}

/// `name`'s join of the pool of `kind`, as asked: the answer.
async fn join_pool(app: &TestApp, kind: &str, key: &str, body: Value) -> (StatusCode, Value) {
    app.post(&format!("/api/pool/{kind}"), Some(key), &body.to_string())
        .await
}

async fn pool_state(app: &TestApp, kind: &str, key: &str) -> Value {
    app.get(&format!("/api/pool/{kind}"), Some(key))
        .await
        .is(StatusCode::OK)
}

#[tokio::test]
async fn the_pool_seats_two_together_and_the_third_in_the_next_game() {
    let app = app_at(TODAY).await;
    let mut keys = Vec::new();
    for name in ["Ann", "Bob", "Cy", "Dee"] {
        keys.push(player(&app, name).await.1);
    }
    let ask = json!({"players": 2, "clock": "live", "computers_after": null});
    let ann = join_pool(&app, "metro", &keys[0], ask.clone())
        .await
        .is(StatusCode::CREATED);
    assert!(ann["waiting"].is_object(), "{ann}");
    assert_eq!(ann["in_pool"], 1);
    let counts = app.get("/api/pool", None).await.is(StatusCode::OK);
    assert_eq!(counts, json!({"ink": 0, "metro": 1}));
    // Asking twice is refused.
    let (status, v) = join_pool(&app, "metro", &keys[0], ask.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");

    let bob = join_pool(&app, "metro", &keys[1], ask.clone())
        .await
        .is(StatusCode::CREATED);
    let a = pool_state(&app, "metro", &keys[0]).await;
    let b = pool_state(&app, "metro", &keys[1]).await;
    let game = a["seated"]["game"]
        .as_str()
        .expect("Ann is seated")
        .to_owned();
    assert_eq!(b["seated"]["game"], game.as_str());
    assert_eq!(
        (a["seated"]["seat"].as_u64(), b["seated"]["seat"].as_u64()),
        (Some(0), Some(1))
    );
    // Each plays with the token the pool gave: the seat is theirs.
    let s = state(&app, "metro", &game, ann["token"].as_str().unwrap()).await;
    assert_eq!(s["you"]["seat"], 0, "{s}");
    assert_eq!(s["rated"], true, "{s}");
    assert_eq!(s["clock"]["control"], json!({"live": 30}), "{s}");
    let names: Vec<&str> = (s["players"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ann", "Bob"]);
    let s = state(&app, "metro", &game, bob["token"].as_str().unwrap()).await;
    assert_eq!(s["you"]["seat"], 1, "{s}");

    // Each one's games: Ann's turn first, with her time left; Bob waits for her.
    let mine = app
        .get("/api/players/me/games", Some(&keys[0]))
        .await
        .is(StatusCode::OK);
    assert_eq!(mine["waiting"], 1, "{mine}");
    assert_eq!(mine["games"][0]["id"], game.as_str());
    assert_eq!(mine["games"][0]["your_turn"], true);
    assert!(mine["games"][0]["due"].as_i64().unwrap() > mine["now"].as_i64().unwrap());
    assert_eq!(mine["games"][0]["others"], json!(["Bob"]));
    let theirs = app
        .get("/api/players/me/games", Some(&keys[1]))
        .await
        .is(StatusCode::OK);
    assert_eq!(
        (
            theirs["waiting"].as_u64(),
            theirs["games"][0]["your_turn"].as_bool()
        ),
        (Some(0), Some(false))
    );
    // Ann plays from another device, with her player's key alone.
    metro_turn(&app, &game, &keys[0]).await;
    let theirs = app
        .get("/api/players/me/games", Some(&keys[1]))
        .await
        .is(StatusCode::OK);
    assert_eq!(theirs["waiting"], 1, "{theirs}");
    // Someone else's key has no seat here.
    let (status, _) = app
        .post(&format!("/api/metro/games/{game}/draw"), Some(&keys[2]), "")
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // The third waits, and sits with the fourth in the next game.
    let cy = join_pool(&app, "metro", &keys[2], ask.clone())
        .await
        .is(StatusCode::CREATED);
    assert!(cy["waiting"].is_object() && cy["in_pool"] == 1, "{cy}");
    join_pool(&app, "metro", &keys[3], ask.clone())
        .await
        .is(StatusCode::CREATED);
    let c = pool_state(&app, "metro", &keys[2]).await;
    let next = c["seated"]["game"].as_str().expect("Cy is seated");
    assert_ne!(next, game);
    assert_eq!(app.get("/api/pool", None).await.1["metro"], 0);

    // Leaving, and asking what is not allowed.
    join_pool(&app, "ink", &keys[0], json!({}))
        .await
        .is(StatusCode::CREATED);
    app.call("DELETE", "/api/pool/ink", Some(&keys[0]), None)
        .await
        .is(StatusCode::NO_CONTENT);
    let (status, _) = app.get("/api/pool/ink", Some(&keys[0])).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for (body, says) in [
        (json!({"players": 7}), "2 to 6 players"),
        (json!({"players": 1}), "2 to 6 players"),
        (json!({"clock": {"live": 5}}), "10 to 600 seconds"),
        (json!({"computers_after": 100000}), "at most"),
        (json!({"players": "many"}), "number or \"any\""),
    ] {
        let (status, v) = join_pool(&app, "metro", &keys[0], body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{says}: {v}");
    }
    let (status, v) = app.post("/api/pool/metro", None, "{}").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, _) = app.post("/api/pool/chess", Some(&keys[0]), "{}").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_wait_ends_with_computers_in_the_empty_seats() {
    let app = app_at(TODAY).await;
    let (_, key) = player(&app, "Ann").await;
    let joined = join_pool(
        &app,
        "ink",
        &key,
        json!({"players": 3, "computers_after": 1}),
    )
    .await
    .is(StatusCode::CREATED);
    assert_eq!(joined["waiting"]["players"], 3, "{joined}");
    let seated = poll(
        400,
        || pool_state(&app, "ink", &key),
        |s| s["seated"].is_object(),
    )
    .await;
    let game = seated["seated"]["game"].as_str().unwrap();
    let s = state(&app, "ink", game, joined["token"].as_str().unwrap()).await;
    let kinds: Vec<&str> = (s["players"].as_array().unwrap().iter())
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["human", "computer", "computer"], "{s}");
    // Against computers nothing is rated.
    assert_eq!(s["rated"], Value::Null, "{s}");
}

#[tokio::test]
async fn on_two_processes_nobody_sits_twice_and_each_deadline_passes_once() {
    let Some(db) = common::postgres_only().await else {
        return;
    };
    let mut config = common::test_config(db);
    config.rank_per_address = false;
    let one = server::start(&config).await.unwrap();
    let two = server::start(&config).await.unwrap();
    let mut clients = [
        common::Client::connect(one.addr()).await,
        common::Client::connect(two.addr()).await,
    ];
    // Eight players ask for a table of two with a 10 s clock, every other one on each process,
    // all at once.
    let mut keys = Vec::new();
    for i in 0..8 {
        let body = json!({ "name": format!("P{i}") }).to_string();
        let (status, v) = clients[i % 2]
            .call("POST", "/api/players", None, Some(&body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        keys.push(v["token"].as_str().unwrap().to_owned());
    }
    let ask = json!({"players": 2, "clock": {"live": 10}, "computers_after": null}).to_string();
    let joins = keys.iter().enumerate().map(|(i, key)| {
        let (addr, ask, key) = ([one.addr(), two.addr()][i % 2], ask.clone(), key.clone());
        tokio::spawn(async move {
            let mut c = common::Client::connect(addr).await;
            c.call("POST", "/api/pool/metro", Some(&key), Some(&ask))
                .await
        })
    });
    for join in futures_util::future::join_all(joins).await {
        let (status, v) = join.unwrap();
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
    // Everyone is seated once: four games of two.
    let mut seated = std::collections::BTreeMap::<String, Vec<u64>>::new();
    for (i, key) in keys.iter().enumerate() {
        let mut state = Value::Null;
        for _ in 0..200 {
            state = clients[i % 2]
                .call("GET", "/api/pool/metro", Some(key), None)
                .await
                .1;
            if state["seated"].is_object() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let game = state["seated"]["game"].as_str().expect("seated").to_owned();
        seated
            .entry(game)
            .or_default()
            .push(state["seated"]["seat"].as_u64().unwrap());
    }
    assert_eq!(seated.len(), 4, "{seated:?}");
    for seats in seated.values_mut() {
        seats.sort_unstable();
        assert_eq!(seats, &[0, 1]);
    }
    // Nobody plays: in each game the first seat's 10 s run out once, whichever process sees it.
    let storage = one.storage_for_test();
    let games: Vec<String> = seated.keys().cloned().collect();
    for _ in 0..300 {
        let mut all = true;
        for game in &games {
            let log = storage.load_game(game).await.unwrap().unwrap().actions;
            all &= log.iter().any(|a| a.action.contains("timeout"));
        }
        if all {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Let both processes look again: still one time-out each for the first turn.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    for game in &games {
        let log = storage.load_game(game).await.unwrap().unwrap().actions;
        let timeouts: Vec<(usize, usize)> = (log.iter().enumerate())
            .filter(|(_, a)| a.action.contains("timeout"))
            .map(|(i, a)| (i, a.seat))
            .collect();
        assert!(!timeouts.is_empty(), "{game}: no time-out");
        assert_eq!(
            timeouts[0],
            (0, 0),
            "{game}: the first turn's time-out is the first row"
        );
        assert!(
            timeouts
                .windows(2)
                .all(|w| w[0].1 != w[1].1 || w[1].0 > w[0].0 + 1),
            "{game}: a seat timed out twice on one turn: {timeouts:?}"
        );
    }
    one.stop().await.unwrap();
    two.stop().await.unwrap();
}
