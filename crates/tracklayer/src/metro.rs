//! `tracklayer metro …`: the Metro engine on the command line.

use std::fmt::Write as _;
use std::io::{self, Write as _};

use clap::Subcommand;
use metro::text::{self, CheckError};
use metro::{Board, Deck, Hands, Line, LineEnd, PlayerCount, Score, Sequence, Tile, generate_move};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cli_io::{Input, NotUtf8, Out, Outcome, each_input, warn};

mod json;
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

pub fn run(cmd: MetroCommand, out: &mut Out) -> anyhow::Result<Outcome> {
    match cmd {
        MetroCommand::Check { json, sequence } => check(&sequence, json, out),
        MetroCommand::Score {
            players,
            json,
            sequence,
        } => score(&sequence, players, json, out),
        MetroCommand::View { players, sequence } => view(&sequence, players, out),
        MetroCommand::Draw {
            hands,
            seed,
            sequence,
        } => draw(&sequence, &hands, seed, out),
        MetroCommand::Move {
            players: _,
            json,
            sequence,
            piece,
        } => make_move(&sequence, piece, json, out),
        MetroCommand::Legal {
            json,
            sequence,
            piece,
        } => legal(&sequence, piece, json, out),
        MetroCommand::Play {
            agents,
            games,
            seed,
            budget,
            json,
            threads,
        } => play::play(
            &play::PlayArgs {
                agents,
                games,
                seed,
                budget,
                json,
                threads,
            },
            out,
        ),
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

/// A line of standard input that is not UTF-8 is a malformed sequence, at the placement that
/// holds the first invalid byte.
impl From<&NotUtf8> for ErrorJson {
    fn from(bad: &NotUtf8) -> Self {
        let index = bad.chars_before / 6;
        ErrorJson {
            index,
            placement: bad.lossy_chars(index * 6, 6),
            message: format!("not well-formed: {bad}"),
            rule: "malformed",
        }
    }
}

impl ErrorJson {
    fn well_formed(&self) -> bool {
        self.rule != "malformed"
    }
}

/// The error for a person, on one line.
fn describe(e: &ErrorJson) -> String {
    format!("placement {} ({:?}): {}", e.index, e.placement, e.message)
}

/// An input's text (for a line that is not UTF-8, its lossy text) and its check (§6.2).
fn checked<'a>(input: Input<'a>) -> (&'a str, Result<(Sequence, Board), ErrorJson>) {
    match input {
        Ok(text) => (text, text::check(text).map_err(|e| ErrorJson::from(&e))),
        Err(bad) => (&bad.lossy, Err(ErrorJson::from(bad))),
    }
}

/// Reports a rejected input: on its own output line when reading many, else on stderr.
fn reject(out: &mut Out, many: bool, message: impl std::fmt::Display) -> io::Result<()> {
    if many {
        writeln!(out, "error: {message}")
    } else {
        warn(format_args!("error: {message}"));
        Ok(())
    }
}

#[derive(Serialize)]
struct CheckJson<'a> {
    sequence: &'a str,
    well_formed: bool,
    valid: bool,
    error: Option<ErrorJson>,
}

fn check(arg: &str, json: bool, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, result) = checked(input);
        let valid = result.is_ok();
        let well_formed = result.as_ref().err().is_none_or(ErrorJson::well_formed);
        if json {
            out.json(&CheckJson {
                sequence: text,
                well_formed,
                valid,
                error: result.err(),
            })?;
            return Ok(valid);
        }
        match &result {
            Ok((seq, _)) => writeln!(out, "{}: valid, {}", shown(text), placements(seq.len()))?,
            Err(e) if many => writeln!(out, "{}: {}", shown(text), describe(e))?,
            Err(e) => {
                writeln!(out, "{}", shown(text))?;
                writeln!(
                    out,
                    "  well-formed: {}",
                    if well_formed { "yes" } else { "no" }
                )?;
                writeln!(out, "  valid:       no")?;
                writeln!(out, "  {}", describe(e))?;
            }
        }
        Ok(valid)
    })
}

/// `metro score --json`'s line for a sequence it cannot score (`scores` is null). A scored
/// sequence's line, `{"sequence","players","scores","lines"}`, is written by
/// [`json::write_score_line`].
#[derive(Serialize)]
struct ScoreErrorJson<'a> {
    sequence: &'a str,
    players: PlayerCount,
    scores: (),
    error: ErrorJson,
}

fn score(arg: &str, players: PlayerCount, json: bool, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, result) = checked(input);
        let (seq, board) = match result {
            Ok(ok) => ok,
            Err(e) => {
                if json {
                    out.json(&ScoreErrorJson {
                        sequence: text,
                        players,
                        scores: (),
                        error: e,
                    })?;
                } else {
                    reject(
                        out,
                        many,
                        format_args!("cannot score {}: {}", shown(text), describe(&e)),
                    )?;
                }
                return Ok(false);
            }
        };
        let score = Score::new(&board, players);
        if json {
            json::write_score_line(out, text, players, &score)?;
        } else if many {
            writeln!(out, "{}: {}", shown(text), totals(&score))?;
        } else {
            out.write_all(score_table(text, &seq, &board, &score).as_bytes())?;
        }
        Ok(true)
    })
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

fn view(arg: &str, players: PlayerCount, out: &mut Out) -> anyhow::Result<Outcome> {
    each_input(arg, out, |out, input| {
        let (text, result) = checked(input);
        match result {
            Ok((seq, board)) => {
                out.write_all(view::draw(&board, players).as_bytes())?;
                let score = Score::new(&board, players);
                out.write_all(score_table(text, &seq, &board, &score).as_bytes())?;
                Ok(true)
            }
            Err(e) => {
                writeln!(out, "{}: cannot draw: {}", shown(text), describe(&e))?;
                Ok(false)
            }
        }
    })
}

fn draw(arg: &str, hands: &Hands, seed: Option<u64>, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or_else(rand::random));
    each_input(arg, out, |out, input| {
        let drawn = match input {
            Ok(text) => text
                .parse::<Sequence>()
                .map_err(|e| format!("{}: not well-formed: {e}", shown(text)))
                .and_then(|seq| Deck::remaining(&seq, hands).map_err(|e| e.to_string()))
                .and_then(|deck| {
                    deck.pick(&mut rng).ok_or_else(|| {
                        "the deck is empty: every tile is on the board or in a hand".to_owned()
                    })
                }),
            Err(bad) => Err(format!("{}: not well-formed: {bad}", bad.lossy)),
        };
        match drawn {
            Ok(tile) => {
                writeln!(out, "{tile}")?;
                Ok(true)
            }
            Err(message) => {
                reject(out, many, message)?;
                Ok(false)
            }
        }
    })
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

fn make_move(arg: &str, tile: Tile, json: bool, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, result) = checked(input);
        let result = result
            .map_err(|e| format!("{}: {}", shown(text), describe(&e)))
            .and_then(|(_, board)| generate_move(&board, tile).map_err(|e| e.to_string()));
        let accepted = result.is_ok();
        if json {
            let (placement, error) = match result {
                Ok(p) => (Some(p.to_string()), None),
                Err(e) => (None, Some(e)),
            };
            out.json(&MoveJson {
                sequence: text,
                tile,
                placement,
                error,
            })?;
        } else {
            match result {
                Ok(p) => writeln!(out, "{p}")?,
                Err(e) => reject(out, many, e)?,
            }
        }
        Ok(accepted)
    })
}

#[derive(Serialize)]
struct LegalJson<'a> {
    sequence: &'a str,
    tile: Tile,
    placements: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorJson>,
}

fn legal(arg: &str, tile: Tile, json: bool, out: &mut Out) -> anyhow::Result<Outcome> {
    let many = arg == "-";
    each_input(arg, out, |out, input| {
        let (text, result) = checked(input);
        let result = result.map(|(_, board)| {
            board
                .legal_squares(tile)
                .iter()
                .map(|sq| format!("{tile}{sq}"))
                .collect::<Vec<_>>()
        });
        let accepted = result.is_ok();
        match (json, result) {
            (true, result) => {
                let (placements, error) = match result {
                    Ok(p) => (Some(p), None),
                    Err(e) => (None, Some(e)),
                };
                out.json(&LegalJson {
                    sequence: text,
                    tile,
                    placements,
                    error,
                })?;
            }
            (false, Ok(placements)) => writeln!(out, "{}", placements.join(" "))?,
            (false, Err(e)) => {
                reject(out, many, format_args!("{}: {}", shown(text), describe(&e)))?
            }
        }
        Ok(accepted)
    })
}
