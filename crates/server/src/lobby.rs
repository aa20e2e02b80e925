//! The lobby every game with seats chosen at creation shares: the seats `POST
//! /api/{kind}/games` asks for (people on this device, people invited by link, computers), the
//! plan of them stored with the game's setup (so a seat still open for an invited person is
//! known before anyone takes it), and a person who joins taking an open seat. It names no game:
//! a game describes its lobby ([`Lobby`]).

use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::game::computer_agent;
use crate::table::{Seat, Seating, Table};
use store::{SeatKind as Kind, SeatRow};

/// A game's lobby: its name, how many seats it has and the computer players it offers.
#[derive(Debug, Clone, Copy)]
pub struct Lobby {
    /// The game's name for people (`Metro`).
    pub game: &'static str,
    /// The fewest and the most seats.
    pub seats: (usize, usize),
    /// The computer players, weakest first (see [`crate::game::default_level`]).
    pub levels: &'static [&'static str],
    /// What to do instead of a game of computers alone (said when one is asked for).
    pub computers_alone: &'static str,
}

/// One seat of `POST /api/{kind}/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    pub kind: Kind,
    pub name: Option<String>,
    /// The computer player (one of the lobby's levels); only for a computer seat.
    pub level: Option<String>,
    /// A person who joins with the game's link (the seat is open until then).
    #[serde(default)]
    pub invite: bool,
}

/// `POST /api/{kind}/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub name: Option<String>,
    /// The open seat to take (the first open one if not given).
    pub seat: Option<usize>,
}

/// A seat as the setup plans it (before anyone takes it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlannedSeat {
    pub kind: Kind,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    #[serde(default)]
    pub invite: bool,
}

impl Lobby {
    /// The seats `asked` names, the first person's on this device `player`'s: each computer's
    /// level known, each name allowed, and at least one person. A refusal names the seat
    /// (`players[1]: unknown level`).
    pub fn seating(
        &self,
        asked: Vec<SeatRequest>,
        player: Option<String>,
    ) -> Result<Seating, ApiError> {
        let n = asked.len();
        let (fewest, most) = self.seats;
        if !(fewest..=most).contains(&n) {
            let range = if fewest == most {
                fewest.to_string()
            } else {
                format!("{fewest} to {most}")
            };
            return Err(ApiError::BadRequest(format!(
                "a game of {} has {range} players, not {n}",
                self.game
            )));
        }
        if asked.iter().all(|p| p.kind == Kind::Computer) {
            return Err(ApiError::BadRequest(format!(
                "a game needs at least one person's seat (on this device or invited): {}",
                self.computers_alone
            )));
        }
        let mut seating = Seating::new(player);
        for (i, p) in asked.into_iter().enumerate() {
            let level = match (p.kind, p.level) {
                (Kind::Computer, _) if self.levels.is_empty() => {
                    return Err(ApiError::BadRequest(format!(
                        "players[{i}]: no computer plays {}",
                        self.game
                    )));
                }
                (Kind::Computer, level) => {
                    let unknown = format!("players[{i}]: unknown level");
                    Some(computer_agent(level, self.levels, &unknown)?)
                }
                (Kind::Human, Some(_)) => {
                    return Err(ApiError::BadRequest(format!(
                        "players[{i}]: a level is chosen only for a computer seat"
                    )));
                }
                (Kind::Human, None) => None,
            };
            if p.invite && p.kind == Kind::Computer {
                return Err(ApiError::BadRequest(format!(
                    "players[{i}]: only a person is invited"
                )));
            }
            let name = p.name.as_deref();
            match (level, p.invite) {
                (Some(level), _) => seating.named_computer(name, &level),
                (None, true) => seating.invited(name),
                (None, false) => seating.person(name),
            }
            .map_err(|e| ApiError::BadRequest(format!("players[{i}]: {e}")))?;
        }
        Ok(seating)
    }
}

/// The plan of `seats` (before any is taken: a person's on this device too).
pub fn plan(seats: &[Seat]) -> Vec<PlannedSeat> {
    seats
        .iter()
        .map(|s| PlannedSeat {
            kind: s.kind,
            name: s.name.clone(),
            level: s.agent.clone(),
            invite: s.invited,
        })
        .collect()
}

/// The table of a stored game: every seat as `planned`, then each stored row (who took it).
/// A row that does not fit the plan is corrupt, and says why.
pub fn table_of(planned: Vec<PlannedSeat>, rows: Vec<SeatRow>) -> Result<Table, String> {
    let seats = planned.into_iter().map(|p| Seat {
        name: p.name,
        kind: p.kind,
        agent: p.level,
        invited: p.invite,
        token_hash: None,
        player: None,
        resigned: false,
        clock: Default::default(),
    });
    let mut table = Table::new(seats.collect());
    table.put_rows(rows)?;
    Ok(table)
}

/// A person who joins takes the open seat `request` asks for (the first open one if none), as
/// `player` when known, with the hash of its token: the table after and the seat taken. A seat
/// that is no seat, not open, or a full table is refused in words.
pub fn join(
    table: &Table,
    request: &JoinRequest,
    token_hash: String,
    player: Option<String>,
) -> Result<(Table, usize), ApiError> {
    let seat = match request.seat {
        Some(k) => {
            let wanted = table.seats.get(k).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "there is no seat {k}: the game has seats 0 to {}",
                    table.seats.len().saturating_sub(1)
                ))
            })?;
            if !wanted.is_open() {
                return Err(ApiError::Conflict(format!(
                    "seat {k} is not open: it is {}",
                    if wanted.kind == Kind::Computer {
                        "a computer's"
                    } else {
                        "taken"
                    }
                )));
            }
            k
        }
        None => table
            .open_seats()
            .next()
            .ok_or_else(|| ApiError::Conflict("every seat is taken".into()))?,
    };
    let mut next = table.clone();
    next.take_seat(seat, request.name.as_deref(), token_hash, player)?;
    Ok((next, seat))
}

/// The seats of a new game like the one `table` holds, asked by `seat` ("Play again"), in the
/// same order. Asked from the device that made the game, its people's seats are on that device
/// again and invited ones are invited again; asked by an invited person, their seat is theirs
/// and every other person's is invited (they were on other devices).
pub fn rematch_seats(table: &Table, seat: usize) -> Vec<SeatRequest> {
    let seats = &table.seats;
    let asker_invited = seats.get(seat).is_some_and(|s| s.invited);
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| SeatRequest {
            kind: s.kind,
            name: Some(s.name.clone()),
            level: s.agent.clone().filter(|_| s.kind == Kind::Computer),
            invite: s.kind == Kind::Human && i != seat && (s.invited || asker_invited),
        })
        .collect()
}
