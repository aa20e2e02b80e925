//! A game plugs in: noughts and crosses, written here against the runtime's small game interface
//! (`server::rules::Rules`) with a computer player and a daily challenge of its own, and
//! registered with `server::Games::rules`, is made, joined, played against people and against
//! the computer, replayed, and entered as a daily through the HTTP API, without any generic
//! module of the server knowing it.

mod common;

use std::time::Duration;

use common::challenge::{TODAY, board, play, player, wait_for_computer};
use common::{Answer, TestApp};
use hyper::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use server::game::{ChallengeKind, Period, TieBreakRule};
use server::rules::{ApiError, Capabilities, Computer, Rules, SeatResult, Table};
use server::table::SeatView;

// ---------------------------------------------------------------------------------------
// The rules, and a computer that plays them perfectly.

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

/// The board: each square's mark (its seat), empty squares `None`.
#[derive(Debug, Clone)]
struct Ttt([Option<usize>; 9]);

impl Ttt {
    /// The seat with three in a line.
    fn winner(&self) -> Option<usize> {
        let b = &self.0;
        LINES
            .iter()
            .find(|l| b[l[0]].is_some() && l.iter().all(|&i| b[i] == b[l[0]]))
            .and_then(|l| b[l[0]])
    }

    fn over(&self) -> bool {
        self.winner().is_some() || self.0.iter().all(Option::is_some)
    }

    fn turn(&self) -> usize {
        self.0.iter().flatten().count() % 2
    }

    fn free(&self) -> impl Iterator<Item = usize> + '_ {
        (0..9).filter(|&i| self.0[i].is_none())
    }

    /// The board after `seat` marks `square`, or the rule that forbids it.
    fn mark(&self, seat: usize, square: usize) -> Result<Ttt, String> {
        if self.over() {
            return Err("the game is over".into());
        }
        if seat != self.turn() {
            return Err("it is the other player's turn".into());
        }
        let mut next = self.clone();
        match next.0.get_mut(square) {
            Some(sq @ None) => *sq = Some(seat),
            Some(Some(_)) => return Err(format!("square {square} is taken")),
            None => return Err(format!("there is no square {square}")),
        }
        Ok(next)
    }

    /// The value of the game for the seat to move (1 a win, 0 a draw, -1 a loss) with both
    /// seats playing their best, and the best square.
    fn negamax(&self) -> (i32, usize) {
        if self.winner().is_some() {
            return (-1, 9);
        }
        let after = |sq: usize| {
            let mut next = self.clone();
            next.0[sq] = Some(self.turn());
            (-next.negamax().0, sq)
        };
        self.free()
            .map(after)
            .max_by_key(|&(v, _)| v)
            .unwrap_or((0, 9))
    }
}

// ---------------------------------------------------------------------------------------
// The interface: what the runtime asks of a game, its computer and its daily (at most 80
// lines, blank ones aside).

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Mark {
    square: usize,
}

#[derive(Debug, Serialize)]
struct View {
    board: String,
    players: Vec<SeatView>,
    you: Option<usize>,
}

impl Rules for Ttt {
    const KIND: &'static str = "ttt";
    const NAME: &'static str = "Noughts and crosses";
    const SEATS: (usize, usize) = (2, 2);
    type Options = ();
    type Action = Mark;
    type View = View;

    fn setup(_: &(), _: usize, _: u64) -> Result<Ttt, String> {
        Ok(Ttt([None; 9]))
    }

    fn act(&self, seat: usize, m: &Mark) -> Result<Ttt, ApiError> {
        self.mark(seat, m.square).map_err(ApiError::Conflict)
    }

    fn to_act(&self) -> Vec<usize> {
        (!self.over()).then(|| self.turn()).into_iter().collect()
    }

    fn results(&self) -> Option<Vec<SeatResult>> {
        let score = |seat| match self.winner() {
            None => 1,
            Some(w) => 2 * i64::from(w == seat),
        };
        let moves = -(self.0.iter().flatten().count() as i64);
        let result = |seat| SeatResult {
            seat,
            score: score(seat),
            k2: moves,
        };
        self.over().then(|| vec![result(0), result(1)])
    }

    fn view(&self, table: &Table, you: Option<usize>) -> View {
        let mark = |s: &Option<usize>| ['.', 'x', 'o'][s.map_or(0, |s| s + 1)];
        let board = self.0.iter().map(mark).collect();
        View {
            board,
            players: table.seat_views(),
            you,
        }
    }

    const CAPABILITIES: Capabilities<Ttt> = Capabilities {
        computer: Some(Computer {
            levels: &["random", "perfect"],
            choose,
            challenge_game: None,
        }),
        challenges: &[
            ChallengeKind::new("ttt-daily", Period::Day, "Daily {game}", 9).counted_in_streaks(),
        ],
        challenge_seats: 2,
        tie_break: TieBreakRule::fewest("moves"),
        ..Capabilities::NONE
    };
}

/// The computer's square (its turn is one): the best one, or (`random`) any free one.
fn choose(game: &Ttt, _: usize, level: &str, seed: u64) -> Vec<Mark> {
    let free: Vec<usize> = game.free().collect();
    let square = match level {
        "random" => free[(seed % free.len() as u64) as usize],
        _ => game.negamax().1,
    };
    vec![Mark { square }]
}

// ---------------------------------------------------------------------------------------
// Played through the HTTP API.

fn games() -> server::Games {
    server::Games::standard().rules::<Ttt>()
}

async fn start() -> TestApp {
    let clock = server::Clock::parse(TODAY).unwrap();
    TestApp::start_games(games, |c| {
        c.clock = clock;
        c.challenge_budget = Some(4);
        c.rank_per_address = false;
    })
    .await
}

async fn mark(app: &TestApp, game: &str, token: &str, square: usize) -> (StatusCode, Value) {
    let body = json!({ "square": square }).to_string();
    app.post(&format!("{game}/act"), Some(token), &body).await
}

/// The game's state once it is `seat`'s turn or the game is over (the computer moves on).
async fn when_to_act(app: &TestApp, game: &str, token: &str, seat: usize) -> Value {
    for _ in 0..400 {
        let s = app.get(game, Some(token)).await.is(StatusCode::OK);
        if s["to_act"] == json!([seat]) || s["finished"] == true {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the computer never moved in {game}");
}

/// Plays seat 0 against the computer to the end, each time on the first free square.
async fn play_out(app: &TestApp, game: &str, token: &str) -> Value {
    loop {
        let s = when_to_act(app, game, token, 0).await;
        if s["finished"] == true {
            return s;
        }
        let square = s["board"].as_str().unwrap().find('.').unwrap();
        mark(app, game, token, square).await.is(StatusCode::OK);
    }
}

#[tokio::test]
async fn two_people_make_join_play_and_replay_a_game() {
    let mut app = start().await;
    let seats = json!({"players": [
        {"kind": "human", "name": "Xena"},
        {"kind": "human", "invite": true},
    ]});
    let x = app
        .post("/api/ttt/games", None, &seats.to_string())
        .await
        .is(StatusCode::CREATED);
    assert_eq!(x["seats"], json!([{"seat": 0, "token": x["token"]}]));
    let id = x["id"].as_str().unwrap().to_owned();
    let xt = x["token"].as_str().unwrap().to_owned();
    let game = format!("/api/ttt/games/{id}");
    // X moves while O's seat waits for whoever takes the link.
    mark(&app, &game, &xt, 0).await.is(StatusCode::OK);
    let s = app.get(&game, None).await.is(StatusCode::OK);
    assert_eq!(
        (
            s["players"][1]["name"].clone(),
            s["players"][1]["open"].clone()
        ),
        (json!("Player 2"), json!(true))
    );
    let o = app
        .post(&format!("{game}/join"), None, r#"{"name":"Otto"}"#)
        .await
        .is(StatusCode::CREATED);
    assert_eq!(o["seat"], 1);
    let ot = o["token"].as_str().unwrap().to_owned();
    let v = (app.post(&format!("{game}/join"), None, "{}").await).is(StatusCode::CONFLICT);
    assert_eq!(v["error"], "every seat is taken");

    // Live updates: the version now, and after each move.
    let mut client = app.client().await;
    let response = client
        .send("GET", &format!("{game}/events"), &[], Vec::new())
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();

    // X takes the top row while O plays the middle row; a move out of turn, or on a taken
    // square, is refused with the game's words.
    for (token, square) in [(&ot, 3), (&xt, 1), (&ot, 4)] {
        mark(&app, &game, token, square).await.is(StatusCode::OK);
    }
    let v = mark(&app, &game, &ot, 8).await.is(StatusCode::CONFLICT);
    assert_eq!(v["error"], "it is the other player's turn");
    let v = mark(&app, &game, &xt, 4).await.is(StatusCode::CONFLICT);
    assert_eq!(v["error"], "square 4 is taken");
    let v = (app.get(&format!("{game}/replay"), None).await).is(StatusCode::CONFLICT);
    assert_eq!(
        v["error"],
        "the game is not over yet: its replay opens when it ends"
    );
    let v = mark(&app, &game, &xt, 2).await.is(StatusCode::OK);
    assert_eq!(v["board"], "xxxoo....");
    assert_eq!(
        (v["winners"].clone(), v["you"].clone()),
        (json!([0]), json!(0))
    );
    let mut heard = String::new();
    while !heard.contains("\"version\":6") {
        let frame = tokio::time::timeout(
            Duration::from_secs(5),
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
    let s = app.get(&game, None).await.is(StatusCode::OK);
    assert_eq!(
        (s["finished"].clone(), s["to_act"].clone(), s["you"].clone()),
        (json!(true), json!([]), Value::Null)
    );
    let r = app
        .get(&format!("{game}/replay"), None)
        .await
        .is(StatusCode::OK);
    let step = |seat, square| json!({"seat": seat, "action": {"square": square}});
    assert_eq!(
        r["steps"],
        json!([step(0, 0), step(1, 3), step(0, 1), step(1, 4), step(0, 2)])
    );
    assert_eq!(r["winners"], json!([0]));
    assert_eq!(r["results"][1]["name"], "Otto");
    assert_eq!(r["players"][1]["name"], "Otto");
    assert!(r["seed"].is_string());
    let (_, list) = app.get("/api/games?kind=ttt", None).await;
    let listed = &list["games"][0];
    assert_eq!(listed["id"], id.as_str());
    assert_eq!(listed["kind"], "ttt");
    assert_eq!(listed["winners"], json!([0]));
    assert_eq!(listed["players"][0]["name"], "Xena");

    // Loaded again from storage, it is the same game.
    app.restart().await;
    let again = app.get(&game, Some(&ot)).await.is(StatusCode::OK);
    assert_eq!(again["board"], "xxxoo....");
    assert_eq!(again["you"], 1);
}

#[tokio::test]
async fn the_computer_plays_a_seat_and_never_loses() {
    let app = start().await;
    let v = app
        .post(
            "/api/ttt/games",
            None,
            r#"{"players":[{"kind":"human"},{"kind":"computer","level":"best"}]}"#,
        )
        .await
        .is(StatusCode::BAD_REQUEST);
    assert_eq!(
        v["error"],
        "players[1]: unknown level \"best\"; choose one of random, perfect"
    );
    let v = app
        .post("/api/ttt/games", None, r#"{"players":[{"kind":"human"}]}"#)
        .await
        .is(StatusCode::BAD_REQUEST);
    assert_eq!(
        v["error"],
        "a game of Noughts and crosses has 2 players, not 1"
    );
    // The computer plays at its strongest when no level is named.
    let x = app
        .post(
            "/api/ttt/games",
            None,
            r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"computer"}]}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let game = format!("/api/ttt/games/{}", x["id"].as_str().unwrap());
    let token = x["token"].as_str().unwrap();
    let end = play_out(&app, &game, token).await;
    assert_eq!(end["players"][1]["name"], "Computer 2");
    assert_eq!(end["players"][1]["level"], "perfect");
    assert!(
        end["winners"].as_array().unwrap().contains(&json!(1)),
        "{end}"
    );
    let r = (app.get(&format!("{game}/replay"), None).await).is(StatusCode::OK);
    let steps = r["steps"].as_array().unwrap();
    assert!(steps.iter().step_by(2).all(|a| a["seat"] == 0));
    assert!(steps.iter().skip(1).step_by(2).all(|a| a["seat"] == 1));
    // "Play again": the same seats, the computer in its place.
    let again = app
        .post(&format!("{game}/rematch"), Some(token), "")
        .await
        .is(StatusCode::CREATED);
    let s = (app
        .get(
            &format!("/api/ttt/games/{}", again["id"].as_str().unwrap()),
            None,
        )
        .await)
        .is(StatusCode::OK);
    assert_eq!(s["players"][1]["name"], "Computer 2");
}

#[tokio::test]
async fn its_daily_challenge_is_entered_and_ranked() {
    let app = start().await;
    let current = app
        .get("/api/challenges/current", None)
        .await
        .is(StatusCode::OK);
    let daily = (current["challenges"].as_array().unwrap().iter())
        .find(|c| c["kind"] == "ttt-daily")
        .expect("the game's daily is listed")
        .clone();
    assert_eq!(daily["id"], "ttt-daily-2026-11-26");
    assert_eq!(daily["game"], "ttt");
    // The computer's own game: two perfect players draw.
    let b = wait_for_computer(&app, "ttt-daily-2026-11-26").await;
    assert_eq!(b["leaderboard"]["computer"]["score"], 1, "{b}");

    let (_, ann) = player(&app, "Ann").await;
    let (status, v) = play(&app, "ttt-daily-2026-11-26", &ann).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["kind"], "ttt");
    let game = format!("/api/ttt/games/{}", v["game"].as_str().unwrap());
    let seat = v["token"].as_str().unwrap();
    let s = app.get(&game, Some(seat)).await.is(StatusCode::OK);
    assert_eq!(s["challenge"], "ttt-daily-2026-11-26");
    assert_eq!(s["players"][0]["name"], "Ann");
    assert_eq!(s["players"][1]["kind"], "computer");
    // A second attempt is refused.
    let (status, _) = play(&app, "ttt-daily-2026-11-26", &ann).await;
    assert_ne!(status, StatusCode::CREATED);
    let end = play_out(&app, &game, seat).await;
    let score = end["winners"].as_array().unwrap().len() as i64 - 1;
    let b = board(&app, "ttt-daily-2026-11-26", Some(&ann)).await;
    let entry = &b["leaderboard"]["entries"][0];
    assert_eq!(
        (entry["name"].clone(), entry["score"].clone()),
        (json!("Ann"), json!(score))
    );
    assert_eq!(b["leaderboard"]["finished"], 1);
}
