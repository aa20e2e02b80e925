//! Replays of finished games and the list of recent ones.
//!
//! A replay is built from the stored action log, never from a stored board: the game's
//! setup and actions are read from storage and played again through the engine one action
//! at a time, and each step records what that action changed (the acting seat's board, scored
//! with the engine's breakdown). When a game ends, its result is stored beside it (see
//! [`ink_finished`]), so the list of recent games reads one table and replays nothing.

use railroad_ink::score::Breakdown;
use railroad_ink::{Action, Game, Roll, Score, Setup};
use serde::{Deserialize, Serialize};

use crate::AppState;
use crate::error::ApiError;
use crate::ids;
use crate::seed::Seed;
use crate::storage::challenges::EntryScore;
use crate::storage::{Finished, GameKind, SeatKind, SeatRow, Storage, StoredGame};

/// A seat as a replay and the list of recent games show it.
#[derive(Debug, Clone, Serialize)]
pub struct ReplaySeat {
    pub seat: usize,
    pub name: String,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

fn seat_view(row: &SeatRow) -> ReplaySeat {
    ReplaySeat {
        seat: row.seat,
        name: row.name.clone(),
        kind: match row.kind {
            SeatKind::Human => "human",
            SeatKind::Computer => "computer",
        },
        agent: row.agent.clone(),
    }
}

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
    pub id: String,
    pub kind: &'static str,
    pub mode: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The dice seed, when the dice were seeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// The seven rolls, round by round.
    pub rolls: Vec<Roll>,
    pub players: Vec<InkReplaySeat>,
    /// Step `k` (1-based in the page: step 0 is the start) is `steps[k - 1]`.
    pub steps: Vec<InkStep>,
    /// The winning seats: highest score, then fewest errors.
    pub winners: Vec<usize>,
}

fn corrupt(id: &str, what: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!("game {id}: {what}"))
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
    pub actions: Vec<(usize, Action)>,
    pub start: Option<usize>,
}

/// A stored game's setup and actions, parsed (with the lobby's start, if any).
pub(crate) fn ink_log_full(stored: &StoredGame) -> Result<InkLog, ApiError> {
    let setup: Setup = serde_json::from_str(&stored.setup)
        .map_err(|e| corrupt(&stored.id, format!("setup: {e}")))?;
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
        actions,
        start,
    })
}

/// A stored game's setup and the engine's actions, parsed (the lobby's start left out).
pub(crate) fn ink_log(stored: &StoredGame) -> Result<(Setup, Vec<(usize, Action)>), ApiError> {
    let log = ink_log_full(stored)?;
    Ok((log.setup, log.actions))
}

/// Loads a stored game of a kind; not found if there is none (or it is of the other kind).
async fn load(app: &AppState, id: &str, kind: GameKind) -> Result<StoredGame, ApiError> {
    if !ids::is_game_id(id) {
        return Err(ApiError::game_not_found());
    }
    app.storage
        .load_game(id)
        .await?
        .filter(|g| g.kind == kind)
        .ok_or_else(ApiError::game_not_found)
}

fn not_over() -> ApiError {
    ApiError::Conflict("the game is not over yet: its replay opens when it ends".into())
}

/// The replay of a finished Railroad Ink game, from its stored actions. A challenge's game
/// is seen only by whom [`crate::challenges::may_see`] lets, and its seed only once the
/// challenge has closed.
pub async fn ink(app: &AppState, id: &str, token: Option<&str>) -> Result<InkReplay, ApiError> {
    let stored = load(app, id, GameKind::Ink).await?;
    let hide_seed = gate(app, &stored, token).await?;
    let mut replay = tokio::task::spawn_blocking(move || ink_replay(&stored))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    if hide_seed {
        replay.seed = None;
    }
    Ok(replay)
}

/// Whether the asker (the holder of `token`: a seat's or a player's) may see a stored game (an
/// error if not), and whether its seed stays hidden. A challenge's game is seen by its own seats
/// and as [`crate::challenges::may_see`] lets; its seed once the challenge has closed, or, a
/// friend challenge's, by whoever may see its games (they have played those dice).
async fn gate(app: &AppState, stored: &StoredGame, token: Option<&str>) -> Result<bool, ApiError> {
    let Some(c) = &stored.challenge else {
        return Ok(false);
    };
    let seats = stored
        .seats
        .iter()
        .map(|s| (s.token_hash.as_deref(), s.player.as_deref()));
    if crate::challenges::seat_of(app, seats, token)
        .await?
        .is_none()
    {
        crate::challenges::may_see(app, c, token).await?;
    }
    Ok(c.kind != "friend" && !crate::challenges::seed_public(c, app.clock.now_ms()))
}

/// Plays a stored Railroad Ink game again, action by action.
pub fn ink_replay(stored: &StoredGame) -> Result<InkReplay, ApiError> {
    let (setup, actions) = ink_log(stored)?;
    let mut game = Game::new(setup);
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
            seat: seat_view(row),
            from_step,
            score,
        })
        .collect::<Vec<_>>();
    if players.len() != game.players().len() {
        return Err(corrupt(&stored.id, "seats and players differ"));
    }
    Ok(InkReplay {
        id: stored.id.clone(),
        kind: "ink",
        mode: stored.mode.clone(),
        created: stored.created,
        seed: match game.setup().dice {
            railroad_ink::Dice::Seed(seed) => Some(Seed(seed)),
            railroad_ink::Dice::Fixed(_) => None,
        },
        rolls: game.rolls_so_far().to_vec(),
        players,
        steps,
        winners: game.winners(),
    })
}

// ---------------------------------------------------------------------------------------
// Metro.

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
    pub lines: Option<Vec<crate::metro::LineView>>,
    /// The tile each seat holds after the action.
    pub hands: Vec<Option<metro::Tile>>,
}

/// `GET /api/metro/games/{id}/replay`.
#[derive(Debug, Clone, Serialize)]
pub struct MetroReplay {
    pub id: String,
    pub kind: &'static str,
    pub mode: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The seed of the draws (hidden in a challenge's game until the challenge closes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    pub players: Vec<ReplaySeat>,
    /// Each player's final score, seat 0 first.
    pub scores: Vec<u32>,
    /// The highest score; equal scores share the win.
    pub winners: Vec<usize>,
    pub steps: Vec<MetroStep>,
}

/// Every line that has begun, for the page to draw in its owner's colour.
fn metro_lines(board: &metro::Board, score: &metro::Score) -> Vec<crate::metro::LineView> {
    score
        .lines
        .iter()
        .filter(|l| l.line.length > 0)
        .map(|l| crate::metro::LineView {
            station: l.line.station,
            owner: l.owner.map(metro::Player::index),
            squares: l.line.squares.clone(),
            entries: crate::metro::entries(board, &l.line),
            length: l.line.length,
            end: l.line.end,
            points: l.line.points,
        })
        .collect()
}

fn metro_winners(totals: &[u32]) -> Vec<usize> {
    let best = totals.iter().copied().max().unwrap_or(0);
    (0..totals.len()).filter(|&i| totals[i] == best).collect()
}

/// The replay of a finished Metro game, from its stored actions.
pub async fn metro(app: &AppState, id: &str, token: Option<&str>) -> Result<MetroReplay, ApiError> {
    let stored = load(app, id, GameKind::Metro).await?;
    let hide_seed = gate(app, &stored, token).await?;
    let mut replay = tokio::task::spawn_blocking(move || metro_replay(&stored))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??;
    if hide_seed {
        replay.seed = None;
    }
    Ok(replay)
}

/// A stored Metro game's actions played again through the engine; the game as it ends.
fn metro_game(
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
            lines: score.as_ref().map(|s| metro_lines(game.board(), s)),
            scores: score.map(|s| s.totals),
            hands: game.players().players().map(|p| game.hand(p)).collect(),
        });
    })?;
    if !game.is_over() {
        return Err(not_over());
    }
    let scores = game.scores();
    Ok(MetroReplay {
        id: stored.id.clone(),
        kind: "metro",
        mode: stored.mode.clone(),
        created: stored.created,
        seed: Some(Seed(game.seed())),
        players: stored.seats.iter().map(seat_view).collect(),
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
    let result = GameResult {
        players: totals
            .iter()
            .enumerate()
            .map(|(seat, &score)| ResultPlayer {
                seat,
                name: names
                    .get(seat)
                    .map_or_else(|| format!("Player {}", seat + 1), |n| (*n).to_owned()),
                score: i64::from(score),
                errors: None,
            })
            .collect(),
        winners: metro_winners(&totals),
    };
    let entries = (0..totals.len())
        .map(|seat| {
            let score = i64::from(totals[seat]);
            let best_other = (0..totals.len())
                .filter(|&o| o != seat)
                .map(|o| i64::from(totals[o]))
                .max()
                .unwrap_or(0);
            EntryScore {
                seat,
                score,
                k2: score - best_other,
            }
        })
        .collect();
    Some(Finished {
        at,
        result: serde_json::to_string(&result).ok()?,
        entries,
    })
}

// ---------------------------------------------------------------------------------------
// Results, stored when a game ends.

/// A player's line in a stored result.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ResultPlayer {
    pub seat: usize,
    pub name: String,
    pub score: i64,
    /// Railroad Ink: the errors (the tie break).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errors: Option<i64>,
}

/// A finished game's result, as stored and as the list of recent games sends it.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct GameResult {
    pub players: Vec<ResultPlayer>,
    pub winners: Vec<usize>,
}

/// How a finished Railroad Ink game ended at `at`, to store with its last actions. `names[i]`
/// is seat `i`'s name. Each seat's challenge tie break is its errors (fewer is better).
pub fn ink_finished(game: &Game, names: &[&str], at: i64) -> Option<Finished> {
    if !game.is_finished() {
        return None;
    }
    let result = GameResult {
        players: game
            .scores()
            .iter()
            .enumerate()
            .map(|(seat, s)| ResultPlayer {
                seat,
                name: names
                    .get(seat)
                    .map_or_else(|| format!("Player {}", seat + 1), |n| (*n).to_owned()),
                score: i64::from(s.advanced),
                errors: Some(i64::from(s.errors)),
            })
            .collect(),
        winners: game.winners(),
    };
    let entries = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| EntryScore {
            seat,
            score: i64::from(s.advanced),
            k2: -i64::from(s.errors),
        })
        .collect();
    Some(Finished {
        at,
        result: serde_json::to_string(&result).ok()?,
        entries,
    })
}

/// Records how games stored before results were kept ended, by replaying each: run once, in
/// the background, when the database is upgraded. A game still going is left as it is.
pub async fn backfill(storage: Storage) {
    let ids = match storage.unfinished_ids().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "cannot list games to backfill their results");
            return;
        }
    };
    let mut marked = 0;
    for id in ids {
        let Ok(Some(stored)) = storage.load_game(&id).await else {
            continue;
        };
        let finished = match stored.kind {
            GameKind::Ink => ink_log(&stored).ok().and_then(|(setup, actions)| {
                let game = Game::replay(setup, &actions).ok()?;
                let names: Vec<&str> = stored.seats.iter().map(|s| s.name.as_str()).collect();
                ink_finished(&game, &names, stored.created)
            }),
            GameKind::Metro => metro_game(&stored, |_, _, _| {}).ok().and_then(|game| {
                let names: Vec<&str> = stored.seats.iter().map(|s| s.name.as_str()).collect();
                metro_finished(&game, &names, stored.created)
            }),
        };
        if let Some(finished) = finished
            && storage.mark_finished(&id, finished).await.is_ok()
        {
            marked += 1;
        }
    }
    if marked > 0 {
        tracing::info!(games = marked, "results recorded for games finished before");
    }
}
