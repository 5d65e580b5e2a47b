//! Star Wars: Legion engine: one test per rule-bearing sentence of
//! `legion:actions`, the two worked examples, illegal sequences, notation,
//! round trips and garbage input.

use crate::snapshot;
use arbiter::engine::{self, ErrorKind, GameEngine, Ruling, Severity};
use serde_json::json;

fn eng() -> &'static dyn GameEngine {
    engine::engine("legion").expect("legion engine registered")
}

/// Judges a board, its ruling kept as the test's snapshot (tests/engine/snapshot.rs).
fn judge(doc: &str) -> Ruling {
    let r = eng()
        .judge_text(doc)
        .unwrap_or_else(|e| panic!("board error: {e}\n{doc}"));
    snapshot::ruling(&r);
    r
}

/// A board with a unit block (indented two spaces) and a play block.
fn doc(unit: &str, play: &str) -> String {
    format!("game: legion\nplayer: Alice\nunit:\n{unit}\nplay:\n{play}\n")
}

const VADER: &str = "  name: Darth Vader
  abilities:
    - name: Relentless
      after: move
      grants: free_action
      action: attack
  card_actions: [Force Choke]";

const HAN: &str = "  name: Han Solo
  abilities:
    - name: Gunslinger
      after: attack
      grants: extra_attack";

const TROOPERS: &str = "  name: Rebel Troopers";

fn rules(r: &Ruling) -> Vec<&str> {
    r.steps.iter().map(|s| s.rule.as_str()).collect()
}

fn error_rule(r: &Ruling) -> Option<&str> {
    assert!(!r.legal, "expected an illegal play: {r:#?}");
    let errors: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{:#?}", r.diagnostics);
    errors[0].rule.as_deref()
}

/// The board as the engine writes it (the single-unit form becomes one
/// player with one unit), without the play.
fn canonical(doc: &str) -> serde_json::Value {
    let mut v = arbiter::engine::document::parse_value(doc).unwrap();
    v.as_object_mut().unwrap().remove("play");
    eng().check_board(&v).unwrap()
}

/// The state of an illegal ruling is the board as given, without the play.
fn assert_unchanged(r: &Ruling, doc: &str) {
    assert_eq!(r.state, canonical(doc));
    assert!(r.changes.is_empty(), "{:?}", r.changes);
}

/// The single-unit form's unit in a ruling's state.
fn unit(r: &Ruling) -> &serde_json::Value {
    &r.state["players"][0]["units"][0]
}

fn performed(r: &Ruling) -> serde_json::Value {
    unit(r)["performed"].clone()
}

/// The unit's tokens as (kind, source) pairs.
fn tokens(r: &Ruling) -> Vec<(String, String)> {
    let list = unit(r)["tokens"].as_array().cloned().unwrap_or_default();
    list.iter()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap_or("-").to_string();
            (s("kind"), s("source"))
        })
        .collect()
}

// --- legion:actions.1: two actions from the list ---------------------------

#[test]
fn two_actions_are_allowed_and_counted() {
    let r = judge(&doc(TROOPERS, "  - action: move\n  - action: attack"));
    assert!(r.legal, "{r:#?}");
    assert_eq!(rules(&r)[0], "legion:actions.1");
    let attack = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.1.2")
        .unwrap();
    assert!(attack.numbers.contains(&("actions used".into(), 2)));
    assert_eq!(attack.choice.as_ref().unwrap().player, "Alice");
    assert_eq!(
        performed(&r),
        json!([{ "action": "move" }, { "action": "attack" }])
    );
}

#[test]
fn a_third_action_is_illegal() {
    let d = doc(
        TROOPERS,
        "  - action: move\n  - action: aim\n  - action: attack",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.1"));
    let diag = &r.diagnostics[0];
    assert_eq!(diag.path.as_deref(), Some("play[2]"));
    assert!(diag.message.contains("third action"), "{}", diag.message);
    assert_unchanged(&r, &d);
}

#[test]
fn each_action_on_the_list_cites_its_list_item() {
    for (kind, rule) in [
        ("move", "legion:actions.1.1"),
        ("attack", "legion:actions.1.2"),
        ("aim", "legion:actions.1.3"),
        ("dodge", "legion:actions.1.4"),
        ("standby", "legion:actions.1.5"),
        ("recover", "legion:actions.1.6"),
    ] {
        let r = judge(&doc(TROOPERS, &format!("  - action: {kind}")));
        assert!(r.legal);
        assert_eq!(rules(&r)[1], rule, "{kind}");
    }
    let r = judge(&doc(VADER, "  - action: card\n    card: force choke"));
    assert!(
        r.steps
            .iter()
            .any(|s| s.rule == "legion:actions.1.7" && s.text.contains("Force Choke"))
    );
    assert_eq!(
        performed(&r),
        json!([{ "action": "card", "card": "Force Choke" }])
    );
}

#[test]
fn aim_dodge_standby_actions_add_tokens() {
    let r = judge(&doc(
        "  name: Scouts\n  tokens: { aim: 1 }",
        "  - action: aim\n  - action: dodge",
    ));
    // The counts form is read as tokens whose source is not stated; the
    // tokens the actions give say they came from the action.
    let t = |k: &str, s: &str| (k.to_string(), s.to_string());
    assert_eq!(
        tokens(&r),
        [t("aim", "-"), t("aim", "action"), t("dodge", "action")]
    );
    assert!(
        r.steps[1].assumption.is_some(),
        "token from an action is outside the indexed text"
    );
}

// --- legion:actions.2: same action at most once, except move ---------------

#[test]
fn the_same_non_move_action_twice_is_illegal() {
    for kind in ["attack", "aim", "dodge", "standby", "recover"] {
        let d = doc(TROOPERS, &format!("  - action: {kind}\n  - action: {kind}"));
        let r = judge(&d);
        assert_eq!(error_rule(&r), Some("legion:actions.2"), "{kind}");
        assert_unchanged(&r, &d);
    }
}

#[test]
fn move_can_be_performed_twice() {
    let r = judge(&doc(TROOPERS, "  - action: move\n  - action: move"));
    assert!(r.legal);
    let second = &r.steps[2];
    assert_eq!(second.rule, "legion:actions.2");
    assert!(second.text.contains("more than once"));
}

// --- legion:actions.3 / 3.1: card actions ----------------------------------

#[test]
fn card_actions_are_listed_as_card_actions() {
    let r = judge(&doc(VADER, "  - action: move"));
    assert!(
        r.steps
            .iter()
            .any(|s| s.rule == "legion:actions.3" && s.text.contains("Force Choke"))
    );
}

#[test]
fn different_card_actions_are_allowed() {
    let unit = "  name: Luke Skywalker\n  card_actions: [Force Push, Saber Throw]";
    let r = judge(&doc(
        unit,
        "  - action: card\n    card: Force Push\n  - action: card\n    card: Saber Throw",
    ));
    assert!(r.legal, "{r:#?}");
    assert_eq!(r.steps.last().map(|s| s.numbers[0].1), Some(2));
    assert!(
        r.steps
            .iter()
            .any(|s| s.rule == "legion:actions.3.1" && s.text.contains("Saber Throw"))
    );
}

#[test]
fn the_same_card_action_twice_is_illegal() {
    let unit = "  name: Luke Skywalker\n  actions: 2\n  card_actions: [Force Push]";
    let d = doc(
        unit,
        "  - action: card\n    card: Force Push\n  - free_action: card\n    card: Force Push\n    effect: Take Initiative\n    untyped: true",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.3.1"));
    assert_unchanged(&r, &d);
}

#[test]
fn a_card_action_and_a_free_card_action_of_one_name_are_allowed_as_an_assumption() {
    let unit =
        "  name: Luke Skywalker\n  card_actions: [Saber Throw]\n  free_card_actions: [Saber Throw]";
    for steps in [
        "  - free_card_action: Saber Throw\n  - action: card\n    card: Saber Throw",
        "  - action: card\n    card: Saber Throw\n  - free_card_action: Saber Throw",
    ] {
        let r = judge(&doc(unit, steps));
        assert!(r.legal, "{r:#?}");
        let marked: Vec<_> = r
            .steps
            .iter()
            .filter_map(|s| s.assumption.as_deref())
            .filter(|a| a.contains("both as a card action and as a free card action"))
            .collect();
        assert_eq!(marked.len(), 1, "{steps}: {:#?}", r.steps);
    }
}

// --- legion:actions.4 / 4.1: free card actions ------------------------------

#[test]
fn free_card_actions_do_not_count_against_two_actions() {
    let unit = "  name: Count Dooku\n  free_card_actions: [Fear and Dead Men]";
    let r = judge(&doc(
        unit,
        "  - action: move\n  - action: attack\n  - free_card_action: fear and dead men",
    ));
    assert!(r.legal, "{r:#?}");
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.4")
        .unwrap();
    assert!(s.numbers.contains(&("actions used".into(), 2)));
    assert!(rules(&r).contains(&"legion:actions.6"));
}

#[test]
fn the_same_free_card_action_twice_is_illegal_but_different_ones_are_fine() {
    let unit = "  name: Count Dooku\n  free_card_actions: [Fear and Dead Men, Force Lightning]";
    let ok = judge(&doc(
        unit,
        "  - free_card_action: Fear and Dead Men\n  - free_card_action: Force Lightning",
    ));
    assert!(ok.legal);
    assert!(rules(&ok).contains(&"legion:actions.4.1"));
    let d = doc(
        unit,
        "  - free_card_action: Fear and Dead Men\n  - free_card_action: Fear and Dead Men",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.4.1"));
    assert_unchanged(&r, &d);
}

// --- legion:actions.5: reductions ------------------------------------------

#[test]
fn reductions_come_from_the_board_with_their_source() {
    let unit = "  name: Stormtroopers\n  reduced_by:\n    - amount: 1\n      source: suppressed";
    let r = judge(&doc(unit, "  - action: aim"));
    assert!(r.legal);
    let open = &r.steps[0];
    assert_eq!(open.rule, "legion:actions.5");
    assert!(open.text.contains("suppressed"));
    assert!(open.numbers.contains(&("actions available".into(), 1)));
    assert!(
        open.assumption
            .as_deref()
            .unwrap()
            .contains("not by how much")
    );
    let d = doc(unit, "  - action: aim\n  - action: move");
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.5"));
    assert_unchanged(&r, &d);
}

#[test]
fn a_given_number_of_actions_is_used_and_marked() {
    let r = judge(&doc(
        "  name: Stormtroopers\n  actions: 0",
        "  - action: move",
    ));
    assert_eq!(error_rule(&r), Some("legion:actions.5"));
    assert!(r.steps[0].assumption.is_some());
    let e = eng()
        .judge_text(&doc(
            "  name: Stormtroopers\n  actions: 3",
            "  - action: move",
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("unit.actions"));
    assert_eq!(e.rule.as_deref(), Some("legion:actions.1"));
    let e = eng()
        .judge_text(&doc(
            "  name: S\n  actions: 2\n  reduced_by: [{amount: 1, source: damage}]",
            "  - action: move",
        ))
        .unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("legion:actions.5"));
}

#[test]
fn reduction_amounts_and_no_actions_are_worded_as_they_are() {
    // An amount that is no whole number of actions from 1 to 99 reads so
    // at its field, even one the reader refuses (too large, negative, a
    // fraction); no rule is cited for it: a check of the board.
    for amount in ["99999999999999999", "4000000000", "-3", "1.5", "0", "100"] {
        let unit = format!("  name: S\n  reduced_by: [{{amount: {amount}, source: x}}]");
        let e = eng()
            .judge_text(&doc(&unit, "  - action: move"))
            .unwrap_err();
        assert_eq!(e.path.as_deref(), Some("unit.reduced_by[0].amount"), "{e}");
        assert!(e.message.contains("from 1 to 99"), "{amount}: {e}");
        assert!(!e.message.contains("from 0"), "{amount}: {e}");
        assert_eq!(e.rule, None, "{amount}: actions.5 sets no bound");
    }
    // Reductions beyond the two actions, in one entry or several, say so
    // alike (actions.5 sets no bound); no "0 of its 0 actions".
    for reductions in [
        "[{amount: 2, source: suppressed}, {amount: 1, source: damaged}]",
        "[{amount: 3, source: suppressed}]",
        "[{amount: 2, source: panicked}, {amount: 2, source: damaged}]",
    ] {
        let unit = format!("  name: Han Solo\n  reduced_by: {reductions}");
        let r = eng().judge_text(&doc(&unit, "  - action: move")).unwrap();
        assert!(
            r.steps[0]
                .text
                .contains("more than its two actions, so none are left"),
            "{reductions}: {}",
            r.steps[0].text
        );
    }
    // With no action left, a token an effect gave is not followed by "may
    // still perform" that action (only free actions remain).
    let unit = "  name: Stormtroopers\n  tokens: { aim: 1 }\n  reduced_by: [{amount: 2, source: panicked}, {amount: 2, source: damaged}]";
    let tok = "  - gain: aim\n    effect: x";
    let r = eng().judge_text(&doc(unit, tok)).unwrap();
    assert!(
        r.steps
            .iter()
            .all(|s| !s.text.contains("may still perform")),
        "{:#?}",
        r.steps
    );
    let unit = "  name: Han Solo\n  reduced_by: [{amount: 2, source: suppressed}, {amount: 1, source: damaged}]";
    let r = judge(&doc(unit, "  - action: move"));
    let m = &r.diagnostics[0].message;
    assert!(
        m.starts_with("Han Solo has no actions this activation"),
        "{m}"
    );
    // An assumed choice reads with its verb: "Alice to take …".
    let r = judge(&doc(
        "  name: Han Solo",
        "  - free_action: attack\n    effect: Push",
    ));
    let c = r.steps[1].choice.as_ref().unwrap();
    assert!(c.assumed.is_some());
    assert!(c.chose.starts_with("to take a free action"), "{}", c.chose);
}

// --- legion:actions.6 / 7: free actions of a type (Vader) -------------------

#[test]
fn vader_relentless_worked_example() {
    // Move, Relentless free attack, then one action remains but not an attack.
    let d = doc(
        VADER,
        "  - action: move\n  - free_action: attack\n    ability: Relentless\n  - action: attack",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.7"));
    assert_eq!(r.diagnostics[0].path.as_deref(), Some("play[2]"));
    assert!(
        r.steps
            .iter()
            .any(|s| s.rule == "legion:actions.7" && s.text.starts_with("Relentless triggers"))
    );
    let free = r
        .steps
        .iter()
        .find(|s| s.text.contains("free attack action (Relentless)"))
        .unwrap();
    assert!(
        free.numbers.contains(&("actions used".into(), 1)),
        "the free attack does not count"
    );
    assert_unchanged(&r, &d);

    // The remaining action is still there for anything but an attack.
    let r = judge(&doc(
        VADER,
        "  - action: move\n  - free_action: attack\n    ability: Relentless",
    ));
    assert!(r.legal);
    let summary = r.steps.last().unwrap();
    assert!(summary.numbers.contains(&("actions left".into(), 1)));
    assert!(summary.text.contains("not: attack"), "{}", summary.text);
    let r = judge(&doc(
        VADER,
        "  - action: move\n  - free_action: attack\n    ability: Relentless\n  - action: card\n    card: Force Choke",
    ));
    assert!(r.legal);
    assert!(
        rules(&r).contains(&"legion:actions.6"),
        "three actions through a free action"
    );
}

#[test]
fn a_typed_free_action_after_the_same_action_is_illegal() {
    let d = doc(
        VADER,
        "  - action: attack\n  - action: move\n  - free_action: attack\n    ability: Relentless",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.7"));
    assert!(r.diagnostics[0].message.contains("considered an action"));
}

#[test]
fn a_typed_free_action_must_be_of_its_type() {
    let r = judge(&doc(
        VADER,
        "  - action: move\n  - free_action: aim\n    ability: Relentless",
    ));
    assert_eq!(error_rule(&r), Some("legion:actions.7"));
}

#[test]
fn a_triggered_ability_needs_its_trigger() {
    let r = judge(&doc(
        VADER,
        "  - action: aim\n  - free_action: attack\n    ability: Relentless",
    ));
    assert!(!r.legal);
    assert!(
        r.diagnostics[0].message.contains("after a move action"),
        "{}",
        r.diagnostics[0].message
    );
    assert_eq!(
        r.diagnostics[0].rule, None,
        "the trigger is the ability's data, not the indexed text"
    );
}

#[test]
fn a_free_action_triggers_after_action_abilities() {
    let unit = "  name: Vader Gunslinger
  abilities:
    - name: Relentless
      after: move
      grants: free_action
      action: attack
    - name: Gunslinger
      after: attack
      grants: extra_attack";
    let r = judge(&doc(
        unit,
        "  - action: move\n  - free_action: attack\n    ability: Relentless\n  - extra_attack: true\n    ability: Gunslinger",
    ));
    assert!(r.legal, "{r:#?}");
    let trig = r
        .steps
        .iter()
        .find(|s| s.text.starts_with("Gunslinger triggers"))
        .unwrap();
    assert_eq!(trig.rule, "legion:actions.7");
}

// --- legion:actions.8: untyped free actions ---------------------------------

#[test]
fn an_untyped_free_action_is_any_action_and_does_not_count() {
    let r = judge(&doc(
        TROOPERS,
        "  - action: move\n  - action: aim\n  - free_action: dodge\n    effect: Take Initiative\n    untyped: true",
    ));
    assert!(r.legal, "{r:#?}");
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.8")
        .unwrap();
    assert!(s.text.contains("could normally perform"));
    assert!(s.numbers.contains(&("actions used".into(), 2)));
    assert_eq!(
        performed(&r)[2],
        json!({ "free_action": "dodge", "effect": "Take Initiative", "untyped": true })
    );
}

#[test]
fn an_untyped_free_action_blocks_the_same_action() {
    let d = doc(
        TROOPERS,
        "  - free_action: dodge\n    effect: Take Initiative\n    untyped: true\n  - action: dodge",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.8"));
    assert_unchanged(&r, &d);
    // and the other way round, the free action is the one refused
    let r = judge(&doc(
        TROOPERS,
        "  - action: dodge\n  - free_action: dodge\n    effect: Take Initiative\n    untyped: true",
    ));
    assert_eq!(error_rule(&r), Some("legion:actions.8"));
}

// --- legion:actions.9: attacks that are not actions (Han) -------------------

#[test]
fn han_gunslinger_worked_example() {
    let r = judge(&doc(
        HAN,
        "  - action: attack\n  - extra_attack: true\n    ability: Gunslinger",
    ));
    assert!(r.legal, "{r:#?}");
    let extra = r
        .steps
        .iter()
        .find(|s| s.text.contains("attack that is not an action (Gunslinger)"))
        .unwrap();
    assert_eq!(extra.rule, "legion:actions.9");
    assert!(extra.text.contains("already performed an attack action"));
    assert!(extra.numbers.contains(&("actions used".into(), 1)));
    assert!(
        r.steps
            .iter()
            .any(|s| s.rule == "legion:actions.9"
                && s.text.starts_with("Gunslinger does not trigger"))
    );
    assert_eq!(
        r.steps.last().unwrap().numbers[1],
        ("actions left".into(), 1)
    );
    assert_eq!(
        performed(&r),
        json!([{ "action": "attack" }, { "extra_attack": true, "ability": "Gunslinger" }])
    );
    // Han's `performed` list was left out of the board (empty): the change
    // reads as an addition to the empty list, not "null → […]".
    let change = r
        .changes
        .iter()
        .find(|c| c.path.ends_with(".performed"))
        .unwrap();
    let performed_now = performed(&r);
    assert_eq!(
        change.read(),
        (
            arbiter::engine::Side::Value(&json!([])),
            arbiter::engine::Side::Value(&performed_now)
        )
    );
    let text = arbiter::render::text::ruling(&r);
    let line = text.lines().find(|l| l.contains(".performed:")).unwrap();
    assert!(line.contains(": [] → [{"), "{line}");
    // A field the board did not set (`activated`) reads "(not set)", in
    // the console's changes as in the record: not "null → true".
    if r.changes
        .iter()
        .any(|c| c.before.is_null() && !c.after.is_array())
    {
        assert!(text.contains("(not set) → "), "{text}");
    }
    assert!(!text.contains("null → "), "{text}");
}

#[test]
fn a_non_action_attack_does_not_count_and_does_not_block_the_attack_action() {
    let r = judge(&doc(
        TROOPERS,
        "  - extra_attack: true\n    effect: Standing Orders\n  - action: attack\n  - action: move",
    ));
    assert!(r.legal, "{r:#?}");
    assert_eq!(
        r.steps.last().unwrap().numbers[0],
        ("actions used".into(), 2)
    );
}

#[test]
fn a_non_action_attack_does_not_trigger_after_attack_abilities() {
    let d = doc(
        HAN,
        "  - extra_attack: true\n    effect: Command card\n  - extra_attack: true\n    ability: Gunslinger",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.9"));
    assert!(
        r.steps
            .iter()
            .any(|s| s.text.starts_with("Gunslinger does not trigger"))
    );
    assert_unchanged(&r, &d);
}

// --- legion:actions.10: tokens from effects ---------------------------------

const SCOUTS: &str = "  name: Scout Troopers
  abilities:
    - name: Spotter Drill
      after: aim
      grants: token
      token: dodge";

#[test]
fn a_token_from_an_effect_is_not_the_action() {
    let r = judge(&doc(
        SCOUTS,
        "  - gain: aim\n    effect: Coordinated Fire\n  - action: aim",
    ));
    assert!(r.legal, "{r:#?}");
    assert_eq!(r.steps[1].rule, "legion:actions.10");
    assert!(r.steps[1].text.contains("may still perform an aim action"));
    assert!(
        r.steps.iter().any(|s| s.rule == "legion:actions.10"
            && s.text.starts_with("Spotter Drill does not trigger"))
    );
    assert!(
        r.steps
            .iter()
            .any(|s| s.text.starts_with("Spotter Drill triggers")),
        "the aim action does trigger it"
    );
    assert_eq!(
        unit(&r)["tokens"],
        json!([
            { "kind": "aim", "source": "effect", "name": "Coordinated Fire" },
            { "kind": "aim", "source": "action" }
        ])
    );
}

#[test]
fn a_token_from_an_effect_does_not_trigger_after_action_abilities() {
    let d = doc(
        SCOUTS,
        "  - gain: aim\n    effect: Coordinated Fire\n  - gain: dodge\n    ability: Spotter Drill",
    );
    let r = judge(&d);
    assert_eq!(error_rule(&r), Some("legion:actions.10"));
    assert_unchanged(&r, &d);
}

// --- what the excerpt does not decide ---------------------------------------

#[test]
fn attack_and_standby_is_reported_as_not_covered() {
    let r = judge(&doc(TROOPERS, "  - action: attack\n  - action: standby"));
    assert!(r.legal);
    let w = r
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning)
        .unwrap();
    assert!(w.message.starts_with("not covered by the indexed rules"));
    assert!(r.steps.iter().any(|s| {
        s.assumption
            .as_deref()
            .is_some_and(|a| a.contains("not covered by the indexed rules"))
    }));
    let r = judge(&doc(TROOPERS, "  - action: attack\n  - action: move"));
    assert!(r.diagnostics.is_empty());
}

// --- round trip and history -------------------------------------------------

#[test]
fn state_is_a_board_that_continues_the_activation() {
    let r = judge(&doc(VADER, "  - action: move"));
    assert!(
        r.steps
            .last()
            .unwrap()
            .text
            .contains("Triggered and not yet used: Relentless")
    );
    let mut state = r.state.clone();
    state["play"] = json!([{ "free_action": "attack", "ability": "Relentless" }]);
    let r2 = judge(&state.to_string());
    assert!(r2.legal, "{r2:#?}");
    assert!(
        r2.steps
            .iter()
            .any(|s| s.text.starts_with("already this activation: move action"))
    );
    let mut state = r2.state.clone();
    state["play"] = json!([{ "action": "attack" }]);
    let r3 = judge(&state.to_string());
    assert_eq!(error_rule(&r3), Some("legion:actions.7"));
    assert_eq!(r3.state, r2.state);
}

#[test]
fn an_illegal_history_is_a_board_error_with_its_path() {
    let d = "game: legion\nunit:\n  name: X\n  performed:\n    - action: aim\n    - action: aim\n";
    let e = eng().judge_text(d).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("unit.performed[1]"));
    assert_eq!(e.rule.as_deref(), Some("legion:actions.2"));
}

// --- board errors -----------------------------------------------------------

#[test]
fn board_errors_carry_paths_and_suggestions() {
    let e = eng()
        .judge_text(&doc(VADER, "  - action: card\n    card: Forse Choke"))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play[0].card"));
    assert!(
        e.message.contains("did you mean 'Force Choke'"),
        "{}",
        e.message
    );
    let e = eng()
        .judge_text(&doc(
            VADER,
            "  - free_action: attack\n    ability: Relentlss",
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play[0].ability"));
    let e = eng()
        .judge_text(&doc(VADER, "  - action: atack"))
        .unwrap_err();
    assert!(e.message.contains("did you mean 'attack'"), "{}", e.message);
    let e = eng()
        .judge_text(&doc(VADER, "  - action: move\n    gain: aim"))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play[0]"));
    let e = eng()
        .judge_text(&doc(VADER, "  - free_action: attack"))
        .unwrap_err();
    assert!(e.message.contains("source"));
    let e = eng()
        .judge_text(&doc(
            HAN,
            "  - free_action: attack\n    ability: Gunslinger",
        ))
        .unwrap_err();
    assert!(e.message.contains("does not grant a free action"));
    let e = eng()
        .judge_text("game: legion\nunit:\n  name: X\n  wounds: 2\n")
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    let e = eng()
        .judge_text("game: ashes\nunit:\n  name: X\n")
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("game"));
}

#[test]
fn absurd_sizes_are_refused() {
    let play: String = (0..100).map(|_| "  - action: move\n").collect();
    let e = eng().judge_text(&doc(TROOPERS, &play)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert_eq!(e.path.as_deref(), Some("play"));
    assert!(e.message.contains("the limit is 64"), "{}", e.message);
    let units: String = (0..65).map(|i| format!("      - name: U{i}\n")).collect();
    let board = format!("game: legion\nplayers:\n  - name: A\n    units:\n{units}");
    let e = eng().judge_text(&board).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("players[0].units"));
    let e = eng()
        .judge_text("game: legion\nround: 0\nunit:\n  name: X\n")
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("round"));
    let e = eng()
        .judge_text("game: legion\nunit:\n  name: \" - \"\n")
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("unit.name"));
    assert!(e.message.contains("a letter or a digit"), "{}", e.message);
}

// --- notation ----------------------------------------------------------------

fn board_of(unit: &str) -> serde_json::Value {
    serde_saphyr::from_str(&format!("game: legion\nunit:\n{unit}\n")).unwrap()
}

#[test]
fn notation_matches_the_yaml_play() {
    let b = board_of(VADER);
    let play = eng()
        .parse_notation("move; free attack (Relentless); attack", &b)
        .unwrap();
    assert_eq!(
        play,
        json!([{ "action": "move" }, { "free_action": "attack", "ability": "Relentless" }, { "action": "attack" }])
    );
    let inferred = eng()
        .parse_notation("move then free attack -> card action force choke", &b)
        .unwrap();
    assert_eq!(
        inferred[1],
        json!({ "free_action": "attack", "ability": "Relentless" })
    );
    assert_eq!(
        inferred[2],
        json!({ "action": "card", "card": "Force Choke" })
    );
    let play = eng().parse_notation("gain aim token (effect: Coordinated Fire), free action as dodge (effect: Take Initiative)", &board_of(TROOPERS)).unwrap();
    assert_eq!(
        play[0],
        json!({ "gain": "aim", "effect": "Coordinated Fire" })
    );
    assert_eq!(
        play[1],
        json!({ "free_action": "dodge", "effect": "Take Initiative", "untyped": true })
    );
    let play = eng()
        .parse_notation("attack; extra attack", &board_of(HAN))
        .unwrap();
    assert_eq!(
        play[1],
        json!({ "extra_attack": true, "ability": "Gunslinger" })
    );
    // same ruling as the YAML form
    let mut doc = b.clone();
    doc["play"] = eng()
        .parse_notation("move; free attack (Relentless); attack", &b)
        .unwrap();
    assert_eq!(
        error_rule(&judge(&doc.to_string())),
        Some("legion:actions.7")
    );
}

#[test]
fn notation_errors_are_helpful() {
    let b = board_of(VADER);
    let e = eng()
        .parse_notation("card action forse choke", &b)
        .unwrap_err();
    assert!(e.message.contains("did you mean"), "{}", e.message);
    let e = eng()
        .parse_notation("free attack (Relentlss)", &b)
        .unwrap_err();
    assert!(
        e.message.contains("did you mean 'Relentless'"),
        "{}",
        e.message
    );
    let e = eng().parse_notation("extra attack", &b).unwrap_err();
    assert!(e.message.contains("source"), "{}", e.message);
    assert!(eng().parse_notation("", &b).is_err());
    assert!(eng().parse_notation("move sideways", &b).is_err());
}

#[test]
fn notation_completions_offer_next_words() {
    let b = board_of(VADER);
    let c = eng().notation_completions("", &b);
    assert!(c.contains(&"move".to_string()) && c.contains(&"free card action".to_string()));
    assert_eq!(
        eng().notation_completions("move; at", &b),
        vec!["attack".to_string()]
    );
    assert_eq!(
        eng().notation_completions("card action F", &b),
        vec!["Force Choke".to_string()]
    );
    assert!(
        eng()
            .notation_completions("move; free attack (Rel", &b)
            .contains(&"Relentless".to_string())
    );
    assert_eq!(
        eng().notation_completions("gain d", &b),
        vec!["dodge".to_string()]
    );
}

// --- schema, examples, garbage ----------------------------------------------

#[test]
fn schema_describes_the_board() {
    let s = eng().schema();
    assert_eq!(s["properties"]["game"]["const"], "legion");
    assert_eq!(s["$defs"]["Unit"]["additionalProperties"], false);
    assert_eq!(s["$defs"]["Token"]["additionalProperties"], false);
    assert!(s["$defs"]["Step"]["properties"]["free_action"].is_object());
    assert!(s["properties"]["players"].is_object());
    // Limits are on the types: the schema states them.
    assert_eq!(s["properties"]["players"]["maxItems"], 8);
    assert_eq!(s["properties"]["round"]["minimum"], 1);
    let unit = &s["$defs"]["Unit"]["properties"];
    assert_eq!(unit["name"]["maxLength"], 400);
    assert_eq!(unit["abilities"]["maxItems"], 32);
    assert_eq!(unit["performed"]["maxItems"], 64);
}

#[test]
fn every_example_judges_and_cites_known_rules() {
    let uses: Vec<&str> = eng().rule_uses().iter().map(|u| u.rule).collect();
    let mut n = 0;
    for entry in std::fs::read_dir("examples/legion").unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let r = eng()
            .judge_text(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for rule in r
            .steps
            .iter()
            .map(|s| s.rule.as_str())
            .chain(r.diagnostics.iter().filter_map(|d| d.rule.as_deref()))
        {
            assert!(
                uses.contains(&rule),
                "{}: {rule} not in rule_uses",
                path.display()
            );
        }
        // the state judges again
        judge(&r.state.to_string());
        n += 1;
    }
    assert!(n >= 6);
}

#[test]
fn rule_quotes_are_verbatim() {
    let app = arbiter::app::App::load(std::path::Path::new("rules_data"), &[]).unwrap();
    for u in eng().rule_uses() {
        let reply = app
            .cite(u.rule, false)
            .unwrap_or_else(|e| panic!("{}: {e}", u.rule));
        let text: String = reply.passages[0]
            .text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            text.contains(u.quote),
            "{}: {:?} not in {:?}",
            u.rule,
            u.quote,
            text
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn garbage_never_panics(s in "\\PC{0,300}") {
        let _ = eng().judge_text(&s);
        let _ = eng().parse_notation(&s, &board_of(VADER));
        let _ = eng().notation_completions(&s, &board_of(VADER));
    }

    #[test]
    fn random_plays_never_panic(steps in proptest::collection::vec(0usize..12, 0..10)) {
        const STEPS: [&str; 12] = [
            "  - action: move", "  - action: attack", "  - action: aim", "  - action: standby",
            "  - action: card\n    card: Force Choke", "  - free_action: attack\n    ability: Relentless",
            "  - free_action: aim\n    effect: X\n    untyped: true", "  - extra_attack: true\n    effect: \"Y\"",
            "  - gain: dodge\n    effect: Z", "  - action: recover", "  - free_action: move\n    effect: W", "  - action: dodge",
        ];
        let play: Vec<&str> = steps.iter().map(|i| STEPS[*i]).collect();
        let d = doc(VADER, &play.join("\n"));
        let r = eng().judge_text(&d);
        proptest::prop_assert!(r.is_ok());
        let r = r.unwrap();
        if !r.legal { proptest::prop_assert!(r.changes.is_empty()); }
        // the state always judges again
        proptest::prop_assert!(eng().judge_text(&r.state.to_string()).is_ok());
    }
}

#[test]
fn changes_are_the_diff_of_the_whole_board() {
    for (unit, play) in [
        (
            SCOUTS,
            "  - gain: aim\n    effect: Coordinated Fire\n  - action: aim",
        ),
        (
            "  name: S\n  tokens: { aim: 1 }\n  performed: [{action: move}]",
            "  - action: dodge",
        ),
    ] {
        let d = doc(unit, play);
        let r = judge(&d);
        assert!(r.legal);
        let mut want = engine::diff(&canonical(&d), &r.state);
        let mut got = r.changes.clone();
        want.sort_by(|a, b| a.path.cmp(&b.path));
        got.sort_by(|a, b| a.path.cmp(&b.path));
        assert_eq!(got, want);
        assert!(!got.is_empty());
    }
}

#[test]
fn notation_free_actions_as_card_actions() {
    let b = board_of(VADER);
    let p = eng()
        .parse_notation(
            "free action as card force choke (effect: Take Initiative)",
            &b,
        )
        .unwrap();
    assert_eq!(
        p,
        json!([{ "free_action": "card", "card": "Force Choke", "effect": "Take Initiative", "untyped": true }])
    );
    let p = eng()
        .parse_notation(
            "free action card Force Choke (effect: Master of the Force)",
            &b,
        )
        .unwrap();
    assert_eq!(
        p,
        json!([{ "free_action": "card", "card": "Force Choke", "effect": "Master of the Force" }])
    );
    let mut doc = b.clone();
    doc["play"] = json!([{ "action": "card", "card": "Force Choke" }]);
    doc["play"]
        .as_array_mut()
        .unwrap()
        .extend(p.as_array().unwrap().iter().cloned());
    assert_eq!(
        error_rule(&judge(&doc.to_string())),
        Some("legion:actions.3.1")
    );
}

#[test]
fn free_moves_and_zero_actions() {
    // a free move does not block a move action: move may repeat
    let r = judge(&doc(
        TROOPERS,
        "  - free_action: move\n    effect: Bounty\n  - action: move\n  - action: move",
    ));
    assert!(r.legal, "{r:#?}");
    // a unit with no actions left can still take free actions and non-action attacks
    let unit = "  name: Pinned\n  reduced_by:\n    - amount: 2\n      source: damage";
    let r = judge(&doc(
        unit,
        "  - free_action: attack\n    effect: Fire support\n  - extra_attack: true\n    effect: \"Y\"",
    ));
    assert!(r.legal, "{r:#?}");
    assert!(
        r.steps[0]
            .numbers
            .contains(&("actions available".into(), 0))
    );
    let r = judge(&doc(unit, "  - action: move"));
    assert_eq!(error_rule(&r), Some("legion:actions.5"));
}

#[test]
fn a_free_card_action_trigger_is_marked_as_an_assumption() {
    let unit = "  name: Dooku
  free_card_actions: [Force Lightning]
  abilities:
    - name: Afterglow
      after: any
      grants: token
      token: dodge";
    let r = judge(&doc(
        unit,
        "  - free_card_action: Force Lightning\n  - gain: dodge\n    ability: Afterglow",
    ));
    assert!(r.legal, "{r:#?}");
    let t = r
        .steps
        .iter()
        .find(|s| s.text.starts_with("Afterglow triggers"))
        .unwrap();
    assert!(t.assumption.is_some());
}

#[test]
fn notation_sources_with_non_ascii_text() {
    let b = board_of(TROOPERS);
    let p = eng()
        .parse_notation("gain aim FROM effect İstanbul Ördek", &b)
        .unwrap();
    assert_eq!(p[0], json!({ "gain": "aim", "effect": "İstanbul Ördek" }));
}

// --- whole matches: players, turns, decisions, phases, result ---------------

use arbiter::engine::{Asking, document::parse_value, merge_patch};
use serde_json::Value;

/// Two players, two units each, round 1, Ana to activate first.
const MATCH: &str = "game: legion
phase: activation
turn: Ana
last_round: 2
players:
  - name: Ana
    points: 0
    units:
      - name: Darth Vader
        abilities:
          - { name: Relentless, after: move, grants: free_action, action: attack }
        card_actions: [Force Choke]
      - name: Stormtroopers
  - name: Ben
    points: 0
    units:
      - name: Luke Skywalker
        card_actions: [Force Push]
      - name: Rebel Troopers
";

fn match_board() -> Value {
    eng().check_board(&parse_value(MATCH).unwrap()).unwrap()
}

/// Judges `play` on `board` as written by `asking`; a ruling is kept as
/// the test's snapshot.
fn judge_as(board: &Value, play: Value, asking: &Asking) -> Result<Ruling, engine::BoardError> {
    let mut doc = board.clone();
    doc["play"] = play;
    eng().judge(doc, None, asking).inspect(snapshot::ruling)
}

/// A notation line played by `seat`: its actor is that seat, and it is legal.
fn play_line(board: &Value, seat: usize, line: &str) -> Value {
    let play = eng().parse_notation(line, board).unwrap();
    assert_eq!(eng().actor(board, &play).unwrap(), Some(seat), "{line}");
    let r = judge_as(board, play, &Asking::seat(seat)).unwrap();
    assert!(
        r.legal && r.pending.is_none(),
        "{line}: {:#?}",
        r.diagnostics
    );
    r.state
}

fn turn(board: &Value) -> Option<String> {
    eng().status(board).unwrap().turn
}

#[test]
fn a_whole_game_runs_through_rounds_to_a_result() {
    let mut b = match_board();
    assert_eq!(eng().players(&b).unwrap(), ["Ana", "Ben"]);
    // Ana does not name the unit: she is asked which one (no default).
    let mut play = json!([{ "action": "move" }]);
    let r = judge_as(&b, play.clone(), &Asking::seat(0)).unwrap();
    let d = r.pending.expect("Ana chooses the unit");
    assert_eq!(
        (d.player.as_str(), d.key.as_str(), d.default),
        ("Ana", "unit", None)
    );
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["activate Darth Vader", "activate Stormtroopers"]);
    assert!(r.changes.is_empty());
    // She answers with the option's patch.
    merge_patch(&mut play, &d.options[0].patch);
    let asking = Asking {
        answered: vec![(d.key, 0)],
        ..Asking::seat(0)
    };
    let r = judge_as(&b, play, &asking).unwrap();
    assert!(r.legal && r.pending.is_none(), "{:#?}", r.diagnostics);
    assert_eq!(r.steps[0].rule, "legion:actions");
    assert_eq!(r.state["active"], "Darth Vader");
    b = r.state;
    b = play_line(&b, 0, "free attack; end");
    assert_eq!(turn(&b).as_deref(), Some("Ben"), "players take turns");
    assert!(b.get("active").is_none());
    b = play_line(&b, 1, "activate luke; card action force push; move; end");
    // Units still to activate: leaving the phase is refused, naming them.
    let r = eng().advance(&b, None).inspect(snapshot::ruling).unwrap();
    assert!(!r.legal);
    let e = &r.diagnostics[0];
    assert_eq!((e.severity, e.rule.as_deref()), (Severity::Error, None));
    assert!(
        e.message
            .contains("Ana (Stormtroopers); Ben (Rebel Troopers)"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("outside the indexed rules"),
        "{}",
        e.message
    );
    b = play_line(&b, 0, "activate Stormtroopers; aim; end");
    b = play_line(&b, 1, "activate Rebel Troopers; dodge; end");
    assert_eq!(turn(&b), None, "every unit has activated");
    // End Phase: tokens removed; Command Phase: round 2, activations cleared.
    let r = eng().advance(&b, None).inspect(snapshot::ruling).unwrap();
    assert!(r.legal, "{:#?}", r.diagnostics);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.contains("tokens removed")
                && d.message.contains("outside the indexed rules"))
    );
    let r = eng()
        .advance(&r.state, None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert_eq!(
        (r.state["phase"].as_str(), r.state["round"].as_u64()),
        (Some("command"), Some(2))
    );
    assert!(r.state["players"][1]["units"][1].get("tokens").is_none());
    assert!(r.state["players"][0]["units"][0].get("activated").is_none());
    // The Command Phase decides priority (outside the indexed text): adjust.
    let a = eng().adjust(&r.state, "turn", "ben").unwrap();
    assert_eq!(a.after, json!("Ben"));
    let r = eng()
        .advance(&a.state, None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert_eq!(turn(&r.state).as_deref(), Some("Ben"));
    assert!(r.steps.iter().any(|s| s.rule == "legion:actions"));
    b = r.state;
    assert!(eng().status(&b).unwrap().result.is_none());
    b = play_line(&b, 1, "activate Rebel Troopers; move; move; end");
    b = play_line(
        &b,
        0,
        "activate darth; move; free attack (Relentless); card action Force Choke",
    );
    let r = judge_as(&b, json!([{ "end": true }]), &Asking::seat(0)).unwrap();
    assert!(r.legal);
    b = r.state;
    b = play_line(&b, 1, "activate Luke; attack; end");
    b = play_line(&b, 0, "activate Stormtroopers; end");
    b = eng().adjust(&b, "Ana.points", "5").unwrap().state;
    b = eng().adjust(&b, "players.Ben.points", "7").unwrap().state;
    let r = eng()
        .advance(&b, Some("command"))
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(r.legal, "{:#?}", r.diagnostics);
    let status = r.status.unwrap();
    assert_eq!(status.round, Some(3));
    let result = status.result.expect("the last round is over");
    assert_eq!(
        (result.winner.as_deref(), result.rule.as_deref()),
        (Some("Ben"), None)
    );
    assert!(
        result.reason.contains("outside the indexed rules"),
        "{}",
        result.reason
    );
}

#[test]
fn a_player_with_no_units_left_decides_the_result() {
    let b = match_board();
    // A unit that will not activate is marked by its player (the documented way on).
    let a = eng()
        .adjust(&b, "players.Ana.units.Stormtroopers.activated", "true")
        .unwrap();
    assert_eq!(
        (a.field.as_str(), a.owner),
        ("players[0].units[1].activated", Some(0))
    );
    let a = eng().adjust(&b, "Ben.units", "[]").unwrap();
    let result = eng().status(&a.state).unwrap().result.unwrap();
    assert_eq!(result.winner.as_deref(), Some("Ana"));
    assert_eq!(result.rule, None);
    // One player alone (the single-unit form) has no result.
    assert!(
        judge(&doc(TROOPERS, "  - action: move"))
            .status
            .unwrap()
            .result
            .is_none()
    );
}

#[test]
fn decisions_belong_to_the_player_whose_unit_it_is() {
    let b = match_board();
    // Ben writes a play for Ana's turn: Ana is asked which unit.
    let r = judge_as(&b, json!([{ "action": "move" }]), &Asking::seat(1)).unwrap();
    let d = r.pending.unwrap();
    assert_eq!((d.player.as_str(), d.seat), ("Ana", 0));
    // Ben cannot state Ana's choice himself...
    let play = json!([{ "activate": "Darth Vader" }, { "action": "move" }]);
    let e = judge_as(&b, play.clone(), &Asking::seat(1)).unwrap_err();
    assert!(e.message.contains("Ana's choice"), "{}", e.message);
    // ...unless she agreed, or she answered it.
    let agreed = Asking {
        agreed: true,
        ..Asking::seat(1)
    };
    assert!(judge_as(&b, play.clone(), &agreed).unwrap().legal);
    let answered = Asking {
        answered: vec![("unit".into(), 0)],
        ..Asking::seat(1)
    };
    assert!(judge_as(&b, play, &answered).unwrap().legal);
}

#[test]
fn an_unstated_untyped_is_asked_of_the_units_player_in_a_match_and_assumed_outside() {
    let b = match_board();
    let play = json!([{ "activate": "Stormtroopers" }, { "free_action": "dodge", "effect": "Take Initiative" }]);
    // Outside a match: the typed reading, labelled as an assumption (rules
    // 7 and 8 give no default).
    let r = judge_as(&b, play.clone(), &Asking::judge()).unwrap();
    assert!(r.legal, "{:#?}", r.diagnostics);
    let step = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.7")
        .unwrap();
    let why = step.choice.as_ref().unwrap().assumed.as_deref().unwrap();
    assert!(
        why.starts_with("not stated on the board; assumed: legion:actions.7"),
        "{why}"
    );
    assert!(why.contains("give no default"), "{why}");
    // Stated: not labelled.
    let mut stated = play.clone();
    stated[1]["untyped"] = json!(true);
    let r = judge_as(&b, stated, &Asking::seat(0)).unwrap();
    let step = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.8")
        .unwrap();
    assert!(step.choice.as_ref().unwrap().assumed.is_none());
    // In a match, Ana is asked whoever wrote the play: herself, Ben (once
    // she answered the activation), or a moderator (who writes as her seat,
    // every other seat agreed). The default offered is marked assumed.
    let by_ben = Asking {
        answered: vec![("unit".into(), 0)],
        ..Asking::seat(1)
    };
    let by_moderator = Asking {
        agreed_by: vec![1],
        ..Asking::seat(0)
    };
    for asking in [Asking::seat(0), by_ben, by_moderator] {
        let d = judge_as(&b, play.clone(), &asking)
            .unwrap()
            .pending
            .unwrap();
        assert_eq!(
            (d.key.as_str(), d.seat, d.default, d.default_assumed),
            ("untyped:1", 0, Some(0), true)
        );
    }
}

#[test]
fn a_unit_name_ending_in_s_takes_an_apostrophe_alone() {
    // A name ending in s takes an apostrophe alone: "Stormtroopers'".
    let mid = play_line(&match_board(), 0, "activate Stormtroopers; move; move");
    let r = judge_as(
        &mid,
        json!([{ "activate": "Rebel Troopers" }]),
        &Asking::seat(1),
    )
    .unwrap();
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.starts_with("Stormtroopers' activation ends")),
        "{:#?}",
        r.diagnostics
    );
}

#[test]
fn names_resolve_by_prefix_and_case_but_not_look_alike_letters() {
    let mut v = parse_value(MATCH).unwrap();
    v["turn"] = json!("BE");
    let b = eng().check_board(&v).unwrap();
    assert_eq!(b["turn"], "Ben", "written in the board's spelling");
    v["turn"] = json!("Веn"); // Cyrillic В and е
    let e = eng().check_board(&v).unwrap_err();
    assert!(e.message.contains("did you mean 'Ben'"), "{}", e.message);
    let b = match_board();
    assert_eq!(
        eng().actor(&b, &json!([{ "activate": "luke" }])).unwrap(),
        Some(1)
    );
    assert_eq!(
        eng().actor(&b, &json!([{ "activate": "DARTH" }])).unwrap(),
        Some(0)
    );
    assert_eq!(
        eng().actor(&b, &json!([{ "action": "move" }])).unwrap(),
        Some(0)
    );
    let e = eng()
        .actor(&b, &json!([{ "activate": "Luке Skywalker" }]))
        .unwrap_err();
    assert!(e.message.contains("unknown unit"), "{}", e.message);
    // The active unit's player makes a play that continues it.
    let mid = play_line(&b, 0, "activate Stormtroopers; move");
    assert_eq!(
        eng().actor(&mid, &json!([{ "action": "aim" }])).unwrap(),
        Some(0)
    );
    let a = eng().adjust(&mid, "active", "storm").unwrap();
    assert_eq!(a.after, json!("Stormtroopers"));
}

#[test]
fn turns_and_once_a_round_are_checked_outside_the_indexed_rules() {
    let b = match_board();
    let r = judge_as(
        &b,
        json!([{ "activate": "Luke Skywalker" }]),
        &Asking::seat(1),
    )
    .unwrap();
    assert!(!r.legal);
    assert!(
        r.diagnostics[0].message.contains("it is Ana's turn"),
        "{:?}",
        r.diagnostics
    );
    let b = play_line(&b, 0, "activate Stormtroopers; end");
    let b = play_line(&b, 1, "activate Luke Skywalker; end");
    let r = judge_as(
        &b,
        json!([{ "activate": "Stormtroopers" }]),
        &Asking::seat(0),
    )
    .unwrap();
    assert!(
        r.diagnostics[0]
            .message
            .contains("already activated this round")
    );
    // Another player's activation does not end one that still has an
    // action left (issue 28: it used to, taking Ana's turn)...
    let mid = play_line(&b, 0, "activate Darth; move");
    let rebels = json!([{ "activate": "Rebel Troopers" }, { "action": "move" }]);
    let r = judge_as(&mid, rebels.clone(), &Asking::seat(1)).unwrap();
    assert!(!r.legal);
    assert!(
        r.diagnostics[0]
            .message
            .contains("Darth Vader (Ana's) is still activating with 1 action left"),
        "{:#?}",
        r.diagnostics
    );
    // ...and ends it once its actions are used.
    let mid = play_line(&b, 0, "activate Darth; move; move");
    let r = judge_as(&mid, rebels, &Asking::seat(1)).unwrap();
    assert!(r.legal, "{:#?}", r.diagnostics);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.message.starts_with("Darth Vader's activation ends"))
    );
    // Actions outside the Activation Phase are refused with the indexed rule.
    let mut cmd = b.clone();
    cmd["phase"] = json!("command");
    let r = judge_as(
        &cmd,
        json!([{ "activate": "Darth Vader" }]),
        &Asking::seat(0),
    )
    .unwrap();
    assert_eq!(error_rule(&r), Some("legion:actions"));
}

#[test]
fn a_token_from_an_effect_can_be_stated_on_the_board() {
    let unit = "  name: Scouts
  tokens:
    - { kind: aim, source: effect, name: \"Command card: Coordinated Fire\" }";
    let r = judge(&doc(unit, "  - action: aim"));
    assert!(r.legal);
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "legion:actions.10")
        .unwrap();
    assert!(
        s.text.contains("may still perform an aim action"),
        "{}",
        s.text
    );
    assert_eq!(
        tokens(&r),
        [
            ("aim".into(), "effect".into()),
            ("aim".into(), "action".into())
        ]
    );
    let e = eng()
        .judge_text(&doc(
            "  name: S\n  tokens: [{ kind: aim, source: ability, name: Nope }]",
            "  - action: move",
        ))
        .unwrap_err();
    assert!(e.message.contains("unknown ability"), "{}", e.message);
}

#[test]
fn card_text_the_engine_does_not_apply_is_said() {
    let unit = "  name: Vader\n  card_actions: [Force Choke]\n  abilities:\n    - { name: Menace, after: move, text: \"Enemies gain suppression\" }";
    let r = judge(&doc(
        unit,
        "  - action: move\n  - action: card\n    card: Force Choke",
    ));
    let warned: Vec<&str> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        warned
            .iter()
            .any(|m| m.starts_with("card text not applied: Menace: 'Enemies")),
        "{warned:?}"
    );
    assert!(
        warned
            .iter()
            .any(|m| m.starts_with("card text not applied: what the card action Force Choke")),
        "{warned:?}"
    );
}

#[test]
fn the_documented_notation_examples_parse_and_judge() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/games/legion.md"))
            .unwrap();
    let section = docs
        .split("Examples:\n\n```text")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .unwrap();
    let unit = "  name: Darth Vader
  abilities:
    - { name: Relentless, after: move, grants: free_action, action: attack }
    - { name: Gunslinger, after: attack, grants: extra_attack }
    - { name: Spotter Drill, after: aim, grants: token, token: dodge }
  card_actions: [Force Choke]
  free_card_actions: [Saber Throw]";
    let b = board_of(unit);
    let mut n = 0;
    for line in section.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let play = eng()
            .parse_notation(line, &b)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let r = judge_as(&b, play, &Asking::judge()).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(r.legal || !r.diagnostics.is_empty(), "{line}");
        n += 1;
    }
    assert!(n >= 6);
}

mod random_games {
    use super::*;
    use proptest::prelude::*;

    const STEPS: [&str; 14] = [
        "move",
        "attack",
        "aim",
        "dodge",
        "standby",
        "recover",
        "card action Force Choke",
        "free attack (Relentless)",
        "free action as aim (effect: X)",
        "extra attack (effect: Y)",
        "gain dodge (effect: Z)",
        "free card action Saber Throw",
        "free move (effect: W)",
        "gain aim (Spotter)",
    ];

    fn board(units: usize, reduced: u32, abilities: bool) -> Value {
        let unit = |i: usize| {
            let mut u = json!({ "name": format!("Unit {i}"), "card_actions": ["Force Choke"], "free_card_actions": ["Saber Throw"] });
            if abilities {
                u["abilities"] = json!([
                    { "name": "Relentless", "after": "move", "grants": "free_action", "action": "attack" },
                    { "name": "Spotter", "after": "aim", "grants": "token", "token": "aim" }
                ]);
            }
            if reduced > 0 {
                u["reduced_by"] = json!([{ "amount": reduced, "source": "suppression" }]);
            }
            u
        };
        let players = json!([
            { "name": "Ana", "units": (0..units).map(unit).collect::<Vec<_>>() },
            { "name": "Ben", "units": (units..2 * units).map(unit).collect::<Vec<_>>() }
        ]);
        json!({ "game": "legion", "turn": "Ana", "players": players })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn rulings_on_random_legal_boards_give_valid_boards(
            units in 1usize..3, reduced in 0u32..3, abilities in any::<bool>(),
            steps in proptest::collection::vec(0usize..14, 0..7), end in any::<bool>(),
        ) {
            let b = board(units, reduced, abilities);
            let b = eng().check_board(&b).unwrap();
            let mut line = String::from("activate Unit 0");
            for s in &steps {
                line += "; ";
                line += STEPS[*s];
            }
            if end {
                line += "; end";
            }
            let Ok(play) = eng().parse_notation(&line, &b) else {
                // Only steps naming an ability the board lacks fail to parse.
                prop_assert!(!abilities);
                return Ok(());
            };
            // Not `judge_as`: a random board is no snapshot.
            let mut doc = b.clone();
            doc["play"] = play;
            let r = eng().judge(doc, None, &Asking::judge()).unwrap();
            let uses: Vec<&str> = eng().rule_uses().iter().map(|u| u.rule).collect();
            for rule in r.steps.iter().map(|s| s.rule.as_str()).chain(r.diagnostics.iter().filter_map(|d| d.rule.as_deref())) {
                prop_assert!(uses.contains(&rule), "{rule}");
            }
            let errors = r.diagnostics.iter().any(|d| d.severity == Severity::Error);
            prop_assert_eq!(r.legal, !errors);
            if !r.legal {
                prop_assert_eq!(&r.state, &b);
            }
            let again = eng().check_board(&r.state);
            prop_assert!(again.is_ok(), "{:?}", again);
            prop_assert_eq!(again.unwrap(), r.state.clone());
            prop_assert!(eng().judge_text(&r.state.to_string()).is_ok());
        }
    }
}

#[test]
fn tokens_from_the_record_so_far_are_not_gained_twice() {
    // The record says the unit aimed (and got its token); continuing the
    // activation must not add that token again.
    let unit = "  name: Scouts
  tokens: [{ kind: aim, source: action }]
  performed: [{ action: aim }]";
    let r = judge(&doc(unit, "  - action: move"));
    assert!(r.legal, "{:#?}", r.diagnostics);
    assert_eq!(tokens(&r), [("aim".to_string(), "action".to_string())]);
    let r = judge(&doc(unit, "  - action: dodge"));
    assert_eq!(
        tokens(&r),
        [
            ("aim".to_string(), "action".to_string()),
            ("dodge".to_string(), "action".to_string())
        ]
    );
}

#[test]
fn two_units_named_alike_in_any_case_are_a_board_error_at_the_second() {
    let twin = MATCH.replace("      - name: Stormtroopers", "      - name: darth VADER");
    let e = eng().check_board(&parse_value(&twin).unwrap()).unwrap_err();
    assert_eq!(e.path.as_deref(), Some("players[0].units[1].name"));
    assert!(e.message.contains("name them apart"), "{e}");
    // Different names stay apart, whatever their case.
    assert!(eng().check_board(&parse_value(MATCH).unwrap()).is_ok());
}

/// An ability's card text may break lines as printed (a YAML block); a
/// unit's name may not, nor hold a text-direction control.
#[test]
fn an_abilitys_text_may_break_lines_and_a_name_may_not() {
    let printed = MATCH.replace(
        "          - { name: Relentless, after: move, grants: free_action, action: attack }",
        "          - name: Relentless\n            after: move\n            grants: free_action\n            action: attack\n            text: |\n              After this unit performs a move action,\n              it may perform a free attack action.",
    );
    let b = eng()
        .check_board(&parse_value(&printed).unwrap())
        .expect("card text over two lines");
    assert!(
        b.to_string().contains("move action,\\nit may"),
        "the text as printed: {b}"
    );
    for name in ["\"Darth\\nVader\"", "\"Darth Vader\\u202e\""] {
        let bad = MATCH.replace(
            "      - name: Darth Vader",
            &format!("      - name: {name}"),
        );
        let e = eng().check_board(&parse_value(&bad).unwrap()).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("players[0].units[0].name"), "{e}");
        assert!(e.message.contains("text-direction"), "{e}");
    }
}

/// A step granted by an effect the board does not record is a claim (its
/// author's word); one granted by an ability on the board is not.
#[test]
fn an_effects_grant_is_a_claim_and_an_abilitys_is_not() {
    let judge = |unit: &str, play: &str| eng().judge_text(&doc(unit, play)).expect("board");
    let r = judge(
        TROOPERS,
        "  - action: move\n  - free_action: dodge\n    effect: Take Initiative\n    untyped: true",
    );
    assert!(r.legal, "{r:#?}");
    let paths: Vec<&str> = r.claims.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["play[1].effect"]);
    assert!(
        r.claims[0].text.contains("Take Initiative"),
        "{:?}",
        r.claims
    );
    let r = judge(TROOPERS, "  - gain: aim\n    effect: Coordinated Fire");
    assert_eq!(r.claims.len(), 1, "{:?}", r.claims);
    assert_eq!(
        r.claims[0].rule, "legion:actions.10",
        "a token an effect gives is actions.10's, not the two actions'"
    );
    let r = judge(
        VADER,
        "  - action: move\n  - free_action: attack\n    ability: Relentless",
    );
    assert!(r.legal && r.claims.is_empty(), "{r:#?}");
}
