//! `tracklayer metro …`: filled in by the Metro engine work.

use clap::Subcommand;

use crate::cli_io::Outcome;

#[derive(Debug, Subcommand)]
pub enum MetroCommand {}

pub fn run(cmd: MetroCommand) -> anyhow::Result<Outcome> {
    match cmd {}
}
