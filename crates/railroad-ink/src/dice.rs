//! Dice rolls (§5.3): three rolls of die A, then one of die B, written like `A0A5A3B2`; in a
//! game with an expansion (rule E2), two expansion dice follow: `A0A5A3B2V1V3`.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::expansion::Expansion;
use crate::tile::{Source, Tile};

/// The number of route dice in a roll.
pub const DICE: usize = 4;
/// The number of expansion dice in a roll of an expansion game (rule X2).
pub const EXPANSION_DICE: usize = 2;

/// The river die's six faces: V0 once, V1 three times, V2 and V3 once each (rule E2).
const RIVER_FACES: [Tile; 6] = [Tile::V0, Tile::V1, Tile::V1, Tile::V1, Tile::V2, Tile::V3];

/// One round's roll: dice 0–2 show die-A tiles and die 3 a die-B tile; in an expansion game,
/// dice 4 and 5 show the expansion dice (rule X2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Roll {
    route: [Tile; DICE],
    extra: Option<[Tile; EXPANSION_DICE]>,
}

impl Roll {
    /// A roll from three die-A faces (0–5) and one die-B face (0–2).
    pub fn new(a: [u8; 3], b: u8) -> Option<Roll> {
        Some(Roll {
            route: [
                Tile::from_source(Source::A, a[0])?,
                Tile::from_source(Source::A, a[1])?,
                Tile::from_source(Source::A, a[2])?,
                Tile::from_source(Source::B, b)?,
            ],
            extra: None,
        })
    }

    /// This roll's route dice with two expansion dice added, if both are tiles of the same
    /// expansion's die.
    pub fn with_expansion_dice(self, dice: [Tile; EXPANSION_DICE]) -> Option<Roll> {
        let expansion = Expansion::of_tile(dice[0]);
        (expansion != Expansion::None && Expansion::of_tile(dice[1]) == expansion).then_some(Roll {
            route: self.route,
            extra: Some(dice),
        })
    }

    /// Rolls the four dice: each A face uniform on 0–5, the B face uniform on 0–2.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Roll {
        let a = [0; 3].map(|_| rng.random_range(0..6u8));
        let b = rng.random_range(0..3u8);
        Roll {
            route: [
                Tile::ALL[a[0] as usize],
                Tile::ALL[a[1] as usize],
                Tile::ALL[a[2] as usize],
                Tile::ALL[6 + b as usize],
            ],
            extra: None,
        }
    }

    /// Rolls the dice of a game with `expansion`: the four route dice as [`Roll::random`],
    /// then the two expansion dice, each face of a die equally likely (the river die shows V1
    /// on three of its six faces).
    pub fn random_in<R: Rng + ?Sized>(rng: &mut R, expansion: Expansion) -> Roll {
        let roll = Roll::random(rng);
        let mut face = || rng.random_range(0..6u8) as usize;
        let extra = match expansion {
            Expansion::None => return roll,
            Expansion::Lake => [Tile::LAKE[face()], Tile::LAKE[face()]],
            Expansion::River => [RIVER_FACES[face()], RIVER_FACES[face()]],
        };
        Roll {
            extra: Some(extra),
            ..roll
        }
    }

    /// The expansion whose dice the roll holds (`None` for a roll of four).
    pub fn expansion(&self) -> Expansion {
        self.extra
            .map_or(Expansion::None, |e| Expansion::of_tile(e[0]))
    }

    /// The expansion dice's tiles: none in the base game, two with an expansion.
    pub fn expansion_dice(&self) -> &[Tile] {
        match &self.extra {
            Some(e) => e,
            None => &[],
        }
    }

    /// Every die's tile: the four route dice, then the expansion dice (index 4 and 5).
    pub fn all_dice(&self) -> impl Iterator<Item = (usize, Tile)> + '_ {
        self.route
            .into_iter()
            .chain(self.expansion_dice().iter().copied())
            .enumerate()
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

    /// The four route dice's tiles, die A three times and die B last.
    pub const fn dice(&self) -> [Tile; DICE] {
        self.route
    }

    /// The index of the first die showing `tile` that is not in the `used` bit set: a route
    /// die (0–3), or for an expansion tile an expansion die (4–5).
    pub fn unused_die(&self, tile: Tile, used: u8) -> Option<usize> {
        if tile.is_expansion() {
            return self
                .expansion_dice()
                .iter()
                .enumerate()
                .find_map(|(i, &t)| {
                    (used & (1 << (DICE + i)) == 0 && t == tile).then_some(DICE + i)
                });
        }
        (0..DICE).find(|&i| used & (1 << i) == 0 && self.route[i] == tile)
    }

    /// Parses the roll of a game with `expansion`: 8 characters in the base game, 12 with an
    /// expansion, whose last two dice are that expansion's (rule E2).
    pub fn parse_in(s: &str, expansion: Expansion) -> Result<Roll, RollError> {
        let chars: Vec<char> = s.chars().collect();
        if expansion == Expansion::None {
            if chars.len() == 12 {
                return Err(RollError::ExpansionRollInBaseGame);
            }
            return parse_route(&chars);
        }
        if chars.len() != 12 {
            return Err(RollError::ExpansionLength(chars.len()));
        }
        let roll = parse_route(&chars[..8])?;
        let source = expansion.source().unwrap_or(Source::L);
        let mut extra = [Tile::F0; EXPANSION_DICE];
        for (i, die) in extra.iter_mut().enumerate() {
            let (l, d) = (chars[8 + 2 * i], chars[9 + 2 * i]);
            if l != source.letter() {
                return Err(RollError::WrongExpansionDie {
                    index: 8 + 2 * i,
                    found: l,
                    expansion,
                });
            }
            *die = d
                .to_digit(10)
                .and_then(|f| Tile::from_source(source, f as u8))
                .ok_or(RollError::Character {
                    index: 9 + 2 * i,
                    found: d,
                    expected: if source == Source::V {
                        "a river die face 0–3"
                    } else {
                        "a lake die face 0–5"
                    },
                })?;
        }
        Ok(Roll {
            extra: Some(extra),
            ..roll
        })
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.route
            .iter()
            .chain(self.expansion_dice())
            .try_for_each(|t| write!(f, "{t}"))
    }
}

/// Why a roll string is not well-formed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RollError {
    #[error("a roll has exactly 8 characters, like A0A5A3B2; got {0}")]
    /// The roll is not 8 characters long: how many it has.
    Length(usize),
    #[error(
        "a roll of an expansion game has exactly 12 characters, like A0A5A3B2V1V3 (rule E2); got {0}"
    )]
    /// A roll of an expansion game is not 12 characters long.
    ExpansionLength(usize),
    #[error(
        "a 12-character roll belongs to an expansion game; the base game rolls 8 characters, A?A?A?B? (rule E2)"
    )]
    /// A 12-character roll given to a base game.
    ExpansionRollInBaseGame,
    #[error(
        "character {index} is {found:?}: a game with the {expansion} expansion rolls only its own dice (rule E2)"
    )]
    /// An expansion die of the other expansion (a river die in a lake game, or the reverse).
    WrongExpansionDie {
        /// Its index.
        index: usize,
        /// The letter found.
        found: char,
        /// The game's expansion.
        expansion: Expansion,
    },
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

    /// Parses a roll of the base game; a 12-character roll is refused (see
    /// [`Roll::parse_in`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Roll::parse_in(s, Expansion::None)
    }
}

/// Parses the route dice `A?A?A?B?`.
fn parse_route(chars: &[char]) -> Result<Roll, RollError> {
    {
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
        Ok(Roll {
            route: dice,
            extra: None,
        })
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
        // The expansion follows from the ninth character of a 12-character roll.
        let expansion = match s.chars().nth(8) {
            Some('V') => Expansion::River,
            Some('L') => Expansion::Lake,
            _ => Expansion::None,
        };
        Roll::parse_in(&s, expansion).map_err(serde::de::Error::custom)
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
    fn expansion_rolls() {
        let r = Roll::parse_in("A0A5A3B2V1V3", Expansion::River).unwrap();
        assert_eq!(r.to_string(), "A0A5A3B2V1V3");
        assert_eq!(r.expansion(), Expansion::River);
        assert_eq!(r.expansion_dice(), &[Tile::V1, Tile::V3]);
        assert_eq!(r.unused_die(Tile::V3, 0), Some(5));
        assert_eq!(r.unused_die(Tile::V3, 1 << 5), None);
        assert_eq!(
            "A0A5A3B2V1V3".parse::<Roll>(),
            Err(RollError::ExpansionRollInBaseGame)
        );
        assert!(matches!(
            Roll::parse_in("A0A5A3B2V1V3", Expansion::Lake),
            Err(RollError::WrongExpansionDie { index: 8, .. })
        ));
        assert!(matches!(
            Roll::parse_in("A0A5A3B2V1V4", Expansion::River),
            Err(RollError::Character { index: 11, .. })
        ));
        assert_eq!(
            Roll::parse_in("A0A5A3B2", Expansion::Lake),
            Err(RollError::ExpansionLength(8))
        );
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Roll>(&json).unwrap(), r);
    }

    #[test]
    fn river_die_shows_v1_half_the_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = [0u32; 4];
        let mut lake = [0u32; 6];
        for _ in 0..6000 {
            let r = Roll::random_in(&mut rng, Expansion::River);
            assert_eq!(Roll::parse_in(&r.to_string(), Expansion::River), Ok(r));
            for t in r.expansion_dice() {
                counts[t.face() as usize] += 1;
            }
            for t in Roll::random_in(&mut rng, Expansion::Lake).expansion_dice() {
                lake[t.face() as usize] += 1;
            }
        }
        // 12,000 river faces: V1 about 6,000, the others about 2,000.
        assert!((5700..6300).contains(&counts[1]), "{counts:?}");
        for i in [0, 2, 3] {
            assert!((1800..2200).contains(&counts[i]), "{counts:?}");
        }
        for c in lake {
            assert!((1800..2200).contains(&c), "{lake:?}");
        }
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
