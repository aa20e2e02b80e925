//! `tracklayer ink review`: the computer reviews games as `tracklayer ink play --json` writes
//! them, round by round.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, bail};
use railroad_ink::ai::review::{Review, review};
use railroad_ink::game::ROUNDS;
use railroad_ink::{Placement, Roll};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::play::{pool, progress};
use crate::cli_io::{Out, Outcome};

/// One game as `ink play --json` writes it (other fields are ignored).
#[derive(Deserialize)]
struct GameLine {
    dice: String,
    rounds: Vec<String>,
}

/// A game read: its rolls and each round's placements.
type Played = ([Roll; ROUNDS], Vec<Vec<Placement>>);

/// A round's placements from their text (`""` for none).
fn placements(text: &str) -> anyhow::Result<Vec<Placement>> {
    if !text.is_ascii() || !text.len().is_multiple_of(5) {
        bail!("{text:?} is not a list of 5-character placements");
    }
    (0..text.len())
        .step_by(5)
        .map(|i| {
            let one = &text[i..i + 5];
            one.parse::<Placement>()
                .with_context(|| format!("placement {one:?}"))
        })
        .collect()
}

/// A game's seven rolls from their text (56 characters).
fn rolls(text: &str) -> anyhow::Result<[Roll; ROUNDS]> {
    if !text.is_ascii() || text.len() != 8 * ROUNDS {
        bail!("dice {text:?}: a game is 7 rolls of 8 characters");
    }
    let rolls = (0..ROUNDS)
        .map(|r| {
            let one = &text[8 * r..8 * r + 8];
            one.parse::<Roll>()
                .with_context(|| format!("roll {} ({one})", r + 1))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    rolls
        .try_into()
        .map_err(|_| anyhow::anyhow!("a game is 7 rolls"))
}

/// The games of a file of `ink play --json` lines; lines with no `dice` (the summary) and
/// empty lines are skipped.
fn read_games(text: &str) -> anyhow::Result<Vec<Played>> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("line {}: not JSON", n + 1))?;
        if value.get("dice").is_none() {
            continue;
        }
        let game: GameLine = serde_json::from_value(value)
            .with_context(|| format!("line {}: a game needs dice and rounds", n + 1))?;
        let rolls = rolls(&game.dice).with_context(|| format!("line {}", n + 1))?;
        let rounds = game
            .rounds
            .iter()
            .map(|r| placements(r))
            .collect::<anyhow::Result<Vec<_>>>()
            .with_context(|| format!("line {}", n + 1))?;
        games.push((rolls, rounds));
    }
    Ok(games)
}

#[derive(Serialize)]
struct ReviewLine<'a> {
    game: usize,
    seat: usize,
    #[serde(flatten)]
    review: &'a Review,
}

#[derive(Serialize)]
struct ErrorLine {
    game: usize,
    error: String,
}

/// `tracklayer ink review`.
pub fn run(
    file: &Path,
    budget: Option<u32>,
    json: bool,
    threads: Option<usize>,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    let mut text = String::new();
    if file == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
    } else {
        text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    }
    let games = read_games(&text)?;
    let bar = progress(games.len(), "review");
    let reviews: Vec<_> = pool(threads)?.install(|| {
        games
            .par_iter()
            .map(|(rolls, rounds)| {
                let r = review(rolls, rounds, budget);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut all_ok = true;
    for (game, result) in reviews.iter().enumerate() {
        match result {
            Ok(review) if json => out.json(&ReviewLine {
                game,
                seat: 0,
                review,
            })?,
            Ok(review) => {
                writeln!(
                    out,
                    "game {game}: {:.2} points lost; final score {}",
                    review.loss, review.score
                )?;
                for r in &review.rounds {
                    writeln!(
                        out,
                        "  round {}: {:<10} lost {:>5.2}  played {} ({:.2}), best {} ({:.2})\n    {}",
                        r.round,
                        r.label.as_str(),
                        r.loss,
                        text_of(&r.played),
                        r.value_played,
                        text_of(&r.best),
                        r.value_best,
                        r.reason.text
                    )?;
                }
            }
            Err(e) => {
                all_ok = false;
                if json {
                    out.json(&ErrorLine {
                        game,
                        error: e.to_string(),
                    })?;
                } else {
                    writeln!(out, "game {game}: {e}")?;
                }
            }
        }
    }
    Ok(Outcome::from_all_accepted(all_ok))
}

fn text_of(placements: &[Placement]) -> String {
    placements.iter().map(ToString::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_and_the_summary_skipped() {
        let text = concat!(
            r#"{"game":0,"dice":"A1A4A0B2A4A2A2B1A1A1A1B0A2A2A3B2A1A0A4B1A3A3A2B1A0A4A0B2","rounds":["A4A10",""]}"#,
            "\n\n",
            r#"{"games":1,"mean":1.0}"#,
            "\n"
        );
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].1.len(), 2);
        assert_eq!(games[0].1[0].len(), 1);
        assert!(games[0].1[1].is_empty());
        assert!(read_games(r#"{"dice":"A1","rounds":[]}"#).is_err());
        assert!(read_games("not json").is_err());
        assert!(placements("A4A1").is_err());
        assert!(placements("ÅÅA10").is_err());
    }
}
