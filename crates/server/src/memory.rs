//! Giving freed memory back to the system, once a minute.
//!
//! glibc returns memory only from the top of a heap; pages freed in the middle stay with the
//! process, so its memory follows the highest it ever needed (a burst of live-update streams,
//! a slow minute with requests piling up) rather than what it holds now. `malloc_trim` hands
//! every whole free page of every arena back. Under the soak (`docs/public.md`,
//! "Memory"), with two arenas: 29 MB at minute 6 and 38 MB at minute 30 without it, 19.7 and
//! 20.1 MB with it (and fixed thresholds: the `tracklayer` binary's `main`).

/// Returns the allocator's free pages to the system (glibc on Linux; elsewhere nothing).
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer from us: it walks glibc's own heaps under their
    // locks and may be called from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
