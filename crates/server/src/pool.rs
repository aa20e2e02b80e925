//! "Play someone now": a pool per game where players wait to be seated with strangers near
//! their rating, the window widening the longer they wait; after a wait they chose, computers
//! fill the empty seats. The pool is the database's (see `store::pool`): every process matches
//! it, and a game takes its people in its own transaction, so nobody gets two seats and no two
//! processes make the same game.

use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::network::Network;
use crate::state::AppState;
use crate::turns::PoolPerson;
use crate::turns::{ClockRequest, TimeControl};
use store::StorageError;
use store::pool::{PoolEntry, PoolSeat};

/// How long computers wait, by default, before they fill a table's empty seats.
pub const FILL_AFTER_S: u32 = 30;
/// The longest wait a player may choose before computers fill the empty seats.
pub const MOST_FILL_AFTER_S: u32 = 600;
/// How long a waiting player may go without asking before they are taken out of the pool
/// (their page closed).
const UNSEEN_MS: i64 = 20_000;
/// How often a waiting player's asking is written down (each look is not a write).
const SEEN_EVERY_MS: i64 = 5_000;
/// How long a seated entry is kept (its player reads their seat from it).
const SEATED_KEPT_MS: i64 = 24 * 60 * 60 * 1000;
/// How far apart two ratings may be when one of them has just come.
const WINDOW: i64 = 100;
/// How much wider the window grows each second of waiting.
const WIDENING_PER_S: i64 = 5;

/// `POST /api/pool/{kind}`: how many players (a number, or `"any"`), the time control
/// (`"live"` by default) and after how many seconds computers may fill the empty seats
/// (`null`: never).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinPool {
    #[serde(default)]
    pub players: Players,
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    #[serde(default = "default_fill")]
    pub computers_after: Option<u32>,
}

fn default_fill() -> Option<u32> {
    Some(FILL_AFTER_S)
}

/// How many players a person wants at the table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Players {
    /// Any number the game allows.
    #[default]
    Any,
    Exactly(usize),
}

impl<'de> Deserialize<'de> for Players {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Players, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(usize),
            Name(String),
        }
        match Raw::deserialize(d)? {
            Raw::Number(n) => Ok(Players::Exactly(n)),
            Raw::Name(s) if s == "any" => Ok(Players::Any),
            Raw::Name(s) => Err(serde::de::Error::custom(format!(
                "players is a number or \"any\", not {s:?}"
            ))),
        }
    }
}

/// What a player in the pool is told.
#[derive(Debug, Serialize)]
pub struct PoolState {
    pub kind: String,
    /// Waiting: since when (milliseconds since the Unix epoch), for how many players (0: any).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Waiting>,
    /// Seated: the game and the seat (its token is the one the join gave).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seated: Option<SeatedIn>,
    /// How many wait for this game now (the asker among them).
    pub in_pool: i64,
    /// The server's time now, milliseconds since the Unix epoch.
    pub now: i64,
}

#[derive(Debug, Serialize)]
pub struct Waiting {
    pub since: i64,
    pub players: usize,
    pub clock: Option<TimeControl>,
    /// When computers fill the empty seats, if they may.
    pub computers_at: Option<i64>,
    pub rating: i64,
}

#[derive(Debug, Serialize)]
pub struct SeatedIn {
    pub game: String,
    pub seat: usize,
}

/// What joining answers: the pool's state, and the token of the seat the player will get.
#[derive(Debug, Serialize)]
pub struct Joined {
    #[serde(flatten)]
    pub state: PoolState,
    pub token: String,
}

/// The game of `kind`, or not found.
fn game_of<'a>(
    app: &'a AppState,
    kind: &str,
) -> Result<&'a std::sync::Arc<dyn crate::state::Registered>, ApiError> {
    app.kind(kind)
        .map_err(|_| ApiError::NotFound(format!("there is no game called {kind:?}")))
}

/// Puts the holder of `token` (a player of the site) in the pool of game `kind`.
pub async fn join(
    app: &AppState,
    kind: &str,
    token: Option<&str>,
    network: Option<Network>,
    asked: JoinPool,
) -> Result<Joined, ApiError> {
    let registered = game_of(app, kind)?;
    let rules = registered.pool_rules().ok_or_else(|| {
        ApiError::BadRequest(format!(
            "nobody waits for strangers in {}: it has no clock",
            registered.name()
        ))
    })?;
    let player = crate::challenges::player_of(app, token)
        .await?
        .ok_or_else(|| {
            ApiError::Forbidden(
                "the pool seats players of the site: make yourself a player (POST /api/players) and send its token".into(),
            )
        })?;
    let seats = match asked.players {
        Players::Any => 0,
        Players::Exactly(n) if (rules.seats.0.max(2)..=rules.seats.1).contains(&n) => n,
        Players::Exactly(n) => {
            return Err(ApiError::BadRequest(format!(
                "a game of {} with strangers has {} to {} players, not {n}",
                registered.name(),
                rules.seats.0.max(2),
                rules.seats.1
            )));
        }
    };
    let asked_clock = asked.clock.unwrap_or(ClockRequest::Named("live".into()));
    let clock = TimeControl::of(&asked_clock, rules.live_seconds)?;
    if asked.computers_after.is_some_and(|s| s > MOST_FILL_AFTER_S) {
        return Err(ApiError::BadRequest(format!(
            "computers may fill the empty seats after at most {MOST_FILL_AFTER_S} seconds (null: never)"
        )));
    }
    let rating = app
        .storage
        .ratings_in(kind, vec![player.id.clone()])
        .await?
        .get(&player.id)
        .map_or(crate::ratings::SHOWN_AT as i64, |r| {
            crate::ratings::Shown::of(*r).rating
        });
    let (seat_token, hash) = crate::table::mint_token()?;
    let now = app.clock.now_ms();
    let entry = PoolEntry {
        ticket: crate::ids::new_game_id()?,
        kind: kind.to_owned(),
        player: player.id.clone(),
        name: player.name.clone(),
        addr: (network.filter(|_| app.rank_per_address))
            .map(|n| n.keyed_hash(app.storage.secret())),
        rating,
        seats,
        clock: clock.key(),
        fill_after: asked.computers_after.map(|s| i64::from(s) * 1000),
        token_hash: hash,
        joined: now,
        seen: now,
        seated: None,
    };
    match app.storage.pool_join(entry).await {
        Ok(()) => {}
        Err(StorageError::Duplicate(_)) => {
            return Err(ApiError::Conflict(
                "you are waiting in the pool already: leave it first (DELETE /api/pool/{kind})"
                    .into(),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(kind, player = %player.id, "joined the pool");
    match_kind(app, kind).await;
    let state = state_of(app, kind, &player.id).await?;
    Ok(Joined {
        state,
        token: seat_token,
    })
}

/// Where the holder of `token` stands in the pool of game `kind`: waiting, or seated.
pub async fn status(
    app: &AppState,
    kind: &str,
    token: Option<&str>,
) -> Result<PoolState, ApiError> {
    game_of(app, kind)?;
    let player = crate::challenges::player_of(app, token)
        .await?
        .ok_or(ApiError::MissingToken)?;
    state_of(app, kind, &player.id).await
}

async fn state_of(app: &AppState, kind: &str, player: &str) -> Result<PoolState, ApiError> {
    let entry = app.storage.pool_entry(player).await?;
    let entry = entry.filter(|e| e.kind == kind).ok_or_else(|| {
        ApiError::NotFound(format!(
            "you are not in the pool of {kind}: join it with POST /api/pool/{kind}"
        ))
    })?;
    let now = app.clock.now_ms();
    if entry.seated.is_none() && now - entry.seen > SEEN_EVERY_MS {
        app.storage.pool_seen(&entry.ticket, now).await?;
    }
    let in_pool = (app.storage.pool_counts().await?.into_iter())
        .find(|(k, _)| k == kind)
        .map_or(0, |(_, n)| n);
    Ok(PoolState {
        kind: kind.to_owned(),
        waiting: entry.seated.is_none().then(|| Waiting {
            since: entry.joined,
            players: entry.seats,
            clock: TimeControl::from_key(&entry.clock),
            computers_at: entry.fill_after.map(|f| entry.joined + f),
            rating: entry.rating,
        }),
        seated: (entry.seated).map(|(game, seat)| SeatedIn { game, seat }),
        in_pool,
        now,
    })
}

/// Takes the holder of `token` out of the pool (a seat already given stays theirs).
pub async fn leave(app: &AppState, kind: &str, token: Option<&str>) -> Result<(), ApiError> {
    game_of(app, kind)?;
    let player = crate::challenges::player_of(app, token)
        .await?
        .ok_or(ApiError::MissingToken)?;
    app.storage.pool_leave(&player.id).await?;
    Ok(())
}

/// How many wait in each game's pool.
pub async fn counts(
    app: &AppState,
) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
    let counts = app.storage.pool_counts().await?;
    Ok((app.kinds.iter())
        .filter(|k| k.pool_rules().is_some())
        .map(|k| {
            let n = counts
                .iter()
                .find(|(kind, _)| kind == k.kind())
                .map_or(0, |c| c.1);
            (k.kind().to_owned(), n.into())
        })
        .collect())
}

/// Every second, until `stop`: the pools of every game are matched (the windows widen, the
/// computers' waits end), and those who stopped asking leave.
pub async fn run(app: AppState, mut stop: tokio::sync::watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.changed() => return,
        }
        let now = app.clock.now_ms();
        if let Err(e) = app
            .storage
            .pool_sweep(now - UNSEEN_MS, now - SEATED_KEPT_MS)
            .await
        {
            tracing::warn!(error = %e, "cannot sweep the pool");
        }
        let kinds = match app.storage.pool_counts().await {
            Ok(counts) => counts,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the pool");
                continue;
            }
        };
        for (kind, _) in kinds {
            match_kind(&app, &kind).await;
        }
    }
}

/// Makes every game the pool of `kind` can make now (a game another process made first is
/// left to it).
pub async fn match_kind(app: &AppState, kind: &str) {
    let Ok(registered) = app.kind(kind) else {
        return;
    };
    let Some(rules) = registered.pool_rules() else {
        return;
    };
    let waiting = match app.storage.pool_waiting(kind).await {
        Ok(w) => w,
        Err(e) => {
            tracing::warn!(kind, error = %e, "cannot read the pool");
            return;
        }
    };
    let now = app.clock.now_ms();
    for table in tables(&waiting, rules.seats, now) {
        let people: Vec<&PoolEntry> = table.people.iter().map(|&i| &waiting[i]).collect();
        let Some(clock) = TimeControl::from_key(&people[0].clock) else {
            continue;
        };
        let persons = (people.iter())
            .map(|p| PoolPerson {
                name: p.name.clone(),
                token_hash: p.token_hash.clone(),
                player: p.player.clone(),
            })
            .collect();
        let pool: Vec<PoolSeat> = (people.iter().enumerate())
            .map(|(seat, p)| PoolSeat {
                ticket: p.ticket.clone(),
                seat,
            })
            .collect();
        let rated = table.computers == 0;
        match registered
            .start_pool(app, persons, table.computers, clock, rated, pool)
            .await
        {
            Ok(game) => {
                tracing::info!(kind, %game, people = people.len(), computers = table.computers, "the pool made a game");
            }
            Err(ApiError::Stale) => {
                tracing::debug!(kind, "another process seated someone of this table first");
            }
            Err(e) => tracing::warn!(kind, error = %e, "the pool cannot make a game"),
        }
    }
}

/// A table the pool makes: the entries seated (by index, the longest waiting first) and how
/// many computers fill it.
#[derive(Debug, PartialEq, Eq)]
pub struct PoolTable {
    pub people: Vec<usize>,
    pub computers: usize,
}

/// How far from its rating an entry that has waited `waited_ms` meets others.
fn window(waited_ms: i64) -> i64 {
    WINDOW + WIDENING_PER_S * waited_ms.max(0) / 1000
}

/// The tables the pool makes of `waiting` (the longest waiting first) at `now`, for a game of
/// `seats` seats: each of the longest waiting in turn with the others nearest its rating that
/// fit (the same clock, a table size both accept, both ratings within the wider of their two
/// windows, never two of one network), else, once its own wait for computers is over, with
/// computers in the seats nobody took.
pub fn tables(waiting: &[PoolEntry], seats: (usize, usize), now: i64) -> Vec<PoolTable> {
    let mut used = vec![false; waiting.len()];
    let mut made = Vec::new();
    for (i, e) in waiting.iter().enumerate() {
        if used[i] {
            continue;
        }
        let fits = |j: usize, chosen: &[usize], size: usize| {
            let o = &waiting[j];
            !used[j]
                && !chosen.contains(&j)
                && o.clock == e.clock
                && (o.seats == 0 || o.seats == size)
                && (o.rating - e.rating).abs() <= window(now - o.joined).max(window(now - e.joined))
                && chosen.iter().all(|&c| {
                    let c = &waiting[c];
                    c.addr.is_none() || o.addr.is_none() || c.addr != o.addr
                })
        };
        let mut others: Vec<usize> = (0..waiting.len()).filter(|&j| j != i).collect();
        others.sort_by_key(|&j| ((waiting[j].rating - e.rating).abs(), waiting[j].joined));
        // The size: the entry's own, else the nearest one's who names one, else two.
        let size = match e.seats {
            0 => (others.iter())
                .find(|&&j| waiting[j].seats != 0 && fits(j, &[i], waiting[j].seats))
                .map_or(2, |&j| waiting[j].seats),
            n => n,
        }
        .clamp(seats.0.max(2), seats.1);
        let mut chosen = vec![i];
        for &j in &others {
            if chosen.len() == size {
                break;
            }
            if fits(j, &chosen, size) {
                chosen.push(j);
            }
        }
        let filled = e.fill_after.is_some_and(|f| now - e.joined >= f);
        if chosen.len() == size || filled {
            let computers = size - chosen.len();
            for &c in &chosen {
                used[c] = true;
            }
            chosen.sort_unstable();
            made.push(PoolTable {
                people: chosen,
                computers,
            });
        }
    }
    made
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: usize, rating: i64, seats: usize, joined: i64) -> PoolEntry {
        PoolEntry {
            ticket: format!("t{n}"),
            kind: "metro".into(),
            player: format!("p{n}"),
            name: format!("P{n}"),
            addr: Some(format!("net{n}")),
            rating,
            seats,
            clock: "live:30".into(),
            fill_after: Some(30_000),
            token_hash: format!("h{n}"),
            joined,
            seen: joined,
            seated: None,
        }
    }

    #[test]
    fn two_near_ratings_meet_and_a_far_one_waits_until_the_window_reaches_it() {
        let w = [
            entry(0, 1500, 2, 0),
            entry(1, 1550, 2, 0),
            entry(2, 2100, 2, 0),
        ];
        assert_eq!(
            tables(&w, (2, 6), 1000),
            [PoolTable {
                people: vec![0, 1],
                computers: 0
            }]
        );
        // Alone with a far one: they meet once a window is wide enough (600 points: 100 s).
        let w = [entry(0, 1500, 2, 0), entry(2, 2100, 2, 0)];
        assert!(tables(&w, (2, 6), 1000).is_empty());
        let mut no_fill = w.clone();
        for e in &mut no_fill {
            e.fill_after = None;
        }
        assert!(tables(&no_fill, (2, 6), 50_000).is_empty());
        assert_eq!(tables(&no_fill, (2, 6), 100_000)[0].people, [0, 1]);
    }

    #[test]
    fn one_network_never_sits_twice_at_a_table() {
        let mut w = [entry(0, 1500, 2, 0), entry(1, 1500, 2, 0)];
        w[1].addr = w[0].addr.clone();
        for e in &mut w {
            e.fill_after = None;
        }
        assert!(tables(&w, (2, 6), 1000).is_empty());
    }

    #[test]
    fn a_third_waits_for_the_next_table_and_any_takes_a_named_size() {
        let w = [
            entry(0, 1500, 2, 0),
            entry(1, 1500, 0, 1),
            entry(2, 1500, 2, 2),
        ];
        let t = tables(&w, (2, 6), 5000);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].people.len(), 2);
        let w = [
            entry(0, 1500, 3, 0),
            entry(1, 1500, 0, 1),
            entry(2, 1500, 0, 2),
        ];
        assert_eq!(tables(&w, (2, 6), 5000)[0].people, [0, 1, 2]);
        // Different clocks never meet.
        let mut w = [entry(0, 1500, 2, 0), entry(1, 1500, 2, 0)];
        w[1].clock = "days:1".into();
        w[0].fill_after = None;
        w[1].fill_after = None;
        assert!(tables(&w, (2, 6), 5000).is_empty());
    }

    #[test]
    fn after_the_wait_computers_fill_the_empty_seats() {
        let w = [entry(0, 1500, 4, 0)];
        assert!(tables(&w, (2, 6), 29_999).is_empty());
        assert_eq!(
            tables(&w, (2, 6), 30_000),
            [PoolTable {
                people: vec![0],
                computers: 3
            }]
        );
    }
}
