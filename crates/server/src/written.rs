//! Parts of a game's view written as JSON once and shared: a change sends the state to every
//! seat's live-update stream, and most of each state is the same for every seat (the boards,
//! their scores) or unchanged since that seat's last (its own dice and where they fit, while
//! others play). [`Kept`] holds such parts, each under the key it was written for.

use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use serde_json::value::RawValue;

/// JSON already written, serialized as it is.
#[derive(Debug, Clone)]
pub struct Written(Arc<RawValue>);

impl Written {
    /// `value` written as JSON (`null`, and an error in the log, if it cannot be: a view is
    /// plain data, so that never happens).
    pub fn of<T: Serialize>(value: &T) -> Written {
        let raw = serde_json::value::to_raw_value(value).unwrap_or_else(|e| {
            tracing::error!(error = %e, "a part of a view could not be written as JSON");
            RawValue::NULL.to_owned()
        });
        Written(Arc::from(raw))
    }

    /// Whether the two are the same writing (not only equal text).
    pub fn same(&self, other: &Written) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Serialize for Written {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Written parts in numbered slots (a seat's, say), each kept with the key it was written
/// for and written again when asked with another. A copy starts empty: a state copied to try
/// a change must never share what its original wrote.
#[derive(Debug)]
pub struct Kept<K>(Mutex<Vec<Option<(K, Written)>>>);

impl<K> Default for Kept<K> {
    fn default() -> Kept<K> {
        Kept(Mutex::new(Vec::new()))
    }
}

impl<K> Clone for Kept<K> {
    fn clone(&self) -> Kept<K> {
        Kept::default()
    }
}

impl<K: PartialEq> Kept<K> {
    /// Slot `slot`'s part if it was written for `key`, else `make()` written and kept there.
    pub fn get_or_write<T: Serialize>(
        &self,
        slot: usize,
        key: K,
        make: impl FnOnce() -> T,
    ) -> Written {
        let mut slots = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(Some((k, written))) = slots.get(slot)
            && *k == key
        {
            return written.clone();
        }
        let written = Written::of(&make());
        if slots.len() <= slot {
            slots.resize_with(slot + 1, || None);
        }
        slots[slot] = Some((key, written.clone()));
        written
    }

    /// Whether nothing is kept.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        let slots = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        slots.iter().all(Option::is_none)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_written_once_for_its_key_and_again_for_another() {
        let kept = Kept::default();
        let mut made = 0;
        let mut make = |v: u32| {
            made += 1;
            v
        };
        let a = kept.get_or_write(2, 7, || make(1));
        let b = kept.get_or_write(2, 7, || make(2));
        assert!(a.same(&b));
        assert_eq!(serde_json::to_string(&b).unwrap(), "1");
        let c = kept.get_or_write(2, 8, || make(3));
        assert!(!c.same(&a));
        assert_eq!(serde_json::to_string(&c).unwrap(), "3");
        // Another slot is its own.
        let d = kept.get_or_write(0, 8, || make(4));
        assert_eq!(serde_json::to_string(&d).unwrap(), "4");
        assert_eq!(made, 3);
        assert!(kept.clone().is_empty());
        assert!(!kept.is_empty());
    }
}
