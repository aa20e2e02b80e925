//! A challenge's link preview: the Open Graph tags of its page and the picture they point at,
//! a PNG drawn from an SVG made here (rendered by `resvg`, with a font embedded in the
//! binary, so it looks the same on every machine). It says the challenge, how many play it, the
//! best score and the computer's, and never shows a board: nothing of the dice.
//!
//! Drawing one takes 15 to 30 ms of CPU, so the last picture of each challenge is kept
//! ([`Pictures`]) until what it shows changes, and its tag (a hash of what it shows) is its
//! `ETag`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use resvg::{tiny_skia, usvg};
use sha2::{Digest, Sha256};

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
        players = stat(
            70,
            &card.players.to_string(),
            if card.players == 1 {
                "player"
            } else {
                "players"
            }
        ),
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

/// A card's SVG (made by [`svg`]) as a PNG (CPU work: 15 to 30 ms; call it off the async
/// threads).
fn png(svg: &str) -> Result<Vec<u8>, ApiError> {
    let tree = usvg::Tree::from_str(svg, options())
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

/// A card to draw: its SVG, and its tag.
pub struct Drawing {
    svg: String,
    /// A strong `ETag` (quoted): a hash of the SVG, so it changes with anything the picture
    /// shows (and with the way it is drawn).
    pub tag: String,
}

impl Drawing {
    pub fn of(card: &Card) -> Drawing {
        let svg = svg(card);
        let hash = Sha256::digest(svg.as_bytes());
        let hex: String = hash[..12].iter().map(|b| format!("{b:02x}")).collect();
        Drawing {
            svg,
            tag: format!("\"{hex}\""),
        }
    }
}

/// How many challenges' pictures are kept (a picture is about 30 KB: some 8 MB in all).
pub const KEPT: usize = 256;

/// The last picture drawn of each challenge, for [`KEPT`] challenges at most (the one asked for
/// least recently is forgotten first), and how many were drawn.
#[derive(Default)]
pub struct Pictures {
    kept: Mutex<Kept>,
    /// One picture is drawn at a time: two requests for the same missing picture draw it once,
    /// and pictures never take more than a core.
    drawing: tokio::sync::Mutex<()>,
    drawn: AtomicU64,
}

#[derive(Default)]
struct Kept {
    by_challenge: HashMap<String, Entry>,
    /// Counts every use, to know which was used last.
    uses: u64,
}

/// One challenge's picture.
struct Entry {
    tag: String,
    png: Bytes,
    used: u64,
}

impl Pictures {
    /// The PNG of challenge `id`'s `drawing`: the one kept if it shows the same, else drawn
    /// now (and kept in place of the one before).
    pub async fn png(&self, id: &str, drawing: Drawing) -> Result<Bytes, ApiError> {
        if let Some(png) = self.kept(id, &drawing.tag) {
            return Ok(png);
        }
        let _turn = self.drawing.lock().await;
        // Drawn while this request waited for its turn?
        if let Some(png) = self.kept(id, &drawing.tag) {
            return Ok(png);
        }
        let Drawing { svg, tag } = drawing;
        let png = tokio::task::spawn_blocking(move || png(&svg))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
        let png = Bytes::from(png);
        self.drawn.fetch_add(1, Ordering::Relaxed);
        self.keep(id, tag, png.clone());
        Ok(png)
    }

    /// Pictures drawn so far (tests count them).
    pub fn drawn(&self) -> u64 {
        self.drawn.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn kept(&self, id: &str, tag: &str) -> Option<Bytes> {
        let mut kept = self.lock();
        kept.uses += 1;
        let now = kept.uses;
        let entry = kept.by_challenge.get_mut(id).filter(|e| e.tag == tag)?;
        entry.used = now;
        Some(entry.png.clone())
    }

    fn keep(&self, id: &str, tag: String, png: Bytes) {
        let mut kept = self.lock();
        kept.uses += 1;
        let used = kept.uses;
        if !kept.by_challenge.contains_key(id) && kept.by_challenge.len() >= KEPT {
            let oldest = kept
                .by_challenge
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                kept.by_challenge.remove(&oldest);
            }
        }
        kept.by_challenge
            .insert(id.to_owned(), Entry { tag, png, used });
    }
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
        let png = png(&svg).unwrap();
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

    #[tokio::test]
    async fn a_picture_is_drawn_once_until_what_it_shows_changes() {
        let pictures = Pictures::default();
        let one = Drawing::of(&card());
        let tag = one.tag.clone();
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() == 26,
            "{tag}"
        );
        let png = pictures.png("daily-x", one).await.unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let again = pictures.png("daily-x", Drawing::of(&card())).await.unwrap();
        assert_eq!((pictures.drawn(), &again), (1, &png));
        let more = Card {
            players: 121,
            ..card()
        };
        let changed = Drawing::of(&more);
        assert_ne!(changed.tag, tag);
        pictures.png("daily-x", changed).await.unwrap();
        assert_eq!(pictures.drawn(), 2);
        // Another challenge showing the same has a picture of its own.
        pictures.png("daily-y", Drawing::of(&more)).await.unwrap();
        assert_eq!(pictures.drawn(), 3);
    }

    #[test]
    fn at_most_kept_pictures_are_kept_the_least_recently_used_forgotten() {
        let pictures = Pictures::default();
        let png = Bytes::from_static(b"png");
        for i in 0..KEPT {
            pictures.keep(&format!("c{i}"), "t".into(), png.clone());
        }
        // c0 is used again: c1 is now the one used least recently.
        assert!(pictures.kept("c0", "t").is_some());
        assert!(pictures.kept("c0", "other").is_none(), "another tag");
        pictures.keep("new", "t".into(), png.clone());
        assert_eq!(pictures.lock().by_challenge.len(), KEPT);
        assert!(pictures.kept("c1", "t").is_none());
        assert!(pictures.kept("c0", "t").is_some());
        assert!(pictures.kept("new", "t").is_some());
        // A new picture of a kept challenge takes its place.
        pictures.keep("c2", "t2".into(), png);
        assert_eq!(pictures.lock().by_challenge.len(), KEPT);
        assert!(pictures.kept("c2", "t").is_none());
        assert!(pictures.kept("c2", "t2").is_some());
    }

    #[test]
    fn one_player_is_one_player_in_the_picture_too() {
        let one = Card {
            players: 1,
            ..card()
        };
        let svg = svg(&one);
        assert!(
            svg.contains(">1</text>") && svg.contains(">player</text>"),
            "{svg}"
        );
        assert!(!svg.contains(">players</text>"), "{svg}");
        for n in [0, 2, 120] {
            let many = svg_of_players(n);
            assert!(many.contains(">players</text>"), "{n}: {many}");
        }
    }

    fn svg_of_players(players: i64) -> String {
        svg(&Card { players, ..card() })
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
