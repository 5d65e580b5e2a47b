//! Snapshots of whole rulings (issue 30): the safety net for refactoring
//! the engines. Every board a test of this binary judges through its
//! file's helper, and every example board, is kept as the ruling's JSON,
//! exactly as `arbiter judge FILE --json` prints it (steps, citations,
//! diagnostics, pending decision, board after the play, changes, status),
//! in `tests/engine/snapshots/`. A change of behaviour fails the test that
//! made the ruling, with the diff.
//!
//! Reviewing and updating them: docs/ARCHITECTURE.md, "Tests". In CI
//! (`CI` set, `INSTA_UPDATE=no` in `.ci/run`) insta writes nothing and a
//! missing snapshot fails.

use std::cell::RefCell;
use std::collections::BTreeMap;

use arbiter::engine::Ruling;

/// The ruling as the CLI's `--json` prints it (`src/main.rs`, `json`).
pub fn json(r: &Ruling) -> String {
    serde_json::to_string_pretty(r).expect("a ruling serializes")
}

/// Compares `text` with the snapshot `dir/name.snap` (relative to
/// `tests/engine/snapshots`).
pub fn check(dir: &str, name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(format!("snapshots/{dir}"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

thread_local! {
    /// Snapshots taken so far by the running test (libtest runs each test
    /// on a thread of its own, named after it).
    static TAKEN: RefCell<BTreeMap<String, usize>> = const { RefCell::new(BTreeMap::new()) };
}

/// Snapshots a ruling made by the running test: `snapshots/<file>/<test>.snap`
/// for the first, `<test>-2.snap`, `<test>-3.snap`… for the next ones, in
/// the order the test makes them. Called by each engine file's judging
/// helper; never from a proptest (its boards are random).
pub fn ruling(r: &Ruling) {
    let thread = std::thread::current();
    let test = thread
        .name()
        .filter(|n| *n != "main")
        .expect("a ruling is snapshotted on its test's own thread (named after the test)");
    // `engine_ashes::garbage::name`: the file, then the test within it.
    let (file, name) = test
        .split_once("::")
        .expect("a test of tests/engine is in one of its files");
    let n = TAKEN.with(|t| {
        let mut t = t.borrow_mut();
        let n = t.entry(test.to_string()).or_default();
        *n += 1;
        *n
    });
    let name = name.replace("::", "__");
    let name = if n == 1 { name } else { format!("{name}-{n}") };
    check(file, &name, &json(r));
}
