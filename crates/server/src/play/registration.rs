//! A kind of game, registered: its games in memory ([`Sessions`]) behind [`Registered`], the
//! face the parts of the server that know no game see.

use std::any::Any;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;

use crate::clock::Clock;
use crate::error::ApiError;
use crate::game::{
    ChallengeKind, ChallengeStart, Change, ComputerGame, FriendGame, GameState, Strength,
    TieBreakRule,
};
use crate::state::{AppState, Registered};
use store::{Finished, Storage, StoredGame};

use super::session::{Session, Sessions};

/// A kind of game, registered: its games in memory, and what the parts of the server that know
/// no game do with it (see [`Registered`]). Games are registered in one place, `crate::app`.
pub struct Registration<St> {
    pub(super) sessions: Sessions<St>,
}

impl<St: GameState> Registration<St> {
    pub fn new(storage: Storage, clock: Clock) -> Registration<St> {
        Registration {
            sessions: Sessions::new(storage, clock),
        }
    }
}

impl<St: GameState> Registered for Registration<St> {
    fn kind(&self) -> &'static str {
        St::KIND
    }

    fn name(&self) -> &'static str {
        St::NAME
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn loaded(&self) -> usize {
        self.sessions.len()
    }

    fn sweep(&self, idle: Duration, finished_idle: Duration) -> usize {
        self.sessions.sweep(idle, finished_idle)
    }

    fn forget(&self, id: &str) {
        self.sessions.forget(id);
    }

    /// Reads a game again if it is held in memory, or being loaded (then once it is: the load
    /// may have read storage before the change).
    fn refresh(&self, app: &AppState, id: &str) {
        if !self.sessions.holds(id) {
            return;
        }
        let (app, id) = (app.clone(), id.to_owned());
        tokio::spawn(async move {
            let refreshed = match Sessions::<St>::of(&app).get(&id).await {
                Ok(session) => session.refresh(&app).await,
                Err(e) => Err(e),
            };
            if let Err(e) = refreshed {
                tracing::warn!(game = %id, error = %e, "cannot read a game changed by another process");
            }
        });
    }

    fn rematch_made(&self, game: &str, rematch: &str) {
        self.sessions.announce_rematch(game, rematch);
    }

    fn refresh_all(&self, app: &AppState) {
        for session in self.sessions.all_loaded() {
            let app = app.clone();
            tokio::spawn(async move {
                if let Err(e) = session.refresh(&app).await {
                    tracing::warn!(game = %session.id, error = %e, "cannot read a game changed by another process");
                }
            });
        }
    }

    fn take_over<'a>(&'a self, app: &'a AppState, id: &'a str) -> BoxFuture<'a, bool> {
        async move {
            match self.sessions.get(id).await {
                Ok(session) if session.snapshot().await.computer_to_move() => {
                    session.drive_computers(app);
                    true
                }
                Ok(_) => false,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "cannot load a game to take over");
                    false
                }
            }
        }
        .boxed()
    }

    fn start_challenge<'a>(
        &'a self,
        app: &'a AppState,
        start: ChallengeStart<'a>,
    ) -> BoxFuture<'a, Result<String, ApiError>> {
        St::start_challenge_game(app, start).boxed()
    }

    fn computer_challenge(
        &self,
        seed: u64,
        variant: Option<&str>,
        strength: Strength,
        at: i64,
    ) -> Result<ComputerGame, ApiError> {
        St::computer_challenge_game(seed, variant, strength, at)
    }

    fn friend_game(&self, stored: &StoredGame) -> Result<FriendGame, ApiError> {
        St::friend_game(stored)
    }

    fn computer_name(&self) -> String {
        St::computer_name()
    }

    fn share_grid(&self, stored: StoredGame, seat: usize) -> Result<Vec<String>, ApiError> {
        Ok(St::from_stored(stored)?.share_grid(seat))
    }

    fn tie_break(&self) -> TieBreakRule {
        St::TIE_BREAK
    }

    fn challenge_kinds(&self) -> &'static [ChallengeKind] {
        St::CHALLENGES
    }

    fn finished_of(&self, stored: StoredGame, at: i64) -> Option<Finished> {
        St::from_stored(stored).ok()?.finish(at)
    }

    fn your_game<'a>(
        &'a self,
        app: &'a AppState,
        id: &'a str,
        seat: usize,
    ) -> BoxFuture<'a, Result<crate::turns::YourGame, ApiError>> {
        async move {
            let session = Session::<St>::load(app, id).await?;
            let st = session.lock().await;
            let table = st.table();
            Ok(crate::turns::YourGame {
                id: id.to_owned(),
                kind: St::KIND,
                seat,
                your_turn: st.to_act().contains(&seat)
                    && table.seats.get(seat).is_some_and(|s| !s.resigned),
                due: st.due(seat),
                others: (table.seats.iter().enumerate())
                    .filter(|(i, _)| *i != seat)
                    .map(|(_, s)| s.name.clone())
                    .collect(),
                clock: table.clock,
                started: table.waiting().is_none(),
                created: session.created,
            })
        }
        .boxed()
    }

    fn pool_rules(&self) -> Option<crate::turns::PoolRules> {
        St::pool_rules()
    }

    fn start_pool<'a>(
        &'a self,
        app: &'a AppState,
        people: Vec<crate::turns::PoolPerson>,
        computers: usize,
        clock: crate::turns::TimeControl,
        rated: bool,
        pool: Vec<store::pool::PoolSeat>,
    ) -> BoxFuture<'a, Result<String, ApiError>> {
        let level = St::pool_rules().map_or("", |r| r.level);
        let mut seats: Vec<crate::table::Seat> = (people.into_iter())
            .map(|p| crate::table::Seat::person(p.name, p.token_hash, Some(p.player)))
            .collect();
        for _ in 0..computers {
            seats.push(crate::table::Seat::numbered_computer(
                seats.len() + 1,
                level,
            ));
        }
        St::start_pool_game(app, seats, clock, rated, pool).boxed()
    }

    fn time_out<'a>(
        &'a self,
        app: &'a AppState,
        game: &'a str,
        deadline: store::clocks::Deadline,
    ) -> BoxFuture<'a, Result<bool, ApiError>> {
        async move {
            let session = Session::<St>::load(app, game).await?;
            let (app2, s) = (app.clone(), session.clone());
            // Nothing to do (the turn was played meanwhile, the game ended) stores nothing:
            // the change that did so replaced the game's deadlines already.
            const NOTHING: &str = "the deadline's turn is over";
            let done = super::detached(async move {
                s.change(&app2, |st| {
                    let (next, actions) = (st.time_out(deadline.seat, deadline.turn)?)
                        .ok_or_else(|| ApiError::Conflict(NOTHING.into()))?;
                    Ok(Change {
                        next,
                        actions,
                        seat: None,
                        answer: true,
                    })
                })
                .await
            })
            .await;
            let done = match done {
                Err(ApiError::Conflict(why)) if why == NOTHING => false,
                other => other?,
            };
            if done {
                tracing::info!(
                    game,
                    seat = deadline.seat,
                    kind = St::KIND,
                    "time ran out: the computer stands in"
                );
                session.drive_computers(app);
            }
            Ok(done)
        }
        .boxed()
    }
}

impl<St: GameState> Sessions<St> {
    /// The games of this kind in memory: its registration's.
    pub fn of(app: &AppState) -> &Sessions<St> {
        app.kinds
            .iter()
            .find_map(|k| k.as_any().downcast_ref::<Registration<St>>())
            .map(|r| &r.sessions)
            .unwrap_or_else(|| panic!("the game {} is not registered", St::KIND))
    }
}
