//! What brings a player back (issue 28): streaks of daily challenges, over a clock moved day by
//! day (the server restarted on the same database at each new time).

mod common;

use common::challenge::{app_at, play, play_ink_game, play_metro_game, player};
use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::Value;

/// Moves the server's clock to `at` (RFC 3339), keeping its database.
async fn move_to(app: &mut TestApp, at: &str) {
    app.config.clock = server::Clock::parse(at).unwrap();
    app.restart().await;
}

/// Finishes today's daily challenge of `kind` (`daily` or `metro-daily`) as `token`'s player.
async fn finish_daily(app: &TestApp, kind: &str, day: &str, token: &str) {
    let (status, v) = play(app, &format!("{kind}-{day}"), token).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (game, seat) = (v["game"].as_str().unwrap(), v["token"].as_str().unwrap());
    if kind == "daily" {
        play_ink_game(app, game, seat).await;
    } else {
        let last = play_metro_game(app, game, seat).await;
        assert_eq!(last["finished"], true);
    }
}

async fn streaks(app: &TestApp, id: &str) -> Value {
    let v = app
        .get(&format!("/api/players/{id}"), None)
        .await
        .is(StatusCode::OK);
    v["streaks"].clone()
}

fn streak(v: &Value, kind: &str) -> (i64, i64, Option<String>) {
    let s = &v[kind];
    (
        s["current"].as_i64().unwrap(),
        s["longest"].as_i64().unwrap(),
        s["last"].as_str().map(str::to_owned),
    )
}

#[tokio::test]
async fn a_streak_counts_consecutive_days_and_a_missed_day_breaks_it() {
    let mut app = app_at("2026-11-26T10:00:00Z").await;
    let (id, ann) = player(&app, "Ann").await;
    let none = streaks(&app, &id).await;
    assert_eq!(streak(&none, "daily"), (0, 0, None));
    assert_eq!(streak(&none, "metro-daily"), (0, 0, None));

    // Day 1: the daily, finished; Metro's daily is a streak of its own.
    finish_daily(&app, "daily", "2026-11-26", &ann).await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (1, 1, Some("2026-11-26".into())));
    assert_eq!(streak(&s, "metro-daily"), (0, 0, None));
    finish_daily(&app, "metro-daily", "2026-11-26", &ann).await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "metro-daily"), (1, 1, Some("2026-11-26".into())));
    assert_eq!(streak(&s, "daily").0, 1);

    // Day 2: the daily again, late in the day.
    move_to(&mut app, "2026-11-27T23:30:00Z").await;
    finish_daily(&app, "daily", "2026-11-27", &ann).await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (2, 2, Some("2026-11-27".into())));
    // Metro's streak is still current on the day after its last day, not played yet.
    assert_eq!(streak(&s, "metro-daily"), (1, 1, Some("2026-11-26".into())));
    // Today's cards and a daily's leaderboard carry the asker's streak of its kind.
    let (_, current) = app.get("/api/challenges/current", Some(&ann)).await;
    let cards = current["challenges"].as_array().unwrap();
    let card = |id: &str| cards.iter().find(|c| c["id"] == id).unwrap().clone();
    assert_eq!(card("daily-2026-11-27")["streak"]["current"], 2);
    assert_eq!(card("metro-daily-2026-11-27")["streak"]["current"], 1);
    assert!(card("weekly-2026-W48").get("streak").is_none());
    let (_, anyone) = app.get("/api/challenges/current", None).await;
    assert!(anyone["challenges"][0].get("streak").is_none());
    let (_, board) = app
        .get("/api/challenges/daily-2026-11-27", Some(&ann))
        .await;
    assert_eq!(board["streak"]["current"], 2, "{board}");
    assert_eq!(board["streak"]["longest"], 2);

    // Day 3, skipped: the day is not over, so the streak holds.
    move_to(&mut app, "2026-11-28T23:59:00Z").await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (2, 2, Some("2026-11-27".into())));
    assert_eq!(streak(&s, "metro-daily"), (0, 1, Some("2026-11-26".into())));

    // Day 4: day 3 went by without a daily, so the streak is broken; playing starts another.
    move_to(&mut app, "2026-11-29T00:01:00Z").await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (0, 2, Some("2026-11-27".into())));
    finish_daily(&app, "daily", "2026-11-29", &ann).await;
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (1, 2, Some("2026-11-29".into())));
}

#[tokio::test]
async fn an_unfinished_daily_counts_for_nothing() {
    let app = app_at("2026-11-26T10:00:00Z").await;
    let (id, ann) = player(&app, "Ann").await;
    let (status, v) = play(&app, "daily-2026-11-26", &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let s = streaks(&app, &id).await;
    assert_eq!(streak(&s, "daily"), (0, 0, None));
}

#[tokio::test]
async fn a_monthly_challenge_opens_on_the_first_of_each_month() {
    let mut app = app_at("2026-11-30T23:00:00Z").await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, cur) = app.get("/api/challenges/current", None).await;
    let monthly = common::find(&cur["challenges"], |c| c["kind"] == "monthly");
    assert_eq!(monthly["id"], "monthly-2026-11");
    assert_eq!(monthly["game"], "ink");
    // Playing it is playing the month's dice, like a daily.
    let (status, v) = play(&app, "monthly-2026-11", &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (rolls, _) = play_ink_game(
        &app,
        v["game"].as_str().unwrap(),
        v["token"].as_str().unwrap(),
    )
    .await;
    assert_eq!(rolls.len(), 7);

    // The first of December, half an hour in: December's is open, November's has closed.
    move_to(&mut app, "2026-12-01T00:30:00Z").await;
    let (_, cur) = app.get("/api/challenges/current", None).await;
    let ids: Vec<&str> = common::each(&cur["challenges"], |c| c["id"].as_str().unwrap());
    assert_eq!(
        ids,
        [
            "daily-2026-12-01",
            "weekly-2026-W49",
            "monthly-2026-12",
            "metro-daily-2026-12-01",
            "weekly-lake-2026-W49"
        ]
    );
    let (_, december) = app.get("/api/challenges/monthly-2026-12", None).await;
    assert_eq!(december["period"], "2026-12");
    assert_eq!(december["opens"], "2026-12-01T00:00:00Z");
    assert_eq!(december["closes"], "2027-01-01T00:00:00Z");
    assert_eq!(december["closed"], false);
    let (_, november) = app.get("/api/challenges/monthly-2026-11", None).await;
    assert_eq!(november["closed"], true);
    assert!(
        november["seed"].is_string(),
        "a closed month shows its seed"
    );
    assert_eq!(november["leaderboard"]["finished"], 1);
    // A month's dice are its own: not a day's of the same month.
    assert_ne!(
        november["seed"],
        app.get("/api/challenges/daily-2026-11-30", None).await.1["seed"]
    );
    let (_, bob) = player(&app, "Bob").await;
    assert_eq!(
        play(&app, "monthly-2026-11", &bob).await.0,
        StatusCode::CONFLICT
    );
    // Among the past challenges.
    let (_, past) = app.get("/api/challenges", None).await;
    assert!(
        past["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == "monthly-2026-11")
    );
    // A month not yet come is not found.
    assert_eq!(
        app.get("/api/challenges/monthly-2027-01", None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn practice_plays_a_closed_challenge_again_never_ranked() {
    let mut app = app_at("2026-11-26T10:00:00Z").await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    finish_daily(&app, "daily", "2026-11-26", &ann).await;
    // Open: no practice, for a player who played it or not; a token is needed.
    for token in [&ann, &bob] {
        let v = app
            .post("/api/challenges/daily-2026-11-26/practice", Some(token), "")
            .await
            .is(StatusCode::CONFLICT);
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .contains("practice opens once it closes")
        );
    }
    assert_eq!(
        app.post("/api/challenges/daily-2026-11-26/practice", None, "")
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );

    // The next day: Bob, who missed it, practises it, twice if he likes.
    move_to(&mut app, "2026-11-27T10:00:00Z").await;
    let day = "daily-2026-11-26";
    let (_, board_before) = app.get(&format!("/api/challenges/{day}"), None).await;
    let seed = board_before["seed"].as_str().unwrap().to_owned();
    let v = app
        .post(&format!("/api/challenges/{day}/practice"), Some(&bob), "")
        .await
        .is(StatusCode::CREATED);
    assert_eq!(v["kind"], "ink");
    assert_eq!(v["seat"], 0);
    let (game, token) = (v["game"].as_str().unwrap(), v["token"].as_str().unwrap());
    let (_, s) = app
        .get(&format!("/api/ink/games/{game}"), Some(token))
        .await;
    assert_eq!(s["practice"], true, "{s}");
    assert_eq!(s["practice_of"], day);
    assert_eq!(s["mode"], "practice");
    assert!(
        s.get("challenge").is_none(),
        "a practice game is in no challenge"
    );
    assert_eq!(s["players"][0]["name"], "Bob");
    // Practice may ask for a hint.
    app.get(&format!("/api/ink/games/{game}/hint"), Some(token))
        .await
        .is(StatusCode::OK);
    let (rolls, last) = play_ink_game(&app, game, token).await;
    assert_eq!(last["finished"], true);
    assert_eq!(last["seed"], seed.as_str(), "the challenge's own dice");
    let expected: Vec<String> = railroad_ink::Dice::Seed(seed.parse().unwrap())
        .rolls()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(rolls, expected);
    let again = app
        .post(&format!("/api/challenges/{day}/practice"), Some(&bob), "")
        .await
        .is(StatusCode::CREATED);
    assert_ne!(again["game"], game);
    // Ann may practise what she played, too.
    app.post(&format!("/api/challenges/{day}/practice"), Some(&ann), "")
        .await
        .is(StatusCode::CREATED);

    // Never ranked, never counted: the leaderboard is as it was, Bob has no streak.
    let (_, board_after) = app.get(&format!("/api/challenges/{day}"), None).await;
    assert_eq!(board_after["players"], board_before["players"]);
    assert_eq!(board_after["leaderboard"]["finished"], 1);
    assert_eq!(
        board_after["leaderboard"]["histogram"],
        board_before["leaderboard"]["histogram"]
    );
    let bob_id = app.get("/api/players/me", Some(&bob)).await.1["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(streak(&streaks(&app, &bob_id).await, "daily"), (0, 0, None));
    assert_eq!(streak(&streaks(&app, &ann_id).await, "daily").0, 1);
    // Nor may anyone start one with POST /api/ink/games.
    app.post("/api/ink/games", None, r#"{"mode":"practice"}"#)
        .await
        .is(StatusCode::BAD_REQUEST);
    // A challenge that does not exist is not found.
    app.post("/api/challenges/daily-2020-01-01/practice", Some(&bob), "")
        .await
        .is(StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_finished_practice_game_gives_no_hint() {
    let mut app = app_at("2026-11-26T10:00:00Z").await;
    let (_, bob) = player(&app, "Bob").await;
    // The day's challenges are made when first asked for.
    assert_eq!(
        app.get("/api/challenges/current", None).await.0,
        StatusCode::OK
    );
    move_to(&mut app, "2026-11-27T10:00:00Z").await;
    let v = app
        .post("/api/challenges/daily-2026-11-26/practice", Some(&bob), "")
        .await
        .is(StatusCode::CREATED);
    let (game, token) = (v["game"].as_str().unwrap(), v["token"].as_str().unwrap());
    let hint = format!("/api/ink/games/{game}/hint");
    app.get(&hint, Some(token)).await.is(StatusCode::OK);
    let (_, last) = play_ink_game(&app, game, token).await;
    assert_eq!(last["finished"], true);
    let v = app.get(&hint, Some(token)).await.is(StatusCode::CONFLICT);
    assert!(
        v["error"].as_str().unwrap().contains("the game is over"),
        "{v}"
    );
}

#[tokio::test]
async fn practice_on_a_closed_metro_daily() {
    let mut app = app_at("2026-11-27T10:00:00Z").await;
    let (_, ann) = player(&app, "Ann").await;
    // The day's challenges are made when first asked for.
    assert_eq!(
        app.get("/api/challenges/current", None).await.0,
        StatusCode::OK
    );
    move_to(&mut app, "2026-11-28T10:00:00Z").await;
    let v = app
        .post(
            "/api/challenges/metro-daily-2026-11-27/practice",
            Some(&ann),
            "",
        )
        .await
        .is(StatusCode::CREATED);
    assert_eq!(v["kind"], "metro");
    let (game, token) = (v["game"].as_str().unwrap(), v["token"].as_str().unwrap());
    let (_, s) = app
        .get(&format!("/api/metro/games/{game}"), Some(token))
        .await;
    assert_eq!(s["practice"], true, "{s}");
    assert_eq!(s["practice_of"], "metro-daily-2026-11-27");
    assert_eq!(s["mode"], "practice");
    let last = play_metro_game(&app, game, token).await;
    assert_eq!(last["finished"], true);
    let (_, board) = app
        .get("/api/challenges/metro-daily-2026-11-27", None)
        .await;
    assert_eq!(board["players"], 0, "practice is no entry");
}

/// Plays every seat of an online Railroad Ink game, round by round, to its end.
async fn finish_online(app: &TestApp, game: &str, tokens: &[&str]) -> Value {
    let mut last = Value::Null;
    for _ in 0..7 {
        for token in tokens {
            last = common::challenge::play_ink_round(app, game, token).await;
        }
    }
    let (_, s) = app
        .get(&format!("/api/ink/games/{game}"), Some(tokens[0]))
        .await;
    assert_eq!(s["finished"], true, "{last}");
    s
}

#[tokio::test]
async fn play_again_solo_and_against_the_computer() {
    let app = TestApp::start().await;
    for body in [
        r#"{"mode":"solo","name":"Ann","seed":5}"#,
        r#"{"mode":"computer","name":"Ann","agent":"greedy","seed":5}"#,
    ] {
        let (id, token) = common::create(&app, body).await;
        let path = format!("/api/ink/games/{id}/rematch");
        // Not before the end; not for someone without a seat.
        app.post(&path, Some(&token), "")
            .await
            .is(StatusCode::CONFLICT);
        app.post(&path, Some(&"e".repeat(64)), "")
            .await
            .is(StatusCode::FORBIDDEN);
        play_ink_game(&app, &id, &token).await;
        let made = app
            .post(&path, Some(&token), "")
            .await
            .is(StatusCode::CREATED);
        let new_id = made["id"].as_str().unwrap();
        let new_token = made["token"].as_str().unwrap();
        assert_ne!(new_id, id);
        let (_, old) = app.get(&format!("/api/ink/games/{id}"), Some(&token)).await;
        let (_, new) = app
            .get(&format!("/api/ink/games/{new_id}"), Some(new_token))
            .await;
        assert_eq!(new["mode"], old["mode"]);
        assert_eq!(new["players"][0]["name"], "Ann");
        assert_eq!(
            new["players"].as_array().unwrap().len(),
            old["players"].as_array().unwrap().len()
        );
        if old["mode"] == "computer" {
            assert_eq!(new["players"][1]["level"], "greedy");
        }
        assert_eq!(new["round"], 0);
        assert_ne!(new["roll"], old["rounds"], "new dice");
        assert!(new.get("chosen_seed").is_none(), "new dice nobody chose");
        // The finished game points at its rematch; asked again, the same game.
        assert_eq!(old["rematch"], new_id);
        let again = app.post(&path, Some(&token), "").await.is(StatusCode::OK);
        assert_eq!(again["id"], new_id);
        assert!(again.get("token").is_none());
    }
}

#[tokio::test]
async fn play_again_online_the_others_see_the_offer_live_and_join() {
    let app = TestApp::start().await;
    let body = r#"{"mode":"online","name":"Ann"}"#;
    let (id, ann, bob) = common::online_game(&app, body, [None, None]).await;
    finish_online(&app, &id, &[&ann, &bob]).await;
    // Bob's page listens; Bob asks first.
    let mut events =
        common::Events::open(&app, &format!("/api/ink/games/{id}/events?token={ann}")).await;
    let first = events.next_state_value().await;
    assert!(first.get("rematch").is_none());
    let made = app
        .post(&format!("/api/ink/games/{id}/rematch"), Some(&bob), "")
        .await
        .is(StatusCode::CREATED);
    let new_id = made["id"].as_str().unwrap().to_owned();
    // Ann hears of it at once, at the same version.
    let offer = events.next_state_value().await;
    assert_eq!(offer["rematch"], new_id.as_str());
    assert_eq!(offer["version"], first["version"]);
    // Ann asking too gets the same game, and joins it with one request.
    let again = app
        .post(&format!("/api/ink/games/{id}/rematch"), Some(&ann), "")
        .await
        .is(StatusCode::OK);
    assert_eq!(again["id"], new_id.as_str());
    common::join(&app, &new_id, "Ann")
        .await
        .is(StatusCode::CREATED);
    let (_, lobby) = app.get(&format!("/api/ink/games/{new_id}"), None).await;
    assert_eq!(lobby["mode"], "online");
    assert_eq!(lobby["started"], false);
    let names: Vec<&str> = common::each(&lobby["players"], |p| p["name"].as_str().unwrap());
    assert_eq!(names, ["Bob", "Ann"], "the asker made it, the other joined");
}

#[tokio::test]
async fn play_again_metro_on_the_device_and_by_invitation() {
    let app = TestApp::start().await;
    let made = app.post("/api/metro/games", None, r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"computer","level":"greedy","name":"Robo"},{"kind":"human","name":"Cy","invite":true}],"seed":3}"#).await.is(StatusCode::CREATED);
    let id = made["id"].as_str().unwrap().to_owned();
    let ann = made["seats"][0]["token"].as_str().unwrap().to_owned();
    let cy = app
        .post(
            &format!("/api/metro/games/{id}/join"),
            None,
            r#"{"name":"Cy"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let cy = cy["token"].as_str().unwrap().to_owned();
    // Both people play their turns to the end.
    let (a, c) = (ann.clone(), cy.clone());
    let (app_a, id_a) = (&app, id.clone());
    let played = tokio::join!(
        play_metro_game(app_a, &id_a, &a),
        play_metro_game(&app, &id, &c)
    );
    assert_eq!(played.0["finished"], true);
    // Cy, the invited one, asks: Cy's seat is Cy's, Ann is invited, the computer stays.
    let again = app
        .post(&format!("/api/metro/games/{id}/rematch"), Some(&cy), "")
        .await
        .is(StatusCode::CREATED);
    let new_id = again["id"].as_str().unwrap();
    let seats = again["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0]["seat"], 2);
    let (_, new) = app.get(&format!("/api/metro/games/{new_id}"), None).await;
    let players = new["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(players[0]["invited"], true);
    assert_eq!(players[1]["kind"], "computer");
    assert_eq!(players[1]["level"], "greedy");
    assert_eq!(players[2]["name"], "Cy");
    assert_eq!(new["open_seats"], serde_json::json!([0]));
    let (_, old) = app.get(&format!("/api/metro/games/{id}"), Some(&ann)).await;
    assert_eq!(old["rematch"], new_id);
    // Ann takes her seat from the offer.
    app.post(
        &format!("/api/metro/games/{new_id}/join"),
        None,
        r#"{"name":"Ann","seat":0}"#,
    )
    .await
    .is(StatusCode::CREATED);
}

/// Two processes on one PostgreSQL database: a rematch made by one reaches the live updates of
/// the finished game held by the other. Needs `TRACKLAYER_TEST_PG` (skipped without it).
#[tokio::test]
async fn a_rematch_made_in_one_process_is_heard_in_another() {
    let Some((one, two)) = common::two_processes().await else {
        return;
    };
    let mut client = common::Client::connect(one.addr()).await;
    let (_, made) = client
        .call(
            "POST",
            "/api/ink/games",
            None,
            Some(r#"{"mode":"solo","name":"Ann"}"#),
        )
        .await;
    let id = made["id"].as_str().unwrap().to_owned();
    let token = made["token"].as_str().unwrap().to_owned();
    let path = format!("/api/ink/games/{id}");
    let (_, mut state) = client.call("GET", &path, Some(&token), None).await;
    while state["finished"] != true {
        let (action, body) = common::next_ink_move(&state);
        let (status, next) = client
            .call(
                "POST",
                &format!("{path}/{action}"),
                Some(&token),
                Some(&body),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        state = next;
    }
    let mut events =
        common::Events::open_at(two.addr(), &format!("{path}/events?token={token}")).await;
    assert!(events.next_state_value().await.get("rematch").is_none());
    let (status, again) = client
        .call("POST", &format!("{path}/rematch"), Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::CREATED, "{again}");
    let heard = events.next_state_value().await;
    assert_eq!(heard["rematch"], again["id"]);
    one.stop().await.unwrap();
    two.stop().await.unwrap();
}

#[tokio::test]
async fn bests_and_the_stats_of_dailies() {
    let mut app = app_at("2026-11-26T10:00:00Z").await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    let mut scores = Vec::new();
    for body in [
        r#"{"mode":"solo","seed":1}"#,
        r#"{"mode":"solo","seed":2}"#,
        r#"{"mode":"computer","agent":"greedy","seed":3}"#,
    ] {
        // Made with Ann's player token: the seat is hers.
        let (id, token) = common::create_as(&app, Some(&ann), body).await;
        let (_, last) = play_ink_game(&app, &id, &token).await;
        scores.push((
            id,
            last["players"][0]["score"]["advanced"].as_i64().unwrap(),
        ));
    }
    finish_daily(&app, "daily", "2026-11-26", &ann).await;
    finish_daily(&app, "daily", "2026-11-26", &bob).await;
    let (_, p) = app.get(&format!("/api/players/{ann_id}"), None).await;
    let bests = p["bests"].as_array().unwrap();
    let find = |mode: &str| {
        bests
            .iter()
            .find(|b| b["game"] == "ink" && b["mode"] == mode)
            .unwrap()
            .clone()
    };
    let solo = find("solo");
    assert_eq!(solo["games"], 2);
    let best = scores[..2].iter().map(|s| s.1).max().unwrap();
    assert_eq!(solo["best"], best);
    let first_best = scores[..2].iter().find(|s| s.1 == best).unwrap();
    assert_eq!(
        solo["best_game"],
        first_best.0.as_str(),
        "the first game that scored it"
    );
    // The second game was a new best only if it beat the first.
    if scores[1].1 > scores[0].1 {
        assert_eq!(solo["previous"], scores[0].1);
    } else {
        assert!(solo["previous"].is_null());
    }
    let mean = (scores[0].1 + scores[1].1) as f64 / 2.0;
    assert!((solo["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    let computer = find("computer:greedy");
    assert_eq!(computer["games"], 1);
    assert_eq!(computer["best"], scores[2].1);
    assert_eq!(find("challenge")["games"], 1);
    // The daily's game is named only to its player while the daily is open.
    assert!(find("challenge").get("best_game").is_none(), "{p}");
    let (_, mine) = app.get("/api/players/me", Some(&ann)).await;
    let own = common::find(&mine["bests"], |b| b["mode"] == "challenge");
    assert!(own["best_game"].is_string(), "{mine}");
    // The daily counts as played; its rank only once it has closed.
    assert_eq!(p["dailies"]["daily"]["played"], 1);
    let counted = |p: &Value| -> usize {
        p["dailies"]["daily"]["ranks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["count"].as_u64().unwrap() as usize)
            .sum()
    };
    assert_eq!(counted(&p), 0);
    move_to(&mut app, "2026-11-27T10:00:00Z").await;
    let (_, p) = app.get(&format!("/api/players/{ann_id}"), None).await;
    assert_eq!(counted(&p), 1);
    let closed = common::find(&p["bests"], |b| b["mode"] == "challenge");
    assert_eq!(
        closed["best_game"], own["best_game"],
        "named to all once closed"
    );
    let (_, board) = app
        .get("/api/challenges/daily-2026-11-26", Some(&ann))
        .await;
    let band = if board["you"]["rank"] == 1 {
        "top 10%"
    } else {
        "50–75%"
    };
    let ranks = p["dailies"]["daily"]["ranks"].as_array().unwrap();
    assert_eq!(
        ranks.iter().find(|b| b["band"] == band).unwrap()["count"],
        1,
        "{ranks:?}"
    );
    assert_eq!(p["dailies"]["metro-daily"]["played"], 0);
}

/// Whether `text` holds anything like a tile code, a placement or a roll: an upper-case letter
/// followed by a digit (`A4`, `B0`, `S3`, `A1A4A4B0`), or a Metro tile (four of `abcd`).
fn spoils(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for w in chars.windows(2) {
        if w[0].is_ascii_uppercase() && w[1].is_ascii_digit() {
            return Some(format!("{}{}", w[0], w[1]));
        }
    }
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .find(|w| w.len() == 4 && w.chars().all(|c| "abcd".contains(c)))
        .map(str::to_owned)
}

#[tokio::test]
async fn a_shared_result_spoils_nothing() {
    let app = app_at("2026-11-26T10:00:00Z").await;
    let (_, ann) = player(&app, "Ann").await;
    let path = "/api/challenges/daily-2026-11-26/share";
    assert_eq!(app.get(path, None).await.0, StatusCode::UNAUTHORIZED);
    // Not before she has played it, nor while she plays it.
    app.get(path, Some(&ann)).await.is(StatusCode::CONFLICT);
    let (_, started) = play(&app, "daily-2026-11-26", &ann).await;
    assert_eq!(app.get(path, Some(&ann)).await.0, StatusCode::CONFLICT);
    let (game, seat) = (
        started["game"].as_str().unwrap(),
        started["token"].as_str().unwrap(),
    );
    let (rolls, last) = play_ink_game(&app, game, seat).await;
    let computer = common::challenge::wait_for_computer(&app, "daily-2026-11-26").await["computer"]
        .as_i64()
        .unwrap();
    let shared = app.get(path, Some(&ann)).await.is(StatusCode::OK);
    let text = shared["text"].as_str().unwrap();
    let score = last["players"][0]["score"]["advanced"].as_i64().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "tracklayer · Daily Railroad Ink · 26 November 2026"
    );
    assert!(lines[1].starts_with(&format!("{score} point")), "{text}");
    assert!(lines[1].ends_with("1st of 1"), "{text}");
    assert_eq!(
        lines[2],
        format!("The computer's own game {computer} · 🔥 day 1")
    );
    let grid: Vec<&str> = lines[4..11].to_vec();
    assert!(
        grid.iter()
            .all(|l| l.chars().count() == 7 && l.chars().all(|c| "🟩🟥⬜".contains(c))),
        "{text}"
    );
    // The grid's tiles are the board's: as many as were placed.
    let placed = last["players"][0]["board"].as_str().unwrap().len() / 5;
    let tiles = grid
        .iter()
        .flat_map(|l| l.chars())
        .filter(|&c| c != '⬜')
        .count();
    assert_eq!(tiles, placed);
    let url = shared["url"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/challenges/daily-2026-11-26"),
        "{url}"
    );
    assert_eq!(lines.last().copied(), Some(url));
    // Nothing of the dice: no tile, no placement, no roll, no seed.
    let without_url = text.replace(url, "");
    assert_eq!(spoils(&without_url), None, "{text}");
    for roll in &rolls {
        assert!(!text.contains(roll.as_str()));
    }
    // Metro's grid is eight by eight, the centre marked.
    let (status, v) = play(&app, "metro-daily-2026-11-26", &ann).await;
    assert_eq!(status, StatusCode::CREATED);
    play_metro_game(
        &app,
        v["game"].as_str().unwrap(),
        v["token"].as_str().unwrap(),
    )
    .await;
    let shared = app
        .get("/api/challenges/metro-daily-2026-11-26/share", Some(&ann))
        .await
        .is(StatusCode::OK);
    let text = shared["text"].as_str().unwrap();
    assert!(
        text.starts_with("tracklayer · Daily Metro · 26 November 2026\n"),
        "{text}"
    );
    let grid: Vec<&str> = text.lines().filter(|l| l.chars().count() == 8).collect();
    assert_eq!(grid.len(), 8, "{text}");
    assert_eq!(grid[3].chars().nth(3), Some('⬛'));
    assert_eq!(
        spoils(&text.replace(shared["url"].as_str().unwrap(), "")),
        None,
        "{text}"
    );
}

#[tokio::test]
async fn a_challenge_page_carries_its_link_preview() {
    let app = app_at("2026-11-26T10:00:00Z").await;
    let (_, ann) = player(&app, "Ann").await;
    finish_daily(&app, "daily", "2026-11-26", &ann).await;
    let mut client = app.client().await;
    let response = client
        .send("GET", "/challenges/daily-2026-11-26", &[], Vec::new())
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = String::from_utf8(common::body(response).await.to_vec()).unwrap();
    let base = format!("http://127.0.0.1:{}", app.addr.port());
    for tag in [
        r#"<meta property="og:title" content="Daily Railroad Ink · 26 November 2026">"#.to_owned(),
        r#"<meta property="og:description" content="Everyone plays the same dice, one try each: 1 player, best "#.to_owned(),
        format!(r#"<meta property="og:image" content="{base}/api/challenges/daily-2026-11-26/preview.png">"#),
        format!(r#"<meta property="og:url" content="{base}/challenges/daily-2026-11-26">"#),
        "<title>Daily Railroad Ink · 26 November 2026 · tracklayer</title>".to_owned(),
    ] {
        assert!(html.contains(&tag), "{tag} in {html}");
    }
    assert!(
        html.contains(r#"<script type="module" src="/js/app."#),
        "still the app"
    );
    // The picture: a PNG of 1200×630.
    let (status, png) = client
        .call_raw(
            "GET",
            "/api/challenges/daily-2026-11-26/preview.png",
            None,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (w, h) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    assert_eq!((w, h), (1200, 630));
    let response = client
        .send(
            "GET",
            "/api/challenges/daily-2026-11-26/preview.png",
            &[],
            Vec::new(),
        )
        .await;
    assert_eq!(response.headers()["content-type"], "image/png");
    // An unknown challenge: the app's page (it says so), without tags; no picture.
    let response = client
        .send("GET", "/challenges/nope", &[], Vec::new())
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let (status, _) = client
        .call_raw("GET", "/api/challenges/nope/preview.png", None, None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
