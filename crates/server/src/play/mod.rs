//! The runtime written once for every game, generic over [`crate::game::GameState`]: sessions
//! and their cache, changes decided on a state and stored in the action log, the computers'
//! turns and their leases across processes, live updates.

pub mod commands;
pub mod leases;
pub mod session;
pub mod sse;

pub use session::{Registration, Session, Sessions, closed_at, detached, follow_other_processes};
