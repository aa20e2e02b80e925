//! Railroad Ink games: sessions in memory, actions through the engine, durable before they
//! count, and the state as the page sees it.
//!
//! Every rule is the engine's: an action is tried on a copy of the [`Game`], and only when the
//! engine accepts it is it written to storage and the copy kept. What the page needs to know
//! to never guess a rule (legal squares per tile and orientation, which specials may be
//! placed, whether the round may end, and why not) comes from engine calls too.

use railroad_ink::ai::{self, RoundView};
use railroad_ink::dice::{DICE, EXPANSION_DICE};
use railroad_ink::movegen::first_legal;
use railroad_ink::score::{Breakdown, EXIT_POINTS};
use railroad_ink::square::EXITS;
use railroad_ink::{
    Action, Dice, Edge, Exit, Expansion, Game, GameError, Orientation, Placement, Roll, Score,
    Setup, Square, Tile,
};
use serde::{Deserialize, Serialize};

mod computer;
mod create;
pub mod http;
pub mod replay;
mod review;
mod tables;
mod view;
pub mod viewer;

pub use computer::*;
pub use create::*;
pub use tables::*;
pub use view::*;

use crate::error::{ApiError, Permission, Refusal};
use crate::game::{
    ChallengeStart, ComputerGame, FriendGame, GameInfo, GameState, Seat, Seated, Strength, Table,
    TieBreakRule, ViewHeader, computer_agent, default_level, to_json,
};
use crate::play::{self, Session};
use crate::seed::Seed;
use crate::state::AppState;
use crate::table::Seating;
use crate::written::{Kept, Written};
use store::{ActionRow, Finished, SeatKind, StoredGame};

/// Each refusal of the engine's names its rule with a short, stable name.
impl Refusal for GameError {
    fn rule(&self) -> &'static str {
        GameError::rule(self)
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        ApiError::refused(&e)
    }
}

/// The most players an online game seats.
pub const MAX_SEATS: usize = 8;
/// At most this many specials a game (§1).
const SPECIALS_PER_GAME: usize = 3;

/// How a game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One player.
    Solo,
    /// One player against a computer player on the same rolls (seat 1).
    Computer,
    /// Players join by invite link; a round ends when every player has ended it.
    Online,
    /// One player's attempt at a challenge (see [`crate::challenges`]): no hint.
    Challenge,
    /// One player on a closed challenge's dice, never ranked (hints allowed).
    Practice,
}

impl Mode {
    fn as_str(self) -> &'static str {
        match self {
            Mode::Solo => "solo",
            Mode::Computer => "computer",
            Mode::Online => "online",
            Mode::Challenge => "challenge",
            Mode::Practice => "practice",
        }
    }

    fn parse(s: &str) -> Option<Mode> {
        match s {
            "solo" => Some(Mode::Solo),
            "computer" => Some(Mode::Computer),
            "online" => Some(Mode::Online),
            "challenge" => Some(Mode::Challenge),
            "practice" => Some(Mode::Practice),
            _ => None,
        }
    }
}

/// A game's state in memory: how it is played, the engine's game and who sits where.
#[derive(Debug, Clone)]
pub struct InkState {
    pub mode: Mode,
    pub game: Game,
    /// Who sits where, the challenge, practice and chosen seed.
    pub table: Table,
    /// Whether the rounds have begun: an online game waits in its lobby until its creator
    /// starts it; every other game starts when it is made.
    pub started: bool,
    /// Whether the log holds the lobby's start (one row more than the engine's actions).
    start_logged: bool,
    /// The players' part of the views (slot 0, by version) and each seat's own part (by
    /// what it depends on), written once and shared by the answers and every stream.
    players_json: Kept<usize>,
    yous: Kept<YouKey>,
}

/// What a seat's own part of a view depends on: the round (and so the roll), whether the game
/// is over, whether the seat has ended its round, and its placements this round (its board
/// before the round is fixed). Other seats' moves change none of it.
#[derive(Debug, PartialEq)]
struct YouKey {
    round: usize,
    finished: bool,
    done: bool,
    this_round: Vec<Placement>,
}

/// What a Railroad Ink game is stored with: the engine's setup, and whether its creator chose
/// the seed. Games stored before this was kept read as not chosen.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct StoredSetup {
    #[serde(flatten)]
    pub setup: Setup,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chosen: bool,
    /// The closed challenge whose dice a practice game plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub practice: Option<String>,
    /// The Deep Blue expansion the game is played with (rule E1); absent in a base game, so
    /// that a base game is stored exactly as before expansions were played.
    #[serde(default, skip_serializing_if = "is_base")]
    pub expansion: Expansion,
}

/// Whether `e` is the base game (no expansion): then nothing of it is stored or sent.
pub(crate) fn is_base(e: &Expansion) -> bool {
    *e == Expansion::None
}

use crate::game::{ChallengeKind, Period};

/// Railroad Ink's periodic challenges: a daily (counted in streaks), a weekly, a monthly, and
/// the weekly Deep Blue challenge, the lake expansion in odd ISO weeks (`weekly-lake-2026-W49`),
/// the river in even ones (`weekly-river-2026-W50`). Listed before Metro's daily, but for the
/// Deep Blue one (added later: the others keep their places).
const CHALLENGES: &[ChallengeKind] = &[
    ChallengeKind::new("daily", Period::Day, "Daily {game}", 0).counted_in_streaks(),
    ChallengeKind::new("weekly", Period::IsoWeek, "Weekly {game}", 10),
    ChallengeKind::new("monthly", Period::Month, "Monthly {game}", 20),
    ChallengeKind::new("weekly-deep-blue", Period::IsoWeek, DEEP_BLUE_TITLE, 40)
        .with_prefix("weekly")
        .rotating(&["river", "lake"]),
];

const DEEP_BLUE_TITLE: &str = "Weekly {game} Deep Blue ({setup})";

/// A challenge's expansion, from its variant (a setup of [`CHALLENGES`], or a friend
/// challenge's: the expansion of the game it was made from).
fn expansion_of_variant(variant: Option<&str>) -> Result<Expansion, ApiError> {
    match variant {
        None => Ok(Expansion::None),
        Some(v) => v
            .parse()
            .map_err(|e| ApiError::Internal(format!("challenge variant: {e}"))),
    }
}

/// One Railroad Ink game, loaded.
pub type InkSession = Session<InkState>;

/// How a leaderboard breaks ties between equal scores.
pub const TIE_BREAK: TieBreakRule = TieBreakRule::fewest("errors");

impl GameState for InkState {
    const KIND: &'static str = "ink";
    const NAME: &'static str = "Railroad Ink";
    const TIE_BREAK: TieBreakRule = TIE_BREAK;
    const CHALLENGES: &'static [ChallengeKind] = CHALLENGES;
    type View = GameView;

    fn from_stored(stored: StoredGame) -> Result<InkState, ApiError> {
        let id = stored.id.clone();
        let corrupt = |what: String| ApiError::Internal(format!("game {id}: {what}"));
        let mode = Mode::parse(&stored.mode).ok_or_else(|| corrupt("unknown mode".into()))?;
        let replay::InkLog {
            setup,
            expansion,
            actions,
            start,
        } = replay::ink_log_full(&stored)?;
        // An online game stored before games had a lobby has no start in its log: it had
        // begun once anyone had done more than join.
        let started = mode != Mode::Online
            || start.is_some()
            || actions.iter().any(|&(_, a)| a != Action::Join);
        if let Some(at) = start
            && actions[at..].iter().any(|&(_, a)| a == Action::Join)
        {
            return Err(corrupt("a player joined after the start".into()));
        }
        let (seed_chosen, practice) = serde_json::from_str::<StoredSetup>(&stored.setup)
            .map(|s| (s.chosen, s.practice))
            .unwrap_or((false, None));
        let game = Game::replay_with_expansion(setup, expansion, &actions)
            .map_err(|(i, e)| corrupt(format!("action {i} does not replay: {e}")))?;
        let table = Table {
            challenge: stored.challenge,
            seed_chosen,
            practice,
            ..Table::from_rows(stored.seats)
        };
        if table.seats.len() != game.players().len() {
            return Err(corrupt(format!(
                "{} seats for {} players",
                table.seats.len(),
                game.players().len()
            )));
        }
        Ok(InkState {
            mode,
            game,
            table,
            started,
            start_logged: start.is_some(),
            players_json: Kept::default(),
            yous: Kept::default(),
        })
    }

    /// The number of accepted actions (a join is one, and so is the lobby's start).
    fn version(&self) -> usize {
        self.actions()
    }

    fn actions(&self) -> usize {
        self.game.actions().len() + usize::from(self.start_logged)
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn mode(&self) -> &'static str {
        self.mode.as_str()
    }

    fn is_over(&self) -> bool {
        self.game.is_finished()
    }

    fn finished(&self, now: i64) -> Option<Finished> {
        replay::ink_finished(&self.game, &self.table.names(), now)
    }

    fn variant(&self) -> Option<&'static str> {
        Some(self.game.expansion())
            .filter(|e| !is_base(e))
            .map(|e| e.name())
    }

    /// Solo, against the same computer, or online (the asker in the lobby, the others join);
    /// a challenge's or a practice game is played again as a solo game.
    fn rematch_request(&self, seat: usize) -> Result<CreateRequest, ApiError> {
        let name = self.table.seats.get(seat).map(|s| s.name.clone());
        let (mode, agent) = match self.mode {
            Mode::Computer => (
                Mode::Computer,
                self.table
                    .seats
                    .iter()
                    .find(|s| s.kind == SeatKind::Computer)
                    .and_then(|s| s.agent.clone()),
            ),
            Mode::Online => (Mode::Online, None),
            Mode::Solo | Mode::Challenge | Mode::Practice => (Mode::Solo, None),
        };
        Ok(CreateRequest {
            mode,
            seed: None,
            name,
            level: agent,
            expansion: Some(self.game.expansion()).filter(|e| !is_base(e)),
        })
    }

    fn share_grid(&self, seat: usize) -> Vec<String> {
        self.game
            .players()
            .get(seat)
            .map(|player| share_grid(player.board()))
            .unwrap_or_default()
    }

    fn view(&self, game: &GameInfo<'_>, seat: Option<usize>) -> GameView {
        view(game, self, seat)
    }

    type Thought = ComputerTurn;
    type Decision = Vec<Placement>;

    /// A computer whose round is due (only a game against the computer has one).
    fn computer_thought(&self) -> Option<ComputerTurn> {
        if self.mode != Mode::Computer {
            return None;
        }
        ComputerTurn::next(self)
    }

    fn think(turn: &ComputerTurn) -> Vec<Placement> {
        turn.play()
    }

    fn computer_moves(
        &self,
        game: &str,
        turn: &ComputerTurn,
        placements: Vec<Placement>,
    ) -> Result<(InkState, Vec<ActionRow>), ApiError> {
        computer_round(self, game, turn, placements)
    }

    /// One seat, the challenge's dice.
    async fn start_challenge_game(
        app: &AppState,
        start: ChallengeStart<'_>,
    ) -> Result<String, ApiError> {
        let table = Table::of_challenge(&start);
        let mode = if table.practice.is_some() {
            Mode::Practice
        } else {
            Mode::Challenge
        };
        let setup = Setup {
            players: 1,
            dice: Dice::Seed(start.challenge.seed),
        };
        let expansion = expansion_of_variant(start.variant())?;
        let stored = to_json(&StoredSetup {
            setup,
            chosen: false,
            practice: table.practice.clone(),
            expansion,
        })?;
        let state = InkState {
            mode,
            game: Game::with_expansion(setup, expansion),
            table,
            started: true,
            start_logged: false,
            players_json: Kept::default(),
            yous: Kept::default(),
        };
        InkSession::start(app, mode.as_str(), stored, state, start.entry).await
    }

    /// The weekly Deep Blue challenge's and an expansion game's friend challenge's variant is
    /// the expansion.
    fn computer_challenge_game(
        seed: u64,
        variant: Option<&str>,
        strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError> {
        let expansion = expansion_of_variant(variant)?;
        let budget = match strength {
            Strength::Full(budget) => budget,
            Strength::Interactive => Some(ai::strong::StrongAgent::interactive_budget(expansion)),
        };
        computer_challenge_game(seed, expansion, budget, at)
    }

    fn friend_game(stored: &StoredGame) -> Result<FriendGame, ApiError> {
        let log = replay::ink_log_full(stored)?;
        let (setup, actions) = (log.setup, log.actions);
        let game = Game::replay_with_expansion(setup, log.expansion, &actions)
            .map_err(|(i, e)| ApiError::Internal(format!("game {}: action {i}: {e}", stored.id)))?;
        if !game.is_finished() {
            return Err(ApiError::Conflict(
                "the game is not finished: a friend challenge is made from a finished game".into(),
            ));
        }
        let Dice::Seed(seed) = setup.dice else {
            return Err(ApiError::Conflict("the game's dice were not seeded".into()));
        };
        let results = game
            .scores()
            .iter()
            .map(|s| (i64::from(s.advanced), -i64::from(s.errors)))
            .collect();
        let variant = match game.expansion() {
            Expansion::None => None,
            e => Some(e.name()),
        };
        let seed_known = serde_json::from_str::<StoredSetup>(&stored.setup)
            .map(|s| s.chosen || s.practice.is_some())
            .map_err(|e| ApiError::Internal(format!("game {}: setup: {e}", stored.id)))?;
        Ok(FriendGame {
            seed,
            seed_known,
            results,
            variant,
        })
    }

    fn computer_name() -> String {
        crate::table::computer_name(default_level(&ai::AGENTS))
    }

    type Create = CreateRequest;
    type Join = JoinRequest;
    type Action = Action;
    type Replay = replay::InkReplay;

    fn create(
        app: &AppState,
        request: CreateRequest,
        player: Option<String>,
    ) -> impl std::future::Future<Output = Result<Seated, ApiError>> + Send {
        create(app, request, player)
    }

    /// Seats a new person in an online game waiting in its lobby.
    fn join(
        &self,
        request: &JoinRequest,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(InkState, Vec<ActionRow>, usize), ApiError> {
        if self.mode != Mode::Online {
            return Err(ApiError::Conflict(format!(
                "this is a {} game: only online games can be joined",
                self.mode.as_str()
            )));
        }
        if self.started {
            return Err(ApiError::Conflict(
                "the game has started: nobody can join it any more, but anyone with the link can watch"
                    .into(),
            ));
        }
        let seat = self.game.players().len();
        if seat >= MAX_SEATS {
            return Err(ApiError::Conflict(format!(
                "the game is full ({MAX_SEATS} players)"
            )));
        }
        let mut next = self.clone();
        next.game.act(seat, Action::Join)?;
        next.table
            .add_person(request.name.as_deref(), token_hash, player)?;
        Ok((next, vec![action_row(seat, Action::Join)?], seat))
    }

    /// A placement, an undo or the end of the seat's round, once the game has started (a join
    /// is its own request).
    fn act(&self, seat: usize, action: Action) -> Result<(InkState, Vec<ActionRow>), ApiError> {
        if action == Action::Join {
            return Err(ApiError::BadRequest(
                "a player joins with POST /api/ink/games/{id}/join".into(),
            ));
        }
        self.check_started()?;
        let mut next = self.clone();
        next.game.act(seat, action)?;
        Ok((next, vec![action_row(seat, action)?]))
    }

    fn replay(stored: &StoredGame) -> Result<replay::InkReplay, ApiError> {
        replay::ink_replay(stored)
    }

    fn hide_seed(replay: &mut replay::InkReplay) {
        replay.header.seed = None;
    }

    fn review(stored: &StoredGame, seat: usize) -> Result<serde_json::Value, ApiError> {
        review::review(stored, seat)
    }
}

fn action_row(seat: usize, action: Action) -> Result<ActionRow, ApiError> {
    Ok(ActionRow {
        seat,
        action: to_json(&action)?,
    })
}

/// Starts an online game waiting in its lobby: only its creator (seat 0) may, once. The start
/// is stored in the game's log, so that the game replays to a started one.
pub async fn start(app: &AppState, id: &str, token: &str) -> Result<GameView, ApiError> {
    let view = play::commands::by_seat(app, id, token, |st: &InkState, seat| {
        if st.mode != Mode::Online {
            return Err(ApiError::Conflict(format!(
                "this is a {} game: it started when it was made (only an online game has a lobby)",
                st.mode.as_str()
            )));
        }
        if seat != 0 {
            let creator = st.table.creator().unwrap_or("the creator");
            return Err(ApiError::Forbidden(format!(
                "only the game's creator ({creator}) can start it"
            )));
        }
        if st.started {
            return Err(ApiError::Conflict("the game has already started".into()));
        }
        let mut next = st.clone();
        next.started = true;
        next.start_logged = true;
        let row = ActionRow {
            seat,
            action: to_json(&replay::LobbyAction::Start)?,
        };
        Ok((next, vec![row]))
    })
    .await?;
    tracing::info!(game = %id, "online game started");
    Ok(view)
}

impl InkState {
    /// Refuses an action in a game still waiting in its lobby.
    fn check_started(&self) -> Result<(), ApiError> {
        if self.started {
            return Ok(());
        }
        let creator = self.table.creator().unwrap_or("the creator");
        Err(ApiError::Conflict(format!(
            "the game has not started yet: {creator}, who made it, starts it from the lobby"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::SeatRow;

    /// An online game as stored, with these seats and log rows (seat, action JSON).
    fn stored_online(seats: usize, rows: &[(usize, &str)]) -> StoredGame {
        StoredGame {
            id: "0123456789abcdef01234567".into(),
            kind: InkState::KIND.into(),
            mode: "online".into(),
            setup: serde_json::to_string(&Setup {
                players: 1,
                dice: Dice::Seed(5),
            })
            .unwrap(),
            created: 0,
            seats: (0..seats)
                .map(|seat| SeatRow {
                    seat,
                    name: format!("P{seat}"),
                    kind: SeatKind::Human,
                    agent: None,
                    token_hash: Some(format!("{seat:064}")),
                    player: None,
                })
                .collect(),
            actions: rows
                .iter()
                .map(|&(seat, action)| ActionRow {
                    seat,
                    action: action.into(),
                })
                .collect(),
            challenge: None,
            rematch: None,
            shown: None,
        }
    }

    #[test]
    fn the_lobby_is_read_from_the_log() {
        let join = r#"{"action":"join"}"#;
        let start = r#"{"action":"start"}"#;
        // Only joins: still in the lobby.
        let st = InkState::from_stored(stored_online(2, &[(1, join)])).unwrap();
        assert!(!st.started);
        assert_eq!(st.actions(), 1);
        // A start: begun, and the start is one row of the log.
        let st = InkState::from_stored(stored_online(2, &[(1, join), (0, start)])).unwrap();
        assert!(st.started);
        assert_eq!((st.actions(), st.game.actions().len()), (2, 1));
        // Stored before the lobby: begun once someone did more than join.
        let game = Game::new(Setup {
            players: 1,
            dice: Dice::Seed(5),
        });
        let p = first_legal(
            game.player(0).unwrap().board(),
            game.roll().unwrap().dice()[0],
        )
        .unwrap();
        let place = serde_json::to_string(&Action::Place { placement: p }).unwrap();
        let st = InkState::from_stored(stored_online(1, &[(0, &place)])).unwrap();
        assert!(st.started);
        assert_eq!(st.actions(), 1);
        // A join after the start, or two starts, is no log the server writes.
        let bad = stored_online(2, &[(0, start), (1, join)]);
        assert!(InkState::from_stored(bad).is_err());
        let bad = stored_online(1, &[(0, start), (0, start)]);
        assert!(InkState::from_stored(bad).is_err());
    }

    /// A view's shared parts are written once for what they depend on, the same as writing
    /// them afresh: the players once a version, a seat's own part until its own move or the
    /// round changes it (another seat's move does not); a copy of the state keeps none.
    #[test]
    fn a_views_parts_are_kept_for_what_they_depend_on() {
        let (join, start) = (r#"{"action":"join"}"#, r#"{"action":"start"}"#);
        let mut st = InkState::from_stored(stored_online(2, &[(1, join), (0, start)])).unwrap();
        let info = GameInfo {
            id: "0123456789abcdef01234567",
            created: 0,
            now: 0,
            rematch: None,
        };
        let json = |w: &Written| serde_json::to_value(w).unwrap();
        let fresh_you = |st: &InkState, seat| serde_json::to_value(you(&st.game, seat)).unwrap();
        let first = view(&info, &st, Some(0));
        assert_eq!(
            json(&first.players),
            serde_json::to_value(player_views(&st)).unwrap()
        );
        assert!(first.players.same(&view(&info, &st, Some(1)).players));
        let (you0, you1) = (first.you.unwrap(), view(&info, &st, Some(1)).you.unwrap());
        assert_eq!(json(&you0), fresh_you(&st, 0));
        assert!(st.clone().players_json.is_empty() && st.clone().yous.is_empty());
        // Seat 1 places a tile: the players and seat 1's part are new, seat 0's is kept.
        let board = *st.game.player(1).unwrap().board();
        let p = first_legal(&board, st.game.roll().unwrap().dice()[0]).unwrap();
        st.game.act(1, Action::Place { placement: p }).unwrap();
        let second = view(&info, &st, Some(1));
        assert!(!second.players.same(&first.players));
        assert_eq!(
            json(&second.players),
            serde_json::to_value(player_views(&st)).unwrap()
        );
        assert_eq!(json(&second.players)[1]["board"], p.to_string());
        assert!(!second.you.as_ref().unwrap().same(&you1));
        assert_eq!(json(second.you.as_ref().unwrap()), fresh_you(&st, 1));
        assert!(view(&info, &st, Some(0)).you.unwrap().same(&you0));
        // Undone, and another placement of the same die: seat 1's part follows the board.
        st.game.act(1, Action::Undo).unwrap();
        let other = board
            .legal_placements(p.tile)
            .into_iter()
            .find(|&q| q != p)
            .unwrap();
        st.game.act(1, Action::Place { placement: other }).unwrap();
        assert_eq!(
            json(&view(&info, &st, Some(1)).you.unwrap()),
            fresh_you(&st, 1)
        );
    }

    #[test]
    fn squares_are_written_one_after_another() {
        let a1 = Square::new(0, 1).unwrap();
        let d0 = Square::new(3, 0).unwrap();
        assert_eq!(squares(a1.bit() | d0.bit()), "A1D0");
        assert_eq!(squares(0), "");
    }

    #[test]
    fn the_tile_table_follows_the_engine() {
        let t = tile_table();
        assert_eq!(t.tiles.len(), 15);
        let b1 = &t.tiles[7];
        assert_eq!(b1.tile, Tile::B1);
        assert_eq!(b1.edges[0], ["highway", "railway", "blank", "blank"]);
        assert_eq!(b1.edges[5], ["railway", "highway", "blank", "blank"]);
        assert_eq!(t.rotate, [1, 2, 3, 0, 5, 6, 7, 4]);
        assert_eq!(t.exits.len(), 12);
        assert_eq!(t.centre.len(), 9);
        for o in 0..8 {
            // Flipping twice is the identity.
            assert_eq!(t.flip[t.flip[o] as usize] as usize, o);
        }
    }

    /// The shared grid of the rules chapter's boards: water without a route is 🟦 (a lake, a
    /// flooded square, a river off the board at both ends), a river's open end 🟥.
    #[test]
    fn the_share_grid_draws_water_routes_and_errors() {
        use railroad_ink::Expansion;
        let grid = |s: &str, e| share_grid(&railroad_ink::Board::parse_in(s, e).unwrap());
        let rows = |g: Vec<String>, r: std::ops::Range<usize>| g[r].join("/");
        // Three lake tiles around D3, which floods: all water, no route.
        let g = grid("L0C30L0D23L0D41", Expansion::Lake);
        assert_eq!(
            rows(g, 2..5),
            "⬜⬜⬜🟦⬜⬜⬜/⬜⬜🟦🟦🟦⬜⬜/⬜⬜⬜⬜⬜⬜⬜"
        );
        // A river along row A, off the board at both ends: water, no error.
        let g = grid("V0A01V0A11V0A21V0A31V0A41V0A51V0A61", Expansion::River);
        assert_eq!(rows(g, 0..2), "🟦🟦🟦🟦🟦🟦🟦/⬜⬜⬜⬜⬜⬜⬜");
        // Three river tiles: the third's open end faces A3, an error.
        let g = grid("V0A01V0A11V0A21", Expansion::River);
        assert_eq!(rows(g, 0..2), "🟦🟦🟥⬜⬜⬜⬜/⬜⬜⬜⬜⬜⬜⬜");
        // Highways beside a flood: routes are 🟩, the highway facing the water 🟥.
        let g = grid("A4G10A4F10L0D10L0E03L0E21", Expansion::Lake);
        assert_eq!(
            rows(g, 3..7),
            "⬜🟦⬜⬜⬜⬜⬜/🟦🟦🟦⬜⬜⬜⬜/⬜🟥⬜⬜⬜⬜⬜/⬜🟩⬜⬜⬜⬜⬜"
        );
    }
}
