//! Making a game of Metro: its seats as `POST /api/metro/games` asks, stored and started, and
//! the computer's own game on a challenge's deck.

use super::*;

/// The lobby of Metro.
pub const LOBBY: Lobby = Lobby {
    game: "Metro",
    seats: (MIN_PLAYERS, MAX_PLAYERS),
    levels: &ai::AGENTS,
    computers_alone: "computers alone play with the command line, `tracklayer metro play`",
};

/// Creates a game with all its seats; computer seats start playing if it is their turn. The
/// first person's seat on this device is the player's, when a player is known.
pub async fn create(
    app: &AppState,
    req: CreateRequest,
    player: Option<String>,
) -> Result<Seated, ApiError> {
    let n = req.players.len();
    let seating = LOBBY.seating(req.players, player)?;
    let players = u8::try_from(n)
        .ok()
        .and_then(PlayerCount::new)
        .ok_or_else(|| ApiError::BadRequest(format!("{n} players")))?;
    let config = Config::new(players);
    // The plan is of the seats before any is taken: a person's on this device too.
    let plan = plan(seating.seats());
    let made = seating.made(req.seed)?;
    let stored = to_json(&Setup {
        config,
        seed: made.seed,
        seats: plan,
        chosen: made.table.seed_chosen,
        practice: None,
    })?;
    let state = MetroState {
        game: Game::new(config, made.seed),
        table: made.table,
    };
    let id = MetroSession::start(app, MODE, stored, state, None).await?;
    tracing::info!(game = %id, players = n, "metro game created");
    Seated::new(id, made.tokens)
}

/// The computer's own game in a Metro challenge: four `strong` players on the challenge's
/// deck, each seeded as a computer seat of a server game is, finished at `at`.
pub(super) fn computer_challenge_game(seed: u64, at: i64) -> Result<ComputerGame, ApiError> {
    let players = PlayerCount::new(4).ok_or_else(|| ApiError::Internal("4 players".into()))?;
    let config = Config::new(players);
    let strong = default_level(&ai::AGENTS);
    let mut game = Game::new(config, seed);
    let mut agents = players
        .players()
        .map(|p| {
            ai::agent_by_name(strong, agent_seed(seed, p), None)
                .ok_or_else(|| ApiError::Internal(format!("no computer player {strong}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    ai::play_game(&mut game, &mut agents)
        .map_err(|e| ApiError::Internal(format!("the computer's challenge game: {e}")))?;
    let mut seating = Seating::default();
    seating.computer(strong);
    for _ in 1..4 {
        seating.numbered_computer(strong);
    }
    let seats = seating.seats();
    let setup = to_json(&Setup {
        config,
        seed,
        seats: plan(seats),
        chosen: false,
        practice: None,
    })?;
    // Replay to learn which seat did each action.
    let mut replay = Game::new(config, seed);
    let mut rows = Vec::with_capacity(game.actions().len());
    for &action in game.actions() {
        let player = replay
            .turn()
            .ok_or_else(|| ApiError::Internal("an action after the end".into()))?;
        replay.play(player, action)?;
        rows.push(ActionRow {
            seat: player.index(),
            action: to_json(&action)?,
        });
    }
    let seat_rows = seats.iter().enumerate().map(|(i, s)| s.row(i)).collect();
    let finished = replay::metro_finished(&game, &Seat::names(seats), at)
        .ok_or_else(|| ApiError::Internal("the computer's game did not end".into()))?;
    Ok(ComputerGame {
        setup,
        seats: seat_rows,
        actions: rows,
        finished,
    })
}
