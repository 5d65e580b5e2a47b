//! One-line play notation, on the shared lexer:
//!
//! ```text
//! [PLAYER:] attack with ATTACKER [using OBJECT, …] [at TARGET | cleave PLAYER] [pay SOURCE, …] [refuse SOURCE, …] [; respond with RESPONSE | ; no response]
//! [PLAYER:] end main phase
//! ```
//!
//! `target` is a synonym of `at`, `declare attack with …` also works, `+`
//! works like `,`. Names resolve against the board and may hold commas
//! (`Lorraine, Wandering Warrior`); quote a name that holds a keyword. The
//! clause after `;` is the defending player's answer at the Retaliation
//! Step: in a match it is asked of them instead.

use super::board::{Board, Player};
use super::plays::{Named, Play, cards_of, extra_sources, passes};
use super::wording::Misread;
use crate::BoardError;
use crate::kit::names;
use crate::kit::notation::{
    self as lex, clauses, keyword, split_outside, split_word, strip_word, unquote,
};
use crate::text::fold;

const KEYWORDS: &[&str] = &["with", "using", "at", "target", "cleave", "pay", "refuse"];

fn err(path: &str, message: impl Into<String>) -> BoardError {
    BoardError::semantic(path, message)
}

/// The segments of an attack after `attack`: (keyword, text), `target` read as `at`.
fn segments(s: &str) -> Vec<(&'static str, &str)> {
    let mut out = Vec::new();
    let Some((mut kw, mut rest)) = keyword(s, KEYWORDS) else {
        return out;
    };
    loop {
        let at_kw = if kw == "target" { "at" } else { kw };
        let next = KEYWORDS
            .iter()
            .filter_map(|k| split_word(rest, k).map(|(a, b)| (a.len(), *k, a, b)));
        match next.min_by_key(|x| x.0) {
            Some((_, k, before, after)) => {
                out.push((at_kw, before));
                (kw, rest) = (k, after);
            }
            None => {
                out.push((at_kw, rest.trim()));
                return out;
            }
        }
    }
}

/// The names a keyword takes, for the player at `tp`.
fn candidates(b: &Board, tp: usize, kw: &str) -> Vec<String> {
    let (opponents, name) = (b.opponents(tp), |c: &Named| c.2.to_string());
    match kw {
        "with" => cards_of(b, &[tp], Player::cards).iter().map(name).collect(),
        "using" => b.players[tp]
            .objects
            .iter()
            .map(|c| c.name.to_string())
            .collect(),
        "at" => cards_of(b, &opponents, Player::units)
            .iter()
            .map(name)
            .collect(),
        "cleave" => opponents.iter().map(|&p| b.name(p)).collect(),
        _ => extra_sources(b).into_iter().map(String::from).collect(),
    }
}

fn one(text: &str, cands: &[&str], path: &str, what: &'static str) -> Result<String, BoardError> {
    let n = names::resolve(unquote(text), cands, what).map_err(|e| e.at(path))?;
    Ok(n.to_string())
}

/// The target as `at` names it: a name two opponents' cards share, or
/// one given with its owner ("Bob's Stalwart Guard"), is left for the
/// play's resolution, which tells the cards apart by their owners (this
/// one read "Stalwart Guard or Stalwart Guard"). The name of one of the
/// player's own units is left for it too: choosing it is illegal at 2.c
/// (a reading the ruling labels), not a name the line lacks.
fn target_named(text: &str, cands: &[&str], b: &Board, tp: usize) -> Result<String, BoardError> {
    let typed = unquote(text);
    let units = b.players[tp].units();
    let own = units.iter().any(|(_, c)| fold(&c.name) == fold(typed));
    let owned = ["'s ", "’s "].iter().any(|sep| {
        typed
            .split_once(sep)
            .is_some_and(|(owner, _)| b.names().iter().any(|n| fold(n) == fold(owner)))
    });
    let whole = cands.iter().any(|c| fold(c) == fold(typed));
    match names::resolve(typed, cands, "opposing champion or ally") {
        Err(names::NameError::Ambiguous { .. }) => Ok(typed.to_string()),
        Err(_) if own => Ok(typed.to_string()),
        Err(_) if owned && !whole => Ok(typed.to_string()),
        found => Ok(found.map_err(|e| e.at("play.target"))?.to_string()),
    }
}

fn many(
    text: &str,
    cands: &[&str],
    field: &str,
    what: &'static str,
) -> Result<Vec<String>, BoardError> {
    let parts: Vec<String> = split_outside(&text.replace('+', ","), ',')
        .iter()
        .map(|p| unquote(p).to_string())
        .collect();
    let each = merge_commas(&parts, cands).into_iter().enumerate();
    each.map(|(i, n)| one(&n, cands, &format!("{field}[{i}]"), what))
        .collect()
}

/// Rejoins comma-split parts of a list when together they name a candidate
/// exactly ("Lorraine", "Wandering Warrior" → "Lorraine, Wandering Warrior").
fn merge_commas(parts: &[String], candidates: &[&str]) -> Vec<String> {
    let folded: Vec<String> = candidates.iter().map(|c| fold(c)).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let joins = |j: &usize| folded.contains(&fold(&parts[i..*j].join(", ")));
        let took = (i + 2..=parts.len()).rev().find(joins).unwrap_or(i + 1);
        out.push(parts[i..took].join(", "));
        i = took;
    }
    out
}

/// The defending player's answer, from the clauses after the attack.
fn response(rest: &[&str]) -> Result<Option<String>, BoardError> {
    let (mut out, mut said) = (None, None);
    for c in rest {
        let answer = match strip_word(c, &["respond", "responds"]) {
            Some(r) => unquote(strip_word(r, &["with"]).unwrap_or(r)).to_string(),
            None if passes(c) => "pass".to_string(),
            None => {
                return Err(err("play.response", Misread::Response(c)));
            }
        };
        lex::once(&mut said, c, "play.response")?;
        out = Some(answer);
    }
    Ok(out.map(|r| if r.is_empty() { "respond".into() } else { r }))
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let parts = clauses(line);
    let (head, rest) = parts
        .split_first()
        .ok_or_else(|| err("play", Misread::Empty))?;
    let (speaker, head) = lex::speaker(head, &b.names())?;
    let (player, tp) = (
        speaker.map(|s| b.name(s)),
        speaker.unwrap_or_else(|| b.turn_seat()),
    );
    if let Some(r) = strip_word(head, &["end"]) {
        let words = r
            .split_whitespace()
            .all(|w| matches!(fold(w).as_str(), "main" | "phase" | "the"));
        if !words || !rest.is_empty() {
            return Err(err("play", Misread::EndMainPhase));
        }
        return Ok(Play::EndMainPhase { player });
    }
    let declare = strip_word(head, &["declare"]).and_then(|r| strip_word(r, &["attack"]));
    let Some(body) = strip_word(head, &["attack", "attacks"]).or(declare) else {
        return Err(err("play", Misread::NoPlay));
    };
    let (mut attacker, mut with, mut target, mut defending_player) = (None, None, None, None);
    let (mut pay_extra, mut refuse_extra) = (Vec::new(), Vec::new());
    let mut seen: Vec<(&str, String)> = Vec::new();
    for (kw, text) in segments(body) {
        if text.is_empty() {
            return Err(err("play", Misread::NeedsName(kw)));
        }
        if let Some((_, first)) = seen.iter().find(|(k, _)| *k == kw) {
            return Err(lex::said_twice("play", first, &format!("{kw} {text}")));
        }
        seen.push((kw, format!("{kw} {text}")));
        let cands = candidates(b, tp, kw);
        let c: Vec<&str> = cands.iter().map(String::as_str).collect();
        match kw {
            "with" => attacker = Some(one(text, &c, "play.attacker", "card")?),
            "using" => with = Some(many(text, &c, "play.with", "object")?),
            "at" => target = Some(target_named(text, &c, b, tp)?),
            "cleave" => {
                defending_player = Some(one(text, &c, "play.defending_player", "opponent")?)
            }
            "pay" => pay_extra = many(text, &c, "play.pay_extra", "extra cost")?,
            _ => refuse_extra = many(text, &c, "play.refuse_extra", "extra cost")?,
        }
    }
    let attacker = attacker.ok_or_else(|| err("play.attacker", Misread::NameAttacker))?;
    let response = response(rest)?;
    Ok(Play::DeclareAttack {
        player,
        attacker,
        with,
        target,
        defending_player,
        pay_extra,
        refuse_extra,
        response,
    })
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    if let Some(i) = partial.rfind(';') {
        return lex::complete(
            partial[i + 1..].trim_start(),
            words(&["respond with", "no response"]),
        );
    }
    let (speaker, body) = lex::speaker(partial, &b.names()).unwrap_or((None, partial));
    let tp = speaker.unwrap_or_else(|| b.turn_seat());
    let (t, spaced) = (
        body.trim_start(),
        partial.is_empty() || partial.ends_with([' ', ',']),
    );
    let rest = match strip_word(t, &["attack"]) {
        Some(rest) if spaced || !rest.is_empty() => rest,
        _ if strip_word(t, &["end"]).is_some() => return words(&["main phase"]),
        _ => return lex::complete(t, words(&["attack", "end main phase"])),
    };
    let segs = segments(rest);
    let Some(&(kw, text)) = segs.last() else {
        return lex::complete(rest, words(&["with"]));
    };
    let cands = candidates(b, tp, kw);
    let list = matches!(kw, "using" | "pay" | "refuse");
    let typing = unquote(if list {
        text.rsplit(',').next().unwrap_or("")
    } else {
        text
    });
    if spaced && !typing.is_empty() && cands.iter().any(|c| fold(c) == fold(typing)) {
        let used: Vec<&str> = segs.iter().map(|s| s.0).collect();
        let next = ["using", "at", "cleave", "pay", "refuse"]
            .into_iter()
            .filter(|k| !used.contains(k));
        return [if list { vec![","] } else { vec![] }, next.collect()]
            .concat()
            .into_iter()
            .map(String::from)
            .collect();
    }
    lex::complete(typing, cands)
}
