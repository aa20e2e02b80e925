//! A game of [`Rules`] at the runtime's table: the [`GameState`] that the server serves for it.
//! The runtime keeps the seats (made by the shared [`crate::lobby`], or joined a seat each at a
//! table that grows until its creator starts the game), the action log (each action as JSON)
//! and its replay, challenge, practice and friend games, and the computer seats.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Computer, Rules};
use crate::error::ApiError;
use crate::game::{
    ChallengeKind, ChallengeStart, Changed, ComputerGame, FriendGame, GameInfo, GameState, Seat,
    Seated, Strength, Table, TieBreakRule, ViewHeader, default_level, to_json,
};
use crate::lobby::{self, JoinRequest, Lobby, PlannedSeat, SeatRequest};
use crate::play::Session;
use crate::replay::SeatResult;
use crate::seed::Seed;
use crate::state::AppState;
use crate::table::Joining;
use crate::turns::{ClockRequest, TimeControl};
use store::{ActionRow, Finished, SeatKind, StoredGame};

mod clocks;
mod computers;
mod played;
mod replays;
mod seats;

pub use clocks::ClockView;
pub use played::PlayedRequest;
pub use replays::RuledReplay;

/// `POST /api/{kind}/games` for a game of rules: its seats (as every game with a lobby asks
/// for them), the seed when the creator chooses it, the game's options, and whether people
/// join it a seat each until its creator starts it (`open`, in a game that has such tables).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest<O> {
    pub players: Vec<SeatRequest>,
    pub seed: Option<Seed>,
    #[serde(default)]
    pub options: O,
    #[serde(default)]
    pub open: bool,
    /// Whether the game changes its players' ratings (all of them players of the site).
    #[serde(default)]
    pub rated: bool,
    /// How long a seat has for each turn (none: all the time it likes).
    #[serde(default)]
    pub clock: Option<ClockRequest>,
}

/// A create request as sent: today's form, or (without `players`) a game's older one.
#[derive(Debug)]
pub struct Create<R: Rules>(CreateRequest<R::Options>);

impl<'de, R: Rules> Deserialize<'de> for Create<R> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Create<R>, D::Error> {
        use serde::de::Error;
        let value = Value::deserialize(d)?;
        match const { &R::CAPABILITIES.older } {
            Some(older) if value.get("players").is_none() => (older.create)(value),
            _ => serde_json::from_value(value).map_err(|e| e.to_string()),
        }
        .map(Create)
        .map_err(D::Error::custom)
    }
}

/// What a game of rules is made with, as stored: its options and seed, its seats as planned
/// (none where the seats are read from their rows: a table that grows), and how it is played.
#[derive(Debug, Serialize, Deserialize)]
pub struct Setup<O> {
    #[serde(default)]
    pub options: O,
    pub seed: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<Vec<PlannedSeat>>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chosen: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<String>,
    /// A table people join until its creator starts the game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
    /// A rated game (see [`crate::ratings`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// How long a seat has for each turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
}

/// The row that starts a game whose table grows (its creator's, logged among the actions).
const START: &str = r#"{"action":"start"}"#;
/// The row of a seat that resigned (or left): the computer plays it from then on.
const RESIGN: &str = r#"{"action":"resign"}"#;
/// The row of a seat whose time for its turn ran out: the computer plays that turn for it.
const TIMEOUT: &str = r#"{"action":"timeout"}"#;

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
    /// The seats whose people resigned (or left): the computer plays them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<usize>,
    /// A rated game (see [`crate::ratings`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The clock, in a game with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    #[serde(flatten)]
    pub game: V,
}

fn lobby<R: Rules>() -> Lobby {
    Lobby {
        game: R::NAME,
        seats: R::SEATS,
        levels: R::CAPABILITIES.levels(),
        computers_alone: "a game of computers alone is not played",
    }
}

/// The options of a challenge's setup, or of a friend challenge's variant: the game's variant
/// of that name (`None`: the game itself).
fn options_of<R: Rules>(variant: Option<&str>) -> Result<R::Options, ApiError> {
    match (variant, const { &R::CAPABILITIES.variants }) {
        (None, _) => Ok(R::Options::default()),
        (Some(v), Some(variants)) => (variants.options)(v)
            .map_err(|e| ApiError::Internal(format!("{} variant {v}: {e}", R::NAME))),
        (Some(v), None) => Err(ApiError::Internal(format!(
            "{} has no variant {v}",
            R::NAME
        ))),
    }
}

/// The mode stored with a game of rules that is no challenge's, unless the game says.
pub const SEATS_MODE: &str = "seats";

fn computer<R: Rules>() -> Result<&'static Computer<R>, ApiError> {
    const { &R::CAPABILITIES.computer }
        .as_ref()
        .ok_or_else(|| ApiError::Conflict(format!("no computer plays {}", R::NAME)))
}

/// The JSON of the action that seats one more at a table that grows, as the log keeps it.
fn join_row<R: Rules>() -> Option<String> {
    let join = const { &R::CAPABILITIES.join }.as_ref()?;
    serde_json::to_string(&join()).ok()
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
        let open = self.table.grows();
        to_json(&Setup {
            options: &*self.options,
            seed: self.seed,
            seats: (!open).then(|| lobby::plan(&self.table.seats)),
            chosen: self.table.seed_chosen,
            practice: self.table.practice.clone(),
            open,
            rated: self.table.rated,
            clock: self.table.clock,
        })
    }

    /// The game after `seat`'s action.
    fn after(&self, seat: usize, action: &R::Action) -> Result<Ruled<R>, ApiError> {
        let mut next = Ruled {
            rules: self.rules.act(seat, action)?,
            options: Arc::clone(&self.options),
            seed: self.seed,
            table: self.table.clone(),
            actions: self.actions + 1,
        };
        next.keep_turns(seat);
        Ok(next)
    }

    /// The game after `seat`'s action, and the action as stored.
    fn acted(&self, seat: usize, action: &R::Action) -> Result<(Ruled<R>, ActionRow), ApiError> {
        let next = self.after(seat, action)?;
        let row = ActionRow {
            seat,
            action: to_json(action)?,
        };
        Ok((next, row))
    }

    /// The game after `seat`'s turn (each action legal after the one before), and its rows.
    fn turn(
        &self,
        seat: usize,
        actions: &[R::Action],
    ) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
        let mut game = self.clone();
        let mut rows = Vec::with_capacity(actions.len());
        for action in actions {
            let (next, row) = game.acted(seat, action)?;
            game = next;
            rows.push(row);
        }
        Ok((game, rows))
    }

    /// The setup a stored game was made with, in today's form or (read by the game) an older.
    fn stored_setup(stored: &StoredGame) -> Result<Setup<R::Options>, String> {
        serde_json::from_str(&stored.setup).or_else(|e| match const { &R::CAPABILITIES.older } {
            Some(older) => (older.setup)(&stored.mode, &stored.setup),
            None => Err(e.to_string()),
        })
    }

    /// A stored game played again from its setup, `each` told of every action (the game
    /// before it, the game after, the seat, the action). At a table that grows, each join is
    /// the rules' own action and the start its creator's row; a game stored before tables had
    /// a start began with the first action that was no join.
    fn replayed(
        stored: StoredGame,
        mut each: impl FnMut(&R, &R, usize, &R::Action, bool),
    ) -> Result<Self, ApiError> {
        let id = stored.id.clone();
        let corrupt = |what: String| crate::replay::corrupt(&id, what);
        let setup = Self::stored_setup(&stored).map_err(|e| corrupt(format!("setup: {e}")))?;
        let join = join_row::<R>().filter(|_| setup.open);
        let joins = (stored.actions.iter())
            .filter(|r| Some(&r.action) == join.as_ref())
            .count();
        let mut table = match setup.seats {
            Some(planned) => lobby::table_of(planned, stored.seats).map_err(corrupt)?,
            None => Table::from_rows(stored.seats),
        };
        table.made_a_challenge = stored.challenge.is_some() && stored.mode != "challenge";
        table.challenge = stored.challenge;
        table.seed_chosen = setup.chosen;
        table.practice = setup.practice;
        table.joining = if setup.open {
            Joining::Open
        } else {
            Joining::Planned
        };
        table.rated = setup.rated;
        table.clock = setup.clock;
        // The seats it was made with: those that joined are seated by their actions.
        let seats = table
            .seats
            .split_off(table.seats.len().saturating_sub(joins));
        if table.seats.is_empty() {
            return Err(corrupt(format!("{joins} joins of no seat")));
        }
        let mut game = Ruled::new(setup.options, table, setup.seed).map_err(corrupt)?;
        game.table.seats.extend(seats);
        let mut started_by_row = false;
        for (i, row) in stored.actions.iter().enumerate() {
            if game.table.grows() && row.action == START {
                if started_by_row || row.seat != 0 {
                    return Err(corrupt(format!(
                        "action {i}: a second start, or not its creator's"
                    )));
                }
                started_by_row = true;
                game.table.joining = Joining::Started;
                game.actions += 1;
                continue;
            }
            if row.action == TIMEOUT {
                game.stand_in(row.seat)
                    .map_err(|e| corrupt(format!("action {i}: {e}")))?;
                continue;
            }
            if row.action == RESIGN {
                let seat = (game.table.seats.get_mut(row.seat))
                    .filter(|s| !s.resigned)
                    .ok_or_else(|| corrupt(format!("action {i}: a resign of no seat in play")))?;
                seat.resigned = true;
                game.actions += 1;
                continue;
            }
            let joined = Some(&row.action) == join.as_ref();
            if joined && started_by_row {
                return Err(corrupt(format!(
                    "action {i}: a player joined after the start"
                )));
            }
            if !joined && game.table.joining == Joining::Open {
                game.table.joining = Joining::Started;
            }
            let action = serde_json::from_str(&row.action)
                .map_err(|e| corrupt(format!("action {i}: {e}")))?;
            let next = (game.after(row.seat, &action))
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
            let seat = &game.table.seats[row.seat];
            let stood_in =
                seat.kind == SeatKind::Human && (seat.resigned || seat.clock.stand_in.is_some());
            each(&game.rules, &next.rules, row.seat, &action, stood_in);
            game = next;
        }
        game.put_deadlines(&stored.deadlines);
        Ok(game)
    }

    /// A rated game's places, when it changes ratings: between two or more players of the
    /// site, every seat a different one's, in no challenge and no practice.
    fn rated(&self, results: &[SeatResult]) -> Option<store::ratings::Rated> {
        let t = &self.table;
        if !t.rated || t.challenge.is_some() || t.practice.is_some() || t.seats.len() < 2 {
            return None;
        }
        let players: Vec<&str> = (t.seats.iter())
            .map(|s| s.player.as_deref().filter(|_| s.kind == SeatKind::Human))
            .collect::<Option<_>>()?;
        let distinct: std::collections::HashSet<&&str> = players.iter().collect();
        if distinct.len() != players.len() {
            return None;
        }
        let wins = R::CAPABILITIES.tie_break_wins;
        // A seat that resigned places last.
        let keys: Vec<(i64, i64)> = (results.iter().zip(&t.seats))
            .map(|(r, s)| match s.resigned {
                true => (i64::MIN, i64::MIN),
                false => (r.score, if wins { r.k2 } else { 0 }),
            })
            .collect();
        Some(store::ratings::Rated {
            game: R::KIND.to_owned(),
            places: players
                .iter()
                .map(|p| (*p).to_owned())
                .zip(crate::ratings::places(&keys))
                .collect(),
            rate: crate::ratings::GAME,
        })
    }

    /// The winning seats: the best score (equal scores share the win, unless the game's tie
    /// break decides its games too), among the seats nobody resigned (if any is left).
    fn winners(&self, results: &[SeatResult]) -> Vec<usize> {
        let seats = &self.table.seats;
        let resigned = |r: &SeatResult| seats.get(r.seat).is_some_and(|s| s.resigned);
        let all_resigned = results.iter().all(resigned);
        let key = |r: &SeatResult| match resigned(r) && !all_resigned {
            true => (i64::MIN, i64::MIN),
            false if R::CAPABILITIES.tie_break_wins => (r.score, r.k2),
            false => (r.score, 0),
        };
        let best = results.iter().map(key).max();
        (results.iter())
            .filter(|r| Some(key(r)) == best)
            .map(|r| r.seat)
            .collect()
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
    type Decision = Vec<R::Action>;
    type Create = Create<R>;
    type Join = JoinRequest;
    type Action = R::Action;
    type Replay = RuledReplay;
    type Played = PlayedRequest<R::Options, R::Action>;

    async fn played(
        app: &AppState,
        request: Self::Played,
        player: Option<String>,
    ) -> Result<Seated, ApiError> {
        Self::store_played(app, request, player).await
    }

    async fn create(
        app: &AppState,
        Create(request): Create<R>,
        player: Option<String>,
    ) -> Result<Seated, ApiError> {
        if request.open && R::CAPABILITIES.join.is_none() {
            return Err(ApiError::BadRequest(format!(
                "a game of {} has every seat chosen when it is made: invite people to seats instead",
                R::NAME
            )));
        }
        let clock = Self::time_control(request.clock.as_ref())?;
        let seating = lobby::<R>().seating(request.players, player)?;
        let mut made = seating.made(request.seed)?;
        if request.open {
            made.table.joining = Joining::Open;
        }
        made.table.rated = request.rated;
        made.table.clock = clock;
        let state =
            Ruled::new(request.options, made.table, made.seed).map_err(ApiError::BadRequest)?;
        let id = Session::<Self>::start(app, state.mode(), state.setup()?, state, None, Vec::new())
            .await?;
        tracing::info!(game = %id, kind = R::KIND, "game created");
        Seated::new(id, made.tokens)
    }

    fn pool_rules() -> Option<crate::turns::PoolRules> {
        let turns = const { &R::CAPABILITIES.turns }.as_ref()?;
        Some(crate::turns::PoolRules {
            seats: R::SEATS,
            live_seconds: turns.live_seconds,
            level: default_level(computer::<R>().ok()?.levels),
        })
    }

    /// A new game on secret draws, in the game's own options.
    async fn start_pool_game(
        app: &AppState,
        seats: Vec<Seat>,
        clock: TimeControl,
        rated: bool,
        pool: Vec<store::pool::PoolSeat>,
    ) -> Result<String, ApiError> {
        let mut table = Table::new(seats);
        table.rated = rated;
        table.clock = Some(clock);
        let seed = crate::ids::new_seed()?;
        let state = Ruled::new(R::Options::default(), table, seed).map_err(ApiError::BadRequest)?;
        Session::<Self>::start(app, state.mode(), state.setup()?, state, None, pool).await
    }

    /// Takes an open seat (the one asked for, or the first) for an invited person, or a new
    /// one at a table that grows.
    fn join(
        &self,
        request: &JoinRequest,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(Self, Vec<ActionRow>, usize), ApiError> {
        if self.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        match self.table.joining {
            Joining::Open => self.join_open(request, token_hash, player),
            Joining::Started => Err(ApiError::Conflict(
                "the game has started: nobody can join it any more, but anyone with the link can watch"
                    .into(),
            )),
            Joining::Planned => {
                let (table, seat) = lobby::join(&self.table, request, token_hash, player)?;
                let next = Ruled {
                    table,
                    ..self.clone()
                };
                Ok((next, Vec::new(), seat))
            }
        }
    }

    fn act(&self, seat: usize, action: R::Action) -> Result<(Self, Vec<ActionRow>), ApiError> {
        self.check_started()?;
        // A seat given over after its time ran out says so; one that resigned, that.
        self.check_not_stood_in(seat)?;
        if self.table.seats.get(seat).is_some_and(|s| s.resigned) {
            return Err(ApiError::Conflict(
                "you resigned: the computer plays your seat for the rest of the game".into(),
            ));
        }
        let (next, row) = self.acted(seat, &action)?;
        Ok((next, vec![row]))
    }

    fn replay(stored: &StoredGame) -> Result<RuledReplay, ApiError> {
        Self::replay_of(stored)
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
        Self::replayed(stored, |_, _, _, _, _| {})
    }

    /// Every change counts: an action (a join and a start too), or an invited person's seat
    /// taken.
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

    /// `challenge` or `practice` for a challenge's game, else as the game says (`seats`).
    fn mode(&self) -> &'static str {
        self.table.mode((R::CAPABILITIES.mode)(&self.table))
    }

    fn variant(&self) -> Option<&'static str> {
        const { &R::CAPABILITIES.variants }
            .as_ref()
            .and_then(|v| (v.of)(&self.options))
    }

    fn is_over(&self) -> bool {
        self.rules.results().is_some()
    }

    fn finished(&self, now: i64) -> Option<Finished> {
        let results = self.rules.results()?;
        let winners = self.winners(&results);
        let finished =
            crate::replay::finished(&self.table.names(), &results, winners, now, Self::TIE_BREAK)?;
        // A seat that resigned counts in no record: the computer played it.
        let resigned = |seat: usize| self.table.seats.get(seat).is_some_and(|s| s.resigned);
        let entries = (finished.entries.iter())
            .filter(|e| !resigned(e.seat))
            .copied()
            .collect();
        Some(Finished {
            rated: self.rated(&results).map(Box::new),
            entries,
            ..finished
        })
    }

    fn view(&self, info: &GameInfo<'_>, seat: Option<usize>) -> Self::View {
        let results = self.rules.results();
        let winners = (results.as_deref()).map_or_else(Vec::new, |r| self.winners(r));
        RuledView {
            header: ViewHeader::of(self, info, seat, winners, Some(self.seed)),
            to_act: GameState::to_act(self),
            resigned: (self.table.seats.iter().enumerate())
                .filter(|(_, s)| s.resigned)
                .map(|(i, _)| i)
                .collect(),
            rated: self.table.rated,
            clock: self.clock_view(info.now),
            game: self.rules.view(&self.table, seat),
        }
    }

    fn computer_thought(&self) -> Option<Self::Thought> {
        let computer = const { &R::CAPABILITIES.computer }.as_ref()?;
        let seat = (GameState::to_act(self).into_iter()).find(|&s| {
            self.table.seats.get(s).is_some_and(|s| {
                s.kind == SeatKind::Computer || s.resigned || s.clock.stand_in.is_some()
            })
        })?;
        let stood_in = &self.table.seats[seat];
        let level = (stood_in.agent.clone())
            .filter(|_| stood_in.kind == SeatKind::Computer)
            .unwrap_or_else(|| default_level(computer.levels).to_owned());
        let seed = self.seed ^ (self.actions as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some((self.rules.clone(), seat, level, seed))
    }

    fn think((rules, seat, level, seed): &Self::Thought) -> Vec<R::Action> {
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
        decision: Vec<R::Action>,
    ) -> Result<(Self, Vec<ActionRow>), ApiError> {
        self.turn(thought.1, &decision).inspect_err(|e| {
            tracing::error!(game, seat = thought.1, error = %e, "the computer's action is refused");
        })
    }

    /// The same seats in the same order (see [`lobby::rematch_seats`]), or at a table that
    /// grows the asker alone, the others joining again; a challenge's or practice game is an
    /// ordinary game the second time.
    fn rematch_request(&self, seat: usize) -> Result<Self::Create, ApiError> {
        let open = self.table.grows();
        let mut players = lobby::rematch_seats(&self.table, seat);
        if open {
            players = players.into_iter().skip(seat).take(1).collect();
        }
        Ok(Create(CreateRequest {
            players,
            seed: None,
            options: (*self.options).clone(),
            open,
            rated: self.table.rated,
            clock: self.table.clock.map(ClockRequest::Set),
        }))
    }

    fn share_grid(&self, seat: usize) -> Vec<String> {
        R::CAPABILITIES
            .share_grid
            .map_or_else(Vec::new, |grid| grid(&self.rules, seat))
    }

    /// The person in seat 0, first to play, against the strongest computer in every other seat
    /// of a challenge's table, on the challenge's draws, in its variant.
    async fn start_challenge_game(
        app: &AppState,
        start: ChallengeStart<'_>,
    ) -> Result<String, ApiError> {
        let options = options_of::<R>(start.setup)?;
        let mut table = Table::of_challenge(&start);
        if R::CAPABILITIES.challenge_seats > 1 {
            let level = default_level(computer::<R>()?.levels);
            for i in 1..R::CAPABILITIES.challenge_seats {
                table.seats.push(Seat::numbered_computer(i, level));
            }
        }
        let state = Ruled::new(options, table, start.challenge.seed).map_err(ApiError::Internal)?;
        Session::<Self>::start(
            app,
            state.mode(),
            state.setup()?,
            state,
            start.entry,
            Vec::new(),
        )
        .await
    }

    /// The computer's own game: the strongest computer in every seat of a challenge's table.
    fn computer_challenge_game(
        seed: u64,
        variant: Option<&str>,
        strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError> {
        let (game, actions) = Self::computers_game(options_of::<R>(variant)?, seed, strength)?;
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

    fn resign(&self, seat: usize) -> Result<(Self, Vec<ActionRow>), ApiError> {
        Ruled::resign(self, seat)
    }

    fn time_out(&self, seat: usize, turn: u64) -> Result<Option<Changed<Self>>, ApiError> {
        Ruled::time_out(self, seat, turn)
    }

    fn set_clocks(&mut self, now: i64) -> Option<Vec<store::clocks::Deadline>> {
        Ruled::set_clocks(self, now)
    }

    fn due(&self, seat: usize) -> Option<i64> {
        Ruled::due(self, seat)
    }

    fn to_act(&self) -> Vec<usize> {
        match self.table.joining {
            Joining::Open => Vec::new(),
            _ => self.rules.to_act(),
        }
    }

    /// Its draws, each seat's result and its variant (a game of one that offers them).
    fn friend_game(stored: &StoredGame) -> Result<FriendGame, ApiError> {
        if !R::CAPABILITIES.friend_challenges {
            return Err(ApiError::Conflict(format!(
                "a game of {} makes no friend challenge",
                R::NAME
            )));
        }
        let game = Self::from_stored(stored.clone())?;
        let results = game.rules.results().ok_or_else(|| {
            ApiError::Conflict(
                "the game is not finished: a friend challenge is made from a finished game".into(),
            )
        })?;
        Ok(FriendGame {
            seed: game.seed,
            seed_known: game.table.seed_chosen || game.table.practice.is_some(),
            results: results.iter().map(|r| (r.score, r.k2)).collect(),
            variant: game.variant(),
        })
    }
}
