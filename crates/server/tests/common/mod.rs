//! The real app on a random port with a fresh database, and a small HTTP client.

#![allow(dead_code)]

pub mod challenge;
pub mod load;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::client::conn::http1::SendRequest;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

/// A running server with its own temporary database.
pub struct TestApp {
    pub addr: SocketAddr,
    /// The SQLite file (when the tests run on SQLite: see [`TestApp::on_sqlite`]).
    pub db: PathBuf,
    /// What a restart starts with (the address and database are the app's own).
    pub config: server::Config,
    /// The games it serves (again after a restart).
    games: fn() -> server::Games,
    running: Option<server::Running>,
    _dir: tempfile::TempDir,
}

impl TestApp {
    pub async fn start() -> TestApp {
        TestApp::start_with(|_| {}).await
    }

    /// Starts with a configuration changed by `f` (its clock, say).
    pub async fn start_with(f: impl FnOnce(&mut server::Config)) -> TestApp {
        TestApp::start_games(server::Games::standard, f).await
    }

    /// Serves `games` with a configuration changed by `f`.
    pub async fn start_games(
        games: fn() -> server::Games,
        f: impl FnOnce(&mut server::Config),
    ) -> TestApp {
        // The server's warnings and errors go to the test's output, shown when it fails (an
        // "internal error" answer says nothing more to the client).
        let _ = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::WARN)
            .with_test_writer()
            .with_ansi(false)
            .try_init();
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("test.sqlite");
        let mut config = test_config(test_database(&db).await);
        f(&mut config);
        let running = server::app::start(&config, games())
            .await
            .expect("server starts");
        TestApp {
            addr: running.addr(),
            db,
            config,
            games,
            running: Some(running),
            _dir: dir,
        }
    }

    /// Whether the app runs on SQLite (some tests look into the file itself).
    pub fn on_sqlite(&self) -> bool {
        matches!(self.config.db, server::Database::Sqlite(_))
    }

    /// Stops the server; [`TestApp::restart`] starts it again on the same database.
    pub async fn stop(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop().await.expect("server stops");
        }
    }

    /// Stops the server and starts a new one on the same database (and a new port).
    pub async fn restart(&mut self) {
        if let Some(running) = self.running.take() {
            running.stop().await.expect("server stops");
        }
        let running = server::app::start(&self.config, (self.games)())
            .await
            .expect("server restarts");
        self.addr = running.addr();
        self.running = Some(running);
    }

    /// A connection of its own to the app's database (to look into it, or change it, as a test).
    pub async fn db(&self) -> server::storage::Storage {
        let db = server::storage::Storage::connect(&self.config.db).await;
        db.expect("the app's database")
    }

    /// The running server's own storage (to change how it behaves, as a test-only hook).
    pub fn storage(&self) -> server::storage::Storage {
        self.running
            .as_ref()
            .expect("the server runs")
            .storage_for_test()
    }

    /// How late the running server acted on each deadline (see `Running::deadline_lateness`).
    pub fn deadlines_lateness(&self) -> Vec<i64> {
        self.running
            .as_ref()
            .expect("the server runs")
            .deadline_lateness()
    }

    /// Where the running server serves its metrics, if anywhere.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.running
            .as_ref()
            .expect("the server runs")
            .metrics_addr()
    }

    /// How many link-preview pictures the running server has drawn.
    pub fn previews_drawn(&self) -> u64 {
        self.running
            .as_ref()
            .expect("the server runs")
            .previews_drawn_for_test()
    }

    pub async fn client(&self) -> Client {
        Client::connect(self.addr).await
    }

    /// One request on a new connection: status and JSON body (`Null` when empty).
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (StatusCode, Value) {
        self.client().await.call(method, path, token, body).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.call("GET", path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &str) -> (StatusCode, Value) {
        self.call("POST", path, token, Some(body)).await
    }
}

/// An answer: its status and JSON body.
pub trait Answer {
    /// Asserts that the status is `want`; the body.
    fn is(self, want: StatusCode) -> Value;
}

impl Answer for (StatusCode, Value) {
    #[track_caller]
    fn is(self, want: StatusCode) -> Value {
        let (status, v) = self;
        assert_eq!(status, want, "{v}");
        v
    }
}

/// A server's configuration for a test on `db`: any port, and neither per-address limits
/// (every test client comes from 127.0.0.1; `limits.rs` tests them) nor shedding (a debug build
/// on a machine busy with other tests waits for its core far longer than a release one serving
/// players; `capacity.rs` tests it).
pub fn test_config(db: server::Database) -> server::Config {
    let mut config = server::Config::new("127.0.0.1:0", db);
    config.limits = server::Limits::off();
    config.capacity.in_flight = 0;
    config.capacity.wait = Duration::ZERO;
    config
}

/// The database the tests run on: `path` (SQLite), or with `TRACKLAYER_TEST_BACKEND=postgres`
/// a fresh PostgreSQL database on the server `TRACKLAYER_TEST_PG` names (as `.ci/run` does in
/// its second pass).
pub async fn test_database(path: &std::path::Path) -> server::Database {
    match std::env::var("TRACKLAYER_TEST_BACKEND").as_deref() {
        Ok("postgres") => server::storage::fresh_test_database()
            .await
            .expect("a PostgreSQL database for the test")
            .expect("TRACKLAYER_TEST_BACKEND=postgres needs TRACKLAYER_TEST_PG"),
        _ => server::Database::Sqlite(path.to_owned()),
    }
}

/// A fresh PostgreSQL database on the server `TRACKLAYER_TEST_PG` names, for a test that needs
/// one; without it `None`, and the test says it is skipped.
pub async fn postgres_only() -> Option<server::Database> {
    let db = server::storage::fresh_test_database().await.unwrap();
    if db.is_none() {
        eprintln!("skipped: TRACKLAYER_TEST_PG is not set");
    }
    db
}

/// Two processes on one fresh PostgreSQL database (see [`postgres_only`]).
pub async fn two_processes() -> Option<(server::Running, server::Running)> {
    let config = test_config(postgres_only().await?);
    let one = server::start(&config).await.unwrap();
    Some((one, server::start(&config).await.unwrap()))
}

/// One keep-alive HTTP/1.1 connection.
pub struct Client {
    sender: SendRequest<Full<Bytes>>,
    host: String,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).await.expect("connects");
        stream.set_nodelay(true).expect("nodelay");
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("handshake");
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Client {
            sender,
            host: addr.to_string(),
        }
    }

    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Response<Incoming> {
        let mut req = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).expect("method"))
            .uri(path);
        // The connection's address, unless the request names another.
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            req = req.header("host", &self.host);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req.body(Full::new(Bytes::from(body))).expect("request");
        self.sender.ready().await.expect("connection ready");
        self.sender.send_request(req).await.expect("response")
    }

    /// A request: status and the raw body.
    pub async fn call_raw(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (StatusCode, Bytes) {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("content-type", "application/json")];
        if let Some(auth) = &auth {
            headers.push(("authorization", auth.as_str()));
        }
        let body = body.unwrap_or("").as_bytes().to_vec();
        let response = self.send(method, path, &headers, body).await;
        (response.status(), self::body(response).await)
    }

    pub async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (StatusCode, Value) {
        let (status, bytes) = self.call_raw(method, path, token, body).await;
        let value = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                panic!(
                    "{method} {path}: {status}: not JSON ({e}): {}",
                    String::from_utf8_lossy(&bytes)
                )
            })
        };
        (status, value)
    }
}

/// The whole body of an answer.
pub async fn body(response: Response<Incoming>) -> Bytes {
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
}

/// Asks for `state` every 25 ms until `what` holds of it (`tries` times at most): the state
/// then.
pub async fn poll<F: std::future::Future<Output = Value>>(
    tries: usize,
    mut state: impl FnMut() -> F,
    what: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..tries {
        let s = state().await;
        if what(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for a state");
}

/// A game's live updates: the stream of its server-sent events.
pub struct Events {
    /// The connection the stream came on, kept open with it.
    _client: Client,
    body: Incoming,
    buffer: String,
}

impl Events {
    /// Opens the stream at `path`, asserting it is answered `200` as `text/event-stream`.
    pub async fn open(app: &TestApp, path: &str) -> Events {
        Events::open_at(app.addr, path).await
    }

    /// [`Events::open`] on the server at `addr`.
    pub async fn open_at(addr: SocketAddr, path: &str) -> Events {
        let mut client = Client::connect(addr).await;
        let response = client.send("GET", path, &[], Vec::new()).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events {
            _client: client,
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// Reads server-sent events until one `state` event arrives; returns its version.
    pub async fn next_state(&mut self) -> u64 {
        self.next_state_value().await["version"].as_u64().unwrap()
    }

    /// Reads server-sent events until one `state` event arrives; returns its data.
    pub async fn next_state_value(&mut self) -> Value {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                if event.contains("event: state") {
                    let data = event
                        .lines()
                        .find_map(|l| l.strip_prefix("data: "))
                        .expect("data line");
                    return serde_json::from_str(data).unwrap();
                }
                continue;
            }
            let frame = tokio::time::timeout(Duration::from_secs(10), self.body.frame())
                .await
                .expect("an event in time")
                .expect("stream open")
                .expect("frame");
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(std::str::from_utf8(&data).unwrap());
            }
        }
    }
}

/// Junk for the server: `seed` starts a small deterministic generator of request bodies
/// (random bytes, or runs of JSON-ish `fragments`); 300 of them are posted to `endpoints` in
/// turn, every third with `Authorization: Bearer token`; then every method goes to each of
/// `paths`. Asserts that nothing gets a server error, and that the game whose state is at
/// `game` is still there, unfinished.
pub async fn send_junk(
    app: &TestApp,
    seed: u64,
    game: &str,
    token: &str,
    endpoints: &[String],
    fragments: &[&str],
    paths: &[&str],
) {
    let mut client = app.client().await;
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..300 {
        let body: Vec<u8> = if i % 2 == 0 {
            (0..next() % 64).map(|_| next() as u8).collect()
        } else {
            (0..next() % 12)
                .map(|_| fragments[(next() % fragments.len() as u64) as usize])
                .collect::<String>()
                .into_bytes()
        };
        let path = &endpoints[i % endpoints.len()];
        let auth = format!("Bearer {token}");
        let headers: Vec<(&str, &str)> = if i % 3 == 0 {
            vec![("authorization", auth.as_str())]
        } else {
            vec![]
        };
        let r = client.send("POST", path, &headers, body.clone()).await;
        let status = r.status();
        r.into_body().collect().await.unwrap();
        assert!(
            status.is_client_error() || status.is_success(),
            "{path} {:?}: {status}",
            String::from_utf8_lossy(&body)
        );
    }
    for path in paths {
        for method in ["GET", "POST", "DELETE"] {
            let r = client.send(method, path, &[], Vec::new()).await;
            let status = r.status();
            r.into_body().collect().await.unwrap();
            assert!(
                status.is_client_error() || status.is_success(),
                "{method} {path}: {status}"
            );
        }
    }
    let s = app.get(game, Some(token)).await.is(StatusCode::OK);
    assert_eq!(s["finished"], false);
}

/// Stores game `id` of `kind` straight into the app's database, as a server that stopped
/// before its computers moved left it: its mode, setup and seats (restart the app to load it).
pub async fn store_game(
    app: &TestApp,
    id: &str,
    kind: &str,
    (mode, setup): (&str, &str),
    seats: Vec<server::game::Seat>,
) {
    let game = server::storage::NewGame {
        id: id.into(),
        kind: server::storage::GameKind::from(kind),
        mode: mode.into(),
        setup: setup.into(),
        created: 1,
        seats: seats.iter().enumerate().map(|(i, s)| s.row(i)).collect(),
        entry: None,
        variant: None,
        deadlines: Vec::new(),
        pool: Vec::new(),
    };
    app.db().await.create_game(game).await.unwrap();
}

/// Asserts that a game of `kind` that does not exist, or an id that is none, is not found:
/// its state and its live updates.
pub async fn assert_no_such_game(app: &TestApp, kind: &str) {
    let unknown = format!("/api/{kind}/games/0123456789abcdef01234567");
    let events = format!("{unknown}/events");
    for path in [&unknown, &format!("/api/{kind}/games/not-an-id"), &events] {
        let (status, _) = app.get(path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
}

/// A new game: (id, token).
pub async fn create(app: &TestApp, body: &str) -> (String, String) {
    create_as(app, None, body).await
}

/// A new game made with the token of `player` (if any), whose seat it is: (id, token).
pub async fn create_as(app: &TestApp, player: Option<&str>, body: &str) -> (String, String) {
    let v = app
        .post("/api/ink/games", player, body)
        .await
        .is(StatusCode::CREATED);
    (
        v["id"].as_str().expect("id").to_owned(),
        v["token"].as_str().expect("token").to_owned(),
    )
}

/// `name` joins Railroad Ink game `id`.
pub async fn join(app: &TestApp, id: &str, name: &str) -> (StatusCode, Value) {
    let body = serde_json::json!({ "name": name }).to_string();
    app.post(&format!("/api/ink/games/{id}/join"), None, &body)
        .await
}

/// An online game made as `body` says (with the token of `players[0]`, if any), joined by Bob
/// (with `players[1]`'s) and started: (id, its maker's token, Bob's).
pub async fn online_game(
    app: &TestApp,
    body: &str,
    players: [Option<&str>; 2],
) -> (String, String, String) {
    let (id, maker) = create_as(app, players[0], body).await;
    let path = format!("/api/ink/games/{id}");
    let bob = app
        .post(&format!("{path}/join"), players[1], r#"{"name":"Bob"}"#)
        .await
        .is(StatusCode::CREATED);
    app.post(&format!("{path}/start"), Some(&maker), "")
        .await
        .is(StatusCode::OK);
    (id, maker, bob["token"].as_str().unwrap().to_owned())
}

/// `f` of each item of the JSON array `list`.
pub fn each<'a, T>(list: &'a Value, f: impl FnMut(&'a Value) -> T) -> Vec<T> {
    list.as_array().expect("an array").iter().map(f).collect()
}

/// The first item of the JSON array `list` that `f` picks.
pub fn find(list: &Value, f: impl FnMut(&&Value) -> bool) -> Value {
    let found = list.as_array().expect("an array").iter().find(f);
    found.expect("an item").clone()
}

/// The squares of a `legal` entry (`"A1D0"` → `["A1", "D0"]`).
pub fn squares(legal: &Value) -> Vec<String> {
    let text = legal.as_str().expect("a string of squares");
    assert_eq!(text.len() % 2, 0, "{text}");
    (0..text.len() / 2)
        .map(|i| text[2 * i..2 * i + 2].to_owned())
        .collect()
}

/// The first legal placement the state offers the asking seat: a die first, in die order,
/// squares and orientations in the server's order. `None` when no die fits.
pub fn first_legal_die(state: &Value) -> Option<String> {
    for die in state["you"]["dice"].as_array()? {
        if die["used"].as_bool() == Some(true) {
            continue;
        }
        for (o, legal) in die["legal"].as_array()?.iter().enumerate() {
            if let Some(square) = squares(legal).first() {
                return Some(format!("{}{}{}", die["tile"].as_str()?, square, o));
            }
        }
    }
    None
}

/// The next move of a Railroad Ink seat whose state is `state`: the first legal die (`place`,
/// and its body), or else `end-round`.
pub fn next_ink_move(state: &Value) -> (&'static str, String) {
    match first_legal_die(state) {
        Some(p) => ("place", serde_json::json!({ "placement": p }).to_string()),
        None => ("end-round", String::new()),
    }
}

/// Places a tile in a Railroad Ink game (`placement` as in `A1B30`).
pub async fn place(app: &TestApp, id: &str, token: &str, placement: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/ink/games/{id}/place"),
        Some(token),
        &format!(r#"{{"placement":"{placement}"}}"#),
    )
    .await
}
