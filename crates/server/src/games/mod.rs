//! The games the server plays, registered in [`crate::app::Games::standard`]: Railroad Ink and
//! Metro, each a game of the small interface ([`crate::rules::Rules`], played at the runtime's
//! table). Each game's module is the only one of the server that names its engine crate; its board viewer is its `viewer` module, on
//! the walk every game's viewer shares ([`crate::viewer`]).

pub mod ink;
pub mod metro;
