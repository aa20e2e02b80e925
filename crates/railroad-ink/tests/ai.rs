//! Every game a computer player plays is legal: the game's round rules accept every action
//! (play_game goes through `Game`), the board string is a valid sequence, and each round
//! meets the whole move contract of §8 (the round's dice, one special at most, legal,
//! canonical, maximal).

use railroad_ink::ai::{AGENTS, agent_with_budget, play_game};
use railroad_ink::{Board, Dice, check_move, is_valid};

fn check_games(name: &str, seeds: std::ops::Range<u64>, budget: Option<u32>) {
    for seed in seeds {
        let rolls = Dice::Seed(seed).rolls();
        let mut agent = agent_with_budget(name, seed, budget).unwrap();
        let game =
            play_game(agent.as_mut(), rolls).unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
        let player = game.player(0).unwrap();
        let text = player.board().to_string();
        assert!(is_valid(&text), "{name}, seed {seed}: {text}");
        let mut board = Board::new();
        for (round, placements) in player.rounds().iter().enumerate() {
            assert_eq!(
                check_move(&board, &rolls[round], placements),
                Ok(()),
                "{name}, seed {seed}, round {round}"
            );
            for &p in placements {
                board.place(p).unwrap();
            }
        }
        assert_eq!(&board, player.board());
    }
}

#[test]
fn random_games_are_legal() {
    check_games("random", 0..200, None);
}

#[test]
fn greedy_games_are_legal() {
    check_games("greedy", 0..60, None);
}

#[test]
fn strong_games_are_legal() {
    // A small budget keeps this quick in debug builds; the rules checked do not depend on it.
    check_games("strong", 0..6, Some(2));
}

#[test]
fn every_listed_agent_exists() {
    for name in AGENTS {
        assert!(agent_with_budget(name, 0, None).is_some(), "{name}");
    }
    assert!(agent_with_budget("nobody", 0, None).is_none());
}

#[test]
fn games_are_reproducible_from_dice_and_seed() {
    for name in AGENTS {
        let rolls = Dice::Seed(99).rolls();
        let a = play_game(agent_with_budget(name, 5, Some(2)).unwrap().as_mut(), rolls).unwrap();
        let b = play_game(agent_with_budget(name, 5, Some(2)).unwrap().as_mut(), rolls).unwrap();
        assert_eq!(a, b, "{name}");
    }
}
