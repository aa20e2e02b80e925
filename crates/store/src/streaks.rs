//! Streaks: a player's run of consecutive periods with a finished challenge of one kind, kept
//! in the transaction of the finished entry. Which challenges count, and which period comes
//! before which, is the server's to say: it stores each challenge that counts with the period
//! its streak must have reached before (`streak_follows`); nothing here knows a kind.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError, read};

/// A player's run of consecutive periods with a finished challenge of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streak {
    /// The periods of the run that ends on `last`.
    pub current: i64,
    /// The longest run ever.
    pub longest: i64,
    /// The run's last period (`2026-11-27`).
    pub last: Option<String>,
}

/// Counts a finished entry of `challenge` in `player`'s streak of its kind (in the entry's
/// transaction), if the challenge counts toward one (it names the period before its own).
pub(crate) async fn extend_streak<S: Sql>(
    s: &mut S,
    player: &str,
    challenge: &str,
) -> Result<(), StorageError> {
    let Some(mut c) = s
        .row(
            "SELECT kind, period, streak_follows FROM challenges WHERE id = ?1",
            args![challenge],
        )
        .await?
    else {
        return Ok(());
    };
    let (kind, period, follows): (String, Option<String>, Option<String>) =
        (c.get(0)?, c.get(1)?, c.get(2)?);
    match (period, follows) {
        (Some(period), Some(follows)) => extend(s, player, &kind, &period, &follows).await,
        _ => Ok(()),
    }
}

/// Counts `period` in `player`'s streak of `kind`: when the run's last period is `follows` (the
/// one before `period`) it lengthens, when it is `period` nothing changes, otherwise a new run
/// starts.
async fn extend<S: Sql>(
    s: &mut S,
    player: &str,
    kind: &str,
    period: &str,
    follows: &str,
) -> Result<(), StorageError> {
    let before = streak_row(s, player, kind).await?;
    let current = match before.last.as_deref() {
        Some(last) if last == period => return Ok(()),
        Some(last) if last == follows => before.current + 1,
        _ => 1,
    };
    s.exec(
        "INSERT INTO streaks (player, kind, last, current, longest) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (player, kind) DO UPDATE SET last = ?3, current = ?4, longest = ?5",
        args![player, kind, period, current, current.max(before.longest)],
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

// ---------------------------------------------------------------------------------------
// History: the migrations of the time when storage itself knew which challenges counted (the
// daily ones of two kinds, one a day). Their statements stay as they ran.

/// The kinds of challenge whose streaks were kept before the server said which count (the
/// migrations below fill those in).
const DAILY_KINDS_THEN: &str = "('daily', 'metro-daily')";

/// The day before `day` (`YYYY-MM-DD`), if it is a day.
fn day_before(day: &str) -> Option<String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(day, format).ok()?;
    date.previous_day()?.format(format).ok()
}

/// Fills the streaks from the finished daily entries stored before streaks were kept (run once,
/// by the migration that makes their table: SQLite's 6, PostgreSQL's 4).
pub(crate) async fn backfill_streaks<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let rows = s
        .rows(
            &format!(
                "SELECT e.player, c.kind, c.period FROM entries e JOIN challenges c ON c.id = e.challenge
                 WHERE e.player IS NOT NULL AND e.finished IS NOT NULL AND c.period IS NOT NULL
                   AND c.kind IN {DAILY_KINDS_THEN}
                 ORDER BY c.period, e.player"
            ),
            args![],
        )
        .await?;
    for mut r in rows {
        let (player, kind, day): (String, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
        if let Some(before) = day_before(&day) {
            extend(s, &player, &kind, &day, &before).await?;
        }
    }
    Ok(())
}

/// The statements of the migration after which the server says which challenges count toward
/// a streak (SQLite's schema 11, PostgreSQL's 9), after the column `challenges.streak_follows`
/// is added: the challenges listed by opening are those that close (a friend challenge never
/// does), not those of a kind.
pub(crate) const STREAK_FOLLOWS: &str = "
DROP INDEX IF EXISTS challenges_by_opening;
CREATE INDEX challenges_by_opening ON challenges (opens DESC) WHERE closes IS NOT NULL;
";

/// The new column on PostgreSQL.
pub(crate) const STREAK_FOLLOWS_POSTGRES: &str =
    "ALTER TABLE challenges ADD COLUMN IF NOT EXISTS streak_follows TEXT;";

/// The new column on SQLite (see `fair_play::COLUMNS_SQLITE`).
pub(crate) const STREAK_FOLLOWS_SQLITE: [(&str, &str, &str); 1] = [(
    "challenges",
    "streak_follows",
    "ALTER TABLE challenges ADD COLUMN streak_follows TEXT",
)];

/// Gives the challenges stored before the column theirs: the daily ones of the kinds whose
/// streaks were kept then follow the day before (run once, by that migration).
pub(crate) async fn backfill_follows<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let rows = s
        .rows(
            &format!(
                "SELECT id, period FROM challenges
                 WHERE streak_follows IS NULL AND period IS NOT NULL AND kind IN {DAILY_KINDS_THEN}"
            ),
            args![],
        )
        .await?;
    for mut r in rows {
        let (id, day): (String, String) = (r.get(0)?, r.get(1)?);
        if let Some(before) = day_before(&day) {
            s.exec(
                "UPDATE challenges SET streak_follows = ?2 WHERE id = ?1",
                args![&id, &before],
            )
            .await?;
        }
    }
    Ok(())
}

impl Storage {
    /// A player's streak of each of `kinds` (those the server counts), in their order, as
    /// stored (none yet: an empty one); its run may have ended since (the caller knows today).
    pub async fn streaks(
        &self,
        player: &str,
        kinds: &[&str],
    ) -> Result<Vec<(String, Streak)>, StorageError> {
        let player = player.to_owned();
        let kinds: Vec<String> = kinds.iter().map(|&k| k.to_owned()).collect();
        read!(self, |s| async move {
            let mut out = Vec::new();
            for kind in kinds {
                let streak = streak_row(&mut s, &player, &kind).await?;
                out.push((kind, streak));
            }
            Ok(out)
        })
    }
}
