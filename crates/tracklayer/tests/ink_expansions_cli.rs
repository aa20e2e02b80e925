//! `tracklayer ink … --expansion lake|river`: the worked examples of the expansions' rules
//! chapter (E7) end to end, and the bad inputs of issue 31 refused with their rule.

mod common;

use common::json_lines;
use serde_json::json;

/// Runs the binary; returns (exit status, stdout).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String) {
    let (code, out, _) = common::run(args, stdin);
    (code, out)
}

/// E7's score table: expansion, board, then exits, centre, errors, longest H, longest R,
/// expansion points and the total.
const SCORES: [(&str, &str, [i32; 7]); 8] = [
    (
        "lake",
        "A4A10L3B10L3C12A4D10A4E10A4F10A4G10",
        [4, 0, 0, 5, 0, 2, 11],
    ),
    ("lake", "L0C30L0D23L0D41", [0, 4, 0, 0, 0, 4, 8]),
    ("lake", "L0C30L0D23L0D41L0A00", [0, 4, 0, 0, 0, 1, 5]),
    ("lake", "A4G10A4F10L0D10L0E03L0E21", [0, 1, 1, 2, 0, 4, 6]),
    (
        "river",
        "V0A01V0A11V0A21V0A31V0A41V0A51V0A61",
        [0, 0, 0, 0, 0, 10, 10],
    ),
    ("river", "V0A01V0A11V0A21", [0, 0, 1, 0, 0, 3, 2]),
    (
        "river",
        "V0A01V2A11V0A21V0A31V0A41V0A51V0A61A4B10A4C10A4D10A4E10A4F10A4G10",
        [4, 0, 0, 7, 0, 10, 21],
    ),
    (
        "river",
        "V1A21V0A31V0A41V0A51V0A61V0F11V0F21V0F31V0F41V1F50V0E50",
        [0, 0, 2, 0, 0, 8, 6],
    ),
];

#[test]
fn score_gives_the_e7_examples() {
    for (expansion, board, [exits, centre, errors, h, r, points, total]) in SCORES {
        let (code, out) = run(
            &["ink", "score", "--json", "--expansion", expansion, board],
            None,
        );
        assert_eq!(code, 0, "{board}: {out}");
        assert_eq!(
            json_lines(&out),
            vec![json!({
                "board": board,
                "basic": exits + centre - errors,
                "advanced": total,
                "exits": exits,
                "centre": centre,
                "errors": errors,
                "longest_highway": h,
                "longest_railway": r,
                "expansion": points,
            })],
            "{board}"
        );
    }
}

#[test]
fn score_reads_many_boards_and_shows_the_breakdown() {
    let input: String = SCORES
        .iter()
        .filter(|s| s.0 == "lake")
        .map(|s| format!("{}\n", s.1))
        .collect();
    let (code, out) = run(&["ink", "score", "--expansion", "lake", "-"], Some(&input));
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().nth(1).unwrap().contains("advanced 8"), "{out}");
    assert!(out.contains("+ lake 1"), "{out}");
    let (_, table) = run(&["ink", "score", "--expansion", "lake", SCORES[2].1], None);
    assert!(
        table.contains("lake points         1   smallest lake A0 (lakes: 1 4)"),
        "{table}"
    );
    let (_, table) = run(&["ink", "score", "--expansion", "river", SCORES[7].1], None);
    assert!(table.contains("river points        8"), "{table}");
    assert!(table.contains("both ends off the board"), "{table}");
}

#[test]
fn check_gives_the_e7_legality_table() {
    let cases = [
        ("river", "V0D30", None),
        ("river", "V0B01", Some("water faces an exit (E3.2)")),
        ("river", "V0A30", Some("water faces an exit (E3.2)")),
        ("river", "V0A31", None),
        ("river", "A4A10V0B10", Some("mismatch (E3.1)")),
        ("river", "A1A30V2B30", Some("mismatch (E3.1)")),
        ("river", "A1A30V3B31", None),
        ("lake", "L3A10", None),
        ("lake", "A4A10L0B21A3B10", Some("mismatch (E3.1)")),
        ("lake", "A4A10A3B10L0B21", Some("mismatch (E3.1)")),
        ("lake", "L2A10", Some("water faces an exit (E3.2)")),
    ];
    for (expansion, board, refusal) in cases {
        let (code, out) = run(
            &["ink", "check", "--json", "--expansion", expansion, board],
            None,
        );
        let v = &json_lines(&out)[0];
        assert_eq!(v["well_formed"], true, "{board}");
        match refusal {
            None => {
                assert_eq!(code, 0, "{board}: {out}");
                assert_eq!(v["valid"], true, "{board}");
            }
            Some(rule) => {
                assert_eq!(code, 1, "{board}: {out}");
                assert_eq!(v["valid"], false, "{board}");
                assert_eq!(v["error"]["index"], board.len() / 5 - 1, "{board}");
                let message = v["error"]["message"].as_str().unwrap();
                assert!(message.contains(rule), "{board}: {message}");
            }
        }
    }
}

#[test]
fn bad_input_is_refused_with_its_rule() {
    // Expansion tiles on a base board.
    let (code, out) = run(&["ink", "check", "--json", "V0D30"], None);
    assert_eq!(code, 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["well_formed"], false);
    assert!(
        v["error"]["message"].as_str().unwrap().contains("rule E2"),
        "{out}"
    );
    // A river tile on a lake board.
    let (code, out) = run(
        &[
            "ink",
            "check",
            "--json",
            "--expansion",
            "lake",
            "L0C30V0D30",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert_eq!(json_lines(&out)[0]["error"]["index"], 1);
    // More than 39 placements.
    let many = "V0A01".repeat(40);
    let (code, out) = run(
        &["ink", "check", "--json", "--expansion", "river", &many],
        None,
    );
    assert_eq!(code, 1);
    assert!(out.contains("at most 39"), "{out}");
    // A 12-character roll in a base game, a river die in a lake game.
    let (code, out) = run(&["ink", "move", "--json", "", "A1A4A4B0V1V1"], None);
    assert_eq!(code, 1);
    assert!(out.contains("expansion game"), "{out}");
    let (code, out) = run(
        &[
            "ink",
            "move",
            "--json",
            "--expansion",
            "lake",
            "",
            "A1A4A4B0V1V1",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(out.contains("only its own dice"), "{out}");
    // An unknown expansion is a usage error, not a panic.
    let (code, _) = run(&["ink", "score", "--expansion", "ocean", "A4A10"], None);
    assert_eq!(code, 2);
}

#[test]
fn roll_dice_move_view_and_play_take_an_expansion() {
    let (code, out) = run(
        &[
            "ink",
            "roll",
            "--expansion",
            "river",
            "--seed",
            "3",
            "--count",
            "4",
        ],
        None,
    );
    assert_eq!(code, 0);
    for line in out.lines() {
        assert_eq!(line.len(), 12, "{line}");
        assert!(
            line[8..].starts_with('V') && line[10..].starts_with('V'),
            "{line}"
        );
    }
    let (code, out) = run(
        &[
            "ink",
            "dice",
            "--expansion",
            "lake",
            "--seed",
            "3",
            "--games",
            "2",
        ],
        None,
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
    assert!(out.lines().all(|l| l.len() == 72), "{out}");
    // The reference move places the route dice only: expansion dice are optional.
    let (code, out) = run(
        &[
            "ink",
            "move",
            "--expansion",
            "lake",
            "L0C30",
            "A4A4A4B0L0L3",
        ],
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains('L'), "{out}");
    let (code, out) = run(
        &["ink", "view", "--expansion", "lake", "L0C30L0D23L0D41"],
        None,
    );
    assert_eq!(code, 0);
    assert!(out.contains('≈') && out.contains("lake points"), "{out}");
    for expansion in ["lake", "river"] {
        for agent in ["random", "greedy", "strong"] {
            let (code, out) = run(
                &[
                    "ink",
                    "play",
                    "--agent",
                    agent,
                    "--expansion",
                    expansion,
                    "--seed",
                    "1",
                    "--games",
                    "2",
                    "--budget",
                    "4",
                    "--json",
                ],
                None,
            );
            assert_eq!(code, 0, "{agent} {expansion}: {out}");
            let lines = json_lines(&out);
            assert_eq!(lines.len(), 3);
            for game in &lines[..2] {
                assert_eq!(game["rounds"].as_array().unwrap().len(), 6);
                assert_eq!(game["dice"].as_str().unwrap().len(), 72);
                assert!(game["expansion"].is_i64(), "{game}");
            }
        }
    }
}
