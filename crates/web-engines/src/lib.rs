//! The Railroad Ink and Metro engines for the page, compiled to WebAssembly
//! (`wasm32-unknown-unknown`) by the server's build script and served beside the page's other
//! files (see `crates/server/build.rs` and `web/js/engines/wasm.js`).
//!
//! The page talks to it in JSON: one request in, one answer out ([`answer`]), through a plain C
//! ABI of three functions ([`abi`]), so that no binding generator is needed. Every answer is
//! the engines' own: the same crates decide legality and scores in the page as on the server.
//!
//! A request names its operation in `op`:
//!
//! - `ink.board`: `{board, expansion?}` → `{valid: true, score}` for a legal board string, or
//!   `{valid: false, well_formed, first_illegal_index, reason}` (in words).
//! - `ink.play`: `{seed, expansion?, actions}` (the seed in decimal digits, the actions as the
//!   server's log keeps them) → a solo game as its seat sees it: `{round, rounds, finished,
//!   roll, dice, optional_dice, player, you}` (the server's views of the board and of what the
//!   seat may do), or `{refused: {index, error, rule}}` for the first action the engine refuses.
//! - `metro.play`: `{seed, seats, actions, you}` (seats `{kind: "human"}` or `{kind:
//!   "computer", level}`, actions `{seat, action}` as the server's log keeps them) → the game
//!   after the computers' turns that follow, as seat `you` sees it: `{turn, phase, sequence,
//!   deck_left, scores, lines, moves, over, seats, you, computers}` (`computers`: the actions
//!   they played), or `{refused: {index, error, rule}}`.
//! - `metro.sequence`: `{sequence, players?}` (players 2–6, all by default) → `{valid: true,
//!   scores: {"2": [...], …}}` for a legal sequence, or `{valid: false, well_formed,
//!   first_illegal_index, reason}` (in words).
//!
//! A request that cannot be read is answered `{error}` in words, never a trap.

#![deny(unsafe_code)]

pub mod abi;
mod ink;
mod metro_ops;

use serde::Deserialize;
use serde_json::{Value, json};

/// What the page asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", deny_unknown_fields)]
enum Request {
    /// A Railroad Ink board string, checked and scored.
    #[serde(rename = "ink.board")]
    InkBoard {
        board: String,
        /// `lake` or `river`; the base game when absent.
        #[serde(default)]
        expansion: Option<String>,
    },
    /// A solo game of Railroad Ink on the dice of a seed, after its actions so far.
    #[serde(rename = "ink.play")]
    InkPlay {
        #[serde(default)]
        expansion: Option<String>,
        /// The seed, as the server writes seeds: decimal digits in a string.
        seed: String,
        #[serde(default)]
        actions: Vec<railroad_ink::Action>,
    },
    /// A game of Metro against computers, after its actions so far (the computers' turns that
    /// follow played by the engine).
    #[serde(rename = "metro.play")]
    MetroPlay {
        seed: String,
        seats: Vec<metro_ops::SeatKind>,
        #[serde(default)]
        actions: Vec<metro_ops::SeatAction>,
        /// The person's seat.
        #[serde(default)]
        you: usize,
    },
    /// A Metro sequence, checked and scored for each number of players.
    #[serde(rename = "metro.sequence")]
    MetroSequence {
        sequence: String,
        #[serde(default)]
        players: Option<Vec<u8>>,
    },
}

/// The answer, in JSON, to a request in JSON.
pub fn answer(request: &str) -> String {
    let answered = match serde_json::from_str::<Request>(request) {
        Ok(Request::InkBoard { board, expansion }) => ink::board(&board, expansion.as_deref()),
        Ok(Request::InkPlay {
            expansion,
            seed,
            actions,
        }) => ink::play(expansion.as_deref(), &seed, &actions),
        Ok(Request::MetroPlay {
            seed,
            seats,
            actions,
            you,
        }) => metro_ops::play(&seed, &seats, &actions, you),
        Ok(Request::MetroSequence { sequence, players }) => {
            metro_ops::sequence(&sequence, players.as_deref())
        }
        Err(e) => Err(format!("the request cannot be read: {e}")),
    };
    answered
        .unwrap_or_else(|error| json!({ "error": error }))
        .to_string()
}

/// An answer, or why there is none, in words.
type Answer = Result<Value, String>;

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: Value) -> Value {
        serde_json::from_str(&answer(&request.to_string())).expect("JSON")
    }

    #[test]
    fn a_request_that_cannot_be_read_is_answered_in_words() {
        for bad in ["", "{", "[]", r#"{"op":"chess"}"#, r#"{"op":"ink.board"}"#] {
            let got: Value = serde_json::from_str(&answer(bad)).expect("JSON");
            let error = got["error"].as_str().expect("an error");
            assert!(
                error.starts_with("the request cannot be read"),
                "{bad}: {error}"
            );
        }
        let got = ask(json!({"op": "ink.board", "board": "", "extra": 1}));
        assert!(got["error"].as_str().is_some(), "{got}");
    }
}
