//! Random play for tests: games with random legal choices, driven by a seeded generator.

#![allow(dead_code)]

use railroad_ink::game::ROUNDS;
use railroad_ink::{Action, Board, Dice, Game, Placement, Setup, Tile};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a whole solo game with random legal choices: each step places a random legal
/// placement of a random placeable tile (specials sometimes), occasionally undoes, and ends
/// the round when no die fits. Returns the game, whose actions replay it.
pub fn random_game(seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Setup {
        players: 1,
        dice: Dice::Seed(seed),
    });
    while !game.is_finished() {
        let board = *game.player(0).unwrap().board();
        let mut options: Vec<Placement> = Vec::new();
        for tile in game.placeable_tiles(0).unwrap() {
            if tile.is_special() && !rng.random_bool(0.15) {
                continue;
            }
            options.extend(board.legal_placements(tile));
        }
        if rng.random_bool(0.05) && game.act(0, Action::Undo).is_ok() {
            continue;
        }
        if options.is_empty() || game.can_end_round(0).is_ok() && rng.random_bool(0.1) {
            game.act(0, Action::EndRound).expect("the round may end");
            continue;
        }
        let placement = options[rng.random_range(0..options.len())];
        game.act(0, Action::Place { placement })
            .expect("a legal placement of a placeable tile");
    }
    assert_eq!(game.round(), ROUNDS);
    game
}

/// The final board of a random game.
pub fn random_board(seed: u64) -> Board {
    *random_game(seed).player(0).unwrap().board()
}

/// The board after the first `n` placements of a random game.
pub fn random_prefix(seed: u64, n: usize) -> Board {
    let full: Vec<Placement> = random_board(seed).placements().collect();
    Board::from_placements(&full[..n.min(full.len())]).expect("a prefix of a valid board is valid")
}

/// Every tile a die can show.
pub fn die_tiles() -> impl Iterator<Item = Tile> {
    Tile::ALL.into_iter().filter(|t| !t.is_special())
}
