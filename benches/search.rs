//! Index build, search and completion speed (divan). Run: `cargo bench --bench search`.
//! Figures are recorded in docs/SEARCH.md.

use std::path::PathBuf;
use std::sync::OnceLock;

use arbiter::app::App;
use arbiter::corpus::{Corpus, SourceGame};
use arbiter::load;
use arbiter::search::Index;
use divan::Bencher;

fn main() {
    divan::main();
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn seed_sources() -> Vec<SourceGame> {
    load::load_dir(&repo().join("rules_data")).expect("rules_data loads")
}

fn mtg_sources() -> Vec<SourceGame> {
    load::load_dir(&repo().join("tests/fixtures/mtg"))
        .expect("the MTG corpus is at ../shared/corpora")
}

fn seeds_app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::new(Corpus::build(seed_sources())))
}

fn mtg_app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::new(Corpus::build(mtg_sources())))
}

const SEED_QUESTIONS: &[&str] = &[
    "can an exhausted phoenixborn guard?",
    "can I pass before I've used my strat card",
    "how far can my fighter move if it starts within 1 inch of an enemy",
    "vader relentless free attack, can he attack again with his last action",
    "can I refuse to pay the tariff ring cost",
    "what is the mulligan rule",
];

const MTG_QUESTIONS: &[&str] = &[
    "how does trample assign damage with deathtouch",
    "what happens when a player has 0 life",
    "can I respond to a mana ability",
    "how many cards in opening hand after a mulligan",
    "does first strike deal damage before regular combat damage",
    "what is the legend rule",
    // Issue 29: symbol tokens, and a question in two parts.
    "do +1/+1 and -1/-1 counters on the same creature cancel out",
    "two quick ones. 1) does vigilance let my guy block after attacking 2) does lifelink work on blocks",
];

/// Parse and index the five seeds (text already read).
#[divan::bench]
fn build_index_seeds(b: Bencher) {
    let sources = seed_sources();
    b.bench(|| {
        let corpus = Corpus::build(sources.clone());
        Index::build(&corpus)
    });
}

/// Parse and index the MTG Comprehensive Rules (text already read).
#[divan::bench(sample_count = 20)]
fn build_index_mtg(b: Bencher) {
    let sources = mtg_sources();
    b.bench(|| {
        let corpus = Corpus::build(sources.clone());
        Index::build(&corpus)
    });
}

#[divan::bench(args = SEED_QUESTIONS)]
fn ask_seeds(q: &str) {
    divan::black_box(seeds_app().ask(q, None, 3).ok());
}

/// Text that is no rules question (another script, emoji, code, a 2,000
/// character chat message): each gets "none" or "closest" without a
/// search's worth of work per word (tests/it/search.rs checks the labels;
/// this measures the time, which a test under a loaded machine cannot).
#[divan::bench(args = ["jp", "ru", "emoji", "code", "chat"])]
fn ask_not_a_question(b: Bencher, which: &str) {
    let chat: String = "hey guys so yesterday we played a long game and it was fun lol, anyway "
        .repeat(28)
        .chars()
        .take(2000)
        .collect();
    let q = match which {
        "jp" => "これはルールの質問ですか？ 攻撃できますか".to_string(),
        "ru" => "Можно ли атаковать истощённым юнитом?".to_string(),
        "emoji" => "🔥🔥🔥 😂😂".to_string(),
        "code" => "```rust\nfn main() { let guard = attack(); }\n```".to_string(),
        _ => chat,
    };
    b.bench(|| divan::black_box(seeds_app().ask(&q, None, 3).ok()));
}

#[divan::bench(args = MTG_QUESTIONS)]
fn ask_mtg(q: &str) {
    divan::black_box(mtg_app().ask(q, Some("mtg"), 3).ok());
}

/// MTG with the semantic stage (feature `semantic`): loaded as `arbiter`
/// loads it (the model, the fixture's vectors computed ahead).
#[cfg(feature = "semantic")]
fn mtg_semantic_app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| {
        let app = App::load(&repo().join("tests/fixtures/mtg"), &[]).expect("MTG loads");
        assert!(app.index.semantic().is_some(), "the model loads");
        app
    })
}

/// `ask` with the semantic stage, the question's vector not cached: what a
/// new question costs.
#[cfg(feature = "semantic")]
#[divan::bench(args = MTG_QUESTIONS)]
fn ask_mtg_semantic(b: Bencher, q: &str) {
    let app = mtg_semantic_app();
    b.bench(|| {
        if let Some(s) = app.index.semantic() {
            s.clear_cache();
        }
        divan::black_box(app.ask(q, Some("mtg"), 3).ok())
    });
}

/// The same question asked again: its vector cached.
#[cfg(feature = "semantic")]
#[divan::bench(args = MTG_QUESTIONS)]
fn ask_mtg_semantic_cached(q: &str) {
    divan::black_box(mtg_semantic_app().ask(q, Some("mtg"), 3).ok());
}

#[divan::bench(args = ["atk unit", "ashes:pa", "guard", "13.4", "strategy card"])]
fn complete_seeds(partial: &str) {
    divan::black_box(seeds_app().complete(partial, None, 25).ok());
}
