//! How long a request waited for the core before the server began on it.
//!
//! Past what one core can answer, the queue does not form at admission: it forms in the
//! runtime's queue of tasks ready to run. A connection whose request has arrived is woken by
//! the I/O driver, then waits its turn behind every other ready connection, then reads the
//! request and answers it. That wait is what a person feels, and what admission decides on
//! (see `crate::http::admission`).
//!
//! [`Timed`] wraps a connection's future: the waker it hands down records the moment the task
//! is first woken after a poll, and the next poll measures how long the task then waited to
//! run: [`Stamp::waited`], read as a request is read during that poll. A new connection's first
//! wait is counted from its accept.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use futures_util::task::AtomicWaker;

/// The process's own zero, so that moments fit an atomic.
static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Nanoseconds since [`EPOCH`], never 0 (0 says "not woken").
fn now_ns() -> u64 {
    (EPOCH.elapsed().as_nanos() as u64).max(1)
}

/// One connection's stamps, shared by its waker and its future.
pub struct Stamp {
    /// When the task was first woken since its last poll (0: not since).
    woken: AtomicU64,
    /// How long the current poll waited to begin, in nanoseconds.
    waited: AtomicU64,
    /// The runtime's own waker of the task.
    inner: AtomicWaker,
}

impl Stamp {
    /// A stamp for a connection accepted now, for [`Timed::new`] and the connection's service.
    pub fn new() -> Arc<Stamp> {
        Arc::new(Stamp {
            woken: AtomicU64::new(now_ns()),
            waited: AtomicU64::new(0),
            inner: AtomicWaker::new(),
        })
    }

    /// How long the connection's current poll waited to begin.
    pub fn waited(&self) -> Duration {
        Duration::from_nanos(self.waited.load(Ordering::Relaxed))
    }
}

impl Wake for Stamp {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Only the first wake since the poll: the task has been ready since then.
        let _ = self
            .woken
            .compare_exchange(0, now_ns(), Ordering::Relaxed, Ordering::Relaxed);
        self.inner.wake();
    }
}

/// A connection's future, timed: see the module's text.
pub struct Timed<F> {
    inner: Pin<Box<F>>,
    stamp: Arc<Stamp>,
    waker: Waker,
}

impl<F: Future> Timed<F> {
    /// `inner`, timed from now (its accept) on; the stamp is read by the connection's service.
    pub fn new(inner: F, stamp: Arc<Stamp>) -> Timed<F> {
        Timed {
            inner: Box::pin(inner),
            waker: Waker::from(stamp.clone()),
            stamp,
        }
    }
}

impl<F: Future> Future for Timed<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        this.stamp.inner.register(cx.waker());
        let woken = this.stamp.woken.swap(0, Ordering::Relaxed);
        let waited = if woken == 0 {
            0
        } else {
            now_ns().saturating_sub(woken)
        };
        this.stamp.waited.store(waited, Ordering::Relaxed);
        this.inner
            .as_mut()
            .poll(&mut Context::from_waker(&this.waker))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A timed task parked on a channel until woken, then `busy` keeping the only thread for
    /// that long before it may run: the wait its poll measured.
    async fn waited_after(busy: Duration) -> Duration {
        let stamp = Stamp::new();
        let seen = stamp.clone();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let timed = tokio::spawn(Timed::new(
            async move {
                rx.await.unwrap();
                seen.waited()
            },
            stamp,
        ));
        // Let it poll and park on the channel.
        tokio::task::yield_now().await;
        tx.send(()).unwrap();
        std::thread::sleep(busy);
        timed.await.unwrap()
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_task_that_waits_behind_a_busy_one_measures_its_wait() {
        let waited = waited_after(Duration::from_millis(30)).await;
        assert!(waited >= Duration::from_millis(30), "{waited:?}");
        assert!(waited < Duration::from_secs(2), "{waited:?}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_task_run_at_once_waited_next_to_nothing() {
        let waited = waited_after(Duration::ZERO).await;
        assert!(waited < Duration::from_millis(20), "{waited:?}");
    }
}
