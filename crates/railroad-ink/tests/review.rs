//! The review of a finished game (`ai::review`): its shape, legal best rounds with the round's
//! dice only, the same review each time, the strong player's own games losing little, and a
//! deliberately poor round standing out.
//!
//! The 100-game check at the default review budget takes minutes on a small machine:
//! `cargo test --release -p railroad-ink --test review -- --ignored`.

use railroad_ink::ai::review::{Label, Review, estimate, review};
use railroad_ink::ai::strong::StrongAgent;
use railroad_ink::ai::{Agent, GreedyAgent, RandomAgent, RoundView, play_game};
use railroad_ink::game::ROUNDS;
use railroad_ink::{Board, Dice, Placement, Roll, check_move};

fn rounds(game: &railroad_ink::Game) -> Vec<Vec<Placement>> {
    game.player(0).unwrap().rounds()
}

fn view<'a>(board: &'a Board, rolls: &'a [Roll; ROUNDS], round: usize) -> RoundView<'a> {
    RoundView {
        board,
        roll: rolls[round],
        used: 0,
        special_placed: false,
        round,
        rolls: &rolls[..=round],
    }
}

fn check_best_rounds(rolls: &[Roll; ROUNDS], played: &[Vec<Placement>], review: &Review) {
    let mut board = Board::new();
    for (r, placed) in review.rounds.iter().zip(played) {
        assert_eq!(&r.played, placed);
        check_move(&board, &rolls[r.round - 1], &r.best)
            .unwrap_or_else(|e| panic!("round {}: {e}", r.round));
        for &p in placed {
            board.place(p).unwrap();
        }
    }
}

#[test]
fn a_greedy_game_reviewed_has_legal_best_rounds_and_loses_points() {
    for seed in 0..3 {
        let rolls = Dice::Seed(seed).rolls();
        let played = rounds(&play_game(&mut GreedyAgent::default(), rolls).unwrap());
        let review = review(&rolls, &played, Some(16)).unwrap();
        assert_eq!(review.rounds.len(), ROUNDS);
        check_best_rounds(&rolls, &played, &review);
        assert!(
            review.loss > 5.0,
            "seed {seed}: greedy lost only {}",
            review.loss
        );
        assert_eq!(review, self::review(&rolls, &played, Some(16)).unwrap());
    }
}

/// The mean loss a round of the strong player's own games (played at `play`, reviewed at
/// `budget`), over `games` games from dice seed 1000 on.
fn strong_loss(games: u64, play: u32, budget: Option<u32>) -> f32 {
    let mut total = 0.0;
    for seed in 1000..1000 + games {
        let rolls = Dice::Seed(seed).rolls();
        let played = rounds(&play_game(&mut StrongAgent::with_budget(Some(play)), rolls).unwrap());
        let review = review(&rolls, &played, budget).unwrap();
        check_best_rounds(&rolls, &played, &review);
        total += review.loss;
    }
    total / (games as f32 * ROUNDS as f32)
}

#[test]
fn the_strong_players_own_games_lose_little() {
    let loss = strong_loss(4, 24, Some(16));
    assert!(loss <= 0.3, "{loss} points a round");
}

#[test]
#[ignore = "minutes: 100 games of the strong player at 64, each reviewed at the default budget"]
fn the_strong_players_own_games_lose_little_over_100_games() {
    let loss = strong_loss(100, StrongAgent::INTERACTIVE_BUDGET, None);
    println!("{loss:.3} points lost a round");
    assert!(loss <= 0.3, "{loss} points a round");
}

/// A round placed as badly as a random player can: the worst by the estimate of 30 random
/// rounds.
fn poor_round(board: &Board, rolls: &[Roll; ROUNDS], round: usize) -> Vec<Placement> {
    let search = StrongAgent::default().search;
    (0..30)
        .map(|seed| {
            let placed = RandomAgent::new(seed).play_round(&view(board, rolls, round));
            let mut after = *board;
            for &p in &placed {
                after.place(p).unwrap();
            }
            (estimate(&search, &after, round), placed)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, placed)| placed)
        .unwrap()
}

#[test]
fn a_deliberately_poor_round_is_the_largest_loss() {
    for (seed, bad) in [(21, 2), (22, 4)] {
        let rolls = Dice::Seed(seed).rolls();
        let mut agent = StrongAgent::with_budget(Some(16));
        let mut board = Board::new();
        let mut played = Vec::new();
        for round in 0..ROUNDS {
            let placed = if round == bad {
                poor_round(&board, &rolls, round)
            } else {
                agent.play_round(&view(&board, &rolls, round))
            };
            for &p in &placed {
                board.place(p).unwrap();
            }
            played.push(placed);
        }
        let review = review(&rolls, &played, Some(16)).unwrap();
        check_best_rounds(&rolls, &played, &review);
        let worst = review
            .rounds
            .iter()
            .max_by(|a, b| a.loss.total_cmp(&b.loss))
            .unwrap();
        assert_eq!(worst.round, bad + 1, "seed {seed}: {review:?}");
        assert!(
            matches!(worst.label, Label::Mistake | Label::Blunder),
            "seed {seed}: {worst:?}"
        );
    }
}
