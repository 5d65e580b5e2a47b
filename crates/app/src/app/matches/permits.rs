//! What each event of a log needed when it was made: the consent and undo
//! rules the live commands apply, applied again at import and `verify`
//! by the same functions (`turns::adjust_asks`, `turns::end_asks`,
//! `turns::play_asks`, `turns::undo_refused`, …). An export is a file
//! anyone can edit: an outside tester's edits made a player's adjust of
//! the opponent's damage, a moderator's adjust and end credited to a
//! player, a play "agreed by" a player who never confirmed it, and undos
//! no one could have made all import and verify clean. Each is refused
//! naming the event and the field, as `integrity` refuses a field that
//! contradicts the rest of the file.

use serde_json::Value;

use super::LogEntry;
use super::consent::{CONSENT_KEY, Proposal, Stage, proposal_in};
use crate::engine::{GameEngine, GameResult};
use crate::store::{EventKind, EventRecord};

/// The seat `e`'s actor holds in a match seating `players` (`None`: a
/// moderator who holds none, or the timeout).
fn seat_of(e: &LogEntry, players: &[String]) -> Option<usize> {
    players.iter().position(|p| *p == e.actor)
}

/// The seats `e`'s `context.agreed_by` names: those whose stated
/// choices its play holds as theirs.
fn agreed_by(e: &LogEntry) -> Vec<usize> {
    e.context
        .as_ref()
        .and_then(|c| c.get("agreed_by"))
        .and_then(|a| serde_json::from_value(a.clone()).ok())
        .unwrap_or_default()
}

/// "coal (seat 1)": the actor as the refusals name them.
fn who(e: &LogEntry, seat: usize) -> String {
    format!("{} (seat {})", e.actor, seat + 1)
}

/// Seats in words: "seat 2 (maeoni), seat 3 (cleo)".
fn seats(list: &[usize], players: &[String]) -> String {
    let named: Vec<String> = list
        .iter()
        .map(|s| match players.get(*s) {
            Some(u) => format!("seat {} ({u})", s + 1),
            None => format!("seat {}", s + 1),
        })
        .collect();
    match named.is_empty() {
        true => "nobody".into(),
        false => named.join(", "),
    }
}

/// A context field of `e` as text.
fn text<'a>(e: &'a LogEntry, key: &str) -> &'a str {
    e.context
        .as_ref()
        .and_then(|c| c.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// A player's event that asks no one in the file (no `context.proposal`)
/// but that the live command would have asked others of, on `before`,
/// the board in effect when it was made: an adjust of another seat's
/// field (or one the result counts, or that decides the game), an end
/// that some other seat loses by, a play whose `agreed by` names another
/// seat or whose claims the others must confirm. A moderator's events
/// (who holds no seat) ask nobody, as live.
pub fn needed_no_consent(
    engine: &dyn GameEngine,
    players: &[String],
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    let (Some(seat), None) = (seat_of(e, players), proposal_in(e.context.as_ref())) else {
        return Ok(());
    };
    let asks = match e.kind {
        EventKind::Adjust => {
            let Some(before) = before else {
                return Ok(());
            };
            match engine.adjust(before, text(e, "field"), text(e, "value")) {
                Ok(a) => super::turns::adjust_asks(engine, before, players, seat, &a),
                // Replay names a field that sets nothing.
                Err(_) => return Ok(()),
            }
        }
        EventKind::End => {
            let result: Option<GameResult> = e
                .context
                .clone()
                .and_then(|c| serde_json::from_value(c).ok());
            match result {
                Some(r) => super::turns::end_asks(engine, before, players, seat, &r),
                None => Vec::new(),
            }
        }
        EventKind::Play => {
            let ruling = e.ruling.as_ref();
            let legal = ruling
                .and_then(|r| r.get("legal"))
                .and_then(Value::as_bool)
                .unwrap_or(true);
            let claims = ruling
                .and_then(|r| r.get("claims"))
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty());
            // Its own seat agrees to nothing (live, `agreed by` may not
            // name it; a confirmed play's lists its author).
            let mut named = agreed_by(e);
            named.retain(|s| *s != seat);
            let (asks, _) = super::turns::play_asks(
                engine,
                before,
                players.len(),
                seat,
                &named,
                legal && claims,
            );
            asks
        }
        _ => Vec::new(),
    };
    if asks.is_empty() {
        return Ok(());
    }
    Err(format!(
        "`actor` reads {}, a player, whose {} the live command records as a proposal asking {} to consent, but the log holds none (`context.proposal`); only a moderator who holds no seat makes it at once",
        who(e, seat),
        e.kind.as_str(),
        seats(&asks, players)
    ))
}

/// A proposal opened by `e` (an adjust, or an end proposed as a note)
/// asks the seats the live command asks on `before`: an export edited to
/// ask nobody, or someone else, is refused.
pub fn asks_whom_it_should(
    engine: &dyn GameEngine,
    players: &[String],
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    let opens = p.stage == Stage::Asked && p.confirmed.is_empty() && e.kind != EventKind::Answer;
    let asks = match (opens, &p.what) {
        (true, super::consent::Proposed::Adjust { field, value, .. }) => {
            let Some(Ok(a)) = before.map(|b| engine.adjust(b, field, value)) else {
                return Ok(());
            };
            super::turns::adjust_asks(engine, before.unwrap_or(&Value::Null), players, p.by, &a)
        }
        (true, super::consent::Proposed::End { result }) => {
            super::turns::end_asks(engine, before, players, p.by, result)
        }
        // A play asks at least the seats its `agreed by` names (its claims
        // are judged again by replay).
        (true, super::consent::Proposed::Play) => {
            let named = agreed_by(e);
            match named.iter().all(|s| p.asks.contains(s)) && !p.asks.is_empty() {
                true => return Ok(()),
                false => named,
            }
        }
        _ => return Ok(()),
    };
    if asks == p.asks {
        return Ok(());
    }
    Err(format!(
        "`context.proposal.asks` reads {}, but the live command asks {}",
        seats(&p.asks, players),
        seats(&asks, players)
    ))
}

/// The question a proposal `e` carries waiting (`ruling.pending`) is the
/// one its proposal asks, with the seats named as on the board it was
/// asked on (a starting board's own): the log shows it, and an edited
/// export's read "Coal proposes a handshake".
pub fn question_agrees(
    engine: &dyn GameEngine,
    players: &[String],
    e: &LogEntry,
    before: Option<&Value>,
) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()).filter(|p| p.stage == Stage::Asked) else {
        return Ok(());
    };
    // An undo brings back the question of the event it restores, as stored.
    if e.kind == EventKind::Undo {
        return Ok(());
    }
    let board = match e.kind {
        EventKind::Setup => e.state.as_ref(),
        _ => before,
    };
    let names = board
        .and_then(|b| engine.players(b).ok())
        .unwrap_or_default();
    let asked = p
        .decision(&names, players)
        .and_then(|d| serde_json::to_value(d).ok());
    let stored = e.ruling.as_ref().and_then(|r| r.get("pending")).cloned();
    if stored == asked {
        return Ok(());
    }
    let question = |v: Option<&Value>| {
        v.and_then(|d| d.get("question"))
            .and_then(Value::as_str)
            .unwrap_or("nothing")
            .to_string()
    };
    Err(format!(
        "`ruling.pending` asks \"{}\", but the proposal it records (`context.proposal`) asks \"{}\"",
        question(stored.as_ref()),
        question(asked.as_ref())
    ))
}

/// An answer to the proposal `asked` (the one waiting before `e`) moves it
/// on by one seat: a confirmation adds the seat asked to `confirmed` and
/// asks the next (confirmed once none is left), a rejection confirms no
/// one more. An edited export's `confirmed` or `stage` stood for
/// confirmations no event in it gave.
pub fn consent_follows(e: &LogEntry, asked: &Proposal) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    // Another proposal (a board set up over it, by its author too) answers
    // nothing: only an answer, or the event a confirmation records, does.
    let opens = e.kind != EventKind::Answer && p.stage == Stage::Asked;
    if opens || (p.by, &p.what, &p.text) != (asked.by, &asked.what, &asked.text) {
        return Ok(());
    }
    let (confirmed, asks, stage) = match p.stage {
        Stage::Rejected => (asked.confirmed.clone(), p.asks.clone(), Stage::Rejected),
        _ => {
            let mut confirmed = asked.confirmed.clone();
            confirmed.extend(asked.asks.first());
            let asks = asked.asks.iter().skip(1).copied().collect::<Vec<_>>();
            let stage = match asks.is_empty() {
                true => Stage::Confirmed,
                false => Stage::Asked,
            };
            (confirmed, asks, stage)
        }
    };
    if (&p.confirmed, &p.asks, p.stage) == (&confirmed, &asks, stage) {
        return Ok(());
    }
    Err(format!(
        "`context.proposal` reads {:?}, confirmed by seats {:?} and asking {:?}, but the answers recorded give {:?}, confirmed by seats {:?} and asking {:?}",
        p.stage,
        one_based(&p.confirmed),
        one_based(&p.asks),
        stage,
        one_based(&confirmed),
        one_based(&asks)
    ))
}

fn one_based(seats: &[usize]) -> Vec<usize> {
    seats.iter().map(|s| s + 1).collect()
}

/// An event recording a proposal confirmed or rejected answers one that
/// waits (`asking`, the event in effect before it that waits on a
/// consent): one with none before it confirmed itself.
pub fn answers_a_proposal(e: &LogEntry, asking: Option<&LogEntry>) -> Result<(), String> {
    let Some(p) = proposal_in(e.context.as_ref()) else {
        return Ok(());
    };
    if p.stage == Stage::Asked || matches!(e.kind, EventKind::Undo | EventKind::Note) {
        return Ok(());
    }
    // The proposal waiting, or (an answer to a decision a confirmed play
    // reached) the one the event it answers carries.
    let answers = asking.is_some_and(|a| {
        asked_consent(a).is_some() || proposal_in(a.context.as_ref()).as_ref() == Some(&p)
    });
    if answers {
        return Ok(());
    }
    Err(format!(
        "`context.proposal.stage` reads {}, but no proposal waits before it in the log",
        match p.stage {
            Stage::Rejected => "rejected",
            _ => "confirmed",
        }
    ))
}

/// The proposal `asking` waits on, when the decision it waits on is a
/// consent.
pub fn asked_consent(asking: &LogEntry) -> Option<Proposal> {
    let key = asking
        .ruling
        .as_ref()
        .and_then(|r| r.get("pending"))
        .and_then(|d| d.get("key"))
        .and_then(Value::as_str);
    proposal_in(asking.context.as_ref())
        .filter(|p| p.stage == Stage::Asked && key == Some(CONSENT_KEY))
}

/// The seats `e`'s `context.agreed_by` names, each backed by the log: a
/// proposed play asks them, a confirmed proposal's confirmations (and
/// its author) gave them, an answer carries those of the event it answers
/// (`asking`). A moderator's entry (who holds no seat) names every seat
/// as written, as live.
pub fn agreed_backed(
    players: &[String],
    e: &LogEntry,
    asking: Option<&LogEntry>,
) -> Result<(), String> {
    let named = agreed_by(e);
    if named.is_empty() || seat_of(e, players).is_none() {
        return Ok(());
    }
    let p = proposal_in(e.context.as_ref());
    let backed: Vec<usize> = match (e.kind, &p) {
        (EventKind::Play, Some(p)) if p.stage == Stage::Asked => p.asks.clone(),
        (EventKind::Answer | EventKind::Adjust, Some(p)) if p.stage == Stage::Confirmed => {
            p.confirmed.iter().copied().chain([p.by]).collect()
        }
        (EventKind::Answer, _) => asking.map(agreed_by).unwrap_or_default(),
        // A play asking no one is refused by `needed_no_consent`.
        _ => return Ok(()),
    };
    match named.iter().find(|s| !backed.contains(s)) {
        None => Ok(()),
        Some(s) => Err(format!(
            "`context.agreed_by` holds seat {}, but no confirmation recorded in the log gives that seat's consent",
            s + 1
        )),
    }
}

/// The undo `e` is one its actor could make at that point: `stack` holds
/// the events in effect before it (the last on top), `ended` the result
/// the event before it ended the match with and the seat that won it.
/// The live rules say who may undo the top and which event the undo
/// takes back (a proposal withdrawn whole by its author): an edited
/// export had Cleo undo Ben's proposal, and Ben's undo take back Cleo's
/// rejection.
pub fn undo_allowed(
    players: &[String],
    e: &LogEntry,
    stack: &[&LogEntry],
    ended: Option<(GameResult, Option<usize>)>,
) -> Result<(), String> {
    let moderator = seat_of(e, players).is_none();
    let stack = match (moderator, &ended) {
        (false, None) => past_notes(&e.actor, players, stack),
        _ => stack,
    };
    let Some(top) = stack.last().map(|t| record_of(t)) else {
        return Ok(());
    };
    if !moderator {
        super::turns::undo_refused(&e.actor, players, &top, ended).map_err(|why| {
            format!(
                "`actor` reads {}, who may not undo {} {} at this point: {why}",
                e.actor,
                top.kind.as_str(),
                top.seq
            )
        })?;
    }
    let mut target = top.seq;
    if let Some(p) = super::turns::withdrawn_whole(&e.actor, moderator, players, &top) {
        for t in stack.iter().rev().skip(1) {
            let t = record_of(t);
            match super::turns::origin_step(&p, &t) {
                Some(true) => {
                    target = t.seq;
                    break;
                }
                Some(false) => {}
                None => break,
            }
        }
    }
    match e.undoes == Some(target) {
        true => Ok(()),
        false => Err(format!(
            "`undoes` reads {}, but an undo by {} at this point takes back event {target}",
            e.undoes.map_or("nothing".into(), |u| u.to_string()),
            e.actor
        )),
    }
}

/// The events in effect as a player's undo takes them: when other users'
/// notes lie over an event `user` may undo, up to that event (its undo
/// takes the notes with it), as live (`turns::past_note_step`).
fn past_notes<'a>(user: &str, players: &[String], stack: &'a [&'a LogEntry]) -> &'a [&'a LogEntry] {
    let mut passed = false;
    for (i, t) in stack.iter().enumerate().rev() {
        match super::turns::past_note_step(user, players, &record_of(t)) {
            Some(true) => passed = true,
            Some(false) if passed => return &stack[..=i],
            _ => break,
        }
    }
    stack
}

/// An entry as the live rules read a stored event.
fn record_of(e: &LogEntry) -> EventRecord {
    EventRecord {
        seq: e.seq,
        kind: e.kind,
        actor: e.actor.clone(),
        input: e.input.clone(),
        play: e.play.clone(),
        ruling: e.ruling.clone(),
        state: e.state.clone().unwrap_or(Value::Null),
        undoes: e.undoes,
        context: e.context.clone(),
        deadline: None,
        at: e.at,
    }
}
