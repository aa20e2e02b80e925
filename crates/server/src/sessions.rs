//! Games in memory: loaded lazily from storage by replay, kept while in use, dropped when
//! idle (storage holds everything, so a dropped game loads again on its next request).
//!
//! One [`Sessions`] map per game kind (Railroad Ink, Metro); a session type says how it is
//! rebuilt from storage through [`Session`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

use crate::error::ApiError;
use crate::ids;
use crate::storage::{Storage, StoredGame};

/// A game in memory.
pub trait Session: Send + Sync + Sized + 'static {
    /// Rebuilds the game from what storage holds (not found if it is another kind of game).
    fn from_stored(stored: StoredGame) -> Result<Self, ApiError>;
    /// The game's id.
    fn id(&self) -> &str;
    /// Whether anyone is listening for live updates (then it stays in memory).
    fn has_listeners(&self) -> bool;
}

struct Slot<S> {
    cell: Arc<OnceCell<Arc<S>>>,
    last_used: Instant,
}

/// The loaded games of one kind, by id.
pub struct Sessions<S> {
    storage: Storage,
    games: Mutex<HashMap<String, Slot<S>>>,
}

impl<S: Session> Sessions<S> {
    pub fn new(storage: Storage) -> Sessions<S> {
        Sessions {
            storage,
            games: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Slot<S>>> {
        // A panic while holding this lock cannot leave the map half-changed (every change
        // is one insert or remove), so a poisoned lock is still good to use.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game with this id, loading it from storage if needed.
    pub async fn get(&self, id: &str) -> Result<Arc<S>, ApiError> {
        if !ids::is_game_id(id) {
            return Err(ApiError::game_not_found());
        }
        let cell = {
            let mut map = self.map();
            let slot = map.entry(id.to_owned()).or_insert_with(|| Slot {
                cell: Arc::new(OnceCell::new()),
                last_used: Instant::now(),
            });
            slot.last_used = Instant::now();
            slot.cell.clone()
        };
        let loaded = cell
            .get_or_try_init(|| async {
                let stored = self
                    .storage
                    .load_game(id)
                    .await?
                    .ok_or_else(ApiError::game_not_found)?;
                let session = S::from_stored(stored)?;
                tracing::debug!(game = %id, "game loaded");
                Ok::<_, ApiError>(Arc::new(session))
            })
            .await
            .cloned();
        if loaded.is_err() {
            // Unknown ids must not pile up in memory.
            let mut map = self.map();
            if map
                .get(id)
                .is_some_and(|s| Arc::ptr_eq(&s.cell, &cell) && s.cell.get().is_none())
            {
                map.remove(id);
            }
        }
        loaded
    }

    /// Adds a game just created.
    pub fn insert(&self, session: Arc<S>) {
        let id = session.id().to_owned();
        let cell = Arc::new(OnceCell::new_with(Some(session)));
        self.map().insert(
            id,
            Slot {
                cell,
                last_used: Instant::now(),
            },
        );
    }

    /// Drops a game from memory (after a failed write), so its next request reloads it.
    pub fn forget(&self, id: &str) {
        self.map().remove(id);
    }

    /// How many games are in memory.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Drops games unused for `idle` that nobody holds or listens to. Returns how many.
    pub fn sweep(&self, idle: Duration) -> usize {
        let mut map = self.map();
        let before = map.len();
        map.retain(|_, slot| {
            if slot.last_used.elapsed() < idle || Arc::strong_count(&slot.cell) > 1 {
                return true;
            }
            match slot.cell.get() {
                // Held by a request, a computer player's task or a live-update stream.
                Some(session) => Arc::strong_count(session) > 1 || session.has_listeners(),
                None => false,
            }
        });
        before - map.len()
    }
}

impl Session for crate::ink::InkSession {
    fn from_stored(stored: StoredGame) -> Result<Self, ApiError> {
        crate::ink::InkSession::from_stored(stored)
    }

    fn id(&self) -> &str {
        &self.id
    }

    fn has_listeners(&self) -> bool {
        crate::ink::InkSession::has_listeners(self)
    }
}
