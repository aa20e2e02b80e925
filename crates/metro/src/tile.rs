//! Tile codes, the 24 tile types, their tracks and the deck's copies (§3).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::square::Side;

/// One letter of a tile code (§3.2): how the track entering a side turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Letter {
    /// Straight on, to the opposite side (k = 2).
    A = 0,
    /// To the next side clockwise (k = 1).
    B = 1,
    /// To the next side counter-clockwise (k = 3).
    C = 2,
    /// A U-turn, back out of the same side (k = 0).
    D = 3,
}

impl Letter {
    const ALL: [Letter; 4] = [Letter::A, Letter::B, Letter::C, Letter::D];

    /// The letter `a`–`d`, if `c` is one.
    pub const fn from_char(c: char) -> Option<Letter> {
        match c {
            'a' => Some(Letter::A),
            'b' => Some(Letter::B),
            'c' => Some(Letter::C),
            'd' => Some(Letter::D),
            _ => None,
        }
    }

    /// The letter as a character.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// `k`: the way out is side `(i + k) mod 4` for the track entering side `i`.
    pub const fn turn(self) -> usize {
        match self {
            Letter::A => 2,
            Letter::B => 1,
            Letter::C => 3,
            Letter::D => 0,
        }
    }
}

/// Any 4-letter code over `a`–`d` (256 of them), whether or not it is a real tile.
///
/// This is what a well-formed placement string holds (§5.1): `abcd` is a code but not a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(u8);

impl Code {
    /// The code with these four letters (letter `i` for side `i`).
    pub const fn from_letters(letters: [Letter; 4]) -> Code {
        Code(
            letters[0] as u8
                | (letters[1] as u8) << 2
                | (letters[2] as u8) << 4
                | (letters[3] as u8) << 6,
        )
    }

    /// The letter for side `side`.
    pub const fn letter(self, side: Side) -> Letter {
        Letter::ALL[((self.0 >> (2 * side as u8)) & 3) as usize]
    }

    /// The side a track entering through `side` leaves by: `(side + k) mod 4`.
    pub const fn way_out(self, side: Side) -> Side {
        Side::from_index(side.index() + self.letter(side).turn())
    }

    /// The tile type with this code, or `None` if two tracks would leave through the same side.
    pub const fn tile(self) -> Option<Tile> {
        match CODE_TO_TILE[self.0 as usize] {
            NOT_A_TILE => None,
            t => Some(Tile(t)),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in Side::ALL {
            write!(f, "{}", self.letter(side).to_char())?;
        }
        Ok(())
    }
}

/// A tile code that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CodeError {
    /// A character that is not a letter `a`–`d`.
    #[error("character {position} ({found:?}) is not a tile letter a-d")]
    Letter {
        /// 0-based character index.
        position: usize,
        /// The character found.
        found: char,
    },
    /// Not exactly four characters.
    #[error("a tile code is 4 letters a-d, not {len} characters")]
    Length {
        /// The number of characters found.
        len: usize,
    },
}

impl FromStr for Code {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut letters = [Letter::A; 4];
        let mut len = 0;
        for (position, found) in s.chars().enumerate() {
            if position < 4 {
                letters[position] =
                    Letter::from_char(found).ok_or(CodeError::Letter { position, found })?;
            }
            len += 1;
        }
        if len != 4 {
            return Err(CodeError::Length { len });
        }
        Ok(Code::from_letters(letters))
    }
}

/// One of the 24 tile types of the deck (§3.3). A small `Copy` index into a constant table.
///
/// ```
/// use metro::{Side, Tile};
/// let t: Tile = "cbaa".parse().unwrap();
/// assert_eq!(t.copies(), 4);
/// // §3.2: cbaa has tracks 0→7, 2→5, 4→1, 6→3.
/// assert_eq!(t.tracks(), [(0, 7), (2, 5), (4, 1), (6, 3)]);
/// assert_eq!(t.way_out(Side::Top), Side::Left);
/// assert!("abcd".parse::<Tile>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

/// The 24 tile types in the order of the table in §3.3, with their copies in the deck of 60.
const CATALOGUE: [(&str, u8); 24] = [
    ("aacb", 4),
    ("cbaa", 4),
    ("acba", 4),
    ("baac", 4),
    ("aaaa", 4),
    ("cbcb", 3),
    ("bcbc", 3),
    ("cccc", 2),
    ("bbbb", 2),
    ("dacc", 2),
    ("cdac", 2),
    ("ccda", 2),
    ("accd", 2),
    ("dbba", 2),
    ("adbb", 2),
    ("badb", 2),
    ("bbad", 2),
    ("ddbc", 2),
    ("cddb", 2),
    ("bcdd", 2),
    ("dbcd", 2),
    ("adad", 2),
    ("dada", 2),
    ("dddd", 2),
];

/// The number of tiles in the deck.
pub const DECK_SIZE: usize = 60;

const NOT_A_TILE: u8 = u8::MAX;

const fn code_of(s: &str) -> Code {
    let b = s.as_bytes();
    let mut letters = [Letter::A; 4];
    let mut i = 0;
    while i < 4 {
        letters[i] = Letter::ALL[(b[i] - b'a') as usize];
        i += 1;
    }
    Code::from_letters(letters)
}

const CODES: [Code; 24] = {
    let mut codes = [Code(0); 24];
    let mut t = 0;
    while t < 24 {
        codes[t] = code_of(CATALOGUE[t].0);
        t += 1;
    }
    codes
};

const CODE_TO_TILE: [u8; 256] = {
    let mut table = [NOT_A_TILE; 256];
    let mut t = 0;
    while t < 24 {
        table[CODES[t].0 as usize] = t as u8;
        t += 1;
    }
    table
};

/// `WAY_OUT[tile][entry side]`: the side the track leaves by.
const WAY_OUT: [[Side; 4]; 24] = {
    let mut table = [[Side::Top; 4]; 24];
    let mut t = 0;
    while t < 24 {
        let mut s = 0;
        while s < 4 {
            table[t][s] = CODES[t].way_out(Side::from_index(s));
            s += 1;
        }
        t += 1;
    }
    table
};

impl Tile {
    /// The 24 tile types in the order of §3.3.
    pub const ALL: [Tile; 24] = {
        let mut all = [Tile(0); 24];
        let mut t = 0;
        while t < 24 {
            all[t] = Tile(t as u8);
            t += 1;
        }
        all
    };

    /// The tile's position in [`Tile::ALL`], 0–23.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The tile at position `i` of [`Tile::ALL`], or `None` unless `i < 24`.
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < 24 { Some(Tile(i as u8)) } else { None }
    }

    /// The tile's 4-letter code.
    pub const fn code(self) -> Code {
        CODES[self.0 as usize]
    }

    /// The number of copies of this type in the deck of 60.
    pub const fn copies(self) -> u8 {
        CATALOGUE[self.0 as usize].1
    }

    /// The side a line entering through `entry` leaves by.
    #[inline]
    pub const fn way_out(self, entry: Side) -> Side {
        WAY_OUT[self.0 as usize][entry as usize]
    }

    /// The four tracks as (entry exit, way-out exit) pairs, entries 0, 2, 4, 6 (§3.3).
    pub fn tracks(self) -> [(u8, u8); 4] {
        Side::ALL.map(|s| (s.entry_exit(), self.way_out(s).way_out_exit()))
    }
}

/// A tile type with everything needed to draw it: its code, its copies in the deck, and its four
/// tracks. Serializable, so a client can draw tiles from the engine's own table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TileInfo {
    /// The tile's code.
    pub code: Tile,
    /// Its copies in the deck.
    pub copies: u8,
    /// The four tracks as (entry exit, way-out exit), entries 0, 2, 4, 6 (§3.1).
    pub tracks: [(u8, u8); 4],
    /// For each entry side (top, right, bottom, left), the side the track leaves by.
    pub way_out: [Side; 4],
}

impl Tile {
    /// The tile's entry in the catalogue.
    pub fn info(self) -> TileInfo {
        TileInfo {
            code: self,
            copies: self.copies(),
            tracks: self.tracks(),
            way_out: Side::ALL.map(|s| self.way_out(s)),
        }
    }

    /// The whole catalogue of §3.3: the 24 types in order.
    pub fn catalogue() -> [TileInfo; 24] {
        Tile::ALL.map(Tile::info)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(CATALOGUE[self.0 as usize].0)
    }
}

/// A string that is not one of the 24 tile types.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TileError {
    /// Not a 4-letter code at all.
    #[error(transparent)]
    Code(#[from] CodeError),
    /// A code whose tracks do not leave through four different sides.
    #[error(
        "{0} is not a tile: two of its tracks leave through the same side (0 copies in the deck)"
    )]
    NotATile(Code),
}

impl FromStr for Tile {
    type Err = TileError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let code: Code = s.parse()?;
        code.tile().ok_or(TileError::NotATile(code))
    }
}

impl TryFrom<Code> for Tile {
    type Error = TileError;
    fn try_from(code: Code) -> Result<Self, Self::Error> {
        code.tile().ok_or(TileError::NotATile(code))
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(CATALOGUE[self.0 as usize].0)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tracks column of the table in §3.3, written out by hand.
    const TRACKS: [(&str, &str); 24] = [
        ("aacb", "0→5 2→7 4→3 6→1"),
        ("cbaa", "0→7 2→5 4→1 6→3"),
        ("acba", "0→5 2→1 4→7 6→3"),
        ("baac", "0→3 2→7 4→1 6→5"),
        ("aaaa", "0→5 2→7 4→1 6→3"),
        ("cbcb", "0→7 2→5 4→3 6→1"),
        ("bcbc", "0→3 2→1 4→7 6→5"),
        ("cccc", "0→7 2→1 4→3 6→5"),
        ("bbbb", "0→3 2→5 4→7 6→1"),
        ("dacc", "0→1 2→7 4→3 6→5"),
        ("cdac", "0→7 2→3 4→1 6→5"),
        ("ccda", "0→7 2→1 4→5 6→3"),
        ("accd", "0→5 2→1 4→3 6→7"),
        ("dbba", "0→1 2→5 4→7 6→3"),
        ("adbb", "0→5 2→3 4→7 6→1"),
        ("badb", "0→3 2→7 4→5 6→1"),
        ("bbad", "0→3 2→5 4→1 6→7"),
        ("ddbc", "0→1 2→3 4→7 6→5"),
        ("cddb", "0→7 2→3 4→5 6→1"),
        ("bcdd", "0→3 2→1 4→5 6→7"),
        ("dbcd", "0→1 2→5 4→3 6→7"),
        ("adad", "0→5 2→3 4→1 6→7"),
        ("dada", "0→1 2→7 4→5 6→3"),
        ("dddd", "0→1 2→3 4→5 6→7"),
    ];

    #[test]
    fn tracks_match_the_table() {
        for (t, (code, tracks)) in Tile::ALL.iter().zip(TRACKS) {
            assert_eq!(t.to_string(), code);
            let printed: Vec<String> = t.tracks().iter().map(|(a, b)| format!("{a}→{b}")).collect();
            assert_eq!(printed.join(" "), tracks, "{code}");
        }
    }

    #[test]
    fn catalogue_serializes_for_a_client() {
        let json = serde_json::to_string(&Tile::catalogue()[1]).unwrap();
        assert_eq!(
            json,
            r#"{"code":"cbaa","copies":4,"tracks":[[0,7],[2,5],[4,1],[6,3]],"way_out":["left","bottom","top","right"]}"#
        );
    }

    #[test]
    fn worked_example_cbaa() {
        // §3.2: 0→7, 2→5, 4→1, 6→3.
        let t: Tile = "cbaa".parse().unwrap();
        assert_eq!(t.tracks(), [(0, 7), (2, 5), (4, 1), (6, 3)]);
    }

    #[test]
    fn exactly_24_codes_are_tiles_and_they_are_the_deck_types() {
        let mut real = 0;
        for i in 0..=255u8 {
            let code = Code(i);
            let mut sides = [false; 4];
            for s in Side::ALL {
                sides[code.way_out(s).index()] = true;
            }
            let is_real = sides.iter().all(|&x| x);
            assert_eq!(code.tile().is_some(), is_real, "{code}");
            if let Some(t) = code.tile() {
                assert_eq!(t.code(), code);
                assert_eq!(t.to_string(), code.to_string());
                real += 1;
            }
        }
        assert_eq!(real, 24);
    }

    #[test]
    fn deck_has_60_tiles() {
        let total: usize = Tile::ALL.iter().map(|t| t.copies() as usize).sum();
        assert_eq!(total, DECK_SIZE);
    }

    #[test]
    fn parse_errors_name_the_character() {
        assert_eq!(
            "abcd".parse::<Tile>(),
            Err(TileError::NotATile("abcd".parse().unwrap()))
        );
        assert_eq!(
            "abce".parse::<Tile>(),
            Err(TileError::Code(CodeError::Letter {
                position: 3,
                found: 'e'
            }))
        );
        assert_eq!(
            "Aaaa".parse::<Tile>(),
            Err(TileError::Code(CodeError::Letter {
                position: 0,
                found: 'A'
            }))
        );
        assert_eq!(
            "aaa".parse::<Tile>(),
            Err(TileError::Code(CodeError::Length { len: 3 }))
        );
        assert_eq!(
            "aaaaa".parse::<Tile>(),
            Err(TileError::Code(CodeError::Length { len: 5 }))
        );
        assert_eq!("".parse::<Code>(), Err(CodeError::Length { len: 0 }));
    }
}
