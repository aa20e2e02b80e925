//! Helpers shared by the developer examples (`ai_eval`, `train_eval`).

/// `f(0..n)` on two threads (this machine's cores), results grouped by thread.
pub fn on_two_threads<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    std::thread::scope(|s| {
        let f = &f;
        let workers: Vec<_> = (0..2u64)
            .map(|w| s.spawn(move || (w..n).step_by(2).map(f).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

/// The value of environment variable `name`, if set and it parses.
pub fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}
