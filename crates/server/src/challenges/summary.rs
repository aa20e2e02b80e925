//! What the pages see of challenges: a challenge's summary with the asker's attempt and
//! streak, the current challenges, the closed ones page by page.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::SerializeMap;

use crate::challenge_kind::is_friend;
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::seed::Seed;
use crate::state::AppState;
use store::GameKind;
use store::challenges::{ChallengeStats, PlayerRow};

use super::making::ensure_current;
use super::{challenge_ref, is_closed, player_of, seed_public, setup_of};

/// A challenge in a list or at the head of its leaderboard.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub id: String,
    pub kind: String,
    /// The variant of the game it is played in (a setup its game declared: see
    /// [`crate::challenge_kind::ChallengeKind::setups`]); absent for the game itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
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
pub(super) const UNRANKED: &str = "unranked: another entry from this network";

/// A challenge as the asker sees it: its seed and first game only when `sees_games` (the
/// asker may see its games) and the challenge is over for them.
pub(super) fn summary(
    app: &AppState,
    stats: &ChallengeStats,
    now: i64,
    you: Option<You>,
    sees_games: bool,
) -> Summary {
    let c = &stats.challenge;
    let cref = challenge_ref(c);
    let friend = is_friend(&c.kind);
    Summary {
        id: c.id.clone(),
        kind: c.kind.clone(),
        variant: setup_of(app, c),
        game: c.game.to_string(),
        period: c.period.clone(),
        opens: rfc3339(c.opens),
        closes: c.closes.map(rfc3339),
        closed: is_closed(c.closes, now),
        players: stats.players,
        best: stats.best,
        computer: stats.computer.as_ref().map(|r| r.result.score),
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

/// The tie break as the page shows it: the number its game names (fewer errors, a larger
/// margin: see [`crate::game::TieBreakRule`]), as one field of that name; none when the entry
/// has none (or its game is not registered).
#[derive(Debug, Default)]
pub struct TieBreak(Option<(&'static str, i64)>);

impl Serialize for TieBreak {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(usize::from(self.0.is_some())))?;
        if let Some((name, value)) = self.0 {
            map.serialize_entry(name, &value)?;
        }
        map.end()
    }
}

impl TieBreak {
    /// From the stored `k2` (higher is better), as the game `kind` of the challenge breaks its
    /// ties.
    pub(super) fn of(app: &AppState, kind: &GameKind, k2: Option<i64>) -> TieBreak {
        let rule = app.kind(kind.as_str()).map(|k| k.tie_break());
        TieBreak(match (rule, k2) {
            (Ok(rule), Some(k2)) => Some((rule.name, rule.shown(k2))),
            _ => None,
        })
    }
}

pub(super) async fn you(
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

/// A streak of periodic challenges of one kind as a player's page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct StreakView {
    /// The game whose challenges these are.
    pub game: &'static str,
    /// Consecutive periods (days, for a daily) with a finished challenge, up to `last`; 0
    /// once a period has passed without one (a streak is current until the end of the period
    /// after its last one).
    pub current: i64,
    pub longest: i64,
    /// The last period played (`2026-11-27`).
    pub last: Option<String>,
}

/// The streaks of a player as of `now` (milliseconds since the Unix epoch): one for each kind
/// of challenge declared to count toward one.
pub async fn streaks(
    app: &AppState,
    player: &str,
    now: i64,
) -> Result<BTreeMap<String, StreakView>, ApiError> {
    let kinds: Vec<_> = app
        .challenge_kinds()
        .into_iter()
        .filter(|(_, k)| k.streak)
        .collect();
    let names: Vec<&str> = kinds.iter().map(|(_, k)| k.kind).collect();
    let stored = app.storage.streaks(player, &names).await?;
    Ok(kinds
        .iter()
        .zip(stored)
        .map(|((game, kind), (name, s))| {
            let current = kind.period.name_at(now);
            let previous = kind.period.previous(&current);
            let alive = s
                .last
                .as_deref()
                .is_some_and(|last| last == current || Some(last) == previous.as_deref());
            let view = StreakView {
                game,
                current: if alive { s.current } else { 0 },
                longest: s.longest,
                last: s.last,
            };
            (name, view)
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
        let mut s = summary(app, &stats, now, you, done);
        s.streak = streaks.get(&s.kind).cloned();
        challenges.push(s);
    }
    Ok(Current {
        now: rfc3339(now),
        challenges,
    })
}

/// `GET /api/challenges`: closed periodic challenges, newest first.
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
        challenges: rows
            .iter()
            .map(|s| summary(app, s, now, None, true))
            .collect(),
    })
}
