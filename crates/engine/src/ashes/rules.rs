//! The rule ids this engine cites, and where.

use crate::RuleUse;

pub const PAY: &str = "ashes:pay-a-cost";
pub const PB: &str = "ashes:attack-a-phoenixborn";
pub const PB1: &str = "ashes:attack-a-phoenixborn.1";
pub const PB2: &str = "ashes:attack-a-phoenixborn.2";
pub const PB3: &str = "ashes:attack-a-phoenixborn.3";
pub const PB4: &str = "ashes:attack-a-phoenixborn.4";
pub const PB41: &str = "ashes:attack-a-phoenixborn.4.1";
pub const PB42: &str = "ashes:attack-a-phoenixborn.4.2";
pub const AU: &str = "ashes:attack-a-unit";
pub const AU1: &str = "ashes:attack-a-unit.1";
pub const AU2: &str = "ashes:attack-a-unit.2";
pub const AU3: &str = "ashes:attack-a-unit.3";
pub const AU4: &str = "ashes:attack-a-unit.4";
pub const AU41: &str = "ashes:attack-a-unit.4.1";
pub const AU42: &str = "ashes:attack-a-unit.4.2";
pub const PASS: &str = "ashes:pass";

/// Every rule the Ashes engine cites, with the procedure and the words it relies on.
pub static RULE_USES: &[RuleUse] = &[
    RuleUse {
        rule: PAY,
        procedure: "pay a cost",
        quote: "it takes up your main action for the turn",
    },
    RuleUse {
        rule: PAY,
        procedure: "every main action: one main action per turn",
        quote: "your main action for the turn",
    },
    RuleUse {
        rule: PB,
        procedure: "attack a phoenixborn",
        quote: "Attack a target Phoenixborn with 1 or more of your units.",
    },
    RuleUse {
        rule: PB1,
        procedure: "attack a phoenixborn: declare attackers",
        quote: "choose any number of your unexhausted units to attack with",
    },
    RuleUse {
        rule: PB2,
        procedure: "attack a phoenixborn: choose target",
        quote: "Choose an opponent’s Phoenixborn to attack. All of your attacking units will attack this targeted Phoenixborn.",
    },
    RuleUse {
        rule: PB3,
        procedure: "attack a phoenixborn: declare blockers",
        quote: "the defending player places 1 of her unexhausted units in front of an attacking unit",
    },
    RuleUse {
        rule: PB3,
        procedure: "attack a phoenixborn: declare blockers",
        quote: "Each attacking unit cannot be blocked by more than 1 unit.",
    },
    RuleUse {
        rule: PB4,
        procedure: "attack a phoenixborn: resolve damage",
        quote: "One at a time, in an order of your choosing, resolve each attacking unit’s damage.",
    },
    RuleUse {
        rule: PB4,
        procedure: "attack a phoenixborn: resolve damage (unblocked)",
        quote: "If the attacking unit is unblocked, deal an amount of damage equal to its attack value on the defending player’s Phoenixborn. Then place 1 exhaustion token on the attacking unit.",
    },
    RuleUse {
        rule: PB4,
        procedure: "attack a phoenixborn: resolve damage (counter choice)",
        quote: "If the attacking unit is blocked, the defending player may now choose to counter with his blocking unit.",
    },
    RuleUse {
        rule: PB41,
        procedure: "attack a phoenixborn: blocked, no counter",
        quote: "the attacking unit will deal damage equal to its attack value to the blocking unit. Then place 1 exhaustion token on the attacking unit. The blocking unit does not become exhausted if it did not counter.",
    },
    RuleUse {
        rule: PB42,
        procedure: "attack a phoenixborn: blocked, counter (battle)",
        quote: "Units in battle will simultaneously deal an amount of damage equal to their attack values on each other. Then place 1 exhaustion token on each unit involved in that battle that was not destroyed.",
    },
    RuleUse {
        rule: AU,
        procedure: "attack a unit",
        quote: "Attack a target unit with 1 or more of your units.",
    },
    RuleUse {
        rule: AU1,
        procedure: "attack a unit: declare attackers",
        quote: "Declare which of your units are attacking",
    },
    RuleUse {
        rule: AU2,
        procedure: "attack a unit: choose target",
        quote: "Choose a single unit to target on an opponent’s battlefield. All of your attacking units will attack the targeted unit.",
    },
    RuleUse {
        rule: AU3,
        procedure: "attack a unit: declare a guard",
        quote: "The defending player may choose to have her Phoenixborn guard the unit being targeted",
    },
    RuleUse {
        rule: AU3,
        procedure: "attack a unit: declare a guard (exhausted Phoenixborn)",
        quote: "A Phoenixborn can guard even if it is exhausted.",
    },
    RuleUse {
        rule: AU3,
        procedure: "attack a unit: declare a guard (Unit Guard)",
        quote: "An unexhausted unit the defending player controls with the ‘Unit Guard’ ability can be declared as a guard in the same way.",
    },
    RuleUse {
        rule: AU3,
        procedure: "attack a unit: declare a guard (one guard)",
        quote: "Only a single unit can be declared as a guard for any given attack.",
    },
    RuleUse {
        rule: AU4,
        procedure: "attack a unit: resolve damage (Phoenixborn target)",
        quote: "If the final target of the attack is a Phoenixborn, total each attacking unit’s attack values and deal that amount of damage to the target Phoenixborn. Then place 1 exhaustion token on each attacking unit.",
    },
    RuleUse {
        rule: AU4,
        procedure: "attack a unit: resolve damage (counter choice)",
        quote: "If the final target of the attack is a unit and that unit is unexhausted the defending player may now choose to counter with that unit.",
    },
    RuleUse {
        rule: AU41,
        procedure: "attack a unit: no counter",
        quote: "total each of the attacking unit’s attack values and deal that amount of damage on the target unit. Then place 1 exhaustion token on each attacking unit. The target unit does not get an exhaustion token if it did not counter.",
    },
    RuleUse {
        rule: AU42,
        procedure: "attack a unit: counter (battle)",
        quote: "Simultaneously the defending player’s countering unit will deal an amount of damage equal to its attack value to the attacking units.",
    },
    RuleUse {
        rule: AU42,
        procedure: "attack a unit: counter (damage split)",
        quote: "the defending player may choose how to split up her unit’s damage among the attacking units.",
    },
    RuleUse {
        rule: AU42,
        procedure: "attack a unit: counter (exhaustion)",
        quote: "Then place 1 exhaustion token on each unit involved in that battle that was not destroyed.",
    },
    RuleUse {
        rule: PASS,
        procedure: "pass: passing is the turn's main action",
        quote: "you must choose to pass as your main action",
    },
    RuleUse {
        rule: PASS,
        procedure: "pass (optional)",
        quote: "You may also choose to pass even if there are other main actions you could perform.",
    },
    RuleUse {
        rule: PASS,
        procedure: "pass (forced)",
        quote: "If you cannot take any other main action, you must choose to pass as your main action.",
    },
    RuleUse {
        rule: PASS,
        procedure: "pass: end of the player turns phase",
        quote: "If all players pass on consecutive turns, the player turns phase ends and players move on to the recovery phase of the round.",
    },
    RuleUse {
        rule: PASS,
        procedure: "pass: acting again after passing",
        quote: "the player who passed may pass again or take any other main action (if able) on her next turn.",
    },
];
