//! The Action Phase procedure (13.0–13.5): turns, activations, actions,
//! reactions, the end of the phase.
//!
//! The acting player's own choices (fighter, action, distance, target) make
//! the play illegal when impossible. Reactions made during an action belong
//! to their fighters' controllers: an impossible one is refused alone and
//! the action resolves without it; the attacked fighter's reaction, when not
//! stated, is asked of its controller (in a match) or assumed "no reaction".

use serde_json::json;

use super::board::{
    Board, Counter, Fid, LastAction, Phase, Pos, ReactionDef, Said, check_inches, check_pos,
};
use super::plays::{Activation, Play, Reaction};
use super::rules::*;
use crate::BoardError;
use crate::kit::choices::{Choice, one_or_none};
use crate::kit::{Cx, Opt, Stop, names};
use crate::ruling::MAX_OPTIONS;
use crate::text::fold;

/// Slack for comparing inches measured from decimal positions.
const EPS: f64 = 1e-6;
const MAY_REACT: &str = "13.3: the controlling player 'may choose to make the reaction': no reaction unless they choose one";
const MEASURE: &str = "distances are measured in a straight line between the positions on the board; bases, terrain and the rest of 15.0 - Movement are not indexed; \"within 1\\\"\" is read as 1\" or less";
const OPEN_QUESTION: &str = "open question: the indexed text does not say whether Guard lets a fighter on a double action counter make a free Dodge or Deflect. Reading chosen: it does not, because 13.0 says such a fighter cannot perform actions at all, a reaction is an action (13.3), and being free (13.2) only means no counter is placed or flipped; the alternative reading lets the free reaction through";

/// The seat that makes the play: the player it names, else the fighter's controller.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    let by = match play {
        Play::Activate(a) => Maker::activation(b, a)?,
        Play::React(r) => Maker::reaction(b, r, "play")?,
    };
    Ok(by.author)
}

/// A fighter a play names, and the seat making the play with it (the
/// fighter's controller unless the play names a player), resolved once.
#[derive(Debug, Clone, Copy)]
struct Maker {
    id: Fid,
    author: usize,
}

impl Maker {
    /// `id`, with the player the play at `path` names, if any.
    fn by(b: &Board, id: Fid, player: Option<&str>, path: &str) -> Result<Maker, BoardError> {
        let author = match player {
            Some(p) => b.seat(p, &field(path, "player"))?,
            None => id.0,
        };
        Ok(Maker { id, author })
    }

    fn activation(b: &Board, a: &Activation) -> Result<Maker, BoardError> {
        let id = b.find(&a.activate, "play.activate")?;
        Maker::by(b, id, a.player.as_deref(), "play")
    }

    fn reaction(b: &Board, r: &Reaction, path: &str) -> Result<Maker, BoardError> {
        let id = b.find(&r.fighter, &field(path, "fighter"))?;
        Maker::by(b, id, r.player.as_deref(), path)
    }
}

/// An activation's names resolved on the board before the procedure runs:
/// the fighter and its player, the action, the target when named, and the
/// fighter and player of each reaction made during it.
struct Names {
    by: Maker,
    kind: Kind,
    target: Option<Fid>,
    reactions: Vec<Maker>,
}

impl Names {
    fn resolve(b: &Board, a: &Activation) -> Result<Names, BoardError> {
        let by = Maker::activation(b, a)?;
        let kind = action_kind(a)?;
        let target = a.target.as_ref().map(|t| b.find(t, "play.target"));
        let reactions = a.reactions.iter().flatten().enumerate();
        let reactions =
            reactions.map(|(k, r)| Maker::reaction(b, r, &format!("play.reactions[{k}]")));
        Ok(Names {
            by,
            kind,
            target: target.transpose()?,
            reactions: reactions.collect::<Result<_, _>>()?,
        })
    }
}

pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    match play {
        Play::Activate(a) => activation(b, a, Names::resolve(b, a)?, cx),
        Play::React(r) => {
            let by = Maker::reaction(b, r, "play")?;
            // A reaction may use up the turn player's last fighter.
            if reaction(b, r, by, "play", None, cx)?
                && let Some(t) = b.turn_seat()
                && !b.can_activate(t)
            {
                pass_turn_from(b, t, true, cx);
            }
            Ok(())
        }
    }
}

fn tenths(inches: f64) -> i64 {
    (inches * 10.0).round() as i64
}

fn inches(v: f64) -> String {
    format!("{}\"", (v * 100.0).round() / 100.0)
}

fn dist(a: Pos, b: Pos) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn field(path: &str, f: &str) -> String {
    format!("{path}.{f}")
}

/// The fighter's and its controller's names.
fn who(b: &Board, id: Fid) -> (String, String) {
    (b.fighter(id).name.to_string(), b.name(id.0))
}

fn record(b: &mut Board, fighter: String, action: &str, target: Option<String>) {
    let action = action.to_string();
    b.last_action = Some(LastAction {
        fighter,
        action,
        target,
        reactions_settled: false,
    });
}

/// An illegal play: the error is recorded, nothing of the play happens.
fn illegal(cx: &mut Cx, rule: &str, path: &str, msg: String) -> Result<(), Stop> {
    cx.error(rule, path, msg);
    Ok(())
}

/// Passes the turn on from `pi`, in the board's player order; with `ended`,
/// `pi`'s own turn ends for want of fighters. None: the phase ended.
fn pass_turn_from(b: &mut Board, pi: usize, ended: bool, cx: &mut Cx) -> Option<usize> {
    let n = b.players.len();
    b.first_turn = false;
    let turn_ends = |q: usize, cx: &mut Cx| {
        let text = format!(
            "{} has no fighters remaining that can be activated, so their turn ends.",
            b.name(q)
        );
        cx.step(PHASE, text);
    };
    if ended {
        turn_ends(pi, cx);
    }
    for q in (1..=n).map(|k| (pi + k) % n) {
        if b.can_activate(q) {
            let text = format!("Players take it in turns: it is now {}'s turn.", b.name(q));
            let st = cx.step(PHASE, text);
            if n > 2 {
                st.assume("with more than two players, turns go round in the order the board lists the players (the indexed text does not say)");
            }
            b.turn = Some(b.name(q));
            return Some(q);
        }
        if q != pi {
            turn_ends(q, cx);
        }
    }
    end_phase(b, true, cx);
    None
}

/// The Action Phase ends (13.5); Guard lasts until then at most (13.4 Guard).
pub fn end_phase(b: &mut Board, say: bool, cx: &mut Cx) {
    if say {
        cx.step(END, "No fighter can be activated: the Action Phase ends.");
    }
    (b.phase, b.turn, b.first_turn) = (Phase::End, None, false);
    let fighters = b.players.iter_mut().flat_map(|p| p.fighters.iter_mut());
    let guarded: Vec<String> = fighters
        .filter_map(|f| std::mem::take(&mut f.guard).then(|| f.name.to_string()))
        .collect();
    if !guarded.is_empty() {
        let list = guarded.join(", ");
        let text = format!("Guard lasts until the end of the Action Phase: it ends for {list}.");
        cx.step(GUARD, text);
    }
}

/// A distance in inches a play states: finite, not negative.
fn distance(v: Option<f64>, path: &str) -> Result<(), BoardError> {
    match v {
        Some(d) if d < 0.0 => Err(BoardError::semantic(path, "a distance cannot be negative")),
        Some(d) => check_inches(d, path, "a distance"),
        None => Ok(()),
    }
}

/// A step move (distance, destination, field), if the play makes one.
type StepMove = Option<(f64, Option<Pos>, String)>;

fn step_of(
    b: &Board,
    id: Fid,
    step: Option<f64>,
    to: Option<Pos>,
    path: &str,
) -> Result<StepMove, BoardError> {
    distance(step, &field(path, "step"))?;
    to.map(|p| check_pos(&p, &field(path, "step_to")))
        .transpose()?;
    let straight = to.map_or(0.0, |t| dist(b.fighter(id).position, t));
    let at = field(path, if to.is_some() { "step_to" } else { "step" });
    Ok((step.is_some() || to.is_some()).then(|| (step.unwrap_or(0.0).max(straight), to, at)))
}

/// A step move over 1": where, and why it is refused (13.1).
fn too_long(b: &Board, id: Fid, step: &StepMove) -> Option<(String, String)> {
    let (d, _, at) = step.as_ref().filter(|s| s.0 > 1.0 + EPS)?;
    let name = &b.fighter(id).name;
    Some((
        at.clone(),
        format!(
            "a step move is up to 1\"; {name}'s step move is {}",
            inches(*d)
        ),
    ))
}

/// Makes a step move (checked against 1"), before an action's effects
/// (13.1) or after a reaction's (13.3.2).
fn step_move(b: &mut Board, id: Fid, step: StepMove, reaction: bool, cx: &mut Cx) {
    let Some((d, to, _)) = step else { return };
    let (rule, when) = match reaction {
        true => (REACTION_STEP, "after the reaction's effects are resolved"),
        false => (STEP, "before the action's effects are resolved"),
    };
    let text = format!("{} makes a step move of {}", b.fighter(id).name, inches(d));
    let st = match to {
        Some(p) => {
            b.fighter_mut(id).position = p.map(|v| (v * 1000.0).round() / 1000.0);
            cx.step(rule, format!("{text} to [{}, {}] {when}.", p[0], p[1]))
        }
        None => cx.step(rule, format!("{text} {when}.")).assume("the step move gives no destination (`step_to`), so the fighter's position on the board is left as it was"),
    };
    st.num("step (tenths of an inch)", tenths(d));
}

/// After an action: a single counter, or a double one over a single (13.0);
/// none for a free action (13.2).
fn give_counter(b: &mut Board, id: Fid, free: Option<&str>, cx: &mut Cx) {
    let f = b.fighter_mut(id);
    let name = f.name.to_string();
    if let Some(why) = free {
        let text = format!("The action is free: no action counter is placed or flipped on {name}.");
        let st = cx.step(FREE, text);
        if !why.is_empty() {
            st.assume(why);
        }
        return;
    }
    let (n, had, gets, now) = match f.counter {
        Counter::None => (1, "had no action counter", "a single", Counter::Single),
        _ => (
            2,
            "already had a single action counter",
            "a double",
            Counter::Double,
        ),
    };
    f.counter = now;
    let text = format!("{name} has made an action and {had}: it gets {gets} action counter.");
    cx.step(PHASE, text).num("action counters", n);
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Move,
    Attack,
    Guard,
    Other(String),
}

/// The action an activation makes; fields of another action are refused.
fn action_kind(a: &Activation) -> Result<Kind, BoardError> {
    let named = a.action.as_deref().unwrap_or_default().trim();
    let kind = match fold(named).as_str() {
        "move" => Kind::Move,
        "attack" => Kind::Attack,
        "guard" => Kind::Guard,
        "" if a.action.is_none() && (a.target.is_some() || a.attack.is_some()) => Kind::Attack,
        "" if a.action.is_none() && (a.distance.is_some() || a.to.is_some()) => Kind::Move,
        "" => {
            let e = "say which action the fighter makes: move, attack, guard, or the name of another action";
            return Err(BoardError::semantic("play.action", e));
        }
        _ => Kind::Other(named.to_string()),
    };
    let (mv, atk) = (kind == Kind::Move, kind == Kind::Attack);
    let other = matches!(kind, Kind::Other(_));
    let misplaced = [
        ("distance", a.distance.is_some() && !mv),
        ("to", a.to.is_some() && !mv),
        ("attack", a.attack.is_some() && !atk),
        ("visible", a.visible.is_some() && !atk),
        ("target", a.target.is_some() && !atk && !other),
    ];
    match misplaced.iter().find(|(_, bad)| *bad) {
        Some((f, _)) => Err(BoardError::semantic(
            format!("play.{f}"),
            format!("`{f}` does not belong to this action"),
        )),
        None => Ok(kind),
    }
}

/// Whether the fighter may be activated now; records the turn steps (turns
/// ended, the first turn) on the way.
fn may_activate(b: &mut Board, by: Maker, cx: &mut Cx) -> bool {
    let (id, author) = (by.id, by.author);
    let (fname, owner) = who(b, id);
    // A turn player with nothing left to activate: their turn ends first.
    let turn = b.turn_seat().filter(|_| b.phase == Phase::Action);
    let turn = turn.and_then(|t| {
        b.can_activate(t)
            .then_some(t)
            .or_else(|| pass_turn_from(b, t, true, cx))
    });
    let Some(turn) = turn else {
        let rule = [END, PHASE][usize::from(b.phase == Phase::Channelling)];
        cx.error(rule, "phase", "the Action Phase is not under way (the board is in the Channelling Phase, or no fighter can be activated any more): fighters are activated only in the Action Phase; move on with `match advance`");
        return false;
    };
    if b.first_turn && b.first_to_pass.as_deref() == Some(&b.name(turn)) {
        let first = b.name(turn);
        cx.step(PHASE, format!("The first turn of the Action Phase is taken by {first}, who was first to pass in the Channelling Phase."));
    }
    if author != id.0 {
        let pn = b.name(author);
        cx.error(PHASE, "play.player", format!("{pn} cannot activate {fname}: it is {owner}'s fighter, and on your turn you choose one of your own fighters"));
    } else if id.0 != turn {
        let tn = b.name(turn);
        cx.error(PHASE, "play.activate", format!("it is {tn}'s turn, not {owner}'s: players take it in turns, so {fname} cannot be activated now"));
    } else if b.fighter(id).counter == Counter::Double {
        cx.error(PHASE, "play.activate", format!("{fname} has a double action counter: it cannot perform actions and cannot be chosen to activate"));
    }
    !cx.failed()
}

fn activation(b: &mut Board, a: &Activation, n: Names, cx: &mut Cx) -> Result<(), Stop> {
    let (id, kind) = (n.by.id, &n.kind);
    if !may_activate(b, n.by, cx) {
        return Ok(());
    }
    let (fname, owner) = who(b, id);
    let counter = b.fighter(id).counter.word();
    cx.step(PHASE, format!("On {owner}'s turn, {owner} activates {fname} (which has {counter}); it may make one action."))
        .chose(&owner, format!("activate {fname}"));
    if std::mem::take(&mut b.fighter_mut(id).guard) {
        let text =
            format!("{fname}'s Guard lasts only until its next activation: it ends now, unused.");
        cx.step(GUARD, text);
    }
    if !matches!(kind, Kind::Other(_)) {
        let text = format!(
            "{kind:?} is a universal action: it is available to all fighters, {fname} included."
        );
        cx.step(UNIVERSAL, text);
    }
    let step = step_of(b, id, a.step, a.step_to, "play")?;
    let step_at = step.as_ref().map(|s| s.2.clone());
    if *kind != Kind::Move {
        if let Some((at, e)) = too_long(b, id, &step) {
            return illegal(cx, STEP, &at, e);
        }
        step_move(b, id, step, false, cx);
    }
    match kind {
        Kind::Move => move_action(b, id, a, step_at, cx)?,
        Kind::Attack => attack_action(b, id, a, n.target, cx)?,
        Kind::Guard => {
            b.fighter_mut(id).guard = true;
            cx.step(GUARD, format!("{fname} makes the Guard action: until its next activation or the end of the Action Phase, its next Dodge or Deflect reaction is free."))
                .chose(&owner, "Guard");
            record(b, fname, "guard", None);
        }
        Kind::Other(name) => other_action(b, id, name, n.target, cx)?,
    }
    if cx.failed() {
        return Ok(());
    }
    reactions_during(b, a, &n.reactions, cx)?;
    let free = "the board marks this action free; the rule that makes it free (a card or ability) is outside the indexed text";
    give_counter(b, id, a.free.then_some(free), cx);
    pass_turn_from(b, id.0, false, cx);
    Ok(())
}

fn move_action(
    b: &mut Board,
    id: Fid,
    a: &Activation,
    step_at: Option<String>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let (name, owner) = who(b, id);
    if let Some(at) = step_at {
        let e = format!(
            "{name} is making a Move action: do not make a step move as part of this action"
        );
        return illegal(cx, MOVE, &at, e);
    }
    distance(a.distance, "play.distance")?;
    a.to.map(|t| check_pos(&t, "play.to")).transpose()?;
    if a.distance.is_none() && a.to.is_none() {
        let e = "a Move needs a `distance` in inches or a destination `to: [x, y]`";
        return Err(BoardError::semantic("play.distance", e).into());
    }
    let (start, movement) = (b.fighter(id).position, b.fighter(id).movement);
    let moved = a
        .distance
        .unwrap_or(0.0)
        .max(a.to.map_or(0.0, |t| dist(start, t)));
    let enemies = b.ids().into_iter().filter(|f| f.0 != id.0);
    let nearest = enemies
        .map(|f| {
            (
                dist(start, b.fighter(f).position),
                b.fighter(f).name.to_string(),
            )
        })
        .min_by(|x, y| x.0.total_cmp(&y.0));
    let within = nearest.as_ref().filter(|(d, _)| *d <= 1.0 + EPS);
    let allowance = within.map_or(movement, |_| (movement - 2.0).max(0.0));
    let (m, al) = (inches(movement), inches(allowance));
    let st = match within {
        Some((d, enemy)) => cx.step(MOVE, format!("{name} begins the Move within 1\" of an enemy fighter ({enemy}, {} away): it may only move its Movement {m} minus 2 = {al}.", inches(*d))),
        None => cx.step(MOVE, format!("{name} may move as far as its Movement attribute: {m}.")),
    };
    st.num("Movement (tenths of an inch)", tenths(movement));
    if let Some((d, _)) = &nearest {
        st.num("nearest enemy (tenths of an inch)", tenths(*d));
    }
    if within.is_some() {
        st.num("allowance (tenths of an inch)", tenths(allowance));
    }
    st.assume(MEASURE);
    if moved > allowance + EPS {
        let at = a.distance.map_or("play.to", |_| "play.distance");
        let e = format!(
            "{name} may move at most {al} on this Move, but moves {}",
            inches(moved)
        );
        return illegal(cx, MOVE, at, e);
    }
    let st = match a.to {
        Some(t) => {
            b.fighter_mut(id).position = t.map(|v| (v * 1000.0).round() / 1000.0);
            cx.step(MOVE, format!("{name} moves {} to [{}, {}].", inches(moved), t[0], t[1]))
        }
        None => cx.step(MOVE, format!("{name} moves {}.", inches(moved))).assume("the Move gives no destination (`to`), so the fighter's position on the board is left as it was"),
    };
    st.num("moved (tenths of an inch)", tenths(moved));
    st.chose(&owner, format!("Move {}", inches(moved)));
    record(b, name, "move", None);
    Ok(())
}

/// An omitted choice of the acting player that the rules give no default
/// for: the ruling stops and asks them.
fn ask_for(
    cx: &mut Cx,
    seat: usize,
    key: &str,
    question: String,
    names: Vec<String>,
) -> Result<String, Stop> {
    let options = names
        .into_iter()
        .take(MAX_OPTIONS)
        .map(|n| Opt::field(n.clone(), n.clone(), key, json!(n)));
    let choice = Choice::new(seat, key, None, ATTACK, format!("play.{key}"));
    let chosen = choice.settle(cx, None, || (question, options.collect()));
    chosen.map(|c| c.value())
}

fn attack_action(
    b: &mut Board,
    id: Fid,
    a: &Activation,
    target: Option<Fid>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let (name, owner) = who(b, id);
    let attacks = b.fighter(id).attacks.clone();
    let refs: Vec<&str> = attacks.iter().map(Said::as_str).collect();
    let attack = match (&a.attack, refs.as_slice()) {
        (_, []) => {
            let e = format!(
                "{name} has no attacks listed on the board (`attacks`), so it has no attack available"
            );
            return illegal(cx, ATTACK, "play.attack", e);
        }
        (Some(t), _) => match names::resolve(t, &refs, "attack") {
            Ok(x) => x.to_string(),
            Err(e) => {
                let e = format!("{name}: {e} (not available to this fighter)");
                return illegal(cx, ATTACK, "play.attack", e);
            }
        },
        (None, [one]) => one.to_string(),
        (None, _) => ask_for(
            cx,
            id.0,
            "attack",
            format!("{owner}: which attack does {name} make?"),
            attacks.iter().map(Said::to_string).collect(),
        )?,
    };
    let target = match target {
        Some(t) => t,
        None => {
            let others = b
                .ids()
                .into_iter()
                .filter(|f| *f != id)
                .map(|f| b.fighter(f).name.to_string());
            let question = format!("{owner}: {name} attacks which fighter with {attack}?");
            b.find(
                &ask_for(cx, id.0, "target", question, others.collect())?,
                "play.target",
            )?
        }
    };
    let tname = b.fighter(target).name.to_string();
    if target == id {
        let e = format!("{name} cannot attack itself: the target excludes the attacker");
        return illegal(cx, ATTACK, "play.target", e);
    }
    // Visibility (16.0 is not indexed): the play's list, else the board's.
    let (vis, src, at) = match &a.visible {
        Some(v) => (Some(v), "the play's", "play.visible".to_string()),
        None => (
            b.fighter(id).visible.as_ref(),
            "the board's",
            format!("players[{}].fighters[{}].visible", id.0, id.1),
        ),
    };
    if vis.is_some_and(|list| !list.iter().any(|v| fold(v) == fold(&tname))) {
        let e = format!(
            "{tname} is not visible to {name} (visibility, rule 16.0, is not indexed; {src} `visible` list was used): an attack needs a visible target"
        );
        return illegal(cx, ATTACK, &at, e);
    }
    let vis_note = match vis {
        Some(_) => format!("visibility (16.0) is not indexed: taken from {src} `visible` list"),
        None => "visibility (16.0) is not indexed and the board gives no `visible` list for the attacker: the target is taken to be visible".into(),
    };
    if target.0 == id.0 {
        cx.warn(Some(ATTACK), Some("play.target"), format!("{tname} is on {name}'s own side; the indexed text excludes only the attacker itself, so this is allowed"));
    }
    cx.step(ATTACK, format!("{name} attacks {tname} with {attack}, one of its attacks, against a visible target other than itself. Resolving the attack (18.0) is outside the indexed text."))
        .chose(&owner, format!("{attack} against {tname}"))
        .assume(vis_note);
    record(b, name, "attack", Some(tname));
    Ok(())
}

fn other_action(
    b: &mut Board,
    id: Fid,
    action: &str,
    target: Option<Fid>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let (name, owner) = who(b, id);
    let list = b.fighter(id).actions.clone();
    let refs: Vec<&str> = list.iter().map(Said::as_str).collect();
    let action = match names::resolve(action, &refs, "action") {
        Ok(x) => x.to_string(),
        Err(_) if list.is_empty() => action.to_string(),
        Err(e) => {
            let e = format!("{name} can make only the actions available to it: {e}");
            return illegal(cx, PHASE, "play.action", e);
        }
    };
    let text = format!("{name} makes the action {action}, one of the actions available to it.");
    let st = cx.step(PHASE, text);
    st.chose(&owner, action.clone());
    if list.is_empty() {
        st.assume("the board lists no `actions` for this fighter, so the named action is taken to be available to it");
    }
    cx.warn(None, Some("play.action"), format!("card text not applied: {name}'s {action} (its effects are outside the indexed text, 13.0–13.5)"));
    let target = target.map(|t| b.fighter(t).name.to_string());
    record(b, name, &action, target);
    Ok(())
}

fn is_dodge_or_deflect(name: &str) -> bool {
    matches!(fold(name).as_str(), "dodge" | "deflect")
}

/// The attacked fighter's controller's question: react with one of its
/// reactions whose trigger is `attacked`, or not.
fn react_ask(
    b: &Board,
    t: Fid,
    a: &Activation,
    attacker: &str,
) -> (String, Vec<Opt<Option<String>>>) {
    let f = b.fighter(t);
    let patch = |r: Option<&str>| {
        let mut list =
            serde_json::to_value(a.reactions.clone().unwrap_or_default()).unwrap_or_default();
        if let (Some(r), Some(l)) = (r, list.as_array_mut()) {
            l.push(json!({"react": r, "fighter": f.name}));
        }
        json!({ "reactions": list })
    };
    let options = attacked_reactions(b, t)
        .map(|r| {
            let free = if f.guard && is_dodge_or_deflect(r.name()) {
                " (free: Guard)"
            } else {
                ""
            };
            let label = format!("{} with {}{free}", r.name(), f.name);
            Opt {
                label,
                value: Some(r.name().to_string()),
                patch: patch(Some(r.name())),
            }
        })
        .collect();
    let none = Opt {
        label: "no reaction".into(),
        value: None,
        patch: patch(None),
    };
    let question = format!(
        "{}: {} is attacked by {attacker}; react?",
        b.name(t.0),
        f.name
    );
    (question, one_or_none(options, none))
}

/// The reactions of `t` whose trigger is being attacked (none on a double counter).
fn attacked_reactions(b: &Board, t: Fid) -> impl Iterator<Item = &ReactionDef> + '_ {
    let f = b.fighter(t);
    let on = f.counter != Counter::Double;
    f.reactions.iter().filter(move |r| on && r.on_attacked())
}

/// Whether `t` reacts: its controller's choice, no reaction by default.
fn react_choice(b: &Board, t: Fid) -> Choice<Option<String>> {
    let key = format!("react:{}", b.fighter(t).name);
    Choice::new(t.0, key, Some((None, MAY_REACT)), TRIGGER, "play.reactions")
}

/// Reactions made during the action just made: each is its controller's
/// choice; the attacked fighter's, when not stated, is asked or assumed.
fn reactions_during(b: &mut Board, a: &Activation, by: &[Maker], cx: &mut Cx) -> Result<(), Stop> {
    let Some(during) = b.last_action.clone() else {
        return Ok(());
    };
    let target = match (&during.target, during.action.as_str()) {
        (Some(t), "attack") => Some(b.find(t, "play.target")?),
        _ => None,
    };
    let mut reacted = false;
    for (k, (r, &maker)) in a.reactions.iter().flatten().zip(by).enumerate() {
        let (path, id) = (format!("play.reactions[{k}]"), maker.id);
        reacted |= Some(id) == target;
        let ask = || react_ask(b, id, a, &during.fighter);
        react_choice(b, id).settle(cx, Some(Some(r.react.clone())), ask)?;
        reaction(b, r, maker, &path, Some(&during), cx)?;
    }
    if let Some(l) = b.last_action.as_mut().filter(|_| target.is_some()) {
        l.reactions_settled = true;
    }
    let Some(t) = target.filter(|_| !reacted) else {
        return Ok(());
    };
    if attacked_reactions(b, t).next().is_none() {
        cannot_react(b, t, cx);
    } else {
        let (tname, owner) = who(b, t);
        let ask = || react_ask(b, t, a, &during.fighter);
        let c = react_choice(b, t).settle(cx, a.reactions.as_ref().map(|_| None), ask)?;
        let st = cx.step(TRIGGER, format!("{tname}'s trigger condition is met (it is attacked); {owner}, who controls it, may choose to react and makes no reaction."));
        c.on(st, &owner, format!("no reaction with {tname}"));
    }
    Ok(())
}

/// An attacked fighter on a double action counter that lists reactions
/// to being attacked: it cannot make them (13.0), said on a step, with the
/// open question when its Guard would make a Dodge or Deflect free.
fn cannot_react(b: &Board, t: Fid, cx: &mut Cx) {
    let f = b.fighter(t);
    if f.counter != Counter::Double || !f.reactions.iter().any(ReactionDef::on_attacked) {
        return;
    }
    let (tname, owner) = who(b, t);
    let text = format!(
        "{tname} is attacked, but it has a double action counter: it cannot perform actions, and a reaction is an action, so {owner} is not asked to react."
    );
    let guarded = f.guard
        && f.reactions
            .iter()
            .any(|r| r.on_attacked() && is_dodge_or_deflect(r.name()));
    let st = cx.step(PHASE, text);
    if guarded {
        st.assume(OPEN_QUESTION);
    }
}

/// A reaction: on its own (`during` None: triggers are checked against the
/// board's last action) or during an action, where an impossible one is
/// refused alone. Returns whether it was made.
fn reaction(
    b: &mut Board,
    r: &Reaction,
    by: Maker,
    path: &str,
    during: Option<&LastAction>,
    cx: &mut Cx,
) -> Result<bool, Stop> {
    let (id, author) = (by.id, by.author);
    let (name, owner) = who(b, id);
    let fault = |cx: &mut Cx, rule: &str, f: &str, msg: String| -> Result<bool, Stop> {
        let at = if f.contains('.') {
            f.to_string()
        } else {
            field(path, f)
        };
        match during {
            Some(_) => cx.refuse(
                rule,
                &at,
                format!("{msg}; the reaction is not made and the action resolves without it"),
            ),
            None => cx.error(rule, &at, msg),
        }
        Ok(false)
    };
    if author != id.0 {
        let pi = author;
        let text = format!(
            "{} cannot make {name}'s reaction: only {owner}, its controlling player, may choose to make it",
            b.name(pi)
        );
        return fault(cx, TRIGGER, "player", text);
    }
    let defs = &b.fighter(id).reactions;
    let refs: Vec<&str> = defs.iter().map(|d| d.name()).collect();
    let def = match names::resolve_index(&r.react, &refs, "reaction") {
        Ok(i) => defs[i].clone(),
        Err(_) if refs.is_empty() => {
            let text = format!(
                "{name} has no reactions listed on the board, so '{}' is not available to it",
                r.react
            );
            return fault(cx, TRIGGER, "react", text);
        }
        Err(e) => {
            let text = format!("{name} does not have that reaction: {e}");
            return fault(cx, TRIGGER, "react", text);
        }
    };
    let rname = def.name().to_string();
    let guard_free = b.fighter(id).guard && is_dodge_or_deflect(&rname);
    if b.fighter(id).counter == Counter::Double {
        let mut e = format!(
            "{name} has a double action counter: it cannot perform actions, and a reaction is an action"
        );
        if guard_free {
            let text = format!(
                "{name} has a double action counter and an active Guard that would make {rname} free."
            );
            cx.step(PHASE, text).assume(OPEN_QUESTION);
            e.push_str(" (open question: this holds even for a Dodge or Deflect that Guard makes free; see the step's assumption)");
        }
        return fault(cx, PHASE, "fighter", e);
    }
    let last = during.or(b.last_action.as_ref());
    let trigger = def.trigger().unwrap_or("not given on the board");
    let problem = match (def.on_attacked(), r.trigger_met, last) {
        (true, _, Some(l))
            if during.is_none() && l.reactions_settled && l.target.as_deref() == Some(&name) =>
        {
            Some(("react", format!("{}'s attack on {name} has resolved, and {owner}'s reaction to it was settled then (asked, answered or impossible); no reaction can be made to it now", l.fighter)))
        }
        (true, _, Some(l)) if l.action == "attack" && l.target.as_deref() == Some(&name) => None,
        (true, _, Some(l)) => {
            let on = l.target.as_ref().map(|t| format!(" against {t}")).unwrap_or_default();
            Some(("react", format!("the trigger condition is not met: the last action was {}'s {}{on}", l.fighter, l.action)))
        }
        (true, _, None) => Some(("react", "the trigger condition is not met: no action has been made".to_string())),
        (false, Some(true), _) => None,
        (false, Some(false), _) => Some(("trigger_met", "the play says it is not".to_string())),
        (false, None, _) => Some(("trigger_met", "the engine cannot tell from the board, so add `trigger_met: true` if it was (or give the reaction `trigger: attacked` on the board)".to_string())),
    };
    if let Some((f, why)) = problem {
        let text = format!(
            "{rname} can only be used when its trigger condition ({trigger}) is met; {why}"
        );
        return fault(cx, TRIGGER, f, text);
    }
    let step = step_of(b, id, r.step, r.step_to, path)?;
    if let Some((at, e)) = too_long(b, id, &step) {
        return fault(cx, STEP, &at, e);
    }
    cx.step(REACTION, format!("{name} makes {rname}, a reaction: an action with a trigger condition, whose step move comes after its effects."));
    match (def.on_attacked(), last) {
        (true, Some(l)) => cx.step(TRIGGER, format!("Trigger condition met: {name} is the target of {}'s attack.", l.fighter)),
        _ => cx.step(TRIGGER, format!("Trigger condition of {rname} ({trigger}) is met, as the players state.")).assume("the engine cannot check this trigger from the board, so it takes the play's `trigger_met: true`"),
    };
    let text = format!("{owner}, who controls {name}, chooses to make the reaction {rname}.");
    cx.step(TRIGGER, text)
        .chose(&owner, format!("{rname} with {name}"));
    cx.warn(None, Some(&field(path, "react")), format!("card text not applied: {name}'s {rname} (its effects are outside the indexed text; 18.4 Dodge and Deflect are not indexed)"));
    step_move(b, id, step, true, cx);
    if guard_free {
        b.fighter_mut(id).guard = false;
        cx.step(GUARD, format!("{name} is on Guard, so this {rname} reaction is free; the Guard is used up."))
            .assume("reading: Guard makes only the next Dodge or Deflect free, so it ends once that reaction is made (the text could also be read as keeping Guard until the next activation)");
    }
    let why = "the board marks this reaction free; the rule that makes it free is outside the indexed text";
    let free = guard_free.then_some("").or(r.free.then_some(why));
    give_counter(b, id, free, cx);
    Ok(true)
}
