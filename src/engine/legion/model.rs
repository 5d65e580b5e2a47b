//! The Legion board document (what players type) and its validated form.

use serde::{Deserialize, Serialize};

use crate::engine::{BoardError, board};

/// Most steps accepted in one play or one activation history.
pub const MAX_STEPS: usize = 64;
/// Most abilities, card actions or reductions on one unit.
pub const MAX_LIST: usize = 32;
/// Longest name or text accepted.
pub const MAX_TEXT: usize = 400;

/// A board document: one unit being activated, and the play in dispute.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub game: String,
    /// The player controlling the unit (named in choices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    pub unit: Unit,
    /// What the unit does now, in order.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub play: Vec<PlayStep>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub name: String,
    /// Actions available this activation, when the board gives the number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<u32>,
    /// Reductions of the two actions, each with its source (suppression, damage).
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub reduced_by: Vec<Reduction>,
    /// Keywords and abilities, described as data.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub abilities: Vec<Ability>,
    #[serde(default, skip_serializing_if = "Tokens::is_empty")]
    pub tokens: Tokens,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub card_actions: Vec<String>,
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub free_card_actions: Vec<String>,
    /// What the unit has already done this activation, in order.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub performed: Vec<PlayStep>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    pub amount: u32,
    pub source: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub aim: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dodge: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub standby: u32,
}

/// Reads a list, taking an empty value (`play:`) as an empty list.
fn null_as_empty<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Tokens {
    pub fn is_empty(&self) -> bool {
        self.aim == 0 && self.dodge == 0 && self.standby == 0
    }
}

/// A keyword or ability as data: when it triggers and what it grants.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: String,
    /// Triggers after an action of this type (`move`, …, `card`, `any`).
    /// Absent: usable once at any point of the activation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// `free_action`, `extra_attack` (an attack that is not an action) or `token`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grants: Option<String>,
    /// For `grants: free_action`: the type of the free action; absent = untyped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// For `grants: token`: `aim`, `dodge` or `standby`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The card text, for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One thing the unit does. Exactly one of `action`, `free_action`,
/// `free_card_action`, `extra_attack`, `gain`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayStep {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_card_action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_attack: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gain: Option<String>,
    /// The card action, when `action: card` / `free_action: card`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The unit's ability that grants this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
    /// Another effect (command card, ally) that grants this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// For a free action from an `effect`: the effect does not name a type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untyped: Option<bool>,
}

// ---------------------------------------------------------------------------
// Validated form

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl Kind {
    pub fn name(self) -> &'static str {
        KIND_NAMES[self.index()]
    }
    pub fn index(self) -> usize {
        match self {
            Kind::Move => 0,
            Kind::Attack => 1,
            Kind::Aim => 2,
            Kind::Dodge => 3,
            Kind::Standby => 4,
            Kind::Recover => 5,
            Kind::Card => 6,
        }
    }
    /// The list item of `legion:actions.1` naming this action.
    pub fn list_rule(self) -> &'static str {
        match self {
            Kind::Move => "legion:actions.1.1",
            Kind::Attack => "legion:actions.1.2",
            Kind::Aim => "legion:actions.1.3",
            Kind::Dodge => "legion:actions.1.4",
            Kind::Standby => "legion:actions.1.5",
            Kind::Recover => "legion:actions.1.6",
            Kind::Card => "legion:actions.1.7",
        }
    }
    pub fn is_token(self) -> bool {
        matches!(self, Kind::Aim | Kind::Dodge | Kind::Standby)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    Kind(Kind),
    Any,
}

impl After {
    pub fn matches(self, k: Kind) -> bool {
        match self {
            After::Any => true,
            After::Kind(x) => x == k,
        }
    }
    pub fn describe(self) -> String {
        match self {
            After::Any => "any action".into(),
            After::Kind(Kind::Card) => "a card action".into(),
            After::Kind(k) => format!("{} {} action", article(k.name()), k.name()),
        }
    }
}

pub fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    Nothing,
    /// A free action of this type; `None` = untyped.
    FreeAction(Option<Kind>),
    ExtraAttack,
    Token(Kind),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbilityV {
    pub name: String,
    pub after: Option<After>,
    pub grant: Grant,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Ability(usize),
    Effect(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Action {
        kind: Kind,
        card: Option<usize>,
    },
    Free {
        kind: Kind,
        card: Option<usize>,
        src: Source,
        typed: bool,
    },
    FreeCard {
        idx: usize,
    },
    ExtraAttack {
        src: Source,
    },
    Gain {
        token: Kind,
        src: Source,
    },
}

/// The unit, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitV {
    pub name: String,
    pub player: String,
    pub available: u32,
    pub reductions: Vec<(u32, String)>,
    /// The board gave `actions` without reductions.
    pub given_number: bool,
    pub abilities: Vec<AbilityV>,
    pub card_actions: Vec<String>,
    pub free_card_actions: Vec<String>,
}

fn text_ok(s: &str, path: &str) -> Result<(), BoardError> {
    if s.trim().is_empty() {
        return Err(BoardError::semantic(path, "must not be empty"));
    }
    if s.len() > MAX_TEXT {
        return Err(BoardError::semantic(
            path,
            format!("is {} characters long; the limit is {MAX_TEXT}", s.len()),
        ));
    }
    Ok(())
}

fn list_ok<T>(v: &[T], path: &str, max: usize) -> Result<(), BoardError> {
    if v.len() > max {
        return Err(BoardError::refused(format!(
            "{path} has {} entries; the limit is {max}",
            v.len()
        )));
    }
    Ok(())
}

/// Resolves a typed name to an index of `candidates`: an exact
/// (case-insensitive) match first, then [`board::resolve_name`]'s fuzzy rules.
pub fn find(
    typed: &str,
    candidates: &[&str],
    path: &dyn Fn() -> String,
    what: &str,
) -> Result<usize, BoardError> {
    let t = typed.trim();
    let mut exact = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.eq_ignore_ascii_case(t));
    if let (Some((i, _)), None) = (exact.next(), exact.next()) {
        return Ok(i);
    }
    let n = board::resolve_name(typed, candidates, &path(), what)?;
    Ok(candidates.iter().position(|c| *c == n).unwrap_or(0))
}

pub fn parse_kind(s: &str, path: &dyn Fn() -> String) -> Result<Kind, BoardError> {
    if let Some(i) = KIND_NAMES
        .iter()
        .position(|k| k.eq_ignore_ascii_case(s.trim()))
    {
        return Ok(KINDS[i]);
    }
    let folded = crate::text::fold(s);
    let folded = folded
        .strip_suffix("action")
        .filter(|f| !f.is_empty())
        .unwrap_or(&folded);
    let name = board::resolve_name(folded, &KIND_NAMES, &path(), "action")?;
    let i = KIND_NAMES.iter().position(|k| *k == name).unwrap_or(0);
    Ok(KINDS[i])
}

pub fn parse_token(s: &str, path: &dyn Fn() -> String) -> Result<Kind, BoardError> {
    match s.trim() {
        "aim" => return Ok(Kind::Aim),
        "dodge" => return Ok(Kind::Dodge),
        "standby" => return Ok(Kind::Standby),
        _ => {}
    }
    let folded = crate::text::fold(s);
    let folded = folded
        .strip_suffix("token")
        .filter(|f| !f.is_empty())
        .unwrap_or(&folded);
    let name = board::resolve_name(folded, &["aim", "dodge", "standby"], &path(), "token")?;
    Ok(match name {
        "aim" => Kind::Aim,
        "dodge" => Kind::Dodge,
        _ => Kind::Standby,
    })
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

impl Board {
    /// Validates the unit (not the steps).
    pub fn unit_v(&self) -> Result<UnitV, BoardError> {
        if !self.game.trim().eq_ignore_ascii_case("legion")
            && !matches!(
                crate::text::fold(&self.game).as_str(),
                "legion" | "starwarslegion" | "swl" | "swlegion"
            )
        {
            return Err(BoardError::semantic(
                "game",
                format!(
                    "this is the Star Wars: Legion engine; the document says game '{}'",
                    self.game
                ),
            ));
        }
        let u = &self.unit;
        text_ok(&u.name, "unit.name")?;
        if let Some(p) = &self.player {
            text_ok(p, "player")?;
        }
        list_ok(&u.abilities, "unit.abilities", MAX_LIST)?;
        list_ok(&u.card_actions, "unit.card_actions", MAX_LIST)?;
        list_ok(&u.free_card_actions, "unit.free_card_actions", MAX_LIST)?;
        list_ok(&u.reduced_by, "unit.reduced_by", MAX_LIST)?;
        list_ok(&u.performed, "unit.performed", MAX_STEPS)?;
        list_ok(&self.play, "play", MAX_STEPS)?;
        for (field, list) in [
            ("card_actions", &u.card_actions),
            ("free_card_actions", &u.free_card_actions),
        ] {
            let mut keys: Vec<String> = Vec::with_capacity(list.len());
            for (i, n) in list.iter().enumerate() {
                text_ok(n, &format!("unit.{field}[{i}]"))?;
                let key = crate::text::fold(n);
                if keys.contains(&key) {
                    return Err(BoardError::semantic(
                        format!("unit.{field}[{i}]"),
                        format!("'{n}' is listed twice"),
                    ));
                }
                keys.push(key);
            }
        }
        let mut reductions = Vec::new();
        let mut total: u32 = 0;
        for (i, r) in u.reduced_by.iter().enumerate() {
            let path = format!("unit.reduced_by[{i}]");
            text_ok(&r.source, &format!("{path}.source"))?;
            if r.amount == 0 || r.amount > 2 {
                return Err(BoardError::semantic(
                    format!("{path}.amount"),
                    format!("a reduction of {} actions; give 1 or 2", r.amount),
                )
                .with_rule("legion:actions.5"));
            }
            total = total.saturating_add(r.amount);
            reductions.push((r.amount, r.source.trim().to_string()));
        }
        let from_reductions = 2u32.saturating_sub(total);
        let available = match u.actions {
            Some(n) if n > 2 => {
                return Err(BoardError::semantic(
                    "unit.actions",
                    format!("{n} actions: an activated unit performs two actions; more only through free actions (give those as free actions)"),
                )
                .with_rule("legion:actions.1"));
            }
            Some(n) if !u.reduced_by.is_empty() && n != from_reductions => {
                return Err(BoardError::semantic(
                    "unit.actions",
                    format!("{n} actions, but two reduced by {total} leaves {from_reductions}; give the number or the reductions, or make them agree"),
                )
                .with_rule("legion:actions.5"));
            }
            Some(n) => n,
            None => from_reductions,
        };
        let mut abilities = Vec::new();
        let mut ability_keys: Vec<String> = Vec::with_capacity(u.abilities.len());
        for (i, a) in u.abilities.iter().enumerate() {
            let path = format!("unit.abilities[{i}]");
            text_ok(&a.name, &format!("{path}.name"))?;
            if let Some(t) = &a.text {
                text_ok(t, &format!("{path}.text"))?;
            }
            let key = crate::text::fold(&a.name);
            if ability_keys.contains(&key) {
                return Err(BoardError::semantic(
                    format!("{path}.name"),
                    format!("'{}' is listed twice", a.name),
                ));
            }
            ability_keys.push(key);
            let after = match &a.after {
                None => None,
                Some(s)
                    if s.trim().eq_ignore_ascii_case("any")
                        || matches!(crate::text::fold(s).as_str(), "any" | "anyaction") =>
                {
                    Some(After::Any)
                }
                Some(s) => Some(After::Kind(parse_kind(s, &|| format!("{path}.after"))?)),
            };
            let grants = a.grants.as_deref().map(|g| match g.trim() {
                "free_action" => "freeaction".to_string(),
                "extra_attack" => "extraattack".to_string(),
                g => crate::text::fold(g),
            });
            let grant = match grants.as_deref() {
                None | Some("nothing") | Some("none") => Grant::Nothing,
                Some("freeaction") => Grant::FreeAction(match &a.action {
                    None => None,
                    Some(s)
                        if s.trim().eq_ignore_ascii_case("any")
                            || crate::text::fold(s) == "any" =>
                    {
                        None
                    }
                    Some(s) => Some(parse_kind(s, &|| format!("{path}.action"))?),
                }),
                Some("extraattack") => Grant::ExtraAttack,
                Some("token") => match &a.token {
                    Some(t) => Grant::Token(parse_token(t, &|| format!("{path}.token"))?),
                    None => {
                        return Err(BoardError::semantic(
                            format!("{path}.token"),
                            "`grants: token` needs `token: aim`, `dodge` or `standby`",
                        ));
                    }
                },
                Some(_) => {
                    return Err(BoardError::semantic(
                        format!("{path}.grants"),
                        format!(
                            "unknown grant '{}'; use free_action, extra_attack or token",
                            a.grants.as_deref().unwrap_or_default()
                        ),
                    ));
                }
            };
            if a.action.is_some() && !matches!(grant, Grant::FreeAction(_)) {
                return Err(BoardError::semantic(
                    format!("{path}.action"),
                    "`action` only goes with `grants: free_action`",
                ));
            }
            if a.token.is_some() && !matches!(grant, Grant::Token(_)) {
                return Err(BoardError::semantic(
                    format!("{path}.token"),
                    "`token` only goes with `grants: token`",
                ));
            }
            abilities.push(AbilityV {
                name: a.name.trim().to_string(),
                after,
                grant,
            });
        }
        let given_number = u.actions.is_some() && u.reduced_by.is_empty();
        Ok(UnitV {
            name: u.name.trim().to_string(),
            player: self
                .player
                .clone()
                .unwrap_or_else(|| "the unit's player".to_string()),
            available,
            reductions,
            given_number,
            abilities,
            card_actions: u
                .card_actions
                .iter()
                .map(|s| s.trim().to_string())
                .collect(),
            free_card_actions: u
                .free_card_actions
                .iter()
                .map(|s| s.trim().to_string())
                .collect(),
        })
    }
}

impl UnitV {
    fn ability_names(&self) -> Vec<&str> {
        self.abilities.iter().map(|a| a.name.as_str()).collect()
    }

    fn source(&self, s: &PlayStep, path: &str, what: &str) -> Result<Source, BoardError> {
        match (&s.ability, &s.effect) {
            (Some(_), Some(_)) => Err(BoardError::semantic(
                path,
                format!("{what}: give `ability` or `effect`, not both"),
            )),
            (Some(a), None) => {
                let names = self.ability_names();
                Ok(Source::Ability(find(
                    a,
                    &names,
                    &|| format!("{path}.ability"),
                    "ability",
                )?))
            }
            (None, Some(e)) => {
                text_ok(e, &format!("{path}.effect"))?;
                Ok(Source::Effect(e.trim().to_string()))
            }
            (None, None) => Err(BoardError::semantic(
                path,
                format!(
                    "{what} needs its source: `ability: <one of the unit's abilities>` or `effect: <command card or other effect>`"
                ),
            )),
        }
    }

    fn card(&self, s: &PlayStep, kind: Kind, path: &str) -> Result<Option<usize>, BoardError> {
        match (kind, &s.card) {
            (Kind::Card, Some(c)) => {
                let names = refs(&self.card_actions);
                Ok(Some(find(
                    c,
                    &names,
                    &|| format!("{path}.card"),
                    "card action",
                )?))
            }
            (Kind::Card, None) => Err(BoardError::semantic(
                format!("{path}.card"),
                "a card action needs `card: <one of the unit's card_actions>`",
            )),
            (_, Some(_)) => Err(BoardError::semantic(
                format!("{path}.card"),
                "`card` only goes with a card action",
            )),
            (_, None) => Ok(None),
        }
    }

    /// Validates one step of the document into an [`Op`].
    pub fn op(&self, s: &PlayStep, path: &str) -> Result<Op, BoardError> {
        let kinds = [
            s.action.is_some(),
            s.free_action.is_some(),
            s.free_card_action.is_some(),
            s.extra_attack.is_some(),
            s.gain.is_some(),
        ];
        let n = kinds.iter().filter(|b| **b).count();
        if n != 1 {
            return Err(BoardError::semantic(
                path,
                if n == 0 {
                    "a step needs one of `action`, `free_action`, `free_card_action`, `extra_attack`, `gain`".to_string()
                } else {
                    "a step is one thing: give only one of `action`, `free_action`, `free_card_action`, `extra_attack`, `gain`".to_string()
                },
            ));
        }
        let no_source = |field: &str| -> Result<(), BoardError> {
            if s.ability.is_some() || s.effect.is_some() {
                return Err(BoardError::semantic(
                    format!("{path}.{field}"),
                    "an action of the unit's own has no `ability`/`effect` source; for a granted action use `free_action`",
                ));
            }
            Ok(())
        };
        if s.untyped.is_some() && (s.free_action.is_none() || s.effect.is_none()) {
            return Err(BoardError::semantic(
                format!("{path}.untyped"),
                "`untyped` only goes with a `free_action` from an `effect` (an ability's data already says its type)",
            ));
        }
        if let Some(a) = &s.action {
            no_source("action")?;
            let kind = parse_kind(a, &|| format!("{path}.action"))?;
            return Ok(Op::Action {
                kind,
                card: self.card(s, kind, path)?,
            });
        }
        if let Some(a) = &s.free_action {
            let kind = parse_kind(a, &|| format!("{path}.free_action"))?;
            let card = self.card(s, kind, path)?;
            let src = self.source(s, path, "a free action")?;
            let typed = match &src {
                Source::Ability(i) => match self.abilities.get(*i).map(|a| a.grant) {
                    Some(Grant::FreeAction(t)) => t.is_some(),
                    _ => {
                        let name = self
                            .abilities
                            .get(*i)
                            .map(|a| a.name.as_str())
                            .unwrap_or_default();
                        return Err(BoardError::semantic(
                            format!("{path}.ability"),
                            format!("{name} does not grant a free action (its data on the board)"),
                        ));
                    }
                },
                Source::Effect(_) => !s.untyped.unwrap_or(false),
            };
            return Ok(Op::Free {
                kind,
                card,
                src,
                typed,
            });
        }
        if let Some(c) = &s.free_card_action {
            no_source("free_card_action")?;
            if s.card.is_some() {
                return Err(BoardError::semantic(
                    format!("{path}.card"),
                    "name the free card action in `free_card_action` itself",
                ));
            }
            let names = refs(&self.free_card_actions);
            let idx = find(
                c,
                &names,
                &|| format!("{path}.free_card_action"),
                "free card action",
            )?;
            return Ok(Op::FreeCard { idx });
        }
        if let Some(b) = s.extra_attack {
            if !b {
                return Err(BoardError::semantic(
                    format!("{path}.extra_attack"),
                    "write `extra_attack: true` (with its `ability` or `effect`), or leave the step out",
                ));
            }
            if s.card.is_some() {
                return Err(BoardError::semantic(
                    format!("{path}.card"),
                    "`card` only goes with a card action",
                ));
            }
            let src = self.source(s, path, "an attack that is not an action")?;
            if let Source::Ability(i) = src
                && self.abilities.get(i).map(|a| a.grant) != Some(Grant::ExtraAttack)
            {
                let name = self
                    .abilities
                    .get(i)
                    .map(|a| a.name.as_str())
                    .unwrap_or_default();
                return Err(BoardError::semantic(
                    format!("{path}.ability"),
                    format!(
                        "{name} does not grant an attack that is not an action (its data on the board)"
                    ),
                ));
            }
            return Ok(Op::ExtraAttack { src });
        }
        let g = s.gain.as_deref().unwrap_or_default();
        if s.card.is_some() {
            return Err(BoardError::semantic(
                format!("{path}.card"),
                "`card` only goes with a card action",
            ));
        }
        let token = parse_token(g, &|| format!("{path}.gain"))?;
        let src = self.source(s, path, "gaining a token")?;
        if let Source::Ability(i) = src
            && self.abilities.get(i).map(|a| a.grant) != Some(Grant::Token(token))
        {
            let name = self
                .abilities
                .get(i)
                .map(|a| a.name.as_str())
                .unwrap_or_default();
            return Err(BoardError::semantic(
                format!("{path}.ability"),
                format!(
                    "{name} does not grant {} {} token (its data on the board)",
                    article(token.name()),
                    token.name()
                ),
            ));
        }
        Ok(Op::Gain { token, src })
    }

    /// The canonical document form of an op (resolved names).
    pub fn step_of(&self, op: &Op) -> PlayStep {
        let card = |c: &Option<usize>| c.and_then(|i| self.card_actions.get(i).cloned());
        let source = |src: &Source| -> (Option<String>, Option<String>) {
            match src {
                Source::Ability(i) => (self.abilities.get(*i).map(|a| a.name.clone()), None),
                Source::Effect(e) => (None, Some(e.clone())),
            }
        };
        match op {
            Op::Action { kind, card: c } => PlayStep {
                action: Some(kind.name().into()),
                card: card(c),
                ..Default::default()
            },
            Op::Free {
                kind,
                card: c,
                src,
                typed,
            } => {
                let (ability, effect) = source(src);
                let untyped = matches!(src, Source::Effect(_)) && !typed;
                PlayStep {
                    free_action: Some(kind.name().into()),
                    card: card(c),
                    ability,
                    effect,
                    untyped: untyped.then_some(true),
                    ..Default::default()
                }
            }
            Op::FreeCard { idx } => PlayStep {
                free_card_action: self.free_card_actions.get(*idx).cloned(),
                ..Default::default()
            },
            Op::ExtraAttack { src } => {
                let (ability, effect) = source(src);
                PlayStep {
                    extra_attack: Some(true),
                    ability,
                    effect,
                    ..Default::default()
                }
            }
            Op::Gain { token, src } => {
                let (ability, effect) = source(src);
                PlayStep {
                    gain: Some(token.name().into()),
                    ability,
                    effect,
                    ..Default::default()
                }
            }
        }
    }
}
