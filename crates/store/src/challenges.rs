//! Players, challenges and their entries as stored (the rows the server's `challenges` reads
//! and writes), and the SQL of challenges themselves: making them, the computer's game, friend
//! challenges, the database's secret. Entries and leaderboards are `entries`, players `players`,
//! streaks `streaks`.

use super::sql::{Arg, Row, Sql, args};
use super::{GameKind, Storage, StorageError, read};
pub use crate::SeatResult;
pub use crate::entries::{EntryRow, FinishedEntry, NewEntry};
use crate::entries::{finish_entry, insert_entry};

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
    /// Its kind (`daily`, `friend`: the server's names, opaque here).
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
    /// For a challenge that counts toward a streak of its kind, the period its player's run
    /// must have reached for a finish to lengthen it (the period before its own); `None`: it
    /// counts toward none. The server's rules decide (see `crate::streaks`).
    pub streak_follows: Option<String>,
}

/// The computer's own game on a challenge's dice, and how it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComputerResult {
    pub game: String,
    /// Its seat 0's result: the challenge's computer row.
    pub result: SeatResult,
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
    /// A challenge made from a game (a friend challenge) played on that game's own dice (its
    /// seats are its first entries); `false` for one on new dice, and for one made from no game.
    pub fn same_dice(&self) -> bool {
        let c = &self.challenge;
        c.origin.is_some() && !c.fresh
    }
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
    /// Stores a challenge unless it is there already (every request sees the first).
    Challenge(ChallengeRow),
    /// A friend challenge and the seats of its game, finished; the game becomes the
    /// challenge's (hidden as its games are) unless it is another challenge's already.
    /// [`StorageError::Duplicate`] if another friend challenge took the game first.
    Friend(ChallengeRow, Vec<FinishedEntry>),
    /// The computer's game on a challenge's dice, stored whole; refused if it has one already.
    Computer {
        challenge: String,
        game: Box<super::NewGame>,
        actions: Vec<super::ActionRow>,
        finished: super::Finished,
        result: SeatResult,
    },
    /// Forgets the networks of the entries of challenges closed by then.
    ForgetAddresses(i64),
}

pub(crate) async fn write<S: Sql>(s: &mut S, write: &Write) -> Result<(), StorageError> {
    match write {
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
                    SeatResult {
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
                    clocks: None,
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

pub(crate) async fn insert_challenge<S: Sql>(
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
            "INSERT INTO challenges (id, kind, game, period, opens, closes, seed, origin, by_name, created, target, fresh, streak_follows)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13){tail}"
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
            i64::from(c.fresh),
            c.streak_follows.as_deref()
        ],
    )
    .await?;
    Ok(())
}

/// A challenge's row; its best score and its number of finished entries are read from the
/// per-score counts (a few rows), not kept twice.
pub(crate) const CHALLENGE_COLUMNS: &str =
    "id, kind, game, period, opens, closes, seed, origin, by_name, created, players,
    (SELECT max(score) FROM entry_scores s WHERE s.challenge = challenges.id),
    computer_game, computer_score, computer_k2, target,
    (SELECT CAST(coalesce(sum(count), 0) AS BIGINT) FROM entry_scores s WHERE s.challenge = challenges.id),
    fresh, streak_follows";

pub(crate) fn challenge(mut r: Row) -> Result<ChallengeStats, StorageError> {
    let game: String = r.get(2)?;
    let computer = match r.get::<Option<String>>(12)? {
        Some(game) => Some(ComputerResult {
            game,
            result: SeatResult {
                seat: 0,
                score: r.get(13)?,
                k2: r.get(14)?,
            },
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
            streak_follows: r.get(18)?,
        },
        players: r.get(10)?,
        finished: r.get(16)?,
        best: r.get(11)?,
        computer,
    })
}

/// The challenges that meet `tail` (a condition, then any order and limit).
pub(crate) async fn challenges_where<S: Sql>(
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

/// Makes the database's secret (once, when its tables are made).
pub(crate) async fn make_secret<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let hex = crate::hex::random_hex::<32>().map_err(|e| StorageError::Task(e.to_string()))?;
    s.exec(
        "INSERT INTO meta (key, value) VALUES ('secret', ?1) ON CONFLICT (key) DO NOTHING",
        args![&hex],
    )
    .await?;
    Ok(())
}

/// Reads the database's secret.
pub(crate) async fn secret<S: Sql>(s: &mut S) -> Result<[u8; 32], StorageError> {
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

impl Storage {
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
        result: SeatResult,
    ) -> Result<(), StorageError> {
        self.write(super::Write::Challenge(Write::Computer {
            challenge,
            game: Box::new(game),
            actions,
            finished,
            result,
        }))
        .await
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

    /// Challenges closed by `now` (periodic ones: a friend challenge never closes), newest first (then by id), at most `limit`: those
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
            "closes IS NOT NULL AND closes <= ?1
             AND (CAST(?2 AS BIGINT) IS NULL OR opens < ?2
                  OR (opens = ?2 AND CAST(?3 AS TEXT) IS NOT NULL AND id > ?3))
             ORDER BY opens DESC, id LIMIT ?4",
            args![now, opens, id.as_deref(), limit],
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
}
