//! A play is what one unit does, in order: a list of steps. The first may
//! start a unit's activation (`activate`), the last may end it (`end`); in
//! between, each step is exactly one of an action, a free action, a free
//! card action, an attack that is not an action, or a token gained.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::board::{Grant, Unit};
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
    pub fn a(self) -> &'static str {
        [
            "a move",
            "an attack",
            "an aim",
            "a dodge",
            "a standby",
            "a recover",
            "a card",
        ][self as usize]
    }
}

/// What an ability triggers after (or, for a free action it grants, its
/// type): an action type, or `any`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum After {
    Move,
    Attack,
    Aim,
    Dodge,
    Standby,
    Recover,
    Card,
    Any,
}

impl After {
    /// The action type; `None` for `any`.
    pub fn kind(self) -> Option<Kind> {
        KINDS.get(self as usize).copied()
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
    /// An action; `free`: a free action, its source, and `untyped` as
    /// stated (`None`: not stated, for an effect).
    Action {
        kind: Kind,
        card: Option<usize>,
        free: Option<(Source, Option<bool>)>,
    },
    FreeCard(usize),
    ExtraAttack(Source),
    Gain(Kind, Source),
}

fn err(path: &str, msg: impl Into<String>) -> BoardError {
    BoardError::semantic(path, msg)
}

/// A name from `list` as typed: its index and the list's spelling.
pub fn pick(
    typed: &str,
    list: &[String],
    what: &'static str,
    path: &str,
) -> Result<(usize, String), BoardError> {
    let refs: Vec<&str> = list.iter().map(String::as_str).collect();
    let i = names::resolve_index(typed, &refs, what).map_err(|e| e.at(path))?;
    Ok((i, list[i].clone()))
}

impl Step {
    /// Checks the step's shape; `activate` / `end` only in a play.
    pub fn check_shape(&self, path: &str, in_play: bool) -> Result<(), BoardError> {
        let kinds = [
            self.activate.is_some(),
            self.end.is_some(),
            self.action.is_some(),
            self.free_action.is_some(),
            self.free_card_action.is_some(),
            self.extra_attack.is_some(),
            self.gain.is_some(),
        ];
        let msg = match kinds.iter().filter(|b| **b).count() {
            0 => {
                "a step needs one of `action`, `free_action`, `free_card_action`, `extra_attack`, `gain` (or `activate` / `end`)"
            }
            1 if !in_play && (kinds[0] || kinds[1]) => {
                "the record of an activation lists what the unit did; starting or ending an activation is a play"
            }
            1 if self.end == Some(false) || self.extra_attack == Some(false) => {
                "write `true` or leave the step out"
            }
            1 if !(kinds[3] || kinds[5] || kinds[6])
                && (self.ability.is_some() || self.effect.is_some()) =>
            {
                "only a granted step (`free_action`, `extra_attack`, `gain`) has an `ability` or `effect` source"
            }
            1 if self.untyped.is_some() && !(kinds[3] && self.effect.is_some()) => {
                "`untyped` only goes with a `free_action` from an `effect` (an ability's data already says its type)"
            }
            1 if self.card.is_some() && !(kinds[2] || kinds[3]) => {
                "`card` only goes with a card action"
            }
            1 => return Ok(()),
            _ => {
                "a step is one thing: give only one of `activate`, `end`, `action`, `free_action`, `free_card_action`, `extra_attack`, `gain`"
            }
        };
        Err(err(path, msg))
    }

    /// Resolves the step's names against `u` and writes them in the
    /// board's spelling. Not for `activate` / `end`.
    pub fn resolve(&mut self, u: &Unit, path: &str) -> Result<Op, BoardError> {
        if let Some(c) = &self.free_card_action {
            let (i, name) = pick(
                c,
                &u.free_card_actions,
                "free card action",
                &format!("{path}.free_card_action"),
            )?;
            self.free_card_action = Some(name);
            return Ok(Op::FreeCard(i));
        }
        if self.extra_attack.is_some() {
            return Ok(Op::ExtraAttack(self.source(
                u,
                path,
                Grant::ExtraAttack,
                None,
            )?));
        }
        if let Some(g) = &self.gain {
            let token = kind(g, &format!("{path}.gain"), &TOKENS, "token")?;
            self.gain = Some(token.name().into());
            return Ok(Op::Gain(
                token,
                self.source(u, path, Grant::Token, Some(token))?,
            ));
        }
        let (field, typed) = match (&self.action, &self.free_action) {
            (Some(a), _) => ("action", a),
            (_, Some(a)) => ("free_action", a),
            _ => return Err(err(path, "`activate` and `end` are not actions")),
        };
        let kind = kind(typed, &format!("{path}.{field}"), &KIND_NAMES, "action")?;
        let card = match (kind, &self.card) {
            (Kind::Card, Some(c)) => {
                let (i, name) = pick(c, &u.card_actions, "card action", &format!("{path}.card"))?;
                self.card = Some(name);
                Some(i)
            }
            (Kind::Card, None) => {
                return Err(err(
                    &format!("{path}.card"),
                    "a card action needs `card: <one of the unit's card_actions>`",
                ));
            }
            (_, Some(_)) => {
                return Err(err(
                    &format!("{path}.card"),
                    "`card` only goes with a card action",
                ));
            }
            _ => None,
        };
        if field == "action" {
            self.action = Some(kind.name().into());
            return Ok(Op::Action {
                kind,
                card,
                free: None,
            });
        }
        self.free_action = Some(kind.name().into());
        let src = self.source(u, path, Grant::FreeAction, None)?;
        let untyped = match src {
            Source::Ability(i) => Some(u.abilities[i].free_type().is_none()),
            Source::Effect(_) => self.untyped,
        };
        Ok(Op::Action {
            kind,
            card,
            free: Some((src, untyped)),
        })
    }

    /// The step's `ability` (which must grant `grant`) or `effect`.
    fn source(
        &mut self,
        u: &Unit,
        path: &str,
        grant: Grant,
        token: Option<Kind>,
    ) -> Result<Source, BoardError> {
        let what = match (grant, token) {
            (Grant::Token, Some(t)) => format!("{} token", t.a()),
            (Grant::ExtraAttack, _) => "an attack that is not an action".into(),
            _ => "a free action".into(),
        };
        let (i, name) = match (&self.ability, &self.effect) {
            (Some(_), Some(_)) => return Err(err(path, "give `ability` or `effect`, not both")),
            (None, Some(e)) => {
                super::board::text(e, &format!("{path}.effect"))?;
                return Ok(Source::Effect(e.trim().to_string()));
            }
            (None, None) => {
                return Err(err(
                    path,
                    format!(
                        "{what} needs its source: `ability: <one of the unit's abilities>` or `effect: <command card or other effect>`"
                    ),
                ));
            }
            (Some(a), None) => {
                let list: Vec<String> = u.abilities.iter().map(|a| a.name.clone()).collect();
                pick(a, &list, "ability", &format!("{path}.ability"))?
            }
        };
        let a = &u.abilities[i];
        if a.grants != Some(grant) || (token.is_some() && a.token != token) {
            return Err(err(
                &format!("{path}.ability"),
                format!("{name} does not grant {what} (its data on the board)"),
            ));
        }
        self.ability = Some(name);
        Ok(Source::Ability(i))
    }
}
