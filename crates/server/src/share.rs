//! Sharing a challenge's result without spoiling it: the text a player shares (the challenge,
//! the score, the rank, the computer's score, the streak and a grid of where the tiles lie,
//! never a tile, an orientation or a roll), and what a link preview shows of a challenge.

use serde::Serialize;
use time::Date;
use time::macros::format_description;

use crate::challenge_kind::{Period, is_friend};
use crate::challenges;
use crate::error::ApiError;
use crate::state::AppState;
use store::challenges::ChallengeRow;

/// `GET /api/challenges/{id}/share`.
#[derive(Debug, Serialize)]
pub struct Shared {
    pub text: String,
    /// The challenge's page.
    pub url: String,
}

/// A challenge's title for people: its kind's declared title with the game's name, then its
/// period (`Daily GAME · 27 November 2026`, `Weekly GAME · week 48 of 2026`, `Monthly GAME ·
/// November 2026`); a friend challenge's names its maker (`Ann's GAME challenge`).
pub fn title(app: &AppState, c: &ChallengeRow) -> String {
    let game = app.kind(c.game.as_str()).map_or("the game", |k| k.name());
    let period = c.period.as_deref().unwrap_or_default();
    if is_friend(&c.kind) {
        return match &c.by {
            Some(by) => format!("{by}'s {game} challenge"),
            None => format!("A friend's {game} challenge"),
        };
    }
    let Some(kind) = app.challenge_kind(c.game.as_str(), &c.kind) else {
        return format!("{game} · {period}");
    };
    let setup = challenges::setup_of(app, c);
    let head = kind.title(game, setup.as_deref());
    let when = match kind.period {
        Period::Day => day_text(period),
        Period::IsoWeek => match period.split_once("-W") {
            Some((year, week)) => format!("week {} of {year}", week.trim_start_matches('0')),
            None => period.to_owned(),
        },
        Period::Month => month_text(period),
    };
    format!("{head} · {when}")
}

/// `2026-11-27` as `27 November 2026` (as it is, if it is not a day).
fn day_text(day: &str) -> String {
    Date::parse(day, format_description!("[year]-[month]-[day]"))
        .ok()
        .and_then(|d| {
            d.format(format_description!(
                "[day padding:none] [month repr:long] [year]"
            ))
            .ok()
        })
        .unwrap_or_else(|| day.to_owned())
}

/// `2026-11` as `November 2026`.
fn month_text(month: &str) -> String {
    Date::parse(
        &format!("{month}-01"),
        format_description!("[year]-[month]-[day]"),
    )
    .ok()
    .and_then(|d| {
        d.format(format_description!("[month repr:long] [year]"))
            .ok()
    })
    .unwrap_or_else(|| month.to_owned())
}

/// `1st`, `2nd`, `3rd`, `11th`, `22nd`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The result the token's player shares of challenge `id`, with the link `base` +
/// `/challenges/{id}` (`base` is the site's address, or empty for a path). `409` until the
/// player has finished it.
pub async fn share(
    app: &AppState,
    id: &str,
    token: Option<&str>,
    base: &str,
) -> Result<Shared, ApiError> {
    let player = challenges::authenticate(app, token).await?;
    let stats = challenges::load(app, id).await?;
    let c = &stats.challenge;
    let entry = app.storage.entry(&c.id, &player.id).await?;
    let Some(entry) = entry.filter(|e| e.finished.is_some()) else {
        return Err(ApiError::Conflict(format!(
            "finish the challenge {} first: a result is shared once it is played",
            c.id
        )));
    };
    let score = entry.score.unwrap_or_default();
    let points = if score.abs() == 1 { "point" } else { "points" };
    let rank = if entry.ranked {
        let (rank, _) = app.storage.rank_and_around(&entry, 0).await?;
        format!("{} of {}", ordinal(rank), stats.finished)
    } else {
        "unranked".to_owned()
    };
    let mut lines = vec![
        format!("tracklayer · {}", title(app, c)),
        format!("{score} {points} · {rank}"),
    ];
    let mut extra = Vec::new();
    if let Some(computer) = &stats.computer {
        // Its own game on the same draws (a table may have computers of its own).
        extra.push(format!("the computer's own game {}", computer.result.score));
    }
    let now = app.clock.now_ms();
    if let Some(streak) = challenges::streaks(app, &player.id, now)
        .await?
        .remove(&c.kind)
        .filter(|s| s.current > 0)
    {
        let unit = match app
            .challenge_kind(c.game.as_str(), &c.kind)
            .map(|k| k.period)
        {
            Some(Period::IsoWeek) => "week",
            Some(Period::Month) => "month",
            _ => "day",
        };
        extra.push(format!("🔥 {unit} {}", streak.current));
    }
    if !extra.is_empty() {
        lines.push(capital(&extra.join(" · ")));
    }
    let stored = app.storage.load_game(&entry.game).await?.ok_or_else(|| {
        ApiError::Internal(format!("the game {} of an entry is gone", entry.game))
    })?;
    let grid = app.kind(c.game.as_str())?.share_grid(stored, entry.seat)?;
    if !grid.is_empty() {
        lines.push(String::new());
        lines.extend(grid);
    }
    let url = format!("{base}/challenges/{}", c.id);
    lines.push(String::new());
    lines.push(url.clone());
    Ok(Shared {
        text: lines.join("\n"),
        url,
    })
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The site's address as a request names it (`https://example.org`): its `Host`, and the
/// scheme a proxy in front says it was reached by (`X-Forwarded-Proto`); empty when the host is
/// missing or not a plain host name (a link is then a path). It only ever goes into the
/// asker's own text.
pub fn base_url(headers: &axum::http::HeaderMap) -> String {
    let Some(host) = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
    else {
        return String::new();
    };
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|h| h.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    format!("{}://{host}", if https { "https" } else { "http" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_dates_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .map(ordinal)
            .into();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
        assert_eq!(day_text("2026-11-07"), "7 November 2026");
        assert_eq!(month_text("2026-02"), "February 2026");
        assert_eq!(day_text("not a day"), "not a day");
    }
}
