//! Property tests: no parser panics, parse/print round trips, every generated move is legal,
//! replays reproduce games, and scores add up.

use metro::text;
use metro::{
    Action, Board, Code, Config, Game, Hands, Placement, PlayerCount, RawPlacement, Record, Score,
    Sequence, Square, Station, Tile, generate_move, line_points, play_random, random_move,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A finished random game: draws from `seed`, choices from `policy`.
fn random_game(players: u8, seed: u64, policy: u64) -> Game {
    let mut game = Game::new(Config::new(PlayerCount::new(players).unwrap()), seed);
    play_random(&mut game, &mut ChaCha8Rng::seed_from_u64(policy));
    game
}

/// The board after the first `k` placements of a random game.
fn partial_board(seed: u64, k: usize) -> (Sequence, Board) {
    let game = random_game(2, seed, seed ^ 0x5eed);
    let placements = game.sequence().into_placements();
    let sequence = Sequence::from_placements(placements[..k.min(60)].to_vec()).unwrap();
    let board = Board::from_sequence(&sequence).unwrap();
    (sequence, board)
}

/// §6.1 as written, square by square, with short(T,r,c) from its table of letters.
fn naive_legal(board: &Board, tile: Tile, sq: Square) -> bool {
    let occupied = |s: Square| board.tile(s).is_some();
    let touching = |s: Square| {
        let (r, c) = (s.row() as i8, s.col() as i8);
        s.is_border()
            || [(-1, 0), (1, 0), (0, -1), (0, 1)].iter().any(|(dr, dc)| {
                let (nr, nc) = (r + dr, c + dc);
                (0..8).contains(&nr)
                    && (0..8).contains(&nc)
                    && occupied(Square::new(nr as u8, nc as u8).unwrap())
            })
    };
    let short = |s: Square| {
        let l: Vec<char> = tile.to_string().chars().collect();
        let any = |i: usize, set: &str| set.contains(l[i]);
        match (s.row(), s.col()) {
            (0, 0) => any(0, "cd") || any(3, "bd"),
            (0, 7) => any(0, "bd") || any(1, "cd"),
            (7, 7) => any(1, "bd") || any(2, "cd"),
            (7, 0) => any(2, "bd") || any(3, "cd"),
            (0, _) => l[0] == 'd',
            (_, 7) => l[1] == 'd',
            (7, _) => l[2] == 'd',
            (_, 0) => l[3] == 'd',
            _ => false,
        }
    };
    let candidate = |s: Square| !occupied(s) && !s.is_centre() && touching(s);
    if occupied(sq) || sq.is_centre() || !touching(sq) {
        return false;
    }
    !(short(sq) && Square::all().any(|q| candidate(q) && !short(q)))
}

/// A well-formed (not necessarily valid) sequence: deck tiles in random order on random squares.
fn well_formed_sequence() -> impl Strategy<Value = Sequence> {
    let deck: Vec<Tile> = Tile::ALL
        .iter()
        .flat_map(|&t| std::iter::repeat_n(t, t.copies() as usize))
        .collect();
    (
        Just(deck).prop_shuffle(),
        0..=60usize,
        prop::collection::vec(0..64u8, 60),
    )
        .prop_map(|(deck, k, squares)| {
            let placements = deck
                .iter()
                .zip(squares)
                .take(k)
                .map(|(&t, s)| Placement::new(t, Square::from_index(s).unwrap()))
                .collect();
            Sequence::from_placements(placements).unwrap()
        })
}

/// Runs every parser and text function on `s`; none may panic.
fn parse_everything(s: &str) {
    let _ = s.parse::<Code>();
    let _ = s.parse::<Tile>();
    let _ = s.parse::<Square>();
    let _ = s.parse::<Station>();
    let _ = s.parse::<PlayerCount>();
    let _ = s.parse::<RawPlacement>();
    let _ = s.parse::<Placement>();
    let _ = s.parse::<Sequence>();
    let _ = s.parse::<Hands>();
    let _ = s.parse::<Action>();
    let _ = text::is_well_formed_placement(s);
    let _ = text::is_well_formed(s);
    let _ = text::is_valid(s);
    let _ = text::first_illegal_index(s);
    if let Err(e) = text::check(s) {
        let _ = (
            e.index(),
            e.placement(),
            e.message(),
            e.rule(),
            e.to_string(),
        );
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let _ = text::draw(s, "", &mut rng);
    let _ = text::draw("", s, &mut rng);
    let _ = text::score(s, 4);
    let _ = text::generate_move(s, "aaaa", 2);
    let _ = text::generate_move("", s, 2);
}

proptest! {
    #[test]
    fn no_parser_panics_on_any_string(s in any::<String>()) {
        parse_everything(&s);
    }

    #[test]
    fn no_parser_panics_on_near_miss_strings(s in "[a-eA0-9é ]{0,70}") {
        parse_everything(&s);
    }

    #[test]
    fn no_parser_panics_on_damaged_sequences(seq in well_formed_sequence(), at in 0..400usize, c in any::<char>()) {
        let mut chars: Vec<char> = seq.to_string().chars().collect();
        let at = at.min(chars.len());
        if at < chars.len() && at % 2 == 0 { chars[at] = c } else { chars.insert(at, c) }
        parse_everything(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn sequences_round_trip(seq in well_formed_sequence()) {
        let printed = seq.to_string();
        prop_assert_eq!(printed.len(), 6 * seq.len());
        prop_assert_eq!(printed.parse::<Sequence>().unwrap(), seq.clone());
        prop_assert!(text::is_well_formed(&printed));
        let json = serde_json::to_string(&seq).unwrap();
        prop_assert_eq!(serde_json::from_str::<Sequence>(&json).unwrap(), seq);
    }

    #[test]
    fn hands_round_trip(tiles in prop::collection::vec(0..24usize, 0..=6)) {
        let hands = Hands::new(tiles.into_iter().map(|i| Tile::ALL[i]).collect()).unwrap();
        prop_assert_eq!(hands.to_string().parse::<Hands>().unwrap(), hands);
    }

    #[test]
    fn legal_squares_are_the_rules_square_by_square(seed in any::<u64>(), k in 0..60usize) {
        let (_, board) = partial_board(seed, k);
        for tile in Tile::ALL {
            let legal = board.legal_squares(tile);
            // §6.1: while fewer than 60 tiles are placed, every tile has a legal square.
            prop_assert!(!legal.is_empty(), "{} has no square after {} placements", tile, k);
            for sq in Square::all() {
                let p = Placement::new(tile, sq);
                let expected = naive_legal(&board, tile, sq);
                prop_assert_eq!(legal.contains(sq), expected, "{} on\n{}", p, board);
                prop_assert_eq!(board.check(p).is_ok(), expected, "{} on\n{}", p, board);
                prop_assert_eq!(board.is_legal(p), expected);
            }
        }
    }

    #[test]
    fn every_generated_move_is_legal(seed in any::<u64>(), k in 0..60usize, t in 0..24usize, players in 2..=6u8) {
        let (sequence, board) = partial_board(seed, k);
        let tile = Tile::ALL[t];
        if board.tiles().filter(|&(_, placed)| placed == tile).count() == tile.copies() as usize {
            // Every copy is placed: no move, said so.
            prop_assert!(
                matches!(generate_move(&board, tile), Err(metro::MoveError::NoCopyLeft { .. })),
                "{} after {}", tile, sequence
            );
            return Ok(());
        }
        let reference = generate_move(&board, tile).unwrap();
        prop_assert!(board.check(reference).is_ok());
        prop_assert_eq!(Some(reference.square), board.legal_squares(tile).first());
        let random = random_move(&board, tile, &mut ChaCha8Rng::seed_from_u64(seed)).unwrap();
        prop_assert!(board.check(random).is_ok());
        let text_move = text::generate_move(&sequence.to_string(), &tile.to_string(), players).unwrap();
        prop_assert_eq!(&text_move, &reference.to_string());
        let mut next = board;
        prop_assert!(next.place(text_move.parse().unwrap()).is_ok());
    }

    #[test]
    fn replaying_a_game_gives_the_same_scores(players in 2..=6u8, seed in any::<u64>(), policy in any::<u64>(), cut in 0..200usize) {
        let game = random_game(players, seed, policy);
        let replayed = Game::replay(game.config(), game.seed(), game.actions()).unwrap();
        prop_assert_eq!(replayed.scores(), game.scores());
        prop_assert_eq!(replayed.board(), game.board());
        prop_assert_eq!(replayed.events(), game.events());
        // Through storage, too.
        let json = serde_json::to_string(&game.record()).unwrap();
        let record: Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(Game::from_record(&record).unwrap().scores(), game.scores());
        // And any prefix replays to the same state as the game had then.
        let cut = cut.min(game.actions().len());
        let prefix = Game::replay(game.config(), game.seed(), &game.actions()[..cut]).unwrap();
        let mut undone = game.clone();
        while undone.actions().len() > cut {
            undone.undo();
        }
        prop_assert_eq!(prefix.board(), undone.board());
        prop_assert_eq!(prefix.events(), undone.events());
        prop_assert_eq!(prefix.scores(), undone.scores());
    }

    #[test]
    fn scores_add_up_to_the_owned_stations_lines(players in 2..=6u8, seed in any::<u64>(), policy in any::<u64>()) {
        let game = random_game(players, seed, policy);
        let n = game.players();
        let owned: u32 = Station::all().filter(|&s| n.owner(s).is_some()).map(|s| line_points(game.board(), s)).sum();
        prop_assert_eq!(game.scores().iter().sum::<u32>(), owned);
        let score = Score::new(game.board(), n);
        prop_assert_eq!(&score.totals, &game.scores());
        for p in n.players() {
            let lines: u32 = score.lines_of(p).map(|l| l.points).sum();
            prop_assert_eq!(score.total(p), lines);
        }
        // On a full board every line is finished.
        prop_assert!(score.lines.iter().all(|l| l.line.is_finished()));
        for l in &score.lines {
            prop_assert_eq!(l.line.length as usize, l.line.squares.len());
        }
    }

    #[test]
    fn random_games_fill_the_board_legally(players in 2..=6u8, seed in any::<u64>(), policy in any::<u64>()) {
        let game = random_game(players, seed, policy);
        prop_assert!(game.is_over());
        prop_assert!(game.board().is_full());
        prop_assert_eq!(game.tiles_left(), 0);
        prop_assert_eq!(game.hands().count(), 0);
        let printed = game.sequence().to_string();
        prop_assert_eq!(printed.len(), 360);
        prop_assert!(text::is_valid(&printed));
        for n in 2..=6 {
            prop_assert!(text::score(&printed, n).is_ok());
        }
        prop_assert_eq!(text::score(&printed, players).unwrap(), game.scores());
        for t in Tile::ALL {
            prop_assert_eq!(game.board().tiles().filter(|&(_, x)| x == t).count(), t.copies() as usize);
        }
    }

    #[test]
    fn legal_actions_are_accepted(players in 2..=6u8, seed in any::<u64>(), steps in 0..150usize, pick in any::<prop::sample::Index>()) {
        let mut game = Game::new(Config::new(PlayerCount::new(players).unwrap()), seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed.rotate_left(7));
        for _ in 0..steps {
            let Some(a) = metro::random_action(&game, &mut rng) else { break };
            game.apply(a).unwrap();
        }
        let legal = game.legal_actions();
        if game.is_over() {
            prop_assert!(legal.is_empty());
        } else {
            prop_assert!(!legal.is_empty());
            let action = legal[pick.index(legal.len())];
            prop_assert!(game.clone().apply(action).is_ok(), "{}", action);
            for sq in Square::all() {
                if !game.legal_squares().contains(sq) {
                    prop_assert!(game.clone().apply(Action::Place(sq)).is_err());
                }
            }
        }
    }
}

#[test]
fn every_placement_string_round_trips() {
    for i in 0..=255u8 {
        let letters: String = (0..4)
            .map(|k| (b'a' + ((i >> (2 * k)) & 3)) as char)
            .collect();
        for sq in Square::all() {
            let s = format!("{letters}{sq}");
            let raw: RawPlacement = s.parse().unwrap();
            assert_eq!(raw.to_string(), s);
            match s.parse::<Placement>() {
                Ok(p) => {
                    assert_eq!(p.to_string(), s);
                    assert_eq!(RawPlacement::from(p), raw);
                }
                Err(_) => assert!(raw.code.tile().is_none()),
            }
        }
    }
}
