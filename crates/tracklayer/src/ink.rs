//! `tracklayer ink …`: filled in by the Railroad Ink engine work.

use clap::Subcommand;

use crate::cli_io::Outcome;

#[derive(Debug, Subcommand)]
pub enum InkCommand {}

pub fn run(cmd: InkCommand) -> anyhow::Result<Outcome> {
    match cmd {}
}
