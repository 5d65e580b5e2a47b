//! One-line play notation on the shared lexer: `<player> <play> [arguments]`
//! (or `<player>: <play> …`), e.g. `Ana strategic Warfare`, `Ben pass`,
//! `Cleo plays Sabotage`, `Dan trades with Ana`. The other party's answer to
//! a transaction (`; accepted` / `; declined`) is theirs: written by the
//! proposer only when they agreed.

use super::board::Board;
use super::plays::Play;
use crate::engine::BoardError;
use crate::engine::kit::notation::{clauses, complete, fragment, keyword, strip_word, unquote};
use crate::text::fold;

/// Verb phrases and the kind of play they start.
const VERBS: &[(&str, &str)] = &[
    ("start of your turn", "start_of_turn"),
    ("start of turn", "start_of_turn"),
    ("end of action", "end_of_action"),
    ("end of your turn", "end_of_turn"),
    ("end of turn", "end_of_turn"),
    ("ends their turn", "end_turn"),
    ("ends turn", "end_turn"),
    ("end turn", "end_turn"),
    ("strategic action", "strategic_action"),
    ("strategic", "strategic_action"),
    ("strat", "strategic_action"),
    ("primary", "strategic_action"),
    ("tactical action", "tactical_action"),
    ("tactical", "tactical_action"),
    ("tac", "tactical_action"),
    ("component action", "component_action"),
    ("component", "component_action"),
    ("passes", "pass"),
    ("pass", "pass"),
    ("plays", "action_card"),
    ("play", "action_card"),
    ("action card", "action_card"),
    ("ac", "action_card"),
    ("trades with", "transaction"),
    ("trade with", "transaction"),
    ("transaction with", "transaction"),
    ("trades", "transaction"),
    ("transaction", "transaction"),
    ("secondary of", "secondary"),
    ("secondary", "secondary"),
    ("follows", "secondary"),
];

/// The next words offered after a player's name.
const HINTS: &[&str] = &[
    "strategic",
    "tactical",
    "component",
    "pass",
    "plays",
    "trades with",
    "secondary",
    "start of turn",
    "end of action",
    "end of turn",
    "ends turn",
];

fn err(message: impl Into<String>) -> BoardError {
    BoardError::semantic("play", message)
}

/// Splits `who VERB rest` (or `who: VERB rest`) at the first verb after
/// the player's name.
fn split_verb(line: &str) -> Option<(&str, &'static str, &str)> {
    let words: Vec<&'static str> = VERBS.iter().map(|v| v.0).collect();
    let mut cuts = line
        .char_indices()
        .filter(|(_, c)| c.is_whitespace() || matches!(c, ',' | ':'));
    cuts.find_map(|(i, c)| {
        let (verb, rest) = keyword(&line[i + c.len_utf8()..], &words)?;
        Some((line[..i].trim(), kind(verb), rest))
    })
}

fn kind(verb: &str) -> &'static str {
    VERBS.iter().find(|v| v.0 == verb).map_or("", |v| v.1)
}

fn card(b: &Board, typed: &str) -> Result<String, BoardError> {
    let (owner, j) = b.find_card(typed, "play.card")?;
    Ok(b.players[owner].strategy_cards[j].name.clone())
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let Some((who, kind, rest)) = split_verb(line) else {
        return Err(err(format!(
            "no play found in '{line}'; write `<player> <play>`, where the play is one of: {}",
            HINTS.join(", ")
        )));
    };
    let player = b.name(b.seat(unquote(who), "play.player")?);
    let rest = rest.trim_start_matches([',', ';', ':']).trim();
    let text = unquote(rest).to_string();
    let need = |what: &str, example: &str| match text.is_empty() {
        true => Err(err(format!("name the {what}: `{example}`"))),
        false => Ok(text.clone()),
    };
    let given = (!text.is_empty()).then(|| text.clone());
    Ok(match kind {
        "strategic_action" => Play::StrategicAction {
            card: given.map(|c| card(b, &c)).transpose()?,
            player,
        },
        "secondary" => Play::Secondary {
            card: card(b, &need("strategy card", "<player> secondary <card>")?)?,
            player,
        },
        "tactical_action" => Play::TacticalAction {
            system: given,
            player,
        },
        "component_action" => Play::ComponentAction {
            source: given,
            player,
        },
        "pass" => {
            let f = fold(&text);
            let cannot_act = ["cannot", "cant", "forced", "must"]
                .iter()
                .any(|w| f.contains(w));
            if !text.is_empty() && !cannot_act {
                return Err(err(format!(
                    "unexpected '{text}' after pass; write `<player> pass` or `<player> pass cannot act`"
                )));
            }
            Play::Pass { player, cannot_act }
        }
        "action_card" => {
            let (component, rest) =
                match keyword(rest, &["component", "noncomponent", "non-component"]) {
                    Some(("component", r)) => (Some(true), r),
                    Some((_, r)) => (Some(false), r),
                    None => (None, rest),
                };
            let card = unquote(strip_word(rest, &["action card"]).unwrap_or(rest));
            if card.is_empty() {
                return Err(err(
                    "name the action card: `<player> plays [component] <card>`",
                ));
            }
            Play::ActionCard {
                player,
                card: card.to_string(),
                component,
            }
        }
        "transaction" => transaction(b, rest, player)?,
        "start_of_turn" => Play::StartOfTurn {
            ability: need("ability", "Ana start of turn Mageon Implants")?,
            player,
        },
        "end_of_action" => Play::EndOfAction {
            ability: need("ability", "Ana end of action Scanlink Drone Network")?,
            player,
        },
        "end_of_turn" => Play::EndOfTurn {
            ability: need("ability", "Ana end of turn Quantum Datahub Node")?,
            player,
        },
        _ if !text.is_empty() => return Err(err(format!("unexpected '{text}' after `ends turn`"))),
        _ => Play::EndTurn { player },
    })
}

/// `[with] PLAYER [; accepted | declined]`.
fn transaction(b: &Board, rest: &str, player: String) -> Result<Play, BoardError> {
    let parts = clauses(rest);
    let who = parts
        .first()
        .map_or("", |w| strip_word(w, &["with"]).unwrap_or(w));
    if unquote(who).is_empty() {
        return Err(err(
            "name the other player: `<player> trades with <player>`",
        ));
    }
    let with = b.name(b.seat(unquote(who), "play.with")?);
    let accepted = match parts.get(1).map(|a| fold(a)) {
        None => None,
        Some(a) if ["accept", "agree", "yes"].iter().any(|w| a.starts_with(w)) => Some(true),
        Some(a) if ["decline", "refuse", "no"].iter().any(|w| a.starts_with(w)) => Some(false),
        Some(_) => {
            return Err(err(
                "after the other player, write `; accepted` or `; declined` (their answer)",
            ));
        }
    };
    Ok(Play::Transaction {
        player,
        with,
        accepted,
    })
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let (done, typing) = fragment(partial, &[]);
    let names = b.names();
    let others = |who: &str, list: Vec<(usize, String)>| -> Vec<String> {
        let me = b.seat(who, "play.player").ok();
        list.into_iter()
            .filter(|(o, _)| Some(*o) != me)
            .map(|(_, n)| n)
            .collect()
    };
    let cards = b
        .cards()
        .into_iter()
        .map(|(o, _, n)| (o, n.to_string()))
        .collect::<Vec<_>>();
    let candidates: Vec<String> = match split_verb(done.trim_end()) {
        None if done.trim().is_empty() => names.iter().map(|n| n.to_string()).collect(),
        None if names.iter().any(|n| fold(n) == fold(done)) => {
            HINTS.iter().map(|h| h.to_string()).collect()
        }
        None => Vec::new(),
        Some((who, kind, rest)) if rest.trim().is_empty() => match kind {
            "strategic_action" => b
                .seat(who, "play.player")
                .map(|p| b.readied(p))
                .unwrap_or_default(),
            "secondary" => others(who, cards),
            "transaction" if !fold(done).ends_with("with") => vec!["with".to_string()],
            "transaction" => others(
                who,
                names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (i, n.to_string()))
                    .collect(),
            ),
            "pass" => vec!["cannot act".to_string()],
            "action_card" => vec!["component".to_string()],
            _ => Vec::new(),
        },
        Some(_) => Vec::new(),
    };
    complete(typing, candidates)
}
