//! Search quality on the public evaluation set (tests/eval_questions.yaml).
//! Run with `--nocapture` to see the figures and every miss.

mod common;

use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    q: String,
    expect: Vec<String>,
}

/// Floors set from measurement (docs/SEARCH.md): fail if quality drops below.
const TOP3_FLOOR: f64 = 0.92;
const NEGATIVE_FLOOR: f64 = 0.85;

#[test]
fn evaluation_set_meets_the_floor() {
    let text = std::fs::read_to_string(common::repo().join("tests/eval_questions.yaml")).unwrap();
    let cases: Vec<Case> = serde_saphyr::from_str(&text).unwrap();
    let app = common::app();
    let (mut pos, mut top1, mut top3, mut neg, mut neg_ok) = (0, 0, 0, 0, 0);
    let mut per_game: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for c in &cases {
        let reply = app.ask(&c.q, None, 3).unwrap();
        let ids: Vec<&str> = reply.results.iter().map(|r| r.id.as_str()).collect();
        if c.expect.is_empty() {
            neg += 1;
            if ids.is_empty() {
                neg_ok += 1;
            } else {
                println!("FALSE ANSWER  {:<70} → {ids:?}", c.q);
            }
            continue;
        }
        pos += 1;
        let game = c.expect[0].split(':').next().unwrap().to_string();
        let entry = per_game.entry(game).or_default();
        entry.0 += 1;
        if ids.first().is_some_and(|f| c.expect.iter().any(|e| e == f)) {
            top1 += 1;
        }
        if ids.iter().any(|i| c.expect.iter().any(|e| e == i)) {
            top3 += 1;
            entry.1 += 1;
        } else {
            println!("MISS          {:<70} → {ids:?} (want {:?})", c.q, c.expect);
        }
    }
    let (t1, t3, n) = (
        top1 as f64 / pos as f64,
        top3 as f64 / pos as f64,
        neg_ok as f64 / neg as f64,
    );
    println!("questions: {} answerable, {} not answerable", pos, neg);
    println!(
        "top-1 {:.1}%  top-3 {:.1}%  correctly unanswered {:.1}%",
        t1 * 100.0,
        t3 * 100.0,
        n * 100.0
    );
    for (g, (total, hit)) in &per_game {
        println!("  {g:<14} top-3 {hit}/{total}");
    }
    assert!(
        cases.len() >= 40,
        "the evaluation set needs at least 40 questions"
    );
    assert!(
        per_game.values().all(|(t, _)| *t >= 6),
        "at least 6 questions per game"
    );
    assert!(
        t3 >= TOP3_FLOOR,
        "top-3 accuracy {t3:.3} fell below the floor {TOP3_FLOOR}"
    );
    assert!(
        n >= NEGATIVE_FLOOR,
        "unanswerable questions answered: {n:.3} < {NEGATIVE_FLOOR}"
    );
}
