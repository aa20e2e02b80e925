//! Quick measurement of the Railroad Ink agents: mean advanced score over seeded games.
//!
//! `cargo run --release -p railroad-ink --example ai_eval -- AGENT GAMES [FIRST_SEED]`
//!
//! `SCORES=a.txt` writes each game's score; a second run with `PAIRED=a.txt` prints the mean
//! difference on the same dice with its 95% interval.

use std::sync::Arc;
use std::time::Instant;

mod common;

use common::{env, on_two_threads};
use railroad_ink::Dice;
use railroad_ink::ai::ntuple::NTuple;
use railroad_ink::ai::strong::{Lookahead, StrongAgent};
use railroad_ink::ai::{Agent, agent_by_name, play_game};

/// A look-ahead written `candidates,samples,beam`.
fn lookahead(spec: &str) -> Lookahead {
    let v: Vec<usize> = spec.split(',').map(|x| x.parse().unwrap()).collect();
    Lookahead {
        candidates: v[0],
        samples: v[1],
        beam: v[2],
    }
}

/// The named agent; for `strong`, `INK_MODEL=file.json` swaps in a trained model,
/// `NTUPLE=file.bin` swaps in other n-tuple tables (a checkpoint of `examples/train_ntuple.rs`),
/// `NTUPLE=none` leaves them out (the linear evaluation alone, the player before them),
/// `BUDGET=n` sets the budget, `BEAM=n` the beam, `LOOK=c,s,b` the look-ahead and
/// `ENDGAME=c,s,b;c,s,b` the look-aheads with 1, 2, ... rounds left ("" for none).
fn make_agent(name: &str, seed: u64) -> Box<dyn Agent + Send> {
    if name == "strong" {
        let mut agent = StrongAgent::with_budget(env("BUDGET"));
        if let Ok(path) = std::env::var("INK_MODEL") {
            agent.search.model =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        }
        if std::env::var("NTUPLE").as_deref() == Ok("none") {
            agent.search.ntuple = None;
        } else if let Ok(path) = std::env::var("NTUPLE") {
            let bytes = std::fs::read(&path).unwrap();
            agent.search.ntuple = Some(Arc::new(NTuple::from_bytes(&bytes).unwrap()));
        }
        if let Some(beam) = env("BEAM") {
            agent.search.beam = beam;
        }
        if let Ok(look) = std::env::var("LOOK") {
            agent.lookahead = Some(lookahead(&look));
        }
        if let Ok(end) = std::env::var("ENDGAME") {
            agent.endgame = end
                .split(';')
                .filter(|l| !l.is_empty())
                .map(lookahead)
                .collect();
        }
        return Box::new(agent);
    }
    agent_by_name(name, seed).expect("known agent")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("strong", String::as_str);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let start = Instant::now();
    let results = on_two_threads(games, |g| {
        let seed = first + g;
        let game = play_game(make_agent(name, seed).as_mut(), Dice::Seed(seed).rolls()).unwrap();
        (
            game.scores()[0],
            game.player(0).unwrap().board().special_count(),
            seed,
        )
    });
    let scores: Vec<i32> = results.iter().map(|r| r.0.advanced).collect();
    // SCORES=file: per-game "seed score" lines, for paired comparisons.
    if let Ok(path) = std::env::var("SCORES") {
        let lines: String = results
            .iter()
            .map(|r| format!("{} {}\n", r.2, r.0.advanced))
            .collect();
        std::fs::write(path, lines).unwrap();
    }
    // PAIRED=file: the mean difference from another run's SCORES file on the same seeds.
    if let Ok(path) = std::env::var("PAIRED") {
        let other: std::collections::HashMap<u64, f64> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .map(|l| {
                let (seed, score) = l.split_once(' ').unwrap();
                (seed.parse().unwrap(), score.parse().unwrap())
            })
            .collect();
        let diffs: Vec<f64> = results
            .iter()
            .filter_map(|r| other.get(&r.2).map(|o| r.0.advanced as f64 - o))
            .collect();
        let m = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / m;
        let sd = (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (m - 1.0)).sqrt();
        let half = 1.96 * sd / m.sqrt();
        println!(
            "paired against {path}: {} games, difference {mean:+.2} (95% interval {:+.2} to {:+.2}, sd {sd:.2})",
            diffs.len(),
            mean - half,
            mean + half
        );
    }
    let n = scores.len() as f64;
    let avg = |f: &dyn Fn(&railroad_ink::Score) -> i32| {
        results.iter().map(|r| f(&r.0) as f64).sum::<f64>() / n
    };
    println!(
        "exits {:.1}  centre {:.1}  errors {:.1}  longest H {:.1} R {:.1}  specials {:.2}",
        avg(&|s| s.exits),
        avg(&|s| s.centre),
        avg(&|s| s.errors),
        avg(&|s| s.longest_highway),
        avg(&|s| s.longest_railway),
        results.iter().map(|r| r.1 as f64).sum::<f64>() / n
    );
    let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / n;
    let sd = (scores
        .iter()
        .map(|&s| (s as f64 - mean).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    println!(
        "{name}: {} games, mean {mean:.2} ± {:.2} (sd {sd:.1}), {:.1} ms a game",
        scores.len(),
        sd / n.sqrt(),
        start.elapsed().as_secs_f64() * 1000.0 * env("THREADS").unwrap_or(2.0) / n
    );
}
