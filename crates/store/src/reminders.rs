//! Reminders by web push: the push subscriptions of players' devices, what each player chose
//! to be reminded of (and their time zone), and the reminders themselves, an outbox.
//!
//! A reminder is stored once under its key (a second with the same key is nothing: that is how
//! a reminder is sent once, whichever process or look made it), due at a time, and claimed by
//! one process at a time to send (see [`Storage::claim_reminders`]); once sent it is marked so.

use crate::sql::{Sql, args};
use crate::{Storage, StorageError, Write, read};

/// The tables (both backends alike).
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    device   TEXT NOT NULL,
    player   TEXT NOT NULL REFERENCES players(id),
    p256dh   TEXT NOT NULL,
    auth     TEXT NOT NULL,
    created  BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_by_player ON push_subscriptions (player);
CREATE INDEX IF NOT EXISTS push_by_device ON push_subscriptions (device);
CREATE TABLE IF NOT EXISTS reminder_choices (
    player TEXT PRIMARY KEY REFERENCES players(id),
    turn   INTEGER NOT NULL,
    daily  INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    zone   TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reminders (
    key     TEXT PRIMARY KEY,
    player  TEXT NOT NULL REFERENCES players(id),
    message TEXT NOT NULL,
    due     BIGINT NOT NULL,
    claimer TEXT,
    claimed BIGINT,
    sent    BIGINT
);
CREATE INDEX IF NOT EXISTS reminders_by_due ON reminders (due) WHERE sent IS NULL;
CREATE INDEX IF NOT EXISTS reminders_by_sent ON reminders (sent) WHERE sent IS NOT NULL;
";

/// A device's push subscription (what its browser's push service gave it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub endpoint: String,
    pub device: String,
    pub player: String,
    /// The browser's public key (base64url), and its authentication secret.
    pub p256dh: String,
    pub auth: String,
    pub created: i64,
}

/// What a player chose to be reminded of, and the time zone their quiet hours are in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Choices {
    pub turn: bool,
    pub daily: bool,
    pub streak: bool,
    /// An IANA time zone (`Europe/Paris`); empty until the player chose.
    pub zone: String,
}

/// A reminder to send: its key, its player, its message (the server's JSON) and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub key: String,
    pub player: String,
    pub message: String,
    pub due: i64,
}

/// The writes of reminders.
#[derive(Debug, Clone)]
pub(crate) enum ReminderWrite {
    Subscribe(Subscription),
    /// A device's subscriptions gone (`None`: every device of the player's).
    Unsubscribe {
        player: String,
        device: Option<String>,
    },
    /// A subscription the push service said is gone.
    Gone(String),
    Choose(String, Choices),
    /// Stored unless one of its key is there already.
    Remind(Reminder),
    Claim {
        claimer: String,
        now: i64,
        until: i64,
        limit: usize,
    },
    Sent(String, i64),
    /// A reminder claimed but not sent now: due again at this time, claimed by no one.
    Later(String, i64),
    /// Forgets the reminders sent before this time (their keys need keeping only while a
    /// second one of the same key could still be made).
    Prune(i64),
}

pub(crate) async fn apply<S: Sql>(s: &mut S, w: &ReminderWrite) -> Result<(), StorageError> {
    match w {
        ReminderWrite::Subscribe(sub) => {
            s.exec(
                "INSERT INTO push_subscriptions (endpoint, device, player, p256dh, auth, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (endpoint) DO UPDATE SET device = EXCLUDED.device,
                     player = EXCLUDED.player, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
                     created = EXCLUDED.created",
                args![
                    &sub.endpoint,
                    &sub.device,
                    &sub.player,
                    &sub.p256dh,
                    &sub.auth,
                    sub.created
                ],
            )
            .await?;
        }
        ReminderWrite::Unsubscribe { player, device } => {
            s.exec(
                "DELETE FROM push_subscriptions WHERE player = ?1
                 AND (CAST(?2 AS TEXT) IS NULL OR device = ?2)",
                args![player, device.as_deref()],
            )
            .await?;
        }
        ReminderWrite::Gone(endpoint) => {
            s.exec(
                "DELETE FROM push_subscriptions WHERE endpoint = ?1",
                args![endpoint],
            )
            .await?;
        }
        ReminderWrite::Choose(player, c) => {
            s.exec(
                "INSERT INTO reminder_choices (player, turn, daily, streak, zone)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (player) DO UPDATE SET turn = EXCLUDED.turn, daily = EXCLUDED.daily,
                     streak = EXCLUDED.streak, zone = EXCLUDED.zone",
                args![
                    player,
                    i64::from(c.turn),
                    i64::from(c.daily),
                    i64::from(c.streak),
                    &c.zone
                ],
            )
            .await?;
        }
        ReminderWrite::Remind(r) => {
            s.exec(
                "INSERT INTO reminders (key, player, message, due) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (key) DO NOTHING",
                args![&r.key, &r.player, &r.message, r.due],
            )
            .await?;
        }
        ReminderWrite::Claim {
            claimer,
            now,
            until,
            limit,
        } => {
            // A claim held past `until` by a process that stopped is anyone's again.
            let keys: Vec<String> = s
                .rows_as(
                    "SELECT key FROM reminders WHERE sent IS NULL AND due <= ?1
                       AND (claimed IS NULL OR claimed < ?2)
                     ORDER BY due, key LIMIT ?3",
                    args![*now, *until, *limit],
                    |mut r| r.get(0),
                )
                .await?;
            for key in keys {
                // Checked again as it is written: another process may have claimed it meanwhile.
                s.exec(
                    "UPDATE reminders SET claimer = ?2, claimed = ?3
                     WHERE key = ?1 AND sent IS NULL AND (claimed IS NULL OR claimed < ?4)",
                    args![&key, claimer, *now, *until],
                )
                .await?;
            }
        }
        ReminderWrite::Sent(key, at) => {
            s.exec(
                "UPDATE reminders SET sent = ?2 WHERE key = ?1",
                args![key, *at],
            )
            .await?;
        }
        ReminderWrite::Prune(before) => {
            s.exec(
                "DELETE FROM reminders WHERE sent IS NOT NULL AND sent < ?1",
                args![*before],
            )
            .await?;
        }
        ReminderWrite::Later(key, due) => {
            s.exec(
                "UPDATE reminders SET due = ?2, claimer = NULL, claimed = NULL WHERE key = ?1",
                args![key, *due],
            )
            .await?;
        }
    }
    Ok(())
}

fn subscription(r: &mut crate::sql::Row) -> Result<Subscription, StorageError> {
    Ok(Subscription {
        endpoint: r.get(0)?,
        device: r.get(1)?,
        player: r.get(2)?,
        p256dh: r.get(3)?,
        auth: r.get(4)?,
        created: r.get(5)?,
    })
}

/// A player's choices from a row's `turn, daily, streak, zone`, from column `at` on.
fn choices(r: &mut crate::sql::Row, at: usize) -> Result<Choices, StorageError> {
    Ok(Choices {
        turn: r.get::<i64>(at)? != 0,
        daily: r.get::<i64>(at + 1)? != 0,
        streak: r.get::<i64>(at + 2)? != 0,
        zone: r.get(at + 3)?,
    })
}

const SUBSCRIPTION: &str = "endpoint, device, player, p256dh, auth, created";

impl Storage {
    /// Keeps a device's push subscription (replacing what its endpoint had).
    pub async fn subscribe(&self, subscription: Subscription) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Subscribe(subscription)))
            .await
    }

    /// Forgets the push subscriptions of one of a player's devices, or of all of them.
    pub async fn unsubscribe(
        &self,
        player: &str,
        device: Option<&str>,
    ) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Unsubscribe {
            player: player.to_owned(),
            device: device.map(str::to_owned),
        }))
        .await
    }

    /// Forgets a subscription its push service said is gone.
    pub async fn subscription_gone(&self, endpoint: &str) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Gone(endpoint.to_owned())))
            .await
    }

    /// A player's push subscriptions, oldest first.
    pub async fn subscriptions(&self, player: &str) -> Result<Vec<Subscription>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                &format!(
                    "SELECT {SUBSCRIPTION} FROM push_subscriptions WHERE player = ?1 ORDER BY created, endpoint"
                ),
                args![&player],
                |mut r| subscription(&mut r),
            )
            .await
        })
    }

    pub async fn choose_reminders(
        &self,
        player: &str,
        choices: Choices,
    ) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Choose(
            player.to_owned(),
            choices,
        )))
        .await
    }

    /// What a player chose (nothing, until they chose).
    pub async fn reminder_choices(&self, player: &str) -> Result<Choices, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT turn, daily, streak, zone FROM reminder_choices WHERE player = ?1",
                    args![&player],
                )
                .await?
            {
                Some(mut r) => choices(&mut r, 0),
                None => Ok(Choices::default()),
            }
        })
    }

    /// The players who chose a daily or streak reminder and have a device subscribed, with
    /// their choices.
    pub async fn players_reminded_daily(&self) -> Result<Vec<(String, Choices)>, StorageError> {
        read!(self, |s| async move {
            s.rows_as(
                "SELECT c.player, c.turn, c.daily, c.streak, c.zone FROM reminder_choices c
                 WHERE (c.daily <> 0 OR c.streak <> 0)
                   AND EXISTS (SELECT 1 FROM push_subscriptions p WHERE p.player = c.player)
                 ORDER BY c.player",
                args![],
                |mut r| Ok((r.get(0)?, choices(&mut r, 1)?)),
            )
            .await
        })
    }

    /// Stores a reminder, unless one of its key is stored already (sent or not).
    pub async fn remind(&self, reminder: Reminder) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Remind(reminder)))
            .await
    }

    /// Claims for `claimer` the reminders due by `now` that are not sent and that no one
    /// holds (a claim older than `hold` ms is no one's): at most `limit`, the earliest first.
    pub async fn claim_reminders(
        &self,
        claimer: &str,
        now: i64,
        hold: i64,
        limit: usize,
    ) -> Result<Vec<Reminder>, StorageError> {
        self.write(Write::Reminders(ReminderWrite::Claim {
            claimer: claimer.to_owned(),
            now,
            until: now - hold,
            limit,
        }))
        .await?;
        let claimer = claimer.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                "SELECT key, player, message, due FROM reminders
                 WHERE claimer = ?1 AND claimed = ?2 AND sent IS NULL ORDER BY due, key",
                args![&claimer, now],
                |mut r| {
                    Ok(Reminder {
                        key: r.get(0)?,
                        player: r.get(1)?,
                        message: r.get(2)?,
                        due: r.get(3)?,
                    })
                },
            )
            .await
        })
    }

    pub async fn reminder_sent(&self, key: &str, at: i64) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Sent(key.to_owned(), at)))
            .await
    }

    /// Puts a claimed reminder back, due at `due`.
    pub async fn reminder_later(&self, key: &str, due: i64) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Later(key.to_owned(), due)))
            .await
    }

    /// Forgets the reminders sent before `before`.
    pub async fn prune_reminders(&self, before: i64) -> Result<(), StorageError> {
        self.write(Write::Reminders(ReminderWrite::Prune(before)))
            .await
    }

    /// Whether a reminder of this key was stored (sent or not), and when it was sent. For tests.
    #[cfg(any(test, feature = "test-util"))]
    pub async fn reminder(&self, key: &str) -> Result<Option<Option<i64>>, StorageError> {
        let key = key.to_owned();
        read!(self, |s| async move {
            match s
                .row("SELECT sent FROM reminders WHERE key = ?1", args![&key])
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }
}
