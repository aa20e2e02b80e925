//! Placement strings and placement sequences: parse, print, well-formedness (§5.1, §5.2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::square::{Axis, Square, digit};
use crate::tile::{Code, Letter, Tile};

/// A well-formed placement string (§5.1): any 4-letter code and a square. Syntax only, so
/// `abcd00` is one even though `abcd` is not a tile. See [`Placement`] for a real tile.
///
/// ```
/// use metro::RawPlacement;
/// let raw: RawPlacement = "abcd00".parse().unwrap();
/// assert!(raw.code.tile().is_none());
/// assert!("aaaa08".parse::<RawPlacement>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawPlacement {
    /// The 4-letter code, possibly not a tile.
    pub code: Code,
    /// Where it goes.
    pub square: Square,
}

/// A tile of one of the 24 types on a square: a well-formed placement whose code is a tile.
///
/// ```
/// use metro::Placement;
/// let p: Placement = "cccc32".parse().unwrap();
/// assert_eq!((p.square.row(), p.square.col()), (3, 2));
/// assert_eq!(p.to_string(), "cccc32");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The tile placed.
    pub tile: Tile,
    /// Where it goes.
    pub square: Square,
}

impl Placement {
    /// `tile` on `square`.
    pub const fn new(tile: Tile, square: Square) -> Placement {
        Placement { tile, square }
    }
}

/// Why a string is not a (well-formed) placement.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    /// One of the first four characters is not a tile letter.
    #[error("character {position} ({found:?}) is not a tile letter a-d")]
    Letter {
        /// 0-based character index in the placement.
        position: usize,
        /// The character found.
        found: char,
    },
    /// The fifth or sixth character is not a digit 0–7.
    #[error("character {position} ({found:?}) is not a {axis} digit 0-7")]
    Digit {
        /// 0-based character index in the placement.
        position: usize,
        /// The character found.
        found: char,
        /// Whether it should give the row or the column.
        axis: Axis,
    },
    /// Not exactly six characters.
    #[error(
        "a placement is 6 characters (4 tile letters a-d, a row and a column digit 0-7), not {len}"
    )]
    Length {
        /// The number of characters found.
        len: usize,
    },
    /// A well-formed placement string whose code is not one of the 24 tiles.
    #[error(
        "{0} is not a tile: two of its tracks leave through the same side (0 copies in the deck)"
    )]
    NotATile(Code),
}

/// Parses the characters of one placement string (syntax only), checking them in order.
fn parse_raw(chars: impl IntoIterator<Item = char>) -> Result<RawPlacement, PlacementError> {
    let mut letters = [Letter::A; 4];
    let mut digits = [0u8; 2];
    let mut len = 0;
    for (position, found) in chars.into_iter().enumerate() {
        match position {
            0..4 => {
                letters[position] =
                    Letter::from_char(found).ok_or(PlacementError::Letter { position, found })?
            }
            4 | 5 => {
                let axis = if position == 4 {
                    Axis::Row
                } else {
                    Axis::Column
                };
                digits[position - 4] = digit(found).ok_or(PlacementError::Digit {
                    position,
                    found,
                    axis,
                })?;
            }
            _ => {}
        }
        len += 1;
    }
    match Square::new(digits[0], digits[1]) {
        Some(square) if len == 6 => Ok(RawPlacement {
            code: Code::from_letters(letters),
            square,
        }),
        _ => Err(PlacementError::Length { len }),
    }
}

impl FromStr for RawPlacement {
    type Err = PlacementError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_raw(s.chars())
    }
}

impl fmt::Display for RawPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.code, self.square)
    }
}

impl TryFrom<RawPlacement> for Placement {
    type Error = PlacementError;
    fn try_from(raw: RawPlacement) -> Result<Self, Self::Error> {
        let tile = raw.code.tile().ok_or(PlacementError::NotATile(raw.code))?;
        Ok(Placement {
            tile,
            square: raw.square,
        })
    }
}

impl From<Placement> for RawPlacement {
    fn from(p: Placement) -> Self {
        RawPlacement {
            code: p.tile.code(),
            square: p.square,
        }
    }
}

impl FromStr for Placement {
    type Err = PlacementError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<RawPlacement>()?.try_into()
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tile, self.square)
    }
}

impl Serialize for Placement {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Placement {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A well-formed placement sequence (§5.2): 0–60 placements of real tiles, no type more often
/// than its copies in the deck. Overlaps and legality are not checked here: a
/// [`Board`](crate::Board) built from it is what is known to be valid.
///
/// ```
/// use metro::Sequence;
/// let seq: Sequence = "aaaa00bbbb00".parse().unwrap(); // overlap is not checked here
/// assert_eq!(seq.len(), 2);
/// assert_eq!(seq.to_string(), "aaaa00bbbb00");
/// let err = "aaaa00aaaa01aaaa02aaaa03aaaa04".parse::<Sequence>().unwrap_err();
/// assert_eq!(err.index, 4);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sequence(Vec<Placement>);

/// Why a string is not a well-formed placement sequence, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("placement {index} ({placement:?}): {kind}")]
pub struct SequenceError {
    /// 0-based index of the offending 6-character chunk.
    pub index: usize,
    /// The chunk's text (shorter than 6 characters when the sequence is cut short).
    pub placement: String,
    /// What is wrong with it.
    pub kind: SequenceErrorKind,
}

/// What is wrong with one chunk of a sequence.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SequenceErrorKind {
    /// The chunk is not a well-formed placement of a tile (a bad character, or a non-tile code).
    #[error(transparent)]
    Placement(PlacementError),
    /// The sequence ends partway through a placement: its length is not a multiple of 6.
    #[error(
        "the sequence ends after {len} of this placement's 6 characters (its length is not a multiple of 6)"
    )]
    Truncated {
        /// The number of characters of the last chunk.
        len: usize,
    },
    /// More placements of a tile type than the deck has copies.
    #[error("{tile} is placed more often than its {copies} copies in the deck")]
    TooManyCopies {
        /// The tile type.
        tile: Tile,
        /// Its copies in the deck.
        copies: u8,
    },
}

impl Sequence {
    /// The empty sequence.
    pub const fn new() -> Sequence {
        Sequence(Vec::new())
    }

    /// The placements in order, checked against the deck counts.
    pub fn from_placements(placements: Vec<Placement>) -> Result<Sequence, SequenceError> {
        let mut counts = [0u8; 24];
        for (index, p) in placements.iter().enumerate() {
            count(&mut counts, index, *p)?;
        }
        Ok(Sequence(placements))
    }

    /// The placements in order.
    pub fn placements(&self) -> &[Placement] {
        &self.0
    }

    /// The number of placements.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no placements.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The placements in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Placement> {
        self.0.iter()
    }

    /// How many placements each tile type has, indexed by [`Tile::index`].
    pub fn counts(&self) -> [u8; 24] {
        let mut counts = [0u8; 24];
        for p in &self.0 {
            counts[p.tile.index()] += 1;
        }
        counts
    }

    /// The placements, consuming the sequence.
    pub fn into_placements(self) -> Vec<Placement> {
        self.0
    }
}

/// Counts placement `index`, failing if its tile is over its copies.
fn count(counts: &mut [u8; 24], index: usize, p: Placement) -> Result<(), SequenceError> {
    let c = &mut counts[p.tile.index()];
    if *c >= p.tile.copies() {
        return Err(SequenceError {
            index,
            placement: p.to_string(),
            kind: SequenceErrorKind::TooManyCopies {
                tile: p.tile,
                copies: p.tile.copies(),
            },
        });
    }
    *c += 1;
    Ok(())
}

impl FromStr for Sequence {
    type Err = SequenceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let mut placements = Vec::new();
        let mut counts = [0u8; 24];
        loop {
            let chunk: Vec<char> = chars.by_ref().take(6).collect();
            if chunk.is_empty() {
                return Ok(Sequence(placements));
            }
            let index = placements.len();
            let fail = |kind| SequenceError {
                index,
                placement: chunk.iter().collect(),
                kind,
            };
            let raw = parse_raw(chunk.iter().copied()).map_err(|e| match e {
                PlacementError::Length { len } => fail(SequenceErrorKind::Truncated { len }),
                e => fail(SequenceErrorKind::Placement(e)),
            })?;
            let p = Placement::try_from(raw).map_err(|e| fail(SequenceErrorKind::Placement(e)))?;
            count(&mut counts, index, p)?;
            placements.push(p);
        }
    }
}

impl fmt::Display for Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

impl<'a> IntoIterator for &'a Sequence {
    type Item = &'a Placement;
    type IntoIter = std::slice::Iter<'a, Placement>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Serialize for Sequence {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Sequence {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_errors_name_the_character() {
        let err = |s: &str| s.parse::<RawPlacement>().unwrap_err();
        assert_eq!(
            err("aaaa08"),
            PlacementError::Digit {
                position: 5,
                found: '8',
                axis: Axis::Column
            }
        );
        assert_eq!(
            err("aaaa80"),
            PlacementError::Digit {
                position: 4,
                found: '8',
                axis: Axis::Row
            }
        );
        assert_eq!(
            err("aaae00"),
            PlacementError::Letter {
                position: 3,
                found: 'e'
            }
        );
        assert_eq!(
            err("AAAA00"),
            PlacementError::Letter {
                position: 0,
                found: 'A'
            }
        );
        assert_eq!(err("aaaa0"), PlacementError::Length { len: 5 });
        assert_eq!(err("aaaa000"), PlacementError::Length { len: 7 });
        assert_eq!(
            err("ééé"),
            PlacementError::Letter {
                position: 0,
                found: 'é'
            }
        );
        assert_eq!(
            "abcd00".parse::<Placement>().unwrap_err(),
            PlacementError::NotATile("abcd".parse().unwrap())
        );
    }

    #[test]
    fn sequence_errors_name_the_placement() {
        let err = |s: &str| s.parse::<Sequence>().unwrap_err();
        let e = err("aaaa00b");
        assert_eq!((e.index, e.placement.as_str()), (1, "b"));
        assert_eq!(e.kind, SequenceErrorKind::Truncated { len: 1 });

        let e = err("aaaa00aaaé00");
        assert_eq!((e.index, e.placement.as_str()), (1, "aaaé00"));
        assert_eq!(
            e.kind,
            SequenceErrorKind::Placement(PlacementError::Letter {
                position: 3,
                found: 'é'
            })
        );

        let e = err("dddd00dddd11dddd22");
        assert_eq!((e.index, e.placement.as_str()), (2, "dddd22"));
        let dddd: Tile = "dddd".parse().unwrap();
        assert_eq!(
            e.kind,
            SequenceErrorKind::TooManyCopies {
                tile: dddd,
                copies: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "placement 2 (\"dddd22\"): dddd is placed more often than its 2 copies in the deck"
        );

        let e = err("abcd00");
        assert_eq!(
            e.kind,
            SequenceErrorKind::Placement(PlacementError::NotATile("abcd".parse().unwrap()))
        );
    }

    #[test]
    fn from_placements_checks_counts() {
        let p: Placement = "dddd00".parse().unwrap();
        assert!(Sequence::from_placements(vec![p, p]).is_ok());
        assert_eq!(
            Sequence::from_placements(vec![p, p, p]).unwrap_err().index,
            2
        );
    }
}
