//! What the page sees of a game of Railroad Ink: its state as each seat may see it.

use super::*;

/// The state of a game, as `GET /api/ink/games/{id}` sends it (after the header every game's
/// view has: see [`crate::rules::RuledView`]).
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    /// `solo`, `computer`, `online`, `challenge` or `practice`.
    pub mode: &'static str,
    /// Whether the rounds have begun (an online game waits in its lobby until its creator,
    /// seat 0, starts it; until then it has no dice).
    pub started: bool,
    /// The Deep Blue expansion (`lake` or `river`); absent in a base game.
    #[serde(skip_serializing_if = "is_base")]
    pub expansion: Expansion,
    /// The current round, 0–6 (0–5 with an expansion); `rounds` once the game is over.
    pub round: usize,
    /// 7, or 6 with an expansion (rule X1).
    pub rounds: usize,
    /// The tiles of the current round's dice (three die A, then die B, then with an expansion
    /// its two optional dice); empty once over.
    pub dice: Vec<Tile>,
    /// Which of `dice` are optional (an expansion's two dice, rule X3); absent in a base game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub optional_dice: Vec<usize>,
    /// The current round's roll, as in `A1A4A4B0` (`A1A4A4B0L2L5` with an expansion).
    pub roll: Option<Roll>,
    /// The players ([`PlayerView`] each), written once a version.
    pub players: Written,
    /// What the asking seat may do now (with its token): a [`YouView`], written once for what
    /// it depends on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Written>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub seat: usize,
    pub name: String,
    pub kind: &'static str,
    /// A computer seat's player (one of the table's `levels`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The board string: every placement in order.
    pub board: String,
    /// The placements of each round so far, the current one last.
    pub rounds: Vec<Vec<Placement>>,
    /// Whether the player has ended the current round.
    pub round_done: bool,
    /// Which of this round's dice the player has placed (four, or six with an expansion).
    pub dice_used: Vec<bool>,
    /// The flooded squares (rule E3.3): made by the engine, never in the board string; absent
    /// when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flooded: Vec<Square>,
    /// The specials on the board.
    pub specials: Vec<Tile>,
    pub special_this_round: bool,
    pub score: Score,
    pub breakdown: Breakdown,
}

#[derive(Debug, Clone, Serialize)]
pub struct YouView {
    pub seat: usize,
    /// The dice of this round, each with where its tile may go.
    pub dice: Vec<DieView>,
    /// The six specials, each with whether it may be placed now and where.
    pub specials: Vec<SpecialView>,
    pub can_undo: bool,
    pub end_round: Permission,
    pub round_done: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct DieView {
    /// 0–2 die A, 3 die B, 4–5 the expansion's dice.
    pub die: usize,
    pub tile: Tile,
    pub used: bool,
    /// An expansion die: placed or not, as the player likes (rule X3); absent for route dice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// For each orientation 0–7, the squares where the tile is legal, written one after
    /// another (`"A1D0"` is A1 and D0); empty when the die is used.
    pub legal: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SpecialView {
    pub tile: Tile,
    /// Already on the board.
    pub used: bool,
    /// May be placed now (before legality).
    pub allowed: bool,
    /// Why not, when not allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// For each orientation 0–7, the squares where it is legal, written one after another;
    /// empty when not allowed.
    pub legal: Vec<String>,
}

/// The number of dice a round of the game rolls: four, or six with an expansion.
pub(super) fn dice_count(game: &Game) -> usize {
    match game.expansion() {
        Expansion::None => DICE,
        _ => DICE + EXPANSION_DICE,
    }
}

/// A board's flooded squares, in order (rule E3.3).
pub(crate) fn flooded(board: &railroad_ink::Board) -> Vec<Square> {
    let mask = board.flooded();
    Square::all().filter(|s| mask & s.bit() != 0).collect()
}

/// The squares of a mask, written one after another: `"A1D0"`.
pub(super) fn squares(mask: u64) -> String {
    let mut out = String::with_capacity(2 * mask.count_ones() as usize);
    for s in Square::all().filter(|s| mask & s.bit() != 0) {
        out.push(s.row_letter());
        out.push(char::from(b'0' + s.column()));
    }
    out
}

pub(super) fn legal_by_orientation(board: &railroad_ink::Board, tile: Tile) -> Vec<String> {
    Orientation::ALL
        .iter()
        .map(|&o| squares(board.legal_squares(tile, o)))
        .collect()
}

/// The state as `seat` (if any) sees it at `table`. Later rolls are never in it.
pub fn view(ink: &Ink, table: &Table, seat: Option<usize>) -> GameView {
    let game = &ink.game;
    let waiting = table.waiting();
    let started = waiting.is_none();
    GameView {
        mode: table.mode(mode(table)),
        started,
        expansion: game.expansion(),
        round: game.round(),
        rounds: game.rounds(),
        dice: if started {
            game.roll()
                .map(|r| r.all_dice().map(|(_, t)| t).collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        },
        optional_dice: if started && game.roll().is_some() {
            (DICE..dice_count(game)).collect()
        } else {
            Vec::new()
        },
        roll: game.roll().filter(|_| started),
        // A finished game's parts are written each time, not kept: it is rarely asked for
        // again, and a server holds thousands of them for a minute after their end.
        players: if game.is_finished() {
            Written::of(&player_views(game, table))
        } else {
            (ink.players_json).get_or_write(0, game.actions().len(), || player_views(game, table))
        },
        you: seat.and_then(|seat| {
            if let Some(why) = &waiting {
                return Some(Written::of(&lobby_you(why, seat)));
            }
            let p = game.player(seat).ok()?;
            let key = YouKey {
                round: game.round(),
                finished: game.is_finished(),
                done: p.round_done(),
                this_round: p.this_round(),
            };
            Some(if key.finished {
                Written::of(&you(game, seat))
            } else {
                ink.yous.get_or_write(seat, key, || you(game, seat))
            })
        }),
    }
}

pub(super) fn player_views(game: &Game, table: &Table) -> Vec<PlayerView> {
    game.players()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seat_info = table.seats.get(i);
            PlayerView {
                seat: i,
                name: seat_info.map_or_else(|| format!("Player {}", i + 1), |s| s.name.clone()),
                kind: match seat_info.map(|s| s.kind) {
                    Some(SeatKind::Computer) => "computer",
                    _ => "human",
                },
                level: seat_info.and_then(|s| s.agent.clone()),
                board: p.board().to_string(),
                rounds: p.rounds(),
                round_done: p.round_done(),
                dice_used: (0..dice_count(game))
                    .map(|d| p.dice_used() & (1 << d) != 0)
                    .collect(),
                flooded: flooded(p.board()),
                specials: Tile::SPECIALS
                    .into_iter()
                    .filter(|&t| p.board().has_special(t))
                    .collect(),
                special_this_round: p.special_this_round(),
                score: p.board().score(),
                breakdown: p.board().breakdown(),
            }
        })
        .collect()
}

/// A seat in a game waiting in its lobby: no dice yet, nothing to place, the round not to end.
pub(super) fn lobby_you(refusal: &str, seat: usize) -> YouView {
    let not_started = "not started";
    YouView {
        seat,
        dice: Vec::new(),
        specials: Tile::SPECIALS
            .into_iter()
            .map(|tile| SpecialView {
                tile,
                used: false,
                allowed: false,
                reason: Some(refusal.to_owned()),
                rule: Some(not_started),
                legal: vec![String::new(); 8],
            })
            .collect(),
        can_undo: false,
        end_round: Permission {
            allowed: false,
            reason: Some(refusal.to_owned()),
            rule: Some(not_started),
        },
        round_done: false,
    }
}

pub(super) fn you(game: &Game, seat: usize) -> Option<YouView> {
    let p = game.player(seat).ok()?;
    let board = p.board();
    let active = !game.is_finished() && !p.round_done();
    let dice = game
        .roll()
        .map(|roll| {
            roll.all_dice()
                .map(|(die, tile)| {
                    let used = p.dice_used() & (1 << die) != 0;
                    DieView {
                        die,
                        tile,
                        used,
                        optional: die >= DICE,
                        legal: if used || !active {
                            vec![String::new(); 8]
                        } else {
                            legal_by_orientation(board, tile)
                        },
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let specials = Tile::SPECIALS
        .into_iter()
        .map(|tile| {
            let used = board.has_special(tile);
            // The engine's own answer, the rules it checks before a special's placement.
            let refusal = game.special_allowed(seat, tile).err();
            let allowed = refusal.is_none();
            SpecialView {
                tile,
                used,
                allowed,
                reason: refusal.as_ref().map(ToString::to_string),
                rule: refusal.as_ref().map(GameError::rule),
                legal: if allowed {
                    legal_by_orientation(board, tile)
                } else {
                    vec![String::new(); 8]
                },
            }
        })
        .collect();
    Some(YouView {
        seat,
        dice,
        specials,
        can_undo: active && !p.this_round().is_empty(),
        end_round: Permission::of(game.can_end_round(seat)),
        round_done: p.round_done(),
    })
}

// ---------------------------------------------------------------------------------------
