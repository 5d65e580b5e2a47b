//! One-line play notation, on the shared lexer:
//!
//! ```text
//! line   := [PLAYER ":"] head (";" clause)*
//! head   := "activate" FIGHTER action | "react" FIGHTER REACTION
//! action := "move" NUMBER | "move to" X "," Y | "attack" TARGET ["with" ATTACK]
//!         | "guard" | ["action"] NAME
//! clause := "step" NUMBER | "step to" X "," Y | "free" | "player" NAME
//!         | "visible" NAME ("," NAME)* | "trigger met" | "trigger not met"
//!         | "reaction" FIGHTER REACTION ["step" NUMBER] | "no reaction"
//! ```
//!
//! `reaction` and `no reaction` are the reacting fighters' controllers'
//! choices: in a match they are asked of them, so the acting player writes
//! them only when they agreed.

use super::board::{Board, Counter, Fid, Pos, Said};
use super::plays::{Activation, Play, Reaction};
use crate::BoardError;
use crate::kit::names;
use crate::kit::notation::{self as lex, clauses, list, split_word, strip_word, unquote};
use crate::text::fold;

const USAGE: &str = "start with `activate <fighter> ...` or `react <fighter> <reaction>`";
const ACTIONS: [&str; 4] = ["move", "attack", "guard", "action"];
const CLAUSES: [&str; 8] = [
    "step",
    "step to",
    "free",
    "player",
    "visible",
    "trigger met",
    "reaction",
    "no reaction",
];

fn err(path: &str, message: impl Into<String>) -> BoardError {
    BoardError::semantic(path, message)
}

fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

fn number(s: &str, path: &str) -> Result<f64, BoardError> {
    let t = s.trim().trim_end_matches(['"', '”', '\'']);
    let t = t.trim_end_matches("inches").trim_end_matches("in").trim();
    match t.parse::<f64>() {
        // "-0" is a sign too: refused like "-3", never read as 0.
        Ok(v) if v.is_finite() && !v.is_sign_negative() && v <= 1000.0 => Ok(v),
        _ => Err(err(
            path,
            format!("'{}' is not a distance in inches (e.g. 4 or 0.5)", s.trim()),
        )),
    }
}

fn point(s: &str, path: &str) -> Result<Pos, BoardError> {
    let cleaned = s.replace(['[', ']', '(', ')', ','], " ");
    let bad = || {
        let e = format!(
            "'{}' is not a point; write it as x,y in inches (e.g. 10,12)",
            s.trim()
        );
        err(path, e)
    };
    let xy: Vec<f64> = words(&cleaned)
        .iter()
        .map(|w| w.parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match xy.as_slice() {
        [x, y] if x.is_finite() && y.is_finite() && x.abs().max(y.abs()) <= 1000.0 => Ok([*x, *y]),
        _ => Err(bad()),
    }
}

/// A name as `list` spells it, or as typed when it is not there (the
/// engine then says why it is not available).
fn spelled(list: &[Said], typed: &str) -> String {
    let refs: Vec<&str> = list.iter().map(Said::as_str).collect();
    let typed = unquote(typed);
    names::resolve(typed, &refs, "name").map_or_else(|_| typed.to_string(), str::to_string)
}

fn fighter_name(b: &Board, typed: &str, path: &str) -> Result<String, BoardError> {
    Ok(b.fighter(b.find(unquote(typed), path)?).name.to_string())
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let parts = clauses(line);
    let Some((head, rest)) = parts.split_first() else {
        return Err(err("play", format!("empty play; {USAGE}")));
    };
    let (speaker, head) = lex::speaker(head, &b.names())?;
    let ws = words(head);
    let mut play = match ws.split_first().map(|(v, r)| (fold(v), r)) {
        Some((v, r)) if v == "activate" || v == "act" => Play::Activate(activation(b, r)?),
        Some((v, r)) if v == "react" || v == "reaction" => {
            Play::React(reaction(b, r, "play.react")?)
        }
        _ => {
            return Err(err("play", format!("'{head}' is not a play; {USAGE}")));
        }
    };
    if let Some(s) = speaker {
        set_player(&mut play, b.name(s));
    }
    for c in rest {
        clause(b, &mut play, c)?;
    }
    Ok(play)
}

fn activation(b: &Board, ws: &[&str]) -> Result<Activation, BoardError> {
    let kw = ws.iter().position(|w| ACTIONS.contains(&fold(w).as_str()));
    // No keyword: the longest run of words naming a fighter, then a named action.
    let cut = kw.unwrap_or_else(|| {
        (1..ws.len())
            .rev()
            .find(|k| b.find(unquote(&ws[..*k].join(" ")), "").is_ok())
            .unwrap_or(ws.len())
    });
    let (fw, aw) = ws.split_at(cut);
    if fw.is_empty() {
        let e = "name the fighter to activate: `activate Pyromancer guard`";
        return Err(err("play.activate", e));
    }
    let f = b.fighter(b.find(unquote(&fw.join(" ")), "play.activate")?);
    let mut a = Activation {
        activate: f.name.to_string(),
        ..Activation::default()
    };
    let Some((verb, args)) = aw.split_first() else {
        let e = format!(
            "say what {} does: move, attack, guard or another action",
            f.name
        );
        return Err(err("play.action", e));
    };
    let args = args.join(" ");
    let verb = fold(verb);
    a.action = Some(verb.clone());
    match verb.as_str() {
        "move" => match strip_word(&args, &["to"]) {
            Some(p) => a.to = Some(point(p, "play.to")?),
            None if args.is_empty() => {
                return Err(err("play.distance", "how far? `move 4` or `move to 10,12`"));
            }
            None => a.distance = Some(number(&args, "play.distance")?),
        },
        "attack" => {
            let (t, with) =
                split_word(&args, "with").map_or((args.as_str(), None), |(t, w)| (t, Some(w)));
            if t.is_empty() {
                let e = "attack whom? `attack Stonewarden with Fire Bolt`";
                return Err(err("play.target", e));
            }
            a.target = Some(fighter_name(b, t, "play.target")?);
            a.attack = with.map(|w| spelled(&f.attacks, w));
        }
        "guard" => {}
        v => {
            let name = if v == "action" { args } else { aw.join(" ") };
            if name.is_empty() {
                let e = "name the action: `activate Pyromancer action Fireball`";
                return Err(err("play.action", e));
            }
            a.action = Some(spelled(&f.actions, &name));
        }
    }
    Ok(a)
}

/// `FIGHTER REACTION`: the longest fighter name whose reaction resolves;
/// else the first fighter found, with the reaction as typed.
fn reaction(b: &Board, ws: &[&str], path: &str) -> Result<Reaction, BoardError> {
    let usage = || {
        err(
            path,
            "write the fighter, then the reaction: `react Stonewarden dodge`",
        )
    };
    let make = |fighter: &str, react: &str| Reaction {
        react: react.to_string(),
        fighter: fighter.to_string(),
        ..Reaction::default()
    };
    let mut fallback = None;
    for k in (1..ws.len()).rev() {
        let Ok(id) = b.find(unquote(&ws[..k].join(" ")), path) else {
            continue;
        };
        let f = b.fighter(id);
        let typed = ws[k..].join(" ");
        let refs: Vec<&str> = f.reactions.iter().map(|r| r.name()).collect();
        match names::resolve(unquote(&typed), &refs, "reaction") {
            Ok(r) => return Ok(make(&f.name, r)),
            Err(_) => fallback = fallback.or_else(|| Some(make(&f.name, unquote(&typed)))),
        }
    }
    match (fallback, ws.first()) {
        (Some(r), _) => Ok(r),
        (None, Some(w)) if ws.len() > 1 => {
            Err(b.find(unquote(w), path).err().unwrap_or_else(usage))
        }
        _ => Err(usage()),
    }
}

fn set_player(play: &mut Play, name: String) {
    match play {
        Play::Activate(a) => a.player = Some(name),
        Play::React(r) => r.player = Some(name),
    }
}

fn clause(b: &Board, play: &mut Play, c: &str) -> Result<(), BoardError> {
    let ws = words(c);
    let Some((k, rest)) = ws.split_first() else {
        return Ok(());
    };
    let rest = rest.join(" ");
    match (fold(k).as_str(), play) {
        ("step" | "free", play) => {
            let (step, step_to, free) = match play {
                Play::Activate(a) => (&mut a.step, &mut a.step_to, &mut a.free),
                Play::React(r) => (&mut r.step, &mut r.step_to, &mut r.free),
            };
            if fold(k) != "free" && (step.is_some() || step_to.is_some()) {
                let first = match (*step, *step_to) {
                    (Some(n), _) => format!("step {n}"),
                    _ => "step to …".to_string(),
                };
                return Err(lex::said_twice("play.step", &first, c));
            }
            match strip_word(&rest, &["to"]) {
                _ if fold(k) == "free" => *free = true,
                Some(p) => *step_to = Some(point(p, "play.step_to")?),
                None => *step = Some(number(&rest, "play.step")?),
            }
        }
        ("player" | "by", play) => set_player(play, b.name(b.seat(unquote(&rest), "play.player")?)),
        ("trigger", Play::React(r)) => r.trigger_met = Some(!ws.iter().any(|w| fold(w) == "not")),
        ("visible" | "sees", Play::Activate(a)) => {
            let seen = list(&rest);
            let seen = seen.iter().map(|n| fighter_name(b, n, "play.visible"));
            a.visible = Some(seen.collect::<Result<_, _>>()?);
        }
        ("reaction" | "react", Play::Activate(a)) => {
            let path = format!(
                "play.reactions[{}]",
                a.reactions.as_ref().map_or(0, |l| l.len())
            );
            let (who, n) =
                split_word(&rest, "step").map_or((rest.as_str(), None), |(w, n)| (w, Some(n)));
            let mut r = reaction(b, &words(who), &path)?;
            r.step = n.map(|n| number(n, &format!("{path}.step"))).transpose()?;
            a.reactions.get_or_insert_default().push(r);
        }
        ("no", Play::Activate(a)) if fold(&rest) == "reaction" => {
            a.reactions.get_or_insert_default();
        }
        (k, _) => {
            let clauses = CLAUSES.join(", ");
            let e = format!(
                "clause '{k}' is not understood here; clauses are: {clauses} (`trigger` after `react`; `visible` and `reaction` after `activate`)"
            );
            return Err(err("play", e));
        }
    }
    Ok(())
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let to_strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let fighters = |keep: &dyn Fn(Fid) -> bool| -> Vec<String> {
        let ids = b.ids().into_iter().filter(|i| keep(*i));
        ids.map(|i| b.fighter(i).name.to_string()).collect()
    };
    if let Some(i) = partial.rfind(';') {
        let (before, frag) = lex::fragment(partial[i + 1..].trim_start(), &[","]);
        let cands = match fold(before).as_str() {
            "" => to_strings(&CLAUSES),
            "player" | "by" => to_strings(&b.names()),
            "visible" | "sees" | "reaction" => fighters(&|_| true),
            _ => Vec::new(),
        };
        return lex::complete(frag.trim_start(), cands);
    }
    let (_, body) = lex::speaker(partial, &b.names()).unwrap_or((None, partial));
    let ws = words(body);
    let ended = body.is_empty() || body.ends_with(char::is_whitespace);
    let (done, cur) = match ws.split_last() {
        Some((last, done)) if !ended => (done, *last),
        _ => (&ws[..], ""),
    };
    let typed = |from: &[&str]| [from, &[cur]].concat().join(" ").trim().to_string();
    let known = |ws: &[&str]| {
        let n = ws.join(" ");
        b.ids()
            .into_iter()
            .find(|i| !n.is_empty() && fold(&b.fighter(*i).name) == fold(&n))
    };
    let Some((verb, rest)) = done.split_first() else {
        return lex::complete(cur, to_strings(&["activate", "react"]));
    };
    match fold(verb).as_str() {
        "activate" | "act" => {
            let turn = b.turn_seat();
            let ready =
                |i: Fid| turn.is_none_or(|t| t == i.0) && b.fighter(i).counter != Counter::Double;
            let Some(k) = rest
                .iter()
                .position(|w| ACTIONS.contains(&fold(w).as_str()))
            else {
                return match known(rest) {
                    Some(id) => {
                        let mut c = to_strings(&ACTIONS[..3]);
                        c.extend(b.fighter(id).actions.iter().map(Said::to_string));
                        lex::complete(cur, c)
                    }
                    None => lex::complete(&typed(rest), fighters(&ready)),
                };
            };
            let who = known(&rest[..k]);
            let args = &rest[k + 1..];
            match fold(rest[k]).as_str() {
                "move" if args.is_empty() => lex::complete(cur, to_strings(&["to"])),
                "attack" => match args.iter().position(|w| fold(w) == "with") {
                    Some(w) => {
                        let attacks = who.map(|i| b.fighter(i).attacks.iter().map(Said::to_string));
                        lex::complete(&typed(&args[w + 1..]), attacks.into_iter().flatten())
                    }
                    None if known(args).is_some() => lex::complete(cur, to_strings(&["with"])),
                    None => lex::complete(&typed(args), fighters(&|i| Some(i) != who)),
                },
                _ => Vec::new(),
            }
        }
        "react" | "reaction" => {
            let split = (1..=rest.len())
                .rev()
                .find_map(|k| Some((known(&rest[..k])?, k)));
            match split {
                Some((id, k)) => {
                    let rs = b.fighter(id).reactions.iter().map(|r| r.name().to_string());
                    lex::complete(&typed(&rest[k..]), rs.collect::<Vec<_>>())
                }
                None => {
                    let with = fighters(&|i| !b.fighter(i).reactions.is_empty());
                    lex::complete(&typed(rest), with)
                }
            }
        }
        _ => Vec::new(),
    }
}
