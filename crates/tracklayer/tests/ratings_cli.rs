//! `tracklayer ratings rebuild`: on a server's database it makes every rating again and says
//! how many results it rated; on no database it says what to give.

mod common;

use common::{Server, run, temp_db};

#[test]
fn the_ratings_are_rebuilt_from_a_servers_database() {
    let db = temp_db("ratings");
    let path = db.to_str().unwrap();
    let (code, _, err) = run(&["ratings", "rebuild", "--db", path], None);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--db"), "{err}");
    {
        // A server makes the database (and rates what closed: nothing yet).
        let server = Server::start(&db);
        let (status, _) = server.call("POST", "/api/ink/games", None, r#"{"mode":"solo"}"#);
        assert_eq!(status, 201);
        server.kill();
    }
    let (code, out, err) = run(&["ratings", "rebuild", "--db", path], None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("every rating made again from"), "{out}");
    let (code, out, _) = run(&["ratings", "rebuild", "--help"], None);
    assert_eq!(code, 0);
    assert!(out.contains("Examples"), "{out}");
}
