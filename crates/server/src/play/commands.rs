//! The commands every game answers, written once: a seat's move (an action, or any other
//! change a seat makes, such as starting a lobby's game) and a person joining a game.

use serde::Serialize;

use crate::error::ApiError;
use crate::game::{Change, GameState};
use crate::ids;
use crate::play::{Session, detached};
use crate::state::AppState;
use crate::storage::ActionRow;

/// A seat taken: its index and its token (shown this once).
#[derive(Debug, Clone, Serialize)]
pub struct SeatTaken {
    /// The game's id, when the seat was taken by creating it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub seat: usize,
    pub token: String,
}

/// A change the seat whose token this is makes to game `id`: `decide` gives the next state and
/// its actions (it runs again on the game as it is now if another process changed it
/// meanwhile). Once storage holds it, the computers move if it is their turn. The answer is the
/// state as that seat sees it.
pub async fn by_seat<St: GameState>(
    app: &AppState,
    id: &str,
    token: &str,
    mut decide: impl FnMut(&St, usize) -> Result<(St, Vec<ActionRow>), ApiError> + Send + 'static,
) -> Result<St::View, ApiError> {
    let session = Session::<St>::load(app, id).await?;
    let (app2, s) = (app.clone(), session.clone());
    let token = token.to_owned();
    let view = detached(async move {
        s.change(&app2, |st| {
            let seat = st.seat_of(&token)?;
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
    .await?;
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
    by_seat(app, id, token, move |st: &St, seat| {
        st.act(seat, action.clone())
    })
    .await
}

/// A person joins game `id` as asked (see [`GameState::join`]), as `player` when known: the seat
/// taken and its new token.
pub async fn join<St: GameState>(
    app: &AppState,
    id: &str,
    request: St::Join,
    player: Option<String>,
) -> Result<SeatTaken, ApiError> {
    let session = Session::<St>::load(app, id).await?;
    let app = app.clone();
    let token = ids::new_token()?;
    let hash = ids::hash_token(&token);
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
        Ok(SeatTaken {
            id: None,
            seat,
            token,
        })
    })
    .await
}
