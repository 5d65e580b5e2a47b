//! Search quality on the evaluation set (tests/eval_questions.yaml): floors on
//! the held-out part only. The full report, tuning part included, is printed
//! with `--nocapture` and by `cargo run --release --example search_eval`.

use crate::common;
use crate::eval;

use arbiter::app::App;

/// Floors on the held-out part: the measured figures rounded down
/// (docs/SEARCH.md), so a change that makes search worse fails here.
/// (top-3, "answer" labels correct, uncovered not labelled "answer").
/// With the semantic stage (the default build): top-3 90.4 % and 65.5 %
/// (MTG with the fixture's card list). MTG's "answer" labels fell from 4
/// right of 5 to 2 of 3 with it (the label rule is unchanged;
/// docs/SEARCH.md), hence 0.66 there.
#[cfg(feature = "semantic")]
const FIVE_GAMES: Floors = (0.90, 0.94, 0.95);
#[cfg(feature = "semantic")]
const MTG: Floors = (0.65, 0.66, 0.95);
/// Lexical only (`--no-default-features`): 87.8 % and 58.3 %.
#[cfg(not(feature = "semantic"))]
const FIVE_GAMES: Floors = (0.87, 0.94, 0.95);
#[cfg(not(feature = "semantic"))]
const MTG: Floors = (0.58, 0.75, 0.95);
/// MTG top-3 over the plain BM25 baseline, in points.
const MTG_OVER_BM25: f64 = 20.0;

type Floors = (f64, f64, f64);

#[test]
fn the_split_follows_the_recorded_rule() {
    let cases = eval::cases(&common::repo());
    for c in &cases {
        assert_eq!(c.split, c.rule_split(), "split of {:?}", c.q);
        for id in &c.expect {
            assert!(id.starts_with(&format!("{}:", c.game)), "{id} in {:?}", c.q);
        }
    }
    // The search's own questions: the calibration part is the label's.
    let search: Vec<&eval::Case> = cases.iter().filter(|c| !c.calibration()).collect();
    let held = search.iter().filter(|c| c.split == "held-out").count();
    let uncovered = search.iter().filter(|c| !c.answerable()).count();
    assert!(search.len() >= 250, "{} questions", search.len());
    assert!(uncovered >= 50, "{uncovered} uncovered questions");
    assert!(
        held as f64 >= 0.4 * search.len() as f64,
        "{held} of {} held out",
        search.len()
    );
    let mut seen = std::collections::HashSet::new();
    assert!(
        cases.iter().all(|c| seen.insert(c.q.as_str())),
        "duplicates"
    );
}

#[test]
fn expected_ids_of_the_five_games_exist() {
    let app = common::app();
    for c in eval::cases(&common::repo()).iter().filter(|c| !c.is_mtg()) {
        for id in &c.expect {
            assert!(app.corpus.get(id).is_some(), "{id} in {:?}", c.q);
        }
    }
}

fn check(report: &eval::Report, group: &str, (top3, answer, uncovered): Floors) {
    let (o, _) = report.get("held-out", group);
    assert!(
        o.top3_rate() >= top3,
        "{group}: held-out top-3 {:.3} < {top3}",
        o.top3_rate()
    );
    assert!(
        o.answer_precision() >= answer,
        "{group}: held-out \"answer\" labels correct {:.3} < {answer}",
        o.answer_precision()
    );
    assert!(
        o.uncovered_rate() >= uncovered,
        "{group}: held-out uncovered not labelled answer {:.3} < {uncovered}",
        o.uncovered_rate()
    );
}

#[test]
fn held_out_five_games_meet_the_floors() {
    let cases = eval::cases(&common::repo());
    let five: Vec<&eval::Case> = cases
        .iter()
        .filter(|c| !c.is_mtg() && !c.calibration())
        .collect();
    let mut report = eval::Report::default();
    eval::run(common::app(), &five, &mut report);
    println!("{}", report.table(&["held-out", "tuning"]));
    check(&report, "five games", FIVE_GAMES);
}

#[test]
#[ignore = "needs ../shared (the MTG corpus)"]
fn held_out_mtg_meets_the_floors() {
    let repo = common::repo();
    let app = App::load(&repo.join("rules_data"), &[common::mtg_dir()]).expect("MTG loads");
    let cases = eval::cases(&repo);
    for c in cases.iter().filter(|c| c.is_mtg()) {
        for id in &c.expect {
            assert!(app.corpus.get(id).is_some(), "{id} in {:?}", c.q);
        }
    }
    let mtg: Vec<&eval::Case> = cases
        .iter()
        .filter(|c| c.is_mtg() && !c.calibration())
        .collect();
    let mut report = eval::Report::default();
    eval::run(&app, &mtg, &mut report);
    println!("{}", report.table(&["held-out", "tuning"]));
    check(&report, "mtg", MTG);
    let (o, b) = report.get("held-out", "mtg");
    let lift = 100.0 * (o.top3_rate() - b.top3_rate());
    assert!(
        lift >= MTG_OVER_BM25,
        "MTG held-out top-3 only {lift:.1} points over plain BM25"
    );
}
