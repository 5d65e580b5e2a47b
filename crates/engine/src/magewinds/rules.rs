//! The rule ids this engine cites, and where.

use crate::RuleUse;

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

const fn used(rule: &'static str, procedure: &'static str, quote: &'static str) -> RuleUse {
    RuleUse {
        rule,
        procedure,
        quote,
    }
}

/// Every rule the Magewinds engine cites, with the procedure and the words it relies on.
pub static RULE_USES: &[RuleUse] = &[
    used(
        PHASE,
        "turn order: first turn (a play, or entering the Action Phase)",
        "The first turn is taken by the player who was first to pass in the Channelling Phase.",
    ),
    used(
        PHASE,
        "turn order: players alternate",
        "players take it in turns to activate their fighters and perform actions with them",
    ),
    used(
        PHASE,
        "activate a fighter",
        "On your turn, choose one of your fighters to activate.",
    ),
    used(
        PHASE,
        "activate a fighter: one action",
        "that fighter may make one action, chosen from the actions that are available to them",
    ),
    used(
        PHASE,
        "action counters: single",
        "give them a single action counter if they do not have an action counter",
    ),
    used(
        PHASE,
        "action counters: double",
        "Give them a double action counter instead if they already have a single action counter.",
    ),
    used(
        PHASE,
        "action counters: double counter blocks actions",
        "A fighter with a double action counter cannot perform actions and cannot be chosen to activate.",
    ),
    used(
        PHASE,
        "turn order: turn ends with no fighter to activate",
        "If you have no fighters remaining that can be activated, your turn ends.",
    ),
    used(
        STEP,
        "step move before the action",
        "When performing an action, a fighter may make a step move of up to 1",
    ),
    used(
        FREE,
        "free actions",
        "When a rule states that an action is free you do not have to place or flip an action counter to use it.",
    ),
    used(
        REACTION,
        "reactions: a reaction is an action",
        "A reaction is an action with the following special properties:",
    ),
    used(
        TRIGGER,
        "reactions: trigger condition",
        "The reaction can only be used when the trigger condition is met",
    ),
    used(
        TRIGGER,
        "reactions: the controlling player chooses (asked in a match)",
        "the controlling player of the fighter to whom the reaction is available may choose to make the reaction",
    ),
    used(
        REACTION_STEP,
        "reactions: step move after the effects",
        "The step move must occur after the effects of the reaction have been resolved, instead of before.",
    ),
    used(
        UNIVERSAL,
        "universal actions",
        "The Move, Attack, and Guard actions are available to all fighters.",
    ),
    used(
        MOVE,
        "Move action: distance",
        "This fighter may move as far as their Movement attribute, in inches.",
    ),
    used(
        MOVE,
        "Move action: starting within 1 inch of an enemy",
        "they may only move as far as their Movement attribute minus 2",
    ),
    used(
        MOVE,
        "Move action: no step move",
        "Do not make a step move as part of this action.",
    ),
    used(
        ATTACK,
        "Attack action: choose an attack",
        "Choose one of the attacks available to this fighter",
    ),
    used(
        ATTACK,
        "Attack action: visible target, not itself",
        "against a visible (16.0) target (excluding themselves)",
    ),
    used(
        GUARD,
        "Guard action: next Dodge or Deflect is free",
        "next Dodge or Deflect reaction (18.4) is free",
    ),
    used(
        GUARD,
        "Guard action: ends at the next activation or the end of the phase",
        "or the end of the Action Phase (whichever comes sooner)",
    ),
    used(
        END,
        "end of the Action Phase (a play, or refusing to advance)",
        "The Action Phase ends when there are no fighters that can be activated.",
    ),
];
