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
//!   already started. Names are unique among players (by how they look). One ranked attempt
//!   per network, whatever the order of starts: an entry remembers the network it started from
//!   (a keyed hash, forgotten once the challenge closes); while one of a network's attempts
//!   goes on, another start from that network is refused (by a unique key, so two starts at
//!   once cannot both pass), and an attempt started once another has started from its network
//!   is played but ranked apart. So no ranked entry's network saw a roll of it before it did
//!   (see [`Network`]; off with `--rank-per-address false`).
//! - The computer (`strong`) plays the challenge once, in the background; its score is on the
//!   leaderboard from the start. Its game belongs to the challenge like the players' games.
//! - Until a challenge closes, its games (the computer's too) are seen only by their own seats
//!   and by players who have finished it: listed nowhere else, their state, replay and live
//!   updates refused to anyone else ([`may_see`]). Its seed is shown once it closes.
//! - The close is the close, by the database's clock (the same for every process): no action
//!   in a challenge's game is stored after it, and no attempt starts after it.
//! - A friend challenge is made from a finished Railroad Ink game by one of its seats, its
//!   maker's score to beat: on the game's own rolls when nobody but its seats could have seen
//!   them (its seats are then the first entries, and a player who sat there has played it), on
//!   new rolls otherwise (see [`friend`]). It never closes, so its dice, its games and its
//!   boards are seen only by those who have finished it.
//!
//! The games are ordinary games of the engines (`ink`, `metro`); no rule lives here.

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest, Sha256};
use time::{Date, Duration as TimeDuration, Month, OffsetDateTime, Weekday};

use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::game::{ChallengeStart, FriendGame, Strength, TieBreakRule};
use crate::ids;
use crate::network::Network;
use crate::play::leases::{self, Lease};
use crate::seed::Seed;
use crate::state::AppState;
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
    /// Railroad Ink's weekly Deep Blue challenge: the lake expansion in odd ISO weeks
    /// (`weekly-lake-2026-W49`), the river in even ones (`weekly-river-2026-W50`).
    WeeklyDeepBlue,
    Monthly,
    MetroDaily,
    Friend,
}

impl Kind {
    /// In the order today's challenges are listed: Railroad Ink's, then Metro's, then the
    /// weekly Deep Blue challenge (added later: the others keep their places).
    pub const PERIODIC: [Kind; 5] = [
        Kind::Daily,
        Kind::Weekly,
        Kind::Monthly,
        Kind::MetroDaily,
        Kind::WeeklyDeepBlue,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Daily => "daily",
            Kind::Weekly => "weekly",
            Kind::WeeklyDeepBlue => "weekly-deep-blue",
            Kind::Monthly => "monthly",
            Kind::MetroDaily => "metro-daily",
            Kind::Friend => "friend",
        }
    }

    /// The game a periodic challenge of this kind is played in.
    fn game(self) -> GameKind {
        GameKind::from(match self {
            Kind::MetroDaily => "metro",
            _ => "ink",
        })
    }
}

/// A periodic challenge's place in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub id: String,
    /// `2026-11-26`, `2026-W48` or `2026-11`.
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
        Kind::Weekly | Kind::WeeklyDeepBlue => {
            let (year, week, _) = date.to_iso_week_date();
            let monday = Date::from_iso_week_date(year, week, Weekday::Monday).unwrap_or(date);
            let opens = midnight_ms(monday);
            let name = format!("{year}-W{week:02}");
            let id = match kind {
                Kind::WeeklyDeepBlue if week % 2 == 1 => format!("weekly-lake-{name}"),
                Kind::WeeklyDeepBlue => format!("weekly-river-{name}"),
                _ => format!("weekly-{name}"),
            };
            Period {
                id,
                name,
                opens,
                closes: midnight_ms(monday + TimeDuration::days(7)),
            }
        }
        Kind::Monthly => {
            let first = date.replace_day(1).unwrap_or(date);
            let next = match first.month() {
                Month::December => Date::from_calendar_date(first.year() + 1, Month::January, 1),
                m => Date::from_calendar_date(first.year(), m.next(), 1),
            }
            .unwrap_or(first);
            let name = format!("{}-{:02}", first.year(), u8::from(first.month()));
            Period {
                id: format!("monthly-{name}"),
                name,
                opens: midnight_ms(first),
                closes: midnight_ms(next),
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

/// The entry of a player's attempt at a challenge, stored with its game (seat 0): refused once
/// the challenge has closed by the database's clock; from `network`, ranked one per network on
/// a daily or weekly challenge (unless the server ranks every entry).
pub fn new_entry(
    app: &AppState,
    challenge: &ChallengeRow,
    player: &PlayerRow,
    network: Option<Network>,
) -> NewEntry {
    let addr = network
        .filter(|_| app.rank_per_address && challenge.kind != Kind::Friend.as_str())
        .map(|n| n.keyed_hash(app.storage.secret()));
    NewEntry {
        challenge: challenge.id.clone(),
        seat: 0,
        player: Some(player.id.clone()),
        name: player.name.clone(),
        started: app.clock.now_ms(),
        addr,
        deadline: challenge.closes.map(|t| app.clock.in_database(t)),
    }
}

pub fn challenge_ref(c: &ChallengeRow) -> ChallengeRef {
    ChallengeRef {
        id: c.id.clone(),
        kind: c.kind.clone(),
        closes: c.closes,
        by: c.by.clone(),
        fresh: c.fresh,
    }
}

pub(crate) fn is_closed(closes: Option<i64>, now: i64) -> bool {
    closes.is_some_and(|t| now >= t)
}

/// Whether a challenge's seed may be shown to everyone: once it has closed (a friend
/// challenge never does: its seed is shown only to whom [`may_see`] lets see its games).
pub fn seed_public(c: &ChallengeRef, now: i64) -> bool {
    is_closed(c.closes, now)
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

/// Whether the holder of `token` may see a game of a challenge it is not a seat of (a seat
/// sees its own game: see [`seat_of`]): everyone once the challenge has closed, before that
/// only players who have finished it. 403 otherwise.
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
    Err(hidden(c))
}

/// The refusal of a challenge's game to who may not see it yet.
fn hidden(c: &ChallengeRef) -> ApiError {
    ApiError::Forbidden(match c.closes {
        Some(t) => format!(
            "this game is in the challenge {}, open until {}: its boards are seen by those who have finished it, and by everyone once it closes",
            c.id,
            rfc3339(t)
        ),
        None => format!(
            "this game is in the challenge {}: its boards are seen by those who have finished it",
            c.id
        ),
    })
}

/// The seat of a game that the holder of `token` sits in, if any: the seat's own token, or the
/// token of the player who sits there. `seats` gives each seat's token hash and player.
pub async fn seat_of<'a>(
    app: &AppState,
    seats: impl IntoIterator<Item = (Option<&'a str>, Option<&'a str>)>,
    token: Option<&str>,
) -> Result<Option<usize>, ApiError> {
    let Some(token) = token else {
        return Ok(None);
    };
    let hash = ids::hash_token(token);
    let seats: Vec<_> = seats.into_iter().collect();
    if let Some(i) = seats.iter().position(|(h, _)| *h == Some(hash.as_str())) {
        return Ok(Some(i));
    }
    if seats.iter().all(|(_, p)| p.is_none()) {
        return Ok(None);
    }
    let Some(player) = player_of(app, Some(token)).await? else {
        return Ok(None);
    };
    Ok(seats
        .iter()
        .position(|(_, p)| *p == Some(player.id.as_str())))
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
        fresh: false,
    }
}

/// Makes today's, this week's and this month's challenges if they are not there yet, sets
/// their computer games going, and returns them (in [`Kind::PERIODIC`]'s order).
pub async fn ensure_current(app: &AppState) -> Result<Vec<ChallengeStats>, ApiError> {
    let now = app.clock.now_ms();
    let mut out = Vec::with_capacity(Kind::PERIODIC.len());
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
    if Kind::PERIODIC.iter().any(|&k| period(k, now).id == id) {
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
/// plays it at most once at a time, and the database keeps only the first result. A daily or
/// weekly challenge's game has a queue of its own, so that no number of friend challenges holds
/// it up; friend challenges' queue is bounded ([`FRIEND_QUEUE`]).
fn start_computer(app: &AppState, challenge: ChallengeRow) {
    let friend = challenge.kind == Kind::Friend.as_str();
    {
        let mut computing = app.computing.lock().unwrap_or_else(|e| e.into_inner());
        if computing.contains(&challenge.id) {
            return;
        }
        if friend
            && computing
                .iter()
                .filter(|id| id.starts_with("friend-"))
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
    let strength = if challenge.kind == Kind::Friend.as_str() {
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
    let queue = if challenge.kind == Kind::Friend.as_str() {
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
    let variant = crate::challenge_games::variant(&challenge.id);
    let played = tokio::task::spawn_blocking(move || {
        kind.computer_challenge(seed, variant, strength, clock.now_ms())
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    drop(permit);
    let mut finished: Finished = played.finished;
    let result: EntryScore = finished
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
        variant: crate::challenge_games::variant(&challenge.id).map(str::to_owned),
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

// ---------------------------------------------------------------------------------------
// Playing.

/// The answer to `POST /api/challenges/{id}/play`: the player's game and seat.
#[derive(Debug, Serialize)]
pub struct Played {
    pub game: String,
    pub seat: usize,
    /// The seat's token; none for a seat of a friend challenge's first game (a finished game,
    /// seen with the player's key: never a seat token, which would put the key in addresses).
    pub token: Option<String>,
    pub kind: String,
}

/// Starts the player's attempt at a challenge, from `network`, or returns the one already
/// started (then `false`). A seat of a friend challenge's first game (its maker's, or another
/// player who sat in it) gets that seat back, without a token.
pub async fn play(
    app: &AppState,
    id: &str,
    token: Option<&str>,
    network: Option<Network>,
) -> Result<(bool, Played), ApiError> {
    let player = authenticate(app, token).await?;
    let token = token.unwrap_or_default();
    let stats = load(app, id).await?;
    let c = &stats.challenge;
    let seat_token = ids::challenge_seat_token(app.storage.secret(), &player.id, &c.id);
    if let Some(e) = app.storage.entry(&c.id, &player.id).await? {
        return Ok((false, played_again(app, c, e, token, &seat_token).await?));
    }
    let now = app.clock.now_ms();
    if is_closed(c.closes, now) {
        return Err(closed(c, now));
    }
    if c.opens > now {
        return Err(ApiError::Conflict(format!(
            "the challenge {} opens at {}",
            c.id,
            rfc3339(c.opens)
        )));
    }
    let entry = new_entry(app, c, &player, network);
    // One attempt of a network at a time (the database refuses a second one that races this).
    if let Some(addr) = &entry.addr
        && let Some(started) = app.storage.open_entry_of_network(&c.id, addr).await?
    {
        return Err(network_playing(c, started));
    }
    let addr = entry.addr.clone();
    let start = ChallengeStart {
        challenge: c,
        player: &player,
        token: &seat_token,
        entry: Some(entry),
    };
    let created = app.kind(c.game.as_str())?.start_challenge(app, start).await;
    match created {
        Ok(game) => {
            tracing::info!(challenge = %c.id, %game, "challenge started");
            Ok((
                true,
                Played {
                    game,
                    seat: 0,
                    token: Some(seat_token),
                    kind: c.game.to_string(),
                },
            ))
        }
        // Another request of the same player's won the race: its game is the attempt.
        // Or another player's from the same network started first.
        Err(ApiError::Duplicate(why)) => match app.storage.entry(&c.id, &player.id).await? {
            Some(e) => Ok((false, played_again(app, c, e, token, &seat_token).await?)),
            None => match &addr {
                Some(addr) => match app.storage.open_entry_of_network(&c.id, addr).await? {
                    Some(started) => Err(network_playing(c, started)),
                    None => Err(ApiError::Stale),
                },
                None => Err(ApiError::Internal(format!(
                    "duplicate without an entry: {why}"
                ))),
            },
        },
        // The database's clock says it closed meanwhile.
        Err(ApiError::Closed(_)) => Err(closed(c, now)),
        Err(e) => Err(e),
    }
}

/// The refusal of a second attempt from a network while one of its attempts goes on (started
/// at `started`).
fn network_playing(c: &ChallengeRow, started: i64) -> ApiError {
    ApiError::Conflict(format!(
        "someone on your network (your address, which a household, an office or a phone network may share) is playing {} now (started at {}): one attempt at a time from a network, so that nobody plays on dice seen on another screen. Start yours once theirs is finished",
        c.id,
        rfc3339(started)
    ))
}

/// A player's attempt already started, asked for again: the seat's token is the one it was
/// given (`seat_token`, or for a game started before seat tokens were derived from the player's
/// id, the one derived from the player's key); a seat of a friend challenge's first game has
/// none.
async fn played_again(
    app: &AppState,
    c: &ChallengeRow,
    e: EntryRow,
    key: &str,
    seat_token: &str,
) -> Result<Played, ApiError> {
    let token = if c.origin.as_deref() == Some(e.game.as_str()) {
        None
    } else {
        let legacy = ids::legacy_challenge_seat_token(key, &c.id);
        let stored = app.storage.seat_token_hash(&e.game, e.seat).await?;
        Some(
            if stored.as_deref() == Some(ids::hash_token(&legacy).as_str()) {
                legacy
            } else {
                seat_token.to_owned()
            },
        )
    };
    Ok(Played {
        token,
        game: e.game,
        seat: e.seat,
        kind: c.game.to_string(),
    })
}

/// Starts a practice game on a closed challenge's draws for the token's player: as many as they
/// like, each a new game with a token of its own, never ranked and never in a streak (no
/// entry). Refused while the challenge is open (a friend challenge never closes: it is played,
/// not practised).
pub async fn practice(app: &AppState, id: &str, token: Option<&str>) -> Result<Played, ApiError> {
    let player = authenticate(app, token).await?;
    let stats = load(app, id).await?;
    let c = &stats.challenge;
    let now = app.clock.now_ms();
    if !is_closed(c.closes, now) {
        return Err(ApiError::Conflict(match c.closes {
            Some(closes) => format!(
                "the challenge {} is open until {}: play it (one try each); practice opens once it closes",
                c.id,
                rfc3339(closes)
            ),
            None => format!(
                "the challenge {} never closes: play it instead (POST /api/challenges/{}/play)",
                c.id, c.id
            ),
        }));
    }
    let seat_token = ids::new_token()?;
    let start = ChallengeStart {
        challenge: c,
        player: &player,
        token: &seat_token,
        entry: None,
    };
    let game = app
        .kind(c.game.as_str())?
        .start_challenge(app, start)
        .await?;
    tracing::info!(challenge = %c.id, %game, "practice started");
    Ok(Played {
        game,
        seat: 0,
        token: Some(seat_token),
        kind: c.game.to_string(),
    })
}

/// The refusal of a new attempt at a closed challenge.
fn closed(c: &ChallengeRow, now: i64) -> ApiError {
    ApiError::Closed(format!(
        "the challenge {} closed at {}",
        c.id,
        rfc3339(c.closes.unwrap_or(now))
    ))
}

/// `POST /api/challenges`'s answer.
#[derive(Debug, Serialize)]
pub struct FriendMade {
    pub id: String,
    pub link: String,
    /// Played on the game's own dice (its seats are its first entries); `false`: on new dice,
    /// the game's having been seen by others (see [`friend`]).
    pub same_dice: bool,
}

/// Makes a friend challenge from a finished Railroad Ink game, by one of its seats (the seat's
/// token, or the token of the player who sat there), its maker's score to beat. A game makes one
/// friend challenge: asking again gives it again (then `false`).
///
/// Its dice are dice nobody but the game's seats can have seen. The game's own, when nobody
/// else could read them: then the game's seats are its first entries (each under its player's
/// name, and a player who sat there has played it), the maker's the maker's. New dice when
/// the game's could be known to others: read by anyone who does not sit in it (a spectator, a
/// replay, a review: see [`crate::storage::StoredGame::shown`]), a seed its creator chose, a
/// closed challenge's or its practice's; then the game's score is only the one to beat, and
/// its seats may play the new dice like anyone.
pub async fn friend(
    app: &AppState,
    from: &str,
    token: Option<&str>,
    seat_token: Option<&str>,
) -> Result<(bool, FriendMade), ApiError> {
    let player = authenticate(app, token).await?;
    let stored = app.stored_game(from).await?;
    let kind = app.kind(stored.kind.as_str())?.clone();
    let now = app.clock.now_ms();
    // A game of a challenge still open keeps its dice secret (but for the friend challenge
    // made from this very game: asked again, it is given again, below).
    if let Some(c) = &stored.challenge
        && !is_closed(c.closes, now)
        && c.kind != Kind::Friend.as_str()
    {
        return Err(ApiError::Conflict(format!(
            "the game is in the challenge {}, open until {}: its dice stay secret until then",
            c.id,
            rfc3339(c.closes.unwrap_or(now))
        )));
    }
    // The maker's own seat: the one whose token they hold, or the one their player sat in.
    let held = seat_token.map(ids::hash_token);
    let makers_seat = stored
        .seats
        .iter()
        .position(|row| held.is_some() && row.token_hash == held)
        .or_else(|| {
            stored
                .seats
                .iter()
                .position(|row| row.player.as_deref() == Some(player.id.as_str()))
        })
        .ok_or_else(|| {
            ApiError::Forbidden(
                "only a player of the game can make a friend challenge from it: send your seat's token as seat_token".into(),
            )
        })?;
    if let Some(made) = app.storage.friend_challenge_of(from).await? {
        return Ok((false, friend_made(app, made).await?));
    }
    if let Some(c) = &stored.challenge
        && c.kind == Kind::Friend.as_str()
    {
        return Err(ApiError::Conflict(format!(
            "the game is in the friend challenge {}: share that challenge's link instead",
            c.id
        )));
    }
    let FriendGame {
        seed,
        seed_known,
        results,
        variant,
    } = kind.friend_game(&stored)?;
    let same_dice = stored.shown.is_none() && !seed_known && stored.challenge.is_none();
    let target = results.get(makers_seat).map(|&(score, _)| score);
    let entries = if same_dice {
        friend_entries(app, &stored, makers_seat, &player, results, now).await?
    } else {
        Vec::new()
    };
    // A game of an expansion names it in the challenge's id: its games are played in it.
    let id = match variant {
        Some(v) => format!("friend-{v}-{}", ids::new_game_id()?),
        None => format!("friend-{}", ids::new_game_id()?),
    };
    let row = ChallengeRow {
        id: id.clone(),
        kind: Kind::Friend.as_str().to_owned(),
        game: stored.kind,
        period: None,
        opens: now,
        closes: None,
        seed: if same_dice { seed } else { ids::new_seed()? },
        origin: Some(stored.id.clone()),
        by: Some(player.name.clone()),
        target,
        created: now,
        fresh: !same_dice,
    };
    match app
        .storage
        .create_friend_challenge(row.clone(), entries)
        .await
    {
        Ok(()) => {}
        // Another request made one from this game first: that one it is.
        Err(StorageError::Duplicate(why)) => {
            return match app.storage.friend_challenge_of(from).await? {
                Some(made) => Ok((false, friend_made(app, made).await?)),
                None => Err(ApiError::Duplicate(why)),
            };
        }
        Err(e) => return Err(e.into()),
    }
    // Read again with its challenge on its next request.
    kind.forget(from);
    start_computer(app, row);
    tracing::info!(challenge = %id, from = %stored.id, same_dice, "friend challenge made");
    Ok((
        true,
        FriendMade {
            link: format!("/challenges/{id}"),
            id,
            same_dice,
        },
    ))
}

/// The answer for a friend challenge made before.
async fn friend_made(app: &AppState, id: String) -> Result<FriendMade, ApiError> {
    let same_dice = match app.storage.challenge(&id).await? {
        Some(stats) => stats.same_dice(),
        None => return Err(ApiError::Internal(format!("challenge {id} vanished"))),
    };
    Ok(FriendMade {
        link: format!("/challenges/{id}"),
        id,
        same_dice,
    })
}

/// The first entries of a friend challenge played on its first game's dice: each seat of that
/// game, finished. A seat a player sat in is that player's entry, under the player's name (the
/// maker's seat the maker's): having played the dice, the player has played the challenge. A
/// seat of nobody's (a guest at the same table) is named as the seat was, marked a guest.
async fn friend_entries(
    app: &AppState,
    stored: &crate::storage::StoredGame,
    makers_seat: usize,
    maker: &PlayerRow,
    results: Vec<(i64, i64)>,
    now: i64,
) -> Result<Vec<FinishedEntry>, ApiError> {
    let mut players = std::collections::HashSet::new();
    let mut entries = Vec::with_capacity(results.len());
    for (i, (row, (score, k2))) in stored.seats.iter().zip(results).enumerate() {
        let sitter = if i == makers_seat {
            Some(maker.clone())
        } else {
            match row.player.as_deref() {
                Some(id) if id != maker.id => app.storage.player(id).await?,
                _ => None,
            }
        };
        // One entry a player (a hot-seat game's seats may all be its maker's).
        let sitter = sitter.filter(|p| players.insert(p.id.clone()));
        let (player, name) = match sitter {
            Some(p) => (Some(p.id), p.name),
            None => (None, format!("{} (guest)", row.name)),
        };
        entries.push(FinishedEntry {
            game: stored.id.clone(),
            seat: row.seat,
            player,
            name,
            at: now,
            score,
            k2,
        });
    }
    Ok(entries)
}

// ---------------------------------------------------------------------------------------
// What the page sees.

/// A challenge in a list or at the head of its leaderboard.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub id: String,
    pub kind: String,
    /// The variant of the game it is played in (`lake`, `river`: Railroad Ink's Deep Blue
    /// expansions); absent for the game itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
    pub game: String,
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
    /// Once closed (a friend challenge's: to who has finished it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// A friend challenge's first game, to who has finished the challenge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// A friend challenge's score to beat (its maker's, or its game's best).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<i64>,
    /// A friend challenge's: played on the rolls of the game it was made from (`false`: on
    /// new rolls, that game's having been seen by others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_dice: Option<bool>,
    /// Entries finished (ranked).
    pub finished: i64,
    /// The asking player's attempt, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<You>,
    /// The asking player's streak of this kind of challenge (a daily's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streak: Option<StreakView>,
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
    /// Once finished, and ranked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// Why a finished entry has no rank: another entry came from its network first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unranked: Option<&'static str>,
}

/// Why an entry is ranked apart.
const UNRANKED: &str = "unranked: another entry from this network";

/// A challenge as the asker sees it: its seed and first game only when `sees_games` (the
/// asker may see its games) and the challenge is over for them.
fn summary(stats: &ChallengeStats, now: i64, you: Option<You>, sees_games: bool) -> Summary {
    let c = &stats.challenge;
    let cref = challenge_ref(c);
    let friend = c.kind == Kind::Friend.as_str();
    Summary {
        id: c.id.clone(),
        kind: c.kind.clone(),
        variant: crate::challenge_games::variant(&c.id),
        game: c.game.to_string(),
        period: c.period.clone(),
        opens: rfc3339(c.opens),
        closes: c.closes.map(rfc3339),
        closed: is_closed(c.closes, now),
        players: stats.players,
        best: stats.best,
        computer: stats.computer.as_ref().map(|r| r.score),
        seed: (seed_public(&cref, now) || (friend && sees_games)).then_some(Seed(c.seed)),
        by: c.by.clone(),
        from: c.origin.clone().filter(|_| sees_games),
        target: c.target,
        same_dice: friend.then_some(stats.same_dice()),
        finished: stats.finished,
        you,
        streak: None,
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
    /// From the stored `k2` (higher is better: minus the errors, or the margin), as the game
    /// `kind` of the challenge breaks its ties.
    fn of(app: &AppState, kind: &GameKind, k2: Option<i64>) -> TieBreak {
        match app.kind(kind.as_str()).map(|k| k.tie_break()) {
            Ok(TieBreakRule::Margin) => TieBreak {
                errors: None,
                margin: k2,
            },
            _ => TieBreak {
                errors: k2.map(|k| -k),
                margin: None,
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
        Some(_) if e.ranked => Some(app.storage.rank_and_around(&e, 0).await?.0),
        _ => None,
    };
    let tie = TieBreak::of(app, &stats.challenge.game, e.k2);
    Ok(Some(You {
        unranked: (e.finished.is_some() && !e.ranked).then_some(UNRANKED),
        game: e.game,
        seat: e.seat,
        finished: e.finished.is_some(),
        score: e.score,
        tie,
        rank,
    }))
}

/// A streak of daily challenges as a player's page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct StreakView {
    /// Consecutive days with a finished daily, up to `last`; 0 once a day has passed
    /// without one (a streak is current until the end of the day after its last day).
    pub current: i64,
    pub longest: i64,
    /// The last day played (`2026-11-27`).
    pub last: Option<String>,
}

/// The streaks of a player as of `now` (milliseconds since the Unix epoch).
pub async fn streaks(
    app: &AppState,
    player: &str,
    now: i64,
) -> Result<BTreeMap<String, StreakView>, ApiError> {
    let today = period(Kind::Daily, now).name;
    let yesterday = period(Kind::Daily, now - DAY_MS).name;
    Ok(app
        .storage
        .streaks(player)
        .await?
        .into_iter()
        .map(|(kind, s)| {
            let alive = s
                .last
                .as_deref()
                .is_some_and(|last| last == today || last == yesterday);
            let view = StreakView {
                current: if alive { s.current } else { 0 },
                longest: s.longest,
                last: s.last,
            };
            (kind, view)
        })
        .collect())
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
    let streaks = match &player {
        Some(p) => streaks(app, &p.id, now).await?,
        None => BTreeMap::new(),
    };
    for stats in ensure_current(app).await? {
        let you = match &player {
            Some(p) => you(app, &stats, p).await?,
            None => None,
        };
        let done = you.as_ref().is_some_and(|y| y.finished);
        let mut s = summary(&stats, now, you, done);
        s.streak = streaks.get(&s.kind).cloned();
        challenges.push(s);
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
    /// The `before` of the next (older) page, when there may be more: the last challenge's
    /// opening and id, `2026-11-26T00:00:00Z_daily-2026-11-26` (see [`Cursor`]).
    pub next: Option<String>,
}

/// Where a page of a list ends: an item's time and id (the list is ordered by time, newest
/// first, then by id), written `TIME_ID`; or a time alone (everything before it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor<T> {
    pub at: T,
    pub id: Option<String>,
}

impl<T> Cursor<T> {
    /// `TIME` or `TIME_ID`, the time read by `time`; `None` if it does not read.
    pub fn parse(text: &str, time: impl Fn(&str) -> Option<T>) -> Option<Cursor<T>> {
        let (at, id) = match text.split_once('_') {
            Some((at, id)) => {
                let ok = !id.is_empty()
                    && id.len() <= 64
                    && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
                if !ok {
                    return None;
                }
                (at, Some(id.to_owned()))
            }
            None => (text, None),
        };
        Some(Cursor { at: time(at)?, id })
    }

    /// The keyset of the storage's queries.
    pub fn into_pair(self) -> (T, Option<String>) {
        (self.at, self.id)
    }
}

pub async fn past(
    app: &AppState,
    before: Option<Cursor<i64>>,
    limit: usize,
) -> Result<Past, ApiError> {
    let now = app.clock.now_ms();
    let mut rows = app
        .storage
        .past_challenges(now, before.map(Cursor::into_pair), limit + 1)
        .await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    Ok(Past {
        now: rfc3339(now),
        next: more
            .then(|| {
                rows.last()
                    .map(|s| format!("{}_{}", rfc3339(s.challenge.opens), s.challenge.id))
            })
            .flatten(),
        challenges: rows.iter().map(|s| summary(s, now, None, true)).collect(),
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
    /// Every ranked entry's score, lowest first.
    pub histogram: Vec<Bucket>,
    /// Finished entries ranked apart, below the ranks: each came from a network that had an
    /// entry in the challenge already (see [`Network`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unranked: Vec<Entry>,
    /// A friend challenge's players still at it (who played it, beside who finished).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub playing: Vec<Playing>,
    /// A closed challenge's entries that were never finished.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<Playing>,
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
    let closed = is_closed(c.closes, now);
    let asker = player_of(app, token).await?;
    let mine = match &asker {
        Some(p) => app.storage.entry(&c.id, &p.id).await?,
        None => None,
    };
    let see_boards = closed || mine.as_ref().is_some_and(|e| e.finished.is_some());
    let asker_id = asker.as_ref().map(|p| p.id.as_str());
    let row = |rank: usize, e: EntryRow| -> Entry {
        let tie = TieBreak::of(app, &c.game, e.k2);
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
    let around = match centre.filter(|e| e.finished.is_some() && e.ranked) {
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
    let unranked = app
        .storage
        .unranked_entries(&c.id, MAX_LIMIT)
        .await?
        .into_iter()
        .map(|e| row(0, e))
        .collect();
    let histogram: Vec<Bucket> = app
        .storage
        .score_counts(&c.id)
        .await?
        .into_iter()
        .map(|(score, count)| Bucket { score, count })
        .collect();
    let computer = stats.computer.as_ref().map(|r| {
        let tie = TieBreak::of(app, &c.game, Some(r.k2));
        ComputerRow {
            name: app
                .kind(c.game.as_str())
                .map(|k| k.computer_name())
                .unwrap_or_else(|_| "Computer".into()),
            score: r.score,
            tie,
            game: see_boards.then(|| r.game.clone()),
        }
    });
    let you = match (&asker, &mine) {
        (Some(p), Some(_)) => you(app, &stats, p).await?,
        _ => None,
    };
    let is_friend = c.kind == Kind::Friend.as_str();
    let still_playing = if is_friend || closed {
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
    let (playing, unfinished) = if closed {
        (Vec::new(), still_playing)
    } else {
        (still_playing, Vec::new())
    };
    let mut summary = summary(&stats, now, you, see_boards);
    if let Some(p) = &asker {
        summary.streak = streaks(app, &p.id, now).await?.remove(&c.kind);
    }
    Ok(Board {
        now: rfc3339(now),
        leaderboard: Leaderboard {
            finished: stats.finished,
            entries,
            around,
            computer,
            histogram,
            unranked,
            playing,
            unfinished,
        },
        summary,
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
    fn months_run_from_the_first_to_the_first_across_years() {
        let m = period(Kind::Monthly, THURSDAY_NOON);
        assert_eq!(
            (m.id.as_str(), m.name.as_str()),
            ("monthly-2026-11", "2026-11")
        );
        assert_eq!(rfc3339(m.opens), "2026-11-01T00:00:00Z");
        assert_eq!(rfc3339(m.closes), "2026-12-01T00:00:00Z");
        assert_eq!(period(Kind::Monthly, m.closes - 1).id, m.id);
        let december = period(Kind::Monthly, m.closes);
        assert_eq!(december.id, "monthly-2026-12");
        assert_eq!(rfc3339(december.closes), "2027-01-01T00:00:00Z");
        assert_eq!(period(Kind::Monthly, december.closes).id, "monthly-2027-01");
        // February of a leap year has 29 days.
        let feb_2028 = period(Kind::Monthly, 1_833_062_400_000); // 2028-02-02
        assert_eq!(feb_2028.id, "monthly-2028-02");
        assert_eq!(rfc3339(feb_2028.closes), "2028-03-01T00:00:00Z");
        assert_eq!(feb_2028.closes - feb_2028.opens, 29 * DAY);
    }

    #[test]
    fn seeds_depend_on_the_secret_and_the_challenge() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_eq!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-26"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-27"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&b, "daily-2026-11-26"));
    }
}
