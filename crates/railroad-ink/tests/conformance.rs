//! Every line of the conformance corpus (`tests/data`, copied from the rules' conformance files).

use railroad_ink::{Board, Sequence};
use serde_json::Value;

fn lines(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| serde_json::from_str(l).expect("corpus line is JSON"))
        .collect()
}

#[test]
fn every_game_is_valid_and_scores_as_recorded() {
    let games = lines("railroad-ink-games.jsonl");
    assert_eq!(games.len(), 300);
    for (i, game) in games.iter().enumerate() {
        let text = game["board"].as_str().unwrap();
        let rounds: String = game["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(rounds, text, "game {i}: rounds concatenate to the board");
        let board: Board = text.parse().unwrap_or_else(|e| panic!("game {i}: {e}"));
        assert_eq!(board.to_string(), text, "game {i}: prints back");
        let s = board.score();
        let want = &game["score"];
        let got = [
            s.basic,
            s.advanced,
            s.exits,
            s.centre,
            s.errors,
            s.longest_highway,
            s.longest_railway,
        ];
        let keys = [
            "basic",
            "advanced",
            "exits",
            "centre",
            "errors",
            "longest_highway",
            "longest_railway",
        ];
        let want: Vec<i64> = keys.iter().map(|k| want[k].as_i64().unwrap()).collect();
        let got: Vec<i64> = got.iter().map(|&v| v as i64).collect();
        assert_eq!(got, want, "game {i}: {keys:?}\n{text}");
    }
}

#[test]
fn every_broken_board_is_rejected_as_recorded() {
    let cases = lines("railroad-ink-invalid.jsonl");
    assert_eq!(cases.len(), 60);
    for (i, case) in cases.iter().enumerate() {
        let text = case["board"].as_str().unwrap();
        let kind = case["kind"].as_str().unwrap();
        let well_formed = text.parse::<Sequence>().is_ok();
        assert_eq!(
            well_formed,
            case["well_formed"].as_bool().unwrap(),
            "case {i} ({kind})"
        );
        let result = text.parse::<Board>();
        assert_eq!(
            result.is_ok(),
            case["valid"].as_bool().unwrap(),
            "case {i} ({kind})"
        );
        let first_illegal = match &result {
            Err(railroad_ink::BoardError::Illegal(e)) => Some(e.index as u64),
            _ => None,
        };
        assert_eq!(
            first_illegal,
            case["first_illegal_index"].as_u64(),
            "case {i} ({kind}): {result:?}"
        );
    }
}
