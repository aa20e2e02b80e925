//! Every worked example of the expansion rules' section E7 (both tables), and the
//! bad inputs of issue 31 part 6, refused with the rule they break.

use railroad_ink::board::SequenceError;
use railroad_ink::dice::RollError;
use railroad_ink::game::{Action, Dice, Game, GameError, Setup};
use railroad_ink::{
    Board, BoardError, Expansion, Illegal, MoveError, Placement, Roll, Sequence, Square, Tile,
    check_move, generate_move,
};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn board(s: &str, e: Expansion) -> Board {
    Board::parse_in(s, e).unwrap_or_else(|err| panic!("{s}: {err}"))
}

/// One row of E7's score table.
struct Row {
    expansion: Expansion,
    board: &'static str,
    floods: &'static [&'static str],
    exits: i32,
    centre: i32,
    errors: i32,
    longest: (i32, i32),
    /// Lake sizes ascending, or river points best first.
    bodies: &'static [i32],
    points: i32,
    total: i32,
}

const SCORES: [Row; 8] = [
    Row {
        expansion: Expansion::Lake,
        board: "A4A10L3B10L3C12A4D10A4E10A4F10A4G10",
        floods: &[],
        exits: 4,
        centre: 0,
        errors: 0,
        longest: (5, 0),
        bodies: &[2],
        points: 2,
        total: 11,
    },
    Row {
        expansion: Expansion::Lake,
        board: "L0C30L0D23L0D41",
        floods: &["D3"],
        exits: 0,
        centre: 4,
        errors: 0,
        longest: (0, 0),
        bodies: &[4],
        points: 4,
        total: 8,
    },
    Row {
        expansion: Expansion::Lake,
        board: "L0C30L0D23L0D41L0A00",
        floods: &["D3"],
        exits: 0,
        centre: 4,
        errors: 0,
        longest: (0, 0),
        bodies: &[1, 4],
        points: 1,
        total: 5,
    },
    Row {
        expansion: Expansion::Lake,
        board: "A4G10A4F10L0D10L0E03L0E21",
        floods: &["E1"],
        exits: 0,
        centre: 1,
        errors: 1,
        longest: (2, 0),
        bodies: &[4],
        points: 4,
        total: 6,
    },
    Row {
        expansion: Expansion::River,
        board: "V0A01V0A11V0A21V0A31V0A41V0A51V0A61",
        floods: &[],
        exits: 0,
        centre: 0,
        errors: 0,
        longest: (0, 0),
        bodies: &[10],
        points: 10,
        total: 10,
    },
    Row {
        expansion: Expansion::River,
        board: "V0A01V0A11V0A21",
        floods: &[],
        exits: 0,
        centre: 0,
        errors: 1,
        longest: (0, 0),
        bodies: &[3],
        points: 3,
        total: 2,
    },
    Row {
        expansion: Expansion::River,
        board: "V0A01V2A11V0A21V0A31V0A41V0A51V0A61A4B10A4C10A4D10A4E10A4F10A4G10",
        floods: &[],
        exits: 4,
        centre: 0,
        errors: 0,
        longest: (7, 0),
        bodies: &[10],
        points: 10,
        total: 21,
    },
    Row {
        expansion: Expansion::River,
        board: "V1A21V0A31V0A41V0A51V0A61V0F11V0F21V0F31V0F41V1F50V0E50",
        floods: &[],
        exits: 0,
        centre: 0,
        errors: 2,
        longest: (0, 0),
        bodies: &[8, 6],
        points: 8,
        total: 6,
    },
];

#[test]
fn e7_scores_with_their_breakdown() {
    for row in &SCORES {
        let b = board(row.board, row.expansion);
        let what = row.board;
        let floods: u64 = row.floods.iter().fold(0, |m, s| m | sq(s).bit());
        assert_eq!(b.flooded(), floods, "{what}: floods");
        let s = b.score();
        assert_eq!(s.exits, row.exits, "{what}: exits");
        assert_eq!(s.centre, row.centre, "{what}: centre");
        assert_eq!(s.errors, row.errors, "{what}: errors");
        assert_eq!(
            (s.longest_highway, s.longest_railway),
            row.longest,
            "{what}: longest"
        );
        assert_eq!(s.expansion, row.points, "{what}: expansion points");
        assert_eq!(s.advanced, row.total, "{what}: total");
        assert_eq!(
            s.advanced,
            s.exits + s.centre - s.errors + s.longest_highway + s.longest_railway + s.expansion
        );
        let bd = b.breakdown();
        assert_eq!(bd.score, s, "{what}: breakdown score");
        let bodies: Vec<i32> = match row.expansion {
            Expansion::Lake => bd.lakes.iter().map(|l| l.len() as i32).collect(),
            _ => bd.rivers.iter().map(|r| r.points).collect(),
        };
        assert_eq!(bodies, row.bodies, "{what}: lakes or rivers");
        assert_eq!(
            bd.errors.len() + bd.river_errors.len(),
            row.errors as usize,
            "{what}: error marks"
        );
        // The board string never shows the flood, and prints back as given.
        assert_eq!(b.to_string(), row.board);
    }
}

#[test]
fn e7_breakdown_details() {
    // Row 4: F1's highway faces the flooded E1.
    let b = board("A4G10A4F10L0D10L0E03L0E21", Expansion::Lake);
    let bd = b.breakdown();
    assert_eq!(bd.errors.len(), 1);
    assert_eq!(
        (bd.errors[0].square, bd.errors[0].side),
        (sq("F1"), railroad_ink::Side::N)
    );
    assert_eq!(b.get(sq("E1")).map(|p| p.tile), Some(Tile::F0));
    // Row 8: the river errors are F1's west end and E5's north end.
    let b = board(SCORES[7].board, Expansion::River);
    let marks: Vec<(Square, railroad_ink::Side)> = b
        .breakdown()
        .river_errors
        .iter()
        .map(|e| (e.square, e.side))
        .collect();
    assert_eq!(
        marks,
        vec![
            (sq("E5"), railroad_ink::Side::N),
            (sq("F1"), railroad_ink::Side::W)
        ]
    );
    let rivers = b.breakdown().rivers;
    assert!(rivers[0].both_ends_off && !rivers[1].both_ends_off);
    assert_eq!((rivers[0].squares.len(), rivers[1].squares.len()), (5, 6));
    // Row 1: the two piers' networks are one network with two exits.
    let bd = board(SCORES[0].board, Expansion::Lake).breakdown();
    assert_eq!(bd.networks[0].exits.len(), 2);
}

/// The legality table of E7: the last placement of each sequence, `Ok` or the reason.
#[test]
fn e7_legality() {
    type Check = fn(&Illegal) -> bool;
    let cases: [(&str, Expansion, Option<Check>); 12] = [
        ("V0D30", Expansion::River, None),
        (
            "V0B01",
            Expansion::River,
            Some(|r| matches!(r, Illegal::WaterIntoExit { .. })),
        ),
        (
            "V0A30",
            Expansion::River,
            Some(|r| matches!(r, Illegal::WaterIntoExit { .. })),
        ),
        ("V0A31", Expansion::River, None),
        (
            "A4A10V0B10",
            Expansion::River,
            Some(|r| matches!(r, Illegal::EdgeMismatch { .. })),
        ),
        (
            "A1A30V2B30",
            Expansion::River,
            Some(|r| matches!(r, Illegal::EdgeMismatch { .. })),
        ),
        ("A1A30V3B31", Expansion::River, None),
        ("L3A10", Expansion::Lake, None),
        (
            "A4A10L0B21A3B10",
            Expansion::Lake,
            Some(|r| matches!(r, Illegal::EdgeMismatch { .. })),
        ),
        (
            "A4A10A3B10L0B21",
            Expansion::Lake,
            Some(|r| matches!(r, Illegal::EdgeMismatch { .. })),
        ),
        (
            "L2A10",
            Expansion::Lake,
            Some(|r| matches!(r, Illegal::WaterIntoExit { .. })),
        ),
        // The pier's highway meets the A1 exit: the bridge of the table's A1A30V3B31 row, turned
        // around, is the same rule for the lake.
        ("A4A10L3B10", Expansion::Lake, None),
    ];
    for (seq, expansion, expected) in cases {
        let placements = Sequence::parse_in(seq, expansion).unwrap();
        let placements = placements.placements();
        let (last, before) = placements.split_last().unwrap();
        let b = Board::from_placements_in(before, expansion).unwrap();
        let verdict = b.check(*last);
        assert_eq!(
            verdict.is_ok(),
            b.is_legal(*last),
            "{seq}: fast and slow paths agree"
        );
        match (expected, verdict) {
            (None, Ok(())) => {}
            (Some(check), Err(reason)) => assert!(check(&reason), "{seq}: {reason:?}"),
            (e, v) => panic!(
                "{seq}: expected {}, got {v:?}",
                e.map_or("legal", |_| "illegal")
            ),
        }
        // The same through the board string.
        assert_eq!(
            Board::parse_in(seq, expansion).is_ok(),
            expected.is_none(),
            "{seq}"
        );
    }
}

#[test]
fn reason_precedence() {
    // L2 at A1 with water N, E and W: the N water faces the A1 exit.
    let p: Placement = "L2A10".parse().unwrap();
    assert!(matches!(
        Board::with_expansion(Expansion::Lake).check(p),
        Err(Illegal::WaterIntoExit {
            side: railroad_ink::Side::N,
            ..
        })
    ));
    // On A3, east of a highway curve A1–A2 (A5 turned N–E, A4 turned E–W): L2's N water faces
    // the A3 exit and its W water (the last side) meets the highway: the mismatch wins.
    let b = board("A5A11A4A21", Expansion::Lake);
    let p: Placement = "L2A30".parse().unwrap();
    assert!(
        matches!(
            b.check(p),
            Err(Illegal::EdgeMismatch {
                side: railroad_ink::Side::W,
                ..
            })
        ),
        "{:?}",
        b.check(p)
    );
    // Occupied outranks everything, flooded squares included.
    let b = board("L0C30L0D23L0D41", Expansion::Lake);
    let p: Placement = "A4D30".parse().unwrap();
    assert_eq!(b.check(p), Err(Illegal::Occupied { square: sq("D3") }));
    // A river tile needs no connection, a route tile still does.
    let b = Board::with_expansion(Expansion::River);
    assert!(b.check("V1D31".parse().unwrap()).is_ok());
    assert_eq!(
        b.check("A4D31".parse().unwrap()),
        Err(Illegal::NoConnection)
    );
}

#[test]
fn a_route_may_continue_through_a_bridge_and_a_pier() {
    // E3.4: the bridge's highway counts as a connection for a route die.
    // V2 turned once: the highway runs N–S, the river E–W.
    let b = board("V2D31", Expansion::River);
    assert!(b.check("A4C30".parse().unwrap()).is_ok());
    assert!(matches!(
        b.check("A4D21".parse().unwrap()),
        Err(Illegal::EdgeMismatch { .. })
    ));
    let b = board("L3D30", Expansion::Lake);
    assert!(b.check("A4C30".parse().unwrap()).is_ok());
}

#[test]
fn bad_input_is_refused_with_the_rule() {
    // Expansion tiles on a base board.
    assert!(matches!(
        "V0D30".parse::<Board>(),
        Err(BoardError::Malformed(SequenceError::NotInThisGame {
            index: 0,
            ..
        }))
    ));
    assert!(matches!(
        "A4A10L0B21".parse::<Sequence>(),
        Err(SequenceError::NotInThisGame { index: 1, .. })
    ));
    // A river tile on a lake board.
    assert!(matches!(
        Board::parse_in("L0C30V0D30", Expansion::Lake),
        Err(BoardError::Malformed(SequenceError::NotInThisGame {
            index: 1,
            ..
        }))
    ));
    assert!(matches!(
        Board::with_expansion(Expansion::Lake).check("V0D30".parse().unwrap()),
        Err(Illegal::NotInThisGame { .. })
    ));
    // F0 is never written.
    assert!("F0D30".parse::<Placement>().is_err());
    // A 12-character roll in a base game, a river die in a lake game.
    assert_eq!(
        "A0A1A2B0L0L1".parse::<Roll>(),
        Err(RollError::ExpansionRollInBaseGame)
    );
    assert!(matches!(
        Roll::parse_in("A0A1A2B0V0L1", Expansion::Lake),
        Err(RollError::WrongExpansionDie { index: 8, .. })
    ));
    // 39 placements are well-formed in an expansion game, 40 are not; 32 not in a base game.
    let many = "V0A01".repeat(39);
    assert!(Sequence::parse_in(&many, Expansion::River).is_ok());
    assert!(matches!(
        Sequence::parse_in(&(many + "V0A01"), Expansion::River),
        Err(SequenceError::TooManyInExpansion { count: 40 })
    ));
    assert!(Sequence::parse_in(&"A4A10".repeat(32), Expansion::Lake).is_ok());
    assert!(matches!(
        "A4A10".repeat(32).parse::<Sequence>(),
        Err(SequenceError::TooMany { count: 32 })
    ));
}

#[test]
fn a_game_with_an_expansion() {
    let setup = Setup {
        players: 1,
        dice: Dice::Seed(5),
    };
    let mut game = Game::with_expansion(setup, Expansion::River);
    assert_eq!(game.rounds(), 6);
    let roll = game.roll().unwrap();
    assert_eq!(roll.to_string().len(), 12);
    assert_eq!(roll.expansion(), Expansion::River);
    // A lake tile is refused by name; a die not rolled is refused.
    assert!(matches!(
        game.act(
            0,
            Action::Place {
                placement: "L0D30".parse().unwrap()
            }
        ),
        Err(GameError::NotInThisGame { .. })
    ));
    let mut rounds = 0;
    while !game.is_finished() {
        let roll = game.roll().unwrap();
        // Place both river dice (they need no connection), then the route dice.
        for &tile in roll.expansion_dice() {
            let board = *game.player(0).unwrap().board();
            if let Some(placement) = board.legal_placements(tile).first().copied() {
                game.act(0, Action::Place { placement }).unwrap();
            }
        }
        // A third use of a river die is refused.
        let board = *game.player(0).unwrap().board();
        let tile = roll.expansion_dice()[0];
        if let Some(&placement) = board.legal_placements(tile).first() {
            assert!(matches!(
                game.act(0, Action::Place { placement }),
                Err(GameError::NoSuchDie { .. })
            ));
        }
        for placement in generate_move(&board, &roll) {
            game.act(0, Action::Place { placement }).unwrap();
        }
        game.act(0, Action::EndRound).unwrap();
        rounds += 1;
    }
    assert_eq!(rounds, 6);
    let board = game.player(0).unwrap().board();
    assert!(board.len() <= 39);
    // The replayed board string gives the same board and score.
    let again = Board::parse_in(&board.to_string(), Expansion::River).unwrap();
    assert_eq!(again.score(), board.score());
}

#[test]
fn expansion_dice_are_optional_in_a_move() {
    let b = board("A4A10", Expansion::Lake);
    let roll = Roll::parse_in("A4A4A4B0L0L3", Expansion::Lake).unwrap();
    let reference = generate_move(&b, &roll);
    assert!(reference.iter().all(|p| !p.tile.is_expansion()));
    assert_eq!(check_move(&b, &roll, &reference), Ok(()));
    // Both lake dice, then the reference move on that board.
    let mut with = vec![
        "L0G60".parse::<Placement>().unwrap(),
        "L3G00".parse().unwrap(),
    ];
    let mut after = b;
    for p in &with {
        after.place(*p).unwrap();
    }
    with.extend(generate_move(&after, &roll));
    assert_eq!(check_move(&b, &roll, &with), Ok(()));
    // A lake die used twice is not a die of the roll.
    let twice = [
        "L0G60".parse::<Placement>().unwrap(),
        "L0G50".parse().unwrap(),
    ];
    assert!(matches!(
        check_move(&b, &roll, &twice),
        Err(MoveError::NoSuchDie { index: 1, .. })
    ));
}
