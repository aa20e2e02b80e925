//! Challenges, leaderboards, friend challenges and players, through the HTTP API.

mod common;

use std::time::Instant;

use common::Answer;
use common::challenge::{
    TODAY, TOMORROW, app_at, board, ink_state, play, play_ink_game, play_metro_game, player,
    wait_for_computer,
};
use hyper::StatusCode;
use railroad_ink::Dice;
use serde_json::json;

#[tokio::test]
async fn todays_challenges_exist_and_everyone_sees_the_same() {
    let app = app_at(TODAY).await;
    let v = app
        .get("/api/challenges/current", None)
        .await
        .is(StatusCode::OK);
    let list = v["challenges"].as_array().unwrap();
    let ids: Vec<&str> = list.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "daily-2026-11-26",
            "weekly-2026-W48",
            "monthly-2026-11",
            "metro-daily-2026-11-26",
            "weekly-river-2026-W48"
        ]
    );
    let daily = &list[0];
    assert_eq!(daily["kind"], "daily");
    assert_eq!(daily["game"], "ink");
    assert_eq!(daily["period"], "2026-11-26");
    assert_eq!(daily["opens"], "2026-11-26T00:00:00Z");
    assert_eq!(daily["closes"], "2026-11-27T00:00:00Z");
    assert_eq!(daily["players"], 0);
    assert_eq!(daily["closed"], false);
    assert!(daily.get("seed").is_none());
    assert_eq!(list[1]["opens"], "2026-11-23T00:00:00Z");
    assert_eq!(list[1]["closes"], "2026-11-30T00:00:00Z");
    assert_eq!(list[2]["kind"], "monthly");
    assert_eq!(list[2]["period"], "2026-11");
    assert_eq!(list[2]["opens"], "2026-11-01T00:00:00Z");
    assert_eq!(list[2]["closes"], "2026-12-01T00:00:00Z");
    assert_eq!(list[3]["game"], "metro");
    // Asking again sees the same challenges; the computer's score comes without anyone playing.
    let again = app.get("/api/challenges/current", None).await.1;
    assert_eq!(again["challenges"][0]["opens"], daily["opens"]);
    let b = wait_for_computer(&app, "daily-2026-11-26").await;
    let computer = &b["leaderboard"]["computer"];
    assert!(computer["score"].is_i64(), "{b}");
    assert!(computer["errors"].is_i64(), "{b}");
    assert!(computer.get("game").is_none(), "nobody has finished: {b}");
    assert!(b.get("seed").is_none());
    // An unknown challenge, and one of another day, are not found.
    for id in ["daily-2026-11-25", "nope", "daily-2026-11-26%27"] {
        let (status, _) = app.get(&format!("/api/challenges/{id}"), None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{id}");
    }
}

#[tokio::test]
async fn players_need_a_name_and_play_with_their_token() {
    let app = app_at(TODAY).await;
    let v = app
        .post("/api/players", None, r#"{"name":"  "}"#)
        .await
        .is(StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("name"));
    let (id, token) = player(&app, "Ann").await;
    let v = app
        .get(&format!("/api/players/{id}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(v["name"], "Ann");
    assert_eq!(v["games"], 0);
    app.get("/api/players/00112233445566778899aabb", None)
        .await
        .is(StatusCode::NOT_FOUND);
    // A carried key is checked by asking who it is.
    let me = app
        .get("/api/players/me", Some(&token))
        .await
        .is(StatusCode::OK);
    assert_eq!(me["id"], id.as_str());
    assert_eq!(
        app.get("/api/players/me", None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get("/api/players/me", Some(&"e".repeat(64))).await.0,
        StatusCode::FORBIDDEN
    );
    // A player's token on an ordinary game's state is a spectator's view, not a refusal.
    let v = app
        .post("/api/ink/games", None, r#"{"mode":"online"}"#)
        .await
        .is(StatusCode::CREATED);
    let (status, s) = ink_state(&app, v["id"].as_str().unwrap(), Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert!(s.get("you").is_none());

    let path = "/api/challenges/daily-2026-11-26/play";
    assert_eq!(app.post(path, None, "").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.post(path, Some(&"f".repeat(64)), "").await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        app.post("/api/challenges/daily-2031-01-01/play", Some(&token), "")
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (status, v) = play(&app, "daily-2026-11-26", &token).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["kind"], "ink");
    let game = v["game"].as_str().unwrap();
    let seat_token = v["token"].as_str().unwrap();
    let (status, s) = ink_state(&app, game, Some(seat_token)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s["mode"], "challenge");
    assert_eq!(s["challenge"], "daily-2026-11-26");
    assert_eq!(s["players"][0]["name"], "Ann");
    // No hint in a challenge.
    let v = app
        .get(&format!("/api/ink/games/{game}/hint"), Some(seat_token))
        .await
        .is(StatusCode::CONFLICT);
    assert!(v["error"].is_string());
    // Nobody else watches a challenge game in progress.
    assert_eq!(ink_state(&app, game, None).await.0, StatusCode::FORBIDDEN);
    let (_, other) = player(&app, "Eve").await;
    assert_eq!(
        ink_state(&app, game, Some(&other)).await.0,
        StatusCode::FORBIDDEN
    );
    // The player's page counts the game as sat in, not yet as played.
    let (_, v) = app.get(&format!("/api/players/{id}"), None).await;
    assert_eq!(v["games"], 1);
    assert_eq!(v["played"], 0);
    assert_eq!(v["challenges"], 1);
    assert_eq!(v["challenges_played"], 0);
    // Finished, it is played.
    play_ink_game(&app, game, seat_token).await;
    let (_, v) = app.get(&format!("/api/players/{id}"), None).await;
    assert_eq!(
        (v["games"].as_u64(), v["played"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["challenges_played"], 1);
    assert_eq!(
        (v["ink"]["games"].as_u64(), v["ink"]["played"].as_u64()),
        (Some(1), Some(1))
    );
}

#[tokio::test]
async fn a_game_counts_as_played_once_finished_a_hot_seat_game_left_is_only_sat_in() {
    let app = app_at(TODAY).await;
    let (id, token) = player(&app, "Ann").await;
    // A hot-seat Metro game of two people on Ann's device, left after its first moves.
    let v = app
        .post(
            "/api/metro/games",
            Some(&token),
            r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Cy"}],"seed":"5"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let metro = v["id"].as_str().unwrap();
    let seat = v["seats"][0]["token"].as_str().unwrap();
    app.post(&format!("/api/metro/games/{metro}/draw"), Some(seat), "")
        .await
        .is(StatusCode::OK);
    // A solo Railroad Ink game, played to its end.
    let (ink, seat) = common::create_as(&app, Some(&token), r#"{"mode":"solo","seed":3}"#).await;
    let (_, last) = play_ink_game(&app, &ink, &seat).await;
    let score = last["players"][0]["score"]["advanced"].clone();
    let v = app
        .get(&format!("/api/players/{id}"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(v["games"], 2, "sat in: {v}");
    assert_eq!(v["played"], 1, "played: {v}");
    assert_eq!(v["metro"]["games"], 1);
    assert_eq!(v["metro"]["played"], 0);
    assert!(v["metro"]["best"].is_null() && v["metro"]["mean"].is_null());
    assert_eq!(v["ink"]["games"], 1);
    assert_eq!(v["ink"]["played"], 1);
    assert_eq!(v["ink"]["best"], score);
    assert_eq!(v["challenges"], 0);
    assert_eq!(v["challenges_played"], 0);
}

#[tokio::test]
async fn one_attempt_per_player_even_asked_ten_times_at_once() {
    let app = app_at(TODAY).await;
    let (_, token) = player(&app, "Ann").await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (addr, token) = (app.addr, token.clone());
        tasks.push(tokio::spawn(async move {
            let mut c = common::Client::connect(addr).await;
            c.call(
                "POST",
                "/api/challenges/weekly-2026-W48/play",
                Some(&token),
                None,
            )
            .await
        }));
    }
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap());
    }
    let created = answers
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{answers:?}");
    assert!(
        answers
            .iter()
            .all(|(s, _)| *s == StatusCode::CREATED || *s == StatusCode::OK)
    );
    let game = &answers[0].1["game"];
    assert!(
        answers
            .iter()
            .all(|(_, v)| v["game"] == *game && v["token"] == answers[0].1["token"])
    );
    let b = board(&app, "weekly-2026-W48", None).await;
    assert_eq!(b["players"], 1);
    // The database holds one entry: the unique key, not only the code.
    let storage = app.db().await;
    let n: i64 = storage
        .count_for_test(
            "SELECT CAST(count(*) AS BIGINT) FROM entries WHERE challenge = 'weekly-2026-W48'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(n, 1);
    let dup = storage
        .exec_for_test(
            "INSERT INTO entries (challenge, game, seat, player, name, started)
             SELECT challenge, game, 1, player, name, started FROM entries",
            &[],
        )
        .await;
    assert!(
        dup.is_err(),
        "a second entry for the same player must be refused"
    );
}

#[tokio::test]
async fn a_day_of_play_then_the_next_day_reveals_the_seed() {
    let mut app = app_at(TODAY).await;
    let day = "daily-2026-11-26";
    let (ann_id, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    let (_, a) = play(&app, day, &ann).await;
    let (_, b) = play(&app, day, &bob).await;
    let (ga, ta) = (a["game"].as_str().unwrap(), a["token"].as_str().unwrap());
    let (gb, tb) = (b["game"].as_str().unwrap(), b["token"].as_str().unwrap());
    // A reload continues the game: asking again gives the same game and token.
    let (status, again) = play(&app, day, &ann).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["game"], ga);
    assert_eq!(again["token"], ta);

    let (rolls_a, last_a) = play_ink_game(&app, ga, ta).await;
    // Ann has finished: the seed stays hidden, in her game's state too.
    assert!(last_a.get("seed").is_none(), "{last_a}");
    let (_, s) = ink_state(&app, ga, Some(ta)).await;
    assert!(s.get("seed").is_none());
    // Bob, still playing, sees none of the boards; Ann sees his game once he is done.
    app.get(&format!("/api/ink/games/{ga}/replay"), Some(&bob))
        .await
        .is(StatusCode::FORBIDDEN);
    let bb = board(&app, day, Some(&bob)).await;
    assert!(
        bb["leaderboard"]["entries"][0].get("game").is_none(),
        "{bb}"
    );
    let (rolls_b, _) = play_ink_game(&app, gb, tb).await;
    assert_eq!(rolls_a, rolls_b, "everyone plays the same dice");
    let r = app
        .get(&format!("/api/ink/games/{ga}/replay"), Some(&bob))
        .await
        .is(StatusCode::OK);
    assert!(r.get("seed").is_none(), "{r}");
    app.get(&format!("/api/ink/games/{ga}/replay"), None)
        .await
        .is(StatusCode::FORBIDDEN);
    let ab = board(&app, day, Some(&ann)).await;
    assert_eq!(ab["players"], 2);
    assert_eq!(ab["leaderboard"]["finished"], 2);
    let entries = ab["leaderboard"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert!(entries.iter().all(|e| e["game"].is_string()));
    assert_eq!(entries.iter().filter(|e| e["you"] == true).count(), 1);
    assert_eq!(ab["you"]["finished"], true);
    assert!(ab["you"]["rank"].is_u64());
    let hist: i64 = common::each(&ab["leaderboard"]["histogram"], |b| {
        b["count"].as_i64().unwrap()
    })
    .into_iter()
    .sum();
    assert_eq!(hist, 2);
    assert_eq!(ab["best"], entries[0]["score"]);
    // The recent games list keeps challenge games to their leaderboards.
    let (_, recent) = app.get("/api/games", None).await;
    assert!(!recent.to_string().contains(ga));

    // The next day: a new daily challenge; yesterday's is closed and shows its seed, whose
    // rolls are the ones played.
    app.config.clock = server::Clock::parse(TOMORROW).unwrap();
    app.restart().await;
    let (_, cur) = app.get("/api/challenges/current", None).await;
    assert_eq!(cur["challenges"][0]["id"], "daily-2026-11-27");
    assert_eq!(cur["challenges"][1]["id"], "weekly-2026-W48");
    let old = board(&app, day, None).await;
    assert_eq!(old["closed"], true);
    let seed: u64 = old["seed"].as_str().unwrap().parse().unwrap();
    let expected: Vec<String> = Dice::Seed(seed)
        .rolls()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(rolls_a, expected);
    // Closed: everyone sees the boards and the seed; nobody plays it any more.
    assert!(old["leaderboard"]["entries"][0]["game"].is_string());
    let r = app
        .get(&format!("/api/ink/games/{ga}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(r["seed"], seed.to_string());
    let (_, s) = ink_state(&app, ga, None).await;
    assert_eq!(s["seed"], seed.to_string());
    let (_, carl) = player(&app, "Carl").await;
    assert_eq!(play(&app, day, &carl).await.0, StatusCode::CONFLICT);
    // Past challenges, newest first.
    let (_, past) = app.get("/api/challenges", None).await;
    assert_eq!(past["challenges"][0]["id"], day);
    // Ann's page has her score.
    let (_, p) = app.get(&format!("/api/players/{ann_id}"), None).await;
    assert_eq!(p["ink"]["best"], last_a["players"][0]["score"]["advanced"]);
    assert_eq!(p["scores"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_friend_challenge_from_a_finished_game() {
    let app = app_at(TODAY).await;
    let (ann_id, ann) = player(&app, "Ann").await;
    // Ann's solo game, linked to her player by her token.
    let (game, seat_token) =
        common::create_as(&app, Some(&ann), r#"{"mode":"solo","name":"Ann"}"#).await;
    let make = json!({"kind": "friend", "from": game}).to_string();
    // Not finished yet: 409; no player token: 401; unknown game: 404.
    assert_eq!(
        app.post("/api/challenges", Some(&ann), &make).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(
        app.post("/api/challenges", None, &make).await.0,
        StatusCode::UNAUTHORIZED
    );
    let unknown = json!({"kind": "friend", "from": "00112233445566778899aabb"}).to_string();
    assert_eq!(
        app.post("/api/challenges", Some(&ann), &unknown).await.0,
        StatusCode::NOT_FOUND
    );
    let (rolls, last) = play_ink_game(&app, &game, &seat_token).await;
    let made = app
        .post("/api/challenges", Some(&ann), &make)
        .await
        .is(StatusCode::CREATED);
    let id = made["id"].as_str().unwrap();
    assert_eq!(made["link"], format!("/challenges/{id}"));
    let b = board(&app, id, None).await;
    assert_eq!(b["kind"], "friend");
    assert_eq!(b["by"], "Ann");
    assert_eq!(b["target"], last["players"][0]["score"]["advanced"]);
    assert_eq!(b["finished"], 1);
    assert!(b["now"].is_string());
    assert_eq!(b["players"], 1);
    assert_eq!(b["leaderboard"]["entries"][0]["name"], "Ann");
    assert_eq!(b["leaderboard"]["entries"][0]["player"], ann_id.as_str());
    assert_eq!(
        b["leaderboard"]["entries"][0]["score"],
        last["players"][0]["score"]["advanced"]
    );
    // Bob plays the same seven rolls, at his own pace; his game says whose seed it is.
    let (_, bob) = player(&app, "Bob").await;
    let (status, p) = play(&app, id, &bob).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    let (g, t) = (p["game"].as_str().unwrap(), p["token"].as_str().unwrap());
    let (_, s) = ink_state(&app, g, Some(t)).await;
    assert_eq!(s["chosen_seed"]["by"], "Ann");
    let b = board(&app, id, None).await;
    assert_eq!(b["leaderboard"]["playing"][0]["name"], "Bob", "{b}");
    let (bob_rolls, _) = play_ink_game(&app, g, t).await;
    assert_eq!(rolls, bob_rolls);
    // Ann already has her entry: her game.
    let (status, again) = play(&app, id, &ann).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["game"], game.as_str());
    let b = wait_for_computer(&app, id).await;
    assert_eq!(b["players"], 2);
    let names: Vec<&str> = common::each(&b["leaderboard"]["entries"], |e| {
        e["name"].as_str().unwrap()
    });
    assert!(
        names.contains(&"Ann") && names.contains(&"Bob"),
        "{names:?}"
    );
    // Its dice are told to who has finished it, never to who has not.
    assert!(b.get("seed").is_none(), "{b}");
    assert!(board(&app, id, Some(&bob)).await["seed"].is_string());
}

#[tokio::test]
async fn the_metro_challenge_against_three_computers() {
    let app = app_at(TODAY).await;
    let id = "metro-daily-2026-11-26";
    let (_, ann) = player(&app, "Ann").await;
    let (status, p) = play(&app, id, &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{p}");
    assert_eq!(p["kind"], "metro");
    assert_eq!(p["seat"], 0);
    let (g, t) = (p["game"].as_str().unwrap(), p["token"].as_str().unwrap());
    let path = format!("/api/metro/games/{g}");
    let (_, s) = app.get(&path, Some(t)).await;
    assert_eq!(s["mode"], "challenge");
    assert_eq!(s["challenge"], id);
    assert_eq!(s["turn"], 0, "the person plays first");
    let kinds: Vec<&str> = common::each(&s["players"], |p| p["kind"].as_str().unwrap());
    assert_eq!(kinds, ["human", "computer", "computer", "computer"]);
    assert!(s["players"][1]["level"] == "strong");
    // Play every turn at the first legal square until the end.
    let end = play_metro_game(&app, g, t).await;
    assert!(end.get("seed").is_none(), "{end}");
    let (_, s) = app.get(&path, Some(t)).await;
    let scores: Vec<i64> = common::each(&s["scores"], |v| v.as_i64().unwrap());
    let b = wait_for_computer(&app, id).await;
    let e = &b["leaderboard"]["entries"][0];
    assert_eq!(e["score"], scores[0]);
    assert_eq!(e["margin"], scores[0] - scores[1..].iter().max().unwrap());
    assert!(e.get("errors").is_none());
    assert!(b["leaderboard"]["computer"]["margin"].is_i64());
}

#[tokio::test]
async fn the_leaderboard_orders_by_score_then_tie_breaks_and_pages_around_a_player() {
    let app = app_at(TODAY).await;
    let id = "daily-2026-11-26";
    board(&app, id, None).await; // made
    // Entries straight into the database: (score, minus errors, finish time).
    let rows = [
        (50, -2, 5),
        (60, -3, 9),
        (60, -1, 9),
        (60, -1, 4),
        (40, 0, 1),
        (55, -2, 3),
    ];
    server::storage::entries::fill_for_test(&app.config.db, id, rows.len(), |i| {
        let (s, k, f) = rows[i];
        (s, k, 1_795_660_000_000 + f)
    })
    .await
    .unwrap();
    let b = board(&app, id, None).await;
    let order: Vec<(i64, i64)> = common::each(&b["leaderboard"]["entries"], |e| {
        (e["score"].as_i64().unwrap(), e["errors"].as_i64().unwrap())
    });
    // Score first, then fewer errors, then the earlier finish (entry 3 before entry 2).
    assert_eq!(
        order,
        [(60, 1), (60, 1), (60, 3), (55, 2), (50, 2), (40, 0)]
    );
    let names: Vec<&str> = common::each(&b["leaderboard"]["entries"], |e| {
        e["name"].as_str().unwrap()
    });
    assert_eq!(names[..2], ["Player 3", "Player 2"]);
    let ranks: Vec<u64> = common::each(&b["leaderboard"]["entries"], |e| {
        e["rank"].as_u64().unwrap()
    });
    assert_eq!(ranks, [1, 2, 3, 4, 5, 6]);
    let (_, top2) = app
        .get(&format!("/api/challenges/{id}?limit=2"), None)
        .await;
    assert_eq!(top2["leaderboard"]["entries"].as_array().unwrap().len(), 2);
    app.get(&format!("/api/challenges/{id}?limit=0"), None)
        .await
        .is(StatusCode::BAD_REQUEST);
    assert_eq!(b["best"], 60);
    assert_eq!(b["leaderboard"]["finished"], 6);
    // Around the first (entry 3) and the last (entry 4): five on the one side there is.
    let (me, token) = player(&app, "Me").await;
    app.db()
        .await
        .exec_for_test(
            "UPDATE entries SET player = ?1 WHERE game = ?2",
            &[me.as_str(), &format!("{:024x}", 3)],
        )
        .await
        .unwrap();
    let mine = board(&app, id, Some(&token)).await;
    let around = mine["leaderboard"]["around"].as_array().unwrap();
    let ranks: Vec<u64> = around.iter().map(|e| e["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3, 4, 5, 6]);
    assert_eq!(around[0]["you"], true);
    assert_eq!(mine["you"]["rank"], 1);
    assert_eq!(mine["leaderboard"]["entries"][0]["you"], true);
    // Finished entries of others may be opened by a finished player: these have games.
    assert!(mine["leaderboard"]["entries"][1]["game"].is_string());
    let storage = app.db().await;
    let anonymous = storage
        .count_for_test(
            "SELECT CAST(count(*) AS BIGINT) FROM entries WHERE game = ?1 AND player IS NULL",
            &[&format!("{:024x}", 4)],
        )
        .await
        .unwrap();
    assert_eq!(anonymous, 1);
    let (someone, _) = player(&app, "Someone").await;
    storage
        .exec_for_test(
            "UPDATE entries SET player = ?1 WHERE game = ?2",
            &[someone.as_str(), &format!("{:024x}", 4)],
        )
        .await
        .unwrap();
    let (_, v) = app
        .get(&format!("/api/challenges/{id}?around={someone}"), None)
        .await;
    let ranks: Vec<u64> =
        common::each(&v["leaderboard"]["around"], |e| e["rank"].as_u64().unwrap());
    assert_eq!(ranks, [1, 2, 3, 4, 5, 6]);
    assert!(
        v["leaderboard"]["entries"][0].get("game").is_none(),
        "an anonymous asker sees no boards"
    );
}

/// The leaderboard of a challenge with 100,000 finished entries: the top 100 and "around me"
/// read from indices. Prints the time of each (the figures in `docs/benchmarks.md`); asserts
/// only the answers.
#[tokio::test]
async fn a_leaderboard_of_a_hundred_thousand() {
    const N: usize = 100_000;
    let app = app_at(TODAY).await;
    let id = "daily-2026-11-26";
    board(&app, id, None).await;
    let started = Instant::now();
    // Scores 20..=79 and errors 0..=9 spread by a fixed mix; each finishes at its own time.
    let key = |i: usize| {
        let h = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
        (
            20 + (h % 60) as i64,
            -(((h / 60) % 10) as i64),
            1_795_660_000_000 + i as i64,
        )
    };
    server::storage::entries::fill_for_test(&app.config.db, id, N, key)
        .await
        .unwrap();
    println!("fixture: {N} entries in {:?}", started.elapsed());
    // A player near the middle, found by entering the database as a real player's entry.
    let (pid, token) = player(&app, "Me").await;
    app.db()
        .await
        .exec_for_test(
            "UPDATE entries SET player = ?1 WHERE challenge = ?2 AND game = ?3",
            &[pid.as_str(), id, &format!("{:024x}", 4242)],
        )
        .await
        .unwrap();
    let mut client = app.client().await;
    let mut times = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let (status, b) = client
            .call("GET", &format!("/api/challenges/{id}"), Some(&token), None)
            .await;
        times.push(t.elapsed());
        assert_eq!(status, StatusCode::OK);
        assert_eq!(b["leaderboard"]["finished"], N as i64);
        assert_eq!(b["leaderboard"]["entries"].as_array().unwrap().len(), 100);
        let around = b["leaderboard"]["around"].as_array().unwrap();
        assert_eq!(around.len(), 11, "five either side");
        let me = around.iter().find(|e| e["you"] == true).unwrap();
        let (s, k, f) = key(4242);
        // The rank is one more than the entries above, counted the slow way here.
        let above = (0..N)
            .filter(|&i| {
                let (s2, k2, f2) = key(i);
                (s2, k2, -f2) > (s, k, -f)
            })
            .count();
        assert_eq!(me["rank"], above as i64 + 1);
        assert_eq!(b["you"]["rank"], above as i64 + 1);
        for w in around.windows(2) {
            assert_eq!(w[1]["rank"].as_i64(), w[0]["rank"].as_i64().map(|r| r + 1));
        }
        let _ = f;
    }
    times.sort();
    println!(
        "leaderboard of {N}: top 100 and around me, median {:?}, slowest {:?}",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

#[tokio::test]
async fn a_friend_challenge_made_with_the_seat_token_is_the_makers() {
    let app = app_at(TODAY).await;
    // Played before its player had an identity: no player on the seat.
    let v = app
        .post("/api/ink/games", None, r#"{"mode":"solo","name":"Cy"}"#)
        .await
        .is(StatusCode::CREATED);
    let (game, seat) = (v["id"].as_str().unwrap(), v["token"].as_str().unwrap());
    let (_, last) = play_ink_game(&app, game, seat).await;
    let (cy, cy_token) = player(&app, "Cy").await;
    let body = json!({"kind": "friend", "from": game, "seat_token": seat}).to_string();
    let made = app
        .post("/api/challenges", Some(&cy_token), &body)
        .await
        .is(StatusCode::CREATED);
    let b = board(&app, made["id"].as_str().unwrap(), Some(&cy_token)).await;
    let e = &b["leaderboard"]["entries"][0];
    assert_eq!(e["player"], cy.as_str());
    assert_eq!(e["you"], true);
    assert_eq!(b["target"], last["players"][0]["score"]["advanced"]);
    // Someone else's seat token proves nothing: a stranger may not make one.
    let (_, eve) = player(&app, "Eve").await;
    let body = json!({"kind": "friend", "from": game, "seat_token": "f".repeat(64)}).to_string();
    app.post("/api/challenges", Some(&eve), &body)
        .await
        .is(StatusCode::FORBIDDEN);
    // Asking again gives the one challenge the game makes.
    let body = json!({"kind": "friend", "from": game, "seat_token": seat}).to_string();
    let again = app
        .post("/api/challenges", Some(&cy_token), &body)
        .await
        .is(StatusCode::OK);
    assert_eq!(again["id"], b["id"]);
}
