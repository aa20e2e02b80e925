//! Live updates: a server-sent event whenever a game changes.
//!
//! Each event is `event: state` whose `data` is the state of the game as the stream's seat sees
//! it (as a spectator does, for a stream without a seat): the same JSON as `GET
//! /api/{kind}/games/{id}`, its `version` among it. The page takes it as it is instead of
//! reading the state again. The first event is sent at once, so a page that reconnects catches
//! up with what it missed; versions missed in between are skipped (the latest state is all a
//! page needs). The state is sent again, at the same version, when a finished game's rematch is
//! made (its `rematch` says which game).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use futures_util::stream;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};

use crate::game::GameState;
use crate::play::session::Session;

struct Listener<St> {
    session: Arc<Session<St>>,
    seat: Option<usize>,
    updates: watch::Receiver<usize>,
    /// Rematches made (of every game of the kind): when this game's is made, the state is
    /// sent again (it says which game).
    rematches: broadcast::Receiver<(String, String)>,
    shutdown: watch::Receiver<bool>,
    first: bool,
    last_sent: Option<usize>,
    /// Counted among the open streams while it lives.
    _open: crate::telemetry::Counted,
}

impl<St: GameState> Listener<St> {
    /// The state now as the stream's seat sees it, and its version.
    async fn state(&self) -> (usize, Event) {
        let st = self.session.lock().await;
        let version = st.version();
        let data = serde_json::to_string(&self.session.view(&st, self.seat))
            .unwrap_or_else(|_| format!("{{\"version\":{version}}}"));
        drop(st);
        (version, Event::default().event("state").data(data))
    }
}

/// The event stream of one game, as `seat` (if any) sees it; it ends when the server shuts down.
pub async fn events<St: GameState>(
    session: Arc<Session<St>>,
    seat: Option<usize>,
    rematches: broadcast::Receiver<(String, String)>,
    shutdown: watch::Receiver<bool>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let updates = session.subscribe();
    let listener = Listener {
        session,
        seat,
        updates,
        rematches,
        shutdown,
        first: true,
        last_sent: None,
        _open: crate::telemetry::Counted::stream(),
    };
    let events = stream::unfold(listener, |mut l| async move {
        if l.first {
            l.first = false;
            let (version, event) = l.state().await;
            l.last_sent = Some(version);
            return Some((Ok(event), l));
        }
        loop {
            if *l.shutdown.borrow() {
                return None;
            }
            let version = tokio::select! {
                _ = l.shutdown.changed() => return None,
                made = l.rematches.recv() => {
                    match made {
                        Ok((game, rematch)) if game == l.session.id => {
                            // Not a new version: the same state, now with its rematch.
                            l.session.set_rematch(Some(rematch));
                            let (now, event) = l.state().await;
                            l.last_sent = Some(now);
                            return Some((Ok(event), l));
                        }
                        Err(RecvError::Closed) => return None,
                        // Another game's, or missed some (rare: a rematch is asked for by a
                        // click): nothing to send.
                        _ => continue,
                    }
                }
                // The latest version: those in between are skipped.
                changed = l.updates.changed() => match changed {
                    Ok(()) => *l.updates.borrow_and_update(),
                    Err(_) => return None,
                },
            };
            if l.last_sent.is_some_and(|last| last >= version) {
                continue;
            }
            let (now, event) = l.state().await;
            if l.last_sent.is_some_and(|last| last >= now) {
                continue;
            }
            l.last_sent = Some(now);
            return Some((Ok(event), l));
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
