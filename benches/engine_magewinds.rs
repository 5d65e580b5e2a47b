//! Magewinds engine benchmarks: a whole 12-activation Action Phase (target
//! < 1 ms), a single activation, and one-line notation parsing.

use arbiter::engine::{Asking, GameEngine, document};

const FULL_PHASE: &str = include_str!("../examples/magewinds/full-phase.yaml");
const ONE_PLAY: &str = include_str!("../examples/magewinds/attack-step-visible.yaml");

fn main() {
    divan::main();
}

/// Parse, validate and adjudicate the 12 activations (with two guarded
/// reactions), then diff the state.
#[divan::bench]
fn twelve_activation_phase() -> bool {
    let r = arbiter::engine::magewinds::ENGINE
        .judge_text(divan::black_box(FULL_PHASE))
        .expect("valid board");
    assert!(r.legal);
    r.legal
}

#[divan::bench]
fn one_activation() -> bool {
    arbiter::engine::magewinds::ENGINE
        .judge_text(divan::black_box(ONE_PLAY))
        .map(|r| r.legal)
        .unwrap_or(false)
}

#[divan::bench]
fn notation_line(bencher: divan::Bencher) {
    let board = document::parse_value(ONE_PLAY).expect("yaml");
    bencher.bench(|| {
        arbiter::engine::magewinds::ENGINE.parse_notation(
            divan::black_box("activate pyro attack shade with fire bolt; step 0.8; visible Shade"),
            &board,
        )
    });
}

/// Only parsing the board document (the rest of `twelve_activation_phase`
/// is reading the typed board, the procedure and the state diff).
#[divan::bench]
fn twelve_activation_phase_parse_only() -> bool {
    document::parse_value(divan::black_box(FULL_PHASE)).is_ok()
}

/// Only the typed read, the procedure and the state diff, on an already
/// parsed document.
#[divan::bench]
fn twelve_activation_phase_procedure_only(bencher: divan::Bencher) {
    let doc = document::parse_value(FULL_PHASE).expect("valid board");
    let asking = Asking::judge();
    bencher.with_inputs(|| doc.clone()).bench_values(|d| {
        arbiter::engine::magewinds::ENGINE
            .judge(d, None, &asking)
            .map(|r| r.legal)
            .unwrap_or(false)
    });
}
