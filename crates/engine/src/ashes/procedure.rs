//! The step procedures of "03 - Main Actions": Pay a Cost, Attack a
//! Phoenixborn, Attack a Unit, Pass.
//!
//! The attacking player's own choices (attackers, target, order) make the
//! play illegal when impossible. The defending player's choices (blockers, a
//! guard, a counter, a damage split) are theirs: an impossible one is
//! refused alone and the attack resolves as the rules say it does without
//! it; an unstated one is asked of them or taken at the rule's default.

use serde_json::{Value, json};

use super::board::{Board, Phase, Said, UnitRef};
use super::plays::{Block, OneOrMany, Play};
use super::rules::*;
use crate::BoardError;
use crate::kit::{Ask, Chosen, Cx, Opt, Stop, Whose, names};
use crate::text::{count, fold};

/// The assumption every "destroyed" judgement rests on.
pub const DESTROYED_ASSUMPTION: &str = "a unit is treated as destroyed when its damage is at least its life, and a destroyed unit leaves the board: the indexed text uses 'destroyed' but does not define it (assumption outside the indexed text)";
const MAY_BLOCK: &str = "the defending player 'may declare up to 1 blocker for each attacking unit': no blocker unless she declares one";
const MAY_COUNTER: &str =
    "the defending player 'may now choose to counter': no counter unless she chooses to";
const MAY_GUARD: &str =
    "the defending player 'may choose' to guard: no guard unless she declares one";
const YOUR_ORDER: &str = "'in an order of your choosing': the order the attackers were declared in";

/// The seat that makes the play: the player it names, else whose turn it is.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    match play.player() {
        Some(p) => b.seat(p, "play.player"),
        None => Ok(b.turn_seat()),
    }
}

/// Runs a play on the board.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let actor = actor(b, play)?;
    check_turn(b, play, actor, cx);
    if cx.failed() {
        return Ok(());
    }
    match play {
        Play::AttackPhoenixborn {
            attackers,
            target,
            blocks,
            order,
            ..
        } => {
            let target = target.as_ref().map(Said::as_str);
            attack_phoenixborn(b, actor, attackers, target, blocks, order, cx)?;
        }
        Play::AttackUnit {
            attackers,
            target,
            guard,
            counter,
            split,
            ..
        } => {
            let choices = UnitChoices {
                guard: guard.as_ref(),
                counter: *counter,
                split,
            };
            attack_unit(b, actor, attackers, target, choices, cx)?;
        }
        Play::Pass { .. } => pass(b, actor, cx),
        Play::PayCost {
            card, main_action, ..
        } => pay_cost(b, actor, card, *main_action, cx)?,
    }
    if !cx.failed() && play.uses_main_action() {
        end_main_action(b, actor, play, cx);
    }
    Ok(())
}

/// Whose turn, which phase, and whether the main action is spent.
fn check_turn(b: &Board, play: &Play, actor: usize, cx: &mut Cx) {
    let name = b.name(actor);
    if b.turn.is_some() && b.turn_seat() != actor {
        let whose = b.name(b.turn_seat());
        cx.error_unruled("play.player", format!("the board says it is {whose}'s turn, not {name}'s; a main action is taken on your own turn"));
    }
    if !play.uses_main_action() {
        return;
    }
    if b.phase == Phase::Recovery {
        cx.error(PASS, "phase", "the player turns phase has ended (all players passed on consecutive turns); the round is in the recovery phase, so no main action can be taken (advance to the next round with `match advance`)");
    }
    if b.main_action_used {
        let (rule, what) = match play {
            Play::Pass { .. } => (PASS, "passing is a main action too"),
            _ => (PAY, "a turn has one main action"),
        };
        cx.error(
            rule,
            "main_action_used",
            format!("{name} has already used the main action for this turn; {what}"),
        );
    }
}

/// After a legal main action: a pass run is broken, the turn moves on.
fn end_main_action(b: &mut Board, actor: usize, play: &Play, cx: &mut Cx) {
    if !matches!(play, Play::Pass { .. }) {
        break_pass_run(b, actor, cx);
    }
    let name = b.name(actor);
    if b.phase != Phase::PlayerTurns {
        return;
    }
    if b.players.len() < 2 {
        b.main_action_used = true;
        return;
    }
    let next = b.name((actor + 1) % b.players.len());
    b.turn = Some(next.clone());
    b.main_action_used = false;
    cx.note(Some("turn"), format!("{name}'s main action is done; the resulting board hands the turn to {next} so the next play can be judged (ending the turn, and any side action, is outside the indexed text)"));
}

fn break_pass_run(b: &mut Board, actor: usize, cx: &mut Cx) {
    if b.consecutive_passes.is_empty() {
        return;
    }
    let name = b.name(actor);
    let who = b.consecutive_passes.join(", ");
    let text = if b.consecutive_passes.contains(&name) {
        format!(
            "{name} passed earlier ({who} passed on the preceding turns) and now takes another main action, which a player who passed may do while an opponent has not passed; the run of consecutive passes is broken and the player turns phase continues"
        )
    } else {
        format!(
            "{name} did not pass, so the run of consecutive passes ({who}) is broken; the player turns phase continues"
        )
    };
    let n = b.consecutive_passes.len() as u32;
    cx.step(PASS, text).num("consecutive passes before", n);
    b.consecutive_passes.clear();
}

/// Warns about abilities whose card text the engine does not apply.
fn unapplied_abilities(b: &Board, units: &[UnitRef], cx: &mut Cx) {
    for r in units {
        let Some(u) = b.unit(*r) else { continue };
        for (k, a) in u.abilities.iter().enumerate() {
            if fold(a) != "unitguard" {
                let path = format!("players[{}].units[{}].abilities[{k}]", r.0, r.1);
                cx.warn(None, Some(&path), format!("card text not applied: {}'s '{a}' (the engine applies only the indexed rules and Unit Guard)", u.name));
            }
        }
    }
}

/// Step 1 of either attack: the attackers, in declared order.
fn declare_attackers(
    b: &Board,
    actor: usize,
    typed: &[Said],
    unit_attack: bool,
    cx: &mut Cx,
) -> Result<Vec<UnitRef>, Stop> {
    let (parent, step1) = if unit_attack { (AU, AU1) } else { (PB, PB1) };
    let name = b.name(actor);
    if typed.is_empty() {
        cx.error(
            parent,
            "play.attackers",
            "an attack needs 1 or more of your units as attackers",
        );
        return Ok(Vec::new());
    }
    cx.step(
        parent,
        format!(
            "{name} attacks {} with {}",
            if unit_attack {
                "a unit"
            } else {
                "a Phoenixborn"
            },
            count(typed.len(), "unit")
        ),
    );
    let mut out: Vec<UnitRef> = Vec::new();
    let mut exhausted_seen = false;
    for (i, t) in typed.iter().enumerate() {
        let path = format!("play.attackers[{i}]");
        let r = b.find_unit(t, &path, actor)?;
        let label = b.label(r);
        if r.0 != actor {
            cx.error(
                step1,
                &path,
                format!(
                    "{label} is {}'s unit; {name} can only attack with their own units",
                    b.name(r.0)
                ),
            );
        } else if out.contains(&r) {
            cx.error(
                step1,
                &path,
                format!("{label} is declared as an attacker twice"),
            );
        } else if b.unit(r).is_some_and(|u| u.exhausted) {
            exhausted_seen = true;
            let msg = if unit_attack {
                format!(
                    "{label} is exhausted and cannot attack (reading: Attack a Unit step 1 does not repeat 'unexhausted', but Attack a Phoenixborn step 1 limits attackers to unexhausted units; the same limit is applied here, an assumption outside the indexed text)"
                )
            } else {
                format!("{label} is exhausted; only unexhausted units can be declared as attackers")
            };
            cx.error(step1, &path, msg);
        } else {
            out.push(r);
        }
    }
    if !b.players[actor].units.iter().any(|u| !u.exhausted) {
        cx.error(PASS, "play.attackers", format!("{name} has no unexhausted unit, so cannot attack; if no other main action is possible either, {name} must pass"));
    }
    let listed: Vec<String> = out
        .iter()
        .map(|r| format!("{} (attack {})", b.label(*r), b.attack(*r)))
        .collect();
    let refused = typed.len() - out.len();
    let more = if refused > 0 {
        format!("; {refused} more refused (see the errors below)")
    } else {
        String::new()
    };
    let chosen: Vec<String> = out.iter().map(|r| b.label(*r)).collect();
    let st = cx.step(
        step1,
        format!(
            "{name} declares {}: {}{more}",
            count(out.len(), "attacker"),
            listed.join(", ")
        ),
    );
    st.num("attackers", out.len() as u32)
        .chose(&name, format!("to attack with {}", chosen.join(", ")));
    if unit_attack && exhausted_seen {
        st.assume("exhausted units cannot be declared as attackers in Attack a Unit: step 1 does not say so, Attack a Phoenixborn step 1 does ('your unexhausted units'); the same limit is applied (assumption outside the indexed text)");
    }
    unapplied_abilities(b, &out, cx);
    Ok(out)
}

/// A player by player name or Phoenixborn name.
fn find_player(b: &Board, typed: &str, path: &str) -> Result<usize, BoardError> {
    let mut names: Vec<&str> = Vec::new();
    let mut seats = Vec::new();
    for (i, p) in b.players.iter().enumerate() {
        names.push(&p.phoenixborn.name);
        seats.push(i);
        if fold(&p.name) != fold(&p.phoenixborn.name) {
            names.push(&p.name);
            seats.push(i);
        }
    }
    names::resolve_index(typed, &names, "Phoenixborn or player")
        .map(|i| seats[i])
        .map_err(|e| e.at(path))
}

fn attack_phoenixborn(
    b: &mut Board,
    actor: usize,
    typed: &[Said],
    target: Option<&str>,
    blocks: &[Block],
    order: &[Said],
    cx: &mut Cx,
) -> Result<(), Stop> {
    let attackers = declare_attackers(b, actor, typed, false, cx)?;
    if cx.failed() {
        return Ok(());
    }
    let name = b.name(actor);
    // 2. Choose target.
    let opponents: Vec<usize> = (0..b.players.len()).filter(|p| *p != actor).collect();
    let d = match (target, opponents.as_slice()) {
        (Some(t), _) => find_player(b, t, "play.target")?,
        (None, [only]) => *only,
        (None, []) => {
            cx.error(
                PB2,
                "play.target",
                "there is no opponent's Phoenixborn to attack",
            );
            return Ok(());
        }
        (None, _) => {
            cx.error(
                PB2,
                "play.target",
                "choose which opponent's Phoenixborn to attack (`target:`)",
            );
            return Ok(());
        }
    };
    let pb = b.players[d].phoenixborn.clone();
    if d == actor {
        cx.error(
            PB2,
            "play.target",
            format!(
                "{} is {name}'s own Phoenixborn; the target must be an opponent's Phoenixborn",
                pb.name
            ),
        );
        return Ok(());
    }
    cx.step(
        PB2,
        format!(
            "{name} targets {}'s Phoenixborn {} (life {}, damage {}); all attackers attack it",
            b.name(d),
            pb.name,
            pb.life,
            pb.damage
        ),
    )
    .num("life", *pb.life)
    .num("damage", *pb.damage)
    .chose(&name, format!("to attack {}", pb.name));
    // 3. Declare blockers.
    let blocked = declare_blockers(b, d, &attackers, typed, blocks, cx)?;
    // 4. Resolve damage, one attacker at a time, in the attacker's order.
    let Some(order) = resolve_order(b, actor, &attackers, typed, order, cx)? else {
        return Ok(());
    };
    // Destroyed units leave the board once every attacker has resolved.
    let mut dead = Vec::new();
    for a in order {
        match blocked.iter().find(|x| x.0 == a) {
            None => unblocked(b, a, d, cx),
            Some(&(_, blocker, i)) => {
                let counter = counter_choice(b, d, a, blocker, i, blocks, cx)?;
                dead.extend(blocked_battle(b, a, blocker, d, counter, cx));
            }
        }
    }
    b.remove_units(dead);
    lethal_note(b, d, cx);
    Ok(())
}

/// Step 3: each attacker's blocker (attacker, blocker, index in `blocks`).
fn declare_blockers(
    b: &Board,
    d: usize,
    attackers: &[UnitRef],
    typed: &[Said],
    blocks: &[Block],
    cx: &mut Cx,
) -> Result<Vec<(UnitRef, UnitRef, usize)>, Stop> {
    let defender = b.name(d);
    let typed_refs: Vec<&str> = typed.iter().map(Said::as_str).collect();
    let mut stated: Vec<(UnitRef, Option<(UnitRef, usize)>)> = Vec::new();
    let mut out: Vec<(UnitRef, UnitRef, usize)> = Vec::new();
    for (j, blk) in blocks.iter().enumerate() {
        let apath = format!("play.blocks[{j}].attacker");
        let ai = names::resolve_index(&blk.attacker, &typed_refs, "attacking unit")
            .map_err(|e| e.at(&apath))?;
        let Some(&a) = attackers.get(ai) else {
            continue;
        };
        let bpath = format!("play.blocks[{j}].blocker");
        if stated.iter().any(|(x, _)| *x == a) {
            cx.refuse(PB3, &bpath, format!("{} already has a blocker; an attacking unit cannot be blocked by more than 1 unit", b.label(a)));
            continue;
        }
        // The defending player's choice: stated by her (or agreed).
        cx.choose_with(Some(None), block_whose(b, d, a), || {
            block_ask(b, d, a, &out, blocks)
        })?;
        let Some(bt) = &blk.blocker else {
            stated.push((a, None));
            continue;
        };
        let br = b.find_unit(bt, &bpath, d)?;
        let why = if br.0 != d {
            Some(format!(
                "{} is not {defender}'s unit; only the defending player's units can block",
                b.label(br)
            ))
        } else if b.unit(br).is_some_and(|u| u.exhausted) {
            Some(format!(
                "{} is exhausted; only an unexhausted unit can be declared as a blocker",
                b.label(br)
            ))
        } else if out.iter().any(|x| x.1 == br) {
            Some(format!(
                "{} already blocks another attacker; a blocker is placed in front of one attacking unit (1 blocker for each attacking unit)",
                b.label(br)
            ))
        } else {
            None
        };
        match why {
            Some(msg) => {
                cx.refuse(PB3, &bpath, format!("{msg}; {} is unblocked", b.label(a)));
                stated.push((a, None));
            }
            None => {
                stated.push((a, Some((br, j))));
                out.push((a, br, j));
            }
        }
    }
    let mut assumed: Vec<String> = Vec::new();
    for &a in attackers {
        if stated.iter().any(|(x, _)| *x == a) {
            continue;
        }
        let ask = || block_ask(b, d, a, &out, blocks);
        match cx.choose_with(None, block_whose(b, d, a), ask)? {
            Chosen::Assumed(_, _) => assumed.push(b.label(a)),
            Chosen::Stated(_) => {}
        }
    }
    let desc: Vec<String> = out
        .iter()
        .map(|(a, br, _)| format!("{} blocks {}", b.label(*br), b.label(*a)))
        .collect();
    let text = if desc.is_empty() {
        format!("{defender} declares no blockers")
    } else {
        format!(
            "{defender} declares {}: {}",
            count(desc.len(), "blocker"),
            desc.join("; ")
        )
    };
    let chose = if desc.is_empty() {
        "not to block".to_string()
    } else {
        let each: Vec<String> = out
            .iter()
            .map(|(a, br, _)| format!("{} with {}", b.label(*a), b.label(*br)))
            .collect();
        format!("to block {}", each.join(", and "))
    };
    let st = cx.step(PB3, text);
    st.num("blockers", out.len() as u32);
    if assumed.is_empty() {
        st.chose(&defender, chose);
    } else {
        st.assumed(
            &defender,
            chose,
            format!(
                "not stated on the board for {}; assumed: {MAY_BLOCK}",
                assumed.join(", ")
            ),
        );
    }
    Ok(out)
}

/// Whether `a` is blocked: the defending player's choice, no blocker by
/// default.
fn block_whose(b: &Board, d: usize, a: UnitRef) -> Whose<Option<UnitRef>> {
    Whose {
        seat: d,
        key: format!("block:{}", b.label(a)),
        default: Some((None, MAY_BLOCK.into())),
    }
}

/// The question "block A with…" for the defending player.
fn block_ask(
    b: &Board,
    d: usize,
    a: UnitRef,
    taken: &[(UnitRef, UnitRef, usize)],
    blocks: &[Block],
) -> Ask<Option<UnitRef>> {
    let patch = |blocker: Option<Said>| {
        let mut list: Vec<Value> = blocks
            .iter()
            .map(|x| serde_json::to_value(x).unwrap_or(Value::Null))
            .collect();
        list.push(
            serde_json::to_value(Block {
                attacker: b.unit_name(a),
                blocker,
                counter: None,
            })
            .unwrap_or(Value::Null),
        );
        json!({ "blocks": list })
    };
    let mut options: Vec<Opt<Option<UnitRef>>> = (0..b.players[d].units.len())
        .map(|u| (d, u))
        .filter(|r| b.unit(*r).is_some_and(|x| !x.exhausted) && !taken.iter().any(|t| t.1 == *r))
        .map(|r| Opt {
            label: format!("block with {}", b.label(r)),
            value: Some(r),
            patch: patch(Some(b.unit_name(r))),
        })
        .collect();
    options.truncate(24);
    options.push(Opt {
        label: "no blocker".into(),
        value: None,
        patch: patch(None),
    });
    let atk = b.attack(a);
    let question = format!("{}: block {} (attack {atk}) with…", b.name(d), b.label(a));
    block_whose(b, d, a).ask(PB3, "play.blocks", question, options)
}

/// Step 4's order: the attacker's choice, or the declared order (assumed).
fn resolve_order(
    b: &Board,
    actor: usize,
    attackers: &[UnitRef],
    typed: &[Said],
    order: &[Said],
    cx: &mut Cx,
) -> Result<Option<Vec<UnitRef>>, Stop> {
    let name = b.name(actor);
    let typed_refs: Vec<&str> = typed.iter().map(Said::as_str).collect();
    let mut o: Vec<UnitRef> = Vec::new();
    for (k, t) in order.iter().enumerate() {
        let path = format!("play.order[{k}]");
        let i = names::resolve_index(t, &typed_refs, "attacking unit").map_err(|e| e.at(&path))?;
        let Some(&r) = attackers.get(i) else { continue };
        if o.contains(&r) {
            cx.error(
                PB4,
                &path,
                format!(
                    "{} appears twice in the order; each attacking unit's damage is resolved once",
                    b.label(r)
                ),
            );
        }
        o.push(r);
    }
    if !order.is_empty() {
        for a in attackers.iter().filter(|a| !o.contains(a)) {
            cx.error(
                PB4,
                "play.order",
                format!(
                    "the order leaves out {}; it must resolve each attacking unit's damage",
                    b.label(*a)
                ),
            );
        }
    }
    if cx.failed() {
        return Ok(None);
    }
    let chosen = if order.is_empty() {
        Chosen::Assumed(attackers.to_vec(), YOUR_ORDER.into())
    } else {
        Chosen::Stated(o)
    };
    let list: Vec<String> = chosen.value().iter().map(|r| b.label(*r)).collect();
    let st = cx.step(
        PB4,
        format!(
            "{name} resolves the attackers one at a time, in this order: {}",
            list.join(", ")
        ),
    );
    chosen.on(st, &name, format!("the order {}", list.join(", ")));
    Ok(Some(chosen.value()))
}

fn unblocked(b: &mut Board, a: UnitRef, d: usize, cx: &mut Cx) {
    let (al, atk) = (b.label(a), b.attack(a));
    let (before, after, life) = b.damage_pb(d, atk);
    b.exhaust(a);
    let pb = b.players[d].phoenixborn.name.clone();
    cx.step(PB4, format!("{al} is unblocked: it deals {atk} damage to {pb} ({before} → {after} damage, life {life}); then 1 exhaustion token is placed on {al}"))
        .num("damage dealt", atk)
        .num("Phoenixborn damage", after)
        .num("exhaustion tokens", 1);
}

/// Whether a blocker counters: stated on its block, else asked or assumed.
fn counter_choice(
    b: &Board,
    d: usize,
    a: UnitRef,
    blocker: UnitRef,
    i: usize,
    blocks: &[Block],
    cx: &mut Cx,
) -> Result<Chosen<bool>, Stop> {
    let stated = blocks.get(i).and_then(|s| s.counter);
    cx.choose_with(stated, counter_whose(b, d, a), || {
        counter_ask(b, d, a, blocker, i, blocks)
    })
}

/// The question "counter with B?" for a blocker.
fn counter_ask(
    b: &Board,
    d: usize,
    a: UnitRef,
    blocker: UnitRef,
    i: usize,
    blocks: &[Block],
) -> Ask<bool> {
    let with = |c: bool| {
        let mut list: Vec<Value> = blocks
            .iter()
            .map(|x| serde_json::to_value(x).unwrap_or(Value::Null))
            .collect();
        if let Some(v) = list.get_mut(i) {
            v["counter"] = json!(c);
        }
        json!({ "blocks": list })
    };
    let bl = b.label(blocker);
    let question = format!(
        "{}: {bl} blocks {}; counter with {bl}?",
        b.name(d),
        b.label(a)
    );
    let options = vec![
        Opt {
            label: format!("counter with {bl}"),
            value: true,
            patch: with(true),
        },
        Opt {
            label: "do not counter".into(),
            value: false,
            patch: with(false),
        },
    ];
    let path = format!("play.blocks[{i}].counter");
    counter_whose(b, d, a).ask(PB4, path, question, options)
}

/// Whether the blocker of `a` counters: no counter by default.
fn counter_whose(b: &Board, d: usize, a: UnitRef) -> Whose<bool> {
    Whose {
        seat: d,
        key: format!("counter:{}", b.label(a)),
        default: Some((false, MAY_COUNTER.into())),
    }
}

/// One blocked attacker's damage; returns the units it destroyed.
fn blocked_battle(
    b: &mut Board,
    a: UnitRef,
    br: UnitRef,
    d: usize,
    counter: Chosen<bool>,
    cx: &mut Cx,
) -> Vec<UnitRef> {
    let defender = b.name(d);
    let (al, bl) = (b.label(a), b.label(br));
    let atk = b.attack(a);
    let st = cx.step(
        PB4,
        format!(
            "{al} is blocked by {bl}; {defender} {}",
            if counter.value() {
                "chooses to counter"
            } else {
                "does not counter"
            }
        ),
    );
    counter.on(
        st,
        &defender,
        format!(
            "{} with {bl}",
            if counter.value() {
                "to counter"
            } else {
                "not to counter"
            }
        ),
    );
    if !counter.value() {
        let (before, after, life) = b.damage_unit(br, atk);
        b.exhaust(a);
        let dead = b.destroyed(br);
        let gone = if dead {
            format!(", so {bl} is destroyed")
        } else {
            String::new()
        };
        let st = cx.step(PB41, format!("{al} deals {atk} damage to {bl} ({before} → {after}, life {life}){gone}; then 1 exhaustion token on {al}; {bl} did not counter and is not exhausted"));
        st.num("damage dealt", atk)
            .num("blocker damage", after)
            .num("exhaustion tokens", 1);
        if dead {
            st.assume(DESTROYED_ASSUMPTION);
            return vec![br];
        }
        return Vec::new();
    }
    let batk = b.attack(br);
    let (_, bafter, blife) = b.damage_unit(br, atk);
    let (_, aafter, alife) = b.damage_unit(a, batk);
    let (tired, gone, dead) = settle_battle(b, &[a, br]);
    let st = cx.step(PB42, format!("{al} and {bl} are in battle and deal damage simultaneously: {al} deals {atk} to {bl} ({bafter} damage, life {blife}), {bl} deals {batk} to {al} ({aafter} damage, life {alife}); {}", battle_outcome(&tired, &gone)));
    st.num("damage dealt", atk)
        .num("counter damage", batk)
        .num("exhaustion tokens", tired.len() as u32)
        .assume(DESTROYED_ASSUMPTION);
    dead
}

/// After a battle: survivors exhausted; the names of the exhausted and of
/// the destroyed, and the destroyed units (for the caller to remove).
fn settle_battle(b: &mut Board, units: &[UnitRef]) -> (Vec<String>, Vec<String>, Vec<UnitRef>) {
    let (mut tired, mut gone, mut dead) = (Vec::new(), Vec::new(), Vec::new());
    for &r in units {
        if b.destroyed(r) {
            gone.push(b.label(r));
            dead.push(r);
        } else {
            b.exhaust(r);
            tired.push(b.label(r));
        }
    }
    (tired, gone, dead)
}

fn battle_outcome(tired: &[String], gone: &[String]) -> String {
    let fate = if gone.is_empty() {
        "no unit is destroyed".to_string()
    } else {
        format!("destroyed: {}", gone.join(", "))
    };
    let tokens = if tired.is_empty() {
        "no exhaustion token is placed".to_string()
    } else {
        format!("1 exhaustion token on {}", tired.join(", "))
    };
    format!("{fate}; {tokens}")
}

fn lethal_note(b: &Board, d: usize, cx: &mut Cx) {
    let pb = &b.players[d].phoenixborn;
    if pb.destroyed() {
        cx.warn(None, Some(&format!("players[{d}].phoenixborn.damage")), format!("{} now has {} damage against a life of {}; what happens to a Phoenixborn whose damage reaches its life is outside the indexed text (the match records it as the end of the game, outside the indexed rules)", pb.name, pb.damage, pb.life));
    }
}

/// The defending player's choices in Attack a Unit.
struct UnitChoices<'a> {
    guard: Option<&'a OneOrMany>,
    counter: Option<bool>,
    split: &'a std::collections::BTreeMap<Said, u32>,
}

/// The final target of an attack on a unit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Guard {
    Phoenixborn,
    Unit(UnitRef),
    None,
}

fn attack_unit(
    b: &mut Board,
    actor: usize,
    typed: &[Said],
    target: &str,
    ch: UnitChoices,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let attackers = declare_attackers(b, actor, typed, true, cx)?;
    if cx.failed() {
        return Ok(());
    }
    let name = b.name(actor);
    // 2. Choose target.
    let t = b.find_unit(target, "play.target", (actor + 1) % b.players.len().max(1))?;
    let tl = b.label(t);
    if t.0 == actor {
        cx.error(
            AU2,
            "play.target",
            format!(
                "{tl} is {name}'s own unit; the target must be a unit on an opponent's battlefield"
            ),
        );
        return Ok(());
    }
    let d = t.0;
    cx.step(
        AU2,
        format!(
            "{name} targets {tl} on {}'s battlefield; all attacking units attack it",
            b.name(d)
        ),
    )
    .chose(&name, format!("to attack {tl}"));
    // 3. Declare a guard.
    let guard = declare_guard(b, d, t, ch.guard, cx)?;
    // 4. Resolve damage.
    let total: u32 = attackers.iter().map(|r| b.attack(*r)).sum();
    let parts: Vec<String> = attackers
        .iter()
        .map(|r| format!("{} {}", b.label(*r), b.attack(*r)))
        .collect();
    let sum = format!("{} = {total}", parts.join(" + "));
    let final_unit = match guard {
        Guard::Phoenixborn => {
            if ch.counter == Some(true) {
                cx.refuse(AU4, "play.counter", format!("the final target is the Phoenixborn {}; only a unit that is the final target may counter", b.players[d].phoenixborn.name));
            }
            if !ch.split.is_empty() {
                cx.warn(Some(AU4), Some("play.split"), "the damage split is ignored: a Phoenixborn final target does not counter, so there is no damage to split");
            }
            phoenixborn_takes_it(b, d, &attackers, &sum, total, cx);
            return Ok(());
        }
        Guard::Unit(g) => g,
        Guard::None => t,
    };
    let counter = unit_counter(b, d, final_unit, ch.counter, cx)?;
    if !counter {
        if !ch.split.is_empty() {
            cx.warn(
                Some(AU41),
                Some("play.split"),
                "the damage split is ignored: the target does not counter, so it deals no damage",
            );
        }
        no_counter(b, &attackers, final_unit, &sum, total, cx);
        return Ok(());
    }
    let shares = split_choice(b, d, final_unit, &attackers, typed, ch.split, cx)?;
    counter_battle(b, d, &attackers, final_unit, &shares, &sum, total, cx);
    Ok(())
}

/// Step 3 of Attack a Unit: the guard, stated (checked), asked or assumed.
fn declare_guard(
    b: &Board,
    d: usize,
    t: UnitRef,
    typed: Option<&OneOrMany>,
    cx: &mut Cx,
) -> Result<Guard, Stop> {
    let defender = b.name(d);
    let tl = b.label(t);
    let pb = b.players[d].phoenixborn.clone();
    let stated = match typed.map(OneOrMany::items).as_deref() {
        Some([_, _, ..]) => {
            cx.refuse(AU3, "play.guard", "only a single unit can be declared as a guard for any given attack; no guard is declared");
            Some(Guard::None)
        }
        Some([g]) => Some(stated_guard(b, d, t, g, cx)?),
        _ => None,
    };
    let whose = Whose {
        seat: d,
        key: "guard".into(),
        default: Some((Guard::None, MAY_GUARD.into())),
    };
    let ask = |w: Whose<Guard>| {
        let question = format!("{defender}: guard {tl} with…");
        w.ask(AU3, "play.guard", question, guard_options(b, d, t))
    };
    let chosen = cx.choose_with(stated, whose.clone(), || ask(whose))?;
    let text = match chosen.value() {
        Guard::Phoenixborn => format!(
            "{defender} guards {tl} with the Phoenixborn {}{}; {} is now the target of the attack",
            pb.name,
            if pb.exhausted {
                " (exhausted: a Phoenixborn can guard even if it is exhausted)"
            } else {
                ""
            },
            pb.name
        ),
        Guard::Unit(g) => format!(
            "{defender} declares {} (Unit Guard, unexhausted) as a guard for {tl}; {} is now the target of the attack",
            b.label(g),
            b.label(g)
        ),
        Guard::None => format!("{defender} declares no guard; {tl} remains the target"),
    };
    let what = match chosen.value() {
        Guard::Phoenixborn => format!("to guard with {}", pb.name),
        Guard::Unit(g) => format!("to guard with {}", b.label(g)),
        Guard::None => "not to guard".to_string(),
    };
    let st = cx.step(AU3, text);
    chosen.on(st, &defender, what);
    Ok(chosen.value())
}

fn guard_options(b: &Board, d: usize, t: UnitRef) -> Vec<Opt<Guard>> {
    let mut v = vec![Opt::field(
        format!("guard with {}", b.players[d].phoenixborn.name),
        Guard::Phoenixborn,
        "guard",
        json!("phoenixborn"),
    )];
    for u in 0..b.players[d].units.len() {
        let r = (d, u);
        if r != t
            && b.unit(r)
                .is_some_and(|x| x.has_unit_guard() && !x.exhausted)
        {
            v.push(Opt::field(
                format!("guard with {}", b.label(r)),
                Guard::Unit(r),
                "guard",
                json!(b.label(r)),
            ));
        }
    }
    v.truncate(24);
    v.push(Opt::field("no guard", Guard::None, "guard", json!("none")));
    v
}

/// A stated guard, checked; an impossible one is refused (no guard).
fn stated_guard(b: &Board, d: usize, t: UnitRef, g: &str, cx: &mut Cx) -> Result<Guard, Stop> {
    let defender = &b.players[d];
    let key = fold(g);
    if matches!(key.as_str(), "none" | "noguard" | "no") {
        return Ok(Guard::None);
    }
    let names_pb = [fold(&defender.phoenixborn.name), fold(&defender.name)].contains(&key)
        && !defender.units.iter().any(|u| fold(&u.name) == key);
    if matches!(key.as_str(), "phoenixborn" | "pb" | "myphoenixborn") || names_pb {
        return Ok(Guard::Phoenixborn);
    }
    let gr = b.find_unit(g, "play.guard", d)?;
    let gl = b.label(gr);
    let why = if gr.0 != d {
        Some(format!(
            "{gl} is not a unit {} controls; only the defending player's Phoenixborn or units can guard",
            defender.name
        ))
    } else if gr == t {
        Some(format!(
            "{gl} is the target; a guard is moved in front of the targeted unit, so it must be another unit"
        ))
    } else if b.unit(gr).is_some_and(|u| !u.has_unit_guard()) {
        Some(format!(
            "{gl} does not have the 'Unit Guard' ability; only the Phoenixborn or a unit with Unit Guard can guard"
        ))
    } else if b.unit(gr).is_some_and(|u| u.exhausted) {
        Some(format!(
            "{gl} is exhausted; only an unexhausted unit with Unit Guard can be declared as a guard"
        ))
    } else {
        None
    };
    match why {
        Some(msg) => {
            cx.refuse(
                AU3,
                "play.guard",
                format!(
                    "{msg}; no guard is declared and {} remains the target",
                    b.label(t)
                ),
            );
            Ok(Guard::None)
        }
        None => Ok(Guard::Unit(gr)),
    }
}

fn phoenixborn_takes_it(
    b: &mut Board,
    d: usize,
    attackers: &[UnitRef],
    sum: &str,
    total: u32,
    cx: &mut Cx,
) {
    let (before, after, life) = b.damage_pb(d, total);
    for r in attackers {
        b.exhaust(*r);
    }
    let pb = b.players[d].phoenixborn.name.clone();
    let list: Vec<String> = attackers.iter().map(|r| b.label(*r)).collect();
    cx.step(AU4, format!("the final target is the Phoenixborn {pb}: total attack {sum}, dealt to {pb} ({before} → {after} damage, life {life}); then 1 exhaustion token on each attacking unit ({})", list.join(", ")))
        .num("total attack", total)
        .num("Phoenixborn damage", after)
        .num("exhaustion tokens", attackers.len() as u32);
    lethal_note(b, d, cx);
}

/// Whether the final target unit counters: it cannot when exhausted (a
/// stated counter is then refused); else stated, asked or assumed.
fn unit_counter(
    b: &Board,
    d: usize,
    f: UnitRef,
    stated: Option<bool>,
    cx: &mut Cx,
) -> Result<bool, Stop> {
    let (defender, fl) = (b.name(d), b.label(f));
    if b.unit(f).is_some_and(|u| u.exhausted) {
        if stated == Some(true) {
            cx.refuse(AU4, "play.counter", format!("{fl} is exhausted and cannot counter; only an unexhausted final target may counter, so the attack resolves without a counter"));
        }
        cx.step(
            AU4,
            format!("{fl} is the final target and is exhausted, so it cannot counter"),
        );
        return Ok(false);
    }
    let whose = Whose {
        seat: d,
        key: "counter".into(),
        default: Some((false, MAY_COUNTER.into())),
    };
    let ask = |w: Whose<bool>| {
        let options = vec![
            Opt::field(format!("counter with {fl}"), true, "counter", json!(true)),
            Opt::field("do not counter", false, "counter", json!(false)),
        ];
        let question = format!("{defender}: {fl} is attacked; counter with {fl}?");
        w.ask(AU4, "play.counter", question, options)
    };
    let chosen = cx.choose_with(stated, whose.clone(), || ask(whose))?;
    let st = cx.step(
        AU4,
        format!(
            "{fl} is the final target and unexhausted; {defender} {}",
            if chosen.value() {
                "chooses to counter"
            } else {
                "does not counter"
            }
        ),
    );
    chosen.on(
        st,
        &defender,
        format!(
            "{} with {fl}",
            if chosen.value() {
                "to counter"
            } else {
                "not to counter"
            }
        ),
    );
    Ok(chosen.value())
}

fn no_counter(
    b: &mut Board,
    attackers: &[UnitRef],
    f: UnitRef,
    sum: &str,
    total: u32,
    cx: &mut Cx,
) {
    let fl = b.label(f);
    let (before, after, life) = b.damage_unit(f, total);
    for r in attackers {
        b.exhaust(*r);
    }
    let dead = b.destroyed(f);
    let list: Vec<String> = attackers.iter().map(|r| b.label(*r)).collect();
    let gone = if dead {
        format!(", so {fl} is destroyed")
    } else {
        String::new()
    };
    let st = cx.step(AU41, format!("total attack {sum} is dealt to {fl} ({before} → {after}, life {life}){gone}; then 1 exhaustion token on each attacking unit ({}); {fl} did not counter and gets no exhaustion token", list.join(", ")));
    st.num("total attack", total)
        .num("target damage", after)
        .num("exhaustion tokens", attackers.len() as u32);
    if dead {
        st.assume(DESTROYED_ASSUMPTION);
        b.remove_units(vec![f]);
    }
}

/// How a countering unit splits its damage among several attackers: the
/// defending player's choice, asked one attacker at a time; the last one
/// takes the rest. A split that does not add up is refused and asked again.
fn split_choice(
    b: &Board,
    d: usize,
    f: UnitRef,
    attackers: &[UnitRef],
    typed: &[Said],
    split: &std::collections::BTreeMap<Said, u32>,
    cx: &mut Cx,
) -> Result<Vec<(UnitRef, u32)>, Stop> {
    let catk = b.attack(f);
    if let [only] = attackers {
        return Ok(vec![(*only, catk)]);
    }
    let typed_refs: Vec<&str> = typed.iter().map(Said::as_str).collect();
    let mut shares: Vec<(UnitRef, u32)> = Vec::new();
    for (k, v) in split {
        let path = format!("play.split[\"{k}\"]");
        let i = names::resolve_index(k, &typed_refs, "attacking unit").map_err(|e| e.at(&path))?;
        let Some(&r) = attackers.get(i) else { continue };
        cx.choose_with(Some(*v), split_whose(b, d, r), || {
            split_ask(b, d, f, attackers.len(), r, *v, &serde_json::Map::new())
        })?;
        if shares.iter().any(|s| s.0 == r) {
            cx.refuse(
                AU42,
                &path,
                format!("{} is given two shares of the damage", b.label(r)),
            );
            shares.clear();
            break;
        }
        shares.push((r, *v));
    }
    let sum: u32 = shares.iter().map(|s| s.1).sum();
    let complete = shares.len() == attackers.len();
    if sum > catk || (complete && sum != catk) {
        cx.refuse(AU42, "play.split", format!("the split adds up to {sum}, but {} deals damage equal to its attack value, {catk}; the shares must add up to {catk}", b.label(f)));
        shares.clear();
    }
    let left = catk - shares.iter().map(|s| s.1).sum::<u32>();
    let undecided: Vec<UnitRef> = attackers
        .iter()
        .copied()
        .filter(|a| !shares.iter().any(|s| s.0 == *a))
        .collect();
    match undecided.as_slice() {
        [] => {}
        [last] if !shares.is_empty() => shares.push((*last, left)),
        [next, ..] => {
            let base: serde_json::Map<String, Value> = shares
                .iter()
                .map(|(r, v)| (b.label(*r), json!(v)))
                .collect();
            // No default: the rules leave the split wholly to the defender.
            cx.choose(
                None,
                split_ask(b, d, f, attackers.len(), *next, left, &base),
            )?;
        }
    }
    shares.sort_by_key(|s| attackers.iter().position(|a| *a == s.0));
    Ok(shares)
}

/// "How much of the remaining damage goes to A?" (0 ..= left, at most 25 answers).
fn split_ask(
    b: &Board,
    d: usize,
    f: UnitRef,
    attackers: usize,
    to: UnitRef,
    left: u32,
    base: &serde_json::Map<String, Value>,
) -> Ask<u32> {
    let options = (0..=left.min(24))
        .map(|n| {
            let mut m = base.clone();
            m.insert(b.label(to), json!(n));
            Opt {
                label: format!("{n} to {}", b.label(to)),
                value: n,
                patch: json!({ "split": Value::Object(m) }),
            }
        })
        .collect();
    let question = format!(
        "{}: {} counters {}; how much of its {left} remaining damage goes to {}?",
        b.name(d),
        b.label(f),
        count(attackers, "attacker"),
        b.label(to)
    );
    split_whose(b, d, to).ask(AU42, "play.split", question, options)
}

/// How much damage goes to `to`: no default, the split is wholly the
/// defending player's.
fn split_whose(b: &Board, d: usize, to: UnitRef) -> Whose<u32> {
    Whose {
        seat: d,
        key: format!("split:{}", b.label(to)),
        default: None,
    }
}

#[allow(clippy::too_many_arguments)]
fn counter_battle(
    b: &mut Board,
    d: usize,
    attackers: &[UnitRef],
    f: UnitRef,
    shares: &[(UnitRef, u32)],
    sum: &str,
    total: u32,
    cx: &mut Cx,
) {
    let (defender, fl) = (b.name(d), b.label(f));
    let catk = b.attack(f);
    let (tb, ta, tlife) = b.damage_unit(f, total);
    let mut dealt = Vec::new();
    for (r, amount) in shares {
        let (before, after, life) = b.damage_unit(*r, *amount);
        dealt.push(format!(
            "{amount} to {} ({before} → {after}, life {life})",
            b.label(*r)
        ));
    }
    let split_text: Vec<String> = shares
        .iter()
        .map(|(r, v)| format!("{} {v}", b.label(*r)))
        .collect();
    let mut in_battle = attackers.to_vec();
    in_battle.push(f);
    let (tired, gone, dead) = settle_battle(b, &in_battle);
    b.remove_units(dead);
    let st = cx.step(AU42, format!("the attackers and {fl} are in battle: total attack {sum} is dealt to {fl} ({tb} → {ta}, life {tlife}); simultaneously {fl} deals its attack {catk}: {}; {}", dealt.join(", "), battle_outcome(&tired, &gone)));
    st.num("total attack", total)
        .num("counter damage", catk)
        .num("exhaustion tokens", tired.len() as u32)
        .assume(DESTROYED_ASSUMPTION);
    if shares.len() > 1 {
        st.chose(
            &defender,
            format!("to split {fl}'s damage: {}", split_text.join(", ")),
        );
    }
}

fn pass(b: &mut Board, actor: usize, cx: &mut Cx) {
    let name = b.name(actor);
    let ready = b.players[actor]
        .units
        .iter()
        .filter(|u| !u.exhausted)
        .count() as u32;
    if ready > 0 && b.players.len() > 1 {
        cx.step(PASS, format!("{name} passes: the main action is to do nothing. {name} could still attack with {}, and a player may choose to pass even if other main actions are possible", count(ready as usize, "unexhausted unit")))
            .num("unexhausted units", ready)
            .chose(&name, "to pass");
    } else {
        cx.step(PASS, format!("{name} passes: the main action is to do nothing. {name} has no unexhausted unit to attack with, so unless a card can be played, passing is the only main action left and must be chosen"))
            .num("unexhausted units", ready)
            .chose(&name, "to pass")
            .assume("the board does not list cards in hand or abilities, so only attacks are checked when deciding whether another main action is possible (assumption outside the indexed text)");
    }
    b.consecutive_passes.push(name.clone());
    let missing = b.yet_to_pass();
    let n = b.consecutive_passes.len() as u32;
    if missing.is_empty() {
        let who = b.consecutive_passes.join(", ");
        cx.step(PASS, format!("all players have passed on consecutive turns ({who}): the player turns phase ends and players move on to the recovery phase of the round")).num("consecutive passes", n);
        b.phase = Phase::Recovery;
        b.consecutive_passes.clear();
        b.turn = None;
        b.main_action_used = false;
    } else {
        let verb = if missing.len() == 1 { "has" } else { "have" };
        cx.step(PASS, format!("{} {verb} not passed since, so the player turns phase continues; {name} may pass again or take any other main action on the next turn", missing.join(", ")))
            .num("consecutive passes", n)
            .num("players yet to pass", missing.len() as u32);
    }
}

fn pay_cost(
    b: &mut Board,
    actor: usize,
    card: &str,
    main: Option<bool>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let name = b.name(actor);
    let Some(main) = main else {
        return Err(BoardError::semantic("play.main_action", "say whether the card's play or activation cost includes the main-action symbol (`main_action: true` or `false`)").with_rule(PAY).into());
    };
    if main {
        cx.step(PAY, format!("the cost of {card} includes the main-action symbol: paying it takes up {name}'s main action for the turn"))
            .num("main actions used", 1)
            .chose(&name, format!("to play or activate {card}"));
        b.main_action_used = true;
    } else {
        cx.step(PAY, format!("the cost of {card} has no main-action symbol: paying it does not take up {name}'s main action, which is still available"))
            .num("main actions used", 0)
            .chose(&name, format!("to play or activate {card}"))
            .assume("the passage states only that a cost with the main-action symbol takes up the main action; that a cost without it leaves the main action available is read from it (assumption outside the indexed text)");
    }
    Ok(())
}
