//! Metro's board viewer: a placement sequence drawn placement by placement, as
//! `GET /api/metro/view` sends it, and the lines as every Metro answer draws them (the game's
//! state, its replay and the viewer).
//!
//! Everything here is the engine's answer: the sequence is parsed by the engine (its typed
//! error names the character at fault), the placements are placed one by one on the engine's
//! board along the shared walk ([`crate::viewer::walk`]; its typed error names the first illegal
//! one and the rule it breaks), and each prefix is scored by the engine.

use metro::{Board, PlayerCount, Score, Square};
use serde::Serialize;

use crate::viewer::{IllegalView, Malformed, chars, read, walk};

pub use metro::view::LineView;

/// Every line of `score` that has begun (at least one tile), station order; a station not
/// listed has an empty square before it.
pub fn begun(board: &Board, score: &Score) -> Vec<LineView> {
    score
        .lines
        .iter()
        .filter(|l| l.line.length > 0)
        .map(|l| LineView::of(board, l))
        .collect()
}

/// For each square of a line, the side the line enters it by (following the tiles' tracks).
/// One prefix of a Metro sequence, scored.
#[derive(Debug, Clone, Serialize)]
pub struct MetroStep {
    /// Each player's score, P1 first.
    pub scores: Vec<u32>,
    /// The lines that have begun (at least one tile), station order; a station not listed has
    /// an empty square before it.
    pub lines: Vec<LineView>,
}

/// The first illegal Metro placement, with the engine's names of the rule it breaks.
#[derive(Debug, Clone, Serialize)]
pub struct MetroIllegal {
    #[serde(flatten)]
    pub illegal: IllegalView<metro::Placement, Square>,
    /// The rule's short, stable name (`not_touching`, …).
    pub name: &'static str,
}

/// One Metro placement sequence, placement by placement, for a number of players.
#[derive(Debug, Clone, Serialize)]
pub struct MetroView {
    /// The text as sent.
    pub sequence: String,
    pub players: PlayerCount,
    pub well_formed: bool,
    pub valid: bool,
    /// The well-formed placements, in order (those before a malformed one).
    pub placements: Vec<metro::Placement>,
    /// `steps[k]`: the board of the first `k` placements, scored for `players`.
    pub steps: Vec<MetroStep>,
    pub illegal: Option<MetroIllegal>,
    pub malformed: Option<Malformed>,
}

/// The characters of one placement in a sequence.
const LEN: usize = 6;

/// Where a Metro sequence is malformed, from the engine's error.
fn malformed(text: &str, e: &metro::SequenceError) -> Malformed {
    use metro::{PlacementError, SequenceErrorKind};
    let total = chars(text);
    let start = e.index * LEN;
    let (from, to, found, expected) = match &e.kind {
        SequenceErrorKind::Placement(PlacementError::Letter { position, found }) => (
            start + position,
            start + position + 1,
            Some(*found),
            Some("a tile letter a–d".to_owned()),
        ),
        SequenceErrorKind::Placement(PlacementError::Digit {
            position,
            found,
            axis,
        }) => (
            start + position,
            start + position + 1,
            Some(*found),
            Some(format!("a {axis} digit 0–7")),
        ),
        SequenceErrorKind::Placement(PlacementError::NotATile(_)) => (start, start + 4, None, None),
        SequenceErrorKind::Placement(PlacementError::Length { .. })
        | SequenceErrorKind::Truncated { .. }
        | SequenceErrorKind::TooManyCopies { .. } => {
            (start, start + chars(&e.placement), None, None)
        }
    };
    Malformed {
        index: Some(e.index),
        placement: Some(e.placement.clone()),
        from: from.min(total),
        to: to.min(total),
        found,
        expected,
        message: e.kind.to_string(),
    }
}

/// A Metro placement sequence, placement by placement, scored for `players`. `""` is the empty
/// board.
pub fn view(text: &str, players: PlayerCount) -> MetroView {
    let parse = |text: &str| {
        text.parse::<metro::Sequence>()
            .map(metro::Sequence::into_placements)
    };
    let (placements, malformed) = read(text, LEN, parse, |e| malformed(text, e));
    let walked = walk(Board::new(), &placements, Board::place, |board| {
        let score = Score::new(board, players);
        MetroStep {
            lines: begun(board, &score),
            scores: score.totals,
        }
    });
    let illegal = walked.stop.map(|stop| MetroIllegal {
        illegal: IllegalView {
            index: stop.index,
            placement: stop.placement,
            square: stop.placement.square,
            reason: stop.error.reason.to_string(),
            rule: stop.error.reason.rule().to_owned(),
        },
        name: stop.error.reason.name(),
    });
    MetroView {
        sequence: text.to_owned(),
        players,
        well_formed: malformed.is_none(),
        valid: malformed.is_none() && illegal.is_none(),
        placements,
        steps: walked.steps,
        illegal,
        malformed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_metro_sequence_step_by_step() {
        let four = PlayerCount::new(4).unwrap();
        let v = view("aaaa03aaaa13aaaa23", four);
        assert!(v.valid);
        assert_eq!(v.steps.len(), 4);
        // §9.3: station 5's line into the centre, doubled, for P4.
        assert_eq!(v.steps[3].scores, [0, 0, 0, 6]);
        let line = v.steps[3]
            .lines
            .iter()
            .find(|l| l.station.number() == 5)
            .unwrap();
        assert_eq!((line.length, line.points, line.owner), (3, 6, Some(3)));
        assert_eq!(line.entries, [0, 0, 0]);
        assert!(v.steps[0].lines.is_empty());

        let v = view("aaaa00aaaa11aaaa22", four);
        let illegal = v.illegal.unwrap();
        assert_eq!((illegal.illegal.index, illegal.name), (1, "not_touching"));
        assert_eq!(illegal.illegal.rule, "§6.1 rule 2 (touching)");
        assert_eq!(v.steps.len(), 2);

        let v = view("aaaa00aaXa11", four);
        let m = v.malformed.unwrap();
        assert_eq!((m.index, m.from, m.to, m.found), (Some(1), 8, 9, Some('X')));
        assert_eq!(v.placements.len(), 1);
        let m = view("aaaa00abcd11", four).malformed.unwrap();
        assert_eq!((m.from, m.to), (6, 10));
        let m = view("aaaa00aaaa1", four).malformed.unwrap();
        assert_eq!((m.from, m.to), (6, 11));
        let m = view("dddd00dddd11dddd22", four).malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(2), 12, 18));
        assert!(view("", four).valid);
    }

    #[test]
    fn entries_follow_the_tracks() {
        // Station 9's line: (0,0) entered from the left, (1,0) from the top, (0,0) from the
        // bottom, back to station 9 (rules §9.3).
        let seq: metro::Sequence = "badb01baac02dbba10bcbc00".parse().unwrap();
        let board = Board::from_sequence(&seq).unwrap();
        let score = Score::new(&board, PlayerCount::new(2).unwrap());
        let nine = metro::Station::new(9).unwrap();
        let line = score.lines.iter().find(|l| l.line.station == nine).unwrap();
        assert_eq!(LineView::of(&board, line).entries, [3, 0, 2]);
    }
}
