//! Players, challenges and their entries: the SQL of the server's `challenges`.
//!
//! A challenge's entry is one seat of one game played in it. Its rank is read from an index
//! (`entries_ranked`: score, then the tie break `k2`, then the earlier finish, all within one
//! challenge), never from a sort of the whole table; the count of finished entries at each
//! score (`entry_scores`) gives both the histogram and, summed, how many entries rank above a
//! score. Every counter changes in the same transaction as the entry it counts.

use super::sql::{Arg, Row, Sql, args};
use super::{GameKind, Storage, StorageError, read};

/// A player: a name and the hash of a secret token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: String,
    pub name: String,
    pub token_hash: String,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    /// The name's key (see `crate::names::key`): unique among players. `None` for players stored
    /// before names were unique whose name another, earlier player has.
    pub name_key: Option<String>,
}

/// A challenge as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    /// `daily`, `weekly`, `metro-daily` or `friend`.
    pub kind: String,
    pub game: GameKind,
    /// `2026-11-26` or `2026-W48`; none for a friend challenge.
    pub period: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub opens: i64,
    /// Milliseconds since the Unix epoch; none for a challenge that never closes.
    pub closes: Option<i64>,
    pub seed: u64,
    /// A friend challenge's game.
    pub origin: Option<String>,
    /// Whose game a friend challenge comes from.
    pub by: Option<String>,
    /// A friend challenge's score to beat.
    pub target: Option<i64>,
    pub created: i64,
    /// A friend challenge played on new dice, its first game's having been seen by others
    /// (that game is then only where its score to beat came from); `false` for every other.
    pub fresh: bool,
}

/// The computer's own game on a challenge's dice, and how it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputerResult {
    pub game: String,
    pub score: i64,
    pub k2: i64,
}

/// A challenge with its counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeStats {
    pub challenge: ChallengeRow,
    /// Entries started.
    pub players: i64,
    /// Entries finished.
    pub finished: i64,
    /// The best finished entry's score.
    pub best: Option<i64>,
    pub computer: Option<ComputerResult>,
}

impl ChallengeStats {
    /// A friend challenge played on its first game's own dice (that game's seats are its first
    /// entries); `false` for one on new dice, and for every other kind.
    pub fn same_dice(&self) -> bool {
        let c = &self.challenge;
        c.kind == "friend" && !c.fresh
    }
}

/// A new entry, stored with its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    pub challenge: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub started: i64,
    /// The keyed hash of the network it was started from (see the server's `challenges`), when
    /// entries are ranked one per network: a second entry from the same network is stored
    /// unranked. Kept until the challenge closes.
    pub addr: Option<String>,
    /// Refused ([`StorageError::Closed`]) at or after this time by the database's clock: the
    /// challenge's close.
    pub deadline: Option<i64>,
}

/// A seat's result in a finished game: its score and its tie break `k2` (higher is better:
/// minus the errors in Railroad Ink, the margin over the best other seat in Metro).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryScore {
    pub seat: usize,
    pub score: i64,
    pub k2: i64,
}

/// An entry as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRow {
    pub challenge: String,
    pub game: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub started: i64,
    pub finished: Option<i64>,
    pub score: Option<i64>,
    pub k2: Option<i64>,
    /// Whether it counts on the leaderboard (not: another entry came from its network first).
    pub ranked: bool,
}

/// A finished entry of a friend challenge's first game (its seats join as they played).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedEntry {
    pub game: String,
    pub seat: usize,
    pub player: Option<String>,
    pub name: String,
    pub at: i64,
    pub score: i64,
    pub k2: i64,
}

/// A game a player sat in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    pub game: String,
    pub kind: GameKind,
    pub seat: usize,
    pub challenge: Option<String>,
    pub created: i64,
    /// When it finished and its result (opaque JSON), once over.
    pub finished: Option<(i64, String)>,
}

/// The writes of players and challenges.
#[derive(Debug, Clone)]
pub enum Write {
    Player(PlayerRow),
    /// Stores a challenge unless it is there already (every request sees the first).
    Challenge(ChallengeRow),
    /// A friend challenge and the seats of its game, finished; the game becomes the
    /// challenge's (hidden as its games are) unless it is another challenge's already.
    /// [`StorageError::Duplicate`] if another friend challenge took the game first.
    Friend(ChallengeRow, Vec<FinishedEntry>),
    /// The computer's game on a challenge's dice, stored whole; refused if it has one already.
    Computer {
        challenge: String,
        game: super::NewGame,
        actions: Vec<super::ActionRow>,
        finished: super::Finished,
        result: EntryScore,
    },
    /// Forgets the networks of the entries of challenges closed by then.
    ForgetAddresses(i64),
    /// Replaces a player's key (the hash of the new one): the old one opens nothing from then.
    PlayerKey {
        player: String,
        token_hash: String,
    },
}

/// Makes the database's secret (once, when its tables are made).
pub(super) async fn make_secret<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let hex = crate::hex::random_hex::<32>().map_err(|e| StorageError::Task(e.to_string()))?;
    s.exec(
        "INSERT INTO meta (key, value) VALUES ('secret', ?1) ON CONFLICT (key) DO NOTHING",
        args![&hex],
    )
    .await?;
    Ok(())
}

/// Gives the players stored before names were unique the key of their name (see
/// `crate::names::key`): the earliest player of each name has it; a later player of the same
/// name keeps the name, without a key. Then the keys are made unique. Run once, by the
/// migration that adds the keys.
pub(super) async fn backfill_name_keys<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let mut taken = std::collections::HashSet::new();
    let rows = s
        .rows(
            "SELECT id, name FROM players WHERE name_key IS NULL ORDER BY created, id",
            args![],
        )
        .await?;
    for mut r in rows {
        let id: String = r.get(0)?;
        let name: String = r.get(1)?;
        let key = crate::names::key(&name);
        if taken.insert(key.clone()) {
            s.exec(
                "UPDATE players SET name_key = ?2 WHERE id = ?1",
                args![&id, &key],
            )
            .await?;
        }
    }
    s.exec(
        "CREATE UNIQUE INDEX IF NOT EXISTS players_by_name ON players (name_key) WHERE name_key IS NOT NULL",
        args![],
    )
    .await?;
    Ok(())
}

/// Reads the database's secret.
pub(super) async fn secret<S: Sql>(s: &mut S) -> Result<[u8; 32], StorageError> {
    let hex: String = s
        .row("SELECT value FROM meta WHERE key = 'secret'", args![])
        .await?
        .ok_or_else(|| StorageError::Corrupt("the database has no secret".into()))?
        .get(0)?;
    let mut out = [0u8; 32];
    if hex.len() != 64 || !hex.is_ascii() {
        return Err(StorageError::Corrupt("the secret is malformed".into()));
    }
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
            .map_err(|_| StorageError::Corrupt("the secret is malformed".into()))?;
    }
    Ok(out)
}

pub(super) async fn write<S: Sql>(s: &mut S, write: &Write) -> Result<(), StorageError> {
    match write {
        Write::Player(p) => {
            s.exec(
                "INSERT INTO players (id, name, token_hash, created, name_key) VALUES (?1, ?2, ?3, ?4, ?5)",
                args![&p.id, &p.name, &p.token_hash, p.created, p.name_key.as_deref()],
            )
            .await?;
            Ok(())
        }
        Write::PlayerKey { player, token_hash } => {
            let changed = s
                .exec(
                    "UPDATE players SET token_hash = ?2 WHERE id = ?1",
                    args![player, token_hash],
                )
                .await?;
            if changed != 1 {
                return Err(StorageError::Corrupt(format!("no player {player}")));
            }
            Ok(())
        }
        Write::Challenge(c) => insert_challenge(s, c, true).await,
        Write::Friend(c, entries) => {
            insert_challenge(s, c, false).await?;
            if let Some(origin) = &c.origin {
                // On its own dice the game becomes the challenge's (unless another challenge's
                // already); on new dice it is only where its score to beat came from.
                let taken = if c.fresh {
                    false
                } else {
                    let current = s
                        .row("SELECT challenge FROM games WHERE id = ?1", args![origin])
                        .await?
                        .ok_or_else(|| StorageError::Corrupt(format!("no game {origin}")))?
                        .get::<Option<String>>(0)?;
                    current.is_none()
                        && s.exec(
                            "UPDATE games SET challenge = ?2 WHERE id = ?1 AND challenge IS NULL",
                            args![origin, &c.id],
                        )
                        .await?
                            == 1
                };
                // One friend challenge a game.
                let another = !taken
                    && s.row(
                        "SELECT id FROM challenges WHERE origin = ?1 AND id <> ?2",
                        args![origin, &c.id],
                    )
                    .await?
                    .is_some();
                if another {
                    return Err(StorageError::Duplicate(format!(
                        "game {origin} has a friend challenge already"
                    )));
                }
            }
            for e in entries {
                // The maker's seat is the maker's, if nobody's before.
                if let Some(player) = &e.player {
                    s.exec(
                        "UPDATE seats SET player = ?3 WHERE game = ?1 AND seat = ?2 AND player IS NULL",
                        args![&e.game, e.seat, player],
                    )
                    .await?;
                }
                insert_entry(
                    s,
                    &e.game,
                    &NewEntry {
                        challenge: c.id.clone(),
                        seat: e.seat,
                        player: e.player.clone(),
                        name: e.name.clone(),
                        started: e.at,
                        addr: None,
                        deadline: None,
                    },
                )
                .await?;
                finish_entry(
                    s,
                    &e.game,
                    e.at,
                    EntryScore {
                        seat: e.seat,
                        score: e.score,
                        k2: e.k2,
                    },
                )
                .await?;
            }
            Ok(())
        }
        Write::Computer {
            challenge,
            game,
            actions,
            finished,
            result,
        } => {
            super::insert_game(s, game).await?;
            // The computer's game is the challenge's: hidden as the players' games are.
            s.exec(
                "UPDATE games SET challenge = ?2 WHERE id = ?1",
                args![&game.id, challenge],
            )
            .await?;
            super::insert_actions(
                s,
                &super::Append {
                    game: game.id.clone(),
                    first: 0,
                    actions: actions.clone(),
                    seat: None,
                    deadline: None,
                },
            )
            .await?;
            super::set_finished(s, &game.id, finished).await?;
            let changed = s
                .exec(
                    "UPDATE challenges SET computer_game = ?2, computer_score = ?3, computer_k2 = ?4
                     WHERE id = ?1 AND computer_game IS NULL",
                    args![challenge, &game.id, result.score, result.k2],
                )
                .await?;
            if changed != 1 {
                return Err(StorageError::Duplicate(format!(
                    "challenge {challenge} has its computer game already"
                )));
            }
            Ok(())
        }
        Write::ForgetAddresses(now) => {
            s.exec(
                "UPDATE entries SET addr = NULL WHERE addr IS NOT NULL AND challenge IN
                   (SELECT id FROM challenges WHERE closes IS NOT NULL AND closes <= ?1)",
                args![*now],
            )
            .await?;
            Ok(())
        }
    }
}

async fn insert_challenge<S: Sql>(
    s: &mut S,
    c: &ChallengeRow,
    or_ignore: bool,
) -> Result<(), StorageError> {
    let tail = if or_ignore {
        " ON CONFLICT (id) DO NOTHING"
    } else {
        ""
    };
    s.exec(
        &format!(
            "INSERT INTO challenges (id, kind, game, period, opens, closes, seed, origin, by_name, created, target, fresh)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12){tail}"
        ),
        args![
            &c.id,
            &c.kind,
            c.game.as_str(),
            c.period.as_deref(),
            c.opens,
            c.closes,
            // Stored as the signed number with the same bits.
            c.seed as i64,
            c.origin.as_deref(),
            c.by.as_deref(),
            c.created,
            c.target,
            i64::from(c.fresh)
        ],
    )
    .await?;
    Ok(())
}

/// Stores an entry of a game being stored, and counts its player. An entry from a network
/// that has one in the challenge already is stored unranked.
pub(super) async fn insert_entry<S: Sql>(
    s: &mut S,
    game: &str,
    e: &NewEntry,
) -> Result<(), StorageError> {
    super::before_deadline(s, e.deadline).await?;
    s.exec(
        "INSERT INTO entries (challenge, game, seat, player, name, started, addr, ranked)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
            CASE WHEN CAST(?7 AS TEXT) IS NOT NULL
                  AND EXISTS (SELECT 1 FROM entries o WHERE o.challenge = ?1 AND o.addr = ?7)
                 THEN 0 ELSE 1 END)",
        args![
            &e.challenge,
            game,
            e.seat,
            e.player.as_deref(),
            &e.name,
            e.started,
            e.addr.as_deref(),
        ],
    )
    .await?;
    let changed = s
        .exec(
            "UPDATE challenges SET players = players + 1 WHERE id = ?1",
            args![&e.challenge],
        )
        .await?;
    if changed != 1 {
        return Err(StorageError::Corrupt(format!(
            "no challenge {}",
            e.challenge
        )));
    }
    Ok(())
}

/// Records the results of a game's entries, if it is a challenge's (called with every finish).
pub(super) async fn finish_entries<S: Sql>(
    s: &mut S,
    game: &str,
    finished: &super::Finished,
) -> Result<(), StorageError> {
    for &result in &finished.entries {
        finish_entry(s, game, finished.at, result).await?;
    }
    Ok(())
}

async fn finish_entry<S: Sql>(
    s: &mut S,
    game: &str,
    at: i64,
    result: EntryScore,
) -> Result<(), StorageError> {
    let row = s
        .row(
            "UPDATE entries SET finished = ?3, score = ?4, k2 = ?5
             WHERE game = ?1 AND seat = ?2 AND finished IS NULL RETURNING challenge, ranked, player",
            args![game, result.seat, at, result.score, result.k2],
        )
        .await?;
    let Some(mut row) = row else {
        return Ok(()); // not a challenge's game, or that seat has no entry
    };
    let challenge: String = row.get(0)?;
    let ranked = row.get::<i64>(1)? != 0;
    if let Some(player) = row.get::<Option<String>>(2)? {
        extend_streak(s, &player, &challenge).await?;
    }
    if !ranked {
        return Ok(()); // unranked: not counted
    }
    s.exec(
        "INSERT INTO entry_scores (challenge, score, count) VALUES (?1, ?2, 1)
         ON CONFLICT (challenge, score) DO UPDATE SET count = entry_scores.count + 1",
        args![&challenge, result.score],
    )
    .await?;
    Ok(())
}

/// The kinds of challenge a streak counts: one a day, each its own streak.
pub const STREAK_KINDS: [&str; 2] = ["daily", "metro-daily"];

/// A player's run of consecutive days with a finished daily challenge of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Streak {
    /// The days of the run that ends on `last`.
    pub current: i64,
    /// The longest run ever.
    pub longest: i64,
    /// The run's last day (`2026-11-27`).
    pub last: Option<String>,
}

/// The day after `day` (`YYYY-MM-DD`), if it is a day.
fn next_day(day: &str) -> Option<String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(day, format).ok()?;
    date.next_day()?.format(format).ok()
}

/// Counts a finished entry of `challenge` in `player`'s streak of its kind (in the entry's
/// transaction): the next day of the run lengthens it, the same day changes nothing, any other
/// day starts a new run.
async fn extend_streak<S: Sql>(
    s: &mut S,
    player: &str,
    challenge: &str,
) -> Result<(), StorageError> {
    let Some(mut c) = s
        .row(
            "SELECT kind, period FROM challenges WHERE id = ?1",
            args![challenge],
        )
        .await?
    else {
        return Ok(());
    };
    let (kind, day): (String, Option<String>) = (c.get(0)?, c.get(1)?);
    let Some(day) = day.filter(|_| STREAK_KINDS.contains(&kind.as_str())) else {
        return Ok(());
    };
    let before = streak_row(s, player, &kind).await?;
    let current = match &before.last {
        Some(last) if *last == day => return Ok(()),
        Some(last) if next_day(last).as_deref() == Some(day.as_str()) => before.current + 1,
        _ => 1,
    };
    s.exec(
        "INSERT INTO streaks (player, kind, last, current, longest) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (player, kind) DO UPDATE SET last = ?3, current = ?4, longest = ?5",
        args![player, &kind, &day, current, current.max(before.longest)],
    )
    .await?;
    Ok(())
}

async fn streak_row<S: Sql>(s: &mut S, player: &str, kind: &str) -> Result<Streak, StorageError> {
    match s
        .row(
            "SELECT current, longest, last FROM streaks WHERE player = ?1 AND kind = ?2",
            args![player, kind],
        )
        .await?
    {
        Some(mut r) => Ok(Streak {
            current: r.get(0)?,
            longest: r.get(1)?,
            last: r.get(2)?,
        }),
        None => Ok(Streak::default()),
    }
}

/// Fills the streaks from the finished daily entries stored before streaks were kept (run once,
/// by the migration that makes their table).
pub(super) async fn backfill_streaks<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let rows = s
        .rows(
            "SELECT e.player, e.challenge FROM entries e JOIN challenges c ON c.id = e.challenge
             WHERE e.player IS NOT NULL AND e.finished IS NOT NULL
               AND c.kind IN ('daily', 'metro-daily')
             ORDER BY c.period, e.player",
            args![],
        )
        .await?;
    for mut r in rows {
        let (player, challenge): (String, String) = (r.get(0)?, r.get(1)?);
        extend_streak(s, &player, &challenge).await?;
    }
    Ok(())
}

const ENTRY_COLUMNS: &str =
    "challenge, game, seat, player, name, started, finished, score, k2, ranked";

fn entry(mut r: Row) -> Result<EntryRow, StorageError> {
    Ok(EntryRow {
        challenge: r.get(0)?,
        game: r.get(1)?,
        seat: r.get(2)?,
        player: r.get(3)?,
        name: r.get(4)?,
        started: r.get(5)?,
        finished: r.get(6)?,
        score: r.get(7)?,
        k2: r.get(8)?,
        ranked: r.get::<i64>(9)? != 0,
    })
}

/// A challenge's row; its best score and its number of finished entries are read from the
/// per-score counts (a few rows), not kept twice.
const CHALLENGE_COLUMNS: &str =
    "id, kind, game, period, opens, closes, seed, origin, by_name, created, players,
    (SELECT max(score) FROM entry_scores s WHERE s.challenge = challenges.id),
    computer_game, computer_score, computer_k2, target,
    (SELECT CAST(coalesce(sum(count), 0) AS BIGINT) FROM entry_scores s WHERE s.challenge = challenges.id),
    fresh";

fn challenge(mut r: Row) -> Result<ChallengeStats, StorageError> {
    let game: String = r.get(2)?;
    let computer = match r.get::<Option<String>>(12)? {
        Some(game) => Some(ComputerResult {
            game,
            score: r.get(13)?,
            k2: r.get(14)?,
        }),
        None => None,
    };
    Ok(ChallengeStats {
        challenge: ChallengeRow {
            id: r.get(0)?,
            kind: r.get(1)?,
            game: GameKind::parse(&game)?,
            period: r.get(3)?,
            opens: r.get(4)?,
            closes: r.get(5)?,
            seed: r.get::<i64>(6)? as u64,
            origin: r.get(7)?,
            by: r.get(8)?,
            target: r.get(15)?,
            created: r.get(9)?,
            fresh: r.get::<i64>(17)? != 0,
        },
        players: r.get(10)?,
        finished: r.get(16)?,
        best: r.get(11)?,
        computer,
    })
}

/// The one order of a leaderboard, everywhere: the higher score, then the better tie break
/// `k2` (fewer errors; the larger margin), then the earlier finish, then the game's id, then
/// the seat (the seats of one game finish together).
const RANK_ORDER: &str = "score DESC, k2 DESC, finished, game, seat";

/// Whether `e` ranks above the entry `(score, k2, finished, game, seat)` (`?3` to `?6`): the
/// SQL condition on the columns, for one score group (the groups above come from
/// `entry_scores`).
const ABOVE_IN_GROUP: &str = "(k2 > ?3 OR (k2 = ?3 AND (finished < ?4 OR (finished = ?4 AND (game < ?5 OR (game = ?5 AND seat < ?6))))))";
const BELOW_IN_GROUP: &str = "(k2 < ?3 OR (k2 = ?3 AND (finished > ?4 OR (finished = ?4 AND (game > ?5 OR (game = ?5 AND seat > ?6))))))";

/// The ranking key of a finished entry.
fn key(e: &EntryRow) -> Result<(i64, i64, i64), StorageError> {
    match (e.score, e.k2, e.finished) {
        (Some(s), Some(k), Some(f)) => Ok((s, k, f)),
        _ => Err(StorageError::Corrupt(format!(
            "entry of game {} is not finished",
            e.game
        ))),
    }
}

impl Storage {
    pub async fn create_player(&self, player: PlayerRow) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::Player(player)))
            .await
    }

    /// Replaces a player's key by one whose hash is `token_hash`; the old key opens nothing from
    /// then on.
    pub async fn replace_player_key(
        &self,
        player: &str,
        token_hash: String,
    ) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::PlayerKey {
            player: player.to_owned(),
            token_hash,
        }))
        .await
    }

    /// Stores a challenge unless one with its id is there already.
    pub async fn ensure_challenge(&self, challenge: ChallengeRow) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::Challenge(challenge)))
            .await
    }

    /// Stores a friend challenge with its first, finished entries.
    pub async fn create_friend_challenge(
        &self,
        challenge: ChallengeRow,
        entries: Vec<FinishedEntry>,
    ) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::Friend(challenge, entries)))
            .await
    }

    /// Stores the computer's game on a challenge's dice, whole and finished, and its result;
    /// [`StorageError::Duplicate`] (and nothing written) if the challenge has one already.
    pub async fn store_computer_game(
        &self,
        challenge: String,
        game: super::NewGame,
        actions: Vec<super::ActionRow>,
        finished: super::Finished,
        result: EntryScore,
    ) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::Computer {
            challenge,
            game,
            actions,
            finished,
            result,
        }))
        .await
    }

    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| player_where(&mut s, "id = ?1", &id))
    }

    pub async fn player_by_token(&self, hash: &str) -> Result<Option<PlayerRow>, StorageError> {
        let hash = hash.to_owned();
        read!(self, |s| player_where(&mut s, "token_hash = ?1", &hash))
    }

    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeStats>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            Ok(challenges_where(&mut s, "id = ?1", args![&id]).await?.pop())
        })
    }

    /// Challenges without the computer's game (its process stopped before it was stored).
    pub async fn challenges_without_computer(&self) -> Result<Vec<ChallengeRow>, StorageError> {
        read!(self, |s| async move {
            let rows = challenges_where(
                &mut s,
                "computer_game IS NULL ORDER BY opens DESC LIMIT 200",
                args![],
            )
            .await?;
            Ok(rows.into_iter().map(|s| s.challenge).collect())
        })
    }

    /// Periodic challenges closed by `now`, newest first (then by id), at most `limit`: those
    /// after `after` in that order, when given: `(opens, None)` is everything that opened
    /// before `opens`; `(opens, Some(id))` what comes after that challenge (keyset paging: no
    /// challenge is skipped or repeated, however many open at one time).
    pub async fn past_challenges(
        &self,
        now: i64,
        after: Option<(i64, Option<String>)>,
        limit: usize,
    ) -> Result<Vec<ChallengeStats>, StorageError> {
        let (opens, id) = match after {
            Some((opens, id)) => (Some(opens), id),
            None => (None, None),
        };
        read!(self, |s| challenges_where(
            &mut s,
            "kind <> 'friend' AND closes <= ?1
             AND (CAST(?2 AS BIGINT) IS NULL OR opens < ?2
                  OR (opens = ?2 AND CAST(?3 AS TEXT) IS NOT NULL AND id > ?3))
             ORDER BY opens DESC, id LIMIT ?4",
            args![now, opens, id.as_deref(), limit],
        ))
    }

    /// When the unfinished entry of a challenge started from network `addr` (its keyed hash)
    /// started, if there is one (there is at most one: `entries_open_by_network`).
    pub async fn open_entry_of_network(
        &self,
        challenge: &str,
        addr: &str,
    ) -> Result<Option<i64>, StorageError> {
        let (challenge, addr) = (challenge.to_owned(), addr.to_owned());
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT started FROM entries
                     WHERE challenge = ?1 AND addr = ?2 AND finished IS NULL",
                    args![&challenge, &addr],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// A player's entry in a challenge.
    pub async fn entry(
        &self,
        challenge: &str,
        player: &str,
    ) -> Result<Option<EntryRow>, StorageError> {
        let (challenge, player) = (challenge.to_owned(), player.to_owned());
        read!(self, |s| async move {
            Ok(entries_where(
                &mut s,
                "challenge = ?1 AND player = ?2",
                args![&challenge, &player],
            )
            .await?
            .pop())
        })
    }

    /// The best `limit` finished entries of a challenge, best first.
    pub async fn top_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        self.finished_entries(challenge, true, limit).await
    }

    /// Finished entries that are not ranked (another entry came from their network first), in
    /// the leaderboard's order, at most `limit`.
    pub async fn unranked_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        self.finished_entries(challenge, false, limit).await
    }

    /// Finished entries, ranked or not, in the leaderboard's order, at most `limit`.
    async fn finished_entries(
        &self,
        challenge: &str,
        ranked: bool,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| entries_where(
            &mut s,
            &format!(
                "challenge = ?1 AND finished IS NOT NULL AND ranked = ?2 ORDER BY {RANK_ORDER} LIMIT ?3"
            ),
            args![&challenge, i64::from(ranked), limit],
        ))
    }

    /// The friend challenge made from a game, if one was.
    pub async fn friend_challenge_of(&self, game: &str) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT id FROM challenges WHERE origin = ?1 ORDER BY created, id LIMIT 1",
                    args![&game],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// Forgets the networks of the entries of challenges closed by `now` (the database's
    /// clock, see [`Storage::database_now`]). Returns how many were forgotten.
    pub async fn forget_closed_addresses(&self, now: i64) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::ForgetAddresses(now)))
            .await
    }

    /// Entries not finished yet, the earliest started first, at most `limit`.
    pub async fn unfinished_entries(
        &self,
        challenge: &str,
        limit: usize,
    ) -> Result<Vec<EntryRow>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| entries_where(
            &mut s,
            "challenge = ?1 AND finished IS NULL ORDER BY started, game LIMIT ?2",
            args![&challenge, limit],
        ))
    }

    /// The finished entries of a challenge by score, lowest first: `(score, count)`.
    pub async fn score_counts(&self, challenge: &str) -> Result<Vec<(i64, i64)>, StorageError> {
        let challenge = challenge.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                "SELECT score, count FROM entry_scores WHERE challenge = ?1 ORDER BY score",
                args![&challenge],
                |mut r| Ok((r.get(0)?, r.get(1)?)),
            )
            .await
        })
    }

    /// A finished entry's rank (1 is the best) and up to `n` entries either side of it, in
    /// order (the entry itself among them).
    pub async fn rank_and_around(
        &self,
        e: &EntryRow,
        n: usize,
    ) -> Result<(usize, Vec<EntryRow>), StorageError> {
        let e = e.clone();
        read!(self, |s| rank_and_around(&mut s, e, n))
    }

    /// A player's streak of each kind (see [`STREAK_KINDS`]), as stored: its run may have
    /// ended since (the caller knows today).
    pub async fn streaks(&self, player: &str) -> Result<Vec<(String, Streak)>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            let mut out = Vec::new();
            for kind in STREAK_KINDS {
                out.push((kind.to_owned(), streak_row(&mut s, &player, kind).await?));
            }
            Ok(out)
        })
    }

    /// Every game a player sat in, oldest first, and how many challenges they entered.
    pub async fn played_games(
        &self,
        player: &str,
    ) -> Result<(Vec<PlayedGame>, usize), StorageError> {
        let player = player.to_owned();
        read!(self, |s| played_games(&mut s, &player))
    }
}

async fn rank_and_around<S: Sql>(
    s: &mut S,
    e: EntryRow,
    n: usize,
) -> Result<(usize, Vec<EntryRow>), StorageError> {
    let (score, k2, finished) = key(&e)?;
    if !e.ranked {
        return Err(StorageError::Corrupt(format!(
            "entry of game {} is not ranked",
            e.game
        )));
    }
    let ranked_here = "challenge = ?1 AND finished IS NOT NULL AND ranked = 1";
    let count = |row: Option<Row>| -> Result<i64, StorageError> {
        match row {
            Some(mut r) => r.get(0),
            None => Ok(0),
        }
    };
    let above_groups = count(
        s.row(
            "SELECT CAST(coalesce(sum(count), 0) AS BIGINT) FROM entry_scores
             WHERE challenge = ?1 AND score > ?2",
            args![&e.challenge, score],
        )
        .await?,
    )?;
    let above_here = count(
        s.row(
            &format!(
                "SELECT CAST(count(*) AS BIGINT) FROM entries
                 WHERE {ranked_here} AND score = ?2 AND {ABOVE_IN_GROUP}"
            ),
            args![&e.challenge, score, k2, finished, &e.game, e.seat],
        )
        .await?,
    )?;
    let rank = (above_groups + above_here) as usize + 1;
    // The n just above: first from the same score, then from higher scores.
    let mut above = entries_where(
        s,
        &format!(
            "{ranked_here} AND score = ?2 AND {ABOVE_IN_GROUP}
             ORDER BY k2, finished DESC, game DESC, seat DESC LIMIT ?7"
        ),
        args![&e.challenge, score, k2, finished, &e.game, e.seat, n],
    )
    .await?;
    if above.len() < n {
        above.extend(
            entries_where(
                s,
                &format!(
                    "{ranked_here} AND score > ?2
                     ORDER BY score, k2, finished DESC, game DESC, seat DESC LIMIT ?3"
                ),
                args![&e.challenge, score, n - above.len()],
            )
            .await?,
        );
    }
    above.reverse();
    let mut below = entries_where(
        s,
        &format!(
            "{ranked_here} AND score = ?2 AND {BELOW_IN_GROUP} ORDER BY {RANK_ORDER} LIMIT ?7"
        ),
        args![&e.challenge, score, k2, finished, &e.game, e.seat, n],
    )
    .await?;
    if below.len() < n {
        below.extend(
            entries_where(
                s,
                &format!("{ranked_here} AND score < ?2 ORDER BY {RANK_ORDER} LIMIT ?3"),
                args![&e.challenge, score, n - below.len()],
            )
            .await?,
        );
    }
    let mut rows = above;
    rows.push(e);
    rows.extend(below);
    Ok((rank, rows))
}

async fn played_games<S: Sql>(
    s: &mut S,
    player: &str,
) -> Result<(Vec<PlayedGame>, usize), StorageError> {
    let rows = s
        .rows(
            "SELECT g.id, g.kind, s.seat, e.challenge, g.created, g.finished, g.result
             FROM seats s JOIN games g ON g.id = s.game
             LEFT JOIN entries e ON e.game = s.game AND e.seat = s.seat AND e.player = s.player
             WHERE s.player = ?1 ORDER BY g.created, g.id",
            args![player],
        )
        .await?;
    let mut games = Vec::with_capacity(rows.len());
    for mut r in rows {
        let finished = match (r.get::<Option<i64>>(5)?, r.get::<Option<String>>(6)?) {
            (Some(at), Some(result)) => Some((at, result)),
            _ => None,
        };
        games.push(PlayedGame {
            game: r.get(0)?,
            kind: GameKind::parse(&r.get::<String>(1)?)?,
            seat: r.get(2)?,
            challenge: r.get(3)?,
            created: r.get(4)?,
            finished,
        });
    }
    let challenges: i64 = match s
        .row(
            "SELECT CAST(count(*) AS BIGINT) FROM entries WHERE player = ?1",
            args![player],
        )
        .await?
    {
        Some(mut r) => r.get(0)?,
        None => 0,
    };
    Ok((games, challenges as usize))
}

/// The entries that meet `tail` (a condition, then any order and limit).
pub(super) async fn entries_where<S: Sql>(
    s: &mut S,
    tail: &str,
    args: &[Arg<'_>],
) -> Result<Vec<EntryRow>, StorageError> {
    s.rows_as(
        &format!("SELECT {ENTRY_COLUMNS} FROM entries WHERE {tail}"),
        args,
        entry,
    )
    .await
}

/// The challenges that meet `tail` (a condition, then any order and limit).
async fn challenges_where<S: Sql>(
    s: &mut S,
    tail: &str,
    args: &[Arg<'_>],
) -> Result<Vec<ChallengeStats>, StorageError> {
    s.rows_as(
        &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE {tail}"),
        args,
        challenge,
    )
    .await
}

async fn player_where<S: Sql>(
    s: &mut S,
    condition: &str,
    value: &str,
) -> Result<Option<PlayerRow>, StorageError> {
    match s
        .row(
            &format!(
                "SELECT id, name, token_hash, created, name_key FROM players WHERE {condition}"
            ),
            args![value],
        )
        .await?
    {
        Some(mut r) => Ok(Some(PlayerRow {
            id: r.get(0)?,
            name: r.get(1)?,
            token_hash: r.get(2)?,
            created: r.get(3)?,
            name_key: r.get(4)?,
        })),
        None => Ok(None),
    }
}

#[cfg(any(test, feature = "test-util"))]
/// Fills a challenge with `n` finished entries at once, for measuring the leaderboard (a
/// test fixture: one transaction; each entry's game is an empty row). `score_of(i)` is entry
/// `i`'s `(score, k2, finish time)`; its game's id is `i` as 24 hex digits.
#[doc(hidden)]
pub async fn fill_for_test(
    database: &super::Database,
    challenge: &str,
    n: usize,
    score_of: impl Fn(usize) -> (i64, i64, i64),
) -> Result<(), StorageError> {
    let storage = Storage::connect(database).await?;
    let rows = (0..n).map(score_of).collect();
    storage
        .write(super::Write::Fill(challenge.to_owned(), rows))
        .await
}

#[cfg(any(test, feature = "test-util"))]
/// The statements of [`fill_for_test`].
pub(super) async fn fill<S: Sql>(
    s: &mut S,
    challenge: &str,
    rows: &[(i64, i64, i64)],
) -> Result<(), StorageError> {
    for (i, &(score, k2, at)) in rows.iter().enumerate() {
        let game = format!("{i:024x}");
        s.exec(
            "INSERT INTO games (id, kind, mode, setup, created, challenge) VALUES (?1, 'ink', 'challenge', '{}', ?2, ?3)",
            args![&game, at, challenge],
        )
        .await?;
        s.exec(
            "INSERT INTO entries (challenge, game, seat, player, name, started, finished, score, k2)
             VALUES (?1, ?2, 0, NULL, ?3, ?4, ?4, ?5, ?6)",
            args![challenge, &game, &format!("Player {i}"), at, score, k2],
        )
        .await?;
        s.exec(
            "INSERT INTO entry_scores (challenge, score, count) VALUES (?1, ?2, 1)
             ON CONFLICT (challenge, score) DO UPDATE SET count = entry_scores.count + 1",
            args![challenge, score],
        )
        .await?;
    }
    s.exec(
        "UPDATE challenges SET players = players + ?2 WHERE id = ?1",
        args![challenge, rows.len()],
    )
    .await?;
    Ok(())
}
