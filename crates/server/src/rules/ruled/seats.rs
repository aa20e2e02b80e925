//! What the runtime does with a game's seats beyond its rules: the start of a table that grows,
//! a person who joins it, and a seat that resigns (the computer stands in).

use super::{Joining, RESIGN, Ruled, START, computer};
use crate::error::ApiError;
use crate::game::GameState;
use crate::lobby::JoinRequest;
use crate::rules::Rules;
use store::{ActionRow, SeatKind};

impl<R: Rules> Ruled<R> {
    /// The creator (seat 0) starts a game whose table grows: nobody joins it any more. The
    /// start is a row of its log, so that the game replays to a started one.
    pub fn start(&self, seat: usize) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
        match self.table.joining {
            Joining::Planned => {
                return Err(ApiError::Conflict(format!(
                    "this is a {} game: it started when it was made (only an online game has a lobby)",
                    self.mode()
                )));
            }
            Joining::Started => {
                return Err(ApiError::Conflict("the game has already started".into()));
            }
            Joining::Open if seat != 0 => {
                let creator = self.table.creator().unwrap_or("the creator");
                return Err(ApiError::Forbidden(format!(
                    "only the game's creator ({creator}) can start it"
                )));
            }
            Joining::Open => {}
        }
        let mut next = self.clone();
        next.table.joining = Joining::Started;
        next.actions += 1;
        let row = ActionRow {
            seat,
            action: START.to_owned(),
        };
        Ok((next, vec![row]))
    }

    /// `seat` resigns (or leaves): the computer plays the seat for the rest of the game, and in
    /// a rated game it places last. The resign is a row of the log.
    pub fn resign(&self, seat: usize) -> Result<(Ruled<R>, Vec<ActionRow>), ApiError> {
        if self.is_over() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        self.check_started()?;
        if self.table.challenge.is_some() || self.table.practice.is_some() {
            return Err(ApiError::Conflict(
                "a challenge is played by its player to the end, or left unfinished: nobody stands in"
                    .into(),
            ));
        }
        if self.table.seats.len() < 2 {
            return Err(ApiError::Conflict(
                "there is nobody else in this game: leave it unfinished instead".into(),
            ));
        }
        computer::<R>()?;
        let s = (self.table.seats.get(seat))
            .ok_or_else(|| ApiError::Internal(format!("no seat {seat}")))?;
        if s.kind == SeatKind::Computer || s.resigned {
            return Err(ApiError::Conflict(
                "this seat is the computer's already: it plays it to the end".into(),
            ));
        }
        let mut next = self.clone();
        next.table.seats[seat].resigned = true;
        next.actions += 1;
        let row = ActionRow {
            seat,
            action: RESIGN.to_owned(),
        };
        Ok((next, vec![row]))
    }

    /// Refuses an action at a table still waiting for its creator to start the game.
    pub fn check_started(&self) -> Result<(), ApiError> {
        self.table
            .waiting()
            .map_or(Ok(()), |why| Err(ApiError::Conflict(why)))
    }

    /// A person joins a table that grows: a new seat, the last, seated by the rules' join.
    pub(super) fn join_open(
        &self,
        request: &JoinRequest,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(Self, Vec<ActionRow>, usize), ApiError> {
        let join = const { &R::CAPABILITIES.join }
            .ok_or_else(|| ApiError::Internal(format!("{} seats nobody who joins", R::NAME)))?;
        let most = R::SEATS.1;
        let seat = self.table.seats.len();
        if seat >= most {
            return Err(ApiError::Conflict(format!(
                "the game is full ({most} players)"
            )));
        }
        if request.seat.is_some_and(|k| k != seat) {
            return Err(ApiError::BadRequest(format!(
                "people join this game a seat each, in turn: the next is seat {seat}"
            )));
        }
        let mut table = self.table.clone();
        table.add_person(request.name.as_deref(), token_hash, player)?;
        let (mut next, row) = self.acted(seat, &join())?;
        next.table = table;
        Ok((next, vec![row], seat))
    }
}
