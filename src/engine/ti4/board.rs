//! The TI4 action-phase board document: players, strategy cards, passed
//! flags, whose turn it is and what has happened in that turn, plus an
//! optional play or list of plays.

use serde::{Deserialize, Serialize};

use super::rules::*;
use crate::engine::BoardError;
use crate::engine::legacy::resolve_name;

/// Most players a game of TI4 seats (with the Prophecy of Kings expansion).
pub const MAX_PLAYERS: usize = 8;
/// Fewest players the action-phase rules speak of.
pub const MIN_PLAYERS: usize = 3;
/// Most plays in one document.
pub const MAX_PLAYS: usize = 500;
/// Longest name or free-text field accepted.
pub const MAX_TEXT: usize = 200;
/// Most abilities recorded in one turn (per timing).
pub const MAX_ABILITIES: usize = 50;

/// The eight strategy cards of the base game and their initiative numbers.
pub const STANDARD_CARDS: [(&str, u8); 8] = [
    ("Leadership", 1),
    ("Diplomacy", 2),
    ("Politics", 3),
    ("Construction", 4),
    ("Trade", 5),
    ("Warfare", 6),
    ("Technology", 7),
    ("Imperial", 8),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    #[default]
    Action,
    Status,
}

/// What the player whose turn it is has done with the turn so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    /// Defaults to the printed number for the eight base-game cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<u8>,
    /// Exhausted (face down) or readied (the default).
    #[serde(default)]
    pub exhausted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
    pub strategy_cards: Vec<Card>,
    #[serde(default)]
    pub passed: bool,
}

/// The current turn: what its player has done so far.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThisTurn {
    #[serde(default)]
    pub action: TurnAction,
    /// The strategy card, when the action was a strategic action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// "At the start of your turn" abilities resolved this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_of_turn: Vec<String>,
    /// Abilities resolved at the end of this turn's action.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_of_action: Vec<String>,
    /// "At the end of your turn" abilities resolved this turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_of_turn: Vec<String>,
}

impl ThisTurn {
    pub fn is_empty(&self) -> bool {
        *self == ThisTurn::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayKind {
    #[serde(alias = "strategic", alias = "strategy")]
    StrategicAction,
    #[serde(alias = "tactical")]
    TacticalAction,
    #[serde(alias = "component")]
    ComponentAction,
    Pass,
    #[serde(alias = "play_action_card")]
    ActionCard,
    #[serde(alias = "trade")]
    Transaction,
    #[serde(alias = "secondary_ability")]
    Secondary,
    StartOfTurn,
    EndOfAction,
    EndOfTurn,
    EndTurn,
}

impl PlayKind {
    pub fn label(self) -> &'static str {
        match self {
            PlayKind::StrategicAction => "strategic action",
            PlayKind::TacticalAction => "tactical action",
            PlayKind::ComponentAction => "component action",
            PlayKind::Pass => "pass",
            PlayKind::ActionCard => "action card",
            PlayKind::Transaction => "transaction",
            PlayKind::Secondary => "secondary ability",
            PlayKind::StartOfTurn => "start-of-turn ability",
            PlayKind::EndOfAction => "end-of-action ability",
            PlayKind::EndOfTurn => "end-of-turn ability",
            PlayKind::EndTurn => "end of turn",
        }
    }
}

/// One play. Which optional fields apply depends on `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Play {
    #[serde(rename = "type")]
    pub kind: PlayKind,
    pub player: String,
    /// strategic_action: the strategy card; secondary: whose card's
    /// secondary; action_card: the action card's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// action_card: whether it is a component action card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<bool>,
    /// transaction: the other player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
    /// start_of_turn / end_of_action / end_of_turn: the ability's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<String>,
    /// tactical_action: the activated system (free text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// component_action: what the component action comes from (free text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// pass: the player states they cannot perform an action.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cannot_act: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    #[serde(default = "default_game")]
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default)]
    pub phase: Phase,
    pub players: Vec<Player>,
    /// Whose turn it is (default: the first player in initiative order who
    /// has not passed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    #[serde(default, skip_serializing_if = "ThisTurn::is_empty")]
    pub this_turn: ThisTurn,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Play>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub plays: Vec<Play>,
}

fn default_game() -> String {
    "ti4".to_string()
}

fn check_text(s: &str, path: &str, what: &str) -> Result<(), BoardError> {
    if s.trim().is_empty() {
        return Err(BoardError::semantic(path, format!("the {what} is empty")));
    }
    if s.chars().count() > MAX_TEXT {
        return Err(BoardError::semantic(
            path,
            format!("the {what} is longer than {MAX_TEXT} characters"),
        ));
    }
    Ok(())
}

/// The printed initiative of a base-game card, by exact (case-folded) name.
pub fn standard_initiative(name: &str) -> Option<(&'static str, u8)> {
    let key = crate::text::fold(name);
    STANDARD_CARDS
        .iter()
        .copied()
        .find(|(n, _)| crate::text::fold(n) == key)
}

/// Validates the document and fills defaults (initiative numbers, canonical
/// card names, whose turn it is). Returns notes on defaults chosen.
pub fn normalize(b: &mut Board) -> Result<Vec<String>, BoardError> {
    let mut notes = Vec::new();
    let n = b.players.len();
    if n > MAX_PLAYERS {
        return Err(BoardError::semantic(
            "players",
            format!("{n} players listed; Twilight Imperium seats at most {MAX_PLAYERS}"),
        ));
    }
    if n < MIN_PLAYERS {
        return Err(BoardError::semantic(
            "players",
            format!(
                "{n} player{} listed; the action phase needs 3 to {MAX_PLAYERS} players",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }
    b.game = "ti4".to_string();
    let mut seen_players: Vec<String> = Vec::new();
    let mut seen_cards: Vec<(String, String)> = Vec::new();
    let mut seen_init: Vec<(u8, String)> = Vec::new();
    let two_cards = n <= 4;
    for (i, p) in b.players.iter_mut().enumerate() {
        let path = format!("players[{i}]");
        check_text(&p.name, &format!("{path}.name"), "player name")?;
        let key = crate::text::fold(&p.name);
        if key.is_empty() {
            return Err(BoardError::semantic(
                format!("{path}.name"),
                "the player name needs a letter or digit",
            ));
        }
        if seen_players.contains(&key) {
            return Err(BoardError::semantic(
                format!("{path}.name"),
                format!("two players are named '{}'", p.name),
            ));
        }
        seen_players.push(key);
        if let Some(f) = &p.faction {
            check_text(f, &format!("{path}.faction"), "faction")?;
        }
        let want = if two_cards { 2 } else { 1 };
        if p.strategy_cards.len() != want {
            let err = BoardError::semantic(
                format!("{path}.strategy_cards"),
                format!(
                    "{} holds {} strategy card(s); in a {n}-player game each player has {want}",
                    p.name,
                    p.strategy_cards.len()
                ),
            );
            return Err(if two_cards {
                err.with_rule(R4_1)
            } else {
                err.with_rule(R4)
            });
        }
        for (j, c) in p.strategy_cards.iter_mut().enumerate() {
            let cpath = format!("{path}.strategy_cards[{j}]");
            check_text(&c.name, &format!("{cpath}.name"), "strategy card name")?;
            let std = standard_initiative(&c.name);
            if let Some((canon, init)) = std {
                c.name = canon.to_string();
                if c.initiative.is_none() {
                    c.initiative = Some(init);
                }
            }
            let Some(init) = c.initiative else {
                let names: Vec<&str> = STANDARD_CARDS.iter().map(|(n, _)| *n).collect();
                let hint = match resolve_name(&c.name, &names, "", "strategy card") {
                    Ok(m) => format!("; did you mean '{m}'?"),
                    Err(e) => e
                        .message
                        .split_once("; ")
                        .map(|(_, h)| format!("; {h}"))
                        .unwrap_or_default(),
                };
                return Err(BoardError::semantic(
                    format!("{cpath}.initiative"),
                    format!(
                        "'{}' is not a base-game strategy card, so its initiative number is needed{hint}",
                        c.name
                    ),
                ));
            };
            if init > 99 {
                return Err(BoardError::semantic(
                    format!("{cpath}.initiative"),
                    format!("initiative {init} is out of range (0 to 99)"),
                ));
            }
            let ckey = crate::text::fold(&c.name);
            if let Some((_, owner)) = seen_cards.iter().find(|(k, _)| *k == ckey) {
                return Err(BoardError::semantic(
                    format!("{cpath}.name"),
                    format!("{} is already held by {owner}", c.name),
                ));
            }
            seen_cards.push((ckey, p.name.clone()));
            if let Some((_, other)) = seen_init.iter().find(|(k, _)| *k == init) {
                return Err(BoardError::semantic(
                    format!("{cpath}.initiative"),
                    format!(
                        "initiative {init} is used twice ({other} and {}); each strategy card has its own number",
                        c.name
                    ),
                ));
            }
            seen_init.push((init, c.name.clone()));
        }
        if p.passed
            && let Some(c) = p.strategy_cards.iter().find(|c| !c.exhausted)
        {
            let err = BoardError::semantic(
                format!("{path}.passed"),
                format!(
                    "{} is marked as passed but {} is still readied; a player cannot pass before exhausting it",
                    p.name, c.name
                ),
            );
            return Err(if two_cards {
                err.with_rule(R4_1)
            } else {
                err.with_rule(R4)
            });
        }
    }
    let names: Vec<String> = b.players.iter().map(|p| p.name.clone()).collect();
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let all_passed = b.players.iter().all(|p| p.passed);
    match b.phase {
        Phase::Status if !all_passed => {
            let waiting: Vec<&str> = b
                .players
                .iter()
                .filter(|p| !p.passed)
                .map(|p| p.name.as_str())
                .collect();
            return Err(BoardError::semantic(
                "phase",
                format!("the phase is `status` but {} has not passed; play proceeds to the status phase only after all players have passed", waiting.join(", ")),
            )
            .with_rule(R5));
        }
        Phase::Action if all_passed => {
            return Err(BoardError::semantic(
                "phase",
                "every player has passed, so the action phase is over; write `phase: status`",
            )
            .with_rule(R5));
        }
        _ => {}
    }
    // Whose turn.
    let turn_idx = match &b.turn {
        Some(t) => {
            let canon = resolve_name(t, &name_refs, "turn", "player")?;
            name_refs.iter().position(|n| *n == canon)
        }
        None => None,
    };
    let turn_idx = match (b.phase, turn_idx) {
        (Phase::Action, Some(i)) => Some(i),
        (Phase::Action, None) => {
            if !b.this_turn.is_empty() {
                return Err(BoardError::semantic(
                    "turn",
                    "`this_turn` is given, so say whose turn it is with `turn: <player>`",
                ));
            }
            let first = first_unpassed(&b.players);
            if let Some(i) = first {
                notes.push(format!(
                    "The document does not say whose turn it is; the engine takes {}, the first player in initiative order who has not passed.",
                    b.players[i].name
                ));
            }
            first
        }
        (Phase::Status, t) => t,
    };
    b.turn = turn_idx.map(|i| b.players[i].name.clone());
    // What the turn holds.
    let t = &mut b.this_turn;
    for (list, field) in [
        (&t.start_of_turn, "start_of_turn"),
        (&t.end_of_action, "end_of_action"),
        (&t.end_of_turn, "end_of_turn"),
    ] {
        if list.len() > MAX_ABILITIES {
            return Err(BoardError::semantic(
                format!("this_turn.{field}"),
                format!("more than {MAX_ABILITIES} abilities listed"),
            ));
        }
        for (k, a) in list.iter().enumerate() {
            check_text(a, &format!("this_turn.{field}[{k}]"), "ability name")?;
        }
    }
    match turn_idx {
        None => {
            if !t.is_empty() {
                return Err(BoardError::semantic(
                    "this_turn",
                    "`this_turn` is given but no player's turn is under way",
                ));
            }
        }
        Some(i) => {
            let p = &b.players[i];
            if b.phase == Phase::Status && t.action != TurnAction::Pass {
                return Err(BoardError::semantic(
                    "turn",
                    "in the status phase `turn` may only name the player whose passing ended the action phase (with `this_turn.action: pass`)",
                )
                .with_rule(R5));
            }
            if p.passed && t.action != TurnAction::Pass {
                return Err(BoardError::semantic(
                    "turn",
                    format!("{} has passed and has no further turns; only the turn on which they passed can be theirs (`this_turn.action: pass`)", p.name),
                )
                .with_rule(R3));
            }
            if !p.passed && t.action == TurnAction::Pass {
                return Err(BoardError::semantic(
                    "this_turn.action",
                    format!(
                        "this turn's action is `pass` but {} is not marked as passed",
                        p.name
                    ),
                ));
            }
            if !t.action.is_action() && !t.end_of_action.is_empty() {
                return Err(BoardError::semantic(
                    "this_turn.end_of_action",
                    "end-of-action abilities are listed but no action was performed this turn",
                )
                .with_rule(N2));
            }
            if t.action == TurnAction::None && !t.end_of_turn.is_empty() {
                return Err(BoardError::semantic(
                    "this_turn.end_of_turn",
                    "end-of-turn abilities are listed but the turn has no action or pass yet",
                ));
            }
            match (t.action, &t.card) {
                (TurnAction::Strategic, None) => {
                    return Err(BoardError::semantic(
                        "this_turn.card",
                        "the strategic action's card is missing (`card: <strategy card>`)",
                    ));
                }
                (TurnAction::Strategic, Some(c)) => {
                    let cards: Vec<&str> =
                        p.strategy_cards.iter().map(|c| c.name.as_str()).collect();
                    let canon = resolve_name(
                        c,
                        &cards,
                        "this_turn.card",
                        &format!("strategy card of {}", p.name),
                    )?;
                    if p.strategy_cards
                        .iter()
                        .any(|x| x.name == canon && !x.exhausted)
                    {
                        return Err(BoardError::semantic(
                            "this_turn.card",
                            format!("{canon} is readied, but its strategic action was performed this turn; mark it `exhausted: true`"),
                        )
                        .with_rule(R4_1));
                    }
                    t.card = Some(canon.to_string());
                }
                (_, Some(_)) => {
                    return Err(BoardError::semantic(
                        "this_turn.card",
                        "`card` is only for a turn whose action is `strategic`",
                    ));
                }
                _ => {}
            }
        }
    }
    if b.play.is_some() && !b.plays.is_empty() {
        return Err(BoardError::semantic(
            "plays",
            "give either `play` or `plays`, not both",
        ));
    }
    if b.plays.len() > MAX_PLAYS {
        return Err(BoardError::semantic(
            "plays",
            format!("{} plays listed; the limit is {MAX_PLAYS}", b.plays.len()),
        ));
    }
    Ok(notes)
}

/// Initiative of a player: the lowest number among their strategy cards.
pub fn initiative(p: &Player) -> u8 {
    p.strategy_cards
        .iter()
        .filter_map(|c| c.initiative)
        .min()
        .unwrap_or(u8::MAX)
}

/// Player indices in initiative order.
pub fn initiative_order(players: &[Player]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| (initiative(&players[i]), i));
    order
}

fn first_unpassed(players: &[Player]) -> Option<usize> {
    initiative_order(players)
        .into_iter()
        .find(|&i| !players[i].passed)
}

/// Checks that a play's fields suit its type, and their sizes.
pub fn check_play_fields(p: &Play, path: &str) -> Result<(), BoardError> {
    use PlayKind::*;
    let allowed: &[&str] = match p.kind {
        StrategicAction => &["card"],
        TacticalAction => &["system"],
        ComponentAction => &["source"],
        Pass => &["cannot_act"],
        ActionCard => &["card", "component"],
        Transaction => &["with"],
        Secondary => &["card"],
        StartOfTurn | EndOfAction | EndOfTurn => &["ability"],
        EndTurn => &[],
    };
    let present = [
        ("card", p.card.is_some()),
        ("component", p.component.is_some()),
        ("with", p.with.is_some()),
        ("ability", p.ability.is_some()),
        ("system", p.system.is_some()),
        ("source", p.source.is_some()),
        ("cannot_act", p.cannot_act),
    ];
    for (field, there) in present {
        if there && !allowed.contains(&field) {
            return Err(BoardError::semantic(
                format!("{path}.{field}"),
                format!("`{field}` does not apply to a {} play", p.kind.label()),
            ));
        }
    }
    check_text(&p.player, &format!("{path}.player"), "player name")?;
    for (field, v) in [
        ("card", &p.card),
        ("with", &p.with),
        ("ability", &p.ability),
        ("system", &p.system),
        ("source", &p.source),
    ] {
        if let Some(v) = v {
            check_text(v, &format!("{path}.{field}"), field)?;
        }
    }
    match p.kind {
        Secondary if p.card.is_none() => Err(BoardError::semantic(
            format!("{path}.card"),
            "name the strategy card whose secondary ability is resolved",
        )),
        ActionCard if p.card.is_none() => Err(BoardError::semantic(
            format!("{path}.card"),
            "name the action card played",
        )),
        Transaction if p.with.is_none() => Err(BoardError::semantic(
            format!("{path}.with"),
            "name the other player of the transaction",
        )),
        StartOfTurn | EndOfAction | EndOfTurn if p.ability.is_none() => Err(BoardError::semantic(
            format!("{path}.ability"),
            "name the ability resolved",
        )),
        _ => Ok(()),
    }
}
