//! Board strings (§5.2), the board they build, and the legality of a placement (§6).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::placement::{Placement, PlacementError};
use crate::square::{ALL_SQUARES, EXIT_MASK, Exit, SQUARES, Side, Square, shift, squares_of};
use crate::tile::{Edge, Orientation, Route, Tile};

/// The most placements a board string may hold: 7 rounds × 4 dice + 3 specials.
pub const MAX_PLACEMENTS: usize = 31;
/// The most specials a board string may hold.
pub const MAX_SPECIALS: usize = 3;

/// A well-formed board string (§5.2): 1 to 31 placements, at most 3 of them specials.
///
/// Well-formedness is syntax only: the placements may overlap or be illegal. Build a [`Board`]
/// from it to check the rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sequence(Vec<Placement>);

impl Sequence {
    /// The placements in order.
    pub fn placements(&self) -> &[Placement] {
        &self.0
    }

    /// Builds a well-formed sequence from placements, checking the count and the specials.
    pub fn new(placements: Vec<Placement>) -> Result<Sequence, SequenceError> {
        if placements.is_empty() {
            return Err(SequenceError::Empty);
        }
        if placements.len() > MAX_PLACEMENTS {
            return Err(SequenceError::TooMany {
                count: placements.len(),
            });
        }
        let mut specials = 0;
        for (index, p) in placements.iter().enumerate() {
            if p.tile.is_special() {
                specials += 1;
                if specials > MAX_SPECIALS {
                    return Err(SequenceError::TooManySpecials {
                        index,
                        placement: p.to_string(),
                    });
                }
            }
        }
        Ok(Sequence(placements))
    }
}

impl fmt::Display for Sequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|p| write!(f, "{p}"))
    }
}

/// Why a board string is not well-formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SequenceError {
    #[error(
        "a board string holds 1 to 31 placements; the empty string is the empty board only where a board is expected"
    )]
    /// The empty string (the empty board is only accepted where a board is expected).
    Empty,
    #[error("placement {index} ({placement:?}): {error}")]
    /// A placement is not well-formed.
    Placement {
        /// Its index in the board string.
        index: usize,
        /// Its text.
        placement: String,
        /// What is wrong with it.
        error: PlacementError,
    },
    #[error(
        "the string ends inside placement {index} ({placement:?}): a board string is a multiple of 5 characters"
    )]
    /// The string ends inside a placement: its index and the characters there are.
    Truncated {
        /// Its index.
        index: usize,
        /// The placement.
        placement: String,
    },
    #[error("{count} placements: a board holds at most 31 (7 rounds of 4 dice and 3 specials)")]
    /// More than 31 placements: how many.
    TooMany {
        /// How many placements there are.
        count: usize,
    },
    #[error("placement {index} ({placement}) is a fourth special: a board holds at most 3")]
    /// A fourth special: its index and text.
    TooManySpecials {
        /// Its index.
        index: usize,
        /// The placement.
        placement: String,
    },
}

impl SequenceError {
    /// The index of the placement at fault, when one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            SequenceError::Empty => None,
            SequenceError::TooMany { .. } => Some(MAX_PLACEMENTS),
            SequenceError::Placement { index, .. }
            | SequenceError::Truncated { index, .. }
            | SequenceError::TooManySpecials { index, .. } => Some(*index),
        }
    }

    /// What is wrong, without the index and text of the placement at fault.
    pub fn reason(&self) -> String {
        match self {
            SequenceError::Placement { error, .. } => error.to_string(),
            SequenceError::Truncated { .. } => {
                "the string ends inside this placement: a board string is a multiple of 5 characters".into()
            }
            SequenceError::TooManySpecials { .. } => "a fourth special: a board holds at most 3".into(),
            SequenceError::Empty | SequenceError::TooMany { .. } => self.to_string(),
        }
    }

    /// The text of the placement at fault, when one is.
    pub fn placement(&self) -> Option<&str> {
        match self {
            SequenceError::Empty | SequenceError::TooMany { .. } => None,
            SequenceError::Placement { placement, .. }
            | SequenceError::Truncated { placement, .. }
            | SequenceError::TooManySpecials { placement, .. } => Some(placement),
        }
    }
}

impl FromStr for Sequence {
    type Err = SequenceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(SequenceError::Empty);
        }
        if s.is_ascii() {
            // Fast path: one byte a character.
            let count = s.len().div_ceil(5);
            Sequence::from_chunks(
                count,
                s.as_bytes().chunks(5).map(|c| c.iter().map(|&b| b as char)),
            )
        } else {
            let chars: Vec<char> = s.chars().collect();
            Sequence::from_chunks(
                chars.len().div_ceil(5),
                chars.chunks(5).map(|c| c.iter().copied()),
            )
        }
    }
}

impl Sequence {
    /// Parses chunks of up to five characters, `count` of them, naming the first bad one.
    fn from_chunks<C: Iterator<Item = char> + Clone>(
        count: usize,
        chunks: impl Iterator<Item = C>,
    ) -> Result<Sequence, SequenceError> {
        let mut placements = Vec::with_capacity(count.min(MAX_PLACEMENTS));
        for (index, chunk) in chunks.enumerate() {
            let text = || chunk.clone().collect::<String>();
            let mut chars = ['\0'; 5];
            let mut n = 0;
            for (slot, c) in chars.iter_mut().zip(chunk.clone()) {
                *slot = c;
                n += 1;
            }
            if n < 5 {
                return Err(SequenceError::Truncated {
                    index,
                    placement: text(),
                });
            }
            if index == MAX_PLACEMENTS {
                return Err(SequenceError::TooMany { count });
            }
            let p = Placement::parse_chars(chars).map_err(|error| SequenceError::Placement {
                index,
                placement: text(),
                error,
            })?;
            placements.push(p);
        }
        Sequence::new(placements)
    }
}

/// Why a placement is illegal on a board (§6.1), in the rules' order of precedence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum Illegal {
    #[error("square {square} is already occupied")]
    /// The square already holds a tile.
    Occupied {
        /// The square.
        square: Square,
    },
    #[error("its {ours} {side} edge meets the {theirs} {} edge of {neighbour}", side.opposite())]
    /// A route edge meets the other kind of route on a neighbouring tile.
    RouteMismatch {
        /// The side of the placed tile.
        side: Side,
        /// The placed tile's route on that side.
        ours: Route,
        /// The neighbour's route facing it.
        theirs: Route,
        /// The neighbouring square.
        neighbour: Square,
    },
    #[error("its {ours} {side} edge runs into the {} exit at {}", exit.route, exit.square)]
    /// A route edge runs into an exit of the other type.
    WrongExit {
        /// The side of the placed tile.
        side: Side,
        /// The placed tile's route on that side.
        ours: Route,
        /// The exit it runs into.
        exit: Exit,
    },
    #[error("no valid connection: none of its routes continues a route or meets an exit")]
    /// No route edge continues a route or meets an exit.
    NoConnection,
}

impl Illegal {
    /// A short name of the rule broken.
    pub fn rule(&self) -> &'static str {
        match self {
            Illegal::Occupied { .. } => "occupied",
            Illegal::RouteMismatch { .. } => "highway meets railway",
            Illegal::WrongExit { .. } => "wrong exit type",
            Illegal::NoConnection => "no valid connection",
        }
    }
}

/// A sequence with an illegal placement: which one, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("placement {index} ({placement}) is illegal: {reason}")]
pub struct IllegalPlacement {
    /// Its index in the sequence.
    pub index: usize,
    /// The placement.
    pub placement: Placement,
    /// The rule it breaks.
    pub reason: Illegal,
}

/// Why a string is not a valid board (§6.2).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("not a well-formed board string: {0}")]
    /// The string is not a well-formed board string.
    Malformed(#[from] SequenceError),
    #[error(transparent)]
    /// A placement breaks a rule of §6.1.
    Illegal(#[from] IllegalPlacement),
}

impl BoardError {
    /// The index of the placement at fault, when one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            BoardError::Malformed(e) => e.index(),
            BoardError::Illegal(e) => Some(e.index),
        }
    }
}

const EMPTY: u8 = u8::MAX;

/// A valid board: tiles placed one after another, each legal when it was placed.
///
/// The board keeps its placement order (it prints as its board string) and, for speed,
/// bitmasks over the 49 squares: which squares hold a highway or railway edge on each side.
/// It is `Copy`, so a search can clone it freely.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// `tile * 8 + orientation` per square, or `EMPTY`.
    cells: [u8; SQUARES],
    /// Squares in placement order; the first `len` are used.
    order: [u8; SQUARES],
    len: u8,
    occupied: u64,
    /// `edges[route][side]`: squares whose tile has that route on that side.
    edges: [[u64; 4]; 2],
    /// Squares holding the overpass (B2).
    overpass: u64,
    /// Bit i set when special Si is on the board.
    specials: u8,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// The empty board.
    pub const fn new() -> Board {
        Board {
            cells: [EMPTY; SQUARES],
            order: [0; SQUARES],
            len: 0,
            occupied: 0,
            edges: [[0; 4]; 2],
            overpass: 0,
            specials: 0,
        }
    }

    /// Builds the board of a well-formed sequence, or names its first illegal placement.
    pub fn from_sequence(seq: &Sequence) -> Result<Board, IllegalPlacement> {
        Board::from_placements(seq.placements())
    }

    /// Places each placement in turn on the empty board, or names the first illegal one.
    pub fn from_placements(placements: &[Placement]) -> Result<Board, IllegalPlacement> {
        let mut board = Board::new();
        for (index, &placement) in placements.iter().enumerate() {
            board.place(placement).map_err(|reason| IllegalPlacement {
                index,
                placement,
                reason,
            })?;
        }
        Ok(board)
    }

    /// The number of placements.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nothing is placed.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The occupied squares as a 49-bit mask (bit `row * 7 + column`).
    pub const fn occupied(&self) -> u64 {
        self.occupied
    }

    /// Squares whose tile has a `route` edge on `side`, as a mask.
    pub const fn edge_mask(&self, route: Route, side: Side) -> u64 {
        self.edges[route as usize][side as usize]
    }

    /// Squares holding the overpass.
    pub const fn overpass_mask(&self) -> u64 {
        self.overpass
    }

    /// The placement on a square, if any.
    pub fn get(&self, square: Square) -> Option<Placement> {
        let cell = self.cells[square.index()];
        (cell != EMPTY).then(|| decode(square, cell))
    }

    /// The edge of the tile on `square` on `side`, or blank for an empty square.
    pub fn edge(&self, square: Square, side: Side) -> Edge {
        let bit = square.bit();
        if self.edges[0][side.index()] & bit != 0 {
            Edge::Highway
        } else if self.edges[1][side.index()] & bit != 0 {
            Edge::Railway
        } else {
            Edge::Blank
        }
    }

    /// The placements in the order they were made.
    pub fn placements(&self) -> impl ExactSizeIterator<Item = Placement> + '_ {
        self.order[..self.len()]
            .iter()
            .map(|&i| decode(Square::at(i), self.cells[i as usize]))
    }

    /// How many specials are on the board.
    pub const fn special_count(&self) -> usize {
        self.specials.count_ones() as usize
    }

    /// Whether a special tile is already on the board.
    pub fn has_special(&self, tile: Tile) -> bool {
        tile.special_index()
            .is_some_and(|i| self.specials & (1 << i) != 0)
    }

    /// The specials on the board as a bit set (bit i for Si).
    pub const fn specials(&self) -> u8 {
        self.specials
    }

    /// Whether `placement` is legal on this board (§6.1).
    #[inline]
    pub fn is_legal(&self, placement: Placement) -> bool {
        self.legal_squares(placement.tile, placement.orientation) & placement.square.bit() != 0
    }

    /// Checks a placement against the board, naming the rule broken with the rules' precedence:
    /// occupied, then the first mismatching side in N, E, S, W order, then no connection.
    pub fn check(&self, placement: Placement) -> Result<(), Illegal> {
        let square = placement.square;
        if self.occupied & square.bit() != 0 {
            return Err(Illegal::Occupied { square });
        }
        let mut connected = false;
        for (side, edge) in Side::ALL.into_iter().zip(placement.edges()) {
            let Some(ours) = edge.route() else { continue };
            match square.neighbour(side) {
                Some(neighbour) => match self.edge(neighbour, side.opposite()).route() {
                    None => {}
                    Some(theirs) if theirs != ours => {
                        return Err(Illegal::RouteMismatch {
                            side,
                            ours,
                            theirs,
                            neighbour,
                        });
                    }
                    Some(_) => connected = true,
                },
                None => match square.exit(side) {
                    Some(exit) if exit.route != ours => {
                        return Err(Illegal::WrongExit { side, ours, exit });
                    }
                    Some(_) => connected = true,
                    None => {}
                },
            }
        }
        if connected {
            Ok(())
        } else {
            Err(Illegal::NoConnection)
        }
    }

    /// Every square where `tile` in `orientation` is legal, as a 49-bit mask.
    ///
    /// This is the whole of §6.1 for all squares at once, in a few dozen bit operations.
    #[inline]
    pub fn legal_squares(&self, tile: Tile, orientation: Orientation) -> u64 {
        let mut connect = 0;
        let mut mismatch = 0;
        for (side, edge) in Side::ALL.into_iter().zip(tile.edges(orientation)) {
            let Some(route) = edge.route() else { continue };
            let other = 1 - route.index();
            let back = side.opposite();
            // A square whose neighbour across `side` shows `route` on its facing side: moving
            // the neighbours' mask back across `back` lands on those squares.
            connect |= shift(self.edges[route.index()][back.index()], back)
                | EXIT_MASK[route.index()][side.index()];
            mismatch |=
                shift(self.edges[other][back.index()], back) | EXIT_MASK[other][side.index()];
        }
        connect & !mismatch & !self.occupied & ALL_SQUARES
    }

    /// Places a tile after checking it (§6.1).
    pub fn place(&mut self, placement: Placement) -> Result<(), Illegal> {
        if !self.is_legal(placement) {
            // The slow path only runs to name the rule.
            self.check(placement)?;
        }
        self.put(placement);
        Ok(())
    }

    /// Places a tile without checking it; the caller has established legality.
    #[inline]
    pub(crate) fn put(&mut self, placement: Placement) {
        let square = placement.square;
        let bit = square.bit();
        debug_assert!(self.occupied & bit == 0, "{square} is occupied");
        self.cells[square.index()] = encode(placement);
        self.order[self.len as usize] = square.index() as u8;
        self.len += 1;
        self.occupied |= bit;
        for (side, edge) in tile_sides(placement) {
            if let Some(route) = edge.route() {
                self.edges[route.index()][side.index()] |= bit;
            }
        }
        if placement.tile.is_overpass() {
            self.overpass |= bit;
        }
        if let Some(i) = placement.tile.special_index() {
            self.specials |= 1 << i;
        }
    }

    /// Every legal placement of `tile`, in canonical orientations, square by square in row-major
    /// order and, within a square, by ascending orientation.
    pub fn legal_placements(&self, tile: Tile) -> Vec<Placement> {
        let masks: Vec<(Orientation, u64)> = tile
            .canonical_orientations()
            .iter()
            .map(|&o| (o, self.legal_squares(tile, o)))
            .collect();
        let any = masks.iter().fold(0, |acc, (_, m)| acc | m);
        squares_of(any)
            .flat_map(|sq| {
                masks
                    .iter()
                    .filter(move |(_, m)| m & sq.bit() != 0)
                    .map(move |&(o, _)| Placement::new(tile, sq, o))
            })
            .collect()
    }

    /// A hash of what the board holds, ignoring the order of placement: equal for boards with
    /// the same route edges on every square, the same overpasses and the same specials used,
    /// which is everything the rules look at from here on.
    ///
    /// The words are taken in pairs, each pair folded by a full 64×64→128-bit product of the
    /// words offset by fixed random constants (high half XOR low half), and the folds combined
    /// and folded again: every bit of every word changes the key as a random 64-bit number
    /// would, so two positions share a key by chance only, and the five products are
    /// independent, so the key costs a few nanoseconds. (An earlier key folded the words with a
    /// rotate and a multiply, which let the specials' bits cancel against one square's edge
    /// bits: a die tile and a special on the same square could share a key, and the search
    /// then kept only one of them.)
    pub fn position_key(&self) -> u64 {
        #[inline]
        fn fold(a: u64, b: u64) -> u64 {
            let p = u128::from(a) * u128::from(b);
            (p >> 64) as u64 ^ p as u64
        }
        const K: [u64; 11] = [
            0xa076_1d64_78bd_642f,
            0xe703_7ed1_a0b4_28db,
            0x8ebc_6af0_9c88_c6e3,
            0x5899_65cc_7537_4cc3,
            0x1d8e_4e27_c47d_124f,
            0xbf58_476d_1ce4_e5b9,
            0x94d0_49bb_1331_11eb,
            0x9e37_79b9_7f4a_7c15,
            0xd6e8_feb8_6659_fd93,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
        ];
        let [h, r] = self.edges;
        // Squares use bits 0–48 of each word; the specials go above the overpasses.
        let last = self.overpass ^ ((self.specials as u64) << 56);
        let a = fold(self.occupied ^ K[0], h[0] ^ K[1]);
        let b = fold(h[1] ^ K[2], h[2] ^ K[3]);
        let c = fold(h[3] ^ K[4], r[0] ^ K[5]);
        let d = fold(r[1] ^ K[6], r[2] ^ K[7]);
        let e = fold(r[3] ^ K[8], last ^ K[9]);
        fold(fold(a ^ K[10], b) ^ c, fold(d, e ^ K[0]))
    }

    /// Whether `tile` has a legal placement anywhere, in any orientation.
    pub fn fits_anywhere(&self, tile: Tile) -> bool {
        tile.canonical_orientations()
            .iter()
            .any(|&o| self.legal_squares(tile, o) != 0)
    }
}

fn tile_sides(p: Placement) -> impl Iterator<Item = (Side, Edge)> {
    Side::ALL.into_iter().zip(p.edges())
}

fn encode(p: Placement) -> u8 {
    (p.tile.index() as u8) * 8 + p.orientation.digit()
}

fn decode(square: Square, cell: u8) -> Placement {
    let tile = Tile::ALL[(cell / 8) as usize];
    let orientation = Orientation::ALL[(cell % 8) as usize];
    Placement {
        tile,
        square,
        orientation,
    }
}

impl fmt::Display for Board {
    /// The board string: the placements in order (`""` for the empty board).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.placements().try_for_each(|p| write!(f, "{p}"))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\"{self}\")")
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses and validates a board string; `""` is the empty board (§5.2, §6.2).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Ok(Board::new());
        }
        let seq: Sequence = s.parse()?;
        Ok(Board::from_sequence(&seq)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a position is made of: what [`Board::position_key`] hashes.
    fn words(b: &Board) -> (u64, [[u64; 4]; 2], u64, u8) {
        (b.occupied, b.edges, b.overpass, b.specials)
    }

    #[test]
    fn a_special_and_a_die_tile_on_one_square_have_different_keys() {
        // The old key gave these two one key: S2 or A3 on C3, the rest the same.
        let with_special: Board = "A2B61A1B51B2C61S0D62A4E60A3D53B2D41A3D30S2C30"
            .parse()
            .unwrap();
        let with_die: Board = "A2B61A1B51B2C61S0D62A4E60A3D53B2D41A3D30A3C31"
            .parse()
            .unwrap();
        assert_ne!(words(&with_special), words(&with_die));
        assert_ne!(with_special.position_key(), with_die.position_key());
    }

    #[test]
    fn keys_ignore_the_order_of_placement() {
        let a: Board = "A4A12B2B16A1B01".parse().unwrap();
        let b: Board = "A1B01B2B16A4A12".parse().unwrap();
        assert_eq!(a.position_key(), b.position_key());
    }

    #[test]
    fn positions_share_a_key_only_when_they_are_the_same() {
        // Every board one placement away from each board of a few random games: thousands of
        // near neighbours, the pairs a weak key confuses.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut keys = std::collections::HashMap::new();
        for _ in 0..60 {
            let mut board = Board::new();
            for _ in 0..30 {
                let mut options = Vec::new();
                for tile in &Tile::ALL {
                    if tile.is_special() && board.has_special(*tile) {
                        continue;
                    }
                    options.extend(board.legal_placements(*tile));
                }
                if options.is_empty() {
                    break;
                }
                for &p in &options {
                    let mut next = board;
                    next.put(p);
                    let w = words(&next);
                    if let Some(old) = keys.insert(next.position_key(), w) {
                        assert_eq!(old, w, "two positions share a key");
                    }
                }
                board.put(options[rng.random_range(0..options.len())]);
            }
        }
        assert!(keys.len() > 5_000, "{} positions", keys.len());
    }
}
