//! `tracklayer metro …`: the Metro engine on the command line.

use std::fmt::Write as _;

use clap::Subcommand;
use metro::text::{self, CheckError};
use metro::{Board, Deck, Hands, Line, LineEnd, PlayerCount, Score, Sequence, Tile, generate_move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cli_io::{Outcome, inputs, print_json};

mod play;
mod view;

#[derive(Debug, Subcommand)]
pub enum MetroCommand {
    /// Check placement sequences: well-formed (§5.2) and valid (§6.2), naming the broken rule.
    #[command(after_help = "Examples:\n  \
        tracklayer metro check aaaa03aaaa13aaaa23            # valid\n  \
        tracklayer metro check aaaa00aaaa11                  # not valid: (1,1) is not touching\n  \
        tracklayer metro check --json cccc00\n  \
        cat sequences.txt | tracklayer metro check --json -\n\n\
        Exit status: 0 when every sequence is valid, 1 when any is not, 2 on a usage error.")]
    Check {
        /// Print one JSON object per input:
        /// {"sequence","well_formed","valid","error":null|{"index","placement","message","rule"}}.
        #[arg(long)]
        json: bool,
        /// A placement sequence (`''` for the empty one), or `-` to read one per line from
        /// standard input.
        sequence: String,
    },
    /// Score valid sequences (§7): each player's total and each station's line.
    #[command(after_help = "Examples:\n  \
        tracklayer metro score --players 2 badb01baac02dbba10bcbc00\n  \
        tracklayer metro score --players 4 --json aaaa03aaaa13aaaa23\n  \
        cat games.txt | tracklayer metro score --players 3 -\n\n\
        For one sequence, prints every player's lines: the squares each passes (as row and\n\
        column digits), its length, and where it ends (doubled at the centre, 0 unfinished).\n\
        With `-`, prints one line of totals per input.")]
    Score {
        /// The number of players, 2 to 6: it decides who owns which station.
        #[arg(long)]
        players: PlayerCount,
        /// Print one JSON object per input: {"sequence","players","scores":[…],"lines":[…]}.
        #[arg(long)]
        json: bool,
        /// A valid placement sequence, or `-` to read one per line from standard input.
        sequence: String,
    },
    /// Draw the board of valid sequences in box characters, with each player's lines below.
    #[command(after_help = "Examples:\n  \
        tracklayer metro view --players 2 badb01baac02dbba10bcbc00\n  \
        tracklayer metro view --players 4 aaaa03aaaa13aaaa23\n  \
        cat games.txt | tracklayer metro view --players 3 -\n\n\
        Each square shows its tile's four tracks; where two cross, `┼`. Around the board:\n\
        each station's number and its owner (-- for nobody). Below: every player's lines, as\n\
        `metro score` prints them.")]
    View {
        /// The number of players, 2 to 6: it decides who owns which station.
        #[arg(long)]
        players: PlayerCount,
        /// A valid placement sequence, or `-` to read one per line from standard input.
        sequence: String,
    },
    /// Draw a tile from what is left of the deck (§5.3): prints its 4-letter code.
    #[command(after_help = "Examples:\n  \
        tracklayer metro draw ''                               # any of the 60 tiles\n  \
        tracklayer metro draw --seed 7 aaaa00dddd05\n  \
        tracklayer metro draw --hands aaaadddd aaaa00dddd05    # never dddd\n\n\
        Every physical tile neither placed nor held is equally likely. The same seed and\n\
        inputs draw the same tiles. An empty deck is an error (exit status 1).")]
    Draw {
        /// The tiles held in hands, as concatenated codes (0 to 6 of them).
        #[arg(long, default_value = "")]
        hands: Hands,
        /// Seed of the random number generator (random if not given).
        #[arg(long)]
        seed: Option<u64>,
        /// A well-formed placement sequence, or `-` to read one per line from standard input
        /// (one draw per line, from one generator).
        sequence: String,
    },
    /// Generate a move (§8): a legal placement of PIECE, printed as 6 characters.
    #[command(after_help = "Examples:\n  \
        tracklayer metro move --players 2 '' dada                # dada10\n  \
        tracklayer metro move --players 2 aaaa01 dddd            # dddd11\n  \
        cat sequences.txt | tracklayer metro move --players 4 - cccc\n\n\
        The move is the reference choice: the first legal square in row-major order.")]
    Move {
        /// The number of players, 2 to 6 (it never changes legality).
        #[arg(long)]
        players: PlayerCount,
        /// Print one JSON object per input: {"sequence","tile","move"}.
        #[arg(long)]
        json: bool,
        /// A valid sequence of fewer than 60 placements, or `-` to read one per line.
        sequence: String,
        /// The tile to place, a 4-letter code such as dada.
        piece: Tile,
    },
    /// List every legal placement of PIECE (§6.1).
    #[command(after_help = "Examples:\n  \
        tracklayer metro legal '' cccc        # the 24 non-corner border squares\n  \
        tracklayer metro legal aaaa01 dddd    # only dddd11")]
    Legal {
        /// Print one JSON object per input: {"sequence","tile","placements":[…]}.
        #[arg(long)]
        json: bool,
        /// A valid sequence, or `-` to read one per line from standard input.
        sequence: String,
        /// The tile to place, a 4-letter code.
        piece: Tile,
    },
    /// Play games between computer players and measure them: win rates, scores, time a move.
    #[command(after_help = "Examples:\n  \
        tracklayer metro play --agents strong,greedy --games 1000 --seed 1\n  \
        tracklayer metro play --agents strong,greedy,greedy,greedy --games 100 --json\n  \
        tracklayer metro play --agents random,random,random --seed 9 --json | head -1\n\n\
        Agents: random, greedy, strong. Seats rotate: in game i, the k-th agent named sits in\n\
        seat (k + i) mod n, so over n games every agent starts once. The seed decides every\n\
        game (draws and choices); results do not depend on --threads. A shared win counts\n\
        1/k for each of k winners (a 2-player tie: half). The 95% confidence interval of a\n\
        win rate is the Wilson score interval. Time a move is an agent's thinking time per\n\
        tile it placed (a turn may take two decisions: keep, then place), by the wall clock\n\
        and by the thread's CPU-time clock (which a busy machine does not inflate).\n\n\
        With --json: one line a game, {\"game\",\"players\",\"agents\",\"sequence\",\"scores\"}\n\
        (agents and scores by seat, P1 first), then one summary line\n\
        {\"summary\":{\"games\",\"players\",\"seed\",\"budget\",\"agents\":[{\"agent\",\"wins\",\n\
        \"win_rate\",\"ci95\",\"mean_score\",\"ms_per_move\",\"max_ms_per_move\",\n\
        \"cpu_ms_per_move\",\"max_cpu_ms_per_move\"},…]}}.")]
    Play {
        /// The computer players, 2 to 6 comma-separated names (random, greedy, strong).
        #[arg(long, value_delimiter = ',', required = true)]
        agents: Vec<String>,
        /// How many games to play.
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// Seed of every game: the draws and the agents' choices.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Play-outs per decision of the strong player (deterministic work, not time);
        /// default: the setting that meets its targets within 200 ms a move.
        #[arg(long)]
        budget: Option<u32>,
        /// Print JSON lines: one a game, then a summary.
        #[arg(long)]
        json: bool,
        /// Worker threads (default: one per core). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
    },
}

pub fn run(cmd: MetroCommand) -> anyhow::Result<Outcome> {
    match cmd {
        MetroCommand::Check { json, sequence } => check(&inputs(&sequence)?, json, sequence == "-"),
        MetroCommand::Score {
            players,
            json,
            sequence,
        } => score(&inputs(&sequence)?, players, json, sequence == "-"),
        MetroCommand::View { players, sequence } => view(&inputs(&sequence)?, players),
        MetroCommand::Draw {
            hands,
            seed,
            sequence,
        } => draw(&inputs(&sequence)?, &hands, seed, sequence == "-"),
        MetroCommand::Move {
            players: _,
            json,
            sequence,
            piece,
        } => make_move(&inputs(&sequence)?, piece, json, sequence == "-"),
        MetroCommand::Legal {
            json,
            sequence,
            piece,
        } => legal(&inputs(&sequence)?, piece, json, sequence == "-"),
        MetroCommand::Play {
            agents,
            games,
            seed,
            budget,
            json,
            threads,
        } => play::play(&play::PlayArgs {
            agents,
            games,
            seed,
            budget,
            json,
            threads,
        }),
    }
}

/// A sequence for a person: the empty sequence is named, not left blank.
fn shown(text: &str) -> &str {
    if text.is_empty() {
        "\"\" (the empty sequence)"
    } else {
        text
    }
}

/// What is wrong with a sequence, in JSON.
#[derive(Serialize)]
struct ErrorJson {
    index: usize,
    placement: String,
    message: String,
    rule: &'static str,
}

impl From<&CheckError> for ErrorJson {
    fn from(e: &CheckError) -> Self {
        ErrorJson {
            index: e.index(),
            placement: e.placement(),
            message: e.message(),
            rule: e.rule(),
        }
    }
}

/// The error for a person, on one line.
fn describe(e: &CheckError) -> String {
    format!(
        "placement {} ({:?}): {}",
        e.index(),
        e.placement(),
        e.message()
    )
}

/// Reports a rejected input: on its own output line when reading many, else on stderr.
fn reject(many: bool, message: impl std::fmt::Display) {
    if many {
        println!("error: {message}");
    } else {
        eprintln!("error: {message}");
    }
}

#[derive(Serialize)]
struct CheckJson<'a> {
    sequence: &'a str,
    well_formed: bool,
    valid: bool,
    error: Option<ErrorJson>,
}

fn check(sequences: &[String], json: bool, many: bool) -> anyhow::Result<Outcome> {
    let mut all_valid = true;
    for text in sequences {
        let result = text::check(text);
        let well_formed = !matches!(result, Err(CheckError::Malformed(_)));
        all_valid &= result.is_ok();
        if json {
            print_json(&CheckJson {
                sequence: text,
                well_formed,
                valid: result.is_ok(),
                error: result.as_ref().err().map(ErrorJson::from),
            })?;
            continue;
        }
        match &result {
            Ok((seq, _)) => println!("{}: valid, {}", shown(text), placements(seq.len())),
            Err(e) if many => println!("{}: {}", shown(text), describe(e)),
            Err(e) => {
                println!("{}", shown(text));
                println!("  well-formed: {}", if well_formed { "yes" } else { "no" });
                println!("  valid:       no");
                println!("  {}", describe(e));
            }
        }
    }
    Ok(Outcome::from_all_accepted(all_valid))
}

#[derive(Serialize)]
struct ScoreJson<'a> {
    sequence: &'a str,
    players: PlayerCount,
    scores: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lines: Option<&'a [metro::StationLine]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorJson>,
}

fn score(
    sequences: &[String],
    players: PlayerCount,
    json: bool,
    many: bool,
) -> anyhow::Result<Outcome> {
    let mut all = true;
    for text in sequences {
        let (seq, board) = match text::check(text) {
            Ok(ok) => ok,
            Err(e) => {
                all = false;
                if json {
                    print_json(&ScoreJson {
                        sequence: text,
                        players,
                        scores: None,
                        lines: None,
                        error: Some(ErrorJson::from(&e)),
                    })?;
                } else {
                    reject(
                        many,
                        format_args!("cannot score {}: {}", shown(text), describe(&e)),
                    );
                }
                continue;
            }
        };
        let score = Score::new(&board, players);
        if json {
            print_json(&ScoreJson {
                sequence: text,
                players,
                scores: Some(&score.totals),
                lines: Some(&score.lines),
                error: None,
            })?;
        } else if many {
            println!("{}: {}", shown(text), totals(&score));
        } else {
            print!("{}", score_table(text, &seq, &board, &score));
        }
    }
    Ok(Outcome::from_all_accepted(all))
}

/// `1 placement`, `3 placements`.
fn placements(n: usize) -> String {
    if n == 1 {
        "1 placement".to_owned()
    } else {
        format!("{n} placements")
    }
}

/// `winner: P2`, or `winners (shared): P1, P3`.
fn winners(score: &Score) -> String {
    let winners: Vec<String> = score.winners().iter().map(ToString::to_string).collect();
    match winners.as_slice() {
        [one] => format!("winner: {one}"),
        many => format!("winners (shared): {}", many.join(", ")),
    }
}

/// `P1 6, P2 0`.
fn totals(score: &Score) -> String {
    let parts: Vec<String> = score
        .players
        .players()
        .map(|p| format!("{p} {}", score.total(p)))
        .collect();
    parts.join(", ")
}

/// Every player's total and lines, for a person.
fn score_table(text: &str, seq: &Sequence, board: &Board, score: &Score) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "sequence {} ({}), {} players",
        shown(text),
        placements(seq.len()),
        score.players
    );
    let _ = writeln!(out, "scores: {}", totals(score));
    for p in score.players.players() {
        let _ = writeln!(out, "{p}: {} points", score.total(p));
        for line in score.lines_of(p) {
            let _ = writeln!(out, "  {}", describe_line(line));
        }
    }
    let unowned: Vec<&Line> = score.unowned_lines().collect();
    if !unowned.is_empty() {
        let _ = writeln!(out, "nobody (unowned stations score for no one):");
        for line in unowned {
            let _ = writeln!(out, "  {}", describe_line(line));
        }
    }
    if board.is_full() {
        let _ = writeln!(out, "{}", winners(score));
    }
    out
}

/// `station  5   6  3 tiles to the centre (3,3), doubled: 03 13 23`.
fn describe_line(line: &Line) -> String {
    let squares: Vec<String> = line.squares.iter().map(ToString::to_string).collect();
    let tiles = match line.length {
        1 => "1 tile".to_owned(),
        n => format!("{n} tiles"),
    };
    let how = match line.end {
        LineEnd::Centre { square } => {
            format!("{tiles} to the centre {}, doubled", square.coords())
        }
        LineEnd::Station { station } if station == line.station => {
            format!("{tiles} back to station {station}")
        }
        LineEnd::Station { station } => format!("{tiles} to station {station}"),
        LineEnd::Unfinished { square } if line.length == 0 => {
            format!("unfinished: {} is empty", square.coords())
        }
        LineEnd::Unfinished { square } => {
            format!("unfinished after {tiles}: {} is empty", square.coords())
        }
    };
    let path = if squares.is_empty() {
        String::new()
    } else {
        format!(": {}", squares.join(" "))
    };
    format!(
        "station {:>2} {:>3}  {how}{path}",
        line.station.number(),
        line.points
    )
}

fn view(sequences: &[String], players: PlayerCount) -> anyhow::Result<Outcome> {
    let mut all = true;
    for text in sequences {
        match text::check(text) {
            Ok((seq, board)) => {
                print!("{}", view::draw(&board, players));
                print!(
                    "{}",
                    score_table(text, &seq, &board, &Score::new(&board, players))
                );
            }
            Err(e) => {
                all = false;
                println!("{}: cannot draw: {}", shown(text), describe(&e));
            }
        }
    }
    Ok(Outcome::from_all_accepted(all))
}

fn draw(
    sequences: &[String],
    hands: &Hands,
    seed: Option<u64>,
    many: bool,
) -> anyhow::Result<Outcome> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut all = true;
    for text in sequences {
        let drawn = text
            .parse::<Sequence>()
            .map_err(|e| format!("{}: not well-formed: {e}", shown(text)))
            .and_then(|seq| Deck::remaining(&seq, hands).map_err(|e| e.to_string()))
            .and_then(|deck| {
                deck.pick(&mut rng).ok_or_else(|| {
                    "the deck is empty: every tile is on the board or in a hand".to_owned()
                })
            });
        match drawn {
            Ok(tile) => println!("{tile}"),
            Err(message) => {
                all = false;
                reject(many, message);
            }
        }
    }
    Ok(Outcome::from_all_accepted(all))
}

#[derive(Serialize)]
struct MoveJson<'a> {
    sequence: &'a str,
    tile: Tile,
    #[serde(rename = "move")]
    placement: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn make_move(sequences: &[String], tile: Tile, json: bool, many: bool) -> anyhow::Result<Outcome> {
    let mut all = true;
    for text in sequences {
        let result = text::check(text)
            .map_err(|e| format!("{}: {}", shown(text), describe(&e)))
            .and_then(|(_, board)| generate_move(&board, tile).map_err(|e| e.to_string()));
        all &= result.is_ok();
        if json {
            let (placement, error) = match result {
                Ok(p) => (Some(p.to_string()), None),
                Err(e) => (None, Some(e)),
            };
            print_json(&MoveJson {
                sequence: text,
                tile,
                placement,
                error,
            })?;
            continue;
        }
        match result {
            Ok(p) => println!("{p}"),
            Err(e) => reject(many, e),
        }
    }
    Ok(Outcome::from_all_accepted(all))
}

#[derive(Serialize)]
struct LegalJson<'a> {
    sequence: &'a str,
    tile: Tile,
    placements: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorJson>,
}

fn legal(sequences: &[String], tile: Tile, json: bool, many: bool) -> anyhow::Result<Outcome> {
    let mut all = true;
    for text in sequences {
        let result = text::check(text).map(|(_, board)| {
            board
                .legal_squares(tile)
                .iter()
                .map(|sq| format!("{tile}{sq}"))
                .collect::<Vec<_>>()
        });
        all &= result.is_ok();
        match (json, result) {
            (true, result) => {
                let (placements, error) = match result {
                    Ok(p) => (Some(p), None),
                    Err(e) => (None, Some(ErrorJson::from(&e))),
                };
                print_json(&LegalJson {
                    sequence: text,
                    tile,
                    placements,
                    error,
                })?;
            }
            (false, Ok(placements)) => println!("{}", placements.join(" ")),
            (false, Err(e)) => reject(many, format_args!("{}: {}", shown(text), describe(&e))),
        }
    }
    Ok(Outcome::from_all_accepted(all))
}
