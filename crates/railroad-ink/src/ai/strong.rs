//! The strong player: a beam search over the order and places of the round's tiles, each
//! round ending scored by the evaluation of [`super::eval`].

use std::collections::HashSet;

use super::eval::{Features, Model};
use super::{Agent, RoundView};
use crate::board::Board;
use crate::dice::DICE;
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
    pub model: Model,
    /// Partial rounds kept at each step.
    pub beam: usize,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            model: Model::default(),
            beam: 12,
        }
    }
}

impl Search {
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
        let value = |b: &Board| self.model.value(&Features::of(b), rounds_left);
        let root = Line {
            board: *board,
            used,
            special: special_placed,
            steps: [None; MAX_STEPS],
            len: 0,
            value: value(board),
        };
        let mut frontier = vec![root];
        let mut best: Option<Line> = None;
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
                if children.len() == before && best.as_ref().is_none_or(|b| line.value > b.value) {
                    // No die fits: the round may end here.
                    best = Some(*line);
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
            children.retain(|c| seen.insert((c.board.position_key(), c.used, c.special)));
            for c in &mut children {
                c.value = value(&c.board);
            }
            children.sort_by(|a, b| b.value.total_cmp(&a.value));
            children.truncate(self.beam);
            frontier = children;
        }
        best.map(|l| l.placements()).unwrap_or_default()
    }
}

/// The strong computer player.
#[derive(Debug, Clone, Default)]
pub struct StrongAgent {
    pub search: Search,
}

impl StrongAgent {
    /// The default search effort.
    pub const DEFAULT_BUDGET: u32 = 12;

    /// A strong agent whose search keeps `budget` partial rounds at each step.
    pub fn with_budget(budget: Option<u32>) -> StrongAgent {
        let beam = budget.unwrap_or(Self::DEFAULT_BUDGET).max(1) as usize;
        StrongAgent {
            search: Search {
                beam,
                ..Search::default()
            },
        }
    }
}

impl Agent for StrongAgent {
    fn name(&self) -> String {
        "strong".into()
    }

    fn play_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let rounds_left = ROUNDS - 1 - view.round.min(ROUNDS - 1);
        self.search.plan(
            view.board,
            view.roll.dice(),
            view.used,
            view.special_placed,
            rounds_left,
        )
    }
}
