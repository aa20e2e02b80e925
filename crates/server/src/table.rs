//! The table a game is played at, the same in every game: who sits where, the tokens of its
//! seats (only their hashes are kept), the challenge it is played in, whether it practises a
//! closed challenge's draws and whether its creator chose the seed.
//!
//! A game never mints a token or names a seat: it asks for seats ([`Seating`] when it is made,
//! [`Table::of_challenge`] for a challenge's game, [`Table::add_person`] and
//! [`Table::take_seat`] when someone joins) and the table does the rest. It names no game.
//!
//! What a seat's turn is allowed to take (the table's [`TimeControl`], each seat's deadline)
//! and who plays it when its person is away (the computer stands in: [`SeatClock`]) are the
//! table's too.

use serde::Serialize;

use crate::challenge_games::ChallengeStart;
use crate::error::ApiError;
use crate::ids::{self, RandomError};
use crate::seed::Seed;
use crate::turns::{TimeControl, TurnPassed};
use store::challenges::PlayerRow;
use store::names::{self, NameError};
use store::{ChallengeRef, SeatKind, SeatRow};

/// One seat of a game, as every game keeps it.
#[derive(Debug, Clone)]
pub struct Seat {
    pub name: String,
    pub kind: SeatKind,
    /// The computer player (its name or level), for a computer seat.
    pub agent: Option<String>,
    /// Whether the seat is for a person invited by link: open until someone takes it.
    pub invited: bool,
    /// The hex SHA-256 of the seat's token, once a person has it.
    pub token_hash: Option<String>,
    /// The player who took the seat, when known.
    pub player: Option<String>,
    /// A person who resigned (or left): the computer plays the seat for the rest of the game.
    pub resigned: bool,
    /// The seat's clock, in a game with a time control.
    pub clock: SeatClock,
}

/// A seat's clock in a game with a time control: by when its person must play the turn it is
/// on, and the computer standing in for it when they did not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatClock {
    /// The turn the seat is on (the game's count) and when it is due (milliseconds since the
    /// Unix epoch), while it is the seat's person's to play.
    pub due: Option<(u64, i64)>,
    /// The turn the computer plays for the seat, its person's time for it having run out.
    pub stand_in: Option<u64>,
    /// How many of the seat's turns in a row ran out (a turn its person plays ends the run).
    pub timeouts: u8,
    /// Given to the computer for the rest of the game after two turns in a row ran out (it is
    /// then resigned too: it counts as a loss).
    pub given: bool,
}

impl Seat {
    /// A person's seat, with the hash of its token (minted by the runtime: see
    /// [`crate::play::commands::join`]).
    pub fn person(name: String, token_hash: String, player: Option<String>) -> Seat {
        Seat {
            name,
            kind: SeatKind::Human,
            agent: None,
            invited: false,
            token_hash: Some(token_hash),
            player,
            resigned: false,
            clock: SeatClock::default(),
        }
    }

    /// A player's seat (a challenge's game), with the hash of its token.
    fn of_player(player: &PlayerRow, token: &str) -> Seat {
        Seat::person(
            player.name.clone(),
            ids::hash_token(token),
            Some(player.id.clone()),
        )
    }

    /// A seat for a person invited by link, open until someone takes it.
    pub fn invited(name: String) -> Seat {
        Seat {
            name,
            kind: SeatKind::Human,
            agent: None,
            invited: true,
            token_hash: None,
            player: None,
            resigned: false,
            clock: SeatClock::default(),
        }
    }

    /// A computer's seat, named `name`, played by `agent`.
    pub fn named_computer(name: String, agent: &str) -> Seat {
        Seat {
            name,
            kind: SeatKind::Computer,
            agent: Some(agent.to_owned()),
            invited: false,
            token_hash: None,
            player: None,
            resigned: false,
            clock: SeatClock::default(),
        }
    }

    /// A computer's seat, played by `agent` and named after it: `Computer (strong)`.
    pub fn computer(agent: &str) -> Seat {
        Seat::named_computer(computer_name(agent), agent)
    }

    /// One of several computers' seats, played by `agent`: `Computer 2 (strong)`.
    pub fn numbered_computer(number: usize, agent: &str) -> Seat {
        Seat::named_computer(format!("Computer {number} ({agent})"), agent)
    }

    /// A seat as stored (not an invited one: a game that has those knows them from its setup).
    pub fn from_row(row: SeatRow) -> Seat {
        Seat {
            name: row.name,
            kind: row.kind,
            agent: row.agent,
            invited: false,
            token_hash: row.token_hash,
            player: row.player,
            resigned: false,
            clock: SeatClock::default(),
        }
    }

    /// Each seat's name, seat 0 first (what a game's result names its seats by).
    pub fn names(seats: &[Seat]) -> Vec<&str> {
        seats.iter().map(|s| s.name.as_str()).collect()
    }

    /// A seat for an invited person that nobody has taken yet.
    pub fn is_open(&self) -> bool {
        self.kind == SeatKind::Human && self.token_hash.is_none()
    }

    /// The seat as stored, at index `seat`.
    pub fn row(&self, seat: usize) -> SeatRow {
        SeatRow {
            seat,
            name: self.name.clone(),
            kind: self.kind,
            agent: self.agent.clone(),
            token_hash: self.token_hash.clone(),
            player: self.player.clone(),
        }
    }
}

/// The name of a computer seat played by `agent`: `Computer (strong)`.
pub fn computer_name(agent: &str) -> String {
    format!("Computer ({agent})")
}

/// A seat's token, shown once to whoever took the seat.
#[derive(Debug, Clone, Serialize)]
pub struct SeatToken {
    pub seat: usize,
    pub token: String,
}

/// A new seat token and its hash (all that is kept of it).
pub fn mint_token() -> Result<(String, String), RandomError> {
    let token = ids::new_token()?;
    let hash = ids::hash_token(&token);
    Ok((token, hash))
}

/// What every game keeps of its table: its seats, seat 0 first, and how it is played.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub seats: Vec<Seat>,
    /// The challenge the game is played in...
    pub challenge: Option<ChallengeRef>,
    /// ...or, a friend challenge, was made from (its first game, played before it).
    pub made_a_challenge: bool,
    /// Whether the creator chose the seed (then everyone who joins is told).
    pub seed_chosen: bool,
    /// The closed challenge whose draws a practice game plays.
    pub practice: Option<String>,
    /// Whether people may still join (a table that grows until its creator starts the game).
    pub joining: Joining,
    /// Whether the game changes its players' ratings (see [`crate::ratings`]).
    pub rated: bool,
    /// How long a seat has for each of its turns, in a game with a clock.
    pub clock: Option<TimeControl>,
}

/// Whether people may still join a game's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Joining {
    /// Every seat was planned when the game was made (an open one is an invited person's).
    #[default]
    Planned,
    /// People join, a seat each, until the game's creator starts it.
    Open,
    /// A table that grew, started by its creator: nobody joins it any more.
    Started,
}

impl Table {
    /// The turns that passed to people with a change from `before` to `after` (the seats to
    /// act): each person's seat that is to act now and was not, in a game of two people or
    /// more that is neither live nor a challenge's. `actions` counts the log after the change.
    pub fn turns_passed(
        &self,
        kind: &'static str,
        game: &str,
        before: &[usize],
        after: &[usize],
        actions: usize,
    ) -> Vec<TurnPassed> {
        let people = self.seats.iter().filter(|s| s.player.is_some()).count();
        let live = matches!(self.clock, Some(TimeControl::Live(_)));
        if people < 2 || live || self.challenge.is_some() {
            return Vec::new();
        }
        (after.iter().filter(|s| !before.contains(s)))
            .filter_map(|&seat| {
                let s = self.seats.get(seat).filter(|s| !s.resigned)?;
                Some(TurnPassed {
                    kind,
                    game: game.to_owned(),
                    seat,
                    player: s.player.clone()?,
                    others: (self.seats.iter().enumerate())
                        .filter(|(i, o)| *i != seat && o.kind == SeatKind::Human)
                        .map(|(_, o)| o.name.clone())
                        .collect(),
                    actions,
                })
            })
            .collect()
    }

    /// A table of these seats, in no challenge, on a seed nobody chose.
    pub fn new(seats: Vec<Seat>) -> Table {
        Table {
            seats,
            ..Table::default()
        }
    }

    /// How a game at this table is played, as stored with it: `challenge` for a challenge's
    /// game, `practice` for a practice game on a closed challenge's draws, else `otherwise`.
    pub fn mode(&self, otherwise: &'static str) -> &'static str {
        if self.challenge.is_some() && !self.made_a_challenge {
            "challenge"
        } else if self.practice.is_some() {
            "practice"
        } else {
            otherwise
        }
    }

    /// Whether people joined the table a seat each (see [`Joining`]), rather than taking
    /// seats planned when the game was made.
    pub fn grows(&self) -> bool {
        self.joining != Joining::Planned
    }

    /// Why nobody may act yet, at a table waiting for its creator to start the game.
    pub fn waiting(&self) -> Option<String> {
        (self.joining == Joining::Open).then(|| {
            let creator = self.creator().unwrap_or("the creator");
            format!(
                "the game has not started yet: {creator}, who made it, starts it from the lobby"
            )
        })
    }

    /// The seats as stored, in no challenge (see [`Table::new`]).
    pub fn from_rows(rows: Vec<SeatRow>) -> Table {
        Table::new(rows.into_iter().map(Seat::from_row).collect())
    }

    /// A player's game in a challenge (or, without an entry, a practice game on its draws):
    /// the player in seat 0, with the seat's token.
    pub fn of_challenge(start: &ChallengeStart<'_>) -> Table {
        Table {
            seats: vec![Seat::of_player(start.player, start.token)],
            challenge: start.challenge_ref(),
            made_a_challenge: false,
            seed_chosen: false,
            practice: start.practice(),
            joining: Joining::Planned,
            rated: false,
            clock: None,
        }
    }

    /// Puts the stored seat rows over the seats as planned (a game whose setup plans every
    /// seat, open ones included): each row's name, agent, token and player. A row for no
    /// planned seat, or of another kind, is corrupt, and so is a seat left without a token
    /// that is no invited person's.
    pub fn put_rows(&mut self, rows: Vec<SeatRow>) -> Result<(), String> {
        for row in rows {
            let seat = (self.seats.get_mut(row.seat))
                .ok_or_else(|| format!("seat {} is not in the setup", row.seat))?;
            if row.kind != seat.kind {
                return Err(format!("seat {} changed its kind", row.seat));
            }
            seat.name = row.name;
            seat.agent = row.agent.or(seat.agent.take());
            seat.token_hash = row.token_hash;
            seat.player = row.player;
        }
        match self.seats.iter().position(|s| s.is_open() && !s.invited) {
            Some(i) => Err(format!("seat {i} has no token and is not open")),
            None => Ok(()),
        }
    }

    /// The seat whose token this is.
    pub fn seat_of(&self, token: &str) -> Result<usize, ApiError> {
        let hash = ids::hash_token(token);
        self.token_hashes()
            .position(|h| h == Some(hash.as_str()))
            .ok_or(ApiError::WrongToken)
    }

    /// Each seat's token hash, seat 0 first (`None` for a seat without a token).
    pub fn token_hashes(&self) -> impl Iterator<Item = Option<&str>> {
        self.seats.iter().map(|s| s.token_hash.as_deref())
    }

    /// Each seat's player, seat 0 first (`None` for a seat that no player took).
    pub fn seat_players(&self) -> impl Iterator<Item = Option<&str>> {
        self.seats.iter().map(|s| s.player.as_deref())
    }

    /// Each seat's name, seat 0 first.
    pub fn names(&self) -> Vec<&str> {
        Seat::names(&self.seats)
    }

    /// The name of the game's creator (seat 0), if it has seats.
    pub fn creator(&self) -> Option<&str> {
        self.seats.first().map(|s| s.name.as_str())
    }

    /// The seats taken (all but the open ones) as stored, each at its index.
    pub fn taken_rows(&self) -> Vec<SeatRow> {
        (self.seats.iter().enumerate())
            .filter(|(_, s)| !s.is_open())
            .map(|(i, s)| s.row(i))
            .collect()
    }

    /// The seats open for an invited person, in order.
    pub fn open_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(|&i| self.seats[i].is_open())
    }

    /// A person who joins takes a new seat, the last, named as asked (`Player 3` for the
    /// third if not), with the hash of its token: the seat's index.
    pub fn add_person(
        &mut self,
        asked: Option<&str>,
        token_hash: String,
        player: Option<String>,
    ) -> Result<usize, NameError> {
        let seat = self.seats.len();
        let name = person_name(asked, seat)?;
        self.seats.push(Seat::person(name, token_hash, player));
        Ok(seat)
    }

    /// A person who joins takes open seat `seat`, named as asked (the seat's name if not),
    /// with the hash of its token.
    pub fn take_seat(
        &mut self,
        seat: usize,
        asked: Option<&str>,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(), ApiError> {
        let s = self
            .seats
            .get_mut(seat)
            .ok_or_else(|| ApiError::Internal(format!("no seat {seat} to take")))?;
        s.name = names::person_name(asked, || s.name.clone())?;
        s.token_hash = Some(token_hash);
        s.player = player;
        Ok(())
    }
}

/// A seat as every game's view shows it (a game adds what its seats hold beside it).
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub name: String,
    pub kind: SeatKind,
    /// A computer seat's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// A person invited by link.
    pub invited: bool,
    /// Invited, and nobody has taken the seat yet.
    pub open: bool,
    /// Resigned: the computer plays the seat.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

impl Table {
    /// Each seat as a view shows it, seat 0 first.
    pub fn seat_views(&self) -> Vec<SeatView> {
        (self.seats.iter().enumerate())
            .map(|(i, s)| SeatView {
                seat: i,
                name: s.name.clone(),
                kind: s.kind,
                level: s.agent.clone(),
                invited: s.invited,
                open: s.is_open(),
                resigned: s.resigned,
            })
            .collect()
    }
}

/// A person's name as asked, `Player 2` (seat 1's) if not.
fn person_name(asked: Option<&str>, seat: usize) -> Result<String, NameError> {
    names::person_name(asked, || format!("Player {}", seat + 1))
}

/// The seats of a game being made, in order. A person's seat on this device gets a token when
/// the game is [made](Seating::made) (the first such seat is `player`'s, when known); an
/// invited person's stays open until someone joins.
#[derive(Debug, Default)]
pub struct Seating {
    seats: Vec<Seat>,
    /// The seats on this device, to which tokens are given.
    here: Vec<usize>,
    player: Option<String>,
}

/// A game's table as made, the seed of its draws and the tokens of its seats on this device
/// (each shown once, in the answer).
#[derive(Debug)]
pub struct Made {
    pub table: Table,
    pub seed: u64,
    pub tokens: Vec<SeatToken>,
}

impl Seating {
    /// No seats yet; the first person's seat on this device is `player`'s.
    pub fn new(player: Option<String>) -> Seating {
        Seating {
            player,
            ..Seating::default()
        }
    }

    /// The seats so far.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// A person on this device, named as asked (`Player 1` for seat 0 if not).
    pub fn person(&mut self, asked: Option<&str>) -> Result<(), NameError> {
        let name = person_name(asked, self.seats.len())?;
        self.here.push(self.seats.len());
        self.seats.push(Seat {
            invited: false,
            player: self.player.take(),
            ..Seat::invited(name)
        });
        Ok(())
    }

    /// A person invited by link, named as asked (`Player 2` for seat 1 if not).
    pub fn invited(&mut self, asked: Option<&str>) -> Result<(), NameError> {
        let name = person_name(asked, self.seats.len())?;
        self.seats.push(Seat::invited(name));
        Ok(())
    }

    /// A computer played by `agent`, named after it (see [`Seat::computer`]).
    pub fn computer(&mut self, agent: &str) {
        self.seats.push(Seat::computer(agent));
    }

    /// A computer played by `agent`, named after it and its seat (see
    /// [`Seat::numbered_computer`]).
    pub fn numbered_computer(&mut self, agent: &str) {
        let number = self.seats.len();
        self.seats.push(Seat::numbered_computer(number, agent));
    }

    /// A computer played by `agent`, named as asked (`Computer 3` for seat 2 if not).
    pub fn named_computer(&mut self, asked: Option<&str>, agent: &str) -> Result<(), NameError> {
        let number = self.seats.len() + 1;
        let name = names::seat_name(asked, || format!("Computer {number}"))?;
        self.seats.push(Seat::named_computer(name, agent));
        Ok(())
    }

    /// The table, on the `chosen` seed or a new secret one, with a new token for each seat on
    /// this device (only its hash kept in the table).
    pub fn made(self, chosen: Option<Seed>) -> Result<Made, RandomError> {
        let Seating {
            mut seats, here, ..
        } = self;
        let mut tokens = Vec::with_capacity(here.len());
        for seat in here {
            let (token, hash) = mint_token()?;
            seats[seat].token_hash = Some(hash);
            tokens.push(SeatToken { seat, token });
        }
        let seed = match chosen {
            Some(Seed(seed)) => seed,
            None => ids::new_seed()?,
        };
        Ok(Made {
            table: Table {
                seats,
                challenge: None,
                made_a_challenge: false,
                seed_chosen: chosen.is_some(),
                practice: None,
                joining: Joining::Planned,
                rated: false,
                clock: None,
            },
            seed,
            tokens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made() -> Made {
        let mut s = Seating::new(Some("p1".into()));
        s.person(Some("Ann")).unwrap();
        s.invited(None).unwrap();
        s.person(None).unwrap();
        s.computer("strong");
        s.numbered_computer("greedy");
        s.named_computer(None, "random").unwrap();
        s.made(Some(Seed(7))).unwrap()
    }

    #[test]
    fn a_token_finds_its_seat_and_a_wrong_one_none() {
        let m = made();
        for t in &m.tokens {
            assert_eq!(m.table.seat_of(&t.token).unwrap(), t.seat);
        }
        assert!(matches!(
            m.table.seat_of("not a token"),
            Err(ApiError::WrongToken)
        ));
        // An open seat's missing token is no token.
        assert!(m.table.seat_of("").is_err());
    }

    #[test]
    fn minted_tokens_are_distinct_and_only_their_hashes_kept() {
        let m = made();
        assert_eq!(m.tokens.iter().map(|t| t.seat).collect::<Vec<_>>(), [0, 2]);
        assert_ne!(m.tokens[0].token, m.tokens[1].token);
        let hashes: Vec<_> = m.table.token_hashes().collect();
        assert_eq!(
            hashes,
            [
                Some(ids::hash_token(&m.tokens[0].token).as_str()),
                None,
                Some(ids::hash_token(&m.tokens[1].token).as_str()),
                None,
                None,
                None,
            ]
        );
        for t in &m.tokens {
            assert!(hashes.iter().all(|h| *h != Some(t.token.as_str())));
        }
        assert_eq!((m.seed, m.table.seed_chosen), (7, true));
        let (a, b) = (mint_token().unwrap(), mint_token().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.1, ids::hash_token(&a.0));
    }

    #[test]
    fn seats_are_named_and_the_player_sits_first() {
        let mut m = made();
        assert_eq!(
            m.table.names(),
            [
                "Ann",
                "Player 2",
                "Player 3",
                "Computer (strong)",
                "Computer 4 (greedy)",
                "Computer 6",
            ]
        );
        assert_eq!(
            m.table.seat_players().collect::<Vec<_>>(),
            [Some("p1"), None, None, None, None, None]
        );
        assert_eq!(m.table.open_seats().collect::<Vec<_>>(), [1]);
        assert!(m.table.seats[1].invited && !m.table.seats[0].invited);
        assert_eq!(m.table.creator(), Some("Ann"));
        m.table.take_seat(1, None, "h".into(), None).unwrap();
        assert_eq!(m.table.seats[1].name, "Player 2");
        assert_eq!(m.table.open_seats().count(), 0);
        let seat = m.table.add_person(Some("Bo"), "h2".into(), None).unwrap();
        assert_eq!((seat, m.table.seats[seat].name.as_str()), (6, "Bo"));
        let seat = m.table.add_person(None, "h3".into(), None).unwrap();
        assert_eq!(m.table.seats[seat].name, "Player 8");
        assert!(
            m.table
                .add_person(Some("Computer"), "h4".into(), None)
                .is_err()
        );
    }
    #[test]
    fn stored_rows_fill_the_planned_seats() {
        let row = |seat, kind, hash: Option<&str>| SeatRow {
            seat,
            name: format!("R{seat}"),
            kind,
            agent: None,
            token_hash: hash.map(str::to_owned),
            player: None,
        };
        let planned = || {
            let mut s = Seating::new(None);
            s.person(None).unwrap();
            s.invited(None).unwrap();
            s.computer("strong");
            Table::new(s.seats().to_vec())
        };
        let mut t = planned();
        t.put_rows(vec![row(0, SeatKind::Human, Some("h"))])
            .unwrap();
        assert_eq!(t.names(), ["R0", "Player 2", "Computer (strong)"]);
        assert_eq!(t.open_seats().collect::<Vec<_>>(), [1]);
        assert_eq!(t.taken_rows().len(), 2);
        // The device's person without a token, a row of no seat or of another kind: corrupt.
        assert!(planned().put_rows(Vec::new()).is_err());
        let bad = vec![
            row(0, SeatKind::Human, Some("h")),
            row(3, SeatKind::Human, None),
        ];
        assert!(planned().put_rows(bad).is_err());
        let bad = vec![row(0, SeatKind::Computer, Some("h"))];
        assert!(planned().put_rows(bad).is_err());
    }
}
