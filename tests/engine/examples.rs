//! Every example board (`examples/<folder>/*.yaml`) judged as
//! `arbiter judge FILE --json` judges it (`App::judge`, card stats filled
//! in), its whole ruling kept as a snapshot in
//! `tests/engine/snapshots/examples/<folder>/<file>.snap` (issue 30).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use crate::{common, snapshot};

/// The folders of `examples/` that hold boards, each judged by a test below.
const FOLDERS: [&str; 6] = [
    "ashes",
    "grand-archive",
    "legion",
    "magewinds",
    "ti4",
    "matches",
];

/// The board files of `examples/<folder>`, sorted.
fn boards(folder: &str) -> Vec<std::path::PathBuf> {
    let dir = common::repo().join("examples").join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

/// What `arbiter judge FILE --json` prints for `file` (an input error as
/// the CLI's message, which goes to stderr with exit status 2).
fn cli_json(file: &Path) -> String {
    let input = std::fs::read_to_string(file).expect("the example reads");
    match common::app().judge(&input, None) {
        Ok(ruling) => snapshot::json(&ruling),
        Err(e) => format!("error: {e}"),
    }
}

/// Judges every board of `examples/<folder>` against its snapshot; all of
/// them are compared before the test fails, naming those that differ.
fn judge_folder(folder: &str) {
    let files = boards(folder);
    assert!(!files.is_empty(), "examples/{folder} holds no board");
    let mut differ = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        let json = cli_json(file);
        let dir = format!("examples/{folder}");
        if catch_unwind(AssertUnwindSafe(|| snapshot::check(&dir, &stem, &json))).is_err() {
            differ.push(format!("examples/{folder}/{stem}.yaml"));
        }
    }
    // A snapshot whose example is gone would never be compared again.
    let snaps = common::repo()
        .join("tests/engine/snapshots/examples")
        .join(folder);
    if let Ok(entries) = std::fs::read_dir(&snaps) {
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let Some(stem) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".snap"))
            else {
                continue;
            };
            assert!(
                files.iter().any(|f| f.file_stem().unwrap() == stem),
                "{} has no example examples/{folder}/{stem}.yaml: remove it",
                path.display()
            );
        }
    }
    assert!(
        differ.is_empty(),
        "rulings differ from their snapshots: {differ:?}"
    );
}

#[test]
fn every_example_folder_is_judged() {
    for entry in std::fs::read_dir(common::repo().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(
                FOLDERS.contains(&name),
                "examples/{name} is judged by no test of tests/engine/examples.rs"
            );
        }
    }
}

#[test]
fn ashes() {
    judge_folder("ashes");
}

#[test]
fn grand_archive() {
    judge_folder("grand-archive");
}

#[test]
fn legion() {
    judge_folder("legion");
}

#[test]
fn magewinds() {
    judge_folder("magewinds");
}

#[test]
fn ti4() {
    judge_folder("ti4");
}

#[test]
fn matches() {
    judge_folder("matches");
}
