//! Every worked example of the Railroad Ink rules' §9, one test per table.

use railroad_ink::game::ROUNDS;
use railroad_ink::score::Breakdown;
use railroad_ink::{
    Board, BoardError, Illegal, MoveError, Placement, Roll, Route, Sequence, Side, Square,
    check_move, connected_neighbours, generate_move, is_valid, is_well_formed,
};

fn p(s: &str) -> Placement {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn board(s: &str) -> Board {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn placements(s: &str) -> Vec<Placement> {
    s.as_bytes()
        .chunks(5)
        .map(|c| p(std::str::from_utf8(c).unwrap()))
        .collect()
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

// §9.1 Encodings

#[test]
fn encodings_placements() {
    for ok in ["B2C45", "S5G67"] {
        assert!(ok.parse::<Placement>().is_ok(), "{ok}");
    }
    for bad in [
        "B3C45", "A6A00", "A3H00", "A3A70", "A3A08", "a3A00", "A3A0", "C1A10",
    ] {
        assert!(bad.parse::<Placement>().is_err(), "{bad}");
    }
}

#[test]
fn encodings_boards() {
    for ok in ["A4A10", "A4A10A4A10", "S0A10S0A20"] {
        assert!(is_well_formed(ok), "{ok}");
    }
    assert!(!is_well_formed(""));
    assert!(!is_well_formed("S0A10S1A20S2A30S3A40"));
    assert!(!is_well_formed(&"A4A10".repeat(32)));
    assert!(is_well_formed(&"A4A10".repeat(31)));
}

#[test]
fn encodings_rolls() {
    assert!("A0A5A3B2".parse::<Roll>().is_ok());
    assert!("B2A0A5A3".parse::<Roll>().is_err());
    assert!("A0A6A3B2".parse::<Roll>().is_err());
}

// §9.2 Connected neighbours

#[test]
fn connected_neighbour_examples() {
    assert!(connected_neighbours(p("A3C10"), p("A3C23")));
    assert!(!connected_neighbours(p("A3C23"), p("B1B20")));
    assert!(!connected_neighbours(p("A0B30"), p("A3B23")));
    assert!(!connected_neighbours(p("A0B30"), p("A3C23")));
    // Symmetric.
    assert!(connected_neighbours(p("A3C23"), p("A3C10")));
}

// §9.3 Legality

fn last_verdict(seq: &str) -> Result<(), Illegal> {
    let ps = placements(seq);
    let (last, before) = ps.split_last().unwrap();
    let b = Board::from_placements(before).expect("the placements before the last are legal");
    b.check(*last)
}

#[test]
fn legality_examples() {
    let legal = ["A4A10", "A1A30", "A1A30A2B30", "A0A30A1A21A1A11"];
    for seq in legal {
        assert_eq!(last_verdict(seq), Ok(()), "{seq}");
        assert!(is_valid(seq), "{seq}");
    }
    fn wrong_exit(r: Result<(), Illegal>, side: Side, ours: Route, at: &str) -> bool {
        matches!(r, Err(Illegal::WrongExit { side: s, ours: o, exit }) if s == side && o == ours && exit.square == sq(at))
    }
    assert!(wrong_exit(
        last_verdict("A4A30"),
        Side::N,
        Route::Highway,
        "A3"
    ));
    assert!(wrong_exit(
        last_verdict("A4B01"),
        Side::W,
        Route::Highway,
        "B0"
    ));
    assert_eq!(last_verdict("A1C30"), Err(Illegal::NoConnection));
    assert_eq!(last_verdict("A4A00"), Err(Illegal::NoConnection));
    assert_eq!(
        last_verdict("A1A30A1A30"),
        Err(Illegal::Occupied { square: sq("A3") })
    );
    assert_eq!(
        last_verdict("A1A30A4B30"),
        Err(Illegal::RouteMismatch {
            side: Side::N,
            ours: Route::Highway,
            theirs: Route::Railway,
            neighbour: sq("A3")
        })
    );
    assert_eq!(last_verdict("A1A30A4B31"), Err(Illegal::NoConnection));
    assert!(wrong_exit(
        last_verdict("A0A30A1A21A0A11"),
        Side::N,
        Route::Railway,
        "A1"
    ));
    for seq in [
        "A4A30",
        "A4B01",
        "A1C30",
        "A4A00",
        "A1A30A1A30",
        "A1A30A4B30",
        "A1A30A4B31",
        "A0A30A1A21A0A11",
    ] {
        assert!(!is_valid(seq), "{seq}");
        let err = seq.parse::<Board>().unwrap_err();
        assert_eq!(err.index(), Some(seq.len() / 5 - 1), "{seq}");
    }
}

#[test]
fn fast_legality_agrees_with_the_named_rule() {
    for seq in [
        "A4A10",
        "A1A30A2B30",
        "A1A30A4B30",
        "A1A30A4B31",
        "A0A30A1A21A0A11",
    ] {
        let ps = placements(seq);
        let (last, before) = ps.split_last().unwrap();
        let b = Board::from_placements(before).unwrap();
        assert_eq!(b.is_legal(*last), b.check(*last).is_ok(), "{seq}");
    }
}

#[test]
fn empty_board_is_valid_but_not_well_formed() {
    assert!(is_valid(""));
    assert!(!is_well_formed(""));
    assert_eq!(
        railroad_ink::score("").unwrap(),
        railroad_ink::Score::default()
    );
    assert!(matches!(
        "A4A1".parse::<Board>(),
        Err(BoardError::Malformed(_))
    ));
}

// §9.4 Scoring small boards

fn exits_per_network(b: &Breakdown) -> Vec<usize> {
    let mut v: Vec<usize> = b
        .networks
        .iter()
        .map(|n| n.exits.len())
        .filter(|&n| n > 0)
        .collect();
    v.sort();
    v
}

#[test]
fn small_board_scores() {
    // board, exits per network, centre, errors, basic, longest H, longest R, advanced
    type Row = (&'static str, &'static [usize], i32, i32, i32, i32, i32, i32);
    let table: [Row; 6] = [
        ("A4A10", &[1], 0, 1, -1, 1, 0, 0),
        ("S2D00", &[1], 0, 3, -3, 1, 0, -2),
        ("A2B03A0A03", &[1], 0, 1, -1, 0, 2, 1),
        (
            "A4A10A4B10A4C10A4D10A4E10A4F10A4G10",
            &[2],
            0,
            0,
            4,
            7,
            0,
            11,
        ),
        ("A4A10A1B01B2B10", &[1, 1], 0, 2, -2, 2, 2, 2),
        ("A4A10A1B01S5B10", &[2], 0, 2, 2, 2, 2, 6),
    ];
    for (text, exits, centre, errors, basic, lh, lr, advanced) in table {
        let b = board(text).breakdown();
        let s = b.score;
        assert_eq!(exits_per_network(&b), exits, "{text}");
        assert_eq!(
            (
                s.centre,
                s.errors,
                s.basic,
                s.longest_highway,
                s.longest_railway,
                s.advanced
            ),
            (centre, errors, basic, lh, lr, advanced),
            "{text}"
        );
        assert_eq!(b.longest_highway.len() as i32, lh, "{text}");
        assert_eq!(b.longest_railway.len() as i32, lr, "{text}");
        assert_eq!(b.errors.len() as i32, errors, "{text}");
    }
}

#[test]
fn overpass_keeps_two_networks_and_station_joins_them() {
    let over = board("A4A10A1B01B2B10").breakdown();
    let with_exits: Vec<_> = over
        .networks
        .iter()
        .filter(|n| !n.exits.is_empty())
        .collect();
    assert_eq!(with_exits.len(), 2);
    let station = board("A4A10A1B01S5B10").breakdown();
    assert_eq!(station.networks.len(), 1);
    assert_eq!(station.networks[0].points, 4);
}

// §9.5 The 31-placement example game

const EXAMPLE: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

fn squares(list: &[&str]) -> Vec<Square> {
    list.iter().map(|s| sq(s)).collect()
}

#[test]
fn example_game_whole_breakdown() {
    let seq: Sequence = EXAMPLE.parse().unwrap();
    assert_eq!(seq.placements().len(), 31);
    let b = board(EXAMPLE);
    assert_eq!(b.special_count(), 3);
    let br = b.breakdown();

    // Networks with exits: {A1, G1, D0, F0} for 12 and {A3, G3, G5, B0, D6, F6} for 20.
    let mut nets: Vec<(Vec<String>, i32)> = br
        .networks
        .iter()
        .filter(|n| !n.exits.is_empty())
        .map(|n| {
            let mut e: Vec<String> = n.exits.iter().map(|e| e.square.to_string()).collect();
            e.sort();
            (e, n.points)
        })
        .collect();
    nets.sort();
    assert_eq!(
        nets,
        vec![
            (vec!["A1".into(), "D0".into(), "F0".into(), "G1".into()], 12),
            (
                vec![
                    "A3".into(),
                    "B0".into(),
                    "D6".into(),
                    "F6".into(),
                    "G3".into(),
                    "G5".into()
                ],
                20
            ),
        ]
    );
    // Exits A5 and B6 are unused.
    let used: Vec<Square> = br
        .networks
        .iter()
        .flat_map(|n| n.exits.iter().map(|e| e.square))
        .collect();
    assert!(!used.contains(&sq("A5")) && !used.contains(&sq("B6")));

    assert_eq!(br.centre, squares(&["C3", "C4", "D2", "E2", "E3", "E4"]));

    let errors: Vec<(String, Side, Route)> = br
        .errors
        .iter()
        .map(|e| (e.square.to_string(), e.side, e.route))
        .collect();
    assert_eq!(
        errors,
        vec![
            ("A4".into(), Side::E, Route::Railway),
            ("A4".into(), Side::W, Route::Railway),
            ("E4".into(), Side::N, Route::Highway),
            ("E4".into(), Side::S, Route::Highway),
            ("E5".into(), Side::E, Route::Railway),
        ]
    );

    let s = br.score;
    assert_eq!((s.exits, s.centre, s.errors, s.basic), (32, 6, 5, 33));
    assert_eq!(
        (s.longest_highway, s.longest_railway, s.advanced),
        (8, 5, 46)
    );
    assert_eq!(b.score(), s);
    assert_eq!(railroad_ink::score(EXAMPLE).unwrap(), s);

    // The traced longest routes are simple paths of joined tiles of the right type.
    for (path, route) in [
        (&br.longest_highway, Route::Highway),
        (&br.longest_railway, Route::Railway),
    ] {
        let mut seen = std::collections::HashSet::new();
        for w in path.windows(2) {
            let side = w[0]
                .side_towards(w[1])
                .expect("consecutive squares are adjacent");
            assert_eq!(b.edge(w[0], side).route(), Some(route));
            assert_eq!(b.edge(w[1], side.opposite()).route(), Some(route));
        }
        assert!(path.iter().all(|s| seen.insert(*s)), "no square twice");
    }
}

// §9.6 Move generation

#[test]
fn move_generation_on_the_example_board() {
    let b = board(EXAMPLE);
    let roll: Roll = "A1A4A4B0".parse().unwrap();
    let reference: String = generate_move(&b, &roll)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(reference, "A1A51A4D40A4F40B0A61");
    for ok in ["A1A51A4D40A4F40B0A61", "A1A51A4D40B0F40", "B0F40A1A51A4D40"] {
        assert_eq!(check_move(&b, &roll, &placements(ok)), Ok(()), "{ok}");
    }
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A51A4D40")),
        Err(MoveError::NotMaximal { .. })
    ));
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A53A4D40B0F40")),
        Err(MoveError::NotCanonical { .. })
    ));
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A51A1B61A4D40B0F40")),
        Err(MoveError::NoSuchDie { index: 1, .. })
    ));
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A51A4D40B0F40S0E61")),
        Err(MoveError::SpecialUnavailable {
            index: 3,
            already_placed: false,
            ..
        })
    ));
}

#[test]
fn move_generation_with_specials_available() {
    let b = board("A4A10A4B10A4C10A4D10A4E10A4F10A4G10");
    let roll: Roll = "A1A1A0B1".parse().unwrap();
    let reference: String = generate_move(&b, &roll)
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(reference, "A1A30A1B01A0B30B1A50");
    for ok in ["A1A30A1B01A0B30B1A50S2D00", "S2D00A1A30A1B01A0B30B1A50"] {
        assert_eq!(check_move(&b, &roll, &placements(ok)), Ok(()), "{ok}");
    }
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A30A1B01A0B30B1A50S2D01")),
        Err(MoveError::NotCanonical { .. })
    ));
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A30A1B01A0B30B1A50S2D00S3F00")),
        Err(MoveError::SecondSpecial { .. })
    ));
    assert!(matches!(
        check_move(&b, &roll, &placements("A1A30A1B01A0B30")),
        Err(MoveError::NotMaximal { .. })
    ));
    assert_eq!(
        railroad_ink::generate_move_text("A4A10A4B10A4C10A4D10A4E10A4F10A4G10", "A1A1A0B1")
            .unwrap(),
        reference
    );
}

#[test]
fn a_board_holds_at_most_seven_rounds() {
    assert_eq!(ROUNDS * 4 + 3, railroad_ink::board::MAX_PLACEMENTS);
}
