//! Admission control: past what the server can answer in time, a request is refused at once
//! (`503` with `Retry-After` and the API's JSON error) instead of waiting in a queue that grows.
//!
//! The decision is on what the request actually waited: from the moment it could be read to
//! the moment the server began on it ([`crate::waited`]: past one core's capacity the queue
//! forms among the connections ready to run, before any admission could count them). As in
//! CoDel-style queue management, a short wait is the sign of a queue that empties:
//!
//! - fewer than [`MANY`] requests in a row that waited [`TARGET`] or more are no queue (a few
//!   far apart on a machine busy with other work), and are taken;
//! - while more have, for less than [`INTERVAL`], the server keeps up, and a request that
//!   waited less than [`Capacity::wait`] is taken;
//! - once they have for a whole [`INTERVAL`], a queue stands, and only a request that waited
//!   less than [`TARGET`] is taken: the others are refused at once, which costs a fraction of
//!   answering them, and the queue drains to where a request waits little again.
//!
//! A request that is taken also needs a place among those answered at once (those waiting on
//! the database hold theirs); with none free it is refused at once. How many places there are
//! adapts to how long answers take ([`Places`]), between [`FEWEST`] and
//! [`Capacity::in_flight`], from [`START`]: over each [`WINDOW`] (of [`MANY`] answers at least),
//! if more than one answer in twenty took longer than [`SLOW`] the places shrink by a quarter,
//! else if every place was taken at some moment they grow by an eighth. Past capacity the
//! queue so stays short wherever it would form: on the core, or behind the database's commits.
//!
//! Live-update streams (held for as long as a page is open) and the pages' own files are not
//! counted. A request that goes on to wait for a core to think on (a hint, a review) gives its
//! place back first ([`crate::place::step_aside`]): a queue of those never keeps other requests
//! out.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A wait short enough to say the queue empties.
pub const TARGET: Duration = Duration::from_millis(5);

/// How long waits may stay over [`TARGET`] before the server counts itself past capacity.
pub const INTERVAL: Duration = Duration::from_millis(100);

/// The fewest answers or requests a decision is made on: waits over [`TARGET`] one after
/// another before a queue stands, answers in a [`WINDOW`] before the places change.
pub const MANY: u64 = 20;

/// An answer slower than this (from the request's start to its answer) counts against the
/// number of places.
pub const SLOW: Duration = Duration::from_millis(25);

/// How often the number of places is decided again.
pub const WINDOW: Duration = Duration::from_millis(100);

/// The fewest places the number shrinks to.
pub const FEWEST: usize = 8;

/// How many places there are at the start.
pub const START: usize = 32;

/// How much the server takes on at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// The most API requests answered at once (0: no bound); fewer past capacity, see the
    /// module's text.
    pub in_flight: usize,
    /// The longest a request may have waited to begin, from its arrival, while the server keeps
    /// up (0: no bound; past capacity the bound is [`TARGET`]).
    pub wait: Duration,
    /// Hints waiting for a turn to think before another is refused at once.
    pub hints_waiting: usize,
    /// Reviews waiting for a turn to think before another is refused at once.
    pub reviews_waiting: usize,
}

impl Default for Capacity {
    fn default() -> Capacity {
        Capacity {
            in_flight: 256,
            wait: Duration::from_millis(50),
            hints_waiting: 32,
            reviews_waiting: 64,
        }
    }
}

/// Whether requests wait little: the CoDel-style state of the module's text.
struct Queue {
    /// The process's zero for [`Queue::above_since`].
    epoch: Instant,
    /// Since when every request waited [`TARGET`] or more, in microseconds since `epoch` and
    /// never 0 (0: the last request waited less).
    above_since: AtomicU64,
    /// How many requests have, since then.
    above: AtomicU64,
}

impl Queue {
    fn new() -> Queue {
        Queue {
            epoch: Instant::now(),
            above_since: AtomicU64::new(0),
            above: AtomicU64::new(0),
        }
    }

    /// Whether a request that waited `waited` is taken: see the module's text. Fewer than
    /// [`MANY`] long waits one after another are no queue (a few requests far apart that waited
    /// on a machine busy with other work): they are taken whatever they waited. A server that
    /// was idle counts as keeping up: only an [`INTERVAL`] of long waits says a queue stands.
    fn allows(&self, waited: Duration, longest: Duration, now: Instant) -> bool {
        if waited < TARGET {
            self.above_since.store(0, Ordering::Relaxed);
            self.above.store(0, Ordering::Relaxed);
            return true;
        }
        let above = self.above.fetch_add(1, Ordering::Relaxed) + 1;
        let now_us = (now.saturating_duration_since(self.epoch).as_micros() as u64).max(1);
        let since =
            match self
                .above_since
                .compare_exchange(0, now_us, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => now_us,
                Err(since) => since,
            };
        if above < MANY {
            return true;
        }
        let standing = Duration::from_micros(now_us.saturating_sub(since)) >= INTERVAL;
        waited < if standing { TARGET } else { longest }
    }
}

/// The places of requests answered at once, their number adapted to how long answers take.
pub struct Places {
    most: usize,
    /// How many places there are now.
    limit: AtomicUsize,
    /// How many are taken.
    taken: AtomicUsize,
    window: Mutex<Window>,
}

/// What the answers of the current window were like.
struct Window {
    began: Instant,
    answers: u32,
    slow: u32,
    /// Whether every place was taken at some moment.
    full: bool,
}

impl Places {
    fn new(most: usize) -> Arc<Places> {
        Arc::new(Places {
            most,
            // From a few: a burst at the start (everyone coming back after a restart) finds
            // the places growing as answers stay quick, rather than shrinking from too many.
            limit: AtomicUsize::new(START.clamp(FEWEST.min(most), most)),
            taken: AtomicUsize::new(0),
            window: Mutex::new(Window {
                began: Instant::now(),
                answers: 0,
                slow: 0,
                full: false,
            }),
        })
    }

    /// How many places there are now.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// A place, if one is free.
    fn take(self: &Arc<Places>) -> Option<Place> {
        let taken = self.taken.fetch_add(1, Ordering::Relaxed);
        if taken < self.limit() {
            return Some(Place {
                places: self.clone(),
                since: Instant::now(),
                _counted: crate::telemetry::Counted::in_flight(),
            });
        }
        self.taken.fetch_sub(1, Ordering::Relaxed);
        self.window
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .full = true;
        None
    }

    /// A place given back after `took`: counted, and the number decided again at the end of a
    /// window (see the module's text).
    fn given_back(&self, took: Duration, now: Instant) {
        self.taken.fetch_sub(1, Ordering::Relaxed);
        let mut window = self.window.lock().unwrap_or_else(PoisonError::into_inner);
        window.answers += 1;
        window.slow += u32::from(took > SLOW);
        if now.saturating_duration_since(window.began) < WINDOW || u64::from(window.answers) < MANY
        {
            return;
        }
        let limit = self.limit();
        let next = if window.slow * 20 > window.answers {
            (limit - limit / 4).max(FEWEST.min(self.most))
        } else if window.full {
            (limit + (limit / 8).max(1)).min(self.most)
        } else {
            limit
        };
        if next != limit {
            self.limit.store(next, Ordering::Relaxed);
            crate::telemetry::admission_limit(next);
        }
        *window = Window {
            began: now,
            answers: 0,
            slow: 0,
            full: false,
        };
    }
}

/// A request's place: given back when dropped.
pub struct Place {
    places: Arc<Places>,
    since: Instant,
    _counted: crate::telemetry::Counted,
}

impl Drop for Place {
    fn drop(&mut self) {
        let now = Instant::now();
        self.places
            .given_back(now.saturating_duration_since(self.since), now);
    }
}

/// The requests being answered now, and how long they wait.
pub struct Admission {
    places: Option<Arc<Places>>,
    wait: Duration,
    queue: Queue,
    /// Refusals not logged yet, and the second (since the queue's epoch) last logged.
    refusals: AtomicU64,
    logged: AtomicU64,
}

impl Admission {
    pub fn new(capacity: Capacity) -> Arc<Admission> {
        Arc::new(Admission {
            places: (capacity.in_flight > 0).then(|| Places::new(capacity.in_flight)),
            wait: capacity.wait,
            queue: Queue::new(),
            refusals: AtomicU64::new(0),
            logged: AtomicU64::new(0),
        })
    }

    /// How many places there are now (0: not counted).
    pub fn places(&self) -> usize {
        self.places.as_ref().map_or(0, |p| p.limit())
    }

    /// A request refused (`why`, for the metrics): counted, and logged at most once a second.
    fn refuse(&self, why: &'static str) -> Refused {
        crate::telemetry::refused(why);
        let refused = self.refusals.fetch_add(1, Ordering::Relaxed) + 1;
        let second = self.queue.epoch.elapsed().as_secs() + 1;
        let last = self.logged.load(Ordering::Relaxed);
        if second > last
            && self
                .logged
                .compare_exchange(last, second, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.refusals.fetch_sub(refused, Ordering::Relaxed);
            tracing::warn!(
                refused,
                places = self.places.as_ref().map(|p| p.limit()),
                "past capacity: requests refused at once (503) since the last such line"
            );
        }
        Refused
    }
}

/// A request refused for lack of room: its answer is [`Refused::into_response`].
#[derive(Debug)]
pub struct Refused;

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        refusal()
    }
}

/// What a refusal says: the server did nothing, and when to ask again.
const REFUSAL: &str = r#"{"error":"the server is busy with other requests: nothing was done, try again in a moment"}"#;

/// The refusal of a request the server has no room for now: made whole here, with the headers
/// every answer of the API carries, since it goes out without passing the router's layers
/// (costing as little as it can is its point).
fn refusal() -> Response {
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, REFUSAL).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    super::harden(h);
    response
}

impl Admission {
    /// Whether a request for `path` that waited `waited` to be read is answered: with its place
    /// (to hold while it is answered, see [`crate::place::hold`]; `None` if places are not
    /// counted or it needs none), or refused (its answer to be sent at once). API requests are
    /// counted; live-update streams and the pages' files are not.
    pub fn decide(&self, path: &str, waited: Duration) -> Result<Option<Place>, Refused> {
        if !path.starts_with("/api/") || path.ends_with("/events") {
            return Ok(None);
        }
        crate::telemetry::waited(waited);
        if !self.wait.is_zero() && !self.queue.allows(waited, self.wait, Instant::now()) {
            return Err(self.refuse("waited"));
        }
        let Some(places) = &self.places else {
            return Ok(None);
        };
        places
            .take()
            .map(Some)
            .ok_or_else(|| self.refuse("in flight"))
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    const LONGEST: Duration = Duration::from_millis(50);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn while_waits_are_short_a_request_may_have_waited_up_to_the_longest() {
        let queue = Queue::new();
        let t = queue.epoch + ms(1_000);
        assert!(queue.allows(ms(1), LONGEST, t));
        // A few long waits far apart are taken, however long.
        assert!(queue.allows(ms(80), LONGEST, t + ms(40)));
        for i in 0..MANY {
            assert!(queue.allows(ms(30), LONGEST, t + ms(50 + i)));
        }
        assert!(!queue.allows(ms(50), LONGEST, t + ms(80)));
    }

    #[test]
    fn once_waits_were_long_for_an_interval_only_short_waits_are_taken_until_one_is() {
        let queue = Queue::new();
        let t = queue.epoch + ms(1_000);
        assert!(queue.allows(ms(1), LONGEST, t));
        // Every wait from here is over the target: within the interval, still taken.
        for i in 0..MANY {
            assert!(queue.allows(ms(20), LONGEST, t + ms(10 + i)));
        }
        assert!(queue.allows(ms(20), LONGEST, t + ms(109)));
        // A whole interval of long waits: a queue stands.
        assert!(!queue.allows(ms(20), LONGEST, t + ms(111)));
        assert!(!queue.allows(ms(6), LONGEST, t + ms(150)));
        // It drained: a short wait is taken, and the longer bound is back.
        assert!(queue.allows(ms(2), LONGEST, t + ms(160)));
        assert!(queue.allows(ms(20), LONGEST, t + ms(170)));
    }

    #[test]
    fn a_server_that_was_idle_keeps_up_until_waits_say_otherwise() {
        let queue = Queue::new();
        // Long after the start, with no request since: a burst's first long waits are taken.
        let t = queue.epoch + ms(5_000);
        assert!(queue.allows(ms(10), LONGEST, t));
        assert!(queue.allows(ms(30), LONGEST, t + ms(50)));
        // Long waits far apart are no queue...
        assert!(queue.allows(ms(10), LONGEST, t + ms(150)));
        // ...but many of them one after another are.
        for i in 0..MANY {
            queue.allows(ms(10), LONGEST, t + ms(160 + i));
        }
        assert!(!queue.allows(ms(10), LONGEST, t + ms(200)));
    }

    /// Ends the window begun at `began`: `answers` given back, `slow` of them slow.
    fn window(places: &Places, began: Instant, answers: u32, slow: u32) -> Instant {
        for i in 0..answers {
            places.taken.fetch_add(1, Ordering::Relaxed);
            let took = if i < slow { SLOW + ms(1) } else { ms(1) };
            places.given_back(took, began + ms(1));
        }
        let end = began + WINDOW;
        places.taken.fetch_add(1, Ordering::Relaxed);
        places.given_back(ms(1), end);
        end
    }

    #[test]
    fn places_shrink_by_a_quarter_when_answers_are_slow_and_grow_by_an_eighth_when_all_are_taken() {
        let places = Places::new(256);
        assert_eq!(places.limit(), START);
        let began = places.window.lock().unwrap().began;
        // One slow answer in ten: shrink, down to the fewest.
        let mut t = window(&places, began, 100, 10);
        assert_eq!(places.limit(), START - START / 4);
        for _ in 0..20 {
            t = window(&places, t, 100, 10);
        }
        assert_eq!(places.limit(), FEWEST);
        // Quick answers, but nobody was refused: the number stays.
        t = window(&places, t, 100, 0);
        assert_eq!(places.limit(), FEWEST);
        // Every place taken and a request refused: grow by an eighth (at least one).
        let held: Vec<Place> = (0..FEWEST).map(|_| places.take().unwrap()).collect();
        assert!(places.take().is_none());
        drop(held);
        window(&places, t, 100, 0);
        assert_eq!(places.limit(), FEWEST + 1);
    }

    #[test]
    fn places_never_shrink_below_the_fewest_nor_grow_past_the_most() {
        let places = Places::new(4);
        let began = places.window.lock().unwrap().began;
        window(&places, began, 100, 100);
        assert_eq!(places.limit(), 4);
    }

    #[test]
    fn a_few_slow_answers_in_a_hundred_change_nothing() {
        let places = Places::new(64);
        let began = places.window.lock().unwrap().began;
        window(&places, began, 100, 4);
        assert_eq!(places.limit(), START);
    }
}
