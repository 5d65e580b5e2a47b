//! Rule ids this engine cites, with the verbatim fragment each use relies on.

use crate::RuleUse;

pub const GR1: &str = "grand-archive:general-rules.1";
pub const GR2: &str = "grand-archive:general-rules.2";
pub const GR3: &str = "grand-archive:general-rules.3";
pub const GR4: &str = "grand-archive:general-rules.4";
pub const GR5: &str = "grand-archive:general-rules.5";
pub const D1: &str = "grand-archive:declaring-an-attack.1";
pub const D1_1: &str = "grand-archive:declaring-an-attack.1.1";
pub const D1_2: &str = "grand-archive:declaring-an-attack.1.2";
pub const D1_3: &str = "grand-archive:declaring-an-attack.1.3";
pub const D1_4: &str = "grand-archive:declaring-an-attack.1.4";
pub const EX1: &str = "grand-archive:declaring-an-attack.example-1";
pub const D2: &str = "grand-archive:declaring-an-attack.2";
pub const D2_1: &str = "grand-archive:declaring-an-attack.2.1";
pub const D2_1_1: &str = "grand-archive:declaring-an-attack.2.1.1";
pub const D2_1_1_1: &str = "grand-archive:declaring-an-attack.2.1.1.1";
pub const D2_2: &str = "grand-archive:declaring-an-attack.2.2";
pub const D2_2_1: &str = "grand-archive:declaring-an-attack.2.2.1";
pub const D2_3: &str = "grand-archive:declaring-an-attack.2.3";
pub const D2_3_1: &str = "grand-archive:declaring-an-attack.2.3.1";
pub const D2_4: &str = "grand-archive:declaring-an-attack.2.4";
pub const D2_5: &str = "grand-archive:declaring-an-attack.2.5";
pub const D2_5_1: &str = "grand-archive:declaring-an-attack.2.5.1";
pub const D2_5_1_1: &str = "grand-archive:declaring-an-attack.2.5.1.1";
pub const D2_5_1_2: &str = "grand-archive:declaring-an-attack.2.5.1.2";
pub const D2_5_1_3: &str = "grand-archive:declaring-an-attack.2.5.1.3";
pub const EX2: &str = "grand-archive:declaring-an-attack.example-2";

const DECLARE: &str = "declare an attack";
const REVERSE: &str = "declare an attack: reverse an illegal declaration";
const END_MAIN: &str = "end the Main Phase (play or advance)";

pub static RULE_USES: &[RuleUse] = &[
    RuleUse {
        rule: GR1,
        procedure: DECLARE,
        quote: "After an attack declaration, the turn immediately enters the combat phase.",
    },
    RuleUse {
        rule: GR2,
        procedure: DECLARE,
        quote: "Attack declarations cannot be responded to and no player receives Opportunity",
    },
    RuleUse {
        rule: GR3,
        procedure: DECLARE,
        quote: "Attack cards must first resolve and enter a",
    },
    RuleUse {
        rule: GR4,
        procedure: DECLARE,
        quote: "any On Attack triggers are placed onto the Effects Stack",
    },
    RuleUse {
        rule: GR4,
        procedure: "declare an attack: the defending player's response",
        quote: "players will be able to respond at the beginning of the Retaliation Step of combat",
    },
    RuleUse {
        rule: GR5,
        procedure: DECLARE,
        quote: "the combat phase will still proceed through all combat steps and sub-phases",
    },
    RuleUse {
        rule: D1,
        procedure: DECLARE,
        quote: "players must go through a series of steps to enact the attack as fully declared and verified as a legal attack",
    },
    RuleUse {
        rule: D1_1,
        procedure: DECLARE,
        quote: "The steps must be followed in order, but are considered to all happen at the same time.",
    },
    RuleUse {
        rule: D1_2,
        procedure: DECLARE,
        quote: "those triggers will be placed onto the effects stack the next time state-based effects are checked",
    },
    RuleUse {
        rule: D1_3,
        procedure: REVERSE,
        quote: "any steps taken for the attack to be declared are reversed",
    },
    RuleUse {
        rule: D1_4,
        procedure: DECLARE,
        quote: "If the attack is deemed illegal, no further attempts are necessary.",
    },
    RuleUse {
        rule: D1_4,
        procedure: END_MAIN,
        quote: "that player can't proceed to the End Phase from their Main Phase without attempting to declare an attack with that object",
    },
    RuleUse {
        rule: EX1,
        procedure: DECLARE,
        quote: "during step 2.d., they may opt not to pay the extra 2 reserve",
    },
    RuleUse {
        rule: D2,
        procedure: DECLARE,
        quote: "The following steps must be done in sequence:",
    },
    RuleUse {
        rule: D2_1,
        procedure: DECLARE,
        quote: "A player first selects the object they wish to declare an attack with.",
    },
    RuleUse {
        rule: D2_1_1,
        procedure: DECLARE,
        quote: "The object must be able to attack (either granted permission due to an effect, or, if an ally or champion, must be awake).",
    },
    RuleUse {
        rule: D2_1_1_1,
        procedure: DECLARE,
        quote: "Awake allies and champions that are chosen under 2.a. must be rested as a cost to attack.",
    },
    RuleUse {
        rule: D2_2,
        procedure: DECLARE,
        quote: "any additional weapons or objects they may add to the attack",
    },
    RuleUse {
        rule: D2_2_1,
        procedure: DECLARE,
        quote: "will not receive attacker roles (only the attacking unit/object is treated as an attacker)",
    },
    RuleUse {
        rule: D2_3,
        procedure: DECLARE,
        quote: "the attacking player must choose an attack target (i.e., what becomes the defending unit)",
    },
    RuleUse {
        rule: D2_3_1,
        procedure: DECLARE,
        quote: "the attacking player will instead choose a player whose units will become defending units. The defending units will not be treated as attack targets.",
    },
    RuleUse {
        rule: D2_4,
        procedure: DECLARE,
        quote: "any calculated costs (including additional costs) to declare attacks must be paid during this step",
    },
    RuleUse {
        rule: D2_5,
        procedure: DECLARE,
        quote: "the player must acknowledge and reconcile any restrictions",
    },
    RuleUse {
        rule: D2_5_1,
        procedure: DECLARE,
        quote: "Any extra costs imposed that are not explicitly declared as \"additional costs\" to declare the attack must be paid during this step.",
    },
    RuleUse {
        rule: D2_5_1_1,
        procedure: DECLARE,
        quote: "if a player refuses the pay the cost, the attack will be considered illegal",
    },
    RuleUse {
        rule: D2_5_1_2,
        procedure: DECLARE,
        quote: "such as targeting restrictions via Taunt abilities, must be fulfilled",
    },
    RuleUse {
        rule: D2_5_1_3,
        procedure: REVERSE,
        quote: "all steps taken to attempt to declare the attack are reversed",
    },
    RuleUse {
        rule: D2_5_1_3,
        procedure: REVERSE,
        quote: "The game will resume at the point in time prior to the attack declaration.",
    },
    RuleUse {
        rule: EX2,
        procedure: DECLARE,
        quote: "Bulwark Sword, on the other hand, is an explicit additional cost and must be paid in step 2.c.",
    },
];
