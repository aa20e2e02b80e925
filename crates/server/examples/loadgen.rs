//! An open-loop load generator: simulated people playing Railroad Ink solo games through the
//! HTTP API of a running server, each acting on a fixed schedule whatever the answers take,
//! with the latency counted from the scheduled time (so queueing shows, as it would to a
//! person).
//!
//! ```sh
//! cargo run --release -p server --example loadgen -- --addr 127.0.0.1:8080 --players 500 --every 300 --seconds 60
//! ```
//!
//! Each player makes a game, then every `--every` milliseconds (its own phase within that
//! period) places its first legal die, or ends its round when none fits, deciding from the
//! state the last answer carried; a finished game is followed by a new one. With `--streams`
//! each player also holds its game's live-update stream open and counts its events. Several
//! `--addr` spread the players over several processes; `--round-robin` sends each request to the
//! next one instead, as nginx would. `--check` exits with 1 if any legal action was refused or
//! any answer was a 5xx.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

#[derive(Debug, Parser)]
#[command(
    about = "Plays Railroad Ink solo games against a running tracklayer server on a fixed schedule and reports what it measured",
    after_help = "Example:\n  cargo run --release -p server --example loadgen -- --addr 127.0.0.1:8080 --players 500 --every 300 --seconds 60"
)]
struct Args {
    /// A server to play on (`host:port`); give it again for more processes.
    #[arg(long, required = true)]
    addr: Vec<SocketAddr>,
    /// Simulated people playing at once.
    #[arg(long, default_value_t = 100)]
    players: usize,
    /// Milliseconds between one person's actions.
    #[arg(long, default_value_t = 300)]
    every: u64,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Each person also holds its game's live-update stream open.
    #[arg(long)]
    streams: bool,
    /// Send each request to the next server in turn instead of one server a person.
    #[arg(long)]
    round_robin: bool,
    /// Exit with status 1 if a legal action was refused or an answer was a 5xx.
    #[arg(long)]
    check: bool,
}

/// What happened to the requests.
#[derive(Default)]
struct Tally {
    /// Latency from the scheduled time, per request.
    latencies: Vec<Duration>,
    ok: usize,
    /// Legal actions refused (a 4xx on a move the last state said was legal).
    refused: Vec<String>,
    /// `503`: the server said it was busy.
    busy: usize,
    /// Other 5xx answers.
    failed: Vec<String>,
    /// Connections that broke.
    broken: usize,
    games: usize,
}

/// One keep-alive connection to each server.
struct Connections {
    addrs: Vec<SocketAddr>,
    senders: Vec<Option<SendRequest<Full<Bytes>>>>,
}

impl Connections {
    fn new(addrs: Vec<SocketAddr>) -> Connections {
        let senders = addrs.iter().map(|_| None).collect();
        Connections { addrs, senders }
    }

    /// A request to server `i`: its status and body (`None` if the connection broke).
    async fn call(
        &mut self,
        i: usize,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> Option<(StatusCode, Bytes)> {
        let i = i % self.addrs.len();
        if self.senders[i].as_ref().is_none_or(|s| s.is_closed()) {
            let stream = TcpStream::connect(self.addrs[i]).await.ok()?;
            let _ = stream.set_nodelay(true);
            let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
                .await
                .ok()?;
            tokio::spawn(conn);
            self.senders[i] = Some(sender);
        }
        let sender = self.senders[i].as_mut()?;
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addrs[i].to_string())
            .header("content-type", "application/json");
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        let request = request.body(Full::new(Bytes::from(body))).ok()?;
        let answer = async {
            sender.ready().await.ok()?;
            let response = sender.send_request(request).await.ok()?;
            let status = response.status();
            let bytes = response.into_body().collect().await.ok()?.to_bytes();
            Some((status, bytes))
        }
        .await;
        if answer.is_none() {
            self.senders[i] = None;
        }
        answer
    }
}

/// The first legal placement the state offers (a die first), if a die still fits.
fn first_legal(state: &Value) -> Option<String> {
    for die in state["you"]["dice"].as_array()? {
        if die["used"] == true {
            continue;
        }
        for (o, legal) in die["legal"].as_array()?.iter().enumerate() {
            let squares = legal.as_str()?;
            if squares.len() >= 2 {
                return Some(format!("{}{}{o}", die["tile"].as_str()?, &squares[..2]));
            }
        }
    }
    None
}

/// Drains a game's live-update stream, counting its events, until the end of the run.
async fn listen(
    addr: SocketAddr,
    id: String,
    token: String,
    events: Arc<AtomicUsize>,
    until: Instant,
) {
    let Ok(stream) = TcpStream::connect(addr).await else {
        return;
    };
    let Ok((mut sender, conn)) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await
    else {
        return;
    };
    tokio::spawn(conn);
    let Ok(request) = Request::builder()
        .uri(format!("/api/ink/games/{id}/events?token={token}"))
        .header("host", addr.to_string())
        .body(Full::new(Bytes::new()))
    else {
        return;
    };
    let Ok(response) = sender.send_request(request).await else {
        return;
    };
    let mut body = response.into_body();
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(
        until.saturating_duration_since(Instant::now()),
        body.frame(),
    )
    .await
    {
        if let Ok(data) = frame.into_data() {
            events.fetch_add(
                data.windows(12).filter(|w| w == b"event: state").count(),
                Ordering::Relaxed,
            );
        }
    }
}

/// One person: games one after another, an action every `every` from `start`.
async fn person(
    n: usize,
    args: Arc<Args>,
    start: Instant,
    until: Instant,
    events: Arc<AtomicUsize>,
) -> Tally {
    let mut tally = Tally::default();
    let mut conns = Connections::new(args.addr.clone());
    let every = Duration::from_millis(args.every);
    // Each person's own phase within the period.
    let phase = Duration::from_micros((n as u64 * 7_919_000) % (args.every * 1000).max(1));
    let mut tick = 0u32;
    let mut request = n;
    let mut game: Option<(String, String, Value)> = None;
    loop {
        let scheduled = start + phase + every * tick;
        tick += 1;
        if scheduled >= until {
            return tally;
        }
        tokio::time::sleep_until(scheduled.into()).await;
        let server = if args.round_robin {
            request += 1;
            request
        } else {
            n
        };
        let (method, path, token, body, what) = match &game {
            None => (
                Method::POST,
                "/api/ink/games".to_owned(),
                None,
                format!(
                    r#"{{"mode":"solo","seed":{}}}"#,
                    n as u64 * 1_000_000 + u64::from(tick)
                ),
                "create".to_owned(),
            ),
            Some((id, token, state)) => match first_legal(state) {
                Some(p) => (
                    Method::POST,
                    format!("/api/ink/games/{id}/place"),
                    Some(token.clone()),
                    format!(r#"{{"placement":"{p}"}}"#),
                    format!("place {p}"),
                ),
                None => (
                    Method::POST,
                    format!("/api/ink/games/{id}/end-round"),
                    Some(token.clone()),
                    String::new(),
                    "end-round".to_owned(),
                ),
            },
        };
        let answer = conns
            .call(server, method, &path, token.as_deref(), body)
            .await;
        tally.latencies.push(scheduled.elapsed());
        let Some((status, bytes)) = answer else {
            tally.broken += 1;
            continue;
        };
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        match status.as_u16() {
            200 | 201 => {
                tally.ok += 1;
                match &mut game {
                    None => {
                        let (id, token) = (value["id"].as_str(), value["token"].as_str());
                        if let (Some(id), Some(token)) = (id, token) {
                            tally.games += 1;
                            if args.streams {
                                let addr = args.addr[n % args.addr.len()];
                                tokio::spawn(listen(
                                    addr,
                                    id.into(),
                                    token.into(),
                                    events.clone(),
                                    until,
                                ));
                            }
                            // The first state: read once, then every answer carries the next.
                            let read = conns
                                .call(
                                    server,
                                    Method::GET,
                                    &format!("/api/ink/games/{id}"),
                                    Some(token),
                                    String::new(),
                                )
                                .await;
                            let state = read
                                .and_then(|(_, b)| serde_json::from_slice(&b).ok())
                                .unwrap_or(Value::Null);
                            game = Some((id.into(), token.into(), state));
                        }
                    }
                    Some((_, _, state)) => {
                        if value["finished"] == true {
                            game = None;
                        } else {
                            *state = value;
                        }
                    }
                }
            }
            503 => tally.busy += 1,
            500..=599 => tally.failed.push(format!("{what}: {status} {value}")),
            _ => {
                tally.refused.push(format!("{what}: {status} {value}"));
                // Read the game again, and go on from what it is.
                if let Some((id, token, state)) = &mut game
                    && let Some((_, b)) = conns
                        .call(
                            server,
                            Method::GET,
                            &format!("/api/ink/games/{id}"),
                            Some(token),
                            String::new(),
                        )
                        .await
                {
                    *state = serde_json::from_slice(&b).unwrap_or(Value::Null);
                }
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = Arc::new(Args::parse());
    let start = Instant::now() + Duration::from_millis(200);
    let until = start + Duration::from_secs(args.seconds);
    let events = Arc::new(AtomicUsize::new(0));
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new(args.seconds);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{elapsed} [{bar:30}] {pos}/{len} s {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let tasks: Vec<_> = (0..args.players)
        .map(|n| tokio::spawn(person(n, args.clone(), start, until, events.clone())))
        .collect();
    if let Some(bar) = &progress {
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_secs(1)).await;
            bar.set_position(start.elapsed().as_secs().min(args.seconds));
        }
        bar.finish_and_clear();
    }
    let mut all = Tally::default();
    for task in tasks {
        let Ok(t) = task.await else { continue };
        all.latencies.extend(t.latencies);
        all.ok += t.ok;
        all.refused.extend(t.refused);
        all.busy += t.busy;
        all.failed.extend(t.failed);
        all.broken += t.broken;
        all.games += t.games;
    }
    all.latencies.sort();
    let secs = args.seconds as f64;
    println!(
        "{} players, an action every {} ms, {} s, {} server(s){}: {} requests ({:.0}/s), {} games; from the scheduled time p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} ok, {} busy (503), {} refused legal actions, {} failed (5xx), {} broken connections{}",
        args.players,
        args.every,
        args.seconds,
        args.addr.len(),
        if args.round_robin { " round-robin" } else { "" },
        all.latencies.len(),
        all.latencies.len() as f64 / secs,
        all.games,
        percentile(&all.latencies, 0.5),
        percentile(&all.latencies, 0.9),
        percentile(&all.latencies, 0.99),
        percentile(&all.latencies, 1.0),
        all.ok,
        all.busy,
        all.refused.len(),
        all.failed.len(),
        all.broken,
        if args.streams {
            format!(
                ", {} live-update events heard",
                events.load(Ordering::Relaxed)
            )
        } else {
            String::new()
        },
    );
    for line in all.refused.iter().chain(&all.failed).take(5) {
        eprintln!("  {line}");
    }
    if args.check && (!all.refused.is_empty() || !all.failed.is_empty() || all.broken > 0) {
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
