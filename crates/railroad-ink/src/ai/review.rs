//! A finished seat's game reviewed round by round: what the player placed, what the strong
//! player would have placed on the same board with the same dice and the specials left, the
//! expected final score after each, and the points lost.
//!
//! Both ends of a round are valued by one estimator, the strong player's evaluation of the
//! board after the round ([`super::strong::Search::value`]: the learned n-tuple tables added to
//! the linear evaluation, fitted to predict the final score; after the last round it is the
//! final score itself). The strong player's alternative is the round it would play
//! ([`StrongAgent::play_round`] at the review's budget), so a review is as deterministic as the
//! strong player: the same game, the same review. The review takes the better of the two: when
//! the played round is valued at least as high, it is the round's best and nothing is lost.

use serde::Serialize;
use thiserror::Error;

use super::strong::{Search, StrongAgent};
use super::{Agent, RoundView};
use crate::board::{Board, MAX_SPECIALS};
use crate::dice::Roll;
use crate::game::{Game, GameError, ROUNDS};
use crate::movegen::first_legal;
use crate::placement::Placement;

/// How a round compares with the strong player's choice, by points lost (see
/// [`Label::of`] for the thresholds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Nothing lost (at most [`Label::BEST`] points).
    Best,
    /// At most [`Label::GOOD`] points lost.
    Good,
    /// At most [`Label::INACCURACY`] points lost.
    Inaccuracy,
    /// At most [`Label::MISTAKE`] points lost.
    Mistake,
    /// More than [`Label::MISTAKE`] points lost.
    Blunder,
}

impl Label {
    /// Most points lost for `best` (rounding noise only).
    pub const BEST: f32 = 0.05;
    /// Most points lost for `good`.
    pub const GOOD: f32 = 1.0;
    /// Most points lost for `inaccuracy`.
    pub const INACCURACY: f32 = 2.5;
    /// Most points lost for `mistake`; above it, `blunder`.
    pub const MISTAKE: f32 = 5.0;

    /// The label of a round that lost `loss` points.
    pub fn of(loss: f32) -> Label {
        if loss <= Self::BEST {
            Label::Best
        } else if loss <= Self::GOOD {
            Label::Good
        } else if loss <= Self::INACCURACY {
            Label::Inaccuracy
        } else if loss <= Self::MISTAKE {
            Label::Mistake
        } else {
            Label::Blunder
        }
    }

    /// The label's name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// One round of the review.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundReview {
    /// The round, counted from 1.
    pub round: usize,
    /// What the player placed, in order.
    #[serde(serialize_with = "as_text")]
    pub played: Vec<Placement>,
    /// The better of the strong player's round and the played one.
    #[serde(serialize_with = "as_text")]
    pub best: Vec<Placement>,
    /// The expected final score after the played round (hundredths).
    pub value_played: f32,
    /// The expected final score after the best round (hundredths), at least `value_played`.
    pub value_best: f32,
    /// `value_best - value_played`, never negative.
    pub loss: f32,
    /// The round's label.
    pub label: Label,
}

/// A seat's game reviewed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Review {
    /// The rounds the seat played, first to last (a seat that joined late starts later).
    pub rounds: Vec<RoundReview>,
    /// The points lost over the game.
    pub loss: f32,
}

/// The strong player's budget in a review unless told otherwise: a review at 48 took 0.72
/// CPU-seconds a game on average and 0.97 s at most over greedy's games (whose boards are the
/// slowest to search), where 64 took 1.75 s and 2.32 s; the strong player's own games at 64
/// reviewed at 48 lose 0.03 points a round (README, "The review").
pub const REVIEW_BUDGET: u32 = 48;

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewError {
    /// A game has seven rounds.
    #[error("a game has {ROUNDS} rounds; {0} given")]
    Rounds(usize),
    /// A round breaks the game's rules.
    #[error("round {round}: {error}")]
    Illegal {
        /// The round, counted from 1.
        round: usize,
        /// The rule broken.
        error: GameError,
    },
}

fn as_text<S: serde::Serializer>(placements: &[Placement], s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&Text(placements))
}

/// Placements as one board-string fragment, `A4A10A1B01`.
struct Text<'a>(&'a [Placement]);

impl std::fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

/// Rounds a value to hundredths, the precision the review reports.
fn hundredths(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// What the evaluation leaves out of the final score, by rounds left (0–6): the strong player
/// at budget 64 ends its games higher than the evaluation of its boards says (it was fitted
/// on games of a weaker search). Measured as the mean of final score minus evaluation after
/// each round over 200 games of `strong` at 64 (dice seeds 0–199: `cargo run --release -p
/// railroad-ink --example review_calibration -- --games 200 --seed 0 --agents strong
/// --estimate-only`, before this was added); the README's table checks it on other games.
/// Both ends of a round get the same amount, so it moves no loss.
pub const CALIBRATION: [f32; ROUNDS] = [0.0, 1.10, 1.49, 1.90, 1.96, 2.18, 2.25];

/// The expected final score of `board` after round `round` (0–6): the evaluation with the
/// rounds still to come, plus [`CALIBRATION`]; after the last round, the score.
pub fn estimate(search: &Search, board: &Board, round: usize) -> f32 {
    let rounds_left = ROUNDS - 1 - round.min(ROUNDS - 1);
    search.value(board, rounds_left) + CALIBRATION[rounds_left]
}

/// Plays `placements` as one round with `roll` on `board`, by the game's rules (the round's
/// dice, one special a round, each special once and three a game, every die placed that fits).
fn play_round(board: &mut Board, roll: &Roll, placements: &[Placement]) -> Result<(), GameError> {
    let (mut used, mut special) = (0u8, false);
    for &placement in placements {
        let tile = placement.tile;
        if tile.is_special() {
            if special {
                return Err(GameError::SpecialThisRound);
            }
            if board.has_special(tile) {
                return Err(GameError::SpecialUsed { tile });
            }
            if board.special_count() >= MAX_SPECIALS {
                return Err(GameError::TooManySpecials);
            }
            special = true;
        } else {
            let die = roll
                .unused_die(tile, used)
                .ok_or(GameError::NoSuchDie { tile, roll: *roll })?;
            used |= 1 << die;
        }
        board
            .place(placement)
            .map_err(|reason| GameError::Illegal { placement, reason })?;
    }
    for (die, tile) in roll.dice().into_iter().enumerate() {
        if used & (1 << die) == 0
            && let Some(example) = first_legal(board, tile)
        {
            return Err(GameError::DieStillFits { tile, example });
        }
    }
    Ok(())
}

/// Reviews a seat's game: `rolls` are the game's seven rolls, `rounds` the seat's placements of
/// each round (as [`crate::game::PlayerState::rounds`] gives them); `budget` is the strong
/// player's (default [`REVIEW_BUDGET`]). Rounds
/// before a late-joining seat's first (empty rounds on an empty board) are left out. Every
/// round is checked against the game's rules.
pub fn review(
    rolls: &[Roll; ROUNDS],
    rounds: &[Vec<Placement>],
    budget: Option<u32>,
) -> Result<Review, ReviewError> {
    if rounds.len() != ROUNDS {
        return Err(ReviewError::Rounds(rounds.len()));
    }
    let mut agent = StrongAgent::with_budget(Some(budget.unwrap_or(REVIEW_BUDGET)));
    let search = agent.search.clone();
    let mut board = Board::new();
    let mut out = Vec::with_capacity(ROUNDS);
    for (round, played) in rounds.iter().enumerate() {
        let before = board;
        if played.is_empty() && before.is_empty() {
            // Not yet at the table (a late join): any round on an empty board places tiles.
            continue;
        }
        play_round(&mut board, &rolls[round], played).map_err(|error| ReviewError::Illegal {
            round: round + 1,
            error,
        })?;
        let view = RoundView {
            board: &before,
            roll: rolls[round],
            used: 0,
            special_placed: false,
            round,
            rolls: &rolls[..=round],
        };
        let strong = agent.play_round(&view);
        let mut after_strong = before;
        for &p in &strong {
            after_strong.put(p);
        }
        let value_played = hundredths(estimate(&search, &board, round));
        let value_strong = hundredths(estimate(&search, &after_strong, round));
        let (best, value_best) = if value_strong > value_played {
            (strong, value_strong)
        } else {
            (played.clone(), value_played)
        };
        let loss = hundredths(value_best - value_played);
        out.push(RoundReview {
            round: round + 1,
            played: played.clone(),
            best,
            value_played,
            value_best,
            loss,
            label: Label::of(loss),
        });
    }
    let loss = hundredths(out.iter().map(|r| r.loss).sum());
    Ok(Review { rounds: out, loss })
}

/// [`review`] of seat `seat` of a finished game.
pub fn review_seat(game: &Game, seat: usize, budget: Option<u32>) -> Result<Review, ReviewError> {
    let rounds = game
        .player(seat)
        .map_err(|error| ReviewError::Illegal { round: 0, error })?
        .rounds();
    review(&game.setup().dice.rolls(), &rounds, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{GreedyAgent, play_game};
    use crate::game::{Action, Dice, Setup};
    use crate::movegen::check_move;

    const BUDGET: Option<u32> = Some(8);

    fn rounds_of(game: &Game) -> Vec<Vec<Placement>> {
        game.player(0).unwrap().rounds()
    }

    #[test]
    fn labels_follow_the_thresholds() {
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(0.05), Label::Best);
        assert_eq!(Label::of(0.5), Label::Good);
        assert_eq!(Label::of(2.0), Label::Inaccuracy);
        assert_eq!(Label::of(4.0), Label::Mistake);
        assert_eq!(Label::of(5.01), Label::Blunder);
        assert_eq!(Label::Blunder.name(), "blunder");
    }

    #[test]
    fn a_review_has_seven_rounds_and_its_losses_add_up() {
        let rolls = Dice::Seed(3).rolls();
        let game = play_game(&mut GreedyAgent::default(), rolls).unwrap();
        let review = review_seat(&game, 0, BUDGET).unwrap();
        assert_eq!(review.rounds.len(), ROUNDS);
        let mut board = Board::new();
        for (i, r) in review.rounds.iter().enumerate() {
            assert_eq!(r.round, i + 1);
            assert!(r.loss >= 0.0 && r.value_best >= r.value_played);
            assert!((r.value_best - r.value_played - r.loss).abs() < 0.011);
            assert_eq!(r.label, Label::of(r.loss));
            // The best round is legal on the player's own board with this round's dice only.
            check_move(&board, &rolls[i], &r.best)
                .unwrap_or_else(|e| panic!("round {}: {e}", r.round));
            for &p in &r.played {
                board.put(p);
            }
        }
        let last = review.rounds.last().unwrap();
        assert_eq!(
            last.value_played as i32,
            game.scores()[0].advanced,
            "after the last round the estimate is the score"
        );
        let total: f32 = review.rounds.iter().map(|r| r.loss).sum();
        assert!((review.loss - total).abs() < 0.011);
        let json = serde_json::to_value(&review).unwrap();
        let first = &json["rounds"][0];
        assert!(first["played"].as_str().unwrap().len() >= 20, "{first}");
        assert!(first["label"].is_string());
    }

    #[test]
    fn the_same_game_gets_the_same_review() {
        let game = play_game(&mut GreedyAgent::default(), Dice::Seed(9).rolls()).unwrap();
        assert_eq!(
            review_seat(&game, 0, BUDGET).unwrap(),
            review_seat(&game, 0, BUDGET).unwrap()
        );
    }

    #[test]
    fn an_illegal_round_is_refused() {
        let rolls = Dice::Seed(4).rolls();
        let game = play_game(&mut GreedyAgent::default(), rolls).unwrap();
        let mut rounds = rounds_of(&game);
        rounds.swap(0, 1);
        assert!(matches!(
            review(&rolls, &rounds, BUDGET),
            Err(ReviewError::Illegal { round: 1, .. })
        ));
        assert_eq!(
            review(&rolls, &rounds[..3], BUDGET),
            Err(ReviewError::Rounds(3))
        );
    }

    #[test]
    fn rounds_before_a_late_join_are_left_out() {
        let mut game = Game::new(Setup {
            players: 1,
            dice: Dice::Seed(6),
        });
        let mut greedy = GreedyAgent::default();
        let mut play = |game: &mut Game, seat: usize| {
            let board = *game.player(seat).unwrap().board();
            let view = RoundView {
                board: &board,
                roll: game.roll().unwrap(),
                used: 0,
                special_placed: false,
                round: game.round(),
                rolls: game.rolls_so_far(),
            };
            for placement in greedy.play_round(&view) {
                game.act(seat, Action::Place { placement }).unwrap();
            }
            game.act(seat, Action::EndRound).unwrap();
        };
        play(&mut game, 0);
        play(&mut game, 0);
        game.act(1, Action::Join).unwrap();
        while !game.is_finished() {
            play(&mut game, 0);
            play(&mut game, 1);
        }
        let review = review_seat(&game, 1, BUDGET).unwrap();
        assert_eq!(review.rounds.first().map(|r| r.round), Some(3));
        assert_eq!(review.rounds.len(), 5);
    }
}
