//! The generate-move contract (§8), and random legal play.

use rand::{Rng, RngExt};
use thiserror::Error;

use crate::board::Board;
use crate::game::{Action, Game, Phase};
use crate::placement::Placement;
use crate::tile::Tile;

/// No move exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum MoveError {
    /// All 60 tiles are placed.
    #[error("the board is full: all 60 tiles are placed, so there is no move")]
    BoardFull,
    /// Every copy of the tile type is already on the board, so the deck cannot deal it.
    #[error(
        "all {copies} copies of {tile} are already on the board: the deck has none left to place"
    )]
    NoCopyLeft {
        /// The tile type.
        tile: Tile,
        /// Its copies in the deck.
        copies: u8,
    },
}

/// The reference move of §8: `tile` on its first legal square in row-major order.
///
/// While fewer than 60 tiles are placed every tile has a legal square (§6.1), so the errors
/// are a full board and a tile type whose every copy is placed already (the sequence would no
/// longer be well-formed, §5.3).
///
/// ```
/// use metro::{generate_move, Board};
/// let board = Board::new();
/// assert_eq!(generate_move(&board, "dada".parse().unwrap()).unwrap().to_string(), "dada10");
/// ```
pub fn generate_move(board: &Board, tile: Tile) -> Result<Placement, MoveError> {
    let copies = tile.copies();
    if board.len() < 60 && board.tiles().filter(|&(_, t)| t == tile).count() >= copies as usize {
        return Err(MoveError::NoCopyLeft { tile, copies });
    }
    let square = board
        .legal_squares(tile)
        .first()
        .ok_or(MoveError::BoardFull)?;
    Ok(Placement::new(tile, square))
}

/// `tile` on a legal square chosen uniformly at random.
pub fn random_move<R: Rng + ?Sized>(
    board: &Board,
    tile: Tile,
    rng: &mut R,
) -> Result<Placement, MoveError> {
    let squares = board.legal_squares(tile);
    if squares.is_empty() {
        return Err(MoveError::BoardFull);
    }
    let square = squares
        .nth(rng.random_range(0..squares.len()))
        .ok_or(MoveError::BoardFull)?;
    Ok(Placement::new(tile, square))
}

/// A random legal action for the player whose turn it is: when there is a choice between
/// placing and drawing (or keeping), each is taken with probability 1/2; a placement goes on a
/// uniformly random legal square. `None` when the game is over.
pub fn random_action<R: Rng + ?Sized>(game: &Game, rng: &mut R) -> Option<Action> {
    let place = |rng: &mut R| {
        let tile = game.tile_to_place()?;
        random_move(game.board(), tile, rng)
            .ok()
            .map(|p| Action::Place(p.square))
    };
    match game.phase() {
        Phase::Over => None,
        Phase::Start if game.tile_to_place().is_none() => Some(Action::Draw),
        Phase::Start if game.can_draw() && rng.random_bool(0.5) => Some(Action::Draw),
        Phase::Drawn if game.can_keep() && rng.random_bool(0.5) => Some(Action::Keep),
        Phase::Start | Phase::Drawn | Phase::MustPlace => place(rng),
    }
}

/// Plays [`random_action`]s until the game is over.
///
/// ```
/// use metro::{play_random, Config, Game, PlayerCount};
/// use rand::SeedableRng;
/// let mut game = Game::new(Config::new(PlayerCount::new(4).unwrap()), 1);
/// play_random(&mut game, &mut rand_chacha::ChaCha8Rng::seed_from_u64(2));
/// assert!(game.is_over() && game.board().is_full());
/// ```
pub fn play_random<R: Rng + ?Sized>(game: &mut Game, rng: &mut R) {
    while let Some(action) = random_action(game, rng) {
        if game.apply(action).is_err() {
            // Random actions are drawn from the legal ones; stop rather than loop if not.
            debug_assert!(false, "random action {action} refused");
            return;
        }
    }
}
