//! Challenges keep their secrets: no dice, deck or seed before they are dealt, and one person
//! one ranked attempt. Each test is one way a player could learn a challenge's future, or
//! take a second ranked attempt, before this was closed off.

mod common;

use std::time::{Duration, Instant};

use common::challenge::{
    TODAY, TOMORROW, app_at, board, events_status, ink_state, play, play_from, play_ink_game,
    play_ink_round, play_metro_game, player, wait_for_computer,
};
use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::{Value, json};

const DAILY: &str = "daily-2026-11-26";
const METRO_DAILY: &str = "metro-daily-2026-11-26";

/// Moves a test's server to another time (the same database).
async fn travel(app: &mut TestApp, now: &str) {
    app.config.clock = server::Clock::parse(now).unwrap();
    app.restart().await;
}

/// The status of a game's state, replay and live updates for `token`.
async fn sight(app: &TestApp, kind: &str, game: &str, token: Option<&str>) -> [StatusCode; 3] {
    let path = format!("/api/{kind}/games/{game}");
    let (state, v) = app.get(&path, token).await;
    if state != StatusCode::OK {
        assert!(v["error"].is_string(), "the JSON error: {v}");
    }
    let (replay, _) = app.get(&format!("{path}/replay"), token).await;
    // Live updates open with a seat's token, or with a ticket asked for with a player's key.
    let events = match token {
        None => events_status(app, &format!("{path}/events"), None).await,
        Some(token) => match app.post(&format!("{path}/ticket"), Some(token), "").await {
            (StatusCode::OK, t) => {
                let ticket = t["ticket"].as_str().unwrap();
                events_status(app, &format!("{path}/events?ticket={ticket}"), None).await
            }
            (status, _) => status,
        },
    };
    [state, replay, events]
}

const HIDDEN: [StatusCode; 3] = [StatusCode::FORBIDDEN; 3];
const SEEN: [StatusCode; 3] = [StatusCode::OK; 3];

/// Every game id listed by `GET /api/games`, page by page.
async fn listed_games(app: &TestApp) -> Vec<String> {
    let mut ids = Vec::new();
    let mut before: Option<String> = None;
    loop {
        let path = match &before {
            Some(b) => format!("/api/games?limit=2&before={b}"),
            None => "/api/games?limit=2".to_owned(),
        };
        let page = app.get(&path, None).await.is(StatusCode::OK);
        for g in page["games"].as_array().unwrap() {
            ids.push(g["id"].as_str().unwrap().to_owned());
        }
        match page["next"].as_str() {
            Some(next) => before = Some(next.to_owned()),
            None => return ids,
        }
    }
}

#[tokio::test]
async fn an_open_challenges_games_are_seen_by_their_seats_and_finished_players_only() {
    let mut app = app_at(TODAY).await;
    wait_for_computer(&app, DAILY).await;
    wait_for_computer(&app, METRO_DAILY).await;
    // The computers' games, found the day after (then everyone sees them), then back to the day.
    travel(&mut app, TOMORROW).await;
    let computer_ink = board(&app, DAILY, None).await["leaderboard"]["computer"]["game"]
        .as_str()
        .expect("closed: the computer's board is everyone's")
        .to_owned();
    let computer_metro = board(&app, METRO_DAILY, None).await["leaderboard"]["computer"]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(sight(&app, "ink", &computer_ink, None).await, SEEN);
    assert_eq!(sight(&app, "metro", &computer_metro, None).await, SEEN);
    travel(&mut app, TODAY).await;

    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    // While the challenge is open, nobody who has not finished it sees the computers' games:
    // not their seeds, rolls or decks, nor how far they got.
    for token in [None, Some(ann.as_str())] {
        assert_eq!(sight(&app, "ink", &computer_ink, token).await, HIDDEN);
        assert_eq!(sight(&app, "metro", &computer_metro, token).await, HIDDEN);
    }
    let listed = listed_games(&app).await;
    assert!(!listed.contains(&computer_ink) && !listed.contains(&computer_metro));

    // Ann's own game: her seat sees it (its token, or her player's); Bob does not.
    let (_, a) = play(&app, DAILY, &ann).await;
    let (game, seat) = (a["game"].as_str().unwrap(), a["token"].as_str().unwrap());
    let path = format!("/api/ink/games/{game}");
    assert_eq!(app.get(&path, Some(seat)).await.0, StatusCode::OK);
    assert_eq!(app.get(&path, Some(&ann)).await.0, StatusCode::OK);
    assert_eq!(
        events_status(&app, &format!("{path}/events"), Some(seat)).await,
        StatusCode::OK
    );
    for token in [None, Some(bob.as_str())] {
        assert_eq!(sight(&app, "ink", game, token).await, HIDDEN);
    }
    // The live updates take the token in the query too (a browser's EventSource sends no
    // header).
    assert_eq!(
        events_status(&app, &format!("{path}/events?token={seat}"), None).await,
        StatusCode::OK
    );
    assert_eq!(
        events_status(&app, &format!("{path}/events?token={bob}"), None).await,
        StatusCode::FORBIDDEN
    );
    play_ink_game(&app, game, seat).await;
    assert!(!listed_games(&app).await.contains(&game.to_owned()));
    // Finished, Ann sees the computer's game, without its seed; Bob still sees nothing.
    assert_eq!(sight(&app, "ink", &computer_ink, Some(&ann)).await, SEEN);
    let (_, r) = app
        .get(&format!("/api/ink/games/{computer_ink}/replay"), Some(&ann))
        .await;
    assert!(r.get("seed").is_none(), "{r}");
    assert_eq!(sight(&app, "ink", game, Some(&bob)).await, HIDDEN);
    assert_eq!(
        sight(&app, "metro", &computer_metro, Some(&ann)).await,
        HIDDEN
    );

    // The Metro daily: the person's game as well.
    let (_, m) = play(&app, METRO_DAILY, &bob).await;
    let (mgame, mseat) = (m["game"].as_str().unwrap(), m["token"].as_str().unwrap());
    assert_eq!(sight(&app, "metro", mgame, Some(&ann)).await, HIDDEN);
    assert_eq!(
        app.get(&format!("/api/metro/games/{mgame}"), Some(mseat))
            .await
            .0,
        StatusCode::OK
    );

    // Closed, everything is everyone's.
    travel(&mut app, TOMORROW).await;
    assert_eq!(sight(&app, "ink", game, None).await, SEEN);
    let (_, r) = app
        .get(&format!("/api/ink/games/{computer_ink}/replay"), None)
        .await;
    assert!(r["seed"].is_string(), "{r}");
}

#[tokio::test]
async fn no_game_id_or_seed_leaves_a_leaderboard_or_player_page_before_its_time() {
    let app = app_at(TODAY).await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let (bob_id, bob) = player(&app, "Bob").await;
    // Ann and Bob play an online game together, each as their player.
    let body = r#"{"mode":"online","name":"Ann"}"#;
    let (online, ann_seat, bob_seat) =
        common::online_game(&app, body, [Some(&ann), Some(&bob)]).await;
    let (online, ann_seat, bob_seat) = (online.as_str(), ann_seat.as_str(), bob_seat.as_str());
    for _ in 0..7 {
        play_ink_round(&app, online, ann_seat).await;
        play_ink_round(&app, online, bob_seat).await;
    }
    // (Read by a seat: a spectator's look would send the friend challenge to new dice.)
    assert_eq!(
        ink_state(&app, online, Some(ann_seat)).await.1["finished"],
        true
    );
    // Only a seat of the game makes a friend challenge from it; it lands on the pages of the
    // players who sat in the game (each has played its dice).
    let (_, eve) = player(&app, "Eve").await;
    let make = json!({"kind": "friend", "from": online}).to_string();
    assert_eq!(
        app.post("/api/challenges", Some(&eve), &make).await.0,
        StatusCode::FORBIDDEN
    );
    let made = app
        .post("/api/challenges", Some(&ann), &make)
        .await
        .is(StatusCode::CREATED);
    let friend = made["id"].as_str().unwrap();
    let (_, ann_page) = app.get(&format!("/api/players/{ann_id}"), None).await;
    let (_, bob_page) = app.get(&format!("/api/players/{bob_id}"), None).await;
    assert_eq!(made["same_dice"], true, "{made}");
    assert_eq!(ann_page["challenges"], 1, "{ann_page}");
    assert_eq!(bob_page["challenges"], 1, "{bob_page}");
    // The friend challenge's game is its own now: Eve, who has not played it, sees neither it
    // nor its id nor its dice; it leaves the recent games.
    assert!(!listed_games(&app).await.contains(&online.to_owned()));
    assert_eq!(sight(&app, "ink", online, Some(&eve)).await, HIDDEN);
    assert_eq!(sight(&app, "ink", online, Some(bob_seat)).await, SEEN);

    // The daily: Ann finishes it, Cy and nobody look.
    let (_, a) = play(&app, DAILY, &ann).await;
    let daily_game = a["game"].as_str().unwrap().to_owned();
    play_ink_game(&app, &daily_game, a["token"].as_str().unwrap()).await;
    let computer_game = wait_for_computer(&app, DAILY).await;
    let computer_game = board(&app, DAILY, Some(&ann)).await["leaderboard"]["computer"]["game"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("{computer_game}"));
    let (_, cy) = player(&app, "Cy").await;
    play(&app, DAILY, &cy).await;
    let secrets = [online, daily_game.as_str(), computer_game.as_str()];
    for (challenge, asker) in [
        (DAILY, None),
        (DAILY, Some(cy.as_str())),
        (friend, None),
        (friend, Some(eve.as_str())),
    ] {
        let b = board(&app, challenge, asker).await;
        let text = b.to_string();
        for id in secrets {
            assert!(!text.contains(id), "{challenge} shows {id}: {text}");
        }
        assert!(b.get("seed").is_none(), "{b}");
        assert!(b.get("from").is_none(), "{b}");
        let (_, cur) = app.get("/api/challenges/current", asker).await;
        for id in secrets {
            assert!(!cur.to_string().contains(id), "{cur}");
        }
    }
    for id in [&ann_id, &bob_id] {
        let (_, page) = app.get(&format!("/api/players/{id}"), None).await;
        for secret in secrets {
            assert!(!page.to_string().contains(secret), "{page}");
        }
    }
}

#[tokio::test]
async fn no_friend_challenge_from_a_game_of_an_open_challenge() {
    let mut app = app_at(TODAY).await;
    wait_for_computer(&app, DAILY).await;
    travel(&mut app, TOMORROW).await;
    let computer = board(&app, DAILY, None).await["leaderboard"]["computer"]["game"]
        .as_str()
        .unwrap()
        .to_owned();
    travel(&mut app, TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, a) = play(&app, DAILY, &ann).await;
    let (game, seat) = (a["game"].as_str().unwrap(), a["token"].as_str().unwrap());
    play_ink_game(&app, game, seat).await;
    for (from, seat_token) in [(game, Some(seat)), (computer.as_str(), None)] {
        let mut body = json!({"kind": "friend", "from": from});
        if let Some(t) = seat_token {
            body["seat_token"] = json!(t);
        }
        let (status, v) = app
            .post("/api/challenges", Some(&ann), &body.to_string())
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{from}: {v}");
        assert!(v["error"].as_str().unwrap().contains(DAILY), "{v}");
    }
    // Once the challenge has closed, its dice are no secret: Ann's game may make one.
    travel(&mut app, TOMORROW).await;
    let body = json!({"kind": "friend", "from": game, "seat_token": seat}).to_string();
    app.post("/api/challenges", Some(&ann), &body)
        .await
        .is(StatusCode::CREATED);
}

#[tokio::test]
async fn the_close_is_the_close() {
    // Eight seconds before midnight (room for a loaded machine: the clock runs from here, the
    // server's start included): Ann starts, places, and is still at it at midnight.
    let midnight = std::time::Instant::now() + Duration::from_secs(8);
    let mut app = app_at("2026-11-26T23:59:52Z").await;
    let (_, ann) = player(&app, "Ann").await;
    let (status, a) = play(&app, DAILY, &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{a}");
    let (game, seat) = (a["game"].as_str().unwrap(), a["token"].as_str().unwrap());
    let (_, s) = ink_state(&app, game, Some(seat)).await;
    let first = common::first_legal_die(&s).unwrap();
    let (status, v) = common::place(&app, game, seat, &first).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    tokio::time::sleep_until((midnight + Duration::from_millis(300)).into()).await;
    let (_, s) = ink_state(&app, game, Some(seat)).await;
    let next = common::first_legal_die(&s).unwrap();
    let (status, v) = common::place(&app, game, seat, &next).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("closed at 2026-11-27T00:00:00Z"), "{error}");
    app.post(&format!("/api/ink/games/{game}/end-round"), Some(seat), "")
        .await
        .is(StatusCode::CONFLICT);
    // Nothing of it was stored: the game is where the close found it.
    assert_eq!(
        ink_state(&app, game, Some(seat)).await.1["version"],
        s["version"]
    );
    // Nobody starts an attempt either.
    let (_, bob) = player(&app, "Bob").await;
    let (status, v) = play(&app, DAILY, &bob).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    // The closed leaderboard lists Ann as not finished.
    travel(&mut app, TOMORROW).await;
    let b = board(&app, DAILY, None).await;
    assert_eq!(b["leaderboard"]["finished"], 0);
    assert_eq!(b["leaderboard"]["unfinished"][0]["name"], "Ann", "{b}");
}

/// A process whose clock is 30 s slow, beside one whose clock is right, on one PostgreSQL
/// database: both close the day's challenge by the database's clock.
#[tokio::test]
async fn a_process_whose_clock_is_behind_closes_by_the_databases_clock() {
    let Some(db) = common::postgres_only().await else {
        return;
    };
    let config = |now: &str| {
        let mut c = common::test_config(db.clone());
        c.clock = server::Clock::parse(now).unwrap();
        c.challenge_budget = Some(4);
        c
    };
    // The day's challenge is made before midnight.
    let before = server::start(&config("2026-11-26T23:59:00Z"))
        .await
        .unwrap();
    let (status, _) = get(before.addr(), &format!("/api/challenges/{DAILY}")).await;
    assert_eq!(status, StatusCode::OK);
    before.stop().await.unwrap();
    // Ten seconds past midnight; the slow process's own clock says 23:59:40.
    let right = config("2026-11-27T00:00:10Z");
    let mut slow = right.clone();
    slow.clock = right.clock.skewed(-30_000);
    let fast = server::start(&right).await.unwrap();
    let slow = server::start(&slow).await.unwrap();
    let (_, b) = get(fast.addr(), &format!("/api/challenges/{DAILY}")).await;
    assert_eq!(b["closed"], true);
    assert!(
        b["seed"].is_string(),
        "the right process shows the seed: {b}"
    );
    let (_, b) = get(slow.addr(), &format!("/api/challenges/{DAILY}")).await;
    assert_eq!(b["closed"], true, "{b}");
    let mut client = common::Client::connect(slow.addr()).await;
    let (status, p) = client
        .call("POST", "/api/players", None, Some(r#"{"name":"Late"}"#))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let (status, v) = client
        .call(
            "POST",
            &format!("/api/challenges/{DAILY}/play"),
            p["token"].as_str(),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    fast.stop().await.unwrap();
    slow.stop().await.unwrap();
}

async fn get(addr: std::net::SocketAddr, path: &str) -> (StatusCode, Value) {
    common::Client::connect(addr)
        .await
        .call("GET", path, None, None)
        .await
}

#[tokio::test]
async fn one_ranked_entry_per_network() {
    let clock = server::Clock::parse(TODAY).unwrap();
    let app = TestApp::start_with(|c| {
        c.clock = clock;
        c.challenge_budget = Some(4);
        c.trust_proxy = true;
    })
    .await;
    assert!(app.config.rank_per_address, "on by default");
    // Ann and Bob share an IPv4 address; Cy and Dee an IPv6 /64; Eve is alone.
    let people = [
        ("Ann", "203.0.113.5"),
        ("Bob", "203.0.113.5"),
        ("Cy", "2001:db8:1:2::1"),
        ("Dee", "2001:db8:1:2:ffff::9"),
        ("Eve", "2001:db8:1:3::1"),
    ];
    let mut tokens = Vec::new();
    for (name, from) in people {
        let (_, token) = player(&app, name).await;
        let (status, p) = play_from(&app, DAILY, &token, from).await;
        assert_eq!(status, StatusCode::CREATED, "{p}");
        play_ink_game(
            &app,
            p["game"].as_str().unwrap(),
            p["token"].as_str().unwrap(),
        )
        .await;
        tokens.push(token);
    }
    let b = board(&app, DAILY, Some(&tokens[1])).await;
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut ranked = names(&b["leaderboard"]["entries"]);
    ranked.sort();
    assert_eq!(ranked, ["Ann", "Cy", "Eve"], "{b}");
    let mut apart = names(&b["leaderboard"]["unranked"]);
    apart.sort();
    assert_eq!(apart, ["Bob", "Dee"], "{b}");
    assert_eq!(b["leaderboard"]["finished"], 3);
    assert_eq!(b["players"], 5);
    let counted: i64 = common::each(&b["leaderboard"]["histogram"], |h| {
        h["count"].as_i64().unwrap()
    })
    .into_iter()
    .sum();
    assert_eq!(counted, 3);
    // Bob played normally: finished, his score kept, no rank, and why.
    assert_eq!(b["you"]["finished"], true);
    assert!(b["you"].get("rank").is_none(), "{b}");
    assert_eq!(
        b["you"]["unranked"],
        "unranked: another entry from this network"
    );
    // The networks are kept until the challenge closes, then forgotten.
    let storage = app.storage();
    let kept = "SELECT CAST(count(*) AS BIGINT) FROM entries WHERE addr IS NOT NULL";
    assert_eq!(storage.count_for_test(kept, &[]).await.unwrap(), 5);
    let stored: i64 = storage
        .count_for_test(
            "SELECT CAST(count(*) AS BIGINT) FROM entries WHERE addr LIKE '203.%' OR addr LIKE '2001%'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(stored, 0, "a keyed hash, not the address");
    storage
        .forget_closed_addresses(server::Clock::parse(TODAY).unwrap().now_ms())
        .await
        .unwrap();
    assert_eq!(storage.count_for_test(kept, &[]).await.unwrap(), 5, "open");
    storage
        .forget_closed_addresses(server::Clock::parse(TOMORROW).unwrap().now_ms())
        .await
        .unwrap();
    assert_eq!(storage.count_for_test(kept, &[]).await.unwrap(), 0);
}

#[tokio::test]
async fn names_are_unique_and_the_computers_are_theirs() {
    let app = app_at(TODAY).await;
    player(&app, "Ann").await;
    for taken in ["Ann", "ann", "ＡＮＮ", " Ann "] {
        let (status, v) = app
            .post("/api/players", None, &json!({ "name": taken }).to_string())
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{taken}: {v}");
        assert!(v["error"].as_str().unwrap().contains("another name"), "{v}");
    }
    for computer in [
        "Computer (strong)",
        "computer (greedy)",
        "Computer 2 (strong)",
    ] {
        let (status, v) = app
            .post(
                "/api/players",
                None,
                &json!({ "name": computer }).to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{computer}: {v}");
    }
    // Nor as a seat's name in a game.
    app.post(
        "/api/ink/games",
        None,
        r#"{"mode":"solo","name":"Computer (strong)"}"#,
    )
    .await
    .is(StatusCode::BAD_REQUEST);
    let v = app
        .post("/api/ink/games", None, r#"{"mode":"online","name":"Ann"}"#)
        .await
        .is(StatusCode::CREATED);
    app.post(
        &format!("/api/ink/games/{}/join", v["id"].as_str().unwrap()),
        None,
        r#"{"name":"COMPUTER (random)"}"#,
    )
    .await
    .is(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_friend_challenge_shows_its_dice_and_boards_only_once_finished() {
    let app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (origin, ann_seat) =
        common::create_as(&app, Some(&ann), r#"{"mode":"solo","name":"Ann"}"#).await;
    let (_, last) = play_ink_game(&app, &origin, &ann_seat).await;
    let body = json!({"kind": "friend", "from": origin, "seat_token": ann_seat}).to_string();
    let made = app
        .post("/api/challenges", Some(&ann), &body)
        .await
        .is(StatusCode::CREATED);
    let id = made["id"].as_str().unwrap();
    // Bob, before playing: the maker's name and score to beat, nothing more.
    let (_, bob) = player(&app, "Bob").await;
    let b = board(&app, id, Some(&bob)).await;
    assert_eq!(b["by"], "Ann");
    assert_eq!(b["target"], last["players"][0]["score"]["advanced"]);
    assert!(b.get("from").is_none() && b.get("seed").is_none(), "{b}");
    assert!(!b.to_string().contains(&origin), "{b}");
    assert_eq!(sight(&app, "ink", &origin, Some(&bob)).await, HIDDEN);
    let (status, p) = play(&app, id, &bob).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let (g, t) = (p["game"].as_str().unwrap(), p["token"].as_str().unwrap());
    let (_, s) = ink_state(&app, g, Some(t)).await;
    assert_eq!(s["chosen_seed"]["by"], "Ann", "{s}");
    assert!(s["chosen_seed"].get("seed").is_none(), "{s}");
    let (_, last_bob) = play_ink_game(&app, g, t).await;
    assert!(last_bob["seed"].is_string(), "finished: the dice are told");
    // Bob, finished: all of it.
    let b = board(&app, id, Some(&bob)).await;
    assert_eq!(b["from"], origin.as_str());
    assert!(b["seed"].is_string());
    assert!(b["leaderboard"]["entries"][0]["game"].is_string());
    assert_eq!(sight(&app, "ink", &origin, Some(&bob)).await, SEEN);
    let (_, r) = app
        .get(&format!("/api/ink/games/{origin}/replay"), Some(&bob))
        .await;
    assert_eq!(r["seed"], b["seed"]);
    // Ann, playing her own challenge, gets her own seat back, without a token: she reads it
    // with her key (never handed out as a seat's token, which goes in addresses).
    let (status, again) = play(&app, id, &ann).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["game"], origin.as_str());
    assert!(again["token"].is_null(), "{again}");
    let (status, s) = ink_state(&app, &origin, Some(&ann)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["you"]["seat"], 0, "{s}");
}

#[tokio::test]
async fn pages_skip_and_repeat_nothing_whatever_shares_a_time() {
    let app = app_at(TODAY).await;
    let storage = app.storage();
    // Ten finished games, seven of them in one millisecond.
    let mut games = Vec::new();
    for i in 0..10 {
        let id = format!("{:024x}", 0xabc000 + i);
        let finished = if i < 7 {
            "1795700000000"
        } else {
            "1795600000000"
        };
        storage
            .exec_for_test(
                "INSERT INTO games (id, kind, mode, setup, created, finished, result)
                 VALUES (?1, 'ink', 'solo', '{}', 1, CAST(CAST(?2 AS TEXT) AS BIGINT), '{\"players\":[],\"winners\":[]}')",
                &[&id, finished],
            )
            .await
            .unwrap();
        games.push(id);
    }
    let mut listed = listed_games(&app).await;
    listed.sort();
    assert_eq!(listed, games);
    // Seven closed challenges; each day's two open at the same moment.
    let mut challenges = Vec::new();
    for day in 20..23 {
        for kind in ["daily", "metro-daily"] {
            challenges.push(format!("{kind}-2026-11-{day}"));
        }
    }
    challenges.push("weekly-2026-W47".into());
    for id in &challenges {
        let (kind, game) = match id.as_str() {
            i if i.starts_with("metro") => ("metro-daily", "metro"),
            i if i.starts_with("weekly") => ("weekly", "ink"),
            _ => ("daily", "ink"),
        };
        let opens = if kind == "weekly" {
            "1795046400000"
        } else {
            &format!(
                "{}",
                1795046400000i64 + 86_400_000 * (id[id.len() - 2..].parse::<i64>().unwrap() - 16)
            )
        };
        storage
            .exec_for_test(
                "INSERT INTO challenges (id, kind, game, opens, closes, seed, created)
                 VALUES (?1, ?2, ?3, CAST(CAST(?4 AS TEXT) AS BIGINT), CAST(CAST(?4 AS TEXT) AS BIGINT) + 86400000, 7, 0)",
                &[id, kind, game, opens],
            )
            .await
            .unwrap();
    }
    let mut seen = Vec::new();
    let mut path = "/api/challenges?limit=1".to_owned();
    loop {
        let page = app.get(&path, None).await.is(StatusCode::OK);
        for c in page["challenges"].as_array().unwrap() {
            seen.push(c["id"].as_str().unwrap().to_owned());
        }
        match page["next"].as_str() {
            Some(next) => path = format!("/api/challenges?limit=1&before={next}"),
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "repeated: {seen:?}");
    challenges.sort();
    assert_eq!(sorted, challenges);
    // A page's end is checked.
    app.get("/api/games?before=12_%2e%2e", None)
        .await
        .is(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_three_way_tie_has_one_order_everywhere() {
    let app = app_at(TODAY).await;
    board(&app, DAILY, None).await;
    // Three seats of one game, finished together with the same score and errors (a friend
    // challenge's first game can do that), and a fourth entry below them.
    let mut players = Vec::new();
    for name in ["Ann", "Bob", "Cy"] {
        players.push(player(&app, name).await);
    }
    let storage = app.storage();
    let game = "00000000000000000000abcd";
    storage
        .exec_for_test(
            "INSERT INTO games (id, kind, mode, setup, created, challenge) VALUES (?1, 'ink', 'online', '{}', 1, ?2)",
            &[game, DAILY],
        )
        .await
        .unwrap();
    // Seats in the order 2, 0, 1 of insertion, so that nothing but the seat orders them.
    for (seat, (pid, _)) in [(2, &players[2]), (0, &players[0]), (1, &players[1])] {
        storage
            .exec_for_test(
                "INSERT INTO entries (challenge, game, seat, player, name, started, finished, score, k2)
                 VALUES (?1, ?2, CAST(CAST(?3 AS TEXT) AS BIGINT), ?4, ?5, 1, 1795700000000, 40, -2)",
                &[DAILY, game, &seat.to_string(), pid, &format!("Seat {seat}")],
            )
            .await
            .unwrap();
    }
    storage
        .exec_for_test(
            "INSERT INTO entry_scores (challenge, score, count) VALUES (?1, 40, 3)",
            &[DAILY],
        )
        .await
        .unwrap();
    let ranks = |rows: &Value| -> Vec<(u64, String)> {
        rows.as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["rank"].as_u64().unwrap(),
                    e["name"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let listed = ranks(&board(&app, DAILY, None).await["leaderboard"]["entries"]);
    assert_eq!(
        listed,
        [
            (1, "Seat 0".to_owned()),
            (2, "Seat 1".into()),
            (3, "Seat 2".into())
        ]
    );
    for (seat, (_, token)) in players.iter().enumerate() {
        let b = board(&app, DAILY, Some(token)).await;
        assert_eq!(b["you"]["rank"], seat as u64 + 1, "seat {seat}: {b}");
        assert_eq!(ranks(&b["leaderboard"]["around"]), listed, "seat {seat}");
    }
}

#[tokio::test]
async fn the_dailys_computer_is_never_behind_friend_challenges() {
    // Five seconds to midnight: thirty friend challenges are made, each wanting a computer game
    // (about a second of CPU each); the next day's computer row comes within ten seconds anyway.
    let app = app_at("2026-11-26T23:59:55Z").await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let v = app
        .post(
            "/api/ink/games",
            Some(&ann),
            r#"{"mode":"solo","name":"Ann"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let origin = v["id"].as_str().unwrap().to_owned();
    play_ink_game(&app, &origin, v["token"].as_str().unwrap()).await;
    // Thirty copies of Ann's finished game, each hers (one friend challenge a game).
    let storage = app.storage();
    let mut games = vec![origin.clone()];
    for i in 1..30 {
        let id = format!("{:024x}", 0x5eed00 + i);
        for statement in [
            "INSERT INTO games (id, kind, mode, setup, created, finished, result)
             SELECT ?1, kind, mode, setup, created, finished, result FROM games WHERE id = ?2",
            "INSERT INTO seats (game, seat, name, kind, agent, token_hash, joined, player)
             SELECT ?1, seat, name, kind, agent, token_hash, joined, player FROM seats WHERE game = ?2",
            "INSERT INTO actions (game, idx, seat, action, at)
             SELECT ?1, idx, seat, action, at FROM actions WHERE game = ?2",
        ] {
            storage.exec_for_test(statement, &[&id, &origin]).await.unwrap();
        }
        games.push(id);
    }
    let _ = ann_id;
    for g in &games {
        let body = json!({"kind": "friend", "from": g}).to_string();
        app.post("/api/challenges", Some(&ann), &body)
            .await
            .is(StatusCode::CREATED);
    }
    // Past midnight: the new day's challenge, and its computer's row in time.
    let wait = Duration::from_secs(5) - Duration::from_millis(0);
    tokio::time::sleep(wait).await;
    let started = Instant::now();
    let tomorrow = "daily-2026-11-27";
    loop {
        let b = app
            .get(&format!("/api/challenges/{tomorrow}"), None)
            .await
            .is(StatusCode::OK);
        if !b["leaderboard"]["computer"].is_null() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the new daily's computer is still playing after {:?}",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "the new daily's computer row {:?} after its first request, thirty friend challenges queued",
        started.elapsed()
    );
}

/// One `GET` of the metro daily's game to keep the helper in use here too.
#[tokio::test]
async fn a_metro_challenge_game_finished_is_seen_by_its_player_only_until_the_close() {
    let mut app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    let (_, m) = play(&app, METRO_DAILY, &ann).await;
    let (game, seat) = (m["game"].as_str().unwrap(), m["token"].as_str().unwrap());
    let end = play_metro_game(&app, game, seat).await;
    assert!(end.get("seed").is_none(), "{end}");
    assert_eq!(sight(&app, "metro", game, Some(&ann)).await, SEEN);
    assert_eq!(sight(&app, "metro", game, Some(&bob)).await, HIDDEN);
    travel(&mut app, TOMORROW).await;
    assert_eq!(sight(&app, "metro", game, None).await, SEEN);
}
