//! A damaged database: the server refuses to start on it, naming the file and what to do, and
//! `tracklayer db check` finds the same.

mod common;

use std::io::{Seek, SeekFrom, Write};
use std::process::{Command, Stdio};

use common::{Server, remove_db, run, temp_db};

/// Starts the server on `db` and expects it to refuse: returns its exit code and stderr.
fn refused(db: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .env("TRACKLAYER_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn damage(db: &std::path::Path, at: u64, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new().write(true).open(db).unwrap();
    f.seek(SeekFrom::Start(at)).unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn a_damaged_database_is_refused_with_what_to_do() {
    let db = temp_db("damaged");
    {
        // A database with some games in it, closed cleanly (its WAL folded in).
        let server = Server::start(&db);
        for _ in 0..20 {
            let (status, _) = server.call("POST", "/api/ink/games", None, r#"{"mode":"solo"}"#);
            assert_eq!(status, 201);
        }
        server.kill();
    }
    // The check is the last connection to close: it folds the WAL into the file, so that
    // damaging the file damages the data.
    let (code, out, _) = run(&["db", "check", "--db", db.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert!(out.ends_with(": ok\n"), "{out}");

    // Garbage over the head of the games table's first page.
    let len = std::fs::metadata(&db).unwrap().len();
    assert!(len > 4 * 4096, "{len}");
    damage(&db, 4096, &[0xA5; 200]);
    let (code, out, err) = run(&["db", "check", "--db", db.to_str().unwrap()], None);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!out.is_empty());
    let (code, err) = refused(&db);
    assert_ne!(code, 0);
    assert!(err.contains("damaged"), "{err}");
    assert!(err.contains(db.to_str().unwrap()), "{err}");
    assert!(err.contains("backup"), "{err}");

    // A header that is not SQLite's at all.
    damage(&db, 0, b"this is not SQLite");
    let (code, _, _) = run(&["db", "check", "--db", db.to_str().unwrap()], None);
    assert_eq!(code, 1);
    let (code, err) = refused(&db);
    assert_ne!(code, 0);
    assert!(err.contains("damaged"), "{err}");
    remove_db(&db);
}
