//! Two processes on one PostgreSQL database, one player's actions alternating between them (as
//! round-robin nginx sends them): no legal action is refused because the process that answers
//! had not heard of the one before. Needs `TRACKLAYER_TEST_PG` (skipped without it).

mod common;

use hyper::StatusCode;
use serde_json::Value;

/// How many actions alternate between the two processes.
const ACTIONS: usize = 1000;

#[tokio::test]
async fn a_legal_action_is_never_refused_on_a_stale_copy() {
    let Some((one, two)) = common::two_processes().await else {
        return;
    };
    let mut clients = [
        common::Client::connect(one.addr()).await,
        common::Client::connect(two.addr()).await,
    ];
    let (mut done, mut refused, mut games) = (0, Vec::new(), 0);
    while done < ACTIONS {
        let (status, made) = clients[done % 2]
            .call("POST", "/api/ink/games", None, Some(r#"{"mode":"solo"}"#))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        games += 1;
        let id = made["id"].as_str().unwrap().to_owned();
        let token = made["token"].as_str().unwrap().to_owned();
        // The first state from the process that made it; after that, each action's answer
        // says what to do next, and the next action goes to the other process.
        let (_, mut state) = clients[done % 2]
            .call("GET", &format!("/api/ink/games/{id}"), Some(&token), None)
            .await;
        while state["finished"] != true {
            done += 1;
            let (path, body) = common::next_ink_move(&state);
            let (status, answer): (StatusCode, Value) = clients[done % 2]
                .call(
                    "POST",
                    &format!("/api/ink/games/{id}/{path}"),
                    Some(&token),
                    Some(&body),
                )
                .await;
            if status != StatusCode::OK {
                refused.push(format!("{path}: {status} {answer}"));
                // Read it again from the process that refused, and go on from there.
                state = clients[done % 2]
                    .call("GET", &format!("/api/ink/games/{id}"), Some(&token), None)
                    .await
                    .1;
            } else {
                state = answer;
            }
        }
    }
    println!(
        "{done} actions over {games} games, alternating between two processes: {} refused",
        refused.len()
    );
    assert!(
        refused.is_empty(),
        "{} refused: {:?}",
        refused.len(),
        &refused[..refused.len().min(5)]
    );
    one.stop().await.unwrap();
    two.stop().await.unwrap();
}
