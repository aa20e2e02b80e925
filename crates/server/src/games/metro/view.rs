//! What the page sees of a game of Metro: its state as each seat may see it, and the tile table
//! for drawing.

use super::*;

/// The state of a game, as `GET /api/metro/games/{id}` sends it after the header every game's
/// state begins with (the id, the version, whether it is over and who won, the seed, the
/// challenge: see [`crate::game::ViewHeader`]).
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    pub players: Vec<PlayerView>,
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
    /// `seats` for an ordinary game, `challenge` for a person's game in a challenge,
    /// `practice` for a practice game on a closed challenge's deck.
    pub mode: &'static str,
    /// Seats for invited people that nobody has taken yet.
    pub open_seats: Vec<usize>,
    /// What the asking seat holds and may do now (with its token).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<YouView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    /// The seat, as every game shows it.
    #[serde(flatten)]
    pub seat: SeatView,
    /// Whether the player holds a tile (which one, only the player sees).
    pub holding: bool,
    pub score: u32,
    /// The perimeter stations the player owns.
    pub stations: Vec<Station>,
}

/// One action as everyone may see it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Move {
    Draw {
        seat: usize,
    },
    Keep {
        seat: usize,
    },
    Place {
        seat: usize,
        tile: Tile,
        square: Square,
    },
    /// Nothing left to draw or hold: the turn passed.
    Pass {
        seat: usize,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct YouView {
    pub seat: usize,
    pub your_turn: bool,
    /// The tile in the seat's hand.
    pub hand: Option<Tile>,
    /// The tile the seat drew this turn and has not placed or kept yet.
    pub drawn: Option<Tile>,
    /// The tile a placement would place now: the one drawn, else the one in hand.
    pub tile: Option<Tile>,
    /// The squares where `tile` is legal, written one after another (`"0001"` is 00 and 01).
    pub legal: String,
    pub draw: Permission,
    pub keep: Permission,
    /// Whether there is a tile to place now (where, `legal` says).
    pub place: Permission,
}

/// The squares of a set, written one after another.
pub(super) fn squares(set: metro::SquareSet) -> String {
    set.iter().map(|s| s.to_string()).collect()
}

pub(super) fn moves(game: &Game) -> Vec<Move> {
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

/// The state as `seat` (if any) sees it at `table`: never another seat's hand or draw, nor the
/// seed before the end.
pub fn view(game: &Game, table: &Table, seat: Option<usize>) -> GameView {
    let count = game.players();
    let score = game.score();
    let players = (table.seat_views().into_iter())
        .map(|s| {
            let player = Player::from_index(s.seat);
            PlayerView {
                seat: s,
                holding: player.is_some_and(|p| game.hand(p).is_some()),
                score: player.map_or(0, |p| score.total(p)),
                stations: player
                    .map(|p| count.stations(p).collect())
                    .unwrap_or_default(),
            }
        })
        .collect();
    GameView {
        players,
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
        mode: table.mode(crate::rules::SEATS_MODE),
        open_seats: table.open_seats().collect(),
        you: seat.and_then(|seat| you(game, seat)),
    }
}

/// The engine's answer to `action` by `player` now, tried on a copy.
pub(super) fn try_action(game: &Game, player: Player, action: Action) -> Result<(), GameError> {
    game.clone().play(player, action).map(|_| ())
}

pub(super) fn you(game: &Game, seat: usize) -> Option<YouView> {
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

// ---------------------------------------------------------------------------------------
// The tile table, for drawing.

/// `GET /api/metro/tiles`: the engine's tiles and board, for drawing and for the start screen.
#[derive(Debug, Clone, Serialize)]
pub struct TileTable {
    /// The 24 tile types: code, copies, and the four tracks as (entry exit, way-out exit).
    pub tiles: Vec<TileInfo>,
    /// The 32 perimeter stations: the square each faces and the side facing it (0–3).
    pub stations: Vec<StationInfo>,
    /// The four centre squares (the central stations).
    pub centre: Vec<Square>,
    /// `owners[n - 2][s - 1]`: the seat owning station `s` in a game of `n` players.
    pub owners: Vec<Vec<Option<usize>>>,
    /// The computer players, weakest first.
    pub levels: Vec<&'static str>,
    pub default_level: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    /// Tiles in the deck.
    pub deck: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct StationInfo {
    pub station: Station,
    pub square: Square,
    pub side: u8,
}

pub fn tile_table() -> TileTable {
    TileTable {
        tiles: Tile::catalogue().to_vec(),
        stations: Station::all()
            .map(|s| StationInfo {
                station: s,
                square: s.square(),
                side: s.side().index() as u8,
            })
            .collect(),
        centre: CENTRE.iter().collect(),
        owners: PlayerCount::all()
            .map(|n| {
                Station::all()
                    .map(|s| n.owner(s).map(Player::index))
                    .collect()
            })
            .collect(),
        levels: ai::AGENTS.to_vec(),
        default_level: default_level(&ai::AGENTS),
        min_players: MIN_PLAYERS,
        max_players: MAX_PLAYERS,
        deck: DECK_SIZE,
    }
}
