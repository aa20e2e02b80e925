//! A Railroad Ink game's log read back: its setup and the engine's actions (with an online
//! game's lobby start), its replay action by action, and how it ended.

use railroad_ink::score::Breakdown;
use railroad_ink::{Action, Expansion, Game, Roll, Score, Setup, Square};
use serde::{Deserialize, Serialize};

use super::is_base;
use crate::error::ApiError;
use crate::replay::{ReplayHeader, ReplaySeat, SeatResult, corrupt, not_over};
use store::{Finished, StoredGame};

/// One action of a Railroad Ink game, and what it changed.
#[derive(Debug, Clone, Serialize)]
pub struct InkStep {
    /// The seat that acted.
    pub seat: usize,
    pub action: Action,
    /// The round after the action (0–6; 7 once the game is over).
    pub round: usize,
    /// The acting seat's board string after the action, when it changed (place, undo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// That board scored, with its whole breakdown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breakdown: Option<Breakdown>,
    /// That board's flooded squares (rule E3.3), when it changed and has some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flooded: Option<Vec<Square>>,
}

/// A seat of a Railroad Ink replay: who, and from which step on (a player who joined an
/// online game mid-way starts at that step, on an empty board).
#[derive(Debug, Clone, Serialize)]
pub struct InkReplaySeat {
    #[serde(flatten)]
    pub seat: ReplaySeat,
    /// The step from which the seat is in the game (0 for the seats it started with).
    pub from_step: usize,
    /// The final score.
    pub score: Score,
}

/// `GET /api/ink/games/{id}/replay`.
#[derive(Debug, Clone, Serialize)]
pub struct InkReplay {
    /// Its seed: the dice's, when the dice were seeded.
    #[serde(flatten)]
    pub header: ReplayHeader,
    /// The Deep Blue expansion (`lake` or `river`); absent in a base game.
    #[serde(skip_serializing_if = "is_base")]
    pub expansion: Expansion,
    /// The rolls, round by round (seven, or six with an expansion).
    pub rolls: Vec<Roll>,
    pub players: Vec<InkReplaySeat>,
    /// Step `k` (1-based in the page: step 0 is the start) is `steps[k - 1]`.
    pub steps: Vec<InkStep>,
    /// The winning seats: highest score, then fewest errors.
    pub winners: Vec<usize>,
}

/// What a Railroad Ink game's log holds besides the engine's actions: the start of an online
/// game's lobby (stored as `{"action":"start"}` by its creator's seat).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub(crate) enum LobbyAction {
    Start,
}

/// A stored Railroad Ink game's log, parsed: the setup, the engine's actions, and where the
/// lobby's start came among them (the number of engine actions before it), if it is there.
pub(crate) struct InkLog {
    pub setup: Setup,
    /// The expansion stored with the setup (none for a base game and every game stored
    /// before expansions were played).
    pub expansion: Expansion,
    pub actions: Vec<(usize, Action)>,
    pub start: Option<usize>,
}

/// A stored game's setup and actions, parsed (with the lobby's start, if any).
pub(crate) fn ink_log_full(stored: &StoredGame) -> Result<InkLog, ApiError> {
    let setup: Setup = serde_json::from_str(&stored.setup)
        .map_err(|e| corrupt(&stored.id, format!("setup: {e}")))?;
    let ExpansionField { expansion } = serde_json::from_str(&stored.setup)
        .map_err(|e| corrupt(&stored.id, format!("setup's expansion: {e}")))?;
    let mut actions = Vec::with_capacity(stored.actions.len());
    let mut start = None;
    for row in &stored.actions {
        match serde_json::from_str::<Action>(&row.action) {
            Ok(a) => actions.push((row.seat, a)),
            Err(e) => match serde_json::from_str::<LobbyAction>(&row.action) {
                Ok(LobbyAction::Start) if start.is_none() => start = Some(actions.len()),
                Ok(LobbyAction::Start) => return Err(corrupt(&stored.id, "started twice")),
                Err(_) => return Err(corrupt(&stored.id, format!("action: {e}"))),
            },
        }
    }
    Ok(InkLog {
        setup,
        expansion,
        actions,
        start,
    })
}

/// The expansion a stored setup names, if any.
#[derive(Deserialize)]
struct ExpansionField {
    #[serde(default)]
    expansion: Expansion,
}

/// Plays a stored Railroad Ink game again, action by action.
pub fn ink_replay(stored: &StoredGame) -> Result<InkReplay, ApiError> {
    let InkLog {
        setup,
        expansion,
        actions,
        ..
    } = ink_log_full(stored)?;
    let mut game = Game::with_expansion(setup, expansion);
    let mut from_step = vec![0; game.players().len()];
    let mut steps = Vec::with_capacity(actions.len());
    for (i, &(seat, action)) in actions.iter().enumerate() {
        game.act(seat, action)
            .map_err(|e| corrupt(&stored.id, format!("action {i} does not replay: {e}")))?;
        let changed = matches!(action, Action::Place { .. } | Action::Undo);
        if action == Action::Join {
            from_step.push(i + 1);
        }
        let board = game
            .player(seat)
            .map_err(|e| corrupt(&stored.id, e))?
            .board();
        steps.push(InkStep {
            seat,
            action,
            round: game.round(),
            board: changed.then(|| board.to_string()),
            breakdown: changed.then(|| board.breakdown()),
            flooded: changed
                .then(|| super::flooded(board))
                .filter(|f| !f.is_empty()),
        });
    }
    if !game.is_finished() {
        return Err(not_over());
    }
    let scores = game.scores();
    let players = stored
        .seats
        .iter()
        .zip(scores)
        .zip(from_step)
        .map(|((row, score), from_step)| InkReplaySeat {
            seat: ReplaySeat::from(row),
            from_step,
            score,
        })
        .collect::<Vec<_>>();
    if players.len() != game.players().len() {
        return Err(corrupt(&stored.id, "seats and players differ"));
    }
    Ok(InkReplay {
        header: ReplayHeader::of(stored, "ink", super::seed_of(&game)),
        expansion,
        rolls: game.rolls_so_far().to_vec(),
        players,
        steps,
        winners: game.winners(),
    })
}

/// How a finished Railroad Ink game ended at `at`, to store with its last actions. `names[i]`
/// is seat `i`'s name. Each seat's challenge tie break is its errors (fewer is better).
pub fn ink_finished(game: &Game, names: &[&str], at: i64) -> Option<Finished> {
    if !game.is_finished() {
        return None;
    }
    let results: Vec<SeatResult> = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| SeatResult {
            seat,
            score: i64::from(s.advanced),
            k2: -i64::from(s.errors),
        })
        .collect();
    crate::replay::finished(names, &results, game.winners(), at, super::TIE_BREAK)
}
