//! The runtime written once for every game, generic over [`crate::game::GameState`]: sessions
//! and their cache, changes decided on a state and stored in the action log, the computers'
//! turns and their leases across processes, live updates.

pub mod commands;
pub mod leases;
pub mod registration;
pub mod session;
pub mod sse;

pub use registration::Registration;
pub use session::{Session, Sessions, closed_at, detached, follow_other_processes};
