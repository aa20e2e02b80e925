//! Turns to think: computer players run on blocking threads, at most one per core at a time,
//! and the turns are handed out by priority. A hint is a person waiting on the answer: it
//! goes before every computer's move. Computer moves are served in the order asked, so each
//! game's computers (one driver a game, one request at a time) get their turn in rotation and
//! none is starved by busier games. A review of a finished game waits in a queue of its own,
//! served only when no hint and no computer waits, and never takes the last free core: however
//! many reviews are asked for, a computer opponent's move finds a core at most one review's
//! length away (with one core, at most one review).

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
    /// A review of a finished game: after everything else, on all cores but one.
    Review,
}

#[derive(Default)]
struct Queue {
    free: usize,
    people: VecDeque<oneshot::Sender<Turn>>,
    computers: VecDeque<oneshot::Sender<Turn>>,
    reviews: VecDeque<oneshot::Sender<Turn>>,
    /// Review turns handed out and not given back.
    reviewing: usize,
    /// The most review turns at once: every core but one (at least one).
    most_reviewing: usize,
}

impl Queue {
    /// Whether a review may take a free turn now.
    fn room_for_a_review(&self) -> bool {
        self.people.is_empty() && self.computers.is_empty() && self.reviewing < self.most_reviewing
    }
}

/// The turns to think, shared by the whole server.
pub struct Thinkers {
    queue: Mutex<Queue>,
}

/// A turn to think; the next in line gets it when this is dropped.
pub struct Turn {
    /// `None` once handed on.
    thinkers: Option<Arc<Thinkers>>,
    /// A review's turn (counted in `Queue::reviewing`).
    review: bool,
}

impl Thinkers {
    /// `n` turns at once (one per core).
    pub fn new(n: usize) -> Arc<Thinkers> {
        Arc::new(Thinkers {
            queue: Mutex::new(Queue {
                free: n.max(1),
                most_reviewing: n.saturating_sub(1).max(1),
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
        let review = priority == Priority::Review;
        let waiting = {
            let mut q = self.queue();
            let now = q.free > 0
                && match priority {
                    Priority::Person => true,
                    Priority::Computer => q.people.is_empty(),
                    Priority::Review => q.room_for_a_review(),
                };
            if now {
                q.free -= 1;
                if review {
                    q.reviewing += 1;
                }
                return Turn {
                    thinkers: Some(self.clone()),
                    review,
                };
            }
            let (tx, rx) = oneshot::channel();
            match priority {
                Priority::Person => q.people.push_back(tx),
                Priority::Computer => q.computers.push_back(tx),
                Priority::Review => q.reviews.push_back(tx),
            }
            rx
        };
        match waiting.await {
            Ok(turn) => turn,
            // The sender is only dropped when it hands over a turn, so this does not happen;
            // should it, think anyway rather than wait for ever.
            Err(_) => Turn {
                thinkers: Some(self.clone()),
                review: false,
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

    /// A review's turn, unless `most` reviews wait for one already: then `None` at once.
    pub async fn review_turn(self: &Arc<Self>, most: usize) -> Option<Turn> {
        if self.queue().reviews.len() >= most {
            return None;
        }
        Some(self.turn(Priority::Review).await)
    }

    /// People waiting, and computers waiting.
    pub fn waiting(&self) -> (usize, usize) {
        let q = self.queue();
        (q.people.len(), q.computers.len())
    }

    /// Reviews waiting.
    #[cfg(test)]
    fn reviews_waiting(&self) -> usize {
        self.queue().reviews.len()
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(thinkers) = self.thinkers.take() else {
            return;
        };
        let mut q = thinkers.queue();
        if self.review {
            q.reviewing -= 1;
        }
        loop {
            let (next, review) = if let Some(next) = q.people.pop_front() {
                (next, false)
            } else if let Some(next) = q.computers.pop_front() {
                (next, false)
            } else if q.reviewing < q.most_reviewing
                && let Some(next) = q.reviews.pop_front()
            {
                (next, true)
            } else {
                q.free += 1;
                return;
            };
            let turn = Turn {
                thinkers: Some(thinkers.clone()),
                review,
            };
            if review {
                q.reviewing += 1;
            }
            match next.send(turn) {
                Ok(()) => return,
                // That request has gone away: the turn goes to the next in line, here (its
                // own drop must not hand it on from inside this loop).
                Err(mut turn) => {
                    turn.thinkers = None;
                    if review {
                        q.reviewing -= 1;
                    }
                }
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

    #[tokio::test]
    async fn reviews_come_after_the_computers_and_leave_a_core_free() {
        let thinkers = Thinkers::new(2);
        // One review thinks; a second waits although a core is free: that core is kept.
        let first = thinkers.turn(Priority::Review).await;
        let second = {
            let thinkers = thinkers.clone();
            tokio::spawn(async move { thinkers.turn(Priority::Review).await })
        };
        while thinkers.reviews_waiting() == 0 {
            tokio::task::yield_now().await;
        }
        // A computer takes the free core at once.
        let computer = tokio::time::timeout(
            std::time::Duration::from_secs(1),
            thinkers.turn(Priority::Computer),
        )
        .await
        .expect("a computer finds the core the reviews leave");
        // With both cores busy, a computer waiting goes before the review waiting.
        let order = Arc::new(Mutex::new(Vec::new()));
        let waiter = {
            let (thinkers, order) = (thinkers.clone(), order.clone());
            tokio::spawn(async move {
                let _turn = thinkers.turn(Priority::Computer).await;
                order.lock().unwrap().push("computer");
            })
        };
        while thinkers.waiting().1 == 0 {
            tokio::task::yield_now().await;
        }
        drop(first);
        waiter.await.unwrap();
        assert_eq!(*order.lock().unwrap(), ["computer"]);
        // Now the review gets its turn.
        drop(computer);
        let second = tokio::time::timeout(std::time::Duration::from_secs(1), second)
            .await
            .expect("the review waiting gets its turn")
            .unwrap();
        assert!(second.review);
        // Past the bound, a review is refused at once.
        let blocked = {
            let thinkers = thinkers.clone();
            tokio::spawn(async move { thinkers.turn(Priority::Review).await })
        };
        while thinkers.reviews_waiting() == 0 {
            tokio::task::yield_now().await;
        }
        assert!(thinkers.review_turn(1).await.is_none());
        drop(second);
        blocked.await.unwrap();
    }
}
