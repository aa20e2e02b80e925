//! What a seat sees of a game and may do now, as the engine answers it: each player's board
//! with its score and rounds ([`BoardView`]), and for a seat the round's dice with where each
//! tile is legal, the specials with whether they may be placed, and whether the round may end
//! ([`YouView`]). The server sends these in its game states, and the page's own engine
//! (WebAssembly, for a game with no connection) makes the same, so that the page never guesses
//! a rule either way.

use serde::Serialize;

use crate::board::Board;
use crate::dice::{DICE, EXPANSION_DICE, Roll};
use crate::expansion::Expansion;
use crate::game::{Game, GameError, PlayerState};
use crate::placement::Placement;
use crate::score::{Breakdown, Score};
use crate::square::Square;
use crate::tile::{Orientation, Tile};

/// One player's board as everyone sees it.
#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
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
    /// Whether a special was placed this round.
    pub special_this_round: bool,
    /// The board's score.
    pub score: Score,
    /// What the score is made of, for drawing.
    pub breakdown: Breakdown,
}

/// What a seat may do now.
#[derive(Debug, Clone, Serialize)]
pub struct YouView {
    /// The seat.
    pub seat: usize,
    /// The dice of this round, each with where its tile may go.
    pub dice: Vec<DieView>,
    /// The six specials, each with whether it may be placed now and where.
    pub specials: Vec<SpecialView>,
    /// Whether the seat may take back its last placement of this round.
    pub can_undo: bool,
    /// Whether the seat may end its round now, and why not.
    pub end_round: Permission,
    /// Whether the seat has ended this round.
    pub round_done: bool,
}

/// One die of the round, as a seat sees it.
#[derive(Debug, Clone, Serialize)]
pub struct DieView {
    /// 0–2 die A, 3 die B, 4–5 the expansion's dice.
    pub die: usize,
    /// The tile it shows.
    pub tile: Tile,
    /// Whether the seat has placed it this round.
    pub used: bool,
    /// An expansion die: placed or not, as the player likes (rule X3); absent for route dice.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// For each orientation 0–7, the squares where the tile is legal, written one after
    /// another (`"A1D0"` is A1 and D0); empty when the die is used.
    pub legal: Vec<String>,
}

/// One special, as a seat sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SpecialView {
    /// The special.
    pub tile: Tile,
    /// Already on the board.
    pub used: bool,
    /// May be placed now (before legality).
    pub allowed: bool,
    /// Why not, when not allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The short name of the rule that says why not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// For each orientation 0–7, the squares where it is legal, written one after another;
    /// empty when not allowed.
    pub legal: Vec<String>,
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

/// The number of dice a round of the game rolls: four, or six with an expansion.
pub fn dice_count(game: &Game) -> usize {
    match game.expansion() {
        Expansion::None => DICE,
        _ => DICE + EXPANSION_DICE,
    }
}

/// The tiles of the current round's dice (three die A, then die B, then with an expansion its
/// two optional dice); empty once over.
pub fn dice(roll: Option<Roll>) -> Vec<Tile> {
    roll.map(|r| r.all_dice().map(|(_, t)| t).collect())
        .unwrap_or_default()
}

/// Which of the round's dice are optional (an expansion's two dice, rule X3): none in a base
/// game or once over.
pub fn optional_dice(game: &Game) -> Vec<usize> {
    match game.roll() {
        Some(_) => (DICE..dice_count(game)).collect(),
        None => Vec::new(),
    }
}

/// A board's flooded squares, in order (rule E3.3).
pub fn flooded(board: &Board) -> Vec<Square> {
    let mask = board.flooded();
    Square::all().filter(|s| mask & s.bit() != 0).collect()
}

/// The squares of a mask, written one after another: `"A1D0"`.
pub fn squares(mask: u64) -> String {
    let mut out = String::with_capacity(2 * mask.count_ones() as usize);
    for s in Square::all().filter(|s| mask & s.bit() != 0) {
        out.push(s.row_letter());
        out.push(char::from(b'0' + s.column()));
    }
    out
}

/// For each orientation 0–7, the squares where `tile` is legal on `board`.
pub fn legal_by_orientation(board: &Board, tile: Tile) -> Vec<String> {
    Orientation::ALL
        .iter()
        .map(|&o| squares(board.legal_squares(tile, o)))
        .collect()
}

/// A player's board as everyone sees it, in `game`.
pub fn board_view(game: &Game, player: &PlayerState) -> BoardView {
    let board = player.board();
    BoardView {
        board: board.to_string(),
        rounds: player.rounds(),
        round_done: player.round_done(),
        dice_used: (0..dice_count(game))
            .map(|d| player.dice_used() & (1 << d) != 0)
            .collect(),
        flooded: flooded(board),
        specials: Tile::SPECIALS
            .into_iter()
            .filter(|&t| board.has_special(t))
            .collect(),
        special_this_round: player.special_this_round(),
        score: board.score(),
        breakdown: board.breakdown(),
    }
}

/// What `seat` may do now (none for a seat the game does not have).
pub fn you(game: &Game, seat: usize) -> Option<YouView> {
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
            // The engine's own answer, the rules it checks before a special's placement.
            let refusal = game.special_allowed(seat, tile).err();
            let allowed = refusal.is_none();
            SpecialView {
                tile,
                used: board.has_special(tile),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Dice, Setup};

    #[test]
    fn squares_are_written_one_after_another() {
        let a1 = Square::new(0, 1).expect("A1");
        let d0 = Square::new(3, 0).expect("D0");
        assert_eq!(squares(a1.bit() | d0.bit()), "A1D0");
        assert_eq!(squares(0), "");
    }

    #[test]
    fn a_new_game_offers_every_die_and_the_round_may_not_end() {
        let game = Game::new(Setup {
            players: 1,
            dice: Dice::Seed(42),
        });
        let you = you(&game, 0).expect("seat 0");
        assert_eq!(you.dice.len(), 4);
        assert!(you.dice.iter().all(|d| !d.used && d.legal.len() == 8));
        assert!(
            you.dice
                .iter()
                .any(|d| d.legal.iter().any(|l| !l.is_empty()))
        );
        assert!(!you.can_undo);
        assert!(!you.end_round.allowed);
        assert_eq!(
            you.end_round.rule,
            Some("every die placed unless none fits")
        );
        assert!(self::you(&game, 1).is_none(), "no seat 1");
        let player = game.player(0).expect("seat 0");
        let view = board_view(&game, player);
        assert_eq!(view.board, "");
        assert_eq!(view.dice_used, vec![false; 4]);
    }

    #[test]
    fn a_placement_shows_on_the_board_and_may_be_undone() {
        let mut game = Game::new(Setup {
            players: 1,
            dice: Dice::Seed(42),
        });
        let you = you(&game, 0).expect("seat 0");
        let die = you
            .dice
            .iter()
            .find(|d| !d.legal[0].is_empty())
            .expect("a die fits");
        let placement: Placement = format!("{}{}0", die.tile, &die.legal[0][..2])
            .parse()
            .expect("a placement");
        game.act(0, Action::Place { placement }).expect("legal");
        let after = self::you(&game, 0).expect("seat 0");
        assert!(after.can_undo);
        assert!(after.dice[die.die].used);
        let view = board_view(&game, game.player(0).expect("seat 0"));
        assert_eq!(view.board, placement.to_string());
        assert!(view.dice_used[die.die]);
    }
}
