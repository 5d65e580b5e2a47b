//! The plays: declaring an attack (steps 2.a–2.e) and leaving the Main
//! Phase (1.4). Choices left out are asked of the player they belong to,
//! or taken at the rules' default and labelled.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Play {
    /// Declare an attack.
    #[serde(alias = "declare_attack", alias = "attack")]
    DeclareAttack {
        /// The declaring player; defaults to the turn player.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// 2.a: the object that attacks.
        attacker: String,
        /// 2.b: weapons or objects added to the attack; left out: none (labelled).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<Vec<String>>,
        /// 2.c: the attack target (an opposing champion or ally); left out: asked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// 2.c with Cleave: the player whose units become defending units.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        defending_player: Option<String>,
        /// 2.e: extra costs (by source) the player pays.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay_extra: Vec<String>,
        /// 2.e: extra costs the player refuses (the attack is then illegal).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        refuse_extra: Vec<String>,
        /// The defending player's answer at the beginning of the Retaliation
        /// Step: `pass`, or what they respond with (its text is not applied).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        response: Option<String>,
    },
    /// Proceed from the Main Phase to the End Phase.
    #[serde(alias = "end_main_phase")]
    EndMainPhase {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
    },
}

impl Play {
    /// The player the play names, if any.
    pub fn player(&self) -> Option<&str> {
        match self {
            Play::DeclareAttack { player, .. } | Play::EndMainPhase { player } => player.as_deref(),
        }
    }
}

/// Whether a stated response is a pass.
pub fn passes(response: &str) -> bool {
    matches!(
        crate::text::fold(response).as_str(),
        "pass" | "passes" | "no" | "none" | "noresponse"
    )
}
