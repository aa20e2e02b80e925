//! Computer players behind one small trait.
//!
//! An [`Agent`] plays one round at a time: it sees the board, the current roll and the rolls
//! of earlier rounds, never a later one, and returns the round's placements, which must
//! follow the game rules (the round's dice, at most one special, maximal).

pub mod eval;
pub mod ntuple;
pub mod review;
pub mod strong;
mod trained;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, MAX_SPECIALS};
use crate::dice::{DICE, Roll};
use crate::expansion::Expansion;
use crate::game::{Action, Dice, Game, GameError, ROUNDS, Setup};
use crate::placement::Placement;
use crate::square::Square;
use crate::tile::Tile;

/// What an agent sees when it plays (the rest of) a round.
#[derive(Debug, Clone, Copy)]
pub struct RoundView<'a> {
    /// The board now.
    pub board: &'a Board,
    /// This round's roll.
    pub roll: Roll,
    /// Dice of the roll already placed this round (bit per die): none at the round's start.
    pub used: u8,
    /// Whether a special was already placed this round.
    pub special_placed: bool,
    /// The round, 0–6.
    pub round: usize,
    /// The rolls of the earlier rounds and this one (this one last).
    pub rolls: &'a [Roll],
}

impl RoundView<'_> {
    /// What `seat` of `game` sees of the rest of its round: its board, this round's roll, the
    /// dice and special it placed already (`None` once the game is over, or for no seat).
    pub fn of(game: &Game, seat: usize) -> Option<RoundView<'_>> {
        let p = game.player(seat).ok()?;
        Some(RoundView {
            board: p.board(),
            roll: game.roll()?,
            used: p.dice_used(),
            special_placed: p.special_this_round(),
            round: game.round(),
            rolls: game.rolls_so_far(),
        })
    }

    /// The tiles of the dice not placed yet.
    pub fn dice_left(&self) -> Vec<Tile> {
        (0..DICE)
            .filter(|i| self.used & (1 << i) == 0)
            .map(|i| self.roll.dice()[i])
            .collect()
    }

    /// Whether a special may still be placed this round (before legality).
    pub fn special_allowed(&self) -> bool {
        !self.special_placed && self.board.special_count() < MAX_SPECIALS
    }

    /// The expansion dice not placed yet, with their die index (4 or 5): optional (rule X3).
    pub fn expansion_dice_left(&self) -> Vec<(usize, Tile)> {
        self.roll
            .all_dice()
            .skip(DICE)
            .filter(|&(i, _)| self.used & (1 << i) == 0)
            .collect()
    }

    /// Rounds to come after this one: 6 − round in the base game, 5 − round with an
    /// expansion.
    pub fn rounds_left(&self) -> usize {
        let rounds = self.board.expansion().rounds();
        rounds - 1 - self.round.min(rounds - 1)
    }
}

/// A computer player.
pub trait Agent {
    /// The agent's name, as on the command line.
    fn name(&self) -> String;

    /// The placements of one round, in order.
    fn play_round(&mut self, view: &RoundView<'_>) -> Vec<Placement>;
}

/// Plays a whole solo game with an agent on the given rolls; fails if the agent breaks a rule.
pub fn play_game(agent: &mut dyn Agent, rolls: [Roll; ROUNDS]) -> Result<Game, GameError> {
    play_game_with(agent, Expansion::None, rolls)
}

/// Plays a whole solo game of an expansion with an agent on the rolls of a seed.
pub fn play_game_in(
    agent: &mut dyn Agent,
    expansion: Expansion,
    seed: u64,
) -> Result<Game, GameError> {
    play_game_with(agent, expansion, Dice::Seed(seed).rolls_in(expansion))
}

/// Plays a whole solo game of a game with `expansion` on the given rolls (the first six with
/// an expansion); fails if the agent breaks a rule.
pub fn play_game_with(
    agent: &mut dyn Agent,
    expansion: Expansion,
    rolls: [Roll; ROUNDS],
) -> Result<Game, GameError> {
    let mut game = Game::with_expansion(
        Setup {
            players: 1,
            dice: Dice::Fixed(rolls),
        },
        expansion,
    );
    for round in 0..expansion.rounds() {
        let board = *game.player(0)?.board();
        let view = RoundView {
            board: &board,
            roll: rolls[round],
            used: 0,
            special_placed: false,
            round,
            rolls: &rolls[..=round],
        };
        for placement in agent.play_round(&view) {
            game.act(0, Action::Place { placement })?;
        }
        game.act(0, Action::EndRound)?;
    }
    Ok(game)
}

/// A random legal placement of `tile`, each legal (square, canonical orientation) equally likely.
pub fn random_placement<R: Rng + ?Sized>(
    board: &Board,
    tile: Tile,
    rng: &mut R,
) -> Option<Placement> {
    let orientations = tile.canonical_orientations();
    let mut masks = [0u64; 8];
    let mut total = 0;
    for (i, &o) in orientations.iter().enumerate() {
        masks[i] = board.legal_squares(tile, o);
        total += masks[i].count_ones();
    }
    if total == 0 {
        return None;
    }
    let mut k = rng.random_range(0..total);
    for (i, &o) in orientations.iter().enumerate() {
        let n = masks[i].count_ones();
        if k < n {
            let mut m = masks[i];
            for _ in 0..k {
                m &= m - 1;
            }
            return Some(Placement::new(
                tile,
                Square::at(m.trailing_zeros() as u8),
                o,
            ));
        }
        k -= n;
    }
    None
}

/// Plays any legal round: dice in random order at random legal places, and now and then a
/// random special.
#[derive(Debug, Clone)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn play_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let mut board = *view.board;
        let mut out = Vec::with_capacity(DICE + 3);
        let mut left = view.dice_left();
        // Expansion dice first, each with even odds (they are optional).
        for (_, tile) in view.expansion_dice_left() {
            if self.rng.random_range(0..2) == 0
                && let Some(p) = random_placement(&board, tile, &mut self.rng)
            {
                board.put(p);
                out.push(p);
            }
        }
        let special_at = self.rng.random_range(0..=DICE + 2) + out.len();
        loop {
            if out.len() == special_at && view.special_allowed() {
                let free: Vec<Tile> = Tile::SPECIALS
                    .into_iter()
                    .filter(|&t| !board.has_special(t))
                    .collect();
                let tile = free[self.rng.random_range(0..free.len())];
                if let Some(p) = random_placement(&board, tile, &mut self.rng) {
                    board.put(p);
                    out.push(p);
                }
            }
            let fitting: Vec<usize> = (0..left.len())
                .filter(|&i| board.fits_anywhere(left[i]))
                .collect();
            if fitting.is_empty() {
                return out;
            }
            let i = fitting[self.rng.random_range(0..fitting.len())];
            let tile = left.swap_remove(i);
            if let Some(p) = random_placement(&board, tile, &mut self.rng) {
                board.put(p);
                out.push(p);
            }
        }
    }
}

/// Places, one at a time, the die placement that raises the advanced score most; ties go to
/// the placement leaving the fewest errors, then the first found. A special is added when it
/// raises the score by at least `special_gain` points.
#[derive(Debug, Clone)]
pub struct GreedyAgent {
    /// Points a special must add at once to be placed.
    pub special_gain: i32,
}

impl Default for GreedyAgent {
    fn default() -> Self {
        GreedyAgent { special_gain: 4 }
    }
}

impl GreedyAgent {
    /// The best placement among `tiles` on `board`, by (advanced score, fewest errors).
    fn best(
        board: &Board,
        tiles: impl Iterator<Item = (usize, Tile)>,
    ) -> Option<(usize, Placement, (i32, i32))> {
        let mut best: Option<(usize, Placement, (i32, i32))> = None;
        for (slot, tile) in tiles {
            for p in board.legal_placements(tile) {
                let mut after = *board;
                after.put(p);
                let s = after.score();
                let key = (s.advanced, -s.errors);
                if best.is_none_or(|(_, _, k)| key > k) {
                    best = Some((slot, p, key));
                }
            }
        }
        best
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn play_round(&mut self, view: &RoundView<'_>) -> Vec<Placement> {
        let mut board = *view.board;
        let mut out = Vec::with_capacity(DICE + 3);
        let mut left = view.dice_left();
        let mut special_allowed = view.special_allowed();
        let mut extra: Vec<Tile> = view.expansion_dice_left().iter().map(|d| d.1).collect();
        loop {
            if let Some((i, p, _)) = GreedyAgent::best(&board, left.iter().copied().enumerate()) {
                board.put(p);
                out.push(p);
                left.swap_remove(i);
                continue;
            }
            // No die fits: an expansion die, when it raises the score (and then perhaps a
            // route die fits again, at a bridge or a pier).
            if !extra.is_empty() {
                let before = board.score().advanced;
                if let Some((i, p, (after, _))) =
                    GreedyAgent::best(&board, extra.iter().copied().enumerate())
                    && after > before
                {
                    board.put(p);
                    out.push(p);
                    extra.swap_remove(i);
                    continue;
                }
                extra.clear();
            }
            // No die fits: a special, if it pays, and then perhaps more dice fit.
            if !special_allowed {
                break;
            }
            special_allowed = false;
            let free = Tile::SPECIALS
                .into_iter()
                .filter(|&t| !board.has_special(t))
                .enumerate();
            let before = board.score().advanced;
            match GreedyAgent::best(&board, free) {
                Some((_, p, (after, _))) if after - before >= self.special_gain => {
                    board.put(p);
                    out.push(p);
                }
                _ => break,
            }
        }
        out
    }
}

/// A suggestion for the rest of a seat's current round: the placements the strong computer
/// player would make at its interactive budget for the game's expansion
/// ([`strong::StrongAgent::interactive_budget`]), the same round a computer seat plays; at
/// most 0.72 s of CPU a round over the 700 rounds of 100 games of the base game
/// (`examples/hint_time.rs`). Empty when the game is over or the seat has ended its round.
pub fn hint(game: &Game, seat: usize) -> Result<Vec<Placement>, GameError> {
    let budget = strong::StrongAgent::interactive_budget(game.expansion());
    hint_with_budget(game, seat, Some(budget))
}

/// [`hint`] with the strong player's search effort set (see
/// [`strong::StrongAgent::with_budget`]).
pub fn hint_with_budget(
    game: &Game,
    seat: usize,
    budget: Option<u32>,
) -> Result<Vec<Placement>, GameError> {
    if game.player(seat)?.round_done() {
        return Ok(Vec::new());
    }
    let Some(view) = RoundView::of(game, seat) else {
        return Ok(Vec::new());
    };
    let mut agent = strong::StrongAgent::with_budget(budget);
    Ok(agent.play_round(&view))
}

/// The names of the agents [`agent_by_name`] knows.
pub const AGENTS: [&str; 3] = ["random", "greedy", "strong"];

/// An agent by its command-line name at its default strength; `seed` drives any randomness
/// it uses.
pub fn agent_by_name(name: &str, seed: u64) -> Option<Box<dyn Agent + Send>> {
    agent_with_budget(name, seed, None)
}

/// An agent by name with a work budget (`None` for the default). The budget is deterministic
/// work, never time, so a game is reproducible from its dice and seed: for `strong` it is
/// the search effort per round; `random` and `greedy` ignore it.
pub fn agent_with_budget(
    name: &str,
    seed: u64,
    budget: Option<u32>,
) -> Option<Box<dyn Agent + Send>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(seed))),
        "greedy" => Some(Box::new(GreedyAgent::default())),
        "strong" => Some(Box::new(strong::StrongAgent::with_budget(budget))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_plays_legal_games() {
        for seed in 0..12 {
            let rolls = Dice::Seed(seed).rolls();
            for name in AGENTS {
                if name == "strong" && seed >= 2 {
                    continue;
                }
                let mut agent = agent_with_budget(name, seed, Some(4)).unwrap();
                let game = play_game(agent.as_mut(), rolls)
                    .unwrap_or_else(|e| panic!("{name} seed {seed}: {e}"));
                assert!(game.is_finished());
            }
        }
    }

    #[test]
    fn hints_are_playable_mid_round() {
        let mut game = Game::new(Setup {
            players: 1,
            dice: Dice::Seed(11),
        });
        while !game.is_finished() {
            let hint = hint_with_budget(&game, 0, Some(4)).unwrap();
            // Take the first suggestion only, then ask again: the rest stays playable.
            match hint.first() {
                Some(&placement) => game.act(0, Action::Place { placement }).unwrap(),
                None => game.act(0, Action::EndRound).unwrap(),
            }
        }
        assert!(hint(&game, 0).unwrap().is_empty());
    }

    #[test]
    fn greedy_beats_random_on_average() {
        let (mut greedy, mut random) = (0, 0);
        for seed in 0..30 {
            let rolls = Dice::Seed(seed).rolls();
            greedy += play_game(&mut GreedyAgent::default(), rolls)
                .unwrap()
                .scores()[0]
                .advanced;
            random += play_game(&mut RandomAgent::new(seed), rolls)
                .unwrap()
                .scores()[0]
                .advanced;
        }
        assert!(
            greedy > random + 30 * 10,
            "greedy {greedy} vs random {random} over 30 games"
        );
    }
}
