//! Challenges: everyone plays the same dice (a Metro challenge: the same deck) at their own
//! pace, once, and compares on a leaderboard.
//!
//! - A daily challenge runs from 00:00 to 24:00 UTC, a weekly one over an ISO week; each
//!   exists from the start of its period (made by whichever comes first: the minute tick or a
//!   request; the database keeps the first, so every request sees the same one).
//! - Its seed is `SHA-256(database secret, challenge id)`: nobody can compute it in advance,
//!   and two installations have different challenges. It is never taken from a request, and
//!   shown only once the challenge has closed.
//! - One attempt per player, by a unique key in the database; asking again returns the game
//!   already started.
//! - The computer (`strong`) plays the challenge once, in the background; its score is on the
//!   leaderboard from the start, its board seen only by who may see the others'.
//! - A friend challenge is made from a finished Railroad Ink game: the same seven rolls, its
//!   seats as the first entries; its seed was known to its players, so it is shown, and it
//!   never closes.
//!
//! The games are ordinary games of the engines (`ink`, `metro`); no rule lives here.

use serde::Serialize;
use sha2::{Digest, Sha256};
use time::{Date, Duration as TimeDuration, OffsetDateTime, Weekday};

use crate::AppState;
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::ids;
use crate::leases::{self, Lease};
use crate::seed::Seed;
use crate::storage::challenges::{
    ChallengeRow, ChallengeStats, EntryRow, EntryScore, FinishedEntry, NewEntry, PlayerRow,
};
use crate::storage::{ChallengeRef, Finished, GameKind, NewGame, StorageError};

/// The most entries a leaderboard page lists at once.
pub const MAX_LIMIT: usize = 100;
/// Rows shown either side of a player in "around me".
const AROUND: usize = 5;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The kinds of challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Daily,
    Weekly,
    MetroDaily,
    Friend,
}

impl Kind {
    pub const PERIODIC: [Kind; 3] = [Kind::Daily, Kind::Weekly, Kind::MetroDaily];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Daily => "daily",
            Kind::Weekly => "weekly",
            Kind::MetroDaily => "metro-daily",
            Kind::Friend => "friend",
        }
    }

    fn game(self) -> GameKind {
        match self {
            Kind::MetroDaily => GameKind::Metro,
            _ => GameKind::Ink,
        }
    }
}

/// A periodic challenge's place in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub id: String,
    /// `2026-11-26` or `2026-W48`.
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub opens: i64,
    pub closes: i64,
}

fn midnight_ms(date: Date) -> i64 {
    date.midnight().assume_utc().unix_timestamp() * 1000
}

/// The period of a kind of periodic challenge that holds `now` (UTC).
pub fn period(kind: Kind, now: i64) -> Period {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(now) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let date = at.date();
    match kind {
        Kind::Weekly => {
            let (year, week, _) = date.to_iso_week_date();
            let monday = Date::from_iso_week_date(year, week, Weekday::Monday).unwrap_or(date);
            let opens = midnight_ms(monday);
            let name = format!("{year}-W{week:02}");
            Period {
                id: format!("weekly-{name}"),
                name,
                opens,
                closes: midnight_ms(monday + TimeDuration::days(7)),
            }
        }
        _ => {
            let opens = midnight_ms(date);
            let name = date.to_string();
            Period {
                id: format!("{}-{name}", kind.as_str()),
                name,
                opens,
                closes: opens + DAY_MS,
            }
        }
    }
}

/// A periodic challenge's seed: from the database's secret and the challenge's id.
pub fn seed(secret: &[u8; 32], id: &str) -> u64 {
    let mut h = Sha256::new();
    h.update(secret);
    h.update(b"\0challenge\0");
    h.update(id.as_bytes());
    let digest = h.finalize();
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

/// The seat token of a player's challenge game: derived from the player's own token, so that
/// asking again hands out the same one, and nobody without the player's token can know it.
fn seat_token(player_token: &str, challenge: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"tracklayer challenge seat\0");
    h.update(player_token.as_bytes());
    h.update(b"\0");
    h.update(challenge.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The entry of a player's attempt at a challenge, stored with its game (seat 0).
pub fn new_entry(app: &AppState, challenge: &ChallengeRow, player: &PlayerRow) -> NewEntry {
    NewEntry {
        challenge: challenge.id.clone(),
        seat: 0,
        player: Some(player.id.clone()),
        name: player.name.clone(),
        started: app.clock.now_ms(),
    }
}

pub fn challenge_ref(c: &ChallengeRow) -> ChallengeRef {
    ChallengeRef {
        id: c.id.clone(),
        kind: c.kind.clone(),
        closes: c.closes,
        by: c.by.clone(),
    }
}

fn is_closed(closes: Option<i64>, now: i64) -> bool {
    closes.is_some_and(|t| now >= t)
}

/// Whether a challenge's seed may be shown: once closed; a friend challenge's always (its
/// first players knew it).
pub fn seed_public(c: &ChallengeRef, now: i64) -> bool {
    c.kind == Kind::Friend.as_str() || is_closed(c.closes, now)
}

/// The player whose token this is: 401 without one, 403 for a token of nobody.
pub async fn authenticate(app: &AppState, token: Option<&str>) -> Result<PlayerRow, ApiError> {
    let token = token.ok_or(ApiError::MissingToken)?;
    app.storage
        .player_by_token(&ids::hash_token(token))
        .await?
        .ok_or_else(|| {
            ApiError::Forbidden(
                "the token is no player's: create a player with POST /api/players".into(),
            )
        })
}

/// The player whose token this is, if it is one.
pub async fn player_of(app: &AppState, token: Option<&str>) -> Result<Option<PlayerRow>, ApiError> {
    match token {
        Some(token) => Ok(app.storage.player_by_token(&ids::hash_token(token)).await?),
        None => Ok(None),
    }
}

/// Whether a player has finished a challenge.
async fn has_finished(
    app: &AppState,
    challenge: &str,
    player: &PlayerRow,
) -> Result<bool, ApiError> {
    Ok(app
        .storage
        .entry(challenge, &player.id)
        .await?
        .is_some_and(|e| e.finished.is_some()))
}

/// Whether the holder of `token` (a player's) may see the games of a challenge: everyone once
/// it has closed, before that only those who have finished it. 403 otherwise.
pub async fn may_see(
    app: &AppState,
    c: &ChallengeRef,
    token: Option<&str>,
) -> Result<(), ApiError> {
    if is_closed(c.closes, app.clock.now_ms()) {
        return Ok(());
    }
    if let Some(player) = player_of(app, token).await?
        && has_finished(app, &c.id, &player).await?
    {
        return Ok(());
    }
    Err(ApiError::Forbidden(
        "the boards of a challenge are seen by those who have finished it, and by everyone once it closes".into(),
    ))
}

// ---------------------------------------------------------------------------------------
// Making challenges, and the computer's games.

fn periodic_row(app: &AppState, kind: Kind, now: i64) -> ChallengeRow {
    let p = period(kind, now);
    ChallengeRow {
        seed: seed(app.storage.secret(), &p.id),
        id: p.id,
        kind: kind.as_str().to_owned(),
        game: kind.game(),
        period: Some(p.name),
        opens: p.opens,
        closes: Some(p.closes),
        origin: None,
        by: None,
        target: None,
        created: now,
    }
}

/// Makes today's and this week's challenges if they are not there yet, sets their computer
/// games going, and returns them (daily, weekly, Metro daily).
pub async fn ensure_current(app: &AppState) -> Result<Vec<ChallengeStats>, ApiError> {
    let now = app.clock.now_ms();
    let mut out = Vec::with_capacity(3);
    for kind in Kind::PERIODIC {
        let row = periodic_row(app, kind, now);
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

/// Sets going the computer's games that a stopped process left unplayed (run at start).
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
async fn load(app: &AppState, id: &str) -> Result<ChallengeStats, ApiError> {
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
    if Kind::PERIODIC.iter().any(|&k| period(k, now).id == id) {
        return ensure_current(app)
            .await?
            .into_iter()
            .find(|s| s.challenge.id == id)
            .ok_or_else(not_found);
    }
    Err(not_found())
}

/// Plays the computer's game on a challenge's dice in the background, once: this process
/// plays it at most once at a time, and the database keeps only the first result.
fn start_computer(app: &AppState, challenge: ChallengeRow) {
    {
        let mut computing = app.computing.lock().unwrap_or_else(|e| e.into_inner());
        if !computing.insert(challenge.id.clone()) {
            return;
        }
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

/// A computer's challenge game, played.
enum ComputerGame {
    Ink(railroad_ink::Game),
    Metro(Box<metro::Game>),
}

async fn play_computer(app: &AppState, challenge: ChallengeRow) -> Result<(), ApiError> {
    let budget = if challenge.kind == Kind::Friend.as_str() {
        // Anyone can make a friend challenge: its computer thinks as fast as a hint.
        Some(railroad_ink::ai::strong::StrongAgent::INTERACTIVE_BUDGET)
    } else {
        app.challenge_budget
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
    let game_kind = challenge.game;
    let permit = app
        .background
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    let started = std::time::Instant::now();
    let clock = app.clock;
    let (setup, seats, actions, finished) = tokio::task::spawn_blocking(move || {
        let (setup, seats, actions, game) = match game_kind {
            GameKind::Ink => {
                let (setup, seats, actions, game) =
                    crate::ink::computer_challenge_game(seed, budget)?;
                (setup, seats, actions, ComputerGame::Ink(game))
            }
            GameKind::Metro => {
                let (setup, seats, actions, game) = crate::metro::computer_challenge_game(seed)?;
                (setup, seats, actions, ComputerGame::Metro(Box::new(game)))
            }
        };
        let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
        let now = clock.now_ms();
        let finished = match &game {
            ComputerGame::Ink(game) => crate::replay::ink_finished(game, &names, now),
            ComputerGame::Metro(game) => crate::replay::metro_finished(game, &names, now),
        };
        Ok::<_, ApiError>((setup, seats, actions, finished))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    drop(permit);
    let mut finished: Finished =
        finished.ok_or_else(|| ApiError::Internal("the computer's game did not end".into()))?;
    let result: EntryScore = finished
        .entries
        .first()
        .copied()
        .ok_or_else(|| ApiError::Internal("the computer's game has no seat".into()))?;
    // The computer's own game has no entry: its result is the challenge's.
    finished.entries.clear();
    let game = NewGame {
        id: ids::new_game_id()?,
        kind: game_kind,
        mode: "challenge".into(),
        setup,
        created: crate::storage::now_ms(),
        seats,
        entry: None,
    };
    let game_id = game.id.clone();
    match app
        .storage
        .store_computer_game(challenge.id.clone(), game, actions, finished, result)
        .await
    {
        Ok(()) | Err(StorageError::Duplicate(_)) => {}
        Err(e) => return Err(e.into()),
    }
    tracing::info!(challenge = %challenge.id, game = %game_id, score = result.score,
        ms = started.elapsed().as_millis() as u64, "the computer played the challenge");
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Playing.

/// The answer to `POST /api/challenges/{id}/play`: the player's game and seat.
#[derive(Debug, Serialize)]
pub struct Played {
    pub game: String,
    pub seat: usize,
    pub token: String,
    pub kind: &'static str,
}

/// Starts the player's attempt at a challenge, or returns the one already started (then
/// `false`).
pub async fn play(
    app: &AppState,
    id: &str,
    token: Option<&str>,
) -> Result<(bool, Played), ApiError> {
    let player = authenticate(app, token).await?;
    let token = token.unwrap_or_default();
    let stats = load(app, id).await?;
    let c = &stats.challenge;
    let seat_token = seat_token(token, &c.id);
    let played = |e: EntryRow| Played {
        game: e.game,
        seat: e.seat,
        token: seat_token.clone(),
        kind: c.game.as_str(),
    };
    if let Some(e) = app.storage.entry(&c.id, &player.id).await? {
        return Ok((false, played(e)));
    }
    let now = app.clock.now_ms();
    if is_closed(c.closes, now) {
        return Err(ApiError::Conflict(format!(
            "the challenge {} closed at {}",
            c.id,
            rfc3339(c.closes.unwrap_or(now))
        )));
    }
    if c.opens > now {
        return Err(ApiError::Conflict(format!(
            "the challenge {} opens at {}",
            c.id,
            rfc3339(c.opens)
        )));
    }
    let created = match c.game {
        GameKind::Ink => crate::ink::create_challenge_game(app, c, &player, &seat_token).await,
        GameKind::Metro => crate::metro::create_challenge_game(app, c, &player, &seat_token).await,
    };
    match created {
        Ok(game) => {
            tracing::info!(challenge = %c.id, %game, "challenge started");
            Ok((
                true,
                Played {
                    game,
                    seat: 0,
                    token: seat_token,
                    kind: c.game.as_str(),
                },
            ))
        }
        // Another request of the same player's won the race: its game is the attempt.
        Err(ApiError::Duplicate(why)) => match app.storage.entry(&c.id, &player.id).await? {
            Some(e) => Ok((false, played(e))),
            None => Err(ApiError::Internal(format!(
                "duplicate without an entry: {why}"
            ))),
        },
        Err(e) => Err(e),
    }
}

/// `POST /api/challenges`'s answer.
#[derive(Debug, Serialize)]
pub struct FriendMade {
    pub id: String,
    pub link: String,
}

/// Makes a friend challenge from a finished Railroad Ink game: the same seven rolls for
/// whoever opens its link; the game's seats are its first entries.
pub async fn friend(
    app: &AppState,
    from: &str,
    token: Option<&str>,
    seat_token: Option<&str>,
) -> Result<FriendMade, ApiError> {
    let player = authenticate(app, token).await?;
    if !ids::is_game_id(from) {
        return Err(ApiError::game_not_found());
    }
    let stored = app
        .storage
        .load_game(from)
        .await?
        .ok_or_else(ApiError::game_not_found)?;
    if stored.kind != GameKind::Ink {
        return Err(ApiError::Conflict(
            "a friend challenge is made from a Railroad Ink game".into(),
        ));
    }
    let now = app.clock.now_ms();
    if let Some(c) = &stored.challenge
        && !seed_public(c, now)
    {
        return Err(ApiError::Conflict(format!(
            "the game is in the challenge {}, still open: its dice stay secret until it closes",
            c.id
        )));
    }
    let (setup, actions) = crate::replay::ink_log(&stored)?;
    let game = railroad_ink::Game::replay(setup, &actions)
        .map_err(|(i, e)| ApiError::Internal(format!("game {from}: action {i}: {e}")))?;
    if !game.is_finished() {
        return Err(ApiError::Conflict(
            "the game is not finished: a friend challenge is made from a finished game".into(),
        ));
    }
    let railroad_ink::Dice::Seed(seed) = setup.dice else {
        return Err(ApiError::Conflict("the game's dice were not seeded".into()));
    };
    // The maker's own seat: the one their player sat in, or the one whose token they hold.
    let held = seat_token.map(ids::hash_token);
    let makers_seat = stored.seats.iter().position(|row| {
        row.player.as_deref() == Some(player.id.as_str())
            || (held.is_some() && row.token_hash == held)
    });
    let mut seen = std::collections::HashSet::new();
    let entries: Vec<FinishedEntry> = stored
        .seats
        .iter()
        .zip(game.scores())
        .enumerate()
        .map(|(i, (row, score))| {
            let owner = match &row.player {
                Some(p) => Some(p.clone()),
                None if makers_seat == Some(i) => Some(player.id.clone()),
                None => None,
            };
            FinishedEntry {
                game: stored.id.clone(),
                seat: row.seat,
                // A player who sat twice in the game enters once.
                player: owner.filter(|p| seen.insert(p.clone())),
                name: row.name.clone(),
                at: now,
                score: i64::from(score.advanced),
                k2: -i64::from(score.errors),
            }
        })
        .collect();
    // The score to beat: the maker's, or the game's best.
    let target = makers_seat
        .and_then(|i| entries.get(i))
        .or_else(|| entries.iter().max_by_key(|e| (e.score, e.k2)))
        .map(|e| e.score);
    let id = format!("friend-{}", ids::new_game_id()?);
    let row = ChallengeRow {
        id: id.clone(),
        kind: Kind::Friend.as_str().to_owned(),
        game: GameKind::Ink,
        period: None,
        opens: now,
        closes: None,
        seed,
        origin: Some(stored.id.clone()),
        by: Some(player.name.clone()),
        target,
        created: now,
    };
    app.storage
        .create_friend_challenge(row.clone(), entries)
        .await?;
    start_computer(app, row);
    tracing::info!(challenge = %id, from = %stored.id, "friend challenge made");
    Ok(FriendMade {
        link: format!("/challenges/{id}"),
        id,
    })
}

// ---------------------------------------------------------------------------------------
// What the page sees.

/// A challenge in a list or at the head of its leaderboard.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub id: String,
    pub kind: String,
    pub game: &'static str,
    pub period: Option<String>,
    pub opens: String,
    pub closes: Option<String>,
    pub closed: bool,
    /// Players who started it.
    pub players: i64,
    /// The best player's score (the computer apart).
    pub best: Option<i64>,
    /// The computer's score, once it has played.
    pub computer: Option<i64>,
    /// Once closed (a friend challenge: always).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// A friend challenge's score to beat (its maker's, or its game's best).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<i64>,
    /// Entries finished (ranked).
    pub finished: i64,
    /// The asking player's attempt, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<You>,
}

/// A player's own attempt.
#[derive(Debug, Serialize)]
pub struct You {
    pub game: String,
    pub seat: usize,
    pub finished: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    #[serde(flatten)]
    pub tie: TieBreak,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
}

fn summary(stats: &ChallengeStats, now: i64, you: Option<You>) -> Summary {
    let c = &stats.challenge;
    let cref = challenge_ref(c);
    Summary {
        id: c.id.clone(),
        kind: c.kind.clone(),
        game: c.game.as_str(),
        period: c.period.clone(),
        opens: rfc3339(c.opens),
        closes: c.closes.map(rfc3339),
        closed: is_closed(c.closes, now),
        players: stats.players,
        best: stats.best,
        computer: stats.computer.as_ref().map(|r| r.score),
        seed: seed_public(&cref, now).then_some(Seed(c.seed)),
        by: c.by.clone(),
        from: c.origin.clone(),
        target: c.target,
        finished: stats.finished,
        you,
    }
}

/// The tie break as the page shows it: errors for Railroad Ink (fewer is better), the margin
/// over the best computer for Metro.
#[derive(Debug, Default, Serialize)]
pub struct TieBreak {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
}

impl TieBreak {
    /// From the stored `k2` (higher is better: minus the errors, or the margin).
    fn of(game: GameKind, k2: Option<i64>) -> TieBreak {
        match game {
            GameKind::Ink => TieBreak {
                errors: k2.map(|k| -k),
                margin: None,
            },
            GameKind::Metro => TieBreak {
                errors: None,
                margin: k2,
            },
        }
    }
}

async fn you(
    app: &AppState,
    stats: &ChallengeStats,
    player: &PlayerRow,
) -> Result<Option<You>, ApiError> {
    let Some(e) = app.storage.entry(&stats.challenge.id, &player.id).await? else {
        return Ok(None);
    };
    let rank = match e.finished {
        Some(_) => Some(app.storage.rank_and_around(&e, 0).await?.0),
        None => None,
    };
    let tie = TieBreak::of(stats.challenge.game, e.k2);
    Ok(Some(You {
        game: e.game,
        seat: e.seat,
        finished: e.finished.is_some(),
        score: e.score,
        tie,
        rank,
    }))
}

/// `GET /api/challenges/current`.
#[derive(Debug, Serialize)]
pub struct Current {
    pub now: String,
    pub challenges: Vec<Summary>,
}

pub async fn current(app: &AppState, token: Option<&str>) -> Result<Current, ApiError> {
    let player = player_of(app, token).await?;
    let now = app.clock.now_ms();
    let mut challenges = Vec::new();
    for stats in ensure_current(app).await? {
        let you = match &player {
            Some(p) => you(app, &stats, p).await?,
            None => None,
        };
        challenges.push(summary(&stats, now, you));
    }
    Ok(Current {
        now: rfc3339(now),
        challenges,
    })
}

/// `GET /api/challenges`: closed daily and weekly challenges, newest first.
#[derive(Debug, Serialize)]
pub struct Past {
    /// The server's time (RFC 3339).
    pub now: String,
    pub challenges: Vec<Summary>,
    /// The `before` of the next (older) page, when there may be more.
    pub next: Option<String>,
}

pub async fn past(app: &AppState, before: Option<i64>, limit: usize) -> Result<Past, ApiError> {
    let now = app.clock.now_ms();
    let mut rows = app.storage.past_challenges(now, before, limit + 1).await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    Ok(Past {
        now: rfc3339(now),
        next: more
            .then(|| rows.last().map(|s| rfc3339(s.challenge.opens)))
            .flatten(),
        challenges: rows.iter().map(|s| summary(s, now, None)).collect(),
    })
}

/// One row of a leaderboard.
#[derive(Debug, Serialize)]
pub struct Entry {
    pub rank: usize,
    pub player: Option<String>,
    pub name: String,
    pub score: i64,
    #[serde(flatten)]
    pub tie: TieBreak,
    pub finished: String,
    /// The entry's game, when the asker may open its board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The asker's own row.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub you: bool,
}

/// The computer's row, drawn apart from the players.
#[derive(Debug, Serialize)]
pub struct ComputerRow {
    pub name: String,
    pub score: i64,
    #[serde(flatten)]
    pub tie: TieBreak,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// Finished entries at one score.
#[derive(Debug, Serialize)]
pub struct Bucket {
    pub score: i64,
    pub count: i64,
}

#[derive(Debug, Serialize)]
pub struct Leaderboard {
    /// Entries ranked (finished).
    pub finished: i64,
    /// The best `limit`.
    pub entries: Vec<Entry>,
    /// The rows around the asked-for player (or the asker), that player's among them.
    pub around: Vec<Entry>,
    pub computer: Option<ComputerRow>,
    /// Every finished entry's score, lowest first.
    pub histogram: Vec<Bucket>,
    /// A friend challenge's players still at it (who played it, beside who finished).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub playing: Vec<Playing>,
}

/// Someone still playing a friend challenge.
#[derive(Debug, Serialize)]
pub struct Playing {
    pub player: Option<String>,
    pub name: String,
    pub started: String,
}

/// `GET /api/challenges/{id}`.
#[derive(Debug, Serialize)]
pub struct Board {
    /// The server's time (RFC 3339).
    pub now: String,
    #[serde(flatten)]
    pub summary: Summary,
    pub leaderboard: Leaderboard,
}

pub async fn board(
    app: &AppState,
    id: &str,
    token: Option<&str>,
    limit: usize,
    around: Option<&str>,
) -> Result<Board, ApiError> {
    let stats = load(app, id).await?;
    let c = &stats.challenge;
    let now = app.clock.now_ms();
    let asker = player_of(app, token).await?;
    let mine = match &asker {
        Some(p) => app.storage.entry(&c.id, &p.id).await?,
        None => None,
    };
    let see_boards =
        is_closed(c.closes, now) || mine.as_ref().is_some_and(|e| e.finished.is_some());
    let asker_id = asker.as_ref().map(|p| p.id.as_str());
    let row = |rank: usize, e: EntryRow| -> Entry {
        let tie = TieBreak::of(c.game, e.k2);
        Entry {
            rank,
            you: asker_id.is_some() && e.player.as_deref() == asker_id,
            player: e.player,
            name: e.name,
            score: e.score.unwrap_or(0),
            tie,
            finished: e.finished.map(rfc3339).unwrap_or_default(),
            game: see_boards.then_some(e.game),
        }
    };
    let top = app.storage.top_entries(&c.id, limit).await?;
    let entries: Vec<Entry> = top
        .into_iter()
        .enumerate()
        .map(|(i, e)| row(i + 1, e))
        .collect();
    let centre = match around {
        Some(pid) => app.storage.entry(&c.id, pid).await?,
        None => mine.clone(),
    };
    let around = match centre.filter(|e| e.finished.is_some()) {
        Some(e) => {
            let (rank, rows) = app.storage.rank_and_around(&e, AROUND).await?;
            let at = rows
                .iter()
                .position(|r| r.game == e.game && r.seat == e.seat)
                .unwrap_or(0);
            rows.into_iter()
                .enumerate()
                .map(|(i, r)| row(rank + i - at, r))
                .collect()
        }
        None => Vec::new(),
    };
    let histogram: Vec<Bucket> = app
        .storage
        .score_counts(&c.id)
        .await?
        .into_iter()
        .map(|(score, count)| Bucket { score, count })
        .collect();
    let computer = stats.computer.as_ref().map(|r| {
        let tie = TieBreak::of(c.game, Some(r.k2));
        ComputerRow {
            name: format!("Computer ({})", crate::ink::default_agent()),
            score: r.score,
            tie,
            game: see_boards.then(|| r.game.clone()),
        }
    });
    let you = match (&asker, &mine) {
        (Some(p), Some(_)) => you(app, &stats, p).await?,
        _ => None,
    };
    let playing = if c.kind == Kind::Friend.as_str() {
        app.storage
            .unfinished_entries(&c.id, MAX_LIMIT)
            .await?
            .into_iter()
            .map(|e| Playing {
                player: e.player,
                name: e.name,
                started: rfc3339(e.started),
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Board {
        now: rfc3339(now),
        leaderboard: Leaderboard {
            finished: stats.finished,
            entries,
            around,
            computer,
            histogram,
            playing,
        },
        summary: summary(&stats, now, you),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = DAY_MS;
    /// 2026-11-26T12:00:00Z, a Thursday of ISO week 48.
    const THURSDAY_NOON: i64 = 1_795_694_400_000;

    #[test]
    fn periods_follow_utc_days_and_iso_weeks() {
        let d = period(Kind::Daily, THURSDAY_NOON);
        assert_eq!(d.id, "daily-2026-11-26");
        assert_eq!(rfc3339(d.opens), "2026-11-26T00:00:00Z");
        assert_eq!(rfc3339(d.closes), "2026-11-27T00:00:00Z");
        let m = period(Kind::MetroDaily, THURSDAY_NOON);
        assert_eq!(m.id, "metro-daily-2026-11-26");
        let w = period(Kind::Weekly, THURSDAY_NOON);
        assert_eq!(w.id, "weekly-2026-W48");
        assert_eq!(rfc3339(w.opens), "2026-11-23T00:00:00Z");
        assert_eq!(rfc3339(w.closes), "2026-11-30T00:00:00Z");
        // The last millisecond of a day is still that day; midnight is the next.
        assert_eq!(period(Kind::Daily, d.closes - 1).id, d.id);
        assert_eq!(period(Kind::Daily, d.closes).id, "daily-2026-11-27");
        // Sunday 23:59 is still week 48; Monday is week 49.
        assert_eq!(period(Kind::Weekly, w.closes - 1).id, w.id);
        assert_eq!(period(Kind::Weekly, w.closes).id, "weekly-2026-W49");
        // ISO week 1 of 2027 starts on Monday 4 January 2027; 2027-01-03 is 2026-W53.
        let jan3 = THURSDAY_NOON + 38 * DAY;
        assert_eq!(period(Kind::Daily, jan3).id, "daily-2027-01-03");
        assert_eq!(period(Kind::Weekly, jan3).id, "weekly-2026-W53");
        assert_eq!(period(Kind::Weekly, jan3 + DAY).id, "weekly-2027-W01");
    }

    #[test]
    fn seeds_depend_on_the_secret_and_the_challenge() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_eq!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-26"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-27"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&b, "daily-2026-11-26"));
        assert_ne!(seat_token("t", "c1"), seat_token("t", "c2"));
        assert_ne!(seat_token("t", "c1"), seat_token("u", "c1"));
        assert_eq!(seat_token("t", "c1").len(), 64);
    }
}
