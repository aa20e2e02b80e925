//! A fast model of a position for look-ahead: the board, the station lines that wait at each
//! empty square, every player's score, and the points a placement would bring each player.
//!
//! A line from a station that is not finished stops at one side of one empty square (its
//! *port*); placing a tile there extends only the lines waiting at that square's four ports, so
//! a placement is scored by walking those lines alone instead of all 32.

use crate::board::Board;
use crate::placement::Placement;
use crate::square::{PlayerCount, Side, Square, Station};
use crate::tile::Tile;

/// No station, in the port and owner tables.
const NONE: u8 = 0;
/// No owner.
const NOBODY: u8 = u8::MAX;

/// Where a line walk stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// At a station or a centre square: the line's points.
    Finished(u32),
    /// At an empty square, entering by a side: the port and the length so far.
    Waiting(usize, u8),
}

/// The index of the port through which a line enters `square` by `side`.
#[inline]
fn port(square: Square, side: Side) -> usize {
    square.index() * 4 + side.index()
}

/// A position's board with its waiting lines and scores.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    /// For each port: the station (1–32) whose line waits there, or [`NONE`].
    waiting: [u8; 256],
    /// For each port with a waiting line: the line's length so far (at most 240 traversals).
    length: [u8; 256],
    /// Each player's score now.
    scores: [u32; 6],
    /// Each station's owner index, or [`NOBODY`].
    owner: [u8; 33],
    players: u8,
}

impl Position {
    /// The position of `board` in a game of `players` players.
    pub fn new(board: &Board, players: PlayerCount) -> Position {
        let mut owner = [NOBODY; 33];
        for station in Station::all() {
            if let Some(p) = players.owner(station) {
                owner[station.number() as usize] = p.index() as u8;
            }
        }
        let mut pos = Position {
            board: *board,
            waiting: [NONE; 256],
            length: [0; 256],
            scores: [0; 6],
            owner,
            players: players.get(),
        };
        for station in Station::all() {
            match pos.walk(station.square(), station.side(), 0, None) {
                Walk::Finished(points) => pos.credit(station.number(), points),
                Walk::Waiting(p, len) => {
                    pos.waiting[p] = station.number();
                    pos.length[p] = len;
                }
            }
        }
        pos
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// Every player's score now, P1 first (only the first [`Position::players`] count).
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.players as usize]
    }

    /// The owner index of a station number, if any.
    #[inline]
    fn owner_of(&self, station: u8) -> Option<usize> {
        match self.owner[station as usize] {
            NOBODY => None,
            p => Some(p as usize),
        }
    }

    fn credit(&mut self, station: u8, points: u32) {
        if let Some(p) = self.owner_of(station) {
            self.scores[p] += points;
        }
    }

    /// Follows a line that enters `square` by `side` with `length` traversals so far, on the
    /// board with `extra` placed too.
    #[inline]
    fn walk(
        &self,
        mut square: Square,
        mut side: Side,
        length: u8,
        extra: Option<Placement>,
    ) -> Walk {
        let mut n = length as u32;
        // A line never cycles and has at most 4 × 60 traversals; the bound only guards a loop.
        for _ in 0..=240 {
            if square.is_centre() {
                return Walk::Finished(2 * n);
            }
            let tile = match extra {
                Some(p) if p.square == square => p.tile,
                _ => match self.board.tile(square) {
                    Some(t) => t,
                    None => return Walk::Waiting(port(square, side), n.min(240) as u8),
                },
            };
            n += 1;
            let out = tile.way_out(side);
            match square.neighbour(out) {
                Some(next) => {
                    square = next;
                    side = out.opposite();
                }
                None => return Walk::Finished(n),
            }
        }
        Walk::Finished(n)
    }

    /// The points each player (by index) would gain if `tile` went on the empty `square`.
    #[inline]
    pub fn gains(&self, tile: Tile, square: Square) -> [u32; 6] {
        let mut gains = [0; 6];
        let extra = Some(Placement::new(tile, square));
        for side in Side::ALL {
            let p = port(square, side);
            let station = self.waiting[p];
            if station == NONE {
                continue;
            }
            if let (Some(owner), Walk::Finished(points)) = (
                self.owner_of(station),
                self.walk(square, side, self.length[p], extra),
            ) {
                gains[owner] += points;
            }
        }
        gains
    }

    /// The longest line of `player` (by index) waiting at `square`, and the longest of anyone
    /// else: what placing there finishes or carries on.
    pub fn waiting_at(&self, square: Square, player: usize) -> (u8, u8) {
        let mut own = 0;
        let mut others = 0;
        for side in Side::ALL {
            let p = port(square, side);
            let station = self.waiting[p];
            if station == NONE {
                continue;
            }
            match self.owner_of(station) {
                Some(o) if o == player => own = own.max(self.length[p]),
                Some(_) => others = others.max(self.length[p]),
                None => {}
            }
        }
        (own, others)
    }

    /// Places `tile` on the empty `square` (legality is the caller's business) and updates
    /// the waiting lines and scores.
    pub fn place(&mut self, tile: Tile, square: Square) {
        let mut lines = [(NONE, 0u8); 4];
        for side in Side::ALL {
            let p = port(square, side);
            lines[side.index()] = (self.waiting[p], self.length[p]);
            self.waiting[p] = NONE;
            self.length[p] = 0;
        }
        self.board.place_unchecked(Placement::new(tile, square));
        for side in Side::ALL {
            let (station, length) = lines[side.index()];
            if station == NONE {
                continue;
            }
            match self.walk(square, side, length, None) {
                Walk::Finished(points) => self.credit(station, points),
                Walk::Waiting(p, len) => {
                    self.waiting[p] = station;
                    self.length[p] = len;
                }
            }
        }
    }
}

/// A small, fast, seeded generator for simulations (xorshift64*). Deterministic on every
/// platform, so look-ahead is reproducible from its seed.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from any seed (mixed so that nearby seeds give unrelated streams).
    pub fn new(seed: u64) -> FastRng {
        FastRng(mix(seed) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`; 0 when `n` is 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// SplitMix64's finalizer: a bijective mix of 64 bits.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Sequence;
    use crate::score::scores;

    const GAME: &str = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";

    /// Incremental scores and predicted gains agree with scoring the whole board, placement
    /// by placement, for every player count.
    #[test]
    fn incremental_scores_match_the_rules() {
        let seq: Sequence = GAME.parse().unwrap();
        for players in PlayerCount::all() {
            let mut board = Board::new();
            let mut pos = Position::new(&board, players);
            for (i, &pl) in seq.iter().enumerate() {
                let before = scores(&board, players);
                let gains = pos.gains(pl.tile, pl.square);
                board.place(pl).unwrap();
                pos.place(pl.tile, pl.square);
                let after = scores(&board, players);
                assert_eq!(pos.scores(), after.as_slice(), "placement {i}, {players}");
                for p in 0..players.get() as usize {
                    assert_eq!(before[p] + gains[p], after[p], "placement {i}, player {p}");
                }
                // A position built from scratch agrees with the incremental one.
                let fresh = Position::new(&board, players);
                for k in 0..256 {
                    assert_eq!(
                        fresh.waiting[k], pos.waiting[k],
                        "placement {i} {pl} port {k}"
                    );
                }
                assert_eq!(fresh.length, pos.length, "placement {i}");
            }
        }
    }

    #[test]
    fn fast_rng_is_in_range_and_reproducible() {
        let mut a = FastRng::new(3);
        let mut b = FastRng::new(3);
        for n in 1..100 {
            let x = a.below(n);
            assert!(x < n);
            assert_eq!(x, b.below(n));
        }
        assert_eq!(FastRng::new(0).below(0), 0);
    }
}
