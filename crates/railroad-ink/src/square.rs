//! Squares and the board's exits (§2 of the rules). [`Side`], which tiles use too, lives in
//! its own module and is re-exported here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use crate::side::Side;
use crate::tile::Route;

/// One of the 49 squares, `A0` (top left) to `G6` (bottom right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The number of squares on a board.
pub const SQUARES: usize = 49;

impl Square {
    /// The square at `row` (0 = A … 6 = G) and `column` (0–6), if both are on the board.
    pub const fn new(row: u8, column: u8) -> Option<Square> {
        if row < 7 && column < 7 {
            Some(Square(row * 7 + column))
        } else {
            None
        }
    }

    /// The square with index `row * 7 + column`, if below 49.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with index `i`; the caller guarantees `i < 49`.
    #[inline]
    pub(crate) const fn at(i: u8) -> Square {
        debug_assert!(i < SQUARES as u8);
        Square(i)
    }

    /// All 49 squares in row-major order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// `row * 7 + column`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's bit in a 49-bit board mask.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Row 0 (`A`) to 6 (`G`).
    pub const fn row(self) -> u8 {
        self.0 / 7
    }

    /// Column 0 to 6.
    pub const fn column(self) -> u8 {
        self.0 % 7
    }

    /// The row's letter `A`–`G`.
    pub const fn row_letter(self) -> char {
        (b'A' + self.row()) as char
    }

    /// The neighbouring square across `side`, or `None` at the board's edge.
    pub const fn neighbour(self, side: Side) -> Option<Square> {
        let (r, c) = (self.row(), self.column());
        match side {
            Side::N if r > 0 => Some(Square(self.0 - 7)),
            Side::S if r < 6 => Some(Square(self.0 + 7)),
            Side::W if c > 0 => Some(Square(self.0 - 1)),
            Side::E if c < 6 => Some(Square(self.0 + 1)),
            _ => None,
        }
    }

    /// The exit on `side` of this square, if there is one.
    pub fn exit(self, side: Side) -> Option<Exit> {
        EXITS
            .iter()
            .copied()
            .find(|e| e.square == self && e.side == side)
    }

    /// Whether the square is one of the nine centre squares C2–E4.
    pub const fn is_centre(self) -> bool {
        CENTRE & self.bit() != 0
    }

    /// Whether two squares share a side.
    pub const fn is_adjacent(self, other: Square) -> bool {
        let (r1, c1, r2, c2) = (self.row(), self.column(), other.row(), other.column());
        (r1 == r2 && c1.abs_diff(c2) == 1) || (c1 == c2 && r1.abs_diff(r2) == 1)
    }

    /// The side of `self` that faces `other`, if they are adjacent.
    pub fn side_towards(self, other: Square) -> Option<Side> {
        Side::ALL
            .into_iter()
            .find(|&s| self.neighbour(s) == Some(other))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row_letter(), self.column())
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a square's name did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SquareError {
    #[error("a square is a row A–G and a column 0–6, like D3; got {0:?}")]
    /// The text is not a square name.
    Malformed(String),
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            [r @ b'A'..=b'G', c @ b'0'..=b'6'] => Ok(Square((r - b'A') * 7 + (c - b'0'))),
            _ => Err(SquareError::Malformed(s.to_owned())),
        }
    }
}

/// An exit: one side of one boundary square, with a route type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Exit {
    /// The boundary square the exit sits on.
    pub square: Square,
    /// The side of that square facing out.
    pub side: Side,
    /// The route the exit takes.
    pub route: Route,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.square)
    }
}

const fn exit(row: u8, column: u8, side: Side, route: Route) -> Exit {
    Exit {
        square: Square(row * 7 + column),
        side,
        route,
    }
}

/// The 12 exits of §2, in the order north, south, west, east.
pub const EXITS: [Exit; 12] = [
    exit(0, 1, Side::N, Route::Highway),
    exit(0, 3, Side::N, Route::Railway),
    exit(0, 5, Side::N, Route::Highway),
    exit(6, 1, Side::S, Route::Highway),
    exit(6, 3, Side::S, Route::Railway),
    exit(6, 5, Side::S, Route::Highway),
    exit(1, 0, Side::W, Route::Railway),
    exit(3, 0, Side::W, Route::Highway),
    exit(5, 0, Side::W, Route::Railway),
    exit(1, 6, Side::E, Route::Railway),
    exit(3, 6, Side::E, Route::Highway),
    exit(5, 6, Side::E, Route::Railway),
];

/// Mask of all 49 squares.
pub const ALL_SQUARES: u64 = (1 << SQUARES) - 1;
/// Squares in row A.
pub const ROW_A: u64 = 0x7f;
/// Squares in row G.
pub const ROW_G: u64 = 0x7f << 42;
/// Squares in column 0.
pub const COLUMN_0: u64 = 0x0000_0408_1020_4081;
/// Squares in column 6.
pub const COLUMN_6: u64 = COLUMN_0 << 6;
/// The nine centre squares C2–E4.
pub const CENTRE: u64 = (0b111 << 16) | (0b111 << 23) | (0b111 << 30);

/// Squares that have a neighbour across each side, indexed by [`Side::index`].
pub const HAS_NEIGHBOUR: [u64; 4] = [
    ALL_SQUARES & !ROW_A,
    ALL_SQUARES & !COLUMN_6,
    ALL_SQUARES & !ROW_G,
    ALL_SQUARES & !COLUMN_0,
];

/// `EXIT_MASK[route][side]`: squares with an exit of that route type on that side.
pub const EXIT_MASK: [[u64; 4]; 2] = {
    let mut m = [[0u64; 4]; 2];
    let mut i = 0;
    while i < EXITS.len() {
        let e = EXITS[i];
        m[e.route as usize][e.side as usize] |= 1 << e.square.0;
        i += 1;
    }
    m
};

/// Moves every square of `mask` to its neighbour across `side`, dropping squares that would
/// leave the board.
#[inline]
pub const fn shift(mask: u64, side: Side) -> u64 {
    match side {
        Side::N => mask >> 7,
        Side::S => (mask << 7) & ALL_SQUARES,
        Side::E => (mask & !COLUMN_6) << 1,
        Side::W => (mask & !COLUMN_0) >> 1,
    }
}

/// The squares of a mask, ascending.
pub fn squares_of(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(Square(i))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_are_what_they_say() {
        for sq in Square::all() {
            assert_eq!(ROW_A & sq.bit() != 0, sq.row() == 0);
            assert_eq!(ROW_G & sq.bit() != 0, sq.row() == 6);
            assert_eq!(COLUMN_0 & sq.bit() != 0, sq.column() == 0);
            assert_eq!(COLUMN_6 & sq.bit() != 0, sq.column() == 6);
            assert_eq!(
                sq.is_centre(),
                (2..=4).contains(&sq.row()) && (2..=4).contains(&sq.column())
            );
            for side in Side::ALL {
                let moved = shift(sq.bit(), side);
                match sq.neighbour(side) {
                    Some(n) => assert_eq!(moved, n.bit()),
                    None => assert_eq!(moved, 0),
                }
                assert_eq!(
                    HAS_NEIGHBOUR[side.index()] & sq.bit() != 0,
                    sq.neighbour(side).is_some()
                );
            }
        }
        assert_eq!(CENTRE.count_ones(), 9);
    }

    #[test]
    fn exits_are_on_the_boundary() {
        assert_eq!(EXITS.len(), 12);
        for e in EXITS {
            assert_eq!(e.square.neighbour(e.side), None, "{e:?}");
            assert_eq!(e.square.exit(e.side), Some(e));
        }
        assert_eq!(
            "A3".parse::<Square>().unwrap().exit(Side::N).unwrap().route,
            Route::Railway
        );
        assert_eq!("A0".parse::<Square>().unwrap().exit(Side::N), None);
    }

    #[test]
    fn parse_and_print() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("H0".parse::<Square>().is_err());
        assert!("A7".parse::<Square>().is_err());
        assert!("a0".parse::<Square>().is_err());
    }
}
