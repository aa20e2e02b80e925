//! `tracklayer ink play` and `tracklayer ink versus`: computer players over many games.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use railroad_ink::ai::{AGENTS, Agent, RoundView, agent_with_budget};
use railroad_ink::game::{Action, Dice, Game, ROUNDS, Setup};
use railroad_ink::{Expansion, Roll, Score};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::cli_io::{Out, Outcome, thread_cpu_time};

/// Where the games' dice come from.
#[derive(Debug, Args)]
pub struct DiceArgs {
    /// The Deep Blue expansion: none, lake or river (6 rounds of 6 dice; a dice file then
    /// holds 6 rolls of 12 characters a line).
    #[arg(long, default_value = "none")]
    pub expansion: Expansion,
    /// A file with one game a line: 7 rolls concatenated (56 characters).
    #[arg(long, conflicts_with_all = ["seed", "games"], required_unless_present = "games")]
    dice: Option<PathBuf>,
    /// Seed for making the dice instead of reading a file (with --games).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many games of dice to make from --seed.
    #[arg(long)]
    games: Option<usize>,
}

/// Options shared by `play` and `versus`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Search effort of the computer players (deterministic work, not time); default for
    /// `strong`: 128, about 5.2 CPU-seconds a game (58.06 over the 1,000 games of
    /// `docs/computer-players.md`); `--budget 64` scores within noise of it (58.11) in a sixth
    /// of the time.
    #[arg(long)]
    budget: Option<u32>,
    /// One JSON object a game, then a summary line.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

/// The dice of `games` games from one seed (the same seed, the same file): 6 rolls of 6 dice a game with an
/// expansion (the seventh roll repeats the sixth and is never played).
pub fn make_dice_in(seed: u64, games: usize, expansion: Expansion) -> Vec<[Roll; ROUNDS]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if expansion == Expansion::None {
        return (0..games)
            .map(|_| [(); ROUNDS].map(|_| Roll::random(&mut rng)))
            .collect();
    }
    (0..games)
        .map(|_| {
            let mut rolls = [(); ROUNDS].map(|_| Roll::new([0; 3], 0).expect("a roll"));
            for roll in rolls.iter_mut().take(expansion.rounds()) {
                *roll = Roll::random_in(&mut rng, expansion);
            }
            rolls[ROUNDS - 1] = rolls[ROUNDS - 2];
            rolls
        })
        .collect()
}

/// Parses a dice file: one game a line, its rolls back to back: 7 rolls of 8 characters in the
/// base game, 6 of 12 in a game of an expansion (whose unplayed seventh roll repeats its sixth).
pub fn read_dice_in(text: &str, expansion: Expansion) -> anyhow::Result<Vec<[Roll; ROUNDS]>> {
    let rounds = expansion.rounds();
    let (width, game) = match expansion {
        Expansion::None => (8, "a game".to_owned()),
        _ => (12, format!("a game with the {expansion} expansion")),
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != width * rounds {
            bail!(
                "line {}: {game} is {rounds} rolls of {width} characters ({}), got {} characters",
                n + 1,
                width * rounds,
                chars.len()
            );
        }
        let mut rolls = [(); ROUNDS].map(|_| Roll::new([0; 3], 0).expect("a roll"));
        for (r, chunk) in chars.chunks(width).enumerate() {
            let text: String = chunk.iter().collect();
            rolls[r] = Roll::parse_in(&text, expansion)
                .with_context(|| format!("line {}, roll {} ({text})", n + 1, r + 1))?;
        }
        if rounds < ROUNDS {
            rolls[ROUNDS - 1] = rolls[ROUNDS - 2];
        }
        out.push(rolls);
    }
    if out.is_empty() {
        bail!("the dice file holds no game");
    }
    Ok(out)
}

impl DiceArgs {
    fn load(&self) -> anyhow::Result<Vec<[Roll; ROUNDS]>> {
        match (&self.dice, self.games) {
            (Some(path), _) => {
                let text = fs::read_to_string(path)
                    .with_context(|| format!("reading the dice file {}", path.display()))?;
                read_dice_in(&text, self.expansion)
            }
            (None, Some(games)) => Ok(make_dice_in(self.seed, games, self.expansion)),
            (None, None) => bail!("give --dice FILE, or --seed S --games G"),
        }
    }
}

/// The rolls a game plays, concatenated: 7 in the base game, 6 with an expansion.
fn dice_text(rolls: &[Roll; ROUNDS]) -> String {
    let rounds = rolls[0].expansion().rounds();
    rolls[..rounds].iter().map(ToString::to_string).collect()
}

/// A seed for an agent's own randomness, from its game's dice: reproducible and independent
/// of the thread that plays it.
fn agent_seed(rolls: &[Roll; ROUNDS], salt: u64) -> u64 {
    dice_text(rolls)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325 ^ salt, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        })
}

fn check_agent(name: &str) -> anyhow::Result<()> {
    if AGENTS.contains(&name) {
        Ok(())
    } else {
        bail!(
            "unknown agent {name:?}: choose one of {}",
            AGENTS.join(", ")
        )
    }
}

/// Plays one seat of a game with its own agent on shared rolls; every action goes through the
/// game's rules.
fn play_seat(agent: &mut dyn Agent, game: &mut Game, seat: usize) -> anyhow::Result<()> {
    game.player(seat)?;
    let view = RoundView::of(game, seat).context("the game is over")?;
    for placement in agent.play_round(&view) {
        game.act(seat, Action::Place { placement })
            .with_context(|| format!("{} played {placement}", agent.name()))?;
    }
    game.act(seat, Action::EndRound)
        .with_context(|| format!("{} ended its round early", agent.name()))?;
    Ok(())
}

/// Plays a game with one agent per seat on the given rolls.
fn play_game(names: &[&str], budget: Option<u32>, rolls: [Roll; ROUNDS]) -> anyhow::Result<Game> {
    let mut agents: Vec<Box<dyn Agent + Send>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            agent_with_budget(n, agent_seed(&rolls, i as u64), budget).expect("checked agent")
        })
        .collect();
    let mut game = Game::with_expansion(
        Setup {
            players: names.len(),
            dice: Dice::Fixed(rolls),
        },
        rolls[0].expansion(),
    );
    while !game.is_finished() {
        for (seat, agent) in agents.iter_mut().enumerate() {
            play_seat(agent.as_mut(), &mut game, seat)?;
        }
    }
    Ok(game)
}

pub(super) fn progress(games: usize, label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} {bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left",
        )
        .expect("a valid template"),
    );
    bar.set_message(label.to_owned());
    bar
}

pub(super) fn pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n.max(1));
    }
    Ok(builder.build()?)
}

#[derive(Serialize)]
struct PlayLine {
    game: usize,
    dice: String,
    rounds: Vec<String>,
    board: String,
    advanced: i32,
    basic: i32,
    /// The lake or river points (included in `advanced`), in an expansion game.
    #[serde(skip_serializing_if = "Option::is_none")]
    expansion: Option<i32>,
    /// Wall-clock time of the game.
    ms: f64,
    /// CPU time of the game (the thread's own; does not count waiting for a core).
    cpu_ms: f64,
}

#[derive(Serialize)]
pub struct Summary {
    pub games: usize,
    pub mean: f64,
    pub sd: f64,
    pub min: i32,
    pub max: i32,
    pub p10: i32,
    pub p50: i32,
    pub p90: i32,
    pub ms_per_game: f64,
    pub cpu_ms_per_game: f64,
}

/// Mean, spread and percentiles of scores (nearest-rank percentiles).
pub fn summarize(scores: &[i32], total_ms: f64, total_cpu_ms: f64) -> Summary {
    let n = scores.len().max(1);
    let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / n as f64;
    let sd = (scores
        .iter()
        .map(|&s| (s as f64 - mean).powi(2))
        .sum::<f64>()
        / n as f64)
        .sqrt();
    let mut sorted = scores.to_vec();
    sorted.sort_unstable();
    let pct = |p: f64| {
        sorted
            .get(((p * n as f64).ceil() as usize).clamp(1, n) - 1)
            .copied()
            .unwrap_or(0)
    };
    Summary {
        games: scores.len(),
        mean,
        sd,
        min: sorted.first().copied().unwrap_or(0),
        max: sorted.last().copied().unwrap_or(0),
        p10: pct(0.10),
        p50: pct(0.50),
        p90: pct(0.90),
        ms_per_game: total_ms / n as f64,
        cpu_ms_per_game: total_cpu_ms / n as f64,
    }
}

/// `tracklayer ink play`.
pub fn play(agent: &str, dice: &DiceArgs, run: &RunArgs, out: &mut Out) -> anyhow::Result<Outcome> {
    check_agent(agent)?;
    let all = dice.load()?;
    let bar = progress(all.len(), agent);
    let results: Vec<anyhow::Result<(Game, f64, f64)>> = pool(run.threads)?.install(|| {
        all.par_iter()
            .map(|&rolls| {
                let (start, cpu) = (Instant::now(), thread_cpu_time());
                let game = play_game(&[agent], run.budget, rolls)?;
                bar.inc(1);
                let cpu_ms = (thread_cpu_time().saturating_sub(cpu)).as_secs_f64() * 1000.0;
                Ok((game, start.elapsed().as_secs_f64() * 1000.0, cpu_ms))
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut scores = Vec::with_capacity(results.len());
    let mut total_ms = 0.0;
    let mut total_cpu_ms = 0.0;
    for (i, (result, rolls)) in results.into_iter().zip(&all).enumerate() {
        let (game, ms, cpu_ms) = result.with_context(|| format!("game {i}"))?;
        let player = game.player(0)?;
        let s: Score = player.board().score();
        scores.push(s.advanced);
        total_ms += ms;
        total_cpu_ms += cpu_ms;
        let line = PlayLine {
            game: i,
            dice: dice_text(rolls),
            rounds: player
                .rounds()
                .iter()
                .map(|r| r.iter().map(ToString::to_string).collect())
                .collect(),
            board: player.board().to_string(),
            advanced: s.advanced,
            basic: s.basic,
            expansion: (player.board().expansion() != Expansion::None).then_some(s.expansion),
            ms: (ms * 10.0).round() / 10.0,
            cpu_ms: (cpu_ms * 10.0).round() / 10.0,
        };
        if run.json {
            out.json(&line)?;
        } else {
            writeln!(
                out,
                "game {i:>4}: advanced {:>3} (basic {:>3}) in {:>7.1} ms  {}",
                s.advanced, s.basic, ms, line.board
            )?;
        }
    }
    let summary = summarize(&scores, total_ms, total_cpu_ms);
    if run.json {
        out.json(&summary)?;
    } else {
        print_summary(agent, &summary, out)?;
    }
    Ok(Outcome::Accepted)
}

fn print_summary(agent: &str, s: &Summary, out: &mut Out) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{agent}: {} games", s.games)?;
    writeln!(
        out,
        "  mean {:.2} (sd {:.2}, standard error {:.2})",
        s.mean,
        s.sd,
        s.sd / (s.games.max(1) as f64).sqrt()
    )?;
    writeln!(
        out,
        "  min {}  p10 {}  median {}  p90 {}  max {}",
        s.min, s.p10, s.p50, s.p90, s.max
    )?;
    writeln!(
        out,
        "  {:.1} ms a game ({:.1} ms of CPU)",
        s.ms_per_game, s.cpu_ms_per_game
    )
}

#[derive(Serialize)]
struct VersusLine {
    game: usize,
    dice: String,
    agents: Vec<String>,
    boards: Vec<String>,
    scores: Vec<i32>,
    errors: Vec<i32>,
    winners: Vec<usize>,
}

#[derive(Serialize)]
struct VersusSummary {
    games: usize,
    agents: Vec<String>,
    /// Wins per agent, a shared win counting 1/k for each of k winners.
    wins: Vec<f64>,
    win_rate: Vec<f64>,
    mean: Vec<f64>,
}

/// `tracklayer ink versus`: agents play competitive games on shared dice.
pub fn versus(
    agents: &[String],
    dice: &DiceArgs,
    run: &RunArgs,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    if agents.len() < 2 {
        bail!("give at least two agents, like --agents greedy,strong");
    }
    for a in agents {
        check_agent(a)?;
    }
    let names: Vec<&str> = agents.iter().map(String::as_str).collect();
    let all = dice.load()?;
    let bar = progress(all.len(), "versus");
    let results: Vec<anyhow::Result<Game>> = pool(run.threads)?.install(|| {
        all.par_iter()
            .map(|&rolls| {
                let game = play_game(&names, run.budget, rolls);
                bar.inc(1);
                game
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut wins = vec![0.0; agents.len()];
    let mut totals = vec![0.0; agents.len()];
    for (i, (result, rolls)) in results.into_iter().zip(&all).enumerate() {
        let game = result.with_context(|| format!("game {i}"))?;
        let scores = game.scores();
        let winners = game.winners();
        for &w in &winners {
            wins[w] += 1.0 / winners.len() as f64;
        }
        for (t, s) in totals.iter_mut().zip(&scores) {
            *t += s.advanced as f64;
        }
        let line = VersusLine {
            game: i,
            dice: dice_text(rolls),
            agents: agents.to_vec(),
            boards: game
                .players()
                .iter()
                .map(|p| p.board().to_string())
                .collect(),
            scores: scores.iter().map(|s| s.advanced).collect(),
            errors: scores.iter().map(|s| s.errors).collect(),
            winners: winners.clone(),
        };
        if run.json {
            out.json(&line)?;
        } else {
            let shown: Vec<String> = agents
                .iter()
                .zip(&line.scores)
                .map(|(a, s)| format!("{a} {s}"))
                .collect();
            let won: Vec<&str> = winners.iter().map(|&w| agents[w].as_str()).collect();
            writeln!(
                out,
                "game {i:>4}: {}  → {}",
                shown.join(", "),
                won.join(" and ")
            )?;
        }
    }
    let n = all.len() as f64;
    let summary = VersusSummary {
        games: all.len(),
        agents: agents.to_vec(),
        win_rate: wins.iter().map(|w| w / n).collect(),
        wins,
        mean: totals.iter().map(|t| t / n).collect(),
    };
    if run.json {
        out.json(&summary)?;
    } else {
        writeln!(out)?;
        for (i, a) in agents.iter().enumerate() {
            writeln!(
                out,
                "{a:>8}: wins {:.1} of {} ({:.1}%), mean score {:.2}",
                summary.wins[i],
                summary.games,
                100.0 * summary.win_rate[i],
                summary.mean[i]
            )?;
        }
    }
    Ok(Outcome::Accepted)
}

/// `tracklayer ink dice`: prints a dice file.
pub fn print_dice(
    seed: u64,
    games: usize,
    expansion: Expansion,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    for rolls in make_dice_in(seed, games, expansion) {
        writeln!(out, "{}", dice_text(&rolls))?;
    }
    Ok(Outcome::Accepted)
}
