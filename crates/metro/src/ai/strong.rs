//! The `strong` player: determinized play-outs with sequential halving.
//!
//! For each decision it lists its options (every legal square for the tile to place, and keep
//! or draw when allowed), then spends its budget of play-outs on them in rounds of sequential
//! halving, dropping the worse half after each round. A play-out deals the tiles it cannot
//! see at random, consistently with what it can: the tiles neither on the board nor in its own
//! hand (nor just drawn by it) go to the other players who hold a tile and to the deck, in a
//! random order. The option is played (after a keep or a draw, the second tile goes where it
//! brings the seat the most points less everyone else's), then every player plays to the end
//! at random: a random legal square, and a tile held whenever it may be. Every option is
//! measured on the same deals and the same random play (common random numbers), and a play-out
//! is worth its win (1, ½ for a shared win) plus 0.01 × the final margin over the best other
//! player.
//!
//! Random play-outs beat play-outs by the net immediate gain: a player that finishes lines as
//! soon as it can finishes them short, so play-outs full of such players misjudge a position.
//! Because the play-outs run whole games, the search finishes its own lines when that pays,
//! keeps away from squares that finish other players' lines or leave them one tile from
//! finishing, cuts off other players' long lines, steers its lines toward the centre stations
//! (doubled), and weighs keeping or drawing against placing.

use crate::game::{Action, Phase, View};
use crate::square::{Square, SquareSet};
use crate::tile::{DECK_SIZE, Tile};

use super::policy::{Weights, best_square, worth_placing};
use super::sim::{FastRng, Position, mix};
use super::{Agent, decision_seed, fallback, legal_for, seat_of, tile_to_place};

/// The play-outs per decision by default: within 200 ms a move (33 ms of CPU time a move on
/// average and 155 ms at most over 2,000 games on the 2-core development machine), and far
/// past the strength targets.
pub const DEFAULT_BUDGET: u32 = 10_000;

/// How the `strong` player searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongConfig {
    /// Play-outs per decision (deterministic work: the same budget, the same choices).
    pub budget: u32,
    /// Weight of the final margin (in points) added to a play-out's win (0, ½ or 1).
    pub margin_weight: f64,
    /// How every player chooses squares in the play-outs.
    pub playout: Weights,
    /// How the seat places the second tile of a keep or a draw it is weighing.
    pub second: Weights,
}

impl StrongConfig {
    /// The default search with `budget` play-outs per decision.
    pub const fn with_budget(budget: u32) -> StrongConfig {
        StrongConfig {
            budget,
            margin_weight: 0.01,
            playout: Weights::RANDOM,
            second: Weights::NET,
        }
    }
}

/// The `strong` player.
#[derive(Clone, Debug)]
pub struct Strong {
    seed: u64,
    config: StrongConfig,
}

impl Strong {
    /// A `strong` player with `budget` play-outs per decision.
    pub fn new(seed: u64, budget: u32) -> Strong {
        Strong::with_config(seed, StrongConfig::with_budget(budget))
    }

    /// A `strong` player searching as `config` says.
    pub fn with_config(seed: u64, config: StrongConfig) -> Strong {
        Strong { seed, config }
    }
}

/// One of the options at the root of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// Place the tile to place on this square.
    Place(Square),
    /// Keep the drawn tile, draw another and place it.
    Keep,
    /// Holding a tile, draw another and place it.
    Draw,
}

impl Choice {
    pub(super) fn action(self) -> Action {
        match self {
            Choice::Place(square) => Action::Place(square),
            Choice::Keep => Action::Keep,
            Choice::Draw => Action::Draw,
        }
    }
}

/// What the seat knows: the position, its own tiles, and the tiles it cannot see.
pub(super) struct Knowledge {
    me: usize,
    players: usize,
    pos: Position,
    hand: Option<Tile>,
    drawn: Option<Tile>,
    phase: Phase,
    /// Every tile neither on the board nor in the seat's hand nor just drawn by it.
    unseen: Vec<Tile>,
    /// The other players who hold a tile (which, the seat cannot see).
    holders: Vec<usize>,
}

impl Knowledge {
    /// What `view` tells; `None` if the view does not add up (then the caller falls back).
    pub(super) fn new(view: &View) -> Option<Knowledge> {
        let me = seat_of(view).index();
        let players = view.players.get() as usize;
        let mut counts = [0u8; 24];
        for tile in Tile::ALL {
            counts[tile.index()] = tile.copies();
        }
        let seen = view
            .board
            .tiles()
            .map(|(_, t)| t)
            .chain(view.hand)
            .chain(view.drawn);
        for tile in seen {
            let c = counts.get_mut(tile.index())?;
            *c = c.checked_sub(1)?;
        }
        let unseen: Vec<Tile> = Tile::ALL
            .iter()
            .flat_map(|&t| std::iter::repeat_n(t, counts[t.index()] as usize))
            .collect();
        let holders: Vec<usize> = (0..players)
            .filter(|&p| p != me && view.holding.get(p).copied().unwrap_or(false))
            .collect();
        if unseen.len() != view.tiles_left + holders.len() {
            return None;
        }
        Some(Knowledge {
            me,
            players,
            pos: Position::new(&view.board, view.players),
            hand: view.hand,
            drawn: view.drawn,
            phase: view.phase,
            unseen,
            holders,
        })
    }

    /// One deal of the unseen tiles: the other holders' tiles and the deck's order.
    pub(super) fn deal(&self, rng: &mut FastRng) -> World {
        let mut deck = [Tile::ALL[0]; DECK_SIZE];
        let n = self.unseen.len().min(DECK_SIZE);
        deck[..n].copy_from_slice(&self.unseen[..n]);
        for i in (1..n).rev() {
            deck.swap(i, rng.below(i + 1));
        }
        let mut hands = [None; 6];
        hands[self.me] = self.hand;
        let mut next = 0;
        for &p in &self.holders {
            hands[p] = Some(deck[next]);
            next += 1;
        }
        World {
            pos: self.pos.clone(),
            hands,
            deck,
            next,
            len: n,
            players: self.players,
        }
    }
}

/// One deal, played out.
#[derive(Clone)]
pub(super) struct World {
    pos: Position,
    hands: [Option<Tile>; 6],
    deck: [Tile; DECK_SIZE],
    next: usize,
    len: usize,
    players: usize,
}

impl World {
    fn draw(&mut self) -> Option<Tile> {
        let tile = self.deck.get(self.next..self.len)?.first().copied()?;
        self.next += 1;
        Some(tile)
    }

    fn deck_empty(&self) -> bool {
        self.next >= self.len
    }

    /// Places `tile` where the policy says; false if it has nowhere to go (a full board).
    fn place_best(
        &mut self,
        player: usize,
        tile: Tile,
        weights: Weights,
        rng: &mut FastRng,
    ) -> bool {
        let squares = self.pos.board().legal_squares(tile);
        match best_square(&self.pos, tile, squares, player, weights, rng) {
            Some((square, _)) => {
                self.pos.place(tile, square);
                true
            }
            None => false,
        }
    }

    /// One turn of `player` by the policy; false when the game cannot go on.
    fn turn(&mut self, player: usize, weights: Weights, rng: &mut FastRng) -> bool {
        let tile = match self.hands[player] {
            Some(held) => held,
            None => match self.draw() {
                Some(drawn) => drawn,
                // Nothing in hand and nothing to draw: the player passes.
                None => return true,
            },
        };
        let squares = self.pos.board().legal_squares(tile);
        let Some((square, value)) = best_square(&self.pos, tile, squares, player, weights, rng)
        else {
            return false;
        };
        if worth_placing(value) || self.deck_empty() {
            self.pos.place(tile, square);
            self.hands[player] = None;
            return true;
        }
        // Hold the tile (keep it, or go on holding it), draw another and place that.
        self.hands[player] = Some(tile);
        match self.draw() {
            Some(second) => self.place_best(player, second, weights, rng),
            None => false,
        }
    }

    /// Plays every turn from `player`'s on to the end of the game.
    fn finish(&mut self, mut player: usize, weights: Weights, rng: &mut FastRng) {
        // Each round of turns places at least one tile while any is left to place.
        for _ in 0..(DECK_SIZE + 6) * 6 {
            if self.pos.board().is_full() {
                return;
            }
            if !self.turn(player, weights, rng) {
                return;
            }
            player = (player + 1) % self.players;
        }
    }
}

impl Strong {
    /// The options at the root, or `None` when there is nothing to choose.
    pub(super) fn choices(&self, view: &View) -> Vec<Choice> {
        let Some(tile) = tile_to_place(view) else {
            return Vec::new();
        };
        let squares: SquareSet = legal_for(view, tile);
        let mut choices: Vec<Choice> = squares.iter().map(Choice::Place).collect();
        if view.can_keep {
            choices.push(Choice::Keep);
        }
        if view.can_draw {
            choices.push(Choice::Draw);
        }
        choices
    }

    /// Plays `choice` on a deal, then the rest of the game; returns the seat's final score and
    /// the best of the others'.
    pub(super) fn play_out_scores(
        &self,
        k: &Knowledge,
        mut world: World,
        choice: Choice,
        rng: &mut FastRng,
    ) -> (f64, f64) {
        let me = k.me;
        let weights = self.config.playout;
        let ok = match (choice, k.phase) {
            (Choice::Place(square), Phase::Start) => match k.hand {
                Some(held) => {
                    world.pos.place(held, square);
                    world.hands[me] = None;
                    true
                }
                None => false,
            },
            (Choice::Place(square), Phase::Drawn | Phase::MustPlace) => match k.drawn {
                Some(drawn) => {
                    world.pos.place(drawn, square);
                    true
                }
                None => false,
            },
            (Choice::Keep, _) => {
                world.hands[me] = k.drawn;
                match world.draw() {
                    Some(second) => world.place_best(me, second, self.config.second, rng),
                    None => false,
                }
            }
            (Choice::Draw, _) => match world.draw() {
                Some(second) => world.place_best(me, second, self.config.second, rng),
                None => false,
            },
            (Choice::Place(_), Phase::Over) => false,
        };
        if ok {
            world.finish((me + 1) % k.players, weights, rng);
        }
        let scores = world.pos.scores();
        let mine = scores.get(me).copied().unwrap_or(0) as f64;
        let best_other = scores
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != me)
            .map(|(_, &s)| s as f64)
            .fold(0.0, f64::max);
        (mine, best_other)
    }

    /// A play-out's worth for the seat: its win (1, ½ for a shared win) plus a little of its
    /// final margin.
    fn play_out(&self, k: &Knowledge, world: World, choice: Choice, rng: &mut FastRng) -> f64 {
        let (mine, best_other) = self.play_out_scores(k, world, choice, rng);
        let win = if mine > best_other {
            1.0
        } else if mine == best_other {
            0.5
        } else {
            0.0
        };
        win + self.config.margin_weight * (mine - best_other)
    }

    /// Sequential halving over `choices` with common deals; returns the best.
    fn search(&self, k: &Knowledge, choices: &[Choice], seed: u64) -> Choice {
        let mut alive: Vec<usize> = (0..choices.len()).collect();
        let mut worth = vec![0.0f64; choices.len()];
        let rounds = usize::BITS - (choices.len().max(2) - 1).leading_zeros();
        let budget = self.config.budget.max(1) as usize;
        let mut deal_index = 0u64;
        for _ in 0..rounds {
            if alive.len() <= 1 {
                break;
            }
            let per = (budget / (alive.len() * rounds as usize)).max(1);
            for _ in 0..per {
                let deal_seed = mix(seed ^ deal_index);
                deal_index += 1;
                let world = k.deal(&mut FastRng::new(deal_seed));
                for &c in &alive {
                    let mut rng = FastRng::new(deal_seed ^ 0x5EED);
                    worth[c] += self.play_out(k, world.clone(), choices[c], &mut rng);
                }
            }
            // Keep the better half (ties: the earlier option, for determinism).
            alive.sort_by(|&a, &b| worth[b].total_cmp(&worth[a]).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
        }
        let best = alive
            .iter()
            .copied()
            .max_by(|&a, &b| worth[a].total_cmp(&worth[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        choices.get(best).copied().unwrap_or(Choice::Draw)
    }
}

impl Agent for Strong {
    fn name(&self) -> String {
        "strong".to_owned()
    }

    fn act(&mut self, view: &View) -> Action {
        let choices = self.choices(view);
        match choices.as_slice() {
            [] => return fallback(view),
            [only] => return only.action(),
            _ => {}
        }
        let Some(knowledge) = Knowledge::new(view) else {
            return fallback(view);
        };
        self.search(&knowledge, &choices, decision_seed(self.seed, view))
            .action()
    }
}
