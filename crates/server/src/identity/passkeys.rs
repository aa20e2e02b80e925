//! Passkeys (WebAuthn, by `webauthn-rs`): a player adds one on a device that is signed in, and
//! signs in with it on a browser that lost its key or on another device, naming no one first
//! (the passkey is discoverable: it says whose it is).
//!
//! A ceremony is two requests: its start stores the server's state (in the database, so that
//! any process finishes it) and its finish takes that state, once. The relying party is the
//! page's own origin, which the browser sends with each request (`Origin`): a passkey is
//! scoped to its host by the browser and the authenticator, so one made on `example.org` signs
//! in only there.

use serde::Serialize;
use sha2::{Digest, Sha256};
use store::identity::{Ceremony, How, PasskeyRow};
use webauthn_rs::prelude::{
    DiscoverableAuthentication, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

use super::{Made, PasskeyView, authenticate, new_device, signed_in};
use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::ids;
use crate::state::AppState;

/// How long a ceremony may take, from its start to its finish.
const CEREMONY_LIFE_MS: i64 = 5 * 60 * 1000;
/// A passkey's name, as the player gives it, at most this many characters.
const NAME_CHARS: usize = 40;

/// A ceremony's start: its id (sent back with the finish) and the options for the browser
/// (`navigator.credentials.create` or `.get`, binary fields in base64url).
#[derive(Debug, Serialize)]
pub struct Started {
    pub ceremony: String,
    pub options: serde_json::Value,
}

/// What a ceremony keeps between its two requests.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept<S> {
    origin: String,
    state: S,
}

fn refused(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::BadRequest(format!("{what}: {e}"))
}

/// The relying party of a page at `origin` (`https://example.org`, `http://localhost:8080`).
fn relying_party(origin: &str) -> Result<Webauthn, ApiError> {
    let url = Url::parse(origin).map_err(|e| refused("the page's origin is not a URL", e))?;
    let host = url
        .host_str()
        .ok_or_else(|| ApiError::BadRequest("the page's origin names no host".into()))?;
    WebauthnBuilder::new(host, &url)
        .and_then(|b| b.rp_name("tracklayer").build())
        .map_err(|e| refused("passkeys cannot be used from this address", e))
}

/// The user handle of a player's passkeys: derived from the player's id, so it says nothing
/// of it.
fn user_handle(player: &str) -> Uuid {
    let digest = Sha256::digest(format!("tracklayer passkey user {player}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, ApiError> {
    serde_json::to_value(value).map_err(|e| ApiError::Internal(e.to_string()))
}

fn to_text<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| ApiError::Internal(e.to_string()))
}

async fn begin<S: Serialize>(
    app: &AppState,
    player: Option<String>,
    origin: &str,
    state: S,
) -> Result<String, ApiError> {
    let id = ids::new_token()?;
    app.storage
        .begin_ceremony(Ceremony {
            id: id.clone(),
            player,
            state: to_text(&Kept {
                origin: origin.to_owned(),
                state,
            })?,
            expires: app.clock.now_ms() + CEREMONY_LIFE_MS,
        })
        .await?;
    Ok(id)
}

/// Takes a ceremony's state, once, checking that it is the same player's (or no one's), from
/// the same origin, and not out of date.
async fn take<S: serde::de::DeserializeOwned>(
    app: &AppState,
    id: &str,
    player: Option<&str>,
    origin: &str,
) -> Result<S, ApiError> {
    let gone = || {
        ApiError::NotFound("this passkey request is finished or out of date: start again".into())
    };
    let ceremony = app.storage.take_ceremony(id).await?.ok_or_else(gone)?;
    if ceremony.expires <= app.clock.now_ms() || ceremony.player.as_deref() != player {
        return Err(gone());
    }
    let kept: Kept<S> = serde_json::from_str(&ceremony.state)
        .map_err(|e| ApiError::Internal(format!("a ceremony's state does not read: {e}")))?;
    if kept.origin != origin {
        return Err(ApiError::BadRequest(
            "this passkey request was started on another address: start again here".into(),
        ));
    }
    Ok(kept.state)
}

fn stored_passkey(row: &PasskeyRow) -> Result<Passkey, ApiError> {
    serde_json::from_str(&row.passkey)
        .map_err(|e| ApiError::Internal(format!("a stored passkey does not read: {e}")))
}

/// `POST /api/players/me/passkeys`: starts adding a passkey to the player.
pub async fn start_adding(app: &AppState, token: &str, origin: &str) -> Result<Started, ApiError> {
    let (player, _) = authenticate(app, Some(token)).await?;
    let rp = relying_party(origin)?;
    let mine = app.storage.identity(&player.id).await?.passkeys;
    let exclude = mine
        .iter()
        .map(|row| stored_passkey(row).map(|p| p.cred_id().clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let (options, state) = rp
        .start_passkey_registration(
            user_handle(&player.id),
            &player.name,
            &player.name,
            Some(exclude),
        )
        .map_err(|e| refused("a passkey cannot be made now", e))?;
    let mut options = to_json(&options)?;
    // Discoverable: signing in names no one first, the passkey says whose it is.
    if let Some(selection) = options.pointer_mut("/publicKey/authenticatorSelection") {
        selection["residentKey"] = "required".into();
        selection["requireResidentKey"] = true.into();
    }
    let ceremony = begin::<PasskeyRegistration>(app, Some(player.id), origin, state).await?;
    Ok(Started { ceremony, options })
}

/// A passkey's name as the player gave it, or a default naming the device.
fn passkey_name(given: Option<&str>, device: &str) -> Result<String, ApiError> {
    let name = given.map(str::trim).filter(|n| !n.is_empty());
    match name {
        None => Ok(format!("Passkey made on {device}")),
        Some(n) if n.chars().count() > NAME_CHARS => Err(ApiError::BadRequest(format!(
            "a passkey's name is at most {NAME_CHARS} characters: shorten it"
        ))),
        Some(n) if n.chars().any(char::is_control) => Err(ApiError::BadRequest(
            "a passkey's name is one line of text: take out the control characters".into(),
        )),
        Some(n) => Ok(n.to_owned()),
    }
}

/// `POST /api/players/me/passkeys/finish`: the browser's new credential, checked and kept.
pub async fn finish_adding(
    app: &AppState,
    token: &str,
    origin: &str,
    ceremony: &str,
    credential: &RegisterPublicKeyCredential,
    name: Option<&str>,
) -> Result<PasskeyView, ApiError> {
    let (player, device) = authenticate(app, Some(token)).await?;
    let name = passkey_name(name, &device.label)?;
    let state: PasskeyRegistration = take(app, ceremony, Some(&player.id), origin).await?;
    let passkey = relying_party(origin)?
        .finish_passkey_registration(credential, &state)
        .map_err(|e| refused("the browser's passkey was not accepted", e))?;
    let now = app.clock.now_ms();
    let row = PasskeyRow {
        id: ids::hex(passkey.cred_id()),
        player: player.id.clone(),
        name,
        passkey: to_text(&passkey)?,
        created: now,
        used: None,
    };
    match app.storage.add_passkey(row.clone()).await {
        Ok(()) => {}
        Err(store::StorageError::Duplicate(_)) => {
            return Err(ApiError::Conflict(
                "this passkey is kept already: it signs you in".into(),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(player = %player.id, "passkey added");
    Ok(PasskeyView {
        id: row.id,
        name: row.name,
        created: rfc3339(now),
        used: None,
    })
}

/// `DELETE /api/players/me/passkeys/{id}`: the passkey signs no one in from then on.
pub async fn remove(app: &AppState, token: &str, id: &str) -> Result<(), ApiError> {
    let (player, _) = authenticate(app, Some(token)).await?;
    app.storage
        .remove_passkey(&player.id, id)
        .await
        .map_err(super::not_found)
}

/// `POST /api/players/passkey`: starts signing this device in with a passkey.
pub async fn start_signing_in(app: &AppState, origin: &str) -> Result<Started, ApiError> {
    let (options, state) = relying_party(origin)?
        .start_discoverable_authentication()
        .map_err(|e| refused("a passkey cannot be asked for now", e))?;
    let mut options = to_json(&options)?;
    // The page asks when the player presses the button, not as the page loads.
    if let Some(o) = options.as_object_mut() {
        o.remove("mediation");
    }
    let ceremony = begin::<DiscoverableAuthentication>(app, None, origin, state).await?;
    Ok(Started { ceremony, options })
}

/// `POST /api/players/passkey/finish`: the browser's signed answer; this device is signed in
/// as the passkey's player.
pub async fn finish_signing_in(
    app: &AppState,
    origin: &str,
    ceremony: &str,
    credential: &PublicKeyCredential,
    label: String,
) -> Result<Made, ApiError> {
    let state: DiscoverableAuthentication = take(app, ceremony, None, origin).await?;
    let rp = relying_party(origin)?;
    let (user, credential_id) = rp
        .identify_discoverable_authentication(credential)
        .map_err(|e| refused("the browser's answer names no passkey", e))?;
    let unknown = || {
        ApiError::NotFound(
            "this passkey is no player's here (it may have been removed): sign in with a recovery code or a link".into(),
        )
    };
    let row = app
        .storage
        .passkey(&ids::hex(credential_id))
        .await?
        .ok_or_else(unknown)?;
    if user_handle(&row.player) != user {
        return Err(unknown());
    }
    let mut passkey = stored_passkey(&row)?;
    let result = rp
        .finish_discoverable_authentication_v2(credential, state, &passkey)
        .map_err(|e| refused("the passkey's answer was not accepted", e))?;
    passkey.update_credential(&result);
    let (token, device) = new_device(app, label, How::Passkey)?;
    app.storage
        .passkey_used(&row.id, to_text(&passkey)?, device.clone())
        .await
        .map_err(super::not_found)?;
    signed_in(app, &device, token).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relying_party_is_the_pages_host() {
        assert!(relying_party("http://localhost:8080").is_ok());
        assert!(relying_party("https://tracklayer.example").is_ok());
        assert!(relying_party("not a url").is_err());
    }

    #[test]
    fn user_handles_differ_by_player_and_stay() {
        assert_eq!(user_handle("a"), user_handle("a"));
        assert_ne!(user_handle("a"), user_handle("b"));
    }

    #[test]
    fn names_are_short_single_lines() {
        assert_eq!(
            passkey_name(None, "Chrome on Android").unwrap(),
            "Passkey made on Chrome on Android"
        );
        assert_eq!(passkey_name(Some("  Phone "), "x").unwrap(), "Phone");
        assert!(passkey_name(Some(&"x".repeat(41)), "x").is_err());
        assert!(passkey_name(Some("a\nb"), "x").is_err());
    }
}
