//! Helpers shared by the developer examples (`ai_eval`, `train_eval`, `train_ntuple`).

/// `f(0..n)` on two threads (this machine's cores; `THREADS=n` for more), results grouped by
/// thread.
#[allow(dead_code)] // not every example uses it
pub fn on_two_threads<T: Send>(n: u64, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    std::thread::scope(|s| {
        let f = &f;
        let threads: u64 = env("THREADS").unwrap_or(2).max(1);
        let workers: Vec<_> = (0..threads)
            .map(|w| s.spawn(move || (w..n).step_by(threads as usize).map(f).collect::<Vec<_>>()))
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
