//! Station lines and scores (§7).

use serde::Serialize;

use crate::board::Board;
use crate::square::{Player, PlayerCount, Square, Station};

/// Where a station's line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LineEnd {
    /// At a central station: the line scores double its length.
    Centre {
        /// The centre square reached.
        square: Square,
    },
    /// At a perimeter station (possibly its own): the line scores its length.
    Station {
        /// The station reached.
        station: Station,
    },
    /// At an empty square: the line is unfinished and scores 0.
    Unfinished {
        /// The empty square the line runs into.
        square: Square,
    },
}

/// The directed line that starts at one perimeter station (§7).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Line {
    /// The station it starts from.
    pub station: Station,
    /// The squares it passes, in order; a square appears twice if the line passes its tile twice.
    pub squares: Vec<Square>,
    /// The number of tile traversals, `squares.len()`.
    pub length: u32,
    /// Where it ends.
    pub end: LineEnd,
    /// Its score: `2 × length` at the centre, `length` at a station, 0 if unfinished.
    pub points: u32,
}

impl Line {
    /// Walks the line of `station` on `board`.
    pub fn of(board: &Board, station: Station) -> Line {
        let mut squares = Vec::new();
        let (length, end) = walk(board, station, |sq| squares.push(sq));
        Line {
            station,
            squares,
            length,
            end,
            points: points(length, end),
        }
    }

    /// Whether the line ends at a central station (its length counts double).
    pub fn is_doubled(&self) -> bool {
        matches!(self.end, LineEnd::Centre { .. })
    }

    /// Whether the line ends at a station (central or perimeter).
    pub fn is_finished(&self) -> bool {
        !matches!(self.end, LineEnd::Unfinished { .. })
    }
}

/// Follows the line of `station`, calling `visit` on each square it passes. Returns the number
/// of traversals and where the line ends.
#[inline(always)]
fn walk(board: &Board, station: Station, mut visit: impl FnMut(Square)) -> (u32, LineEnd) {
    let mut sq = station.square();
    let mut side = station.side();
    let mut n = 0;
    loop {
        if sq.is_centre() {
            return (n, LineEnd::Centre { square: sq });
        }
        let Some(tile) = board.tile(sq) else {
            return (n, LineEnd::Unfinished { square: sq });
        };
        visit(sq);
        n += 1;
        let out = tile.way_out(side);
        // Tracks pair entries with exits one-to-one, so a line from a station never cycles:
        // it ends at a station or an empty square within 4 × 60 traversals.
        match sq.neighbour(out) {
            Some(next) => {
                sq = next;
                side = out.opposite();
            }
            None => {
                let station = sq.station(out).unwrap_or(station);
                return (n, LineEnd::Station { station });
            }
        }
    }
}

const fn points(length: u32, end: LineEnd) -> u32 {
    match end {
        LineEnd::Centre { .. } => 2 * length,
        LineEnd::Station { .. } => length,
        LineEnd::Unfinished { .. } => 0,
    }
}

/// `line_score(board, s)` of §7, without recording the squares.
#[inline]
pub fn line_points(board: &Board, station: Station) -> u32 {
    let (length, end) = walk(board, station, |_| {});
    points(length, end)
}

/// `score(sequence, n)` of §7 on a board: entry `k` is the total of P(k+1)'s stations' lines.
///
/// ```
/// use metro::{scores, Board, PlayerCount, Sequence};
/// let board = Board::from_sequence(&"aaaa03aaaa13aaaa23".parse::<Sequence>().unwrap()).unwrap();
/// assert_eq!(scores(&board, PlayerCount::new(4).unwrap()), [0, 0, 0, 6]);
/// ```
pub fn scores(board: &Board, players: PlayerCount) -> Vec<u32> {
    let mut totals = vec![0; players.get() as usize];
    for station in Station::all() {
        if let Some(owner) = players.owner(station) {
            totals[owner.index()] += line_points(board, station);
        }
    }
    totals
}

/// One station's line in a [`Score`], with the station's owner.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct StationLine {
    /// The line.
    #[serde(flatten)]
    pub line: Line,
    /// Who scores the line; `None` for stations 16 and 17 with 3, 5 or 6 players.
    pub owner: Option<Player>,
}

/// The score of every player with its whole breakdown: the line of each of the 32 stations.
///
/// ```
/// use metro::{Board, PlayerCount, Score, Sequence};
/// let seq: Sequence = "aacb70bbbb60".parse().unwrap();
/// let score = Score::new(&Board::from_sequence(&seq).unwrap(), PlayerCount::new(2).unwrap());
/// assert_eq!(score.totals, [0, 2]);
/// let line = &score.lines[15].line; // station 16
/// assert_eq!(line.squares.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["70", "60"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Score {
    /// The number of players.
    pub players: PlayerCount,
    /// Each player's total, P1 first.
    pub totals: Vec<u32>,
    /// The lines of stations 1 to 32, in order.
    pub lines: Vec<StationLine>,
}

impl Score {
    /// Scores `board` for `players` players.
    pub fn new(board: &Board, players: PlayerCount) -> Score {
        let mut totals = vec![0; players.get() as usize];
        let lines: Vec<StationLine> = Station::all()
            .map(|station| {
                let owner = players.owner(station);
                let line = Line::of(board, station);
                if let Some(p) = owner {
                    totals[p.index()] += line.points;
                }
                StationLine { owner, line }
            })
            .collect();
        Score {
            players,
            totals,
            lines,
        }
    }

    /// The total of `player` (0 for a player not in the game).
    pub fn total(&self, player: Player) -> u32 {
        self.totals.get(player.index()).copied().unwrap_or(0)
    }

    /// The lines of the stations `player` owns, in station order.
    pub fn lines_of(&self, player: Player) -> impl Iterator<Item = &Line> {
        self.lines
            .iter()
            .filter(move |l| l.owner == Some(player))
            .map(|l| &l.line)
    }

    /// The lines of unowned stations (16 and 17 with 3, 5 or 6 players).
    pub fn unowned_lines(&self) -> impl Iterator<Item = &Line> {
        self.lines
            .iter()
            .filter(|l| l.owner.is_none())
            .map(|l| &l.line)
    }

    /// The players with the highest total; equal highest totals share the win (§1).
    pub fn winners(&self) -> Vec<Player> {
        let best = self.totals.iter().copied().max().unwrap_or(0);
        self.players
            .players()
            .filter(|p| self.total(*p) == best)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Sequence;

    fn board(s: &str) -> Board {
        Board::from_sequence(&s.parse::<Sequence>().unwrap()).unwrap()
    }

    fn station(n: u8) -> Station {
        Station::new(n).unwrap()
    }

    #[test]
    fn line_through_one_tile_twice() {
        // §9.3: station 9 passes (0,0), (1,0), (0,0) and comes back to station 9.
        let b = board("badb01baac02dbba10bcbc00");
        let line = Line::of(&b, station(9));
        let squares: Vec<String> = line.squares.iter().map(|s| s.to_string()).collect();
        assert_eq!(squares, ["00", "10", "00"]);
        assert_eq!(
            line.end,
            LineEnd::Station {
                station: station(9)
            }
        );
        assert_eq!((line.length, line.points), (3, 3));
        assert!(line.is_finished() && !line.is_doubled());
    }

    #[test]
    fn centre_line_is_doubled() {
        let b = board("aaaa03aaaa13aaaa23");
        let line = Line::of(&b, station(5));
        assert_eq!(
            line.end,
            LineEnd::Centre {
                square: "33".parse().unwrap()
            }
        );
        assert_eq!((line.length, line.points), (3, 6));
        assert!(line.is_doubled());
    }

    #[test]
    fn unfinished_line_names_the_empty_square() {
        let b = board("aaaa03aaaa13");
        let line = Line::of(&b, station(5));
        assert_eq!(
            line.end,
            LineEnd::Unfinished {
                square: "23".parse().unwrap()
            }
        );
        assert_eq!((line.length, line.points), (2, 0));
        let empty = Line::of(&b, station(1));
        assert_eq!((empty.length, empty.points, empty.squares.len()), (0, 0, 0));
    }

    #[test]
    fn empty_board_scores_zero() {
        for n in PlayerCount::all() {
            assert!(scores(&Board::new(), n).iter().all(|&s| s == 0));
        }
    }

    #[test]
    fn breakdown_agrees_with_fast_scores() {
        let b = board("badb01baac02dbba10bcbc00");
        for n in PlayerCount::all() {
            let score = Score::new(&b, n);
            assert_eq!(score.totals, scores(&b, n));
            for sl in &score.lines {
                assert_eq!(sl.line.points, line_points(&b, sl.line.station));
            }
        }
    }

    #[test]
    fn winners_share_equal_highest() {
        let score = Score::new(&Board::new(), PlayerCount::new(3).unwrap());
        assert_eq!(score.winners().len(), 3);
        let score = Score::new(&board("aacb70bbbb60"), PlayerCount::new(2).unwrap());
        assert_eq!(score.winners(), [Player::from_number(2).unwrap()]);
    }
}
