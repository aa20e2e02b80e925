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
//! state the last answer carried; a finished game is followed by a new one. With `--table N`
//! the players sit in online games of N seats instead: the first of each table makes the game,
//! the others join it, the first starts it, and each seat plays its rounds (a seat that has
//! ended its round waits for the others, without a request); the next game is made when one
//! ends. With `--streams` each player also holds its game's live-update stream open, counts its
//! events, and measures how long each took to arrive after the action that made it was sent
//! (the other seats' streams, for tables). `--pool N` shares N keep-alive connections among all
//! the players' actions (to stay under the open-file limit with many streams). Several `--addr`
//! spread the players over several processes; `--round-robin` sends each request to the next
//! one instead, as nginx would. `--check` exits with 1 if any legal action was refused or any
//! answer was a 5xx; `--max-p99 MS` if the answers other than 503 took longer at their p99,
//! `--max-busy MS` if any 503 took longer. `--back-off` makes a player told "busy" wait as its
//! `Retry-After` asks, as the pages do. The 503s' latency is reported apart from the others'.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde::de::IgnoredAny;
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
    /// Seats of each game: 1 plays solo games, 2 to 8 online games (made, joined, started).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=8))]
    table: u8,
    /// Keep-alive connections shared by all the players' actions (0: one for each player).
    #[arg(long, default_value_t = 0)]
    pool: usize,
    /// A player told the server is busy (503) waits as its `Retry-After` asks before its next
    /// action, as the pages do; without it, it acts again at its next time.
    #[arg(long)]
    back_off: bool,
    /// Exit with status 1 if the p99 of the answers other than 503, from the scheduled time,
    /// is over this many milliseconds.
    #[arg(long, value_name = "MS")]
    max_p99: Option<f64>,
    /// Exit with status 1 if any 503 answer came later than this many milliseconds after its
    /// scheduled time.
    #[arg(long, value_name = "MS")]
    max_busy: Option<f64>,
}

/// What happened to the requests.
#[derive(Default)]
struct Tally {
    /// Latency from the scheduled time, per request answered other than 503, with the 5-second
    /// window of the run it was scheduled in.
    latencies: Vec<(usize, Duration)>,
    /// Latency from the scheduled time of each 503 (the server said it was busy).
    busy_latencies: Vec<Duration>,
    ok: usize,
    /// Placements and round ends the server took.
    actions: usize,
    /// Legal actions refused (a 4xx on a move the last state said was legal).
    refused: Vec<String>,
    /// Other 5xx answers.
    failed: Vec<String>,
    /// Connections that broke.
    broken: usize,
    games: usize,
}

/// When the action that makes each version of each game was sent: `(game, version)` to its
/// sending time, for the live-update streams' delays (entries are taken as they are heard).
struct Sent {
    /// When the run begins, for the windows.
    start: Instant,
    at: Mutex<HashMap<(String, u64), Instant>>,
    /// How long each event took to arrive after its action was sent, with the 5-second window
    /// of the run it was sent in.
    delays: Mutex<Vec<(usize, Duration)>>,
}

impl Sent {
    fn record(&self, game: &str, version: u64, at: Instant) {
        if let Ok(mut map) = self.at.lock() {
            map.insert((game.to_owned(), version), at);
        }
    }

    fn heard(&self, game: &str, version: u64) {
        let sent = self
            .at
            .lock()
            .ok()
            .and_then(|map| map.get(&(game.to_owned(), version)).copied());
        if let (Some(sent), Ok(mut delays)) = (sent, self.delays.lock()) {
            delays.push((
                window(sent.saturating_duration_since(self.start)),
                sent.elapsed(),
            ));
        }
    }
}

/// The game a table plays now, as its first seat made it (the others join it).
#[derive(Default)]
struct Table {
    game: Mutex<Option<String>>,
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

    /// A request to server `i`: its status, body and `Retry-After` seconds (`None` if the
    /// connection broke).
    async fn call(
        &mut self,
        i: usize,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: String,
    ) -> Option<(StatusCode, Bytes, Option<u64>)> {
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
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok()?.parse().ok());
            let bytes = response.into_body().collect().await.ok()?.to_bytes();
            Some((status, bytes, retry_after))
        }
        .await;
        if answer.is_none() {
            self.senders[i] = None;
        }
        answer
    }
}

/// What a player reads of an answer: the seat's token and game (of a create or a join), or the
/// parts of the game's state it acts on. Everything else of the state is skipped unread, so
/// that the generator spends its core on requests rather than on building JSON trees.
#[derive(Debug, Default, Deserialize)]
struct View {
    id: Option<String>,
    token: Option<String>,
    version: Option<u64>,
    #[serde(default)]
    finished: bool,
    started: Option<bool>,
    #[serde(default)]
    players: Vec<IgnoredAny>,
    you: Option<You>,
}

/// The seat's own part of a state.
#[derive(Debug, Deserialize)]
struct You {
    #[serde(default)]
    round_done: bool,
    #[serde(default)]
    dice: Vec<Die>,
}

/// One of the round's dice: its tile, whether it is used, and its legal squares by orientation.
#[derive(Debug, Deserialize)]
struct Die {
    tile: String,
    #[serde(default)]
    used: bool,
    #[serde(default)]
    legal: Vec<String>,
}

/// The first legal placement the state offers (a die first), if a die still fits.
fn first_legal(state: &View) -> Option<String> {
    let you = state.you.as_ref()?;
    you.dice.iter().filter(|d| !d.used).find_map(|die| {
        die.legal
            .iter()
            .enumerate()
            .find(|(_, squares)| squares.len() >= 2)
            .map(|(o, squares)| format!("{}{}{o}", die.tile, &squares[..2]))
    })
}

/// The latest state a live-update stream brought: its version and its text, parsed only if the
/// player acts on it (most events are overtaken by the next before their seat's turn comes).
type Heard = Arc<Mutex<Option<(u64, Vec<u8>)>>>;

/// An event's version: the number after its first `"version":` (the state writes it near its
/// start), read without parsing the rest.
fn version_of(data: &[u8]) -> Option<u64> {
    const KEY: &[u8] = b"\"version\":";
    let at = data.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
    let digits = data[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&data[at..at + digits])
        .ok()?
        .parse()
        .ok()
}

/// The position of the first blank line (the end of an event) in `buffer`.
fn event_end(buffer: &[u8]) -> Option<usize> {
    buffer.windows(2).position(|w| w == b"\n\n")
}

/// Drains a game's live-update stream until the end of the run: counts its events, measures
/// each one's delay after its action was sent, and keeps the latest state for the player.
async fn listen(
    addr: SocketAddr,
    id: String,
    token: String,
    events: Arc<AtomicUsize>,
    sent: Arc<Sent>,
    heard: Heard,
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
    let mut buffer: Vec<u8> = Vec::new();
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(
        until.saturating_duration_since(Instant::now()),
        body.frame(),
    )
    .await
    {
        let Ok(data) = frame.into_data() else {
            continue;
        };
        buffer.extend_from_slice(&data);
        while let Some(end) = event_end(&buffer) {
            let event: Vec<u8> = buffer.drain(..end + 2).collect();
            let mut lines = event.split(|&b| b == b'\n');
            if !lines.clone().any(|l| l == b"event: state") {
                continue;
            }
            events.fetch_add(1, Ordering::Relaxed);
            let Some(data) = lines.find_map(|l| l.strip_prefix(b"data: ")) else {
                continue;
            };
            let Some(version) = version_of(data) else {
                continue;
            };
            sent.heard(&id, version);
            // The page's way: each event is the state as this seat sees it.
            if let Ok(mut h) = heard.lock() {
                *h = Some((version, data.to_vec()));
            }
        }
    }
}

/// What every player shares: the arguments, the clock, the counters, the tables' games and the
/// pool of connections.
struct Shared {
    args: Args,
    start: Instant,
    until: Instant,
    events: Arc<AtomicUsize>,
    sent: Arc<Sent>,
    tables: Vec<Table>,
    pool: Vec<tokio::sync::Mutex<Connections>>,
}

/// A player's game: its id, the seat's token, and the last state it knows.
struct Seat {
    id: String,
    token: String,
    /// The latest state known (`View::default()` when none is: it is read before acting).
    state: View,
    /// The state the live-update stream last brought (with `--streams`).
    heard: Heard,
    /// Whether a stream brings the states: else a seat that waits reads the state itself.
    streaming: bool,
}

impl Seat {
    /// The newest state known: the last answer's, or a newer one from the stream.
    fn latest(&mut self) -> &View {
        let newer = self.heard.lock().ok().and_then(|mut h| h.take());
        if let Some((version, text)) = newer
            && Some(version) > self.state.version
            && let Ok(state) = serde_json::from_slice(&text)
        {
            self.state = state;
        }
        &self.state
    }
}

/// One request to make: its method, path, token, body, what it is, and the version of the
/// game it makes (for the streams' delays).
struct Ask {
    method: Method,
    path: String,
    token: Option<String>,
    body: String,
    what: &'static str,
    makes: Option<(String, u64)>,
    /// The game a join is for.
    joining: Option<String>,
}

/// One player: games one after another, an action every `every` from `start`.
async fn person(n: usize, shared: Arc<Shared>) -> Tally {
    let args = &shared.args;
    let table_size = usize::from(args.table);
    let (table, host) = (&shared.tables[n / table_size], n.is_multiple_of(table_size));
    let mut tally = Tally::default();
    let mut own = Connections::new(args.addr.clone());
    let every = Duration::from_millis(args.every);
    // Each person's own phase within the period.
    let phase = Duration::from_micros((n as u64 * 7_919_000) % (args.every * 1000).max(1));
    let mut tick = 0u32;
    let mut request = n;
    let mut seat: Option<Seat> = None;
    let mut last_game: Option<String> = None;
    // The player's own sequence for its waits after a 503 (with `--back-off`).
    let mut backoffs = n as u64;
    loop {
        let scheduled = shared.start + phase + every * tick;
        tick += 1;
        if scheduled >= shared.until {
            return tally;
        }
        tokio::time::sleep_until(scheduled.into()).await;
        let server = if args.round_robin {
            request += 1;
            request
        } else {
            n
        };
        let Some(ask) = next_ask(
            n,
            tally.games,
            table_size,
            host,
            table,
            &mut seat,
            &last_game,
        ) else {
            continue; // waiting: for the table's game, the lobby's start, or the others' round
        };
        if let Some((game, version)) = &ask.makes {
            shared.sent.record(game, *version, Instant::now());
        }
        // A shared connection of the pool, else the player's own.
        let mut pooled = match shared.pool.get(n % shared.pool.len().max(1)) {
            Some(p) => Some(p.lock().await),
            None => None,
        };
        let connections = match pooled.as_deref_mut() {
            Some(c) => c,
            None => &mut own,
        };
        let answer = connections
            .call(
                server,
                ask.method,
                &ask.path,
                ask.token.as_deref(),
                ask.body,
            )
            .await;
        drop(pooled);
        let took = scheduled.elapsed();
        let Some((status, bytes, retry_after)) = answer else {
            tally.broken += 1;
            continue;
        };
        if status == StatusCode::SERVICE_UNAVAILABLE {
            tally.busy_latencies.push(took);
            if args.back_off {
                // The next action after the wait asked for, and up to half as long again, as
                // the pages wait (so that those refused together do not come back together).
                backoffs = backoffs
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let stretch = 1.0 + (backoffs >> 40) as f64 / (1u64 << 24) as f64 * 0.5;
                let asked = Duration::from_secs(retry_after.unwrap_or(1));
                let resume = Instant::now() + asked.mul_f64(stretch);
                while shared.start + phase + every * tick < resume {
                    tick += 1;
                }
            }
        } else {
            tally.latencies.push((
                window(scheduled.saturating_duration_since(shared.start)),
                took,
            ));
        }
        let value: View = if status.is_success() {
            serde_json::from_slice(&bytes).unwrap_or_default()
        } else {
            View::default()
        };
        let text = || String::from_utf8_lossy(&bytes).into_owned();
        match status.as_u16() {
            200 | 201 => {
                tally.ok += 1;
                if matches!(ask.what, "place" | "end-round") {
                    tally.actions += 1;
                }
                match ask.what {
                    "create" | "join" => {
                        let id = match ask.what {
                            "create" => value.id,
                            _ => ask.joining.clone(),
                        };
                        let (Some(id), Some(token)) = (id, value.token) else {
                            continue;
                        };
                        if ask.what == "create" {
                            tally.games += 1;
                            if table_size > 1
                                && let Ok(mut g) = table.game.lock()
                            {
                                *g = Some(id.clone());
                            }
                        }
                        last_game = Some(id.clone());
                        let heard = Arc::new(Mutex::new(None));
                        if args.streams {
                            tokio::spawn(listen(
                                args.addr[n % args.addr.len()],
                                id.clone(),
                                token.clone(),
                                shared.events.clone(),
                                shared.sent.clone(),
                                heard.clone(),
                                shared.until + STREAMS_OUTLAST,
                            ));
                        }
                        seat = Some(Seat {
                            id,
                            token,
                            state: View::default(),
                            heard,
                            streaming: args.streams,
                        });
                    }
                    _ => {
                        if let Some(s) = &mut seat {
                            if value.finished {
                                seat = None;
                            } else if value.version >= s.state.version {
                                s.state = value;
                            }
                        }
                    }
                }
            }
            503 => {} // counted above, with its latency
            500..=599 => tally
                .failed
                .push(format!("{}: {status} {}", ask.what, text())),
            _ if matches!(ask.what, "place" | "end-round") => {
                tally
                    .refused
                    .push(format!("{}: {status} {}", ask.what, text()));
                // Go on from the game as it is.
                if let Some(s) = &mut seat {
                    s.state = View::default();
                }
            }
            // A join that came too late (the game began, or is full): wait for the next one.
            _ if ask.what == "join" => last_game = ask.joining.clone(),
            _ => {
                if let Some(s) = &mut seat {
                    s.state = View::default();
                }
            }
        }
    }
}

/// What a player does at its tick, if anything.
fn next_ask(
    n: usize,
    games: usize,
    table_size: usize,
    host: bool,
    table: &Table,
    seat: &mut Option<Seat>,
    last_game: &Option<String>,
) -> Option<Ask> {
    let Some(s) = seat else {
        if table_size == 1 || host {
            let body = if table_size == 1 {
                format!(
                    r#"{{"mode":"solo","seed":{}}}"#,
                    n as u64 * 1_000_000 + games as u64
                )
            } else {
                format!(r#"{{"mode":"online","name":"P{n}"}}"#)
            };
            return Some(Ask {
                method: Method::POST,
                path: "/api/ink/games".into(),
                token: None,
                body,
                what: "create",
                makes: None,
                joining: None,
            });
        }
        // A guest joins the table's game once there is a new one.
        let game = table.game.lock().ok()?.clone()?;
        if last_game.as_deref() == Some(game.as_str()) {
            return None;
        }
        return Some(Ask {
            method: Method::POST,
            path: format!("/api/ink/games/{game}/join"),
            token: None,
            body: format!(r#"{{"name":"P{n}"}}"#),
            what: "join",
            makes: None,
            joining: Some(game),
        });
    };
    let (id, token) = (s.id.clone(), Some(s.token.clone()));
    let streaming = s.streaming;
    let state = s.latest();
    let version = state.version;
    let read = || Ask {
        method: Method::GET,
        path: format!("/api/ink/games/{id}"),
        token: token.clone(),
        body: String::new(),
        what: "read",
        makes: None,
        joining: None,
    };
    // No state yet (just seated, or after a refusal): read it.
    let Some(version) = version else {
        return Some(read());
    };
    // An action of the seat's (`start`, `place`, `end-round`), which makes the next version.
    let act = |what: &'static str, body: String| Ask {
        method: Method::POST,
        path: format!("/api/ink/games/{id}/{what}"),
        token: token.clone(),
        body,
        what,
        makes: Some((id.clone(), version + 1)),
        joining: None,
    };
    if state.finished {
        *seat = None;
        return None;
    }
    if state.started == Some(false) {
        // The host starts once every seat is taken; the others wait for the start.
        if host && state.players.len() == table_size {
            return Some(act("start", String::new()));
        }
        return (!streaming).then(read);
    }
    if state.you.as_ref().is_some_and(|y| y.round_done) {
        // The others have not ended the round: the stream will say when they have.
        return (!streaming).then(read);
    }
    Some(match first_legal(state) {
        Some(p) => act("place", format!(r#"{{"placement":"{p}"}}"#)),
        None => act("end-round", String::new()),
    })
}

/// The CPU this process has used, from `/proc/self/stat` (Linux; `None` elsewhere): a
/// generator that uses most of its core measures itself more than the server.
fn own_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(") ")?.1;
    let mut fields = rest.split(' ').skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    // Clock ticks of 1/100 s, as on every Linux this runs on.
    Some(Duration::from_millis((user + system) * 10))
}

/// How long the streams stay open after the last action: its events are heard, and the
/// streams' closing does not land on the run's last answers.
const STREAMS_OUTLAST: Duration = Duration::from_secs(3);

/// The 5-second window of the run a moment `since` its start falls in.
fn window(since: Duration) -> usize {
    (since.as_secs() / 5) as usize
}

/// The 99th percentile of each 5-second window, in milliseconds: "12/3.4/2.1".
fn windows_p99(windowed: &[(usize, Duration)]) -> String {
    let count = windowed.iter().map(|&(w, _)| w + 1).max().unwrap_or(0);
    let mut each = vec![Vec::new(); count];
    for &(w, d) in windowed {
        each[w].push(d);
    }
    each.iter_mut()
        .map(|ds| {
            ds.sort();
            format!("{:.1}", percentile(ds, 0.99))
        })
        .collect::<Vec<_>>()
        .join("/")
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
    let args = Args::parse();
    let start = Instant::now() + Duration::from_millis(200);
    let until = start + Duration::from_secs(args.seconds);
    let events = Arc::new(AtomicUsize::new(0));
    let sent = Arc::new(Sent {
        start,
        at: Mutex::default(),
        delays: Mutex::default(),
    });
    let tables = (0..args.players.div_ceil(usize::from(args.table)))
        .map(|_| Table::default())
        .collect();
    let pool = (0..args.pool)
        .map(|_| tokio::sync::Mutex::new(Connections::new(args.addr.clone())))
        .collect();
    let shared = Arc::new(Shared {
        args,
        start,
        until,
        events: events.clone(),
        sent: sent.clone(),
        tables,
        pool,
    });
    let args = &shared.args;
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new(args.seconds);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{elapsed} [{bar:30}] {pos}/{len} s {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let tasks: Vec<_> = (0..args.players)
        .map(|n| tokio::spawn(person(n, shared.clone())))
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
        all.busy_latencies.extend(t.busy_latencies);
        all.ok += t.ok;
        all.actions += t.actions;
        all.refused.extend(t.refused);
        all.failed.extend(t.failed);
        all.broken += t.broken;
        all.games += t.games;
    }
    let mut latencies: Vec<_> = all.latencies.iter().map(|&(_, d)| d).collect();
    latencies.sort();
    all.busy_latencies.sort();
    let sent_all = latencies.len() + all.busy_latencies.len();
    let secs = args.seconds as f64;
    let busy = if all.busy_latencies.is_empty() {
        String::new()
    } else {
        format!(
            " (from the scheduled time p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms)",
            percentile(&all.busy_latencies, 0.5),
            percentile(&all.busy_latencies, 0.99),
            percentile(&all.busy_latencies, 1.0),
        )
    };
    println!(
        "{} players{}, an action every {} ms, {} s, {} server(s){}{}: {} requests ({:.0}/s), {} games, {} actions taken ({:.0}/s); answers other than 503 from the scheduled time p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms (p99 by 5 s of the run: {} ms); {} ok, {} busy (503){busy}, {} refused legal actions, {} failed (5xx), {} broken connections{}{}",
        args.players,
        if args.table > 1 {
            format!(" at tables of {}", args.table)
        } else {
            String::new()
        },
        args.every,
        args.seconds,
        args.addr.len(),
        if args.round_robin { " round-robin" } else { "" },
        if args.back_off {
            ", backing off as Retry-After asks"
        } else {
            ""
        },
        sent_all,
        sent_all as f64 / secs,
        all.games,
        all.actions,
        all.actions as f64 / secs,
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.9),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        windows_p99(&all.latencies),
        all.ok,
        all.busy_latencies.len(),
        all.refused.len(),
        all.failed.len(),
        all.broken,
        if args.streams {
            let windowed = sent.delays.lock().map(|d| d.clone()).unwrap_or_default();
            let mut delays: Vec<_> = windowed.iter().map(|&(_, d)| d).collect();
            delays.sort();
            format!(
                ", {} live-update events heard, {} after an action of this run: from its sending p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (p99 by 5 s of the run: {} ms)",
                events.load(Ordering::Relaxed),
                delays.len(),
                percentile(&delays, 0.5),
                percentile(&delays, 0.99),
                percentile(&delays, 1.0),
                windows_p99(&windowed),
            )
        } else {
            String::new()
        },
        own_cpu().map_or(String::new(), |cpu| format!(
            "; the generator's CPU {:.1} s",
            cpu.as_secs_f64()
        )),
    );
    for line in all.refused.iter().chain(&all.failed).take(5) {
        eprintln!("  {line}");
    }
    if args.check && (!all.refused.is_empty() || !all.failed.is_empty() || all.broken > 0) {
        return std::process::ExitCode::FAILURE;
    }
    let over = |limit: Option<f64>, sorted: &[Duration], p: f64, what: &str| {
        let took = percentile(sorted, p);
        let over = limit.is_some_and(|limit| took > limit);
        if over {
            eprintln!("{what} took {took:.1} ms, over the limit asked for");
        }
        over
    };
    let slow = over(
        args.max_p99,
        &latencies,
        0.99,
        "the answers other than 503 (p99)",
    );
    let slow_busy = over(args.max_busy, &all.busy_latencies, 1.0, "the slowest 503");
    if slow || slow_busy {
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
