//! Twilight Imperium 4: the action phase as an executable procedure.
//!
//! The board document lists the players (3 to 8), their strategy cards
//! (initiative number, readied or exhausted), who has passed, whose turn it
//! is and what that turn holds so far; then a `play` or a list of `plays`
//! run in sequence. Every rule of the "Action Phase" entry
//! (`ti4:action-phase…`) is executed and cited. See `docs/games/ti4.md`.

pub mod board;
mod notation;
mod procedure;
pub mod rules;

use serde_json::{Value, json};

use crate::engine::{self, BoardError, Diagnostic, RuleUse, Ruling, Severity};
use board::{Board, Play};
use procedure::{Fail, Sim};

/// The TI4 action-phase engine.
pub struct Ti4;

pub const ENGINE: crate::engine::legacy::Legacy<Ti4> = crate::engine::legacy::Legacy(Ti4);

impl crate::engine::legacy::Old for Ti4 {
    fn game(&self) -> &'static str {
        "ti4"
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        rules::RULE_USES
    }

    fn schema(&self) -> Value {
        schema()
    }

    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let board: Board = engine::document::parse(document)?;
        judge_board(board)
    }

    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError> {
        notation::parse(line, board)
    }

    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String> {
        notation::completions(partial, board)
    }
}

/// Adjudicates an already parsed board document.
pub fn judge_board(mut b: Board) -> Result<Ruling, BoardError> {
    let notes = board::normalize(&mut b)?;
    let (single, plays): (bool, Vec<Play>) = match b.play.take() {
        Some(p) => (true, vec![p]),
        None => (false, std::mem::take(&mut b.plays)),
    };
    let before = serde_json::to_value(&b).map_err(|e| BoardError::semantic("", e.to_string()))?;
    let mut sim = Sim::new(b);
    sim.describe_order();
    if let (Some(note), Some(first)) = (notes.first(), sim.steps.first_mut()) {
        first.assumption = Some(match first.assumption.take() {
            Some(a) => format!("{a} {note}"),
            None => note.clone(),
        });
    }
    let mut legal = true;
    for (i, play) in plays.iter().enumerate() {
        let path = if single {
            "play".to_string()
        } else {
            format!("plays[{i}]")
        };
        match sim.apply(play, &path) {
            Ok(()) => {}
            Err(Fail::Board(e)) => return Err(e),
            Err(Fail::Illegal(d)) => {
                legal = false;
                sim.diagnostics.push(d);
                if !single {
                    sim.diagnostics.push(Diagnostic {
                        severity: Severity::Info,
                        message: format!(
                            "play {} of {} is illegal; the steps of the plays before it are shown, but the board is left as it was before the sequence",
                            i + 1,
                            plays.len()
                        ),
                        rule: None,
                        path: Some(path),
                    });
                }
                break;
            }
        }
    }
    if legal {
        sim.describe_now();
    }
    sim.finish();
    sim.related_topics_note();
    let after = if legal {
        serde_json::to_value(&sim.board).map_err(|e| BoardError::semantic("", e.to_string()))?
    } else {
        before.clone()
    };
    let changes = engine::diff(&before, &after);
    Ok(Ruling {
        pending: None,
        status: None,
        game: "ti4".to_string(),
        legal,
        steps: sim.steps,
        diagnostics: sim.diagnostics,
        state: after,
        changes,
    })
}

fn play_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["type", "player"],
        "properties": {
            "type": {
                "description": "The kind of play.",
                "enum": ["strategic_action", "tactical_action", "component_action", "pass", "action_card", "transaction", "secondary",
                         "start_of_turn", "end_of_action", "end_of_turn", "end_turn",
                         "strategic", "strategy", "tactical", "component", "play_action_card", "trade", "secondary_ability"]
            },
            "player": { "type": "string", "description": "Who makes the play (a player's name; case-insensitive)." },
            "card": { "type": "string", "description": "strategic_action: the strategy card (default: the player's only readied card); secondary: the other player's strategy card; action_card: the action card played." },
            "component": { "type": "boolean", "description": "action_card: true when the card is a component action (default false)." },
            "with": { "type": "string", "description": "transaction: the other player." },
            "ability": { "type": "string", "description": "start_of_turn / end_of_action / end_of_turn: the ability resolved." },
            "system": { "type": "string", "description": "tactical_action: the system activated (free text)." },
            "source": { "type": "string", "description": "component_action: what the component action comes from (free text)." },
            "cannot_act": { "type": "boolean", "description": "pass: the player states they cannot perform an action." }
        }
    })
}

/// JSON Schema of the TI4 action-phase board document.
pub fn schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://arbiter.invalid/schema/ti4.json",
        "title": "Twilight Imperium 4 action-phase board",
        "type": "object",
        "additionalProperties": false,
        "required": ["players"],
        "properties": {
            "game": { "type": "string", "description": "ti4" },
            "round": { "type": "integer", "minimum": 1, "description": "Game round (informational)." },
            "phase": { "enum": ["action", "status"], "default": "action", "description": "`status` once every player has passed." },
            "players": {
                "type": "array",
                "minItems": 3,
                "maxItems": 8,
                "items": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["name", "strategy_cards"],
                    "properties": {
                        "name": { "type": "string", "minLength": 1, "maxLength": 200 },
                        "faction": { "type": "string" },
                        "strategy_cards": {
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 2,
                            "description": "Two cards each in three- and four-player games, one otherwise.",
                            "items": {
                                "type": "object",
                                "additionalProperties": false,
                                "required": ["name"],
                                "properties": {
                                    "name": {
                                        "type": "string",
                                        "description": "Strategy card name.",
                                        "examples": ["Leadership", "Diplomacy", "Politics", "Construction", "Trade", "Warfare", "Technology", "Imperial"]
                                    },
                                    "initiative": { "type": "integer", "minimum": 0, "maximum": 99, "description": "Default: the printed number of a base-game card." },
                                    "exhausted": { "type": "boolean", "default": false, "description": "Exhausted (true) or readied (false)." }
                                }
                            }
                        },
                        "passed": { "type": "boolean", "default": false }
                    }
                }
            },
            "turn": { "type": "string", "description": "Whose turn it is (default: the first player in initiative order who has not passed)." },
            "this_turn": {
                "type": "object",
                "additionalProperties": false,
                "description": "What the player whose turn it is has done so far this turn.",
                "properties": {
                    "action": { "enum": ["none", "strategic", "tactical", "component", "pass"], "default": "none" },
                    "card": { "type": "string", "description": "The strategy card, when `action` is strategic." },
                    "start_of_turn": { "type": "array", "items": { "type": "string" } },
                    "end_of_action": { "type": "array", "items": { "type": "string" } },
                    "end_of_turn": { "type": "array", "items": { "type": "string" } }
                }
            },
            "play": play_schema(),
            "plays": { "type": "array", "maxItems": 500, "items": play_schema() }
        }
    })
}
