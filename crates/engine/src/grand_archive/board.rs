//! The Grand Archive board: players with their champion, allies and
//! objects, the costs and restrictions in play, the Effects Stack, the
//! phase, whose turn it is, and the combat once an attack is declared.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::wording::Invalid;
use crate::BoardError;
use crate::document::check;
use crate::kit::bounded::{Count, List, Name, Round};
use crate::kit::names;
use crate::text::fold;

/// 1 to 8 players.
pub type Players = List<Player, 1, 8>;
/// Any other list: at most 200 entries.
pub type Many<T> = List<T, 0, 200>;
/// A reserve or a cost: up to 10 000.
pub type Amount = Count<0, 10_000>;
/// A player's or a card's name: at most 100 characters.
pub type Title = Name<100>;

/// The phases of a turn, in order (the order of [`super::PHASES`]). The
/// Combat Phase is entered by declaring an attack and returns to the Main Phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    #[serde(alias = "wake_up")]
    WakeUp,
    Materialize,
    Recollection,
    Draw,
    Combat,
    #[default]
    Main,
    End,
}

impl Phase {
    pub fn name(self) -> &'static str {
        super::PHASES[self as usize].name
    }
}

/// An empty list (left out when written).
fn none<T>(l: &Many<T>) -> bool {
    l.is_empty()
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Grand Archive board document")]
pub struct Board {
    pub game: String,
    #[serde(default)]
    pub phase: Phase,
    /// The turn number, from 1: a new turn each time the turn passes.
    #[serde(default)]
    pub turn_number: Round,
    /// The player whose turn it is (who declares attacks); default: the first player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_player: Option<String>,
    pub players: Players,
    /// Costs to declare attacks imposed by effects in play.
    #[serde(default, skip_serializing_if = "none")]
    pub costs: Many<Cost>,
    /// Restrictions on attack declarations imposed by effects in play.
    #[serde(default, skip_serializing_if = "none")]
    pub restrictions: Many<Restriction>,
    /// The Effects Stack, bottom first.
    #[serde(default, skip_serializing_if = "none")]
    pub effects_stack: Many<StackEntry>,
    /// Triggers waiting for the next state-based check to go onto the stack.
    #[serde(default, skip_serializing_if = "none")]
    pub pending_triggers: Many<String>,
    /// The attack in progress (written by the engine on a legal declaration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<Combat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: Title,
    /// Reserve available to pay costs.
    #[serde(default)]
    pub reserve: Amount,
    pub champion: Card,
    #[serde(default, skip_serializing_if = "none")]
    pub allies: Many<Card>,
    /// Weapons and other objects that can join an attack (or attack, with permission).
    #[serde(default, skip_serializing_if = "none")]
    pub objects: Many<Card>,
    /// Attack cards that have resolved into the champion's intent.
    #[serde(default, skip_serializing_if = "none")]
    pub intent: Many<String>,
    /// Effects that instruct this player to attack with an object.
    #[serde(default, skip_serializing_if = "none")]
    pub must_attack: Many<MustAttack>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: Title,
    /// weapon, item, … (shown in the ruling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default)]
    pub rested: bool,
    /// Keywords; Cleave and Taunt are executed, others are kept (not applied).
    #[serde(default, skip_serializing_if = "none")]
    pub keywords: Many<String>,
    /// The effect that grants this card permission to attack (even while rested).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_permission: Option<String>,
    /// On Attack abilities: each goes onto the Effects Stack (text not applied).
    #[serde(default, skip_serializing_if = "none")]
    pub on_attack: Many<String>,
    /// State-based triggers that fire when this card becomes rested.
    #[serde(default, skip_serializing_if = "none")]
    pub when_rested: Many<String>,
}

impl Card {
    pub fn has_keyword(&self, k: &str) -> bool {
        self.keywords.iter().any(|w| fold(w) == k)
    }
}

/// How a cost to declare is paid: in 2.d, or opted for (or refused) in 2.e.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CostKind {
    /// Explicitly an "additional cost" to declare: paid in step 2.d.
    Additional,
    /// Any other extra cost: opted for (or refused) in step 2.e.
    Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// The card or effect imposing the cost (Tariff Ring, Bulwark Sword).
    pub source: String,
    pub kind: CostKind,
    /// Reserve to pay.
    pub reserve: Amount,
    /// The player who controls the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    /// The attacking player it applies to (default: every player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applies_to: Option<String>,
    /// Applies only when this object is the attacker or joins the attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when_attacking_with: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Restriction {
    pub source: String,
    /// The attacking player it binds (default: every player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applies_to: Option<String>,
    /// The attack must target one of these units.
    #[serde(default, skip_serializing_if = "none")]
    pub must_target: Many<String>,
    /// These objects can't be the attacker or join the attack.
    #[serde(default, skip_serializing_if = "none")]
    pub cannot_attack_with: Many<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MustAttack {
    /// The object the player must attack with.
    pub with: String,
    /// The effect that imposes the obligation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Whether an attack with it was attempted this turn.
    #[serde(default)]
    pub attempted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StackKind {
    AttackCard,
    OnAttack,
    Trigger,
    #[default]
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackEntry {
    pub name: String,
    #[serde(default)]
    pub kind: StackKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Combat {
    pub attacking_player: String,
    pub attacker: String,
    /// Objects that joined the attack (not attackers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    /// The attack target (absent for a Cleave attack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub defending_player: String,
    pub defending_units: Vec<String>,
}

/// Where a card sits on its controller's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Champion,
    Ally(usize),
    Object(usize),
}

impl Slot {
    pub fn role(self) -> &'static str {
        match self {
            Slot::Champion => "champion",
            Slot::Ally(_) => "ally",
            Slot::Object(_) => "object",
        }
    }

    pub fn is_unit(self) -> bool {
        !matches!(self, Slot::Object(_))
    }

    pub fn path(self, p: usize) -> String {
        match self {
            Slot::Champion => format!("players[{p}].champion"),
            Slot::Ally(i) => format!("players[{p}].allies[{i}]"),
            Slot::Object(i) => format!("players[{p}].objects[{i}]"),
        }
    }
}

impl Player {
    pub fn card(&self, s: Slot) -> Option<&Card> {
        match s {
            Slot::Champion => Some(&self.champion),
            Slot::Ally(i) => self.allies.get(i),
            Slot::Object(i) => self.objects.get(i),
        }
    }

    pub fn card_mut(&mut self, s: Slot) -> Option<&mut Card> {
        match s {
            Slot::Champion => Some(&mut self.champion),
            Slot::Ally(i) => self.allies.get_mut(i),
            Slot::Object(i) => self.objects.get_mut(i),
        }
    }

    /// Champion and allies: the units that can be targets or defending units.
    pub fn units(&self) -> Vec<(Slot, &Card)> {
        let allies = self.allies.iter().enumerate();
        let mut v = vec![(Slot::Champion, &self.champion)];
        v.extend(allies.map(|(i, c)| (Slot::Ally(i), c)));
        v
    }

    /// Every card: champion, allies, objects.
    pub fn cards(&self) -> Vec<(Slot, &Card)> {
        let objects = self.objects.iter().enumerate();
        let mut v = self.units();
        v.extend(objects.map(|(i, c)| (Slot::Object(i), c)));
        v
    }
}

impl Board {
    pub fn names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.name.as_str()).collect()
    }

    pub fn name(&self, p: usize) -> String {
        self.players
            .get(p)
            .map_or_else(String::new, |p| p.name.to_string())
    }

    pub fn card_name(&self, p: usize, s: Slot) -> String {
        let card = self.players.get(p).and_then(|pl| pl.card(s));
        card.map(|c| c.name.to_string()).unwrap_or_default()
    }

    /// The seat of a player name (resolved), for play and board fields.
    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    /// The seat whose turn it is (the first player when the board does not say).
    pub fn turn_seat(&self) -> usize {
        let t = self.turn_player.as_deref();
        let seat = self.players.iter().position(|p| Some(p.name.as_str()) == t);
        seat.unwrap_or(0)
    }

    /// Seats other than `p`.
    pub fn opponents(&self, p: usize) -> Vec<usize> {
        (0..self.players.len()).filter(|&o| o != p).collect()
    }
}

/// The names a reference may take, and what they are.
struct Known(Vec<String>, &'static str);

impl Known {
    /// Writes a reference in the board's own spelling.
    fn fix(&self, name: &mut String, path: impl FnOnce() -> String) -> Result<(), BoardError> {
        let refs: Vec<&str> = self.0.iter().map(String::as_str).collect();
        let found = names::resolve(name, &refs, self.1).map_err(|e| e.at(&path()))?;
        if found != name.as_str() {
            *name = found.to_string();
        }
        Ok(())
    }

    fn fix_opt(
        &self,
        name: &mut Option<String>,
        path: impl FnOnce() -> String,
    ) -> Result<(), BoardError> {
        name.as_mut().map_or(Ok(()), |n| self.fix(n, path))
    }
}

fn player_ok(pl: &Player, p: usize, seen: &mut Vec<String>) -> Result<(), BoardError> {
    let name = fold(&pl.name);
    if seen.contains(&name) {
        let twice = Invalid::SameName(&pl.name);
        return check(false, format!("players[{p}].name"), twice);
    }
    seen.push(name);
    let mut cards: Vec<String> = Vec::new();
    for (slot, c) in pl.cards() {
        let name = fold(&c.name);
        if cards.contains(&name) {
            let (who, card) = (&pl.name, &c.name);
            let twice = Invalid::SameCard { player: who, card };
            return check(false, format!("{}.name", slot.path(p)), twice);
        }
        cards.push(name);
    }
    Ok(())
}

/// Checks unique names (sizes and numbers are checked where the document is
/// read, by their types), and writes every name reference (whose turn,
/// costs, restrictions, obligations) in the board's own spelling.
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    let mut seen = Vec::new();
    for (p, pl) in b.players.iter().enumerate() {
        player_ok(pl, p, &mut seen)?;
    }
    // The name lists are built only when a reference may need them.
    let names = |f: fn(&Player) -> Vec<(Slot, &Card)>, needed: bool| {
        let each = b
            .players
            .iter()
            .flat_map(|p| f(p).into_iter().map(|(_, c)| c.name.to_string()));
        if needed { each.collect() } else { Vec::new() }
    };
    let (costs, rules) = (!b.costs.is_empty(), !b.restrictions.is_empty());
    let players = Known(
        b.players.iter().map(|p| p.name.to_string()).collect(),
        "player",
    );
    let cards = Known(names(Player::cards, costs || rules), "card");
    let units = Known(names(Player::units, rules), "champion or ally");
    players.fix_opt(&mut b.turn_player, || "turn_player".into())?;
    for (p, pl) in b.players.iter_mut().enumerate() {
        if pl.must_attack.is_empty() {
            continue;
        }
        let own: Vec<String> = pl.cards().iter().map(|(_, c)| c.name.to_string()).collect();
        let own = Known(own, "card");
        for (j, m) in pl.must_attack.iter_mut().enumerate() {
            own.fix(&mut m.with, || {
                format!("players[{p}].must_attack[{j}].with")
            })?;
        }
    }
    for (i, c) in b.costs.iter_mut().enumerate() {
        players.fix_opt(&mut c.applies_to, || format!("costs[{i}].applies_to"))?;
        players.fix_opt(&mut c.controller, || format!("costs[{i}].controller"))?;
        cards.fix_opt(&mut c.when_attacking_with, || {
            format!("costs[{i}].when_attacking_with")
        })?;
    }
    for (i, r) in b.restrictions.iter_mut().enumerate() {
        players.fix_opt(&mut r.applies_to, || {
            format!("restrictions[{i}].applies_to")
        })?;
        for (j, n) in r.must_target.iter_mut().enumerate() {
            units.fix(n, || format!("restrictions[{i}].must_target[{j}]"))?;
        }
        for (j, n) in r.cannot_attack_with.iter_mut().enumerate() {
            cards.fix(n, || format!("restrictions[{i}].cannot_attack_with[{j}]"))?;
        }
    }
    Ok(())
}
