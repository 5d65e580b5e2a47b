//! Ashes Reborn engine speed: adjudicating a 3-attacker Attack a Phoenixborn
//! from a parsed document (target < 50 µs median), parsing a typical board
//! document, and the whole YAML → ruling path. Run with
//! `cargo bench --bench engine_ashes`.

use arbiter::engine::{Asking, GameEngine, document};

fn main() {
    divan::main();
}

const BOARD: &str = include_str!("../examples/ashes/attack-phoenixborn.yaml");

fn ashes() -> &'static dyn GameEngine {
    arbiter::engine::engine("ashes").expect("registered")
}

#[divan::bench]
fn adjudicate_3_attacker_attack_phoenixborn(bencher: divan::Bencher) {
    let doc = document::parse_value(BOARD).expect("example board parses");
    let asking = Asking::judge();
    bencher.bench_local(|| ashes().judge(divan::black_box(doc.clone()), None, &asking));
}

#[divan::bench]
fn parse_typical_board(bencher: divan::Bencher) {
    bencher.bench_local(|| document::parse_value(divan::black_box(BOARD)));
}

#[divan::bench]
fn judge_document_end_to_end(bencher: divan::Bencher) {
    bencher.bench_local(|| ashes().judge_text(divan::black_box(BOARD)));
}

/// A ruling's state fed back as JSON (match tracking).
#[divan::bench]
fn parse_json_board(bencher: divan::Bencher) {
    let text = serde_json::to_string(&document::parse_value(BOARD).expect("parses")).expect("json");
    bencher.bench_local(|| document::parse_value(divan::black_box(&text)));
}
