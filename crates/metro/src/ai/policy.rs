//! Choosing a square by the points a placement brings at once, and the turn policy built on
//! it: the rule the `greedy` player follows and the `strong` player's play-outs use.

use crate::square::{Square, SquareSet};
use crate::tile::Tile;

use super::sim::{FastRng, Position};

/// How a placement's immediate points are valued for the player who places it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Weight of the mover's own points.
    pub own: i64,
    /// Weight of every other player's points (subtracted).
    pub others: i64,
}

impl Weights {
    /// Own points first; among equal own points, fewer points for the others.
    pub const GREEDY: Weights = Weights {
        own: 1 << 20,
        others: 1,
    };
    /// Nothing counts: a uniformly random square (and a tile is held whenever it may be).
    pub const RANDOM: Weights = Weights { own: 0, others: 0 };
    /// Own points less everyone else's.
    pub const NET: Weights = Weights { own: 1, others: 1 };

    /// The value of points `gains` (by player index) for `mover`.
    #[inline]
    pub fn value(self, gains: &[u32; 6], mover: usize) -> i64 {
        let total: u32 = gains.iter().sum();
        let own = gains.get(mover).copied().unwrap_or(0);
        self.own * own as i64 - self.others * (total - own) as i64
    }
}

/// The best of `squares` for `tile` by `weights`, with its value; ties are broken uniformly at
/// random. `None` when `squares` is empty.
#[inline]
pub fn best_square(
    pos: &Position,
    tile: Tile,
    squares: SquareSet,
    mover: usize,
    weights: Weights,
    rng: &mut FastRng,
) -> Option<(Square, i64)> {
    if weights == Weights::RANDOM {
        // Every square is worth 0: pick one without scoring any.
        return squares.nth(rng.below(squares.len())).map(|sq| (sq, 0));
    }
    let mut best: Option<(Square, i64)> = None;
    let mut ties = 0;
    for square in squares {
        let value = weights.value(&pos.gains(tile, square), mover);
        match best {
            Some((_, b)) if value < b => {}
            Some((_, b)) if value == b => {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    best = Some((square, value));
                }
            }
            _ => {
                best = Some((square, value));
                ties = 0;
            }
        }
    }
    best
}

/// What to do with a tile that could be placed now, when drawing instead is allowed: place it
/// if that scores (by `weights`) more than nothing.
#[inline]
pub fn worth_placing(value: i64) -> bool {
    value > 0
}
