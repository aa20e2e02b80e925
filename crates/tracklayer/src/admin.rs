//! `tracklayer admin`: an operator's moderation, against the database, so that it holds for
//! every server process at once (they read leaderboards, names and networks from it): rename a
//! player, hide an entry from its leaderboard, stop a network from ranking, read the log. Each
//! action is logged with its reason.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Subcommand;
use server::storage::moderation::Moderation;
use server::storage::{Storage, StorageError, block_on, names};

use crate::DbArg;

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Give a player another name (their seats and leaderboard entries take it), checked as a
    /// new player's name is.
    #[command(
        after_help = "Examples:\n  tracklayer admin rename --player 0123456789abcdef01234567 --name \"Player 7\" --reason \"an insult in the name\""
    )]
    Rename {
        /// The player's id (their page is /players/ID).
        #[arg(long)]
        player: String,
        /// The new name.
        #[arg(long)]
        name: String,
        /// Why, for the log.
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Hide a player's entry from a challenge's leaderboard (its game stays, and the player's
    /// own records).
    #[command(
        after_help = "Examples:\n  tracklayer admin hide --challenge daily-2026-11-28 --player 0123456789abcdef01234567 --reason \"a copied board\""
    )]
    Hide {
        #[arg(long)]
        challenge: String,
        #[arg(long)]
        player: String,
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Stop a network (an IPv4 address, or the /64 of an IPv6 one) from ranking: its entries
    /// from now on are played but ranked apart, below the ranks.
    #[command(
        name = "stop-ranking",
        after_help = "Examples:\n  tracklayer admin stop-ranking --address 203.0.113.7 --reason \"many players, one person\""
    )]
    StopRanking {
        #[arg(long)]
        address: std::net::IpAddr,
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// The moderation log, newest first.
    #[command(after_help = "Examples:\n  tracklayer admin log --limit 20")]
    Log {
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[command(flatten)]
        db: DbArg,
    },
}

/// Runs an admin command.
pub fn run(command: AdminCommand) -> ExitCode {
    let result = block_on(async {
        match command {
            AdminCommand::Rename {
                player,
                name,
                reason,
                db,
            } => {
                let name = match names::person_name(Some(&name), String::new) {
                    Ok(name) if !name.is_empty() => name,
                    Ok(_) => return Ok(Err("a new name needs a character that shows".into())),
                    Err(e) => return Ok(Err(e.to_string())),
                };
                let key = names::key(&name);
                let target = format!("{player} is called {name} now");
                act(
                    &db,
                    Moderation::Rename { player, name, key },
                    &reason,
                    target,
                )
                .await
            }
            AdminCommand::Hide {
                challenge,
                player,
                reason,
                db,
            } => {
                let target = format!("{player}'s entry in {challenge} is hidden");
                act(&db, Moderation::Hide { challenge, player }, &reason, target).await
            }
            AdminCommand::StopRanking {
                address,
                reason,
                db,
            } => {
                let storage = Storage::connect(&db.database).await?;
                let addr = server::network::Network::of(address).keyed_hash(storage.secret());
                let shown = server::network::Network::of(address).ip().to_string();
                let target = format!("{shown} ranks no more");
                drop(storage);
                act(
                    &db,
                    Moderation::StopRanking { addr, shown },
                    &reason,
                    target,
                )
                .await
            }
            AdminCommand::Log { limit, db } => {
                let storage = Storage::connect(&db.database).await?;
                let mut out = std::io::stdout().lock();
                for l in storage.moderation_log(limit).await? {
                    let _ = writeln!(
                        out,
                        "{}  {}  {}  ({})",
                        server::clock::rfc3339(l.at),
                        l.action,
                        l.target,
                        l.reason
                    );
                }
                Ok(Ok(String::new()))
            }
        }
    });
    match result {
        Ok(Ok(done)) => {
            if !done.is_empty() {
                let _ = writeln!(std::io::stdout(), "{done}");
            }
            ExitCode::SUCCESS
        }
        Ok(Err(refused)) => {
            eprintln!("error: {refused}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Takes `action` for `reason` against the database, logged: what was done, or why not.
async fn act(
    db: &DbArg,
    action: Moderation,
    reason: &str,
    done: String,
) -> Result<Result<String, String>, StorageError> {
    if reason.trim().is_empty() {
        return Ok(Err("say why with --reason: the log keeps it".into()));
    }
    let storage = Storage::connect(&db.database).await?;
    Ok(
        match storage
            .moderate(action, server::storage::now_ms(), reason.trim())
            .await
        {
            Ok(()) => Ok(done),
            Err(StorageError::Duplicate(what)) => Err(format!(
                "{what}: nothing changed (a name another player has, or an entry hidden already)"
            )),
            Err(StorageError::NotFound(what)) => Err(what),
            Err(e) => return Err(e),
        },
    )
}
