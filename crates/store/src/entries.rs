//! A challenge's entries and its leaderboard.
//!
//! A challenge's entry is one seat of one game played in it. Its rank is read from an index
//! (`entries_ranked`: score, then the tie break `k2`, then the earlier finish, all within one
//! challenge), never from a sort of the whole table; the count of finished entries at each
//! score (`entry_scores`) gives both the histogram and, summed, how many entries rank above a
//! score. Every counter changes in the same transaction as the entry it counts.

use crate::sql::{Arg, Row, Sql, args};
use crate::streaks::extend_streak;
use crate::{SeatResult, Storage, StorageError, read};

/// Stores an entry of a game being stored, and counts its player. An entry from a network
/// that has one in the challenge already is stored unranked.
/// A new entry, stored with its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    pub challenge: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub started: i64,
    /// The keyed hash of the network it was started from (see the server's `challenges`), when
    /// entries are ranked one per network: a second entry from the same network is stored
    /// unranked. Kept until the challenge closes.
    pub addr: Option<String>,
    /// Refused ([`StorageError::Closed`]) at or after this time by the database's clock: the
    /// challenge's close.
    pub deadline: Option<i64>,
}

/// An entry as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    pub challenge: String,
    pub game: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub started: i64,
    pub finished: Option<i64>,
    pub score: Option<i64>,
    pub k2: Option<i64>,
    /// Whether it counts on the leaderboard (not: another entry came from its network first).
    pub ranked: bool,
}

/// A finished entry of a friend challenge's first game (its seats join as they played).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedEntry {
    pub game: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub at: i64,
    pub score: i64,
    pub k2: i64,
}

pub(crate) async fn insert_entry<S: Sql>(
    s: &mut S,
    game: &str,
    e: &NewEntry,
) -> Result<(), StorageError> {
    super::before_deadline(s, e.deadline).await?;
    s.exec(
        "INSERT INTO entries (challenge, game, seat, player, name, started, addr, ranked)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
            CASE WHEN CAST(?7 AS TEXT) IS NOT NULL
                  AND (EXISTS (SELECT 1 FROM entries o WHERE o.challenge = ?1 AND o.addr = ?7)
                       OR EXISTS (SELECT 1 FROM stopped_networks n WHERE n.addr = ?7))
                 THEN 0 ELSE 1 END)",
        args![
            &e.challenge,
            game,
            e.seat,
            e.player.as_deref(),
            &e.name,
            e.started,
            e.addr.as_deref(),
        ],
    )
    .await?;
    let changed = s
        .exec(
            "UPDATE challenges SET players = players + 1 WHERE id = ?1",
            args![&e.challenge],
        )
        .await?;
    if changed != 1 {
        return Err(StorageError::Corrupt(format!(
            "no challenge {}",
            e.challenge
        )));
    }
    Ok(())
}

/// Records the results of a game's entries, if it is a challenge's (called with every finish).
pub(crate) async fn finish_entries<S: Sql>(
    s: &mut S,
    game: &str,
    finished: &super::Finished,
) -> Result<(), StorageError> {
    for &result in &finished.entries {
        finish_entry(s, game, finished.at, result).await?;
    }
    Ok(())
}

pub(crate) async fn finish_entry<S: Sql>(
    s: &mut S,
    game: &str,
    at: i64,
    result: SeatResult,
) -> Result<(), StorageError> {
    let row = s
        .row(
            "UPDATE entries SET finished = ?3, score = ?4, k2 = ?5
             WHERE game = ?1 AND seat = ?2 AND finished IS NULL RETURNING challenge, ranked, player",
            args![game, result.seat, at, result.score, result.k2],
        )
        .await?;
    let Some(mut row) = row else {
        return Ok(()); // not a challenge's game, or that seat has no entry
    };
    let challenge: String = row.get(0)?;
    let ranked = row.get::<i64>(1)? == 1;
    if let Some(player) = row.get::<Option<String>>(2)? {
        extend_streak(s, &player, &challenge).await?;
    }
    if !ranked {
        return Ok(()); // unranked: not counted
    }
    s.exec(
        "INSERT INTO entry_scores (challenge, score, count) VALUES (?1, ?2, 1)
         ON CONFLICT (challenge, score) DO UPDATE SET count = entry_scores.count + 1",
        args![&challenge, result.score],
    )
    .await?;
    Ok(())
}

pub(crate) const ENTRY_COLUMNS: &str =
    "challenge, game, seat, player, name, started, finished, score, k2, ranked";

pub(crate) fn entry(mut r: Row) -> Result<EntryRow, StorageError> {
    Ok(EntryRow {
        challenge: r.get(0)?,
        game: r.get(1)?,
        seat: r.get(2)?,
        player: r.get(3)?,
        name: r.get(4)?,
        started: r.get(5)?,
        finished: r.get(6)?,
        score: r.get(7)?,
        k2: r.get(8)?,
        ranked: r.get::<i64>(9)? == 1,
    })
}

/// The one order of a leaderboard, everywhere: the higher score, then the better tie break
/// `k2` (fewer errors; the larger margin), then the earlier finish, then the game's id, then
/// the seat (the seats of one game finish together).
pub(crate) const RANK_ORDER: &str = "score DESC, k2 DESC, finished, game, seat";

/// Whether `e` ranks above the entry `(score, k2, finished, game, seat)` (`?3` to `?6`): the
/// SQL condition on the columns, for one score group (the groups above come from
/// `entry_scores`).
pub(crate) const ABOVE_IN_GROUP: &str = "(k2 > ?3 OR (k2 = ?3 AND (finished < ?4 OR (finished = ?4 AND (game < ?5 OR (game = ?5 AND seat < ?6))))))";
pub(crate) const BELOW_IN_GROUP: &str = "(k2 < ?3 OR (k2 = ?3 AND (finished > ?4 OR (finished = ?4 AND (game > ?5 OR (game = ?5 AND seat > ?6))))))";

/// The ranking key of a finished entry.
pub(crate) fn key(e: &EntryRow) -> Result<(i64, i64, i64), StorageError> {
    match (e.score, e.k2, e.finished) {
        (Some(s), Some(k), Some(f)) => Ok((s, k, f)),
        _ => Err(StorageError::Corrupt(format!(
            "entry of game {} is not finished",
            e.game
        ))),
    }
}

pub(crate) async fn rank_and_around<S: Sql>(
    s: &mut S,
    e: EntryRow,
    n: usize,
) -> Result<(usize, Vec<EntryRow>), StorageError> {
    let (score, k2, finished) = key(&e)?;
    if !e.ranked {
        return Err(StorageError::Corrupt(format!(
            "entry of game {} is not ranked",
            e.game
        )));
    }
    let ranked_here = "challenge = ?1 AND finished IS NOT NULL AND ranked = 1";
    let count = |row: Option<Row>| -> Result<i64, StorageError> {
        match row {
            Some(mut r) => r.get(0),
            None => Ok(0),
        }
    };
    let above_groups = count(
        s.row(
            "SELECT CAST(coalesce(sum(count), 0) AS BIGINT) FROM entry_scores
             WHERE challenge = ?1 AND score > ?2",
            args![&e.challenge, score],
        )
        .await?,
    )?;
    let above_here = count(
        s.row(
            &format!(
                "SELECT CAST(count(*) AS BIGINT) FROM entries
                 WHERE {ranked_here} AND score = ?2 AND {ABOVE_IN_GROUP}"
            ),
            args![&e.challenge, score, k2, finished, &e.game, e.seat],
        )
        .await?,
    )?;
    let rank = (above_groups + above_here) as usize + 1;
    // The n just above: first from the same score, then from higher scores.
    let mut above = entries_where(
        s,
        &format!(
            "{ranked_here} AND score = ?2 AND {ABOVE_IN_GROUP}
             ORDER BY k2, finished DESC, game DESC, seat DESC LIMIT ?7"
        ),
        args![&e.challenge, score, k2, finished, &e.game, e.seat, n],
    )
    .await?;
    if above.len() < n {
        above.extend(
            entries_where(
                s,
                &format!(
                    "{ranked_here} AND score > ?2
                     ORDER BY score, k2, finished DESC, game DESC, seat DESC LIMIT ?3"
                ),
                args![&e.challenge, score, n - above.len()],
            )
            .await?,
        );
    }
    above.reverse();
    let mut below = entries_where(
        s,
        &format!(
            "{ranked_here} AND score = ?2 AND {BELOW_IN_GROUP} ORDER BY {RANK_ORDER} LIMIT ?7"
        ),
        args![&e.challenge, score, k2, finished, &e.game, e.seat, n],
    )
    .await?;
    if below.len() < n {
        below.extend(
            entries_where(
                s,
                &format!("{ranked_here} AND score < ?2 ORDER BY {RANK_ORDER} LIMIT ?3"),
                args![&e.challenge, score, n - below.len()],
            )
            .await?,
        );
    }
    let mut rows = above;
    rows.push(e);
    rows.extend(below);
    Ok((rank, rows))
}

/// The entries that meet `tail` (a condition, then any order and limit).
pub(crate) async fn entries_where<S: Sql>(
    s: &mut S,
    tail: &str,
    args: &[Arg<'_>],
) -> Result<Vec<EntryRow>, StorageError> {
    s.rows_as(
        &format!("SELECT {ENTRY_COLUMNS} FROM entries WHERE {tail}"),
        args,
        entry,
    )
    .await
}

#[cfg(any(test, feature = "test-util"))]
/// Fills a challenge with `n` finished entries at once, for measuring the leaderboard (a
/// test fixture: one transaction; each entry's game is an empty row). `score_of(i)` is entry
/// `i`'s `(score, k2, finish time)`; its game's id is `i` as 24 hex digits.
#[doc(hidden)]
pub async fn fill_for_test(
    database: &super::Database,
    challenge: &str,
    n: usize,
    score_of: impl Fn(usize) -> (i64, i64, i64),
) -> Result<(), StorageError> {
    let storage = Storage::connect(database).await?;
    let rows = (0..n).map(score_of).collect();
    storage
        .write(super::Write::Fill(challenge.to_owned(), rows))
        .await
}

#[cfg(any(test, feature = "test-util"))]
/// The statements of [`fill_for_test`].
pub(crate) async fn fill<S: Sql>(
    s: &mut S,
    challenge: &str,
    rows: &[(i64, i64, i64)],
) -> Result<(), StorageError> {
    for (i, &(score, k2, at)) in rows.iter().enumerate() {
        let game = format!("{i:024x}");
        s.exec(
            // The challenge's game: whatever kind it is.
            "INSERT INTO games (id, kind, mode, setup, created, challenge)
             SELECT CAST(?1 AS TEXT), c.game, 'challenge', '{}', CAST(?2 AS BIGINT), c.id
             FROM challenges c WHERE c.id = ?3",
            args![&game, at, challenge],
        )
        .await?;
        s.exec(
            "INSERT INTO entries (challenge, game, seat, player, name, started, finished, score, k2)
             VALUES (?1, ?2, 0, NULL, ?3, ?4, ?4, ?5, ?6)",
            args![challenge, &game, &format!("Player {i}"), at, score, k2],
        )
        .await?;
        s.exec(
            "INSERT INTO entry_scores (challenge, score, count) VALUES (?1, ?2, 1)
             ON CONFLICT (challenge, score) DO UPDATE SET count = entry_scores.count + 1",
            args![challenge, score],
        )
        .await?;
    }
    s.exec(
        "UPDATE challenges SET players = players + ?2 WHERE id = ?1",
        args![challenge, rows.len()],
    )
    .await?;
    Ok(())
}

impl Storage {
    /// When the unfinished entry of a challenge started from network `addr` (its keyed hash)
    /// started, if there is one (there is at most one: `entries_open_by_network`).
    pub async fn open_entry_of_network(
        &self,
        challenge: &str,
        addr: &str,
    ) -> Result<Option<i64>, StorageError> {
        let (challenge, addr) = (challenge.to_owned(), addr.to_owned());
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT started FROM entries
                     WHERE challenge = ?1 AND addr = ?2 AND finished IS NULL",
                    args![&challenge, &addr],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// A player's entry in a challenge.
    pub async fn entry(
        &self,
        challenge: &str,
        player: &str,
    ) -> Result<Option<EntryRow>, StorageError> {
        let (challenge, player) = (challenge.to_owned(), player.to_owned());
        read!(self, |s| async move {
            Ok(entries_where(
                &mut s,
                "challenge = ?1 AND player = ?2",
                args![&challenge, &player],
            )
            .await?
            .pop())
        })
    }

    /// The best `limit` finished entries of a challenge, best first.
    pub async fn top_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        self.finished_entries(challenge, true, limit).await
    }

    /// Finished entries that are not ranked (another entry came from their network first), in
    /// the leaderboard's order, at most `limit`.
    pub async fn unranked_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        self.finished_entries(challenge, false, limit).await
    }

    /// Entries not finished yet, the earliest started first, at most `limit`.
    pub async fn unfinished_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| entries_where(
            &mut s,
            "challenge = ?1 AND finished IS NULL ORDER BY started, game LIMIT ?2",
            args![&challenge, limit],
        ))
    }

    /// The finished entries of a challenge by score, lowest first: `(score, count)`.
    pub async fn score_counts(&self, challenge: &str) -> Result<Vec<(i64, i64)>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                "SELECT score, count FROM entry_scores WHERE challenge = ?1 ORDER BY score",
                args![&challenge],
                |mut r| Ok((r.get(0)?, r.get(1)?)),
            )
            .await
        })
    }

    /// A finished entry's rank (1 is the best) and up to `n` entries either side of it, in
    /// order (the entry itself among them).
    pub async fn rank_and_around(
        &self,
        e: &EntryRow,
        n: usize,
    ) -> Result<(usize, Vec<EntryRow>), StorageError> {
        let e = e.clone();
        read!(self, |s| rank_and_around(&mut s, e, n))
    }

    /// Finished entries, ranked or not, in the leaderboard's order, at most `limit`.
    async fn finished_entries(
        &self,
        challenge: &str,
        ranked: bool,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| entries_where(
            &mut s,
            &format!(
                "challenge = ?1 AND finished IS NOT NULL AND ranked = ?2 ORDER BY {RANK_ORDER} LIMIT ?3"
            ),
            args![&challenge, i64::from(ranked), limit],
        ))
    }
}
