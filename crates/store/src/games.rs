//! Games and their actions: storing them, reading them back whole or by their head, the
//! finished ones in pages.

use crate::sql::{Sql, args};
use crate::{
    ActionRow, Append, ChallengeRef, Finished, FinishedGame, GameKind, NewGame, SeatKind, SeatRow,
    Storage, StorageError, StoredGame, Write, now_ms, read, records,
};

impl Storage {
    /// Stores a new game with its seats; durable when this returns `Ok`.
    pub async fn create_game(&self, game: NewGame) -> Result<(), StorageError> {
        self.write(Write::Create(game)).await
    }

    /// Appends actions (and a joining seat) to a game; durable when this returns `Ok`.
    ///
    /// Fails without writing anything if an action already has one of the indices (or the
    /// seat is taken): [`StorageError::Conflict`].
    pub async fn append(&self, append: Append) -> Result<(), StorageError> {
        self.write(Write::Append(append)).await
    }

    /// Appends the actions that end a game and records how it ended, atomically; durable when
    /// this returns `Ok`.
    pub async fn append_finishing(
        &self,
        append: Append,
        finished: Finished,
    ) -> Result<(), StorageError> {
        self.write(Write::Finish(append, finished)).await
    }

    /// Stores a game played to its end elsewhere (in the page, with no connection) whole: the
    /// game with its seats, its actions from the first, and how it ended, atomically; durable
    /// when this returns `Ok`.
    pub async fn store_played(
        &self,
        game: NewGame,
        actions: Vec<ActionRow>,
        finished: Finished,
    ) -> Result<(), StorageError> {
        let append = Append {
            game: game.id.clone(),
            first: 0,
            actions,
            seat: None,
            deadline: None,
            clocks: None,
        };
        self.write(Write::Played(Box::new((game, append, finished))))
            .await
    }

    /// Records how a stored game ended (for games finished before the database recorded it).
    pub async fn mark_finished(&self, id: &str, finished: Finished) -> Result<(), StorageError> {
        self.write(Write::Mark(id.to_owned(), finished)).await
    }

    /// The most recently finished games that belong to no challenge, newest first (then by
    /// id), of one kind or both, at most `limit`: those after `after` in that order, when
    /// given: `(finished, None)` is every game finished before then (milliseconds since the
    /// Unix epoch); `(finished, Some(id))` what comes after that game (keyset paging: no game
    /// is skipped or repeated, however many finish in one millisecond).
    pub async fn finished_games(
        &self,
        kind: Option<GameKind>,
        after: Option<(i64, Option<String>)>,
        limit: usize,
    ) -> Result<Vec<FinishedGame>, StorageError> {
        read!(self, |s| finished_games(&mut s, kind, after, limit))
    }

    /// The ids of stored games with no finish recorded, oldest first.
    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StorageError> {
        read!(self, |s| unfinished_ids(&mut s))
    }

    /// A stored game's head (who sits in it, its challenge), or `None` if there is no such
    /// game.
    pub async fn game_head(&self, id: &str) -> Result<Option<GameHead>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| head(&mut s, &id))
    }

    /// Everything stored about a game, or `None` if there is no such game.
    pub async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| load(&mut s, &id))
    }

    /// Records `rematch` as the game made to play `game` again; [`StorageError::Duplicate`] if
    /// one was recorded first (see [`StoredGame::rematch`]).
    pub async fn set_rematch(&self, game: &str, rematch: &str) -> Result<(), StorageError> {
        self.write(Write::Rematch(game.to_owned(), rematch.to_owned()))
            .await
    }

    /// The game made to play `game` again, if any.
    pub async fn rematch_of(&self, game: &str) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT rematch FROM rematches WHERE game = ?1",
                    args![&game],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// Records that a game's draws were shown, at `at`, to someone who does not sit in it (the
    /// first time counts).
    pub async fn mark_shown(&self, game: &str, at: i64) -> Result<(), StorageError> {
        self.write(Write::Shown(game.to_owned(), at)).await
    }

    /// The hash of the token of a game's seat, if the seat is stored and has a token.
    pub async fn seat_token_hash(
        &self,
        game: &str,
        seat: usize,
    ) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT token_hash FROM seats WHERE game = ?1 AND seat = ?2",
                    args![&game, seat],
                )
                .await?
            {
                Some(mut r) => Ok(r.get(0)?),
                None => Ok(None),
            }
        })
    }

    /// How much of a game is stored: its actions and its seats (what a process compares with
    /// its copy before it refuses anything).
    pub async fn game_version(&self, id: &str) -> Result<(usize, usize), StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            let row = s
                .row(
                    "SELECT (SELECT CAST(count(*) AS BIGINT) FROM actions WHERE game = ?1),
                            (SELECT CAST(count(*) AS BIGINT) FROM seats WHERE game = ?1)",
                    args![&id],
                )
                .await?;
            match row {
                Some(mut r) => Ok((r.get(0)?, r.get(1)?)),
                None => Ok((0, 0)),
            }
        })
    }

    /// The challenge a stored game belongs to now (a finished game may have become a friend
    /// challenge's since it was loaded).
    pub async fn game_challenge(&self, id: &str) -> Result<Option<ChallengeRef>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| async move {
            let row = s
                .row(
                    "SELECT c.id, c.kind, c.closes, c.by_name, c.fresh
                     FROM games g JOIN challenges c ON c.id = g.challenge WHERE g.id = ?1",
                    args![&id],
                )
                .await?;
            match row {
                Some(mut r) => Ok(Some(ChallengeRef {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    closes: r.get(2)?,
                    by: r.get(3)?,
                    fresh: r.get::<i64>(4)? != 0,
                })),
                None => Ok(None),
            }
        })
    }

    /// The kind of a stored game, `None` if there is no such game.
    pub async fn game_kind(&self, id: &str) -> Result<Option<GameKind>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| game_kind(&mut s, &id))
    }
}

pub(crate) async fn insert_game<S: Sql>(s: &mut S, game: &NewGame) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO games (id, kind, mode, setup, created, challenge, variant)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![
            &game.id,
            game.kind.as_str(),
            &game.mode,
            &game.setup,
            game.created,
            game.entry.as_ref().map(|e| e.challenge.as_str()),
            game.variant.as_deref(),
        ],
    )
    .await?;
    for seat in &game.seats {
        insert_seat(s, &game.id, seat, game.created).await?;
    }
    if let Some(entry) = &game.entry {
        crate::entries::insert_entry(s, &game.id, entry).await?;
    }
    if !game.deadlines.is_empty() {
        crate::clocks::replace(s, &game.id, &game.deadlines).await?;
    }
    crate::pool::seat(s, &game.id, &game.pool).await
}

pub(crate) async fn insert_seat<S: Sql>(
    s: &mut S,
    game: &str,
    seat: &SeatRow,
    now: i64,
) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO seats (game, seat, name, kind, agent, token_hash, joined, player)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
            game,
            seat.seat,
            &seat.name,
            seat.kind.as_str(),
            seat.agent.as_deref(),
            seat.token_hash.as_deref(),
            now,
            seat.player.as_deref(),
        ],
    )
    .await?;
    Ok(())
}

/// Refuses a write at or after `deadline` by the database's clock.
pub(crate) async fn before_deadline<S: Sql>(
    s: &mut S,
    deadline: Option<i64>,
) -> Result<(), StorageError> {
    if let Some(deadline) = deadline {
        let now = s.now_ms().await?;
        if now >= deadline {
            return Err(StorageError::Closed { deadline, now });
        }
    }
    Ok(())
}

/// Appends actions; an index (or seat) stored already is [`StorageError::Conflict`].
pub(crate) async fn insert_actions<S: Sql>(s: &mut S, append: &Append) -> Result<(), StorageError> {
    before_deadline(s, append.deadline).await?;
    let conflict = |e: StorageError| match e {
        StorageError::Duplicate(_) => StorageError::Conflict(append.game.clone()),
        e => e,
    };
    let now = now_ms();
    if let Some(seat) = &append.seat {
        insert_seat(s, &append.game, seat, now)
            .await
            .map_err(conflict)?;
    }
    for (i, row) in append.actions.iter().enumerate() {
        s.exec(
            "INSERT INTO actions (game, idx, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            args![&append.game, append.first + i, row.seat, &row.action, now],
        )
        .await
        .map_err(conflict)?;
    }
    if let Some(deadlines) = &append.clocks {
        crate::clocks::replace(s, &append.game, deadlines).await?;
    }
    Ok(())
}

pub(crate) async fn set_finished<S: Sql>(
    s: &mut S,
    game: &str,
    finished: &Finished,
) -> Result<(), StorageError> {
    let changed = s
        .exec(
            "UPDATE games SET finished = ?2, result = ?3 WHERE id = ?1",
            args![game, finished.at, &finished.result],
        )
        .await?;
    if changed != 1 {
        return Err(StorageError::Corrupt(format!(
            "no game {game} to mark finished"
        )));
    }
    records::count_finish(s, game, finished).await?;
    if let Some(rated) = &finished.rated {
        crate::ratings::rate_game(s, game, finished.at, rated).await?;
    }
    crate::entries::finish_entries(s, game, finished).await
}

pub(crate) async fn finished_games<S: Sql>(
    s: &mut S,
    kind: Option<GameKind>,
    after: Option<(i64, Option<String>)>,
    limit: usize,
) -> Result<Vec<FinishedGame>, StorageError> {
    let (at, id) = match after {
        Some((at, id)) => (Some(at), id),
        None => (None, None),
    };
    s.rows_as(
            "SELECT id, kind, mode, created, finished, result FROM games
             WHERE finished IS NOT NULL AND challenge IS NULL AND (CAST(?1 AS TEXT) IS NULL OR kind = ?1)
               AND (CAST(?2 AS BIGINT) IS NULL OR finished < ?2
                    OR (finished = ?2 AND CAST(?3 AS TEXT) IS NOT NULL AND id > ?3))
             ORDER BY finished DESC, id LIMIT ?4",
            args![kind.as_ref().map(GameKind::as_str), at, id.as_deref(), limit],
            |mut r| {
                Ok(FinishedGame {
                    id: r.get(0)?,
                    kind: GameKind::parse(&r.get::<String>(1)?)?,
                    mode: r.get(2)?,
                    created: r.get(3)?,
                    finished: Finished {
                        at: r.get(4)?,
                        result: r.get(5)?,
                        entries: Vec::new(),
                        record: None,
                        rated: None,
                    },
                })
            },
        )
        .await
}

pub(crate) async fn unfinished_ids<S: Sql>(s: &mut S) -> Result<Vec<String>, StorageError> {
    s.rows_as(
        "SELECT id FROM games WHERE finished IS NULL ORDER BY created, id",
        args![],
        |mut r| r.get(0),
    )
    .await
}

pub(crate) async fn game_kind<S: Sql>(
    s: &mut S,
    id: &str,
) -> Result<Option<GameKind>, StorageError> {
    match s
        .row("SELECT kind FROM games WHERE id = ?1", args![id])
        .await?
    {
        Some(mut r) => Ok(Some(GameKind::parse(&r.get::<String>(0)?)?)),
        None => Ok(None),
    }
}

/// A stored game's head: what decides who may read it, without its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHead {
    pub kind: GameKind,
    pub mode: String,
    pub setup: String,
    pub created: i64,
    pub seats: Vec<SeatRow>,
    pub challenge: Option<ChallengeRef>,
    /// See [`StoredGame::shown`].
    pub shown: Option<i64>,
}

pub(crate) async fn head<S: Sql>(s: &mut S, id: &str) -> Result<Option<GameHead>, StorageError> {
    let head = s
        .row(
            "SELECT g.kind, g.mode, g.setup, g.created, c.id, c.kind, c.closes, c.by_name, g.shown,
                    c.fresh
             FROM games g LEFT JOIN challenges c ON c.id = g.challenge WHERE g.id = ?1",
            args![id],
        )
        .await?;
    let Some(mut r) = head else {
        return Ok(None);
    };
    let kind = GameKind::parse(&r.get::<String>(0)?)?;
    let (mode, setup, created) = (r.get(1)?, r.get(2)?, r.get(3)?);
    let shown = r.get(8)?;
    let challenge = match r.get::<Option<String>>(4)? {
        Some(id) => Some(ChallengeRef {
            id,
            kind: r.get(5)?,
            closes: r.get(6)?,
            by: r.get(7)?,
            fresh: r.get::<i64>(9)? != 0,
        }),
        None => None,
    };
    let seats = s
        .rows_as(
            "SELECT seat, name, kind, agent, token_hash, player FROM seats WHERE game = ?1 ORDER BY seat",
            args![id],
            |mut r| {
                Ok(SeatRow {
                    seat: r.get(0)?,
                    name: r.get(1)?,
                    kind: SeatKind::parse(&r.get::<String>(2)?)?,
                    agent: r.get(3)?,
                    token_hash: r.get(4)?,
                    player: r.get(5)?,
                })
            },
        )
        .await?;
    Ok(Some(GameHead {
        kind,
        mode,
        setup,
        created,
        seats,
        challenge,
        shown,
    }))
}

pub(crate) async fn load<S: Sql>(s: &mut S, id: &str) -> Result<Option<StoredGame>, StorageError> {
    let Some(GameHead {
        kind,
        mode,
        setup,
        created,
        seats,
        challenge,
        shown,
    }) = head(s, id).await?
    else {
        return Ok(None);
    };
    let rows = s
        .rows(
            "SELECT idx, seat, action FROM actions WHERE game = ?1 ORDER BY idx",
            args![id],
        )
        .await?;
    let mut actions = Vec::with_capacity(rows.len());
    for mut r in rows {
        let idx: usize = r.get(0)?;
        if idx != actions.len() {
            return Err(StorageError::Corrupt(format!(
                "game {id}: action {} is missing",
                actions.len()
            )));
        }
        actions.push(ActionRow {
            seat: r.get(1)?,
            action: r.get(2)?,
        });
    }
    let rematch = match s
        .row("SELECT rematch FROM rematches WHERE game = ?1", args![id])
        .await?
    {
        Some(mut r) => Some(r.get(0)?),
        None => None,
    };
    let deadlines = crate::clocks::of_game(s, id).await?;
    Ok(Some(StoredGame {
        deadlines,
        id: id.to_owned(),
        kind,
        mode,
        setup,
        created,
        seats,
        actions,
        challenge,
        rematch,
        shown,
    }))
}
