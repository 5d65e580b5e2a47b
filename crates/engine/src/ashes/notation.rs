//! One-line play notation, on the shared lexer:
//!
//! ```text
//! [PLAYER:] pass
//! [PLAYER:] pay CARD main | pay CARD no main
//! [PLAYER:] attack [phoenixborn] [PB] with A, B [; block A with X [counter|no counter]]… [; no block] [; order B, A]
//! [PLAYER:] attack unit TARGET with A, B [; guard phoenixborn|UNIT|none] [; counter|no counter] [; split A 1, B 2]
//! ```
//!
//! The clauses after the first are the defending player's choices: in a
//! match they are asked of her, so the attacker writes them only when she
//! agreed (`agreed by`).

use std::collections::BTreeMap;

use super::board::{Board, Said};
use super::plays::{Block, OneOrMany, Play, Units};
use super::wording::Unparsed;
use crate::BoardError;
use crate::kit::bounded::{List, Name};
use crate::kit::names;
use crate::kit::notation::{
    self as lex, clauses, keyword, list, list_of, split_word, strip_suffix_word, strip_word,
    unquote,
};
use crate::text::fold;

fn err(path: &str, message: impl Into<String>) -> BoardError {
    BoardError::semantic(path, message)
}

/// Parses a notation line into a play.
pub fn parse(line: &str, b: &Board) -> Result<Play, BoardError> {
    let parts = clauses(line);
    let Some((head, rest)) = parts.split_first() else {
        return Err(err("play", Unparsed::Empty));
    };
    let (speaker, head) = lex::speaker(head, &b.names())?;
    let player = speaker.map(|s| b.players[s].name.clone());
    let actor = speaker.unwrap_or_else(|| b.turn_seat());
    if strip_word(head, &["pass"]).is_some_and(str::is_empty) {
        if let Some(extra) = rest.first() {
            return Err(err("play", Unparsed::PassTakesNothing { extra }));
        }
        return Ok(Play::Pass { player });
    }
    if let Some(card) = strip_word(head, &["pay", "play", "activate"]) {
        if let Some(extra) = rest.first() {
            return Err(err("play", Unparsed::PayTakesNothing { extra }));
        }
        return pay(card, player);
    }
    let Some(attack) = strip_word(head, &["attack", "attacks"]) else {
        return Err(err("play", Unparsed::NotAPlay { head }));
    };
    let (kind, attack) = match keyword(attack, &["phoenixborn", "pb", "unit"]) {
        Some(("unit", r)) => (Some(false), r),
        Some((_, r)) => (Some(true), r),
        None => (None, attack),
    };
    let (target, attackers) = match split_word(attack, "with") {
        Some((t, a)) => (unquote(t).to_string(), a),
        None => {
            return Err(err("play.attackers", Unparsed::NoWith));
        }
    };
    let attackers = attackers_of(b, actor, attackers)?;
    let on_pb = kind.unwrap_or_else(|| target.is_empty() || targets_phoenixborn(b, actor, &target));
    if on_pb {
        attack_pb(b, player, attackers, &target, rest)
    } else {
        attack_unit(b, actor, player, attackers, &target, rest)
            .map_err(|e| misspelt_kind(e, kind.is_none(), &target))
    }
}

/// A target no unit is named, that reads as a misspelt `phoenixborn` or
/// `unit` where neither was written (`attack pheonixborn with …`): the
/// action meant is suggested (it read "unknown unit 'pheonixborn'").
fn misspelt_kind(e: BoardError, no_kind: bool, target: &str) -> BoardError {
    let kinds = ["phoenixborn", "unit"];
    let near = crate::text::closest(target, kinds, crate::text::typo_budget(target));
    match near {
        Some(k) if no_kind && e.path.as_deref() == Some("play.target") => BoardError {
            message: format!("{}; did you mean the action `attack {k}`?", e.message),
            ..e
        },
        _ => e,
    }
}

fn pay(text: &str, player: Option<Said>) -> Result<Play, BoardError> {
    let words = [
        "without main action",
        "without main",
        "no main action",
        "no main",
        "(no main)",
        "side",
        "with main action",
        "with main",
        "main action",
        "(main)",
        "main",
    ];
    let (main, card) = match strip_suffix_word(text, &words) {
        Some((w, card)) => (
            Some(
                !(w.starts_with("no")
                    || w.starts_with("without")
                    || w.starts_with("(no")
                    || w == "side"),
            ),
            card,
        ),
        None => (None, text),
    };
    let card = unquote(card);
    if card.is_empty() {
        return Err(err("play.card", Unparsed::NoCard));
    }
    let Some(main) = main else {
        return Err(err("play.main_action", Unparsed::NoMainAction));
    };
    Ok(Play::PayCost {
        player,
        card: Said::new(card).map_err(|m| err("play.card", m))?,
        main_action: Some(main),
    })
}

fn attackers_of(b: &Board, actor: usize, text: &str) -> Result<Units, BoardError> {
    let known: Vec<&str> = b
        .players
        .iter()
        .flat_map(|p| p.units.iter().map(|u| u.name.as_str()))
        .collect();
    let typed = list_of(text, &known);
    if typed.is_empty() {
        return Err(err("play.attackers", Unparsed::NoAttacker));
    }
    let found = typed.iter().enumerate().map(|(i, a)| {
        b.find_unit(a, &format!("play.attackers[{i}]"), actor)
            .map(|r| b.unit_name(r))
    });
    Units::new(found.collect::<Result<_, _>>()?).map_err(|m| err("play.attackers", m))
}

/// Whether `target` names a Phoenixborn or player rather than a unit.
fn targets_phoenixborn(b: &Board, actor: usize, target: &str) -> bool {
    let key = fold(target);
    let is_unit = b
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != actor)
        .any(|(_, p)| p.units.iter().any(|u| fold(&u.name) == key));
    !is_unit
        && b.players
            .iter()
            .any(|p| fold(&p.phoenixborn.name).starts_with(&key) || fold(&p.name).starts_with(&key))
}

fn attack_pb(
    b: &Board,
    player: Option<Said>,
    attackers: Units,
    target: &str,
    rest: &[&str],
) -> Result<Play, BoardError> {
    let target = match target {
        "" => None,
        t => Some(Said::new(t).map_err(|m| err("play.target", m))?),
    };
    let d = target.as_deref().and_then(|t| {
        let pbs: Vec<&str> = b
            .players
            .iter()
            .map(|p| p.phoenixborn.name.as_str())
            .collect();
        names::resolve_index(t, &pbs, "Phoenixborn")
            .or_else(|_| names::resolve_index(t, &b.names(), "player"))
            .ok()
    });
    let refs: Vec<&str> = attackers.iter().map(Said::as_str).collect();
    let (mut blocks, mut order) = (List::default(), Units::default());
    for clause in rest {
        if let Some(r) = strip_word(clause, &["block", "blocks"]) {
            let Some((a, blocker)) = split_word(r, "with") else {
                return Err(err("play.blocks", Unparsed::Block { clause }));
            };
            let j = blocks.len();
            let attacker = names::resolve(unquote(a), &refs, "attacking unit")
                .map_err(|e| e.at(&format!("play.blocks[{j}].attacker")))?;
            let (counter, blocker) =
                match strip_suffix_word(blocker, &["no counter", "counters", "counter"]) {
                    Some((w, rest)) => (
                        Some(w != "no counter"),
                        rest.trim_end_matches([',']).trim_end(),
                    ),
                    None => (None, blocker),
                };
            let blocker = unit_name(b, d, unquote(blocker), &format!("play.blocks[{j}].blocker"))?;
            blocks.push(Block {
                attacker: Name(attacker.to_string()),
                blocker: Some(blocker),
                counter,
            });
        } else if let Some(r) = strip_word(clause, &["order"]) {
            for (k, a) in list_of(r, &refs).iter().enumerate() {
                let a = names::resolve(a, &refs, "attacking unit")
                    .map_err(|e| e.at(&format!("play.order[{k}]")))?;
                order.push(Name(a.to_string()));
            }
        } else if matches!(
            fold(clause).as_str(),
            "noblock" | "noblocks" | "noblockers" | "unblocked"
        ) {
            for a in &attackers {
                if !blocks.iter().any(|x: &Block| &x.attacker == a) {
                    blocks.push(Block {
                        attacker: a.clone(),
                        blocker: None,
                        counter: None,
                    });
                }
            }
        } else {
            return Err(err("play", Unparsed::PhoenixbornClause { clause }));
        }
    }
    Ok(Play::AttackPhoenixborn {
        player,
        attackers,
        target,
        blocks,
        order,
    })
}

/// A unit name as the board spells it, looked up on the defender's side first.
fn unit_name(
    b: &Board,
    defender: Option<usize>,
    typed: &str,
    path: &str,
) -> Result<Said, BoardError> {
    let prefer = defender.unwrap_or(b.players.len().saturating_sub(1));
    b.find_unit(typed, path, prefer).map(|r| b.unit_name(r))
}

fn attack_unit(
    b: &Board,
    actor: usize,
    player: Option<Said>,
    attackers: Units,
    target: &str,
    rest: &[&str],
) -> Result<Play, BoardError> {
    if target.is_empty() {
        return Err(err("play.target", Unparsed::NoTarget));
    }
    let t = b.find_target(target, "play.target", actor)?;
    let refs: Vec<&str> = attackers.iter().map(Said::as_str).collect();
    let (mut guards, mut counter, mut split) = (Vec::new(), None, BTreeMap::new());
    let mut counter_said = None;
    for clause in rest {
        let key = fold(clause);
        if let Some(g) = strip_word(clause, &["guard", "guards"]) {
            // "guard with Ice Golem", as the decision's buttons say it.
            let g = unquote(
                strip_word(g, &["with"])
                    .filter(|r| !r.is_empty())
                    .unwrap_or(g),
            );
            let pb = &b.players[t.0];
            let is_pb = matches!(fold(g).as_str(), "phoenixborn" | "pb")
                || [fold(&pb.phoenixborn.name), fold(&pb.name)].contains(&fold(g));
            guards.push(if is_pb {
                Name("phoenixborn".into())
            } else {
                unit_name(b, Some(t.0), g, "play.guard")?
            });
        } else if matches!(key.as_str(), "noguard" | "unguarded") {
            guards.push(Name("none".into()));
        } else if matches!(key.as_str(), "counter" | "counters") {
            lex::once(&mut counter_said, clause, "play.counter")?;
            counter = Some(true);
        } else if matches!(
            key.as_str(),
            "nocounter" | "doesnotcounter" | "doesntcounter"
        ) {
            lex::once(&mut counter_said, clause, "play.counter")?;
            counter = Some(false);
        } else if let Some(r) = strip_word(clause, &["split"]) {
            for part in lex::split_outside(r, ',') {
                // After the last character that is no digit (whole: "é").
                let cut = part
                    .char_indices()
                    .rfind(|&(_, c)| !c.is_ascii_digit())
                    .map_or(0, |(i, c)| i + c.len_utf8());
                let (name, num) = part.split_at(cut);
                // A sign or a decimal point before the digits ("-1", "1.5")
                // is part of the amount, not of the name: refused, never
                // dropped (the name "Iron Worker -" resolved, and -1 read 1).
                let signed = name.ends_with(['-', '+', '.', '\u{2212}', '\u{2013}']);
                let amount: u32 = num
                    .parse()
                    .ok()
                    .filter(|_| !signed)
                    .ok_or_else(|| err("play.split", Unparsed::Share { part }))?;
                let name = unquote(name.trim().trim_end_matches([':', '=']).trim());
                let n = names::resolve(name, &refs, "attacking unit")
                    .map_err(|e| e.at(&format!("play.split[\"{name}\"]")))?;
                if let Some(old) = split.insert(Name(n.to_string()), amount) {
                    let path = format!("play.split[\"{n}\"]");
                    return Err(lex::said_twice(&path, &format!("{n} {old}"), part.trim()));
                }
            }
        } else {
            return Err(err("play", Unparsed::UnitClause { clause }));
        }
    }
    let guard = match guards.len() {
        0 => None,
        1 => guards.pop().map(OneOrMany::One),
        _ => Some(OneOrMany::Many(
            Units::new(guards).map_err(|why| err("play", why))?,
        )),
    };
    Ok(Play::AttackUnit {
        player,
        attackers,
        target: b.target_name(t, actor),
        guard,
        counter,
        split,
    })
}

/// Next-word candidates for a partly typed line.
pub fn completions(partial: &str, b: &Board) -> Vec<String> {
    let last = partial.rfind(';').map_or(0, |i| i + 1);
    let head = partial.split(';').next().unwrap_or("");
    let (speaker, body) = lex::speaker(head, &b.names()).unwrap_or((None, head));
    let actor = speaker.unwrap_or_else(|| b.turn_seat());
    let clause = partial[last..].trim_start();
    let (before, fragment) = lex::fragment(clause, &[",", " with ", " and "]);
    let ctx = fold(before);
    let others = |f: &dyn Fn(&super::board::Unit) -> bool| -> Vec<String> {
        b.players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != actor)
            .flat_map(|(_, p)| p.units.iter().filter(|u| f(u)).map(|u| u.name.to_string()))
            .collect()
    };
    let declared = split_word(body, "with")
        .map(|(_, a)| list(a))
        .unwrap_or_default();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let unit_attack = fold(body).starts_with("attackunit");
    let cands: Vec<String> = if last > 0 {
        match ctx.as_str() {
            "" if unit_attack => words(&["guard", "no guard", "counter", "no counter", "split"]),
            "" => words(&["block", "no block", "order"]),
            "block" | "order" | "split" => declared,
            c if c.starts_with("block") && before.contains(" with ") => {
                // After a whole blocker's name: whether it counters.
                let typed = fragment.trim_start();
                let named = others(&|_| true).into_iter().find_map(|u| {
                    let rest = typed.get(u.len()..)?;
                    (typed[..u.len()].eq_ignore_ascii_case(&u) && rest.starts_with(' '))
                        .then(|| rest.trim_start().to_string())
                });
                if let Some(rest) = named {
                    return lex::complete(&rest, words(&["counter", "no counter"]));
                }
                others(&|u| !u.exhausted)
            }
            c if c.starts_with("block") => words(&["with"]),
            "guard" => {
                let mut v = words(&["phoenixborn"]);
                v.extend(others(&|u| u.has_unit_guard() && !u.exhausted));
                v
            }
            _ => Vec::new(),
        }
    } else {
        let body_ctx = fold(&before[before.find(':').map_or(0, |i| i + 1)..]);
        let pbs: Vec<String> = b
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != actor)
            .map(|(_, p)| p.phoenixborn.name.to_string())
            .collect();
        let own_ready: Vec<String> = b
            .players
            .get(actor)
            .map(|p| {
                p.units
                    .iter()
                    .filter(|u| !u.exhausted)
                    .map(|u| u.name.to_string())
                    .collect()
            })
            .unwrap_or_default();
        match body_ctx.as_str() {
            "" => words(&["attack", "pass", "pay"]),
            "attack" => [words(&["phoenixborn", "unit"]), pbs].concat(),
            "attackphoenixborn" | "attackpb" => [pbs, words(&["with"])].concat(),
            "attackunit" => others(&|_| true),
            c if c.starts_with("pay") || c.starts_with("play") || c.starts_with("activate") => {
                words(&["main", "no main"])
            }
            _ if before.contains(" with ") || before.ends_with(',') => own_ready
                .into_iter()
                .filter(|u| !declared.iter().any(|d| fold(d) == fold(u)))
                .collect(),
            _ => words(&["with"]),
        }
    };
    lex::complete(fragment, cands)
}
