//! The plays of "03 - Main Actions", one variant per main action. Fields
//! that do not belong to an action are unknown fields (did-you-mean).
//! A choice that belongs to the defending player (blockers, a guard, a
//! counter, a damage split) may be left out: it is then asked of them (in a
//! match) or taken at the rule's default and labelled (a judged board).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::{Said, empty};
use crate::document::{Refused, refuse};
use crate::kit::bounded::List;

/// Attackers, or their order: at most a battlefield's worth.
pub type Units = List<Said, 0, 64>;

/// One play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Play {
    /// Attack a Phoenixborn with 1 or more of your units.
    #[serde(
        alias = "attack phoenixborn",
        alias = "attack_phoenixborn",
        alias = "attack-pb"
    )]
    AttackPhoenixborn {
        /// The acting player; defaults to whose turn it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Said>,
        #[serde(default)]
        attackers: Units,
        /// The Phoenixborn (or its player); optional with one opponent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Said>,
        /// The defending player's blockers, one entry per attacker decided
        /// (`blocker` left out: that attacker is not blocked). Attackers
        /// without an entry are undecided.
        #[serde(default, skip_serializing_if = "empty")]
        blocks: List<Block, 0, 64>,
        /// Order in which the attackers resolve; default: as declared.
        #[serde(default, skip_serializing_if = "empty")]
        order: Units,
    },
    /// Attack a target unit with 1 or more of your units.
    #[serde(alias = "attack unit", alias = "attack_unit")]
    AttackUnit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Said>,
        #[serde(default)]
        attackers: Units,
        /// The unit attacked.
        target: Said,
        /// `phoenixborn` (or its name), a unit with Unit Guard, or `none`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<OneOrMany>,
        /// Whether the final target unit counters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter: Option<bool>,
        /// A countering unit's damage per attacker (several attackers).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        split: BTreeMap<Said, u32>,
    },
    /// Pass: the main action is to do nothing.
    Pass {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Said>,
    },
    /// Pay a cost: play or activate a card.
    #[serde(
        alias = "pay a cost",
        alias = "pay-a-cost",
        alias = "pay cost",
        alias = "pay_cost",
        alias = "pay"
    )]
    PayCost {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Said>,
        /// The card played or activated.
        card: Said,
        /// Whether the cost includes the main-action symbol.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        main_action: Option<bool>,
    },
}

/// A blocker placed in front of one attacker, or none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub attacker: Said,
    /// The blocking unit; left out: this attacker is not blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocker: Option<Said>,
    /// Whether the blocker counters; left out: not decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<bool>,
}

/// One name or a list of names.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(Said),
    Many(Units),
}

/// Read as plain text first, then bounded: a name past its limit says so
/// (with its path), not "did not match any variant".
impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        // Named as the type, for serde's "did not match any variant" message.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum OneOrMany {
            One(String),
            Many(Vec<String>),
        }
        let said = |n: String| {
            Said::new(n.clone()).map_err(|why| D::Error::custom(refuse(Refused::Text(n), why)))
        };
        Ok(match OneOrMany::deserialize(d)? {
            OneOrMany::One(n) => Self::One(said(n)?),
            OneOrMany::Many(v) => {
                let n = v.len();
                let names = v.into_iter().map(said).collect::<Result<Vec<_>, _>>()?;
                let list = Units::new(names)
                    .map_err(|why| D::Error::custom(refuse(Refused::Entries(n), why)))?;
                Self::Many(list)
            }
        })
    }
}

impl OneOrMany {
    pub fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(Said::as_str).collect(),
        }
    }
}

impl Play {
    /// The player the play names, if any.
    pub fn player(&self) -> Option<&str> {
        match self {
            Play::AttackPhoenixborn { player, .. }
            | Play::AttackUnit { player, .. }
            | Play::Pass { player }
            | Play::PayCost { player, .. } => player.as_ref().map(Said::as_str),
        }
    }

    /// Whether the play is a main action (pay-cost only with the symbol).
    pub fn uses_main_action(&self) -> bool {
        !matches!(
            self,
            Play::PayCost {
                main_action: Some(false),
                ..
            }
        )
    }
}
