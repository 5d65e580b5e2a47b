//! Pictures of boards: render time and PNG size per example board (each
//! game's starting board, and a ruling of each game with its changes
//! marked). Target: ≤ 20 ms and ≤ 300 KB each. Sizes are printed first.
//! Measured: boards 3.1–4.9 ms median, rulings 7.1–10.3 ms; 53–171 KB.
//!
//! `cargo bench --bench pictures`

use std::path::PathBuf;
use std::sync::OnceLock;

use arbiter::app::App;
use arbiter::engine::Ruling;
use arbiter::render::pictures;
use serde_json::Value;

const GAMES: [&str; 5] = ["ashes", "ti4", "magewinds", "legion", "grand-archive"];

/// One ruling example per game.
const RULINGS: [&str; 5] = [
    "ashes/attack-phoenixborn.yaml",
    "ti4/whole-phase-three-players.yaml",
    "magewinds/attack-step-visible.yaml",
    "legion/token-from-effect.yaml",
    "grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::load(&root().join("rules_data"), &[]).expect("rule data"))
}

fn start_board(game: &str) -> Value {
    let path = root().join(format!("examples/matches/{game}-start.yaml"));
    let text = std::fs::read_to_string(path).expect("example");
    app().judged_document(&text, None, None).expect("board")
}

fn ruling(example: &str) -> (Ruling, Value) {
    let text = std::fs::read_to_string(root().join("examples").join(example)).expect("example");
    let ruling = app().judge(&text, None).expect("ruling");
    let doc = app().judged_document(&text, None, None).expect("document");
    (ruling, doc)
}

fn main() {
    for g in GAMES {
        let p = pictures::board(g, &start_board(g)).expect("picture");
        println!(
            "board {g:<14} {}×{} {:>7} bytes",
            p.width,
            p.height,
            p.png.len()
        );
    }
    for e in RULINGS {
        let (r, doc) = ruling(e);
        let p = pictures::ruling(&r, &doc).expect("picture");
        println!(
            "ruling {e:<58} {}×{} {:>7} bytes",
            p.width,
            p.height,
            p.png.len()
        );
    }
    divan::main();
}

#[divan::bench(args = GAMES, sample_count = 20)]
fn board(bencher: divan::Bencher, game: &str) {
    let board = start_board(game);
    bencher.bench(|| pictures::board(game, divan::black_box(&board)).expect("picture"));
}

#[divan::bench(args = RULINGS, sample_count = 20)]
fn ruling_marked(bencher: divan::Bencher, example: &str) {
    let (r, doc) = ruling(example);
    bencher.bench(|| pictures::ruling(divan::black_box(&r), &doc).expect("picture"));
}
