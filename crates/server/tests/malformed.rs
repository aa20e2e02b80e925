//! Requests the HTTP layer cannot read, sent as raw bytes (no client would form them): a URL
//! with a byte it may not hold, a URL over 64 KB, a `Content-Length` too long to be a number,
//! too many headers. Each is answered with its status and the API's JSON `error`, like any
//! refusal of the app's, and the connection is closed.

mod common;

use std::time::Duration;

use common::TestApp;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends `request` on a new connection and reads until the server closes it: the status, the
/// head's lines and the body.
async fn raw(app: &TestApp, request: &[u8]) -> (u16, Vec<String>, Vec<u8>) {
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes")
        .expect("read");
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("a head: {:?}", String::from_utf8_lossy(&answer)));
    let head = String::from_utf8(answer[..end].to_vec()).unwrap();
    let lines: Vec<String> = head.split("\r\n").map(str::to_owned).collect();
    let status = lines[0].split(' ').nth(1).unwrap().parse().unwrap();
    (status, lines, answer[end + 4..].to_vec())
}

/// Checks an answer is `status` with a JSON `error` that says `words`.
#[track_caller]
fn json_error(answer: &(u16, Vec<String>, Vec<u8>), status: u16, words: &str) {
    let (got, lines, body) = answer;
    assert_eq!(*got, status, "{lines:?}");
    assert!(
        lines.iter().any(|l| l == "content-type: application/json"),
        "{lines:?}"
    );
    let length = format!("content-length: {}", body.len());
    assert!(lines.contains(&length), "{lines:?}");
    let v: Value = serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(body)));
    let error = v["error"].as_str().unwrap_or_else(|| panic!("{v}"));
    assert!(error.contains(words), "{error}");
}

#[tokio::test]
async fn requests_the_http_layer_cannot_read_get_json_errors() {
    let app = TestApp::start().await;
    let get = |target: &[u8]| {
        [
            b"GET ".as_slice(),
            target,
            b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ]
        .concat()
    };
    // A byte that is not UTF-8 (nor allowed in a URL at all).
    json_error(
        &raw(&app, &get(b"/api/ink/games/\xff")).await,
        400,
        "malformed",
    );
    // Percent-encoded, the same reaches the app, which refuses it.
    json_error(&raw(&app, &get(b"/api/ink/games/%FF")).await, 400, "UTF-8");
    // A 70 KB query.
    let long = [b"/api/health?q=".as_slice(), &[b'a'; 70_000]].concat();
    json_error(&raw(&app, &get(&long)).await, 414, "too long");
    // A 20-digit Content-Length.
    let answer = raw(
        &app,
        b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 99999999999999999999\r\n\r\n{}",
    )
    .await;
    json_error(&answer, 400, "Content-Length");
    // 120 headers.
    let headers: Vec<u8> = (0..120)
        .flat_map(|i| format!("X-{i}: a\r\n").into_bytes())
        .collect();
    let many = [
        b"GET /api/health HTTP/1.1\r\nHost: x\r\n".as_slice(),
        &headers,
        b"\r\n",
    ]
    .concat();
    json_error(&raw(&app, &many).await, 431, "too large");
    // A request line that is no HTTP.
    json_error(&raw(&app, b"NONSENSE\r\n\r\n").await, 400, "malformed");
    // The server goes on.
    let (status, lines, _) = raw(&app, &get(b"/api/health")).await;
    assert_eq!(status, 200, "{lines:?}");
}
