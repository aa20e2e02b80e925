//! What the load tests share: the parts of a Railroad Ink game's answers a simulated player
//! reads, a timed call, and latency percentiles.

use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde::Deserialize;

use super::Client;

/// The parts of the answers a player needs (the rest is skipped, not parsed into values).
#[derive(Deserialize)]
pub struct Answer {
    pub id: Option<String>,
    pub token: Option<String>,
    #[serde(default)]
    pub finished: bool,
    pub roll: Option<String>,
    #[serde(default)]
    pub players: Vec<PlayerAnswer>,
}

#[derive(Deserialize)]
pub struct PlayerAnswer {
    pub board: String,
    pub score: ScoreAnswer,
}

#[derive(Deserialize)]
pub struct ScoreAnswer {
    pub advanced: i64,
}

/// One call, its latency added to `into`: the status and the answer.
pub async fn timed(
    client: &mut Client,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
    into: &mut Vec<Duration>,
) -> (StatusCode, Answer) {
    let started = Instant::now();
    let (status, bytes) = client.call_raw(method, path, token, body).await;
    into.push(started.elapsed());
    let answer = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{method} {path}: {status}: {e}: {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, answer)
}

/// The latency at `p` (0 to 1) of latencies sorted from the shortest.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// A latency in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
