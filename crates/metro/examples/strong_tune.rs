//! Tuning the `strong` player: plays it, with settings from the command line, against other
//! agents and prints its win rate. Not part of the measured results (see `tracklayer metro
//! play`).
//!
//! ```text
//! cargo run --release -p metro --example strong_tune -- GAMES OPPONENTS BUDGET MARGIN OWN OTHERS
//! cargo run --release -p metro --example strong_tune -- 100 greedy 1500 0.01 1 1
//! ```

use std::time::Instant;

use metro::ai::{Agent, Strong, StrongConfig, Weights, agent_by_name, mix, play_game};
use metro::{Config, Game, PlayerCount};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_owned());
    let games: usize = arg(0, "50").parse().unwrap_or(50);
    let opponents: Vec<String> = arg(1, "greedy").split(',').map(str::to_owned).collect();
    let config = StrongConfig {
        budget: arg(2, "1500").parse().unwrap_or(1500),
        margin_weight: arg(3, "0.01").parse().unwrap_or(0.01),
        playout: Weights {
            own: arg(4, "0").parse().unwrap_or(0),
            others: arg(5, "0").parse().unwrap_or(0),
        },
        second: Weights {
            own: arg(6, "1").parse().unwrap_or(1),
            others: arg(7, "1").parse().unwrap_or(1),
        },
    };
    let n = opponents.len() + 1;
    let Some(players) = PlayerCount::new(n as u8) else {
        eprintln!("1 to 5 opponents");
        return;
    };
    let start = Instant::now();
    let results: Vec<(f64, f64, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|t| {
                let opponents = &opponents;
                s.spawn(move || {
                    let mut out = Vec::new();
                    let mut hand = [0u32; 3];
                    for g in (t..games).step_by(2) {
                        let seed = mix(0xC0FFEE ^ g as u64);
                        let me = g % n;
                        let mut agents: Vec<Box<dyn Agent + Send>> = (0..n)
                            .map(|seat| {
                                if seat == me {
                                    Box::new(Strong::with_config(mix(seed ^ 77), config))
                                        as Box<dyn Agent + Send>
                                } else {
                                    let name =
                                        &opponents[(seat + n - me - 1) % n % opponents.len()];
                                    // strong:BUDGET:MARGIN:OWN:OTHERS, or a name.
                                    let parts: Vec<&str> = name.split(':').collect();
                                    let agent_seed = mix(seed ^ seat as u64);
                                    match parts.as_slice() {
                                        ["strong", b, m, o, t] => Box::new(Strong::with_config(
                                            agent_seed,
                                            StrongConfig {
                                                budget: b.parse().unwrap_or(300),
                                                margin_weight: m.parse().unwrap_or(0.01),
                                                playout: Weights {
                                                    own: o.parse().unwrap_or(0),
                                                    others: t.parse().unwrap_or(0),
                                                },
                                                second: Weights::NET,
                                            },
                                        )),
                                        [n, b] => agent_by_name(n, agent_seed, b.parse().ok())
                                            .expect("agent"),
                                        _ => agent_by_name(name, agent_seed, None).expect("agent"),
                                    }
                                }
                            })
                            .collect();
                        let mut game = Game::new(Config::new(players), seed);
                        if play_game(&mut game, &mut agents).is_err() {
                            continue;
                        }
                        // How the strong seat used its hand.
                        let mut replay = Game::new(Config::new(players), seed);
                        for &action in game.actions() {
                            if replay.turn().map(|p| p.index()) == Some(me) {
                                let holding = replay.tile_to_place().is_some()
                                    && replay.phase() == metro::Phase::Start;
                                let slot = match action {
                                    metro::Action::Keep => Some(0),
                                    metro::Action::Draw if holding => Some(1),
                                    metro::Action::Place(_) if holding => Some(2),
                                    _ => None,
                                };
                                if let Some(k) = slot {
                                    hand[k] += 1;
                                }
                            }
                            let _ = replay.apply(action);
                        }
                        let scores = game.scores();
                        let best = *scores.iter().max().unwrap_or(&0);
                        let k = scores.iter().filter(|&&s| s == best).count() as f64;
                        let win = if scores[me] == best { 1.0 / k } else { 0.0 };
                        let others = scores.iter().enumerate().filter(|&(i, _)| i != me);
                        let other_mean =
                            others.map(|(_, &s)| s as f64).sum::<f64>() / (n - 1) as f64;
                        out.push((win, scores[me] as f64, other_mean));
                    }
                    eprintln!(
                        "thread {t}: keeps {}, draws holding {}, held tiles placed {}",
                        hand[0], hand[1], hand[2]
                    );
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let g = results.len() as f64;
    let win: f64 = results.iter().map(|r| r.0).sum::<f64>() / g;
    let mine: f64 = results.iter().map(|r| r.1).sum::<f64>() / g;
    let theirs: f64 = results.iter().map(|r| r.2).sum::<f64>() / g;
    let se = (win * (1.0 - win) / g).sqrt();
    println!(
        "{config:?} vs {opponents:?}: win {:.1}% ± {:.1}, score {mine:.1} vs {theirs:.1}, {:.1}s",
        100.0 * win,
        196.0 * se,
        start.elapsed().as_secs_f64()
    );
}
