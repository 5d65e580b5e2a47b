//! TI4 action-phase engine: a full six-player action phase of 40 plays,
//! adjudicated as one sequence (target: under 1 ms), and one play at a time
//! as match tracking drives it.

use arbiter::engine::GameEngine;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

const ORDER: [&str; 6] = ["Ben", "Dan", "Eve", "Finn", "Ana", "Cleo"];
const CARDS: [&str; 6] = [
    "Leadership",
    "Diplomacy",
    "Politics",
    "Trade",
    "Warfare",
    "Technology",
];

fn board() -> Value {
    let players: Vec<Value> = ORDER
        .iter()
        .zip(CARDS)
        .map(|(p, c)| json!({ "name": p, "faction": format!("Faction of {p}"), "strategy_cards": [{ "name": c }] }))
        .collect();
    json!({ "game": "ti4", "round": 2, "players": players })
}

/// 40 plays: 6 strategic actions with 4 secondaries, 24 tactical /
/// component actions, 6 passes; ends in the status phase.
fn plays() -> Vec<Value> {
    let mut out = Vec::new();
    for (i, (p, c)) in ORDER.iter().zip(CARDS).enumerate() {
        out.push(json!({ "type": "strategic_action", "player": p, "card": c }));
        if i < 4 {
            out.push(json!({ "type": "secondary", "player": ORDER[(i + 1) % 6], "card": c }));
        }
    }
    for round in 0..4 {
        for p in ORDER {
            let kind = if round % 2 == 1 {
                "component_action"
            } else {
                "tactical_action"
            };
            out.push(json!({ "type": kind, "player": p }));
        }
    }
    for p in ORDER {
        out.push(json!({ "type": "pass", "player": p }));
    }
    out
}

fn sequence_document() -> String {
    let mut doc = board();
    let plays = plays();
    assert_eq!(plays.len(), 40);
    doc["plays"] = json!(plays);
    serde_json::to_string(&doc).unwrap()
}

fn yaml_document() -> String {
    let mut s = String::from("game: ti4\nround: 2\nplayers:\n");
    for (p, c) in ORDER.iter().zip(CARDS) {
        s.push_str(&format!(
            "  - {{ name: {p}, strategy_cards: [{{ name: {c} }}] }}\n"
        ));
    }
    s.push_str("plays:\n");
    for p in plays() {
        s.push_str(&format!("  - {}\n", serde_json::to_string(&p).unwrap()));
    }
    s
}

#[divan::bench]
fn full_phase_40_plays_json(bencher: divan::Bencher) {
    let doc = sequence_document();
    let r = arbiter::engine::ti4::ENGINE.judge_text(&doc).unwrap();
    assert!(r.legal && r.state["phase"] == "status");
    bencher.bench(|| {
        arbiter::engine::ti4::ENGINE
            .judge_text(divan::black_box(&doc))
            .unwrap()
    });
}

#[divan::bench]
fn full_phase_40_plays_yaml(bencher: divan::Bencher) {
    let doc = yaml_document();
    let r = arbiter::engine::ti4::ENGINE.judge_text(&doc).unwrap();
    assert!(
        r.legal && r.state["phase"] == "status",
        "{:?}",
        r.diagnostics
    );
    bencher.bench(|| {
        arbiter::engine::ti4::ENGINE
            .judge_text(divan::black_box(&doc))
            .unwrap()
    });
}

/// Match tracking: 40 rulings, each on the previous ruling's state.
#[divan::bench]
fn full_phase_one_play_at_a_time(bencher: divan::Bencher) {
    let plays = plays();
    bencher.bench(|| {
        let mut state = board();
        for p in &plays {
            let mut doc = state;
            doc["play"] = p.clone();
            let r = arbiter::engine::ti4::ENGINE
                .judge_text(&serde_json::to_string(&doc).unwrap())
                .unwrap();
            state = r.state;
        }
        state
    });
}

/// One play on a mid-phase board (a single match-tracking ruling).
#[divan::bench]
fn one_play(bencher: divan::Bencher) {
    let mut doc = board();
    doc["play"] = json!({ "type": "strategic_action", "player": "Ben", "card": "Leadership" });
    let text = serde_json::to_string(&doc).unwrap();
    bencher.bench(|| {
        arbiter::engine::ti4::ENGINE
            .judge_text(divan::black_box(&text))
            .unwrap()
    });
}

/// Parsing alone (the document into a JSON value, as the kit parses it
/// once per request), for comparison.
#[divan::bench]
fn parse_only(bencher: divan::Bencher) {
    let mut doc = board();
    doc["play"] = json!({ "type": "strategic_action", "player": "Ben", "card": "Leadership" });
    let text = serde_json::to_string(&doc).unwrap();
    bencher.bench(|| arbiter::engine::document::parse_value(divan::black_box(&text)).unwrap());
}
