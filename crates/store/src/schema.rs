//! Migrations that both backends run alike (each backend's own history is in `sqlite` and
//! `postgres`).

/// The statements of the migration that keeps challenges' secrets (SQLite's schema 4,
/// PostgreSQL's 2: the same text runs on both): a player's name key; an entry's network and
/// whether it is ranked; the ranking index by seat last, over ranked entries; the computer's game
/// and a friend challenge's first game in their challenge; recent games paged by (finish, id).
/// The name keys are filled in after (`challenges::backfill_name_keys`).
pub(crate) const CHALLENGE_SECRETS: &str = "
ALTER TABLE players ADD COLUMN name_key TEXT;
ALTER TABLE entries ADD COLUMN addr TEXT;
ALTER TABLE entries ADD COLUMN ranked INTEGER NOT NULL DEFAULT 1;
DROP INDEX IF EXISTS entries_ranked;
CREATE INDEX entries_ranked
    ON entries (challenge, score DESC, k2 DESC, finished, game, seat)
    WHERE finished IS NOT NULL AND ranked = 1;
CREATE INDEX entries_by_addr ON entries (challenge, addr) WHERE addr IS NOT NULL;
CREATE INDEX challenges_by_origin ON challenges (origin) WHERE origin IS NOT NULL;
DROP INDEX IF EXISTS games_by_finish;
CREATE INDEX games_by_finish ON games (finished DESC, id) WHERE finished IS NOT NULL;
UPDATE games SET challenge = (SELECT c.id FROM challenges c WHERE c.computer_game = games.id)
 WHERE challenge IS NULL
   AND id IN (SELECT computer_game FROM challenges WHERE computer_game IS NOT NULL);
UPDATE games SET challenge =
    (SELECT c.id FROM challenges c WHERE c.origin = games.id ORDER BY c.created, c.id LIMIT 1)
 WHERE challenge IS NULL AND id IN (SELECT origin FROM challenges WHERE origin IS NOT NULL);
";

/// The statements of the migration that brings players back (SQLite's schema 6, PostgreSQL's
/// 4): streaks, a player's current and longest run of consecutive days with a finished daily
/// challenge, per kind of challenge, and the run's last day (filled in after by
/// `challenges::backfill_streaks`, then kept as entries finish); and rematches, the one game
/// made to play a finished game again (its key makes a second one a duplicate).
pub(crate) const COMEBACK: &str = "
CREATE TABLE IF NOT EXISTS streaks (
    player  TEXT NOT NULL REFERENCES players(id),
    kind    TEXT NOT NULL,
    last    TEXT NOT NULL,
    current INTEGER NOT NULL,
    longest INTEGER NOT NULL,
    PRIMARY KEY (player, kind)
);
CREATE TABLE IF NOT EXISTS bests (
    player    TEXT NOT NULL REFERENCES players(id),
    game      TEXT NOT NULL,
    mode      TEXT NOT NULL,
    games     INTEGER NOT NULL,
    best      INTEGER NOT NULL,
    best_game TEXT NOT NULL,
    previous  INTEGER,
    sum       INTEGER NOT NULL,
    PRIMARY KEY (player, game, mode)
);
CREATE TABLE IF NOT EXISTS rematches (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    rematch TEXT NOT NULL REFERENCES games(id)
);
";

/// The statements of the migration that lets strangers play (SQLite's schema 13, PostgreSQL's
/// 11): turn deadlines (see [`crate::clocks`]) and the pool of people waiting to be seated
/// (see [`crate::pool`]).
pub(crate) const STRANGERS: &str = "
CREATE TABLE IF NOT EXISTS deadlines (
    game    TEXT NOT NULL REFERENCES games(id),
    seat    BIGINT NOT NULL,
    turn    BIGINT NOT NULL,
    due     BIGINT NOT NULL,
    claimer TEXT,
    claimed BIGINT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS deadlines_by_due ON deadlines (due);
CREATE INDEX IF NOT EXISTS deadlines_by_claimer ON deadlines (claimer) WHERE claimer IS NOT NULL;
CREATE TABLE IF NOT EXISTS pool (
    ticket     TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    player     TEXT NOT NULL REFERENCES players(id),
    name       TEXT NOT NULL,
    addr       TEXT,
    rating     BIGINT NOT NULL,
    seats      BIGINT NOT NULL,
    clock      TEXT NOT NULL,
    fill_after BIGINT,
    token_hash TEXT NOT NULL,
    joined     BIGINT NOT NULL,
    seen       BIGINT NOT NULL,
    game       TEXT,
    seat       BIGINT
);
CREATE UNIQUE INDEX IF NOT EXISTS pool_one_wait ON pool (player) WHERE game IS NULL;
CREATE INDEX IF NOT EXISTS pool_waiting ON pool (kind, joined) WHERE game IS NULL;
";
