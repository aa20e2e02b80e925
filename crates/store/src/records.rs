//! A player's records: the best and mean score of each game and way of playing it, kept as
//! games finish (in the transaction that stores the finish, never counted by a scan), and the
//! ranks of their finished dailies.

use serde::Deserialize;

use super::sql::{Sql, args};
use super::{Finished, Record, Storage, StorageError, read};

/// A player's record in one game and variant (`KIND` or `KIND:VARIANT`: see [`record_game`])
/// played one way (its game's mode: `solo`, `online`, `challenge`, `practice`; against the
/// computer, `computer:AGENT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Best {
    pub game: String,
    pub mode: String,
    /// Finished games counted.
    pub games: i64,
    pub best: i64,
    /// The first game that scored `best`.
    pub best_game: String,
    /// The best before `best_game` beat it (`None` when it was the first game).
    pub previous: Option<i64>,
    /// The scores' sum (the mean is `sum / games`).
    pub sum: i64,
}

/// History: the statements of the migration that keeps a best for each variant of a game
/// (SQLite's schema 10, PostgreSQL's 8), after the column `games.variant` is added: the games
/// stored before are given theirs (the only variants then were the two expansions of one game,
/// named in their setup: the statements name them as they ran), and the records are counted
/// again ([`backfill`]), each variant apart. Since then the server names a game's variant.
pub(super) const BY_VARIANT: &str = "
UPDATE games SET variant = 'lake'
 WHERE variant IS NULL AND kind = 'ink' AND setup LIKE '%\"expansion\":\"lake\"%';
UPDATE games SET variant = 'river'
 WHERE variant IS NULL AND kind = 'ink' AND setup LIKE '%\"expansion\":\"river\"%';
DELETE FROM bests;
";

/// The new column on PostgreSQL.
pub(super) const VARIANT_POSTGRES: &str =
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS variant TEXT;";

/// The new column on SQLite (see `fair_play::COLUMNS_SQLITE`).
pub(super) const VARIANT_SQLITE: [(&str, &str, &str); 1] = [(
    "games",
    "variant",
    "ALTER TABLE games ADD COLUMN variant TEXT",
)];

/// The game a record counts, by variant: the game's kind, then `:` and the variant if it has
/// one.
pub fn record_game(kind: &str, variant: Option<&str>) -> String {
    match variant {
        Some(v) => format!("{kind}:{v}"),
        None => kind.to_owned(),
    }
}

/// History: the way a game was played as the records first counted it, when their table was
/// made ([`backfill`]): its game and variant (see [`record_game`]), its mode, and for a game
/// against the computer, which computer (`computer:greedy`). Since, the server names each
/// finished game's record ([`Finished::record`]).
async fn way_of<S: Sql>(s: &mut S, game: &str) -> Result<Option<(String, String)>, StorageError> {
    let Some(mut r) = s
        .row(
            "SELECT g.kind, g.mode,
                    (SELECT agent FROM seats WHERE game = g.id AND kind = 'computer' ORDER BY seat LIMIT 1),
                    g.variant
             FROM games g WHERE g.id = ?1",
            args![game],
        )
        .await?
    else {
        return Ok(None);
    };
    let (kind, mode, agent): (String, String, Option<String>) = (r.get(0)?, r.get(1)?, r.get(2)?);
    let variant: Option<String> = r.get(3)?;
    let mode = match (mode.as_str(), agent) {
        ("computer", Some(agent)) => format!("computer:{agent}"),
        _ => mode,
    };
    Ok(Some((record_game(&kind, variant.as_deref()), mode)))
}

/// Counts finished game `game`'s scores (`(seat, score)`) in record `record` (its game and way)
/// of the players who sat in it (within the transaction that stores its finish).
async fn count_scores<S: Sql>(
    s: &mut S,
    game: &str,
    record: &Record,
    scores: impl Iterator<Item = (usize, i64)>,
) -> Result<(), StorageError> {
    let (kind, mode) = (&record.game, &record.way);
    let players: Vec<(usize, String)> = s
        .rows_as(
            "SELECT seat, player FROM seats
             WHERE game = ?1 AND player IS NOT NULL AND kind = 'human' ORDER BY seat",
            args![game],
            |mut r| Ok((r.get(0)?, r.get(1)?)),
        )
        .await?;
    if players.is_empty() {
        return Ok(());
    }
    for (seat, score) in scores {
        for (_, player) in players.iter().filter(|(s, _)| *s == seat) {
            s.exec(
                "INSERT INTO bests (player, game, mode, games, best, best_game, previous, sum)
                 VALUES (?1, ?2, ?3, 1, ?4, ?5, NULL, ?4)
                 ON CONFLICT (player, game, mode) DO UPDATE SET
                     games = bests.games + 1,
                     sum = bests.sum + ?4,
                     previous = CASE WHEN ?4 > bests.best THEN bests.best ELSE bests.previous END,
                     best_game = CASE WHEN ?4 > bests.best THEN ?5 ELSE bests.best_game END,
                     best = CASE WHEN ?4 > bests.best THEN ?4 ELSE bests.best END",
                args![player, kind, mode, score, game],
            )
            .await?;
        }
    }
    Ok(())
}

/// Counts a game's finish in its players' records, in the record the server named (see
/// [`count_scores`]).
pub(super) async fn count_finish<S: Sql>(
    s: &mut S,
    game: &str,
    finished: &Finished,
) -> Result<(), StorageError> {
    let Some(record) = &finished.record else {
        return Ok(());
    };
    let scores = finished.entries.iter().map(|e| (e.seat, e.score));
    count_scores(s, game, record, scores).await
}

/// A stored result, as far as records read it.
#[derive(Deserialize)]
struct StoredResult {
    players: Vec<StoredScore>,
}

#[derive(Deserialize)]
struct StoredScore {
    seat: usize,
    score: i64,
}

/// Fills the records from the finished games stored before they were kept (run once, by the
/// migration that makes their table), oldest first so that a best is its first game.
pub(super) async fn backfill<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let rows = s
        .rows(
            "SELECT g.id, g.result FROM games g
             WHERE g.finished IS NOT NULL AND g.result IS NOT NULL
               AND EXISTS (SELECT 1 FROM seats p WHERE p.game = g.id AND p.player IS NOT NULL)
             ORDER BY g.finished, g.id",
            args![],
        )
        .await?;
    for mut r in rows {
        let (game, result): (String, String) = (r.get(0)?, r.get(1)?);
        let Ok(result) = serde_json::from_str::<StoredResult>(&result) else {
            tracing::warn!(%game, "a stored result does not read: left out of the records");
            continue;
        };
        let Some((kind, way)) = way_of(s, &game).await? else {
            continue;
        };
        let record = Record { game: kind, way };
        count_scores(
            s,
            &game,
            &record,
            result.players.iter().map(|p| (p.seat, p.score)),
        )
        .await?;
    }
    Ok(())
}

impl Storage {
    /// A player's records, by game and way of playing (see [`Best`]).
    pub async fn bests(&self, player: &str) -> Result<Vec<Best>, StorageError> {
        let player = player.to_owned();
        read!(self, |s| async move {
            s.rows_as(
                "SELECT game, mode, games, best, best_game, previous, sum FROM bests
                 WHERE player = ?1 ORDER BY game, mode",
                args![&player],
                |mut r| {
                    Ok(Best {
                        game: r.get(0)?,
                        mode: r.get(1)?,
                        games: r.get(2)?,
                        best: r.get(3)?,
                        best_game: r.get(4)?,
                        previous: r.get(5)?,
                        sum: r.get(6)?,
                    })
                },
            )
            .await
        })
    }

    /// How many dailies of `kind` the player finished, and the rank of each ranked one of
    /// those that have closed by `now` (the newest `limit`): `(rank, of how many)`.
    pub async fn daily_ranks(
        &self,
        player: &str,
        kind: &str,
        now: i64,
        limit: usize,
    ) -> Result<(i64, Vec<(usize, i64)>), StorageError> {
        let (player, kind) = (player.to_owned(), kind.to_owned());
        let (played, entries) = read!(self, |s| async move {
            let played = match s
                .row(
                    "SELECT CAST(count(*) AS BIGINT) FROM entries e
                     JOIN challenges c ON c.id = e.challenge
                     WHERE e.player = ?1 AND c.kind = ?2 AND e.finished IS NOT NULL",
                    args![&player, &kind],
                )
                .await?
            {
                Some(mut r) => r.get(0)?,
                None => 0,
            };
            let entries = crate::entries::entries_where(
                &mut s,
                "player = ?1 AND finished IS NOT NULL AND ranked = 1
                 AND challenge IN (SELECT id FROM challenges WHERE kind = ?2 AND closes <= ?3)
                 ORDER BY finished DESC LIMIT ?4",
                args![&player, &kind, now, limit as i64],
            )
            .await?;
            Ok::<_, StorageError>((played, entries))
        })?;
        let mut ranks = Vec::with_capacity(entries.len());
        for entry in entries {
            let stats = self.challenge(&entry.challenge).await?;
            let total = stats.map_or(0, |c| c.finished);
            let (rank, _) = self.rank_and_around(&entry, 0).await?;
            ranks.push((rank, total));
        }
        Ok((played, ranks))
    }
}
