//! A change to the database: one transaction, the same statements on either backend.

use crate::games::{insert_actions, insert_game, set_finished};
use crate::sql::{Sql, args};
use crate::{Append, Finished, NewGame, StorageError, challenges, copy, reviews};

/// A change to the database, run in one transaction.
#[derive(Debug, Clone)]
pub(crate) enum Write {
    Create(NewGame),
    Append(Append),
    /// The actions that end a game, and how it ended, in one transaction.
    Finish(Append, Finished),
    /// A game played to its end elsewhere (in the page, with no connection): the game, all its
    /// actions and how it ended, in one transaction.
    Played(Box<(NewGame, Append, Finished)>),
    /// How an already stored game ended (for games stored before version 2).
    Mark(String, Finished),
    /// Players and challenges (see [`challenges`]).
    Challenge(challenges::Write),
    /// Players' devices, recovery codes, links and passkeys (see [`crate::identity`]).
    Identity(crate::identity::IdentityWrite),
    /// Push subscriptions, choices and reminders (see [`crate::reminders`]).
    Reminders(crate::reminders::ReminderWrite),
    /// The game made to play a finished one again: `(game, rematch)`.
    Rematch(String, String),
    /// Claims passed deadlines (see [`crate::clocks::claim`]).
    Claim {
        claimer: String,
        now: i64,
        until: i64,
        limit: usize,
    },
    /// A passed deadline with nothing to do: `(game, deadline)`.
    DropDeadline(String, crate::clocks::Deadline),
    /// The pool of people waiting (see [`crate::pool`]).
    Pool(crate::pool::PoolWrite),
    /// An operator's moderation, at a time, for a reason (see [`crate::moderation`]).
    Moderate(crate::moderation::Moderation, i64, String),
    /// A game's draws were shown to someone who does not sit in it, at this time (kept once).
    Shown(String, i64),
    /// A finished game's seat's review (see [`reviews`]).
    Review(reviews::NewReview),
    /// A closed challenge rated among its ranked entries: `(challenge, game, closed at, rate)`.
    Rate(String, String, i64, crate::ratings::Rate),
    /// Every rating made again from what was rated: `(a game's rate, a field's)`.
    Rebuild(crate::ratings::Rate, crate::ratings::Rate),
    /// Rows copied from another database, and its secret (see [`copy`]).
    Copy(Vec<copy::Rows>, Option<String>),
    #[cfg(any(test, feature = "test-util"))]
    /// Finished entries of a challenge, for tests (see [`challenges::fill_for_test`]).
    Fill(String, Vec<(i64, i64, i64)>),
    #[cfg(any(test, feature = "test-util"))]
    /// A statement of a test (see [`Storage::exec_for_test`]).
    Test(String, Vec<crate::sql::Value>),
    #[cfg(any(test, feature = "test-util"))]
    /// At most this many pages in the SQLite file, on the writer's connection: a test's full
    /// disk (see [`Storage::limit_pages_for_test`]).
    PageLimit(u32),
}

impl Write {
    /// The game whose actions this write changes, and how many it has after it: what other
    /// processes are told once it is committed.
    pub(crate) fn announces(&self) -> Option<(&str, usize)> {
        match self {
            Write::Append(a) | Write::Finish(a, _) => {
                Some((a.game.as_str(), a.first + a.actions.len()))
            }
            // The finished game's players hear of its rematch wherever they are.
            Write::Rematch(game, _) => Some((game.as_str(), 0)),
            _ => None,
        }
    }
}

/// Runs a write's statements (inside the caller's transaction).
pub(crate) async fn apply<S: Sql>(s: &mut S, write: &Write) -> Result<(), StorageError> {
    match write {
        Write::Create(game) => insert_game(s, game).await,
        Write::Append(append) => insert_actions(s, append).await,
        Write::Finish(append, finished) => {
            insert_actions(s, append).await?;
            set_finished(s, &append.game, finished).await
        }
        Write::Played(played) => {
            let (game, append, finished) = &**played;
            insert_game(s, game).await?;
            insert_actions(s, append).await?;
            set_finished(s, &append.game, finished).await
        }
        Write::Mark(game, finished) => set_finished(s, game, finished).await,
        Write::Rematch(game, rematch) => {
            s.exec(
                "INSERT INTO rematches (game, rematch) VALUES (?1, ?2)",
                args![game, rematch],
            )
            .await?;
            Ok(())
        }
        Write::Shown(game, at) => {
            s.exec(
                "UPDATE games SET shown = ?2 WHERE id = ?1 AND shown IS NULL",
                args![game, *at],
            )
            .await?;
            Ok(())
        }
        Write::Review(review) => reviews::insert(s, review).await,
        Write::Claim {
            claimer,
            now,
            until,
            limit,
        } => crate::clocks::claim(s, claimer, *now, *until, *limit).await,
        Write::DropDeadline(game, d) => crate::clocks::drop(s, game, d).await,
        Write::Pool(write) => crate::pool::write(s, write).await,
        Write::Moderate(m, at, reason) => crate::moderation::apply(s, m, *at, reason).await,
        Write::Rate(challenge, game, at, rate) => {
            crate::ratings::rate_challenge(s, challenge, game, *at, *rate).await
        }
        Write::Rebuild(game, field) => crate::ratings::rebuild(s, *game, *field).await,
        Write::Challenge(write) => challenges::write(s, write).await,
        Write::Identity(write) => crate::identity::apply(s, write).await,
        Write::Reminders(write) => crate::reminders::apply(s, write).await,
        Write::Copy(rows, secret) => {
            if let Some(secret) = secret {
                copy::set_secret(s, secret).await?;
            }
            copy::insert(s, rows).await
        }
        #[cfg(any(test, feature = "test-util"))]
        Write::Fill(challenge, rows) => crate::entries::fill(s, challenge, rows).await,
        #[cfg(any(test, feature = "test-util"))]
        Write::PageLimit(pages) => s
            .rows(&format!("PRAGMA max_page_count = {pages}"), &[])
            .await
            .map(drop),
        #[cfg(any(test, feature = "test-util"))]
        Write::Test(statement, values) => {
            let args: Vec<crate::sql::Arg<'_>> = values.iter().map(crate::sql::Arg::from).collect();
            s.exec(statement, &args).await.map(drop)
        }
    }
}
