//! Match replies as terminal text (the CLI and the console). Players are
//! named by their seat's name on the board, with the user in brackets.

use std::fmt::Write as _;

use serde_json::Value;

use super::text::{decision, result, ruling};
use crate::app::matches::{
    EventReply, LogEntry, LogReply, MatchReply, MatchView, Next, NextKind, RuleSetState, Seat,
    TIMEOUT_ACTOR, WHOLE_BOARD,
};
use crate::store::{EventKind, MatchStatus};

/// How players are named: on a terminal by name and user; on Discord by
/// name and mention (rendered as the member's name, without a ping, in an
/// embed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    #[default]
    Console,
    Discord,
}

/// Any match reply as text for a terminal. An export is its YAML.
pub fn reply(r: &MatchReply) -> String {
    reply_as(r, Style::Console)
}

/// Any match reply as text, naming players in `style`.
pub fn reply_as(r: &MatchReply, style: Style) -> String {
    match r {
        MatchReply::Match(v) => view(v, style),
        MatchReply::Event(e) => event(e, style),
        MatchReply::Log(l) => log(l, style),
        MatchReply::Export(x) => x.yaml.clone(),
        MatchReply::Completions(list) => list.iter().map(|s| format!("{s}\n")).collect(),
        MatchReply::Replay(r) if r.consistent => {
            format!(
                "match #{}: {} events replayed; every stored board equals the replay\n",
                r.match_id, r.events
            )
        }
        MatchReply::Replay(r) => format!(
            "match #{}: the log does not replay: {}\n",
            r.match_id,
            r.mismatches.join("; ")
        ),
    }
}

/// A user's id as `style` shows it: a Discord id as a mention.
pub fn user(user: &str, style: Style) -> String {
    let snowflake = !user.is_empty() && user.bytes().all(|b| b.is_ascii_digit());
    match style {
        Style::Discord if snowflake => format!("<@{user}>"),
        _ => user.to_string(),
    }
}

/// A user as replies name them: the seat's board name, then the user.
pub fn who(seats: &[Seat], id: &str, style: Style) -> String {
    if id == TIMEOUT_ACTOR {
        return "the decision's timeout".into();
    }
    match seats.iter().find(|s| s.user == id) {
        Some(Seat { name: Some(n), .. }) if n != id => {
            format!("{} ({})", md(n, style), user(id, style))
        }
        _ => user(id, style),
    }
}

fn next_line(out: &mut String, next: Option<&Next>, seats: &[Seat], style: Style) {
    if let Some(line) = next_text(next, seats, style) {
        let _ = writeln!(out, "{line}");
    }
}

/// Who acts next, as replies end: `next: Coal: your turn (…)`.
pub fn next_text(next: Option<&Next>, seats: &[Seat], style: Style) -> Option<String> {
    let n = next?;
    let who = who(seats, &n.user, style);
    Some(match n.what {
        NextKind::Turn => format!("next: {who}: {}", md(&n.text, style)),
        NextKind::Decision => format!("next: {who} decides: {}", md(&n.text, style)),
    })
}

/// A match and its board.
pub fn view(v: &MatchView, style: Style) -> String {
    let mut out = String::new();
    let status = match v.status {
        MatchStatus::Active => "active",
        MatchStatus::Ended => "ended",
        MatchStatus::Withdrawn => "withdrawn",
    };
    let _ = writeln!(
        out,
        "{} match #{} in {} ({status}, version {})",
        v.game, v.match_id, v.channel, v.version
    );
    if let Some(s) = &v.game_status {
        let round = s.round.map(|r| format!(", round {r}")).unwrap_or_default();
        let _ = writeln!(out, "phase: {}{round}", s.phase);
    }
    for s in &v.seats {
        let name = s
            .name
            .as_deref()
            .map(|n| format!(" as {}", md(n, style)))
            .unwrap_or_default();
        let mark = match &v.next {
            Some(n) if n.seat == s.seat && n.what == NextKind::Turn => "  ← to play",
            Some(n) if n.seat == s.seat => "  ← to decide",
            _ => "",
        };
        let quiet = if v.quiet.contains(&s.seat) {
            "  (turn notices off)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  seat {}: {}{name}{mark}{quiet}",
            s.seat + 1,
            user(&s.user, style)
        );
    }
    if let Some(p) = &v.pending {
        out.push_str(&md(&decision(&p.decision), style));
        match p.deadline {
            Some(d) if p.is_consent() => {
                let _ = writeln!(out, "  (unanswered, it expires after {})", time_text(d));
            }
            Some(d) if p.decision.default_assumed => {
                let _ = writeln!(out, "  (the assumed answer applies after {})", time_text(d));
            }
            Some(d) => {
                let _ = writeln!(out, "  (the rules' default applies after {})", time_text(d));
            }
            None => {}
        }
    }
    if let Some(r) = &v.result {
        out.push_str(&md(&result(r), style));
    }
    if let Some(r) = &v.rule_set {
        out.push_str(&rule_set_line(r));
    }
    for n in &v.notes {
        let _ = writeln!(out, "note: {}", md(n, style));
    }
    next_line(&mut out, v.next.as_ref(), &v.seats, style);
    match &v.board {
        Some(b) if !b.is_null() => {
            let _ = writeln!(out, "board:");
            let yaml = serde_saphyr::to_string(b).unwrap_or_else(|_| b.to_string());
            if style == Style::Discord {
                // Fenced, so the board keeps its layout (and a user's fence cannot end it).
                let _ = writeln!(
                    out,
                    "```yaml\n{}\n```",
                    yaml.trim_end().replace("```", "'''")
                );
            } else {
                for line in yaml.lines() {
                    let _ = writeln!(out, "  {line}");
                }
            }
        }
        _ => {
            let _ = writeln!(out, "no board yet: give one with `match setup`");
        }
    }
    if !v.notify {
        let _ = writeln!(
            out,
            "(turn notices are off for the whole match: a moderator's `match notify on`)"
        );
    } else if !v.quiet.is_empty() {
        let _ = writeln!(
            out,
            "(a player's own turn notices: `match notify on|off`, each for their own seat)"
        );
    }
    if !v.pictures {
        let _ = writeln!(
            out,
            "(board pictures are off: a Picture button draws one; `match pictures on`)"
        );
    }
    out
}

/// An event's outcome.
/// Which of the server's rule-set versions the match cites, and whether a
/// newer one exists.
fn rule_set_line(r: &RuleSetState) -> String {
    let pinned = match r.pinned {
        0 => "the shipped rules only (the server had added no documents)".to_string(),
        v => format!("this server's rule set at version {v}"),
    };
    let mut line = format!("rules: {pinned}, as when the match started");
    if r.outdated() {
        let _ = write!(
            line,
            "; a newer version ({}) exists: this match keeps citing version {} (start a new match to use the newer one)",
            r.latest, r.pinned
        );
    }
    line.push('\n');
    line
}

pub fn event(r: &EventReply, style: Style) -> String {
    let mut out = String::new();
    if r.replayed {
        let _ = writeln!(
            out,
            "(already recorded: this is the first result of the same request)"
        );
    }
    let seq = r.seq.unwrap_or(r.version);
    let _ = match (r.event, r.applied) {
        (_, true) if r.proposed => {
            writeln!(
                out,
                "proposal #{seq} recorded: nothing changes unless it is confirmed"
            )
        }
        (EventKind::Play, false) => writeln!(out, "illegal play: nothing changed"),
        (EventKind::Advance, false) => {
            writeln!(out, "the match cannot move on yet: nothing changed")
        }
        (EventKind::Play, true) if r.ruling.as_ref().is_some_and(|x| !x.legal) => {
            writeln!(
                out,
                "illegal play, recorded as #{seq} for the record the rules keep of the attempt"
            )
        }
        (EventKind::Play, true) if r.pending.is_some() => {
            writeln!(out, "play #{seq} recorded, waiting for a decision")
        }
        (EventKind::Play, true) => writeln!(out, "play #{seq} recorded"),
        (EventKind::Answer, _) => writeln!(out, "answer #{seq} recorded"),
        (EventKind::Advance, true) => writeln!(out, "#{seq}: the match moves on"),
        (EventKind::Adjust, _) => writeln!(out, "adjustment #{seq} recorded"),
        (EventKind::Note, _) => writeln!(out, "note #{seq} recorded"),
        (EventKind::Undo, _) => writeln!(out, "undone (event #{seq}):"),
        (kind, _) => writeln!(out, "{} #{seq}", kind.as_str()),
    };
    if let Some(u) = &r.undone {
        entry(&mut out, u, &r.seats, style);
    }
    if let Some(a) = &r.adjustment {
        let (before, after) = a.read();
        let line = format!("{}: {before} → {after}", a.label);
        let _ = writeln!(out, "  {}", md(&line, style));
    }
    if let Some(n) = &r.note {
        let label = match r.event {
            EventKind::Adjust => "reason",
            // The notes an undo took back with the event under them.
            EventKind::Undo => "notes",
            _ => "note",
        };
        let _ = writeln!(out, "  {label}: {}", md(n, style));
    }
    if let Some(x) = &r.ruling {
        // The ruling without its full state dump: `match board` shows the board.
        let text = ruling(x);
        out.push_str(
            text.find("\nstate:\n")
                .map_or(text.as_str(), |i| &text[..=i]),
        );
    } else if r.event == EventKind::Undo || r.event == EventKind::Adjust {
        if r.changes.is_empty() {
            let _ = writeln!(out, "no change to the board");
        } else {
            let _ = writeln!(
                out,
                "{}:",
                if r.event == EventKind::Undo {
                    "reverted"
                } else {
                    "changes"
                }
            );
            for c in &r.changes {
                let _ = writeln!(out, "  {}", md(&change_line(c), style));
            }
        }
    }
    if let Some(p) = r
        .pending
        .as_ref()
        .filter(|_| r.ruling.as_ref().is_none_or(|x| x.pending.is_none()))
    {
        out.push_str(&md(&decision(&p.decision), style));
    }
    if let Some(res) = &r.result {
        // A ruling that decided the match printed its result already.
        let shown = r
            .ruling
            .as_ref()
            .and_then(|x| x.status.as_ref())
            .is_some_and(|s| s.result.is_some());
        match shown {
            true => {
                let _ = writeln!(out, "the match has ended");
            }
            false => {
                let _ = writeln!(out, "the match has ended:");
                out.push_str(&md(&result(res), style));
            }
        }
    }
    next_line(&mut out, r.next.as_ref(), &r.seats, style);
    out
}

/// A change as a reply lists it; the whole board's summarised ("board:
/// the starting board (2 seats) → none"), not its JSON on one line.
fn change_line(c: &crate::engine::Change) -> String {
    if c.path != WHOLE_BOARD {
        let (before, after) = c.read();
        return format!("{}: {before} → {after}", c.path);
    }
    let board = |v: &Value| match v.get("players").and_then(Value::as_array) {
        Some(seats) => format!(
            "the starting board ({})",
            crate::text::count(seats.len(), "seat")
        ),
        None if v.is_null() => "none".to_string(),
        None => "a board".to_string(),
    };
    format!("{}: {} → {}", c.path, board(&c.before), board(&c.after))
}

/// Who proposed and who confirmed the change an event made, when a
/// proposal made it (", proposed by Ana, confirmed by Ben, a moderator for
/// Cleo"; the proposer's own event says only who confirmed).
fn agreement(e: &LogEntry, seats: &[Seat], style: Style) -> String {
    let Some(p) = crate::app::matches::proposal_in(e.context.as_ref())
        .filter(|p| p.stage == crate::app::matches::Stage::Confirmed)
    else {
        return String::new();
    };
    let name = |seat: usize| {
        seats.get(seat).map_or_else(
            || format!("seat {}", seat + 1),
            |s| who(seats, &s.user, style),
        )
    };
    let by: Vec<String> = p
        .confirmed
        .iter()
        .map(|&s| match p.moderated.contains(&s) {
            true => format!("a moderator for {}", name(s)),
            false => name(s),
        })
        .collect();
    let proposer = seats.get(p.by).filter(|s| s.user != e.actor);
    match proposer {
        Some(_) => format!(
            ", proposed by {}, confirmed by {}",
            name(p.by),
            by.join(", ")
        ),
        None => format!(", confirmed by {}", by.join(", ")),
    }
}

fn entry(out: &mut String, e: &LogEntry, seats: &[Seat], style: Style) {
    entry_lines(out, e, seats, style, true);
}

/// Text that holds a user's words (a name, a note, a reason, a question
/// quoting them) as `style` shows it: on Discord with markdown and web
/// addresses shown as typed and the bot's own mentions kept
/// (`markdown::escape_keeping_mentions`), every line of a reply alike (an
/// undo escaped the event's line but not its reason's, found by an
/// outside tester); on a terminal as it is.
fn md(s: &str, style: Style) -> String {
    match style {
        Style::Discord => super::markdown::escape_keeping_mentions(s),
        Style::Console => s.to_string(),
    }
}

/// One log entry: its line, then (`steps`) its ruling's steps and notes.
/// A user's text in a log line: on one line (a line break in a note
/// cannot start a line that reads as another event), and on Discord with
/// its markdown shown as typed (found by an outside tester: a note forged
/// "#9 Ana ended the match: Ben wins", in bold).
fn inline(s: &str, style: Style) -> String {
    match style {
        Style::Discord => super::markdown::escape_inline(s),
        _ => s
            .chars()
            .map(|c| {
                if super::markdown::breaks_line(c) {
                    ' '
                } else {
                    c
                }
            })
            .collect(),
    }
}

/// ", replacing #3, which waited on Maeoni's decision: …" when a setup
/// replaced a decision still waiting (its undo brings it back).
fn replaced(e: &LogEntry, style: Style) -> String {
    let r = e
        .context
        .as_ref()
        .and_then(|c| c.get("replaced"))
        .and_then(|r| serde_json::from_value::<crate::app::matches::Replaced>(r.clone()).ok());
    match r {
        Some(r) => format!(
            ", replacing #{}, which waited on {}'s decision: {}",
            r.seq,
            inline(&r.player, style),
            inline(&r.question, style)
        ),
        None => String::new(),
    }
}

/// An end's reason as its author typed it, set apart after the line's own
/// result and consents (` — reason: "…"`, its quotes escaped inside), so
/// that it cannot read as them: "time called; Maeoni wins (agreed by
/// Coal)" was the whole line of an end with no winner (found by an
/// outside tester). A confirmed proposal's is the one proposed (its
/// `context.reason` adds who agreed, which `agreement` says).
fn end_reason(e: &LogEntry, style: Style) -> String {
    let proposed =
        crate::app::matches::proposal_in(e.context.as_ref()).and_then(|p| match p.what {
            crate::app::matches::Proposed::End { result } => Some(result.reason),
            _ => None,
        });
    let reason = proposed.or_else(|| {
        e.context
            .as_ref()
            .and_then(|c| c.get("reason"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    match reason.filter(|r| !r.trim().is_empty()) {
        Some(r) => format!(
            " — reason: {}",
            inline(&serde_json::to_string(&r).unwrap_or_default(), style)
        ),
        None => String::new(),
    }
}

/// " for NAME" when an answer settled another seat's decision (a
/// moderator's, or the timeout's): whose choice it was stays on the record.
fn answered_for(e: &LogEntry, seats: &[Seat], style: Style) -> String {
    let seat = e
        .context
        .as_ref()
        .and_then(|c| c.get("answered_for"))
        .and_then(Value::as_u64);
    match seat.and_then(|i| seats.iter().find(|s| s.seat as u64 == i)) {
        Some(s) if s.user != e.actor => format!(" for {}", who(seats, &s.user, style)),
        _ => String::new(),
    }
}

/// A step's assumed choice and its assumption, labelled as the ruling's
/// reply labels them (the engine's words, as the step's line is): the log is the lasting record, and without the
/// labels an assumed fact read as a rule's step (found by an outside
/// tester: "against a visible target" with its "assumption (not in the
/// indexed rules)" gone).
fn assumed_lines(out: &mut String, step: &Value) {
    let Ok(s) = serde_json::from_value::<crate::engine::Step>(step.clone()) else {
        return;
    };
    if let Some(c) = s.choice.as_ref()
        && let Some(why) = &c.assumed
    {
        let _ = writeln!(out, "      choice: {} ({why})", c.sentence());
    }
    if let Some(a) = &s.assumption {
        let _ = writeln!(out, "      assumption (not in the indexed rules): {a}");
    }
}

/// An answer that made its play illegal is recorded (the question is
/// answered) but the play does not happen: the log says so with the rule
/// it breaks, where it once showed the answer and the steps as if the
/// play were done (found by an outside tester). An undo or a note carries
/// another event's ruling and says nothing of it.
fn illegal_lines(out: &mut String, e: &LogEntry, r: &Value) {
    if matches!(e.kind, EventKind::Undo | EventKind::Note)
        || r.get("legal").and_then(Value::as_bool) != Some(false)
    {
        return;
    }
    let errors: Vec<&Value> = r
        .get("diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|d| d.get("severity").and_then(Value::as_str) == Some("error"))
        .collect();
    let how = match e.kind {
        EventKind::Answer => "with this answer the play turned out illegal",
        _ => "the play is illegal",
    };
    let _ = writeln!(out, "    illegal: {how}; it does not take effect");
    for d in errors {
        let message = d.get("message").and_then(Value::as_str).unwrap_or("");
        match d.get("rule").and_then(Value::as_str) {
            Some(rule) => {
                let _ = writeln!(out, "    error: [{rule}] {message}");
            }
            None => {
                let _ = writeln!(out, "    error: {message}");
            }
        }
    }
}

fn entry_lines(out: &mut String, e: &LogEntry, seats: &[Seat], style: Style, steps: bool) {
    let seats = &e.seats_then(seats);
    let text = |k: &str| {
        let t = e
            .context
            .as_ref()
            .and_then(|c| c.get(k))
            .and_then(Value::as_str);
        t.unwrap_or_default().to_string()
    };
    // Free text a user wrote: a note, a reason; a play, an answer or an
    // adjustment as typed. On one line: a typed line break would start a
    // line of its own that reads as another entry ("#3 judge ended…").
    let free = |k: &str| inline(&text(k), style);
    let typed = |default: &str| inline(e.input.as_deref().unwrap_or(default), style);
    let asked = crate::app::matches::proposal_in(e.context.as_ref())
        .is_some_and(|p| p.stage == crate::app::matches::Stage::Asked);
    let what = match e.kind {
        // A log tells what happened then: the answers follow as entries.
        EventKind::Play | EventKind::Adjust if asked => {
            format!("proposed {} (asked for consent)", typed(""))
        }
        EventKind::Note if asked && text("text").is_empty() => {
            format!("proposed {} (asked for consent)", typed(""))
        }
        EventKind::Setup if asked => "proposed the starting board (asked for consent)".into(),
        EventKind::Setup => format!(
            "set up the board{}{}",
            agreement(e, seats, style),
            replaced(e, style)
        ),
        EventKind::Play => format!("played {}", typed("")),
        EventKind::Answer => format!("answered{}: {}", answered_for(e, seats, style), typed("")),
        EventKind::Advance => format!("moved the match on ({})", typed("advance")),
        EventKind::Adjust => format!(
            "adjusted {} (reason: {}){}",
            typed(""),
            free("reason"),
            agreement(e, seats, style)
        ),
        EventKind::Note => format!("noted: {}", free("text")),
        EventKind::Undo => format!("undid #{}", e.undoes.unwrap_or(0)),
        EventKind::End => format!(
            "ended the match: {}{}{}",
            match text("winner") {
                w if w.is_empty() => "no winner".to_string(),
                w => format!("{} wins", inline(&w, style)),
            },
            agreement(e, seats, style),
            end_reason(e, style)
        ),
    };
    // The result the event's board decided, on its own line's end (a
    // compact page keeps one line per event).
    let what = match &e.result {
        Some(res) => format!("{what}; {}", inline(result(res).trim_end(), style)),
        None => what,
    };
    let _ = writeln!(
        out,
        "#{} {} {} ({})",
        e.seq,
        who(seats, &e.actor, style),
        what,
        time_text(e.at)
    );
    let Some(r) = e.ruling.as_ref().filter(|_| steps) else {
        return;
    };
    // An undo or a note carries the ruling of the play still waiting, not
    // one of its own: only its question is shown again.
    let own = !matches!(e.kind, EventKind::Undo | EventKind::Note);
    for s in r
        .get("steps")
        .filter(|_| own)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let get = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("");
        let _ = writeln!(out, "    [{}] {}", get("rule"), get("text"));
        assumed_lines(out, s);
    }
    illegal_lines(out, e, r);
    for d in r
        .get("diagnostics")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if d.get("severity").and_then(Value::as_str) == Some("info") && e.kind == EventKind::Advance
        {
            let _ = writeln!(
                out,
                "    note: {}",
                d.get("message").and_then(Value::as_str).unwrap_or("")
            );
        }
    }
    if let Some(q) = r
        .get("pending")
        .and_then(|p| p.get("question"))
        .and_then(Value::as_str)
    {
        let _ = writeln!(out, "    waiting: {q}");
    }
}

/// A log page with one line per event (no ruling steps): what a page
/// shows when its steps would not fit one message.
pub fn log_compact(r: &LogReply, style: Style) -> String {
    let mut out = log_head(r);
    for e in &r.entries {
        entry_lines(&mut out, e, &r.seats, style, false);
    }
    let _ = writeln!(
        out,
        "(one line per event: the rulings' steps did not fit one message; `/match export` has them in full)"
    );
    out
}

fn log_head(r: &LogReply) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} match #{}: {}, page {}/{}",
        r.game,
        r.match_id,
        crate::text::count(r.total as usize, "event"),
        r.page,
        r.pages
    );
    out
}

/// A log page.
pub fn log(r: &LogReply, style: Style) -> String {
    let mut out = log_head(r);
    for e in &r.entries {
        entry(&mut out, e, &r.seats, style);
    }
    out
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn time_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A first board withdrawn reads as a summary, not its whole JSON.
    #[test]
    fn the_whole_board_reverted_reads_as_a_summary() {
        let c = crate::engine::Change {
            path: WHOLE_BOARD.into(),
            before: serde_json::json!({ "game": "ashes", "players": [{ "name": "Coal" }, { "name": "Maeoni" }] }),
            after: Value::Null,
        };
        assert_eq!(
            change_line(&c),
            "board: the starting board (2 seats) → none"
        );
    }

    /// A list the board left out (empty) that an adjust or an undo gives
    /// items reads as an addition to the empty list, not "null → [x]".
    #[test]
    fn a_list_the_board_left_out_reads_as_the_empty_list() {
        let c = crate::engine::Change {
            path: "pending_triggers".into(),
            before: Value::Null,
            after: serde_json::json!(["Lancer"]),
        };
        assert_eq!(change_line(&c), "pending_triggers: [] → [\"Lancer\"]");
    }

    /// A field the board did not set that a play sets reads "(not set)",
    /// not "null" (a Legion unit's `activated`: "null → true").
    #[test]
    fn a_field_the_board_did_not_set_reads_as_not_set() {
        let c = crate::engine::Change {
            path: "units[0].activated".into(),
            before: Value::Null,
            after: Value::Bool(true),
        };
        assert_eq!(change_line(&c), "units[0].activated: (not set) → true");
    }

    /// A step's assumption and assumed choice keep their labels in the
    /// log, in either style: read bare, an assumed fact passed for a rule.
    #[test]
    fn a_logged_step_keeps_its_assumption_labelled() {
        let mut step = crate::engine::Step {
            rule: "magewinds:13.4.attack-action".into(),
            text: "Pyromancer attacks Stonewarden, a visible target".into(),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        };
        step.assume("the target is taken to be visible");
        step.assumed("Alice", "to add no weapons", "not stated on the board");
        let entry = LogEntry {
            seq: 3,
            kind: EventKind::Play,
            actor: "ana".into(),
            at: 0,
            input: Some("activate Pyromancer attack Stonewarden".into()),
            play: None,
            ruling: Some(serde_json::json!({ "legal": true, "steps": [step] })),
            undoes: None,
            context: None,
            state: None,
            result: None,
            names: Vec::new(),
        };
        let reply = LogReply {
            match_id: 1,
            game: "magewinds".into(),
            page: 1,
            pages: 1,
            total: 1,
            entries: vec![entry],
            seats: Vec::new(),
        };
        for style in [Style::Console, Style::Discord] {
            let text = log(&reply, style);
            assert!(
                text.contains(
                    "assumption (not in the indexed rules): the target is taken to be visible"
                ),
                "{text}"
            );
            assert!(
                text.contains("choice: Alice chooses to add no weapons (not stated on the board)"),
                "{text}"
            );
        }
    }

    #[test]
    fn times_read_as_utc() {
        assert_eq!(time_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time_text(1_795_000_000_000), "2026-11-18 11:06:40 UTC");
    }

    #[test]
    fn users_are_named_by_their_seat() {
        let seats = vec![Seat {
            seat: 0,
            user: "1234".into(),
            name: Some("Coal".into()),
        }];
        assert_eq!(who(&seats, "1234", Style::Console), "Coal (1234)");
        assert_eq!(who(&seats, "1234", Style::Discord), "Coal (<@1234>)");
        assert_eq!(who(&seats, "999", Style::Discord), "<@999>");
        assert_eq!(who(&seats, "ann", Style::Discord), "ann");
    }
}
