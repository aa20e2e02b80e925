//! The challenge promises, tried as a cheater would (issue 37): no long-lived secret in an
//! address, one ranked attempt per network whatever the order of starts, friend challenges on
//! dice nobody else has seen, and every seat of a friend challenge's first game counted as
//! having played it.

mod common;

use common::challenge::{
    TODAY, TOMORROW, app_at, board, events_status, ink_state, play, play_from, play_ink_game,
    player,
};
use common::{Answer, Events};
use hyper::StatusCode;
use server::storage::moderation::Moderation;

// ---------------------------------------------------------------------------------------
// No long-lived secret in an address.

#[tokio::test]
async fn live_updates_refuse_a_players_key_and_take_a_ticket() {
    let app = app_at(TODAY).await;
    let (_, key) = player(&app, "Ann").await;
    let seat = play(&app, "daily-2026-11-26", &key).await.1;
    let game = seat["game"].as_str().unwrap();
    let seat_token = seat["token"].as_str().unwrap();
    assert_ne!(seat_token, key, "a seat's token is never the player's key");
    let events = format!("/api/ink/games/{game}/events");

    // The player's key opens no stream, in the address or as a header.
    for (path, header) in [
        (format!("{events}?token={key}"), None),
        (events.clone(), Some(key.as_str())),
    ] {
        assert_eq!(
            events_status(&app, &path, header).await,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    let (status, v) = app.get(&format!("{events}?token={key}"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(v["error"].as_str().unwrap().contains("ticket"), "{v}");

    // The seat's own token does.
    let mut stream = Events::open(&app, &format!("{events}?token={seat_token}")).await;
    assert_eq!(stream.next_state_value().await["you"]["seat"], 0);

    // A ticket asked for with the key opens it as the player's seat, for that game only.
    let ticket = app
        .post(&format!("/api/ink/games/{game}/ticket"), Some(&key), "")
        .await
        .is(StatusCode::OK);
    let t = ticket["ticket"].as_str().unwrap();
    assert!(!t.contains(&key), "{t}");
    assert!(ticket["expires"].is_string(), "{ticket}");
    let mut stream = Events::open(&app, &format!("{events}?ticket={t}")).await;
    assert_eq!(stream.next_state_value().await["you"]["seat"], 0);
    let (other, _) = common::create(&app, r#"{"mode":"solo","seed":3}"#).await;
    let (status, v) = app
        .get(&format!("/api/ink/games/{other}/events?ticket={t}"), None)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    // A ticket changed by hand opens nothing.
    let forged = t.replacen(".0.", ".1.", 1);
    assert_eq!(
        app.get(&format!("{events}?ticket={forged}"), None).await.0,
        StatusCode::FORBIDDEN
    );
    // Nobody gets a ticket to a game an open challenge hides.
    let (_, bob) = player(&app, "Bob").await;
    app.post(&format!("/api/ink/games/{game}/ticket"), Some(&bob), "")
        .await
        .is(StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_ticket_expires() {
    let mut app = app_at(TODAY).await;
    let (_, key) = player(&app, "Ann").await;
    let (game, _) = common::create_as(&app, Some(&key), r#"{"mode":"solo","seed":4}"#).await;
    let t = app
        .post(&format!("/api/ink/games/{game}/ticket"), Some(&key), "")
        .await
        .is(StatusCode::OK)["ticket"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("/api/ink/games/{game}/events?ticket={t}");
    Events::open(&app, &path).await;
    // Three minutes later (the same database, a server whose clock says so).
    app.config.clock = server::Clock::parse("2026-11-26T10:03:00Z").unwrap();
    app.restart().await;
    let (status, v) = app.get(&path, None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(v["error"].as_str().unwrap().contains("expired"), "{v}");
}

#[tokio::test]
async fn a_player_replaces_their_key_and_the_old_one_opens_nothing() {
    let app = app_at(TODAY).await;
    let (id, old) = player(&app, "Ann").await;
    let seat = play(&app, "daily-2026-11-26", &old).await.1;
    let made = app
        .post("/api/players/me/key", Some(&old), "")
        .await
        .is(StatusCode::OK);
    let new = made["token"].as_str().unwrap();
    assert_eq!(made["id"], id.as_str());
    assert_eq!(made["name"], "Ann");
    assert_ne!(new, old);
    app.get("/api/players/me", Some(&old))
        .await
        .is(StatusCode::FORBIDDEN);
    app.post("/api/players/me/key", Some(&old), "")
        .await
        .is(StatusCode::FORBIDDEN);
    assert_eq!(
        app.get("/api/players/me", Some(new))
            .await
            .is(StatusCode::OK)["id"],
        id.as_str()
    );
    // The attempt is still the player's, with the same seat token, under the new key.
    let again = play(&app, "daily-2026-11-26", new).await.is(StatusCode::OK);
    assert_eq!(again["game"], seat["game"]);
    assert_eq!(again["token"], seat["token"]);
    let game = seat["game"].as_str().unwrap();
    let (status, s) = ink_state(&app, game, Some(new)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(
        s["you"]["seat"], 0,
        "the new key reads the player's game: {s}"
    );
}

// ---------------------------------------------------------------------------------------
// One network, one ranked attempt, whatever the order of starts.

const DAILY: &str = "daily-2026-11-26";

/// A server at [`TODAY`] that ranks one entry per network, its clients' addresses taken from
/// `X-Forwarded-For` (as behind nginx).
async fn by_network() -> common::TestApp {
    let clock = server::Clock::parse(TODAY).unwrap();
    common::TestApp::start_with(|c| {
        c.clock = clock;
        c.challenge_budget = Some(4);
        c.trust_proxy = true;
    })
    .await
}

fn names(list: &serde_json::Value) -> Vec<String> {
    common::each(list, |e| e["name"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_network_plays_one_attempt_at_a_time_and_ranks_the_first() {
    let app = by_network().await;
    let home = "203.0.113.5";
    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    let (_, eve) = player(&app, "Eve").await;
    // Ann starts and plays nothing: her entry would be the ranked one.
    let a = play_from(&app, DAILY, &ann, home)
        .await
        .is(StatusCode::CREATED);
    // Bob, from the same network, cannot start meanwhile (so he cannot show Ann the rolls and
    // the computer's game): refused in words, nothing made.
    let (status, v) = play_from(&app, DAILY, &bob, home).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("your network") && error.contains(DAILY),
        "{v}"
    );
    assert_eq!(board(&app, DAILY, None).await["players"], 1);
    // Asking again gives Ann her own attempt; another network plays as it likes.
    play_from(&app, DAILY, &ann, home).await.is(StatusCode::OK);
    let e = play_from(&app, DAILY, &eve, "198.51.100.7")
        .await
        .is(StatusCode::CREATED);
    // Ann finishes: ranked. Then Bob may play, ranked apart.
    play_ink_game(
        &app,
        a["game"].as_str().unwrap(),
        a["token"].as_str().unwrap(),
    )
    .await;
    let b = play_from(&app, DAILY, &bob, home)
        .await
        .is(StatusCode::CREATED);
    play_ink_game(
        &app,
        b["game"].as_str().unwrap(),
        b["token"].as_str().unwrap(),
    )
    .await;
    play_ink_game(
        &app,
        e["game"].as_str().unwrap(),
        e["token"].as_str().unwrap(),
    )
    .await;
    let l = board(&app, DAILY, Some(&bob)).await;
    let mut ranked = names(&l["leaderboard"]["entries"]);
    ranked.sort();
    assert_eq!(ranked, ["Ann", "Eve"], "{l}");
    assert_eq!(names(&l["leaderboard"]["unranked"]), ["Bob"], "{l}");
}

/// Players from one network start the daily at once (on as many connections, to `addrs` in
/// turn): exactly one attempt starts.
async fn simultaneous_starts(addrs: &[std::net::SocketAddr], tokens: Vec<String>) {
    let mut asked = Vec::new();
    for (i, token) in tokens.into_iter().enumerate() {
        let addr = addrs[i % addrs.len()];
        asked.push(tokio::spawn(async move {
            let mut client = common::Client::connect(addr).await;
            let auth = format!("Bearer {token}");
            let headers = [
                ("authorization", auth.as_str()),
                ("x-forwarded-for", "203.0.113.9"),
            ];
            let response = client
                .send(
                    "POST",
                    &format!("/api/challenges/{DAILY}/play"),
                    &headers,
                    Vec::new(),
                )
                .await;
            response.status()
        }));
    }
    let mut statuses = Vec::new();
    for task in asked {
        statuses.push(task.await.unwrap());
    }
    let started = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((started, refused), (1, statuses.len() - 1), "{statuses:?}");
}

#[tokio::test]
async fn simultaneous_starts_from_one_network_start_one_attempt() {
    let app = by_network().await;
    let mut tokens = Vec::new();
    for i in 0..8 {
        tokens.push(player(&app, &format!("Player {i}")).await.1);
    }
    simultaneous_starts(&[app.addr], tokens).await;
    assert_eq!(board(&app, DAILY, None).await["players"], 1);
}

#[tokio::test]
async fn simultaneous_starts_on_two_processes_sharing_postgresql_start_one_attempt() {
    let Some(db) = common::postgres_only().await else {
        return;
    };
    let mut config = common::test_config(db);
    config.clock = server::Clock::parse(TODAY).unwrap();
    config.challenge_budget = Some(4);
    config.trust_proxy = true;
    let one = server::start(&config).await.unwrap();
    let two = server::start(&config).await.unwrap();
    let mut tokens = Vec::new();
    for i in 0..8 {
        let mut client = common::Client::connect(one.addr()).await;
        let body = serde_json::json!({ "name": format!("Player {i}") }).to_string();
        let (status, v) = client.call("POST", "/api/players", None, Some(&body)).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        tokens.push(v["token"].as_str().unwrap().to_owned());
    }
    simultaneous_starts(&[one.addr(), two.addr()], tokens).await;
    one.stop().await.unwrap();
    two.stop().await.unwrap();
}

// ---------------------------------------------------------------------------------------
// A friend challenge on dice nobody else has seen.

/// Ann's finished solo game (made as her player): its id, her seat's token and its rolls.
async fn anns_game(app: &common::TestApp, ann: &str) -> (String, String, Vec<String>) {
    let (game, seat) = common::create_as(app, Some(ann), r#"{"mode":"solo","name":"Ann"}"#).await;
    let (rolls, _) = play_ink_game(app, &game, &seat).await;
    (game, seat, rolls)
}

/// Makes a friend challenge from `game` as `maker`; its answer.
async fn make_friend(
    app: &common::TestApp,
    maker: &str,
    game: &str,
    seat: &str,
) -> serde_json::Value {
    let body = serde_json::json!({"kind": "friend", "from": game, "seat_token": seat});
    app.post("/api/challenges", Some(maker), &body.to_string())
        .await
        .is(StatusCode::CREATED)
}

/// The rolls of a player's whole game in friend challenge `id`.
async fn friends_rolls(app: &common::TestApp, id: &str, player: &str) -> serde_json::Value {
    let p = play(app, id, player).await.is(StatusCode::CREATED);
    let (rolls, _) = play_ink_game(
        app,
        p["game"].as_str().unwrap(),
        p["token"].as_str().unwrap(),
    )
    .await;
    serde_json::json!(rolls)
}

#[tokio::test]
async fn a_friend_challenge_from_a_game_nobody_else_saw_plays_its_dice() {
    let app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (game, seat, rolls) = anns_game(&app, &ann).await;
    let made = make_friend(&app, &ann, &game, &seat).await;
    assert_eq!(made["same_dice"], true, "{made}");
    let (_, bob) = player(&app, "Bob").await;
    let id = made["id"].as_str().unwrap();
    // Bob plays the very rolls of Ann's game (as its replay lists them, once he has finished).
    let bobs = friends_rolls(&app, id, &bob).await;
    assert_eq!(bobs, serde_json::json!(rolls));
    let replay = app
        .get(&format!("/api/ink/games/{game}/replay"), Some(&bob))
        .await
        .is(StatusCode::OK);
    assert_eq!(bobs, replay["rolls"]);
    assert_eq!(board(&app, id, None).await["same_dice"], true);
}

#[tokio::test]
async fn a_friend_challenge_from_a_listed_game_that_was_read_plays_new_dice() {
    let app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (game, seat, _) = anns_game(&app, &ann).await;
    // A cheater keeps a copy of every game listed, each read through its replay.
    let listed = app.get("/api/games", None).await.is(StatusCode::OK);
    assert!(listed.to_string().contains(&game), "{listed}");
    let saved = app
        .get(&format!("/api/ink/games/{game}/replay"), None)
        .await
        .is(StatusCode::OK);
    let saved_rolls = saved["rolls"].clone();
    assert_eq!(saved_rolls.as_array().unwrap().len(), 7, "{saved}");
    let made = make_friend(&app, &ann, &game, &seat).await;
    assert_eq!(made["same_dice"], false, "{made}");
    let id = made["id"].as_str().unwrap();
    let c = board(&app, id, None).await;
    assert_eq!(c["same_dice"], false, "{c}");
    assert_eq!(c["by"], "Ann");
    assert!(c["target"].is_i64(), "{c}");
    // The first game's seats are no entries (they played other dice); nobody has played yet.
    assert_eq!(c["players"], 0, "{c}");
    // The friend's dice are not the saved ones: seven rolls of a seed drawn anew.
    let (_, bob) = player(&app, "Bob").await;
    assert_ne!(friends_rolls(&app, id, &bob).await, saved_rolls);
    // Asked again, the same challenge.
    let again = app
        .post(
            "/api/challenges",
            Some(&ann),
            &serde_json::json!({"kind": "friend", "from": game, "seat_token": seat}).to_string(),
        )
        .await
        .is(StatusCode::OK);
    assert_eq!(again["id"], id);
    assert_eq!(again["same_dice"], false);
}

#[tokio::test]
async fn a_friend_challenge_from_a_closed_daily_plays_new_dice() {
    let mut app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let a = play(&app, DAILY, &ann).await.is(StatusCode::CREATED);
    let (game, seat) = (a["game"].as_str().unwrap(), a["token"].as_str().unwrap());
    let (rolls, _) = play_ink_game(&app, game, seat).await;
    app.config.clock = server::Clock::parse(TOMORROW).unwrap();
    app.restart().await;
    // The daily's page shows its seed now.
    assert!(board(&app, DAILY, None).await["seed"].is_string());
    let made = make_friend(&app, &ann, game, seat).await;
    assert_eq!(made["same_dice"], false, "{made}");
    let (_, bob) = player(&app, "Bob").await;
    let id = made["id"].as_str().unwrap();
    assert_ne!(
        friends_rolls(&app, id, &bob).await,
        serde_json::json!(rolls)
    );
}

// ---------------------------------------------------------------------------------------
// Every seat of the first game has played the friend challenge.

#[tokio::test]
async fn a_seat_of_the_first_game_has_played_the_friend_challenge() {
    let app = app_at(TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    // Ann and Bob (as their players) and a guest who calls herself "Ann".
    let (game, ann_seat) =
        common::create_as(&app, Some(&ann), r#"{"mode":"online","name":"Ann"}"#).await;
    let path = format!("/api/ink/games/{game}");
    let bob_seat = app
        .post(&format!("{path}/join"), Some(&bob), r#"{"name":"Ann"}"#)
        .await
        .is(StatusCode::CREATED)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let guest_seat = app
        .post(&format!("{path}/join"), None, r#"{"name":"Ann"}"#)
        .await
        .is(StatusCode::CREATED)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(&format!("{path}/start"), Some(&ann_seat), "")
        .await
        .is(StatusCode::OK);
    for _ in 0..7 {
        for seat in [&ann_seat, &bob_seat, &guest_seat] {
            common::challenge::play_ink_round(&app, &game, seat).await;
        }
    }
    let made = make_friend(&app, &ann, &game, &ann_seat).await;
    assert_eq!(made["same_dice"], true, "{made}");
    let id = made["id"].as_str().unwrap();
    // Bob, who sat in the game, gets his seat of it back: no second attempt on known dice.
    let (status, again) = play(&app, id, &bob).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["game"], game.as_str());
    assert_eq!(again["seat"], 1);
    assert!(again["token"].is_null(), "{again}");
    // Listed once each, under the players' names; the guest as a guest.
    let l = board(&app, id, Some(&bob)).await;
    let mut listed = names(&l["leaderboard"]["entries"]);
    listed.sort();
    assert_eq!(listed, ["Ann", "Ann (guest)", "Bob"], "{l}");
    assert_eq!(l["players"], 3, "{l}");
}

/// An operator's moderation (`tracklayer admin`, which runs these against the database): on
/// the running server at once.
#[tokio::test]
async fn an_operator_hides_an_entry_renames_a_player_and_stops_a_network_from_ranking() {
    let app = by_network().await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let (bob_id, bob) = player(&app, "Bob").await;
    let (_, eve) = player(&app, "Eve").await;
    for (token, from) in [(&ann, "203.0.113.5"), (&bob, "203.0.113.6")] {
        play_daily_from(&app, token, from).await;
    }
    let db = app.db().await;
    let now = server::storage::now_ms();
    db.moderate(hide(&ann_id), now, "a copied board")
        .await
        .unwrap();
    let l = board(&app, DAILY, None).await;
    assert_eq!(names(&l["leaderboard"]["entries"]), ["Bob"], "{l}");
    let unranked = l["leaderboard"]["unranked"].as_array();
    assert!(unranked.is_none_or(|u| u.is_empty()), "{l}");
    // Her game stays.
    let (status, _) = ink_state(&app, &db_game_of(&db, &ann_id).await, None).await;
    assert_ne!(status, StatusCode::NOT_FOUND);
    assert!(matches!(
        db.moderate(hide(&ann_id), now, "again").await,
        Err(server::storage::StorageError::Duplicate(_))
    ));

    db.moderate(rename(&bob_id, "Robert"), now, "asked to")
        .await
        .unwrap();
    let l = board(&app, DAILY, None).await;
    assert_eq!(names(&l["leaderboard"]["entries"]), ["Robert"], "{l}");
    let page = app
        .get(&format!("/api/players/{bob_id}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(page["name"], "Robert");

    // Eve's network ranks no more: her first entry is played, and ranked apart.
    let stop = stop_ranking(&db, "198.51.100.7");
    db.moderate(stop, now, "one person, many players")
        .await
        .unwrap();
    play_daily_from(&app, &eve, "198.51.100.7").await;
    let l = board(&app, DAILY, None).await;
    assert_eq!(names(&l["leaderboard"]["unranked"]), ["Eve"], "{l}");

    let log = db.moderation_log(10).await.unwrap();
    let actions: Vec<&str> = log.iter().map(|l| l.action.as_str()).collect();
    assert_eq!(actions.len(), 3);
    assert!(
        actions.contains(&"hide")
            && actions.contains(&"rename")
            && actions.contains(&"stop-ranking")
    );
}

/// Plays the daily to its end as the player of `token`, coming from `from`.
async fn play_daily_from(app: &common::TestApp, token: &str, from: &str) {
    let p = play_from(app, DAILY, token, from)
        .await
        .is(StatusCode::CREATED);
    play_ink_game(
        app,
        p["game"].as_str().unwrap(),
        p["token"].as_str().unwrap(),
    )
    .await;
}

/// An operator's hiding of `player`'s entry in the daily.
fn hide(player: &str) -> Moderation {
    Moderation::Hide {
        challenge: DAILY.into(),
        player: player.into(),
    }
}

/// An operator's renaming of `player` to `name`.
fn rename(player: &str, name: &str) -> Moderation {
    Moderation::Rename {
        player: player.into(),
        name: name.into(),
        key: server::storage::names::key(name),
    }
}

/// An operator's stopping the network of `ip` from ranking.
fn stop_ranking(db: &server::storage::Storage, ip: &str) -> Moderation {
    let ip: std::net::IpAddr = ip.parse().unwrap();
    Moderation::StopRanking {
        addr: server::network::Network::of(ip).keyed_hash(db.secret()),
        shown: ip.to_string(),
    }
}

/// The game of a player's entry in the daily.
async fn db_game_of(db: &server::storage::Storage, player: &str) -> String {
    db.entry(DAILY, player).await.unwrap().unwrap().game
}

/// The same moderation on two processes sharing PostgreSQL: done through the database (as
/// `tracklayer admin` does), it shows on the process that did not see it done.
#[tokio::test]
async fn an_operators_moderation_shows_on_every_process() {
    let Some(db) = common::postgres_only().await else {
        return;
    };
    let clock = server::Clock::parse(TODAY).unwrap();
    let on = |db: server::Database| {
        let clock = clock.clone();
        move |c: &mut server::Config| {
            c.db = db;
            c.clock = clock;
            c.challenge_budget = Some(4);
            c.trust_proxy = true;
        }
    };
    let one = common::TestApp::start_with(on(db.clone())).await;
    let two = common::TestApp::start_with(on(db)).await;
    let (ann_id, ann) = player(&one, "Ann").await;
    let (bob_id, bob) = player(&one, "Bob").await;
    let (_, eve) = player(&two, "Eve").await;
    for (token, from) in [(&ann, "203.0.113.5"), (&bob, "203.0.113.6")] {
        play_daily_from(&one, token, from).await;
    }
    // Both processes list both entries.
    let l = board(&two, DAILY, None).await;
    let mut listed = names(&l["leaderboard"]["entries"]);
    listed.sort();
    assert_eq!(listed, ["Ann", "Bob"], "{l}");

    let storage = one.db().await;
    let now = server::storage::now_ms();
    storage
        .moderate(hide(&ann_id), now, "a copied board")
        .await
        .unwrap();
    storage
        .moderate(rename(&bob_id, "Robert"), now, "asked to")
        .await
        .unwrap();
    let stop = stop_ranking(&storage, "198.51.100.7");
    storage
        .moderate(stop, now, "one person, many players")
        .await
        .unwrap();

    // The other process: Ann's entry hidden, Bob renamed, on the board and on his page.
    let l = board(&two, DAILY, None).await;
    assert_eq!(names(&l["leaderboard"]["entries"]), ["Robert"], "{l}");
    let page = two
        .get(&format!("/api/players/{bob_id}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(page["name"], "Robert");
    // Eve plays on that process from the stopped network: ranked apart.
    play_daily_from(&two, &eve, "198.51.100.7").await;
    let l = board(&one, DAILY, None).await;
    assert_eq!(names(&l["leaderboard"]["unranked"]), ["Eve"], "{l}");
    assert_eq!(names(&l["leaderboard"]["entries"]), ["Robert"], "{l}");
}
