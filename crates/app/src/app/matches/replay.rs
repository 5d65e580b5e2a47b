//! Replaying a match's log through its engine (`verify`), and importing an
//! exported match: its log is replayed and checked, then written as this
//! channel's match — pending decisions and results included.

use serde::Serialize;
use serde_json::Value;

use super::consent::Stage;
use super::{LogEntry, MatchError, MatchRecord, MatchView, Matches, PlayContext, with_play};
use crate::engine::{GameEngine, Ruling, document};
use crate::store::{EventKind, NewEvent, Transition};

/// The export format `export` writes and an import reads (`arbiter_export`):
/// a file of another format, or none, is refused naming this one (formats
/// 1, 3 and "banana" imported as if they were 2).
pub const EXPORT_FORMAT: u64 = 2;

/// What replaying a match's log found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayReport {
    pub match_id: i64,
    pub events: usize,
    /// The board the replay ends on.
    pub state: Option<Value>,
    /// True when every stored state equals the replayed one.
    pub consistent: bool,
    pub mismatches: Vec<String>,
}

/// One event in effect while replaying: its seq, board, and whether a play
/// waits on a decision there.
struct InEffect {
    seq: i64,
    /// Its index in the log (the question it asks is its entry's).
    at: usize,
    kind: EventKind,
    state: Value,
    pending: bool,
}

/// Replays `log` (every entry with its state) of a match seating `players`
/// (the users a play's `agreed by` may name) through `engine`; returns the
/// final board and the mismatches found.
pub fn replay_log(
    engine: &dyn GameEngine,
    players: &[String],
    log: &[LogEntry],
) -> (Option<Value>, Vec<String>) {
    let mut stack: Vec<InEffect> = Vec::new();
    let mut bad = Vec::new();
    for (i, e) in log.iter().enumerate() {
        let Some(stored) = &e.state else {
            bad.push(format!("event {} has no board", e.seq));
            continue;
        };
        if e.seq != i as i64 + 1 {
            bad.push(format!("event {} has seq {}", i + 1, e.seq));
        }
        // After an end in effect, only its undo: nothing is played on an
        // ended match.
        if stack.last().is_some_and(|t| t.kind == EventKind::End) && e.kind != EventKind::Undo {
            bad.push(format!(
                "{} {} follows an end that was not undone",
                e.kind.as_str(),
                e.seq
            ));
        }
        if let Err(why) = stated(engine, players, e, log, &stack) {
            bad.push(format!("{} {}: {why}", e.kind.as_str(), e.seq));
        }
        if let Err(why) = permitted(engine, players, log, i, &stack) {
            bad.push(format!("{} {}: {why}", e.kind.as_str(), e.seq));
        }
        if let Err(why) = carried(players, log, i, &stack) {
            bad.push(format!("{} {}: {why}", e.kind.as_str(), e.seq));
        }
        let stage = super::consent::proposal_in(e.context.as_ref()).map(|p| p.stage);
        let replayed = match stage.and_then(|st| proposal_step(e, st, &stack)) {
            Some(r) => r,
            None => replay_event(engine, e, stored, &mut stack, &mut bad),
        };
        match replayed {
            Ok(Some((state, pending))) => {
                if state != *stored {
                    bad.push(format!(
                        "{} {}: the stored board differs from the replayed one{}",
                        e.kind.as_str(),
                        e.seq,
                        first_difference(&state, stored)
                    ));
                }
                match e.kind {
                    // The first setup starts the stack; one over another
                    // goes on top, as `effective_stack` has it.
                    EventKind::Setup if !stack.iter().any(|t| t.kind == EventKind::Setup) => {
                        stack = vec![InEffect {
                            seq: e.seq,
                            at: i,
                            kind: e.kind,
                            state,
                            pending,
                        }]
                    }
                    k if k == EventKind::Setup || k.undoable() => stack.push(InEffect {
                        seq: e.seq,
                        at: i,
                        kind: e.kind,
                        state,
                        pending,
                    }),
                    _ => {}
                }
            }
            Ok(None) => {}
            Err(why) => bad.push(format!(
                "{} {} fails on replay: {why}",
                e.kind.as_str(),
                e.seq
            )),
        }
    }
    (stack.last().map(|t| t.state.clone()), bad)
}

/// `e`, an export's field refused, naming the event (`seq`) of the log
/// entry its path lies under (`log[1].at`).
fn in_event(mut e: document::BoardError, doc: &Value) -> document::BoardError {
    let seq = e
        .path
        .as_deref()
        .and_then(|p| p.strip_prefix("log["))
        .and_then(|p| p.split(']').next())
        .and_then(|i| i.parse::<usize>().ok())
        .and_then(|i| doc.get("log")?.get(i)?.get("seq")?.as_i64());
    if let Some(seq) = seq {
        e.message = format!("{} (in event #{seq})", e.message);
    }
    e
}

/// What `e` states that replay derives otherwise: its words against what
/// it recorded, an answer's words, seat and option against the question
/// in effect before it (a note's carries its play's), a confirmed end's
/// result against its proposal, a proposal's words against what it
/// proposes.
fn stated(
    engine: &dyn GameEngine,
    players: &[String],
    e: &LogEntry,
    log: &[LogEntry],
    stack: &[InEffect],
) -> Result<(), String> {
    let before = stack.last().map(|t| &t.state);
    if e.kind == EventKind::End {
        super::integrity::end_agrees(e)?;
        super::integrity::end_reason_agrees(engine, players, e, before)?;
    }
    if e.kind == EventKind::Adjust {
        super::integrity::adjust_agrees(e)?;
        super::integrity::adjustment_agrees(engine, e, before)?;
    }
    super::integrity::input_plain(e)?;
    super::integrity::texts_recorded(e)?;
    // An undo brings back the context of the event it restores, whose
    // proposal was checked there, on the board it was asked on.
    if e.kind != EventKind::Undo {
        super::integrity::proposal_words(engine, e, before)?;
    }
    super::integrity::input_agrees(engine, e, before, players)?;
    let answers = match super::consent::proposal_in(e.context.as_ref()).map(|p| p.stage) {
        Some(Stage::Confirmed | Stage::Rejected) => e.kind != EventKind::Undo,
        _ => e.kind == EventKind::Answer,
    };
    let asking = asking(log, stack);
    let (true, Some(asking)) = (answers, asking) else {
        return Ok(());
    };
    let Some(asked) = asking
        .ruling
        .as_ref()
        .and_then(|r| r.get("pending"))
        .and_then(|d| serde_json::from_value::<crate::engine::Decision>(d.clone()).ok())
    else {
        return Ok(());
    };
    let proposal =
        super::consent::proposal_in(asking.context.as_ref()).filter(|p| p.stage == Stage::Asked);
    super::integrity::answer_agrees(e, &asked, proposal.as_ref())
}

/// What the event `log[i]` needed when it was made live, on the events in
/// effect before it (`stack`): the consents the live command asks, the
/// confirmations a proposal's answers and an `agreed_by` stand for, the
/// question a proposal asks, and an undo its actor could make (see
/// `permits`).
fn permitted(
    engine: &dyn GameEngine,
    players: &[String],
    log: &[LogEntry],
    i: usize,
    stack: &[InEffect],
) -> Result<(), String> {
    use super::permits;
    let Some(e) = log.get(i) else {
        return Ok(());
    };
    let before = stack.last().map(|t| &t.state);
    let asking = asking(log, stack);
    permits::needed_no_consent(engine, players, e, before)?;
    permits::asks_whom_it_should(engine, players, e, before)?;
    permits::question_agrees(engine, players, e, before)?;
    permits::answers_a_proposal(e, asking)?;
    if let Some(asked) = asking.and_then(permits::asked_consent)
        && !matches!(e.kind, EventKind::Note | EventKind::Undo)
    {
        permits::consent_follows(e, &asked)?;
    }
    permits::agreed_backed(players, e, asking)?;
    if e.kind != EventKind::Undo {
        return Ok(());
    }
    let in_effect: Vec<&LogEntry> = stack.iter().filter_map(|t| log.get(t.at)).collect();
    // Whether the event before it ended the match, with what result.
    let last = i.checked_sub(1).and_then(|j| log.get(j));
    let ended = ending(engine, &log[..i])
        .flatten()
        .and_then(|r| serde_json::from_value::<crate::engine::GameResult>(r).ok())
        .map(|r| {
            let board = last.and_then(|l| l.state.as_ref());
            let winner = super::consent::winner_seat_on(engine, board, players, &r);
            (r, winner)
        });
    permits::undo_allowed(players, e, &in_effect, ended)
}

/// The event in effect waiting on a decision, under the notes made since
/// (they carry its question on; an end proposed is a note that asks): the
/// event an answer answers. The words of an answer to an end proposed
/// went unchecked, its question read under the note that asked it.
fn asking<'a>(log: &'a [LogEntry], stack: &[InEffect]) -> Option<&'a LogEntry> {
    let asks = |t: &&InEffect| {
        t.kind != EventKind::Note
            || log.get(t.at).is_some_and(|n| {
                super::consent::proposal_in(n.context.as_ref()).is_some()
                    && n.context.as_ref().and_then(|c| c.get("text")).is_none()
            })
    };
    stack
        .iter()
        .rev()
        .find(asks)
        .filter(|t| t.pending)
        .and_then(|t| log.get(t.at))
}

/// What the event `log[i]` carries from the events before it (`stack`
/// in effect), against those events, as the live command copies it: a
/// setup's `context.replaced` (the log's "replacing #N, which waited on
/// X's decision: …") names the decision the event before it waits on; a
/// note's or an undo's `ruling` (the log's `waiting: …`) is the one of
/// the event it carries, the event before a note, the one an undo brings
/// back, and an undo's `context` that event's ([`undo_context`]). An
/// outside tester's edited export logged a decision nobody was asked.
/// Left out (logs written before setups named what they replaced),
/// nothing is shown, so nothing is checked.
fn carried(
    players: &[String],
    log: &[LogEntry],
    i: usize,
    stack: &[InEffect],
) -> Result<(), String> {
    let Some(e) = log.get(i) else {
        return Ok(());
    };
    let before = i.checked_sub(1).and_then(|j| log.get(j));
    let waiting = |b: Option<&LogEntry>| {
        b.filter(|b| super::Replaced::after(b.seq, b.ruling.as_ref()).is_some())
            .and_then(|b| b.ruling.clone())
    };
    match e.kind {
        EventKind::Setup => {
            let Some(held) = e.context.as_ref().and_then(|c| c.get("replaced")) else {
                return Ok(());
            };
            let derived = before.and_then(|b| super::Replaced::after(b.seq, b.ruling.as_ref()));
            let derived = serde_json::to_value(derived).unwrap_or(Value::Null);
            if *held == derived {
                return Ok(());
            }
            let (path, held, derived) = first_apart("context.replaced".into(), held, &derived);
            Err(format!(
                "`{path}` reads {held}, but the event before it waits on {derived}"
            ))
        }
        EventKind::Note | EventKind::Undo => {
            // The event below the one an undo undoes: the one it brings
            // back (none: that one is not in effect, which replay says).
            let brought = match e.kind {
                EventKind::Undo => stack
                    .iter()
                    .position(|t| Some(t.seq) == e.undoes)
                    .map(|p| p.checked_sub(1).and_then(|p| stack.get(p)))
                    .map(|t| t.and_then(|t| log.get(t.at))),
                _ => None,
            };
            if let Some(restored) = brought {
                undo_context(players, e, restored)?;
            }
            // An end proposed is a note that asks its own question; an
            // undo asks none of its own, whatever it brings back (one
            // bringing back a proposal, whose context has no `text`, was
            // read as asking its own, and its question went unchecked).
            let own = e.kind == EventKind::Note
                && e.context.as_ref().is_some_and(|c| c.get("text").is_none())
                && super::consent::proposal_in(e.context.as_ref()).is_some();
            let Some(held) = e.ruling.as_ref().filter(|_| !own) else {
                return Ok(());
            };
            let source = match e.kind {
                EventKind::Note => before,
                _ => brought.flatten(),
            };
            let derived = waiting(source).unwrap_or(Value::Null);
            if *held == derived {
                return Ok(());
            }
            let (path, held, derived) = first_apart("ruling".into(), held, &derived);
            Err(format!(
                "`{path}` reads {held}, but the event it carries reads {derived}"
            ))
        }
        _ => Ok(()),
    }
}

/// An undo's `context` against the event it brings back (`restored`, the
/// one below the event it undoes; `None`: none), as the live undo writes
/// it (`carried_context`): while that event waits on a question, its
/// context, whose proposal the next answer confirms; else none. Set aside
/// on both sides, as no part of what is brought back: the undo's own mark
/// of a moderator who holds no seat, what older logs copied whole of that
/// event (its moderator's mark, `answered_for`), and the `replaced` of a
/// setup brought back, which an import numbers as its match does. An
/// edited export's undo carried another proposal, and the next Confirm
/// applied it (found by a review); compared whole, every moderator's undo
/// was refused.
fn undo_context(
    players: &[String],
    e: &LogEntry,
    restored: Option<&LogEntry>,
) -> Result<(), String> {
    use super::integrity::BY_MODERATOR;
    let asks = restored.filter(|r| super::Replaced::after(r.seq, r.ruling.as_ref()).is_some());
    let wanted = asks.and_then(|r| r.context.as_ref());
    let object = |c: Option<&Value>| {
        c.cloned()
            .unwrap_or_else(|| Value::Object(Default::default()))
    };
    let marked =
        |c: Option<&Value>| c.and_then(|c| c.get(BY_MODERATOR)) == Some(&Value::Bool(true));
    let (mut held, mut derived) = (object(e.context.as_ref()), object(wanted));
    if let (Value::Object(h), Value::Object(d)) = (&mut held, &mut derived) {
        if marked(e.context.as_ref()) && (!players.contains(&e.actor) || marked(wanted)) {
            h.remove(BY_MODERATOR);
        }
        if h.contains_key("answered_for") && h.get("answered_for") == d.get("answered_for") {
            h.remove("answered_for");
        }
        if d.remove("replaced").is_some() {
            h.remove("replaced");
        }
        *d = super::carried_context(d, None);
    }
    if held == derived {
        return Ok(());
    }
    let (path, held, derived) = first_apart("context".into(), &held, &derived);
    let (held, derived) = (clipped(held), clipped(derived));
    Err(match (asks, restored) {
        (Some(r), _) => format!(
            "`{path}` reads {held}, but {} {}, which it brings back, reads {derived} (an undo carries the question it brings back, as asked)",
            r.kind.as_str(),
            r.seq
        ),
        (None, Some(r)) => format!(
            "`{path}` reads {held}, but {} {}, which it brings back, waits on no question, so it carries no context",
            r.kind.as_str(),
            r.seq
        ),
        (None, None) => {
            format!("`{path}` reads {held}, but it brings back no event, so it carries no context")
        }
    })
}

/// `s` cut to 80 characters, with `…` when cut.
fn clipped(s: String) -> String {
    match s.chars().count() > 80 {
        true => format!("{}…", s.chars().take(80).collect::<String>()),
        false => s,
    }
}

/// Where a stored board differs from the replayed one: the first field
/// and both values (`""` when they are the same).
fn first_difference(replayed: &Value, stored: &Value) -> String {
    let short = |v: &Value| clipped(v.to_string());
    match crate::engine::diff(replayed, stored).first() {
        Some(c) if c.path.is_empty() => format!(
            ": the file has {}, the replay {}",
            short(&c.after),
            short(&c.before)
        ),
        Some(c) => format!(
            " at `{}`: the file has {}, the replay {}",
            c.path,
            short(&c.after),
            short(&c.before)
        ),
        None => String::new(),
    }
}

/// A proposal's event: asked (or passed on to the next player), it leaves
/// the board as it is and waits; rejected, it changes nothing; a confirmed
/// end ends on the board as it is. `None`: judged like any other event.
fn proposal_step(
    e: &LogEntry,
    stage: Stage,
    stack: &[InEffect],
) -> Option<Result<Option<(Value, bool)>, String>> {
    let t = stack.last()?;
    // A board proposed and rejected: the board every player agreed to is
    // back, as the stack has it, whatever the event's context says.
    if (e.kind, stage, sets_up(e)) == (EventKind::Answer, Stage::Rejected, true) {
        return Some(Ok(Some((agreed(stack), false))));
    }
    let waits = match (e.kind, stage) {
        (
            EventKind::Play | EventKind::Adjust | EventKind::Note | EventKind::Answer,
            Stage::Asked,
        ) => true,
        (EventKind::Answer, Stage::Rejected) | (EventKind::End, Stage::Confirmed) => false,
        _ => return None,
    };
    Some(Ok(Some((t.state.clone(), waits))))
}

/// The last board in the stack that waited on nothing: the one every
/// player agreed to (`null`: none yet). A pending play or adjustment
/// changed no board; a board still proposed is not agreed.
fn agreed(stack: &[InEffect]) -> Value {
    stack
        .iter()
        .rev()
        .find(|t| !t.pending)
        .map_or(Value::Null, |t| t.state.clone())
}

/// Whether an event belongs to a starting board's proposal.
fn sets_up(e: &LogEntry) -> bool {
    super::consent::proposal_in(e.context.as_ref())
        .is_some_and(|p| p.what == super::consent::Proposed::Setup)
}

/// An event that is not a proposal's, judged again: the board it leaves
/// and whether it waits on a decision (`None`: nothing to compare).
fn replay_event(
    engine: &dyn GameEngine,
    e: &LogEntry,
    stored: &Value,
    stack: &mut Vec<InEffect>,
    bad: &mut Vec<String>,
) -> Result<Option<(Value, bool)>, String> {
    let top = stack.last();
    match (e.kind, top) {
        // A board proposed waits on the other players' consent.
        (EventKind::Setup, _) => {
            let asked = super::consent::proposal_in(e.context.as_ref())
                .is_some_and(|p| p.stage == Stage::Asked);
            engine
                .check_board(stored)
                .map(|b| Some((b, asked)))
                .map_err(|err| err.to_string())
        }
        (EventKind::Play | EventKind::Answer, Some(t)) => replay_ruling(engine, e, t, bad),
        (EventKind::Advance, Some(t)) => {
            let to = e
                .context
                .as_ref()
                .and_then(|c| c.get("to"))
                .and_then(Value::as_str);
            engine
                .advance(&t.state, to)
                .map(|r| Some((r.state, false)))
                .map_err(|err| err.to_string())
        }
        (EventKind::Adjust, Some(t)) => {
            let get = |k: &str| {
                e.context
                    .as_ref()
                    .and_then(|c| c.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            engine
                .adjust(&t.state, &get("field"), &get("value"))
                .map(|a| Some((a.state, false)))
                .map_err(|err| err.to_string())
        }
        (EventKind::Note, Some(t)) => Ok(Some((t.state.clone(), t.pending))),
        // An end leaves the last board that waited on nothing: the board
        // in effect (a pending play or adjustment changed nothing), or the
        // one agreed before a board still proposed.
        (EventKind::End, Some(t)) => Ok(Some((agreed(stack), t.pending))),
        // A match ended before any board.
        (EventKind::End, None) => Ok(Some((Value::Null, false))),
        (EventKind::Undo, _) => {
            let undone = stack.iter().find(|t| Some(t.seq) == e.undoes);
            let found = undone.is_some();
            // An end before any board, or a first board proposed (withdrawn
            // by its author, with the confirmations it got: they lie over
            // it in the stack), is undone to no board.
            let first_end = stack.first().is_some_and(|t| {
                Some(t.seq) == e.undoes
                    && (t.kind == EventKind::End || (t.kind == EventKind::Setup && t.pending))
            });
            // Back to below the undone event (older logs let an undo
            // pass over notes, which it takes back with it).
            while found && stack.pop().is_some_and(|t| Some(t.seq) != e.undoes) {}
            if !found || (stack.is_empty() && !first_end) {
                bad.push(format!(
                    "undo {} does not undo the last event in effect",
                    e.seq
                ));
            }
            Ok(stack.last().map(|t| (t.state.clone(), t.pending)))
        }
        (_, None) => Err(format!("{} before any setup", e.kind.as_str())),
    }
}

/// How a log leaves its match: `Some(result)` when its last event ends
/// it (an `end`, or a play, answer, adjust or advance whose board has a
/// result, as
/// when they were made), `None` when it is active. Only the last event
/// can end it: after an end, only an undo (which reopens) is appended.
fn ending(engine: &dyn GameEngine, log: &[LogEntry]) -> Option<Option<Value>> {
    let last = log.last()?;
    match last.kind {
        EventKind::End => Some(
            last.context
                .clone()
                .and_then(|c| serde_json::from_value::<crate::engine::GameResult>(c).ok())
                .and_then(|r| serde_json::to_value(r).ok()),
        ),
        EventKind::Play | EventKind::Answer | EventKind::Adjust | EventKind::Advance => {
            let result = engine.status(last.state.as_ref()?).ok()?.result?;
            Some(serde_json::to_value(result).ok())
        }
        _ => None,
    }
}

/// A play or an answer judged again: the board it leaves and whether it
/// waits on a decision.
fn replay_ruling(
    engine: &dyn GameEngine,
    e: &LogEntry,
    top: &InEffect,
    bad: &mut Vec<String>,
) -> Result<Option<(Value, bool)>, String> {
    if e.kind == EventKind::Answer && !top.pending {
        return Err("an answer with no decision waiting".into());
    }
    let play = e.play.as_ref().ok_or("no play")?;
    let context: PlayContext = e
        .context
        .as_ref()
        .and_then(|c| serde::Deserialize::deserialize(c).ok())
        .unwrap_or_default();
    let r: Ruling = engine
        .judge(with_play(&top.state, play), None, &context.asking())
        .map_err(|err| err.to_string())?;
    let was_legal = e
        .ruling
        .as_ref()
        .and_then(|r| r.get("legal"))
        .and_then(Value::as_bool)
        .unwrap_or(true);
    if r.legal != was_legal {
        return Err(format!(
            "it is {} on replay",
            if r.legal { "legal" } else { "illegal" }
        ));
    }
    // The decision it waits on is the engine's, not the file's (an edited
    // export gave a decision to the wrong seat, or no options).
    let stored_pending = e.ruling.as_ref().and_then(|r| r.get("pending")).cloned();
    let replayed_pending = r
        .pending
        .as_ref()
        .and_then(|d| serde_json::to_value(d).ok());
    if stored_pending.filter(|p| !p.is_null()) != replayed_pending {
        return Err("the decision it waits on differs on replay".into());
    }
    if let Err(why) = derived_agrees(e.ruling.as_ref(), &r) {
        bad.push(format!("{} {}: {why}", e.kind.as_str(), e.seq));
    }
    let pending = r.pending.is_some();
    let state = match (r.legal, pending, e.kind) {
        (true, false, _) => r.state,
        (true, true, _) => top.state.clone(),
        (false, _, EventKind::Answer) if r.changes.is_empty() => top.state.clone(),
        // An illegal attempt the rules keep a record of (Grand Archive 1.4),
        // by a play or by the answer that confirmed it.
        (false, _, _) => r.state,
    };
    Ok(Some((state, pending)))
}

/// The words a ruling is stored with, which the log shows, against the
/// replayed ruling `r` they are derived from: its steps (their text and
/// the choices they record), the claims it relied on, and its changes
/// (an illegal answer's are cleared when recorded). An edited export's
/// step read "Maeoni concedes the match" and imported (`input` was
/// already so compared).
fn derived_agrees(stored: Option<&Value>, r: &Ruling) -> Result<(), String> {
    let Some(stored) = stored else {
        return Ok(());
    };
    let empty = Value::Array(Vec::new());
    let json = |v: serde_json::Result<Value>| v.unwrap_or(Value::Null);
    for (k, derived) in [
        ("steps", json(serde_json::to_value(&r.steps))),
        ("claims", json(serde_json::to_value(&r.claims))),
        ("changes", json(serde_json::to_value(&r.changes))),
    ] {
        let held = stored.get(k).unwrap_or(&empty);
        if *held == derived || (k == "changes" && *held == empty) {
            continue;
        }
        let (path, held, derived) = first_apart(format!("ruling.{k}"), held, &derived);
        return Err(format!(
            "`{path}` reads {held}, but the replayed ruling's reads {derived}"
        ));
    }
    Ok(())
}

/// The first place two values differ: its path (`ruling.steps[3].text`)
/// and both values there, as JSON.
fn first_apart(path: String, held: &Value, derived: &Value) -> (String, String, String) {
    let pair = match (held, derived) {
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .map(|(k, v)| (k, Some(v), b.get(k)))
            .chain(
                b.iter()
                    .filter(|(k, _)| !a.contains_key(*k))
                    .map(|(k, v)| (k, None, Some(v))),
            )
            .find(|(_, x, y)| x != y)
            .map(|(k, x, y)| (format!("{path}.{k}"), x, y)),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| (format!("{path}[{i}]"), Some(x), Some(y))),
        _ => None,
    };
    match pair {
        Some((p, Some(x), Some(y))) => first_apart(p, x, y),
        Some((p, x, y)) => {
            let shown = |v: Option<&Value>| v.map_or("nothing".to_string(), Value::to_string);
            (p, shown(x), shown(y))
        }
        None => (path, held.to_string(), derived.to_string()),
    }
}

impl Matches {
    /// Replays the channel's latest match from its log through the engine
    /// and compares every stored board with the replayed one.
    pub async fn replay(&self, channel: &str) -> Result<ReplayReport, MatchError> {
        self.replay_of(channel, None).await
    }

    /// `verify match:N`: match `number` of this channel (`Matches::read_match`).
    pub async fn replay_of(
        &self,
        channel: &str,
        number: Option<i64>,
    ) -> Result<ReplayReport, MatchError> {
        let m = self.read_match(channel, number).await?;
        let engine = self.engine_of(&m)?;
        let records = self.store.events(m.id, 1, m.version).await?;
        let players = m.players.clone();
        let (events, (state, mut mismatches)) = self
            .cpu_whole_log(move || {
                let log: Vec<LogEntry> = records
                    .into_iter()
                    .map(|e| LogEntry::from_record(e, true))
                    .collect();
                (log.len(), replay_log(engine, &players, &log))
            })
            .await?;
        let current = m.state.clone().filter(|s| !s.is_null());
        if state.clone().filter(|s| !s.is_null()) != current {
            mismatches.push("the match's current board differs from the replay".into());
        }
        Ok(ReplayReport {
            match_id: m.id,
            events,
            state,
            consistent: mismatches.is_empty(),
            mismatches,
        })
    }

    /// Imports an export (`setup` with an `arbiter_export` document): its
    /// log must replay through the engine to its board; its events are then
    /// written to this channel's match, seat i's actions becoming this
    /// match's seat i's. A field of the wrong kind is refused at its
    /// line:column in `text`, with its path and event (it read "not an
    /// Arbiter export" with neither: found by an outside tester).
    pub(super) async fn import(
        &self,
        caller: &super::Caller,
        m: &MatchRecord,
        engine: &'static dyn GameEngine,
        doc: Value,
        text: &str,
    ) -> Result<MatchView, MatchError> {
        format_read(&doc)?;
        let export: Export =
            document::typed(&doc, "", Some(text)).map_err(|e| in_event(e, &doc))?;
        if export.game != m.game {
            return Err(document::BoardError::semantic(
                "game",
                format!(
                    "this export is a {} match, but the match here is {}",
                    export.game, m.game
                ),
            )
            .into());
        }
        if export.players.len() != m.players.len() {
            return Err(document::BoardError::semantic(
                "players",
                format!(
                    "the export seats {} players, this match {}",
                    export.players.len(),
                    m.players.len()
                ),
            )
            .into());
        }
        if export.log.is_empty() {
            let board = export.board.ok_or_else(|| {
                document::BoardError::semantic("board", "this export has no board to import")
            })?;
            let board = self.read_board(m, engine, board)?;
            return self.setup_board(caller, m, board).await;
        }
        // A file anyone can edit cannot show who made its plays, answers
        // and results: a log beyond setting up is a moderator's to import.
        // (Answers to a board proposed are part of setting it up.)
        let setting_up = |e: &LogEntry| {
            e.kind == EventKind::Setup || (e.kind == EventKind::Answer && sets_up(e))
        };
        if !caller.moderator && !export.log.iter().all(setting_up) {
            return Err(MatchError::forbidden(format!(
                "only a moderator who holds no seat in the match may import an export whose log holds more than setting up its board \
                 (this one holds {}): an export is a file anyone can edit, \
                 so nothing in it shows that its events were made by the players it names; \
                 a player may set up its board alone (the export's `board`, without its `log`)",
                beyond_setup(&export.log, setting_up)
            )));
        }
        // A log names who made each event: imported into a match of other
        // players, it would credit their plays and answers to people who
        // never made them ("Maeoni (Mallory) answered").
        if caller.moderator && export.players != m.players {
            let list = |p: &[String]| {
                p.iter()
                    .map(|u| super::mention(u))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(MatchError::usage(format!(
                "this export's log was played by {}, but this match seats {}: a log is imported into a match of the same players, in the same seats (start one with them); its board alone may be set up here",
                list(&export.players),
                list(&m.players)
            )));
        }
        // A retried request (the same interaction): imported already.
        if let Some(id) = &caller.interaction
            && let Some((match_id, _)) = self.store.event_by_interaction(id).await?
        {
            let done = self.store.match_by_id(match_id).await?;
            return self.view(&done.ok_or(MatchError::NoMatch)?).await;
        }
        // The log replayed, who made each event (a moderator's import) and
        // how it ends, on the pool: an engine call or more per event.
        let (log, players) = (export.log.clone(), export.players.clone());
        let (moderator, seats) = (caller.moderator, m.players.clone());
        let (state, bad, owned, ending) = self
            .cpu_whole_log(move || {
                let (state, bad) = replay_log(engine, &players, &log);
                let owned = match moderator {
                    true => super::integrity::owned(engine, &log, &seats),
                    false => Ok(()),
                };
                (state, bad, owned, ending(engine, &log))
            })
            .await?;
        // An end before any board leaves `null`, which the export omits.
        let state = state.filter(|s| !s.is_null());
        if !bad.is_empty() || state != export.board {
            let why = if bad.is_empty() {
                "its log does not end on its board".to_string()
            } else {
                bad.join("; ")
            };
            return Err(document::BoardError::semantic(
                "log",
                format!("this export does not replay: {why}"),
            )
            .into());
        }
        // Who made each event, against the seats they hold: the file's
        // `players` alone can be edited to match (an outside tester's
        // export credited a player's answers to a moderator, and a
        // confirmation to a user who never gave it).
        if let Err(why) = owned {
            return Err(document::BoardError::semantic(
                "log",
                format!("this export's log does not hold together: {why}"),
            )
            .into());
        }
        // No board text written as a mention, a moderator's import too.
        if let Some(board) = &state {
            super::no_mentions(board, "board")?;
            super::plain_seat_names(engine, board, "board", None)?;
        }
        // A player's import (setups only) is a board of theirs: set up as
        // theirs, which the other players confirm, with none of the file's
        // words (nothing shows anyone said them).
        if !caller.moderator {
            let Some(board) = state else {
                return Err(document::BoardError::semantic(
                    "log",
                    "this export ends with no board to set up",
                )
                .into());
            };
            let board = self.read_board(m, engine, board)?;
            return self.setup_board(caller, m, board).await;
        }
        let seat = |u: &str| {
            export
                .players
                .iter()
                .position(|p| p == u)
                .map_or(u.to_string(), |i| m.players[i].clone())
        };
        let offset = m.version;
        let replaced_here = self.replaced_decision(m).await?;
        let last = export.log.len() - 1;
        let mut events = Vec::with_capacity(export.log.len());
        // A moderator's import: the seats and words the file names.
        for (i, e) in export.log.iter().enumerate() {
            let actor = seat(&e.actor);
            let mut event = NewEvent::new(e.kind, &actor, e.state.clone().unwrap_or(Value::Null));
            event.input = e.input.clone();
            event.context = e.context.clone();
            event.play = e.play.clone();
            event.ruling = e.ruling.clone();
            event.undoes = e.undoes.map(|u| u + offset);
            // The decision a setup replaced, numbered as this match numbers
            // it (it kept the file's numbers and named a note, #2, for the
            // play #5); the first over this match's own last event.
            if e.kind == EventKind::Setup {
                let replaced = match i {
                    0 => replaced_here.clone(),
                    _ => export
                        .log
                        .get(i - 1)
                        .and_then(|b| super::Replaced::after(b.seq + offset, b.ruling.as_ref())),
                };
                event.context = with_replaced(event.context, replaced);
            }
            let waits = e
                .ruling
                .as_ref()
                .and_then(|r| r.get("pending"))
                .and_then(|p| p.get("default"))
                .is_some_and(|d| !d.is_null());
            if i == last && waits {
                event.deadline = Some(self.deadline());
            }
            if i == last {
                // A retried request imports nothing twice.
                event.interaction = caller.interaction.clone();
            }
            events.push(event);
        }
        // The match ends as its log does, whatever the file's `status`
        // and `result` say (they are not trusted either).
        let ending = match ending {
            Some(result) => Transition::End(result),
            None => Transition::None,
        };
        self.store
            .append_all(m.id, m.version, &events, ending)
            .await?;
        self.view(
            &self
                .store
                .match_by_id(m.id)
                .await?
                .ok_or(MatchError::NoMatch)?,
        )
        .await
    }
}

/// `context` with its `replaced` set to `replaced` (or taken out).
fn with_replaced(context: Option<Value>, replaced: Option<super::Replaced>) -> Option<Value> {
    let mut context = match (context, &replaced) {
        (Some(Value::Object(c)), _) => c,
        (other, None) => return other,
        (_, Some(_)) => serde_json::Map::new(),
    };
    match replaced.map(|r| serde_json::to_value(r).unwrap_or(Value::Null)) {
        Some(r) => context.insert("replaced".into(), r),
        None => context.remove("replaced"),
    };
    Some(Value::Object(context))
}

/// What a log holds besides setting up a board, counted by kind in log
/// order ("1 note, 1 undo"): a player's import refused says what it
/// refuses (a log of setups, a note and its undo was refused as "an
/// export with plays").
fn beyond_setup(log: &[LogEntry], setting_up: impl Fn(&LogEntry) -> bool) -> String {
    let mut kinds: Vec<(EventKind, usize)> = Vec::new();
    for e in log.iter().filter(|e| !setting_up(e)) {
        match kinds.iter_mut().find(|(k, _)| *k == e.kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((e.kind, 1)),
        }
    }
    let said: Vec<String> = kinds
        .iter()
        .map(|(k, n)| match n {
            1 => format!("1 {}", k.as_str()),
            n => format!("{n} {}s", k.as_str()),
        })
        .collect();
    said.join(", ")
}

/// Refuses an export of a format other than the one this version reads
/// ([`EXPORT_FORMAT`]), naming both: its fields may mean something else.
fn format_read(doc: &Value) -> Result<(), MatchError> {
    let format = doc.get("arbiter_export").unwrap_or(&Value::Null);
    if format.as_u64() == Some(EXPORT_FORMAT) {
        return Ok(());
    }
    Err(document::BoardError::semantic(
        "arbiter_export",
        format!(
            "this export is format {format}, but this version of Arbiter reads format {EXPORT_FORMAT} only (`arbiter_export: {EXPORT_FORMAT}`)"
        ),
    )
    .into())
}

/// An export as `import` reads it.
#[derive(serde::Deserialize)]
struct Export {
    game: String,
    players: Vec<String>,
    #[serde(default)]
    board: Option<Value>,
    #[serde(default)]
    log: Vec<LogEntry>,
}
