//! The one scale of the computer's reviews, for every game: a reviewed step (a Railroad Ink
//! round, a Metro decision) is labelled by the points it lost against the strong computer
//! player's choice, and nowhere else are these thresholds written down. Both engines' reviews
//! label with [`Label::of`], the server labels stored reviews again with it, and the page's
//! words (`web/js/core/review.js`) say the same.
//!
//! A label goes by the loss **as the page shows it**: rounded to a tenth of a point (from the
//! hundredths the API reports, half up), so that "10.0 lost" and its label can never disagree.
//!
//! | label | points lost, as shown |
//! |---|---|
//! | best | 0.0 |
//! | good | 0.1 to 1.0 |
//! | inaccuracy | 1.1 to 2.5 |
//! | mistake | 2.6 to 5.0 |
//! | blunder | more than 5.0 |
//!
//! ```
//! use review_scale::Label;
//! assert_eq!(Label::of(0.04), Label::Best);
//! assert_eq!(Label::of(2.5), Label::Inaccuracy);
//! assert_eq!(Label::of(9.97), Label::Blunder); // shown as 10.0
//! assert_eq!(review_scale::tenths_text(-13.14), "\u{2212}13.1");
//! ```
//!
//! It also writes numbers for people: a real minus sign (U+2212), never a hyphen, and one
//! decimal where the review shows values.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;

use serde::{Deserialize, Serialize};

/// The minus sign people read (U+2212), where a hyphen-minus would be ASCII.
pub const MINUS: char = '\u{2212}';

/// How a step compares with the strong computer player's choice, by the points it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Nothing lost, as shown (0.0): the computer's choice, or one valued as high.
    Best,
    /// At most [`Label::GOOD`] points lost.
    Good,
    /// At most [`Label::INACCURACY`] points lost.
    Inaccuracy,
    /// At most [`Label::MISTAKE`] points lost.
    Mistake,
    /// More than [`Label::MISTAKE`] points lost.
    Blunder,
}

impl Label {
    /// The labels, best first.
    pub const ALL: [Label; 5] = [
        Label::Best,
        Label::Good,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ];

    /// The most points lost, as shown, for `good`.
    pub const GOOD: f64 = 1.0;
    /// The most points lost, as shown, for `inaccuracy`.
    pub const INACCURACY: f64 = 2.5;
    /// The most points lost, as shown, for `mistake`; more is a `blunder`.
    pub const MISTAKE: f64 = 5.0;

    /// The most tenths of a point a step may lose and keep this label (`None`: no most).
    pub const fn most_tenths(self) -> Option<u32> {
        match self {
            Label::Best => Some(0),
            Label::Good => Some(10),
            Label::Inaccuracy => Some(25),
            Label::Mistake => Some(50),
            Label::Blunder => None,
        }
    }

    /// The label of a step that lost `loss` points (rounded to a tenth as shown; a loss below
    /// zero or not a number counts as none).
    pub fn of(loss: f64) -> Label {
        let t = tenths(loss);
        Label::ALL
            .into_iter()
            .find(|l| l.most_tenths().is_none_or(|most| t <= most))
            .unwrap_or(Label::Blunder)
    }

    /// The label's word, as the API and the page write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Points to the hundredth, as the review reports them (half away from zero).
pub fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A loss in tenths of a point, as shown: first to the hundredth the API reports, then half
/// up to the tenth. Below zero, or not a number: 0.
pub fn tenths(loss: f64) -> u32 {
    if loss.is_nan() || loss <= 0.0 {
        return 0;
    }
    let h = (loss * 100.0).round().min(f64::from(u32::MAX - 5)) as u32;
    (h + 5) / 10
}

/// `x` with one decimal as the page shows it (to the hundredth, then half up to the tenth), a
/// real minus sign before a value below zero: `"53.7"`, `"−13.1"`, `"0.0"`.
pub fn tenths_text(x: f64) -> String {
    if x.is_nan() {
        return "0.0".into();
    }
    let h = (x.abs() * 100.0).round() as u64;
    let t = (h + 5) / 10;
    let sign = if x < 0.0 && t > 0 { "\u{2212}" } else { "" };
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// A whole number of points with its sign, as a reason writes it: `"+8"`, `"−2"`, `"0"`.
pub fn signed(points: i64) -> String {
    match points {
        0 => "0".into(),
        p if p > 0 => format!("+{p}"),
        p => format!("{MINUS}{}", p.unsigned_abs()),
    }
}

/// Words joined as a list: `"B0"`, `"B0 and G3"`, `"A1, B0 and G3"`.
pub fn and_list<T: fmt::Display>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => {
            let head: Vec<String> = rest.iter().map(ToString::to_string).collect();
            format!("{} and {last}", head.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thresholds_go_by_the_loss_as_shown() {
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(0.04), Label::Best, "shown as 0.0");
        assert_eq!(Label::of(0.05), Label::Good, "shown as 0.1");
        assert_eq!(Label::of(1.0), Label::Good);
        assert_eq!(Label::of(1.04), Label::Good, "shown as 1.0");
        assert_eq!(Label::of(1.05), Label::Inaccuracy, "shown as 1.1");
        assert_eq!(Label::of(2.5), Label::Inaccuracy);
        assert_eq!(Label::of(2.55), Label::Mistake, "shown as 2.6");
        assert_eq!(Label::of(f64::from(2.55f32)), Label::Mistake, "an f32 loss");
        assert_eq!(Label::of(5.0), Label::Mistake);
        assert_eq!(Label::of(5.04), Label::Mistake, "shown as 5.0");
        assert_eq!(Label::of(5.05), Label::Blunder, "shown as 5.1");
        assert_eq!(Label::of(9.95), Label::Blunder, "shown as 10.0");
        assert_eq!(Label::of(10.0), Label::Blunder);
        assert_eq!(Label::of(-1.0), Label::Best);
        assert_eq!(Label::of(f64::NAN), Label::Best);
        assert_eq!(Label::of(f64::INFINITY), Label::Blunder);
        // Every label's most, and a tenth more, fall either side of it.
        for pair in Label::ALL.windows(2) {
            let most = f64::from(pair[0].most_tenths().unwrap()) / 10.0;
            assert_eq!(Label::of(most), pair[0]);
            assert_eq!(Label::of(most + 0.1), pair[1]);
        }
        assert_eq!(Label::GOOD, 1.0);
        assert_eq!(Label::Good.most_tenths(), Some((Label::GOOD * 10.0) as u32));
        assert_eq!(
            Label::Inaccuracy.most_tenths(),
            Some((Label::INACCURACY * 10.0) as u32)
        );
        assert_eq!(
            Label::Mistake.most_tenths(),
            Some((Label::MISTAKE * 10.0) as u32)
        );
    }

    #[test]
    fn labels_are_their_words() {
        assert_eq!(Label::Blunder.to_string(), "blunder");
        assert_eq!(
            serde_json::to_string(&Label::Inaccuracy).unwrap(),
            "\"inaccuracy\""
        );
        assert!(Label::Mistake > Label::Good);
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(tenths_text(53.66), "53.7");
        assert_eq!(tenths_text(-13.14), "\u{2212}13.1");
        assert_eq!(tenths_text(-0.01), "0.0", "no minus before a zero");
        assert_eq!(tenths_text(2.55), "2.6");
        assert_eq!(tenths_text(0.0), "0.0");
        assert_eq!(signed(8), "+8");
        assert_eq!(signed(-2), "\u{2212}2");
        assert_eq!(signed(0), "0");
        assert_eq!(and_list(&["B0"]), "B0");
        assert_eq!(and_list(&["B0", "G3"]), "B0 and G3");
        assert_eq!(and_list(&["A1", "B0", "G3"]), "A1, B0 and G3");
        assert_eq!(hundredths(1.005_1), 1.01);
    }
}
