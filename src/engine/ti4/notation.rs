//! One-line play notation, e.g. `Alice strategic Warfare`, `Bob pass`,
//! `Carol plays Sabotage`, `Dave trades with Alice`.

use serde_json::{Value, json};

use crate::engine::BoardError;
use crate::engine::legacy::resolve_name;

const MAX_LINE: usize = 500;

/// Splits a line into words, keeping "quoted names" whole.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for ch in line.chars() {
        match quote {
            Some(q) if ch == q || (q == '“' && ch == '”') => {
                out.push(std::mem::take(&mut cur));
                quote = None;
            }
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '“' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                quote = Some(ch);
            }
            None if ch.is_whitespace() || ch == ',' || ch == ';' || ch == ':' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            None => cur.push(ch),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.retain(|w| !w.trim().is_empty());
    out
}

fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Verb patterns: (words, play type). Longest first.
const VERBS: &[(&[&str], &str)] = &[
    (&["start", "of", "turn"], "start_of_turn"),
    (&["start", "of", "your", "turn"], "start_of_turn"),
    (&["end", "of", "action"], "end_of_action"),
    (&["end", "of", "turn"], "end_of_turn"),
    (&["end", "of", "your", "turn"], "end_of_turn"),
    (&["ends", "turn"], "end_turn"),
    (&["end", "turn"], "end_turn"),
    (&["ends", "their", "turn"], "end_turn"),
    (&["strategic", "action"], "strategic_action"),
    (&["strategic"], "strategic_action"),
    (&["strat"], "strategic_action"),
    (&["primary"], "strategic_action"),
    (&["tactical", "action"], "tactical_action"),
    (&["tactical"], "tactical_action"),
    (&["tac"], "tactical_action"),
    (&["component", "action"], "component_action"),
    (&["component"], "component_action"),
    (&["passes"], "pass"),
    (&["pass"], "pass"),
    (&["plays"], "action_card"),
    (&["play"], "action_card"),
    (&["action", "card"], "action_card"),
    (&["ac"], "action_card"),
    (&["trades", "with"], "transaction"),
    (&["trade", "with"], "transaction"),
    (&["transaction", "with"], "transaction"),
    (&["trades"], "transaction"),
    (&["transaction"], "transaction"),
    (&["secondary", "of"], "secondary"),
    (&["secondary"], "secondary"),
    (&["follows"], "secondary"),
];

/// The next-word suggestions after a player's name.
const VERB_HINTS: &[&str] = &[
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

fn match_verb(ws: &[String], at: usize) -> Option<(usize, &'static str)> {
    let mut best: Option<(usize, &'static str)> = None;
    for (pat, kind) in VERBS {
        let fits = ws.len() >= at + pat.len()
            && pat
                .iter()
                .enumerate()
                .all(|(k, p)| lower(&ws[at + k]) == *p);
        if fits && best.is_none_or(|(n, _)| pat.len() > n) {
            best = Some((pat.len(), kind));
        }
    }
    best
}

/// (owner, card name, exhausted) for every strategy card on the board.
fn cards(board: &Value) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for p in board
        .get("players")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let owner = p.get("name").and_then(Value::as_str).unwrap_or_default();
        for c in p
            .get("strategy_cards")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(n) = c.get("name").and_then(Value::as_str) {
                let ex = c.get("exhausted").and_then(Value::as_bool).unwrap_or(false);
                out.push((owner.to_string(), n.to_string(), ex));
            }
        }
    }
    out
}

fn resolve_in<'a>(typed: &str, names: &'a [String], what: &str) -> Result<&'a str, BoardError> {
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let got = resolve_name(typed, &refs, "play", what)?;
    Ok(names
        .iter()
        .find(|n| n.as_str() == got)
        .map_or("", String::as_str))
}

/// Parses a notation line into a `play` value.
pub fn parse(line: &str, board: &Value) -> Result<Value, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play line is longer than {MAX_LINE} characters"
        )));
    }
    let ws = words(line);
    if ws.is_empty() {
        return Err(BoardError::semantic(
            "play",
            "the play is empty; try `Alice strategic Warfare` or `Bob pass`",
        ));
    }
    let Some((at, (len, kind))) = (1..ws.len()).find_map(|i| match_verb(&ws, i).map(|m| (i, m)))
    else {
        return Err(BoardError::semantic(
            "play",
            format!(
                "no play found in '{line}'; write `<player> <play>`, where the play is one of: {}",
                VERB_HINTS.join(", ")
            ),
        ));
    };
    let players = crate::engine::legacy::names_at(board, "players");
    let player = resolve_in(&ws[..at].join(" "), &players, "player")?.to_string();
    let rest: Vec<&str> = ws[at + len..].iter().map(String::as_str).collect();
    let rest_text = rest.join(" ");
    let all_cards = cards(board);
    let card_names: Vec<String> = all_cards.iter().map(|(_, n, _)| n.clone()).collect();
    let mut play = json!({ "type": kind, "player": player });
    match kind {
        "strategic_action" if !rest.is_empty() => {
            play["card"] = json!(resolve_in(&rest_text, &card_names, "strategy card")?);
        }
        "secondary" => {
            if rest.is_empty() {
                return Err(BoardError::semantic(
                    "play",
                    "name the strategy card: `<player> secondary <card>`",
                ));
            }
            play["card"] = json!(resolve_in(&rest_text, &card_names, "strategy card")?);
        }
        "tactical_action" if !rest.is_empty() => play["system"] = json!(rest_text),
        "component_action" if !rest.is_empty() => play["source"] = json!(rest_text),
        "pass" if !rest.is_empty() => {
            let r = lower(&rest_text);
            if r.contains("cannot")
                || r.contains("can't")
                || r.contains("forced")
                || r.contains("must")
            {
                play["cannot_act"] = json!(true);
            } else {
                return Err(BoardError::semantic(
                    "play",
                    format!(
                        "unexpected '{rest_text}' after pass; write `<player> pass` or `<player> pass cannot act`"
                    ),
                ));
            }
        }
        "action_card" => {
            let mut r: &[&str] = &rest;
            let mut component = None;
            if let Some(first) = r.first() {
                match lower(first).as_str() {
                    "component" => {
                        component = Some(true);
                        r = &r[1..];
                    }
                    "noncomponent" | "non-component" => {
                        component = Some(false);
                        r = &r[1..];
                    }
                    _ => {}
                }
            }
            if r.len() >= 2 && lower(r[0]) == "action" && lower(r[1]) == "card" {
                r = &r[2..];
            }
            if r.is_empty() {
                return Err(BoardError::semantic(
                    "play",
                    "name the action card: `<player> plays [component] <card>`",
                ));
            }
            play["card"] = json!(r.join(" "));
            if let Some(c) = component {
                play["component"] = json!(c);
            }
        }
        "transaction" => {
            let r = rest.strip_prefix(&["with"][..]).unwrap_or(&rest);
            if r.is_empty() {
                return Err(BoardError::semantic(
                    "play",
                    "name the other player: `<player> trades with <player>`",
                ));
            }
            play["with"] = json!(resolve_in(&r.join(" "), &players, "player")?);
        }
        "start_of_turn" | "end_of_action" | "end_of_turn" => {
            if rest.is_empty() {
                return Err(BoardError::semantic(
                    "play",
                    "name the ability, e.g. `Alice end of turn Quantum Datahub Node`",
                ));
            }
            play["ability"] = json!(rest_text);
        }
        "end_turn" if !rest.is_empty() => {
            return Err(BoardError::semantic(
                "play",
                format!("unexpected '{rest_text}' after `ends turn`"),
            ));
        }
        _ => {}
    }
    Ok(play)
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, board: &Value) -> Vec<String> {
    if partial.len() > MAX_LINE {
        return Vec::new();
    }
    let ws = words(partial);
    let ends_open = !partial.ends_with(char::is_whitespace) && !ws.is_empty();
    let (done, typing) = if ends_open {
        (&ws[..ws.len() - 1], lower(&ws[ws.len() - 1]))
    } else {
        (&ws[..], String::new())
    };
    let players = crate::engine::legacy::names_at(board, "players");
    let all_cards = cards(board);
    let fold = crate::text::fold;
    let candidates: Vec<String> =
        match (1..done.len()).find_map(|i| match_verb(done, i).map(|m| (i, m))) {
            None => {
                let typed = fold(&done.join(" "));
                if !typed.is_empty() && players.iter().any(|p| fold(p) == typed) {
                    VERB_HINTS.iter().map(|s| s.to_string()).collect()
                } else {
                    players.clone()
                }
            }
            Some((at, (len, kind))) => {
                let who = fold(&done[..at].join(" "));
                let after = done.len() - at - len;
                match kind {
                    "strategic_action" if after == 0 => all_cards
                        .iter()
                        .filter(|(o, _, ex)| fold(o) == who && !ex)
                        .map(|(_, n, _)| n.clone())
                        .collect(),
                    "secondary" if after == 0 => all_cards
                        .iter()
                        .filter(|(o, _, _)| fold(o) != who)
                        .map(|(_, n, _)| n.clone())
                        .collect(),
                    "transaction"
                        if after == 0 && lower(&done[done.len() - 1]) != "with" && len == 1 =>
                    {
                        vec!["with".to_string()]
                    }
                    "transaction" if after == 0 => {
                        players.iter().filter(|p| fold(p) != who).cloned().collect()
                    }
                    "pass" if after == 0 => vec!["cannot act".to_string()],
                    "action_card" if after == 0 => vec!["component".to_string()],
                    _ => Vec::new(),
                }
            }
        };
    candidates
        .into_iter()
        .filter(|c| typing.is_empty() || lower(c).starts_with(&typing))
        .collect()
}
