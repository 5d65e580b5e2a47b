//! Search behaviour: slang, typos, game detection, highlights, refusals,
//! completion.

mod common;

use arbiter::app::AppError;

#[test]
fn slang_from_the_glossary_finds_the_rule() {
    let r = common::app()
        .ask("can my PB guard while tapped", Some("ashes"), 3)
        .unwrap();
    assert_eq!(r.results[0].id, "ashes:attack-a-unit.3");
    let r = common::app()
        .ask("does supp cut my actions", None, 3)
        .unwrap();
    assert!(
        r.results.iter().any(|x| x.id == "legion:actions.5"),
        "{:?}",
        r.results
    );
}

#[test]
fn typos_are_repaired_and_reported() {
    let r = common::app()
        .ask("can an exausted phoenixbron gaurd", None, 3)
        .unwrap();
    assert_eq!(r.results[0].id, "ashes:attack-a-unit.3");
    let typed: Vec<&str> = r.corrections.iter().map(|(t, _)| t.as_str()).collect();
    assert!(
        typed.contains(&"phoenixbron") && typed.contains(&"exausted"),
        "{:?}",
        r.corrections
    );
}

#[test]
fn a_game_named_in_the_question_restricts_the_search() {
    let r = common::app()
        .ask("twilight imperium when can I pass", None, 5)
        .unwrap();
    assert_eq!(r.game.as_deref(), Some("ti4"));
    assert!(!r.results.is_empty() && r.results.iter().all(|x| x.game == "ti4"));
    let r = common::app()
        .ask("when can I pass", Some("Ashes Reborn"), 5)
        .unwrap();
    assert!(r.results.iter().all(|x| x.game == "ashes"));
}

#[test]
fn the_highlight_is_a_verbatim_sentence_of_the_passage() {
    for q in [
        "can an exhausted phoenixborn guard",
        "what happens after all players have passed in ti4",
        "how far can a fighter step move",
    ] {
        let r = common::app().ask(q, None, 3).unwrap();
        for x in &r.results {
            assert!(
                !x.highlight.is_empty() && x.text.contains(&x.highlight),
                "{q}: {x:?}"
            );
        }
    }
    let r = common::app()
        .ask("can an exhausted phoenixborn guard", None, 1)
        .unwrap();
    assert_eq!(
        r.results[0].highlight,
        "Note: A Phoenixborn can guard even if it is exhausted."
    );
}

#[test]
fn questions_the_rules_do_not_answer_get_no_citation() {
    let r = common::app()
        .ask("what is the mulligan rule", None, 3)
        .unwrap();
    assert!(r.results.is_empty());
    let r = common::app().ask("zzzz qqqq", None, 3).unwrap();
    assert!(r.results.is_empty());
}

#[test]
fn empty_and_oversized_questions_are_refused() {
    assert!(matches!(
        common::app().ask("   ", None, 3),
        Err(AppError::Usage(_))
    ));
    let huge = "guard ".repeat(100 * 1024 / 6);
    let start = std::time::Instant::now();
    let err = common::app().ask(&huge, None, 3).unwrap_err();
    assert!(matches!(err, AppError::TooLong { .. }), "{err}");
    assert!(err.to_string().contains("limit"));
    assert!(start.elapsed().as_millis() < 500, "refused quickly");
}

#[test]
fn an_unknown_game_suggests_the_nearest() {
    let err = common::app().ask("guard", Some("ashs"), 3).unwrap_err();
    assert!(err.to_string().contains("Did you mean ashes"), "{err}");
}

#[test]
fn completion_is_fuzzy_and_capped_at_25() {
    let app = common::app();
    let s = app.complete("atk unit 4", None, 25).unwrap();
    assert!(
        s.iter().any(|x| x.id.starts_with("ashes:attack-a-unit.4")),
        "{s:?}"
    );
    let s = app.complete("ashes:pa", None, 25).unwrap();
    assert_eq!(s[0].id, "ashes:pass");
    assert!(app.complete("a", None, 100).unwrap().len() <= 25);
    assert!(
        app.complete("", Some("ti4"), 25)
            .unwrap()
            .iter()
            .all(|x| x.id.starts_with("ti4:"))
    );
}

#[test]
fn cite_unknown_ids_suggest_close_ones() {
    let err = common::app()
        .cite("ashes:attack-a-unti.4", false)
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("Did you mean") && msg.contains("ashes:attack-a-unit.4"),
        "{msg}"
    );
    let reply = common::app().cite("ashes:attack-a-unit", true).unwrap();
    let ids: Vec<&str> = reply.passages.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids[..3],
        [
            "ashes:attack-a-unit",
            "ashes:attack-a-unit.1",
            "ashes:attack-a-unit.2"
        ]
    );
    assert_eq!(ids.len(), 7);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any question gets an answer or a refusal, never a panic.
    #[test]
    fn search_never_panics(q in "\\PC{0,300}") {
        let _ = common::app().ask(&q, None, 3);
        let _ = common::app().complete(&q, None, 25);
        let _ = common::app().cite(&q, true);
    }
}
