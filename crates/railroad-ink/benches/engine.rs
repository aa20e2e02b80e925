//! Engine speed: scoring, validity, legal placements, and whole random games.
//!
//! Run with `cargo bench -p railroad-ink --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use railroad_ink::ai::{RandomAgent, play_game};
use railroad_ink::{Board, Dice, Roll, Tile};

/// The 31-placement example game of the rules (§9.5).
const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

fn engine(c: &mut Criterion) {
    let board: Board = EXAMPLE.parse().unwrap();
    c.bench_function("score a complete 31-placement board", |b| {
        b.iter(|| black_box(&board).score())
    });
    c.bench_function("score with the whole breakdown", |b| {
        b.iter(|| black_box(&board).breakdown())
    });
    c.bench_function("check a complete board string's validity", |b| {
        b.iter(|| railroad_ink::is_valid(black_box(EXAMPLE)))
    });

    let corpus: Vec<Board> = include_str!("../tests/data/railroad-ink-games.jsonl")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["board"].as_str().unwrap().parse().unwrap()
        })
        .collect();
    c.bench_function("score the 300 corpus boards (total)", |b| {
        b.iter(|| {
            black_box(&corpus)
                .iter()
                .map(|b| b.score().advanced)
                .sum::<i32>()
        })
    });

    let placements: Vec<_> = board.placements().collect();
    let mid = Board::from_placements(&placements[..16]).unwrap();
    let roll: Roll = "A1A3A5B1".parse().unwrap();
    c.bench_function("all legal placements of a roll on a mid-game board", |b| {
        b.iter(|| {
            let board = black_box(&mid);
            black_box(roll)
                .dice()
                .map(|t: Tile| board.legal_placements(t).len())
        })
    });

    c.bench_function(
        "evaluation features of a complete board (computer player)",
        |b| b.iter(|| railroad_ink::ai::eval::Features::of(black_box(&board))),
    );
    c.bench_function("evaluation features of a mid-game board", |b| {
        b.iter(|| railroad_ink::ai::eval::Features::of(black_box(&mid)))
    });

    let mut seed = 0;
    c.bench_function(
        "a whole random game (7 rounds, random legal choices)",
        |b| {
            b.iter(|| {
                seed += 1;
                let mut agent = RandomAgent::new(seed);
                play_game(&mut agent, Dice::Seed(seed).rolls())
                    .unwrap()
                    .scores()[0]
                    .advanced
            })
        },
    );
}

criterion_group!(benches, engine);
criterion_main!(benches);
