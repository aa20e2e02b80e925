//! Scoring (§7): networks and exit points, centre, errors, longest routes.

use serde::Serialize;

use crate::board::Board;
use crate::expansion::Expansion;
use crate::square::{
    CENTRE, EXIT_MASK, EXITS, Exit, HAS_NEIGHBOUR, SQUARES, Side, Square, shift, squares_of,
};
use crate::tile::{Edge, Route};

/// Exit points by the number of exits a network reaches (§7.1).
pub const EXIT_POINTS: [i32; 13] = [0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45];

/// A board's score: the totals of §7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Score {
    /// The sum of the networks' exit points.
    pub exits: i32,
    /// Occupied centre squares.
    pub centre: i32,
    /// Route edges that face a square on the board without a matching edge.
    pub errors: i32,
    /// `exits + centre - errors`.
    pub basic: i32,
    /// Tiles on the longest simple highway path.
    pub longest_highway: i32,
    /// Tiles on the longest simple railway path.
    pub longest_railway: i32,
    /// `basic + longest_highway + longest_railway` (plus `expansion` in an expansion game): the
    /// final score.
    pub advanced: i32,
    /// The expansion's points (rules E5, E6): the smallest lake's squares, or the best river's
    /// squares and bonus; 0 (and left out of JSON) in the base game.
    #[serde(skip_serializing_if = "is_zero")]
    pub expansion: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A river (rule E6): its squares and what it is worth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct River {
    /// Its squares, ascending.
    pub squares: Vec<Square>,
    /// Whether it has two ends and both face off the board (worth 3 more).
    pub both_ends_off: bool,
    /// Its points: a point a square, plus 3 when both ends face off the board.
    pub points: i32,
}

/// A river edge counted as an error (rule E4): its square and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RiverErrorMark {
    /// The square of the tile.
    pub square: Square,
    /// The side of the river edge.
    pub side: Side,
}

/// What a network's flood may step along, found once a board (`Board::joins`).
struct Joins {
    /// `[route][side]`: the squares a flood may step from across that side.
    steps: [[u64; 4]; 2],
    /// In the lake expansion, the piers of each lake that has any (rule E4: a lake joins the
    /// networks of its piers); empty otherwise.
    piers: Vec<u64>,
}

/// A route piece in a network: a whole tile, or one of the overpass's two routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Piece {
    /// The square of the tile.
    pub square: Square,
    /// `None` for a whole tile; the route of the piece for an overpass.
    pub route: Option<Route>,
}

/// A network: a connected set of route pieces, with the exits it uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Network {
    /// The route pieces in the network, by square.
    pub pieces: Vec<Piece>,
    /// The exits the network uses.
    pub exits: Vec<Exit>,
    /// Its exit points (§7.1).
    pub points: i32,
}

/// A route edge counted as an error: its square and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ErrorMark {
    /// The square of the tile.
    pub square: Square,
    /// The side of the edge.
    pub side: Side,
    /// The route on that edge.
    pub route: Route,
}

/// A score with everything it is made of, for showing on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    /// The totals.
    pub score: Score,
    /// Every network, those with exits first (most exits first), then by first square.
    pub networks: Vec<Network>,
    /// Every error edge, by square.
    pub errors: Vec<ErrorMark>,
    /// The occupied centre squares.
    pub centre: Vec<Square>,
    /// One longest highway, tile by tile from one end to the other.
    pub longest_highway: Vec<Square>,
    /// One longest railway, tile by tile.
    pub longest_railway: Vec<Square>,
    /// The lakes (rule E5), smallest first; empty outside the lake expansion.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lakes: Vec<Vec<Square>>,
    /// The rivers (rule E6), best first; empty outside the river expansion.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rivers: Vec<River>,
    /// River edges counted as errors (rule E4).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub river_errors: Vec<RiverErrorMark>,
}

impl Board {
    /// The board's score (§7).
    pub fn score(&self) -> Score {
        let exits = self.exit_points();
        let centre = (self.occupied() & CENTRE).count_ones() as i32;
        let errors = self
            .error_mask()
            .iter()
            .flatten()
            .map(|m| m.count_ones() as i32)
            .sum();
        let (errors, expansion) = match self.expansion() {
            Expansion::None => (errors, 0),
            _ => {
                let (river_errors, points) = self.river_errors_and_expansion_points();
                (errors + river_errors, points)
            }
        };
        let basic = exits + centre - errors;
        let longest_highway = LongestRoute::find(self, Route::Highway, false).len as i32;
        let longest_railway = LongestRoute::find(self, Route::Railway, false).len as i32;
        Score {
            exits,
            centre,
            errors,
            basic,
            longest_highway,
            longest_railway,
            advanced: basic + longest_highway + longest_railway + expansion,
            expansion,
        }
    }

    /// The river edges counted as errors (rule E4; none outside the river expansion), and
    /// the expansion's points: out of the base game's way.
    #[cold]
    #[inline(never)]
    fn river_errors_and_expansion_points(&self) -> (i32, i32) {
        let river_errors = self
            .river_error_mask()
            .iter()
            .map(|m| m.count_ones() as i32)
            .sum();
        (river_errors, self.expansion_points())
    }

    /// Per side: squares whose river edge on that side faces an on-board square that does not
    /// face it with a river edge (rule E4).
    pub(crate) fn river_error_mask(&self) -> [u64; 4] {
        Side::ALL.map(|side| {
            let back = side.opposite();
            self.water_mask(Edge::River, side)
                & HAS_NEIGHBOUR[side.index()]
                & !shift(self.water_mask(Edge::River, back), back)
        })
    }

    /// The components of the squares with a `water` edge, joined through facing `water` edges
    /// (lakes for [`Edge::Lake`], rivers for [`Edge::River`]), by first square.
    pub fn water_bodies(&self, water: Edge) -> Vec<u64> {
        let joins = Side::ALL.map(|side| {
            let back = side.opposite();
            self.water_mask(water, side) & shift(self.water_mask(water, back), back)
        });
        let mut todo = Side::ALL
            .iter()
            .fold(0, |m, &side| m | self.water_mask(water, side));
        let mut out = Vec::new();
        while todo != 0 {
            let mut set = todo & todo.wrapping_neg();
            loop {
                let mut next = set;
                for side in Side::ALL {
                    next |= shift(set & joins[side.index()], side);
                }
                if next == set {
                    break;
                }
                set = next;
            }
            todo &= !set;
            out.push(set);
        }
        out
    }

    /// The expansion's points: the lake's (E5), the river's (E6), or 0 in the base game.
    pub fn expansion_points(&self) -> i32 {
        match self.expansion() {
            Expansion::None => 0,
            Expansion::Lake => self.lake_points(),
            Expansion::River => self.river_points(),
        }
    }

    /// The lake expansion's points: the squares of the smallest lake, 0 without a lake (E5).
    pub fn lake_points(&self) -> i32 {
        self.water_bodies(Edge::Lake)
            .iter()
            .map(|l| l.count_ones() as i32)
            .min()
            .unwrap_or(0)
    }

    /// A river's points: a point a square, plus 3 when it has two ends and both face off the
    /// board (E6). Also whether it earned the bonus.
    pub(crate) fn river_value(&self, river: u64) -> (i32, bool) {
        let mut off = 0;
        let mut open = 0;
        for side in Side::ALL {
            let back = side.opposite();
            let edges = self.water_mask(Edge::River, side) & river;
            off += (edges & !HAS_NEIGHBOUR[side.index()]).count_ones();
            open += (edges
                & HAS_NEIGHBOUR[side.index()]
                & !shift(self.water_mask(Edge::River, back), back))
            .count_ones();
        }
        let bonus = off == 2 && open == 0;
        (river.count_ones() as i32 + if bonus { 3 } else { 0 }, bonus)
    }

    /// The river expansion's points: the best single river, 0 without a river (E6).
    pub fn river_points(&self) -> i32 {
        self.water_bodies(Edge::River)
            .iter()
            .map(|&r| self.river_value(r).0)
            .max()
            .unwrap_or(0)
    }

    /// The score with its whole breakdown: networks, errors, centre squares, longest routes.
    pub fn breakdown(&self) -> Breakdown {
        let mut networks = Vec::new();
        let joins = self.joins();
        // Every piece: whole tiles are in `highway` and `railway` alike; an overpass has two.
        // Lake and river squares without a route are no pieces.
        let routes = self.route_squares();
        let mut todo = PieceSet {
            highway: routes,
            railway: self.overpass_mask(),
        };
        while todo.highway | todo.railway != 0 {
            let start = if todo.highway != 0 {
                PieceSet {
                    highway: todo.highway & todo.highway.wrapping_neg(),
                    railway: 0,
                }
            } else {
                PieceSet {
                    highway: 0,
                    railway: todo.railway & todo.railway.wrapping_neg(),
                }
            };
            let net = self.network(&joins, start);
            todo.highway &= !net.highway;
            todo.railway &= !net.railway;
            networks.push(self.describe_network(net));
        }
        networks.sort_by_key(|n| std::cmp::Reverse(n.exits.len()));
        let mut errors = Vec::new();
        for (r, route) in Route::ALL.into_iter().enumerate() {
            for side in Side::ALL {
                errors.extend(
                    squares_of(self.error_mask()[r][side.index()]).map(|square| ErrorMark {
                        square,
                        side,
                        route,
                    }),
                );
            }
        }
        errors.sort_by_key(|e| (e.square, e.side, e.route));
        let mut lakes: Vec<Vec<Square>> = Vec::new();
        let mut rivers = Vec::new();
        let mut river_errors = Vec::new();
        match self.expansion() {
            Expansion::None => {}
            Expansion::Lake => {
                lakes = self
                    .water_bodies(Edge::Lake)
                    .into_iter()
                    .map(|l| squares_of(l).collect())
                    .collect();
                lakes.sort_by_key(Vec::len);
            }
            Expansion::River => {
                rivers = self
                    .water_bodies(Edge::River)
                    .into_iter()
                    .map(|r| {
                        let (points, both_ends_off) = self.river_value(r);
                        River {
                            squares: squares_of(r).collect(),
                            both_ends_off,
                            points,
                        }
                    })
                    .collect();
                rivers.sort_by_key(|r| std::cmp::Reverse(r.points));
                for (side, mask) in Side::ALL.into_iter().zip(self.river_error_mask()) {
                    river_errors
                        .extend(squares_of(mask).map(|square| RiverErrorMark { square, side }));
                }
                river_errors.sort_by_key(|e| (e.square, e.side));
            }
        }
        Breakdown {
            score: self.score(),
            networks,
            errors,
            centre: squares_of(self.occupied() & CENTRE).collect(),
            longest_highway: LongestRoute::find(self, Route::Highway, true).squares(),
            longest_railway: LongestRoute::find(self, Route::Railway, true).squares(),
            lakes,
            rivers,
            river_errors,
        }
    }

    /// The network containing `start`: the route pieces joined by facing edges and, in the
    /// lake expansion, every pier of a lake that one of its piers touches (rule E4).
    #[inline]
    fn network(&self, joins: &Joins, start: PieceSet) -> PieceSet {
        let net = self.flood_network(joins, start);
        if joins.piers.is_empty() {
            return net;
        }
        self.joined_through_lakes(joins, net)
    }

    /// A network of the lake expansion with the networks of the piers of every lake it
    /// touches joined to it (rule E4).
    #[cold]
    #[inline(never)]
    fn joined_through_lakes(&self, joins: &Joins, mut net: PieceSet) -> PieceSet {
        loop {
            let squares = net.highway | net.railway;
            let mut piers = 0;
            for &lake in &joins.piers {
                if lake & squares != 0 {
                    piers |= lake;
                }
            }
            if piers & !squares == 0 {
                return net;
            }
            net = self.flood_network(
                joins,
                PieceSet {
                    highway: net.highway | piers,
                    railway: net.railway | piers,
                },
            );
        }
    }

    /// `[route][side]`: squares whose `route` edge on `side` is an error (§7.3).
    pub(crate) fn error_mask(&self) -> [[u64; 4]; 2] {
        let mut out = [[0; 4]; 2];
        for route in Route::ALL {
            for side in Side::ALL {
                let back = side.opposite();
                let facing_board = self.edge_mask(route, side) & HAS_NEIGHBOUR[side.index()];
                let matched = shift(self.edge_mask(route, back), back);
                out[route.index()][side.index()] = facing_board & !matched;
            }
        }
        out
    }

    /// Each network that uses an exit, once: only these can score, so only these are flooded.
    fn exit_network_sets(&self) -> impl Iterator<Item = PieceSet> + '_ {
        let mut done = PieceSet::default();
        let joins = self.joins();
        EXITS.into_iter().filter_map(move |exit| {
            let bit = exit.square.bit();
            let start = PieceSet::single(exit.route, bit);
            if self.edge_mask(exit.route, exit.side) & bit == 0 || done.contains(start) {
                return None;
            }
            let net = self.network(&joins, start);
            done.highway |= net.highway;
            done.railway |= net.railway;
            Some(net)
        })
    }

    /// The sum of exit points over all networks.
    pub(crate) fn exit_points(&self) -> i32 {
        self.exit_network_sets()
            .map(|net| EXIT_POINTS[self.exits_of(net).count()])
            .sum()
    }

    /// For each network that uses an exit: how many exits it uses, how many of its route ends
    /// face an empty square, and which squares those are. Returns how many were written.
    pub(crate) fn exit_networks(&self, out: &mut [NetworkStat; 12]) -> usize {
        let empty = crate::square::ALL_SQUARES & !self.occupied();
        let mut n = 0;
        for net in self.exit_network_sets() {
            let mut open_ends = 0;
            let mut frontier = 0;
            for route in Route::ALL {
                for side in Side::ALL {
                    let facing_empty = shift(empty, side.opposite());
                    let ends = net.get(route) & self.edge_mask(route, side) & facing_empty;
                    open_ends += ends.count_ones();
                    frontier |= shift(ends, side);
                }
            }
            out[n] = NetworkStat {
                exits: self.exits_of(net).count() as u8,
                open_ends: open_ends as u8,
                frontier,
            };
            n += 1;
        }
        n
    }

    /// `[route][side]`: squares whose `route` edge on `side` meets the same route on the
    /// neighbour's facing side: the steps a network's flood may take, found once a board.
    fn joins(&self) -> Joins {
        let mut steps = [[0; 4]; 2];
        for route in Route::ALL {
            for side in Side::ALL {
                let back = side.opposite();
                steps[route.index()][side.index()] =
                    self.edge_mask(route, side) & shift(self.edge_mask(route, back), back);
            }
        }
        let piers = match self.expansion() {
            Expansion::Lake => self.lake_piers(),
            _ => Vec::new(),
        };
        Joins { steps, piers }
    }

    /// The piers of each lake that has any: the lake's squares with a route edge.
    #[cold]
    #[inline(never)]
    fn lake_piers(&self) -> Vec<u64> {
        let routes = self.route_squares();
        self.water_bodies(Edge::Lake)
            .into_iter()
            .map(|lake| lake & routes)
            .filter(|&piers| piers != 0)
            .collect()
    }

    /// The network containing the pieces of `start`, flooded along `joins` (the board's
    /// [`Board::joins`]).
    fn flood_network(&self, joins: &Joins, start: PieceSet) -> PieceSet {
        let joined = self.occupied() & !self.overpass_mask();
        let mut set = start;
        loop {
            // A whole tile's highway and railway edges belong to one piece.
            let whole = (set.highway | set.railway) & joined;
            let mut next = PieceSet {
                highway: set.highway | whole,
                railway: set.railway | whole,
            };
            for (r, route) in Route::ALL.into_iter().enumerate() {
                let from = next.get(route);
                let mut reached = from;
                for side in Side::ALL {
                    reached |= shift(from & joins.steps[r][side.index()], side);
                }
                if r == 0 {
                    next.highway = reached;
                } else {
                    next.railway = reached;
                }
            }
            if next == set {
                return set;
            }
            set = next;
        }
    }

    /// The exits used by a network (§7.1 step 3).
    fn exits_of(&self, net: PieceSet) -> impl Iterator<Item = Exit> + '_ {
        EXITS.into_iter().filter(move |e| {
            let mask = EXIT_MASK[e.route.index()][e.side.index()] & self.edge_mask(e.route, e.side);
            net.get(e.route) & mask & e.square.bit() != 0
        })
    }

    fn describe_network(&self, net: PieceSet) -> Network {
        let overpass = self.overpass_mask();
        let whole = (net.highway | net.railway) & !overpass;
        let mut pieces: Vec<Piece> = squares_of(whole)
            .map(|square| Piece {
                square,
                route: None,
            })
            .collect();
        for route in Route::ALL {
            pieces.extend(squares_of(net.get(route) & overpass).map(|square| Piece {
                square,
                route: Some(route),
            }));
        }
        pieces.sort_by_key(|p| (p.square, p.route));
        let exits: Vec<Exit> = self.exits_of(net).collect();
        let points = EXIT_POINTS[exits.len()];
        Network {
            pieces,
            exits,
            points,
        }
    }
}

impl Board {
    /// Tiles on the longest simple path of one route type (§7.5): the plain search, which the
    /// evaluation's remembered answers are tested against.
    #[cfg(test)]
    pub(crate) fn longest(&self, route: Route) -> i32 {
        LongestRoute::find(self, route, false).len as i32
    }

    /// Where one route type joins neighbouring tiles: the squares joined by it to their east
    /// neighbour, and those joined to their south neighbour. Every longest path of the route
    /// with more than one tile runs over these joins only.
    pub(crate) fn route_joins(&self, route: Route) -> [u64; 2] {
        [Side::E, Side::S].map(|side| {
            self.edge_mask(route, side)
                & shift(self.edge_mask(route, side.opposite()), side.opposite())
        })
    }

    /// Whether any tile has this route type on some side.
    pub(crate) fn has_route(&self, route: Route) -> bool {
        Side::ALL
            .iter()
            .any(|&side| self.edge_mask(route, side) != 0)
    }
}

/// Tiles on the longest simple path over the joins of [`Board::route_joins`] (0 when there are
/// none): the board's longest route of that type when it has a join, the same search.
pub(crate) fn longest_over_joins(joins: [u64; 2]) -> i32 {
    LongestRoute::search(adjacent_of(joins), false).len as i32
}

/// Per side, the tiles joined to their neighbour across it, from the east and south joins
/// (a tile joined south has its southern neighbour joined north, and so on).
fn adjacent_of([east, south]: [u64; 2]) -> [u64; 4] {
    [shift(south, Side::S), east, south, shift(east, Side::E)]
}

/// A network's exits and open route ends, for evaluating a board mid-game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct NetworkStat {
    pub exits: u8,
    pub open_ends: u8,
    /// The empty squares its open ends face.
    pub frontier: u64,
}

/// A set of route pieces: `highway` holds whole tiles and overpass highways, `railway` holds
/// whole tiles and overpass railways. A whole tile is in both once reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct PieceSet {
    highway: u64,
    railway: u64,
}

impl PieceSet {
    fn single(route: Route, bit: u64) -> PieceSet {
        match route {
            Route::Highway => PieceSet {
                highway: bit,
                railway: 0,
            },
            Route::Railway => PieceSet {
                highway: 0,
                railway: bit,
            },
        }
    }

    fn get(&self, route: Route) -> u64 {
        match route {
            Route::Highway => self.highway,
            Route::Railway => self.railway,
        }
    }

    fn contains(&self, other: PieceSet) -> bool {
        other.highway & !self.highway == 0 && other.railway & !self.railway == 0
    }
}

/// The longest simple path of one route type (§7.5), found by depth-first search with a bound:
/// a branch stops when even every tile it could still reach would not beat the best path.
struct LongestRoute {
    /// Per side: tiles joined to their neighbour across that side by this route.
    adjacent: [u64; 4],
    len: u32,
    path: [u8; SQUARES],
    current: [u8; SQUARES],
    track_path: bool,
    /// The size of the component being searched: a path this long cannot be beaten.
    limit: u32,
}

impl LongestRoute {
    fn find(board: &Board, route: Route, track_path: bool) -> LongestRoute {
        let mut search = LongestRoute::search(adjacent_of(board.route_joins(route)), track_path);
        let nodes = Side::ALL
            .iter()
            .fold(0, |acc, &side| acc | board.edge_mask(route, side));
        if search.len == 0 && nodes != 0 {
            // No two tiles joined: any tile with the route is a path of one.
            search.len = 1;
            search.path[0] = nodes.trailing_zeros() as u8;
        }
        search
    }

    /// The longest path over the joins `adjacent` (per side: tiles joined to their neighbour
    /// across it); 0 when there are none.
    fn search(adjacent: [u64; 4], track_path: bool) -> LongestRoute {
        let nodes = adjacent.iter().fold(0, |acc, m| acc | m);
        let mut search = LongestRoute {
            adjacent,
            len: 0,
            path: [0; SQUARES],
            current: [0; SQUARES],
            track_path,
            limit: 0,
        };
        let mut remaining = nodes;
        while remaining != 0 {
            let component = search.reach(remaining & remaining.wrapping_neg(), nodes);
            remaining &= !component;
            let size = component.count_ones();
            if size <= search.len {
                continue;
            }
            search.limit = size;
            let links = (component & adjacent[Side::E.index()]).count_ones()
                + (component & adjacent[Side::S.index()]).count_ones();
            if links + 1 == size {
                search.tree_diameter(component);
                continue;
            }
            // Dead ends first: a longest path usually ends at one, so the bound bites early.
            let ends =
                squares_of(component).filter(|s| search.neighbours(s.bit()).count_ones() == 1);
            let ends = ends.fold(0, |acc, s| acc | s.bit());
            for start in squares_of(ends).chain(squares_of(component & !ends)) {
                if search.len == search.limit {
                    break;
                }
                search.current[0] = start.index() as u8;
                search.extend(start.bit(), start.bit(), 1, component);
            }
        }
        search
    }

    /// The longest path of a tree component: the farthest tile from anywhere is one end,
    /// and the farthest from that end is the other (two breadth-first searches over masks).
    fn tree_diameter(&mut self, component: u64) {
        let mut layers = [0u64; SQUARES];
        let far = self.layers(component & component.wrapping_neg(), component, &mut layers);
        let end = layers[far - 1] & layers[far - 1].wrapping_neg();
        let depth = self.layers(end, component, &mut layers);
        if depth as u32 <= self.len {
            return;
        }
        self.len = depth as u32;
        if self.track_path {
            // Walk back from the last layer to the end, one joined tile per layer.
            let mut at = layers[depth - 1] & layers[depth - 1].wrapping_neg();
            for i in (0..depth).rev() {
                self.path[i] = at.trailing_zeros() as u8;
                if i > 0 {
                    let before = self.neighbours(at) & layers[i - 1];
                    at = before & before.wrapping_neg();
                }
            }
        }
    }

    /// Breadth-first layers from `start` inside `within`; returns how many there are.
    fn layers(&self, start: u64, within: u64, layers: &mut [u64; SQUARES]) -> usize {
        let mut seen = start;
        let mut frontier = start;
        let mut n = 0;
        while frontier != 0 {
            layers[n] = frontier;
            n += 1;
            frontier = self.neighbours(frontier) & within & !seen;
            seen |= frontier;
        }
        n
    }

    #[inline]
    fn neighbours(&self, set: u64) -> u64 {
        let a = &self.adjacent;
        shift(set & a[0], Side::N)
            | shift(set & a[1], Side::E)
            | shift(set & a[2], Side::S)
            | shift(set & a[3], Side::W)
    }

    /// Everything reachable from `from` inside `within`.
    #[inline]
    fn reach(&self, from: u64, within: u64) -> u64 {
        let mut set = from;
        loop {
            let next = (set | self.neighbours(set)) & within;
            if next == set {
                return set;
            }
            set = next;
        }
    }

    fn extend(&mut self, at: u64, visited: u64, depth: u32, component: u64) {
        if depth > self.len {
            self.len = depth;
            if self.track_path {
                self.path[..depth as usize].copy_from_slice(&self.current[..depth as usize]);
            }
            if depth == self.limit {
                return;
            }
        }
        let free = component & !visited;
        let mut next = self.neighbours(at) & free;
        if next == 0 {
            return;
        }
        if depth + self.reach(next, free).count_ones() <= self.len {
            return;
        }
        while next != 0 {
            let bit = next & next.wrapping_neg();
            next &= next - 1;
            self.current[depth as usize] = bit.trailing_zeros() as u8;
            self.extend(bit, visited | bit, depth + 1, component);
            if self.len == self.limit {
                return;
            }
        }
    }

    fn squares(&self) -> Vec<Square> {
        self.path[..self.len as usize]
            .iter()
            .map(|&i| Square::at(i))
            .collect()
    }
}
