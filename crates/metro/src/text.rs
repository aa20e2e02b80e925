//! The text interface of the rules: strings in, answers out, one function per question.
//!
//! Each function parses its strings once into typed values and answers with the typed API.
//!
//! ```
//! use metro::text;
//! assert!(text::is_well_formed("aaaa00bbbb00"));
//! assert!(!text::is_valid("aaaa00bbbb00"));
//! assert_eq!(text::first_illegal_index("aaaa00bbbb00"), Some(1));
//! assert_eq!(text::score("aaaa03aaaa13aaaa23", 2).unwrap(), [6, 0]);
//! assert_eq!(text::generate_move("aaaa01", "dddd", 2).unwrap(), "dddd11");
//! ```

use rand::Rng;
use thiserror::Error;

use crate::board::{Board, InvalidSequence};
use crate::deck::{Deck, Hands, HandsError, OverdrawnError};
use crate::movegen::{self, MoveError};
use crate::placement::{RawPlacement, Sequence, SequenceError};
use crate::score;
use crate::square::{PlayerCount, PlayerCountError};
use crate::tile::{Tile, TileError};

/// Why a sequence string is not valid (§6.2).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CheckError {
    /// Not well-formed (§5.2).
    #[error("not well-formed: {0}")]
    Malformed(#[from] SequenceError),
    /// Well-formed, but a placement is illegal (§6.1).
    #[error("not valid: {0}")]
    Illegal(#[from] InvalidSequence),
}

impl CheckError {
    /// 0-based index of the offending placement.
    pub fn index(&self) -> usize {
        match self {
            CheckError::Malformed(e) => e.index,
            CheckError::Illegal(e) => e.index,
        }
    }

    /// The offending placement's text.
    pub fn placement(&self) -> String {
        match self {
            CheckError::Malformed(e) => e.placement.clone(),
            CheckError::Illegal(e) => e.placement.to_string(),
        }
    }

    /// What is wrong, without the placement's index and text: whether the sequence is not
    /// well-formed or not valid, and why (for an illegal placement, the rule it breaks).
    pub fn message(&self) -> String {
        match self {
            CheckError::Malformed(e) => format!("not well-formed: {}", e.kind),
            CheckError::Illegal(e) => format!(
                "not valid: it breaks {} at {}: {}",
                e.reason.rule(),
                e.placement.square.coords(),
                e.reason
            ),
        }
    }

    /// A short, stable name for the problem: `malformed`, or the rule broken
    /// ([`Illegal::name`](crate::Illegal::name)).
    pub fn rule(&self) -> &'static str {
        match self {
            CheckError::Malformed(_) => "malformed",
            CheckError::Illegal(e) => e.reason.name(),
        }
    }
}

/// Any error of the text interface.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Error {
    /// The sequence is not well-formed or not valid.
    #[error(transparent)]
    Sequence(#[from] CheckError),
    /// The hands string is not one.
    #[error("hands: {0}")]
    Hands(#[from] HandsError),
    /// Board and hands hold more copies of a tile than the deck has.
    #[error(transparent)]
    Overdrawn(#[from] OverdrawnError),
    /// The tile is not one of the 24.
    #[error("tile: {0}")]
    Tile(#[from] TileError),
    /// The player count is not 2–6.
    #[error(transparent)]
    Players(#[from] PlayerCountError),
    /// There is no move.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// Whether `s` is a well-formed placement string (§5.1): syntax only.
pub fn is_well_formed_placement(s: &str) -> bool {
    s.parse::<RawPlacement>().is_ok()
}

/// Whether `s` is a well-formed placement sequence (§5.2), deck counts included.
pub fn is_well_formed(s: &str) -> bool {
    s.parse::<Sequence>().is_ok()
}

/// Parses and validates a sequence: its board, or the first thing wrong with it.
pub fn check(s: &str) -> Result<(Sequence, Board), CheckError> {
    let sequence: Sequence = s.parse()?;
    let board = Board::from_sequence(&sequence)?;
    Ok((sequence, board))
}

/// Whether `s` is a valid sequence (§6.2).
pub fn is_valid(s: &str) -> bool {
    check(s).is_ok()
}

/// The 0-based index of the first illegal placement of a well-formed sequence; `None` if the
/// sequence is valid or not well-formed.
pub fn first_illegal_index(s: &str) -> Option<usize> {
    match check(s) {
        Err(CheckError::Illegal(e)) => Some(e.index),
        _ => None,
    }
}

/// `draw(sequence, hands)` of §5.3: `Ok(None)` is "no tile" (the deck is empty). The sequence
/// must be well-formed; it need not be valid.
pub fn draw<R: Rng + ?Sized>(
    sequence: &str,
    hands: &str,
    rng: &mut R,
) -> Result<Option<Tile>, Error> {
    let sequence: Sequence = sequence.parse().map_err(CheckError::from)?;
    let hands: Hands = hands.parse()?;
    Ok(Deck::remaining(&sequence, &hands)?.pick(rng))
}

/// `score(sequence, n)` of §7: each player's total, P1 first.
pub fn score(sequence: &str, players: u8) -> Result<Vec<u32>, Error> {
    let players = PlayerCount::try_from(players)?;
    let (_, board) = check(sequence)?;
    Ok(score::scores(&board, players))
}

/// `generate_move(sequence, tile, players)` of §8: the reference move, a 6-character placement.
pub fn generate_move(sequence: &str, tile: &str, players: u8) -> Result<String, Error> {
    PlayerCount::try_from(players)?;
    let (_, board) = check(sequence)?;
    let tile: Tile = tile.parse()?;
    Ok(movegen::generate_move(&board, tile)?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_error_parts() {
        let e = check("aaaa00aaaa11").unwrap_err();
        assert_eq!(
            (e.index(), e.placement().as_str(), e.rule()),
            (1, "aaaa11", "not_touching")
        );
        assert_eq!(
            e.message(),
            "not valid: it breaks §6.1 rule 2 (touching) at (1,1): the square is not on the \
             border and none of its four orthogonal neighbours holds a tile"
        );
        let e = check("aaaa00b").unwrap_err();
        assert_eq!(
            (e.index(), e.placement().as_str(), e.rule()),
            (1, "b", "malformed")
        );
        assert_eq!(
            e.message(),
            "not well-formed: the sequence ends after 1 of this placement's 6 characters (its \
             length is not a multiple of 6)"
        );
    }

    #[test]
    fn errors_of_each_input() {
        use rand::SeedableRng;
        assert!(matches!(score("", 7), Err(Error::Players(_))));
        assert!(matches!(
            score("aaaa11", 2),
            Err(Error::Sequence(CheckError::Illegal(_)))
        ));
        assert!(matches!(generate_move("", "abcd", 2), Err(Error::Tile(_))));
        assert!(matches!(
            generate_move("", "aaaa", 1),
            Err(Error::Players(_))
        ));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert!(matches!(draw("", "aaaab", &mut rng), Err(Error::Hands(_))));
        assert!(matches!(
            draw("dddd00dddd01", "dddd", &mut rng),
            Err(Error::Overdrawn(_))
        ));
        assert!(matches!(
            draw("aaaa0", "", &mut rng),
            Err(Error::Sequence(CheckError::Malformed(_)))
        ));
        // draw needs a well-formed sequence, not a valid one.
        assert!(matches!(draw("aaaa11", "", &mut rng), Ok(Some(_))));
    }
}
