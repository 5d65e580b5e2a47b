//! The Ashes Reborn board: players, their Phoenixborn and units, whose turn
//! it is, passes, the phase and the round.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::wording::Invalid;
use crate::BoardError;
use crate::kit::bounded::{Count, List, Name, Round};
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
// `wording::Tally::cap` names this number in its sentence (wording may not
// name the board: the board names wording).
const _: () = assert!(MAX_VALUE == 999);

/// A name on the board or in a play (player, Phoenixborn, unit, card, ability).
pub type Said = Name<MAX_NAME>;
/// A life value: 1 to [`MAX_VALUE`].
pub type Life = Count<1, MAX_VALUE>;
/// An attack or damage value: 0 to [`MAX_VALUE`].
pub type Points = Count<0, MAX_VALUE>;

/// The phase of the round the board is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    #[default]
    #[serde(alias = "player turns", alias = "player_turns", alias = "turns")]
    PlayerTurns,
    Recovery,
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Ashes Reborn board document")]
pub struct Board {
    pub game: String,
    /// The round, from 1.
    #[serde(default)]
    pub round: Round,
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
    pub consecutive_passes: List<String, 0, 64>,
    pub players: List<Player, 1, MAX_PLAYERS>,
    /// The player the board gave the turn to while out of the game (the
    /// turn moved on to the next player still in): a play that names no
    /// player is theirs, and refused, not silently someone else's.
    #[serde(skip)]
    #[schemars(skip)]
    pub turn_given_to_out: Option<String>,
    /// The units the procedure removed as destroyed, each with its seat and
    /// as it stood then (its damage dealt): the board after a play no
    /// longer holds them, and its picture draws them with that damage
    /// ([`super::destroyed`]). Never part of the document.
    #[serde(skip)]
    #[schemars(skip)]
    pub destroyed: Vec<(usize, Unit)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: Said,
    pub phoenixborn: Phoenixborn,
    #[serde(default)]
    pub units: List<Unit, 0, MAX_UNITS>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = stats_from_cards)]
pub struct Phoenixborn {
    pub name: Said,
    /// Left out: the card list's life for this Phoenixborn (a name the card
    /// list does not know needs it).
    pub life: Life,
    #[serde(default)]
    pub damage: Points,
    #[serde(default)]
    pub exhausted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = stats_from_cards)]
pub struct Unit {
    pub name: Said,
    /// Left out: the card list's attack for this unit (a name the card list
    /// does not know needs it).
    pub attack: Points,
    /// Left out: the card list's life for this unit (a name the card list
    /// does not know needs it).
    pub life: Life,
    #[serde(default)]
    pub damage: Points,
    #[serde(default)]
    pub exhausted: bool,
    /// Abilities that matter to the rules: `Unit Guard`. Any other ability
    /// is kept but its text is not applied (the ruling says so).
    #[serde(default, skip_serializing_if = "empty")]
    pub abilities: List<Said, 0, 32>,
}

/// The stats a card's entry on the board may leave out, required by the
/// engine but filled from the game's card list before it reads the board
/// (`cards::fill_stats`, in `judge` and a match's plays): not required in
/// the schema, which says what a document may be (it listed `life` as
/// required, and a board without it was judged).
const FILLED_FROM_CARDS: [&str; 2] = ["attack", "life"];

fn stats_from_cards(schema: &mut schemars::Schema) {
    if let Some(serde_json::Value::Array(required)) = schema.get_mut("required") {
        required.retain(|f| !f.as_str().is_some_and(|f| FILLED_FROM_CARDS.contains(&f)));
    }
}

impl Phoenixborn {
    /// Damage ≥ life (what that means is outside the indexed text).
    pub fn destroyed(&self) -> bool {
        *self.damage >= *self.life
    }
}

/// For `skip_serializing_if`: an empty list.
pub(crate) fn empty<T, const MIN: usize, const MAX: usize>(l: &List<T, MIN, MAX>) -> bool {
    l.is_empty()
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
            .map(|p| p.name.to_string())
            .unwrap_or_default()
    }

    pub fn unit(&self, r: UnitRef) -> Option<&Unit> {
        self.players.get(r.0).and_then(|p| p.units.get(r.1))
    }

    pub fn unit_mut(&mut self, r: UnitRef) -> Option<&mut Unit> {
        self.players.get_mut(r.0).and_then(|p| p.units.get_mut(r.1))
    }

    /// The players not in the run of consecutive passes, in seat order
    /// (players out of the game not waited on).
    pub fn yet_to_pass(&self) -> Vec<String> {
        (0..self.players.len())
            .filter(|&p| !self.out(p))
            .map(|p| self.name(p))
            .filter(|n| !self.consecutive_passes.contains(n))
            .collect()
    }

    /// Seat `p`'s Phoenixborn is destroyed while two or more others stand:
    /// the player is out of the game (an assumption, `wording::ASSUME_OUT`).
    pub fn out(&self, p: usize) -> bool {
        let standing = self
            .players
            .iter()
            .filter(|x| !x.phoenixborn.destroyed())
            .count();
        standing >= 2
            && self
                .players
                .get(p)
                .is_some_and(|x| x.phoenixborn.destroyed())
    }

    /// The next seat after `seat` in turn order whose player is not out.
    pub fn next_seat(&self, seat: usize) -> usize {
        let n = self.players.len().max(1);
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&s| !self.out(s))
            .unwrap_or((seat + 1) % n)
    }

    /// A unit's attack value (0 for no unit).
    pub fn attack(&self, r: UnitRef) -> u32 {
        self.unit(r).map_or(0, |u| *u.attack)
    }

    /// A unit's name, as a play names it.
    pub fn unit_name(&self, r: UnitRef) -> Said {
        Name(self.label(r))
    }

    pub fn label(&self, r: UnitRef) -> String {
        self.unit(r).map(|u| u.name.to_string()).unwrap_or_default()
    }

    /// The seat of a player name (resolved), for play and board fields.
    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    /// The opponents of `actor` still in the game, in seat order.
    pub fn opponents(&self, actor: usize) -> Vec<usize> {
        (0..self.players.len())
            .filter(|p| *p != actor && !self.out(*p))
            .collect()
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
        self.find_in(typed, path, |p| p == prefer)
    }

    /// The unit an attack by `actor` targets: looked up among every
    /// opponent's units first, then the actor's own. With three or more
    /// seats a name two opponents share is ambiguous (it once went to the
    /// next seat's unit, and the other could not be attacked: an outside
    /// tester's), named apart by its owner ("Jessa's Mist Spirit").
    pub fn find_target(
        &self,
        typed: &str,
        path: &str,
        actor: usize,
    ) -> Result<UnitRef, BoardError> {
        self.find_in(typed, path, |p| p != actor)
    }

    /// A unit looked up on the seats `first` picks, then on the others;
    /// "Jessa's Mist Spirit" names Jessa's unit wherever it is.
    fn find_in(
        &self,
        typed: &str,
        path: &str,
        first: impl Fn(usize) -> bool,
    ) -> Result<UnitRef, BoardError> {
        if let Some(owned) = self.owned_unit(typed) {
            return owned.map_err(|e| e.at(path));
        }
        let group = |mine: bool| -> Vec<UnitRef> {
            (0..self.players.len())
                .filter(|p| first(*p) == mine)
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
        // The group the ambiguity is in: the first when it is there (an
        // attacker's "Iron" is among their own units, never an opponent's).
        let in_first =
            names::resolve_index(typed, &names_of(&first), "unit").is_err_and(|e| !e.is_unknown());
        let among = if in_first { &first } else { &then };
        match names::resolve_in_groups(typed, &names_of(&first), &names_of(&then), "unit") {
            Ok((which, i)) => Ok(if which == 0 { first[i] } else { then[i] }),
            Err(names::NameError::Ambiguous {
                typed,
                what,
                candidates,
            }) => {
                // Candidates of one name are told apart by their owners.
                let owned: Vec<String> = among
                    .iter()
                    .filter(|r| candidates.contains(&self.label(**r)))
                    .map(|r| self.owned_label(*r))
                    .collect();
                let example = owned.first().cloned().unwrap_or_default();
                let e = names::NameError::Ambiguous {
                    typed,
                    what,
                    candidates: owned,
                };
                Err(BoardError::semantic(
                    path,
                    format!("{e}; name its owner too (“{example}”)"),
                ))
            }
            Err(e) => Err(e.at(path)),
        }
    }

    /// "Owner's Unit": a unit named with its owner, as `Board::find_in`
    /// reads it back.
    pub fn owned_label(&self, r: UnitRef) -> String {
        format!("{}'s {}", self.name(r.0), self.label(r))
    }

    /// The unit "Jessa's Mist Spirit" names (`None`: `typed` names no
    /// player before "'s", or is itself some unit's whole name).
    fn owned_unit(&self, typed: &str) -> Option<Result<UnitRef, names::NameError>> {
        let whole = self
            .players
            .iter()
            .flat_map(|p| &p.units)
            .any(|u| fold(&u.name) == fold(typed));
        if whole {
            return None;
        }
        let (owner, unit) = ["'s ", "’s "]
            .iter()
            .filter_map(|sep| typed.split_once(sep))
            .find(|(owner, _)| self.players.iter().any(|p| fold(&p.name) == fold(owner)))?;
        let p = self
            .players
            .iter()
            .position(|p| fold(&p.name) == fold(owner))?;
        let units: Vec<&str> = self.players[p]
            .units
            .iter()
            .map(|u| u.name.as_str())
            .collect();
        let unit = unit.trim().trim_matches(['"', '\'']);
        Some(names::resolve_index(unit, &units, "unit").map(|u| (p, u)))
    }

    /// How a play names unit `r` so that [`Board::find_target`] finds it
    /// again for `actor`: its name, or with its owner when the name alone
    /// is ambiguous or reads as another unit.
    pub fn target_name(&self, r: UnitRef, actor: usize) -> Said {
        match self.find_target(&self.label(r), "", actor) {
            Ok(found) if found == r => self.unit_name(r),
            _ => Name(self.owned_label(r)),
        }
    }

    /// Damage ≥ life: the assumption every "destroyed" judgement rests on.
    pub fn destroyed(&self, r: UnitRef) -> bool {
        self.unit(r).is_some_and(|u| *u.damage >= *u.life)
    }

    /// Adds damage to a unit (at most [`MAX_VALUE`]: past the life it
    /// destroys all the same); returns (before, after, life, whether the
    /// cap cut it: the ruling says so).
    pub fn damage_unit(&mut self, r: UnitRef, amount: u32) -> (u32, u32, u32, bool) {
        match self.unit_mut(r) {
            Some(u) => {
                let before = *u.damage;
                let sum = before.saturating_add(amount);
                *u.damage = sum.min(MAX_VALUE);
                (before, *u.damage, *u.life, sum > MAX_VALUE)
            }
            None => (0, 0, 0, false),
        }
    }

    /// Adds damage to a player's Phoenixborn (at most [`MAX_VALUE`]: past
    /// the life it destroys all the same); returns (before, after, life,
    /// whether the cap cut it).
    pub fn damage_pb(&mut self, p: usize, amount: u32) -> (u32, u32, u32, bool) {
        match self.players.get_mut(p) {
            Some(pl) => {
                let pb = &mut pl.phoenixborn;
                let before = *pb.damage;
                let sum = before.saturating_add(amount);
                *pb.damage = sum.min(MAX_VALUE);
                (before, *pb.damage, *pb.life, sum > MAX_VALUE)
            }
            None => (0, 0, 0, false),
        }
    }

    pub fn exhaust(&mut self, r: UnitRef) {
        if let Some(u) = self.unit_mut(r) {
            u.exhausted = true;
        }
    }

    /// Removes units (destroyed), highest index first, keeping each in
    /// `destroyed` as it stood.
    pub fn remove_units(&mut self, mut gone: Vec<UnitRef>) {
        gone.sort_unstable();
        gone.dedup();
        for (p, u) in gone.into_iter().rev() {
            if let Some(pl) = self.players.get_mut(p)
                && u < pl.units.len()
            {
                let unit = pl.units.remove(u);
                self.destroyed.push((p, unit));
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

/// Checks unique names (sizes, numbers and names are checked where the
/// document is read, by their types), and writes `turn` and
/// `consecutive_passes` in the board's own spelling of the players' names.
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    for (i, p) in b.players.iter().enumerate() {
        ensure!(
            !b.players[..i].iter().any(|q| fold_eq(&q.name, &p.name)),
            format!("players[{i}].name"),
            Invalid::SamePlayerName { name: &p.name },
        );
        for (j, u) in p.units.iter().enumerate() {
            ensure!(
                *u.damage < *u.life,
                format!("players[{i}].units[{j}].damage"),
                Invalid::DestroyedUnit {
                    unit: &u.name,
                    damage: *u.damage,
                    life: *u.life
                },
            );
            ensure!(
                !p.units[..j].iter().any(|v| fold_eq(&v.name, &u.name)),
                format!("players[{i}].units[{j}].name"),
                Invalid::SameUnitName {
                    player: &p.name,
                    unit: &u.name
                },
            );
        }
    }
    if let Some(t) = b.turn.clone() {
        let s = b.seat(&t, "turn")?;
        // A turn on a player who is out passes to the next one still in,
        // whose main action is still to take.
        let s = match b.out(s) {
            true => {
                b.main_action_used = false;
                b.turn_given_to_out = Some(b.name(s));
                b.next_seat(s)
            }
            false => s,
        };
        b.turn = Some(b.name(s));
    }
    for i in 0..b.consecutive_passes.len() {
        let s = b.seat(
            &b.consecutive_passes[i].clone(),
            &format!("consecutive_passes[{i}]"),
        )?;
        b.consecutive_passes[i] = b.name(s);
        let name = &b.consecutive_passes[i];
        ensure!(
            !b.consecutive_passes[..i].contains(name),
            format!("consecutive_passes[{i}]"),
            Invalid::PassedTwice { name },
        );
        // No play makes this board: the procedure clears the run when
        // another player acts, and ends the phase when all have passed.
        ensure!(
            b.turn.as_ref() != Some(name),
            format!("consecutive_passes[{i}]"),
            Invalid::PassedBeforeOwnTurn { name },
        );
    }
    Ok(())
}
