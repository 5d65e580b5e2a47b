//! One-line play notation: `activate Darth Vader; move; free attack (Relentless); attack; end`.
//!
//! Steps are separated by `;`, `,`, `then` or `->`. Each step is one of
//! - `activate UNIT` (first) and `end` (last)
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

use super::board::{Ability, Board, Grant, Unit, texts};
use super::plays::{KIND_NAMES, Kind, MAX_STEPS, Play, Step, TOKENS, kind};
use crate::BoardError;
use crate::kit::bounded::{List, Name};
use crate::kit::notation::{self as lex, clauses, split_outside, split_word, strip_word, unquote};

fn err(path: &str, msg: impl Into<String>) -> BoardError {
    BoardError::semantic(path, msg)
}

/// Splits a line into step texts.
fn split(line: &str) -> Vec<String> {
    let line = line.replace("->", ";").replace('→', ";");
    let mut out = Vec::new();
    for c in clauses(&line) {
        for mut rest in split_outside(c, ',') {
            while let Some((a, b)) = split_word(rest, "then") {
                out.push(a.to_string());
                rest = b;
            }
            out.push(rest.to_string());
        }
    }
    out.retain(|s| !s.trim().is_empty());
    out
}

/// Splits off a trailing source: `(…)`, `from …`, `via …`, `with …`.
fn split_source(s: &str) -> (&str, Option<&str>) {
    let t = s.trim();
    if let Some(open) = t.strip_suffix(')').and_then(|x| x.rfind('(')) {
        return (t[..open].trim(), Some(t[open + 1..t.len() - 1].trim()));
    }
    ["from", "via", "with"]
        .iter()
        .find_map(|w| split_word(t, w).filter(|(a, _)| !a.is_empty()))
        .map_or((t, None), |(a, b)| (a, Some(b)))
}

/// The unit the play is for: the one it activates, or the one activating.
fn unit_of<'b>(b: &'b Board, first: Option<&str>) -> Result<Option<&'b Unit>, BoardError> {
    if let Some(name) = first.and_then(|f| strip_word(f, &["activate", "activates"])) {
        return Ok(Some(b.unit(b.find(unquote(name), "play[0].activate")?)));
    }
    Ok(b.active_ref().map(|r| b.unit(r)))
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let parts = split(line);
    if parts.is_empty() {
        return Err(err("play", "the play is empty; try `move; attack`"));
    }
    if parts.len() > MAX_STEPS {
        let n = parts.len();
        return Err(BoardError::refused(format!(
            "the play has {n} steps; the limit is {MAX_STEPS}"
        )));
    }
    let u = unit_of(b, parts.first().map(String::as_str))?;
    let steps = parts
        .iter()
        .enumerate()
        .map(|(i, p)| step(p, b, u, &format!("play[{i}]")));
    Ok(Play {
        steps: List(steps.collect::<Result<_, _>>()?),
    })
}

/// One step: its words as fields, names resolved when the unit is known.
fn step(text: &str, b: &Board, u: Option<&Unit>, path: &str) -> Result<Step, BoardError> {
    let (head, src) = split_source(text);
    let mut s = Step::default();
    let grant = if let Some(name) = strip_word(head, &["activate", "activates"]) {
        s.activate = Some(
            b.unit(b.find(unquote(name), &format!("{path}.activate"))?)
                .name
                .to_string(),
        );
        None
    } else if strip_word(head, &["end", "ends", "end activation", "done"])
        .is_some_and(str::is_empty)
    {
        s.end = Some(true);
        None
    } else if let Some(rest) = strip_word(head, &["free card action", "free card"]) {
        s.free_card_action = Some(unquote(rest).to_string());
        None
    } else if let Some(rest) = strip_word(head, &["free"]) {
        let rest = strip_word(rest, &["action"]).unwrap_or(rest);
        let (untyped, rest) = strip_word(rest, &["as"]).map_or((false, rest), |r| (true, r));
        let (k, card) = action(strip_word(rest, &["an", "a"]).unwrap_or(rest), path)?;
        (s.free_action, s.card) = (Some(k.name().into()), card);
        s.untyped = untyped.then_some(true);
        Some((Grant::FreeAction, Some(k)))
    } else if let Some(rest) = strip_word(
        head,
        &["extra attack", "additional attack", "attack not an action"],
    ) {
        if !rest.is_empty() {
            return Err(err(path, format!("unexpected '{rest}' after extra attack")));
        }
        s.extra_attack = Some(true);
        Some((Grant::ExtraAttack, None))
    } else if let Some(rest) = strip_word(head, &["gain", "gains"]) {
        let t = kind(
            strip_word(rest, &["an", "a"]).unwrap_or(rest),
            &TOKENS,
            "token",
        )
        .map_err(|e| e.at(path))?;
        s.gain = Some(t.name().into());
        Some((Grant::Token, Some(t)))
    } else {
        let (k, card) = action(strip_word(head, &["an", "a"]).unwrap_or(head), path)?;
        (s.action, s.card) = (Some(k.name().into()), card);
        None
    };
    match (grant, src) {
        (None, Some(_)) => {
            return Err(err(
                path,
                "this step is the unit's own; it has no source (for a granted action write `free …`)",
            ));
        }
        (Some(g), src) => source(&mut s, src, u, g, path)?,
        _ => {}
    }
    if s.effect.is_none() {
        s.untyped = None;
    }
    if let Some(u) = u.filter(|_| s.activate.is_none() && s.end.is_none()) {
        s.resolve(u, path)?;
    }
    Ok(s)
}

/// `attack`, `attack action`, `card action NAME`, `card NAME`: the kind and card.
fn action(text: &str, path: &str) -> Result<(Kind, Option<String>), BoardError> {
    if let Some(rest) = strip_word(text, &["card action", "card"]) {
        return Ok((Kind::Card, Some(unquote(rest).to_string())));
    }
    let (word, tail) = text.split_once(' ').unwrap_or((text, ""));
    if word.is_empty() {
        return Err(err(
            path,
            "say which action: `move`, `free attack`, `free action as aim (effect: …)`",
        ));
    }
    let k = kind(word, &KIND_NAMES, "action").map_err(|e| e.at(path))?;
    match strip_word(tail, &["action"]).unwrap_or(tail).trim() {
        "" => Ok((k, None)),
        extra => Err(err(
            path,
            format!("unexpected '{extra}' after {}", k.name()),
        )),
    }
}

/// Fills `ability`/`effect` from a source text, or infers the one ability
/// on the unit that grants the step.
fn source(
    s: &mut Step,
    src: Option<&str>,
    u: Option<&Unit>,
    (g, k): (Grant, Option<Kind>),
    path: &str,
) -> Result<(), BoardError> {
    if let Some(text) = src {
        match strip_word(text, &["effect"]).or_else(|| text.strip_prefix("effect:")) {
            Some(rest) if rest.trim_start_matches(':').trim().is_empty() => {
                return Err(err(path, "name the effect: `(effect: Take Initiative)`"));
            }
            Some(rest) => {
                let effect = Name::new(rest.trim_start_matches(':').trim());
                s.effect = Some(effect.map_err(|e| err(path, e))?);
            }
            None => s.ability = Some(text.to_string()),
        }
        return Ok(());
    }
    let abilities = u.map(|u| u.abilities.as_slice()).unwrap_or_default();
    let fits = |a: &&Ability| {
        a.grants == Some(g)
            && match g {
                Grant::Token => a.token == k,
                _ => a.free_type().is_none_or(|t| Some(t) == k),
            }
    };
    let fitting: Vec<&str> = abilities
        .iter()
        .filter(fits)
        .map(|a| a.name.as_str())
        .collect();
    match fitting.as_slice() {
        [one] => s.ability = Some(one.to_string()),
        [] => {
            return Err(err(
                path,
                "this step needs its source: `(Ability)` or `(effect: …)`",
            ));
        }
        many => {
            let many = many.join(", ");
            return Err(err(
                path,
                format!("several abilities could grant it ({many}); name one in parentheses"),
            ));
        }
    }
    Ok(())
}

const STARTERS: &[&str] = &[
    "activate",
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
    "end",
];

/// Candidates for the current or next word of a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let first = split(partial).into_iter().next();
    let u = unit_of(b, first.as_deref()).ok().flatten();
    let list = |f: fn(&Unit) -> Vec<String>| u.map(f).unwrap_or_default();
    let last = partial.rsplit([';', ',']).next().unwrap_or("");
    let last = last
        .rsplit_once(" then ")
        .map_or(last, |(_, r)| r)
        .trim_start();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    if let Some(i) = last.rfind('(') {
        let mut c = list(|u| u.abilities.iter().map(|a| a.name.to_string()).collect());
        c.push("effect:".into());
        return lex::complete(&last[i + 1..], c);
    }
    if let Some(rest) = strip_word(last, &["free card action"]) {
        return lex::complete(rest, list(|u| texts(&u.free_card_actions)));
    }
    if let Some(rest) = strip_word(last, &["card action", "free card"]) {
        return lex::complete(rest, list(|u| texts(&u.card_actions)));
    }
    if let Some(rest) = strip_word(last, &["activate"]) {
        let waiting = (0..b.players.len())
            .flat_map(|p| b.waiting(p))
            .map(|r| b.unit(r).name.to_string());
        return lex::complete(rest, waiting);
    }
    if let Some(rest) = strip_word(last, &["gain"]) {
        return lex::complete(rest, words(&TOKENS));
    }
    if let Some(rest) = strip_word(last, &["free"]) {
        let rest =
            strip_word(rest, &["action"]).map_or(rest, |r| strip_word(r, &["as"]).unwrap_or(r));
        if rest.contains(' ') {
            let mut c = list(|u| {
                u.abilities
                    .iter()
                    .map(|a| format!("({})", a.name))
                    .collect()
            });
            c.push("(effect: ".into());
            return c;
        }
        return lex::complete(
            rest,
            [words(&KIND_NAMES), words(&["card action", "action as"])].concat(),
        );
    }
    let t = last.trim();
    if !last.contains(' ')
        && (t.is_empty()
            || t.eq_ignore_ascii_case("free")
            || !STARTERS.iter().any(|s| s.eq_ignore_ascii_case(t)))
    {
        return lex::complete(t, words(STARTERS));
    }
    words(&["; ", "then"])
}
