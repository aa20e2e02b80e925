//! Names of people: what a name may hold, when two names are the same name, and the names
//! the computers go by (which no person may take).
//!
//! A leaf module: it knows nothing of storage or HTTP, so both can use it.

use thiserror::Error;
use unicode_normalization::UnicodeNormalization;

/// The longest name, in characters (Unicode scalar values: an emoji is one).
pub const MAX_NAME: usize = 32;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    #[error("a name has at most {MAX_NAME} characters")]
    TooLong,
    #[error("a name may not hold U+{code:04X}, {why} (character {at} of the name)")]
    Unfit {
        code: u32,
        why: &'static str,
        /// 1-based.
        at: usize,
    },
    #[error("{0:?} is what the computer players are called: choose another name")]
    Computer(String),
}

/// Why a character may not be in a name, if it may not: what cannot be seen, or changes how the
/// text around it reads (a right-to-left override turns "placed cbcb at 05" around for
/// everyone who reads it).
fn unfit(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    match c.general_category() {
        G::Control => Some("a control character"),
        G::Format => {
            Some("an invisible format character (bidi controls, zero-width characters, U+FEFF)")
        }
        G::LineSeparator | G::ParagraphSeparator => Some("a line or paragraph separator"),
        G::PrivateUse => Some("a private-use character"),
        G::Unassigned => Some("an unassigned character"),
        // Letters and marks that draw nothing: Hangul fillers, the combining grapheme joiner,
        // the Mongolian free variation selectors.
        _ if matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{034F}' | '\u{180B}'
                ..='\u{180F}'
        ) =>
        {
            Some("an invisible character")
        }
        _ => None,
    }
}

/// A name from a request: trimmed, at most [`MAX_NAME`] characters, nothing invisible or that
/// reorders text (see [`unfit`]); `default` when missing or blank.
pub fn seat_name(
    name: Option<&str>,
    default: impl FnOnce() -> String,
) -> Result<String, NameError> {
    let name = name.map(str::trim).unwrap_or("");
    if name.is_empty() {
        return Ok(default());
    }
    if name.chars().count() > MAX_NAME {
        return Err(NameError::TooLong);
    }
    if let Some((i, c, why)) = name
        .chars()
        .enumerate()
        .find_map(|(i, c)| unfit(c).map(|why| (i, c, why)))
    {
        return Err(NameError::Unfit {
            code: c as u32,
            why,
            at: i + 1,
        });
    }
    Ok(name.to_owned())
}

/// A person's name: as [`seat_name`], and never one of the computers' (see [`is_computers`]).
pub fn person_name(
    name: Option<&str>,
    default: impl FnOnce() -> String,
) -> Result<String, NameError> {
    let name = seat_name(name, default)?;
    if is_computers(&name) {
        return Err(NameError::Computer(name));
    }
    Ok(name)
}

/// The form under which two names are the same name: compatibility-normalised (NFKC: full-width
/// `Ａｎｎ` is `Ann`, a ligature is its letters), lower-cased, runs of white space made one
/// space, trimmed.
pub fn key(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let folded: String = folded.nfkc().collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a name is (under [`key`]) one the server gives its computer players: `Computer`,
/// `Computer (strong)`, `Computer 2 (greedy)`: "computer", maybe a number, maybe a bracketed
/// word.
pub fn is_computers(name: &str) -> bool {
    let key = key(name);
    let Some(rest) = key.strip_prefix("computer") else {
        return false;
    };
    let rest = rest.trim_start();
    let rest = rest
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    rest.is_empty() || (rest.starts_with('(') && rest.ends_with(')'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(seat_name(None, || "P".into()).unwrap(), "P");
        assert_eq!(seat_name(Some("  "), || "P".into()).unwrap(), "P");
        assert_eq!(seat_name(Some(" Ada "), || "P".into()).unwrap(), "Ada");
        assert_eq!(
            seat_name(Some(&"x".repeat(33)), || "P".into()),
            Err(NameError::TooLong)
        );
        assert!(seat_name(Some("a\u{7}"), || "P".into()).is_err());
        // Text reordering and invisible characters are refused, saying which and where.
        let e = seat_name(Some("Ann\u{202E}"), || "P".into()).unwrap_err();
        assert!(e.to_string().contains("U+202E"), "{e}");
        assert!(e.to_string().contains("character 4"), "{e}");
        for bad in [
            "a\u{200B}b",
            "\u{FEFF}x",
            "a\u{2066}b",
            "\u{3164}",
            "a\u{E000}",
            "a\u{2028}b",
        ] {
            assert!(seat_name(Some(bad), || "P".into()).is_err(), "{bad:?}");
        }
        // An emoji is one character: 32 of them fit.
        let emoji = "\u{1F682}".repeat(32);
        assert_eq!(seat_name(Some(&emoji), || "P".into()).unwrap(), emoji);
        assert!(seat_name(Some("Zoë Ñandú 李"), || "P".into()).is_ok());
    }

    #[test]
    fn one_name_whatever_its_case_width_and_spacing() {
        assert_eq!(key("Ann"), "ann");
        assert_eq!(key("ANN"), key("ann"));
        assert_eq!(key("Ａｎｎ"), key("Ann"), "full width");
        assert_eq!(key("ﾃｽﾄ"), key("テスト"), "half-width katakana");
        assert_eq!(key("Ann  Lee"), key("ann lee"));
        assert_eq!(key("ﬁn"), key("fin"), "a ligature is its letters");
        assert_eq!(key("ÅSA"), key("åsa"));
        assert_ne!(key("Ann"), key("Anne"));
        assert_eq!(key("Zoë"), key("Zoe\u{308}"), "composed or not");
    }

    #[test]
    fn the_computers_names_are_theirs() {
        for name in [
            "Computer (strong)",
            "computer (greedy)",
            "COMPUTER",
            "Computer 2 (strong)",
            "Ｃｏｍｐｕｔｅｒ (strong)",
            "Computer  ( random )",
        ] {
            assert!(is_computers(name), "{name}");
            assert!(matches!(
                person_name(Some(name), String::new),
                Err(NameError::Computer(_))
            ));
        }
        for name in ["Computers", "Computer Club", "My computer (old)", "Comp"] {
            assert!(!is_computers(name), "{name}");
        }
        // A seat may still be given a computer's name (the server names its own that way).
        assert!(seat_name(Some("Computer 1"), String::new).is_ok());
    }
}
