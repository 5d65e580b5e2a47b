//! The Ashes Reborn board document: players, Phoenixborn, units, and the play.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::BoardError;
use crate::text::fold;

/// Largest player count accepted.
pub const MAX_PLAYERS: usize = 8;
/// Largest number of units on one battlefield accepted.
pub const MAX_UNITS: usize = 64;
/// Longest name accepted (player, Phoenixborn, unit, card, ability).
pub const MAX_NAME: usize = 100;
/// Largest attack, life or damage value accepted.
pub const MAX_VALUE: u32 = 999;

/// The phase of the round the board is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    #[default]
    #[serde(alias = "player turns", alias = "player_turns", alias = "turns")]
    PlayerTurns,
    Recovery,
}

/// A board document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub game: String,
    /// Whose turn it is (a player name). Defaults to the acting player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Whether the player whose turn it is already used the turn's main action.
    #[serde(default)]
    pub main_action_used: bool,
    /// The players who passed on the most recent consecutive turns, oldest first.
    #[serde(default)]
    pub consecutive_passes: Vec<String>,
    #[serde(default)]
    pub phase: Phase,
    pub players: Vec<Player>,
    /// The play in dispute (never written back into the resulting state).
    #[serde(default, skip_serializing)]
    pub play: Option<Play>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    pub phoenixborn: Phoenixborn,
    #[serde(default)]
    pub units: Vec<Unit>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Phoenixborn {
    pub name: String,
    pub life: u32,
    #[serde(default)]
    pub damage: u32,
    #[serde(default)]
    pub exhausted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub name: String,
    pub attack: u32,
    pub life: u32,
    #[serde(default)]
    pub damage: u32,
    #[serde(default)]
    pub exhausted: bool,
    /// Ability names that matter to the rules, such as `Unit Guard`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<String>,
}

impl Unit {
    pub fn has_unit_guard(&self) -> bool {
        self.abilities.iter().any(|a| fold(a) == "unitguard")
    }
}

/// The kind of main action in dispute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    #[serde(
        alias = "attack phoenixborn",
        alias = "attack_phoenixborn",
        alias = "attack-pb"
    )]
    AttackPhoenixborn,
    #[serde(alias = "attack unit", alias = "attack_unit")]
    AttackUnit,
    Pass,
    #[serde(
        alias = "pay a cost",
        alias = "pay-a-cost",
        alias = "pay cost",
        alias = "pay_cost",
        alias = "pay"
    )]
    PayCost,
}

/// One string or a list of strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// A blocker placed in front of one attacker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    pub attacker: String,
    pub blocker: String,
    /// Whether the defending player counters with this blocker.
    #[serde(default)]
    pub counter: bool,
}

/// The play in dispute. Fields that do not belong to the action are refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    pub action: Action,
    /// The acting player (defaults to whose turn it is, else the first player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attackers: Vec<String>,
    /// Attack a Phoenixborn: the Phoenixborn (or its player); Attack a Unit: the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Block>,
    /// Order in which attackers resolve (Attack a Phoenixborn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<String>,
    /// `phoenixborn` or a Unit Guard unit (Attack a Unit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<OneOrMany>,
    /// Whether the target unit counters (Attack a Unit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<bool>,
    /// How the countering unit's damage is split among the attackers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub split: BTreeMap<String, u32>,
    /// Pay a Cost: the card played or activated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// Pay a Cost: whether the cost includes the main-action symbol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main_action: Option<bool>,
}

/// Parses and validates a board document (not the play's names: see the procedures).
pub fn parse_board(text: &str) -> Result<Board, BoardError> {
    crate::engine::document::precheck(text)?;
    // JSON boards (match tracking feeds the ruling's state back as JSON) take
    // the fast path; anything serde_json refuses goes through the shared YAML
    // parser, which also gives the error its line:column.
    let json = text.trim_start().starts_with('{');
    let board: Board = match json
        .then(|| serde_json::from_str::<Board>(text).ok())
        .flatten()
    {
        Some(b) => b,
        None => crate::engine::document::parse(text)?,
    };
    validate(&board)?;
    Ok(board)
}

/// Checks the document's own consistency: sizes, numbers, unique names.
pub fn validate(board: &Board) -> Result<(), BoardError> {
    let game = fold(&board.game);
    if game != "ashes" && game != "ashesreborn" {
        return Err(BoardError::semantic(
            "game",
            format!(
                "this is an Ashes Reborn engine; the document says game '{}'",
                board.game
            ),
        ));
    }
    if board.players.is_empty() {
        return Err(BoardError::semantic(
            "players",
            "the board needs at least one player",
        ));
    }
    if board.players.len() > MAX_PLAYERS {
        return Err(BoardError::semantic(
            "players",
            format!(
                "{} players is too many; the limit is {MAX_PLAYERS}",
                board.players.len()
            ),
        ));
    }
    let mut seen: Vec<String> = Vec::new();
    for (i, p) in board.players.iter().enumerate() {
        let path = format!("players[{i}]");
        let key = fold(&p.name);
        if key.is_empty() {
            return Err(BoardError::semantic(
                format!("{path}.name"),
                "a player needs a name",
            ));
        }
        if seen.contains(&key) {
            return Err(BoardError::semantic(
                format!("{path}.name"),
                format!("two players are named '{}'; name them apart", p.name),
            ));
        }
        seen.push(key);
        let pb = &p.phoenixborn;
        if !pb.name.chars().any(char::is_alphanumeric) {
            return Err(BoardError::semantic(
                format!("{path}.phoenixborn.name"),
                "the Phoenixborn needs a name",
            ));
        }
        check_value(pb.life, &format!("{path}.phoenixborn.life"))?;
        check_value(pb.damage, &format!("{path}.phoenixborn.damage"))?;
        if pb.life == 0 {
            return Err(BoardError::semantic(
                format!("{path}.phoenixborn.life"),
                "a Phoenixborn's life must be at least 1",
            ));
        }
        if p.units.len() > MAX_UNITS {
            return Err(BoardError::semantic(
                format!("{path}.units"),
                format!(
                    "{} units on one battlefield is too many; the limit is {MAX_UNITS}",
                    p.units.len()
                ),
            ));
        }
        let mut names: Vec<String> = Vec::new();
        for (j, u) in p.units.iter().enumerate() {
            let up = format!("{path}.units[{j}]");
            let key = fold(&u.name);
            if key.is_empty() {
                return Err(BoardError::semantic(
                    format!("{up}.name"),
                    "a unit needs a name",
                ));
            }
            if names.contains(&key) {
                return Err(BoardError::semantic(
                    format!("{up}.name"),
                    format!(
                        "{} has two units named '{}'; name them apart (for example '{} 2')",
                        p.name, u.name, u.name
                    ),
                ));
            }
            names.push(key);
            check_value(u.attack, &format!("{up}.attack"))?;
            check_value(u.life, &format!("{up}.life"))?;
            check_value(u.damage, &format!("{up}.damage"))?;
            if u.life == 0 {
                return Err(BoardError::semantic(
                    format!("{up}.life"),
                    "a unit's life must be at least 1",
                ));
            }
            if u.abilities.len() > 32 {
                return Err(BoardError::semantic(
                    format!("{up}.abilities"),
                    "too many abilities listed; list only those that matter",
                ));
            }
        }
    }
    let names: Vec<&str> = board.players.iter().map(|p| p.name.as_str()).collect();
    if let Some(t) = &board.turn {
        crate::engine::legacy::resolve_name(t, &names, "turn", "player")?;
    }
    if board.consecutive_passes.len() > 64 {
        return Err(BoardError::semantic(
            "consecutive_passes",
            "the pass history is too long; list only the passes since the last other main action",
        ));
    }
    for (i, n) in board.consecutive_passes.iter().enumerate() {
        crate::engine::legacy::resolve_name(
            n,
            &names,
            &format!("consecutive_passes[{i}]"),
            "player",
        )?;
    }
    if let Some(play) = &board.play {
        let too_many = play.attackers.len() > MAX_UNITS
            || play.blocks.len() > MAX_UNITS
            || play.order.len() > MAX_UNITS
            || play.split.len() > MAX_UNITS
            || play
                .guard
                .as_ref()
                .is_some_and(|g| g.items().len() > MAX_UNITS);
        if too_many {
            return Err(BoardError::semantic(
                "play",
                "the play names more units than a battlefield can hold",
            ));
        }
        for (k, v) in &play.split {
            check_value(*v, &format!("play.split[\"{k}\"]"))?;
        }
    }
    check_names(board)
}

/// Refuses overlong names (they would only slow name matching down).
fn check_names(board: &Board) -> Result<(), BoardError> {
    let long = |s: &str| s.len() > MAX_NAME;
    let any_long = board.turn.as_deref().is_some_and(long)
        || board.consecutive_passes.iter().any(|n| long(n))
        || board.players.iter().any(|p| {
            long(&p.name)
                || long(&p.phoenixborn.name)
                || p.units
                    .iter()
                    .any(|u| long(&u.name) || u.abilities.iter().any(|a| long(a)))
        })
        || board.play.as_ref().is_some_and(|p| {
            p.player.as_deref().is_some_and(long)
                || p.target.as_deref().is_some_and(long)
                || p.card.as_deref().is_some_and(long)
                || p.attackers.iter().chain(&p.order).any(|n| long(n))
                || p.blocks
                    .iter()
                    .any(|b| long(&b.attacker) || long(&b.blocker))
                || p.guard
                    .as_ref()
                    .is_some_and(|g| g.items().into_iter().any(long))
                || p.split.keys().any(|k| long(k))
        });
    if !any_long {
        return Ok(());
    }
    let mut names: Vec<(String, &str)> = Vec::new();
    if let Some(t) = &board.turn {
        names.push(("turn".into(), t));
    }
    for (i, n) in board.consecutive_passes.iter().enumerate() {
        names.push((format!("consecutive_passes[{i}]"), n));
    }
    for (i, p) in board.players.iter().enumerate() {
        names.push((format!("players[{i}].name"), &p.name));
        names.push((
            format!("players[{i}].phoenixborn.name"),
            &p.phoenixborn.name,
        ));
        for (j, u) in p.units.iter().enumerate() {
            names.push((format!("players[{i}].units[{j}].name"), &u.name));
            for (k, a) in u.abilities.iter().enumerate() {
                names.push((format!("players[{i}].units[{j}].abilities[{k}]"), a));
            }
        }
    }
    if let Some(play) = &board.play {
        if let Some(p) = &play.player {
            names.push(("play.player".into(), p));
        }
        if let Some(t) = &play.target {
            names.push(("play.target".into(), t));
        }
        if let Some(c) = &play.card {
            names.push(("play.card".into(), c));
        }
        for (i, a) in play.attackers.iter().enumerate() {
            names.push((format!("play.attackers[{i}]"), a));
        }
        for (i, a) in play.order.iter().enumerate() {
            names.push((format!("play.order[{i}]"), a));
        }
        for (i, b) in play.blocks.iter().enumerate() {
            names.push((format!("play.blocks[{i}].attacker"), &b.attacker));
            names.push((format!("play.blocks[{i}].blocker"), &b.blocker));
        }
        if let Some(g) = &play.guard {
            for n in g.items() {
                names.push(("play.guard".into(), n));
            }
        }
        for k in play.split.keys() {
            names.push(("play.split".into(), k));
        }
    }
    match names
        .into_iter()
        .find(|(_, n)| n.chars().count() > MAX_NAME)
    {
        Some((path, _)) => Err(BoardError::semantic(
            path,
            format!("this name is too long; the limit is {MAX_NAME} characters"),
        )),
        None => Ok(()),
    }
}

fn check_value(v: u32, path: &str) -> Result<(), BoardError> {
    if v > MAX_VALUE {
        return Err(BoardError::semantic(
            path,
            format!("{v} is not a plausible value; the limit is {MAX_VALUE}"),
        ));
    }
    Ok(())
}
