//! The storage's own tests, on SQLite and (with `TRACKLAYER_TEST_PG`) on PostgreSQL, through
//! its public interface (and its `test-util` hooks).

use store::sqlite_for_test as sqlite;
use store::*;

#[test]
fn a_full_disk_is_told_apart_from_other_failures() {
    use rusqlite::ffi;
    let failure = |code, words: Option<&str>| {
        StorageError::from(rusqlite::Error::SqliteFailure(
            ffi::Error::new(code),
            words.map(str::to_owned),
        ))
    };
    for e in [
        failure(ffi::SQLITE_FULL, None),
        failure(
            ffi::SQLITE_IOERR_WRITE,
            Some("write failed: No space left on device"),
        ),
    ] {
        assert!(matches!(e, StorageError::Full(_)), "{e:?}");
    }
    assert!(matches!(
        failure(ffi::SQLITE_IOERR_WRITE, Some("disk I/O error")),
        StorageError::Sqlite(_)
    ));
}

fn seat(seat: usize) -> SeatRow {
    SeatRow {
        seat,
        name: format!("p{seat}"),
        kind: SeatKind::Human,
        agent: None,
        token_hash: Some("ab".into()),
        player: None,
    }
}

/// A database to test on: a SQLite file, or a fresh PostgreSQL database.
struct TestDb {
    database: Database,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    async fn open(&self) -> Storage {
        Storage::connect(&self.database).await.unwrap()
    }
}

/// SQLite, and PostgreSQL when `TRACKLAYER_TEST_PG` names a server (see
/// [`fresh_test_database`]).
async fn backends() -> Vec<TestDb> {
    let dir = tempfile::tempdir().unwrap();
    let mut dbs = vec![TestDb {
        database: Database::Sqlite(dir.path().join("t.sqlite")),
        _dir: Some(dir),
    }];
    match fresh_test_database().await.unwrap() {
        Some(database) => dbs.push(TestDb {
            database,
            _dir: None,
        }),
        None => eprintln!("PostgreSQL skipped: TRACKLAYER_TEST_PG is not set"),
    }
    dbs
}

fn action(seat: usize, text: &str) -> ActionRow {
    ActionRow {
        seat,
        action: text.into(),
    }
}

#[tokio::test]
async fn games_seats_and_actions_round_trip() {
    for db in backends().await {
        games_seats_and_actions_round_trip_on(db).await;
    }
}

async fn games_seats_and_actions_round_trip_on(db: TestDb) {
    let storage = db.open().await;
    storage
        .create_game(NewGame {
            mode: "online".into(),
            ..new_game("g1", GameKind::from("ink"), 1)
        })
        .await
        .unwrap();
    storage
        .append(Append {
            seat: Some(seat(1)),
            ..add("g1", 0, vec![action(0, "a"), action(1, "join")])
        })
        .await
        .unwrap();
    // A second append at a taken index fails and writes nothing, not even its seat.
    let clash = storage
        .append(Append {
            seat: Some(seat(2)),
            ..add("g1", 1, vec![action(2, "x")])
        })
        .await;
    assert!(matches!(clash, Err(StorageError::Conflict(_))), "{clash:?}");
    drop(storage);

    let storage = db.open().await;
    let game = storage.load_game("g1").await.unwrap().unwrap();
    assert_eq!(game.kind, GameKind::from("ink"));
    assert_eq!(game.mode, "online");
    assert_eq!(game.created, 1);
    assert_eq!(game.seats, vec![seat(0), seat(1)]);
    assert_eq!(game.actions, vec![action(0, "a"), action(1, "join")]);
    assert!(storage.load_game("nope").await.unwrap().is_none());
}

#[tokio::test]
async fn concurrent_writes_share_transactions_and_all_land() {
    for db in backends().await {
        concurrent_writes_all_land_on(db).await;
    }
}

async fn concurrent_writes_all_land_on(db: TestDb) {
    let storage = db.open().await;
    let mut tasks = Vec::new();
    for g in 0..50 {
        let storage = storage.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("g{g}");
            storage
                .create_game(new_game(&id, GameKind::from("ink"), 1))
                .await
                .unwrap();
            for i in 0..10 {
                storage
                    .append(add(&id, i, vec![action(0, &i.to_string())]))
                    .await
                    .unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    for g in 0..50 {
        let game = storage.load_game(&format!("g{g}")).await.unwrap().unwrap();
        assert_eq!(game.actions.len(), 10);
        assert_eq!(game.actions[9].action, "9");
    }
}

/// Actions to add to `game` from index `first`.
fn add(game: &str, first: usize, actions: Vec<ActionRow>) -> Append {
    Append {
        game: game.into(),
        first,
        actions,
        seat: None,
        deadline: None,
        clocks: None,
    }
}

fn new_game(id: &str, kind: GameKind, created: i64) -> NewGame {
    NewGame {
        id: id.into(),
        kind,
        mode: "solo".into(),
        setup: "{}".into(),
        created,
        seats: vec![seat(0)],
        entry: None,
        variant: None,
        deadlines: Vec::new(),
        pool: Vec::new(),
    }
}

fn finished(at: i64) -> Finished {
    Finished {
        at,
        result: format!("{{\"at\":{at}}}"),
        entries: Vec::new(),
        record: None,
        rated: None,
    }
}

#[tokio::test]
async fn finished_games_are_listed_newest_first() {
    for db in backends().await {
        finished_games_are_listed_on(db).await;
    }
}

async fn finished_games_are_listed_on(db: TestDb) {
    let storage = db.open().await;
    for (i, kind) in [
        GameKind::from("ink"),
        GameKind::from("metro"),
        GameKind::from("ink"),
        GameKind::from("ink"),
    ]
    .into_iter()
    .enumerate()
    {
        storage
            .create_game(new_game(&format!("g{i}"), kind, i as i64))
            .await
            .unwrap();
    }
    // g0 ends with its last action; g1 and g2 end later; g3 goes on.
    storage
        .append_finishing(add("g0", 0, vec![action(0, "last")]), finished(100))
        .await
        .unwrap();
    storage.mark_finished("g1", finished(300)).await.unwrap();
    storage.mark_finished("g2", finished(200)).await.unwrap();
    assert!(storage.mark_finished("nope", finished(1)).await.is_err());
    // A finishing append at a taken index writes neither the action nor the finish.
    storage
        .append(add("g3", 0, vec![action(0, "a")]))
        .await
        .unwrap();
    let clash = storage
        .append_finishing(add("g3", 0, vec![action(0, "b")]), finished(400))
        .await;
    assert!(clash.is_err());

    let ids = |games: Vec<FinishedGame>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    let all = storage.finished_games(None, None, 10).await.unwrap();
    assert_eq!(all[0].finished, finished(300));
    assert_eq!(all[0].kind, GameKind::from("metro"));
    assert_eq!(ids(all), ["g1", "g2", "g0"]);
    let ink = storage
        .finished_games(Some(GameKind::from("ink")), None, 10)
        .await
        .unwrap();
    assert_eq!(ids(ink), ["g2", "g0"]);
    let older = storage
        .finished_games(None, Some((300, None)), 1)
        .await
        .unwrap();
    assert_eq!(ids(older), ["g2"]);
    assert_eq!(storage.unfinished_ids().await.unwrap(), ["g3"]);
    let g0 = storage.load_game("g0").await.unwrap().unwrap();
    assert_eq!(g0.actions, vec![action(0, "last")]);
}

#[tokio::test]
async fn a_version_1_database_is_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(sqlite::SCHEMA).unwrap();
        conn.execute(
            "INSERT INTO games (id, kind, mode, setup, created) VALUES ('old', 'ink', 'solo', '{}', 5)",
            [],
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let storage = Storage::open(&path).unwrap();
    assert_eq!(storage.unfinished_ids().await.unwrap(), ["old"]);
    storage.mark_finished("old", finished(9)).await.unwrap();
    let games = storage.finished_games(None, None, 5).await.unwrap();
    assert_eq!(games[0].created, 5);
    drop(storage);
    // Opening again changes nothing.
    let storage = Storage::open(&path).unwrap();
    assert_eq!(
        storage.finished_games(None, None, 5).await.unwrap().len(),
        1
    );
}

/// A database of version 3 (players, challenges) takes version 4: names that clash keep
/// their players (the earliest holds the name), and the games of challenges, the
/// computer's and a friend challenge's first, become theirs.
#[tokio::test]
async fn a_version_3_database_is_upgraded_keeping_its_players() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v3.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(sqlite::SCHEMA).unwrap();
        conn.execute_batch(sqlite::SCHEMA_2).unwrap();
        conn.execute_batch(sqlite::SCHEMA_3).unwrap();
        conn.execute_batch(
            "INSERT INTO meta (key, value) VALUES ('secret', '0000000000000000000000000000000000000000000000000000000000000000');
             INSERT INTO players (id, name, token_hash, created) VALUES
                ('p1', 'Ann', 'h1', 1), ('p2', 'ANN', 'h2', 2), ('p3', 'Bob', 'h3', 3);
             INSERT INTO games (id, kind, mode, setup, created) VALUES
                ('cg', 'ink', 'challenge', '{}', 1), ('og', 'ink', 'solo', '{}', 1),
                ('solo', 'ink', 'solo', '{}', 1);
             INSERT INTO challenges (id, kind, game, opens, closes, seed, created, computer_game)
                VALUES ('daily-2026-11-26', 'daily', 'ink', 0, 1, 7, 0, 'cg');
             INSERT INTO challenges (id, kind, game, opens, seed, created, origin)
                VALUES ('friend-x', 'friend', 'ink', 0, 7, 0, 'og');",
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 3).unwrap();
    }
    let storage = Storage::open(&path).unwrap();
    let ann = storage.player("p1").await.unwrap().unwrap();
    let ann2 = storage.player("p2").await.unwrap().unwrap();
    assert_eq!(ann.name_key.as_deref(), Some("ann"));
    assert_eq!((ann2.name.as_str(), ann2.name_key), ("ANN", None));
    let clash = storage
        .create_player_on_first_device(challenges::PlayerRow {
            id: "p4".into(),
            name: "aNN".into(),
            token_hash: "h4".into(),
            created: 4,
            name_key: Some("ann".into()),
        })
        .await;
    assert!(
        matches!(clash, Err(StorageError::Duplicate(_))),
        "{clash:?}"
    );
    let of = |id: &'static str| {
        let storage = storage.clone();
        async move {
            storage
                .load_game(id)
                .await
                .unwrap()
                .unwrap()
                .challenge
                .map(|c| c.id)
        }
    };
    assert_eq!(of("cg").await.as_deref(), Some("daily-2026-11-26"));
    assert_eq!(of("og").await.as_deref(), Some("friend-x"));
    assert_eq!(of("solo").await, None);
}

/// A database of the schema before names were compared by how they look (SQLite's 7,
/// PostgreSQL's 5) has its name keys made again: the earliest player of each name that now
/// looks the same keeps the key, the later ones keep their names without one, and a new
/// look-alike of an old name is a duplicate.
#[tokio::test]
async fn records_are_counted_again_variant_by_variant() {
    for db in backends().await {
        records_by_variant_on(db).await;
    }
}

async fn records_by_variant_on(db: TestDb) {
    let storage = db.open().await;
    storage
        .create_player_on_first_device(challenges::PlayerRow {
            id: "ann".into(),
            name: "Ann".into(),
            token_hash: "h-ann".into(),
            created: 1,
            name_key: Some("ann".into()),
        })
        .await
        .unwrap();
    // Three solo games stored before variants were: a base game, then a lake game that
    // scored more, then a river game; the records counted them as one.
    for (i, (id, setup, score)) in [
        ("g1", r#"{"players":1,"dice":{"seed":1}}"#, 30),
        (
            "g2",
            r#"{"players":1,"dice":{"seed":2},"expansion":"lake"}"#,
            60,
        ),
        (
            "g3",
            r#"{"players":1,"dice":{"seed":3},"expansion":"river"}"#,
            50,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let mut game = new_game(id, GameKind::from("ink"), i as i64 + 1);
        game.setup = setup.into();
        game.seats[0].player = Some("ann".into());
        storage.create_game(game).await.unwrap();
        let result =
            format!(r#"{{"players":[{{"seat":0,"name":"Ann","score":{score}}}],"winners":[0]}}"#);
        storage
            .mark_finished(
                id,
                Finished {
                    at: i as i64 + 10,
                    result,
                    entries: vec![challenges::SeatResult {
                        seat: 0,
                        score,
                        k2: 0,
                    }],
                    // As the server named records before variants were kept.
                    record: Some(Record {
                        game: "ink".into(),
                        way: "solo".into(),
                    }),
                    rated: None,
                },
            )
            .await
            .unwrap();
    }
    let mixed = storage.bests("ann").await.unwrap();
    assert_eq!(mixed.len(), 1, "{mixed:?}");
    assert_eq!((mixed[0].games, mixed[0].best), (3, 60));
    let back = match &db.database {
        Database::Sqlite(_) => "PRAGMA user_version = 9",
        Database::Postgres(_) => "UPDATE meta SET value = '7' WHERE key = 'schema'",
    };
    storage.exec_for_test(back, &[]).await.unwrap();
    drop(storage);
    let storage = db.open().await;
    let bests: Vec<(String, i64, i64, Option<i64>)> = storage
        .bests("ann")
        .await
        .unwrap()
        .into_iter()
        .map(|b| (b.game, b.games, b.best, b.previous))
        .collect();
    assert_eq!(
        bests,
        [
            ("ink".to_owned(), 1, 30, None),
            ("ink:lake".to_owned(), 1, 60, None),
            ("ink:river".to_owned(), 1, 50, None),
        ]
    );
}

#[tokio::test]
async fn name_keys_are_made_again_by_how_names_look() {
    for db in backends().await {
        name_keys_are_made_again_on(db).await;
    }
}

async fn name_keys_are_made_again_on(db: TestDb) {
    let storage = db.open().await;
    // The players as the older key left them: a Cyrillic А, "rn" for "m" and an invisible
    // character after the name made other keys then.
    for (id, name, created, old_key) in [
        ("p1", "Ann", 1, Some("ann")),
        ("p2", "\u{410}nn", 2, Some("\u{430}nn")),
        ("p3", "Amie", 3, Some("amie")),
        ("p4", "Arnie", 4, Some("arnie")),
        ("p5", "Bob", 5, Some("bob")),
        ("p6", "ANN", 6, None),
        ("p7", "Ann\u{17B4}", 7, Some("ann\u{17B4}")),
        ("p0", "Bob\u{FE0F}", 5, Some("bob\u{FE0F}")),
    ] {
        storage
            .create_player_on_first_device(challenges::PlayerRow {
                id: id.into(),
                name: name.into(),
                token_hash: format!("h-{id}"),
                created,
                name_key: old_key.map(Into::into),
            })
            .await
            .unwrap();
    }
    let back = match &db.database {
        Database::Sqlite(_) => "PRAGMA user_version = 7",
        Database::Postgres(_) => "UPDATE meta SET value = '5' WHERE key = 'schema'",
    };
    storage.exec_for_test(back, &[]).await.unwrap();
    drop(storage);
    let storage = db.open().await;
    for (id, name, key) in [
        ("p1", "Ann", Some("Ann")),
        ("p2", "\u{410}nn", None),
        ("p3", "Amie", Some("Amie")),
        ("p4", "Arnie", None),
        // The same time as Bob's: the smaller id is the earlier.
        ("p0", "Bob\u{FE0F}", Some("Bob")),
        ("p5", "Bob", None),
        ("p6", "ANN", None),
        ("p7", "Ann\u{17B4}", None),
    ] {
        let p = storage.player(id).await.unwrap().unwrap();
        assert_eq!(p.name, name, "{id}");
        assert_eq!(p.name_key, key.map(names::key), "{id} {name:?}");
    }
    for (i, name) in ["\u{410}NN", "Ann\u{FE0F}", "Arnie", "Amie"]
        .into_iter()
        .enumerate()
    {
        let clash = storage
            .create_player_on_first_device(challenges::PlayerRow {
                id: format!("n{i}"),
                name: name.into(),
                token_hash: format!("hn{i}"),
                created: 9,
                name_key: Some(names::key(name)),
            })
            .await;
        assert!(
            matches!(clash, Err(StorageError::Duplicate(_))),
            "{name:?}: {clash:?}"
        );
    }
    // Opened again, nothing changes.
    drop(storage);
    let storage = db.open().await;
    let p = storage.player("p4").await.unwrap().unwrap();
    assert_eq!(p.name_key, None);
}

#[tokio::test]
async fn a_damaged_file_is_refused_and_names_what_is_wrong() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.sqlite");
    assert!(
        sqlite::check(&path).unwrap().is_empty(),
        "a file to be created is sound"
    );
    {
        let storage = Storage::open(&path).unwrap();
        for g in 0..40 {
            storage
                .create_game(new_game(&format!("g{g}"), GameKind::from("ink"), g))
                .await
                .unwrap();
        }
    }
    // Fold the WAL into the file, then damage a page in the middle.
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "wal_checkpoint", "TRUNCATE")
        .unwrap();
    assert!(sqlite::check(&path).unwrap().is_empty());
    // Every page but the first (the header), in its middle: some are free pages (the
    // migrations make tables again), the others hold the games.
    let pages = std::fs::metadata(&path).unwrap().len() / 4096;
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    for page in 1..pages {
        f.seek(SeekFrom::Start(page * 4096 + 64)).unwrap();
        f.write_all(&[0x5a; 2000]).unwrap();
    }
    drop(f);
    assert!(!sqlite::check(&path).unwrap().is_empty());
    let e = Storage::open(&path).err().expect("refused");
    let text = e.to_string();
    assert!(
        text.contains("damaged") && text.contains("backup"),
        "{text}"
    );
    assert!(text.contains(path.to_str().unwrap()), "{text}");
}

#[tokio::test]
async fn an_append_to_an_unknown_game_fails() {
    for db in backends().await {
        let storage = db.open().await;
        let result = storage
            .append(add("missing", 0, vec![action(0, "a")]))
            .await;
        assert!(result.is_err());
    }
}

/// Two processes on one PostgreSQL database: an index taken by one is a conflict for the
/// other; the change is announced to the other with the taker's name; leases go to one
/// holder until they run out.
#[tokio::test]
async fn two_processes_share_one_postgres_database() {
    let Some(database) = fresh_test_database().await.unwrap() else {
        eprintln!("skipped: TRACKLAYER_TEST_PG is not set");
        return;
    };
    let a = Storage::connect(&database).await.unwrap();
    let b = Storage::connect(&database).await.unwrap();
    assert_ne!(a.process_id(), b.process_id());
    assert_eq!(a.secret(), b.secret(), "one secret, made once");
    let mut heard = b.listen().await.unwrap().unwrap();
    a.create_game(new_game("g", GameKind::from("ink"), 1))
        .await
        .unwrap();
    let append = |text: &str| add("g", 0, vec![action(0, text)]);
    let (ra, rb) = tokio::join!(a.append(append("from a")), b.append(append("from b")));
    assert!(ra.is_ok() != rb.is_ok(), "exactly one wins: {ra:?} {rb:?}");
    let loser = if ra.is_ok() { rb } else { ra };
    assert!(matches!(loser, Err(StorageError::Conflict(_))), "{loser:?}");
    let stored = b.load_game("g").await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 1);
    let notice = tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv())
        .await
        .expect("announced within a second")
        .unwrap();
    let winner = if stored.actions[0].action == "from a" {
        &a
    } else {
        &b
    };
    assert_eq!(
        notice,
        Notice::Changed {
            id: "g".into(),
            actions: 1,
            origin: winner.process_id().into()
        }
    );

    let now = now_ms();
    assert!(a.lease("game:g", "pa", now + 5_000).await.unwrap());
    assert!(!b.lease("game:g", "pb", now + 5_000).await.unwrap(), "held");
    assert!(
        a.lease("game:g", "pa", now + 6_000).await.unwrap(),
        "renewed"
    );
    assert!(a.expired_leases(now + 5_500).await.unwrap().is_empty());
    assert_eq!(a.expired_leases(now + 7_000).await.unwrap(), ["game:g"]);
    // Once run out, another takes it.
    assert!(b.lease("game:g", "pb", now + 60_000).await.unwrap() == (now_ms() > now + 6_000));
    a.release("game:g", "pa").await.unwrap();
    b.release("game:g", "pb").await.unwrap();
    assert!(
        b.lease("game:g", "pb", now + 5_000).await.unwrap(),
        "free again"
    );
    assert!(check(&database).await.unwrap().is_empty());
    // A lost action is found at start, and by the check.
    a.exec_for_test("DELETE FROM actions WHERE game = 'g' AND idx = 0", &[])
        .await
        .unwrap();
    a.exec_for_test(
        "INSERT INTO actions (game, idx, seat, action, at) VALUES ('g', 3, 0, 'x', 0)",
        &[],
    )
    .await
    .unwrap();
    let damaged = Storage::connect(&database).await.err().expect("refused");
    assert!(
        damaged
            .to_string()
            .contains("game g: 1 actions stored, numbered up to 3"),
        "{damaged}"
    );
    assert_eq!(check(&database).await.unwrap().len(), 1);
    a.exec_for_test("DELETE FROM actions WHERE game = 'g'", &[])
        .await
        .unwrap();
    // A database written by a newer version is refused, and says so.
    a.exec_for_test("UPDATE meta SET value = '99' WHERE key = 'schema'", &[])
        .await
        .unwrap();
    let refused = Storage::connect(&database).await.err().expect("refused");
    let text = refused.to_string();
    assert!(
        text.contains("newer version") && text.contains("99"),
        "{text}"
    );
    assert!(text.contains(":***@"), "no password in {text}");
    assert!(!check(&database).await.unwrap().is_empty());
}

/// A database of the schema before the server said which challenges count toward a streak
/// (SQLite's 10, PostgreSQL's 8: no `challenges.streak_follows`, closed challenges listed by an
/// index over kinds) is upgraded with its rows intact: each daily of the kinds counted then
/// follows the day before, and its finishes lengthen a run as before; a challenge of a kind
/// that storage never heard of counts as the server stores it.
#[tokio::test]
async fn challenges_learn_what_their_streak_follows_keeping_their_rows() {
    for db in backends().await {
        streak_follows_on(db).await;
    }
}

async fn streak_follows_on(db: TestDb) {
    let storage = db.open().await;
    let player = |id: &str| challenges::PlayerRow {
        id: id.into(),
        name: id.into(),
        token_hash: format!("h-{id}"),
        created: 1,
        name_key: Some(id.into()),
    };
    storage
        .create_player_on_first_device(player("ann"))
        .await
        .unwrap();
    const DAY: i64 = 86_400_000;
    for (id, kind, period, opens, closes) in [
        ("daily-2026-11-25", "daily", "2026-11-25", 0, DAY),
        ("daily-2026-11-26", "daily", "2026-11-26", DAY, 2 * DAY),
        ("weekly-2026-W48", "weekly", "2026-W48", 0, 7 * DAY),
    ] {
        let insert = format!(
            "INSERT INTO challenges (id, kind, game, period, opens, closes, seed, created)
             VALUES (?1, ?2, 'g', ?3, {opens}, {closes}, 7, 0)"
        );
        storage
            .exec_for_test(&insert, &[id, kind, period])
            .await
            .unwrap();
    }
    storage
        .exec_for_test(
            "INSERT INTO challenges (id, kind, game, opens, seed, created, target)
             VALUES ('friend-x', 'friend', 'g', 0, 9, 0, 42)",
            &[],
        )
        .await
        .unwrap();
    let back = match &db.database {
        Database::Sqlite(_) => "PRAGMA user_version = 10",
        Database::Postgres(_) => "UPDATE meta SET value = '8' WHERE key = 'schema'",
    };
    for statement in [
        "ALTER TABLE challenges DROP COLUMN streak_follows",
        "DROP INDEX challenges_by_opening",
        "CREATE INDEX challenges_by_opening ON challenges (opens DESC) WHERE kind <> 'friend'",
        back,
    ] {
        storage.exec_for_test(statement, &[]).await.unwrap();
    }
    drop(storage);
    let storage = db.open().await;
    let row = |id: &'static str| {
        let storage = storage.clone();
        async move { storage.challenge(id).await.unwrap().unwrap().challenge }
    };
    let d = row("daily-2026-11-26").await;
    assert_eq!(
        (
            d.kind.as_str(),
            d.period.as_deref(),
            d.opens,
            d.closes,
            d.seed
        ),
        ("daily", Some("2026-11-26"), DAY, Some(2 * DAY), 7)
    );
    assert_eq!(d.streak_follows.as_deref(), Some("2026-11-25"));
    assert_eq!(row("weekly-2026-W48").await.streak_follows, None);
    let f = row("friend-x").await;
    assert_eq!(
        (f.closes, f.target, f.streak_follows),
        (None, Some(42), None)
    );
    let past: Vec<String> = storage
        .past_challenges(10 * DAY, None, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.challenge.id)
        .collect();
    assert_eq!(
        past,
        ["daily-2026-11-26", "daily-2026-11-25", "weekly-2026-W48"]
    );
    // A challenge of a kind never seen, counting as the server says.
    let mut hourly = row("daily-2026-11-26").await;
    (hourly.id, hourly.kind) = ("hourly-7".into(), "hourly".into());
    (hourly.period, hourly.streak_follows) = (Some("7".into()), Some("6".into()));
    storage.ensure_challenge(hourly).await.unwrap();
    // Ann finishes both dailies and the hourly one.
    for (i, challenge) in ["daily-2026-11-25", "daily-2026-11-26", "hourly-7"]
        .into_iter()
        .enumerate()
    {
        let id = format!("e{i}");
        let mut game = new_game(&id, GameKind::from("g"), 1);
        game.seats[0].player = Some("ann".into());
        game.entry = Some(challenges::NewEntry {
            challenge: challenge.into(),
            seat: 0,
            player: Some("ann".into()),
            name: "ann".into(),
            started: 1,
            addr: None,
            deadline: None,
        });
        storage.create_game(game).await.unwrap();
        let mut done = finished(2 + i as i64);
        done.entries = vec![challenges::SeatResult {
            seat: 0,
            score: 10,
            k2: 0,
        }];
        storage.mark_finished(&id, done).await.unwrap();
    }
    let streaks = storage
        .streaks("ann", &["daily", "hourly", "weekly"])
        .await
        .unwrap();
    let runs: Vec<(&str, i64, i64, Option<&str>)> = streaks
        .iter()
        .map(|(k, s)| (k.as_str(), s.current, s.longest, s.last.as_deref()))
        .collect();
    assert_eq!(
        runs,
        [
            ("daily", 2, 2, Some("2026-11-26")),
            ("hourly", 1, 1, Some("7")),
            ("weekly", 0, 0, None),
        ]
    );
}

/// A player made on its first device, whose key is the player's row's.
trait FirstDevice {
    async fn create_player_on_first_device(
        &self,
        player: challenges::PlayerRow,
    ) -> Result<(), StorageError>;
}

impl FirstDevice for Storage {
    async fn create_player_on_first_device(
        &self,
        player: challenges::PlayerRow,
    ) -> Result<(), StorageError> {
        let device = identity::NewDevice {
            id: player.id.clone(),
            token_hash: player.token_hash.clone(),
            label: "A browser".into(),
            how: identity::How::Created,
            at: player.created,
        };
        self.create_player(player, device).await
    }
}

fn device(id: &str, hash: &str, how: identity::How, at: i64) -> identity::NewDevice {
    identity::NewDevice {
        id: id.into(),
        token_hash: hash.into(),
        label: format!("device {id}"),
        how,
        at,
    }
}

fn ann() -> challenges::PlayerRow {
    challenges::PlayerRow {
        id: "ann".into(),
        name: "Ann".into(),
        token_hash: "k1".into(),
        created: 1,
        name_key: Some("ann".into()),
    }
}

#[tokio::test]
async fn each_device_has_a_key_of_its_own_and_signs_out_alone() {
    for db in backends().await {
        let storage = db.open().await;
        storage
            .create_player(ann(), device("d1", "k1", identity::How::Created, 1))
            .await
            .unwrap();
        // A recovery code signs a second device in, once.
        storage
            .set_recovery_code("ann", "c1".into(), 2)
            .await
            .unwrap();
        storage
            .recover("c1".into(), device("d2", "k2", identity::How::Recovery, 3))
            .await
            .unwrap();
        let again = storage
            .recover("c1".into(), device("d3", "k3", identity::How::Recovery, 4))
            .await;
        assert!(matches!(again, Err(StorageError::NotFound(_))), "{again:?}");
        for (key, dev) in [("k1", "d1"), ("k2", "d2")] {
            let (player, d) = storage.device_by_token(key).await.unwrap().unwrap();
            assert_eq!((player.id.as_str(), d.id.as_str()), ("ann", dev));
        }
        assert!(storage.device_by_token("k3").await.unwrap().is_none());
        let shown = storage.identity("ann").await.unwrap();
        let devices: Vec<_> = shown
            .devices
            .iter()
            .map(|d| (d.id.as_str(), d.how))
            .collect();
        assert_eq!(
            devices,
            [
                ("d1", identity::How::Created),
                ("d2", identity::How::Recovery)
            ]
        );
        assert_eq!(shown.recovery, None, "a used code is gone");
        // Signing the first device out leaves the second signed in; no one else's device
        // can be signed out.
        let other = storage.sign_out("bob", "d2").await;
        assert!(matches!(other, Err(StorageError::NotFound(_))));
        storage.sign_out("ann", "d1").await.unwrap();
        assert!(storage.device_by_token("k1").await.unwrap().is_none());
        assert_eq!(
            storage.player_by_token("k2").await.unwrap().unwrap().id,
            "ann"
        );
        // A new key for a device: the old one opens nothing.
        storage
            .replace_device_key("d2", "k2b".into())
            .await
            .unwrap();
        assert!(storage.player_by_token("k2").await.unwrap().is_none());
        assert!(storage.player_by_token("k2b").await.unwrap().is_some());
        storage.device_seen("d2", 50).await.unwrap();
        storage.device_seen("d2", 40).await.unwrap();
        let (_, d2) = storage.device_by_token("k2b").await.unwrap().unwrap();
        assert_eq!(d2.seen, 50, "a sight never goes back in time");
    }
}

#[tokio::test]
async fn a_link_signs_in_once_before_it_expires() {
    for db in backends().await {
        let storage = db.open().await;
        storage
            .create_player(ann(), device("d1", "k1", identity::How::Created, 1))
            .await
            .unwrap();
        storage
            .make_link("ann", "l1".into(), 100, 10)
            .await
            .unwrap();
        storage
            .make_link("ann", "l2".into(), 100, 10)
            .await
            .unwrap();
        let late = storage
            .follow_link("l2".into(), device("d9", "k9", identity::How::Link, 100))
            .await;
        assert!(matches!(late, Err(StorageError::NotFound(_))), "{late:?}");
        storage
            .follow_link("l1".into(), device("d2", "k2", identity::How::Link, 99))
            .await
            .unwrap();
        let twice = storage
            .follow_link("l1".into(), device("d3", "k3", identity::How::Link, 99))
            .await;
        assert!(matches!(twice, Err(StorageError::NotFound(_))), "{twice:?}");
        assert_eq!(storage.identity("ann").await.unwrap().devices.len(), 2);
        assert!(storage.device_by_token("k9").await.unwrap().is_none());
    }
}

#[tokio::test]
async fn passkeys_and_their_ceremonies() {
    for db in backends().await {
        let storage = db.open().await;
        storage
            .create_player(ann(), device("d1", "k1", identity::How::Created, 1))
            .await
            .unwrap();
        let key = identity::PasskeyRow {
            id: "c0ffee".into(),
            player: "ann".into(),
            name: "Phone".into(),
            passkey: "{}".into(),
            created: 5,
            used: None,
        };
        storage.add_passkey(key.clone()).await.unwrap();
        assert!(matches!(
            storage.add_passkey(key.clone()).await,
            Err(StorageError::Duplicate(_))
        ));
        storage
            .passkey_used(
                "c0ffee",
                "{\"n\":1}".into(),
                device("d2", "k2", identity::How::Passkey, 7),
            )
            .await
            .unwrap();
        let used = storage.passkey("c0ffee").await.unwrap().unwrap();
        assert_eq!((used.passkey.as_str(), used.used), ("{\"n\":1}", Some(7)));
        assert_eq!(
            storage.player_by_token("k2").await.unwrap().unwrap().id,
            "ann"
        );
        // A ceremony is taken once.
        let ceremony = identity::Ceremony {
            id: "cer".into(),
            player: None,
            state: "s".into(),
            expires: 9,
        };
        storage.begin_ceremony(ceremony.clone()).await.unwrap();
        assert_eq!(storage.take_ceremony("cer").await.unwrap(), Some(ceremony));
        assert_eq!(storage.take_ceremony("cer").await.unwrap(), None);
        assert!(matches!(
            storage.remove_passkey("bob", "c0ffee").await,
            Err(StorageError::NotFound(_))
        ));
        storage.remove_passkey("ann", "c0ffee").await.unwrap();
        assert!(storage.identity("ann").await.unwrap().passkeys.is_empty());
    }
}

#[tokio::test]
async fn the_players_keys_become_their_first_devices() {
    for db in backends().await {
        let storage = db.open().await;
        storage
            .create_player(ann(), device("d1", "k1", identity::How::Created, 1))
            .await
            .unwrap();
        // Back to the version before devices, the player's key in its row only.
        let back = match &db.database {
            Database::Sqlite(_) => "PRAGMA user_version = 14",
            Database::Postgres(_) => "UPDATE meta SET value = '12' WHERE key = 'schema'",
        };
        for statement in [
            "DROP TABLE ceremonies",
            "DROP TABLE passkeys",
            "DROP TABLE links",
            "DROP TABLE recovery_codes",
            "DROP TABLE devices",
            back,
        ] {
            storage.exec_for_test(statement, &[]).await.unwrap();
        }
        drop(storage);
        let storage = db.open().await;
        let (player, d) = storage.device_by_token("k1").await.unwrap().unwrap();
        assert_eq!((player.id.as_str(), d.id.as_str()), ("ann", "ann"));
        assert_eq!((d.how, d.created, d.seen), (identity::How::Created, 1, 1));
    }
}

#[tokio::test]
async fn a_reminder_is_stored_once_claimed_by_one_and_forgotten_once_long_sent() {
    for db in backends().await {
        let storage = db.open().await;
        storage
            .create_player(ann(), device("d1", "k1", identity::How::Created, 1))
            .await
            .unwrap();
        let reminder = |key: &str, due| reminders::Reminder {
            key: key.into(),
            player: "ann".into(),
            message: "{}".into(),
            due,
        };
        storage.remind(reminder("a", 10)).await.unwrap();
        // The same key again is nothing, whatever it says.
        storage.remind(reminder("a", 5)).await.unwrap();
        storage.remind(reminder("b", 100)).await.unwrap();
        let one = storage.claim_reminders("p1", 20, 60, 10).await.unwrap();
        assert_eq!(one, [reminder("a", 10)]);
        // Held by p1: another process claims nothing until the hold has passed.
        assert!(
            storage
                .claim_reminders("p2", 21, 60, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            storage.claim_reminders("p2", 90, 60, 10).await.unwrap(),
            [reminder("a", 10)]
        );
        storage.reminder_sent("a", 91).await.unwrap();
        assert!(
            storage
                .claim_reminders("p3", 200, 60, 10)
                .await
                .unwrap()
                .iter()
                .all(|r| r.key == "b")
        );
        assert_eq!(storage.reminder("a").await.unwrap(), Some(Some(91)));
        storage.prune_reminders(92).await.unwrap();
        assert_eq!(storage.reminder("a").await.unwrap(), None);
        assert_eq!(
            storage.reminder("b").await.unwrap(),
            Some(None),
            "unsent: kept"
        );
    }
}
