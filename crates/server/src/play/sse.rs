//! Live updates: a server-sent event whenever a game changes.
//!
//! Each event is `event: state` with `data: {"version":N}`; the page fetches the state
//! again (with its own token, so it sees what its seat may do). The first event is sent at
//! once, so a page that reconnects catches up with what it missed.

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
    updates: broadcast::Receiver<usize>,
    shutdown: watch::Receiver<bool>,
    first: Option<usize>,
    last_sent: Option<usize>,
}

fn state_event(version: usize) -> Event {
    Event::default()
        .event("state")
        .data(format!("{{\"version\":{version}}}"))
}

/// The event stream of one game; it ends when the server shuts down.
pub async fn events<St: GameState>(
    session: Arc<Session<St>>,
    shutdown: watch::Receiver<bool>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let updates = session.subscribe();
    let first = session.version().await;
    let listener = Listener {
        session,
        updates,
        shutdown,
        first: Some(first),
        last_sent: None,
    };
    let events = stream::unfold(listener, |mut l| async move {
        if let Some(version) = l.first.take() {
            l.last_sent = Some(version);
            return Some((Ok(state_event(version)), l));
        }
        loop {
            if *l.shutdown.borrow() {
                return None;
            }
            let version = tokio::select! {
                _ = l.shutdown.changed() => return None,
                update = l.updates.recv() => match update {
                    Ok(version) => version,
                    // Missed some: the latest state is all the page needs.
                    Err(RecvError::Lagged(_)) => l.session.version().await,
                    Err(RecvError::Closed) => return None,
                },
            };
            if l.last_sent.is_some_and(|last| last >= version) {
                continue;
            }
            l.last_sent = Some(version);
            return Some((Ok(state_event(version)), l));
        }
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
