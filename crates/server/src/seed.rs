//! Seeds in JSON: a string of decimal digits, so that no client rounds a 64-bit seed to a
//! float (JavaScript shows 13184581399704218874 as 13184581399704220000). Requests may send a
//! string or a number.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A dice or deck seed as the API writes and reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub u64);

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

const EXPECTED: &str =
    "a seed: a whole number from 0 to 18446744073709551615, as a string of digits";

struct SeedVisitor;

impl Visitor<'_> for SeedVisitor {
    type Value = Seed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTED)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Seed, E> {
        Ok(Seed(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Seed, E> {
        u64::try_from(v)
            .map(Seed)
            .map_err(|_| E::custom(format!("{v} is not {EXPECTED}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Seed, E> {
        Err(E::custom(format!(
            "{v} is not {EXPECTED} (send large seeds as strings: numbers lose digits)"
        )))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Seed, E> {
        let digits = v.trim();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(E::custom(format!("{v:?} is not {EXPECTED}")));
        }
        digits
            .parse()
            .map(Seed)
            .map_err(|_| E::custom(format!("{v:?} is too large for {EXPECTED}")))
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seed, D::Error> {
        d.deserialize_any(SeedVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_strings_out_and_strings_or_numbers_in() {
        let big = Seed(13_184_581_399_704_218_874);
        assert_eq!(
            serde_json::to_string(&big).unwrap(),
            "\"13184581399704218874\""
        );
        let read = |s: &str| serde_json::from_str::<Seed>(s);
        assert_eq!(read("\"13184581399704218874\"").unwrap(), big);
        assert_eq!(read("99").unwrap(), Seed(99));
        assert_eq!(read("\"18446744073709551615\"").unwrap(), Seed(u64::MAX));
        for bad in [
            "\"18446744073709551616\"",
            "-1",
            "1.5",
            "\"12a\"",
            "\"\"",
            "null",
            "\"-3\"",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
