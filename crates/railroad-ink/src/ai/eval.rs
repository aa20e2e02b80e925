//! A static evaluation of a board mid-game: the score it has, and what its open route ends
//! and free exits are likely to become.
//!
//! Every empty square next to a route end is classified by what its four neighbours demand
//! (a highway, a railway, a blank wall, nothing yet, the board edge, an exit). A table built
//! once says, for each of the 7⁴ patterns, how likely one roll offers a die tile that fills
//! the square with no new error, and whether a special can. Open ends into squares no die can
//! fill are nearly certain errors; open ends into easy squares are likely to be closed.

use std::sync::OnceLock;

use crate::board::Board;
use crate::score::{EXIT_POINTS, NetworkStat};
use crate::square::{ALL_SQUARES, CENTRE, EXIT_MASK, EXITS, Side, shift};
use crate::tile::{Edge, Orientation, Route, Tile};

/// What a side of an empty square faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Facing {
    Open = 0,
    Highway = 1,
    Railway = 2,
    Wall = 3,
    BoardEdge = 4,
    HighwayExit = 5,
    RailwayExit = 6,
}

const FACINGS: [Facing; 7] = [
    Facing::Open,
    Facing::Highway,
    Facing::Railway,
    Facing::Wall,
    Facing::BoardEdge,
    Facing::HighwayExit,
    Facing::RailwayExit,
];

const PATTERNS: usize = 7 * 7 * 7 * 7;

/// How a pattern of four facings can be filled.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fill {
    /// Probability that a random roll has at least one die tile that fills the square with
    /// every demand met and no route into a wall.
    pub roll_chance: f32,
    /// Whether some special fills it that way.
    pub special: bool,
}

fn fits(edges: [Edge; 4], pattern: [Facing; 4]) -> bool {
    edges.iter().zip(pattern).all(|(&e, f)| match f {
        Facing::Open | Facing::BoardEdge => true,
        Facing::Highway => e == Edge::Highway,
        Facing::Railway => e == Edge::Railway,
        Facing::Wall => e == Edge::Blank,
        Facing::HighwayExit => e != Edge::Railway,
        Facing::RailwayExit => e != Edge::Highway,
    })
}

fn fill_table() -> &'static [Fill; PATTERNS] {
    static TABLE: OnceLock<Box<[Fill; PATTERNS]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([Fill::default(); PATTERNS]);
        for (code, fill) in table.iter_mut().enumerate() {
            let pattern = [0, 1, 2, 3].map(|d| FACINGS[(code / 7usize.pow(d)) % 7]);
            let fits_tile = |t: Tile| Orientation::ALL.iter().any(|&o| fits(t.edges(o), pattern));
            let a = Tile::ALL[..6].iter().filter(|&&t| fits_tile(t)).count() as f32 / 6.0;
            let b = Tile::ALL[6..9].iter().filter(|&&t| fits_tile(t)).count() as f32 / 3.0;
            fill.roll_chance = 1.0 - (1.0 - a).powi(3) * (1.0 - b);
            fill.special = Tile::SPECIALS.iter().any(|&t| fits_tile(t));
        }
        table
    })
}

/// The number of features.
pub const FEATURES: usize = 24;

/// Names of the features, in order.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "bias",
    "exit_points",
    "centre",
    "longest_highway",
    "longest_railway",
    "fixed_errors",
    "open_ends",
    "hard_ends",
    "doomed_ends",
    "exits_used",
    "exits_free",
    "exits_blocked",
    "live_networks",
    "live_exits",
    "dead_single_exits",
    "largest_network_exits",
    "empty_squares",
    "specials_left",
    "merged_potential",
    "reach_potential",
    "reach_points",
    "near_potential",
    "open_highway_ends",
    "centre_frontier",
];

/// Features of a board, each a number the evaluation weighs (see [`FEATURE_NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Features(pub [f32; FEATURES]);

impl Features {
    /// The features of a board.
    pub fn of(board: &Board) -> Features {
        let occupied = board.occupied();
        let empty = ALL_SQUARES & !occupied;
        let table = fill_table();

        // Per side: which empty squares face a highway, a railway, a wall, or an open square.
        let mut facing = [[0u64; 4]; 4];
        let mut open_ends = 0;
        let mut open_highway_ends = 0;
        for side in Side::ALL {
            let back = side.opposite();
            let h = board.edge_mask(Route::Highway, back);
            let r = board.edge_mask(Route::Railway, back);
            let d = side.index();
            facing[d][0] = shift(h, back) & empty;
            facing[d][1] = shift(r, back) & empty;
            facing[d][2] = shift(occupied & !(h | r), back) & empty;
            facing[d][3] = shift(empty, back) & empty;
            open_ends += (facing[d][0] | facing[d][1]).count_ones();
            open_highway_ends += facing[d][0].count_ones();
        }
        let demanded = (0..4).fold(0, |acc, d| acc | facing[d][0] | facing[d][1]);

        let mut hard_ends = 0.0;
        let mut doomed_ends = 0.0;
        let mut squares = demanded;
        while squares != 0 {
            let bit = squares & squares.wrapping_neg();
            squares &= squares - 1;
            let mut code = 0;
            let mut demands = 0;
            let mut weight = 1;
            for side in Side::ALL {
                let d = side.index();
                let f = if facing[d][0] & bit != 0 {
                    demands += 1;
                    Facing::Highway
                } else if facing[d][1] & bit != 0 {
                    demands += 1;
                    Facing::Railway
                } else if facing[d][2] & bit != 0 {
                    Facing::Wall
                } else if facing[d][3] & bit != 0 {
                    Facing::Open
                } else if EXIT_MASK[0][d] & bit != 0 {
                    Facing::HighwayExit
                } else if EXIT_MASK[1][d] & bit != 0 {
                    Facing::RailwayExit
                } else {
                    Facing::BoardEdge
                };
                code += f as usize * weight;
                weight *= 7;
            }
            let fill = table[code];
            hard_ends += demands as f32 * (1.0 - fill.roll_chance);
            if fill.roll_chance == 0.0 {
                doomed_ends += demands as f32;
            }
        }

        let errors: u32 = board
            .error_mask()
            .iter()
            .flatten()
            .map(|m| m.count_ones())
            .sum();
        let (mut exits_used, mut exits_free, mut exits_blocked) = (0, 0, 0);
        for e in EXITS {
            let bit = e.square.bit();
            if board.edge_mask(e.route, e.side) & bit != 0 {
                exits_used += 1;
            } else if empty & bit != 0 {
                exits_free += 1;
            } else {
                exits_blocked += 1;
            }
        }
        let mut nets = [NetworkStat::default(); 12];
        let n = board.exit_networks(&mut nets);
        let (mut exit_points, mut live_networks, mut live_exits, mut dead_single, mut largest) =
            (0, 0, 0, 0, 0);
        for net in &nets[..n] {
            exit_points += EXIT_POINTS[net.exits as usize];
            largest = largest.max(net.exits);
            if net.open_ends > 0 {
                live_networks += 1;
                live_exits += net.exits as usize;
            } else if net.exits == 1 {
                dead_single += 1;
            }
        }
        let reach = reach_potential(&nets[..n], empty);
        Features([
            1.0,
            exit_points as f32,
            (occupied & CENTRE).count_ones() as f32,
            longest(board, Route::Highway) as f32,
            longest(board, Route::Railway) as f32,
            (errors - open_ends) as f32,
            open_ends as f32,
            hard_ends,
            doomed_ends,
            exits_used as f32,
            exits_free as f32,
            exits_blocked as f32,
            live_networks as f32,
            live_exits as f32,
            dead_single as f32,
            largest as f32,
            empty.count_ones() as f32,
            (3 - board.special_count().min(3)) as f32,
            EXIT_POINTS[live_exits.min(12)] as f32,
            reach.0 as f32,
            EXIT_POINTS[reach.0.min(12)] as f32,
            reach.1 as f32,
            open_highway_ends as f32,
            (demanded & CENTRE).count_ones() as f32,
        ])
    }

    /// The board's score as it would be if the game ended now.
    pub fn score(&self) -> f32 {
        let f = &self.0;
        f[1] + f[2] + f[3] + f[4] - f[5] - f[6]
    }
}

/// Longest routes already found, by the joins they run over: a search meets the same route
/// graphs again and again (a tile placed away from a route, or joined only by the other route
/// type, leaves the route's joins as they were), and on boards with loops the longest path
/// costs an exponential search. The longest path is a function of the joins alone, stored
/// whole in each slot, so an answer is always exact. Direct-mapped, one per thread.
struct LongestMemo {
    slots: Vec<([u64; 2], i32)>,
}

impl LongestMemo {
    const SLOTS: usize = 1 << 14;

    fn get(&mut self, joins: [u64; 2]) -> i32 {
        let mixed = (joins[0] ^ joins[1].rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(mixed >> 50) as usize];
        if slot.0 != joins {
            *slot = (joins, crate::score::longest_over_joins(joins));
        }
        slot.1
    }
}

/// Tiles on the board's longest route of one type, as [`Board::longest`] counts them.
fn longest(board: &Board, route: Route) -> i32 {
    thread_local! {
        // Joins of [0, 0] are never stored (no join: answered below), so an empty slot never
        // answers.
        static MEMO: std::cell::RefCell<LongestMemo> = std::cell::RefCell::new(LongestMemo {
            slots: vec![([0, 0], 0); LongestMemo::SLOTS],
        });
    }
    let joins = board.route_joins(route);
    if joins == [0, 0] {
        return i32::from(board.has_route(route));
    }
    MEMO.with(|memo| memo.borrow_mut().get(joins))
}

/// How many exits the main network (most exits) could still gather: its own, the free exits
/// its open ends can reach through empty squares, and those of other live networks it can
/// reach. Second: the same within three squares.
fn reach_potential(nets: &[NetworkStat], empty: u64) -> (usize, usize) {
    let Some(main) = nets.iter().max_by_key(|n| (n.exits, n.open_ends)) else {
        return (0, 0);
    };
    let spread = |set: u64| {
        (shift(set, Side::N)
            | shift(set, Side::E)
            | shift(set, Side::S)
            | shift(set, Side::W)
            | set)
            & empty
    };
    let mut near = main.frontier;
    for _ in 0..2 {
        near = spread(near);
    }
    let mut far = near;
    loop {
        let next = spread(far);
        if next == far {
            break;
        }
        far = next;
    }
    let count = |area: u64| {
        let free = EXITS.iter().filter(|e| area & e.square.bit() != 0).count();
        let merged: usize = nets
            .iter()
            .filter(|n| !std::ptr::eq(*n, main) && n.frontier & area != 0)
            .map(|n| n.exits as usize)
            .sum();
        main.exits as usize + free + merged
    };
    (count(far), count(near))
}

/// A linear evaluation per number of rounds left: `value = w[rounds_left] · features`.
/// With no round left it is the score itself. [`Model::default`] is the strong player's
/// trained weights (baked in, with that `Default`, by the private module `ai::trained`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Model {
    /// Weights per rounds left (row 0: the exact score), features in [`FEATURE_NAMES`] order.
    pub weights: [[f32; FEATURES]; 7],
}

/// The exact final score as a weight row.
#[cfg(test)]
const SCORE_ROW: [f32; FEATURES] = {
    let mut row = [0.0; FEATURES];
    row[1] = 1.0;
    row[2] = 1.0;
    row[3] = 1.0;
    row[4] = 1.0;
    row[5] = -1.0;
    row[6] = -1.0;
    row
};

impl Model {
    /// The value of a board's features with `rounds_left` rounds still to play.
    #[inline]
    pub fn value(&self, f: &Features, rounds_left: usize) -> f32 {
        let w = &self.weights[rounds_left.min(6)];
        w.iter().zip(&f.0).map(|(a, b)| a * b).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_no_round_left_the_value_is_the_score() {
        for text in [
            "A4A10",
            "A4A10A1B01S5B10",
            "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52",
        ] {
            let board: Board = text.parse().unwrap();
            let f = Features::of(&board);
            assert_eq!(f.score() as i32, board.score().advanced, "{text}");
            assert_eq!(
                Model::default().value(&f, 0) as i32,
                board.score().advanced,
                "{text}"
            );
        }
    }

    #[test]
    fn remembered_longest_routes_are_the_boards_own() {
        // Thousands of boards from random games, each read twice (the second time from the
        // memo where it was kept), against the plain search.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..40 {
            let mut board = Board::new();
            for _ in 0..32 {
                let options: Vec<_> = Tile::ALL
                    .iter()
                    .filter(|&&t| !(t.is_special() && board.has_special(t)))
                    .flat_map(|&t| board.legal_placements(t))
                    .collect();
                if options.is_empty() {
                    break;
                }
                board.put(options[rng.random_range(0..options.len())]);
                for route in Route::ALL {
                    for _ in 0..2 {
                        assert_eq!(longest(&board, route), board.longest(route), "{board}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_trained_model_values_a_finished_board_at_its_score() {
        assert_eq!(Model::default().weights[0], SCORE_ROW);
    }

    #[test]
    fn fill_table_knows_easy_and_impossible_squares() {
        let t = fill_table();
        // A square demanding a highway from the north only: many tiles fit.
        let north_highway = Facing::Highway as usize;
        assert!(t[north_highway].roll_chance > 0.9);
        // Highway from the north and south, railway from the east and west: only the overpass
        // or S5 fit; B2 is a die-B face, so a third of rolls.
        let cross = [
            Facing::Highway,
            Facing::Railway,
            Facing::Highway,
            Facing::Railway,
        ]
        .iter()
        .enumerate()
        .map(|(d, &f)| f as usize * 7usize.pow(d as u32))
        .sum::<usize>();
        assert!((t[cross].roll_chance - 1.0 / 3.0).abs() < 1e-6);
        assert!(t[cross].special);
        // Highway from all four sides: only S2.
        let four: usize = (0..4)
            .map(|d| Facing::Highway as usize * 7usize.pow(d))
            .sum();
        assert_eq!(t[four].roll_chance, 0.0);
        assert!(t[four].special);
    }
}
