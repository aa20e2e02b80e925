//! An n-tuple evaluation learned by temporal-difference self-play, added to the linear
//! evaluation of [`super::eval`].
//!
//! The board is padded with a ring of outside cells (9×9). Every side of every cell says
//! what it presents to its neighbour: `0` an empty square, `1` a tile's blank side, `2` a
//! highway, `3` a railway; an outside cell shows `2` or `3` where a highway or railway exit
//! faces the board and `4` (the board's edge) elsewhere. Two kinds of tuple are summed:
//!
//! - **blocks**: each of the 64 2×2 blocks of the padded board (every block holds at least one
//!   board square) is read as the 8 values across its 4 inner borders (both sides of each),
//!   `5⁸ = 390,625` patterns, one table shared by every block position, by stage (rounds left
//!   1, 2–3, 4–6);
//! - **squares**: each of the 49 squares by position, its class being empty or the route type
//!   on each of its 4 sides (`1 + 3⁴ = 82` classes), one table per rounds left (1–6).
//!
//! So the route ends, whether they meet, where they face an empty square, a wall, the board's
//! edge or an exit, are what the tables see, not tile codes. No weights are shared across board
//! symmetries. With no round left the value is 0: the linear part is then the exact score.
//!
//! The training, TD(λ) over the strong player's self-play games ([`train`], [`td_update`] and
//! their helpers), is in the child module `td` and re-exported here.

use std::fmt;
use std::sync::Arc;

use super::eval::{Features, Model};
use crate::board::Board;
use crate::game::ROUNDS;
use crate::square::{EXITS, SQUARES, Side};
use crate::tile::Route;

mod td;

pub use td::{TdConfig, agent, mean_score, self_play, td_update, train};

/// Values a cell side takes in a block pattern.
pub const SIDE_VALUES: usize = 5;
/// Patterns of one 2×2 block: 8 side values.
pub const BLOCK_PATTERNS: usize = SIDE_VALUES.pow(8);
/// Blocks of the padded 9×9 board.
pub const BLOCKS: usize = 64;
/// Stages (buckets of rounds left) of the block table.
pub const BLOCK_STAGES: usize = 3;
/// Classes of a square: empty, or the edge (blank, highway, railway) on each side.
pub const SQUARE_CLASSES: usize = 1 + 81;
/// Stages of the square tables: rounds left 1–6.
pub const SQUARE_STAGES: usize = ROUNDS - 1;
/// Weights of one stage's square tables.
const SQUARE_TABLE: usize = SQUARES * SQUARE_CLASSES;
/// Where the block tables start.
const BLOCK_BASE: usize = SQUARE_STAGES * SQUARE_TABLE;
/// All the weights.
pub const WEIGHTS: usize = BLOCK_BASE + BLOCK_STAGES * BLOCK_PATTERNS;
/// Weights read for one board: one per square and one per block.
pub const ACTIVE: usize = SQUARES + BLOCKS;

/// The padded board: 9×9 cells, the board's squares at rows and columns 1–7.
const PAD: usize = 9;

/// The block stage of a number of rounds left (1–6).
fn block_stage(rounds_left: usize) -> usize {
    match rounds_left {
        0 | 1 => 0,
        2 | 3 => 1,
        _ => 2,
    }
}

/// The padded cell of each square.
const PADDED: [usize; SQUARES] = {
    let mut out = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        out[sq] = (sq / 7 + 1) * PAD + sq % 7 + 1;
        sq += 1;
    }
    out
};

/// Each padded cell's side values, one plane per side (N, E, S, W).
fn side_values(board: &Board) -> [[u8; PAD * PAD]; 4] {
    let mut planes = [[4u8; PAD * PAD]; 4];
    let occupied = board.occupied();
    for side in Side::ALL {
        let plane = &mut planes[side.index()];
        let h = board.edge_mask(Route::Highway, side);
        let r = board.edge_mask(Route::Railway, side);
        for (sq, &cell) in PADDED.iter().enumerate() {
            // Empty 0; a tile's blank side 1, highway 2, railway 3 (h and r never both).
            let (o, h, r) = ((occupied >> sq) & 1, (h >> sq) & 1, (r >> sq) & 1);
            plane[cell] = (o * (1 + h + 2 * r)) as u8;
        }
    }
    for e in EXITS {
        let (row, col) = (e.square.row() as usize + 1, e.square.column() as usize + 1);
        let (row, col) = match e.side {
            Side::N => (row - 1, col),
            Side::S => (row + 1, col),
            Side::E => (row, col + 1),
            Side::W => (row, col - 1),
        };
        planes[e.side.opposite().index()][row * PAD + col] = match e.route {
            Route::Highway => 2,
            Route::Railway => 3,
        };
    }
    planes
}

/// The pattern (0..[`BLOCK_PATTERNS`]) of each 2×2 block of side values, block `(r, c)` of
/// the padded board at index `r * 8 + c`: cells `a b` over `d f`, the base-5 digits (lowest
/// first) `a.E b.W d.E f.W a.S d.N b.S f.N`.
pub fn block_patterns(board: &Board) -> [u32; BLOCKS] {
    blocks_of(&side_values(board))
}

fn blocks_of(planes: &[[u8; PAD * PAD]; 4]) -> [u32; BLOCKS] {
    let [north, east, south, west] = planes;
    // Each border's pair of values: across (cell, cell to the east), down (cell, cell below).
    let mut across = [0u32; PAD * (PAD - 1)];
    let mut down = [0u32; (PAD - 1) * PAD];
    for r in 0..PAD {
        for c in 0..PAD - 1 {
            across[r * (PAD - 1) + c] = east[r * PAD + c] as u32 + 5 * west[r * PAD + c + 1] as u32;
        }
    }
    for r in 0..PAD - 1 {
        for c in 0..PAD {
            down[r * PAD + c] = south[r * PAD + c] as u32 + 5 * north[(r + 1) * PAD + c] as u32;
        }
    }
    let mut out = [0u32; BLOCKS];
    for r in 0..PAD - 1 {
        for c in 0..PAD - 1 {
            out[r * 8 + c] = across[r * (PAD - 1) + c]
                + 25 * across[(r + 1) * (PAD - 1) + c]
                + 625 * down[r * PAD + c]
                + 15_625 * down[r * PAD + c + 1];
        }
    }
    out
}

/// The class (0..[`SQUARE_CLASSES`]) of each square: 0 when empty, else 1 + its edges in base
/// 3 (blank 0, highway 1, railway 2; N the lowest digit).
pub fn square_classes(board: &Board) -> [u8; SQUARES] {
    classes_of(&side_values(board))
}

fn classes_of(planes: &[[u8; PAD * PAD]; 4]) -> [u8; SQUARES] {
    let mut out = [0u8; SQUARES];
    for (class, &cell) in out.iter_mut().zip(&PADDED) {
        let [n, e, s, w] = [0, 1, 2, 3].map(|d| planes[d][cell]);
        // A tile has no empty side: 0 on one side means an empty square.
        if n != 0 {
            *class = 1 + (n - 1) + 3 * (e - 1) + 9 * (s - 1) + 27 * (w - 1);
        }
    }
    out
}

/// Where one side of a square shows in the block patterns: the two blocks whose inner
/// borders hold it, and the digit's weight (a power of 5) in each.
#[derive(Clone, Copy)]
struct Contribution {
    blocks: [u8; 2],
    weights: [u32; 2],
}

/// [`Contribution`] of each square's sides (N, E, S, W), by the digit layout of
/// [`block_patterns`]: the border east of padded cell `(r, c)` is digit 0 of block `(r, c)`
/// and digit 1 of block `(r - 1, c)` (the cell west of it is `a` of the first, `d` of the
/// second), the border south of it digit 4 of block `(r, c)` and digit 5 of block `(r, c - 1)`.
const CONTRIBUTIONS: [[Contribution; 4]; SQUARES] = {
    let mut out = [[Contribution {
        blocks: [0; 2],
        weights: [0; 2],
    }; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (r, c) = (sq / 7 + 1, sq % 7 + 1);
        // N: the border south of (r - 1, c), its lower cell's side (the high digit).
        out[sq][0] = Contribution {
            blocks: [((r - 1) * 8 + c) as u8, ((r - 1) * 8 + c - 1) as u8],
            weights: [3_125, 78_125],
        };
        // E: the border east of (r, c), its west cell's side (the low digit).
        out[sq][1] = Contribution {
            blocks: [(r * 8 + c) as u8, ((r - 1) * 8 + c) as u8],
            weights: [1, 25],
        };
        // S: the border south of (r, c), its upper cell's side (the low digit).
        out[sq][2] = Contribution {
            blocks: [(r * 8 + c) as u8, (r * 8 + c - 1) as u8],
            weights: [625, 15_625],
        };
        // W: the border east of (r, c - 1), its east cell's side (the high digit).
        out[sq][3] = Contribution {
            blocks: [(r * 8 + c - 1) as u8, ((r - 1) * 8 + c - 1) as u8],
            weights: [5, 125],
        };
        sq += 1;
    }
    out
};

/// The block patterns of the empty board (the exits and the board's edge alone).
fn empty_blocks() -> &'static [u32; BLOCKS] {
    static CELL: std::sync::OnceLock<[u32; BLOCKS]> = std::sync::OnceLock::new();
    CELL.get_or_init(|| block_patterns(&Board::new()))
}

/// The indices of the weights a board reads with `rounds_left` rounds to play (1–6).
///
/// The same as reading [`square_classes`] and [`block_patterns`], computed from the empty
/// board's patterns by adding each tile's sides (an empty square's sides are 0): this runs
/// in every evaluation of the search.
pub fn active(board: &Board, rounds_left: usize) -> [u32; ACTIVE] {
    let rl = rounds_left.clamp(1, SQUARE_STAGES);
    let mut blocks = *empty_blocks();
    let mut classes = [0u32; SQUARES];
    let highway = Side::ALL.map(|side| board.edge_mask(Route::Highway, side));
    let railway = Side::ALL.map(|side| board.edge_mask(Route::Railway, side));
    let mut left = board.occupied();
    while left != 0 {
        let sq = left.trailing_zeros() as usize;
        left &= left - 1;
        let mut class = 1;
        let mut digit = 1;
        for d in 0..4 {
            // Blank 1, highway 2, railway 3 (never both).
            let v = 1 + ((highway[d] >> sq) & 1) as u32 + 2 * ((railway[d] >> sq) & 1) as u32;
            class += (v - 1) * digit;
            digit *= 3;
            let c = &CONTRIBUTIONS[sq][d];
            blocks[c.blocks[0] as usize] += v * c.weights[0];
            blocks[c.blocks[1] as usize] += v * c.weights[1];
        }
        classes[sq] = class;
    }
    indices(rl, &classes, &blocks)
}

/// The weights' indices of squares' classes and blocks' patterns with `rl` rounds left (1–6).
fn indices(rl: usize, classes: &[u32; SQUARES], blocks: &[u32; BLOCKS]) -> [u32; ACTIVE] {
    let square_base = (rl - 1) * SQUARE_TABLE;
    let block_base = BLOCK_BASE + block_stage(rl) * BLOCK_PATTERNS;
    std::array::from_fn(|i| {
        if i < SQUARES {
            (square_base + i * SQUARE_CLASSES) as u32 + classes[i]
        } else {
            (block_base + blocks[i - SQUARES] as usize) as u32
        }
    })
}

/// [`active`] read the plain way, from every padded cell's side values: the reference that
/// the fast path is tested against.
#[cfg(test)]
fn active_by_cells(board: &Board, rounds_left: usize) -> [u32; ACTIVE] {
    let rl = rounds_left.clamp(1, SQUARE_STAGES);
    let cells = side_values(board);
    indices(rl, &classes_of(&cells).map(u32::from), &blocks_of(&cells))
}

/// The learned tables (f32 weights, [`WEIGHTS`] of them) and how many games trained them.
#[derive(Clone, PartialEq)]
pub struct NTuple {
    weights: Vec<f32>,
    /// Self-play games these weights were trained on.
    pub games: u64,
}

impl fmt::Debug for NTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NTuple")
            .field("weights", &self.weights.len())
            .field("games", &self.games)
            .finish()
    }
}

impl Default for NTuple {
    fn default() -> Self {
        NTuple::new()
    }
}

/// The first bytes of a weights file.
const MAGIC: &[u8; 8] = b"INKNT01\n";
/// The first bytes of a compact weights file (only the weights that are not zero).
const SPARSE_MAGIC: &[u8; 8] = b"INKNTS1\n";

/// The trained weights shipped with the strong player: `ntuple-weights.bin`, made by
/// `examples/train_ntuple.rs` (`docs/computer-players.md` has the commands) and written
/// compactly by its `--export`.
static TRAINED: &[u8] = include_bytes!("ntuple-weights.bin");

impl NTuple {
    /// All weights zero: the evaluation is then the linear one alone.
    pub fn new() -> NTuple {
        NTuple {
            weights: vec![0.0; WEIGHTS],
            games: 0,
        }
    }

    /// The trained tables shipped with the strong player, read once.
    pub fn trained() -> Arc<NTuple> {
        static CELL: std::sync::OnceLock<Arc<NTuple>> = std::sync::OnceLock::new();
        Arc::clone(CELL.get_or_init(|| {
            Arc::new(NTuple::from_sparse_bytes(TRAINED).expect("the shipped n-tuple weights"))
        }))
    }

    /// The n-tuple part of a board's value with `rounds_left` rounds to play (0 with none).
    #[inline]
    pub fn value(&self, board: &Board, rounds_left: usize) -> f32 {
        if rounds_left == 0 {
            return 0.0;
        }
        active(board, rounds_left)
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum()
    }

    /// Adds `step` to every weight the board reads (once per time it is read).
    pub fn update(&mut self, board: &Board, rounds_left: usize, step: f32) {
        if rounds_left == 0 {
            return;
        }
        for i in active(board, rounds_left) {
            self.weights[i as usize] += step;
        }
    }

    /// Moves the board's value by `change`, spread over the weights it reads in proportion to
    /// how often it reads each (normalised least mean squares: a pattern read by many blocks
    /// at once, as the empty block is, does not overshoot).
    pub fn shift_value(&mut self, board: &Board, rounds_left: usize, change: f32) {
        if rounds_left == 0 {
            return;
        }
        let mut idx = active(board, rounds_left);
        idx.sort_unstable();
        let mut squares = 0u32;
        let mut run = 0u32;
        for (k, &i) in idx.iter().enumerate() {
            run += 1;
            if k + 1 == idx.len() || idx[k + 1] != i {
                squares += run * run;
                run = 0;
            }
        }
        let step = change / squares as f32;
        for i in idx {
            self.weights[i as usize] += step;
        }
    }

    /// The mean of several tables, weight by weight (`None` for no tables). Averaging the
    /// checkpoints of the last few thousand training games smooths out the noise of each
    /// update, which a fixed step leaves in the weights. The games are the most any of them
    /// saw.
    pub fn mean(tables: &[NTuple]) -> Option<NTuple> {
        let n = tables.len();
        let mut out = tables.first()?.clone();
        for t in &tables[1..] {
            for (w, v) in out.weights.iter_mut().zip(&t.weights) {
                *w += v;
            }
            out.games = out.games.max(t.games);
        }
        for w in &mut out.weights {
            *w /= n as f32;
        }
        Some(out)
    }

    /// The weights that are not zero.
    pub fn nonzero(&self) -> usize {
        self.weights.iter().filter(|&&w| w != 0.0).count()
    }

    /// The weights as bytes: a magic line, the games (u64), then the f32 weights, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 4 * WEIGHTS);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.games.to_le_bytes());
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The weights compactly: a magic line, the games (u64), the count of weights that are not
    /// zero (u32), then each as its index (u32) and value (f32), little-endian.
    pub fn to_sparse_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(SPARSE_MAGIC);
        out.extend_from_slice(&self.games.to_le_bytes());
        out.extend_from_slice(&(self.nonzero() as u32).to_le_bytes());
        for (i, w) in self.weights.iter().enumerate().filter(|(_, w)| **w != 0.0) {
            out.extend_from_slice(&(i as u32).to_le_bytes());
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads [`NTuple::to_sparse_bytes`]'s form.
    pub fn from_sparse_bytes(bytes: &[u8]) -> Result<NTuple, String> {
        let bad = || "not a compact n-tuple weights file of this layout".to_string();
        if bytes.len() < 20 || &bytes[..8] != SPARSE_MAGIC {
            return Err(bad());
        }
        let games = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        let count = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes")) as usize;
        if bytes.len() != 20 + 8 * count {
            return Err(bad());
        }
        let mut nt = NTuple::new();
        nt.games = games;
        for entry in bytes[20..].chunks_exact(8) {
            let i = u32::from_le_bytes(entry[..4].try_into().expect("4 bytes")) as usize;
            let w = f32::from_le_bytes(entry[4..].try_into().expect("4 bytes"));
            *nt.weights.get_mut(i).ok_or_else(bad)? = w;
        }
        Ok(nt)
    }

    /// Reads [`NTuple::to_bytes`]'s form.
    pub fn from_bytes(bytes: &[u8]) -> Result<NTuple, String> {
        if bytes.len() != 16 + 4 * WEIGHTS || &bytes[..8] != MAGIC {
            return Err(format!(
                "not an n-tuple weights file of this layout ({} bytes, want {})",
                bytes.len(),
                16 + 4 * WEIGHTS
            ));
        }
        let games = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        let weights = bytes[16..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(NTuple { weights, games })
    }
}

/// The whole evaluation: the linear model plus the n-tuple tables, if any.
pub fn value(model: &Model, ntuple: Option<&NTuple>, board: &Board, rounds_left: usize) -> f32 {
    let v = model.value(&Features::of(board), rounds_left);
    match ntuple {
        Some(nt) => v + nt.value(board, rounds_left),
        None => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::RoundView;
    use crate::game::Dice;
    use crate::square::Square;

    #[test]
    fn the_empty_board_reads_empty_squares_and_the_exits() {
        let board = Board::new();
        assert!(square_classes(&board).iter().all(|&c| c == 0));
        let blocks = block_patterns(&board);
        // Inner block (2, 2): all four cells are empty squares.
        assert_eq!(blocks[2 * 8 + 2], 0);
        // Block (0, 1) holds outside cells (0, 1), (0, 2) and squares A0, A1: A1's highway
        // exit faces south from outside cell (0, 2) to A1 (value 2 at digit 6, b.S).
        let b = blocks[1];
        let digit = |p: u32, k: u32| (p / 5u32.pow(k)) % 5;
        assert_eq!(digit(b, 6), 2, "highway exit over A1");
        assert_eq!(digit(b, 4), 4, "no exit over A0");
        assert_eq!(digit(b, 0), 4, "outside cells face each other");
        assert_eq!(digit(b, 2), 0, "A0 faces A1, both empty");
        // Block (1, 0): outside cell (1, 0) west of B0... exits on row 1, column 0: railway.
        let b = blocks[8];
        assert_eq!(digit(b, 0), 4, "A0's west: no exit");
        assert_eq!(digit(b, 2), 3, "B0's west: a railway exit");
    }

    #[test]
    fn a_tile_is_read_by_its_edges() {
        let board: Board = "A4A10".parse().unwrap();
        let classes = square_classes(&board);
        let sq = Square::new(0, 1).unwrap().index();
        assert_ne!(classes[sq], 0);
        let code = classes[sq] - 1;
        for (k, side) in Side::ALL.iter().enumerate() {
            let want = match board.edge(Square::at(sq as u8), *side) {
                // Water shows as blank to the learned tables (base game only).
                crate::tile::Edge::Blank | crate::tile::Edge::River | crate::tile::Edge::Lake => 0,
                crate::tile::Edge::Highway => 1,
                crate::tile::Edge::Railway => 2,
            };
            assert_eq!((code / 3u8.pow(k as u32)) % 3, want, "side {side:?}");
        }
        assert_eq!(classes.iter().filter(|&&c| c != 0).count(), 1);
        // Every index is in range, squares first, then blocks.
        for rl in 1..=6 {
            let idx = active(&board, rl);
            assert!(idx.iter().all(|&i| (i as usize) < WEIGHTS));
            assert!(idx[..SQUARES].iter().all(|&i| (i as usize) < BLOCK_BASE));
            assert!(idx[SQUARES..].iter().all(|&i| (i as usize) >= BLOCK_BASE));
        }
    }

    #[test]
    fn updates_move_the_value_and_round_trip_through_bytes() {
        let board: Board = "A4A10".parse().unwrap();
        let mut nt = NTuple::new();
        assert_eq!(nt.value(&board, 3), 0.0);
        nt.update(&board, 3, 0.5);
        // A weight read c times moves the value by 0.5 c²: the empty inner block is read often.
        let idx = active(&board, 3);
        let expected: f32 = idx
            .iter()
            .map(|i| 0.5 * idx.iter().filter(|&j| j == i).count() as f32)
            .sum();
        assert!((nt.value(&board, 3) - expected).abs() < 1e-3);
        assert_eq!(nt.value(&board, 0), 0.0);
        assert_eq!(nt.value(&board, 1), 0.0, "tables by stage");
        let before = nt.value(&board, 5);
        nt.shift_value(&board, 5, 2.0);
        assert!((nt.value(&board, 5) - before - 2.0).abs() < 1e-4);
        let back = NTuple::from_bytes(&nt.to_bytes()).unwrap();
        assert_eq!(back, nt);
        assert_eq!(
            NTuple::from_sparse_bytes(&nt.to_sparse_bytes()).unwrap(),
            nt
        );
        assert!(NTuple::from_sparse_bytes(&nt.to_bytes()).is_err());
        assert!(NTuple::from_bytes(b"nonsense").is_err());
    }

    #[test]
    fn the_mean_of_tables_is_taken_weight_by_weight() {
        let board: Board = "A4A12B2B16A1B01A1B23S1B32".parse().unwrap();
        let mut a = NTuple::new();
        a.update(&board, 3, 1.0);
        a.games = 10;
        let mut b = NTuple::new();
        b.update(&board, 3, 3.0);
        b.update(&board, 5, 2.0);
        b.games = 20;
        let m = NTuple::mean(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(m.games, 20);
        assert_eq!(
            m.value(&board, 3),
            (a.value(&board, 3) + b.value(&board, 3)) / 2.0
        );
        assert_eq!(m.value(&board, 5), b.value(&board, 5) / 2.0);
        assert_eq!(NTuple::mean(&[a.clone()]), Some(a));
        assert_eq!(NTuple::mean(&[]), None);
    }

    #[test]
    fn the_shipped_weights_are_read() {
        let nt = NTuple::trained();
        assert_eq!(nt.games, 240_000);
        assert!(nt.nonzero() > 10_000);
        // A mid-game board: the tables add something, and nothing with no round left.
        let board: Board = "A4A12B2B16A1B01A1B23S1B32".parse().unwrap();
        assert_ne!(nt.value(&board, 4), 0.0);
        assert_eq!(nt.value(&board, 0), 0.0);
    }

    #[test]
    fn the_fast_reading_matches_the_plain_one() {
        for seed in 0..40 {
            let rolls = Dice::Seed(seed).rolls();
            let mut agent = crate::ai::agent_by_name("random", seed).unwrap();
            let mut board = Board::new();
            for (round, roll) in rolls.iter().enumerate() {
                let view = RoundView {
                    board: &board.clone(),
                    roll: *roll,
                    used: 0,
                    special_placed: false,
                    round,
                    rolls: &rolls[..=round],
                };
                for p in agent.play_round(&view) {
                    board.place(p).unwrap();
                    for rl in 1..=6 {
                        assert_eq!(active(&board, rl), active_by_cells(&board, rl), "{board}");
                    }
                }
            }
        }
    }
}
