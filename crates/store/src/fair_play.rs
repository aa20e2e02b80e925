//! The columns and keys behind the challenges' fair play (SQLite's schema 9, PostgreSQL's 7):
//!
//! - `games.shown`: when a game's draws were first shown to someone who does not sit in it (a
//!   spectator, a replay, a review). A friend challenge is played on a game's own dice only if
//!   they were never shown so; else on new dice (`challenges.fresh`: every friend challenge
//!   stored before is on its game's own).
//! - One unfinished entry per network in a challenge (`entries_open_by_network`): a second
//!   start from a network while one of its attempts goes on is refused by the database itself,
//!   whatever the order or timing of the starts, on either backend and in any number of
//!   processes.
//!
//! Entries already stored unfinished from one network (at most the day of the upgrade) keep
//! the first; the later ones forget their network, so that the key can be made. Their ranks
//! stay as they were.

/// The new columns, on PostgreSQL (SQLite adds each unless it is there: it knows no `IF NOT
/// EXISTS` for a column, and a database stepped back to an older version runs this again).
pub(super) const COLUMNS_POSTGRES: &str = "
ALTER TABLE games ADD COLUMN IF NOT EXISTS shown BIGINT;
ALTER TABLE challenges ADD COLUMN IF NOT EXISTS fresh INTEGER NOT NULL DEFAULT 0;
";

/// The new columns on SQLite: table, column, and the statement that adds it.
pub(super) const COLUMNS_SQLITE: [(&str, &str, &str); 2] = [
    (
        "games",
        "shown",
        "ALTER TABLE games ADD COLUMN shown INTEGER",
    ),
    (
        "challenges",
        "fresh",
        "ALTER TABLE challenges ADD COLUMN fresh INTEGER NOT NULL DEFAULT 0",
    ),
];

/// The migration's other statements, on either backend.
pub(super) const SCHEMA: &str = "
UPDATE entries SET addr = NULL
 WHERE addr IS NOT NULL AND finished IS NULL
   AND EXISTS (SELECT 1 FROM entries o
                WHERE o.challenge = entries.challenge AND o.addr = entries.addr
                  AND o.finished IS NULL
                  AND (o.started < entries.started
                       OR (o.started = entries.started
                           AND (o.game < entries.game
                                OR (o.game = entries.game AND o.seat < entries.seat)))));
CREATE UNIQUE INDEX IF NOT EXISTS entries_open_by_network ON entries (challenge, addr)
 WHERE addr IS NOT NULL AND finished IS NULL;
";
