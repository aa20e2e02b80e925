//! Metro's operations for the page.

use metro::text::{self, CheckError};
use metro::view::{self, BoardView, SeatState, YouView};
use metro::{Action, Config, Game, Player, PlayerCount, Score};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::Answer;

/// A seat of a game played in the page: the person's, or a computer's at a level.
#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatKind {
    /// The person playing in the page.
    Human,
    /// A computer player (one of the engine's levels).
    Computer {
        /// `random`, `greedy` or `strong`.
        level: String,
    },
}

/// One action of the log: the seat's, as the server's log keeps it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatAction {
    seat: usize,
    action: Action,
}

/// A game against computers as its person's seat sees it, and what the computers played
/// after the log's last action (their turns, until it is the person's or the game is over).
#[derive(Serialize)]
struct Played {
    #[serde(flatten)]
    board: BoardView,
    over: bool,
    seats: Vec<SeatState>,
    you: Option<YouView>,
    computers: Vec<SeatAction>,
}

/// A game of Metro against computers on the deck of `seed` after `actions` (`metro.play`):
/// the computers' turns that follow are played by the engine's computer players and returned
/// (`computers`) with the state after them, as seat `you` sees it; or the first action the
/// engine refuses (`refused`: its index, why, and the rule's name).
pub fn play(seed: &str, seats: &[SeatKind], actions: &[SeatAction], you: usize) -> Answer {
    let seed: u64 = seed
        .trim()
        .parse()
        .map_err(|_| format!("seed: {seed:?} is not a whole number from 0 to 2^64 - 1"))?;
    let count = u8::try_from(seats.len())
        .ok()
        .and_then(PlayerCount::new)
        .ok_or_else(|| {
            format!(
                "seats: a game of Metro has 2 to 6 players, not {}",
                seats.len()
            )
        })?;
    let mut game = Game::new(Config::new(count), seed);
    let player = |seat: usize| {
        Player::from_index(seat)
            .filter(|_| seat < seats.len())
            .ok_or_else(|| format!("seat {seat} is not one of the game's {}", seats.len()))
    };
    for (index, a) in actions.iter().enumerate() {
        if let Err(e) = game.play(player(a.seat)?, a.action) {
            return Ok(json!({
                "refused": { "index": index, "error": e.to_string(), "rule": e.rule() }
            }));
        }
    }
    let mut computers = Vec::new();
    while let Some(turn) = game.turn() {
        let SeatKind::Computer { level } = &seats[turn.index()] else {
            break;
        };
        let action = view::computer(&game, turn, level).unwrap_or_else(|f| f.action);
        game.play(turn, action).map_err(|e| e.to_string())?;
        computers.push(SeatAction {
            seat: turn.index(),
            action,
        });
    }
    let played = Played {
        board: view::board_view(&game),
        over: game.is_over(),
        seats: (0..seats.len())
            .map(|s| view::seat_state(&game, s))
            .collect(),
        you: view::you(&game, you),
        computers,
    };
    serde_json::to_value(played).map_err(|e| e.to_string())
}

/// A sequence checked and scored (`metro.sequence`) for each number of players asked (2 to 6,
/// all when none is): the scores of a legal sequence, else whether it is well formed, the first
/// illegal placement's index (0-based) and why, in words.
pub fn sequence(text: &str, players: Option<&[u8]>) -> Answer {
    let counts = players
        .unwrap_or(&[2, 3, 4, 5, 6])
        .iter()
        .map(|&n| PlayerCount::new(n).ok_or_else(|| format!("players: {n} is not 2 to 6")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(match text::check(text) {
        Ok((_, board)) => {
            let scores: Map<String, Value> = counts
                .iter()
                .map(|&n| {
                    let score = Score::new(&board, n);
                    (n.get().to_string(), json!(score.totals))
                })
                .collect();
            json!({ "valid": true, "scores": scores })
        }
        Err(e) => json!({
            "valid": false,
            "well_formed": text::is_well_formed(text),
            "first_illegal_index": match &e {
                CheckError::Illegal(_) => Some(e.index()),
                CheckError::Malformed(_) => None,
            },
            "reason": e.to_string(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";

    #[test]
    fn a_full_game_scores_for_each_number_of_players() {
        let got = sequence(GAME, None).expect("an answer");
        assert_eq!(got["valid"], true);
        assert_eq!(got["scores"]["2"], json!([72, 126]));
        assert_eq!(got["scores"]["6"], json!([75, 14, 25, 13, 32, 35]));
        let two = sequence(GAME, Some(&[2])).expect("an answer");
        assert_eq!(two["scores"].as_object().map(Map::len), Some(1));
    }

    fn seats(levels: &[&str]) -> Vec<SeatKind> {
        std::iter::once(SeatKind::Human)
            .chain(levels.iter().map(|l| SeatKind::Computer {
                level: (*l).to_owned(),
            }))
            .collect()
    }

    #[test]
    fn a_game_against_computers_is_played_to_its_end_by_the_engine() {
        let seats = seats(&["greedy", "random"]);
        let mut log: Vec<SeatAction> = Vec::new();
        for _ in 0..200 {
            let got = play("5", &seats, &log, 0).expect("an answer");
            assert!(got.get("refused").is_none(), "{got}");
            let computers: Vec<SeatAction> =
                serde_json::from_value(got["computers"].clone()).expect("actions");
            assert!(computers.iter().all(|a| a.seat != 0), "only the computers");
            log.extend(computers);
            if got["over"] == true {
                assert_eq!(got["sequence"].as_str().map(str::len), Some(60 * 6));
                assert_eq!(got["seats"].as_array().map(Vec::len), Some(3));
                return;
            }
            assert_eq!(got["turn"], 0, "the person's turn");
            // The person draws, then places where the engine says, else keeps.
            let action = if got["you"]["draw"]["allowed"] == true {
                Action::Draw
            } else {
                let legal = got["you"]["legal"].as_str().expect("squares");
                match legal.get(..2) {
                    Some(square) => Action::Place(square.parse().expect("a square")),
                    None => Action::Keep,
                }
            };
            log.push(SeatAction { seat: 0, action });
        }
        panic!("the game did not end");
    }

    #[test]
    fn an_action_out_of_turn_is_refused_with_its_rule() {
        let seats = seats(&["random"]);
        let log = [SeatAction {
            seat: 1,
            action: Action::Draw,
        }];
        let got = play("5", &seats, &log, 0).expect("an answer");
        assert_eq!(got["refused"]["index"], 0);
        assert_eq!(got["refused"]["rule"], "not your turn");
        assert!(
            play("5", &seats[..1], &[], 0).is_err(),
            "one seat is no game"
        );
    }

    #[test]
    fn a_broken_sequence_names_its_first_illegal_placement() {
        let got = sequence("cbaa37cbaa37", None).expect("an answer");
        assert_eq!(got["valid"], false);
        assert_eq!(got["well_formed"], true);
        assert_eq!(got["first_illegal_index"], 1);
        let got = sequence("xx", None).expect("an answer");
        assert_eq!(got["well_formed"], false);
        assert_eq!(got["first_illegal_index"], Value::Null);
        assert!(sequence(GAME, Some(&[7])).is_err());
    }
}
