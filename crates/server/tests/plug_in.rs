//! A game plugs in: noughts and crosses, written here against the server's one game interface
//! (`server::game::GameState`) and registered with `server::Games`, is played through the HTTP
//! API (create, join, act, state, live updates, replay, the list of recent games) without any
//! generic module of the server knowing it.

mod common;

use common::Answer;

use hyper::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use server::ApiError;
use server::game::{
    ChallengeStart, ComputerGame, FriendGame, GameInfo, GameState, Seat, Seated, Strength, Table,
    TieBreakRule, to_json,
};
use server::play::Session;
use server::replay::SeatResult;
use server::state::AppState;
use server::storage::{ActionRow, Finished, StoredGame};
use server::table::Seating;

// ---------------------------------------------------------------------------------------
// The rules: a dozen lines.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The seat with three in a line.
fn winner(board: &[Option<usize>; 9]) -> Option<usize> {
    LINES
        .iter()
        .find_map(|l| {
            (board[l[0]].is_some() && l.iter().all(|&i| board[i] == board[l[0]]))
                .then_some(board[l[0]])
        })
        .flatten()
}

/// Marks `square` for `seat`, if it is its turn and the square is free.
fn mark(
    board: &mut [Option<usize>; 9],
    moves: usize,
    seat: usize,
    square: usize,
) -> Result<(), String> {
    if winner(board).is_some() || moves == 9 {
        return Err("the game is over".into());
    }
    if seat != moves % 2 {
        return Err("it is the other player's turn".into());
    }
    match board.get(square) {
        Some(None) => {
            board[square] = Some(seat);
            Ok(())
        }
        Some(Some(_)) => Err(format!("square {square} is taken")),
        None => Err(format!("there is no square {square}")),
    }
}

// ---------------------------------------------------------------------------------------
// The game, as the server sees it.

#[derive(Debug, Clone)]
struct Ttt {
    board: [Option<usize>; 9],
    moves: Vec<(usize, usize)>,
    /// X's seat and O's (open until someone joins), as the server's table keeps them.
    table: Table,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Mark {
    square: usize,
}

#[derive(Debug, Deserialize)]
struct Create {
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Join {
    name: Option<String>,
}

#[derive(Debug, Serialize)]
struct View {
    id: String,
    kind: &'static str,
    version: usize,
    board: String,
    turn: Option<usize>,
    finished: bool,
    winner: Option<usize>,
    players: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    you: Option<usize>,
}

#[derive(Debug, Serialize)]
struct Replay {
    moves: Vec<(usize, usize)>,
    winner: Option<usize>,
}

impl Ttt {
    fn new(table: Table) -> Ttt {
        Ttt {
            board: [None; 9],
            moves: Vec::new(),
            table,
        }
    }

    /// Whether O's seat is still open.
    fn waiting(&self) -> bool {
        self.table.seats[1].is_open()
    }

    fn is_over(&self) -> bool {
        winner(&self.board).is_some() || self.moves.len() == 9
    }
}

fn refused(why: String) -> ApiError {
    ApiError::Conflict(why)
}

fn moves_of(stored: &StoredGame) -> Result<Ttt, ApiError> {
    let mut game = Ttt::new(Table::from_rows(stored.seats.clone()));
    for row in &stored.actions {
        let m: Mark =
            serde_json::from_str(&row.action).map_err(|e| ApiError::Internal(e.to_string()))?;
        mark(&mut game.board, game.moves.len(), row.seat, m.square).map_err(ApiError::Internal)?;
        game.moves.push((row.seat, m.square));
    }
    Ok(game)
}

impl GameState for Ttt {
    const KIND: &'static str = "ttt";
    const NAME: &'static str = "Noughts and crosses";
    const TIE_BREAK: TieBreakRule = TieBreakRule::fewest("errors");
    type View = View;
    type Thought = ();
    type Decision = ();
    type Create = Create;
    type Join = Join;
    type Action = Mark;
    type Replay = Replay;

    fn from_stored(stored: StoredGame) -> Result<Ttt, ApiError> {
        let mut game = moves_of(&stored)?;
        // The second seat is open until someone joins.
        if game.table.seats.len() == 1 {
            game.table.seats.push(Seat::invited("O".into()));
        }
        game.table.challenge = stored.challenge;
        Ok(game)
    }

    fn version(&self) -> usize {
        self.moves.len() + usize::from(!self.waiting())
    }

    fn actions(&self) -> usize {
        self.moves.len()
    }

    fn table(&self) -> &Table {
        &self.table
    }

    fn is_over(&self) -> bool {
        Ttt::is_over(self)
    }

    fn finished(&self, now: i64) -> Option<Finished> {
        if !self.is_over() {
            return None;
        }
        let win = winner(&self.board);
        let results: Vec<SeatResult> = (0..2)
            .map(|seat| SeatResult {
                score: i64::from(win == Some(seat)),
                errors: None,
                k2: 0,
            })
            .collect();
        let winners = match win {
            Some(seat) => vec![seat],
            None => vec![0, 1],
        };
        server::replay::finished(&self.table.names(), &results, winners, now)
    }

    fn view(&self, game: &GameInfo<'_>, seat: Option<usize>) -> View {
        View {
            id: game.id.to_owned(),
            kind: "ttt",
            version: self.version(),
            board: self
                .board
                .iter()
                .map(|s| match s {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '.',
                })
                .collect(),
            turn: (!self.is_over()).then_some(self.moves.len() % 2),
            finished: self.is_over(),
            winner: winner(&self.board),
            players: self.table.names().into_iter().map(str::to_owned).collect(),
            you: seat,
        }
    }

    fn computer_thought(&self) -> Option<()> {
        None
    }

    fn think(_: &()) {}

    fn computer_moves(&self, _: &str, _: &(), _: ()) -> Result<(Ttt, Vec<ActionRow>), ApiError> {
        Err(ApiError::Internal(
            "no computer plays noughts and crosses".into(),
        ))
    }

    async fn start_challenge_game(_: &AppState, _: ChallengeStart<'_>) -> Result<String, ApiError> {
        Err(refused("no challenges of noughts and crosses".into()))
    }

    fn computer_challenge_game(_: u64, _: Strength, _: i64) -> Result<ComputerGame, ApiError> {
        Err(refused("no challenges of noughts and crosses".into()))
    }

    fn computer_name() -> String {
        "Computer".into()
    }

    fn friend_game(_: &StoredGame) -> Result<FriendGame, ApiError> {
        Err(refused(
            "no friend challenges of noughts and crosses".into(),
        ))
    }

    async fn create(
        app: &AppState,
        request: Create,
        player: Option<String>,
    ) -> Result<Seated, ApiError> {
        let mut seating = Seating::new(player);
        seating.person(Some(request.name.as_deref().unwrap_or("X")))?;
        seating.invited(Some("O"))?;
        let made = seating.made(None)?;
        let id = Session::<Ttt>::start(app, "online", "{}".into(), Ttt::new(made.table), None);
        Seated::new(id.await?, made.tokens)
    }

    fn join(
        &self,
        request: &Join,
        token_hash: String,
        player: Option<String>,
    ) -> Result<(Ttt, Vec<ActionRow>, usize), ApiError> {
        if !self.waiting() {
            return Err(refused("both seats are taken".into()));
        }
        let mut next = self.clone();
        let name = request.name.as_deref();
        next.table.take_seat(1, name, token_hash, player)?;
        Ok((next, Vec::new(), 1))
    }

    fn act(&self, seat: usize, m: Mark) -> Result<(Ttt, Vec<ActionRow>), ApiError> {
        if self.waiting() {
            return Err(refused("nobody has joined yet".into()));
        }
        let mut next = self.clone();
        mark(&mut next.board, next.moves.len(), seat, m.square).map_err(refused)?;
        next.moves.push((seat, m.square));
        let row = ActionRow {
            seat,
            action: to_json(&m)?,
        };
        Ok((next, vec![row]))
    }

    fn replay(stored: &StoredGame) -> Result<Replay, ApiError> {
        let game = moves_of(stored)?;
        if !game.is_over() {
            return Err(ApiError::Conflict("the game is not over yet".into()));
        }
        Ok(Replay {
            winner: winner(&game.board),
            moves: game.moves,
        })
    }

    fn hide_seed(_: &mut Replay) {}
}

// ---------------------------------------------------------------------------------------
// Played through the HTTP API.

#[tokio::test]
async fn noughts_and_crosses_plugs_in_and_plays_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = server::Config::new(
        "127.0.0.1:0",
        common::test_database(&dir.path().join("t.sqlite")).await,
    );
    config.limits = server::Limits::off();
    let games = server::Games::standard().with::<Ttt>(axum::Router::new());
    let running = server::app::start(&config, games).await.unwrap();
    let addr = running.addr();
    let call = |method: &'static str, path: String, token: Option<String>, body: Option<Value>| async move {
        let body = body.map(|b| b.to_string());
        common::Client::connect(addr)
            .await
            .call(method, &path, token.as_deref(), body.as_deref())
            .await
    };

    let (status, x) = call(
        "POST",
        "/api/ttt/games".into(),
        None,
        Some(json!({"name": "Xena"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{x}");
    let id = x["id"].as_str().unwrap().to_owned();
    let xt = x["token"].as_str().unwrap().to_owned();
    let game = format!("/api/ttt/games/{id}");
    let mark = |token: &String, square: usize| {
        let body = json!({ "square": square });
        call(
            "POST",
            format!("{game}/act"),
            Some(token.clone()),
            Some(body),
        )
    };
    // Nobody may move before the second seat is taken.
    mark(&xt, 4).await.is(StatusCode::CONFLICT);
    let (status, o) = call(
        "POST",
        format!("{game}/join"),
        None,
        Some(json!({"name": "Otto"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{o}");
    assert_eq!(o["seat"], 1);
    let ot = o["token"].as_str().unwrap().to_owned();
    let (status, _) = call("POST", format!("{game}/join"), None, Some(json!({}))).await;
    assert_eq!(status, StatusCode::CONFLICT, "a full game");

    // Live updates: the version now, and after each move.
    let mut client = common::Client::connect(addr).await;
    let response = client
        .send("GET", &format!("{game}/events"), &[], Vec::new())
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut heard = String::new();

    // X takes the top row while O plays the middle row; a move out of turn, or on a taken
    // square, is refused with the game's words.
    let moves = [(&xt, 0), (&ot, 3), (&xt, 1), (&ot, 4)];
    for (token, square) in moves {
        mark(token, square).await.is(StatusCode::OK);
    }
    let v = mark(&ot, 8).await.is(StatusCode::CONFLICT);
    assert_eq!(v["error"], "it is the other player's turn");
    mark(&xt, 4).await.is(StatusCode::CONFLICT);
    let (_, v) = call("GET", format!("{game}/replay"), None, None).await;
    assert_eq!(v["error"], "the game is not over yet");
    let v = mark(&xt, 2).await.is(StatusCode::OK);
    assert_eq!(v["board"], "xxxoo....");
    assert_eq!(v["winner"], 0);
    assert_eq!(v["you"], 0);
    while !heard.contains("\"version\":6") {
        let frame = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            http_body_util::BodyExt::frame(&mut body),
        )
        .await
        .expect("an event in time")
        .unwrap()
        .unwrap();
        if let Ok(data) = frame.into_data() {
            heard.push_str(std::str::from_utf8(&data).unwrap());
        }
    }

    // The state as anyone sees it, the replay, and the recent games with its result.
    let (status, s) = call("GET", game.clone(), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (s["finished"].clone(), s["players"].clone()),
        (json!(true), json!(["Xena", "Otto"]))
    );
    assert!(s.get("you").is_none());
    let (status, r) = call("GET", format!("{game}/replay"), None, None).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(
        r,
        json!({"moves": [[0, 0], [1, 3], [0, 1], [1, 4], [0, 2]], "winner": 0})
    );
    let (_, list) = call("GET", "/api/games?kind=ttt".into(), None, None).await;
    let listed = &list["games"][0];
    assert_eq!(listed["id"], id.as_str());
    assert_eq!(listed["kind"], "ttt");
    assert_eq!(listed["winners"], json!([0]));
    assert_eq!(listed["players"][0]["name"], "Xena");

    // Loaded again from storage, it is the same game.
    running.stop().await.unwrap();
    let running = server::app::start(
        &config,
        server::Games::standard().with::<Ttt>(axum::Router::new()),
    )
    .await
    .unwrap();
    let mut client = common::Client::connect(running.addr()).await;
    let (status, again) = client.call("GET", &game, Some(&ot), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["board"], "xxxoo....");
    assert_eq!(again["you"], 1);
    running.stop().await.unwrap();
}
