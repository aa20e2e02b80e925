//! Soak: the real server under steady mixed traffic for a long while: people playing Railroad
//! Ink (solo and against the computer) and Metro against computers, a move about every 300 ms
//! each, spectators opening and closing live-update streams, hints. Every minute it prints the
//! server's memory and the minute's p99; at the end, nothing answered may be missing, and the
//! memory must be within 10% of what it was after the first fifth of the run.
//!
//! Run by hand (the figures in `docs/public.md`): `SOAK_MINUTES=30 cargo test --release -p
//! tracklayer --test soak -- --ignored --nocapture`.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::{Server, call, remove_db, temp_db};
use serde_json::{Value, json};

fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Log {
    /// (when, latency) of every action.
    actions: Vec<(Instant, Duration)>,
    /// Each game's last answered version.
    answered: Vec<(String, &'static str, String, u64)>,
    errors: Vec<String>,
}

fn timed(
    log: &Mutex<Log>,
    addr: &str,
    method: &str,
    path: &str,
    token: &str,
    body: &str,
) -> Option<Value> {
    let t = Instant::now();
    match call(addr, method, path, Some(token), body) {
        Ok((200, v)) => {
            log.lock().unwrap().actions.push((t, t.elapsed()));
            Some(v)
        }
        Ok((status, v)) => {
            log.lock()
                .unwrap()
                .errors
                .push(format!("{method} {path}: {status} {v}"));
            None
        }
        Err(e) => {
            log.lock()
                .unwrap()
                .errors
                .push(format!("{method} {path}: {e}"));
            None
        }
    }
}

/// One person: plays game after game, a move every 300 ms, until told to stop.
fn person(addr: String, n: usize, stop: Arc<AtomicBool>, log: Arc<Mutex<Log>>) {
    let pace = Duration::from_millis(300);
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let metro = n % 3 == 2;
        let (kind, body) = if metro {
            (
                "metro",
                json!({"players": [{"kind": "human", "name": format!("P{n}")}, {"kind": "computer", "level": "greedy"}, {"kind": "computer", "level": "strong"}]}),
            )
        } else if n % 3 == 1 {
            (
                "ink",
                json!({"mode": "computer", "agent": "strong", "name": format!("P{n}")}),
            )
        } else {
            ("ink", json!({"mode": "solo", "name": format!("P{n}")}))
        };
        let Ok((201, made)) = call(
            &addr,
            "POST",
            &format!("/api/{kind}/games"),
            None,
            &body.to_string(),
        ) else {
            log.lock().unwrap().errors.push(format!("create {kind}"));
            thread::sleep(Duration::from_secs(1));
            continue;
        };
        let id = made["id"].as_str().unwrap().to_owned();
        let token = if metro {
            made["seats"][0]["token"].as_str()
        } else {
            made["token"].as_str()
        }
        .unwrap()
        .to_owned();
        let path = format!("/api/{kind}/games/{id}");
        let mut last: Option<u64> = None;
        let started = Instant::now();
        while !stop.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(600) {
            thread::sleep(pace);
            let Ok((200, s)) = call(&addr, "GET", &path, Some(&token), "") else {
                continue;
            };
            if s["finished"] == true {
                break;
            }
            let answer = if metro {
                if s["you"]["your_turn"] != true {
                    continue;
                }
                match s["you"]["legal"].as_str() {
                    Some(l) if l.len() >= 2 => timed(
                        &log,
                        &addr,
                        "POST",
                        &format!("{path}/place"),
                        &token,
                        &format!(r#"{{"square":"{}"}}"#, &l[..2]),
                    ),
                    _ => timed(&log, &addr, "POST", &format!("{path}/draw"), &token, ""),
                }
            } else {
                if s["you"]["round_done"] == true {
                    continue;
                }
                let next = s["you"]["dice"].as_array().unwrap().iter().find_map(|d| {
                    if d["used"] == true {
                        return None;
                    }
                    d["legal"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .enumerate()
                        .find_map(|(o, sq)| {
                            let sq = sq.as_str().unwrap();
                            (sq.len() >= 2)
                                .then(|| format!("{}{}{o}", d["tile"].as_str().unwrap(), &sq[..2]))
                        })
                });
                if round.is_multiple_of(5) && next.is_some() && s["you"]["dice"][0]["used"] == false
                {
                    // Now and then a hint first.
                    timed(&log, &addr, "GET", &format!("{path}/hint"), &token, "");
                }
                match next {
                    Some(p) => timed(
                        &log,
                        &addr,
                        "POST",
                        &format!("{path}/place"),
                        &token,
                        &format!(r#"{{"placement":"{p}"}}"#),
                    ),
                    None => timed(
                        &log,
                        &addr,
                        "POST",
                        &format!("{path}/end-round"),
                        &token,
                        "",
                    ),
                }
            };
            if let Some(v) = answer {
                last = v["version"].as_u64().or(last);
            }
        }
        if let Some(version) = last {
            log.lock()
                .unwrap()
                .answered
                .push((id, kind, token, version));
        }
    }
}

/// A spectator: opens a game's live updates, reads a little, hangs up, again and again.
fn spectator(addr: String, stop: Arc<AtomicBool>, log: Arc<Mutex<Log>>) {
    let mut i = 0usize;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let game = {
            let l = log.lock().unwrap();
            l.answered
                .get(i % l.answered.len().max(1))
                .map(|g| (g.0.clone(), g.1))
        };
        let Some((id, kind)) = game else {
            thread::sleep(Duration::from_secs(1));
            continue;
        };
        if let Ok(mut s) = TcpStream::connect(&addr) {
            let _ = write!(
                s,
                "GET /api/{kind}/games/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n"
            );
            let _ = s.set_read_timeout(Some(Duration::from_millis(1500)));
            let mut buf = [0u8; 2048];
            let _ = s.read(&mut buf);
        }
        thread::sleep(Duration::from_millis(100));
    }
}

#[test]
#[ignore = "a long run, by hand: see the module's doc"]
fn steady_mixed_traffic_keeps_memory_and_loses_nothing() {
    let minutes: f64 = std::env::var("SOAK_MINUTES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30.0);
    let db = temp_db("soak");
    let no_limits = [
        ("TRACKLAYER_RATE_GAMES", "0"),
        ("TRACKLAYER_RATE_HINTS", "0"),
        ("TRACKLAYER_MAX_STREAMS", "0"),
    ];
    let server = Server::start_with_env(&db, &no_limits);
    let pid = server.pid();
    let addr = server.addr.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let log = Arc::new(Mutex::new(Log::default()));
    let mut threads = Vec::new();
    for n in 0..12 {
        let (a, s, l) = (addr.clone(), stop.clone(), log.clone());
        threads.push(thread::spawn(move || person(a, n, s, l)));
    }
    for _ in 0..4 {
        let (a, s, l) = (addr.clone(), stop.clone(), log.clone());
        threads.push(thread::spawn(move || spectator(a, s, l)));
    }
    let started = Instant::now();
    let total = Duration::from_secs_f64(minutes * 60.0);
    let mark = total / 5;
    let mut at_mark = None;
    let mut minute = 0;
    while started.elapsed() < total {
        thread::sleep(Duration::from_secs(60).min(total.saturating_sub(started.elapsed())));
        minute += 1;
        let rss = rss_kb(pid);
        let in_memory = call(&addr, "GET", "/api/health", None, "")
            .map(|(_, v)| v["games_in_memory"].clone())
            .unwrap_or(Value::Null);
        if at_mark.is_none() && started.elapsed() >= mark {
            at_mark = Some(rss);
        }
        let l = log.lock().unwrap();
        let since = Instant::now() - Duration::from_secs(60);
        let mut recent: Vec<Duration> = l
            .actions
            .iter()
            .filter(|(t, _)| *t >= since)
            .map(|a| a.1)
            .collect();
        recent.sort();
        let p99 = recent
            .get(recent.len() * 99 / 100)
            .copied()
            .unwrap_or_default();
        println!(
            "soak minute {minute}: RSS {rss} kB, {in_memory} games in memory, {} actions this minute, p99 {p99:?}, {} games done, {} errors",
            recent.len(),
            l.answered.len(),
            l.errors.len()
        );
    }
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    let end_rss = rss_kb(pid);
    let l = log.lock().unwrap();
    // Nothing answered is missing.
    for (id, kind, token, version) in &l.answered {
        let (status, s) = call(
            &addr,
            "GET",
            &format!("/api/{kind}/games/{id}"),
            Some(token),
            "",
        )
        .unwrap();
        assert_eq!(status, 200);
        assert!(
            s["version"].as_u64().unwrap() >= *version,
            "game {id} lost answered actions"
        );
    }
    let mark_rss = at_mark.unwrap_or(end_rss);
    println!(
        "soak: {minutes} min, {} actions, {} games checked, RSS {mark_rss} kB after a fifth, {end_rss} kB at the end, {} errors",
        l.actions.len(),
        l.answered.len(),
        l.errors.len()
    );
    assert!(
        l.errors.is_empty(),
        "{:?}",
        &l.errors[..l.errors.len().min(5)]
    );
    assert!(
        end_rss as f64 <= mark_rss as f64 * 1.10,
        "memory grew from {mark_rss} kB to {end_rss} kB"
    );
    drop(server);
    remove_db(&db);
}
