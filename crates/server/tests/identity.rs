//! An identity that survives a lost browser: each device signed in has a key of its own, which
//! the player sees and signs out; a recovery code (shown once, used once) and a one-time link
//! sign a new device in; passkey ceremonies start with the page's own address.

mod common;

use common::challenge::{player, second_device};
use common::{Answer, TestApp, body};
use hyper::StatusCode;
use serde_json::{Value, json};

/// A request from the site's page (with its `Origin`), as JSON.
async fn from_page(
    app: &TestApp,
    method: &str,
    path: &str,
    key: Option<&str>,
    origin: &str,
    payload: Value,
) -> (StatusCode, Value) {
    let host = origin.split_once("://").map_or(origin, |(_, h)| h);
    from_page_at(app, method, path, key, origin, host, payload).await
}

/// The same, with the server named `host` (not the page's).
async fn from_page_at(
    app: &TestApp,
    method: &str,
    path: &str,
    key: Option<&str>,
    origin: &str,
    host: &str,
    payload: Value,
) -> (StatusCode, Value) {
    let mut client = app.client().await;
    let auth = key.map(|k| format!("Bearer {k}"));
    let mut headers = vec![
        ("content-type", "application/json"),
        ("origin", origin),
        ("host", host),
    ];
    if let Some(a) = &auth {
        headers.push(("authorization", a.as_str()));
    }
    let response = client
        .send(method, path, &headers, payload.to_string().into_bytes())
        .await;
    let status = response.status();
    let bytes = body(response).await;
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn origin(app: &TestApp) -> String {
    format!("http://{}", app.addr)
}

#[tokio::test]
async fn a_recovery_code_signs_a_new_device_in_once_and_is_shown_once() {
    let app = TestApp::start().await;
    let (ada, key) = player(&app, "Ada").await;
    let none = app
        .get("/api/players/me/identity", Some(&key))
        .await
        .is(StatusCode::OK);
    assert_eq!(none["recovery"], Value::Null);
    assert_eq!(none["devices"].as_array().unwrap().len(), 1);
    assert_eq!(none["devices"][0]["this"], true);
    assert_eq!(none["devices"][0]["how"], "created");
    let made = app
        .post("/api/players/me/recovery", Some(&key), "{}")
        .await
        .is(StatusCode::CREATED);
    let code = made["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 23, "{code}");
    let shown = app
        .get("/api/players/me/identity", Some(&key))
        .await
        .is(StatusCode::OK);
    assert_eq!(shown["recovery"], made["created"]);
    assert!(!shown.to_string().contains(&code), "the code is shown once");
    // Typed on a browser that lost its key, in lower case with spaces.
    let typed = code.to_lowercase().replace('-', " ");
    let back = app
        .post(
            "/api/players/recover",
            None,
            &json!({ "code": typed }).to_string(),
        )
        .await
        .is(StatusCode::CREATED);
    assert_eq!(
        (back["id"].as_str(), back["name"].as_str()),
        (Some(ada.as_str()), Some("Ada"))
    );
    let new_key = back["token"].as_str().unwrap();
    assert_ne!(new_key, key);
    let me = app
        .get("/api/players/me", Some(new_key))
        .await
        .is(StatusCode::OK);
    assert_eq!(me["id"], ada.as_str());
    // Used once: the same code again opens nothing.
    let (status, again) = app
        .post(
            "/api/players/recover",
            None,
            &json!({ "code": code }).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{again}");
    assert!(again["error"].as_str().unwrap().contains("recovery code"));
    let (status, bad) = app
        .post("/api/players/recover", None, r#"{"code":"ABCDE-FGHJK"}"#)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        bad["error"].as_str().unwrap().contains("this has 10"),
        "{bad}"
    );
}

#[tokio::test]
async fn a_player_sees_their_devices_and_signs_one_out() {
    let app = TestApp::start().await;
    let (_, first) = player(&app, "Ada").await;
    let second = second_device(&app, &first).await;
    let list = app
        .get("/api/players/me/identity", Some(&second))
        .await
        .is(StatusCode::OK);
    let devices = list["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 2);
    assert_eq!(
        devices
            .iter()
            .map(|d| (d["how"].as_str().unwrap(), d["this"].as_bool().unwrap()))
            .collect::<Vec<_>>(),
        [("created", false), ("recovery", true)]
    );
    // The second device signs the first out: its key opens nothing, the second's still does.
    let first_id = devices[0]["id"].as_str().unwrap();
    let (status, _) = app
        .call(
            "DELETE",
            &format!("/api/players/me/devices/{first_id}"),
            Some(&second),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, refused) = app.get("/api/players/me", Some(&first)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        refused["error"].as_str().unwrap().contains("signed out"),
        "{refused}"
    );
    app.get("/api/players/me", Some(&second))
        .await
        .is(StatusCode::OK);
    // Another player cannot sign this one's device out.
    let (_, eve) = player(&app, "Eve").await;
    let second_id = devices[1]["id"].as_str().unwrap();
    let (status, _) = app
        .call(
            "DELETE",
            &format!("/api/players/me/devices/{second_id}"),
            Some(&eve),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.get("/api/players/me", Some(&second))
        .await
        .is(StatusCode::OK);
}

#[tokio::test]
async fn a_link_carries_the_identity_once_and_never_the_key() {
    let app = TestApp::start().await;
    let (ada, key) = player(&app, "Ada").await;
    let here = origin(&app);
    let link = from_page(
        &app,
        "POST",
        "/api/players/me/link",
        Some(&key),
        &here,
        json!({}),
    )
    .await
    .is(StatusCode::CREATED);
    let url = link["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{here}/players/{ada}#link=")),
        "{url}"
    );
    assert!(!url.contains(&key), "the link never carries the key");
    assert!(link["qr"].as_str().unwrap().contains("<svg"));
    let code = url.rsplit_once("#link=").unwrap().1;
    let phone = app
        .post(
            "/api/players/link",
            None,
            &json!({ "code": code }).to_string(),
        )
        .await
        .is(StatusCode::CREATED);
    assert_eq!(phone["id"], ada.as_str());
    let (status, twice) = app
        .post(
            "/api/players/link",
            None,
            &json!({ "code": code }).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{twice}");
    let how: Vec<String> = app
        .get("/api/players/me/identity", Some(&key))
        .await
        .is(StatusCode::OK)["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["how"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(how, ["created", "link"]);
    // From another site's page, no link is made.
    let (status, _) = from_page_at(
        &app,
        "POST",
        "/api/players/me/link",
        Some(&key),
        "https://evil.example",
        &app.addr.to_string(),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn passkey_ceremonies_are_for_this_site_and_discoverable() {
    let app = TestApp::start().await;
    let (_, key) = player(&app, "Ada").await;
    // WebAuthn takes a host name, never an address, as the site's id.
    let (status, refused) = from_page(
        &app,
        "POST",
        "/api/players/passkey",
        None,
        &origin(&app),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        refused["error"].as_str().unwrap().contains("passkeys"),
        "{refused}"
    );
    let here = format!("http://localhost:{}", app.addr.port());
    let add = from_page(
        &app,
        "POST",
        "/api/players/me/passkeys",
        Some(&key),
        &here,
        json!({}),
    )
    .await
    .is(StatusCode::OK);
    let options = &add["options"]["publicKey"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["user"]["name"], "Ada");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    let sign_in = from_page(&app, "POST", "/api/players/passkey", None, &here, json!({}))
        .await
        .is(StatusCode::OK);
    assert!(sign_in["options"]["publicKey"]["challenge"].is_string());
    assert!(sign_in["options"].get("mediation").is_none());
    // A ceremony is finished once: a made-up answer is refused in words, and the ceremony is
    // gone after it.
    let forged = json!({
        "ceremony": sign_in["ceremony"],
        "credential": {
            "id": "AAAA", "rawId": "AAAA", "type": "public-key",
            "response": {"authenticatorData": "AAAA", "clientDataJSON": "AAAA", "signature": "AAAA", "userHandle": "AAAA"},
            "extensions": {}
        }
    });
    let (status, refused) = from_page(
        &app,
        "POST",
        "/api/players/passkey/finish",
        None,
        &here,
        forged.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, _) = from_page(
        &app,
        "POST",
        "/api/players/passkey/finish",
        None,
        &here,
        forged,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Without the page's address, no ceremony starts.
    let (status, _) = app.post("/api/players/passkey", None, "{}").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
