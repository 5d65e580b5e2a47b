//! Magewinds engine benchmarks: a whole 12-activation Action Phase (target
//! < 1 ms), a single activation, and one-line notation parsing.

use arbiter::engine::GameEngine;

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
    let board: serde_json::Value = serde_saphyr::from_str(ONE_PLAY).expect("yaml");
    bencher.bench(|| {
        arbiter::engine::magewinds::ENGINE.parse_notation(
            divan::black_box("activate pyro attack shade with fire bolt; step 0.8; visible Shade"),
            &board,
        )
    });
}

/// Only parsing the board document (the rest of `twelve_activation_phase`
/// is the procedure and the state diff).
#[divan::bench]
fn twelve_activation_phase_parse_only() -> bool {
    arbiter::engine::document::parse::<arbiter::engine::magewinds::Board>(divan::black_box(
        FULL_PHASE,
    ))
    .is_ok()
}

/// Only the procedure and the state diff, on an already parsed board.
#[divan::bench]
fn twelve_activation_phase_procedure_only(bencher: divan::Bencher) {
    let board: arbiter::engine::magewinds::Board =
        arbiter::engine::document::parse(FULL_PHASE).expect("valid board");
    bencher.with_inputs(|| board.clone()).bench_values(|b| {
        arbiter::engine::magewinds::judge_board(b)
            .map(|r| r.legal)
            .unwrap_or(false)
    });
}
