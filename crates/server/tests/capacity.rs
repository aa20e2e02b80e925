//! Past its capacity the server refuses at once (`503`, `Retry-After`, the JSON error) instead
//! of letting requests queue for seconds; a request waiting for a core to think on holds no
//! place meanwhile.

mod common;

use std::time::{Duration, Instant};

use common::TestApp;
use hyper::StatusCode;

#[tokio::test]
async fn past_its_capacity_the_server_refuses_at_once() {
    // One request at a time, no more than 30 ms of waiting to start, and one hint waiting for
    // a core to think on.
    let app = TestApp::start_with(|c| {
        c.capacity = server::Capacity {
            in_flight: 1,
            wait: Duration::from_millis(30),
            hints_waiting: 1,
            reviews_waiting: 1,
        };
    })
    .await;
    assert_eq!(server::Capacity::default().in_flight, 256);
    let (id, token) = common::create(&app, r#"{"mode":"solo","seed":7}"#).await;
    // Hints (each a search of the computer's, far longer than 30 ms) asked at once: those that
    // find a core or the one place in line are answered, the others are refused at once.
    let mut asked = Vec::new();
    for _ in 0..8 {
        let (addr, path, token) = (app.addr, format!("/api/ink/games/{id}/hint"), token.clone());
        asked.push(tokio::spawn(async move {
            let started = Instant::now();
            let mut client = common::Client::connect(addr).await;
            let auth = format!("Bearer {token}");
            let response = client
                .send(
                    "GET",
                    &path,
                    &[("authorization", auth.as_str())],
                    Vec::new(),
                )
                .await;
            let status = response.status();
            let retry = response.headers().get("retry-after").cloned();
            let body = common::body(response).await;
            (status, retry, body, started.elapsed())
        }));
    }
    // Meanwhile the hints waiting hold no place: the one place answers another request.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    assert_eq!(app.get("/api/ink/tiles", None).await.0, StatusCode::OK);
    assert!(started.elapsed() < Duration::from_millis(500));
    let (mut answered, mut refused) = (0, 0);
    for task in asked {
        let (status, retry, body, took) = task.await.unwrap();
        if status == StatusCode::OK {
            answered += 1;
            continue;
        }
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        refused += 1;
        assert!(retry.is_some(), "Retry-After");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("busy"), "{v}");
        assert!(took < Duration::from_millis(500), "refused after {took:?}");
    }
    assert!(
        answered >= 1 && refused >= 1,
        "{answered} answered, {refused} refused"
    );
    // Quiet again, everything is answered.
    assert_eq!(app.get("/api/ink/tiles", None).await.0, StatusCode::OK);
}
