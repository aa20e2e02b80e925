//! The commands every game answers, written once: a seat's move (an action, or any other
//! change a seat makes, such as starting a lobby's game) and a person joining a game.

use crate::error::ApiError;
use crate::game::{Change, GameState, SeatToken, Seated};
use crate::play::{Session, Sessions, detached};
use crate::state::AppState;
use crate::table;
use store::{ActionRow, StorageError};

/// A change the seat whose token this is makes to game `id`: `decide` gives the next state and
/// its actions (it runs again on the game as it is now if another process changed it
/// meanwhile). A player's own key acts for the seat their player holds (a game played from
/// another device): looked up only when the token is no seat's. Once storage holds it, the
/// computers move if it is their turn. The answer is the state as that seat sees it.
pub async fn by_seat<St, F>(
    app: &AppState,
    id: &str,
    token: &str,
    decide: F,
) -> Result<St::View, ApiError>
where
    St: GameState,
    F: FnMut(&St, usize) -> Result<(St, Vec<ActionRow>), ApiError> + Clone + Send + 'static,
{
    let session = Session::<St>::load(app, id).await?;
    let attempt = |player: Option<String>, mut decide: F| {
        let (app, s, token) = (app.clone(), session.clone(), token.to_owned());
        detached(async move {
            s.change(&app, |st| {
                let seat = match &player {
                    None => st.seat_of(&token)?,
                    Some(player) => (st.seat_players())
                        .position(|p| p == Some(player.as_str()))
                        .ok_or(ApiError::WrongToken)?,
                };
                let (next, actions) = decide(st, seat)?;
                Ok(Change {
                    answer: s.view(&next, Some(seat)),
                    actions,
                    seat: None,
                    next,
                })
            })
            .await
        })
    };
    let view = match attempt(None, decide.clone()).await {
        Err(ApiError::WrongToken) => {
            let hash = crate::ids::hash_token(token);
            match app.storage.player_by_token(&hash).await? {
                Some(player) => attempt(Some(player.id), decide).await?,
                None => return Err(ApiError::WrongToken),
            }
        }
        other => other?,
    };
    session.drive_computers(app);
    Ok(view)
}

/// One seat's action in game `id` (see [`GameState::act`]).
pub async fn act<St: GameState>(
    app: &AppState,
    id: &str,
    token: &str,
    action: St::Action,
) -> Result<St::View, ApiError> {
    let now = app.clock.now_ms();
    let acted = by_seat(app, id, token, move |st: &St, seat| {
        if let Some(due) = st.due(seat).filter(|&due| now >= due) {
            return Err(ApiError::Conflict(format!(
                "your time for this turn ran out at {}: the computer plays it for you",
                crate::clock::rfc3339(due)
            )));
        }
        st.act(seat, action.clone())
    })
    .await;
    if let Err(ApiError::Conflict(_)) = acted {
        // Perhaps a deadline passed that the watcher has not acted on yet.
        app.deadlines.wake();
    }
    acted
}

/// A person joins game `id` as asked (see [`GameState::join`]), as `player` when known: the seat
/// taken and its new token.
pub async fn join<St: GameState>(
    app: &AppState,
    id: &str,
    request: St::Join,
    player: Option<String>,
) -> Result<Seated, ApiError> {
    let session = Session::<St>::load(app, id).await?;
    // The joiner's rating, for the views that show them seated.
    session
        .read_ratings(app, player.clone().map(|p| vec![p]))
        .await?;
    let app = app.clone();
    let (token, hash) = table::mint_token()?;
    detached(async move {
        let seat = session
            .change(&app, |st| {
                let (next, actions, seat) = st.join(&request, hash.clone(), player.clone())?;
                let row = next
                    .seats()
                    .get(seat)
                    .ok_or_else(|| ApiError::Internal(format!("no seat {seat} after a join")))?
                    .row(seat);
                Ok(Change {
                    next,
                    actions,
                    seat: Some(row),
                    answer: seat,
                })
            })
            .await?;
        tracing::info!(game = %session.id, seat, kind = St::KIND, "player joined");
        session.drive_computers(&app);
        Seated::new(session.id.clone(), vec![SeatToken { seat, token }])
    })
    .await
}

/// What `POST /api/{kind}/games/{id}/rematch` gives.
pub enum Rematch {
    /// The new game, as making it answers (the asker's seat and token in it).
    Made(Seated),
    /// The game made before, by another seat or another request: join it.
    Already(String),
}

/// A new game like finished game `id` for the seat whose token this is ("Play again": see
/// [`GameState::rematch_request`]), recorded as its rematch, so that its other seats see the
/// offer (in its state and as a live update) and join; asked again, the game already made.
/// One game is made per finished game: requests in this process wait for each other on the
/// game's lock, and the database keeps the first of several processes' (a game another
/// process made at the same moment is left unused).
pub async fn rematch<St: GameState>(
    app: &AppState,
    id: &str,
    token: &str,
) -> Result<Rematch, ApiError> {
    let session = Session::<St>::load(app, id).await?;
    let (app, token) = (app.clone(), token.to_owned());
    detached(async move {
        let st = session.lock().await;
        let seat = st.seat_of(&token)?;
        if !st.is_over() {
            return Err(ApiError::Conflict(
                "the game is not over: play again once it has ended".into(),
            ));
        }
        if let Some(made) = session.rematch() {
            return Ok(Rematch::Already(made));
        }
        let request = st.rematch_request(seat)?;
        let player = st.seat_players().nth(seat).flatten().map(str::to_owned);
        let created = St::create(&app, request, player).await?;
        let made = created.id.clone();
        match app.storage.set_rematch(&session.id, &made).await {
            Ok(()) => {
                Sessions::<St>::of(&app).announce_rematch(&session.id, &made);
                session.set_rematch(Some(made.clone()));
                tracing::info!(game = %session.id, rematch = %made, "rematch made");
                Ok(Rematch::Made(created))
            }
            Err(StorageError::Duplicate(_)) => {
                let first = app.storage.rematch_of(&session.id).await?.ok_or_else(|| {
                    ApiError::Internal("a rematch was a duplicate of none".into())
                })?;
                tracing::warn!(game = %session.id, unused = %made, rematch = %first,
                    "another process made the rematch first: this one is left unused");
                Sessions::<St>::of(&app).announce_rematch(&session.id, &first);
                session.set_rematch(Some(first.clone()));
                Ok(Rematch::Already(first))
            }
            Err(e) => Err(e.into()),
        }
    })
    .await
}
