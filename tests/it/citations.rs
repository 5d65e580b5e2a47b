//! Citations are exact: every rule an engine can cite exists in the index,
//! every quote it relies on is verbatim passage text, and every ruling on
//! every shipped example cites only those rules. Rulings' states are valid
//! board documents again (match tracking feeds them back).

use crate::common;

use std::collections::HashSet;

use arbiter::engine::{self, Severity};

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_shipped_game_has_an_engine() {
    let corpus = &common::app().corpus;
    for g in &corpus.games {
        assert!(engine::engine(&g.id).is_some(), "{} has no engine", g.id);
    }
}

#[test]
fn every_rule_an_engine_can_cite_exists_and_quotes_are_verbatim() {
    let corpus = &common::app().corpus;
    for e in engine::engines() {
        assert!(!e.rule_uses().is_empty(), "{} cites nothing", e.game());
        for u in e.rule_uses() {
            let p = corpus
                .get(u.rule)
                .unwrap_or_else(|| panic!("{}: {} is not in the index", e.game(), u.rule));
            assert_eq!(
                p.game,
                e.game(),
                "{} cites another game's rule {}",
                e.game(),
                u.rule
            );
            assert!(
                collapse(&p.text).contains(&collapse(u.quote)),
                "{}: the quote for {} ({}) is not verbatim:\n  quote: {}\n  text:  {}",
                e.game(),
                u.rule,
                u.procedure,
                u.quote,
                p.text
            );
        }
    }
}

#[test]
fn every_example_ruling_cites_only_declared_indexed_rules() {
    let app = common::app();
    for e in engine::engines() {
        let declared: HashSet<&str> = e.rule_uses().iter().map(|u| u.rule).collect();
        let dir = common::repo().join("examples").join(e.game());
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no examples in {}", e.game(), dir.display()))
            .filter_map(Result::ok)
            .map(|f| f.path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
            })
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{} has no example boards", e.game());
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let ruling = app
                .judge(&text, None)
                .unwrap_or_else(|err| panic!("{}: {err}", f.display()));
            let cited = ruling
                .steps
                .iter()
                .map(|s| s.rule.as_str())
                .chain(ruling.diagnostics.iter().filter_map(|d| d.rule.as_deref()));
            for rule in cited {
                assert!(
                    declared.contains(rule),
                    "{}: cites {rule}, not in rule_uses()",
                    f.display()
                );
                assert!(
                    app.corpus.get(rule).is_some(),
                    "{}: cites {rule}, not indexed",
                    f.display()
                );
            }
            let errors = ruling
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error);
            assert_eq!(
                ruling.legal,
                !errors,
                "{}: legal must mean no error diagnostics",
                f.display()
            );
            // The resulting state is itself a board document of the game.
            let state = serde_json::to_string(&ruling.state).unwrap();
            app.judge(&state, None).unwrap_or_else(|err| {
                panic!(
                    "{}: the ruling's state is not a valid board: {err}",
                    f.display()
                )
            });
        }
    }
}

#[test]
fn illegal_example_rulings_leave_the_board_unchanged() {
    let app = common::app();
    for e in engine::engines() {
        let dir = common::repo().join("examples").join(e.game());
        for f in std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|f| f.path())
        {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            let Ok(ruling) = app.judge(&text, None) else {
                continue;
            };
            if !ruling.legal {
                // The one record an illegal play may leave is the one the rules
                // attach to the attempt itself: Grand Archive 1.4 ("If the attack
                // is deemed illegal, no further attempts are necessary").
                let changed: Vec<_> = ruling
                    .changes
                    .iter()
                    .filter(|c| !(e.game() == "grand-archive" && c.path.ends_with(".attempted")))
                    .collect();
                assert!(
                    changed.is_empty(),
                    "{}: an illegal play changed {changed:?}",
                    f.display()
                );
            }
        }
    }
}
