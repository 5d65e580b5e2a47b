//! The plays of the Action Phase: an activation (`activate: FIGHTER` with
//! its action) or a reaction (`react: REACTION` with `fighter: FIGHTER`).
//! The key that names the fighter says which kind of play it is.

use schemars::JsonSchema;
use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::board::{Fighter, Pos, is_false};
use super::wording::{BOTH_KINDS, NO_KIND};
use crate::kit::bounded::List;
use crate::text::fold;

/// One play.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Play {
    /// Activate one of your fighters: it makes one action.
    Activate(Activation),
    /// A reaction, when its trigger condition is met (not only on your turn).
    React(Reaction),
}

/// Activate a fighter on its controller's turn; it makes one action.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Activation {
    /// The fighter activated.
    pub activate: String,
    /// The player making the play; defaults to the fighter's controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// `move`, `attack`, `guard`, or another action the fighter has
    /// (inferred from `target`/`attack` or `distance`/`to` when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Move: inches moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// Move: destination `[x, y]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Pos>,
    /// Attack: the target fighter (visible, not the attacker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Attack: which of the fighter's `attacks` (asked when it has several).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
    /// Step move, up to 1 inch, before the action's effects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// Step move destination `[x, y]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_to: Option<Pos>,
    /// A rule (card, ability) states this action is free.
    #[serde(default, skip_serializing_if = "is_false")]
    pub free: bool,
    /// Attack: who the attacker sees at the moment of the attack (16.0 is not indexed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<Vec<String>>,
    /// Reactions made during this action, each its controller's choice. Left
    /// out: the attacked fighter's controller is asked (in a match) or "no
    /// reaction" is assumed and labelled; `[]`: no reaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reactions: Option<List<Reaction, 0, 16>>,
}

/// Whether an attacker sees its target, as the engine reads it (16.0,
/// visibility, is not indexed: a `visible` list says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// The list read names the target.
    Seen,
    /// The list read does not name it: the attack is refused.
    Unseen,
    /// Neither the play nor the board gives the attacker a list: the
    /// target is taken to be visible, an assumption the ruling labels.
    Assumed,
}

/// Whose `visible` list an attack is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SightList {
    /// The play's `visible`.
    Play,
    /// The attacker's `visible` on the board.
    Board,
}

impl Activation {
    /// The `visible` list the engine reads for this activation's
    /// `attacker`: the play's, else the board's; `None` when neither gives
    /// one. The procedure judges by it and the picture draws by it, so the
    /// picture's "visible" is the ruling's (an outside judge's attack,
    /// ruled visible by assumption, was drawn as "not visible").
    pub fn sight_list<'a>(&'a self, attacker: &'a Fighter) -> Option<(&'a [String], SightList)> {
        match (&self.visible, &attacker.visible) {
            (Some(list), _) => Some((list, SightList::Play)),
            (None, Some(list)) => Some((list, SightList::Board)),
            (None, None) => None,
        }
    }

    /// Whether `attacker` sees the fighter named `target` for this attack.
    pub fn sees(&self, attacker: &Fighter, target: &str) -> Sight {
        match self.sight_list(attacker) {
            None => Sight::Assumed,
            Some((list, _)) if list.iter().any(|v| fold(v) == fold(target)) => Sight::Seen,
            Some(_) => Sight::Unseen,
        }
    }
}

/// A reaction (13.3).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    /// The reaction made (one of the fighter's `reactions`).
    pub react: String,
    /// The fighter making it.
    pub fighter: String,
    /// The player making it; defaults to the fighter's controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Step move, up to 1 inch, after the reaction's effects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_to: Option<Pos>,
    /// A rule (card, ability) states this reaction is free.
    #[serde(default, skip_serializing_if = "is_false")]
    pub free: bool,
    /// The players agree the trigger condition was met (for triggers the
    /// engine cannot check from the board).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_met: Option<bool>,
}

/// The key naming the fighter decides the kind of play, so that a mistake
/// inside one kind is reported as such (not as "matches no kind"); the
/// kit's reader says where in the play it is (`kit::fields::wrong_kind`,
/// `missing_field`, `unknown_field`).
impl<'de> Deserialize<'de> for Play {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Play, D::Error> {
        let v = Value::deserialize(d)?;
        let read = match (v.get("activate").is_some(), v.get("react").is_some()) {
            (true, false) => Activation::deserialize(&v).map(Play::Activate),
            (false, true) => Reaction::deserialize(&v).map(Play::React),
            (true, true) => return Err(D::Error::custom(BOTH_KINDS)),
            (false, false) => return Err(D::Error::custom(NO_KIND)),
        };
        read.map_err(D::Error::custom)
    }
}

/// Every field of either kind of play: the procedure reads them all (a
/// field of the other kind is refused when the play is read).
pub const READS: &[&str] = &[
    "activate",
    "react",
    "fighter",
    "player",
    "action",
    "distance",
    "to",
    "target",
    "attack",
    "step",
    "step_to",
    "free",
    "visible",
    "reactions",
    "trigger_met",
];
