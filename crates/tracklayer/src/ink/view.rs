//! `tracklayer ink view`: a board drawn in box characters, with its score breakdown.

use railroad_ink::square::EXITS;
use railroad_ink::{Board, Edge, Route, Side, Square};

/// The character at the middle of a square: a box-drawing junction for a single route type
/// (double lines for highways, single lines for railways), `■` for a station, `╫`/`╪` for
/// the overpass, `·` for an empty square (`░` in the centre grid); `≈` for water (a lake
/// tile or a flooded square) and `~` for a river without a bridge.
fn centre_char(board: &Board, sq: Square) -> char {
    let Some(p) = board.get(sq) else {
        return if sq.is_centre() { '░' } else { '·' };
    };
    if p.tile.is_station() {
        return '■';
    }
    let edges = p.edges();
    if p.tile.is_expansion() && edges.iter().all(|e| e.route().is_none()) {
        return if p.tile.has_lake() { '≈' } else { '~' };
    }
    if p.tile.is_overpass() {
        return if edges[Side::N.index()].route() == Some(Route::Highway) {
            '╫'
        } else {
            '╪'
        };
    }
    let has = |s: Side| edges[s.index()].route().is_some();
    let (n, e, s, w) = (has(Side::N), has(Side::E), has(Side::S), has(Side::W));
    let highway = edges.iter().any(|e| e.route() == Some(Route::Highway));
    let (double, single) = (
        ['═', '║', '╔', '╗', '╚', '╝', '╠', '╣', '╦', '╩', '╬'],
        ['─', '│', '┌', '┐', '└', '┘', '├', '┤', '┬', '┴', '┼'],
    );
    let set = if highway { double } else { single };
    let i = match (n, e, s, w) {
        (false, true, false, true) | (false, true, false, false) | (false, false, false, true) => 0,
        (true, false, true, false) | (true, false, false, false) | (false, false, true, false) => 1,
        (false, true, true, false) => 2,
        (false, false, true, true) => 3,
        (true, true, false, false) => 4,
        (true, false, false, true) => 5,
        (true, true, true, false) => 6,
        (true, false, true, true) => 7,
        (false, true, true, true) => 8,
        (true, true, false, true) => 9,
        _ => 10,
    };
    set[i]
}

fn arm(board: &Board, sq: Square, side: Side) -> char {
    let vertical = matches!(side, Side::N | Side::S);
    match (board.edge(sq, side).route(), vertical) {
        (Some(Route::Highway), true) => '║',
        (Some(Route::Highway), false) => '═',
        (Some(Route::Railway), true) => '│',
        (Some(Route::Railway), false) => '─',
        (None, _) => match board.edge(sq, side) {
            Edge::River => '~',
            Edge::Lake => '≈',
            _ => ' ',
        },
    }
}

fn exit_mark(sq: Square, side: Side) -> char {
    match sq.exit(side).map(|e| e.route) {
        Some(Route::Highway) => 'H',
        Some(Route::Railway) => 'R',
        None => ' ',
    }
}

/// The board drawn as text: 7 × 7 squares of 5 × 3 characters, exits marked `H` or `R`
/// outside the frame.
pub fn draw(board: &Board) -> String {
    let square = |r: u8, c: u8| Square::new(r, c).expect("on the board");
    let mut out = String::new();
    out.push_str("     ");
    for c in 0..7 {
        out.push_str(&format!("  {c}  "));
    }
    out.push('\n');
    let exits_row = |row: u8, side: Side| -> String {
        let marks: String = (0..7)
            .map(|c| format!("  {}  ", exit_mark(square(row, c), side)))
            .collect();
        format!("     {marks}\n")
    };
    out.push_str(&exits_row(0, Side::N));
    out.push_str(&format!("    ┌{}┐\n", "─".repeat(35)));
    for r in 0..7u8 {
        for line in 0..3 {
            let label = if line == 1 { (b'A' + r) as char } else { ' ' };
            let west = if line == 1 {
                exit_mark(square(r, 0), Side::W)
            } else {
                ' '
            };
            let east = if line == 1 {
                exit_mark(square(r, 6), Side::E)
            } else {
                ' '
            };
            out.push_str(&format!("{label} {west} │"));
            for c in 0..7 {
                let sq = square(r, c);
                let cell = match line {
                    0 => format!("  {}  ", arm(board, sq, Side::N)),
                    1 => {
                        let (w, e) = (arm(board, sq, Side::W), arm(board, sq, Side::E));
                        format!("{w}{w}{}{e}{e}", centre_char(board, sq))
                    }
                    _ => format!("  {}  ", arm(board, sq, Side::S)),
                };
                out.push_str(&cell);
            }
            out.push_str(&format!("│ {east}\n"));
        }
    }
    out.push_str(&format!("    └{}┘\n", "─".repeat(35)));
    out.push_str(&exits_row(6, Side::S));
    debug_assert_eq!(EXITS.len(), 12);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_routes_stations_and_exits() {
        let board: Board = "A4A10A1B01S5B10".parse().unwrap();
        let text = draw(&board);
        assert!(text.contains('║'), "{text}");
        assert!(text.contains('■'), "{text}");
        assert!(text.contains('─'), "{text}");
        assert_eq!(text.matches('H').count(), 6);
        assert_eq!(text.matches('R').count(), 6);
        assert_eq!(text.lines().count(), 1 + 1 + 1 + 21 + 1 + 1);
    }

    #[test]
    fn draws_water_and_rivers() {
        use railroad_ink::Expansion;
        let board = Board::parse_in("L0C30L0D23L0D41", Expansion::Lake).unwrap();
        let text = draw(&board);
        // Three lake tiles and the flood at D3.
        assert!(text.matches('≈').count() >= 4 + 3, "{text}");
        let board = Board::parse_in("V0A01V2A11", Expansion::River).unwrap();
        let text = draw(&board);
        assert!(text.contains('~') && text.contains('║'), "{text}");
    }
}
