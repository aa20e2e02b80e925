//! The Railroad Ink (Deep Blue Edition) rules engine.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
//!
//! Text goes in once, at the edge: [`Placement`], [`Sequence`], [`Board`] and [`Roll`] parse
//! with typed errors and print back. Everything else works on those types: legality
//! ([`Board::check`]), scoring ([`Board::score`], [`Board::breakdown`]), move generation
//! ([`generate_move`]) and the game's rounds ([`Game`]).
//!
//! ```
//! use railroad_ink::Board;
//!
//! let board: Board = "A4A10A4B10A4C10A4D10A4E10A4F10A4G10".parse()?;
//! let score = board.score();
//! assert_eq!((score.basic, score.longest_highway, score.advanced), (4, 7, 11));
//! # Ok::<(), railroad_ink::BoardError>(())
//! ```
//!
//! The functions at the crate root mirror the text interface of the rules one to one.

pub mod board;
pub mod expansion;
pub mod placement;
pub mod score;
mod side;
pub mod square;
pub mod tile;

pub use board::{Board, BoardError, Illegal, IllegalPlacement, Sequence, SequenceError};
pub use expansion::Expansion;
pub use placement::{Placement, PlacementError, connected_neighbours};
pub use score::{Breakdown, Score};
pub use square::{Exit, Side, Square};
pub use tile::{Edge, Orientation, Route, Source, Tile};
pub mod dice;
pub mod game;
pub mod movegen;
pub mod view;

pub use dice::{Roll, RollError};
pub use game::{Action, Dice, Game, GameError, Setup};
pub use movegen::{MoveError, check_move, generate_move};

/// Whether a string is a well-formed board string (§5.2). `""` is not.
pub fn is_well_formed(board: &str) -> bool {
    board.parse::<Sequence>().is_ok()
}

/// Whether a string is a valid placement sequence (§6.2). `""` is.
pub fn is_valid(board: &str) -> bool {
    board.parse::<Board>().is_ok()
}

/// The score of a board string (§7); `""` scores 0.
pub fn score(board: &str) -> Result<Score, BoardError> {
    Ok(board.parse::<Board>()?.score())
}

/// A roll of the four dice (§5.3) from the given random number generator.
pub fn roll<R: rand::Rng + ?Sized>(rng: &mut R) -> Roll {
    Roll::random(rng)
}

/// Why the inputs of the text form of [`generate_move`] were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    #[error("board: {0}")]
    /// The board string is not a valid board.
    Board(#[from] BoardError),
    #[error("roll: {0}")]
    /// The roll is not well-formed.
    Roll(#[from] RollError),
}

/// The reference move (§8) for a board string and a roll string, as a string of placements.
pub fn generate_move_text(board: &str, roll: &str) -> Result<String, MoveInputError> {
    let board: Board = board.parse()?;
    let roll: Roll = roll.parse()?;
    Ok(generate_move(&board, &roll)
        .iter()
        .map(ToString::to_string)
        .collect())
}

pub mod ai;
