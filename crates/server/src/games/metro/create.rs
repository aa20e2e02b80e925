//! Making a game of Metro: its seats as `POST /api/metro/games` asks, stored and started, and
//! the computer's own game on a challenge's deck.

use super::*;

/// The computer player chosen when none is named: the last (strongest) of the engine's list.
pub fn default_level() -> &'static str {
    ai::AGENTS.last().copied().unwrap_or("greedy")
}

/// Creates a game with all its seats; computer seats start playing if it is their turn. The
/// first person's seat on this device is the player's, when a player is known.
pub async fn create(
    app: &AppState,
    req: CreateRequest,
    mut player: Option<String>,
) -> Result<Seated, ApiError> {
    let n = req.players.len();
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
        return Err(ApiError::BadRequest(format!(
            "a game of Metro has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}"
        )));
    }
    if req.players.iter().all(|p| p.kind == Kind::Computer) {
        return Err(ApiError::BadRequest(
            "a game needs at least one person's seat (on this device or invited): computers alone play with the command line, `tracklayer metro play`".into(),
        ));
    }
    let players = u8::try_from(n)
        .ok()
        .and_then(PlayerCount::new)
        .ok_or_else(|| ApiError::BadRequest(format!("{n} players")))?;
    let mut plan = Vec::with_capacity(n);
    let mut seats = Vec::with_capacity(n);
    let mut tokens = Vec::new();
    for (i, p) in req.players.into_iter().enumerate() {
        let level = match (p.kind, p.level) {
            (Kind::Computer, level) => {
                let unknown = format!("players[{i}]: unknown level");
                let agents = &ai::AGENTS;
                Some(computer_agent(level, default_level(), agents, &unknown)?)
            }
            (Kind::Human, Some(_)) => {
                return Err(ApiError::BadRequest(format!(
                    "players[{i}]: a level is chosen only for a computer seat"
                )));
            }
            (Kind::Human, None) => None,
        };
        if p.invite && p.kind == Kind::Computer {
            return Err(ApiError::BadRequest(format!(
                "players[{i}]: only a person is invited"
            )));
        }
        let name = match p.kind {
            Kind::Human => names::person_name(p.name.as_deref(), || format!("Player {}", i + 1)),
            Kind::Computer => names::seat_name(p.name.as_deref(), || format!("Computer {}", i + 1)),
        }
        .map_err(|e| ApiError::BadRequest(format!("players[{i}]: {e}")))?;
        let token_hash = if p.kind == Kind::Human && !p.invite {
            let token = ids::new_token()?;
            let hash = ids::hash_token(&token);
            tokens.push(SeatToken { seat: i, token });
            Some(hash)
        } else {
            None
        };
        let seat_player = if token_hash.is_some() {
            player.take()
        } else {
            None
        };
        plan.push(PlannedSeat {
            kind: p.kind,
            name: name.clone(),
            level: level.clone(),
            invite: p.invite,
        });
        seats.push(Seat {
            name,
            kind: p.kind,
            agent: level,
            invited: p.invite,
            token_hash,
            player: seat_player,
        });
    }
    let seed = match req.seed {
        Some(Seed(seed)) => seed,
        None => ids::new_seed()?,
    };
    let config = Config::new(players);
    let stored = to_json(&Setup {
        config,
        seed,
        seats: plan,
        chosen: req.seed.is_some(),
        practice: None,
    })?;
    let state = MetroState {
        game: Game::new(config, seed),
        seats,
        challenge: None,
        seed_chosen: req.seed.is_some(),
        practice: None,
    };
    let id = MetroSession::start(app, MODE, stored, state, None).await?;
    tracing::info!(game = %id, players = n, "metro game created");
    Seated::new(id, tokens)
}

/// The computer's own game in a Metro challenge: four `strong` players on the challenge's
/// deck, each seeded as a computer seat of a server game is, finished at `at`.
pub(super) fn computer_challenge_game(seed: u64, at: i64) -> Result<ComputerGame, ApiError> {
    let players = PlayerCount::new(4).ok_or_else(|| ApiError::Internal("4 players".into()))?;
    let config = Config::new(players);
    let strong = default_level();
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
    let seats: Vec<Seat> = (0..4)
        .map(|i| {
            let name = if i == 0 {
                format!("Computer ({strong})")
            } else {
                format!("Computer {i} ({strong})")
            };
            Seat::computer(name, strong.to_owned())
        })
        .collect();
    let setup = to_json(&Setup {
        config,
        seed,
        seats: seats
            .iter()
            .map(|s| PlannedSeat {
                kind: s.kind,
                name: s.name.clone(),
                level: s.agent.clone(),
                invite: false,
            })
            .collect(),
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
    let finished = replay::metro_finished(&game, &Seat::names(&seats), at)
        .ok_or_else(|| ApiError::Internal("the computer's game did not end".into()))?;
    Ok(ComputerGame {
        setup,
        seats: seat_rows,
        actions: rows,
        finished,
    })
}
