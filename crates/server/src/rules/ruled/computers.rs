//! The computers' own game of a challenge: the strongest computer in every seat, played to its
//! end at a strength.

use super::{Ruled, computer};
use crate::error::ApiError;
use crate::game::{GameState, Strength, Table, default_level};
use crate::rules::Rules;
use crate::table::Seating;
use store::ActionRow;

/// The most actions a computers' game may take before it counts as one that never ends.
const MOST_ACTIONS: usize = 100_000;

impl<R: Rules> Ruled<R> {
    /// The table of a challenge's computers: the strongest computer in every seat.
    pub(super) fn computers_table() -> Result<Table, ApiError> {
        let level = default_level(computer::<R>()?.levels);
        let mut seating = Seating::default();
        seating.computer(level);
        for _ in 1..R::CAPABILITIES.challenge_seats {
            seating.numbered_computer(level);
        }
        Ok(Table::new(seating.seats().to_vec()))
    }

    /// The computers' own game on `seed` at a challenge's table, in `options`, played to its
    /// end at `strength`: as the game plays it whole, or turn by turn.
    pub(super) fn computers_game(
        options: R::Options,
        seed: u64,
        strength: Strength,
    ) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
        let computer = computer::<R>()?;
        let whole = match computer.challenge_game {
            Some(play) => Some(play(&options, seed, strength)?),
            None => None,
        };
        let mut game =
            Ruled::new(options, Self::computers_table()?, seed).map_err(ApiError::Internal)?;
        let mut rows = Vec::new();
        if let Some(actions) = whole {
            for (seat, action) in actions {
                let (next, row) = game.acted(seat, &action)?;
                game = next;
                rows.push(row);
            }
            return Ok((game, rows));
        }
        while let Some(thought) = game.computer_thought() {
            if rows.len() > MOST_ACTIONS {
                return Err(ApiError::Internal(format!(
                    "a game of {} never ends",
                    R::NAME
                )));
            }
            let decision = Self::think(&thought);
            let (next, done) = game.turn(thought.1, &decision)?;
            game = next;
            rows.extend(done);
        }
        Ok((game, rows))
    }
}
