//! A challenge's leaderboard: the best entries, the rows around a player, the computer's
//! row, the histogram of scores, entries ranked apart, and who is still playing.

use serde::Serialize;

use crate::challenge_kind::is_friend;
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::state::AppState;
use store::challenges::EntryRow;

use super::making::load;
use super::summary::{Summary, TieBreak, streaks, summary, you};
use super::{MAX_LIMIT, is_closed, player_of};

/// Rows shown either side of a player in "around me".
const AROUND: usize = 5;

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
    /// The player's rating in the challenge's game, if they have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::ratings::Shown>,
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
    let top = app.storage.top_entries(&c.id, limit).await?;
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
            (rows.into_iter().enumerate())
                .map(|(i, r)| (rank + i - at, r))
                .collect()
        }
        None => Vec::new(),
    };
    let unranked = app.storage.unranked_entries(&c.id, MAX_LIMIT).await?;
    let players: std::collections::BTreeSet<String> = (top.iter())
        .chain(around.iter().map(|(_, e)| e))
        .chain(unranked.iter())
        .filter_map(|e| e.player.clone())
        .collect();
    let ratings = (app.storage)
        .ratings_in(c.game.as_str(), players.into_iter().collect())
        .await?;
    let row = |rank: usize, e: EntryRow| -> Entry {
        let tie = TieBreak::of(app, &c.game, e.k2);
        let rating = (e.player.as_ref())
            .and_then(|p| ratings.get(p))
            .map(|&r| crate::ratings::Shown::of(r));
        Entry {
            rating,
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
    let entries: Vec<Entry> = (top.into_iter().enumerate())
        .map(|(i, e)| row(i + 1, e))
        .collect();
    let around = around.into_iter().map(|(rank, e)| row(rank, e)).collect();
    let unranked = unranked.into_iter().map(|e| row(0, e)).collect();
    let histogram: Vec<Bucket> = app
        .storage
        .score_counts(&c.id)
        .await?
        .into_iter()
        .map(|(score, count)| Bucket { score, count })
        .collect();
    let computer = stats.computer.as_ref().map(|r| {
        let tie = TieBreak::of(app, &c.game, Some(r.result.k2));
        ComputerRow {
            name: app
                .kind(c.game.as_str())
                .map(|k| k.computer_name())
                .unwrap_or_else(|_| "Computer".into()),
            score: r.result.score,
            tie,
            game: see_boards.then(|| r.game.clone()),
        }
    });
    let you = match (&asker, &mine) {
        (Some(p), Some(_)) => you(app, &stats, p).await?,
        _ => None,
    };
    let still_playing = if is_friend(&c.kind) || closed {
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
    let mut summary = summary(app, &stats, now, you, see_boards);
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
