//! A hint while ten computer-heavy games run: each a Metro game of five `strong` computers and
//! one person who moves at once, so the computers never rest. Hints go before the computers'
//! moves in the queue for the cores. Prints each hint's time (`docs/benchmarks.md`):
//!
//! `cargo test --release -p server --test hint_under_load -- --nocapture`

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{Client, TestApp, create};
use hyper::StatusCode;
use serde_json::json;

/// Plays the person's turns of a Metro game as soon as they come, until told to stop.
async fn keep_busy(
    addr: std::net::SocketAddr,
    seed: u64,
    stop: Arc<AtomicBool>,
    moves: Arc<AtomicUsize>,
) {
    let mut c = Client::connect(addr).await;
    let mut players = vec![json!({"kind": "computer", "level": "strong"}); 5];
    players.push(json!({"kind": "human", "name": "Me"}));
    let body = json!({ "players": players, "seed": seed }).to_string();
    let (status, v) = c.call("POST", "/api/metro/games", None, Some(&body)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let token = v["seats"][0]["token"].as_str().unwrap().to_owned();
    let path = format!("/api/metro/games/{id}");
    while !stop.load(Ordering::Relaxed) {
        let (_, s) = c.call("GET", &path, Some(&token), None).await;
        if s["finished"] == true {
            return;
        }
        if s["you"]["your_turn"] != true {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        let legal = s["you"]["legal"].as_str().unwrap_or("");
        let (status, v) = if legal.len() >= 2 {
            let body = format!(r#"{{"square":"{}"}}"#, &legal[..2]);
            c.call("POST", &format!("{path}/place"), Some(&token), Some(&body))
                .await
        } else {
            c.call("POST", &format!("{path}/draw"), Some(&token), None)
                .await
        };
        assert_eq!(status, StatusCode::OK, "{v}");
        moves.fetch_add(1, Ordering::Relaxed);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_not_starved_by_ten_computer_heavy_games() {
    let app = TestApp::start().await;
    let stop = Arc::new(AtomicBool::new(false));
    let moves = Arc::new(AtomicUsize::new(0));
    let busy: Vec<_> = (0..10)
        .map(|seed| tokio::spawn(keep_busy(app.addr, seed, stop.clone(), moves.clone())))
        .collect();
    tokio::time::sleep(Duration::from_secs(2)).await; // the computers are at it
    let (id, token) = create(&app, r#"{"mode":"solo","seed":7}"#).await;
    let mut client = app.client().await;
    let mut times = Vec::new();
    for _ in 0..15 {
        let started = Instant::now();
        let (status, v) = client
            .call(
                "GET",
                &format!("/api/ink/games/{id}/hint"),
                Some(&token),
                None,
            )
            .await;
        times.push(started.elapsed());
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(!v["placements"].as_array().unwrap().is_empty());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    stop.store(true, Ordering::Relaxed);
    let done = moves.load(Ordering::Relaxed);
    for b in busy {
        b.await.unwrap();
    }
    times.sort();
    println!(
        "hint with ten computer-heavy games running: median {:?}, slowest {:?} ({} person moves, so five times as many computer moves, meanwhile)",
        times[times.len() / 2],
        times[times.len() - 1],
        done
    );
    assert!(done > 0, "the games were running");
}
