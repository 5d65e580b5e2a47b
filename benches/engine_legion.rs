//! Legion engine benchmarks: judging a six-step activation (target < 20 µs
//! once the board is parsed).
//!
//! Run with `cargo bench --bench engine_legion`.

use arbiter::engine::{Asking, GameEngine, document, legion};

fn main() {
    divan::main();
}

/// Vader: move, Relentless free attack, Gunslinger-style extra attack, a free
/// card action, a token from an effect, then a card action: six steps.
const SIX_STEPS: &str = r#"
game: legion
player: Imperial player
unit:
  name: Darth Vader
  abilities:
    - name: Relentless
      after: move
      grants: free_action
      action: attack
    - name: Deadly Precision
      after: attack
      grants: extra_attack
  card_actions: [Force Choke]
  free_card_actions: [Saber Throw]
play:
  - action: move
  - free_action: attack
    ability: Relentless
  - extra_attack: true
    ability: Deadly Precision
  - free_card_action: Saber Throw
  - gain: dodge
    effect: "Command card: New Ways to Motivate Them"
  - action: card
    card: Force Choke
"#;

/// The whole `judge`: parse the YAML, read the board, run the six steps, build the ruling.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn judge_six_steps_from_yaml() -> bool {
    legion::ENGINE
        .judge_text(divan::black_box(SIX_STEPS))
        .map(|r| r.legal)
        .unwrap_or(false)
}

/// The same from the parsed document (what match tracking stores): typed
/// read, validation, the six steps, the ruling.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn validate_six_steps(bencher: divan::Bencher) {
    let doc = document::parse_value(SIX_STEPS).unwrap_or_else(|e| panic!("{e}"));
    bencher.bench(|| {
        legion::ENGINE
            .judge(divan::black_box(doc.clone()), None, &Asking::judge())
            .map(|r| r.legal)
            .unwrap_or(false)
    });
}
