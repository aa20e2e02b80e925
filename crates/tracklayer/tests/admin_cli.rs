//! `tracklayer admin` against a running server's database: a rename shows on the server at
//! once, the log keeps it with its reason, and what cannot be done says why.

mod common;

use common::{Server, remove_db, run, temp_db};

#[test]
fn an_operator_renames_a_player_of_a_running_server_and_the_log_says_why() {
    let db = temp_db("admin");
    let server = Server::start(&db);
    let (status, made) = server.call("POST", "/api/players", None, r#"{"name":"Ann"}"#);
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let db_arg = db.to_str().unwrap();

    let (code, out, err) = run(
        &[
            "admin", "rename", "--player", id, "--name", "Annie", "--reason", "asked to", "--db",
            db_arg,
        ],
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Annie"), "{out}");
    let (_, page) = server.call("GET", &format!("/api/players/{id}"), None, "");
    assert_eq!(page["name"], "Annie");

    let (code, out, _) = run(&["admin", "log", "--db", db_arg], None);
    assert_eq!(code, 0);
    assert!(out.contains("rename") && out.contains("asked to"), "{out}");

    // An insult is no name; a player who is none, an empty reason: refused in words.
    let (code, _, err) = run(
        &[
            "admin",
            "rename",
            "--player",
            id,
            "--name",
            "motherfucker",
            "--reason",
            "x",
            "--db",
            db_arg,
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("insult"), "{err}");
    let (code, _, err) = run(
        &[
            "admin", "rename", "--player", "nobody", "--name", "Zed", "--reason", "x", "--db",
            db_arg,
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("no player"), "{err}");
    let (code, _, err) = run(
        &[
            "admin",
            "hide",
            "--challenge",
            "daily-2026-11-26",
            "--player",
            id,
            "--reason",
            " ",
            "--db",
            db_arg,
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(err.contains("--reason"), "{err}");
    drop(server);
    remove_db(&db);
}
