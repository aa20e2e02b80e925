//! Replays of finished games, and the results stored when a game ends.
//!
//! A replay is built from the stored action log, never from a stored board: the game's setup
//! and actions are read from storage and played again through the engine one action at a time
//! (each game says what a step shows: `crate::games::*::replay`). When a game ends, its result
//! is stored beside it ([`finished`]), so the list of recent games reads one table and replays
//! nothing.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::challenge_games::TieBreakRule;
use crate::error::ApiError;
use crate::seed::Seed;
use crate::state::AppState;
pub use store::SeatResult;
use store::{ChallengeRef, Finished, SeatKind, SeatRow, StoredGame};

/// What every game's replay begins with (flattened into it).
#[derive(Debug, Clone, Serialize)]
pub struct ReplayHeader {
    pub id: String,
    pub kind: &'static str,
    pub mode: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The seed of the draws, when a seed decides them (hidden in a challenge's game until the
    /// challenge closes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
}

impl ReplayHeader {
    /// The header of stored game `stored` of `kind`, its draws decided by `seed`.
    pub fn of(stored: &StoredGame, kind: &'static str, seed: Option<u64>) -> ReplayHeader {
        ReplayHeader {
            id: stored.id.clone(),
            kind,
            mode: stored.mode.clone(),
            created: stored.created,
            seed: seed.map(Seed),
        }
    }
}

/// A seat as a replay and the list of recent games show it.
#[derive(Debug, Clone, Serialize)]
pub struct ReplaySeat {
    pub seat: usize,
    pub name: String,
    pub kind: &'static str,
    /// A computer seat's player, as every game names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

impl From<&SeatRow> for ReplaySeat {
    fn from(row: &SeatRow) -> ReplaySeat {
        ReplaySeat {
            seat: row.seat,
            name: row.name.clone(),
            kind: match row.kind {
                SeatKind::Human => "human",
                SeatKind::Computer => "computer",
            },
            level: row.agent.clone(),
        }
    }
}

/// A stored game that does not read back: an internal error naming it.
pub fn corrupt(id: &str, what: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!("game {id}: {what}"))
}

/// The refusal of a replay of a game still going on.
pub fn not_over() -> ApiError {
    ApiError::Conflict("the game is not over yet: its replay opens when it ends".into())
}

/// A finished game of `kind`, replayed by `build` off the async threads, for the holder of
/// `token` (a seat's or a player's): a challenge's game is seen by its own seats and as
/// [`crate::challenges::may_see`] lets. Also says whether its seed stays hidden: a challenge's
/// until it has closed (a friend challenge's is shown to whoever may see its games: they have
/// played those dice).
pub async fn serve<R: Send + 'static>(
    app: &AppState,
    id: &str,
    kind: &str,
    token: Option<&str>,
    build: fn(&StoredGame) -> Result<R, ApiError>,
) -> Result<(R, bool), ApiError> {
    let stored = app.stored_game(id).await?;
    if stored.kind != kind {
        return Err(ApiError::game_not_found());
    }
    let hide_seed = may_read(
        app,
        &stored.id,
        &stored.seats,
        stored.challenge.as_ref(),
        stored.shown,
        token,
    )
    .await?;
    let replay = tokio::task::spawn_blocking(move || build(&stored))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    Ok((replay, hide_seed))
}

/// Whether the holder of `token` may read stored game `stored` (a challenge's game: its own
/// seats, and as [`crate::challenges::may_see`] lets); then whether its seed stays hidden (a
/// challenge's until it has closed; a friend challenge's is shown to whoever may see its
/// games: they have played those dice). A reader who does not sit in the game is recorded as
/// having seen its draws before they do (see [`StoredGame::shown`]): `shown` is what is
/// stored of that.
pub async fn may_read(
    app: &AppState,
    id: &str,
    seats: &[SeatRow],
    challenge: Option<&ChallengeRef>,
    shown: Option<i64>,
    token: Option<&str>,
) -> Result<bool, ApiError> {
    let sitting = seats
        .iter()
        .map(|s| (s.token_hash.as_deref(), s.player.as_deref()));
    let seat = crate::challenges::seat_of(app, sitting, token).await?;
    let hide_seed = match challenge {
        None => false,
        Some(c) => {
            if seat.is_none() {
                crate::challenges::may_see(app, c, token).await?;
            }
            !crate::challenge_kind::is_friend(&c.kind) && !c.is_closed(app.clock.now_ms())
        }
    };
    if seat.is_none() && shown.is_none() {
        app.storage.mark_shown(id, app.clock.now_ms()).await?;
    }
    Ok(hide_seed)
}

// ---------------------------------------------------------------------------------------
// Results, stored when a game ends.

/// A player's line in a finished game's result, as stored and answered: the seat's result as
/// people read it.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ResultPlayer {
    pub seat: usize,
    pub name: String,
    pub score: i64,
    /// The tie break, named and shown as the game's rule says (`"errors": 2`, `"margin": 4`:
    /// see [`TieBreakRule`]); results stored before Metro's was shown have none.
    #[serde(flatten)]
    pub tie: BTreeMap<String, i64>,
}

/// A finished game's result, as stored and as the list of recent games sends it.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct GameResult {
    pub players: Vec<ResultPlayer>,
    pub winners: Vec<usize>,
}

/// A finished game's result: each seat's (`names[i]` is seat `i`'s name), its tie break shown
/// as `rule` says, and the winning seats.
pub fn game_result(
    names: &[&str],
    results: &[SeatResult],
    winners: Vec<usize>,
    rule: TieBreakRule,
) -> GameResult {
    GameResult {
        players: results
            .iter()
            .map(|r| ResultPlayer {
                seat: r.seat,
                name: names
                    .get(r.seat)
                    .map_or_else(|| format!("Player {}", r.seat + 1), |n| (*n).to_owned()),
                score: r.score,
                tie: BTreeMap::from([(rule.name.to_owned(), rule.shown(r.k2))]),
            })
            .collect(),
        winners,
    }
}

/// How a finished game ended at `at`, to store with its last actions: each seat's result
/// (`names[i]` is seat `i`'s name; its tie break shown as `rule` says) and the winning seats.
pub fn finished(
    names: &[&str],
    results: &[SeatResult],
    winners: Vec<usize>,
    at: i64,
    rule: TieBreakRule,
) -> Option<Finished> {
    let result = game_result(names, results, winners, rule);
    Some(Finished {
        at,
        result: serde_json::to_string(&result).ok()?,
        entries: results.to_vec(),
        record: None,
        rated: None,
    })
}

/// Records how games stored before results were kept ended, by replaying each: run once, in
/// the background, when the database is upgraded. A game still going is left as it is.
pub async fn backfill(app: AppState) {
    let storage = &app.storage;
    let ids = match storage.unfinished_ids().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "cannot list games to backfill their results");
            return;
        }
    };
    let mut marked = 0;
    for id in ids {
        let Ok(Some(stored)) = storage.load_game(&id).await else {
            continue;
        };
        let Ok(kind) = app.kind(stored.kind.as_str()) else {
            continue;
        };
        let at = stored.created;
        if let Some(finished) = kind.finished_of(stored, at)
            && storage.mark_finished(&id, finished).await.is_ok()
        {
            marked += 1;
        }
    }
    if marked > 0 {
        tracing::info!(games = marked, "results recorded for games finished before");
    }
}
