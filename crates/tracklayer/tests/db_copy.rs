//! `tracklayer db copy`: the games of a SQLite file (solo and online Railroad Ink, Metro with
//! a computer, a daily challenge with its player and leaderboard) moved into an empty
//! PostgreSQL database; a server on PostgreSQL shows every game as it was and plays on.
//!
//! Needs `TRACKLAYER_TEST_PG` (see tests/processes.rs); skipped without it.

mod common;

use common::{Server, play_ink_rounds as play_rounds, remove_db, run, temp_db};
use serde_json::{Value, json};

#[test]
fn a_sqlite_file_is_copied_into_postgres_and_its_games_play_on() {
    let Some(server::Database::Postgres(url)) =
        server::storage::fresh_test_database_blocking().expect("a PostgreSQL test database")
    else {
        eprintln!("skipped: TRACKLAYER_TEST_PG is not set (no PostgreSQL server to test on)");
        return;
    };
    let db = temp_db("copy");
    let env = [
        ("TRACKLAYER_NOW", "2026-11-26T18:30:00Z"),
        ("TRACKLAYER_CHALLENGE_BUDGET", "4"),
    ];
    let server = Server::start_with_env(&db, &env);
    // A solo game finished, one half played; an online game of two; Metro with a computer;
    // today's challenge played by a player.
    let mut games: Vec<(String, String)> = Vec::new();
    for rounds in [7, 3] {
        let (_, v) = server.call(
            "POST",
            "/api/ink/games",
            None,
            r#"{"mode":"solo","seed":5}"#,
        );
        let game = format!("/api/ink/games/{}", v["id"].as_str().unwrap());
        let token = v["token"].as_str().unwrap().to_owned();
        play_rounds(&server, &game, &token, rounds);
        games.push((game, token));
    }
    let (_, v) = server.call(
        "POST",
        "/api/ink/games",
        None,
        r#"{"mode":"online","seed":6}"#,
    );
    let online = format!("/api/ink/games/{}", v["id"].as_str().unwrap());
    let ann = v["token"].as_str().unwrap().to_owned();
    let (status, j) = server.call("POST", &format!("{online}/join"), None, "{}");
    assert_eq!(status, 201, "{j}");
    let (status, v) = server.call("POST", &format!("{online}/start"), Some(&ann), "");
    assert_eq!(status, 200, "{v}");
    play_rounds(&server, &online, &ann, 1);
    games.push((online.clone(), ann));
    let (status, m) = server.call(
        "POST",
        "/api/metro/games",
        None,
        &json!({"players": [{"kind": "human", "name": "Cy"}, {"kind": "computer", "level": "greedy"}], "seed": 9}).to_string(),
    );
    assert_eq!(status, 201, "{m}");
    let metro = format!("/api/metro/games/{}", m["id"].as_str().unwrap());
    let (status, p) = server.call("POST", "/api/players", None, r#"{"name":"Ann"}"#);
    assert_eq!(status, 201, "{p}");
    let player = p["token"].as_str().unwrap().to_owned();
    let (status, c) = server.call(
        "POST",
        "/api/challenges/daily-2026-11-26/play",
        Some(&player),
        "",
    );
    assert_eq!(status, 201, "{c}");
    let challenge_game = format!("/api/ink/games/{}", c["game"].as_str().unwrap());
    let challenge_token = c["token"].as_str().unwrap().to_owned();
    play_rounds(&server, &challenge_game, &challenge_token, 7);
    let read_all = |server: &Server| -> Vec<Value> {
        let mut out: Vec<Value> = games
            .iter()
            .map(|(g, t)| server.call("GET", g, Some(t), "").1)
            .collect();
        out.push(server.call("GET", &metro, None, "").1);
        out.push(
            server
                .call("GET", &challenge_game, Some(&challenge_token), "")
                .1,
        );
        let mut board = server
            .call("GET", "/api/challenges/daily-2026-11-26", None, "")
            .1;
        // The computer's own game on the challenge may still be thinking in the first
        // server: compare what players did.
        board.as_object_mut().unwrap().remove("computer");
        out.push(board["leaderboard"].clone());
        out.push(server.call("GET", "/api/games?limit=50", None, "").1);
        out
    };
    let before = read_all(&server);
    server.kill();

    let (code, out, err) = run(
        &["db", "copy", "--from", db.to_str().unwrap(), "--to", &url],
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    // Six games, and the computer's own games on the periodic challenges that were done by
    // then (it plays them in the background; the monthly one made a second possible).
    let copied: usize = out
        .strip_prefix("copied ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((6..=8).contains(&copied), "{out}");
    assert!(
        !out.contains("tracklayer:tracklayer@"),
        "no password shown: {out}"
    );
    // Into a database that is not empty: refused, nothing changed.
    let (code, _, err) = run(
        &["db", "copy", "--from", db.to_str().unwrap(), "--to", &url],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("not empty"), "{err}");

    let server = Server::start_with_env(&url, &env);
    let after = read_all(&server);
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b, a);
    }
    // The games play on there: the half-played solo game to its end, the Metro game's turns.
    let (game, token) = &games[1];
    play_rounds(&server, game, token, 7);
    let (_, s) = server.call("GET", game, Some(token), "");
    assert_eq!(s["finished"], true);
    let (status, v) = server.call(
        "POST",
        &format!("{metro}/draw"),
        Some(m["seats"][0]["token"].as_str().unwrap()),
        "",
    );
    assert_eq!(status, 200, "{v}");
    // The challenge's seeds are the same: the player's attempt is still theirs.
    let (status, again) = server.call(
        "POST",
        "/api/challenges/daily-2026-11-26/play",
        Some(&player),
        "",
    );
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["game"], c["game"]);
    let (code, out, _) = run(&["db", "check", "--db", &url], None);
    assert_eq!(code, 0, "{out}");
    remove_db(&db);
}
