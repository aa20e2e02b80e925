//! One way to run a statement on either backend, so that every query and write is written
//! once: [`Sql`] runs a statement with [`Arg`]s and returns [`Row`]s of plain [`Value`]s.
//!
//! Statements are written with numbered placeholders (`?1`, `?2`): SQLite takes them as they
//! are, PostgreSQL gets them as `$1`, `$2` (see [`postgres_text`]). Everything else in them
//! is SQL both understand (`ON CONFLICT`, `RETURNING`, `CAST`).
//!
//! The SQLite side runs synchronously: its futures are ready at once, and its callers (the
//! writer thread, blocking reads) poll them once with [`ready`].

use std::future::Future;

use futures_util::FutureExt;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::StorageError;

/// A statement's argument.
#[derive(Debug, Clone, Copy)]
pub enum Arg<'a> {
    Null,
    Int(i64),
    Text(&'a str),
}

impl From<i64> for Arg<'_> {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}

impl From<usize> for Arg<'_> {
    fn from(v: usize) -> Self {
        // Counts and indices of games are far below 2^63.
        Arg::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(v)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(v: &'a String) -> Self {
        Arg::Text(v)
    }
}

impl<'a, T: Into<Arg<'a>>> From<Option<T>> for Arg<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Arg::Null, Into::into)
    }
}

/// The arguments of a statement, each converted to an [`Arg`].
macro_rules! args {
    ($($a:expr),* $(,)?) => {
        &[$($crate::sql::Arg::from($a)),*]
    };
}
pub(crate) use args;

/// A value read from a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Null,
    Int(i64),
    Text(String),
}

/// One row of a result.
#[derive(Debug, Clone)]
pub struct Row(Vec<Value>);

impl Row {
    /// Its values, in column order.
    pub fn into_values(self) -> Vec<Value> {
        self.0
    }

    /// Column `i` (from 0) as a `T`; a missing column or a value of another type is
    /// [`StorageError::Corrupt`]. Each column is meant to be read once (it is taken).
    pub fn get<T: FromValue>(&mut self, i: usize) -> Result<T, StorageError> {
        let value = self
            .0
            .get_mut(i)
            .map(|v| std::mem::replace(v, Value::Null))
            .ok_or_else(|| StorageError::Corrupt(format!("no column {i} in a row")))?;
        T::from_value(value).ok_or_else(|| {
            StorageError::Corrupt(format!(
                "column {i} does not hold a {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What a [`Value`] can be read as.
pub trait FromValue: Sized {
    fn from_value(v: Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }
}

impl FromValue for usize {
    fn from_value(v: Value) -> Option<Self> {
        i64::from_value(v).and_then(|i| usize::try_from(i).ok())
    }
}

impl FromValue for String {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> Option<Self> {
        match v {
            Value::Null => Some(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// Where statements run: a connection or a transaction of either backend.
pub trait Sql {
    /// Runs a statement; returns how many rows it changed.
    fn exec(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<u64, StorageError>> + Send;

    /// Runs a query; returns its rows.
    fn rows(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Vec<Row>, StorageError>> + Send;

    /// Runs a query; returns its rows, each read by `read`.
    fn rows_as<T: Send>(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
        read: impl FnMut(Row) -> Result<T, StorageError> + Send,
    ) -> impl Future<Output = Result<Vec<T>, StorageError>> + Send {
        let rows = self.rows(sql, args);
        async move { rows.await?.into_iter().map(read).collect() }
    }

    /// The database's clock, in milliseconds since the Unix epoch: what decides whether a
    /// challenge has closed, the same for every process (PostgreSQL's `clock_timestamp()`;
    /// SQLite's file has one process, whose clock it is).
    fn now_ms(&mut self) -> impl Future<Output = Result<i64, StorageError>> + Send;

    /// The first row of a query, if any.
    fn row(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Option<Row>, StorageError>> + Send {
        let rows = self.rows(sql, args);
        async move { Ok(rows.await?.into_iter().next()) }
    }
}

/// The result of a future that cannot wait (SQLite's): polls it once.
pub fn ready<T>(f: impl Future<Output = Result<T, StorageError>>) -> Result<T, StorageError> {
    f.now_or_never().unwrap_or_else(|| {
        Err(StorageError::Task(
            "a SQLite statement did not finish".into(),
        ))
    })
}

// ---------------------------------------------------------------------------------------
// SQLite.

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Arg::Null => ValueRef::Null,
            Arg::Int(i) => ValueRef::Integer(i),
            Arg::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

/// Statements on a SQLite connection (or a transaction or savepoint, through `Deref`).
pub struct Sqlite<'c>(pub &'c rusqlite::Connection);

impl Sqlite<'_> {
    fn exec_now(&self, sql: &str, args: &[Arg<'_>]) -> Result<u64, StorageError> {
        let mut stmt = self.0.prepare_cached(sql)?;
        let n = stmt
            .execute(rusqlite::params_from_iter(args))
            .map_err(StorageError::of)?;
        Ok(n as u64)
    }

    fn rows_now(&self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>, StorageError> {
        use rusqlite::types::ValueRef;
        let mut stmt = self.0.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(StorageError::of)? {
            let mut row = Vec::with_capacity(columns);
            for i in 0..columns {
                row.push(match r.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Real(_) | ValueRef::Blob(_) => {
                        return Err(StorageError::Corrupt(format!(
                            "column {i} holds neither a number nor text"
                        )));
                    }
                });
            }
            out.push(Row(row));
        }
        Ok(out)
    }
}

impl Sql for Sqlite<'_> {
    fn exec(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<u64, StorageError>> + Send {
        std::future::ready(self.exec_now(sql, args))
    }

    fn rows(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Vec<Row>, StorageError>> + Send {
        std::future::ready(self.rows_now(sql, args))
    }

    fn now_ms(&mut self) -> impl Future<Output = Result<i64, StorageError>> + Send {
        std::future::ready(Ok(super::now_ms()))
    }
}

// ---------------------------------------------------------------------------------------
// PostgreSQL.

impl ToSql for Arg<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match *self {
            Arg::Null => Ok(IsNull::Yes),
            Arg::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                _ => Err(format!("a number given for a {ty} parameter").into()),
            },
            Arg::Text(s) => match *ty {
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    s.to_sql(ty, out)
                }
                _ => Err(format!("text given for a {ty} parameter").into()),
            },
        }
    }

    fn accepts(ty: &Type) -> bool {
        matches!(
            *ty,
            Type::INT8
                | Type::INT4
                | Type::INT2
                | Type::TEXT
                | Type::VARCHAR
                | Type::BPCHAR
                | Type::NAME
                | Type::UNKNOWN
        )
    }

    to_sql_checked!();
}

/// A statement written for SQLite (`?1`) as PostgreSQL takes it (`$1`).
pub fn postgres_text(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

/// Statements on a PostgreSQL connection or transaction of the pool (prepared once per
/// connection and kept).
pub struct Postgres<'c, C>(pub &'c C);

fn pg_row(row: &tokio_postgres::Row) -> Result<Row, StorageError> {
    let mut out = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|v| Value::Int(v.into()))
        } else if *ty == Type::INT2 {
            row.try_get::<_, Option<i16>>(i)?
                .map(|v| Value::Int(v.into()))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)?
                .map(|v| Value::Int(v.into()))
        } else if matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME) {
            row.try_get::<_, Option<String>>(i)?.map(Value::Text)
        } else {
            return Err(StorageError::Corrupt(format!(
                "column {} has the unexpected type {ty}",
                column.name()
            )));
        };
        out.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(out))
}

fn pg_args<'a>(args: &'a [Arg<'a>]) -> Vec<&'a (dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

impl<C: deadpool_postgres::GenericClient + Sync> Sql for Postgres<'_, C> {
    fn exec(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<u64, StorageError>> + Send {
        let client = self.0;
        let text = postgres_text(sql);
        async move {
            let stmt = client.prepare_cached(&text).await?;
            client
                .execute(&stmt, &pg_args(args))
                .await
                .map_err(StorageError::of_postgres)
        }
    }

    fn rows(
        &mut self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> impl Future<Output = Result<Vec<Row>, StorageError>> + Send {
        let client = self.0;
        let text = postgres_text(sql);
        async move {
            let stmt = client.prepare_cached(&text).await?;
            let rows = client
                .query(&stmt, &pg_args(args))
                .await
                .map_err(StorageError::of_postgres)?;
            rows.iter().map(pg_row).collect()
        }
    }

    fn now_ms(&mut self) -> impl Future<Output = Result<i64, StorageError>> + Send {
        let client = self.0;
        async move {
            let row = client
                .query_one(
                    "SELECT CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT)",
                    &[],
                )
                .await
                .map_err(StorageError::of_postgres)?;
            row.try_get::<_, i64>(0).map_err(StorageError::of_postgres)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres() {
        assert_eq!(
            postgres_text("SELECT a FROM t WHERE b = ?1 AND (?2 IS NULL OR c < ?12) -- ?"),
            "SELECT a FROM t WHERE b = $1 AND ($2 IS NULL OR c < $12) -- ?"
        );
    }

    #[test]
    fn rows_are_read_by_type() {
        let mut row = Row(vec![
            Value::Int(3),
            Value::Null,
            Value::Text("x".into()),
            Value::Int(-1),
        ]);
        assert_eq!(row.get::<i64>(0).unwrap(), 3);
        assert_eq!(row.get::<Option<String>>(1).unwrap(), None);
        assert_eq!(row.get::<String>(2).unwrap(), "x");
        assert!(row.get::<usize>(3).is_err(), "a negative count is refused");
        assert!(row.get::<i64>(9).is_err());
    }
}
