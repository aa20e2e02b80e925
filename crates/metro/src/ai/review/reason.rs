//! Why the computer's move is better than the seat's, in one sentence, found by comparing the
//! two boards the moves leave (a keep or a draw leaves the board as it was), station line by
//! station line, as [`Score`] scores them.
//!
//! A reason is always true of the two boards. When the computer's move leaves the seat a
//! better margin now, the reason is the line that gains it the most: one of the seat's own
//! lines it finishes, or an opponent's line the seat's move finishes for them. Otherwise the
//! computer's move is valued higher for later, and the reason is the first of these that holds:
//! it closes an opponent's line before it can grow; the seat's move finishes one of its own
//! lines short; the seat's move lengthens an opponent's unfinished line; the computer's
//! lengthens one of the seat's; the computer keeps, draws or places where the seat did not;
//! else that both moves score alike now, in words.

use std::fmt;

use review_scale::signed;

use crate::board::Board;
use crate::game::{Action, Game};
use crate::placement::Placement;
use crate::score::{LineEnd, Score};
use crate::square::{Player, PlayerCount, Square, Station};
use crate::tile::Tile;

/// What a reason is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonKind {
    /// The computer would have done exactly what the seat did.
    Same,
    /// The computer's own choice was valued no higher: the seat's is the decision's best.
    AsGood,
    /// The computer's move finishes (or finishes longer) one of the seat's own lines.
    Finishes,
    /// The seat's move finishes an opponent's line, for the opponent's points.
    Gives,
    /// The computer's move finishes an opponent's unfinished line before it can grow.
    Closes,
    /// The seat's move finishes one of its own lines short, where the computer's leaves it to
    /// grow.
    ClosesOwn,
    /// The seat's move lengthens an opponent's unfinished line.
    Feeds,
    /// The computer's move lengthens one of the seat's unfinished lines.
    Extends,
    /// The computer keeps the tile drawn and draws another to place.
    Keep,
    /// The computer draws a new tile to place, keeping the one in hand.
    Draw,
    /// The computer places the tile now, where the seat kept it or drew.
    Place,
    /// None of the above: both leave the same score now; the computer's is worth more later.
    Later,
}

impl ReasonKind {
    /// The kind's name, as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ReasonKind::Same => "same",
            ReasonKind::AsGood => "as_good",
            ReasonKind::Finishes => "finishes",
            ReasonKind::Gives => "gives",
            ReasonKind::Closes => "closes",
            ReasonKind::ClosesOwn => "closes_own",
            ReasonKind::Feeds => "feeds",
            ReasonKind::Extends => "extends",
            ReasonKind::Keep => "keep",
            ReasonKind::Draw => "draw",
            ReasonKind::Place => "place",
            ReasonKind::Later => "later",
        }
    }
}

/// Why the computer's move is better (or that the seat's is as good).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// What it is about.
    pub kind: ReasonKind,
    /// The points of the score now behind it, in the computer's move's favour: what a line of
    /// the seat's gains on its board, or what a line of an opponent's gains on the seat's.
    /// `None` where the reason is not a difference of the score now.
    pub points: Option<u32>,
    /// The station whose line the reason is about, if any.
    pub station: Option<Station>,
    /// Where that line ends, on the board the reason speaks of.
    pub end: Option<LineEnd>,
    /// That line's tiles, on the board the reason speaks of.
    pub length: u32,
    /// That line's tiles on the other board.
    pub other_length: u32,
    /// Where the computer places its tile, when it does.
    pub square: Option<Square>,
    /// The line's points on the board the reason speaks of.
    pub line_points: u32,
    /// The opponent who owns that line, if it is not the seat's.
    pub player: Option<Player>,
}

impl Reason {
    fn plain(kind: ReasonKind) -> Reason {
        Reason {
            kind,
            points: None,
            station: None,
            end: None,
            length: 0,
            other_length: 0,
            line_points: 0,
            player: None,
            square: None,
        }
    }

    /// The reason in one sentence, for people, with `name` naming a player ("P2", "Ann").
    pub fn text(&self, name: &dyn Fn(Player) -> String) -> String {
        let station = self.station.map_or(0, Station::number);
        let whose = self
            .player
            .map_or_else(|| "your".to_owned(), |p| format!("{}'s", name(p)));
        let at = match self.end {
            Some(LineEnd::Centre { .. }) => " at the centre".to_owned(),
            Some(LineEnd::Station { station: s }) if s.number() == station => {
                " back at its own station".to_owned()
            }
            Some(LineEnd::Station { station: s }) => format!(" at station {}", s.number()),
            _ => String::new(),
        };
        let doubled = match self.end {
            Some(LineEnd::Centre { .. }) => {
                format!(", where its {} tiles count double", self.length)
            }
            _ => String::new(),
        };
        let points = |n: u32| {
            if n == 1 {
                "1 point".to_owned()
            } else {
                format!("{n} points")
            }
        };
        let tiles = |n: u32| {
            if n == 1 {
                "1 tile".to_owned()
            } else {
                format!("{n} tiles")
            }
        };
        let gain = self
            .points
            .map_or_else(String::new, |p| signed(i64::from(p)));
        match self.kind {
            ReasonKind::Same => "The computer would have done exactly the same.".into(),
            ReasonKind::AsGood => {
                "The computer's own choice was valued no higher than yours: yours was as good."
                    .into()
            }
            ReasonKind::Finishes => format!(
                "The computer's move finishes your line from station {station}{at}{doubled}: {} ({gain}).",
                points(self.line_points)
            ),
            ReasonKind::Gives => format!(
                "Your move finishes {whose} line from station {station}{at}{doubled}: {} for them.",
                points(self.line_points)
            ),
            ReasonKind::Closes => format!(
                "The computer's move ends {whose} line from station {station}{at}, for {}, before it can grow longer.",
                points(self.line_points)
            ),
            ReasonKind::ClosesOwn => format!(
                "Your move ends your own line from station {station}{at}, for {}; the computer's leaves it unfinished, to grow longer.",
                points(self.line_points)
            ),
            ReasonKind::Feeds if self.other_length == 0 => format!(
                "Your move starts {whose} line from station {station}, which the computer's leaves alone."
            ),
            ReasonKind::Feeds => format!(
                "Your move lengthens {whose} unfinished line from station {station} to {} ({} on the computer's board).",
                tiles(self.length),
                self.other_length
            ),
            ReasonKind::Extends if self.other_length == 0 => {
                format!("The computer's move starts your line from station {station}.")
            }
            ReasonKind::Extends => format!(
                "The computer's move lengthens your unfinished line from station {station} to {} ({} on yours).",
                tiles(self.length),
                self.other_length
            ),
            ReasonKind::Keep => {
                "The computer keeps the tile it drew for a later turn and draws another to place now."
                    .into()
            }
            ReasonKind::Draw => {
                "The computer draws a new tile to place and keeps the one in hand for later."
                    .into()
            }
            ReasonKind::Place => format!(
                "The computer places the tile now{}: no line changes yet, but its play-outs of the rest of the game end better from there.",
                self.square.map_or_else(String::new, |q| format!(
                    " on row {}, column {}",
                    q.row(),
                    q.col()
                ))
            ),
            ReasonKind::Later => format!(
                "Neither move changes a line yet; the computer's square{} ends better in its play-outs of the rest of the game.",
                self.square.map_or_else(String::new, |q| format!(
                    " (row {}, column {})",
                    q.row(),
                    q.col()
                ))
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(&|p| p.to_string()))
    }
}

/// The reason of a decision whose best is the seat's own: the computer would have done the
/// same, or its own choice was valued no higher.
pub(crate) fn as_good(computer_same: bool) -> Reason {
    Reason::plain(if computer_same {
        ReasonKind::Same
    } else {
        ReasonKind::AsGood
    })
}

/// The board after `action` on `board` with `tile` to place (a keep or a draw leaves it as it
/// is).
fn after(board: &Board, tile: Option<Tile>, action: Action) -> Board {
    let mut board = *board;
    if let (Action::Place(square), Some(tile)) = (action, tile) {
        // The action was legal where it was taken; an illegal one would leave the board.
        let _ = board.place(Placement::new(tile, square));
    }
    board
}

/// The seat's total less the best other player's.
fn margin(score: &Score, seat: Player) -> i64 {
    let mine = i64::from(score.total(seat));
    let other = score
        .players
        .players()
        .filter(|&p| p != seat)
        .map(|p| i64::from(score.total(p)))
        .max()
        .unwrap_or(0);
    mine - other
}

/// Why `best` is better than `played` for `seat` on `game` (the game as it was when the seat
/// decided).
pub(crate) fn reason(game: &Game, seat: Player, played: Action, best: Action) -> Reason {
    reason_on(
        game.board(),
        game.tile_to_place(),
        game.players(),
        seat,
        played,
        best,
    )
}

/// [`reason`] on `board` with `tile` to place, in a game of `players`.
fn reason_on(
    board: &Board,
    tile: Option<Tile>,
    players: PlayerCount,
    seat: Player,
    played: Action,
    best: Action,
) -> Reason {
    let (bp, bb) = (after(board, tile, played), after(board, tile, best));
    let (sp, sb) = (Score::new(&bp, players), Score::new(&bb, players));
    let lines = || sp.lines.iter().zip(&sb.lines);
    let line_reason = |kind,
                       l: &crate::score::StationLine,
                       other: &crate::score::StationLine,
                       points: Option<u32>| Reason {
        kind,
        points,
        station: Some(l.line.station),
        end: Some(l.line.end),
        length: l.line.length,
        other_length: other.line.length,
        line_points: l.line.points,
        player: l.owner.filter(|&o| o != seat),
        square: None,
    };
    if margin(&sb, seat) > margin(&sp, seat) {
        // The line that gains the computer's move the most now: the seat's own, or one the
        // seat's move finishes for an opponent.
        let mut pick: Option<Reason> = None;
        for (p, b) in lines() {
            let candidate = match p.owner {
                Some(o) if o == seat && b.line.points > p.line.points => Some(line_reason(
                    ReasonKind::Finishes,
                    b,
                    p,
                    Some(b.line.points - p.line.points),
                )),
                Some(o) if o != seat && p.line.points > b.line.points => Some(line_reason(
                    ReasonKind::Gives,
                    p,
                    b,
                    Some(p.line.points - b.line.points),
                )),
                _ => None,
            };
            if let Some(c) = candidate
                && pick.as_ref().is_none_or(|k| c.points > k.points)
            {
                pick = Some(c);
            }
        }
        if let Some(reason) = pick {
            return reason;
        }
    }
    let mine = |l: &crate::score::StationLine| l.owner == Some(seat);
    let theirs = |l: &crate::score::StationLine| l.owner.is_some_and(|o| o != seat);
    // An opponent's line the computer closes (finished on its board, growing on the seat's),
    // the longest first.
    if let Some((p, b)) = lines()
        .filter(|(p, b)| theirs(p) && !p.line.is_finished() && b.line.is_finished())
        .max_by_key(|(p, _)| p.line.length)
    {
        return line_reason(ReasonKind::Closes, b, p, None);
    }
    if let Some((p, b)) = lines()
        .filter(|(p, b)| mine(p) && p.line.is_finished() && !b.line.is_finished())
        .min_by_key(|(p, _)| p.line.points)
    {
        return line_reason(ReasonKind::ClosesOwn, p, b, None);
    }
    if let Some((p, b)) = lines()
        .filter(|(p, b)| {
            theirs(p)
                && !p.line.is_finished()
                && !b.line.is_finished()
                && p.line.length > b.line.length
        })
        .max_by_key(|(p, b)| p.line.length - b.line.length)
    {
        return line_reason(ReasonKind::Feeds, p, b, None);
    }
    if let Some((p, b)) = lines()
        .filter(|(p, b)| {
            mine(p)
                && !p.line.is_finished()
                && !b.line.is_finished()
                && b.line.length > p.line.length
        })
        .max_by_key(|(p, b)| b.line.length - p.line.length)
    {
        return line_reason(ReasonKind::Extends, b, p, None);
    }
    let square = match best {
        Action::Place(q) => Some(q),
        _ => None,
    };
    Reason {
        square,
        ..Reason::plain(match best {
            Action::Keep => ReasonKind::Keep,
            Action::Draw => ReasonKind::Draw,
            Action::Place(_) if !matches!(played, Action::Place(_)) => ReasonKind::Place,
            Action::Place(_) => ReasonKind::Later,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::Sequence;

    fn board(text: &str) -> Board {
        Board::from_sequence(&text.parse::<Sequence>().unwrap()).unwrap()
    }

    fn why(before: &str, tile: &str, seat: u8, played: &str, best: &str) -> Reason {
        reason_on(
            &board(before),
            Some(tile.parse().unwrap()),
            PlayerCount::new(2).unwrap(),
            Player::from_number(seat).unwrap(),
            played.parse().unwrap(),
            best.parse().unwrap(),
        )
    }

    #[test]
    fn finishing_your_line_at_the_centre_is_named_with_its_points() {
        // Station 5 (P1's) runs down column 3 from (0,3): a third straight at (2,3) takes it to
        // the centre, 3 tiles doubled.
        let r = why("aaaa03aaaa13", "aaaa", 1, "place 04", "place 23");
        assert_eq!(r.kind, ReasonKind::Finishes, "{r:?}");
        assert_eq!(r.points, Some(6));
        assert_eq!(
            r.to_string(),
            "The computer's move finishes your line from station 5 at the centre, where its 3 \
             tiles count double: 6 points (+6)."
        );
    }

    #[test]
    fn an_opponents_line_finished_and_closed() {
        // For P2, the same straight at (2,3) gives P1 six points.
        let r = why("aaaa03aaaa13", "aaaa", 2, "place 23", "place 04");
        assert_eq!(r.kind, ReasonKind::Gives, "{r:?}");
        assert_eq!(r.points, Some(6));
        assert_eq!(
            r.text(&|p| if p.number() == 1 {
                "Ann".into()
            } else {
                p.to_string()
            }),
            "Your move finishes Ann's line from station 5 at the centre, where its 3 tiles \
             count double: 6 points for them."
        );
        // Keeping the tile instead of finishing it: the computer's move ends nothing; when
        // the seat's move gives nothing either, the reason is the action itself.
        let r = why("aaaa03aaaa13", "aaaa", 2, "place 04", "keep");
        assert!(
            matches!(r.kind, ReasonKind::Keep | ReasonKind::Feeds),
            "{r:?}"
        );
        assert_eq!(
            as_good(true).to_string(),
            "The computer would have done exactly the same."
        );
    }
}
