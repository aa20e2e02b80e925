//! The computer's review of one seat's decisions in a finished game.
//!
//! At each decision the seat took with a choice to make (where to place a tile, or whether to
//! keep or draw instead), the review asks the `strong` player what it would have done with the
//! same view (the same tile or tiles in hand, nothing more), then values both actions alike:
//! the seat's expected final margin over the best other player, averaged over play-outs that
//! deal the tiles the seat could not see at random and play the rest of the game as the strong
//! player's search does. Both actions are valued on the same deals, so the difference between
//! them is measured far more closely than either value. The points lost are that difference,
//! never negative: when the action played is valued at least as high, it is the best one.
//!
//! Everything is seeded from the game, so a game's review is the same every time.

use std::fmt;

use thiserror::Error;

use super::Agent;
use super::sim::{FastRng, mix};
use super::strong::{Choice, Knowledge, Strong};
use crate::game::{Action, Game, GameError};
use crate::square::Player;
use crate::tile::Tile;

/// The strong player's play-outs for its own choice at each decision of a review.
pub const REVIEW_BUDGET: u32 = 4_000;

/// The deals on which each of the two actions of a decision is valued.
pub const REVIEW_DEALS: u32 = 1_000;

/// How bad a decision was, by the points of margin it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// The computer's own choice, or one valued at least as high.
    Best,
    /// Lost less than [`Label::GOOD`] points.
    Good,
    /// Lost less than [`Label::INACCURACY`] points.
    Inaccuracy,
    /// Lost less than [`Label::MISTAKE`] points.
    Mistake,
    /// Lost [`Label::MISTAKE`] points or more.
    Blunder,
}

impl Label {
    /// Below this loss (points of expected margin), a decision is good. Metro's scores run to
    /// the hundreds (the strong player makes about 200 in a two-player game), so a point or two
    /// of margin is noise-sized; a strong seat's own decisions lose 0.13 on average.
    pub const GOOD: f64 = 2.0;
    /// Below this loss, an inaccuracy.
    pub const INACCURACY: f64 = 5.0;
    /// Below this loss, a mistake; from it on, a blunder.
    pub const MISTAKE: f64 = 10.0;

    /// The label of a decision that lost `loss` points (0 for the best).
    pub fn of(loss: f64) -> Label {
        if loss <= 0.0 {
            Label::Best
        } else if loss < Label::GOOD {
            Label::Good
        } else if loss < Label::INACCURACY {
            Label::Inaccuracy
        } else if loss < Label::MISTAKE {
            Label::Mistake
        } else {
            Label::Blunder
        }
    }

    /// The label's word, as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One reviewed decision of the seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Its index in the game's actions (the game before it is the replay of those before).
    pub index: usize,
    /// Tiles on the board when it was taken.
    pub placed: usize,
    /// The tile the seat held in hand then, if any.
    pub hand: Option<Tile>,
    /// The tile it had just drawn, if any.
    pub drawn: Option<Tile>,
    /// What the seat did.
    pub played: Action,
    /// What the strong player would have done (the action played when that is valued at least
    /// as high).
    pub best: Action,
    /// The seat's expected final margin over the best other player after the action played.
    pub value_played: f64,
    /// The same after the best action.
    pub value_best: f64,
    /// Points of margin lost: `value_best - value_played`, never negative.
    pub loss: f64,
    /// How bad that is.
    pub label: Label,
}

/// The review of one seat's game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// The seat reviewed.
    pub seat: Player,
    /// Its decisions that had a choice, in order (a forced placement is left out).
    pub decisions: Vec<Decision>,
    /// The points lost over the whole game.
    pub loss: f64,
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReviewError {
    /// The game goes on: only a finished game is reviewed.
    #[error("the game is not over: only a finished game can be reviewed")]
    NotOver,
    /// No such seat in the game.
    #[error("there is no seat {seat} in a game of {players} players")]
    NoSeat {
        /// The seat asked for (1-based, as players are named).
        seat: usize,
        /// The game's players.
        players: u8,
    },
    /// The game's own actions did not replay (a record that does not add up).
    #[error("the game's action {index} does not replay: {error}")]
    Replay {
        /// Which action.
        index: usize,
        /// Why.
        error: GameError,
    },
}

/// How much work a review does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewConfig {
    /// The strong player's play-outs for its choice at each decision.
    pub budget: u32,
    /// The deals on which each action is valued.
    pub deals: u32,
}

impl Default for ReviewConfig {
    fn default() -> ReviewConfig {
        ReviewConfig {
            budget: REVIEW_BUDGET,
            deals: REVIEW_DEALS,
        }
    }
}

/// Reviews the decisions of `seat` in the finished `game`.
pub fn review(game: &Game, seat: Player, config: ReviewConfig) -> Result<Review, ReviewError> {
    if !game.is_over() {
        return Err(ReviewError::NotOver);
    }
    let players = game.players().get();
    if seat.index() >= usize::from(players) {
        return Err(ReviewError::NoSeat {
            seat: seat.index() + 1,
            players,
        });
    }
    let seed = mix(game.seed() ^ 0x005E_71E3_u64.wrapping_mul(seat.index() as u64 + 1));
    let strong = Strong::new(seed, config.budget);
    let mut replay = Game::new(game.config(), game.seed());
    let mut decisions = Vec::new();
    for (index, &played) in game.actions().iter().enumerate() {
        if replay.turn() == Some(seat)
            && let Some(decision) = decide(&replay, seat, index, played, &strong, config, seed)
        {
            decisions.push(decision);
        }
        replay
            .apply(played)
            .map_err(|error| ReviewError::Replay { index, error })?;
    }
    let loss = decisions.iter().map(|d| d.loss).sum();
    Ok(Review {
        seat,
        decisions,
        loss,
    })
}

/// The review of the seat's decision `played` on `game` (its turn), if it had a choice.
fn decide(
    game: &Game,
    seat: Player,
    index: usize,
    played: Action,
    strong: &Strong,
    config: ReviewConfig,
    seed: u64,
) -> Option<Decision> {
    let view = game.view(Some(seat));
    if strong.choices(&view).len() < 2 {
        return None;
    }
    let knowledge = Knowledge::new(&view)?;
    let best = strong.clone().act(&view);
    let deal_seed = mix(seed ^ index as u64);
    let value_played = value(strong, &knowledge, choice(played), config.deals, deal_seed);
    let (best, value_best) = if best == played {
        (played, value_played)
    } else {
        let value_best = value(strong, &knowledge, choice(best), config.deals, deal_seed);
        if value_best > value_played {
            (best, value_best)
        } else {
            (played, value_played)
        }
    };
    let loss = value_best - value_played;
    Some(Decision {
        index,
        placed: game.placements().len(),
        hand: view.hand,
        drawn: view.drawn,
        played,
        best,
        value_played,
        value_best,
        loss,
        label: Label::of(loss),
    })
}

fn choice(action: Action) -> Choice {
    match action {
        Action::Place(square) => Choice::Place(square),
        Action::Keep => Choice::Keep,
        Action::Draw => Choice::Draw,
    }
}

/// The seat's mean final margin over the best other player after `choice`, over `deals` deals
/// (the same deals for every choice valued with the same `seed`).
fn value(strong: &Strong, knowledge: &Knowledge, choice: Choice, deals: u32, seed: u64) -> f64 {
    let deals = deals.max(1);
    let total: f64 = (0..deals)
        .map(|d| {
            let deal_seed = mix(seed ^ u64::from(d));
            let world = knowledge.deal(&mut FastRng::new(deal_seed));
            let mut rng = FastRng::new(deal_seed ^ 0x5EED);
            let (mine, best_other) = strong.play_out_scores(knowledge, world, choice, &mut rng);
            mine - best_other
        })
        .sum();
    total / f64::from(deals)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{agent_by_name, play_game};
    use crate::game::Config;
    use crate::square::PlayerCount;

    const QUICK: ReviewConfig = ReviewConfig {
        budget: 400,
        deals: 150,
    };

    fn played(seed: u64, agents: [&str; 2]) -> Game {
        let mut game = Game::new(Config::new(PlayerCount::new(2).unwrap()), seed);
        let mut players: Vec<_> = agents
            .iter()
            .enumerate()
            .map(|(i, a)| agent_by_name(a, seed + i as u64, Some(300)).unwrap())
            .collect();
        play_game(&mut game, &mut players).unwrap();
        game
    }

    #[test]
    fn labels_follow_their_thresholds() {
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(0.5), Label::Good);
        assert_eq!(Label::of(Label::GOOD), Label::Inaccuracy);
        assert_eq!(Label::of(7.0), Label::Mistake);
        assert_eq!(Label::of(Label::MISTAKE), Label::Blunder);
        assert_eq!(Label::Blunder.to_string(), "blunder");
    }

    #[test]
    fn only_a_finished_game_and_a_real_seat_are_reviewed() {
        let game = Game::new(Config::new(PlayerCount::new(2).unwrap()), 1);
        assert_eq!(
            review(&game, Player::from_index(0).unwrap(), QUICK),
            Err(ReviewError::NotOver)
        );
        let game = played(3, ["greedy", "greedy"]);
        assert_eq!(
            review(&game, Player::from_index(2).unwrap(), QUICK),
            Err(ReviewError::NoSeat {
                seat: 3,
                players: 2
            })
        );
    }

    #[test]
    fn every_best_action_is_legal_where_it_was_taken_and_the_review_repeats() {
        let game = played(11, ["random", "greedy"]);
        let seat = Player::from_index(0).unwrap();
        let first = review(&game, seat, QUICK).unwrap();
        assert!(!first.decisions.is_empty());
        for d in &first.decisions {
            let mut before = Game::replay(game.config(), game.seed(), &game.actions()[..d.index])
                .expect("the game replays");
            assert_eq!(before.turn(), Some(seat));
            assert!(before.legal_actions().contains(&d.best), "{d:?}");
            assert!(d.loss >= 0.0 && d.value_best >= d.value_played);
            assert_eq!(d.label, Label::of(d.loss));
            assert_eq!(
                d.loss == 0.0,
                d.best == d.played || d.value_best == d.value_played
            );
            before.apply(d.best).expect("the best action is legal");
        }
        let total: f64 = first.decisions.iter().map(|d| d.loss).sum();
        assert!((first.loss - total).abs() < 1e-9);
        assert_eq!(review(&game, seat, QUICK).unwrap(), first);
    }

    /// A game of two strong seats in which seat P1's `k`-th decision with a choice is the worst
    /// one it had (by the review's own measure); returns the game and that action's index.
    fn with_one_poor_decision(seed: u64, k: usize) -> (Game, usize) {
        let mut game = Game::new(Config::new(PlayerCount::new(2).unwrap()), seed);
        let mut agents: Vec<_> = (0..2)
            .map(|i| agent_by_name("strong", seed + i, Some(2_000)).unwrap())
            .collect();
        let (mut seen, mut poor) = (0, None);
        while let Some(seat) = game.turn() {
            let view = game.view(Some(seat));
            let probe = Strong::new(seed, 1);
            let choices = probe.choices(&view);
            let action = if seat.index() == 0 && choices.len() >= 2 && poor.is_none() && {
                seen += 1;
                seen > k
            } {
                let knowledge = Knowledge::new(&view).unwrap();
                let worst = choices
                    .iter()
                    .copied()
                    .min_by(|&a, &b| {
                        value(&probe, &knowledge, a, 300, 9)
                            .total_cmp(&value(&probe, &knowledge, b, 300, 9))
                    })
                    .unwrap();
                poor = Some(game.actions().len());
                worst.action()
            } else {
                agents[seat.index()].act(&view)
            };
            game.apply(action).unwrap();
        }
        (game, poor.expect("the seat had that many choices"))
    }

    #[test]
    fn a_deliberately_poor_decision_is_the_largest_loss() {
        for (seed, k) in [(21, 6), (22, 10)] {
            let (game, poor) = with_one_poor_decision(seed, k);
            let review = review(&game, Player::FIRST, QUICK).unwrap();
            let largest = review
                .decisions
                .iter()
                .max_by(|a, b| a.loss.total_cmp(&b.loss))
                .unwrap();
            assert_eq!(largest.index, poor, "{largest:?}");
            assert!(largest.label >= Label::Mistake, "{largest:?}");
        }
    }

    #[test]
    fn a_random_seat_loses_more_than_a_strong_one() {
        let game = played(5, ["random", "strong"]);
        let random = review(&game, Player::from_index(0).unwrap(), QUICK).unwrap();
        let strong = review(&game, Player::from_index(1).unwrap(), QUICK).unwrap();
        let per = |r: &Review| r.loss / r.decisions.len().max(1) as f64;
        assert!(
            per(&random) > per(&strong),
            "random {} a decision, strong {}",
            per(&random),
            per(&strong)
        );
    }
}
