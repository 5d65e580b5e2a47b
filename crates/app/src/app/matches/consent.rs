//! Consent: what a player asks that touches another player's standing — a
//! play that states their choices (`agreed by`) or states facts the board
//! does not record that the engine relied on (its claims: a card makes the
//! action free), an adjust of their seat,
//! of a shared field or one that ends the game, a result claimed — is a
//! *proposal*. It waits, like a decision, on each affected player in turn
//! (Confirm or Reject; a moderator may answer for them), is recorded
//! either way, and expires to no change.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{
    Caller, EventReply, MatchError, MatchRecord, Matches, Outcome, PlayContext, TIMEOUT_ACTOR,
};
use crate::engine::{Adjustment, Decision, DecisionOption, GameEngine, GameResult, Touches};
use crate::store::{EventKind, EventRecord, NewEvent, Transition, now_ms};

/// The decision key a proposal is asked under.
pub const CONSENT_KEY: &str = "consent";

/// What a proposal would do once every affected player confirmed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proposed {
    /// The play recorded with the event, every stated choice as written.
    Play,
    /// One board field set.
    Adjust {
        field: String,
        value: String,
        reason: String,
    },
    /// The match ended with this result.
    End { result: GameResult },
    /// The board the event carries set up: a starting board sets every
    /// seat's standing. Its context keeps the board it replaces
    /// (`before`), which a rejection brings back.
    Setup,
}

/// Where a proposal stands on the event that carries it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Waiting on `asks[0]`.
    Asked,
    /// Refused (or expired): nothing changed.
    Rejected,
    /// Every affected player confirmed: the event carries its effect.
    Confirmed,
}

/// A proposal, as stored in the context of the events that carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    /// The proposing seat (0-based).
    pub by: usize,
    pub what: Proposed,
    /// What is proposed, in words.
    pub text: String,
    /// The seats still to confirm; the first is asked now.
    pub asks: Vec<usize>,
    #[serde(default)]
    pub confirmed: Vec<usize>,
    /// Of `confirmed`, the seats a moderator confirmed for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moderated: Vec<usize>,
    pub stage: Stage,
}

impl Proposal {
    /// The proposal an event carries, if any.
    pub fn of(e: &EventRecord) -> Option<Proposal> {
        proposal_in(e.context.as_ref())
    }

    /// The question the next affected player is asked. Its author is named
    /// by the board's name and by their user (`Coal (<@301>)` on Discord),
    /// so a board that names the seats otherwise, or with a look-alike,
    /// cannot make the question read as someone else's proposal.
    pub fn decision(&self, names: &[String], users: &[String]) -> Option<Decision> {
        let seat = *self.asks.first()?;
        let name = |s: usize| names.get(s).cloned().unwrap_or_else(|| seat_label(s));
        let by = match users.get(self.by) {
            Some(u) if Some(u) != names.get(self.by) => {
                format!("{} ({})", name(self.by), super::mention(u))
            }
            _ => name(self.by),
        };
        Some(Decision {
            key: CONSENT_KEY.into(),
            player: name(seat),
            seat,
            question: format!(
                "{}: {} proposes {}; it touches your seat or the game, so it needs your consent",
                name(seat),
                by,
                self.text
            ),
            rule: String::new(),
            path: String::new(),
            options: ["confirm", "reject"]
                .into_iter()
                .map(|label| DecisionOption {
                    label: label.into(),
                    patch: json!({}),
                })
                .collect(),
            default: Some(1),
            default_reason: Some("a proposal nobody confirms expires and changes nothing".into()),
            default_assumed: false,
        })
    }
}

/// The proposal in an event's context, if any.
pub fn proposal_in(context: Option<&Value>) -> Option<Proposal> {
    serde_json::from_value(context?.get("proposal")?.clone()).ok()
}

fn seat_label(seat: usize) -> String {
    format!("seat {}", seat + 1)
}

/// The seats (other than `asker`) whose consent a change needs: the
/// `owner` of a field that is not the asker's (every other seat for a
/// shared one), and every seat but the winner's when it decides the game.
pub fn affected(
    seats: usize,
    asker: usize,
    owner: Option<Option<usize>>,
    result: Option<Option<usize>>,
) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    match owner {
        Some(Some(o)) => out.push(o),
        Some(None) => out.extend(0..seats),
        None => {}
    }
    match result {
        Some(Some(w)) => out.extend((0..seats).filter(|s| *s != w)),
        Some(None) => out.extend(0..seats),
        None => {}
    }
    out.sort_unstable();
    out.dedup();
    out.retain(|s| *s != asker);
    out
}

/// `asks` without the seats out of the game on `board` (engine
/// `Status::out`): nobody waits on them.
pub fn waited_on(
    engine: &dyn GameEngine,
    board: Option<&Value>,
    mut asks: Vec<usize>,
) -> Vec<usize> {
    let out = board
        .and_then(|b| engine.status(b).ok())
        .map(|s| s.out)
        .unwrap_or_default();
    asks.retain(|s| !out.contains(s));
    asks
}

/// The proposal waiting on `top` with `user`'s seat first among those it
/// asks, when it asks that seat after another's: they may reject it now
/// (one rejection stops it), and their rejection is recorded as theirs.
pub(super) fn later_party(m: &MatchRecord, top: &EventRecord, user: &str) -> Option<Proposal> {
    let mut p = Proposal::of(top).filter(|p| p.stage == Stage::Asked)?;
    let seat = m.players.iter().position(|u| u == user)?;
    let i = p.asks.iter().position(|&s| s == seat).filter(|&i| i > 0)?;
    let s = p.asks.remove(i);
    p.asks.insert(0, s);
    Some(p)
}

/// The seat `result`'s winner names on `board` (its seat names, or the
/// match's `players`), if it names one.
pub fn winner_seat_on(
    engine: &dyn GameEngine,
    board: Option<&Value>,
    players: &[String],
    result: &GameResult,
) -> Option<usize> {
    let w = result.winner.as_deref()?;
    let names = board
        .and_then(|s| engine.players(s).ok())
        .unwrap_or_default();
    names
        .iter()
        .position(|n| n == w)
        .or_else(|| players.iter().position(|p| p == w))
}

impl Matches {
    /// The seat a result's winner names on the board, if it names one.
    pub(super) fn winner_seat(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        result: &GameResult,
    ) -> Option<usize> {
        winner_seat_on(engine, m.state.as_ref(), &m.players, result)
    }

    /// Records `event` (its state: the board as it is) as a proposal that
    /// waits on `proposal.asks[0]`.
    pub(super) async fn propose(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        mut event: NewEvent,
        proposal: Proposal,
    ) -> Result<EventReply, MatchError> {
        let names = self.names(m);
        let decision = proposal
            .decision(&names, &m.players)
            .ok_or_else(|| MatchError::usage("nobody is asked: the proposal needs no consent"))?;
        event.ruling = Some(json!({ "pending": decision }));
        event.deadline = Some(self.deadline());
        let mut context = match event.context.take() {
            Some(Value::Object(o)) => o,
            _ => serde_json::Map::new(),
        };
        context.insert("proposal".into(), json!(proposal));
        event.context = Some(Value::Object(context));
        let mut o = Outcome::new(event);
        o.note = Some(format!("proposed: {}", proposal.text));
        o.proposed = true;
        self.record(caller, m, o).await
    }

    /// The board's player names (seat order), or none.
    pub(super) fn names(&self, m: &MatchRecord) -> Vec<String> {
        match (self.engine_of(m), &m.state) {
            (Ok(e), Some(s)) => e.players(s).unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// When a question asked now expires (unix ms).
    pub(super) fn deadline(&self) -> i64 {
        now_ms() + i64::try_from(self.decision_timeout.as_millis()).unwrap_or(i64::MAX / 2)
    }

    /// An answer (`confirm` or not) to the proposal `top` waits on.
    pub(super) async fn answer_proposal(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        top: &EventRecord,
        mut p: Proposal,
        confirm: bool,
        actor: &str,
    ) -> Result<EventReply, MatchError> {
        let state = top.state.clone();
        let mut context = match &top.context {
            Some(Value::Object(o)) => super::answering_context(o),
            _ => serde_json::Map::new(),
        };
        let Some(&asked) = p.asks.first() else {
            return Err(MatchError::NoDecision);
        };
        // Whose consent this answer gives: the log says so when a
        // moderator or the timeout gives it ("judge answered for Ben").
        context.insert("answered_for".into(), json!(asked));
        if !confirm {
            p.stage = Stage::Rejected;
            context.insert("proposal".into(), json!(p));
            // A board set up and rejected: the board before it is back.
            let state = match p.what {
                Proposed::Setup => context.get("before").cloned().unwrap_or(Value::Null),
                _ => state,
            };
            let mut event = NewEvent::new(EventKind::Answer, actor, state);
            event.input = Some(if actor == TIMEOUT_ACTOR {
                format!("expired, nothing changed: {}", p.text)
            } else {
                format!("rejected: {}", p.text)
            });
            event.play = top.play.clone();
            event.context = Some(Value::Object(context));
            return self.record(caller, m, Outcome::new(event)).await;
        }
        p.asks.remove(0);
        p.confirmed.push(asked);
        if caller.moderator && m.players.get(asked) != Some(&caller.user) {
            p.moderated.push(asked);
        }
        if !p.asks.is_empty() {
            // Confirmed by one; the next affected player is asked.
            p.stage = Stage::Asked;
            context.insert("proposal".into(), json!(p));
            let mut event = NewEvent::new(EventKind::Answer, actor, state);
            event.input = Some(format!("confirmed: {}", p.text));
            event.play = top.play.clone();
            event.context = Some(Value::Object(context));
            let decision = p.decision(&self.names(m), &m.players);
            event.ruling = Some(json!({ "pending": decision }));
            event.deadline = Some(self.deadline());
            return self.record(caller, m, Outcome::new(event)).await;
        }
        p.stage = Stage::Confirmed;
        match p.what.clone() {
            Proposed::Play => {
                let mut pc = PlayContext::of(top);
                // The seats that confirmed it: their stated choices stand;
                // a seat `agreed by` did not name is still asked its own.
                // Its author and everyone who confirmed it may undo it.
                pc.agreed_by = p.confirmed.iter().copied().chain([p.by]).collect();
                pc.proposal = Some(p.clone());
                pc.answered_for = Some(asked);
                let play = top.play.clone().unwrap_or(Value::Null);
                let input = format!("confirmed: {}", p.text);
                self.judge_answer(caller, m, top, play, pc, input, actor)
                    .await
            }
            Proposed::Adjust {
                field,
                value,
                reason,
            } => {
                context.insert("proposal".into(), json!(p));
                context.insert("agreed_by".into(), json!([p.by]));
                self.apply_adjust(caller, m, &state, &field, &value, reason, context)
                    .await
            }
            Proposed::Setup => {
                // The board stands, as its author's (whose to replace).
                context.insert("proposal".into(), json!(p));
                let author = m.players.get(p.by).map_or(actor, String::as_str);
                let mut event = NewEvent::new(EventKind::Setup, author, state);
                event.input = Some(format!("confirmed: {}", p.text));
                event.context = Some(Value::Object(context));
                self.record(caller, m, Outcome::new(event)).await
            }
            Proposed::End { mut result } => {
                let by = EndedBy::Agreed(agreed_names(&p, &self.names(m)));
                result.reason = end_reason(&result.reason, &by);
                context.insert("proposal".into(), json!(p));
                context.insert("reason".into(), json!(result.reason));
                context.insert("winner".into(), json!(result.winner));
                context.insert("rule".into(), json!(result.rule));
                let mut event = NewEvent::new(EventKind::End, actor, state);
                event.input = Some(format!("confirmed: {}", p.text));
                event.transition = Transition::End(serde_json::to_value(&result).ok());
                event.context = Some(Value::Object(context));
                self.record(caller, m, Outcome::new(event)).await
            }
        }
    }
}

/// The reason a bare `end` states, as its proposal and the log say it:
/// the words are the replay's too (`end_text`). It read "(the match was
/// ended)" as if that were the reason (found by an outside tester).
pub const NO_REASON: &str = "no reason given";

/// An end proposal's words (its `text`: the question asked, the log's
/// line), written from the result it proposes; an import checks a
/// proposal's `text` against them (`integrity::proposal_words`).
pub fn end_text(result: &GameResult) -> String {
    format!("to end the match: {} ({})", who_wins(result), result.reason)
}

/// How an `end` with a result came to be recorded, as its reason says
/// after the words given: the live command writes it ([`end_reason`]) and
/// an import checks a stored reason against it
/// (`integrity::end_reason_agrees`): a moderator's result edited into a
/// player's concession kept "(by a moderator)" and imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndedBy {
    /// A moderator who holds no seat, at once.
    Moderator,
    /// A seat (by its board name) naming another seat the winner, at once.
    Conceded(String),
    /// A seat (by its board name) with no other player left to ask.
    Alone(String),
    /// A proposal confirmed by these (board names; "a moderator for
    /// Maeoni" where a moderator gave a seat's consent).
    Agreed(Vec<String>),
}

/// The words an end's reason carries after those given, for how it was
/// made ("time called" → "time called (by a moderator)").
pub fn end_reason(given: &str, by: &EndedBy) -> String {
    let how = match by {
        EndedBy::Moderator => "by a moderator".to_string(),
        EndedBy::Conceded(name) => format!("conceded by {name}"),
        EndedBy::Alone(name) => format!("by {name}, with no other player in the game to ask"),
        EndedBy::Agreed(names) => format!("agreed by {}", names.join(", ")),
    };
    format!("{given} ({how})")
}

/// Who confirmed proposal `p`, as an end's reason names them: each seat
/// by its board name (`names`, seat order), "a moderator for" it where a
/// moderator gave its consent.
pub fn agreed_names(p: &Proposal, names: &[String]) -> Vec<String> {
    p.confirmed
        .iter()
        .map(|s| {
            let name = names.get(*s).cloned().unwrap_or_else(|| seat_label(*s));
            match p.moderated.contains(s) {
                true => format!("a moderator for {name}"),
                false => name,
            }
        })
        .collect()
}

/// Who a result names the winner, in words ("Coal wins", "no winner").
fn who_wins(result: &GameResult) -> String {
    result
        .winner
        .as_deref()
        .map_or("no winner".to_string(), |w| format!("{w} wins"))
}

/// An adjustment proposal's words, written from the adjustment `a` the
/// proposed field and value make on `before` (the board in effect; its
/// `result`: the one the adjusted board then decides), proposed by `seat`
/// for `reason`; an import checks a proposal's `text` against them
/// (`integrity::proposal_words`). A rename says "rename seat N" and why
/// it asks, without the seat's record (its JSON showed twice, with "it
/// may raise their own standing": found by an outside tester); a field
/// the board left out reads "(not set)" (it read "from null to 1").
pub fn adjust_text(
    engine: &dyn GameEngine,
    before: &Value,
    a: &Adjustment,
    seat: usize,
    reason: &str,
    result: Option<&GameResult>,
) -> String {
    let renamed = renamed(engine, before, a);
    let ends = match (result, renamed.is_empty()) {
        (Some(r), _) => format!("; it ends the game ({})", who_wins(r)),
        (None, true) => adjust_why(a, seat).to_string(),
        (None, false) => RENAME_WHY.to_string(),
    };
    let what = match renamed.first() {
        Some((i, _, _)) => format!("rename seat {} ({})", i + 1, a.label),
        None => format!("set {}", a.label),
    };
    let (from, to) = a.read();
    format!(
        "to {what} from {from} to {to}{} (reason: {reason}){ends}",
        carried(a, &renamed)
    )
}

/// Why a seat's rename asks the other players (it read "it may raise
/// their own standing", which a name does not).
const RENAME_WHY: &str = "; a seat's name is every player's business: it names the seat in every prompt and in the log, where a look-alike of another's would read as theirs";

/// The seats whose name the adjustment `a` of `before` changes (seat,
/// the name before, the name after); none when either board's players
/// cannot be read.
pub fn renamed(
    engine: &dyn GameEngine,
    before: &Value,
    a: &Adjustment,
) -> Vec<(usize, String, String)> {
    let (Ok(was), Ok(now)) = (engine.players(before), engine.players(&a.state)) else {
        return Vec::new();
    };
    was.iter()
        .zip(&now)
        .enumerate()
        .filter(|(_, (b, a))| b != a)
        .map(|(i, (b, a))| (i, b.clone(), a.clone()))
        .collect()
}

/// The other fields an adjust carries with it (a rename's `turn`, a
/// Magewinds `turn` following `first_to_pass`), said in its proposal:
/// the confirming player sees every field that changes.
/// A seat renamed is its name, not its whole record: the board's changes
/// name a seat by its name, so a rename read as the seat's whole JSON
/// removed and added (found by an outside tester).
fn carried(a: &Adjustment, renamed: &[(usize, String, String)]) -> String {
    let seat = |path: &str| {
        renamed.iter().any(|(_, was, now)| {
            within_field(path, &format!("players[{was}]"))
                || within_field(path, &format!("players[{now}]"))
        })
    };
    let others: Vec<String> = a
        .changes
        .iter()
        .filter(|c| !within_field(&c.path, &a.field) && !within_field(&c.path, &a.label))
        .filter(|c| !seat(&c.path))
        .map(|c| {
            let (before, after) = c.read();
            format!("{} from {before} to {after}", c.path)
        })
        .collect();
    match others.is_empty() {
        true => String::new(),
        false => format!(", and with it {}", others.join(", ")),
    }
}

/// Whether a change's path (`players["Ana"].victory_points`, names
/// quoted) is the adjusted field (`players[0].victory_points`, or its label
/// `players[Ana].victory_points`) or inside it: a proposal read "to set
/// players[Ana].victory_points from 0 to 10, and with it
/// players["Ana"].victory_points from 0 to 10", the one change twice.
fn within_field(path: &str, field: &str) -> bool {
    let path = path.replace("[\"", "[").replace("\"]", "]");
    path.strip_prefix(field)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Why a player's adjust asks the others, in the proposal's words (after
/// the change itself); nothing to add for another seat's field.
fn adjust_why(a: &Adjustment, seat: usize) -> &'static str {
    match a.touches {
        Some(Touches::Others) => {
            "; it changes what the other players may do, which is their business"
        }
        Some(Touches::Ranking) => {
            "; with more than two players in the game, a score lowered decides who leads among the others, which is their business"
        }
        None if a.standing && a.owner == Some(seat) => {
            "; it may raise their own standing, which is every player's business"
        }
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consent_is_asked_of_those_a_change_touches() {
        // Another seat's field: that seat.
        assert_eq!(affected(2, 0, Some(Some(1)), None), vec![1]);
        // One's own field that decides nothing: nobody.
        assert!(affected(2, 0, Some(Some(0)), None).is_empty());
        // A shared field: everyone else.
        assert_eq!(affected(3, 1, Some(None), None), vec![0, 2]);
        // A result the asker wins: every other seat.
        assert_eq!(affected(3, 0, None, Some(Some(0))), vec![1, 2]);
        // A concession in two seats: nobody else loses.
        assert!(affected(2, 0, None, Some(Some(1))).is_empty());
        // No winner: everyone else.
        assert_eq!(affected(2, 1, None, Some(None)), vec![0]);
    }
}
