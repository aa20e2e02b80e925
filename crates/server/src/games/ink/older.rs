//! What Railroad Ink stored, and was asked, before it was a game of rules: its setup (the
//! engine's, with the chosen seed, the practised challenge and the expansion beside it) and
//! its create request by mode (`{"mode":"computer","level":"greedy"}`), both still read.

use serde_json::Value;

use super::*;
use crate::game::computer_agent;
use crate::lobby::SeatRequest;
use crate::rules::{CreateRequest, Setup as RuledSetup};
use crate::seed::Seed;

/// A Railroad Ink game's setup as stored before it was a game of rules.
#[derive(Debug, Deserialize)]
struct StoredSetup {
    #[serde(flatten)]
    setup: Setup,
    #[serde(default)]
    chosen: bool,
    #[serde(default)]
    practice: Option<String>,
    #[serde(default)]
    expansion: Expansion,
}

/// An older setup, read with its stored mode (an `online` game's table grows); its seats are
/// their rows.
pub(super) fn setup(mode: &str, setup: &str) -> Result<RuledSetup<InkOptions>, String> {
    let older: StoredSetup = serde_json::from_str(setup).map_err(|e| e.to_string())?;
    let Dice::Seed(seed) = older.setup.dice else {
        return Err("dice given one by one are no game the server made".into());
    };
    Ok(RuledSetup {
        options: InkOptions {
            expansion: older.expansion,
        },
        seed,
        seats: None,
        chosen: older.chosen,
        practice: older.practice,
        open: mode == "online",
        rated: false,
        clock: None,
    })
}

/// How a game was asked for by mode.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Solo,
    Computer,
    Online,
    Challenge,
    Practice,
}

/// `POST /api/ink/games` by mode (kept for one release).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ByMode {
    mode: Mode,
    seed: Option<Seed>,
    name: Option<String>,
    /// The computer player, for mode `computer` (`agent`, its older name, too).
    #[serde(alias = "agent")]
    level: Option<String>,
    #[serde(default)]
    expansion: Option<Expansion>,
    /// An online game that changes its players' ratings.
    #[serde(default)]
    rated: bool,
}

/// A request by mode as today's: `solo` one person, `computer` a person and a computer named
/// after its level, `online` the person at a table that grows.
pub(super) fn create(value: Value) -> Result<CreateRequest<InkOptions>, String> {
    let asked: ByMode = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let person = SeatRequest {
        kind: SeatKind::Human,
        name: asked.name,
        level: None,
        invite: false,
    };
    let mut players = vec![person];
    match (&asked.mode, asked.level) {
        (Mode::Challenge, _) => {
            return Err("a challenge game is started with POST /api/challenges/{id}/play".into());
        }
        (Mode::Practice, _) => {
            return Err(
                "a practice game is started with POST /api/challenges/{id}/practice".into(),
            );
        }
        (Mode::Computer, level) => {
            let level = computer_agent(level, &ai::AGENTS, "unknown computer player")
                .map_err(|e| e.to_string())?;
            players.push(SeatRequest {
                kind: SeatKind::Computer,
                name: Some(crate::table::computer_name(&level)),
                level: Some(level),
                invite: false,
            });
        }
        (_, Some(_)) => {
            return Err("a computer player is chosen only in mode \"computer\"".into());
        }
        (Mode::Solo | Mode::Online, None) => {}
    }
    Ok(CreateRequest {
        players,
        seed: asked.seed,
        options: InkOptions {
            expansion: asked.expansion.unwrap_or_default(),
        },
        open: matches!(asked.mode, Mode::Online),
        rated: asked.rated,
        clock: None,
    })
}
