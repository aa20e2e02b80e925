//! Playing challenges: a player's attempt (one, ranked one per network), practice on a closed
//! challenge's draws, and friend challenges made from finished games.

use serde::Serialize;

use crate::challenge_kind::{self, FRIEND, is_friend};
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::game::{ChallengeStart, FriendGame};
use crate::ids;
use crate::network::Network;
use crate::state::AppState;
use store::StorageError;
use store::challenges::{ChallengeRow, EntryRow, FinishedEntry, PlayerRow};

use super::making::{load, start_computer};
use super::{authenticate, is_closed, new_entry, setup_of};

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
        // The network's open attempt may be this player's own, started since the look above
        // (by another request of theirs, in another process): then it is theirs again.
        if let Some(e) = app.storage.entry(&c.id, &player.id).await? {
            return Ok((false, played_again(app, c, e, token, &seat_token).await?));
        }
        return Err(network_playing(c, started));
    }
    let addr = entry.addr.clone();
    let setup = setup_of(app, c);
    let start = ChallengeStart {
        challenge: c,
        player: &player,
        token: &seat_token,
        entry: Some(entry),
        setup: setup.as_deref(),
    };
    let created = app.kind(c.game.as_str())?.start_challenge(app, start).await;
    match created {
        Ok(game) => {
            tracing::info!(challenge = %c.id, %game, "challenge started");
            crate::telemetry::entry();
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
    let setup = setup_of(app, c);
    let start = ChallengeStart {
        challenge: c,
        player: &player,
        token: &seat_token,
        entry: None,
        setup: setup.as_deref(),
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

/// Makes a friend challenge from a finished game (of a kind whose games make them), by one of
/// its seats (the seat's
/// token, or the token of the player who sat there), its maker's score to beat. A game makes one
/// friend challenge: asking again gives it again (then `false`).
///
/// Its dice are dice nobody but the game's seats can have seen. The game's own, when nobody
/// else could read them: then the game's seats are its first entries (each under its player's
/// name, and a player who sat there has played it), the maker's the maker's. New dice when
/// the game's could be known to others: read by anyone who does not sit in it (a spectator, a
/// replay, a review: see [`store::StoredGame::shown`]), a seed its creator chose, a
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
        && !is_friend(&c.kind)
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
        && is_friend(&c.kind)
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
    let id = challenge_kind::friend_id(variant, &ids::new_game_id()?);
    let row = ChallengeRow {
        id: id.clone(),
        kind: FRIEND.to_owned(),
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
        streak_follows: None,
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
    stored: &store::StoredGame,
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
