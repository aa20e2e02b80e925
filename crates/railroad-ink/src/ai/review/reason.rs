//! Why the computer's round is better than the player's, in one sentence, found by comparing
//! the two boards after the round (the board the player's round left, and the one the
//! computer's round would have left) part by part, as [`Board::breakdown`] scores them.
//!
//! A reason is always true of the two boards. When the computer's board scores more now, the
//! reason is the part of the score that gains it the most (exit points, named by the exits the
//! computer joins into one network; errors; centre squares; the longest highway or railway; the
//! lake or the river). When it scores no more now, the evaluation prefers it for the rounds to
//! come, and the reason is the first of these that holds: the player's round spends a special
//! the computer's keeps; it leaves more route ends against tiles that do not join them (errors
//! no later tile can close); the computer's routes reach more exits; else the scores of the two
//! boards now and the rounds left, in words.

use serde::Serialize;

use review_scale::{and_list, signed};

use crate::board::Board;
use crate::expansion::Expansion;
use crate::placement::Placement;
use crate::score::{Breakdown, Score};
use crate::square::Exit;

/// What a reason is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonKind {
    /// The computer would have played exactly the player's round.
    Same,
    /// The computer's own round was valued no higher: the player's round is the round's best.
    AsGood,
    /// The computer's round scores more exit points (it joins exits into a network).
    Exits,
    /// The player's round leaves more open ends (errors).
    Errors,
    /// The computer's round covers more centre squares.
    Centre,
    /// The computer's round makes the longest highway longer.
    Highway,
    /// The computer's round makes the longest railway longer.
    Railway,
    /// The computer's round scores more for the lakes (the smallest lake's squares).
    Lake,
    /// The computer's round scores more for the best river.
    River,
    /// The player's round spends a special that the computer's keeps for later.
    Special,
    /// The player's round leaves more route ends against tiles that do not join them.
    Blocked,
    /// The computer's routes reach more exits.
    Reach,
    /// None of the above: the computer's board is valued higher for the rounds left.
    Later,
}

/// Why the computer's round is better (or that the player's is as good).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reason {
    /// What it is about.
    pub kind: ReasonKind,
    /// The points of the score now behind it, in the computer's round's favour: how many more
    /// that part of the score is worth on the computer's board than on the player's (fewer
    /// errors count as more). Absent where the reason is not a part of the score now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i32>,
    /// The reason in one sentence, for people (a real minus sign before a number below zero).
    pub text: String,
}

/// The two ends of a reviewed round.
pub(crate) struct Round<'a> {
    /// The board after the player's round.
    pub played: &'a Board,
    /// The board after the computer's round.
    pub best: &'a Board,
    /// What the player placed this round.
    pub played_round: &'a [Placement],
    /// What the computer placed this round.
    pub best_round: &'a [Placement],
    /// Rounds of the game after this one.
    pub rounds_left: usize,
}

/// Whether two rounds place the same tiles on the same squares the same way (in any order).
pub(crate) fn same_round(a: &[Placement], b: &[Placement]) -> bool {
    let key = |p: &Placement| p.to_string();
    let mut a: Vec<String> = a.iter().map(key).collect();
    let mut b: Vec<String> = b.iter().map(key).collect();
    a.sort();
    b.sort();
    a == b
}

/// The reason of a round whose best is the player's own: the computer would have played the
/// same, or its own round was valued no higher.
pub(crate) fn as_good(computer_same: bool) -> Reason {
    if computer_same {
        Reason {
            kind: ReasonKind::Same,
            points: None,
            text: "The computer would have played exactly this round.".into(),
        }
    } else {
        Reason {
            kind: ReasonKind::AsGood,
            points: None,
            text: "The computer's own round was valued no higher than yours: yours was as good."
                .into(),
        }
    }
}

/// `n` and a noun, made plural unless `n` is 1: "1 centre square", "2 open ends".
fn count(n: i32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Why the computer's round (the board `best`) is better than the player's (`played`).
pub(crate) fn reason(round: &Round<'_>) -> Reason {
    let (played, best) = (round.played.breakdown(), round.best.breakdown());
    let (p, b) = (played.score, best.score);
    if b.advanced > p.advanced {
        return score_reason(round, &played, &best);
    }
    positional_reason(round, &played, &best, p, b)
}

/// The part of the score that gains the computer's board the most now.
fn score_reason(round: &Round<'_>, played: &Breakdown, best: &Breakdown) -> Reason {
    let (p, b) = (played.score, best.score);
    let expansion = match round.best.expansion() {
        Expansion::Lake => Some(ReasonKind::Lake),
        Expansion::River => Some(ReasonKind::River),
        Expansion::None => None,
    };
    let parts = [
        (ReasonKind::Exits, b.exits - p.exits),
        (ReasonKind::Errors, p.errors - b.errors),
        (ReasonKind::Centre, b.centre - p.centre),
        (ReasonKind::Highway, b.longest_highway - p.longest_highway),
        (ReasonKind::Railway, b.longest_railway - p.longest_railway),
    ]
    .into_iter()
    .chain(expansion.map(|k| (k, b.expansion - p.expansion)));
    // The largest gain; the first of equals.
    let (kind, gain) = parts.fold((ReasonKind::Later, 0), |acc, part| {
        if part.1 > acc.1 { part } else { acc }
    });
    let plus = signed(i64::from(gain));
    let text = match kind {
        ReasonKind::Exits => match joined(played, best) {
            Some((words, joins)) if joins == gain => {
                format!("The computer's round {words} ({plus} exit points).")
            }
            Some((words, _)) => {
                format!("The computer's round {words} ({plus} exit points in all).")
            }
            None => {
                format!("The computer's round joins more exits into networks ({plus} exit points).")
            }
        },
        ReasonKind::Errors => {
            let ends = count(gain, "more open end", "more open ends");
            let minus = signed(-i64::from(gain));
            match (round.rounds_left, gain) {
                (0, 1) => format!("Your round leaves {ends}, an error at the end ({minus})."),
                (0, _) => format!("Your round leaves {ends}, each an error at the end ({minus})."),
                (_, 1) => format!(
                    "Your round leaves {ends}, an error unless a later tile closes it ({minus} now)."
                ),
                _ => format!(
                    "Your round leaves {ends}, errors unless later tiles close them ({minus} now)."
                ),
            }
        }
        ReasonKind::Centre => {
            if gain == 1 {
                format!("The computer's round takes a centre square ({plus}).")
            } else {
                format!("The computer's round takes {gain} more centre squares ({plus}).")
            }
        }
        ReasonKind::Highway | ReasonKind::Railway => {
            let (route, now) = if kind == ReasonKind::Highway {
                ("highway", b.longest_highway)
            } else {
                ("railway", b.longest_railway)
            };
            format!(
                "The computer's round makes your longest {route} {} longer, {now} tiles ({plus}).",
                count(gain, "tile", "tiles")
            )
        }
        ReasonKind::Lake => {
            if p.expansion == 0 {
                format!(
                    "The computer's round gives you a lake, its smallest of {} ({plus}).",
                    count(b.expansion, "square", "squares")
                )
            } else {
                format!(
                    "The computer's round makes your smallest lake {} instead of {} ({plus}).",
                    count(b.expansion, "square", "squares"),
                    p.expansion
                )
            }
        }
        _ => format!(
            "The computer's round makes your best river worth {} instead of {} ({plus}).",
            b.expansion, p.expansion
        ),
    };
    Reason {
        kind,
        points: Some(gain),
        text,
    }
}

/// Which exits the computer's round joins into networks, in words, and the exit points those
/// networks gain: "joins exits B0 and G3 into one network", "joins exit G3 to the network of
/// exits A1 and B0", "joins exits A1 and D0 into one network, and exits B6 and G5 into
/// another". The two joins that gain the most are named; `None` when no network of the
/// computer's board joins exits that are apart on the player's.
fn joined(played: &Breakdown, best: &Breakdown) -> Option<(String, i32)> {
    let owner = |e: &Exit| played.networks.iter().position(|n| n.exits.contains(e));
    // (gain, exits, words) of each network of the computer's that joins exits.
    let mut joins: Vec<(i32, usize, String)> = Vec::new();
    for network in best.networks.iter().filter(|n| n.exits.len() >= 2) {
        // The network's exits, grouped by the player's network each is in (or alone).
        let mut groups: Vec<(Option<usize>, Vec<Exit>)> = Vec::new();
        for exit in &network.exits {
            let o = owner(exit);
            match groups.iter_mut().find(|g| o.is_some() && g.0 == o) {
                Some(g) => g.1.push(*exit),
                None => groups.push((o, vec![*exit])),
            }
        }
        if groups.len() < 2 {
            continue;
        }
        let apart: i32 = groups
            .iter()
            .filter_map(|g| g.0.map(|i| played.networks[i].points))
            .sum();
        let main = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.1.len() >= 2)
            .max_by_key(|(i, g)| (g.1.len(), usize::MAX - i))
            .map(|(i, _)| i);
        let words = match main {
            Some(m) => {
                let new: Vec<Exit> = groups
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != m)
                    .flat_map(|(_, g)| g.1.iter().copied())
                    .collect();
                format!(
                    "{} {} to the network of exits {}",
                    if new.len() == 1 { "exit" } else { "exits" },
                    and_list(&new),
                    and_list(&groups[m].1)
                )
            }
            None => format!("exits {} into one network", and_list(&network.exits)),
        };
        joins.push((network.points - apart, network.exits.len(), words));
    }
    joins.sort_by_key(|j| std::cmp::Reverse((j.0, j.1)));
    joins.truncate(2);
    let gain = joins.iter().map(|j| j.0).sum();
    let mut words = joins.into_iter().map(|j| j.2);
    let first = words.next()?;
    let text = match words.next() {
        Some(second) => format!(
            "joins {first}, and {}",
            second.replace(" into one network", " into another")
        ),
        None => format!("joins {first}"),
    };
    Some((text, gain))
}

/// Route ends (and river ends) counted as errors that face a square holding something: no
/// later tile can close them.
fn blocked(board: &Board, breakdown: &Breakdown) -> i32 {
    let against = |square: crate::square::Square, side| {
        square
            .neighbour(side)
            .is_some_and(|n| board.occupied() & n.bit() != 0)
    };
    let routes = breakdown
        .errors
        .iter()
        .filter(|e| against(e.square, e.side))
        .count();
    let rivers = breakdown
        .river_errors
        .iter()
        .filter(|e| against(e.square, e.side))
        .count();
    (routes + rivers) as i32
}

/// The exits some route of the board reaches.
fn reached(breakdown: &Breakdown) -> i32 {
    breakdown
        .networks
        .iter()
        .map(|n| n.exits.len() as i32)
        .sum()
}

/// A reason when the computer's board scores no more now: what it keeps for later.
fn positional_reason(
    round: &Round<'_>,
    played: &Breakdown,
    best: &Breakdown,
    p: Score,
    b: Score,
) -> Reason {
    let special = |r: &[Placement]| r.iter().any(|q| q.tile.is_special());
    if special(round.played_round) && !special(round.best_round) {
        return Reason {
            kind: ReasonKind::Special,
            points: None,
            text:
                "Your round spends a special tile here; the computer's keeps it for a later round."
                    .into(),
        };
    }
    let (bp, bb) = (blocked(round.played, played), blocked(round.best, best));
    if bp > bb {
        return Reason {
            kind: ReasonKind::Blocked,
            points: None,
            text: format!(
                "Your round leaves {} against tiles that do not join {}: errors no later tile can close.",
                count(bp - bb, "more route end", "more route ends"),
                if bp - bb == 1 { "it" } else { "them" }
            ),
        };
    }
    let (rp, rb) = (reached(played), reached(best));
    if rb > rp {
        return Reason {
            kind: ReasonKind::Reach,
            points: None,
            text: format!(
                "The computer's round brings routes to {}, ready to join into networks later.",
                count(rb - rp, "more exit", "more exits")
            ),
        };
    }
    let left = count(round.rounds_left as i32, "round left", "rounds left");
    let text = if p.advanced == b.advanced {
        format!(
            "Both rounds score {} now; the computer's board is worth more over the {left}, by the strong player's evaluation.",
            signed_score(b.advanced)
        )
    } else {
        format!(
            "Your round scores {} more now ({} against {}), but the computer's board is worth more over the {left}, by the strong player's evaluation.",
            p.advanced - b.advanced,
            signed_score(p.advanced),
            signed_score(b.advanced)
        )
    };
    Reason {
        kind: ReasonKind::Later,
        points: None,
        text,
    }
}

/// A score as people read it: a real minus sign below zero.
fn signed_score(score: i32) -> String {
    if score < 0 {
        signed(i64::from(score))
    } else {
        score.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn placements(text: &str) -> Vec<Placement> {
        (0..text.len())
            .step_by(5)
            .map(|i| text[i..i + 5].parse().unwrap())
            .collect()
    }

    /// The reason of a round from `before`: the player's placements against the computer's.
    fn reason_of(before: &str, played: &str, best: &str, rounds_left: usize) -> Reason {
        let (pr, br) = (placements(played), placements(best));
        let mut after_played = board(before);
        let mut after_best = board(before);
        for &q in &pr {
            after_played.place(q).unwrap();
        }
        for &q in &br {
            after_best.place(q).unwrap();
        }
        reason(&Round {
            played: &after_played,
            best: &after_best,
            played_round: &pr,
            best_round: &br,
            rounds_left,
        })
    }

    /// Column 1 a highway from exit A1 down to exit G1 but for D1, and a highway from exit D0
    /// towards D1: a T-junction at D1 joins all three.
    const COLUMN: &str = "A4A10A4B10A4C10A4G10A4F10A4E10A4D01";

    #[test]
    fn joining_exits_is_named_with_its_points() {
        // The player's round placed nothing there; the computer's T joins A1, G1 and D0: three
        // exits, 8 exit points (and 3 errors fewer, a highway 4 tiles longer: less).
        let r = reason_of(COLUMN, "", "A3D12", 3);
        assert_eq!(r.kind, ReasonKind::Exits, "{r:?}");
        assert_eq!(r.points, Some(8));
        assert_eq!(
            r.text,
            "The computer's round joins exits A1, G1 and D0 into one network (+8 exit points)."
        );
    }

    #[test]
    fn an_exit_joined_to_a_network_is_said_so() {
        // The player's straight joins A1 and G1 (4); the computer's T joins D0 to them too (8).
        let r = reason_of(COLUMN, "A4D10", "A3D12", 3);
        assert_eq!(r.kind, ReasonKind::Exits, "{r:?}");
        assert_eq!(r.points, Some(4));
        assert_eq!(
            r.text,
            "The computer's round joins exit D0 to the network of exits A1 and G1 (+4 exit points)."
        );
    }

    #[test]
    fn open_ends_and_a_better_board_now() {
        // The other way round: the player's T scores 5 more now than the computer's straight,
        // so the reason looks at what comes later, and says the scores in words.
        let r = reason_of(COLUMN, "A3D12", "A4D10", 2);
        assert_eq!(r.kind, ReasonKind::Later, "{r:?}");
        assert_eq!(r.points, None);
        assert_eq!(
            r.text,
            "Your round scores 5 more now (15 against 10), but the computer's board is worth \
             more over the 2 rounds left, by the strong player's evaluation."
        );
        // On the whole column, the player's highway from exit D0 runs into the side of D1: one
        // error more, in the last round.
        let whole = "A4A10A4B10A4C10A4D10A4E10A4F10A4G10";
        let r = reason_of(whole, "A4D01", "", 0);
        assert_eq!(r.kind, ReasonKind::Errors, "{r:?}");
        assert_eq!(r.points, Some(1));
        assert_eq!(
            r.text,
            "Your round leaves 1 more open end, an error at the end (\u{2212}1)."
        );
        let r = reason_of(whole, "A4D01", "", 3);
        assert_eq!(
            r.text,
            "Your round leaves 1 more open end, an error unless a later tile closes it (\u{2212}1 now)."
        );
    }

    #[test]
    fn two_networks_joined_are_both_named() {
        // Column 1 joins A1 and G1; column 5 (A5 to G5, highways too) is joined at D5 as well.
        let before = "A4A10A4B10A4C10A4G10A4F10A4E10A4A50A4B50A4C50A4G50A4F50A4E50";
        let r = reason_of(before, "", "A4D10A4D50", 3);
        assert_eq!(r.kind, ReasonKind::Exits, "{r:?}");
        assert_eq!(r.points, Some(8));
        assert_eq!(
            r.text,
            "The computer's round joins exits A1 and G1 into one network, and exits A5 and G5 \
             into another (+8 exit points)."
        );
    }

    #[test]
    fn the_same_round_in_any_order() {
        assert_eq!(as_good(true).kind, ReasonKind::Same);
        assert_eq!(as_good(false).kind, ReasonKind::AsGood);
        assert!(same_round(
            &placements("A4A10A4B10"),
            &placements("A4B10A4A10")
        ));
        assert!(!same_round(&placements("A4A10"), &placements("A4A11")));
    }
}
