//! How long the browser game's hint (`ai::hint`: the strong player's round at the interactive
//! budget) takes a round.
//!
//! `cargo run --release -p railroad-ink --example hint_time -- GAMES [FIRST_SEED [EXPANSION]]`
//!
//! Plays GAMES solo games on dice seeds FIRST_SEED.. (default 0) of the base game or of
//! EXPANSION (`lake` or `river`), each round asking for a hint and playing it, and prints the
//! wall and thread CPU time of the hints: the slowest, the mean, and the slowest by round.

use std::time::{Duration, Instant};

use railroad_ink::ai::hint;
use railroad_ink::game::ROUNDS;
use railroad_ink::{Action, Dice, Expansion, Game, Setup};

/// This thread's CPU time so far (Linux), zero where it cannot be read.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let expansion = match args.get(3).map(String::as_str) {
        None | Some("none") => Expansion::None,
        Some("lake") => Expansion::Lake,
        Some("river") => Expansion::River,
        Some(other) => {
            eprintln!("hint_time: expansion {other:?} is none of none, lake or river");
            std::process::exit(2);
        }
    };
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let mut slowest_by_round = [0.0f64; ROUNDS];
    for seed in first..first + games {
        let mut game = Game::with_expansion(
            Setup {
                players: 1,
                dice: Dice::Seed(seed),
            },
            expansion,
        );
        for slowest in slowest_by_round.iter_mut().take(game.rounds()) {
            let (t, c) = (Instant::now(), thread_cpu());
            let placements = hint(&game, 0).expect("a hint for a game in play");
            let (w, c) = (t.elapsed().as_secs_f64(), (thread_cpu() - c).as_secs_f64());
            wall.push(w);
            cpu.push(c);
            *slowest = slowest.max(w);
            for placement in placements {
                game.act(0, Action::Place { placement })
                    .expect("the hint is legal");
            }
            game.act(0, Action::EndRound).expect("the round can end");
        }
    }
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!(
        "{} hints ({games} games): wall slowest {:.3} s, mean {:.3} s; CPU slowest {:.3} s, mean {:.3} s",
        wall.len(),
        max(&wall),
        mean(&wall),
        max(&cpu),
        mean(&cpu)
    );
    let by_round: Vec<String> = slowest_by_round[..expansion.rounds()]
        .iter()
        .enumerate()
        .map(|(r, s)| format!("{}: {s:.3}", r + 1))
        .collect();
    println!("slowest wall by round: {}", by_round.join(", "));
}
