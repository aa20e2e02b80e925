//! Reviews of finished games, one a game and seat: opaque JSON, computed once (a review is
//! deterministic) and kept, so that asking again costs a read.

use super::sql::{Sql, args};
use super::{Storage, StorageError, Write, read};

/// The statements of the migration that keeps reviews (SQLite's schema 7, PostgreSQL's 5).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS reviews (
    game   TEXT NOT NULL REFERENCES games(id),
    seat   INTEGER NOT NULL,
    review TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
";

/// A review to keep.
#[derive(Debug, Clone)]
pub(crate) struct NewReview {
    game: String,
    seat: usize,
    review: String,
}

/// Keeps a review; a second one of the same game and seat (another process computed it too:
/// the same review) is left out.
pub(super) async fn insert<S: Sql>(s: &mut S, r: &NewReview) -> Result<(), StorageError> {
    s.exec(
        "INSERT INTO reviews (game, seat, review) VALUES (?1, ?2, ?3)
         ON CONFLICT (game, seat) DO NOTHING",
        args![&r.game, r.seat, &r.review],
    )
    .await?;
    Ok(())
}

impl Storage {
    /// The review kept for a game's seat, if any.
    pub async fn review(&self, game: &str, seat: usize) -> Result<Option<String>, StorageError> {
        let game = game.to_owned();
        read!(self, |s| async move {
            match s
                .row(
                    "SELECT review FROM reviews WHERE game = ?1 AND seat = ?2",
                    args![&game, seat],
                )
                .await?
            {
                Some(mut r) => Ok(Some(r.get(0)?)),
                None => Ok(None),
            }
        })
    }

    /// Keeps a game's seat's review (the first kept stays).
    pub async fn set_review(
        &self,
        game: &str,
        seat: usize,
        review: String,
    ) -> Result<(), StorageError> {
        self.write(Write::Review(NewReview {
            game: game.to_owned(),
            seat,
            review,
        }))
        .await
    }
}
