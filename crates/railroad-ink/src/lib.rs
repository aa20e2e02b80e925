//! The Railroad Ink (Deep Blue Edition) rules engine.

pub mod board;
pub mod placement;
pub mod score;
pub mod square;
pub mod tile;

pub use board::{Board, BoardError, Illegal, IllegalPlacement, Sequence, SequenceError};
pub use placement::{Placement, PlacementError, connected_neighbours};
pub use score::{Breakdown, Score};
pub use square::{Exit, Side, Square};
pub use tile::{Edge, Orientation, Route, Source, Tile};
