//! Ashes Reborn engine speed: adjudicating a 3-attacker Attack a Phoenixborn
//! from a parsed board (target < 50 µs median) and parsing a typical board
//! document (target < 100 µs). Run with `cargo bench --bench engine_ashes`.

use arbiter::engine::ashes::{adjudicate, parse_board};

fn main() {
    divan::main();
}

const BOARD: &str = include_str!("../examples/ashes/attack-phoenixborn.yaml");

#[divan::bench]
fn adjudicate_3_attacker_attack_phoenixborn(bencher: divan::Bencher) {
    let board = parse_board(BOARD).expect("example board parses");
    bencher.bench_local(|| adjudicate(divan::black_box(&board)));
}

#[divan::bench]
fn parse_typical_board(bencher: divan::Bencher) {
    bencher.bench_local(|| parse_board(divan::black_box(BOARD)));
}

#[divan::bench]
fn judge_document_end_to_end(bencher: divan::Bencher) {
    let engine = arbiter::engine::engine("ashes").expect("registered");
    bencher.bench_local(|| engine.judge_text(divan::black_box(BOARD)));
}

/// A ruling's state fed back as JSON (match tracking).
#[divan::bench]
fn parse_json_board(bencher: divan::Bencher) {
    let board = parse_board(BOARD).expect("example board parses");
    let mut v = serde_json::to_value(&board).expect("serializable");
    v["play"] = serde_json::to_value(&board.play).expect("serializable");
    let text = serde_json::to_string(&v).expect("serializable");
    bencher.bench_local(|| parse_board(divan::black_box(&text)));
}
