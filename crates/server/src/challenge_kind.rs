//! Kinds of periodic challenge as data. A game declares the challenges it offers
//! ([`crate::game::GameState::CHALLENGES`]): for each, the name of its kind, what its ids start
//! with, its period (a UTC day, an ISO week, a month), the setups of the game it rotates through
//! (opaque here: the game reads them), whether it counts toward a streak, and its title. The
//! server collects them from the registered games; nothing here, in `challenges` or in storage
//! knows which game declared what. A new daily challenge for a game is one more declaration.
//!
//! A challenge's id is `{prefix}-{period}`, or `{prefix}-{setup}-{period}` for a kind that
//! rotates setups (`daily-2026-11-26`, `weekly-2026-W48`, `monthly-2026-11`,
//! `weekly-SETUP-2026-W48`); [`ChallengeKind::parse`] reads one back.

use time::{Date, Duration, Month, OffsetDateTime, Weekday};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// How long a periodic challenge runs, always from 00:00 UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// A UTC day, named `2026-11-26`.
    Day,
    /// An ISO week, Monday to Sunday, named `2026-W48`.
    IsoWeek,
    /// A calendar month, named `2026-11`.
    Month,
}

/// A periodic challenge's place in time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The challenge's id.
    pub id: String,
    /// `2026-11-26`, `2026-W48` or `2026-11`.
    pub name: String,
    /// Milliseconds since the Unix epoch.
    pub opens: i64,
    pub closes: i64,
    /// The setup it is played in (see [`ChallengeKind::setups`]), if the kind rotates any.
    pub setup: Option<&'static str>,
}

/// A kind of periodic challenge, as a game declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengeKind {
    /// The kind as stored and answered (`daily`); unique among every game's kinds, and never
    /// [`FRIEND`].
    pub kind: &'static str,
    /// What its ids start with (`daily` for `daily-2026-11-26`).
    pub prefix: &'static str,
    pub period: Period,
    /// The setups of the game it is played in, one a period in turn: the period's number
    /// (the ISO week's, the day's since the epoch, the month's) modulo their count picks one,
    /// and the id names it after the prefix. Opaque here: the game that declares the kind reads
    /// them (see [`crate::game::ChallengeStart::variant`]). Empty: the game itself.
    pub setups: &'static [&'static str],
    /// Whether finishing one counts toward a streak of its kind (consecutive periods).
    pub streak: bool,
    /// Its title's head for people, before the period: `{game}` is the game's name,
    /// `{setup}` the setup (`Daily {game}`).
    pub title: &'static str,
    /// Where it is listed among the current challenges, lower first (whatever game declared
    /// it).
    pub listed: u32,
}

/// The kind of a friend challenge: made from a finished game, it never closes (declared by no
/// game: any game whose finished games make one has them).
pub const FRIEND: &str = "friend";

/// Whether a challenge of kind `kind` is a friend challenge.
pub fn is_friend(kind: &str) -> bool {
    kind == FRIEND
}

fn midnight_ms(date: Date) -> i64 {
    date.midnight().assume_utc().unix_timestamp() * 1000
}

fn date_at(ms: i64) -> Date {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .date()
}

impl Period {
    /// The period that holds `now` (milliseconds since the Unix epoch, UTC): its name, its
    /// opening and close, and its number (see [`ChallengeKind::setups`]).
    fn at(self, now: i64) -> (String, i64, i64, i64) {
        let date = date_at(now);
        match self {
            Period::Day => {
                let opens = midnight_ms(date);
                let number = i64::from(date.to_julian_day());
                (date.to_string(), opens, opens + DAY_MS, number)
            }
            Period::IsoWeek => {
                let (year, week, _) = date.to_iso_week_date();
                let monday = Date::from_iso_week_date(year, week, Weekday::Monday).unwrap_or(date);
                (
                    format!("{year}-W{week:02}"),
                    midnight_ms(monday),
                    midnight_ms(monday + Duration::days(7)),
                    i64::from(week),
                )
            }
            Period::Month => {
                let first = date.replace_day(1).unwrap_or(date);
                let next = match first.month() {
                    Month::December => {
                        Date::from_calendar_date(first.year() + 1, Month::January, 1)
                    }
                    m => Date::from_calendar_date(first.year(), m.next(), 1),
                }
                .unwrap_or(first);
                (
                    format!("{}-{:02}", first.year(), u8::from(first.month())),
                    midnight_ms(first),
                    midnight_ms(next),
                    i64::from(u8::from(first.month())),
                )
            }
        }
    }

    /// When the period named `name` opens, if it is a name of this period (not necessarily
    /// the canonical one: [`ChallengeKind::parse`] checks by making the id again).
    fn opening(self, name: &str) -> Option<i64> {
        let date = match self {
            Period::Day => Date::parse(
                name,
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .ok()?,
            Period::IsoWeek => {
                let (year, week) = name.split_once("-W")?;
                Date::from_iso_week_date(year.parse().ok()?, week.parse().ok()?, Weekday::Monday)
                    .ok()?
            }
            Period::Month => {
                let (year, month) = name.split_once('-')?;
                let month = Month::try_from(month.parse::<u8>().ok()?).ok()?;
                Date::from_calendar_date(year.parse().ok()?, month, 1).ok()?
            }
        };
        Some(midnight_ms(date))
    }

    /// The name of the period before the one named `name` (a streak's previous step), if
    /// `name` names one.
    pub fn previous(self, name: &str) -> Option<String> {
        let opens = self.opening(name)?;
        let (previous, ..) = self.at(opens - 1);
        Some(previous)
    }

    /// The name of the period that holds `now`.
    pub fn name_at(self, now: i64) -> String {
        self.at(now).0
    }
}

impl ChallengeKind {
    /// A kind called `kind`, its ids starting with its name, over `period`, titled `title`
    /// (see [`ChallengeKind::title`]), listed at `listed`: played in the game itself, counted
    /// in no streak.
    pub const fn new(
        kind: &'static str,
        period: Period,
        title: &'static str,
        listed: u32,
    ) -> ChallengeKind {
        ChallengeKind {
            kind,
            prefix: kind,
            period,
            setups: &[],
            streak: false,
            title,
            listed,
        }
    }

    /// The same, counted in a streak of its kind.
    pub const fn counted_in_streaks(self) -> ChallengeKind {
        ChallengeKind {
            streak: true,
            ..self
        }
    }

    /// The same, its ids starting with `prefix`.
    pub const fn with_prefix(self, prefix: &'static str) -> ChallengeKind {
        ChallengeKind { prefix, ..self }
    }

    /// The same, played in `setups` in turn (see [`ChallengeKind::setups`]).
    pub const fn rotating(self, setups: &'static [&'static str]) -> ChallengeKind {
        ChallengeKind { setups, ..self }
    }

    /// The challenge of this kind whose period holds `now` (milliseconds since the Unix
    /// epoch, UTC).
    pub fn at(&self, now: i64) -> Span {
        let (name, opens, closes, number) = self.period.at(now);
        let setup = match self.setups.len() {
            0 => None,
            n => self
                .setups
                .get(number.rem_euclid(n as i64) as usize)
                .copied(),
        };
        let id = match setup {
            Some(setup) => format!("{}-{setup}-{name}", self.prefix),
            None => format!("{}-{name}", self.prefix),
        };
        Span {
            id,
            name,
            opens,
            closes,
            setup,
        }
    }

    /// The challenge of this kind whose id is `id`, if it is one: the right prefix, a period
    /// of the kind's, and the setup of that period (`None` for an id of another kind, a
    /// period that does not read, or the wrong setup for its period).
    pub fn parse(&self, id: &str) -> Option<Span> {
        let rest = id.strip_prefix(self.prefix)?.strip_prefix('-')?;
        let name = match self.setups.is_empty() {
            true => rest,
            false => rest.split_once('-')?.1,
        };
        let span = self.at(self.period.opening(name)?);
        (span.id == id).then_some(span)
    }

    /// The title for people of the challenge of this kind of game `game` in setup `setup`,
    /// before the period (`Daily {game}` with the game's name in it).
    pub fn title(&self, game: &str, setup: Option<&str>) -> String {
        self.title
            .replace("{game}", game)
            .replace("{setup}", setup.unwrap_or_default())
    }
}

/// Checks the kinds the registered games declare, with the game of each: every kind's name is
/// its own (and not [`FRIEND`]), no prefix makes a friend challenge's id, and no kind's id is
/// another's, in any period (tried over several years). Says what clashes.
pub fn check(kinds: &[(&str, &ChallengeKind)]) -> Result<(), String> {
    const WEEK_MS: i64 = 7 * DAY_MS;
    /// 2026-01-01: the ids are tried from there, a week and a day apart, over six years.
    const FROM: i64 = 1_767_225_600_000;
    for (i, &(game, a)) in kinds.iter().enumerate() {
        if a.prefix.is_empty() || is_friend(a.kind) || is_friend_id(&format!("{}-", a.prefix)) {
            return Err(format!(
                "{game}'s challenge kind {:?} (ids {:?}) is taken by friend challenges",
                a.kind, a.prefix
            ));
        }
        for &(other, b) in &kinds[i + 1..] {
            if a.kind == b.kind {
                return Err(format!(
                    "{game} and {other} both declare the challenge kind {:?}",
                    a.kind
                ));
            }
            let clash = (0..320)
                .map(|n| FROM + n * (WEEK_MS + DAY_MS))
                .flat_map(|t| [a.at(t).id, b.at(t).id])
                .find(|id| a.parse(id).is_some() && b.parse(id).is_some());
            if let Some(id) = clash {
                return Err(format!(
                    "{game}'s challenge kind {:?} and {other}'s {:?} both make the id {id}",
                    a.kind, b.kind
                ));
            }
        }
    }
    Ok(())
}

/// The setup named in a friend challenge's id (`friend-{setup}-{game id}`), if it names one:
/// a friend challenge made from a game played in a setup of its game is played in it.
pub fn friend_setup(id: &str) -> Option<&str> {
    let rest = id.strip_prefix(FRIEND)?.strip_prefix('-')?;
    rest.rsplit_once('-').map(|(setup, _)| setup)
}

/// Whether `id` is a friend challenge's.
pub fn is_friend_id(id: &str) -> bool {
    id.strip_prefix(FRIEND)
        .is_some_and(|rest| rest.starts_with('-'))
}

/// A friend challenge's id: its game's `setup`, if any, then a random `suffix`.
pub fn friend_id(setup: Option<&str>, suffix: &str) -> String {
    match setup {
        Some(setup) => format!("{FRIEND}-{setup}-{suffix}"),
        None => format!("{FRIEND}-{suffix}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = DAY_MS;
    /// 2026-11-26T12:00:00Z, a Thursday of ISO week 48.
    const THURSDAY_NOON: i64 = 1_795_694_400_000;

    const DAILY: ChallengeKind = ChallengeKind::new("daily", Period::Day, "{game}", 0);
    const OTHER_DAILY: ChallengeKind = ChallengeKind::new("other-daily", Period::Day, "", 0);
    const WEEKLY: ChallengeKind = ChallengeKind::new("weekly", Period::IsoWeek, "", 0);
    const MONTHLY: ChallengeKind = ChallengeKind::new("monthly", Period::Month, "", 0);
    const ROTATING: ChallengeKind = ChallengeKind::new("weekly-rotating", Period::IsoWeek, "", 0)
        .with_prefix("weekly")
        .rotating(&["even", "odd"]);

    fn rfc3339(ms: i64) -> String {
        crate::clock::rfc3339(ms)
    }

    #[test]
    fn periods_follow_utc_days_and_iso_weeks() {
        let d = DAILY.at(THURSDAY_NOON);
        assert_eq!(d.id, "daily-2026-11-26");
        assert_eq!(rfc3339(d.opens), "2026-11-26T00:00:00Z");
        assert_eq!(rfc3339(d.closes), "2026-11-27T00:00:00Z");
        assert_eq!(OTHER_DAILY.at(THURSDAY_NOON).id, "other-daily-2026-11-26");
        let w = WEEKLY.at(THURSDAY_NOON);
        assert_eq!(w.id, "weekly-2026-W48");
        assert_eq!(rfc3339(w.opens), "2026-11-23T00:00:00Z");
        assert_eq!(rfc3339(w.closes), "2026-11-30T00:00:00Z");
        // The last millisecond of a day is still that day; midnight is the next.
        assert_eq!(DAILY.at(d.closes - 1).id, d.id);
        assert_eq!(DAILY.at(d.closes).id, "daily-2026-11-27");
        // Sunday 23:59 is still week 48; Monday is week 49.
        assert_eq!(WEEKLY.at(w.closes - 1).id, w.id);
        assert_eq!(WEEKLY.at(w.closes).id, "weekly-2026-W49");
        // ISO week 1 of 2027 starts on Monday 4 January 2027; 2027-01-03 is 2026-W53.
        let jan3 = THURSDAY_NOON + 38 * DAY;
        assert_eq!(DAILY.at(jan3).id, "daily-2027-01-03");
        assert_eq!(WEEKLY.at(jan3).id, "weekly-2026-W53");
        assert_eq!(WEEKLY.at(jan3 + DAY).id, "weekly-2027-W01");
    }

    #[test]
    fn months_run_from_the_first_to_the_first_across_years() {
        let m = MONTHLY.at(THURSDAY_NOON);
        assert_eq!(
            (m.id.as_str(), m.name.as_str()),
            ("monthly-2026-11", "2026-11")
        );
        assert_eq!(rfc3339(m.opens), "2026-11-01T00:00:00Z");
        assert_eq!(rfc3339(m.closes), "2026-12-01T00:00:00Z");
        assert_eq!(MONTHLY.at(m.closes - 1).id, m.id);
        let december = MONTHLY.at(m.closes);
        assert_eq!(december.id, "monthly-2026-12");
        assert_eq!(rfc3339(december.closes), "2027-01-01T00:00:00Z");
        assert_eq!(MONTHLY.at(december.closes).id, "monthly-2027-01");
        // February of a leap year has 29 days.
        let feb_2028 = MONTHLY.at(1_833_062_400_000); // 2028-02-02
        assert_eq!(feb_2028.id, "monthly-2028-02");
        assert_eq!(rfc3339(feb_2028.closes), "2028-03-01T00:00:00Z");
        assert_eq!(feb_2028.closes - feb_2028.opens, 29 * DAY);
    }

    #[test]
    fn a_rotating_kind_names_the_setup_of_each_period() {
        let w48 = ROTATING.at(THURSDAY_NOON);
        assert_eq!(w48.id, "weekly-even-2026-W48");
        assert_eq!((w48.name.as_str(), w48.setup), ("2026-W48", Some("even")));
        let w49 = ROTATING.at(w48.closes);
        assert_eq!(
            (w49.id.as_str(), w49.setup),
            ("weekly-odd-2026-W49", Some("odd"))
        );
    }

    #[test]
    fn ids_are_read_back_by_their_declared_pattern() {
        // Valid: each kind reads its own ids, and finds their period and setup.
        let d = DAILY.parse("daily-2026-11-26").expect("a daily's id");
        assert_eq!(
            (d.name.as_str(), d.opens),
            ("2026-11-26", DAILY.at(THURSDAY_NOON).opens)
        );
        assert_eq!(
            WEEKLY.parse("weekly-2026-W48"),
            Some(WEEKLY.at(THURSDAY_NOON))
        );
        assert_eq!(
            MONTHLY.parse("monthly-2028-02").map(|s| s.name),
            Some("2028-02".into())
        );
        let r = ROTATING
            .parse("weekly-odd-2026-W49")
            .expect("a rotating kind's id");
        assert_eq!(r.setup, Some("odd"));
        // The wrong period: a week is no day, a day that is not, a week 54, not zero-padded.
        assert_eq!(DAILY.parse("daily-2026-W48"), None);
        assert_eq!(DAILY.parse("daily-2026-02-30"), None);
        assert_eq!(WEEKLY.parse("weekly-2026-11-26"), None);
        assert_eq!(WEEKLY.parse("weekly-2026-W54"), None);
        assert_eq!(WEEKLY.parse("weekly-2026-W8"), None);
        assert_eq!(MONTHLY.parse("monthly-2026-13"), None);
        // The wrong setup for its period, or none where one is due; a setup where none is.
        assert_eq!(ROTATING.parse("weekly-even-2026-W49"), None);
        assert_eq!(ROTATING.parse("weekly-2026-W49"), None);
        assert_eq!(WEEKLY.parse("weekly-odd-2026-W49"), None);
        // An unknown prefix, or another kind's that starts the same.
        assert_eq!(DAILY.parse("nightly-2026-11-26"), None);
        assert_eq!(DAILY.parse("other-daily-2026-11-26"), None);
        assert_eq!(OTHER_DAILY.parse("daily-2026-11-26"), None);
        assert_eq!(DAILY.parse("daily2026-11-26"), None);
        assert_eq!(DAILY.parse(""), None);
    }

    #[test]
    fn a_period_knows_the_one_before() {
        assert_eq!(
            Period::Day.previous("2026-11-26").as_deref(),
            Some("2026-11-25")
        );
        assert_eq!(
            Period::Day.previous("2027-01-01").as_deref(),
            Some("2026-12-31")
        );
        assert_eq!(
            Period::IsoWeek.previous("2027-W01").as_deref(),
            Some("2026-W53")
        );
        assert_eq!(
            Period::Month.previous("2027-01").as_deref(),
            Some("2026-12")
        );
        assert_eq!(Period::Day.previous("yesterday"), None);
    }

    #[test]
    fn declarations_that_clash_are_told() {
        let ok = [
            ("a", &DAILY),
            ("a", &WEEKLY),
            ("b", &OTHER_DAILY),
            ("a", &ROTATING),
        ];
        assert_eq!(check(&ok), Ok(()));
        let twice = ChallengeKind {
            prefix: "twice",
            ..DAILY
        };
        let e = check(&[("a", &DAILY), ("b", &twice)]).unwrap_err();
        assert!(
            e.contains("both declare the challenge kind \"daily\""),
            "{e}"
        );
        let same_ids = ChallengeKind {
            kind: "another",
            ..DAILY
        };
        let e = check(&[("a", &DAILY), ("b", &same_ids)]).unwrap_err();
        assert!(e.contains("both make the id daily-2026-"), "{e}");
        let friendly = ChallengeKind {
            kind: "friendly",
            prefix: "friend",
            ..DAILY
        };
        assert!(check(&[("a", &friendly)]).is_err());
        let named_friend = ChallengeKind {
            kind: FRIEND,
            ..DAILY
        };
        assert!(check(&[("a", &named_friend)]).is_err());
    }

    #[test]
    fn friend_ids_name_their_setup() {
        assert_eq!(
            friend_setup("friend-hills-0123456789abcdef01234567"),
            Some("hills")
        );
        assert_eq!(friend_setup("friend-0123456789abcdef01234567"), None);
        assert_eq!(friend_setup("daily-2026-11-27"), None);
        assert_eq!(friend_id(Some("x"), "ab"), "friend-x-ab");
        assert_eq!(friend_id(None, "ab"), "friend-ab");
        assert!(is_friend(FRIEND) && !is_friend("daily"));
        assert!(is_friend_id("friend-ab") && !is_friend_id("friendly-2026-11-26"));
    }
}
