//! What an exported log states that replay can check: the words every
//! event is recorded with (a play's, an adjustment's, an advance's, an
//! answer's) against what it recorded, whose seat an answer was, who
//! gave a consent a moderator's event records,
//! a confirmed result against the proposal confirmed, and, at a
//! moderator's import, who made each event against the seats they hold.
//! An export is a file anyone can edit: a field edited so that it
//! contradicts the rest of the file is refused, naming the event and the
//! field (an outside tester changed a confirmed end's `winner`, an
//! answer's `input`, an answer's `actor` and the file's `players`, and
//! each imported as the record).

use serde_json::Value;

use super::consent::{CONSENT_KEY, Proposal, Proposed, Stage, adjust_text, end_text, proposal_in};
use super::{LogEntry, PlayContext, TIMEOUT_ACTOR};
use crate::engine::{Decision, GameEngine, GameResult, merge_patch};
use crate::store::EventKind;

/// The context key that marks an event made by a moderator who holds no
/// seat in the match (written by the match service, checked at import).
pub const BY_MODERATOR: &str = "moderator";

/// What the event `e` states against the decision it answers (`asked`,
/// the one the event in effect before it waits on, with that event's
/// proposal): `Err` names the field that contradicts it.
pub fn answer_agrees(
    e: &LogEntry,
    asked: &Decision,
    proposal_before: Option<&Proposal>,
) -> Result<(), String> {
    let for_seat = e
        .context
        .as_ref()
        .and_then(|c| c.get("answered_for"))
        .and_then(Value::as_u64);
    let seat = match (asked.key.as_str(), proposal_before) {
        (CONSENT_KEY, Some(p)) => consent_seat(e, p, for_seat).unwrap_or(asked.seat),
        _ => asked.seat,
    };
    if (e.kind == EventKind::Answer || for_seat.is_some()) && for_seat != Some(seat as u64) {
        return Err(format!(
            "`context.answered_for` reads {}, but the decision it answers is seat {}'s ({})",
            for_seat.map_or("nothing".to_string(), |s| format!("seat {}", s + 1)),
            seat + 1,
            asked.player
        ));
    }
    match proposal_before {
        Some(p) if asked.key == CONSENT_KEY => consent_input(e, p),
        _ => decision_input(e, asked),
    }
}

/// The seat whose consent the answer `e` to proposal `p` gave: the first
/// it asks, or any seat it asks when the answer rejects it (one rejection
/// stops a proposal, and a later party's is recorded as theirs:
/// `consent::later_party`).
fn consent_seat(e: &LogEntry, p: &Proposal, for_seat: Option<u64>) -> Option<usize> {
    let rejects = proposal_in(e.context.as_ref()).is_some_and(|a| a.stage == Stage::Rejected);
    match for_seat.and_then(|s| usize::try_from(s).ok()) {
        Some(s) if rejects && p.asks.contains(&s) => Some(s),
        _ => p.asks.first().copied(),
    }
}

/// The words the event `e` is recorded with (`input`, which the log
/// shows) against what it recorded, on `before`, the board in effect
/// when it was made: a play's against the play they read as, an
/// adjustment's against the field and value it set, an advance's against
/// where it moved the match, an end proposed against its proposal. `Err`
/// names the field (an outside tester's edited export logged "Coal played
/// pass" for an attack, and a confirmation as "adjusted reject").
/// Answers are checked by [`answer_agrees`]; an event without words
/// states nothing to contradict.
pub fn input_agrees(
    engine: &dyn GameEngine,
    e: &LogEntry,
    before: Option<&Value>,
    players: &[String],
) -> Result<(), String> {
    let (Some(typed), Some(before)) = (e.input.as_deref(), before) else {
        return Ok(());
    };
    let text = |k: &str| {
        e.context
            .as_ref()
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
    };
    match e.kind {
        EventKind::Play => play_input(engine, e, typed, before, players),
        EventKind::Adjust => {
            let (field, value) = (
                text("field").unwrap_or_default(),
                text("value").unwrap_or_default(),
            );
            let a = engine.adjust(before, field, value).map_err(|err| {
                format!("`context.field` and `context.value` ({field} = {value}) set nothing on the board before it: {err}")
            })?;
            let value = value.trim();
            let said = [&a.label, &a.field].map(|f| format!("{f} = {value}"));
            match said.iter().any(|s| s == typed) {
                true => Ok(()),
                false => Err(format!(
                    "`input` reads \"{typed}\", but the adjustment it records (`context.field`, `context.value`) is \"{}\"",
                    said[0]
                )),
            }
        }
        EventKind::Advance => {
            let said =
                text("to").map_or_else(|| "advance".to_string(), |t| format!("advance to {t}"));
            match said == typed {
                true => Ok(()),
                false => Err(format!(
                    "`input` reads \"{typed}\", but the advance it records (`context.to`) is \"{said}\""
                )),
            }
        }
        EventKind::Note => match proposal_in(e.context.as_ref()) {
            Some(p) if p.stage == Stage::Asked && p.text != typed && text("text").is_none() => {
                Err(format!(
                    "`input` reads \"{typed}\", but the proposal it records (`context.proposal.text`) is \"{}\"",
                    p.text
                ))
            }
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// A play's words read again on the board before it: the play they read
/// as must be the play recorded, and the seats its `agreed by` names
/// among those the event records as agreeing.
fn play_input(
    engine: &dyn GameEngine,
    e: &LogEntry,
    typed: &str,
    before: &Value,
    players: &[String],
) -> Result<(), String> {
    let recorded: PlayContext = e
        .context
        .as_ref()
        .and_then(|c| serde::Deserialize::deserialize(c).ok())
        .unwrap_or_default();
    let (play, agreed) = super::turns::reread_play(engine, before, typed, players, &recorded)
        .map_err(|err| {
            format!("`input` reads \"{typed}\", which is not the play recorded: {err}")
        })?;
    let stored = e.play.clone().unwrap_or(Value::Null);
    if play != stored {
        let json = |v: &Value| serde_json::to_string(v).unwrap_or_default();
        return Err(format!(
            "`input` reads \"{typed}\", which plays {}, but the play recorded (`play`) is {}",
            json(&play),
            json(&stored)
        ));
    }
    match agreed.iter().find(|s| !recorded.agreed_by.contains(s)) {
        Some(s) => Err(format!(
            "`input` reads \"{typed}\", which names seat {} as agreeing, but `context.agreed_by` does not hold it",
            s + 1
        )),
        None => Ok(()),
    }
}

/// An answer to a player's decision: its `input` is the label of an
/// option its play took (the timeout's, the default's, so marked).
fn decision_input(e: &LogEntry, asked: &Decision) -> Result<(), String> {
    if e.kind != EventKind::Answer {
        return Ok(());
    }
    let typed = e.input.as_deref().unwrap_or_default();
    let timed_out = e.actor == TIMEOUT_ACTOR;
    // The options whose patch the recorded play holds.
    let took: Vec<(usize, &str)> = asked
        .options
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            let play = e.play.clone().unwrap_or(Value::Null);
            let mut patched = play.clone();
            merge_patch(&mut patched, &o.patch);
            patched == play
        })
        .map(|(i, o)| (i, o.label.as_str()))
        .collect();
    let reads = |label: &str| match timed_out {
        true => typed.starts_with(&format!("{label} (timed out")),
        false => typed == label,
    };
    let Some(&(i, label)) = took.iter().find(|(_, l)| reads(l)) else {
        let answer = took
            .first()
            .map_or("none of the decision's answers", |t| t.1);
        return Err(format!(
            "`input` reads \"{typed}\", but its play answers \"{answer}\""
        ));
    };
    match (timed_out, asked.default) {
        (true, Some(d)) if d != i => Err(format!(
            "the timeout answered \"{label}\", but the decision's default is \"{}\"",
            asked.options.get(d).map_or("", |o| o.label.as_str())
        )),
        (true, None) => Err("the timeout answered a decision that has no default".into()),
        _ => Ok(()),
    }
}

/// An answer to a proposal: its `input` says what it did to the proposal
/// asked ("confirmed: …", "rejected: …", "expired, nothing changed: …").
fn consent_input(e: &LogEntry, asked: &Proposal) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    // The proposal it answers is the one asked, as asked.
    if (p.by, &p.what, &p.text) != (asked.by, &asked.what, &asked.text) {
        let what = |p: &Proposal| serde_json::to_string(&p.what).unwrap_or_default();
        return Err(format!(
            "`context.proposal` reads \"{}\" ({}), but the proposal asked is \"{}\" ({})",
            p.text,
            what(&p),
            asked.text,
            what(asked)
        ));
    }
    // A consent recorded as a moderator's was given for the seat asked,
    // which `moderated` says (the log reads "confirmed by a moderator for
    // Maeoni"): an edited actor read as Maeoni's own consent.
    let seat = asked.asks.first().copied();
    if let Some(seat) = seat.filter(|s| p.confirmed.contains(s) && !p.moderated.contains(s))
        && by_moderator(e)
    {
        return Err(format!(
            "the event is recorded as a moderator's (`context.{BY_MODERATOR}`), but `context.proposal.moderated` does not hold seat {}, whose consent it gave",
            seat + 1
        ));
    }
    let stage = p.stage;
    let expected = match (stage, e.actor == TIMEOUT_ACTOR) {
        (Stage::Rejected, true) => format!("expired, nothing changed: {}", asked.text),
        (Stage::Rejected, false) => format!("rejected: {}", asked.text),
        _ => format!("confirmed: {}", asked.text),
    };
    let typed = e.input.as_deref().unwrap_or_default();
    if e.kind == EventKind::Adjust || typed == expected {
        return Ok(());
    }
    Err(format!(
        "`input` reads \"{typed}\", but the answer the log records is \"{expected}\""
    ))
}

/// An event's `input` holds no [`super::hidden_char`]: a live play is refused
/// one, so a file's that holds one was not written by the bot (an outside
/// tester's trailing U+202E was stored and shown in the log).
pub fn input_plain(e: &LogEntry) -> Result<(), String> {
    match e.input.as_deref().and_then(super::hidden_char) {
        Some(c) => Err(format!(
            "`input` holds the control character U+{:04X}, which no live entry holds",
            c as u32
        )),
        None => Ok(()),
    }
}

/// The texts `e` records as typed (a note's `context.text`, an
/// adjustment's or an end's `context.reason`, a proposal's) pass the live
/// command's checks (`super::recorded_text`). An end's reason carries the
/// words the service adds (" (by a moderator)", " (agreed by …)"): its
/// length is the typed part's.
pub fn texts_recorded(e: &LogEntry) -> Result<(), String> {
    let fields: [(&str, &[&str]); 4] = [
        ("note", &["text"]),
        ("reason", &["reason"]),
        ("reason", &["proposal", "what", "reason"]),
        ("reason", &["proposal", "what", "result", "reason"]),
    ];
    for (what, path) in fields {
        let mut at = e.context.as_ref();
        for k in path {
            at = at.and_then(|v| v.get(k));
        }
        let Some(stored) = at.and_then(Value::as_str) else {
            continue;
        };
        let typed = match (e.kind, path) {
            (EventKind::End, ["reason"]) => end_reason_typed(stored),
            _ => stored,
        };
        super::recorded_text(what, stored, typed)
            .map_err(|why| format!("`context.{}`: {why}", path.join(".")))?;
    }
    Ok(())
}

/// The part of an end's recorded reason its author typed: before the
/// parenthesis the service adds (`consent`'s " (agreed by …)", a
/// moderator's " (by a moderator)", a concession's " (conceded by …)", a
/// lone player's " (by …, with no other player in the game to ask)").
fn end_reason_typed(reason: &str) -> &str {
    [
        " (by a moderator)",
        " (agreed by ",
        " (conceded by ",
        " (by ",
    ]
    .iter()
    .find_map(|m| reason.rfind(m))
    .map_or(reason, |i| &reason[..i])
}

/// An adjustment carrying its proposal states what was proposed: its
/// `context.field`, `context.value` and `context.reason` as the proposal's
/// (an edited export whose adjustment read "stolen" while its proposal
/// read "healed" imported clean).
pub fn adjust_agrees(e: &LogEntry) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    let Proposed::Adjust {
        field,
        value,
        reason,
    } = &p.what
    else {
        return Ok(());
    };
    let stated = |k: &str| {
        e.context
            .as_ref()
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    for (k, proposed) in [("field", field), ("value", value), ("reason", reason)] {
        let said = stated(k);
        if &said != proposed {
            return Err(format!(
                "`context.{k}` reads \"{said}\", but the proposal it records (`context.proposal.what.{k}`) reads \"{proposed}\""
            ));
        }
    }
    Ok(())
}

/// A proposal's words (`context.proposal.text`: the question asked, the
/// log's line, every answer's) as its `what` writes them
/// (`consent::end_text`, `consent::adjust_text`, an adjustment's on
/// `before`, the board in effect when it was asked): an edited export
/// whose every copy of the words read "Coal wins" while its `what` named
/// Maeoni imported, and its log told the players the opposite of what was
/// recorded.
pub fn proposal_words(
    engine: &dyn GameEngine,
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    let said = match (&p.what, before) {
        (Proposed::End { result }, _) => end_text(result),
        (
            Proposed::Adjust {
                field,
                value,
                reason,
            },
            Some(before),
        ) => {
            let a = engine.adjust(before, field, value).map_err(|err| {
                format!("`context.proposal.what` ({field} = {value}) sets nothing on the board before it: {err}")
            })?;
            let result = engine.status(&a.state).ok().and_then(|s| s.result);
            adjust_text(engine, before, &a, p.by, reason, result.as_ref())
        }
        _ => return Ok(()),
    };
    match p.text == said {
        true => Ok(()),
        false => Err(format!(
            "`context.proposal.text` reads \"{}\", but the proposal it records (`context.proposal.what`) is \"{said}\"",
            p.text
        )),
    }
}

/// A confirmed end states the result its proposal asked: `winner` and
/// `rule` as proposed, `reason` the proposed one with who agreed.
pub fn end_agrees(e: &LogEntry) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()).filter(|p| p.stage == Stage::Confirmed) else {
        return Ok(());
    };
    let Proposed::End { result } = &p.what else {
        return Ok(());
    };
    let stated: Option<GameResult> = e
        .context
        .clone()
        .and_then(|c| serde_json::from_value(c).ok());
    let field = |v: Option<&str>| v.map_or("no one".to_string(), str::to_string);
    match stated {
        Some(s) if s.winner != result.winner => Err(format!(
            "`context.winner` reads {}, but the proposal confirmed (`context.proposal.what.result.winner`) reads {}",
            field(s.winner.as_deref()),
            field(result.winner.as_deref())
        )),
        Some(s) if s.rule != result.rule => Err(format!(
            "`context.rule` reads {:?}, but the proposal confirmed reads {:?}",
            s.rule, result.rule
        )),
        Some(s) if !s.reason.starts_with(&result.reason) => Err(format!(
            "`context.reason` reads \"{}\", but the proposal confirmed reads \"{}\"",
            s.reason, result.reason
        )),
        Some(_) => Ok(()),
        None => Err("`context` holds no result, but the proposal confirmed ends the match".into()),
    }
}

/// An end's `context.reason` says how it was made, as the live command
/// wrote it (`consent::end_reason`): "(by a moderator)" for a moderator's
/// who holds no seat, "(conceded by …)" or "(by …, with no other player
/// in the game to ask)" for a seat's at once, "(agreed by …)" for a
/// proposal confirmed, each seat by its name on `before`, the board in
/// effect. An edited export that took a moderator's result off the
/// moderator (the mark removed, a player made its actor) imported as the
/// player's concession while its reason still read "(by a moderator)".
pub fn end_reason_agrees(
    engine: &dyn GameEngine,
    players: &[String],
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    use super::consent::{EndedBy, agreed_names, end_reason, winner_seat_on};
    let Some(stated) = e
        .context
        .clone()
        .and_then(|c| serde_json::from_value::<GameResult>(c).ok())
    else {
        return Ok(());
    };
    let names = before
        .and_then(|b| engine.players(b).ok())
        .unwrap_or_default();
    let name = |s: usize| {
        names
            .get(s)
            .or_else(|| players.get(s))
            .cloned()
            .unwrap_or_default()
    };
    let seat = players.iter().position(|p| *p == e.actor);
    let confirmed = proposal_in(e.context.as_ref()).filter(|p| p.stage == Stage::Confirmed);
    let (given, by) = match (&confirmed, seat) {
        (Some(p), _) => match &p.what {
            Proposed::End { result } => (
                result.reason.clone(),
                EndedBy::Agreed(agreed_names(p, &names)),
            ),
            _ => return Ok(()),
        },
        (None, Some(seat)) if !by_moderator(e) => {
            match winner_seat_on(engine, before, players, &stated) {
                Some(w) if w != seat => (String::new(), EndedBy::Conceded(name(seat))),
                _ => (String::new(), EndedBy::Alone(name(seat))),
            }
        }
        (None, _) => (String::new(), EndedBy::Moderator),
    };
    let said = end_reason(&given, &by);
    let agrees = match confirmed {
        Some(_) => stated.reason == said,
        None => stated.reason.ends_with(&said),
    };
    if agrees {
        return Ok(());
    }
    let made = match by {
        EndedBy::Moderator => "a moderator's who holds no seat".to_string(),
        EndedBy::Conceded(n) => format!("{n}'s concession"),
        EndedBy::Alone(n) => format!("{n}'s, with no other player to ask"),
        EndedBy::Agreed(_) => "a proposal confirmed".to_string(),
    };
    Err(format!(
        "`context.reason` reads \"{}\", but the end it records is {made}, whose reason reads \"{}\"",
        stated.reason,
        match given.is_empty() {
            true => format!("…{said}"),
            false => said,
        }
    ))
}

/// An adjustment's `context.adjustment` (what it changed, from what to
/// what, whose field: the reply to a retried request shows it) is the one
/// its `context.field` and `context.value` make on `before`, the board in
/// effect: an edited export changed a moderator's value, its `input` and
/// its board, and kept the changes of the value it replaced.
pub fn adjustment_agrees(
    engine: &dyn GameEngine,
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    let context = e.context.as_ref();
    let (Some(held), Some(before)) = (context.and_then(|c| c.get("adjustment")), before) else {
        return Ok(());
    };
    let text = |k: &str| {
        context
            .and_then(|c| c.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    // A field that sets nothing is refused by `input_agrees` and replay.
    let Ok(a) = engine.adjust(before, text("field"), text("value")) else {
        return Ok(());
    };
    let derived = serde_json::to_value(&a).unwrap_or(Value::Null);
    let keys = derived
        .as_object()
        .into_iter()
        .flat_map(|o| o.keys())
        .chain(held.as_object().into_iter().flat_map(|o| o.keys()));
    for k in keys {
        let (h, d) = (held.get(k), derived.get(k));
        if h != d {
            let shown = |v: Option<&Value>| v.map_or("nothing".to_string(), Value::to_string);
            return Err(format!(
                "`context.adjustment.{k}` reads {}, but the adjustment its `context.field` and `context.value` make reads {}",
                shown(h),
                shown(d)
            ));
        }
    }
    Ok(())
}

/// At a moderator's import into a match seating `players`: every event
/// made by the user of the seat it acts for, or by a moderator who holds
/// no seat (marked so when it was recorded), or by the timeout. `Err`
/// names the event and the field.
/// A play is its seat's by its `context.author` or, the field gone from
/// the file, by the engine's reading of it on the board before it
/// (`engine.actor`: an edited `actor` went unnoticed with the author
/// deleted).
pub fn owned(
    engine: &dyn crate::engine::GameEngine,
    log: &[LogEntry],
    players: &[String],
) -> Result<(), String> {
    let mut board: Option<&Value> = None;
    for e in log {
        let player = match (e.kind, board, &e.play) {
            (EventKind::Play, Some(b), Some(p)) => engine.actor(b, p).ok().flatten(),
            _ => None,
        };
        owns(e, players, player).map_err(|why| format!("{} {}: {why}", e.kind.as_str(), e.seq))?;
        if let Some(after) = &e.state {
            board = Some(after);
        }
    }
    Ok(())
}

/// Whether the event is marked as made by a moderator who holds no seat.
fn by_moderator(e: &LogEntry) -> bool {
    e.context
        .as_ref()
        .and_then(|c| c.get(BY_MODERATOR))
        .and_then(Value::as_bool)
        == Some(true)
}

fn owns(e: &LogEntry, players: &[String], player: Option<usize>) -> Result<(), String> {
    if e.actor == TIMEOUT_ACTOR {
        return Ok(());
    }
    let held = players.iter().position(|p| *p == e.actor);
    // A note made while a question waits, or an undo that brings one
    // back, carries the context of the event that asked it
    // (`matches::carried_context`): the proposal, the seat answered for and,
    // in logs written before they dropped it, the moderator's mark are
    // that event's, not theirs. A note is its author's, as the live undo
    // rules read it (`matches::is_plain_note`); an undo is checked by `permits`.
    let carried = e.kind == EventKind::Undo || super::is_plain_note(e.kind, e.context.as_ref());
    let marked = by_moderator(e) && !(carried && held.is_some());
    let Some(held) = held else {
        return match marked {
            true => Ok(()),
            false => Err(format!(
                "`actor` reads {}, who holds no seat in this match, and the event is not recorded as a moderator's",
                e.actor
            )),
        };
    };
    if marked {
        return Err(format!(
            "`actor` reads {}, who holds seat {}, but the event is recorded as made by a moderator who holds none",
            e.actor,
            held + 1
        ));
    }
    let own = |what: &str, seat: usize| match seat == held {
        true => Ok(()),
        false => Err(format!(
            "`actor` reads {} (seat {}), but {what} is seat {}'s ({})",
            e.actor,
            held + 1,
            seat + 1,
            players.get(seat).map_or("nobody", String::as_str)
        )),
    };
    let context = |k: &str| {
        e.context
            .as_ref()
            .and_then(|c| c.get(k))
            .and_then(Value::as_u64)
            .and_then(|s| usize::try_from(s).ok())
    };
    if carried {
        return Ok(());
    }
    // Who answered a decision or a proposal (a board confirmed is
    // recorded as its author's, with the seat that confirmed it).
    if e.kind != EventKind::Setup
        && let Some(seat) = context("answered_for")
    {
        own("the decision it answers", seat)?;
    }
    if e.kind == EventKind::Play
        && let Some(seat) = context("author").or(player)
    {
        own("the play", seat)?;
    }
    // A proposal is made by its author (a confirmed board stays theirs).
    if let Some(p) = proposal_in(e.context.as_ref()) {
        let opens = e.kind != EventKind::Answer && p.stage == Stage::Asked;
        let board = e.kind == EventKind::Setup && p.stage == Stage::Confirmed;
        if opens || board {
            own("the proposal", p.by)?;
        }
    }
    Ok(())
}
