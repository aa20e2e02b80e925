//! The `tracklayer metro` command-line contract, run against the built binary.

mod common;

use common::{json_lines, run};
use serde_json::{Value, json};

/// A complete game from the conformance corpus, with its scores for 2 to 6 players.
const GAME: &str = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";

fn metro(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["metro"];
    all.extend_from_slice(args);
    run(&all, None)
}

fn metro_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut all = vec!["metro"];
    all.extend_from_slice(args);
    run(&all, Some(stdin))
}

// check ------------------------------------------------------------------------------------------

#[test]
fn check_json_valid() {
    let (code, out, _) = metro(&["check", "--json", "aaaa03aaaa13aaaa23"]);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out),
        [json!({"sequence":"aaaa03aaaa13aaaa23","well_formed":true,"valid":true,"error":null})]
    );
}

#[test]
fn check_json_names_the_broken_rule() {
    let (code, out, _) = metro(&["check", "--json", "aaaa00aaaa11"]);
    assert_eq!(code, 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["sequence"], "aaaa00aaaa11");
    assert_eq!(v["well_formed"], true);
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["index"], 1);
    assert_eq!(v["error"]["placement"], "aaaa11");
    assert_eq!(v["error"]["rule"], "not_touching");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains("§6.1 rule 2 (touching)"), "{message}");

    let (code, out, _) = metro(&["check", "--json", "cccc00"]);
    assert_eq!(code, 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["error"]["rule"], "avoidable_station_link");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("station 8 to station 9")
    );
}

#[test]
fn check_json_not_well_formed() {
    let (code, out, _) = metro(&["check", "--json", "aaaa00aaae00"]);
    assert_eq!(code, 1);
    let v = &json_lines(&out)[0];
    assert_eq!(
        (&v["well_formed"], &v["valid"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(v["error"]["index"], 1);
    assert_eq!(v["error"]["placement"], "aaae00");
    let message = v["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("'e'") && message.contains("a-d"),
        "{message}"
    );
}

#[test]
fn check_reads_stdin_one_line_per_input() {
    let (code, out, _) = metro_stdin(&["check", "--json", "-"], "aaaa03\n\naaaa00b\r\ndada03\n");
    assert_eq!(code, 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(
        (&lines[0]["sequence"], &lines[0]["valid"]),
        (&json!("aaaa03"), &json!(true))
    );
    assert_eq!(
        (&lines[1]["sequence"], &lines[1]["valid"]),
        (&json!(""), &json!(true))
    );
    assert_eq!(lines[2]["sequence"], "aaaa00b");
    assert_eq!(lines[2]["well_formed"], false);
    assert_eq!(lines[2]["error"]["placement"], "b");
    assert_eq!(lines[3]["error"]["rule"], "avoidable_station_link");

    let (code, out, _) = metro_stdin(&["check", "-"], "aaaa03\n\n");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn check_for_a_person_names_the_rule() {
    let (code, out, _) = metro(&["check", "aaaa33"]);
    assert_eq!(code, 1);
    assert!(out.contains("valid:       no"), "{out}");
    assert!(out.contains("centre square"), "{out}");
    let (code, out, _) = metro(&["check", "aaaa03aaaa13aaaa23"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "aaaa03aaaa13aaaa23: valid, 3 placements");
}

// score ------------------------------------------------------------------------------------------

#[test]
fn score_json_shape() {
    let (code, out, _) = metro(&["score", "--players", "2", "--json", "aaaa03aaaa13aaaa23"]);
    assert_eq!(code, 0);
    let v = &json_lines(&out)[0];
    assert_eq!(v["sequence"], "aaaa03aaaa13aaaa23");
    assert_eq!(v["scores"], json!([6, 0]));
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 32);
    assert_eq!(
        lines[4],
        json!({"station":5,"owner":1,"squares":["03","13","23"],"length":3,
               "end":{"kind":"centre","square":"33"},"points":6})
    );
}

#[test]
fn score_every_player_count_of_a_full_game() {
    let expected = [
        json!([72, 126]),
        json!([42, 63, 89]),
        json!([29, 36, 85, 48]),
        json!([88, 19, 29, 38, 20]),
        json!([75, 14, 25, 13, 32, 35]),
    ];
    for (n, scores) in (2..=6).zip(expected) {
        let (code, out, _) = metro(&["score", "--players", &n.to_string(), "--json", GAME]);
        assert_eq!(code, 0);
        assert_eq!(json_lines(&out)[0]["scores"], scores, "{n} players");
    }
}

#[test]
fn score_for_a_person_shows_each_players_lines() {
    let (code, out, _) = metro(&["score", "--players", "2", "badb01baac02dbba10bcbc00"]);
    assert_eq!(code, 0);
    assert!(out.contains("scores: P1 3, P2 2"), "{out}");
    assert!(
        out.contains("station  9   3  3 tiles back to station 9: 00 10 00"),
        "{out}"
    );
    assert!(
        out.contains("station  8   2  2 tiles to station 7: 00 01"),
        "{out}"
    );
    let (_, out, _) = metro(&["score", "--players", "3", "aacb70bbbb60"]);
    assert!(out.contains("nobody"), "{out}");
    assert!(out.contains("station 16   2"), "{out}");
    let (_, out, _) = metro(&["score", "--players", "4", "aaaa03aaaa13aaaa23"]);
    assert!(
        out.contains("to the centre (3,3), doubled: 03 13 23"),
        "{out}"
    );
}

#[test]
fn score_stdin_and_rejections() {
    let input = format!("{GAME}\naaaa11\n\n");
    let (code, out, _) = metro_stdin(&["score", "--players", "2", "--json", "-"], &input);
    assert_eq!(code, 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["scores"], json!([72, 126]));
    assert_eq!(lines[1]["scores"], Value::Null);
    assert_eq!(lines[1]["error"]["rule"], "not_touching");
    assert_eq!(lines[2]["scores"], json!([0, 0]));

    let (code, out, _) = metro_stdin(&["score", "--players", "2", "-"], &input);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].ends_with(": P1 72, P2 126"), "{}", lines[0]);
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);

    let (code, _, err) = metro(&["score", "--players", "2", "aaaa11"]);
    assert_eq!(code, 1);
    assert!(err.contains("(touching)"), "{err}");
}

// draw -------------------------------------------------------------------------------------------

#[test]
fn draw_prints_a_tile_and_respects_hands() {
    for seed in 0..20 {
        let (code, out, _) = metro(&[
            "draw",
            "--seed",
            &seed.to_string(),
            "--hands",
            "aaaadddd",
            "aaaa00dddd05",
        ]);
        assert_eq!(code, 0);
        let tile = out.trim();
        assert_eq!(tile.len(), 4);
        assert!(tile.chars().all(|c| ('a'..='d').contains(&c)), "{tile}");
        assert_ne!(tile, "dddd");
    }
    // The same seed draws the same tile.
    let a = metro(&["draw", "--seed", "5", ""]).1;
    let b = metro(&["draw", "--seed", "5", ""]).1;
    assert_eq!(a, b);
}

#[test]
fn draw_from_an_empty_deck_is_an_error() {
    let (code, out, err) = metro(&["draw", "--seed", "1", GAME]);
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("deck is empty"), "{err}");

    let input = format!("\n{GAME}\naaaa0\n");
    let (code, out, _) = metro_stdin(&["draw", "--seed", "1", "-"], &input);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].len(), 4);
    assert!(lines[1].starts_with("error: ") && lines[1].contains("deck is empty"));
    assert!(lines[2].starts_with("error: ") && lines[2].contains("not well-formed"));
}

#[test]
fn draw_with_too_many_copies_in_hands_is_rejected() {
    let (code, _, err) = metro(&["draw", "--hands", "dddd", "dddd00dddd01"]);
    assert_eq!(code, 1);
    assert!(err.contains("only 2"), "{err}");
}

// move -------------------------------------------------------------------------------------------

#[test]
fn move_prints_the_reference_placement() {
    for (seq, tile, expected) in [
        ("", "dada", "dada10"),
        ("aaaa01", "dddd", "dddd11"),
        ("aaaa00", "dddd", "dddd01"),
    ] {
        let (code, out, _) = metro(&["move", "--players", "2", seq, tile]);
        assert_eq!(code, 0);
        assert_eq!(out, format!("{expected}\n"));
    }
    let (code, out, _) = metro(&["move", "--players", "6", "--json", "aaaa01", "dddd"]);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out),
        [json!({"sequence":"aaaa01","tile":"dddd","move":"dddd11"})]
    );
}

#[test]
fn move_rejections_and_stdin() {
    let (code, _, err) = metro(&["move", "--players", "2", GAME, "aaaa"]);
    assert_eq!(code, 1);
    assert!(err.contains("board is full"), "{err}");
    let (code, _, _) = metro(&["move", "--players", "2", "aaaa11", "aaaa"]);
    assert_eq!(code, 1);
    // Both copies of dddd are placed: the deck cannot deal a third.
    let (code, out, err) = metro(&["move", "--players", "2", "dddd00dddd01", "dddd"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("all 2 copies of dddd are already on the board"),
        "{err}"
    );

    let (code, out, _) = metro_stdin(
        &["move", "--players", "3", "-", "dddd"],
        "\naaaa01\naaaa33\n",
    );
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["dddd00", "dddd11"]); // empty board: every square is short for dddd
    assert!(lines[2].starts_with("error: "), "{}", lines[2]);
}

// legal and play ---------------------------------------------------------------------------------

#[test]
fn legal_lists_every_legal_placement() {
    let (code, out, _) = metro(&["legal", "", "dada"]);
    assert_eq!(code, 0);
    assert_eq!(out.split_whitespace().count(), 12);
    let (_, out, _) = metro(&["legal", "--json", "aaaa01", "dddd"]);
    assert_eq!(json_lines(&out)[0]["placements"], json!(["dddd11"]));
}

/// The summary line of `play --json`, after the game lines.
fn summary(lines: &[Value]) -> &Value {
    &lines.last().unwrap()["summary"]
}

#[test]
fn play_games_are_valid_and_use_all_60_tiles() {
    let (code, out, err) = metro(&[
        "play",
        "--agents",
        "random,greedy,strong",
        "--games",
        "3",
        "--seed",
        "9",
        "--budget",
        "20",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    for (i, game) in lines[..3].iter().enumerate() {
        assert_eq!(game["game"], i);
        assert_eq!(game["players"], 3);
        let sequence = game["sequence"].as_str().unwrap();
        assert_eq!(sequence.len(), 360, "60 placements");
        let (code, checked, _) = metro(&["check", sequence]);
        assert_eq!(code, 0, "{checked}");
        let (_, scored, _) = metro(&["score", "--players", "3", "--json", sequence]);
        assert_eq!(json_lines(&scored)[0]["scores"], game["scores"]);
        let keys: Vec<&str> = game
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["agents", "game", "players", "scores", "sequence"]);
    }
    // Seats rotate: in game i, the k-th agent named sits in seat (k + i) mod n.
    assert_eq!(lines[0]["agents"], json!(["random", "greedy", "strong"]));
    assert_eq!(lines[1]["agents"], json!(["strong", "random", "greedy"]));
    assert_eq!(lines[2]["agents"], json!(["greedy", "strong", "random"]));
}

#[test]
fn play_summary_has_each_agents_measure() {
    let (code, out, _) = metro(&[
        "play",
        "--agents",
        "greedy,random",
        "--games",
        "10",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 11);
    let s = summary(&lines);
    assert_eq!(s["games"], 10);
    assert_eq!(s["players"], 2);
    assert_eq!(s["seed"], 3);
    assert_eq!(s["budget"], Value::Null);
    let agents = s["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 2);
    let mut wins = 0.0;
    for (a, name) in agents.iter().zip(["greedy", "random"]) {
        assert_eq!(a["agent"], name);
        let rate = a["win_rate"].as_f64().unwrap();
        let ci = a["ci95"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(
            (0.0..=rate).contains(&lo) && (rate..=1.0).contains(&hi),
            "{a}"
        );
        assert!(a["mean_score"].as_f64().unwrap() > 0.0);
        assert!(a["ms_per_move"].as_f64().unwrap() >= 0.0);
        assert!(a["max_ms_per_move"].as_f64().unwrap() >= 0.0);
        wins += a["wins"].as_f64().unwrap();
    }
    // Every game has one win to share out.
    assert!((wins - 10.0).abs() < 1e-9, "{wins}");
}

#[test]
fn play_does_not_depend_on_the_thread_count() {
    let args = |threads: &'static str| {
        [
            "play",
            "--agents",
            "strong,greedy",
            "--games",
            "4",
            "--seed",
            "5",
            "--budget",
            "30",
            "--json",
            "--threads",
            threads,
        ]
    };
    let games = |out: &str| {
        let lines = json_lines(out);
        lines[..lines.len() - 1].to_vec()
    };
    let (code, one, _) = metro(&args("1"));
    assert_eq!(code, 0);
    let (_, two, _) = metro(&args("2"));
    assert_eq!(games(&one), games(&two));
    let (_, again, _) = metro(&args("2"));
    assert_eq!(games(&again), games(&two));
}

#[test]
fn play_for_a_person_prints_games_and_a_table() {
    let (code, out, _) = metro(&["play", "--agents", "greedy,random", "--games", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("game    0: greedy "), "{out}");
    assert!(out.contains("game    1: random "), "{out}");
    assert!(out.contains("2 games of 2 players, seed 0"), "{out}");
    assert!(out.contains("win rate") && out.contains("95% CI"), "{out}");
}

#[test]
fn play_refuses_bad_agents() {
    for agents in [
        "greedy",
        "greedy,perfect",
        "random,random,random,random,random,random,random",
    ] {
        let (code, out, err) = metro(&["play", "--agents", agents]);
        assert_eq!(code, 2, "{agents}: {err}");
        assert!(out.is_empty());
        assert!(err.starts_with("error:"), "{err}");
    }
    let (code, _, _) = metro(&["play", "--agents", "greedy,greedy", "--threads", "0"]);
    assert_eq!(code, 2);
    let (code, _, _) = metro(&["play", "--games", "2"]);
    assert_eq!(code, 2, "--agents is required");
}

// usage ------------------------------------------------------------------------------------------

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["score", "--players", "7", ""][..],
        &["score", "--players", "1", ""],
        &["score", ""],
        &["move", "--players", "2", "", "abcd"],
        &["move", "--players", "2", ""],
        &["draw", "--hands", "aaaab", ""],
        &["draw", "--seed", "x", ""],
        &["check"],
        &["nonsense"],
    ] {
        let (code, _, err) = metro(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

#[test]
fn every_subcommand_help_has_an_example() {
    for sub in ["check", "score", "draw", "move", "legal", "play"] {
        let (code, out, _) = metro(&[sub, "--help"]);
        assert_eq!(code, 0);
        assert!(out.contains("Example"), "{sub}: {out}");
        assert!(out.contains(&format!("tracklayer metro {sub}")), "{sub}");
    }
}

// view -------------------------------------------------------------------------------------------

#[test]
fn view_draws_the_board_with_stations_owners_and_lines() {
    let (code, out, err) = metro(&["view", "--players", "4", "aaaa03aaaa13aaaa23"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Station numbers and owners above, 8 squares of 4 lines in a frame, owners and numbers below.
    assert!(lines[0].contains('8') && lines[0].contains('1'), "{out}");
    assert!(lines[2].contains('┌') && lines[2].ends_with('┐'), "{out}");
    assert!(lines[35].contains('└') && lines[35].ends_with('┘'), "{out}");
    assert!(
        lines[37].contains("17") && lines[37].contains("24"),
        "{out}"
    );
    // aaaa: two tracks down and two across, crossing; the centre shaded.
    assert!(out.contains('┼') && out.contains('░'), "{out}");
    // Left and right: station number and owner on each row (station 9 is P4's with 4 players).
    assert!(lines[5].contains(" 9 P4 "), "{out}");
    // The breakdown below: station 5's line of 3 tiles into the centre, doubled, for P4.
    assert!(out.contains("scores: P1 0, P2 0, P3 0, P4 6"), "{out}");
    assert!(
        out.contains("station  5   6  3 tiles to the centre (3,3), doubled: 03 13 23"),
        "{out}"
    );
}

#[test]
fn view_of_a_full_game_names_the_winner() {
    let (code, out, _) = metro(&["view", "--players", "2", GAME]);
    assert_eq!(code, 0);
    assert!(
        !out.contains('·'),
        "a full board has no empty square:\n{out}"
    );
    assert!(out.contains("winner"), "{out}");
    // Every line of the board is framed at the same places: a bar, or the row's number.
    let lines: Vec<Vec<char>> = out.lines().map(|l| l.chars().collect()).collect();
    for (i, line) in lines[3..35].iter().enumerate() {
        let row = char::from(b'0' + (i / 4) as u8);
        let frame = if i % 4 == 0 { row } else { '│' };
        assert_eq!(
            (line[8], line[8 + 57]),
            (frame, frame),
            "line {}:\n{out}",
            i + 3
        );
    }
}

#[test]
fn view_rejects_an_invalid_sequence_and_reads_stdin() {
    let (code, out, _) = metro(&["view", "--players", "2", "aaaa11"]);
    assert_eq!(code, 1);
    assert!(out.contains("cannot draw"), "{out}");
    assert!(out.contains("§6.1 rule 2 (touching)"), "{out}");
    let (code, out, _) = metro_stdin(&["view", "--players", "3", "-"], "aaaa03\n\n");
    assert_eq!(code, 0);
    assert_eq!(out.matches("scores: ").count(), 2, "{out}");
    let (code, _, err) = metro(&["view", "--players", "7", "aaaa03"]);
    assert_eq!(code, 2, "{err}");
}
