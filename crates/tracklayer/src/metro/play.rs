//! `tracklayer metro play`: games between computer players, and their measure.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use metro::ai::{AGENTS, SeatStats, agent_by_name, mix, play_game_timed};
use metro::{Config, Game, PlayerCount};
use rayon::prelude::*;
use serde::Serialize;

use crate::cli_io::{Out, Outcome};

/// The options of `tracklayer metro play`.
#[derive(Debug)]
pub struct PlayArgs {
    pub agents: Vec<String>,
    pub games: usize,
    pub seed: u64,
    pub budget: Option<u32>,
    pub json: bool,
    pub threads: Option<usize>,
}

/// The seed of game `index`: a function of the command's seed and the index alone, so a game
/// is the same whichever thread plays it.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    mix(seed ^ mix(index as u64))
}

/// The seed of the agent in `seat` of a game.
fn agent_seed(game_seed: u64, seat: usize) -> u64 {
    mix(game_seed ^ mix(0xA6E7 + seat as u64))
}

/// Which agent (index into the agents named) sits in `seat` of game `index`: agent k sits in
/// seat (k + index) mod n.
fn agent_in_seat(seat: usize, index: usize, n: usize) -> usize {
    (seat + n - index % n) % n
}

/// One game played.
struct Played {
    /// The agent (index into the agents named) of each seat, P1 first.
    seating: Vec<usize>,
    sequence: String,
    scores: Vec<u32>,
    stats: Vec<SeatStats>,
}

fn play_one(args: &PlayArgs, players: PlayerCount, index: usize) -> anyhow::Result<Played> {
    let n = args.agents.len();
    let seed = game_seed(args.seed, index);
    let seating: Vec<usize> = (0..n).map(|seat| agent_in_seat(seat, index, n)).collect();
    let mut agents = seating
        .iter()
        .enumerate()
        .map(|(seat, &k)| {
            agent_by_name(&args.agents[k], agent_seed(seed, seat), args.budget)
                .with_context(|| format!("unknown agent {:?}", args.agents[k]))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut game = Game::new(Config::new(players), seed);
    let stats = play_game_timed(&mut game, &mut agents, crate::cli_io::thread_cpu_time)?;
    if !game.board().is_full() {
        bail!("the game ended with {} tiles placed", game.board().len());
    }
    Ok(Played {
        seating,
        sequence: game.sequence().to_string(),
        scores: game.scores(),
        stats,
    })
}

#[derive(Serialize)]
struct GameLine<'a> {
    game: usize,
    players: u8,
    agents: Vec<&'a str>,
    sequence: &'a str,
    scores: &'a [u32],
}

/// One agent's measure over all games.
#[derive(Serialize, Default)]
struct AgentSummary {
    agent: String,
    /// Games won, a win shared by k players counting 1/k.
    wins: f64,
    win_rate: f64,
    /// 95% confidence interval of the win rate (Wilson score interval).
    ci95: [f64; 2],
    mean_score: f64,
    /// Thinking time per tile placed, in milliseconds.
    ms_per_move: f64,
    /// The longest thinking time of one turn, in milliseconds.
    max_ms_per_move: f64,
    /// Thinking time per tile placed by the thread's CPU-time clock, in milliseconds: the cost
    /// of a move without the wait for a busy machine's cores.
    cpu_ms_per_move: f64,
    /// The longest turn by the CPU-time clock, in milliseconds.
    max_cpu_ms_per_move: f64,
    #[serde(skip)]
    outcomes: Vec<f64>,
    #[serde(skip)]
    total_score: f64,
    #[serde(skip)]
    think_ms: f64,
    #[serde(skip)]
    cpu_ms: f64,
    #[serde(skip)]
    placements: u64,
}

#[derive(Serialize)]
struct Summary {
    games: usize,
    players: u8,
    seed: u64,
    budget: Option<u32>,
    agents: Vec<AgentSummary>,
}

#[derive(Serialize)]
struct SummaryLine {
    summary: Summary,
}

fn progress(games: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left",
    ) {
        bar.set_style(style);
    }
    bar
}

/// `tracklayer metro play`.
pub fn play(args: &PlayArgs, out: &mut Out) -> anyhow::Result<Outcome> {
    let n = args.agents.len();
    let players = u8::try_from(n)
        .ok()
        .and_then(PlayerCount::new)
        .with_context(|| format!("{n} agents: Metro has 2 to 6 players"))?;
    for name in &args.agents {
        if !AGENTS.contains(&name.as_str()) {
            bail!("unknown agent {name:?}: choose from {}", AGENTS.join(", "));
        }
    }
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = args.threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool.build()?;
    let bar = progress(args.games);
    let results: Vec<anyhow::Result<Played>> = pool.install(|| {
        (0..args.games)
            .into_par_iter()
            .map(|i| {
                let played = play_one(args, players, i).with_context(|| format!("game {i}"));
                bar.inc(1);
                played
            })
            .collect()
    });
    bar.finish_and_clear();

    let mut summary: Vec<AgentSummary> = args
        .agents
        .iter()
        .map(|a| AgentSummary {
            agent: a.clone(),
            ..AgentSummary::default()
        })
        .collect();
    for (i, result) in results.into_iter().enumerate() {
        let played = result?;
        let names: Vec<&str> = played
            .seating
            .iter()
            .map(|&k| args.agents[k].as_str())
            .collect();
        if args.json {
            out.json(&GameLine {
                game: i,
                players: players.get(),
                agents: names.clone(),
                sequence: &played.sequence,
                scores: &played.scores,
            })?;
        } else {
            let shown: Vec<String> = names
                .iter()
                .zip(&played.scores)
                .map(|(a, s)| format!("{a} {s}"))
                .collect();
            writeln!(out, "game {i:>4}: {}", shown.join(", "))?;
        }
        let best = played.scores.iter().copied().max().unwrap_or(0);
        let winners = played.scores.iter().filter(|&&s| s == best).count().max(1);
        for (seat, &k) in played.seating.iter().enumerate() {
            let a = &mut summary[k];
            let score = played.scores.get(seat).copied().unwrap_or(0);
            a.outcomes.push(if score == best {
                1.0 / winners as f64
            } else {
                0.0
            });
            a.total_score += score as f64;
            if let Some(st) = played.stats.get(seat) {
                a.think_ms += st.think.as_secs_f64() * 1000.0;
                a.cpu_ms += st.cpu.as_secs_f64() * 1000.0;
                a.max_cpu_ms_per_move = a
                    .max_cpu_ms_per_move
                    .max(st.longest_turn_cpu.as_secs_f64() * 1000.0);
                a.placements += st.placements as u64;
                a.max_ms_per_move = a
                    .max_ms_per_move
                    .max(st.longest_turn.as_secs_f64() * 1000.0);
            }
        }
    }
    for a in &mut summary {
        let games = a.outcomes.len().max(1) as f64;
        a.wins = a.outcomes.iter().sum();
        a.win_rate = a.wins / games;
        a.ci95 = wilson(a.win_rate, games);
        a.mean_score = a.total_score / games;
        a.ms_per_move = a.think_ms / (a.placements.max(1) as f64);
        a.cpu_ms_per_move = a.cpu_ms / (a.placements.max(1) as f64);
    }
    let summary = Summary {
        games: args.games,
        players: players.get(),
        seed: args.seed,
        budget: args.budget,
        agents: summary,
    };
    if args.json {
        out.json(&SummaryLine { summary })?;
    } else {
        print_summary(&summary, out)?;
    }
    Ok(Outcome::Accepted)
}

/// The Wilson score interval at 95% for a rate `p` over `n` games. Unlike the normal
/// approximation it stays inside 0–1 and does not shrink to a point at 0% or 100%. Shared wins
/// count as fractions, which only widens it a little (their variance is below p(1 − p)).
fn wilson(p: f64, n: f64) -> [f64; 2] {
    const Z: f64 = 1.96;
    let z2n = Z * Z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = Z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

fn print_summary(s: &Summary, out: &mut Out) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{} games of {} players, seed {}{}",
        s.games,
        s.players,
        s.seed,
        s.budget
            .map(|b| format!(", budget {b}"))
            .unwrap_or_default()
    )?;
    writeln!(
        out,
        "{:<8} {:>8} {:>9} {:>17} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "agent",
        "wins",
        "win rate",
        "95% CI",
        "mean score",
        "ms/move",
        "max ms",
        "cpu ms",
        "max cpu"
    )?;
    for a in &s.agents {
        writeln!(
            out,
            "{:<8} {:>8.1} {:>8.1}% {:>7.1}% - {:>5.1}% {:>10.2} {:>10.2} {:>10.1} {:>10.2} {:>10.1}",
            a.agent,
            a.wins,
            100.0 * a.win_rate,
            100.0 * a.ci95[0],
            100.0 * a.ci95[1],
            a.mean_score,
            a.ms_per_move,
            a.max_ms_per_move,
            a.cpu_ms_per_move,
            a.max_cpu_ms_per_move
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let [lo, hi] = wilson(1.0, 1000.0);
        assert!((lo - 0.99618).abs() < 1e-4 && hi == 1.0, "{lo} {hi}");
        let [lo, hi] = wilson(0.5, 100.0);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let [lo, hi] = wilson(0.0, 10.0);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn seats_rotate_so_every_agent_starts_equally_often() {
        for n in 2..=6 {
            let mut starts = vec![0; n];
            for game in 0..6 * n {
                let seating: Vec<usize> = (0..n).map(|s| agent_in_seat(s, game, n)).collect();
                let mut sorted = seating.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>());
                starts[seating[0]] += 1;
                assert_eq!(agent_in_seat((game + 1) % n, game, n), 1 % n);
            }
            assert!(starts.iter().all(|&s| s == 6), "{starts:?}");
        }
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|i| game_seed(1, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
