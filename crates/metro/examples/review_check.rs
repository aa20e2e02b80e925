//! How the computer's review of Metro games reads: plays two-player games of one agent
//! against `strong`, reviews the first seat's decisions at the default review settings, and
//! prints the points of margin lost a decision, the share of each label and the review's time.
//!
//! ```text
//! cargo run --release -p metro --example review_check -- GAMES AGENT
//! cargo run --release -p metro --example review_check -- 20 greedy
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use metro::ai::review::{ReviewConfig, review};
use metro::ai::{agent_by_name, mix, play_game};
use metro::square::Player;
use metro::{Config, Game, PlayerCount};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let agent = args.get(1).cloned().unwrap_or_else(|| "strong".to_owned());
    let (mut decisions, mut loss, mut seconds) = (0usize, 0.0f64, 0.0f64);
    let mut labels: BTreeMap<String, usize> = BTreeMap::new();
    let mut slowest = 0.0f64;
    for g in 0..games {
        let seed = mix(0xC0FFEE ^ g);
        let mut game = Game::new(Config::new(PlayerCount::new(2).expect("two players")), seed);
        let mut agents = vec![
            agent_by_name(&agent, seed, None).expect("an agent: random, greedy or strong"),
            agent_by_name("strong", seed + 1, None).expect("strong"),
        ];
        play_game(&mut game, &mut agents).expect("a legal game");
        let start = Instant::now();
        let r = review(&game, Player::FIRST, ReviewConfig::default()).expect("a finished game");
        let took = start.elapsed().as_secs_f64();
        seconds += took;
        slowest = slowest.max(took);
        decisions += r.decisions.len();
        loss += r.loss;
        for d in &r.decisions {
            *labels.entry(d.label.to_string()).or_default() += 1;
        }
    }
    let n = decisions.max(1) as f64;
    println!(
        "{agent} against strong, {games} games, {decisions} decisions reviewed: {:.2} points of margin lost a decision, {:.1} a game; review {:.2} s a game (slowest {:.2} s)",
        loss / n,
        loss / games.max(1) as f64,
        seconds / games.max(1) as f64,
        slowest
    );
    for (label, count) in labels {
        println!("  {label}: {:.0}%", 100.0 * count as f64 / n);
    }
}
