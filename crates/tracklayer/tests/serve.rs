//! The game server as the real binary: killed with SIGKILL and started again on the same
//! database, it continues every game exactly where it was, and every action it had
//! answered is still there.

mod common;

use std::thread;
use std::time::Duration;

use common::{Server, call, last_answers_before_kill, remove_db, temp_db};
use serde_json::Value;

/// The first legal die placement in a state, or `None` when no die fits.
fn first_legal_die(state: &Value) -> Option<String> {
    for die in state["you"]["dice"].as_array()? {
        if die["used"] == true {
            continue;
        }
        for (o, legal) in die["legal"].as_array()?.iter().enumerate() {
            let legal = legal.as_str()?;
            if legal.len() >= 2 {
                return Some(format!("{}{}{o}", die["tile"].as_str()?, &legal[..2]));
            }
        }
    }
    None
}

/// One step of the first-legal strategy: a placement, or the end of the round.
fn step(addr: &str, id: &str, token: &str) -> std::io::Result<(u16, Value)> {
    let (_, state) = call(
        addr,
        "GET",
        &format!("/api/ink/games/{id}"),
        Some(token),
        "",
    )?;
    if state["finished"] == true {
        return Ok((200, state));
    }
    match first_legal_die(&state) {
        Some(p) => call(
            addr,
            "POST",
            &format!("/api/ink/games/{id}/place"),
            Some(token),
            &format!(r#"{{"placement":"{p}"}}"#),
        ),
        None => call(
            addr,
            "POST",
            &format!("/api/ink/games/{id}/end-round"),
            Some(token),
            "",
        ),
    }
}

fn create(server: &Server, body: &str) -> (String, String) {
    let (status, v) = server.call("POST", "/api/ink/games", None, body);
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_owned(),
        v["token"].as_str().unwrap().to_owned(),
    )
}

fn state(server: &Server, id: &str, token: &str) -> Value {
    let (status, v) = server.call("GET", &format!("/api/ink/games/{id}"), Some(token), "");
    assert_eq!(status, 200, "{v}");
    v
}

#[test]
fn sigkill_and_restart_continue_every_game_exactly() {
    let db = temp_db("kill");
    let server = Server::start(&db);
    let (solo, ts) = create(&server, r#"{"mode":"solo","seed":101}"#);
    let (online, ta) = create(&server, r#"{"mode":"online","seed":102,"name":"Ann"}"#);
    let (status, v) = server.call(
        "POST",
        &format!("/api/ink/games/{online}/join"),
        None,
        r#"{"name":"Bob"}"#,
    );
    assert_eq!(status, 201);
    let tb = v["token"].as_str().unwrap().to_owned();
    let (status, v) = server.call(
        "POST",
        &format!("/api/ink/games/{online}/start"),
        Some(&ta),
        "",
    );
    assert_eq!(status, 200, "{v}");
    let (computer, tc) = create(
        &server,
        r#"{"mode":"computer","seed":103,"agent":"greedy"}"#,
    );
    // A round and a half of solo play, some of each online player's, one computer round.
    for _ in 0..8 {
        assert_eq!(step(&server.addr, &solo, &ts).unwrap().0, 200);
    }
    for _ in 0..3 {
        assert_eq!(step(&server.addr, &online, &ta).unwrap().0, 200);
        assert_eq!(step(&server.addr, &online, &tb).unwrap().0, 200);
    }
    for _ in 0..100 {
        if state(&server, &computer, &tc)["players"][1]["round_done"] == true {
            break;
        }
        thread::sleep(Duration::from_millis(20));
    }
    let games = [
        (&solo, &ts),
        (&online, &ta),
        (&online, &tb),
        (&computer, &tc),
    ];
    let before: Vec<Value> = games.iter().map(|(g, t)| state(&server, g, t)).collect();
    assert_eq!(before[3]["players"][1]["round_done"], true);
    server.kill();

    let server = Server::start(&db);
    let after: Vec<Value> = games.iter().map(|(g, t)| state(&server, g, t)).collect();
    assert_eq!(before, after);
    // Play goes on from there.
    let (status, v) = step(&server.addr, &solo, &ts).unwrap();
    assert_eq!(status, 200, "{v}");
    assert!(v["version"].as_u64() > before[0]["version"].as_u64());
    server.kill();
    remove_db(&db);
}

#[test]
fn every_answered_action_survives_a_sigkill_mid_play() {
    let db = temp_db("burst");
    let server = Server::start(&db);
    let players: Vec<(String, String)> = (0..4)
        .map(|seed| create(&server, &format!(r#"{{"mode":"solo","seed":{seed}}}"#)))
        .collect();
    // Each player acts as fast as it can and remembers the last state it was answered with.
    let answered = last_answers_before_kill(server, players.clone(), |addr, (id, token)| {
        step(addr, id, token)
    });

    let server = Server::start(&db);
    let mut checked = 0;
    for ((id, token), last) in players.iter().zip(answered) {
        let Some(last) = last else { continue };
        let now = state(&server, id, token);
        let (then_v, now_v) = (
            last["version"].as_u64().unwrap(),
            now["version"].as_u64().unwrap(),
        );
        // Everything answered is there; at most the one action in flight was written too.
        assert!(now_v == then_v || now_v == then_v + 1, "{then_v} → {now_v}");
        let then_board = last["players"][0]["board"].as_str().unwrap();
        let now_board = now["players"][0]["board"].as_str().unwrap();
        if now_v == then_v {
            assert_eq!(now, last);
        } else {
            assert!(
                now_board.starts_with(then_board),
                "{then_board} → {now_board}"
            );
        }
        checked += 1;
    }
    assert!(checked > 0, "no action was answered before the kill");
    server.kill();
    remove_db(&db);
}
