//! Magewinds: the Action Phase (Core Rules v1.1.1, 13.0–13.5) as an
//! executable procedure.
//!
//! A board lists the players and their fighters (Movement, action counter,
//! position in inches, Guard, attacks, reactions, what each can see), who was
//! first to pass in the Channelling Phase and whose turn it is. The play is an
//! activation (Move, Attack, Guard or another named action, with an optional
//! step move) or a reaction. See `docs/games/magewinds.md`.

mod model;
mod notation;
mod procedure;
mod schema;

pub use model::{Board, Counter, Fighter, Play, Player};
pub use procedure::judge_board;

use crate::engine::{BoardError, RuleUse, Ruling};

/// Rule ids cited by the engine.
pub mod rules {
    pub const PHASE: &str = "magewinds:13.0";
    pub const STEP: &str = "magewinds:13.1";
    pub const FREE: &str = "magewinds:13.2";
    pub const REACTION: &str = "magewinds:13.3";
    pub const TRIGGER: &str = "magewinds:13.3.1";
    pub const REACTION_STEP: &str = "magewinds:13.3.2";
    pub const UNIVERSAL: &str = "magewinds:13.4";
    pub const MOVE: &str = "magewinds:13.4.move-action";
    pub const ATTACK: &str = "magewinds:13.4.attack-action";
    pub const GUARD: &str = "magewinds:13.4.guard-action";
    pub const END: &str = "magewinds:13.5";
}

/// The Magewinds engine.
pub struct Magewinds;

const RULE_USES: &[RuleUse] = &[
    RuleUse {
        rule: rules::PHASE,
        procedure: "turn order: first turn",
        quote: "The first turn is taken by the player who was first to pass in the Channelling Phase.",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "turn order: players alternate",
        quote: "players take it in turns to activate their fighters and perform actions with them",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "activate a fighter",
        quote: "On your turn, choose one of your fighters to activate.",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "activate a fighter: one action",
        quote: "that fighter may make one action, chosen from the actions that are available to them",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "action counters: single",
        quote: "give them a single action counter if they do not have an action counter",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "action counters: double",
        quote: "Give them a double action counter instead if they already have a single action counter.",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "action counters: double counter blocks actions",
        quote: "A fighter with a double action counter cannot perform actions and cannot be chosen to activate.",
    },
    RuleUse {
        rule: rules::PHASE,
        procedure: "turn order: turn ends with no fighter to activate",
        quote: "If you have no fighters remaining that can be activated, your turn ends.",
    },
    RuleUse {
        rule: rules::STEP,
        procedure: "step move before the action",
        quote: "When performing an action, a fighter may make a step move of up to 1",
    },
    RuleUse {
        rule: rules::FREE,
        procedure: "free actions",
        quote: "When a rule states that an action is free you do not have to place or flip an action counter to use it.",
    },
    RuleUse {
        rule: rules::REACTION,
        procedure: "reactions: a reaction is an action",
        quote: "A reaction is an action with the following special properties:",
    },
    RuleUse {
        rule: rules::TRIGGER,
        procedure: "reactions: trigger condition",
        quote: "The reaction can only be used when the trigger condition is met",
    },
    RuleUse {
        rule: rules::TRIGGER,
        procedure: "reactions: controlling player chooses",
        quote: "the controlling player of the fighter to whom the reaction is available may choose to make the reaction",
    },
    RuleUse {
        rule: rules::REACTION_STEP,
        procedure: "reactions: step move after the effects",
        quote: "The step move must occur after the effects of the reaction have been resolved, instead of before.",
    },
    RuleUse {
        rule: rules::UNIVERSAL,
        procedure: "universal actions",
        quote: "The Move, Attack, and Guard actions are available to all fighters.",
    },
    RuleUse {
        rule: rules::MOVE,
        procedure: "Move action: distance",
        quote: "This fighter may move as far as their Movement attribute, in inches.",
    },
    RuleUse {
        rule: rules::MOVE,
        procedure: "Move action: starting within 1 inch of an enemy",
        quote: "they may only move as far as their Movement attribute minus 2",
    },
    RuleUse {
        rule: rules::MOVE,
        procedure: "Move action: no step move",
        quote: "Do not make a step move as part of this action.",
    },
    RuleUse {
        rule: rules::ATTACK,
        procedure: "Attack action: choose an attack",
        quote: "Choose one of the attacks available to this fighter",
    },
    RuleUse {
        rule: rules::ATTACK,
        procedure: "Attack action: visible target, not itself",
        quote: "against a visible (16.0) target (excluding themselves)",
    },
    RuleUse {
        rule: rules::GUARD,
        procedure: "Guard action: next Dodge or Deflect is free",
        quote: "next Dodge or Deflect reaction (18.4) is free",
    },
    RuleUse {
        rule: rules::GUARD,
        procedure: "Guard action: ends at the next activation or the end of the phase",
        quote: "or the end of the Action Phase (whichever comes sooner)",
    },
    RuleUse {
        rule: rules::END,
        procedure: "end of the Action Phase",
        quote: "The Action Phase ends when there are no fighters that can be activated.",
    },
];

pub const ENGINE: crate::engine::legacy::Legacy<Magewinds> =
    crate::engine::legacy::Legacy(Magewinds);

impl crate::engine::legacy::Old for Magewinds {
    fn game(&self) -> &'static str {
        "magewinds"
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        RULE_USES
    }

    fn schema(&self) -> serde_json::Value {
        schema::schema()
    }

    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let board: Board = crate::engine::document::parse(document)?;
        procedure::judge_board(board)
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
