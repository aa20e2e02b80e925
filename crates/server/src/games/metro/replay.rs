//! A Metro game's log read back: its replay action by action, and how it ended.

use serde::Serialize;

use super::viewer::begun;
use crate::error::ApiError;
use crate::replay::{ReplayHeader, ReplaySeat, SeatResult, corrupt, not_over};
use store::{Finished, StoredGame};

/// What a stored Metro game was created with (the fields a replay needs).
#[derive(Debug, serde::Deserialize)]
struct MetroSetup {
    config: metro::Config,
    seed: u64,
}

/// One action of a Metro game, and what it changed.
#[derive(Debug, Clone, Serialize)]
pub struct MetroStep {
    /// The seat that acted.
    pub seat: usize,
    /// What happened, as the engine tells it: `drew` (with the `tile`), `kept`, `placed`
    /// (with the `placement`), `passed`; the game's last placement also ends it.
    pub events: Vec<metro::Event>,
    /// After a placement: every player's score, and the lines that have begun (as in the
    /// viewer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<super::LineView>>,
    /// The tile each seat holds after the action.
    pub hands: Vec<Option<metro::Tile>>,
}

/// `GET /api/metro/games/{id}/replay`.
#[derive(Debug, Clone, Serialize)]
pub struct MetroReplay {
    #[serde(flatten)]
    pub header: ReplayHeader,
    pub players: Vec<ReplaySeat>,
    /// Each player's final score, seat 0 first.
    pub scores: Vec<u32>,
    /// The highest score; equal scores share the win.
    pub winners: Vec<usize>,
    pub steps: Vec<MetroStep>,
}

fn metro_winners(totals: &[u32]) -> Vec<usize> {
    let best = totals.iter().copied().max().unwrap_or(0);
    (0..totals.len()).filter(|&i| totals[i] == best).collect()
}

/// A stored Metro game's actions played again through the engine; the game as it ends.
pub(super) fn metro_game(
    stored: &StoredGame,
    mut each: impl FnMut(usize, &metro::Game, &[metro::Event]),
) -> Result<metro::Game, ApiError> {
    let setup: MetroSetup = serde_json::from_str(&stored.setup)
        .map_err(|e| corrupt(&stored.id, format!("setup: {e}")))?;
    let mut game = metro::Game::new(setup.config, setup.seed);
    for (i, row) in stored.actions.iter().enumerate() {
        let action: metro::Action = serde_json::from_str(&row.action)
            .map_err(|e| corrupt(&stored.id, format!("action {i}: {e}")))?;
        let player = metro::Player::from_index(row.seat)
            .ok_or_else(|| corrupt(&stored.id, format!("action {i}: no seat {}", row.seat)))?;
        let events = game
            .play(player, action)
            .map_err(|e| corrupt(&stored.id, format!("action {i} does not replay: {e}")))?
            .to_vec();
        each(row.seat, &game, &events);
    }
    Ok(game)
}

/// Plays a stored Metro game again, action by action.
pub fn metro_replay(stored: &StoredGame) -> Result<MetroReplay, ApiError> {
    let mut steps = Vec::with_capacity(stored.actions.len());
    let game = metro_game(stored, |seat, game, events| {
        let placed = events
            .iter()
            .any(|e| matches!(e, metro::Event::Placed { .. }));
        let score = placed.then(|| game.score());
        steps.push(MetroStep {
            seat,
            events: events.to_vec(),
            lines: score.as_ref().map(|s| begun(game.board(), s)),
            scores: score.map(|s| s.totals),
            hands: game.players().players().map(|p| game.hand(p)).collect(),
        });
    })?;
    if !game.is_over() {
        return Err(not_over());
    }
    let scores = game.scores();
    Ok(MetroReplay {
        header: ReplayHeader::of(stored, "metro", Some(game.seed())),
        players: stored.seats.iter().map(ReplaySeat::from).collect(),
        winners: metro_winners(&scores),
        scores,
        steps,
    })
}

/// How a finished Metro game ended at `at`, to store with its last action. `names[i]` is seat
/// `i`'s. Each seat's challenge tie break is its margin over the best other seat.
pub fn metro_finished(game: &metro::Game, names: &[&str], at: i64) -> Option<Finished> {
    if !game.is_over() {
        return None;
    }
    let totals = game.scores();
    let results: Vec<SeatResult> = (0..totals.len())
        .map(|seat| {
            let score = i64::from(totals[seat]);
            let best_other = (0..totals.len())
                .filter(|&o| o != seat)
                .map(|o| i64::from(totals[o]))
                .max()
                .unwrap_or(0);
            SeatResult {
                seat,
                score,
                k2: score - best_other,
            }
        })
        .collect();
    crate::replay::finished(
        names,
        &results,
        metro_winners(&totals),
        at,
        super::TIE_BREAK,
    )
}
