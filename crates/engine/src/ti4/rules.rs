//! Rule ids of the "Action Phase" entry and where the engine cites them.

use crate::RuleUse;

pub const R_INTRO: &str = "ti4:action-phase";
pub const R1: &str = "ti4:action-phase.1";
pub const R2: &str = "ti4:action-phase.2";
pub const R3: &str = "ti4:action-phase.3";
pub const R3_1: &str = "ti4:action-phase.3.1";
pub const R3_2: &str = "ti4:action-phase.3.2";
pub const R3_3: &str = "ti4:action-phase.3.3";
pub const R4: &str = "ti4:action-phase.4";
pub const R4_1: &str = "ti4:action-phase.4.1";
pub const R5: &str = "ti4:action-phase.5";
pub const N1: &str = "ti4:action-phase.notes.1";
pub const N2: &str = "ti4:action-phase.notes.2";
pub const N3: &str = "ti4:action-phase.notes.3";
pub const N4: &str = "ti4:action-phase.notes.4";
pub const RT: &str = "ti4:action-phase.related-topics";

/// The Related Topics of the entry; none of them is indexed in this corpus.
pub const TOPIC_ACTIVE_PLAYER: &str = "Active Player";
pub const TOPIC_COMPONENT_ACTION: &str = "Component Action";
pub const TOPIC_GAME_ROUND: &str = "Game Round";
pub const TOPIC_INITIATIVE_ORDER: &str = "Initiative Order";
pub const TOPIC_STATUS_PHASE: &str = "Status Phase";
pub const TOPIC_STRATEGIC_ACTION: &str = "Strategic Action";
pub const TOPIC_TACTICAL_ACTION: &str = "Tactical Action";

/// Every rule the engine cites, with the procedure and the words it relies on.
pub static RULE_USES: &[RuleUse] = &[
    RuleUse {
        rule: R_INTRO,
        procedure: "turn order: each turn in initiative order, turns begin again, the first turn of the action phase; illegal: acting out of order, passing after acting",
        quote: "During the action phase, each player takes a turn in initiative order. During a player’s turn, they perform a single action. After each player has taken a turn, player turns begin again in initiative order.",
    },
    RuleUse {
        rule: R1,
        procedure: "strategic, tactical or component action; transactions and action cards are not one of them; illegal: a second action in one turn",
        quote: "they may perform one of the following three types of actions: a strategic action, a tactical action, or a component action",
    },
    RuleUse {
        rule: R2,
        procedure: "pass with `cannot_act`; illegal: ending a turn with no action or pass",
        quote: "If a player cannot perform an action, they must pass.",
    },
    RuleUse {
        rule: R3,
        procedure: "pass: no further turns, passed players skipped; illegal: a passed player taking a turn or acting",
        quote: "After a player has passed, they have no further turns and cannot perform additional actions during that action phase.",
    },
    RuleUse {
        rule: R3_1,
        procedure: "transactions (the other party agreeing) and start-of-turn abilities on the turn a player passes",
        quote: "During a turn that a player passes, they can resolve transactions and “at the start of your turn” abilities.",
    },
    RuleUse {
        rule: R3_2,
        procedure: "a passed player resolves another player's secondary ability; illegal: the card's owner",
        quote: "A player that has passed can still resolve the secondary ability of other players’ strategy cards.",
    },
    RuleUse {
        rule: R3_3,
        procedure: "consecutive turns when all other players have passed",
        quote: "It is possible for a player to perform multiple, consecutive actions during an action phase if all other players have passed during that action phase.",
    },
    RuleUse {
        rule: R4,
        procedure: "illegal: passing before the strategic action (five or more players)",
        quote: "A player cannot pass until they have performed the strategic action of their strategy card.",
    },
    RuleUse {
        rule: R4_1,
        procedure: "illegal: passing with a readied card (three or four players)",
        quote: "During a three–player or four–player game, a player cannot pass until they have exhausted both of their strategy cards.",
    },
    RuleUse {
        rule: R5,
        procedure: "the last pass moves play to the status phase; advance refused while players have not passed",
        quote: "After all players have passed, play proceeds to the status phase.",
    },
    RuleUse {
        rule: N1,
        procedure: "action cards after passing; illegal: a passed player's component action card",
        quote: "Players may still play non–component action action cards after they have passed.",
    },
    RuleUse {
        rule: N2,
        procedure: "end-of-action before end-of-turn abilities",
        quote: "Any abilities that occur at the end of an action happen before any abilities that occur at the end of a player’s turn.",
    },
    RuleUse {
        rule: N3,
        procedure: "start/end-of-turn abilities on the turn a player passes",
        quote: "A player may resolve “at the start of your turn” and “at the end of your turn” abilities on the turn that they pass.",
    },
    RuleUse {
        rule: N4,
        procedure: "start/end-of-turn abilities during consecutive turns",
        quote: "If all other players have passed, a player will continue to resolve “at the start of your turn” and “at the end of your turn” abilities.",
    },
    RuleUse {
        rule: RT,
        procedure: "readings on Related Topics that are not indexed (initiative order, strategic, tactical and component actions, status phase, active player, game round)",
        quote: "Active Player",
    },
];
