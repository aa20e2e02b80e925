//! Prometheus metrics, on an address of their own (`--metrics-addr`, off by default) so that
//! they are never public: requests and their latency by route class and status, refusals (`503`)
//! and why, requests in flight and the admission limit, the database's commit time, games in
//! memory, open live-update streams, the thinking queue's depth and wait, challenge entries,
//! the turn deadlines' lateness, the pool, and the process's memory. What to watch:
//! `docs/metrics.md`; a Grafana dashboard: `deploy/grafana-dashboard.json`.
//!
//! The recorder is the process's (the `metrics` crate's global one), installed once when a
//! server is started with a metrics address (`http::metrics` serves it); without it every
//! measure is a no-op.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// The request latency buckets, in seconds.
const LATENCY: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed the first time (`None` if another recorder was there).
pub(crate) fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY)
                .ok()?;
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            Some(handle)
        })
        .as_ref()
}

/// A request's route class, as its metrics are labelled (a few, whatever the ids in the path).
pub fn route_class(method: &axum::http::Method, path: &str) -> &'static str {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let post = method == axum::http::Method::POST;
    match parts.as_slice() {
        ["api", "health"] => "health",
        ["api", _, "games", _, "events"] => "events",
        ["api", _, "games", _, "hint"] => "hint",
        ["api", _, "games", _, "review"] => "review",
        ["api", _, "games"] if post => "game_create",
        ["api", _, "games", ..] if post => "game_action",
        ["api", _, "games", ..] => "game_read",
        ["api", "challenges", ..] => "challenges",
        ["api", "players", ..] => "players",
        ["api", "pool", ..] => "pool",
        ["api", ..] => "api_other",
        _ => "page",
    }
}

/// Counts a request answered: its class, its status's class (`2xx`…), and how long it took.
pub fn request(class: &'static str, status: u16, elapsed: Duration) {
    let status = match status {
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    metrics::counter!("tracklayer_requests_total", "class" => class, "status" => status)
        .increment(1);
    metrics::histogram!("tracklayer_request_seconds", "class" => class)
        .record(elapsed.as_secs_f64());
}

/// Counts a refusal for lack of room (`503`), and why: `waited` (too long, see
/// `http::admission`), `in flight` (no place), `thinking`, `database`, `disk`.
pub fn refused(why: &'static str) {
    metrics::counter!("tracklayer_refused_total", "why" => why).increment(1);
}

/// Sets the number of requests admission answers at once, as it adapts.
pub fn admission_limit(limit: usize) {
    metrics::gauge!("tracklayer_admission_limit").set(limit as f64);
}

/// Records how long a request waited, from its arrival, before the server began on it.
pub fn waited(elapsed: Duration) {
    metrics::histogram!("tracklayer_request_wait_seconds").record(elapsed.as_secs_f64());
}

/// Records how long the database took to commit a change to a game.
pub fn commit(elapsed: Duration) {
    metrics::histogram!("tracklayer_commit_seconds").record(elapsed.as_secs_f64());
}

/// Records how long something waited for a turn to think (a hint, a computer, a review).
pub fn thinking_wait(elapsed: Duration) {
    metrics::histogram!("tracklayer_thinking_wait_seconds").record(elapsed.as_secs_f64());
}

/// Records how late (after it was due) a turn deadline was acted on.
pub fn deadline_late(ms: i64) {
    metrics::histogram!("tracklayer_deadline_late_seconds").record(ms.max(0) as f64 / 1000.0);
}

/// Counts a reminder a push service took, by kind (`turn`, `daily`, `streak`).
pub fn reminder_sent(kind: &str) {
    metrics::counter!("tracklayer_reminders_sent_total", "kind" => kind.to_owned()).increment(1);
}

/// Counts an entry made in a challenge.
pub fn entry() {
    metrics::counter!("tracklayer_challenge_entries_total").increment(1);
}

/// Something counted in a gauge while it lives: a request being answered
/// ([`Counted::in_flight`]), an open live-update stream ([`Counted::stream`]).
pub struct Counted(&'static str);

impl Counted {
    fn new(gauge: &'static str) -> Counted {
        metrics::gauge!(gauge).increment(1.0);
        Counted(gauge)
    }

    pub fn in_flight() -> Counted {
        Counted::new("tracklayer_requests_in_flight")
    }

    pub fn stream() -> Counted {
        Counted::new("tracklayer_open_streams")
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Method;

    #[test]
    fn routes_fall_in_a_few_classes() {
        let id = "0123456789abcdef01234567";
        for (method, path, class) in [
            (Method::POST, "/api/ink/games".to_owned(), "game_create"),
            (
                Method::POST,
                format!("/api/metro/games/{id}/place"),
                "game_action",
            ),
            (Method::GET, format!("/api/metro/games/{id}"), "game_read"),
            (Method::GET, format!("/api/ink/games/{id}/events"), "events"),
            (Method::GET, format!("/api/ink/games/{id}/hint"), "hint"),
            (
                Method::GET,
                "/api/challenges/daily-2026-11-28".to_owned(),
                "challenges",
            ),
            (Method::POST, "/api/pool/metro".to_owned(), "pool"),
            (Method::GET, "/ink/x".to_owned(), "page"),
        ] {
            assert_eq!(route_class(&method, &path), class, "{path}");
        }
    }
}
