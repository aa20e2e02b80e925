//! `tracklayer ink …`: the Railroad Ink engine on the command line.

use clap::Subcommand;
use railroad_ink::score::Breakdown;
use railroad_ink::{
    Board, BoardError, Expansion, Placement, Roll, Sequence, SequenceError, generate_move,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use std::io::Write;

use crate::cli_io::{NotUtf8, Out, Outcome, each_input, warn};

mod play;
mod review;
mod view;

#[derive(Debug, Subcommand)]
pub enum InkCommand {
    /// Check board strings: well-formed (§5.2) and valid (§6.2), naming the broken rule.
    #[command(
        after_help = "Examples:\n  tracklayer ink check A4A10A4B10\n  tracklayer ink check --json A1A30A4B30\n  tracklayer ink check --expansion river V0A01V0A11\n  cat boards.txt | tracklayer ink check --json -"
    )]
    Check {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// Print one JSON object per input.
        #[arg(long)]
        json: bool,
        /// A board string, or `-` to read one per line from standard input.
        board: String,
    },
    /// Score board strings (§7): exit points, centre, errors, longest routes.
    #[command(
        after_help = "Examples:\n  tracklayer ink score A4A10A4B10A4C10A4D10A4E10A4F10A4G10\n  tracklayer ink score --json A4A10\n  tracklayer ink score --expansion lake L0C30L0D23L0D41\n  cat boards.txt | tracklayer ink score --json -"
    )]
    Score {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// Print one JSON object per input.
        #[arg(long)]
        json: bool,
        /// A board string, or `-` to read one per line from standard input.
        board: String,
    },
    /// Whether two placements are connected neighbours (§6.3): prints true or false.
    #[command(after_help = "Example:\n  tracklayer ink connected A3C10 A3C23     # true")]
    Connected {
        /// The first placement, like A3C10.
        a: String,
        /// The second placement.
        b: String,
    },
    /// Roll the dice (§5.3): three die-A results and one die-B result a line (and two
    /// expansion dice with --expansion).
    #[command(
        after_help = "Examples:\n  tracklayer ink roll\n  tracklayer ink roll --seed 42 --count 7   # the rolls of the game with seed 42\n  tracklayer ink roll --expansion river     # like A1A4A4B0V1V3"
    )]
    Roll {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// Seed of the random number generator: the same seed gives the same rolls.
        #[arg(long)]
        seed: Option<u64>,
        /// How many rolls.
        #[arg(long, default_value_t = 1)]
        count: usize,
    },
    /// Generate one round's placements for a board and a roll (§8, the reference strategy).
    #[command(
        after_help = "Examples:\n  tracklayer ink move '' A1A4A4B0\n  tracklayer ink move --json A4A10A4B10 A1A1A0B1\n  tracklayer ink move --expansion lake L0C30 A1A4A4B0L0L3   # expansion dice are optional"
    )]
    Move {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// Print a JSON object.
        #[arg(long)]
        json: bool,
        /// A valid board string (`''` for the empty board).
        board: String,
        /// The roll, like A1A4A4B0.
        dice: String,
    },
    /// Play many solo games with a computer player and report the scores.
    #[command(
        after_help = "Examples:\n  tracklayer ink play --agent strong --seed 1 --games 100\n  tracklayer ink play --agent strong --expansion river --seed 1 --games 100\n  tracklayer ink dice --seed 7 --games 1000 > dice.txt\n  tracklayer ink play --agent greedy --dice dice.txt --json > games.jsonl"
    )]
    Play {
        /// The computer player: random, greedy or strong.
        #[arg(long)]
        agent: String,
        #[command(flatten)]
        dice: play::DiceArgs,
        #[command(flatten)]
        run: play::RunArgs,
    },
    /// Computer players in competitive games on shared dice (winner: highest advanced score,
    /// then fewest errors).
    #[command(
        after_help = "Example:\n  tracklayer ink versus --agents greedy,strong --seed 1 --games 100"
    )]
    Versus {
        /// Two or more computer players, comma separated.
        #[arg(long, value_delimiter = ',')]
        agents: Vec<String>,
        #[command(flatten)]
        dice: play::DiceArgs,
        #[command(flatten)]
        run: play::RunArgs,
    },
    /// Review games round by round: what was placed against what the strong player would
    /// have placed on the same board with the same dice, the expected final score after each,
    /// points lost and a label (best, good, inaccuracy, mistake, blunder).
    #[command(
        after_help = "Reads games as `tracklayer ink play --json` writes them (one object a line with dice\nand rounds; the summary line is skipped). Exit status 1 when a game breaks the rules.\n\nExamples:\n  tracklayer ink play --agent greedy --seed 1 --games 10 --json > games.jsonl\n  tracklayer ink review --json games.jsonl\n  tracklayer ink play --agent greedy --seed 1 --games 1 --json | tracklayer ink review -"
    )]
    Review {
        /// One JSON object a game: the API's review plus its `game` number.
        #[arg(long)]
        json: bool,
        /// The strong player's search effort (default 48, about 1 CPU-second a game at most).
        #[arg(long)]
        budget: Option<u32>,
        /// Worker threads (default: all cores). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// A file of games, or `-` for standard input.
        file: std::path::PathBuf,
    },
    /// Draw a board in the terminal, with its score breakdown below.
    #[command(
        after_help = "Examples:\n  tracklayer ink view A4A10A4B10A4C10A4D10A4E10A4F10A4G10\n  tracklayer ink view --expansion lake L0C30L0D23L0D41"
    )]
    View {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// A valid board string, or `-` to read one per line from standard input.
        board: String,
    },
    /// Print a dice file: one game a line, 7 rolls concatenated (6 rolls of 12 characters,
    /// 72 a line, with --expansion).
    #[command(
        after_help = "Examples:\n  tracklayer ink dice --seed 7 --games 1000 > dice.txt\n  tracklayer ink dice --expansion lake --seed 7 --games 1000 > lake-dice.txt"
    )]
    Dice {
        /// The Deep Blue expansion: none, lake or river.
        #[arg(long, default_value = "none")]
        expansion: Expansion,
        /// Seed of the random number generator.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How many games.
        #[arg(long, default_value_t = 1)]
        games: usize,
    },
}

pub fn run(cmd: InkCommand, out: &mut Out) -> anyhow::Result<Outcome> {
    match cmd {
        InkCommand::Check {
            json,
            board,
            expansion,
        } => check(&board, json, expansion, out),
        InkCommand::Score {
            json,
            board,
            expansion,
        } => score(&board, json, expansion, out),
        InkCommand::Connected { a, b } => connected(&a, &b, out),
        InkCommand::Roll {
            seed,
            count,
            expansion,
        } => roll(seed, count, expansion, out),
        InkCommand::Move {
            json,
            board,
            dice,
            expansion,
        } => make_move(&board, &dice, json, expansion, out),
        InkCommand::Play { agent, dice, run } => play::play(&agent, &dice, &run, out),
        InkCommand::Versus { agents, dice, run } => play::versus(&agents, &dice, &run, out),
        InkCommand::Dice {
            seed,
            games,
            expansion,
        } => play::print_dice(seed, games, expansion, out),
        InkCommand::View { board, expansion } => view_boards(&board, expansion, out),
        InkCommand::Review {
            json,
            budget,
            threads,
            file,
        } => review::run(&file, budget, json, threads, out),
    }
}

#[derive(Serialize)]
struct CheckError {
    index: Option<usize>,
    placement: Option<String>,
    message: String,
}

#[derive(Serialize)]
struct CheckLine<'a> {
    board: &'a str,
    well_formed: bool,
    valid: bool,
    error: Option<CheckError>,
}

/// The characters of placement `index` of a board string, as far as they go.
fn chunk(text: &str, index: usize) -> String {
    text.chars().skip(index * 5).take(5).collect()
}

fn check_error(text: &str, err: &BoardError) -> CheckError {
    let index = err.index();
    let placement = match err {
        BoardError::Malformed(SequenceError::Empty) => None,
        BoardError::Malformed(e) => Some(
            e.placement()
                .map_or_else(|| chunk(text, e.index().unwrap_or(0)), str::to_owned),
        ),
        BoardError::Illegal(e) => Some(e.placement.to_string()),
    };
    let message = match err {
        BoardError::Malformed(e) => format!("not well-formed: {}", e.reason()),
        BoardError::Illegal(e) => format!("{} (rule: {})", e.reason, e.reason.rule()),
    };
    CheckError {
        index,
        placement,
        message,
    }
}

/// The error of a line of standard input that is not UTF-8: a malformed board string, at the
/// placement that holds the first invalid byte.
fn not_utf8_error(bad: &NotUtf8) -> CheckError {
    let index = bad.chars_before / 5;
    CheckError {
        index: Some(index),
        placement: Some(bad.lossy_chars(index * 5, 5)),
        message: format!("not well-formed: {bad}"),
    }
}

fn check(arg: &str, json: bool, expansion: Expansion, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, well_formed, result) = match input {
            Ok(text) => (
                text,
                Sequence::parse_in(text, expansion).is_ok(),
                Board::parse_in(text, expansion)
                    .map(|b| b.len())
                    .map_err(|e| check_error(text, &e)),
            ),
            Err(bad) => (bad.lossy.as_str(), false, Err(not_utf8_error(bad))),
        };
        let valid = result.is_ok();
        if json {
            out.json(&CheckLine {
                board: text,
                well_formed,
                valid,
                error: result.err(),
            })?;
            return Ok(valid);
        }
        let shown = shown(text);
        match result {
            Ok(len) => {
                let form = if well_formed {
                    "well-formed"
                } else {
                    "not well-formed as a board string"
                };
                writeln!(out, "{shown}: valid, {form}, {len} placements")?;
            }
            Err(e) if many => writeln!(out, "{shown}: invalid: {}", describe(&e))?,
            Err(e) => {
                writeln!(out, "{shown}")?;
                writeln!(
                    out,
                    "  well-formed: {}",
                    if well_formed { "yes" } else { "no" }
                )?;
                writeln!(out, "  valid:       no")?;
                writeln!(out, "  {}", describe(&e))?;
            }
        }
        Ok(valid)
    })
}

/// A board string for a person: the empty board is named, not left blank.
fn shown(text: &str) -> &str {
    if text.is_empty() {
        "\"\" (the empty board)"
    } else {
        text
    }
}

fn describe(e: &CheckError) -> String {
    match (&e.index, &e.placement) {
        (Some(i), Some(p)) => format!("placement {i} ({p}): {}", e.message),
        _ => e.message.clone(),
    }
}

#[derive(Serialize)]
struct ScoreLine<'a> {
    board: &'a str,
    basic: i32,
    advanced: i32,
    exits: i32,
    centre: i32,
    errors: i32,
    longest_highway: i32,
    longest_railway: i32,
    /// The lake or river points (included in `advanced`), in an expansion game.
    #[serde(skip_serializing_if = "Option::is_none")]
    expansion: Option<i32>,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    board: &'a str,
    error: String,
}

fn score(arg: &str, json: bool, expansion: Expansion, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, parsed) = match input {
            Ok(text) => (
                text,
                Board::parse_in(text, expansion).map_err(|e| match e.index() {
                    Some(_) => describe(&check_error(text, &e)),
                    None => check_error(text, &e).message,
                }),
            ),
            Err(bad) => (bad.lossy.as_str(), Err(describe(&not_utf8_error(bad)))),
        };
        let board = match parsed {
            Ok(b) => b,
            Err(error) => {
                if json {
                    out.json(&ErrorLine { board: text, error })?;
                } else {
                    writeln!(out, "{}: cannot score: {error}", shown(text))?;
                }
                return Ok(false);
            }
        };
        let s = board.score();
        if json {
            out.json(&ScoreLine {
                board: text,
                basic: s.basic,
                advanced: s.advanced,
                exits: s.exits,
                centre: s.centre,
                errors: s.errors,
                longest_highway: s.longest_highway,
                longest_railway: s.longest_railway,
                expansion: (expansion != Expansion::None).then_some(s.expansion),
            })?;
        } else if many {
            let extra = match expansion {
                Expansion::None => String::new(),
                e => format!(" + {e} {}", s.expansion),
            };
            writeln!(
                out,
                "{}: advanced {} = basic {} (exits {} + centre {} − errors {}) + longest highway {} + longest railway {}{extra}",
                shown(text),
                s.advanced,
                s.basic,
                s.exits,
                s.centre,
                s.errors,
                s.longest_highway,
                s.longest_railway
            )?;
        } else {
            out.write_all(score_table(text, &board.breakdown()).as_bytes())?;
        }
        Ok(true)
    })
}

/// The breakdown as a small table for a person.
pub fn score_table(text: &str, b: &Breakdown) -> String {
    use std::fmt::Write;
    let s = &b.score;
    let join = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    let _ = writeln!(out, "board {}", shown(text));
    let scoring: Vec<_> = b.networks.iter().filter(|n| n.exits.len() >= 2).collect();
    let _ = writeln!(out, "  exit points      {:>4}", s.exits);
    for n in &scoring {
        let exits = join(&mut n.exits.iter().map(|e| e.square.to_string()));
        let _ = writeln!(
            out,
            "    network: {} exits ({exits}) → {}",
            n.exits.len(),
            n.points
        );
    }
    let _ = writeln!(
        out,
        "  centre           {:>4}   {}",
        s.centre,
        join(&mut b.centre.iter().map(|q| q.to_string()))
    );
    let _ = writeln!(
        out,
        "  errors           {:>4}   {}",
        -s.errors,
        join(
            &mut b
                .errors
                .iter()
                .map(|e| format!("{}{}", e.square, e.side))
                .chain(
                    b.river_errors
                        .iter()
                        .map(|e| format!("{}{}", e.square, e.side))
                )
        )
    );
    let _ = writeln!(out, "  basic            {:>4}", s.basic);
    let _ = writeln!(
        out,
        "  longest highway  {:>4}   {}",
        s.longest_highway,
        join(&mut b.longest_highway.iter().map(|q| q.to_string()))
    );
    let _ = writeln!(
        out,
        "  longest railway  {:>4}   {}",
        s.longest_railway,
        join(&mut b.longest_railway.iter().map(|q| q.to_string()))
    );
    if !b.lakes.is_empty() {
        let sizes = join(&mut b.lakes.iter().map(|l| l.len().to_string()));
        let smallest = join(&mut b.lakes[0].iter().map(|q| q.to_string()));
        let _ = writeln!(
            out,
            "  lake points      {:>4}   smallest lake {smallest} (lakes: {sizes})",
            s.expansion
        );
    } else if !b.rivers.is_empty() {
        let best = &b.rivers[0];
        let squares = join(&mut best.squares.iter().map(|q| q.to_string()));
        let bonus = if best.both_ends_off {
            " + 3, both ends off the board"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  river points     {:>4}   best river {squares} ({} squares{bonus})",
            s.expansion,
            best.squares.len()
        );
    } else if s.expansion != 0 {
        let _ = writeln!(out, "  expansion        {:>4}", s.expansion);
    }
    let _ = writeln!(out, "  advanced         {:>4}", s.advanced);
    out
}

fn view_boards(arg: &str, expansion: Expansion, out: &mut Out) -> anyhow::Result<Outcome> {
    each_input(arg, out, |out, input| {
        let (text, parsed) = match input {
            Ok(text) => (
                text,
                Board::parse_in(text, expansion).map_err(|e| check_error(text, &e)),
            ),
            Err(bad) => (bad.lossy.as_str(), Err(not_utf8_error(bad))),
        };
        match parsed {
            Ok(board) => {
                out.write_all(view::draw(&board).as_bytes())?;
                out.write_all(score_table(text, &board.breakdown()).as_bytes())?;
                Ok(true)
            }
            Err(e) => {
                writeln!(out, "{}: cannot draw: {}", shown(text), describe(&e))?;
                Ok(false)
            }
        }
    })
}

fn connected(a: &str, b: &str, out: &mut Out) -> anyhow::Result<Outcome> {
    match (a.parse::<Placement>(), b.parse::<Placement>()) {
        (Ok(p), Ok(q)) => {
            writeln!(out, "{}", railroad_ink::connected_neighbours(p, q))?;
            Ok(Outcome::Accepted)
        }
        (Err(e), _) => {
            warn(format_args!("error: first placement {a:?}: {e}"));
            Ok(Outcome::Rejected)
        }
        (_, Err(e)) => {
            warn(format_args!("error: second placement {b:?}: {e}"));
            Ok(Outcome::Rejected)
        }
    }
}

fn roll(
    seed: Option<u64>,
    count: usize,
    expansion: Expansion,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    let seed = seed.unwrap_or_else(rand::random);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..count {
        writeln!(out, "{}", Roll::random_in(&mut rng, expansion))?;
    }
    Ok(Outcome::Accepted)
}

#[derive(Serialize)]
struct MoveLine<'a> {
    board: &'a str,
    dice: &'a str,
    #[serde(rename = "move")]
    placements: String,
}

fn make_move(
    board_text: &str,
    dice: &str,
    json: bool,
    expansion: Expansion,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    let board = match Board::parse_in(board_text, expansion) {
        Ok(b) => b,
        Err(e) => return rejected(json, board_text, dice, format!("board: {e}"), out),
    };
    let roll = match Roll::parse_in(dice, expansion) {
        Ok(r) => r,
        Err(e) => return rejected(json, board_text, dice, format!("dice: {e}"), out),
    };
    let placements: String = generate_move(&board, &roll)
        .iter()
        .map(ToString::to_string)
        .collect();
    if json {
        out.json(&MoveLine {
            board: board_text,
            dice,
            placements,
        })?;
    } else {
        writeln!(out, "{placements}")?;
    }
    Ok(Outcome::Accepted)
}

fn rejected(
    json: bool,
    board: &str,
    dice: &str,
    error: String,
    out: &mut Out,
) -> anyhow::Result<Outcome> {
    #[derive(Serialize)]
    struct Rejected<'a> {
        board: &'a str,
        dice: &'a str,
        error: String,
    }
    if json {
        out.json(&Rejected { board, dice, error })?;
    } else {
        warn(format_args!("error: {error}"));
    }
    Ok(Outcome::Rejected)
}
