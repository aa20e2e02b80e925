//! The board viewer's API against the real app: every prefix of a board scored by the engine,
//! the first illegal placement with its rule, a malformed string pointed out at the
//! character, and the parameters refused.

mod common;

use common::{Answer, TestApp};
use hyper::StatusCode;
use railroad_ink::Board;
use serde_json::Value;

const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

async fn ink_view(app: &TestApp, board: &str) -> Value {
    app.get(&format!("/api/ink/view?board={board}"), None)
        .await
        .is(StatusCode::OK)
}

#[tokio::test]
async fn every_prefix_of_the_rules_example_is_scored_by_the_engine() {
    let app = TestApp::start().await;
    let v = ink_view(&app, EXAMPLE).await;
    assert_eq!(v["board"], EXAMPLE);
    assert_eq!(v["well_formed"], true);
    assert_eq!(v["valid"], true);
    assert_eq!(v["illegal"], Value::Null);
    assert_eq!(v["malformed"], Value::Null);
    let placements = v["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 31);
    assert_eq!(placements[0], "A4A12");
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 32);
    for (k, step) in steps.iter().enumerate() {
        let expected = if k == 0 {
            Board::new()
        } else {
            EXAMPLE[..5 * k].parse::<Board>().unwrap()
        };
        assert_eq!(
            step,
            &serde_json::to_value(expected.breakdown()).unwrap(),
            "step {k}"
        );
    }
    let last = &steps[31];
    assert_eq!(last["score"]["advanced"], 46);
    assert_eq!(last["score"]["basic"], 33);
    assert_eq!(last["score"]["errors"], 5);
    assert_eq!(last["longest_highway"].as_array().unwrap().len(), 8);
    assert_eq!(last["longest_railway"].as_array().unwrap().len(), 5);
    assert_eq!(last["centre"].as_array().unwrap().len(), 6);
}

#[tokio::test]
async fn the_empty_board_and_the_first_illegal_placement() {
    let app = TestApp::start().await;
    let v = ink_view(&app, "").await;
    assert_eq!(v["valid"], true);
    assert_eq!(v["steps"].as_array().unwrap().len(), 1);
    assert_eq!(v["steps"][0]["score"]["advanced"], 0);

    // §9.3: B3's highway N edge meets A3's railway S edge.
    let v = ink_view(&app, "A1A30A4B30A4A10").await;
    assert_eq!(v["well_formed"], true);
    assert_eq!(v["valid"], false);
    assert_eq!(v["steps"].as_array().unwrap().len(), 2);
    assert_eq!(v["placements"].as_array().unwrap().len(), 3);
    let illegal = &v["illegal"];
    assert_eq!(illegal["index"], 1);
    assert_eq!(illegal["placement"], "A4B30");
    assert_eq!(illegal["square"], "B3");
    assert_eq!(illegal["rule"], "highway meets railway");
    assert!(
        illegal["reason"].as_str().unwrap().contains("railway"),
        "{illegal}"
    );

    let v = ink_view(&app, "A1C30").await;
    assert_eq!(v["illegal"]["rule"], "no valid connection");
    let v = ink_view(&app, "A1A30A1A30").await;
    assert_eq!(v["illegal"]["rule"], "occupied");
    let v = ink_view(&app, "A4A30").await;
    assert_eq!(v["illegal"]["rule"], "wrong exit type");
}

#[tokio::test]
async fn a_malformed_string_is_pointed_out_at_the_character() {
    let app = TestApp::start().await;
    let v = ink_view(&app, "A4A10A4H10").await;
    assert_eq!(v["well_formed"], false);
    assert_eq!(v["valid"], false);
    let m = &v["malformed"];
    assert_eq!(m["index"], 1);
    assert_eq!(m["from"], 7);
    assert_eq!(m["to"], 8);
    assert_eq!(m["found"], "H");
    assert_eq!(m["expected"], "a row A–G");
    assert_eq!(m["placement"], "A4H10");
    // The well-formed placement before it is drawn.
    assert_eq!(v["placements"], serde_json::json!(["A4A10"]));
    assert_eq!(v["steps"].as_array().unwrap().len(), 2);

    // Lower case, cut short, a non-ASCII character (offsets count characters).
    let m = ink_view(&app, "a4A10").await["malformed"].clone();
    assert_eq!(
        (m["from"].as_u64(), m["found"].as_str()),
        (Some(0), Some("a"))
    );
    let m = ink_view(&app, "A4A10A4").await["malformed"].clone();
    assert_eq!((m["from"].as_u64(), m["to"].as_u64()), (Some(5), Some(7)));
    assert!(m.get("found").is_none(), "{m}");
    let m = ink_view(&app, "A4A10A%C3%A9A10").await["malformed"].clone();
    assert_eq!(
        (m["from"].as_u64(), m["found"].as_str()),
        (Some(6), Some("é"))
    );

    // A fourth special, and a 32nd placement.
    let m = ink_view(&app, "S0A10S1A20S2A30S3A40").await["malformed"].clone();
    assert_eq!(
        (m["index"].as_u64(), m["from"].as_u64()),
        (Some(3), Some(15))
    );
    let v = ink_view(&app, &"A4A10".repeat(32)).await;
    assert_eq!(v["malformed"]["index"], 31);
    assert_eq!(v["malformed"]["from"], 155);
    assert_eq!(v["placements"].as_array().unwrap().len(), 31);
    // A4A10 again on A1 is illegal at the second placement.
    assert_eq!(v["illegal"]["index"], 1);
}

#[tokio::test]
async fn the_parameters_are_checked() {
    let app = TestApp::start().await;
    let v = app
        .get("/api/ink/view", None)
        .await
        .is(StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("board"), "{v}");
    app.get(&format!("/api/ink/view?board={}", "A".repeat(2000)), None)
        .await
        .is(StatusCode::BAD_REQUEST);
    // Bytes that are not UTF-8 decode to U+FFFD: malformed, not an error.
    let v = ink_view(&app, "%ffA4A10").await;
    assert_eq!(v["malformed"]["found"], "\u{fffd}");
    let (status, _) = app
        .call("POST", "/api/ink/view?board=A4A10", None, None)
        .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn a_metro_sequence_for_a_number_of_players() {
    let app = TestApp::start().await;
    let get = |q: String| {
        let app = &app;
        async move { app.get(&format!("/api/metro/view?{q}"), None).await }
    };
    // §9.3: station 5's line runs down column 3 into the centre: 2 × 3 = 6, for P4 of 4.
    let (status, v) = get("players=4&sequence=aaaa03aaaa13aaaa23".into()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["players"], 4);
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 4);
    assert_eq!(steps[3]["scores"], serde_json::json!([0, 0, 0, 6]));
    let line = steps[3]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["station"] == 5)
        .unwrap();
    assert_eq!(line["squares"], serde_json::json!(["03", "13", "23"]));
    assert_eq!(line["entries"], serde_json::json!([0, 0, 0]));
    assert_eq!(line["end"]["kind"], "centre");
    assert_eq!(line["owner"], 3);
    for (k, step) in steps.iter().enumerate() {
        let board = metro::Board::from_sequence(
            &"aaaa03aaaa13aaaa23"[..6 * k]
                .parse::<metro::Sequence>()
                .unwrap(),
        )
        .unwrap();
        let scores = metro::scores(&board, metro::PlayerCount::new(4).unwrap());
        assert_eq!(step["scores"], serde_json::json!(scores), "step {k}");
    }
    // Each player count has its owners: with 2 players station 5 is P1's.
    let (_, v) = get("players=2&sequence=aaaa03aaaa13aaaa23".into()).await;
    assert_eq!(v["steps"][3]["scores"], serde_json::json!([6, 0]));

    // The first illegal placement, and a malformed sequence at the character.
    let (_, v) = get("players=2&sequence=aaaa00aaaa11".into()).await;
    assert_eq!(v["valid"], false);
    assert_eq!(v["illegal"]["index"], 1);
    assert_eq!(v["illegal"]["square"], "11");
    assert_eq!(v["illegal"]["name"], "not_touching");
    assert_eq!(v["illegal"]["rule"], "§6.1 rule 2 (touching)");
    let (_, v) = get("players=3&sequence=cccc00".into()).await;
    assert_eq!(v["illegal"]["name"], "avoidable_station_link");
    let (_, v) = get("players=2&sequence=aaaa03aaaa1x".into()).await;
    assert_eq!(v["well_formed"], false);
    assert_eq!(v["malformed"]["from"], 11);
    assert_eq!(v["malformed"]["found"], "x");
    assert_eq!(v["malformed"]["expected"], "a column digit 0–7");
    assert_eq!(v["placements"], serde_json::json!(["aaaa03"]));
    let (_, v) = get("players=2&sequence=".into()).await;
    assert_eq!(v["valid"], true);

    // Parameters.
    for q in [
        "sequence=aaaa03",
        "players=7&sequence=aaaa03",
        "players=two&sequence=",
        "players=2",
    ] {
        let (status, v) = get(q.into()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}: {v}");
    }
}
