//! The board of placed tiles, and the legality of a placement against it (§6).

use std::fmt;

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::placement::{Placement, Sequence};
use crate::square::{BORDER, CENTRE, Side, Square, SquareSet, Station};
use crate::tile::{DECK_SIZE, Tile};

/// The placed tiles of a valid sequence: every tile on it was placed legally (§6.2).
///
/// Squares hold tiles by index and occupancy is a 64-bit mask, so a board is 72 bytes and
/// `Copy`. The only way to add a tile is [`Board::place`], which checks §6.1.
///
/// ```
/// use metro::{Board, Illegal, Sequence};
/// let seq: Sequence = "aaaa03aaaa13".parse().unwrap();
/// let mut board = Board::from_sequence(&seq).unwrap();
/// assert_eq!(board.len(), 2);
/// assert!(board.place("aaaa23".parse().unwrap()).is_ok());
/// let err = board.place("aaaa33".parse().unwrap()).unwrap_err();
/// assert_eq!(err.reason, Illegal::Centre);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; 64],
    occupied: u64,
}

const EMPTY: u8 = u8::MAX;

/// `SHORT[tile]`: the squares where the tile has a track from a board-facing side to a
/// board-facing side (§6.1, short(T,r,c)).
const SHORT: [u64; 24] = {
    let mut table = [0u64; 24];
    let mut t = 0;
    while t < 24 {
        let tile = Tile::ALL[t];
        let mut i = 0;
        while i < 64 {
            if station_link_at(tile, Square::ALL[i]).is_some() {
                table[t] |= 1 << i;
            }
            i += 1;
        }
        t += 1;
    }
    table
};

/// The first track of `tile` at `sq` that enters through a board-facing side and leaves through
/// one, as the two stations it links (the same station for a U-turn).
const fn station_link_at(tile: Tile, sq: Square) -> Option<(Station, Station)> {
    let mut i = 0;
    while i < 4 {
        let entry = Side::ALL[i];
        let out = tile.way_out(entry);
        if let (Some(from), Some(to)) = (sq.station(entry), sq.station(out)) {
            return Some((from, to));
        }
        i += 1;
    }
    None
}

impl Tile {
    /// The squares where this tile would be short: a track of it would link a station to itself
    /// or to the other station of a corner, in one tile (§6.1).
    pub const fn short_squares(self) -> SquareSet {
        SquareSet(SHORT[self.index()])
    }

    /// The stations linked by this tile's one-tile station-to-station track at `sq`, if it is
    /// short there.
    pub const fn station_link(self, sq: Square) -> Option<(Station, Station)> {
        station_link_at(self, sq)
    }
}

/// The rule of §6.1 a placement breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum Illegal {
    /// Rule 1: the square already holds a tile.
    #[error("the square already holds {by}")]
    Occupied {
        /// The tile already there.
        by: Tile,
    },
    /// Rule 1: the square is a centre square (a central station).
    #[error("the square is a centre square, a central station that never holds a tile")]
    Centre,
    /// Rule 2: the square is not a border square and no orthogonal neighbour holds a tile.
    #[error(
        "the square is not on the border and none of its four orthogonal neighbours holds a tile"
    )]
    NotTouching,
    /// Rule 3: the tile would link a station to itself or to the corner's other station in one
    /// tile, and the same tile has a candidate square where it would not.
    #[error(
        "a track links station {from} to {} in one tile, and the tile has a square where it \
         does not, such as {}",
        if from == to { "itself".to_string() } else { format!("station {to}") },
        instead.coords()
    )]
    AvoidableStationLink {
        /// The station the short track starts from.
        from: Station,
        /// The station it reaches (equal to `from` for a U-turn).
        to: Station,
        /// The first candidate square (row-major) where the tile is not short.
        instead: Square,
    },
}

impl Illegal {
    /// A short, stable name for the rule broken: `occupied`, `centre`, `not_touching` or
    /// `avoidable_station_link`.
    pub const fn name(self) -> &'static str {
        match self {
            Illegal::Occupied { .. } => "occupied",
            Illegal::Centre => "centre",
            Illegal::NotTouching => "not_touching",
            Illegal::AvoidableStationLink { .. } => "avoidable_station_link",
        }
    }

    /// The rule broken, for a person: its number in §6.1 and what it asks.
    pub const fn rule(self) -> &'static str {
        match self {
            Illegal::Occupied { .. } => "§6.1 rule 1 (a free square)",
            Illegal::Centre => "§6.1 rule 1 (not a centre square)",
            Illegal::NotTouching => "§6.1 rule 2 (touching)",
            Illegal::AvoidableStationLink { .. } => {
                "§6.1 rule 3 (no avoidable one-tile station-to-station track)"
            }
        }
    }
}

/// A placement that is illegal on a board, with the rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[error("{placement} breaks {} at {}: {reason}", reason.rule(), placement.square.coords())]
pub struct IllegalPlacement {
    /// The placement tried.
    pub placement: Placement,
    /// The rule it breaks.
    pub reason: Illegal,
}

/// A well-formed sequence that is not valid: the first illegal placement (§6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[error(
    "placement {index} ({placement}) breaks {} at {}: {reason}",
    reason.rule(),
    placement.square.coords()
)]
pub struct InvalidSequence {
    /// 0-based index of the first illegal placement.
    pub index: usize,
    /// That placement.
    pub placement: Placement,
    /// The rule it breaks.
    pub reason: Illegal,
}

impl Board {
    /// The empty board.
    pub const fn new() -> Board {
        Board {
            cells: [EMPTY; 64],
            occupied: 0,
        }
    }

    /// The board of a well-formed sequence, if every placement is legal in turn (§6.2).
    pub fn from_sequence(sequence: &Sequence) -> Result<Board, InvalidSequence> {
        let mut board = Board::new();
        for (index, &placement) in sequence.iter().enumerate() {
            board.place(placement).map_err(|e| InvalidSequence {
                index,
                placement,
                reason: e.reason,
            })?;
        }
        Ok(board)
    }

    /// The tile on `sq`, if any.
    #[inline]
    pub fn tile(&self, sq: Square) -> Option<Tile> {
        Tile::from_index(self.cells[sq.index()] as usize)
    }

    /// The occupied squares.
    pub const fn occupied(&self) -> SquareSet {
        SquareSet(self.occupied)
    }

    /// The number of tiles placed.
    pub const fn len(&self) -> usize {
        self.occupied.count_ones() as usize
    }

    /// Whether no tile is placed.
    pub const fn is_empty(&self) -> bool {
        self.occupied == 0
    }

    /// Whether all 60 tiles are placed (every square but the centre is occupied).
    pub const fn is_full(&self) -> bool {
        self.len() == DECK_SIZE
    }

    /// The placed tiles in row-major order of their squares.
    pub fn tiles(&self) -> impl Iterator<Item = (Square, Tile)> + '_ {
        self.occupied()
            .iter()
            .filter_map(|sq| Some((sq, self.tile(sq)?)))
    }

    /// Whether `sq` is touching (§6.1): a border square, or orthogonally next to a tile.
    pub const fn is_touching(&self, sq: Square) -> bool {
        (BORDER.0 | SquareSet(self.occupied).neighbours().0) & sq.bit() != 0
    }

    /// candidates(occ) of §6.1: free, not centre, touching.
    #[inline]
    pub const fn candidates(&self) -> SquareSet {
        let occ = SquareSet(self.occupied);
        SquareSet(!self.occupied & !CENTRE.0 & (BORDER.0 | occ.neighbours().0))
    }

    /// Every square where `tile` may legally be placed (§6.1), computed for all squares at once.
    ///
    /// ```
    /// use metro::{Board, Tile};
    /// let dada: Tile = "dada".parse().unwrap();
    /// // §9.2: on the empty board, dada is legal exactly at (1–6, 0) and (1–6, 7).
    /// assert_eq!(Board::new().legal_squares(dada).len(), 12);
    /// ```
    #[inline]
    pub const fn legal_squares(&self, tile: Tile) -> SquareSet {
        let candidates = self.candidates().0;
        let not_short = candidates & !SHORT[tile.index()];
        SquareSet(if not_short != 0 {
            not_short
        } else {
            candidates
        })
    }

    /// Checks `placement` against §6.1, naming the first rule it breaks.
    pub fn check(&self, placement: Placement) -> Result<(), Illegal> {
        let Placement { tile, square } = placement;
        if let Some(by) = self.tile(square) {
            return Err(Illegal::Occupied { by });
        }
        if square.is_centre() {
            return Err(Illegal::Centre);
        }
        if !self.is_touching(square) {
            return Err(Illegal::NotTouching);
        }
        if let Some((from, to)) = tile.station_link(square)
            && let Some(instead) = (self.candidates() & !tile.short_squares()).first()
        {
            return Err(Illegal::AvoidableStationLink { from, to, instead });
        }
        Ok(())
    }

    /// Whether `placement` is legal (§6.1).
    #[inline]
    pub const fn is_legal(&self, placement: Placement) -> bool {
        self.legal_squares(placement.tile)
            .contains(placement.square)
    }

    /// Places a tile on a free square without checking §6.1: for look-ahead over placements
    /// already known to be legal (the AI's simulations).
    #[inline]
    pub(crate) fn place_unchecked(&mut self, placement: Placement) {
        self.cells[placement.square.index()] = placement.tile.index() as u8;
        self.occupied |= placement.square.bit();
    }

    /// Places a tile if it is legal (§6.1); otherwise the board is unchanged.
    pub fn place(&mut self, placement: Placement) -> Result<(), IllegalPlacement> {
        self.check(placement)
            .map_err(|reason| IllegalPlacement { placement, reason })?;
        self.cells[placement.square.index()] = placement.tile.index() as u8;
        self.occupied |= placement.square.bit();
        Ok(())
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

/// Eight lines, one per row: tile codes, `....` for an empty square, `XXXX` for the centre.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let sq = Square::new(row, col).ok_or(fmt::Error)?;
                if col > 0 {
                    f.write_str(" ")?;
                }
                match self.tile(sq) {
                    Some(t) => write!(f, "{t}")?,
                    None if sq.is_centre() => f.write_str("XXXX")?,
                    None => f.write_str("....")?,
                }
            }
            if row < 7 {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\n{self}\n)")
    }
}

/// Serialized as 8 rows of 8 squares, each a tile code or `null`.
impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut rows = s.serialize_seq(Some(8))?;
        for row in 0..8u8 {
            let cells: Vec<Option<Tile>> = (0..8)
                .map(|col| Square::new(row, col).and_then(|sq| self.tile(sq)))
                .collect();
            rows.serialize_element(&cells)?;
        }
        rows.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn short_squares_match_the_table_of_6_1() {
        for t in Tile::ALL {
            let l: Vec<char> = t.to_string().chars().collect();
            let any = |i: usize, set: &str| set.contains(l[i]);
            for sq in Square::all() {
                let (r, c) = (sq.row(), sq.col());
                let expected = match (r, c) {
                    (0, 0) => any(0, "cd") || any(3, "bd"),
                    (0, 7) => any(0, "bd") || any(1, "cd"),
                    (7, 7) => any(1, "bd") || any(2, "cd"),
                    (7, 0) => any(2, "bd") || any(3, "cd"),
                    (0, _) => l[0] == 'd',
                    (_, 7) => l[1] == 'd',
                    (7, _) => l[2] == 'd',
                    (_, 0) => l[3] == 'd',
                    _ => false,
                };
                assert_eq!(t.short_squares().contains(sq), expected, "{t} at {sq}");
            }
        }
    }

    #[test]
    fn station_links_name_the_stations() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let st = |n| Station::new(n).unwrap();
        assert_eq!(tile("cccc").station_link(sq("00")), Some((st(8), st(9))));
        assert_eq!(tile("dada").station_link(sq("03")), Some((st(5), st(5))));
        assert_eq!(tile("dada").station_link(sq("30")), None);
    }

    #[test]
    fn messages_name_the_rule() {
        let board = Board::new();
        let err = Board::new().place("cccc00".parse().unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cccc00 breaks §6.1 rule 3 (no avoidable one-tile station-to-station track) at (0,0): \
             a track links station 8 to station 9 in one tile, and the tile has a square where it \
             does not, such as (0,1)"
        );
        let err = board.check("dada03".parse().unwrap()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("a track links station 5 to itself"),
            "{err}"
        );
        assert_eq!(err.name(), "avoidable_station_link");
    }

    #[test]
    fn display_shows_the_grid() {
        let mut board = Board::new();
        board.place("aaaa00".parse().unwrap()).unwrap();
        let text = board.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8);
        assert!(lines[0].starts_with("aaaa ...."));
        assert_eq!(lines[3], ".... .... .... XXXX XXXX .... .... ....");
    }
}
