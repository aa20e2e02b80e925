//! The game through nginx, configured by the sample site in `deploy/nginx/tracklayer.conf`
//! (only its upstream servers and `listen` lines are replaced), in front of `tracklayer serve`
//! processes started as `deploy/systemd/tracklayer@.service` starts them: an online Railroad Ink
//! game with two seats, a live-update stream that passes each event on at once, rounds played to
//! their end, and `X-Forwarded-For` as nginx sets it.
//!
//! nginx is `/usr/sbin/nginx` (Debian's package), or `TRACKLAYER_NGINX`. Without it the test
//! says it was skipped and passes, unless `TRACKLAYER_REQUIRE_NGINX=1` (as `.ci/run` sets).

mod common;

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::call;
use serde_json::Value;

/// The sample site, as deployed.
const SITE: &str = include_str!("../../../deploy/nginx/tracklayer.conf");

/// How long a change may take to reach a live-update stream through nginx.
const LIVE: Duration = Duration::from_secs(1);

/// A directory of its own, removed at the end.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path =
            std::env::temp_dir().join(format!("tracklayer-{name}-{}-{nanos}", std::process::id()));
        fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The nginx binary, if installed.
fn nginx_binary() -> Option<PathBuf> {
    let path = std::env::var_os("TRACKLAYER_NGINX")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/sbin/nginx"));
    path.is_file().then_some(path)
}

/// The sample site with its upstream servers replaced by `upstreams` (`host:port` each) and
/// its `listen` lines by one on 127.0.0.1:`port`. Fails if the sample no longer has the lines
/// it is expected to have (then this test would not be testing the sample).
fn site(upstreams: &[String], port: u16) -> Result<String, String> {
    let mut out = String::new();
    let (mut servers, mut listens) = (0, 0);
    let mut in_upstream = false;
    for line in SITE.lines() {
        let code = line.split('#').next().unwrap_or("").trim();
        if code.starts_with("upstream ") {
            in_upstream = true;
        } else if in_upstream && code == "}" {
            in_upstream = false;
        }
        if in_upstream && code.starts_with("server ") {
            if servers == 0 {
                for u in upstreams {
                    out.push_str(&format!("    server {u};\n"));
                }
            }
            servers += 1;
            continue;
        }
        if code.starts_with("listen ") {
            if listens == 0 {
                out.push_str(&format!("    listen 127.0.0.1:{port};\n"));
            }
            listens += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if servers == 0 || listens == 0 {
        return Err(format!(
            "deploy/nginx/tracklayer.conf has {servers} upstream server lines and {listens} \
             listen lines: the test needs at least one of each"
        ));
    }
    Ok(out)
}

/// A `tracklayer serve` process, as the sample unit starts it.
struct Process {
    child: Child,
    addr: String,
}

impl Process {
    fn start(db: &str) -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                db,
                "--trust-proxy",
            ])
            .env("TRACKLAYER_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_owned);
        match addr {
            Some(addr) => Process { child, addr },
            None => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("tracklayer serve --db {db} did not start: it printed {line:?}");
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx running in the foreground, with everything it writes in a directory of the test's.
struct Nginx {
    child: Child,
    addr: String,
    _dir: TempDir,
}

impl Nginx {
    /// Starts nginx in front of `upstreams` on a free port of 127.0.0.1.
    fn start(binary: &Path, upstreams: &[String]) -> Nginx {
        let mut last_error = String::new();
        // A free port may be taken between finding it and nginx binding it: try again then.
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let dir = TempDir::new("nginx");
            let site = site(upstreams, port).unwrap_or_else(|e| panic!("{e}"));
            let conf = main_config(binary, &dir.0, &site);
            let conf_path = dir.0.join("nginx.conf");
            fs::write(&conf_path, conf).expect("nginx.conf written");
            let error_log = dir.0.join("error.log");
            let mut child = Command::new(binary)
                .arg("-p")
                .arg(&dir.0)
                .arg("-e")
                .arg(&error_log)
                .arg("-c")
                .arg(&conf_path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("{} does not start: {e}", binary.display()));
            let addr = format!("127.0.0.1:{port}");
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                if let Ok(Some(_)) = child.try_wait() {
                    let mut stderr = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        let _ = e.read_to_string(&mut stderr);
                    }
                    last_error = format!(
                        "{stderr}{}",
                        fs::read_to_string(&error_log).unwrap_or_default()
                    );
                    break;
                }
                if TcpStream::connect(&addr).is_ok() {
                    return Nginx {
                        child,
                        addr,
                        _dir: dir,
                    };
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("nginx does not listen on {addr} after 10 s");
                }
                thread::sleep(Duration::from_millis(20));
            }
            if !last_error.contains("in use") {
                break;
            }
        }
        panic!("nginx does not start:\n{last_error}");
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers (SIGKILL would leave them running).
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx.conf for a run as the current user: in the foreground, every file in `dir`, the site
/// in its http {} as Debian's nginx.conf would include it.
fn main_config(binary: &Path, dir: &Path, site: &str) -> String {
    // Quoted in the configuration, in case the path has spaces.
    let d = dir.display().to_string().replace('"', "\\\"");
    // The temporary files of the modules compiled in (Debian's nginx-light has them all; a
    // build without one refuses its directive).
    let built = Command::new(binary)
        .arg("-V")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .unwrap_or_default();
    let mut temp_paths = format!(
        "    client_body_temp_path \"{d}/client_body\";\n    proxy_temp_path \"{d}/proxy\";\n"
    );
    for module in ["fastcgi", "uwsgi", "scgi"] {
        if !built.contains(&format!("--without-http_{module}_module")) {
            temp_paths.push_str(&format!("    {module}_temp_path \"{d}/{module}\";\n"));
        }
    }
    format!(
        "daemon off;\nworker_processes 1;\npid \"{d}/nginx.pid\";\nerror_log \"{d}/error.log\" warn;\n\
         events {{\n    worker_connections 256;\n}}\n\
         http {{\n    access_log \"{d}/access.log\";\n{temp_paths}\n{site}}}\n"
    )
}

/// A game's live updates, read through nginx on a thread of their own: each `state` event's
/// version is sent on the channel as it arrives.
struct Events {
    versions: mpsc::Receiver<u64>,
    headers: String,
}

impl Events {
    fn open(addr: &str, path: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("nginx accepts");
        stream.set_nodelay(true).expect("nodelay");
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\
             Accept-Encoding: gzip, deflate, br\r\nCache-Control: no-cache\r\n\r\n"
        )
        .expect("request sent");
        let mut reader = BufReader::new(stream);
        let mut headers = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("response headers");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            headers.push_str(&line);
        }
        let chunked = headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        let (send, versions) = mpsc::channel();
        thread::spawn(move || read_events(reader, chunked, send));
        Events { versions, headers }
    }

    fn header(&self, name: &str) -> Option<String> {
        self.headers.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_owned())
        })
    }

    /// Waits up to `wait` for an event of at least `version`; the version that came.
    fn until(&self, version: u64, wait: Duration) -> Option<u64> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.versions.recv_timeout(left) {
                Ok(v) if v >= version => return Some(v),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }
}

/// Reads the body (chunked or not) and sends each `state` event's version; returns at its end.
fn read_events(mut reader: BufReader<TcpStream>, chunked: bool, send: mpsc::Sender<u64>) {
    let mut text = String::new();
    loop {
        let data = if chunked {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                return;
            }
            let hex = size.split(';').next().unwrap_or("").trim();
            let Ok(n) = usize::from_str_radix(hex, 16) else {
                return;
            };
            if n == 0 {
                return;
            }
            let mut data = vec![0; n + 2]; // the chunk and its CRLF
            if reader.read_exact(&mut data).is_err() {
                return;
            }
            data.truncate(n);
            data
        } else {
            let mut data = vec![0; 4096];
            match reader.read(&mut data) {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    data.truncate(n);
                    data
                }
            }
        };
        text.push_str(&String::from_utf8_lossy(&data));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            if !event.lines().any(|l| l == "event: state") {
                continue;
            }
            let version = event
                .lines()
                .find_map(|l| l.strip_prefix("data: "))
                .and_then(|d| serde_json::from_str::<Value>(d).ok())
                .and_then(|v| v["version"].as_u64());
            if let Some(v) = version
                && send.send(v).is_err()
            {
                return;
            }
        }
    }
}

/// One request on its own connection, with more header lines (`Name: value\r\n` each): the
/// answer's status and whole text.
fn raw(addr: &str, method: &str, path: &str, headers: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a read timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("request sent");
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, response)
}

/// Makes a player (a name of its own: names are unique) with `X-Forwarded-For: forwarded`:
/// the answer's status.
fn make_player(addr: &str, forwarded: &str) -> u16 {
    static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (status, response) = raw(
        addr,
        "POST",
        "/api/players",
        &format!("X-Forwarded-For: {forwarded}\r\n"),
        &format!(r#"{{"name":"P{n}"}}"#),
    );
    assert!(status == 201 || status == 429, "{response}");
    status
}

/// A request through nginx that must be answered `want`: its body.
fn expect(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
    want: u16,
) -> Value {
    let (status, v) = call(addr, method, path, token, body)
        .unwrap_or_else(|e| panic!("{method} {path} through nginx: {e}"));
    assert_eq!(status, want, "{method} {path}: {v}");
    v
}

/// The first legal die placement the seat's state offers, if any.
fn first_legal_die(state: &Value) -> Option<String> {
    for die in state["you"]["dice"].as_array()? {
        if die["used"] == true {
            continue;
        }
        for (orientation, legal) in die["legal"].as_array()?.iter().enumerate() {
            let squares = legal.as_str()?;
            if let Some(square) = squares.get(..2) {
                return Some(format!("{}{square}{orientation}", die["tile"].as_str()?));
            }
        }
    }
    None
}

/// The seat's next move: a placement, or the end of its round. `None` when its round is done.
fn next_move(addr: &str, game: &str, token: &str) -> Option<(String, String)> {
    let state = expect(
        addr,
        "GET",
        &format!("/api/ink/games/{game}"),
        Some(token),
        "",
        200,
    );
    if state["finished"] == true || state["you"]["round_done"] == true {
        return None;
    }
    Some(match first_legal_die(&state) {
        Some(p) => (
            format!("/api/ink/games/{game}/place"),
            format!(r#"{{"placement":"{p}"}}"#),
        ),
        None => (format!("/api/ink/games/{game}/end-round"), String::new()),
    })
}

/// Where the processes keep their games: (processes, `--db`).
fn databases(dir: &Path) -> (usize, String) {
    // With PostgreSQL (TRACKLAYER_TEST_PG names a server, see tests/processes.rs): two
    // processes on a fresh database of their own, as deploy/ runs them; nginx then sends the
    // two seats' requests and the stream to either process.
    match server::storage::fresh_test_database_blocking().expect("a PostgreSQL test database") {
        Some(server::Database::Postgres(url)) => (2, url),
        // A SQLite file serves one process only.
        _ => (1, dir.join("games.sqlite").display().to_string()),
    }
}

#[test]
fn an_online_game_is_played_live_through_nginx() {
    let Some(binary) = nginx_binary() else {
        if std::env::var("TRACKLAYER_REQUIRE_NGINX").as_deref() == Ok("1") {
            panic!(
                "nginx is not installed (/usr/sbin/nginx, or TRACKLAYER_NGINX) and TRACKLAYER_REQUIRE_NGINX=1"
            );
        }
        println!("skipped: nginx not installed");
        return;
    };
    let dir = TempDir::new("nginx-db");
    let (count, db) = databases(&dir.0);
    let processes: Vec<Process> = (0..count).map(|_| Process::start(&db)).collect();
    let upstreams: Vec<String> = processes.iter().map(|p| p.addr.clone()).collect();
    let nginx = Nginx::start(&binary, &upstreams);
    let addr = nginx.addr.as_str();

    let health = expect(addr, "GET", "/api/health", None, "", 200);
    assert_eq!(health["ok"], true, "{health}");
    // The page itself comes through too.
    let (status, page) = raw(addr, "GET", "/", "", "");
    assert_eq!(status, 200, "{page}");

    let created = expect(
        addr,
        "POST",
        "/api/ink/games",
        None,
        r#"{"mode":"online","seed":2024,"name":"Ann"}"#,
        201,
    );
    let game = created["id"].as_str().expect("an id").to_owned();
    let ann = created["token"].as_str().expect("a token").to_owned();
    let joined = expect(
        addr,
        "POST",
        &format!("/api/ink/games/{game}/join"),
        None,
        r#"{"name":"Bob"}"#,
        201,
    );
    let bob = joined["token"].as_str().expect("a token").to_owned();
    // Everyone is in: Ann starts the game from its lobby.
    expect(
        addr,
        "POST",
        &format!("/api/ink/games/{game}/start"),
        Some(&ann),
        "",
        200,
    );

    // Ann's page opens the game's stream; its first event is the state now.
    let events = Events::open(addr, &format!("/api/ink/games/{game}/events"));
    assert!(
        events.headers.starts_with("HTTP/1.1 200"),
        "{}",
        events.headers
    );
    assert_eq!(
        events.header("content-type").as_deref(),
        Some("text/event-stream")
    );
    // Like a browser, the stream asked for compression: it must not get it (gzip holds events
    // back until its buffer fills).
    assert_eq!(
        events.header("content-encoding"),
        None,
        "{}",
        events.headers
    );
    assert_eq!(
        events.header("x-accel-buffering").as_deref(),
        Some("no"),
        "{}",
        events.headers
    );
    let state = expect(
        addr,
        "GET",
        &format!("/api/ink/games/{game}"),
        None,
        "",
        200,
    );
    let start = state["version"].as_u64().expect("a version");
    let first_round = state["round"].as_u64().expect("a round");
    assert_eq!(events.until(start, Duration::from_secs(10)), Some(start));

    // Bob places a tile: Ann's stream has it within a second of the answer.
    let (path, body) = next_move(addr, &game, &bob).expect("Bob has a move");
    assert!(path.ends_with("/place"), "{path}");
    let placed = expect(addr, "POST", &path, Some(&bob), &body, 200);
    let version = placed["version"].as_u64().expect("a version");
    assert!(version > start);
    let answered = Instant::now();
    let got = events.until(version, LIVE);
    assert_eq!(
        got,
        Some(version),
        "the stream had no event of version {version} {:?} after Bob's placement",
        answered.elapsed()
    );

    // Both seats play their round out, taking turns; every change reaches the stream at once.
    let mut round = first_round;
    let mut moves = 0;
    while round == first_round {
        let mut moved = false;
        for token in [&ann, &bob] {
            let Some((path, body)) = next_move(addr, &game, token) else {
                continue;
            };
            let state = expect(addr, "POST", &path, Some(token), &body, 200);
            let version = state["version"].as_u64().expect("a version");
            assert_eq!(
                events.until(version, LIVE),
                Some(version),
                "no live update within {LIVE:?} after {path}"
            );
            round = state["round"].as_u64().expect("a round");
            moved = true;
            moves += 1;
            if round != first_round {
                break;
            }
        }
        assert!(moved, "neither seat can move, yet the round goes on");
        assert!(moves < 40, "the round does not end after {moves} moves");
    }
    assert_eq!(round, first_round + 1);
    for token in [&ann, &bob] {
        let state = expect(
            addr,
            "GET",
            &format!("/api/ink/games/{game}"),
            Some(token),
            "",
            200,
        );
        assert_eq!(
            state["round"].as_u64(),
            Some(first_round + 1),
            "the round changed for both seats: {}",
            state["round"]
        );
        assert_eq!(state["you"]["round_done"], false);
    }

    // X-Forwarded-For as nginx sets it: whatever a client writes there, nginx appends the
    // address it saw, and the processes count that one. Default limits: 5 new players a day
    // per address, per process.
    let limit = 5 * count;
    let refused = (0..=limit)
        .filter(|i| make_player(addr, &format!("198.51.100.{i}")) == 429)
        .count();
    assert!(
        refused > 0,
        "{} players made through nginx with forged X-Forwarded-For, none refused",
        limit + 1
    );
    drop(events);
    drop(nginx);
    drop(processes);
}

#[test]
fn the_sample_site_is_rewritten_only_where_the_test_must() {
    let upstreams = ["127.0.0.1:1".to_owned(), "127.0.0.1:2".to_owned()];
    let rewritten = site(&upstreams, 3).expect("the sample has upstream and listen lines");
    assert!(rewritten.contains("    server 127.0.0.1:1;\n    server 127.0.0.1:2;\n"));
    let listens: Vec<&str> = rewritten
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("listen "))
        .collect();
    assert_eq!(listens, ["listen 127.0.0.1:3;"]);
    for needed in [
        "proxy_buffering off;",
        "proxy_cache off;",
        "proxy_http_version 1.1;",
        "proxy_set_header Connection \"\";",
        "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
        "proxy_read_timeout 1h;",
        "location ~ ^/api/(ink|metro)/games/[^/]+/events$",
    ] {
        assert!(rewritten.contains(needed), "{needed}");
    }
    // Everything else is as in the sample.
    fn kept(s: &str) -> Vec<&str> {
        s.lines()
            .filter(|l| {
                let t = l.trim();
                !t.starts_with("listen ") && !t.starts_with("server 127.0.0.1:")
            })
            .collect()
    }
    assert_eq!(kept(&rewritten), kept(SITE));
}

#[test]
fn trust_proxy_makes_the_binary_count_the_forwarded_address() {
    let dir = TempDir::new("trust");
    let db = dir.0.join("games.sqlite").display().to_string();
    let process = Process::start(&db);
    // Directly, as nginx would call it: each forwarded address has 5 new players a day (and
    // 10 a minute).
    let make = |forwarded: &str| make_player(&process.addr, forwarded);
    for _ in 0..5 {
        assert_eq!(make("203.0.113.1"), 201);
    }
    assert_eq!(make("203.0.113.1"), 429);
    assert_eq!(make("198.51.100.9, 203.0.113.1"), 429);
    assert_eq!(make("203.0.113.1, 203.0.113.2"), 201);
}
