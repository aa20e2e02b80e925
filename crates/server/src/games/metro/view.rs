//! What the page sees of a game of Metro: its state as each seat may see it, and the tile table
//! for drawing.

use super::*;

/// The state of a game, as `GET /api/metro/games/{id}` sends it after the header every game's
/// state begins with (the id, the version, whether it is over and who won, the seed, the
/// challenge: see [`crate::game::ViewHeader`]).
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    pub players: Vec<PlayerView>,
    /// The board, the turn and the moves: the engine's view.
    #[serde(flatten)]
    pub board: BoardView,
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
    /// What the seat holds: the engine's view.
    #[serde(flatten)]
    pub state: SeatState,
}

/// The state as `seat` (if any) sees it at `table`: never another seat's hand or draw, nor the
/// seed before the end.
pub fn view(game: &Game, table: &Table, seat: Option<usize>) -> GameView {
    let players = (table.seat_views().into_iter())
        .map(|s| {
            let state = seat_state(game, s.seat);
            PlayerView { seat: s, state }
        })
        .collect();
    GameView {
        players,
        board: board_view(game),
        mode: table.mode(crate::rules::SEATS_MODE),
        open_seats: table.open_seats().collect(),
        you: seat.and_then(|seat| you(game, seat)),
    }
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
