//! One placement: a tile on a square in an orientation, written like `A4A12` (§5.1).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::square::{Side, Square};
use crate::tile::{Edge, Orientation, Source, Tile};

/// A tile placed on a square in an orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The tile placed.
    pub tile: Tile,
    /// Where it lies.
    pub square: Square,
    /// How it is turned (§4).
    pub orientation: Orientation,
}

impl Placement {
    /// A placement of `tile` on `square` in `orientation`.
    pub const fn new(tile: Tile, square: Square, orientation: Orientation) -> Placement {
        Placement {
            tile,
            square,
            orientation,
        }
    }

    /// The placed tile's edges `[N, E, S, W]`.
    pub fn edges(self) -> [Edge; 4] {
        self.tile.edges(self.orientation)
    }

    /// The edge on one side of the placed tile.
    pub fn edge(self, side: Side) -> Edge {
        self.edges()[side.index()]
    }

    /// The same placement in its tile's canonical orientation (§4).
    pub fn canonical(self) -> Placement {
        Placement {
            orientation: self.tile.canonical(self.orientation),
            ..self
        }
    }

    /// Whether the orientation is the canonical one of its class.
    pub fn is_canonical(self) -> bool {
        self.tile.canonical(self.orientation) == self.orientation
    }

    /// Parses the five characters of a placement, naming the first bad one.
    pub(crate) fn parse_chars(c: [char; 5]) -> Result<Placement, PlacementError> {
        let bad = |index: usize, expected: &'static str| PlacementError::Character {
            index,
            found: c[index],
            expected,
        };
        let digit = |ch: char| ch.to_digit(10).map_or(u8::MAX, |d| d as u8);
        let source = match c[0] {
            'A' => Source::A,
            'B' => Source::B,
            'S' => Source::S,
            'V' => Source::V,
            'L' => Source::L,
            _ => return Err(bad(0, "a source A, B or S")),
        };
        let tile = Tile::from_source(source, digit(c[1])).ok_or_else(|| {
            bad(
                1,
                match source {
                    Source::B => "a B face 0–2",
                    Source::V => "a river tile number 0–3",
                    _ => "a tile number 0–5",
                },
            )
        })?;
        let row = match c[2] {
            'A'..='G' => c[2] as u8 - b'A',
            _ => return Err(bad(2, "a row A–G")),
        };
        let square = Square::new(row, digit(c[3])).ok_or_else(|| bad(3, "a column 0–6"))?;
        let orientation =
            Orientation::new(digit(c[4])).ok_or_else(|| bad(4, "an orientation 0–7"))?;
        Ok(Placement {
            tile,
            square,
            orientation,
        })
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.tile, self.square, self.orientation)
    }
}

/// Why a placement string is not well-formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlacementError {
    #[error("a placement has exactly 5 characters, like A4A12; got {0}")]
    /// Not 5 characters: how many there are.
    Length(usize),
    #[error("character {index} is {found:?}, expected {expected}")]
    /// A character is out of place.
    Character {
        /// Its index (0–4).
        index: usize,
        /// The character found.
        found: char,
        /// What belongs there.
        expected: &'static str,
    },
}

impl FromStr for Placement {
    type Err = PlacementError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = ['\0'; 5];
        let mut n = 0;
        for c in s.chars() {
            if n < 5 {
                chars[n] = c;
            }
            n += 1;
        }
        if n != 5 {
            return Err(PlacementError::Length(n));
        }
        Placement::parse_chars(chars)
    }
}

impl Serialize for Placement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Placement {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Whether two placements are connected neighbours (§6.3): orthogonally adjacent squares whose
/// touching edges are non-blank and of the same type. Exits play no part.
pub fn connected_neighbours(p: Placement, q: Placement) -> bool {
    match p.square.side_towards(q.square) {
        Some(side) => {
            let (a, b) = (p.edge(side), q.edge(side.opposite()));
            a != Edge::Blank && a == b
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Placement {
        s.parse().unwrap()
    }

    #[test]
    fn well_formed_examples() {
        assert_eq!(p("B0A53").to_string(), "B0A53");
        assert_eq!(p("S3G26").square.to_string(), "G2");
        assert_eq!(p("B2C45").tile, Tile::B2);
        assert_eq!(p("S5G67").orientation.digit(), 7);
    }

    #[test]
    fn malformed_examples_name_the_character() {
        let err = |s: &str| s.parse::<Placement>().unwrap_err();
        assert!(matches!(
            err("B3C45"),
            PlacementError::Character {
                index: 1,
                found: '3',
                ..
            }
        ));
        assert!(matches!(
            err("A6A00"),
            PlacementError::Character { index: 1, .. }
        ));
        assert!(matches!(
            err("A3H00"),
            PlacementError::Character {
                index: 2,
                found: 'H',
                ..
            }
        ));
        assert!(matches!(
            err("A3A70"),
            PlacementError::Character { index: 3, .. }
        ));
        assert!(matches!(
            err("A3A08"),
            PlacementError::Character { index: 4, .. }
        ));
        assert!(matches!(
            err("a3A00"),
            PlacementError::Character {
                index: 0,
                found: 'a',
                ..
            }
        ));
        assert_eq!(err("A3A0"), PlacementError::Length(4));
        assert_eq!(err("A3A000"), PlacementError::Length(6));
        assert!(matches!(
            err("C1A10"),
            PlacementError::Character { index: 0, .. }
        ));
        assert!(matches!(
            err("A3é00"),
            PlacementError::Character {
                index: 2,
                found: 'é',
                ..
            }
        ));
        assert!(matches!(
            err("A３A00"),
            PlacementError::Character { index: 1, .. }
        ));
    }

    #[test]
    fn canonical_placement() {
        assert_eq!(p("A1A53").canonical(), p("A1A51"));
        assert!(!p("A1A53").is_canonical());
        assert!(p("B1A57").is_canonical());
    }
}
