//! How reminders are sent by web push (a leaf: the configuration and the server's state hold
//! one; see [`crate::reminders`]).

/// How reminders are sent: the contact the push services are given, whether they may be
/// plain `http://` (a test's stand-in service), and how long a turn waits before its reminder.
#[derive(Debug, Clone)]
pub struct PushConfig {
    /// A `mailto:` or `https:` address of the operator, sent with each request (VAPID's `sub`).
    pub contact: String,
    /// Whether endpoints may be `http://` (never for a public server: any address could be
    /// named).
    pub allow_http: bool,
    /// A turn's reminder waits this long, and is dropped if the turn was played meanwhile.
    pub turn_delay_ms: i64,
}

impl Default for PushConfig {
    fn default() -> PushConfig {
        PushConfig {
            contact: "mailto:operator@localhost".into(),
            allow_http: false,
            turn_delay_ms: 60_000,
        }
    }
}
