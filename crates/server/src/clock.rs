//! The server's clock: the real one, or one that starts at a given moment and runs on from
//! there (`TRACKLAYER_NOW`, for tests of days and weeks).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Milliseconds since the Unix epoch, now, by the real clock.
fn real_ms() -> i64 {
    store::now_ms()
}

/// What time it is for the server.
///
/// Three parts: the machine's clock; a fixed offset from it (`TRACKLAYER_NOW` and tests that
/// travel to a given day: every process of a test travels alike); and, on a database shared by
/// several processes, how far the database's clock is from this machine's, measured now and
/// then ([`Clock::set_database`]), so that every process reads the database's time, whatever
/// its own clock says. A challenge closes by that time, so processes whose clocks differ agree
/// on when it closed.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    /// Added to the real time (time travel).
    offset_ms: i64,
    /// How far this machine's clock is off (only tests set it: a process whose clock is slow).
    skew_ms: i64,
    /// The database's clock minus this machine's (skew included), in milliseconds; shared by
    /// the clones of one server's clock.
    database_ms: Arc<AtomicI64>,
}

impl PartialEq for Clock {
    fn eq(&self, other: &Clock) -> bool {
        self.offset_ms == other.offset_ms && self.skew_ms == other.skew_ms
    }
}

impl Eq for Clock {}

impl Clock {
    /// The real clock.
    pub fn real() -> Clock {
        Clock::default()
    }

    /// A clock that reads `start_ms` now and runs on in real time.
    pub fn starting_at(start_ms: i64) -> Clock {
        Clock {
            offset_ms: start_ms - real_ms(),
            ..Clock::default()
        }
    }

    /// A clock that reads the RFC 3339 time `text` now (`2026-11-26T10:00:00Z`).
    pub fn parse(text: &str) -> Result<Clock, String> {
        let at = OffsetDateTime::parse(text.trim(), &Rfc3339).map_err(|e| {
            format!("{text:?} is not an RFC 3339 time such as 2026-11-26T10:00:00Z: {e}")
        })?;
        Ok(Clock::starting_at(
            (at.unix_timestamp_nanos() / 1_000_000) as i64,
        ))
    }

    /// The same clock on a machine whose own clock is `skew_ms` off (negative: behind), for
    /// tests of processes that disagree on the time.
    #[doc(hidden)]
    pub fn skewed(&self, skew_ms: i64) -> Clock {
        Clock {
            skew_ms,
            ..self.unshared()
        }
    }

    /// This clock with its own measure of the database's clock (a new server's).
    pub(crate) fn unshared(&self) -> Clock {
        Clock {
            offset_ms: self.offset_ms,
            skew_ms: self.skew_ms,
            database_ms: Arc::default(),
        }
    }

    /// What this machine's clock reads, in real milliseconds (its skew included, no offset).
    pub(crate) fn machine_ms(&self) -> i64 {
        real_ms() + self.skew_ms
    }

    /// Records the database's clock, read as `database_ms` while this machine read
    /// `machine_ms` (see [`Clock::machine_ms`]).
    pub(crate) fn set_database(&self, database_ms: i64, machine_ms: i64) {
        self.database_ms
            .store(database_ms - machine_ms, Ordering::Relaxed);
    }

    /// A time of this clock as the database's own clock reads it (what a statement compares
    /// with the database's `now`).
    pub(crate) fn in_database(&self, ms: i64) -> i64 {
        ms - self.offset_ms
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        self.machine_ms() + self.offset_ms + self.database_ms.load(Ordering::Relaxed)
    }
}

/// A time in milliseconds since the Unix epoch, in RFC 3339 (UTC, to the second, or to the
/// millisecond when it has some).
pub fn rfc3339(ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    at.format(&Rfc3339).unwrap_or_default()
}

/// Milliseconds since the Unix epoch of an RFC 3339 time.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    OffsetDateTime::parse(text, &Rfc3339)
        .ok()
        .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_starts_where_told_and_runs_on() {
        let c = Clock::parse("2026-11-26T23:59:59Z").unwrap();
        let now = c.now_ms();
        assert!(
            (1_795_737_599_000..1_795_737_601_000).contains(&now),
            "{now}"
        );
        assert!(Clock::parse("yesterday").is_err());
        assert_eq!(rfc3339(1_795_737_600_000), "2026-11-27T00:00:00Z");
        assert_eq!(
            parse_rfc3339("2026-11-27T00:00:00Z"),
            Some(1_795_737_600_000)
        );
        assert!(Clock::real().now_ms() > 1_700_000_000_000);
    }

    #[test]
    fn a_slow_machine_reads_the_databases_time_once_measured() {
        let c = Clock::parse("2026-11-26T23:59:59Z").unwrap();
        let slow = c.skewed(-30_000);
        let gap = c.now_ms() - slow.now_ms();
        assert!((29_990..30_010).contains(&gap), "{gap}");
        // The database's clock is the real one: measured, the slow machine reads it.
        slow.set_database(real_ms(), slow.machine_ms());
        let gap = c.now_ms() - slow.now_ms();
        assert!(gap.abs() < 10, "{gap}");
        // A time of the clock, as the database reads it.
        let close = 1_795_737_600_000;
        assert_eq!(c.in_database(close), close - c.offset_ms);
        assert_eq!(Clock::real().in_database(close), close);
    }
}
