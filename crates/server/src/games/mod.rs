//! The games the server plays, each implementing [`crate::game::GameState`] once and
//! registered in [`crate::app::Games::standard`]. Each game's module is the only one of the
//! server that names its engine crate; its board viewer is its `viewer` module, on the walk
//! every game's viewer shares ([`crate::viewer`]).

pub mod ink;
pub mod metro;
