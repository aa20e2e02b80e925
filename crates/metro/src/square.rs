//! Squares, sides, sets of squares, the 32 perimeter stations, players and station owners (§2).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// A side of a square or a tile (§3.1): 0 = top, 1 = right, 2 = bottom, 3 = left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Side 0, exits 0 and 1, toward row 0.
    Top = 0,
    /// Side 1, exits 2 and 3, toward column 7.
    Right = 1,
    /// Side 2, exits 4 and 5, toward row 7.
    Bottom = 2,
    /// Side 3, exits 6 and 7, toward column 0.
    Left = 3,
}

impl Side {
    /// The four sides in clockwise order from the top.
    pub const ALL: [Side; 4] = [Side::Top, Side::Right, Side::Bottom, Side::Left];

    /// The side's number, 0–3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with number `i mod 4`.
    pub const fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// The opposite side: a line leaving through `self` enters the neighbour through this side.
    pub const fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// The side's entry exit, the even exit `2i` (§3.1).
    pub const fn entry_exit(self) -> u8 {
        2 * self as u8
    }

    /// The side's way out, the odd exit `2i + 1` (§3.1).
    pub const fn way_out_exit(self) -> u8 {
        2 * self as u8 + 1
    }

    /// The one-letter name used in the rules' tables: T, R, B or L.
    pub const fn letter(self) -> char {
        match self {
            Side::Top => 'T',
            Side::Right => 'R',
            Side::Bottom => 'B',
            Side::Left => 'L',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
            Side::Left => "left",
        })
    }
}

/// One of the 64 squares of the 8×8 board, `(row, column)` with row 0 at the top.
///
/// Parsed and printed as two digits, row then column, as in a placement string: `"32"` is
/// row 3, column 2.
///
/// ```
/// use metro::Square;
/// let sq: Square = "32".parse().unwrap();
/// assert_eq!((sq.row(), sq.col()), (3, 2));
/// assert_eq!(sq.to_string(), "32");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// The four centre squares (3,3), (3,4), (4,3), (4,4): central stations that never hold a tile.
pub const CENTRE: SquareSet = SquareSet((1 << 27) | (1 << 28) | (1 << 35) | (1 << 36));

/// The 28 border squares: row or column 0 or 7.
pub const BORDER: SquareSet = SquareSet(0xFF81_8181_8181_81FF);

const COLUMN_0: u64 = 0x0101_0101_0101_0101;
const COLUMN_7: u64 = 0x8080_8080_8080_8080;

impl Square {
    /// Every square in row-major order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at `(row, col)`, or `None` unless both are 0–7.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < 8 && col < 8 {
            Some(Square(row * 8 + col))
        } else {
            None
        }
    }

    /// The square with row-major index `i` (`row * 8 + col`), or `None` unless `i < 64`.
    pub const fn from_index(i: u8) -> Option<Square> {
        if i < 64 { Some(Square(i)) } else { None }
    }

    /// Every square in row-major order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// The row-major index, `row * 8 + col`, 0–63.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, 0–7 (0 is the top row).
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The column, 0–7 (0 is the left column).
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// The square as a one-bit mask.
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Whether this is one of the four centre squares.
    pub const fn is_centre(self) -> bool {
        CENTRE.0 & self.bit() != 0
    }

    /// Whether this is a border square (row or column 0 or 7).
    pub const fn is_border(self) -> bool {
        BORDER.0 & self.bit() != 0
    }

    /// Whether `side` of this square faces a perimeter station (a board-facing side, §2).
    pub const fn is_board_facing(self, side: Side) -> bool {
        match side {
            Side::Top => self.row() == 0,
            Side::Right => self.col() == 7,
            Side::Bottom => self.row() == 7,
            Side::Left => self.col() == 0,
        }
    }

    /// The station that `side` of this square faces, if the side is board-facing.
    pub const fn station(self, side: Side) -> Option<Station> {
        if !self.is_board_facing(side) {
            return None;
        }
        let (r, c) = (self.row(), self.col());
        Some(Station(match side {
            Side::Top => 8 - c,
            Side::Left => 9 + r,
            Side::Bottom => 17 + c,
            Side::Right => 32 - r,
        }))
    }

    /// The orthogonal neighbour across `side`, or `None` at the edge of the board.
    pub const fn neighbour(self, side: Side) -> Option<Square> {
        if self.is_board_facing(side) {
            return None;
        }
        Some(Square(match side {
            Side::Top => self.0 - 8,
            Side::Right => self.0 + 1,
            Side::Bottom => self.0 + 8,
            Side::Left => self.0 - 1,
        }))
    }

    /// The square written as `(r,c)`, for messages.
    pub fn coords(self) -> impl fmt::Display {
        struct Coords(Square);
        impl fmt::Display for Coords {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "({},{})", self.0.row(), self.0.col())
            }
        }
        Coords(self)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row(), self.col())
    }
}

/// Which coordinate a digit of a square gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// The first digit.
    Row,
    /// The second digit.
    Column,
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axis::Row => "row",
            Axis::Column => "column",
        })
    }
}

/// A square that could not be parsed from two digits.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SquareError {
    /// A character that is not a digit 0–7.
    #[error("character {position} ({found:?}) is not a {axis} digit 0-7")]
    Digit {
        /// 0-based character index in the square.
        position: usize,
        /// The character found.
        found: char,
        /// Which coordinate the digit gives.
        axis: Axis,
    },
    /// Not exactly two characters.
    #[error("a square is 2 digits (row, column), not {len} characters")]
    Length {
        /// The number of characters found.
        len: usize,
    },
}

/// The value of a digit 0–7, if `c` is one.
pub(crate) fn digit(c: char) -> Option<u8> {
    match c {
        '0'..='7' => Some(c as u8 - b'0'),
        _ => None,
    }
}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut digits = [0u8; 2];
        let mut len = 0;
        for (position, found) in s.chars().enumerate() {
            if position < 2 {
                let axis = if position == 0 {
                    Axis::Row
                } else {
                    Axis::Column
                };
                digits[position] = digit(found).ok_or(SquareError::Digit {
                    position,
                    found,
                    axis,
                })?;
            }
            len += 1;
        }
        if len != 2 {
            return Err(SquareError::Length { len });
        }
        Ok(Square(digits[0] * 8 + digits[1]))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of squares as a 64-bit mask (bit `row * 8 + col`). Iterates in row-major order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> SquareSet {
        SquareSet(self.0 | sq.bit())
    }

    /// The number of squares.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The first square in row-major order.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The `n`-th square (0-based) in row-major order.
    pub fn nth(self, n: usize) -> Option<Square> {
        self.iter().nth(n)
    }

    /// The squares in row-major order.
    pub fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }

    /// The squares orthogonally next to a square of the set (never wrapping round the board).
    pub const fn neighbours(self) -> SquareSet {
        let b = self.0;
        SquareSet((b << 8) | (b >> 8) | ((b << 1) & !COLUMN_0) | ((b >> 1) & !COLUMN_7))
    }
}

impl std::ops::BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

impl std::ops::BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl std::ops::Not for SquareSet {
    type Output = SquareSet;
    fn not(self) -> SquareSet {
        SquareSet(!self.0)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        SquareSet(iter.into_iter().fold(0, |m, sq| m | sq.bit()))
    }
}

impl Serialize for SquareSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Iterator over a [`SquareSet`] in row-major order.
#[derive(Clone, Debug)]
pub struct SquareSetIter(u64);

impl Iterator for SquareSetIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareSetIter {}

/// One of the 32 perimeter stations, numbered 1–32 anticlockwise from the top-right corner (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Station(u8);

impl Station {
    /// Station `n`, or `None` unless `n` is 1–32.
    pub const fn new(n: u8) -> Option<Station> {
        if n >= 1 && n <= 32 {
            Some(Station(n))
        } else {
            None
        }
    }

    /// All 32 stations in order.
    pub fn all() -> impl Iterator<Item = Station> {
        (1..=32).map(Station)
    }

    /// The station's number, 1–32.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The border square the station faces.
    pub const fn square(self) -> Square {
        let s = self.0;
        Square(match s {
            1..=8 => 8 - s,
            9..=16 => (s - 9) * 8,
            17..=24 => 56 + (s - 17),
            _ => (32 - s) * 8 + 7,
        })
    }

    /// The side of [`Station::square`] that faces the station; its line enters there.
    pub const fn side(self) -> Side {
        match self.0 {
            1..=8 => Side::Top,
            9..=16 => Side::Left,
            17..=24 => Side::Bottom,
            _ => Side::Right,
        }
    }
}

impl fmt::Display for Station {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A station number that could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not a station number 1-32")]
pub struct StationError(pub String);

impl FromStr for Station {
    type Err = StationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<u8>()
            .ok()
            .and_then(Station::new)
            .ok_or_else(|| StationError(s.to_owned()))
    }
}

impl Serialize for Station {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Station {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        Station::new(n).ok_or_else(|| serde::de::Error::custom(StationError(n.to_string())))
    }
}

/// A player, P1…P6. Stored 0-based; printed and serialized by number (P1 is 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(u8);

impl Player {
    /// P1, who takes the first turn.
    pub const FIRST: Player = Player(0);

    /// The player with 0-based index `i` (P1 is 0), or `None` unless `i < 6`.
    pub const fn from_index(i: usize) -> Option<Player> {
        if i < 6 { Some(Player(i as u8)) } else { None }
    }

    /// The player numbered `n` (1–6), or `None`.
    pub const fn from_number(n: u8) -> Option<Player> {
        if n >= 1 && n <= 6 {
            Some(Player(n - 1))
        } else {
            None
        }
    }

    /// The 0-based index (P1 is 0): its position in a list of scores.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player's number, 1–6.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.number())
    }
}

impl Serialize for Player {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        Player::from_number(n)
            .ok_or_else(|| serde::de::Error::custom(format!("no player {n}: players are 1-6")))
    }
}

/// The number of players of a game, 2–6. It decides who owns which station (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerCount(u8);

/// A player count outside 2–6.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not a number of players: Metro has 2 to 6 players")]
pub struct PlayerCountError(pub String);

/// Stations owned by each player, for 2 to 6 players (§2).
const OWNERSHIP: [&[&[u8]]; 5] = [
    &[
        &[1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31],
        &[2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32],
    ],
    &[
        &[1, 4, 6, 11, 15, 20, 23, 25, 28, 31],
        &[2, 7, 9, 12, 14, 19, 22, 27, 29, 32],
        &[3, 5, 8, 10, 13, 18, 21, 24, 26, 30],
    ],
    &[
        &[4, 7, 11, 16, 20, 23, 27, 32],
        &[3, 8, 12, 15, 19, 24, 28, 31],
        &[1, 6, 10, 13, 18, 21, 25, 30],
        &[2, 5, 9, 14, 17, 22, 26, 29],
    ],
    &[
        &[1, 5, 10, 14, 22, 28],
        &[6, 12, 18, 23, 27, 32],
        &[3, 7, 15, 19, 25, 29],
        &[2, 9, 13, 21, 26, 30],
        &[4, 8, 11, 20, 24, 31],
    ],
    &[
        &[1, 5, 10, 19, 27],
        &[2, 11, 18, 25, 29],
        &[4, 8, 14, 21, 26],
        &[6, 15, 20, 24, 31],
        &[3, 9, 13, 23, 30],
        &[7, 12, 22, 28, 32],
    ],
];

/// `OWNER[players - 2][station]`: the owner's 0-based index, or `NOBODY`. Index 0 is unused.
const NOBODY: u8 = u8::MAX;
const OWNER: [[u8; 33]; 5] = {
    let mut table = [[NOBODY; 33]; 5];
    let mut n = 0;
    while n < 5 {
        let mut p = 0;
        while p < OWNERSHIP[n].len() {
            let mut i = 0;
            while i < OWNERSHIP[n][p].len() {
                table[n][OWNERSHIP[n][p][i] as usize] = p as u8;
                i += 1;
            }
            p += 1;
        }
        n += 1;
    }
    table
};

impl PlayerCount {
    /// `n` players, or `None` unless `n` is 2–6.
    pub const fn new(n: u8) -> Option<PlayerCount> {
        if n >= 2 && n <= 6 {
            Some(PlayerCount(n))
        } else {
            None
        }
    }

    /// Every player count, 2 to 6.
    pub fn all() -> impl Iterator<Item = PlayerCount> {
        (2..=6).map(PlayerCount)
    }

    /// The number of players.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The players P1…Pn in turn order.
    pub fn players(self) -> impl Iterator<Item = Player> {
        (0..self.0).map(Player)
    }

    /// Whether `player` takes part in a game of this many players.
    pub const fn contains(self, player: Player) -> bool {
        player.0 < self.0
    }

    /// The owner of `station`, or `None` for stations 16 and 17 with 3, 5 or 6 players.
    pub const fn owner(self, station: Station) -> Option<Player> {
        match OWNER[(self.0 - 2) as usize][station.0 as usize] {
            NOBODY => None,
            p => Some(Player(p)),
        }
    }

    /// The stations `player` owns, in increasing order (none if the player is not in the game).
    pub fn stations(self, player: Player) -> impl Iterator<Item = Station> + use<> {
        let owned: &'static [u8] = OWNERSHIP[(self.0 - 2) as usize]
            .get(player.index())
            .copied()
            .unwrap_or(&[]);
        owned.iter().map(|&s| Station(s))
    }
}

impl fmt::Display for PlayerCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for PlayerCount {
    type Err = PlayerCountError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<u8>()
            .ok()
            .and_then(PlayerCount::new)
            .ok_or_else(|| PlayerCountError(s.to_owned()))
    }
}

impl TryFrom<u8> for PlayerCount {
    type Error = PlayerCountError;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        PlayerCount::new(n).ok_or_else(|| PlayerCountError(n.to_string()))
    }
}

impl Serialize for PlayerCount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for PlayerCount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        PlayerCount::try_from(n).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stations_face_the_squares_of_the_table() {
        let sq = |r, c| Square::new(r, c).unwrap();
        let st = |n| Station::new(n).unwrap();
        assert_eq!(st(1).square(), sq(0, 7));
        assert_eq!(st(8).square(), sq(0, 0));
        assert_eq!(st(9).square(), sq(0, 0));
        assert_eq!(st(16).square(), sq(7, 0));
        assert_eq!(st(17).square(), sq(7, 0));
        assert_eq!(st(24).square(), sq(7, 7));
        assert_eq!(st(25).square(), sq(7, 7));
        assert_eq!(st(32).square(), sq(0, 7));
        for s in Station::all() {
            assert_eq!(s.square().station(s.side()), Some(s), "station {s}");
        }
    }

    #[test]
    fn corners_face_two_stations() {
        let faced = |r, c| -> Vec<u8> {
            let sq = Square::new(r, c).unwrap();
            Side::ALL
                .iter()
                .filter_map(|&s| sq.station(s))
                .map(Station::number)
                .collect()
        };
        assert_eq!(faced(0, 0), vec![8, 9]);
        assert_eq!(faced(0, 7), vec![1, 32]);
        assert_eq!(faced(7, 0), vec![17, 16]);
        assert_eq!(faced(7, 7), vec![25, 24]);
        assert_eq!(faced(3, 0), vec![12]);
        assert_eq!(faced(2, 2), Vec::<u8>::new());
    }

    #[test]
    fn ownership_covers_every_station_once() {
        for n in PlayerCount::all() {
            let mut seen = [0; 33];
            for p in n.players() {
                for s in n.stations(p) {
                    seen[s.number() as usize] += 1;
                    assert_eq!(n.owner(s), Some(p));
                }
            }
            for s in Station::all() {
                let unowned = matches!(n.get(), 3 | 5 | 6) && matches!(s.number(), 16 | 17);
                assert_eq!(
                    seen[s.number() as usize],
                    if unowned { 0 } else { 1 },
                    "{n} players, station {s}"
                );
                assert_eq!(n.owner(s).is_none(), unowned);
            }
        }
    }

    #[test]
    fn border_and_centre_masks() {
        assert_eq!(BORDER.len(), 28);
        assert_eq!(CENTRE.len(), 4);
        for sq in Square::all() {
            let (r, c) = (sq.row(), sq.col());
            assert_eq!(sq.is_border(), r == 0 || r == 7 || c == 0 || c == 7);
            assert_eq!(sq.is_centre(), (3..=4).contains(&r) && (3..=4).contains(&c));
        }
    }

    #[test]
    fn neighbours_do_not_wrap() {
        let sq = |r, c| Square::new(r, c).unwrap();
        let n: Vec<String> = SquareSet::EMPTY
            .with(sq(1, 7))
            .neighbours()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(n, ["07", "16", "27"]);
        let n: Vec<String> = SquareSet::EMPTY
            .with(sq(0, 0))
            .neighbours()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(n, ["01", "10"]);
        for s in Square::all() {
            let expected: SquareSet = Side::ALL.iter().filter_map(|&d| s.neighbour(d)).collect();
            assert_eq!(SquareSet::EMPTY.with(s).neighbours(), expected);
        }
    }

    #[test]
    fn square_parse_errors() {
        assert_eq!(
            "8".parse::<Square>(),
            Err(SquareError::Digit {
                position: 0,
                found: '8',
                axis: Axis::Row
            })
        );
        assert_eq!(
            "08".parse::<Square>(),
            Err(SquareError::Digit {
                position: 1,
                found: '8',
                axis: Axis::Column
            })
        );
        assert_eq!("0".parse::<Square>(), Err(SquareError::Length { len: 1 }));
        assert_eq!("000".parse::<Square>(), Err(SquareError::Length { len: 3 }));
        assert_eq!("77".parse::<Square>().unwrap().index(), 63);
    }
}
