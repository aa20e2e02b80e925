//! A request's place among those the server answers at once (see `crate::http::admission`),
//! held by the task that answers it, and given back early by a request that goes on to wait
//! for something that is not the server's to hurry (a core to think on). A leaf module: the
//! admission layer holds places, the thinking queue gives them back, neither knows the other.

use std::cell::RefCell;
use std::future::Future;

tokio::task_local! {
    /// The place of the request this task answers, while it holds one: whatever gives it back
    /// when dropped.
    static HELD: RefCell<Option<Box<dyn Send>>>;
}

/// Answers a request (`answer`) holding `place` (given back when it is dropped) until it is
/// done or steps aside.
pub async fn hold<P: Send + 'static, F: Future>(place: P, answer: F) -> F::Output {
    HELD.scope(RefCell::new(Some(Box::new(place))), answer)
        .await
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
    use std::sync::Arc;
    use tokio::sync::Semaphore;

    #[tokio::test]
    async fn a_request_that_steps_aside_gives_its_place_back() {
        let places = Arc::new(Semaphore::new(1));
        let place = places.clone().acquire_owned().await.unwrap();
        let inside = places.clone();
        hold(place, async move {
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
