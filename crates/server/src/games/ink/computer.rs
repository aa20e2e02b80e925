//! Railroad Ink's computer seats: a hint for the rest of a seat's round, a computer's round
//! (thought over off the async threads), and the computer's own game on a challenge's dice.

use super::*;
use crate::game::Strength;
use crate::play::Session;
use crate::state::AppState;

/// The computer's suggestion for the rest of the seat's round.
pub async fn hint(app: &AppState, id: &str, token: &str) -> Result<Vec<Placement>, ApiError> {
    let session = Session::<InkState>::load(app, id).await?;
    let (game, seat) = {
        let st = session.lock().await;
        let seat = st.table.seat_of(token)?;
        st.check_started()?;
        if st.table.challenge.is_some() {
            return Err(ApiError::Conflict(
                "there are no hints in a challenge: every player plays the same dice on their own"
                    .into(),
            ));
        }
        if st.rules.game.is_finished() {
            return Err(ApiError::Conflict(
                "the game is over: there is nothing left to hint".into(),
            ));
        }
        (st.rules.game.clone(), seat)
    };
    let _turn = app.thinking_for_a_person().await?;
    tokio::task::spawn_blocking(move || ai::hint(&game, seat))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(ApiError::from)
}

/// The computer player `level`'s round for `seat`: its placements, as far as the rules take
/// them, then the first legal place of each die that still fits, then the end of the round (a
/// computer never stalls a game). The strong player searches at its interactive budget: a
/// person is waiting. Its seed follows from the game's dice and the round, so that a game
/// replays the same.
pub(super) fn choose(ink: &Ink, seat: usize, level: &str, _: u64) -> Vec<Action> {
    let mut game = ink.game.clone();
    let placements = round_of(&game, seat, level).unwrap_or_default();
    let mut done = Vec::new();
    for placement in placements {
        let action = Action::Place { placement };
        match game.act(seat, action) {
            Ok(()) => done.push(action),
            Err(e) => {
                tracing::error!(%level, %placement, error = %e, "the computer player broke a rule");
                break;
            }
        }
    }
    while game.can_end_round(seat).is_err() {
        let Some(board) = game.player(seat).ok().map(|p| *p.board()) else {
            break;
        };
        let fallback = (game.dice_left(seat).unwrap_or_default().into_iter())
            .find_map(|tile| first_legal(&board, tile));
        let Some(placement) = fallback else { break };
        let action = Action::Place { placement };
        if game.act(seat, action).is_err() {
            break;
        }
        done.push(action);
    }
    done.push(Action::EndRound);
    done
}

/// What `level` places for `seat` in the rest of this round (none for a player unknown).
fn round_of(game: &Game, seat: usize, level: &str) -> Option<Vec<Placement>> {
    let view = RoundView::of(game, seat)?;
    let seed = match game.setup().dice {
        Dice::Seed(seed) => seed,
        Dice::Fixed(_) => 0,
    };
    let seed = seed.rotate_left(17) ^ (game.round() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let budget = Some(ai::strong::StrongAgent::interactive_budget(
        game.expansion(),
    ));
    let Some(mut agent) = ai::agent_with_budget(level, seed, budget) else {
        tracing::warn!(%level, "unknown computer player; playing the first legal places");
        return None;
    };
    Some(agent.play_round(&view))
}

/// The computer's own game in a Railroad Ink challenge: the strongest player on the
/// challenge's dice, in its expansion, searching with the budget `strength` gives.
pub(super) fn challenge_game(
    options: &InkOptions,
    seed: u64,
    strength: Strength,
) -> Result<Vec<(usize, Action)>, ApiError> {
    let expansion = options.expansion;
    let budget = match strength {
        Strength::Full(budget) => budget,
        Strength::Interactive => Some(ai::strong::StrongAgent::interactive_budget(expansion)),
    };
    let name = default_level(&ai::AGENTS);
    let mut agent = ai::agent_with_budget(name, seed, budget)
        .ok_or_else(|| ApiError::Internal(format!("no computer player {name}")))?;
    let dice = Dice::Seed(seed);
    let played = ai::play_game_with(agent.as_mut(), expansion, dice.rolls_in(expansion))?;
    Ok(played.actions().to_vec())
}
