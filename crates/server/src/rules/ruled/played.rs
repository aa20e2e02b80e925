//! A game played to its end in the page with no connection (the page runs the same rules,
//! compiled to WebAssembly), sent when the connection returns: stored as an ordinary game of
//! one seat once every action of its log replays here, in order, from its setup. The page's
//! word is never taken: an action the rules refuse, or a game that is not over, is refused in
//! words, and nothing is stored.

use serde::Deserialize;

use super::{Ruled, lobby};
use crate::error::ApiError;
use crate::game::{GameState, Seated};
use crate::ids;
use crate::lobby::SeatRequest;
use crate::play::detached;
use crate::rules::Rules;
use crate::seed::Seed;
use crate::state::AppState;
use store::{NewGame, SeatKind};

/// The most actions a game sent from the page may have (a game of Railroad Ink with an
/// expansion has under 60; this only stops a flood).
const MOST_ACTIONS: usize = 2_000;

/// `POST /api/{kind}/games/played`: a game of one seat played in the page, as its log.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedRequest<O, A> {
    /// The game's options (Railroad Ink's expansion).
    #[serde(default)]
    pub options: O,
    /// The seed of its draws, chosen in the page (the game says so, as of any chosen seed).
    pub seed: Seed,
    /// The name it was played under.
    #[serde(default)]
    pub name: Option<String>,
    /// Its seat's actions, in order, as the log keeps them.
    pub actions: Vec<A>,
}

impl<R: Rules> Ruled<R> {
    /// Replays `request` from its setup, then stores the game, its actions and how it ended
    /// in one transaction (its seat `player`'s, when known): the seat's token, as a game made
    /// here answers.
    pub(super) async fn store_played(
        app: &AppState,
        request: PlayedRequest<R::Options, R::Action>,
        player: Option<String>,
    ) -> Result<Seated, ApiError> {
        if !R::CAPABILITIES.offline {
            return Err(ApiError::NotFound(format!(
                "a game of {} is not played in the page with no connection",
                R::NAME
            )));
        }
        let total = request.actions.len();
        if total > MOST_ACTIONS {
            return Err(ApiError::BadRequest(format!(
                "a game of {total} actions is more than one game (at most {MOST_ACTIONS})"
            )));
        }
        let seat = SeatRequest {
            kind: SeatKind::Human,
            name: request.name,
            level: None,
            invite: false,
        };
        let made = lobby::<R>()
            .seating(vec![seat], player)?
            .made(Some(request.seed))?;
        let mut game: Ruled<R> =
            Ruled::new(request.options, made.table, made.seed).map_err(ApiError::BadRequest)?;
        let mut rows = Vec::with_capacity(total);
        for (i, action) in request.actions.iter().enumerate() {
            let (next, row) = game.acted(0, action).map_err(|e| match e {
                ApiError::Rule { message, rule, .. } => ApiError::Rule {
                    message: format!("action {} of {total} does not replay: {message}", i + 1),
                    rule,
                    not_your_turn: false,
                },
                other => other,
            })?;
            game = next;
            rows.push(row);
        }
        let now = app.clock.now_ms();
        let finished = game.finish(now).ok_or_else(|| {
            ApiError::Conflict(format!(
                "the game sent is not over after its {total} actions: only a finished game is \
                 kept (play it to the end first)"
            ))
        })?;
        let id = ids::new_game_id()?;
        let new_game = NewGame {
            id: id.clone(),
            kind: R::KIND.into(),
            mode: game.mode().to_owned(),
            setup: game.setup()?,
            created: now,
            seats: game.table.taken_rows(),
            entry: None,
            variant: game.variant().map(str::to_owned),
            deadlines: Vec::new(),
            pool: Vec::new(),
        };
        let storage = app.storage.clone();
        detached(async move { Ok(storage.store_played(new_game, rows, finished).await?) }).await?;
        tracing::info!(game = %id, kind = R::KIND, actions = total, "game played in the page stored");
        Seated::new(id, made.tokens)
    }
}
