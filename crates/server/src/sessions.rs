//! Games in memory: loaded lazily from storage by replay, kept while in use, dropped when
//! idle (storage holds everything, so a dropped game loads again on its next request).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

use crate::error::ApiError;
use crate::ids;
use crate::ink::InkSession;
use crate::storage::Storage;

struct Slot {
    cell: Arc<OnceCell<Arc<InkSession>>>,
    last_used: Instant,
}

/// The loaded games, by id.
pub struct Sessions {
    storage: Storage,
    games: Mutex<HashMap<String, Slot>>,
}

impl Sessions {
    pub fn new(storage: Storage) -> Sessions {
        Sessions {
            storage,
            games: Mutex::new(HashMap::new()),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Slot>> {
        // A panic while holding this lock cannot leave the map half-changed (every change
        // is one insert or remove), so a poisoned lock is still good to use.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The Railroad Ink game with this id, loading it from storage if needed.
    pub async fn ink(&self, id: &str) -> Result<Arc<InkSession>, ApiError> {
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
                let session = InkSession::from_stored(stored)?;
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
    pub fn insert_ink(&self, session: Arc<InkSession>) {
        let id = session.id.clone();
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
