//! The generate-move contract (§8): one round's placements for a board and a roll.

use thiserror::Error;

use crate::board::{Board, Illegal, MAX_SPECIALS};
use crate::dice::{DICE, Roll};
use crate::placement::Placement;
use crate::tile::Tile;

/// The reference strategy of §8: deterministic, never a special. Repeatedly takes the first
/// unused die (in roll order) that fits, at its first square (row-major) and lowest canonical
/// orientation, until no unused die fits.
pub fn generate_move(board: &Board, roll: &Roll) -> Vec<Placement> {
    let mut board = *board;
    let mut used = 0u8;
    let mut out = Vec::with_capacity(DICE);
    'pass: loop {
        for (die, tile) in roll.dice().into_iter().enumerate() {
            if used & (1 << die) != 0 {
                continue;
            }
            if let Some(p) = first_legal(&board, tile) {
                board.put(p);
                used |= 1 << die;
                out.push(p);
                continue 'pass;
            }
        }
        return out;
    }
}

/// The first legal placement of a tile in row-major order, then ascending canonical orientation.
pub fn first_legal(board: &Board, tile: Tile) -> Option<Placement> {
    let mut best: Option<Placement> = None;
    for &o in tile.canonical_orientations() {
        let mask = board.legal_squares(tile, o);
        if mask == 0 {
            continue;
        }
        let square = crate::square::Square::at(mask.trailing_zeros() as u8);
        if best.is_none_or(|b| square < b.square) {
            best = Some(Placement::new(tile, square, o));
        }
    }
    best
}

/// Why a round's placements break the contract of §8.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("placement {index} ({placement}): no unused die of the roll shows {}", placement.tile)]
    /// No unused die shows the tile.
    NoSuchDie {
        /// Its index.
        index: usize,
        /// The placement.
        placement: Placement,
    },
    #[error("placement {index} ({placement}) is a second special: at most one a round")]
    /// A second special in one round.
    SecondSpecial {
        /// Its index.
        index: usize,
        /// The placement.
        placement: Placement,
    },
    #[error("placement {index} ({placement}): the board already holds {}", if *already_placed { "this special" } else { "3 specials" })]
    /// The special cannot be used on this board.
    SpecialUnavailable {
        /// Its index in the move.
        index: usize,
        /// The placement.
        placement: Placement,
        /// Whether the special is already on the board (otherwise three specials are).
        already_placed: bool,
    },
    #[error("placement {index} ({placement}) is illegal: {reason}")]
    /// The placement breaks a rule of §6.1.
    Illegal {
        /// Its index in the move.
        index: usize,
        /// The placement.
        placement: Placement,
        /// The rule it breaks.
        reason: Illegal,
    },
    #[error("placement {index} ({placement}) is not in its canonical orientation ({})", placement.canonical())]
    /// The orientation is not the lowest of its class.
    NotCanonical {
        /// Its index.
        index: usize,
        /// The placement.
        placement: Placement,
    },
    #[error("not maximal: the unused die {tile} still fits, for example {example}")]
    /// An unused die still fits.
    NotMaximal {
        /// The tile.
        tile: Tile,
        /// A placement where it fits.
        example: Placement,
    },
}

/// Checks every clause of the contract of §8 for a move on a board and roll.
pub fn check_move(board: &Board, roll: &Roll, placements: &[Placement]) -> Result<(), MoveError> {
    let mut board = *board;
    let mut used = 0u8;
    let mut special = false;
    for (index, &placement) in placements.iter().enumerate() {
        if placement.tile.is_special() {
            if special {
                return Err(MoveError::SecondSpecial { index, placement });
            }
            let already_placed = board.has_special(placement.tile);
            if already_placed || board.special_count() >= MAX_SPECIALS {
                return Err(MoveError::SpecialUnavailable {
                    index,
                    placement,
                    already_placed,
                });
            }
            special = true;
        } else {
            let die = roll
                .unused_die(placement.tile, used)
                .ok_or(MoveError::NoSuchDie { index, placement })?;
            used |= 1 << die;
        }
        board
            .place(placement)
            .map_err(|reason| MoveError::Illegal {
                index,
                placement,
                reason,
            })?;
        if !placement.is_canonical() {
            return Err(MoveError::NotCanonical { index, placement });
        }
    }
    for (die, tile) in roll.dice().into_iter().enumerate() {
        if used & (1 << die) == 0
            && let Some(example) = first_legal(&board, tile)
        {
            return Err(MoveError::NotMaximal { tile, example });
        }
    }
    Ok(())
}
