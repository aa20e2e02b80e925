//! Trains the n-tuple evaluation (`ai/ntuple.rs`) by TD(λ) self-play on round afterstates,
//! resuming from its checkpoint.
//!
//! `cargo run --release -p railroad-ink --example train_ntuple -- GAMES`
//!
//! Trains until the checkpoint has seen GAMES self-play games. Settings by environment:
//! `CKPT` (default `ntuple-ckpt/ntuple.bin` in the current folder, ignored by git; `…-best.bin`
//! beside it keeps the best validated weights), `SEED` (1: training game `g` rolls dice seed
//! `1_000_000_000 + SEED × 100_000_000 + g`), `BUDGET` (8: the strong player's budget in
//! self-play), `ALPHA` (0.2), `LAMBDA` (0.5), `BATCH` (16 games a weight update), `THREADS`
//! (2), `EVERY` (1,000 games between checkpoints and validations), `KEEP=1` (also keep each
//! checkpoint as `…-GAMES.bin`, for `--average`), `VALIDATION` (200 games on
//! dice seeds `900_000_000 + i`, played at `VAL_BUDGET`, default 8), `STOP_AFTER` (seconds:
//! stop after the batch that passes it, saving the checkpoint, for a lent machine's time). A
//! progress bar shows on a terminal only; each validation prints a line.
//!
//! `… train_ntuple -- --export CKPT OUT` writes a checkpoint's weights compactly (those not
//! zero) for `src/ai/ntuple-weights.bin`, which the strong player embeds.
//!
//! `… train_ntuple -- --average OUT CKPT…` writes the mean of several checkpoints, weight by
//! weight, as a checkpoint (`docs/computer-players.md` has what averaging measured).

mod common;

use std::sync::Arc;
use std::time::Instant;

use common::env;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use railroad_ink::ai::ntuple::{self, NTuple, TdConfig, WEIGHTS};

fn save(nt: &NTuple, path: &str) {
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, nt.to_bytes()).expect("write the checkpoint");
    std::fs::rename(&tmp, path).expect("move the checkpoint into place");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let command = args.get(1).map(String::as_str);
    if matches!(command, Some("--average" | "--export")) && args.len() < 4 {
        eprintln!(
            "usage: train_ntuple --export CKPT OUT | --average OUT CKPT [CKPT…] | GAMES \
             (the module doc lists the settings)"
        );
        std::process::exit(2);
    }
    if command == Some("--average") {
        let tables: Vec<NTuple> = args[3..]
            .iter()
            .map(|p| {
                NTuple::from_bytes(&std::fs::read(p).expect("a checkpoint"))
                    .expect("a checkpoint of this layout")
            })
            .collect();
        let mean = NTuple::mean(&tables).expect("at least one checkpoint");
        save(&mean, &args[2]);
        println!(
            "the mean of {} checkpoints ({} games at most): {}",
            tables.len(),
            mean.games,
            args[2]
        );
        return;
    }
    if let (Some("--export"), Some(from), Some(to)) = (command, args.get(2), args.get(3)) {
        let nt = NTuple::from_bytes(&std::fs::read(from).expect("a checkpoint"))
            .expect("a checkpoint of this layout");
        let bytes = nt.to_sparse_bytes();
        std::fs::write(to, &bytes).expect("write the weights");
        println!(
            "{} games, {} weights not zero: {} bytes",
            nt.games,
            nt.nonzero(),
            bytes.len()
        );
        return;
    }
    let target: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let path = std::env::var("CKPT").unwrap_or_else(|_| "ntuple-ckpt/ntuple.bin".into());
    let best_path = path.replace(".bin", "-best.bin");
    if let Some(dir) = std::path::Path::new(&path).parent() {
        std::fs::create_dir_all(dir).expect("the checkpoint's folder");
    }
    let seed: u64 = env("SEED").unwrap_or(1);
    let cfg = TdConfig {
        budget: env("BUDGET").unwrap_or(8),
        alpha: env("ALPHA").unwrap_or(0.2),
        lambda: env("LAMBDA").unwrap_or(0.5),
        batch: env("BATCH").unwrap_or(16),
        threads: env("THREADS").unwrap_or(2),
    };
    let every: u64 = env("EVERY").unwrap_or(1_000);
    let keep = env::<u8>("KEEP").is_some_and(|k| k != 0);
    let val_games: u64 = env("VALIDATION").unwrap_or(200);
    let val_budget: u32 = env("VAL_BUDGET").unwrap_or(8);
    let val_seeds: Vec<u64> = (0..val_games).map(|i| 900_000_000 + i).collect();

    let mut nt = Arc::new(match std::fs::read(&path) {
        Ok(bytes) => NTuple::from_bytes(&bytes).expect("a checkpoint of this layout"),
        Err(_) => NTuple::new(),
    });
    println!(
        "n-tuple: {WEIGHTS} weights ({:.1} MB as f32), {} games trained; {cfg:?}, seed {seed}",
        WEIGHTS as f64 * 4.0 / 1e6,
        nt.games
    );
    let validate = |nt: &Arc<NTuple>| {
        ntuple::mean_score(Some(Arc::clone(nt)), val_budget, &val_seeds, cfg.threads)
    };
    let mut best = match std::fs::read(&best_path) {
        Ok(_) => f64::NEG_INFINITY,
        Err(_) => {
            let v = validate(&nt);
            println!(
                "games {:>7}  validation {v:.2} ({val_games} games, budget {val_budget})",
                nt.games
            );
            v
        }
    };
    let bar = ProgressBar::with_draw_target(Some(target), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta} {msg}")
            .expect("a template"),
    );
    bar.set_position(nt.games.min(target));
    let start = Instant::now();
    let stop_after: Option<f64> = env("STOP_AFTER");
    let out_of_time = || stop_after.is_some_and(|s| start.elapsed().as_secs_f64() > s);
    while nt.games < target && !out_of_time() {
        let chunk_end = ((nt.games / every + 1) * every).min(target);
        let mut scores = Vec::new();
        while nt.games < chunk_end && !out_of_time() {
            let first = nt.games;
            let n = (cfg.batch as u64).min(chunk_end - first);
            let seeds: Vec<u64> = (first..first + n)
                .map(|g| 1_000_000_000 + seed * 100_000_000 + g)
                .collect();
            scores.extend(ntuple::train(&mut nt, &seeds, &cfg));
            bar.set_position(nt.games);
        }
        save(&nt, &path);
        if keep {
            save(&nt, &path.replace(".bin", &format!("-{}.bin", nt.games)));
        }
        let v = validate(&nt);
        if v > best {
            best = v;
            save(&nt, &best_path);
        }
        let mean = scores.iter().map(|&s| s as f64).sum::<f64>() / scores.len().max(1) as f64;
        bar.suspend(|| {
            println!(
                "games {:>7}  self-play mean {mean:.2}  validation {v:.2}  non-zero weights {}  {:.0} s",
                nt.games,
                nt.nonzero(),
                start.elapsed().as_secs_f64()
            )
        });
    }
    bar.finish_and_clear();
}
