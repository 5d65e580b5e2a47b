//! The Magewinds board: the round and its phase, whose turn it is, the
//! players and their fighters.

use schemars::JsonSchema;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

use super::rules::PHASE;
use super::wording::{MOVEMENT_RANGE, Misread, NO_TURN};
use crate::BoardError;
use crate::document::check;
use crate::kit::bounded::{List, Name, Round};
use crate::kit::names;
use crate::text::fold;

/// Most players a board may list.
pub const MAX_PLAYERS: usize = 8;
/// Most fighters one player may field.
pub const MAX_FIGHTERS: usize = 40;
/// Largest coordinate or distance accepted, in inches.
pub const MAX_INCHES: f64 = 1000.0;
/// Longest name accepted.
pub const MAX_NAME: usize = 80;

/// A name on the board: a player, fighter, attack, reaction or action.
pub type Said = Name<MAX_NAME>;

/// A point on the table, in inches: `[x, y]`.
pub type Pos = [f64; 2];

/// (player index, fighter index).
pub type Fid = (usize, usize);

/// The phase of the round the board is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The Channelling Phase (not indexed): who passes first is recorded here.
    #[serde(alias = "channeling")]
    Channelling,
    #[default]
    Action,
    /// The Action Phase has ended: no fighter can be activated (13.5).
    #[serde(alias = "end-of-action-phase", alias = "ended")]
    End,
}

pub fn is_false(b: &bool) -> bool {
    !*b
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Magewinds board document")]
pub struct Board {
    pub game: String,
    /// The round, from 1; a new round begins with its Channelling Phase.
    #[serde(default)]
    pub round: Round,
    #[serde(default)]
    pub phase: Phase,
    /// No turn has been taken yet in this Action Phase: the first turn goes
    /// to `first_to_pass` (13.0). Stated on the board, never guessed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub first_turn: bool,
    /// The player who was first to pass in the Channelling Phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_to_pass: Option<String>,
    /// Whose turn it is in the Action Phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// In turn order (it matters with 3 or more players).
    pub players: List<Player, 1, MAX_PLAYERS>,
    /// The last action made in an activation (what reactions trigger on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_action: Option<LastAction>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: Said,
    #[serde(default)]
    pub fighters: List<Fighter, 0, MAX_FIGHTERS>,
}

/// A fighter's action counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Counter {
    #[default]
    None,
    Single,
    Double,
}

impl Counter {
    pub fn word(self) -> &'static str {
        match self {
            Counter::None => "no action counter",
            Counter::Single => "a single action counter",
            Counter::Double => "a double action counter",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    pub name: Said,
    /// Movement attribute, in inches.
    #[schemars(range(min = 0, max = 100))]
    pub movement: f64,
    #[serde(default)]
    pub counter: Counter,
    /// Position on the table, `[x, y]` in inches.
    pub position: Pos,
    /// A Guard action is in effect (13.4).
    #[serde(default)]
    pub guard: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<Said>,
    /// A name, or a name with its trigger (`attacked` is checked by the engine).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<ReactionDef>,
    /// Other named actions (abilities) this fighter has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Said>,
    /// Fighters this fighter can see (16.0 is not indexed: the board says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<Vec<String>>,
}

/// A reaction a fighter has: a bare name, or a name with its trigger.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ReactionDef {
    Name(Said),
    Full {
        name: Said,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trigger: Option<String>,
    },
}

/// Read as either form, then the name is bounded: a name out of bounds is
/// reported as such, not as "matches neither form".
impl<'de> Deserialize<'de> for ReactionDef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Named as the type, for serde's "did not match any variant" message.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum ReactionDef {
            Name(String),
            Full {
                name: String,
                #[serde(default)]
                trigger: Option<String>,
            },
        }
        let said = |n: String| Said::new(n).map_err(D::Error::custom);
        Ok(match ReactionDef::deserialize(d)? {
            ReactionDef::Name(n) => Self::Name(said(n)?),
            ReactionDef::Full { name, trigger } => Self::Full {
                name: said(name)?,
                trigger,
            },
        })
    }
}

impl ReactionDef {
    pub fn name(&self) -> &str {
        match self {
            ReactionDef::Name(n) | ReactionDef::Full { name: n, .. } => n,
        }
    }

    pub fn trigger(&self) -> Option<&str> {
        match self {
            ReactionDef::Full { trigger, .. } => trigger.as_deref(),
            ReactionDef::Name(_) => None,
        }
    }

    /// Whether the trigger is "attacked", which the engine checks itself.
    pub fn on_attacked(&self) -> bool {
        let t = self.trigger().map(fold).unwrap_or_default();
        matches!(t.as_str(), "attacked" | "targetedbyanattack")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LastAction {
    pub fighter: String,
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The attacked fighter's reaction to this action was settled when it
    /// resolved (made, declined or impossible): none can be made to it later.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reactions_settled: bool,
}

impl Board {
    pub fn names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.name.as_str()).collect()
    }

    pub fn name(&self, p: usize) -> String {
        self.players[p].name.to_string()
    }

    /// The seat of a player name (resolved).
    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    pub fn fighter(&self, id: Fid) -> &Fighter {
        &self.players[id.0].fighters[id.1]
    }

    pub fn fighter_mut(&mut self, id: Fid) -> &mut Fighter {
        &mut self.players[id.0].fighters[id.1]
    }

    pub fn ids(&self) -> Vec<Fid> {
        (0..self.players.len())
            .flat_map(|p| (0..self.players[p].fighters.len()).map(move |f| (p, f)))
            .collect()
    }

    /// A fighter by (resolved) name, on any side.
    pub fn find(&self, typed: &str, path: &str) -> Result<Fid, BoardError> {
        let ids = self.ids();
        let names: Vec<&str> = ids.iter().map(|i| self.fighter(*i).name.as_str()).collect();
        let i = names::resolve_index(typed, &names, "fighter").map_err(|e| e.at(path))?;
        Ok(ids[i])
    }

    /// The fighters of a player that can still be activated (13.0).
    pub fn ready(&self, p: usize) -> Vec<&str> {
        let fs = self.players[p].fighters.iter();
        fs.filter(|f| f.counter != Counter::Double)
            .map(|f| f.name.as_str())
            .collect()
    }

    pub fn can_activate(&self, p: usize) -> bool {
        !self.ready(p).is_empty()
    }

    pub fn turn_seat(&self) -> Option<usize> {
        let t = self.turn.as_deref()?;
        self.players.iter().position(|p| p.name == t)
    }
}

// Validation runs on every request: paths and messages are written only
// when a check fails.
pub fn check_inches(v: f64, path: &str, what: &str) -> Result<(), BoardError> {
    inches(v, || path.to_string(), what)
}

fn inches(v: f64, path: impl FnOnce() -> String, what: &str) -> Result<(), BoardError> {
    if v.is_finite() && v.abs() <= MAX_INCHES {
        return Ok(());
    }
    let max = MAX_INCHES;
    check(false, path(), Misread::Inches { what, max })
}

pub fn check_pos(p: &Pos, path: &str) -> Result<(), BoardError> {
    pos_ok(p, || path.to_string())
}

fn pos_ok(p: &Pos, path: impl Fn() -> String) -> Result<(), BoardError> {
    inches(p[0], || format!("{}[0]", path()), "x")?;
    inches(p[1], || format!("{}[1]", path()), "y")
}

/// Names unique (case and punctuation aside).
fn unique<'a>(
    items: impl Iterator<Item = (usize, &'a str)>,
    path: impl Fn(usize) -> String,
    what: &str,
) -> Result<(), BoardError> {
    let mut seen = Vec::new();
    for (i, n) in items {
        let folded = fold(n);
        if seen.contains(&folded) {
            return check(false, path(i), Misread::SameName { what, name: n });
        }
        seen.push(folded);
    }
    Ok(())
}

/// Checks what the types cannot say (Movement and positions in range,
/// unique names), and writes every name reference
/// (`turn`, `first_to_pass`, `last_action`, `visible`) in the board's own
/// spelling. In the Action Phase, whose turn it is must be stated: `turn`,
/// or `first_turn: true` with `first_to_pass` (13.0).
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    let ids = b.ids();
    let players = b.players.iter().enumerate();
    let names = players.map(|(i, p)| (i, p.name.as_str()));
    unique(names, |i| format!("players[{i}].name"), "player")?;
    let path = |(p, f): Fid| format!("players[{p}].fighters[{f}]");
    let fighters = ids.iter().enumerate();
    let names = fighters.map(|(k, i)| (k, b.fighter(*i).name.as_str()));
    unique(names, |k| path(ids[k]) + ".name", "fighter")?;
    for (id, f) in ids.iter().map(|i| (*i, b.fighter(*i))) {
        let ok = f.movement.is_finite() && (0.0..=100.0).contains(&f.movement);
        if !ok {
            return check(false, path(id) + ".movement", MOVEMENT_RANGE);
        }
        pos_ok(&f.position, || path(id) + ".position")?;
    }
    spell_names(b)?;
    if b.first_turn
        && b.phase == Phase::Action
        && let Some(first) = b.first_to_pass.clone()
    {
        let t = b.turn.get_or_insert_with(|| first.clone()).clone();
        let e = Misread::FirstTurn {
            first: &first,
            turn: &t,
        };
        check(t == first, "turn", e).map_err(|e| e.with_rule(PHASE))?;
    }
    let stated = b.phase != Phase::Action || b.turn.is_some();
    check(stated, "turn", NO_TURN).map_err(|e| e.with_rule(PHASE))
}

/// `turn`, `first_to_pass`, `last_action` and `visible` in the board's spelling.
fn spell_names(b: &mut Board) -> Result<(), BoardError> {
    if let Some(t) = b.turn.clone() {
        b.turn = Some(b.name(b.seat(&t, "turn")?));
    }
    if let Some(t) = b.first_to_pass.clone() {
        b.first_to_pass = Some(b.name(b.seat(&t, "first_to_pass")?));
    }
    let fighter = |b: &Board, typed: &str, path: &str| -> Result<String, BoardError> {
        Ok(b.fighter(b.find(typed, path)?).name.to_string())
    };
    if let Some(mut l) = b.last_action.clone() {
        l.fighter = fighter(b, &l.fighter, "last_action.fighter")?;
        if let Some(t) = &l.target {
            l.target = Some(fighter(b, t, "last_action.target")?);
        }
        b.last_action = Some(l);
    }
    let ids = b.ids();
    let names: Vec<String> = ids.iter().map(|i| b.fighter(*i).name.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for &(p, f) in &ids {
        let Some(list) = b.players[p].fighters[f].visible.as_mut() else {
            continue;
        };
        for (i, v) in list.iter_mut().enumerate() {
            let path = || format!("players[{p}].fighters[{f}].visible[{i}]");
            let k = names::resolve_index(v, &names, "fighter").map_err(|e| e.at(&path()))?;
            if *v != names[k] {
                *v = names[k].to_string();
            }
        }
    }
    Ok(())
}
