//! Clients that hold connections without using them are dropped: slow headers, a body that
//! never comes, idle keep-alive; a live-update stream is not idle and stays open.

mod common;

use std::time::{Duration, Instant};

use common::{Events, TestApp, create};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn quick_app() -> TestApp {
    TestApp::start_with(|c| {
        c.timeouts = server::Timeouts {
            header: Duration::from_millis(800),
            idle: Duration::from_millis(1500),
        };
    })
    .await
}

/// Waits until the server closes the stream (a read of 0 bytes or an error); returns when.
async fn closed_after(stream: &mut TcpStream, started: Instant, limit: Duration) -> Duration {
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(limit, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => continue,
            Err(_) => panic!("the connection is still open after {limit:?}"),
        }
    }
}

#[tokio::test]
async fn headers_sent_a_line_at_a_time_are_cut_off() {
    let app = quick_app().await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(b"GET /api/health HTTP/1.1\r\n")
        .await
        .unwrap();
    let writer = async {
        for i in 0..20 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if stream
                .write_all(format!("x-slow-{i}: 1\r\n").as_bytes())
                .await
                .is_err()
            {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(6), writer)
        .await
        .ok();
    let mut probe = TcpStream::connect(app.addr).await.unwrap();
    drop(probe.write_all(b"").await);
    let elapsed = closed_after(&mut stream, started, Duration::from_secs(5)).await;
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    // A connection that sends nothing at all goes the same way.
    let started = Instant::now();
    let elapsed = closed_after(&mut probe, started, Duration::from_secs(5)).await;
    assert!(elapsed >= Duration::from_millis(700), "{elapsed:?}");
    // The server is fine.
    assert_eq!(app.get("/api/health", None).await.0, 200);
}

#[tokio::test]
async fn a_body_that_never_comes_is_cut_off() {
    let app = quick_app().await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    stream
        .write_all(
            b"POST /api/players HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"name\":",
        )
        .await
        .unwrap();
    let started = Instant::now();
    let elapsed = closed_after(&mut stream, started, Duration::from_secs(5)).await;
    assert!(
        elapsed >= Duration::from_millis(700) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
    assert_eq!(app.get("/api/health", None).await.0, 200);
}

#[tokio::test]
async fn a_body_sent_slowly_but_within_the_limit_is_answered() {
    let app = quick_app().await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    let body = br#"{"name":"Slow Sam"}"#;
    stream
        .write_all(
            format!(
                "POST /api/players HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    for piece in body.chunks(7) {
        tokio::time::sleep(Duration::from_millis(150)).await;
        stream.write_all(piece).await.unwrap();
    }
    let mut buf = [0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    let answer = std::str::from_utf8(&buf[..n]).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    // The connection is kept alive for the next request, then closed once idle.
    let started = Instant::now();
    let elapsed = closed_after(&mut stream, started, Duration::from_secs(5)).await;
    assert!(elapsed >= Duration::from_millis(1000), "{elapsed:?}");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_and_a_busy_one_is_not() {
    let app = quick_app().await;
    let mut stream = TcpStream::connect(app.addr).await.unwrap();
    // Requests more often than the idle limit keep it open.
    for _ in 0..4 {
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 1024];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(
            std::str::from_utf8(&buf[..n])
                .unwrap()
                .starts_with("HTTP/1.1 200")
        );
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    let started = Instant::now();
    let elapsed = closed_after(&mut stream, started, Duration::from_secs(5)).await;
    assert!(
        elapsed >= Duration::from_millis(700) && elapsed < Duration::from_secs(3),
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn a_live_update_stream_outlasts_the_idle_limit() {
    let app = quick_app().await;
    let (id, token) = create(&app, r#"{"mode":"solo"}"#).await;
    let mut events = Events::open(&app, &format!("/api/ink/games/{id}/events")).await;
    assert_eq!(events.next_state().await, 0);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (status, v) = app
        .post(&format!("/api/ink/games/{id}/undo"), Some(&token), "")
        .await;
    assert_eq!(status, 422, "{v}");
    let (_, s) = app.get(&format!("/api/ink/games/{id}"), Some(&token)).await;
    let die = &s["you"]["dice"][0];
    let orientation = die["legal"]
        .as_array()
        .unwrap()
        .iter()
        .position(|l| !l.as_str().unwrap().is_empty())
        .unwrap();
    let square = &die["legal"][orientation].as_str().unwrap()[..2];
    let placement = format!("{}{square}{orientation}", die["tile"].as_str().unwrap());
    let (status, v) = app
        .post(
            &format!("/api/ink/games/{id}/place"),
            Some(&token),
            &format!(r#"{{"placement":"{placement}"}}"#),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(events.next_state().await, 1, "the stream is still open");
}
