//! Names of people: what a name may hold, when two names are the same name, and the names
//! the computers go by (which no person may take).
//!
//! A leaf module: it knows nothing of storage or HTTP, so both can use it.

use thiserror::Error;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{EmojiStatus, GeneralCategory as G, UnicodeEmoji, UnicodeGeneralCategory};

/// The longest name, in characters (Unicode scalar values: an emoji is one).
pub const MAX_NAME: usize = 32;

/// Why a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    #[error("a name has at most {MAX_NAME} characters")]
    TooLong,
    #[error("a name needs a character that shows: this one has only invisible or blank ones")]
    Blank,
    #[error("a name may not hold U+{code:04X}, {why} (character {at} of the name)")]
    Unfit {
        code: u32,
        why: &'static str,
        /// 1-based.
        at: usize,
    },
    #[error("{0:?} is what the computer players are called: choose another name")]
    Computer(String),
    #[error(
        "this name reads as an insult or a slur, which other players would see: choose another name"
    )]
    Offensive,
}

/// Whether a name reads as a slur or an insult (the
/// `rustrict` crate's analysis of its letters, digits and spaces, compatibility-normalised:
/// evasions such as spacing, repeated letters, look-alike and full-width characters and accents
/// understood). Profanity and sexual words are not refused: too many names read as them
/// ("Dick", "Cummings"); nor are emoji and symbols, which the analysis takes for a self-censored
/// word.
pub fn is_offensive(name: &str) -> bool {
    use rustrict::{CensorStr, Type};
    let text: String = (name.nfkc())
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    text.is(Type::OFFENSIVE & Type::MODERATE_OR_HIGHER | Type::MEAN & Type::SEVERE)
}

/// Whether a character is default-ignorable (Unicode's Default_Ignorable_Code_Point: drawn as
/// nothing where it is not understood): variation selectors, zero-width characters, bidi
/// controls, tag characters, Hangul fillers. Asked of the confusables' skeleton, which leaves
/// out exactly those (a character of any other kind has a prototype of its own).
fn ignorable(c: char) -> bool {
    let mut utf8 = [0; 4];
    unicode_security::skeleton(c.encode_utf8(&mut utf8))
        .next()
        .is_none()
}

/// Whether a character draws nothing though it is neither white space nor default-ignorable:
/// U+2800 BRAILLE PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD.
fn blank(c: char) -> bool {
    matches!(c, '\u{2800}' | '\u{1D159}')
}

/// Whether a character is a skin-tone modifier (U+1F3FB to U+1F3FF).
fn skin_tone(c: char) -> bool {
    c.emoji_status() == EmojiStatus::EmojiPresentationAndModifierAndEmojiComponent
}

/// Whether a character is a pictograph, what emoji sequences join: an emoji that is not a
/// digit, `#`, `*`, a regional indicator or a skin-tone modifier (near Unicode's
/// Extended_Pictographic, which no crate here gives).
fn pictographic(c: char) -> bool {
    c.is_emoji_char()
        && !c.is_ascii()
        && !unicode_properties::emoji::is_regional_indicator(c)
        && !skin_tone(c)
}

/// Whether a tag character is in an emoji tag sequence (a flag such as Scotland's): U+1F3F4,
/// then tags, ending with U+E007F CANCEL TAG.
fn in_tag_sequence(name: &[char], i: usize) -> bool {
    let tag = |c: char| unicode_properties::emoji::is_tag_character(c);
    let first = (0..=i)
        .rev()
        .take_while(|&j| tag(name[j]))
        .last()
        .unwrap_or(i);
    let last = (i..name.len())
        .take_while(|&j| tag(name[j]))
        .last()
        .unwrap_or(i);
    first > 0
        && name[first - 1] == '\u{1F3F4}'
        && last > first
        && name[last] == '\u{E007F}'
        && !name[first..last].contains(&'\u{E007F}')
}

/// Whether the default-ignorable character at `i` has its place in an emoji sequence: a zero
/// width joiner between two pictographs (the first maybe with its selector or skin tone), a
/// presentation selector (U+FE0E, U+FE0F) after a pictograph or a keycap's digit, `#` or `*`,
/// a tag of a flag's tag sequence.
fn in_emoji(name: &[char], i: usize) -> bool {
    match name[i] {
        '\u{200D}' => {
            let mut end = i;
            if end > 0 && (name[end - 1] == '\u{FE0F}' || skin_tone(name[end - 1])) {
                end -= 1;
            }
            end > 0
                && pictographic(name[end - 1])
                && name.get(i + 1).is_some_and(|&c| pictographic(c))
        }
        '\u{FE0E}' | '\u{FE0F}' => {
            i > 0 && {
                let c = name[i - 1];
                pictographic(c) || matches!(c, '0'..='9' | '#' | '*')
            }
        }
        '\u{E0020}'..='\u{E007F}' => in_tag_sequence(name, i),
        _ => false,
    }
}

/// Why the character at `i` may not be in a name, if it may not: what cannot be seen (unless it
/// has its place in an emoji sequence, see [`in_emoji`]), or changes how the text around it
/// reads (a right-to-left override turns "placed cbcb at 05" around for everyone who reads it).
fn unfit(name: &[char], i: usize) -> Option<&'static str> {
    let c = name[i];
    let category = c.general_category();
    if ignorable(c) {
        if in_emoji(name, i) {
            return None;
        }
        return Some(match c {
            '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {
                "a variation selector that selects nothing here (one may follow an emoji only)"
            }
            '\u{200D}' => "a zero-width joiner outside an emoji sequence",
            '\u{E0020}'..='\u{E007F}' => "a tag character outside a flag's tag sequence",
            _ if category == G::Format => {
                "an invisible format character (bidi controls, zero-width characters, U+FEFF)"
            }
            _ => "an invisible character",
        });
    }
    if blank(c) {
        return Some("an invisible character");
    }
    match category {
        G::Control => Some("a control character"),
        G::Format => {
            Some("an invisible format character (bidi controls, zero-width characters, U+FEFF)")
        }
        G::LineSeparator | G::ParagraphSeparator => Some("a line or paragraph separator"),
        G::PrivateUse => Some("a private-use character"),
        G::Unassigned => Some("an unassigned character"),
        _ => None,
    }
}

/// A name from a request: trimmed, at most [`MAX_NAME`] characters, something that shows,
/// nothing invisible or that reorders text (see `unfit`); `default` when missing or blank.
pub fn seat_name(
    name: Option<&str>,
    default: impl FnOnce() -> String,
) -> Result<String, NameError> {
    let name = name.map(str::trim).unwrap_or("");
    if name.is_empty() {
        return Ok(default());
    }
    let chars: Vec<char> = name.chars().collect();
    if chars.len() > MAX_NAME {
        return Err(NameError::TooLong);
    }
    if chars
        .iter()
        .all(|&c| c.is_whitespace() || ignorable(c) || blank(c))
    {
        return Err(NameError::Blank);
    }
    if let Some((i, why)) = (0..chars.len()).find_map(|i| unfit(&chars, i).map(|why| (i, why))) {
        return Err(NameError::Unfit {
            code: chars[i] as u32,
            why,
            at: i + 1,
        });
    }
    Ok(name.to_owned())
}

/// A person's name: as [`seat_name`], and never one of the computers' (see [`is_computers`])
/// nor an insult. `default` (when none is asked) is the server's own and is not checked: the
/// analysis of insults holds some 18 MB once first asked.
pub fn person_name(
    name: Option<&str>,
    default: impl FnOnce() -> String,
) -> Result<String, NameError> {
    if name.is_none_or(|n| n.trim().is_empty()) {
        return Ok(default());
    }
    let name = seat_name(name, default)?;
    if is_computers(&name) {
        return Err(NameError::Computer(name));
    }
    if is_offensive(&name) {
        return Err(NameError::Offensive);
    }
    Ok(name)
}

/// The form under which two names are the same name: without its default-ignorable characters
/// (see `ignorable`), compatibility-normalised (NFKC: full-width `Ａｎｎ` is `Ann`, a ligature
/// is its letters), lower-cased, runs of white space made one space, trimmed; then its skeleton
/// (Unicode's confusables, UTS #39), so that names that look alike are one name: a Cyrillic
/// `А` is a Latin `A`, `rn` is `m`.
///
/// Stored players keep the key of their name: when this changes, a migration makes the keys
/// again (see `crate::name_keys`).
pub fn key(name: &str) -> String {
    let shown: String = name.chars().filter(|&c| !ignorable(c)).collect();
    let folded: String = shown.nfkc().flat_map(char::to_lowercase).collect();
    let folded: String = folded.nfkc().collect();
    let folded = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    unicode_security::skeleton(&folded).collect()
}

/// Whether a name is (under [`key`], so also when it only looks like one) one the server gives
/// its computer players: `Computer`, `Computer (strong)`, `Computer 2 (greedy)`: "computer",
/// maybe a number, maybe a bracketed word.
pub fn is_computers(name: &str) -> bool {
    let name = key(name);
    let Some(rest) = name.strip_prefix(key("computer").as_str()) else {
        return false;
    };
    // A digit's skeleton may be a letter (`0` is `O`, `1` is `l`): whatever looks like one.
    let digits = key("0123456789");
    let rest = rest
        .trim_start()
        .trim_start_matches(|c: char| digits.contains(c))
        .trim_start();
    rest.is_empty() || (rest.starts_with(&key("(")) && rest.ends_with(&key(")")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insults_are_refused_and_names_that_only_look_like_words_pass() {
        for bad in [
            "motherfucker",
            "m o t h e r f u c k e r",
            "Motherfuuuucker",
            "ｍｏｔｈｅｒｆｕｃｋｅｒ",
        ] {
            assert_eq!(
                person_name(Some(bad), || "P".into()),
                Err(NameError::Offensive),
                "{bad}"
            );
        }
        for fine in [
            "Ann",
            "Dick",
            "Cummings",
            "Scunthorpe",
            "Hitchcock",
            "Sussex",
            "Assunta",
            "Bob 2",
        ] {
            assert_eq!(
                person_name(Some(fine), || "P".into()).as_deref(),
                Ok(fine),
                "{fine}"
            );
        }
        // Nothing asked, or only blanks: the server's own name, as it is.
        for asked in [None, Some(""), Some("  ")] {
            assert_eq!(
                person_name(asked, || "Player 2".into()).as_deref(),
                Ok("Player 2")
            );
        }
        assert_eq!(
            person_name(Some("Computer"), || "P".into()),
            Err(NameError::Computer("Computer".into()))
        );
    }

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

    /// A name's answer, for the tests: `Ok(name)` or the error's words.
    fn checked(name: &str) -> Result<String, String> {
        person_name(Some(name), || "P".into()).map_err(|e| e.to_string())
    }

    #[test]
    fn invisible_characters_are_refused_saying_which_and_where() {
        for (name, code, at) in [
            ("Ann\u{FE0F}", "U+FE0F", 4),
            ("Ann\u{E0100}", "U+E0100", 4),
            ("Ann\u{17B4}", "U+17B4", 4),
            ("Ann\u{2800}", "U+2800", 4),
            ("A\u{FE0E}nn", "U+FE0E", 2),
            ("Ann\u{200D}Lee", "U+200D", 4),
            ("\u{1F600}\u{200D}", "U+200D", 2),
            ("Ann\u{E0067}\u{E007F}", "U+E0067", 4),
            ("\u{1F3F4}\u{E0067}", "U+E0067", 2),
            ("\u{1F3F4}\u{E007F}", "U+E007F", 2),
            ("Ann\u{1D159}", "U+1D159", 4),
            ("\u{1F1EC}\u{FE0F}", "U+FE0F", 2),
            ("Computer (strong)\u{FE0F}", "U+FE0F", 18),
        ] {
            let e = checked(name).unwrap_err();
            assert!(e.contains(code), "{name:?}: {e}");
            assert!(
                e.contains(&format!("character {at} of the name")),
                "{name:?}: {e}"
            );
        }
        assert!(
            checked("Ann\u{FE0F}")
                .unwrap_err()
                .contains("variation selector")
        );
    }

    #[test]
    fn a_name_that_shows_nothing_is_refused() {
        for name in [
            "\u{2800}",
            "\u{2800} \u{2800}",
            "\u{FE0F}",
            "\u{200B}",
            "\u{3164}",
            "\u{E0100}",
            "\u{115F}\u{1160}",
        ] {
            assert_eq!(
                seat_name(Some(name), || "P".into()),
                Err(NameError::Blank),
                "{name:?}"
            );
        }
        assert!(NameError::Blank.to_string().contains("name"));
    }

    #[test]
    fn emoji_sequences_are_names() {
        for name in [
            "\u{2764}\u{FE0F}",                                                    // ❤️
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",                         // 👨‍👩‍👧
            "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",                                  // 🏳️‍🌈
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",     // Scotland
            "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}",                                 // 👩🏽‍💻
            "\u{1F468}\u{200D}\u{1F9B0}",                                          // 👨‍🦰
            "\u{1F469}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}", // a kiss
            "\u{1F3F4}\u{200D}\u{2620}\u{FE0F}",                                   // 🏴‍☠️
            "1\u{FE0F}\u{20E3}",                                                   // 1️⃣
            "#\u{FE0F}\u{20E3} *\u{FE0F}\u{20E3}",                                 // #️⃣ *️⃣
            "\u{1F44B}\u{1F3FF}",                                                  // 👋🏿
            "\u{1F1EB}\u{1F1F7}",                                                  // 🇫🇷
            "Ann \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} \u{2615}\u{FE0E}",
        ] {
            assert_eq!(checked(name), Ok(name.to_owned()), "{name:?}");
        }
    }

    #[test]
    fn default_ignorable_is_unicodes_property() {
        for c in [
            '\u{AD}',
            '\u{34F}',
            '\u{115F}',
            '\u{17B4}',
            '\u{17B5}',
            '\u{180B}',
            '\u{200B}',
            '\u{200D}',
            '\u{200F}',
            '\u{202E}',
            '\u{2060}',
            '\u{3164}',
            '\u{FE00}',
            '\u{FE0F}',
            '\u{FEFF}',
            '\u{FFA0}',
            '\u{E0001}',
            '\u{E0020}',
            '\u{E007F}',
            '\u{E0100}',
            '\u{E01EF}',
        ] {
            assert!(ignorable(c), "U+{:04X}", c as u32);
        }
        for c in [
            'a',
            'А',
            ' ',
            '\u{2800}',
            '\u{1F600}',
            '\u{1F3FB}',
            '\u{20E3}',
            '\u{301}',
        ] {
            assert!(!ignorable(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn names_that_look_alike_are_one_name() {
        // A Cyrillic А is a letter like any other, but its name is Ann's.
        assert_eq!(checked("\u{410}nn"), Ok("\u{410}nn".to_owned()));
        let ann = key("Ann");
        // Beside "Ann": a Cyrillic А, and whatever invisible character was let in before.
        for name in [
            "\u{410}nn",
            "Ann\u{FE0F}",
            "Ann\u{E0100}",
            "Ann\u{17B4}",
            "A\u{200B}nn",
            "ＡＮＮ",
        ] {
            assert_eq!(key(name), ann, "{name:?}");
        }
        assert_eq!(key("rn"), key("m"));
        assert_eq!(key("Arnie"), key("Amie"));
        assert_eq!(
            key("paypal"),
            key("\u{440}\u{430}\u{443}\u{440}\u{430}l"),
            "Cyrillic р, а, у"
        );
        assert_eq!(key("Zoe"), key("Z\u{43E}e"), "Cyrillic о");
        assert_eq!(key("A1ex"), key("Alex"), "a digit one, a letter l");
        assert_eq!(
            key("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"),
            key("\u{1F468}\u{1F469}\u{1F467}"),
            "the same emoji, joined or not"
        );
        assert_eq!(key("\u{2764}\u{FE0F}"), key("\u{2764}"));
        assert_ne!(key("Ann"), key("Anna"));
        assert_ne!(key("Ann"), key("Bob"));
        assert_ne!(key("\u{1F600}"), key("\u{1F601}"));
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
            "Computer (str\u{43E}ng)",
            "C\u{43E}mputer (strong)",
            "Cornputer (strong)",
            "Computer l",
            "Computer l0 (random)",
        ] {
            assert!(is_computers(name), "{name}");
            assert!(matches!(
                person_name(Some(name), String::new),
                Err(NameError::Computer(_))
            ));
        }
        for name in [
            "Computers",
            "Computer Club",
            "My computer (old)",
            "Comp",
            "Computer lab",
        ] {
            assert!(!is_computers(name), "{name}");
        }
        // Behind an invisible character, still theirs (and refused for that character).
        for name in ["Computer (strong)\u{FE0F}", "Computer\u{200B} (strong)"] {
            assert!(is_computers(name), "{name:?}");
            assert!(matches!(
                person_name(Some(name), String::new),
                Err(NameError::Unfit { .. })
            ));
        }
        // A seat may still be given a computer's name (the server names its own that way).
        assert!(seat_name(Some("Computer 1"), String::new).is_ok());
    }
}
