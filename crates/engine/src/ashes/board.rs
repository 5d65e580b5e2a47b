//! The Ashes Reborn board: players, their Phoenixborn and units, whose turn
//! it is, passes, the phase and the round.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::BoardError;
use crate::kit::names;
use crate::text::{fold, fold_eq};

/// Largest player count accepted.
pub const MAX_PLAYERS: usize = 8;
/// Largest number of units on one battlefield accepted.
pub const MAX_UNITS: usize = 64;
/// Longest name accepted (player, Phoenixborn, unit, card, ability).
pub const MAX_NAME: usize = 100;
/// Largest attack, life or damage value accepted.
pub const MAX_VALUE: u32 = 999;

/// The phase of the round the board is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    #[default]
    #[serde(alias = "player turns", alias = "player_turns", alias = "turns")]
    PlayerTurns,
    Recovery,
}

fn first_round() -> u32 {
    1
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Ashes Reborn board document")]
pub struct Board {
    pub game: String,
    /// The round, from 1.
    #[serde(default = "first_round")]
    pub round: u32,
    #[serde(default)]
    pub phase: Phase,
    /// Whose turn it is (a player name). Defaults to the first player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// The player whose turn it is has already used this turn's main action.
    #[serde(default)]
    pub main_action_used: bool,
    /// Players who passed on the most recent consecutive turns, oldest first
    /// (cleared by any other main action).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub consecutive_passes: Vec<String>,
    #[schemars(length(min = 1, max = 8))]
    pub players: Vec<Player>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    pub phoenixborn: Phoenixborn,
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub units: Vec<Unit>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phoenixborn {
    pub name: String,
    #[schemars(range(min = 1, max = 999))]
    pub life: u32,
    #[serde(default)]
    #[schemars(range(max = 999))]
    pub damage: u32,
    #[serde(default)]
    pub exhausted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub name: String,
    #[schemars(range(max = 999))]
    pub attack: u32,
    #[schemars(range(min = 1, max = 999))]
    pub life: u32,
    #[serde(default)]
    #[schemars(range(max = 999))]
    pub damage: u32,
    #[serde(default)]
    pub exhausted: bool,
    /// Abilities that matter to the rules: `Unit Guard`. Any other ability
    /// is kept but its text is not applied (the ruling says so).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 32))]
    pub abilities: Vec<String>,
}

impl Unit {
    pub fn has_unit_guard(&self) -> bool {
        self.abilities.iter().any(|a| fold(a) == "unitguard")
    }
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
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    pub fn unit(&self, r: UnitRef) -> Option<&Unit> {
        self.players.get(r.0).and_then(|p| p.units.get(r.1))
    }

    pub fn unit_mut(&mut self, r: UnitRef) -> Option<&mut Unit> {
        self.players.get_mut(r.0).and_then(|p| p.units.get_mut(r.1))
    }

    pub fn label(&self, r: UnitRef) -> String {
        self.unit(r).map(|u| u.name.clone()).unwrap_or_default()
    }

    /// The seat of a player name (resolved), for play and board fields.
    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    /// The seat whose turn it is (the first player when the board does not say).
    pub fn turn_seat(&self) -> usize {
        self.turn
            .as_deref()
            .and_then(|t| self.players.iter().position(|p| p.name == t))
            .unwrap_or(0)
    }

    /// The seats of units named in `list`, looked up on `prefer`'s
    /// battlefield first, then on the others (so an illegal choice still
    /// reaches the procedure, which says why it is illegal).
    pub fn find_unit(&self, typed: &str, path: &str, prefer: usize) -> Result<UnitRef, BoardError> {
        let group = |mine: bool| -> Vec<UnitRef> {
            (0..self.players.len())
                .filter(|p| (*p == prefer) == mine)
                .flat_map(|p| (0..self.players[p].units.len()).map(move |u| (p, u)))
                .collect()
        };
        let (first, then) = (group(true), group(false));
        let names_of = |g: &[UnitRef]| -> Vec<&str> {
            g.iter()
                .filter_map(|r| self.unit(*r))
                .map(|u| u.name.as_str())
                .collect()
        };
        let (which, i) =
            names::resolve_in_groups(typed, &names_of(&first), &names_of(&then), "unit")
                .map_err(|e| e.at(path))?;
        Ok(if which == 0 { first[i] } else { then[i] })
    }

    /// Damage ≥ life: the assumption every "destroyed" judgement rests on.
    pub fn destroyed(&self, r: UnitRef) -> bool {
        self.unit(r).is_some_and(|u| u.damage >= u.life)
    }

    /// Adds damage to a unit; returns (before, after, life).
    pub fn damage_unit(&mut self, r: UnitRef, amount: u32) -> (u32, u32, u32) {
        match self.unit_mut(r) {
            Some(u) => {
                let before = u.damage;
                u.damage = u.damage.saturating_add(amount);
                (before, u.damage, u.life)
            }
            None => (0, 0, 0),
        }
    }

    /// Adds damage to a player's Phoenixborn; returns (before, after, life).
    pub fn damage_pb(&mut self, p: usize, amount: u32) -> (u32, u32, u32) {
        match self.players.get_mut(p) {
            Some(pl) => {
                let before = pl.phoenixborn.damage;
                pl.phoenixborn.damage = before.saturating_add(amount);
                (before, pl.phoenixborn.damage, pl.phoenixborn.life)
            }
            None => (0, 0, 0),
        }
    }

    pub fn exhaust(&mut self, r: UnitRef) {
        if let Some(u) = self.unit_mut(r) {
            u.exhausted = true;
        }
    }

    /// Removes units (destroyed), highest index first.
    pub fn remove_units(&mut self, mut gone: Vec<UnitRef>) {
        gone.sort_unstable();
        gone.dedup();
        for (p, u) in gone.into_iter().rev() {
            if let Some(pl) = self.players.get_mut(p)
                && u < pl.units.len()
            {
                pl.units.remove(u);
            }
        }
    }
}

/// Fails with a board error at `path` when `ok` is false; the path and the
/// message are formatted only then (validation runs on every board read).
macro_rules! ensure {
    ($ok:expr, $path:expr, $msg:expr $(,)?) => {
        if !$ok {
            return Err(BoardError::semantic($path, $msg));
        }
    };
}

fn check_value(v: u32, path: impl FnOnce() -> String) -> Result<(), BoardError> {
    ensure!(
        v <= MAX_VALUE,
        path(),
        format!("{v} is not a plausible value; the limit is {MAX_VALUE}"),
    );
    Ok(())
}

fn check_name(n: &str, path: impl Fn() -> String, what: &str) -> Result<(), BoardError> {
    ensure!(
        n.chars().any(char::is_alphanumeric),
        path(),
        format!("{what} needs a name"),
    );
    ensure!(
        n.chars().count() <= MAX_NAME,
        path(),
        format!("this name is too long; the limit is {MAX_NAME} characters"),
    );
    Ok(())
}

/// One battlefield's units: names, numbers, abilities.
fn validate_units(p: &Player, i: usize) -> Result<(), BoardError> {
    for (j, u) in p.units.iter().enumerate() {
        let path = |field: &str| format!("players[{i}].units[{j}].{field}");
        check_name(&u.name, || path("name"), "a unit")?;
        ensure!(
            !p.units[..j].iter().any(|v| fold_eq(&v.name, &u.name)),
            path("name"),
            format!(
                "{} has two units named '{}'; name them apart (for example '{} 2')",
                p.name, u.name, u.name
            ),
        );
        check_value(u.attack, || path("attack"))?;
        check_value(u.life, || path("life"))?;
        check_value(u.damage, || path("damage"))?;
        ensure!(
            u.life >= 1,
            path("life"),
            "a unit's life must be at least 1"
        );
        ensure!(
            u.abilities.len() <= 32,
            path("abilities"),
            "too many abilities listed; list only those that matter",
        );
        for (k, a) in u.abilities.iter().enumerate() {
            check_name(
                a,
                || format!("players[{i}].units[{j}].abilities[{k}]"),
                "an ability",
            )?;
        }
    }
    Ok(())
}

/// Checks sizes, numbers and unique names, and writes `turn` and
/// `consecutive_passes` in the board's own spelling of the players' names.
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    ensure!(
        !b.players.is_empty(),
        "players",
        "the board needs at least one player",
    );
    ensure!(
        b.players.len() <= MAX_PLAYERS,
        "players",
        format!(
            "{} players is too many; the limit is {MAX_PLAYERS}",
            b.players.len()
        ),
    );
    ensure!(b.round >= 1, "round", "rounds count from 1");
    for (i, p) in b.players.iter().enumerate() {
        let path = |field: &str| format!("players[{i}].{field}");
        check_name(&p.name, || path("name"), "a player")?;
        ensure!(
            !b.players[..i].iter().any(|q| fold_eq(&q.name, &p.name)),
            path("name"),
            format!("two players are named '{}'; name them apart", p.name),
        );
        let pb = &p.phoenixborn;
        check_name(&pb.name, || path("phoenixborn.name"), "the Phoenixborn")?;
        check_value(pb.life, || path("phoenixborn.life"))?;
        check_value(pb.damage, || path("phoenixborn.damage"))?;
        ensure!(
            pb.life >= 1,
            path("phoenixborn.life"),
            "a Phoenixborn's life must be at least 1",
        );
        ensure!(
            p.units.len() <= MAX_UNITS,
            path("units"),
            format!(
                "{} units on one battlefield is too many; the limit is {MAX_UNITS}",
                p.units.len()
            ),
        );
        validate_units(p, i)?;
    }
    if let Some(t) = b.turn.clone() {
        let s = b.seat(&t, "turn")?;
        b.turn = Some(b.name(s));
    }
    ensure!(
        b.consecutive_passes.len() <= 64,
        "consecutive_passes",
        "the pass history is too long; list only the passes since the last other main action",
    );
    for i in 0..b.consecutive_passes.len() {
        let s = b.seat(
            &b.consecutive_passes[i].clone(),
            &format!("consecutive_passes[{i}]"),
        )?;
        b.consecutive_passes[i] = b.name(s);
    }
    Ok(())
}
