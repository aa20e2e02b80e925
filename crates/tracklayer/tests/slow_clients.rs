//! Slow clients against a server short of file descriptors: 300 requests whose headers come a
//! line at a time, or whose body never comes, at a server whose file limit is 256. The server
//! closes every one of them, then answers at once.
//!
//! `SLOW_HEADER_TIMEOUT=10 cargo test -p tracklayer --test slow_clients -- --nocapture` runs it
//! with the default header timeout (the figures in `docs/public.md`); the suite uses 2 s to
//! stay quick.

mod common;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{call, remove_db, temp_db};

/// The header timeout the suite runs with, in seconds.
fn header_timeout() -> u64 {
    std::env::var("SLOW_HEADER_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2)
}

/// The real binary under `ulimit -n 256`, killed (and its database removed) when dropped.
struct Limited {
    child: Child,
    addr: String,
    db: PathBuf,
}

impl Limited {
    fn start(name: &str, timeout: u64) -> Limited {
        let db = temp_db(name);
        let script = format!(
            "ulimit -n 256 && exec \"$0\" serve --addr 127.0.0.1:0 --db \"$1\" --header-timeout {timeout}"
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_tracklayer"))
            .arg(&db)
            .env("TRACKLAYER_LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap()
            .to_owned();
        Limited { child, addr, db }
    }
}

impl Drop for Limited {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        remove_db(&self.db);
    }
}

#[test]
fn half_sent_requests_are_all_closed_and_the_server_answers() {
    let timeout = header_timeout();
    let server = Limited::start("slow", timeout);
    let addr = &server.addr;

    let started = Instant::now();
    let mut open: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /api/health HTTP/1.1\r\n").unwrap();
            s.set_nonblocking(true).unwrap();
            s
        })
        .collect();
    let mut tick = 0;
    while !open.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} connections still open after 30 s",
            open.len()
        );
        std::thread::sleep(Duration::from_millis(250));
        tick += 1;
        let send = tick % 4 == 0; // a header line every second
        open.retain_mut(|s| {
            let mut buf = [0u8; 512];
            match s.read(&mut buf) {
                Ok(0) => return false,
                Ok(_) => return false, // an answer (a 408 or the like) and the close
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => return false,
            }
            !(send
                && s.write_all(format!("x-slow-{tick}: 1\r\n").as_bytes())
                    .is_err())
        });
    }
    let all_closed = started.elapsed();
    let t = Instant::now();
    let (status, v) = call(addr, "GET", "/api/health", None, "").expect("an answer");
    let health = t.elapsed();
    println!(
        "300 half-sent requests, file limit 256, header timeout {timeout} s: all closed in {all_closed:?}; then /api/health in {health:?}"
    );
    assert_eq!(status, 200, "{v}");
    assert!(health < Duration::from_secs(1), "{health:?}");
}

/// 300 requests whose headers are complete but whose body never comes: each is closed once the
/// header timeout has passed since its headers, and the server answers at once after.
#[test]
fn held_bodies_are_all_closed_and_the_server_answers() {
    let timeout = header_timeout();
    let server = Limited::start("slow-body", timeout);
    let addr = &server.addr;

    // `POST /api/ink/check` reads its body before anything else (and is not rate-limited), so
    // every one of these is held by the server waiting for the 100 bytes promised.
    let started = Instant::now();
    let mut open: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(
                b"POST /api/ink/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"board\":",
            )
            .unwrap();
            s.set_nonblocking(true).unwrap();
            s
        })
        .collect();
    let mut answered = 0;
    while !open.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{} connections still open after 30 s",
            open.len()
        );
        std::thread::sleep(Duration::from_millis(100));
        open.retain_mut(|s| {
            let mut buf = [0u8; 512];
            loop {
                match s.read(&mut buf) {
                    Ok(0) => return false,
                    Ok(_) => answered += 1, // an answer (a 400): the close follows
                    Err(e) if e.kind() == ErrorKind::WouldBlock => return true,
                    Err(_) => return false,
                }
            }
        });
    }
    let all_closed = started.elapsed();
    let t = Instant::now();
    let (status, v) = call(addr, "GET", "/api/health", None, "").expect("an answer");
    let health = t.elapsed();
    println!(
        "300 held bodies, file limit 256, header timeout {timeout} s: all closed in {all_closed:?} ({answered} answered, a 400, before the close); then /api/health in {health:?}"
    );
    assert!(
        all_closed >= Duration::from_secs(timeout) - Duration::from_millis(300),
        "closed before the timeout: {all_closed:?}"
    );
    assert_eq!(status, 200, "{v}");
    assert!(health < Duration::from_secs(1), "{health:?}");
}

/// Past its file limit the server closes new connections at once (never leaves them hanging),
/// keeps answering the ones it has, and recovers by itself once some close.
#[test]
fn past_its_open_files_new_connections_are_refused_at_once_and_it_recovers() {
    let server = Limited::start("files", 60);
    let addr = &server.addr;
    let (mut held, mut refused, mut hung) = (Vec::new(), 0, 0);
    let mut slowest_refusal = Duration::ZERO;
    for _ in 0..300 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
        let asked = Instant::now();
        let _ = s.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n");
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            Ok(n) if n > 0 && buf.starts_with(b"HTTP/1.1 200") => held.push(s),
            Ok(_) => {
                refused += 1;
                slowest_refusal = slowest_refusal.max(asked.elapsed());
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => hung += 1,
            Err(_) => {
                refused += 1;
                slowest_refusal = slowest_refusal.max(asked.elapsed());
            }
        }
    }
    println!(
        "{} connections held, {refused} refused (the slowest in {slowest_refusal:?}), {hung} left hanging",
        held.len()
    );
    assert_eq!(hung, 0, "no connection is left hanging");
    assert!(
        refused > 0 && held.len() > 100,
        "{} held, {refused} refused",
        held.len()
    );
    assert!(
        slowest_refusal < Duration::from_secs(1),
        "{slowest_refusal:?}"
    );
    // The connections it has are still answered.
    let s = held.last_mut().unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n")
        .unwrap();
    let mut buf = [0u8; 512];
    let n = s.read(&mut buf).unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    // Once they close, new ones are answered again.
    drop(held);
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = call(addr, "GET", "/api/health", None, "").unwrap();
    assert_eq!(status, 200);
}
