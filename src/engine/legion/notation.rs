//! One-line play notation: `move; free attack (Relentless); attack`.
//!
//! Steps are separated by `;`, `,`, `then` or `->`. Each step is one of
//! - `move`, `attack`, `aim`, `dodge`, `standby`, `recover` (optionally `… action`)
//! - `card action NAME` (or `card NAME`)
//! - `free card action NAME`
//! - `free KIND [SOURCE]`: a free action of a type (`free action card NAME` for a card action)
//! - `free action as KIND [SOURCE]`: an untyped free action (`as card NAME` for a card action)
//! - `extra attack [SOURCE]` (an attack that is not an action)
//! - `gain aim|dodge|standby [token] [SOURCE]`
//!
//! SOURCE is `(Ability)`, `(effect: Text)`, `from Ability` or `via Ability`.
//! Without a source, the one ability on the unit that grants the step is used.

use serde_json::Value;

use super::model::{KIND_NAMES, PlayStep, parse_kind, parse_token};
use crate::engine::{BoardError, board};

const MAX_LINE: usize = 2000;

fn strings(board: &Value, field: &str) -> Vec<String> {
    board
        .get("unit")
        .and_then(|u| u.get(field))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

struct AbilityInfo {
    name: String,
    grants: String,
    action: Option<String>,
    token: Option<String>,
}

fn abilities(board: &Value) -> Vec<AbilityInfo> {
    board
        .get("unit")
        .and_then(|u| u.get("abilities"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| {
                    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
                    Some(AbilityInfo {
                        name: s("name")?,
                        grants: crate::text::fold(&s("grants").unwrap_or_default()),
                        action: s("action"),
                        token: s("token"),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Splits a line into step texts.
fn split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let normalized = line.replace("->", ";").replace('→', ";");
    for part in normalized.split([';', ',']) {
        let mut cur = Vec::new();
        for w in part.split_whitespace() {
            if w.eq_ignore_ascii_case("then") {
                out.push(cur.join(" "));
                cur.clear();
            } else {
                cur.push(w);
            }
        }
        out.push(cur.join(" "));
    }
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

/// Strips a case-insensitive word prefix (followed by a space or the end).
fn strip_word<'a>(s: &'a str, word: &str) -> Option<&'a str> {
    let head = s.get(..word.len())?;
    if !head.eq_ignore_ascii_case(word) {
        return None;
    }
    let rest = s.get(word.len()..)?;
    if rest.is_empty() || rest.starts_with(' ') {
        Some(rest.trim_start())
    } else {
        None
    }
}

fn strip_words<'a>(mut s: &'a str, words: &[&str]) -> Option<&'a str> {
    for w in words {
        s = strip_word(s, w)?;
    }
    Some(s)
}

/// Splits off a trailing source: `(…)`, `from …`, `via …`.
fn split_source(s: &str) -> (String, Option<String>) {
    let t = s.trim();
    if t.ends_with(')')
        && let Some(open) = t.rfind('(')
    {
        let inner = t
            .get(open + 1..t.len() - 1)
            .unwrap_or_default()
            .trim()
            .to_string();
        return (
            t.get(..open).unwrap_or_default().trim().to_string(),
            Some(inner),
        );
    }
    let lower = t.to_ascii_lowercase();
    for kw in [" from ", " via ", " with "] {
        if let Some(i) = lower.find(kw) {
            return (
                t.get(..i).unwrap_or_default().trim().to_string(),
                Some(t.get(i + kw.len()..).unwrap_or_default().trim().to_string()),
            );
        }
    }
    (t.to_string(), None)
}

/// Fills `ability`/`effect` of a step from a source text, or infers the ability.
fn source(
    step: &mut PlayStep,
    src: Option<String>,
    board: &Value,
    fits: &dyn Fn(&AbilityInfo) -> bool,
    path: &str,
    what: &str,
) -> Result<(), BoardError> {
    let abilities = abilities(board);
    match src {
        Some(text) => {
            if let Some(rest) = strip_word(&text, "effect")
                .or_else(|| strip_word(&text, "effect:"))
                .or_else(|| text.strip_prefix("effect:").map(str::trim))
            {
                let rest = rest.trim_start_matches(':').trim();
                if rest.is_empty() {
                    return Err(BoardError::semantic(
                        path,
                        "name the effect: `(effect: Take Initiative)`",
                    ));
                }
                step.effect = Some(rest.to_string());
                return Ok(());
            }
            let names: Vec<&str> = abilities.iter().map(|a| a.name.as_str()).collect();
            let n = board::resolve_name(&text, &names, path, "ability").map_err(|mut e| {
                e.message.push_str(
                    "; for an effect that is not one of the unit's abilities write `(effect: …)`",
                );
                e
            })?;
            step.ability = Some(n.to_string());
            Ok(())
        }
        None => {
            let fitting: Vec<&AbilityInfo> = abilities.iter().filter(|a| fits(a)).collect();
            match fitting.as_slice() {
                [one] => {
                    step.ability = Some(one.name.clone());
                    Ok(())
                }
                [] => Err(BoardError::semantic(
                    path,
                    format!("{what} needs its source: `(Ability)` or `(effect: …)`"),
                )),
                many => Err(BoardError::semantic(
                    path,
                    format!(
                        "{what}: several abilities could grant it ({}); name one in parentheses",
                        many.iter()
                            .map(|a| a.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )),
            }
        }
    }
}

fn card_name(
    text: &str,
    board: &Value,
    field: &str,
    path: &str,
    what: &str,
) -> Result<String, BoardError> {
    let list = strings(board, field);
    let refs: Vec<&str> = list.iter().map(String::as_str).collect();
    let text = text.trim().trim_matches('"');
    if text.is_empty() {
        return Err(BoardError::semantic(
            path,
            format!(
                "name the {what}{}",
                if refs.is_empty() {
                    String::new()
                } else {
                    format!(": {}", refs.join(", "))
                }
            ),
        ));
    }
    Ok(board::resolve_name(text, &refs, path, what)?.to_string())
}

fn one(text: &str, board: &Value, path: &str) -> Result<PlayStep, BoardError> {
    let (head, src) = split_source(text);
    let head = head.as_str();
    let mut step = PlayStep::default();
    if let Some(rest) = strip_words(head, &["free", "card", "action"])
        .or_else(|| strip_words(head, &["free", "card"]))
    {
        if src.is_some() {
            return Err(BoardError::semantic(
                path,
                "a free card action is the unit's own; it has no source",
            ));
        }
        step.free_card_action = Some(card_name(
            rest,
            board,
            "free_card_actions",
            path,
            "free card action",
        )?);
        return Ok(step);
    }
    if let Some(rest) = strip_word(head, "free") {
        let rest = strip_word(rest, "action").unwrap_or(rest);
        let (untyped, rest) = match strip_word(rest, "as") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let rest = strip_word(rest, "an")
            .or_else(|| strip_word(rest, "a"))
            .unwrap_or(rest);
        let (word, tail) = rest.split_once(' ').unwrap_or((rest, ""));
        if word.is_empty() {
            return Err(BoardError::semantic(
                path,
                "say which free action: `free attack`, `free action as aim (effect: …)`",
            ));
        }
        let kind = parse_kind(word, &|| path.to_string())?;
        step.free_action = Some(kind.name().to_string());
        if kind.name() == "card" {
            let tail = strip_word(tail, "action").unwrap_or(tail);
            step.card = Some(card_name(tail, board, "card_actions", path, "card action")?);
        } else if !tail.trim().is_empty()
            && strip_word(tail, "action").is_none_or(|t| !t.is_empty())
        {
            return Err(BoardError::semantic(
                path,
                format!("unexpected '{}' after free {}", tail.trim(), kind.name()),
            ));
        }
        let kname = kind.name().to_string();
        source(
            &mut step,
            src,
            board,
            &|a| {
                a.grants == "freeaction"
                    && a.action
                        .as_deref()
                        .is_none_or(|t| crate::text::fold(t) == kname || t == "any")
            },
            path,
            "a free action",
        )?;
        if untyped && step.effect.is_some() {
            step.untyped = Some(true);
        }
        return Ok(step);
    }
    if let Some(rest) = strip_words(head, &["extra", "attack"])
        .or_else(|| strip_words(head, &["additional", "attack"]))
        .or_else(|| strip_words(head, &["attack", "not", "an", "action"]))
    {
        if !rest.is_empty() {
            return Err(BoardError::semantic(
                path,
                format!("unexpected '{rest}' after extra attack"),
            ));
        }
        step.extra_attack = Some(true);
        source(
            &mut step,
            src,
            board,
            &|a| a.grants == "extraattack",
            path,
            "an attack that is not an action",
        )?;
        return Ok(step);
    }
    if let Some(rest) = strip_word(head, "gain").or_else(|| strip_word(head, "gains")) {
        let rest = strip_word(rest, "an")
            .or_else(|| strip_word(rest, "a"))
            .unwrap_or(rest);
        let token = parse_token(rest, &|| path.to_string())?;
        let tname = token.name().to_string();
        step.gain = Some(tname.clone());
        source(
            &mut step,
            src,
            board,
            &|a| {
                a.grants == "token"
                    && a.token
                        .as_deref()
                        .is_some_and(|t| crate::text::fold(t) == tname)
            },
            path,
            "gaining a token",
        )?;
        return Ok(step);
    }
    if src.is_some() {
        return Err(BoardError::semantic(
            path,
            "an action of the unit's own has no source; for a granted action write `free …`",
        ));
    }
    if let Some(rest) = strip_words(head, &["card", "action"]).or_else(|| strip_word(head, "card"))
    {
        step.action = Some("card".into());
        step.card = Some(card_name(rest, board, "card_actions", path, "card action")?);
        return Ok(step);
    }
    let rest = strip_word(head, "an")
        .or_else(|| strip_word(head, "a"))
        .unwrap_or(head);
    let (word, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let kind = parse_kind(word, &|| path.to_string())?;
    if !tail.trim().is_empty() && !tail.trim().eq_ignore_ascii_case("action") {
        return Err(BoardError::semantic(
            path,
            format!("unexpected '{}' after {}", tail.trim(), kind.name()),
        ));
    }
    step.action = Some(kind.name().to_string());
    Ok(step)
}

/// Parses a notation line into a `play` value.
pub fn parse(line: &str, board: &Value) -> Result<Value, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play line is {} characters; the limit is {MAX_LINE}",
            line.len()
        )));
    }
    let parts = split(line);
    if parts.is_empty() {
        return Err(BoardError::semantic(
            "play",
            "the play is empty; try `move; attack`",
        ));
    }
    if parts.len() > super::model::MAX_STEPS {
        return Err(BoardError::refused(format!(
            "the play has {} steps; the limit is {}",
            parts.len(),
            super::model::MAX_STEPS
        )));
    }
    let mut steps = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        steps.push(one(p, board, &format!("play[{i}]"))?);
    }
    serde_json::to_value(steps)
        .map_err(|e| BoardError::refused(format!("cannot serialise the play: {e}")))
}

const STARTERS: &[&str] = &[
    "move",
    "attack",
    "aim",
    "dodge",
    "standby",
    "recover",
    "card action",
    "free",
    "free card action",
    "extra attack",
    "gain",
];

fn filter(cands: Vec<String>, typed: &str) -> Vec<String> {
    let t = typed.trim().to_lowercase();
    cands
        .into_iter()
        .filter(|c| c.to_lowercase().starts_with(&t))
        .collect()
}

/// Candidates for the current or next word of a partly typed line.
pub fn completions(partial: &str, board: &Value) -> Vec<String> {
    let last = partial.rsplit([';', ',']).next().unwrap_or("");
    let last = last
        .rsplit_once(" then ")
        .map_or(last, |(_, r)| r)
        .trim_start();
    if let Some(i) = last.rfind('(') {
        let typed = last.get(i + 1..).unwrap_or_default();
        let mut c: Vec<String> = abilities(board).into_iter().map(|a| a.name).collect();
        c.push("effect:".into());
        return filter(c, typed);
    }
    if let Some(rest) = strip_words(last, &["free", "card", "action"]) {
        return filter(strings(board, "free_card_actions"), rest);
    }
    if let Some(rest) =
        strip_words(last, &["card", "action"]).or_else(|| strip_words(last, &["free", "card"]))
    {
        return filter(strings(board, "card_actions"), rest);
    }
    if let Some(rest) = strip_word(last, "free") {
        let rest = strip_word(rest, "action")
            .map(|r| strip_word(r, "as").unwrap_or(r))
            .unwrap_or(rest);
        let mut c: Vec<String> = KIND_NAMES.iter().map(|k| k.to_string()).collect();
        c.push("card action".into());
        c.push("action as".into());
        if rest.contains(' ') {
            let mut c: Vec<String> = abilities(board)
                .into_iter()
                .map(|a| format!("({})", a.name))
                .collect();
            c.push("(effect: ".into());
            return c;
        }
        return filter(c, rest);
    }
    if let Some(rest) = strip_word(last, "gain") {
        return filter(vec!["aim".into(), "dodge".into(), "standby".into()], rest);
    }
    if last.is_empty() || !last.contains(' ') {
        let done = STARTERS.iter().any(|s| s.eq_ignore_ascii_case(last.trim()));
        if done && !last.trim().is_empty() && !last.trim().eq_ignore_ascii_case("free") {
            return vec!["; ".into(), "then".into()];
        }
        return filter(STARTERS.iter().map(|s| s.to_string()).collect(), last);
    }
    vec!["; ".into(), "then".into()]
}
