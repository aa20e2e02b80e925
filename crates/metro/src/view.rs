//! What a seat sees of a game and may do now, as the engine answers it: the board's lines and
//! scores, the moves everyone saw ([`BoardView`]), each seat's hand and stations
//! ([`SeatState`]), and for a seat its tile and where it is legal, and whether it may draw,
//! keep or place ([`YouView`]). The server sends these in its game states, and the page's own
//! engine (WebAssembly, for a game with no connection) makes the same, so that the page never
//! guesses a rule either way. The computer's choice for a seat is here too ([`computer`]), the
//! same on both.

use serde::Serialize;

use crate::ai;
use crate::board::Board;
use crate::game::{Action, Event, Game, GameError, Phase};
use crate::placement::Sequence;
use crate::score::{Line, LineEnd, StationLine};
use crate::square::Player;
use crate::square::{Square, SquareSet, Station};
use crate::tile::Tile;

/// The board as everyone sees it.
#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
    /// The seat whose turn it is; `None` once the game is over.
    pub turn: Option<usize>,
    /// Where the turn stands: `start`, `drawn`, `must_place` or `over`.
    pub phase: Phase,
    /// Every placement in order (the rules' placement sequence).
    pub sequence: Sequence,
    /// Tiles left to draw.
    pub deck_left: usize,
    /// Every player's score now, seat 0 first.
    pub scores: Vec<u32>,
    /// The line of each of the 32 perimeter stations, station 1 first.
    pub lines: Vec<LineView>,
    /// Every action so far, as everyone may see it (a draw or a keep does not show the tile).
    pub moves: Vec<Move>,
}

/// What one seat holds, as everyone sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SeatState {
    /// Whether the player holds a tile (which one, only the player sees).
    pub holding: bool,
    /// The player's score now.
    pub score: u32,
    /// The perimeter stations the player owns.
    pub stations: Vec<Station>,
}

/// One action as everyone may see it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Move {
    /// A tile drawn (which, only its player saw).
    Draw {
        /// The seat.
        seat: usize,
    },
    /// The drawn tile kept in hand.
    Keep {
        /// The seat.
        seat: usize,
    },
    /// A tile placed.
    Place {
        /// The seat.
        seat: usize,
        /// The tile.
        tile: Tile,
        /// Where.
        square: Square,
    },
    /// Nothing left to draw or hold: the turn passed.
    Pass {
        /// The seat.
        seat: usize,
    },
}

/// What a seat holds and may do now.
#[derive(Debug, Clone, Serialize)]
pub struct YouView {
    /// The seat.
    pub seat: usize,
    /// Whether it is the seat's turn.
    pub your_turn: bool,
    /// The tile in the seat's hand.
    pub hand: Option<Tile>,
    /// The tile the seat drew this turn and has not placed or kept yet.
    pub drawn: Option<Tile>,
    /// The tile a placement would place now: the one drawn, else the one in hand.
    pub tile: Option<Tile>,
    /// The squares where `tile` is legal, written one after another (`"0001"` is 00 and 01).
    pub legal: String,
    /// Whether the seat may draw now, and why not.
    pub draw: Permission,
    /// Whether the seat may keep its drawn tile, and why not.
    pub keep: Permission,
    /// Whether there is a tile to place now (where, `legal` says).
    pub place: Permission,
}

/// Whether the seat may do something now and, if not, the engine's reason and its rule.
#[derive(Debug, Clone, Serialize)]
pub struct Permission {
    /// Whether it may.
    pub allowed: bool,
    /// Why not, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The short name of the rule that says why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
}

impl Permission {
    /// The engine's answer (`Ok` or its refusal) as a permission.
    pub fn of(result: Result<(), GameError>) -> Permission {
        match result {
            Ok(()) => Permission {
                allowed: true,
                reason: None,
                rule: None,
            },
            Err(e) => Permission {
                allowed: false,
                reason: Some(e.to_string()),
                rule: Some(e.rule()),
            },
        }
    }
}

/// The line that starts at one perimeter station (rules §7).
#[derive(Debug, Clone, Serialize)]
pub struct LineView {
    /// The station.
    pub station: Station,
    /// The seat that scores it; `None` for stations 16 and 17 with 3, 5 or 6 players.
    pub owner: Option<usize>,
    /// The squares it passes, in order (a square twice if it passes a tile twice).
    pub squares: Vec<Square>,
    /// For each of `squares`, the side it enters by (0 top, 1 right, 2 bottom, 3 left): its
    /// track in that tile starts at exit `2 × side`.
    pub entries: Vec<u8>,
    /// Tile traversals.
    pub length: u32,
    /// `{"kind":"centre","square":…}`, `{"kind":"station","station":…}` or
    /// `{"kind":"unfinished","square":…}`.
    pub end: LineEnd,
    /// Its score: twice its length at the centre, its length at a station, 0 if unfinished.
    pub points: u32,
}

impl LineView {
    /// A scored line of `board`.
    pub fn of(board: &Board, l: &StationLine) -> LineView {
        LineView {
            station: l.line.station,
            owner: l.owner.map(Player::index),
            squares: l.line.squares.clone(),
            entries: entries(board, &l.line),
            length: l.line.length,
            end: l.line.end,
            points: l.line.points,
        }
    }
}

/// The side each square of a line is entered by.
fn entries(board: &Board, line: &Line) -> Vec<u8> {
    let mut side = line.station.side();
    line.squares
        .iter()
        .map(|&sq| {
            let entry = side;
            if let Some(tile) = board.tile(sq) {
                side = tile.way_out(entry).opposite();
            }
            entry.index() as u8
        })
        .collect()
}

/// The squares of a set, written one after another.
pub fn squares(set: SquareSet) -> String {
    set.iter().map(|s| s.to_string()).collect()
}

/// Every action so far, as everyone may see it.
pub fn moves(game: &Game) -> Vec<Move> {
    game.events()
        .iter()
        .filter_map(|e| match *e {
            Event::Drew { player, .. } => Some(Move::Draw {
                seat: player.index(),
            }),
            Event::Kept { player, .. } => Some(Move::Keep {
                seat: player.index(),
            }),
            Event::Placed { player, placement } => Some(Move::Place {
                seat: player.index(),
                tile: placement.tile,
                square: placement.square,
            }),
            Event::Passed { player } => Some(Move::Pass {
                seat: player.index(),
            }),
            Event::Ended => None,
        })
        .collect()
}

/// The board as everyone sees it.
pub fn board_view(game: &Game) -> BoardView {
    let score = game.score();
    BoardView {
        turn: game.turn().map(Player::index),
        phase: game.phase(),
        sequence: game.sequence(),
        deck_left: game.tiles_left(),
        scores: score.totals.clone(),
        lines: score
            .lines
            .iter()
            .map(|l| LineView::of(game.board(), l))
            .collect(),
        moves: moves(game),
    }
}

/// What `seat` holds, as everyone sees it (nothing for a seat that is no player's).
pub fn seat_state(game: &Game, seat: usize) -> SeatState {
    let player = Player::from_index(seat).filter(|p| p.index() < game.players().get() as usize);
    SeatState {
        holding: player.is_some_and(|p| game.hand(p).is_some()),
        score: player.map_or(0, |p| game.score().total(p)),
        stations: player
            .map(|p| game.players().stations(p).collect())
            .unwrap_or_default(),
    }
}

/// The engine's answer to `action` by `player` now, tried on a copy.
pub fn try_action(game: &Game, player: Player, action: Action) -> Result<(), GameError> {
    game.clone().play(player, action).map(|_| ())
}

/// What `seat` holds and may do now (none for a seat that is no player's).
pub fn you(game: &Game, seat: usize) -> Option<YouView> {
    let player = Player::from_index(seat)?;
    let view = game.view(Some(player));
    let your_turn = game.turn() == Some(player);
    let tile = if your_turn {
        game.tile_to_place()
    } else {
        None
    };
    // Whether a placement is possible at all: the engine's answer for some square, where only
    // the square's legality may refuse it (then `legal` says where it is legal).
    let place = match try_action(game, player, Action::Place(Square::ALL[0])) {
        Err(GameError::IllegalPlacement(_)) => Ok(()),
        other => other,
    };
    Some(YouView {
        seat,
        your_turn,
        hand: view.hand,
        drawn: view.drawn,
        tile,
        legal: squares(view.legal_squares),
        draw: Permission::of(try_action(game, player, Action::Draw)),
        keep: Permission::of(try_action(game, player, Action::Keep)),
        place: Permission::of(place),
    })
}

/// The seed a computer player of `player` draws its lots from in a game on `game_seed`.
fn agent_seed(game_seed: u64, player: Player) -> u64 {
    ai::mix(game_seed ^ ai::mix(player.index() as u64 + 1))
}

/// Why the computer played the first legal action instead of its own.
#[derive(Debug, Clone)]
pub struct Fallback {
    /// The first legal action, played instead.
    pub action: Action,
    /// Why, in words.
    pub why: String,
}

/// The computer's action for `player` at `level` (one of [`ai::AGENTS`]) now: the agent's; or,
/// for a level it does not know or an action the rules refuse, the first legal one, and why.
pub fn computer(game: &Game, player: Player, level: &str) -> Result<Action, Fallback> {
    let fallback = |why: String| Fallback {
        action: game
            .legal_actions()
            .first()
            .copied()
            .unwrap_or(Action::Draw),
        why,
    };
    let Some(mut agent) = ai::agent_by_name(level, agent_seed(game.seed(), player), None) else {
        return Err(fallback(format!("no computer player is called {level}")));
    };
    let action = agent.act(&game.view(Some(player)));
    try_action(game, player, action)
        .map(|()| action)
        .map_err(|e| fallback(format!("it chose {action}, which the rules refuse: {e}")))
}
