//! The attack declaration procedure (steps 2.a–2.e), its reversal, and the
//! must-attack check on leaving the Main Phase.

use super::doc::{Action, Board, Combat, CostKind, Phase, Play, Slot, StackEntry, StackKind};
use super::rules::*;
use crate::engine::legacy::resolve_name;
use crate::engine::{BoardError, Choice, Diagnostic, Severity, Step};

/// What the procedure produced: the board after the play and the record.
pub struct Outcome {
    pub legal: bool,
    pub steps: Vec<Step>,
    pub diagnostics: Vec<Diagnostic>,
    pub after: Board,
}

fn fold(s: &str) -> String {
    crate::text::fold(s)
}

fn step(rule: &str, text: impl Into<String>) -> Step {
    Step {
        rule: rule.to_string(),
        text: text.into(),
        numbers: Vec::new(),
        choice: None,
        assumption: None,
    }
}

fn error(rule: Option<&str>, path: impl Into<String>, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        message: message.into(),
        rule: rule.map(str::to_string),
        path: Some(path.into()),
    }
}

fn note(
    severity: Severity,
    rule: &str,
    path: Option<String>,
    message: impl Into<String>,
) -> Diagnostic {
    Diagnostic {
        severity,
        message: message.into(),
        rule: Some(rule.to_string()),
        path,
    }
}

trait StepExt {
    fn by(self, player: &str, chose: impl Into<String>) -> Step;
    fn num(self, k: &str, v: i64) -> Step;
    fn assume(self, a: impl Into<String>) -> Step;
}

impl StepExt for Step {
    fn by(mut self, player: &str, chose: impl Into<String>) -> Step {
        self.choice = Some(Choice {
            assumed: None,
            player: player.to_string(),
            chose: chose.into(),
        });
        self
    }
    fn num(mut self, k: &str, v: i64) -> Step {
        self.numbers.push((k.to_string(), v));
        self
    }
    fn assume(mut self, a: impl Into<String>) -> Step {
        self.assumption = Some(a.into());
        self
    }
}

/// One thing done during the declaration, kept so it can be undone.
enum Undo {
    /// A choice made at a step (nothing on the board to restore, but shown).
    Choice { step: &'static str, what: String },
    /// A card rested as the cost of 2.a.
    Rest {
        player: usize,
        slot: Slot,
        name: String,
    },
    /// A state-based trigger waiting for the next check.
    Pending { name: String },
    /// Reserve paid at 2.d or 2.e.
    Pay {
        player: usize,
        amount: u32,
        source: String,
        step: &'static str,
    },
}

/// The play with every name resolved against the board.
struct Resolved {
    attacker: Slot,
    with: Vec<usize>,
    target: Option<(usize, Slot)>,
    defending_player: Option<usize>,
    /// Indices into `board.costs` of extra costs the player agrees to pay.
    pay_extra: Vec<usize>,
}

fn resolve(board: &Board, play: &Play, tp: usize) -> Result<Resolved, BoardError> {
    let me = board
        .players
        .get(tp)
        .ok_or_else(|| BoardError::semantic("turn_player", "no such player"))?;
    let mine: Vec<&str> = me.cards().map(|(_, c)| c.name.as_str()).collect();
    let attacker_name = play.attacker.as_deref().ok_or_else(|| {
        BoardError::semantic(
            "play.attacker",
            "name the object that declares the attack (`attacker: ...`)",
        )
        .with_rule(D2_1)
    })?;
    let attacker_name = resolve_name(attacker_name, &mine, "play.attacker", "card").map_err(|e| {
        match board.players.iter().find(|p| p.name != me.name && p.cards().any(|(_, c)| fold(&c.name) == fold(attacker_name))) {
            Some(o) => BoardError::semantic(
                "play.attacker",
                format!("{attacker_name} is controlled by {}; the declaring player is {} (the turn player)", o.name, me.name),
            )
            .with_rule(D2_1),
            None => e,
        }
    })?;
    let attacker = me
        .slot_of(attacker_name)
        .ok_or_else(|| BoardError::semantic("play.attacker", "no such card"))?;
    let objects: Vec<&str> = me.objects.iter().map(|c| c.name.as_str()).collect();
    let mut with = Vec::new();
    for (i, w) in play.with.iter().enumerate() {
        let path = format!("play.with[{i}]");
        let name = match resolve_name(w, &objects, &path, "object") {
            Ok(n) => n,
            Err(e) => {
                if me.units().any(|(_, c)| fold(&c.name) == fold(w)) {
                    return Err(BoardError::semantic(
                        path,
                        format!("{w} is a champion or ally; step 2.b adds weapons or other objects (list them under `objects:`)"),
                    )
                    .with_rule(D2_2));
                }
                return Err(e);
            }
        };
        let idx = me
            .objects
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| BoardError::semantic(path.clone(), "no such object"))?;
        if Slot::Object(idx) == attacker {
            return Err(BoardError::semantic(
                path,
                format!("{name} is already the attacker; it can't also be added in step 2.b"),
            )
            .with_rule(D2_2_1));
        }
        if with.contains(&idx) {
            return Err(BoardError::semantic(path, format!("{name} is added twice")));
        }
        with.push(idx);
    }
    let opponents: Vec<usize> = (0..board.players.len()).filter(|&p| p != tp).collect();
    let target = match &play.target {
        None => None,
        Some(t) => {
            let names: Vec<&str> = opponents
                .iter()
                .flat_map(|&p| board.players[p].units().map(|(_, c)| c.name.as_str()))
                .collect();
            let name = resolve_name(t, &names, "play.target", "opposing champion or ally").map_err(|e| {
                if me.cards().any(|(_, c)| fold(&c.name) == fold(t)) {
                    BoardError::semantic("play.target", format!("{t} is {}'s own card; attack targets are chosen among opposing champions and allies", me.name))
                        .with_rule(D2_3)
                } else {
                    e
                }
            })?;
            let found = opponents.iter().find_map(|&p| {
                board.players[p]
                    .units()
                    .find(|(_, c)| c.name == name)
                    .map(|(s, _)| (p, s))
            });
            Some(found.ok_or_else(|| BoardError::semantic("play.target", "no such unit"))?)
        }
    };
    let defending_player = match &play.defending_player {
        None => None,
        Some(d) => {
            let names: Vec<&str> = opponents
                .iter()
                .map(|&p| board.players[p].name.as_str())
                .collect();
            let name = resolve_name(d, &names, "play.defending_player", "opponent")?;
            opponents
                .iter()
                .copied()
                .find(|&p| board.players[p].name == name)
        }
    };
    let mut extra_sources: Vec<&str> = Vec::new();
    for c in board.costs.iter().filter(|c| c.kind == CostKind::Extra) {
        if !extra_sources.contains(&c.source.as_str()) {
            extra_sources.push(&c.source);
        }
    }
    let mut pay_extra = Vec::new();
    for (i, s) in play.pay_extra.iter().enumerate() {
        let path = format!("play.pay_extra[{i}]");
        if extra_sources.is_empty() {
            let additional = board.costs.iter().any(|c| fold(&c.source) == fold(s));
            let msg = if additional {
                format!(
                    "{s} imposes an \"additional cost\", which is paid in step 2.d without a choice; `pay_extra` lists extra costs only"
                )
            } else {
                format!(
                    "no extra cost named '{s}' is in play (list it under `costs:` with `kind: extra`)"
                )
            };
            return Err(BoardError::semantic(path, msg).with_rule(D2_5_1));
        }
        let name = resolve_name(s, &extra_sources, &path, "extra cost")?;
        for (j, c) in board.costs.iter().enumerate() {
            if c.kind == CostKind::Extra && c.source == name && !pay_extra.contains(&j) {
                pay_extra.push(j);
            }
        }
    }
    Ok(Resolved {
        attacker,
        with,
        target,
        defending_player,
        pay_extra,
    })
}

/// Adjudicates the board's play. `board` has been validated.
pub fn run(board: &Board) -> Result<Outcome, BoardError> {
    let Some(play) = &board.play else {
        return Ok(Outcome {
            legal: true,
            steps: Vec::new(),
            diagnostics: vec![Diagnostic {
                severity: Severity::Info,
                message: "the board has no `play:`; nothing to adjudicate".into(),
                rule: None,
                path: Some("play".into()),
            }],
            after: board.clone(),
        });
    };
    match play.action {
        Action::DeclareAttack => declare(board, play),
        Action::EndMainPhase => {
            if play.attacker.is_some()
                || play.target.is_some()
                || play.defending_player.is_some()
                || !play.with.is_empty()
                || !play.pay_extra.is_empty()
            {
                return Err(BoardError::semantic(
                    "play.action",
                    "`action: end_main_phase` takes no attacker, objects, target or costs; use `action: declare_attack` to declare",
                ));
            }
            end_main_phase(board)
        }
    }
}

fn end_main_phase(board: &Board) -> Result<Outcome, BoardError> {
    let tp = board.turn_index();
    let me = board
        .players
        .get(tp)
        .ok_or_else(|| BoardError::semantic("turn_player", "no such player"))?;
    let mut steps = Vec::new();
    let mut diagnostics = Vec::new();
    if board.phase != Phase::Main {
        diagnostics.push(error(
            None,
            "phase",
            format!(
                "the turn is in the {}, not the Main Phase, so there is no Main Phase to end",
                board.phase.name()
            ),
        ));
        return Ok(Outcome {
            legal: false,
            steps,
            diagnostics,
            after: board.clone(),
        });
    }
    for (j, m) in me.must_attack.iter().enumerate() {
        let src = m
            .source
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        if m.attempted {
            steps.push(step(
                D1_4,
                format!("{} attempted to declare an attack with {}{src}, as instructed; no further attempt is needed", me.name, m.with),
            ));
        } else {
            steps.push(step(
                D1_4,
                format!("{} must attack with {}{src} and has not attempted that attack: {} stays in the Main Phase", me.name, m.with, me.name),
            ));
            diagnostics.push(error(
                Some(D1_4),
                format!("players[{tp}].must_attack[{j}]"),
                format!(
                    "{} must attack with {}{src} and has not attempted to declare that attack; they can't proceed from the Main Phase to the End Phase until they attempt it (an illegal attempt is enough)",
                    me.name, m.with
                ),
            ));
        }
    }
    if !diagnostics.is_empty() {
        return Ok(Outcome {
            legal: false,
            steps,
            diagnostics,
            after: board.clone(),
        });
    }
    if me.must_attack.is_empty() {
        steps.push(step(D1_4, format!("No effect instructs {} to attack with an object, so nothing holds them in the Main Phase", me.name)));
    }
    let mut after = board.clone();
    after.phase = Phase::End;
    steps.push(step(
        D1_4,
        format!("{} proceeds from the Main Phase to the End Phase", me.name),
    ));
    Ok(Outcome {
        legal: true,
        steps,
        diagnostics,
        after,
    })
}

fn declare(board: &Board, play: &Play) -> Result<Outcome, BoardError> {
    let tp = board.turn_index();
    let r = resolve(board, play, tp)?;
    let me_name = board.players[tp].name.clone();
    let me = me_name.as_str();
    let mut steps: Vec<Step> = Vec::new();
    let mut diags: Vec<Diagnostic> = Vec::new();

    // Preconditions: nothing has been done yet, so nothing to reverse.
    if board.phase != Phase::Main || board.combat.is_some() {
        diags.push(error(
            None,
            "phase",
            format!(
                "the turn is in the {}; an attack is declared from the Main Phase (reading outside the indexed text: a declaration moves the turn into the combat phase, so it is not made during one)",
                if board.combat.is_some() { "combat phase" } else { board.phase.name() }
            ),
        ));
        return Ok(Outcome {
            legal: false,
            steps,
            diagnostics: diags,
            after: board.clone(),
        });
    }
    if let Some((i, e)) = board
        .effects_stack
        .iter()
        .enumerate()
        .find(|(_, e)| e.kind == StackKind::AttackCard)
    {
        diags.push(error(
            Some(GR3),
            format!("effects_stack[{i}]"),
            format!("the attack card {} is still on the Effects Stack; it must resolve and enter the champion's intent before {me} can declare an attack", e.name),
        ));
        return Ok(Outcome {
            legal: false,
            steps,
            diagnostics: diags,
            after: board.clone(),
        });
    }

    let mut w = board.clone();
    w.play = None;
    let mut undo: Vec<Undo> = Vec::new();
    let attacker_card = board.players[tp]
        .card(r.attacker)
        .cloned()
        .ok_or_else(|| BoardError::semantic("play.attacker", "no such card"))?;
    let attacker = attacker_card.name.as_str();
    let role = r.attacker.role();

    steps.push(step(
        D1,
        format!("{me} declares an attack with {attacker}; the declaration goes through the steps of rule 2 and must be verified as a legal attack"),
    ));
    let intent = &board.players[tp].intent;
    let gr3 = if r.attacker == Slot::Champion && !intent.is_empty() {
        format!(
            "No attack card is waiting on the Effects Stack; {} in the champion's intent has resolved, so the declaration can be made",
            intent.join(", ")
        )
    } else {
        "No attack card is waiting on the Effects Stack, so the declaration can be made".to_string()
    };
    steps.push(step(GR3, gr3));
    steps.push(step(D2, "Steps 2.a to 2.e are done in sequence"));

    // Must-attack obligations this attempt answers.
    let answered: Vec<usize> = board.players[tp]
        .must_attack
        .iter()
        .enumerate()
        .filter(|(_, m)| fold(&m.with) == fold(attacker))
        .map(|(j, _)| j)
        .collect();

    // 2.a: select the attacker.
    steps.push(
        step(
            D2_1,
            format!("2.a: {me} selects {attacker} ({role}) as the attacker"),
        )
        .by(me, format!("{attacker} as the attacker")),
    );
    undo.push(Undo::Choice {
        step: "2.a",
        what: format!("{attacker} as the attacker"),
    });
    let is_unit = !matches!(r.attacker, Slot::Object(_));
    let permission = attacker_card.attack_permission.clone();
    let mut failed_at: Option<&'static str> = None;
    if is_unit && !attacker_card.rested {
        steps.push(step(
            D2_1_1,
            format!("{attacker} is an awake {role}, so it is able to attack"),
        ));
    } else if let Some(p) = &permission {
        let why = if is_unit {
            format!("{attacker} is rested, but {p} grants it permission to attack")
        } else {
            format!("{attacker} is not an ally or champion; {p} grants it permission to attack")
        };
        steps.push(step(D2_1_1, why));
    } else {
        let why = if is_unit {
            format!(
                "{attacker} is rested and no effect grants it permission to attack; a rested {role} can't be selected as the attacker"
            )
        } else {
            format!(
                "{attacker} is an object, not an ally or champion, and no effect grants it permission to attack (set `attack_permission` if one does)"
            )
        };
        steps.push(step(D2_1_1, format!("2.a fails: {why}")));
        diags.push(error(Some(D2_1_1), r.attacker.path(tp), why));
        failed_at = Some("2.a");
    }
    if failed_at.is_none() {
        if is_unit && !attacker_card.rested {
            if let Some(c) = w.players[tp].card_mut(r.attacker) {
                c.rested = true;
            }
            undo.push(Undo::Rest {
                player: tp,
                slot: r.attacker,
                name: attacker.to_string(),
            });
            steps.push(step(
                D2_1_1_1,
                format!("{attacker} is rested as the cost to attack"),
            ));
            for t in &attacker_card.when_rested {
                w.pending_triggers.push(t.clone());
                undo.push(Undo::Pending { name: t.clone() });
                steps.push(step(
                    D1_2,
                    format!("{attacker} becoming rested triggers {t}; it waits and goes onto the Effects Stack the next time state-based effects are checked"),
                ));
            }
        } else {
            steps.push(step(
                D2_1_1_1,
                if is_unit {
                    format!("{attacker} is already rested, so there is no resting cost to pay")
                } else {
                    format!("{attacker} is not an awake ally or champion, so it is not rested")
                },
            ));
        }
    }

    // 2.b: add weapons or objects.
    let with_names: Vec<String> = r
        .with
        .iter()
        .filter_map(|&i| board.players[tp].objects.get(i).map(|c| c.name.clone()))
        .collect();
    if failed_at.is_none() {
        if with_names.is_empty() {
            steps.push(
                step(
                    D2_2,
                    format!("2.b: {me} adds no weapons or objects to the attack"),
                )
                .by(me, "no weapons or objects"),
            );
        } else {
            for n in &with_names {
                steps.push(
                    step(D2_2, format!("2.b: {me} adds {n} to the attack"))
                        .by(me, format!("to add {n}")),
                );
                undo.push(Undo::Choice {
                    step: "2.b",
                    what: format!("{n} added to the attack"),
                });
            }
            let (verb, noun) = if with_names.len() == 1 {
                ("takes", "is not an attacker")
            } else {
                ("take", "are not attackers")
            };
            steps.push(step(D2_2_1, format!("{} {verb} part in combat after the declaration but {noun}; only {attacker} is the attacker", with_names.join(", "))));
        }
    }

    // 2.c: target, or with Cleave a defending player.
    let cleave = if attacker_card.has_keyword("cleave") {
        Some(attacker.to_string())
    } else {
        r.with
            .iter()
            .filter_map(|&i| board.players[tp].objects.get(i))
            .find(|c| c.has_keyword("cleave"))
            .map(|c| c.name.clone())
    };
    let opponents: Vec<usize> = (0..board.players.len()).filter(|&p| p != tp).collect();
    let mut defending: Option<(usize, Vec<String>)> = None;
    if failed_at.is_none() {
        if let Some(src) = &cleave {
            let granted = if src == attacker {
                format!("{attacker} has Cleave")
            } else {
                format!("{src}, added in 2.b, gives the attack Cleave")
            };
            if let Some((p, s)) = r.target {
                let name = board.players[p]
                    .card(s)
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                let why = format!(
                    "{granted}, so {me} chooses a player instead of an attack target; name the player (`defending_player: {}`) instead of the target {name}",
                    board.players[p].name
                );
                steps.push(step(D2_3_1, format!("2.c fails: {why}")));
                diags.push(error(Some(D2_3_1), "play.target", why));
                failed_at = Some("2.c");
            } else {
                let chosen = match (r.defending_player, opponents.as_slice()) {
                    (Some(p), _) => Some((p, false)),
                    (None, [only]) => Some((*only, true)),
                    _ => None,
                };
                match chosen {
                    Some((p, implied)) => {
                        let pname = board.players[p].name.clone();
                        let units: Vec<String> = board.players[p]
                            .units()
                            .map(|(_, c)| c.name.clone())
                            .collect();
                        let how = if implied {
                            " (the only opponent)".to_string()
                        } else {
                            String::new()
                        };
                        steps.push(
                            step(
                                D2_3_1,
                                format!(
                                    "2.c: {granted}, so {me} chooses {pname}{how}; {pname}'s units ({}) become defending units and are not attack targets",
                                    units.join(", ")
                                ),
                            )
                            .by(me, format!("{pname} as the defending player")),
                        );
                        undo.push(Undo::Choice {
                            step: "2.c",
                            what: format!("{pname} as the defending player"),
                        });
                        defending = Some((p, units));
                    }
                    None => {
                        let why = format!(
                            "{granted}, so {me} must choose a player whose units become defending units (`defending_player:`)"
                        );
                        steps.push(step(D2_3_1, format!("2.c fails: {why}")));
                        diags.push(error(Some(D2_3_1), "play.defending_player", why));
                        failed_at = Some("2.c");
                    }
                }
            }
        } else if r.defending_player.is_some() {
            let why = format!(
                "{attacker} has no Cleave, so {me} must choose an attack target, not a player"
            );
            steps.push(step(D2_3, format!("2.c fails: {why}")));
            diags.push(error(Some(D2_3), "play.defending_player", why));
            failed_at = Some("2.c");
        } else if let Some((p, s)) = r.target {
            let name = board.players[p]
                .card(s)
                .map(|c| c.name.clone())
                .unwrap_or_default();
            let pname = &board.players[p].name;
            steps.push(step(D2_3, format!("2.c: {me} chooses {pname}'s {} {name} as the attack target; it becomes the defending unit", s.role())).by(me, format!("{name} as the target")));
            undo.push(Undo::Choice {
                step: "2.c",
                what: format!("{name} as the target"),
            });
            defending = Some((p, vec![name]));
        } else {
            let why = format!("{me} must choose an attack target (`target:`)");
            steps.push(step(D2_3, format!("2.c fails: {why}")));
            diags.push(error(Some(D2_3), "play.target", why));
            failed_at = Some("2.c");
        }
    }

    let in_attack = |name: &str| {
        fold(name) == fold(attacker) || with_names.iter().any(|n| fold(n) == fold(name))
    };
    let applies = |applies_to: &Option<String>| applies_to.as_deref().is_none_or(|a| a == me);

    // 2.d: calculated costs, including additional costs.
    if failed_at.is_none() {
        let mut any = false;
        for (i, c) in board.costs.iter().enumerate() {
            if c.kind != CostKind::Additional
                || !applies(&c.applies_to)
                || !c.when_attacking_with.as_deref().is_none_or(in_attack)
            {
                continue;
            }
            any = true;
            let have = w.players[tp].reserve;
            if have >= c.reserve {
                w.players[tp].reserve = have - c.reserve;
                undo.push(Undo::Pay {
                    player: tp,
                    amount: c.reserve,
                    source: c.source.clone(),
                    step: "2.d",
                });
                steps.push(
                    step(D2_4, format!("2.d: {me} pays {} reserve for {}'s additional cost to declare the attack", c.reserve, c.source))
                        .num("cost", i64::from(c.reserve))
                        .num("reserve before", i64::from(have))
                        .num("reserve after", i64::from(have - c.reserve)),
                );
            } else {
                let why = format!(
                    "{me} can't pay {}'s additional cost of {} reserve: only {have} reserve is available",
                    c.source, c.reserve
                );
                steps.push(
                    step(D2_4, format!("2.d fails: {why}"))
                        .num("cost", i64::from(c.reserve))
                        .num("reserve", i64::from(have)),
                );
                diags.push(error(Some(D2_4), format!("costs[{i}]"), why));
                failed_at = Some("2.d");
                break;
            }
            diags.push(note(
                Severity::Info,
                EX2,
                Some(format!("costs[{i}]")),
                format!(
                    "the seed's Example 2 says {}'s additional cost is paid in step 2.c, but numbered step 2.d (rule 2.4) pays calculated costs, including additional costs; the engine follows the numbered steps (the amount paid is the same either way)",
                    c.source
                ),
            ));
        }
        if !any {
            steps.push(step(
                D2_4,
                "2.d: there are no calculated or additional costs to pay",
            ));
        }
    }

    // 2.e: restrictions and extra costs.
    if failed_at.is_none() {
        steps.push(step(
            D2_5,
            format!("2.e: {me} reconciles the restrictions and extra costs on this attack"),
        ));
        let mut fail_e = false;
        for (i, c) in board.costs.iter().enumerate() {
            if c.kind != CostKind::Extra
                || !applies(&c.applies_to)
                || !c.when_attacking_with.as_deref().is_none_or(in_attack)
            {
                continue;
            }
            let by = c
                .controller
                .as_deref()
                .map(|o| format!(" ({o}'s)"))
                .unwrap_or_default();
            diags.push(note(
                Severity::Info,
                EX1,
                Some(format!("costs[{i}]")),
                format!(
                    "the seed's Example 1 places the choice to pay {}'s extra cost in step 2.d, but numbered rule 2.5.1 puts extra costs that are not \"additional costs\" in step 2.e; the engine follows the numbered steps (the attack is legal or illegal the same way)",
                    c.source
                ),
            ));
            if r.pay_extra.contains(&i) {
                let have = w.players[tp].reserve;
                if have >= c.reserve {
                    w.players[tp].reserve = have - c.reserve;
                    undo.push(Undo::Pay {
                        player: tp,
                        amount: c.reserve,
                        source: c.source.clone(),
                        step: "2.e",
                    });
                    steps.push(
                        step(D2_5_1, format!("2.e: {me} agrees to pay {}{by} extra cost of {} reserve (not an \"additional cost\") and pays it", c.source, c.reserve))
                            .by(me, format!("to pay {}'s extra cost", c.source))
                            .num("cost", i64::from(c.reserve))
                            .num("reserve before", i64::from(have))
                            .num("reserve after", i64::from(have - c.reserve)),
                    );
                } else {
                    let why = format!(
                        "{me} agrees to pay {}{by} extra cost of {} reserve but only {have} reserve is available",
                        c.source, c.reserve
                    );
                    steps.push(
                        step(D2_5_1, format!("2.e fails: {why}"))
                            .num("cost", i64::from(c.reserve))
                            .num("reserve", i64::from(have)),
                    );
                    diags.push(error(Some(D2_5_1_3), format!("costs[{i}]"), why));
                    fail_e = true;
                }
            } else {
                let why = format!(
                    "{me} refuses to pay {}{by} extra cost of {} reserve, so the attack is illegal",
                    c.source, c.reserve
                );
                steps.push(
                    step(D2_5_1_1, format!("2.e: {why}"))
                        .by(me, format!("not to pay {}'s extra cost", c.source))
                        .num("cost", i64::from(c.reserve)),
                );
                diags.push(error(Some(D2_5_1_1), "play.pay_extra", why));
                fail_e = true;
            }
        }
        for (k, &i) in r.pay_extra.iter().enumerate() {
            if let Some(c) = board.costs.get(i)
                && !(applies(&c.applies_to)
                    && c.when_attacking_with.as_deref().is_none_or(in_attack))
            {
                diags.push(note(
                    Severity::Warning,
                    D2_5_1,
                    Some(format!("play.pay_extra[{k}]")),
                    format!(
                        "{}'s extra cost does not apply to this attack; nothing is paid for it",
                        c.source
                    ),
                ));
            }
        }
        // Targeting restrictions: Taunt and restrictions in play.
        if let Some((dp, _)) = &defending {
            let taunts: Vec<String> = board.players[*dp]
                .units()
                .filter(|(_, c)| c.has_keyword("taunt"))
                .map(|(_, c)| c.name.clone())
                .collect();
            const TAUNT: &str = "Taunt is read as: while the defending player controls units with Taunt, an attack on that player's units must target one of them (the indexed text names Taunt only as a targeting restriction)";
            if !taunts.is_empty() {
                let dname = &board.players[*dp].name;
                match (&cleave, r.target) {
                    (Some(_), _) => steps.push(
                        step(D2_5_1_2, format!("{dname} controls {} with Taunt; a Cleave attack has no attack target, so the targeting restriction has nothing to constrain", taunts.join(", ")))
                            .assume(format!("{TAUNT}; a Cleave attack chooses a player, not a target (2.3.1), and is taken to satisfy it")),
                    ),
                    (None, Some((p, s))) => {
                        let tname = board.players[p].card(s).map(|c| c.name.clone()).unwrap_or_default();
                        if taunts.contains(&tname) {
                            steps.push(step(D2_5_1_2, format!("The Taunt restriction is fulfilled: {tname} has Taunt")).assume(TAUNT));
                        } else {
                            let why = format!("{dname} controls {} with Taunt, so the attack must target {}, not {tname}", taunts.join(", "), if taunts.len() == 1 { "it" } else { "one of them" });
                            steps.push(step(D2_5_1_2, format!("2.e: the Taunt restriction is not fulfilled: {why}")).assume(TAUNT));
                            diags.push(error(Some(D2_5_1_2), "play.target", why));
                            fail_e = true;
                        }
                    }
                    (None, None) => {}
                }
            }
        }
        for (i, rs) in board.restrictions.iter().enumerate() {
            if !applies(&rs.applies_to) {
                continue;
            }
            if let Some(bad) = rs.cannot_attack_with.iter().find(|n| in_attack(n)) {
                let why = format!("{} forbids attacking with {bad}", rs.source);
                steps.push(step(
                    D2_5_1_2,
                    format!("2.e: restriction not fulfilled: {why}"),
                ));
                diags.push(error(
                    Some(D2_5_1_2),
                    format!("restrictions[{i}].cannot_attack_with"),
                    why,
                ));
                fail_e = true;
            } else if !rs.cannot_attack_with.is_empty() {
                steps.push(step(
                    D2_5_1_2,
                    format!(
                        "{}'s restriction is fulfilled: the attack does not use {}",
                        rs.source,
                        rs.cannot_attack_with.join(", ")
                    ),
                ));
            }
            if rs.must_target.is_empty() {
                continue;
            }
            match (&cleave, r.target) {
                (Some(_), _) => steps.push(
                    step(D2_5_1_2, format!("{} requires targeting {}; a Cleave attack has no attack target", rs.source, rs.must_target.join(" or ")))
                        .assume("a targeting restriction is taken to have nothing to constrain in a Cleave attack, which chooses a player, not a target (2.3.1)"),
                ),
                (None, Some((p, s))) => {
                    let tname = board.players[p].card(s).map(|c| c.name.clone()).unwrap_or_default();
                    if rs.must_target.iter().any(|n| fold(n) == fold(&tname)) {
                        steps.push(step(D2_5_1_2, format!("{}'s targeting restriction is fulfilled: the target is {tname}", rs.source)));
                    } else {
                        let why = format!("{} requires the attack to target {}, not {tname}", rs.source, rs.must_target.join(" or "));
                        steps.push(step(D2_5_1_2, format!("2.e: restriction not fulfilled: {why}")));
                        diags.push(error(Some(D2_5_1_2), "play.target", why));
                        fail_e = true;
                    }
                }
                (None, None) => {}
            }
        }
        if fail_e {
            failed_at = Some("2.e");
        }
    }

    let mut after = if let Some(at) = failed_at {
        // Reverse every step taken, last first.
        // 1.3 covers illegality found after the attacker was selected (2.b-2.d);
        // 2.5.1.3 covers unmet conditions and restrictions (2.a's ability to attack, 2.e).
        let rule = if at == "2.e" || at == "2.a" {
            D2_5_1_3
        } else {
            D1_3
        };
        if undo.len() <= 1 && at == "2.a" {
            steps.push(step(rule, format!("The attack declaration is illegal at {at}; the only step taken was selecting {attacker}, which is withdrawn")));
        } else {
            steps.push(step(rule, format!("The attack declaration is illegal (failed at {at}); every step taken is reversed, last first")));
            for u in undo.iter().rev() {
                match u {
                    Undo::Choice { step: s, what } => {
                        steps.push(step(
                            rule,
                            format!("Reverse {s}: the choice of {what} is withdrawn"),
                        ));
                    }
                    Undo::Rest { player, slot, name } => {
                        if let Some(c) = w.players.get_mut(*player).and_then(|p| p.card_mut(*slot))
                        {
                            c.rested = false;
                        }
                        steps.push(step(rule, format!("Reverse 2.a: {name} becomes awake again (its resting cost is undone)")));
                    }
                    Undo::Pending { name } => {
                        if let Some(pos) = w.pending_triggers.iter().rposition(|t| t == name) {
                            w.pending_triggers.remove(pos);
                        }
                        steps.push(step(rule, format!("Reverse 2.a: {name} no longer waits for the next state-based check (the resting that triggered it is undone)")));
                    }
                    Undo::Pay {
                        player,
                        amount,
                        source,
                        step: s,
                    } => {
                        let p = w.players.get_mut(*player);
                        let (before, after) = match p {
                            Some(p) => {
                                let b = p.reserve;
                                p.reserve = b.saturating_add(*amount);
                                (b, p.reserve)
                            }
                            None => (0, 0),
                        };
                        steps.push(
                            step(rule, format!("Reverse {s}: the {amount} reserve paid for {source} is returned to {me}"))
                                .num("refund", i64::from(*amount))
                                .num("reserve before", i64::from(before))
                                .num("reserve after", i64::from(after)),
                        );
                    }
                }
            }
        }
        // Compare with the board as it was (the play aside).
        w.play.clone_from(&board.play);
        let exact = w == *board;
        w.play = None;
        steps.push(step(
            D2_5_1_3,
            if exact {
                "The game resumes at the point in time prior to the attack declaration: the board is exactly as it was (checked)".to_string()
            } else {
                "The game resumes at the point in time prior to the attack declaration".to_string()
            },
        ));
        if !exact {
            diags.push(error(None, "play", "internal error: the reversal did not restore the board exactly; please report this board"));
        }
        w
    } else {
        let (dp, units) = defending.unwrap_or((tp, Vec::new()));
        steps.push(step(D1_1, "Steps 2.a to 2.e were followed in order and are considered to have all happened at the same time: the attack is legal"));
        w.phase = Phase::Combat;
        let target = match (&cleave, r.target) {
            (None, Some((p, s))) => board.players[p].card(s).map(|c| c.name.clone()),
            _ => None,
        };
        w.combat = Some(Combat {
            attacking_player: me.to_string(),
            attacker: attacker.to_string(),
            objects: with_names.clone(),
            target,
            defending_player: board
                .players
                .get(dp)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            defending_units: units,
        });
        steps.push(step(
            GR1,
            "The attack is declared: the turn immediately enters the combat phase",
        ));
        steps.push(step(
            GR2,
            "The declaration can't be responded to, and no player receives Opportunity from it",
        ));
        let mut triggers: Vec<(String, String)> = attacker_card
            .on_attack
            .iter()
            .map(|t| (attacker.to_string(), t.clone()))
            .collect();
        for &i in &r.with {
            if let Some(c) = board.players[tp].objects.get(i) {
                triggers.extend(c.on_attack.iter().map(|t| (c.name.clone(), t.clone())));
            }
        }
        for (src, t) in &triggers {
            w.effects_stack.push(StackEntry {
                name: format!("{src}: {t}"),
                kind: StackKind::OnAttack,
                controller: Some(me.to_string()),
            });
            steps.push(step(GR4, format!("{src}'s On Attack ability ({t}) goes onto the Effects Stack; players can respond at the beginning of the Retaliation Step")));
        }
        steps.push(step(GR5, "Combat proceeds through all its steps even if the attacker or all defending units leave the field"));
        w
    };

    // Must-attack obligations: answered by this attempt, legal or not.
    for &j in &answered {
        let Some(m) = after.players[tp].must_attack.get_mut(j) else {
            continue;
        };
        let src = m
            .source
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let text = if failed_at.is_some() {
            format!(
                "{me} attempted the attack with {attacker} that {me} must make{src}; it was illegal, so no further attempts are necessary (recorded as attempted)"
            )
        } else {
            format!(
                "{me} attacks with {attacker} as instructed{src}; the must-attack obligation is met"
            )
        };
        if !m.attempted {
            m.attempted = true;
        }
        steps.push(step(D1_4, text));
    }

    after.play = None;
    diags.sort_by_key(|d| d.severity);
    Ok(Outcome {
        legal: failed_at.is_none(),
        steps,
        diagnostics: diags,
        after,
    })
}
