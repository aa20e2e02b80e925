//! Ratings, one per player and game: the current one, each change (a player's history, the
//! graph on their page) with what caused it, and each cause rated once (a rated game, in the
//! transaction that stores its finish; a daily challenge, once when it has closed). The
//! arithmetic is the site's: the server passes it in ([`Rate`]); storage keeps the numbers, in
//! millionths, so that a rebuild from the stored results alone comes out the same.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError};

/// The tables (both backends alike).
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL REFERENCES players(id),
    game   TEXT NOT NULL,
    mu     BIGINT NOT NULL,
    sigma  BIGINT NOT NULL,
    games  BIGINT NOT NULL,
    at     BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE TABLE IF NOT EXISTS rating_changes (
    player TEXT NOT NULL REFERENCES players(id),
    game   TEXT NOT NULL,
    source TEXT NOT NULL,
    at     BIGINT NOT NULL,
    mu     BIGINT NOT NULL,
    sigma  BIGINT NOT NULL,
    PRIMARY KEY (player, game, source)
);
CREATE TABLE IF NOT EXISTS rated (
    source TEXT PRIMARY KEY,
    game   TEXT NOT NULL,
    at     BIGINT NOT NULL,
    places TEXT
);
CREATE INDEX IF NOT EXISTS rated_in_order ON rated (at, source);
";

/// A rating: its mean and its uncertainty, in millionths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rating {
    pub mu: i64,
    pub sigma: i64,
}

/// The site's arithmetic: each player's rating after a game or a challenge, from each one's
/// rating before (`None`: not rated yet) and their places (0 first; equal places tie), in the
/// same order.
#[derive(Clone, Copy)]
pub struct Rate(pub fn(&[Option<Rating>], &[i64]) -> Vec<Rating>);

impl std::fmt::Debug for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rate")
    }
}

impl PartialEq for Rate {
    fn eq(&self, other: &Rate) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Rate {}

/// A rated game's result, as its finish is stored: the rating's game and each player's place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    pub game: String,
    /// Each player and their place (0 first; equal places tie).
    pub places: Vec<(String, i64)>,
    pub rate: Rate,
}

/// A player's rating in a game, as their page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRating {
    pub game: String,
    pub rating: Rating,
    /// How many rated games and challenges it counts.
    pub games: i64,
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    /// Each change, oldest first: when, and the rating after it.
    pub history: Vec<(i64, Rating)>,
}

/// A row of a key and a rating: `key, mu, sigma`.
fn keyed<K: crate::sql::FromValue>(mut r: crate::sql::Row) -> Result<(K, Rating), StorageError> {
    Ok((
        r.get(0)?,
        Rating {
            mu: r.get(1)?,
            sigma: r.get(2)?,
        },
    ))
}

/// Rates `source` (a game's id, a challenge's id) once: the players' ratings in `game` after
/// their `places`, by `rate`, at `at`. Rated before (by this process or another), nothing
/// changes. `keep_places` keeps them with it, for a rebuild (a challenge's are its ranked
/// entries, kept anyway).
async fn rate_source<S: Sql>(
    s: &mut S,
    source: &str,
    game: &str,
    at: i64,
    places: &[(String, i64)],
    keep_places: bool,
    rate: Rate,
) -> Result<(), StorageError> {
    let kept = keep_places.then(|| {
        (places.iter())
            .map(|(p, place)| format!("{p} {place}"))
            .collect::<Vec<_>>()
            .join(",")
    });
    let new = s
        .exec(
            "INSERT INTO rated (source, game, at, places) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (source) DO NOTHING",
            args![source, game, at, kept.as_deref()],
        )
        .await?;
    if new == 0 || places.len() < 2 {
        return Ok(());
    }
    apply(s, source, game, at, places, rate).await
}

/// The players' new ratings after `places`, written with their change.
async fn apply<S: Sql>(
    s: &mut S,
    source: &str,
    game: &str,
    at: i64,
    places: &[(String, i64)],
    rate: Rate,
) -> Result<(), StorageError> {
    let mut before = Vec::with_capacity(places.len());
    for (player, _) in places {
        let row = s
            .rows_as(
                "SELECT mu, sigma FROM ratings WHERE player = ?1 AND game = ?2",
                args![player, game],
                |mut r| {
                    Ok(Rating {
                        mu: r.get(0)?,
                        sigma: r.get(1)?,
                    })
                },
            )
            .await?;
        before.push(row.into_iter().next());
    }
    let order: Vec<i64> = places.iter().map(|&(_, place)| place).collect();
    let after = (rate.0)(&before, &order);
    for ((player, _), r) in places.iter().zip(after) {
        s.exec(
            "INSERT INTO ratings (player, game, mu, sigma, games, at) VALUES (?1, ?2, ?3, ?4, 1, ?5)
             ON CONFLICT (player, game) DO UPDATE SET
                 mu = ?3, sigma = ?4, games = ratings.games + 1, at = ?5",
            args![player, game, r.mu, r.sigma, at],
        )
        .await?;
        s.exec(
            "INSERT INTO rating_changes (player, game, source, at, mu, sigma)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![player, game, source, at, r.mu, r.sigma],
        )
        .await?;
    }
    Ok(())
}

/// A rated game's finish (in its transaction).
pub(crate) async fn rate_game<S: Sql>(
    s: &mut S,
    source: &str,
    at: i64,
    rated: &Rated,
) -> Result<(), StorageError> {
    rate_source(s, source, &rated.game, at, &rated.places, true, rated.rate).await
}

/// A closed challenge's ranked, finished entries as places (one a player: equal score and tie
/// break share a place), best first.
async fn challenge_places<S: Sql>(
    s: &mut S,
    challenge: &str,
) -> Result<Vec<(String, i64)>, StorageError> {
    let rows: Vec<(String, i64, i64)> = s
        .rows_as(
            "SELECT player, score, k2 FROM entries
             WHERE challenge = ?1 AND finished IS NOT NULL AND ranked = 1 AND player IS NOT NULL
             ORDER BY score DESC, k2 DESC, player",
            args![challenge],
            |mut r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .await?;
    let mut places = Vec::with_capacity(rows.len());
    let mut last = None;
    for (i, (player, score, k2)) in rows.into_iter().enumerate() {
        let place = match last {
            Some((sc, k, p)) if (sc, k) == (score, k2) => p,
            _ => i as i64,
        };
        last = Some((score, k2, place));
        places.push((player, place));
    }
    Ok(places)
}

/// Rates challenge `challenge` of `game`, closed at `at`, among its ranked entries (once).
pub(crate) async fn rate_challenge<S: Sql>(
    s: &mut S,
    challenge: &str,
    game: &str,
    at: i64,
    rate: Rate,
) -> Result<(), StorageError> {
    let places = challenge_places(s, challenge).await?;
    rate_source(s, challenge, game, at, &places, false, rate).await
}

/// Every rating made again from what was rated, in the order it was: the games' kept places
/// and the challenges' ranked entries, by `rate_game` and `rate_field`.
pub(crate) async fn rebuild<S: Sql>(
    s: &mut S,
    rate_game: Rate,
    rate_field: Rate,
) -> Result<(), StorageError> {
    s.exec("DELETE FROM rating_changes", &[]).await?;
    s.exec("DELETE FROM ratings", &[]).await?;
    let sources: Vec<(String, String, i64, Option<String>)> = s
        .rows_as(
            "SELECT source, game, at, places FROM rated ORDER BY at, source",
            &[],
            |mut r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .await?;
    for (source, game, at, kept) in &sources {
        let (places, rate) = match kept {
            Some(kept) => (read_places(kept)?, rate_game),
            None => (challenge_places(s, source).await?, rate_field),
        };
        if places.len() >= 2 {
            apply(s, source, game, *at, &places, rate).await?;
        }
    }
    Ok(())
}

/// Places as kept: `player place,player place`.
fn read_places(kept: &str) -> Result<Vec<(String, i64)>, StorageError> {
    (kept.split(',').filter(|p| !p.is_empty()))
        .map(|p| {
            let (player, place) = p
                .split_once(' ')
                .ok_or_else(|| StorageError::Corrupt(format!("rated places {kept:?}")))?;
            let place = place
                .parse()
                .map_err(|_| StorageError::Corrupt(format!("rated places {kept:?}")))?;
            Ok((player.to_owned(), place))
        })
        .collect()
}

impl Storage {
    /// The current ratings in `game` of those of `players` who have one.
    pub async fn ratings_in(
        &self,
        game: &str,
        players: Vec<String>,
    ) -> Result<std::collections::HashMap<String, Rating>, StorageError> {
        if players.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        let game = game.to_owned();
        crate::read!(self, |s| async move {
            let marks: Vec<String> = (2..players.len() + 2).map(|i| format!("?{i}")).collect();
            let mut args = vec![crate::sql::Arg::from(&game)];
            args.extend(players.iter().map(crate::sql::Arg::from));
            let rows = s
                .rows_as(
                    &format!(
                        "SELECT player, mu, sigma FROM ratings WHERE game = ?1 AND player IN ({})",
                        marks.join(", ")
                    ),
                    &args,
                    keyed,
                )
                .await?;
            Ok(rows.into_iter().collect())
        })
    }

    /// A player's ratings, each with its history, by game.
    pub async fn ratings(&self, player: &str) -> Result<Vec<PlayerRating>, StorageError> {
        let player = player.to_owned();
        crate::read!(self, |s| async move {
            let mut ratings = s
                .rows_as(
                    "SELECT game, mu, sigma, games, at FROM ratings WHERE player = ?1 ORDER BY game",
                    args![&player],
                    |mut r| {
                        Ok(PlayerRating {
                            game: r.get(0)?,
                            rating: Rating { mu: r.get(1)?, sigma: r.get(2)? },
                            games: r.get(3)?,
                            at: r.get(4)?,
                            history: Vec::new(),
                        })
                    },
                )
                .await?;
            for rating in &mut ratings {
                rating.history = s
                    .rows_as(
                        "SELECT at, mu, sigma FROM rating_changes WHERE player = ?1 AND game = ?2
                         ORDER BY at, source",
                        args![&player, &rating.game],
                        keyed,
                    )
                    .await?;
            }
            Ok(ratings)
        })
    }

    /// Rates each challenge of `kinds` closed by `now` and not rated yet, by `rate`, among its
    /// ranked entries: how many were rated now.
    pub async fn rate_closed_challenges(
        &self,
        kinds: &[&str],
        now: i64,
        rate: Rate,
    ) -> Result<usize, StorageError> {
        let kinds: Vec<String> = kinds.iter().map(|k| (*k).to_owned()).collect();
        let due: Vec<(String, String, i64)> = crate::read!(self, |s| async move {
            let mut due = Vec::new();
            for kind in &kinds {
                due.extend(
                    s.rows_as(
                        "SELECT id, game, closes FROM challenges
                         WHERE kind = ?1 AND closes IS NOT NULL AND closes <= ?2
                           AND id NOT IN (SELECT source FROM rated)
                         ORDER BY closes, id",
                        args![kind, now],
                        |mut r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                    )
                    .await?,
                );
            }
            Ok(due)
        })?;
        for (id, game, closes) in &due {
            self.write(crate::Write::Rate(id.clone(), game.clone(), *closes, rate))
                .await?;
        }
        Ok(due.len())
    }

    /// Every rating made again from the stored results alone (see [`rebuild`]): how many games
    /// and challenges were rated.
    pub async fn rebuild_ratings(
        &self,
        rate_game: Rate,
        rate_field: Rate,
    ) -> Result<usize, StorageError> {
        self.write(crate::Write::Rebuild(rate_game, rate_field))
            .await?;
        let counted: i64 = crate::read!(self, |s| async move {
            s.rows_as("SELECT count(*) FROM rated", &[], |mut r| r.get(0))
                .await
                .map(|n| n.into_iter().next().unwrap_or(0))
        })?;
        Ok(usize::try_from(counted).unwrap_or(0))
    }
}
