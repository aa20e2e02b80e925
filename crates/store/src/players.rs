//! Players: their rows, their keys, the games they sat in.

use crate::challenges::{PlayedGame, PlayerRow};
use crate::sql::{Sql, args};
use crate::{GameKind, Storage, StorageError, read};

/// Gives the players stored before names were unique the key of their name (see
/// `crate::names::key`): the earliest player of each name has it; a later player of the same
/// name keeps the name, without a key. Then the keys are made unique. Run once, by the
/// migration that adds the keys.
pub(crate) async fn backfill_name_keys<S: Sql>(s: &mut S) -> Result<(), StorageError> {
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

pub(crate) async fn played_games<S: Sql>(
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

/// The unfinished games of a player's that others play too (two people or more, in no
/// challenge), the newest first, at most `limit`: each game, its kind and the player's seat.
pub(crate) async fn waiting_games<S: Sql>(
    s: &mut S,
    player: &str,
    limit: usize,
) -> Result<Vec<(String, GameKind, usize)>, StorageError> {
    s.rows_as(
        "SELECT g.id, g.kind, s.seat FROM seats s JOIN games g ON g.id = s.game
         WHERE s.player = ?1 AND g.finished IS NULL AND g.challenge IS NULL
           AND (SELECT count(*) FROM seats o WHERE o.game = g.id AND o.kind = 'human') >= 2
         ORDER BY g.created DESC, g.id LIMIT ?2",
        args![player, limit],
        |mut r| Ok((r.get(0)?, GameKind::parse(&r.get::<String>(1)?)?, r.get(2)?)),
    )
    .await
}

pub(crate) async fn player_where<S: Sql>(
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
        Some(mut r) => Ok(Some(player_row(&mut r)?)),
        None => Ok(None),
    }
}

/// A player from a row's `id, name, token_hash, created, name_key`.
pub(crate) fn player_row(r: &mut crate::sql::Row) -> Result<PlayerRow, StorageError> {
    Ok(PlayerRow {
        id: r.get(0)?,
        name: r.get(1)?,
        token_hash: r.get(2)?,
        created: r.get(3)?,
        name_key: r.get(4)?,
    })
}

impl Storage {
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StorageError> {
        let id = id.to_owned();
        read!(self, |s| player_where(&mut s, "id = ?1", &id))
    }

    pub async fn player_by_token(&self, hash: &str) -> Result<Option<PlayerRow>, StorageError> {
        Ok(self.device_by_token(hash).await?.map(|(player, _)| player))
    }

    /// Every game a player sat in, oldest first, and how many challenges they entered.
    /// A player's unfinished games that others play too, the newest first, at most `limit`:
    /// each game, its kind and the player's seat.
    pub async fn waiting_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<(String, GameKind, usize)>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| waiting_games(&mut s, &player, limit))
    }

    pub async fn played_games(
        &self,
        player: &str,
    ) -> Result<(Vec<PlayedGame>, usize), StorageError> {
        let player = player.to_owned();
        read!(self, |s| played_games(&mut s, &player))
    }
}
