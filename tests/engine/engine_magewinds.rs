//! Magewinds Action Phase engine: one test per rule-bearing sentence of
//! 13.0–13.5, one per illegal play of the issue, a whole phase, notation,
//! schema, citations and garbage input.

use crate::snapshot;
use arbiter::app::App;
use arbiter::engine::{
    Asking, BoardError, ErrorKind, GameEngine, Ruling, Severity, document, merge_patch,
};
use serde_json::{Value, json};

/// Ana: Pyromancer (no counter, 0.71" from the Stonewarden), Stormcaller
/// (single), Golem (double). Bram: Stonewarden, Windrunner, Shade.
const BASE: &str = r#"game: magewinds
first_to_pass: Ana
turn: Ana
players:
  - name: Ana
    fighters:
      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt, Staff Strike], actions: [Fireball], visible: [Stonewarden, Golem]}
      - {name: Stormcaller, movement: 6, counter: single, position: [14, 6], attacks: [Lightning Lance], reactions: [{name: Deflect, trigger: attacked}]}
      - {name: Golem, movement: 4, counter: double, position: [20, 12], attacks: [Slam]}
  - name: Bram
    fighters:
      - name: Stonewarden
        movement: 4
        position: [10.5, 4.5]
        attacks: [Maul]
        reactions: [{name: Dodge, trigger: attacked}, {name: Counterspell, trigger: "an enemy casts a spell within 6 inches"}]
      - {name: Windrunner, movement: 7, position: [24, 18], attacks: [Gale Cut]}
      - {name: Shade, movement: 5, position: [30, 20], attacks: [Shadow Bolt]}
"#;

/// Judges a board, its ruling kept as the test's snapshot (tests/engine/snapshot.rs).
fn judge_doc(doc: &str) -> Ruling {
    match arbiter::engine::magewinds::ENGINE.judge_text(doc) {
        Ok(r) => {
            snapshot::ruling(&r);
            r
        }
        Err(e) => panic!("board error: {e}\n{doc}"),
    }
}

fn judge(extra: &str) -> Ruling {
    judge_doc(&format!("{BASE}{extra}"))
}

fn judge_with(replace: &[(&str, &str)], extra: &str) -> Ruling {
    let mut doc = BASE.to_string();
    for (a, b) in replace {
        assert!(doc.contains(a), "BASE lacks {a}");
        doc = doc.replacen(a, b, 1);
    }
    judge_doc(&format!("{doc}{extra}"))
}

fn rules(r: &Ruling) -> Vec<&str> {
    r.steps.iter().map(|s| s.rule.as_str()).collect()
}

fn fighter(r: &Ruling, p: usize, f: usize) -> &Value {
    &r.state["players"][p]["fighters"][f]
}

fn base_state() -> Value {
    let mut r = judge("play: {activate: Pyromancer, action: guard}\n");
    // The state before the play, for comparing illegal rulings against.
    r.state["players"][0]["fighters"][0]["counter"] = json!("none");
    r.state["players"][0]["fighters"][0]["guard"] = json!(false);
    r.state["turn"] = json!("Ana");
    r.state.as_object_mut().map(|m| m.remove("last_action"));
    r.state
}

/// An illegal play: the diagnostic's rule and path, and the state unchanged.
fn assert_illegal(r: &Ruling, rule: &str, path: &str) {
    assert!(!r.legal, "expected illegal: {r:#?}");
    let errs: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errs.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(errs[0].rule.as_deref(), Some(rule), "{:#?}", r.diagnostics);
    assert_eq!(errs[0].path.as_deref(), Some(path), "{:#?}", r.diagnostics);
    assert!(r.changes.is_empty());
}

// ---------------------------------------------------------------- 13.0

#[test]
fn first_turn_goes_to_the_first_to_pass() {
    // Stated with `first_turn`, never guessed: the Stormcaller's and the
    // Golem's counters (a summoned Minion starts with one) do not matter.
    let r = judge_with(
        &[("turn: Ana\n", "first_turn: true\n")],
        "play: {activate: Pyromancer, action: guard}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(r.steps[0].rule, "magewinds:13.0");
    assert!(
        r.steps[0].text.contains("first turn"),
        "{}",
        r.steps[0].text
    );
    assert!(r.steps[0].text.contains("Ana"));
    assert_eq!(r.state["turn"], "Bram");
    assert!(
        r.state.get("first_turn").is_none(),
        "the first turn is over"
    );
}

#[test]
fn first_turn_refuses_the_other_player() {
    let r = judge_with(
        &[("turn: Ana\n", "first_turn: true\n")],
        "play: {activate: Shade, action: guard}\n",
    );
    assert_illegal(&r, "magewinds:13.0", "play.activate");
    assert!(
        r.diagnostics[0].message.contains("Ana's turn"),
        "{}",
        r.diagnostics[0].message
    );
    assert_eq!(
        r.state["turn"], "Ana",
        "the board as given, its first turn written out"
    );
    assert_eq!(r.state["first_turn"], true);
}

#[test]
fn a_board_in_mid_phase_must_say_whose_turn_it_is() {
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{}play: {{activate: Pyromancer, action: guard}}\n",
            BASE.replace("turn: Ana\n", "")
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("turn"));
    assert_eq!(e.rule.as_deref(), Some("magewinds:13.0"));
}

#[test]
fn first_turn_mismatch_is_refused() {
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{}play: {{activate: Shade, action: guard}}\n",
            BASE.replace("turn: Ana\n", "turn: Bram\nfirst_turn: true\n")
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("turn"));
    assert_eq!(e.rule.as_deref(), Some("magewinds:13.0"));
    assert!(e.message.contains("first turn"), "{}", e.message);
}

#[test]
fn an_action_counter_on_turn_one_is_fine() {
    // Issue 15: a summoned Minion starts with a counter on turn one; the
    // first turn is read from `first_turn`, not from the counters.
    let doc = BASE.replace("turn: Ana\n", "first_turn: true\n").replace(
        "{name: Shade, movement: 5, position",
        "{name: Shade, movement: 5, counter: single, position",
    );
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Stormcaller, action: guard}}\n"
    ));
    assert!(r.legal, "{:#?}", r.diagnostics);
    assert!(
        r.steps[0].text.contains("first turn"),
        "{}",
        r.steps[0].text
    );
    assert_eq!(r.status.unwrap().turn.as_deref(), Some("Bram"));
}

#[test]
fn players_take_it_in_turns() {
    let r = judge(
        "plays:\n  - {activate: Pyromancer, action: guard}\n  - {activate: Shade, action: guard}\n  - {activate: Stormcaller, action: guard}\n",
    );
    assert!(r.legal, "{r:#?}");
    let turns: Vec<&str> = r
        .steps
        .iter()
        .filter(|s| s.text.contains("it is now"))
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(turns.len(), 3);
    assert!(
        turns[0].contains("Bram") && turns[1].contains("Ana") && turns[2].contains("Bram"),
        "{turns:?}"
    );
    assert_eq!(r.state["turn"], "Bram");
}

#[test]
fn wrong_players_turn_is_illegal() {
    let r = judge("play: {activate: Windrunner, action: move, distance: 3}\n");
    assert_illegal(&r, "magewinds:13.0", "play.activate");
    assert_eq!(r.state, base_state());
}

#[test]
fn activating_another_players_fighter_is_illegal() {
    let r = judge("play: {activate: Pyromancer, player: Bram, action: guard}\n");
    assert_illegal(&r, "magewinds:13.0", "play.player");
    assert!(
        r.diagnostics[0]
            .message
            .contains("one of your own fighters")
    );
}

#[test]
fn activation_is_cited_with_the_players_choice() {
    let r = judge("play: {activate: pyromancer, action: guard}\n");
    let s = &r.steps[0];
    assert_eq!(s.rule, "magewinds:13.0");
    let c = s.choice.as_ref().expect("choice");
    assert_eq!(
        (c.player.as_str(), c.chose.as_str()),
        ("Ana", "to activate Pyromancer")
    );
}

#[test]
fn an_action_gives_a_single_counter() {
    let r = judge("play: {activate: Pyromancer, action: guard}\n");
    assert!(r.legal);
    assert_eq!(fighter(&r, 0, 0)["counter"], "single");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("single action counter"))
        .expect("counter step");
    assert_eq!(s.rule, "magewinds:13.0");
    assert_eq!(s.numbers, vec![("action counters".to_string(), 1)]);
}

#[test]
fn a_second_action_gives_a_double_counter() {
    let r = judge("play: {activate: Stormcaller, action: guard}\n");
    assert!(r.legal);
    assert_eq!(fighter(&r, 0, 1)["counter"], "double");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("double action counter"))
        .expect("counter step");
    assert_eq!(s.rule, "magewinds:13.0");
    assert_eq!(s.numbers, vec![("action counters".to_string(), 2)]);
}

#[test]
fn double_countered_fighter_cannot_be_activated() {
    let r = judge("play: {activate: Golem, action: move, distance: 1}\n");
    assert_illegal(&r, "magewinds:13.0", "play.activate");
    assert!(r.diagnostics[0].message.contains("double action counter"));
    assert_eq!(r.state, base_state());
}

#[test]
fn turn_ends_for_a_player_with_no_fighter_left() {
    // Bram's fighters are all on double counters: the turn comes back to Ana.
    let doc = BASE
        .replace(
            "movement: 4\n        position: [10.5",
            "movement: 4\n        counter: double\n        position: [10.5",
        )
        .replace(
            "{name: Windrunner, movement: 7, position",
            "{name: Windrunner, movement: 7, counter: double, position",
        );
    let doc = doc.replace(
        "{name: Shade, movement: 5, position",
        "{name: Shade, movement: 5, counter: double, position",
    );
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Pyromancer, action: guard}}\n"
    ));
    assert!(r.legal, "{r:#?}");
    assert!(
        r.steps.iter().any(
            |s| s.rule == "magewinds:13.0" && s.text.contains("Bram has no fighters remaining")
        )
    );
    assert_eq!(r.state["turn"], "Ana");
}

#[test]
fn turn_player_with_nothing_to_activate_loses_the_turn_first() {
    let doc = BASE.replace("turn: Ana", "turn: Bram").replace(
        "movement: 4\n        position: [10.5",
        "movement: 4\n        counter: double\n        position: [10.5",
    );
    let doc = doc
        .replace(
            "{name: Windrunner, movement: 7, position",
            "{name: Windrunner, movement: 7, counter: double, position",
        )
        .replace(
            "{name: Shade, movement: 5, position",
            "{name: Shade, movement: 5, counter: double, position",
        );
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Pyromancer, action: guard}}\n"
    ));
    assert!(r.legal, "{r:#?}");
    assert!(
        r.steps[0].text.contains("Bram has no fighters remaining"),
        "{}",
        r.steps[0].text
    );
    assert_eq!(r.steps[0].rule, "magewinds:13.0");
}

#[test]
fn three_players_go_round_in_listed_order_and_say_so() {
    let doc = BASE.replace(
        "  - name: Bram\n",
        "  - name: Cara\n    fighters:\n      - {name: Wisp, movement: 6, position: [40, 40]}\n  - name: Bram\n",
    );
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Pyromancer, action: guard}}\n"
    ));
    assert_eq!(r.state["turn"], "Cara");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("it is now"))
        .expect("turn step");
    assert!(
        s.assumption
            .as_deref()
            .is_some_and(|a| a.contains("order the board lists"))
    );
}

#[test]
fn one_action_per_activation_named_action() {
    let r = judge("play: {activate: Pyromancer, action: fireball, target: Shade}\n");
    assert!(r.legal, "{r:#?}");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("Fireball"))
        .expect("action step");
    assert_eq!(s.rule, "magewinds:13.0");
    assert_eq!(
        r.state["last_action"],
        json!({"fighter": "Pyromancer", "action": "Fireball", "target": "Shade"})
    );
}

#[test]
fn an_action_the_fighter_does_not_have_is_illegal() {
    let r = judge("play: {activate: Pyromancer, action: Meteor Swarm}\n");
    assert_illegal(&r, "magewinds:13.0", "play.action");
}

// ---------------------------------------------------------------- 13.1

#[test]
fn step_move_comes_before_the_actions_effects() {
    let r = judge(
        "play: {activate: Pyromancer, action: attack, attack: Fire Bolt, target: Stonewarden, step_to: [10, 3.2]}\n",
    );
    assert!(r.legal, "{r:#?}");
    let step = r
        .steps
        .iter()
        .position(|s| s.rule == "magewinds:13.1")
        .expect("step move");
    let attack = r
        .steps
        .iter()
        .position(|s| s.rule == "magewinds:13.4.attack-action")
        .expect("attack");
    assert!(step < attack);
    assert_eq!(
        r.steps[step].numbers,
        vec![("step (tenths of an inch)".to_string(), 8)]
    );
    assert_eq!(fighter(&r, 0, 0)["position"], json!([10.0, 3.2]));
}

#[test]
fn step_move_over_one_inch_is_illegal() {
    let r = judge("play: {activate: Pyromancer, action: guard, step: 1.5}\n");
    assert_illegal(&r, "magewinds:13.1", "play.step");
    let r = judge("play: {activate: Pyromancer, action: guard, step_to: [11.2, 4]}\n");
    assert_illegal(&r, "magewinds:13.1", "play.step_to");
}

#[test]
fn step_move_of_exactly_one_inch_is_fine() {
    let r = judge("play: {activate: Pyromancer, action: guard, step: 1}\n");
    assert!(r.legal);
    assert!(rules(&r).contains(&"magewinds:13.1"));
}

// ---------------------------------------------------------------- 13.2

#[test]
fn free_action_places_no_counter() {
    let r = judge("play: {activate: Pyromancer, action: Fireball, free: true}\n");
    assert!(r.legal);
    assert_eq!(fighter(&r, 0, 0)["counter"], "none");
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "magewinds:13.2")
        .expect("free step");
    assert!(
        s.assumption.is_some(),
        "the rule making it free is not indexed"
    );
    assert_eq!(r.state["turn"], "Bram", "a free action still uses the turn");
}

#[test]
fn free_action_does_not_flip_a_single_counter() {
    let r = judge("play: {activate: Stormcaller, action: guard, free: true}\n");
    assert_eq!(fighter(&r, 0, 1)["counter"], "single");
    assert!(rules(&r).contains(&"magewinds:13.2"));
}

// ---------------------------------------------------------------- 13.3

#[test]
fn reaction_when_its_trigger_is_met() {
    let r = judge(
        "play:\n  activate: Pyromancer\n  attack: Fire Bolt\n  target: Stonewarden\n  reactions:\n    - {react: Dodge, fighter: Stonewarden}\n",
    );
    assert!(r.legal, "{r:#?}");
    let i = r
        .steps
        .iter()
        .position(|s| s.rule == "magewinds:13.3.1" && s.text.contains("Trigger condition met"))
        .expect("trigger");
    assert!(
        r.steps[i + 1]
            .choice
            .as_ref()
            .is_some_and(|c| c.player == "Bram")
    );
    assert_eq!(
        fighter(&r, 1, 0)["counter"],
        "single",
        "a reaction is an action: it gets a counter"
    );
    assert_eq!(fighter(&r, 0, 0)["counter"], "single");
}

#[test]
fn reaction_without_its_trigger_is_illegal() {
    let r = judge_with(
        &[(
            "turn: Ana\n",
            "turn: Ana\nlast_action: {fighter: Golem, action: attack, target: Windrunner}\n",
        )],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert_illegal(&r, "magewinds:13.3.1", "play.react");
    assert!(
        r.diagnostics[0]
            .message
            .contains("trigger condition is not met")
    );
}

#[test]
fn standalone_reaction_checks_the_last_action() {
    let r = judge_with(
        &[(
            "turn: Ana\n",
            "turn: Ana\nlast_action: {fighter: Golem, action: attack, target: Stonewarden}\n",
        )],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(r.state["turn"], "Ana", "a reaction does not take a turn");
    assert_eq!(fighter(&r, 1, 0)["counter"], "single");
}

#[test]
fn a_reaction_that_uses_up_the_turn_players_last_fighter_ends_their_turn() {
    // Bram's turn; the Stonewarden (single) is his only fighter left and reacts.
    let r = judge_with(
        &[
            (
                "turn: Ana\n",
                "turn: Bram\nlast_action: {fighter: Pyromancer, action: attack, target: Stonewarden}\n",
            ),
            (
                "movement: 4\n        position",
                "movement: 4\n        counter: single\n        position",
            ),
            (
                "{name: Windrunner, movement: 7, position",
                "{name: Windrunner, movement: 7, counter: double, position",
            ),
            (
                "{name: Shade, movement: 5, position",
                "{name: Shade, movement: 5, counter: double, position",
            ),
        ],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(fighter(&r, 1, 0)["counter"], "double");
    assert!(
        r.steps.iter().any(
            |s| s.rule == "magewinds:13.0" && s.text.contains("Bram has no fighters remaining")
        )
    );
    assert_eq!(r.state["turn"], "Ana");
}

#[test]
fn reaction_by_another_player_is_illegal() {
    let r = judge_with(
        &[(
            "turn: Ana\n",
            "turn: Ana\nlast_action: {fighter: Golem, action: attack, target: Stonewarden}\n",
        )],
        "play: {react: Dodge, fighter: Stonewarden, player: Ana}\n",
    );
    assert_illegal(&r, "magewinds:13.3.1", "play.player");
    assert!(r.diagnostics[0].message.contains("controlling player"));
}

#[test]
fn reaction_the_fighter_lacks_is_illegal() {
    let r = judge_with(
        &[(
            "turn: Ana\n",
            "turn: Ana\nlast_action: {fighter: Golem, action: attack, target: Windrunner}\n",
        )],
        "play: {react: Dodge, fighter: Windrunner}\n",
    );
    assert_illegal(&r, "magewinds:13.3.1", "play.react");
}

#[test]
fn unverifiable_trigger_needs_the_players_word() {
    let r = judge("play: {react: Counterspell, fighter: Stonewarden}\n");
    assert_illegal(&r, "magewinds:13.3.1", "play.trigger_met");
    let r = judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: false}\n");
    assert_illegal(&r, "magewinds:13.3.1", "play.trigger_met");
    let r = judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: true}\n");
    assert!(r.legal);
    assert_eq!(r.steps[0].rule, "magewinds:13.3");
    assert!(
        r.steps[1]
            .assumption
            .as_deref()
            .is_some_and(|a| a.contains("trigger_met"))
    );
}

#[test]
fn reaction_step_move_comes_after_its_effects() {
    let r = judge(
        "play: {react: Counterspell, fighter: Stonewarden, trigger_met: true, step_to: [10.5, 5.5]}\n",
    );
    assert!(r.legal, "{r:#?}");
    let chose = r
        .steps
        .iter()
        .position(|s| s.choice.is_some())
        .expect("choice");
    let step = r
        .steps
        .iter()
        .position(|s| s.rule == "magewinds:13.3.2")
        .expect("step after");
    assert!(chose < step);
    assert!(!rules(&r).contains(&"magewinds:13.1"));
    assert_eq!(fighter(&r, 1, 0)["position"], json!([10.5, 5.5]));
}

#[test]
fn reaction_step_move_over_one_inch_is_illegal() {
    let r =
        judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: true, step: 2}\n");
    assert_illegal(&r, "magewinds:13.1", "play.step");
}

// ---------------------------------------------------------------- 13.4

#[test]
fn universal_actions_are_available_to_all_fighters() {
    for (action, extra) in [
        ("move", ", to: [5, 4]"),
        ("attack", ", target: Stonewarden, attack: Staff Strike"),
        ("guard", ""),
    ] {
        let r = judge_with(
            &[(
                "movement: 4\n        position: [10.5, 4.5]",
                "movement: 4\n        position: [30, 30]",
            )],
            &format!("play: {{activate: Pyromancer, action: {action}{extra}}}\n"),
        );
        assert!(r.legal, "{action}: {r:#?}");
        assert!(rules(&r).contains(&"magewinds:13.4"), "{action}");
    }
}

#[test]
fn move_up_to_movement() {
    let doc_far = [(
        "movement: 4\n        position: [10.5, 4.5]",
        "movement: 4\n        position: [30, 30]",
    )];
    let r = judge_with(
        &doc_far,
        "play: {activate: Pyromancer, action: move, to: [13, 8]}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(fighter(&r, 0, 0)["position"], json!([13.0, 8.0]));
    let s = r
        .steps
        .iter()
        .rfind(|s| s.rule == "magewinds:13.4.move-action")
        .expect("move");
    assert_eq!(s.numbers[0], ("moved (tenths of an inch)".to_string(), 50));
}

#[test]
fn moving_too_far_is_illegal() {
    let doc_far = [(
        "movement: 4\n        position: [10.5, 4.5]",
        "movement: 4\n        position: [30, 30]",
    )];
    let r = judge_with(
        &doc_far,
        "play: {activate: Pyromancer, action: move, distance: 5.5}\n",
    );
    assert_illegal(&r, "magewinds:13.4.move-action", "play.distance");
    let r = judge_with(
        &doc_far,
        "play: {activate: Pyromancer, action: move, to: [16, 4]}\n",
    );
    assert_illegal(&r, "magewinds:13.4.move-action", "play.to");
}

#[test]
fn a_move_giving_distance_and_to_needs_them_to_agree() {
    // 5" apart, but `distance` says 1": refused at `play.to`, not judged on
    // either distance.
    for to in ["[10, 9]", "[10, 20]"] {
        let e = arbiter::engine::magewinds::ENGINE
            .judge_text(&format!(
                "{BASE}play: {{activate: Pyromancer, action: move, distance: 1, to: {to}}}\n"
            ))
            .unwrap_err();
        assert_eq!(
            (e.kind, e.path.as_deref()),
            (ErrorKind::Semantic, Some("play.to"))
        );
        assert!(
            e.message.contains("`distance` says Pyromancer moves 1\""),
            "{e}"
        );
        assert!(e.message.contains(&format!("`to: {to}` is")), "{e}");
    }
    // They agree (to the hundredth of an inch): the Move stands.
    let r = judge("play: {activate: Pyromancer, action: move, distance: 2.83, to: [8, 6]}\n");
    assert!(r.legal, "{r:#?}");
    assert_eq!(fighter(&r, 0, 0)["position"], json!([8.0, 6.0]));
    // A longer distance is a path around (the straight line is only the
    // shortest way): judged on the distance stated, 3" of an allowance of
    // 3" here, and 4" is too far.
    let r = judge("play: {activate: Pyromancer, action: move, distance: 3, to: [8, 6]}\n");
    assert!(r.legal, "{r:#?}");
    let r = judge("play: {activate: Pyromancer, action: move, distance: 4, to: [8, 6]}\n");
    assert_illegal(&r, "magewinds:13.4.move-action", "play.distance");
}

#[test]
fn move_starting_within_one_inch_of_an_enemy_loses_two() {
    // The Stonewarden is 0.71" away: 5 - 2 = 3".
    let r = judge("play: {activate: Pyromancer, action: move, to: [7, 4]}\n");
    assert!(r.legal, "{r:#?}");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("within 1\""))
        .expect("within step");
    assert_eq!(s.rule, "magewinds:13.4.move-action");
    assert!(
        s.numbers
            .contains(&("allowance (tenths of an inch)".to_string(), 30))
    );
    assert!(
        s.numbers
            .contains(&("nearest enemy (tenths of an inch)".to_string(), 7))
    );
    let r = judge("play: {activate: Pyromancer, action: move, distance: 3.5}\n");
    assert_illegal(&r, "magewinds:13.4.move-action", "play.distance");
    assert!(r.diagnostics[0].message.contains("at most 3\""));
}

#[test]
fn a_movement_under_two_near_an_enemy_is_floored_at_zero_and_says_so() {
    let doc = "game: magewinds\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Imp, movement: 1, position: [10, 10], attacks: [Claw]}\n  - name: Bram\n    fighters:\n      - {name: Golem, movement: 4, position: [10, 10.5], attacks: [Slam]}\nplay: {activate: Imp, action: move, distance: 0}\n";
    let r = arbiter::engine::magewinds::ENGINE.judge_text(doc).unwrap();
    assert!(r.legal, "{r:#?}");
    let s = r
        .steps
        .iter()
        .find(|s| s.text.contains("within 1\""))
        .unwrap();
    assert!(!s.text.contains("= 0"), "no false arithmetic: {}", s.text);
    assert!(s.text.contains("floored at 0"), "{}", s.text);
    assert!(s.assumption.as_deref().unwrap().contains("below 0"));
}

#[test]
fn friendly_fighters_nearby_do_not_reduce_the_move() {
    // Stormcaller is 0.5" from the Golem (a friend) and far from enemies.
    let r = judge_with(
        &[("position: [14, 6]", "position: [20, 11.5]")],
        "play: {activate: Stormcaller, action: move, distance: 6}\n",
    );
    assert!(r.legal, "{r:#?}");
}

#[test]
fn step_move_with_a_move_action_is_illegal() {
    let r = judge("play: {activate: Pyromancer, action: move, distance: 2, step: 0.5}\n");
    assert_illegal(&r, "magewinds:13.4.move-action", "play.step");
    assert!(r.diagnostics[0].message.contains("do not make a step move"));
}

#[test]
fn attack_uses_one_of_the_fighters_attacks() {
    let r = judge("play: {activate: Pyromancer, attack: staff strike, target: Stonewarden}\n");
    assert!(r.legal);
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "magewinds:13.4.attack-action")
        .expect("attack");
    assert_eq!(
        s.choice.as_ref().map(|c| c.chose.as_str()),
        Some("Staff Strike against Stonewarden")
    );
    let r = judge("play: {activate: Pyromancer, attack: Lightning Lance, target: Stonewarden}\n");
    assert_illegal(&r, "magewinds:13.4.attack-action", "play.attack");
    // Left out with several attacks: no default, so the ruling asks Ana.
    let r = judge("play: {activate: Pyromancer, action: attack, target: Stonewarden}\n");
    let d = r.pending.expect("which attack?");
    assert_eq!(
        (d.player.as_str(), d.key.as_str(), d.path.as_str()),
        ("Ana", "attack", "play.attack")
    );
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Fire Bolt", "Staff Strike"]);
    assert!(r.changes.is_empty() && d.default.is_none());
}

#[test]
fn attacking_itself_is_illegal() {
    let r = judge("play: {activate: Pyromancer, attack: Fire Bolt, target: Pyromancer}\n");
    assert_illegal(&r, "magewinds:13.4.attack-action", "play.target");
    assert!(r.diagnostics[0].message.contains("itself"));
}

#[test]
fn attacking_an_invisible_target_is_illegal() {
    let r = judge("play: {activate: Pyromancer, attack: Fire Bolt, target: Shade}\n");
    assert_illegal(
        &r,
        "magewinds:13.4.attack-action",
        "players[0].fighters[0].visible",
    );
    assert!(
        r.diagnostics[0].message.contains("16.0"),
        "{}",
        r.diagnostics[0].message
    );
    assert!(r.diagnostics[0].message.contains("not indexed"));
}

#[test]
fn visibility_comes_from_the_board_and_is_labelled_not_indexed() {
    let r = judge("play: {activate: Pyromancer, attack: Fire Bolt, target: Stonewarden}\n");
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "magewinds:13.4.attack-action")
        .expect("attack");
    let a = s.assumption.as_deref().unwrap_or_default();
    assert!(
        a.contains("16.0") && a.contains("not indexed") && a.contains("board"),
        "{a}"
    );
    // After a step move, the play can say what the attacker sees.
    let r = judge(
        "play: {activate: Pyromancer, attack: Fire Bolt, target: Shade, step: 1, visible: [Shade]}\n",
    );
    assert!(r.legal, "{r:#?}");
}

#[test]
fn guard_is_tracked() {
    let r = judge("play: {activate: Pyromancer, action: guard}\n");
    assert_eq!(fighter(&r, 0, 0)["guard"], true);
    assert!(rules(&r).contains(&"magewinds:13.4.guard-action"));
}

#[test]
fn guard_ends_at_the_fighters_next_activation() {
    let r = judge_with(
        &[(
            "counter: single, position: [14, 6]",
            "counter: single, guard: true, position: [14, 6]",
        )],
        "play: {activate: Stormcaller, action: move, distance: 2}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(fighter(&r, 0, 1)["guard"], false);
    let s = r
        .steps
        .iter()
        .find(|s| s.rule == "magewinds:13.4.guard-action")
        .expect("guard ends");
    assert!(s.text.contains("next activation"));
    // Guard again: it ends and starts anew.
    let r = judge_with(
        &[(
            "counter: single, position: [14, 6]",
            "counter: single, guard: true, position: [14, 6]",
        )],
        "play: {activate: Stormcaller, action: guard}\n",
    );
    assert_eq!(fighter(&r, 0, 1)["guard"], true);
}

#[test]
fn guard_makes_the_next_dodge_free_and_is_used_up() {
    let r = judge_with(
        &[
            (
                "movement: 4\n        position",
                "movement: 4\n        guard: true\n        position",
            ),
            (
                "turn: Ana\n",
                "turn: Ana\nlast_action: {fighter: Pyromancer, action: attack, target: Stonewarden}\n",
            ),
        ],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert!(r.legal, "{r:#?}");
    assert_eq!(fighter(&r, 1, 0)["counter"], "none");
    assert_eq!(fighter(&r, 1, 0)["guard"], false);
    assert!(rules(&r).contains(&"magewinds:13.4.guard-action"));
    assert!(rules(&r).contains(&"magewinds:13.2"));
}

#[test]
fn guard_does_not_make_other_reactions_free() {
    let r = judge_with(
        &[(
            "movement: 4\n        position",
            "movement: 4\n        guard: true\n        position",
        )],
        "play: {react: Counterspell, fighter: Stonewarden, trigger_met: true}\n",
    );
    assert!(r.legal);
    assert_eq!(fighter(&r, 1, 0)["counter"], "single");
    assert_eq!(fighter(&r, 1, 0)["guard"], true);
}

#[test]
fn open_question_double_counter_guarded_dodge_is_flagged() {
    let r = judge_with(
        &[
            (
                "movement: 4\n        position",
                "movement: 4\n        counter: double\n        guard: true\n        position",
            ),
            (
                "turn: Ana\n",
                "turn: Ana\nlast_action: {fighter: Pyromancer, action: attack, target: Stonewarden}\n",
            ),
        ],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert_illegal(&r, "magewinds:13.0", "play.fighter");
    let a = r
        .steps
        .iter()
        .find_map(|s| s.assumption.as_deref())
        .unwrap_or_default();
    assert!(
        a.contains("open question") && a.contains("Reading chosen"),
        "{a}"
    );
    assert!(r.diagnostics[0].message.contains("open question"));
}

#[test]
fn double_countered_fighter_cannot_react() {
    let r = judge_with(
        &[
            (
                "movement: 4\n        position",
                "movement: 4\n        counter: double\n        position",
            ),
            (
                "turn: Ana\n",
                "turn: Ana\nlast_action: {fighter: Pyromancer, action: attack, target: Stonewarden}\n",
            ),
        ],
        "play: {react: Dodge, fighter: Stonewarden}\n",
    );
    assert_illegal(&r, "magewinds:13.0", "play.fighter");
}

#[test]
fn guard_ends_with_the_action_phase() {
    // Only the Pyromancer can still act; the Stonewarden is on Guard.
    let doc = BASE
        .replace(
            "counter: single, position: [14, 6]",
            "counter: double, position: [14, 6]",
        )
        .replace(
            "movement: 4\n        position: [10.5",
            "movement: 4\n        counter: double\n        guard: true\n        position: [10.5",
        )
        .replace(
            "{name: Windrunner, movement: 7, position",
            "{name: Windrunner, movement: 7, counter: double, position",
        )
        .replace(
            "{name: Shade, movement: 5, position",
            "{name: Shade, movement: 5, counter: double, position",
        );
    let r = judge_doc(&format!(
        "{doc}plays:\n  - {{activate: Pyromancer, action: guard}}\n  - {{activate: Pyromancer, action: Fireball}}\n"
    ));
    assert!(r.legal, "{r:#?}");
    assert_eq!(r.state["phase"], "end");
    assert!(r.state.get("turn").is_none());
    assert_eq!(fighter(&r, 1, 0)["guard"], false);
    assert_eq!(
        fighter(&r, 0, 0)["guard"],
        false,
        "its own Guard ended at its next activation"
    );
    let end = r
        .steps
        .iter()
        .position(|s| s.rule == "magewinds:13.5")
        .expect("phase end");
    assert!(
        r.steps[end + 1].rule == "magewinds:13.4.guard-action"
            && r.steps[end + 1].text.contains("Stonewarden")
    );
}

// ---------------------------------------------------------------- 13.5

#[test]
fn phase_ends_when_no_fighter_can_be_activated() {
    let doc = BASE
        .replace(
            "counter: single, position: [14, 6]",
            "counter: double, position: [14, 6]",
        )
        .replace(
            "movement: 4\n        position: [10.5",
            "movement: 4\n        counter: double\n        position: [10.5",
        )
        .replace(
            "{name: Windrunner, movement: 7, position",
            "{name: Windrunner, movement: 7, counter: double, position",
        )
        .replace(
            "{name: Shade, movement: 5, position",
            "{name: Shade, movement: 5, counter: single, position",
        );
    let r = judge_doc(&format!(
        "{doc}plays:\n  - {{activate: Pyromancer, action: guard}}\n  - {{activate: Shade, action: guard}}\n  - {{activate: Pyromancer, action: guard}}\n"
    ));
    assert!(r.legal, "{r:#?}");
    assert_eq!(
        r.steps.last().map(|s| s.rule.as_str()),
        Some("magewinds:13.4.guard-action")
    );
    assert!(rules(&r).contains(&"magewinds:13.5"));
    assert_eq!(r.state["phase"], "end");
    // Nothing more can be activated.
    let mut next = r.state.clone();
    next["play"] = json!({"activate": "Pyromancer", "action": "guard"});
    let again = judge_doc(&serde_json::to_string(&next).expect("json"));
    assert!(!again.legal);
    assert_eq!(again.diagnostics[0].rule.as_deref(), Some("magewinds:13.5"));
}

// ---------------------------------------------------------------- a whole phase

#[test]
fn whole_action_phase_two_players_three_fighters_each() {
    let r = judge_doc(include_str!("../../examples/magewinds/full-phase.yaml"));
    assert!(r.legal, "{:#?}", r.diagnostics);
    let activations = r
        .steps
        .iter()
        .filter(|s| s.text.contains(" activates "))
        .count();
    assert_eq!(activations, 12);
    for p in 0..2 {
        for f in 0..3 {
            assert_eq!(
                fighter(&r, p, f)["counter"],
                "double",
                "players[{p}].fighters[{f}]"
            );
            assert_eq!(fighter(&r, p, f)["guard"], false);
        }
    }
    assert_eq!(r.state["phase"], "end");
    assert!(r.state.get("turn").is_none());
    assert_eq!(fighter(&r, 1, 0)["position"], json!([12.5, 20.0]));
    assert_eq!(fighter(&r, 1, 1)["position"], json!([24.0, 20.0]));
    let mut cited: Vec<&str> = rules(&r);
    cited.sort();
    cited.dedup();
    for id in [
        "magewinds:13.0",
        "magewinds:13.1",
        "magewinds:13.2",
        "magewinds:13.3.1",
        "magewinds:13.3.2",
        "magewinds:13.4",
        "magewinds:13.4.move-action",
        "magewinds:13.4.attack-action",
        "magewinds:13.4.guard-action",
        "magewinds:13.5",
    ] {
        assert!(cited.contains(&id), "{id} not cited");
    }
    // Both guarded reactions were free: the Stonewarden and Stormcaller got
    // their counters only from their two activations.
    let free = r
        .steps
        .iter()
        .filter(|s| s.rule == "magewinds:13.2")
        .count();
    assert_eq!(free, 2);
}

#[test]
fn a_phase_played_one_play_at_a_time_matches_the_list() {
    let doc = include_str!("../../examples/magewinds/full-phase.yaml");
    let all = judge_doc(doc);
    let board: Value = serde_saphyr::from_str(doc).expect("yaml");
    let mut state = board.clone();
    state.as_object_mut().map(|m| m.remove("plays"));
    for play in board["plays"].as_array().expect("plays") {
        let mut next = state.clone();
        next["play"] = play.clone();
        let r = judge_doc(&serde_json::to_string(&next).expect("json"));
        assert!(r.legal, "{:#?}", r.diagnostics);
        state = r.state;
    }
    assert_eq!(state, all.state);
}

// ---------------------------------------------------------------- document errors

#[test]
fn unknown_names_get_did_you_mean_with_the_path() {
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Pyromancr, action: guard}}\n"
        ))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert_eq!(e.path.as_deref(), Some("play.activate"));
    assert!(
        e.message.contains("did you mean 'Pyromancer'"),
        "{}",
        e.message
    );
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Pyromancer, attack: Fire Bolt, target: Stonwarden}}\n"
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play.target"));
    // The play's names are resolved before any rule is applied: an unknown
    // name is refused even in a play the rules would refuse (not Bram's turn).
    for (play, path) in [
        ("{activate: Windrunner, target: Nobody}", "play.target"),
        (
            "{activate: Windrunner, distance: 1, reactions: [{react: Dodge, fighter: Nobody}]}",
            "play.reactions[0].fighter",
        ),
    ] {
        let e = arbiter::engine::magewinds::ENGINE
            .judge_text(&format!("{BASE}play: {play}\n"))
            .unwrap_err();
        assert_eq!(
            (e.kind, e.path.as_deref()),
            (ErrorKind::Semantic, Some(path))
        );
    }
}

#[test]
fn bad_documents_are_refused_with_paths() {
    let cases: &[(&str, &str)] = &[
        (
            &BASE.replace("movement: 7", "movement: -3"),
            "players[1].fighters[1].movement",
        ),
        (
            &BASE.replace("name: Shade", "name: Windrunner"),
            "players[1].fighters[2].name",
        ),
        (&BASE.replace("first_to_pass: Ana\nturn: Ana\n", ""), "turn"),
    ];
    for (doc, path) in cases {
        let play = "play: {activate: Pyromancer, action: guard}\n";
        let e = arbiter::engine::magewinds::ENGINE
            .judge_text(&format!("{doc}{play}"))
            .unwrap_err();
        assert_eq!(e.path.as_deref(), Some(*path), "{e}");
    }
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Pyromancer, action: guard}}\nplays: []\n"
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("plays"));
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Pyromancer, action: guard, target: Shade}}\n"
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play.target"));
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&BASE.replace("counter: single", "counter: triple"))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    // NaN and infinities: said so, at the field and its line:column.
    for (play, path, value) in [
        (
            "{activate: Pyromancer, action: move, to: [.nan, 4]}",
            "play.to[0]",
            ".nan",
        ),
        (
            "{activate: Pyromancer, action: move, distance: -.inf}",
            "play.distance",
            "-.inf",
        ),
    ] {
        let e = arbiter::engine::magewinds::ENGINE
            .judge_text(&format!("{BASE}play: {play}\n"))
            .unwrap_err();
        assert_eq!(e.path.as_deref(), Some(path), "{e}");
        assert!(e.pos.is_some(), "{e}");
        assert!(
            e.message
                .contains(&format!("`{value}` is not a finite number")),
            "{e}"
        );
    }
    // A misspelt universal action with its fields: did you mean, at the action.
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Golem, action: mvoe, distance: 3}}\n"
        ))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("play.action"), "{e}");
    assert!(e.message.contains("did you mean 'move'"), "{e}");
    // Limits on the types are read with the board: a reading error.
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&BASE.replace("name: Shade", &format!("name: {}", "S".repeat(81))))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert_eq!(e.path.as_deref(), Some("players[1].fighters[2].name"));
    assert!(e.message.contains("the limit is 80 characters"), "{e}");
    // A reaction's name is bounded in either form; a reaction of neither
    // form says so.
    let deflect = "{name: Deflect, trigger: attacked}";
    let long = format!("{{name: {}, trigger: attacked}}", "D".repeat(81));
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&BASE.replace(deflect, &long))
        .unwrap_err();
    assert_eq!(
        e.path.as_deref(),
        Some("players[0].fighters[1].reactions[0]")
    );
    assert!(e.message.contains("the limit is 80 characters"), "{e}");
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&BASE.replace(deflect, "7"))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("untagged enum ReactionDef"), "{e}");
    let e = arbiter::engine::magewinds::ENGINE
        .judge_text(&format!(
            "{BASE}play: {{activate: Pyromancer, action: guard, colour: red}}\n"
        ))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax, "unknown fields are refused");
}

#[test]
fn garbage_never_panics() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet: Vec<char> = "abc: -[]{},\n\"'0123456789.#&*!|>?%@`\u{201d}"
        .chars()
        .collect();
    let full = format!(
        "{BASE}play: {{activate: Pyromancer, action: attack, target: Stonewarden, step: 0.5}}\n"
    );
    for _ in 0..3000 {
        // Random text, and the real board with bytes replaced.
        let n = (next() % 80) as usize;
        let s: String = (0..n)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let _ = arbiter::engine::magewinds::ENGINE.judge_text(&s);
        let mut chars: Vec<char> = full.chars().collect();
        for _ in 0..(next() % 4 + 1) {
            let i = (next() % chars.len() as u64) as usize;
            chars[i] = alphabet[(next() % alphabet.len() as u64) as usize];
        }
        let doc: String = chars.into_iter().collect();
        let _ = arbiter::engine::magewinds::ENGINE.judge_text(&doc);
        let board = serde_json::json!({"players": [{"fighters": [{"name": s}]}]});
        let _ = arbiter::engine::magewinds::ENGINE.parse_notation(&s, &board);
        let _ = arbiter::engine::magewinds::ENGINE.notation_completions(&s, &board);
    }
    for n in [1e300, f64::MAX, -1e9, 1e-300] {
        let _ = arbiter::engine::magewinds::ENGINE.judge_text(&format!(
            "{BASE}play: {{activate: Pyromancer, action: move, distance: {n}}}\n"
        ));
        let _ = arbiter::engine::magewinds::ENGINE
            .judge_text(&BASE.replace("position: [10, 4]", &format!("position: [{n}, {n}]")));
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn plays_with_random_numbers_never_panic(d in -10.0f64..20.0, x in -50.0f64..50.0, y in -50.0f64..50.0, s in -2.0f64..3.0) {
            let doc = format!("{BASE}plays:\n  - {{activate: Pyromancer, action: move, distance: {d}, to: [{x}, {y}]}}\n  - {{activate: Shade, action: guard, step: {s}}}\n");
            if let Ok(r) = arbiter::engine::magewinds::ENGINE.judge_text(&doc) && !r.legal {
                prop_assert!(r.changes.is_empty());
            }
        }
    }
}

// ---------------------------------------------------------------- notation

fn board_value() -> Value {
    serde_saphyr::from_str(BASE).expect("yaml")
}

#[test]
fn notation_matches_the_yaml_play() {
    let b = board_value();
    let cases: &[(&str, Value)] = &[
        (
            "activate pyro move 3",
            json!({"activate": "Pyromancer", "action": "move", "distance": 3.0}),
        ),
        (
            "activate Pyromancer move to 7,4",
            json!({"activate": "Pyromancer", "action": "move", "to": [7.0, 4.0]}),
        ),
        (
            "activate Pyromancer attack stonewarden with fire bolt; step 0.5",
            json!({"activate": "Pyromancer", "action": "attack", "target": "Stonewarden", "attack": "Fire Bolt", "step": 0.5}),
        ),
        (
            "activate storm guard; free",
            json!({"activate": "Stormcaller", "action": "guard", "free": true}),
        ),
        (
            "activate Pyromancer fireball",
            json!({"activate": "Pyromancer", "action": "Fireball"}),
        ),
        (
            "react stonewarden counterspell; trigger met; step to 10.5,5.5",
            json!({"react": "Counterspell", "fighter": "Stonewarden", "trigger_met": true, "step_to": [10.5, 5.5]}),
        ),
        (
            "activate Pyromancer attack Stonewarden with Staff Strike; reaction Stonewarden dodge step 1",
            json!({"activate": "Pyromancer", "action": "attack", "target": "Stonewarden", "attack": "Staff Strike", "reactions": [{"react": "Dodge", "fighter": "Stonewarden", "step": 1.0}]}),
        ),
    ];
    for (line, want) in cases {
        let got = arbiter::engine::magewinds::ENGINE
            .parse_notation(line, &b)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(&got, want, "{line}");
        // And it judges like the YAML form.
        let mut doc = b.clone();
        doc["play"] = got;
        let _ = arbiter::engine::magewinds::ENGINE
            .judge_text(&serde_json::to_string(&doc).expect("json"))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    let e = arbiter::engine::magewinds::ENGINE
        .parse_notation("activate Pyromancr guard", &b)
        .unwrap_err();
    assert!(e.message.contains("did you mean"), "{}", e.message);
    assert!(
        arbiter::engine::magewinds::ENGINE
            .parse_notation("dance Pyromancer", &b)
            .is_err()
    );
    assert!(
        arbiter::engine::magewinds::ENGINE
            .parse_notation("activate Pyromancer move far", &b)
            .is_err()
    );
    // A sign is never dropped: "-0" is refused like "-3", not read as 0.
    for d in ["-3", "-0", "-0.5"] {
        let e = arbiter::engine::magewinds::ENGINE
            .parse_notation(&format!("activate Pyromancer move {d}"), &b)
            .unwrap_err();
        assert!(e.message.contains("is not a distance"), "{d}: {e}");
    }
}

#[test]
fn notation_completions_offer_the_next_word() {
    let b = board_value();
    assert_eq!(
        arbiter::engine::magewinds::ENGINE.notation_completions("", &b),
        vec!["activate", "react"]
    );
    let c = arbiter::engine::magewinds::ENGINE.notation_completions("activate ", &b);
    assert_eq!(
        c,
        vec!["Pyromancer", "Stormcaller"],
        "the turn player's fighters that can act"
    );
    let c = arbiter::engine::magewinds::ENGINE.notation_completions("activate Pyromancer ", &b);
    assert!(
        c.contains(&"attack".to_string()) && c.contains(&"Fireball".to_string()),
        "{c:?}"
    );
    let c = arbiter::engine::magewinds::ENGINE
        .notation_completions("activate Pyromancer attack St", &b);
    assert_eq!(c, vec!["Stormcaller", "Stonewarden"]);
    let c = arbiter::engine::magewinds::ENGINE
        .notation_completions("activate Pyromancer attack Stonewarden with ", &b);
    assert_eq!(c, vec!["Fire Bolt", "Staff Strike"]);
    let c = arbiter::engine::magewinds::ENGINE.notation_completions("react Stonewarden ", &b);
    assert_eq!(c, vec!["Dodge", "Counterspell"]);
    let c = arbiter::engine::magewinds::ENGINE
        .notation_completions("activate Pyromancer guard; st", &b);
    assert_eq!(c, vec!["step", "step to"]);
}

// ---------------------------------------------------------------- schema, citations, examples

#[test]
fn schema_describes_the_board() {
    // Derived from the types (schemars), not written by hand.
    let s = arbiter::engine::magewinds::ENGINE.schema();
    assert_eq!(s["properties"]["game"]["const"], "magewinds");
    assert_eq!(
        s["$defs"]["Counter"]["enum"],
        json!(["none", "single", "double"])
    );
    assert!(s["$defs"]["Activation"]["properties"]["reactions"].is_object());
    assert!(s["$defs"]["Fighter"]["properties"]["visible"].is_object());
    assert!(s["properties"]["first_turn"].is_object() && s["properties"]["round"].is_object());
    // Limits are on the types: the schema states them.
    assert_eq!(s["properties"]["players"]["maxItems"], 8);
    assert_eq!(s["properties"]["round"]["minimum"], 1);
    assert_eq!(
        s["$defs"]["Player"]["properties"]["fighters"]["maxItems"],
        40
    );
    assert_eq!(s["$defs"]["Fighter"]["properties"]["name"]["maxLength"], 80);
    assert_eq!(
        s["$defs"]["Activation"]["properties"]["reactions"]["maxItems"],
        16
    );
    let kinds = s["properties"]["play"]["$ref"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap();
    assert_eq!(s["$defs"][kinds]["anyOf"].as_array().unwrap().len(), 2);
}

fn app() -> App {
    App::load(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/rules_data")),
        &[],
    )
    .expect("rules data")
}

#[test]
fn every_quote_is_verbatim_rule_text() {
    let app = app();
    for u in arbiter::engine::magewinds::ENGINE.rule_uses() {
        let p = app
            .corpus
            .resolve_id(u.rule)
            .unwrap_or_else(|| panic!("{} is not in the index", u.rule));
        assert_eq!(p.id, u.rule);
        let text = p.text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains(u.quote),
            "{}: {:?} not in {:?}",
            u.rule,
            u.quote,
            text
        );
    }
}

#[test]
fn examples_judge_and_cite_only_listed_rules() {
    let app = app();
    let listed: Vec<&str> = arbiter::engine::magewinds::ENGINE
        .rule_uses()
        .iter()
        .map(|u| u.rule)
        .collect();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/magewinds");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let r = app
            .judge(&text, None)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for id in r
            .steps
            .iter()
            .map(|s| s.rule.as_str())
            .chain(r.diagnostics.iter().filter_map(|d| d.rule.as_deref()))
        {
            assert!(
                listed.contains(&id),
                "{}: {id} not in rule_uses",
                path.display()
            );
        }
        n += 1;
    }
    assert!(n >= 6, "{n} examples");
}

#[test]
fn every_passage_of_the_seed_is_executed() {
    let cov = app().coverage(Some("magewinds")).expect("coverage");
    let g = &cov.games[0];
    assert!(g.has_engine);
    for e in &g.entries {
        if e.id.starts_with("magewinds:13") {
            assert!(!e.executed_by.is_empty(), "{} not executed", e.id);
        }
    }
}

#[test]
fn documented_notation_examples_parse() {
    // The board without its plays (the kit reads notation against a board).
    let mut b: Value =
        serde_saphyr::from_str(include_str!("../../examples/magewinds/full-phase.yaml"))
            .expect("yaml");
    b.as_object_mut().map(|m| m.remove("plays"));
    let doc = include_str!("../../docs/games/magewinds.md");
    let start = doc
        .find("Examples (names resolve")
        .expect("examples section");
    let block = doc[start..]
        .split("```text")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("block");
    let mut n = 0;
    for line in block.lines().map(str::trim).filter(|l| !l.is_empty()) {
        arbiter::engine::magewinds::ENGINE
            .parse_notation(line, &b)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        n += 1;
    }
    assert_eq!(n, 7);
}

#[test]
fn the_plays_visible_list_overrides_the_board() {
    let r = judge(
        "play: {activate: Pyromancer, attack: Fire Bolt, target: Stonewarden, step: 1, visible: [Shade]}\n",
    );
    assert_illegal(&r, "magewinds:13.4.attack-action", "play.visible");
    assert!(
        r.diagnostics[0]
            .message
            .contains("the play's `visible` list")
    );
}

#[test]
fn attacking_a_friendly_fighter_is_allowed_with_a_warning() {
    let r = judge("play: {activate: Pyromancer, attack: Fire Bolt, target: Golem}\n");
    assert!(r.legal);
    let w = r
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning)
        .expect("warning");
    assert_eq!(w.rule.as_deref(), Some("magewinds:13.4.attack-action"));
    assert!(w.message.contains("only the attacker itself"));
}

#[test]
fn a_fighter_with_no_attacks_cannot_attack() {
    let doc = BASE
        .replace("turn: Ana", "turn: Bram")
        .replace("attacks: [Gale Cut]", "attacks: []");
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Windrunner, target: Shade}}\n"
    ));
    assert_illegal(&r, "magewinds:13.4.attack-action", "play.attack");
}

#[test]
fn a_board_without_a_play_says_whose_turn_it_is() {
    let r = judge_doc(BASE);
    assert!(r.legal && r.changes.is_empty() && r.steps.is_empty());
    let st = r.status.expect("status");
    assert_eq!((st.phase.as_str(), st.round), ("Action Phase", Some(1)));
    assert_eq!((st.turn.as_deref(), st.turn_seat), (Some("Ana"), Some(0)));
    assert!(st.result.is_none());
    // Nothing left to activate: moving on to the end of the phase is allowed (13.5).
    let doc = BASE
        .replace("counter: single, ", "counter: double, ")
        .replace(
            "movement: 5, position: [10, 4]",
            "movement: 5, counter: double, position: [10, 4]",
        )
        .replace(
            "movement: 4\n        position: [10.5",
            "movement: 4\n        counter: double\n        position: [10.5",
        )
        .replace(
            "{name: Windrunner, movement: 7, position",
            "{name: Windrunner, movement: 7, counter: double, position",
        )
        .replace(
            "{name: Shade, movement: 5, position",
            "{name: Shade, movement: 5, counter: double, position",
        );
    let r = arbiter::engine::magewinds::ENGINE
        .advance(&board_of(&doc), None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(r.legal);
    assert!(rules(&r).contains(&"magewinds:13.5"));
    assert_eq!(r.state["phase"], "end");
}

// ------------------------------------------- decisions, names, phases, a whole game

fn mw() -> &'static dyn GameEngine {
    &arbiter::engine::magewinds::ENGINE
}

fn board_of(doc: &str) -> Value {
    document::parse_value(doc).expect("yaml")
}

/// Judges a board as `asking` writes it; a ruling is kept as the test's snapshot.
fn in_match(doc: &str, asking: &Asking) -> Result<Ruling, BoardError> {
    mw().judge(board_of(doc), Some(doc), asking)
        .inspect(snapshot::ruling)
}

const ATTACK_STONEWARDEN: &str =
    "play: {activate: Pyromancer, attack: Fire Bolt, target: Stonewarden}\n";

#[test]
fn the_attacked_fighters_reaction_defaults_to_none_and_says_so() {
    let r = judge(ATTACK_STONEWARDEN);
    assert!(r.legal, "{:#?}", r.diagnostics);
    let c = r
        .steps
        .iter()
        .filter_map(|s| s.choice.as_ref())
        .find(|c| c.player == "Bram")
        .expect("Bram's choice");
    assert_eq!(c.chose, "no reaction with Stonewarden");
    let why = c.assumed.as_deref().unwrap_or_default();
    assert!(
        why.starts_with("not stated on the board; assumed")
            && why.contains("may choose to make the reaction"),
        "{why}"
    );
    // `reactions: []` states it: nothing is labelled as assumed.
    let r = judge(
        "play: {activate: Pyromancer, attack: Fire Bolt, target: Stonewarden, reactions: []}\n",
    );
    assert!(r.legal);
    assert!(
        r.steps
            .iter()
            .filter_map(|s| s.choice.as_ref())
            .all(|c| c.assumed.is_none())
    );
}

/// Golem has two reactions to being attacked. 13.3.1 sets no count: the
/// judge takes both (the second's step says it rests on that reading),
/// and a match's question offers both together, so the two paths agree.
#[test]
fn two_reactions_to_one_attack_are_one_reading_in_judge_and_in_a_match() {
    let doc = "game: magewinds\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Imp, movement: 5, position: [0, 0], attacks: [Claw], visible: [Golem]}\n  - name: Bram\n    fighters:\n      - {name: Golem, movement: 4, position: [5, 5], attacks: [Slam], reactions: [{name: Dodge, trigger: attacked}, {name: Parry, trigger: attacked}]}\nplay: {activate: Imp, attack: Claw, target: Golem}\n";
    let both = doc.replace(
        "target: Golem}",
        "target: Golem, reactions: [{react: Dodge, fighter: Golem}, {react: Parry, fighter: Golem}]}",
    );
    let r = mw().judge_text(&both).unwrap();
    assert!(r.legal, "{:#?}", r.diagnostics);
    let reacts: Vec<_> = r
        .steps
        .iter()
        .filter(|s| s.rule == "magewinds:13.3")
        .collect();
    assert_eq!(reacts.len(), 2, "{:#?}", r.steps);
    let labelled = |s: &arbiter::engine::Step| {
        s.assumption
            .as_deref()
            .is_some_and(|a| a.contains("sets no count"))
    };
    assert!(!labelled(reacts[0]) && labelled(reacts[1]), "{reacts:#?}");
    // In a match Bram is asked, and may answer both.
    let r = mw()
        .judge(board_of(doc), Some(doc), &Asking::seat(0))
        .unwrap();
    let d = r.pending.expect("Bram is asked");
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Dodge with Golem",
            "Parry with Golem",
            "Dodge, then Parry with Golem",
            "no reaction"
        ]
    );
    let mut v = board_of(doc);
    merge_patch(&mut v["play"], &d.options[2].patch);
    let answered = Asking {
        answered: vec![(d.key.clone(), d.seat)],
        ..Asking::seat(0)
    };
    let r = mw().judge(v, None, &answered).unwrap();
    assert!(r.legal && r.pending.is_none(), "{:#?}", r.diagnostics);
    let made = r
        .steps
        .iter()
        .filter(|s| s.rule == "magewinds:13.3")
        .count();
    assert_eq!(made, 2, "both reactions are made, as judge makes them");
    assert_eq!(fighter(&r, 1, 0)["counter"], "double");
}

#[test]
fn in_a_match_the_attacked_fighters_controller_is_asked() {
    let doc = format!("{BASE}{ATTACK_STONEWARDEN}");
    let r = in_match(&doc, &Asking::seat(0)).unwrap();
    let d = r.pending.expect("Bram is asked");
    assert_eq!(
        (d.player.as_str(), d.seat, d.key.as_str(), d.rule.as_str()),
        ("Bram", 1, "react:Stonewarden", "magewinds:13.3.1")
    );
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert_eq!(labels, ["Dodge with Stonewarden", "no reaction"]);
    assert_eq!(d.default, Some(1), "a 'may': no reaction");
    assert!(r.changes.is_empty(), "nothing happens until Bram answers");
    // Ana cannot write Bram's Dodge herself…
    let stated = format!(
        "{BASE}play: {{activate: Pyromancer, attack: Fire Bolt, target: Stonewarden, reactions: [{{react: Dodge, fighter: Stonewarden}}]}}\n"
    );
    let e = in_match(&stated, &Asking::seat(0)).unwrap_err();
    assert!(e.message.contains("Bram's choice"), "{}", e.message);
    // …unless Bram agreed.
    let agreed = Asking {
        agreed: true,
        ..Asking::seat(0)
    };
    assert!(in_match(&stated, &agreed).unwrap().legal);
    // Bram answers: the option's patch, and the answer recorded as his.
    let mut v = board_of(&doc);
    merge_patch(&mut v["play"], &d.options[0].patch);
    let answered = Asking {
        answered: vec![(d.key.clone(), d.seat)],
        ..Asking::seat(0)
    };
    let r = mw()
        .judge(v, None, &answered)
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(r.legal && r.pending.is_none(), "{:#?}", r.diagnostics);
    assert_eq!(
        fighter(&r, 1, 0)["counter"],
        "single",
        "a reaction is an action"
    );
    assert!(
        r.steps
            .iter()
            .any(|s| s.choice.as_ref().is_some_and(|c| c.player == "Bram"
                && c.chose == "Dodge with Stonewarden"
                && c.assumed.is_none()))
    );
}

#[test]
fn an_impossible_reaction_is_refused_alone_and_the_attack_resolves() {
    let doc = BASE.replace(
        "movement: 4\n        position",
        "movement: 4\n        counter: double\n        position",
    );
    let r = judge_doc(&format!(
        "{doc}play: {{activate: Pyromancer, attack: Fire Bolt, target: Stonewarden, reactions: [{{react: Dodge, fighter: Stonewarden}}]}}\n"
    ));
    assert!(r.legal, "{:#?}", r.diagnostics);
    let refused: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Refused)
        .collect();
    assert_eq!(refused.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(
        (refused[0].rule.as_deref(), refused[0].path.as_deref()),
        (Some("magewinds:13.0"), Some("play.reactions[0].fighter"))
    );
    assert_eq!(
        fighter(&r, 0, 0)["counter"],
        "single",
        "the attack happened"
    );
    assert_eq!(fighter(&r, 1, 0)["counter"], "double");
    assert_eq!(r.state["last_action"]["target"], "Stonewarden");
}

#[test]
fn an_attack_without_a_target_asks_the_attacker() {
    let r = judge("play: {activate: Pyromancer, action: attack, attack: Fire Bolt}\n");
    let d = r.pending.expect("which target?");
    assert_eq!((d.seat, d.key.as_str()), (0, "target"));
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    assert!(
        !labels.contains(&"Pyromancer") && labels.contains(&"Shade"),
        "{labels:?}"
    );
}

#[test]
fn card_text_the_engine_does_not_apply_is_said() {
    let r = judge("play: {activate: Pyromancer, action: Fireball}\n");
    assert!(r.diagnostics.iter().any(|d| {
        d.severity == Severity::Warning
            && d.message
                .starts_with("card text not applied: Pyromancer's Fireball")
    }));
    let r = judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: true}\n");
    assert!(r.diagnostics.iter().any(|d| {
        d.severity == Severity::Warning
            && d.message
                .starts_with("card text not applied: Stonewarden's Counterspell")
            && d.path.as_deref() == Some("play.react")
    }));
}

#[test]
fn players_resolve_by_the_engines_own_name_rules() {
    let b = board_of(BASE);
    let seat = |play: Value| mw().actor(&b, &play);
    // A prefix and another case resolve to the seat…
    let guard = |who: &str| json!({"activate": "Stonewarden", "action": "guard", "player": who});
    assert_eq!(seat(guard("br")).unwrap(), Some(1));
    assert_eq!(seat(guard("BRAM")).unwrap(), Some(1));
    // …without a player, the fighter's controller (fighter names alike).
    assert_eq!(
        seat(json!({"activate": "pyro", "action": "guard"})).unwrap(),
        Some(0)
    );
    assert_eq!(
        seat(json!({"react": "Dodge", "fighter": "stonew"})).unwrap(),
        Some(1)
    );
    // Look-alike letters (a Cyrillic А) do not resolve silently.
    let e = seat(guard("\u{410}na")).unwrap_err();
    assert!(e.message.contains("unknown player"), "{}", e.message);
    assert!(seat(guard("\u{412}ram")).is_err());
    let e = seat(json!({"activate": "St", "action": "guard"})).unwrap_err();
    assert!(e.message.contains("ambiguous"), "{}", e.message);
}

#[test]
fn name_references_on_the_board_are_written_in_its_spelling() {
    let doc = BASE
        .replace(
            "first_to_pass: Ana\nturn: Ana\n",
            "first_to_pass: ANA\nturn: an\nlast_action: {fighter: golem, action: attack, target: stonew}\n",
        )
        .replace("visible: [Stonewarden, Golem]", "visible: [stonewarden, gol]");
    let b = mw().check_board(&board_of(&doc)).unwrap();
    assert_eq!(
        (&b["turn"], &b["first_to_pass"]),
        (&json!("Ana"), &json!("Ana"))
    );
    assert_eq!(
        b["last_action"],
        json!({"fighter": "Golem", "action": "attack", "target": "Stonewarden"})
    );
    assert_eq!(
        b["players"][0]["fighters"][0]["visible"],
        json!(["Stonewarden", "Golem"])
    );
    let e = mw()
        .check_board(&board_of(&BASE.replace("turn: Ana", "turn: \u{410}na")))
        .unwrap_err();
    assert_eq!(e.path.as_deref(), Some("turn"));
}

#[test]
fn the_action_phase_is_not_left_while_a_fighter_can_be_activated() {
    let r = mw()
        .advance(&board_of(BASE), None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(!r.legal);
    let e = &r.diagnostics[0];
    assert_eq!(
        (e.rule.as_deref(), e.path.as_deref()),
        (Some("magewinds:13.5"), Some("phase"))
    );
    assert!(
        e.message
            .contains("Pyromancer, Stormcaller, Stonewarden, Windrunner, Shade"),
        "{}",
        e.message
    );
    assert_eq!(r.state, mw().check_board(&board_of(BASE)).unwrap());
}

const DUEL: &str = "game: magewinds
round: 1
phase: action
first_turn: true
first_to_pass: Ana
players:
  - name: Ana
    fighters:
      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]}
  - name: Bram
    fighters:
      - {name: Stonewarden, movement: 4, position: [12, 10], attacks: [Maul], reactions: [{name: Dodge, trigger: attacked}]}
";

/// A play written in notation by `seat` in a match, answered by the other
/// player with `answer` when the engine asks.
fn play_in_match(state: &Value, seat: usize, line: &str, answer: Option<&str>) -> Ruling {
    let mut doc = state.clone();
    doc["play"] = mw()
        .parse_notation(line, state)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut asking = Asking::seat(seat);
    let mut r = mw()
        .judge(doc.clone(), None, &asking)
        .inspect(snapshot::ruling)
        .unwrap();
    if let Some(d) = r.pending.clone() {
        let o = d.options.iter().find(|o| Some(o.label.as_str()) == answer);
        merge_patch(&mut doc["play"], &o.expect("an answer").patch);
        asking.answered.push((d.key, d.seat));
        r = mw()
            .judge(doc, None, &asking)
            .inspect(snapshot::ruling)
            .unwrap();
    }
    assert!(
        r.legal && r.pending.is_none(),
        "{line}: {:#?}",
        r.diagnostics
    );
    r
}

#[test]
fn a_whole_game_through_the_engine_api() {
    let s0 = mw().check_board(&board_of(DUEL)).unwrap();
    // Round 1. Ana attacks; Bram is asked and Dodges.
    let r = play_in_match(
        &s0,
        0,
        "activate Pyromancer attack Stonewarden",
        Some("Dodge with Stonewarden"),
    );
    assert!(rules(&r).contains(&"magewinds:13.0") && r.steps[0].text.contains("first turn"));
    assert_eq!(
        (
            fighter(&r, 0, 0)["counter"].as_str(),
            fighter(&r, 1, 0)["counter"].as_str()
        ),
        (Some("single"), Some("single"))
    );
    // Both can still be activated: the Action Phase cannot be left yet.
    let refused = mw()
        .advance(&r.state, None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(!refused.legal);
    assert_eq!(
        refused.diagnostics[0].rule.as_deref(),
        Some("magewinds:13.5")
    );
    let r = play_in_match(&r.state, 1, "activate Stonewarden guard", None);
    let r = play_in_match(&r.state, 0, "activate Pyromancer move 2", None);
    // Nothing left to activate: the phase ended by the rules, Guard with it.
    assert_eq!(r.state["phase"], "end");
    assert!(rules(&r).ends_with(&["magewinds:13.5", "magewinds:13.4.guard-action"]));
    let st = mw().status(&r.state).unwrap();
    assert_eq!(
        (st.phase.as_str(), st.turn.as_deref(), st.result.as_ref()),
        ("end of the Action Phase", None, None)
    );
    // Round 2, outside the indexed rules: counters removed.
    let a = mw()
        .advance(&r.state, None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert!(a.legal);
    assert_eq!(
        (a.state["round"].as_u64(), a.state["phase"].as_str()),
        (Some(2), Some("channelling"))
    );
    assert_eq!(fighter(&a, 0, 0)["counter"], "none");
    assert!(
        a.diagnostics
            .iter()
            .any(|d| d.message.contains("outside the indexed rules"))
    );
    // Bram passed first in the Channelling Phase: the players record it.
    let adj = mw().adjust(&a.state, "first_to_pass", "br").unwrap();
    assert_eq!((adj.owner, &adj.after), (None, &json!("Bram")));
    let a = mw()
        .advance(&adj.state, None)
        .inspect(snapshot::ruling)
        .unwrap();
    assert_eq!(a.state["turn"], "Bram");
    assert_eq!(
        a.steps[0].rule, "magewinds:13.0",
        "the first turn, by the indexed rule"
    );
    assert!(a.steps[0].text.contains("Bram, who was first to pass"));
    let mut s = a.state;
    for (seat, line) in [
        (1, "activate Stonewarden guard"),
        (0, "activate Pyromancer guard"),
        (1, "activate Stonewarden attack Pyromancer"),
        (0, "activate Pyromancer move 1"),
    ] {
        s = play_in_match(&s, seat, line, None).state;
    }
    assert_eq!(s["phase"], "end");
    // Round 3: nobody recorded who passed first, so the first turn is an
    // assumption, labelled as outside the indexed rules.
    let a = mw()
        .advance(&s, Some("action"))
        .inspect(snapshot::ruling)
        .unwrap();
    assert_eq!(
        (a.state["round"].as_u64(), a.state["turn"].as_str()),
        (Some(3), Some("Ana"))
    );
    assert!(
        a.diagnostics
            .iter()
            .any(|d| d.path.as_deref() == Some("turn")
                && d.message.contains("outside the indexed rules"))
    );
    // The board decides no result: the match ends by agreement.
    assert!(mw().status(&a.state).unwrap().result.is_none());
}

mod legal_boards {
    use super::*;
    use proptest::prelude::*;

    fn fighter_yaml(
        i: usize,
        (counter, x, y, guard, dodge): (usize, f64, f64, bool, bool),
    ) -> String {
        let c = ["none", "single", "double"][counter];
        let r = if dodge {
            ", reactions: [{name: Dodge, trigger: attacked}]"
        } else {
            ""
        };
        format!(
            "      - {{name: F{i}, movement: 5, counter: {c}, position: [{x}, {y}], guard: {guard}, attacks: [Strike, Bolt], actions: [Blink]{r}}}\n"
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn ruling_states_rejudge_and_cite_only_listed_rules(
            fs in proptest::collection::vec((0usize..3, 0.0f64..12.0, 0.0f64..12.0, any::<bool>(), any::<bool>()), 2..7),
            turn in 0usize..2, first in any::<bool>(), who in 0usize..7, whom in 0usize..7,
            kind in 0usize..6, d in 0.0f64..8.0, step in 0.0f64..1.5, reacts in any::<bool>(),
        ) {
            let n = fs.len();
            let (who, whom) = (who % n, whom % n);
            let side = |p: usize| fs.iter().enumerate().filter(|(i, _)| i % 2 == p).map(|(i, f)| fighter_yaml(i, *f)).collect::<String>();
            let names = ["Ana", "Bram"];
            let turn = if first { format!("first_turn: true\nfirst_to_pass: {}\n", names[turn]) } else { format!("turn: {}\n", names[turn]) };
            let last = format!("last_action: {{fighter: F{whom}, action: attack, target: F{who}}}\n");
            let reaction = if reacts { format!(", reactions: [{{react: Dodge, fighter: F{whom}}}]") } else { String::new() };
            let play = match kind {
                0 => format!("{{activate: F{who}, action: guard, step: {step}}}"),
                1 => format!("{{activate: F{who}, action: move, distance: {d}}}"),
                2 => format!("{{activate: F{who}, attack: Strike, target: F{whom}, step: {step}{reaction}}}"),
                3 => format!("{{activate: F{who}, action: Blink, free: true}}"),
                4 => format!("{{react: Dodge, fighter: F{who}, step: {step}}}"),
                _ => format!("{{activate: F{who}, attack: Bolt, target: F{whom}}}"),
            };
            let doc = format!("game: magewinds\n{turn}{last}players:\n  - name: Ana\n    fighters:\n{}  - name: Bram\n    fighters:\n{}play: {play}\n", side(0), side(1));
            let r = mw().judge_text(&doc).unwrap_or_else(|e| panic!("{e}\n{doc}"));
            let listed: Vec<&str> = mw().rule_uses().iter().map(|u| u.rule).collect();
            for id in r.steps.iter().map(|s| s.rule.as_str()).chain(r.diagnostics.iter().filter_map(|d| d.rule.as_deref())) {
                prop_assert!(listed.contains(&id), "{} not in rule_uses", id);
            }
            prop_assert_eq!(r.legal, !r.diagnostics.iter().any(|d| d.severity == Severity::Error));
            if !r.legal {
                prop_assert!(r.changes.is_empty());
            }
            let again = mw().check_board(&r.state).unwrap_or_else(|e| panic!("{e}\n{doc}"));
            prop_assert_eq!(&again, &r.state);
            let mut next = r.state.clone();
            next["play"] = json!({"activate": "F0", "action": "guard"});
            prop_assert!(mw().judge(next, None, &Asking::judge()).is_ok());
        }
    }
}

/// 13.0 "During a fighter's activation that fighter may make one action" and
/// 13.3 "A reaction is an action": the activated fighter's own reaction
/// during its action is refused; the action resolves without it (issue
/// found by an outside tester).
#[test]
fn the_activated_fighter_cannot_react_during_its_own_activation() {
    let doc = "game: magewinds\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Golem, movement: 4, counter: single, position: [5, 5], attacks: [Slam], reactions: [Counterspell]}\n  - name: Bram\n    fighters:\n      - {name: Shade, movement: 5, position: [6, 5], attacks: [Shadow Bolt]}\nplay:\n  activate: Golem\n  action: attack\n  target: Shade\n  reactions:\n    - {react: Counterspell, fighter: Golem, trigger_met: true}\n";
    let r = arbiter::engine::engine("magewinds")
        .unwrap()
        .judge_text(doc)
        .unwrap();
    let refused = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("is the fighter activated"))
        .unwrap_or_else(|| panic!("{:#?}", r.diagnostics));
    assert_eq!(refused.rule.as_deref(), Some("magewinds:13.0"));
    assert_eq!(r.state["players"][0]["fighters"][0]["counter"], "double");
}

/// A reaction is an action (13.3): in the Channelling Phase, when no
/// fighter is activated, it is refused like an activation (found by an
/// outside tester: it was made, and gave a counter).
#[test]
fn a_reaction_in_the_channelling_phase_is_refused() {
    let doc = "game: magewinds\nphase: channelling\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Golem, movement: 4, position: [5, 5], attacks: [Slam], reactions: [Counterspell]}\n  - name: Bram\n    fighters:\n      - {name: Shade, movement: 5, position: [9, 5], attacks: [Shadow Bolt]}\nplay: {react: Counterspell, fighter: Golem, trigger_met: true}\n";
    let r = arbiter::engine::engine("magewinds")
        .unwrap()
        .judge_text(doc)
        .unwrap();
    assert!(!r.legal, "{r:?}");
    assert!(r.changes.is_empty(), "{:?}", r.changes);
}

/// A misspelt Move, Attack or Guard is refused with a did-you-mean, not
/// taken as another named action with none of the attack's checks (found
/// by an outside tester: `action: atack` was legal and offered no
/// reaction); a named action of the fighter's own list still stands.
#[test]
fn a_misspelt_universal_action_gets_a_did_you_mean() {
    let board = "game: magewinds\nfirst_to_pass: Ana\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Pyromancer, movement: 5, position: [0, 0], attacks: [Fire Bolt]ACTIONS}\n  - name: Bram\n    fighters:\n      - {name: Shade, movement: 5, position: [2, 2], attacks: [Shadow Bolt]}\nplay:\n  activate: Pyromancer\n  action: NAME\n";
    let judge = |actions: &str, name: &str| {
        let doc = board.replace("ACTIONS", actions).replace("NAME", name);
        arbiter::engine::magewinds::ENGINE.judge_text(&doc).unwrap()
    };
    let r = judge("", "atack");
    assert!(!r.legal);
    assert!(
        r.diagnostics[0].message.contains("did you mean 'attack'"),
        "{:?}",
        r.diagnostics
    );
    assert!(judge(", actions: [Attach]", "Attach").legal);
    assert!(judge("", "Summon Familiar").legal);
}

/// What a play states that the board does not record is a claim (its
/// author's word, confirmed by the other players in a match), made only
/// where the procedure relies on it.
#[test]
fn stated_facts_the_board_does_not_record_are_claims_where_relied_on() {
    let judge = |extra: &str| {
        arbiter::engine::magewinds::ENGINE
            .judge_text(&format!("{BASE}{extra}"))
            .expect("board")
    };
    let paths = |r: &Ruling| -> Vec<String> { r.claims.iter().map(|c| c.path.clone()).collect() };
    // `free` spares the counter 13.0 would place.
    let r = judge("play: {activate: Pyromancer, action: Fireball, free: true}\n");
    assert_eq!(paths(&r), ["play.free"]);
    assert_eq!(r.claims[0].rule, "magewinds:13.0");
    assert!(r.claims[0].text.contains("free"), "{:?}", r.claims);
    let r = judge("play: {activate: Pyromancer, action: Fireball}\n");
    assert!(r.claims.is_empty(), "{:?}", r.claims);
    // The play's `visible` list is a claim where the board's would refuse
    // the target, not where the board's names it too.
    let r = judge(
        "play: {activate: Pyromancer, attack: Fire Bolt, target: Stonewarden, visible: [Stonewarden]}\n",
    );
    assert!(r.legal && r.claims.is_empty(), "{r:#?}");
    let r = judge(
        "play: {activate: Pyromancer, attack: Fire Bolt, target: Shade, step: 1, visible: [Shade]}\n",
    );
    assert_eq!(paths(&r), ["play.visible"]);
    // A trigger the engine cannot check, met on the play's word.
    let r = judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: true}\n");
    assert_eq!(paths(&r), ["play.trigger_met"]);
    let r =
        judge("play: {react: Counterspell, fighter: Stonewarden, trigger_met: true, free: true}\n");
    assert_eq!(paths(&r), ["play.trigger_met", "play.free"]);
}
