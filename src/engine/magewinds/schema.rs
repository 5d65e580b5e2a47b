//! The JSON Schema of Magewinds board documents (hand-written).

use serde_json::{Value, json};

fn pos(desc: &str) -> Value {
    json!({
        "type": "array",
        "description": desc,
        "items": {"type": "number"},
        "minItems": 2,
        "maxItems": 2
    })
}

fn play(nested: bool) -> Value {
    let mut props = json!({
        "activate": {"type": "string", "description": "The fighter activated (on its controller's turn)."},
        "react": {"type": "string", "description": "The reaction made (one of the fighter's `reactions`), with `fighter`."},
        "fighter": {"type": "string", "description": "The fighter making the reaction."},
        "player": {"type": "string", "description": "The player making the play; defaults to the fighter's controller."},
        "action": {
            "type": "string",
            "description": "The action: move, attack, guard, or the name of another action the fighter has.",
            "examples": ["move", "attack", "guard"]
        },
        "distance": {"type": "number", "minimum": 0, "description": "Move: inches moved."},
        "to": pos("Move: destination [x, y] in inches."),
        "target": {"type": "string", "description": "Attack: the target fighter (visible, not the attacker)."},
        "attack": {"type": "string", "description": "Attack: which of the fighter's `attacks` (optional if it has one)."},
        "step": {"type": "number", "minimum": 0, "description": "Step move, up to 1 inch (before an action's effects; after a reaction's)."},
        "step_to": pos("Step move destination [x, y]."),
        "free": {"type": "boolean", "default": false, "description": "A rule (card, ability) states this action is free: no action counter."},
        "visible": {
            "type": "array", "items": {"type": "string"},
            "description": "Attack: the fighters the attacker can see at the moment of the attack (16.0 is not indexed)."
        },
        "trigger_met": {"type": "boolean", "description": "Reaction: the players agree the trigger condition was met (for triggers the engine cannot check)."}
    });
    if !nested && let Some(map) = props.as_object_mut() {
        map.insert(
            "reactions".into(),
            json!({
                "type": "array",
                "description": "Reactions made during this action (e.g. the target's Dodge), after its effects are declared.",
                "items": {"$ref": "#/$defs/reaction"}
            }),
        );
    }
    json!({"type": "object", "additionalProperties": false, "properties": props})
}

pub fn schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://arbiter.invalid/schema/magewinds.json",
        "title": "Magewinds board (Action Phase)",
        "type": "object",
        "additionalProperties": false,
        "required": ["game", "players"],
        "properties": {
            "game": {"enum": ["magewinds", "Magewinds", "Mage Winds", "MW"], "description": "The game: magewinds."},
            "first_to_pass": {"type": "string", "description": "The player who was first to pass in the Channelling Phase (takes the first turn)."},
            "turn": {"type": "string", "description": "Whose turn it is; leave out for the first turn of the phase."},
            "phase_over": {"type": "boolean", "default": false, "description": "Set by the engine once no fighter can be activated."},
            "last_action": {
                "type": "object",
                "additionalProperties": false,
                "required": ["fighter", "action"],
                "description": "The last action made in an activation (what reactions trigger on). Kept by the engine.",
                "properties": {
                    "fighter": {"type": "string"},
                    "action": {"type": "string"},
                    "target": {"type": "string"}
                }
            },
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": 8,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "fighters": {"type": "array", "maxItems": 40, "items": {"$ref": "#/$defs/fighter"}}
                    }
                }
            },
            "play": {"$ref": "#/$defs/play"},
            "plays": {"type": "array", "maxItems": 200, "items": {"$ref": "#/$defs/play"}}
        },
        "$defs": {
            "fighter": {
                "type": "object",
                "additionalProperties": false,
                "required": ["name", "movement", "position"],
                "properties": {
                    "name": {"type": "string"},
                    "movement": {"type": "number", "minimum": 0, "maximum": 100, "description": "Movement attribute, in inches."},
                    "counter": {"enum": ["none", "single", "double"], "default": "none", "description": "Action counter."},
                    "position": pos("Position on the table [x, y], in inches."),
                    "guard": {"type": "boolean", "default": false, "description": "A Guard action is in effect."},
                    "attacks": {"type": "array", "items": {"type": "string"}},
                    "reactions": {
                        "type": "array",
                        "items": {
                            "anyOf": [
                                {"type": "string"},
                                {
                                    "type": "object",
                                    "additionalProperties": false,
                                    "required": ["name"],
                                    "properties": {
                                        "name": {"type": "string"},
                                        "trigger": {"type": "string", "description": "`attacked` is checked by the engine; other text needs `trigger_met` in the play.", "examples": ["attacked"]}
                                    }
                                }
                            ]
                        }
                    },
                    "actions": {"type": "array", "items": {"type": "string"}, "description": "Other named actions (abilities)."},
                    "visible": {"type": "array", "items": {"type": "string"}, "description": "Fighters this fighter can see (16.0 is not indexed)."}
                }
            },
            "play": play(false),
            "reaction": play(true)
        }
    })
}
