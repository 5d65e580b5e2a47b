//! The activation procedure of `legion:actions`: which unit activates, each
//! step checked against the two-action limit, the no-repeat rule, card and
//! free card actions, free actions and attacks that are not actions, with
//! the abilities that trigger or do not; then, on `end`, whose turn it is.

use serde_json::{Value, json};

use super::board::{Board, From, Grant, Token, Unit, UnitRef, texts};
use super::plays::{After, KINDS, Kind, Op, Play, Source};
use super::rules::*;
use crate::kit::bounded::Name;
use crate::kit::choices::Choice;
use crate::kit::{Asking, Chosen, Cx, Opt, Stop};
use crate::ruling::MAX_OPTIONS;
use crate::text::count;
use crate::{BoardError, Severity};

const FREE_CARD_READING: &str = "the indexed text calls each free card action 'a unique action' but does not say whether it triggers abilities that occur after actions; read as: it does (the other reading, that it does not, is not applied)";
const STANDBY_READING: &str = "whether a unit may attack and perform a standby action in the same activation is not covered by the indexed rules; the ruling allows it under the indexed text only (they are different actions; the other reading, that they exclude each other, would come from the Standby entry of the full rules)";
const REDUCTION_READING: &str = "the size of each reduction comes from the board; the indexed text says suppression and damage can reduce the actions but not by how much";
const TYPED_DEFAULT: &str = "the effect names the type of the free action, as `free_action` says (legion:actions.7); if it gives a free action without a type, add `untyped: true` (legion:actions.8)";
const NO_UNIT: &str = "no unit is activating and the board does not say whose turn it is: start the play with `activate UNIT`";

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
            let msg = format!("the activation so far is not legal: {}", d.message);
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
            let msg = "`activate` is the first step of a play and `end` the last";
            return Err(BoardError::semantic(path, msg).into());
        }
    }
    if b.phase != super::board::Phase::Activation {
        let now = super::phase_name(b.phase);
        cx.error(ACT, "phase", format!("units perform actions during the Activation Phase; the board is in the {now} (move on with `advance`)"));
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
            let what = [
                "a free action of the type the effect names",
                "a free action without a type",
            ];
            c.on(st, &act.player, what[usize::from(c.value())]);
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
            let who = b.name(p);
            cx.error_unruled(
                "turn",
                format!("{who} has no unit left to activate this round"),
            );
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
        let options = b.waiting(p).into_iter().take(MAX_OPTIONS).map(|r| Opt {
            label: format!("activate {}", b.unit(r).name),
            value: r,
            patch: patched(play, |l| {
                l.retain(|s| s.get("activate").is_none());
                l.insert(0, json!({ "activate": b.unit(r).name }));
            }),
        });
        (
            format!("{}: which unit activates?", b.name(p)),
            options.collect(),
        )
    })
}

/// "Does the effect name the free action's type?" (step `i`, `what` it
/// gives): the acting player `p`'s, built when asked.
fn choose_untyped(
    (b, play, cx): (&Board, &Play, &mut Cx),
    p: usize,
    i: usize,
    what: String,
    stated: Option<bool>,
) -> Result<Chosen<bool>, Stop> {
    let default = Some((false, TYPED_DEFAULT));
    let choice = Choice::new(
        p,
        format!("untyped:{i}"),
        default,
        UNTYPED,
        format!("play[{i}].untyped"),
    );
    choice.settle(cx, stated, || {
        let opt = |label: String, v: bool| Opt {
            label,
            value: v,
            patch: patched(play, |l| l[i]["untyped"] = json!(v)),
        };
        let question = format!(
            "{}: does the effect give a free action of its type, {what}, or a free action without a type?",
            b.name(p)
        );
        let options = vec![
            opt(format!("a free action of its type: {what}"), false),
            opt(
                format!("a free action without a type, used as {what}"),
                true,
            ),
        ];
        (question, options)
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
            let (unit, owner) = (b.unit(q).name.clone(), b.name(q.0));
            let actions = if left == 1 { "action" } else { "actions" };
            cx.error_unruled("play[0].activate", format!("{unit} ({owner}'s) is still activating with {left} {actions} left: only {owner} moves on, with `end` or by using them (players take turns activating units: outside the indexed rules)"));
            return;
        }
        end_activation(b, q, cx);
    }
    let (player, name) = (b.name(r.0), b.unit(r).name.clone());
    if let Some(t) = b.turn_seat().filter(|t| *t != r.0) {
        let due = b.name(t);
        cx.error_unruled("play[0].activate", format!("it is {due}'s turn to activate a unit, not {player}'s (players take turns activating units: outside the indexed rules)"));
    } else if b.unit(r).activated {
        cx.error_unruled("play[0].activate", format!("{name} has already activated this round (each unit activates once a round: outside the indexed rules)"));
    }
    b.unit_mut(r).activated = true;
    b.active = Some(name.to_string());
    b.turn = Some(player.clone());
    let how = match named {
        true => String::new(),
        false => format!(" (the only unit of {player} that has not activated)"),
    };
    cx.step(ACT, format!("{player} activates {name}{how}: during the Activation Phase, each unit can perform actions"))
        .chose(&player, format!("to activate {name}"));
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
    let then = match next {
        Some(p) => format!("{} activates a unit next", b.name(p)),
        None => "every unit has activated: the Activation Phase can end (`advance`)".into(),
    };
    let name = &b.unit(r).name;
    cx.note(Some("turn"), format!("{name}'s activation ends; {then} (ending an activation and taking turns are outside the indexed rules: the Actions text covers what a unit does while activated)"));
}

fn after_text(t: Option<Kind>) -> String {
    match t {
        None => "any action".into(),
        Some(Kind::Card) => "a card action".into(),
        Some(k) => format!("{} action", k.a()),
    }
}

/// How an action type first performed counts, as the rule says.
fn how(rule: &str) -> &'static str {
    match rule {
        SAME => "as one of its actions",
        TYPED => "as a free action of that type, which is considered an action for game effects",
        _ => "as an untyped free action, which is considered an action for game effects",
    }
}

impl Act {
    fn new(u: &Unit, player: &str, path: &str) -> Act {
        let cut: u32 = u.reduced_by.iter().map(|r| r.amount).sum();
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

    fn actions(&self) -> String {
        count(self.avail as usize, "action")
    }

    fn src(&self, s: &Source) -> String {
        match s {
            Source::Ability(i) => self.u.abilities[*i].name.to_string(),
            Source::Effect(e) => e.clone(),
        }
    }

    /// `attack action`, `card action Force Choke`.
    fn what(&self, k: Kind, card: Option<usize>) -> String {
        match card {
            Some(c) => format!("card action {}", self.u.card_actions[c]),
            None => format!("{} action", k.name()),
        }
    }

    /// The opening steps: actions available, card actions, the record so
    /// far, tokens from effects.
    fn opening(&self, history: &[String], cx: &mut Cx) {
        let (name, n, acts) = (&self.u.name, self.avail, self.actions());
        let rest = match n {
            0 => "; only free actions, free card actions and attacks that are not actions remain",
            _ => "",
        };
        let cut: u32 = self.u.reduced_by.iter().map(|r| r.amount).sum();
        if cut > 0 {
            let why: Vec<String> = self
                .u
                .reduced_by
                .iter()
                .map(|r| format!("{} for {}", r.amount, r.source.trim()))
                .collect();
            let why = why.join("; ");
            cx.step(
                REDUCED,
                format!("{name} is activated with {acts}: two, reduced by {cut} ({why}){rest}"),
            )
            .num("actions", 2)
            .num("reduced by", cut)
            .num("actions available", n)
            .assume(REDUCTION_READING);
        } else if n < 2 {
            cx.step(REDUCED, format!("{name} is activated with {acts}, as the board gives (fewer than two; no source given){rest}"))
                .num("actions available", n)
                .assume(REDUCTION_READING);
        } else {
            cx.step(
                TWO,
                format!("{name} is activated: it can perform two actions"),
            )
            .num("actions available", n);
        }
        for (i, a) in self.u.abilities.iter().enumerate() {
            if a.after.is_none() && matches!(a.grants, None | Some(Grant::Nothing)) {
                self.unapplied(i, "`after` and `grants`", cx);
            }
        }
        if !self.u.card_actions.is_empty() {
            let cards = texts(&self.u.card_actions).join(", ");
            cx.step(CARD, format!("card actions of {name}: {cards} (each ability preceded by the card action icon is a card action)"));
        }
        if !history.is_empty() {
            cx.step(
                TWO,
                format!("already this activation: {}", history.join("; ")),
            )
            .num("actions used", self.used)
            .num("free actions", self.free);
        }
        for t in &self.u.tokens {
            let (Some(From::Effect | From::Ability), k) = (t.source, t.kind) else {
                continue;
            };
            let by = t.name.as_ref().map_or("an effect", |n| n.as_str());
            let still = match self.done[k as usize] {
                None => format!("; {name} may still perform {} action", k.a()),
                Some(_) => String::new(),
            };
            cx.step(TOKEN, format!("{name} has {0} token from {by}: gaining it was not performing {0} action{still}", k.a()));
        }
    }

    /// Warns that ability `i`'s card text is not applied, only `data`.
    fn unapplied(&self, i: usize, data: &str, cx: &mut Cx) {
        let a = &self.u.abilities[i];
        let text = a.text.as_ref().map(|t| format!(": '{t}'"));
        let path = format!("{}.abilities[{i}]", self.path);
        cx.warn(
            None,
            Some(&path),
            format!(
                "card text not applied: {}{} (the engine applies an ability's data: {data})",
                a.name,
                text.unwrap_or_default()
            ),
        );
    }

    /// Whether an ability used as a source is available now (errors say why not).
    fn source_ok(&self, src: &Source, path: &str, cx: &mut Cx) -> bool {
        let Source::Ability(i) = src else { return true };
        let (a, name) = (&self.u.abilities[*i], &self.u.name);
        match a.after.map(After::kind) {
            Some(_) if self.open.contains(i) => return true,
            Some(t) => match self.lapsed.iter().find(|(j, _)| j == i) {
                Some((_, NOT_ACTION)) => cx.error(NOT_ACTION, path, format!("{} did not trigger: the attack before it was not an action, and such an attack does not trigger abilities that occur after actions", a.name)),
                Some((_, rule)) => cx.error(rule, path, format!("{} did not trigger: gaining a token from an effect is not performing that action, so it does not trigger abilities that occur after that action", a.name)),
                None => cx.error_unruled(path, format!("{} triggers after {} (its data on the board), and {name} has not just performed one, or has already used it", a.name, after_text(t))),
            },
            None if self.once.contains(i) => cx.error_unruled(path, format!("{} has already been used this activation (an ability without a trigger is read as usable once)", a.name)),
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
                Some(FREE_CARD) => (FREE_CARD_EACH, "a free card action is an action".into()),
                Some(rule) => (
                    rule,
                    "a free action is considered an action for the purposes of game effects".into(),
                ),
                None => (
                    match (a.grants, a.free_type()) {
                        (Some(Grant::FreeAction), Some(_)) => TYPED,
                        (Some(Grant::FreeAction), None) => UNTYPED,
                        (Some(Grant::ExtraAttack), _) => NOT_ACTION,
                        (Some(Grant::Token), _) => TOKEN,
                        _ => kind.rule(),
                    },
                    format!("after {}", after_text(t)),
                ),
            };
            let grant = match (a.grants, a.free_type(), a.token) {
                (Some(Grant::FreeAction), Some(k), _) => {
                    format!("may perform a free {} action", k.name())
                }
                (Some(Grant::FreeAction), None, _) => {
                    "may perform a free action of any type it could normally perform".into()
                }
                (Some(Grant::ExtraAttack), ..) => {
                    "may perform an attack that is not an action".into()
                }
                (Some(Grant::Token), _, Some(k)) => format!("may gain {} token", k.a()),
                _ => {
                    let data = "`grants` free_action, extra_attack or token";
                    self.unapplied(i, data, cx);
                    "what its card says happens is not applied".into()
                }
            };
            let st = cx.step(
                rule,
                format!("{} triggers ({why}): {} {grant}", a.name, self.u.name),
            );
            if via == Some(FREE_CARD) {
                st.assume(FREE_CARD_READING);
            }
        }
    }

    /// Abilities that do not trigger after a non-action (`rule` says why).
    fn not_triggered(&mut self, kind: Kind, rule: &'static str, why: &str, cx: &mut Cx) {
        for (i, a) in self.u.abilities.iter().enumerate() {
            let t = a.after.map(After::kind);
            if t.is_some_and(|t| t.is_none_or(|t| t == kind)) && !self.open.contains(&i) {
                self.lapsed.push((i, rule));
                cx.step(rule, format!("{} does not trigger: {why}", a.name));
            }
        }
    }

    /// Records a performed step: actions used, one more number, the choice.
    fn record(&self, cx: &mut Cx, rule: &str, text: String, num: (&str, u32), what: String) {
        cx.step(rule, text)
            .num("actions used", self.used)
            .num(num.0, num.1)
            .chose(&self.player, what);
    }

    /// After an action: more than two, attack and standby, the triggers.
    fn acted(&mut self, kind: Kind, via: Option<&'static str>, path: &str, cx: &mut Cx) {
        let (total, name) = (self.used + self.free, self.u.name.clone());
        if total > 2 && !self.noted_more {
            self.noted_more = true;
            cx.step(MORE, format!("{name} has now performed {total} actions this activation: more than two, through free actions"))
                .num("actions performed", total);
        }
        let attacked = self.done[Kind::Attack as usize].is_some() || self.extra > 0;
        if attacked && self.done[Kind::Standby as usize].is_some() && !self.noted_standby {
            self.noted_standby = true;
            cx.step(SAME, format!("{name} has both attacked and performed a standby action this activation; attack and standby are different actions, so the rule against repeating an action does not forbid it"))
                .assume(STANDBY_READING);
            cx.warn(None, Some(path), "not covered by the indexed rules: attack and standby in one activation (the indexed 'Actions' text neither allows nor forbids it; check the Standby entry of the full rules)");
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
        let (name, acts, left) = (
            &self.u.name,
            self.actions(),
            self.avail.saturating_sub(self.used),
        );
        if free.is_none() && left == 0 {
            let (rule, why) = match self.avail {
                0 | 1 => (
                    REDUCED,
                    format!("its actions are reduced to {}", self.avail),
                ),
                _ => (
                    TWO,
                    "a unit performs two actions when activated".to_string(),
                ),
            };
            let nth = ["a first", "a second", "a third", "a fourth"]
                .get(self.used as usize)
                .map_or("another", |s| s);
            cx.error(rule, path, format!("{name} has already used {} of its {acts} this activation ({why}); {nth} action is not allowed, only free actions, free card actions or attacks that are not actions", self.used));
            return false;
        }
        if let Some(c) = card.filter(|c| self.cards.contains(c)) {
            let card = &self.u.card_actions[c];
            cx.error(CARD_EACH, path, format!("{name} has already performed the card action {card} this activation; a unit cannot perform the same card action more than once"));
            return false;
        }
        let Some(first) = self.done[kind as usize].filter(|_| kind != Kind::Move) else {
            return true;
        };
        let (rule, lead) = match free {
            Some(true) => (TYPED, format!("a free {} action is considered an action for the purposes of game effects, and ", kind.name())),
            Some(false) => (UNTYPED, "an untyped free action is considered an action for the purposes of game effects, and ".into()),
            None => (first, String::new()),
        };
        let still = match (free, left) {
            (None, 1..) => format!(
                ". {name} still has {left} of its {acts} left, but not for {} action",
                kind.a()
            ),
            _ => String::new(),
        };
        cx.error(rule, path, format!("{lead}{name} has already performed {} action this activation ({}); a unit cannot perform the same non-move action more than once{still}", kind.a(), how(first)));
        false
    }

    /// Applies one step; an illegal one records an error and changes nothing.
    fn apply(&mut self, op: &Op, path: &str, cx: &mut Cx) {
        let name = self.u.name.clone();
        match op {
            Op::Action { kind, card, free } => self.action(*kind, *card, free.as_ref(), path, cx),
            Op::FreeCard(i) => {
                let card = self.u.free_card_actions[*i].clone();
                if self.free_cards.contains(i) {
                    cx.error(FREE_CARD_EACH, path, format!("{name} has already performed the free card action {card} this activation; a unit cannot perform the same free card action more than once"));
                    return;
                }
                let (rule, other) = match self.free_cards.is_empty() {
                    true => (
                        FREE_CARD,
                        "free card actions do not count against its actions",
                    ),
                    false => (
                        FREE_CARD_EACH,
                        "a different free card action from the earlier one; it does not count against its actions",
                    ),
                };
                self.free_cards.push(*i);
                self.free += 1;
                let text = format!(
                    "{name} performs the free card action {card}: {other} ({} used)",
                    self.used
                );
                self.record(
                    cx,
                    rule,
                    text,
                    ("free actions", self.free),
                    format!("free card action {card}"),
                );
                cx.warn(None, Some(path), format!("card text not applied: what the free card action {card} does (the engine checks the action rules only)"));
                self.acted(Kind::Card, Some(FREE_CARD), path, cx);
            }
            Op::ExtraAttack(src) | Op::Gain(_, src) if !self.source_ok(src, path, cx) => {}
            Op::ExtraAttack(src) => {
                self.consume(src);
                self.extra += 1;
                let (s, acts) = (self.src(src), self.actions());
                let mut text = format!(
                    "{name} performs an attack that is not an action ({s}): it does not count toward the single attack action, nor against its {acts} ({} used)",
                    self.used
                );
                if let Some(first) = self.done[Kind::Attack as usize] {
                    text += &format!(
                        ", so it can be performed even though {name} has already performed an attack action ({})",
                        how(first)
                    );
                }
                self.record(
                    cx,
                    NOT_ACTION,
                    text,
                    ("attacks that are not actions", self.extra),
                    format!("attack that is not an action ({s})"),
                );
                self.acted(Kind::Attack, Some(NOT_ACTION), path, cx);
                let why = "this attack is not an action, and it does not trigger abilities that occur after actions are performed";
                self.not_triggered(Kind::Attack, NOT_ACTION, why, cx);
            }
            Op::Gain(k, src) => {
                self.consume(src);
                let (s, t, a) = (self.src(src), k.name(), k.a());
                let from = if matches!(src, Source::Ability(_)) {
                    From::Ability
                } else {
                    From::Effect
                };
                let n = self.gain(*k, from, Some(s.clone()));
                let mut text = format!(
                    "{name} gains {a} token from an effect ({s}): that is different from performing {a} action"
                );
                if self.done[*k as usize].is_none() {
                    text += &format!("; {name} may still perform {a} action this activation");
                }
                cx.step(TOKEN, text)
                    .num(&format!("{t} tokens"), n)
                    .chose(&self.player, format!("gain {a} token ({s})"));
                let why = format!(
                    "gaining {a} token from an effect does not trigger abilities or effects that occur after {t} actions"
                );
                self.not_triggered(*k, TOKEN, &why, cx);
            }
        }
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
        let (name, plain, acts) = (self.u.name.clone(), self.what(kind, card), self.actions());
        let what = match card {
            Some(_) => format!("the {plain}"),
            None => format!("{} action", kind.a()),
        };
        let typed = free.map(|f| f.1 != Some(true));
        if let Some((src, _)) = free {
            if !self.source_ok(src, path, cx) {
                return;
            }
            if let Source::Ability(i) = src
                && let Some(t) = self.u.abilities[*i].free_type().filter(|t| *t != kind)
            {
                let (a, t) = (&self.u.abilities[*i].name, t.name());
                cx.error(TYPED, path, format!("{a} provides a free action of a certain type, a free {t} action; it cannot be used as {what}"));
                return;
            }
        }
        if !self.allowed(kind, card, typed, path, cx) {
            return;
        }
        let (rule, text, num, chose) = match free {
            None => {
                let again = kind == Kind::Move && self.done[0].is_some();
                let other_card = card.is_some() && !self.cards.is_empty();
                self.used += 1;
                let (rule, why) = match (again, other_card) {
                    (true, _) => (SAME, ": the move action can be performed more than once"),
                    (_, true) => (
                        CARD_EACH,
                        ": each card action is a unique action, and this one is different from the earlier one",
                    ),
                    _ => (kind.rule(), ""),
                };
                let text = format!(
                    "{name} performs {what} (action {} of {}){why}",
                    self.used, self.avail
                );
                (rule, text, ("actions available", self.avail), plain)
            }
            Some((src, _)) => {
                self.free += 1;
                let s = self.src(src);
                let card_text = card
                    .map(|c| format!(", the card action {}", self.u.card_actions[c]))
                    .unwrap_or_default();
                let counts = format!(
                    "it does not count against its {acts} ({} used), but it is an action for game effects",
                    self.used
                );
                let chose = match (typed, card) {
                    (Some(true), None) => format!("free {plain} ({s})"),
                    _ => format!("free action as {plain} ({s})"),
                };
                let text = match typed {
                    Some(true) => format!(
                        "{name} performs a free {} action ({s}){card_text}: {counts}",
                        kind.name()
                    ),
                    _ => format!(
                        "{name} performs a free action without a type ({s}) as {what}, an action it could normally perform: {counts}"
                    ),
                };
                let rule = if typed == Some(true) { TYPED } else { UNTYPED };
                (rule, text, ("free actions", self.free), chose)
            }
        };
        let at = cx.steps.len();
        self.record(cx, rule, text, num, chose);
        if kind.is_token() {
            let n = self.gain(kind, From::Action, None);
            let st = &mut cx.steps[at];
            st.text += &format!(" and gains {} token", kind.a());
            st.num(&format!("{} tokens", kind.name()), n).assume(format!("that the {0} action gives {1} token comes from the {0} entry of the full rules, not the indexed 'Actions' text", kind.name(), kind.a()));
        }
        if let Some(c) = card {
            cx.warn(None, Some(path), format!("card text not applied: what the card action {} does (the engine checks the action rules only)", self.u.card_actions[c]));
            self.cards.push(c);
        } else if kind != Kind::Card {
            self.done[kind as usize].get_or_insert(match typed {
                None => SAME,
                Some(true) => TYPED,
                Some(false) => UNTYPED,
            });
        }
        if let Some((src, _)) = free {
            self.consume(src);
        }
        self.acted(kind, free.map(|_| rule), path, cx);
    }

    /// Where the activation stands: actions left, what they may be, abilities still open.
    fn summary(&self, cx: &mut Cx) {
        let left = self.avail.saturating_sub(self.used);
        let mut text = format!(
            "{} has used {} of {} this activation",
            self.u.name,
            self.used,
            self.actions()
        );
        if self.free > 0 {
            text += &format!(", plus {}", count(self.free as usize, "free action"));
        }
        text += match self.extra {
            0 => String::new(),
            1 => ", and made 1 attack that is not an action".into(),
            n => format!(", and made {n} attacks that are not actions"),
        }
        .as_str();
        let rule = if left == 0 {
            text += "; no actions remain, but free actions may still let it perform more";
            MORE
        } else {
            let (mut may, mut not) = (Vec::new(), Vec::new());
            for k in &KINDS[..6] {
                match self.done[*k as usize].filter(|_| *k != Kind::Move) {
                    Some(first) => not.push(format!("{} ({})", k.name(), how(first))),
                    None => may.push(k.name().to_string()),
                }
            }
            for (i, c) in self.u.card_actions.iter().enumerate() {
                match self.cards.contains(&i) {
                    true => not.push(format!("card action {c} (already performed)")),
                    false => may.push(format!("card action {c}")),
                }
            }
            text += &format!(
                "; {} left, which may be: {}",
                count(left as usize, "action"),
                may.join(", ")
            );
            if !not.is_empty() {
                text += &format!("; not: {}", not.join("; "));
            }
            SAME
        };
        if !self.open.is_empty() {
            let open: Vec<&str> = self
                .open
                .iter()
                .map(|i| self.u.abilities[*i].name.as_str())
                .collect();
            text += &format!(". Triggered and not yet used: {}", open.join(", "));
        }
        cx.step(rule, text)
            .num("actions used", self.used)
            .num("actions left", left)
            .num("free actions", self.free);
    }
}
