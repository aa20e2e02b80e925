//! The pool of people waiting to be seated with strangers ("play someone now"): one entry per
//! person waiting (a second is [`StorageError::Duplicate`]), taken by the game made for it in
//! that game's own transaction (see [`crate::NewGame::pool`]), so that a person gets one seat
//! and no two processes make a game of the same people.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError, Write, read};

/// One person waiting in the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolEntry {
    /// The entry's id (a random ticket).
    pub ticket: String,
    /// The game they wait for (its kind).
    pub kind: String,
    pub player: String,
    /// Their name, as their seat will show it.
    pub name: String,
    /// Their network, keyed (see the entries of challenges): two of one network never meet.
    pub addr: Option<String>,
    /// Their rating as shown, when they wait (the pool seats people near it).
    pub rating: i64,
    /// How many seats they want at the table, 0 for any.
    pub seats: usize,
    /// The time control, as the server names it (only equal ones meet).
    pub clock: String,
    /// After how long (milliseconds) computers may fill the empty seats; `None`: never.
    pub fill_after: Option<i64>,
    /// The hash of the token of the seat they will get (they hold the token).
    pub token_hash: String,
    /// When they joined and when they last asked, in milliseconds since the Unix epoch.
    pub joined: i64,
    pub seen: i64,
    /// The game they were seated in, and their seat, once they are.
    pub seated: Option<(String, usize)>,
}

/// A pool entry that a new game seats: its ticket and the seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolSeat {
    pub ticket: String,
    pub seat: usize,
}

/// A change to the pool.
#[derive(Debug, Clone)]
pub(crate) enum PoolWrite {
    Join(Box<PoolEntry>),
    /// A player leaves the pool (their waiting entry).
    Leave(String),
    /// A waiting entry asked again at this time.
    Seen(String, i64),
    /// Entries waiting that nobody asked about since the first time, and entries seated
    /// before the second, go.
    Sweep(i64, i64),
}

pub(crate) async fn write<S: Sql>(s: &mut S, write: &PoolWrite) -> Result<(), StorageError> {
    match write {
        PoolWrite::Join(e) => {
            s.exec(
                "INSERT INTO pool (ticket, kind, player, addr, rating, seats, clock, fill_after,
                                   token_hash, joined, seen, name)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                args![
                    &e.ticket,
                    &e.kind,
                    &e.player,
                    e.addr.as_deref(),
                    e.rating,
                    e.seats,
                    &e.clock,
                    e.fill_after,
                    &e.token_hash,
                    e.joined,
                    e.seen,
                    &e.name,
                ],
            )
            .await?;
        }
        PoolWrite::Leave(player) => {
            s.exec(
                "DELETE FROM pool WHERE player = ?1 AND game IS NULL",
                args![player],
            )
            .await?;
        }
        PoolWrite::Seen(ticket, at) => {
            s.exec(
                "UPDATE pool SET seen = ?2 WHERE ticket = ?1",
                args![ticket, *at],
            )
            .await?;
        }
        PoolWrite::Sweep(unseen, seated) => {
            s.exec(
                "DELETE FROM pool WHERE (game IS NULL AND seen < ?1) OR (game IS NOT NULL AND joined < ?2)",
                args![*unseen, *seated],
            )
            .await?;
        }
    }
    Ok(())
}

/// Seats the pool's entries in game `game` (inside its creation's transaction): each must be
/// waiting still, or the game is not made ([`StorageError::Conflict`]: another process seated
/// one of them first).
pub(crate) async fn seat<S: Sql>(
    s: &mut S,
    game: &str,
    seats: &[PoolSeat],
) -> Result<(), StorageError> {
    for p in seats {
        let changed = s
            .exec(
                "UPDATE pool SET game = ?2, seat = ?3 WHERE ticket = ?1 AND game IS NULL",
                args![&p.ticket, game, p.seat],
            )
            .await?;
        if changed != 1 {
            return Err(StorageError::Conflict(game.to_owned()));
        }
    }
    Ok(())
}

const COLUMNS: &str = "ticket, kind, player, addr, rating, seats, clock, fill_after, token_hash,
                       joined, seen, game, seat, name";

fn entry(mut r: crate::sql::Row) -> Result<PoolEntry, StorageError> {
    Ok(PoolEntry {
        ticket: r.get(0)?,
        kind: r.get(1)?,
        player: r.get(2)?,
        addr: r.get(3)?,
        rating: r.get(4)?,
        seats: r.get(5)?,
        clock: r.get(6)?,
        fill_after: r.get(7)?,
        token_hash: r.get(8)?,
        joined: r.get(9)?,
        seen: r.get(10)?,
        seated: match r.get::<Option<String>>(11)? {
            Some(game) => Some((game, r.get(12)?)),
            None => None,
        },
        name: r.get(13)?,
    })
}

impl Storage {
    /// Puts a person in the pool; [`StorageError::Duplicate`] if they wait already.
    pub async fn pool_join(&self, entry: PoolEntry) -> Result<(), StorageError> {
        self.write(Write::Pool(PoolWrite::Join(Box::new(entry))))
            .await
    }

    /// Takes a player's waiting entry out of the pool (nothing if they wait for nothing).
    pub async fn pool_leave(&self, player: &str) -> Result<(), StorageError> {
        self.write(Write::Pool(PoolWrite::Leave(player.to_owned())))
            .await
    }

    /// Records that a waiting entry's person asked about it at `at` (they are still there).
    pub async fn pool_seen(&self, ticket: &str, at: i64) -> Result<(), StorageError> {
        self.write(Write::Pool(PoolWrite::Seen(ticket.to_owned(), at)))
            .await
    }

    /// Removes the entries of people who stopped asking before `unseen` and the seated ones
    /// that joined before `seated`.
    pub async fn pool_sweep(&self, unseen: i64, seated: i64) -> Result<(), StorageError> {
        self.write(Write::Pool(PoolWrite::Sweep(unseen, seated)))
            .await
    }

    /// A player's latest entry in the pool (waiting, or seated), if any.
    pub async fn pool_entry(&self, player: &str) -> Result<Option<PoolEntry>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    &format!(
                        "SELECT {COLUMNS} FROM pool WHERE player = ?1
                         ORDER BY game IS NULL DESC, joined DESC LIMIT 1"
                    ),
                    args![&player],
                )
                .await?
            {
                Some(r) => entry(r).map(Some),
                None => Ok(None),
            }
        })
    }

    /// Everyone waiting in the pool for a game of `kind`, the longest waiting first.
    pub async fn pool_waiting(&self, kind: &str) -> Result<Vec<PoolEntry>, StorageError> {
        let kind = kind.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                &format!(
                    "SELECT {COLUMNS} FROM pool WHERE kind = ?1 AND game IS NULL
                     ORDER BY joined, ticket"
                ),
                args![&kind],
                entry,
            )
            .await
        })
    }

    /// How many wait in the pool, by kind of game.
    pub async fn pool_counts(&self) -> Result<Vec<(String, i64)>, StorageError> {
        read!(self, |s| async move {
            s.rows_as(
                "SELECT kind, CAST(count(*) AS BIGINT) FROM pool WHERE game IS NULL GROUP BY kind",
                args![],
                |mut r| Ok((r.get(0)?, r.get(1)?)),
            )
            .await
        })
    }
}
