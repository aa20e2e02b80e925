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
//! The values say what the seat's game would end with **if the strong player played on for
//! every seat from there**: a measure of the position, not a forecast of the seat's own game.
//! Each decision also gets one reason in words ([`reason`]), computed from the boards the two
//! moves leave. Labels are the one scale of every game's review ([`Label`]).
//!
//! Everything is seeded from the game, so a game's review is the same every time.

mod reason;

use thiserror::Error;

pub use reason::{Reason, ReasonKind};
/// The one scale of labels of every game's review (`review-scale`): by the points of margin
/// lost, as shown to a tenth. (Metro's scores run to the hundreds, but a strong seat's own
/// decisions lose 0.13 a decision on average, a greedy seat's about 6: the same scale as
/// Railroad Ink's rounds fits both.)
pub use review_scale::Label;

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
    /// How bad that is, on the one scale.
    pub label: Label,
    /// Why the best action is better, or that the one played is as good.
    pub reason: Reason,
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
    /// The seat's final score.
    pub score: u32,
    /// The seat's final margin: its score less the best other player's.
    pub margin: i64,
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
    let scores = game.scores();
    let score = scores[seat.index()];
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat.index())
        .map(|(_, &s)| s)
        .max()
        .unwrap_or(0);
    Ok(Review {
        seat,
        decisions,
        loss,
        score,
        margin: i64::from(score) - i64::from(best_other),
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
    let computer = strong.clone().act(&view);
    let deal_seed = mix(seed ^ index as u64);
    let value_played = value(strong, &knowledge, choice(played), config.deals, deal_seed);
    let (best, value_best) = if computer == played {
        (played, value_played)
    } else {
        let value_best = value(
            strong,
            &knowledge,
            choice(computer),
            config.deals,
            deal_seed,
        );
        if value_best > value_played {
            (computer, value_best)
        } else {
            (played, value_played)
        }
    };
    let loss = value_best - value_played;
    let reason = if best == played {
        reason::as_good(computer == played)
    } else {
        reason::reason(game, seat, played, best)
    };
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
        reason,
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
    fn labels_follow_the_one_scale() {
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(0.5), Label::Good);
        assert_eq!(Label::of(Label::GOOD), Label::Good);
        assert_eq!(Label::of(2.0), Label::Inaccuracy);
        assert_eq!(Label::of(4.0), Label::Mistake);
        assert_eq!(Label::of(Label::MISTAKE), Label::Mistake);
        // Shown as 10.0: a blunder, as the scale says (it was once labelled a mistake).
        assert_eq!(Label::of(9.96), Label::Blunder);
        assert_eq!(Label::of(10.0), Label::Blunder);
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
            // A reason for every decision: that it was as good exactly when nothing was lost.
            assert_eq!(
                matches!(d.reason.kind, ReasonKind::Same | ReasonKind::AsGood),
                d.best == d.played,
                "{d:?}"
            );
            assert!(d.reason.to_string().ends_with('.'), "{d:?}");
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
