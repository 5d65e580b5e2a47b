//! One-line play notation:
//!
//! ```text
//! attack with <attacker> [using <object>, <object>...] [at <target> | cleave <player>] [pay <source>, ...]
//! end main phase
//! ```
//!
//! Names may be quoted ("Bulwark Sword") and resolve fuzzily against the board.

use serde_json::{Value, json};

use super::doc::{Board, CostKind};
use crate::engine::BoardError;
use crate::engine::legacy::resolve_name;

const MAX_LINE: usize = 1000;
const KEYWORDS: [&str; 6] = ["with", "using", "at", "cleave", "pay", "target"];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Quoted(String),
    Comma,
}

fn tokenize(line: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    let mut word = String::new();
    let flush = |w: &mut String, out: &mut Vec<Tok>| {
        if !w.is_empty() {
            out.push(Tok::Word(std::mem::take(w)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' | '“' | '”' => {
                flush(&mut word, &mut out);
                let mut q = String::new();
                for d in chars.by_ref() {
                    if d == '"' || d == '”' || d == '“' {
                        break;
                    }
                    q.push(d);
                }
                out.push(Tok::Quoted(q.trim().to_string()));
            }
            ',' | '+' => {
                flush(&mut word, &mut out);
                out.push(Tok::Comma);
            }
            c if c.is_whitespace() || c == ';' => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

fn keyword(t: &Tok) -> Option<&'static str> {
    match t {
        Tok::Word(w) => KEYWORDS
            .iter()
            .copied()
            .find(|k| w.eq_ignore_ascii_case(k))
            .map(|k| if k == "target" { "at" } else { k }),
        _ => None,
    }
}

/// Splits the tokens after `attack` into (keyword, names) segments.
fn segments(toks: &[Tok]) -> Vec<(&'static str, Vec<String>)> {
    let mut segs: Vec<(&'static str, Vec<String>)> = Vec::new();
    let mut cur: Option<(&'static str, Vec<String>, String)> = None;
    for t in toks {
        if let Some(k) = keyword(t) {
            if let Some((kw, mut names, part)) = cur.take() {
                if !part.is_empty() {
                    names.push(part);
                }
                segs.push((kw, names));
            }
            cur = Some((k, Vec::new(), String::new()));
            continue;
        }
        let Some((_, names, part)) = cur.as_mut() else {
            continue;
        };
        match t {
            Tok::Comma => {
                if !part.is_empty() {
                    names.push(std::mem::take(part));
                }
            }
            Tok::Word(w) | Tok::Quoted(w) => {
                if !part.is_empty() {
                    part.push(' ');
                }
                part.push_str(w);
            }
        }
    }
    if let Some((kw, mut names, part)) = cur {
        if !part.is_empty() {
            names.push(part);
        }
        segs.push((kw, names));
    }
    segs
}

/// Rejoins comma-split parts of a list when together they name a candidate
/// exactly ("Lorraine", "Wandering Warrior" → "Lorraine, Wandering Warrior").
fn merge_commas(parts: &[String], candidates: &[&str]) -> Vec<String> {
    let folded: Vec<String> = candidates.iter().map(|c| fold(c)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let mut took = i + 1;
        for j in (i + 2..=parts.len()).rev() {
            if folded.contains(&fold(&parts[i..j].join(", "))) {
                took = j;
                break;
            }
        }
        out.push(parts[i..took].join(", "));
        i = took;
    }
    out
}

fn board_of(board: &Value) -> Result<Board, BoardError> {
    let mut b: Board = serde_json::from_value(board.clone()).map_err(|e| {
        BoardError::semantic(
            "board",
            format!("the board is not a Grand Archive board document: {e}"),
        )
    })?;
    b.validate()?;
    Ok(b)
}

fn first_word(toks: &[Tok]) -> Option<String> {
    match toks.first() {
        Some(Tok::Word(w)) => Some(w.to_lowercase()),
        _ => None,
    }
}

pub fn parse(line: &str, board: &Value) -> Result<Value, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play line is {} characters; the limit is {MAX_LINE}",
            line.len()
        )));
    }
    let b = board_of(board)?;
    let toks = tokenize(line);
    match first_word(&toks).as_deref() {
        Some("end") => {
            let rest: Vec<String> = toks[1..]
                .iter()
                .filter_map(|t| {
                    if let Tok::Word(w) = t {
                        Some(w.to_lowercase())
                    } else {
                        None
                    }
                })
                .collect();
            if rest
                .iter()
                .all(|w| w == "main" || w == "phase" || w == "the")
            {
                return Ok(json!({ "action": "end_main_phase" }));
            }
            Err(BoardError::semantic("play", "write `end main phase`"))
        }
        Some("attack") | Some("declare") => {
            let tp = b.turn_index();
            let me = b
                .players
                .get(tp)
                .ok_or_else(|| BoardError::semantic("players", "no players"))?;
            let mut play = serde_json::Map::new();
            let declare_attack = first_word(&toks).as_deref() == Some("declare")
                && matches!(toks.get(1), Some(Tok::Word(w)) if w.eq_ignore_ascii_case("attack"));
            let start = if declare_attack { 2 } else { 1 };
            let segs = segments(&toks[start..]);
            if segs.is_empty() {
                return Err(BoardError::semantic(
                    "play.attacker",
                    "write `attack with <attacker> at <target>`",
                ));
            }
            let mine: Vec<&str> = me.cards().map(|(_, c)| c.name.as_str()).collect();
            let objects: Vec<&str> = me.objects.iter().map(|c| c.name.as_str()).collect();
            let opp_units: Vec<&str> = b
                .players
                .iter()
                .enumerate()
                .filter(|(p, _)| *p != tp)
                .flat_map(|(_, p)| p.units().map(|(_, c)| c.name.as_str()))
                .collect();
            let opps: Vec<&str> = b
                .players
                .iter()
                .enumerate()
                .filter(|(p, _)| *p != tp)
                .map(|(_, p)| p.name.as_str())
                .collect();
            let mut extra: Vec<&str> = Vec::new();
            for c in b.costs.iter().filter(|c| c.kind == CostKind::Extra) {
                if !extra.contains(&c.source.as_str()) {
                    extra.push(&c.source);
                }
            }
            for (kw, names) in segs {
                // Card names may hold commas ("Lorraine, Wandering Warrior"):
                // a single-name slot joins its parts back.
                let one = |what: &str| -> Result<String, BoardError> {
                    if names.is_empty() {
                        return Err(BoardError::semantic("play", format!("`{kw}` needs {what}")));
                    }
                    Ok(names.join(", "))
                };
                match kw {
                    "with" => {
                        let n = one("the attacker")?;
                        play.insert(
                            "attacker".into(),
                            json!(resolve_name(&n, &mine, "play.attacker", "card")?),
                        );
                    }
                    "using" => {
                        let mut v = Vec::new();
                        for (i, n) in merge_commas(&names, &objects).iter().enumerate() {
                            v.push(json!(resolve_name(
                                n,
                                &objects,
                                &format!("play.with[{i}]"),
                                "object"
                            )?));
                        }
                        play.insert("with".into(), Value::Array(v));
                    }
                    "at" => {
                        let n = one("a target")?;
                        play.insert(
                            "target".into(),
                            json!(resolve_name(
                                &n,
                                &opp_units,
                                "play.target",
                                "opposing champion or ally"
                            )?),
                        );
                    }
                    "cleave" => {
                        let n = one("a player")?;
                        play.insert(
                            "defending_player".into(),
                            json!(resolve_name(
                                &n,
                                &opps,
                                "play.defending_player",
                                "opponent"
                            )?),
                        );
                    }
                    _ => {
                        let mut v = Vec::new();
                        for (i, n) in merge_commas(&names, &extra).iter().enumerate() {
                            v.push(json!(resolve_name(
                                n,
                                &extra,
                                &format!("play.pay_extra[{i}]"),
                                "extra cost"
                            )?));
                        }
                        play.insert("pay_extra".into(), Value::Array(v));
                    }
                }
            }
            if !play.contains_key("attacker") {
                return Err(BoardError::semantic(
                    "play.attacker",
                    "name the attacker: `attack with <attacker> ...`",
                ));
            }
            Ok(Value::Object(play))
        }
        _ => Err(BoardError::semantic(
            "play",
            "a play starts with `attack with ...` or is `end main phase`",
        )),
    }
}

fn fold(s: &str) -> String {
    crate::text::fold(s)
}

pub fn completions(partial: &str, board: &Value) -> Vec<String> {
    if partial.len() > MAX_LINE {
        return Vec::new();
    }
    let Ok(b) = board_of(board) else {
        return Vec::new();
    };
    let ends_space =
        partial.is_empty() || partial.ends_with(char::is_whitespace) || partial.ends_with(',');
    let toks = tokenize(partial);
    let filter = |cands: Vec<String>, frag: &str| -> Vec<String> {
        let f = fold(frag);
        cands
            .into_iter()
            .filter(|c| fold(c).starts_with(&f) && (f.is_empty() || fold(c) != f))
            .collect()
    };
    match (toks.len(), first_word(&toks).as_deref()) {
        (0, _) => return vec!["attack".into(), "end main phase".into()],
        (1, Some(w)) if !ends_space => {
            return filter(vec!["attack".into(), "end main phase".into()], w);
        }
        (_, Some("end")) => return vec!["main phase".into()],
        (_, Some("attack")) => {}
        _ => return Vec::new(),
    }
    let tp = b.turn_index();
    let Some(me) = b.players.get(tp) else {
        return Vec::new();
    };
    let segs = segments(&toks[1..]);
    let Some((kw, names)) = segs.last() else {
        return vec!["with".into()];
    };
    // Text of the name being typed (after the last comma).
    let after_comma = matches!(toks.last(), Some(Tok::Comma));
    let typing = match *kw {
        "with" | "at" | "cleave" => names.join(", "),
        _ if after_comma => String::new(),
        _ => names.last().cloned().unwrap_or_default(),
    };
    let used: Vec<&str> = segs.iter().map(|(k, _)| *k).collect();
    let next_keywords = || -> Vec<String> {
        let order: &[&str] = match *kw {
            "with" => &["using", "at", "cleave", "pay"],
            "using" => &["at", "cleave", "pay"],
            "at" | "cleave" => &["pay"],
            _ => &[],
        };
        order
            .iter()
            .filter(|k| !used.contains(k))
            .map(|k| k.to_string())
            .collect()
    };
    let cands: Vec<String> = match *kw {
        "with" => me.cards().map(|(_, c)| c.name.clone()).collect(),
        "using" => me.objects.iter().map(|c| c.name.clone()).collect(),
        "at" => b
            .players
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != tp)
            .flat_map(|(_, p)| p.units().map(|(_, c)| c.name.clone()).collect::<Vec<_>>())
            .collect(),
        "cleave" => b
            .players
            .iter()
            .enumerate()
            .filter(|(p, _)| *p != tp)
            .map(|(_, p)| p.name.clone())
            .collect(),
        _ => {
            let mut v: Vec<String> = Vec::new();
            for c in b.costs.iter().filter(|c| c.kind == CostKind::Extra) {
                if !v.contains(&c.source) {
                    v.push(c.source.clone());
                }
            }
            v
        }
    };
    let complete = !typing.is_empty() && cands.iter().any(|c| fold(c) == fold(&typing));
    if complete && ends_space {
        let mut out = next_keywords();
        if matches!(*kw, "using" | "pay") {
            out.insert(0, ",".into());
        }
        return out;
    }
    if typing.is_empty() && !ends_space {
        return Vec::new();
    }
    filter(cands, &typing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_quotes_and_commas() {
        let t = tokenize("attack with \"Fervent Lancer\" using A, B");
        assert_eq!(t[2], Tok::Quoted("Fervent Lancer".into()));
        assert!(t.contains(&Tok::Comma));
        let s = segments(&t[1..]);
        assert_eq!(s[1], ("using", vec!["A".to_string(), "B".to_string()]));
    }
}
