//! The server's clock: the real one, or one that starts at a given moment and runs on from
//! there (`TRACKLAYER_NOW`, for tests of days and weeks).

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Milliseconds since the Unix epoch, now, by the real clock.
fn real_ms() -> i64 {
    crate::storage::now_ms()
}

/// What time it is for the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Added to the real time.
    offset_ms: i64,
}

impl Clock {
    /// The real clock.
    pub fn real() -> Clock {
        Clock { offset_ms: 0 }
    }

    /// A clock that reads `start_ms` now and runs on in real time.
    pub fn starting_at(start_ms: i64) -> Clock {
        Clock {
            offset_ms: start_ms - real_ms(),
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

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        real_ms() + self.offset_ms
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
}
