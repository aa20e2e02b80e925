//! Turn deadlines: by when each seat whose turn it is in a game with a clock must have played.
//! They are kept beside the game's actions, replaced in the transaction of every change to the
//! game (so they survive a restart and never disagree with the log), and claimed by one
//! process at a time once they pass (so that, where several processes share the database,
//! each passes once: the log's unique index refuses a second stand-in for the same turn
//! anyway).

use crate::sql::{Sql, args};
use crate::{GameKind, Storage, StorageError, Write, read};

/// One seat's deadline: its turn (the game's own count: a round, a turn) and when it is due,
/// in milliseconds since the Unix epoch by the server's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub seat: usize,
    pub turn: u64,
    pub due: i64,
}

/// A deadline that passed, claimed by this process to act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passed {
    pub game: String,
    pub kind: GameKind,
    pub deadline: Deadline,
}

/// Replaces a game's deadlines by `deadlines` (inside the change's transaction).
pub(crate) async fn replace<S: Sql>(
    s: &mut S,
    game: &str,
    deadlines: &[Deadline],
) -> Result<(), StorageError> {
    s.exec("DELETE FROM deadlines WHERE game = ?1", args![game])
        .await?;
    for d in deadlines {
        s.exec(
            "INSERT INTO deadlines (game, seat, turn, due) VALUES (?1, ?2, ?3, ?4)",
            args![game, d.seat, d.turn as i64, d.due],
        )
        .await?;
    }
    Ok(())
}

/// A game's deadlines, seat by seat.
pub(crate) async fn of_game<S: Sql>(s: &mut S, game: &str) -> Result<Vec<Deadline>, StorageError> {
    s.rows_as(
        "SELECT seat, turn, due FROM deadlines WHERE game = ?1 ORDER BY seat",
        args![game],
        |mut r| {
            Ok(Deadline {
                seat: r.get(0)?,
                turn: r.get::<i64>(1)? as u64,
                due: r.get(2)?,
            })
        },
    )
    .await
}

/// Claims for `claimer` until `until` at most `limit` deadlines due by `now` that nobody holds
/// (or whose holder's claim ran out: it stopped before it acted), the earliest first.
pub(crate) async fn claim<S: Sql>(
    s: &mut S,
    claimer: &str,
    now: i64,
    until: i64,
    limit: usize,
) -> Result<(), StorageError> {
    s.exec(
        "UPDATE deadlines SET claimer = ?1, claimed = ?3
         WHERE due <= ?2 AND (claimed IS NULL OR claimed <= ?2)
           AND (game, seat) IN (
               SELECT game, seat FROM deadlines
               WHERE due <= ?2 AND (claimed IS NULL OR claimed <= ?2)
               ORDER BY due LIMIT ?4)",
        args![claimer, now, until, limit],
    )
    .await?;
    Ok(())
}

impl Storage {
    /// Claims for this process the deadlines that passed by `now` (at most `limit`, the
    /// earliest first) for `hold_ms`: no other process acts on them meanwhile. Each is
    /// released by the change it causes (which replaces the game's deadlines), or by
    /// [`Storage::drop_deadline`] when there is nothing to do; a claim that runs out (its
    /// process stopped) is claimed again.
    pub async fn claim_deadlines(
        &self,
        now: i64,
        hold_ms: i64,
        limit: usize,
    ) -> Result<Vec<Passed>, StorageError> {
        let claimer = format!("{}:{now}", self.process_id());
        self.write(Write::Claim {
            claimer: claimer.clone(),
            now,
            until: now + hold_ms,
            limit,
        })
        .await?;
        read!(self, |s| async move {
            s.rows_as(
                "SELECT d.game, g.kind, d.seat, d.turn, d.due FROM deadlines d
                 JOIN games g ON g.id = d.game WHERE d.claimer = ?1 ORDER BY d.due",
                args![&claimer],
                |mut r| {
                    Ok(Passed {
                        game: r.get(0)?,
                        kind: GameKind::parse(&r.get::<String>(1)?)?,
                        deadline: Deadline {
                            seat: r.get(2)?,
                            turn: r.get::<i64>(3)? as u64,
                            due: r.get(4)?,
                        },
                    })
                },
            )
            .await
        })
    }

    /// The earliest deadline nobody holds at `now` (a claim that ran out counts as none), if
    /// any.
    pub async fn next_deadline(&self, now: i64) -> Result<Option<i64>, StorageError> {
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT min(due) FROM deadlines WHERE claimed IS NULL OR claimed <= ?1",
                    args![now],
                )
                .await?
            {
                Some(mut r) => r.get(0),
                None => Ok(None),
            }
        })
    }

    /// Removes a passed deadline that needs nothing done (its turn was played meanwhile, the
    /// game ended), unless the game's deadlines were replaced since.
    pub async fn drop_deadline(&self, game: &str, d: Deadline) -> Result<(), StorageError> {
        self.write(Write::DropDeadline(game.to_owned(), d)).await
    }

    /// How many deadlines are kept (games waiting on a seat's clock).
    pub async fn deadlines_kept(&self) -> Result<i64, StorageError> {
        self.first_number("SELECT count(*) FROM deadlines".into(), Vec::new())
            .await
    }
}

/// [`Storage::drop_deadline`]'s statement.
pub(crate) async fn drop<S: Sql>(s: &mut S, game: &str, d: &Deadline) -> Result<(), StorageError> {
    s.exec(
        "DELETE FROM deadlines WHERE game = ?1 AND seat = ?2 AND turn = ?3 AND due = ?4",
        args![game, d.seat, d.turn as i64, d.due],
    )
    .await?;
    Ok(())
}
