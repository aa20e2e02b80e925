//! The four sides of a square or tile (§2 of the rules), shared by the squares (their
//! neighbours and exits) and the tiles (their edges and orientations). Public as
//! [`crate::square::Side`] and [`crate::Side`].

use std::fmt;

use serde::{Deserialize, Serialize};

/// A side of a square or tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// North: towards row A.
    N,
    /// East: towards column 6.
    E,
    /// South: towards row G.
    S,
    /// West: towards column 0.
    W,
}

impl Side {
    /// The four sides in the rules' order N, E, S, W.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// 0 for N, 1 for E, 2 for S, 3 for W.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side facing this one across a shared border.
    pub const fn opposite(self) -> Side {
        Side::ALL[(self as usize + 2) % 4]
    }

    /// The side's letter.
    pub const fn letter(self) -> char {
        match self {
            Side::N => 'N',
            Side::E => 'E',
            Side::S => 'S',
            Side::W => 'W',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
