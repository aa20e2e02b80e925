//! The strong player: a beam search over the order and places of the round's tiles, each
//! round ending scored by the evaluation of [`super::eval`].

use std::collections::HashSet;
use std::sync::Arc;

use super::eval::Model;
use super::ntuple::NTuple;
use super::{Agent, RoundView};
use crate::board::Board;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::dice::{DICE, Roll};
use crate::game::ROUNDS;
use crate::placement::Placement;
use crate::tile::Tile;

/// The most placements in one round: four dice and a special.
const MAX_STEPS: usize = DICE + 1;

/// A partial round: the board so far and how it got there.
#[derive(Debug, Clone, Copy)]
struct Line {
    board: Board,
    /// Dice of `dice` already placed (bit per die).
    used: u8,
    special: bool,
    steps: [Option<Placement>; MAX_STEPS],
    len: usize,
    value: f32,
}

impl Line {
    fn push(&self, p: Placement, die: Option<usize>) -> Line {
        let mut next = *self;
        next.board.put(p);
        match die {
            Some(d) => next.used |= 1 << d,
            None => next.special = true,
        }
        next.steps[next.len] = Some(p);
        next.len += 1;
        next
    }

    fn placements(&self) -> Vec<Placement> {
        self.steps[..self.len].iter().flatten().copied().collect()
    }
}

/// Settings of the round search.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// The evaluation of the boards a round can end on.
    pub model: Model,
    /// Partial rounds kept at each step.
    pub beam: usize,
    /// Learned n-tuple tables added to `model`'s value, if any ([`super::ntuple`]); by
    /// default the trained ones.
    pub ntuple: Option<Arc<NTuple>>,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            model: Model::default(),
            beam: 12,
            ntuple: Some(NTuple::trained()),
        }
    }
}

impl Search {
    /// The evaluation of a board with `rounds_left` rounds to come.
    #[inline]
    pub fn value(&self, board: &Board, rounds_left: usize) -> f32 {
        super::ntuple::value(&self.model, self.ntuple.as_deref(), board, rounds_left)
    }

    /// The best way found to play the rest of a round: dice `dice` with `used` already
    /// placed, a special allowed unless `special_placed`; ends valued with `rounds_left`
    /// rounds to come after this one.
    pub fn plan(
        &self,
        board: &Board,
        dice: [Tile; DICE],
        used: u8,
        special_placed: bool,
        rounds_left: usize,
    ) -> Vec<Placement> {
        self.finals(board, dice, used, special_placed, rounds_left, 1)
            .first()
            .map(Line::placements)
            .unwrap_or_default()
    }

    /// The value of the best way found to play a whole round with `roll` from `board`, with
    /// `rounds_left` rounds to come after it (the board's own value if nothing can be placed).
    pub fn best_value(&self, board: &Board, roll: &Roll, rounds_left: usize) -> f32 {
        self.finals(board, roll.dice(), 0, false, rounds_left, 1)
            .first()
            .map_or_else(|| self.value(board, rounds_left), |l| l.value)
    }

    /// Up to `keep` distinct boards the whole round with `roll` can end on from `board`, the
    /// best by the evaluation first (with `rounds_left` rounds to come after this one): the
    /// boards a look-ahead compares. When no die fits, the board itself (and the boards a
    /// special can make, if one is allowed).
    pub fn ends(&self, board: &Board, roll: &Roll, rounds_left: usize, keep: usize) -> Vec<Board> {
        self.finals(board, roll.dice(), 0, false, rounds_left, keep)
            .iter()
            .map(|l| l.board)
            .collect()
    }

    /// Up to `keep` ways to finish the round, distinct boards, best value first.
    fn finals(
        &self,
        board: &Board,
        dice: [Tile; DICE],
        used: u8,
        special_placed: bool,
        rounds_left: usize,
        keep: usize,
    ) -> Vec<Line> {
        let value = |b: &Board| self.value(b, rounds_left);
        let root = Line {
            board: *board,
            used,
            special: special_placed,
            steps: [None; MAX_STEPS],
            len: 0,
            value: value(board),
        };
        let mut frontier = vec![root];
        let mut finals: Vec<Line> = Vec::new();
        let mut final_keys = HashSet::new();
        let mut seen = HashSet::new();
        while !frontier.is_empty() {
            let mut children: Vec<Line> = Vec::new();
            for line in &frontier {
                let before = children.len();
                for die in 0..DICE {
                    let tile = dice[die];
                    // Equal dice are interchangeable: expand only the first unused one.
                    if line.used & (1 << die) != 0
                        || (0..die).any(|e| line.used & (1 << e) == 0 && dice[e] == tile)
                    {
                        continue;
                    }
                    for p in line.board.legal_placements(tile) {
                        children.push(line.push(p, Some(die)));
                    }
                }
                if children.len() == before && final_keys.insert(line.board.position_key()) {
                    // No die fits: the round may end here.
                    finals.push(*line);
                }
                if !line.special && line.board.special_count() < 3 {
                    for tile in Tile::SPECIALS {
                        if !line.board.has_special(tile) {
                            for p in line.board.legal_placements(tile) {
                                children.push(line.push(p, None));
                            }
                        }
                    }
                }
            }
            seen.clear();
            // Rank distinct children by value without moving the (large) lines around.
            let mut ranked: Vec<(f32, usize)> = children
                .iter()
                .enumerate()
                .filter(|(_, c)| seen.insert((c.board.position_key(), c.used, c.special)))
                .map(|(i, c)| (value(&c.board), i))
                .collect();
            if ranked.len() > self.beam {
                ranked.select_nth_unstable_by(self.beam, |a, b| b.0.total_cmp(&a.0));
                ranked.truncate(self.beam);
            }
            frontier = ranked
                .iter()
                .map(|&(v, i)| Line {
                    value: v,
                    ..children[i]
                })
                .collect();
        }
        finals.sort_by(|a, b| b.value.total_cmp(&a.value));
        finals.truncate(keep);
        finals
    }
}

/// Look one round ahead: the best few ways to play this round are compared by the average,
/// over sampled rolls of the next round, of the best next-round result.
#[derive(Debug, Clone, PartialEq)]
pub struct Lookahead {
    /// Ways to play this round compared.
    pub candidates: usize,
    /// Next-round rolls sampled (the same ones for every candidate).
    pub samples: usize,
    /// Beam of the next-round searches.
    pub beam: usize,
}

/// The strong computer player.
#[derive(Debug, Clone)]
pub struct StrongAgent {
    /// The round search.
    pub search: Search,
    /// The look-ahead over the next roll, if any.
    pub lookahead: Option<Lookahead>,
    /// Wider look-aheads for the last rounds before the final one, in place of `lookahead`:
    /// entry `i` applies with `i + 1` rounds left. Near the end the values they average are
    /// exact (the final score) or nearly so, and the boards are nearly full, so more
    /// candidates and rolls pay there at little cost.
    pub endgame: Vec<Lookahead>,
}

impl StrongAgent {
    /// The default search effort: the strongest setting measured within the 10 CPU-seconds a
    /// game the strength target allows, on a 2-core machine of 2026 (the README has its mean
    /// and CPU a game over 1,000 games, and the curve of score against budget).
    pub const DEFAULT_BUDGET: u32 = 128;

    /// The search effort where a person waits for the answer (the hint, the browser game's
    /// computer seats): about 1.6 CPU-seconds a game, a hint at most 0.25 s of CPU a round.
    pub const INTERACTIVE_BUDGET: u32 = 64;

    /// A strong agent with search effort `budget` (default [`Self::DEFAULT_BUDGET`]): the
    /// round search keeps `budget` partial rounds at each step, and the look-ahead compares
    /// the best 8 ways to play the round over `n = budget / 5` sampled next rolls (at least
    /// 4), each answered by a next-round search of that beam. With two rounds left it compares
    /// `budget / 4` ways (at least 8) over `2n` rolls, with one round left `budget / 4` ways
    /// over `3n` rolls, each answered with a beam of `budget / 4` (at least `n`). Below 8, no
    /// look-ahead.
    pub fn with_budget(budget: Option<u32>) -> StrongAgent {
        let budget = budget.unwrap_or(Self::DEFAULT_BUDGET).max(1) as usize;
        let n = (budget / 5).max(4);
        let lookahead = (budget >= 8).then_some(Lookahead {
            candidates: 8,
            samples: n,
            beam: n,
        });
        let wide = |samples| Lookahead {
            candidates: (budget / 4).max(8),
            samples,
            beam: (budget / 4).max(n),
        };
        let endgame = if budget >= 8 {
            vec![wide(3 * n), wide(2 * n)]
        } else {
            Vec::new()
        };
        StrongAgent {
            search: Search {
                beam: budget,
                ..Search::default()
            },
            lookahead,
            endgame,
        }
    }
}

impl Default for StrongAgent {
    fn default() -> Self {
        StrongAgent::with_budget(None)
    }
}

impl Agent for StrongAgent {
    fn name(&self) -> String {
        "strong".into()
    }

    fn play_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let rounds_left = ROUNDS - 1 - view.round.min(ROUNDS - 1);
        let dice = view.roll.dice();
        if rounds_left == 0 && self.lookahead.is_some() {
            // The last round is scored exactly and has no look-ahead to pay for: search wider.
            let wide = Search {
                beam: self.search.beam * 4,
                ..self.search.clone()
            };
            return wide.plan(view.board, dice, view.used, view.special_placed, 0);
        }
        let look = match rounds_left {
            0 => None,
            r => self.endgame.get(r - 1).or(self.lookahead.as_ref()),
        };
        let Some(look) = look else {
            return self.search.plan(
                view.board,
                dice,
                view.used,
                view.special_placed,
                rounds_left,
            );
        };
        let finals = self.search.finals(
            view.board,
            dice,
            view.used,
            view.special_placed,
            rounds_left,
            look.candidates,
        );
        if finals.len() <= 1 {
            return finals.first().map(Line::placements).unwrap_or_default();
        }
        // The same sampled rolls for every candidate, from a seed fixed by the position.
        let mut rng = ChaCha8Rng::seed_from_u64(view.board.position_key() ^ view.round as u64);
        let rolls: Vec<Roll> = (0..look.samples).map(|_| Roll::random(&mut rng)).collect();
        let inner = Search {
            beam: look.beam,
            ..self.search.clone()
        };
        let mut best = (f32::NEG_INFINITY, Vec::new());
        for line in &finals {
            // A sampled roll with no die that fits leaves the candidate's own value.
            let total: f32 = rolls
                .iter()
                .map(|roll| {
                    let next = inner.finals(&line.board, roll.dice(), 0, false, rounds_left - 1, 1);
                    next.first().map_or(line.value, |l| l.value)
                })
                .sum();
            let mean = total / rolls.len() as f32;
            if mean > best.0 {
                best = (mean, line.placements());
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Dice;

    #[test]
    fn ends_are_distinct_full_rounds_best_first() {
        let search = Search::default();
        for seed in 0..6 {
            let roll = Dice::Seed(seed).rolls()[0];
            let ends = search.ends(&Board::new(), &roll, 6, 8);
            assert!(!ends.is_empty() && ends.len() <= 8, "seed {seed}");
            let keys: HashSet<u64> = ends.iter().map(Board::position_key).collect();
            assert_eq!(keys.len(), ends.len(), "seed {seed}: boards repeat");
            // The first end is where the round's plan leads.
            let mut planned = Board::new();
            for p in search.plan(&Board::new(), roll.dice(), 0, false, 6) {
                planned.place(p).unwrap();
            }
            assert_eq!(
                ends[0].position_key(),
                planned.position_key(),
                "seed {seed}"
            );
            let values: Vec<f32> = ends.iter().map(|b| search.value(b, 6)).collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "seed {seed}");
            // From an empty board every die fits: all four dice, at most one special.
            for end in &ends {
                let tiles = end.occupied().count_ones();
                assert!(tiles == 4 || tiles == 5, "seed {seed}: {tiles} tiles");
            }
        }
    }
}
