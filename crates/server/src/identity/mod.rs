//! An identity that survives a lost browser: each device signed in as a player holds a key of
//! its own, which the player can see and sign out; a recovery code (shown once, kept as a hash)
//! and a one-time link (carried as a QR code, short-lived, never the permanent key) sign a new
//! device in; so does a passkey (see [`passkeys`]).

pub mod passkeys;

use serde::Serialize;
use sha2::{Digest, Sha256};
use store::StorageError;
use store::challenges::PlayerRow;
use store::identity::{Device, How, NewDevice};

use crate::clock::rfc3339;
use crate::error::ApiError;
use crate::ids;
use crate::state::AppState;

/// How long a link carries an identity before it opens nothing.
pub const LINK_LIFE_MS: i64 = 10 * 60 * 1000;
/// A device's last sight is written again at most this often (it is a write).
const SEEN_EVERY_MS: i64 = 60 * 60 * 1000;
/// A recovery code's letters (Crockford's base 32: no I, L, O or U).
const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// A recovery code's letters, in groups of five: 100 random bits.
const CODE_LETTERS: usize = 20;

/// `POST /api/players`'s answer: the token is shown this once.
#[derive(Debug, Serialize)]
pub struct Made {
    pub id: String,
    pub token: String,
    pub name: String,
}

/// The player and device whose key this is: 401 without one, 403 for a key of nobody's. The
/// device's last sight is noted (seldom).
pub async fn authenticate(
    app: &AppState,
    token: Option<&str>,
) -> Result<(PlayerRow, Device), ApiError> {
    let token = token.ok_or(ApiError::MissingToken)?;
    let (player, device) = app
        .storage
        .device_by_token(&ids::hash_token(token))
        .await?
        .ok_or_else(|| {
            ApiError::Forbidden(
                "this key opens no player (its device may have been signed out): sign in again, or create a player with POST /api/players".into(),
            )
        })?;
    let now = app.clock.now_ms();
    if now - device.seen >= SEEN_EVERY_MS {
        let storage = app.storage.clone();
        let id = device.id.clone();
        tokio::spawn(async move {
            if let Err(e) = storage.device_seen(&id, now).await {
                tracing::warn!(device = %id, error = %e, "could not note a device's sight");
            }
        });
    }
    Ok((player, device))
}

/// A short name for the browser and system a `User-Agent` names ("Chrome on Android"), or "A
/// browser". Only shown to the player, to tell their devices apart.
pub fn device_label(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent else {
        return "A browser".into();
    };
    let browser = [
        ("Edg", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser", "Samsung Internet"),
        ("Firefox/", "Firefox"),
        ("FxiOS", "Firefox"),
        ("CriOS", "Chrome"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(mark, _)| ua.contains(mark))
    .map(|&(_, name)| name);
    let system = [
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Android", "Android"),
        ("Windows", "Windows"),
        ("CrOS", "ChromeOS"),
        ("Mac OS X", "macOS"),
        ("Macintosh", "macOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| ua.contains(mark))
    .map(|&(_, name)| name);
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.into(),
        (None, Some(s)) => format!("A browser on {s}"),
        (None, None) => "A browser".into(),
    }
}

/// A new device of a player's: its key (shown this once) and its row.
pub(crate) fn new_device(
    app: &AppState,
    label: String,
    how: How,
) -> Result<(String, NewDevice), ApiError> {
    let token = ids::new_token()?;
    let device = NewDevice {
        id: ids::new_game_id()?,
        token_hash: ids::hash_token(&token),
        label,
        how,
        at: app.clock.now_ms(),
    };
    Ok((token, device))
}

/// The identity a sign-in gave, as `POST /api/players` answers it.
async fn signed_in(app: &AppState, device: &NewDevice, token: String) -> Result<Made, ApiError> {
    let (player, _) = app
        .storage
        .device_by_token(&device.token_hash)
        .await?
        .ok_or_else(|| ApiError::Internal("a device signed in is not stored".into()))?;
    tracing::info!(player = %player.id, device = %device.id, how = device.how.as_str(), "device signed in");
    Ok(Made {
        id: player.id,
        token,
        name: player.name,
    })
}

fn not_found(e: StorageError) -> ApiError {
    match e {
        StorageError::NotFound(what) => ApiError::NotFound(what),
        other => other.into(),
    }
}

/// One device on the player's list.
#[derive(Debug, Serialize)]
pub struct DeviceView {
    pub id: String,
    pub label: String,
    /// `created`, `recovery`, `link` or `passkey`.
    pub how: &'static str,
    pub created: String,
    pub seen: String,
    /// The device that asked.
    pub this: bool,
}

/// One passkey on the player's list.
#[derive(Debug, Serialize)]
pub struct PasskeyView {
    pub id: String,
    pub name: String,
    pub created: String,
    pub used: Option<String>,
}

/// `GET /api/players/me/identity`: what keeps the player's identity.
#[derive(Debug, Serialize)]
pub struct IdentityView {
    pub devices: Vec<DeviceView>,
    /// When the recovery code kept now was made; none when there is none.
    pub recovery: Option<String>,
    pub passkeys: Vec<PasskeyView>,
}

pub async fn identity(app: &AppState, token: &str) -> Result<IdentityView, ApiError> {
    let (player, this) = authenticate(app, Some(token)).await?;
    let found = app.storage.identity(&player.id).await?;
    Ok(IdentityView {
        devices: found
            .devices
            .into_iter()
            .map(|d| DeviceView {
                this: d.id == this.id,
                id: d.id,
                label: d.label,
                how: d.how.as_str(),
                created: rfc3339(d.created),
                seen: rfc3339(d.seen),
            })
            .collect(),
        recovery: found.recovery.map(rfc3339),
        passkeys: found
            .passkeys
            .into_iter()
            .map(|p| PasskeyView {
                id: p.id,
                name: p.name,
                created: rfc3339(p.created),
                used: p.used.map(rfc3339),
            })
            .collect(),
    })
}

/// `DELETE /api/players/me/devices/{id}`: signs one of the player's devices out (this one
/// too, if asked); its key opens nothing from then on.
pub async fn sign_out(app: &AppState, token: &str, device: &str) -> Result<(), ApiError> {
    let (player, _) = authenticate(app, Some(token)).await?;
    app.storage
        .sign_out(&player.id, device)
        .await
        .map_err(not_found)?;
    tracing::info!(player = %player.id, device = %device, "device signed out");
    Ok(())
}

/// A new recovery code: `XXXXX-XXXXX-XXXXX-XXXXX`.
fn new_code() -> Result<String, ApiError> {
    let bytes = ids::random_bytes::<CODE_LETTERS>()?;
    let mut code = String::with_capacity(CODE_LETTERS + 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 && i % 5 == 0 {
            code.push('-');
        }
        code.push(CODE_ALPHABET[usize::from(b & 31)] as char);
    }
    Ok(code)
}

/// A recovery code as typed, made plain (upper case, no spaces or dashes, the letters that
/// read as digits as those digits), or why it cannot be one.
pub fn normalise_code(typed: &str) -> Result<String, ApiError> {
    let mut plain = String::with_capacity(CODE_LETTERS);
    for c in typed.chars() {
        let c = match c.to_ascii_uppercase() {
            ' ' | '-' | '\t' | '\n' | '\r' => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c if c.is_ascii() && CODE_ALPHABET.contains(&(c as u8)) => c,
            c => {
                return Err(ApiError::BadRequest(format!(
                    "a recovery code has only letters and digits, and {c:?} is neither: type it as it was shown"
                )));
            }
        };
        plain.push(c);
    }
    if plain.len() != CODE_LETTERS {
        return Err(ApiError::BadRequest(format!(
            "a recovery code has {CODE_LETTERS} letters and digits (four groups of five) and this has {}: check it for a missing or extra one",
            plain.len()
        )));
    }
    Ok(plain)
}

fn code_hash(plain: &str) -> String {
    ids::hex(&Sha256::digest(
        format!("tracklayer recovery {plain}").as_bytes(),
    ))
}

/// `POST /api/players/me/recovery`'s answer: the code is shown this once.
#[derive(Debug, Serialize)]
pub struct RecoveryCode {
    pub code: String,
    pub created: String,
}

/// A new recovery code for the player (the one before opens nothing from then on).
pub async fn new_recovery_code(app: &AppState, token: &str) -> Result<RecoveryCode, ApiError> {
    let (player, _) = authenticate(app, Some(token)).await?;
    let code = new_code()?;
    let now = app.clock.now_ms();
    let plain = normalise_code(&code)?;
    app.storage
        .set_recovery_code(&player.id, code_hash(&plain), now)
        .await?;
    tracing::info!(player = %player.id, "recovery code made");
    Ok(RecoveryCode {
        code,
        created: rfc3339(now),
    })
}

/// `POST /api/players/recover`: signs this device in with a recovery code, which is used up.
pub async fn recover(app: &AppState, typed: &str, label: String) -> Result<Made, ApiError> {
    let plain = normalise_code(typed)?;
    let (token, device) = new_device(app, label, How::Recovery)?;
    match app.storage.recover(code_hash(&plain), device.clone()).await {
        Ok(()) => signed_in(app, &device, token).await,
        Err(StorageError::NotFound(_)) => Err(ApiError::NotFound(
            "this recovery code is no player's (it may have been used, or replaced by a newer one): check it, or sign in with a passkey".into(),
        )),
        Err(e) => Err(e.into()),
    }
}

/// `POST /api/players/me/link`'s answer: a link that signs one more device in, once, before it
/// expires; and the same as a QR code (SVG) to scan with a phone.
#[derive(Debug, Serialize)]
pub struct Link {
    pub url: String,
    pub expires: String,
    pub qr: String,
}

/// A one-time link for the player. `origin` is the page's (`https://example.org`), which the
/// link opens.
pub async fn new_link(app: &AppState, token: &str, origin: &str) -> Result<Link, ApiError> {
    let (player, _) = authenticate(app, Some(token)).await?;
    let code = ids::new_token()?;
    let now = app.clock.now_ms();
    let expires = now + LINK_LIFE_MS;
    app.storage
        .make_link(&player.id, ids::hash_token(&code), expires, now)
        .await?;
    let url = format!("{origin}/players/{}#link={code}", player.id);
    let qr = qr_svg(&url)?;
    Ok(Link {
        url,
        expires: rfc3339(expires),
        qr,
    })
}

/// A QR code of `text`, as SVG (dark on light, with its quiet zone).
fn qr_svg(text: &str) -> Result<String, ApiError> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)
        .map_err(|e| ApiError::Internal(format!("no QR code for a link: {e}")))?;
    Ok(code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(qrcode::render::svg::Color("#1f2a37"))
        .light_color(qrcode::render::svg::Color("#ffffff"))
        .build())
}

/// `POST /api/players/link`: signs this device in with a link's code, once.
pub async fn follow_link(app: &AppState, code: &str, label: String) -> Result<Made, ApiError> {
    let code = code.trim().to_ascii_lowercase();
    if code.len() != 64 || !code.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::BadRequest(
            "a link's code is 64 hex digits: open the whole link, or scan the code again".into(),
        ));
    }
    let (token, device) = new_device(app, label, How::Link)?;
    app.storage
        .follow_link(ids::hash_token(&code), device.clone())
        .await
        .map_err(not_found)?;
    signed_in(app, &device, token).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_browser_and_system() {
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
        assert_eq!(device_label(Some(android)), "Chrome on Android");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
        assert_eq!(device_label(Some(iphone)), "Safari on iPhone");
        let edge = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
        assert_eq!(device_label(Some(edge)), "Edge on Windows");
        let firefox =
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:132.0) Gecko/20100101 Firefox/132.0";
        assert_eq!(device_label(Some(firefox)), "Firefox on macOS");
        assert_eq!(device_label(Some("curl/8.5.0")), "A browser");
        assert_eq!(device_label(None), "A browser");
    }

    #[test]
    fn codes_are_twenty_letters_in_four_groups_and_read_back() {
        let code = new_code().unwrap();
        assert_eq!(code.len(), 23);
        assert_eq!(code.matches('-').count(), 3);
        let plain = normalise_code(&code).unwrap();
        assert_eq!(plain.len(), 20);
        // Typed in lower case, with spaces, with O for 0 and l for 1: the same code.
        let typed = plain.to_lowercase().replace('0', "o").replace('1', "l");
        let spaced: String = typed
            .chars()
            .enumerate()
            .flat_map(|(i, c)| (i % 4 == 0).then_some(' ').into_iter().chain([c]))
            .collect();
        assert_eq!(normalise_code(&spaced).unwrap(), plain);
    }

    #[test]
    fn a_code_of_the_wrong_shape_says_why() {
        let short = normalise_code("ABCDE-FGHJK").unwrap_err().to_string();
        assert!(short.contains("has 10"), "{short}");
        let odd = normalise_code("ABCDE-FGHJK-MNPQR-STVW!")
            .unwrap_err()
            .to_string();
        assert!(odd.contains("'!'"), "{odd}");
        let u = normalise_code("UUUUU-UUUUU-UUUUU-UUUUU")
            .unwrap_err()
            .to_string();
        assert!(u.contains("'U'"), "{u}");
    }

    #[test]
    fn a_link_is_drawn_as_a_qr_code() {
        let svg = qr_svg("https://example.org/players/0123456789abcdef01234567#link=00").unwrap();
        assert!(svg.starts_with("<?xml") || svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("#1f2a37"));
    }
}
