//! The Grand Archive board document: typed, with defaults and validation.

use serde::{Deserialize, Serialize};

use crate::engine::BoardError;
use crate::engine::legacy::resolve_name;

/// Largest number of players, cards per list, costs, etc. accepted.
pub const MAX_PLAYERS: usize = 8;
pub const MAX_LIST: usize = 200;
/// Largest reserve or cost amount accepted.
pub const MAX_AMOUNT: u32 = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    #[default]
    Main,
    Combat,
    End,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Main => "Main Phase",
            Phase::Combat => "combat phase",
            Phase::End => "End Phase",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(default)]
    pub phase: Phase,
    /// The player whose turn it is (the one who declares). Default: the first player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_player: Option<String>,
    pub players: Vec<Player>,
    /// Costs to declare attacks imposed by effects in play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub costs: Vec<Cost>,
    /// Restrictions on attack declarations imposed by effects in play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restrictions: Vec<Restriction>,
    /// The Effects Stack, bottom first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects_stack: Vec<StackEntry>,
    /// Triggers waiting for the next state-based check to go onto the stack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_triggers: Vec<String>,
    /// The attack in progress, once declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<Combat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    /// Reserve available to pay costs.
    #[serde(default)]
    pub reserve: u32,
    pub champion: Card,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allies: Vec<Card>,
    /// Weapons and other objects that can join an attack (or attack, with permission).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<Card>,
    /// Attack cards that have resolved into the champion's intent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intent: Vec<String>,
    /// Effects that instruct this player to attack with an object.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub must_attack: Vec<MustAttack>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    /// Objects only: weapon, item, ... (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default)]
    pub rested: bool,
    /// Keywords; Cleave and Taunt are executed, others are kept as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// The effect that grants this object permission to attack (even while rested).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_permission: Option<String>,
    /// On Attack abilities (each becomes a trigger on the Effects Stack).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_attack: Vec<String>,
    /// State-based triggers that fire when this card becomes rested.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub when_rested: Vec<String>,
}

impl Card {
    pub fn has_keyword(&self, k: &str) -> bool {
        self.keywords
            .iter()
            .any(|w| w.trim().eq_ignore_ascii_case(k))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostKind {
    /// Explicitly an "additional cost" to declare: paid in step 2.d.
    Additional,
    /// Any other extra cost: opted for (or refused) in step 2.e.
    Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// The card or effect imposing the cost (Tariff Ring, Bulwark Sword).
    pub source: String,
    pub kind: CostKind,
    /// Reserve to pay.
    pub reserve: u32,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restriction {
    pub source: String,
    /// The attacking player it binds (default: every player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applies_to: Option<String>,
    /// The attack must target one of these units.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub must_target: Vec<String>,
    /// These objects can't be the attacker or join the attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cannot_attack_with: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StackKind {
    AttackCard,
    OnAttack,
    Trigger,
    #[default]
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackEntry {
    pub name: String,
    #[serde(default)]
    pub kind: StackKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    #[default]
    DeclareAttack,
    EndMainPhase,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    #[serde(default)]
    pub action: Action,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker: Option<String>,
    /// Weapons or objects added to the attack (step 2.b).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub with: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// With Cleave: the player whose units become defending units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defending_player: Option<String>,
    /// Extra costs (by source) the player agrees to pay in step 2.e; others are refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pay_extra: Vec<String>,
}

/// Where a card sits.
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
    /// Every card with its slot: champion, allies, objects.
    pub fn cards(&self) -> impl Iterator<Item = (Slot, &Card)> {
        std::iter::once((Slot::Champion, &self.champion))
            .chain(
                self.allies
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (Slot::Ally(i), c)),
            )
            .chain(
                self.objects
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (Slot::Object(i), c)),
            )
    }
    /// Champion and allies (units that can be targets or defending units).
    pub fn units(&self) -> impl Iterator<Item = (Slot, &Card)> {
        std::iter::once((Slot::Champion, &self.champion)).chain(
            self.allies
                .iter()
                .enumerate()
                .map(|(i, c)| (Slot::Ally(i), c)),
        )
    }
    pub fn slot_of(&self, name: &str) -> Option<Slot> {
        self.cards().find(|(_, c)| c.name == name).map(|(s, _)| s)
    }
}

fn fold(s: &str) -> String {
    crate::text::fold(s)
}

const GAME_NAMES: [&str; 4] = ["grandarchive", "ga", "gatcg", "grandarchivetcg"];

impl Board {
    /// Checks sizes, names and references; fills the turn player.
    pub fn validate(&mut self) -> Result<(), BoardError> {
        if let Some(g) = &self.game
            && !GAME_NAMES.contains(&fold(g).as_str())
        {
            return Err(BoardError::semantic(
                "game",
                format!("this is the Grand Archive engine; the document says game '{g}'"),
            ));
        }
        self.game = Some("grand-archive".to_string());
        if self.players.is_empty() {
            return Err(BoardError::semantic(
                "players",
                "the board needs at least one player",
            ));
        }
        if self.players.len() > MAX_PLAYERS {
            return Err(BoardError::semantic(
                "players",
                format!(
                    "{} players is more than this engine accepts ({MAX_PLAYERS})",
                    self.players.len()
                ),
            ));
        }
        for (name, n) in [
            ("costs", self.costs.len()),
            ("restrictions", self.restrictions.len()),
            ("effects_stack", self.effects_stack.len()),
            ("pending_triggers", self.pending_triggers.len()),
        ] {
            if n > MAX_LIST {
                return Err(BoardError::semantic(
                    name,
                    format!("{n} entries is more than this engine accepts ({MAX_LIST})"),
                ));
            }
        }
        let mut seen_players: Vec<String> = Vec::new();
        for (p, pl) in self.players.iter().enumerate() {
            let path = format!("players[{p}]");
            if pl.name.trim().is_empty() {
                return Err(BoardError::semantic(
                    format!("{path}.name"),
                    "a player needs a name",
                ));
            }
            if seen_players.contains(&fold(&pl.name)) {
                return Err(BoardError::semantic(
                    format!("{path}.name"),
                    format!("two players are named '{}'", pl.name),
                ));
            }
            seen_players.push(fold(&pl.name));
            if pl.reserve > MAX_AMOUNT {
                return Err(BoardError::semantic(
                    format!("{path}.reserve"),
                    format!(
                        "a reserve of {} is more than this engine accepts ({MAX_AMOUNT})",
                        pl.reserve
                    ),
                ));
            }
            for (name, n) in [
                ("allies", pl.allies.len()),
                ("objects", pl.objects.len()),
                ("intent", pl.intent.len()),
                ("must_attack", pl.must_attack.len()),
            ] {
                if n > MAX_LIST {
                    return Err(BoardError::semantic(
                        format!("{path}.{name}"),
                        format!("{n} entries is more than this engine accepts ({MAX_LIST})"),
                    ));
                }
            }
            let mut seen: Vec<String> = Vec::new();
            for (slot, c) in pl.cards() {
                let cp = slot.path(p);
                if fold(&c.name).is_empty() {
                    return Err(BoardError::semantic(
                        format!("{cp}.name"),
                        "a card needs a name",
                    ));
                }
                if seen.contains(&fold(&c.name)) {
                    return Err(BoardError::semantic(
                        format!("{cp}.name"),
                        format!(
                            "{} controls two cards named '{}'; number them ('{} #2') so plays can name each",
                            pl.name, c.name, c.name
                        ),
                    ));
                }
                seen.push(fold(&c.name));
                for (name, n) in [
                    ("keywords", c.keywords.len()),
                    ("on_attack", c.on_attack.len()),
                    ("when_rested", c.when_rested.len()),
                ] {
                    if n > MAX_LIST {
                        return Err(BoardError::semantic(
                            format!("{cp}.{name}"),
                            format!("{n} entries is more than this engine accepts ({MAX_LIST})"),
                        ));
                    }
                }
            }
        }
        // Canonical names for every reference to a card, so the procedure can
        // compare names exactly.
        for p in 0..self.players.len() {
            let resolved: Vec<String> = {
                let pl = &self.players[p];
                let names: Vec<&str> = pl.cards().map(|(_, c)| c.name.as_str()).collect();
                pl.must_attack
                    .iter()
                    .enumerate()
                    .map(|(j, m)| {
                        resolve_name(
                            &m.with,
                            &names,
                            &format!("players[{p}].must_attack[{j}].with"),
                            "card",
                        )
                        .map(str::to_string)
                    })
                    .collect::<Result<_, _>>()?
            };
            for (m, r) in self.players[p].must_attack.iter_mut().zip(resolved) {
                m.with = r;
            }
        }
        let mut all_cards: Vec<String> = Vec::new();
        let mut all_units: Vec<String> = Vec::new();
        for pl in &self.players {
            for (slot, c) in pl.cards() {
                if !all_cards.contains(&c.name) {
                    all_cards.push(c.name.clone());
                }
                if !matches!(slot, Slot::Object(_)) && !all_units.contains(&c.name) {
                    all_units.push(c.name.clone());
                }
            }
        }
        let cards: Vec<&str> = all_cards.iter().map(String::as_str).collect();
        let units: Vec<&str> = all_units.iter().map(String::as_str).collect();
        for (i, c) in self.costs.iter_mut().enumerate() {
            if let Some(w) = &c.when_attacking_with {
                c.when_attacking_with = Some(
                    resolve_name(
                        w,
                        &cards,
                        &format!("costs[{i}].when_attacking_with"),
                        "card",
                    )?
                    .to_string(),
                );
            }
        }
        for (i, r) in self.restrictions.iter_mut().enumerate() {
            for (j, n) in r.must_target.iter_mut().enumerate() {
                *n = resolve_name(
                    n,
                    &units,
                    &format!("restrictions[{i}].must_target[{j}]"),
                    "champion or ally",
                )?
                .to_string();
            }
            for (j, n) in r.cannot_attack_with.iter_mut().enumerate() {
                *n = resolve_name(
                    n,
                    &cards,
                    &format!("restrictions[{i}].cannot_attack_with[{j}]"),
                    "card",
                )?
                .to_string();
            }
        }
        let pnames: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        let pref: Vec<&str> = pnames.iter().map(String::as_str).collect();
        if let Some(t) = &self.turn_player {
            let r = resolve_name(t, &pref, "turn_player", "player")?;
            self.turn_player = Some(r.to_string());
        }
        for (i, c) in self.costs.iter_mut().enumerate() {
            if c.reserve > MAX_AMOUNT {
                return Err(BoardError::semantic(
                    format!("costs[{i}].reserve"),
                    format!(
                        "a cost of {} is more than this engine accepts ({MAX_AMOUNT})",
                        c.reserve
                    ),
                ));
            }
            if let Some(a) = &c.applies_to {
                c.applies_to = Some(
                    resolve_name(a, &pref, &format!("costs[{i}].applies_to"), "player")?
                        .to_string(),
                );
            }
            if let Some(a) = &c.controller {
                c.controller = Some(
                    resolve_name(a, &pref, &format!("costs[{i}].controller"), "player")?
                        .to_string(),
                );
            }
        }
        for (i, r) in self.restrictions.iter_mut().enumerate() {
            if let Some(a) = &r.applies_to {
                r.applies_to = Some(
                    resolve_name(a, &pref, &format!("restrictions[{i}].applies_to"), "player")?
                        .to_string(),
                );
            }
        }
        Ok(())
    }

    pub fn turn_index(&self) -> usize {
        self.turn_player
            .as_ref()
            .and_then(|t| self.players.iter().position(|p| &p.name == t))
            .unwrap_or(0)
    }

    /// The board as a state document (no play).
    pub fn state_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.remove("play");
        }
        v
    }
}
