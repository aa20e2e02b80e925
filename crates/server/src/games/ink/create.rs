//! Making a game of Railroad Ink: what `POST /api/ink/games` and a join ask for, the game made
//! and its seats, and the computer's own game on a challenge's dice.

use super::*;

/// `POST /api/ink/games/{id}/join`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    pub name: Option<String>,
}

/// `POST /api/ink/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub mode: Mode,
    pub seed: Option<Seed>,
    pub name: Option<String>,
    /// The computer player, for mode `computer` (default: the last of the engine's list):
    /// `level`, as in every game (`agent`, its older name, is accepted for one release).
    #[serde(alias = "agent")]
    pub level: Option<String>,
    /// A Deep Blue expansion, `lake` or `river` (absent or `none`: the base game).
    #[serde(default)]
    pub expansion: Option<Expansion>,
}

/// Creates a game and seats its creator (and, against the computer, the computer); the
/// creator's seat is the player's, when a player is known.
pub async fn create(
    app: &AppState,
    req: CreateRequest,
    player: Option<String>,
) -> Result<Seated, ApiError> {
    match req.mode {
        Mode::Challenge => {
            return Err(ApiError::BadRequest(
                "a challenge game is started with POST /api/challenges/{id}/play".into(),
            ));
        }
        Mode::Practice => {
            return Err(ApiError::BadRequest(
                "a practice game is started with POST /api/challenges/{id}/practice".into(),
            ));
        }
        _ => {}
    }
    let mut seating = Seating::new(player);
    seating.person(req.name.as_deref())?;
    let agent = match (req.mode, req.level) {
        (Mode::Computer, agent) => Some(computer_agent(
            agent,
            &ai::AGENTS,
            "unknown computer player",
        )?),
        (_, Some(_)) => {
            return Err(ApiError::BadRequest(
                "a computer player is chosen only in mode \"computer\"".into(),
            ));
        }
        (_, None) => None,
    };
    if let Some(agent) = agent {
        seating.computer(&agent);
    }
    let made = seating.made(req.seed)?;
    let setup = Setup {
        players: made.table.seats.len(),
        dice: Dice::Seed(made.seed),
    };
    let expansion = req.expansion.unwrap_or_default();
    let stored = to_json(&StoredSetup {
        setup,
        chosen: made.table.seed_chosen,
        practice: None,
        expansion,
    })?;
    let state = InkState {
        mode: req.mode,
        game: Game::with_expansion(setup, expansion),
        table: made.table,
        started: req.mode != Mode::Online,
        start_logged: false,
        players_json: Kept::default(),
        yous: Kept::default(),
    };
    let id = InkSession::start(app, req.mode.as_str(), stored, state, None).await?;
    tracing::info!(game = %id, mode = req.mode.as_str(), %expansion, "game created");
    Seated::new(id, made.tokens)
}

/// The computer's own game in a Railroad Ink challenge: the `strong` player with `budget` on
/// the challenge's dice, finished at `at`.
pub(super) fn computer_challenge_game(
    seed: u64,
    expansion: Expansion,
    budget: Option<u32>,
    at: i64,
) -> Result<ComputerGame, ApiError> {
    let name = default_level(&ai::AGENTS);
    let mut agent = ai::agent_with_budget(name, seed, budget)
        .ok_or_else(|| ApiError::Internal(format!("no computer player {name}")))?;
    let dice = Dice::Seed(seed);
    let played = ai::play_game_with(agent.as_mut(), expansion, dice.rolls_in(expansion))?;
    let setup = Setup { players: 1, dice };
    let game = Game::replay_with_expansion(setup, expansion, played.actions())
        .map_err(|(i, e)| ApiError::Internal(format!("the computer's action {i}: {e}")))?;
    let seat = Seat::computer(name);
    let actions = game
        .actions()
        .iter()
        .map(|&(seat, a)| action_row(seat, a))
        .collect::<Result<Vec<_>, _>>()?;
    let stored = to_json(&StoredSetup {
        setup,
        chosen: false,
        practice: None,
        expansion,
    })?;
    let finished = replay::ink_finished(&game, &[seat.name.as_str()], at)
        .ok_or_else(|| ApiError::Internal("the computer's game did not end".into()))?;
    Ok(ComputerGame {
        setup: stored,
        seats: vec![seat.row(0)],
        actions,
        finished,
    })
}
