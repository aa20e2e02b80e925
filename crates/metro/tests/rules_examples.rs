//! Every worked example of the rules document (`rules/metro.md`), one test per table.

use metro::text;
use metro::{
    Board, Deck, Hands, Illegal, Line, LineEnd, PlayerCount, Score, Sequence, Square, Station,
    Tile, generate_move,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn tile(s: &str) -> Tile {
    s.parse().unwrap()
}

fn board(s: &str) -> Board {
    Board::from_sequence(&s.parse::<Sequence>().unwrap()).unwrap()
}

fn squares(set: impl IntoIterator<Item = Square>) -> Vec<String> {
    set.into_iter().map(|s| s.to_string()).collect()
}

// §3.2 ------------------------------------------------------------------------------------------

#[test]
fn s3_2_worked_example_cbaa() {
    assert_eq!(tile("cbaa").tracks(), [(0, 7), (2, 5), (4, 1), (6, 3)]);
}

#[test]
fn s3_2_exactly_24_codes_are_tiles() {
    let codes = (0..256).map(|i| {
        let letters: String = (0..4)
            .map(|k| (b'a' + ((i >> (2 * k)) & 3) as u8) as char)
            .collect();
        letters
    });
    assert_eq!(codes.filter(|c| c.parse::<Tile>().is_ok()).count(), 24);
}

// §9.1 Encodings --------------------------------------------------------------------------------

#[test]
fn s9_1_placements() {
    for s in ["aaaa00", "abcd00"] {
        assert!(text::is_well_formed_placement(s), "{s}");
    }
    for s in ["aaaa08", "aaae00", "AAAA00", "aaaa0", "aaaa000"] {
        assert!(!text::is_well_formed_placement(s), "{s}");
    }
}

#[test]
fn s9_1_sequences() {
    for s in ["", "aaaa00aaaa01aaaa02aaaa03", "aaaa00bbbb00"] {
        assert!(text::is_well_formed(s), "{s:?}");
    }
    let five_aaaa = "aaaa00".repeat(5);
    for s in [
        "abcd00",
        five_aaaa.as_str(),
        "dddd00dddd11dddd22",
        "aaaa00b",
    ] {
        assert!(!text::is_well_formed(s), "{s}");
        assert!(!text::is_valid(s), "{s}");
        assert_eq!(text::first_illegal_index(s), None, "{s}");
    }
}

#[test]
fn s9_1_draw_remaining() {
    let seq: Sequence = "aaaa00dddd05".parse().unwrap();
    let hands: Hands = "aaaadddd".parse().unwrap();
    let deck = Deck::remaining(&seq, &hands).unwrap();
    assert_eq!(deck.count(tile("aaaa")), 2);
    assert_eq!(deck.count(tile("dddd")), 0);
    assert_eq!(deck.len(), 56);
}

#[test]
fn s9_1_draw_probabilities() {
    // aaaa with probability 2/56, dddd never; every type in proportion to what remains.
    let seq: Sequence = "aaaa00dddd05".parse().unwrap();
    let hands: Hands = "aaaadddd".parse().unwrap();
    let deck = Deck::remaining(&seq, &hands).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let draws = 56_000;
    let mut seen = [0u32; 24];
    for _ in 0..draws {
        let t = metro::draw(&seq, &hands, &mut rng).unwrap().unwrap();
        seen[t.index()] += 1;
    }
    assert_eq!(seen[tile("dddd").index()], 0);
    // Pearson's chi-squared over the 23 types that remain (22 degrees of freedom):
    // the 99.99th percentile is about 52.
    let mut chi2 = 0.0;
    for t in Tile::ALL {
        let expected = f64::from(deck.count(t)) * draws as f64 / 56.0;
        if expected > 0.0 {
            chi2 += (f64::from(seen[t.index()]) - expected).powi(2) / expected;
        }
    }
    assert!(chi2 < 52.0, "chi2 = {chi2}, counts {seen:?}");
    let aaaa = f64::from(seen[tile("aaaa").index()]) / draws as f64;
    assert!((aaaa - 2.0 / 56.0).abs() < 0.005, "{aaaa}");
}

#[test]
fn s5_3_empty_deck_is_no_tile() {
    let game = {
        let mut g = metro::Game::new(metro::Config::new(PlayerCount::new(2).unwrap()), 3);
        metro::play_random(&mut g, &mut ChaCha8Rng::seed_from_u64(4));
        g
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(
        metro::draw(&game.sequence(), &Hands::default(), &mut rng),
        Ok(None)
    );
    let s = game.sequence().to_string();
    assert_eq!(text::draw(&s, "", &mut rng), Ok(None));
}

// §9.2 Legality ---------------------------------------------------------------------------------

#[test]
fn s9_2_legality_table() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let st = |n| Station::new(n).unwrap();
    let cases: [(&str, Result<(), Illegal>); 13] = [
        ("", Ok(())),
        ("aaaa11", Err(Illegal::NotTouching)),
        ("aaaa33", Err(Illegal::Centre)),
        ("aaaa00aaaa11", Err(Illegal::NotTouching)),
        ("aaaa00bbbb00", Err(Illegal::Occupied { by: tile("aaaa") })),
        ("aaaa03aaaa13aaaa24", Err(Illegal::NotTouching)),
        ("aaaa03aaaa13aaaa23", Ok(())),
        (
            "cccc00",
            Err(Illegal::AvoidableStationLink {
                from: st(8),
                to: st(9),
                instead: sq("01"),
            }),
        ),
        (
            "dada03",
            Err(Illegal::AvoidableStationLink {
                from: st(5),
                to: st(5),
                instead: sq("10"),
            }),
        ),
        ("dada30", Ok(())),
        ("dddd50", Ok(())),
        ("aaaa00dddd05", Ok(())),
        (
            "aaaa01dddd05",
            Err(Illegal::AvoidableStationLink {
                from: st(3),
                to: st(3),
                instead: sq("11"),
            }),
        ),
    ];
    for (s, expected) in cases {
        let got = text::check(s).map(|_| ()).map_err(|e| match e {
            text::CheckError::Illegal(e) => e.reason,
            e => panic!("{s}: {e}"),
        });
        assert_eq!(got, expected, "{s}");
        assert_eq!(text::is_valid(s), expected.is_ok(), "{s}");
        let last = s.len() / 6;
        assert_eq!(
            text::first_illegal_index(s),
            expected.err().map(|_| last.saturating_sub(1)),
            "{s}"
        );
    }
}

#[test]
fn s9_2_empty_board_dada_and_cccc() {
    let empty = Board::new();
    let dada = empty.legal_squares(tile("dada"));
    let expected: Vec<String> = (1..=6)
        .flat_map(|r| [format!("{r}0"), format!("{r}7")])
        .collect();
    let mut got = squares(dada);
    got.sort();
    let mut expected_sorted = expected;
    expected_sorted.sort();
    assert_eq!(got, expected_sorted);

    let cccc = empty.legal_squares(tile("cccc"));
    assert_eq!(cccc.len(), 24);
    for s in cccc {
        assert!(s.is_border(), "{s}");
        let corner = (s.row() == 0 || s.row() == 7) && (s.col() == 0 || s.col() == 7);
        assert!(!corner, "{s}");
    }
}

// §9.3 Scoring ----------------------------------------------------------------------------------

fn assert_scores(seq: &str, table: [&[u32]; 5]) {
    let b = board(seq);
    for (n, expected) in PlayerCount::all().zip(table) {
        assert_eq!(
            text::score(seq, n.get()).unwrap(),
            expected,
            "{seq}, {n} players"
        );
        assert_eq!(Score::new(&b, n).totals, expected, "{seq}, {n} players");
    }
}

#[test]
fn s9_3_straight_into_the_centre() {
    let seq = "aaaa03aaaa13aaaa23";
    let line = Line::of(&board(seq), Station::new(5).unwrap());
    assert_eq!(squares(line.squares.iter().copied()), ["03", "13", "23"]);
    assert_eq!(
        line.end,
        LineEnd::Centre {
            square: "33".parse().unwrap()
        }
    );
    assert_eq!((line.length, line.points), (3, 6));
    let others: u32 = Station::all()
        .filter(|s| s.number() != 5)
        .map(|s| metro::line_points(&board(seq), s))
        .sum();
    assert_eq!(others, 0, "no other line is finished");
    assert_scores(
        seq,
        [
            &[6, 0],
            &[0, 0, 6],
            &[0, 0, 0, 6],
            &[6, 0, 0, 0, 0],
            &[6, 0, 0, 0, 0, 0],
        ],
    );
}

#[test]
fn s9_3_a_line_through_one_tile_twice() {
    let seq = "badb01baac02dbba10bcbc00";
    let b = board(seq);
    let st = |n| Station::new(n).unwrap();

    let eight = Line::of(&b, st(8));
    assert_eq!(squares(eight.squares.iter().copied()), ["00", "01"]);
    assert_eq!(eight.end, LineEnd::Station { station: st(7) });
    assert_eq!(eight.points, 2);

    let nine = Line::of(&b, st(9));
    assert_eq!(squares(nine.squares.iter().copied()), ["00", "10", "00"]);
    assert_eq!(nine.end, LineEnd::Station { station: st(9) });
    assert_eq!(nine.points, 3);

    for n in [6, 7, 10] {
        let line = Line::of(&b, st(n));
        assert!(!line.is_finished(), "station {n}");
        assert_eq!(line.points, 0);
    }
    assert_scores(
        seq,
        [
            &[3, 2],
            &[0, 3, 2],
            &[0, 2, 0, 3],
            &[0, 0, 0, 3, 2],
            &[0, 0, 2, 0, 3, 0],
        ],
    );
}

#[test]
fn s9_3_unowned_station_16() {
    let seq = "aacb70bbbb60";
    let b = board(seq);
    let st = |n| Station::new(n).unwrap();
    let sixteen = Line::of(&b, st(16));
    assert_eq!(squares(sixteen.squares.iter().copied()), ["70", "60"]);
    assert_eq!(sixteen.end, LineEnd::Station { station: st(15) });
    assert_eq!(sixteen.points, 2);
    for n in [15, 17] {
        assert!(!Line::of(&b, st(n)).is_finished(), "station {n}");
    }
    assert_scores(seq, [&[0, 2], &[0, 0, 0], &[2, 0, 0, 0], &[0; 5], &[0; 6]]);
    for n in [3, 5, 6] {
        let score = Score::new(&b, PlayerCount::new(n).unwrap());
        let unowned: Vec<u8> = score.unowned_lines().map(|l| l.station.number()).collect();
        assert_eq!(unowned, [16, 17]);
    }
}

#[test]
fn s7_empty_sequence_scores_zero() {
    for n in 2..=6 {
        assert_eq!(text::score("", n).unwrap(), vec![0; n as usize]);
    }
}

// §9.4 Move generation --------------------------------------------------------------------------

#[test]
fn s9_4_move_generation() {
    let cases: [(&str, &str, usize, &str); 3] = [
        ("", "dada", 12, "dada10"),
        ("aaaa01", "dddd", 1, "dddd11"),
        ("aaaa00", "dddd", 27, "dddd01"),
    ];
    for (seq, t, legal, reference) in cases {
        let b = board(seq);
        assert_eq!(b.legal_squares(tile(t)).len(), legal, "{seq} {t}");
        assert_eq!(generate_move(&b, tile(t)).unwrap().to_string(), reference);
        for players in 2..=6 {
            assert_eq!(text::generate_move(seq, t, players).unwrap(), reference);
        }
    }
    // aaaa00 then dddd: every free border square.
    let free_border: Vec<Square> = Square::all()
        .filter(|s| s.is_border() && s.index() != 0)
        .collect();
    assert_eq!(
        board("aaaa00")
            .legal_squares(tile("dddd"))
            .iter()
            .collect::<Vec<_>>(),
        free_border
    );
    // dada: (1–6, 0) and (1–6, 7).
    let dada = board("").legal_squares(tile("dada"));
    assert_eq!(squares(dada).first().map(String::as_str), Some("10"));
}

#[test]
fn s8_a_full_board_has_no_move() {
    let mut g = metro::Game::new(metro::Config::new(PlayerCount::new(5).unwrap()), 11);
    metro::play_random(&mut g, &mut ChaCha8Rng::seed_from_u64(12));
    let s = g.sequence().to_string();
    assert_eq!(s.len(), 360);
    assert!(matches!(
        text::generate_move(&s, "aaaa", 5),
        Err(text::Error::Move(metro::MoveError::BoardFull))
    ));
}

#[test]
fn s8_no_move_for_a_tile_whose_copies_are_all_placed() {
    // dddd has 2 copies (§3.3): with both on the board, the deck cannot deal a third.
    let e = text::generate_move("dddd00dddd01", "dddd", 2).unwrap_err();
    assert!(matches!(
        e,
        text::Error::Move(metro::MoveError::NoCopyLeft { copies: 2, .. })
    ));
    assert_eq!(
        e.to_string(),
        "all 2 copies of dddd are already on the board: the deck has none left to place"
    );
    // One copy left: a move.
    assert_eq!(text::generate_move("dddd00", "dddd", 2).unwrap(), "dddd01");
}
