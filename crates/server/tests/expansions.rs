//! Deep Blue's lake and river expansions through the HTTP API: a game's setup takes its
//! expansion in every mode, the state shows the six dice (the two expansion dice optional),
//! the floods and the expansion's points, a round ends without the expansion dice, a tile of
//! the other expansion is refused with its rule, and a replay scores as the game did.

mod common;

use common::challenge::{app_at, play_ink_game, player, wait_for_computer};
use common::{Answer, TestApp, create, first_legal_die, place};
use hyper::StatusCode;
use railroad_ink::movegen::first_legal;
use railroad_ink::{Action, Board, Dice, Edge, Expansion, Game, Setup, Side, Square};
use serde_json::Value;

async fn state(app: &TestApp, id: &str, token: &str) -> Value {
    app.get(&format!("/api/ink/games/{id}"), Some(token))
        .await
        .is(StatusCode::OK)
}

async fn end_round(app: &TestApp, id: &str, token: &str) -> (StatusCode, Value) {
    app.post(&format!("/api/ink/games/{id}/end-round"), Some(token), "")
        .await
}

/// How close a board is to a flood: floods count most, then empty squares faced by lake sides.
fn flood_potential(board: &Board) -> u32 {
    let faced = Square::all()
        .filter(|s| board.occupied() & s.bit() == 0)
        .map(|s| {
            let n = Side::ALL
                .iter()
                .filter(|&&side| {
                    s.neighbour(side)
                        .is_some_and(|n| board.edge(n, side.opposite()) == Edge::Lake)
                })
                .count() as u32;
            n * n
        })
        .sum::<u32>();
    1000 * board.flooded().count_ones() + faced
}

/// A seed and a solo lake game's actions on it (lake dice where they come closest to a
/// flood, route dice at their first legal place) that floods a square within three rounds.
fn flooding_game() -> (u64, Vec<Action>) {
    for seed in 0..500u64 {
        let setup = Setup {
            players: 1,
            dice: Dice::Seed(seed),
        };
        let mut game = Game::with_expansion(setup, Expansion::Lake);
        let mut actions = Vec::new();
        let mut act = |game: &mut Game, action: Action| {
            game.act(0, action).unwrap();
            actions.push(action);
        };
        for _ in 0..3 {
            for tile in game.expansion_dice_left(0).unwrap() {
                let board = *game.player(0).unwrap().board();
                let best = board.legal_placements(tile).into_iter().max_by_key(|&p| {
                    let mut b = board;
                    b.place(p).unwrap();
                    flood_potential(&b)
                });
                if let Some(placement) = best {
                    act(&mut game, Action::Place { placement });
                }
            }
            loop {
                let board = *game.player(0).unwrap().board();
                let next = game
                    .dice_left(0)
                    .unwrap()
                    .into_iter()
                    .find_map(|t| first_legal(&board, t));
                let Some(placement) = next else { break };
                act(&mut game, Action::Place { placement });
            }
            act(&mut game, Action::EndRound);
            if game.player(0).unwrap().board().flooded() != 0 {
                return (seed, actions);
            }
        }
    }
    panic!("no seed of 500 floods a square in three rounds");
}

async fn post_action(app: &TestApp, id: &str, token: &str, action: Action) -> Value {
    let (status, v) = match action {
        Action::Place { placement } => place(app, id, token, &placement.to_string()).await,
        Action::EndRound => end_round(app, id, token).await,
        Action::Undo => {
            app.post(&format!("/api/ink/games/{id}/undo"), Some(token), "")
                .await
        }
        Action::Join => unreachable!("no join in a solo game"),
    };
    assert_eq!(status, StatusCode::OK, "{action:?}: {v}");
    v
}

#[tokio::test]
async fn a_lake_game_shows_its_dice_floods_and_points_and_replays() {
    let app = TestApp::start().await;
    let (seed, actions) = flooding_game();
    let body = format!(r#"{{"mode":"solo","seed":{seed},"expansion":"lake"}}"#);
    let (id, token) = create(&app, &body).await;
    let s = state(&app, &id, &token).await;
    assert_eq!(s["expansion"], "lake");
    assert_eq!(s["rounds"], 6);
    assert_eq!(s["dice"].as_array().unwrap().len(), 6);
    assert_eq!(s["optional_dice"], serde_json::json!([4, 5]));
    assert_eq!(s["roll"].as_str().unwrap().len(), 12);
    let dice = s["you"]["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 6);
    for (i, d) in dice.iter().enumerate() {
        assert_eq!(d["die"], i);
        assert_eq!(d["optional"].as_bool().unwrap_or(false), i >= 4, "{d}");
        if i >= 4 {
            assert!(d["tile"].as_str().unwrap().starts_with('L'), "{d}");
        }
    }
    assert_eq!(s["players"][0]["dice_used"].as_array().unwrap().len(), 6);
    assert!(s["players"][0].get("flooded").is_none());

    // Placing a lake die uses an expansion die, like a route die.
    let Action::Place { placement: first } = actions[0] else {
        panic!("the first action places a lake die")
    };
    assert!(first.tile.has_lake());
    let v = post_action(&app, &id, &token, actions[0]).await;
    let used = &v["players"][0]["dice_used"];
    assert!(used[4] == true || used[5] == true, "{used}");
    // The same die again is no die of the round once both are used.
    let mut last = v;
    for &a in &actions[1..] {
        last = post_action(&app, &id, &token, a).await;
    }
    let flooded = last["players"][0]["flooded"].as_array().expect("a flood");
    assert!(!flooded.is_empty(), "{}", last["players"][0]);
    let game = Game::replay_with_expansion(
        Setup {
            players: 1,
            dice: Dice::Seed(seed),
        },
        Expansion::Lake,
        &actions.iter().map(|&a| (0, a)).collect::<Vec<_>>(),
    )
    .unwrap();
    let board = game.player(0).unwrap().board();
    let expected: Vec<String> = Square::all()
        .filter(|s| board.flooded() & s.bit() != 0)
        .map(|s| s.to_string())
        .collect();
    let got: Vec<String> = flooded
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, expected);
    // The board string never holds the flood.
    assert!(!last["players"][0]["board"].as_str().unwrap().contains("F0"));
    let score = &last["players"][0]["score"];
    assert_eq!(score["expansion"], board.score().expansion);
    assert!(score["expansion"].as_i64().unwrap() > 0, "{score}");
    assert!(
        !last["players"][0]["breakdown"]["lakes"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    // The rest of the game, then its replay scores the same.
    let mut s = last;
    while s["finished"] != true {
        match first_legal_die(&s) {
            Some(p) => {
                let (status, v) = place(&app, &id, &token, &p).await;
                assert_eq!(status, StatusCode::OK, "{p}: {v}");
                s = v;
            }
            None => {
                let (status, v) = end_round(&app, &id, &token).await;
                assert_eq!(status, StatusCode::OK, "{v}");
                s = v;
            }
        }
    }
    assert_eq!(s["round"], 6);
    let replay = app
        .get(&format!("/api/ink/games/{id}/replay"), Some(&token))
        .await
        .is(StatusCode::OK);
    assert_eq!(replay["expansion"], "lake");
    assert_eq!(replay["rolls"].as_array().unwrap().len(), 6);
    assert_eq!(replay["players"][0]["score"], s["players"][0]["score"]);
    let steps = replay["steps"].as_array().unwrap();
    assert!(steps.iter().any(|st| st.get("flooded").is_some()));
    // Read back from storage after a restart, the game is the same.
    let mut app = app;
    app.restart().await;
    let again = state(&app, &id, &token).await;
    assert_eq!(again["players"], s["players"]);
}

#[tokio::test]
async fn a_round_ends_without_the_expansion_dice_and_the_other_family_is_refused() {
    let app = TestApp::start().await;
    let (id, token) = create(&app, r#"{"mode":"solo","seed":7,"expansion":"river"}"#).await;
    let mut s = state(&app, &id, &token).await;
    assert_eq!(s["expansion"], "river");
    for d in &s["you"]["dice"].as_array().unwrap()[4..] {
        assert!(d["tile"].as_str().unwrap().starts_with('V'), "{d}");
    }
    // A lake tile in a river game: not a tile of this game.
    let (status, v) = place(&app, &id, &token, "L0D30").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["rule"], "not a tile of this game (E2)");
    assert!(
        v["error"].as_str().unwrap_or_default().contains("L0"),
        "{v}"
    );
    // The flooded square is the engine's: no placement a player writes.
    let (status, v) = place(&app, &id, &token, "F0D30").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // Only the route dice are required: place them where they fit, then end the round.
    loop {
        let route_only = {
            let mut t = s.clone();
            t["you"]["dice"] = Value::Array(s["you"]["dice"].as_array().unwrap()[..4].to_vec());
            first_legal_die(&t)
        };
        let Some(p) = route_only else { break };
        let (status, v) = place(&app, &id, &token, &p).await;
        assert_eq!(status, StatusCode::OK, "{p}: {v}");
        s = v;
    }
    assert_eq!(s["you"]["end_round"]["allowed"], true, "{}", s["you"]);
    let (status, v) = end_round(&app, &id, &token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["round"], 1);
    // A base game has no expansion in its state and refuses expansion tiles.
    let (id, token) = create(&app, r#"{"mode":"solo","seed":7}"#).await;
    let s = state(&app, &id, &token).await;
    assert!(s.get("expansion").is_none());
    assert!(s.get("optional_dice").is_none());
    assert_eq!(s["dice"].as_array().unwrap().len(), 4);
    assert_eq!(s["rounds"], 7);
    let (status, v) = place(&app, &id, &token, "V0D30").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["rule"], "not a tile of this game (E2)");
    // An unknown expansion is a bad request.
    let (status, v) = app
        .post(
            "/api/ink/games",
            None,
            r#"{"mode":"solo","expansion":"ocean"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn every_mode_takes_an_expansion() {
    let app = TestApp::start().await;
    // Against the computer: the computer plays the river game too.
    let (id, token) = create(
        &app,
        r#"{"mode":"computer","seed":3,"expansion":"river","agent":"greedy"}"#,
    )
    .await;
    let (_, last) = play_ink_game(&app, &id, &token).await;
    assert_eq!(last["expansion"], "river");
    assert_eq!(last["round"], 6);
    assert_eq!(last["players"].as_array().unwrap().len(), 2);
    // Its rematch plays the same expansion.
    let (status, v) = app
        .post(&format!("/api/ink/games/{id}/rematch"), Some(&token), "")
        .await;
    if status == StatusCode::CREATED || status == StatusCode::OK {
        let rid = v["id"].as_str().unwrap();
        let rtoken = v["token"].as_str().unwrap();
        assert_eq!(state(&app, rid, rtoken).await["expansion"], "river");
    }
    // Online: the lobby's game starts with the lake's dice.
    let (id, maker, _bob) = common::online_game(
        &app,
        r#"{"mode":"online","expansion":"lake"}"#,
        [None, None],
    )
    .await;
    let s = state(&app, &id, &maker).await;
    assert_eq!(s["expansion"], "lake");
    assert_eq!(s["you"]["dice"].as_array().unwrap().len(), 6);
    // The viewer and the tutorial's check read a board in an expansion.
    let v = app
        .get("/api/ink/view?board=L0C30L0D23L0D41&expansion=lake", None)
        .await
        .is(StatusCode::OK);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["flooded"][3], serde_json::json!(["D3"]));
    assert_eq!(v["steps"][3]["score"]["expansion"], 4);
    let v = app
        .get("/api/ink/view?board=L0C30", None)
        .await
        .is(StatusCode::OK);
    assert_eq!(v["well_formed"], false, "{v}");
    let v = app
        .post(
            "/api/ink/check",
            None,
            r#"{"board":"L0C30L0D23","expansion":"lake","placement":"L0D41","tiles":["L1"]}"#,
        )
        .await
        .is(StatusCode::OK);
    assert_eq!(v["flooded"], serde_json::json!(["D3"]));
    let t = app
        .get("/api/ink/expansions", None)
        .await
        .is(StatusCode::OK);
    assert_eq!(t["tiles"].as_array().unwrap().len(), 11);
    assert_eq!(t["expansions"][0]["die"].as_array().unwrap().len(), 6);
}

#[tokio::test]
async fn a_friend_challenge_from_a_lake_game_plays_the_lake() {
    let app = app_at(common::challenge::TODAY).await;
    let (_, ann) = player(&app, "Ann").await;
    let (id, token) = common::create_as(
        &app,
        Some(&ann),
        r#"{"mode":"solo","seed":11,"expansion":"lake"}"#,
    )
    .await;
    let (_, last) = play_ink_game(&app, &id, &token).await;
    assert_eq!(last["expansion"], "lake");
    let body = serde_json::json!({ "kind": "friend", "from": id }).to_string();
    let (status, made) = app.post("/api/challenges", Some(&ann), &body).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let challenge = made["id"].as_str().unwrap().to_owned();
    assert!(challenge.starts_with("friend-lake-"), "{challenge}");
    let b = wait_for_computer(&app, &challenge).await;
    assert_eq!(b["variant"], "lake", "{b}");
    let (_, bob) = player(&app, "Bob").await;
    let (status, v) = common::challenge::play(&app, &challenge, &bob).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let game = v["game"].as_str().unwrap();
    let s = state(&app, game, v["token"].as_str().unwrap()).await;
    assert_eq!(s["expansion"], "lake");
    // The same rolls as Ann's game.
    assert_eq!(s["roll"].as_str().unwrap().len(), 12);
}

/// The weekly Deep Blue challenge: the lake in odd ISO weeks, the river in even ones, with its
/// leaderboard and its computer's game, hidden until it closes; then its seed gives its rolls.
#[tokio::test]
async fn the_weekly_deep_blue_challenge_alternates_lake_and_river() {
    // Thursday 26 November 2026 is in ISO week 48: the river.
    let mut app = app_at(common::challenge::TODAY).await;
    let (_, cur) = app.get("/api/challenges/current", None).await;
    let list = cur["challenges"].as_array().unwrap();
    assert_eq!(list.len(), 5);
    // The others keep their places.
    assert_eq!(list[1]["id"], "weekly-2026-W48");
    let deep = &list[4];
    assert_eq!(deep["id"], "weekly-river-2026-W48");
    assert_eq!(deep["kind"], "weekly-deep-blue");
    assert_eq!(deep["variant"], "river");
    assert_eq!(deep["game"], "ink");
    assert_eq!(deep["opens"], "2026-11-23T00:00:00Z");
    assert_eq!(deep["closes"], "2026-11-30T00:00:00Z");
    let id = "weekly-river-2026-W48";
    let b = wait_for_computer(&app, id).await;
    assert!(b["leaderboard"]["computer"]["score"].is_i64(), "{b}");
    assert!(b["leaderboard"]["computer"].get("game").is_none(), "{b}");
    assert!(b.get("seed").is_none());
    // Ann plays it: a river game of six rounds, ranked on its leaderboard.
    let (_, ann) = player(&app, "Ann").await;
    let (status, v) = common::challenge::play(&app, id, &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let game = v["game"].as_str().unwrap().to_owned();
    let token = v["token"].as_str().unwrap().to_owned();
    let (rolls, last) = play_ink_game(&app, &game, &token).await;
    assert_eq!(rolls.len(), 6);
    assert!(
        rolls
            .iter()
            .all(|r| r.len() == 12 && r[8..].starts_with('V'))
    );
    assert_eq!(last["expansion"], "river");
    let b = common::challenge::board(&app, id, Some(&ann)).await;
    assert_eq!(b["finished"], 1);
    assert_eq!(
        b["leaderboard"]["entries"][0]["score"],
        last["players"][0]["score"]["advanced"]
    );
    // Her shared result draws river without a route as water, never as a route tile, and a
    // river's open end as an error, square by square as the engine sees her board.
    let shared = app
        .get(&format!("/api/challenges/{id}/share"), Some(&ann))
        .await
        .is(StatusCode::OK);
    let text = shared["text"].as_str().unwrap();
    let grid: Vec<String> = text.lines().skip(4).take(7).map(str::to_owned).collect();
    let board = Board::parse_in(
        last["players"][0]["board"].as_str().unwrap(),
        Expansion::River,
    )
    .unwrap();
    let breakdown = board.breakdown();
    let expected: Vec<String> = (0..7u8)
        .map(|row| {
            (0..7u8)
                .map(|col| {
                    let sq = Square::new(row, col).unwrap();
                    let error = breakdown.errors.iter().any(|e| e.square == sq)
                        || breakdown.river_errors.iter().any(|e| e.square == sq);
                    match board.get(sq) {
                        None => '⬜',
                        Some(_) if error => '🟥',
                        Some(p)
                            if p.tile == railroad_ink::Tile::V0
                                || p.tile == railroad_ink::Tile::V1 =>
                        {
                            '🟦'
                        }
                        Some(_) => '🟩',
                    }
                })
                .collect()
        })
        .collect();
    // (Whether her board has such water depends on the challenge's random seed; the colours
    // themselves are pinned on fixed boards by the unit test of `share_grid`.)
    assert_eq!(grid, expected, "{text}");
    // Someone who has not played it sees neither Ann's game nor the seed.
    let (status, _) = app.get(&format!("/api/ink/games/{game}"), None).await;
    assert_ne!(status, StatusCode::OK);
    // An unknown variant's week is no challenge.
    let (status, _) = app.get("/api/challenges/weekly-lake-2026-W48", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The next week (W49, odd): the lake; last week's river is closed and shows its seed,
    // whose river rolls are the ones played.
    app.config.clock = server::Clock::parse("2026-12-01T10:00:00Z").unwrap();
    app.restart().await;
    let (_, cur) = app.get("/api/challenges/current", None).await;
    assert_eq!(cur["challenges"][4]["id"], "weekly-lake-2026-W49");
    assert_eq!(cur["challenges"][4]["variant"], "lake");
    let old = common::challenge::board(&app, id, None).await;
    assert_eq!(old["closed"], true);
    let seed: u64 = old["seed"].as_str().unwrap().parse().unwrap();
    let expected: Vec<String> = Dice::Seed(seed)
        .rolls_in(Expansion::River)
        .iter()
        .take(6)
        .map(ToString::to_string)
        .collect();
    assert_eq!(rolls, expected);
    let r = app
        .get(&format!("/api/ink/games/{game}/replay"), None)
        .await
        .is(StatusCode::OK);
    assert_eq!(r["expansion"], "river");
    assert_eq!(r["players"][0]["score"], last["players"][0]["score"]);
}

/// A player's best is kept per game and variant: a lake game and a river game never count in
/// the base game's record (nor in each other's), solo and challenges apart.
#[tokio::test]
async fn each_expansion_keeps_its_own_best() {
    let app = app_at(common::challenge::TODAY).await;
    let (ann_id, ann) = player(&app, "Ann").await;
    let mut scores = Vec::new();
    for body in [
        r#"{"mode":"solo","seed":21}"#,
        r#"{"mode":"solo","seed":22,"expansion":"lake"}"#,
        r#"{"mode":"solo","seed":23,"expansion":"river"}"#,
        r#"{"mode":"solo","seed":24,"expansion":"lake"}"#,
    ] {
        let (id, token) = common::create_as(&app, Some(&ann), body).await;
        let (_, last) = play_ink_game(&app, &id, &token).await;
        scores.push(last["players"][0]["score"]["advanced"].as_i64().unwrap());
    }
    let (_, p) = app.get(&format!("/api/players/{ann_id}"), None).await;
    let record = |variant: Option<&str>| {
        common::find(&p["bests"], |b| {
            b["game"] == "ink" && b["mode"] == "solo" && b["variant"].as_str() == variant
        })
    };
    let base = record(None);
    assert_eq!(
        (base["games"].as_i64(), base["best"].as_i64()),
        (Some(1), Some(scores[0]))
    );
    let lake = record(Some("lake"));
    assert_eq!(lake["games"], 2, "{p}");
    assert_eq!(lake["best"], scores[1].max(scores[3]));
    let river = record(Some("river"));
    assert_eq!(
        (river["games"].as_i64(), river["best"].as_i64()),
        (Some(1), Some(scores[2]))
    );
    // A first game of its variant beats no best: never "up from" another variant's.
    assert!(river["previous"].is_null(), "{river}");
    assert_eq!(p["bests"].as_array().unwrap().len(), 3, "{p}");
}
