//! The rules engine: executable step procedures that produce cited rulings.
//!
//! I/O-free. A game engine ([`GameEngine`]) reads a board document (YAML or
//! JSON text), runs the game's procedure for the play in dispute, and returns
//! a [`Ruling`]: every resolved step with the rule id it applied, diagnostics
//! for illegal plays, and the resulting state with what changed.
//!
//! Invariants (enforced by `tests/citations.rs`):
//! - every rule id an engine can cite is listed in its [`GameEngine::rule_uses`]
//!   and exists in the corpus;
//! - every `quote` there is verbatim text of that passage.

pub mod ashes;
pub mod board;
pub mod grand_archive;
pub mod legion;
pub mod magewinds;
pub mod ti4;

use serde::Serialize;

pub use board::{BoardError, ErrorKind, SourcePos};

/// One resolved step of a procedure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The passage id of the rule applied (exists in the index).
    pub rule: String,
    /// What happened, in plain words.
    pub text: String,
    /// Numbers involved (damage totals, tokens, inches), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<(String, i64)>,
    /// Who chose what at this step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
    /// Set when the step rests on a reading the indexed text does not state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assumption: Option<String>,
}

/// A choice a player made during a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Choice {
    pub player: String,
    pub chose: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// A problem with the play (not with the document: see [`BoardError`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The rule the play breaks, when one does.
    pub rule: Option<String>,
    /// The board field at fault (`play.attackers[1]`).
    pub path: Option<String>,
}

/// One change between the board before and after the ruling.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// What changed (`players[1].phoenixborn.damage`).
    pub path: String,
    pub before: serde_json::Value,
    pub after: serde_json::Value,
}

/// The engine's answer to a disputed play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ruling {
    pub game: String,
    pub legal: bool,
    pub steps: Vec<Step>,
    pub diagnostics: Vec<Diagnostic>,
    /// The board after the play (unchanged when the play is illegal).
    pub state: serde_json::Value,
    pub changes: Vec<Change>,
}

/// Where and why an engine may cite a rule (for coverage and the citation test).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleUse {
    pub rule: &'static str,
    /// The procedure that cites it (`attack a unit: resolve damage`).
    pub procedure: &'static str,
    /// A verbatim fragment of the passage this use relies on.
    pub quote: &'static str,
}

/// A game's executable rules.
pub trait GameEngine: Sync {
    /// The game id (as in `rules_data/<game>/manifest.yaml`).
    fn game(&self) -> &'static str;
    /// Every rule the engine may cite.
    fn rule_uses(&self) -> &'static [RuleUse];
    /// JSON Schema of this game's board documents.
    fn schema(&self) -> serde_json::Value;
    /// Adjudicates the play (or plays) in a board document. The ruling's
    /// `state` is itself a valid board document of this game, without the
    /// play: match tracking feeds it back with the next play.
    fn judge(&self, document: &str) -> Result<Ruling, BoardError>;

    /// Parses one line of play notation (as typed in `/match play`) into the
    /// `play` value of a board document, resolving names against `board`.
    fn parse_notation(
        &self,
        line: &str,
        board: &serde_json::Value,
    ) -> Result<serde_json::Value, BoardError> {
        let _ = (line, board);
        Err(BoardError::semantic(
            "play",
            format!(
                "{} has no one-line play notation yet; give the play as a YAML `play:` block",
                self.game()
            ),
        ))
    }

    /// Candidates for the next word of a partly typed notation line (unit
    /// names, actions, targets), for autocomplete.
    fn notation_completions(&self, partial: &str, board: &serde_json::Value) -> Vec<String> {
        let _ = (partial, board);
        Vec::new()
    }
}

/// Every game with an engine.
pub fn engines() -> &'static [&'static dyn GameEngine] {
    &[
        &ti4::Ti4,
        &magewinds::Magewinds,
        &legion::Legion,
        &grand_archive::ENGINE,
        &ashes::ENGINE,
    ]
}

/// The engine of a game id.
pub fn engine(game: &str) -> Option<&'static dyn GameEngine> {
    engines().iter().copied().find(|e| e.game() == game)
}

/// Diffs two JSON states into a list of changes (leaf paths only).
pub fn diff(before: &serde_json::Value, after: &serde_json::Value) -> Vec<Change> {
    let mut out = Vec::new();
    diff_into(String::new(), before, after, &mut out);
    out
}

/// Whether every element is an object with a distinct `name`.
fn named(list: &[serde_json::Value]) -> bool {
    let mut seen = std::collections::HashSet::new();
    list.iter().all(|v| {
        v.get("name")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|n| seen.insert(n))
    })
}

fn diff_into(path: String, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<Change>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                diff_into(p, va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                diff_into(p, &Value::Null, vb, out);
            }
        }
        // Lists of named things (units, players) are matched by name, so a
        // destroyed unit reads as one removal, not a shifted list.
        (Value::Array(x), Value::Array(y)) if named(x) && named(y) => {
            let name = |v: &Value| {
                v.get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            for va in x {
                let n = name(va);
                let p = format!("{path}[{n:?}]");
                match y.iter().find(|vb| name(vb) == n) {
                    Some(vb) => diff_into(p, va, vb, out),
                    None => out.push(Change {
                        path: p,
                        before: va.clone(),
                        after: Value::Null,
                    }),
                }
            }
            for vb in y
                .iter()
                .filter(|vb| !x.iter().any(|va| name(va) == name(vb)))
            {
                out.push(Change {
                    path: format!("{path}[{:?}]", name(vb)),
                    before: Value::Null,
                    after: vb.clone(),
                });
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff_into(format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ if a != b => out.push(Change {
            path,
            before: a.clone(),
            after: b.clone(),
        }),
        _ => {}
    }
}
