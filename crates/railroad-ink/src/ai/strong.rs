//! The strong player: a beam search over the order and places of the round's tiles, each
//! round ending scored by the evaluation of [`super::eval`].

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::eval::Model;
use super::ntuple::NTuple;
use super::{Agent, RoundView};
use crate::board::Board;
use crate::expansion::Expansion;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::dice::{DICE, Roll};
#[cfg(test)]
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

/// Sets of keys that are already random 64-bit numbers ([`Board::position_key`] and keys made
/// from it) need no further hashing: the key is its own hash.
#[derive(Debug, Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; anything else is folded in byte by byte.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 ^= key;
    }
}

type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// Values of boards already valued in this round, by position and rounds left: a round's
/// searches meet the same boards again and again (the look-ahead's searches from one candidate
/// share most first placements over the sampled rolls, and different candidates often lead to
/// the same boards), and a value costs far more than a look-up. Direct-mapped: a slot holds the
/// last board that hashed to it. Keys are [`Board::position_key`], which equal boards share and
/// different ones share only by 64-bit chance. Starting a new round ([`ValueCache::clear`]) empties
/// it in constant time, so a value never outlives the round's evaluation.
#[derive(Debug)]
struct ValueCache {
    slots: Vec<Slot>,
    /// The round's number: slots of another round are empty.
    generation: u32,
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: f32,
    /// `generation << 3 | rounds_left`; 0 is never a live tag.
    tag: u32,
}

impl ValueCache {
    /// Slots: a round of the default budget values a few million boards, a few hundred
    /// thousand of them distinct; 2¹⁷ slots (2 MiB) keep most repeats.
    const SLOTS: usize = 1 << 17;

    fn new() -> ValueCache {
        ValueCache {
            slots: vec![Slot::default(); Self::SLOTS],
            generation: 1,
        }
    }

    /// Forgets every value.
    fn clear(&mut self) {
        self.generation += 1;
        if self.generation >= 1 << 29 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The value of the board with key `key` and `rounds_left` rounds to come, computed by
    /// `value` unless known.
    #[inline]
    fn get(&mut self, key: u64, rounds_left: usize, value: impl FnOnce() -> f32) -> f32 {
        let tag = self.generation << 3 | rounds_left.min(7) as u32;
        let slot = &mut self.slots[(key as usize) & (Self::SLOTS - 1)];
        if slot.tag == tag && slot.key == key {
            return slot.value;
        }
        let v = value();
        *slot = Slot { key, value: v, tag };
        v
    }
}

/// What a round's searches share: the values already computed, and the buffers each search
/// fills and empties (kept, so a search does not ask the allocator for megabytes each time).
#[derive(Debug)]
struct Scratch {
    values: ValueCache,
    frontier: Vec<Line>,
    children: Vec<Line>,
    ranked: Vec<(f32, usize)>,
    seen: KeySet,
    final_keys: KeySet,
}

impl Scratch {
    fn new() -> Scratch {
        Scratch {
            values: ValueCache::new(),
            frontier: Vec::new(),
            children: Vec::new(),
            ranked: Vec::new(),
            seen: KeySet::default(),
            final_keys: KeySet::default(),
        }
    }
}

impl Clone for Scratch {
    /// A clone starts empty: this is a round's working memory, not the agent's state.
    fn clone(&self) -> Self {
        Scratch::new()
    }
}

/// Where a round's search starts: the board, the round's dice, which of them are placed
/// already (bit per die) and whether the round's special is.
#[derive(Debug, Clone, Copy)]
struct Start<'a> {
    board: &'a Board,
    dice: [Tile; DICE],
    used: u8,
    special_placed: bool,
}

impl<'a> Start<'a> {
    /// A round not begun: `roll` to place on `board`.
    fn fresh(board: &'a Board, roll: &Roll) -> Start<'a> {
        Start {
            board,
            dice: roll.dice(),
            used: 0,
            special_placed: false,
        }
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
    /// The evaluation of a board with `rounds_left` rounds to come. In an expansion game, the
    /// learned evaluation of the board's route tiles ([`route_board`]), less half a point for
    /// each square the water holds, plus [`expansion_term`].
    #[inline]
    pub fn value(&self, board: &Board, rounds_left: usize) -> f32 {
        if board.expansion() != Expansion::None {
            return self.routes_value(board, rounds_left) + expansion_term(board, rounds_left);
        }
        super::ntuple::value(&self.model, self.ntuple.as_deref(), board, rounds_left)
    }

    /// The learned evaluation of an expansion board's route tiles, less half a point for each
    /// square the water holds.
    fn routes_value(&self, board: &Board, rounds_left: usize) -> f32 {
        let (routes, water) = route_board(board);
        super::ntuple::value(&self.model, self.ntuple.as_deref(), &routes, rounds_left)
            - WATER_SQUARE_COST * water as f32
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
        let start = Start {
            board,
            dice,
            used,
            special_placed,
        };
        self.plan_in(&mut Scratch::new(), start, rounds_left)
    }

    /// [`Search::plan`] with the round's scratch memory.
    fn plan_in(&self, scratch: &mut Scratch, start: Start, rounds_left: usize) -> Vec<Placement> {
        self.finals(scratch, start, rounds_left, 1)
            .first()
            .map(Line::placements)
            .unwrap_or_default()
    }

    /// The value of the best way found to play a whole round with `roll` from `board`, with
    /// `rounds_left` rounds to come after it (the board's own value if nothing can be placed).
    pub fn best_value(&self, board: &Board, roll: &Roll, rounds_left: usize) -> f32 {
        self.finals(
            &mut Scratch::new(),
            Start::fresh(board, roll),
            rounds_left,
            1,
        )
        .first()
        .map_or_else(|| self.value(board, rounds_left), |l| l.value)
    }

    /// Up to `keep` distinct boards the whole round with `roll` can end on from `board`, the
    /// best by the evaluation first (with `rounds_left` rounds to come after this one): the
    /// boards a look-ahead compares. When no die fits, the board itself (and the boards a
    /// special can make, if one is allowed).
    pub fn ends(&self, board: &Board, roll: &Roll, rounds_left: usize, keep: usize) -> Vec<Board> {
        self.finals(
            &mut Scratch::new(),
            Start::fresh(board, roll),
            rounds_left,
            keep,
        )
        .iter()
        .map(|l| l.board)
        .collect()
    }

    /// Up to `keep` ways to finish the round, distinct boards, best value first.
    fn finals(
        &self,
        scratch: &mut Scratch,
        start: Start,
        rounds_left: usize,
        keep: usize,
    ) -> Vec<Line> {
        let Start {
            board,
            dice,
            used,
            special_placed,
        } = start;
        let Scratch {
            values,
            frontier,
            children,
            ranked,
            seen,
            final_keys,
        } = scratch;
        let mut value =
            |key: u64, b: &Board| values.get(key, rounds_left, || self.value(b, rounds_left));
        let root = Line {
            board: *board,
            used,
            special: special_placed,
            steps: [None; MAX_STEPS],
            len: 0,
            value: value(board.position_key(), board),
        };
        frontier.clear();
        frontier.push(root);
        final_keys.clear();
        let mut finals: Vec<Line> = Vec::new();
        while !frontier.is_empty() {
            children.clear();
            for line in frontier.iter() {
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
            ranked.clear();
            ranked.extend(children.iter().enumerate().filter_map(|(i, c)| {
                let key = c.board.position_key();
                // The same board with other dice left is another partial round.
                let left = u64::from(c.used) | u64::from(c.special) << 8;
                seen.insert(key ^ (left + 1).wrapping_mul(0xd6e8_feb8_6659_fd93))
                    .then(|| (value(key, &c.board), i))
            }));
            if ranked.len() > self.beam {
                ranked.select_nth_unstable_by(self.beam, |a, b| b.0.total_cmp(&a.0));
                ranked.truncate(self.beam);
            }
            frontier.clear();
            frontier.extend(ranked.iter().map(|&(v, i)| Line {
                value: v,
                ..children[i]
            }));
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
    /// Next-round rolls sampled (the same ones for every candidate); from
    /// [`Roll::DISTINCT`] on, every distinct roll once, weighted by its probability (the exact
    /// expectation) instead.
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
    /// What the round's searches share.
    scratch: Scratch,
}

impl StrongAgent {
    /// The default search effort: about 5.2 CPU-seconds a game on a 2-core machine of 2026,
    /// the slowest of 1,000 games 14 s; larger budgets measured no stronger
    /// (`docs/computer-players.md` has the mean and CPU a game over 1,000 games, and the curve
    /// of score against budget).
    pub const DEFAULT_BUDGET: u32 = 128;

    /// The search effort where a person waits for the answer (the hint, the browser game's
    /// computer seats): about 0.9 CPU-seconds a game, a hint at most 0.72 s of CPU a round
    /// over 100 games.
    pub const INTERACTIVE_BUDGET: u32 = 64;

    /// The interactive budget of a game with an expansion: its rounds of six dice give the
    /// search more to weigh, and at 64 a hint took up to 1.12 s of CPU on the lake (30 games,
    /// `examples/hint_time.rs`), at 48 at most 0.51 s over 600 hints; at 48 the strong player
    /// still scores above 55 (lake 55.95, river 56.43 over 1,000 games; 56.15 and 56.65 at 64
    /// over 20).
    pub const INTERACTIVE_EXPANSION_BUDGET: u32 = 48;

    /// The search effort where a person waits, for a game with `expansion`:
    /// [`Self::INTERACTIVE_BUDGET`] in the base game, [`Self::INTERACTIVE_EXPANSION_BUDGET`]
    /// with an expansion.
    pub const fn interactive_budget(expansion: Expansion) -> u32 {
        match expansion {
            Expansion::None => Self::INTERACTIVE_BUDGET,
            _ => Self::INTERACTIVE_EXPANSION_BUDGET,
        }
    }

    /// A strong agent with search effort `budget` (default [`Self::DEFAULT_BUDGET`]): the
    /// round search keeps `budget` partial rounds at each step, and the look-ahead compares
    /// the best 8 ways to play the round over `n = budget / 5` sampled next rolls (at least
    /// 4), each answered by a next-round search of that beam. With three and two rounds left
    /// it compares `budget / 4` ways (at least 8) over `2n` rolls, with one round left
    /// `budget / 4` ways over `3n` rolls, each answered with a beam of `budget / 4` (at least
    /// `n`). The last round is searched with a beam of `4 × budget`. Below 8, no look-ahead.
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
            vec![wide(3 * n), wide(2 * n), wide(2 * n)]
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
            scratch: Scratch::new(),
        }
    }
}

/// The board as the learned evaluation should see it: its route tiles (piers and bridges
/// included) without the lake and river tiles that carry no route, which the evaluation, trained
/// on the base game, would take for wasted route tiles; and how many squares those and the
/// floods hold.
/// What a square of water (a lake or river tile, or a flood) costs the route network in the
/// computer's evaluation: a square routes can no longer use.
const WATER_SQUARE_COST: f32 = 0.5;

pub(crate) fn route_board(board: &Board) -> (Board, u32) {
    let routes = board.route_tiles();
    let water = (board.occupied() & !routes.occupied()).count_ones();
    (routes, water)
}

/// What the expansion adds to a board's evaluation when the computer places expansion dice,
/// with `rounds_left` rounds after this one. The lake: the smallest lake's squares in the last
/// round (the final points, E5); before, twice the largest lake's squares less 3 for every
/// other lake, so that the player grows one lake instead of starting many (a second lake of
/// one square would make the final points 1). The river in the last round: the best river's
/// points (E6) less each open river end (an error, E4); before, open ends facing an empty
/// square cost a quarter point and the best river's are worth a point each (it may still
/// grow), while an end facing an occupied square costs its error.
pub(crate) fn expansion_term(board: &Board, rounds_left: usize) -> f32 {
    match board.expansion() {
        Expansion::None => 0.0,
        Expansion::Lake => {
            let sizes: Vec<i32> = board
                .water_bodies(crate::tile::Edge::Lake)
                .iter()
                .map(|l| l.count_ones() as i32)
                .collect();
            let (Some(&min), Some(&max)) = (sizes.iter().min(), sizes.iter().max()) else {
                return 0.0;
            };
            if rounds_left == 0 {
                min as f32
            } else {
                2.0 * (max - 3 * (sizes.len() as i32 - 1)) as f32
            }
        }
        Expansion::River => {
            let mask = board.river_error_mask();
            let ends: u32 = mask.iter().map(|m| m.count_ones()).sum();
            if rounds_left == 0 {
                return (board.river_points() - ends as i32) as f32;
            }
            // Open ends facing an empty square may still be extended: a quarter point each,
            // and the best river's are worth a point each as the river it may still become.
            // An end facing an occupied square stays an error.
            let empty = crate::square::ALL_SQUARES & !board.occupied();
            let mut open = 0;
            let mut open_mask = [0u64; 4];
            for (side, m) in crate::square::Side::ALL.into_iter().zip(mask) {
                open_mask[side.index()] = m & crate::square::shift(empty, side.opposite());
                open += open_mask[side.index()].count_ones();
            }
            let blocked = ends - open;
            let best = board
                .water_bodies(crate::tile::Edge::River)
                .into_iter()
                .max_by_key(|&r| board.river_value(r).0);
            let (points, best_open) = best.map_or((0, 0), |r| {
                let n: u32 = open_mask.iter().map(|m| (m & r).count_ones()).sum();
                (board.river_value(r).0, n)
            });
            points as f32 + best_open as f32 - 0.25 * open as f32 - blocked as f32
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
        if view.board.expansion() != Expansion::None {
            return self.play_expansion_round(view);
        }
        self.play_route_round(view)
    }
}

impl StrongAgent {
    /// A round of an expansion game: first the expansion dice, then the route dice and any
    /// special by the usual search. The expansion dice are placed (or skipped, rule X3) where
    /// the search's evaluation of the board, with this round's route dice still to come, plus
    /// [`expansion_term`] is best: every placement of each die, then every placement of the
    /// other die after the best few of the first, in both orders.
    fn play_expansion_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let rounds_left = view.rounds_left();
        let search = &self.search;
        let worth =
            |b: &Board| search.routes_value(b, rounds_left + 1) + expansion_term(b, rounds_left);
        // Skipping a die, or each of its legal placements, with the worth of the board after.
        let options = |b: &Board, tile: Tile| {
            let mut out = vec![(worth(b), None)];
            for p in b.legal_placements(tile) {
                let mut after = *b;
                after.put(p);
                out.push((worth(&after), Some(p)));
            }
            out.sort_by(|x, y| y.0.total_cmp(&x.0));
            out
        };
        const KEEP: usize = 6;
        let dice = view.expansion_dice_left();
        let mut best: (f32, Vec<(usize, Placement)>) = (worth(view.board), Vec::new());
        for order in [[0, 1], [1, 0]] {
            let Some(&(first_die, first)) = dice.get(order[0]) else {
                continue;
            };
            for &(value, p) in options(view.board, first).iter().take(KEEP) {
                let mut board = *view.board;
                let mut line = Vec::new();
                if let Some(p) = p {
                    board.put(p);
                    line.push((first_die, p));
                }
                let mut total = value;
                if let Some(&(second_die, second)) = dice.get(order[1]) {
                    let (v, q) = options(&board, second)[0];
                    total = v;
                    if let Some(q) = q {
                        line.push((second_die, q));
                    }
                }
                if total > best.0 {
                    best = (total, line);
                }
            }
        }
        let mut board = *view.board;
        let mut used = view.used;
        let mut out = Vec::new();
        for (die, p) in best.1 {
            board.put(p);
            used |= 1 << die;
            out.push(p);
        }
        let rest = RoundView {
            board: &board,
            used,
            ..*view
        };
        out.extend(self.play_route_round(&rest));
        out
    }

    /// A round's route dice and special by the search and its look-ahead.
    fn play_route_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let rounds_left = view.rounds_left();
        let start = Start {
            board: view.board,
            dice: view.roll.dice(),
            used: view.used,
            special_placed: view.special_placed,
        };
        let scratch = &mut self.scratch;
        scratch.values.clear();
        if rounds_left == 0 && self.lookahead.is_some() {
            // The last round is scored exactly and has no look-ahead to pay for: search wider.
            let wide = Search {
                beam: self.search.beam * 4,
                ..self.search.clone()
            };
            return wide.plan_in(scratch, start, 0);
        }
        let look = match rounds_left {
            0 => None,
            r => self.endgame.get(r - 1).or(self.lookahead.as_ref()),
        };
        let Some(look) = look else {
            return self.search.plan_in(scratch, start, rounds_left);
        };
        let finals = self
            .search
            .finals(scratch, start, rounds_left, look.candidates);
        if finals.len() <= 1 {
            return finals.first().map(Line::placements).unwrap_or_default();
        }
        // The same sampled rolls for every candidate, from a seed fixed by the position.
        let rolls: Vec<(Roll, f32)> = if look.samples >= Roll::DISTINCT {
            Roll::distinct()
                .into_iter()
                .map(|(roll, p)| (roll, p as f32))
                .collect()
        } else {
            let mut rng = ChaCha8Rng::seed_from_u64(view.board.position_key() ^ view.round as u64);
            (0..look.samples)
                .map(|_| (Roll::random(&mut rng), 1.0))
                .collect()
        };
        let weights: f32 = rolls.iter().map(|r| r.1).sum();
        let inner = Search {
            beam: look.beam,
            ..self.search.clone()
        };
        let mut best = (f32::NEG_INFINITY, Vec::new());
        for line in &finals {
            // A sampled roll with no die that fits leaves the candidate's own value.
            let total: f32 = rolls
                .iter()
                .map(|(roll, weight)| {
                    let next =
                        inner.finals(scratch, Start::fresh(&line.board, roll), rounds_left - 1, 1);
                    weight * next.first().map_or(line.value, |l| l.value)
                })
                .sum();
            let mean = total / weights;
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
    fn the_value_cache_answers_only_for_its_round_and_rounds_left() {
        let mut cache = ValueCache::new();
        let mut computed = 0;
        let mut get = |cache: &mut ValueCache, key, rl, v| {
            cache.get(key, rl, || {
                computed += 1;
                v
            })
        };
        assert_eq!(get(&mut cache, 42, 3, 1.5), 1.5);
        assert_eq!(
            get(&mut cache, 42, 3, 9.0),
            1.5,
            "known: not computed again"
        );
        assert_eq!(get(&mut cache, 42, 2, 2.5), 2.5, "other rounds left");
        let clash = 42 + ValueCache::SLOTS as u64;
        assert_eq!(get(&mut cache, clash, 2, 7.0), 7.0, "same slot, other key");
        assert_eq!(get(&mut cache, 42, 2, 3.5), 3.5, "pushed out");
        cache.clear();
        assert_eq!(get(&mut cache, 42, 2, 4.5), 4.5, "a new round forgets");
        assert_eq!(computed, 5);
    }

    #[test]
    fn the_agent_plays_as_its_uncached_search_would() {
        // Without a look-ahead the agent's round is the plain search's plan, which starts
        // from an empty cache; with the agent's cache used over seven rounds it must agree.
        let mut agent = StrongAgent::with_budget(Some(16));
        agent.lookahead = None;
        agent.endgame.clear();
        let search = agent.search.clone();
        let game = crate::ai::play_game(&mut agent, Dice::Seed(5).rolls()).unwrap();
        let mut board = Board::new();
        for (round, placed) in game.player(0).unwrap().rounds().iter().enumerate() {
            let roll = Dice::Seed(5).rolls()[round];
            let rounds_left = ROUNDS - 1 - round;
            let planned = search.plan(&board, roll.dice(), 0, false, rounds_left);
            assert_eq!(&planned, placed, "round {round}");
            for &p in placed {
                board.place(p).unwrap();
            }
        }
    }

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

    #[test]
    fn the_search_uses_the_shipped_ntuple_tables_by_default() {
        let search = Search::default();
        assert_eq!(search.ntuple.as_deref(), Some(&*NTuple::trained()));
    }
}
