//! The Magewinds board document: players, fighters, whose turn, the play.

use serde::{Deserialize, Serialize};

use crate::engine::BoardError;

/// Most players a board may list.
pub const MAX_PLAYERS: usize = 8;
/// Most fighters one player may field.
pub const MAX_FIGHTERS: usize = 40;
/// Most plays one document may hold.
pub const MAX_PLAYS: usize = 200;
/// Largest coordinate or distance accepted, in inches.
pub const MAX_INCHES: f64 = 1000.0;
/// Longest name accepted.
pub const MAX_NAME: usize = 80;

fn is_false(b: &bool) -> bool {
    !*b
}

/// A point on the table, in inches: `[x, y]`.
pub type Pos = [f64; 2];

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub game: String,
    /// The player who was first to pass in the Channelling Phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_to_pass: Option<String>,
    /// Whose turn it is; absent = the first turn of the phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Set once no fighter can be activated (13.5).
    #[serde(default)]
    pub phase_over: bool,
    pub players: Vec<Player>,
    /// The last action made in an activation (what reactions trigger on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_action: Option<LastAction>,
    #[serde(default, skip_serializing)]
    pub play: Option<Play>,
    #[serde(default, skip_serializing)]
    pub plays: Option<Vec<Play>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    #[serde(default)]
    pub fighters: Vec<Fighter>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
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

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    pub name: String,
    /// Movement attribute, in inches.
    pub movement: f64,
    #[serde(default)]
    pub counter: Counter,
    /// Position on the table, `[x, y]` in inches.
    pub position: Pos,
    /// A Guard action is in effect (13.4).
    #[serde(default)]
    pub guard: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacks: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<ReactionDef>,
    /// Other named actions (abilities) this fighter has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// Fighters this fighter can see (16.0 is not indexed: the board says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<Vec<String>>,
}

/// A reaction a fighter has: a bare name, or a name with its trigger.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ReactionDef {
    Name(String),
    Full(ReactionFull),
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionFull {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
}

impl ReactionDef {
    pub fn name(&self) -> &str {
        match self {
            ReactionDef::Name(n) => n,
            ReactionDef::Full(f) => &f.name,
        }
    }
    pub fn trigger(&self) -> Option<&str> {
        match self {
            ReactionDef::Name(_) => None,
            ReactionDef::Full(f) => f.trigger.as_deref(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LastAction {
    pub fighter: String,
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

/// One play: an activation (`activate`) or a reaction (`react`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    /// The fighter activated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activate: Option<String>,
    /// The reaction made (with `fighter`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub react: Option<String>,
    /// The reacting fighter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fighter: Option<String>,
    /// The player making the play (default: the fighter's controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// move, attack, guard, or another named action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Move: inches moved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// Move: destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Pos>,
    /// Attack: the target fighter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Attack: which of the fighter's attacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
    /// Step move distance, in inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// Step move destination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_to: Option<Pos>,
    /// A rule (card, ability) states this action is free.
    #[serde(default, skip_serializing_if = "is_false")]
    pub free: bool,
    /// Attack: who the attacker can see at the moment of the attack (after a step move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visible: Option<Vec<String>>,
    /// Reaction: the players agree its trigger condition was met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger_met: Option<bool>,
    /// Reactions made during this action (after its effects are declared).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<Play>,
}

fn check_name(name: &str, path: &str) -> Result<(), BoardError> {
    if name.trim().is_empty() {
        return Err(BoardError::semantic(path, "a name cannot be empty"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(BoardError::semantic(
            path,
            format!("names are limited to {MAX_NAME} characters"),
        ));
    }
    Ok(())
}

pub fn check_inches(v: f64, path: &str, what: &str) -> Result<(), BoardError> {
    if !v.is_finite() || v.abs() > MAX_INCHES {
        return Err(BoardError::semantic(
            path,
            format!("{what} must be a number of inches between -{MAX_INCHES} and {MAX_INCHES}"),
        ));
    }
    Ok(())
}

pub fn check_pos(p: &Pos, path: &str) -> Result<(), BoardError> {
    check_inches(p[0], &format!("{path}[0]"), "x")?;
    check_inches(p[1], &format!("{path}[1]"), "y")
}

impl Board {
    /// Validates sizes and values; names are resolved later by the procedure.
    pub fn validate(&self) -> Result<(), BoardError> {
        if !matches!(crate::text::fold(&self.game).as_str(), "magewinds" | "mw") {
            return Err(BoardError::semantic(
                "game",
                format!(
                    "this is a Magewinds engine, but the board says game '{}'",
                    self.game
                ),
            ));
        }
        if self.players.is_empty() {
            return Err(BoardError::semantic(
                "players",
                "the board needs at least one player",
            ));
        }
        if self.players.len() > MAX_PLAYERS {
            return Err(BoardError::refused(format!(
                "{} players is more than this engine accepts ({MAX_PLAYERS})",
                self.players.len()
            )));
        }
        let mut seen_players: Vec<String> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for (pi, p) in self.players.iter().enumerate() {
            let pp = format!("players[{pi}]");
            check_name(&p.name, &format!("{pp}.name"))?;
            let key = crate::text::fold(&p.name);
            if seen_players.contains(&key) {
                return Err(BoardError::semantic(
                    format!("{pp}.name"),
                    format!("two players are called '{}'", p.name),
                ));
            }
            seen_players.push(key);
            if p.fighters.len() > MAX_FIGHTERS {
                return Err(BoardError::refused(format!(
                    "{} has {} fighters; the limit is {MAX_FIGHTERS}",
                    p.name,
                    p.fighters.len()
                )));
            }
            for (fi, f) in p.fighters.iter().enumerate() {
                let fp = format!("{pp}.fighters[{fi}]");
                check_name(&f.name, &format!("{fp}.name"))?;
                let key = crate::text::fold(&f.name);
                if seen.contains(&key) {
                    return Err(BoardError::semantic(
                        format!("{fp}.name"),
                        format!(
                            "two fighters are called '{}'; give each fighter its own name (e.g. '{} 2')",
                            f.name, f.name
                        ),
                    ));
                }
                seen.push(key);
                if !f.movement.is_finite() || !(0.0..=100.0).contains(&f.movement) {
                    return Err(BoardError::semantic(
                        format!("{fp}.movement"),
                        "Movement must be between 0 and 100 inches",
                    ));
                }
                check_pos(&f.position, &format!("{fp}.position"))?;
                for (ai, a) in f.attacks.iter().enumerate() {
                    check_name(a, &format!("{fp}.attacks[{ai}]"))?;
                }
                for (ri, r) in f.reactions.iter().enumerate() {
                    check_name(r.name(), &format!("{fp}.reactions[{ri}]"))?;
                }
                for (ai, a) in f.actions.iter().enumerate() {
                    check_name(a, &format!("{fp}.actions[{ai}]"))?;
                }
                if let Some(v) = &f.visible
                    && v.len() > MAX_PLAYERS * MAX_FIGHTERS
                {
                    return Err(BoardError::refused("the visible list is too long"));
                }
            }
        }
        if let Some(plays) = &self.plays
            && plays.len() > MAX_PLAYS
        {
            return Err(BoardError::refused(format!(
                "{} plays in one document; the limit is {MAX_PLAYS}",
                plays.len()
            )));
        }
        Ok(())
    }

    /// The board without its play, as JSON (a valid board document).
    pub fn state_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}
