//! Ashes Reborn: the main actions of "03 - Main Actions" (Pay a Cost, Attack
//! a Phoenixborn, Attack a Unit, Pass), executed step by step with citations.
//!
//! See `docs/games/ashes.md` for the board document and the play notation.

pub mod doc;
pub mod notation;
pub mod procedure;
pub mod rules;

use crate::engine::{BoardError, GameEngine, RuleUse, Ruling};

pub use doc::{Board, parse_board};
pub use procedure::adjudicate;

/// The Ashes Reborn engine.
pub struct Ashes;

/// The registered instance.
pub const ENGINE: crate::engine::legacy::Legacy<Ashes> = crate::engine::legacy::Legacy(Ashes);

impl crate::engine::legacy::Old for Ashes {
    fn game(&self) -> &'static str {
        "ashes"
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        rules::RULE_USES
    }

    fn schema(&self) -> serde_json::Value {
        schema()
    }

    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let board = parse_board(document)?;
        adjudicate(&board)
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

/// JSON Schema of an Ashes Reborn board document.
pub fn schema() -> serde_json::Value {
    use serde_json::json;
    let name = json!({"type": "string", "minLength": 1});
    let count = json!({"type": "integer", "minimum": 0, "maximum": doc::MAX_VALUE});
    let names = json!({"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": doc::MAX_UNITS});
    let players = json!({
        "type": "array", "minItems": 1, "maxItems": doc::MAX_PLAYERS,
        "items": {
            "type": "object", "additionalProperties": false,
            "required": ["name", "phoenixborn"],
            "properties": {
                "name": name,
                "phoenixborn": {
                    "type": "object", "additionalProperties": false,
                    "required": ["name", "life"],
                    "properties": {
                        "name": name,
                        "life": {"type": "integer", "minimum": 1, "maximum": doc::MAX_VALUE},
                        "damage": count,
                        "exhausted": {"type": "boolean", "default": false}
                    }
                },
                "units": {
                    "type": "array", "maxItems": doc::MAX_UNITS,
                    "items": {
                        "type": "object", "additionalProperties": false,
                        "required": ["name", "attack", "life"],
                        "properties": {
                            "name": name,
                            "attack": count,
                            "life": {"type": "integer", "minimum": 1, "maximum": doc::MAX_VALUE},
                            "damage": count,
                            "exhausted": {"type": "boolean", "default": false},
                            "abilities": {
                                "type": "array",
                                "items": {"anyOf": [{"enum": ["Unit Guard"]}, {"type": "string"}]},
                                "description": "Abilities that matter to the rules, such as `Unit Guard`."
                            }
                        }
                    }
                }
            }
        }
    });
    let play = json!({
        "type": "object", "additionalProperties": false,
        "required": ["action"],
        "properties": {
            "action": {"enum": ["attack-phoenixborn", "attack-unit", "pass", "pay-cost"]},
            "player": {"type": "string", "description": "The acting player; defaults to whose turn it is, else the first player."},
            "attackers": names,
            "target": {"type": "string", "description": "attack-phoenixborn: the Phoenixborn (or its player); attack-unit: the unit attacked."},
            "blocks": {
                "type": "array", "maxItems": doc::MAX_UNITS,
                "description": "attack-phoenixborn: one entry per blocked attacker.",
                "items": {
                    "type": "object", "additionalProperties": false,
                    "required": ["attacker", "blocker"],
                    "properties": {
                        "attacker": {"type": "string"},
                        "blocker": {"type": "string"},
                        "counter": {"type": "boolean", "default": false}
                    }
                }
            },
            "order": {"type": "array", "items": {"type": "string"}, "description": "attack-phoenixborn: order in which the attackers resolve; defaults to the declared order."},
            "guard": {
                "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
                "description": "attack-unit: `phoenixborn` (or its name) or a unit with Unit Guard."
            },
            "counter": {"type": "boolean", "description": "attack-unit: whether the final target unit counters."},
            "split": {
                "type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": doc::MAX_VALUE},
                "description": "attack-unit with a counter against several attackers: the countering unit's damage per attacker."
            },
            "card": {"type": "string", "description": "pay-cost: the card played or activated."},
            "main_action": {"type": "boolean", "description": "pay-cost: whether the cost includes the main-action symbol."}
        },
        "allOf": [
            {"if": {"properties": {"action": {"const": "attack-phoenixborn"}}}, "then": {"required": ["attackers"], "properties": {"guard": false, "counter": false, "split": false, "card": false, "main_action": false}}},
            {"if": {"properties": {"action": {"const": "attack-unit"}}}, "then": {"required": ["attackers", "target"], "properties": {"blocks": false, "order": false, "card": false, "main_action": false}}},
            {"if": {"properties": {"action": {"const": "pay-cost"}}}, "then": {"required": ["card", "main_action"], "properties": {"attackers": false, "target": false, "blocks": false, "order": false, "guard": false, "counter": false, "split": false}}},
            {"if": {"properties": {"action": {"const": "pass"}}}, "then": {"properties": {"attackers": false, "target": false, "blocks": false, "order": false, "guard": false, "counter": false, "split": false, "card": false, "main_action": false}}}
        ]
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://arbiter.invalid/schema/ashes.json",
        "title": "Ashes Reborn board document",
        "description": "Players, their Phoenixborn and units, and optionally the play in dispute. Names, not ids; omitted damage is 0 and omitted exhausted is false.",
        "type": "object",
        "additionalProperties": false,
        "required": ["game", "players"],
        "properties": {
            "game": {"const": "ashes", "description": "Always `ashes`."},
            "turn": {"type": "string", "description": "Whose turn it is (a player name). Defaults to the acting player."},
            "main_action_used": {"type": "boolean", "default": false, "description": "The player whose turn it is has already used this turn's main action."},
            "consecutive_passes": {
                "type": "array", "items": {"type": "string"}, "maxItems": 64,
                "description": "Players who passed on the most recent consecutive turns, oldest first (cleared by any other main action)."
            },
            "phase": {"enum": ["player-turns", "recovery"], "default": "player-turns"},
            "players": players,
            "play": play
        }
    })
}
