//! Streaks: a player's run of consecutive days with a finished daily challenge of one kind,
//! kept in the transaction of the finished entry.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError, read};

/// The kinds of challenge a streak counts: one a day, each its own streak.
pub const STREAK_KINDS: [&str; 2] = ["daily", "metro-daily"];

/// A player's run of consecutive days with a finished daily challenge of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streak {
    /// The days of the run that ends on `last`.
    pub current: i64,
    /// The longest run ever.
    pub longest: i64,
    /// The run's last day (`2026-11-27`).
    pub last: Option<String>,
}

/// The day after `day` (`YYYY-MM-DD`), if it is a day.
pub(crate) fn next_day(day: &str) -> Option<String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(day, format).ok()?;
    date.next_day()?.format(format).ok()
}

/// Counts a finished entry of `challenge` in `player`'s streak of its kind (in the entry's
/// transaction): the next day of the run lengthens it, the same day changes nothing, any other
/// day starts a new run.
pub(crate) async fn extend_streak<S: Sql>(
    s: &mut S,
    player: &str,
    challenge: &str,
) -> Result<(), StorageError> {
    let Some(mut c) = s
        .row(
            "SELECT kind, period FROM challenges WHERE id = ?1",
            args![challenge],
        )
        .await?
    else {
        return Ok(());
    };
    let (kind, day): (String, Option<String>) = (c.get(0)?, c.get(1)?);
    let Some(day) = day.filter(|_| STREAK_KINDS.contains(&kind.as_str())) else {
        return Ok(());
    };
    let before = streak_row(s, player, &kind).await?;
    let current = match &before.last {
        Some(last) if *last == day => return Ok(()),
        Some(last) if next_day(last).as_deref() == Some(day.as_str()) => before.current + 1,
        _ => 1,
    };
    s.exec(
        "INSERT INTO streaks (player, kind, last, current, longest) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (player, kind) DO UPDATE SET last = ?3, current = ?4, longest = ?5",
        args![player, &kind, &day, current, current.max(before.longest)],
    )
    .await?;
    Ok(())
}

pub(crate) async fn streak_row<S: Sql>(
    s: &mut S,
    player: &str,
    kind: &str,
) -> Result<Streak, StorageError> {
    match s
        .row(
            "SELECT current, longest, last FROM streaks WHERE player = ?1 AND kind = ?2",
            args![player, kind],
        )
        .await?
    {
        Some(mut r) => Ok(Streak {
            current: r.get(0)?,
            longest: r.get(1)?,
            last: r.get(2)?,
        }),
        None => Ok(Streak::default()),
    }
}

/// Fills the streaks from the finished daily entries stored before streaks were kept (run once,
/// by the migration that makes their table).
pub(crate) async fn backfill_streaks<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let rows = s
        .rows(
            "SELECT e.player, e.challenge FROM entries e JOIN challenges c ON c.id = e.challenge
             WHERE e.player IS NOT NULL AND e.finished IS NOT NULL
               AND c.kind IN ('daily', 'metro-daily')
             ORDER BY c.period, e.player",
            args![],
        )
        .await?;
    for mut r in rows {
        let (player, challenge): (String, String) = (r.get(0)?, r.get(1)?);
        extend_streak(s, &player, &challenge).await?;
    }
    Ok(())
}

impl Storage {
    /// A player's streak of each kind (see [`STREAK_KINDS`]), as stored: its run may have
    /// ended since (the caller knows today).
    pub async fn streaks(&self, player: &str) -> Result<Vec<(String, Streak)>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            let mut out = Vec::new();
            for kind in STREAK_KINDS {
                out.push((kind.to_owned(), streak_row(&mut s, &player, kind).await?));
            }
            Ok(out)
        })
    }
}
