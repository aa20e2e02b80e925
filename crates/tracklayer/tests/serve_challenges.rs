//! A daily challenge through the real binary: played one day; the next day its seed is shown,
//! and `tracklayer ink roll --seed` replays the very rolls that were played.

mod common;

use common::{Server, remove_db, run, temp_db};
use railroad_ink::{Board, Roll, generate_move};
use serde_json::json;

#[test]
fn the_next_day_the_seed_replays_the_rolls_with_ink_roll() {
    let db = temp_db("challenge");
    let env = |now| {
        [
            ("TRACKLAYER_NOW", now),
            ("TRACKLAYER_CHALLENGE_BUDGET", "4"),
        ]
    };
    let server = Server::start_with_env(&db, &env("2026-11-26T18:30:00Z"));
    let (status, p) = server.call("POST", "/api/players", None, r#"{"name":"Ann"}"#);
    assert_eq!(status, 201, "{p}");
    let player = p["token"].as_str().unwrap().to_owned();
    let (status, v) = server.call(
        "POST",
        "/api/challenges/daily-2026-11-26/play",
        Some(&player),
        "",
    );
    assert_eq!(status, 201, "{v}");
    let game = format!("/api/ink/games/{}", v["game"].as_str().unwrap());
    let token = v["token"].as_str().unwrap().to_owned();
    let mut rolls = Vec::new();
    loop {
        let (_, s) = server.call("GET", &game, Some(&token), "");
        if s["finished"] == true {
            assert!(
                s.get("seed").is_none(),
                "the seed stays secret until the day ends"
            );
            break;
        }
        let roll: Roll = s["roll"].as_str().unwrap().parse().unwrap();
        rolls.push(roll.to_string());
        let board: Board = s["players"][0]["board"].as_str().unwrap().parse().unwrap();
        for placement in generate_move(&board, &roll) {
            let body = json!({ "placement": placement.to_string() }).to_string();
            let (status, v) = server.call("POST", &format!("{game}/place"), Some(&token), &body);
            assert_eq!(status, 200, "{v}");
        }
        let (status, v) = server.call("POST", &format!("{game}/end-round"), Some(&token), "");
        assert_eq!(status, 200, "{v}");
    }
    assert_eq!(rolls.len(), 7);
    let (_, b) = server.call("GET", "/api/challenges/daily-2026-11-26", None, "");
    assert!(b.get("seed").is_none(), "{b}");
    server.kill();

    let server = Server::start_with_env(&db, &env("2026-11-27T00:00:05Z"));
    let (_, cur) = server.call("GET", "/api/challenges/current", None, "");
    assert_eq!(cur["challenges"][0]["id"], "daily-2026-11-27");
    let (_, b) = server.call("GET", "/api/challenges/daily-2026-11-26", None, "");
    assert_eq!(b["closed"], true);
    let seed = b["seed"]
        .as_str()
        .expect("a closed challenge shows its seed");
    let (code, out, err) = run(&["ink", "roll", "--seed", seed, "--count", "7"], None);
    assert_eq!(code, 0, "{err}");
    let replayed: Vec<&str> = out.lines().collect();
    assert_eq!(replayed, rolls);
    drop(server);
    remove_db(&db);
}
