//! Training the n-tuple tables by temporal-difference learning: TD(λ) over the afterstates of
//! the strong player's self-play games, the player itself evaluating with the tables being
//! trained. Re-exported by [`super`], the tables' module.

use std::sync::Arc;

use super::{NTuple, value};
use crate::ai::eval::Model;
use crate::ai::strong::StrongAgent;
use crate::ai::{Agent, RoundView};
use crate::board::Board;
use crate::dice::Roll;
use crate::game::ROUNDS;

/// Settings of temporal-difference training.
#[derive(Debug, Clone, PartialEq)]
pub struct TdConfig {
    /// The strong player's budget in self-play (with the n-tuple evaluation).
    pub budget: u32,
    /// Step size: each update moves the board's value by `alpha` × its error.
    pub alpha: f32,
    /// TD(λ): 0 bootstraps on the next afterstate, 1 is the final score (Monte Carlo).
    pub lambda: f32,
    /// Games played with the same weights before their updates are applied (in game order).
    pub batch: usize,
    /// Threads playing a batch (the result does not depend on it).
    pub threads: usize,
}

impl Default for TdConfig {
    fn default() -> Self {
        TdConfig {
            budget: 8,
            alpha: 0.2,
            lambda: 0.5,
            batch: 16,
            threads: 2,
        }
    }
}

/// A strong player at `budget` evaluating with the linear model plus `ntuple`.
pub fn agent(ntuple: Option<Arc<NTuple>>, budget: u32) -> StrongAgent {
    let mut agent = StrongAgent::with_budget(Some(budget));
    agent.search.ntuple = ntuple;
    agent
}

/// One self-play game on `rolls`: the board after each round (7 boards, the last final).
pub fn self_play(agent: &mut StrongAgent, rolls: &[Roll; ROUNDS]) -> Vec<Board> {
    let mut board = Board::new();
    let mut boards = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        let view = RoundView {
            board: &board.clone(),
            roll: rolls[round],
            used: 0,
            special_placed: false,
            round,
            rolls: &rolls[..=round],
        };
        for p in agent.play_round(&view) {
            board.place(p).expect("the strong player places legally");
        }
        boards.push(board);
    }
    boards
}

/// TD(λ) on one game's afterstates (`boards[k]` after round `k`, the last final): each
/// afterstate's value moves towards its λ-return, bootstrapped on the next afterstates' values
/// (the final score at the end). Returns the summed squared error before the update.
pub fn td_update(nt: &mut NTuple, model: &Model, boards: &[Board], cfg: &TdConfig) -> f32 {
    let n = boards.len();
    let rounds_left = |k: usize| n - 1 - k;
    let values: Vec<f32> = (0..n)
        .map(|k| value(model, Some(nt), &boards[k], rounds_left(k)))
        .collect();
    let mut target = values[n - 1];
    let mut targets = vec![0.0; n];
    for k in (0..n - 1).rev() {
        targets[k] = target;
        target = (1.0 - cfg.lambda) * values[k] + cfg.lambda * target;
    }
    let mut sq = 0.0;
    for k in 0..n - 1 {
        let err = targets[k] - values[k];
        sq += err * err;
        nt.shift_value(&boards[k], rounds_left(k), cfg.alpha * err);
    }
    nt.games += 1;
    sq
}

/// Trains `nt` on the self-play games with dice seeds `seeds` (in order), a batch at a time.
/// Returns each game's final score. The result depends on the seeds and the configuration,
/// never on the number of threads.
pub fn train(nt: &mut Arc<NTuple>, seeds: &[u64], cfg: &TdConfig) -> Vec<i32> {
    let model = Model::default();
    let mut scores = Vec::with_capacity(seeds.len());
    for batch in seeds.chunks(cfg.batch.max(1)) {
        let frozen = Arc::clone(nt);
        let threads = cfg.threads.clamp(1, batch.len());
        let games: Vec<Vec<Board>> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    let frozen = Arc::clone(&frozen);
                    s.spawn(move || {
                        let mut agent = agent(Some(frozen), cfg.budget);
                        batch
                            .iter()
                            .enumerate()
                            .skip(t)
                            .step_by(threads)
                            .map(|(i, &seed)| {
                                (i, self_play(&mut agent, &crate::Dice::Seed(seed).rolls()))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            let mut all: Vec<(usize, Vec<Board>)> = workers
                .into_iter()
                .flat_map(|w| w.join().expect("a self-play thread"))
                .collect();
            all.sort_by_key(|g| g.0);
            all.into_iter().map(|g| g.1).collect()
        });
        drop(frozen);
        let weights = Arc::make_mut(nt);
        for boards in &games {
            td_update(weights, &model, boards, cfg);
            scores.push(boards[ROUNDS - 1].score().advanced);
        }
    }
    scores
}

/// Mean final score of the strong player at `budget` with `ntuple` over the games with dice
/// seeds `seeds`, on `threads` threads.
pub fn mean_score(ntuple: Option<Arc<NTuple>>, budget: u32, seeds: &[u64], threads: usize) -> f64 {
    let threads = threads.clamp(1, seeds.len().max(1));
    let total: i64 = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let ntuple = ntuple.clone();
                s.spawn(move || {
                    let mut agent = agent(ntuple, budget);
                    seeds
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|&seed| {
                            let boards = self_play(&mut agent, &crate::Dice::Seed(seed).rolls());
                            boards[ROUNDS - 1].score().advanced as i64
                        })
                        .sum::<i64>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a thread"))
            .sum()
    });
    total as f64 / seeds.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Dice;

    #[test]
    fn training_is_reproducible_whatever_the_threads() {
        let cfg = TdConfig {
            budget: 2,
            batch: 2,
            threads: 1,
            ..TdConfig::default()
        };
        let seeds = [7, 8, 9];
        let mut a = Arc::new(NTuple::new());
        let scores_a = train(&mut a, &seeds, &cfg);
        let mut b = Arc::new(NTuple::new());
        let scores_b = train(
            &mut b,
            &seeds,
            &TdConfig {
                threads: 2,
                ..cfg.clone()
            },
        );
        assert_eq!(scores_a, scores_b);
        assert_eq!(a, b);
        assert_eq!(a.games, 3);
        assert!(a.nonzero() > 0);
    }

    #[test]
    fn the_ntuple_player_plays_legal_maximal_rounds() {
        let mut nt = NTuple::new();
        // Weights that are not zero, so that the tables do steer the search.
        for (i, w) in nt.weights.iter_mut().enumerate() {
            *w = ((i * 2_654_435_761) % 1000) as f32 / 1000.0 - 0.5;
        }
        let nt = Arc::new(nt);
        for seed in 0..2 {
            for budget in [4, 8] {
                let mut agent = agent(Some(Arc::clone(&nt)), budget);
                let game = crate::ai::play_game(&mut agent, Dice::Seed(seed).rolls())
                    .unwrap_or_else(|e| panic!("seed {seed} budget {budget}: {e}"));
                assert!(game.is_finished());
                let again = crate::ai::play_game(
                    &mut super::agent(Some(Arc::clone(&nt)), budget),
                    Dice::Seed(seed).rolls(),
                )
                .unwrap();
                assert_eq!(
                    game.player(0).unwrap().board().position_key(),
                    again.player(0).unwrap().board().position_key()
                );
            }
        }
    }
}
