//! The game as a state machine over 7 rounds (§1, §6.4): rounds, dice, specials, undo.
//!
//! A game is its setup (players and where the dice come from) and its ordered actions; its
//! state is a replay of those actions. All players share every roll.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::{Board, Illegal, MAX_SPECIALS};
use crate::dice::{DICE, EXPANSION_DICE, Roll};
use crate::expansion::Expansion;
use crate::placement::Placement;
use crate::score::Score;
use crate::tile::Tile;

/// The number of rounds in a game of the base game (6 with an expansion: see
/// [`Expansion::rounds`]).
pub const ROUNDS: usize = 7;

/// Where a game's dice come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dice {
    /// Rolled by a ChaCha8 generator seeded with this number: the same seed, the same rolls.
    Seed(u64),
    /// Seven given rolls (a game with an expansion plays the first six).
    Fixed([Roll; ROUNDS]),
}

impl Dice {
    /// The seven rolls.
    pub fn rolls(&self) -> [Roll; ROUNDS] {
        self.rolls_in(Expansion::None)
    }

    /// The rolls of a game with `expansion`: seeded rolls carry the expansion's two dice (a
    /// seventh roll is made but never played when the game has six rounds).
    pub fn rolls_in(&self, expansion: Expansion) -> [Roll; ROUNDS] {
        match *self {
            Dice::Seed(seed) => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                [(); ROUNDS].map(|_| Roll::random_in(&mut rng, expansion))
            }
            Dice::Fixed(rolls) => rolls,
        }
    }
}

/// A game's configuration: how many players and which dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// How many players start the game (at least 1).
    pub players: usize,
    /// Where the rolls come from.
    pub dice: Dice,
}

/// One thing a player does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Place a die's tile or a special.
    /// The placement.
    Place {
        /// The placement.
        placement: Placement,
    },
    /// Take back the player's last placement of this round.
    Undo,
    /// Finish the player's round.
    EndRound,
    /// A new player takes the next seat and starts on an empty board in the current round.
    Join,
}

/// Why an action is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("the game is over")]
    /// The game is over.
    Finished,
    #[error("there is no seat {seat} (the game has {players})")]
    /// The seat does not exist.
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// How many seats there are.
        players: usize,
    },
    #[error("you have ended this round; wait for the other players")]
    /// The seat has ended this round.
    RoundEnded,
    #[error("{tile} is not a tile of a game with expansion {expansion} (rule E2)")]
    /// A tile of another expansion (or any expansion tile in the base game).
    NotInThisGame {
        /// The tile.
        tile: Tile,
        /// The game's expansion.
        expansion: Expansion,
    },
    #[error("no unused die of this round's roll ({roll}) shows {tile}")]
    /// No unused die of the roll shows this tile.
    NoSuchDie {
        /// The tile.
        tile: Tile,
        /// The round's roll.
        roll: Roll,
    },
    #[error("a special has already been placed this round (at most one a round)")]
    /// A special was already placed this round.
    SpecialThisRound,
    #[error("{tile} has already been used (each special once a game)")]
    /// This special was already used this game.
    SpecialUsed {
        /// The tile.
        tile: Tile,
    },
    #[error("three specials have already been used (at most three a game)")]
    /// Three specials were already used.
    TooManySpecials,
    #[error("{placement} is illegal: {reason}")]
    /// The placement breaks a rule of §6.1.
    Illegal {
        /// The placement.
        placement: Placement,
        /// The rule it breaks.
        reason: Illegal,
    },
    #[error("the next free seat is {next}")]
    /// A join must take the next free seat.
    WrongJoinSeat {
        /// The next free seat.
        next: usize,
    },
    #[error("nothing to undo this round")]
    /// Nothing was placed this round.
    NothingToUndo,
    #[error("the round cannot end yet: {tile} still fits, for example {example}")]
    /// A die of the round still fits somewhere.
    DieStillFits {
        /// The tile.
        tile: Tile,
        /// A placement where it fits.
        example: Placement,
    },
}

impl GameError {
    /// A short name of the rule that refused the action.
    pub fn rule(&self) -> &'static str {
        match self {
            GameError::Finished => "game over",
            GameError::NoSuchSeat { .. } => "no such seat",
            GameError::RoundEnded => "round ended",
            GameError::NoSuchDie { .. } => "only the round's dice",
            GameError::NotInThisGame { .. } => "not a tile of this game (E2)",
            GameError::SpecialThisRound => "one special a round",
            GameError::SpecialUsed { .. } => "each special once",
            GameError::TooManySpecials => "three specials a game",
            GameError::Illegal { reason, .. } => reason.rule(),
            GameError::WrongJoinSeat { .. } => "join the next seat",
            GameError::NothingToUndo => "nothing to undo",
            GameError::DieStillFits { .. } => "every die placed unless none fits",
        }
    }
}

/// One player's board and round state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerState {
    board: Board,
    /// The board as it was when the current round started.
    round_start: Board,
    /// The board's length at the start of each round so far.
    round_starts: Vec<usize>,
    /// Dice of this round already placed (bit per die).
    used: u8,
    /// Whether a special was placed this round.
    special: bool,
    /// Whether the player has ended this round.
    done: bool,
}

impl PlayerState {
    fn new(expansion: Expansion) -> PlayerState {
        PlayerState {
            board: Board::with_expansion(expansion),
            round_start: Board::with_expansion(expansion),
            round_starts: vec![0],
            used: 0,
            special: false,
            done: false,
        }
    }

    /// The player's board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the player has ended the current round.
    pub fn round_done(&self) -> bool {
        self.done
    }

    /// Bit set of this round's dice already placed (bits 0–3 the route dice, 4–5 the
    /// expansion dice).
    pub fn dice_used(&self) -> u8 {
        self.used
    }

    /// Whether a special has been placed this round.
    pub fn special_this_round(&self) -> bool {
        self.special
    }

    /// The placements of each round so far, the current one last.
    pub fn rounds(&self) -> Vec<Vec<Placement>> {
        let all: Vec<Placement> = self.board.placements().collect();
        let mut bounds = self.round_starts.clone();
        bounds.push(all.len());
        bounds
            .windows(2)
            .map(|w| all[w[0]..w[1]].to_vec())
            .collect()
    }

    /// The placements of the current round.
    pub fn this_round(&self) -> Vec<Placement> {
        let start = *self.round_starts.last().unwrap_or(&0);
        self.board.placements().skip(start).collect()
    }

    /// Whether the special may be placed now by the game rules (§6.4 G4), before legality.
    pub fn special_allowed(&self, tile: Tile) -> bool {
        tile.is_special()
            && !self.special
            && !self.board.has_special(tile)
            && self.board.special_count() < MAX_SPECIALS
    }
}

/// A game of Railroad Ink for one or more players sharing the rolls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    setup: Setup,
    expansion: Expansion,
    rolls: [Roll; ROUNDS],
    round: usize,
    players: Vec<PlayerState>,
    actions: Vec<(usize, Action)>,
}

impl Game {
    /// A new game of the base game; `players` is at least 1.
    pub fn new(setup: Setup) -> Game {
        Game::with_expansion(setup, Expansion::None)
    }

    /// A new game with an expansion (rule E1): 6 rounds, two expansion dice a round (from a
    /// seed; fixed rolls must carry them to be used), optional.
    pub fn with_expansion(setup: Setup, expansion: Expansion) -> Game {
        let players = setup.players.max(1);
        Game {
            setup: Setup { players, ..setup },
            expansion,
            rolls: setup.dice.rolls_in(expansion),
            round: 0,
            players: (0..players).map(|_| PlayerState::new(expansion)).collect(),
            actions: Vec::new(),
        }
    }

    /// Replays a game from its setup and actions; fails at the first refused action.
    pub fn replay(setup: Setup, actions: &[(usize, Action)]) -> Result<Game, (usize, GameError)> {
        Game::replay_with_expansion(setup, Expansion::None, actions)
    }

    /// [`Game::replay`] for a game with an expansion.
    pub fn replay_with_expansion(
        setup: Setup,
        expansion: Expansion,
        actions: &[(usize, Action)],
    ) -> Result<Game, (usize, GameError)> {
        let mut game = Game::with_expansion(setup, expansion);
        for (i, &(seat, action)) in actions.iter().enumerate() {
            game.act(seat, action).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The game's setup as it was created (players who joined later are `Join` actions).
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The game's expansion.
    pub fn expansion(&self) -> Expansion {
        self.expansion
    }

    /// The number of rounds: 7, or 6 with an expansion.
    pub fn rounds(&self) -> usize {
        self.expansion.rounds()
    }

    /// Every accepted action, in order, with its seat.
    pub fn actions(&self) -> &[(usize, Action)] {
        &self.actions
    }

    /// The current round, 0–6 (0–5 with an expansion); [`Game::rounds`] once the game is over.
    pub fn round(&self) -> usize {
        self.round
    }

    /// Whether all seven rounds are over.
    pub fn is_finished(&self) -> bool {
        self.round >= self.rounds()
    }

    /// The roll of the current round (`None` once the game is over). Later rolls stay hidden.
    pub fn roll(&self) -> Option<Roll> {
        self.rolls[..self.rounds()].get(self.round).copied()
    }

    /// The rolls seen so far: every finished round's and the current one.
    pub fn rolls_so_far(&self) -> &[Roll] {
        &self.rolls[..(self.round + 1).min(self.rounds())]
    }

    /// The players' states, by seat.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// One seat's state.
    pub fn player(&self, seat: usize) -> Result<&PlayerState, GameError> {
        self.players.get(seat).ok_or(GameError::NoSuchSeat {
            seat,
            players: self.players.len(),
        })
    }

    /// The tiles of this round's dice the seat has not placed yet.
    pub fn dice_left(&self, seat: usize) -> Result<Vec<Tile>, GameError> {
        let p = self.player(seat)?;
        let Some(roll) = self.roll() else {
            return Ok(Vec::new());
        };
        Ok((0..DICE)
            .filter(|i| p.used & (1 << i) == 0)
            .map(|i| roll.dice()[i])
            .collect())
    }

    /// The tiles of this round's expansion dice the seat has not placed yet (rule X3: each
    /// may be placed once, or not at all).
    pub fn expansion_dice_left(&self, seat: usize) -> Result<Vec<Tile>, GameError> {
        let p = self.player(seat)?;
        let Some(roll) = self.roll() else {
            return Ok(Vec::new());
        };
        Ok(roll
            .expansion_dice()
            .iter()
            .enumerate()
            .take(EXPANSION_DICE)
            .filter(|(i, _)| p.used & (1 << (DICE + i)) == 0)
            .map(|(_, &t)| t)
            .collect())
    }

    /// The tiles the seat may place now by the game rules (dice left, expansion dice left, and
    /// specials if allowed); each may or may not fit on the board.
    pub fn placeable_tiles(&self, seat: usize) -> Result<Vec<Tile>, GameError> {
        let p = self.player(seat)?;
        if self.is_finished() || p.done {
            return Ok(Vec::new());
        }
        let mut tiles = self.dice_left(seat)?;
        tiles.extend(self.expansion_dice_left(seat)?);
        tiles.extend(Tile::SPECIALS.into_iter().filter(|&t| p.special_allowed(t)));
        Ok(tiles)
    }

    /// Whether the game rules let the seat place this special now (one a round, each once,
    /// three a game; §6.4 G4), before any question of where it would fit. The error says
    /// which rule refuses it.
    pub fn special_allowed(&self, seat: usize, tile: Tile) -> Result<(), GameError> {
        let p = self.player(seat)?;
        if self.is_finished() {
            return Err(GameError::Finished);
        }
        if p.done {
            return Err(GameError::RoundEnded);
        }
        if !tile.is_special() {
            let roll = self.roll().ok_or(GameError::Finished)?;
            return Err(GameError::NoSuchDie { tile, roll });
        }
        if p.special {
            return Err(GameError::SpecialThisRound);
        }
        if p.board.has_special(tile) {
            return Err(GameError::SpecialUsed { tile });
        }
        if p.board.special_count() >= MAX_SPECIALS {
            return Err(GameError::TooManySpecials);
        }
        Ok(())
    }

    /// Whether the seat may end its round now (rule G3).
    pub fn can_end_round(&self, seat: usize) -> Result<(), GameError> {
        let p = self.player(seat)?;
        if self.is_finished() {
            return Err(GameError::Finished);
        }
        if p.done {
            return Err(GameError::RoundEnded);
        }
        for tile in self.dice_left(seat)? {
            if let Some(example) = crate::movegen::first_legal(&p.board, tile) {
                return Err(GameError::DieStillFits { tile, example });
            }
        }
        Ok(())
    }

    /// Checks an action without doing it.
    pub fn check(&self, seat: usize, action: Action) -> Result<(), GameError> {
        self.clone().apply(seat, action)
    }

    /// Does an action for a seat, or says why it is refused (and changes nothing).
    pub fn act(&mut self, seat: usize, action: Action) -> Result<(), GameError> {
        self.apply(seat, action)?;
        self.actions.push((seat, action));
        Ok(())
    }

    fn apply(&mut self, seat: usize, action: Action) -> Result<(), GameError> {
        let players = self.players.len();
        let roll = self.roll().ok_or(GameError::Finished)?;
        if action == Action::Join {
            if seat != players {
                return Err(GameError::WrongJoinSeat { next: players });
            }
            let mut p = PlayerState::new(self.expansion);
            p.round_starts = vec![0; self.round + 1];
            self.players.push(p);
            return Ok(());
        }
        if let Action::Place { placement } = action
            && placement.tile.is_special()
        {
            self.special_allowed(seat, placement.tile)?;
        }
        let p = self
            .players
            .get_mut(seat)
            .ok_or(GameError::NoSuchSeat { seat, players })?;
        if p.done {
            return Err(GameError::RoundEnded);
        }
        match action {
            Action::Place { placement } => {
                let tile = placement.tile;
                if !self.expansion.allows(tile) {
                    return Err(GameError::NotInThisGame {
                        tile,
                        expansion: self.expansion,
                    });
                }
                // A special's game rules were checked above.
                let die = if tile.is_special() {
                    None
                } else {
                    Some(
                        roll.unused_die(tile, p.used)
                            .ok_or(GameError::NoSuchDie { tile, roll })?,
                    )
                };
                p.board
                    .place(placement)
                    .map_err(|reason| GameError::Illegal { placement, reason })?;
                match die {
                    Some(d) => p.used |= 1 << d,
                    None => p.special = true,
                }
            }
            Action::Undo => {
                let start = *p.round_starts.last().unwrap_or(&0);
                let kept: Vec<Placement> = p.board.placements().collect();
                if kept.len() <= start {
                    return Err(GameError::NothingToUndo);
                }
                let mut board = p.round_start;
                let (mut used, mut special) = (0u8, false);
                for &q in &kept[start..kept.len() - 1] {
                    board.put(q);
                    if q.tile.is_special() {
                        special = true;
                    } else if let Some(d) = roll.unused_die(q.tile, used) {
                        used |= 1 << d;
                    }
                }
                p.board = board;
                p.used = used;
                p.special = special;
            }
            Action::Join => return Err(GameError::WrongJoinSeat { next: players }),
            Action::EndRound => {
                self.can_end_round(seat)?;
                let p = &mut self.players[seat];
                p.done = true;
                if self.players.iter().all(|p| p.done) {
                    self.round += 1;
                    for p in &mut self.players {
                        p.done = false;
                        p.used = 0;
                        p.special = false;
                        p.round_start = p.board;
                        if self.round < self.expansion.rounds() {
                            p.round_starts.push(p.board.len());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Each seat's score now.
    pub fn scores(&self) -> Vec<Score> {
        self.players.iter().map(|p| p.board.score()).collect()
    }

    /// The winning seats: highest advanced score, then fewest errors; still tied share the win.
    pub fn winners(&self) -> Vec<usize> {
        let scores = self.scores();
        let key = |s: &Score| (s.advanced, -s.errors);
        let Some(best) = scores.iter().map(key).max() else {
            return Vec::new();
        };
        (0..scores.len())
            .filter(|&i| key(&scores[i]) == best)
            .collect()
    }
}
