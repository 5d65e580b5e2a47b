//! The activation procedure: each step checked against `legion:actions`,
//! with the abilities that trigger or do not.

use super::model::{Grant, Kind, Op, Source, Tokens, UnitV, article};
use crate::engine::{Choice, Diagnostic, Severity, Step};

/// How an action of a type was first performed this activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Done {
    Action,
    Free { typed: bool },
}

/// The running state of one unit's activation.
#[derive(Debug, Clone)]
pub struct Activation<'u> {
    unit: &'u UnitV,
    /// Actions counted against the unit's actions.
    pub used: u32,
    /// Free actions and free card actions performed.
    pub free: u32,
    /// Attacks that are not actions.
    pub extra_attacks: u32,
    done: [Option<Done>; 7],
    cards: Vec<usize>,
    free_cards: Vec<usize>,
    /// Abilities triggered by the last action, not yet used.
    pending: Vec<usize>,
    /// Abilities that would have triggered after a non-action, with the rule why not.
    lapsed: Vec<(usize, &'static str)>,
    /// Abilities without a trigger already used.
    once_used: Vec<usize>,
    attacked: bool,
    standby: bool,
    flagged_attack_standby: bool,
    noted_more_than_two: bool,
    pub tokens: Tokens,
}

fn step(rule: &str, text: String) -> Step {
    Step {
        rule: rule.to_string(),
        text,
        numbers: Vec::new(),
        choice: None,
        assumption: None,
    }
}

fn error(rule: Option<&str>, path: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        message,
        rule: rule.map(str::to_string),
        path: Some(path.to_string()),
    }
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        n => format!("{n}th"),
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl<'u> Activation<'u> {
    pub fn new(unit: &'u UnitV, tokens: Tokens) -> Activation<'u> {
        Activation {
            unit,
            used: 0,
            free: 0,
            extra_attacks: 0,
            done: [None; 7],
            cards: Vec::new(),
            free_cards: Vec::new(),
            pending: Vec::new(),
            lapsed: Vec::new(),
            once_used: Vec::new(),
            attacked: false,
            standby: false,
            flagged_attack_standby: false,
            noted_more_than_two: false,
            tokens,
        }
    }

    fn ability_name(&self, i: usize) -> &str {
        self.unit
            .abilities
            .get(i)
            .map(|a| a.name.as_str())
            .unwrap_or("?")
    }

    fn card_name(&self, i: usize) -> &str {
        self.unit
            .card_actions
            .get(i)
            .map(String::as_str)
            .unwrap_or("?")
    }

    fn free_card_name(&self, i: usize) -> &str {
        self.unit
            .free_card_actions
            .get(i)
            .map(String::as_str)
            .unwrap_or("?")
    }

    fn source_name(&self, src: &Source) -> String {
        match src {
            Source::Ability(i) => self.ability_name(*i).to_string(),
            Source::Effect(e) => e.clone(),
        }
    }

    /// A short description of an op (`free attack action (Relentless)`).
    pub fn describe(&self, op: &Op) -> String {
        match op {
            Op::Action {
                kind: Kind::Card,
                card,
            } => format!("card action {}", card.map_or("?", |c| self.card_name(c))),
            Op::Action { kind, .. } => format!("{} action", kind.name()),
            Op::Free {
                kind: Kind::Card,
                card,
                src,
                ..
            } => {
                format!(
                    "free action as card action {} ({})",
                    card.map_or("?", |c| self.card_name(c)),
                    self.source_name(src)
                )
            }
            Op::Free {
                kind,
                src,
                typed: true,
                ..
            } => format!("free {} action ({})", kind.name(), self.source_name(src)),
            Op::Free {
                kind,
                src,
                typed: false,
                ..
            } => format!(
                "free action as {} {} action ({})",
                article(kind.name()),
                kind.name(),
                self.source_name(src)
            ),
            Op::FreeCard { idx } => format!("free card action {}", self.free_card_name(*idx)),
            Op::ExtraAttack { src } => {
                format!("attack that is not an action ({})", self.source_name(src))
            }
            Op::Gain { token, src } => {
                format!("{} token gained ({})", token.name(), self.source_name(src))
            }
        }
    }

    fn grant_text(g: Grant) -> String {
        match g {
            Grant::Nothing => "its effect applies".into(),
            Grant::FreeAction(Some(Kind::Card)) => "may perform a free card action".into(),
            Grant::FreeAction(Some(k)) => format!("may perform a free {} action", k.name()),
            Grant::FreeAction(None) => {
                "may perform a free action of any type it could normally perform".into()
            }
            Grant::ExtraAttack => "may perform an attack that is not an action".into(),
            Grant::Token(k) => format!("may gain {} {} token", article(k.name()), k.name()),
        }
    }

    /// Checks that an ability used as a source is available now.
    fn check_source(&self, src: &Source, path: &str) -> Result<(), Diagnostic> {
        let Source::Ability(i) = src else {
            return Ok(());
        };
        let Some(a) = self.unit.abilities.get(*i) else {
            return Ok(());
        };
        match a.after {
            Some(after) if !self.pending.contains(i) => {
                if let Some((_, rule)) = self.lapsed.iter().find(|(j, _)| j == i) {
                    let why = if *rule == "legion:actions.9" {
                        "the attack before it was not an action, and such an attack does not trigger abilities that occur after actions"
                    } else {
                        "gaining a token from an effect is not performing that action, so it does not trigger abilities that occur after that action"
                    };
                    return Err(error(
                        Some(rule),
                        path,
                        format!("{} did not trigger: {why}", a.name),
                    ));
                }
                Err(error(
                    None,
                    path,
                    format!(
                        "{} triggers after {} (its data on the board), and {} has not just performed one, or has already used it",
                        a.name,
                        after.describe(),
                        self.unit.name
                    ),
                ))
            }
            None if self.once_used.contains(i) => Err(error(
                None,
                path,
                format!(
                    "{} has already been used this activation (an ability without a trigger is read as usable once)",
                    a.name
                ),
            )),
            _ => Ok(()),
        }
    }

    fn consume(&mut self, src: &Source) {
        if let Source::Ability(i) = src {
            self.pending.retain(|j| j != i);
            if self
                .unit
                .abilities
                .get(*i)
                .is_some_and(|a| a.after.is_none())
            {
                self.once_used.push(*i);
            }
        }
    }

    /// The rule a repeat of an earlier action breaks.
    fn repeat_rule(done: Done) -> &'static str {
        match done {
            Done::Action => "legion:actions.2",
            Done::Free { typed: true } => "legion:actions.7",
            Done::Free { typed: false } => "legion:actions.8",
        }
    }

    fn how(done: Done) -> &'static str {
        match done {
            Done::Action => "as one of its actions",
            Done::Free { typed: true } => {
                "as a free action of that type, which is considered an action for game effects"
            }
            Done::Free { typed: false } => {
                "as an untyped free action, which is considered an action for game effects"
            }
        }
    }

    /// Opens the triggers of abilities after an action of `kind`.
    fn after_action(&mut self, kind: Kind, via: Option<&'static str>, out: &mut Vec<Step>) {
        self.pending.clear();
        self.lapsed.clear();
        for (i, a) in self.unit.abilities.iter().enumerate() {
            let Some(after) = a.after else { continue };
            if !after.matches(kind) {
                continue;
            }
            self.pending.push(i);
            let (rule, why, assumption) = match via {
                Some("legion:actions.4") => (
                    "legion:actions.4.1",
                    "a free card action is an action".to_string(),
                    Some("the indexed text calls each free card action 'a unique action' but does not say whether it triggers abilities that occur after actions; read as: it does".to_string()),
                ),
                Some(rule) => (rule, "a free action is considered an action for the purposes of game effects".to_string(), None),
                None => (
                    match a.grant {
                        Grant::FreeAction(Some(_)) => "legion:actions.7",
                        Grant::FreeAction(None) => "legion:actions.8",
                        Grant::ExtraAttack => "legion:actions.9",
                        Grant::Token(_) => "legion:actions.10",
                        Grant::Nothing => kind.list_rule(),
                    },
                    format!("after {}", after.describe()),
                    None,
                ),
            };
            let mut s = step(
                rule,
                format!(
                    "{} triggers ({why}): {} {}",
                    a.name,
                    self.unit.name,
                    Self::grant_text(a.grant)
                ),
            );
            s.assumption = assumption;
            out.push(s);
        }
    }

    /// Abilities that do not trigger after a non-action (`rule` says why).
    fn not_triggered(&mut self, kind: Kind, rule: &'static str, why: &str, out: &mut Vec<Step>) {
        for (i, a) in self.unit.abilities.iter().enumerate() {
            let Some(after) = a.after else { continue };
            if !after.matches(kind) || self.pending.contains(&i) {
                continue;
            }
            self.lapsed.push((i, rule));
            out.push(step(rule, format!("{} does not trigger: {why}", a.name)));
        }
    }

    fn more_than_two(&mut self, out: &mut Vec<Step>) {
        let total = self.used + self.free;
        if total > 2 && !self.noted_more_than_two {
            self.noted_more_than_two = true;
            let mut s = step(
                "legion:actions.6",
                format!(
                    "{} has now performed {total} actions this activation: more than two, through free actions",
                    self.unit.name
                ),
            );
            s.numbers = vec![("actions performed".into(), i64::from(total))];
            out.push(s);
        }
    }

    fn attack_standby(&mut self, out: &mut Vec<Step>, notes: &mut Vec<Diagnostic>, path: &str) {
        if self.attacked && self.standby && !self.flagged_attack_standby {
            self.flagged_attack_standby = true;
            let mut s = step(
                "legion:actions.2",
                format!(
                    "{} has both attacked and performed a standby action this activation; attack and standby are different actions, so the rule against repeating an action does not forbid it",
                    self.unit.name
                ),
            );
            s.assumption = Some("whether a unit may attack and perform a standby action in the same activation is not covered by the indexed rules; the ruling allows it under the indexed text only".into());
            out.push(s);
            notes.push(Diagnostic {
                severity: Severity::Warning,
                message: "not covered by the indexed rules: attack and standby in one activation (the indexed 'Actions' text neither allows nor forbids it; check the Standby entry of the full rules)".into(),
                rule: None,
                path: Some(path.to_string()),
            });
        }
    }

    fn gain_token(&mut self, k: Kind) -> u32 {
        let t = match k {
            Kind::Aim => &mut self.tokens.aim,
            Kind::Dodge => &mut self.tokens.dodge,
            _ => &mut self.tokens.standby,
        };
        *t = t.saturating_add(1);
        *t
    }

    fn token_gain_from_action(&mut self, kind: Kind, s: &mut Step) {
        if kind.is_token() {
            let n = self.gain_token(kind);
            s.text.push_str(&format!(
                " and gains {} {} token",
                article(kind.name()),
                kind.name()
            ));
            s.numbers
                .push((format!("{} tokens", kind.name()), i64::from(n)));
            s.assumption = Some(format!(
                "that the {} action gives {} {} token comes from the {} entry of the full rules, not the indexed 'Actions' text",
                kind.name(),
                article(kind.name()),
                kind.name(),
                kind.name()
            ));
        }
    }

    fn check_repeat(
        &self,
        kind: Kind,
        card: Option<usize>,
        path: &str,
        free: Option<bool>,
    ) -> Result<(), Diagnostic> {
        let name = &self.unit.name;
        if kind == Kind::Card {
            let c = card.unwrap_or(usize::MAX);
            if self.cards.contains(&c) {
                return Err(error(
                    Some("legion:actions.3.1"),
                    path,
                    format!(
                        "{name} has already performed the card action {} this activation; a unit cannot perform the same card action more than once",
                        self.card_name(c)
                    ),
                ));
            }
            return Ok(());
        }
        if kind == Kind::Move {
            return Ok(());
        }
        if let Some(d) = self.done[kind.index()] {
            let (rule, lead) = match free {
                Some(true) => ("legion:actions.7", format!("a free {} action is considered an action for the purposes of game effects, and ", kind.name())),
                Some(false) => ("legion:actions.8", "an untyped free action is considered an action for the purposes of game effects, and ".to_string()),
                None => (Self::repeat_rule(d), String::new()),
            };
            return Err(error(
                Some(rule),
                path,
                format!(
                    "{lead}{name} has already performed {} {} action this activation ({}); a unit cannot perform the same non-move action more than once{}",
                    article(kind.name()),
                    kind.name(),
                    Self::how(d),
                    match (free, self.available().saturating_sub(self.used)) {
                        (None, left) if left > 0 => format!(
                            ". {name} still has {left} of its {} left, but not for {} {} action",
                            plural(self.available(), "action", "actions"),
                            article(kind.name()),
                            kind.name()
                        ),
                        _ => String::new(),
                    }
                ),
            ));
        }
        Ok(())
    }

    fn mark(&mut self, kind: Kind, card: Option<usize>, how: Done) {
        match kind {
            Kind::Card => self.cards.extend(card),
            Kind::Move => {}
            k => {
                if self.done[k.index()].is_none() {
                    self.done[k.index()] = Some(how);
                }
            }
        }
        match kind {
            Kind::Attack => self.attacked = true,
            Kind::Standby => self.standby = true,
            _ => {}
        }
    }

    fn action_name(&self, kind: Kind, card: Option<usize>) -> String {
        match kind {
            Kind::Card => format!(
                "the card action {}",
                card.map_or("?", |c| self.card_name(c))
            ),
            k => format!("{} {} action", article(k.name()), k.name()),
        }
    }

    /// Applies one step. On error the activation must be discarded.
    pub fn apply(
        &mut self,
        op: &Op,
        path: &str,
        out: &mut Vec<Step>,
        notes: &mut Vec<Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let unit: &'u UnitV = self.unit;
        let (name, player) = (&unit.name, &unit.player);
        let choice = |chose: String| {
            Some(Choice {
                assumed: None,
                player: player.clone(),
                chose,
            })
        };
        match op {
            Op::Action { kind, card } => {
                let (kind, card) = (*kind, *card);
                if self.used >= self.available() {
                    let reduced = self.available() < 2;
                    let (rule, why) = if reduced {
                        (
                            "legion:actions.5",
                            format!("its actions are reduced to {}", self.available()),
                        )
                    } else {
                        (
                            "legion:actions.1",
                            "a unit performs two actions when activated".to_string(),
                        )
                    };
                    return Err(error(
                        Some(rule),
                        path,
                        format!(
                            "{name} has already used {} of its {} this activation ({why}); {} is not allowed, only free actions, free card actions or attacks that are not actions",
                            self.used,
                            plural(self.available(), "action", "actions"),
                            format_args!(
                                "{} {} action",
                                article(&ordinal(self.used + 1)),
                                ordinal(self.used + 1)
                            )
                        ),
                    ));
                }
                self.check_repeat(kind, card, path, None)?;
                let repeated_move = kind == Kind::Move && self.done[0].is_some();
                let other_card = kind == Kind::Card && !self.cards.is_empty();
                self.used += 1;
                let rule = if repeated_move {
                    "legion:actions.2"
                } else if other_card {
                    "legion:actions.3.1"
                } else {
                    kind.list_rule()
                };
                let mut text = format!(
                    "{name} performs {} (action {} of {})",
                    self.action_name(kind, card),
                    self.used,
                    self.available()
                );
                if repeated_move {
                    text.push_str(": the move action can be performed more than once");
                } else if other_card {
                    text.push_str(": each card action is a unique action, and this one is different from the earlier one");
                }
                let mut s = step(rule, text);
                s.numbers = vec![
                    ("actions used".into(), i64::from(self.used)),
                    ("actions available".into(), i64::from(self.available())),
                ];
                s.choice = choice(match kind {
                    Kind::Card => {
                        format!("card action {}", card.map_or("?", |c| self.card_name(c)))
                    }
                    k => format!("{} action", k.name()),
                });
                self.token_gain_from_action(kind, &mut s);
                if kind == Kind::Move {
                    self.done[0] = Some(Done::Action);
                }
                self.mark(kind, card, Done::Action);
                out.push(s);
                self.more_than_two(out);
                self.attack_standby(out, notes, path);
                self.after_action(kind, None, out);
            }
            Op::Free {
                kind,
                card,
                src,
                typed,
            } => {
                let (kind, card, typed) = (*kind, *card, *typed);
                self.check_source(src, path)?;
                if let Source::Ability(i) = src
                    && let Some(Grant::FreeAction(Some(t))) =
                        self.unit.abilities.get(*i).map(|a| a.grant)
                    && t != kind
                {
                    return Err(error(
                        Some("legion:actions.7"),
                        path,
                        format!(
                            "{} provides a free action of a certain type, {} {} action; it cannot be used as {}",
                            self.ability_name(*i),
                            article(t.name()),
                            t.name(),
                            self.action_name(kind, card)
                        ),
                    ));
                }
                self.check_repeat(kind, card, path, Some(typed))?;
                self.free += 1;
                let src_name = self.source_name(src);
                let (rule, text) = if typed {
                    (
                        "legion:actions.7",
                        format!(
                            "{name} performs a free {} action ({src_name}){}: it does not count against its {} ({} used), but it is an action for game effects",
                            kind.name(),
                            if kind == Kind::Card {
                                format!(
                                    ", the card action {}",
                                    card.map_or("?", |c| self.card_name(c))
                                )
                            } else {
                                String::new()
                            },
                            plural(self.available(), "action", "actions"),
                            self.used
                        ),
                    )
                } else {
                    (
                        "legion:actions.8",
                        format!(
                            "{name} performs a free action without a type ({src_name}) as {}, an action it could normally perform: it does not count against its {} ({} used), but it is an action for game effects",
                            self.action_name(kind, card),
                            plural(self.available(), "action", "actions"),
                            self.used
                        ),
                    )
                };
                let mut s = step(rule, text);
                s.numbers = vec![
                    ("actions used".into(), i64::from(self.used)),
                    ("free actions".into(), i64::from(self.free)),
                ];
                s.choice = choice(self.describe(op));
                self.token_gain_from_action(kind, &mut s);
                if kind == Kind::Move && self.done[0].is_none() {
                    self.done[0] = Some(Done::Free { typed });
                }
                self.mark(kind, card, Done::Free { typed });
                self.consume(src);
                out.push(s);
                self.more_than_two(out);
                self.attack_standby(out, notes, path);
                self.after_action(kind, Some(rule), out);
            }
            Op::FreeCard { idx } => {
                let idx = *idx;
                let card = self.free_card_name(idx).to_string();
                if self.free_cards.contains(&idx) {
                    return Err(error(
                        Some("legion:actions.4.1"),
                        path,
                        format!(
                            "{name} has already performed the free card action {card} this activation; a unit cannot perform the same free card action more than once"
                        ),
                    ));
                }
                let other = !self.free_cards.is_empty();
                self.free_cards.push(idx);
                self.free += 1;
                let (rule, text) = if other {
                    (
                        "legion:actions.4.1",
                        format!(
                            "{name} performs the free card action {card}: a different free card action from the earlier one; it does not count against its actions ({} used)",
                            self.used
                        ),
                    )
                } else {
                    (
                        "legion:actions.4",
                        format!(
                            "{name} performs the free card action {card}: free card actions do not count against its actions ({} used)",
                            self.used
                        ),
                    )
                };
                let mut s = step(rule, text);
                s.numbers = vec![
                    ("actions used".into(), i64::from(self.used)),
                    ("free actions".into(), i64::from(self.free)),
                ];
                s.choice = choice(format!("free card action {card}"));
                out.push(s);
                self.more_than_two(out);
                self.after_action(Kind::Card, Some("legion:actions.4"), out);
            }
            Op::ExtraAttack { src } => {
                self.check_source(src, path)?;
                self.consume(src);
                self.extra_attacks += 1;
                let src_name = self.source_name(src);
                let mut text = format!(
                    "{name} performs an attack that is not an action ({src_name}): it does not count toward the single attack action, nor against its {} ({} used)",
                    plural(self.available(), "action", "actions"),
                    self.used
                );
                if let Some(d) = self.done[Kind::Attack.index()] {
                    text.push_str(&format!(", so it can be performed even though {name} has already performed an attack action ({})", Self::how(d)));
                }
                let mut s = step("legion:actions.9", text);
                s.numbers = vec![
                    ("actions used".into(), i64::from(self.used)),
                    (
                        "attacks that are not actions".into(),
                        i64::from(self.extra_attacks),
                    ),
                ];
                s.choice = choice(format!("attack that is not an action ({src_name})"));
                out.push(s);
                self.attacked = true;
                self.attack_standby(out, notes, path);
                self.not_triggered(Kind::Attack, "legion:actions.9", "this attack is not an action, and it does not trigger abilities that occur after actions are performed", out);
            }
            Op::Gain { token, src } => {
                let token = *token;
                self.check_source(src, path)?;
                self.consume(src);
                let n = self.gain_token(token);
                let src_name = self.source_name(src);
                let mut text = format!(
                    "{name} gains {} {} token from an effect ({src_name}): that is different from performing {} {} action",
                    article(token.name()),
                    token.name(),
                    article(token.name()),
                    token.name()
                );
                if self.done[token.index()].is_none() {
                    text.push_str(&format!(
                        "; {name} may still perform {} {} action this activation",
                        article(token.name()),
                        token.name()
                    ));
                }
                let mut s = step("legion:actions.10", text);
                s.numbers = vec![(format!("{} tokens", token.name()), i64::from(n))];
                s.choice = choice(format!("gain {} token ({src_name})", token.name()));
                out.push(s);
                self.not_triggered(
                    token,
                    "legion:actions.10",
                    &format!("gaining {} {} token from an effect does not trigger abilities or effects that occur after {} actions", article(token.name()), token.name(), token.name()),
                    out,
                );
            }
        }
        Ok(())
    }

    pub fn available(&self) -> u32 {
        self.unit.available
    }

    /// Where the activation stands: actions left, what they may be, abilities still open.
    pub fn summary(&self) -> Step {
        let name = &self.unit.name;
        let left = self.available().saturating_sub(self.used);
        let mut text = format!(
            "{name} has used {} of {} this activation",
            self.used,
            plural(self.available(), "action", "actions")
        );
        if self.free > 0 {
            text.push_str(&format!(
                ", plus {}",
                plural(self.free, "free action", "free actions")
            ));
        }
        if self.extra_attacks > 0 {
            text.push_str(&format!(
                ", and made {}",
                plural(
                    self.extra_attacks,
                    "attack that is not an action",
                    "attacks that are not actions"
                )
            ));
        }
        let rule;
        if left == 0 {
            rule = "legion:actions.6";
            text.push_str("; no actions remain, but free actions may still let it perform more");
        } else {
            rule = "legion:actions.2";
            let mut may = Vec::new();
            let mut not = Vec::new();
            for k in [
                Kind::Move,
                Kind::Attack,
                Kind::Aim,
                Kind::Dodge,
                Kind::Standby,
                Kind::Recover,
            ] {
                match self.done[k.index()] {
                    Some(d) if k != Kind::Move => {
                        not.push(format!("{} ({})", k.name(), Self::how(d)))
                    }
                    _ => may.push(k.name().to_string()),
                }
            }
            for (i, c) in self.unit.card_actions.iter().enumerate() {
                if self.cards.contains(&i) {
                    not.push(format!("card action {c} (already performed)"));
                } else {
                    may.push(format!("card action {c}"));
                }
            }
            text.push_str(&format!(
                "; {} left, which may be: {}",
                plural(left, "action", "actions"),
                may.join(", ")
            ));
            if !not.is_empty() {
                text.push_str(&format!("; not: {}", not.join("; ")));
            }
        }
        if !self.pending.is_empty() {
            let open: Vec<&str> = self.pending.iter().map(|i| self.ability_name(*i)).collect();
            text.push_str(&format!(
                ". Triggered and not yet used: {}",
                open.join(", ")
            ));
        }
        let mut s = step(rule, text);
        s.numbers = vec![
            ("actions used".into(), i64::from(self.used)),
            ("actions left".into(), i64::from(left)),
            ("free actions".into(), i64::from(self.free)),
        ];
        s
    }
}
