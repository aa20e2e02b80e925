//! The board viewer: a Railroad Ink board string or a Metro placement sequence drawn
//! placement by placement, as `GET /api/ink/view` and `GET /api/metro/view` send it.
//!
//! Everything here is the engine's answer: the string is parsed by the engine (its typed
//! error names the character at fault), the placements are placed one by one on the
//! engine's board (its typed error names the first illegal one and the rule it breaks), and
//! each prefix is scored with the engine's breakdown. The page draws what it is sent and
//! never decides a rule.

use railroad_ink::board::{MAX_PLACEMENTS, Sequence};
use railroad_ink::score::Breakdown;
use railroad_ink::{
    Board, Expansion, GameError, Orientation, Placement, PlacementError, SequenceError, Square,
    Tile,
};
use serde::Serialize;

use crate::error::ApiError;
use crate::games::metro::{LineView, entries};

/// The longest text the viewer takes, in characters: far more than any board or sequence, so
/// a too-long string is still pointed out at the placement that is one too many.
pub const MAX_TEXT: usize = 1024;

/// Where a string stops being well-formed: the characters at fault, as character offsets
/// (Unicode scalar values, not bytes) into the text, and what is wrong.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Malformed {
    /// The 0-based index of the placement at fault, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The text of the placement at fault (shorter than a placement when cut short).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<String>,
    /// The first character at fault.
    pub from: usize,
    /// One past the last character at fault (`from == to` for a missing character).
    pub to: usize,
    /// The character found, when one character is at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<char>,
    /// What was expected there, when one character is at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The whole error, in words.
    pub message: String,
}

/// The first illegal placement: where it is, and the rule it breaks.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct IllegalView<P: Serialize, S: Serialize> {
    /// Its 0-based index in the sequence.
    pub index: usize,
    pub placement: P,
    pub square: S,
    /// Why it is illegal, in words.
    pub reason: String,
    /// The short name of the rule broken.
    pub rule: String,
}

/// One board string, placement by placement.
#[derive(Debug, Clone, Serialize)]
pub struct InkView {
    /// The text as sent.
    pub board: String,
    /// The Deep Blue expansion the board is read in; absent for the base game.
    #[serde(skip_serializing_if = "is_base")]
    pub expansion: Expansion,
    /// Whether the text is a well-formed board string (or empty: the empty board).
    pub well_formed: bool,
    /// Whether every placement is legal in turn (§6.2).
    pub valid: bool,
    /// The well-formed placements, in order (those before a malformed one).
    pub placements: Vec<Placement>,
    /// `steps[k]`: the board of the first `k` placements, scored with its whole breakdown.
    /// There is one step more than there are legal placements in a row from the start.
    pub steps: Vec<Breakdown>,
    /// `flooded[k]`: the flooded squares of `steps[k]` (rule E3.3); absent for the base game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flooded: Option<Vec<Vec<Square>>>,
    /// The first illegal placement; the placements after it are not placed.
    pub illegal: Option<IllegalView<Placement, Square>>,
    /// Where the text stops being well-formed.
    pub malformed: Option<Malformed>,
}

/// The number of characters of a string.
fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The first `n` characters of a string.
fn prefix(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((byte, _)) => &text[..byte],
        None => text,
    }
}

/// Where a Railroad Ink board string is malformed, from the engine's error.
fn ink_malformed(text: &str, e: &SequenceError) -> Malformed {
    const LEN: usize = 5;
    let total = chars(text);
    // A whole placement marked: its length is wrong, or the string ends inside it.
    let whole = |index: usize, placement: &String| {
        let from = index * LEN;
        let to = from + chars(placement);
        (Some(index), Some(placement.clone()), from, to, None, None)
    };
    let (index, placement, from, to, found, expected) = match e {
        SequenceError::Empty => (None, None, 0, 0, None, None),
        SequenceError::Placement {
            index,
            placement,
            error,
        } => match error {
            PlacementError::Character {
                index: at,
                found,
                expected,
            } => {
                let from = index * LEN + at;
                (
                    Some(*index),
                    Some(placement.clone()),
                    from,
                    from + 1,
                    Some(*found),
                    Some((*expected).to_owned()),
                )
            }
            PlacementError::Length(_) => whole(*index, placement),
        },
        SequenceError::Truncated { index, placement } => whole(*index, placement),
        SequenceError::TooMany { .. } => (
            Some(MAX_PLACEMENTS),
            None,
            MAX_PLACEMENTS * LEN,
            total,
            None,
            None,
        ),
        SequenceError::TooManyInExpansion { .. } => (
            Some(railroad_ink::board::MAX_EXPANSION_PLACEMENTS),
            None,
            railroad_ink::board::MAX_EXPANSION_PLACEMENTS * LEN,
            total,
            None,
            None,
        ),
        SequenceError::TooManySpecials { index, placement }
        | SequenceError::NotInThisGame {
            index, placement, ..
        } => (
            Some(*index),
            Some(placement.clone()),
            index * LEN,
            index * LEN + LEN,
            None,
            None,
        ),
    };
    Malformed {
        index,
        placement,
        from: from.min(total),
        to: to.min(total),
        found,
        expected,
        message: e.to_string(),
    }
}

/// Checks the length of a text sent to the viewer.
pub fn check_length(text: &str) -> Result<(), ApiError> {
    if text.len() > 4 * MAX_TEXT || chars(text) > MAX_TEXT {
        return Err(ApiError::BadRequest(format!(
            "the text is longer than {MAX_TEXT} characters"
        )));
    }
    Ok(())
}

fn is_base(e: &Expansion) -> bool {
    *e == Expansion::None
}

/// A base game's board string, placement by placement.
#[cfg(test)]
fn ink(text: &str) -> InkView {
    ink_in(text, Expansion::None)
}

/// A Railroad Ink board string of a game with `expansion`, placement by placement. `""` is the
/// empty board.
pub fn ink_in(text: &str, expansion: Expansion) -> InkView {
    let (placements, malformed) = if text.is_empty() {
        (Vec::new(), None)
    } else {
        match Sequence::parse_in(text, expansion) {
            Ok(seq) => (seq.placements().to_vec(), None),
            Err(e) => {
                let malformed = ink_malformed(text, &e);
                // The placements before the one at fault are well-formed: the engine parses
                // them on their own.
                let good = match malformed.index {
                    Some(i) if i > 0 => Sequence::parse_in(prefix(text, i * 5), expansion)
                        .map(|s| s.placements().to_vec())
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                (good, Some(malformed))
            }
        }
    };
    let mut board = Board::with_expansion(expansion);
    let mut steps = vec![board.breakdown()];
    let mut flooded = vec![crate::games::ink::flooded(&board)];
    let mut illegal = None;
    for (index, &placement) in placements.iter().enumerate() {
        match board.place(placement) {
            Ok(()) => {
                steps.push(board.breakdown());
                flooded.push(crate::games::ink::flooded(&board));
            }
            Err(reason) => {
                illegal = Some(IllegalView {
                    index,
                    placement,
                    square: placement.square,
                    reason: reason.to_string(),
                    rule: reason.rule().to_owned(),
                });
                break;
            }
        }
    }
    InkView {
        board: text.to_owned(),
        expansion,
        flooded: (expansion != Expansion::None).then_some(flooded),
        well_formed: malformed.is_none(),
        valid: malformed.is_none() && illegal.is_none(),
        placements,
        steps,
        illegal,
        malformed,
    }
}

/// One prefix of a Metro sequence, scored.
#[derive(Debug, Clone, Serialize)]
pub struct MetroStep {
    /// Each player's score, P1 first.
    pub scores: Vec<u32>,
    /// The lines that have begun (at least one tile), station order; a station not listed has
    /// an empty square before it.
    pub lines: Vec<LineView>,
}

/// `POST /api/ink/check`: one placement tried on a board by the engine (for the tutorial,
/// whose steps are checked here and never by the page): the board after it, scored, and where
/// the tiles asked about may go next.
#[derive(Debug, Clone, Serialize)]
pub struct InkCheck {
    /// The board string after the placement (the board as sent when none was).
    pub board: String,
    pub breakdown: Breakdown,
    /// The flooded squares (rule E3.3); absent when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flooded: Vec<Square>,
    /// For each tile asked about, for each orientation 0–7, the squares where it is legal on
    /// that board, written one after another (`"A1D0"`).
    pub legal: std::collections::BTreeMap<Tile, Vec<String>>,
}

/// The most tiles one check asks about (there are 25 a player may place, with the expansions').
pub const MAX_CHECK_TILES: usize = railroad_ink::tile::TILE_TYPES;

/// Tries `placement` (if any) on the board `text` with the engine. A malformed or illegal board
/// is a `400`; a placement the rules refuse is the engine's refusal (a `422` with its rule),
/// exactly as in a game.
pub fn ink_check(
    text: &str,
    expansion: Expansion,
    placement: Option<Placement>,
    tiles: &[Tile],
) -> Result<InkCheck, ApiError> {
    check_length(text)?;
    if tiles.len() > MAX_CHECK_TILES {
        return Err(ApiError::BadRequest(format!(
            "ask about at most {MAX_CHECK_TILES} tiles"
        )));
    }
    let mut board = Board::parse_in(text, expansion)
        .map_err(|e| ApiError::BadRequest(format!("the board string: {e}")))?;
    if let Some(placement) = placement {
        if !expansion.allows(placement.tile) {
            return Err(GameError::NotInThisGame {
                tile: placement.tile,
                expansion,
            }
            .into());
        }
        board
            .place(placement)
            .map_err(|reason| GameError::Illegal { placement, reason })?;
    }
    let legal = tiles
        .iter()
        .map(|&tile| {
            let by_orientation = Orientation::ALL
                .iter()
                .map(|&o| {
                    Square::all()
                        .filter(|s| board.legal_squares(tile, o) & s.bit() != 0)
                        .map(|s| s.to_string())
                        .collect::<String>()
                })
                .collect();
            (tile, by_orientation)
        })
        .collect();
    Ok(InkCheck {
        flooded: crate::games::ink::flooded(&board),
        board: board.to_string(),
        breakdown: board.breakdown(),
        legal,
    })
}

/// The first illegal Metro placement, with the engine's names of the rule it breaks.
#[derive(Debug, Clone, Serialize)]
pub struct MetroIllegal {
    #[serde(flatten)]
    pub illegal: IllegalView<metro::Placement, metro::Square>,
    /// The rule's short, stable name (`not_touching`, …).
    pub name: &'static str,
}

/// One Metro placement sequence, placement by placement, for a number of players.
#[derive(Debug, Clone, Serialize)]
pub struct MetroView {
    /// The text as sent.
    pub sequence: String,
    pub players: metro::PlayerCount,
    pub well_formed: bool,
    pub valid: bool,
    /// The well-formed placements, in order (those before a malformed one).
    pub placements: Vec<metro::Placement>,
    /// `steps[k]`: the board of the first `k` placements, scored for `players`.
    pub steps: Vec<MetroStep>,
    pub illegal: Option<MetroIllegal>,
    pub malformed: Option<Malformed>,
}

/// Where a Metro sequence is malformed, from the engine's error.
fn metro_malformed(text: &str, e: &metro::SequenceError) -> Malformed {
    use metro::{PlacementError, SequenceErrorKind};
    const LEN: usize = 6;
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

/// A Metro placement sequence, placement by placement, scored for `players`.
pub fn metro(text: &str, players: metro::PlayerCount) -> MetroView {
    let (placements, malformed) = match text.parse::<metro::Sequence>() {
        Ok(seq) => (seq.into_placements(), None),
        Err(e) => {
            let malformed = metro_malformed(text, &e);
            let good = prefix(text, e.index * 6)
                .parse::<metro::Sequence>()
                .map(metro::Sequence::into_placements)
                .unwrap_or_default();
            (good, Some(malformed))
        }
    };
    let step = |board: &metro::Board| {
        let score = metro::Score::new(board, players);
        MetroStep {
            lines: score
                .lines
                .iter()
                .filter(|l| l.line.length > 0)
                .map(|l| LineView {
                    station: l.line.station,
                    owner: l.owner.map(metro::Player::index),
                    squares: l.line.squares.clone(),
                    entries: entries(board, &l.line),
                    length: l.line.length,
                    end: l.line.end,
                    points: l.line.points,
                })
                .collect(),
            scores: score.totals,
        }
    };
    let mut board = metro::Board::new();
    let mut steps = vec![step(&board)];
    let mut illegal = None;
    for (index, &placement) in placements.iter().enumerate() {
        match board.place(placement) {
            Ok(()) => steps.push(step(&board)),
            Err(e) => {
                illegal = Some(MetroIllegal {
                    illegal: IllegalView {
                        index,
                        placement,
                        square: placement.square,
                        reason: e.reason.to_string(),
                        rule: e.reason.rule().to_owned(),
                    },
                    name: e.reason.name(),
                });
                break;
            }
        }
    }
    MetroView {
        sequence: text.to_owned(),
        players,
        well_formed: malformed.is_none(),
        valid: malformed.is_none() && illegal.is_none(),
        placements,
        steps,
        illegal,
        malformed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

    #[test]
    fn the_rules_example_scores_46_at_its_last_step() {
        let v = ink(EXAMPLE);
        assert!(v.valid && v.well_formed);
        assert_eq!(v.placements.len(), 31);
        assert_eq!(v.steps.len(), 32);
        assert_eq!(v.steps[31].score.advanced, 46);
        assert_eq!(v.steps[0].score.advanced, 0);
        // Each step is the engine's score of that prefix.
        let ten: Board = EXAMPLE[..50].parse().unwrap();
        assert_eq!(v.steps[10].score, ten.score());
    }

    #[test]
    fn the_empty_board_is_one_step() {
        let v = ink("");
        assert!(v.valid);
        assert_eq!(v.steps.len(), 1);
        assert!(v.placements.is_empty());
    }

    #[test]
    fn the_first_illegal_placement_stops_the_steps() {
        let v = ink("A1A30A4B30A4A10");
        assert!(v.well_formed && !v.valid);
        let illegal = v.illegal.unwrap();
        assert_eq!(illegal.index, 1);
        assert_eq!(illegal.rule, "highway meets railway");
        assert_eq!(illegal.square.to_string(), "B3");
        assert_eq!(v.steps.len(), 2);
        assert_eq!(v.placements.len(), 3);
    }

    #[test]
    fn a_bad_character_is_pointed_out() {
        let v = ink("A4A10A4B1XA4C10");
        let m = v.malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(1), 9, 10));
        assert_eq!(m.found, Some('X'));
        assert_eq!(m.expected.as_deref(), Some("an orientation 0–7"));
        // The placement before it is still drawn.
        assert_eq!(v.placements.len(), 1);
        assert_eq!(v.steps.len(), 2);
        assert!(!v.valid && !v.well_formed);
    }

    #[test]
    fn a_cut_short_string_points_at_its_last_placement() {
        let v = ink("A4A10A4B");
        let m = v.malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(1), 5, 8));
        assert_eq!(m.placement.as_deref(), Some("A4B"));
    }

    #[test]
    fn a_fourth_special_and_a_32nd_placement() {
        let v = ink("S0A10S1A20S2A30S3A40");
        let m = v.malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(3), 15, 20));
        assert_eq!(v.placements.len(), 3);
        let long = "A4A10".repeat(32);
        let m = ink(&long).malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(31), 155, 160));
    }

    #[test]
    fn a_metro_sequence_step_by_step() {
        let four = metro::PlayerCount::new(4).unwrap();
        let v = metro("aaaa03aaaa13aaaa23", four);
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

        let v = metro("aaaa00aaaa11aaaa22", four);
        let illegal = v.illegal.unwrap();
        assert_eq!((illegal.illegal.index, illegal.name), (1, "not_touching"));
        assert_eq!(illegal.illegal.rule, "§6.1 rule 2 (touching)");
        assert_eq!(v.steps.len(), 2);

        let v = metro("aaaa00aaXa11", four);
        let m = v.malformed.unwrap();
        assert_eq!((m.index, m.from, m.to, m.found), (Some(1), 8, 9, Some('X')));
        assert_eq!(v.placements.len(), 1);
        let m = metro("aaaa00abcd11", four).malformed.unwrap();
        assert_eq!((m.from, m.to), (6, 10));
        let m = metro("aaaa00aaaa1", four).malformed.unwrap();
        assert_eq!((m.from, m.to), (6, 11));
        let m = metro("dddd00dddd11dddd22", four).malformed.unwrap();
        assert_eq!((m.index, m.from, m.to), (Some(2), 12, 18));
        assert!(metro("", four).valid);
    }

    #[test]
    fn offsets_count_characters_not_bytes() {
        let v = ink("A4A10A4é10");
        let m = v.malformed.unwrap();
        assert_eq!((m.from, m.to, m.found), (7, 8, Some('é')));
    }
}
