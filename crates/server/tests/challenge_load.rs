//! Load: a popular daily challenge. Every player plays today's Railroad Ink challenge at once,
//! open loop as real players do: each acts about every 300 ms (a place, an end of round, or a
//! look at the state when a round begins), never faster, whatever the server's answers take.
//! Prints actions per second and the latency percentiles of an action.
//!
//! `cargo test --release -p server --test challenge_load -- --nocapture` gives the numbers of
//! `docs/benchmarks.md` (500 players; a debug build plays 100, `LOAD_PLAYERS=N` sets the number).

mod common;

use std::time::{Duration, Instant};

use common::load::{Answer, ms, percentile, timed};
use common::{Client, TestApp};
use hyper::StatusCode;
use railroad_ink::{Board, Roll, generate_move};
use serde_json::Value;

const EVERY: Duration = Duration::from_millis(300);

struct Played {
    actions: Vec<Duration>,
    reads: Vec<Duration>,
}

/// The time of a player's next move: every 300 ms from a start of its own, never bunched up
/// to catch up after a slow answer.
struct Pace {
    next: Instant,
}

impl Pace {
    async fn wait(&mut self) {
        tokio::time::sleep_until(self.next.into()).await;
        self.next = (self.next + EVERY).max(Instant::now());
    }
}

async fn call(
    client: &mut Client,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&str>,
    into: &mut Vec<Duration>,
) -> Answer {
    let (status, answer) = timed(client, method, path, Some(token), body, into).await;
    assert_eq!(status, StatusCode::OK, "{method} {path}");
    answer
}

async fn play(addr: std::net::SocketAddr, game: String, token: String, start: Instant) -> Played {
    let mut client = Client::connect(addr).await;
    let mut pace = Pace { next: start };
    let mut played = Played {
        actions: Vec::with_capacity(40),
        reads: Vec::with_capacity(8),
    };
    let base = format!("/api/ink/games/{game}");
    loop {
        pace.wait().await;
        let state = call(&mut client, "GET", &base, &token, None, &mut played.reads).await;
        if state.finished {
            return played;
        }
        let board: Board = state.players[0].board.parse().unwrap();
        let roll: Roll = state.roll.unwrap().parse().unwrap();
        for placement in generate_move(&board, &roll) {
            pace.wait().await;
            let body = format!(r#"{{"placement":"{placement}"}}"#);
            let path = format!("{base}/place");
            call(
                &mut client,
                "POST",
                &path,
                &token,
                Some(&body),
                &mut played.actions,
            )
            .await;
        }
        pace.wait().await;
        let path = format!("{base}/end-round");
        call(
            &mut client,
            "POST",
            &path,
            &token,
            None,
            &mut played.actions,
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popular_daily_challenge() {
    let players: usize = std::env::var("LOAD_PLAYERS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 100 } else { 500 });
    // Every simulated player comes from this machine: each entry ranked.
    let app = TestApp::start_with(|c| {
        c.challenge_budget = Some(4);
        c.rank_per_address = false;
    })
    .await;
    let (_, current) = app.get("/api/challenges/current", None).await;
    let daily = current["challenges"][0]["id"].as_str().unwrap().to_owned();
    // The computer plays each challenge once, when the challenge begins, long before a crowd
    // comes: let it finish, so that the load measured is the players'.
    for _ in 0..1200 {
        let (_, c) = app.get("/api/challenges/current", None).await;
        if c["challenges"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| !c["computer"].is_null())
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Everyone gets a player and a game first (not timed: the load is the playing).
    let mut client = app.client().await;
    let mut seats = Vec::with_capacity(players);
    for i in 0..players {
        let body = format!(r#"{{"name":"Player {i}"}}"#);
        let (status, p) = client.call("POST", "/api/players", None, Some(&body)).await;
        assert_eq!(status, StatusCode::CREATED);
        let token = p["token"].as_str().unwrap();
        let path = format!("/api/challenges/{daily}/play");
        let (status, v): (StatusCode, Value) = client.call("POST", &path, Some(token), None).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        seats.push((
            v["game"].as_str().unwrap().to_owned(),
            v["token"].as_str().unwrap().to_owned(),
        ));
    }
    let started = Instant::now();
    let tasks: Vec<_> = seats
        .into_iter()
        .enumerate()
        .map(|(i, (game, token))| {
            // Each player's own phase within the 300 ms.
            let phase = Duration::from_micros((i as u64 * 7_919 * 1_000) % 300_000);
            tokio::spawn(play(app.addr, game, token, started + phase))
        })
        .collect();
    let mut actions = Vec::new();
    let mut reads = Vec::new();
    for t in tasks {
        let p = t.await.unwrap();
        actions.extend(p.actions);
        reads.extend(p.reads);
    }
    let wall = started.elapsed().as_secs_f64();
    actions.sort();
    reads.sort();
    println!(
        "challenge load: {players} players, {} actions and {} state reads in {wall:.1} s: {:.0} actions/s; action p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; state read p50 {:.1} ms, p99 {:.1} ms",
        actions.len(),
        reads.len(),
        actions.len() as f64 / wall,
        ms(percentile(&actions, 0.5)),
        ms(percentile(&actions, 0.99)),
        ms(percentile(&actions, 1.0)),
        ms(percentile(&reads, 0.5)),
        ms(percentile(&reads, 0.99)),
    );
    let (_, b) = app.get(&format!("/api/challenges/{daily}"), None).await;
    assert_eq!(b["players"], players as i64);
    assert_eq!(b["leaderboard"]["finished"], players as i64);
}
