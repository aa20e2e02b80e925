//! Criterion benchmarks of the Metro engine. Run with `cargo bench -p metro`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use metro::{Board, Config, Game, PlayerCount, Score, Sequence, Tile, play_random, scores};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The first complete game of the conformance corpus.
const GAME: &str = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";

fn board_of(placements: usize) -> Board {
    let seq: Sequence = GAME.parse().expect("well-formed");
    let prefix =
        Sequence::from_placements(seq.placements()[..placements].to_vec()).expect("counts");
    Board::from_sequence(&prefix).expect("valid")
}

fn score(c: &mut Criterion) {
    let full = board_of(60);
    let mut group = c.benchmark_group("score a complete board");
    for n in PlayerCount::all() {
        group.bench_function(format!("{n} players"), |b| {
            b.iter(|| scores(black_box(&full), n))
        });
    }
    let four = PlayerCount::new(4).expect("4 players");
    group.bench_function("4 players, with every line's squares", |b| {
        b.iter(|| Score::new(black_box(&full), four))
    });
    group.finish();
}

fn legal(c: &mut Criterion) {
    let mid = board_of(30);
    let cccc: Tile = "cccc".parse().expect("a tile");
    let mut group = c.benchmark_group("legal placements, mid-game board (30 tiles)");
    group.bench_function("one tile, every square", |b| {
        b.iter(|| black_box(&mid).legal_squares(black_box(cccc)))
    });
    group.bench_function("all 24 tiles, every square", |b| {
        b.iter(|| Tile::ALL.map(|t| black_box(&mid).legal_squares(t)))
    });
    group.finish();
}

fn game(c: &mut Criterion) {
    let four = Config::new(PlayerCount::new(4).expect("4 players"));
    let mut seed = 0u64;
    c.bench_function("whole random 4-player game", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = Game::new(four, seed);
            play_random(&mut game, &mut ChaCha8Rng::seed_from_u64(seed));
            black_box(game.scores())
        })
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = score, legal, game
}
criterion_main!(benches);
