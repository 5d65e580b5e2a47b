//! Grand Archive attack declaration benchmarks.
//!
//! Target: a declaration with two cost sources (an additional cost in 2.d,
//! an extra cost in 2.e) and its reversal in < 50 µs from a parsed document.
//! Run with `cargo bench --bench engine_grand_archive`.

use arbiter::engine::grand_archive::ENGINE;
use arbiter::engine::{Asking, GameEngine, document};

fn main() {
    divan::main();
}

/// Two cost sources paid, then Taunt makes the attack illegal: everything is reversed.
const REVERSAL: &str = r#"
game: grand-archive
turn_player: Alice
players:
  - name: Alice
    reserve: 4
    champion: { name: "Lorraine, Wandering Warrior" }
    allies:
      - name: Fervent Lancer
        when_rested: [a trigger on becoming rested]
    objects:
      - { name: Bulwark Sword, kind: weapon }
  - name: Bob
    champion: { name: "Rai, Spellcrafter" }
    allies:
      - { name: Stalwart Guard, keywords: [Taunt] }
    objects:
      - { name: Tariff Ring, kind: item }
costs:
  - { source: Bulwark Sword, controller: Alice, kind: additional, reserve: 1, when_attacking_with: Bulwark Sword }
  - { source: Tariff Ring, controller: Bob, kind: extra, reserve: 2, applies_to: Alice }
play:
  action: declare-attack
  attacker: Fervent Lancer
  with: [Bulwark Sword]
  target: Rai
  pay_extra: [Tariff Ring]
"#;

const EXAMPLE_2: &str =
    include_str!("../examples/grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml");

/// Parse + validate + declare + reverse + diff (what `arbiter judge` does).
#[divan::bench]
fn judge_two_costs_and_reversal() -> bool {
    let r = ENGINE
        .judge_text(divan::black_box(REVERSAL))
        .expect("judges");
    assert!(!r.legal);
    r.legal
}

/// From a parsed document (what match tracking feeds the engine): typed
/// read and validation, steps 2.a-2.e, reversal, state and diff.
#[divan::bench]
fn procedure_two_costs_and_reversal(bencher: divan::Bencher) {
    let doc = document::parse_value(REVERSAL).expect("parses");
    let asking = Asking::judge();
    bencher.bench_local(|| {
        let r = ENGINE.judge(divan::black_box(doc.clone()), None, &asking);
        r.expect("judges").legal
    });
}

/// Seed example 2: legal declaration paying both costs.
#[divan::bench]
fn judge_example_2_legal() -> bool {
    ENGINE
        .judge_text(divan::black_box(EXAMPLE_2))
        .expect("judges")
        .legal
}
