//! What is left of the deck, hands, and drawing a tile (§5.3).

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::placement::Sequence;
use crate::tile::{DECK_SIZE, Tile, TileError};

/// The most tiles all hands together can hold: one per player, at most 6 players.
pub const MAX_HANDS: usize = 6;

/// The tiles currently held by any player (§5.3): 0–6 tiles, written as their concatenated codes.
///
/// ```
/// use metro::Hands;
/// let hands: Hands = "aaaadddd".parse().unwrap();
/// assert_eq!(hands.tiles().len(), 2);
/// assert_eq!(hands.to_string(), "aaaadddd");
/// assert!("aaaadd".parse::<Hands>().is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hands(Vec<Tile>);

/// A string that is not a hands string.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HandsError {
    /// A 4-character chunk that is not a tile.
    #[error("held tile {index} ({text:?}): {error}")]
    Tile {
        /// 0-based index of the chunk.
        index: usize,
        /// The chunk (shorter than 4 characters when the string is cut short).
        text: String,
        /// What is wrong with it.
        error: TileError,
    },
    /// More than 6 tiles.
    #[error("{count} held tiles, but at most 6 players can each hold one")]
    TooMany {
        /// The number of tiles found.
        count: usize,
    },
}

impl Hands {
    /// The held tiles, at most [`MAX_HANDS`] of them.
    pub fn new(tiles: Vec<Tile>) -> Result<Hands, HandsError> {
        if tiles.len() > MAX_HANDS {
            return Err(HandsError::TooMany { count: tiles.len() });
        }
        Ok(Hands(tiles))
    }

    /// The held tiles.
    pub fn tiles(&self) -> &[Tile] {
        &self.0
    }
}

impl FromStr for Hands {
    type Err = HandsError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let mut tiles = Vec::new();
        loop {
            let text: String = chars.by_ref().take(4).collect();
            if text.is_empty() {
                return Ok(Hands(tiles));
            }
            if tiles.len() == MAX_HANDS {
                let count = MAX_HANDS + 1 + chars.count().div_ceil(4);
                return Err(HandsError::TooMany { count });
            }
            let tile = text.parse().map_err(|error| HandsError::Tile {
                index: tiles.len(),
                text: text.clone(),
                error,
            })?;
            tiles.push(tile);
        }
    }
}

impl fmt::Display for Hands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|t| write!(f, "{t}"))
    }
}

/// Board and hands use more copies of a tile type than the deck has (§5.3 requires
/// `remaining(t) ≥ 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{used} copies of {tile} are on the board or in hands, but the deck has only {copies}")]
pub struct OverdrawnError {
    /// The tile type.
    pub tile: Tile,
    /// How many are placed or held.
    pub used: usize,
    /// Its copies in the deck.
    pub copies: u8,
}

/// What is left of the deck: how many physical tiles of each type remain to be drawn.
///
/// There is no order: each draw picks one remaining physical tile uniformly at random, which
/// is the same as drawing the top tile of a shuffled deck, and leaves no hidden order to leak.
///
/// ```
/// use metro::{Deck, Hands, Sequence, Tile};
/// // §9.1: sequence aaaa00dddd05, hands aaaadddd.
/// let seq: Sequence = "aaaa00dddd05".parse().unwrap();
/// let hands: Hands = "aaaadddd".parse().unwrap();
/// let deck = Deck::remaining(&seq, &hands).unwrap();
/// assert_eq!(deck.count("aaaa".parse().unwrap()), 2);
/// assert_eq!(deck.count("dddd".parse().unwrap()), 0);
/// assert_eq!(deck.len(), 56);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deck {
    counts: [u8; 24],
    len: u8,
}

impl Deck {
    /// The whole deck of 60 tiles.
    pub const fn full() -> Deck {
        let mut counts = [0u8; 24];
        let mut t = 0;
        while t < 24 {
            counts[t] = Tile::ALL[t].copies();
            t += 1;
        }
        Deck {
            counts,
            len: DECK_SIZE as u8,
        }
    }

    /// `remaining(t)` of §5.3: the full deck less the placed and the held tiles.
    pub fn remaining(sequence: &Sequence, hands: &Hands) -> Result<Deck, OverdrawnError> {
        let mut deck = Deck::full();
        let mut used = [0usize; 24];
        for tile in sequence
            .iter()
            .map(|p| p.tile)
            .chain(hands.tiles().iter().copied())
        {
            used[tile.index()] += 1;
        }
        for tile in Tile::ALL {
            let used = used[tile.index()];
            let copies = tile.copies();
            if used > copies as usize {
                return Err(OverdrawnError { tile, used, copies });
            }
            for _ in 0..used {
                deck.take(tile);
            }
        }
        Ok(deck)
    }

    /// How many tiles of type `tile` remain.
    pub const fn count(&self, tile: Tile) -> u8 {
        self.counts[tile.index()]
    }

    /// How many tiles remain in all (`Σ remaining`).
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the deck is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes one tile of type `tile`; returns whether there was one.
    pub fn take(&mut self, tile: Tile) -> bool {
        let c = &mut self.counts[tile.index()];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        self.len -= 1;
        true
    }

    /// Draws one physical tile uniformly at random and removes it: type `t` comes with
    /// probability `count(t) / len()`. `None` when the deck is empty.
    pub fn draw<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<Tile> {
        let tile = self.pick(rng)?;
        self.take(tile);
        Some(tile)
    }

    /// Picks a tile as [`Deck::draw`] does, without removing it.
    pub fn pick<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Tile> {
        if self.len == 0 {
            return None;
        }
        let mut n = rng.random_range(0..self.len);
        for tile in Tile::ALL {
            let c = self.counts[tile.index()];
            if n < c {
                return Some(tile);
            }
            n -= c;
        }
        None
    }
}

impl Default for Deck {
    fn default() -> Self {
        Deck::full()
    }
}

/// `draw(sequence, hands)` of §5.3: one physical tile, uniformly among those neither placed nor
/// held; `Ok(None)` when the deck is empty.
///
/// ```
/// use metro::{draw, Hands, Sequence};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let seq: Sequence = "aaaa00dddd05".parse().unwrap();
/// let tile = draw(&seq, &"aaaadddd".parse().unwrap(), &mut rng).unwrap().unwrap();
/// assert_ne!(tile.to_string(), "dddd");
/// ```
pub fn draw<R: Rng + ?Sized>(
    sequence: &Sequence,
    hands: &Hands,
    rng: &mut R,
) -> Result<Option<Tile>, OverdrawnError> {
    Ok(Deck::remaining(sequence, hands)?.pick(rng))
}

impl Serialize for Hands {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hands {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn hands_errors() {
        assert!(matches!(
            "abcd".parse::<Hands>(),
            Err(HandsError::Tile { index: 0, .. })
        ));
        assert!(matches!(
            "aaaaxx".parse::<Hands>(),
            Err(HandsError::Tile { index: 1, .. })
        ));
        assert_eq!(
            "aaaa".repeat(7).parse::<Hands>(),
            Err(HandsError::TooMany { count: 7 })
        );
        assert_eq!(
            "aaaa".repeat(6).parse::<Hands>().map(|h| h.tiles().len()),
            Ok(6)
        );
        assert_eq!("".parse::<Hands>(), Ok(Hands::default()));
    }

    #[test]
    fn overdrawn_is_an_error() {
        let seq: Sequence = "dddd00dddd01".parse().unwrap();
        let err = Deck::remaining(&seq, &"dddd".parse().unwrap()).unwrap_err();
        assert_eq!((err.used, err.copies), (3, 2));
    }

    #[test]
    fn an_empty_deck_draws_nothing() {
        let mut deck = Deck::full();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut drawn = [0u8; 24];
        while let Some(t) = deck.draw(&mut rng) {
            drawn[t.index()] += 1;
        }
        assert!(deck.is_empty());
        for t in Tile::ALL {
            assert_eq!(drawn[t.index()], t.copies());
        }
        assert_eq!(deck.draw(&mut rng), None);
    }
}
