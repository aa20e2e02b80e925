//! The sender: one process at a time (a lease, where several share PostgreSQL) looks every few
//! seconds for the reminders due, and once a minute for the daily and streak reminders that
//! have come due for the players who chose them. Each reminder is claimed before it is sent
//! and marked sent after, so it goes once; a subscription its push service says is gone (404,
//! 410) is removed.

use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding as _};
use store::reminders::{Choices, Reminder, Subscription};
use tokio::sync::watch;
use web_push_native::{Auth, WebPushBuilder, p256};

use super::{Message, quiet, store_reminder};
use crate::challenge_kind::Period;
use crate::error::ApiError;
use crate::play::leases::Lease;
use crate::state::AppState;

/// How often the sender looks for reminders due.
const LOOK: Duration = Duration::from_secs(5);
/// How long a claim on a reminder holds before another look may take it.
const HOLD_MS: i64 = 60_000;
/// How many reminders one look sends at most.
const BATCH: usize = 100;
/// How long before a streak's last chance closes its reminder comes.
const STREAK_AHEAD_MS: i64 = 3 * 60 * 60 * 1000;
/// A reminder a push service would not take now is tried again this much later.
const RETRY_MS: i64 = 5 * 60 * 1000;
/// How long a reminder sent is kept: past the day of a daily's or a streak's key (a turn's key
/// names the turn itself, which never comes again).
const KEEP_SENT_MS: i64 = 3 * 24 * 60 * 60 * 1000;
/// How long a push service keeps a message for a device that is off.
const TTL: Duration = Duration::from_secs(12 * 60 * 60);

/// Sends reminders as they come due, until `stop`.
pub async fn run(app: AppState, mut stop: watch::Receiver<bool>) {
    let client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .user_agent("tracklayer")
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            tracing::error!(error = %e, "no HTTP client for web push: reminders are not sent");
            return;
        }
    };
    let mut last_minute = None;
    // Woken (a player chose reminders or subscribed): look for the daily ones at once too.
    let mut woken = false;
    loop {
        if let Some(_lease) = Lease::take(&app, "reminders".into()).await {
            let now = app.clock.now_ms();
            let minute = now / 60_000;
            if woken || last_minute != Some(minute) {
                last_minute = Some(minute);
                if let Err(e) = daily_and_streaks(&app, now).await {
                    tracing::warn!(error = %e, "cannot look for daily and streak reminders");
                }
                if minute % 60 == 0
                    && let Err(e) = app.storage.prune_reminders(now - KEEP_SENT_MS).await
                {
                    tracing::warn!(error = %e, "cannot forget the reminders sent long ago");
                }
            }
            if let Err(e) = send_due(&app, &client).await {
                tracing::warn!(error = %e, "cannot send the reminders due");
            }
        }
        woken = tokio::select! {
            _ = tokio::time::sleep(LOOK) => false,
            _ = app.reminders_wake.notified() => true,
            _ = stop.changed() => return,
        };
    }
}

/// Stores the daily and streak reminders come due by `now` (each once: its key names the
/// player, the kind and the period).
async fn daily_and_streaks(app: &AppState, now: i64) -> Result<(), ApiError> {
    let players = app.storage.players_reminded_daily().await?;
    if players.is_empty() {
        return Ok(());
    }
    let kinds: Vec<_> = (app.challenge_kinds().into_iter())
        .filter(|(_, k)| k.streak && k.period == Period::Day)
        .collect();
    for (player, choices) in players {
        let tz = quiet::zone_or_utc(&choices.zone);
        if quiet::quiet(&tz, now) {
            continue;
        }
        let streaks = crate::challenges::streaks(app, &player, now).await?;
        let mut open = Vec::new();
        for &(game, kind) in &kinds {
            let span = kind.at(now);
            let played = streaks
                .get(kind.kind)
                .is_some_and(|s| s.last.as_deref() == Some(span.name.as_str()));
            if played {
                continue;
            }
            let name = app.kind(game)?.name();
            open.push((name, span.id.clone()));
            let Some(streak) = streaks.get(kind.kind).filter(|s| s.current > 0) else {
                continue;
            };
            if choices.streak
                && now >= quiet::before_close(&tz, span.closes, STREAK_AHEAD_MS)
                && now < span.closes
            {
                let hours = ((span.closes - now) as f64 / 3_600_000.0).round().max(1.0) as i64;
                let message = Message {
                    title: format!(
                        "Your streak ends in {hours} hour{}",
                        if hours == 1 { "" } else { "s" }
                    ),
                    body: format!(
                        "Play today's {name} daily to keep your {}-day streak.",
                        streak.current
                    ),
                    url: format!("/challenges/{}", span.id),
                    tag: format!("streak-{}", kind.kind),
                    kind: "streak".into(),
                    game: None,
                };
                let key = format!("streak:{player}:{}:{}", kind.kind, span.name);
                store_reminder(app, key, player.clone(), &message, now).await?;
            }
        }
        if choices.daily && !open.is_empty() {
            let day = kinds
                .first()
                .map(|(_, k)| k.at(now).name)
                .unwrap_or_default();
            let names: Vec<&str> = open.iter().map(|(n, _)| *n).collect();
            let message = Message {
                title: "Today's daily is open".into(),
                body: match names.as_slice() {
                    [one] => format!(
                        "Today's {one} daily is open: the same draw for everyone, until midnight UTC."
                    ),
                    _ => format!(
                        "Today's {} dailies are open: the same draws for everyone, until midnight UTC.",
                        names.join(" and ")
                    ),
                },
                url: match open.as_slice() {
                    [(_, id)] => format!("/challenges/{id}"),
                    _ => "/challenges".into(),
                },
                tag: "daily".into(),
                kind: "daily".into(),
                game: None,
            };
            let key = format!("daily:{player}:{day}");
            store_reminder(app, key, player.clone(), &message, now).await?;
        }
    }
    Ok(())
}

/// Whether a reminder still holds for its player when it is to go out: still chosen, and, for
/// a turn, still their turn.
async fn still_holds(app: &AppState, message: &Message, choices: &Choices) -> bool {
    let chosen = match message.kind.as_str() {
        "turn" => choices.turn,
        "daily" => choices.daily,
        "streak" => choices.streak,
        _ => false,
    };
    if !chosen {
        return false;
    }
    let Some((kind, game, seat)) = &message.game else {
        return true;
    };
    match app.kind(kind) {
        Ok(k) => k
            .your_game(app, game, *seat)
            .await
            .is_ok_and(|g| g.your_turn),
        Err(_) => false,
    }
}

async fn send_due(app: &AppState, client: &reqwest::Client) -> Result<(), ApiError> {
    let now = app.clock.now_ms();
    let claimed = app
        .storage
        .claim_reminders(app.storage.process_id(), now, HOLD_MS, BATCH)
        .await?;
    for reminder in claimed {
        if let Err(e) = send_one(app, client, &reminder).await {
            tracing::warn!(reminder = %reminder.key, error = %e, "cannot send a reminder");
        }
    }
    Ok(())
}

async fn send_one(app: &AppState, client: &reqwest::Client, r: &Reminder) -> Result<(), ApiError> {
    let now = app.clock.now_ms();
    let message: Message = serde_json::from_str(&r.message)
        .map_err(|e| ApiError::Internal(format!("a stored reminder does not read: {e}")))?;
    let choices = app.storage.reminder_choices(&r.player).await?;
    let tz = quiet::zone_or_utc(&choices.zone);
    if quiet::quiet(&tz, now) {
        // The player's night: the morning, unless it no longer holds by then.
        app.storage
            .reminder_later(&r.key, quiet::first_allowed(&tz, now))
            .await?;
        return Ok(());
    }
    if !still_holds(app, &message, &choices).await {
        app.storage.reminder_sent(&r.key, now).await?;
        tracing::debug!(reminder = %r.key, "a reminder no longer holds: not sent");
        return Ok(());
    }
    let body = serde_json::to_vec(&message).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut retry = false;
    for sub in app.storage.subscriptions(&r.player).await? {
        match push(app, client, &sub, &body).await {
            Ok(Pushed::Taken) => {
                crate::telemetry::reminder_sent(&message.kind);
            }
            Ok(Pushed::Gone) => {
                tracing::info!(player = %r.player, "a push subscription is gone: removed");
                app.storage.subscription_gone(&sub.endpoint).await?;
            }
            Ok(Pushed::Later(status)) => {
                tracing::warn!(%status, "a push service would not take a reminder now");
                retry = true;
            }
            Err(e) => {
                tracing::warn!(error = %e, "a reminder was not delivered to a push service");
                retry = true;
            }
        }
    }
    if retry && now - r.due < 6 * 60 * 60 * 1000 {
        app.storage.reminder_later(&r.key, now + RETRY_MS).await?;
    } else {
        app.storage.reminder_sent(&r.key, now).await?;
    }
    Ok(())
}

enum Pushed {
    Taken,
    /// The subscription is no more (404, 410).
    Gone,
    /// Refused for now (429, 5xx): try later.
    Later(u16),
}

/// One encrypted message to one subscription's push service.
async fn push(
    app: &AppState,
    client: &reqwest::Client,
    sub: &Subscription,
    body: &[u8],
) -> Result<Pushed, String> {
    let point = Base64UrlUnpadded::decode_vec(&sub.p256dh).map_err(|e| e.to_string())?;
    let auth = Base64UrlUnpadded::decode_vec(&sub.auth).map_err(|e| e.to_string())?;
    if auth.len() != 16 {
        return Err("a subscription's secret is not 16 bytes".into());
    }
    let request = WebPushBuilder::new(
        sub.endpoint.parse().map_err(|e| format!("{e}"))?,
        p256::PublicKey::from_sec1_bytes(&point).map_err(|e| e.to_string())?,
        Auth::clone_from_slice(&auth),
    )
    .with_valid_duration(TTL)
    .with_vapid(&app.vapid, &app.push.contact)
    .build(body.to_vec())
    .map_err(|e| e.to_string())?;
    let request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
    let status = client
        .execute(request)
        .await
        .map_err(|e| e.to_string())?
        .status()
        .as_u16();
    Ok(match status {
        200..=299 => Pushed::Taken,
        404 | 410 => Pushed::Gone,
        429 | 500..=599 => Pushed::Later(status),
        other => return Err(format!("the push service answered {other}")),
    })
}
