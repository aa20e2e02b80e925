//! Fits the strong player's evaluation by fitted value iteration: play games with the current
//! model, regress each round's board features on the game's final score (one linear model per
//! number of rounds left), and repeat.
//!
//! `cargo run --release -p railroad-ink --example train_eval -- ITERATIONS GAMES [MODEL.json]`
//! Writes the model after every iteration to `target/ink-model.json` and prints it as Rust.
//!
//! `… train_eval -- --candidates GAMES [MODEL.json]` instead fits on the boards a look-ahead
//! compares, not only those the games reach: in each round of each game, some of the best
//! few ways to end the round (by the current model) are each played out to the end of the
//! game on fresh rolls by the strong player at `BUDGET` (default 16), and the model is fitted
//! on those boards against their play-out scores. The samples are appended to
//! `target/ink-candidates.tsv` (rounds left, features, score) and the fit uses all of them.

mod common;

use common::{env, on_two_threads};
use railroad_ink::ai::eval::{FEATURE_NAMES, FEATURES, Features, Model};
use railroad_ink::ai::strong::{Search, StrongAgent};
use railroad_ink::ai::{Agent, RoundView, play_game};
use railroad_ink::game::ROUNDS;
use railroad_ink::{Board, Dice, Roll};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One game: the features after each of the first six rounds, and the final score.
fn play(model: &Model, beam: usize, seed: u64) -> (Vec<Features>, f32) {
    let mut agent = StrongAgent::with_budget(Some(beam as u32));
    agent.search = Search {
        model: *model,
        beam,
        ntuple: None,
    };
    agent.lookahead = None;
    agent.endgame = Vec::new();
    let game =
        play_game(&mut agent, Dice::Seed(seed).rolls()).expect("the agent plays by the rules");
    let mut board = Board::new();
    let mut seen = Vec::new();
    for round in &game.player(0).unwrap().rounds()[..ROUNDS - 1] {
        for &p in round {
            board.place(p).expect("a legal placement");
        }
        seen.push(Features::of(&board));
    }
    (seen, game.scores()[0].advanced as f32)
}

/// Mean final score of the model at beam 24 over 200 fixed validation games.
fn validate(model: &Model) -> f32 {
    let scores = on_two_threads(200, |g| play(model, 24, 5_000_000 + g).1);
    scores.iter().sum::<f32>() / scores.len() as f32
}

/// Ridge regression: the weights minimising |Xw − y|² + λ|w|² (bias not penalised).
fn fit(xs: &[[f32; FEATURES]], ys: &[f32], lambda: f64) -> [f32; FEATURES] {
    let n = FEATURES;
    let mut a = vec![vec![0f64; n + 1]; n];
    for (x, &y) in xs.iter().zip(ys) {
        for i in 0..n {
            for j in 0..n {
                a[i][j] += x[i] as f64 * x[j] as f64;
            }
            a[i][n] += x[i] as f64 * y as f64;
        }
    }
    for (i, row) in a.iter_mut().enumerate().skip(1) {
        row[i] += lambda * xs.len() as f64;
    }
    a[0][0] += 1e-6;
    // Gaussian elimination with partial pivoting.
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        let d = a[col][col];
        let pivot_row = a[col].clone();
        for (row, r) in a.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / d;
                for (x, p) in r[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    std::array::from_fn(|i| (a[i][n] / a[i][i]) as f32)
}

/// Fits a model on the games of `tracklayer ink play --json` output (one game a line):
/// the boards after each of the first six rounds against the final score.
fn fit_from_games(path: &str, start: Model) -> Model {
    let text = std::fs::read_to_string(path).unwrap();
    let mut results = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(rounds) = v["rounds"].as_array() else {
            continue;
        };
        let mut board = Board::new();
        let mut seen = Vec::new();
        for round in &rounds[..ROUNDS - 1] {
            let text = round.as_str().unwrap();
            if !text.is_empty() {
                let round: railroad_ink::Sequence = text.parse().unwrap();
                for &p in round.placements() {
                    board.place(p).unwrap();
                }
            }
            seen.push(Features::of(&board));
        }
        results.push((seen, v["advanced"].as_f64().unwrap() as f32));
    }
    let mut model = start;
    for rounds_left in 1..ROUNDS {
        let xs: Vec<[f32; FEATURES]> = results
            .iter()
            .map(|r| r.0[ROUNDS - 1 - rounds_left].0)
            .collect();
        let ys: Vec<f32> = results.iter().map(|r| r.1).collect();
        model.weights[rounds_left] = fit(&xs, &ys, 1e-3);
    }
    println!("fitted on {} games from {path}", results.len());
    model
}

/// The agent's whole round on `board`, the last of `rolls` being this round's.
fn play_round(agent: &mut StrongAgent, board: &mut Board, rolls: &[Roll]) {
    let view = RoundView {
        board: &board.clone(),
        roll: rolls[rolls.len() - 1],
        used: 0,
        special_placed: false,
        round: rolls.len() - 1,
        rolls,
    };
    for p in agent.play_round(&view) {
        board.place(p).expect("a legal placement");
    }
}

/// The final advanced score of the strong player `agent` continuing from `board` after
/// `round` rounds, on rolls drawn from `rng`.
fn play_out(agent: &mut StrongAgent, board: &Board, round: usize, rng: &mut ChaCha8Rng) -> f32 {
    let mut board = *board;
    let mut rolls: Vec<Roll> = (0..round).map(|_| Roll::random(rng)).collect();
    for _ in round..ROUNDS {
        rolls.push(Roll::random(rng));
        play_round(agent, &mut board, &rolls);
    }
    board.score().advanced as f32
}

/// One game's samples: for each round but the last, up to `pick` of the best `keep` ends of
/// the round (always the best), each with its play-out score.
fn candidate_samples(model: &Model, seed: u64) -> Vec<(usize, Features, f32)> {
    let (budget, keep, pick) = (
        env("BUDGET").unwrap_or(16),
        env("KEEP").unwrap_or(8),
        env("PICK").unwrap_or(3),
    );
    let mut agent = StrongAgent::with_budget(Some(budget));
    agent.search.model = *model;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let rolls = Dice::Seed(seed).rolls();
    let mut board = Board::new();
    let mut samples = Vec::new();
    for round in 0..ROUNDS - 1 {
        let rounds_left = ROUNDS - 1 - round;
        let mut ends = agent.search.ends(&board, &rolls[round], rounds_left, keep);
        // The best end and a random choice of the others.
        for i in 1..ends.len() {
            let j = rng.random_range(i..ends.len());
            ends.swap(i, j);
        }
        for end in ends.iter().take(pick) {
            let score = play_out(&mut agent, end, round + 1, &mut rng);
            samples.push((rounds_left, Features::of(end), score));
        }
        play_round(&mut agent, &mut board, &rolls[..=round]);
    }
    samples
}

/// Plays `games` games for candidate samples, appends them to `target/ink-candidates.tsv`,
/// and fits a model on every sample in that file.
fn fit_on_candidates(games: u64, start: Model) -> Model {
    let first = env("FIRST").unwrap_or(3_000_000u64);
    let samples: Vec<(usize, Features, f32)> =
        on_two_threads(games, |g| candidate_samples(&start, first + g))
            .into_iter()
            .flatten()
            .collect();
    let path = "target/ink-candidates.tsv";
    let mut text = std::fs::read_to_string(path).unwrap_or_default();
    for (r, f, y) in &samples {
        let xs: Vec<String> = f.0.iter().map(|x| x.to_string()).collect();
        text.push_str(&format!("{r}\t{}\t{y}\n", xs.join("\t")));
    }
    std::fs::write(path, &text).unwrap();
    let all: Vec<(usize, [f32; FEATURES], f32)> = text
        .lines()
        .map(|line| {
            let v: Vec<f32> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            (
                v[0] as usize,
                std::array::from_fn(|j| v[1 + j]),
                v[FEATURES + 1],
            )
        })
        .collect();
    let mut model = start;
    for rounds_left in 1..ROUNDS {
        let rows: Vec<&(usize, [f32; FEATURES], f32)> =
            all.iter().filter(|s| s.0 == rounds_left).collect();
        let xs: Vec<[f32; FEATURES]> = rows.iter().map(|s| s.1).collect();
        let ys: Vec<f32> = rows.iter().map(|s| s.2).collect();
        model.weights[rounds_left] = fit(&xs, &ys, 1e-3);
        println!("{rounds_left} rounds left: {} samples", rows.len());
    }
    model
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let (Some("--candidates"), Some(games)) = (args.get(1).map(String::as_str), args.get(2)) {
        let start: Model = match args.get(3) {
            Some(path) => serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap(),
            None => Model::default(),
        };
        let model = fit_on_candidates(games.parse().expect("a number of games"), start);
        std::fs::write(
            "target/ink-model.json",
            serde_json::to_string(&model).unwrap(),
        )
        .unwrap();
        return;
    }
    if let (Some("--from-games"), Some(path)) = (args.get(1).map(String::as_str), args.get(2)) {
        let model = fit_from_games(path, Model::default());
        std::fs::write(
            "target/ink-model.json",
            serde_json::to_string(&model).unwrap(),
        )
        .unwrap();
        return;
    }
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(400);
    let beam = env("BEAM").unwrap_or(8);
    let mut model: Model = match args.get(3) {
        Some(path) => serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap(),
        None => Model::default(),
    };
    let mut buffer: Vec<Vec<(Vec<Features>, f32)>> = Vec::new();
    let mut best = (f32::NEG_INFINITY, model);
    for it in 0..iterations {
        let base = 1_000_000 + it as u64 * games;
        let results = on_two_threads(games, |g| play(&model, beam, base + g));
        let mean = results.iter().map(|r| r.1).sum::<f32>() / results.len() as f32;
        // Judge the model that played these games on fixed validation dice at a wider beam.
        let validation = validate(&model);
        println!(
            "iteration {it}: mean {mean:.2} over {games} games (beam {beam}); validation {validation:.2}"
        );
        if validation > best.0 {
            best = (validation, model);
            std::fs::write(
                "target/ink-model-best.json",
                serde_json::to_string(&model).unwrap(),
            )
            .unwrap();
        }
        buffer.push(results);
        if buffer.len() > 3 {
            buffer.remove(0);
        }
        let results: Vec<&(Vec<Features>, f32)> = buffer.iter().flatten().collect();
        let mut next = model;
        for rounds_left in 1..ROUNDS {
            let xs: Vec<[f32; FEATURES]> = results
                .iter()
                .map(|(f, _)| f[ROUNDS - 1 - rounds_left].0)
                .collect();
            let ys: Vec<f32> = results.iter().map(|r| r.1).collect();
            let fitted = fit(&xs, &ys, 1e-3);
            for (w, f) in next.weights[rounds_left].iter_mut().zip(fitted) {
                *w = 0.5 * *w + 0.5 * f;
            }
        }
        model = next;
        std::fs::write(
            "target/ink-model.json",
            serde_json::to_string(&model).unwrap(),
        )
        .unwrap();
    }
    println!("best validation {:.2} (target/ink-model-best.json)", best.0);
    let model = best.1;
    println!("weights by rounds left:");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        let row: Vec<String> = (0..7)
            .map(|r| format!("{:7.3}", model.weights[r][i]))
            .collect();
        println!("{name:>22} {}", row.join(" "));
    }
}
