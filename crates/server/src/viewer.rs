//! What every game's board viewer shares (each game's own is its `viewer` module, such as
//! `GET /api/ink/view`): a text of placements read as far as it is well-formed, the placements
//! walked one by one on the game's board up to the first illegal one, and where a text is at
//! fault.
//!
//! Names no game: a game's viewer gives its engine's parser, board and scoring, and says what
//! one step shows. The page draws what it is sent and never decides a rule.

use serde::Serialize;

use crate::error::ApiError;

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

/// The number of characters of a string.
pub fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The first `n` characters of a string.
pub fn prefix(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((byte, _)) => &text[..byte],
        None => text,
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

/// A text of placements `len` characters each, read by `parse` as far as it is well-formed:
/// all of it, or the placements before the one `malformed` says is at fault (parsed on their
/// own) and where it is. `""` is no placement.
pub fn read<P, E>(
    text: &str,
    len: usize,
    parse: impl Fn(&str) -> Result<Vec<P>, E>,
    malformed: impl FnOnce(&E) -> Malformed,
) -> (Vec<P>, Option<Malformed>) {
    if text.is_empty() {
        return (Vec::new(), None);
    }
    match parse(text) {
        Ok(placements) => (placements, None),
        Err(e) => {
            let malformed = malformed(&e);
            let good = match malformed.index {
                Some(i) if i > 0 => parse(prefix(text, i * len)).unwrap_or_default(),
                _ => Vec::new(),
            };
            (good, Some(malformed))
        }
    }
}

/// The first illegal placement of a walk, and the board's refusal of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop<P, E> {
    /// Its 0-based index in the sequence.
    pub index: usize,
    pub placement: P,
    pub error: E,
}

/// Placements walked on a board, one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Walk<S, P, E> {
    /// `steps[k]`: what the board of the first `k` placements shows. There is one step more
    /// than there are legal placements in a row from the start.
    pub steps: Vec<S>,
    /// The first illegal placement; the placements after it are not placed.
    pub stop: Option<Stop<P, E>>,
}

/// Places `placements` one by one on `board` with `place`, taking a `step` of the board before
/// the first and after each legal one, and stops at the first `place` refuses.
pub fn walk<B, P: Copy, E, S>(
    mut board: B,
    placements: &[P],
    mut place: impl FnMut(&mut B, P) -> Result<(), E>,
    mut step: impl FnMut(&B) -> S,
) -> Walk<S, P, E> {
    let mut steps = Vec::with_capacity(placements.len() + 1);
    steps.push(step(&board));
    for (index, &placement) in placements.iter().enumerate() {
        if let Err(error) = place(&mut board, placement) {
            let stop = Stop {
                index,
                placement,
                error,
            };
            return Walk {
                steps,
                stop: Some(stop),
            };
        }
        steps.push(step(&board));
    }
    Walk { steps, stop: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of digits that refuses a digit it holds already.
    fn place(board: &mut Vec<u8>, digit: u8) -> Result<(), String> {
        if board.contains(&digit) {
            return Err(format!("{digit} twice"));
        }
        board.push(digit);
        Ok(())
    }

    fn sum(board: &[u8]) -> u32 {
        board.iter().map(|&d| u32::from(d)).sum()
    }

    #[test]
    fn a_full_sequence_is_one_step_more_than_its_placements() {
        let w = walk(Vec::new(), &[1, 2, 3], place, |b| sum(b));
        assert_eq!(w.steps, [0, 1, 3, 6]);
        assert_eq!(w.stop, None);
    }

    #[test]
    fn an_empty_sequence_is_the_empty_board() {
        let w = walk(Vec::new(), &[], place, |b| sum(b));
        assert_eq!(w.steps, [0]);
        assert_eq!(w.stop, None);
    }

    #[test]
    fn the_first_illegal_placement_stops_the_walk_with_its_index() {
        let w = walk(Vec::new(), &[4, 5, 4, 6, 5], place, |b| sum(b));
        assert_eq!(w.steps, [0, 4, 9]);
        let stop = w.stop.unwrap();
        assert_eq!((stop.index, stop.placement), (2, 4));
        assert_eq!(stop.error, "4 twice");
        // Illegal at once: the empty board alone.
        let w = walk(vec![7], &[7, 1], place, |b| sum(b));
        assert_eq!(w.steps, [7]);
        assert_eq!(w.stop.map(|s| s.index), Some(0));
    }

    /// Digits two characters each (`"1.2."`), refused at the first placement that is not.
    fn digits(text: &str) -> Result<Vec<u8>, usize> {
        let chars: Vec<char> = text.chars().collect();
        chars
            .chunks(2)
            .enumerate()
            .map(|(i, c)| match c {
                [d, '.'] => d.to_digit(10).map(|d| d as u8).ok_or(i),
                _ => Err(i),
            })
            .collect()
    }

    fn at(index: &usize) -> Malformed {
        Malformed {
            index: Some(*index),
            placement: None,
            from: index * 2,
            to: index * 2 + 2,
            found: None,
            expected: None,
            message: format!("placement {index}"),
        }
    }

    #[test]
    fn a_text_is_read_up_to_the_placement_at_fault() {
        assert_eq!(read("1.2.", 2, digits, at), (vec![1, 2], None));
        assert_eq!(read("", 2, digits, at), (Vec::new(), None));
        let (good, malformed) = read("1.2.x.3.", 2, digits, at);
        assert_eq!(good, [1, 2]);
        assert_eq!(malformed.map(|m| (m.from, m.to)), Some((4, 6)));
        let (good, malformed) = read("é.", 2, digits, at);
        assert!(good.is_empty());
        assert_eq!(malformed.and_then(|m| m.index), Some(0));
    }
}
