//! The attack declaration: steps 2.a–2.e in order, each action logged so
//! that an illegal declaration is reversed step by step (1.3, 2.5.1.3) and
//! the board checked to be exactly as before; and leaving the Main Phase
//! (1.4). The attacking player's own choices are stated, labelled at the
//! rules' default, or asked; the defending player's response at the
//! Retaliation Step (general rule 4) is asked of the defending player.

use std::fmt;

use serde_json::json;

use super::board::StackKind::{AttackCard, OnAttack, Other};
use super::board::{
    Board, Card, Combat, Cost, CostKind, Phase, Player, Restriction, Slot, StackEntry,
};
use super::plays::{Attack, Named, Play, actor, cards_of, passes, resolve};
use super::rules::*;
use super::wording::{EX1_NOTE, EX2_NOTE, MAY_ADD, MAY_RESPOND, NO_TARGET, NotApplied, TAUNT};
use crate::kit::bounded::List;
use crate::kit::choices::Choice;
use crate::kit::{Chosen, Cx, Opt, Stop};
use crate::text::fold;
use crate::{Diagnostic, Severity, Step};

/// Runs a play on the board.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let (tp, now) = (actor(b, play)?, b.turn_seat());
    let (who, turn) = (b.name(tp), b.name(now));
    if tp != now {
        cx.error_unruled("play.player", format!("it is {turn}'s turn, not {who}'s: the turn player declares attacks and leaves the Main Phase (reading: rule 1.4 speaks of a player's own Main Phase)"));
    } else if b.phase != Phase::Main || b.combat.is_some() {
        let now = b.combat.as_ref().map_or(b.phase, |_| Phase::Combat).name();
        cx.error_unruled("phase", format!("the turn is in the {now}, not the Main Phase: attacks are declared, and the Main Phase is left, from the Main Phase (a reading: the indexed text speaks of attacking from the Main Phase, 1.4)"));
    } else if let Play::EndMainPhase { .. } = play {
        if obligations(b, cx) {
            b.phase = Phase::End;
            cx.step(
                D1_4,
                format!("{who} proceeds from the Main Phase to the End Phase"),
            );
        }
    } else if let Some(a) = resolve(b, tp, play)? {
        declare(b, a, cx)?;
    }
    Ok(())
}

/// Rule 1.4 on leaving the Main Phase: the turn player has attempted every
/// attack an effect says they must make. Returns whether they may go on.
pub fn obligations(b: &Board, cx: &mut Cx) -> bool {
    let tp = b.turn_seat();
    let (who, list) = (&b.players[tp].name, &b.players[tp].must_attack);
    if list.is_empty() {
        cx.step(D1_4, format!("No effect instructs {who} to attack with an object, so nothing holds them in the Main Phase"));
    }
    for (j, m) in list.iter().enumerate() {
        let (with, src) = (&m.with, source(&m.source));
        if m.attempted {
            cx.step(D1_4, format!("{who} attempted the attack with {with}{src} they must make; no further attempt is needed"));
        } else {
            let why = format!(
                "{who} must attack with {with}{src} and has not attempted to declare that attack, so they can't proceed from the Main Phase to the End Phase until they do (an illegal attempt is enough)"
            );
            cx.step(D1_4, why.clone());
            cx.error(D1_4, &format!("players[{tp}].must_attack[{j}]"), why);
        }
    }
    list.iter().all(|m| m.attempted)
}

fn source(s: &Option<String>) -> String {
    s.as_deref().map(|s| format!(" ({s})")).unwrap_or_default()
}

/// The declaration's steps, 2.a to 2.e.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    A,
    B,
    C,
    D,
    E,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "2.{}", char::from(b'a' + *self as u8))
    }
}

/// One thing done during the declaration, kept so it can be undone.
enum Undo {
    /// A choice made at a step (nothing on the board to restore, but shown).
    Choice(At, String),
    /// The attacker rested as the cost of 2.a.
    Rest,
    /// A state-based trigger waiting for the next check.
    Pending(String),
    /// Reserve paid: (step, amount, source).
    Pay(At, u32, String),
}

/// A declaration in progress: the board, the recorder, what the play
/// states and the log of what was done.
struct Decl<'r, 'a> {
    b: &'r mut Board,
    cx: &'r mut Cx<'a>,
    before: Board,
    /// The play, resolved.
    a: Attack,
    me: String,
    /// The attacker and the objects added in 2.b, as they were.
    card: Card,
    objects: Vec<Card>,
    /// The step being done, and what 2.c decided.
    at: At,
    defending: (usize, Vec<String>),
    target: Option<String>,
    undo: Vec<Undo>,
}

fn declare(b: &mut Board, a: Attack, cx: &mut Cx) -> Result<(), Stop> {
    if !can_declare(b, cx) {
        return Ok(());
    }
    let mine = &b.players[a.tp];
    let card = mine.card(a.attacker).cloned().unwrap_or_default();
    let added = a.with.iter().flatten();
    let objects = added.filter_map(|&s| mine.card(s).cloned()).collect();
    let (before, me, defending) = (b.clone(), b.name(a.tp), (a.tp, Vec::new()));
    let mut d = Decl {
        b,
        cx,
        before,
        a,
        me,
        card,
        objects,
        at: At::A,
        defending,
        target: None,
        undo: Vec::new(),
    };
    d.opening();
    let legal = d.step_a() && d.step_b() && d.step_c()? && d.step_d() && d.step_e()?;
    if legal {
        d.declared()?;
    } else {
        d.reverse();
    }
    d.record_attempt(!legal);
    Ok(())
}

/// General rule 3: no attack card waiting on the Effects Stack.
fn can_declare(b: &Board, cx: &mut Cx) -> bool {
    let Some(i) = b.effects_stack.iter().position(|e| e.kind == AttackCard) else {
        return true;
    };
    let (card, who) = (&b.effects_stack[i].name, b.name(b.turn_seat()));
    cx.error(GR3, &format!("effects_stack[{i}]"), format!("the attack card {card} is still on the Effects Stack; it must resolve and enter the champion's intent before {who} can declare an attack"));
    false
}

impl Decl<'_, '_> {
    /// A check that fails: its step, and the error that makes the declaration illegal.
    fn fail(&mut self, rule: &str, path: &str, why: String) -> &mut Step {
        self.cx.error(rule, path, why.clone());
        self.cx.step(rule, format!("{} fails: {why}", self.at))
    }

    /// The choice `play.KEY`, asked at `rule` on the play field `path`: the
    /// turn player's unless `seat` says otherwise, with the rules' default.
    fn choice<T: Clone + PartialEq>(
        &self,
        key: &str,
        seat: Option<usize>,
        default: Option<(T, &str)>,
        (rule, path): (&'static str, &str),
    ) -> Choice<T> {
        Choice::new(seat.unwrap_or(self.a.tp), key, default, rule, path)
    }

    /// Settles a choice: as stated, at its default, or asked with the
    /// question and options `ask` builds from the board (only when asked).
    fn choose<T: Clone + PartialEq>(
        &mut self,
        choice: Choice<T>,
        stated: Option<T>,
        ask: impl FnOnce(&Board) -> (String, Vec<Opt<T>>),
    ) -> Result<Chosen<T>, Stop> {
        let b = &*self.b;
        choice.settle(self.cx, stated, || ask(b))
    }

    /// The attacking player's choice at this step, recorded on its step and
    /// kept to be withdrawn if the declaration is reversed.
    fn chose<T: Clone>(&mut self, rule: &str, text: String, how: Chosen<T>, what: String) {
        how.on(self.cx.step(rule, text), &self.me, what.clone());
        self.undo.push(Undo::Choice(self.at, what));
    }

    fn in_attack(&self, name: &str) -> bool {
        self.card.name == name || self.objects.iter().any(|o| o.name == name)
    }

    /// The costs of `kind` that apply to this attack, with their index.
    fn costs(&self, kind: CostKind) -> Vec<(usize, Cost)> {
        let me = Some(&self.me);
        let to = |c: &Cost| c.applies_to.is_none() || c.applies_to.as_ref() == me;
        let with = |c: &Cost| {
            c.when_attacking_with
                .as_deref()
                .is_none_or(|w| self.in_attack(w))
        };
        let each = self
            .b
            .costs
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == kind && to(c) && with(c));
        each.map(|(i, c)| (i, c.clone())).collect()
    }

    fn opening(&mut self) {
        let (me, a, tp) = (&self.me, &self.card.name, self.a.tp);
        self.cx.step(D1, format!("{me} declares an attack with {a}; the declaration goes through the steps of rule 2 and must be verified as a legal attack"));
        let intent = &self.b.players[tp].intent;
        let resolved = match self.a.attacker == Slot::Champion && !intent.is_empty() {
            true => format!(
                "; {} in the champion's intent has resolved",
                intent.join(", ")
            ),
            false => String::new(),
        };
        self.cx.step(GR3, format!("No attack card is waiting on the Effects Stack{resolved}, so the declaration can be made"));
        self.cx.step(D2, "Steps 2.a to 2.e are done in sequence");
        for (p, pl) in self.b.players.iter().enumerate() {
            for (s, c) in pl.cards() {
                for (k, w) in c.keywords.iter().enumerate() {
                    if !["cleave", "taunt"].contains(&fold(w).as_str()) {
                        let path = format!("{}.keywords[{k}]", s.path(p));
                        let msg = NotApplied::Keyword(&c.name, w).to_string();
                        self.cx.warn(None, Some(&path), msg);
                    }
                }
            }
        }
    }

    /// 2.a: select the attacker; it must be able to attack; rest it as the cost.
    fn step_a(&mut self) -> bool {
        let (me, a) = (self.me.clone(), self.card.name.to_string());
        let (role, unit) = (self.a.attacker.role(), self.a.attacker.is_unit());
        let (text, what) = (
            format!("2.a: {me} selects {a} ({role}) as the attacker"),
            format!("{a} as the attacker"),
        );
        self.chose(D2_1, text, Chosen::Stated(()), what);
        let awake = unit && !self.card.rested;
        let able = match (&self.card.attack_permission, awake) {
            (_, true) => Ok(format!("{a} is an awake {role}, so it is able to attack")),
            (Some(p), _) if unit => Ok(format!(
                "{a} is rested, but {p} grants it permission to attack"
            )),
            (Some(p), _) => Ok(format!(
                "{a} is not an ally or champion; {p} grants it permission to attack"
            )),
            (None, _) if unit => Err(format!(
                "{a} is rested and no effect grants it permission to attack; a rested {role} can't be selected as the attacker"
            )),
            (None, _) => Err(format!(
                "{a} is an object, not an ally or champion, and no effect grants it permission to attack (set `attack_permission` if one does)"
            )),
        };
        match able {
            Ok(why) => self.cx.step(D2_1_1, why),
            Err(why) => {
                self.fail(D2_1_1, &self.a.attacker.path(self.a.tp), why);
                return false;
            }
        };
        if !awake {
            let why = if unit {
                "already rested"
            } else {
                "not an ally or champion"
            };
            self.cx.step(
                D2_1_1_1,
                format!("{a} is {why}, so there is no resting cost to pay"),
            );
            return true;
        }
        if let Some(c) = self.b.players[self.a.tp].card_mut(self.a.attacker) {
            c.rested = true;
        }
        self.undo.push(Undo::Rest);
        self.cx
            .step(D2_1_1_1, format!("{a} is rested as the cost to attack"));
        for (k, t) in self.card.when_rested.iter().enumerate() {
            self.b.pending_triggers.push(t.clone());
            self.undo.push(Undo::Pending(t.clone()));
            self.cx.step(D1_2, format!("{a} becoming rested triggers {t}; it waits and goes onto the Effects Stack the next time state-based effects are checked"));
            let path = format!("{}.when_rested[{k}]", self.a.attacker.path(self.a.tp));
            self.cx
                .warn(None, Some(&path), NotApplied::Trigger(&a, t).to_string());
        }
        true
    }

    /// 2.b: weapons or objects added (none when left out, labelled).
    fn step_b(&mut self) -> bool {
        let (me, a) = (&self.me, &self.card.name);
        self.at = At::B;
        if self.objects.is_empty() {
            let how = match self.a.with.is_some() {
                true => Chosen::Stated(()),
                false => Chosen::Assumed((), MAY_ADD.into()),
            };
            let st = self.cx.step(
                D2_2,
                format!("2.b: {me} adds no weapons or objects to the attack"),
            );
            how.on(st, me, "no weapons or objects");
            return true;
        }
        for o in &self.objects {
            let n = &o.name;
            let kind = o.kind.as_deref().map(|k| format!(" ({k})"));
            let kind = kind.unwrap_or_default();
            self.cx
                .step(D2_2, format!("2.b: {me} adds {n}{kind} to the attack"))
                .chose(me, format!("to add {n}"));
            self.undo
                .push(Undo::Choice(At::B, format!("{n} added to the attack")));
        }
        let names: Vec<&str> = self.objects.iter().map(|o| o.name.as_str()).collect();
        let (verb, noun) = if names.len() == 1 {
            ("takes", "is not an attacker")
        } else {
            ("take", "are not attackers")
        };
        let list = names.join(", ");
        self.cx.step(D2_2_1, format!("{list} {verb} part in combat after the declaration but {noun}; only {a} is the attacker"));
        true
    }

    /// 2.c: an attack target, or with Cleave a player whose units defend.
    fn step_c(&mut self) -> Result<bool, Stop> {
        let (me, a) = (self.me.clone(), self.card.name.clone());
        self.at = At::C;
        let from = self.objects.iter().find(|o| o.has_keyword("cleave"));
        let cleave = match self.card.has_keyword("cleave") {
            true => Some(format!("{a} has Cleave")),
            false => from.map(|o| format!("{}, added in 2.b, gives the attack Cleave", o.name)),
        };
        let why = match (cleave, self.a.target, self.a.defending_player) {
            _ if self.b.opponents(self.a.tp).is_empty() => {
                (D2_3, "play.target", "there is no opponent to attack".into())
            }
            (Some(g), Some((p, s)), _) => {
                let (name, owner) = (self.b.card_name(p, s), self.b.name(p));
                (
                    D2_3_1,
                    "play.target",
                    format!(
                        "{g}, so {me} chooses a player instead of an attack target; name the player (`defending_player: {owner}`) instead of the target {name}"
                    ),
                )
            }
            (Some(g), None, _) => return self.cleave(g),
            (None, _, Some(_)) => (
                D2_3,
                "play.defending_player",
                format!("{a} has no Cleave, so {me} must choose an attack target, not a player"),
            ),
            (None, _, None) => return self.attack_target(),
        };
        self.fail(why.0, why.1, why.2);
        Ok(false)
    }

    fn cleave(&mut self, granted: String) -> Result<bool, Stop> {
        let (b, me) = (&*self.b, self.me.clone());
        let opps = b.opponents(self.a.tp);
        // One opponent is the only player who can be chosen.
        let only = match opps[..] {
            [p] => Some((
                p,
                format!(
                    "{} is the only opponent, so the only player {me} can choose",
                    b.name(p)
                ),
            )),
            _ => None,
        };
        let default = only.as_ref().map(|(p, why)| (*p, why.as_str()));
        let choice = self.choice(
            "defending_player",
            None,
            default,
            (D2_3_1, "play.defending_player"),
        );
        let chosen = self.choose(choice, self.a.defending_player, |b| {
            let option =
                |&p: &usize| Opt::field(b.name(p), p, "defending_player", json!(b.name(p)));
            let question = format!("{me}: {granted}; whose units become defending units?");
            (question, opps.iter().map(option).collect())
        })?;
        let (p, who) = (chosen.value(), self.b.name(chosen.value()));
        let units: Vec<String> = self.b.players[p]
            .units()
            .iter()
            .map(|(_, c)| c.name.to_string())
            .collect();
        let text = format!(
            "2.c: {granted}, so {me} chooses {who}; {who}'s units ({}) become defending units and are not attack targets",
            units.join(", ")
        );
        self.chose(
            D2_3_1,
            text,
            chosen,
            format!("{who} as the defending player"),
        );
        self.defending = (p, units);
        Ok(true)
    }

    fn attack_target(&mut self) -> Result<bool, Stop> {
        let (me, a, tp) = (self.me.clone(), self.card.name.clone(), self.a.tp);
        let choice = self.choice("target", None, None, (D2_3, "play.target"));
        let chosen = self.choose(choice, self.a.target, |b| {
            let option = |&(p, s, n): &Named| {
                let label = format!("{n} ({}'s {})", b.name(p), s.role());
                Opt::field(label, (p, s), "target", json!(n))
            };
            let options = cards_of(b, &b.opponents(tp), Player::units);
            let question = format!("{me}: attack which champion or ally with {a}?");
            (question, options.iter().map(option).collect())
        })?;
        let (p, s) = chosen.value();
        let (name, owner, role) = (self.b.card_name(p, s), self.b.name(p), s.role());
        let text = format!(
            "2.c: {me} chooses {owner}'s {role} {name} as the attack target; it becomes the defending unit"
        );
        self.chose(D2_3, text, chosen, format!("{name} as the target"));
        self.defending = (p, vec![name.clone()]);
        self.target = Some(name);
        Ok(true)
    }

    /// Pays `costs[i]` from the attacking player's reserve, logged, with
    /// its step under `rule`. When the reserve is short the step fails
    /// instead: an error under `short.0` saying `short.1(reserve)`.
    fn pay(
        &mut self,
        (i, c): (usize, &Cost),
        rule: &str,
        text: String,
        short: (&str, impl FnOnce(u32) -> String),
    ) -> Option<&mut Step> {
        let (have, n) = (*self.b.players[self.a.tp].reserve, *c.reserve);
        let Some(left) = have.checked_sub(n) else {
            let why = short.1(have);
            self.cx.error(short.0, &format!("costs[{i}]"), why.clone());
            let st = self.cx.step(rule, format!("{} fails: {why}", self.at));
            st.num("cost", n).num("reserve", have);
            return None;
        };
        self.b.players[self.a.tp].reserve.0 = left;
        self.undo.push(Undo::Pay(self.at, n, c.source.clone()));
        let st = self.cx.step(rule, text).num("cost", n);
        Some(st.num("reserve before", have).num("reserve after", left))
    }

    /// An info note on a cost, citing a seed example.
    fn example(&mut self, (rule, note): (&str, &str), i: usize, source: &str) {
        self.cx.diags.push(Diagnostic {
            severity: Severity::Info,
            message: format!("{source}: {note}"),
            rule: Some(rule.into()),
            path: Some(format!("costs[{i}]")),
        });
    }

    /// 2.d: calculated costs, including additional costs.
    fn step_d(&mut self) -> bool {
        let (me, costs) = (self.me.clone(), self.costs(CostKind::Additional));
        self.at = At::D;
        if costs.is_empty() {
            self.cx.step(
                D2_4,
                "2.d: there are no calculated or additional costs to pay",
            );
        }
        for (i, c) in costs {
            let (src, n) = (&c.source, *c.reserve);
            let text = format!(
                "2.d: {me} pays {n} reserve for {src}'s additional cost to declare the attack"
            );
            let short = |have| {
                format!(
                    "{me} can't pay {src}'s additional cost of {n} reserve: only {have} reserve is available"
                )
            };
            if self.pay((i, &c), D2_4, text, (D2_4, short)).is_none() {
                return false;
            }
            self.example(EX2_NOTE, i, src);
        }
        true
    }

    /// 2.e: extra costs (paid, refused or asked), then Taunt and restrictions.
    fn step_e(&mut self) -> Result<bool, Stop> {
        let (mut ok, me, extra) = (true, self.me.clone(), self.costs(CostKind::Extra));
        self.at = At::E;
        self.cx.step(
            D2_5,
            format!("2.e: {me} reconciles the restrictions and extra costs on this attack"),
        );
        for (i, c) in &extra {
            self.example(EX1_NOTE, *i, &c.source);
            ok &= self.extra_cost(*i, c)?;
        }
        let pay = [("pay_extra", &self.a.pay), ("refuse_extra", &self.a.refuse)];
        for (field, list) in pay {
            let absent = list
                .iter()
                .enumerate()
                .filter(|(_, s)| !extra.iter().any(|(_, c)| c.source == **s));
            for (k, s) in absent {
                let msg = format!(
                    "{s}'s extra cost does not apply to this attack, so there is nothing to pay or refuse; the attack goes on without it"
                );
                self.cx.refuse(D2_5_1, &format!("play.{field}[{k}]"), msg);
            }
        }
        Ok(self.restrictions() & ok)
    }

    /// One extra cost: the attacking player's own choice, with no default.
    fn extra_cost(&mut self, i: usize, c: &Cost) -> Result<bool, Stop> {
        let (me, src, n) = (self.me.clone(), &c.source, *c.reserve);
        let what = format!(
            "{src}{} extra cost of {n} reserve",
            source(&c.controller).replace(')', "'s)")
        );
        let at = (D2_5_1_1, "play.pay_extra");
        let choice = self.choice(&format!("extra:{src}"), None, None, at);
        let (paid, refused) = (self.a.pay.clone(), self.a.refuse.clone());
        let stated = [&paid, &refused].iter().position(|l| l.contains(src));
        let chosen = self.choose(choice, stated.map(|k| k == 0), |_| {
            let add = |list: &[String]| json!([list, std::slice::from_ref(src)].concat());
            let pay = Opt::field(format!("pay {n} reserve"), true, "pay_extra", add(&paid));
            let refuse = "refuse (the attack is illegal)";
            let refuse = Opt::field(refuse, false, "refuse_extra", add(&refused));
            let question = format!(
                "{me}: pay {what} to declare this attack? Refusing makes the attack illegal."
            );
            (question, vec![pay, refuse])
        })?;
        if !chosen.value() {
            let why = format!("{me} refuses to pay {what}, so the attack is illegal");
            self.fail(D2_5_1_1, "play.refuse_extra", why)
                .chose(&me, format!("not to pay {src}'s extra cost"));
            return Ok(false);
        }
        let text =
            format!("2.e: {me} agrees to pay {what} (not an \"additional cost\") and pays it");
        let short =
            |have| format!("{me} agrees to pay {what} but only {have} reserve is available");
        let paid = self.pay((i, c), D2_5_1, text, (D2_5_1_3, short));
        let chose = paid.map(|st| st.chose(&me, format!("to pay {src}'s extra cost")));
        Ok(chose.is_some())
    }

    /// Restrictions: Taunt (read as a targeting restriction on attacks on
    /// its controller's units) and those in play that bind the attacking player.
    fn restrictions(&mut self) -> bool {
        let (units, me) = (self.b.players[self.defending.0].units(), Some(&self.me));
        let taunts = units.iter().filter(|(_, c)| c.has_keyword("taunt"));
        let must_target = List(taunts.map(|(_, c)| c.name.to_string()).collect());
        let taunt = Restriction {
            source: "Taunt".into(),
            applies_to: None,
            must_target,
            cannot_attack_with: Default::default(),
        };
        let binding = self
            .b
            .restrictions
            .iter()
            .enumerate()
            .filter(|(_, r)| r.applies_to.is_none() || r.applies_to.as_ref() == me);
        let all: Vec<_> = binding.map(|(i, r)| (Some(i), r.clone())).collect();
        let mut ok = true;
        for (i, r) in std::iter::once((None, taunt)).chain(all) {
            let (src, without, want) = (
                &r.source,
                r.cannot_attack_with.join(", "),
                r.must_target.join(" or "),
            );
            if let Some(bad) = r.cannot_attack_with.iter().find(|n| self.in_attack(n)) {
                ok = false;
                let path = format!("restrictions[{}].cannot_attack_with", i.unwrap_or_default());
                self.fail(
                    D2_5_1_2,
                    &path,
                    format!("{src} forbids attacking with {bad}"),
                );
            } else if !without.is_empty() {
                self.cx.step(
                    D2_5_1_2,
                    format!("{src}'s restriction is fulfilled: the attack does not use {without}"),
                );
            }
            let step = match self.target.clone() {
                _ if want.is_empty() => continue,
                None => self
                    .cx
                    .step(
                        D2_5_1_2,
                        format!(
                            "{src} requires targeting {want}; a Cleave attack has no attack target"
                        ),
                    )
                    .assume(NO_TARGET),
                Some(t) if r.must_target.contains(&t) => self.cx.step(
                    D2_5_1_2,
                    format!("{src}'s targeting restriction is fulfilled: the target is {t}"),
                ),
                Some(t) => {
                    ok = false;
                    self.fail(
                        D2_5_1_2,
                        "play.target",
                        format!("{src} requires the attack to target {want}, not {t}"),
                    )
                }
            };
            if i.is_none() {
                step.assume(TAUNT);
            }
        }
        ok
    }

    /// An illegal declaration: every step taken reversed, last first, and
    /// the board compared with the board before it.
    fn reverse(&mut self) {
        let (at, a) = (self.at, &self.card.name);
        let rule = if matches!(at, At::A | At::E) {
            D2_5_1_3
        } else {
            D1_3
        };
        let text = match at {
            At::A => format!(
                "The attack declaration is illegal at 2.a; the only step taken was selecting {a}, which is withdrawn"
            ),
            _ => format!(
                "The attack declaration is illegal (failed at {at}); every step taken is reversed, last first"
            ),
        };
        self.cx.step(rule, text);
        while let Some(u) = self.undo.pop().filter(|_| at != At::A) {
            self.undo_one(u, rule);
        }
        let exact = *self.b == self.before;
        let checked = exact.then_some(": the board is exactly as it was (checked)");
        let text = "The game resumes at the point in time prior to the attack declaration";
        self.cx
            .step(D2_5_1_3, format!("{text}{}", checked.unwrap_or_default()));
        if !exact {
            self.cx.error_unruled("play", "internal error: the reversal did not restore the board exactly; please report this board");
        }
    }

    fn undo_one(&mut self, u: Undo, rule: &str) {
        let (me, a, p) = (&self.me, &self.card.name, &mut self.b.players[self.a.tp]);
        let text = match u {
            Undo::Choice(s, what) => format!("Reverse {s}: the choice of {what} is withdrawn"),
            Undo::Rest => {
                p.card_mut(self.a.attacker)
                    .into_iter()
                    .for_each(|c| c.rested = false);
                format!("Reverse 2.a: {a} becomes awake again (its resting cost is undone)")
            }
            Undo::Pending(t) => {
                let waiting = &mut self.b.pending_triggers;
                if let Some(i) = waiting.iter().rposition(|x| *x == t) {
                    waiting.remove(i);
                }
                format!(
                    "Reverse 2.a: {t} no longer waits for the next state-based check (the resting that triggered it is undone)"
                )
            }
            Undo::Pay(s, n, src) => {
                let before = *p.reserve;
                *p.reserve = before + n;
                let text =
                    format!("Reverse {s}: the {n} reserve paid for {src} is returned to {me}");
                let st = self.cx.step(rule, text).num("refund", n);
                st.num("reserve before", before)
                    .num("reserve after", before + n);
                return;
            }
        };
        self.cx.step(rule, text);
    }

    /// A legal declaration: the combat phase, On Attack triggers, and the
    /// defending player's chance to respond at the Retaliation Step.
    fn declared(&mut self) -> Result<(), Stop> {
        self.cx.step(D1_1, "Steps 2.a to 2.e were followed in order and are considered to have all happened at the same time: the attack is legal");
        let (dp, defending_units) = self.defending.clone();
        self.b.combat = Some(Combat {
            attacking_player: self.me.clone(),
            attacker: self.card.name.to_string(),
            objects: self.objects.iter().map(|o| o.name.to_string()).collect(),
            target: self.target.clone(),
            defending_player: self.b.name(dp),
            defending_units,
        });
        self.b.phase = Phase::Combat;
        self.cx.step(
            GR1,
            "The attack is declared: the turn immediately enters the combat phase",
        );
        self.cx.step(
            GR2,
            "The declaration can't be responded to, and no player receives Opportunity from it",
        );
        for c in std::iter::once(&self.card).chain(&self.objects) {
            for t in &c.on_attack {
                let (name, controller) = (format!("{}: {t}", c.name), Some(self.me.clone()));
                self.b.effects_stack.push(StackEntry {
                    name,
                    kind: OnAttack,
                    controller,
                });
                self.cx.step(GR4, format!("{}'s On Attack ability ({t}) goes onto the Effects Stack; players can respond at the beginning of the Retaliation Step", c.name));
                let msg = NotApplied::OnAttack(&c.name, t).to_string();
                self.cx.warn(None, None, msg);
            }
        }
        self.cx.step(GR5, "Combat proceeds through all its steps even if the attacker or all defending units leave the field");
        self.respond(dp)
    }

    /// The defending player's response at the beginning of the Retaliation
    /// Step: theirs to make; recorded on the Effects Stack, its text not applied.
    fn respond(&mut self, dp: usize) -> Result<(), Stop> {
        let (who, me, a) = (self.b.name(dp), self.me.clone(), self.card.name.clone());
        let stated = self.a.response.clone();
        let default = Some((false, MAY_RESPOND));
        // The indexed text gives no default response: passing is assumed.
        let choice = self.choice("response", Some(dp), default, (GR4, "play.response"));
        let stated_choice = stated.as_deref().map(|s| !passes(s));
        let chosen = self.choose(choice.assuming(), stated_choice, |_| {
            let options = vec![
                Opt::field("pass", false, "response", json!("pass")),
                Opt::field("respond", true, "response", json!("respond")),
            ];
            let question = format!(
                "{who}: {me} attacks with {a}; respond at the beginning of the Retaliation Step?"
            );
            (question, options)
        })?;
        let what = stated
            .filter(|s| fold(s) != "respond")
            .unwrap_or("a response (not named)".into());
        let at = "At the beginning of the Retaliation Step";
        let (text, choice) = match chosen.value() {
            false => (
                format!("{at} {who} does not respond"),
                "not to respond".into(),
            ),
            true => (
                format!("{at} {who} responds with {what}; it goes onto the Effects Stack"),
                format!("to respond with {what}"),
            ),
        };
        chosen.on(self.cx.step(GR4, text), &who, choice);
        if chosen.value() {
            self.b.effects_stack.push(StackEntry {
                name: what.clone(),
                kind: Other,
                controller: Some(who.clone()),
            });
            let msg = NotApplied::Response(&who, &what).to_string();
            self.cx.warn(None, Some("play.response"), msg);
        }
        Ok(())
    }

    /// Rule 1.4: an attempt with an object the player must attack with
    /// answers the obligation, legal or not (the record an illegal attempt keeps).
    fn record_attempt(&mut self, illegal: bool) {
        let (me, a) = (&self.me, &self.card.name);
        for m in self.b.players[self.a.tp]
            .must_attack
            .iter_mut()
            .filter(|m| *a == m.with.as_str())
        {
            m.attempted = true;
            let src = source(&m.source);
            self.cx.step(D1_4, match illegal {
                true => format!("{me} attempted the attack with {a} that {me} must make{src}; it was illegal, so no further attempts are necessary (recorded as attempted)"),
                false => format!("{me} attacks with {a} as instructed{src}; the must-attack obligation is met"),
            });
        }
    }
}
