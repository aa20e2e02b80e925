//! Backups of a running server: `tracklayer db backup FILE` copies the SQLite database while
//! 200 players keep playing, and the copy holds every action answered before the backup began; `db
//! check FILE` checks it. And the server's logs as JSON, one object a line.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{Server, remove_db, run, temp_db};

/// Plays solo Railroad Ink games (a game, then one placement after another) until `stop`: the
/// number of actions answered so far, by game.
fn play(
    server_addr: String,
    stop: Arc<AtomicBool>,
    answered: Arc<std::sync::Mutex<Vec<(String, usize)>>>,
) {
    while !stop.load(Ordering::Relaxed) {
        let (status, made) = common::call(
            &server_addr,
            "POST",
            "/api/ink/games",
            None,
            r#"{"mode":"solo","seed":5}"#,
        )
        .expect("answers");
        assert_eq!(status, 201, "{made}");
        let (id, token) = (
            made["id"].as_str().unwrap().to_owned(),
            made["token"].as_str().unwrap().to_owned(),
        );
        let mine = {
            let mut answered = answered.lock().unwrap();
            answered.push((id.clone(), 0));
            answered.len() - 1
        };
        for _ in 0..3 {
            let (_, state) = common::call(
                &server_addr,
                "GET",
                &format!("/api/ink/games/{id}"),
                Some(&token),
                "",
            )
            .unwrap();
            let die = &state["you"]["dice"][0];
            let square = die["legal"].as_array().unwrap().iter().find_map(|l| {
                let l = l.as_str()?;
                (l.len() >= 2).then(|| l[..2].to_owned())
            });
            let Some(square) = square else { break };
            let placement = format!("{}{square}0", die["tile"].as_str().unwrap());
            let body = serde_json::json!({ "placement": placement }).to_string();
            let (status, _) = common::call(
                &server_addr,
                "POST",
                &format!("/api/ink/games/{id}/place"),
                Some(&token),
                &body,
            )
            .unwrap();
            if status != 200 {
                break;
            }
            answered.lock().unwrap()[mine].1 += 1;
        }
    }
}

#[test]
fn a_backup_taken_while_players_play_holds_everything_answered_before_it() {
    let db = temp_db("backup-live");
    let copy = temp_db("backup-copy");
    let server = Server::start_with_env(&db, &[("TRACKLAYER_RATE_GAMES", "0")]);
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(std::sync::Mutex::new(Vec::new()));
    // 200 players at once, each making games and placing in them.
    let players: Vec<_> = (0..200)
        .map(|_| {
            let (addr, stop, answered) = (server.addr.clone(), stop.clone(), answered.clone());
            std::thread::spawn(move || play(addr, stop, answered))
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(800));
    // What was answered before the backup began.
    let before: Vec<(String, usize)> = answered.lock().unwrap().clone();
    let (code, out, err) = run(
        &[
            "db",
            "backup",
            copy.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("backed up to") && out.trim_end().ends_with("ok"),
        "{out}"
    );
    stop.store(true, Ordering::Relaxed);
    for p in players {
        p.join().unwrap();
    }
    assert!(!before.is_empty(), "the players played before the backup");

    // The copy checks, and holds every game and action answered before the backup began.
    let (code, out, err) = run(&["db", "check", copy.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}{err}");
    let storage = server::storage::Storage::open(&copy).unwrap();
    server::storage::block_on(async {
        for (id, actions) in &before {
            let game = storage
                .load_game(id)
                .await?
                .unwrap_or_else(|| panic!("{id} is not in the copy"));
            assert!(
                game.actions.len() >= *actions,
                "{id}: {} of {actions} actions",
                game.actions.len()
            );
        }
        Ok(())
    })
    .unwrap();
    drop(storage);

    // A file that exists is not overwritten; PostgreSQL is backed up with its own tools.
    let (code, _, err) = run(
        &[
            "db",
            "backup",
            copy.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("exists already"), "{err}");
    let (code, _, err) = run(
        &[
            "db",
            "backup",
            "x.sqlite",
            "--db",
            "postgres://u:p@127.0.0.1:1/none",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("pg_dump"), "{err}");
    drop(server);
    remove_db(&db);
    remove_db(&copy);
}

#[test]
fn logs_are_one_json_object_a_line_when_asked() {
    let db = temp_db("json-logs");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .env("TRACKLAYER_LOG", "info")
        .env("TRACKLAYER_LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().expect("a log line").unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let v: serde_json::Value =
        serde_json::from_str(&first).unwrap_or_else(|e| panic!("{first:?}: {e}"));
    assert!(
        v["timestamp"].is_string() && v["level"] == "INFO" && v["message"].is_string(),
        "{v}"
    );
    remove_db(&db);
}
