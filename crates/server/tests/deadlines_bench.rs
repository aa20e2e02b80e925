//! A measurement, not a check (ignored unless asked for): 100,000 turn-based games waiting on
//! their deadlines in one process. It reports the memory they take while in memory (a server
//! started again holds none of them: they wait in the database), what the watcher costs while
//! nothing is due, the CPU one fired deadline costs (the game read, the time-out stored, the computer's
//! turn), and how late deadlines fire at p99 when 100 pass every second.
//!
//! `cargo test --release -p server --test deadlines_bench -- --ignored --nocapture`
//! (`GAMES=10000` for a smaller run).

mod common;

use std::time::{Duration, Instant};

use common::TestApp;
use hyper::StatusCode;
use serde_json::json;

const TODAY: &str = "2026-11-26T10:00:00Z";
const DAY: i64 = 24 * 60 * 60 * 1000;

/// This process's resident memory, in MB.
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// This process's CPU time so far (user and system), in seconds.
fn cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run it with --ignored --nocapture"]
async fn a_hundred_thousand_games_wait_on_their_deadlines() {
    let games: usize = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100_000);
    let start = server::clock::parse_rfc3339(TODAY).unwrap();
    let mut app = TestApp::start_with(|c| c.clock = server::Clock::starting_at(start)).await;
    let before = rss_mb();
    let made = Instant::now();
    let body = json!({
        "players": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        "clock": {"days": 1},
    })
    .to_string();
    let workers = 32;
    let tasks: Vec<_> = (0..workers)
        .map(|w| {
            let (addr, body) = (app.addr, body.clone());
            tokio::spawn(async move {
                let mut c = common::Client::connect(addr).await;
                for _ in (w..games).step_by(workers) {
                    let (status, v) = c.call("POST", "/api/metro/games", None, Some(&body)).await;
                    assert_eq!(status, StatusCode::CREATED, "{v}");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    let db = app.db().await;
    assert_eq!(db.deadlines_kept().await.unwrap() as usize, games);
    println!(
        "{games} turn-based games made in {:.1} s; memory {:.0} MB -> {:.0} MB with all of them in memory",
        made.elapsed().as_secs_f64(),
        before,
        rss_mb()
    );

    // The deadlines spread so that 100 pass every second, the first 5 s after the restart.
    let first = start + DAY + 60_000;
    db.exec_for_test(
        &format!(
            "UPDATE deadlines SET due = {first} + 10 * (rowid - (SELECT min(rowid) FROM deadlines))"
        ),
        &[],
    )
    .await
    .unwrap();
    app.config.clock = server::Clock::starting_at(first - 5_000);
    app.restart().await;
    let idle = cpu_s();
    tokio::time::sleep(Duration::from_millis(4_000)).await;
    let idle_cpu = cpu_s() - idle;
    let health = app.get("/api/health", None).await.1;
    println!(
        "restarted: {} games in memory (they wait in the database only); the watcher's CPU while nothing was due: {:.3} s in 4 s",
        health["games_in_memory"], idle_cpu
    );
    // 20 s of deadlines: 2,000 pass.
    let window = 20;
    let cpu = cpu_s();
    tokio::time::sleep(Duration::from_secs(window + 1)).await;
    let fired_cpu = cpu_s() - cpu;
    let mut late = app.deadlines_lateness();
    late.sort_unstable();
    println!(
        "{} deadlines passed in {window} s: lateness p50 {} ms, p99 {} ms, max {} ms; CPU {:.1} ms a fired deadline (its game read, the time-out stored, the computer's turn); memory {:.0} MB",
        late.len(),
        percentile(&late, 0.5),
        percentile(&late, 0.99),
        late.last().copied().unwrap_or(0),
        1000.0 * fired_cpu / late.len().max(1) as f64,
        rss_mb()
    );
    assert!(late.len() as u64 >= window * 90, "the watcher fell behind");
}
