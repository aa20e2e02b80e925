//! Input and output shared by every command: `-` for stdin, exit statuses.

use std::io::{self, BufRead};
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

/// The inputs named by a positional argument: the argument itself, or, for `-`, one input per
/// line of standard input (an empty line is the empty string).
pub fn inputs(arg: &str) -> io::Result<Vec<String>> {
    if arg != "-" {
        return Ok(vec![arg.to_owned()]);
    }
    let stdin = io::stdin();
    let mut out = Vec::new();
    for line in stdin.lock().lines() {
        let line = line?;
        out.push(line.strip_suffix('\r').unwrap_or(&line).to_owned());
    }
    Ok(out)
}

/// Prints one value as a line of JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
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
