//! What an engine answers: a [`Ruling`] (steps, diagnostics, the resulting
//! state and what changed), a [`Decision`] it stopped at, and the game's
//! [`Status`] (phase, whose turn, result). Plain data, serialized as the
//! `judge --json` contract.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One resolved step of a procedure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The passage id of the rule applied (exists in the index).
    pub rule: String,
    /// What happened, in plain words.
    pub text: String,
    /// Numbers involved (damage totals, tokens, inches), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<(String, i64)>,
    /// Who chose what at this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
    /// Set when the step rests on a reading the indexed text does not state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumption: Option<String>,
}

impl Step {
    pub fn num(&mut self, name: &str, v: impl Into<i64>) -> &mut Step {
        self.numbers.push((name.to_string(), v.into()));
        self
    }

    /// A choice the player made (stated on the board or answered).
    pub fn chose(&mut self, player: &str, chose: impl Into<String>) -> &mut Step {
        self.choice = Some(Choice {
            player: player.to_string(),
            chose: chose.into(),
            assumed: None,
        });
        self
    }

    /// A choice nobody stated: the rule's default, and why it is the default.
    pub fn assumed(
        &mut self,
        player: &str,
        chose: impl Into<String>,
        why: impl Into<String>,
    ) -> &mut Step {
        self.choice = Some(Choice {
            player: player.to_string(),
            chose: chose.into(),
            assumed: Some(why.into()),
        });
        self
    }

    /// Records the reading this step rests on (appended to any earlier one).
    pub fn assume(&mut self, a: impl Into<String>) -> &mut Step {
        let a = a.into();
        self.assumption = Some(match self.assumption.take() {
            // A sentence is followed by a sentence (never ".; ").
            Some(prev) if prev != a && prev.ends_with('.') => format!("{prev} {}", capital(&a)),
            Some(prev) if prev != a => format!("{prev}; {a}"),
            _ => a,
        });
        self
    }
}

/// `a` with its first letter in capitals (a sentence's start).
fn capital(a: &str) -> String {
    let mut chars = a.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A choice during a step, and who it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub player: String,
    pub chose: String,
    /// Set when nobody stated the choice: "not stated on the board; assumed …".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumed: Option<String>,
}

impl Choice {
    /// The choice as a sentence, for a reply: "Maeoni chose to counter
    /// with Frostback Bear" when stated or answered, "Coal chooses the
    /// order Iron Worker, Hammer Knight" when nobody stated it (the default
    /// she is taken to choose; the reply read "Coal the order …", "Maeoni
    /// not to block", without a verb). The games word `chose` to follow a
    /// verb.
    pub fn sentence(&self) -> String {
        let verb = match self.assumed {
            Some(_) => "chooses",
            None => "chose",
        };
        format!("{} {verb} {}", self.player, self.chose)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The play is illegal: nothing it does happens.
    Error,
    /// One sub-choice of a legal play is refused; the rest resolves as the
    /// rules say it does without that choice.
    Refused,
    Warning,
    Info,
}

/// A problem with the play (not with the document: see
/// [`BoardError`](super::BoardError)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The rule the play breaks, when one does.
    pub rule: Option<String>,
    /// The board field at fault (`play.attackers[1]`).
    pub path: Option<String>,
}

/// A fact the play states that the board does not record and the engine
/// cannot check (a card makes this action free, who a fighter sees), which
/// the procedure took as true where a rule would otherwise apply. In a
/// match it is its author's word, so the other players are asked to
/// confirm it (docs/MATCHES.md, Consent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The play field that states it (`play.free`).
    pub path: String,
    /// What it states, in plain words.
    pub text: String,
    /// The rule it sets aside (the one the board alone would apply).
    pub rule: String,
}

/// One change between the board before and after the ruling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// What changed (`players[1].phoenixborn.damage`).
    pub path: String,
    pub before: Value,
    pub after: Value,
}

/// The empty list a board leaves out ([`Change::read`]).
static EMPTY_LIST: Value = Value::Array(Vec::new());

/// One side of a [`Change`] as a reply reads it: a value, or a field the
/// board did not set (its `null`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Side<'a> {
    Value(&'a Value),
    NotSet,
}

impl std::fmt::Display for Side<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Side::Value(v) => v.fmt(f),
            Side::NotSet => f.write_str("(not set)"),
        }
    }
}

impl Change {
    /// The values before and after as a reply reads them: a list where
    /// the other side is `null` (a board leaves an empty list out, so the
    /// field was absent) reads as the empty list, `[]`, as `adjust`'s
    /// "to []" does. An item added to a list the board omitted is
    /// "[] → [\"x\"]", an addition, not "null → [\"x\"]" as if the list
    /// had been unset; a list emptied reads "→ []". Any other `null` is a
    /// field the board did not set: "(not set) → true", not "null → true"
    /// (a Legion unit's `activated`), in every renderer.
    pub fn read(&self) -> (Side<'_>, Side<'_>) {
        fn side(v: &Value) -> Side<'_> {
            match v {
                Value::Null => Side::NotSet,
                v => Side::Value(v),
            }
        }
        match (&self.before, &self.after) {
            (Value::Null, after @ Value::Array(_)) => {
                (Side::Value(&EMPTY_LIST), Side::Value(after))
            }
            (before @ Value::Array(_), Value::Null) => {
                (Side::Value(before), Side::Value(&EMPTY_LIST))
            }
            (before, after) => (side(before), side(after)),
        }
    }
}

/// A choice that belongs to a player and was not stated: the procedure
/// stops and asks them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// What is decided, unique within a play (`counter`, `block:Iron Worker`).
    pub key: String,
    /// Who decides: the board's player name and seat (0-based).
    pub player: String,
    pub seat: usize,
    /// The question, as the player is asked (`Maeoni: block Iron Worker with…`).
    pub question: String,
    /// The rule that gives the player this choice.
    pub rule: String,
    /// Where the answer goes in the play (for a board written by hand).
    pub path: String,
    /// The answers, at most [`MAX_OPTIONS`] (Discord's limit for a menu).
    pub options: Vec<DecisionOption>,
    /// The answer the rules give when the player says nothing (index into
    /// `options`), used when the decision times out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<usize>,
    /// Why that is the default (quoted reading of the rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_reason: Option<String>,
    /// The default is a reading the engine assumes, not one the quoted text
    /// gives (labelled "assumed", never "the rules' default").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default_assumed: bool,
}

/// Most answers a decision offers.
pub const MAX_OPTIONS: usize = 25;

/// One answer to a [`Decision`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DecisionOption {
    pub label: String,
    /// JSON merge patch (RFC 7396) applied to the play when chosen.
    pub patch: Value,
}

/// A game's result, when the board decides one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winning player's name; `None` for a draw or no winner.
    pub winner: Option<String>,
    pub reason: String,
    /// The rule that decides it; `None` when it is outside the indexed rules.
    pub rule: Option<String>,
}

/// Where the game stands: read off a board by its engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// The phase, as the game names it (`player turns`, `action phase`).
    pub phase: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Whose turn it is: the board's player name and seat (0-based), when
    /// one player is to act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_seat: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Seats out of the game while others play on (an Ashes player whose
    /// Phoenixborn is destroyed): nobody waits on them, for turns or consent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub out: Vec<usize>,
}

/// The engine's answer to a disputed play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ruling {
    pub game: String,
    /// No error diagnostic: the play (or everything before a pending
    /// decision) is legal. A refused sub-choice does not make it illegal.
    pub legal: bool,
    pub steps: Vec<Step>,
    pub diagnostics: Vec<Diagnostic>,
    /// Set when the procedure stopped at a choice nobody stated: the play
    /// resolves once it is answered (nothing changed yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Decision>,
    /// What the play states that the board does not record and the
    /// procedure relied on ([`Claim`]); omitted when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    /// The board after the play (unchanged when illegal or pending).
    #[serde(default)]
    pub state: Value,
    pub changes: Vec<Change>,
    /// Where the game stands after the play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

impl Ruling {
    /// A ruling on a board with no play: the board itself is valid.
    pub fn no_play(game: &str, state: Value, status: Option<Status>) -> Ruling {
        Ruling {
            game: game.to_string(),
            legal: true,
            steps: Vec::new(),
            diagnostics: vec![Diagnostic {
                severity: Severity::Info,
                message: "the board has no `play`; the board itself is valid".into(),
                rule: None,
                path: Some("play".into()),
            }],
            pending: None,
            claims: Vec::new(),
            state,
            changes: Vec::new(),
            status,
        }
    }
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

/// Diffs two JSON states into a list of changes (leaf paths only).
pub fn diff(before: &Value, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    if before != after {
        diff_into(&mut String::new(), before, after, &mut out);
    }
    out
}

/// Whether every element is an object with a distinct `name`.
fn named(list: &[Value]) -> bool {
    let names: Vec<&str> = list.iter().map(name_of).collect();
    distinct_names(&names)
}

/// Every name is set, no two the same: the list is matched by name.
pub(crate) fn distinct_names(names: &[&str]) -> bool {
    names
        .iter()
        .enumerate()
        .all(|(i, n)| !n.is_empty() && !names[..i].contains(n))
}

pub(crate) fn name_of(v: &Value) -> &str {
    v.get("name").and_then(Value::as_str).unwrap_or_default()
}

/// Appends `["name"]` to `path`, as `{:?}` writes it (plain ASCII without
/// the formatter; anything else through it).
pub(crate) fn push_name(path: &mut String, name: &str) {
    use std::fmt::Write;
    let plain = |c: char| (' '..='~').contains(&c) && c != '"' && c != '\\';
    if name.chars().all(plain) {
        path.push_str("[\"");
        path.push_str(name);
        path.push_str("\"]");
    } else {
        let _ = write!(path, "[{name:?}]");
    }
}

/// Runs `f` with `seg` appended to `path` (`[2]`, `["Iron Worker"]`).
pub(crate) fn within(path: &mut String, seg: std::fmt::Arguments, f: impl FnOnce(&mut String)) {
    use std::fmt::Write;
    let len = path.len();
    let _ = path.write_fmt(seg);
    f(path);
    path.truncate(len);
}

/// Runs `f` with the field `key` appended to `path` (`a` → `a.key`).
pub(crate) fn within_key(path: &mut String, key: &str, f: impl FnOnce(&mut String)) {
    let len = path.len();
    if len > 0 {
        path.push('.');
    }
    path.push_str(key);
    f(path);
    path.truncate(len);
}

/// One walk over both values: `path` is the current field, grown and cut
/// back in place, and copied only into a change.
pub(crate) fn diff_into(path: &mut String, a: &Value, b: &Value, out: &mut Vec<Change>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let vb = y.get(k).unwrap_or(&Value::Null);
                within_key(path, k, |p| diff_into(p, va, vb, out));
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(*k)) {
                within_key(path, k, |p| diff_into(p, &Value::Null, vb, out));
            }
        }
        // Lists of named things (units, players) are matched by name, so a
        // destroyed unit reads as one removal, not a shifted list.
        (Value::Array(x), Value::Array(y)) if named(x) && named(y) => diff_named(path, x, y, out),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                within(path, format_args!("[{i}]"), |p| diff_into(p, va, vb, out));
            }
        }
        _ if a != b => out.push(Change {
            path: path.clone(),
            before: a.clone(),
            after: b.clone(),
        }),
        _ => {}
    }
}

/// Two lists of named things, matched by name.
fn diff_named(path: &mut String, x: &[Value], y: &[Value], out: &mut Vec<Change>) {
    let ny: Vec<&str> = y.iter().map(name_of).collect();
    let nx: Vec<&str> = x.iter().map(name_of).collect();
    for (va, name) in x.iter().zip(&nx) {
        let vb = ny.iter().position(|n| n == name).map(|j| &y[j]);
        let len = path.len();
        push_name(path, name);
        match vb {
            Some(vb) => diff_into(path, va, vb, out),
            None => out.push(Change {
                path: path.clone(),
                before: va.clone(),
                after: Value::Null,
            }),
        }
        path.truncate(len);
    }
    for (vb, name) in y.iter().zip(&ny).filter(|(_, n)| !nx.contains(n)) {
        let mut p = path.clone();
        push_name(&mut p, name);
        out.push(Change {
            path: p,
            before: Value::Null,
            after: vb.clone(),
        });
    }
}

/// Applies a JSON merge patch (RFC 7396): objects merge key by key, `null`
/// removes a key, anything else replaces.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(serde_json::Map::new());
    }
    if let Value::Object(t) = target {
        for (k, v) in p {
            if v.is_null() {
                t.remove(k);
            } else {
                merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_in_paths_are_written_as_debug_strings() {
        for name in [
            "Iron Worker",
            "say \"hi\"",
            "back\\slash",
            "Çà va",
            "tab\tx",
        ] {
            let mut p = String::from("units");
            push_name(&mut p, name);
            assert_eq!(p, format!("units[{name:?}]"));
        }
    }

    #[test]
    fn named_lists_diff_by_name() {
        let a = json!({"units": [{"name": "A", "life": 2}, {"name": "B", "life": 3}]});
        let b = json!({"units": [{"name": "B", "life": 1}]});
        let d = diff(&a, &b);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].path, "units[\"A\"]");
        assert_eq!(d[1].path, "units[\"B\"].life");
    }

    #[test]
    fn merge_patches_follow_rfc_7396() {
        let mut t = json!({"a": 1, "b": {"c": 2, "d": 3}, "e": [1]});
        merge_patch(&mut t, &json!({"a": null, "b": {"c": 5}, "e": [2, 3]}));
        assert_eq!(t, json!({"b": {"c": 5, "d": 3}, "e": [2, 3]}));
    }
}
