//! The search evaluation report: per game and overall, tuning and held-out,
//! our search and a plain BM25 baseline (tests/eval/mod.rs).
//!
//! `cargo run --release --example search_eval` prints the tables (MTG too
//! when ../shared holds the corpus). `-- --misses` also lists the tuning
//! questions our search gets wrong; held-out misses are never listed, so
//! nobody tunes on them. Held-out tables are printed only with `--all`;
//! `--calibrate` prints the evidence behind each tuning question's label.

#[path = "../tests/eval/mod.rs"]
mod eval;

use std::path::PathBuf;

use arbiter::app::App;

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = std::env::args().collect();
    let show_misses = args.iter().any(|a| a == "--misses");
    let calibrate = args.iter().any(|a| a == "--calibrate");
    let cases = eval::cases(&repo);
    let mut report = eval::Report::default();
    let seeds = App::load(&repo.join("rules_data"), &[]).expect("rules_data loads");
    let five: Vec<&eval::Case> = cases.iter().filter(|c| !c.is_mtg()).collect();
    eval::run(&seeds, &five, &mut report);
    if calibrate {
        evidence(&seeds, &five);
    }
    let mtg_dir = repo.join("tests/fixtures/mtg");
    match App::load(&repo.join("rules_data"), &[mtg_dir]) {
        Ok(app) if app.corpus.game("mtg").is_some() => {
            let mtg: Vec<&eval::Case> = cases.iter().filter(|c| c.is_mtg()).collect();
            eval::run(&app, &mtg, &mut report);
            if calibrate {
                evidence(&app, &mtg);
            }
        }
        _ => eprintln!("(MTG skipped: the corpus is not at ../shared/corpora)"),
    }
    // Held-out figures only when asked: tuning looks at the tuning part.
    let splits: &[&str] = if args.iter().any(|a| a == "--all") {
        &["held-out", "tuning"]
    } else {
        &["tuning"]
    };
    println!("{}", report.table(splits));
    if show_misses {
        println!("\ntuning questions answered wrongly or not labelled \"answer\":");
        for m in report.misses.iter().filter(|m| m.split == "tuning") {
            println!(
                "{:<14} {:?}  {}\n      got {:?}\n      want {:?}",
                m.game, m.confidence, m.q, m.got, m.want
            );
        }
    }
}

/// The evidence behind each tuning question's label, for setting thresholds:
/// kind (hit, miss, uncovered), coverage, highlight share, margin, terms.
fn evidence(app: &App, cases: &[&eval::Case]) {
    use arbiter::search::SearchOptions;
    for c in cases.iter().filter(|c| c.split == "tuning") {
        let opts = SearchOptions {
            game: c.ask_game.then(|| c.game.clone()),
            limit: 3,
        };
        let out = app.index.search(&app.corpus, &c.q, &opts);
        let kind = if !c.answerable() {
            "uncovered"
        } else if out
            .hits
            .iter()
            .any(|h| c.expect.contains(&app.corpus.passages[h.passage].id))
        {
            "hit"
        } else {
            "miss"
        };
        match out.evidence {
            Some(e) => println!(
                "EVID\t{kind}\t{:.2}\t{:.2}\t{:.2}\t{}\t{}\t{:?}\t{}\t{}\t{:.1}\t{}\t{:.2}",
                e.coverage,
                e.highlight,
                e.margin,
                e.terms,
                e.unknown_topics,
                out.confidence,
                c.q,
                e.rivals,
                e.weight,
                c.game,
                e.strength
            ),
            None => println!(
                "EVID\t{kind}\t-\t-\t-\t-\t-\tNone\t{}\t-\t-\t{}",
                c.q, c.game
            ),
        }
    }
}
