//! The activation procedure of `legion:actions`: which unit activates, each
//! step checked against the two-action limit, the no-repeat rule, card and
//! free card actions, free actions and attacks that are not actions, with
//! the abilities that trigger or do not; then, on `end`, whose turn it is.

use serde_json::{Value, json};

use super::board::{Board, From, Grant, Token, Unit, UnitRef, texts};
use super::plays::{After, KINDS, Kind, Op, Play, Source};
use super::rules::*;
use super::wording::{
    Activation, Again, Because, CHOSE_TYPE, Chose, Claimed, DATA_AFTER_GRANTS, DATA_GRANTS,
    FIRST_AND_LAST, FREE_CARD_READING, Fault, Grants, Lapse, May, MayNot, NO_UNIT, NotAnAction,
    Notice, Opening, Performs, Question, REDUCTION_READING, Reading, Repeat, STANDBY_READING,
    STANDBY_UNCOVERED, StepFault, Summary, TYPED_DEFAULT, TokenEntry, Tokens, Trigger, What,
};
use crate::kit::bounded::Name;
use crate::kit::choices::Choice;
use crate::kit::{Asking, Chosen, Cx, Opt, Stop};
use crate::ruling::MAX_OPTIONS;
use crate::text::fold;
use crate::{BoardError, Severity};

/// The running state of one unit's activation.
#[derive(Debug, Clone, Default)]
struct Act {
    u: Unit,
    /// The unit's field path, for warnings.
    path: String,
    player: String,
    avail: u32,
    used: u32,
    free: u32,
    extra: u32,
    /// How each action type was first performed: the rule that makes it
    /// count (`SAME`: an action; `TYPED` / `UNTYPED`: a free action).
    done: [Option<&'static str>; 7],
    cards: Vec<usize>,
    free_cards: Vec<usize>,
    /// Abilities triggered by the last action, not yet used.
    open: Vec<usize>,
    /// Abilities that would have triggered after a non-action, with the rule why not.
    lapsed: Vec<(usize, &'static str)>,
    /// Abilities without a trigger, already used.
    once: Vec<usize>,
    noted_more: bool,
    noted_standby: bool,
}

/// The seat that makes the play: the unit it activates, else the unit
/// activating, else whose turn it is.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    if let Some(a) = play.steps.first().and_then(|s| s.activate.as_deref()) {
        return Ok(b.find(a, "play[0].activate")?.0);
    }
    let seat = b.active_ref().map(|r| r.0).or(b.turn_seat());
    seat.or((b.players.len() == 1).then_some(0))
        .ok_or_else(|| BoardError::semantic("play", NO_UNIT))
}

/// Checks the record of the activation under way (a board error at its
/// path when illegal) and writes it in the board's spelling.
pub fn check_record(u: &mut Unit, path: &str) -> Result<(), BoardError> {
    replay(u, "", path).map(|_| ())
}

/// Replays the record: the activation's state, and what it did as chosen.
fn replay(u: &mut Unit, player: &str, path: &str) -> Result<(Act, Vec<String>), BoardError> {
    let asking = Asking::judge();
    let mut cx = Cx::new(&asking, Vec::new());
    let mut act = Act::new(u, player, path);
    for (i, s) in u.performed.iter_mut().enumerate() {
        let p = format!("{path}.performed[{i}]");
        s.check_shape(&p, false)?;
        act.apply(&s.resolve(&act.u, &p)?, &p, &mut cx);
        if let Some(d) = cx.diags.iter().find(|d| d.severity == Severity::Error) {
            let msg = Fault::RecordIllegal { why: &d.message };
            let rule = d.rule.clone();
            return Err(BoardError {
                rule,
                ..BoardError::semantic(p, msg)
            });
        }
    }
    act.u.tokens = u.tokens.clone();
    act.u.performed = u.performed.clone();
    let done = cx.steps.iter().filter_map(|s| s.choice.as_ref());
    Ok((act, done.map(|c| c.chose.clone()).collect()))
}

/// Runs a play: who activates, the steps, the end of the activation.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let mut steps = play.steps.clone();
    let n = steps.len();
    for (i, s) in steps.iter().enumerate() {
        let path = format!("play[{i}]");
        s.check_shape(&path, true)?;
        if (s.activate.is_some() && i > 0) || (s.end.is_some() && i + 1 < n) {
            return Err(BoardError::semantic(path, FIRST_AND_LAST).into());
        }
    }
    if b.phase != super::board::Phase::Activation {
        let now = super::phase_name(b.phase);
        cx.error(ACT, "phase", Fault::NotActivationPhase { now });
        return Ok(());
    }
    let Some(r) = who(b, play, cx)? else {
        return Ok(());
    };
    if cx.failed() {
        return Ok(());
    }
    let (mut act, history) = replay(&mut b.unit(r).clone(), &b.name(r.0), &b.path(r))?;
    act.opening(&history, cx);
    let end = steps.last().is_some_and(|s| s.end.is_some());
    let first = usize::from(steps.first().is_some_and(|s| s.activate.is_some()));
    for (i, step) in steps
        .iter_mut()
        .enumerate()
        .take(n - usize::from(end))
        .skip(first)
    {
        let path = format!("play[{i}]");
        let mut op = step.resolve(&act.u, &path)?;
        claim_effect(&act, &op, &path, cx);
        let mut chosen = None;
        if let Op::Action {
            kind,
            card,
            free: Some((Source::Effect(_), untyped)),
        } = &mut op
        {
            let what = act.what(*kind, *card);
            let c = choose_untyped((b, play, cx), r.0, i, what, *untyped)?;
            *untyped = Some(c.value());
            chosen = Some(c);
        }
        let at = cx.steps.len();
        act.apply(&op, &path, cx);
        if cx.failed() {
            return Ok(());
        }
        if let (Some(c), Some(st)) = (chosen, cx.steps.get_mut(at)) {
            c.on(st, &act.player, CHOSE_TYPE[usize::from(c.value())]);
        }
        act.u.performed.push(step.clone());
    }
    act.summary(cx);
    *b.unit_mut(r) = act.u;
    if end {
        end_activation(b, r, cx);
    }
    Ok(())
}

/// The unit the play is for, starting its activation when it is a new one.
fn who(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<Option<UnitRef>, Stop> {
    if let Some(a) = play.steps.first().and_then(|s| s.activate.as_deref()) {
        let r = b.find(a, "play[0].activate")?;
        choose_unit(b, r.0, play, Some(r), cx)?;
        if b.active_ref() != Some(r) {
            start(b, r, true, cx);
        }
        return Ok(Some(r));
    }
    if let Some(r) = b.active_ref() {
        return Ok(Some(r));
    }
    let Some(p) = b.turn_seat().or((b.players.len() == 1).then_some(0)) else {
        cx.error_unruled("play", NO_UNIT);
        return Ok(None);
    };
    let r = match b.waiting(p).as_slice() {
        [] => {
            let player = &b.name(p);
            cx.error_unruled("turn", Fault::NoUnitLeft { player });
            return Ok(None);
        }
        [one] => *one,
        _ => choose_unit(b, p, play, None, cx)?.value(),
    };
    start(b, r, false, cx);
    Ok(Some(r))
}

/// The play with its steps changed by `f`, as a merge patch (a list replaces).
fn patched(play: &Play, f: impl FnOnce(&mut Vec<Value>)) -> Value {
    let mut list: Vec<Value> = play.steps.iter().map(|s| json!(s)).collect();
    f(&mut list);
    Value::Array(list)
}

/// Which unit activates: the choice of player `p`, whose unit it is, with
/// no default ("which unit activates?", built when they are asked).
fn choose_unit(
    b: &Board,
    p: usize,
    play: &Play,
    stated: Option<UnitRef>,
    cx: &mut Cx,
) -> Result<Chosen<UnitRef>, Stop> {
    let choice = Choice::new(p, "unit", None, ACT, "play[0].activate");
    choice.settle(cx, stated, || {
        // Only the units the play's steps name what of (a card action):
        // one that cannot make them was offered, and choosing it was
        // refused as an unknown card action, the question left waiting
        // (found by an outside tester). None fits: all, as before.
        let waiting = b.waiting(p);
        let fit: Vec<UnitRef> = waiting
            .iter()
            .copied()
            .filter(|r| fits(b.unit(*r), play))
            .collect();
        let units = if fit.is_empty() { waiting } else { fit };
        let options = units.into_iter().take(MAX_OPTIONS).map(|r| Opt {
            label: Question::Activate {
                unit: &b.unit(r).name,
            }
            .to_string(),
            value: r,
            patch: patched(play, |l| {
                l.retain(|s| s.get("activate").is_none());
                l.insert(0, json!({ "activate": b.unit(r).name }));
            }),
        });
        let player = &b.name(p);
        (
            Question::WhichUnit { player }.to_string(),
            options.collect(),
        )
    })
}

/// Whether unit `u` can make every step of `play` but its `activate` and
/// closing `end` (each names only what `u` has: its card actions, its
/// abilities as sources).
fn fits(u: &Unit, play: &Play) -> bool {
    let steps = &play.steps;
    let end = steps.last().is_some_and(|s| s.end.is_some());
    steps
        .iter()
        .enumerate()
        .take(steps.len() - usize::from(end))
        .filter(|(_, s)| s.activate.is_none())
        .all(|(i, s)| s.clone().resolve(u, &format!("play[{i}]")).is_ok())
}

/// "Does the effect name the free action's type?" (step `i`, `what` it
/// gives): the acting player `p`'s, built when asked.
fn choose_untyped(
    (b, play, cx): (&Board, &Play, &mut Cx),
    p: usize,
    i: usize,
    what: What,
    stated: Option<bool>,
) -> Result<Chosen<bool>, Stop> {
    // Rules 7 and 8 give no default: the unit's player is asked in a match;
    // outside one, the typed reading is assumed (and labelled).
    let default = Some((false, TYPED_DEFAULT));
    let key = format!("untyped:{i}");
    let path = format!("play[{i}].untyped");
    let choice = Choice::new(p, key, default, UNTYPED, path).owners();
    choice.settle(cx, stated, || {
        let opt = |label: String, v: bool| Opt {
            label,
            value: v,
            patch: patched(play, |l| l[i]["untyped"] = json!(v)),
        };
        let player = &b.name(p);
        let question = Question::Untyped { player, what };
        let options = vec![
            opt(Question::OfItsType { what }.to_string(), false),
            opt(Question::WithoutType { what }.to_string(), true),
        ];
        (question.to_string(), options)
    })
}

/// A unit starts its activation (ending the one under way). Another
/// player's unit still activating with actions left keeps the turn: its
/// player ends it (`end`) or uses them first.
fn start(b: &mut Board, r: UnitRef, named: bool, cx: &mut Cx) {
    if let Some(q) = b.active_ref() {
        if q.0 != r.0
            && let Some(left) = actions_left(b, q).filter(|n| *n > 0)
        {
            let (unit, owner) = (&b.unit(q).name, &b.name(q.0));
            let e = Fault::StillActivating { unit, owner, left };
            cx.error_unruled("play[0].activate", e);
            return;
        }
        end_activation(b, q, cx);
    }
    let (player, name) = (b.name(r.0), b.unit(r).name.clone());
    if let Some(t) = b.turn_seat().filter(|t| *t != r.0) {
        let (due, player) = (&b.name(t), &player);
        cx.error_unruled("play[0].activate", Fault::NotTheirTurn { due, player });
    } else if b.unit(r).activated {
        cx.error_unruled("play[0].activate", Fault::Activated { unit: &name });
    }
    b.unit_mut(r).activated = true;
    b.active = Some(name.to_string());
    b.turn = Some(player.clone());
    let (unit, only) = (name.as_str(), !named);
    let text = Activation::Activates {
        player: &player,
        unit,
        only,
    };
    cx.step(ACT, text).chose(&player, Chose::Activate { unit });
}

/// Actions the activating unit `q` has left, as its record says.
fn actions_left(b: &Board, q: UnitRef) -> Option<u32> {
    let mut u = b.unit(q).clone();
    let (act, _) = replay(&mut u, "", "").ok()?;
    Some(act.avail.saturating_sub(act.used))
}

/// The activation ends; the next player with a unit to activate has the turn.
fn end_activation(b: &mut Board, r: UnitRef, cx: &mut Cx) {
    let n = b.players.len();
    b.unit_mut(r).performed.clear();
    b.active = None;
    let next = (1..=n)
        .map(|k| (r.0 + k) % n)
        .find(|p| !b.waiting(*p).is_empty());
    b.turn = next.map(|p| b.name(p));
    let next = b.turn.as_deref();
    let unit = &b.unit(r).name;
    cx.note(Some("turn"), Notice::ActivationEnds { unit, next });
}

impl Act {
    fn new(u: &Unit, player: &str, path: &str) -> Act {
        let cut = u.cut();
        let u = Unit {
            performed: Default::default(),
            ..u.clone()
        };
        let avail = u.actions.unwrap_or(2u32.saturating_sub(cut));
        let (path, player) = (path.to_string(), player.to_string());
        Act {
            u,
            path,
            player,
            avail,
            ..Act::default()
        }
    }

    fn src(&self, s: &Source) -> String {
        match s {
            Source::Ability(i) => self.u.abilities[*i].name.to_string(),
            Source::Effect(e) => e.clone(),
        }
    }

    /// `attack action`, `card action Force Choke`.
    fn what(&self, kind: Kind, card: Option<usize>) -> What<'_> {
        let card = card.map(|c| self.u.card_actions[c].as_str());
        What { kind, card }
    }

    /// The opening steps: actions available, card actions, the record so
    /// far, tokens from effects.
    fn opening(&self, history: &[String], cx: &mut Cx) {
        let (unit, avail) = (self.u.name.as_str(), self.avail);
        let cut = self.u.cut();
        if cut > 0 {
            let reductions: Vec<(u32, &str)> = self
                .u
                .reduced_by
                .iter()
                .map(|r| (r.amount, r.source.trim()))
                .collect();
            let text = Opening::Reduced {
                unit,
                avail,
                cut,
                reductions: &reductions,
            };
            cx.step(REDUCED, text)
                .num("actions", 2)
                .num("reduced by", cut)
                .num("actions available", avail)
                .assume(REDUCTION_READING);
        } else if avail < 2 {
            cx.step(REDUCED, Opening::Fewer { unit, avail })
                .num("actions available", avail)
                .assume(REDUCTION_READING);
        } else {
            cx.step(TWO, Opening::Two { unit })
                .num("actions available", avail);
        }
        for (i, a) in self.u.abilities.iter().enumerate() {
            if a.after.is_none() && matches!(a.grants, None | Some(Grant::Nothing)) {
                self.unapplied(i, DATA_AFTER_GRANTS, cx);
            }
        }
        if !self.u.card_actions.is_empty() {
            let cards = &texts(&self.u.card_actions);
            cx.step(CARD, Opening::CardActions { unit, cards });
        }
        if !history.is_empty() {
            cx.step(TWO, Opening::Already { history })
                .num("actions used", self.used)
                .num("free actions", self.free);
        }
        for t in &self.u.tokens {
            let (Some(From::Effect | From::Ability), kind) = (t.source, t.kind) else {
                continue;
            };
            let by = t.name.as_ref().map_or("an effect", |n| n.as_str());
            // Not while no action is left (a reduction to 0): only free
            // actions remain, as the opening step says.
            let may_still = self.done[kind as usize].is_none() && self.used < avail;
            let text = Opening::HasToken {
                unit,
                kind,
                by,
                may_still,
            };
            cx.step(TOKEN, text);
        }
    }

    /// Warns that ability `i`'s card text is not applied, only `data`.
    fn unapplied(&self, i: usize, data: &str, cx: &mut Cx) {
        let a = &self.u.abilities[i];
        let path = format!("{}.abilities[{i}]", self.path);
        let w = Notice::AbilityText {
            ability: &a.name,
            text: a.text.as_ref().map(|t| t.as_str()),
            data,
        };
        cx.warn(None, Some(&path), w);
    }

    /// Whether an ability used as a source is available now (errors say why not).
    fn source_ok(&self, src: &Source, path: &str, cx: &mut Cx) -> bool {
        let Source::Ability(i) = src else { return true };
        let (a, unit) = (&self.u.abilities[*i], self.u.name.as_str());
        let ability = a.name.as_str();
        match a.after.map(After::kind) {
            Some(_) if self.open.contains(i) => return true,
            Some(after) => match self.lapsed.iter().find(|(j, _)| j == i) {
                Some((_, NOT_ACTION)) => {
                    cx.error(NOT_ACTION, path, StepFault::AttackNotAction { ability })
                }
                Some((_, rule)) => cx.error(rule, path, StepFault::TokenNotAction { ability }),
                None => {
                    let e = StepFault::NotOpen {
                        ability,
                        after,
                        unit,
                    };
                    cx.error_unruled(path, e)
                }
            },
            None if self.once.contains(i) => {
                cx.error_unruled(path, StepFault::UsedOnce { ability })
            }
            None => return true,
        }
        false
    }

    fn consume(&mut self, src: &Source) {
        if let Source::Ability(i) = src {
            self.open.retain(|j| j != i);
            if self.u.abilities[*i].after.is_none() {
                self.once.push(*i);
            }
        }
    }

    /// Opens the triggers of abilities after an action of `kind`, performed
    /// as an action (`via` None) or as a free (card) action under `via`.
    fn after_action(&mut self, kind: Kind, via: Option<&'static str>, cx: &mut Cx) {
        self.open.clear();
        self.lapsed.clear();
        for (i, a) in self.u.abilities.iter().enumerate() {
            let Some(t) = a
                .after
                .map(After::kind)
                .filter(|t| t.is_none_or(|t| t == kind))
            else {
                continue;
            };
            self.open.push(i);
            let (rule, why) = match via {
                Some(FREE_CARD) => (FREE_CARD_EACH, Because::FreeCard),
                Some(rule) => (rule, Because::Free),
                None => (
                    match (a.grants, a.free_type()) {
                        (Some(Grant::FreeAction), Some(_)) => TYPED,
                        (Some(Grant::FreeAction), None) => UNTYPED,
                        (Some(Grant::ExtraAttack), _) => NOT_ACTION,
                        (Some(Grant::Token), _) => TOKEN,
                        _ => kind.rule(),
                    },
                    Because::After(t),
                ),
            };
            let grant = match (a.grants, a.free_type(), a.token) {
                (Some(Grant::FreeAction), Some(k), _) => Grants::FreeOf(k),
                (Some(Grant::FreeAction), None, _) => Grants::FreeAny,
                (Some(Grant::ExtraAttack), ..) => Grants::ExtraAttack,
                (Some(Grant::Token), _, Some(k)) => Grants::Token(k),
                _ => {
                    self.unapplied(i, DATA_GRANTS, cx);
                    Grants::Unapplied
                }
            };
            let text = Trigger::Triggers {
                ability: &a.name,
                unit: &self.u.name,
                why,
                grant,
            };
            let st = cx.step(rule, text);
            if via == Some(FREE_CARD) {
                st.assume(FREE_CARD_READING);
            }
        }
    }

    /// Abilities that do not trigger after a non-action (`rule`, `why`).
    fn not_triggered(&mut self, kind: Kind, rule: &'static str, why: Lapse, cx: &mut Cx) {
        for (i, a) in self.u.abilities.iter().enumerate() {
            let t = a.after.map(After::kind);
            if t.is_some_and(|t| t.is_none_or(|t| t == kind)) && !self.open.contains(&i) {
                self.lapsed.push((i, rule));
                let ability = &a.name;
                cx.step(rule, Trigger::NotTriggered { ability, why });
            }
        }
    }

    /// Records a performed step: actions used, one more number, the choice.
    fn record(
        &self,
        cx: &mut Cx,
        rule: &str,
        text: impl Into<String>,
        num: (&str, u32),
        what: impl Into<String>,
    ) {
        cx.step(rule, text)
            .num("actions used", self.used)
            .num(num.0, num.1)
            .chose(&self.player, what);
    }

    /// After an action: more than two, attack and standby, the triggers.
    fn acted(&mut self, kind: Kind, via: Option<&'static str>, path: &str, cx: &mut Cx) {
        let (total, unit) = (self.used + self.free, self.u.name.as_str());
        if total > 2 && !self.noted_more {
            self.noted_more = true;
            cx.step(MORE, Activation::More { unit, total })
                .num("actions performed", total);
        }
        let attacked = self.done[Kind::Attack as usize].is_some() || self.extra > 0;
        if attacked && self.done[Kind::Standby as usize].is_some() && !self.noted_standby {
            self.noted_standby = true;
            cx.step(SAME, Activation::AttackAndStandby { unit })
                .assume(STANDBY_READING);
            cx.warn(None, Some(path), STANDBY_UNCOVERED);
        }
        if via != Some(NOT_ACTION) {
            self.after_action(kind, via, cx);
        }
    }

    /// Adds a token; returns how many of that kind the unit now has.
    fn gain(&mut self, kind: Kind, source: From, name: Option<String>) -> u32 {
        let source = Some(source);
        let name = name.map(Name);
        self.u.tokens.push(Token { kind, source, name });
        self.u.tokens.iter().filter(|t| t.kind == kind).count() as u32
    }

    /// Whether `kind` may be performed now (`free`: as a free action,
    /// typed or not); errors say which rule forbids it.
    fn allowed(
        &self,
        kind: Kind,
        card: Option<usize>,
        free: Option<bool>,
        path: &str,
        cx: &mut Cx,
    ) -> bool {
        let (unit, used, avail) = (self.u.name.as_str(), self.used, self.avail);
        let left = avail.saturating_sub(used);
        if free.is_none() && left == 0 {
            let reduced = avail < 2;
            let rule = if reduced { REDUCED } else { TWO };
            let e = StepFault::NoActionsLeft {
                unit,
                used,
                avail,
                reduced,
            };
            cx.error(rule, path, e);
            return false;
        }
        if let Some(c) = card.filter(|c| self.cards.contains(c)) {
            let card = &self.u.card_actions[c];
            cx.error(CARD_EACH, path, StepFault::CardAgain { unit, card });
            return false;
        }
        let Some(first) = self.done[kind as usize].filter(|_| kind != Kind::Move) else {
            return true;
        };
        let rule = match free {
            Some(true) => TYPED,
            Some(false) => UNTYPED,
            None => first,
        };
        let e = Repeat {
            unit,
            kind,
            free,
            first,
            left,
            avail,
        };
        cx.error(rule, path, StepFault::Repeat(e));
        false
    }

    /// Applies one step; an illegal one records an error and changes nothing.
    fn apply(&mut self, op: &Op, path: &str, cx: &mut Cx) {
        let name = self.u.name.clone();
        let unit = name.as_str();
        match op {
            Op::Action { kind, card, free } => self.action(*kind, *card, free.as_ref(), path, cx),
            Op::FreeCard(i) => {
                let card = self.u.free_card_actions[*i].clone();
                let card = card.as_str();
                if self.free_cards.contains(i) {
                    cx.error(
                        FREE_CARD_EACH,
                        path,
                        StepFault::FreeCardAgain { unit, card },
                    );
                    return;
                }
                let first = self.free_cards.is_empty();
                let rule = if first { FREE_CARD } else { FREE_CARD_EACH };
                self.free_cards.push(*i);
                self.free += 1;
                let text = Performs::FreeCard {
                    unit,
                    card,
                    first,
                    used: self.used,
                };
                let num = ("free actions", self.free);
                self.record(cx, rule, text, num, Chose::FreeCard { card });
                if self.twin_card(card) {
                    let last = cx.steps.len() - 1;
                    cx.steps[last].assume(Reading::SameNameCards(card));
                }
                let w = Notice::CardText { card, free: true };
                cx.warn(None, Some(path), w);
                self.acted(Kind::Card, Some(FREE_CARD), path, cx);
            }
            Op::ExtraAttack(src) | Op::Gain(_, src) if !self.source_ok(src, path, cx) => {}
            Op::ExtraAttack(src) => {
                self.consume(src);
                self.extra += 1;
                let source = &self.src(src);
                let text = NotAnAction::ExtraAttack {
                    unit,
                    source,
                    avail: self.avail,
                    used: self.used,
                    before: self.done[Kind::Attack as usize],
                };
                let num = ("attacks that are not actions", self.extra);
                self.record(cx, NOT_ACTION, text, num, Chose::ExtraAttack { source });
                self.acted(Kind::Attack, Some(NOT_ACTION), path, cx);
                self.not_triggered(Kind::Attack, NOT_ACTION, Lapse::ExtraAttack, cx);
            }
            Op::Gain(kind, src) => self.gain_from(*kind, src, cx),
        }
    }

    /// A token gained from an effect or ability (not an action).
    fn gain_from(&mut self, kind: Kind, src: &Source, cx: &mut Cx) {
        self.consume(src);
        let source = self.src(src);
        let from = if matches!(src, Source::Ability(_)) {
            From::Ability
        } else {
            From::Effect
        };
        let n = self.gain(kind, from, Some(source.clone()));
        let (unit, source) = (self.u.name.as_str(), source.as_str());
        let text = NotAnAction::Gains {
            unit,
            kind,
            source,
            may_still: self.done[kind as usize].is_none() && self.used < self.avail,
        };
        cx.step(TOKEN, text)
            .num(&Tokens(kind).to_string(), n)
            .chose(&self.player, Chose::Gain { kind, source });
        self.not_triggered(kind, TOKEN, Lapse::Token(kind), cx);
    }

    /// An action, or a free action (`free`: its source and whether it is typed).
    fn action(
        &mut self,
        kind: Kind,
        card: Option<usize>,
        free: Option<&(Source, Option<bool>)>,
        path: &str,
        cx: &mut Cx,
    ) {
        let name = self.u.name.clone();
        let card_name = card.map(|c| self.u.card_actions[c].to_string());
        let (unit, card_name) = (name.as_str(), card_name.as_deref());
        let what = What {
            kind,
            card: card_name,
        };
        let typed = free.map(|f| f.1 != Some(true));
        if let Some((src, _)) = free {
            if !self.source_ok(src, path, cx) {
                return;
            }
            if let Source::Ability(i) = src
                && let Some(typ) = self.u.abilities[*i].free_type().filter(|t| *t != kind)
            {
                let ability = &self.u.abilities[*i].name;
                cx.error(TYPED, path, StepFault::WrongType { ability, typ, what });
                return;
            }
        }
        if !self.allowed(kind, card, typed, path, cx) {
            return;
        }
        let (token, at) = (kind.is_token(), cx.steps.len());
        let rule = match free {
            None => self.counted(unit, what, token, cx),
            Some((src, _)) => self.free_one(unit, what, src, typed == Some(true), token, cx),
        };
        if token {
            let n = self.gain(kind, From::Action, None);
            cx.steps[at]
                .num(&Tokens(kind).to_string(), n)
                .assume(TokenEntry(kind));
        }
        if let Some(c) = card.filter(|c| self.twin_free(*c)) {
            let card = &self.u.card_actions[c];
            cx.steps[at].assume(Reading::SameNameCards(card));
        }
        self.performed(card, kind, typed, path, cx);
        if let Some((src, _)) = free {
            self.consume(src);
        }
        self.acted(kind, free.map(|_| rule), path, cx);
    }

    /// Records an action that counts against the unit's actions; its rule.
    fn counted(&mut self, unit: &str, what: What, token: bool, cx: &mut Cx) -> &'static str {
        let again = match (what.kind, what.card) {
            (Kind::Move, _) if self.done[0].is_some() => Again::Move,
            (_, Some(_)) if !self.cards.is_empty() => Again::OtherCard,
            _ => Again::No,
        };
        self.used += 1;
        let rule = match again {
            Again::Move => SAME,
            Again::OtherCard => CARD_EACH,
            Again::No => what.kind.rule(),
        };
        let text = Performs::Action {
            unit,
            what,
            used: self.used,
            avail: self.avail,
            again,
            token,
        };
        self.record(cx, rule, text, ("actions available", self.avail), what);
        rule
    }

    /// Records a free action from `src`, of its type (`typed`) or not; its rule.
    fn free_one(
        &mut self,
        unit: &str,
        what: What,
        src: &Source,
        typed: bool,
        token: bool,
        cx: &mut Cx,
    ) -> &'static str {
        self.free += 1;
        let source = &self.src(src);
        let text = Performs::Free {
            unit,
            what,
            source,
            typed,
            avail: self.avail,
            used: self.used,
            token,
        };
        let rule = if typed { TYPED } else { UNTYPED };
        let chose = Chose::Free {
            what,
            source,
            typed,
        };
        self.record(cx, rule, text, ("free actions", self.free), chose);
        rule
    }

    /// A free card action of card action `c`'s name was performed.
    fn twin_free(&self, c: usize) -> bool {
        let name = fold(&self.u.card_actions[c]);
        let free = &self.u.free_card_actions;
        self.free_cards.iter().any(|&i| fold(&free[i]) == name)
    }

    /// A card action named `card` was performed.
    fn twin_card(&self, card: &str) -> bool {
        let name = fold(card);
        let cards = &self.u.card_actions;
        self.cards.iter().any(|&i| fold(&cards[i]) == name)
    }

    /// After an action: the card action performed, or how the action type
    /// was first performed (`typed`: as a free action, typed or not).
    fn performed(
        &mut self,
        card: Option<usize>,
        kind: Kind,
        typed: Option<bool>,
        path: &str,
        cx: &mut Cx,
    ) {
        if let Some(c) = card {
            let card = &self.u.card_actions[c];
            cx.warn(None, Some(path), Notice::CardText { card, free: false });
            self.cards.push(c);
        } else if kind != Kind::Card {
            self.done[kind as usize].get_or_insert(match typed {
                None => SAME,
                Some(true) => TYPED,
                Some(false) => UNTYPED,
            });
        }
    }

    /// Where the activation stands: actions left, what they may be, abilities still open.
    fn summary(&self, cx: &mut Cx) {
        let left = self.avail.saturating_sub(self.used);
        let (mut may, mut not) = (Vec::new(), Vec::new());
        if left > 0 {
            for k in KINDS[..6].iter().copied() {
                match self.done[k as usize].filter(|_| k != Kind::Move) {
                    Some(first) => not.push(MayNot::Kind(k, first)),
                    None => may.push(May::Kind(k)),
                }
            }
            for (i, c) in self.u.card_actions.iter().enumerate() {
                match self.cards.contains(&i) {
                    true => not.push(MayNot::Card(c.as_str())),
                    false => may.push(May::Card(c.as_str())),
                }
            }
        }
        let open = self.open.iter();
        let text = Summary {
            unit: &self.u.name,
            used: self.used,
            avail: self.avail,
            free: self.free,
            extra: self.extra,
            may,
            not,
            open: open.map(|i| self.u.abilities[*i].name.as_str()).collect(),
        };
        let rule = if left == 0 { MORE } else { SAME };
        cx.step(rule, text)
            .num("actions used", self.used)
            .num("actions left", left)
            .num("free actions", self.free);
    }
}

/// A step granted by an effect the board does not record: the procedure
/// takes it on the play's word, so it is claimed (before a question on
/// the way stops the procedure). An ability's grant is on the board.
fn claim_effect(act: &Act, op: &Op, path: &str, cx: &mut Cx) {
    let unit = act.u.name.as_str();
    // A token an effect gives is 'different than performing an aim, dodge,
    // or standby action' (actions.10): that passage, not the two actions'.
    let rule = match op {
        Op::Gain(..) => TOKEN,
        _ => TWO,
    };
    let claim = match op {
        Op::Action {
            kind,
            card,
            free: Some((Source::Effect(effect), _)),
        } => Claimed::FreeAction {
            effect,
            unit,
            what: act.what(*kind, *card),
        },
        Op::ExtraAttack(Source::Effect(effect)) => Claimed::ExtraAttack { effect, unit },
        Op::Gain(kind, Source::Effect(effect)) => Claimed::Token {
            effect,
            unit,
            kind: *kind,
        },
        _ => return,
    };
    cx.claim(&format!("{path}.effect"), rule, claim);
}
