//! Property tests: orientation group laws, round trips, generated moves, replays, scoring.

mod common;

use proptest::prelude::*;
use railroad_ink::{
    Board, Game, Orientation, Placement, Roll, Sequence, Square, Tile, check_move, generate_move,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn orientation() -> impl Strategy<Value = Orientation> {
    (0u8..8).prop_map(|d| Orientation::new(d).unwrap())
}

fn tile() -> impl Strategy<Value = Tile> {
    (0usize..15).prop_map(|i| Tile::ALL[i])
}

fn square() -> impl Strategy<Value = Square> {
    (0u8..7, 0u8..7).prop_map(|(r, c)| Square::new(r, c).unwrap())
}

fn placement() -> impl Strategy<Value = Placement> {
    (tile(), square(), orientation()).prop_map(|(t, s, o)| Placement::new(t, s, o))
}

fn roll() -> impl Strategy<Value = Roll> {
    (0u8..6, 0u8..6, 0u8..6, 0u8..3).prop_map(|(a, b, c, d)| Roll::new([a, b, c], d).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    // Orientation group laws (the dihedral group of the square).

    #[test]
    fn composition_is_associative(a in orientation(), b in orientation(), c in orientation()) {
        prop_assert_eq!(a.then(b).then(c), a.then(b.then(c)));
    }

    #[test]
    fn identity_and_inverse(a in orientation()) {
        prop_assert_eq!(a.then(Orientation::IDENTITY), a);
        prop_assert_eq!(Orientation::IDENTITY.then(a), a);
        prop_assert_eq!(a.then(a.inverse()), Orientation::IDENTITY);
        prop_assert_eq!(a.inverse().then(a), Orientation::IDENTITY);
    }

    #[test]
    fn composition_agrees_with_edges(t in tile(), a in orientation(), b in orientation()) {
        prop_assert_eq!(t.edges(a.then(b)), b.apply(t.edges(a)));
    }

    #[test]
    fn rotation_has_order_four_and_mirror_order_two(t in tile(), a in orientation()) {
        let e = t.edges(a);
        let r = Orientation::ROTATE;
        prop_assert_eq!(r.apply(r.apply(r.apply(r.apply(e)))), e);
        prop_assert_eq!(Orientation::MIRROR.apply(Orientation::MIRROR.apply(e)), e);
        // Orientation k is orientation 0 mirrored (k ≥ 4) and then rotated k mod 4 times.
        let mut expected = t.base_edges();
        if a.is_mirrored() { expected = Orientation::MIRROR.apply(expected); }
        for _ in 0..a.quarter_turns() { expected = r.apply(expected); }
        prop_assert_eq!(e, expected);
    }

    #[test]
    fn canonical_is_the_lowest_with_the_same_edges(t in tile(), a in orientation()) {
        let c = t.canonical(a);
        prop_assert_eq!(t.edges(c), t.edges(a));
        prop_assert!(Orientation::ALL.iter().filter(|o| **o < c).all(|o| t.edges(*o) != t.edges(a)));
        prop_assert!(t.canonical_orientations().contains(&c));
    }

    // Round trips.

    #[test]
    fn placement_round_trip(p in placement()) {
        prop_assert_eq!(p.to_string().parse::<Placement>(), Ok(p));
    }

    #[test]
    fn roll_round_trip(r in roll()) {
        prop_assert_eq!(r.to_string().parse::<Roll>(), Ok(r));
    }

    #[test]
    fn board_round_trip(seed in any::<u64>()) {
        let board = common::random_board(seed);
        let text = board.to_string();
        let parsed: Board = text.parse().unwrap();
        prop_assert_eq!(parsed, board);
        let seq: Sequence = text.parse().unwrap();
        prop_assert_eq!(seq.to_string(), text);
    }

    #[test]
    fn sequence_round_trip(ps in prop::collection::vec(placement(), 1..=31)) {
        if let Ok(seq) = Sequence::new(ps.clone()) {
            prop_assert_eq!(seq.to_string().parse::<Sequence>(), Ok(seq));
        } else {
            prop_assert!(ps.iter().filter(|p| p.tile.is_special()).count() > 3);
        }
    }

    // No input panics any parser.

    #[test]
    fn parsers_never_panic(s in "\\PC{0,40}") {
        let _ = s.parse::<Placement>();
        let _ = s.parse::<Sequence>();
        let _ = s.parse::<Board>();
        let _ = s.parse::<Roll>();
        let _ = s.parse::<Square>();
        let _ = railroad_ink::generate_move_text(&s, &s);
        let _ = railroad_ink::is_valid(&s);
    }

    #[test]
    fn parsers_never_panic_on_near_misses(s in "([ABSa-c][0-9][A-Ha][0-9][0-9é]){0,33}[AB0-9]{0,4}") {
        let _ = s.parse::<Placement>();
        if let Ok(seq) = s.parse::<Sequence>() {
            prop_assert_eq!(seq.to_string(), s.clone());
        }
        match s.parse::<Board>() {
            Ok(b) => prop_assert_eq!(b.to_string(), s),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    // Legality: the bitmask path agrees with the rule-naming path everywhere.

    #[test]
    fn fast_and_named_legality_agree(seed in any::<u64>(), n in 0usize..31, p in placement()) {
        let board = common::random_prefix(seed, n);
        prop_assert_eq!(board.is_legal(p), board.check(p).is_ok());
        // The one-square path and the whole-board mask say the same.
        let mask = board.legal_squares(p.tile, p.orientation);
        prop_assert_eq!(board.is_legal(p), mask & p.square.bit() != 0);
    }

    #[test]
    fn legal_placements_are_exactly_the_legal_canonical_ones(seed in any::<u64>(), n in 0usize..31, t in tile()) {
        let board = common::random_prefix(seed, n);
        let mut brute = Vec::new();
        for sq in Square::all() {
            for &o in t.canonical_orientations() {
                let p = Placement::new(t, sq, o);
                if board.check(p).is_ok() { brute.push(p); }
            }
        }
        prop_assert_eq!(board.legal_placements(t), brute);
    }

    // Move generation: every generated move meets the whole contract of §8.

    #[test]
    fn generated_moves_are_legal_and_maximal(seed in any::<u64>(), n in 0usize..31, r in roll()) {
        let board = common::random_prefix(seed, n);
        let m = generate_move(&board, &r);
        prop_assert_eq!(check_move(&board, &r, &m), Ok(()));
    }

    // Games: a replay gives the same boards and scores.

    #[test]
    fn replay_gives_the_same_score(seed in any::<u64>()) {
        let game = common::random_game(seed);
        let replayed = Game::replay(game.setup(), game.actions()).unwrap();
        prop_assert_eq!(replayed.scores(), game.scores());
        prop_assert_eq!(&replayed, &game);
        let board = game.player(0).unwrap().board();
        let from_text: Board = board.to_string().parse().unwrap();
        prop_assert_eq!(from_text.score(), board.score());
    }

    // The traced longest routes are simple paths of joined tiles, as long as the score says.

    #[test]
    fn traced_longest_routes_are_real(seed in any::<u64>(), n in 0usize..32) {
        let board = common::random_prefix(seed, n);
        let b = board.breakdown();
        for (path, len, route) in [
            (&b.longest_highway, b.score.longest_highway, railroad_ink::Route::Highway),
            (&b.longest_railway, b.score.longest_railway, railroad_ink::Route::Railway),
        ] {
            prop_assert_eq!(path.len() as i32, len);
            let mut seen = std::collections::HashSet::new();
            prop_assert!(path.iter().all(|s| seen.insert(*s)));
            for w in path.windows(2) {
                let side = w[0].side_towards(w[1]);
                prop_assert!(side.is_some());
                let side = side.unwrap();
                prop_assert_eq!(board.edge(w[0], side).route(), Some(route));
                prop_assert_eq!(board.edge(w[1], side.opposite()).route(), Some(route));
            }
        }
        prop_assert_eq!(b.errors.len() as i32, b.score.errors);
        let points: i32 = b.networks.iter().map(|n| n.points).sum();
        prop_assert_eq!(points, b.score.exits);
        prop_assert_eq!(b.centre.len() as i32, b.score.centre);
    }

    // Scoring does not depend on the order of the placements, whenever both orders are valid.

    #[test]
    fn score_is_independent_of_a_valid_order(seed in any::<u64>(), shuffle in any::<u64>()) {
        let board = common::random_board(seed);
        let mut rest: Vec<Placement> = board.placements().collect();
        let mut rng = ChaCha8Rng::seed_from_u64(shuffle);
        let mut reordered = Board::new();
        let mut order = Vec::new();
        while !rest.is_empty() {
            let legal: Vec<usize> = (0..rest.len()).filter(|&i| reordered.is_legal(rest[i])).collect();
            prop_assert!(!legal.is_empty(), "the first remaining placement of the original order fits");
            let i = legal[rng.random_range(0..legal.len())];
            let p = rest.remove(i);
            reordered.place(p).unwrap();
            order.push(p);
        }
        prop_assert_eq!(reordered.score(), board.score());
        prop_assert_eq!(reordered.breakdown().score, board.breakdown().score);
    }
}
