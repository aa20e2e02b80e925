//! Load: 200 solo games played at once through the HTTP API, each on its own keep-alive
//! connection, every placement chosen by the engine's reference strategy from the state the
//! server sends. Prints actions per second and latency percentiles.
//!
//! `cargo test --release -p server --test load -- --nocapture` gives the numbers of
//! `docs/benchmarks.md`.

mod common;

use std::time::{Duration, Instant};

use common::load::{ms, percentile, timed};
use common::{Client, TestApp};
use hyper::StatusCode;
use railroad_ink::{Board, Roll, generate_move};

const GAMES: usize = 200;

struct Played {
    /// Latency of each action (place, end round).
    actions: Vec<Duration>,
    /// Latency of each state read.
    reads: Vec<Duration>,
    score: i64,
}

async fn play(app_addr: std::net::SocketAddr, seed: u64) -> Played {
    let mut client = Client::connect(app_addr).await;
    let mut played = Played {
        actions: Vec::with_capacity(40),
        reads: Vec::with_capacity(8),
        score: 0,
    };
    let body = format!(r#"{{"mode":"solo","seed":{seed}}}"#);
    let (status, created) = timed(
        &mut client,
        "POST",
        "/api/ink/games",
        None,
        Some(&body),
        &mut played.actions,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created.id.unwrap();
    let token = created.token.unwrap();
    let base = format!("/api/ink/games/{id}");
    loop {
        let (status, state) = timed(
            &mut client,
            "GET",
            &base,
            Some(&token),
            None,
            &mut played.reads,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        if state.finished {
            played.score = state.players[0].score.advanced;
            return played;
        }
        let board: Board = state.players[0].board.parse().unwrap();
        let roll: Roll = state.roll.unwrap().parse().unwrap();
        for placement in generate_move(&board, &roll) {
            let body = format!(r#"{{"placement":"{placement}"}}"#);
            let path = format!("{base}/place");
            let (status, _) = timed(
                &mut client,
                "POST",
                &path,
                Some(&token),
                Some(&body),
                &mut played.actions,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{placement}");
        }
        let path = format!("{base}/end-round");
        let (status, _) = timed(
            &mut client,
            "POST",
            &path,
            Some(&token),
            None,
            &mut played.actions,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_hundred_concurrent_solo_games() {
    let app = TestApp::start().await;
    let started = Instant::now();
    let tasks: Vec<_> = (0..GAMES as u64)
        .map(|seed| tokio::spawn(play(app.addr, seed)))
        .collect();
    let mut actions = Vec::new();
    let mut reads = Vec::new();
    let mut scores = 0;
    for task in tasks {
        let played = task.await.expect("a game plays to the end");
        actions.extend(played.actions);
        reads.extend(played.reads);
        scores += played.score;
    }
    let wall = started.elapsed();
    actions.sort();
    reads.sort();
    let per_second = actions.len() as f64 / wall.as_secs_f64();
    println!(
        "load: {GAMES} concurrent solo games, {} actions and {} state reads in {:.2} s",
        actions.len(),
        reads.len(),
        wall.as_secs_f64()
    );
    println!(
        "load: {per_second:.0} actions/s; action latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; state read p99 {:.1} ms",
        ms(percentile(&actions, 0.50)),
        ms(percentile(&actions, 0.99)),
        ms(*actions.last().unwrap()),
        ms(percentile(&reads, 0.99)),
    );
    println!(
        "load: mean score of the reference strategy {:.1}",
        scores as f64 / GAMES as f64
    );
    // Every game finished: 7 reads with a roll plus the final one, at least.
    assert!(reads.len() >= GAMES * 8);
}
