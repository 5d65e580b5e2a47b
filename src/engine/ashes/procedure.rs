//! The step procedures of "03 - Main Actions": Pay a Cost, Attack a
//! Phoenixborn, Attack a Unit, Pass.

use crate::engine::legacy::resolve_name;
use crate::engine::{BoardError, Choice, Diagnostic, Ruling, Severity, Step};
use crate::text::fold;

use super::doc::{Action, Board, Phase, Play};
use super::rules::*;

/// The assumption every "destroyed" judgement rests on.
pub const DESTROYED_ASSUMPTION: &str = "a unit is treated as destroyed when its damage is at least its life, and a destroyed unit leaves the board: the indexed text uses 'destroyed' but does not define it (assumption outside the indexed text)";

/// The steps and diagnostics gathered while resolving a play.
#[derive(Default)]
struct Ctx {
    steps: Vec<Step>,
    diags: Vec<Diagnostic>,
}

impl Ctx {
    fn step(&mut self, rule: &str, text: impl Into<String>) -> &mut Step {
        self.steps.push(Step {
            rule: rule.to_string(),
            text: text.into(),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        });
        let last = self.steps.len() - 1;
        &mut self.steps[last]
    }

    fn diag(
        &mut self,
        severity: Severity,
        rule: Option<&str>,
        path: Option<&str>,
        message: impl Into<String>,
    ) {
        self.diags.push(Diagnostic {
            severity,
            message: message.into(),
            rule: rule.map(str::to_string),
            path: path.map(str::to_string),
        });
    }

    fn error(&mut self, rule: &str, path: &str, message: impl Into<String>) {
        self.diag(Severity::Error, Some(rule), Some(path), message);
    }

    fn failed(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }
}

trait StepExt {
    fn num(&mut self, name: &str, v: u32) -> &mut Self;
    fn chose(&mut self, player: &str, chose: impl Into<String>) -> &mut Self;
    fn assume(&mut self, a: impl Into<String>) -> &mut Self;
}

impl StepExt for Step {
    fn num(&mut self, name: &str, v: u32) -> &mut Self {
        self.numbers.push((name.to_string(), i64::from(v)));
        self
    }
    fn chose(&mut self, player: &str, chose: impl Into<String>) -> &mut Self {
        self.choice = Some(Choice {
            assumed: None,
            player: player.to_string(),
            chose: chose.into(),
        });
        self
    }
    fn assume(&mut self, a: impl Into<String>) -> &mut Self {
        self.assumption = Some(a.into());
        self
    }
}

/// A unit on the board: (player index, unit index).
type UnitRef = (usize, usize);

/// Which battlefield a unit name is looked up on first.
#[derive(Clone, Copy)]
enum Prefer {
    Player(usize),
    NotPlayer(usize),
}

fn find_unit(b: &Board, typed: &str, path: &str, prefer: Prefer) -> Result<UnitRef, BoardError> {
    let first = |p: usize| match prefer {
        Prefer::Player(x) => p == x,
        Prefer::NotPlayer(x) => p != x,
    };
    let group = |want: bool| -> Vec<(usize, usize, &str)> {
        b.players
            .iter()
            .enumerate()
            .filter(|(p, _)| first(*p) == want)
            .flat_map(|(p, pl)| {
                pl.units
                    .iter()
                    .enumerate()
                    .map(move |(u, unit)| (p, u, unit.name.as_str()))
            })
            .collect()
    };
    let locate = |g: &[(usize, usize, &str)], name: &str| {
        g.iter()
            .find(|(_, _, n)| *n == name)
            .map(|(p, u, _)| (*p, *u))
    };
    let g1 = group(true);
    let names1: Vec<&str> = g1.iter().map(|x| x.2).collect();
    match resolve_name(typed, &names1, path, "unit") {
        Ok(n) => {
            return locate(&g1, n)
                .ok_or_else(|| BoardError::semantic(path, format!("unknown unit '{typed}'")));
        }
        Err(e) if e.message.contains("matches several") || e.message.contains("ambiguous") => {
            return Err(e);
        }
        Err(_) => {}
    }
    let g2 = group(false);
    let names2: Vec<&str> = g2.iter().map(|x| x.2).collect();
    match resolve_name(typed, &names2, path, "unit") {
        Ok(n) => locate(&g2, n)
            .ok_or_else(|| BoardError::semantic(path, format!("unknown unit '{typed}'"))),
        Err(e) if e.message.contains("matches several") || e.message.contains("ambiguous") => {
            Err(e)
        }
        Err(_) => {
            let mut all: Vec<&str> = names1.iter().chain(names2.iter()).copied().collect();
            all.sort_unstable();
            all.dedup();
            match resolve_name(typed, &all, path, "unit") {
                Err(e) => Err(e),
                Ok(_) => Err(BoardError::semantic(
                    path,
                    format!("unknown unit '{typed}'"),
                )),
            }
        }
    }
}

/// Resolves a player by player name or Phoenixborn name.
fn find_player(b: &Board, typed: &str, path: &str) -> Result<usize, BoardError> {
    let mut names: Vec<&str> = Vec::new();
    for p in &b.players {
        names.push(p.phoenixborn.name.as_str());
        if fold(&p.name) != fold(&p.phoenixborn.name) {
            names.push(p.name.as_str());
        }
    }
    let n = resolve_name(typed, &names, path, "Phoenixborn or player")?;
    b.players
        .iter()
        .position(|p| p.phoenixborn.name == n || p.name == n)
        .ok_or_else(|| BoardError::semantic(path, format!("unknown Phoenixborn '{typed}'")))
}

fn find_player_by_name(b: &Board, typed: &str, path: &str) -> Result<usize, BoardError> {
    let names: Vec<&str> = b.players.iter().map(|p| p.name.as_str()).collect();
    let n = resolve_name(typed, &names, path, "player")?;
    b.players
        .iter()
        .position(|p| p.name == n)
        .ok_or_else(|| BoardError::semantic(path, format!("unknown player '{typed}'")))
}

/// Refuses fields that do not belong to the play's action.
fn refuse_fields(play: &Play, allowed: &[&str]) -> Result<(), BoardError> {
    let present = [
        ("attackers", !play.attackers.is_empty()),
        ("target", play.target.is_some()),
        ("blocks", !play.blocks.is_empty()),
        ("order", !play.order.is_empty()),
        ("guard", play.guard.is_some()),
        ("counter", play.counter.is_some()),
        ("split", !play.split.is_empty()),
        ("card", play.card.is_some()),
        ("main_action", play.main_action.is_some()),
    ];
    for (field, here) in present {
        if here && !allowed.contains(&field) {
            let hint = match field {
                "blocks" | "order" => {
                    " (blockers and an order of resolution belong to attack-phoenixborn)"
                }
                "guard" | "counter" | "split" => {
                    " (guards, a counter by the target and a damage split belong to attack-unit)"
                }
                "card" | "main_action" => " (a card and its cost belong to pay-cost)",
                _ => "",
            };
            return Err(BoardError::semantic(
                format!("play.{field}"),
                format!(
                    "`{field}` does not belong to a {} play{hint}",
                    action_name(play.action)
                ),
            ));
        }
    }
    Ok(())
}

pub fn action_name(a: Action) -> &'static str {
    match a {
        Action::AttackPhoenixborn => "attack-phoenixborn",
        Action::AttackUnit => "attack-unit",
        Action::Pass => "pass",
        Action::PayCost => "pay-cost",
    }
}

fn state_of(b: &Board) -> serde_json::Value {
    serde_json::to_value(b).unwrap_or(serde_json::Value::Null)
}

/// Adjudicates the board's play. Unknown names and misplaced fields are
/// [`BoardError`]s; illegal plays are diagnostics with the state unchanged.
pub fn adjudicate(board: &Board) -> Result<Ruling, BoardError> {
    let before = state_of(board);
    let Some(play) = &board.play else {
        return Ok(Ruling {
            pending: None,
            status: None,
            game: "ashes".into(),
            legal: true,
            steps: Vec::new(),
            diagnostics: vec![Diagnostic {
                severity: Severity::Info,
                message: "the board has no `play`; the board itself is valid".into(),
                rule: None,
                path: Some("play".into()),
            }],
            state: before,
            changes: Vec::new(),
        });
    };
    let mut work = board.clone();
    work.play = None;
    let mut cx = Ctx::default();

    let turn = board
        .turn
        .as_deref()
        .map(|t| find_player_by_name(board, t, "turn"))
        .transpose()?;
    let actor = match &play.player {
        Some(p) => find_player_by_name(board, p, "play.player")?,
        None => turn.unwrap_or(0),
    };
    let actor_name = board
        .players
        .get(actor)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    if let Some(t) = turn.filter(|t| *t != actor) {
        let whose = board
            .players
            .get(t)
            .map(|p| p.name.as_str())
            .unwrap_or_default();
        cx.diag(
            Severity::Error,
            None,
            Some("play.player"),
            format!("the board says it is {whose}'s turn, not {actor_name}'s; a main action is taken on your own turn"),
        );
    }
    let uses_main_action = play.action != Action::PayCost || play.main_action == Some(true);
    if board.phase == Phase::Recovery && uses_main_action {
        cx.error(
            PASS,
            "phase",
            "the player turns phase has ended (all players passed on consecutive turns); the round is in the recovery phase, so no main action can be taken",
        );
    }
    if board.main_action_used && uses_main_action {
        // Pass is itself a main action ("pass as your main action"); the
        // others take up "your main action for the turn".
        let (rule, what) = if play.action == Action::Pass {
            (PASS, "passing is a main action too")
        } else {
            (PAY, "a turn has one main action")
        };
        cx.error(
            rule,
            "main_action_used",
            format!("{actor_name} has already used the main action for this turn; {what}"),
        );
    }

    match play.action {
        Action::AttackPhoenixborn => {
            refuse_fields(play, &["attackers", "target", "blocks", "order"])?;
            if !cx.failed() {
                attack_phoenixborn(&mut work, play, actor, &mut cx)?;
            }
        }
        Action::AttackUnit => {
            refuse_fields(play, &["attackers", "target", "guard", "counter", "split"])?;
            if !cx.failed() {
                attack_unit(&mut work, play, actor, &mut cx)?;
            }
        }
        Action::Pass => {
            refuse_fields(play, &[])?;
            if !cx.failed() {
                pass(&mut work, actor, &mut cx);
            }
        }
        Action::PayCost => {
            refuse_fields(play, &["card", "main_action"])?;
            if !cx.failed() {
                pay_cost(&mut work, play, actor, &mut cx)?;
            }
        }
    }

    let legal = !cx.failed();
    if legal && uses_main_action {
        if play.action != Action::Pass {
            break_pass_run(&mut work, actor, &mut cx);
        }
        if work.phase == Phase::PlayerTurns && work.players.len() > 1 {
            let next = (actor + 1) % work.players.len();
            let next_name = work
                .players
                .get(next)
                .map(|p| p.name.clone())
                .unwrap_or_default();
            work.turn = Some(next_name.clone());
            work.main_action_used = false;
            cx.diag(
                Severity::Info,
                None,
                Some("turn"),
                format!(
                    "{actor_name}'s main action is done; the resulting board hands the turn to {next_name} so the next play can be judged (ending the turn, and any side action, is outside the indexed text)"
                ),
            );
        } else if work.phase == Phase::PlayerTurns {
            work.main_action_used = true;
        }
    }
    let state = if legal {
        state_of(&work)
    } else {
        before.clone()
    };
    let changes = crate::engine::diff(&before, &state);
    Ok(Ruling {
        pending: None,
        status: None,
        game: "ashes".into(),
        legal,
        steps: cx.steps,
        diagnostics: cx.diags,
        state,
        changes,
    })
}

/// A main action other than pass ends the run of consecutive passes.
fn break_pass_run(w: &mut Board, actor: usize, cx: &mut Ctx) {
    if w.consecutive_passes.is_empty() {
        return;
    }
    let actor_name = w
        .players
        .get(actor)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    let passed_before = w
        .consecutive_passes
        .iter()
        .any(|n| fold(n) == fold(&actor_name));
    let who = w.consecutive_passes.join(", ");
    let text = if passed_before {
        format!(
            "{actor_name} passed earlier ({who} passed on the preceding turns) and now takes another main action, which a player who passed may do while an opponent has not passed; the run of consecutive passes is broken and the player turns phase continues"
        )
    } else {
        format!(
            "{actor_name} did not pass, so the run of consecutive passes ({who}) is broken; the player turns phase continues"
        )
    };
    cx.step(PASS, text).num(
        "consecutive passes before",
        w.consecutive_passes.len() as u32,
    );
    w.consecutive_passes.clear();
}

fn unit_label(w: &Board, r: UnitRef) -> String {
    w.players
        .get(r.0)
        .and_then(|p| p.units.get(r.1))
        .map(|u| u.name.clone())
        .unwrap_or_default()
}

fn attack_of(w: &Board, r: UnitRef) -> u32 {
    w.players
        .get(r.0)
        .and_then(|p| p.units.get(r.1))
        .map_or(0, |u| u.attack)
}

/// Adds damage to a unit; returns (damage before, damage after, life).
fn damage_unit(w: &mut Board, r: UnitRef, amount: u32) -> (u32, u32, u32) {
    match w.players.get_mut(r.0).and_then(|p| p.units.get_mut(r.1)) {
        Some(u) => {
            let before = u.damage;
            u.damage = u.damage.saturating_add(amount);
            (before, u.damage, u.life)
        }
        None => (0, 0, 0),
    }
}

fn destroyed(w: &Board, r: UnitRef) -> bool {
    w.players
        .get(r.0)
        .and_then(|p| p.units.get(r.1))
        .is_some_and(|u| u.damage >= u.life)
}

fn exhaust(w: &mut Board, r: UnitRef) {
    if let Some(u) = w.players.get_mut(r.0).and_then(|p| p.units.get_mut(r.1)) {
        u.exhausted = true;
    }
}

/// Removes destroyed units (by reference), highest index first.
fn remove_units(w: &mut Board, mut gone: Vec<UnitRef>) {
    gone.sort_unstable();
    gone.dedup();
    for (p, u) in gone.into_iter().rev() {
        if let Some(pl) = w.players.get_mut(p)
            && u < pl.units.len()
        {
            pl.units.remove(u);
        }
    }
}

fn damage_pb(w: &mut Board, d: usize, amount: u32) -> (u32, u32, u32) {
    match w.players.get_mut(d) {
        Some(p) => {
            let before = p.phoenixborn.damage;
            p.phoenixborn.damage = before.saturating_add(amount);
            (before, p.phoenixborn.damage, p.phoenixborn.life)
        }
        None => (0, 0, 0),
    }
}

fn pb_lethal_note(w: &Board, d: usize, cx: &mut Ctx) {
    if let Some(p) = w.players.get(d)
        && p.phoenixborn.damage >= p.phoenixborn.life
    {
        cx.diag(
            Severity::Warning,
            None,
            Some(&format!("players[{d}].phoenixborn.damage")),
            format!(
                "{} now has {} damage against a life of {}; what happens to a Phoenixborn whose damage reaches its life is outside the indexed text",
                p.phoenixborn.name, p.phoenixborn.damage, p.phoenixborn.life
            ),
        );
    }
}

/// Declares attackers (step 1 of either attack); returns them in declared order.
fn declare_attackers(
    w: &Board,
    play: &Play,
    actor: usize,
    cx: &mut Ctx,
    unit_attack: bool,
) -> Result<Vec<UnitRef>, BoardError> {
    let (parent, step1) = if unit_attack { (AU, AU1) } else { (PB, PB1) };
    let actor_name = w
        .players
        .get(actor)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    let has_ready = w
        .players
        .get(actor)
        .is_some_and(|p| p.units.iter().any(|u| !u.exhausted));
    if play.attackers.is_empty() {
        cx.error(
            parent,
            "play.attackers",
            "an attack needs 1 or more of your units as attackers",
        );
        return Ok(Vec::new());
    }
    let mut out: Vec<UnitRef> = Vec::new();
    let mut exhausted_seen = false;
    for (i, name) in play.attackers.iter().enumerate() {
        let path = format!("play.attackers[{i}]");
        let r = find_unit(w, name, &path, Prefer::Player(actor))?;
        let label = unit_label(w, r);
        if r.0 != actor {
            let owner = w
                .players
                .get(r.0)
                .map(|p| p.name.as_str())
                .unwrap_or_default();
            cx.error(
                step1,
                &path,
                format!(
                    "{label} is {owner}'s unit; {actor_name} can only attack with their own units"
                ),
            );
            continue;
        }
        if out.contains(&r) {
            cx.error(
                step1,
                &path,
                format!("{label} is declared as an attacker twice"),
            );
            continue;
        }
        if w.players
            .get(r.0)
            .and_then(|p| p.units.get(r.1))
            .is_some_and(|u| u.exhausted)
        {
            exhausted_seen = true;
            let msg = if unit_attack {
                format!(
                    "{label} is exhausted and cannot attack (reading: Attack a Unit step 1 does not repeat 'unexhausted', but Attack a Phoenixborn step 1 limits attackers to unexhausted units; the same limit is applied here, an assumption outside the indexed text)"
                )
            } else {
                format!("{label} is exhausted; only unexhausted units can be declared as attackers")
            };
            cx.error(step1, &path, msg);
            continue;
        }
        out.push(r);
    }
    if !has_ready {
        cx.error(
            PASS,
            "play.attackers",
            format!(
                "{actor_name} has no unexhausted unit, so cannot attack; if no other main action is possible either, {actor_name} must pass"
            ),
        );
    }
    let names: Vec<String> = out
        .iter()
        .map(|r| format!("{} (attack {})", unit_label(w, *r), attack_of(w, *r)))
        .collect();
    let chosen: Vec<String> = out.iter().map(|r| unit_label(w, *r)).collect();
    let refused = play.attackers.len().saturating_sub(out.len());
    let refused_text = if refused > 0 {
        format!("; {refused} more refused (see the errors below)")
    } else {
        String::new()
    };
    let st = cx.step(
        step1,
        format!(
            "{actor_name} declares {} attacker(s): {}{refused_text}",
            out.len(),
            names.join(", ")
        ),
    );
    st.num("attackers", out.len() as u32)
        .chose(&actor_name, format!("to attack with {}", chosen.join(", ")));
    if unit_attack && exhausted_seen {
        st.assume("exhausted units cannot be declared as attackers in Attack a Unit: step 1 does not say so, Attack a Phoenixborn step 1 does ('your unexhausted units'); the same limit is applied (assumption outside the indexed text)");
    }
    Ok(out)
}

/// The opening step of both attack procedures (who attacks what, with how
/// many); returns the attacking player's name.
fn announce_attack(
    w: &Board,
    play: &Play,
    actor: usize,
    cx: &mut Ctx,
    rule: &'static str,
    what: &str,
) -> String {
    let actor_name = w
        .players
        .get(actor)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    if !play.attackers.is_empty() {
        cx.step(
            rule,
            format!(
                "{actor_name} attacks {what} with {} unit(s)",
                play.attackers.len()
            ),
        );
    }
    actor_name
}

fn attack_phoenixborn(
    w: &mut Board,
    play: &Play,
    actor: usize,
    cx: &mut Ctx,
) -> Result<(), BoardError> {
    let actor_name = announce_attack(w, play, actor, cx, PB, "a Phoenixborn");
    // 1. Declare attackers.
    let attackers = declare_attackers(w, play, actor, cx, false)?;
    if play.attackers.is_empty() || cx.failed() {
        return Ok(());
    }
    // 2. Choose target.
    let d = match &play.target {
        Some(t) => find_player(w, t, "play.target")?,
        None => {
            let opponents: Vec<usize> = (0..w.players.len()).filter(|p| *p != actor).collect();
            match opponents.as_slice() {
                [only] => *only,
                [] => {
                    cx.error(
                        PB2,
                        "play.target",
                        "there is no opponent's Phoenixborn to attack",
                    );
                    return Ok(());
                }
                _ => {
                    cx.error(
                        PB2,
                        "play.target",
                        "choose which opponent's Phoenixborn to attack (`target:`)",
                    );
                    return Ok(());
                }
            }
        }
    };
    let Some(defender) = w.players.get(d).cloned() else {
        return Ok(());
    };
    if d == actor {
        cx.error(PB2, "play.target", format!("{} is {actor_name}'s own Phoenixborn; the target must be an opponent's Phoenixborn", defender.phoenixborn.name));
        return Ok(());
    }
    let pb = &defender.phoenixborn;
    cx.step(
        PB2,
        format!(
            "{actor_name} targets {}'s Phoenixborn {} (life {}, damage {}); all attackers attack it",
            defender.name, pb.name, pb.life, pb.damage
        ),
    )
    .num("life", pb.life)
    .num("damage", pb.damage)
    .chose(&actor_name, format!("to attack {}", pb.name));

    // 3. Declare blockers.
    let attacker_names: Vec<String> = play.attackers.clone();
    let attacker_strs: Vec<&str> = attacker_names.iter().map(String::as_str).collect();
    let mut blocks: Vec<(UnitRef, UnitRef, bool)> = Vec::new();
    for (j, b) in play.blocks.iter().enumerate() {
        let apath = format!("play.blocks[{j}].attacker");
        let bpath = format!("play.blocks[{j}].blocker");
        let a_typed = resolve_name(&b.attacker, &attacker_strs, &apath, "attacking unit")?;
        let ar = find_unit(w, a_typed, &apath, Prefer::Player(actor))?;
        let br = find_unit(w, &b.blocker, &bpath, Prefer::Player(d))?;
        let (al, bl) = (unit_label(w, ar), unit_label(w, br));
        if br.0 != d {
            cx.error(
                PB3,
                &bpath,
                format!(
                    "{bl} is not {}'s unit; only the defending player's units can block",
                    defender.name
                ),
            );
            continue;
        }
        if w.players
            .get(br.0)
            .and_then(|p| p.units.get(br.1))
            .is_some_and(|u| u.exhausted)
        {
            cx.error(
                PB3,
                &bpath,
                format!("{bl} is exhausted; only an unexhausted unit can be declared as a blocker"),
            );
            continue;
        }
        if blocks.iter().any(|x| x.0 == ar) {
            cx.error(PB3, &bpath, format!("{al} already has a blocker; an attacking unit cannot be blocked by more than 1 unit"));
            continue;
        }
        if blocks.iter().any(|x| x.1 == br) {
            cx.error(
                PB3,
                &bpath,
                format!("{bl} already blocks another attacker; a blocker is placed in front of one attacking unit (1 blocker for each attacking unit)"),
            );
            continue;
        }
        if !attackers.contains(&ar) {
            continue; // the attacker itself was refused above
        }
        blocks.push((ar, br, b.counter));
    }
    let desc: Vec<String> = blocks
        .iter()
        .map(|(a, b, _)| format!("{} blocks {}", unit_label(w, *b), unit_label(w, *a)))
        .collect();
    let text = if desc.is_empty() {
        format!("{} declares no blockers", defender.name)
    } else {
        format!(
            "{} declares {} blocker(s): {}",
            defender.name,
            desc.len(),
            desc.join("; ")
        )
    };
    let chose = if desc.is_empty() {
        "not to block".to_string()
    } else {
        let each: Vec<String> = blocks
            .iter()
            .map(|(a, b, _)| format!("{} with {}", unit_label(w, *a), unit_label(w, *b)))
            .collect();
        format!("to block {}", each.join(", and "))
    };
    cx.step(PB3, text)
        .num("blockers", blocks.len() as u32)
        .chose(&defender.name, chose);
    if cx.failed() {
        return Ok(());
    }

    // 4. Resolve damage, one attacker at a time in the attacker's order.
    let order: Vec<UnitRef> = if play.order.is_empty() {
        attackers.clone()
    } else {
        let mut o = Vec::new();
        for (k, name) in play.order.iter().enumerate() {
            let path = format!("play.order[{k}]");
            let n = resolve_name(name, &attacker_strs, &path, "attacking unit")?;
            let r = find_unit(w, n, &path, Prefer::Player(actor))?;
            if o.contains(&r) {
                cx.error(PB4, &path, format!("{} appears twice in the order; each attacking unit's damage is resolved once", unit_label(w, r)));
            }
            o.push(r);
        }
        for a in &attackers {
            if !o.contains(a) {
                cx.error(
                    PB4,
                    "play.order",
                    format!(
                        "the order leaves out {}; it must resolve each attacking unit's damage",
                        unit_label(w, *a)
                    ),
                );
            }
        }
        o
    };
    if cx.failed() {
        return Ok(());
    }
    let order_names: Vec<String> = order.iter().map(|r| unit_label(w, *r)).collect();
    let st = cx.step(
        PB4,
        format!(
            "{actor_name} resolves the attackers one at a time, in this order: {}",
            order_names.join(", ")
        ),
    );
    st.chose(
        &actor_name,
        if play.order.is_empty() {
            format!("the declared order ({})", order_names.join(", "))
        } else {
            format!("the order {}", order_names.join(", "))
        },
    );

    let mut gone: Vec<UnitRef> = Vec::new();
    for a in order {
        let al = unit_label(w, a);
        let atk = attack_of(w, a);
        match blocks.iter().find(|x| x.0 == a).copied() {
            None => {
                let (b, after, life) = damage_pb(w, d, atk);
                exhaust(w, a);
                cx.step(
                    PB4,
                    format!(
                        "{al} is unblocked: it deals {atk} damage to {} ({b} → {after} damage, life {life}); then 1 exhaustion token is placed on {al}",
                        pb.name
                    ),
                )
                .num("damage dealt", atk)
                .num("Phoenixborn damage", after)
                .num("exhaustion tokens", 1);
            }
            Some((_, br, false)) => {
                let bl = unit_label(w, br);
                cx.step(
                    PB4,
                    format!(
                        "{al} is blocked by {bl}; {} chooses not to counter",
                        defender.name
                    ),
                )
                .chose(&defender.name, format!("not to counter with {bl}"));
                let (b, after, life) = damage_unit(w, br, atk);
                exhaust(w, a);
                let dead = destroyed(w, br);
                let st = cx.step(
                    PB41,
                    format!(
                        "{al} deals {atk} damage to {bl} ({b} → {after}, life {life}){}; then 1 exhaustion token on {al}; {bl} did not counter and is not exhausted",
                        if dead { format!(", so {bl} is destroyed") } else { String::new() }
                    ),
                );
                st.num("damage dealt", atk)
                    .num("blocker damage", after)
                    .num("exhaustion tokens", 1);
                if dead {
                    st.assume(DESTROYED_ASSUMPTION);
                    gone.push(br);
                }
            }
            Some((_, br, true)) => {
                let bl = unit_label(w, br);
                let batk = attack_of(w, br);
                cx.step(
                    PB4,
                    format!(
                        "{al} is blocked by {bl}; {} chooses to counter",
                        defender.name
                    ),
                )
                .chose(&defender.name, format!("to counter with {bl}"));
                let (ab, aa, alife) = damage_unit(w, a, batk);
                let (bb, ba, blife) = damage_unit(w, br, atk);
                let (adead, bdead) = (destroyed(w, a), destroyed(w, br));
                let mut exhausted_units: Vec<String> = Vec::new();
                for (r, dead) in [(a, adead), (br, bdead)] {
                    if dead {
                        gone.push(r);
                    } else {
                        exhaust(w, r);
                        exhausted_units.push(unit_label(w, r));
                    }
                }
                let mut fate = Vec::new();
                if adead {
                    fate.push(format!("{al} is destroyed"));
                }
                if bdead {
                    fate.push(format!("{bl} is destroyed"));
                }
                let fate = if fate.is_empty() {
                    "neither unit is destroyed".to_string()
                } else {
                    fate.join(" and ")
                };
                let tokens = if exhausted_units.is_empty() {
                    "no exhaustion token is placed (no unit in the battle survived)".to_string()
                } else {
                    format!("1 exhaustion token on {}", exhausted_units.join(" and "))
                };
                cx.step(
                    PB42,
                    format!(
                        "{al} and {bl} are in battle and deal damage simultaneously: {al} deals {atk} to {bl} ({bb} → {ba}, life {blife}), {bl} deals {batk} to {al} ({ab} → {aa}, life {alife}); {fate}; {tokens}"
                    ),
                )
                .num("attacker damage dealt", atk)
                .num("blocker damage dealt", batk)
                .num("exhaustion tokens", exhausted_units.len() as u32)
                .assume(DESTROYED_ASSUMPTION);
            }
        }
    }
    remove_units(w, gone);
    pb_lethal_note(w, d, cx);
    Ok(())
}

enum Guard {
    Phoenixborn,
    Unit(UnitRef),
}

fn attack_unit(w: &mut Board, play: &Play, actor: usize, cx: &mut Ctx) -> Result<(), BoardError> {
    let actor_name = announce_attack(w, play, actor, cx, AU, "a unit");
    // 1. Declare attackers.
    let attackers = declare_attackers(w, play, actor, cx, true)?;
    if play.attackers.is_empty() || cx.failed() {
        return Ok(());
    }
    // 2. Choose target.
    let Some(typed) = &play.target else {
        return Err(BoardError::semantic(
            "play.target",
            "name the unit being attacked (`target:`)",
        )
        .with_rule(AU2));
    };
    let t = find_unit(w, typed, "play.target", Prefer::NotPlayer(actor))?;
    let tl = unit_label(w, t);
    if t.0 == actor {
        cx.error(AU2, "play.target", format!("{tl} is on {actor_name}'s own battlefield; the target must be a unit on an opponent's battlefield"));
        return Ok(());
    }
    let d = t.0;
    let Some(defender) = w.players.get(d).cloned() else {
        return Ok(());
    };
    let Some(target) = defender.units.get(t.1).cloned() else {
        return Ok(());
    };
    cx.step(
        AU2,
        format!(
            "{actor_name} targets {}'s {tl} (attack {}, life {}, damage {}{}); all attackers attack it",
            defender.name,
            target.attack,
            target.life,
            target.damage,
            if target.exhausted { ", exhausted" } else { "" }
        ),
    )
    .num("target life", target.life)
    .num("target damage", target.damage)
    .chose(&actor_name, format!("to attack {tl}"));

    // 3. Declare a guard.
    let items: Vec<&str> = play.guard.as_ref().map(|g| g.items()).unwrap_or_default();
    if items.len() > 1 {
        cx.error(AU3, "play.guard", format!("{} guards are declared; only a single unit can be declared as a guard for any given attack", items.len()));
        return Ok(());
    }
    let mut guard: Option<Guard> = None;
    if let Some(g) = items.first() {
        let path = "play.guard";
        let is_pb_word = matches!(fold(g).as_str(), "phoenixborn" | "pb" | "myphoenixborn");
        let pb_named = !is_pb_word
            && [defender.phoenixborn.name.as_str(), defender.name.as_str()]
                .iter()
                .any(|n| fold(n) == fold(g))
            && !defender.units.iter().any(|u| fold(&u.name) == fold(g));
        if is_pb_word || pb_named {
            guard = Some(Guard::Phoenixborn);
            let pb = &defender.phoenixborn;
            let st = cx.step(
                AU3,
                format!(
                    "{} guards {tl} with the Phoenixborn {}{}; {} is now the target of the attack",
                    defender.name,
                    pb.name,
                    if pb.exhausted {
                        " (exhausted: a Phoenixborn can guard even if it is exhausted)"
                    } else {
                        ""
                    },
                    pb.name
                ),
            );
            st.chose(&defender.name, format!("to guard with {}", pb.name));
        } else {
            let gr = find_unit(w, g, path, Prefer::Player(d))?;
            let gl = unit_label(w, gr);
            let gu = w.players.get(gr.0).and_then(|p| p.units.get(gr.1)).cloned();
            if gr.0 != d {
                cx.error(AU3, path, format!("{gl} is not a unit {} controls; only the defending player's Phoenixborn or units can guard", defender.name));
            } else if gr == t {
                cx.error(AU3, path, format!("{gl} is the target; a guard is moved in front of the targeted unit, so it must be another unit"));
            } else if gu.as_ref().is_some_and(|u| !u.has_unit_guard()) {
                cx.error(AU3, path, format!("{gl} does not have the 'Unit Guard' ability; only the Phoenixborn or a unit with Unit Guard can guard"));
            } else if gu.as_ref().is_some_and(|u| u.exhausted) {
                cx.error(AU3, path, format!("{gl} is exhausted; only an unexhausted unit with Unit Guard can be declared as a guard"));
            } else {
                guard = Some(Guard::Unit(gr));
                cx.step(AU3, format!("{} declares {gl} (Unit Guard, unexhausted) as a guard for {tl}; {gl} is now the target of the attack", defender.name))
                    .chose(&defender.name, format!("to guard with {gl}"));
            }
        }
    } else {
        cx.step(
            AU3,
            format!(
                "{} declares no guard; {tl} remains the target",
                defender.name
            ),
        )
        .chose(&defender.name, "not to guard");
    }
    if cx.failed() {
        return Ok(());
    }

    // 4. Resolve damage.
    let total: u32 = attackers.iter().map(|r| attack_of(w, *r)).sum();
    let parts: Vec<String> = attackers
        .iter()
        .map(|r| format!("{} {}", unit_label(w, *r), attack_of(w, *r)))
        .collect();
    let sum_text = format!("{} = {total}", parts.join(" + "));
    let attacker_list: Vec<String> = attackers.iter().map(|r| unit_label(w, *r)).collect();
    let final_unit = match guard {
        Some(Guard::Phoenixborn) => {
            if play.counter == Some(true) {
                cx.error(AU4, "play.counter", format!("the final target is the Phoenixborn {}; only a unit that is the final target may counter", defender.phoenixborn.name));
                return Ok(());
            }
            if !play.split.is_empty() {
                return Err(BoardError::semantic("play.split", "there is no counter when a Phoenixborn is the final target, so there is no damage to split").with_rule(AU4));
            }
            let (b, after, life) = damage_pb(w, d, total);
            for r in &attackers {
                exhaust(w, *r);
            }
            cx.step(
                AU4,
                format!(
                    "the final target is the Phoenixborn {}: total attack {sum_text}, dealt to {} ({b} → {after} damage, life {life}); then 1 exhaustion token on each attacking unit ({})",
                    defender.phoenixborn.name,
                    defender.phoenixborn.name,
                    attacker_list.join(", ")
                ),
            )
            .num("total attack", total)
            .num("Phoenixborn damage", after)
            .num("exhaustion tokens", attackers.len() as u32);
            pb_lethal_note(w, d, cx);
            return Ok(());
        }
        Some(Guard::Unit(g)) => g,
        None => t,
    };
    let fl = unit_label(w, final_unit);
    let Some(fu) = w
        .players
        .get(final_unit.0)
        .and_then(|p| p.units.get(final_unit.1))
        .cloned()
    else {
        return Ok(());
    };
    let counter = play.counter.unwrap_or(false);
    if counter && fu.exhausted {
        cx.error(
            AU4,
            "play.counter",
            format!(
                "{fl} is exhausted and cannot counter; only an unexhausted final target may counter"
            ),
        );
        return Ok(());
    }
    if !counter {
        if !play.split.is_empty() {
            cx.diag(
                Severity::Warning,
                Some(AU41),
                Some("play.split"),
                "the damage split is ignored: the target does not counter, so it deals no damage",
            );
        }
        let why = if fu.exhausted {
            format!("{fl} is the final target and is exhausted, so it cannot counter")
        } else {
            format!(
                "{fl} is the final target and unexhausted; {} chooses not to counter",
                defender.name
            )
        };
        let st = cx.step(AU4, why);
        if !fu.exhausted {
            st.chose(&defender.name, format!("not to counter with {fl}"));
        }
        let (b, after, life) = damage_unit(w, final_unit, total);
        for r in &attackers {
            exhaust(w, *r);
        }
        let dead = destroyed(w, final_unit);
        let st = cx.step(
            AU41,
            format!(
                "total attack {sum_text} is dealt to {fl} ({b} → {after}, life {life}){}; then 1 exhaustion token on each attacking unit ({}); {fl} did not counter and gets no exhaustion token",
                if dead { format!(", so {fl} is destroyed") } else { String::new() },
                attacker_list.join(", ")
            ),
        );
        st.num("total attack", total)
            .num("target damage", after)
            .num("exhaustion tokens", attackers.len() as u32);
        if dead {
            st.assume(DESTROYED_ASSUMPTION);
            remove_units(w, vec![final_unit]);
        }
        return Ok(());
    }

    // Counter: the battle.
    let catk = fu.attack;
    let mut shares: Vec<(UnitRef, u32)> = Vec::new();
    if attackers.len() == 1 && play.split.is_empty() {
        if let Some(a) = attackers.first() {
            shares.push((*a, catk));
        }
    } else if play.split.is_empty() {
        cx.error(
            AU42,
            "play.split",
            format!(
                "{fl} counters {} attacking units: the defending player chooses how to split its {catk} damage among them (give `split:` with an amount per attacker)",
                attackers.len()
            ),
        );
        return Ok(());
    } else {
        let names: Vec<&str> = play.attackers.iter().map(String::as_str).collect();
        for (k, v) in &play.split {
            let path = format!("play.split[\"{k}\"]");
            let n = resolve_name(k, &names, &path, "attacking unit")?;
            let r = find_unit(w, n, &path, Prefer::Player(actor))?;
            if shares.iter().any(|s| s.0 == r) {
                cx.error(
                    AU42,
                    &path,
                    format!("{} is given two shares of the damage", unit_label(w, r)),
                );
                return Ok(());
            }
            shares.push((r, *v));
        }
        let sum: u32 = shares.iter().map(|s| s.1).sum();
        if sum != catk {
            cx.error(
                AU42,
                "play.split",
                format!("the split adds up to {sum}, but {fl} deals damage equal to its attack value, {catk}; the shares must add up to {catk}"),
            );
            return Ok(());
        }
        shares.sort_by_key(|s| {
            attackers
                .iter()
                .position(|a| *a == s.0)
                .unwrap_or(usize::MAX)
        });
    }
    cx.step(
        AU4,
        format!(
            "{fl} is the final target and unexhausted; {} chooses to counter",
            defender.name
        ),
    )
    .chose(&defender.name, format!("to counter with {fl}"));
    let (tb, ta, tlife) = damage_unit(w, final_unit, total);
    let mut dealt: Vec<String> = Vec::new();
    for (r, amount) in &shares {
        let (b, after, life) = damage_unit(w, *r, *amount);
        dealt.push(format!(
            "{amount} to {} ({b} → {after}, life {life})",
            unit_label(w, *r)
        ));
    }
    let mut in_battle: Vec<UnitRef> = attackers.clone();
    in_battle.push(final_unit);
    let mut gone = Vec::new();
    let mut tired = Vec::new();
    let mut dead_names = Vec::new();
    for r in in_battle {
        if destroyed(w, r) {
            dead_names.push(unit_label(w, r));
            gone.push(r);
        } else {
            exhaust(w, r);
            tired.push(unit_label(w, r));
        }
    }
    let split_text = if shares.len() > 1 {
        let s: Vec<String> = shares
            .iter()
            .map(|(r, v)| format!("{} {v}", unit_label(w, *r)))
            .collect();
        Some(s.join(", "))
    } else {
        None
    };
    let fate = if dead_names.is_empty() {
        "no unit is destroyed".to_string()
    } else {
        format!("destroyed: {}", dead_names.join(", "))
    };
    let tokens = if tired.is_empty() {
        "no exhaustion token is placed".to_string()
    } else {
        format!("1 exhaustion token on {}", tired.join(", "))
    };
    let st = cx.step(
        AU42,
        format!(
            "the attackers and {fl} are in battle: total attack {sum_text} is dealt to {fl} ({tb} → {ta}, life {tlife}); simultaneously {fl} deals its attack {catk}: {}; {fate}; {tokens}",
            dealt.join(", ")
        ),
    );
    st.num("total attack", total)
        .num("counter damage", catk)
        .num("exhaustion tokens", tired.len() as u32)
        .assume(DESTROYED_ASSUMPTION);
    if let Some(s) = split_text {
        st.chose(&defender.name, format!("to split {fl}'s damage: {s}"));
    }
    remove_units(w, gone);
    Ok(())
}

fn pass(w: &mut Board, actor: usize, cx: &mut Ctx) {
    let Some(player) = w.players.get(actor).cloned() else {
        return;
    };
    let ready = player.units.iter().filter(|u| !u.exhausted).count() as u32;
    let opponents = w.players.len().saturating_sub(1);
    if ready > 0 && opponents > 0 {
        cx.step(
            PASS,
            format!(
                "{} passes: the main action is to do nothing. {} could still attack with {ready} unexhausted unit(s), and a player may choose to pass even if other main actions are possible",
                player.name, player.name
            ),
        )
        .num("unexhausted units", ready)
        .chose(&player.name, "to pass");
    } else {
        cx.step(
            PASS,
            format!(
                "{} passes: the main action is to do nothing. {} has no unexhausted unit to attack with, so unless a card can be played, passing is the only main action left and must be chosen",
                player.name, player.name
            ),
        )
        .num("unexhausted units", ready)
        .chose(&player.name, "to pass")
        .assume("the board does not list cards in hand or abilities, so only attacks are checked when deciding whether another main action is possible (assumption outside the indexed text)");
    }
    w.consecutive_passes.push(player.name.clone());
    let missing: Vec<&str> = w
        .players
        .iter()
        .filter(|p| {
            !w.consecutive_passes
                .iter()
                .any(|n| fold(n) == fold(&p.name))
        })
        .map(|p| p.name.as_str())
        .collect();
    if missing.is_empty() {
        let who = w.consecutive_passes.join(", ");
        cx.step(
            PASS,
            format!("all players have passed on consecutive turns ({who}): the player turns phase ends and players move on to the recovery phase of the round"),
        )
        .num("consecutive passes", w.consecutive_passes.len() as u32);
        w.phase = Phase::Recovery;
        w.consecutive_passes.clear();
        w.turn = None;
        w.main_action_used = false;
    } else {
        let list = missing.join(", ");
        cx.step(
            PASS,
            format!(
                "{list} {} not passed since, so the player turns phase continues; {} may pass again or take any other main action on the next turn",
                if missing.len() == 1 { "has" } else { "have" },
                player.name
            ),
        )
        .num("consecutive passes", w.consecutive_passes.len() as u32)
        .num("players yet to pass", missing.len() as u32);
    }
}

fn pay_cost(w: &mut Board, play: &Play, actor: usize, cx: &mut Ctx) -> Result<(), BoardError> {
    let actor_name = w
        .players
        .get(actor)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    let Some(card) = play.card.as_deref().filter(|c| !c.trim().is_empty()) else {
        return Err(BoardError::semantic(
            "play.card",
            "name the card being played or activated (`card:`)",
        )
        .with_rule(PAY));
    };
    let Some(main) = play.main_action else {
        return Err(BoardError::semantic(
            "play.main_action",
            "say whether the card's play or activation cost includes the main-action symbol (`main_action: true` or `false`)",
        )
        .with_rule(PAY));
    };
    if main {
        cx.step(PAY, format!("the cost of {card} includes the main-action symbol: paying it takes up {actor_name}'s main action for the turn"))
            .num("main actions used", 1)
            .chose(&actor_name, format!("to play or activate {card}"));
        w.main_action_used = true;
    } else {
        cx.step(PAY, format!("the cost of {card} has no main-action symbol: paying it does not take up {actor_name}'s main action, which is still available"))
            .num("main actions used", 0)
            .chose(&actor_name, format!("to play or activate {card}"))
            .assume("the passage states only that a cost with the main-action symbol takes up the main action; that a cost without it leaves the main action available is read from it (assumption outside the indexed text)");
    }
    Ok(())
}
