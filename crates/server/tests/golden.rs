//! Golden fixtures: the safety net of every answer the API gives over stored games.
//!
//! `tests/fixtures/golden.sql` holds a database of every generation of stored format the
//! server must keep loading, replaying and scoring the same: games of schema 1 (no results, no
//! lobby, no `chosen` flag, a player joining mid-game), of schema 2, of schema 3 (players,
//! challenges, friend challenges, names that were not unique) and of today's schema 4, in the
//! form each version wrote them and the current server's upgrade left them (its header says
//! how it was made and what each generation is). Each test loads it into a fresh database of
//! the current schema (SQLite, or PostgreSQL with `TRACKLAYER_TEST_BACKEND=postgres`: the
//! answers are the same on both), starts the server at the fixed time 2026-11-28T12:00:00Z,
//! and compares every GET answer with its snapshot in `tests/snapshots/golden__*.snap`:
//! each game's state (as a spectator, as each seat, as each player while its challenge hides
//! it), replay and first live update; the recent games, the challenges (current, past, each
//! leaderboard as each player), the players, the tiles, the viewers and the health check. The
//! final scores of every finished game's replay are also checked against the table below.
//!
//! A game's answers are written one line per item below their second level (a replay step, a
//! player), so that a change shows as the lines it changes; an answer equal to an earlier one
//! of the same snapshot is written as `same as …`. Times that run on (`now`), and the process
//! id of the health check, are redacted.
//!
//! A snapshot that differs fails the test. When an answer changes on purpose, update the
//! snapshots deliberately and review every line of the diff before committing it:
//!
//! ```text
//! INSTA_UPDATE=always cargo test -p server --test golden
//! git diff crates/server/tests/snapshots/
//! ```
//!
//! (then once more without `INSTA_UPDATE`, and on PostgreSQL with
//! `TRACKLAYER_TEST_BACKEND=postgres TRACKLAYER_TEST_PG=postgres://…`, to see them pass). A fixture game that stops loading is a broken promise to the players whose
//! games are stored in that form: fix the server, not the fixture.

mod common;

use std::time::Duration;

use common::{Answer, Client, TestApp};
use http_body_util::BodyExt;
use hyper::StatusCode;
use serde_json::{Value, json};
use server::ids::legacy_challenge_seat_token;

/// The fixture's statements (see its header).
const FIXTURE: &str = include_str!("fixtures/golden.sql");

/// The server's clock: 26 and 27 November are over, the 28th is under way.
const NOW: &str = "2026-11-28T12:00:00Z";

/// The players' tokens (the fixture stores their hashes).
const ANN: &str = "player-ann";
const BOB: &str = "player-bob";
const CY: &str = "player-cy";
const DEE: &str = "player-dee";
/// ANN, a second player called Ann from before names were unique.
const ANN2: &str = "player-ann2";

/// Every player: name, id, token.
const PLAYERS: [(&str, &str, &str); 5] = [
    ("Ann", "aaaaaaaaaaaaaaaaaaaaaaaa", ANN),
    ("Bob", "bbbbbbbbbbbbbbbbbbbbbbbb", BOB),
    ("Cy", "cccccccccccccccccccccccc", CY),
    ("Dee", "dddddddddddddddddddddddd", DEE),
    ("ANN", "aaaaaaaaaaaaaaaaaaaaaaa2", ANN2),
];

/// Every challenge of the fixture.
const CHALLENGES: [&str; 12] = [
    "weekly-2026-W47",
    "daily-2026-11-20",
    "daily-2026-11-26",
    "metro-daily-2026-11-26",
    "weekly-2026-W48",
    "friend-f00000000000000000000001",
    "friend-f00000000000000000000002",
    "daily-2026-11-27",
    "metro-daily-2026-11-27",
    "friend-f00000000000000000000003",
    "daily-2026-11-28",
    "metro-daily-2026-11-28",
];

/// Whose token opens a fixture game's seat.
enum TokenOf {
    /// These seats' own tokens (`seat-GAME-SEAT`).
    Seats(Vec<usize>),
    /// The player who sits in seat 0 (a challenge's game).
    Player(&'static str),
    /// No seat has a token (computers only).
    Nobody,
}

/// A game of the fixture.
struct FixtureGame {
    id: &'static str,
    kind: &'static str,
    /// What it stands for (as the fixture says).
    what: &'static str,
    token: TokenOf,
    /// The challenge it belongs to.
    challenge: Option<&'static str>,
    /// Each seat's final (advanced) score, once over.
    scores: Option<Vec<i64>>,
    /// In a challenge that hides its games at the clock (open, or a friend challenge).
    hidden: bool,
}

impl FixtureGame {
    /// The tokens that open a seat, with what to call them.
    fn tokens(&self) -> Vec<(String, String)> {
        match &self.token {
            TokenOf::Seats(seats) => seats
                .iter()
                .map(|s| (format!("seat {s}"), format!("seat-{}-{s}", self.id)))
                .collect(),
            TokenOf::Player(token) => {
                let challenge = self.challenge.expect("a challenge's game");
                vec![
                    (format!("its player ({token})"), (*token).to_owned()),
                    (
                        "its seat's own token".to_owned(),
                        legacy_challenge_seat_token(token, challenge),
                    ),
                ]
            }
            TokenOf::Nobody => Vec::new(),
        }
    }
}

/// The fixture's games (ids as in its header), each one a snapshot; one a line: its id, kind
/// and challenge (`-`: none); whose token opens a seat (these seats' own, `seat-GAME-SEAT`:
/// `0,1`; the player's who sits in seat 0 of a challenge's game: the player's token; `-`:
/// nobody, computers only); each seat's final (advanced) score, once over (`-`: not over);
/// `hidden` in a challenge that hides its games at the clock (open, or a friend challenge); and
/// what it stands for (as the fixture says).
const GAMES: &str = "
100000000000000000000001 ink   -                               0           12          -      | Railroad Ink, solo, seed chosen but stored without `chosen` (schema 1: result backfilled at upgrade, finished = created)
100000000000000000000002 ink   -                               0           5,9         -      | Railroad Ink against the computer (greedy), schema 1, no `chosen`
100000000000000000000003 ink   -                               0,1         -1,6        -      | Railroad Ink online game of before lobbies (no start row): Dot joined after round 0 (a `join` mid-game), schema 1
100000000000000000000004 ink   -                               0           -           -      | Railroad Ink solo, unfinished in round 3, an `undo` in its log, schema 1 (no result)
100000000000000000000005 metro -                               0,1         58,76,60    -      | Metro, a person on the device, an invited person who joined, a greedy computer; seed chosen, no `chosen`; a `keep`; schema 1
200000000000000000000001 ink   -                               0,1,2       6,-3,2      -      | Railroad Ink online game of three, before lobbies (no start row), result kept at its finish (schema 2)
200000000000000000000002 ink   -                               0,1         -           -      | Railroad Ink online game of two before lobbies, unfinished in round 2 (no start row: it reads as started)
200000000000000000000003 metro -                               0,2         -           -      | Metro waiting for an invited seat (1) nobody took; seat 2 invited and taken
200000000000000000000004 metro -                               -           42,43,108   -      | Metro of computers only (refused since 6384002), schema 2
300000000000000000000001 ink   weekly-2026-W47                 player-dee  2           -      | Dee's attempt at weekly-2026-W47, finished
300000000000000000000002 ink   daily-2026-11-26                player-ann  6           -      | Ann's attempt at daily-2026-11-26, finished
300000000000000000000003 ink   daily-2026-11-26                player-bob  1           -      | Bob's attempt at daily-2026-11-26, finished
300000000000000000000004 ink   daily-2026-11-26                player-cy   -           -      | Cy's attempt at daily-2026-11-26, unfinished
300000000000000000000005 metro metro-daily-2026-11-26          player-ann  20,66,51,59 -      | Ann's attempt at metro-daily-2026-11-26, finished
300000000000000000000006 metro metro-daily-2026-11-26          player-bob  -           -      | Bob's attempt at metro-daily-2026-11-26, unfinished
300000000000000000000007 ink   weekly-2026-W48                 player-cy   8           hidden | Cy's attempt at weekly-2026-W48, finished
300000000000000000000008 ink   weekly-2026-W48                 player-bob  9           hidden | Bob's attempt at weekly-2026-W48, finished
300000000000000000000009 ink   -                               0           5           -      | Railroad Ink solo with a chosen seed (`chosen`: true), Ann's (a player's seat), schema 3
30000000000000000000000a ink   friend-f00000000000000000000001 0,1         0,3         hidden | Railroad Ink online game of Bob and Cy (players) before lobbies; two friend challenges were made from it (Bob's, then Cy's)
30000000000000000000000b ink   friend-f00000000000000000000001 player-ann  3           hidden | Ann's attempt at friend-f00000000000000000000001, finished
30000000000000000000000c ink   daily-2026-11-26                player-ann2 1           -      | ANN, a second player of the name Ann (before names were unique: no name key), played as Bob did
3c0000000000000000000001 ink   weekly-2026-W47                 -           41          -      | the computer's game of weekly-2026-W47
3c0000000000000000000002 ink   daily-2026-11-20                -           49          -      | the computer's game of daily-2026-11-20
3c0000000000000000000003 ink   daily-2026-11-26                -           47          -      | the computer's game of daily-2026-11-26
3c0000000000000000000004 metro metro-daily-2026-11-26          -           35,49,48,38 -      | the computer's game of metro-daily-2026-11-26
3c0000000000000000000005 ink   weekly-2026-W48                 -           50          hidden | the computer's game of weekly-2026-W48
3c0000000000000000000006 ink   friend-f00000000000000000000001 -           49          hidden | the computer's game of friend-f00000000000000000000001
3c0000000000000000000007 ink   friend-f00000000000000000000002 -           49          hidden | the computer's game of friend-f00000000000000000000002
400000000000000000000001 ink   daily-2026-11-27                player-ann  17          -      | Ann's attempt at daily-2026-11-27, finished
400000000000000000000002 ink   daily-2026-11-27                player-dee  2           -      | Dee's attempt at daily-2026-11-27, finished, unranked (its network had an entry first)
400000000000000000000003 ink   daily-2026-11-27                player-bob  -           -      | Bob's attempt at daily-2026-11-27, unfinished, unranked (its network had an entry first)
400000000000000000000004 metro metro-daily-2026-11-27          player-bob  35,60,62,73 -      | Bob's attempt at metro-daily-2026-11-27, finished
400000000000000000000005 metro metro-daily-2026-11-27          player-cy   22,51,70,54 -      | Cy's attempt at metro-daily-2026-11-27, finished, unranked (its network had an entry first)
400000000000000000000006 ink   -                               0,1         -1,8        -      | Railroad Ink online game through its lobby (a start row), Ann (a player) and Dee, schema 4
400000000000000000000007 ink   -                               0,1         -           -      | Railroad Ink online game waiting in its lobby: Eve and Fay (how a pre-lobby game with joins only reads too)
400000000000000000000008 ink   friend-f00000000000000000000003 0           2           hidden | Railroad Ink solo, Bob's, made a friend challenge of (schema 4: the game is the challenge's from the start)
400000000000000000000009 ink   friend-f00000000000000000000003 player-cy   1           hidden | Cy's attempt at friend-f00000000000000000000003, finished
40000000000000000000000a ink   friend-f00000000000000000000003 player-ann  -           hidden | Ann's attempt at friend-f00000000000000000000003, unfinished
40000000000000000000000b metro -                               0           122,67      -      | Metro with a chosen seed (`chosen`: true), Cy's, against a greedy computer, a `keep`
40000000000000000000000c metro -                               0,1         -           -      | Metro, two people on one device, at seat 1's turn
40000000000000000000000d ink   daily-2026-11-28                player-ann  7           hidden | Ann's attempt at daily-2026-11-28, finished
40000000000000000000000e ink   daily-2026-11-28                player-bob  -           hidden | Bob's attempt at daily-2026-11-28, unfinished
40000000000000000000000f metro metro-daily-2026-11-28          player-cy   19,96,44,46 hidden | Cy's attempt at metro-daily-2026-11-28, finished
400000000000000000000010 metro metro-daily-2026-11-28          player-dee  -           hidden | Dee's attempt at metro-daily-2026-11-28, unfinished
400000000000000000000011 ink   weekly-2026-W48                 player-ann  -           hidden | Ann's attempt at weekly-2026-W48, unfinished
4c0000000000000000000001 ink   daily-2026-11-27                -           49          -      | the computer's game of daily-2026-11-27
4c0000000000000000000002 metro metro-daily-2026-11-27          -           34,51,43,44 -      | the computer's game of metro-daily-2026-11-27
4c0000000000000000000003 ink   friend-f00000000000000000000003 -           58          hidden | the computer's game of friend-f00000000000000000000003
4c0000000000000000000004 ink   daily-2026-11-28                -           49          hidden | the computer's game of daily-2026-11-28
4c0000000000000000000005 metro metro-daily-2026-11-28          -           36,49,59,43 hidden | the computer's game of metro-daily-2026-11-28
";

/// The games of [`GAMES`].
fn games() -> Vec<FixtureGame> {
    fn list<T: std::str::FromStr<Err: std::fmt::Debug>>(text: &str) -> Vec<T> {
        text.split(',').map(|n| n.parse().unwrap()).collect()
    }
    let field = |text: &'static str| Some(text).filter(|&t| t != "-");
    GAMES
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (fields, what) = line.split_once(" | ").unwrap();
            let f: Vec<&'static str> = fields.split_whitespace().collect();
            FixtureGame {
                id: f[0],
                kind: f[1],
                what,
                challenge: field(f[2]),
                token: match field(f[3]) {
                    None => TokenOf::Nobody,
                    Some(t) if t.starts_with("player-") => TokenOf::Player(t),
                    Some(seats) => TokenOf::Seats(list(seats)),
                },
                scores: field(f[4]).map(list),
                hidden: f[5] == "hidden",
            }
        })
        .collect()
}

/// Compares `value` with the JSON snapshot `name`, its maps sorted by key.
fn assert_json(name: &str, value: &Value) {
    insta::with_settings!({ sort_maps => true }, {
        insta::assert_json_snapshot!(name, value);
    });
}

/// A server at the clock, on a fresh database that holds the fixture (and the folder of its
/// SQLite file).
struct Fixture {
    app: TestApp,
    _dir: tempfile::TempDir,
}

/// Loads the fixture into a fresh database of the current schema (made by opening it), steps
/// it back to before streaks, then starts the server on it at [`NOW`] (which upgrades it).
async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = common::test_database(&dir.path().join("golden.sqlite")).await;
    let storage = server::storage::Storage::connect(&db)
        .await
        .expect("a fresh database of the current schema");
    for statement in statements(FIXTURE) {
        storage
            .exec_for_test(&statement, &[])
            .await
            .unwrap_or_else(|e| panic!("{e}: {}", &statement[..statement.len().min(400)]));
    }
    // Streaks, records and rematches came after every generation here: the database is
    // stepped back to before them, and the server's upgrade fills streaks and records in from
    // the finished entries and games, as it would for a database of that time.
    let before_streaks = if matches!(db, server::Database::Sqlite(_)) {
        "PRAGMA user_version = 5"
    } else {
        "UPDATE meta SET value = '3' WHERE key = 'schema'"
    };
    for statement in [
        "DROP TABLE streaks",
        "DROP TABLE bests",
        "DROP TABLE rematches",
        before_streaks,
    ] {
        storage
            .exec_for_test(statement, &[])
            .await
            .expect(statement);
    }
    drop(storage);
    let clock = server::Clock::parse(NOW).expect("the clock");
    let app = TestApp::start_with(|c| {
        c.db = db;
        c.clock = clock;
        c.challenge_budget = Some(4);
    })
    .await;
    // The month's challenge is not in the fixture (monthly challenges came after it): the
    // server makes it at its first listing, and its computer plays it at once. Its score is
    // the same every time (a fixed budget on the fixture's seed); wait for it.
    common::challenge::wait_for_computer(&app, "monthly-2026-11").await;
    // So is the week's Deep Blue challenge (the river in ISO week 48), added later still.
    common::challenge::wait_for_computer(&app, "weekly-river-2026-W48").await;
    Fixture { app, _dir: dir }
}

/// The statements of a SQL text: each ends its line with `;`; lines of `--` comments are
/// left out.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.trim_start().starts_with("--") {
            continue;
        }
        let end = line.trim_end().strip_suffix(';');
        current.push_str(end.unwrap_or(line));
        current.push('\n');
        if end.is_some() {
            out.push(std::mem::take(&mut current));
        }
    }
    assert!(
        current.trim().is_empty(),
        "the fixture ends inside a statement"
    );
    out
}

/// An answer: its status and its body (`null` when empty), every `now` redacted.
async fn get(app: &TestApp, path: &str, token: Option<&str>) -> Value {
    let (status, body) = app.get(path, token).await;
    redact_now(json!({ "status": status.as_u16(), "body": body }))
}

/// `v` with the value of every `now` (the server's clock, which runs on) as `[now]`.
fn redact_now(mut v: Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "now" {
                        *x = json!("[now]");
                    } else {
                        walk(x);
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut v);
    v
}

/// The first `event: state` of a game's live updates (its data as the body), or the refusal.
async fn first_event(app: &TestApp, path: &str) -> Value {
    let mut client = Client::connect(app.addr).await;
    let response = client.send("GET", path, &[], Vec::new()).await;
    let status = response.status();
    let mut body = response.into_body();
    if status != StatusCode::OK {
        let bytes = body.collect().await.expect("the body").to_bytes();
        let error: Value = serde_json::from_slice(&bytes).expect("a JSON error");
        return json!({ "status": status.as_u16(), "body": error });
    }
    let mut text = String::new();
    loop {
        if let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            if event.lines().any(|l| l == "event: state") {
                let data = event
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .expect("a data line");
                let data: Value = serde_json::from_str(data).expect("JSON data");
                return json!({ "status": 200, "body": data });
            }
            continue;
        }
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .expect("an event in time")
            .expect("the stream open")
            .expect("a frame");
        if let Ok(data) = frame.into_data() {
            text.push_str(std::str::from_utf8(&data).expect("UTF-8"));
        }
    }
}

/// Answers in order, each under a name: written as a text snapshot.
#[derive(Default)]
struct Record {
    answers: Vec<(String, Value)>,
}

impl Record {
    fn add(&mut self, name: impl Into<String>, answer: Value) {
        self.answers.push((name.into(), answer));
    }

    /// `GET path` without a token, under its name.
    async fn get(&mut self, app: &TestApp, path: &str) {
        self.add(format!("GET {path}"), get(app, path, None).await);
    }

    /// `path` as nobody (`anonymous`), then as each player (`as Ann`).
    async fn as_everyone(&mut self, app: &TestApp, path: &str) {
        self.add("anonymous", get(app, path, None).await);
        for (name, _, token) in PLAYERS {
            self.add(format!("as {name}"), get(app, path, Some(token)).await);
        }
    }

    /// `GET {list}{query}` and each page after it (asked for `before` the last one's `next`).
    async fn pages(&mut self, app: &TestApp, list: &str, query: &str) {
        let mut path = format!("{list}{query}");
        for _ in 0..20 {
            let answer = get(app, &path, None).await;
            let next = answer["body"]["next"].as_str().map(str::to_owned);
            self.add(format!("GET {path}"), answer);
            let Some(next) = next else { return };
            let sep = if query.is_empty() { "?" } else { "&" };
            path = format!("{list}{query}{sep}before={next}");
        }
        panic!("the pages of {list}{query} end");
    }

    /// `title`, then each answer: its status and body laid out, or the earlier answer it
    /// equals.
    fn text(&self, title: &str) -> String {
        let mut out = format!("{title}\n");
        for (i, (name, answer)) in self.answers.iter().enumerate() {
            match self.answers[..i].iter().find(|(_, a)| a == answer) {
                Some((same, _)) => out.push_str(&format!("\n== {name}: same as {same}\n")),
                None => {
                    out.push_str(&format!("\n== {name}: {}\n", answer["status"]));
                    layout(&answer["body"], 2, 0, &mut out);
                    out.push('\n');
                }
            }
        }
        out
    }

    /// The answers as one JSON object, for `assert_json_snapshot!`, each under its number and
    /// name (`01 anonymous`): an answer equal to an earlier one is `{"same as": …}`.
    fn json(&self) -> Value {
        let key = |i: usize| format!("{:02} {}", i + 1, self.answers[i].0);
        let mut out = serde_json::Map::new();
        for (i, (_, answer)) in self.answers.iter().enumerate() {
            let value = match self.answers[..i].iter().position(|(_, a)| a == answer) {
                Some(same) => json!({ "same as": key(same) }),
                None => answer.clone(),
            };
            out.insert(key(i), value);
        }
        Value::Object(out)
    }
}

/// `v` as JSON with its keys sorted: objects and arrays of the first `levels` levels one item a
/// line, anything deeper on one line.
fn layout(v: &Value, levels: usize, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    match v {
        Value::Object(m) if levels > 0 && !m.is_empty() => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push_str("{\n");
            for (i, k) in keys.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&serde_json::to_string(k).expect("a key"));
                out.push_str(": ");
                layout(&m[k.as_str()], levels - 1, indent + 1, out);
                out.push_str(if i + 1 < keys.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Value::Array(a) if levels > 0 && !a.is_empty() => {
            out.push_str("[\n");
            for (i, x) in a.iter().enumerate() {
                out.push_str(&pad);
                layout(x, levels - 1, indent + 1, out);
                out.push_str(if i + 1 < a.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        _ => out.push_str(&serde_json::to_string(&sorted(v)).expect("JSON")),
    }
}

/// `v` with the keys of every object sorted (whatever order `serde_json` keeps them in).
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = serde_json::Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&m[k.as_str()]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The final scores in a replay's body: each seat's advanced score (Railroad Ink), the scores
/// (Metro).
fn final_scores(kind: &str, replay: &Value) -> Vec<i64> {
    let scores: Vec<&Value> = match kind {
        "ink" => replay["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|p| &p["score"]["advanced"])
            .collect(),
        _ => replay["scores"]
            .as_array()
            .expect("scores")
            .iter()
            .collect(),
    };
    scores
        .into_iter()
        .map(|s| s.as_i64().expect("a score"))
        .collect()
}

/// Every fixture game: its state as a spectator, as each of its seats (and, while its
/// challenge hides it, as each player), its replay and its first live update, as one snapshot
/// a game; and its replay's final scores as stored.
#[tokio::test]
async fn every_game_loads_replays_and_scores_as_stored() {
    let f = fixture().await;
    let app = &f.app;
    for game in games() {
        let path = format!("/api/{}/games/{}", game.kind, game.id);
        let tokens = game.tokens();
        let others: Vec<(String, String)> = if game.hidden {
            PLAYERS
                .iter()
                .filter(|(_, _, t)| !tokens.iter().any(|(_, mine)| mine == t))
                .map(|(name, _, t)| ((*name).to_owned(), (*t).to_owned()))
                .collect()
        } else {
            Vec::new()
        };
        let mut r = Record::default();
        r.add("state", get(app, &path, None).await);
        for (who, token) in tokens.iter().chain(&others) {
            r.add(
                format!("state as {who}"),
                get(app, &path, Some(token)).await,
            );
        }
        let mut replays = vec![get(app, &format!("{path}/replay"), None).await];
        r.add("replay", replays[0].clone());
        for (who, token) in tokens.iter().chain(&others) {
            let replay = get(app, &format!("{path}/replay"), Some(token)).await;
            r.add(format!("replay as {who}"), replay.clone());
            replays.push(replay);
        }
        r.add("events", first_event(app, &format!("{path}/events")).await);
        for (who, token) in &tokens {
            let events = first_event(app, &format!("{path}/events?token={token}")).await;
            r.add(format!("events as {who}"), events);
        }
        let (status, state) = app.get(&path, None).await;
        let seen = replays.iter().find(|v| v["status"] == 200);
        match &game.scores {
            Some(scores) => {
                let replay = seen.unwrap_or_else(|| panic!("{}: no one sees its replay", game.id));
                assert_eq!(
                    final_scores(game.kind, &replay["body"]),
                    *scores,
                    "{}: the replay's final scores",
                    game.id
                );
                if status == StatusCode::OK {
                    assert_eq!(state["finished"], true, "{}", game.id);
                }
            }
            None => {
                assert!(seen.is_none(), "{}: a game not over has no replay", game.id);
                if status == StatusCode::OK {
                    assert_eq!(state["finished"], false, "{}", game.id);
                }
            }
        }
        assert_eq!(
            status == StatusCode::FORBIDDEN,
            game.hidden,
            "{}: hidden from a spectator exactly while its challenge hides it",
            game.id
        );
        let title = format!("{} game {}: {}", game.kind, game.id, game.what);
        insta::assert_snapshot!(format!("game_{}", game.id), r.text(&title));
    }
}

/// The recent games, page by page (all, each kind, small pages), and the refusals of the list.
#[tokio::test]
async fn the_recent_games_list_every_finished_game_of_no_challenge() {
    let f = fixture().await;
    let app = &f.app;
    let mut r = Record::default();
    for query in ["", "?kind=ink", "?kind=metro", "?limit=4"] {
        r.pages(app, "/api/games", query).await;
    }
    for bad in [
        "?kind=chess",
        "?limit=0",
        "?finished=false",
        "?before=yesterday",
    ] {
        r.get(app, &format!("/api/games{bad}")).await;
    }
    assert_json("recent_games", &r.json());
}

/// The challenges: today's (as nobody and as each player), the past ones page by page, and
/// each challenge's leaderboard as nobody and as each player.
#[tokio::test]
async fn every_challenge_and_its_leaderboard_as_each_player() {
    let f = fixture().await;
    let app = &f.app;
    let mut r = Record::default();
    r.as_everyone(app, "/api/challenges/current").await;
    assert_json("challenges_current", &r.json());

    let mut r = Record::default();
    for limit in ["", "?limit=2"] {
        r.pages(app, "/api/challenges", limit).await;
    }
    r.get(app, "/api/challenges?before=not-a-time").await;
    assert_json("challenges_past", &r.json());

    for id in CHALLENGES {
        let path = format!("/api/challenges/{id}");
        let mut r = Record::default();
        r.as_everyone(app, &path).await;
        if id == "daily-2026-11-26" {
            let around = format!("{path}?limit=1&around={}", PLAYERS[1].1);
            r.get(app, &around).await;
            r.add(
                format!("GET {around} as Cy"),
                get(app, &around, Some(CY)).await,
            );
        }
        assert_json(&format!("challenge_{id}"), &r.json());
    }
    let mut r = Record::default();
    for path in [
        "/api/challenges/daily-2030-01-01",
        "/api/challenges/friend-ffffffffffffffffffffffff",
        "/api/challenges/no%20such",
        "/api/challenges/daily-2026-11-26?limit=0",
    ] {
        r.get(app, path).await;
    }
    assert_json("challenges_refused", &r.json());
}

/// Every player's page, each player's own (`me`), and their refusals.
#[tokio::test]
async fn every_players_page() {
    let f = fixture().await;
    let app = &f.app;
    let mut r = Record::default();
    for (name, id, token) in PLAYERS {
        let path = format!("/api/players/{id}");
        r.add(format!("{name}: GET {path}"), get(app, &path, None).await);
        r.add(
            format!("{name}: GET /api/players/me"),
            get(app, "/api/players/me", Some(token)).await,
        );
    }
    r.add(
        "GET /api/players/me without a token",
        get(app, "/api/players/me", None).await,
    );
    r.add(
        "GET /api/players/me with a token of nobody's",
        get(app, "/api/players/me", Some("nobody")).await,
    );
    for path in ["/api/players/ffffffffffffffffffffffff", "/api/players/Ann"] {
        r.get(app, path).await;
    }
    assert_json("players", &r.json());
}

/// The tiles, the board viewers on the fixture's boards, the health check, hints, and the
/// refusals of games that are not there.
#[tokio::test]
async fn tiles_viewers_health_hints_and_refusals() {
    let f = fixture().await;
    let app = &f.app;
    for kind in ["ink", "metro"] {
        let answer = get(app, &format!("/api/{kind}/tiles"), None).await;
        assert_eq!(answer["status"], 200, "{answer}");
        assert_json(&format!("{kind}_tiles"), &answer["body"]);
    }

    // The viewers, on boards and a sequence of the fixture's games.
    let (_, solo) = app
        .get("/api/ink/games/100000000000000000000001", None)
        .await;
    let board = solo["players"][0]["board"]
        .as_str()
        .expect("a board")
        .to_owned();
    let (_, metro) = app
        .get("/api/metro/games/40000000000000000000000b", None)
        .await;
    let sequence = metro["sequence"].as_str().expect("a sequence").to_owned();
    let mut r = Record::default();
    for path in [
        format!("/api/ink/view?board={board}"),
        format!("/api/ink/view?board={}", &board[..20]),
        "/api/ink/view?board=A1A30A1A30".to_owned(),
        "/api/ink/view?board=Z9".to_owned(),
        "/api/ink/view?board=".to_owned(),
        "/api/ink/view".to_owned(),
        format!("/api/metro/view?players=2&sequence={}", &sequence[..60]),
        "/api/metro/view?players=2&sequence=aaaa03aaaa03".to_owned(),
        "/api/metro/view?players=7&sequence=".to_owned(),
        "/api/metro/view?players=2".to_owned(),
    ] {
        r.get(app, &path).await;
    }
    insta::assert_snapshot!("viewers", r.text("the board viewers"));

    let health = app.get("/api/health", None).await.is(StatusCode::OK);
    insta::assert_json_snapshot!("health", health, {
        ".process" => "[process]",
        ".games_in_memory" => "[count]",
    });

    // A hint is the computer's thinking (it may change with the computer): only that one
    // comes; the refusals are pinned.
    let g1e = "100000000000000000000004";
    let token = format!("seat-{g1e}-0");
    let hint = app
        .get(&format!("/api/ink/games/{g1e}/hint"), Some(&token))
        .await
        .is(StatusCode::OK);
    assert!(
        !hint["placements"]
            .as_array()
            .expect("placements")
            .is_empty(),
        "{hint}"
    );
    let mut r = Record::default();
    for (path, token) in [
        (format!("/api/ink/games/{g1e}/hint"), None),
        (
            format!("/api/ink/games/{g1e}/hint"),
            Some("nobody".to_owned()),
        ),
        (
            "/api/ink/games/100000000000000000000001/hint".to_owned(),
            Some("seat-100000000000000000000001-0".to_owned()),
        ),
        (
            "/api/ink/games/400000000000000000000007/hint".to_owned(),
            Some("seat-400000000000000000000007-0".to_owned()),
        ),
        (
            "/api/ink/games/40000000000000000000000e/hint".to_owned(),
            Some(legacy_challenge_seat_token(BOB, "daily-2026-11-28")),
        ),
        ("/api/ink/games/ffffffffffffffffffffffff".to_owned(), None),
        ("/api/ink/games/not-a-game".to_owned(), None),
        ("/api/metro/games/100000000000000000000001".to_owned(), None),
        ("/api/ink/games/200000000000000000000003".to_owned(), None),
        (
            "/api/ink/games/100000000000000000000001".to_owned(),
            Some("nobody".to_owned()),
        ),
        (
            "/api/metro/games/200000000000000000000003/replay".to_owned(),
            None,
        ),
        (
            "/api/ink/games/ffffffffffffffffffffffff/replay".to_owned(),
            None,
        ),
    ] {
        let name = match &token {
            Some(t) => format!("GET {path} with {t}"),
            None => format!("GET {path}"),
        };
        r.add(name, get(app, &path, token.as_deref()).await);
    }
    assert_json("refusals", &r.json());
}
