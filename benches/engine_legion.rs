//! Legion engine benchmarks: validating a six-step activation (target < 20 µs).
//!
//! Run with `cargo bench --bench engine_legion`.

use arbiter::engine::GameEngine;
use arbiter::engine::legion::{self, Board};

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

/// The whole `judge`: parse the YAML, validate, run the six steps, build the ruling.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn judge_six_steps_from_yaml() -> bool {
    legion::ENGINE
        .judge_text(divan::black_box(SIX_STEPS))
        .map(|r| r.legal)
        .unwrap_or(false)
}

/// Validating the six-step activation of an already parsed board.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn validate_six_steps(bencher: divan::Bencher) {
    let board: Board =
        arbiter::engine::document::parse(SIX_STEPS).unwrap_or_else(|e| panic!("{e}"));
    bencher.bench(|| {
        legion::judge_board(divan::black_box(&board))
            .map(|r| r.legal)
            .unwrap_or(false)
    });
}
