//! The TI4 board: players with their strategy cards, passed flags and
//! victory points, the phase and round, whose turn it is and what that turn
//! holds so far.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::rules::{N2, R3, R4, R4_1, R5};
use super::wording::{Fault, Invalid};
use crate::BoardError;
use crate::document::check;
use crate::kit::bounded::{Count, List, Name, Round};
use crate::kit::names::{self, NameError};
use crate::text::{fold, fold_eq};

/// Most players a game of TI4 seats (with the Prophecy of Kings expansion).
pub const MAX_PLAYERS: usize = 8;
/// Fewest players the action-phase rules speak of.
pub const MIN_PLAYERS: usize = 3;
/// Longest name or free-text field accepted.
pub const MAX_TEXT: usize = 200;
/// Most abilities recorded in one turn (per timing).
pub const MAX_ABILITIES: usize = 50;

/// A player's or a strategy card's name: up to [`MAX_TEXT`] characters.
pub type Said = Name<MAX_TEXT>;
/// A strategy card's initiative number: 0 to 99.
pub type Initiative = Count<0, 99>;
/// Victory points: the score kept, or the score that wins (from 1).
pub type Points<const MIN: u32> = Count<MIN, 99>;
/// The abilities of one timing resolved this turn (at most [`MAX_ABILITIES`]).
pub type Abilities = List<String, 0, MAX_ABILITIES>;

/// The eight strategy cards of the base game, in initiative order (1 to 8).
pub const STANDARD_CARDS: [&str; 8] = [
    "Leadership",
    "Diplomacy",
    "Politics",
    "Construction",
    "Trade",
    "Warfare",
    "Technology",
    "Imperial",
];

/// The phase of the game round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players choose strategy cards (not in the indexed text).
    Strategy,
    #[default]
    Action,
    /// Once every player has passed (rule 5).
    Status,
}

/// What the player whose turn it is has done with the turn so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    /// Nothing yet: the turn's action (or pass) is still to come.
    #[default]
    None,
    Strategic,
    Tactical,
    Component,
    Pass,
}

impl TurnAction {
    pub fn is_action(self) -> bool {
        matches!(
            self,
            TurnAction::Strategic | TurnAction::Tactical | TurnAction::Component
        )
    }

    pub fn label(self) -> &'static str {
        match self {
            TurnAction::None => "nothing yet",
            TurnAction::Strategic => "a strategic action",
            TurnAction::Tactical => "a tactical action",
            TurnAction::Component => "a component action",
            TurnAction::Pass => "passed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: Said,
    /// Defaults to the printed number for the eight base-game cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<Initiative>,
    /// Exhausted (face down) or readied (the default).
    #[serde(default)]
    pub exhausted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: Said,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    /// Two each with three or four players, one otherwise (none yet during
    /// the strategy phase).
    #[serde(default)]
    pub strategy_cards: List<Card, 0, 2>,
    #[serde(default)]
    pub passed: bool,
    /// Victory points, when the board keeps the score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<Points<0>>,
}

/// The current turn: what its player has done so far.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThisTurn {
    #[serde(default)]
    pub action: TurnAction,
    /// The strategy card, when the action was a strategic action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// "At the start of your turn" abilities resolved this turn.
    #[serde(default, skip_serializing_if = "no_abilities")]
    pub start_of_turn: Abilities,
    /// Abilities resolved at the end of this turn's action.
    #[serde(default, skip_serializing_if = "no_abilities")]
    pub end_of_action: Abilities,
    /// "At the end of your turn" abilities resolved this turn.
    #[serde(default, skip_serializing_if = "no_abilities")]
    pub end_of_turn: Abilities,
    /// The players who resolved the secondary ability of this turn's
    /// strategic action's card, each once (a second time is recorded with
    /// its reading, not listed again).
    #[serde(default, skip_serializing_if = "no_players")]
    pub secondaries: Seats,
}

/// Players' names, at most one per seat.
pub type Seats = List<String, 0, MAX_PLAYERS>;

fn no_players(s: &Seats) -> bool {
    s.is_empty()
}

impl ThisTurn {
    pub fn is_empty(&self) -> bool {
        *self == ThisTurn::default()
    }
}

fn no_abilities(a: &Abilities) -> bool {
    a.is_empty()
}

/// A board document, without its play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Twilight Imperium 4 board document")]
pub struct Board {
    #[serde(default)]
    pub game: String,
    /// The game round, from 1.
    #[serde(default)]
    pub round: Round,
    #[serde(default)]
    pub phase: Phase,
    /// 3 to 8 players, in any order (turn order comes from initiative).
    pub players: List<Player, MIN_PLAYERS, MAX_PLAYERS>,
    /// Whose turn it is (left out: the first player in initiative order who
    /// has not passed, said so in the ruling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    #[serde(default, skip_serializing_if = "ThisTurn::is_empty")]
    pub this_turn: ThisTurn,
    /// The victory points that win the game (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points_to_win: Option<Points<1>>,
}

impl Board {
    pub fn names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.name.as_str()).collect()
    }

    pub fn name(&self, p: usize) -> String {
        self.players[p].name.to_string()
    }

    /// The seat of a typed player name.
    pub fn seat(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        names::resolve_index(typed, &self.names(), "player").map_err(|e| e.at(path))
    }

    /// Three- and four-player games: two strategy cards each.
    pub fn two_cards(&self) -> bool {
        self.players.len() <= 4
    }

    pub fn cards_each(&self) -> usize {
        if self.two_cards() { 2 } else { 1 }
    }

    /// The rule that sets how many cards a player must exhaust before passing.
    pub fn card_rule(&self) -> &'static str {
        if self.two_cards() { R4_1 } else { R4 }
    }

    /// A player's place in initiative order: the lowest number among their
    /// strategy cards.
    pub fn initiative(&self, p: usize) -> u8 {
        self.players[p]
            .strategy_cards
            .iter()
            .filter_map(|c| c.initiative.map(|i| i.get() as u8))
            .min()
            .unwrap_or(u8::MAX)
    }

    /// Seats in initiative order.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| (self.initiative(i), i));
        order
    }

    /// The seats in initiative order that have not passed.
    pub fn waiting(&self) -> Vec<usize> {
        self.order()
            .into_iter()
            .filter(|&i| !self.players[i].passed)
            .collect()
    }

    /// The players of `seats` by name: "A", "A and B", "A, B and C".
    pub fn list(&self, seats: &[usize]) -> String {
        let mut out = String::new();
        for (k, &i) in seats.iter().enumerate() {
            if k > 0 {
                out.push_str(if k + 1 == seats.len() { " and " } else { ", " });
            }
            out.push_str(&self.players[i].name);
        }
        out
    }

    pub fn readied(&self, p: usize) -> Vec<String> {
        let cards = self.players[p].strategy_cards.iter();
        cards
            .filter(|c| !c.exhausted)
            .map(|c| c.name.to_string())
            .collect()
    }

    /// Every strategy card in play: (owner, index in their cards).
    pub fn cards(&self) -> Vec<(usize, usize, &str)> {
        let each = self.players.iter().enumerate();
        each.flat_map(|(i, p)| {
            p.strategy_cards
                .iter()
                .enumerate()
                .map(move |(j, c)| (i, j, c.name.as_str()))
        })
        .collect()
    }

    /// A typed strategy card among all cards in play: (owner, index).
    pub fn find_card(&self, typed: &str, path: &str) -> Result<(usize, usize), BoardError> {
        let all = self.cards();
        let names: Vec<&str> = all.iter().map(|c| c.2).collect();
        let i =
            names::resolve_index(typed, &names, "strategy card in play").map_err(|e| e.at(path))?;
        Ok((all[i].0, all[i].1))
    }
}

/// Checks what the types cannot say (unique names, cards held, the phase),
/// fills in base-game initiative numbers, and writes `turn` and
/// `this_turn.card` in the board's spelling.
pub fn validate(b: &mut Board) -> Result<(), BoardError> {
    let n = b.players.len();
    if b.game != "ti4" {
        b.game = "ti4".into();
    }
    let (want, rule) = (b.cards_each(), b.card_rule());
    // Cards seen so far: folded name, (seat, card index), initiative. Names
    // are looked up only for a message.
    let mut cards: Vec<(String, (usize, usize), u32)> = Vec::new();
    for i in 0..n {
        let (done, rest) = b.players.split_at_mut(i);
        let p = &mut rest[0];
        // Paths and messages are written only when a check fails.
        let path = |f: &str| format!("players[{i}].{f}");
        if done.iter().any(|q| fold_eq(&q.name, &p.name)) {
            return check(false, path("name"), Invalid::SameName(&p.name));
        }
        let held = p.strategy_cards.len();
        let ok = held == want || (b.phase == Phase::Strategy && held < want);
        if !ok {
            let msg = Invalid::Holds {
                player: &p.name,
                held,
                players: n,
                want,
            };
            return Err(BoardError::semantic(path("strategy_cards"), msg).with_rule(rule));
        }
        for j in 0..held {
            let card_path = || path(&format!("strategy_cards[{j}]"));
            let (key, init) = card(&mut p.strategy_cards[j], card_path)?;
            let c = &p.strategy_cards[j];
            let held_by = |(seat, k): (usize, usize)| match done.get(seat) {
                Some(q) => (&q.strategy_cards[k].name, &q.name),
                None => (&p.strategy_cards[k].name, &p.name),
            };
            if let Some((_, at, _)) = cards.iter().find(|k| k.0 == key) {
                let (_, owner) = held_by(*at);
                let msg = Invalid::HeldBy {
                    card: &c.name,
                    owner,
                };
                return Err(BoardError::semantic(format!("{}.name", card_path()), msg));
            }
            if let Some((_, at, _)) = cards.iter().find(|k| k.2 == init) {
                let (other, _) = held_by(*at);
                let msg = Invalid::InitiativeTwice {
                    initiative: init,
                    other,
                    card: &c.name,
                };
                return Err(BoardError::semantic(
                    format!("{}.initiative", card_path()),
                    msg,
                ));
            }
            cards.push((key, (i, j), init));
        }
        if let Some(c) = p.strategy_cards.iter().find(|c| p.passed && !c.exhausted) {
            let msg = Invalid::PassedReadied {
                player: &p.name,
                card: &c.name,
            };
            return Err(BoardError::semantic(path("passed"), msg).with_rule(rule));
        }
    }
    phase(b)?;
    turn(b)
}

/// A strategy card's name (canonical for base-game cards) and initiative;
/// returns its folded name and its initiative.
fn card(c: &mut Card, path: impl Fn() -> String) -> Result<(String, u32), BoardError> {
    let key = fold(&c.name);
    if let Some(k) = STANDARD_CARDS
        .iter()
        .position(|n| n.eq_ignore_ascii_case(&key))
    {
        if c.name != STANDARD_CARDS[k] {
            c.name = Name(STANDARD_CARDS[k].to_string());
        }
        c.initiative = c.initiative.or(Some(Count(k as u32 + 1)));
    }
    let Some(init) = c.initiative.map(Count::get) else {
        let resolved = names::resolve(&c.name, &STANDARD_CARDS, "card").map(str::to_string);
        let suggestion = match resolved {
            Ok(m)
            | Err(NameError::Unknown {
                suggestion: Some(m),
                ..
            }) => Some(m),
            Err(_) => None,
        };
        // A typo of a base card ("Leadershp") is the name's fault, said at
        // the name; another card lacks its initiative (it was said at
        // `.initiative`, a field the typo's board has no reason to give).
        let field = match suggestion {
            Some(_) => "name",
            None => "initiative",
        };
        let msg = Invalid::NotBaseCard {
            card: &c.name,
            suggestion: suggestion.as_deref(),
            base: &STANDARD_CARDS,
        };
        return Err(BoardError::semantic(format!("{}.{field}", path()), msg));
    };
    Ok((key, init))
}

/// The phase agrees with who has passed (rule 5); nobody takes turns during
/// the strategy phase.
fn phase(b: &Board) -> Result<(), BoardError> {
    let waiting = b.waiting();
    let wrong = match b.phase {
        Phase::Status if !waiting.is_empty() => {
            let (waiting, count) = (&b.list(&waiting), waiting.len());
            Invalid::StatusNotPassed { waiting, count }.to_string()
        }
        Phase::Action if waiting.is_empty() => Invalid::ActionAllPassed.to_string(),
        Phase::Strategy => {
            let msg = Invalid::StrategyTurn;
            return check(b.turn.is_none() && b.this_turn.is_empty(), "turn", msg);
        }
        _ => return Ok(()),
    };
    Err(BoardError::semantic("phase", wrong).with_rule(R5))
}

/// `this_turn.card` naming a card another player holds: said so (it is
/// known, just not the turn player's).
fn other_players_card(b: &Board, i: usize, typed: &str) -> Option<BoardError> {
    let (owner, ci) = b
        .find_card(typed, "this_turn.card")
        .ok()
        .filter(|c| c.0 != i)?;
    let (card, player) = (
        &b.players[owner].strategy_cards[ci].name,
        &b.players[i].name,
    );
    let (owner, held) = (&b.players[owner].name, b.players[i].strategy_cards.iter());
    let held: Vec<&str> = held.map(|c| c.name.as_str()).collect();
    let e = Invalid::OthersCard {
        card,
        owner,
        player,
        held: &held.join(", "),
    };
    Some(BoardError::semantic("this_turn.card", e))
}

/// `turn` in the board's spelling, and `this_turn` consistent with it.
fn turn(b: &mut Board) -> Result<(), BoardError> {
    let Some(typed) = b.turn.clone() else {
        return check(b.this_turn.is_empty(), "turn", Invalid::TurnUnsaid);
    };
    let i = b.seat(&typed, "turn")?;
    b.turn = Some(b.name(i));
    let (p, t) = (&b.players[i], &b.this_turn);
    let (passing, none) = (t.action == TurnAction::Pass, t.action == TurnAction::None);
    let fault = if b.phase == Phase::Status && !passing {
        Some(("turn", Fault::StatusTurn, Some(R5)))
    } else if p.passed && !passing {
        Some(("turn", Fault::PassedTurn, Some(R3)))
    } else if passing && !p.passed {
        Some(("this_turn.action", Fault::PassNotMarked, None))
    } else if !t.action.is_action() && !t.end_of_action.is_empty() {
        let path = "this_turn.end_of_action";
        Some((path, Fault::EndOfActionNoAction, Some(N2)))
    } else if none && !t.end_of_turn.is_empty() {
        Some(("this_turn.end_of_turn", Fault::EndOfTurnNoAction, None))
    } else if (t.action == TurnAction::Strategic) != t.card.is_some() {
        Some(("this_turn.card", Fault::Card, None))
    } else {
        None
    };
    if let Some((path, fault, rule)) = fault {
        let player = &p.name;
        let e = BoardError::semantic(path, Invalid::Turn { player, fault });
        return Err(rule.map_or(e.clone(), |r| e.with_rule(r)));
    }
    let Some(c) = t.card.clone() else {
        return Ok(());
    };
    let held: Vec<&str> = p.strategy_cards.iter().map(|c| c.name.as_str()).collect();
    let j = match names::resolve_index(&c, &held, "strategy card") {
        Ok(j) => j,
        Err(e) => return Err(other_players_card(b, i, &c).unwrap_or(e.at("this_turn.card"))),
    };
    let card = &p.strategy_cards[j];
    let msg = Invalid::CardReadied(&card.name);
    // Rule 4.1 speaks of exhausting the cards only in three- and
    // four-player games: cited there, not otherwise.
    let rule = b.two_cards().then_some(R4_1);
    check(card.exhausted, "this_turn.card", msg).map_err(|e| match rule {
        Some(r) => e.with_rule(r),
        None => e,
    })?;
    b.this_turn.card = Some(card.name.to_string());
    Ok(())
}
