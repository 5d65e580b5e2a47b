//! A play is what one unit does, in order: a list of steps. The first may
//! start a unit's activation (`activate`), the last may end it (`end`); in
//! between, each step is exactly one of an action, a free action, a free
//! card action, an attack that is not an action, or a token gained.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::board::Unit;
use crate::engine::BoardError;
use crate::engine::kit::names;

/// Most steps accepted in one play or one activation record.
pub const MAX_STEPS: usize = 64;

/// One play: the steps, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Play {
    #[serde(deserialize_with = "null_as_empty")]
    #[schemars(length(max = 64))]
    pub steps: Vec<Step>,
}

/// One thing a unit does: exactly one of `activate`, `end`, `action`,
/// `free_action`, `free_card_action`, `extra_attack`, `gain`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The unit whose activation starts (first step only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activate: Option<String>,
    /// `true`: the unit's activation ends (last step only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<bool>,
    /// One of the unit's actions: move, attack, aim, dodge, standby, recover, card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// A free action of this type, with its `ability` or `effect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_action: Option<String>,
    /// One of the unit's free card actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_card_action: Option<String>,
    /// `true`: an attack that is not an action, with its `ability` or `effect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_attack: Option<bool>,
    /// A token gained from an effect (aim, dodge, standby), with its `ability` or `effect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gain: Option<String>,
    /// The card action, with `action: card` or `free_action: card`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The unit's ability that grants this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
    /// Another effect (command card, ally) that grants this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// With `free_action` from an `effect`: whether the effect gives a free
    /// action without naming its type. Left out: asked, or assumed typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untyped: Option<bool>,
}

/// Reads a list, taking an empty value (`play:`) as an empty list.
pub fn null_as_empty<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// The action types of `legion:actions.1`, in its order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Move,
    Attack,
    Aim,
    Dodge,
    Standby,
    Recover,
    Card,
}

pub const KINDS: [Kind; 7] = [
    Kind::Move,
    Kind::Attack,
    Kind::Aim,
    Kind::Dodge,
    Kind::Standby,
    Kind::Recover,
    Kind::Card,
];
pub const KIND_NAMES: [&str; 7] = [
    "move", "attack", "aim", "dodge", "standby", "recover", "card",
];
pub const TOKENS: [&str; 3] = ["aim", "dodge", "standby"];

impl Kind {
    pub fn name(self) -> &'static str {
        KIND_NAMES[self as usize]
    }

    /// The list item of `legion:actions.1` naming this action.
    pub fn rule(self) -> &'static str {
        super::rules::LIST[self as usize]
    }

    pub fn is_token(self) -> bool {
        matches!(self, Kind::Aim | Kind::Dodge | Kind::Standby)
    }

    /// `an aim`, `a move`.
    pub fn a(self) -> String {
        let article = if self.name().starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {}", self.name())
    }
}

/// An action type as typed (`Move`, `attack action`); `allowed` limits it
/// (token kinds for `gain`).
pub fn kind(typed: &str, path: &str, allowed: &[&str], suffix: &str) -> Result<Kind, BoardError> {
    let f = crate::text::fold(typed);
    let key = f
        .strip_suffix(suffix)
        .filter(|k| !k.is_empty())
        .unwrap_or(&f);
    let what = if suffix == "token" { "token" } else { "action" };
    let n = names::resolve(key, allowed, what).map_err(|e| e.at(path))?;
    Ok(KINDS[KIND_NAMES.iter().position(|k| *k == n).unwrap_or(0)])
}

/// Who or what grants a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// One of the unit's abilities (index).
    Ability(usize),
    Effect(String),
}

/// A step, its names resolved against the unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Action {
        kind: Kind,
        card: Option<usize>,
    },
    /// `untyped`: as stated (`None`: not stated, for an effect).
    Free {
        kind: Kind,
        card: Option<usize>,
        src: Source,
        untyped: Option<bool>,
    },
    FreeCard(usize),
    ExtraAttack(Source),
    Gain(Kind, Source),
}

fn err(path: &str, msg: impl Into<String>) -> BoardError {
    BoardError::semantic(path, msg)
}

impl Step {
    /// What kinds of step this one says it is.
    fn kinds(&self) -> usize {
        [
            self.activate.is_some(),
            self.end.is_some(),
            self.action.is_some(),
            self.free_action.is_some(),
            self.free_card_action.is_some(),
            self.extra_attack.is_some(),
            self.gain.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    /// Checks the step's shape; `activate`/`end` are for `where_` = the play.
    pub fn check_shape(&self, path: &str, in_play: bool) -> Result<(), BoardError> {
        match self.kinds() {
            0 => {
                return Err(err(
                    path,
                    "a step needs one of `action`, `free_action`, `free_card_action`, `extra_attack`, `gain` (or `activate` / `end`)",
                ));
            }
            1 => {}
            _ => {
                return Err(err(
                    path,
                    "a step is one thing: give only one of `activate`, `end`, `action`, `free_action`, `free_card_action`, `extra_attack`, `gain`",
                ));
            }
        }
        if !in_play && (self.activate.is_some() || self.end.is_some()) {
            return Err(err(
                path,
                "the record of an activation lists what the unit did; starting or ending an activation is a play",
            ));
        }
        if self.end == Some(false) || self.extra_attack == Some(false) {
            return Err(err(path, "write `true` or leave the step out"));
        }
        let sourced =
            self.free_action.is_some() || self.extra_attack.is_some() || self.gain.is_some();
        if !sourced && (self.ability.is_some() || self.effect.is_some()) {
            return Err(err(
                path,
                "only a granted step (`free_action`, `extra_attack`, `gain`) has an `ability` or `effect` source",
            ));
        }
        if self.untyped.is_some() && (self.free_action.is_none() || self.effect.is_none()) {
            return Err(err(
                format!("{path}.untyped").as_str(),
                "`untyped` only goes with a `free_action` from an `effect` (an ability's data already says its type)",
            ));
        }
        let card_kind = [&self.action, &self.free_action].iter().any(|a| {
            a.as_deref()
                .is_some_and(|a| crate::text::fold(a).starts_with("card"))
        });
        if self.card.is_some() && !card_kind {
            return Err(err(
                &format!("{path}.card"),
                "`card` only goes with a card action",
            ));
        }
        Ok(())
    }

    /// Resolves the step's names against `u` and writes them in the
    /// board's spelling. Not for `activate` / `end`.
    pub fn resolve(&mut self, u: &Unit, path: &str) -> Result<Op, BoardError> {
        let sub = |f: &str| format!("{path}.{f}");
        if let Some(a) = &self.action {
            let kind = kind(a, &sub("action"), &KIND_NAMES, "action")?;
            self.action = Some(kind.name().into());
            let card = self.card_of(u, kind, path)?;
            return Ok(Op::Action { kind, card });
        }
        if let Some(a) = &self.free_action {
            let kind = kind(a, &sub("free_action"), &KIND_NAMES, "action")?;
            self.free_action = Some(kind.name().into());
            let card = self.card_of(u, kind, path)?;
            let src = self.source(u, path, "a free action")?;
            let untyped = match &src {
                Source::Ability(i) => match u.abilities[*i].grants {
                    Some(super::board::Grant::FreeAction) => Some(u.abilities[*i].action.is_none()),
                    _ => {
                        return Err(err(
                            &sub("ability"),
                            format!(
                                "{} does not grant a free action (its data on the board)",
                                u.abilities[*i].name
                            ),
                        ));
                    }
                },
                Source::Effect(_) => self.untyped,
            };
            return Ok(Op::Free {
                kind,
                card,
                src,
                untyped,
            });
        }
        if let Some(c) = &self.free_card_action {
            let list: Vec<&str> = u.free_card_actions.iter().map(String::as_str).collect();
            let i = names::resolve_index(c, &list, "free card action")
                .map_err(|e| e.at(&sub("free_card_action")))?;
            self.free_card_action = Some(list[i].to_string());
            return Ok(Op::FreeCard(i));
        }
        if self.extra_attack.is_some() {
            let src = self.source(u, path, "an attack that is not an action")?;
            self.grants(u, &src, super::board::Grant::ExtraAttack, None, path)?;
            return Ok(Op::ExtraAttack(src));
        }
        let g = self.gain.as_deref().unwrap_or_default();
        let token = kind(g, &sub("gain"), &TOKENS, "token")?;
        self.gain = Some(token.name().into());
        let src = self.source(u, path, "gaining a token")?;
        self.grants(u, &src, super::board::Grant::Token, Some(token), path)?;
        Ok(Op::Gain(token, src))
    }

    /// An ability named as the source must grant what the step does.
    fn grants(
        &self,
        u: &Unit,
        src: &Source,
        grant: super::board::Grant,
        token: Option<Kind>,
        path: &str,
    ) -> Result<(), BoardError> {
        let Source::Ability(i) = src else {
            return Ok(());
        };
        let a = &u.abilities[*i];
        if a.grants == Some(grant) && (token.is_none() || a.token == token) {
            return Ok(());
        }
        let what = match token {
            Some(t) => format!("{} token", t.a()),
            None => "an attack that is not an action".into(),
        };
        Err(err(
            &format!("{path}.ability"),
            format!("{} does not grant {what} (its data on the board)", a.name),
        ))
    }

    fn card_of(&mut self, u: &Unit, kind: Kind, path: &str) -> Result<Option<usize>, BoardError> {
        match (kind, &self.card) {
            (Kind::Card, Some(c)) => {
                let list: Vec<&str> = u.card_actions.iter().map(String::as_str).collect();
                let i = names::resolve_index(c, &list, "card action")
                    .map_err(|e| e.at(&format!("{path}.card")))?;
                self.card = Some(list[i].to_string());
                Ok(Some(i))
            }
            (Kind::Card, None) => Err(err(
                &format!("{path}.card"),
                "a card action needs `card: <one of the unit's card_actions>`",
            )),
            (_, Some(_)) => Err(err(
                &format!("{path}.card"),
                "`card` only goes with a card action",
            )),
            (_, None) => Ok(None),
        }
    }

    fn source(&mut self, u: &Unit, path: &str, what: &str) -> Result<Source, BoardError> {
        match (&self.ability, &self.effect) {
            (Some(_), Some(_)) => Err(err(
                path,
                format!("{what}: give `ability` or `effect`, not both"),
            )),
            (Some(a), None) => {
                let list: Vec<&str> = u.abilities.iter().map(|a| a.name.as_str()).collect();
                let i = names::resolve_index(a, &list, "ability")
                    .map_err(|e| e.at(&format!("{path}.ability")))?;
                self.ability = Some(list[i].to_string());
                Ok(Source::Ability(i))
            }
            (None, Some(e)) => {
                super::board::text(e, &format!("{path}.effect"))?;
                Ok(Source::Effect(e.trim().to_string()))
            }
            (None, None) => Err(err(
                path,
                format!(
                    "{what} needs its source: `ability: <one of the unit's abilities>` or `effect: <command card or other effect>`"
                ),
            )),
        }
    }
}
