//! Plays one seeded game with an agent and prints its board and breakdown.
//!
//! `cargo run --release -p railroad-ink --example ai_show -- AGENT SEED`

use railroad_ink::ai::{Agent, agent_by_name, play_game};
use railroad_ink::{Dice, Side, Square};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("strong", String::as_str);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let rolls = Dice::Seed(seed).rolls();
    let mut agent: Box<dyn Agent + Send> = if name == "strong" {
        let mut a = railroad_ink::ai::strong::StrongAgent::default();
        if let Ok(path) = std::env::var("INK_MODEL") {
            a.search.model = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        }
        if let Some(beam) = std::env::var("BEAM").ok().and_then(|b| b.parse().ok()) {
            a.search.beam = beam;
        }
        if let Ok(look) = std::env::var("LOOK") {
            let v: Vec<usize> = look.split(',').map(|x| x.parse().unwrap()).collect();
            a.lookahead = Some(railroad_ink::ai::strong::Lookahead {
                candidates: v[0],
                samples: v[1],
                beam: v[2],
            });
        }
        Box::new(a)
    } else {
        agent_by_name(name, seed).expect("known agent")
    };
    let game = play_game(agent.as_mut(), rolls).unwrap();
    let p = game.player(0).unwrap();
    for (r, round) in p.rounds().iter().enumerate() {
        let text: String = round.iter().map(|p| p.to_string()).collect();
        println!("round {r}: {} -> {text}", rolls[r]);
    }
    let board = p.board();
    // Each square as 3×3 characters: route edges as lines, H as '=', R as '#'.
    for row in 0..7u8 {
        let mut lines = [String::new(), String::new(), String::new()];
        for col in 0..7u8 {
            let sq = Square::new(row, col).unwrap();
            let e = |s: Side| match board.edge(sq, s).route() {
                Some(railroad_ink::Route::Highway) => 'H',
                Some(railroad_ink::Route::Railway) => 'r',
                None => ' ',
            };
            let centre = match board.get(sq) {
                Some(p) if p.tile.is_station() => 'S',
                Some(p) if p.tile.is_overpass() => 'X',
                Some(_) => '+',
                None => {
                    if sq.is_centre() {
                        ':'
                    } else {
                        '.'
                    }
                }
            };
            lines[0].push_str(&format!(" {} ", e(Side::N)));
            lines[1].push_str(&format!("{}{}{}", e(Side::W), centre, e(Side::E)));
            lines[2].push_str(&format!(" {} ", e(Side::S)));
        }
        for l in lines {
            println!("{l}");
        }
    }
    let b = board.breakdown();
    println!("{:?}", b.score);
    for n in b.networks.iter().filter(|n| !n.exits.is_empty()) {
        println!(
            "network {} exits {:?}",
            n.exits.len(),
            n.exits
                .iter()
                .map(|e| e.square.to_string())
                .collect::<Vec<_>>()
        );
    }
}
