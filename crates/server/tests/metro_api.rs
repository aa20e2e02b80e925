//! The Metro HTTP API against the real app on a random port with a fresh database: every
//! endpoint and error status, the turn and hand rules, what each seat may see, invited seats,
//! computer seats, whole games, live updates, and a restart.

mod common;

use common::{Answer, Events, TestApp, send_junk};
use hyper::StatusCode;
use serde_json::{Value, json};

fn game_path(id: &str) -> String {
    format!("/api/metro/games/{id}")
}

/// A new game: its id and the tokens of the seats on this device, in the answer's order.
async fn create(app: &TestApp, body: &str) -> (String, Vec<(usize, String)>) {
    let (status, v) = app.post("/api/metro/games", None, body).await;
    assert_eq!(status, StatusCode::CREATED, "{body}: {v}");
    let seats = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["seat"].as_u64().unwrap() as usize,
                s["token"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (v["id"].as_str().unwrap().to_owned(), seats)
}

/// A game of people on this device only: its id and each seat's token.
async fn create_people(app: &TestApp, n: usize, seed: u64) -> (String, Vec<String>) {
    let players: Vec<Value> = (0..n)
        .map(|i| json!({"kind": "human", "name": format!("P{}", i + 1)}))
        .collect();
    let body = json!({"players": players, "seed": seed}).to_string();
    let (id, seats) = create(app, &body).await;
    assert_eq!(seats.len(), n);
    for (i, (seat, _)) in seats.iter().enumerate() {
        assert_eq!(*seat, i);
    }
    (id, seats.into_iter().map(|(_, t)| t).collect())
}

async fn state(app: &TestApp, id: &str, token: Option<&str>) -> Value {
    app.get(&game_path(id), token).await.is(StatusCode::OK)
}

async fn act(app: &TestApp, id: &str, token: &str, what: &str, body: &str) -> (StatusCode, Value) {
    app.post(&format!("{}/{what}", game_path(id)), Some(token), body)
        .await
}

async fn place(app: &TestApp, id: &str, token: &str, square: &str) -> (StatusCode, Value) {
    act(
        app,
        id,
        token,
        "place",
        &format!(r#"{{"square":"{square}"}}"#),
    )
    .await
}

/// The first square of a `legal` string.
fn first_legal(you: &Value) -> String {
    let legal = you["legal"].as_str().unwrap();
    assert!(legal.len() >= 2 && legal.len().is_multiple_of(2), "{you}");
    legal[..2].to_owned()
}

/// One turn of the asking seat: draw when there is nothing to place, then place the tile at the
/// first legal square. Returns the state after.
async fn play_turn(app: &TestApp, id: &str, token: &str) -> Value {
    let mut s = state(app, id, Some(token)).await;
    assert_eq!(s["you"]["your_turn"], true, "{}", s["you"]);
    if s["you"]["tile"].is_null() {
        let (status, v) = act(app, id, token, "draw", "").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        s = v;
    }
    let square = first_legal(&s["you"]);
    let (status, v) = place(app, id, token, &square).await;
    assert_eq!(status, StatusCode::OK, "{square}: {v}");
    v
}

async fn wait_for(
    app: &TestApp,
    id: &str,
    token: Option<&str>,
    what: impl Fn(&Value) -> bool,
) -> Value {
    common::poll(1200, || state(app, id, token), what).await
}

/// Asserts the scores and lines of a state are the engine's for its sequence.
fn assert_scored(s: &Value) {
    let sequence: metro::Sequence = s["sequence"].as_str().unwrap().parse().unwrap();
    let board = metro::Board::from_sequence(&sequence).unwrap();
    let n = s["players"].as_array().unwrap().len() as u8;
    let score = metro::Score::new(&board, metro::PlayerCount::new(n).unwrap());
    assert_eq!(s["scores"], json!(score.totals));
    for (i, p) in s["players"].as_array().unwrap().iter().enumerate() {
        assert_eq!(p["score"], score.totals[i]);
    }
    let lines = s["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 32);
    for (line, expected) in lines.iter().zip(&score.lines) {
        assert_eq!(line["station"], expected.line.station.number());
        assert_eq!(line["points"], expected.line.points);
        assert_eq!(line["length"], expected.line.length);
        assert_eq!(
            line["owner"],
            json!(expected.owner.map(|p| p.index())),
            "station {}",
            expected.line.station
        );
        assert_eq!(
            line["squares"].as_array().unwrap().len(),
            line["entries"].as_array().unwrap().len()
        );
    }
}

#[tokio::test]
async fn the_tile_table() {
    let app = TestApp::start().await;
    let t = app.get("/api/metro/tiles", None).await.is(StatusCode::OK);
    assert_eq!(t["tiles"].as_array().unwrap().len(), 24);
    let copies: u64 = common::each(&t["tiles"], |t| t["copies"].as_u64().unwrap())
        .into_iter()
        .sum();
    assert_eq!(copies, 60);
    assert_eq!(t["deck"], 60);
    assert_eq!(
        t["tiles"][1],
        json!({"code":"cbaa","copies":4,"tracks":[[0,7],[2,5],[4,1],[6,3]],"way_out":["left","bottom","top","right"]})
    );
    assert_eq!(t["stations"].as_array().unwrap().len(), 32);
    assert_eq!(
        t["stations"][0],
        json!({"station":1,"square":"07","side":0})
    );
    assert_eq!(
        t["stations"][31],
        json!({"station":32,"square":"07","side":1})
    );
    assert_eq!(t["centre"], json!(["33", "34", "43", "44"]));
    assert_eq!(t["owners"].as_array().unwrap().len(), 5);
    assert_eq!(t["owners"][2][3], 0, "station 4 is P1's with 4 players");
    assert_eq!(
        t["owners"][4][15],
        Value::Null,
        "station 16 is nobody's with 6"
    );
    let levels: Vec<&str> = common::each(&t["levels"], |l| l.as_str().unwrap());
    assert_eq!(levels, metro::ai::AGENTS.to_vec());
    assert_eq!(t["default_level"], "strong");
    assert_eq!(
        (t["min_players"].as_u64(), t["max_players"].as_u64()),
        (Some(2), Some(6))
    );
}

#[tokio::test]
async fn creating_a_game_checks_its_input() {
    let app = TestApp::start().await;
    let human = r#"{"kind":"human"}"#;
    let bad = [
        ("".to_owned(), "missing field `players`"),
        (r#"{"players":[]}"#.to_owned(), "2 to 6 players, not 0"),
        (
            format!(r#"{{"players":[{human}]}}"#),
            "2 to 6 players, not 1",
        ),
        (
            format!(r#"{{"players":[{}]}}"#, [human; 7].join(",")),
            "2 to 6 players, not 7",
        ),
        (
            r#"{"players":[{"kind":"human"},{"kind":"robot"}]}"#.to_owned(),
            "unknown variant",
        ),
        (
            r#"{"players":[{"kind":"human"},{"kind":"computer","level":"deep-blue"}]}"#.to_owned(),
            "players[1]: unknown level",
        ),
        (
            r#"{"players":[{"kind":"human","level":"greedy"},{"kind":"human"}]}"#.to_owned(),
            "players[0]: a level is chosen only for a computer seat",
        ),
        (
            r#"{"players":[{"kind":"human"},{"kind":"computer","invite":true}]}"#.to_owned(),
            "players[1]: only a person is invited",
        ),
        (
            format!(
                r#"{{"players":[{human},{{"kind":"human","name":"{}"}}]}}"#,
                "x".repeat(33)
            ),
            "players[1]: a name has at most 32",
        ),
        (
            format!(r#"{{"players":[{human},{human}],"colour":"red"}}"#),
            "unknown field",
        ),
        (
            format!(r#"{{"players":[{human},{{"kind":"human","age":3}}]}}"#),
            "unknown field",
        ),
        (
            format!(r#"{{"players":[{human},{human}],"seed":-1}}"#),
            "malformed JSON",
        ),
        (r#"{"players":"#.to_owned(), "malformed JSON"),
    ];
    for (body, why) in bad {
        let (status, v) = app.post("/api/metro/games", None, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(why), "{body}: {error}");
    }

    // A person on this device gets a token; an invited person and a computer do not.
    let v = app.post("/api/metro/games", None, r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"computer","level":"random"},{"kind":"human","invite":true},{"kind":"human","name":"Cy"}]}"#).await.is(StatusCode::CREATED);
    assert_eq!(v["id"].as_str().unwrap().len(), 24);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(
        (&seats[0]["seat"], &seats[1]["seat"]),
        (&json!(0), &json!(3))
    );
    assert_eq!(seats[0]["token"].as_str().unwrap().len(), 64);
    let s = state(&app, v["id"].as_str().unwrap(), None).await;
    let names: Vec<&str> = common::each(&s["players"], |p| p["name"].as_str().unwrap());
    assert_eq!(names, ["Ann", "Computer 2", "Player 3", "Cy"]);
    assert_eq!(s["players"][1]["kind"], "computer");
    assert_eq!(s["players"][1]["level"], "random");
    assert_eq!(s["players"][2]["open"], true);
    assert_eq!(s["players"][2]["invited"], true);
    assert_eq!(s["open_seats"], json!([2]));
    // Four players: P1 owns 4 7 11 16 20 23 27 32.
    assert_eq!(
        s["players"][0]["stations"],
        json!([4, 7, 11, 16, 20, 23, 27, 32])
    );
    // A computer level defaults to the strongest.
    let (id, _) = create(
        &app,
        r#"{"players":[{"kind":"human"},{"kind":"computer"}],"seed":3}"#,
    )
    .await;
    assert_eq!(
        state(&app, &id, None).await["players"][1]["level"],
        "strong"
    );
}

#[tokio::test]
async fn a_seat_sees_its_own_hand_only_and_the_seed_stays_secret() {
    let app = TestApp::start().await;
    let (id, t) = create_people(&app, 3, 42).await;
    let (status, v) = act(&app, &id, &t[0], "draw", "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let drawn = v["you"]["drawn"].as_str().unwrap().to_owned();
    assert_eq!(v["phase"], "drawn");
    assert_eq!(v["you"]["tile"], drawn.as_str());
    assert_eq!(v["deck_left"], 59);
    // Nobody else sees the tile drawn.
    for text in [
        state(&app, &id, Some(&t[1])).await.to_string(),
        state(&app, &id, None).await.to_string(),
    ] {
        assert!(!text.contains(&format!("\"{drawn}\"")), "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v["seed"].is_null(), "{text}");
    }
    let (status, v) = act(&app, &id, &t[0], "keep", "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["you"]["hand"], drawn.as_str());
    assert_eq!(v["phase"], "must_place");
    let second = v["you"]["drawn"].as_str().unwrap().to_owned();
    assert_eq!(v["you"]["tile"], second.as_str());
    assert_eq!(v["deck_left"], 58);
    let theirs = state(&app, &id, Some(&t[1])).await;
    assert_eq!(theirs["players"][0]["holding"], true);
    assert_eq!(theirs["players"][1]["holding"], false);
    assert_eq!(theirs["you"]["hand"], Value::Null);
    assert_eq!(theirs["you"]["drawn"], Value::Null);
    assert_eq!(theirs["you"]["tile"], Value::Null);
    assert_eq!(theirs["you"]["legal"], "");
    assert_eq!(theirs["you"]["your_turn"], false);
    assert_eq!(theirs["you"]["draw"]["rule"], "not your turn");
    let public = state(&app, &id, None).await;
    assert!(public.get("you").is_none());
    assert_eq!(public["turn"], 0);
    // The moves say who drew and kept, never what.
    assert_eq!(
        public["moves"],
        json!([{"action":"draw","seat":0},{"action":"keep","seat":0},{"action":"draw","seat":0}])
    );
    for text in [theirs.to_string(), public.to_string()] {
        for tile in [&drawn, &second] {
            assert!(!text.contains(&format!("\"{tile}\"")), "{tile} in {text}");
        }
    }
}

#[tokio::test]
async fn the_turn_and_hand_rules() {
    let app = TestApp::start().await;
    let (id, t) = create_people(&app, 2, 7).await;
    // Nothing drawn: place and keep are refused, and say why.
    let s = state(&app, &id, Some(&t[0])).await;
    assert_eq!(s["you"]["draw"]["allowed"], true);
    assert_eq!(s["you"]["keep"]["allowed"], false);
    assert_eq!(s["you"]["keep"]["rule"], "draw first");
    assert_eq!(s["you"]["place"]["allowed"], false);
    let (status, v) = place(&app, &id, &t[0], "00").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["rule"], "draw first");
    let (status, v) = act(&app, &id, &t[0], "keep", "").await;
    assert_eq!(
        (status, &v["rule"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("draw first"))
    );
    // Another seat's turn: 409.
    let (status, v) = act(&app, &id, &t[1], "draw", "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["rule"], "not your turn");

    // Draw: place it or keep it; drawing again is refused.
    let (_, v) = act(&app, &id, &t[0], "draw", "").await;
    assert_eq!(v["you"]["keep"]["allowed"], true);
    assert_eq!(v["you"]["draw"]["rule"], "already drawn");
    let (status, v) = act(&app, &id, &t[0], "draw", "").await;
    assert_eq!(
        (status, &v["rule"]),
        (StatusCode::UNPROCESSABLE_ENTITY, &json!("already drawn"))
    );
    // An illegal square: refused with the engine's reason; nothing changes.
    let before = state(&app, &id, Some(&t[0])).await;
    let (status, v) = place(&app, &id, &t[0], "33").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "centre square");
    assert!(
        v["error"].as_str().unwrap().contains("centre square"),
        "{v}"
    );
    let (status, v) = place(&app, &id, &t[0], "22").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["rule"], "not touching");
    assert_eq!(state(&app, &id, Some(&t[0])).await, before);

    // Keep: the second tile must be placed at once.
    let (status, v) = act(&app, &id, &t[0], "keep", "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let kept = v["you"]["hand"].as_str().unwrap().to_owned();
    assert_eq!(v["you"]["keep"]["rule"], "second draw must be placed");
    assert_eq!(v["you"]["draw"]["rule"], "second draw must be placed");
    for what in ["keep", "draw"] {
        let (status, e) = act(&app, &id, &t[0], what, "").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(e["rule"], "second draw must be placed");
        assert!(
            e["error"]
                .as_str()
                .unwrap()
                .contains("must be placed at once"),
            "{e}"
        );
    }
    // The page says which tile it means to place: a stale page is refused (409).
    let second = v["you"]["tile"].as_str().unwrap().to_owned();
    let stale = if second == "aaaa" { "cbaa" } else { "aaaa" };
    let (status, e) = act(
        &app,
        &id,
        &t[0],
        "place",
        &format!(r#"{{"square":"00","tile":"{stale}"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert_eq!(
        e["error"],
        format!("the tile to place is {second}, not {stale}")
    );
    let square = first_legal(&v["you"]);
    let (status, v) = act(
        &app,
        &id,
        &t[0],
        "place",
        &format!(r#"{{"square":"{square}","tile":"{second}"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["sequence"], format!("{second}{square}"));
    assert_eq!(v["turn"], 1);
    assert_eq!(v["you"]["hand"], kept.as_str());
    assert_eq!(v["players"][0]["holding"], true);

    // P2 plays a turn; then P1, holding a tile, may place it without drawing...
    play_turn(&app, &id, &t[1]).await;
    let s = state(&app, &id, Some(&t[0])).await;
    assert_eq!(s["phase"], "start");
    assert_eq!(s["you"]["tile"], kept.as_str());
    assert_eq!(s["you"]["place"]["allowed"], true);
    assert_eq!(s["you"]["draw"]["allowed"], true);
    assert_eq!(s["you"]["keep"]["rule"], "nothing to keep");
    // ...or draw a new tile, which must then be placed while the held one stays in hand.
    let (status, v) = act(&app, &id, &t[0], "draw", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["phase"], "must_place");
    assert_eq!(v["you"]["hand"], kept.as_str());
    assert_ne!(v["you"]["tile"], Value::Null);
    assert_eq!(v["you"]["keep"]["allowed"], false);
    let square = first_legal(&v["you"]);
    let (_, v) = place(&app, &id, &t[0], &square).await;
    assert_eq!(v["you"]["hand"], kept.as_str());
    play_turn(&app, &id, &t[1]).await;
    // Placing the held tile empties the hand.
    let s = state(&app, &id, Some(&t[0])).await;
    let square = first_legal(&s["you"]);
    let (status, v) = place(&app, &id, &t[0], &square).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["you"]["hand"], Value::Null);
    assert_eq!(v["players"][0]["holding"], false);
    assert!(
        v["sequence"]
            .as_str()
            .unwrap()
            .ends_with(&format!("{kept}{square}"))
    );
    assert_scored(&v);
}

#[tokio::test]
async fn refusals_have_their_status() {
    let app = TestApp::start().await;
    let (id, t) = create_people(&app, 2, 9).await;
    let unknown = "0123456789abcdef01234567";
    common::assert_no_such_game(&app, "metro").await;
    let (status, _) = act(&app, unknown, &t[0], "draw", "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.post(&format!("{}/join", game_path(unknown)), None, "")
        .await
        .is(StatusCode::NOT_FOUND);
    // A Railroad Ink game is not a Metro game, and the other way round.
    let v = app
        .post("/api/ink/games", None, r#"{"mode":"solo"}"#)
        .await
        .is(StatusCode::CREATED);
    let ink = v["id"].as_str().unwrap();
    assert_eq!(
        app.get(&game_path(ink), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get(&format!("/api/ink/games/{id}"), None).await.0,
        StatusCode::NOT_FOUND
    );

    // Tokens.
    for what in ["draw", "keep", "place"] {
        let body = r#"{"square":"00"}"#;
        let path = format!("{}/{what}", game_path(&id));
        let (status, _) = app.post(&path, Some("wrong"), body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{what}");
        let (status, _) = app.post(&path, None, body).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}");
    }
    assert_eq!(
        app.get(&game_path(&id), Some("wrong")).await.0,
        StatusCode::FORBIDDEN
    );
    let (_, other) = create_people(&app, 2, 1).await;
    let (status, _) = act(&app, &id, &other[0], "draw", "").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "another game's token");

    // Malformed bodies.
    act(&app, &id, &t[0], "draw", "").await;
    for body in [
        "",
        "{}",
        r#"{"square":"08"}"#,
        r#"{"square":"0"}"#,
        r#"{"square":3}"#,
        r#"{"square":"00","tile":"abcd"}"#,
        r#"{"square":"00","placement":"aaaa00"}"#,
        "not json",
    ] {
        let (status, v) = act(&app, &id, &t[0], "place", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
    }
    let huge = format!(r#"{{"square":"{}"}}"#, "0".repeat(100_000));
    assert_eq!(
        act(&app, &id, &t[0], "place", &huge).await.0,
        StatusCode::BAD_REQUEST
    );
    // Joining a game without open seats.
    app.post(&format!("{}/join", game_path(&id)), None, "{}")
        .await
        .is(StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_whole_two_player_game() {
    let app = TestApp::start().await;
    let (id, t) = create_people(&app, 2, 2024).await;
    let mut last = Value::Null;
    let mut turns = 0;
    while last["finished"] != true {
        let s = state(&app, &id, None).await;
        let seat = s["turn"].as_u64().unwrap() as usize;
        last = play_turn(&app, &id, &t[seat]).await;
        turns += 1;
        if turns % 20 == 0 {
            assert_scored(&last);
        }
    }
    assert_eq!(turns, 60);
    assert_eq!(last["phase"], "over");
    assert_eq!(last["turn"], Value::Null);
    assert_eq!(last["deck_left"], 0);
    assert_eq!(last["sequence"].as_str().unwrap().len(), 360);
    assert_eq!(last["seed"], "2024");
    assert_scored(&last);
    let scores: Vec<u64> = common::each(&last["scores"], |s| s.as_u64().unwrap());
    let best = *scores.iter().max().unwrap();
    let winners: Vec<usize> = (0..2).filter(|&i| scores[i] == best).collect();
    assert_eq!(last["winners"], json!(winners));
    // Every line is finished on a full board.
    assert!(
        last["lines"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["end"]["kind"] != "unfinished")
    );
    for what in ["draw", "keep", "place"] {
        let (status, v) = act(&app, &id, &t[0], what, r#"{"square":"00"}"#).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{what}");
        assert_eq!(v["rule"], "game over");
    }
    // The same seed and the same actions give the same game (the state is a replay).
    let actions: Vec<metro::Action> = last["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| match m["action"].as_str().unwrap() {
            "draw" => Some(metro::Action::Draw),
            "keep" => Some(metro::Action::Keep),
            "place" => Some(metro::Action::Place(
                m["square"].as_str().unwrap().parse().unwrap(),
            )),
            _ => None,
        })
        .collect();
    let config = metro::Config::new(metro::PlayerCount::new(2).unwrap());
    let replayed = metro::Game::replay(config, 2024, &actions).unwrap();
    assert_eq!(
        replayed.sequence().to_string(),
        last["sequence"].as_str().unwrap()
    );
}

#[tokio::test]
async fn computer_seats_play_until_a_persons_turn() {
    let app = TestApp::start().await;
    let (id, seats) = create(
        &app,
        r#"{"players":[{"kind":"computer","level":"greedy"},{"kind":"human","name":"Ann"},{"kind":"computer","level":"random"},{"kind":"computer","level":"strong"}],"seed":5}"#,
    )
    .await;
    assert_eq!(seats.len(), 1);
    let (seat, token) = &seats[0];
    assert_eq!(*seat, 1);
    loop {
        let s = wait_for(&app, &id, Some(token), |s| {
            s["finished"] == true || s["turn"] == 1
        })
        .await;
        if s["finished"] == true {
            assert_scored(&s);
            assert_eq!(s["sequence"].as_str().unwrap().len(), 360);
            // Every seat placed tiles.
            for k in 0..4 {
                assert!(
                    s["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|m| m["action"] == "place" && m["seat"] == k),
                    "seat {k}"
                );
            }
            break;
        }
        play_turn(&app, &id, token).await;
    }
}

#[tokio::test]
async fn a_game_needs_a_person_and_its_computers_play_around_them() {
    let app = TestApp::start().await;
    // Computers alone would cost the server for nobody: refused.
    let v = app.post("/api/metro/games", None, r#"{"players":[{"kind":"computer","level":"random"},{"kind":"computer","level":"greedy"}],"seed":8}"#).await.is(StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("person"), "{v}");
    let (id, seats) = create(
        &app,
        r#"{"players":[{"kind":"computer","level":"random"},{"kind":"computer","level":"greedy"},{"kind":"human","name":"Ann"}],"seed":8}"#,
    )
    .await;
    let token = seats[0].1.clone();
    loop {
        let s = wait_for(&app, &id, Some(&token), |s| {
            s["finished"] == true || s["turn"] == 2
        })
        .await;
        if s["finished"] == true {
            assert_scored(&s);
            assert_eq!(s["seed"], "8");
            break;
        }
        play_turn(&app, &id, &token).await;
    }
}

#[tokio::test]
async fn invited_people_take_open_seats_by_link() {
    let app = TestApp::start().await;
    let (id, seats) = create(
        &app,
        r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"human","invite":true,"name":"Bob?"},{"kind":"human","invite":true}],"seed":11}"#,
    )
    .await;
    assert_eq!(seats.len(), 1);
    let ann = seats[0].1.clone();
    let join = format!("{}/join", game_path(&id));
    let s = state(&app, &id, None).await;
    assert_eq!(s["open_seats"], json!([1, 2]));
    assert_eq!(s["version"], 0);
    // Ann plays; then it is an open seat's turn and the game waits.
    play_turn(&app, &id, &ann).await;
    app.post(&join, None, r#"{"seat":5}"#)
        .await
        .is(StatusCode::BAD_REQUEST);
    app.post(&join, None, r#"{"seat":0}"#)
        .await
        .is(StatusCode::CONFLICT);
    let v = app
        .post(&join, None, r#"{"name":"Bob"}"#)
        .await
        .is(StatusCode::CREATED);
    assert_eq!(v["seat"], 1);
    let bob = v["token"].as_str().unwrap().to_owned();
    let s = state(&app, &id, Some(&bob)).await;
    assert_eq!(s["you"]["seat"], 1);
    assert_eq!(s["you"]["your_turn"], true);
    assert_eq!(s["players"][1]["name"], "Bob");
    assert_eq!(s["players"][1]["open"], false);
    assert_eq!(s["open_seats"], json!([2]));
    assert_eq!(s["version"], 3, "draw, place and a seat taken");
    // The last seat keeps its planned name when the person gives none.
    let v = app
        .post(&join, None, r#"{"seat":2}"#)
        .await
        .is(StatusCode::CREATED);
    let cy = v["token"].as_str().unwrap().to_owned();
    assert_eq!(
        state(&app, &id, Some(&cy)).await["players"][2]["name"],
        "Player 3"
    );
    let v = app.post(&join, None, "").await.is(StatusCode::CONFLICT);
    assert_eq!(v["error"], "every seat is taken");
    play_turn(&app, &id, &bob).await;
    play_turn(&app, &id, &cy).await;
    assert_eq!(state(&app, &id, None).await["turn"], 0);
}

#[tokio::test]
async fn live_updates_over_server_sent_events() {
    let app = TestApp::start().await;
    let (id, seats) = create(
        &app,
        r#"{"players":[{"kind":"human"},{"kind":"human","invite":true}],"seed":1}"#,
    )
    .await;
    let ann = &seats[0].1;
    let mut events = Events::open(&app, &format!("{}/events", game_path(&id))).await;
    assert_eq!(events.next_state().await, 0);
    act(&app, &id, ann, "draw", "").await;
    assert_eq!(events.next_state().await, 1);
    app.post(&format!("{}/join", game_path(&id)), None, "")
        .await
        .is(StatusCode::CREATED);
    assert_eq!(events.next_state().await, 2);
}

#[tokio::test]
async fn a_restarted_server_continues_every_metro_game() {
    let mut app = TestApp::start().await;
    let (people, t) = create_people(&app, 3, 31).await;
    for turn in 0..7 {
        play_turn(&app, &people, &t[turn % 3]).await;
    }
    // Seat 1 keeps a tile and must place the second draw: the restart keeps that too.
    act(&app, &people, &t[1], "draw", "").await;
    act(&app, &people, &t[1], "keep", "").await;
    let (mixed, seats) = create(
        &app,
        r#"{"players":[{"kind":"human"},{"kind":"computer","level":"greedy"},{"kind":"human","invite":true}],"seed":32}"#,
    )
    .await;
    let ann = seats[0].1.clone();
    play_turn(&app, &mixed, &ann).await;
    wait_for(&app, &mixed, None, |s| s["turn"] == 2).await;
    let before = reads(&app, &people, &t, &mixed, &ann).await;
    app.restart().await;
    let after = reads(&app, &people, &t, &mixed, &ann).await;
    assert_eq!(before, after);
    // Play goes on where it was.
    let s = state(&app, &people, Some(&t[1])).await;
    assert_eq!(s["phase"], "must_place");
    let square = first_legal(&s["you"]);
    assert_eq!(place(&app, &people, &t[1], &square).await.0, StatusCode::OK);
    let v = app
        .post(&format!("{}/join", game_path(&mixed)), None, "")
        .await
        .is(StatusCode::CREATED);
    let cy = v["token"].as_str().unwrap().to_owned();
    play_turn(&app, &mixed, &cy).await;
    wait_for(&app, &mixed, None, |s| s["turn"] == 0).await;
}

/// Every seat's state and a spectator's, of both games of the restart test.
async fn reads(app: &TestApp, people: &str, t: &[String], mixed: &str, ann: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for token in t {
        out.push(state(app, people, Some(token)).await);
    }
    out.push(state(app, people, None).await);
    out.push(state(app, mixed, Some(ann)).await);
    out.push(state(app, mixed, None).await);
    out
}

#[tokio::test]
async fn a_computer_whose_turn_is_due_plays_when_its_game_loads() {
    let mut app = TestApp::start().await;
    // A game whose first seat is a computer, as a server that stopped before it moved left it.
    let id = "00112233445566778899aabb";
    let setup = r#"{"config":{"players":2},"seed":12,"seats":[{"kind":"computer","name":"Robo","level":"greedy"},{"kind":"human","name":"Ann","invite":true}]}"#;
    let robo = server::game::Seat::named_computer("Robo".into(), "greedy");
    common::store_game(&app, id, "metro", ("seats", setup), vec![robo]).await;
    app.restart().await;
    let s = wait_for(&app, id, None, |s| s["turn"] == 1).await;
    assert_eq!(s["sequence"].as_str().unwrap().len(), 6);
    assert_eq!(s["players"][0]["name"], "Robo");
    assert_eq!(s["open_seats"], json!([1]));
}

#[tokio::test]
async fn junk_never_gets_a_server_error() {
    let app = TestApp::start().await;
    let (id, t) = create_people(&app, 2, 4).await;
    let token = t[0].clone();
    let fragments = [
        "{",
        "}",
        "\"square\"",
        ":",
        "\"03\"",
        "null",
        "[",
        "]",
        "\"players\"",
        "\"kind\"",
        "\"human\"",
        "\"computer\"",
        "\"level\"",
        "\"seat\"",
        "-1",
        "1e400",
        "\"\\u0000\"",
        ",",
        "\"tile\"",
        "\"aaaa\"",
        "true",
        "\u{1F687}",
    ];
    let endpoints = [
        "/api/metro/games".to_owned(),
        format!("{}/join", game_path(&id)),
        format!("{}/draw", game_path(&id)),
        format!("{}/keep", game_path(&id)),
        format!("{}/place", game_path(&id)),
    ];
    let paths = [
        "/api/metro/games/%00",
        "/api/metro/games/..%2F..%2Fetc",
        "/api/metro/games/0123456789abcdef01234567/place/extra",
        "/api/metro/games//draw",
        "/api/metro/tiles?x=%ff",
        "/metro/%ff%fe",
    ];
    let game = game_path(&id);
    send_junk(
        &app,
        0x2545_f491_4f6c_dd1d,
        &game,
        &token,
        &endpoints,
        &fragments,
        &paths,
    )
    .await;
}
