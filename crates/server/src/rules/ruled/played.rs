//! A game played to its end in the page with no connection (the page runs the same rules and
//! the same computer players, compiled to WebAssembly), sent when the connection returns:
//! stored as an ordinary game once it replays here from its setup. The person's actions are
//! taken in order; every computer seat's turn between them is played again by the server's own
//! computer player, which chooses as the page's did on the same draws. The page's word is never
//! taken: an action the rules refuse (the computers here having played otherwise, say), a game
//! that is not over, or actions left once it is, is refused in words, and nothing is stored.

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
use store::{ActionRow, NewGame, SeatKind};

/// The most actions a game sent from the page may have (a game of Railroad Ink with an
/// expansion has under 60, a person's part of a game of Metro about 60; this only stops a
/// flood).
const MOST_ACTIONS: usize = 2_000;

/// `POST /api/{kind}/games/played`: a game played in the page, as its person's log.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedRequest<O, A> {
    /// The game's options (Railroad Ink's expansion).
    #[serde(default)]
    pub options: O,
    /// The seed of its draws, chosen in the page (the game says so, as of any chosen seed).
    pub seed: Seed,
    /// The name it was played under, in a game of one seat.
    #[serde(default)]
    pub name: Option<String>,
    /// The seats, as `POST /api/{kind}/games` takes them: one person (on this device), the
    /// others computers. None: one person's seat, named `name`.
    #[serde(default)]
    pub players: Vec<SeatRequest>,
    /// The person's actions, in order, as the log keeps them (the computers' are played
    /// again here).
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
        let (seats, person) = played_seats(request.players, request.name)?;
        let computers = seats.len() > 1;
        let made = lobby::<R>()
            .seating(seats, player)?
            .made(Some(request.seed))?;
        let game: Ruled<R> =
            Ruled::new(request.options, made.table, made.seed).map_err(ApiError::BadRequest)?;
        let actions = request.actions;
        let (game, rows) = if computers {
            // The computers' turns are thought again: on a turn of their own, apart from the
            // requests, after every person waiting on a hint and every computer in play.
            let turn = app.thinking_for_a_review().await?;
            let replayed = tokio::task::spawn_blocking(move || replay(game, person, &actions))
                .await
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            drop(turn);
            replayed?
        } else {
            replay(game, person, &actions)?
        };
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

/// The seats of a game sent from the page, `players` (one person, the others computers) or
/// one person named `name`, and the person's seat.
fn played_seats(
    players: Vec<SeatRequest>,
    name: Option<String>,
) -> Result<(Vec<SeatRequest>, usize), ApiError> {
    if players.is_empty() {
        let person = SeatRequest {
            kind: SeatKind::Human,
            name,
            level: None,
            invite: false,
        };
        return Ok((vec![person], 0));
    }
    if name.is_some() {
        return Err(ApiError::BadRequest(
            "name: with players, the person's name is given in their seat".into(),
        ));
    }
    let mut people = (players.iter().enumerate()).filter(|(_, p)| p.kind == SeatKind::Human);
    match (people.next(), people.next()) {
        (Some((person, _)), None) if !players.iter().any(|p| p.invite) => Ok((players, person)),
        _ => Err(ApiError::BadRequest(
            "players: a game played in the page has one person, on this device, and computers \
             in the other seats"
                .into(),
        )),
    }
}

/// `game` played from its setup: the computers' turns by the server's computer player, the
/// person's (seat `person`) from `actions`, in order, until the game is over; with its log.
fn replay<R: Rules>(
    mut game: Ruled<R>,
    person: usize,
    actions: &[R::Action],
) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
    let total = actions.len();
    let mut rows = Vec::with_capacity(total);
    let mut left = actions.iter().enumerate();
    loop {
        while let Some(thought) = game.computer_thought() {
            let decision = Ruled::<R>::think(&thought);
            let (next, played) = game.turn(thought.1, &decision)?;
            game = next;
            rows.extend(played);
        }
        if game.is_over() {
            break;
        }
        let Some((i, action)) = left.next() else {
            break;
        };
        let (next, row) = game.acted(person, action).map_err(|e| match e {
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
    if let Some((i, _)) = left.next() {
        return Err(ApiError::Conflict(format!(
            "the game sent is over after {i} of its {total} actions: the rest were not played"
        )));
    }
    Ok((game, rows))
}
