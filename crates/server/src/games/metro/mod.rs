//! Metro games: seats (people on this device or invited by link, and computer players), turns
//! through the engine, durable before they count, and the state as each seat may see it.
//!
//! Every rule is the engine's: an action is tried on a copy of the [`Game`], and only when the
//! engine accepts it is it written to storage and the copy kept. What the page needs so that it
//! never guesses a rule (the squares where the tile to place is legal, whether the seat may draw
//! or keep, and why not) comes from engine calls too. A seat sees its own hand and the tile it
//! drew; of the others only whether they hold a tile. The seed, which decides every draw, is
//! revealed once the game is over.
//!
//! A game is created with all its seats. A person "on this device" gets a token at once; a
//! person "invited by link" is an open seat until someone takes it through `join`; a computer
//! seat has no token and is played by [`Session::drive_computers`], one action at a time, each
//! stored before the next.

use metro::ai;
use metro::{
    Action, CENTRE, Config, DECK_SIZE, Event, Game, GameError, Illegal, Phase, Player, PlayerCount,
    Sequence, Square, Station, Tile, TileInfo,
};
use serde::{Deserialize, Serialize};

mod create;
pub mod http;
pub mod replay;
mod review;
mod view;
pub mod viewer;

pub use create::*;
pub use view::*;

pub use viewer::LineView;

use crate::error::{ApiError, Permission, Refusal};
use crate::game::{
    ChallengeStart, ComputerGame, GameInfo, GameState, Seat, Seated, Strength, Table, TieBreakRule,
    ViewHeader, default_level, to_json,
};
use crate::lobby::{JoinRequest, Lobby, PlannedSeat, SeatRequest, plan};
use crate::play::Session;
use crate::seed::Seed;
use crate::state::AppState;
use crate::table::Seating;
use store::SeatKind as Kind;
use store::{ActionRow, Finished, StoredGame};

/// The fewest players a game of Metro has.
pub const MIN_PLAYERS: usize = 2;
/// The most players a game of Metro has.
pub const MAX_PLAYERS: usize = 6;
/// The mode stored with an ordinary Metro game (seats are set when the game is created).
const MODE: &str = "seats";
/// The mode of a person's game in a Metro challenge.
const CHALLENGE_MODE: &str = "challenge";
/// The mode of a practice game on a closed Metro challenge's deck.
const PRACTICE_MODE: &str = "practice";

/// `POST /api/metro/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub players: Vec<SeatRequest>,
    pub seed: Option<Seed>,
}

/// One seat's move, as `POST /api/metro/games/{id}/act` sends it:
/// `{"action":"draw"}`, `{"action":"keep"}`, `{"action":{"place":"03"},"tile":"cbaa"}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatMove {
    pub action: Action,
    /// With a placement: the tile the page means to place (a `409` if another is to be placed).
    pub tile: Option<Tile>,
}

/// What a game is created with, as stored: the engine's configuration and seed, and the plan
/// of every seat (so a seat still open for an invited person is known before anyone takes it).
#[derive(Debug, Serialize, Deserialize)]
struct Setup {
    config: Config,
    seed: u64,
    seats: Vec<PlannedSeat>,
    /// Whether the creator chose the seed (everyone is told).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    chosen: bool,
    /// The closed challenge whose deck a practice game plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    practice: Option<String>,
}

/// A game's state in memory: the engine's game and who sits where.
#[derive(Debug, Clone)]
pub struct MetroState {
    pub game: Game,
    /// Who sits where, the challenge, practice and chosen seed.
    pub table: Table,
}

/// One Metro game, loaded.
pub type MetroSession = Session<MetroState>;

impl MetroState {
    /// The computer seat whose turn it is, if any.
    fn computer_turn(&self) -> Option<(Player, String)> {
        let player = self.game.turn()?;
        let seat = self.table.seats.get(player.index())?;
        (seat.kind == Kind::Computer).then(|| {
            let level = seat
                .agent
                .clone()
                .unwrap_or_else(|| default_level(&ai::AGENTS).to_owned());
            (player, level)
        })
    }
}

use crate::game::{ChallengeKind, Period};

/// Metro's periodic challenge: a daily (counted in streaks), listed after Railroad Ink's daily,
/// weekly and monthly ones.
const CHALLENGES: &[ChallengeKind] =
    &[ChallengeKind::new("metro-daily", Period::Day, "Daily {game}", 30).counted_in_streaks()];

/// How a leaderboard breaks ties between equal scores.
pub const TIE_BREAK: TieBreakRule = TieBreakRule::most("margin");

impl GameState for MetroState {
    const KIND: &'static str = "metro";
    const NAME: &'static str = "Metro";
    const TIE_BREAK: TieBreakRule = TIE_BREAK;
    const CHALLENGES: &'static [ChallengeKind] = CHALLENGES;
    type View = GameView;

    /// Replays the actions, each by the seat that did it.
    fn from_stored(stored: StoredGame) -> Result<MetroState, ApiError> {
        let id = stored.id.clone();
        let corrupt = |what: String| ApiError::Internal(format!("game {id}: {what}"));
        let setup: Setup =
            serde_json::from_str(&stored.setup).map_err(|e| corrupt(format!("setup: {e}")))?;
        if setup.seats.len() != setup.config.players.get() as usize {
            return Err(corrupt(format!(
                "{} seats for {} players",
                setup.seats.len(),
                setup.config.players
            )));
        }
        // Every seat as planned, before anyone takes it; its row, once stored, says who did.
        let table = crate::lobby::table_of(setup.seats, stored.seats).map_err(corrupt)?;
        let mut game = Game::new(setup.config, setup.seed);
        for (i, row) in stored.actions.iter().enumerate() {
            let action: Action = serde_json::from_str(&row.action)
                .map_err(|e| corrupt(format!("action {i}: {e}")))?;
            let player = Player::from_index(row.seat)
                .ok_or_else(|| corrupt(format!("action {i}: no seat {}", row.seat)))?;
            game.play(player, action)
                .map_err(|e| corrupt(format!("action {i} ({action}) does not replay: {e}")))?;
        }
        Ok(MetroState {
            game,
            table: Table {
                challenge: stored.challenge,
                seed_chosen: setup.chosen,
                practice: setup.practice,
                ..table
            },
        })
    }

    /// Every change counts: an action, or an invited person's seat taken.
    fn version(&self) -> usize {
        let taken = self
            .table
            .seats
            .iter()
            .filter(|s| s.invited && !s.is_open())
            .count();
        self.game.actions().len() + taken
    }

    fn actions(&self) -> usize {
        self.game.actions().len()
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn finished(&self, now: i64) -> Option<Finished> {
        replay::metro_finished(&self.game, &self.table.names(), now)
    }

    /// The same seats in the same order (see [`crate::lobby::rematch_seats`]). A challenge's or practice game is an ordinary game the second time.
    fn rematch_request(&self, seat: usize) -> Result<CreateRequest, ApiError> {
        let players = crate::lobby::rematch_seats(&self.table, seat);
        Ok(CreateRequest {
            players,
            seed: None,
        })
    }

    /// Eight rows of eight: 🟩 a tile the seat placed, 🟦 another's, ⬛ the centre, ⬜ empty.
    fn share_grid(&self, seat: usize) -> Vec<String> {
        let mine: std::collections::HashSet<metro::Square> = self
            .game
            .events()
            .iter()
            .filter_map(|e| match e {
                metro::Event::Placed { player, placement } if player.index() == seat => {
                    Some(placement.square)
                }
                _ => None,
            })
            .collect();
        let board = self.game.board();
        (0..8u8)
            .map(|row| {
                (0..8u8)
                    .filter_map(|col| metro::Square::new(row, col))
                    .map(|sq| {
                        if metro::CENTRE.contains(sq) {
                            '⬛'
                        } else if board.tile(sq).is_none() {
                            '⬜'
                        } else if mine.contains(&sq) {
                            '🟩'
                        } else {
                            '🟦'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn view(&self, game: &GameInfo<'_>, seat: Option<usize>) -> GameView {
        view(game, self, seat)
    }

    type Thought = ComputerTurn;
    type Decision = Option<Action>;

    fn computer_thought(&self) -> Option<ComputerTurn> {
        let (player, level) = self.computer_turn()?;
        Some(ComputerTurn {
            player,
            level,
            view: self.game.view(Some(player)),
            seed: self.game.seed(),
        })
    }

    fn think(turn: &ComputerTurn) -> Option<Action> {
        let mut agent = ai::agent_by_name(&turn.level, agent_seed(turn.seed, turn.player), None)?;
        Some(agent.act(&turn.view))
    }

    fn computer_moves(
        &self,
        id: &str,
        turn: &ComputerTurn,
        choice: Option<Action>,
    ) -> Result<(MetroState, Vec<ActionRow>), ApiError> {
        let (player, level) = (turn.player, &turn.level);
        let mut next = self.clone();
        let action = match choice.map(|a| (a, next.game.play(player, a))) {
            Some((action, Ok(_))) => action,
            refused => {
                if let Some((action, Err(e))) = refused {
                    tracing::error!(game = %id, %level, %action, error = %e, "the computer player broke a rule");
                } else {
                    tracing::warn!(game = %id, %level, "unknown computer player; it plays the first legal action");
                }
                next.game = self.game.clone();
                let fallback =
                    next.game.legal_actions().first().copied().ok_or_else(|| {
                        ApiError::Internal("a computer has no legal action".into())
                    })?;
                next.game.play(player, fallback)?;
                fallback
            }
        };
        let row = ActionRow {
            seat: player.index(),
            action: to_json(&action)?,
        };
        Ok((next, vec![row]))
    }

    /// The person in seat 0, first to play, against three `strong` computers, on the
    /// challenge's deck.
    async fn start_challenge_game(
        app: &AppState,
        start: ChallengeStart<'_>,
    ) -> Result<String, ApiError> {
        let players = PlayerCount::new(4).ok_or_else(|| ApiError::Internal("4 players".into()))?;
        let config = Config::new(players);
        let strong = default_level(&ai::AGENTS);
        let mut table = Table::of_challenge(&start);
        for i in 1..4 {
            table.seats.push(Seat::numbered_computer(i, strong));
        }
        let stored = to_json(&Setup {
            config,
            seed: start.challenge.seed,
            seats: plan(&table.seats),
            chosen: false,
            practice: table.practice.clone(),
        })?;
        let mode = if table.practice.is_some() {
            PRACTICE_MODE
        } else {
            CHALLENGE_MODE
        };
        let state = MetroState {
            game: Game::new(config, start.challenge.seed),
            table,
        };
        MetroSession::start(app, mode, stored, state, start.entry).await
    }

    fn computer_challenge_game(
        seed: u64,
        _strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError> {
        computer_challenge_game(seed, at)
    }

    fn computer_name() -> String {
        crate::table::computer_name(default_level(&ai::AGENTS))
    }

    type Create = CreateRequest;
    type Join = JoinRequest;
    type Action = SeatMove;
    type Replay = replay::MetroReplay;

    fn create(
        app: &AppState,
        request: CreateRequest,
        player: Option<String>,
    ) -> impl std::future::Future<Output = Result<Seated, ApiError>> + Send {
        create(app, request, player)
    }

    /// Takes an open seat (the one asked for, or the first) for an invited person.
    fn join(
        &self,
        request: &JoinRequest,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(MetroState, Vec<ActionRow>, usize), ApiError> {
        if self.game.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let (table, seat) = crate::lobby::join(&self.table, request, token_hash, player)?;
        let next = MetroState {
            table,
            game: self.game.clone(),
        };
        Ok((next, Vec::new(), seat))
    }

    /// The seat's action, after the engine accepts it. `tile`, when given with a placement, is
    /// the tile the page means to place: if the tile to place is another (the page's state is
    /// stale), nothing happens.
    fn act(&self, seat: usize, m: SeatMove) -> Result<(MetroState, Vec<ActionRow>), ApiError> {
        let player = Player::from_index(seat)
            .ok_or_else(|| ApiError::Internal(format!("seat {seat} is no player")))?;
        if let (Action::Place(_), Some(expected)) = (m.action, m.tile) {
            match self.game.tile_to_place() {
                Some(now) if self.game.turn() == Some(player) && now != expected => {
                    return Err(ApiError::Conflict(format!(
                        "the tile to place is {now}, not {expected}"
                    )));
                }
                _ => {}
            }
        }
        let mut next = self.clone();
        next.game.play(player, m.action)?;
        let row = ActionRow {
            seat,
            action: to_json(&m.action)?,
        };
        Ok((next, vec![row]))
    }

    fn replay(stored: &StoredGame) -> Result<replay::MetroReplay, ApiError> {
        replay::metro_replay(stored)
    }

    fn hide_seed(replay: &mut replay::MetroReplay) {
        replay.header.seed = None;
    }

    fn review(stored: &StoredGame, seat: usize) -> Result<serde_json::Value, ApiError> {
        review::review(stored, seat)
    }
}

// ---------------------------------------------------------------------------------------
// Computer seats.

/// The seed of a computer seat's agent: the game's seed mixed with the seat. Its choices then
/// follow from the game and what the seat may see, so a replay is the same game.
fn agent_seed(game_seed: u64, player: Player) -> u64 {
    ai::mix(game_seed ^ ai::mix(player.index() as u64 + 1))
}

/// A computer seat's turn to think over: what it may see of the game.
pub struct ComputerTurn {
    player: Player,
    level: String,
    view: metro::View,
    seed: u64,
}

// ---------------------------------------------------------------------------------------
// Refusals.

/// Each refusal of the engine's names its rule with a short, stable name.
impl Refusal for GameError {
    fn rule(&self) -> &'static str {
        match self {
            GameError::GameOver => "game over",
            GameError::NotYourTurn { .. } => "not your turn",
            GameError::MustDraw => "draw first",
            GameError::AlreadyDrawn { .. } => "already drawn",
            GameError::MustPlaceSecondDraw { .. } => "second draw must be placed",
            GameError::NothingToKeep => "nothing to keep",
            GameError::DeckEmpty { .. } => "deck empty",
            GameError::IllegalPlacement(p) => match p.reason {
                Illegal::Occupied { .. } => "occupied",
                Illegal::Centre => "centre square",
                Illegal::NotTouching => "not touching",
                Illegal::AvoidableStationLink { .. } => "avoidable station link",
            },
        }
    }

    fn not_your_turn(&self) -> bool {
        matches!(self, GameError::NotYourTurn { .. })
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        ApiError::refused(&e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tile_table_follows_the_engine() {
        let t = tile_table();
        assert_eq!(t.tiles.len(), 24);
        assert_eq!(t.stations.len(), 32);
        assert_eq!(t.stations[0].square.to_string(), "07");
        assert_eq!(t.stations[0].side, 0);
        assert_eq!(t.stations[8].square.to_string(), "00");
        assert_eq!(t.stations[8].side, 3);
        assert_eq!(t.centre.len(), 4);
        assert_eq!(t.owners.len(), 5);
        // Two players: P1 owns the odd stations.
        assert_eq!(t.owners[0][0], Some(0));
        assert_eq!(t.owners[0][1], Some(1));
        // Three players: stations 16 and 17 belong to nobody.
        assert_eq!(t.owners[1][15], None);
        assert_eq!(t.owners[1][16], None);
        assert_eq!(t.default_level, "strong");
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["tiles"][0]["code"], "aacb");
        assert_eq!(json["tiles"][0]["tracks"][0], serde_json::json!([0, 5]));
    }

    #[test]
    fn rule_names() {
        let mut game = Game::new(Config::new(PlayerCount::new(2).unwrap()), 1);
        let p2 = Player::from_index(1).unwrap();
        let e = game.play(p2, Action::Draw).unwrap_err();
        assert_eq!(e.rule(), "not your turn");
        game.apply(Action::Draw).unwrap();
        let e = game
            .apply(Action::Place("33".parse().unwrap()))
            .unwrap_err();
        assert_eq!(e.rule(), "centre square");
    }
}
