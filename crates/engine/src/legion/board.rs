//! The Legion board: players in seat order with their units, the phase and
//! round, whose turn it is and which unit's activation is under way. The
//! single-unit form of earlier documents (`player:` + `unit:`) is read as a
//! board with one player and that unit activating.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::BoardError;
use crate::document::check;
use crate::kit::bounded::{List, Name, Prose, Round};
use crate::kit::names;
use crate::text::fold_eq;

/// Most players, units per player, and entries in one unit's lists.
pub const MAX_PLAYERS: usize = 8;
pub const MAX_UNITS: usize = 64;
pub const MAX_LIST: usize = 32;
/// Longest name or text accepted.
pub const MAX_TEXT: usize = 400;

/// A name or text: a letter or digit, at most [`MAX_TEXT`] characters.
pub type Text = Name<MAX_TEXT>;
/// A unit's list of abilities, reductions or card actions.
pub type Short<T> = List<T, 0, MAX_LIST>;

/// The phase, in the order of `Legion::PHASES`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    #[serde(alias = "command phase")]
    Command,
    #[default]
    #[serde(alias = "activation phase")]
    Activation,
    #[serde(alias = "end phase")]
    End,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Star Wars: Legion board document")]
pub struct Board {
    pub game: String,
    /// The round, from 1.
    #[serde(default)]
    pub round: Round,
    #[serde(default)]
    pub phase: Phase,
    /// The player whose turn it is: acting in the activation under way, or
    /// to activate a unit next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The unit whose activation is under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<String>,
    /// The last round the players agreed on (standard games: 6); after it,
    /// the players' `points` decide the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_round: Option<u32>,
    #[serde(default)]
    pub players: List<Player, 0, MAX_PLAYERS>,
    /// Single-unit form: the player controlling `unit`.
    #[serde(default, skip_serializing)]
    pub player: Option<Text>,
    /// Single-unit form: the one unit, activating (written back as `players`).
    #[serde(default, skip_serializing)]
    pub unit: Option<Unit>,
    /// Read from the single-unit form: paths say `unit.…`.
    #[serde(skip)]
    pub single: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: Text,
    #[serde(default)]
    pub units: List<Unit, 0, MAX_UNITS>,
    /// Victory points, when the players count them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub name: Text,
    /// The unit has activated this round.
    #[serde(default, skip_serializing_if = "is_false")]
    pub activated: bool,
    /// Actions available in its activation, when the board gives the number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(max = 2))]
    pub actions: Option<u32>,
    /// Reductions of the two actions, each with its source (suppression, damage).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reduced_by: Short<Reduction>,
    /// Keywords and abilities, described as data.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Short<Ability>,
    /// Aim, dodge and standby tokens, each with where it came from (the
    /// form `{ aim: 1 }` is read too, sources not stated).
    #[serde(
        default,
        deserialize_with = "tokens",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tokens: List<Token, 0, MAX_STEPS>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub card_actions: Short<Text>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_card_actions: Short<Text>,
    /// What the unit has done in the activation under way, in order.
    #[serde(
        default,
        deserialize_with = "null_as_empty",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub performed: List<Step, 0, MAX_STEPS>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    #[schemars(range(min = 1, max = 99))]
    #[serde(deserialize_with = "amount")]
    pub amount: u32,
    pub source: Text,
}

impl Unit {
    /// The actions its reductions take away, summed (without overflow):
    /// more than two leaves none (actions.5 gives no bound).
    pub fn cut(&self) -> u32 {
        self.reduced_by
            .iter()
            .fold(0, |n, r| n.saturating_add(r.amount))
    }
}

/// The largest reduction a board may give: a bound of the board's, not of
/// actions.5 (which sets none); anything past two leaves no action.
pub const MAX_REDUCTION: u32 = 99;

/// A reduction's amount: any whole number is read (0 and past
/// [`MAX_REDUCTION`] are refused with the board); one that is not (negative, too large, a
/// fraction) is refused in the same words, not as "a whole number from 0".
/// actions.5 sets no largest reduction: more than two leaves no action.
fn amount<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    struct Amount;
    impl serde::de::Visitor<'_> for Amount {
        type Value = u32;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a reduction of 1 to {MAX_REDUCTION} actions")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u32, E> {
            u32::try_from(v).map_err(|_| E::custom(wrong_amount(v)))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u32, E> {
            u32::try_from(v).map_err(|_| E::custom(wrong_amount(v)))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<u32, E> {
            Err(E::custom(wrong_amount(v)))
        }
    }
    d.deserialize_any(Amount)
}

fn wrong_amount(v: impl std::fmt::Display) -> String {
    format!("a reduction of {v} actions; give a whole number of actions from 1 to {MAX_REDUCTION}")
}

/// What an ability grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    FreeAction,
    /// An attack that is not an action.
    ExtraAttack,
    Token,
    #[serde(alias = "none")]
    Nothing,
}

/// A keyword or ability as data: when it triggers and what it grants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: Text,
    /// Triggers after an action of this type (`move`, …, `card`, `any`).
    /// Left out: usable once at any point of the activation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<After>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grants: Option<Grant>,
    /// With `grants: free_action`: its type; left out or `any`: untyped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<After>,
    /// With `grants: token`: aim, dodge or standby.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<Kind>,
    /// The card text (not applied: the data above is), as printed: it may
    /// break lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Prose<MAX_TEXT>>,
}

/// Where a token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum From {
    /// The unit performed the aim, dodge or standby action.
    Action,
    /// One of the unit's abilities (`name`).
    Ability,
    /// Another effect (`name`: a command card, an ally).
    Effect,
}

/// One aim, dodge or standby token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Token {
    pub kind: Kind,
    /// Left out: not stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<From>,
    /// The ability or effect it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Text>,
}

impl Ability {
    /// The type of the free action it grants; `None`: untyped.
    pub fn free_type(&self) -> Option<Kind> {
        self.action.and_then(After::kind)
    }
}

/// Tokens as a list, or as counts (`{ aim: 1 }`, sources not stated).
fn tokens<'de, D: Deserializer<'de>>(d: D) -> Result<List<Token, 0, MAX_STEPS>, D::Error> {
    use serde::de::Error;
    let v = Value::deserialize(d)?;
    if !v.is_object() {
        return null_as_empty(v).map_err(D::Error::custom);
    }
    let counts =
        std::collections::BTreeMap::<Kind, u32>::deserialize(v).map_err(D::Error::custom)?;
    if counts.values().sum::<u32>() > 64 {
        return Err(D::Error::custom("more than 64 tokens"));
    }
    let one = |kind| Token {
        kind,
        source: None,
        name: None,
    };
    Ok(List(
        counts
            .into_iter()
            .flat_map(|(k, n)| std::iter::repeat_n(one(k), n as usize))
            .collect(),
    ))
}

/// A unit on the board: (player index, unit index).
pub type UnitRef = (usize, usize);

impl Board {
    pub fn names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.name.as_str()).collect()
    }

    pub fn name(&self, p: usize) -> String {
        self.players
            .get(p)
            .map(|p| p.name.to_string())
            .unwrap_or_default()
    }

    pub fn unit(&self, r: UnitRef) -> &Unit {
        &self.players[r.0].units[r.1]
    }

    pub fn unit_mut(&mut self, r: UnitRef) -> &mut Unit {
        &mut self.players[r.0].units[r.1]
    }

    /// The field path of a unit, as the document wrote it.
    pub fn path(&self, r: UnitRef) -> String {
        if self.single {
            "unit".into()
        } else {
            format!("players[{}].units[{}]", r.0, r.1)
        }
    }

    pub fn refs(&self) -> Vec<UnitRef> {
        (0..self.players.len())
            .flat_map(|p| (0..self.players[p].units.len()).map(move |u| (p, u)))
            .collect()
    }

    /// A unit by name, anywhere on the board.
    pub fn find(&self, typed: &str, path: &str) -> Result<UnitRef, BoardError> {
        let all = self.refs();
        let list: Vec<&str> = all.iter().map(|r| self.unit(*r).name.as_str()).collect();
        let i = names::resolve_index(typed, &list, "unit").map_err(|e| e.at(path))?;
        Ok(all[i])
    }

    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    /// The unit whose activation is under way (names already resolved).
    pub fn active_ref(&self) -> Option<UnitRef> {
        let a = self.active.as_deref()?;
        let mut units = self.players.iter().enumerate();
        units.find_map(|(p, pl)| Some((p, pl.units.iter().position(|u| u.name == a)?)))
    }

    pub fn turn_seat(&self) -> Option<usize> {
        let t = self.turn.as_deref()?;
        self.players.iter().position(|p| p.name == t)
    }

    /// Units of player `p` that have not activated this round.
    pub fn waiting(&self, p: usize) -> Vec<UnitRef> {
        let units = self.players[p].units.iter().enumerate();
        units
            .filter(|(_, u)| !u.activated)
            .map(|(i, _)| (p, i))
            .collect()
    }
}

/// A list's names as text.
pub fn texts(list: &[Text]) -> Vec<String> {
    list.iter().map(|n| n.to_string()).collect()
}

/// Names that differ (ignoring case and punctuation).
fn unique(list: &[&str], path: &dyn Fn(usize) -> String, what: &str) -> Result<(), BoardError> {
    for (i, n) in list.iter().enumerate() {
        if list[..i].iter().any(|m| fold_eq(m, n)) {
            let msg = format!("two {what}s are named '{n}'; name them apart (for example '{n} 2')");
            return Err(BoardError::semantic(path(i), msg));
        }
    }
    Ok(())
}

/// Checks names and numbers; writes every name reference in the
/// board's spelling; replays the activation under way.
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    if let Some(u) = b.unit.take() {
        check(
            b.players.is_empty(),
            "unit",
            "give either `players` or the single-unit form (`player` and `unit`), not both",
        )?;
        let name = b.player.take().unwrap_or_else(|| Name("Player".into()));
        b.active = Some(u.name.to_string());
        b.turn = Some(name.to_string());
        b.players = List(vec![Player {
            name,
            units: List(vec![u]),
            points: None,
        }]);
        b.single = true;
    }
    check(
        b.player.is_none(),
        "player",
        "`player` goes with the single-unit form (`unit`); with `players`, name each player there",
    )?;
    check(
        !b.players.is_empty(),
        "players",
        "the board needs at least one player",
    )?;
    unique(&b.names(), &|i| format!("players[{i}].name"), "player")?;
    let all = b.refs();
    let names: Vec<&str> = all.iter().map(|r| b.unit(*r).name.as_str()).collect();
    unique(&names, &|i| format!("{}.name", b.path(all[i])), "unit")?;
    for r in b.refs() {
        let path = b.path(r);
        unit(b.unit_mut(r), &path)?;
    }
    if let Some(t) = b.turn.clone() {
        b.turn = Some(b.name(b.seat(&t, "turn")?));
    }
    if let Some(a) = b.active.clone() {
        let r = b.find(&a, "active")?;
        check(
            b.phase == Phase::Activation,
            "active",
            "a unit activates during the Activation Phase only",
        )?;
        check(
            b.turn.is_none() || b.turn_seat() == Some(r.0),
            "turn",
            format!(
                "the unit activating, {}, is {}'s: `turn` is theirs while it activates",
                b.unit(r).name,
                b.name(r.0)
            ),
        )?;
        b.active = Some(b.unit(r).name.to_string());
        b.turn = Some(b.name(r.0));
        b.unit_mut(r).activated = true;
    }
    for r in b.refs() {
        if !b.unit(r).performed.is_empty() && b.active_ref() != Some(r) {
            return Err(BoardError::semantic(
                format!("{}.performed", b.path(r)),
                format!(
                    "`performed` records the activation under way; {} is not activating (`active`)",
                    b.unit(r).name
                ),
            ));
        }
    }
    Ok(())
}

/// One unit's own consistency; kinds written canonically.
fn unit(u: &mut Unit, path: &str) -> Result<(), BoardError> {
    let cards: Vec<&str> = u.card_actions.iter().map(|c| c.as_str()).collect();
    unique(
        &cards,
        &|i| format!("{path}.card_actions[{i}]"),
        "card action",
    )?;
    let cards: Vec<&str> = u.free_card_actions.iter().map(|c| c.as_str()).collect();
    let at = |i| format!("{path}.free_card_actions[{i}]");
    unique(&cards, &at, "free card action")?;
    let abilities: Vec<&str> = u.abilities.iter().map(|a| a.name.as_str()).collect();
    unique(
        &abilities,
        &|i| format!("{path}.abilities[{i}].name"),
        "ability",
    )?;
    // A check of the board, not a rule: a reduction of 0 reduces nothing.
    // No upper bound: actions.5 gives none, and a total past two leaves
    // no action (said on the step).
    // Past MAX_REDUCTION no board means it (a check, not a rule either).
    for (i, r) in u.reduced_by.iter().enumerate() {
        check(
            (1..=MAX_REDUCTION).contains(&r.amount),
            format!("{path}.reduced_by[{i}].amount"),
            format!(
                "a reduction of {} actions; give a whole number of actions from 1 to {MAX_REDUCTION} (a check of the board, not a rule: actions.5 sets no bound, and any reduction past two leaves no action)",
                r.amount
            ),
        )?;
    }
    let total = u.cut();
    let left = 2u32.saturating_sub(total);
    match u.actions {
        Some(n) if n > 2 => return Err(BoardError::semantic(format!("{path}.actions"), format!("{n} actions: an activated unit performs two actions; more only through free actions (give those as free actions)")).with_rule(super::rules::TWO)),
        Some(n) if !u.reduced_by.is_empty() && n != left => return Err(BoardError::semantic(format!("{path}.actions"), format!("{n} actions, but two reduced by {total} leaves {left}; give the number or the reductions, or make them agree")).with_rule(super::rules::REDUCED)),
        _ => {}
    }
    // Paths are written only when a check fails (validation runs on every request).
    for (i, a) in u.abilities.iter().enumerate() {
        let p = |field: &str| format!("{path}.abilities[{i}].{field}");
        if a.action.is_some() && a.grants != Some(Grant::FreeAction) {
            return check(
                false,
                p("action"),
                "`action` only goes with `grants: free_action`",
            );
        }
        let token = a.grants == Some(Grant::Token);
        if a.token.is_some() != token || !a.token.is_none_or(Kind::is_token) {
            return check(
                false,
                p("token"),
                "`grants: token` goes with `token: aim`, `dodge` or `standby`, and `token` only with it",
            );
        }
    }
    let abilities: Vec<&str> = u.abilities.iter().map(|a| a.name.as_str()).collect();
    for (i, t) in u.tokens.iter_mut().enumerate() {
        let p = format!("{path}.tokens[{i}]");
        check(
            t.kind.is_token(),
            format!("{p}.kind"),
            "a token is aim, dodge or standby",
        )?;
        match (t.source, &t.name) {
            (Some(From::Ability), Some(n)) => {
                let k = names::resolve_index(n, &abilities, "ability")
                    .map_err(|e| e.at(&format!("{p}.name")))?;
                t.name = Some(Name(abilities[k].to_string()));
            }
            (Some(From::Ability), None) => {
                return Err(BoardError::semantic(
                    format!("{p}.name"),
                    "name the ability the token came from",
                ));
            }
            (Some(From::Action), Some(_)) => {
                return Err(BoardError::semantic(
                    format!("{p}.name"),
                    "a token from the unit's own action has no `name`",
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

// The activation record's vocabulary: a unit's `performed` steps are
// plays' steps; plays.rs builds on these.

/// Most steps accepted in one play or one activation record.
pub const MAX_STEPS: usize = 64;

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
    pub effect: Option<Text>,
    /// With `free_action` from an `effect`: whether the effect gives a free
    /// action without naming its type. Left out: asked, or assumed typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untyped: Option<bool>,
}

/// Reads a list, taking an empty value (`play:`) as an empty list.
pub fn null_as_empty<'de, D: Deserializer<'de>, L: Deserialize<'de> + Default>(
    d: D,
) -> Result<L, D::Error> {
    Ok(Option::<L>::deserialize(d)?.unwrap_or_default())
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
        let an = matches!(self, Kind::Attack | Kind::Aim);
        format!("{} {}", if an { "an" } else { "a" }, self.name())
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
/// The caller attaches the field path to an error (`e.at(path)`), so a
/// well-typed kind formats no path.
pub fn kind(typed: &str, allowed: &[&str], suffix: &str) -> Result<Kind, names::NameError> {
    let what = if suffix == "token" { "token" } else { "action" };
    // The common case, a kind written as listed, without folding.
    let n = match allowed.iter().find(|k| **k == typed) {
        Some(k) => k,
        None => {
            let f = crate::text::fold(typed);
            let key = f
                .strip_suffix(suffix)
                .filter(|k| !k.is_empty())
                .unwrap_or(&f);
            names::resolve(key, allowed, what)?
        }
    };
    Ok(KINDS[KIND_NAMES.iter().position(|k| *k == n).unwrap_or(0)])
}

/// A name from `list` as typed: its index and the list's spelling.
pub fn pick(
    typed: &str,
    list: &[Text],
    what: &'static str,
    path: &str,
) -> Result<(usize, String), BoardError> {
    let refs: Vec<&str> = list.iter().map(|n| n.as_str()).collect();
    let i = names::resolve_index(typed, &refs, what).map_err(|e| e.at(path))?;
    Ok((i, list[i].to_string()))
}
