//! Admission control: past what the server can answer in time, a request is refused at once
//! (`503` with `Retry-After` and the API's JSON error) instead of waiting for seconds in a queue
//! that grows. At most [`Capacity::in_flight`] API requests are answered at a time; one that
//! cannot start within [`Capacity::wait`] is refused. Live-update streams (held for as long as a
//! page is open) and the pages' own files are not counted. A request that goes on to wait for
//! a core to think on (a hint, a review) gives its place back first ([`step_aside`]): a queue
//! of those never keeps other requests out.

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

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
            HELD.scope(RefCell::new(Some(permit)), next.run(request))
                .await
        }
        _ => busy("with other requests"),
    }
}

tokio::task_local! {
    /// The place of the request this task answers, while it holds one.
    static HELD: RefCell<Option<OwnedSemaphorePermit>>;
}

/// Gives the place of the request being answered back, before it waits for something that is
/// not the server's to hurry (a core to think on): requests that wait so hold no place. A
/// request that holds none (a stream, a task of the server's own) is left as it is.
pub fn step_aside() {
    let _ = HELD.try_with(|held| held.borrow_mut().take());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_that_steps_aside_gives_its_place_back() {
        let permits = Arc::new(Semaphore::new(1));
        let permit = permits.clone().acquire_owned().await.unwrap();
        let inside = permits.clone();
        HELD.scope(RefCell::new(Some(permit)), async move {
            assert_eq!(inside.available_permits(), 0);
            step_aside();
            assert_eq!(inside.available_permits(), 1);
            // Twice is once.
            step_aside();
            assert_eq!(inside.available_permits(), 1);
        })
        .await;
        // Outside any request there is nothing to give back.
        step_aside();
    }
}
