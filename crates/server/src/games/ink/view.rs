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

/// A seat's player and board, as everyone sees them.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub seat: usize,
    pub name: String,
    pub kind: &'static str,
    /// A computer seat's player (one of the table's `levels`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The board, its rounds and score: the engine's view.
    #[serde(flatten)]
    pub board: BoardView,
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
            railroad_ink::view::dice(game.roll())
        } else {
            Vec::new()
        },
        optional_dice: if started {
            railroad_ink::view::optional_dice(game)
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
                board: board_view(game, p),
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

// ---------------------------------------------------------------------------------------
