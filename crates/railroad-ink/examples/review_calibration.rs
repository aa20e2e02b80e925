//! Is the review's estimate honest? Plays games of `greedy` and `strong`, reviews each, and
//! prints, for every round, the mean error of the predicted final score (the estimate of the
//! played board after the round) against the final score the game reached, with its 95%
//! interval, and the points the review says each player lost a round.
//!
//! `cargo run --release -p railroad-ink --example review_calibration -- --games 1000`
//!
//! Options: `--games N` (default 100), `--seed S` (dice seed of the first game, default 2026;
//! game i uses seed S + i), `--budget B` (the strong player's, default 64), `--review-budget
//! R` (default: the review's, 48), `--agents greedy,strong`, `--expansion lake|river` (games
//! of six rounds of that expansion, reviewed by its rules), `--estimate-only` (the estimate's
//! errors alone, without the reviews' searches). `THREADS=n` sets the threads (2).

use std::time::Duration;

mod common;

use common::on_two_threads;
use railroad_ink::ai::review::{estimate, review_in};
use railroad_ink::ai::strong::StrongAgent;
use railroad_ink::ai::{agent_with_budget, play_game_with};
use railroad_ink::{Dice, Expansion};

/// This thread's CPU time so far (Linux; zero elsewhere).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

struct Game {
    /// Estimate minus final score, by round (0-6).
    errors: Vec<(usize, f64)>,
    losses: Vec<(usize, f64)>,
    loss: f64,
    score: i32,
    cpu: Duration,
}

/// The estimates of the played boards after each round (round counted from 0), nothing lost.
fn estimates(expansion: Expansion, played: &[Vec<railroad_ink::Placement>]) -> Vec<(usize, f32)> {
    let search = StrongAgent::with_budget(None).search;
    let mut board = railroad_ink::Board::with_expansion(expansion);
    played
        .iter()
        .enumerate()
        .map(|(round, placed)| {
            for &p in placed {
                board.place(p).unwrap();
            }
            (round, estimate(&search, &board, round))
        })
        .collect()
}

fn mean_ci(xs: &[f64]) -> (f64, f64) {
    let n = xs.len().max(1) as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn main() {
    let mut games = 100u64;
    let mut seed = 2026u64;
    let mut budget = 64u32;
    let mut review_budget: Option<u32> = None;
    let mut agents = vec!["greedy".to_owned(), "strong".to_owned()];
    let mut expansion = Expansion::None;
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--estimate-only`: the errors of the estimate alone, no review (no strong search).
    let estimate_only = args.iter().any(|a| a == "--estimate-only");
    args.retain(|a| a != "--estimate-only");
    for pair in args.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        let number = || -> u64 {
            value.parse().unwrap_or_else(|_| {
                eprintln!("{} wants a number, not {value:?}", pair[0]);
                std::process::exit(2)
            })
        };
        match pair[0].as_str() {
            "--games" => games = number(),
            "--seed" => seed = number(),
            "--budget" => budget = number() as u32,
            "--review-budget" => review_budget = Some(number() as u32),
            "--agents" => agents = value.split(',').map(str::to_owned).collect(),
            "--expansion" => {
                expansion = value.parse().unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                })
            }
            other => {
                eprintln!("unknown option {other}; see the example's first lines");
                std::process::exit(2)
            }
        }
    }
    let round_count = expansion.rounds();
    println!(
        "{games} games ({expansion}) from dice seed {seed}, strong at budget {budget}, reviewed at budget {}",
        review_budget.unwrap_or(railroad_ink::ai::review::REVIEW_BUDGET)
    );
    for name in &agents {
        let results = on_two_threads(games, |i| {
            let rolls = Dice::Seed(seed + i).rolls_in(expansion);
            let mut agent = agent_with_budget(name, seed + i, Some(budget)).unwrap_or_else(|| {
                eprintln!("unknown agent {name}");
                std::process::exit(2)
            });
            let game = play_game_with(agent.as_mut(), expansion, rolls).unwrap();
            let score = game.scores()[0].advanced;
            let start = thread_cpu();
            let played = game.player(0).unwrap().rounds();
            let (values, losses, loss) = if estimate_only {
                let values = estimates(expansion, &played);
                let none = values.iter().map(|&(round, _)| (round, 0.0)).collect();
                (values, none, 0.0)
            } else {
                let review = review_in(expansion, &rolls, &played, review_budget).unwrap();
                (
                    review
                        .rounds
                        .iter()
                        .map(|r| (r.round - 1, r.value_played))
                        .collect(),
                    review
                        .rounds
                        .iter()
                        .map(|r| (r.round - 1, f64::from(r.loss)))
                        .collect(),
                    f64::from(review.loss),
                )
            };
            let cpu = thread_cpu() - start;
            Game {
                errors: values
                    .iter()
                    .map(|&(round, value)| (round, f64::from(value) - f64::from(score)))
                    .collect(),
                losses,
                loss,
                score,
                cpu,
            }
        });
        let n = results.len();
        let mean_score = results.iter().map(|g| f64::from(g.score)).sum::<f64>() / n as f64;
        let (loss, loss_ci) = mean_ci(&results.iter().map(|g| g.loss).collect::<Vec<_>>());
        let cpu: Vec<f64> = results.iter().map(|g| g.cpu.as_secs_f64()).collect();
        let max_cpu = cpu.iter().copied().fold(0.0, f64::max);
        println!();
        println!(
            "{name}: {n} games, mean score {mean_score:.2}; points lost a game {loss:.2} ± {loss_ci:.2} \
             ({:.3} a round); review CPU {:.2} s a game on average, {max_cpu:.2} s at most",
            loss / round_count as f64,
            cpu.iter().sum::<f64>() / n as f64
        );
        println!("| round | mean error | 95% interval | points lost a round |");
        println!("|---|---|---|---|");
        for round in 0..round_count {
            let errors: Vec<f64> = results
                .iter()
                .flat_map(|g| g.errors.iter().filter(|e| e.0 == round).map(|e| e.1))
                .collect();
            let losses: Vec<f64> = results
                .iter()
                .flat_map(|g| g.losses.iter().filter(|e| e.0 == round).map(|e| e.1))
                .collect();
            let (e, ci) = mean_ci(&errors);
            let (l, _) = mean_ci(&losses);
            println!(
                "| {} | {e:+.2} | {:+.2} to {:+.2} | {l:.2} |",
                round + 1,
                e - ci,
                e + ci
            );
        }
    }
}
