//! The players' name keys made again under today's `crate::names::key`, which compares names by
//! how they look (Unicode's confusables, without invisible characters): a key stored by an
//! older key would let a new look-alike of an old name in.

use super::StorageError;
use super::sql::{Sql, args};

/// The statements of the migration that makes the keys again (SQLite's schema 8, PostgreSQL's
/// 6): the keys are unique no more until [`rekey`] has made them all.
pub(super) const SCHEMA: &str = "DROP INDEX IF EXISTS players_by_name;";

/// Gives every player the key of their name (see `crate::names::key`): the earliest player (by
/// creation, then id) of each key has it; a later player whose name is now the same as an
/// earlier one's keeps the name, without a key (as `challenges::backfill_name_keys` left the
/// players of one name before names were unique). Then the keys are unique again. Run once,
/// by the migration, after [`SCHEMA`].
pub(super) async fn rekey<S: Sql>(s: &mut S) -> Result<(), StorageError> {
    let mut taken = std::collections::HashSet::new();
    let rows = s
        .rows(
            "SELECT id, name, name_key FROM players ORDER BY created, id",
            args![],
        )
        .await?;
    for mut r in rows {
        let id: String = r.get(0)?;
        let name: String = r.get(1)?;
        let old: Option<String> = r.get(2)?;
        let key = crate::names::key(&name);
        let new = taken.insert(key.clone()).then_some(key);
        if new != old {
            s.exec(
                "UPDATE players SET name_key = ?2 WHERE id = ?1",
                args![&id, new.as_deref()],
            )
            .await?;
        }
    }
    s.exec(
        "CREATE UNIQUE INDEX players_by_name ON players (name_key) WHERE name_key IS NOT NULL",
        args![],
    )
    .await?;
    Ok(())
}
