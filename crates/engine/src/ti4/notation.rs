//! One-line play notation on the shared lexer: `<player> <play> [arguments]`
//! (or `<player>: <play> …`), e.g. `Ana strategic Warfare`, `Ben pass`,
//! `Cleo plays Sabotage`, `Dan trades with Ana`. The other party's answer to
//! a transaction (`; accepted` / `; declined`) is theirs: written by the
//! proposer only when they agreed.

use super::board::Board;
use serde_json::{Value, json};

use super::plays::Play;
use super::wording::Misread;
use crate::BoardError;
use crate::kit::notation::{clauses, complete, fragment, keyword, said_twice, strip_word, unquote};
use crate::text::fold;

/// The kinds of play and the phrases that start them; the first phrase of
/// each is offered as a completion.
const VERBS: &[(&str, &[&str])] = &[
    (
        "strategic_action",
        &["strategic", "strategic action", "strat", "primary"],
    ),
    ("tactical_action", &["tactical", "tactical action", "tac"]),
    ("component_action", &["component", "component action"]),
    ("pass", &["pass", "passes"]),
    ("action_card", &["plays", "play", "action card", "ac"]),
    (
        "transaction",
        &[
            "trades with",
            "trade with",
            "transaction with",
            "trades",
            "transaction",
        ],
    ),
    ("secondary", &["secondary", "secondary of", "follows"]),
    ("start_of_turn", &["start of turn", "start of your turn"]),
    ("end_of_action", &["end of action"]),
    ("end_of_turn", &["end of turn", "end of your turn"]),
    ("end_turn", &["ends turn", "end turn", "ends their turn"]),
];

fn hints() -> Vec<String> {
    VERBS.iter().map(|v| v.1[0].to_string()).collect()
}

fn err(message: impl Into<String>) -> BoardError {
    BoardError::semantic("play", message)
}

/// Splits `who VERB rest` (or `who: VERB rest`) at the first verb after
/// the player's name.
fn split_verb(line: &str) -> Option<(&str, &'static str, &str)> {
    let words: Vec<&'static str> = VERBS.iter().flat_map(|v| v.1.iter().copied()).collect();
    let mut cuts = line
        .char_indices()
        .filter(|(_, c)| c.is_whitespace() || matches!(c, ',' | ':'));
    cuts.find_map(|(i, c)| {
        let (verb, rest) = keyword(&line[i + c.len_utf8()..], &words)?;
        Some((line[..i].trim(), kind(verb), rest))
    })
}

fn kind(verb: &str) -> &'static str {
    VERBS
        .iter()
        .find(|v| v.1.contains(&verb))
        .map_or("", |v| v.0)
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let Some((who, kind, rest)) = split_verb(line) else {
        let kinds = &hints().join(", ");
        return Err(err(Misread::NoPlay { line, kinds }));
    };
    let player = b.name(b.seat(unquote(who), "play.player")?);
    let rest = rest.trim_start_matches([',', ';', ':']).trim();
    let text = unquote(rest);
    let mut play = json!({ "type": kind, "player": player });
    let field = match kind {
        "strategic_action" | "secondary" => "card",
        "tactical_action" => "system",
        "component_action" => "source",
        "start_of_turn" | "end_of_action" | "end_of_turn" => "ability",
        "pass" => "cannot_act",
        "action_card" => return action_card(rest, play),
        "transaction" => return transaction(b, rest, play),
        _ => "",
    };
    let optional = [
        "strategic_action",
        "tactical_action",
        "component_action",
        "pass",
        "end_turn",
    ];
    match (field, text.is_empty()) {
        (_, true) if optional.contains(&kind) => {}
        (_, true) => {
            let player = &player;
            return Err(err(Misread::NameThe {
                field,
                player,
                kind,
            }));
        }
        ("", false) => return Err(err(Misread::AfterEndTurn(text))),
        ("card", false) => {
            let (owner, j) = b.find_card(text, "play.card")?;
            play["card"] = json!(b.players[owner].strategy_cards[j].name);
        }
        ("cannot_act", false)
            if ["cannot", "cant", "forced", "must"]
                .iter()
                .any(|w| fold(text).contains(w)) =>
        {
            play[field] = json!(true)
        }
        ("cannot_act", false) => {
            return Err(err(Misread::AfterPass(text)));
        }
        (_, false) => play[field] = json!(text),
    }
    typed(play)
}

fn typed(play: Value) -> Result<Play, BoardError> {
    serde_json::from_value(play).map_err(|e| err(e.to_string()))
}

/// `[component | non-component] [action card] CARD`.
fn action_card(rest: &str, mut play: Value) -> Result<Play, BoardError> {
    let (component, rest) = match keyword(rest, &["component", "noncomponent", "non-component"]) {
        Some((w, r)) => (Some(w == "component"), r),
        None => (None, rest),
    };
    let card = unquote(strip_word(rest, &["action card"]).unwrap_or(rest));
    if card.is_empty() {
        return Err(err(Misread::NameCard));
    }
    play["card"] = json!(card);
    if let Some(c) = component {
        play["component"] = json!(c);
    }
    typed(play)
}

/// `[with] PLAYER [; accepted | declined]`.
fn transaction(b: &Board, rest: &str, mut play: Value) -> Result<Play, BoardError> {
    let parts = clauses(rest);
    let who = unquote(
        parts
            .first()
            .map_or("", |w| strip_word(w, &["with"]).unwrap_or(w)),
    );
    if who.is_empty() {
        return Err(err(Misread::NameOther));
    }
    play["with"] = json!(b.name(b.seat(who, "play.with")?));
    let answer = |words: [&str; 3], a: &str| words.iter().any(|w| fold(a).starts_with(w));
    let is_answer =
        |a: &str| answer(["accept", "agree", "yes"], a) || answer(["decline", "refuse", "no"], a);
    match parts.as_slice() {
        [_, first, again, ..] if is_answer(first) && is_answer(again) => {
            return Err(said_twice("play.accepted", first, again));
        }
        [_, _, _, ..] => return Err(err(Misread::NoAnswer)),
        _ => {}
    }
    match parts.get(1) {
        None => {}
        Some(a) if answer(["accept", "agree", "yes"], a) => play["accepted"] = json!(true),
        Some(a) if answer(["decline", "refuse", "no"], a) => play["accepted"] = json!(false),
        Some(_) => {
            return Err(err(Misread::NoAnswer));
        }
    }
    typed(play)
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let (done, typing) = fragment(partial, &[]);
    let names: Vec<String> = b.players.iter().map(|p| p.name.to_string()).collect();
    let candidates = match split_verb(done.trim_end()) {
        None if done.trim().is_empty() => names,
        None if names.iter().any(|n| fold(n) == fold(done)) => hints(),
        Some((who, kind, rest)) if rest.trim().is_empty() => {
            let me = b.seat(who, "play.player").ok();
            let theirs = |o: &usize| Some(*o) != me;
            match kind {
                "strategic_action" => me.map(|p| b.readied(p)).unwrap_or_default(),
                "secondary" => b
                    .cards()
                    .into_iter()
                    .filter(|c| theirs(&c.0))
                    .map(|c| c.2.to_string())
                    .collect(),
                "transaction" if !fold(done).ends_with("with") => vec!["with".into()],
                "transaction" => (0..names.len())
                    .filter(theirs)
                    .map(|i| names[i].clone())
                    .collect(),
                "pass" => vec!["cannot act".into()],
                "action_card" => vec!["component".into()],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    complete(typing, candidates)
}
