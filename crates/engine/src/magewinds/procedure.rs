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
use super::plays::{Activation, Play, Reaction, Sight, SightList};
use super::rules::*;
use super::wording::{
    ACTION_TAKEN, ActionStep, Chose, Claimed, FLOORED, FREE_ACTION, FREE_REACTION, Fault,
    GUARD_USED, MAY_REACT, MEASURE, MOVE_HOW_FAR, MOVE_STAYS, Misread, NEGATIVE, NO_ACTION,
    NO_ACTION_PHASE, NO_REACTION, Notice, OPEN_QUESTION, Question, ReactionFault, ReactionStep,
    SEVERAL_REACTIONS, STEP_STAYS, TRIGGER_STATED, TRIGGER_UNGIVEN, TURN_ORDER, TurnStep,
    Unavailable, Unmet, Visibility,
};
use crate::BoardError;
use crate::kit::choices::{Choice, one_or_none};
use crate::kit::{Cx, Opt, Stop, names};
use crate::ruling::MAX_OPTIONS;
use crate::text::fold;

/// Slack for comparing inches measured from decimal positions.
const EPS: f64 = 1e-6;
/// How close a Move's `distance` and the length to its `to` must be to agree
/// (half the hundredth of an inch the ruling prints).
const AGREE: f64 = 0.005;

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
            // Reactions are actions (13.3), made in the Action Phase only.
            if b.phase == Phase::Channelling {
                cx.error(PHASE, "phase", NO_ACTION_PHASE);
                return Ok(());
            }
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
fn illegal(cx: &mut Cx, rule: &str, path: &str, msg: impl Into<String>) -> Result<(), Stop> {
    cx.error(rule, path, msg);
    Ok(())
}

/// Passes the turn on from `pi`, in the board's player order; with `ended`,
/// `pi`'s own turn ends for want of fighters. None: the phase ended.
fn pass_turn_from(b: &mut Board, pi: usize, ended: bool, cx: &mut Cx) -> Option<usize> {
    let n = b.players.len();
    b.first_turn = false;
    let turn_ends = |q: usize, cx: &mut Cx| {
        let player = &b.name(q);
        cx.step(PHASE, TurnStep::TurnEnds { player });
    };
    if ended {
        turn_ends(pi, cx);
    }
    for q in (1..=n).map(|k| (pi + k) % n) {
        if b.can_activate(q) {
            let player = &b.name(q);
            let st = cx.step(PHASE, TurnStep::TurnPasses { player });
            if n > 2 {
                st.assume(TURN_ORDER);
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
        cx.step(END, TurnStep::PhaseEnds);
    }
    (b.phase, b.turn, b.first_turn) = (Phase::End, None, false);
    let fighters = b.players.iter_mut().flat_map(|p| p.fighters.iter_mut());
    let guarded: Vec<String> = fighters
        .filter_map(|f| std::mem::take(&mut f.guard).then(|| f.name.to_string()))
        .collect();
    if !guarded.is_empty() {
        let fighters = &guarded;
        cx.step(GUARD, TurnStep::GuardEnds { fighters });
    }
}

/// A distance in inches a play states: finite, not negative.
fn distance(v: Option<f64>, path: &str) -> Result<(), BoardError> {
    match v {
        Some(d) if d < 0.0 => Err(BoardError::semantic(path, NEGATIVE)),
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
fn too_long<'b>(b: &'b Board, id: Fid, step: &StepMove) -> Option<(String, Fault<'b>)> {
    let (d, _, at) = step.as_ref().filter(|s| s.0 > 1.0 + EPS)?;
    let fighter = &b.fighter(id).name;
    Some((
        at.clone(),
        Fault::StepTooLong {
            fighter,
            inches: *d,
        },
    ))
}

/// Makes a step move (checked against 1"), before an action's effects
/// (13.1) or after a reaction's (13.3.2).
fn step_move(b: &mut Board, id: Fid, step: StepMove, reaction: bool, cx: &mut Cx) {
    let Some((d, to, _)) = step else { return };
    let rule = [STEP, REACTION_STEP][usize::from(reaction)];
    let fighter = &b.fighter(id).name;
    let text = ActionStep::StepMove {
        fighter,
        inches: d,
        to,
        reaction,
    };
    let st = cx.step(rule, text);
    match to {
        Some(p) => b.fighter_mut(id).position = p.map(|v| (v * 1000.0).round() / 1000.0),
        None => _ = st.assume(STEP_STAYS),
    }
    st.num("step (tenths of an inch)", tenths(d));
}

/// After an action: a single counter, or a double one over a single (13.0);
/// none for a free action (13.2).
fn give_counter(b: &mut Board, id: Fid, free: Option<&str>, cx: &mut Cx) {
    let f = b.fighter_mut(id);
    let fighter = &f.name;
    if let Some(why) = free {
        let st = cx.step(FREE, TurnStep::Free { fighter });
        if !why.is_empty() {
            st.assume(why);
        }
        return;
    }
    let (n, double, now) = match f.counter {
        Counter::None => (1, false, Counter::Single),
        _ => (2, true, Counter::Double),
    };
    let text = TurnStep::Counter { fighter, double };
    cx.step(PHASE, text).num("action counters", n);
    f.counter = now;
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Move,
    Attack,
    Guard,
    Other(String),
}

impl Kind {
    /// The universal action's name (13.4); none for another action.
    fn universal(&self) -> Option<&'static str> {
        match self {
            Kind::Move => Some("Move"),
            Kind::Attack => Some("Attack"),
            Kind::Guard => Some("Guard"),
            Kind::Other(_) => None,
        }
    }
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
        "" => return Err(BoardError::semantic("play.action", NO_ACTION)),
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
        // `action: mvoe` with a distance: the misspelt action is at fault.
        Some(_) if other && let Some(meant) = misspelt_universal(named) => {
            let e = Unavailable::Misspelt {
                action: named,
                meant,
            };
            Err(BoardError::semantic("play.action", e))
        }
        Some((field, _)) => Err(BoardError::semantic(
            format!("play.{field}"),
            Misread::Misplaced { field },
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
        cx.error(rule, "phase", NO_ACTION_PHASE);
        return false;
    };
    let (fighter, owner) = (fname.as_str(), owner.as_str());
    if b.first_turn && b.first_to_pass.as_deref() == Some(&b.name(turn)) {
        let player = &b.name(turn);
        cx.step(PHASE, TurnStep::FirstTurn { player });
    }
    if author != id.0 {
        let player = &b.name(author);
        let e = Fault::NotTheirs {
            player,
            fighter,
            owner,
        };
        cx.error(PHASE, "play.player", e);
    } else if id.0 != turn {
        let turn = &b.name(turn);
        let e = Fault::NotTheirTurn {
            turn,
            owner,
            fighter,
        };
        cx.error(PHASE, "play.activate", e);
    } else if b.fighter(id).counter == Counter::Double {
        cx.error(PHASE, "play.activate", Fault::Spent { fighter });
    }
    !cx.failed()
}

fn activation(b: &mut Board, a: &Activation, n: Names, cx: &mut Cx) -> Result<(), Stop> {
    let (id, kind) = (n.by.id, &n.kind);
    if !may_activate(b, n.by, cx) {
        return Ok(());
    }
    let (fname, owner) = who(b, id);
    let (fighter, player) = (fname.as_str(), owner.as_str());
    let counter = b.fighter(id).counter.word();
    let text = TurnStep::Activates {
        player,
        fighter,
        counter,
    };
    cx.step(PHASE, text)
        .chose(player, Chose::Activate { fighter });
    // Claimed before the action: a reaction asked on the way stops the
    // procedure, and the claim must be seen before anyone is asked.
    if a.free {
        cx.claim("play.free", PHASE, Claimed::FreeAction { fighter });
    }
    if std::mem::take(&mut b.fighter_mut(id).guard) {
        cx.step(GUARD, TurnStep::GuardUnused { fighter });
    }
    if let Some(action) = kind.universal() {
        cx.step(UNIVERSAL, TurnStep::Universal { action, fighter });
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
            cx.step(GUARD, ActionStep::Guards { fighter })
                .chose(player, Chose::Guard);
            record(b, fname, "guard", None);
        }
        Kind::Other(name) => other_action(b, id, name, n.target, cx)?,
    }
    if cx.failed() {
        return Ok(());
    }
    reactions_during(b, a, &n.reactions, cx)?;
    give_counter(b, id, a.free.then_some(FREE_ACTION), cx);
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
    let fighter = name.as_str();
    if let Some(at) = step_at {
        return illegal(cx, MOVE, &at, Fault::StepInMove { fighter });
    }
    distance(a.distance, "play.distance")?;
    a.to.map(|t| check_pos(&t, "play.to")).transpose()?;
    if a.distance.is_none() && a.to.is_none() {
        return Err(BoardError::semantic("play.distance", MOVE_HOW_FAR).into());
    }
    let (start, movement) = (b.fighter(id).position, b.fighter(id).movement);
    if let (Some(stated), Some(to)) = (a.distance, a.to) {
        agree(fighter, stated, start, to)?;
    }
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
    let st = match within {
        Some((away, enemy)) => cx.step(
            MOVE,
            ActionStep::NearEnemy {
                fighter,
                enemy,
                away: *away,
                movement,
                allowance,
            },
        ),
        None => cx.step(MOVE, ActionStep::MayMove { fighter, movement }),
    };
    st.num("Movement (tenths of an inch)", tenths(movement));
    if let Some((d, _)) = &nearest {
        st.num("nearest enemy (tenths of an inch)", tenths(*d));
    }
    if within.is_some() {
        st.num("allowance (tenths of an inch)", tenths(allowance));
    }
    st.assume(MEASURE);
    if within.is_some() && movement < 2.0 {
        st.assume(FLOORED);
    }
    if moved > allowance + EPS {
        let at = a.distance.map_or("play.to", |_| "play.distance");
        let e = Fault::TooFar {
            fighter,
            allowance,
            moved,
        };
        return illegal(cx, MOVE, at, e);
    }
    let (inches, to) = (moved, a.to);
    let st = cx.step(
        MOVE,
        ActionStep::Moves {
            fighter,
            inches,
            to,
        },
    );
    match to {
        Some(t) => b.fighter_mut(id).position = t.map(|v| (v * 1000.0).round() / 1000.0),
        None => _ = st.assume(MOVE_STAYS),
    }
    st.num("moved (tenths of an inch)", tenths(moved));
    st.chose(&owner, Chose::Move { inches });
    record(b, name, "move", None);
    Ok(())
}

/// A Move that gives both `distance` and `to`: the stated distance must
/// reach the destination, whose straight line is the shortest way there
/// (to the hundredth of an inch the ruling prints); a longer one is a path
/// around, judged on the distance stated. So the play is never judged on a
/// distance the player did not state. The destination is the field at
/// fault.
fn agree(fighter: &str, stated: f64, from: Pos, to: Pos) -> Result<(), BoardError> {
    let measured = dist(from, to);
    if stated > measured - AGREE {
        return Ok(());
    }
    let e = Misread::MoveDisagrees {
        fighter,
        stated,
        from,
        to,
        measured,
    };
    Err(BoardError::semantic("play.to", e))
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
    let (fighter, player) = (name.as_str(), owner.as_str());
    let attacks = b.fighter(id).attacks.clone();
    let refs: Vec<&str> = attacks.iter().map(Said::as_str).collect();
    let attack = match (&a.attack, refs.as_slice()) {
        (_, []) => {
            let e = Unavailable::NoAttacks { fighter };
            return illegal(cx, ATTACK, "play.attack", e);
        }
        (Some(t), _) => match names::resolve(t, &refs, "attack") {
            Ok(x) => x.to_string(),
            Err(error) => {
                let e = Unavailable::NoSuchAttack {
                    fighter,
                    error: &error,
                };
                return illegal(cx, ATTACK, "play.attack", e);
            }
        },
        (None, [one]) => one.to_string(),
        (None, _) => ask_for(
            cx,
            id.0,
            "attack",
            Question::WhichAttack { player, fighter }.to_string(),
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
            let attack = &attack;
            let question = Question::WhichTarget {
                player,
                fighter,
                attack,
            };
            b.find(
                &ask_for(cx, id.0, "target", question.to_string(), others.collect())?,
                "play.target",
            )?
        }
    };
    let tname = b.fighter(target).name.to_string();
    if target == id {
        let e = Unavailable::AttacksItself { fighter };
        return illegal(cx, ATTACK, "play.target", e);
    }
    // Visibility (16.0 is not indexed): the play's list, else the board's.
    let sight = a.sees(b.fighter(id), &tname);
    let (src, at) = match a.sight_list(b.fighter(id)) {
        Some((_, SightList::Play)) => ("the play's", "play.visible".to_string()),
        _ => (
            "the board's",
            format!("players[{}].fighters[{}].visible", id.0, id.1),
        ),
    };
    let target_name = tname.as_str();
    if sight == Sight::Unseen {
        let e = Unavailable::NotVisible {
            target: target_name,
            fighter,
            list: src,
        };
        return illegal(cx, ATTACK, &at, e);
    }
    let board_sees = b
        .fighter(id)
        .visible
        .as_ref()
        .map(|list| list.iter().any(|v| fold(v) == fold(&tname)));
    if a.visible.is_some() && board_sees == Some(false) {
        let claim = Claimed::Sees {
            fighter,
            target: target_name,
        };
        cx.claim("play.visible", ATTACK, claim);
    }
    let vis_note = Visibility((sight != Sight::Assumed).then_some(src));
    if target.0 == id.0 {
        let w = Notice::OwnSide {
            target: target_name,
            fighter,
        };
        cx.warn(Some(ATTACK), Some("play.target"), w);
    }
    let attack = attack.as_str();
    let text = ActionStep::Attacks {
        fighter,
        target: target_name,
        attack,
    };
    cx.step(ATTACK, text)
        .chose(
            player,
            Chose::Attack {
                attack,
                target: target_name,
            },
        )
        .assume(vis_note);
    record(b, name, "attack", Some(tname));
    Ok(())
}

/// The universal action (13.4) a named action is a typo of, if any.
fn misspelt_universal(action: &str) -> Option<&'static str> {
    let budget = crate::text::typo_budget(action);
    crate::text::closest(action, ["move", "attack", "guard"], budget)
}

fn other_action(
    b: &mut Board,
    id: Fid,
    action: &str,
    target: Option<Fid>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let (name, owner) = who(b, id);
    let fighter = name.as_str();
    let list = b.fighter(id).actions.clone();
    let refs: Vec<&str> = list.iter().map(Said::as_str).collect();
    // A misspelt Move, Attack or Guard (available to all fighters, 13.4)
    // is not another action: the checks of the one meant would not run.
    if !refs.iter().any(|r| crate::text::fold_eq(r, action))
        && let Some(meant) = misspelt_universal(action)
    {
        let e = Unavailable::Misspelt { action, meant };
        return illegal(cx, UNIVERSAL, "play.action", e);
    }
    let action = match names::resolve(action, &refs, "action") {
        Ok(x) => x.to_string(),
        Err(_) if list.is_empty() => action.to_string(),
        Err(error) => {
            let e = Unavailable::NoSuchAction {
                fighter,
                error: &error,
            };
            return illegal(cx, PHASE, "play.action", e);
        }
    };
    let st = cx.step(
        PHASE,
        ActionStep::Makes {
            fighter,
            action: &action,
        },
    );
    st.chose(&owner, action.clone());
    if list.is_empty() {
        st.assume(ACTION_TAKEN);
    }
    let w = Notice::ActionText {
        fighter,
        action: &action,
    };
    cx.warn(None, Some("play.action"), w);
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
    let patch = |rs: &[&str]| {
        let mut list =
            serde_json::to_value(a.reactions.clone().unwrap_or_default()).unwrap_or_default();
        if let Some(l) = list.as_array_mut() {
            l.extend(rs.iter().map(|r| json!({"react": r, "fighter": f.name})));
        }
        json!({ "reactions": list })
    };
    let names: Vec<&str> = attacked_reactions(b, t).map(ReactionDef::name).collect();
    // Each set of its reactions, one at a time first (13.3.1 sets no
    // count: the judge takes several too), in the fighter's order.
    let options = reaction_sets(names.len())
        .into_iter()
        .map(|set| {
            let picked: Vec<&str> = set.iter().map(|&i| names[i]).collect();
            let joined = picked.join(", then ");
            let label = Question::ReactWith {
                reaction: &joined,
                fighter: &f.name,
                free: f.guard && picked.iter().any(|r| is_dodge_or_deflect(r)),
            };
            Opt {
                label: label.to_string(),
                value: Some(joined.clone()),
                patch: patch(&picked),
            }
        })
        .collect();
    let none = Opt {
        label: NO_REACTION.into(),
        value: None,
        patch: patch(&[]),
    };
    let question = Question::React {
        player: &b.name(t.0),
        fighter: &f.name,
        attacker,
    };
    (question.to_string(), one_or_none(options, none))
}

/// The non-empty sets of `n` reactions (positions, in order), the smaller
/// first, as many as one menu holds.
fn reaction_sets(n: usize) -> Vec<Vec<usize>> {
    let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
    let mut out = Vec::new();
    // Grown by one size at a time, so the menu's cut drops the largest.
    while out.len() < MAX_OPTIONS && !sets.is_empty() {
        sets = sets
            .iter()
            .flat_map(|s| {
                let from = s.last().map_or(0, |l| l + 1);
                (from..n).map(move |i| [s.as_slice(), &[i]].concat())
            })
            .take(MAX_OPTIONS)
            .collect();
        out.extend(sets.iter().cloned());
    }
    out.truncate(MAX_OPTIONS);
    out
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
    Choice::new(t.0, key, Some((None, MAY_REACT)), TRIGGER, "play.reactions").assuming()
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
    let mut made: Vec<Fid> = Vec::new();
    for (k, (r, &maker)) in a.reactions.iter().flatten().zip(by).enumerate() {
        let (path, id) = (format!("play.reactions[{k}]"), maker.id);
        reacted |= Some(id) == target;
        let ask = || react_ask(b, id, a, &during.fighter);
        react_choice(b, id).settle(cx, Some(Some(r.react.clone())), ask)?;
        let before = cx.steps.len();
        if reaction(b, r, maker, &path, Some(&during), cx)? {
            // 13.3.1 sets no count: a second reaction to the same action
            // rests on that reading, said on its step.
            if made.contains(&id) {
                let st = cx.steps[before..].iter_mut().find(|s| s.rule == REACTION);
                if let Some(st) = st {
                    st.assume(SEVERAL_REACTIONS);
                }
            }
            made.push(id);
        }
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
        let (fighter, player) = (tname.as_str(), owner.as_str());
        let ask = || react_ask(b, t, a, &during.fighter);
        let c = react_choice(b, t).settle(cx, a.reactions.as_ref().map(|_| None), ask)?;
        let st = cx.step(TRIGGER, ReactionStep::NoReaction { fighter, player });
        c.on(st, player, Chose::NoReaction { fighter });
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
    let text = ReactionStep::CannotReact {
        fighter: &tname,
        player: &owner,
    };
    let guarded = f.guard
        && f.reactions
            .iter()
            .any(|r| r.on_attacked() && is_dodge_or_deflect(r.name()));
    let st = cx.step(PHASE, text);
    if guarded {
        st.assume(OPEN_QUESTION);
    }
}

/// A reaction's fault at its field `f` (or a full path): an error on its
/// own, refused alone during an action (`during`). The reaction is not made.
fn fault(
    cx: &mut Cx,
    (rule, path, during): (&str, &str, bool),
    f: &str,
    msg: ReactionFault,
) -> Result<bool, Stop> {
    let at = if f.contains('.') {
        f.to_string()
    } else {
        field(path, f)
    };
    match during {
        true => cx.refuse(rule, &at, ReactionFault::Refused(&msg)),
        false => cx.error(rule, &at, msg),
    }
    Ok(false)
}

/// Why the trigger condition of `def`, made by `fighter` (controlled by
/// `owner`), is not met, and the field at fault; None when it is met.
fn trigger_unmet<'a>(
    def: &ReactionDef,
    r: &Reaction,
    (fighter, owner): (&'a str, &'a str),
    last: Option<&'a LastAction>,
    during: bool,
) -> Option<(&'static str, Unmet<'a>)> {
    match (def.on_attacked(), r.trigger_met, last) {
        (true, _, Some(l))
            if !during && l.reactions_settled && l.target.as_deref() == Some(fighter) =>
        {
            let attacker = &l.fighter;
            let why = Unmet::Settled {
                attacker,
                fighter,
                owner,
            };
            Some(("react", why))
        }
        (true, _, Some(l)) if l.action == "attack" && l.target.as_deref() == Some(fighter) => None,
        (true, _, Some(l)) => {
            let (fighter, action, target) = (&l.fighter, &l.action, l.target.as_deref());
            let why = Unmet::Last {
                fighter,
                action,
                target,
            };
            Some(("react", why))
        }
        (true, _, None) => Some(("react", Unmet::NoAction)),
        (false, Some(true), _) => None,
        (false, Some(false), _) => Some(("trigger_met", Unmet::Denied)),
        (false, None, _) => Some(("trigger_met", Unmet::Unknown)),
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
    let (fighter, owner) = (name.as_str(), owner.as_str());
    let at = |rule| (rule, path, during.is_some());
    if author != id.0 {
        let e = ReactionFault::NotController {
            player: &b.name(author),
            fighter,
            owner,
        };
        return fault(cx, at(TRIGGER), "player", e);
    }
    let defs = &b.fighter(id).reactions;
    let refs: Vec<&str> = defs.iter().map(|d| d.name()).collect();
    let def = match names::resolve_index(&r.react, &refs, "reaction") {
        Ok(i) => defs[i].clone(),
        Err(_) if refs.is_empty() => {
            let reaction = &r.react;
            let e = ReactionFault::NoReactions { fighter, reaction };
            return fault(cx, at(TRIGGER), "react", e);
        }
        Err(error) => {
            let error = &error;
            let e = ReactionFault::NoSuchReaction { fighter, error };
            return fault(cx, at(TRIGGER), "react", e);
        }
    };
    let reaction = def.name();
    // 13.0: "During a fighter's activation that fighter may make one
    // action"; 13.3: "A reaction is an action".
    if during.is_some_and(|d| fold(&d.fighter) == fold(fighter)) {
        let e = ReactionFault::Activated { fighter };
        return fault(cx, at(PHASE), "fighter", e);
    }
    let guard_free = b.fighter(id).guard && is_dodge_or_deflect(reaction);
    if b.fighter(id).counter == Counter::Double {
        if guard_free {
            let text = ReactionStep::GuardWouldFree { fighter, reaction };
            cx.step(PHASE, text).assume(OPEN_QUESTION);
        }
        let e = ReactionFault::Spent {
            fighter,
            guard: guard_free,
        };
        return fault(cx, at(PHASE), "fighter", e);
    }
    let last = during.or(b.last_action.as_ref());
    let trigger = def.trigger().unwrap_or(TRIGGER_UNGIVEN);
    if let Some((f, why)) = trigger_unmet(&def, r, (fighter, owner), last, during.is_some()) {
        let e = ReactionFault::NotMet {
            reaction,
            trigger,
            why,
        };
        return fault(cx, at(TRIGGER), f, e);
    }
    let step = step_of(b, id, r.step, r.step_to, path)?;
    if let Some((f, e)) = too_long(b, id, &step) {
        return fault(cx, at(STEP), &f, ReactionFault::Step(e));
    }
    cx.step(REACTION, ReactionStep::Reacts { fighter, reaction });
    match (def.on_attacked(), last) {
        (true, Some(l)) => cx.step(
            TRIGGER,
            ReactionStep::Attacked {
                fighter,
                attacker: &l.fighter,
            },
        ),
        _ => {
            cx.claim(
                &field(path, "trigger_met"),
                TRIGGER,
                Claimed::Trigger { reaction },
            );
            cx.step(TRIGGER, ReactionStep::TriggerStated { reaction, trigger })
                .assume(TRIGGER_STATED)
        }
    };
    let text = ReactionStep::Chooses {
        player: owner,
        fighter,
        reaction,
    };
    cx.step(TRIGGER, text)
        .chose(owner, Chose::Reaction { reaction, fighter });
    let w = Notice::ReactionText { fighter, reaction };
    cx.warn(None, Some(&field(path, "react")), w);
    step_move(b, id, step, true, cx);
    if guard_free {
        b.fighter_mut(id).guard = false;
        cx.step(GUARD, ReactionStep::GuardFree { fighter, reaction })
            .assume(GUARD_USED);
    }
    if r.free && !guard_free {
        let claim = Claimed::FreeReaction { fighter, reaction };
        cx.claim(&field(path, "free"), PHASE, claim);
    }
    let free = guard_free.then_some("").or(r.free.then_some(FREE_REACTION));
    give_counter(b, id, free, cx);
    Ok(true)
}
