//! Players and challenges through the HTTP API: the steps the challenge tests share.

use std::time::Duration;

use hyper::StatusCode;
use serde_json::{Value, json};

use super::TestApp;

/// Thursday 26 November 2026, 10:00 UTC (ISO week 48).
pub const TODAY: &str = "2026-11-26T10:00:00Z";
pub const TOMORROW: &str = "2026-11-27T10:00:00Z";

/// A server at `now` whose players all come from this machine's address, so every entry is
/// ranked (`secrets::one_ranked_entry_per_network` tests the ranking by network).
pub async fn app_at(now: &str) -> TestApp {
    let clock = server::Clock::parse(now).unwrap();
    TestApp::start_with(|c| {
        c.clock = clock;
        c.challenge_budget = Some(4);
        c.rank_per_address = false;
    })
    .await
}

pub async fn player(app: &TestApp, name: &str) -> (String, String) {
    let (status, v) = app
        .post("/api/players", None, &json!({ "name": name }).to_string())
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["name"], name);
    (
        v["id"].as_str().unwrap().to_owned(),
        v["token"].as_str().unwrap().to_owned(),
    )
}

/// A second device of the player whose key is `key`, signed in with a recovery code: its key.
pub async fn second_device(app: &TestApp, key: &str) -> String {
    let (status, made) = app.post("/api/players/me/recovery", Some(key), "{}").await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let body = json!({ "code": made["code"] }).to_string();
    let (status, back) = app.post("/api/players/recover", None, &body).await;
    assert_eq!(status, StatusCode::CREATED, "{back}");
    back["token"].as_str().unwrap().to_owned()
}

pub async fn play(app: &TestApp, challenge: &str, token: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/challenges/{challenge}/play"),
        Some(token),
        "",
    )
    .await
}

pub async fn ink_state(app: &TestApp, game: &str, token: Option<&str>) -> (StatusCode, Value) {
    app.get(&format!("/api/ink/games/{game}"), token).await
}

/// Places the first legal die (first orientation with a legal square) until none fits, then
/// ends the round (waiting first for the round to begin, if the seat has ended the last one).
/// Returns the state after.
pub async fn play_ink_round(app: &TestApp, game: &str, token: &str) -> Value {
    // Against the computer, the next round starts once the computer has ended this one too.
    for _ in 0..600 {
        let (_, s) = ink_state(app, game, Some(token)).await;
        if s["you"]["round_done"] != true || s["finished"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    loop {
        let (_, s) = ink_state(app, game, Some(token)).await;
        let next = s["you"]["dice"].as_array().unwrap().iter().find_map(|d| {
            if d["used"] == true {
                return None;
            }
            let legal = d["legal"].as_array().unwrap();
            legal.iter().enumerate().find_map(|(o, sq)| {
                let sq = sq.as_str().unwrap();
                (sq.len() >= 2).then(|| format!("{}{}{o}", d["tile"].as_str().unwrap(), &sq[..2]))
            })
        });
        let Some(placement) = next else { break };
        let (status, v) = app
            .post(
                &format!("/api/ink/games/{game}/place"),
                Some(token),
                &json!({ "placement": placement }).to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{placement}: {v}");
    }
    let (status, v) = app
        .post(&format!("/api/ink/games/{game}/end-round"), Some(token), "")
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// Plays a whole Railroad Ink game (seven rounds, six with an expansion); returns each round's
/// roll and the last state.
pub async fn play_ink_game(app: &TestApp, game: &str, token: &str) -> (Vec<String>, Value) {
    let mut rolls = Vec::new();
    let mut last = Value::Null;
    for _ in 0..7 {
        let (_, s) = ink_state(app, game, Some(token)).await;
        if s["finished"] == true {
            break; // a game of an expansion has six rounds
        }
        rolls.push(s["roll"].as_str().unwrap().to_owned());
        last = play_ink_round(app, game, token).await;
    }
    // Against computers the game ends once they have played their last round too.
    let waited = std::time::Instant::now();
    while last["finished"] != true && waited.elapsed() < std::time::Duration::from_secs(60) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        last = ink_state(app, game, Some(token)).await.1;
    }
    assert_eq!(last["finished"], true);
    (rolls, last)
}

pub async fn board(app: &TestApp, challenge: &str, token: Option<&str>) -> Value {
    let (status, v) = app
        .get(&format!("/api/challenges/{challenge}"), token)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

pub async fn wait_for_computer(app: &TestApp, challenge: &str) -> Value {
    for _ in 0..600 {
        let b = board(app, challenge, None).await;
        if !b["computer"].is_null() {
            return b;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the computer never played {challenge}");
}

/// The status of a game's live-update stream for `token` (its body is not read).
pub async fn events_status(app: &TestApp, path: &str, token: Option<&str>) -> StatusCode {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth
        .as_deref()
        .map(|a| vec![("authorization", a)])
        .unwrap_or_default();
    let mut client = app.client().await;
    client
        .send("GET", path, &headers, Vec::new())
        .await
        .status()
}

/// Starts (or continues) a challenge as a player whose request comes through a trusted proxy
/// from `from` (`X-Forwarded-For`).
pub async fn play_from(
    app: &TestApp,
    challenge: &str,
    token: &str,
    from: &str,
) -> (StatusCode, Value) {
    let auth = format!("Bearer {token}");
    let headers = [("authorization", auth.as_str()), ("x-forwarded-for", from)];
    let mut client = app.client().await;
    let response = client
        .send(
            "POST",
            &format!("/api/challenges/{challenge}/play"),
            &headers,
            Vec::new(),
        )
        .await;
    let status = response.status();
    let bytes = super::body(response).await;
    (status, serde_json::from_slice(&bytes).expect("JSON"))
}

/// Plays a Metro game's person seat (the first legal square every turn) until it ends.
pub async fn play_metro_game(app: &TestApp, game: &str, token: &str) -> Value {
    let path = format!("/api/metro/games/{game}");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        assert!(std::time::Instant::now() < deadline, "the game did not end");
        let (_, s) = app.get(&path, Some(token)).await;
        if s["finished"] == true {
            return s;
        }
        if s["you"]["your_turn"] != true {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        }
        let mut s = s;
        if s["you"]["tile"].is_null() {
            let (status, v) = app.post(&format!("{path}/draw"), Some(token), "").await;
            assert_eq!(status, StatusCode::OK, "{v}");
            s = v;
        }
        let legal = s["you"]["legal"].as_str().unwrap();
        let (status, v) = app
            .post(
                &format!("{path}/place"),
                Some(token),
                &json!({ "square": &legal[..2] }).to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}
