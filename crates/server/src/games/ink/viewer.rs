//! Railroad Ink's board viewer: a board string drawn placement by placement, as
//! `GET /api/ink/view` sends it, and one placement tried on a board (`POST /api/ink/check`).
//!
//! Everything here is the engine's answer: the string is parsed by the engine (its typed
//! error names the character at fault), the placements are placed one by one on the
//! engine's board along the shared walk ([`crate::viewer::walk`]; its typed error names the
//! first illegal one and the rule it breaks), and each prefix is scored with the engine's
//! breakdown.

use railroad_ink::board::{MAX_EXPANSION_PLACEMENTS, MAX_PLACEMENTS, Sequence};
use railroad_ink::score::Breakdown;
use railroad_ink::{
    Board, Expansion, GameError, Orientation, Placement, PlacementError, SequenceError, Square,
    Tile,
};
use serde::Serialize;

use super::{flooded, is_base};
use crate::error::ApiError;
use crate::viewer::{IllegalView, Malformed, chars, check_length, read, walk};

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

/// The characters of one placement in a board string.
const LEN: usize = 5;

/// Where a Railroad Ink board string is malformed, from the engine's error.
fn malformed(text: &str, e: &SequenceError) -> Malformed {
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
            Some(MAX_EXPANSION_PLACEMENTS),
            None,
            MAX_EXPANSION_PLACEMENTS * LEN,
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

/// A Railroad Ink board string of a game with `expansion`, placement by placement. `""` is the
/// empty board.
pub fn view(text: &str, expansion: Expansion) -> InkView {
    let parse = |text: &str| Sequence::parse_in(text, expansion).map(|s| s.placements().to_vec());
    let (placements, malformed) = read(text, LEN, parse, |e| malformed(text, e));
    let walked = walk(
        Board::with_expansion(expansion),
        &placements,
        Board::place,
        |board| (board.breakdown(), flooded(board)),
    );
    let illegal = walked.stop.map(|stop| IllegalView {
        index: stop.index,
        placement: stop.placement,
        square: stop.placement.square,
        reason: stop.error.to_string(),
        rule: stop.error.rule().to_owned(),
    });
    let (steps, flooded): (Vec<_>, Vec<_>) = walked.steps.into_iter().unzip();
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
pub fn check(
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
        flooded: flooded(&board),
        board: board.to_string(),
        breakdown: board.breakdown(),
        legal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

    /// A base game's board string, placement by placement.
    fn ink(text: &str) -> InkView {
        view(text, Expansion::None)
    }

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
    fn offsets_count_characters_not_bytes() {
        let v = ink("A4A10A4é10");
        let m = v.malformed.unwrap();
        assert_eq!((m.from, m.to, m.found), (7, 8, Some('é')));
    }
}
