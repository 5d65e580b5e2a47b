//! The rule ids this engine cites, and where.

use crate::RuleUse;

pub const ACT: &str = "legion:actions";
pub const TWO: &str = "legion:actions.1";
pub const SAME: &str = "legion:actions.2";
pub const CARD: &str = "legion:actions.3";
pub const CARD_EACH: &str = "legion:actions.3.1";
pub const FREE_CARD: &str = "legion:actions.4";
pub const FREE_CARD_EACH: &str = "legion:actions.4.1";
pub const REDUCED: &str = "legion:actions.5";
pub const MORE: &str = "legion:actions.6";
pub const TYPED: &str = "legion:actions.7";
pub const UNTYPED: &str = "legion:actions.8";
pub const NOT_ACTION: &str = "legion:actions.9";
pub const TOKEN: &str = "legion:actions.10";

/// The list items of `legion:actions.1`, in the order of [`super::plays::Kind`].
pub const LIST: [&str; 7] = [
    "legion:actions.1.1",
    "legion:actions.1.2",
    "legion:actions.1.3",
    "legion:actions.1.4",
    "legion:actions.1.5",
    "legion:actions.1.6",
    "legion:actions.1.7",
];

const fn use_(rule: &'static str, procedure: &'static str, quote: &'static str) -> RuleUse {
    RuleUse {
        rule,
        procedure,
        quote,
    }
}

/// Every rule the Legion engine cites, with the procedure and the words it relies on.
pub static RULE_USES: &[RuleUse] = &[
    use_(
        ACT,
        "activation phase: units perform actions",
        "During the Activation Phase, each unit can perform actions.",
    ),
    use_(
        TWO,
        "activation: two actions, a third refused",
        "When a unit is activated, it can perform two actions from the following list:",
    ),
    use_(LIST[0], "activation: move action", "Move"),
    use_(LIST[1], "activation: attack action", "Attack"),
    use_(LIST[2], "activation: aim action", "Aim"),
    use_(LIST[3], "activation: dodge action", "Dodge"),
    use_(LIST[4], "activation: standby action", "Standby"),
    use_(LIST[5], "activation: recover action", "Recover"),
    use_(LIST[6], "activation: card action", "Card Action"),
    use_(
        SAME,
        "activation: same action at most once, except move",
        "A unit cannot perform the same action more than once during its activation, except the move action, which can be performed multiple times.",
    ),
    use_(
        CARD,
        "activation: card actions on the unit",
        "that ability is a card action",
    ),
    use_(
        CARD_EACH,
        "activation: each card action is its own action",
        "a unit cannot perform the same card action more than once during its activation",
    ),
    use_(
        FREE_CARD,
        "activation: free card actions do not count",
        "Free card actions do not count against the two actions that a unit can perform during its activation.",
    ),
    use_(
        FREE_CARD_EACH,
        "activation: same free card action at most once",
        "a unit cannot perform the same free card action more than once during its activation",
    ),
    use_(
        REDUCED,
        "activation: actions reduced by suppression and damage",
        "Suppression and damage can reduce the number of actions a unit can perform during its activation.",
    ),
    use_(
        MORE,
        "activation: more than two actions through free actions",
        "Through the use of free actions, a unit can perform more than two actions.",
    ),
    use_(
        TYPED,
        "activation: typed free actions",
        "is considered an action for the purposes of game effects and therefore does not allow a unit to perform the same non-move action more than once during its activation",
    ),
    use_(
        UNTYPED,
        "activation: untyped free actions",
        "If an effect provides a unit with a free action without specifying a type of action, that unit may perform any action that it could normally perform.",
    ),
    use_(
        NOT_ACTION,
        "activation: attacks that are not actions",
        "It is not an action and therefore does not count against that unit’s two actions per activation and does not trigger abilities that occur after actions are performed.",
    ),
    use_(
        TOKEN,
        "activation: tokens gained from effects",
        "that effect is different than performing an aim, dodge, or standby action and therefore does not trigger abilities or effects that occur after aim, dodge, or standby actions are performed.",
    ),
];
