//! Admission control: past what the server can answer in time, a request is refused at once
//! (`503` with `Retry-After` and the API's JSON error) instead of waiting for seconds in a queue
//! that grows. At most [`Capacity::in_flight`] API requests are answered at a time; one that
//! cannot start within [`Capacity::wait`] is refused. Live-update streams (held for as long as a
//! page is open) and the pages' own files are not counted. A request that goes on to wait for
//! a core to think on (a hint, a review) gives its place back first
//! ([`crate::place::step_aside`]): a queue of those never keeps other requests out.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

/// How much the server takes on at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// API requests answered at once (0: no bound).
    pub in_flight: usize,
    /// How long a request may wait to start before it is refused.
    pub wait: Duration,
    /// Hints waiting for a turn to think before another is refused at once.
    pub hints_waiting: usize,
    /// Reviews waiting for a turn to think before another is refused at once.
    pub reviews_waiting: usize,
}

impl Default for Capacity {
    fn default() -> Capacity {
        Capacity {
            in_flight: 256,
            wait: Duration::from_millis(500),
            hints_waiting: 32,
            reviews_waiting: 64,
        }
    }
}

/// The requests being answered now.
pub struct Admission {
    permits: Option<Arc<Semaphore>>,
    wait: Duration,
}

impl Admission {
    pub fn new(capacity: Capacity) -> Arc<Admission> {
        Arc::new(Admission {
            permits: (capacity.in_flight > 0).then(|| Arc::new(Semaphore::new(capacity.in_flight))),
            wait: capacity.wait,
        })
    }
}

/// The refusal of a request the server has no room for now.
pub fn busy(what: &str) -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        axum::Json(serde_json::json!({
            "error": format!("the server is busy {what}: nothing was done, try again in a moment")
        })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The layer: an API request starts once there is room, or is refused.
pub async fn admit(
    State(admission): State<Arc<Admission>>,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    let Some(permits) = &admission.permits else {
        return next.run(request).await;
    };
    if !path.starts_with("/api/") || path.ends_with("/events") {
        return next.run(request).await;
    }
    match tokio::time::timeout(admission.wait, permits.clone().acquire_owned()).await {
        Ok(Ok(permit)) => {
            let _counted = crate::telemetry::Counted::in_flight();
            crate::place::hold(permit, next.run(request)).await
        }
        _ => {
            crate::telemetry::refused("admission");
            busy("with other requests")
        }
    }
}
