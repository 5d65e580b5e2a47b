//! The attack declaration: steps 2.a–2.e in order, each action logged so
//! that an illegal declaration is reversed step by step (1.3, 2.5.1.3) and
//! the board checked to be exactly as before; and leaving the Main Phase
//! (1.4). The attacking player's own choices are stated, labelled at the
//! rules' default, or asked; the defending player's response at the
//! Retaliation Step (general rule 4) is asked of the defending player.

use serde_json::json;

use super::board::StackKind::{AttackCard, OnAttack, Other};
use super::board::{
    Board, Card, Combat, Cost, CostKind, Phase, Player, Restriction, Slot, StackEntry,
};
use super::plays::{Attack, Named, Play, actor, cards_of, owned_label, passes, resolve};
use super::rules::*;
use super::wording::{
    Asks, At, Chose, Cleave, Declared, EX1_NOTE, EX2_NOTE, Extra, Fails, MAY_ADD, MAY_RESPOND,
    NO_TARGET, NotApplied, ONLY_DEFENDER_RESPONDS, OWN_TARGET, REFUSE, RESTED_OBJECT, Refusal,
    Reversal, Says, Selects, Settles, TAUNT, UNNAMED_RESPONSE, Whence,
};
use crate::kit::bounded::List;
use crate::kit::choices::Choice;
use crate::kit::{Chosen, Cx, Opt, Stop};
use crate::text::fold;
use crate::{Diagnostic, Severity, Step};

/// Runs a play on the board.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let (tp, now) = (actor(b, play)?, b.turn_seat());
    let (who, turn) = (b.name(tp), b.name(now));
    let player = who.as_str();
    if tp != now {
        cx.error_unruled(
            "play.player",
            Refusal::NotTurnPlayer {
                turn: &turn,
                player,
            },
        );
    } else if b.phase != Phase::Main || b.combat.is_some() {
        let phase = b.combat.as_ref().map_or(b.phase, |_| Phase::Combat).name();
        cx.error_unruled("phase", Refusal::NotMain { phase });
    } else if let Play::EndMainPhase { .. } = play {
        if obligations(b, cx) {
            b.phase = Phase::End;
            cx.step(D1_4, Says::ToEndPhase { player });
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
    let player = who.as_str();
    if list.is_empty() {
        cx.step(D1_4, Says::NoObligation { player });
    }
    for (j, m) in list.iter().enumerate() {
        let (with, from) = (m.with.as_str(), Whence(m.source.as_deref()));
        if m.attempted {
            cx.step(D1_4, Says::Attempted { player, with, from });
        } else {
            let why = Says::MustAttack { player, with, from };
            cx.step(D1_4, why);
            cx.error(D1_4, &format!("players[{tp}].must_attack[{j}]"), why);
        }
    }
    list.iter().all(|m| m.attempted)
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
        // Still an attempt, deemed illegal: rule 1.4 asks no further one
        // (as for any other illegal declaration; its End Phase refusal
        // said "an illegal attempt is enough" and did not count this one).
        blocked_attempt(b, &a, cx);
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

/// Rule 1.4 for a declaration general rule 3 refused: the objects the
/// player must attack with are recorded as attempted.
fn blocked_attempt(b: &mut Board, a: &Attack, cx: &mut Cx) {
    let player = b.name(a.tp);
    let Some(card) = b.players[a.tp].card(a.attacker).map(|c| c.name.clone()) else {
        return;
    };
    let reading = Some(super::wording::BLOCKED_ATTEMPT);
    mark_attempted(b, a.tp, &player, &card, true, reading, cx);
}

/// Rule 1.4: `card`'s must-attack obligations of seat `tp` are attempted
/// (legally or not), each said on a step (with `reading` as its
/// assumption, when the attempt is one by a reading).
fn mark_attempted(
    b: &mut Board,
    tp: usize,
    player: &str,
    card: &str,
    illegal: bool,
    reading: Option<&str>,
    cx: &mut Cx,
) {
    for m in b.players[tp]
        .must_attack
        .iter_mut()
        .filter(|m| card == m.with.as_str())
    {
        m.attempted = true;
        let from = Whence(m.source.as_deref());
        let says = match illegal {
            true => Says::AttemptedIllegal { player, card, from },
            false => Says::AsInstructed { player, card, from },
        };
        let step = cx.step(D1_4, says);
        if let Some(r) = reading {
            step.assume(r);
        }
    }
}

/// General rule 3: no attack card waiting on the Effects Stack.
fn can_declare(b: &Board, cx: &mut Cx) -> bool {
    let Some(i) = b.effects_stack.iter().position(|e| e.kind == AttackCard) else {
        return true;
    };
    let (card, who) = (&b.effects_stack[i].name, b.name(b.turn_seat()));
    let refusal = Refusal::AttackCardWaiting { card, player: &who };
    cx.error(GR3, &format!("effects_stack[{i}]"), refusal);
    false
}

impl Decl<'_, '_> {
    /// A check that fails: its step, and the error that makes the declaration illegal.
    fn fail(&mut self, rule: &str, path: &str, why: Fails) -> &mut Step {
        self.cx.error(rule, path, why);
        self.cx.step(rule, Says::Fails { at: self.at, why })
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
    fn chose<T: Clone>(
        &mut self,
        rule: &str,
        text: impl Into<String>,
        how: Chosen<T>,
        what: Chose,
    ) {
        let what = what.to_string();
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
        let (player, card, tp) = (self.me.as_str(), self.card.name.as_str(), self.a.tp);
        self.cx.step(D1, Says::Declares { player, card });
        let intent = &self.b.players[tp].intent;
        let resolved = match self.a.attacker == Slot::Champion && !intent.is_empty() {
            true => Some(intent.join(", ")),
            false => None,
        };
        let resolved = resolved.as_deref();
        self.cx.step(GR3, Says::NothingWaiting { resolved });
        self.cx.step(D2, Says::InSequence);
        for (p, pl) in self.b.players.iter().enumerate() {
            for (s, c) in pl.cards() {
                for (k, w) in c.keywords.iter().enumerate() {
                    if !["cleave", "taunt"].contains(&fold(w).as_str()) {
                        let path = format!("{}.keywords[{k}]", s.path(p));
                        let msg = NotApplied::Keyword(&c.name, w);
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
        let (player, card) = (me.as_str(), a.as_str());
        let text = Selects::Attacker { player, card, role };
        self.chose(D2_1, text, Chosen::Stated(()), Chose::Attacker(card));
        let awake = unit && !self.card.rested;
        let permission = self.card.attack_permission.clone();
        let able = match (permission.as_deref(), awake) {
            (_, true) => Ok(Selects::Awake { card, role }),
            (Some(permission), _) if unit => Ok(Selects::RestedPermitted { card, permission }),
            (Some(permission), _) => Ok(Selects::ObjectPermitted { card, permission }),
            (None, _) if unit => Err(Fails::RestedUnit { card, role }),
            (None, _) => Err(Fails::NoPermission { card }),
        };
        match able {
            Ok(why) => self.cx.step(D2_1_1, why),
            Err(why) => {
                self.fail(D2_1_1, &self.a.attacker.path(self.a.tp), why);
                return false;
            }
        };
        if !awake {
            self.cx
                .step(D2_1_1_1, Selects::NoRestingCost { card, unit });
            return true;
        }
        if let Some(c) = self.b.players[self.a.tp].card_mut(self.a.attacker) {
            c.rested = true;
        }
        self.undo.push(Undo::Rest);
        self.cx.step(D2_1_1_1, Selects::Rested { card });
        for (k, t) in self.card.when_rested.iter().enumerate() {
            self.b.pending_triggers.push(t.clone());
            self.undo.push(Undo::Pending(t.clone()));
            self.cx.step(D1_2, Selects::Triggers { card, trigger: t });
            let path = format!("{}.when_rested[{k}]", self.a.attacker.path(self.a.tp));
            self.cx.warn(None, Some(&path), NotApplied::Trigger(&a, t));
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
            let st = self.cx.step(D2_2, Selects::AddsNothing { player: me });
            how.on(st, me, Chose::NoObjects);
            return true;
        }
        for o in &self.objects {
            let (object, kind) = (o.name.as_str(), Whence(o.kind.as_deref()));
            let adds = Selects::Adds {
                player: me,
                object,
                kind,
            };
            let step = self.cx.step(D2_2, adds).chose(me, Chose::Add(object));
            // "If able" is not defined: a rested object is taken as able,
            // said on its step (it joined silently; found by an outside judge).
            if o.rested {
                step.assume(RESTED_OBJECT);
            }
            let added = Chose::Added(object).to_string();
            self.undo.push(Undo::Choice(At::B, added));
        }
        let names: Vec<&str> = self.objects.iter().map(|o| o.name.as_str()).collect();
        let (objects, count) = (&names.join(", "), names.len());
        let card = a.as_str();
        let not_attackers = Selects::NotAttackers {
            objects,
            count,
            card,
        };
        self.cx.step(D2_2_1, not_attackers);
        true
    }

    /// 2.c: an attack target, or with Cleave a player whose units defend.
    fn step_c(&mut self) -> Result<bool, Stop> {
        let (me, a) = (self.me.clone(), self.card.name.clone());
        self.at = At::C;
        let from = self.objects.iter().find(|o| o.has_keyword("cleave"));
        let from = from.map(|o| o.name.to_string());
        let cleave = match self.card.has_keyword("cleave") {
            true => Some(Cleave::Own(&a)),
            false => from.as_deref().map(Cleave::Added),
        };
        let player = me.as_str();
        let why = match (cleave, self.a.target, self.a.defending_player) {
            _ if self.b.opponents(self.a.tp).is_empty() => (D2_3, "play.target", Fails::NoOpponent),
            (Some(cleave), Some((p, s)), _) => {
                let (name, owner) = (self.b.card_name(p, s), self.b.name(p));
                let why = Fails::CleaveTarget {
                    cleave,
                    player,
                    owner: &owner,
                    target: &name,
                };
                self.fail(D2_3_1, "play.target", why);
                return Ok(false);
            }
            (Some(cleave), None, _) => return self.cleave(cleave),
            (None, _, Some(_)) => {
                let why = Fails::NoCleave { card: &a, player };
                (D2_3, "play.defending_player", why)
            }
            (None, _, None) => return self.attack_target(),
        };
        self.fail(why.0, why.1, why.2);
        Ok(false)
    }

    fn cleave(&mut self, granted: Cleave) -> Result<bool, Stop> {
        let (b, me) = (&*self.b, self.me.clone());
        let opps = b.opponents(self.a.tp);
        // One opponent is the only player who can be chosen.
        let only = match opps[..] {
            [p] => {
                let (opponent, player) = (&b.name(p), me.as_str());
                Some((p, Asks::OnlyOpponent { opponent, player }.to_string()))
            }
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
            let player = me.as_str();
            let question = Asks::WhoseUnits {
                player,
                cleave: granted,
            };
            (question.to_string(), opps.iter().map(option).collect())
        })?;
        let (p, who) = (chosen.value(), self.b.name(chosen.value()));
        let units: Vec<String> = self.b.players[p]
            .units()
            .iter()
            .map(|(_, c)| c.name.to_string())
            .collect();
        let text = Settles::ChoosesPlayer {
            cleave: granted,
            player: &me,
            chosen: &who,
            units: &units.join(", "),
        };
        self.chose(D2_3_1, text, chosen, Chose::DefendingPlayer(&who));
        self.defending = (p, units);
        Ok(true)
    }

    fn attack_target(&mut self) -> Result<bool, Stop> {
        let (me, a, tp) = (self.me.clone(), self.card.name.clone(), self.a.tp);
        let choice = self.choice("target", None, None, (D2_3, "play.target"));
        let chosen = self.choose(choice, self.a.target, |b| {
            let options = cards_of(b, &b.opponents(tp), Player::units);
            // A name two opponents' cards share is given, and read back,
            // with its owner ("Bob's Stalwart Guard"): "X or X" named none.
            let shared = |n: &str| options.iter().filter(|x| x.2 == n).count() > 1;
            let option = |&(p, s, n): &Named| {
                let (owner, role) = (&b.name(p), s.role());
                let (label, said) = match shared(n) {
                    true => {
                        let card = owned_label(b, p, n);
                        (
                            Asks::OwnedTargetOption { card: &card, role }.to_string(),
                            card,
                        )
                    }
                    false => {
                        let label = Asks::TargetOption {
                            card: n,
                            owner,
                            role,
                        };
                        (label.to_string(), n.to_string())
                    }
                };
                Opt::field(label, (p, s), "target", json!(said))
            };
            let question = Asks::WhichTarget {
                player: &me,
                card: &a,
            };
            (question.to_string(), options.iter().map(option).collect())
        })?;
        let (p, s) = chosen.value();
        let (name, owner, role) = (self.b.card_name(p, s), self.b.name(p), s.role());
        if p == tp {
            let why = Fails::OwnTarget {
                player: &me,
                card: &name,
                role,
            };
            let step = self.fail(D2_3, "play.target", why).assume(OWN_TARGET);
            chosen.on(step, &me, Chose::Target(&name).to_string());
            return Ok(false);
        }
        let text = Settles::ChoosesTarget {
            player: &me,
            owner: &owner,
            role,
            card: &name,
        };
        self.chose(D2_3, text, chosen, Chose::Target(&name));
        self.defending = (p, vec![name.clone()]);
        self.target = Some(name);
        Ok(true)
    }

    /// Pays `costs[i]` from the attacking player's reserve, logged, with
    /// its step under `rule`. When the reserve is short the step fails
    /// instead: an error under `short.0` saying `short.1(reserve)`.
    fn pay<'w>(
        &mut self,
        (i, c): (usize, &Cost),
        rule: &str,
        text: impl Into<String>,
        short: (&str, impl FnOnce(u32) -> Fails<'w>),
    ) -> Option<&mut Step> {
        let (have, n) = (*self.b.players[self.a.tp].reserve, *c.reserve);
        let Some(left) = have.checked_sub(n) else {
            let why = short.1(have);
            self.cx.error(short.0, &format!("costs[{i}]"), why);
            let st = self.cx.step(rule, Says::Fails { at: self.at, why });
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
            message: Refusal::Example { source, note }.to_string(),
            rule: Some(rule.into()),
            path: Some(format!("costs[{i}]")),
        });
    }

    /// 2.d: calculated costs, including additional costs.
    fn step_d(&mut self) -> bool {
        let (me, costs) = (self.me.clone(), self.costs(CostKind::Additional));
        self.at = At::D;
        if costs.is_empty() {
            self.cx.step(D2_4, Settles::NoCosts);
        }
        for (i, c) in costs {
            let (source, reserve, player) = (c.source.as_str(), *c.reserve, me.as_str());
            let pays = Settles::PaysAdditional {
                player,
                reserve,
                source,
            };
            let short = |have| Fails::AdditionalShort {
                player,
                source,
                reserve,
                have,
            };
            if self.pay((i, &c), D2_4, pays, (D2_4, short)).is_none() {
                return false;
            }
            self.example(EX2_NOTE, i, source);
        }
        true
    }

    /// 2.e: extra costs (paid, refused or asked), then Taunt and restrictions.
    fn step_e(&mut self) -> Result<bool, Stop> {
        let (mut ok, me, extra) = (true, self.me.clone(), self.costs(CostKind::Extra));
        self.at = At::E;
        self.cx.step(D2_5, Settles::Reconciles { player: &me });
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
                let msg = Refusal::NotApplicable { source: s };
                self.cx.refuse(D2_5_1, &format!("play.{field}[{k}]"), msg);
            }
        }
        Ok(self.restrictions() & ok)
    }

    /// One extra cost: the attacking player's own choice, with no default.
    fn extra_cost(&mut self, i: usize, c: &Cost) -> Result<bool, Stop> {
        let (me, src, n) = (self.me.clone(), &c.source, *c.reserve);
        let what = Extra {
            source: src,
            controller: c.controller.as_deref(),
            reserve: n,
        };
        let player = me.as_str();
        let at = (D2_5_1_1, "play.pay_extra");
        let choice = self.choice(&format!("extra:{src}"), None, None, at);
        let (paid, refused) = (self.a.pay.clone(), self.a.refuse.clone());
        let stated = [&paid, &refused].iter().position(|l| l.contains(src));
        let chosen = self.choose(choice, stated.map(|k| k == 0), |_| {
            let add = |list: &[String]| json!([list, std::slice::from_ref(src)].concat());
            let pay = Opt::field(Asks::Pay(n), true, "pay_extra", add(&paid));
            let refuse = Opt::field(REFUSE, false, "refuse_extra", add(&refused));
            let question = Asks::PayExtra {
                player,
                extra: what,
            };
            (question.to_string(), vec![pay, refuse])
        })?;
        if !chosen.value() {
            let why = Fails::RefusesExtra {
                player,
                extra: what,
            };
            self.fail(D2_5_1_1, "play.refuse_extra", why)
                .chose(player, Chose::NotToPay(src));
            return Ok(false);
        }
        let pays = Settles::PaysExtra {
            player,
            extra: what,
        };
        let short = |have| Fails::ExtraShort {
            player,
            extra: what,
            have,
        };
        let paid = self.pay((i, c), D2_5_1, pays, (D2_5_1_3, short));
        let chose = paid.map(|st| st.chose(player, Chose::ToPay(src)));
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
            let (source, without, want) = (src.as_str(), without.as_str(), want.as_str());
            if let Some(bad) = r.cannot_attack_with.iter().find(|n| self.in_attack(n)) {
                ok = false;
                let path = format!("restrictions[{}].cannot_attack_with", i.unwrap_or_default());
                self.fail(D2_5_1_2, &path, Fails::Forbids { source, card: bad });
            } else if !without.is_empty() {
                self.cx.step(D2_5_1_2, Settles::NotUsed { source, without });
            }
            let step = match self.target.clone() {
                _ if want.is_empty() => continue,
                None => self
                    .cx
                    .step(D2_5_1_2, Settles::NoTarget { source, want })
                    .assume(NO_TARGET),
                Some(t) if r.must_target.contains(&t) => {
                    let target = t.as_str();
                    self.cx.step(D2_5_1_2, Settles::Targets { source, target })
                }
                Some(t) => {
                    ok = false;
                    let target = t.as_str();
                    let why = Fails::MustTarget {
                        source,
                        want,
                        target,
                    };
                    self.fail(D2_5_1_2, "play.target", why)
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
            At::A => Reversal::AtA { card: a },
            _ => Reversal::Illegal { at },
        };
        self.cx.step(rule, text);
        while let Some(u) = self.undo.pop().filter(|_| at != At::A) {
            self.undo_one(u, rule);
        }
        let exact = *self.b == self.before;
        self.cx.step(D2_5_1_3, Reversal::Resumes { checked: exact });
        if !exact {
            self.cx.error_unruled("play", Refusal::NotRestored);
        }
    }

    fn undo_one(&mut self, u: Undo, rule: &str) {
        let (me, a, p) = (&self.me, &self.card.name, &mut self.b.players[self.a.tp]);
        let text = match &u {
            Undo::Choice(at, what) => Reversal::Withdrawn { at: *at, what },
            Undo::Rest => {
                p.card_mut(self.a.attacker)
                    .into_iter()
                    .for_each(|c| c.rested = false);
                Reversal::Awake { card: a }
            }
            Undo::Pending(t) => {
                let waiting = &mut self.b.pending_triggers;
                if let Some(i) = waiting.iter().rposition(|x| x == t) {
                    waiting.remove(i);
                }
                Reversal::NoLongerWaits { trigger: t }
            }
            Undo::Pay(at, n, source) => {
                let (before, n) = (*p.reserve, *n);
                *p.reserve = before + n;
                let text = Reversal::Refund {
                    at: *at,
                    reserve: n,
                    source,
                    player: me,
                };
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
        self.cx.step(D1_1, Declared::Legal);
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
        self.cx.step(GR1, Declared::Enters);
        self.cx.step(GR2, Declared::NoResponse);
        for c in std::iter::once(&self.card).chain(&self.objects) {
            for t in &c.on_attack {
                let (name, controller) = (format!("{}: {t}", c.name), Some(self.me.clone()));
                self.b.effects_stack.push(StackEntry {
                    name,
                    kind: OnAttack,
                    controller,
                });
                let (card, ability) = (c.name.as_str(), t.as_str());
                self.cx.step(GR4, Declared::OnAttack { card, ability });
                self.cx
                    .warn(None, None, NotApplied::OnAttack(card, ability));
            }
        }
        self.cx.step(GR5, Declared::Proceeds);
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
            let question = Asks::Respond {
                defender: &who,
                player: &me,
                card: &a,
            };
            (question.to_string(), options)
        })?;
        let what = stated
            .filter(|s| fold(s) != "respond")
            .unwrap_or(UNNAMED_RESPONSE.into());
        let (player, response) = (who.as_str(), what.as_str());
        let (text, choice) = match chosen.value() {
            false => (Declared::DoesNotRespond { player }, Chose::NotToRespond),
            true => (
                Declared::Responds { player, response },
                Chose::ToRespond(response),
            ),
        };
        // Rule 4 speaks of players; only the defending player is asked,
        // the reading docs/games/grand-archive.md names, stated on the
        // step (it said "Bob responds" unlabelled; found by an outside tester).
        let st = self.cx.step(GR4, text);
        st.assume(ONLY_DEFENDER_RESPONDS);
        chosen.on(st, &who, choice);
        if chosen.value() {
            self.b.effects_stack.push(StackEntry {
                name: what.clone(),
                kind: Other,
                controller: Some(who.clone()),
            });
            let msg = NotApplied::Response(&who, &what);
            self.cx.warn(None, Some("play.response"), msg);
        }
        Ok(())
    }

    /// Rule 1.4: an attempt with an object the player must attack with
    /// answers the obligation, legal or not (the record an illegal attempt keeps).
    fn record_attempt(&mut self, illegal: bool) {
        let (tp, card) = (self.a.tp, &self.card.name);
        mark_attempted(self.b, tp, &self.me, card, illegal, None, self.cx);
    }
}
