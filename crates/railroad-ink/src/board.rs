//! Board strings (§5.2), the board they build, and the legality of a placement (§6).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::expansion::Expansion;
use crate::placement::{Placement, PlacementError};
use crate::square::{ALL_SQUARES, EXIT_MASK, Exit, SQUARES, Side, Square, shift, squares_of};
use crate::tile::{Edge, Orientation, Route, Tile};

/// The most placements a board string may hold: 7 rounds × 4 dice + 3 specials.
pub const MAX_PLACEMENTS: usize = 31;
/// The most placements a board string of an expansion game may hold: 6 rounds × 6 dice + 3
/// specials (rule E2).
pub const MAX_EXPANSION_PLACEMENTS: usize = 39;
/// The most specials a board string may hold.
pub const MAX_SPECIALS: usize = 3;

/// A well-formed board string (§5.2): 1 to 31 placements, at most 3 of them specials; in a
/// game with an expansion (rule E2), 1 to 39 placements, the expansion's tiles allowed.
///
/// Well-formedness is syntax only: the placements may overlap or be illegal. Build a [`Board`]
/// from it to check the rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sequence(Vec<Placement>, Expansion);

impl Sequence {
    /// The placements in order.
    pub fn placements(&self) -> &[Placement] {
        &self.0
    }

    /// The expansion the sequence was checked for.
    pub fn expansion(&self) -> Expansion {
        self.1
    }

    /// Builds a well-formed base-game sequence from placements, checking the count and the
    /// specials.
    pub fn new(placements: Vec<Placement>) -> Result<Sequence, SequenceError> {
        Sequence::new_in(placements, Expansion::None)
    }

    /// Builds a well-formed sequence of a game of `expansion`: the count, the specials, and
    /// only tiles of that game (rule E2).
    pub fn new_in(
        placements: Vec<Placement>,
        expansion: Expansion,
    ) -> Result<Sequence, SequenceError> {
        if placements.is_empty() {
            return Err(SequenceError::Empty);
        }
        if placements.len() > expansion.max_placements() {
            return Err(too_many(placements.len(), expansion));
        }
        let mut specials = 0;
        for (index, p) in placements.iter().enumerate() {
            if !expansion.allows(p.tile) {
                return Err(SequenceError::NotInThisGame {
                    index,
                    placement: p.to_string(),
                    expansion,
                });
            }
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
        Ok(Sequence(placements, expansion))
    }

    /// Parses a board string of a game of `expansion` (§5.2, rule E2).
    pub fn parse_in(s: &str, expansion: Expansion) -> Result<Sequence, SequenceError> {
        if s.is_empty() {
            return Err(SequenceError::Empty);
        }
        if s.is_ascii() {
            // Fast path: one byte a character.
            let count = s.len().div_ceil(5);
            Sequence::from_chunks(
                count,
                s.as_bytes().chunks(5).map(|c| c.iter().map(|&b| b as char)),
                expansion,
            )
        } else {
            let chars: Vec<char> = s.chars().collect();
            Sequence::from_chunks(
                chars.len().div_ceil(5),
                chars.chunks(5).map(|c| c.iter().copied()),
                expansion,
            )
        }
    }
}

fn too_many(count: usize, expansion: Expansion) -> SequenceError {
    if expansion == Expansion::None {
        SequenceError::TooMany { count }
    } else {
        SequenceError::TooManyInExpansion { count }
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
    #[error(
        "{count} placements: a board of an expansion game holds at most 39 (rule E2: 6 rounds of 6 dice and 3 specials)"
    )]
    /// More than 39 placements in a game with an expansion.
    TooManyInExpansion {
        /// How many placements there are.
        count: usize,
    },
    #[error(
        "placement {index} ({placement}) is not a tile of a game with expansion {expansion} (rule E2: an expansion's tiles only in a game of that expansion)"
    )]
    /// A tile of another expansion (or of any expansion on a base board).
    NotInThisGame {
        /// Its index.
        index: usize,
        /// The placement.
        placement: String,
        /// The game's expansion.
        expansion: Expansion,
    },
}

impl SequenceError {
    /// The index of the placement at fault, when one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            SequenceError::Empty => None,
            SequenceError::TooMany { .. } => Some(MAX_PLACEMENTS),
            SequenceError::TooManyInExpansion { .. } => Some(MAX_EXPANSION_PLACEMENTS),
            SequenceError::Placement { index, .. }
            | SequenceError::Truncated { index, .. }
            | SequenceError::NotInThisGame { index, .. }
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
            SequenceError::NotInThisGame { expansion, .. } => format!(
                "not a tile of a game with expansion {expansion} (rule E2)"
            ),
            SequenceError::Empty
            | SequenceError::TooMany { .. }
            | SequenceError::TooManyInExpansion { .. } => self.to_string(),
        }
    }

    /// The text of the placement at fault, when one is.
    pub fn placement(&self) -> Option<&str> {
        match self {
            SequenceError::Empty
            | SequenceError::TooMany { .. }
            | SequenceError::TooManyInExpansion { .. } => None,
            SequenceError::Placement { placement, .. }
            | SequenceError::NotInThisGame { placement, .. }
            | SequenceError::Truncated { placement, .. }
            | SequenceError::TooManySpecials { placement, .. } => Some(placement),
        }
    }
}

impl FromStr for Sequence {
    type Err = SequenceError;

    /// Parses a board string of the base game.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Sequence::parse_in(s, Expansion::None)
    }
}

impl Sequence {
    /// Parses chunks of up to five characters, `count` of them, naming the first bad one.
    fn from_chunks<C: Iterator<Item = char> + Clone>(
        count: usize,
        chunks: impl Iterator<Item = C>,
        expansion: Expansion,
    ) -> Result<Sequence, SequenceError> {
        let max = expansion.max_placements();
        let mut placements = Vec::with_capacity(count.min(max));
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
            if index == max {
                return Err(too_many(count, expansion));
            }
            let p = Placement::parse_chars(chars).map_err(|error| SequenceError::Placement {
                index,
                placement: text(),
                error,
            })?;
            placements.push(p);
        }
        Sequence::new_in(placements, expansion)
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
    #[error("its {} {side} edge meets the {} {} edge of {neighbour} (rule E3.1: V meets only V, L only L)", edge_name(*ours), edge_name(*theirs), side.opposite())]
    /// An edge meets a different kind of edge where water is involved (rule E3.1).
    EdgeMismatch {
        /// The side of the placed tile.
        side: Side,
        /// The placed tile's edge on that side.
        ours: Edge,
        /// The neighbour's edge facing it.
        theirs: Edge,
        /// The neighbouring square.
        neighbour: Square,
    },
    #[error("its {} {side} edge faces the {} exit at {} (rule E3.2: water may not face an exit)", edge_name(*ours), exit.route, exit.square)]
    /// A river or lake edge faces an exit (rule E3.2).
    WaterIntoExit {
        /// The side of the placed tile.
        side: Side,
        /// The placed tile's edge on that side.
        ours: Edge,
        /// The exit it faces.
        exit: Exit,
    },
    #[error("{tile} is not a tile of a game with expansion {expansion} (rule E2)")]
    /// The tile does not belong to this board's game (rule E2).
    NotInThisGame {
        /// The tile.
        tile: Tile,
        /// The board's expansion.
        expansion: Expansion,
    },
}

/// An edge's name in refusals: highway, railway, river, lake or blank.
fn edge_name(edge: Edge) -> &'static str {
    match edge {
        Edge::Blank => "blank",
        Edge::Highway => "highway",
        Edge::Railway => "railway",
        Edge::River => "river",
        Edge::Lake => "lake",
    }
}

impl Illegal {
    /// A short name of the rule broken.
    pub fn rule(&self) -> &'static str {
        match self {
            Illegal::Occupied { .. } => "occupied",
            Illegal::RouteMismatch { .. } => "highway meets railway",
            Illegal::WrongExit { .. } => "wrong exit type",
            Illegal::NoConnection => "no valid connection",
            Illegal::EdgeMismatch { .. } => "mismatch (E3.1)",
            Illegal::WaterIntoExit { .. } => "water faces an exit (E3.2)",
            Illegal::NotInThisGame { .. } => "not a tile of this game (E2)",
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
    /// The game's expansion (rule E1).
    expansion: Expansion,
    /// `water[0][side]`: squares with a river edge on that side; `water[1][side]`: a lake
    /// shore (flooded squares included). All zero in the base game.
    water: [[u64; 4]; 2],
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
            expansion: Expansion::None,
            water: [[0; 4]; 2],
        }
    }

    /// The empty board of a game with `expansion`.
    pub const fn with_expansion(expansion: Expansion) -> Board {
        let mut board = Board::new();
        board.expansion = expansion;
        board
    }

    /// The board's expansion.
    pub const fn expansion(&self) -> Expansion {
        self.expansion
    }

    /// Squares whose tile has a river (`V`) or lake (`L`) edge on `side`, as a mask; `water`
    /// is [`Edge::River`] or [`Edge::Lake`] (anything else gives 0).
    pub const fn water_mask(&self, water: Edge, side: Side) -> u64 {
        match water {
            Edge::River => self.water[0][side as usize],
            Edge::Lake => self.water[1][side as usize],
            _ => 0,
        }
    }

    /// The flooded squares (rule E3.3).
    pub fn flooded(&self) -> u64 {
        let l = self.water[1];
        l[0] & l[1] & l[2] & l[3] & !self.placed_mask()
    }

    /// The squares whose tile has a highway or railway edge: every route tile, piers and
    /// bridges included, but no lake or river tile without a route and no flood.
    pub fn route_squares(&self) -> u64 {
        (0..4).fold(0, |m, side| m | self.edges[0][side] | self.edges[1][side])
    }

    /// The squares holding a placement (not a flood).
    fn placed_mask(&self) -> u64 {
        self.order[..self.len()]
            .iter()
            .fold(0, |m, &i| m | (1u64 << i))
    }

    /// Parses and validates a board string of a game with `expansion` (§5.2, §6.2, E2, E3);
    /// `""` is the empty board.
    pub fn parse_in(s: &str, expansion: Expansion) -> Result<Board, BoardError> {
        if s.is_empty() {
            return Ok(Board::with_expansion(expansion));
        }
        let seq = Sequence::parse_in(s, expansion)?;
        Ok(Board::from_sequence(&seq)?)
    }

    /// Builds the board of a well-formed sequence, or names its first illegal placement.
    pub fn from_sequence(seq: &Sequence) -> Result<Board, IllegalPlacement> {
        Board::from_placements_in(seq.placements(), seq.expansion())
    }

    /// Places each placement in turn on the empty board, or names the first illegal one.
    pub fn from_placements(placements: &[Placement]) -> Result<Board, IllegalPlacement> {
        Board::from_placements_in(placements, Expansion::None)
    }

    /// Places each placement in turn on the empty board of a game with `expansion`, or names
    /// the first illegal one.
    pub fn from_placements_in(
        placements: &[Placement],
        expansion: Expansion,
    ) -> Result<Board, IllegalPlacement> {
        let mut board = Board::with_expansion(expansion);
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
        } else if self.water[0][side.index()] & bit != 0 {
            Edge::River
        } else if self.water[1][side.index()] & bit != 0 {
            Edge::Lake
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
        let (tile, orientation) = (placement.tile, placement.orientation);
        let bit = placement.square.bit();
        if self.expansion != Expansion::None || tile.is_expansion() {
            return self.water_board_legal_squares(tile, orientation) & bit != 0;
        }
        // [`Board::legal_squares`] for the one square: each side's neighbour (or exit) is
        // looked at alone, as bits 0 or 1, without a branch.
        let [highway, railway] = tile.route_sides(orientation);
        let (mut connect, mut mismatch) = (0u8, 0u8);
        for side in Side::ALL {
            let (i, back) = (side.index(), side.opposite().index());
            let neighbour = shift(bit, side);
            let h = u8::from((self.edges[0][back] & neighbour) | (EXIT_MASK[0][i] & bit) != 0);
            let r = u8::from((self.edges[1][back] & neighbour) | (EXIT_MASK[1][i] & bit) != 0);
            let (hw, rw) = (highway >> i & 1, railway >> i & 1);
            connect |= (h & hw) | (r & rw);
            mismatch |= (r & hw) | (h & rw);
        }
        connect & !mismatch != 0 && self.occupied & bit == 0
    }

    /// Checks a placement against the board, naming the rule broken with the rules' precedence
    /// (§6.1, E3.5): a tile of another game, occupied, then the first mismatching side in N, E,
    /// S, W order, then a river or lake edge facing an exit, then no connection (which lake and
    /// river tiles never need).
    pub fn check(&self, placement: Placement) -> Result<(), Illegal> {
        let square = placement.square;
        if !self.expansion.allows(placement.tile) {
            return Err(Illegal::NotInThisGame {
                tile: placement.tile,
                expansion: self.expansion,
            });
        }
        if self.occupied & square.bit() != 0 {
            return Err(Illegal::Occupied { square });
        }
        let mut connected = false;
        let mut water_exit = None;
        for (side, edge) in Side::ALL.into_iter().zip(placement.edges()) {
            if edge == Edge::Blank {
                continue;
            }
            match square.neighbour(side) {
                Some(neighbour) => {
                    let facing = self.edge(neighbour, side.opposite());
                    if facing == Edge::Blank {
                        continue;
                    }
                    match (edge.route(), facing.route()) {
                        (Some(ours), Some(theirs)) if ours != theirs => {
                            return Err(Illegal::RouteMismatch {
                                side,
                                ours,
                                theirs,
                                neighbour,
                            });
                        }
                        _ if edge != facing => {
                            return Err(Illegal::EdgeMismatch {
                                side,
                                ours: edge,
                                theirs: facing,
                                neighbour,
                            });
                        }
                        (Some(_), _) => connected = true,
                        (None, _) => {}
                    }
                }
                None => match (square.exit(side), edge.route()) {
                    (Some(exit), Some(ours)) if exit.route != ours => {
                        return Err(Illegal::WrongExit { side, ours, exit });
                    }
                    (Some(_), Some(_)) => connected = true,
                    (Some(exit), None) => {
                        water_exit.get_or_insert(Illegal::WaterIntoExit {
                            side,
                            ours: edge,
                            exit,
                        });
                    }
                    (None, _) => {}
                },
            }
        }
        if let Some(reason) = water_exit {
            return Err(reason);
        }
        if connected || placement.tile.is_expansion() {
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
        if self.expansion != Expansion::None || tile.is_expansion() {
            return self.water_board_legal_squares(tile, orientation);
        }
        let [highway, railway] = tile.route_sides(orientation);
        let mut connect = 0;
        let mut mismatch = 0;
        for side in Side::ALL {
            let back = side.opposite();
            // The squares whose neighbour across `side` shows a highway (a railway) on its
            // facing side, or that have such an exit there: moving the neighbours' mask back
            // across `back` lands on those squares.
            let h = shift(self.edges[0][back.index()], back) | EXIT_MASK[0][side.index()];
            let r = shift(self.edges[1][back.index()], back) | EXIT_MASK[1][side.index()];
            // All ones where the tile shows that route on `side`, else zero: no branch.
            let hm = 0u64.wrapping_sub(u64::from(highway >> side.index() & 1));
            let rm = 0u64.wrapping_sub(u64::from(railway >> side.index() & 1));
            connect |= (h & hm) | (r & rm);
            mismatch |= (r & hm) | (h & rm);
        }
        connect & !mismatch & !self.occupied & ALL_SQUARES
    }

    /// [`Board::legal_squares`] on the board of an expansion game (and for an expansion tile
    /// anywhere): a route may not face a river or an open lake side either (rule E3.1); river
    /// and lake tiles have their own rules (none fits a board of another game).
    #[cold]
    #[inline(never)]
    fn water_board_legal_squares(&self, tile: Tile, orientation: Orientation) -> u64 {
        if tile.is_expansion() {
            return self.expansion_legal_squares(tile, orientation);
        }
        let mut connect = 0;
        let mut mismatch = 0;
        for (side, edge) in Side::ALL.into_iter().zip(tile.edges(orientation)) {
            let Some(route) = edge.route() else { continue };
            let other = 1 - route.index();
            let back = side.opposite();
            connect |= shift(self.edges[route.index()][back.index()], back)
                | EXIT_MASK[route.index()][side.index()];
            mismatch |= shift(
                self.edges[other][back.index()]
                    | self.water[0][back.index()]
                    | self.water[1][back.index()],
                back,
            ) | EXIT_MASK[other][side.index()];
        }
        connect & !mismatch & !self.occupied & ALL_SQUARES
    }

    /// [`Board::legal_squares`] for a river or lake tile (rules E3.1, E3.2, X4): every edge
    /// must meet blank or its own kind, water may not face an exit, and a route edge of a pier
    /// or bridge may not run into the other route's exit; no connection is needed.
    #[cold]
    #[inline(never)]
    fn expansion_legal_squares(&self, tile: Tile, orientation: Orientation) -> u64 {
        if !self.expansion.allows(tile) {
            return 0;
        }
        let mut bad = 0;
        for (side, edge) in Side::ALL.into_iter().zip(tile.edges(orientation)) {
            let back = side.opposite().index();
            let all = [
                self.edges[0][back],
                self.edges[1][back],
                self.water[0][back],
                self.water[1][back],
            ];
            let (own, exits) = match edge {
                Edge::Blank => continue,
                Edge::Highway => (all[0], EXIT_MASK[1][side.index()]),
                Edge::Railway => (all[1], EXIT_MASK[0][side.index()]),
                Edge::River => (
                    all[2],
                    EXIT_MASK[0][side.index()] | EXIT_MASK[1][side.index()],
                ),
                Edge::Lake => (
                    all[3],
                    EXIT_MASK[0][side.index()] | EXIT_MASK[1][side.index()],
                ),
            };
            let other = (all[0] | all[1] | all[2] | all[3]) & !own;
            bad |= shift(other, side.opposite()) | exits;
        }
        !bad & !self.occupied & ALL_SQUARES
    }

    /// Places a tile after checking it (§6.1, E3), then floods (E3.3).
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
        if placement.tile.is_expansion() {
            self.put_expansion(placement);
            return;
        }
        let [highway, railway] = placement.tile.route_sides(placement.orientation);
        for side in 0..4 {
            self.edges[0][side] |= bit * u64::from(highway >> side & 1);
            self.edges[1][side] |= bit * u64::from(railway >> side & 1);
        }
        if placement.tile.is_overpass() {
            self.overpass |= bit;
        }
        if let Some(i) = placement.tile.special_index() {
            self.specials |= 1 << i;
        }
    }

    /// The edges of a river or lake tile, then the floods it causes (rule E3.3).
    #[cold]
    #[inline(never)]
    fn put_expansion(&mut self, placement: Placement) {
        let bit = placement.square.bit();
        for (side, edge) in tile_sides(placement) {
            let i = side.index();
            match edge {
                Edge::Blank => {}
                Edge::Highway => self.edges[0][i] |= bit,
                Edge::Railway => self.edges[1][i] |= bit,
                Edge::River => self.water[0][i] |= bit,
                Edge::Lake => self.water[1][i] |= bit,
            }
        }
        if placement.tile.has_lake() {
            self.flood();
        }
    }

    /// The board of the route tiles alone (piers and bridges kept): what the board would be
    /// had its lake and river tiles without a route never been placed. Its floods are those
    /// the kept tiles' lake sides make by themselves. The same board as placing the kept
    /// tiles again in their order, found with masks: the computer evaluates it at every step
    /// of its search.
    pub fn route_tiles(&self) -> Board {
        let routes = self.route_squares();
        let gone = self.occupied & !routes;
        if gone == 0 {
            return *self;
        }
        let mut board = *self;
        for square in squares_of(gone) {
            board.cells[square.index()] = EMPTY;
        }
        board.occupied = routes;
        let mut len = 0;
        for i in 0..self.len() {
            let square = self.order[i];
            if routes & (1u64 << square) != 0 {
                board.order[len] = square;
                len += 1;
            }
        }
        board.len = len as u8;
        board.order[len..].fill(0);
        for water in &mut board.water {
            for side in water.iter_mut() {
                *side &= routes;
            }
        }
        if board.water[1].iter().any(|&m| m != 0) {
            board.flood();
        }
        board
    }

    /// Floods every empty square with three or four neighbours showing a lake side towards it,
    /// until none is left (rule E3.3). Board sides do not count.
    fn flood(&mut self) {
        loop {
            let [a, b, c, d] = Side::ALL.map(|side| {
                let back = side.opposite();
                shift(self.water[1][back.index()], back)
            });
            let three = (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d);
            let new = three & !self.occupied & ALL_SQUARES;
            if new == 0 {
                return;
            }
            for square in squares_of(new) {
                self.cells[square.index()] = Tile::F0.index() as u8 * 8;
            }
            self.occupied |= new;
            for side in &mut self.water[1] {
                *side |= new;
            }
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
        let key = fold(fold(a ^ K[10], b) ^ c, fold(d, e ^ K[0]));
        if self.expansion == Expansion::None {
            return key;
        }
        let [v, l] = self.water;
        let f = fold(v[0] ^ K[1], v[1] ^ K[2]) ^ fold(v[2] ^ K[3], v[3] ^ K[4]);
        let g = fold(l[0] ^ K[5], l[1] ^ K[6]) ^ fold(l[2] ^ K[7], l[3] ^ K[8]);
        fold(key ^ K[9], f) ^ fold(g ^ K[10], self.expansion as u64 ^ K[0])
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
    let tile = Tile::EVERY[(cell / 8) as usize];
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
