//! Every line of the conformance corpus (`tests/data/metro-*.jsonl`), computed by an
//! independent implementation of the rules.

use metro::text::{self, CheckError};
use metro::{Board, PlayerCount, Score, Sequence, Station, line_points};
use serde_json::Value;

fn lines(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}")))
        .collect()
}

#[test]
fn games_are_valid_and_score_as_recorded() {
    let games = lines("metro-games.jsonl");
    assert_eq!(games.len(), 150);
    for (i, game) in games.iter().enumerate() {
        let seq = game["sequence"].as_str().unwrap();
        assert_eq!(game["valid"], Value::Bool(true));
        assert!(text::is_well_formed(seq), "game {i}");
        assert!(
            text::is_valid(seq),
            "game {i}: {:?}",
            text::check(seq).err()
        );
        let sequence: Sequence = seq.parse().unwrap();
        assert_eq!(sequence.len(), 60, "game {i}");
        assert_eq!(sequence.to_string(), seq, "game {i}: round trip");
        let board = Board::from_sequence(&sequence).unwrap();
        assert!(board.is_full());
        for players in 2..=6u8 {
            let expected: Vec<u32> = game["scores"][players.to_string()]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(
                text::score(seq, players).unwrap(),
                expected,
                "game {i}, {players} players"
            );
            let n = PlayerCount::new(players).unwrap();
            let score = Score::new(&board, n);
            assert_eq!(
                score.totals, expected,
                "game {i}, {players} players (breakdown)"
            );
            let owned: u32 = Station::all()
                .filter(|s| n.owner(*s).is_some())
                .map(|s| line_points(&board, s))
                .sum();
            assert_eq!(
                expected.iter().sum::<u32>(),
                owned,
                "game {i}, {players} players"
            );
        }
    }
}

#[test]
fn broken_sequences_are_rejected_where_recorded() {
    let broken = lines("metro-invalid.jsonl");
    assert_eq!(broken.len(), 40);
    for (i, case) in broken.iter().enumerate() {
        let seq = case["sequence"].as_str().unwrap();
        let kind = case["kind"].as_str().unwrap();
        let well_formed = case["well_formed"].as_bool().unwrap();
        let valid = case["valid"].as_bool().unwrap();
        let index = case["first_illegal_index"].as_u64().map(|i| i as usize);
        assert_eq!(text::is_well_formed(seq), well_formed, "case {i} ({kind})");
        assert_eq!(text::is_valid(seq), valid, "case {i} ({kind})");
        assert_eq!(text::first_illegal_index(seq), index, "case {i} ({kind})");
        let err = text::check(seq).unwrap_err();
        match (&err, kind) {
            (CheckError::Illegal(e), "overlap") => assert_eq!(e.reason.name(), "occupied"),
            (CheckError::Illegal(e), "centre") => assert_eq!(e.reason.name(), "centre"),
            (CheckError::Illegal(e), "not_adjacent") => assert_eq!(e.reason.name(), "not_touching"),
            (CheckError::Illegal(e), "avoidable_loop") => {
                assert_eq!(e.reason.name(), "avoidable_station_link")
            }
            (CheckError::Malformed(_), _) => assert!(!well_formed),
            (e, kind) => panic!("case {i}: {kind} gave {e}"),
        }
        // Every board the engine rejects is rejected at the recorded placement.
        if let Some(index) = index {
            assert_eq!(err.index(), index);
        }
    }
}
