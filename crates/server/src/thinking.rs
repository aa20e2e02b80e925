//! Turns to think: computer players run on blocking threads, at most one per core at a time,
//! and the turns are handed out by priority. A hint is a person waiting on the answer: it
//! goes before every computer's move. Computer moves are served in the order asked, so each
//! game's computers (one driver a game, one request at a time) get their turn in rotation and
//! none is starved by busier games.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// Who is asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// A person waits on the answer (a hint).
    Person,
    /// A computer seat's move.
    Computer,
}

#[derive(Default)]
struct Queue {
    free: usize,
    people: VecDeque<oneshot::Sender<Turn>>,
    computers: VecDeque<oneshot::Sender<Turn>>,
}

/// The turns to think, shared by the whole server.
pub struct Thinkers {
    queue: Mutex<Queue>,
}

/// A turn to think; the next in line gets it when this is dropped.
pub struct Turn {
    /// `None` once handed on.
    thinkers: Option<Arc<Thinkers>>,
}

impl Thinkers {
    /// `n` turns at once (one per core).
    pub fn new(n: usize) -> Arc<Thinkers> {
        Arc::new(Thinkers {
            queue: Mutex::new(Queue {
                free: n.max(1),
                ..Queue::default()
            }),
        })
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        // Every change under the lock is a push, a pop or a count: still whole after a panic.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a turn. Cancel-safe: a turn handed to a request that has gone away passes on.
    pub async fn turn(self: &Arc<Self>, priority: Priority) -> Turn {
        let waiting = {
            let mut q = self.queue();
            let ahead = match priority {
                Priority::Person => 0,
                Priority::Computer => q.people.len(),
            };
            if q.free > 0 && ahead == 0 {
                q.free -= 1;
                return Turn {
                    thinkers: Some(self.clone()),
                };
            }
            let (tx, rx) = oneshot::channel();
            match priority {
                Priority::Person => q.people.push_back(tx),
                Priority::Computer => q.computers.push_back(tx),
            }
            rx
        };
        match waiting.await {
            Ok(turn) => turn,
            // The sender is only dropped when it hands over a turn, so this does not happen;
            // should it, think anyway rather than wait for ever.
            Err(_) => Turn {
                thinkers: Some(self.clone()),
            },
        }
    }

    /// A person's turn, unless `most` people wait for one already: then `None` at once (the
    /// server is past what it can think about in time).
    pub async fn person_turn(self: &Arc<Self>, most: usize) -> Option<Turn> {
        if self.queue().people.len() >= most {
            return None;
        }
        Some(self.turn(Priority::Person).await)
    }

    /// People waiting, and computers waiting.
    #[cfg(test)]
    fn waiting(&self) -> (usize, usize) {
        let q = self.queue();
        (q.people.len(), q.computers.len())
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(thinkers) = self.thinkers.take() else {
            return;
        };
        let mut q = thinkers.queue();
        loop {
            let Some(next) = q.people.pop_front().or_else(|| q.computers.pop_front()) else {
                q.free += 1;
                return;
            };
            let turn = Turn {
                thinkers: Some(thinkers.clone()),
            };
            match next.send(turn) {
                Ok(()) => return,
                // That request has gone away: the turn goes to the next in line, here (its
                // own drop must not hand it on from inside this loop).
                Err(mut turn) => turn.thinkers = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_person_goes_before_the_computers_waiting() {
        let thinkers = Thinkers::new(1);
        let first = thinkers.turn(Priority::Computer).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, p) in [
            Priority::Computer,
            Priority::Computer,
            Priority::Person,
            Priority::Computer,
        ]
        .into_iter()
        .enumerate()
        {
            let (mine, order) = (thinkers.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _turn = mine.turn(p).await;
                order.lock().unwrap().push(i);
            }));
            tokio::task::yield_now().await;
            while thinkers.waiting().0 + thinkers.waiting().1 < i + 1 {
                tokio::task::yield_now().await;
            }
        }
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [2, 0, 1, 3]);
    }

    #[tokio::test]
    async fn a_turn_handed_to_a_request_gone_away_passes_on() {
        let thinkers = Thinkers::new(1);
        let first = thinkers.turn(Priority::Computer).await;
        let gone = {
            let thinkers = thinkers.clone();
            tokio::spawn(async move { thinkers.turn(Priority::Person).await })
        };
        while thinkers.waiting().0 == 0 {
            tokio::task::yield_now().await;
        }
        gone.abort();
        let _ = gone.await;
        drop(first);
        // The turn came back: another request gets it at once.
        let again = tokio::time::timeout(
            std::time::Duration::from_secs(1),
            thinkers.turn(Priority::Computer),
        )
        .await;
        assert!(again.is_ok());
    }
}
