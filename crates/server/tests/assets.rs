//! The front-end as a phone's browser gets it: precompressed (brotli or gzip, as the request's
//! `Accept-Encoding` allows; `Vary: Accept-Encoding`), files named by their content's hash
//! cached as immutable, the pages and plain names revalidated by ETag, and every file a page
//! names (its import map, its `modulepreload` links, its `href` and `src`) there.

mod common;

use std::io::Read as _;

use common::{Client, TestApp};
use http_body_util::BodyExt;
use hyper::StatusCode;
use hyper::body::{Bytes, Incoming};
use hyper::header::HeaderMap;
use sha2::{Digest, Sha256};

const CHROME: &str = "gzip, deflate, br, zstd";

async fn get(
    client: &mut Client,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, HeaderMap, Bytes) {
    let response: hyper::Response<Incoming> = client.send("GET", path, headers, Vec::new()).await;
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.expect("body").to_bytes();
    (parts.status, parts.headers, bytes)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().expect("ASCII header"))
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("valid brotli");
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

/// The values of `attr="…"` in `html` that start with `/`.
fn links(html: &str, attr: &str) -> Vec<String> {
    let needle = format!("{attr}=\"/");
    html.match_indices(&needle)
        .map(|(at, _)| {
            let rest = &html[at + needle.len() - 1..];
            rest[..rest.find('"').expect("closing quote")].to_owned()
        })
        .collect()
}

/// The page's import map: its text, and its (plain, hashed) pairs.
fn import_map(html: &str) -> (String, Vec<(String, String)>) {
    const OPEN: &str = "<script type=\"importmap\">";
    let start = html.find(OPEN).expect("an import map") + OPEN.len();
    let end = start + html[start..].find("</script>").expect("closed");
    let text = &html[start..end];
    let map: serde_json::Value = serde_json::from_str(text).expect("JSON");
    let pairs = map["imports"]
        .as_object()
        .expect("imports")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a URL").to_owned()))
        .collect();
    (text.to_owned(), pairs)
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    bytes
        .chunks(3)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
            (0..4).map(move |i| {
                if i <= chunk.len() {
                    ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char
                } else {
                    '='
                }
            })
        })
        .collect()
}

#[tokio::test]
async fn the_page_and_every_file_it_names_come_compressed_and_hashed_files_are_immutable() {
    let app = TestApp::start().await;
    let mut client = app.client().await;

    // The page: brotli for a browser, revalidated, its import map allowed by its policy.
    let (status, h, body) = get(&mut client, "/", &[("accept-encoding", CHROME)]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&h, "content-encoding"), Some("br"));
    assert_eq!(header(&h, "vary"), Some("Accept-Encoding"));
    assert_eq!(header(&h, "cache-control"), Some("no-cache"));
    let etag = header(&h, "etag").expect("an ETag").to_owned();
    let html = String::from_utf8(unbrotli(&body)).expect("UTF-8");
    let (_, plain_h, plain) = get(&mut client, "/", &[]).await;
    assert_eq!(header(&plain_h, "content-encoding"), None);
    assert_eq!(html.as_bytes(), &plain[..], "brotli decodes to the page");
    let (text, map) = import_map(&html);
    let csp = header(&h, "content-security-policy").expect("a policy");
    let hash = format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())));
    assert!(csp.contains(&hash), "{csp} allows the import map ({hash})");
    let (status, _, _) = get(
        &mut client,
        "/",
        &[("accept-encoding", CHROME), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);

    // Every module is in the import map, under a hashed name; the start page's are preloaded
    // (the app's and the start page's own, not every page's).
    assert!(map.len() >= 40, "{} modules", map.len());
    let preloads = links(&html, "href")
        .into_iter()
        .filter(|l| html.contains(&format!("<link rel=\"modulepreload\" href=\"{l}\">")))
        .collect::<Vec<_>>();
    assert!(preloads.len() >= 10, "{preloads:?}");
    assert!(
        preloads.len() + 1 < map.len(),
        "not every page's modules: {preloads:?}"
    );
    assert!(preloads.iter().any(|p| p.starts_with("/js/pages/start.")));
    assert!(!preloads.iter().any(|p| p.starts_with("/js/ink/game.")));
    for (plain, hashed) in &map {
        assert!(
            plain.starts_with("/js/") && plain.ends_with(".js"),
            "{plain}"
        );
        assert_ne!(plain, hashed);
        assert!(
            hashed.starts_with(plain.trim_end_matches(".js")),
            "{hashed}"
        );
    }
    let hashed: Vec<&String> = map.iter().map(|(_, h)| h).collect();
    for preload in &preloads {
        assert!(hashed.contains(&preload), "{preload} is in the import map");
    }
    let script = links(&html, "src");
    assert!(
        script
            .iter()
            .any(|s| s.starts_with("/js/app.") && s != "/js/app.js"),
        "{script:?}"
    );

    // Every file the page names: 200, brotli and gzip decode to the same bytes as identity,
    // immutable under its hashed name.
    let mut named: Vec<String> = links(&html, "href");
    named.extend(links(&html, "src"));
    named.extend(map.iter().map(|(_, h)| h.clone()));
    // Files, not the pages the navigation links to; the manifest keeps its own name (below).
    named.retain(|l| l.rsplit('/').next().is_some_and(|name| name.contains('.')));
    named.retain(|l| l != "/manifest.webmanifest");
    named.sort();
    named.dedup();
    assert!(named.iter().any(|l| l.starts_with("/css/app.")));
    // Pictures other than SVG are compressed already: sent as they are, immutable.
    let (pictures, named): (Vec<String>, Vec<String>) =
        named.into_iter().partition(|l| l.ends_with(".png"));
    assert!(
        pictures
            .iter()
            .any(|p| p.starts_with("/icons/apple-touch-icon.")),
        "{pictures:?}"
    );
    for path in &pictures {
        let (status, h, _) = get(&mut client, path, &[("accept-encoding", CHROME)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&h, "content-type"), Some("image/png"), "{path}");
        assert_eq!(header(&h, "content-encoding"), None, "{path}");
        assert_eq!(
            header(&h, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
    }
    for path in &named {
        let (status, h, identity) = get(&mut client, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&h, "content-encoding"), None, "{path}");
        assert_eq!(
            header(&h, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
        let (status, h, br) = get(&mut client, path, &[("accept-encoding", CHROME)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&h, "content-encoding"), Some("br"), "{path}");
        assert_eq!(header(&h, "vary"), Some("Accept-Encoding"), "{path}");
        assert_eq!(
            header(&h, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
        assert_eq!(unbrotli(&br), &identity[..], "{path}");
        assert!(br.len() < identity.len(), "{path} is smaller compressed");
        let (status, h, gz) = get(&mut client, path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&h, "content-encoding"), Some("gzip"), "{path}");
        assert_eq!(gunzip(&gz), &identity[..], "{path}");
    }
}

#[tokio::test]
async fn the_worker_and_the_manifest_keep_their_names_and_the_worker_keeps_every_hashed_file() {
    let app = TestApp::start().await;
    let mut client = app.client().await;
    let (_, _, page) = get(&mut client, "/", &[]).await;
    let html = String::from_utf8(page.to_vec()).expect("UTF-8");
    assert!(html.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"));
    let (_, map) = import_map(&html);

    for (path, mime) in [
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/sw.js", "text/javascript; charset=utf-8"),
    ] {
        let (status, h, _) = get(&mut client, path, &[("accept-encoding", CHROME)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&h, "content-type"), Some(mime), "{path}");
        assert_eq!(header(&h, "content-encoding"), Some("br"), "{path}");
        assert_eq!(header(&h, "cache-control"), Some("no-cache"), "{path}");
    }
    assert!(
        !map.iter().any(|(plain, _)| plain == "/sw.js"),
        "the worker is no module of the page"
    );

    let (_, _, worker) = get(&mut client, "/sw.js", &[]).await;
    let worker = String::from_utf8(worker.to_vec()).expect("UTF-8");
    assert!(
        !worker.contains("const VERSION = 'dev';"),
        "a version of its own"
    );
    let start = worker.find("const PRECACHE = [").expect("its list");
    let list = &worker[start..start + worker[start..].find("];").expect("closed")];
    let kept: Vec<&str> = list.split('\'').skip(1).step_by(2).collect();
    assert_eq!(kept.first(), Some(&"/"), "the app's page");
    for (_, hashed) in &map {
        assert!(kept.contains(&hashed.as_str()), "{hashed} is kept");
    }
    assert!(kept.iter().any(|k| k.starts_with("/css/app.")));
    assert!(kept.iter().any(|k| k.starts_with("/icons/icon-512.")));
    for path in kept.iter().skip(1) {
        let (status, h, _) = get(&mut client, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(
            header(&h, "cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{path} is a hashed file"
        );
    }
}

#[tokio::test]
async fn plain_names_still_work_revalidated_and_encodings_follow_accept_encoding() {
    let app = TestApp::start().await;
    let mut client = app.client().await;
    let (status, h, identity) = get(&mut client, "/js/app.js", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&h, "cache-control"), Some("no-cache"));
    assert_eq!(header(&h, "vary"), Some("Accept-Encoding"));
    assert!(
        header(&h, "content-type")
            .unwrap()
            .starts_with("text/javascript")
    );
    let etag = header(&h, "etag").expect("an ETag").to_owned();
    let (status, _, body) = get(&mut client, "/js/app.js", &[("if-none-match", &etag)]).await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());

    for (accept, coding) in [
        ("br", Some("br")),
        ("gzip, br;q=0", Some("gzip")),
        ("br;q=0.5, gzip;q=0.9", Some("gzip")),
        ("br;q=0.9, gzip;q=0.9", Some("br")),
        ("*", Some("br")),
        ("br;q=0, gzip;q=0", None),
        ("identity", None),
        ("deflate", None),
    ] {
        let (status, h, body) =
            get(&mut client, "/js/app.js", &[("accept-encoding", accept)]).await;
        assert_eq!(status, StatusCode::OK, "{accept}");
        assert_eq!(header(&h, "content-encoding"), coding, "{accept}");
        assert_eq!(header(&h, "vary"), Some("Accept-Encoding"), "{accept}");
        let decoded = match coding {
            Some("br") => unbrotli(&body),
            Some("gzip") => gunzip(&body),
            _ => body.to_vec(),
        };
        assert_eq!(decoded, &identity[..], "{accept}");
        // Each encoding has its own ETag: a cache never takes one for another.
        let tag = header(&h, "etag").expect("an ETag");
        assert_eq!(tag == etag, coding.is_none(), "{accept}: {tag} vs {etag}");
    }

    // A page of the app, made with its own head (an unknown challenge's): gzipped here.
    let (status, h, body) = get(
        &mut client,
        "/challenges/daily-1999-01-01",
        &[("accept-encoding", CHROME)],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&h, "content-encoding"), Some("gzip"));
    assert_eq!(header(&h, "vary"), Some("Accept-Encoding"));
    assert_eq!(header(&h, "cache-control"), Some("no-cache"));
    let html = String::from_utf8(gunzip(&body)).unwrap();
    assert!(html.contains("<link rel=\"modulepreload\""), "{html}");
    let (_, h, body) = get(&mut client, "/challenges/daily-1999-01-01", &[]).await;
    assert_eq!(header(&h, "content-encoding"), None);
    assert_eq!(String::from_utf8(body.to_vec()).unwrap(), html);

    // Every kind of page preloads its own modules, each there and immutable.
    for (path, own) in [
        ("/ink/0123456789abcdef01234567", "/js/ink/game."),
        (
            "/metro/0123456789abcdef01234567/replay",
            "/js/metro/replay.",
        ),
        (
            "/challenges/daily-1999-01-01",
            "/js/challenges/leaderboard.",
        ),
        ("/rules/metro", "/js/metro/rules."),
        ("/players/0123456789abcdef01234567", "/js/pages/player."),
    ] {
        let (status, h, body) = get(&mut client, path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let html = String::from_utf8(gunzip(&body)).unwrap();
        let preloads: Vec<String> = links(&html, "href")
            .into_iter()
            .filter(|l| html.contains(&format!("<link rel=\"modulepreload\" href=\"{l}\">")))
            .collect();
        assert!(
            preloads.iter().any(|p| p.starts_with(own)),
            "{path}: {preloads:?}"
        );
        for preload in &preloads {
            let (status, h, _) = get(&mut client, preload, &[]).await;
            assert_eq!(status, StatusCode::OK, "{path}: {preload}");
            assert_eq!(
                header(&h, "cache-control"),
                Some("public, max-age=31536000, immutable")
            );
        }
        assert_eq!(header(&h, "cache-control"), Some("no-cache"), "{path}");
    }

    // A name that is neither: 404.
    let (status, _, _) = get(&mut client, "/js/app.0000000000000000.js", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
