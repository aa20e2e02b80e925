//! Making challenges: the periodic ones of every registered game's declared kinds, as their
//! periods come, and the computer's own game on each challenge's draws.

use crate::challenge_kind::{ChallengeKind, is_friend};
use crate::error::ApiError;
use crate::game::Strength;
use crate::ids;
use crate::play::leases::{self, Lease};
use crate::state::AppState;
use store::challenges::{ChallengeRow, ChallengeStats, SeatResult};
use store::{Finished, GameKind, NewGame, StorageError};

use super::{seed, setup_of};

fn periodic_row(app: &AppState, game: &str, kind: &ChallengeKind, now: i64) -> ChallengeRow {
    let p = kind.at(now);
    ChallengeRow {
        seed: seed(app.storage.secret(), &p.id),
        kind: kind.kind.to_owned(),
        game: GameKind::from(game),
        period: Some(p.name.clone()),
        id: p.id,
        opens: p.opens,
        closes: Some(p.closes),
        origin: None,
        by: None,
        target: None,
        created: now,
        fresh: false,
        // A challenge that counts toward a streak lengthens the run that reached the period
        // before its own.
        streak_follows: kind.streak.then(|| kind.period.previous(&p.name)).flatten(),
    }
}

/// Makes the current challenge of every declared kind (today's, this week's, this month's) if
/// it is not there yet, sets their computer games going, and returns them (in the order they
/// are listed: see [`ChallengeKind::listed`]).
pub async fn ensure_current(app: &AppState) -> Result<Vec<ChallengeStats>, ApiError> {
    let now = app.clock.now_ms();
    let kinds = app.challenge_kinds();
    let mut out = Vec::with_capacity(kinds.len());
    for (game, kind) in kinds {
        let row = periodic_row(app, game, kind, now);
        let known = app
            .stored_challenges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&row.id);
        if !known {
            app.storage.ensure_challenge(row.clone()).await?;
            app.stored_challenges
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(row.id.clone());
        }
        let stats = app
            .storage
            .challenge(&row.id)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("challenge {} vanished", row.id)))?;
        if stats.computer.is_none() {
            start_computer(app, stats.challenge.clone());
        }
        out.push(stats);
    }
    Ok(out)
}

/// Sets going the computer's games left unplayed: by a process that stopped, or friend
/// challenges' that found their queue full (run at start, and every minute).
pub async fn resume_computers(app: AppState) {
    match app.storage.challenges_without_computer().await {
        Ok(rows) => {
            for row in rows {
                start_computer(&app, row);
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot list the challenges without a computer game"),
    }
}

/// A challenge by id (a current periodic one is made if nobody has asked for it yet).
pub(crate) async fn load(app: &AppState, id: &str) -> Result<ChallengeStats, ApiError> {
    let not_found = || ApiError::NotFound(format!("no challenge {id}"));
    if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(not_found());
    }
    if let Some(stats) = app.storage.challenge(id).await? {
        if stats.computer.is_none() {
            start_computer(app, stats.challenge.clone());
        }
        return Ok(stats);
    }
    let now = app.clock.now_ms();
    if app
        .challenge_kinds()
        .iter()
        .any(|(_, k)| k.at(now).id == id)
    {
        return ensure_current(app)
            .await?
            .into_iter()
            .find(|s| s.challenge.id == id)
            .ok_or_else(not_found);
    }
    Err(not_found())
}

/// How many friend challenges' computer games may wait or run at once in one process; more
/// wait in the database (their challenge says the computer is still playing) and are set going
/// by the minute's [`resume_computers`].
pub const FRIEND_QUEUE: usize = 16;

/// Plays the computer's game on a challenge's dice in the background, once: this process
/// plays it at most once at a time, and the database keeps only the first result. A periodic
/// challenge's game has a queue of its own, so that no number of friend challenges holds
/// it up; friend challenges' queue is bounded ([`FRIEND_QUEUE`]).
pub(super) fn start_computer(app: &AppState, challenge: ChallengeRow) {
    let friend = is_friend(&challenge.kind);
    {
        let mut computing = app.computing.lock().unwrap_or_else(|e| e.into_inner());
        if computing.contains(&challenge.id) {
            return;
        }
        if friend
            && computing
                .iter()
                .filter(|id| crate::challenge_kind::is_friend_id(id))
                .count()
                >= FRIEND_QUEUE
        {
            tracing::debug!(challenge = %challenge.id, "friend challenges' computer queue full: later");
            return;
        }
        computing.insert(challenge.id.clone());
    }
    let app = app.clone();
    tokio::spawn(async move {
        let id = challenge.id.clone();
        if let Err(e) = play_computer(&app, challenge).await {
            tracing::error!(challenge = %id, error = %e, "the computer's challenge game failed");
        }
        app.computing
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    });
}

async fn play_computer(app: &AppState, challenge: ChallengeRow) -> Result<(), ApiError> {
    let strength = if is_friend(&challenge.kind) {
        // Anyone can make a friend challenge: its computer thinks as fast as a hint.
        Strength::Interactive
    } else {
        Strength::Full(app.challenge_budget)
    };
    // One process plays it; should it stop, another takes the lease over and plays it.
    let Some(_lease) = Lease::take(app, leases::challenge_key(&challenge.id)).await else {
        return Ok(());
    };
    if app
        .storage
        .challenge(&challenge.id)
        .await?
        .is_some_and(|c| c.computer.is_some())
    {
        return Ok(()); // another process has played it meanwhile
    }
    let seed = challenge.seed;
    let kind = app.kind(challenge.game.as_str())?.clone();
    let queue = if is_friend(&challenge.kind) {
        &app.friend_background
    } else {
        &app.background
    };
    let permit = queue
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let started = std::time::Instant::now();
    let clock = app.clock.clone();
    let setup = setup_of(app, &challenge);
    let variant = setup.clone();
    let played = tokio::task::spawn_blocking(move || {
        kind.computer_challenge(seed, variant.as_deref(), strength, clock.now_ms())
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    drop(permit);
    let mut finished: Finished = played.finished;
    let result: SeatResult = finished
        .entries
        .first()
        .copied()
        .ok_or_else(|| ApiError::Internal("the computer's game has no seat".into()))?;
    // The computer's own game has no entry: its result is the challenge's.
    finished.entries.clear();
    let game = NewGame {
        id: ids::new_game_id()?,
        kind: challenge.game,
        mode: "challenge".into(),
        setup: played.setup,
        created: app.clock.now_ms(),
        seats: played.seats,
        entry: None,
        variant: setup,
        deadlines: Vec::new(),
        pool: Vec::new(),
    };
    let game_id = game.id.clone();
    match app
        .storage
        .store_computer_game(challenge.id.clone(), game, played.actions, finished, result)
        .await
    {
        Ok(()) | Err(StorageError::Duplicate(_)) => {}
        Err(e) => return Err(e.into()),
    }
    tracing::info!(challenge = %challenge.id, game = %game_id, score = result.score,
        ms = started.elapsed().as_millis() as u64, "the computer played the challenge");
    Ok(())
}
