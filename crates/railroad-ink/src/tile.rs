//! The tile catalogue (§3 of the rules), edges per side, and the eight orientations (§4).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::side::Side;

/// What a tile edge carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edge {
    /// No route: written `·` in the rules.
    Blank,
    /// A highway (`H`).
    Highway,
    /// A railway (`R`).
    Railway,
    /// A river (`V`): expansion tiles only (rule E2).
    River,
    /// A lake shore (`L`), the side of a square that is water: expansion tiles only (rule E2).
    Lake,
}

impl Edge {
    /// The route type of a highway or railway edge; `None` for blank and water edges.
    pub const fn route(self) -> Option<Route> {
        match self {
            Edge::Blank | Edge::River | Edge::Lake => None,
            Edge::Highway => Some(Route::Highway),
            Edge::Railway => Some(Route::Railway),
        }
    }

    /// Whether the edge is a river or a lake shore.
    pub const fn is_water(self) -> bool {
        matches!(self, Edge::River | Edge::Lake)
    }

    /// The one-character form used by the rules: `H`, `R`, `V`, `L` or `·`.
    pub const fn symbol(self) -> char {
        match self {
            Edge::Blank => '·',
            Edge::Highway => 'H',
            Edge::Railway => 'R',
            Edge::River => 'V',
            Edge::Lake => 'L',
        }
    }
}

/// A route type: the two kinds of non-blank edge, and the two kinds of exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// A highway (H).
    Highway,
    /// A railway (R).
    Railway,
}

impl Route {
    /// Both route types, highway first.
    pub const ALL: [Route; 2] = [Route::Highway, Route::Railway];

    /// The edge that carries this route.
    pub const fn edge(self) -> Edge {
        match self {
            Route::Highway => Edge::Highway,
            Route::Railway => Edge::Railway,
        }
    }

    /// `0` for highway, `1` for railway: an index into per-route tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Route::Highway => "highway",
            Route::Railway => "railway",
        })
    }
}

/// Where a tile comes from: the first character of a placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Source {
    /// Die A (faces 0–5).
    A,
    /// Die B (faces 0–2).
    B,
    /// The special tiles S0–S5.
    S,
    /// The river die of the river expansion (faces V0–V3).
    V,
    /// The lake die of the lake expansion (faces L0–L5).
    L,
    /// The flooded square F0, made by the engine and never written (rule E3.3).
    F,
}

impl Source {
    /// The source's letter.
    pub const fn letter(self) -> char {
        match self {
            Source::A => 'A',
            Source::B => 'B',
            Source::S => 'S',
            Source::V => 'V',
            Source::L => 'L',
            Source::F => 'F',
        }
    }

    /// How many tiles the source offers (faces of a die, or specials; distinct tiles for the
    /// river die, whose six faces show four tiles).
    pub const fn faces(self) -> u8 {
        match self {
            Source::A | Source::S | Source::L => 6,
            Source::B => 3,
            Source::V => 4,
            Source::F => 1,
        }
    }

    /// Parses the source letter.
    pub const fn from_letter(c: u8) -> Option<Source> {
        match c {
            b'A' => Some(Source::A),
            b'B' => Some(Source::B),
            b'S' => Some(Source::S),
            b'V' => Some(Source::V),
            b'L' => Some(Source::L),
            _ => None,
        }
    }
}

/// One of the 15 tile types of the base game, the 10 tiles of the expansion dice (rule E2),
/// or the engine-made flooded square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Tile {
    /// Die A: railway curve.
    A0,
    /// Die A: railway straight.
    A1,
    /// Die A: railway T-junction.
    A2,
    /// Die A: highway T-junction.
    A3,
    /// Die A: highway straight.
    A4,
    /// Die A: highway curve.
    A5,
    /// Die B: station, straight.
    B0,
    /// Die B: station, corner.
    B1,
    /// Die B: the overpass (two routes that do not join).
    B2,
    /// Special: station with three highways and a railway.
    S0,
    /// Special: station with a highway and three railways.
    S1,
    /// Special: highway crossroads.
    S2,
    /// Special: railway crossroads.
    S3,
    /// Special: station with two highways and two railways, each pair on adjacent sides.
    S4,
    /// Special: station with highways opposite and railways opposite (the overpass joined).
    S5,
    /// River die: straight river.
    V0,
    /// River die: river bend.
    V1,
    /// River die: highway bridge over the river (two separate pieces).
    V2,
    /// River die: railway bridge over the river (two separate pieces).
    V3,
    /// Lake die: water along one side.
    L0,
    /// Lake die: water across a corner.
    L1,
    /// Lake die: water on three sides.
    L2,
    /// Lake die: highway pier.
    L3,
    /// Lake die: railway pier.
    L4,
    /// Lake die: station pier (railway, highway and lake joined).
    L5,
    /// A flooded square, made by the engine (rule E3.3); never rolled or written.
    F0,
}

/// The number of tile types, expansion tiles and the flooded square included.
pub const TILE_TYPES: usize = 26;

use Edge::{Blank as X, Highway as H, Lake as L, Railway as R, River as V};

/// Edges `[N, E, S, W]` of each tile in orientation 0, in `Tile` order (§3, E2).
const BASE_EDGES: [[Edge; 4]; TILE_TYPES] = [
    [R, X, X, R], // A0 railway curve
    [R, X, R, X], // A1 railway straight
    [R, R, R, X], // A2 railway T-junction
    [H, H, H, X], // A3 highway T-junction
    [H, X, H, X], // A4 highway straight
    [H, X, X, H], // A5 highway curve
    [H, X, R, X], // B0 station, straight
    [H, R, X, X], // B1 station, corner
    [H, R, H, R], // B2 overpass
    [H, H, R, H], // S0 station
    [H, R, R, R], // S1 station
    [H, H, H, H], // S2 highway crossroads
    [R, R, R, R], // S3 railway crossroads
    [H, R, R, H], // S4 station
    [H, R, H, R], // S5 station
    [V, X, V, X], // V0 straight river
    [V, X, X, V], // V1 river bend
    [V, H, V, H], // V2 highway bridge
    [V, R, V, R], // V3 railway bridge
    [X, X, L, X], // L0 water along one side
    [X, L, L, X], // L1 water across a corner
    [L, L, X, L], // L2 water on three sides
    [H, X, L, X], // L3 highway pier
    [R, X, L, X], // L4 railway pier
    [R, L, L, H], // L5 station pier
    [L, L, L, L], // F0 flooded square
];

impl Tile {
    /// All 15 tiles, in the order A0–A5, B0–B2, S0–S5.
    pub const ALL: [Tile; 15] = [
        Tile::A0,
        Tile::A1,
        Tile::A2,
        Tile::A3,
        Tile::A4,
        Tile::A5,
        Tile::B0,
        Tile::B1,
        Tile::B2,
        Tile::S0,
        Tile::S1,
        Tile::S2,
        Tile::S3,
        Tile::S4,
        Tile::S5,
    ];

    /// The four tiles of the river die.
    pub const RIVER: [Tile; 4] = [Tile::V0, Tile::V1, Tile::V2, Tile::V3];

    /// The six tiles of the lake die.
    pub const LAKE: [Tile; 6] = [Tile::L0, Tile::L1, Tile::L2, Tile::L3, Tile::L4, Tile::L5];

    /// Every tile type: the base tiles, the river and lake tiles, and the flooded square.
    pub const EVERY: [Tile; TILE_TYPES] = [
        Tile::A0,
        Tile::A1,
        Tile::A2,
        Tile::A3,
        Tile::A4,
        Tile::A5,
        Tile::B0,
        Tile::B1,
        Tile::B2,
        Tile::S0,
        Tile::S1,
        Tile::S2,
        Tile::S3,
        Tile::S4,
        Tile::S5,
        Tile::V0,
        Tile::V1,
        Tile::V2,
        Tile::V3,
        Tile::L0,
        Tile::L1,
        Tile::L2,
        Tile::L3,
        Tile::L4,
        Tile::L5,
        Tile::F0,
    ];

    /// The six special tiles.
    pub const SPECIALS: [Tile; 6] = [Tile::S0, Tile::S1, Tile::S2, Tile::S3, Tile::S4, Tile::S5];

    /// The tile's index in [`Tile::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The tile at an index of [`Tile::ALL`].
    pub const fn from_index(i: usize) -> Option<Tile> {
        if i < 15 { Some(Tile::ALL[i]) } else { None }
    }

    /// The tile shown by face `face` of `source`, if that face exists.
    pub const fn from_source(source: Source, face: u8) -> Option<Tile> {
        if face >= source.faces() {
            return None;
        }
        Some(Tile::EVERY[source_base(source) + face as usize])
    }

    /// Where the tile comes from.
    pub const fn source(self) -> Source {
        match self as u8 {
            0..=5 => Source::A,
            6..=8 => Source::B,
            9..=14 => Source::S,
            15..=18 => Source::V,
            19..=24 => Source::L,
            _ => Source::F,
        }
    }

    /// The tile's number on its source (the second character of a placement).
    pub const fn face(self) -> u8 {
        self as u8 - source_base(self.source()) as u8
    }

    /// Whether the tile belongs to an expansion: a river or lake tile, or the flooded square.
    #[inline]
    pub const fn is_expansion(self) -> bool {
        self as u8 >= 15
    }

    /// Whether the tile has a lake shore on some side (lake tiles and the flooded square).
    #[inline]
    pub const fn has_lake(self) -> bool {
        self as u8 >= 19
    }

    /// Whether the tile is one of the six specials.
    pub const fn is_special(self) -> bool {
        matches!(self.source(), Source::S)
    }

    /// Index 0–5 of a special tile (its bit in a set of specials).
    pub const fn special_index(self) -> Option<u8> {
        if self.is_special() {
            Some(self.face())
        } else {
            None
        }
    }

    /// Whether the tile is a station: the only tiles joining a highway and a railway.
    pub const fn is_station(self) -> bool {
        matches!(
            self,
            Tile::B0 | Tile::B1 | Tile::S0 | Tile::S1 | Tile::S4 | Tile::S5
        )
    }

    /// Whether the tile is the overpass (B2), the only tile with two separate route pieces.
    pub const fn is_overpass(self) -> bool {
        matches!(self, Tile::B2)
    }

    /// Edges `[N, E, S, W]` in orientation 0.
    pub const fn base_edges(self) -> [Edge; 4] {
        BASE_EDGES[self as usize]
    }

    /// Edges `[N, E, S, W]` in the given orientation.
    #[inline]
    pub fn edges(self, orientation: Orientation) -> [Edge; 4] {
        ORIENTED_EDGES[self.index()][orientation.index()]
    }

    /// The sides `[highway, railway]` of the tile in the given orientation that show that
    /// route, as bit sets over [N, E, S, W] (bit 0 for N).
    #[inline]
    pub fn route_sides(self, orientation: Orientation) -> [u8; 2] {
        ROUTE_SIDES[self.index()][orientation.index()]
    }

    /// The canonical (lowest) orientation with the same edge layout as `orientation`.
    pub fn canonical(self, orientation: Orientation) -> Orientation {
        CANONICAL[self.index()][orientation.index()]
    }

    /// The canonical orientations of the tile, ascending: one per distinct edge layout.
    pub fn canonical_orientations(self) -> &'static [Orientation] {
        let (ref list, len) = CANONICAL_SETS[self.index()];
        &list[..len]
    }

    /// A short description from the rules' table, such as "railway curve".
    pub const fn kind(self) -> &'static str {
        match self {
            Tile::A0 => "railway curve",
            Tile::A1 => "railway straight",
            Tile::A2 => "railway T-junction",
            Tile::A3 => "highway T-junction",
            Tile::A4 => "highway straight",
            Tile::A5 => "highway curve",
            Tile::B0 => "station, straight",
            Tile::B1 => "station, corner",
            Tile::B2 => "overpass",
            Tile::S2 => "highway crossroads",
            Tile::S3 => "railway crossroads",
            Tile::S0 | Tile::S1 | Tile::S4 | Tile::S5 => "station",
            Tile::V0 => "straight river",
            Tile::V1 => "river bend",
            Tile::V2 => "highway bridge",
            Tile::V3 => "railway bridge",
            Tile::L0 => "water along one side",
            Tile::L1 => "water across a corner",
            Tile::L2 => "water on three sides",
            Tile::L3 => "highway pier",
            Tile::L4 => "railway pier",
            Tile::L5 => "station pier",
            Tile::F0 => "flooded square",
        }
    }
}

/// The index in [`Tile::EVERY`] of a source's face 0.
const fn source_base(source: Source) -> usize {
    match source {
        Source::A => 0,
        Source::B => 6,
        Source::S => 9,
        Source::V => 15,
        Source::L => 19,
        Source::F => 25,
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.source().letter(), self.face())
    }
}

/// One of the eight orientations (§4): 0–3 rotate clockwise by quarter turns, 4–7 mirror
/// first (E and W swap) and then rotate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Orientation(u8);

impl Orientation {
    /// All eight orientations, ascending.
    pub const ALL: [Orientation; 8] = [
        Orientation(0),
        Orientation(1),
        Orientation(2),
        Orientation(3),
        Orientation(4),
        Orientation(5),
        Orientation(6),
        Orientation(7),
    ];

    /// The identity: the tile as drawn.
    pub const IDENTITY: Orientation = Orientation(0);
    /// A quarter turn clockwise.
    pub const ROTATE: Orientation = Orientation(1);
    /// The mirror across the vertical axis.
    pub const MIRROR: Orientation = Orientation(4);

    /// The orientation with this digit, if it is 0–7.
    pub const fn new(digit: u8) -> Option<Orientation> {
        if digit < 8 {
            Some(Orientation(digit))
        } else {
            None
        }
    }

    /// The orientation's digit, 0–7.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The orientation's digit, 0–7.
    pub const fn digit(self) -> u8 {
        self.0
    }

    /// Whether the orientation mirrors the tile.
    pub const fn is_mirrored(self) -> bool {
        self.0 >= 4
    }

    /// Quarter turns clockwise applied after the optional mirror.
    pub const fn quarter_turns(self) -> u8 {
        self.0 % 4
    }

    /// Transforms an edge array `[N, E, S, W]` drawn in orientation 0 into this orientation.
    pub const fn apply<T: Copy>(self, e: [T; 4]) -> [T; 4] {
        let mut e = if self.is_mirrored() {
            [e[0], e[3], e[2], e[1]]
        } else {
            e
        };
        let mut k = self.quarter_turns();
        while k > 0 {
            e = [e[3], e[0], e[1], e[2]];
            k -= 1;
        }
        e
    }

    /// The orientation that applies `self` first and then `next`:
    /// `a.then(b).apply(e) == b.apply(a.apply(e))`.
    pub const fn then(self, next: Orientation) -> Orientation {
        // Both are m^a r^k with r m = m r^-1; (r^k m^a) then (r^j m^b) on arrays is
        // r^j m^b r^k m^a = r^(j ± k) m^(a xor b).
        let k = self.quarter_turns();
        let j = next.quarter_turns();
        let turns = if next.is_mirrored() {
            (j + 4 - k) % 4
        } else {
            (j + k) % 4
        };
        let mirrored = self.is_mirrored() != next.is_mirrored();
        Orientation(turns + if mirrored { 4 } else { 0 })
    }

    /// The orientation that undoes this one.
    pub const fn inverse(self) -> Orientation {
        if self.is_mirrored() {
            self
        } else {
            Orientation((4 - self.0) % 4)
        }
    }

    /// Where side `side` of the tile as drawn ends up in this orientation.
    pub const fn map_side(self, side: Side) -> Side {
        let mut s = side.index() as u8;
        if self.is_mirrored() && s % 2 == 1 {
            s ^= 2;
        }
        Side::ALL[((s + self.quarter_turns()) % 4) as usize]
    }
}

impl TryFrom<u8> for Orientation {
    type Error = String;

    fn try_from(d: u8) -> Result<Self, Self::Error> {
        Orientation::new(d).ok_or_else(|| format!("orientation {d} is not 0–7"))
    }
}

impl From<Orientation> for u8 {
    fn from(o: Orientation) -> u8 {
        o.0
    }
}

impl fmt::Display for Orientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const fn edges_equal(a: [Edge; 4], b: [Edge; 4]) -> bool {
    let mut i = 0;
    while i < 4 {
        if a[i] as u8 != b[i] as u8 {
            return false;
        }
        i += 1;
    }
    true
}

/// `ORIENTED_EDGES[tile][o]`: the edges of every tile in every orientation.
static ORIENTED_EDGES: [[[Edge; 4]; 8]; TILE_TYPES] = {
    let mut table = [[[Edge::Blank; 4]; 8]; TILE_TYPES];
    let mut t = 0;
    while t < TILE_TYPES {
        let mut o = 0;
        while o < 8 {
            table[t][o] = Orientation(o as u8).apply(BASE_EDGES[t]);
            o += 1;
        }
        t += 1;
    }
    table
};

/// `ROUTE_SIDES[tile][o]`: the sides showing a highway and a railway, as bit sets (bit 0 N,
/// 1 E, 2 S, 3 W), so that the hot loops need no branch on an edge's kind.
static ROUTE_SIDES: [[[u8; 2]; 8]; TILE_TYPES] = {
    let mut table = [[[0u8; 2]; 8]; TILE_TYPES];
    let mut t = 0;
    while t < TILE_TYPES {
        let mut o = 0;
        while o < 8 {
            let edges = ORIENTED_EDGES[t][o];
            let mut side = 0;
            while side < 4 {
                match edges[side] {
                    Edge::Highway => table[t][o][0] |= 1 << side,
                    Edge::Railway => table[t][o][1] |= 1 << side,
                    _ => {}
                }
                side += 1;
            }
            o += 1;
        }
        t += 1;
    }
    table
};

/// `CANONICAL[tile][o]`: the lowest orientation with the same edges as `o`.
static CANONICAL: [[Orientation; 8]; TILE_TYPES] = {
    let mut table = [[Orientation(0); 8]; TILE_TYPES];
    let mut t = 0;
    while t < TILE_TYPES {
        let mut o = 0;
        while o < 8 {
            let e = Orientation(o).apply(BASE_EDGES[t]);
            let mut c = 0;
            while !edges_equal(Orientation(c).apply(BASE_EDGES[t]), e) {
                c += 1;
            }
            table[t][o as usize] = Orientation(c);
            o += 1;
        }
        t += 1;
    }
    table
};

/// The canonical orientations of every tile, padded to 8, with their count.
static CANONICAL_SETS: [([Orientation; 8], usize); TILE_TYPES] = {
    let mut sets = [([Orientation(0); 8], 0); TILE_TYPES];
    let mut t = 0;
    while t < TILE_TYPES {
        let mut o = 0;
        while o < 8 {
            if CANONICAL[t][o].0 as usize == o {
                let n = sets[t].1;
                sets[t].0[n] = Orientation(o as u8);
                sets[t].1 = n + 1;
            }
            o += 1;
        }
        t += 1;
    }
    sets
};

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(t: Tile) -> Vec<u8> {
        t.canonical_orientations()
            .iter()
            .map(|o| o.digit())
            .collect()
    }

    #[test]
    fn b1_worked_check() {
        let expect = [
            [H, R, X, X],
            [X, H, R, X],
            [X, X, H, R],
            [R, X, X, H],
            [H, X, X, R],
            [R, H, X, X],
            [X, R, H, X],
            [X, X, R, H],
        ];
        for (o, e) in Orientation::ALL.iter().zip(expect) {
            assert_eq!(Tile::B1.edges(*o), e, "orientation {o}");
        }
    }

    #[test]
    fn canonical_sets_match_the_rules_table() {
        for t in [
            Tile::A0,
            Tile::A5,
            Tile::S4,
            Tile::A2,
            Tile::A3,
            Tile::B0,
            Tile::S0,
            Tile::S1,
        ] {
            assert_eq!(digits(t), vec![0, 1, 2, 3], "{t}");
        }
        for t in [Tile::A1, Tile::A4, Tile::B2, Tile::S5] {
            assert_eq!(digits(t), vec![0, 1], "{t}");
        }
        assert_eq!(digits(Tile::B1), (0..8).collect::<Vec<_>>());
        assert_eq!(digits(Tile::S2), vec![0]);
        assert_eq!(digits(Tile::S3), vec![0]);
    }

    #[test]
    fn equivalence_classes_match_the_rules_table() {
        let class = |t: Tile, o: u8| t.canonical(Orientation(o)).digit();
        // A0, A5, S4: {0,7} {1,4} {2,5} {3,6}
        for t in [Tile::A0, Tile::A5, Tile::S4] {
            assert_eq!([7, 4, 5, 6].map(|o| class(t, o)), [0, 1, 2, 3]);
        }
        // A2, A3: {0,6} {1,7} {2,4} {3,5}
        for t in [Tile::A2, Tile::A3] {
            assert_eq!([6, 7, 4, 5].map(|o| class(t, o)), [0, 1, 2, 3]);
        }
        // B0, S0, S1: {0,4} {1,5} {2,6} {3,7}
        for t in [Tile::B0, Tile::S0, Tile::S1] {
            assert_eq!([4, 5, 6, 7].map(|o| class(t, o)), [0, 1, 2, 3]);
        }
        for t in [Tile::A1, Tile::A4, Tile::B2, Tile::S5] {
            assert_eq!([2, 4, 6, 3, 5, 7].map(|o| class(t, o)), [0, 0, 0, 1, 1, 1]);
        }
    }

    #[test]
    fn source_and_face_round_trip() {
        for t in Tile::ALL {
            assert_eq!(Tile::from_source(t.source(), t.face()), Some(t));
            assert_eq!(Tile::from_index(t.index()), Some(t));
        }
        assert_eq!(Tile::from_source(Source::B, 3), None);
        assert_eq!(Tile::from_source(Source::A, 6), None);
        assert_eq!(Tile::S3.to_string(), "S3");
    }

    #[test]
    fn expansion_tiles_have_the_rules_edges_and_classes() {
        use Edge::{Lake as L, River as V};
        assert_eq!(Tile::V2.base_edges(), [V, H, V, H]);
        assert_eq!(Tile::L5.base_edges(), [R, L, L, H]);
        assert_eq!(Tile::F0.base_edges(), [L; 4]);
        assert_eq!(digits(Tile::V0), vec![0, 1]);
        assert_eq!(digits(Tile::V1), vec![0, 1, 2, 3]);
        assert_eq!(digits(Tile::V2), vec![0, 1]);
        assert_eq!(digits(Tile::L0), vec![0, 1, 2, 3]);
        assert_eq!(digits(Tile::L5), (0..8).collect::<Vec<_>>());
        assert_eq!(digits(Tile::F0), vec![0]);
        for t in Tile::EVERY {
            assert_eq!(Tile::from_source(t.source(), t.face()), Some(t), "{t}");
            assert_eq!(t.is_expansion(), !Tile::ALL.contains(&t));
            for o in Orientation::ALL {
                assert_eq!(t.edges(t.canonical(o)), t.edges(o));
            }
        }
        assert_eq!(Tile::V3.to_string(), "V3");
        assert_eq!(Tile::L4.to_string(), "L4");
        assert_eq!(Tile::F0.to_string(), "F0");
        assert_eq!(Tile::from_source(Source::V, 4), None);
    }

    #[test]
    fn map_side_agrees_with_apply() {
        for o in Orientation::ALL {
            let moved = o.apply(Side::ALL);
            for s in Side::ALL {
                assert_eq!(
                    moved[o.map_side(s).index()],
                    s,
                    "orientation {o}, side {s:?}"
                );
            }
        }
    }
}
