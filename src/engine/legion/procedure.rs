//! The activation procedure of `legion:actions`: which unit activates, each
//! step checked against the two-action limit, the no-repeat rule, card and
//! free card actions, free actions and attacks that are not actions, with
//! the abilities that trigger or do not; then, on `end`, whose turn it is.

use serde_json::{Value, json};

use super::board::{Board, From, Grant, Token, Unit, UnitRef};
use super::plays::{Kind, MAX_STEPS, Op, Play, Source, Step};
use super::rules::*;
use crate::engine::kit::{Ask, Asking, Cx, Opt, Stop};
use crate::engine::{BoardError, Severity};
use crate::text::count;

const FREE_CARD_READING: &str = "the indexed text calls each free card action 'a unique action' but does not say whether it triggers abilities that occur after actions; read as: it does (the other reading, that it does not, is not applied)";
const STANDBY_READING: &str = "whether a unit may attack and perform a standby action in the same activation is not covered by the indexed rules; the ruling allows it under the indexed text only (they are different actions; the other reading, that they exclude each other, would come from the Standby entry of the full rules)";
const REDUCTION_READING: &str = "the size of each reduction comes from the board; the indexed text says suppression and damage can reduce the actions but not by how much";
const TYPED_DEFAULT: &str = "the effect names the type of the free action, as `free_action` says (legion:actions.7); if it gives a free action without a type, add `untyped: true` (legion:actions.8)";

/// How an action of a type was first performed this activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Done {
    Action,
    Free { typed: bool },
}

/// The running state of one unit's activation.
#[derive(Debug, Clone)]
struct Act {
    u: Unit,
    /// The unit's field path, for warnings.
    path: String,
    player: String,
    avail: u32,
    used: u32,
    free: u32,
    extra: u32,
    done: [Option<Done>; 7],
    cards: Vec<usize>,
    free_cards: Vec<usize>,
    /// Abilities triggered by the last action, not yet used.
    open: Vec<usize>,
    /// Abilities that would have triggered after a non-action, with the rule why not.
    lapsed: Vec<(usize, &'static str)>,
    /// Abilities without a trigger, already used.
    once: Vec<usize>,
    attacked: bool,
    standby: bool,
    flagged: bool,
    noted_more: bool,
}

/// The seat that makes the play: the unit it activates, else the unit
/// activating, else whose turn it is.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    if let Some(a) = play.steps.first().and_then(|s| s.activate.as_deref()) {
        return Ok(b.find(a, "play[0].activate")?.0);
    }
    if let Some(r) = b.active_ref() {
        return Ok(r.0);
    }
    b.turn_seat()
        .or((b.players.len() == 1).then_some(0))
        .ok_or_else(|| BoardError::semantic("play", "no unit is activating and the board does not say whose turn it is: start the play with `activate UNIT`"))
}

/// Replays a unit's record of the activation under way (board errors at
/// its path when illegal) and writes it in the board's spelling.
pub fn replay(u: &mut Unit, path: &str) -> Result<(), BoardError> {
    let act = history(u, "", path)?.0;
    u.performed = act.u.performed;
    Ok(())
}

fn history(u: &Unit, player: &str, path: &str) -> Result<(Act, Vec<Op>), BoardError> {
    let asking = Asking::judge();
    let mut cx = Cx::new(&asking, Vec::new());
    let mut act = Act::new(u, player, path);
    let mut ops = Vec::new();
    for (i, s) in u.performed.iter().enumerate() {
        let p = format!("{path}.performed[{i}]");
        let mut s = s.clone();
        s.check_shape(&p, false)?;
        let op = s.resolve(&act.u, &p)?;
        act.apply(&op, &p, &mut cx);
        if let Some(d) = cx.diags.iter().find(|d| d.severity == Severity::Error) {
            let mut e = BoardError::semantic(
                p,
                format!("the activation so far is not legal: {}", d.message),
            );
            e.rule = d.rule.clone();
            return Err(e);
        }
        act.u.performed.push(s);
        ops.push(op);
    }
    act.u.tokens = u.tokens.clone();
    Ok((act, ops))
}

/// Runs a play: who activates, the steps, the end of the activation.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let mut steps = play.steps.clone();
    if steps.len() > MAX_STEPS {
        let msg = format!(
            "the play has {} steps; the limit is {MAX_STEPS}",
            steps.len()
        );
        return Err(BoardError::refused(msg).into());
    }
    for (i, s) in steps.iter().enumerate() {
        let path = format!("play[{i}]");
        s.check_shape(&path, true)?;
        if (s.activate.is_some() && i > 0) || (s.end.is_some() && i + 1 < steps.len()) {
            return Err(BoardError::semantic(
                path,
                "`activate` is the first step of a play and `end` the last",
            )
            .into());
        }
    }
    if b.phase != super::board::Phase::Activation {
        cx.error(ACT, "phase", format!("units perform actions during the Activation Phase; the board is in the {} (move on with `advance`)", super::phase_name(b.phase)));
        return Ok(());
    }
    let Some(r) = who(b, play, cx)? else {
        return Ok(());
    };
    if cx.failed() {
        return Ok(());
    }
    let (mut act, history) = history(b.unit(r), &b.name(r.0), &b.path(r))?;
    act.opening(&history, cx);
    let end = steps.last().is_some_and(|s| s.end.is_some());
    let first = usize::from(steps.first().is_some_and(|s| s.activate.is_some()));
    let last = steps.len() - usize::from(end);
    for (i, step) in steps.iter_mut().enumerate().take(last).skip(first) {
        let path = format!("play[{i}]");
        let mut op = step.resolve(&act.u, &path)?;
        let mut chosen = None;
        if let Op::Free {
            kind,
            card,
            src: Source::Effect(_),
            untyped,
        } = &mut op
        {
            let c = cx.choose(*untyped, untyped_ask(b, r.0, play, i, *kind, *card, &act))?;
            *untyped = Some(c.value());
            chosen = Some(c);
        }
        let at = cx.steps.len();
        act.apply(&op, &path, cx);
        if cx.failed() {
            return Ok(());
        }
        if let (Some(c), Some(st)) = (chosen, cx.steps.get_mut(at)) {
            let what = if c.value() {
                "a free action without a type"
            } else {
                "a free action of the type the effect names"
            };
            c.on(st, &act.player, what);
        }
        act.u.performed.push(step.clone());
    }
    act.summary(cx);
    let u = b.unit_mut(r);
    u.tokens = act.u.tokens;
    u.performed = act.u.performed;
    if end {
        end_activation(b, r, cx);
    }
    Ok(())
}

/// The unit the play is for, starting its activation when it is a new one.
fn who(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<Option<UnitRef>, Stop> {
    if let Some(a) = play.steps.first().and_then(|s| s.activate.as_deref()) {
        let r = b.find(a, "play[0].activate")?;
        cx.choose(Some(r), unit_ask(b, r.0, play))?;
        if b.active_ref() != Some(r) {
            start(b, r, true, cx);
        }
        return Ok(Some(r));
    }
    if let Some(r) = b.active_ref() {
        return Ok(Some(r));
    }
    let Some(p) = b.turn_seat().or((b.players.len() == 1).then_some(0)) else {
        cx.error_unruled("play", "no unit is activating and the board does not say whose turn it is: start the play with `activate UNIT`");
        return Ok(None);
    };
    match b.waiting(p).as_slice() {
        [] => {
            cx.error_unruled(
                "turn",
                format!("{} has no unit left to activate this round", b.name(p)),
            );
            Ok(None)
        }
        [one] => {
            let r = b.find(one, "play")?;
            start(b, r, false, cx);
            Ok(Some(r))
        }
        _ => {
            let c = cx.choose(None, unit_ask(b, p, play))?;
            Ok(Some(c.value()))
        }
    }
}

/// "Which unit activates?": the choice of the player whose unit it is.
fn unit_ask(b: &Board, p: usize, play: &Play) -> Ask<UnitRef> {
    let rest: Vec<&Step> = play.steps.iter().filter(|s| s.activate.is_none()).collect();
    let options = b.waiting(p).into_iter().take(25).map(|n| {
        let mut list = vec![json!({ "activate": n })];
        list.extend(rest.iter().map(|s| json!(s)));
        let r = b
            .refs()
            .into_iter()
            .find(|r| b.unit(*r).name == n)
            .unwrap_or((p, 0));
        Opt {
            label: format!("activate {n}"),
            value: r,
            patch: Value::Array(list),
        }
    });
    Ask {
        key: "unit".into(),
        seat: p,
        rule: ACT,
        path: "play[0].activate".into(),
        question: format!("{}: which unit activates?", b.name(p)),
        options: options.collect(),
        default: None,
    }
}

/// "Does the effect name the free action's type?": the acting player's.
fn untyped_ask(
    b: &Board,
    p: usize,
    play: &Play,
    i: usize,
    k: Kind,
    card: Option<usize>,
    act: &Act,
) -> Ask<bool> {
    let what = act.action_name(k, card);
    let opt = |label: String, v: bool| {
        let mut list: Vec<Value> = play.steps.iter().map(|s| json!(s)).collect();
        list[i]["untyped"] = json!(v);
        Opt {
            label,
            value: v,
            patch: Value::Array(list),
        }
    };
    Ask {
        key: format!("untyped:{i}"),
        seat: p,
        rule: UNTYPED,
        path: format!("play[{i}].untyped"),
        question: format!(
            "{}: does the effect give {} a free action of a type, or one without a type used as {what}?",
            b.name(p),
            act.u.name
        ),
        options: vec![
            opt(format!("a free action of its type: {what}"), false),
            opt(
                format!("a free action without a type, used as {what}"),
                true,
            ),
        ],
        default: Some((false, TYPED_DEFAULT.into())),
    }
}

/// A unit starts its activation (ending the one under way).
fn start(b: &mut Board, r: UnitRef, named: bool, cx: &mut Cx) {
    if let Some(q) = b.active_ref() {
        end_activation(b, q, cx);
    }
    let (player, name) = (b.name(r.0), b.unit(r).name.clone());
    if let Some(t) = b.turn_seat().filter(|t| *t != r.0) {
        let msg = format!(
            "it is {}'s turn to activate a unit, not {player}'s (players take turns activating units: outside the indexed rules)",
            b.name(t)
        );
        cx.error_unruled("play[0].activate", msg);
    } else if b.unit(r).activated {
        cx.error_unruled("play[0].activate", format!("{name} has already activated this round (each unit activates once a round: outside the indexed rules)"));
    }
    b.unit_mut(r).activated = true;
    b.active = Some(name.clone());
    b.turn = Some(player.clone());
    let how = if named {
        String::new()
    } else {
        format!(" (not named in the play: the only unit of {player} that has not activated)")
    };
    cx.step(ACT, format!("{player} activates {name}{how}: during the Activation Phase, each unit can perform actions"))
        .chose(&player, format!("to activate {name}"));
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
    cx.note(Some("turn"), format!("{}'s activation ends; {then} (ending an activation and taking turns are outside the indexed rules: the Actions text covers what a unit does while activated)", b.unit(r).name));
}

/// Which abilities an "after" matches: `None` no trigger, `Some(None)` any action.
fn trigger(s: Option<&str>) -> Option<Option<Kind>> {
    let s = s?;
    Some(
        super::plays::KIND_NAMES
            .iter()
            .position(|k| *k == s)
            .map(|i| super::plays::KINDS[i]),
    )
}

fn after_text(t: Option<Kind>) -> String {
    match t {
        None => "any action".into(),
        Some(Kind::Card) => "a card action".into(),
        Some(k) => format!("{} action", k.a()),
    }
}

impl Act {
    fn new(u: &Unit, player: &str, path: &str) -> Act {
        let cut: u32 = u.reduced_by.iter().map(|r| r.amount).sum();
        let mut fresh = u.clone();
        fresh.performed.clear();
        Act {
            u: fresh,
            path: path.to_string(),
            player: player.to_string(),
            avail: u.actions.unwrap_or(2u32.saturating_sub(cut)),
            used: 0,
            free: 0,
            extra: 0,
            done: [None; 7],
            cards: Vec::new(),
            free_cards: Vec::new(),
            open: Vec::new(),
            lapsed: Vec::new(),
            once: Vec::new(),
            attacked: false,
            standby: false,
            flagged: false,
            noted_more: false,
        }
    }

    fn actions(&self) -> String {
        count(self.avail as usize, "action")
    }

    fn src(&self, s: &Source) -> String {
        match s {
            Source::Ability(i) => self.u.abilities[*i].name.clone(),
            Source::Effect(e) => e.clone(),
        }
    }

    fn action_name(&self, k: Kind, card: Option<usize>) -> String {
        match (k, card) {
            (Kind::Card, Some(c)) => format!("the card action {}", self.u.card_actions[c]),
            _ => format!("{} action", k.a()),
        }
    }

    /// A short description of an op (`free attack action (Relentless)`).
    fn describe(&self, op: &Op) -> String {
        match op {
            Op::Action {
                kind: Kind::Card,
                card: Some(c),
            } => format!("card action {}", self.u.card_actions[*c]),
            Op::Action { kind, .. } => format!("{} action", kind.name()),
            Op::Free {
                kind,
                card,
                src,
                untyped,
            } => {
                let what = match (kind, card) {
                    (Kind::Card, Some(c)) => format!("card action {}", self.u.card_actions[*c]),
                    _ => format!("{} action", kind.name()),
                };
                let how = if *untyped == Some(true) {
                    "free action as "
                } else {
                    "free "
                };
                format!("{how}{what} ({})", self.src(src))
            }
            Op::FreeCard(i) => format!("free card action {}", self.u.free_card_actions[*i]),
            Op::ExtraAttack(s) => format!("attack that is not an action ({})", self.src(s)),
            Op::Gain(t, s) => format!("{} token gained ({})", t.name(), self.src(s)),
        }
    }

    /// The activation's opening: actions available, card actions, the record so far, tokens from effects.
    fn opening(&self, history: &[Op], cx: &mut Cx) {
        let (name, n) = (&self.u.name, self.avail);
        let none_left = if n == 0 {
            "; only free actions, free card actions and attacks that are not actions remain"
        } else {
            ""
        };
        if !self.u.reduced_by.is_empty() {
            let cut: u32 = self.u.reduced_by.iter().map(|r| r.amount).sum();
            let why: Vec<String> = self
                .u
                .reduced_by
                .iter()
                .map(|r| format!("{} for {}", r.amount, r.source.trim()))
                .collect();
            cx.step(
                REDUCED,
                format!(
                    "{name} is activated with {}: two, reduced by {cut} ({}){none_left}",
                    self.actions(),
                    why.join("; ")
                ),
            )
            .num("actions", 2)
            .num("reduced by", cut)
            .num("actions available", n)
            .assume(REDUCTION_READING);
        } else if n < 2 {
            cx.step(REDUCED, format!("{name} is activated with {}, as the board gives (fewer than two; no source given){none_left}", self.actions()))
                .num("actions available", n).assume(REDUCTION_READING);
        } else {
            cx.step(
                TWO,
                format!("{name} is activated: it can perform two actions"),
            )
            .num("actions available", n);
        }
        if !self.u.card_actions.is_empty() {
            cx.step(CARD, format!("card actions of {name}: {} (each ability preceded by the card action icon is a card action)", self.u.card_actions.join(", ")));
        }
        if !history.is_empty() {
            let done: Vec<String> = history.iter().map(|op| self.describe(op)).collect();
            cx.step(TWO, format!("already this activation: {}", done.join("; ")))
                .num("actions used", self.used)
                .num("free actions", self.free);
        }
        for t in self
            .u
            .tokens
            .iter()
            .filter(|t| matches!(t.source, Some(From::Effect | From::Ability)))
        {
            let (k, by) = (t.kind, t.name.as_deref().unwrap_or("an effect"));
            let still = if self.done[k as usize].is_none() {
                format!("; {name} may still perform {} action", k.a())
            } else {
                String::new()
            };
            cx.step(
                TOKEN,
                format!(
                    "{name} has {} token from {by}: gaining it was not performing {} action{still}",
                    k.a(),
                    k.a()
                ),
            );
        }
    }

    /// Whether an ability used as a source is available now (errors say why not).
    fn source_ok(&self, src: &Source, path: &str, cx: &mut Cx) -> bool {
        let Source::Ability(i) = src else { return true };
        let a = &self.u.abilities[*i];
        match trigger(a.after.as_deref()) {
            Some(t) if !self.open.contains(i) => {
                if let Some((_, rule)) = self.lapsed.iter().find(|(j, _)| j == i) {
                    let why = if *rule == NOT_ACTION {
                        "the attack before it was not an action, and such an attack does not trigger abilities that occur after actions"
                    } else {
                        "gaining a token from an effect is not performing that action, so it does not trigger abilities that occur after that action"
                    };
                    cx.error(rule, path, format!("{} did not trigger: {why}", a.name));
                } else {
                    cx.error_unruled(path, format!("{} triggers after {} (its data on the board), and {} has not just performed one, or has already used it", a.name, after_text(t), self.u.name));
                }
                false
            }
            None if self.once.contains(i) => {
                cx.error_unruled(path, format!("{} has already been used this activation (an ability without a trigger is read as usable once)", a.name));
                false
            }
            _ => true,
        }
    }

    fn consume(&mut self, src: &Source) {
        if let Source::Ability(i) = src {
            self.open.retain(|j| j != i);
            if self.u.abilities[*i].after.is_none() {
                self.once.push(*i);
            }
        }
    }

    /// Opens the triggers of abilities after an action of `kind`.
    fn after_action(&mut self, kind: Kind, via: Option<&'static str>, cx: &mut Cx) {
        self.open.clear();
        self.lapsed.clear();
        for (i, a) in self.u.abilities.iter().enumerate() {
            let Some(t) = trigger(a.after.as_deref()) else {
                continue;
            };
            if t.is_some_and(|t| t != kind) {
                continue;
            }
            self.open.push(i);
            let (rule, why) = match via {
                Some(FREE_CARD) => (
                    FREE_CARD_EACH,
                    "a free card action is an action".to_string(),
                ),
                Some(rule) => (
                    rule,
                    "a free action is considered an action for the purposes of game effects"
                        .to_string(),
                ),
                None => (
                    match a.grants {
                        Some(Grant::FreeAction) if a.action.is_some() => TYPED,
                        Some(Grant::FreeAction) => UNTYPED,
                        Some(Grant::ExtraAttack) => NOT_ACTION,
                        Some(Grant::Token) => TOKEN,
                        _ => kind.rule(),
                    },
                    format!("after {}", after_text(t)),
                ),
            };
            let grant = match (a.grants, a.action.as_deref(), a.token) {
                (Some(Grant::FreeAction), Some("card"), _) => {
                    "may perform a free card action".to_string()
                }
                (Some(Grant::FreeAction), Some(k), _) => format!("may perform a free {k} action"),
                (Some(Grant::FreeAction), None, _) => {
                    "may perform a free action of any type it could normally perform".into()
                }
                (Some(Grant::ExtraAttack), ..) => {
                    "may perform an attack that is not an action".into()
                }
                (Some(Grant::Token), _, Some(k)) => format!("may gain {} token", k.a()),
                _ => "what its card says happens is not applied".into(),
            };
            let st = cx.step(
                rule,
                format!("{} triggers ({why}): {} {grant}", a.name, self.u.name),
            );
            if via == Some(FREE_CARD) {
                st.assume(FREE_CARD_READING);
            }
            if matches!(a.grants, None | Some(Grant::Nothing)) {
                let text = a
                    .text
                    .as_deref()
                    .map(|t| format!(": '{t}'"))
                    .unwrap_or_default();
                cx.warn(None, Some(&format!("{}.abilities[{i}]", self.path)), format!("card text not applied: {}{text} (the engine applies an ability's data: `grants` free_action, extra_attack or token)", a.name));
            }
        }
    }

    /// Abilities that do not trigger after a non-action (`rule` says why).
    fn not_triggered(&mut self, kind: Kind, rule: &'static str, why: &str, cx: &mut Cx) {
        for (i, a) in self.u.abilities.iter().enumerate() {
            let Some(t) = trigger(a.after.as_deref()) else {
                continue;
            };
            if t.is_some_and(|t| t != kind) || self.open.contains(&i) {
                continue;
            }
            self.lapsed.push((i, rule));
            cx.step(rule, format!("{} does not trigger: {why}", a.name));
        }
    }

    fn more_than_two(&mut self, cx: &mut Cx) {
        let total = self.used + self.free;
        if total > 2 && !self.noted_more {
            self.noted_more = true;
            cx.step(MORE, format!("{} has now performed {total} actions this activation: more than two, through free actions", self.u.name))
                .num("actions performed", total);
        }
    }

    fn attack_standby(&mut self, path: &str, cx: &mut Cx) {
        if self.attacked && self.standby && !self.flagged {
            self.flagged = true;
            cx.step(SAME, format!("{} has both attacked and performed a standby action this activation; attack and standby are different actions, so the rule against repeating an action does not forbid it", self.u.name))
                .assume(STANDBY_READING);
            cx.warn(None, Some(path), "not covered by the indexed rules: attack and standby in one activation (the indexed 'Actions' text neither allows nor forbids it; check the Standby entry of the full rules)");
        }
    }

    /// Adds a token; returns how many of that kind the unit now has.
    fn gain(&mut self, kind: Kind, source: From, name: Option<String>) -> u32 {
        self.u.tokens.push(Token {
            kind,
            source: Some(source),
            name,
        });
        self.u.tokens.iter().filter(|t| t.kind == kind).count() as u32
    }

    /// An aim, dodge or standby action gives its token (outside the indexed text).
    fn token_from_action(&mut self, kind: Kind, at: usize, cx: &mut Cx) {
        if !kind.is_token() {
            return;
        }
        let n = self.gain(kind, From::Action, None);
        let st = &mut cx.steps[at];
        st.text.push_str(&format!(" and gains {} token", kind.a()));
        st.num(&format!("{} tokens", kind.name()), n).assume(format!(
            "that the {0} action gives {1} token comes from the {0} entry of the full rules, not the indexed 'Actions' text",
            kind.name(),
            kind.a()
        ));
    }

    fn how(d: Done) -> &'static str {
        match d {
            Done::Action => "as one of its actions",
            Done::Free { typed: true } => {
                "as a free action of that type, which is considered an action for game effects"
            }
            Done::Free { typed: false } => {
                "as an untyped free action, which is considered an action for game effects"
            }
        }
    }

    /// Whether `kind` may be performed again; errors say which rule forbids it.
    fn repeat_ok(
        &self,
        kind: Kind,
        card: Option<usize>,
        path: &str,
        free: Option<bool>,
        cx: &mut Cx,
    ) -> bool {
        let name = &self.u.name;
        if let (Kind::Card, Some(c)) = (kind, card) {
            if self.cards.contains(&c) {
                cx.error(CARD_EACH, path, format!("{name} has already performed the card action {} this activation; a unit cannot perform the same card action more than once", self.u.card_actions[c]));
                return false;
            }
            return true;
        }
        let Some(d) = self.done[kind as usize].filter(|_| kind != Kind::Move) else {
            return true;
        };
        let (rule, lead) = match (free, d) {
            (Some(true), _) => (TYPED, format!("a free {} action is considered an action for the purposes of game effects, and ", kind.name())),
            (Some(false), _) => (UNTYPED, "an untyped free action is considered an action for the purposes of game effects, and ".to_string()),
            (None, Done::Action) => (SAME, String::new()),
            (None, Done::Free { typed: true }) => (TYPED, String::new()),
            (None, Done::Free { typed: false }) => (UNTYPED, String::new()),
        };
        let left = self.avail.saturating_sub(self.used);
        let still = if free.is_none() && left > 0 {
            format!(
                ". {name} still has {left} of its {} left, but not for {} action",
                self.actions(),
                kind.a()
            )
        } else {
            String::new()
        };
        cx.error(rule, path, format!("{lead}{name} has already performed {} action this activation ({}); a unit cannot perform the same non-move action more than once{still}", kind.a(), Self::how(d)));
        false
    }

    fn mark(&mut self, kind: Kind, card: Option<usize>, how: Done) {
        match kind {
            Kind::Card => self.cards.extend(card),
            k => {
                self.done[k as usize].get_or_insert(how);
            }
        }
        self.attacked |= kind == Kind::Attack;
        self.standby |= kind == Kind::Standby;
    }

    /// Applies one step; an illegal one records an error and changes nothing.
    fn apply(&mut self, op: &Op, path: &str, cx: &mut Cx) {
        let name = self.u.name.clone();
        match op {
            Op::Action { kind, card } => self.action(*kind, *card, path, cx),
            Op::Free {
                kind,
                card,
                src,
                untyped,
            } => self.free_action(*kind, *card, src, *untyped != Some(true), path, cx),
            Op::FreeCard(i) => {
                let card = self.u.free_card_actions[*i].clone();
                if self.free_cards.contains(i) {
                    cx.error(FREE_CARD_EACH, path, format!("{name} has already performed the free card action {card} this activation; a unit cannot perform the same free card action more than once"));
                    return;
                }
                let (rule, text) = if self.free_cards.is_empty() {
                    (
                        FREE_CARD,
                        format!(
                            "{name} performs the free card action {card}: free card actions do not count against its actions ({} used)",
                            self.used
                        ),
                    )
                } else {
                    (
                        FREE_CARD_EACH,
                        format!(
                            "{name} performs the free card action {card}: a different free card action from the earlier one; it does not count against its actions ({} used)",
                            self.used
                        ),
                    )
                };
                self.free_cards.push(*i);
                self.free += 1;
                cx.step(rule, text)
                    .num("actions used", self.used)
                    .num("free actions", self.free)
                    .chose(&self.player, format!("free card action {card}"));
                cx.warn(None, Some(path), format!("card text not applied: what the free card action {card} does (the engine checks the action rules only)"));
                self.more_than_two(cx);
                self.after_action(Kind::Card, Some(FREE_CARD), cx);
            }
            Op::ExtraAttack(src) => {
                if !self.source_ok(src, path, cx) {
                    return;
                }
                self.consume(src);
                self.extra += 1;
                let s = self.src(src);
                let mut text = format!(
                    "{name} performs an attack that is not an action ({s}): it does not count toward the single attack action, nor against its {} ({} used)",
                    self.actions(),
                    self.used
                );
                if let Some(d) = self.done[Kind::Attack as usize] {
                    text.push_str(&format!(", so it can be performed even though {name} has already performed an attack action ({})", Self::how(d)));
                }
                cx.step(NOT_ACTION, text)
                    .num("actions used", self.used)
                    .num("attacks that are not actions", self.extra)
                    .chose(&self.player, format!("attack that is not an action ({s})"));
                self.attacked = true;
                self.attack_standby(path, cx);
                self.not_triggered(Kind::Attack, NOT_ACTION, "this attack is not an action, and it does not trigger abilities that occur after actions are performed", cx);
            }
            Op::Gain(token, src) => {
                if !self.source_ok(src, path, cx) {
                    return;
                }
                self.consume(src);
                let s = self.src(src);
                let from = if matches!(src, Source::Ability(_)) {
                    From::Ability
                } else {
                    From::Effect
                };
                let n = self.gain(*token, from, Some(s.clone()));
                let (t, a) = (token.name(), token.a());
                let mut text = format!(
                    "{name} gains {a} token from an effect ({s}): that is different from performing {a} action"
                );
                if self.done[*token as usize].is_none() {
                    text.push_str(&format!(
                        "; {name} may still perform {a} action this activation"
                    ));
                }
                cx.step(TOKEN, text)
                    .num(&format!("{t} tokens"), n)
                    .chose(&self.player, format!("gain {a} token ({s})"));
                let why = format!(
                    "gaining {a} token from an effect does not trigger abilities or effects that occur after {t} actions"
                );
                self.not_triggered(*token, TOKEN, &why, cx);
            }
        }
    }

    fn action(&mut self, kind: Kind, card: Option<usize>, path: &str, cx: &mut Cx) {
        let name = self.u.name.clone();
        if self.used >= self.avail {
            let (rule, why) = if self.avail < 2 {
                (
                    REDUCED,
                    format!("its actions are reduced to {}", self.avail),
                )
            } else {
                (
                    TWO,
                    "a unit performs two actions when activated".to_string(),
                )
            };
            let nth = ["first", "second", "third", "fourth"]
                .get(self.used as usize)
                .map_or(format!("{}th", self.used + 1), |s| s.to_string());
            let a = if nth.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            cx.error(rule, path, format!("{name} has already used {} of its {} this activation ({why}); {a} {nth} action is not allowed, only free actions, free card actions or attacks that are not actions", self.used, self.actions()));
            return;
        }
        if !self.repeat_ok(kind, card, path, None, cx) {
            return;
        }
        let again = kind == Kind::Move && self.done[0].is_some();
        let other_card = kind == Kind::Card && !self.cards.is_empty();
        self.used += 1;
        let rule = if again {
            SAME
        } else if other_card {
            CARD_EACH
        } else {
            kind.rule()
        };
        let mut text = format!(
            "{name} performs {} (action {} of {})",
            self.action_name(kind, card),
            self.used,
            self.avail
        );
        if again {
            text.push_str(": the move action can be performed more than once");
        } else if other_card {
            text.push_str(": each card action is a unique action, and this one is different from the earlier one");
        }
        let at = cx.steps.len();
        let what = match card {
            Some(c) => format!("card action {}", self.u.card_actions[c]),
            None => format!("{} action", kind.name()),
        };
        cx.step(rule, text)
            .num("actions used", self.used)
            .num("actions available", self.avail)
            .chose(&self.player, what);
        self.token_from_action(kind, at, cx);
        if let Some(c) = card {
            cx.warn(None, Some(path), format!("card text not applied: what the card action {} does (the engine checks the action rules only)", self.u.card_actions[c]));
        }
        self.mark(kind, card, Done::Action);
        self.more_than_two(cx);
        self.attack_standby(path, cx);
        self.after_action(kind, None, cx);
    }

    fn free_action(
        &mut self,
        kind: Kind,
        card: Option<usize>,
        src: &Source,
        typed: bool,
        path: &str,
        cx: &mut Cx,
    ) {
        if !self.source_ok(src, path, cx) {
            return;
        }
        let name = self.u.name.clone();
        if let Source::Ability(i) = src
            && let Some(t) = self.u.abilities[*i].action.clone()
            && t != kind.name()
        {
            let a = &self.u.abilities[*i].name;
            cx.error(TYPED, path, format!("{a} provides a free action of a certain type, a free {t} action; it cannot be used as {}", self.action_name(kind, card)));
            return;
        }
        if !self.repeat_ok(kind, card, path, Some(typed), cx) {
            return;
        }
        self.free += 1;
        let s = self.src(src);
        let (rule, text) = if typed {
            let card_text = card
                .map(|c| format!(", the card action {}", self.u.card_actions[c]))
                .unwrap_or_default();
            (
                TYPED,
                format!(
                    "{name} performs a free {} action ({s}){card_text}: it does not count against its {} ({} used), but it is an action for game effects",
                    kind.name(),
                    self.actions(),
                    self.used
                ),
            )
        } else {
            (
                UNTYPED,
                format!(
                    "{name} performs a free action without a type ({s}) as {}, an action it could normally perform: it does not count against its {} ({} used), but it is an action for game effects",
                    self.action_name(kind, card),
                    self.actions(),
                    self.used
                ),
            )
        };
        let at = cx.steps.len();
        let what = self.describe(&Op::Free {
            kind,
            card,
            src: src.clone(),
            untyped: Some(!typed),
        });
        cx.step(rule, text)
            .num("actions used", self.used)
            .num("free actions", self.free)
            .chose(&self.player, what);
        self.token_from_action(kind, at, cx);
        self.mark(kind, card, Done::Free { typed });
        self.consume(src);
        self.more_than_two(cx);
        self.attack_standby(path, cx);
        self.after_action(kind, Some(rule), cx);
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
            text.push_str(&format!(
                ", plus {}",
                count(self.free as usize, "free action")
            ));
        }
        match self.extra {
            0 => {}
            1 => text.push_str(", and made 1 attack that is not an action"),
            n => text.push_str(&format!(", and made {n} attacks that are not actions")),
        }
        let rule = if left == 0 {
            text.push_str("; no actions remain, but free actions may still let it perform more");
            MORE
        } else {
            let (mut may, mut not) = (Vec::new(), Vec::new());
            for k in &super::plays::KINDS[..6] {
                match self.done[*k as usize] {
                    Some(d) if *k != Kind::Move => {
                        not.push(format!("{} ({})", k.name(), Self::how(d)))
                    }
                    _ => may.push(k.name().to_string()),
                }
            }
            for (i, c) in self.u.card_actions.iter().enumerate() {
                match self.cards.contains(&i) {
                    true => not.push(format!("card action {c} (already performed)")),
                    false => may.push(format!("card action {c}")),
                }
            }
            text.push_str(&format!(
                "; {} left, which may be: {}",
                count(left as usize, "action"),
                may.join(", ")
            ));
            if !not.is_empty() {
                text.push_str(&format!("; not: {}", not.join("; ")));
            }
            SAME
        };
        if !self.open.is_empty() {
            let open: Vec<&str> = self
                .open
                .iter()
                .map(|i| self.u.abilities[*i].name.as_str())
                .collect();
            text.push_str(&format!(
                ". Triggered and not yet used: {}",
                open.join(", ")
            ));
        }
        cx.step(rule, text)
            .num("actions used", self.used)
            .num("actions left", left)
            .num("free actions", self.free);
    }
}
