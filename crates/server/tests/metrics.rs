//! Prometheus metrics on an address of their own: answered there only (never on the game's),
//! and the counters move with requests.

mod common;

use common::{Client, TestApp};

/// The metrics text at `addr`.
async fn scrape(addr: std::net::SocketAddr) -> String {
    let mut c = Client::connect(addr).await;
    let (status, body) = c.call_raw("GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    String::from_utf8(body.to_vec()).unwrap()
}

/// The value of the first sample of `metric` whose labels contain `labels`.
fn sample(text: &str, metric: &str, labels: &str) -> f64 {
    (text.lines())
        .filter(|l| l.starts_with(metric) && l.contains(labels))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .next()
        .unwrap_or(0.0)
}

#[tokio::test]
async fn metrics_answer_on_their_own_address_and_move_with_requests() {
    let app = TestApp::start_with(|c| {
        c.metrics_addr = Some("127.0.0.1:0".into());
        c.capacity = server::Capacity::default();
    })
    .await;
    let at = app.metrics_addr().expect("a metrics address");
    assert_ne!(at, app.addr);
    let before = scrape(at).await;
    assert!(before.contains("tracklayer_admission_limit 32"), "{before}");
    for _ in 0..3 {
        let (status, _) = app.post("/api/ink/games", None, r#"{"mode":"solo"}"#).await;
        assert_eq!(status, 201);
    }
    let (status, _) = app.get("/api/ink/games/nonsense", None).await;
    assert_eq!(status, 404);
    let after = scrape(at).await;
    let made = |t: &str| {
        sample(
            t,
            "tracklayer_requests_total",
            r#"class="game_create",status="2xx""#,
        )
    };
    assert!(made(&after) >= made(&before) + 3.0, "{after}");
    assert!(
        sample(&after, "tracklayer_requests_total", r#"status="4xx""#) >= 1.0,
        "{after}"
    );
    for metric in [
        "tracklayer_request_seconds_bucket",
        "tracklayer_commit_seconds",
        "tracklayer_games_in_memory",
        "tracklayer_process_resident_bytes",
        "tracklayer_thinking_waiting",
    ] {
        assert!(after.contains(metric), "{metric}: {after}");
    }
    assert!(
        sample(&after, "tracklayer_games_in_memory", "") >= 3.0,
        "{after}"
    );
    // The game's address serves no metrics.
    let mut c = Client::connect(app.addr).await;
    let (_, body) = c.call_raw("GET", "/metrics", None, None).await;
    assert!(!String::from_utf8_lossy(&body).contains("tracklayer_requests_total"));
}
