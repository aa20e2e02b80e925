//! The Deep Blue expansions (the rules chapter `railroad-ink-expansions.md`, cited E1–E7):
//! which one a game plays, and what that changes in the counts of the game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::tile::{Source, Tile};

/// The expansion a game is played with: none (the base game), the lake or the river; never both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expansion {
    /// The base game, unchanged.
    #[default]
    None,
    /// The lake expansion: two lake dice a round (rule E2).
    Lake,
    /// The river expansion: two river dice a round (rule E2).
    River,
}

impl Expansion {
    /// The three choices, the base game first.
    pub const ALL: [Expansion; 3] = [Expansion::None, Expansion::Lake, Expansion::River];

    /// Rounds in a game: 7 in the base game, 6 with an expansion (rule X1).
    pub const fn rounds(self) -> usize {
        match self {
            Expansion::None => 7,
            _ => 6,
        }
    }

    /// The most placements a board string may hold: 31 in the base game, 6 × 6 + 3 = 39 with
    /// an expansion (rule E2).
    pub const fn max_placements(self) -> usize {
        match self {
            Expansion::None => 31,
            _ => 39,
        }
    }

    /// The source letter of the expansion's dice, if any.
    pub const fn source(self) -> Option<Source> {
        match self {
            Expansion::None => None,
            Expansion::Lake => Some(Source::L),
            Expansion::River => Some(Source::V),
        }
    }

    /// The expansion whose dice show this tile (`None` for base tiles and the flooded square).
    pub const fn of_tile(tile: Tile) -> Expansion {
        match tile.source() {
            Source::V => Expansion::River,
            Source::L => Expansion::Lake,
            _ => Expansion::None,
        }
    }

    /// Whether a tile may be placed in a game of this expansion: base tiles always, the
    /// expansion's own dice only in its games, the flooded square never.
    pub const fn allows(self, tile: Tile) -> bool {
        match tile.source() {
            Source::A | Source::B | Source::S => true,
            Source::V => matches!(self, Expansion::River),
            Source::L => matches!(self, Expansion::Lake),
            Source::F => false,
        }
    }

    /// The tiles of the expansion's die (empty for the base game).
    pub const fn die_tiles(self) -> &'static [Tile] {
        match self {
            Expansion::None => &[],
            Expansion::Lake => &Tile::LAKE,
            Expansion::River => &Tile::RIVER,
        }
    }

    /// The name used on the command line and in JSON: `none`, `lake` or `river`.
    pub const fn name(self) -> &'static str {
        match self {
            Expansion::None => "none",
            Expansion::Lake => "lake",
            Expansion::River => "river",
        }
    }
}

impl fmt::Display for Expansion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An expansion name that is not `none`, `lake` or `river`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown expansion {0:?}: expected none, lake or river")]
pub struct ExpansionError(pub String);

impl FromStr for Expansion {
    type Err = ExpansionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" | "base" => Ok(Expansion::None),
            "lake" => Ok(Expansion::Lake),
            "river" => Ok(Expansion::River),
            _ => Err(ExpansionError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_tiles() {
        assert_eq!(Expansion::None.rounds(), 7);
        assert_eq!(Expansion::Lake.rounds(), 6);
        assert_eq!(Expansion::River.max_placements(), 39);
        assert!(Expansion::Lake.allows(Tile::L5));
        assert!(!Expansion::Lake.allows(Tile::V0));
        assert!(!Expansion::None.allows(Tile::L0));
        assert!(!Expansion::River.allows(Tile::F0));
        assert!(Expansion::River.allows(Tile::A3));
        for e in Expansion::ALL {
            assert_eq!(e.to_string().parse::<Expansion>(), Ok(e));
        }
        assert!("ocean".parse::<Expansion>().is_err());
    }
}
