//! What the tests of the binary share: running it on the command line, and the game server
//! as a real process (started on a database, called over plain HTTP/1.1, killed with SIGKILL).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// Runs the binary; returns (exit status, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    {
        let mut pipe = child.stdin.take().unwrap();
        if let Some(input) = stdin {
            pipe.write_all(input.as_bytes()).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every line of the output, as JSON.
pub fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Plays every game in a thread of its own as fast as it can (`step` sends a game's next action
/// to the server at the address and returns the answer), SIGKILLs the server after a moment, and
/// returns the last state each game was answered with (`None` if none was). A game stops at
/// its end or when the server is gone; any other answer than 200 fails the test.
pub fn last_answers_before_kill<G: Send + 'static>(
    server: Server,
    games: Vec<G>,
    step: fn(&str, &mut G) -> std::io::Result<(u16, Value)>,
) -> Vec<Option<Value>> {
    let stop = Arc::new(AtomicBool::new(false));
    let threads: Vec<_> = games
        .into_iter()
        .map(|mut game| {
            let addr = server.addr.clone();
            let stop = stop.clone();
            thread::spawn(move || {
                let mut last: Option<Value> = None;
                while !stop.load(Ordering::Relaxed) {
                    match step(&addr, &mut game) {
                        Ok((200, v)) if v["finished"] == true => break,
                        Ok((200, v)) => last = Some(v),
                        Ok((status, v)) => panic!("{status}: {v}"),
                        Err(_) => break, // the server is gone
                    }
                }
                last
            })
        })
        .collect();
    thread::sleep(Duration::from_millis(400));
    server.kill();
    stop.store(true, Ordering::Relaxed);
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// A server process and the address it printed.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts on `db`: a SQLite file's path or a `postgres://` URL.
    pub fn start(db: impl AsRef<std::ffi::OsStr>) -> Server {
        Server::start_with_env(db, &[])
    }

    /// Starts with more environment variables (`TRACKLAYER_NOW`, say).
    pub fn start_with_env(db: impl AsRef<std::ffi::OsStr>, env: &[(&str, &str)]) -> Server {
        // TRACKLAYER_BIN runs another build of the server (to compare two under the soak).
        let bin = std::env::var_os("TRACKLAYER_BIN")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_tracklayer").into());
        let mut child = Command::new(bin)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .env("TRACKLAYER_LOG", "warn")
            // A debug build on a machine busy with other tests waits for its core far longer
            // than a release one serving players: no shedding here (it has its own tests,
            // and `.ci/run` overloads the release binary).
            .env("TRACKLAYER_QUEUE_WAIT", "0")
            .env("TRACKLAYER_MAX_IN_FLIGHT", "0")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("it prints where it serves");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, addr }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    pub fn call(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
        call(&self.addr, method, path, token, body).expect("the server answers")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on its own connection.
pub fn call(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> std::io::Result<(u16, Value)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no header end in {text:?}")))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {head:?}")))?;
    let value = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).map_err(std::io::Error::other)?
    };
    Ok((status, value))
}

/// A database path of its own in the temporary directory.
pub fn temp_db(name: &str) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!(
        "tracklayer-{name}-{}-{nanos}.sqlite",
        std::process::id()
    ))
}

/// Removes a database and its write-ahead log.
pub fn remove_db(db: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Plays up to `rounds` rounds of the asking seat of a Railroad Ink game at `game` (its API
/// path): the engine's first full move for each roll, then the round's end. Stops early once
/// the game is over.
pub fn play_ink_rounds(server: &Server, game: &str, token: &str, rounds: usize) {
    use railroad_ink::{Board, Roll, generate_move};
    for _ in 0..rounds {
        let (_, s) = server.call("GET", game, Some(token), "");
        if s["finished"] == true {
            return;
        }
        let roll: Roll = s["roll"].as_str().unwrap().parse().unwrap();
        let seat = s["you"]["seat"].as_u64().unwrap() as usize;
        let board: Board = s["players"][seat]["board"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        for placement in generate_move(&board, &roll) {
            let body = serde_json::json!({ "placement": placement.to_string() }).to_string();
            let (status, v) = server.call("POST", &format!("{game}/place"), Some(token), &body);
            assert_eq!(status, 200, "{v}");
        }
        let (status, v) = server.call("POST", &format!("{game}/end-round"), Some(token), "");
        assert_eq!(status, 200, "{v}");
    }
}
