//! Fuzz: thousands of random and mutated requests against every endpoint (methods, paths,
//! queries, headers, bodies), seeded so a failure reproduces. Every request gets an answer, no
//! answer is a 5xx, and every `/api/` error is the JSON shape.
//!
//! `FUZZ_REQUESTS=N FUZZ_SEED=S cargo test -p server --test fuzz -- --nocapture` runs more.

mod common;

use std::time::Instant;

use common::{Client, TestApp, create};
use serde_json::Value;

/// xorshift64*: small, seeded, enough for choosing junk.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

const METHODS: [&str; 6] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"];

/// Bytes that make paths and queries interesting, percent-encoded or not.
const PIECES: [&str; 24] = [
    "%ff",
    "%00",
    "%2e%2e",
    "..",
    "%2f",
    "%25",
    "%e2%80%ae",
    "%f0%9f%9a%82",
    "?",
    "&",
    "=",
    ";",
    "A4A12",
    "aacb34",
    "0",
    "-1",
    "18446744073709551616",
    "daily-2026-11-26",
    "friend-",
    "x",
    "%20",
    "+",
    "{}",
    "%22",
];

/// Fragments of JSON bodies, good and bad.
const FRAGMENTS: [&str; 30] = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"mode\"",
    "\"solo\"",
    "\"online\"",
    "\"computer\"",
    "\"seed\"",
    "\"99\"",
    "-5",
    "1e400",
    "null",
    "true",
    "\"name\"",
    "\"\\u202e\"",
    "\"placement\"",
    "\"A4A12\"",
    "\"square\"",
    "\"03\"",
    "\"players\"",
    "\"kind\"",
    "\"human\"",
    "\"from\"",
    "\"friend\"",
    "\"\\ud800\"",
    "\"x\"",
    "9999999999999999999999",
];

/// Valid bodies, to mutate.
const BODIES: [&str; 11] = [
    r#"{"mode":"solo","seed":"42","name":"Ann"}"#,
    r#"{"mode":"online","seed":7}"#,
    r#"{"mode":"computer","agent":"greedy"}"#,
    r#"{"placement":"A1A10"}"#,
    r#"{"players":[{"kind":"human"},{"kind":"computer","level":"greedy"}],"seed":"3"}"#,
    r#"{"square":"03"}"#,
    r#"{"name":"Bob"}"#,
    r#"{"name":"Bob","seat":1}"#,
    r#"{"kind":"friend","from":"00112233445566778899aabb"}"#,
    r#"{"board":"A1A30","placement":"A1B30","tiles":["A4","S2"]}"#,
    "",
];

fn mutate(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..=rng.below(4) {
        match rng.below(5) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next() as u8;
            }
            1 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes.truncate(i);
            }
            2 => {
                let i = rng.below(bytes.len() + 1);
                let f = rng.pick(&FRAGMENTS).as_bytes();
                bytes.splice(i..i, f.iter().copied());
            }
            3 => {
                let i = rng.below(bytes.len() + 1);
                bytes.insert(i, rng.next() as u8);
            }
            _ => bytes.extend_from_slice(rng.pick(&FRAGMENTS).as_bytes()),
        }
    }
    bytes
}

fn body(rng: &mut Rng) -> Vec<u8> {
    match rng.below(4) {
        0 => rng.pick(&BODIES).as_bytes().to_vec(),
        1 => {
            let base = BODIES[rng.below(BODIES.len())];
            mutate(rng, base)
        }
        2 => (0..rng.below(12))
            .map(|_| *rng.pick(&FRAGMENTS))
            .collect::<String>()
            .into_bytes(),
        _ => (0..rng.below(80)).map(|_| rng.next() as u8).collect(),
    }
}

/// A path: a real endpoint, maybe with a segment replaced or junk added, and a query.
fn path(rng: &mut Rng, real: &[String]) -> String {
    let mut p = rng.pick(real).clone();
    match rng.below(5) {
        0 => {
            // Replace one segment with junk.
            let mut segs: Vec<String> = p.split('/').map(str::to_owned).collect();
            let i = 1 + rng.below(segs.len().saturating_sub(1).max(1));
            if i < segs.len() {
                segs[i] = (0..=rng.below(3)).map(|_| *rng.pick(&PIECES)).collect();
            }
            p = segs.join("/");
        }
        1 => {
            p.push('/');
            p.push_str(rng.pick::<&str>(&PIECES));
        }
        _ => {}
    }
    if rng.chance(3) {
        p.push('?');
        for i in 0..=rng.below(3) {
            if i > 0 {
                p.push('&');
            }
            p.push_str(rng.pick::<&str>(&[
                "limit", "before", "around", "board", "players", "sequence", "kind", "finished",
                "x",
            ]));
            p.push('=');
            p.push_str(rng.pick::<&str>(&PIECES));
        }
    }
    // Only what a request line can carry: anything else is the client's error, not a test.
    p.chars()
        .map(|c| if c.is_ascii_graphic() { c } else { '_' })
        .collect()
}

#[tokio::test]
async fn thousands_of_junk_requests_get_answers_and_no_server_errors() {
    let n: usize = std::env::var("FUZZ_REQUESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4000);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_2026);
    let app = TestApp::start().await;
    let (ink, ink_token) = create(&app, r#"{"mode":"online","seed":5}"#).await;
    let (status, v) = app
        .post(
            "/api/metro/games",
            None,
            r#"{"players":[{"kind":"human"},{"kind":"human","invite":true}],"seed":"9"}"#,
        )
        .await;
    assert_eq!(status, 201, "{v}");
    let metro = v["id"].as_str().unwrap().to_owned();
    let metro_token = v["seats"][0]["token"].as_str().unwrap().to_owned();
    let (_, p) = app.post("/api/players", None, r#"{"name":"Fuzz"}"#).await;
    let player = p["id"].as_str().unwrap().to_owned();
    let player_token = p["token"].as_str().unwrap().to_owned();
    let mut real: Vec<String> = [
        "/api/health",
        "/api/ink/tiles",
        "/api/metro/tiles",
        "/api/ink/games",
        "/api/metro/games",
        "/api/games",
        "/api/ink/view",
        "/api/ink/check",
        "/api/metro/view",
        "/api/players",
        "/api/challenges",
        "/api/challenges/current",
        "/api/challenges/daily-2026-11-26",
        "/",
        "/rules",
        "/challenges",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for what in [
        "",
        "/join",
        "/start",
        "/place",
        "/undo",
        "/end-round",
        "/hint",
        "/replay",
    ] {
        real.push(format!("/api/ink/games/{ink}{what}"));
    }
    for what in ["", "/join", "/draw", "/keep", "/place", "/replay"] {
        real.push(format!("/api/metro/games/{metro}{what}"));
    }
    real.push(format!("/api/players/{player}"));
    let (_, cur) = app.get("/api/challenges/current", None).await;
    for c in cur["challenges"].as_array().unwrap() {
        let id = c["id"].as_str().unwrap();
        real.push(format!("/api/challenges/{id}"));
        real.push(format!("/api/challenges/{id}/play"));
    }
    let tokens = [
        ink_token.as_str(),
        metro_token.as_str(),
        player_token.as_str(),
        "nope",
    ];

    let mut rng = Rng(seed);
    let mut client = Client::connect(app.addr).await;
    let started = Instant::now();
    let mut by_status = std::collections::BTreeMap::new();
    for i in 0..n {
        let method = match rng.below(10) {
            0..=3 => "GET",
            4..=8 => "POST",
            _ => *rng.pick(&METHODS),
        };
        let path = path(&mut rng, &real);
        if path.ends_with("/events") {
            continue;
        }
        let auth;
        let mut headers: Vec<(&str, &str)> = Vec::new();
        if rng.chance(2) {
            auth = match rng.below(4) {
                0 => format!("Bearer {}", rng.pick(&tokens)),
                1 => "Bearer".to_owned(),
                2 => format!("Basic {}", rng.pick(&tokens)),
                _ => format!("Bearer {}", "z".repeat(rng.below(400))),
            };
            headers.push(("authorization", auth.as_str()));
        }
        if rng.chance(3) {
            headers.push((
                "content-type",
                *rng.pick(&[
                    "application/json",
                    "text/plain",
                    "multipart/form-data",
                    "%ff",
                ]),
            ));
        }
        let body = if method == "GET" || method == "HEAD" {
            Vec::new()
        } else {
            body(&mut rng)
        };
        let r = client.send(method, &path, &headers, body.clone()).await;
        let status = r.status();
        let kind = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        *by_status.entry(status.as_u16()).or_insert(0) += 1;
        if kind.starts_with("text/event-stream") {
            // A live-update stream never ends: leave it, on a new connection.
            drop(r);
            client = Client::connect(app.addr).await;
            continue;
        }
        let bytes = common::body(r).await;
        let shown = String::from_utf8_lossy(&body);
        assert!(
            !status.is_server_error(),
            "request {i}: {method} {path} {headers:?} {shown:?}: {status}"
        );
        if path.starts_with("/api/") && status.is_client_error() && method != "HEAD" {
            assert!(
                kind.starts_with("application/json"),
                "request {i}: {method} {path}: {status} as {kind:?}"
            );
            let v: Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("request {i}: {method} {path}: {e}"));
            assert!(v["error"].is_string(), "request {i}: {method} {path}: {v}");
        }
    }
    println!(
        "fuzz: {n} requests (seed {seed:#x}) in {:?}, by status {by_status:?}",
        started.elapsed()
    );
    // Still whole: the games answer as before.
    let (status, _) = app
        .get(&format!("/api/ink/games/{ink}"), Some(&ink_token))
        .await;
    assert_eq!(status, 200);
}
