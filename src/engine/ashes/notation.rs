//! One-line play notation, as typed in Discord:
//!
//! ```text
//! [PLAYER:] pass
//! [PLAYER:] pay CARD main | pay CARD no main
//! [PLAYER:] attack [phoenixborn] [PB] with A, B[, C] [; block A with X [counter]]… [; order B, A]
//! [PLAYER:] attack unit TARGET with A, B [; guard phoenixborn|UNIT] [; counter|no counter] [; split A 1, B 2]
//! ```
//!
//! Names may be quoted ("Mist Spirit") and resolve fuzzily against the board.

use std::collections::BTreeMap;

use crate::engine::BoardError;
use crate::engine::board::resolve_name;
use crate::text::fold;

use super::doc::{Action, Block, Board, OneOrMany, Play};

/// Longest notation line accepted.
const MAX_LINE: usize = 2000;

fn unquote(s: &str) -> &str {
    let t = s.trim();
    t.trim_matches(|c| c == '"' || c == '\'' || c == '“' || c == '”' || c == '`')
        .trim()
}

fn strip_word<'a>(s: &'a str, words: &[&str]) -> Option<&'a str> {
    let t = s.trim_start();
    for w in words {
        if t.get(..w.len()).is_some_and(|x| x.eq_ignore_ascii_case(w)) {
            let rest = t.get(w.len()..).unwrap_or("");
            if rest.is_empty() {
                return Some("");
            }
            if rest.starts_with(' ') {
                return Some(rest.trim_start());
            }
        }
    }
    None
}

/// Splits at the first `with` word (case-insensitive), outside quotes.
fn split_with(s: &str) -> Option<(&str, &str)> {
    if s.len() >= 5 && s.get(..5).is_some_and(|x| x.eq_ignore_ascii_case("with ")) {
        return Some(("", s.get(5..).unwrap_or("").trim_start()));
    }
    let i = find_outside_quotes(s, " with ")?;
    Some((s.get(..i)?.trim_end(), s.get(i + 6..)?.trim_start()))
}

/// Finds `pat` (ASCII case-insensitive) outside double quotes.
fn find_outside_quotes(s: &str, pat: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        if c == '"' || c == '“' || c == '”' {
            quoted = !quoted;
        }
        if !quoted
            && s.get(i..i + pat.len())
                .is_some_and(|x| x.eq_ignore_ascii_case(pat))
        {
            return Some(i);
        }
    }
    None
}

/// Splits a list on commas and the word `and`.
fn split_list(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let mut rest = part.trim();
        while let Some(i) = find_outside_quotes(rest, " and ") {
            out.push(unquote(rest.get(..i).unwrap_or("")).to_string());
            rest = rest.get(i + 5..).unwrap_or("");
        }
        let rest = unquote(rest);
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
    }
    out.retain(|x| !x.is_empty());
    out
}

fn board_of(board: &serde_json::Value) -> Result<Board, BoardError> {
    let b = serde_json::from_value::<Board>(board.clone()).map_err(|e| {
        BoardError::semantic(
            "board",
            format!("the board this play is meant for is not a valid Ashes board: {e}"),
        )
    })?;
    super::doc::validate(&b)?;
    Ok(b)
}

fn player_index(b: &Board, typed: &str, path: &str) -> Result<usize, BoardError> {
    let names: Vec<&str> = b.players.iter().map(|p| p.name.as_str()).collect();
    let n = resolve_name(typed, &names, path, "player")?;
    b.players
        .iter()
        .position(|p| p.name == n)
        .ok_or_else(|| BoardError::semantic(path, format!("unknown player '{typed}'")))
}

fn units_of(b: &Board, p: usize) -> Vec<&str> {
    b.players
        .get(p)
        .map(|pl| pl.units.iter().map(|u| u.name.as_str()).collect())
        .unwrap_or_default()
}

fn opponent_units(b: &Board, actor: usize) -> Vec<&str> {
    b.players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != actor)
        .flat_map(|(_, p)| p.units.iter().map(|u| u.name.as_str()))
        .collect()
}

/// Resolves against `first`, then against `fallback` (so an illegal choice
/// such as an opponent's unit still reaches the judge, which explains it).
fn resolve2(
    typed: &str,
    first: &[&str],
    fallback: &[&str],
    path: &str,
    what: &str,
) -> Result<String, BoardError> {
    match resolve_name(typed, first, path, what) {
        Ok(n) => Ok(n.to_string()),
        Err(e) => match resolve_name(typed, fallback, path, what) {
            Ok(n) => Ok(n.to_string()),
            Err(_) => Err(e),
        },
    }
}

fn all_units(b: &Board) -> Vec<&str> {
    b.players
        .iter()
        .flat_map(|p| p.units.iter().map(|u| u.name.as_str()))
        .collect()
}

fn pb_or_player(b: &Board, typed: &str) -> Option<usize> {
    let k = fold(typed);
    if k.is_empty() {
        return None;
    }
    b.players
        .iter()
        .position(|p| fold(&p.phoenixborn.name) == k || fold(&p.name) == k)
        .or_else(|| {
            let hits: Vec<usize> = b
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    fold(&p.phoenixborn.name).starts_with(&k) || fold(&p.name).starts_with(&k)
                })
                .map(|(i, _)| i)
                .collect();
            if hits.len() == 1 {
                hits.first().copied()
            } else {
                None
            }
        })
}

fn empty_play(action: Action, player: Option<String>) -> Play {
    Play {
        action,
        player,
        attackers: Vec::new(),
        target: None,
        blocks: Vec::new(),
        order: Vec::new(),
        guard: None,
        counter: None,
        split: BTreeMap::new(),
        card: None,
        main_action: None,
    }
}

/// Parses a notation line into the `play` value of a board document.
pub fn parse(line: &str, board: &serde_json::Value) -> Result<serde_json::Value, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play is {} characters long; the limit is {MAX_LINE}",
            line.len()
        )));
    }
    let b = board_of(board)?;
    let mut clauses = line.split(';').map(str::trim).filter(|c| !c.is_empty());
    let Some(mut head) = clauses.next() else {
        return Err(BoardError::semantic(
            "play",
            "the play is empty; try `pass`, `pay CARD main` or `attack PHOENIXBORN with UNIT, UNIT`",
        ));
    };
    // Optional `PLAYER:` prefix.
    let mut player: Option<usize> = None;
    if let Some(i) = find_outside_quotes(head, ":") {
        let who = unquote(&head[..i]);
        if !who.is_empty() && !who.contains(' ')
            || b.players.iter().any(|p| fold(&p.name) == fold(who))
        {
            player = Some(player_index(&b, who, "play.player")?);
            head = head[i + 1..].trim();
        }
    }
    let actor = player
        .or_else(|| {
            b.turn
                .as_deref()
                .and_then(|t| player_index(&b, t, "turn").ok())
        })
        .unwrap_or(0);
    let player_name = player
        .and_then(|p| b.players.get(p))
        .map(|p| p.name.clone());

    if strip_word(head, &["pass"]).is_some_and(str::is_empty) {
        if let Some(extra) = clauses.next() {
            return Err(BoardError::semantic(
                "play",
                format!("`pass` takes nothing more; unexpected '{extra}'"),
            ));
        }
        return to_value(empty_play(Action::Pass, player_name));
    }
    if let Some(rest) = strip_word(head, &["pay", "play", "activate"]) {
        let mut play = empty_play(Action::PayCost, player_name);
        let lower = rest.to_lowercase();
        let (card, main) = if let Some(c) = [
            "without main action",
            "without main",
            "no main action",
            "no main",
            "(no main)",
            "side",
        ]
        .iter()
        .find_map(|suf| lower.strip_suffix(suf).map(|s| (s.len(), false)))
        {
            (rest.get(..c.0).unwrap_or(""), Some(c.1))
        } else if let Some(c) = [
            "with main action",
            "with main",
            "main action",
            "(main)",
            "[[main]]",
            "main",
        ]
        .iter()
        .find_map(|suf| lower.strip_suffix(suf).map(|s| (s.len(), true)))
        {
            (rest.get(..c.0).unwrap_or(""), Some(c.1))
        } else {
            (rest, None)
        };
        let card = unquote(card);
        if card.is_empty() {
            return Err(BoardError::semantic(
                "play.card",
                "name the card: `pay \"Molten Gold\" main`",
            ));
        }
        let Some(main) = main else {
            return Err(BoardError::semantic(
                "play.main_action",
                "say whether the cost has the main-action symbol: end the play with `main` or `no main`",
            ));
        };
        play.card = Some(card.to_string());
        play.main_action = Some(main);
        return to_value(play);
    }
    let Some(rest) = strip_word(head, &["attack", "attacks"]) else {
        return Err(BoardError::semantic(
            "play",
            format!(
                "'{head}' is not a play; start with `attack`, `pass` or `pay` (for example `attack Maeoni with Iron Worker`)"
            ),
        ));
    };
    let (kind, rest) = if let Some(r) = strip_word(rest, &["phoenixborn", "pb"]) {
        (Some(Action::AttackPhoenixborn), r)
    } else if let Some(r) = strip_word(rest, &["unit"]) {
        (Some(Action::AttackUnit), r)
    } else {
        (None, rest)
    };
    let (target_text, attackers_text) = match split_with(rest) {
        Some((t, a)) => (unquote(t).to_string(), a.to_string()),
        None if kind == Some(Action::AttackPhoenixborn)
            && strip_word(rest, &["with"]).is_some() =>
        {
            (
                String::new(),
                strip_word(rest, &["with"]).unwrap_or("").to_string(),
            )
        }
        None if strip_word(rest, &["with"]).is_some() => (
            String::new(),
            strip_word(rest, &["with"]).unwrap_or("").to_string(),
        ),
        None => {
            return Err(BoardError::semantic(
                "play.attackers",
                "name the attackers after `with`: `attack Maeoni with Iron Worker, Hammer Knight`",
            ));
        }
    };
    let kind = match kind {
        Some(k) => k,
        None if target_text.is_empty() => Action::AttackPhoenixborn,
        None => {
            let is_unit = opponent_units(&b, actor)
                .iter()
                .any(|u| fold(u) == fold(&target_text));
            if !is_unit && pb_or_player(&b, &target_text).is_some() {
                Action::AttackPhoenixborn
            } else {
                Action::AttackUnit
            }
        }
    };
    let mut play = empty_play(kind, player_name);
    let own = units_of(&b, actor);
    let everyone = all_units(&b);
    for (i, a) in split_list(&attackers_text).iter().enumerate() {
        play.attackers.push(resolve2(
            a,
            &own,
            &everyone,
            &format!("play.attackers[{i}]"),
            "unit",
        )?);
    }
    if play.attackers.is_empty() {
        return Err(BoardError::semantic(
            "play.attackers",
            "name at least one attacker after `with`",
        ));
    }
    let defender: Option<usize>;
    if kind == Action::AttackPhoenixborn {
        defender = if target_text.is_empty() {
            None
        } else {
            let d = pb_or_player(&b, &target_text).ok_or_else(|| {
                let names: Vec<&str> = b
                    .players
                    .iter()
                    .map(|p| p.phoenixborn.name.as_str())
                    .collect();
                resolve_name(&target_text, &names, "play.target", "Phoenixborn")
                    .err()
                    .unwrap_or_else(|| BoardError::semantic("play.target", "unknown Phoenixborn"))
            })?;
            play.target = b.players.get(d).map(|p| p.phoenixborn.name.clone());
            Some(d)
        };
    } else {
        if target_text.is_empty() {
            return Err(BoardError::semantic(
                "play.target",
                "name the unit attacked: `attack unit \"Mist Spirit\" with Iron Worker`",
            ));
        }
        let t = resolve2(
            &target_text,
            &opponent_units(&b, actor),
            &everyone,
            "play.target",
            "unit",
        )?;
        defender = b
            .players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != actor)
            .find(|(_, p)| p.units.iter().any(|u| u.name == t))
            .map(|(i, _)| i);
        play.target = Some(t);
    }
    let def_units: Vec<&str> = match defender {
        Some(d) => units_of(&b, d),
        None => opponent_units(&b, actor),
    };
    let attackers: Vec<&str> = play
        .attackers
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>();
    let attackers: Vec<String> = attackers.iter().map(|s| s.to_string()).collect();
    let attacker_refs: Vec<&str> = attackers.iter().map(String::as_str).collect();
    let mut guards: Vec<String> = Vec::new();
    for clause in clauses {
        let lower = clause.to_lowercase();
        let lower = lower.trim();
        if kind == Action::AttackPhoenixborn {
            if let Some(r) = strip_word(clause, &["block"]) {
                let Some((a, rest)) = split_with(r) else {
                    return Err(BoardError::semantic(
                        "play.blocks",
                        format!(
                            "write a block as `block ATTACKER with BLOCKER [counter]`, not '{clause}'"
                        ),
                    ));
                };
                let (blocker, counter) = strip_counter(rest);
                let j = play.blocks.len();
                let attacker = resolve_name(
                    unquote(a),
                    &attacker_refs,
                    &format!("play.blocks[{j}].attacker"),
                    "attacking unit",
                )?
                .to_string();
                let blocker = resolve2(
                    unquote(blocker),
                    &def_units,
                    &everyone,
                    &format!("play.blocks[{j}].blocker"),
                    "unit",
                )?;
                play.blocks.push(Block {
                    attacker,
                    blocker,
                    counter,
                });
            } else if let Some(r) = strip_word(clause, &["order"]) {
                for (k, a) in split_list(r).iter().enumerate() {
                    play.order.push(
                        resolve_name(
                            a,
                            &attacker_refs,
                            &format!("play.order[{k}]"),
                            "attacking unit",
                        )?
                        .to_string(),
                    );
                }
            } else if matches!(
                lower,
                "no block" | "no blocks" | "no blockers" | "unblocked"
            ) {
            } else {
                return Err(BoardError::semantic(
                    "play",
                    format!(
                        "'{clause}' is not understood; after an attack on a Phoenixborn use `block ATTACKER with BLOCKER [counter]` or `order A, B`"
                    ),
                ));
            }
        } else if let Some(r) = strip_word(clause, &["guard", "guards"]) {
            let g = unquote(r);
            let is_pb = matches!(fold(g).as_str(), "phoenixborn" | "pb")
                || defender.and_then(|d| b.players.get(d)).is_some_and(|p| {
                    fold(&p.phoenixborn.name) == fold(g) || fold(&p.name) == fold(g)
                });
            if is_pb {
                guards.push("phoenixborn".into());
            } else {
                guards.push(resolve2(g, &def_units, &everyone, "play.guard", "unit")?);
            }
        } else if matches!(lower, "no guard" | "unguarded") {
        } else if matches!(lower, "counter" | "counters") {
            play.counter = Some(true);
        } else if matches!(lower, "no counter" | "does not counter" | "doesn't counter") {
            play.counter = Some(false);
        } else if let Some(r) = strip_word(clause, &["split"]) {
            for part in r.split(',') {
                let part = part.trim().trim_end_matches('.');
                let cut = part
                    .rfind(|c: char| !c.is_ascii_digit())
                    .map_or(0, |i| i + 1);
                let (name, num) = part.split_at(cut);
                let name = unquote(name.trim().trim_end_matches([':', '=']).trim());
                let amount: u32 = num.parse().map_err(|_| {
                    BoardError::semantic(
                        "play.split",
                        format!("write each share as `UNIT AMOUNT`, not '{part}'"),
                    )
                })?;
                let n = resolve_name(
                    name,
                    &attacker_refs,
                    &format!("play.split[\"{name}\"]"),
                    "attacking unit",
                )?;
                play.split.insert(n.to_string(), amount);
            }
        } else {
            return Err(BoardError::semantic(
                "play",
                format!(
                    "'{clause}' is not understood; after an attack on a unit use `guard phoenixborn`, `guard UNIT`, `counter`, `no counter` or `split A 1, B 2`"
                ),
            ));
        }
    }
    match guards.len() {
        0 => {}
        1 => play.guard = guards.pop().map(OneOrMany::One),
        _ => play.guard = Some(OneOrMany::Many(guards)),
    }
    to_value(play)
}

fn strip_counter(s: &str) -> (&str, bool) {
    let lower = s.to_lowercase();
    for (suf, c) in [
        (" no counter", false),
        (", no counter", false),
        (" and counters", true),
        (" and counter", true),
        (", counter", true),
        (" counters", true),
        (" counter", true),
    ] {
        if lower.ends_with(suf) {
            return (s.get(..s.len() - suf.len()).unwrap_or(s), c);
        }
    }
    (s, false)
}

fn to_value(play: Play) -> Result<serde_json::Value, BoardError> {
    serde_json::to_value(play).map_err(|e| BoardError::semantic("play", e.to_string()))
}

/// Next-word candidates for a partly typed notation line.
pub fn completions(partial: &str, board: &serde_json::Value) -> Vec<String> {
    if partial.len() > MAX_LINE {
        return Vec::new();
    }
    let Ok(b) = board_of(board) else {
        return Vec::new();
    };
    let clause_start = partial.rfind(';').map_or(0, |i| i + 1);
    let head = partial.split(';').next().unwrap_or("");
    let clause = partial.get(clause_start..).unwrap_or("").trim_start();
    let lower_head = head.to_lowercase();
    let mut head_body = head;
    let mut actor = b
        .turn
        .as_deref()
        .and_then(|t| b.players.iter().position(|p| fold(&p.name) == fold(t)))
        .unwrap_or(0);
    if let Some(i) = head.find(':')
        && let Some(p) = b
            .players
            .iter()
            .position(|p| fold(&p.name) == fold(unquote(&head[..i])))
    {
        actor = p;
        head_body = head.get(i + 1..).unwrap_or("");
    }
    let unit_attack = lower_head.contains("attack unit");
    // The fragment being typed: after the last delimiter of the clause.
    let cl = clause.to_lowercase();
    let delim = [",", " with ", " and "]
        .iter()
        .filter_map(|d| cl.rfind(d).map(|i| i + d.len()))
        .max();
    let (context, fragment) = match delim {
        Some(i) => (cl.get(..i).unwrap_or(""), clause.get(i..).unwrap_or("")),
        None => match cl.rfind(' ') {
            Some(i) => (
                cl.get(..i + 1).unwrap_or(""),
                clause.get(i + 1..).unwrap_or(""),
            ),
            None => ("", clause),
        },
    };
    let ctx = context.trim();
    let own_ready: Vec<String> = b
        .players
        .get(actor)
        .map(|p| {
            p.units
                .iter()
                .filter(|u| !u.exhausted)
                .map(|u| u.name.clone())
                .collect()
        })
        .unwrap_or_default();
    let opp_pbs: Vec<String> = b
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != actor)
        .map(|(_, p)| p.phoenixborn.name.clone())
        .collect();
    let opp_units: Vec<String> = opponent_units(&b, actor)
        .into_iter()
        .map(str::to_string)
        .collect();
    let opp_ready: Vec<String> = b
        .players
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != actor)
        .flat_map(|(_, p)| {
            p.units
                .iter()
                .filter(|u| !u.exhausted)
                .map(|u| u.name.clone())
        })
        .collect();
    let declared: Vec<String> = split_with(head_body)
        .map(|(_, a)| split_list(a))
        .unwrap_or_default();
    let word = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut cands: Vec<String> = if clause_start == 0 {
        let hb = head_body.trim_start().to_lowercase();
        let hctx = ctx
            .trim_start_matches(|c| c != ':')
            .trim_start_matches(':')
            .trim();
        let hctx = if head.contains(':') { hctx } else { ctx };
        if hb.is_empty() || !hb.contains(' ') {
            word(&["attack", "pass", "pay"])
        } else if cl.contains(" with ") || ctx.ends_with(',') || ctx.ends_with(" and") {
            own_ready
                .iter()
                .filter(|u| !declared.iter().any(|d| fold(d) == fold(u)))
                .cloned()
                .collect()
        } else if hctx == "attack" || hctx.ends_with(" attack") {
            let mut v = word(&["phoenixborn", "unit"]);
            v.extend(opp_pbs.clone());
            v
        } else if hctx.ends_with("attack phoenixborn") || hctx.ends_with("attack pb") {
            let mut v = opp_pbs.clone();
            v.push("with".into());
            v
        } else if hctx.ends_with("attack unit") {
            opp_units.clone()
        } else if hctx.starts_with("pay")
            || hctx.starts_with("play")
            || hctx.starts_with("activate")
        {
            word(&["main", "no main"])
        } else {
            word(&["with"])
        }
    } else if ctx.is_empty() {
        if unit_attack {
            word(&["guard", "counter", "no counter", "split"])
        } else {
            word(&["block", "order"])
        }
    } else if ctx == "block" {
        declared.clone()
    } else if ctx.starts_with("block") && cl.contains(" with ") {
        let typed = fragment.trim_start();
        for u in &opp_ready {
            let rest = typed
                .get(..u.len())
                .filter(|head| head.eq_ignore_ascii_case(u))
                .and_then(|_| typed.get(u.len()..))
                .and_then(|r| r.strip_prefix(' '));
            if let Some(rest) = rest {
                let f = fold(rest);
                return ["counter", "no counter"]
                    .iter()
                    .filter(|c| fold(c).starts_with(&f))
                    .map(|c| c.to_string())
                    .collect();
            }
        }
        opp_ready.clone()
    } else if ctx.starts_with("block") {
        word(&["with"])
    } else if ctx.starts_with("guard") {
        let mut v = word(&["phoenixborn"]);
        v.extend(
            b.players
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != actor)
                .flat_map(|(_, p)| {
                    p.units
                        .iter()
                        .filter(|u| u.has_unit_guard() && !u.exhausted)
                        .map(|u| u.name.clone())
                }),
        );
        v
    } else if ctx.starts_with("order") || ctx.starts_with("split") {
        declared.clone()
    } else {
        Vec::new()
    };
    let f = fold(fragment);
    cands.retain(|c| fold(c).starts_with(&f));
    cands.dedup();
    cands
}
