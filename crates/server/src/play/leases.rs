//! Background work that one process at a time must do, on a database shared by several
//! (PostgreSQL): a game's computer seats, a challenge's computer game.
//!
//! The work is leased: a row with its holder and an expiry, renewed every [`RENEW`] while
//! the holder works and removed when it is done. A process that dies stops renewing; within
//! [`TTL`] its leases run out, and every process looks for such leases every [`SCAN`]
//! ([`spawn_takeover`]) and takes the work over. On SQLite (one process) a lease is always
//! granted and nothing is stored. Correctness never rests on a lease: the action log's unique
//! index refuses a second writer whatever happens; the lease only keeps two processes from
//! doing the same work.

use std::time::Duration;

use tokio::sync::{oneshot, watch};

use crate::state::AppState;
use store::now_ms;

/// How long a lease lasts unless renewed.
pub const TTL: Duration = Duration::from_secs(5);
/// How often a holder renews its leases.
pub const RENEW: Duration = Duration::from_secs(1);
/// How often every process looks for leases that ran out.
pub const SCAN: Duration = Duration::from_secs(1);

/// The lease key of a game's computer seats.
pub fn game_key(id: &str) -> String {
    format!("game:{id}")
}

/// The lease key of a challenge's computer game.
pub fn challenge_key(id: &str) -> String {
    format!("challenge:{id}")
}

fn until() -> i64 {
    now_ms() + TTL.as_millis() as i64
}

/// A lease held: renewed in the background until dropped, then given up.
pub struct Lease {
    stop: Option<oneshot::Sender<()>>,
}

impl Lease {
    /// Takes the lease `key` for this process, unless another process holds it.
    pub async fn take(app: &AppState, key: String) -> Option<Lease> {
        let storage = app.storage.clone();
        if !storage.is_shared() {
            return Some(Lease { stop: None });
        }
        let holder = storage.process_id().to_owned();
        match storage.lease(&key, &holder, until()).await {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                tracing::warn!(%key, error = %e, "cannot take a lease");
                return None;
            }
        }
        let (stop, mut stopped) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(RENEW);
            tick.tick().await;
            loop {
                tokio::select! {
                    _ = tick.tick() => match storage.lease(&key, &holder, until()).await {
                        Ok(true) => {}
                        Ok(false) => {
                            tracing::warn!(%key, "a lease was taken over: this process was too slow to renew it");
                            return;
                        }
                        Err(e) => tracing::warn!(%key, error = %e, "cannot renew a lease"),
                    },
                    _ = &mut stopped => {
                        if let Err(e) = storage.release(&key, &holder).await {
                            tracing::warn!(%key, error = %e, "cannot give a lease up (it runs out by itself)");
                        }
                        return;
                    }
                }
            }
        });
        Some(Lease { stop: Some(stop) })
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Takes over, every [`SCAN`], the work whose lease ran out (its holder stopped), until
/// `shutdown`. Only on a shared database.
/// `resume` sets going the challenges' computer games that nobody plays.
pub fn spawn_takeover<F>(
    app: AppState,
    mut shutdown: watch::Receiver<bool>,
    resume: fn(AppState) -> F,
) where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    if !app.storage.is_shared() {
        return;
    }
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SCAN);
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if take_over(&app).await {
                        resume(app.clone()).await;
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
    });
}

/// Takes over the games whose computers' lease ran out; whether a challenge's computer game's
/// did (the caller resumes those).
async fn take_over(app: &AppState) -> bool {
    let now = now_ms();
    let expired = match app.storage.expired_leases(now).await {
        Ok(keys) => keys,
        Err(e) => {
            tracing::warn!(error = %e, "cannot look for leases that ran out");
            return false;
        }
    };
    let mut challenges = false;
    for key in expired {
        if let Some(id) = key.strip_prefix("game:") {
            let busy = match app.storage.game_kind(id).await {
                Ok(Some(kind)) => match app.kind(kind.as_str()) {
                    Ok(kind) => kind.take_over(app, id).await,
                    Err(e) => {
                        tracing::warn!(game = %id, error = %e, "cannot take over a game");
                        false
                    }
                },
                Ok(None) => false,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "cannot read a game to take over");
                    continue;
                }
            };
            if busy {
                tracing::info!(game = %id, "took over a game's computer seats from a stopped process");
            } else if let Err(e) = app.storage.clear_expired(&key, now).await {
                tracing::warn!(%key, error = %e, "cannot clear a lease");
            }
        } else if key.starts_with("challenge:") {
            // The challenge's computer game is played again by whoever takes its lease.
            challenges = true;
            if let Err(e) = app.storage.clear_expired(&key, now).await {
                tracing::warn!(%key, error = %e, "cannot clear a lease");
            }
        }
    }
    challenges
}
