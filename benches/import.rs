//! Upload → preview speed (divan): converting and previewing an MTG-sized
//! document (the Comprehensive Rules, 826 KB, ~3,400 passages) as text and
//! as a PDF. Run: `cargo bench --bench import`. Figures: docs/IMPORT.md.

#[allow(dead_code)]
#[path = "../tests/import_support/pdf.rs"]
mod pdf;

use std::path::PathBuf;
use std::sync::OnceLock;

use arbiter::app::App;
use arbiter::corpus::DocumentKind;
use arbiter::corpus::import::ImportRequest;
use divan::Bencher;

fn main() {
    divan::main();
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::load(&repo().join("rules_data"), &[]).expect("rules_data loads"))
}

fn mtg_text() -> &'static [u8] {
    static TEXT: OnceLock<Vec<u8>> = OnceLock::new();
    TEXT.get_or_init(|| {
        std::fs::read(repo().join("../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt"))
            .expect("the MTG corpus is at ../shared/corpora")
    })
}

fn mtg_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| {
        let text = String::from_utf8_lossy(mtg_text()).into_owned();
        pdf::from_text(text.trim_start_matches('\u{feff}'))
    })
}

fn preview(file_name: &str, bytes: &[u8]) -> usize {
    let req = ImportRequest {
        file_name,
        bytes,
        game: "mtg",
        kind: DocumentKind::Rules,
        title: None,
    };
    app().import(&req).expect("imports").preview.passages.len()
}

#[divan::bench(sample_count = 10)]
fn mtg_text_to_preview(b: Bencher) {
    b.bench(|| preview("cr.txt", divan::black_box(mtg_text())));
}

#[divan::bench(sample_count = 10)]
fn mtg_pdf_to_preview(b: Bencher) {
    b.bench(|| preview("cr.pdf", divan::black_box(mtg_pdf())));
}

/// A server's document: the first ~100 KB of the MTG rules, as Markdown
/// would be stored (a new game's rules).
fn server_document() -> arbiter::corpus::SourceGame {
    let head = &mtg_text()[..100 * 1024];
    let cut = head.iter().rposition(|&b| b == b'\n').unwrap_or(0);
    let req = ImportRequest {
        file_name: "server.txt",
        bytes: &head[..cut],
        game: "mtg",
        kind: DocumentKind::House,
        title: Some("Server rules"),
    };
    app().import(&req).expect("imports").game
}

fn shipped() -> Vec<arbiter::corpus::SourceGame> {
    arbiter::load::load_dir(&repo().join("rules_data")).expect("rules_data loads")
}

/// After Confirm: a server's index (the shipped games plus a 100 KB
/// document) is built on its next request.
#[divan::bench(sample_count = 10)]
fn server_index_with_100kb_document(b: Bencher) {
    let (base, doc) = (shipped(), server_document());
    b.bench(|| {
        let mut sources = base.clone();
        sources.push(doc.clone());
        App::new(arbiter::corpus::Corpus::build(sources))
            .corpus
            .passages
            .len()
    });
}

/// `/rule` in a server whose index holds the whole MTG rules.
#[divan::bench(sample_count = 200)]
fn search_in_a_server_index_at_mtg_size(b: Bencher) {
    static APP: OnceLock<App> = OnceLock::new();
    let app = APP.get_or_init(|| {
        let mut sources = shipped();
        let req = ImportRequest {
            file_name: "cr.txt",
            bytes: mtg_text(),
            game: "mtg",
            kind: DocumentKind::Rules,
            title: None,
        };
        sources.push(app().import(&req).expect("imports").game);
        App::new(arbiter::corpus::Corpus::build(sources))
    });
    b.bench(|| {
        app.ask(
            divan::black_box("what happens when a creature with trample is blocked"),
            None,
            3,
        )
    });
}

/// Resident memory of 100 servers' indexes, each the shipped games plus a
/// 100 KB document (printed once; the cache keeps 64 by default).
#[divan::bench(sample_count = 1)]
fn hundred_server_indexes_resident(b: Bencher) {
    fn rss_mb() -> f64 {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
        let pages: f64 = statm
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0.0);
        pages * 4096.0 / (1024.0 * 1024.0)
    }
    let (base, doc) = (shipped(), server_document());
    b.bench(|| {
        let before = rss_mb();
        let apps: Vec<App> = (0..100)
            .map(|_| {
                let mut sources = base.clone();
                sources.push(doc.clone());
                App::new(arbiter::corpus::Corpus::build(sources))
            })
            .collect();
        eprintln!(
            "100 server indexes: +{:.0} MB resident ({:.0} MB in all)",
            rss_mb() - before,
            rss_mb()
        );
        apps.len()
    });
}
