//! An operator's moderation, against the database (so it holds for every process at once):
//! renaming a player, hiding an entry from its leaderboard (its game stays), and stopping a
//! network from ranking; each action logged with its reason.
//!
//! A hidden entry keeps its row and its game, with `ranked = 2`: the leaderboards list ranked
//! entries (`ranked = 1`) and, apart, unranked ones (`ranked = 0`), so it is in neither, and its
//! score leaves the challenge's counts.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError, Write, read};

/// The tables (both backends alike).
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS moderation (
    at     BIGINT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS moderation_in_order ON moderation (at);
CREATE TABLE IF NOT EXISTS stopped_networks (
    addr   TEXT PRIMARY KEY,
    at     BIGINT NOT NULL,
    reason TEXT NOT NULL
);
";

/// An entry hidden from its leaderboard.
pub(crate) const HIDDEN: i64 = 2;

/// A moderation action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moderation {
    /// A player's new name (checked by the caller) and its key: their seats and entries take it.
    Rename {
        player: String,
        name: String,
        key: String,
    },
    /// A player's entry in a challenge leaves its leaderboard.
    Hide { challenge: String, player: String },
    /// A network's entries (its keyed hash, as entries keep it) rank no more from now on.
    StopRanking { addr: String, shown: String },
}

/// One logged action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    pub at: i64,
    pub action: String,
    pub target: String,
    pub reason: String,
}

pub(crate) async fn apply<S: Sql>(
    s: &mut S,
    m: &Moderation,
    at: i64,
    reason: &str,
) -> Result<(), StorageError> {
    let (action, target) = match m {
        Moderation::Rename { player, name, key } => {
            let changed = s
                .exec(
                    "UPDATE players SET name = ?2, name_key = ?3 WHERE id = ?1",
                    args![player, name, key],
                )
                .await?;
            if changed != 1 {
                return Err(StorageError::NotFound(format!("no player {player}")));
            }
            s.exec(
                "UPDATE seats SET name = ?2 WHERE player = ?1",
                args![player, name],
            )
            .await?;
            s.exec(
                "UPDATE entries SET name = ?2 WHERE player = ?1",
                args![player, name],
            )
            .await?;
            ("rename", format!("{player} to {name}"))
        }
        Moderation::Hide { challenge, player } => {
            let row = s
                .row(
                    "SELECT ranked, finished, score FROM entries WHERE challenge = ?1 AND player = ?2",
                    args![challenge, player],
                )
                .await?;
            let Some(mut row) = row else {
                return Err(StorageError::NotFound(format!(
                    "{player} has no entry in {challenge}"
                )));
            };
            let (ranked, finished, score): (i64, Option<i64>, Option<i64>) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            if ranked == HIDDEN {
                return Err(StorageError::Duplicate(format!(
                    "{player}'s entry in {challenge} is hidden already"
                )));
            }
            if let (1, Some(_), Some(score)) = (ranked, finished, score) {
                s.exec(
                    "UPDATE entry_scores SET count = count - 1 WHERE challenge = ?1 AND score = ?2",
                    args![challenge, score],
                )
                .await?;
            }
            s.exec(
                "UPDATE entries SET ranked = ?3 WHERE challenge = ?1 AND player = ?2",
                args![challenge, player, HIDDEN],
            )
            .await?;
            ("hide", format!("{player} in {challenge}"))
        }
        Moderation::StopRanking { addr, shown } => {
            s.exec(
                "INSERT INTO stopped_networks (addr, at, reason) VALUES (?1, ?2, ?3)
                 ON CONFLICT (addr) DO NOTHING",
                args![addr, at, reason],
            )
            .await?;
            ("stop-ranking", shown.clone())
        }
    };
    s.exec(
        "INSERT INTO moderation (at, action, target, reason) VALUES (?1, ?2, ?3, ?4)",
        args![at, action, &target, reason],
    )
    .await?;
    Ok(())
}

impl Storage {
    /// Takes a moderation action at `at` (milliseconds since the Unix epoch) for `reason`, and
    /// logs it, in one transaction. A player or entry that is none is
    /// [`StorageError::NotFound`]; a new name another player has, [`StorageError::Duplicate`].
    pub async fn moderate(
        &self,
        action: Moderation,
        at: i64,
        reason: &str,
    ) -> Result<(), StorageError> {
        self.write(Write::Moderate(action, at, reason.to_owned()))
            .await
    }

    /// The moderation log, newest first, at most `limit`.
    pub async fn moderation_log(&self, limit: usize) -> Result<Vec<Logged>, StorageError> {
        read!(self, |s| async move {
            s.rows_as(
                "SELECT at, action, target, reason FROM moderation ORDER BY at DESC LIMIT ?1",
                args![limit],
                |mut r| {
                    Ok(Logged {
                        at: r.get(0)?,
                        action: r.get(1)?,
                        target: r.get(2)?,
                        reason: r.get(3)?,
                    })
                },
            )
            .await
        })
    }
}
