//! Property tests of the expansions: flooding does not depend on the order of placements, a
//! board scores the same after a replay, generated moves and the computer players' rounds are
//! legal, and the new tiles' rotations and text round-trip.

use proptest::prelude::*;
use railroad_ink::ai::{RoundView, agent_with_budget};
use railroad_ink::{
    Board, Expansion, Orientation, Placement, Roll, Sequence, Square, Tile, check_move,
    generate_move,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn expansion() -> impl Strategy<Value = Expansion> {
    prop_oneof![Just(Expansion::Lake), Just(Expansion::River)]
}

fn expansion_tile() -> impl Strategy<Value = Tile> {
    (15usize..25).prop_map(|i| Tile::EVERY[i])
}

fn orientation() -> impl Strategy<Value = Orientation> {
    (0u8..8).prop_map(|d| Orientation::new(d).unwrap())
}

/// A random legal board of an expansion game: random tiles of the game (expansion tiles
/// often), each at a random legal place.
fn random_board(expansion: Expansion, seed: u64, steps: usize) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::with_expansion(expansion);
    let own = expansion.die_tiles();
    for _ in 0..steps {
        if board.len() == 39 {
            break;
        }
        let tile = if rng.random_range(0..2) == 0 {
            own[rng.random_range(0..own.len())]
        } else {
            Tile::ALL[rng.random_range(0..9)]
        };
        let options = board.legal_placements(tile);
        if options.is_empty() {
            continue;
        }
        board
            .place(options[rng.random_range(0..options.len())])
            .unwrap();
    }
    board
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn new_tiles_rotate_and_round_trip(t in expansion_tile(), a in orientation(), b in orientation(),
                                       row in 0u8..7, col in 0u8..7) {
        prop_assert_eq!(t.edges(a.then(b)), b.apply(t.edges(a)));
        let r = Orientation::ROTATE;
        let e = t.edges(a);
        prop_assert_eq!(r.apply(r.apply(r.apply(r.apply(e)))), e);
        prop_assert_eq!(t.edges(t.canonical(a)), e);
        let p = Placement::new(t, Square::new(row, col).unwrap(), a);
        prop_assert_eq!(p.to_string().parse::<Placement>().unwrap(), p);
    }

    #[test]
    fn flooding_does_not_depend_on_the_order(seed in any::<u64>(), shuffle in any::<u64>()) {
        let board = random_board(Expansion::Lake, seed, 30);
        let mut placements: Vec<Placement> = board.placements().collect();
        let mut rng = ChaCha8Rng::seed_from_u64(shuffle);
        // Another order of the same placements: legal orders reach the same floods.
        for i in (1..placements.len()).rev() {
            placements.swap(i, rng.random_range(0..=i));
        }
        // Lake tiles first, then the rest in the shuffled order: every route tile keeps its
        // connection only if its neighbours come first, so take only orders that are legal.
        if let Ok(other) = Board::from_placements_in(&placements, Expansion::Lake) {
            prop_assert_eq!(other.flooded(), board.flooded());
            prop_assert_eq!(other.occupied(), board.occupied());
            prop_assert_eq!(other.score(), board.score());
        }
        // Lake tiles alone, in reverse order: always legal among themselves? Not always (a
        // later tile may face an earlier route), so again only the legal orders count.
        let lakes: Vec<Placement> = board.placements().filter(|p| p.tile.is_expansion()).collect();
        let reversed: Vec<Placement> = lakes.iter().rev().copied().collect();
        if let (Ok(a), Ok(b)) = (
            Board::from_placements_in(&lakes, Expansion::Lake),
            Board::from_placements_in(&reversed, Expansion::Lake),
        ) {
            prop_assert_eq!(a.flooded(), b.flooded());
        }
    }

    #[test]
    fn a_board_scores_the_same_after_a_replay(e in expansion(), seed in any::<u64>()) {
        let board = random_board(e, seed, 45);
        let text = board.to_string();
        let again = if text.is_empty() {
            Board::with_expansion(e)
        } else {
            Sequence::parse_in(&text, e).and_then(|s| {
                Board::from_sequence(&s).map_err(|_| unreachable!())
            }).unwrap()
        };
        prop_assert_eq!(again, board);
        prop_assert_eq!(again.score(), board.score());
        prop_assert_eq!(again.breakdown(), board.breakdown());
        prop_assert_eq!(again.position_key(), board.position_key());
    }

    #[test]
    fn every_generated_move_is_legal(e in expansion(), seed in any::<u64>(), steps in 0usize..30) {
        let board = random_board(e, seed, steps);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 1);
        let roll = Roll::random_in(&mut rng, e);
        let m = generate_move(&board, &roll);
        prop_assert_eq!(check_move(&board, &roll, &m), Ok(()));
    }

    #[test]
    fn route_tiles_are_the_kept_tiles_placed_again(e in expansion(), seed in any::<u64>(), steps in 0usize..40) {
        let board = random_board(e, seed, steps);
        let mut again = Board::with_expansion(e);
        for p in board.placements() {
            if !p.tile.is_expansion() || p.edges().iter().any(|edge| edge.route().is_some()) {
                again.place(p).unwrap();
            }
        }
        prop_assert_eq!(board.route_tiles(), again);
    }

    #[test]
    fn legal_squares_agree_with_check(e in expansion(), seed in any::<u64>(), steps in 0usize..30) {
        let board = random_board(e, seed, steps);
        for &tile in Tile::ALL.iter().chain(e.die_tiles()) {
            for o in Orientation::ALL {
                let mask = board.legal_squares(tile, o);
                for sq in Square::all() {
                    let p = Placement::new(tile, sq, o);
                    prop_assert_eq!(mask & sq.bit() != 0, board.check(p).is_ok(), "{}", p);
                }
            }
        }
    }
}

#[test]
fn computer_players_play_legal_rounds() {
    for e in [Expansion::Lake, Expansion::River] {
        for seed in 0..6 {
            for name in ["random", "greedy", "strong"] {
                let mut agent = agent_with_budget(name, seed, Some(2)).unwrap();
                let game = railroad_ink::ai::play_game_in(agent.as_mut(), e, seed)
                    .unwrap_or_else(|err| panic!("{name} {e} seed {seed}: {err}"));
                assert!(game.is_finished());
                assert_eq!(game.rounds(), 6);
                let _ = RoundView::dice_left;
            }
        }
    }
}
