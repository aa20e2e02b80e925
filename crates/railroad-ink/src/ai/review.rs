//! A finished seat's game reviewed round by round: what the player placed, what the strong
//! player would have placed on the same board with the same dice and the specials left, the
//! expected final score after each, the points lost, and why the computer's round is better
//! in one sentence ([`reason`]).
//!
//! Both ends of a round are valued by one estimator, the strong player's evaluation of the
//! board after the round ([`super::strong::Search::value`]: the learned n-tuple tables added to
//! the linear evaluation, fitted to predict the final score; in a game of an expansion, the
//! expansion's evaluation), plus a calibration; after the last round it is the final score
//! itself. It says what the game would end with **if the strong player played on from there**:
//! not a forecast of the player's own game. The strong player's alternative is the round it
//! would play ([`StrongAgent::play_round`] at the review's budget), so a review is as
//! deterministic as the strong player: the same game, the same review. The review takes the
//! better of the two: when the played round is valued at least as high, it is the round's best
//! and nothing is lost.
//!
//! Games of the Deep Blue expansions (six rounds, two optional expansion dice a round) are
//! reviewed by their own rules and their own evaluation ([`review_in`]).

mod reason;

use serde::Serialize;
use thiserror::Error;

pub use reason::{Reason, ReasonKind};
/// The one scale of labels of every game's review (`review-scale`): by the points lost, as
/// shown to a tenth.
pub use review_scale::Label;

use super::strong::{Search, StrongAgent};
use super::{Agent, RoundView};
use crate::board::{Board, MAX_SPECIALS};
use crate::dice::Roll;
use crate::expansion::Expansion;
use crate::game::{Game, GameError, ROUNDS};
use crate::movegen::first_legal;
use crate::placement::Placement;
use crate::square::{Square, squares_of};

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
    /// The expected final score after the played round (hundredths): what the game would end
    /// with if the strong computer player played on from the board the round left, not a
    /// forecast of the player's own game. After the last round, the final score.
    pub value_played: f32,
    /// The same after the best round, at least `value_played`.
    pub value_best: f32,
    /// `value_best - value_played`, never negative.
    pub loss: f32,
    /// The round's label, by its loss on the one scale ([`Label::of`]).
    pub label: Label,
    /// Why the best round is better, or that the played one is as good: one sentence,
    /// computed from the two boards after the round.
    pub reason: Reason,
    /// In the lake expansion: the squares flooded after the played round (none: left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flooded: Vec<Square>,
    /// In the lake expansion: the squares flooded after the best round (none: left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flooded_best: Vec<Square>,
}

/// A seat's game reviewed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Review {
    /// The rounds the seat played, first to last (a seat that joined late starts later).
    pub rounds: Vec<RoundReview>,
    /// The points lost over the game.
    pub loss: f32,
    /// The final score the seat actually made (its board's advanced score).
    pub score: i32,
}

/// The strong player's budget in a review unless told otherwise: a review at 48 took 0.72
/// CPU-seconds a game on average and 0.97 s at most over greedy's games (whose boards are the
/// slowest to search), where 64 took 1.75 s and 2.32 s; the strong player's own games at 64
/// reviewed at 48 lose 0.03 points a round (`docs/review.md`). It is also the interactive
/// budget of the expansions ([`StrongAgent::INTERACTIVE_EXPANSION_BUDGET`]): an expansion
/// game's review plays as its computer seats and hints do.
pub const REVIEW_BUDGET: u32 = 48;

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReviewError {
    /// A game has seven rounds (six with an expansion).
    #[error("a game has {expected} rounds; {given} given")]
    Rounds {
        /// The game's rounds.
        expected: usize,
        /// The rounds given.
        given: usize,
    },
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
/// --estimate-only`, before this was added); `docs/review.md` checks it on other games.
/// Both ends of a round get the same amount, so it moves no loss.
pub const CALIBRATION: [f32; ROUNDS] = [0.0, 1.10, 1.49, 1.90, 1.96, 2.18, 2.25];

/// [`CALIBRATION`] of the lake expansion, by rounds left (0–5): the mean of final score minus
/// the expansion's evaluation after each round over 200 games of `strong` at the review's
/// budget, 48 (dice seeds 0–199: `cargo run --release -p railroad-ink --example
/// review_calibration -- --expansion lake --games 200 --seed 0 --budget 48 --agents strong
/// --estimate-only`, before this was added). The expansion's evaluation is a heuristic (the
/// route tiles' learned value less half a point a water square, plus the lake's or river's
/// term), never fitted to the final score: it runs 3 to 5 points high before the last round.
pub const CALIBRATION_LAKE: [f32; 6] = [0.0, -2.89, -4.51, -4.44, -5.05, -4.28];

/// [`CALIBRATION_LAKE`] of the river expansion (`--expansion river`): 0.4 points low with one
/// round left, 3 to 6 points high before.
pub const CALIBRATION_RIVER: [f32; 6] = [0.0, 0.42, -2.97, -3.66, -4.90, -6.01];

/// The calibration of a game of `expansion`, by rounds left.
pub fn calibration(expansion: Expansion) -> &'static [f32] {
    match expansion {
        Expansion::None => &CALIBRATION,
        Expansion::Lake => &CALIBRATION_LAKE,
        Expansion::River => &CALIBRATION_RIVER,
    }
}

/// The expected final score of `board` after round `round` (counted from 0) of its game (the
/// board knows its expansion, and so its rounds): the evaluation with the rounds still to
/// come, plus the calibration; after the last round, the score.
pub fn estimate(search: &Search, board: &Board, round: usize) -> f32 {
    let rounds = board.expansion().rounds();
    let rounds_left = rounds - 1 - round.min(rounds - 1);
    if rounds_left == 0 {
        return board.score().advanced as f32;
    }
    let calibration = calibration(board.expansion());
    search.value(board, rounds_left) + calibration[rounds_left.min(calibration.len() - 1)]
}

/// Plays `placements` as one round with `roll` on `board`, by the game's rules (the round's
/// dice, the expansion's dice of the board's game only and each once, one special a round,
/// each special once and three a game, every route die placed that fits).
fn play_round(board: &mut Board, roll: &Roll, placements: &[Placement]) -> Result<(), GameError> {
    let (mut used, mut special) = (0u8, false);
    let expansion = board.expansion();
    for &placement in placements {
        let tile = placement.tile;
        if !expansion.allows(tile) {
            return Err(GameError::NotInThisGame { tile, expansion });
        }
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

/// Reviews a seat's game of the base game: `rolls` are the game's seven rolls, `rounds` the
/// seat's placements of each round (as [`crate::game::PlayerState::rounds`] gives them);
/// `budget` is the strong player's (default [`REVIEW_BUDGET`]). Rounds before a late-joining
/// seat's first (empty rounds on an empty board) are left out. Every round is checked against
/// the game's rules.
pub fn review(
    rolls: &[Roll; ROUNDS],
    rounds: &[Vec<Placement>],
    budget: Option<u32>,
) -> Result<Review, ReviewError> {
    review_in(Expansion::None, rolls, rounds, budget)
}

/// [`review`] of a game of `expansion`: its rounds (six with an expansion; `rolls` holds
/// seven, the last unplayed), its dice, its rules and the strong player's evaluation of its
/// boards.
pub fn review_in(
    expansion: Expansion,
    rolls: &[Roll; ROUNDS],
    rounds: &[Vec<Placement>],
    budget: Option<u32>,
) -> Result<Review, ReviewError> {
    let count = expansion.rounds();
    if rounds.len() != count {
        return Err(ReviewError::Rounds {
            expected: count,
            given: rounds.len(),
        });
    }
    let mut agent = StrongAgent::with_budget(Some(budget.unwrap_or(REVIEW_BUDGET)));
    let search = agent.search.clone();
    let mut board = Board::with_expansion(expansion);
    let mut out = Vec::with_capacity(count);
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
        let computer_same = reason::same_round(&strong, played);
        let (best, value_best, after_best, reason) = if value_strong > value_played {
            let reason = reason::reason(&reason::Round {
                played: &board,
                best: &after_strong,
                played_round: played,
                best_round: &strong,
                rounds_left: count - 1 - round,
            });
            (strong, value_strong, after_strong, reason)
        } else {
            (
                played.clone(),
                value_played,
                board,
                reason::as_good(computer_same),
            )
        };
        let loss = hundredths(value_best - value_played);
        out.push(RoundReview {
            round: round + 1,
            played: played.clone(),
            best,
            value_played,
            value_best,
            loss,
            label: Label::of(f64::from(loss)),
            reason,
            flooded: squares_of(board.flooded()).collect(),
            flooded_best: squares_of(after_best.flooded()).collect(),
        });
    }
    let loss = hundredths(out.iter().map(|r| r.loss).sum());
    Ok(Review {
        rounds: out,
        loss,
        score: board.score().advanced,
    })
}

/// [`review_in`] of seat `seat` of a finished game, with the game's expansion.
pub fn review_seat(game: &Game, seat: usize, budget: Option<u32>) -> Result<Review, ReviewError> {
    let rounds = game
        .player(seat)
        .map_err(|error| ReviewError::Illegal { round: 0, error })?
        .rounds();
    let expansion = game.expansion();
    review_in(
        expansion,
        &game.setup().dice.rolls_in(expansion),
        &rounds,
        budget,
    )
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
    fn labels_follow_the_one_scale() {
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(0.04), Label::Best);
        assert_eq!(Label::of(0.05), Label::Good, "shown as 0.1");
        assert_eq!(Label::of(2.0), Label::Inaccuracy);
        assert_eq!(Label::of(4.0), Label::Mistake);
        assert_eq!(Label::of(5.04), Label::Mistake, "shown as 5.0");
        assert_eq!(Label::of(5.05), Label::Blunder, "shown as 5.1");
        assert_eq!(Label::Blunder.as_str(), "blunder");
        assert_eq!(
            (Label::GOOD, Label::INACCURACY, Label::MISTAKE),
            (1.0, 2.5, 5.0)
        );
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
            assert_eq!(r.label, Label::of(f64::from(r.loss)));
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
        assert_eq!(review.score, game.scores()[0].advanced);
        let json = serde_json::to_value(&review).unwrap();
        let first = &json["rounds"][0];
        assert!(first["played"].as_str().unwrap().len() >= 20, "{first}");
        assert!(first["label"].is_string());
        assert!(
            first["reason"]["text"].as_str().unwrap().ends_with('.'),
            "{first}"
        );
        assert!(first.get("flooded").is_none(), "no lake: {first}");
        assert_eq!(json["score"], game.scores()[0].advanced);
    }

    /// Reviews a greedy game of `expansion` and checks it round by round: six rounds, each
    /// best a legal round of that round's dice (the expansion's included), a reason true of
    /// the two boards, and the estimate after the last round the score.
    fn an_expansion_game_reviewed(expansion: Expansion, seed: u64) -> Review {
        let game = crate::ai::play_game_in(&mut GreedyAgent::default(), expansion, seed).unwrap();
        let rolls = Dice::Seed(seed).rolls_in(expansion);
        let review = review_seat(&game, 0, BUDGET).unwrap();
        assert_eq!(review.rounds.len(), 6, "{expansion}");
        let mut board = Board::with_expansion(expansion);
        for (i, r) in review.rounds.iter().enumerate() {
            assert_eq!(r.round, i + 1);
            check_move(&board, &rolls[i], &r.best)
                .unwrap_or_else(|e| panic!("{expansion} round {}: {e}", r.round));
            assert!(r.best.iter().all(|p| expansion.allows(p.tile)));
            assert_eq!(r.label, Label::of(f64::from(r.loss)));
            let mut best = board;
            for &p in &r.best {
                best.place(p).unwrap();
            }
            for &p in &r.played {
                board.place(p).unwrap();
            }
            if r.loss > 0.0 {
                // The reason's points are the difference of a part of the two boards' scores.
                if let Some(points) = r.reason.points {
                    let (b, p) = (best.score(), board.score());
                    let parts = [
                        b.exits - p.exits,
                        p.errors - b.errors,
                        b.centre - p.centre,
                        b.longest_highway - p.longest_highway,
                        b.longest_railway - p.longest_railway,
                        b.expansion - p.expansion,
                    ];
                    assert!(parts.contains(&points), "{r:?}");
                }
            } else {
                assert!(matches!(
                    r.reason.kind,
                    ReasonKind::Same | ReasonKind::AsGood
                ));
            }
            assert_eq!(r.flooded, squares_of(board.flooded()).collect::<Vec<_>>());
        }
        assert_eq!(
            review.rounds[5].value_played as i32,
            game.scores()[0].advanced
        );
        assert_eq!(review.score, game.scores()[0].advanced);
        review
    }

    #[test]
    fn a_lake_game_is_reviewed_by_its_own_rules() {
        let review = an_expansion_game_reviewed(Expansion::Lake, 2);
        assert!(
            review
                .rounds
                .iter()
                .any(|r| r.best.iter().any(|p| p.tile.is_expansion())),
            "the computer places lake tiles: {review:?}"
        );
    }

    #[test]
    fn a_river_game_is_reviewed_by_its_own_rules() {
        let review = an_expansion_game_reviewed(Expansion::River, 3);
        assert!(review.loss > 0.0, "greedy loses points: {review:?}");
        // A base game's seven rounds are refused for a river game, and six for the base game.
        let game =
            crate::ai::play_game_in(&mut GreedyAgent::default(), Expansion::River, 3).unwrap();
        let rounds = rounds_of(&game);
        let rolls = Dice::Seed(3).rolls_in(Expansion::River);
        assert_eq!(
            super::review(&rolls, &rounds, BUDGET),
            Err(ReviewError::Rounds {
                expected: 7,
                given: 6
            })
        );
        // A river tile is no tile of a lake game.
        if let Some(round) = rounds
            .iter()
            .position(|r| r.iter().any(|p| p.tile.is_expansion()))
        {
            assert!(matches!(
                review_in(Expansion::Lake, &rolls, &rounds, BUDGET),
                Err(ReviewError::Illegal { round: r, error: GameError::NotInThisGame { .. } }) if r == round + 1
            ));
        }
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
            Err(ReviewError::Rounds {
                expected: 7,
                given: 3
            })
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
