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
