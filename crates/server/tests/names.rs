//! Names that cannot impersonate, through the HTTP API: a name that only looks like another
//! player's (letters of another alphabet, invisible characters after it) or a computer's is
//! refused, and so is one that shows nothing; an emoji sequence, joined by its invisible
//! characters, is a name.

mod common;

use common::challenge::{TODAY, app_at, player};
use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::{Value, json};

/// The answer to making a player called `name`.
async fn make(app: &TestApp, name: &str) -> (StatusCode, Value) {
    app.post("/api/players", None, &json!({ "name": name }).to_string())
        .await
}

/// Asserts that making a player called `name` is refused with `status`, saying `why`.
#[track_caller]
fn refused(name: &str, (status, v): (StatusCode, Value), want: StatusCode, why: &str) {
    assert_eq!(status, want, "{name:?}: {v}");
    let error = v["error"].as_str().unwrap_or_default();
    assert!(error.contains(why), "{name:?}: {error:?} says no {why:?}");
}

#[tokio::test]
async fn look_alikes_of_a_players_name_are_refused() {
    let app = app_at(TODAY).await;
    player(&app, "Ann").await;
    // Another alphabet's letters: a name that shows, but Ann's.
    for name in ["\u{410}nn", "\u{410}NN"] {
        let answer = make(&app, name).await;
        refused(name, answer, StatusCode::CONFLICT, "looks the same");
    }
    // A name of its own is still one.
    player(&app, "Anna").await;
    // Ann, with an invisible character after her name: refused, saying which and where.
    for (name, code) in [
        ("Ann\u{FE0F}", "U+FE0F"),
        ("Ann\u{E0100}", "U+E0100"),
        ("Ann\u{17B4}", "U+17B4"),
        ("Ann\u{2800}", "U+2800"),
    ] {
        let answer = make(&app, name).await;
        refused(name, answer.clone(), StatusCode::BAD_REQUEST, code);
        refused(
            name,
            answer,
            StatusCode::BAD_REQUEST,
            "character 4 of the name",
        );
    }
}

#[tokio::test]
async fn a_name_that_shows_nothing_is_refused() {
    let app = app_at(TODAY).await;
    for name in ["\u{2800}", "\u{2800}\u{2800}", "\u{3164}", "\u{FE0F}"] {
        let answer = make(&app, name).await;
        refused(name, answer, StatusCode::BAD_REQUEST, "invisible or blank");
    }
}

#[tokio::test]
async fn an_insult_is_no_name_for_a_player_or_a_seat() {
    let app = app_at(TODAY).await;
    for name in ["motherfucker", "m o t h e r f u c k e r"] {
        let answer = make(&app, name).await;
        refused(name, answer, StatusCode::BAD_REQUEST, "insult or a slur");
    }
    // A game's seat and a joining person are named by the same rules; a name that only looks
    // like a word is a name.
    let v = app
        .post(
            "/api/metro/games",
            None,
            &json!({"players": [{"kind": "human", "name": "Motherfuuucker"}, {"kind": "human"}]})
                .to_string(),
        )
        .await
        .is(StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("insult"), "{v}");
    make(&app, "Dick").await.is(StatusCode::CREATED);
}

#[tokio::test]
async fn the_computers_names_are_theirs_whatever_they_look_like() {
    let app = app_at(TODAY).await;
    for name in [
        "Computer (strong)",
        "Computer (str\u{43E}ng)",
        "C\u{43E}mputer 2 (greedy)",
    ] {
        let answer = make(&app, name).await;
        refused(name, answer, StatusCode::BAD_REQUEST, "computer players");
    }
    let name = "Computer (strong)\u{FE0F}";
    let answer = make(&app, name).await;
    refused(name, answer, StatusCode::BAD_REQUEST, "U+FE0F");
    // A game's seat is named by the same rules.
    let v = app
        .post(
            "/api/ink/games",
            None,
            &json!({ "mode": "solo", "name": "Computer (str\u{43E}ng)" }).to_string(),
        )
        .await
        .is(StatusCode::BAD_REQUEST);
    assert!(
        v["error"].as_str().unwrap().contains("computer players"),
        "{v}"
    );
}

#[tokio::test]
async fn an_emoji_family_is_a_name() {
    let app = app_at(TODAY).await;
    // 👨‍👩‍👧, 🏳️‍🌈 and Scotland's flag: joiners, selectors and tags in their sequences.
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    for name in [
        family,
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
        "Ann \u{2764}\u{FE0F}",
    ] {
        player(&app, name).await;
    }
    // The same three without their joiners look the same.
    let name = "\u{1F468}\u{1F469}\u{1F467}";
    let answer = make(&app, name).await;
    refused(name, answer, StatusCode::CONFLICT, "looks the same");
}
