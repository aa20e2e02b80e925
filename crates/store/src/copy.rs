//! `tracklayer db copy`: every game (setups, seats, actions, results), player and challenge
//! of one database into another, empty one — typically a SQLite file into PostgreSQL when one
//! process is no longer enough.
//!
//! Rows are copied as they are, table by table in an order that keeps every reference valid;
//! games go in batches (with their seats, actions and challenge entries), each batch one
//! transaction. The destination takes the source's secret, so challenge seeds stay the same.

use super::sql::{Arg, Row, Sql, Value, args};
use super::{Database, Storage, StorageError, Write};

/// How many games one transaction copies.
const BATCH: usize = 200;
/// How many rows of the other tables one transaction copies.
const ROWS: usize = 2000;

/// The tables copied whole, before the games, with their columns and order.
const BEFORE_GAMES: &[(&str, &str, &str)] = &[
    ("players", "id, name, token_hash, created, name_key", "id"),
    (
        "devices",
        "id, player, token_hash, label, how, created, seen",
        "id",
    ),
    ("recovery_codes", "player, code_hash, created", "player"),
    ("passkeys", "id, player, name, passkey, created, used", "id"),
    (
        "push_subscriptions",
        "endpoint, device, player, p256dh, auth, created",
        "endpoint",
    ),
    (
        "reminder_choices",
        "player, turn, daily, streak, zone",
        "player",
    ),
    (
        "challenges",
        "id, kind, game, period, opens, closes, seed, origin, by_name, created, players, target, computer_game, computer_score, computer_k2, fresh, streak_follows",
        "id",
    ),
];

/// The tables of a batch of games (`game` between the batch's first and last id).
const OF_GAMES: &[(&str, &str, &str)] = &[
    (
        "seats",
        "game, seat, name, kind, agent, token_hash, joined, player",
        "game, seat",
    ),
    ("actions", "game, idx, seat, action, at", "game, idx"),
    (
        "entries",
        "challenge, game, seat, player, name, started, finished, score, k2, addr, ranked",
        "challenge, game, seat",
    ),
];

/// The tables copied whole, after the games: what is counted from their entries.
const AFTER_GAMES: &[(&str, &str, &str)] = &[
    (
        "entry_scores",
        "challenge, score, count",
        "challenge, score",
    ),
    (
        "streaks",
        "player, kind, last, current, longest",
        "player, kind",
    ),
    (
        "bests",
        "player, game, mode, games, best, best_game, previous, sum",
        "player, game, mode",
    ),
    ("rematches", "game, rematch", "game"),
    ("reviews", "game, seat, review", "game, seat"),
    ("deadlines", "game, seat, turn, due", "game, seat"),
    (
        "ratings",
        "player, game, mu, sigma, games, at",
        "player, game",
    ),
    (
        "rating_changes",
        "player, game, source, at, mu, sigma",
        "player, game, source",
    ),
    ("rated", "source, game, at, places", "source"),
    (
        "moderation",
        "at, action, target, reason",
        "at, action, target",
    ),
    ("stopped_networks", "addr, at, reason", "addr"),
];

const GAME_COLUMNS: &str =
    "id, kind, mode, setup, created, finished, result, challenge, shown, variant";

/// What was copied.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Copied {
    pub games: usize,
    pub actions: usize,
    pub players: usize,
    pub challenges: usize,
}

/// Rows to insert into one table, in one transaction.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    table: &'static str,
    columns: &'static str,
    rows: Vec<Vec<Value>>,
}

impl<'a> From<&'a Value> for Arg<'a> {
    fn from(v: &'a Value) -> Arg<'a> {
        match v {
            Value::Null => Arg::Null,
            Value::Int(i) => Arg::Int(*i),
            Value::Text(t) => Arg::Text(t),
        }
    }
}

/// Inserts copied rows (a [`Write`] of the destination).
pub(super) async fn insert<S: Sql>(s: &mut S, batch: &[Rows]) -> Result<(), StorageError> {
    for rows in batch {
        let n = rows.columns.split(',').count();
        let marks: Vec<String> = (1..=n).map(|i| format!("?{i}")).collect();
        let statement = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            rows.table,
            rows.columns,
            marks.join(", ")
        );
        for row in &rows.rows {
            let values: Vec<Arg<'_>> = row.iter().map(Arg::from).collect();
            s.exec(&statement, &values).await?;
        }
    }
    Ok(())
}

impl Storage {
    async fn count(&self, table: &str) -> Result<usize, StorageError> {
        let statement = format!("SELECT CAST(count(*) AS BIGINT) FROM {table}");
        self.first_number(statement, Vec::new()).await
    }
}

/// Copies everything in `from` into `to`, which must hold no game, player or challenge yet
/// (its tables are made if needed). `progress` hears `(games copied, games in all)` after
/// each batch.
pub async fn copy(
    from: &Database,
    to: &Database,
    mut progress: impl FnMut(usize, usize),
) -> Result<Copied, StorageError> {
    if from == to {
        return Err(StorageError::Corrupt(format!(
            "{from} is both the source and the destination"
        )));
    }
    let source = Storage::connect(from).await?;
    let dest = Storage::connect(to).await?;
    for table in ["games", "players", "challenges"] {
        let n = dest.count(table).await?;
        if n > 0 {
            return Err(StorageError::Corrupt(format!(
                "{to} is not empty (it holds {n} {table}): copy into an empty database"
            )));
        }
    }
    let total = source.count("games").await?;
    let mut copied = Copied::default();
    // The same secret: the same challenge seeds.
    let secret = crate::hex::hex(source.secret());
    dest.write(Write::Copy(Vec::new(), Some(secret))).await?;
    for &table in BEFORE_GAMES {
        let n = copy_table(&source, &dest, table).await?;
        match table.0 {
            "players" => copied.players += n,
            "challenges" => copied.challenges += n,
            _ => {}
        }
    }
    let mut after: Option<String> = None;
    loop {
        let games = source
            .query(
                format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE (CAST(?1 AS TEXT) IS NULL OR id > ?1) ORDER BY id LIMIT ?2"
                ),
                vec![
                    after.clone().map_or(Value::Null, Value::Text),
                    Value::Int(BATCH as i64),
                ],
            )
            .await?;
        if games.is_empty() {
            break;
        }
        let first = first_text(&games[0])?;
        let last = first_text(&games[games.len() - 1])?;
        let mut batch = vec![rows_of("games", GAME_COLUMNS, games)];
        for &(table, columns, order) in OF_GAMES {
            let rows = source
                .query(
                    format!(
                        "SELECT {columns} FROM {table} WHERE game >= ?1 AND game <= ?2 ORDER BY {order}"
                    ),
                    vec![Value::Text(first.clone()), Value::Text(last.clone())],
                )
                .await?;
            if table == "actions" {
                copied.actions += rows.len();
            }
            batch.push(rows_of(table, columns, rows));
        }
        copied.games += batch[0].rows.len();
        dest.write(Write::Copy(batch, None)).await?;
        progress(copied.games, total);
        after = Some(last);
    }
    for &table in AFTER_GAMES {
        copy_table(&source, &dest, table).await?;
    }
    Ok(copied)
}

/// Copies one table other than `games`, `ROWS` rows a write, in `order`; returns how many.
async fn copy_table(
    source: &Storage,
    dest: &Storage,
    (table, columns, order): (&'static str, &'static str, &'static str),
) -> Result<usize, StorageError> {
    let mut offset = 0usize;
    loop {
        let rows = source
            .query(
                format!("SELECT {columns} FROM {table} ORDER BY {order} LIMIT ?1 OFFSET ?2"),
                vec![Value::Int(ROWS as i64), Value::Int(offset as i64)],
            )
            .await?;
        if rows.is_empty() {
            return Ok(offset);
        }
        offset += rows.len();
        dest.write(Write::Copy(vec![rows_of(table, columns, rows)], None))
            .await?;
    }
}

fn rows_of(table: &'static str, columns: &'static str, rows: Vec<Row>) -> Rows {
    Rows {
        table,
        columns,
        rows: rows.into_iter().map(Row::into_values).collect(),
    }
}

fn first_text(row: &Row) -> Result<String, StorageError> {
    row.clone().get(0)
}

/// Replaces the destination's secret with the source's (within the copy's first write).
pub(super) async fn set_secret<S: Sql>(s: &mut S, secret: &str) -> Result<(), StorageError> {
    s.exec(
        "UPDATE meta SET value = ?1 WHERE key = 'secret'",
        args![secret],
    )
    .await?;
    Ok(())
}

/// [`copy`] on a runtime of its own, for the command line.
pub fn copy_blocking(
    from: &Database,
    to: &Database,
    progress: impl FnMut(usize, usize),
) -> Result<Copied, StorageError> {
    crate::block_on(copy(from, to, progress))
}
