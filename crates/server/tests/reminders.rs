//! Reminders by web push: a player who chose "your turn" and subscribed a device hears, once,
//! that it is their turn; the message reaches a stand-in push service encrypted for the device
//! (RFC 8291) and signed with the server's VAPID key; a subscription the service says is gone
//! is removed; nothing is sent in the player's quiet hours; nothing is chosen until chosen.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode as Status};
use axum::routing::post;
use base64ct::{Base64UrlUnpadded, Encoding as _};
use common::challenge::{player, second_device};
use common::{Answer, TestApp};
use hyper::StatusCode;
use serde_json::{Value, json};
use web_push_native::{Auth, p256};

/// What the stand-in push service was sent: (path, headers, body).
type Inbox = Arc<Mutex<Vec<(String, HeaderMap, Vec<u8>)>>>;

/// A push service of the test's own: `/push/…` takes a message (201), `/gone/…` says the
/// subscription is no more (410).
async fn push_service() -> (String, Inbox) {
    let inbox: Inbox = Arc::default();
    async fn take(
        State(inbox): State<Inbox>,
        Path(id): Path<String>,
        headers: HeaderMap,
        body: axum::body::Bytes,
    ) -> Status {
        inbox
            .lock()
            .unwrap()
            .push((format!("/push/{id}"), headers, body.to_vec()));
        Status::CREATED
    }
    async fn gone(State(inbox): State<Inbox>, Path(id): Path<String>) -> Status {
        inbox
            .lock()
            .unwrap()
            .push((format!("/gone/{id}"), HeaderMap::new(), Vec::new()));
        Status::GONE
    }
    let router = axum::Router::new()
        .route("/push/{id}", post(take))
        .route("/gone/{id}", post(gone))
        .with_state(inbox.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{addr}"), inbox)
}

/// A browser's push keys: its secret, and the subscription's keys as it would send them.
fn browser_keys(seed: u8) -> (p256::SecretKey, Value) {
    let secret = p256::SecretKey::from_slice(&[seed; 32]).unwrap();
    let public = secret.public_key().to_sec1_bytes();
    let keys = json!({
        "p256dh": Base64UrlUnpadded::encode_string(&public),
        "auth": Base64UrlUnpadded::encode_string(&[seed; 16]),
    });
    (secret, keys)
}

/// A `PUT` of `body` with a player's key.
async fn put(app: &TestApp, path: &str, key: &str, body: &Value) -> (StatusCode, Value) {
    app.call("PUT", path, Some(key), Some(&body.to_string()))
        .await
}

async fn start() -> TestApp {
    TestApp::start_with(|c| {
        c.push.allow_http = true;
        c.push.turn_delay_ms = 0;
    })
    .await
}

/// A zone whose local hour is `hour` now (a fixed offset: `Etc/GMT-X` is UTC+X).
fn zone_at(hour: i64) -> String {
    let utc_hour = (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        / 3600)
        % 24;
    let mut offset = (hour - utc_hour).rem_euclid(24);
    if offset > 14 {
        offset -= 24;
    }
    match offset {
        0 => "Etc/UTC".into(),
        o if o > 0 => format!("Etc/GMT-{o}"),
        o => format!("Etc/GMT+{}", -o),
    }
}

/// A Metro game of Ann's and Bob's (each with their player's key): (id, Ann's seat token).
async fn game_of(app: &TestApp, ann: &str, bob: &str) -> (String, String) {
    let made = app
        .post(
            "/api/metro/games",
            Some(ann),
            r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"human","invite":true}],"seed":3}"#,
        )
        .await
        .is(StatusCode::CREATED);
    let id = made["id"].as_str().unwrap().to_owned();
    let seat = made["seats"][0]["token"].as_str().unwrap().to_owned();
    app.post(
        &format!("/api/metro/games/{id}/join"),
        Some(bob),
        r#"{"name":"Bob"}"#,
    )
    .await
    .is(StatusCode::CREATED);
    (id, seat)
}

/// Ann's turn: draw, then place at the first legal square.
async fn ann_plays(app: &TestApp, id: &str, seat: &str) {
    let path = format!("/api/metro/games/{id}");
    let s = app
        .post(&format!("{path}/draw"), Some(seat), "")
        .await
        .is(StatusCode::OK);
    let square = &s["you"]["legal"].as_str().unwrap()[..2];
    app.post(
        &format!("{path}/place"),
        Some(seat),
        &json!({ "square": square }).to_string(),
    )
    .await
    .is(StatusCode::OK);
}

async fn wait_for(inbox: &Inbox, n: usize) -> Vec<(String, HeaderMap, Vec<u8>)> {
    for _ in 0..200 {
        if inbox.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    inbox.lock().unwrap().clone()
}

#[tokio::test]
async fn your_turn_reaches_the_device_once_encrypted_for_it() {
    let (service, inbox) = push_service().await;
    let app = start().await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    // Nothing is chosen until chosen.
    let none = app
        .get("/api/players/me/reminders", Some(&bob))
        .await
        .is(StatusCode::OK);
    assert_eq!(
        (
            &none["turn"],
            &none["daily"],
            &none["streak"],
            &none["this_device"]
        ),
        (&json!(false), &json!(false), &json!(false), &json!(false))
    );
    let server_key = none["key"].as_str().unwrap().to_owned();
    let chosen = json!({"turn": true, "daily": false, "streak": false, "zone": zone_at(12)});
    put(&app, "/api/players/me/reminders", &bob, &chosen)
        .await
        .is(StatusCode::OK);
    let (secret, keys) = browser_keys(5);
    let (_, gone_keys) = browser_keys(6);
    let sub =
        json!({"endpoint": format!("{service}/push/bob"), "keys": keys, "expirationTime": null});
    let shown = put(&app, "/api/players/me/push", &bob, &sub)
        .await
        .is(StatusCode::OK);
    assert_eq!(shown["this_device"], true);
    // A second device of Bob's, whose subscription its push service forgot.
    let phone = second_device(&app, &bob).await;
    let old = json!({"endpoint": format!("{service}/gone/bob-phone"), "keys": gone_keys});
    let both = put(&app, "/api/players/me/push", &phone, &old)
        .await
        .is(StatusCode::OK);
    assert_eq!(both["devices"], 2);

    let (id, seat) = game_of(&app, &ann, &bob).await;
    ann_plays(&app, &id, &seat).await;
    let got = wait_for(&inbox, 2).await;
    let (_, headers, body) = got
        .iter()
        .find(|(path, ..)| path == "/push/bob")
        .expect("the message reached the push service");
    assert_eq!(headers["content-encoding"], "aes128gcm");
    let vapid = headers["authorization"].to_str().unwrap();
    assert!(vapid.starts_with("vapid t="), "{vapid}");
    assert!(vapid.contains(&format!("k={server_key}")), "{vapid}");
    let plain = web_push_native::decrypt(body.clone(), &secret, &Auth::clone_from_slice(&[5; 16]))
        .expect("decrypted with the device's keys");
    let message: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(message["title"], "Your turn");
    assert_eq!(message["body"], "Ann played: it is your turn in Metro.");
    assert_eq!(message["url"], format!("/metro/{id}"));
    // The forgotten subscription is removed; the message went once.
    assert!(got.iter().any(|(path, ..)| path == "/gone/bob-phone"));
    tokio::time::sleep(Duration::from_secs(6)).await;
    let after = inbox.lock().unwrap().clone();
    assert_eq!(
        after.iter().filter(|(p, ..)| p == "/push/bob").count(),
        1,
        "sent once"
    );
    let left = app
        .get("/api/players/me/reminders", Some(&bob))
        .await
        .is(StatusCode::OK);
    assert_eq!(left["devices"], 1);
}

#[tokio::test]
async fn nothing_is_sent_in_the_quiet_hours_nor_unchosen() {
    let (service, inbox) = push_service().await;
    let app = start().await;
    let (_, ann) = player(&app, "Ann").await;
    let (_, bob) = player(&app, "Bob").await;
    let (_, cy) = player(&app, "Cy").await;
    // Bob sleeps (23:00 where he is); Cy subscribed but chose nothing.
    for (key, chosen, path) in [
        (
            &bob,
            json!({"turn": true, "daily": true, "streak": true, "zone": zone_at(23)}),
            "bob",
        ),
        (
            &cy,
            json!({"turn": false, "daily": false, "streak": false, "zone": zone_at(12)}),
            "cy",
        ),
    ] {
        put(&app, "/api/players/me/reminders", key, &chosen)
            .await
            .is(StatusCode::OK);
        let (_, keys) = browser_keys(9);
        let sub = json!({"endpoint": format!("{service}/push/{path}"), "keys": keys});
        put(&app, "/api/players/me/push", key, &sub)
            .await
            .is(StatusCode::OK);
    }
    let (id, seat) = game_of(&app, &ann, &bob).await;
    ann_plays(&app, &id, &seat).await;
    let (id2, seat2) = game_of(&app, &ann, &cy).await;
    ann_plays(&app, &id2, &seat2).await;
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert!(
        inbox.lock().unwrap().is_empty(),
        "nothing sent at night, nothing unchosen"
    );
    // A zone that is none is refused in words; so is an endpoint that is not an address.
    let (status, v) = app
        .call(
            "PUT",
            "/api/players/me/reminders",
            Some(&bob),
            Some(r#"{"turn":true,"daily":false,"streak":false,"zone":"Mars/Olympus"}"#),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("no time zone"), "{v}");
    let (_, keys) = browser_keys(9);
    let bad = json!({"endpoint": "ftp://example.org/x", "keys": keys});
    let (status, _) = put(&app, "/api/players/me/push", &bob, &bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let short = json!({"endpoint": format!("{service}/push/x"), "keys": {"p256dh": "AAAA", "auth": "AAAA"}});
    let (status, v) = put(&app, "/api/players/me/push", &bob, &short).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("p256dh"), "{v}");
}

#[tokio::test]
async fn the_daily_and_a_streak_about_to_end_are_reminded_once_each() {
    let (service, inbox) = push_service().await;
    // 21:00 UTC on 29 November 2026: the day's dailies close in three hours.
    let at = 1_795_910_400_000 + 21 * 3_600_000;
    let app = TestApp::start_with(|c| {
        c.push.allow_http = true;
        c.clock = server::Clock::starting_at(at);
    })
    .await;
    let (dee, key) = player(&app, "Dee").await;
    // Dee's Railroad Ink streak: four days, the last yesterday; not played today.
    app.storage()
        .exec_for_test(
            "INSERT INTO streaks (player, kind, last, current, longest) VALUES (?1, 'daily', '2026-11-28', 4, 4)",
            &[&dee],
        )
        .await
        .unwrap();
    let chosen = json!({"turn": false, "daily": true, "streak": true, "zone": "Etc/UTC"});
    put(&app, "/api/players/me/reminders", &key, &chosen)
        .await
        .is(StatusCode::OK);
    let (secret, keys) = browser_keys(3);
    let sub = json!({"endpoint": format!("{service}/push/dee"), "keys": keys});
    put(&app, "/api/players/me/push", &key, &sub)
        .await
        .is(StatusCode::OK);
    let got = wait_for(&inbox, 2).await;
    let mut messages: Vec<Value> = got
        .iter()
        .map(|(_, _, body)| {
            let plain =
                web_push_native::decrypt(body.clone(), &secret, &Auth::clone_from_slice(&[3; 16]))
                    .unwrap();
            serde_json::from_slice(&plain).unwrap()
        })
        .collect();
    messages.sort_by_key(|m| m["kind"].as_str().unwrap().to_owned());
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0]["title"], "Today's daily is open");
    assert_eq!(
        messages[0]["body"],
        "Today's Railroad Ink and Metro dailies are open: the same draws for everyone, until midnight UTC."
    );
    assert_eq!(messages[1]["title"], "Your streak ends in 3 hours");
    assert_eq!(
        messages[1]["body"],
        "Play today's Railroad Ink daily to keep your 4-day streak."
    );
    assert_eq!(messages[1]["url"], "/challenges/daily-2026-11-29");
    // The sender looks again (woken by the choices saved again): nothing new.
    put(&app, "/api/players/me/reminders", &key, &chosen)
        .await
        .is(StatusCode::OK);
    tokio::time::sleep(Duration::from_secs(6)).await;
    assert_eq!(inbox.lock().unwrap().len(), 2, "each once");
}

/// Two processes on one PostgreSQL database: each reminder is sent once, whichever process
/// stored it (one process at a time sends). Needs `TRACKLAYER_TEST_PG` (skipped without it).
#[tokio::test]
async fn two_processes_send_each_reminder_once() {
    let Some(db) = common::postgres_only().await else {
        return;
    };
    let (service, inbox) = push_service().await;
    let mut config = common::test_config(db);
    config.push.allow_http = true;
    config.push.turn_delay_ms = 0;
    let one = server::start(&config).await.unwrap();
    let two = server::start(&config).await.unwrap();
    let call = |addr, method: &'static str, path: String, key: Option<String>, body: String| async move {
        common::Client::connect(addr)
            .await
            .call(method, &path, key.as_deref(), Some(&body))
            .await
    };
    let made = |name: &str| json!({ "name": name }).to_string();
    let (_, ann) = call(one.addr(), "POST", "/api/players".into(), None, made("Ann")).await;
    let (_, bob) = call(two.addr(), "POST", "/api/players".into(), None, made("Bob")).await;
    let (ann, bob) = (
        ann["token"].as_str().unwrap().to_owned(),
        bob["token"].as_str().unwrap().to_owned(),
    );
    let chosen = json!({"turn": true, "daily": false, "streak": false, "zone": zone_at(12)});
    call(
        one.addr(),
        "PUT",
        "/api/players/me/reminders".into(),
        Some(bob.clone()),
        chosen.to_string(),
    )
    .await
    .is(StatusCode::OK);
    let (_, keys) = browser_keys(4);
    let sub = json!({"endpoint": format!("{service}/push/bob"), "keys": keys});
    call(
        two.addr(),
        "PUT",
        "/api/players/me/push".into(),
        Some(bob.clone()),
        sub.to_string(),
    )
    .await
    .is(StatusCode::OK);
    // Five games, each of whose first turns passes to Bob in one process or the other.
    for i in 0..5 {
        let (here, there) = if i % 2 == 0 {
            (one.addr(), two.addr())
        } else {
            (two.addr(), one.addr())
        };
        let (_, g) = call(
            here,
            "POST",
            "/api/metro/games".into(),
            Some(ann.clone()),
            r#"{"players":[{"kind":"human","name":"Ann"},{"kind":"human","invite":true}]}"#.into(),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_owned();
        let seat = g["seats"][0]["token"].as_str().unwrap().to_owned();
        let path = format!("/api/metro/games/{id}");
        call(
            there,
            "POST",
            format!("{path}/join"),
            Some(bob.clone()),
            made("Bob"),
        )
        .await
        .is(StatusCode::CREATED);
        let (_, s) = call(
            there,
            "POST",
            format!("{path}/draw"),
            Some(seat.clone()),
            String::new(),
        )
        .await;
        let square = s["you"]["legal"].as_str().unwrap()[..2].to_owned();
        call(
            here,
            "POST",
            format!("{path}/place"),
            Some(seat),
            json!({ "square": square }).to_string(),
        )
        .await
        .is(StatusCode::OK);
    }
    let got = wait_for(&inbox, 5).await;
    tokio::time::sleep(Duration::from_secs(6)).await;
    let after = inbox.lock().unwrap().len();
    assert_eq!((got.len(), after), (5, 5), "five turns, five messages");
    one.stop().await.unwrap();
    two.stop().await.unwrap();
}
