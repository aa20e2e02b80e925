//! The games the server plays, registered in [`crate::app::Games::standard`]: Metro as a game of
//! the small interface ([`crate::rules::Rules`], played at the runtime's table), Railroad Ink
//! still through the runtime's wider [`crate::game::GameState`]. Each game's module is the only
//! one of the server that names its engine crate; its board viewer is its `viewer` module, on
//! the walk every game's viewer shares ([`crate::viewer`]).

pub mod ink;
pub mod metro;
