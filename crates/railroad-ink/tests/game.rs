//! The game rules of §1 and §6.4, enforced by `Game`.

mod common;

use railroad_ink::game::ROUNDS;
use railroad_ink::{Action, Dice, Game, GameError, Placement, Roll, Setup, Tile};

fn p(s: &str) -> Placement {
    s.parse().unwrap()
}

fn place(s: &str) -> Action {
    Action::Place { placement: p(s) }
}

fn rolls(first: &str) -> [Roll; ROUNDS] {
    let r: Roll = first.parse().unwrap();
    [r; ROUNDS]
}

fn solo(first: &str) -> Game {
    Game::new(Setup {
        players: 1,
        dice: Dice::Fixed(rolls(first)),
    })
}

#[test]
fn only_the_rounds_dice_and_each_once() {
    let mut g = solo("A4A4A1B0");
    assert_eq!(
        g.act(0, place("A5A10")),
        Err(GameError::NoSuchDie {
            tile: Tile::A5,
            roll: "A4A4A1B0".parse().unwrap()
        })
    );
    g.act(0, place("A4A10")).unwrap();
    g.act(0, place("A4B10")).unwrap(); // equal results are separate dice
    assert!(matches!(
        g.act(0, place("A4C10")),
        Err(GameError::NoSuchDie { .. })
    ));
    assert_eq!(g.dice_left(0).unwrap(), vec![Tile::A1, Tile::B0]);
}

#[test]
fn round_ends_only_when_every_die_is_placed_or_none_fits() {
    let mut g = solo("A4A4A1B0");
    g.act(0, place("A4A10")).unwrap();
    assert!(matches!(
        g.act(0, Action::EndRound),
        Err(GameError::DieStillFits { .. })
    ));
    g.act(0, place("A4B10")).unwrap();
    g.act(0, place("A1A30")).unwrap();
    g.act(0, place("B0G12")).unwrap();
    g.act(0, Action::EndRound).unwrap();
    assert_eq!(g.round(), 1);
    assert_eq!(
        g.player(0).unwrap().rounds(),
        vec![vec![p("A4A10"), p("A4B10"), p("A1A30"), p("B0G12")], vec![]]
    );
}

/// Plays the reference move for the seat's dice left, then ends the round.
fn finish_round(g: &mut Game) {
    let roll = g.roll().unwrap();
    let board = *g.player(0).unwrap().board();
    let used = g.player(0).unwrap().dice_used();
    let left: Vec<Tile> = (0..4)
        .filter(|i| used & (1 << i) == 0)
        .map(|i| roll.dice()[i])
        .collect();
    let mut board_now = board;
    for tile in left {
        if let Some(placement) = railroad_ink::movegen::first_legal(&board_now, tile) {
            g.act(0, Action::Place { placement }).unwrap();
            board_now.place(placement).unwrap();
        }
    }
    g.act(0, Action::EndRound).unwrap();
}

fn place_special(g: &mut Game, tile: Tile) -> Result<(), GameError> {
    let board = *g.player(0).unwrap().board();
    let placement =
        railroad_ink::movegen::first_legal(&board, tile).expect("the special fits somewhere");
    g.act(0, Action::Place { placement })
}

#[test]
fn one_special_a_round_each_once_three_a_game() {
    let mut g = solo("A4A4A4B0");
    g.act(0, place("S2D00")).unwrap();
    assert_eq!(
        place_special(&mut g, Tile::S3),
        Err(GameError::SpecialThisRound)
    );
    finish_round(&mut g);
    assert_eq!(
        place_special(&mut g, Tile::S2),
        Err(GameError::SpecialUsed { tile: Tile::S2 })
    );
    place_special(&mut g, Tile::S3).unwrap();
    finish_round(&mut g);
    place_special(&mut g, Tile::S0).unwrap();
    finish_round(&mut g);
    assert_eq!(g.player(0).unwrap().board().special_count(), 3);
    assert_eq!(
        place_special(&mut g, Tile::S1),
        Err(GameError::TooManySpecials)
    );
    assert!(
        g.placeable_tiles(0)
            .unwrap()
            .iter()
            .all(|t| !t.is_special())
    );
}

#[test]
fn a_special_may_come_last_and_the_end_check_follows_it() {
    let mut g = solo("A4A4A4B0");
    let roll = g.roll().unwrap();
    for placement in railroad_ink::generate_move(g.player(0).unwrap().board(), &roll) {
        g.act(0, Action::Place { placement }).unwrap();
    }
    place_special(&mut g, Tile::S2).unwrap();
    g.act(0, Action::EndRound).unwrap();
    assert_eq!(g.round(), 1);
}

#[test]
fn a_round_may_end_with_dice_left_when_none_fits() {
    // Random play ends a round as soon as nothing fits; some rounds end with dice left, and
    // the game accepted each of those ends (random_game fails otherwise).
    let short_rounds: usize = (0..100)
        .map(|seed| {
            let g = common::random_game(seed);
            g.player(0)
                .unwrap()
                .rounds()
                .iter()
                .filter(|r| r.iter().filter(|p| !p.tile.is_special()).count() < 4)
                .count()
        })
        .sum();
    assert!(short_rounds > 0, "some round left a die that fits nowhere");
}

#[test]
fn undo_within_the_round_only() {
    let mut g = solo("A4A4A1B0");
    assert_eq!(g.act(0, Action::Undo), Err(GameError::NothingToUndo));
    g.act(0, place("A4A10")).unwrap();
    g.act(0, place("S2B10")).unwrap();
    g.act(0, Action::Undo).unwrap();
    assert!(!g.player(0).unwrap().special_this_round());
    assert_eq!(g.player(0).unwrap().board().to_string(), "A4A10");
    g.act(0, Action::Undo).unwrap();
    assert_eq!(g.player(0).unwrap().board().to_string(), "");
    assert_eq!(g.dice_left(0).unwrap().len(), 4);
    for q in ["A4A10", "A4B10", "A1A30", "B0G12"] {
        g.act(0, place(q)).unwrap();
    }
    g.act(0, Action::EndRound).unwrap();
    assert_eq!(g.act(0, Action::Undo), Err(GameError::NothingToUndo));
}

#[test]
fn illegal_placements_name_the_rule() {
    let mut g = solo("A4A4A1B0");
    let err = g.act(0, place("A4A30")).unwrap_err();
    assert_eq!(err.rule(), "wrong exit type");
    assert!(err.to_string().contains("exit"));
    assert!(g.actions().is_empty(), "a refused action is not recorded");
}

#[test]
fn rounds_wait_for_every_player_and_rolls_are_shared() {
    let mut g = Game::new(Setup {
        players: 2,
        dice: Dice::Seed(9),
    });
    let first = g.roll().unwrap();
    assert_eq!(g.rolls_so_far(), &[first]);
    // Play seat 0's round with the reference move, then end it.
    let m = railroad_ink::generate_move(g.player(0).unwrap().board(), &first);
    for &placement in &m {
        g.act(0, Action::Place { placement }).unwrap();
    }
    g.act(0, Action::EndRound).unwrap();
    assert_eq!(g.round(), 0, "seat 1 has not finished");
    assert_eq!(g.act(0, place("A4A10")), Err(GameError::RoundEnded));
    for &placement in &m {
        g.act(1, Action::Place { placement }).unwrap();
    }
    g.act(1, Action::EndRound).unwrap();
    assert_eq!(g.round(), 1);
    assert_eq!(g.rolls_so_far().len(), 2);
    assert_eq!(g.scores()[0], g.scores()[1]);
    assert_eq!(g.winners(), vec![0, 1]);
    assert!(matches!(
        g.act(2, Action::EndRound),
        Err(GameError::NoSuchSeat { .. })
    ));
}

#[test]
fn the_seed_decides_the_rolls() {
    let a = Game::new(Setup {
        players: 1,
        dice: Dice::Seed(5),
    });
    let b = Game::new(Setup {
        players: 1,
        dice: Dice::Seed(5),
    });
    assert_eq!(a.roll(), b.roll());
    assert_eq!(Dice::Seed(5).rolls(), Dice::Seed(5).rolls());
    assert_ne!(Dice::Seed(5).rolls(), Dice::Seed(6).rolls());
}

#[test]
fn random_games_finish_within_the_limits() {
    for seed in 0..200 {
        let g = common::random_game(seed);
        let board = g.player(0).unwrap().board();
        assert!(board.len() <= 31);
        assert!(board.special_count() <= 3);
        for round in g.player(0).unwrap().rounds() {
            assert!(round.iter().filter(|p| p.tile.is_special()).count() <= 1);
            assert!(round.iter().filter(|p| !p.tile.is_special()).count() <= 4);
        }
        assert!(railroad_ink::is_valid(&board.to_string()));
        assert!(matches!(
            common::random_game(seed).clone().act(0, Action::EndRound),
            Err(GameError::Finished)
        ));
    }
}

#[test]
fn actions_serialize_for_storage() {
    let a = place("A4A10");
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(json, r#"{"action":"place","placement":"A4A10"}"#);
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    assert_eq!(
        serde_json::to_string(&Action::EndRound).unwrap(),
        r#"{"action":"end-round"}"#
    );
}

#[test]
fn players_may_join_and_replay_keeps_them() {
    let mut g = Game::new(Setup {
        players: 1,
        dice: Dice::Seed(3),
    });
    let roll = g.roll().unwrap();
    for placement in railroad_ink::generate_move(g.player(0).unwrap().board(), &roll) {
        g.act(0, Action::Place { placement }).unwrap();
    }
    g.act(0, Action::EndRound).unwrap();
    assert_eq!(g.round(), 1);
    assert_eq!(
        g.act(3, Action::Join),
        Err(GameError::WrongJoinSeat { next: 1 })
    );
    assert_eq!(
        g.act(0, Action::Join),
        Err(GameError::WrongJoinSeat { next: 1 })
    );
    g.act(1, Action::Join).unwrap();
    assert_eq!(g.players().len(), 2);
    assert_eq!(g.player(1).unwrap().rounds(), vec![vec![], vec![]]);
    // Round 1 now waits for the new player too.
    for seat in [0, 1] {
        let roll = g.roll().unwrap();
        for placement in railroad_ink::generate_move(g.player(seat).unwrap().board(), &roll) {
            g.act(seat, Action::Place { placement }).unwrap();
        }
        g.act(seat, Action::EndRound).unwrap();
    }
    assert_eq!(g.round(), 2);
    let replayed = Game::replay(g.setup(), g.actions()).unwrap();
    assert_eq!(replayed, g);
}
