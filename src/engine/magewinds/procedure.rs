//! The Action Phase procedure: turns, activations, actions, reactions.

use super::model::{Board, Counter, LastAction, Play, Pos, check_inches, check_pos};
use super::rules as r;
use crate::engine::legacy::resolve_name;
use crate::engine::{BoardError, Choice, Diagnostic, Ruling, Severity, Step};

/// Slack for comparing inches measured from decimal positions.
const EPS: f64 = 1e-6;

/// (player index, fighter index).
type Fid = (usize, usize);

/// A play the rules forbid: the diagnostic, already recorded.
struct Illegal;

type Res<T> = Result<Result<T, Illegal>, BoardError>;

struct Ctx {
    b: Board,
    steps: Vec<Step>,
    diags: Vec<Diagnostic>,
    first_turn_warned: bool,
}

pub fn judge_board(mut board: Board) -> Result<Ruling, BoardError> {
    board.validate()?;
    let plays: Vec<(String, Play)> = match (board.play.take(), board.plays.take()) {
        (Some(_), Some(_)) => {
            return Err(BoardError::semantic(
                "plays",
                "give either `play` (one play) or `plays` (a list), not both",
            ));
        }
        (Some(p), None) => vec![("play".to_string(), p)],
        (None, Some(ps)) => ps
            .into_iter()
            .enumerate()
            .map(|(i, p)| (format!("plays[{i}]"), p))
            .collect(),
        (None, None) => Vec::new(),
    };
    let before = board.state_json();
    let mut cx = Ctx {
        b: board,
        steps: Vec::new(),
        diags: Vec::new(),
        first_turn_warned: false,
    };
    let mut legal = true;
    if plays.is_empty() {
        cx.status()?;
    }
    for (path, play) in &plays {
        let outcome = if play.activate.is_some() {
            if play.react.is_some() || play.fighter.is_some() {
                return Err(BoardError::semantic(
                    path.clone(),
                    "a play is either `activate: <fighter>` or `react: <reaction>` with `fighter:`, not both",
                ));
            }
            cx.activation(play, path)?
        } else if play.react.is_some() {
            cx.reaction(play, path, None)?.map(|_| cx.after_reaction())
        } else {
            return Err(BoardError::semantic(
                path.clone(),
                "say what the play is: `activate: <fighter>` (with an action) or `react: <reaction>` with `fighter: <fighter>`",
            ));
        };
        if outcome.is_err() {
            legal = false;
            break;
        }
    }
    let (state, changes) = if legal {
        let after = cx.b.state_json();
        let changes = crate::engine::diff(&before, &after);
        (after, changes)
    } else {
        (before, Vec::new())
    };
    Ok(Ruling {
        pending: None,
        status: None,
        game: "magewinds".to_string(),
        legal,
        steps: cx.steps,
        diagnostics: cx.diags,
        state,
        changes,
    })
}

fn tenths(inches: f64) -> i64 {
    (inches * 10.0).round() as i64
}

fn fmt_in(inches: f64) -> String {
    let v = (inches * 100.0).round() / 100.0;
    if v.fract() == 0.0 {
        format!("{v:.0}\"")
    } else {
        format!("{v}\"")
    }
}

fn dist(a: Pos, b: Pos) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn round_pos(p: Pos) -> Pos {
    [
        (p[0] * 1000.0).round() / 1000.0,
        (p[1] * 1000.0).round() / 1000.0,
    ]
}

fn is_dodge_or_deflect(name: &str) -> bool {
    let f = crate::text::fold(name);
    f == "dodge" || f == "deflect"
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

trait StepExt {
    fn num(self, k: &str, v: i64) -> Self;
    fn chose(self, player: &str, chose: String) -> Self;
    fn assume(self, a: impl Into<String>) -> Self;
}

impl StepExt for Step {
    fn num(mut self, k: &str, v: i64) -> Self {
        self.numbers.push((k.to_string(), v));
        self
    }
    fn chose(mut self, player: &str, chose: String) -> Self {
        self.choice = Some(Choice {
            assumed: None,
            player: player.to_string(),
            chose,
        });
        self
    }
    fn assume(mut self, a: impl Into<String>) -> Self {
        self.assumption = Some(a.into());
        self
    }
}

enum Kind {
    Move,
    Attack,
    Guard,
    Other(String),
}

impl Ctx {
    fn fighter(&self, id: Fid) -> &super::model::Fighter {
        &self.b.players[id.0].fighters[id.1]
    }

    fn fighter_mut(&mut self, id: Fid) -> &mut super::model::Fighter {
        &mut self.b.players[id.0].fighters[id.1]
    }

    fn fname(&self, id: Fid) -> String {
        self.fighter(id).name.clone()
    }

    fn pname(&self, pi: usize) -> String {
        self.b.players[pi].name.clone()
    }

    fn illegal<T>(&mut self, rule: &str, path: &str, message: String) -> Res<T> {
        self.diags.push(Diagnostic {
            severity: Severity::Error,
            message,
            rule: Some(rule.to_string()),
            path: Some(path.to_string()),
        });
        Ok(Err(Illegal))
    }

    fn note(&mut self, severity: Severity, rule: Option<&str>, path: &str, message: String) {
        self.diags.push(Diagnostic {
            severity,
            message,
            rule: rule.map(str::to_string),
            path: Some(path.to_string()),
        });
    }

    fn resolve_fighter(&self, typed: &str, path: &str) -> Result<Fid, BoardError> {
        let names: Vec<&str> = self
            .b
            .players
            .iter()
            .flat_map(|p| p.fighters.iter().map(|f| f.name.as_str()))
            .collect();
        let name = resolve_name(typed, &names, path, "fighter")?;
        for (pi, p) in self.b.players.iter().enumerate() {
            if let Some(fi) = p.fighters.iter().position(|f| f.name == name) {
                return Ok((pi, fi));
            }
        }
        Err(BoardError::semantic(
            path,
            format!("unknown fighter '{typed}'"),
        ))
    }

    fn resolve_player(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        let names: Vec<&str> = self.b.players.iter().map(|p| p.name.as_str()).collect();
        let name = resolve_name(typed, &names, path, "player")?;
        self.b
            .players
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| BoardError::semantic(path, format!("unknown player '{typed}'")))
    }

    fn can_activate(&self, pi: usize) -> bool {
        self.b.players[pi]
            .fighters
            .iter()
            .any(|f| f.counter != Counter::Double)
    }

    /// The player whose turn it is, applying the first-turn rule and
    /// ending turns of players with nothing left to activate.
    fn current_turn(&mut self, path: &str) -> Res<usize> {
        if self.b.phase_over {
            return self.illegal(
                r::END,
                path,
                "the Action Phase is over: no fighter can be activated until the next round's Action Phase".to_string(),
            );
        }
        match self.turn_player()? {
            Some(pi) => Ok(Ok(pi)),
            None => self.illegal(
                r::END,
                path,
                "no fighter can be activated, so the Action Phase has ended".to_string(),
            ),
        }
    }

    /// The player whose turn it is (None: the phase has ended), applying
    /// the first-turn rule and ending turns of players with nothing to activate.
    fn turn_player(&mut self) -> Result<Option<usize>, BoardError> {
        let pi = match self.b.turn.clone() {
            Some(t) => {
                let pi = self.resolve_player(&t, "turn")?;
                self.check_first_turn(pi)?;
                pi
            }
            None => {
                let Some(first) = self.b.first_to_pass.clone() else {
                    return Err(BoardError::semantic(
                        "first_to_pass",
                        "the board says neither whose `turn` it is nor which player was `first_to_pass` in the Channelling Phase",
                    )
                    .with_rule(r::PHASE));
                };
                let pi = self.resolve_player(&first, "first_to_pass")?;
                let started = self.b.last_action.is_some()
                    || self
                        .b
                        .players
                        .iter()
                        .any(|p| p.fighters.iter().any(|f| f.counter != Counter::None));
                if started {
                    return Err(BoardError::semantic(
                        "turn",
                        "fighters already have action counters, so this is not the first turn of the Action Phase; say whose `turn` it is",
                    )
                    .with_rule(r::PHASE));
                }
                let name = self.pname(pi);
                self.steps.push(step(
                    r::PHASE,
                    format!("The first turn of the Action Phase goes to {name}, who was first to pass in the Channelling Phase."),
                ));
                self.b.turn = Some(name);
                pi
            }
        };
        if self.can_activate(pi) {
            return Ok(Some(pi));
        }
        Ok(self.pass_turn_from(pi, true))
    }

    /// No play: whose turn it is and who can still be activated.
    fn status(&mut self) -> Result<(), BoardError> {
        if self.b.phase_over {
            self.steps.push(step(
                r::END,
                "The Action Phase is over: no fighter can be activated.".to_string(),
            ));
            return Ok(());
        }
        let Some(pi) = self.turn_player()? else {
            return Ok(());
        };
        let name = self.pname(pi);
        let p = &self.b.players[pi];
        let ready: Vec<String> = p
            .fighters
            .iter()
            .filter(|f| f.counter != Counter::Double)
            .map(|f| format!("{} ({})", f.name, f.counter.word()))
            .collect();
        let spent: Vec<&str> = p
            .fighters
            .iter()
            .filter(|f| f.counter == Counter::Double)
            .map(|f| f.name.as_str())
            .collect();
        let mut text = format!(
            "It is {name}'s turn: choose one of {name}'s fighters to activate: {}.",
            ready.join(", ")
        );
        if !spent.is_empty() {
            text.push_str(&format!(
                " {} cannot be chosen: a double action counter.",
                spent.join(", ")
            ));
        }
        self.steps.push(step(r::PHASE, text));
        Ok(())
    }

    /// Warns when the board looks like the first turn of the phase but
    /// names a player other than the first to pass.
    fn check_first_turn(&mut self, pi: usize) -> Result<(), BoardError> {
        let Some(first) = self.b.first_to_pass.clone() else {
            return Ok(());
        };
        let fi = self.resolve_player(&first, "first_to_pass")?;
        let untouched = self.b.last_action.is_none()
            && self
                .b
                .players
                .iter()
                .all(|p| p.fighters.iter().all(|f| f.counter == Counter::None));
        if untouched && fi != pi && !self.first_turn_warned {
            self.first_turn_warned = true;
            let (t, f) = (self.pname(pi), self.pname(fi));
            self.note(
                Severity::Warning,
                Some(r::PHASE),
                "turn",
                format!(
                    "no fighter has an action counter yet, so this looks like the first turn of the Action Phase, which goes to {f} (first to pass in the Channelling Phase), but the board says it is {t}'s turn"
                ),
            );
        }
        Ok(())
    }

    /// Passes the turn on from `pi` (players in listed order). With
    /// `ended`, `pi`'s own turn ends for want of fighters. Returns the new
    /// turn player, or None when the phase ended.
    fn pass_turn_from(&mut self, pi: usize, ended: bool) -> Option<usize> {
        let n = self.b.players.len();
        if ended {
            let name = self.pname(pi);
            self.steps.push(step(
                r::PHASE,
                format!(
                    "{name} has no fighters remaining that can be activated, so their turn ends."
                ),
            ));
        }
        for k in 1..=n {
            let q = (pi + k) % n;
            if self.can_activate(q) {
                let name = self.pname(q);
                let mut s = step(
                    r::PHASE,
                    format!("Players take it in turns: it is now {name}'s turn."),
                );
                if n > 2 {
                    s = s.assume("with more than two players, turns go round in the order the board lists the players");
                }
                self.steps.push(s);
                self.b.turn = Some(name);
                return Some(q);
            }
            if q != pi {
                let name = self.pname(q);
                self.steps.push(step(r::PHASE, format!("{name} has no fighters remaining that can be activated, so their turn ends.")));
            }
        }
        self.end_phase();
        None
    }

    fn end_phase(&mut self) {
        self.steps.push(step(
            r::END,
            "No fighter can be activated: the Action Phase ends.".to_string(),
        ));
        self.b.phase_over = true;
        self.b.turn = None;
        let guarded: Vec<String> = self
            .b
            .players
            .iter()
            .flat_map(|p| {
                p.fighters
                    .iter()
                    .filter(|f| f.guard)
                    .map(|f| f.name.clone())
            })
            .collect();
        if !guarded.is_empty() {
            for p in &mut self.b.players {
                for f in &mut p.fighters {
                    f.guard = false;
                }
            }
            self.steps.push(step(
                r::GUARD,
                format!(
                    "Guard lasts until the end of the Action Phase: it ends for {}.",
                    guarded.join(", ")
                ),
            ));
        }
    }

    /// After a reaction outside an activation: the phase may have run out.
    fn after_reaction(&mut self) {
        if self.b.phase_over {
            return;
        }
        let turn = self.b.turn.as_deref().and_then(|t| {
            let key = crate::text::fold(t);
            self.b
                .players
                .iter()
                .position(|p| crate::text::fold(&p.name) == key)
        });
        match turn {
            // The reaction used up the turn player's last fighter: their turn ends.
            Some(t) if !self.can_activate(t) => {
                self.pass_turn_from(t, true);
            }
            Some(_) => {}
            None if !(0..self.b.players.len()).any(|q| self.can_activate(q)) => self.end_phase(),
            None => {}
        }
    }

    fn step_distance(
        &self,
        id: Fid,
        play: &Play,
        path: &str,
    ) -> Result<Option<(f64, Option<Pos>)>, BoardError> {
        match (play.step, play.step_to) {
            (None, None) => Ok(None),
            (Some(d), None) => {
                check_inches(d, &format!("{path}.step"), "step")?;
                if d < 0.0 {
                    return Err(BoardError::semantic(
                        format!("{path}.step"),
                        "a step move cannot be a negative distance",
                    ));
                }
                Ok(Some((d, None)))
            }
            (s, Some(to)) => {
                check_pos(&to, &format!("{path}.step_to"))?;
                let straight = dist(self.fighter(id).position, to);
                let d = s.unwrap_or(straight).max(straight);
                Ok(Some((d, Some(to))))
            }
        }
    }

    /// Makes a step move (already checked against 1").
    fn do_step(&mut self, id: Fid, d: f64, to: Option<Pos>, rule: &str, when: &str) {
        let name = self.fname(id);
        let mut s = match to {
            Some(p) => {
                self.fighter_mut(id).position = round_pos(p);
                step(rule, format!("{name} makes a step move of {} to [{}, {}] {when}.", fmt_in(d), p[0], p[1]))
            }
            None => step(rule, format!("{name} makes a step move of {} {when}.", fmt_in(d))).assume(
                "the step move gives no destination (`step_to`), so the fighter's position on the board is left as it was",
            ),
        };
        s = s.num("step (tenths of an inch)", tenths(d));
        self.steps.push(s);
    }

    fn give_counter(&mut self, id: Fid, free: bool, free_rule_note: Option<String>) {
        let name = self.fname(id);
        if free {
            let mut s = step(
                r::FREE,
                format!("The action is free: no action counter is placed or flipped on {name}."),
            );
            if let Some(n) = free_rule_note {
                s = s.assume(n);
            }
            self.steps.push(s);
            return;
        }
        let before = self.fighter(id).counter;
        let after = match before {
            Counter::None => Counter::Single,
            _ => Counter::Double,
        };
        self.fighter_mut(id).counter = after;
        let text = match before {
            Counter::None => format!(
                "{name} has made an action and had no action counter: it gets a single action counter."
            ),
            _ => format!(
                "{name} has made an action and already had a single action counter: it gets a double action counter."
            ),
        };
        self.steps.push(step(r::PHASE, text).num(
            "action counters",
            if after == Counter::Double { 2 } else { 1 },
        ));
    }

    fn action_kind(&self, play: &Play, path: &str) -> Result<Kind, BoardError> {
        let kind = match play.action.as_deref() {
            Some(a) => match crate::text::fold(a).as_str() {
                "move" => Kind::Move,
                "attack" => Kind::Attack,
                "guard" => Kind::Guard,
                "" => {
                    return Err(BoardError::semantic(
                        format!("{path}.action"),
                        "the action name is empty",
                    ));
                }
                _ => Kind::Other(a.trim().to_string()),
            },
            None if play.target.is_some() || play.attack.is_some() => Kind::Attack,
            None if play.distance.is_some() || play.to.is_some() => Kind::Move,
            None => {
                return Err(BoardError::semantic(
                    format!("{path}.action"),
                    "say which action the fighter makes: move, attack, guard, or the name of another action",
                ));
            }
        };
        let misplaced = |field: &str, ok: bool| -> Result<(), BoardError> {
            if ok {
                Ok(())
            } else {
                Err(BoardError::semantic(
                    format!("{path}.{field}"),
                    format!("`{field}` does not belong to this action"),
                ))
            }
        };
        let is_move = matches!(kind, Kind::Move);
        let is_attack = matches!(kind, Kind::Attack);
        misplaced("distance", play.distance.is_none() || is_move)?;
        misplaced("to", play.to.is_none() || is_move)?;
        misplaced("attack", play.attack.is_none() || is_attack)?;
        misplaced("visible", play.visible.is_none() || is_attack)?;
        misplaced("trigger_met", play.trigger_met.is_none())?;
        if let Kind::Other(_) = kind {
            misplaced("target", true)?;
        } else {
            misplaced("target", play.target.is_none() || is_attack)?;
        }
        Ok(kind)
    }

    fn activation(&mut self, play: &Play, path: &str) -> Res<()> {
        let typed = play.activate.as_deref().unwrap_or_default();
        let id = self.resolve_fighter(typed, &format!("{path}.activate"))?;
        let kind = self.action_kind(play, path)?;
        let Ok(turn) = self.current_turn(path)? else {
            return Ok(Err(Illegal));
        };
        let owner = id.0;
        let fname = self.fname(id);
        let oname = self.pname(owner);
        if let Some(p) = &play.player {
            let pi = self.resolve_player(p, &format!("{path}.player"))?;
            if pi != owner {
                let pn = self.pname(pi);
                return self.illegal(
                    r::PHASE,
                    &format!("{path}.player"),
                    format!("{pn} cannot activate {fname}: it is {oname}'s fighter, and on your turn you choose one of your own fighters"),
                );
            }
        }
        if owner != turn {
            let tn = self.pname(turn);
            return self.illegal(
                r::PHASE,
                &format!("{path}.activate"),
                format!("it is {tn}'s turn, not {oname}'s: players take it in turns, so {fname} cannot be activated now"),
            );
        }
        if self.fighter(id).counter == Counter::Double {
            return self.illegal(
                r::PHASE,
                &format!("{path}.activate"),
                format!("{fname} has a double action counter: it cannot perform actions and cannot be chosen to activate"),
            );
        }
        let counter_word = self.fighter(id).counter.word();
        self.steps.push(
            step(r::PHASE, format!("On {oname}'s turn, {oname} activates {fname} (which has {counter_word}); it may make one action."))
                .chose(&oname, format!("activate {fname}")),
        );
        if self.fighter(id).guard {
            self.fighter_mut(id).guard = false;
            self.steps.push(step(
                r::GUARD,
                format!(
                    "{fname}'s Guard lasts only until its next activation: it ends now, unused."
                ),
            ));
        }
        if let Some(u) = match kind {
            Kind::Move => Some("Move"),
            Kind::Attack => Some("Attack"),
            Kind::Guard => Some("Guard"),
            Kind::Other(_) => None,
        } {
            self.steps.push(step(
                r::UNIVERSAL,
                format!(
                    "{u} is a universal action: it is available to all fighters, {fname} included."
                ),
            ));
        }
        let step_move = self.step_distance(id, play, path)?;
        let done = match kind {
            Kind::Move => self.move_action(id, play, path, step_move.is_some())?,
            Kind::Attack => match self.step_before(id, step_move, path)? {
                Ok(()) => self.attack_action(id, play, path)?,
                Err(i) => Err(i),
            },
            Kind::Guard => match self.step_before(id, step_move, path)? {
                Ok(()) => {
                    self.fighter_mut(id).guard = true;
                    self.steps.push(
                        step(
                            r::GUARD,
                            format!(
                                "{fname} makes the Guard action: until its next activation or the end of the Action Phase, its next Dodge or Deflect reaction is free."
                            ),
                        )
                        .chose(&oname, "Guard".to_string()),
                    );
                    self.b.last_action = Some(LastAction {
                        fighter: fname.clone(),
                        action: "guard".to_string(),
                        target: None,
                    });
                    Ok(())
                }
                Err(i) => Err(i),
            },
            Kind::Other(name) => match self.step_before(id, step_move, path)? {
                Ok(()) => self.other_action(id, &name, play, path)?,
                Err(i) => Err(i),
            },
        };
        match done {
            Ok(()) => match self.nested_reactions(play, path)? {
                Ok(()) => self.finish_activation(id, play),
                Err(i) => Ok(Err(i)),
            },
            Err(i) => Ok(Err(i)),
        }
    }

    /// Reactions made during the action just made (its `reactions` list).
    fn nested_reactions(&mut self, play: &Play, path: &str) -> Res<()> {
        let last = self.b.last_action.clone();
        let during = last
            .as_ref()
            .map(|l| (l.fighter.as_str(), l.action.as_str(), l.target.as_deref()));
        for (k, rp) in play.reactions.iter().enumerate() {
            let rpath = format!("{path}.reactions[{k}]");
            if rp.activate.is_some() || !rp.reactions.is_empty() {
                return Err(BoardError::semantic(
                    rpath,
                    "only reactions (`react:` with `fighter:`) can be made during an action",
                ));
            }
            if rp.react.is_none() {
                return Err(BoardError::semantic(
                    format!("{rpath}.react"),
                    "name the reaction, e.g. `react: Dodge`",
                ));
            }
            let Ok(()) = self.reaction(rp, &rpath, during)? else {
                return Ok(Err(Illegal));
            };
        }
        Ok(Ok(()))
    }

    fn finish_activation(&mut self, id: Fid, play: &Play) -> Res<()> {
        let note = play
            .free
            .then(|| "the board marks this action free; the rule that makes it free (a card or ability) is outside the indexed text".to_string());
        self.give_counter(id, play.free, note);
        self.pass_turn_from(id.0, false);
        Ok(Ok(()))
    }

    /// A step move before an action's effects (13.1).
    fn step_before(&mut self, id: Fid, sm: Option<(f64, Option<Pos>)>, path: &str) -> Res<()> {
        let Some((d, to)) = sm else { return Ok(Ok(())) };
        if d > 1.0 + EPS {
            let name = self.fname(id);
            return self.illegal(
                r::STEP,
                &format!("{path}.{}", if to.is_some() { "step_to" } else { "step" }),
                format!(
                    "a step move is up to 1\"; {name}'s step move is {}",
                    fmt_in(d)
                ),
            );
        }
        self.do_step(
            id,
            d,
            to,
            r::STEP,
            "before the action's effects are resolved",
        );
        Ok(Ok(()))
    }

    fn move_action(&mut self, id: Fid, play: &Play, path: &str, has_step: bool) -> Res<()> {
        let name = self.fname(id);
        if has_step {
            return self.illegal(
                r::MOVE,
                &format!(
                    "{path}.{}",
                    if play.step_to.is_some() {
                        "step_to"
                    } else {
                        "step"
                    }
                ),
                format!(
                    "{name} is making a Move action: do not make a step move as part of this action"
                ),
            );
        }
        let start = self.fighter(id).position;
        let movement = self.fighter(id).movement;
        let moved = match (play.distance, play.to) {
            (None, None) => {
                return Err(BoardError::semantic(
                    format!("{path}.distance"),
                    "a Move needs a `distance` in inches or a destination `to: [x, y]`",
                ));
            }
            (d, to) => {
                if let Some(d) = d {
                    check_inches(d, &format!("{path}.distance"), "distance")?;
                    if d < 0.0 {
                        return Err(BoardError::semantic(
                            format!("{path}.distance"),
                            "a move cannot be a negative distance",
                        ));
                    }
                }
                if let Some(t) = &to {
                    check_pos(t, &format!("{path}.to"))?;
                }
                let straight = to.map(|t| dist(start, t)).unwrap_or(0.0);
                d.unwrap_or(straight).max(straight)
            }
        };
        // Nearest enemy at the start of the action.
        let mut nearest: Option<(f64, String)> = None;
        for (pi, p) in self.b.players.iter().enumerate() {
            if pi == id.0 {
                continue;
            }
            for f in &p.fighters {
                let d = dist(start, f.position);
                if nearest.as_ref().is_none_or(|(nd, _)| d < *nd) {
                    nearest = Some((d, f.name.clone()));
                }
            }
        }
        let within = nearest.as_ref().is_some_and(|(d, _)| *d <= 1.0 + EPS);
        let allowance = if within {
            (movement - 2.0).max(0.0)
        } else {
            movement
        };
        let measure_note = "distances are measured in a straight line between the positions on the board; bases, terrain and the rest of 15.0 - Movement are not indexed";
        let s = if within {
            let (d, enemy) = nearest.clone().unwrap_or((0.0, String::new()));
            step(
                r::MOVE,
                format!(
                    "{name} begins the Move within 1\" of an enemy fighter ({enemy}, {} away): it may only move its Movement {} minus 2 = {}.",
                    fmt_in(d),
                    fmt_in(movement),
                    fmt_in(allowance)
                ),
            )
            .num("Movement (tenths of an inch)", tenths(movement))
            .num("nearest enemy (tenths of an inch)", tenths(d))
            .num("allowance (tenths of an inch)", tenths(allowance))
        } else {
            let mut s = step(
                r::MOVE,
                format!(
                    "{name} may move as far as its Movement attribute: {}.",
                    fmt_in(movement)
                ),
            )
            .num("Movement (tenths of an inch)", tenths(movement));
            if let Some((d, _)) = &nearest {
                s = s.num("nearest enemy (tenths of an inch)", tenths(*d));
            }
            s
        };
        self.steps.push(s.assume(format!(
            "{measure_note}; \"within 1\\\"\" is read as 1\" or less"
        )));
        if moved > allowance + EPS {
            return self.illegal(
                r::MOVE,
                &format!(
                    "{path}.{}",
                    if play.distance.is_some() {
                        "distance"
                    } else {
                        "to"
                    }
                ),
                format!(
                    "{name} may move at most {} on this Move, but moves {}",
                    fmt_in(allowance),
                    fmt_in(moved)
                ),
            );
        }
        let owner = self.pname(id.0);
        let mut s = match play.to {
            Some(t) => {
                self.fighter_mut(id).position = round_pos(t);
                step(r::MOVE, format!("{name} moves {} to [{}, {}].", fmt_in(moved), t[0], t[1]))
            }
            None => step(r::MOVE, format!("{name} moves {}.", fmt_in(moved)))
                .assume("the Move gives no destination (`to`), so the fighter's position on the board is left as it was"),
        };
        s = s
            .num("moved (tenths of an inch)", tenths(moved))
            .chose(&owner, format!("Move {}", fmt_in(moved)));
        self.steps.push(s);
        self.b.last_action = Some(LastAction {
            fighter: name,
            action: "move".to_string(),
            target: None,
        });
        Ok(Ok(()))
    }

    fn attack_action(&mut self, id: Fid, play: &Play, path: &str) -> Res<()> {
        let name = self.fname(id);
        let owner = self.pname(id.0);
        let attacks: Vec<String> = self.fighter(id).attacks.clone();
        let attack = match &play.attack {
            Some(a) => {
                let refs: Vec<&str> = attacks.iter().map(String::as_str).collect();
                if refs.is_empty() {
                    return self.illegal(
                        r::ATTACK,
                        &format!("{path}.attack"),
                        format!("{name} has no attacks listed on the board, so '{a}' is not available to it"),
                    );
                }
                match resolve_name(a, &refs, &format!("{path}.attack"), "attack") {
                    Ok(x) => x.to_string(),
                    Err(e) => {
                        return self.illegal(
                            r::ATTACK,
                            &format!("{path}.attack"),
                            format!("{name}: {} (not available to this fighter)", e.message),
                        );
                    }
                }
            }
            None => {
                match attacks.as_slice() {
                    [one] => one.clone(),
                    [] => {
                        return self.illegal(
                        r::ATTACK,
                        &format!("{path}.attack"),
                        format!("{name} has no attacks listed on the board: list them under `attacks`"),
                    );
                    }
                    many => {
                        return Err(BoardError::semantic(
                            format!("{path}.attack"),
                            format!(
                                "{name} has several attacks ({}); say which one with `attack:`",
                                many.join(", ")
                            ),
                        )
                        .with_rule(r::ATTACK));
                    }
                }
            }
        };
        let Some(t) = &play.target else {
            return Err(BoardError::semantic(
                format!("{path}.target"),
                "an Attack needs a `target` fighter",
            )
            .with_rule(r::ATTACK));
        };
        let tid = self.resolve_fighter(t, &format!("{path}.target"))?;
        let tname = self.fname(tid);
        if tid == id {
            return self.illegal(
                r::ATTACK,
                &format!("{path}.target"),
                format!("{name} cannot attack itself: the target excludes the attacker"),
            );
        }
        // Visibility (16.0 not indexed): the play's list, else the board's.
        let (vis, from_play) = match &play.visible {
            Some(v) => (Some(v.clone()), true),
            None => (self.fighter(id).visible.clone(), false),
        };
        let seen = match &vis {
            Some(list) => list
                .iter()
                .any(|v| crate::text::fold(v) == crate::text::fold(&tname)),
            None => true,
        };
        if !seen {
            let src = if from_play {
                format!("{path}.visible")
            } else {
                format!("players[{}].fighters[{}].visible", id.0, id.1)
            };
            return self.illegal(
                r::ATTACK,
                &src,
                format!(
                    "{tname} is not visible to {name} (visibility, rule 16.0, is not indexed; {} `visible` list was used): an attack needs a visible target",
                    if from_play { "the play's" } else { "the board's" }
                ),
            );
        }
        if tid.0 == id.0 {
            self.note(
                Severity::Warning,
                Some(r::ATTACK),
                &format!("{path}.target"),
                format!("{tname} is on {name}'s own side; the indexed text excludes only the attacker itself, so this is allowed"),
            );
        }
        let vis_note = match (&vis, from_play) {
            (Some(_), true) => {
                "visibility (16.0) is not indexed: taken from the play's `visible` list (what the attacker sees at the moment of the attack)"
            }
            (Some(_), false) => {
                "visibility (16.0) is not indexed: taken from the board's `visible` list for the attacker"
            }
            (None, _) => {
                "visibility (16.0) is not indexed and the board gives no `visible` list for the attacker: the target is taken to be visible"
            }
        };
        self.steps.push(
            step(
                r::ATTACK,
                format!(
                    "{name} attacks {tname} with {attack}, one of its attacks, against a visible target other than itself. Resolving the attack (18.0) is outside the indexed text."
                ),
            )
            .chose(&owner, format!("{attack} against {tname}"))
            .assume(vis_note),
        );
        self.b.last_action = Some(LastAction {
            fighter: name.clone(),
            action: "attack".to_string(),
            target: Some(tname.clone()),
        });
        Ok(Ok(()))
    }

    fn other_action(&mut self, id: Fid, action: &str, play: &Play, path: &str) -> Res<()> {
        let name = self.fname(id);
        let owner = self.pname(id.0);
        let list: Vec<String> = self.fighter(id).actions.clone();
        let action = if list.is_empty() {
            action.to_string()
        } else {
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            match resolve_name(action, &refs, &format!("{path}.action"), "action") {
                Ok(x) => x.to_string(),
                Err(e) => {
                    return self.illegal(
                        r::PHASE,
                        &format!("{path}.action"),
                        format!(
                            "{name} can make only the actions available to it: {}",
                            e.message
                        ),
                    );
                }
            }
        };
        let mut s = step(
            r::PHASE,
            format!("{name} makes the action {action}. Its effects are outside the indexed text (13.0-13.5) and are not resolved here."),
        )
        .chose(&owner, action.clone());
        if list.is_empty() {
            s = s.assume("the board lists no `actions` for this fighter, so the named action is taken to be available to it");
        }
        self.steps.push(s);
        if let Some(t) = &play.target {
            let tid = self.resolve_fighter(t, &format!("{path}.target"))?;
            let tname = self.fname(tid);
            self.b.last_action = Some(LastAction {
                fighter: name,
                action,
                target: Some(tname),
            });
        } else {
            self.b.last_action = Some(LastAction {
                fighter: name,
                action,
                target: None,
            });
        }
        Ok(Ok(()))
    }

    /// A reaction: standalone (`during` None: triggers are checked against
    /// the board's last action) or during an action (`during` = that action).
    fn reaction(
        &mut self,
        play: &Play,
        path: &str,
        during: Option<(&str, &str, Option<&str>)>,
    ) -> Res<()> {
        let Some(typed_fighter) = &play.fighter else {
            return Err(BoardError::semantic(
                format!("{path}.fighter"),
                "say which fighter makes the reaction, e.g. `fighter: Stonewarden`",
            ));
        };
        for (field, bad) in [
            ("action", play.action.is_some()),
            ("distance", play.distance.is_some()),
            ("to", play.to.is_some()),
            ("target", play.target.is_some()),
            ("attack", play.attack.is_some()),
            ("visible", play.visible.is_some()),
            ("reactions", !play.reactions.is_empty()),
        ] {
            if bad {
                return Err(BoardError::semantic(
                    format!("{path}.{field}"),
                    format!("`{field}` does not belong to a reaction"),
                ));
            }
        }
        let id = self.resolve_fighter(typed_fighter, &format!("{path}.fighter"))?;
        let name = self.fname(id);
        let owner = self.pname(id.0);
        let typed = play.react.as_deref().unwrap_or_default();
        if let Some(p) = &play.player {
            let pi = self.resolve_player(p, &format!("{path}.player"))?;
            if pi != id.0 {
                let pn = self.pname(pi);
                return self.illegal(
                    r::TRIGGER,
                    &format!("{path}.player"),
                    format!("{pn} cannot make {name}'s reaction: only {owner}, its controlling player, may choose to make it"),
                );
            }
        }
        let defs = self.fighter(id).reactions.clone();
        let names: Vec<&str> = defs.iter().map(|d| d.name()).collect();
        let def = match resolve_name(typed, &names, &format!("{path}.react"), "reaction") {
            Ok(n) => defs.iter().find(|d| d.name() == n).cloned(),
            Err(e) => {
                let msg = if names.is_empty() {
                    format!(
                        "{name} has no reactions listed on the board, so '{typed}' is not available to it"
                    )
                } else {
                    format!("{name} does not have that reaction: {}", e.message)
                };
                return self.illegal(r::TRIGGER, &format!("{path}.react"), msg);
            }
        };
        let Some(def) = def else {
            return Err(BoardError::semantic(
                format!("{path}.react"),
                format!("unknown reaction '{typed}'"),
            ));
        };
        let rname = def.name().to_string();
        self.steps.push(step(
            r::REACTION,
            format!("{name} makes {rname}, a reaction: an action with a trigger condition, whose step move comes after its effects."),
        ));
        let guard_free = self.fighter(id).guard && is_dodge_or_deflect(&rname);
        if self.fighter(id).counter == Counter::Double {
            if guard_free {
                self.steps.push(
                    step(
                        r::PHASE,
                        format!("{name} has a double action counter and an active Guard that would make {rname} free."),
                    )
                    .assume(
                        "open question: the indexed text does not say whether Guard lets a fighter on a double action counter make a free Dodge or Deflect. Reading chosen: it does not, because 13.0 says such a fighter cannot perform actions at all, a reaction is an action (13.3), and being free (13.2) only means no counter is placed or flipped",
                    ),
                );
            }
            return self.illegal(
                r::PHASE,
                &format!("{path}.fighter"),
                format!(
                    "{name} has a double action counter: it cannot perform actions, and a reaction is an action{}",
                    if guard_free { " (open question: this holds even for a Dodge or Deflect that Guard makes free; see the step's assumption)" } else { "" }
                ),
            );
        }
        // Trigger condition.
        let trigger = def.trigger().map(str::to_string);
        let folded = trigger.as_deref().map(crate::text::fold);
        let checkable = matches!(
            folded.as_deref(),
            Some("attacked") | Some("targetedbyanattack")
        );
        if checkable {
            let ctx: Option<(String, String, Option<String>)> = match during {
                Some((f, a, t)) => Some((f.to_string(), a.to_string(), t.map(str::to_string))),
                None => self
                    .b
                    .last_action
                    .as_ref()
                    .map(|l| (l.fighter.clone(), l.action.clone(), l.target.clone())),
            };
            let met = ctx
                .as_ref()
                .is_some_and(|(_, a, t)| a == "attack" && t.as_deref() == Some(name.as_str()));
            if !met {
                let what = match &ctx {
                    Some((f, a, Some(t))) => format!("the last action was {f}'s {a} against {t}"),
                    Some((f, a, None)) => format!("the last action was {f}'s {a}"),
                    None => "no action has been made".to_string(),
                };
                return self.illegal(
                    r::TRIGGER,
                    &format!("{path}.react"),
                    format!("{rname} triggers when {name} is attacked, but {what}: the trigger condition is not met"),
                );
            }
            let attacker = ctx.map(|c| c.0).unwrap_or_default();
            self.steps.push(step(
                r::TRIGGER,
                format!("Trigger condition met: {name} is the target of {attacker}'s attack."),
            ));
        } else {
            let desc = trigger
                .clone()
                .unwrap_or_else(|| "not given on the board".to_string());
            match play.trigger_met {
                Some(true) => self.steps.push(
                    step(r::TRIGGER, format!("Trigger condition of {rname} ({desc}) is met, as the players state."))
                        .assume("the engine cannot check this trigger from the board, so it takes the play's `trigger_met: true`"),
                ),
                Some(false) => {
                    return self.illegal(
                        r::TRIGGER,
                        &format!("{path}.trigger_met"),
                        format!("{rname} can only be used when its trigger condition ({desc}) is met, and the play says it is not"),
                    );
                }
                None => {
                    return self.illegal(
                        r::TRIGGER,
                        &format!("{path}.trigger_met"),
                        format!(
                            "{rname} can only be used when its trigger condition ({desc}) is met; the engine cannot tell from the board, so add `trigger_met: true` if it was (or give the reaction `trigger: attacked` on the board)"
                        ),
                    );
                }
            }
        }
        self.steps.push(
            step(
                r::TRIGGER,
                format!("{owner}, who controls {name}, chooses to make the reaction {rname}. Its effects are outside the indexed text."),
            )
            .chose(&owner, format!("{rname} with {name}")),
        );
        if let Some((d, to)) = self.step_distance(id, play, path)? {
            if d > 1.0 + EPS {
                return self.illegal(
                    r::STEP,
                    &format!("{path}.{}", if to.is_some() { "step_to" } else { "step" }),
                    format!(
                        "a step move is up to 1\"; {name}'s step move is {}",
                        fmt_in(d)
                    ),
                );
            }
            self.do_step(
                id,
                d,
                to,
                r::REACTION_STEP,
                "after the reaction's effects are resolved",
            );
        }
        if guard_free {
            self.fighter_mut(id).guard = false;
            self.steps.push(
                step(r::GUARD, format!("{name} is on Guard, so this {rname} reaction is free; the Guard is used up."))
                    .assume("reading: Guard makes only the next Dodge or Deflect free, so it ends once that reaction is made"),
            );
            self.give_counter(id, true, None);
        } else {
            let note = play.free.then(|| {
                "the board marks this reaction free; the rule that makes it free is outside the indexed text".to_string()
            });
            self.give_counter(id, play.free, note);
        }
        Ok(Ok(()))
    }
}
