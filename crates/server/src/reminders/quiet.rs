//! Quiet hours: no reminder is sent between 22:00 and 08:00 of the player's own time zone.
//! When each kind of reminder is sent, given that.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

const HOUR_MS: i64 = 60 * 60 * 1000;
/// The quiet hours: from this hour...
const QUIET_FROM: i8 = 22;
/// ...to this one, the next morning.
const QUIET_UNTIL: i8 = 8;

/// A player's time zone by its IANA name (`Europe/Paris`), or why it is none.
pub fn zone(name: &str) -> Result<TimeZone, String> {
    TimeZone::get(name)
        .map_err(|_| format!("{name:?} is no time zone (one such as \"Europe/Paris\")"))
}

/// The zone a stored name stands for; UTC for a name no longer known.
pub fn zone_or_utc(name: &str) -> TimeZone {
    zone(name).unwrap_or(TimeZone::UTC)
}

fn local_hour(tz: &TimeZone, ms: i64) -> (Date, i8) {
    let z = Timestamp::from_millisecond(ms)
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .to_zoned(tz.clone());
    (z.date(), z.hour())
}

/// The moment `date` at `hour`:00 happens in `tz` (the first, if it happens twice; the time
/// after a gap, if it falls in one).
fn at_hour(tz: &TimeZone, date: Date, hour: i8) -> i64 {
    date.at(hour, 0, 0, 0)
        .to_zoned(tz.clone())
        .map(|z| z.timestamp().as_millisecond())
        .unwrap_or(i64::MAX)
}

/// Whether `ms` falls in the quiet hours of `tz`.
pub fn quiet(tz: &TimeZone, ms: i64) -> bool {
    let (_, h) = local_hour(tz, ms);
    !(QUIET_UNTIL..QUIET_FROM).contains(&h)
}

/// The quiet hours that `ms` falls in: when they began and when they end.
fn quiet_span(tz: &TimeZone, ms: i64) -> (i64, i64) {
    let (date, h) = local_hour(tz, ms);
    if h >= QUIET_FROM {
        let next = date.tomorrow().unwrap_or(date);
        (
            at_hour(tz, date, QUIET_FROM),
            at_hour(tz, next, QUIET_UNTIL),
        )
    } else {
        let before = date.yesterday().unwrap_or(date);
        (
            at_hour(tz, before, QUIET_FROM),
            at_hour(tz, date, QUIET_UNTIL),
        )
    }
}

/// The first moment from `ms` on that is not quiet.
pub fn first_allowed(tz: &TimeZone, ms: i64) -> i64 {
    if quiet(tz, ms) {
        quiet_span(tz, ms).1
    } else {
        ms
    }
}

/// When to remind a player that a challenge closing at `closes` ends their streak, meant
/// `before` ms ahead: then, or, if that is quiet, the morning after (when it still comes
/// before the close), or else the evening before (the last hour before the quiet ones).
pub fn before_close(tz: &TimeZone, closes: i64, before: i64) -> i64 {
    let meant = closes - before;
    if !quiet(tz, meant) {
        return meant;
    }
    let (began, ends) = quiet_span(tz, meant);
    if ends < closes { ends } else { began - HOUR_MS }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Milliseconds at a UTC time of 29 November 2026.
    fn utc(h: i64, m: i64) -> i64 {
        let midnight = 1_795_910_400_000; // 2026-11-29T00:00:00Z
        midnight + h * HOUR_MS + m * 60_000
    }

    #[test]
    fn the_quiet_hours_are_the_players_own() {
        let paris = zone("Europe/Paris").unwrap();
        assert!(quiet(&paris, utc(21, 30)), "22:30 in Paris");
        assert!(!quiet(&paris, utc(20, 30)), "21:30 in Paris");
        assert!(quiet(&paris, utc(6, 59)), "07:59 in Paris");
        assert!(!quiet(&paris, utc(7, 0)), "08:00 in Paris");
        let la = zone("America/Los_Angeles").unwrap();
        assert!(
            quiet(&la, utc(7, 0)),
            "23:00 the evening before in Los Angeles"
        );
        assert!(!quiet(&la, utc(16, 0)), "08:00 in Los Angeles");
        assert_eq!(first_allowed(&la, utc(7, 0)), utc(16, 0));
        assert_eq!(first_allowed(&paris, utc(12, 0)), utc(12, 0));
        assert!(zone("Mars/Olympus").is_err());
        assert_eq!(zone_or_utc("nowhere"), TimeZone::UTC);
    }

    #[test]
    fn a_streak_reminder_comes_three_hours_ahead_unless_that_is_quiet() {
        let closes = utc(24, 0);
        let three = 3 * HOUR_MS;
        // New York: 16:00 local, three hours before 19:00 local.
        let ny = zone("America/New_York").unwrap();
        assert_eq!(before_close(&ny, closes, three), utc(21, 0));
        // Paris: the close is 01:00 local, three hours before is 22:00, quiet until after the
        // close: the evening's last hour, 21:00 local.
        let paris = zone("Europe/Paris").unwrap();
        assert_eq!(before_close(&paris, closes, three), utc(20, 0));
        // Tokyo: the close is 09:00 local, three hours before is 06:00, quiet until 08:00,
        // which still comes before the close.
        let tokyo = zone("Asia/Tokyo").unwrap();
        assert_eq!(before_close(&tokyo, closes, three), utc(23, 0));
        for tz in [ny, paris, tokyo] {
            let at = before_close(&tz, closes, three);
            assert!(!quiet(&tz, at) && at < closes);
        }
    }
}
