//! What keeps a player's identity: the devices signed in as the player (each with a key of its
//! own), a recovery code, one-time links that carry the identity to another device, passkeys,
//! and the passkey ceremonies under way. Secrets are stored only as hashes (the caller's); a
//! passkey is the server's opaque JSON.
//!
//! A device is signed in by one of four ways ([`How`]); signing it out deletes its row, so its
//! key opens nothing from then on. A recovery code and a link are used once: using one and
//! signing the new device in are one transaction.

use crate::challenges::PlayerRow;
use crate::sql::{Sql, args};
use crate::{Storage, StorageError, Write, read};

/// The tables (both backends alike). Each player's key becomes the key of a first device.
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS devices (
    id         TEXT PRIMARY KEY,
    player     TEXT NOT NULL REFERENCES players(id),
    token_hash TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL,
    how        TEXT NOT NULL,
    created    BIGINT NOT NULL,
    seen       BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS devices_by_player ON devices (player, created);
INSERT INTO devices (id, player, token_hash, label, how, created, seen)
    SELECT id, id, token_hash, 'A browser', 'created', created, created FROM players
    WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.token_hash = players.token_hash);
CREATE TABLE IF NOT EXISTS recovery_codes (
    player    TEXT PRIMARY KEY REFERENCES players(id),
    code_hash TEXT NOT NULL UNIQUE,
    created   BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS links (
    code_hash TEXT PRIMARY KEY,
    player    TEXT NOT NULL REFERENCES players(id),
    expires   BIGINT NOT NULL,
    used      BIGINT
);
CREATE INDEX IF NOT EXISTS links_by_expiry ON links (expires);
CREATE TABLE IF NOT EXISTS passkeys (
    id      TEXT PRIMARY KEY,
    player  TEXT NOT NULL REFERENCES players(id),
    name    TEXT NOT NULL,
    passkey TEXT NOT NULL,
    created BIGINT NOT NULL,
    used    BIGINT
);
CREATE INDEX IF NOT EXISTS passkeys_by_player ON passkeys (player, created);
CREATE TABLE IF NOT EXISTS ceremonies (
    id      TEXT PRIMARY KEY,
    player  TEXT,
    state   TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS ceremonies_by_expiry ON ceremonies (expires);
";

/// How a device came to be signed in as its player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    /// It made the player.
    Created,
    /// With the player's recovery code.
    Recovery,
    /// With a one-time link from another of the player's devices.
    Link,
    /// With one of the player's passkeys.
    Passkey,
}

impl How {
    pub fn as_str(self) -> &'static str {
        match self {
            How::Created => "created",
            How::Recovery => "recovery",
            How::Link => "link",
            How::Passkey => "passkey",
        }
    }

    fn parse(s: &str) -> Result<How, StorageError> {
        Ok(match s {
            "created" => How::Created,
            "recovery" => How::Recovery,
            "link" => How::Link,
            "passkey" => How::Passkey,
            other => {
                return Err(StorageError::Corrupt(format!(
                    "a device signed in by {other:?}"
                )));
            }
        })
    }
}

/// A device signed in as a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub id: String,
    pub player: String,
    /// What the device was called when it signed in ("Chrome on Android").
    pub label: String,
    pub how: How,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// When its key was last seen (kept to the hour or so: see [`Storage::device_seen`]).
    pub seen: i64,
}

/// A device to sign in: its id, the hash of its key, its label, how and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDevice {
    pub id: String,
    pub token_hash: String,
    pub label: String,
    pub how: How,
    pub at: i64,
}

/// A passkey of a player's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasskeyRow {
    /// The credential's id (base64url).
    pub id: String,
    pub player: String,
    pub name: String,
    /// The server's own JSON of the key.
    pub passkey: String,
    pub created: i64,
    pub used: Option<i64>,
}

/// What a ceremony needs to finish: the server's opaque state, and whose it is (none while
/// signing in, when the passkey says).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ceremony {
    pub id: String,
    pub player: Option<String>,
    pub state: String,
    pub expires: i64,
}

/// The writes of identities.
#[derive(Debug, Clone)]
pub(crate) enum IdentityWrite {
    /// A player and its first device.
    Player(PlayerRow, NewDevice),
    /// A device's new key.
    DeviceKey {
        device: String,
        token_hash: String,
    },
    /// A device signed out (only the player's own).
    SignOut {
        player: String,
        device: String,
    },
    Seen {
        device: String,
        at: i64,
    },
    /// A player's recovery code, replacing the one before.
    Recovery {
        player: String,
        code_hash: String,
        at: i64,
    },
    /// A recovery code used: it is gone, and the device is the code's player's.
    Recover {
        code_hash: String,
        device: NewDevice,
    },
    Link {
        player: String,
        code_hash: String,
        expires: i64,
        at: i64,
    },
    /// A link used (before it expires, once): the device is the link's player's.
    FollowLink {
        code_hash: String,
        device: NewDevice,
    },
    Passkey(PasskeyRow),
    /// A passkey used to sign a device in: its counters, and the device.
    PasskeyUsed {
        id: String,
        passkey: String,
        device: NewDevice,
    },
    RemovePasskey {
        player: String,
        id: String,
    },
    Ceremony(Ceremony),
    /// A ceremony finished (or abandoned): refused if another request took it first.
    TakeCeremony(String),
}

async fn insert_device<S: Sql>(s: &mut S, player: &str, d: &NewDevice) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO devices (id, player, token_hash, label, how, created, seen)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        args![&d.id, player, &d.token_hash, &d.label, d.how.as_str(), d.at],
    )
    .await?;
    Ok(())
}

fn none(what: &str) -> StorageError {
    StorageError::NotFound(what.to_owned())
}

pub(crate) async fn apply<S: Sql>(s: &mut S, w: &IdentityWrite) -> Result<(), StorageError> {
    match w {
        IdentityWrite::Player(p, device) => {
            s.exec(
                "INSERT INTO players (id, name, token_hash, created, name_key) VALUES (?1, ?2, ?3, ?4, ?5)",
                args![&p.id, &p.name, &p.token_hash, p.created, p.name_key.as_deref()],
            )
            .await?;
            insert_device(s, &p.id, device).await
        }
        IdentityWrite::DeviceKey { device, token_hash } => {
            let changed = s
                .exec(
                    "UPDATE devices SET token_hash = ?2 WHERE id = ?1",
                    args![device, token_hash],
                )
                .await?;
            if changed != 1 {
                return Err(none("no such device"));
            }
            Ok(())
        }
        IdentityWrite::SignOut { player, device } => {
            let changed = s
                .exec(
                    "DELETE FROM devices WHERE id = ?1 AND player = ?2",
                    args![device, player],
                )
                .await?;
            if changed != 1 {
                return Err(none("no device of yours has this id"));
            }
            // A device signed out hears no more reminders.
            s.exec(
                "DELETE FROM push_subscriptions WHERE device = ?1",
                args![device],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::Seen { device, at } => {
            s.exec(
                "UPDATE devices SET seen = ?2 WHERE id = ?1 AND seen < ?2",
                args![device, *at],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::Recovery {
            player,
            code_hash,
            at,
        } => {
            s.exec(
                "INSERT INTO recovery_codes (player, code_hash, created) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player) DO UPDATE SET code_hash = EXCLUDED.code_hash, created = EXCLUDED.created",
                args![player, code_hash, *at],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::Recover { code_hash, device } => {
            let player: String = s
                .row(
                    "SELECT player FROM recovery_codes WHERE code_hash = ?1",
                    args![code_hash],
                )
                .await?
                .ok_or_else(|| none("no player has this recovery code"))?
                .get(0)?;
            let changed = s
                .exec(
                    "DELETE FROM recovery_codes WHERE code_hash = ?1",
                    args![code_hash],
                )
                .await?;
            if changed != 1 {
                return Err(none("no player has this recovery code"));
            }
            insert_device(s, &player, device).await
        }
        IdentityWrite::Link {
            player,
            code_hash,
            expires,
            at,
        } => {
            // Links long passed are forgotten as new ones are made.
            s.exec(
                "DELETE FROM links WHERE expires < ?1",
                args![*at - 24 * 3_600_000],
            )
            .await?;
            s.exec(
                "INSERT INTO links (code_hash, player, expires) VALUES (?1, ?2, ?3)",
                args![code_hash, player, *expires],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::FollowLink { code_hash, device } => {
            let changed = s
                .exec(
                    "UPDATE links SET used = ?2 WHERE code_hash = ?1 AND used IS NULL AND expires > ?2",
                    args![code_hash, device.at],
                )
                .await?;
            if changed != 1 {
                return Err(none(
                    "this link is used, out of date or no one's: make a new one on the device that is signed in",
                ));
            }
            let player: String = s
                .row(
                    "SELECT player FROM links WHERE code_hash = ?1",
                    args![code_hash],
                )
                .await?
                .ok_or_else(|| none("no such link"))?
                .get(0)?;
            insert_device(s, &player, device).await
        }
        IdentityWrite::Passkey(p) => {
            s.exec(
                "INSERT INTO passkeys (id, player, name, passkey, created) VALUES (?1, ?2, ?3, ?4, ?5)",
                args![&p.id, &p.player, &p.name, &p.passkey, p.created],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::PasskeyUsed {
            id,
            passkey,
            device,
        } => {
            let player: String = s
                .row("SELECT player FROM passkeys WHERE id = ?1", args![id])
                .await?
                .ok_or_else(|| none("this passkey was removed"))?
                .get(0)?;
            s.exec(
                "UPDATE passkeys SET passkey = ?2, used = ?3 WHERE id = ?1",
                args![id, passkey, device.at],
            )
            .await?;
            insert_device(s, &player, device).await
        }
        IdentityWrite::RemovePasskey { player, id } => {
            let changed = s
                .exec(
                    "DELETE FROM passkeys WHERE id = ?1 AND player = ?2",
                    args![id, player],
                )
                .await?;
            if changed != 1 {
                return Err(none("no passkey of yours has this id"));
            }
            Ok(())
        }
        IdentityWrite::Ceremony(c) => {
            s.exec(
                "DELETE FROM ceremonies WHERE expires < ?1",
                args![c.expires - 3_600_000],
            )
            .await?;
            s.exec(
                "INSERT INTO ceremonies (id, player, state, expires) VALUES (?1, ?2, ?3, ?4)",
                args![&c.id, c.player.as_deref(), &c.state, c.expires],
            )
            .await?;
            Ok(())
        }
        IdentityWrite::TakeCeremony(id) => {
            let changed = s
                .exec("DELETE FROM ceremonies WHERE id = ?1", args![id])
                .await?;
            if changed != 1 {
                return Err(none("this passkey request was used already: start again"));
            }
            Ok(())
        }
    }
}

const DEVICE: &str = "d.id, d.player, d.label, d.how, d.created, d.seen";

fn device(r: &mut crate::sql::Row, at: usize) -> Result<Device, StorageError> {
    Ok(Device {
        id: r.get(at)?,
        player: r.get(at + 1)?,
        label: r.get(at + 2)?,
        how: How::parse(&r.get::<String>(at + 3)?)?,
        created: r.get(at + 4)?,
        seen: r.get(at + 5)?,
    })
}

fn passkey(r: &mut crate::sql::Row) -> Result<PasskeyRow, StorageError> {
    Ok(PasskeyRow {
        id: r.get(0)?,
        player: r.get(1)?,
        name: r.get(2)?,
        passkey: r.get(3)?,
        created: r.get(4)?,
        used: r.get(5)?,
    })
}

/// A player's identity as the player sees it: devices, whether a recovery code is kept (when it
/// was made), passkeys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub devices: Vec<Device>,
    pub recovery: Option<i64>,
    pub passkeys: Vec<PasskeyRow>,
}

impl Storage {
    /// Makes a player, signed in on its first device.
    pub async fn create_player(
        &self,
        player: PlayerRow,
        device: NewDevice,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Player(player, device)))
            .await
    }

    /// The player whose device's key has this hash, and the device.
    pub async fn device_by_token(
        &self,
        hash: &str,
    ) -> Result<Option<(PlayerRow, Device)>, StorageError> {
        let hash = hash.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    &format!(
                        "SELECT p.id, p.name, d.token_hash, p.created, p.name_key, {DEVICE}
                         FROM devices d JOIN players p ON p.id = d.player WHERE d.token_hash = ?1"
                    ),
                    args![&hash],
                )
                .await?
            {
                Some(mut r) => Ok(Some((
                    crate::players::player_row(&mut r)?,
                    device(&mut r, 5)?,
                ))),
                None => Ok(None),
            }
        })
    }

    /// Replaces a device's key by one whose hash is `token_hash`; the old key opens nothing
    /// from then on.
    pub async fn replace_device_key(
        &self,
        device: &str,
        token_hash: String,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::DeviceKey {
            device: device.to_owned(),
            token_hash,
        }))
        .await
    }

    /// Signs one of a player's devices out: [`StorageError::NotFound`] if it is none of theirs.
    pub async fn sign_out(&self, player: &str, device: &str) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::SignOut {
            player: player.to_owned(),
            device: device.to_owned(),
        }))
        .await
    }

    /// Notes that a device's key was seen at `at` (the caller asks seldom: it is a write).
    pub async fn device_seen(&self, device: &str, at: i64) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Seen {
            device: device.to_owned(),
            at,
        }))
        .await
    }

    /// A player's devices (oldest first), recovery code and passkeys.
    pub async fn identity(&self, player: &str) -> Result<Identity, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            let devices = s
                .rows_as(
                    &format!(
                        "SELECT {DEVICE} FROM devices d WHERE d.player = ?1 ORDER BY d.created, d.id"
                    ),
                    args![&player],
                    |mut r| device(&mut r, 0),
                )
                .await?;
            let recovery = match s
                .row(
                    "SELECT created FROM recovery_codes WHERE player = ?1",
                    args![&player],
                )
                .await?
            {
                Some(mut r) => Some(r.get(0)?),
                None => None,
            };
            let passkeys = s
                .rows_as(
                    "SELECT id, player, name, passkey, created, used FROM passkeys
                     WHERE player = ?1 ORDER BY created, id",
                    args![&player],
                    |mut r| passkey(&mut r),
                )
                .await?;
            Ok(Identity {
                devices,
                recovery,
                passkeys,
            })
        })
    }

    /// Keeps a player's recovery code (its hash), in place of the one before.
    pub async fn set_recovery_code(
        &self,
        player: &str,
        code_hash: String,
        at: i64,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Recovery {
            player: player.to_owned(),
            code_hash,
            at,
        }))
        .await
    }

    /// Uses a recovery code (once) to sign a new device in as its player:
    /// [`StorageError::NotFound`] if it is no one's.
    pub async fn recover(&self, code_hash: String, device: NewDevice) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Recover {
            code_hash,
            device,
        }))
        .await
    }

    /// Keeps a one-time link of a player's until `expires`.
    pub async fn make_link(
        &self,
        player: &str,
        code_hash: String,
        expires: i64,
        at: i64,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Link {
            player: player.to_owned(),
            code_hash,
            expires,
            at,
        }))
        .await
    }

    /// Follows a link (once, before it expires by `device.at`) to sign a new device in as its
    /// player: [`StorageError::NotFound`] otherwise.
    pub async fn follow_link(
        &self,
        code_hash: String,
        device: NewDevice,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::FollowLink {
            code_hash,
            device,
        }))
        .await
    }

    pub async fn add_passkey(&self, passkey: PasskeyRow) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Passkey(passkey)))
            .await
    }

    /// A passkey by its credential's id.
    pub async fn passkey(&self, id: &str) -> Result<Option<PasskeyRow>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT id, player, name, passkey, created, used FROM passkeys WHERE id = ?1",
                    args![&id],
                )
                .await?
            {
                Some(mut r) => Ok(Some(passkey(&mut r)?)),
                None => Ok(None),
            }
        })
    }

    /// A passkey used: its new JSON (counters), and the device it signed in.
    pub async fn passkey_used(
        &self,
        id: &str,
        passkey: String,
        device: NewDevice,
    ) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::PasskeyUsed {
            id: id.to_owned(),
            passkey,
            device,
        }))
        .await
    }

    pub async fn remove_passkey(&self, player: &str, id: &str) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::RemovePasskey {
            player: player.to_owned(),
            id: id.to_owned(),
        }))
        .await
    }

    /// Keeps a passkey ceremony's state until it expires (long expired ones are forgotten).
    pub async fn begin_ceremony(&self, ceremony: Ceremony) -> Result<(), StorageError> {
        self.write(Write::Identity(IdentityWrite::Ceremony(ceremony)))
            .await
    }

    /// Takes a ceremony, once: `None` if it is none (or another request took it first).
    pub async fn take_ceremony(&self, id: &str) -> Result<Option<Ceremony>, StorageError> {
        let key = id.to_owned();
        let found = read!(self, |s| async move {
            match s
                .row(
                    "SELECT id, player, state, expires FROM ceremonies WHERE id = ?1",
                    args![&key],
                )
                .await?
            {
                Some(mut r) => Ok(Some(Ceremony {
                    id: r.get(0)?,
                    player: r.get(1)?,
                    state: r.get(2)?,
                    expires: r.get(3)?,
                })),
                None => Ok(None),
            }
        })?;
        let Some(found) = found else { return Ok(None) };
        match self
            .write(Write::Identity(IdentityWrite::TakeCeremony(id.to_owned())))
            .await
        {
            Ok(()) => Ok(Some(found)),
            Err(StorageError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}
