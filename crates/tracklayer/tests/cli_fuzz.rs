//! Every command that reads `-` (one input a line from standard input), fed random batches:
//! valid boards and sequences, mutations of them, random text and bytes, NUL bytes, invalid
//! UTF-8, lines of a few hundred kilobytes, CRLF endings, no final newline, no input at all.
//!
//! Each run must not panic (exit status never 101, nothing on stderr), give exactly one answer a
//! line (the answer's echo of the input is that line), and exit 0 when the engines accept every
//! line, 1 when they reject any. The engines' own answer for each line is the oracle.
//!
//! Seeded: a failure names its seed and round. `TRACKLAYER_FUZZ_SEED` and
//! `TRACKLAYER_FUZZ_ROUNDS` change them for a longer hunt.

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// What a command makes of a line, and how its answers look.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// `ink check`, `ink score`: a valid board.
    Ink,
    /// `ink view`: a valid board, drawn over many lines.
    InkView,
    /// `metro check`, `score`, `legal`: a valid sequence.
    Metro,
    /// `metro view`: a valid sequence, drawn over many lines.
    MetroView,
    /// `metro move … dddd`: a valid sequence on which dddd has a move.
    MetroMove,
    /// `metro draw`: a well-formed sequence whose deck is not empty.
    MetroDraw,
}

/// Every `-` command, with and without `--json` where it has it.
const COMMANDS: &[(&[&str], Kind)] = &[
    (&["ink", "check", "-"], Kind::Ink),
    (&["ink", "check", "--json", "-"], Kind::Ink),
    (&["ink", "score", "-"], Kind::Ink),
    (&["ink", "score", "--json", "-"], Kind::Ink),
    (&["ink", "view", "-"], Kind::InkView),
    (&["metro", "check", "-"], Kind::Metro),
    (&["metro", "check", "--json", "-"], Kind::Metro),
    (&["metro", "score", "--players", "3", "-"], Kind::Metro),
    (
        &["metro", "score", "--players", "4", "--json", "-"],
        Kind::Metro,
    ),
    (&["metro", "view", "--players", "5", "-"], Kind::MetroView),
    (&["metro", "draw", "--seed", "3", "-"], Kind::MetroDraw),
    (
        &["metro", "move", "--players", "2", "-", "dddd"],
        Kind::MetroMove,
    ),
    (
        &["metro", "move", "--players", "2", "--json", "-", "dddd"],
        Kind::MetroMove,
    ),
    (&["metro", "legal", "-", "cccc"], Kind::Metro),
    (&["metro", "legal", "--json", "-", "cccc"], Kind::Metro),
];

impl Kind {
    fn is_ink(self) -> bool {
        matches!(self, Kind::Ink | Kind::InkView)
    }

    /// Whether the command accepts this line (without its line ending).
    fn accepts(self, line: &[u8]) -> bool {
        let Ok(text) = std::str::from_utf8(line) else {
            return false;
        };
        match self {
            Kind::Ink | Kind::InkView => text.parse::<railroad_ink::Board>().is_ok(),
            Kind::Metro | Kind::MetroView => metro::text::check(text).is_ok(),
            Kind::MetroMove => metro::text::check(text).is_ok_and(|(_, board)| {
                metro::generate_move(&board, "dddd".parse().unwrap()).is_ok()
            }),
            Kind::MetroDraw => text.parse::<metro::Sequence>().is_ok_and(|seq| {
                metro::Deck::remaining(&seq, &metro::Hands::default())
                    .is_ok_and(|deck| !deck.is_empty())
            }),
        }
    }
}

/// Valid inputs to start from: Railroad Ink boards of 0 to 7 rounds of the reference strategy
/// on random dice, and Metro sequences cut from random complete games.
struct Pool {
    ink: Vec<String>,
    metro: Vec<String>,
}

impl Pool {
    fn new(rng: &mut ChaCha8Rng) -> Pool {
        let mut ink = Vec::new();
        for _ in 0..8 {
            let mut text = String::new();
            for _ in 0..7 {
                let board: railroad_ink::Board = text.parse().unwrap();
                let roll = railroad_ink::Roll::random(rng);
                for p in railroad_ink::generate_move(&board, &roll) {
                    text.push_str(&p.to_string());
                }
                ink.push(text.clone());
            }
        }
        let mut metro = vec![String::new()];
        for _ in 0..6 {
            let players = metro::PlayerCount::new(rng.random_range(2..=6)).unwrap();
            let mut game = metro::Game::new(metro::Config::new(players), rng.random());
            metro::play_random(&mut game, rng);
            let full = game.sequence().to_string();
            for _ in 0..4 {
                let n = rng.random_range(0..=60);
                metro.push(full[..6 * n].to_owned());
            }
            metro.push(full);
        }
        Pool { ink, metro }
    }

    fn valid(&self, kind: Kind, rng: &mut ChaCha8Rng) -> Vec<u8> {
        let pool = if kind.is_ink() {
            &self.ink
        } else {
            &self.metro
        };
        pool.choose(rng).unwrap().clone().into_bytes()
    }
}

/// Bytes that are not UTF-8 on their own.
const NOT_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xfe\xfe",
    b"\xc3",             // a lead byte with no continuation
    b"\x80",             // a continuation with no lead
    b"\xc0\x80",         // an overlong NUL
    b"\xed\xa0\x80",     // a UTF-16 surrogate
    b"\xf4\x90\x80\x80", // past U+10FFFF
];

/// A valid line changed a few times: bytes replaced, inserted, deleted; pieces doubled or
/// cut; NUL bytes, invalid UTF-8, multi-byte characters and `\r` put inside.
fn mutate(mut line: Vec<u8>, rng: &mut ChaCha8Rng) -> Vec<u8> {
    for _ in 0..rng.random_range(1..=3) {
        let at = rng.random_range(0..=line.len());
        match rng.random_range(0..8) {
            0 if at < line.len() => line[at] = rng.random_range(b' '..=b'~'),
            1 => line.insert(at, rng.random_range(b'0'..=b'z')),
            2 if at < line.len() => {
                line.remove(at);
            }
            3 => line.truncate(at),
            4 => {
                let piece = line[at..].to_vec();
                line.extend_from_slice(&piece);
            }
            5 => line.insert(at, 0),
            6 => {
                let bad = NOT_UTF8.choose(rng).unwrap();
                line.splice(at..at, bad.iter().copied());
            }
            _ => {
                let odd: &[u8] = ["é".as_bytes(), "\r".as_bytes(), "💥".as_bytes(), b"\t"]
                    .choose(rng)
                    .unwrap();
                line.splice(at..at, odd.iter().copied());
            }
        }
    }
    line.retain(|&b| b != b'\n');
    line
}

/// One line of input, of a kind chosen at random.
fn line(kind: Kind, pool: &Pool, rng: &mut ChaCha8Rng, huge: bool) -> Vec<u8> {
    if huge {
        // A few hundred kilobytes: valid placements repeated past any board, or noise.
        let size = rng.random_range(200_000..400_000);
        let mut l = Vec::with_capacity(size);
        if rng.random_bool(0.5) {
            let piece = if kind.is_ink() { "A4A10" } else { "aaaa03" };
            while l.len() < size {
                l.extend_from_slice(piece.as_bytes());
            }
        } else {
            l.resize_with(size, || rng.random_range(1..=255u8));
            l.retain(|&b| b != b'\n');
        }
        return l;
    }
    match rng.random_range(0..10) {
        0..=2 => pool.valid(kind, rng),
        3..=5 => mutate(pool.valid(kind, rng), rng),
        6 => Vec::new(),
        7 => (0..rng.random_range(1..80))
            .map(|_| rng.random_range(b' '..=b'~'))
            .collect(),
        8 => (0..rng.random_range(1..80))
            .map(|_| rng.random_range(0..=255u8))
            .filter(|&b| b != b'\n')
            .collect(),
        _ => {
            let mut l = pool.valid(kind, rng);
            l.insert(rng.random_range(0..=l.len()), 0);
            l
        }
    }
}

/// The lines of an input as the command reads them: split at `\n`, a final `\r` dropped, no
/// line after a final `\n`.
fn lines_of(input: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

/// Runs the binary with this standard input (written from a thread, since the command answers
/// while it reads); returns (exit status, stdout, stderr, whether it read all its input).
fn run(args: &[&str], input: Vec<u8>) -> (i32, Vec<u8>, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    let read_all = writer.join().unwrap().is_ok();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        read_all,
    )
}

/// Checks one run of one command; panics with the reason.
fn check_run(args: &[&str], kind: Kind, input: &[u8], what: &str) {
    let (code, stdout, stderr, read_all) = run(args, input.to_vec());
    assert!(
        code != 101 && !stderr.contains("panicked"),
        "{what}: {args:?} panicked (status {code}): {stderr}"
    );
    assert!(
        stderr.is_empty(),
        "{what}: {args:?} wrote to stderr: {stderr}"
    );
    assert!(read_all, "{what}: {args:?} stopped reading its input");
    let lines = lines_of(input);
    let accepted: Vec<bool> = lines.iter().map(|l| kind.accepts(l)).collect();
    let expected = if accepted.iter().all(|&a| a) { 0 } else { 1 };
    assert_eq!(
        code,
        expected,
        "{what}: {args:?}: exit status for {} lines ({} rejected)",
        lines.len(),
        accepted.iter().filter(|&&a| !a).count()
    );
    let out = String::from_utf8(stdout).expect("the output is UTF-8");
    match kind {
        Kind::InkView | Kind::MetroView => {
            // A drawn board is many lines, headed `board …`/`sequence …`; a rejected line is one.
            let header = if kind.is_ink() { "board " } else { "sequence " };
            let drawn = out.lines().filter(|l| l.starts_with(header)).count();
            let refused = out
                .lines()
                .filter(|l| l.contains(": cannot draw: "))
                .count();
            let want_drawn = accepted.iter().filter(|&&a| a).count();
            assert_eq!(
                (drawn, refused),
                (want_drawn, lines.len() - want_drawn),
                "{what}: {args:?}: boards drawn and lines refused"
            );
        }
        _ => {
            let answers: Vec<&str> = out.split_terminator('\n').collect();
            assert_eq!(
                answers.len(),
                lines.len(),
                "{what}: {args:?}: one answer a line"
            );
            if args.contains(&"--json") {
                check_json(args, kind, &lines, &accepted, &answers, what);
            }
        }
    }
}

/// Each JSON answer echoes its own line and says what the oracle says of it.
fn check_json(
    args: &[&str],
    kind: Kind,
    lines: &[&[u8]],
    accepted: &[bool],
    answers: &[&str],
    what: &str,
) {
    let key = if kind.is_ink() { "board" } else { "sequence" };
    for (n, ((line, &ok), answer)) in lines.iter().zip(accepted).zip(answers).enumerate() {
        let v: Value = serde_json::from_str(answer)
            .unwrap_or_else(|e| panic!("{what}: {args:?}: line {}: {e}: {answer}", n + 1));
        assert_eq!(
            v[key].as_str(),
            Some(&*String::from_utf8_lossy(line)),
            "{what}: {args:?}: answer {} is for another line",
            n + 1
        );
        let says_ok = match v.get("valid") {
            Some(valid) => valid == true,
            None => v.get("error").is_none(),
        };
        assert_eq!(says_ok, ok, "{what}: {args:?}: line {}: {answer}", n + 1);
        if std::str::from_utf8(line).is_err() {
            let text = v.to_string();
            assert!(
                text.contains(&format!("line {} is not UTF-8", n + 1)),
                "{what}: {args:?}: {answer}"
            );
        }
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_stdin_command_survives_random_batches() {
    let seed = env_or("TRACKLAYER_FUZZ_SEED", 15);
    let rounds = env_or("TRACKLAYER_FUZZ_ROUNDS", 20);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let pool = Pool::new(&mut rng);
    for (c, &(args, kind)) in COMMANDS.iter().enumerate() {
        check_run(args, kind, b"", &format!("seed {seed}, empty input"));
        for round in 0..rounds {
            // Each command's rounds have their own generator, so one can be replayed alone.
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((c as u64) << 32) ^ round);
            let what = format!("seed {seed}, command {c}, round {round}");
            let only_valid = round % 4 == 0;
            let count = rng.random_range(1..40);
            let huge_at = (round % 5 == 1).then(|| rng.random_range(0..count));
            let mut input = Vec::new();
            for i in 0..count {
                let l = if only_valid {
                    pool.valid(kind, &mut rng)
                } else {
                    line(kind, &pool, &mut rng, huge_at == Some(i))
                };
                input.extend_from_slice(&l);
                let last = i + 1 == count;
                match rng.random_range(0..4) {
                    0 => input.extend_from_slice(b"\r\n"),
                    1 if last => {} // no final newline
                    _ => input.push(b'\n'),
                }
            }
            check_run(args, kind, &input, &what);
        }
    }
}

#[test]
fn a_batch_of_valid_lines_exits_0_and_one_bad_line_makes_it_1() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let pool = Pool::new(&mut rng);
    for &(args, kind) in COMMANDS {
        let good: Vec<Vec<u8>> = (0..5)
            .map(|_| pool.valid(kind, &mut rng))
            .filter(|l| kind.accepts(l))
            .collect();
        assert!(!good.is_empty());
        let mut input = good.join(&b'\n');
        input.push(b'\n');
        check_run(args, kind, &input, "valid lines");
        input.extend_from_slice(b"\xffnot UTF-8\n");
        input.extend_from_slice(&good[0]);
        check_run(args, kind, &input, "valid lines and one not UTF-8");
    }
}
