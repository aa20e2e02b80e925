//! A challenge's link preview: the Open Graph tags of its page and the picture they point at,
//! a PNG drawn from an SVG made here (rendered by `resvg`, with a font embedded in the
//! binary, so it looks the same on every machine). It says the challenge, how many play it, the
//! best score and the computer's, and never shows a board: nothing of the dice.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::error::ApiError;

/// The picture's size, as link previews want it.
pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

/// DejaVu Sans Bold (its licence: `assets/fonts/LICENSE-DejaVu.txt`).
const FONT: &[u8] = include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf");

/// What a preview says of a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// `Daily Railroad Ink`.
    pub heading: String,
    /// `27 November 2026`.
    pub when: String,
    pub players: i64,
    pub best: Option<i64>,
    pub computer: Option<i64>,
    pub closed: bool,
    /// `ink` or `metro`: the accent colour.
    pub game: String,
}

impl Card {
    /// One line of what it says, for the page's description.
    pub fn description(&self) -> String {
        let players = match self.players {
            1 => "1 player".to_owned(),
            n => format!("{n} players"),
        };
        let best = self
            .best
            .map_or_else(|| "no scores yet".to_owned(), |b| format!("best {b}"));
        let computer = self
            .computer
            .map(|c| format!(", the computer {c}"))
            .unwrap_or_default();
        let state = if self.closed {
            "Closed"
        } else {
            "Everyone plays the same dice, one try each"
        };
        format!("{state}: {players}, {best}{computer}.")
    }
}

/// XML's five escapes, for text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The card as SVG.
pub fn svg(card: &Card) -> String {
    let accent = if card.game == "metro" {
        "#e4572e"
    } else {
        "#3a7bd5"
    };
    let best = card.best.map_or_else(|| "–".to_owned(), |b| b.to_string());
    let computer = card
        .computer
        .map_or_else(|| "–".to_owned(), |c| c.to_string());
    let status = if card.closed {
        "closed"
    } else {
        "open: one try each"
    };
    let stat = |x: u32, value: &str, label: &str| {
        format!(
            r##"<text x="{x}" y="430" font-size="96" fill="#ffffff">{}</text><text x="{x}" y="478" font-size="30" fill="#b9c6d8">{}</text>"##,
            escape(value),
            escape(label)
        )
    };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans">
<rect width="{WIDTH}" height="{HEIGHT}" fill="#1d3557"/>
<rect width="{WIDTH}" height="14" fill="{accent}"/>
<text x="70" y="130" font-size="64" fill="#ffffff"{fit}>{heading}</text>
<text x="70" y="195" font-size="38" fill="#d7e1ee">{when} · {status}</text>
{players}{best}{computer}
<text x="70" y="585" font-size="34" fill="#ffffff">tracklayer</text>
<rect x="{bar_x}" y="560" width="260" height="30" rx="15" fill="{accent}"/>
</svg>"##,
        heading = escape(&card.heading),
        // A long heading (a friend's long name) is squeezed into the width, never cut.
        fit = if card.heading.chars().count() > 28 {
            format!(
                r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                WIDTH - 140
            )
        } else {
            String::new()
        },
        when = escape(&card.when),
        players = stat(70, &card.players.to_string(), "players"),
        best = stat(450, &best, "best score"),
        computer = stat(830, &computer, "the computer"),
        bar_x = WIDTH - 70 - 260,
    )
}

fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT.to_vec());
        usvg::Options {
            font_family: "DejaVu Sans".into(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// The card as a PNG (CPU work: a few milliseconds; call it off the async threads).
pub fn png(card: &Card) -> Result<Vec<u8>, ApiError> {
    let tree = usvg::Tree::from_str(&svg(card), options())
        .map_err(|e| ApiError::Internal(format!("the preview's SVG: {e}")))?;
    let mut pixmap = tiny_skia::Pixmap::new(WIDTH, HEIGHT)
        .ok_or_else(|| ApiError::Internal("no pixmap for the preview".into()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| ApiError::Internal(format!("the preview's PNG: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        Card {
            heading: "Ann <& co>'s Railroad Ink challenge".into(),
            when: "27 November 2026".into(),
            players: 120,
            best: Some(61),
            computer: None,
            closed: false,
            game: "ink".into(),
        }
    }

    #[test]
    fn the_svg_escapes_what_it_is_told_and_renders() {
        let svg = svg(&card());
        assert!(svg.contains("Ann &lt;&amp; co&gt;&#39;s"), "{svg}");
        let png = png(&card()).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        // The text was drawn: more than the two background colours.
        let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
        let mut colours: Vec<_> = decoded
            .pixels()
            .iter()
            .map(|p| (p.red(), p.green(), p.blue()))
            .collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(colours.len() > 20, "only {} colours", colours.len());
    }

    #[test]
    fn the_description_says_the_numbers() {
        assert_eq!(
            card().description(),
            "Everyone plays the same dice, one try each: 120 players, best 61."
        );
        let closed = Card {
            closed: true,
            players: 1,
            best: None,
            computer: Some(40),
            ..card()
        };
        assert_eq!(
            closed.description(),
            "Closed: 1 player, no scores yet, the computer 40."
        );
    }
}
