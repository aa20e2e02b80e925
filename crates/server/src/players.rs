//! Players: a name and a secret token, with no password. A player's seats (in games created
//! or joined with the player's token, and in challenges) make the player's page.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::challenges;
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::ids;
use crate::names;
use crate::replay::GameResult;
use crate::state::AppState;
use crate::storage::StorageError;
use crate::storage::challenges::PlayerRow;

/// `POST /api/players`'s answer: the token is shown this once.
#[derive(Debug, Serialize)]
pub struct Made {
    pub id: String,
    pub token: String,
    pub name: String,
}

/// Makes a player. A name is needed, as a seat's name (at most 32 characters, nothing
/// invisible), that no other player has (whatever its case or width: see [`names::key`]) and
/// that is not the computers'.
pub async fn create(app: &AppState, name: Option<&str>) -> Result<Made, ApiError> {
    let name = names::person_name(name, String::new)?;
    if name.is_empty() {
        return Err(ApiError::BadRequest(
            "a player needs a name: send {\"name\":\"Ann\"}".into(),
        ));
    }
    let id = ids::new_game_id()?;
    let token = ids::new_token()?;
    let stored = app
        .storage
        .create_player(PlayerRow {
            id: id.clone(),
            name: name.clone(),
            token_hash: ids::hash_token(&token),
            created: app.clock.now_ms(),
            name_key: Some(names::key(&name)),
        })
        .await;
    match stored {
        Ok(()) => {}
        Err(StorageError::Duplicate(_)) => {
            return Err(ApiError::Conflict(format!(
                "another player is called {name:?}: choose another name"
            )));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(player = %id, "player created");
    Ok(Made { id, token, name })
}

/// One game's figures on a player's page.
#[derive(Debug, Default, Serialize)]
pub struct Figures {
    /// Games sat in (finished or not).
    pub games: usize,
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
    pub games: usize,
    pub challenges: usize,
    /// Each game's figures, by kind (`ink`, `metro`): every game the server plays has one.
    #[serde(flatten)]
    pub figures: BTreeMap<String, Figures>,
    /// Oldest first.
    pub scores: Vec<Point>,
    /// The player's streak of each daily challenge (`daily`, `metro-daily`).
    pub streaks: BTreeMap<String, challenges::StreakView>,
}

pub async fn profile(app: &AppState, id: &str) -> Result<Profile, ApiError> {
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
    for g in &games {
        let kind = g.kind.to_string();
        let f = figures.entry(kind.clone()).or_default();
        f.games += 1;
        let Some((at, result)) = &g.finished else {
            continue;
        };
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
        challenges,
        figures,
        scores,
        streaks: challenges::streaks(app, id, app.clock.now_ms()).await?,
    })
}
