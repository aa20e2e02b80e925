//! Metro games on the real binary: killed with SIGKILL and started again on the same database,
//! the server continues every game exactly where it was (a kept tile, an open seat, computer
//! seats in the middle of their turns), and every action it had answered is still there.

mod common;

use std::thread;
use std::time::{Duration, Instant};

use common::{Server, call, last_answers_before_kill, remove_db, temp_db};
use serde_json::{Value, json};

impl Server {
    fn state(&self, id: &str, token: Option<&str>) -> Value {
        let (status, v) = self.call("GET", &format!("/api/metro/games/{id}"), token, "");
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Waits until the state of a game (as a spectator sees it) satisfies `what`.
    fn wait_for(&self, id: &str, what: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let s = self.state(id, None);
            if what(&s) {
                return s;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "timed out on {id}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A new game: its id and the tokens of the seats on this device, by seat.
fn create(server: &Server, body: Value) -> (String, Vec<String>) {
    let (status, v) = server.call("POST", "/api/metro/games", None, &body.to_string());
    assert_eq!(status, 201, "{v}");
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_owned())
        .collect();
    (v["id"].as_str().unwrap().to_owned(), tokens)
}

/// One step of a seat: draw when there is nothing to place, else place at the first legal
/// square. The answer of the action (or the state, once the game is over).
fn step(addr: &str, id: &str, token: &str) -> std::io::Result<(u16, Value)> {
    let path = format!("/api/metro/games/{id}");
    let (_, state) = call(addr, "GET", &path, Some(token), "")?;
    if state["finished"] == true {
        return Ok((200, state));
    }
    let you = &state["you"];
    match you["legal"].as_str() {
        Some(legal) if legal.len() >= 2 => call(
            addr,
            "POST",
            &format!("{path}/place"),
            Some(token),
            &format!(r#"{{"square":"{}"}}"#, &legal[..2]),
        ),
        _ => call(addr, "POST", &format!("{path}/draw"), Some(token), ""),
    }
}

/// A whole turn of the seat whose turn it is (a draw when needed, then a placement).
fn turn(server: &Server, id: &str, tokens: &[String]) -> Value {
    let s = server.state(id, None);
    let seat = s["turn"].as_u64().unwrap() as usize;
    loop {
        let (status, v) = step(&server.addr, id, &tokens[seat]).unwrap();
        assert_eq!(status, 200, "{v}");
        if v["turn"] != seat || v["finished"] == true {
            return v;
        }
    }
}

fn people(n: usize, seed: u64) -> Value {
    let players: Vec<Value> = (0..n)
        .map(|i| json!({"kind": "human", "name": format!("P{}", i + 1)}))
        .collect();
    json!({"players": players, "seed": seed})
}

#[test]
fn sigkill_and_restart_continue_every_metro_game_exactly() {
    let db = temp_db("metro-kill");
    let server = Server::start(&db);
    // People on one device: some turns, then seat 1 keeps a tile and must place the second.
    let (hotseat, ht) = create(&server, people(3, 201));
    for _ in 0..7 {
        turn(&server, &hotseat, &ht);
    }
    let path = format!("/api/metro/games/{hotseat}");
    assert_eq!(
        server
            .call("POST", &format!("{path}/draw"), Some(&ht[1]), "")
            .0,
        200
    );
    assert_eq!(
        server
            .call("POST", &format!("{path}/keep"), Some(&ht[1]), "")
            .0,
        200
    );
    // A person, a computer and an open seat for an invited person.
    let (mixed, mt) = create(
        &server,
        json!({"players": [
            {"kind": "human", "name": "Ann"},
            {"kind": "computer", "level": "greedy"},
            {"kind": "human", "invite": true}
        ], "seed": 202}),
    );
    turn(&server, &mixed, &mt);
    server.wait_for(&mixed, |s| s["turn"] == 2);
    // Two computers thinking hard and a person: killed in the middle of the game, just as the
    // person's move has set the computers thinking.
    let (bots, bt) = create(
        &server,
        json!({"players": [
            {"kind": "computer", "level": "strong"},
            {"kind": "computer", "level": "strong"},
            {"kind": "human", "name": "Hu"}
        ], "seed": 203}),
    );
    let person = |server: &Server| {
        let mut tokens = vec![String::new(); 2];
        tokens.extend(bt.iter().cloned());
        server.wait_for(&bots, |s| s["turn"] == 2 || s["finished"] == true);
        turn(server, &bots, &tokens)
    };
    while person(&server)["sequence"].as_str().unwrap().len() < 6 * 4 {}
    let reads = |server: &Server| -> Vec<Value> {
        let mut out: Vec<Value> = ht.iter().map(|t| server.state(&hotseat, Some(t))).collect();
        out.push(server.state(&mixed, Some(&mt[0])));
        out.push(server.state(&mixed, None));
        out
    };
    let before = reads(&server);
    let bots_before = server.state(&bots, None);
    server.kill();

    let server = Server::start(&db);
    assert_eq!(before, reads(&server));
    // The computers' game goes on from where it was, to the end.
    while server.state(&bots, None)["finished"] != true {
        if server.wait_for(&bots, |s| s["turn"] == 2 || s["finished"] == true)["finished"] == true {
            break;
        }
        person(&server);
    }
    let bots_after = server.state(&bots, None);
    assert!(
        !bots_before["finished"].as_bool().unwrap(),
        "killed mid-game"
    );
    let moves = bots_before["moves"].as_array().unwrap();
    assert_eq!(
        &bots_after["moves"].as_array().unwrap()[..moves.len()],
        moves.as_slice()
    );
    assert!(
        bots_after["sequence"]
            .as_str()
            .unwrap()
            .starts_with(bots_before["sequence"].as_str().unwrap())
    );
    // Play goes on: the kept tile's second draw is placed, and the open seat can be taken.
    let s = server.state(&hotseat, Some(&ht[1]));
    assert_eq!(s["phase"], "must_place");
    let (status, v) = step(&server.addr, &hotseat, &ht[1]).unwrap();
    assert_eq!(status, 200, "{v}");
    assert!(v["you"]["hand"].is_string());
    let (status, v) = server.call(
        "POST",
        &format!("/api/metro/games/{mixed}/join"),
        None,
        r#"{"name":"Cy"}"#,
    );
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["seat"], 2);
    server.kill();
    remove_db(&db);
}

#[test]
fn every_answered_metro_action_survives_a_sigkill_mid_play() {
    let db = temp_db("metro-burst");
    let server = Server::start(&db);
    let games: Vec<(String, Vec<String>)> = (0..4)
        .map(|seed| create(&server, people(2, seed)))
        .collect();
    // Each game is played as fast as it can; each remembers the last state it was answered.
    let players: Vec<_> = games
        .iter()
        .map(|(id, tokens)| (id.clone(), tokens.clone(), 0))
        .collect();
    let answered = last_answers_before_kill(server, players, |addr, (id, tokens, seat)| {
        let answer = step(addr, id, &tokens[*seat]);
        // A finished game has no turn: on a fast machine a game can end before the kill.
        if let Ok((200, v)) = &answer
            && v["finished"] != true
        {
            *seat = v["turn"].as_u64().expect("whose turn") as usize;
        }
        answer
    });

    let server = Server::start(&db);
    let mut checked = 0;
    for ((id, _), last) in games.iter().zip(answered) {
        let Some(last) = last else { continue };
        let now = server.state(id, None);
        let (then_v, now_v) = (
            last["version"].as_u64().unwrap(),
            now["version"].as_u64().unwrap(),
        );
        // Everything answered is there; at most the one action in flight was written too.
        assert!(now_v == then_v || now_v == then_v + 1, "{then_v} → {now_v}");
        let then_moves = last["moves"].as_array().unwrap();
        let now_moves = now["moves"].as_array().unwrap();
        assert_eq!(&now_moves[..then_moves.len()], then_moves.as_slice());
        if now_v == then_v {
            assert_eq!(now["sequence"], last["sequence"]);
            assert_eq!(now["deck_left"], last["deck_left"]);
        }
        checked += 1;
    }
    assert!(checked > 0, "no action was answered before the kill");
    server.kill();
    remove_db(&db);
}
