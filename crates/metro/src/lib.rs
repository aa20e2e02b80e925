//! The rules of *Metro* as the rules document `rules/metro.md` states them: tiles and their
//! tracks, the board and its stations, placement strings and sequences, legality, drawing,
//! scoring, move generation, and a [`Game`] that enforces the turn rules.
//!
//! Text is parsed once, at the edge, into typed values ([`Placement`], [`Sequence`], [`Tile`],
//! [`Hands`]); a [`Sequence`] is only well-formed, a [`Board`] is valid. Every parse error and
//! illegal move is a typed error naming the character, placement or rule. [`text`] offers the
//! rules' string interface one function at a time, and [`ai`] the computer players.
//!
//! ```
//! use metro::{Board, PlayerCount, Score, Sequence, generate_move};
//!
//! let sequence: Sequence = "badb01baac02dbba10bcbc00".parse()?;
//! let board = Board::from_sequence(&sequence)?;
//! let score = Score::new(&board, PlayerCount::new(2).unwrap());
//! assert_eq!(score.totals, [3, 2]);
//! // Station 9's line passes (0,0) twice and comes back to station 9.
//! assert_eq!(score.lines[8].line.points, 3);
//!
//! let next = generate_move(&board, "cccc".parse()?)?;
//! assert!(board.is_legal(next));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ai;
pub mod board;
pub mod deck;
pub mod game;
pub mod movegen;
pub mod placement;
pub mod score;
pub mod square;
pub mod text;
pub mod tile;
pub mod view;

pub use board::{Board, Illegal, IllegalPlacement, InvalidSequence};
pub use deck::{Deck, Hands, HandsError, MAX_HANDS, OverdrawnError, draw};
pub use game::{
    Action, ActionError, Config, Event, Game, GameError, Phase, Record, ReplayError, View,
};
pub use movegen::{MoveError, generate_move, play_random, random_action, random_move};
pub use placement::{
    Placement, PlacementError, RawPlacement, Sequence, SequenceError, SequenceErrorKind,
};
pub use score::{Line, LineEnd, Score, StationLine, line_points, scores};
pub use square::{
    Axis, BORDER, CENTRE, Player, PlayerCount, PlayerCountError, Side, Square, SquareError,
    SquareSet, Station, StationError,
};
pub use tile::{Code, CodeError, DECK_SIZE, Letter, Tile, TileError, TileInfo};
