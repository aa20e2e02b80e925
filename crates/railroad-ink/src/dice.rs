//! Dice rolls (§5.3): three rolls of die A, then one of die B, written like `A0A5A3B2`.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::tile::{Source, Tile};

/// The number of dice in a roll.
pub const DICE: usize = 4;

/// One round's roll: dice 0–2 show die-A tiles and die 3 a die-B tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Roll([Tile; DICE]);

impl Roll {
    /// A roll from three die-A faces (0–5) and one die-B face (0–2).
    pub fn new(a: [u8; 3], b: u8) -> Option<Roll> {
        Some(Roll([
            Tile::from_source(Source::A, a[0])?,
            Tile::from_source(Source::A, a[1])?,
            Tile::from_source(Source::A, a[2])?,
            Tile::from_source(Source::B, b)?,
        ]))
    }

    /// Rolls the four dice: each A face uniform on 0–5, the B face uniform on 0–2.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Roll {
        let a = [0; 3].map(|_| rng.random_range(0..6u8));
        let b = rng.random_range(0..3u8);
        Roll([
            Tile::ALL[a[0] as usize],
            Tile::ALL[a[1] as usize],
            Tile::ALL[a[2] as usize],
            Tile::ALL[6 + b as usize],
        ])
    }

    /// How many rolls differ in more than the order of the die-A faces: 56 sets of three A
    /// faces times 3 B faces.
    pub const DISTINCT: usize = 168;

    /// Every roll, the die-A faces in ascending order, with its probability (they sum to 1):
    /// a set of three different A faces comes up in 6 orders of 216, a pair and another face
    /// in 3, three equal faces in 1; each B face is a third.
    pub fn distinct() -> Vec<(Roll, f64)> {
        let mut out = Vec::with_capacity(Self::DISTINCT);
        for a0 in 0..6u8 {
            for a1 in a0..6 {
                for a2 in a1..6 {
                    let orders = match (a0 == a1, a1 == a2) {
                        (true, true) => 1.0,
                        (false, false) => 6.0,
                        _ => 3.0,
                    };
                    for b in 0..3 {
                        let roll = Roll::new([a0, a1, a2], b).expect("faces in range");
                        out.push((roll, orders / 216.0 / 3.0));
                    }
                }
            }
        }
        out
    }

    /// The four dice's tiles, die A three times and die B last.
    pub const fn dice(&self) -> [Tile; DICE] {
        self.0
    }

    /// The index of the first die showing `tile` that is not in the `used` bit set.
    pub fn unused_die(&self, tile: Tile, used: u8) -> Option<usize> {
        (0..DICE).find(|&i| used & (1 << i) == 0 && self.0[i] == tile)
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|t| write!(f, "{t}"))
    }
}

/// Why a roll string is not well-formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RollError {
    #[error("a roll has exactly 8 characters, like A0A5A3B2; got {0}")]
    /// The roll is not 8 characters long: how many it has.
    Length(usize),
    #[error("character {index} is {found:?}, expected {expected} (a roll is A?A?A?B?)")]
    /// A character is out of place.
    Character {
        /// Its index.
        index: usize,
        /// The character found.
        found: char,
        /// What belongs there.
        expected: &'static str,
    },
}

impl FromStr for Roll {
    type Err = RollError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let chars: Vec<char> = s.chars().collect();
        if chars.len() != 8 {
            return Err(RollError::Length(chars.len()));
        }
        let mut dice = [Tile::A0; DICE];
        for (i, die) in dice.iter_mut().enumerate() {
            let (letter, max, expected_letter, expected_face) = if i < 3 {
                ('A', 5, "the letter A", "a die-A face 0–5")
            } else {
                ('B', 2, "the letter B", "a die-B face 0–2")
            };
            let (l, d) = (chars[2 * i], chars[2 * i + 1]);
            if l != letter {
                return Err(RollError::Character {
                    index: 2 * i,
                    found: l,
                    expected: expected_letter,
                });
            }
            let face = d
                .to_digit(10)
                .filter(|&f| f <= max)
                .ok_or(RollError::Character {
                    index: 2 * i + 1,
                    found: d,
                    expected: expected_face,
                })?;
            let source = if i < 3 { Source::A } else { Source::B };
            *die = Tile::from_source(source, face as u8).ok_or(RollError::Character {
                index: 2 * i + 1,
                found: d,
                expected: expected_face,
            })?;
        }
        Ok(Roll(dice))
    }
}

impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Roll {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn distinct_rolls_cover_every_roll_once_with_its_probability() {
        let all = Roll::distinct();
        assert_eq!(all.len(), Roll::DISTINCT);
        assert!((all.iter().map(|r| r.1).sum::<f64>() - 1.0).abs() < 1e-12);
        // Against counting all 648 ordered rolls.
        let mut counts = std::collections::HashMap::new();
        for a in 0..216u32 {
            for b in 0..3 {
                let mut faces = [a % 6, a / 6 % 6, a / 36].map(|f| f as u8);
                faces.sort_unstable();
                *counts.entry(Roll::new(faces, b).unwrap()).or_insert(0) += 1;
            }
        }
        for (roll, p) in all {
            assert!(
                (p - f64::from(counts[&roll]) / 648.0).abs() < 1e-12,
                "{roll}"
            );
        }
    }

    #[test]
    fn examples() {
        assert_eq!("A0A5A3B2".parse::<Roll>().unwrap().to_string(), "A0A5A3B2");
        assert!(matches!(
            "B2A0A5A3".parse::<Roll>(),
            Err(RollError::Character { index: 0, .. })
        ));
        assert!(matches!(
            "A0A6A3B2".parse::<Roll>(),
            Err(RollError::Character { index: 3, .. })
        ));
        assert!(matches!(
            "A0A5A3B3".parse::<Roll>(),
            Err(RollError::Character { index: 7, .. })
        ));
        assert_eq!("A0A5A3B".parse::<Roll>(), Err(RollError::Length(7)));
    }

    #[test]
    fn random_rolls_are_well_formed_and_cover_every_face() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut counts = [0u32; 15];
        for _ in 0..6000 {
            let roll = Roll::random(&mut rng);
            assert_eq!(roll.to_string().parse::<Roll>(), Ok(roll));
            for t in roll.dice() {
                counts[t.index()] += 1;
            }
        }
        // 18,000 A faces: about 3,000 each; 6,000 B faces: about 2,000 each.
        for (i, &count) in counts[..6].iter().enumerate() {
            assert!((2700..3300).contains(&count), "A{i}: {count}");
        }
        for (i, &count) in counts[6..9].iter().enumerate() {
            assert!((1800..2200).contains(&count), "B{i}: {count}");
        }
    }
}
