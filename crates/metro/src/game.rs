//! A game of 2 to 6 players as a state machine over the turn rules of §1.
//!
//! A game is its [`Config`], its seed and its ordered [`Action`]s; its state is a pure replay
//! of those ([`Game::replay`]). Every draw comes from a [`ChaCha8Rng`] seeded from the seed,
//! drawing as [`draw`](crate::draw) does: uniformly among the physical tiles neither placed
//! nor held.

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::{Board, Illegal, IllegalPlacement};
use crate::deck::Deck;
use crate::placement::{Placement, Sequence};
use crate::score::{Score, scores};
use crate::square::{Player, PlayerCount, Square, SquareSet};
use crate::tile::Tile;

/// What a game is set up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Config {
    /// The number of players, 2–6.
    pub players: PlayerCount,
}

impl Config {
    /// A game of `players` players.
    pub const fn new(players: PlayerCount) -> Config {
        Config { players }
    }
}

/// One thing the player whose turn it is does.
///
/// Printed and parsed as `draw`, `keep` and `place RC` (for example `place 03`); serialized as
/// `"draw"`, `"keep"` and `{"place":"03"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Draw a tile: to start a turn with an empty hand, or, holding a tile, to place a new one.
    Draw,
    /// Keep the tile just drawn in hand, and draw a second tile, which must be placed at once.
    Keep,
    /// Place the tile to be placed (the one drawn, or the one in hand if nothing was drawn).
    Place(Square),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw => f.write_str("draw"),
            Action::Keep => f.write_str("keep"),
            Action::Place(sq) => write!(f, "place {sq}"),
        }
    }
}

/// A string that is not an action.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0:?} is not an action: expected draw, keep or place RC (row and column digits 0-7)")]
pub struct ActionError(pub String);

impl FromStr for Action {
    type Err = ActionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["draw"] => Ok(Action::Draw),
            ["keep"] => Ok(Action::Keep),
            ["place", sq] => sq
                .parse()
                .map(Action::Place)
                .map_err(|_| ActionError(s.to_owned())),
            _ => Err(ActionError(s.to_owned())),
        }
    }
}

/// Where the current turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The turn has begun and nothing is drawn yet. With an empty hand the player must
    /// [`Action::Draw`]; holding a tile, they may place it or draw (unless the deck is empty).
    Start,
    /// A tile was drawn with an empty hand: place it, or keep it and draw a second tile.
    Drawn,
    /// A tile was drawn after keeping one, or while holding one: it must be placed at once.
    MustPlace,
    /// All 60 tiles are placed.
    Over,
}

/// Something that happened, in order. Draws reveal the tile drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// `player` drew `tile`.
    Drew {
        /// Who drew.
        player: Player,
        /// The tile drawn.
        tile: Tile,
    },
    /// `player` kept `tile` in hand.
    Kept {
        /// Who kept it.
        player: Player,
        /// The tile kept.
        tile: Tile,
    },
    /// `player` placed a tile.
    Placed {
        /// Who placed it.
        player: Player,
        /// What and where.
        placement: Placement,
    },
    /// `player` passed: the deck and their hand were empty.
    Passed {
        /// Who passed.
        player: Player,
    },
    /// The 60th tile was placed: the game is over.
    Ended,
}

/// An action the rules do not allow now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum GameError {
    /// All 60 tiles are placed.
    #[error("the game is over: all 60 tiles are placed")]
    GameOver,
    /// Another player must act.
    #[error("it is {current}'s turn, not {player}'s")]
    NotYourTurn {
        /// Who tried to act.
        player: Player,
        /// Whose turn it is.
        current: Player,
    },
    /// Place or keep with nothing drawn and nothing in hand.
    #[error("draw a tile first: the hand is empty and nothing is drawn")]
    MustDraw,
    /// Draw again after drawing with an empty hand.
    #[error("{tile} is drawn already: place it, or keep it and draw a second tile")]
    AlreadyDrawn {
        /// The tile drawn.
        tile: Tile,
    },
    /// Draw or keep when the tile drawn must be placed at once.
    #[error("{tile} was drawn while a tile is in hand, so it must be placed at once")]
    MustPlaceSecondDraw {
        /// The tile to place.
        tile: Tile,
    },
    /// Keep with no freshly drawn tile.
    #[error("nothing to keep: only a tile just drawn with an empty hand can be kept")]
    NothingToKeep,
    /// Draw or keep with an empty deck: the tile drawn or held must be placed.
    #[error("the deck is empty: {tile} must be placed")]
    DeckEmpty {
        /// The tile that must be placed.
        tile: Tile,
    },
    /// A placement §6.1 forbids.
    #[error("illegal placement: {0}")]
    IllegalPlacement(#[from] IllegalPlacement),
}

impl GameError {
    /// A short, stable name of the rule that refused the action.
    pub fn rule(&self) -> &'static str {
        match self {
            GameError::GameOver => "game over",
            GameError::NotYourTurn { .. } => "not your turn",
            GameError::MustDraw => "draw first",
            GameError::AlreadyDrawn { .. } => "already drawn",
            GameError::MustPlaceSecondDraw { .. } => "second draw must be placed",
            GameError::NothingToKeep => "nothing to keep",
            GameError::DeckEmpty { .. } => "deck empty",
            GameError::IllegalPlacement(p) => match p.reason {
                Illegal::Occupied { .. } => "occupied",
                Illegal::Centre => "centre square",
                Illegal::NotTouching => "not touching",
                Illegal::AvoidableStationLink { .. } => "avoidable station link",
            },
        }
    }
}

/// A recorded action that cannot be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
#[error("action {index} ({action}): {error}")]
pub struct ReplayError {
    /// 0-based index of the action.
    pub index: usize,
    /// The action.
    pub action: Action,
    /// Why it is not allowed.
    pub error: GameError,
}

/// What is stored to rebuild a game: configuration, seed and actions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    /// The configuration.
    pub config: Config,
    /// The seed of the draws. Keep it secret while the game is played: it decides every draw.
    pub seed: u64,
    /// Every action, in order.
    pub actions: Vec<Action>,
}

/// A game of Metro in progress or finished.
///
/// ```
/// use metro::{Action, Config, Game, Phase, PlayerCount};
/// let mut game = Game::new(Config::new(PlayerCount::new(2).unwrap()), 42);
/// game.apply(Action::Draw).unwrap();
/// assert_eq!(game.phase(), Phase::Drawn);
/// let square = game.legal_squares().first().unwrap();
/// game.apply(Action::Place(square)).unwrap();
/// assert_eq!(game.board().len(), 1);
/// assert_eq!(game.turn().unwrap().number(), 2);
/// // The state is a replay of config, seed and actions.
/// let again = Game::replay(game.config(), game.seed(), game.actions()).unwrap();
/// assert_eq!(again.board(), game.board());
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    config: Config,
    seed: u64,
    rng: ChaCha8Rng,
    deck: Deck,
    board: Board,
    hands: [Option<Tile>; 6],
    turn: Player,
    phase: Phase,
    drawn: Option<Tile>,
    placements: Vec<Placement>,
    actions: Vec<Action>,
    events: Vec<Event>,
}

impl Game {
    /// A new game: empty board, empty hands, P1 to draw.
    pub fn new(config: Config, seed: u64) -> Game {
        Game {
            config,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            deck: Deck::full(),
            board: Board::new(),
            hands: [None; 6],
            turn: Player::FIRST,
            phase: Phase::Start,
            drawn: None,
            placements: Vec::with_capacity(60),
            actions: Vec::with_capacity(128),
            events: Vec::with_capacity(160),
        }
    }

    /// The game after `actions`, replayed from the start.
    pub fn replay(config: Config, seed: u64, actions: &[Action]) -> Result<Game, ReplayError> {
        let mut game = Game::new(config, seed);
        for (index, &action) in actions.iter().enumerate() {
            game.apply(action).map_err(|error| ReplayError {
                index,
                action,
                error,
            })?;
        }
        Ok(game)
    }

    /// The game a record describes.
    pub fn from_record(record: &Record) -> Result<Game, ReplayError> {
        Game::replay(record.config, record.seed, &record.actions)
    }

    /// What rebuilds this game.
    pub fn record(&self) -> Record {
        Record {
            config: self.config,
            seed: self.seed,
            actions: self.actions.clone(),
        }
    }

    /// Takes back the last action by replaying the others; returns it, or `None` at the start.
    ///
    /// Draws are a function of the seed and the actions before them, so after an undo the same
    /// draw gives the same tile again.
    pub fn undo(&mut self) -> Option<Action> {
        let mut actions = std::mem::take(&mut self.actions);
        let last = actions.pop()?;
        let mut game = Game::new(self.config, self.seed);
        for action in actions {
            // Each action was accepted before from the very same state, so it is again.
            if game.apply(action).is_err() {
                break;
            }
        }
        *self = game;
        Some(last)
    }

    /// `player` does `action`, if it is their turn.
    pub fn play(&mut self, player: Player, action: Action) -> Result<&[Event], GameError> {
        if self.phase == Phase::Over {
            return Err(GameError::GameOver);
        }
        if player != self.turn {
            return Err(GameError::NotYourTurn {
                player,
                current: self.turn,
            });
        }
        self.apply(action)
    }

    /// The player whose turn it is does `action`. Returns the events it caused.
    pub fn apply(&mut self, action: Action) -> Result<&[Event], GameError> {
        let first_event = self.events.len();
        let player = self.turn;
        let held = self.hands[player.index()];
        match (self.phase, action) {
            (Phase::Over, _) => return Err(GameError::GameOver),
            (Phase::Start, Action::Draw) => {
                let tile = self.draw_tile().ok_or(match held {
                    Some(tile) => GameError::DeckEmpty { tile },
                    None => GameError::MustDraw,
                })?;
                self.phase = if held.is_some() {
                    Phase::MustPlace
                } else {
                    Phase::Drawn
                };
                self.drawn = Some(tile);
                self.events.push(Event::Drew { player, tile });
            }
            (Phase::Start, Action::Place(square)) => {
                let tile = held.ok_or(GameError::MustDraw)?;
                self.place(Placement::new(tile, square))?;
                self.hands[player.index()] = None;
                self.end_turn();
            }
            (Phase::Start, Action::Keep) => {
                return Err(if held.is_some() {
                    GameError::NothingToKeep
                } else {
                    GameError::MustDraw
                });
            }
            (Phase::Drawn | Phase::MustPlace, Action::Place(square)) => {
                let tile = self.drawn.ok_or(GameError::MustDraw)?;
                self.place(Placement::new(tile, square))?;
                self.drawn = None;
                self.end_turn();
            }
            (Phase::Drawn, Action::Draw) => {
                return Err(GameError::AlreadyDrawn {
                    tile: self.drawn.ok_or(GameError::MustDraw)?,
                });
            }
            (Phase::Drawn, Action::Keep) => {
                let kept = self.drawn.ok_or(GameError::MustDraw)?;
                let tile = self
                    .draw_tile()
                    .ok_or(GameError::DeckEmpty { tile: kept })?;
                self.hands[player.index()] = Some(kept);
                self.drawn = Some(tile);
                self.phase = Phase::MustPlace;
                self.events.push(Event::Kept { player, tile: kept });
                self.events.push(Event::Drew { player, tile });
            }
            (Phase::MustPlace, Action::Draw | Action::Keep) => {
                return Err(GameError::MustPlaceSecondDraw {
                    tile: self.drawn.ok_or(GameError::MustDraw)?,
                });
            }
        }
        self.actions.push(action);
        Ok(&self.events[first_event..])
    }

    fn draw_tile(&mut self) -> Option<Tile> {
        self.deck.draw(&mut self.rng)
    }

    fn place(&mut self, placement: Placement) -> Result<(), IllegalPlacement> {
        self.board.place(placement)?;
        self.placements.push(placement);
        self.events.push(Event::Placed {
            player: self.turn,
            placement,
        });
        Ok(())
    }

    /// Passes the turn on, skipping players with nothing to play, or ends the game.
    fn end_turn(&mut self) {
        if self.board.is_full() {
            self.phase = Phase::Over;
            self.events.push(Event::Ended);
            return;
        }
        self.phase = Phase::Start;
        let n = self.config.players.get() as usize;
        // Fewer than 60 tiles are placed, so a tile is in the deck or in some hand: the loop
        // finds a player with something to play within n steps.
        for _ in 0..n {
            self.turn = Player::from_index((self.turn.index() + 1) % n).unwrap_or(self.turn);
            if !self.deck.is_empty() || self.hands[self.turn.index()].is_some() {
                return;
            }
            self.events.push(Event::Passed { player: self.turn });
        }
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// The number of players.
    pub fn players(&self) -> PlayerCount {
        self.config.players
    }

    /// The seed of the draws.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every action so far, in order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Everything that happened so far, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The placements so far, in order: a valid sequence.
    pub fn sequence(&self) -> Sequence {
        // A game never places more copies of a tile than the deck has.
        Sequence::from_placements(self.placements.clone()).unwrap_or_default()
    }

    /// The placements so far, in order.
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// Where the turn stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether all 60 tiles are placed.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whose turn it is, or `None` when the game is over.
    pub fn turn(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.turn)
    }

    /// The tile `player` holds.
    pub fn hand(&self, player: Player) -> Option<Tile> {
        self.hands.get(player.index()).copied().flatten()
    }

    /// Every held tile (the hands string of §5.3 lists these).
    pub fn hands(&self) -> impl Iterator<Item = (Player, Tile)> + '_ {
        self.config
            .players
            .players()
            .filter_map(|p| Some((p, self.hand(p)?)))
    }

    /// The tile drawn this turn and not yet placed or kept.
    pub fn drawn(&self) -> Option<Tile> {
        self.drawn
    }

    /// How many tiles are left to draw.
    pub fn tiles_left(&self) -> usize {
        self.deck.len()
    }

    /// The tile [`Action::Place`] would place now: the one drawn, else the one in hand.
    pub fn tile_to_place(&self) -> Option<Tile> {
        match self.phase {
            Phase::Over => None,
            Phase::Start => self.hands[self.turn.index()],
            Phase::Drawn | Phase::MustPlace => self.drawn,
        }
    }

    /// Every square where [`Action::Place`] is legal now (empty when a draw must come first).
    pub fn legal_squares(&self) -> SquareSet {
        self.tile_to_place()
            .map_or(SquareSet::EMPTY, |t| self.board.legal_squares(t))
    }

    /// Whether [`Action::Draw`] is allowed now.
    pub fn can_draw(&self) -> bool {
        self.phase == Phase::Start && !self.deck.is_empty()
    }

    /// Whether [`Action::Keep`] is allowed now.
    pub fn can_keep(&self) -> bool {
        self.phase == Phase::Drawn && !self.deck.is_empty()
    }

    /// Every action allowed now.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions: Vec<Action> = self.legal_squares().iter().map(Action::Place).collect();
        if self.can_draw() {
            actions.push(Action::Draw);
        }
        if self.can_keep() {
            actions.push(Action::Keep);
        }
        actions
    }

    /// Every player's score now (final once the game is over).
    pub fn scores(&self) -> Vec<u32> {
        scores(&self.board, self.config.players)
    }

    /// The score with its breakdown.
    pub fn score(&self) -> Score {
        Score::new(&self.board, self.config.players)
    }

    /// What `viewer` may see; `None` for a spectator. Nobody sees the order of draws to come
    /// (there is none until a draw happens); a held tile is shown only to its holder and a
    /// drawn tile only to the player who drew it.
    pub fn view(&self, viewer: Option<Player>) -> View {
        let own_turn = viewer.is_some() && viewer == self.turn();
        View {
            players: self.config.players,
            viewer,
            board: self.board,
            sequence: self.sequence(),
            turn: self.turn(),
            phase: self.phase,
            hand: viewer.and_then(|p| self.hand(p)),
            holding: self
                .config
                .players
                .players()
                .map(|p| self.hand(p).is_some())
                .collect(),
            drawn: if own_turn { self.drawn } else { None },
            legal_squares: if own_turn {
                self.legal_squares()
            } else {
                SquareSet::EMPTY
            },
            can_draw: own_turn && self.can_draw(),
            can_keep: own_turn && self.can_keep(),
            tiles_left: self.deck.len(),
            scores: self.scores(),
        }
    }
}

/// What one player (or a spectator) may see of a game. Serializable for a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// The number of players.
    pub players: PlayerCount,
    /// Who is looking; `None` for a spectator.
    pub viewer: Option<Player>,
    /// The board.
    pub board: Board,
    /// The placements so far, in order.
    pub sequence: Sequence,
    /// Whose turn it is; `None` when the game is over.
    pub turn: Option<Player>,
    /// Where the turn stands.
    pub phase: Phase,
    /// The viewer's own held tile.
    pub hand: Option<Tile>,
    /// For each player, P1 first, whether they hold a tile.
    pub holding: Vec<bool>,
    /// The tile the viewer drew and must now place or keep (only on the viewer's turn).
    pub drawn: Option<Tile>,
    /// Where the viewer may place now (only on the viewer's turn).
    pub legal_squares: SquareSet,
    /// Whether the viewer may draw now.
    pub can_draw: bool,
    /// Whether the viewer may keep the drawn tile now.
    pub can_keep: bool,
    /// How many tiles are left to draw.
    pub tiles_left: usize,
    /// Every player's score now.
    pub scores: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deck::{Hands, draw};

    fn game(players: u8, seed: u64) -> Game {
        Game::new(Config::new(PlayerCount::new(players).unwrap()), seed)
    }

    fn p(n: u8) -> Player {
        Player::from_number(n).unwrap()
    }

    fn first_legal(g: &Game) -> Action {
        Action::Place(g.legal_squares().first().unwrap())
    }

    #[test]
    fn turn_with_an_empty_hand() {
        let mut g = game(2, 1);
        assert_eq!(g.apply(Action::Keep), Err(GameError::MustDraw));
        assert_eq!(
            g.apply(Action::Place("00".parse().unwrap())),
            Err(GameError::MustDraw)
        );
        let events = g.apply(Action::Draw).unwrap().to_vec();
        let Event::Drew { player, tile } = events[0] else {
            panic!("{events:?}")
        };
        assert_eq!((player, Some(tile)), (p(1), g.drawn()));
        assert_eq!(g.apply(Action::Draw), Err(GameError::AlreadyDrawn { tile }));
        // Keep it and draw a second tile, which must be placed at once.
        let events = g.apply(Action::Keep).unwrap().to_vec();
        assert_eq!(events[0], Event::Kept { player: p(1), tile });
        assert_eq!(g.hand(p(1)), Some(tile));
        assert_eq!(g.phase(), Phase::MustPlace);
        let second = g.drawn().unwrap();
        assert_eq!(
            g.apply(Action::Keep),
            Err(GameError::MustPlaceSecondDraw { tile: second })
        );
        assert_eq!(
            g.apply(Action::Draw),
            Err(GameError::MustPlaceSecondDraw { tile: second })
        );
        assert_eq!(
            g.play(p(2), Action::Draw),
            Err(GameError::NotYourTurn {
                player: p(2),
                current: p(1)
            })
        );
        g.apply(first_legal(&g)).unwrap();
        assert_eq!(g.turn(), Some(p(2)));
        assert_eq!(g.hand(p(1)), Some(tile));
        assert_eq!(g.tiles_left(), 58);
    }

    #[test]
    fn turn_holding_a_tile() {
        let mut g = game(2, 2);
        g.apply(Action::Draw).unwrap();
        g.apply(Action::Keep).unwrap();
        g.apply(first_legal(&g)).unwrap();
        g.apply(Action::Draw).unwrap();
        g.apply(first_legal(&g)).unwrap();
        // P1 holds a tile: it can be placed without drawing.
        let held = g.hand(p(1)).unwrap();
        assert_eq!(g.tile_to_place(), Some(held));
        assert_eq!(g.apply(Action::Keep), Err(GameError::NothingToKeep));
        g.apply(first_legal(&g)).unwrap();
        assert_eq!(g.hand(p(1)), None);
        // P2 draws; then holding one and drawing, the new one must be placed.
        g.apply(Action::Draw).unwrap();
        g.apply(Action::Keep).unwrap();
        g.apply(first_legal(&g)).unwrap();
        g.apply(Action::Draw).unwrap();
        g.apply(first_legal(&g)).unwrap();
        g.apply(Action::Draw).unwrap();
        assert_eq!(g.phase(), Phase::MustPlace);
        assert!(g.hand(p(2)).is_some());
        let drawn = g.drawn().unwrap();
        assert_eq!(
            g.apply(Action::Keep),
            Err(GameError::MustPlaceSecondDraw { tile: drawn })
        );
    }

    #[test]
    fn illegal_placement_is_refused_and_changes_nothing() {
        let mut g = game(3, 3);
        g.apply(Action::Draw).unwrap();
        let before = g.board;
        let err = g.apply(Action::Place("33".parse().unwrap())).unwrap_err();
        assert!(
            matches!(err, GameError::IllegalPlacement(e) if e.reason == crate::Illegal::Centre)
        );
        assert_eq!(g.board, before);
        assert_eq!(g.actions().len(), 1);
    }

    #[test]
    fn players_with_nothing_to_play_pass() {
        // P2 keeps a tile whenever it can and holds it while the deck lasts; the others place
        // what they draw. Once the deck is empty only P2 has something to play.
        let mut g = game(3, 4);
        while !g.is_over() {
            let holding = g.hand(g.turn).is_some();
            let action = if g.turn == p(2) && (g.can_keep() || (holding && g.can_draw())) {
                if g.can_keep() {
                    Action::Keep
                } else {
                    Action::Draw
                }
            } else if g.phase() == Phase::Start && !holding {
                Action::Draw
            } else {
                first_legal(&g)
            };
            g.apply(action).unwrap();
        }
        assert!(g.board().is_full());
        assert_eq!(g.turn(), None);
        let end = &g.events()[g.events().len() - 4..];
        assert!(matches!(end[0], Event::Passed { .. }), "{end:?}");
        assert!(matches!(end[1], Event::Passed { .. }), "{end:?}");
        assert!(
            matches!(end[2], Event::Placed { player, .. } if player == p(2)),
            "{end:?}"
        );
        assert_eq!(g.events().last(), Some(&Event::Ended));
        assert_eq!(g.apply(Action::Draw), Err(GameError::GameOver));
        assert_eq!(g.play(p(1), Action::Draw), Err(GameError::GameOver));
        assert_eq!(g.hands().count(), 0);
        let drew = g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Drew { .. }))
            .count();
        assert_eq!(drew, 60);
    }

    /// A deck holding only `n` tiles.
    fn short_deck(n: usize) -> Deck {
        let mut deck = Deck::full();
        for t in Tile::ALL {
            while deck.len() > n && deck.take(t) {}
        }
        deck
    }

    #[test]
    fn the_last_tile_drawn_must_be_placed() {
        let mut g = game(2, 8);
        g.deck = short_deck(1);
        g.apply(Action::Draw).unwrap();
        let tile = g.drawn().unwrap();
        assert!(!g.can_keep());
        assert_eq!(g.apply(Action::Keep), Err(GameError::DeckEmpty { tile }));
        assert_eq!(g.legal_actions().len(), g.legal_squares().len());
    }

    #[test]
    fn a_held_tile_must_be_placed_when_the_deck_is_empty() {
        let mut g = game(2, 9);
        let held = Tile::ALL[0];
        g.hands[0] = Some(held);
        g.hands[1] = Some(Tile::ALL[1]);
        g.deck = short_deck(0);
        assert!(!g.can_draw());
        assert_eq!(
            g.apply(Action::Draw),
            Err(GameError::DeckEmpty { tile: held })
        );
        assert_eq!(g.legal_actions().len(), g.legal_squares().len());
        g.apply(first_legal(&g)).unwrap();
        assert_eq!((g.hand(p(1)), g.turn()), (None, Some(p(2))));
        assert_eq!(g.tile_to_place(), Some(Tile::ALL[1]));
    }

    #[test]
    fn the_game_draws_as_draw_does() {
        let mut g = game(4, 5);
        let mut turns = 0;
        while !g.is_over() && turns < 200 {
            turns += 1;
            if g.can_draw() || g.can_keep() {
                let mut rng = g.rng.clone();
                let mut held: Vec<Tile> = g.hands().map(|(_, t)| t).collect();
                held.extend(g.drawn());
                let hands = Hands::new(held).unwrap();
                let expected = draw(&g.sequence(), &hands, &mut rng).unwrap();
                let action = if g.can_keep() {
                    Action::Keep
                } else {
                    Action::Draw
                };
                g.apply(action).unwrap();
                assert_eq!(g.drawn(), expected);
            } else {
                g.apply(first_legal(&g)).unwrap();
            }
        }
        assert!(g.is_over());
    }

    #[test]
    fn undo_replays_the_rest() {
        let mut g = game(2, 6);
        g.apply(Action::Draw).unwrap();
        let drawn = g.drawn();
        g.apply(first_legal(&g)).unwrap();
        let place = g.actions()[1];
        assert_eq!(g.undo(), Some(place));
        assert_eq!(g.drawn(), drawn);
        assert_eq!(g.board().len(), 0);
        assert_eq!(g.undo(), Some(Action::Draw));
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn view_hides_other_hands_and_draws() {
        let mut g = game(2, 7);
        g.apply(Action::Draw).unwrap();
        g.apply(Action::Keep).unwrap();
        let mine = g.view(Some(p(1)));
        assert_eq!(mine.hand, g.hand(p(1)));
        assert_eq!(mine.drawn, g.drawn());
        assert!(!mine.can_draw && !mine.legal_squares.is_empty());
        let theirs = g.view(Some(p(2)));
        assert_eq!((theirs.hand, theirs.drawn), (None, None));
        assert_eq!(theirs.holding, [true, false]);
        assert!(theirs.legal_squares.is_empty());
        let spectator = g.view(None);
        assert_eq!(
            (spectator.hand, spectator.drawn, spectator.tiles_left),
            (None, None, 58)
        );
    }

    #[test]
    fn serializes_for_a_client() {
        use serde_json::json;
        let mut g = game(2, 7);
        g.apply(Action::Draw).unwrap();
        let drew = serde_json::to_value(g.events()[0]).unwrap();
        assert_eq!(
            (&drew["event"], &drew["player"]),
            (&json!("drew"), &json!(1))
        );
        let place = Action::Place("03".parse().unwrap());
        assert_eq!(serde_json::to_value(place).unwrap(), json!({"place": "03"}));
        assert_eq!(serde_json::to_value(Action::Keep).unwrap(), json!("keep"));
        let view = serde_json::to_value(g.view(Some(p(1)))).unwrap();
        assert_eq!(view["phase"], "drawn");
        assert_eq!(view["turn"], 1);
        assert_eq!(view["tiles_left"], 59);
        assert_eq!(view["board"].as_array().unwrap().len(), 8);
        assert_eq!(view["drawn"], json!(g.drawn().unwrap().to_string()));
        let record = serde_json::to_value(g.record()).unwrap();
        assert_eq!(
            record,
            json!({"config": {"players": 2}, "seed": 7, "actions": ["draw"]})
        );
    }

    #[test]
    fn actions_parse_and_print() {
        for a in [
            Action::Draw,
            Action::Keep,
            Action::Place("07".parse().unwrap()),
        ] {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a));
        }
        assert!("place 08".parse::<Action>().is_err());
        assert!("jump".parse::<Action>().is_err());
    }
}
