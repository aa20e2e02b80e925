//! Two `tracklayer serve` processes on one PostgreSQL database, as a deployment runs them:
//! an online Railroad Ink game with one seat on each process, each seeing the other's moves
//! live on its own event stream; a Metro game with a person on process 2 and a computer
//! seat created through process 1; one seat's conflicting actions sent to both at once
//! (exactly one wins, the other is refused by the rules, never a 5xx); then process 1 is
//! killed (SIGKILL) mid-game and every game is finished through process 2, computer seats
//! included, with every action either process answered still there.
//!
//! Needs a PostgreSQL server: `TRACKLAYER_TEST_PG=postgres://USER:PASSWORD@HOST:PORT/DB`
//! (a user who may create databases; each run makes its own). Without it the test says it
//! skipped, unless `TRACKLAYER_REQUIRE_PG=1` (as `.ci/run` sets).

mod common;

use std::io::{BufRead, BufReader, Write as _};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::Server;
use serde_json::{Value, json};

/// A fresh database on the test server, or `None` (skipped).
fn database() -> Option<String> {
    match server::storage::fresh_test_database_blocking().expect("a PostgreSQL test database") {
        Some(server::Database::Postgres(url)) => Some(url),
        Some(other) => panic!("not PostgreSQL: {other}"),
        None => {
            eprintln!("skipped: TRACKLAYER_TEST_PG is not set (no PostgreSQL server to test on)");
            None
        }
    }
}

/// A game's live updates, read as a browser's `EventSource` reads them.
struct Events {
    lines: BufReader<TcpStream>,
}

impl Events {
    fn open(server: &Server, path: &str) -> Events {
        let mut stream = TcpStream::connect(&server.addr).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            server.addr
        )
        .unwrap();
        let mut lines = BufReader::new(stream);
        let mut status = String::new();
        let started = Instant::now();
        while status.is_empty() && started.elapsed() < Duration::from_secs(5) {
            let _ = lines.read_line(&mut status);
        }
        assert!(status.contains(" 200 "), "{status}");
        Events { lines }
    }

    /// Waits (at most `within`) for an event announcing version `version` or later.
    fn wait_for_version(&mut self, version: u64, within: Duration) -> Duration {
        let started = Instant::now();
        let mut line = String::new();
        while started.elapsed() < within {
            line.clear();
            match self.lines.read_line(&mut line) {
                Ok(0) => panic!("the event stream ended"),
                Ok(_) => {
                    if let Some(data) = line.trim().strip_prefix("data:") {
                        let v: Value = serde_json::from_str(data.trim()).unwrap_or(Value::Null);
                        if v["version"].as_u64().is_some_and(|n| n >= version) {
                            return started.elapsed();
                        }
                    }
                }
                Err(_) => {} // a read timeout: look at the clock, read again
            }
        }
        panic!("no event for version {version} within {within:?}")
    }
}

fn ink_state(server: &Server, id: &str, token: Option<&str>) -> Value {
    let (status, v) = server.call("GET", &format!("/api/ink/games/{id}"), token, "");
    assert_eq!(status, 200, "{v}");
    v
}

/// Every legal placement of the first unused die: `tile square orientation`.
fn placements_of_first_die(state: &Value) -> Vec<String> {
    let Some(dice) = state["you"]["dice"].as_array() else {
        return Vec::new();
    };
    for die in dice {
        if die["used"] == true {
            continue;
        }
        let tile = die["tile"].as_str().unwrap();
        let mut out = Vec::new();
        for (o, legal) in die["legal"].as_array().unwrap().iter().enumerate() {
            let legal = legal.as_str().unwrap();
            for k in (0..legal.len()).step_by(2) {
                out.push(format!("{tile}{}{o}", &legal[k..k + 2]));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// The game as both processes show it, once they agree (each hears the other's changes
/// within a second).
fn alike(one: &Server, two: &Server, id: &str) -> (Value, Value) {
    let started = Instant::now();
    loop {
        let (a, b) = (ink_state(one, id, None), ink_state(two, id, None));
        if a == b {
            return (a, b);
        }
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "the processes still differ after a second:\n{a}\n{b}"
        );
        thread::sleep(Duration::from_millis(10));
    }
}

fn place(server: &Server, id: &str, token: &str, placement: &str) -> (u16, Value) {
    server.call(
        "POST",
        &format!("/api/ink/games/{id}/place"),
        Some(token),
        &json!({ "placement": placement }).to_string(),
    )
}

/// Plays the rest of a seat's round on `server`: the first legal place of each die, then
/// ends it. Returns how many actions were answered.
fn ink_round(server: &Server, id: &str, token: &str) -> usize {
    let mut answered = 0;
    loop {
        let s = ink_state(server, id, Some(token));
        if s["finished"] == true || s["you"]["round_done"] == true {
            return answered;
        }
        match placements_of_first_die(&s).first() {
            Some(p) => {
                let (status, v) = place(server, id, token, p);
                assert_eq!(status, 200, "{p}: {v}");
            }
            None => {
                let (status, v) = server.call(
                    "POST",
                    &format!("/api/ink/games/{id}/end-round"),
                    Some(token),
                    "",
                );
                assert_eq!(status, 200, "{v}");
            }
        }
        answered += 1;
    }
}

fn metro_state(server: &Server, id: &str, token: Option<&str>) -> Value {
    let (status, v) = server.call("GET", &format!("/api/metro/games/{id}"), token, "");
    assert_eq!(status, 200, "{v}");
    v
}

/// The person's turn on `server`: draws, then places at the first legal square; waits for
/// the computers first. Returns the state after it (or once finished), and the actions
/// answered.
fn metro_turn(server: &Server, id: &str, token: &str, seat: u64) -> (Value, usize) {
    let started = Instant::now();
    let mut answered = 0;
    loop {
        let s = metro_state(server, id, Some(token));
        if s["finished"] == true {
            return (s, answered);
        }
        if s["turn"] != seat {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the computers did not play: {s}"
            );
            thread::sleep(Duration::from_millis(50));
            continue;
        }
        let path = format!("/api/metro/games/{id}");
        let (status, v) = match s["you"]["legal"].as_str() {
            Some(legal) if legal.len() >= 2 => server.call(
                "POST",
                &format!("{path}/place"),
                Some(token),
                &json!({ "square": &legal[..2] }).to_string(),
            ),
            _ => server.call("POST", &format!("{path}/draw"), Some(token), ""),
        };
        assert_eq!(status, 200, "{v}");
        answered += 1;
        if v["turn"] != seat || v["finished"] == true {
            return (v, answered);
        }
    }
}

#[test]
fn two_processes_on_one_postgres_database() {
    let Some(db) = database() else { return };
    // The computer's own game on today's challenge thinks briefly (both processes may be
    // asked for it; one plays it).
    let env = [("TRACKLAYER_CHALLENGE_BUDGET", "4")];
    let one = Server::start_with_env(&db, &env);
    let two = Server::start_with_env(&db, &env);

    // Railroad Ink online: made on process 1, joined on process 2.
    let (status, made) = one.call(
        "POST",
        "/api/ink/games",
        None,
        r#"{"mode":"online","seed":77}"#,
    );
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_owned();
    let ann = made["token"].as_str().unwrap().to_owned();
    let (status, joined) = two.call(
        "POST",
        &format!("/api/ink/games/{id}/join"),
        None,
        r#"{"name":"Bo"}"#,
    );
    assert_eq!(status, 201, "{joined}");
    let bo = joined["token"].as_str().unwrap().to_owned();
    // Ann starts it from the lobby, through process 1 (the start is an action too).
    let (status, v) = one.call(
        "POST",
        &format!("/api/ink/games/{id}/start"),
        Some(&ann),
        "",
    );
    assert_eq!(status, 200, "{v}");
    let events_path = format!("/api/ink/games/{id}/events");
    let mut on_one = Events::open(&one, &events_path);
    let mut on_two = Events::open(&two, &events_path);
    // Bo's join and Ann's start are the first actions (the creator's seat comes with the
    // game).
    let mut ink_answered = 2;
    // Each process sees the other's moves live, within a second.
    let mut slowest = Duration::ZERO;
    for _ in 0..2 {
        let s = ink_state(&one, &id, Some(&ann));
        let p = placements_of_first_die(&s)[0].clone();
        let (status, v) = place(&one, &id, &ann, &p);
        assert_eq!(status, 200, "{v}");
        ink_answered += 1;
        let version = v["version"].as_u64().unwrap();
        slowest = slowest.max(on_two.wait_for_version(version, Duration::from_secs(1)));
        let s = ink_state(&two, &id, Some(&bo));
        let p = placements_of_first_die(&s)[0].clone();
        let (status, v) = place(&two, &id, &bo, &p);
        assert_eq!(status, 200, "{v}");
        ink_answered += 1;
        let version = v["version"].as_u64().unwrap();
        slowest = slowest.max(on_one.wait_for_version(version, Duration::from_secs(1)));
    }
    println!("slowest move seen on the other process: {slowest:?}");
    // The round ends for both, wherever each seat plays.
    ink_answered += ink_round(&one, &id, &ann);
    ink_answered += ink_round(&two, &id, &bo);
    let (on_one_state, on_two_state) = alike(&one, &two, &id);
    assert_eq!(on_one_state["round"], 1, "{on_one_state}");
    assert_eq!(on_two_state["round"], 1);

    // One seat's two conflicting placements of one die, at once, one through each process:
    // exactly one is stored; the other is decided again on the new state and refused.
    for round in 0..3 {
        let s = ink_state(&one, &id, Some(&ann));
        let choices = placements_of_first_die(&s);
        assert!(choices.len() >= 2, "{choices:?}");
        let (a, b) = (choices[0].clone(), choices[choices.len() - 1].clone());
        let gate = Arc::new(Barrier::new(2));
        let send = |server: &Server, placement: String| {
            let (addr, id, token, gate) =
                (server.addr.clone(), id.clone(), ann.clone(), gate.clone());
            thread::spawn(move || {
                gate.wait();
                common::call(
                    &addr,
                    "POST",
                    &format!("/api/ink/games/{id}/place"),
                    Some(&token),
                    &json!({ "placement": placement }).to_string(),
                )
                .expect("answered")
            })
        };
        let (ta, tb) = (send(&one, a), send(&two, b));
        let (ra, rb) = (ta.join().unwrap(), tb.join().unwrap());
        let wins = [&ra, &rb].iter().filter(|r| r.0 == 200).count();
        assert_eq!(wins, 1, "race {round}: exactly one wins: {ra:?} {rb:?}");
        for (status, v) in [&ra, &rb] {
            assert!(*status < 500, "race {round}: {status} {v}");
        }
        ink_answered += 1;
        let (s1, _) = alike(&one, &two, &id);
        assert_eq!(s1["version"].as_u64().unwrap() as usize, ink_answered);
    }

    // Today's challenge, one player asking both processes at once: one attempt, one game;
    // played through process 2, the leaderboard is the same through either.
    let (status, p) = one.call("POST", "/api/players", None, r#"{"name":"Di"}"#);
    assert_eq!(status, 201, "{p}");
    let di = p["token"].as_str().unwrap().to_owned();
    let (_, current) = two.call("GET", "/api/challenges/current", None, "");
    let daily = current["challenges"][0]["id"].as_str().unwrap().to_owned();
    let gate = Arc::new(Barrier::new(2));
    let ask = |server: &Server| {
        let (addr, path, token, gate) = (
            server.addr.clone(),
            format!("/api/challenges/{daily}/play"),
            di.clone(),
            gate.clone(),
        );
        thread::spawn(move || {
            gate.wait();
            common::call(&addr, "POST", &path, Some(&token), "").expect("answered")
        })
    };
    let (a, b) = (ask(&one), ask(&two));
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(statuses, [200, 201], "{a:?} {b:?}");
    assert_eq!(a.1["game"], b.1["game"]);
    let game = format!("/api/ink/games/{}", a.1["game"].as_str().unwrap());
    let token = a.1["token"].as_str().unwrap().to_owned();
    common::play_ink_rounds(&two, &game, &token, 7);
    let board_on = |server: &Server| {
        let (status, b) = server.call("GET", &format!("/api/challenges/{daily}"), Some(&di), "");
        assert_eq!(status, 200, "{b}");
        (b["players"].clone(), b["leaderboard"].clone())
    };
    let (on_one, on_two) = (board_on(&one), board_on(&two));
    assert_eq!(on_one, on_two);
    assert_eq!(on_one.0, 1);
    assert_eq!(on_one.1["finished"], 1);

    // Metro: made through process 1 with a computer seat (first to play); the person plays
    // on process 2.
    let (status, metro) = one.call(
        "POST",
        "/api/metro/games",
        None,
        &json!({"players": [
            {"kind": "computer", "level": "strong"},
            {"kind": "human", "name": "Cy"}
        ], "seed": 404})
        .to_string(),
    );
    assert_eq!(status, 201, "{metro}");
    let mid = metro["id"].as_str().unwrap().to_owned();
    let cy = metro["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|s| s["token"].as_str())
        .unwrap()
        .to_owned();
    let mut metro_answered = 0;
    for _ in 0..3 {
        let (s, n) = metro_turn(&two, &mid, &cy, 1);
        metro_answered += n;
        assert_ne!(s["finished"], true);
    }
    // Process 1 dies mid-game while it holds the computer's lease, the computer still to
    // move: the person moves through it (either process may take the lease then; the test
    // goes on until process 1 has it).
    let probe = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let storage = probe
        .block_on(server::storage::Storage::connect(
            &server::Database::Postgres(db.clone()),
        ))
        .unwrap();
    let holder = one.call("GET", "/api/health", None, "").1["process"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut tries = 0;
    loop {
        tries += 1;
        assert!(tries < 20, "process 1 never held the computer's lease");
        let (_, n) = metro_turn(&one, &mid, &cy, 1);
        metro_answered += n;
        let held = probe
            .block_on(storage.count_for_test(
                "SELECT CAST(count(*) AS BIGINT) FROM leases WHERE key = ?1 AND holder = ?2",
                &[&format!("game:{mid}"), &holder],
            ))
            .unwrap();
        let now = metro_state(&two, &mid, None);
        if held == 1 && now["turn"] == 0 && now["finished"] != true {
            break;
        }
    }
    one.kill();
    let killed = Instant::now();
    let at_kill = metro_state(&two, &mid, None);
    println!(
        "killed process 1 holding the computer's lease, after {tries} turns (version {})",
        at_kill["version"]
    );

    // Process 2 finishes everything: the computer's turns (taken over within 10 seconds of
    // the kill), the person's, both Railroad Ink seats.
    let (first, n) = metro_turn(&two, &mid, &cy, 1);
    metro_answered += n;
    let took = killed.elapsed();
    println!("the computer's seat went on {took:?} after process 1 was killed");
    assert!(
        took < Duration::from_secs(10),
        "taken over too late: {took:?} ({first})"
    );
    loop {
        let (s, n) = metro_turn(&two, &mid, &cy, 1);
        metro_answered += n;
        if s["finished"] == true {
            break;
        }
    }
    let metro_end = metro_state(&two, &mid, None);
    assert_eq!(metro_end["finished"], true);
    // Every action the person had answered is there, with the computer's between them.
    assert!(metro_end["version"].as_u64().unwrap() as usize >= 2 * metro_answered - 1);

    loop {
        let s = ink_state(&two, &id, None);
        if s["finished"] == true {
            assert_eq!(s["version"].as_u64().unwrap() as usize, ink_answered);
            break;
        }
        ink_answered += ink_round(&two, &id, &ann);
        ink_answered += ink_round(&two, &id, &bo);
    }
}
