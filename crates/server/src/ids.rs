//! Game ids, seat tokens and seeds: random bytes from the operating system.

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use thiserror::Error;

/// The operating system's random source failed (callers answer it as an internal error).
#[derive(Debug, Error)]
#[error("the OS random source failed: {0}")]
pub struct RandomError(String);

/// Bytes in a game id (96 bits: unguessable, and short enough for an invite link).
const GAME_ID_BYTES: usize = 12;
/// Bytes in a seat token (256 bits).
const TOKEN_BYTES: usize = 32;

pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    store::hex::random_bytes::<N>().map_err(|e| RandomError(e.to_string()))
}

pub(crate) use store::hex::hex;

/// A new game id: 24 lower-case hex digits.
pub fn new_game_id() -> Result<String, RandomError> {
    Ok(hex(&random_bytes::<GAME_ID_BYTES>()?))
}

/// Whether a string has the shape of a game id (so garbage never reaches the database).
pub fn is_game_id(s: &str) -> bool {
    s.len() == 2 * GAME_ID_BYTES && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A new seat token: 64 lower-case hex digits.
pub fn new_token() -> Result<String, RandomError> {
    Ok(hex(&random_bytes::<TOKEN_BYTES>()?))
}

/// A new secret seed for a game's dice.
pub fn new_seed() -> Result<u64, RandomError> {
    Ok(u64::from_le_bytes(random_bytes::<8>()?))
}

/// What is stored instead of a token: its SHA-256, in hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A MAC of `parts` (each ended by a zero byte) under `secret`: HMAC-SHA-256.
pub(crate) fn mac(secret: &[u8; 32], parts: &[&[u8]]) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    for part in parts {
        mac.update(part);
        mac.update(b"\0");
    }
    mac
}

/// The seat token of a player's challenge game: derived from the player's id and the
/// challenge under the database's secret, so that asking again hands out the same one, a new
/// player key leaves it as it is, and nobody without the secret can know it.
pub fn challenge_seat_token(secret: &[u8; 32], player: &str, challenge: &str) -> String {
    let tag = mac(
        secret,
        &[
            b"tracklayer challenge seat",
            player.as_bytes(),
            challenge.as_bytes(),
        ],
    );
    hex(&tag.finalize().into_bytes())
}

/// The seat token a challenge game was given before [`challenge_seat_token`]: derived from the
/// player's key itself (still answered for games started then).
pub fn legacy_challenge_seat_token(player_token: &str, challenge: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"tracklayer challenge seat\0");
    h.update(player_token.as_bytes());
    h.update(b"\0");
    h.update(challenge.as_bytes());
    hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_seat_token_depends_on_the_player_the_challenge_and_the_secret() {
        let token = |secret: u8, player: &str, challenge: &str| {
            challenge_seat_token(&[secret; 32], player, challenge)
        };
        assert_eq!(token(1, "p", "c1"), token(1, "p", "c1"));
        assert_ne!(token(1, "p", "c1"), token(1, "p", "c2"));
        assert_ne!(token(1, "p", "c1"), token(1, "q", "c1"));
        assert_ne!(token(1, "p", "c1"), token(2, "p", "c1"));
        assert_eq!(token(1, "p", "c1").len(), 64);
        let legacy = legacy_challenge_seat_token;
        assert_ne!(legacy("t", "c1"), legacy("t", "c2"));
        assert_ne!(legacy("t", "c1"), legacy("u", "c1"));
    }

    #[test]
    fn ids_and_tokens_have_their_shape_and_differ() {
        let a = new_game_id().unwrap();
        let b = new_game_id().unwrap();
        assert!(is_game_id(&a) && is_game_id(&b) && a != b);
        assert!(!is_game_id("../etc/passwd"));
        assert!(!is_game_id(&a.to_uppercase()));
        let t = new_token().unwrap();
        assert_eq!(t.len(), 64);
        assert_eq!(hash_token(&t), hash_token(&t));
        assert_ne!(hash_token(&t), hash_token(&new_token().unwrap()));
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
