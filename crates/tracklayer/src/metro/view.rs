//! `tracklayer metro view`: a Metro board drawn in box characters, each tile's four tracks
//! traced from its entries to its ways out, with the stations and their owners around it.
//!
//! A square is 7 characters wide and 4 high. Its eight exits sit where the tracks of the
//! neighbouring squares meet them: exits 0 and 1 on the top row (columns 1 and 5), 2 and 3 on
//! the right (rows 1 and 2), 4 and 5 on the bottom row (columns 5 and 1), 6 and 7 on the left
//! (rows 2 and 1). Each tile's tracks are routed through the square by a small search that
//! lets two tracks share a character only where they cross at right angles (`┼`), so every
//! drawing reads back as its tile (a test checks all 24). The search prefers tracks that keep
//! off the square's edge, then few turns, then short ones; three lines a square are too few
//! for `bbbb`, whose four tracks all cross.

use std::fmt::Write as _;
use std::sync::OnceLock;

use metro::{Board, PlayerCount, Side, Square, Station, Tile};

/// Characters across one square.
const W: usize = 7;
/// Lines down one square.
const H: usize = 4;

/// Directions of a track leaving a point: bits N, E, S, W.
const N: u8 = 1;
const E: u8 = 2;
const S: u8 = 4;
const WEST: u8 = 8;

/// Where exit `e` (0–7, §3.1) sits in a square, and the direction it leaves the square by.
const EXITS: [(usize, usize, u8); 8] = [
    (0, 1, N),
    (0, 5, N),
    (1, W - 1, E),
    (2, W - 1, E),
    (H - 1, 5, S),
    (H - 1, 1, S),
    (2, 0, WEST),
    (1, 0, WEST),
];

/// The arms at each character of a square: `arms[r][c]` holds up to two tracks' arm sets.
type Drawing = [[[u8; 2]; W]; H];

fn step(r: usize, c: usize, d: u8) -> Option<(usize, usize)> {
    match d {
        N => r.checked_sub(1).map(|r| (r, c)),
        E => (c + 1 < W).then_some((r, c + 1)),
        S => (r + 1 < H).then_some((r + 1, c)),
        _ => c.checked_sub(1).map(|c| (r, c)),
    }
}

fn opposite(d: u8) -> u8 {
    match d {
        N => S,
        E => WEST,
        S => N,
        _ => E,
    }
}

/// One routed track: each character it passes, with its two arms.
type Path = Vec<(usize, usize, u8)>;

/// Every simple path from exit `from` to exit `to` with at most `max_turns` turns, cheapest
/// first: the fewest characters on the square's edge, then the fewest turns, then shortest.
fn candidates(from: usize, to: usize, max_turns: usize) -> Vec<Path> {
    let (r0, c0, out0) = EXITS[from];
    let (r1, c1, out1) = EXITS[to];
    let mut found: Vec<((usize, usize), Path)> = Vec::new();
    let mut visited = [[false; W]; H];
    // (point, the arm we arrived by, turns so far, the path)
    #[allow(clippy::too_many_arguments)]
    fn walk(
        r: usize,
        c: usize,
        came: u8,
        heading: u8,
        turns: usize,
        max_turns: usize,
        target: (usize, usize, u8),
        visited: &mut [[bool; W]; H],
        path: &mut Vec<(usize, usize, u8)>,
        found: &mut Vec<((usize, usize), Path)>,
    ) {
        if (r, c) == (target.0, target.1) {
            let turns = turns + usize::from(heading != target.2);
            if came != target.2 && turns <= max_turns {
                path.push((r, c, came | target.2));
                let edge = path[1..path.len() - 1]
                    .iter()
                    .filter(|&&(r, c, _)| r == 0 || r == H - 1 || c == 0 || c == W - 1)
                    .count();
                found.push(((edge, turns), path.clone()));
                path.pop();
            }
            return;
        }
        for d in [N, E, S, WEST] {
            if d == came {
                continue;
            }
            let turn = usize::from(d != heading);
            if turns + turn > max_turns {
                continue;
            }
            let Some((nr, nc)) = step(r, c, d) else {
                continue;
            };
            if visited[nr][nc] {
                continue;
            }
            visited[nr][nc] = true;
            path.push((r, c, came | d));
            walk(
                nr,
                nc,
                opposite(d),
                d,
                turns + turn,
                max_turns,
                target,
                visited,
                path,
                found,
            );
            path.pop();
            visited[nr][nc] = false;
        }
    }
    visited[r0][c0] = true;
    walk(
        r0,
        c0,
        out0,
        opposite(out0),
        0,
        max_turns,
        (r1, c1, out1),
        &mut visited,
        &mut Vec::new(),
        &mut found,
    );
    found.sort_by_key(|(cost, p)| (*cost, p.len()));
    found.into_iter().map(|(_, p)| p).collect()
}

/// Whether a path may be added to a drawing: a character holds one track, or two that cross
/// straight (one `│`, one `─`).
fn fits(drawing: &Drawing, path: &Path) -> bool {
    path.iter().all(|&(r, c, arms)| match drawing[r][c] {
        [0, _] => true,
        [other, 0] => (other == N | S && arms == E | WEST) || (other == E | WEST && arms == N | S),
        _ => false,
    })
}

fn add(drawing: &mut Drawing, path: &Path) {
    for &(r, c, arms) in path {
        let slot = &mut drawing[r][c];
        if slot[0] == 0 {
            slot[0] = arms;
        } else {
            slot[1] = arms;
        }
    }
}

fn remove(drawing: &mut Drawing, path: &Path) {
    for &(r, c, _) in path {
        let slot = &mut drawing[r][c];
        if slot[1] != 0 {
            slot[1] = 0;
        } else {
            slot[0] = 0;
        }
    }
}

fn route(drawing: &mut Drawing, options: &[Vec<Path>]) -> bool {
    let Some((first, rest)) = options.split_first() else {
        return true;
    };
    for path in first {
        if fits(drawing, path) {
            add(drawing, path);
            if route(drawing, rest) {
                return true;
            }
            remove(drawing, path);
        }
    }
    false
}

/// The tracks of a tile as (entry exit, way-out exit), from the engine.
fn tracks(tile: Tile) -> [(usize, usize); 4] {
    Side::ALL.map(|side| {
        let out = tile.way_out(side);
        (side.index() * 2, out.index() * 2 + 1)
    })
}

/// The drawing of a tile: its four tracks routed through the square.
fn routed(tile: Tile) -> Drawing {
    for max_turns in 2..=6 {
        let options: Vec<Vec<Path>> = tracks(tile)
            .iter()
            .map(|&(from, to)| candidates(from, to, max_turns))
            .collect();
        let mut drawing = [[[0; 2]; W]; H];
        if route(&mut drawing, &options) {
            return drawing;
        }
    }
    // Every tile routes within a few turns (a test checks all 24).
    unreachable!("tile {tile} has no drawing")
}

/// The drawings of the 24 tiles, routed once.
fn drawings() -> &'static [Drawing; 24] {
    static DRAWINGS: OnceLock<[Drawing; 24]> = OnceLock::new();
    DRAWINGS.get_or_init(|| Tile::ALL.map(routed))
}

fn glyph(slot: [u8; 2]) -> char {
    match slot {
        [0, _] => ' ',
        [_, x] if x != 0 => '┼',
        [arms, _] => match arms {
            a if a == N | S => '│',
            a if a == E | WEST => '─',
            a if a == N | E => '└',
            a if a == N | WEST => '┘',
            a if a == S | E => '┌',
            a if a == S | WEST => '┐',
            _ => '?',
        },
    }
}

/// The three lines of one square.
fn square_lines(board: &Board, sq: Square) -> [String; H] {
    if sq.is_centre() {
        return std::array::from_fn(|_| "░".repeat(W));
    }
    match board.tile(sq) {
        Some(tile) => {
            let d = &drawings()[tile.index()];
            std::array::from_fn(|r| d[r].iter().map(|&slot| glyph(slot)).collect())
        }
        None => std::array::from_fn(|r| {
            if r == H / 2 {
                format!("{:^W$}", "·")
            } else {
                " ".repeat(W)
            }
        }),
    }
}

/// `P2`, or `--` for a station nobody owns.
fn owner(players: PlayerCount, station: Station) -> String {
    players
        .owner(station)
        .map_or_else(|| "--".to_owned(), |p| p.to_string())
}

fn station(side: Side, i: u8) -> Station {
    let n = match side {
        Side::Top => 8 - i,
        Side::Left => 9 + i,
        Side::Bottom => 17 + i,
        Side::Right => 32 - i,
    };
    Station::new(n).expect("a station number 1-32")
}

/// The frame's top or bottom edge, with each column's number in the middle of its squares.
fn columns() -> String {
    (0..8).map(|c| format!("{:─^W$}", c)).collect()
}

/// The board drawn as text: 8 × 8 squares of 7 × 4 characters, the row and column numbers on
/// the frame, each station's number and owner outside it beside the square it faces, the
/// centre shaded.
pub fn draw(board: &Board, players: PlayerCount) -> String {
    const MARGIN: usize = 8;
    let pad = " ".repeat(MARGIN);
    let mut out = String::new();
    let top = |f: &dyn Fn(Station) -> String| -> String {
        (0..8u8)
            .map(|c| format!("{:^W$}", f(station(Side::Top, c))))
            .collect()
    };
    let bottom = |f: &dyn Fn(Station) -> String| -> String {
        (0..8u8)
            .map(|c| format!("{:^W$}", f(station(Side::Bottom, c))))
            .collect()
    };
    let _ = writeln!(out, "{pad} {}", top(&|s| s.to_string()));
    let _ = writeln!(out, "{pad} {}", top(&|s| owner(players, s)));
    let _ = writeln!(out, "{pad}┌{}┐", columns());
    for r in 0..8u8 {
        let rows: Vec<[String; H]> = (0..8u8)
            .map(|c| square_lines(board, Square::new(r, c).expect("on the board")))
            .collect();
        for line in 0..H {
            let (west, east) = if line == H / 2 {
                let w = station(Side::Left, r);
                let e = station(Side::Right, r);
                (
                    format!("{:>2} {:<3}", w.number(), owner(players, w)),
                    format!("{:<3} {:>2}", owner(players, e), e.number()),
                )
            } else {
                (String::new(), String::new())
            };
            let middle: String = rows.iter().map(|sq| sq[line].as_str()).collect();
            // The row's number on the frame, on the square's first line.
            let frame = if line == 0 {
                char::from(b'0' + r)
            } else {
                '│'
            };
            let _ = writeln!(out, "{west:>MARGIN$}{frame}{middle}{frame}{east}");
        }
    }
    let _ = writeln!(out, "{pad}└{}┘", columns());
    let _ = writeln!(out, "{pad} {}", bottom(&|s| owner(players, s)));
    let _ = writeln!(out, "{pad} {}", bottom(&|s| s.to_string()));
    // Trailing spaces help nobody.
    out.lines()
        .map(str::trim_end)
        .fold(String::new(), |mut acc, l| {
            acc.push_str(l);
            acc.push('\n');
            acc
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Follows a drawing from exit `from`: straight through crossings, round corners.
    fn trace(d: &Drawing, from: usize) -> usize {
        let (mut r, mut c, out) = EXITS[from];
        let mut came = out;
        for _ in 0..(W * H * 2) {
            let slot = d[r][c];
            let arms = if slot[1] != 0 && slot[1] & came != 0 {
                slot[1]
            } else {
                slot[0]
            };
            assert!(arms & came != 0, "the track breaks at ({r},{c})");
            let next = arms & !came;
            if let Some(e) = EXITS
                .iter()
                .position(|&(er, ec, eo)| (er, ec) == (r, c) && eo == next)
            {
                return e;
            }
            let (nr, nc) = step(r, c, next).expect("stays in the square");
            r = nr;
            c = nc;
            came = opposite(next);
        }
        panic!("the track from exit {from} does not end");
    }

    #[test]
    fn every_tile_is_drawn_and_reads_back_as_itself() {
        for tile in Tile::ALL {
            let d = &drawings()[tile.index()];
            for (from, to) in tracks(tile) {
                assert_eq!(trace(d, from), to, "{tile}: the track from exit {from}");
            }
        }
    }

    #[test]
    fn a_board_with_its_stations_and_owners() {
        let seq: metro::Sequence = "aaaa03aaaa13aaaa23cccc01".parse().unwrap();
        let board = Board::from_sequence(&seq).unwrap();
        let text = draw(&board, PlayerCount::new(4).unwrap());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 1 + 8 * H + 1 + 2);
        assert!(
            lines[0].contains(" 8 ") && lines[0].ends_with(" 1"),
            "{text}"
        );
        assert!(
            lines[2].contains("───0───") && lines[2].contains("───7───"),
            "{text}"
        );
        // aaaa: two tracks down, two across, crossing.
        assert!(text.contains('┼'), "{text}");
        assert!(text.contains('░'), "{text}");
        // Station 16 belongs to P1 with 4 players.
        assert!(text.contains("16 P1"), "{text}");
        let text = draw(&board, PlayerCount::new(3).unwrap());
        assert!(text.contains("16 --"), "{text}");
        assert!(lines.iter().all(|l| l == &l.trim_end()));
    }
}
