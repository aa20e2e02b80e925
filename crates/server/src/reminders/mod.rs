//! Reminders by web push, each opted into on the player page and all off until chosen: "your
//! turn" in a turn-based game, "today's daily is open" and "your streak ends in 3 hours". None
//! is sent between 22:00 and 08:00 of the player's own time zone ([`quiet`]).
//!
//! A device subscribes with what its browser's push service gave it; the server signs its
//! requests with a VAPID key derived from the database's secret (the same in every process
//! that shares the database) and encrypts each message for the device (RFC 8291, by
//! `web-push-native`). Reminders wait in an outbox, each under a key that makes it one, and
//! one process at a time sends them ([`sender`]).

pub mod quiet;
pub mod sender;

pub use crate::push::PushConfig;

use base64ct::{Base64UrlUnpadded, Encoding as _};
use serde::{Deserialize, Serialize};
use store::reminders::{Choices, Reminder, Subscription};
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike as _, ES256KeyPair};

use crate::error::ApiError;
use crate::identity::authenticate;
use crate::ids;
use crate::state::AppState;
use crate::turns::TurnPassed;

/// The server's VAPID key pair: derived from the database's secret, so every process that
/// shares the database signs alike and subscriptions outlive a restart.
pub fn vapid_key(secret: &[u8; 32]) -> ES256KeyPair {
    (0u32..)
        .find_map(|n| {
            let bytes = ids::mac(secret, &[b"tracklayer vapid key", &n.to_le_bytes()]);
            ES256KeyPair::from_bytes(&hmac::Mac::finalize(bytes).into_bytes()).ok()
        })
        .unwrap_or_else(|| unreachable!("some derived scalar is a valid key"))
}

/// The VAPID public key as browsers take it (`applicationServerKey`: the uncompressed point,
/// base64url).
pub fn public_key(key: &ES256KeyPair) -> String {
    Base64UrlUnpadded::encode_string(&key.public_key().public_key().to_bytes_uncompressed())
}

/// What a reminder says, as the service worker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub title: String,
    pub body: String,
    /// Where the notification leads (a path of the site).
    pub url: String,
    /// A newer notification of the same tag replaces the older.
    pub tag: String,
    /// `turn`, `daily` or `streak`.
    pub kind: String,
    /// A turn's reminder: its game's kind, its id and the seat, to see whether it is still the
    /// seat's turn when it is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<(String, String, usize)>,
}

/// `GET /api/players/me/reminders`.
#[derive(Debug, Serialize)]
pub struct RemindersView {
    pub turn: bool,
    pub daily: bool,
    pub streak: bool,
    /// The time zone of the quiet hours (none until chosen).
    pub zone: Option<String>,
    /// The server's VAPID public key, for `pushManager.subscribe`.
    pub key: String,
    /// How many of the player's devices are subscribed, and whether the asking one is.
    pub devices: usize,
    pub this_device: bool,
}

pub async fn show(app: &AppState, token: &str) -> Result<RemindersView, ApiError> {
    let (player, device) = authenticate(app, Some(token)).await?;
    view(app, &player.id, &device.id).await
}

/// What a player chose, and which of their devices hear it, as `device` asks.
async fn view(app: &AppState, player: &str, device: &str) -> Result<RemindersView, ApiError> {
    let choices = app.storage.reminder_choices(player).await?;
    let subs = app.storage.subscriptions(player).await?;
    let devices: std::collections::BTreeSet<&str> =
        subs.iter().map(|s| s.device.as_str()).collect();
    Ok(RemindersView {
        turn: choices.turn,
        daily: choices.daily,
        streak: choices.streak,
        zone: (!choices.zone.is_empty()).then_some(choices.zone),
        key: public_key(&app.vapid),
        devices: devices.len(),
        this_device: devices.contains(device),
    })
}

/// `PUT /api/players/me/reminders`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chosen {
    pub turn: bool,
    pub daily: bool,
    pub streak: bool,
    /// The player's time zone (IANA), for the quiet hours.
    pub zone: String,
}

pub async fn choose(
    app: &AppState,
    token: &str,
    chosen: Chosen,
) -> Result<RemindersView, ApiError> {
    let (player, device) = authenticate(app, Some(token)).await?;
    quiet::zone(&chosen.zone)
        .map_err(|e| ApiError::BadRequest(format!("{e}: send the browser's own")))?;
    app.storage
        .choose_reminders(
            &player.id,
            Choices {
                turn: chosen.turn,
                daily: chosen.daily,
                streak: chosen.streak,
                zone: chosen.zone,
            },
        )
        .await?;
    app.reminders_wake.notify_one();
    view(app, &player.id, &device.id).await
}

/// `PUT /api/players/me/push`'s body: the browser's `PushSubscription` as JSON.
#[derive(Debug, Deserialize)]
pub struct NewSubscription {
    pub endpoint: String,
    pub keys: SubscriptionKeys,
}

#[derive(Debug, Deserialize)]
pub struct SubscriptionKeys {
    pub p256dh: String,
    pub auth: String,
}

fn key_bytes(text: &str, what: &str, len: usize) -> Result<Vec<u8>, ApiError> {
    let bytes = Base64UrlUnpadded::decode_vec(text.trim_end_matches('=')).map_err(|_| {
        ApiError::BadRequest(format!(
            "the subscription's {what} is not base64url: send the browser's subscription as it is"
        ))
    })?;
    if bytes.len() != len {
        return Err(ApiError::BadRequest(format!(
            "the subscription's {what} is {} bytes, not {len}: send the browser's subscription as it is",
            bytes.len()
        )));
    }
    Ok(bytes)
}

/// Checks a subscription as the browser sent it: an `https` endpoint (or `http`, where the
/// server allows it), a P-256 public key and a 16-byte secret.
fn checked(app: &AppState, s: &NewSubscription) -> Result<(), ApiError> {
    let https = s.endpoint.starts_with("https://");
    let http = s.endpoint.starts_with("http://") && app.push.allow_http;
    if !(https || http) || s.endpoint.len() > 1024 {
        return Err(ApiError::BadRequest(
            "a push endpoint is the https address the browser's push service gave".into(),
        ));
    }
    s.endpoint
        .parse::<axum::http::Uri>()
        .map_err(|e| ApiError::BadRequest(format!("the push endpoint is no address: {e}")))?;
    let point = key_bytes(&s.keys.p256dh, "public key (p256dh)", 65)?;
    web_push_native::p256::PublicKey::from_sec1_bytes(&point).map_err(|_| {
        ApiError::BadRequest("the subscription's public key (p256dh) is no P-256 point".into())
    })?;
    key_bytes(&s.keys.auth, "secret (auth)", 16)?;
    Ok(())
}

/// Subscribes the asking device (its earlier subscription, if any, is replaced).
pub async fn subscribe(
    app: &AppState,
    token: &str,
    s: NewSubscription,
) -> Result<RemindersView, ApiError> {
    let (player, device) = authenticate(app, Some(token)).await?;
    checked(app, &s)?;
    app.storage
        .unsubscribe(&player.id, Some(&device.id))
        .await?;
    app.storage
        .subscribe(Subscription {
            endpoint: s.endpoint,
            device: device.id.clone(),
            player: player.id.clone(),
            p256dh: s.keys.p256dh.trim_end_matches('=').to_owned(),
            auth: s.keys.auth.trim_end_matches('=').to_owned(),
            created: app.clock.now_ms(),
        })
        .await?;
    app.reminders_wake.notify_one();
    view(app, &player.id, &device.id).await
}

/// The asking device hears no more reminders.
pub async fn unsubscribe(app: &AppState, token: &str) -> Result<RemindersView, ApiError> {
    let (player, device) = authenticate(app, Some(token)).await?;
    app.storage
        .unsubscribe(&player.id, Some(&device.id))
        .await?;
    view(app, &player.id, &device.id).await
}

/// Stores the reminders of the turns that pass (see [`crate::table::Table::turns_passed`]),
/// for the people who chose to hear of their turn, until the server stops.
pub async fn listen(
    app: AppState,
    mut passed: tokio::sync::mpsc::Receiver<TurnPassed>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        let turn = tokio::select! {
            turn = passed.recv() => turn,
            _ = stop.changed() => return,
        };
        let Some(turn) = turn else { return };
        if let Err(e) = remind_turn(&app, turn).await {
            tracing::warn!(error = %e, "cannot store a turn's reminder");
        }
    }
}

async fn remind_turn(app: &AppState, turn: TurnPassed) -> Result<(), ApiError> {
    let TurnPassed {
        kind,
        game,
        seat,
        player,
        others,
        actions,
    } = turn;
    let key = format!("turn:{game}:{seat}:{actions}");
    let choices = app.storage.reminder_choices(&player).await?;
    if !choices.turn {
        return Ok(());
    }
    let name = app.kind(kind)?.name();
    let who = match others.as_slice() {
        [] => "The others".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let message = Message {
        title: "Your turn".into(),
        body: format!("{who} played: it is your turn in {name}."),
        url: format!("/{kind}/{game}"),
        tag: format!("turn-{game}"),
        kind: "turn".into(),
        game: Some((kind.to_owned(), game.clone(), seat)),
    };
    let tz = quiet::zone_or_utc(&choices.zone);
    let due = quiet::first_allowed(&tz, app.clock.now_ms() + app.push.turn_delay_ms);
    store_reminder(app, key, player, &message, due).await
}

pub(crate) async fn store_reminder(
    app: &AppState,
    key: String,
    player: String,
    message: &Message,
    due: i64,
) -> Result<(), ApiError> {
    let message = serde_json::to_string(message).map_err(|e| ApiError::Internal(e.to_string()))?;
    app.storage
        .remind(Reminder {
            key,
            player,
            message,
            due,
        })
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vapid_key_is_the_secrets_and_a_browsers_application_key() {
        let a = vapid_key(&[7; 32]);
        assert_eq!(public_key(&a), public_key(&vapid_key(&[7; 32])));
        assert_ne!(public_key(&a), public_key(&vapid_key(&[8; 32])));
        let point = Base64UrlUnpadded::decode_vec(&public_key(&a)).unwrap();
        assert_eq!(
            (point.len(), point[0]),
            (65, 4),
            "an uncompressed P-256 point"
        );
    }
}
