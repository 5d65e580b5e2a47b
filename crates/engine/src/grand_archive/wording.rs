//! Wording that is not a step of the procedure: the readings the engine
//! takes where the indexed text is silent, the notes where the seed's
//! examples and its numbered steps differ, and the warning for card text the
//! engine keeps but does not apply. Built from typed values, so the
//! procedure says what happened and this module says how it reads.

use std::fmt;

use super::rules::{EX1, EX2};

/// The defaults of the attacking player's and defending player's choices.
pub const MAY_ADD: &str = "the attacking player 'may choose, if able, any additional weapons or objects': none unless some are added";
pub const MAY_RESPOND: &str = "players 'will be able to respond': no response unless one is made";
/// Readings where the indexed text is silent.
pub const TAUNT: &str = "Taunt is read as: while the defending player controls units with Taunt, an attack on that player's units must target one of them (the indexed text names Taunt only as a targeting restriction; the alternative, that Taunt binds only the attacks its card text names, needs the card text)";
pub const NO_TARGET: &str = "a Cleave attack chooses a player, not a target (2.3.1), so a targeting restriction is read as having nothing to constrain";

/// Where a seed example places a cost at another step than the numbered
/// rules: the example, and the note on the cost.
pub const EX1_NOTE: (&str, &str) = (
    EX1,
    "the seed's Example 1 places the choice to pay this extra cost in step 2.d, but numbered rule 2.5.1 puts extra costs that are not \"additional costs\" in step 2.e; the engine follows the numbered steps (the attack is legal or illegal the same way)",
);
pub const EX2_NOTE: (&str, &str) = (
    EX2,
    "the seed's Example 2 says this additional cost is paid in step 2.c, but numbered step 2.d (rule 2.4) pays calculated costs, including additional costs; the engine follows the numbered steps (the amount paid is the same either way)",
);

/// Card text kept on the board but not applied: (whose, the text).
#[derive(Debug, Clone, Copy)]
pub enum NotApplied<'a> {
    /// A keyword other than Cleave and Taunt: (card, keyword).
    Keyword(&'a str, &'a str),
    /// A state-based trigger of the rested attacker: (card, trigger).
    Trigger(&'a str, &'a str),
    /// An On Attack ability: (card, ability).
    OnAttack(&'a str, &'a str),
    /// The defending player's response: (player, response).
    Response(&'a str, &'a str),
}

impl fmt::Display for NotApplied<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const OUTSIDE: &str = "what it does is outside the indexed text";
        let (whose, what, text, why) = match *self {
            NotApplied::Keyword(c, t) => {
                (c, "keyword", t, "the engine executes Cleave and Taunt only")
            }
            NotApplied::Trigger(c, t) => (c, "trigger", t, OUTSIDE),
            NotApplied::OnAttack(c, t) => (c, "On Attack ability", t, OUTSIDE),
            NotApplied::Response(p, t) => (
                p,
                "response",
                t,
                "recorded on the Effects Stack; what it does is outside the indexed text",
            ),
        };
        write!(
            f,
            "card text not applied: {whose}'s {what} '{text}' ({why})"
        )
    }
}
