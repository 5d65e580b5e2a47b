//! Hand-written JSON Schema of the Grand Archive board document.

use serde_json::{Value, json};

pub fn schema() -> Value {
    let card = json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": { "type": "string", "minLength": 1, "description": "Card name (unique among its controller's cards)" },
            "kind": { "type": "string", "description": "Objects only: weapon, item, ... (informational)", "examples": ["weapon", "item"] },
            "rested": { "type": "boolean", "default": false, "description": "Rested (true) or awake (false)" },
            "keywords": { "type": "array", "items": { "type": "string", "examples": ["Cleave", "Taunt"] }, "description": "Keywords; Cleave and Taunt are executed" },
            "attack_permission": { "type": "string", "description": "The effect that grants this card permission to attack (even while rested, or as an object)" },
            "on_attack": { "type": "array", "items": { "type": "string" }, "description": "On Attack abilities: each goes onto the Effects Stack when the attack is declared" },
            "when_rested": { "type": "array", "items": { "type": "string" }, "description": "State-based triggers that fire when this card becomes rested" }
        }
    });
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://arbiter.invalid/schema/grand-archive.json",
        "title": "Grand Archive board (attack declaration)",
        "type": "object",
        "additionalProperties": false,
        "required": ["players"],
        "properties": {
            "game": { "type": "string", "const": "grand-archive" },
            "phase": { "enum": ["main", "combat", "end"], "default": "main", "description": "The current phase of the turn" },
            "turn_player": { "type": "string", "description": "The player whose turn it is and who declares (default: the first player)" },
            "players": {
                "type": "array", "minItems": 1, "maxItems": 8,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["name", "champion"],
                    "properties": {
                        "name": { "type": "string", "minLength": 1 },
                        "reserve": { "type": "integer", "minimum": 0, "maximum": 10000, "default": 0, "description": "Reserve available to pay costs" },
                        "champion": { "$ref": "#/$defs/card" },
                        "allies": { "type": "array", "items": { "$ref": "#/$defs/card" } },
                        "objects": { "type": "array", "items": { "$ref": "#/$defs/card" }, "description": "Weapons and other objects that can join an attack" },
                        "intent": { "type": "array", "items": { "type": "string" }, "description": "Attack cards resolved into the champion's intent" },
                        "must_attack": {
                            "type": "array",
                            "description": "Effects that instruct this player to attack with an object",
                            "items": {
                                "type": "object", "additionalProperties": false, "required": ["with"],
                                "properties": {
                                    "with": { "type": "string", "description": "The card that must attack" },
                                    "source": { "type": "string", "description": "The effect imposing the obligation" },
                                    "attempted": { "type": "boolean", "default": false, "description": "An attack with it was attempted this turn" }
                                }
                            }
                        }
                    }
                }
            },
            "costs": {
                "type": "array",
                "description": "Costs to declare attacks imposed by effects in play",
                "items": {
                    "type": "object", "additionalProperties": false, "required": ["source", "kind", "reserve"],
                    "properties": {
                        "source": { "type": "string", "description": "The card imposing the cost", "examples": ["Tariff Ring", "Bulwark Sword"] },
                        "kind": { "enum": ["additional", "extra"], "description": "additional: explicitly an \"additional cost\", paid in step 2.d; extra: any other cost, opted for or refused in step 2.e" },
                        "reserve": { "type": "integer", "minimum": 0, "maximum": 10000 },
                        "controller": { "type": "string", "description": "The player controlling the source" },
                        "applies_to": { "type": "string", "description": "The attacking player it applies to (default: every player)" },
                        "when_attacking_with": { "type": "string", "description": "Applies only when this card is the attacker or joins the attack" }
                    }
                }
            },
            "restrictions": {
                "type": "array",
                "description": "Restrictions on attack declarations imposed by effects in play",
                "items": {
                    "type": "object", "additionalProperties": false, "required": ["source"],
                    "properties": {
                        "source": { "type": "string" },
                        "applies_to": { "type": "string", "description": "The attacking player it binds (default: every player)" },
                        "must_target": { "type": "array", "items": { "type": "string" }, "description": "The attack must target one of these" },
                        "cannot_attack_with": { "type": "array", "items": { "type": "string" }, "description": "These can't attack or join an attack" }
                    }
                }
            },
            "effects_stack": {
                "type": "array",
                "description": "The Effects Stack, bottom first",
                "items": {
                    "type": "object", "additionalProperties": false, "required": ["name"],
                    "properties": {
                        "name": { "type": "string" },
                        "kind": { "enum": ["attack_card", "on_attack", "trigger", "other"], "default": "other" },
                        "controller": { "type": "string" }
                    }
                }
            },
            "pending_triggers": { "type": "array", "items": { "type": "string" }, "description": "Triggers waiting for the next state-based check" },
            "combat": {
                "type": "object", "additionalProperties": false,
                "required": ["attacking_player", "attacker", "defending_player", "defending_units"],
                "description": "The declared attack (written by the engine)",
                "properties": {
                    "attacking_player": { "type": "string" },
                    "attacker": { "type": "string" },
                    "objects": { "type": "array", "items": { "type": "string" } },
                    "target": { "type": "string" },
                    "defending_player": { "type": "string" },
                    "defending_units": { "type": "array", "items": { "type": "string" } }
                }
            },
            "play": {
                "type": "object", "additionalProperties": false,
                "description": "The attempted play: an attack declaration (default) or ending the Main Phase",
                "properties": {
                    "action": { "enum": ["declare_attack", "end_main_phase"], "default": "declare_attack" },
                    "attacker": { "type": "string", "description": "2.a: the card declaring the attack" },
                    "with": { "type": "array", "items": { "type": "string" }, "description": "2.b: weapons or objects added to the attack" },
                    "target": { "type": "string", "description": "2.c: the attack target (an opposing champion or ally)" },
                    "defending_player": { "type": "string", "description": "2.c with Cleave: the player whose units become defending units" },
                    "pay_extra": { "type": "array", "items": { "type": "string" }, "description": "2.e: extra costs (by source) the player agrees to pay; any other applicable extra cost is refused" }
                }
            }
        },
        "$defs": { "card": card }
    })
}
