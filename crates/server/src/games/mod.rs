//! The games the server plays, each implementing [`crate::game::GameState`] once and
//! registered in [`crate::app::Games::standard`]. Each game's module is the only one of the
//! server that names its engine crate (with the board viewer).

pub mod ink;
pub mod metro;
