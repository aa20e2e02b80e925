//! Railroad Ink's computer seats: a hint for the rest of a seat's round, and a computer's round
//! thought over off the async threads.

use super::*;

/// The computer's suggestion for the rest of the seat's round.
pub async fn hint(app: &AppState, id: &str, token: &str) -> Result<Vec<Placement>, ApiError> {
    let session = InkSession::load(app, id).await?;
    let (game, seat) = {
        let st = session.lock().await;
        let seat = st.seat_of(token)?;
        st.check_started()?;
        if st.mode == Mode::Challenge {
            return Err(ApiError::Conflict(
                "there are no hints in a challenge: every player plays the same dice on their own"
                    .into(),
            ));
        }
        if st.game.is_finished() {
            return Err(ApiError::Conflict(
                "the game is over: there is nothing left to hint".into(),
            ));
        }
        (st.game.clone(), seat)
    };
    let _turn = app.thinking_for_a_person().await?;
    tokio::task::spawn_blocking(move || ai::hint(&game, seat))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(ApiError::from)
}

/// A computer seat's round to play.
pub struct ComputerTurn {
    seat: usize,
    agent: String,
    seed: u64,
    board: railroad_ink::Board,
    roll: Roll,
    used: u8,
    special_placed: bool,
    round: usize,
    rolls: Vec<Roll>,
}

impl ComputerTurn {
    pub(super) fn next(st: &InkState) -> Option<ComputerTurn> {
        let game = &st.game;
        let roll = game.roll()?;
        let seed = match game.setup().dice {
            Dice::Seed(seed) => seed,
            Dice::Fixed(_) => 0,
        };
        st.table.seats.iter().enumerate().find_map(|(seat, s)| {
            let p = game.players().get(seat)?;
            (s.kind == SeatKind::Computer && !p.round_done()).then(|| ComputerTurn {
                seat,
                agent: s
                    .agent
                    .clone()
                    .unwrap_or_else(|| default_level(&ai::AGENTS).to_owned()),
                seed: seed.rotate_left(17)
                    ^ (game.round() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                board: *p.board(),
                roll,
                used: p.dice_used(),
                special_placed: p.special_this_round(),
                round: game.round(),
                rolls: game.rolls_so_far().to_vec(),
            })
        })
    }

    /// The agent's placements for the rest of the round (CPU work: run off the async runtime).
    /// The strong player searches at its interactive budget: a person is waiting.
    pub(super) fn play(&self) -> Vec<Placement> {
        let budget = Some(ai::strong::StrongAgent::interactive_budget(
            self.board.expansion(),
        ));
        let Some(mut agent) = ai::agent_with_budget(&self.agent, self.seed, budget) else {
            tracing::warn!(agent = %self.agent, "unknown computer player; playing the first legal places");
            return Vec::new();
        };
        agent.play_round(&RoundView {
            board: &self.board,
            roll: self.roll,
            used: self.used,
            special_placed: self.special_placed,
            round: self.round,
            rolls: &self.rolls,
        })
    }
}

/// The state after a computer seat's round: its agent's placements, as far as the rules take
/// them, then the first legal place of each die that still fits, then the end of the round.
pub(super) fn computer_round(
    st: &InkState,
    id: &str,
    turn: &ComputerTurn,
    placements: Vec<Placement>,
) -> Result<(InkState, Vec<ActionRow>), ApiError> {
    let mut next = st.clone();
    let game = &mut next.game;
    let mut done = Vec::new();
    for placement in placements {
        let action = Action::Place { placement };
        match game.act(turn.seat, action) {
            Ok(()) => done.push(action),
            Err(e) => {
                tracing::error!(game = %id, agent = %turn.agent, %placement, error = %e, "the computer player broke a rule");
                break;
            }
        }
    }
    while game.can_end_round(turn.seat).is_err() {
        let board = *game.player(turn.seat)?.board();
        let fallback = game
            .dice_left(turn.seat)?
            .into_iter()
            .find_map(|tile| first_legal(&board, tile));
        let Some(placement) = fallback else { break };
        let action = Action::Place { placement };
        game.act(turn.seat, action)?;
        done.push(action);
    }
    game.act(turn.seat, Action::EndRound)?;
    done.push(Action::EndRound);
    let actions = done
        .into_iter()
        .map(|a| action_row(turn.seat, a))
        .collect::<Result<_, _>>()?;
    Ok((next, actions))
}
