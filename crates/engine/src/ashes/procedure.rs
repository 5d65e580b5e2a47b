//! The step procedures of "03 - Main Actions": Pay a Cost, Attack a
//! Phoenixborn, Attack a Unit, Pass.
//!
//! The attacking player's own choices (attackers, target, order) make the
//! play illegal when impossible. The defending player's choices (blockers, a
//! guard, a counter, a damage split) are theirs: an impossible one is
//! refused alone and the attack resolves as the rules say it does without
//! it; an unstated one is asked of them or taken at the rule's default.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::board::{Board, Phase, Said, UnitRef};
use super::plays::{Block, OneOrMany, Play};
use super::rules::*;
use super::wording::*;
use crate::BoardError;
use crate::kit::choices::{self, Choice, Misordered, one_or_none};
use crate::kit::{Chosen, Cx, Opt, Stop, names};
use crate::text::fold;

/// The seat that makes the play: the player it names, else whose turn the
/// board says it is (a player out of the game too: their play is refused).
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    match (play.player(), &b.turn_given_to_out) {
        (Some(p), _) => b.seat(p, "play.player"),
        (None, Some(out)) => b.seat(out, "turn"),
        (None, None) => Ok(b.turn_seat()),
    }
}

/// Runs a play on the board.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let actor = actor(b, play)?;
    // The turn as the board gave it speaks for the first play only.
    b.turn_given_to_out = None;
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
            attack_phoenixborn(b, actor, attackers, target.as_ref(), blocks, order, cx)?;
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
    if b.out(actor) {
        let next = b.name(b.turn_seat());
        let fault = OffTurn::Out {
            player: &name,
            next: &next,
        };
        cx.error_unruled("play.player", fault);
        return;
    }
    if b.turn.is_some() && b.turn_seat() != actor {
        let whose = b.name(b.turn_seat());
        let player = &name;
        let fault = OffTurn::NotYourTurn {
            whose: &whose,
            player,
            main: play.uses_main_action(),
        };
        cx.error_unruled("play.player", fault);
    }
    if !play.uses_main_action() {
        return;
    }
    if b.phase == Phase::Recovery {
        cx.error(PASS, "phase", OffTurn::RecoveryPhase);
    }
    if b.main_action_used {
        let passing = matches!(play, Play::Pass { .. });
        let rule = if passing { PASS } else { PAY };
        let player = &name;
        let fault = OffTurn::MainActionUsed { player, passing };
        cx.error(rule, "main_action_used", fault);
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
    // A play that decided the game hands no turn on: nobody plays next,
    // and "hands the turn to Maeoni" read as if the game went on (found by
    // an outside tester).
    if b.players.len() < 2 || super::result(b).is_some() {
        b.main_action_used = true;
        return;
    }
    let next = b.name(b.next_seat(actor));
    b.turn = Some(next.clone());
    b.main_action_used = false;
    let (player, next) = (&name, &next);
    cx.note(Some("turn"), Notice::TurnMovesOn { player, next });
}

fn break_pass_run(b: &mut Board, actor: usize, cx: &mut Cx) {
    if b.consecutive_passes.is_empty() {
        return;
    }
    let name = b.name(actor);
    let (player, passed) = (name.as_str(), b.consecutive_passes.as_slice());
    let text = if passed.contains(&name) {
        Turn::PassesAgain { player, passed }
    } else {
        Turn::BreaksPassRun { player, passed }
    };
    let n = passed.len() as u32;
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
                let (unit, ability) = (u.name.as_str(), a.as_str());
                cx.warn(None, Some(&path), Notice::NotApplied { unit, ability });
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
    let on = if unit_attack {
        Attacked::Unit
    } else {
        Attacked::Phoenixborn
    };
    let name = b.name(actor);
    if typed.is_empty() {
        cx.error(parent, "play.attackers", Illegal::NoAttackers);
        return Ok(Vec::new());
    }
    let (player, units) = (name.as_str(), typed.len());
    cx.step(parent, Declared::Attacks { player, on, units });
    let refs = typed
        .iter()
        .enumerate()
        .map(|(i, t)| b.find_unit(t, &format!("play.attackers[{i}]"), actor))
        .collect::<Result<Vec<UnitRef>, _>>()?;
    let repeats = choices::repeats(&refs);
    let mut out: Vec<UnitRef> = Vec::new();
    let mut exhausted_seen = false;
    for (i, &r) in refs.iter().enumerate() {
        let path = format!("play.attackers[{i}]");
        let label = b.label(r);
        let unit = label.as_str();
        if r.0 != actor {
            let owner = &b.name(r.0);
            let fault = Illegal::NotOwnAttacker {
                unit,
                owner,
                player,
            };
            cx.error(step1, &path, fault);
        } else if repeats.contains(&i) {
            cx.error(step1, &path, Illegal::AttackerTwice { unit });
        } else if b.unit(r).is_some_and(|u| u.exhausted) {
            exhausted_seen = true;
            cx.error(step1, &path, Illegal::ExhaustedAttacker { unit, on });
        } else {
            out.push(r);
        }
    }
    if !b.players[actor].units.iter().any(|u| !u.exhausted) {
        cx.error(PASS, "play.attackers", OffTurn::NoReadyUnit { player });
    }
    let attackers: Vec<(String, u32)> = out.iter().map(|r| (b.label(*r), b.attack(*r))).collect();
    let refused = typed.len() - out.len();
    let units: Vec<String> = out.iter().map(|r| b.label(*r)).collect();
    let declared = Declared::Attackers {
        player,
        attackers: &attackers,
        refused,
    };
    let st = cx.step(step1, declared);
    st.num("attackers", out.len() as u32);
    // Every unit refused: nothing was chosen to attack with.
    if !units.is_empty() {
        st.chose(&name, Chose::AttackWith { units: &units });
    }
    if unit_attack && exhausted_seen {
        st.assume(ASSUME_EXHAUSTED_ATTACKERS);
    }
    unapplied_abilities(b, &out, cx);
    Ok(out)
}

/// The player `actor` attacks, by player name or Phoenixborn name. The
/// opponents' names are tried first: one's own Phoenixborn is never the
/// target, so a name it shares with an opponent names that opponent (it
/// read "'Maeoni' is ambiguous: it could be Maeoni or Maeoni" for Coal's
/// Phoenixborn Maeoni and the player Maeoni). An ambiguity says what each
/// name is.
fn find_player(b: &Board, actor: usize, typed: &str, path: &str) -> Result<usize, BoardError> {
    // Each name, its seat, and what it is.
    let mut named: Vec<(&str, usize, String)> = Vec::new();
    for (i, p) in b.players.iter().enumerate() {
        let pb = &p.phoenixborn.name;
        named.push((pb, i, format!("{}'s Phoenixborn {pb}", p.name)));
        if fold(&p.name) != fold(pb) {
            named.push((&p.name, i, format!("the player {}", p.name)));
        }
    }
    let resolve = |group: Vec<usize>| {
        let names: Vec<&str> = group.iter().map(|k| named[*k].0).collect();
        names::resolve_index(typed, &names, "Phoenixborn or player")
            .map(|i| named[group[i]].1)
            .map_err(|e| match e {
                names::NameError::Ambiguous {
                    typed,
                    what,
                    candidates,
                } => names::NameError::Ambiguous {
                    typed,
                    what,
                    candidates: group
                        .iter()
                        .filter(|k| candidates.iter().any(|c| c == named[**k].0))
                        .map(|k| named[*k].2.clone())
                        .collect(),
                },
                other => other,
            })
    };
    let theirs = (0..named.len()).filter(|k| named[*k].1 != actor).collect();
    match resolve(theirs) {
        // Unknown among the opponents' names: read against every name, so
        // one's own Phoenixborn is refused as such by the rules after.
        Err(e) if e.is_unknown() => resolve((0..named.len()).collect()),
        read => read,
    }
    .map_err(|e| e.at(path))
}

/// An attack under way once its target is chosen: the seats, the declared
/// attackers (resolved, in declared order) with the names the play typed
/// for them, and their total attack.
struct Attack<'a> {
    actor: usize,
    d: usize,
    defender: String,
    attackers: Vec<UnitRef>,
    typed: &'a [Said],
    /// The attackers' names on the board, in the order of `attackers`.
    labels: Vec<String>,
    /// "A 2 + B 3 = 5", written before any damage is dealt.
    sum: String,
    total: u32,
}

impl<'a> Attack<'a> {
    fn new(b: &Board, actor: usize, d: usize, attackers: Vec<UnitRef>, typed: &'a [Said]) -> Self {
        let total = attackers.iter().map(|r| b.attack(*r)).sum();
        let parts: Vec<(String, u32)> = attackers
            .iter()
            .map(|r| (b.label(*r), b.attack(*r)))
            .collect();
        let sum = Total {
            parts: &parts,
            total,
        }
        .to_string();
        let defender = b.name(d);
        let labels = parts.into_iter().map(|(label, _)| label).collect();
        Attack {
            actor,
            d,
            defender,
            attackers,
            typed,
            labels,
            sum,
            total,
        }
    }

    /// The attacking unit a later field names (a block, the order, a split
    /// share), resolved among the names the attackers were declared by,
    /// else among their names on the board (declared by a short name,
    /// "Iron Work", a block may give the whole one).
    fn attacker(&self, typed: &str, path: &str) -> Result<Option<UnitRef>, BoardError> {
        let refs: Vec<&str> = self.typed.iter().map(Said::as_str).collect();
        match names::resolve_index(typed, &refs, "attacking unit") {
            Ok(i) => Ok(self.attackers.get(i).copied()),
            Err(e) if e.is_unknown() => {
                let labels: Vec<&str> = self.labels.iter().map(String::as_str).collect();
                match names::resolve_index(typed, &labels, "attacking unit") {
                    Ok(i) => Ok(self.attackers.get(i).copied()),
                    Err(_) => Err(e.at(path)),
                }
            }
            Err(e) => Err(e.at(path)),
        }
    }
}

fn attack_phoenixborn(
    b: &mut Board,
    actor: usize,
    typed: &[Said],
    target: Option<&Said>,
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
    let opponents = b.opponents(actor);
    let d = match (target, opponents.as_slice()) {
        (Some(t), _) => find_player(b, actor, t, "play.target")?,
        (None, [only]) => *only,
        (None, []) => {
            cx.error(PB2, "play.target", Illegal::NoOpponent);
            return Ok(());
        }
        // Several opponents and none named: the target is the attacker's
        // choice, asked of them (the rules give no default).
        (None, many) => {
            let options: Vec<Opt<usize>> = many
                .iter()
                .map(|&p| {
                    let pb = b.players[p].phoenixborn.name.to_string();
                    Opt::field(pb.clone(), p, "target", json!(pb))
                })
                .collect();
            let question = format!("{name}: attack which opponent's Phoenixborn?");
            let choice = Choice::new(actor, "target", None, PB2, "play.target");
            choice.settle(cx, None, || (question, options))?.value()
        }
    };
    if b.out(d) {
        let player = &b.name(d);
        cx.error_unruled("play.target", Illegal::OutOfGame { player });
        return Ok(());
    }
    let pb = &b.players[d].phoenixborn;
    let (player, phoenixborn) = (name.as_str(), pb.name.as_str());
    if d == actor {
        let fault = Illegal::OwnPhoenixborn {
            phoenixborn,
            player,
        };
        cx.error(PB2, "play.target", fault);
        return Ok(());
    }
    let owner = b.name(d);
    let declared = Declared::TargetsPhoenixborn {
        player,
        owner: &owner,
        phoenixborn,
        life: *pb.life,
        damage: *pb.damage,
    };
    let chose = Chose::Attack {
        target: phoenixborn,
    };
    cx.step(PB2, declared)
        .num("life", *pb.life)
        .num("damage", *pb.damage)
        .chose(&name, chose);
    let at = Attack::new(b, actor, d, attackers, typed);
    // 3. Declare blockers.
    let blocked = declare_blockers(b, &at, blocks, cx)?;
    // 4. Resolve damage, one attacker at a time, in the attacker's order.
    let Some(order) = resolve_order(b, &at, order, cx)? else {
        return Ok(());
    };
    // Destroyed units leave the board once every attacker has resolved.
    let mut dead = Vec::new();
    for a in order {
        match blocked.iter().find(|x| x.0 == a) {
            None => unblocked(b, a, d, cx),
            Some(&(_, blocker, i)) => {
                let counter = counter_choice(b, &at, a, blocker, i, blocks, cx)?;
                dead.extend(blocked_battle(b, &at, a, blocker, counter, cx));
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
    at: &Attack,
    blocks: &[Block],
    cx: &mut Cx,
) -> Result<Vec<(UnitRef, UnitRef, usize)>, Stop> {
    let (d, defender) = (at.d, &at.defender);
    let mut stated: Vec<UnitRef> = Vec::new();
    let mut out: Vec<(UnitRef, UnitRef, usize)> = Vec::new();
    for (j, blk) in blocks.iter().enumerate() {
        let apath = format!("play.blocks[{j}].attacker");
        let Some(a) = at.attacker(&blk.attacker, &apath)? else {
            continue;
        };
        let bpath = format!("play.blocks[{j}].blocker");
        let attacker = b.label(a);
        if stated.contains(&a) {
            let attacker = &attacker;
            cx.refuse(PB3, &bpath, Refusal::BlockedTwice { attacker });
            continue;
        }
        // The defending player's choice: stated by her (or agreed).
        let ask = || block_ask(b, at, a, &out, blocks);
        block_choice(b, at, a).settle(cx, Some(None), ask)?;
        stated.push(a);
        let Some(bt) = &blk.blocker else {
            continue;
        };
        let br = b.find_unit(bt, &bpath, d)?;
        let label = b.label(br);
        let blocker = label.as_str();
        let why = if br.0 != d {
            Some(NoBlock::NotTheirs { blocker, defender })
        } else if b.unit(br).is_some_and(|u| u.exhausted) {
            Some(NoBlock::Exhausted { blocker })
        } else if out.iter().any(|x| x.1 == br) {
            Some(NoBlock::Busy { blocker })
        } else {
            None
        };
        match why {
            Some(why) => {
                let attacker = &attacker;
                cx.refuse(PB3, &bpath, Refusal::Blocker { why, attacker });
            }
            None => out.push((a, br, j)),
        }
    }
    let mut assumed: Vec<String> = Vec::new();
    for &a in at.attackers.iter().filter(|a| !stated.contains(a)) {
        let ask = || block_ask(b, at, a, &out, blocks);
        if let Chosen::Assumed(..) = block_choice(b, at, a).settle(cx, None, ask)? {
            assumed.push(b.label(a));
        }
    }
    let pairs: Vec<(String, String)> = out
        .iter()
        .map(|(a, br, _)| (b.label(*a), b.label(*br)))
        .collect();
    let blocks = pairs.as_slice();
    // Her declared blockers all refused: the refusals say so, not a choice
    // of hers not to block.
    let all_refused = out.is_empty() && refused_under(cx, "play.blocks");
    let st = cx.step(PB3, Declared::Blockers { defender, blocks });
    st.num("blockers", out.len() as u32);
    let chose = Chose::Blocks { blocks };
    match (all_refused, assumed.is_empty()) {
        (true, _) => {}
        (false, true) => {
            st.chose(defender, chose);
        }
        (false, false) => {
            let why = Unstated {
                attackers: &assumed,
            };
            st.assumed(defender, chose, why);
        }
    }
    Ok(out)
}

/// Whether `a` is blocked: the defending player's choice, no blocker by
/// default.
fn block_choice(b: &Board, at: &Attack, a: UnitRef) -> Choice<Option<UnitRef>> {
    let key = format!("block:{}", b.label(a));
    Choice::new(at.d, key, Some((None, MAY_BLOCK)), PB3, "play.blocks").assuming()
}

/// The question "block A with…" for the defending player, and its answers:
/// her unexhausted units not blocking yet, or none.
fn block_ask(
    b: &Board,
    at: &Attack,
    a: UnitRef,
    taken: &[(UnitRef, UnitRef, usize)],
    blocks: &[Block],
) -> (String, Vec<Opt<Option<UnitRef>>>) {
    let patch = |blocker: Option<Said>| {
        let mut list = blocks.to_vec();
        let attacker = b.unit_name(a);
        list.push(Block {
            attacker,
            blocker,
            counter: None,
        });
        json!({ "blocks": list })
    };
    let options = (0..b.players[at.d].units.len())
        .map(|u| (at.d, u))
        .filter(|r| b.unit(*r).is_some_and(|x| !x.exhausted) && !taken.iter().any(|t| t.1 == *r))
        .map(|r| Opt {
            label: Answer::BlockWith(&b.label(r)).into(),
            value: Some(r),
            patch: patch(Some(b.unit_name(r))),
        })
        .collect();
    let none = Opt {
        label: Answer::NoBlocker.into(),
        value: None,
        patch: patch(None),
    };
    let question = Question::Block {
        defender: &at.defender,
        attacker: &b.label(a),
        attack: b.attack(a),
    };
    (question.into(), one_or_none(options, none))
}

/// Step 4's order: the attacker's choice, or the declared order (assumed).
fn resolve_order(
    b: &Board,
    at: &Attack,
    order: &[Said],
    cx: &mut Cx,
) -> Result<Option<Vec<UnitRef>>, Stop> {
    let name = b.name(at.actor);
    let mut stated: Vec<(usize, UnitRef)> = Vec::new();
    for (k, t) in order.iter().enumerate() {
        if let Some(r) = at.attacker(t, &format!("play.order[{k}]"))? {
            stated.push((k, r));
        }
    }
    if !order.is_empty() {
        for m in choices::misordered(&stated, &at.attackers) {
            match m {
                Misordered::Twice(k, r) => {
                    let unit = &b.label(r);
                    cx.error(
                        PB4,
                        &format!("play.order[{k}]"),
                        Illegal::OrderTwice { unit },
                    );
                }
                Misordered::Missing(r) => {
                    let unit = &b.label(r);
                    cx.error(PB4, "play.order", Illegal::OrderLeavesOut { unit });
                }
            }
        }
    }
    if cx.failed() {
        return Ok(None);
    }
    let chosen = if order.is_empty() {
        Chosen::Assumed(at.attackers.clone(), YOUR_ORDER.into())
    } else {
        Chosen::Stated(stated.into_iter().map(|(_, r)| r).collect())
    };
    let list: Vec<String> = chosen.value().iter().map(|r| b.label(*r)).collect();
    let (player, order) = (name.as_str(), list.as_slice());
    let st = cx.step(PB4, Declared::Order { player, order });
    chosen.on(st, &name, Chose::Order { order });
    Ok(Some(chosen.value()))
}

fn unblocked(b: &mut Board, a: UnitRef, d: usize, cx: &mut Cx) {
    let (al, atk) = (b.label(a), b.attack(a));
    let tally: Tally = b.damage_pb(d, atk).into();
    b.exhaust(a);
    let pb = b.players[d].phoenixborn.name.clone();
    let resolved = Resolved::Unblocked {
        attacker: &al,
        attack: atk,
        phoenixborn: &pb,
        tally,
    };
    cx.step(PB4, resolved)
        .num("damage dealt", atk)
        .num("Phoenixborn damage", tally.after)
        .num("exhaustion tokens", 1);
}

/// Whether the blocker of `a` counters: stated on its block, else asked or
/// assumed (no counter by default).
fn counter_choice(
    b: &Board,
    at: &Attack,
    a: UnitRef,
    blocker: UnitRef,
    i: usize,
    blocks: &[Block],
    cx: &mut Cx,
) -> Result<Chosen<bool>, Stop> {
    let key = format!("counter:{}", b.label(a));
    let path = format!("play.blocks[{i}].counter");
    let choice = Choice::new(at.d, key, Some((false, MAY_COUNTER)), PB4, path).assuming();
    let ask = || {
        let blocker = &b.label(blocker);
        let question = Question::CounterBlock {
            defender: &at.defender,
            blocker,
            attacker: &b.label(a),
        };
        (question.into(), Answer::CounterWith(blocker).into())
    };
    let patch = |c: bool| {
        let mut list = blocks.to_vec();
        if let Some(x) = list.get_mut(i) {
            x.counter = Some(c);
        }
        json!({ "blocks": list })
    };
    let stated = blocks.get(i).and_then(|s| s.counter);
    let no = Answer::NoCounter.to_string();
    choice.yes_no(cx, stated, ask, &no, patch)
}

/// The step saying whether `unit` counters ("…; Maeoni chooses to counter"),
/// with the defending player's choice.
fn counter_step(cx: &mut Cx, rule: &str, unit: Countered, at: &Attack, c: &Chosen<bool>) {
    let (defender, counters) = (at.defender.as_str(), c.value());
    let by = match unit {
        Countered::Blocked { blocker, .. } => blocker,
        Countered::Target { unit } => unit,
    };
    let resolved = Resolved::Counter {
        unit,
        defender,
        counters,
    };
    let st = cx.step(rule, resolved);
    c.on(st, defender, Chose::Counter { counters, unit: by });
}

/// One blocked attacker's damage; returns the units it destroyed.
fn blocked_battle(
    b: &mut Board,
    at: &Attack,
    a: UnitRef,
    br: UnitRef,
    counter: Chosen<bool>,
    cx: &mut Cx,
) -> Vec<UnitRef> {
    let (al, bl) = (b.label(a), b.label(br));
    let (attacker, blocker) = (al.as_str(), bl.as_str());
    let atk = b.attack(a);
    let unit = Countered::Blocked { attacker, blocker };
    counter_step(cx, PB4, unit, at, &counter);
    if !counter.value() {
        let tally: Tally = b.damage_unit(br, atk).into();
        b.exhaust(a);
        let dead = b.destroyed(br);
        let resolved = Resolved::BlockerHit {
            attacker,
            blocker,
            attack: atk,
            tally,
            destroyed: dead,
        };
        let st = cx.step(PB41, resolved);
        st.num("damage dealt", atk)
            .num("blocker damage", tally.after)
            .num("exhaustion tokens", 1);
        if dead {
            st.assume(DESTROYED_ASSUMPTION);
            return vec![br];
        }
        return Vec::new();
    }
    let batk = b.attack(br);
    let blocker_tally = b.damage_unit(br, atk).into();
    let attacker_tally = b.damage_unit(a, batk).into();
    let (tired, gone, dead) = settle_battle(b, &[a, br]);
    let resolved = Resolved::Battle {
        attacker,
        blocker,
        attack: atk,
        blocker_tally,
        counter: batk,
        attacker_tally,
        outcome: Outcome {
            exhausted: &tired,
            destroyed: &gone,
        },
    };
    let st = cx.step(PB42, resolved);
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

fn lethal_note(b: &Board, d: usize, cx: &mut Cx) {
    let pb = &b.players[d].phoenixborn;
    if pb.destroyed() {
        let path = format!("players[{d}].phoenixborn.damage");
        let lethal = Notice::Lethal {
            phoenixborn: &pb.name,
            damage: *pb.damage,
            life: *pb.life,
            goes_on: b.out(d),
        };
        cx.warn(None, Some(&path), lethal);
    }
}

/// The defending player's choices in Attack a Unit.
struct UnitChoices<'a> {
    guard: Option<&'a OneOrMany>,
    counter: Option<bool>,
    split: &'a BTreeMap<Said, u32>,
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
    let t = b.find_target(target, "play.target", actor)?;
    let tl = b.label(t);
    let (unit, player) = (tl.as_str(), name.as_str());
    if t.0 == actor {
        cx.error(AU2, "play.target", Illegal::OwnUnit { unit, player });
        return Ok(());
    }
    if b.out(t.0) {
        let player = &b.name(t.0);
        cx.error_unruled("play.target", Illegal::OutOfGame { player });
        return Ok(());
    }
    let d = t.0;
    let owner = &b.name(d);
    let declared = Declared::TargetsUnit {
        player,
        unit,
        owner,
    };
    cx.step(AU2, declared)
        .chose(&name, Chose::Attack { target: unit });
    let at = Attack::new(b, actor, d, attackers, typed);
    // The counter and the split are the defending player's, reached only
    // after her guard: written by the attacker, refused now.
    cx.not_written_for(d, ch.counter.is_some(), "play.counter")?;
    cx.not_written_for(d, !ch.split.is_empty(), "play.split")?;
    // 3. Declare a guard.
    let guard = declare_guard(b, &at, t, ch.guard, cx)?;
    // 4. Resolve damage.
    let final_unit = match guard {
        Guard::Phoenixborn => {
            if ch.counter == Some(true) {
                let phoenixborn = &b.players[d].phoenixborn.name;
                let refusal = Refusal::PhoenixbornCounter { phoenixborn };
                cx.refuse(AU4, "play.counter", refusal);
            }
            if !ch.split.is_empty() {
                let notice = Notice::SplitNoPhoenixbornCounter;
                cx.warn(Some(AU4), Some("play.split"), notice);
            }
            phoenixborn_takes_it(b, &at, cx);
            return Ok(());
        }
        Guard::Unit(g) => g,
        Guard::None => t,
    };
    if !unit_counter(b, &at, final_unit, ch.counter, cx)? {
        if !ch.split.is_empty() {
            cx.warn(Some(AU41), Some("play.split"), Notice::SplitNoCounter);
        }
        no_counter(b, &at, final_unit, cx);
        return Ok(());
    }
    let shares = split_choice(b, &at, final_unit, ch.split, cx)?;
    counter_battle(b, &at, final_unit, &shares, cx);
    Ok(())
}

/// Step 3 of Attack a Unit: the guard, stated (checked), asked or assumed.
fn declare_guard(
    b: &Board,
    at: &Attack,
    t: UnitRef,
    typed: Option<&OneOrMany>,
    cx: &mut Cx,
) -> Result<Guard, Stop> {
    let (defender, tl) = (&at.defender, b.label(t));
    let pb = &b.players[at.d].phoenixborn;
    let stated = match typed.map(OneOrMany::items).as_deref() {
        Some([_, _, ..]) => {
            cx.refuse(AU3, "play.guard", Refusal::TwoGuards);
            Some(Guard::None)
        }
        Some([g]) => Some(stated_guard(b, at.d, t, g, cx)?),
        _ => None,
    };
    let choice = Choice::new(
        at.d,
        "guard",
        Some((Guard::None, MAY_GUARD)),
        AU3,
        "play.guard",
    )
    .assuming();
    let target = tl.as_str();
    let ask = || {
        let question = Question::Guard { defender, target };
        (question.into(), guard_options(b, at.d, t))
    };
    let chosen = choice.settle(cx, stated, ask)?;
    let guard_label;
    let by = match chosen.value() {
        Guard::Phoenixborn => Guarded::Phoenixborn {
            name: &pb.name,
            exhausted: pb.exhausted,
        },
        Guard::Unit(g) => {
            guard_label = b.label(g);
            Guarded::Unit(&guard_label)
        }
        Guard::None => Guarded::None,
    };
    let declared = Declared::Guard {
        defender,
        target,
        by,
    };
    // A guard she declared and that was refused: the refusal says so, not a
    // choice of hers not to guard.
    let refused = chosen.value() == Guard::None && refused_under(cx, "play.guard");
    let st = cx.step(AU3, declared);
    if !refused {
        chosen.on(st, defender, Chose::Guard { by });
    }
    Ok(chosen.value())
}

/// Whether a refusal was recorded at `path` (`play.…`) or under it.
fn refused_under(cx: &Cx, path: &str) -> bool {
    let at = cx.path(path);
    cx.diags.iter().any(|d| {
        d.severity == crate::Severity::Refused
            && d.path.as_deref().is_some_and(|p| {
                p == at || p.starts_with(&format!("{at}[")) || p.starts_with(&format!("{at}."))
            })
    })
}

/// The guards the defending player may declare: her Phoenixborn, her
/// unexhausted units with Unit Guard other than the target, or none.
fn guard_options(b: &Board, d: usize, t: UnitRef) -> Vec<Opt<Guard>> {
    let guard = |label: &str, g: Guard, v: &str| Opt::field(label, g, "guard", json!(v));
    let pb = &b.players[d].phoenixborn.name;
    let mut v = vec![guard(
        &Answer::GuardWith(pb).to_string(),
        Guard::Phoenixborn,
        "phoenixborn",
    )];
    for u in 0..b.players[d].units.len() {
        let (r, l) = ((d, u), b.label((d, u)));
        if r != t
            && b.unit(r)
                .is_some_and(|x| x.has_unit_guard() && !x.exhausted)
        {
            let label = Answer::GuardWith(&l).to_string();
            v.push(guard(&label, Guard::Unit(r), &l));
        }
    }
    let none = Answer::NoGuard.to_string();
    one_or_none(v, guard(&none, Guard::None, "none"))
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
    // Another player's Phoenixborn is no unit: refused as not hers.
    if let Some(other) = b
        .players
        .iter()
        .enumerate()
        .find(|(i, p)| *i != d && [fold(&p.phoenixborn.name), fold(&p.name)].contains(&key))
        .map(|(_, p)| p.phoenixborn.name.to_string())
    {
        let why = NoGuard::NotTheirs {
            guard: &other,
            defender: &defender.name,
        };
        let target = &b.label(t);
        cx.refuse(AU3, "play.guard", Refusal::Guard { why, target });
        return Ok(Guard::None);
    }
    let gr = b.find_unit(g, "play.guard", d)?;
    let gl = b.label(gr);
    let guard = gl.as_str();
    let why = if gr.0 != d {
        let defender = &defender.name;
        Some(NoGuard::NotTheirs { guard, defender })
    } else if gr == t {
        Some(NoGuard::IsTarget { guard })
    } else if let Some(u) = b.unit(gr).filter(|u| !u.has_unit_guard()) {
        let near = u
            .abilities
            .iter()
            .find(|a| crate::text::edit_distance(&fold(a), "unitguard", 2).is_some())
            .map(|a| a.as_str());
        Some(NoGuard::NoUnitGuard { guard, near })
    } else if b.unit(gr).is_some_and(|u| u.exhausted) {
        Some(NoGuard::Exhausted { guard })
    } else {
        None
    };
    match why {
        Some(why) => {
            let target = &b.label(t);
            cx.refuse(AU3, "play.guard", Refusal::Guard { why, target });
            Ok(Guard::None)
        }
        None => Ok(Guard::Unit(gr)),
    }
}

fn phoenixborn_takes_it(b: &mut Board, at: &Attack, cx: &mut Cx) {
    let tally: Tally = b.damage_pb(at.d, at.total).into();
    for r in &at.attackers {
        b.exhaust(*r);
    }
    let pb = b.players[at.d].phoenixborn.name.clone();
    let list: Vec<String> = at.attackers.iter().map(|r| b.label(*r)).collect();
    let resolved = FinalTarget::PhoenixbornTakesIt {
        phoenixborn: &pb,
        sum: &at.sum,
        tally,
        attackers: &list,
    };
    cx.step(AU4, resolved)
        .num("total attack", at.total)
        .num("Phoenixborn damage", tally.after)
        .num("exhaustion tokens", at.attackers.len() as u32);
    lethal_note(b, at.d, cx);
}

/// Whether the final target unit counters: it cannot when exhausted (a
/// stated counter is then refused); else stated, asked or assumed.
fn unit_counter(
    b: &Board,
    at: &Attack,
    f: UnitRef,
    stated: Option<bool>,
    cx: &mut Cx,
) -> Result<bool, Stop> {
    let fl = b.label(f);
    let unit = fl.as_str();
    if b.unit(f).is_some_and(|u| u.exhausted) {
        if stated == Some(true) {
            cx.refuse(AU4, "play.counter", Refusal::ExhaustedCounter { unit });
        }
        cx.step(AU4, FinalTarget::CannotCounter { unit });
        return Ok(false);
    }
    let choice = Choice::new(
        at.d,
        "counter",
        Some((false, MAY_COUNTER)),
        AU4,
        "play.counter",
    )
    .assuming();
    let ask = || {
        let defender = &at.defender;
        let question = Question::CounterTarget { defender, unit };
        (question.into(), Answer::CounterWith(unit).into())
    };
    let no = Answer::NoCounter.to_string();
    let chosen = choice.yes_no(cx, stated, ask, &no, |c| json!({ "counter": c }))?;
    counter_step(cx, AU4, Countered::Target { unit }, at, &chosen);
    Ok(chosen.value())
}

fn no_counter(b: &mut Board, at: &Attack, f: UnitRef, cx: &mut Cx) {
    let fl = b.label(f);
    let tally: Tally = b.damage_unit(f, at.total).into();
    for r in &at.attackers {
        b.exhaust(*r);
    }
    let dead = b.destroyed(f);
    let list: Vec<String> = at.attackers.iter().map(|r| b.label(*r)).collect();
    let resolved = FinalTarget::TargetHit {
        sum: &at.sum,
        target: &fl,
        tally,
        destroyed: dead,
        attackers: &list,
    };
    let st = cx.step(AU41, resolved);
    st.num("total attack", at.total)
        .num("target damage", tally.after)
        .num("exhaustion tokens", at.attackers.len() as u32);
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
    at: &Attack,
    f: UnitRef,
    split: &BTreeMap<Said, u32>,
    cx: &mut Cx,
) -> Result<Vec<(UnitRef, u32)>, Stop> {
    let catk = b.attack(f);
    if let [only] = at.attackers.as_slice() {
        if !split.is_empty() {
            cx.warn(Some(AU42), Some("play.split"), Notice::SplitOneAttacker);
        }
        return Ok(vec![(*only, catk)]);
    }
    let mut shares: Vec<(UnitRef, u32)> = Vec::new();
    for (k, v) in split {
        let path = format!("play.split[\"{k}\"]");
        let Some(r) = at.attacker(k, &path)? else {
            continue;
        };
        let ask = || split_ask(b, at, f, r, *v, &Map::new());
        split_of(b, at, r).settle(cx, Some(*v), ask)?;
        if shares.iter().any(|s| s.0 == r) {
            let unit = &b.label(r);
            cx.refuse(AU42, &path, Refusal::TwoShares { unit });
            shares.clear();
            break;
        }
        shares.push((r, *v));
    }
    let sum: u32 = shares.iter().map(|s| s.1).sum();
    let complete = shares.len() == at.attackers.len();
    if sum > catk || (complete && sum != catk) {
        let (unit, attack) = (&b.label(f), catk);
        let refusal = Refusal::SplitSum { sum, unit, attack };
        cx.refuse(AU42, "play.split", refusal);
        shares.clear();
    }
    let left = catk - shares.iter().map(|s| s.1).sum::<u32>();
    let undecided: Vec<UnitRef> = at
        .attackers
        .iter()
        .copied()
        .filter(|a| !shares.iter().any(|s| s.0 == *a))
        .collect();
    match undecided.as_slice() {
        [] => {}
        // Nothing left to split: no question, the rest get none.
        rest if left == 0 => shares.extend(rest.iter().map(|r| (*r, 0))),
        [last] if !shares.is_empty() => shares.push((*last, left)),
        [next, ..] => {
            let base: Map<String, Value> = shares
                .iter()
                .map(|(r, v)| (b.label(*r), json!(v)))
                .collect();
            // No default: the rules leave the split wholly to the defender.
            let ask = || split_ask(b, at, f, *next, left, &base);
            split_of(b, at, *next).settle(cx, None, ask)?;
        }
    }
    shares.sort_by_key(|s| at.attackers.iter().position(|a| *a == s.0));
    Ok(shares)
}

/// How much damage goes to `to`: no default, the split is wholly the
/// defending player's.
fn split_of(b: &Board, at: &Attack, to: UnitRef) -> Choice<u32> {
    Choice::new(
        at.d,
        format!("split:{}", b.label(to)),
        None,
        AU42,
        "play.split",
    )
}

/// "How much of the remaining damage goes to A?" (0 ..= left, at most 25 answers).
fn split_ask(
    b: &Board,
    at: &Attack,
    f: UnitRef,
    to: UnitRef,
    left: u32,
    base: &Map<String, Value>,
) -> (String, Vec<Opt<u32>>) {
    let options = (0..=left.min(24))
        .map(|n| {
            let mut m = base.clone();
            let to = b.label(to);
            m.insert(to.clone(), json!(n));
            Opt {
                label: Answer::Share { amount: n, to: &to }.into(),
                value: n,
                patch: json!({ "split": Value::Object(m) }),
            }
        })
        .collect();
    let question = Question::Split {
        defender: &at.defender,
        unit: &b.label(f),
        attackers: at.attackers.len(),
        left,
        to: &b.label(to),
    };
    (question.into(), options)
}

fn counter_battle(b: &mut Board, at: &Attack, f: UnitRef, shares: &[(UnitRef, u32)], cx: &mut Cx) {
    let fl = b.label(f);
    let catk = b.attack(f);
    let tally = b.damage_unit(f, at.total).into();
    let mut dealt = Vec::new();
    for (r, amount) in shares {
        let t = b.damage_unit(*r, *amount).into();
        dealt.push((b.label(*r), *amount, t));
    }
    let split: Vec<(String, u32)> = shares.iter().map(|(r, v)| (b.label(*r), *v)).collect();
    let mut in_battle = at.attackers.clone();
    in_battle.push(f);
    let (tired, gone, dead) = settle_battle(b, &in_battle);
    b.remove_units(dead);
    let resolved = FinalTarget::CounterBattle {
        target: &fl,
        sum: &at.sum,
        tally,
        attack: catk,
        dealt: &dealt,
        outcome: Outcome {
            exhausted: &tired,
            destroyed: &gone,
        },
    };
    let st = cx.step(AU42, resolved);
    st.num("total attack", at.total)
        .num("counter damage", catk)
        .num("exhaustion tokens", tired.len() as u32)
        .assume(DESTROYED_ASSUMPTION);
    // A counter of 0 leaves nothing to split: no one chose anything.
    if shares.len() > 1 && catk > 0 {
        let chose = Chose::Split {
            unit: &fl,
            shares: &split,
        };
        st.chose(&at.defender, chose);
    }
}

fn pass(b: &mut Board, actor: usize, cx: &mut Cx) {
    let name = b.name(actor);
    let ready = b.players[actor]
        .units
        .iter()
        .filter(|u| !u.exhausted)
        .count() as u32;
    let player = name.as_str();
    if ready > 0 && b.players.len() > 1 {
        cx.step(PASS, Turn::Passes { player, ready })
            .num("unexhausted units", ready)
            .chose(&name, Chose::Pass);
    } else {
        cx.step(PASS, Turn::PassesWithNoAttack { player })
            .num("unexhausted units", ready)
            .chose(&name, Chose::Pass)
            .assume(ASSUME_NO_HAND);
    }
    b.consecutive_passes.push(name.clone());
    let missing = b.yet_to_pass();
    let n = b.consecutive_passes.len() as u32;
    let st = if missing.is_empty() {
        let passed = b.consecutive_passes.as_slice();
        let st = cx.step(PASS, Turn::AllPassed { passed });
        b.phase = Phase::Recovery;
        b.consecutive_passes.clear();
        b.turn = None;
        b.main_action_used = false;
        st.num("consecutive passes", n)
    } else {
        let (missing, player) = (missing.as_slice(), name.as_str());
        cx.step(PASS, Turn::YetToPass { missing, player })
            .num("consecutive passes", n)
            .num("players yet to pass", missing.len() as u32)
    };
    let out: Vec<String> = (0..b.players.len())
        .filter(|&p| b.out(p))
        .map(|p| b.name(p))
        .collect();
    if !out.is_empty() {
        st.assume(LeftOut(&out).to_string());
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
        let unsaid = BoardError::semantic("play.main_action", SAY_MAIN_ACTION);
        return Err(unsaid.with_rule(PAY).into());
    };
    let (player, main_action, used) = (name.as_str(), main, b.main_action_used);
    let st = cx.step(
        PAY,
        Turn::PaysCost {
            card,
            player,
            main_action,
            used,
        },
    );
    st.num("main actions used", u32::from(main || used))
        .chose(&name, Chose::PlayOrActivate { card });
    if main {
        b.main_action_used = true;
    } else {
        st.assume(ASSUME_NO_SYMBOL)
            .assume(super::wording::stated_no_symbol(player, card));
    }
    Ok(())
}
