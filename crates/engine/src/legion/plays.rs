//! A play is what one unit does, in order: a list of steps. The first may
//! start a unit's activation (`activate`), the last may end it (`end`); in
//! between, each step is exactly one of an action, a free action, a free
//! card action, an attack that is not an action, or a token gained.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use super::board::{
    After, KIND_NAMES, KINDS, Kind, MAX_STEPS, Step, TOKENS, kind, null_as_empty, pick,
};
use super::board::{Grant, Unit};
use super::wording::{
    BOTH_SOURCES, CARD_ALONE, CARD_NEEDED, END_NOT_ACTION, FREE_SOURCE_ONLY, Granting, Misread,
    ONE_STEP, PLAY_STEPS, STEP_NEEDED, TRUE_OR_OMIT, UNTYPED_ALONE,
};
use crate::BoardError;
use crate::kit::bounded::List;
use crate::kit::names;

/// One play: the steps, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Play {
    #[serde(deserialize_with = "null_as_empty")]
    pub steps: List<Step, 0, MAX_STEPS>,
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
            0 => STEP_NEEDED,
            1 if !in_play && (kinds[0] || kinds[1]) => PLAY_STEPS,
            1 if self.end == Some(false) || self.extra_attack == Some(false) => TRUE_OR_OMIT,
            1 if !(kinds[3] || kinds[5] || kinds[6])
                && (self.ability.is_some() || self.effect.is_some()) =>
            {
                FREE_SOURCE_ONLY
            }
            1 if self.untyped.is_some() && !(kinds[3] && self.effect.is_some()) => UNTYPED_ALONE,
            1 if self.card.is_some() && !(kinds[2] || kinds[3]) => CARD_ALONE,
            1 => return Ok(()),
            _ => ONE_STEP,
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
            let token = kind(g, &TOKENS, "token").map_err(|e| e.at(&format!("{path}.gain")))?;
            self.gain = Some(token.name().into());
            return Ok(Op::Gain(
                token,
                self.source(u, path, Grant::Token, Some(token))?,
            ));
        }
        let (field, typed) = match (&self.action, &self.free_action) {
            (Some(a), _) => ("action", a),
            (_, Some(a)) => ("free_action", a),
            _ => return Err(err(path, END_NOT_ACTION)),
        };
        let kind =
            kind(typed, &KIND_NAMES, "action").map_err(|e| e.at(&format!("{path}.{field}")))?;
        let card = match (kind, &self.card) {
            (Kind::Card, Some(c)) => {
                let (i, name) = pick(c, &u.card_actions, "card action", &format!("{path}.card"))?;
                self.card = Some(name);
                Some(i)
            }
            (Kind::Card, None) => return Err(err(&format!("{path}.card"), CARD_NEEDED)),
            (_, Some(_)) => return Err(err(&format!("{path}.card"), CARD_ALONE)),
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
        let what = Granting { grant, token };
        let i = match (&self.ability, &self.effect) {
            (Some(_), Some(_)) => return Err(err(path, BOTH_SOURCES)),
            (None, Some(e)) => return Ok(Source::Effect(e.trim().to_string())),
            (None, None) => return Err(err(path, Misread::NoSource { what })),
            (Some(a), None) => {
                let list: Vec<&str> = u.abilities.iter().map(|a| a.name.as_str()).collect();
                names::resolve_index(a, &list, "ability")
                    .map_err(|e| e.at(&format!("{path}.ability")))?
            }
        };
        let a = &u.abilities[i];
        let name = a.name.clone();
        if a.grants != Some(grant) || (token.is_some() && a.token != token) {
            let ability = &name;
            let e = Misread::NotGranted { ability, what };
            return Err(err(&format!("{path}.ability"), e));
        }
        self.ability = Some(name.to_string());
        Ok(Source::Ability(i))
    }
}
