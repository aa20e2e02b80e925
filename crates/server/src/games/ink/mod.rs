//! Railroad Ink games: the engine's rules as the runtime plays them ([`Rules`] for [`Ink`]),
//! its computer players and hints, its challenges, its state as each seat may see it, its
//! replay and its review.
//!
//! Every rule is the engine's: an action is tried on a copy of the [`Game`], and only when the
//! engine accepts it is it written to storage and the copy kept. What the page needs to know
//! to never guess a rule (legal squares per tile and orientation, which specials may be
//! placed, whether the round may end, and why not) comes from engine calls too.
//!
//! The table is the runtime's ([`crate::rules::Ruled`]): a game is made with its seats (one
//! person; a person and a computer), or as a table that grows (online: people join, each seat
//! one `join` of the engine's, until the creator starts the game).

use railroad_ink::ai::{self, RoundView};
use railroad_ink::movegen::first_legal;
use railroad_ink::score::EXIT_POINTS;
use railroad_ink::square::EXITS;
use railroad_ink::view::{BoardView, Permission, SpecialView, YouView, board_view, flooded, you};
use railroad_ink::{
    Action, Dice, Edge, Exit, Expansion, Game, GameError, Orientation, Placement, Roll, Setup,
    Square, Tile,
};
use serde::{Deserialize, Serialize};

mod computer;
pub mod http;
mod older;
pub mod replay;
mod review;
mod tables;
mod view;
pub mod viewer;

pub use computer::*;
pub use tables::*;
pub use view::*;

use crate::error::{ApiError, Refusal};
use crate::game::{ChallengeKind, Period, TieBreakRule, default_level};
use crate::rules::{
    Capabilities, Computer, Older, Replay, Ruled, Rules, SEATS_MODE, SeatResult, Turns, Variants,
};
use crate::table::Table;
use crate::written::{Kept, Written};
use store::SeatKind;

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

/// A game of Railroad Ink as the runtime keeps it: the engine's game, and the parts of its
/// view written once for what they depend on (a copy keeps none).
#[derive(Debug, Clone)]
pub struct Ink {
    pub game: Game,
    /// The players' part of the views (slot 0, by the number of actions), written once and
    /// shared by the answers and every stream...
    players_json: Kept<usize>,
    /// ...and each seat's own part (by what it depends on).
    yous: Kept<YouKey>,
}

impl Ink {
    fn of(game: Game) -> Ink {
        Ink {
            game,
            players_json: Kept::default(),
            yous: Kept::default(),
        }
    }
}

/// A game of Railroad Ink at the runtime's table.
pub type InkState = Ruled<Ink>;

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

/// What a game of Railroad Ink is made with beyond its seats and seed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InkOptions {
    /// The Deep Blue expansion the game is played with (rule E1): `lake` or `river` (absent or
    /// `none`: the base game).
    #[serde(default, skip_serializing_if = "is_base")]
    pub expansion: Expansion,
}

/// Whether `e` is the base game (no expansion): then nothing of it is stored or sent.
pub(crate) fn is_base(e: &Expansion) -> bool {
    *e == Expansion::None
}

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

/// How a leaderboard breaks ties between equal scores, and a game too (rule: the most points,
/// then the fewest errors).
pub const TIE_BREAK: TieBreakRule = TieBreakRule::fewest("errors");

/// How a game that is no challenge's is played: `online` at a table that grows, `computer`
/// against one, `solo` alone (and `seats` for several people on one device).
fn mode(table: &Table) -> &'static str {
    if table.grows() {
        "online"
    } else if (table.seats.iter()).any(|s| s.kind == SeatKind::Computer) {
        "computer"
    } else if table.seats.len() == 1 {
        "solo"
    } else {
        SEATS_MODE
    }
}

impl Rules for Ink {
    const KIND: &'static str = "ink";
    const NAME: &'static str = "Railroad Ink";
    const SEATS: (usize, usize) = (1, MAX_SEATS);
    type Options = InkOptions;
    type Action = Action;
    type View = GameView;

    fn setup(options: &InkOptions, seats: usize, seed: u64) -> Result<Ink, String> {
        let setup = Setup {
            players: seats,
            dice: Dice::Seed(seed),
        };
        Ok(Ink::of(Game::with_expansion(setup, options.expansion)))
    }

    /// A placement, an undo or the end of the seat's round (a join is the runtime's: see
    /// [`crate::rules::Capabilities::join`]).
    fn act(&self, seat: usize, action: &Action) -> Result<Ink, ApiError> {
        if *action == Action::Join && seat < self.game.players().len() {
            return Err(ApiError::BadRequest(
                "a player joins with POST /api/ink/games/{id}/join".into(),
            ));
        }
        let mut game = self.game.clone();
        game.act(seat, *action)?;
        Ok(Ink::of(game))
    }

    /// Every seat that has not ended the round yet.
    fn to_act(&self) -> Vec<usize> {
        if self.game.is_finished() {
            return Vec::new();
        }
        (self.game.players().iter().enumerate())
            .filter(|(_, p)| !p.round_done())
            .map(|(seat, _)| seat)
            .collect()
    }

    /// Each seat's score, and as its tie break its errors (fewer is better).
    fn results(&self) -> Option<Vec<SeatResult>> {
        let game = &self.game;
        game.is_finished().then(|| {
            (game.scores().iter().enumerate())
                .map(|(seat, s)| SeatResult {
                    seat,
                    score: i64::from(s.advanced),
                    k2: -i64::from(s.errors),
                })
                .collect()
        })
    }

    fn view(&self, table: &Table, seat: Option<usize>) -> GameView {
        view(self, table, seat)
    }

    const CAPABILITIES: Capabilities<Ink> = Capabilities {
        computer: Some(Computer {
            levels: &ai::AGENTS,
            choose: computer::choose,
            challenge_game: Some(computer::challenge_game),
        }),
        challenges: CHALLENGES,
        challenge_seats: 1,
        tie_break: TIE_BREAK,
        tie_break_wins: true,
        variants: Some(Variants {
            of: |o| Some(o.expansion).filter(|e| !is_base(e)).map(|e| e.name()),
            options: |v| {
                let expansion = v.parse().map_err(|e| format!("{e}"))?;
                Ok(InkOptions { expansion })
            },
        }),
        friend_challenges: true,
        join: Some(|| Action::Join),
        mode,
        share_grid: Some(|ink, seat| {
            (ink.game.players().get(seat))
                .map(|p| share_grid(p.board()))
                .unwrap_or_default()
        }),
        replay: Some(Replay {
            step: replay::step,
            end: replay::end,
            seat: Some(replay::seat),
        }),
        review: Some(review::review),
        older: Some(Older {
            setup: older::setup,
            create: older::create,
        }),
        turns: Some(Turns {
            turn: |ink| ink.game.round() as u64,
            live_seconds: 120,
            called: "round",
        }),
        offline: true,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameState;
    use crate::table::Joining;
    use store::{ActionRow, SeatRow, StoredGame};

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
            deadlines: Vec::new(),
        }
    }

    #[test]
    fn the_lobby_is_read_from_the_log() {
        let join = r#"{"action":"join"}"#;
        let start = r#"{"action":"start"}"#;
        // Only joins: still in the lobby.
        let st = InkState::from_stored(stored_online(2, &[(1, join)])).unwrap();
        assert_eq!(st.table.joining, Joining::Open);
        assert_eq!(st.actions(), 1);
        // A start: begun, and the start is one row of the log.
        let st = InkState::from_stored(stored_online(2, &[(1, join), (0, start)])).unwrap();
        assert_eq!(st.table.joining, Joining::Started);
        assert_eq!((st.actions(), st.rules.game.actions().len()), (2, 1));
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
        assert_eq!(st.table.joining, Joining::Started);
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
        let st = InkState::from_stored(stored_online(2, &[(1, join), (0, start)])).unwrap();
        let (mut ink, table) = (st.rules, st.table);
        let json = |w: &Written| serde_json::to_value(w).unwrap();
        let fresh_you = |ink: &Ink, seat| serde_json::to_value(you(&ink.game, seat)).unwrap();
        let fresh_players =
            |ink: &Ink| serde_json::to_value(player_views(&ink.game, &table)).unwrap();
        let first = view(&ink, &table, Some(0));
        assert_eq!(json(&first.players), fresh_players(&ink));
        assert!(first.players.same(&view(&ink, &table, Some(1)).players));
        let (you0, you1) = (first.you.unwrap(), view(&ink, &table, Some(1)).you.unwrap());
        assert_eq!(json(&you0), fresh_you(&ink, 0));
        assert!(ink.clone().players_json.is_empty() && ink.clone().yous.is_empty());
        // Seat 1 places a tile: the players and seat 1's part are new, seat 0's is kept.
        let board = *ink.game.player(1).unwrap().board();
        let p = first_legal(&board, ink.game.roll().unwrap().dice()[0]).unwrap();
        ink.game.act(1, Action::Place { placement: p }).unwrap();
        let second = view(&ink, &table, Some(1));
        assert!(!second.players.same(&first.players));
        assert_eq!(json(&second.players), fresh_players(&ink));
        assert_eq!(json(&second.players)[1]["board"], p.to_string());
        assert!(!second.you.as_ref().unwrap().same(&you1));
        assert_eq!(json(second.you.as_ref().unwrap()), fresh_you(&ink, 1));
        assert!(view(&ink, &table, Some(0)).you.unwrap().same(&you0));
        // Undone, and another placement of the same die: seat 1's part follows the board.
        ink.game.act(1, Action::Undo).unwrap();
        let other = board
            .legal_placements(p.tile)
            .into_iter()
            .find(|&q| q != p)
            .unwrap();
        ink.game.act(1, Action::Place { placement: other }).unwrap();
        assert_eq!(
            json(&view(&ink, &table, Some(1)).you.unwrap()),
            fresh_you(&ink, 1)
        );
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
