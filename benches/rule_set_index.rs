//! A server's rule-set index (issue 27): heap bytes per MB of indexed text
//! and build time per MB, on the MTG Comprehensive Rules (826 KB) and on a
//! server holding six rulebooks of that size (4.8 MB of text, six games).
//! Bytes are what the index keeps (`arbiter::heap::retained`, the
//! allocator's count), beyond the shipped games' own index.
//! Then two servers at their 25 MB quota (each 31 copies of the MTG rules
//! as 31 games, 24.4 MB of text): the two indexes' bytes and the process's
//! peak resident memory with both loaded.
//! Run: `cargo bench --bench rule_set_index`. Figures: docs/ROBUSTNESS.md.

use std::path::PathBuf;
use std::sync::OnceLock;

use arbiter::app::App;
use arbiter::corpus::{Corpus, SourceGame};
use divan::Bencher;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped() -> &'static Vec<SourceGame> {
    static S: OnceLock<Vec<SourceGame>> = OnceLock::new();
    S.get_or_init(|| arbiter::load::load_dir(&repo().join("rules_data")).expect("rules_data"))
}

/// The MTG rules as `copies` games (`mtg1`, `mtg2`, …).
fn mtg(copies: usize) -> Vec<SourceGame> {
    let one = arbiter::load::load_game(&repo().join("tests/fixtures/mtg"))
        .expect("the MTG corpus is at ../shared/corpora");
    (1..=copies)
        .map(|k| {
            let mut g = one.clone();
            g.manifest.game = format!("mtg{k}");
            g.manifest.name = format!("Magic {k}");
            g.manifest.aliases.clear();
            g
        })
        .collect()
}

fn sources(copies: usize) -> Vec<SourceGame> {
    let mut s = shipped().clone();
    s.extend(mtg(copies));
    s
}

fn text_bytes(games: &[SourceGame]) -> usize {
    games
        .iter()
        .flat_map(|g| &g.documents)
        .map(|d| d.text.len())
        .sum()
}

/// Heap bytes an App keeps for `sources` (after a warm-up build).
fn app_bytes(sources: &[SourceGame]) -> usize {
    let (app, bytes) = arbiter::heap::retained(|| App::new(Corpus::build(sources.to_vec())));
    drop(app);
    bytes
}

fn report() {
    drop(App::new(Corpus::build(shipped().clone())));
    let base = app_bytes(shipped());
    for copies in [1, 6] {
        let docs = mtg(copies);
        let text = text_bytes(&docs);
        let started = std::time::Instant::now();
        let bytes = app_bytes(&sources(copies)).saturating_sub(base);
        let took = started.elapsed();
        let mb = text as f64 / (1024.0 * 1024.0);
        println!(
            "{copies} × MTG: {:.2} MB of text → index {:.1} MB ({:.2}× the text), built in {:.2} s ({:.2} s per MB)",
            mb,
            bytes as f64 / (1024.0 * 1024.0),
            bytes as f64 / text as f64,
            took.as_secs_f64(),
            took.as_secs_f64() / mb
        );
    }
}

/// This process's peak resident set (Linux), in MB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// Two servers at quota, both indexes alive at once (as in the cache).
fn two_servers_at_quota() {
    let base = app_bytes(shipped());
    let per_server = sources(31);
    let text = text_bytes(&mtg(31));
    let before = peak_rss_mb();
    let (apps, bytes) = arbiter::heap::retained(|| {
        [
            App::new(Corpus::build(per_server.clone())),
            App::new(Corpus::build(per_server.clone())),
        ]
    });
    let index = bytes.saturating_sub(2 * base) as f64 / (1024.0 * 1024.0);
    println!(
        "2 servers × {:.1} MB of text: indexes {:.0} MB ({:.2}× the text); peak RSS {:.0} MB (before: {:.0} MB)",
        text as f64 / (1024.0 * 1024.0),
        index,
        index * 1024.0 * 1024.0 / (2 * text) as f64,
        peak_rss_mb().unwrap_or(0.0),
        before.unwrap_or(0.0),
    );
    drop(apps);
}

fn main() {
    report();
    two_servers_at_quota();
    divan::main();
}

#[divan::bench(sample_count = 5)]
fn build_mtg(b: Bencher) {
    let s = sources(1);
    b.bench(|| App::new(Corpus::build(divan::black_box(s.clone()))));
}

#[divan::bench(sample_count = 3)]
fn build_six_rulebooks(b: Bencher) {
    let s = sources(6);
    b.bench(|| App::new(Corpus::build(divan::black_box(s.clone()))));
}
