//! A game of [`Rules`] at the runtime's table: the [`GameState`] that the server serves for it.
//! The runtime keeps the seats (made by the shared [`crate::lobby`]), the action log (each
//! action as JSON) and its replay, challenge and practice games, and the computer seats.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{Computer, Rules};
use crate::error::ApiError;
use crate::game::{
    ChallengeKind, ChallengeStart, ComputerGame, GameInfo, GameState, Seat, Seated, Strength,
    Table, TieBreakRule, ViewHeader, default_level, to_json,
};
use crate::lobby::{self, JoinRequest, Lobby, PlannedSeat, SeatRequest};
use crate::play::Session;
use crate::replay::{ReplayHeader, ReplaySeat, SeatResult, not_over};
use crate::seed::Seed;
use crate::state::AppState;
use crate::table::Seating;
use store::{ActionRow, Finished, SeatKind, StoredGame};

/// The most actions a computers' game may take before it counts as one that never ends.
const MOST_ACTIONS: usize = 100_000;

/// `POST /api/{kind}/games` for a game of rules: its seats (as every game with a lobby asks
/// for them), the seed when the creator chooses it, and the game's options.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest<O> {
    pub players: Vec<SeatRequest>,
    pub seed: Option<Seed>,
    #[serde(default)]
    pub options: O,
}

/// What a game of rules is made with, as stored.
#[derive(Debug, Serialize, Deserialize)]
struct Setup<O> {
    #[serde(default)]
    options: O,
    seed: u64,
    seats: Vec<PlannedSeat>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    chosen: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    practice: Option<String>,
}

/// A game of rules `R` in memory: the rules' state, its setup, the table, and how many actions
/// its log holds (the log itself is storage's: the state is its replay).
#[derive(Debug, Clone)]
pub struct Ruled<R: Rules> {
    pub rules: R,
    options: Arc<R::Options>,
    seed: u64,
    pub table: Table,
    actions: usize,
}

/// `GET /api/{kind}/games/{id}`: the header every game's view has, the seats that may act,
/// and what the rules show.
#[derive(Debug, Serialize)]
pub struct RuledView<V> {
    #[serde(flatten)]
    pub header: ViewHeader,
    pub to_act: Vec<usize>,
    #[serde(flatten)]
    pub game: V,
}

/// `GET /api/{kind}/games/{id}/replay`: a finished game, step by step (see
/// [`super::Replay`]).
#[derive(Debug, Serialize)]
pub struct RuledReplay {
    #[serde(flatten)]
    pub header: ReplayHeader,
    pub players: Vec<ReplaySeat>,
    /// The seats with the best score; equal scores share the win.
    pub winners: Vec<usize>,
    pub steps: Vec<Value>,
    /// What the game adds at the end (each seat's result, unless it says).
    #[serde(flatten)]
    pub end: Value,
}

fn lobby<R: Rules>() -> Lobby {
    Lobby {
        game: R::NAME,
        seats: R::SEATS,
        levels: R::CAPABILITIES.levels(),
        computers_alone: "a game of computers alone is not played",
    }
}

/// A challenge's setup refused: a game of rules is played as its options are (its
/// challenges declare none).
fn no_setup<R: Rules>(setup: Option<&str>) -> Result<(), ApiError> {
    match setup {
        None => Ok(()),
        Some(setup) => Err(ApiError::Internal(format!(
            "{} has no setup {setup}",
            R::NAME
        ))),
    }
}

/// The mode stored with a game of rules that is no challenge's.
pub const SEATS_MODE: &str = "seats";

fn computer<R: Rules>() -> Result<&'static Computer<R>, ApiError> {
    const { &R::CAPABILITIES.computer }
        .as_ref()
        .ok_or_else(|| ApiError::Conflict(format!("no computer plays {}", R::NAME)))
}

impl<R: Rules> Ruled<R> {
    fn new(options: R::Options, table: Table, seed: u64) -> Result<Ruled<R>, String> {
        let rules = R::setup(&options, table.seats.len(), seed)?;
        Ok(Ruled {
            rules,
            options: Arc::new(options),
            seed,
            table,
            actions: 0,
        })
    }

    fn setup(&self) -> Result<String, ApiError> {
        to_json(&Setup {
            options: &*self.options,
            seed: self.seed,
            seats: lobby::plan(&self.table.seats),
            chosen: self.table.seed_chosen,
            practice: self.table.practice.clone(),
        })
    }

    /// The game after `seat`'s action.
    fn after(&self, seat: usize, action: &R::Action) -> Result<Ruled<R>, ApiError> {
        Ok(Ruled {
            rules: self.rules.act(seat, action)?,
            options: Arc::clone(&self.options),
            seed: self.seed,
            table: self.table.clone(),
            actions: self.actions + 1,
        })
    }

    /// The game after `seat`'s action, and the action as stored.
    fn acted(&self, seat: usize, action: R::Action) -> Result<(Ruled<R>, ActionRow), ApiError> {
        let next = self.after(seat, &action)?;
        let row = ActionRow {
            seat,
            action: to_json(&action)?,
        };
        Ok((next, row))
    }

    /// A stored game played again from its setup, `each` told of every action (the game
    /// before it, the game after, the seat).
    fn replayed(stored: StoredGame, mut each: impl FnMut(&R, &R, usize)) -> Result<Self, ApiError> {
        let id = stored.id.clone();
        let corrupt = |what: String| crate::replay::corrupt(&id, what);
        let setup: Setup<R::Options> =
            serde_json::from_str(&stored.setup).map_err(|e| corrupt(format!("setup: {e}")))?;
        let mut table = lobby::table_of(setup.seats, stored.seats).map_err(corrupt)?;
        table.challenge = stored.challenge;
        table.seed_chosen = setup.chosen;
        table.practice = setup.practice;
        let mut game = Ruled::new(setup.options, table, setup.seed).map_err(corrupt)?;
        for (i, row) in stored.actions.iter().enumerate() {
            let action = serde_json::from_str(&row.action)
                .map_err(|e| corrupt(format!("action {i}: {e}")))?;
            let next = (game.after(row.seat, &action))
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
            each(&game.rules, &next.rules, row.seat);
            game = next;
        }
        Ok(game)
    }

    /// The winning seats: the best score (a tie shares the win; the tie break orders a
    /// leaderboard, not a game).
    fn winners(results: &[SeatResult]) -> Vec<usize> {
        let best = results.iter().map(|r| r.score).max();
        (0..results.len())
            .filter(|&i| Some(results[i].score) == best)
            .collect()
    }

    /// A game of computers alone on `seed` at a challenge's table, played to its end.
    fn computers_game(seed: u64) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
        let level = default_level(computer::<R>()?.levels);
        let mut seating = Seating::default();
        seating.computer(level);
        for _ in 1..R::CAPABILITIES.challenge_seats {
            seating.numbered_computer(level);
        }
        let table = Table::new(seating.seats().to_vec());
        let mut game =
            Ruled::new(R::Options::default(), table, seed).map_err(ApiError::Internal)?;
        let mut rows = Vec::new();
        while let Some(thought) = game.computer_thought() {
            if rows.len() > MOST_ACTIONS {
                return Err(ApiError::Internal(format!(
                    "a game of {} never ends",
                    R::NAME
                )));
            }
            let decision = Self::think(&thought);
            let (next, row) = game.acted(thought.1, decision)?;
            game = next;
            rows.push(row);
        }
        Ok((game, rows))
    }
}

impl<R: Rules> GameState for Ruled<R> {
    const KIND: &'static str = R::KIND;
    const NAME: &'static str = R::NAME;
    const TIE_BREAK: TieBreakRule = R::CAPABILITIES.tie_break;
    const CHALLENGES: &'static [ChallengeKind] = R::CAPABILITIES.challenges;
    type View = RuledView<R::View>;
    /// The rules' state, the seat, its level and a seed.
    type Thought = (R, usize, String, u64);
    type Decision = R::Action;
    type Create = CreateRequest<R::Options>;
    type Join = JoinRequest;
    type Action = R::Action;
    type Replay = RuledReplay;

    async fn create(
        app: &AppState,
        request: Self::Create,
        player: Option<String>,
    ) -> Result<Seated, ApiError> {
        let seating = lobby::<R>().seating(request.players, player)?;
        let made = seating.made(request.seed)?;
        let state =
            Ruled::new(request.options, made.table, made.seed).map_err(ApiError::BadRequest)?;
        let id = Session::<Self>::start(app, state.mode(), state.setup()?, state, None).await?;
        tracing::info!(game = %id, kind = R::KIND, "game created");
        Seated::new(id, made.tokens)
    }

    /// Takes an open seat (the one asked for, or the first) for an invited person.
    fn join(
        &self,
        request: &JoinRequest,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(Self, Vec<ActionRow>, usize), ApiError> {
        if self.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let (table, seat) = lobby::join(&self.table, request, token_hash, player)?;
        Ok((
            Ruled {
                table,
                ..self.clone()
            },
            Vec::new(),
            seat,
        ))
    }

    fn act(&self, seat: usize, action: R::Action) -> Result<(Self, Vec<ActionRow>), ApiError> {
        let (next, row) = self.acted(seat, action)?;
        Ok((next, vec![row]))
    }

    fn replay(stored: &StoredGame) -> Result<RuledReplay, ApiError> {
        let replay = const { &R::CAPABILITIES.replay };
        let mut steps = Vec::with_capacity(stored.actions.len());
        let game = Self::replayed(stored.clone(), |before, after, seat| {
            if let Some(r) = replay {
                steps.push((r.step)(before, after, seat));
            }
        })?;
        if replay.is_none() {
            // Each action as sent (every one read back as JSON by the replay above).
            steps = (stored.actions.iter())
                .map(|a| {
                    let action: Value = serde_json::from_str(&a.action).unwrap_or(Value::Null);
                    json!({ "seat": a.seat, "action": action })
                })
                .collect();
        }
        let results = game.rules.results().ok_or_else(not_over)?;
        let end = match replay {
            Some(r) => (r.end)(&game.rules),
            None => json!({ "results": crate::replay::game_result(
                &game.table.names(), &results, Vec::new(), Self::TIE_BREAK).players }),
        };
        Ok(RuledReplay {
            header: ReplayHeader::of(stored, R::KIND, Some(game.seed)),
            players: stored.seats.iter().map(ReplaySeat::from).collect(),
            winners: Self::winners(&results),
            steps,
            end,
        })
    }

    fn hide_seed(replay: &mut RuledReplay) {
        replay.header.seed = None;
    }

    fn review(stored: &StoredGame, seat: usize) -> Result<Value, ApiError> {
        let review = (R::CAPABILITIES.review)
            .ok_or_else(|| ApiError::NotFound(format!("a game of {} has no review", R::KIND)))?;
        let game = Self::from_stored(stored.clone())?;
        if !game.is_over() {
            return Err(crate::review::not_over());
        }
        if seat >= game.table.seats.len() {
            return Err(ApiError::NotFound(format!("there is no seat {seat}")));
        }
        review(&game.rules, &game.table.names(), seat)
    }

    fn from_stored(stored: StoredGame) -> Result<Self, ApiError> {
        Self::replayed(stored, |_, _, _| {})
    }

    /// Every change counts: an action, or an invited person's seat taken.
    fn version(&self) -> usize {
        let taken = (self.table.seats.iter())
            .filter(|s| s.invited && !s.is_open())
            .count();
        self.actions + taken
    }

    fn actions(&self) -> usize {
        self.actions
    }

    fn table(&self) -> &Table {
        &self.table
    }

    /// `challenge` or `practice` for a challenge's game, `seats` for any other.
    fn mode(&self) -> &'static str {
        self.table.mode(SEATS_MODE)
    }

    fn is_over(&self) -> bool {
        self.rules.results().is_some()
    }

    fn finished(&self, now: i64) -> Option<Finished> {
        let results = self.rules.results()?;
        let winners = Self::winners(&results);
        crate::replay::finished(&self.table.names(), &results, winners, now, Self::TIE_BREAK)
    }

    fn view(&self, info: &GameInfo<'_>, seat: Option<usize>) -> Self::View {
        let winners = self
            .rules
            .results()
            .map_or_else(Vec::new, |r| Self::winners(&r));
        RuledView {
            header: ViewHeader::of(self, info, seat, winners, Some(self.seed)),
            to_act: self.rules.to_act(),
            game: self.rules.view(&self.table, seat),
        }
    }

    fn computer_thought(&self) -> Option<Self::Thought> {
        let computer = const { &R::CAPABILITIES.computer }.as_ref()?;
        let seat = (self.rules.to_act().into_iter()).find(|&s| {
            self.table
                .seats
                .get(s)
                .is_some_and(|s| s.kind == SeatKind::Computer)
        })?;
        let level = (self.table.seats[seat].agent.clone())
            .unwrap_or_else(|| default_level(computer.levels).to_owned());
        let seed = self.seed ^ (self.actions as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some((self.rules.clone(), seat, level, seed))
    }

    fn think((rules, seat, level, seed): &Self::Thought) -> R::Action {
        match const { &R::CAPABILITIES.computer } {
            Some(c) => (c.choose)(rules, *seat, level, *seed),
            // A thought is only had with a computer player.
            None => unreachable!("no computer plays {}", R::NAME),
        }
    }

    fn computer_moves(
        &self,
        game: &str,
        thought: &Self::Thought,
        decision: R::Action,
    ) -> Result<(Self, Vec<ActionRow>), ApiError> {
        let (next, row) = self.acted(thought.1, decision).inspect_err(|e| {
            tracing::error!(game, seat = thought.1, error = %e, "the computer's action is refused");
        })?;
        Ok((next, vec![row]))
    }

    /// The same seats in the same order (see [`lobby::rematch_seats`]); a challenge's or
    /// practice game is an ordinary game the second time.
    fn rematch_request(&self, seat: usize) -> Result<Self::Create, ApiError> {
        Ok(CreateRequest {
            players: lobby::rematch_seats(&self.table, seat),
            seed: None,
            options: (*self.options).clone(),
        })
    }

    fn share_grid(&self, seat: usize) -> Vec<String> {
        R::CAPABILITIES
            .share_grid
            .map_or_else(Vec::new, |grid| grid(&self.rules, seat))
    }

    /// The person in seat 0, first to play, against the strongest computer in every other seat
    /// of a challenge's table, on the challenge's draws.
    async fn start_challenge_game(
        app: &AppState,
        start: ChallengeStart<'_>,
    ) -> Result<String, ApiError> {
        no_setup::<R>(start.setup)?;
        let level = default_level(computer::<R>()?.levels);
        let mut table = Table::of_challenge(&start);
        for i in 1..R::CAPABILITIES.challenge_seats {
            table.seats.push(Seat::numbered_computer(i, level));
        }
        let state = Ruled::new(R::Options::default(), table, start.challenge.seed)
            .map_err(ApiError::Internal)?;
        Session::<Self>::start(app, state.mode(), state.setup()?, state, start.entry).await
    }

    /// The computer's own game: the strongest computer in every seat of a challenge's table.
    fn computer_challenge_game(
        seed: u64,
        variant: Option<&str>,
        _strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError> {
        no_setup::<R>(variant)?;
        let (game, actions) = Self::computers_game(seed)?;
        let finished = (game.finished(at))
            .ok_or_else(|| ApiError::Internal("the computer's game did not end".into()))?;
        Ok(ComputerGame {
            setup: game.setup()?,
            seats: game.table.taken_rows(),
            actions,
            finished,
        })
    }

    fn computer_name() -> String {
        crate::table::computer_name(default_level(R::CAPABILITIES.levels()))
    }
}
