//! Players: a name and a secret token, with no password. A player's seats (in games created
//! or joined with the player's token, and in challenges) make the player's page.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::challenges;
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::identity;
use crate::ids;
use crate::replay::GameResult;
use crate::state::AppState;
use store::StorageError;
use store::challenges::PlayerRow;
use store::identity::How;
use store::names;

pub use crate::identity::Made;

/// Makes a player. A name is needed, as a seat's name (at most 32 characters, nothing
/// invisible), that no other player has (whatever its case or width, nor one that only looks
/// the same: see [`names::key`]) and that is not the computers'.
pub async fn create(app: &AppState, name: Option<&str>, device: String) -> Result<Made, ApiError> {
    let name = names::person_name(name, String::new)?;
    if name.is_empty() {
        return Err(ApiError::BadRequest(
            "a player needs a name: send {\"name\":\"Ann\"}".into(),
        ));
    }
    let id = ids::new_game_id()?;
    let (token, device) = identity::new_device(app, device, How::Created)?;
    let stored = app
        .storage
        .create_player(
            PlayerRow {
                id: id.clone(),
                name: name.clone(),
                token_hash: device.token_hash.clone(),
                created: device.at,
                name_key: Some(names::key(&name)),
            },
            device,
        )
        .await;
    match stored {
        Ok(()) => {}
        Err(StorageError::Duplicate(_)) => {
            return Err(ApiError::Conflict(format!(
                "another player is called {name:?}, or by a name that looks the same: choose another name"
            )));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(player = %id, "player created");
    Ok(Made { id, token, name })
}

/// Gives the device whose key `token` is a new key; the old one opens nothing from then on.
/// The player's other devices keep theirs, and the player's seats stay theirs: a seat's own
/// token is not the key, and a challenge seat's token is derived from the player's id (see
/// [`ids::challenge_seat_token`]).
pub async fn new_key(app: &AppState, token: &str) -> Result<Made, ApiError> {
    let (player, device) = identity::authenticate(app, Some(token)).await?;
    let token = ids::new_token()?;
    app.storage
        .replace_device_key(&device.id, ids::hash_token(&token))
        .await?;
    tracing::info!(player = %player.id, device = %device.id, "device key replaced");
    Ok(Made {
        id: player.id,
        token,
        name: player.name,
    })
}

/// One game's figures on a player's page.
#[derive(Debug, Default, Serialize)]
pub struct Figures {
    /// Games sat in, finished or not (a hot-seat game left half way is sat in, not played).
    pub games: usize,
    /// Games played: finished ones.
    pub played: usize,
    /// Over finished games.
    pub best: Option<i64>,
    pub mean: Option<f64>,
}

/// A finished game's score, for the chart over time.
#[derive(Debug, Serialize)]
pub struct Point {
    pub at: String,
    pub game: String,
    pub score: i64,
    pub challenge: Option<String>,
}

/// `GET /api/players/{id}`.
#[derive(Debug, Serialize)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub created: String,
    /// Games sat in, finished or not.
    pub games: usize,
    /// Games played: finished ones.
    pub played: usize,
    /// Challenges entered, finished or not.
    pub challenges: usize,
    /// Challenges played: their games finished.
    pub challenges_played: usize,
    /// Each game's figures, by kind (`ink`, `metro`): every game the server plays has one.
    #[serde(flatten)]
    pub figures: BTreeMap<String, Figures>,
    /// Oldest first.
    pub scores: Vec<Point>,
    /// The player's streak of each kind of challenge that counts toward one (see
    /// `crate::challenge_kind::ChallengeKind::streak`).
    pub streaks: BTreeMap<String, challenges::StreakView>,
    /// The best and mean score of each game and way of playing it.
    pub bests: Vec<BestView>,
    /// Each daily's games and the spread of their ranks.
    pub dailies: BTreeMap<String, Dailies>,
    /// The player's rating in each game they were rated in, with its history.
    pub ratings: Vec<crate::ratings::RatingView>,
}

/// A player's record in one game played one way.
#[derive(Debug, Serialize)]
pub struct BestView {
    /// `ink`, `metro`.
    pub game: String,
    /// The variant of the game (Railroad Ink's `lake`, `river`); absent for the game itself.
    /// Each variant keeps its own best.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// `solo`, `computer:strong` (against that computer), `online`, `challenge`, `practice`,
    /// Metro's `seats`.
    pub mode: String,
    pub games: i64,
    pub best: i64,
    /// The first game that scored the best: to the player, or to anyone once it is no
    /// secret (see [`profile`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_game: Option<String>,
    /// The best that game beat (none when it was the first): the game was a new best.
    pub previous: Option<i64>,
    pub mean: f64,
}

/// A player's dailies of one kind: how many they finished, and where their ranks fall.
#[derive(Debug, Serialize)]
pub struct Dailies {
    /// The game whose dailies these are.
    pub game: &'static str,
    pub played: i64,
    /// How many of the closed, ranked ones ended in each band of the leaderboard, the top
    /// first (`top 10%`, `10–25%`, `25–50%`, `50–75%`, `75–100%`); of the last
    /// [`RANKS_COUNTED`].
    pub ranks: Vec<RankBand>,
}

#[derive(Debug, Serialize)]
pub struct RankBand {
    pub band: &'static str,
    pub count: usize,
}

/// How many of a player's latest dailies of a kind the rank bands count.
pub const RANKS_COUNTED: usize = 100;

/// The bands of a leaderboard, by the share of entries ranked above: `(upper bound, name)`.
const BANDS: [(f64, &str); 5] = [
    (0.10, "top 10%"),
    (0.25, "10–25%"),
    (0.50, "25–50%"),
    (0.75, "50–75%"),
    (f64::INFINITY, "75–100%"),
];

/// The band of rank `rank` of `total`.
fn band(rank: usize, total: i64) -> usize {
    let above = rank.saturating_sub(1) as f64 / total.max(1) as f64;
    BANDS
        .iter()
        .position(|(upper, _)| above < *upper)
        .unwrap_or(BANDS.len() - 1)
}

/// A player's page; `owner` when the player asks for it (their own token): then it names every
/// game of their records, else only the games anyone may see (a game of an open challenge, or
/// of a friend challenge, is named to its own players only).
pub async fn profile(app: &AppState, id: &str, owner: bool) -> Result<Profile, ApiError> {
    let not_found = || ApiError::NotFound(format!("no player {id}"));
    if !ids::is_game_id(id) {
        return Err(not_found());
    }
    let player = app.storage.player(id).await?.ok_or_else(not_found)?;
    let (games, challenges) = app.storage.played_games(id).await?;
    let mut scores = Vec::new();
    let mut figures: BTreeMap<String, Figures> = app
        .kinds
        .iter()
        .map(|k| (k.kind().to_owned(), Figures::default()))
        .collect();
    let mut sums: BTreeMap<String, (i64, usize)> = BTreeMap::new();
    let (mut played, mut challenges_played) = (0, 0);
    for g in &games {
        let kind = g.kind.to_string();
        let f = figures.entry(kind.clone()).or_default();
        f.games += 1;
        let Some((at, result)) = &g.finished else {
            continue;
        };
        // A game counts as played once it is over.
        f.played += 1;
        played += 1;
        if g.challenge.is_some() {
            challenges_played += 1;
        }
        let Ok(result) = serde_json::from_str::<GameResult>(result) else {
            tracing::warn!(game = %g.game, "a stored result does not read");
            continue;
        };
        let Some(mine) = result.players.iter().find(|p| p.seat == g.seat) else {
            continue;
        };
        f.best = Some(f.best.map_or(mine.score, |b| b.max(mine.score)));
        let (sum, n) = sums.entry(kind.clone()).or_default();
        *sum += mine.score;
        *n += 1;
        scores.push(Point {
            at: rfc3339(*at),
            game: kind,
            score: mine.score,
            challenge: g.challenge.clone(),
        });
    }
    for (kind, (sum, n)) in sums {
        if let Some(f) = figures.get_mut(&kind) {
            f.mean = (n > 0).then(|| sum as f64 / n as f64);
        }
    }
    scores.sort_by(|a, b| a.at.cmp(&b.at));
    Ok(Profile {
        id: player.id,
        name: player.name,
        created: rfc3339(player.created),
        games: games.len(),
        played,
        challenges,
        challenges_played,
        figures,
        scores,
        streaks: challenges::streaks(app, id, app.clock.now_ms()).await?,
        bests: bests(app, id, owner).await?,
        dailies: dailies(app, id).await?,
        ratings: (app.storage.ratings(id).await?.into_iter())
            .map(Into::into)
            .collect(),
    })
}

async fn bests(app: &AppState, player: &str, owner: bool) -> Result<Vec<BestView>, ApiError> {
    let now = app.clock.now_ms();
    let mut out = Vec::new();
    for b in app.storage.bests(player).await? {
        let shown = owner
            || app
                .storage
                .game_challenge(&b.best_game)
                .await?
                .is_none_or(|c| challenges::seed_public(&c, now));
        let (game, variant) = match b.game.split_once(':') {
            Some((game, variant)) => (game.to_owned(), Some(variant.to_owned())),
            None => (b.game, None),
        };
        out.push(BestView {
            mean: b.sum as f64 / b.games.max(1) as f64,
            game,
            variant,
            mode: b.mode,
            games: b.games,
            best: b.best,
            best_game: shown.then_some(b.best_game),
            previous: b.previous,
        });
    }
    Ok(out)
}

async fn dailies(app: &AppState, player: &str) -> Result<BTreeMap<String, Dailies>, ApiError> {
    let now = app.clock.now_ms();
    let mut out = BTreeMap::new();
    let kinds = app.challenge_kinds();
    for &(game, kind) in kinds.iter().filter(|(_, k)| k.streak) {
        let kind = kind.kind;
        let (played, ranks) = app
            .storage
            .daily_ranks(player, kind, now, RANKS_COUNTED)
            .await?;
        let mut counts = [0usize; BANDS.len()];
        for (rank, total) in ranks {
            counts[band(rank, total)] += 1;
        }
        let ranks = BANDS
            .iter()
            .zip(counts)
            .map(|(&(_, band), count)| RankBand { band, count })
            .collect();
        out.insert(
            kind.to_owned(),
            Dailies {
                game,
                played,
                ranks,
            },
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_fall_in_bands_by_the_share_ranked_above() {
        assert_eq!(band(1, 1), 0, "alone is first");
        assert_eq!(band(1, 100), 0);
        assert_eq!(band(10, 100), 0);
        assert_eq!(band(11, 100), 1);
        assert_eq!(band(26, 100), 2);
        assert_eq!(band(51, 100), 3);
        assert_eq!(band(76, 100), 4);
        assert_eq!(band(100, 100), 4);
        assert_eq!(band(2, 2), 3, "second of two has half above");
        assert_eq!(band(3, 0), 4, "a total never below the rank is not trusted");
    }
}

/// How many games [`your_games`] lists at most.
const YOUR_GAMES: usize = 50;

/// `GET /api/players/me/games`: the token's player's unfinished games that others play too,
/// those where it is their turn first (the least time left first), then the others, newest
/// first; and how many wait for them.
pub async fn your_games(app: &AppState, token: &str) -> Result<YourGames, ApiError> {
    let player = crate::challenges::authenticate(app, Some(token)).await?;
    let listed = app.storage.waiting_games(&player.id, YOUR_GAMES).await?;
    let mut games = Vec::with_capacity(listed.len());
    for (id, kind, seat) in listed {
        let Ok(registered) = app.kind(kind.as_str()) else {
            continue;
        };
        match registered.your_game(app, &id, seat).await {
            Ok(game) => games.push(game),
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot read a player's game"),
        }
    }
    games.sort_by_key(|g| (!g.your_turn, g.due.unwrap_or(i64::MAX), -g.created));
    Ok(YourGames {
        waiting: games.iter().filter(|g| g.your_turn).count(),
        games,
        now: app.clock.now_ms(),
    })
}

/// A player's games (see [`your_games`]).
#[derive(Debug, Serialize)]
pub struct YourGames {
    /// How many wait for the player (their turn).
    pub waiting: usize,
    pub games: Vec<crate::turns::YourGame>,
    /// The server's time now, milliseconds since the Unix epoch.
    pub now: i64,
}
