//! The turn deadlines' watcher: each process runs [`watch`], which sleeps until the earliest
//! deadline (or a second, since other processes add theirs), claims the passed ones, and has the
//! computer stand in for each seat (see [`crate::rules::Ruled::time_out`]).
//!
//! Deadlines are the database's (see `store::clocks`): every change to a game with a clock
//! replaces its seats' deadlines in the change's transaction. A claim is one process's only;
//! the log's unique index refuses a second stand-in for the same turn anyway, so a deadline
//! passes once, whichever processes see it.

use std::time::Duration;

use tokio::sync::watch;

use crate::error::ApiError;
use crate::state::AppState;

/// How long a process holds a claimed deadline before another may act on it.
const HOLD_MS: i64 = 30_000;
/// How many passed deadlines are claimed at once.
const BATCH: usize = 256;
/// The longest sleep between looks (other processes add deadlines this one does not hear of).
const LOOK: Duration = Duration::from_secs(1);

/// Acts on each deadline as it passes, until `stop`.
pub async fn watch(app: AppState, mut stop: watch::Receiver<bool>) {
    loop {
        let now = app.clock.now_ms();
        let sleep = match look(&app, now).await {
            Ok(Some(next)) => Duration::from_millis((next - app.clock.now_ms()).max(0) as u64),
            Ok(None) => LOOK,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the turn deadlines");
                LOOK
            }
        };
        if sleep.is_zero() {
            continue;
        }
        tokio::select! {
            _ = tokio::time::sleep(sleep.min(LOOK)) => {}
            _ = app.deadlines.wake.notified() => {}
            _ = stop.changed() => return,
        }
    }
}

/// Claims the deadlines passed by `now` and has the computer stand in for each; the next
/// deadline nobody holds, if any.
async fn look(app: &AppState, now: i64) -> Result<Option<i64>, ApiError> {
    let passed = app.storage.claim_deadlines(now, HOLD_MS, BATCH).await?;
    let full = passed.len() == BATCH;
    let mut acting = tokio::task::JoinSet::new();
    for p in passed {
        let app = app.clone();
        acting.spawn(async move {
            let late = app.clock.now_ms() - p.deadline.due;
            let done = match app.kind(p.kind.as_str()) {
                Ok(kind) => kind.time_out(&app, &p.game, p.deadline).await,
                Err(e) => Err(e),
            };
            match done {
                Ok(true) => app.deadlines.note(late),
                Ok(false) => {
                    // Nothing to do (the turn was played meanwhile): the deadline goes, unless
                    // the game's deadlines were replaced since.
                    if let Err(e) = app.storage.drop_deadline(&p.game, p.deadline).await {
                        tracing::warn!(game = %p.game, error = %e, "cannot drop a passed deadline");
                    }
                }
                Err(e) => {
                    tracing::warn!(game = %p.game, seat = p.deadline.seat, error = %e,
                        "cannot stand in for a seat whose time ran out: tried again later");
                }
            }
        });
    }
    while acting.join_next().await.is_some() {}
    if full {
        // More passed than one batch: claim the next at once.
        return Ok(Some(now));
    }
    Ok(app.storage.next_deadline(app.clock.now_ms()).await?)
}
