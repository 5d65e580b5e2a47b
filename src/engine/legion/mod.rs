//! Star Wars: Legion: a unit's activation as an executable procedure.
//!
//! Rules text: the community wiki's "Actions" entry (`legion:actions`,
//! CC-BY-SA). The board document describes one unit (abilities as data,
//! actions available, tokens, card actions) and what it does, in order; the
//! ruling checks each step against the two-action limit, the no-repeat rule,
//! card and free card actions, free actions and attacks that are not actions,
//! and lists which abilities trigger or do not.

mod activation;
pub mod model;
mod notation;

use crate::engine::{BoardError, Diagnostic, RuleUse, Ruling, Step, board};

pub use activation::Activation;
pub use model::Board;

/// The Legion engine.
pub struct Legion;

/// The registered instance.
pub const ENGINE: crate::engine::legacy::Legacy<Legion> = crate::engine::legacy::Legacy(Legion);

const RULE_USES: &[RuleUse] = &[
    RuleUse {
        rule: "legion:actions.1",
        procedure: "activation: two actions, a third refused",
        quote: "When a unit is activated, it can perform two actions from the following list:",
    },
    RuleUse {
        rule: "legion:actions.1.1",
        procedure: "activation: move action",
        quote: "Move",
    },
    RuleUse {
        rule: "legion:actions.1.2",
        procedure: "activation: attack action",
        quote: "Attack",
    },
    RuleUse {
        rule: "legion:actions.1.3",
        procedure: "activation: aim action",
        quote: "Aim",
    },
    RuleUse {
        rule: "legion:actions.1.4",
        procedure: "activation: dodge action",
        quote: "Dodge",
    },
    RuleUse {
        rule: "legion:actions.1.5",
        procedure: "activation: standby action",
        quote: "Standby",
    },
    RuleUse {
        rule: "legion:actions.1.6",
        procedure: "activation: recover action",
        quote: "Recover",
    },
    RuleUse {
        rule: "legion:actions.1.7",
        procedure: "activation: card action",
        quote: "Card Action",
    },
    RuleUse {
        rule: "legion:actions.2",
        procedure: "activation: same action at most once, except move",
        quote: "A unit cannot perform the same action more than once during its activation, except the move action, which can be performed multiple times.",
    },
    RuleUse {
        rule: "legion:actions.3",
        procedure: "activation: card actions on the unit",
        quote: "that ability is a card action",
    },
    RuleUse {
        rule: "legion:actions.3.1",
        procedure: "activation: each card action is its own action",
        quote: "a unit cannot perform the same card action more than once during its activation",
    },
    RuleUse {
        rule: "legion:actions.4",
        procedure: "activation: free card actions do not count",
        quote: "Free card actions do not count against the two actions that a unit can perform during its activation.",
    },
    RuleUse {
        rule: "legion:actions.4.1",
        procedure: "activation: same free card action at most once",
        quote: "a unit cannot perform the same free card action more than once during its activation",
    },
    RuleUse {
        rule: "legion:actions.5",
        procedure: "activation: actions reduced by suppression and damage",
        quote: "Suppression and damage can reduce the number of actions a unit can perform during its activation.",
    },
    RuleUse {
        rule: "legion:actions.6",
        procedure: "activation: more than two actions through free actions",
        quote: "Through the use of free actions, a unit can perform more than two actions.",
    },
    RuleUse {
        rule: "legion:actions.7",
        procedure: "activation: typed free actions",
        quote: "is considered an action for the purposes of game effects and therefore does not allow a unit to perform the same non-move action more than once during its activation",
    },
    RuleUse {
        rule: "legion:actions.8",
        procedure: "activation: untyped free actions",
        quote: "If an effect provides a unit with a free action without specifying a type of action, that unit may perform any action that it could normally perform.",
    },
    RuleUse {
        rule: "legion:actions.9",
        procedure: "activation: attacks that are not actions",
        quote: "It is not an action and therefore does not count against that unit’s two actions per activation and does not trigger abilities that occur after actions are performed.",
    },
    RuleUse {
        rule: "legion:actions.10",
        procedure: "activation: tokens gained from effects",
        quote: "that effect is different than performing an aim, dodge, or standby action and therefore does not trigger abilities or effects that occur after aim, dodge, or standby actions are performed.",
    },
];

impl crate::engine::legacy::Old for Legion {
    fn game(&self) -> &'static str {
        "legion"
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        RULE_USES
    }

    fn schema(&self) -> serde_json::Value {
        schema()
    }

    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let b: Board = board::parse(document)?;
        judge_board(&b)
    }

    fn parse_notation(
        &self,
        line: &str,
        board: &serde_json::Value,
    ) -> Result<serde_json::Value, BoardError> {
        notation::parse(line, board)
    }

    fn notation_completions(&self, partial: &str, board: &serde_json::Value) -> Vec<String> {
        notation::completions(partial, board)
    }
}

/// The board without its play (the ruling's state), serialised like [`Board`].
#[derive(serde::Serialize)]
struct StateView<'a> {
    game: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: &'a Option<String>,
    unit: &'a model::Unit,
}

/// Adjudicates a parsed board.
pub fn judge_board(b: &Board) -> Result<Ruling, BoardError> {
    let u = b.unit_v()?;
    let ser =
        |e: serde_json::Error| BoardError::refused(format!("cannot serialise the board: {e}"));
    let before = serde_json::to_value(StateView {
        game: &b.game,
        player: &b.player,
        unit: &b.unit,
    })
    .map_err(ser)?;

    // Replay what the unit already did this activation.
    let mut act = Activation::new(&u, b.unit.tokens);
    let mut history = Vec::new();
    let (mut scratch, mut scratch_notes) = (Vec::new(), Vec::new());
    for (i, s) in b.unit.performed.iter().enumerate() {
        let path = format!("unit.performed[{i}]");
        let op = u.op(s, &path)?;
        if let Err(d) = act.apply(&op, &path, &mut scratch, &mut scratch_notes) {
            let mut e = BoardError::semantic(
                path,
                format!("the activation so far is not legal: {}", d.message),
            );
            e.rule = d.rule;
            return Err(e);
        }
        history.push(op);
    }
    let mut ops = Vec::new();
    for (i, s) in b.play.iter().enumerate() {
        ops.push(u.op(s, &format!("play[{i}]"))?);
    }

    let mut steps = Vec::with_capacity(4 + 3 * ops.len());
    steps.extend(opening(&u, &act, &history));
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut legal = true;
    for (i, op) in ops.iter().enumerate() {
        let path = format!("play[{i}]");
        if let Err(d) = act.apply(op, &path, &mut steps, &mut diagnostics) {
            diagnostics.push(d);
            legal = false;
            break;
        }
    }
    if legal {
        steps.push(act.summary());
    }
    // Only the activation record and the tokens change, so the diff of the
    // whole board is the diff of those two fields.
    let mut state = before;
    let mut changes = Vec::new();
    if legal
        && let Some(unit) = state
            .get_mut("unit")
            .and_then(serde_json::Value::as_object_mut)
    {
        let performed: Vec<model::PlayStep> =
            history.iter().chain(&ops).map(|op| u.step_of(op)).collect();
        let performed = if performed.is_empty() {
            None
        } else {
            Some(serde_json::to_value(&performed).map_err(ser)?)
        };
        let tokens = if act.tokens.is_empty() {
            None
        } else {
            Some(serde_json::to_value(act.tokens).map_err(ser)?)
        };
        for (field, new) in [("performed", performed), ("tokens", tokens)] {
            let old = unit.remove(field);
            let null = serde_json::Value::Null;
            for c in
                crate::engine::diff(old.as_ref().unwrap_or(&null), new.as_ref().unwrap_or(&null))
            {
                let sep = if c.path.is_empty() || c.path.starts_with('[') {
                    ""
                } else {
                    "."
                };
                let path = format!("unit.{field}{sep}{}", c.path);
                changes.push(crate::engine::Change { path, ..c });
            }
            if let Some(v) = new {
                unit.insert(field.into(), v);
            }
        }
    }
    Ok(Ruling {
        pending: None,
        status: None,
        game: "legion".into(),
        legal,
        steps,
        diagnostics,
        state,
        changes,
    })
}

fn opening(u: &model::UnitV, act: &Activation, history: &[model::Op]) -> Vec<Step> {
    let mut steps = Vec::new();
    let n = u.available;
    let actions = if n == 1 {
        "1 action".to_string()
    } else {
        format!("{n} actions")
    };
    let mut s = if !u.reductions.is_empty() {
        let total: u32 = u.reductions.iter().map(|(a, _)| *a).sum();
        let why: Vec<String> = u
            .reductions
            .iter()
            .map(|(a, src)| format!("{a} for {src}"))
            .collect();
        let mut s = Step {
            rule: "legion:actions.5".into(),
            text: format!(
                "{} is activated with {actions}: two, reduced by {total} ({})",
                u.name,
                why.join("; ")
            ),
            numbers: vec![
                ("actions".into(), 2),
                ("reduced by".into(), i64::from(total)),
                ("actions available".into(), i64::from(n)),
            ],
            choice: None,
            assumption: None,
        };
        s.assumption = Some("the size of each reduction comes from the board; the indexed text says suppression and damage can reduce the actions but not by how much".into());
        s
    } else if u.given_number && n < 2 {
        Step {
            rule: "legion:actions.5".into(),
            text: format!("{} is activated with {actions}, as the board gives (fewer than two; no source given)", u.name),
            numbers: vec![("actions available".into(), i64::from(n))],
            choice: None,
            assumption: Some("the number comes from the board; the indexed text says suppression and damage can reduce the actions but not by how much".into()),
        }
    } else {
        Step {
            rule: "legion:actions.1".into(),
            text: format!("{} is activated: it can perform two actions", u.name),
            numbers: vec![("actions available".into(), i64::from(n))],
            choice: None,
            assumption: None,
        }
    };
    if n == 0 {
        s.text.push_str(
            "; only free actions, free card actions and attacks that are not actions remain",
        );
    }
    steps.push(s);
    if !u.card_actions.is_empty() {
        steps.push(Step {
            rule: "legion:actions.3".into(),
            text: format!(
                "card actions of {}: {} (each ability preceded by the card action icon is a card action)",
                u.name,
                u.card_actions.join(", ")
            ),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        });
    }
    if !history.is_empty() {
        let done: Vec<String> = history.iter().map(|op| act.describe(op)).collect();
        steps.push(Step {
            rule: "legion:actions.1".into(),
            text: format!("already this activation: {}", done.join("; ")),
            numbers: vec![
                ("actions used".into(), i64::from(act.used)),
                ("free actions".into(), i64::from(act.free)),
            ],
            choice: None,
            assumption: None,
        });
    }
    steps
}

fn kinds_enum() -> serde_json::Value {
    serde_json::json!([
        "move", "attack", "aim", "dodge", "standby", "recover", "card"
    ])
}

/// The JSON Schema of a Legion board document.
pub fn schema() -> serde_json::Value {
    use serde_json::json;
    let step = json!({
        "type": "object",
        "description": "One thing the unit does: exactly one of action, free_action, free_card_action, extra_attack, gain.",
        "additionalProperties": false,
        "properties": {
            "action": { "enum": kinds_enum(), "description": "One of the unit's actions (legion:actions.1). For a card action add `card`." },
            "free_action": { "enum": kinds_enum(), "description": "A free action granted by `ability` or `effect` (legion:actions.7, legion:actions.8)." },
            "free_card_action": { "type": "string", "description": "One of the unit's free card actions (legion:actions.4)." },
            "extra_attack": { "const": true, "description": "An attack that is not an action, granted by `ability` or `effect` (legion:actions.9)." },
            "gain": { "enum": ["aim", "dodge", "standby"], "description": "A token gained from an effect, not an action (legion:actions.10)." },
            "card": { "type": "string", "description": "The card action, with action: card or free_action: card." },
            "ability": { "type": "string", "description": "The unit's ability that grants this step." },
            "effect": { "type": "string", "description": "Another effect (command card, ally) that grants this step." },
            "untyped": { "type": "boolean", "description": "With free_action and effect: the effect gives a free action without a type." }
        },
        "oneOf": [
            { "required": ["action"] },
            { "required": ["free_action"] },
            { "required": ["free_card_action"] },
            { "required": ["extra_attack"] },
            { "required": ["gain"] }
        ]
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Star Wars: Legion board document (arbiter)",
        "description": "One unit's activation: the unit, what it already did, and the play in dispute.",
        "type": "object",
        "additionalProperties": false,
        "required": ["game", "unit"],
        "properties": {
            "game": { "const": "legion" },
            "player": { "type": "string", "description": "The player controlling the unit." },
            "unit": {
                "type": "object",
                "additionalProperties": false,
                "required": ["name"],
                "properties": {
                    "name": { "type": "string" },
                    "actions": { "type": "integer", "minimum": 0, "maximum": 2, "description": "Actions available this activation, when the board gives the number (default 2)." },
                    "reduced_by": {
                        "type": "array",
                        "description": "Reductions of the two actions, each with its source (legion:actions.5).",
                        "maxItems": model::MAX_LIST,
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["amount", "source"],
                            "properties": {
                                "amount": { "type": "integer", "minimum": 1, "maximum": 2 },
                                "source": { "type": "string", "description": "suppression, damage, …" }
                            }
                        }
                    },
                    "abilities": {
                        "type": "array",
                        "maxItems": model::MAX_LIST,
                        "items": {
                            "type": "object",
                            "additionalProperties": false,
                            "required": ["name"],
                            "properties": {
                                "name": { "type": "string" },
                                "after": { "enum": ["move", "attack", "aim", "dodge", "standby", "recover", "card", "any"], "description": "Triggers after an action of this type; absent: usable once, any time." },
                                "grants": { "enum": ["free_action", "extra_attack", "token"] },
                                "action": { "enum": ["move", "attack", "aim", "dodge", "standby", "recover", "card", "any"], "description": "With grants: free_action, the type; absent or any: untyped." },
                                "token": { "enum": ["aim", "dodge", "standby"], "description": "With grants: token." },
                                "text": { "type": "string" }
                            }
                        }
                    },
                    "tokens": {
                        "type": "object",
                        "additionalProperties": false,
                        "properties": {
                            "aim": { "type": "integer", "minimum": 0 },
                            "dodge": { "type": "integer", "minimum": 0 },
                            "standby": { "type": "integer", "minimum": 0 }
                        }
                    },
                    "card_actions": { "type": "array", "items": { "type": "string" }, "maxItems": model::MAX_LIST },
                    "free_card_actions": { "type": "array", "items": { "type": "string" }, "maxItems": model::MAX_LIST },
                    "performed": { "type": "array", "items": step.clone(), "maxItems": model::MAX_STEPS, "description": "What the unit already did this activation." }
                }
            },
            "play": { "type": "array", "items": step, "maxItems": model::MAX_STEPS, "description": "What the unit does now, in order." }
        }
    })
}
