//! The plays of the action phase, one variant per kind (`type`). Fields that
//! do not belong to a kind are unknown fields (did-you-mean). Every play is
//! made by its `player`; the one choice that belongs to another player, the
//! other party's agreement to a transaction, may be left out: it is then
//! asked of them (in a match) or read as declined and labelled (a judged
//! board).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Play {
    /// The strategic action of one of the player's own strategy cards.
    #[serde(alias = "strategic", alias = "strategy")]
    StrategicAction {
        player: String,
        /// The strategy card; may be left out when the player has one readied.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// A tactical action.
    #[serde(alias = "tactical")]
    TacticalAction {
        player: String,
        /// The system activated (free text).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        system: Option<String>,
    },
    /// A component action.
    #[serde(alias = "component")]
    ComponentAction {
        player: String,
        /// What the component action comes from (free text).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// Passing.
    Pass {
        player: String,
        /// The player states they cannot perform an action (rule 2).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cannot_act: bool,
    },
    /// An action card.
    #[serde(alias = "play_action_card")]
    ActionCard {
        player: String,
        card: String,
        /// Whether the card is a component action (left out: read as not).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<bool>,
    },
    /// A transaction between two players.
    #[serde(alias = "trade")]
    Transaction {
        player: String,
        /// The other party.
        with: String,
        /// The other party's answer: theirs to give.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accepted: Option<bool>,
    },
    /// The secondary ability of another player's strategy card.
    #[serde(alias = "secondary_ability")]
    Secondary { player: String, card: String },
    /// An "at the start of your turn" ability.
    StartOfTurn { player: String, ability: String },
    /// An ability at the end of an action.
    EndOfAction { player: String, ability: String },
    /// An "at the end of your turn" ability.
    EndOfTurn { player: String, ability: String },
    /// The player whose turn it is ends it.
    EndTurn { player: String },
}

/// Every field a play may have: each kind's fields are all read by its
/// procedure (a field of another kind is refused as unknown).
pub const FIELDS: &[&str] = &[
    "type",
    "player",
    "card",
    "system",
    "source",
    "cannot_act",
    "component",
    "with",
    "accepted",
    "ability",
];

impl Play {
    /// Who makes the play, as typed.
    pub fn player(&self) -> &str {
        match self {
            Play::StrategicAction { player, .. }
            | Play::TacticalAction { player, .. }
            | Play::ComponentAction { player, .. }
            | Play::Pass { player, .. }
            | Play::ActionCard { player, .. }
            | Play::Transaction { player, .. }
            | Play::Secondary { player, .. }
            | Play::StartOfTurn { player, .. }
            | Play::EndOfAction { player, .. }
            | Play::EndOfTurn { player, .. }
            | Play::EndTurn { player } => player,
        }
    }
}
