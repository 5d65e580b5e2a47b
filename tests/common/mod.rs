//! Shared test helpers: the shipped corpus, loaded once per test binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbiter::app::App;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::load(&repo().join("rules_data"), &[]).expect("shipped rule data loads"))
}

/// The MTG Comprehensive Rules fixture (../shared/corpora beside the repo).
pub fn mtg_dir() -> PathBuf {
    repo().join("tests/fixtures/mtg")
}

pub fn mtg_text_path() -> PathBuf {
    repo().join("../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt")
}

pub fn exists(p: &Path) -> bool {
    p.is_file()
}
