//! Ratings, one per player and game (an expansion plays as its game), by the site's rules:
//! Weng-Lin's Bayesian rating for free-for-all games (`skillratings`), a mean and an
//! uncertainty that starts wide and narrows as a player plays ("provisional" until it is
//! settled). What changes a rating:
//!
//! - a rated game (chosen when an online game is made) between people who are all players of
//!   the site, two or more of them: every seat against every other ([`GAME`]), counted in the
//!   transaction that stores the game's finish;
//! - a daily challenge, once it has closed: a free-for-all among its ranked entries, each
//!   against the entries placed just above and below it, all from their ratings before the
//!   day (Weng and Lin's partial pairs: [`FIELD`], linear in the entries).
//!
//! A practice game, a friend challenge, a game against computers only and an unranked entry
//! change none. Storage keeps what was rated, so that `tracklayer ratings rebuild` makes every
//! rating again from the stored results alone ([`store::Storage::rebuild_ratings`]).

use serde::Serialize;
use skillratings::weng_lin::{
    WengLinConfig, WengLinRating, weng_lin_multi_team, weng_lin_rating_period,
};
use skillratings::{MultiTeamOutcome, Outcomes};
use store::ratings::{PlayerRating, Rate, Rating};

/// Rates every daily challenge that has closed and was not rated yet (when the server starts,
/// then each minute; once across processes): how many were rated now.
pub async fn rate_closed_dailies(
    app: &crate::state::AppState,
) -> Result<usize, crate::error::ApiError> {
    let dailies: Vec<&str> = (app.challenge_kinds().into_iter())
        .filter(|(_, c)| c.period == crate::challenge_kind::Period::Day)
        .map(|(_, c)| c.kind)
        .collect();
    let now = app.clock.now_ms();
    Ok(app
        .storage
        .rate_closed_challenges(&dailies, now, FIELD)
        .await?)
}

/// Makes every rating again from the stored results alone (`tracklayer ratings rebuild`): how
/// many games and challenges were rated.
pub fn rebuild_blocking(database: &store::Database) -> Result<usize, store::StorageError> {
    store::block_on(async {
        let storage = store::Storage::connect(database).await?;
        storage.rebuild_ratings(GAME, FIELD).await
    })
}

/// A rated game: every seat against every other.
pub const GAME: Rate = Rate(game);
/// A field of many (a daily's ranked entries): each against its neighbours in the ranking.
pub const FIELD: Rate = Rate(field);

/// Storage keeps millionths.
const SCALE: f64 = 1_000_000.0;
/// A rating shown: 1500 at the start, 60 points a unit of Weng-Lin's mean.
pub(crate) const SHOWN_AT: f64 = 1500.0;
const SHOWN_PER: f64 = 60.0;
/// Settled once the uncertainty (shown) is at most this: 150 points (it starts at 500).
const SETTLED: f64 = 150.0;

fn wl(r: Option<Rating>) -> WengLinRating {
    r.map_or_else(WengLinRating::new, |r| WengLinRating {
        rating: r.mu as f64 / SCALE,
        uncertainty: r.sigma as f64 / SCALE,
    })
}

fn kept(r: WengLinRating) -> Rating {
    Rating {
        mu: (r.rating * SCALE).round() as i64,
        sigma: (r.uncertainty * SCALE).round() as i64,
    }
}

/// Weng-Lin's free-for-all: each player a team of one, ranked by place (equal places tie).
fn game(before: &[Option<Rating>], places: &[i64]) -> Vec<Rating> {
    let teams: Vec<[WengLinRating; 1]> = before.iter().map(|&r| [wl(r)]).collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = (teams.iter().zip(places))
        .map(|(team, &place)| {
            let rank = usize::try_from(place).unwrap_or(0) + 1;
            (&team[..], MultiTeamOutcome::new(rank))
        })
        .collect();
    (weng_lin_multi_team(&ranked, &WengLinConfig::new()).into_iter())
        .map(|team| kept(team[0]))
        .collect()
}

/// Each player (in ranking order) against the one placed just above and the one just below,
/// every rating from before: a rating period of at most two results each.
fn field(before: &[Option<Rating>], places: &[i64]) -> Vec<Rating> {
    let config = WengLinConfig::new();
    let now: Vec<WengLinRating> = before.iter().map(|&r| wl(r)).collect();
    (0..now.len())
        .map(|i| {
            let neighbours = [i.checked_sub(1), Some(i + 1)];
            let results: Vec<(WengLinRating, Outcomes)> = (neighbours.into_iter().flatten())
                .filter_map(|j| {
                    let other = *now.get(j)?;
                    let outcome = match places[i].cmp(&places[j]) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    Some((other, outcome))
                })
                .collect();
            kept(weng_lin_rating_period(&now[i], &results, &config))
        })
        .collect()
}

/// A rating as people see it: points (1500 at the start) and how far off it may be.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    pub rating: i64,
    /// The uncertainty, in points (500 at the start).
    pub deviation: i64,
    /// Not settled yet: shown with a `?`.
    pub provisional: bool,
}

impl Shown {
    pub fn of(r: Rating) -> Shown {
        let mu = r.mu as f64 / SCALE;
        let deviation = r.sigma as f64 / SCALE * SHOWN_PER;
        Shown {
            rating: (SHOWN_AT + (mu - 25.0) * SHOWN_PER).round() as i64,
            deviation: deviation.round() as i64,
            provisional: deviation > SETTLED,
        }
    }
}

/// A player's rating in a game, with its history, as their page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct RatingView {
    /// The game's kind.
    pub game: String,
    #[serde(flatten)]
    pub now: Shown,
    /// The rated games and daily challenges it counts.
    pub games: i64,
    /// Each change, oldest first: when (milliseconds since the Unix epoch) and the rating after.
    pub history: Vec<(i64, i64)>,
}

impl From<PlayerRating> for RatingView {
    fn from(r: PlayerRating) -> RatingView {
        RatingView {
            game: r.game,
            now: Shown::of(r.rating),
            games: r.games,
            history: (r.history.into_iter())
                .map(|(at, r)| (at, Shown::of(r).rating))
                .collect(),
        }
    }
}

/// The places of seats with these results (`(score, tie break)`, higher better): how many
/// seats did better (equal results share a place).
pub fn places(results: &[(i64, i64)]) -> Vec<i64> {
    (results.iter())
        .map(|r| results.iter().filter(|o| *o > r).count() as i64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_winner_gains_what_a_loser_loses_and_both_grow_surer() {
        let after = game(&[None, None], &[0, 1]);
        let start = kept(WengLinRating::new());
        assert!(after[0].mu > start.mu && after[1].mu < start.mu);
        assert_eq!(after[0].mu - start.mu, start.mu - after[1].mu);
        assert!(after.iter().all(|r| r.sigma < start.sigma));
        // A tie moves equal ratings nowhere.
        let tie = game(&[None, None], &[0, 0]);
        assert_eq!(tie[0].mu, start.mu);
    }

    #[test]
    fn a_field_is_rated_by_neighbours_in_order() {
        let after = field(&[None, None, None, None], &[0, 1, 1, 3]);
        let start = kept(WengLinRating::new()).mu;
        assert!(after[0].mu > start);
        assert!(after[3].mu < start);
        // The two who tied each beat one neighbour... or lost to one, and drew the other.
        assert!(after[1].mu < after[0].mu && after[2].mu > after[3].mu);
        assert_eq!(field(&[], &[]), Vec::new());
    }

    #[test]
    fn places_share_equal_results() {
        assert_eq!(places(&[(10, 0), (12, -1), (10, 0), (3, 5)]), [1, 0, 1, 3]);
    }

    #[test]
    fn a_new_rating_is_shown_as_1500_and_provisional() {
        let s = Shown::of(kept(WengLinRating::new()));
        assert_eq!((s.rating, s.deviation, s.provisional), (1500, 500, true));
    }
}
