//! The browser front-end, embedded at compile time (see `build.rs`).
//!
//! Pages of the single-page app (`/`, `/rules`, `/ink/{id}`, `/metro/{id}`, `/challenges`,
//! `/challenges/{id}`, `/players/{id}`) get `index.html`, in the copy for their kind of page,
//! which preloads that page's modules besides the app's. Every file comes precompressed (brotli
//! or gzip, whichever the browser accepts, chosen by `Accept-Encoding`). A file asked for by its
//! content-hashed name (`/js/app.0123456789abcdef.js`, the names the pages use) is cached for a
//! year as immutable: a new version has a new name. The pages, and files asked for by their
//! plain names, carry an ETag and are revalidated (`304 Not Modified` when unchanged).

use std::io::Write as _;
use std::sync::LazyLock;

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// One encoding of a file: its bytes and their ETag.
pub struct Encoded {
    pub body: &'static [u8],
    pub etag: &'static str,
}

/// A file of `web/`.
pub struct Asset {
    /// Its plain path (`/js/app.js`).
    pub path: &'static str,
    /// Its content-hashed path (`/js/app.0123456789abcdef.js`); none for HTML pages.
    pub hashed: Option<&'static str>,
    pub mime: &'static str,
    pub identity: Encoded,
    pub br: Option<Encoded>,
    pub gzip: Option<Encoded>,
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The content security policy of the pages: everything from this server only, and the one
/// inline script, the import map, by its hash; WebAssembly may be compiled (the engines in the
/// page, from this server too).
static CSP: LazyLock<HeaderValue> = LazyLock::new(|| {
    HeaderValue::from_str(&format!(
        "default-src 'self'; img-src 'self' data:; style-src 'self'; \
         script-src 'self' '{IMPORT_MAP_SHA256}' 'wasm-unsafe-eval'; connect-src 'self'; frame-ancestors 'none'; \
         base-uri 'none'; form-action 'self'"
    ))
    .expect("a valid header")
});

/// How long a browser may keep a file asked for by its hashed name: a year, unasked.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The file at `path`, and whether `path` is its hashed name.
fn find(path: &str) -> Option<(&'static Asset, bool)> {
    ASSETS.iter().find_map(|a| {
        if a.path == path {
            Some((a, false))
        } else if a.hashed == Some(path) {
            Some((a, true))
        } else {
            None
        }
    })
}

/// The file at `path` (plain or hashed), for tests and pages.
pub fn asset(path: &str) -> Option<&'static Asset> {
    find(path).map(|(a, _)| a)
}

/// A content coding the server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    Brotli,
    Gzip,
    Identity,
}

/// The q-values (0 to 1) that an `Accept-Encoding` header gives brotli and gzip: a coding it
/// does not name gets the q-value of `*` if it names that, else 0 (not acceptable), and
/// `q=0` means not acceptable. No header at all: neither (only identity, which is always
/// sent when nothing else is acceptable).
fn accepted(header: Option<&str>) -> (f32, f32) {
    let (mut br, mut gzip, mut star) = (None::<f32>, None::<f32>, None::<f32>);
    for element in header.unwrap_or("").split(',') {
        let mut parts = element.split(';');
        let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        if coding.is_empty() {
            continue;
        }
        let mut q = 1.0;
        for param in parts {
            if let Some((name, value)) = param.split_once('=')
                && name.trim().eq_ignore_ascii_case("q")
            {
                q = value
                    .trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|q| q.is_finite())
                    .map_or(0.0, |q| q.clamp(0.0, 1.0));
            }
        }
        let slot = match coding.as_str() {
            "br" => &mut br,
            "gzip" | "x-gzip" => &mut gzip,
            "*" => &mut star,
            _ => continue,
        };
        *slot = Some(slot.map_or(q, |old| old.max(q)));
    }
    let or_star = |q: Option<f32>| q.or(star).unwrap_or(0.0);
    (or_star(br), or_star(gzip))
}

/// The coding to send, given the request's `Accept-Encoding` and the encodings at hand: the
/// acceptable one with the highest q-value, brotli before gzip when equal, else identity.
pub fn choose(accept_encoding: Option<&str>, has_br: bool, has_gzip: bool) -> Coding {
    let (br, gzip) = accepted(accept_encoding);
    let br = if has_br { br } else { 0.0 };
    let gzip = if has_gzip { gzip } else { 0.0 };
    if br > 0.0 && br >= gzip {
        Coding::Brotli
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// The request's `Accept-Encoding` (several headers are one list).
fn accept_encoding(headers: &HeaderMap) -> Option<String> {
    let values: Vec<&str> = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    (!values.is_empty()).then(|| values.join(","))
}

/// Whether `If-None-Match` names `etag` (weakly compared, as it should be for this header).
pub(super) fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

/// The kind of page of the app a path shows (served as `index.html`, preloading that page's
/// modules: see `SITE_PAGES` in `build.rs` and each game's `web/js/{game}/pages.js`), or none for
/// a path that is not a page.
fn page_kind(path: &str) -> Option<&'static str> {
    match path {
        "/" | "/new" => return Some("start"),
        "/games" => return Some("games"),
        "/challenges" => return Some("challenges"),
        _ => {}
    }
    if let Some(&(_, kind)) = GAME_PAGES
        .iter()
        .find(|(pattern, _)| matches(pattern, path))
    {
        return Some(kind);
    }
    let one = |rest: &str| !rest.is_empty() && !rest.contains('/');
    [("/challenges/", "challenge"), ("/players/", "player")]
        .into_iter()
        .find(|(prefix, _)| path.strip_prefix(prefix).is_some_and(one))
        .map(|(_, kind)| kind)
}

/// Whether `path` is one of a declared page's paths: its segments the pattern's, where `{id}`
/// stands for any one non-empty segment.
fn matches(pattern: &str, path: &str) -> bool {
    let (mut want, mut got) = (pattern.split('/'), path.split('/'));
    loop {
        match (want.next(), got.next()) {
            (None, None) => return true,
            (Some(w), Some(g)) if w.starts_with('{') && w.ends_with('}') => {
                if g.is_empty() {
                    return false;
                }
            }
            (Some(w), Some(g)) if w == g => {}
            _ => return false,
        }
    }
}

/// The app's page for a kind of page (`/index.html` itself for a kind it does not know).
fn page(kind: &str) -> Option<&'static Asset> {
    PAGES
        .iter()
        .find(|p| p.path == kind)
        .or_else(|| asset("/index.html"))
}

/// The app's page (`index.html`, for a `kind` of page) with `head` (tags, already escaped) in
/// place of its title:
/// a page whose link previews say what it is (see `crate::preview`). Not cached, since what it
/// says changes; gzipped here when the browser accepts it.
pub fn page_with_head(kind: &str, head: &str, headers: &HeaderMap) -> Response {
    let Some(index) = page(kind) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let html = String::from_utf8_lossy(index.identity.body);
    let html = match (html.find("<title>"), html.find("</title>")) {
        (Some(start), Some(end)) => format!(
            "{}{head}{}",
            &html[..start],
            &html[end + "</title>".len()..]
        ),
        _ => html.into_owned(),
    };
    let gzipped = match choose(accept_encoding(headers).as_deref(), false, true) {
        Coding::Gzip => {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder
                .write_all(html.as_bytes())
                .and_then(|()| encoder.finish())
                .ok()
        }
        _ => None,
    };
    let mut response = match gzipped {
        Some(body) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(index.mime)),
                (header::CONTENT_ENCODING, HeaderValue::from_static("gzip")),
            ],
            body,
        )
            .into_response(),
        None => (
            [(header::CONTENT_TYPE, HeaderValue::from_static(index.mime))],
            html,
        )
            .into_response(),
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(header::CONTENT_SECURITY_POLICY, CSP.clone());
    response
}

/// Serves files and pages; everything else is a 404 (JSON under `/api/`).
pub async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::NotFound(format!("no API endpoint {method} {path}")).into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }
    let found = match page_kind(path) {
        Some(kind) => page(kind).map(|p| (p, false)),
        None => find(path),
    };
    let Some((asset, immutable)) = found else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "Not found. The game is at /\n",
        )
            .into_response();
    };
    let (encoded, coding) = match choose(
        accept_encoding(&headers).as_deref(),
        asset.br.is_some(),
        asset.gzip.is_some(),
    ) {
        Coding::Brotli => (asset.br.as_ref().expect("chosen"), Some("br")),
        Coding::Gzip => (asset.gzip.as_ref().expect("chosen"), Some("gzip")),
        Coding::Identity => (&asset.identity, None),
    };
    let mut response = if not_modified(&headers, encoded.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = (
            [(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime))],
            encoded.body,
        )
            .into_response();
        if let Some(coding) = coding {
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        response
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, HeaderValue::from_static(encoded.etag));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if immutable { IMMUTABLE } else { "no-cache" }),
    );
    if asset.br.is_some() || asset.gzip.is_some() {
        h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    if asset.mime.starts_with("text/html") {
        h.insert(header::CONTENT_SECURITY_POLICY, CSP.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_page(path: &str) -> bool {
        page_kind(path).is_some()
    }

    #[test]
    fn pages() {
        let pages = [
            "/",
            "/rules",
            "/view/ink",
            "/tutorial/ink",
            "/tutorial/metro",
            "/games",
            "/ink/0123456789abcdef01234567/replay",
            "/ink/0123456789abcdef01234567",
            "/metro/0123456789abcdef01234567",
            "/challenges",
            "/challenges/daily-2026-11-26",
            "/challenges/friend-0123456789abcdef01234567",
            "/players/0123456789abcdef01234567",
        ];
        for path in pages {
            assert!(is_page(path), "{path} is a page");
        }
        let not_pages = [
            "/tutorial/x",
            "/ink/0123456789abcdef01234567/replay/x",
            "/metro/",
            "/ink/",
            "/ink/a/b",
            "/js/app.js",
            "/challenges/",
            "/players/",
            "/challenges/daily-2026-11-26/replay",
            "/players/a/b",
            "/ink/a/replay/",
            "/ink//replay",
        ];
        for path in not_pages {
            assert!(!is_page(path), "{path} is not a page");
        }
        assert_eq!(page_kind("/ink/replay"), Some("ink-game"));
        assert_eq!(page_kind("/ink/0123/replay"), Some("ink-replay"));
        assert_eq!(page_kind("/ink/0123/review"), Some("ink-review"));
        assert_eq!(page_kind("/ink/0123/review/x"), None);
        assert_eq!(page_kind("/metro/0123/review"), Some("metro-review"));
        assert_eq!(page_kind("/metro/0123"), Some("metro-game"));
        assert_eq!(page_kind("/challenges/daily-2026-11-26"), Some("challenge"));
    }

    #[test]
    fn a_declared_path_matches_segment_by_segment() {
        assert!(matches("/ink/{id}", "/ink/0123"));
        assert!(matches("/ink/{id}/replay", "/ink/0123/replay"));
        assert!(matches("/view", "/view"));
        assert!(!matches("/ink/{id}", "/ink/"));
        assert!(!matches("/ink/{id}", "/ink/0123/replay"));
        assert!(!matches("/ink/{id}/replay", "/ink//replay"));
        assert!(!matches("/ink/{id}/replay", "/ink/0123/replay/"));
        assert!(!matches("/view", "/view/x"));
        assert!(!matches("/view/ink", "/view"));
    }

    #[test]
    fn every_game_declares_its_six_screens() {
        for game in ["ink", "metro"] {
            for screen in ["game", "replay", "review", "viewer", "rules", "tutorial"] {
                let kind = format!("{game}-{screen}");
                assert!(
                    GAME_PAGES.iter().any(|(_, k)| *k == kind),
                    "{kind} has a path"
                );
                assert!(PAGES.iter().any(|p| p.path == kind), "{kind} has a page");
            }
        }
    }

    #[test]
    fn every_kind_of_page_has_its_page_preloading_its_modules() {
        let paths = [
            "/",
            "/new",
            "/rules",
            "/rules/metro",
            "/view",
            "/view/ink",
            "/view/metro",
            "/tutorial/ink",
            "/tutorial/metro",
            "/games",
            "/challenges",
            "/ink/0a",
            "/ink/0a/replay",
            "/metro/0a",
            "/metro/0a/replay",
            "/challenges/daily-2026-11-26",
            "/players/0a",
        ];
        let preloads = |asset: &Asset| -> Vec<String> {
            let html = std::str::from_utf8(asset.identity.body).unwrap();
            html.split("<link rel=\"modulepreload\" href=\"")
                .skip(1)
                .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
                .collect()
        };
        let shell = preloads(asset("/index.html").unwrap());
        let hashed = |plain: &str| asset(plain).unwrap().hashed.unwrap();
        for path in paths {
            let kind = page_kind(path).unwrap();
            let page = PAGES.iter().find(|p| p.path == kind).expect(kind);
            let mine = preloads(page);
            assert!(
                shell.iter().all(|m| mine.contains(m)),
                "{kind}: the app's modules"
            );
            assert!(mine.len() > shell.len(), "{kind}: its own modules too");
            assert!(page.br.is_some() && page.gzip.is_some());
        }
        let start = preloads(PAGES.iter().find(|p| p.path == "start").unwrap());
        assert!(start.iter().any(|m| m == hashed("/js/pages/start.js")));
        assert!(
            !start.iter().any(|m| m == hashed("/js/ink/game.js")),
            "no game on the start page"
        );
        let game = preloads(PAGES.iter().find(|p| p.path == "ink-game").unwrap());
        assert!(game.iter().any(|m| m == hashed("/js/ink/game.js")));
        assert!(!game.iter().any(|m| m == hashed("/js/metro/game.js")));
    }

    #[test]
    fn the_front_end_is_embedded() {
        let index = asset("/index.html").expect("web/index.html is embedded");
        assert!(index.mime.starts_with("text/html"));
        assert!(index.hashed.is_none(), "pages keep their names");
        let html = std::str::from_utf8(index.identity.body).unwrap();
        assert!(html.contains("<script type=\"importmap\">"));
        assert!(html.contains("<link rel=\"modulepreload\""));
        for asset in ASSETS {
            assert!(asset.path.starts_with('/'));
            assert!(!asset.identity.body.is_empty(), "{} is empty", asset.path);
            if let Some(hashed) = asset.hashed {
                assert_eq!(
                    find(hashed).map(|(a, immutable)| (a.path, immutable)),
                    Some((asset.path, true))
                );
            }
        }
        let app = asset("/js/app.js").expect("the app's module");
        assert!(
            app.br.is_some() && app.gzip.is_some(),
            "modules are compressed"
        );
    }

    #[test]
    fn codings_by_accept_encoding() {
        use Coding::*;
        let pick = |h: Option<&str>| choose(h, true, true);
        assert_eq!(pick(None), Identity);
        assert_eq!(pick(Some("")), Identity);
        assert_eq!(pick(Some("gzip, deflate, br, zstd")), Brotli);
        assert_eq!(pick(Some("gzip")), Gzip);
        assert_eq!(pick(Some("x-gzip")), Gzip);
        assert_eq!(pick(Some("BR")), Brotli);
        assert_eq!(pick(Some("identity")), Identity);
        assert_eq!(pick(Some("br;q=0, gzip")), Gzip);
        assert_eq!(pick(Some("br;q=0.000, gzip;q=0")), Identity);
        assert_eq!(pick(Some("br;q=0.5, gzip;q=0.8")), Gzip);
        assert_eq!(pick(Some("br;q=0.8, gzip;q=0.8")), Brotli);
        assert_eq!(pick(Some("gzip; Q=0.2 , br ; q=0.3")), Brotli);
        assert_eq!(pick(Some("*")), Brotli);
        assert_eq!(pick(Some("*;q=0")), Identity);
        assert_eq!(pick(Some("br;q=0, *")), Gzip);
        assert_eq!(pick(Some("gzip;q=nonsense")), Identity);
        assert_eq!(pick(Some("deflate, compress")), Identity);
        assert_eq!(choose(Some("br, gzip"), false, true), Gzip);
        assert_eq!(choose(Some("br"), false, true), Identity);
        assert_eq!(choose(Some("br, gzip"), false, false), Identity);
    }
}
