//! Input and output shared by every command: `-` for stdin read line by line as bytes,
//! buffered stdout, exit statuses, and a closed output pipe as a quiet stop.

use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, StdoutLock, Write};
use std::process::ExitCode;

/// Whether every input of a command was accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Exit status 0.
    Accepted,
    /// Exit status 1: at least one input was rejected.
    Rejected,
}

impl Outcome {
    pub fn from_all_accepted(all: bool) -> Self {
        if all {
            Outcome::Accepted
        } else {
            Outcome::Rejected
        }
    }

    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Accepted => ExitCode::SUCCESS,
            Outcome::Rejected => ExitCode::from(1),
        }
    }
}

/// The exit status when standard output was closed before everything was written (`… | head`).
///
/// A Unix tool in that case is killed by SIGPIPE, and its shell reports 128 + 13 = 141. Rust
/// ignores SIGPIPE, so the write fails with `BrokenPipe` instead; restoring the signal would
/// take `unsafe` and libc, so the command stops writing and exits 141 itself, silently. Not 0:
/// that would say every input was answered and accepted, which a caller (or `set -o pipefail`)
/// must not be told when the answers stopped part way; not 1 or 2, which say an input was
/// rejected or the command was misused. 141 is what `yes | head -1` gives under pipefail.
pub const CLOSED_OUTPUT: u8 = 141;

/// Runs a command with a buffered standard output and turns its result into the exit status:
/// its outcome (0 or 1), 2 with a message on stderr for an error, or [`CLOSED_OUTPUT`] with no
/// message when the reader of standard output went away.
pub fn run_command(command: impl FnOnce(&mut Out) -> anyhow::Result<Outcome>) -> ExitCode {
    let mut out = Out::stdout();
    let result = command(&mut out).and_then(|outcome| {
        out.flush()?;
        Ok(outcome)
    });
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(err) if is_broken_pipe(&err) => ExitCode::from(CLOSED_OUTPUT),
        Err(err) => {
            // The answers given before the error come first.
            if let Err(e) = out.flush()
                && e.kind() == io::ErrorKind::BrokenPipe
            {
                return ExitCode::from(CLOSED_OUTPUT);
            }
            warn(format_args!("error: {err:#}"));
            ExitCode::from(2)
        }
    }
}

/// Whether an error comes from writing to a closed pipe.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes a line to standard error. Unlike `eprintln!`, it does not panic when standard
/// error is closed: the message is lost, and the exit status still tells.
pub fn warn(message: impl fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}

/// Standard output through one large buffer: written in blocks, not a system call a line
/// (Rust's own stdout flushes at every newline).
pub struct Out(BufWriter<StdoutLock<'static>>);

impl Out {
    fn stdout() -> Out {
        Out(BufWriter::with_capacity(64 * 1024, io::stdout().lock()))
    }

    /// Writes one value as a line of JSON, serialized straight into the buffer.
    pub fn json<T: serde::Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        // An I/O error inside serde_json becomes the io::Error it was (BrokenPipe included).
        serde_json::to_writer(&mut self.0, value)?;
        self.0.write_all(b"\n")
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// A line of standard input that is not UTF-8. It is answered like a malformed input, on
/// its own line, and the other lines are answered as usual.
#[derive(Debug)]
pub struct NotUtf8 {
    /// Its line number, from 1.
    pub line: usize,
    /// The line with each invalid sequence of bytes replaced by U+FFFD.
    pub lossy: String,
    /// How many characters come before the first invalid byte.
    pub chars_before: usize,
    /// The first invalid byte and its offset in the line.
    byte: u8,
    offset: usize,
}

impl NotUtf8 {
    fn new(line: usize, bytes: &[u8], err: std::str::Utf8Error) -> NotUtf8 {
        let offset = err.valid_up_to();
        let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        NotUtf8 {
            line,
            lossy: String::from_utf8_lossy(bytes).into_owned(),
            chars_before: valid.chars().count(),
            byte: bytes.get(offset).copied().unwrap_or_default(),
            offset,
        }
    }

    /// The characters of the lossy line from character `start`, `len` of them at most.
    pub fn lossy_chars(&self, start: usize, len: usize) -> String {
        self.lossy.chars().skip(start).take(len).collect()
    }
}

impl fmt::Display for NotUtf8 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is not UTF-8 (byte 0x{:02X} at byte offset {})",
            self.line, self.byte, self.offset
        )
    }
}

/// One input of a command: its text, or a line of standard input that is not UTF-8.
pub type Input<'a> = Result<&'a str, &'a NotUtf8>;

/// Answers the inputs named by a positional argument: the argument itself, or, for `-`, each
/// line of standard input as it comes (an empty line is the empty string; a final `\r` is
/// dropped). `answer` writes one input's answer and says whether it was accepted; a line that
/// is not UTF-8 is never accepted. Only an I/O error (or `answer`'s own error) stops it.
pub fn each_input(
    arg: &str,
    out: &mut Out,
    mut answer: impl FnMut(&mut Out, Input<'_>) -> anyhow::Result<bool>,
) -> anyhow::Result<Outcome> {
    if arg != "-" {
        let accepted = answer(out, Ok(arg))?;
        return Ok(Outcome::from_all_accepted(accepted));
    }
    let mut reader = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut bytes = Vec::new();
    let mut number = 0;
    let mut all = true;
    loop {
        // Before waiting for more input, send the answers so far: a program that writes a
        // line and waits for its answer gets it, and a file is still answered in blocks.
        if reader.buffer().is_empty() {
            out.flush()?;
        }
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        number += 1;
        let line = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        all &= match std::str::from_utf8(line) {
            Ok(text) => answer(out, Ok(text))?,
            Err(e) => {
                answer(out, Err(&NotUtf8::new(number, line, e)))?;
                false
            }
        };
    }
    Ok(Outcome::from_all_accepted(all))
}

/// CPU time the calling thread has used so far (from `/proc/thread-self/schedstat`; zero
/// where that is not available). Unlike the wall clock, it does not grow while the thread
/// waits for a core on a busy machine.
pub fn thread_cpu_time() -> std::time::Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(std::time::Duration::ZERO, std::time::Duration::from_nanos)
}
