//! The plays of "03 - Main Actions", one variant per main action. Fields
//! that do not belong to an action are unknown fields (did-you-mean).
//! A choice that belongs to the defending player (blockers, a guard, a
//! counter, a damage split) may be left out: it is then asked of them (in a
//! match) or taken at the rule's default and labelled (a judged board).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
        player: Option<String>,
        #[serde(default)]
        #[schemars(length(max = 64))]
        attackers: Vec<String>,
        /// The Phoenixborn (or its player); optional with one opponent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// The defending player's blockers, one entry per attacker decided
        /// (`blocker` left out: that attacker is not blocked). Attackers
        /// without an entry are undecided.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[schemars(length(max = 64))]
        blocks: Vec<Block>,
        /// Order in which the attackers resolve; default: as declared.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[schemars(length(max = 64))]
        order: Vec<String>,
    },
    /// Attack a target unit with 1 or more of your units.
    #[serde(alias = "attack unit", alias = "attack_unit")]
    AttackUnit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        #[serde(default)]
        #[schemars(length(max = 64))]
        attackers: Vec<String>,
        /// The unit attacked.
        target: String,
        /// `phoenixborn` (or its name), a unit with Unit Guard, or `none`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<OneOrMany>,
        /// Whether the final target unit counters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter: Option<bool>,
        /// A countering unit's damage per attacker (several attackers).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        split: BTreeMap<String, u32>,
    },
    /// Pass: the main action is to do nothing.
    Pass {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
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
        player: Option<String>,
        /// The card played or activated.
        card: String,
        /// Whether the cost includes the main-action symbol.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        main_action: Option<bool>,
    },
}

/// A blocker placed in front of one attacker, or none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub attacker: String,
    /// The blocking unit; left out: this attacker is not blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocker: Option<String>,
    /// Whether the blocker counters; left out: not decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<bool>,
}

/// One name or a list of names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
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
            | Play::PayCost { player, .. } => player.as_deref(),
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

    pub fn name(&self) -> &'static str {
        match self {
            Play::AttackPhoenixborn { .. } => "attack-phoenixborn",
            Play::AttackUnit { .. } => "attack-unit",
            Play::Pass { .. } => "pass",
            Play::PayCost { .. } => "pay-cost",
        }
    }

    /// Every name the play carries, with its field path (written only
    /// when asked for: most plays are checked and the paths never shown).
    pub fn names<'a>(&'a self) -> Vec<(NamePath, &'a str)> {
        let at = |field, index, sub| NamePath { field, index, sub };
        let mut out: Vec<(NamePath, &str)> = Vec::new();
        if let Some(p) = self.player() {
            out.push((at("player", None, ""), p));
        }
        let list = |out: &mut Vec<(NamePath, &'a str)>, field, v: &'a [String]| {
            for (i, n) in v.iter().enumerate() {
                out.push((at(field, Some(i), ""), n));
            }
        };
        match self {
            Play::AttackPhoenixborn {
                attackers,
                target,
                blocks,
                order,
                ..
            } => {
                list(&mut out, "attackers", attackers);
                list(&mut out, "order", order);
                out.extend(target.as_deref().map(|t| (at("target", None, ""), t)));
                for (i, b) in blocks.iter().enumerate() {
                    out.push((at("blocks", Some(i), "attacker"), &b.attacker));
                    out.extend(
                        b.blocker
                            .as_deref()
                            .map(|n| (at("blocks", Some(i), "blocker"), n)),
                    );
                }
            }
            Play::AttackUnit {
                attackers,
                target,
                guard,
                split,
                ..
            } => {
                list(&mut out, "attackers", attackers);
                out.push((at("target", None, ""), target));
                out.extend(
                    guard
                        .iter()
                        .flat_map(|g| g.items())
                        .map(|g| (at("guard", None, ""), g)),
                );
                out.extend(split.keys().map(|k| (at("split", None, ""), k.as_str())));
            }
            Play::PayCost { card, .. } => out.push((at("card", None, ""), card)),
            Play::Pass { .. } => {}
        }
        out
    }
}

/// Where a name sits in a play: `play.<field>[<index>].<sub>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamePath {
    field: &'static str,
    index: Option<usize>,
    sub: &'static str,
}

impl std::fmt::Display for NamePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "play.{}", self.field)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        if !self.sub.is_empty() {
            write!(f, ".{}", self.sub)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::NamePath;

    #[test]
    fn name_paths_are_written_as_fields() {
        let at = |field, index, sub| NamePath { field, index, sub }.to_string();
        assert_eq!(at("player", None, ""), "play.player");
        assert_eq!(at("attackers", Some(2), ""), "play.attackers[2]");
        assert_eq!(at("blocks", Some(0), "blocker"), "play.blocks[0].blocker");
    }
}
