//! Challenges: everyone plays the same draws (dice, a deck: whatever the game draws) at their
//! own pace, once, and compares on a leaderboard.
//!
//! - Each game declares the kinds of periodic challenge it offers ([`crate::challenge_kind`]):
//!   a daily challenge runs from 00:00 to 24:00 UTC, a weekly one over an ISO week; each
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
//! - A friend challenge is made from a finished game by one of its seats, its
//!   maker's score to beat: on the game's own rolls when nobody but its seats could have seen
//!   them (its seats are then the first entries, and a player who sat there has played it), on
//!   new rolls otherwise (see [`friend`]). It never closes, so its dice, its games and its
//!   boards are seen only by those who have finished it.
//!
//! The games are ordinary games of the registered kinds; no rule of a game lives here, and no
//! game is named.
//!
//! By concern: making challenges and the computer's games ([`making`]), playing them
//! ([`playing`]), what the pages see of them ([`summary`]) and their leaderboards ([`board`]).

use sha2::{Digest, Sha256};

use crate::challenge_kind::{self, is_friend};
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::ids;
use crate::network::Network;
use crate::state::AppState;
use store::ChallengeRef;
use store::challenges::{ChallengeRow, NewEntry, PlayerRow};

mod board;
mod making;
mod playing;
mod summary;

pub use board::{Board, board};
pub(crate) use making::load;
pub use making::{ensure_current, resume_computers};
pub use playing::{FriendMade, friend, play, practice};
pub use summary::{Current, Cursor, Past, StreakView, current, past, streaks};

/// The most entries a leaderboard page lists at once.
pub const MAX_LIMIT: usize = 100;

/// The setup of the game a challenge is played in (see
/// [`crate::challenge_kind::ChallengeKind::setups`]): a periodic challenge's, read from its id
/// by its kind's declaration; a friend challenge's, named in its id (the variant of the game it
/// was made from). `None`: the game itself (or a kind no registered game declares).
pub fn setup_of(app: &AppState, c: &ChallengeRow) -> Option<String> {
    if is_friend(&c.kind) {
        return challenge_kind::friend_setup(&c.id).map(str::to_owned);
    }
    let setup = app
        .challenge_kind(c.game.as_str(), &c.kind)?
        .parse(&c.id)?
        .setup;
    setup.map(str::to_owned)
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
/// a periodic challenge (unless the server ranks every entry).
pub fn new_entry(
    app: &AppState,
    challenge: &ChallengeRow,
    player: &PlayerRow,
    network: Option<Network>,
) -> NewEntry {
    let addr = network
        .filter(|_| app.rank_per_address && !is_friend(&challenge.kind))
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
    Ok(crate::identity::authenticate(app, token).await?.0)
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

#[cfg(test)]
mod tests {
    use super::seed;

    #[test]
    fn seeds_depend_on_the_secret_and_the_challenge() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_eq!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-26"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&a, "daily-2026-11-27"));
        assert_ne!(seed(&a, "daily-2026-11-26"), seed(&b, "daily-2026-11-26"));
    }
}
