//! Railroad Ink's tables for the pages (tiles, exits, the Deep Blue expansions) and a board as a
//! grid to share.

use super::*;

/// `GET /api/ink/tiles`: the engine's tile table and board, for drawing and for the rules.
#[derive(Debug, Clone, Serialize)]
pub struct TileTable {
    pub tiles: Vec<TileInfo>,
    pub exits: Vec<Exit>,
    pub centre: Vec<Square>,
    /// `rotate[o]`: orientation `o` turned a quarter clockwise; `flip[o]`: mirrored.
    pub rotate: Vec<u8>,
    pub flip: Vec<u8>,
    pub rounds: usize,
    pub specials_per_game: usize,
    pub specials_per_round: usize,
    /// Points for a network by the number of exits it reaches.
    pub exit_points: Vec<i32>,
    /// The computer players, for mode `computer`.
    pub levels: Vec<&'static str>,
    pub default_level: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct TileInfo {
    pub tile: Tile,
    pub kind: &'static str,
    pub source: char,
    pub station: bool,
    pub overpass: bool,
    pub special: bool,
    /// For each orientation 0–7, the edges `[N, E, S, W]`.
    pub edges: Vec<[&'static str; 4]>,
    /// The distinct orientations, lowest of each class.
    pub canonical: Vec<u8>,
}

pub(super) fn edge_name(e: Edge) -> &'static str {
    match e {
        Edge::Blank => "blank",
        Edge::Highway => "highway",
        Edge::Railway => "railway",
        Edge::River => "river",
        Edge::Lake => "lake",
    }
}

pub(super) fn tile_info(tile: Tile) -> TileInfo {
    TileInfo {
        tile,
        kind: tile.kind(),
        source: tile.source().letter(),
        station: tile.is_station(),
        overpass: tile.is_overpass(),
        special: tile.is_special(),
        edges: Orientation::ALL
            .iter()
            .map(|&o| tile.edges(o).map(edge_name))
            .collect(),
        canonical: tile
            .canonical_orientations()
            .iter()
            .map(|o| o.digit())
            .collect(),
    }
}

/// `GET /api/ink/expansions`: the Deep Blue expansions' tiles (the river's `V0`–`V3`, the
/// lake's `L0`–`L5`, and the flooded square `F0` the engine makes), for drawing and for the
/// rules; the base game's table is unchanged.
#[derive(Debug, Clone, Serialize)]
pub struct ExpansionTable {
    pub tiles: Vec<TileInfo>,
    pub expansions: Vec<ExpansionInfo>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExpansionInfo {
    pub expansion: Expansion,
    /// The tiles of the expansion's die.
    pub die: Vec<Tile>,
    pub rounds: usize,
    /// The most placements a board holds.
    pub max_placements: usize,
}

pub fn expansion_table() -> ExpansionTable {
    ExpansionTable {
        tiles: Tile::EVERY
            .into_iter()
            .filter(|t| t.is_expansion() || *t == Tile::F0)
            .map(tile_info)
            .collect(),
        expansions: [Expansion::Lake, Expansion::River]
            .into_iter()
            .map(|expansion| ExpansionInfo {
                expansion,
                die: expansion.die_tiles().to_vec(),
                rounds: expansion.rounds(),
                max_placements: expansion.max_placements(),
            })
            .collect(),
    }
}

pub fn tile_table() -> TileTable {
    TileTable {
        tiles: Tile::ALL.into_iter().map(tile_info).collect(),
        exits: EXITS.to_vec(),
        centre: Square::all().filter(|s| s.is_centre()).collect(),
        rotate: Orientation::ALL
            .iter()
            .map(|o| o.then(Orientation::ROTATE).digit())
            .collect(),
        flip: Orientation::ALL
            .iter()
            .map(|o| o.then(Orientation::MIRROR).digit())
            .collect(),
        rounds: Expansion::None.rounds(),
        specials_per_game: SPECIALS_PER_GAME,
        specials_per_round: 1,
        exit_points: EXIT_POINTS.to_vec(),
        levels: ai::AGENTS.to_vec(),
        default_level: default_level(&ai::AGENTS),
    }
}

/// Seven rows of seven: 🟩 a tile with a route, 🟥 a tile with an error on one of its sides (a
/// river's open end included), 🟦 water without a route (a lake or river tile of the
/// expansions, or a flooded square), ⬜ empty.
pub(super) fn share_grid(board: &railroad_ink::Board) -> Vec<String> {
    let (breakdown, routes) = (board.breakdown(), board.route_squares());
    let errors: std::collections::HashSet<_> = breakdown
        .errors
        .iter()
        .map(|e| e.square)
        .chain(breakdown.river_errors.iter().map(|e| e.square))
        .collect();
    (0..7u8)
        .map(|row| {
            (0..7u8)
                .filter_map(|col| Square::new(row, col))
                .map(|sq| match board.get(sq) {
                    None => '⬜',
                    Some(_) if errors.contains(&sq) => '🟥',
                    Some(_) if routes & sq.bit() == 0 => '🟦',
                    Some(_) => '🟩',
                })
                .collect()
        })
        .collect()
}
