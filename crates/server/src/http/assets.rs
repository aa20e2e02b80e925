//! The browser front-end, embedded at compile time (see `build.rs`).
//!
//! Pages of the single-page app (`/`, `/rules`, `/ink/{id}`, `/metro/{id}`, `/challenges`,
//! `/challenges/{id}`, `/players/{id}`) get `index.html`;
//! files get their bytes with an ETag, so a browser revalidates cheaply (`304 Not Modified`).

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

pub struct Asset {
    pub path: &'static str,
    pub body: &'static [u8],
    pub mime: &'static str,
    pub etag: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The content security policy of the pages: everything from this server only.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// Whether a path is a page of the app (served as `index.html`).
fn is_page(path: &str) -> bool {
    match path {
        "/" | "/rules" | "/rules/metro" | "/new" | "/view" | "/view/ink" | "/view/metro"
        | "/games" | "/challenges" | "/tutorial/ink" | "/tutorial/metro" => true,
        _ => {
            ["/ink/", "/metro/"].iter().any(|prefix| {
                path.strip_prefix(prefix).is_some_and(|rest| {
                    let id = rest.strip_suffix("/replay").unwrap_or(rest);
                    !id.is_empty() && !id.contains('/')
                })
            }) || ["/challenges/", "/players/"].iter().any(|prefix| {
                path.strip_prefix(prefix)
                    .is_some_and(|id| !id.is_empty() && !id.contains('/'))
            })
        }
    }
}

/// The app's page (`index.html`) with `head` (tags, already escaped) in place of its title:
/// a page whose link previews say what it is (see `crate::preview`). Not cached, since what it
/// says changes.
pub fn page_with_head(head: &str) -> Response {
    let Some(index) = find("/index.html") else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let html = String::from_utf8_lossy(index.body);
    let html = match (html.find("<title>"), html.find("</title>")) {
        (Some(start), Some(end)) => format!(
            "{}{head}{}",
            &html[..start],
            &html[end + "</title>".len()..]
        ),
        _ => html.into_owned(),
    };
    let mut response = (
        [(header::CONTENT_TYPE, HeaderValue::from_static(index.mime))],
        html,
    )
        .into_response();
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
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
    let asset = if is_page(path) {
        find("/index.html")
    } else {
        find(path)
    };
    let Some(asset) = asset else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "Not found. The game is at /\n",
        )
            .into_response();
    };
    let etag = HeaderValue::from_static(asset.etag);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == asset.etag.as_bytes());
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let body: &'static [u8] = if method == Method::HEAD {
            &[]
        } else {
            asset.body
        };
        (
            [(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime))],
            body,
        )
            .into_response()
    };
    let h = response.headers_mut();
    h.insert(header::ETAG, etag);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if asset.mime.starts_with("text/html") {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages() {
        assert!(is_page("/"));
        assert!(is_page("/rules"));
        assert!(is_page("/view/ink"));
        assert!(is_page("/tutorial/ink"));
        assert!(is_page("/tutorial/metro"));
        assert!(!is_page("/tutorial/x"));
        assert!(is_page("/games"));
        assert!(is_page("/ink/0123456789abcdef01234567/replay"));
        assert!(!is_page("/ink/0123456789abcdef01234567/replay/x"));
        assert!(is_page("/ink/0123456789abcdef01234567"));
        assert!(is_page("/metro/0123456789abcdef01234567"));
        assert!(!is_page("/metro/"));
        assert!(!is_page("/ink/"));
        assert!(!is_page("/ink/a/b"));
        assert!(!is_page("/js/app.js"));
        assert!(is_page("/challenges"));
        assert!(is_page("/challenges/daily-2026-11-26"));
        assert!(is_page("/challenges/friend-0123456789abcdef01234567"));
        assert!(is_page("/players/0123456789abcdef01234567"));
        assert!(!is_page("/challenges/"));
        assert!(!is_page("/players/"));
        assert!(!is_page("/challenges/daily-2026-11-26/replay"));
        assert!(!is_page("/players/a/b"));
    }

    #[test]
    fn the_front_end_is_embedded() {
        let index = find("/index.html").expect("web/index.html is embedded");
        assert!(index.mime.starts_with("text/html"));
        assert!(std::str::from_utf8(index.body).unwrap().contains("<script"));
        for asset in ASSETS {
            assert!(asset.path.starts_with('/'));
            assert!(!asset.body.is_empty(), "{} is empty", asset.path);
        }
    }
}
