//! One API dialect in every game (issue 38): the computer's strength is `level` in both games
//! (Railroad Ink's older `agent` is still accepted for one release), and creating or joining a
//! game answers one shape, `{id, seats: [{seat, token}], seat, token}`.

mod common;

use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::Value;

/// Asserts `v` is the one answer to creating or joining game `id` (when known): its seats, each
/// with a token, and the first of them again as `seat` and `token`.
fn assert_seated(v: &Value, id: Option<&str>, seats: &[u64]) -> String {
    let got = v["id"].as_str().expect("an id").to_owned();
    if let Some(id) = id {
        assert_eq!(got, id);
    }
    let list = v["seats"].as_array().expect("seats");
    let numbers: Vec<u64> = list.iter().map(|s| s["seat"].as_u64().unwrap()).collect();
    assert_eq!(numbers, seats, "{v}");
    assert!(
        list.iter()
            .all(|s| s["token"].as_str().is_some_and(|t| !t.is_empty()))
    );
    assert_eq!(v["seat"], list[0]["seat"]);
    assert_eq!(v["token"], list[0]["token"]);
    got
}

#[tokio::test]
async fn railroad_ink_takes_level_and_still_agent() {
    let app = TestApp::start().await;
    let table = app.get("/api/ink/tiles", None).await.is(StatusCode::OK);
    assert_eq!(
        table["levels"],
        serde_json::json!(["random", "greedy", "strong"])
    );
    assert_eq!(table["default_level"], "strong");

    for body in [
        r#"{"mode":"computer","seed":5,"level":"greedy"}"#,
        r#"{"mode":"computer","seed":5,"agent":"greedy"}"#,
    ] {
        let v = app
            .post("/api/ink/games", None, body)
            .await
            .is(StatusCode::CREATED);
        let id = assert_seated(&v, None, &[0]);
        let token = v["token"].as_str().unwrap();
        let s = app
            .get(&format!("/api/ink/games/{id}"), Some(token))
            .await
            .is(StatusCode::OK);
        assert_eq!(s["players"][1]["level"], "greedy", "{body}");
        assert!(s["players"][1].get("agent").is_none());
    }
    // Both names at once is one field given twice.
    let (status, v) = app
        .post(
            "/api/ink/games",
            None,
            r#"{"mode":"computer","level":"greedy","agent":"random"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // An unknown level is refused in its new name too.
    let (status, v) = app
        .post(
            "/api/ink/games",
            None,
            r#"{"mode":"computer","level":"deep-blue"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn creating_and_joining_answer_one_shape_in_both_games() {
    let app = TestApp::start().await;

    // Railroad Ink: an online game made, then joined.
    let v = app
        .post(
            "/api/ink/games",
            None,
            r#"{"mode":"online","seed":3,"name":"Ann"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let ink = assert_seated(&v, None, &[0]);
    let v = app
        .post(
            &format!("/api/ink/games/{ink}/join"),
            None,
            r#"{"name":"Bea"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    assert_seated(&v, Some(&ink), &[1]);

    // Metro: two people on this device and a seat left open, then that seat joined.
    let v = app
        .post(
            "/api/metro/games",
            None,
            r#"{"seed":3,"players":[{"kind":"human","name":"Ann"},{"kind":"human","name":"Bea"},{"kind":"human","invite":true}]}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let metro = assert_seated(&v, None, &[0, 1]);
    let v = app
        .post(
            &format!("/api/metro/games/{metro}/join"),
            None,
            r#"{"name":"Cy"}"#,
        )
        .await
        .is(StatusCode::CREATED);
    assert_seated(&v, Some(&metro), &[2]);
}
