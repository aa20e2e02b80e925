//! The `tracklayer ink` command-line contract, run against the built binary.

mod common;

use common::json_lines;
use serde_json::{Value, json};

const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

/// Runs the binary; returns (exit status, stdout).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String) {
    let (code, out, _) = common::run(args, stdin);
    (code, out)
}

#[test]
fn check_json_shape_and_status() {
    let (code, out) = run(&["ink", "check", "--json", "A4A10"], None);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out),
        vec![json!({"board":"A4A10","well_formed":true,"valid":true,"error":null})]
    );

    let (code, out) = run(&["ink", "check", "--json", "A1A30A4B30"], None);
    assert_eq!(code, 1);
    let v = &json_lines(&out)[0];
    assert_eq!(v["well_formed"], true);
    assert_eq!(v["valid"], false);
    assert_eq!(v["error"]["index"], 1);
    assert_eq!(v["error"]["placement"], "A4B30");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("highway meets railway")
    );
}

#[test]
fn check_reads_stdin_one_line_per_input() {
    let (code, out) = run(
        &["ink", "check", "--json", "-"],
        Some("A4A10\n\nA3H00\nA4A10A4A10\n"),
    );
    assert_eq!(code, 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["valid"], true);
    assert_eq!(
        (
            lines[1]["board"].as_str(),
            &lines[1]["well_formed"],
            &lines[1]["valid"]
        ),
        (Some(""), &json!(false), &json!(true))
    );
    assert_eq!(lines[2]["well_formed"], false);
    assert_eq!(lines[2]["error"]["index"], 0);
    assert!(
        lines[2]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("character 2")
    );
    assert_eq!(
        (
            &lines[3]["well_formed"],
            &lines[3]["valid"],
            &lines[3]["error"]["index"]
        ),
        (&json!(true), &json!(false), &json!(1))
    );

    let (code, _) = run(&["ink", "check", "-"], Some("A4A10\nA1A30\n"));
    assert_eq!(code, 0);
}

#[test]
fn check_matches_the_conformance_corpus() {
    let corpus = include_str!("../../railroad-ink/tests/data/railroad-ink-invalid.jsonl");
    let cases: Vec<Value> = json_lines(corpus);
    let input: String = cases
        .iter()
        .map(|c| format!("{}\n", c["board"].as_str().unwrap()))
        .collect();
    let (code, out) = run(&["ink", "check", "--json", "-"], Some(&input));
    assert_eq!(code, 1);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), cases.len());
    for (case, line) in cases.iter().zip(&lines) {
        assert_eq!(line["board"], case["board"]);
        assert_eq!(line["well_formed"], case["well_formed"], "{case}");
        assert_eq!(line["valid"], case["valid"], "{case}");
        if let Some(i) = case["first_illegal_index"].as_u64() {
            assert_eq!(line["error"]["index"], i, "{case}");
        }
    }
}

#[test]
fn score_json_shape() {
    let (code, out) = run(&["ink", "score", "--json", EXAMPLE], None);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out)[0],
        json!({"board":EXAMPLE,"basic":33,"advanced":46,"exits":32,"centre":6,"errors":5,"longest_highway":8,"longest_railway":5})
    );
    let (code, out) = run(&["ink", "score", "--json", "-"], Some("\nA4A1\nA4A30\n"));
    assert_eq!(code, 1);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["advanced"], 0);
    assert_eq!(lines[1]["board"], "A4A1");
    assert!(lines[1]["error"].is_string());
    assert!(lines[2]["error"].as_str().unwrap().contains("exit"));
}

#[test]
fn score_table_for_a_person() {
    let (code, out) = run(&["ink", "score", EXAMPLE], None);
    assert_eq!(code, 0);
    for needle in [
        "exit points",
        "centre",
        "errors",
        "longest highway",
        "longest railway",
        "advanced",
        "46",
        "A1 G1 D0 F0",
    ] {
        assert!(out.contains(needle), "{needle} in\n{out}");
    }
}

#[test]
fn connected_prints_true_or_false() {
    assert_eq!(
        run(&["ink", "connected", "A3C10", "A3C23"], None),
        (0, "true\n".into())
    );
    assert_eq!(
        run(&["ink", "connected", "A0B30", "A3C23"], None),
        (0, "false\n".into())
    );
    assert_eq!(run(&["ink", "connected", "A0B3", "A3C23"], None).0, 1);
}

#[test]
fn roll_is_seeded_and_well_formed() {
    let (code, a) = run(&["ink", "roll", "--seed", "42", "--count", "7"], None);
    assert_eq!(code, 0);
    let (_, b) = run(&["ink", "roll", "--seed", "42", "--count", "7"], None);
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 7);
    for line in a.lines() {
        assert!(line.parse::<railroad_ink::Roll>().is_ok(), "{line}");
    }
    // The same rolls as the game with that seed.
    let game = railroad_ink::Dice::Seed(42).rolls();
    let expected: Vec<String> = game.iter().map(|r| r.to_string()).collect();
    assert_eq!(a.lines().collect::<Vec<_>>(), expected);
    let (_, one) = run(&["ink", "roll"], None);
    assert_eq!(one.lines().count(), 1);
}

#[test]
fn move_json_and_errors() {
    let (code, out) = run(&["ink", "move", "--json", EXAMPLE, "A1A4A4B0"], None);
    assert_eq!(code, 0);
    assert_eq!(
        json_lines(&out)[0],
        json!({"board":EXAMPLE,"dice":"A1A4A4B0","move":"A1A51A4D40A4F40B0A61"})
    );
    assert_eq!(run(&["ink", "move", "", "A1A4A4B0"], None).0, 0);
    assert_eq!(run(&["ink", "move", "A4A30", "A1A4A4B0"], None).0, 1);
    assert_eq!(run(&["ink", "move", "", "B1A4A4B0"], None).0, 1);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["ink", "frobnicate"], None).0, 2);
    assert_eq!(run(&["ink", "score"], None).0, 2);
    assert_eq!(run(&["ink", "roll", "--count", "many"], None).0, 2);
}

#[test]
fn every_command_has_an_example_in_its_help() {
    for cmd in [
        "check",
        "score",
        "connected",
        "roll",
        "move",
        "play",
        "versus",
        "dice",
    ] {
        let (code, out) = run(&["ink", cmd, "--help"], None);
        assert_eq!(code, 0);
        assert!(out.contains("Example"), "{cmd} --help:\n{out}");
    }
}

#[test]
fn play_reports_each_game_and_a_summary() {
    let (code, out) = run(
        &[
            "ink", "play", "--agent", "greedy", "--seed", "3", "--games", "4", "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5);
    for (i, game) in lines[..4].iter().enumerate() {
        assert_eq!(game["game"], i);
        let dice = game["dice"].as_str().unwrap();
        assert_eq!(dice.len(), 56);
        let rounds: Vec<&str> = game["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(rounds.len(), 7);
        assert_eq!(rounds.concat(), game["board"].as_str().unwrap());
        let board: railroad_ink::Board = game["board"].as_str().unwrap().parse().unwrap();
        assert_eq!(game["advanced"], board.score().advanced);
        assert_eq!(game["basic"], board.score().basic);
        assert!(game["ms"].is_number() && game["cpu_ms"].is_number());
    }
    let summary = &lines[4];
    for key in [
        "games",
        "mean",
        "sd",
        "min",
        "max",
        "p10",
        "p50",
        "p90",
        "ms_per_game",
    ] {
        assert!(summary[key].is_number(), "{key} in {summary}");
    }
    assert_eq!(summary["games"], 4);
}

#[test]
fn play_results_do_not_depend_on_threads_and_dice_files_replay() {
    let dir = std::env::temp_dir().join(format!("tracklayer-dice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dice.txt");
    let (code, dice) = run(&["ink", "dice", "--seed", "5", "--games", "3"], None);
    assert_eq!(code, 0);
    std::fs::write(&file, &dice).unwrap();
    let path = file.to_str().unwrap();
    let strip = |out: String| -> Vec<Value> {
        json_lines(&out)
            .into_iter()
            .map(|mut v| {
                for key in ["ms", "cpu_ms", "ms_per_game", "cpu_ms_per_game"] {
                    v.as_object_mut().unwrap().remove(key);
                }
                v
            })
            .collect()
    };
    // Each game's lines and the summary, without the timings.
    let play = |threads: &str| -> Vec<Value> {
        let args = [
            "ink",
            "play",
            "--agent",
            "strong",
            "--budget",
            "4",
            "--dice",
            path,
            "--json",
            "--threads",
            threads,
        ];
        strip(run(&args, None).1)
    };
    let (one, two) = (play("1"), play("2"));
    assert_eq!(one, two);
    let seeded = strip(
        run(
            &[
                "ink", "play", "--agent", "strong", "--budget", "4", "--seed", "5", "--games", "3",
                "--json",
            ],
            None,
        )
        .1,
    );
    assert_eq!(
        one, seeded,
        "--seed S --games G plays the dice file that `ink dice` makes"
    );
    std::fs::write(&file, "A1A2A3B4\n").unwrap();
    assert_ne!(
        run(&["ink", "play", "--agent", "random", "--dice", path], None).0,
        0
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn versus_shares_the_dice() {
    let (code, out) = run(
        &[
            "ink",
            "versus",
            "--agents",
            "greedy,random",
            "--seed",
            "1",
            "--games",
            "3",
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4);
    for game in &lines[..3] {
        assert_eq!(game["scores"].as_array().unwrap().len(), 2);
        assert!(!game["winners"].as_array().unwrap().is_empty());
    }
    let wins: f64 = lines[3]["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .sum();
    assert!((wins - 3.0).abs() < 1e-9);
    assert_eq!(
        run(
            &["ink", "versus", "--agents", "greedy", "--games", "1"],
            None
        )
        .0,
        2
    );
    assert_eq!(
        run(&["ink", "play", "--agent", "nobody", "--games", "1"], None).0,
        2
    );
}

#[test]
fn view_draws_the_board_and_its_breakdown() {
    let (code, out) = run(&["ink", "view", EXAMPLE], None);
    assert_eq!(code, 0);
    assert!(
        out.contains('╫') && out.contains('■') && out.contains('║') && out.contains('─'),
        "{out}"
    );
    assert!(out.contains("advanced") && out.contains("46"), "{out}");
    assert_eq!(run(&["ink", "view", "A4A30"], None).0, 1);
}
