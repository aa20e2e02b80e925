//! `POST /api/ink/check`, which the tutorial's steps are checked with: a placement tried on a
//! board by the engine, its refusal as in a game (422 with the rule), the board after it scored,
//! and where the next tile may go.

mod common;

use common::TestApp;
use hyper::StatusCode;

async fn check(app: &TestApp, body: &str) -> (StatusCode, serde_json::Value) {
    app.post("/api/ink/check", None, body).await
}

#[tokio::test]
async fn a_placement_is_tried_on_a_board_by_the_engine() {
    let app = TestApp::start().await;
    // The railway straight on A3 meets the railway exit: accepted, and scored.
    let (status, v) = check(
        &app,
        r#"{"board":"","placement":"A1A30","tiles":["A1","A4"]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["board"], "A1A30");
    assert_eq!(v["breakdown"]["score"]["longest_railway"], 1);
    assert_eq!(v["breakdown"]["networks"][0]["exits"][0]["square"], "A3");
    // Where the next tiles fit, on the board after it: the straight continues on B3.
    let legal = v["legal"]["A1"].as_array().unwrap();
    assert_eq!(legal.len(), 8);
    assert!(legal[0].as_str().unwrap().contains("B3"), "{legal:?}");
    assert!(!v["legal"]["A4"][0].as_str().unwrap().contains("B3"));

    // A highway under the railway: the engine's refusal, with its rule, as a game's.
    let (status, v) = check(&app, r#"{"board":"A1A30A1B30","placement":"A4C30"}"#).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["rule"], "highway meets railway");
    assert!(v["error"].as_str().unwrap().contains("B3"), "{v}");
    let (status, v) = check(&app, r#"{"board":"A1A30","placement":"A1A30"}"#).await;
    assert_eq!(
        (status, v["rule"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("occupied"))
    );
    let (status, v) = check(&app, r#"{"board":"","placement":"A1D31"}"#).await;
    assert_eq!(
        (status, v["rule"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("no valid connection")
        )
    );

    // No placement: the board as it is.
    let (status, v) = check(&app, r#"{"board":"A1A30"}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["board"], "A1A30");
    assert_eq!(v["legal"], serde_json::json!({}));
}

#[tokio::test]
async fn a_bad_board_or_request_is_a_400() {
    let app = TestApp::start().await;
    for body in [
        r#"{"board":"A1A3"}"#,
        r#"{"board":"A1D31"}"#,
        r#"{"board":"","placement":"Z1A30"}"#,
        r#"{"board":"","tiles":["Q9"]}"#,
        r#"{"placement":"A1A30"}"#,
        r#"{"board":"","extra":1}"#,
        "[",
    ] {
        let (status, v) = check(&app, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let long = format!(r#"{{"board":"{}"}}"#, "A1A30".repeat(300));
    assert_eq!(check(&app, &long).await.0, StatusCode::BAD_REQUEST);
    let many = format!(
        r#"{{"board":"","tiles":[{}]}}"#,
        vec!["\"A1\""; 27].join(",")
    );
    assert_eq!(check(&app, &many).await.0, StatusCode::BAD_REQUEST);
}
