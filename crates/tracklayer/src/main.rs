//! `tracklayer`: the command line over the Railroad Ink and Metro engines, and the game server.

mod cli_io;
mod ink;
mod metro;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Tile-laying board games: Railroad Ink (Deep Blue Edition) and Metro.
///
/// Without a command, serves the browser game on http://127.0.0.1:8080.
#[derive(Debug, Parser)]
#[command(name = "tracklayer", version, after_help = "Examples:\n  tracklayer                         serve the game\n  tracklayer ink score A4A10A4B10    score a Railroad Ink board\n  tracklayer metro check aaaa03      check a Metro sequence")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Railroad Ink: check, score, roll dice, generate moves.
    #[command(subcommand)]
    Ink(ink::InkCommand),
    /// Metro: check, score, draw tiles, generate moves.
    #[command(subcommand)]
    Metro(metro::MetroCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Ink(cmd)) => ink::run(cmd),
        Some(Command::Metro(cmd)) => metro::run(cmd),
        None => {
            eprintln!("The game server is not built yet. Try `tracklayer --help` for the command line.");
            Ok(cli_io::Outcome::Accepted)
        }
    };
    match result {
        Ok(outcome) => outcome.exit_code(),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
