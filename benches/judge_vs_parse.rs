//! A board document is parsed once per request: for each game's typical
//! board, YAML text → ruling against parsing that YAML alone (issue target:
//! at most 1.3×). Run with `cargo bench --bench judge_vs_parse`.

use arbiter::engine::document;

fn main() {
    divan::main();
}

/// One typical example board per game.
const BOARDS: &[(&str, &str)] = &[
    (
        "ashes",
        include_str!("../examples/ashes/attack-phoenixborn.yaml"),
    ),
    (
        "ti4",
        include_str!("../examples/ti4/strategic-action-warfare.yaml"),
    ),
    (
        "magewinds",
        include_str!("../examples/magewinds/attack-step-visible.yaml"),
    ),
    (
        "legion",
        include_str!("../examples/legion/vader-relentless.yaml"),
    ),
    (
        "grand-archive",
        include_str!("../examples/grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml"),
    ),
];

fn board(game: &str) -> &'static str {
    BOARDS
        .iter()
        .find(|(g, _)| *g == game)
        .map(|(_, b)| *b)
        .unwrap_or_default()
}

#[divan::bench(args = ["ashes", "ti4", "magewinds", "legion", "grand-archive"])]
fn parse_yaml_alone(bencher: divan::Bencher, game: &str) {
    let text = board(game);
    bencher.bench_local(|| document::parse_value(divan::black_box(text)));
}

#[divan::bench(args = ["ashes", "ti4", "magewinds", "legion", "grand-archive"])]
fn yaml_to_ruling(bencher: divan::Bencher, game: &str) {
    let text = board(game);
    let engine = arbiter::engine::engine(game).expect("registered");
    bencher.bench_local(|| engine.judge_text(divan::black_box(text)));
}
