//! Quick measurement of the Railroad Ink agents: mean advanced score over seeded games.
//!
//! `cargo run --release -p railroad-ink --example ai_eval -- AGENT GAMES [FIRST_SEED]`

use std::time::Instant;

use railroad_ink::Dice;
use railroad_ink::ai::{agent_by_name, play_game};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("strong", String::as_str);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let start = Instant::now();
    let scores: Vec<i32> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                s.spawn(move || {
                    (first + w..first + games)
                        .step_by(2)
                        .map(|seed| {
                            let mut agent = agent_by_name(name, seed).expect("known agent");
                            play_game(agent.as_mut(), Dice::Seed(seed).rolls())
                                .unwrap()
                                .scores()[0]
                                .advanced
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let n = scores.len() as f64;
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
        start.elapsed().as_secs_f64() * 1000.0 * 2.0 / n
    );
}
