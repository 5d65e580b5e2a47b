//! The search evaluation report: per game and overall, tuning and held-out,
//! our search and a plain BM25 baseline (tests/eval/mod.rs).
//!
//! `cargo run --release --example search_eval` prints the tables (MTG too
//! when ../shared holds the corpus). `-- --misses` also lists the tuning
//! questions our search gets wrong; held-out misses are never listed, so
//! nobody tunes on them.

#[path = "../tests/eval/mod.rs"]
mod eval;

use std::path::PathBuf;

use arbiter::app::App;

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let show_misses = std::env::args().any(|a| a == "--misses");
    let cases = eval::cases(&repo);
    let mut report = eval::Report::default();
    let seeds = App::load(&repo.join("rules_data"), &[]).expect("rules_data loads");
    let five: Vec<&eval::Case> = cases.iter().filter(|c| !c.is_mtg()).collect();
    eval::run(&seeds, &five, &mut report);
    let mtg_dir = repo.join("tests/fixtures/mtg");
    match App::load(&repo.join("rules_data"), &[mtg_dir]) {
        Ok(app) if app.corpus.game("mtg").is_some() => {
            let mtg: Vec<&eval::Case> = cases.iter().filter(|c| c.is_mtg()).collect();
            eval::run(&app, &mtg, &mut report);
        }
        _ => eprintln!("(MTG skipped: the corpus is not at ../shared/corpora)"),
    }
    println!("{}", report.table());
    if show_misses {
        println!("\ntuning questions answered wrongly or not labelled \"answer\":");
        for (split, game, q, got, want, conf) in &report.misses {
            if split == "tuning" {
                println!("{game:<14} {conf:?}  {q}\n      got {got:?}\n      want {want:?}");
            }
        }
    }
}
