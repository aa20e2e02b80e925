//! Stream tickets: short-lived leave to open one game's live updates as one seat (or as a
//! spectator who may see it), signed with the database's secret so that every process sharing
//! the database takes them. A browser's `EventSource` can send no header, so what opens a stream
//! travels in its address, where proxies write it down: a ticket there opens one game for two
//! minutes, where a player's key would open all of the player's games for good.
//!
//! A ticket is `EXPIRES.SEAT.MAC`: when it stops opening streams (milliseconds since the Unix
//! epoch), the seat (`x` for a spectator), and an HMAC-SHA-256 of both and the game's id.

use hmac::Mac;
use thiserror::Error;

use crate::ids;

/// How long a ticket opens streams, in milliseconds (a stream opened in time stays open).
pub const LIFETIME_MS: i64 = 120_000;

/// Why a ticket opens nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TicketError {
    #[error("the ticket is malformed: ask for one with POST …/ticket")]
    Malformed,
    #[error("the ticket is not this game's, or was not made by this server")]
    Forged,
    #[error("the ticket has expired: ask for a new one with POST …/ticket")]
    Expired,
}

fn tag(secret: &[u8; 32], game: &str, expires: i64, seat: &str) -> hmac::Hmac<sha2::Sha256> {
    ids::mac(
        secret,
        &[
            b"tracklayer stream ticket",
            game.as_bytes(),
            expires.to_string().as_bytes(),
            seat.as_bytes(),
        ],
    )
}

fn seat_text(seat: Option<usize>) -> String {
    seat.map_or_else(|| "x".to_owned(), |s| s.to_string())
}

/// A ticket to game `game`'s stream as `seat` (`None`: a spectator), from `now` until
/// [`LIFETIME_MS`] later.
pub fn issue(secret: &[u8; 32], game: &str, seat: Option<usize>, now: i64) -> String {
    let expires = now + LIFETIME_MS;
    let seat = seat_text(seat);
    let mac = tag(secret, game, expires, &seat).finalize().into_bytes();
    format!("{expires}.{seat}.{}", ids::hex(&mac))
}

/// The seat a ticket opens game `game`'s stream as, at `now`.
pub fn check(
    secret: &[u8; 32],
    game: &str,
    ticket: &str,
    now: i64,
) -> Result<Option<usize>, TicketError> {
    let mut parts = ticket.splitn(3, '.');
    let (Some(expires), Some(seat), Some(mac)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(TicketError::Malformed);
    };
    let expires: i64 = expires.parse().map_err(|_| TicketError::Malformed)?;
    let seat_number = match seat {
        "x" => None,
        s => Some(s.parse::<usize>().map_err(|_| TicketError::Malformed)?),
    };
    // Only the canonical spelling of each part was signed.
    if seat_text(seat_number) != seat || mac.len() != 64 {
        return Err(TicketError::Malformed);
    }
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(mac.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
        .collect::<Result<_, _>>()
        .map_err(|_| TicketError::Malformed)?;
    tag(secret, game, expires, seat)
        .verify_slice(&bytes)
        .map_err(|_| TicketError::Forged)?;
    if now >= expires {
        return Err(TicketError::Expired);
    }
    Ok(seat_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: [u8; 32] = [7; 32];
    const GAME: &str = "0123456789abcdef01234567";

    #[test]
    fn a_ticket_opens_its_game_as_its_seat_until_it_expires() {
        let t = issue(&SECRET, GAME, Some(2), 1_000);
        assert_eq!(check(&SECRET, GAME, &t, 1_000), Ok(Some(2)));
        assert_eq!(
            check(&SECRET, GAME, &t, 1_000 + LIFETIME_MS - 1),
            Ok(Some(2))
        );
        assert_eq!(
            check(&SECRET, GAME, &t, 1_000 + LIFETIME_MS),
            Err(TicketError::Expired)
        );
        let spectator = issue(&SECRET, GAME, None, 1_000);
        assert_eq!(check(&SECRET, GAME, &spectator, 1_000), Ok(None));
    }

    #[test]
    fn a_ticket_changed_or_for_another_game_opens_nothing() {
        let t = issue(&SECRET, GAME, Some(0), 1_000);
        assert_eq!(
            check(&SECRET, "ffffffffffffffffffffffff", &t, 1_000),
            Err(TicketError::Forged)
        );
        assert_eq!(check(&[8; 32], GAME, &t, 1_000), Err(TicketError::Forged));
        // Another seat, or a later expiry, under the same MAC.
        let other_seat = t.replacen(".0.", ".1.", 1);
        assert_eq!(
            check(&SECRET, GAME, &other_seat, 1_000),
            Err(TicketError::Forged)
        );
        let (expires, rest) = t.split_once('.').unwrap();
        let later = format!("{}.{rest}", expires.parse::<i64>().unwrap() + 1);
        assert_eq!(
            check(&SECRET, GAME, &later, 1_000),
            Err(TicketError::Forged)
        );
        for bad in [
            "",
            "x",
            "1.2",
            "1.y.00",
            "1.01.00",
            &format!("{t}0"),
            "1.0.é",
        ] {
            assert_eq!(
                check(&SECRET, GAME, bad, 1_000),
                Err(TicketError::Malformed),
                "{bad:?}"
            );
        }
    }
}
