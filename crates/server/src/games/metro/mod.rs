//! Metro games: the engine's rules as the runtime plays them ([`Rules`] for [`Game`]), its
//! computer players, its daily challenge, its state as each seat may see it, its replay and
//! its review.
//!
//! Every rule is the engine's: an action is tried on a copy of the [`Game`], and only when the
//! engine accepts it is it written to storage and the copy kept. What the page needs so that it
//! never guesses a rule (the squares where the tile to place is legal, whether the seat may draw
//! or keep, and why not) comes from engine calls too. A seat sees its own hand and the tile it
//! drew; of the others only whether they hold a tile. The seed, which decides every draw, is
//! revealed once the game is over.
//!
//! The table is the runtime's ([`crate::rules::Ruled`]): a game is created with all its seats
//! (people on this device, people invited by link, computers), an invited seat is open until
//! someone takes it, and a computer seat is played one action at a time, each stored before the
//! next.

use metro::ai;
use metro::view::{BoardView, SeatState, YouView, board_view, seat_state, you};
use metro::{
    Action, CENTRE, Config, DECK_SIZE, Game, GameError, Player, PlayerCount, Square, Station, Tile,
    TileInfo,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub mod http;
pub mod replay;
mod review;
mod view;
pub mod viewer;

pub use view::*;

pub use viewer::LineView;

use crate::error::{ApiError, Refusal};
use crate::game::{ChallengeKind, Period, TieBreakRule, default_level};
use crate::rules::{Capabilities, Computer, Replay, Rules, SeatResult, Turns};
use crate::table::{SeatView, Table};

/// The fewest players a game of Metro has.
pub const MIN_PLAYERS: usize = 2;
/// The most players a game of Metro has.
pub const MAX_PLAYERS: usize = 6;

/// One seat's move, as `POST /api/metro/games/{id}/act` sends it:
/// `{"action":"draw"}`, `{"action":"keep"}`, `{"action":{"place":"03"},"tile":"cbaa"}`. The log
/// keeps only the action (`"draw"`, `{"place":"03"}`), and reads either.
#[derive(Debug, Clone, Copy)]
pub struct SeatMove {
    pub action: Action,
    /// With a placement: the tile the page means to place (a `409` if another is to be placed).
    pub tile: Option<Tile>,
}

impl Serialize for SeatMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.action.serialize(s)
    }
}

impl<'de> Deserialize<'de> for SeatMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SeatMove, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Sent {
            action: Action,
            tile: Option<Tile>,
        }
        use serde::de::Error;
        let value = serde_json::Value::deserialize(d)?;
        if value.get("action").is_some() {
            let Sent { action, tile } = Sent::deserialize(value).map_err(D::Error::custom)?;
            Ok(SeatMove { action, tile })
        } else {
            let action = Action::deserialize(value).map_err(D::Error::custom)?;
            Ok(SeatMove { action, tile: None })
        }
    }
}

/// Metro's periodic challenge: a daily (counted in streaks), listed after Railroad Ink's daily,
/// weekly and monthly ones.
const CHALLENGES: &[ChallengeKind] =
    &[ChallengeKind::new("metro-daily", Period::Day, "Daily {game}", 30).counted_in_streaks()];

/// How a leaderboard breaks ties between equal scores.
pub const TIE_BREAK: TieBreakRule = TieBreakRule::most("margin");

/// The player of seat `seat`.
fn player(seat: usize) -> Result<Player, ApiError> {
    Player::from_index(seat).ok_or_else(|| ApiError::Internal(format!("seat {seat} is no player")))
}

impl Rules for Game {
    const KIND: &'static str = "metro";
    const NAME: &'static str = "Metro";
    const SEATS: (usize, usize) = (MIN_PLAYERS, MAX_PLAYERS);
    type Options = ();
    type Action = SeatMove;
    type View = GameView;

    fn setup(_: &(), seats: usize, seed: u64) -> Result<Game, String> {
        let players = (u8::try_from(seats).ok())
            .and_then(PlayerCount::new)
            .ok_or_else(|| format!("a game of Metro has 2 to 6 players, not {seats}"))?;
        Ok(Game::new(Config::new(players), seed))
    }

    /// The seat's action, after the engine accepts it. `tile`, when given with a placement, is
    /// the tile the page means to place: if the tile to place is another (the page's state is
    /// stale), nothing happens.
    fn act(&self, seat: usize, m: &SeatMove) -> Result<Game, ApiError> {
        let player = player(seat)?;
        if let (Action::Place(_), Some(expected)) = (m.action, m.tile) {
            match self.tile_to_place() {
                Some(now) if self.turn() == Some(player) && now != expected => {
                    return Err(ApiError::Conflict(format!(
                        "the tile to place is {now}, not {expected}"
                    )));
                }
                _ => {}
            }
        }
        let mut next = self.clone();
        next.play(player, m.action)?;
        Ok(next)
    }

    fn to_act(&self) -> Vec<usize> {
        self.turn().map(Player::index).into_iter().collect()
    }

    fn results(&self) -> Option<Vec<SeatResult>> {
        replay::results(self)
    }

    fn view(&self, table: &Table, seat: Option<usize>) -> GameView {
        view(self, table, seat)
    }

    const CAPABILITIES: Capabilities<Game> = Capabilities {
        computer: Some(Computer {
            levels: &ai::AGENTS,
            choose: |game, seat, level, seed| vec![choose(game, seat, level, seed)],
            challenge_game: None,
        }),
        challenges: CHALLENGES,
        // The person against three strong computers.
        challenge_seats: 4,
        tie_break: TIE_BREAK,
        share_grid: Some(share_grid),
        replay: Some(Replay {
            step: replay::step,
            end: replay::end,
            seat: None,
        }),
        review: Some(review::review),
        turns: Some(Turns {
            turn: |game| game.placements().len() as u64,
            live_seconds: 30,
            called: "turn",
        }),
        // A person against computers, played in the page with no connection.
        offline: true,
        ..Capabilities::NONE
    };
}

/// Eight rows of eight: 🟩 a tile the seat placed, 🟦 another's, ⬛ the centre, ⬜ empty.
fn share_grid(game: &Game, seat: usize) -> Vec<String> {
    let mine: std::collections::HashSet<metro::Square> = (game.events().iter())
        .filter_map(|e| match e {
            metro::Event::Placed { player, placement } if player.index() == seat => {
                Some(placement.square)
            }
            _ => None,
        })
        .collect();
    let board = game.board();
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

// ---------------------------------------------------------------------------------------
// Computer seats.

/// The seed of a computer seat's agent: the game's seed mixed with the seat. Its choices then
/// follow from the game and what the seat may see, so a replay is the same game.
fn choose(game: &Game, seat: usize, level: &str, _: u64) -> SeatMove {
    let action = match player(seat) {
        Ok(player) => metro::view::computer(game, player, level).unwrap_or_else(|fallback| {
            tracing::error!(%level, seat, why = %fallback.why, "the computer player fell back on the first legal action");
            fallback.action
        }),
        Err(_) => (game.legal_actions().first().copied()).unwrap_or(Action::Draw),
    };
    SeatMove { action, tile: None }
}

// ---------------------------------------------------------------------------------------
// Refusals.

/// Each refusal of the engine's names its rule with a short, stable name.
impl Refusal for GameError {
    fn rule(&self) -> &'static str {
        GameError::rule(self)
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
