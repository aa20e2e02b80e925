//! Railroad Ink's operations for the page.

use railroad_ink::view::{self, BoardView, YouView};
use railroad_ink::{Action, Board, BoardError, Dice, Expansion, Game, Roll, Sequence, Setup};
use serde::Serialize;
use serde_json::json;

use crate::Answer;

/// The expansion of a request (`lake`, `river`; the base game when absent).
fn expansion(name: Option<&str>) -> Result<Expansion, String> {
    match name {
        None => Ok(Expansion::None),
        Some(name) => name.parse().map_err(|e| format!("expansion: {e}")),
    }
}

/// A solo game as its one seat sees it: what the server's game state says of the game, its
/// player's board and what the seat may do (the engine's views, as the server sends them).
#[derive(Serialize)]
struct Solo {
    round: usize,
    rounds: usize,
    finished: bool,
    roll: Option<Roll>,
    dice: Vec<railroad_ink::Tile>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    optional_dice: Vec<usize>,
    player: BoardView,
    you: Option<YouView>,
}

/// A solo game on the dice of `seed` after `actions` (`ink.play`): the state as its seat sees
/// it, or the first action the engine refuses (`refused`: its index, why, and the rule's name).
pub fn play(expansion_name: Option<&str>, seed: &str, actions: &[Action]) -> Answer {
    let expansion = expansion(expansion_name)?;
    let seed: u64 = seed
        .trim()
        .parse()
        .map_err(|_| format!("seed: {seed:?} is not a whole number from 0 to 2^64 - 1"))?;
    let setup = Setup {
        players: 1,
        dice: Dice::Seed(seed),
    };
    let mut game = Game::with_expansion(setup, expansion);
    for (index, action) in actions.iter().enumerate() {
        if let Err(e) = game.act(0, *action) {
            return Ok(json!({
                "refused": { "index": index, "error": e.to_string(), "rule": e.rule() }
            }));
        }
    }
    let player = game.player(0).map_err(|e| e.to_string())?;
    let solo = Solo {
        round: game.round(),
        rounds: game.rounds(),
        finished: game.is_finished(),
        roll: game.roll(),
        dice: view::dice(game.roll()),
        optional_dice: view::optional_dice(&game),
        player: view::board_view(&game, player),
        you: view::you(&game, 0),
    };
    serde_json::to_value(solo).map_err(|e| e.to_string())
}

/// A board string checked and scored (`ink.board`): the score of a legal board, else whether
/// it is well formed, the first illegal placement's index (0-based) and why, in words.
pub fn board(text: &str, expansion_name: Option<&str>) -> Answer {
    let expansion = expansion(expansion_name)?;
    Ok(match Board::parse_in(text, expansion) {
        Ok(board) => {
            json!({ "valid": true, "score": board.score(), "breakdown": board.breakdown() })
        }
        Err(e) => json!({
            "valid": false,
            "well_formed": Sequence::parse_in(text, expansion).is_ok(),
            "first_illegal_index": match &e {
                BoardError::Illegal(illegal) => Some(illegal.index),
                BoardError::Malformed(_) => None,
            },
            "reason": e.to_string(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legal_board_scores_as_the_engine_does() {
        let text = "A2B65B2B52A3D04A0A37";
        let got = board(text, None).expect("an answer");
        assert_eq!(got["valid"], true);
        let want = text.parse::<Board>().expect("legal").score();
        assert_eq!(got["score"], serde_json::to_value(want).expect("JSON"));
    }

    #[test]
    fn an_illegal_board_names_its_first_illegal_placement() {
        // The second placement repeats the first one's square.
        let got = board("A2B65A2B65", None).expect("an answer");
        assert_eq!(got["valid"], false);
        assert_eq!(got["well_formed"], true);
        assert_eq!(got["first_illegal_index"], 1);
        assert!(got["reason"].as_str().is_some_and(|e| !e.is_empty()));
        let got = board("Z9", None).expect("an answer");
        assert_eq!(got["well_formed"], false);
        assert_eq!(got["first_illegal_index"], serde_json::Value::Null);
    }

    #[test]
    fn a_solo_game_is_played_as_the_engine_plays_it() {
        let fresh = play(None, "42", &[]).expect("an answer");
        assert_eq!(fresh["round"], 0);
        assert_eq!(fresh["rounds"], 7);
        assert_eq!(fresh["finished"], false);
        assert_eq!(fresh["roll"], "A1A4A0B2", "the server's dice for seed 42");
        assert_eq!(fresh["you"]["end_round"]["allowed"], false);
        // A1 at A3, orientation 0 (legal on a fresh board), then undone.
        let place: Action =
            serde_json::from_value(json!({"action": "place", "placement": "A1A30"}))
                .expect("an action");
        let placed = play(None, "42", &[place]).expect("an answer");
        assert_eq!(placed["player"]["board"], "A1A30");
        assert_eq!(placed["you"]["can_undo"], true);
        let undone = play(None, "42", &[place, Action::Undo]).expect("an answer");
        assert_eq!(undone["player"]["board"], "");
        // Ending the round with dice that fit is refused, with the rule.
        let refused = play(None, "42", &[place, Action::EndRound]).expect("an answer");
        assert_eq!(refused["refused"]["index"], 1);
        assert_eq!(
            refused["refused"]["rule"],
            "every die placed unless none fits"
        );
        let river = play(Some("river"), "42", &[]).expect("an answer");
        assert_eq!(river["rounds"], 6);
        assert_eq!(river["optional_dice"], json!([4, 5]));
        assert!(play(None, "-1", &[]).is_err());
    }

    #[test]
    fn an_unknown_expansion_is_refused_in_words() {
        let error = board("", Some("sea")).expect_err("no such expansion");
        assert!(error.starts_with("expansion:"), "{error}");
        assert_eq!(board("", Some("river")).expect("an answer")["valid"], true);
    }
}
