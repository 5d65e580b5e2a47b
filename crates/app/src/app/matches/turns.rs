//! The events that move a match: plays (which may wait on another player's
//! decision), answers, phase advances, adjustments, notes, undo and end —
//! each with who may make it, and each written at most once per interaction.

use serde_json::{Value, json};

use super::consent::EndedBy;
use super::{
    Caller, EventReply, LogEntry, MatchError, MatchRecord, Matches, Outcome, PlayContext,
    TIMEOUT_ACTOR, check_text, seat_of, stored_ruling, with_play,
};
use crate::engine::{
    self, BoardError, Decision, GameEngine, GameResult, OpenBoard, Ruling, Status, document,
    kit::names, merge_patch,
};
use crate::store::{EventHead, EventKind, EventRecord, MatchStatus, NewEvent, Transition, now_ms};

impl Matches {
    /// The first result of a replayed interaction, if this one already
    /// wrote (a transport checks it before its own checks of the match as
    /// it is now, which the first run changed).
    pub async fn replayed(&self, caller: &Caller) -> Result<Option<EventReply>, MatchError> {
        let Some(id) = &caller.interaction else {
            return Ok(None);
        };
        let Some((match_id, e)) = self.store.event_by_interaction(id).await? else {
            return Ok(None);
        };
        let m = self
            .store
            .match_by_id(match_id)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let mut reply = self.reply_to(&m, &e, true).await?;
        reply.replayed = true;
        Ok(Some(reply))
    }

    /// The reply for a written event, read back as the match is now.
    async fn reply_to(
        &self,
        m: &MatchRecord,
        e: &EventRecord,
        replayed: bool,
    ) -> Result<EventReply, MatchError> {
        let now = self
            .store
            .match_by_id(m.id)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let view = self.view(&now).await?;
        let notify = view.turn_notices();
        let ruling = e
            .ruling
            .clone()
            .and_then(|r| serde_json::from_value::<Ruling>(r).ok())
            .map(|mut r| {
                r.state = e.state.clone();
                r
            });
        let adjustment = e
            .context
            .as_ref()
            .and_then(|c| c.get("adjustment"))
            .and_then(|a| serde_json::from_value(a.clone()).ok());
        Ok(EventReply {
            match_id: m.id,
            event: e.kind,
            applied: true,
            seq: Some(e.seq),
            version: now.version,
            play: e.play.clone(),
            changes: ruling
                .as_ref()
                .map(|r| r.changes.clone())
                .unwrap_or_default(),
            ruling,
            adjustment,
            note: e
                .context
                .as_ref()
                .and_then(|c| c.get("text"))
                .and_then(Value::as_str)
                .map(str::to_string),
            undone: None,
            board: e.state.clone(),
            pending: view.pending.filter(|p| p.version == e.seq),
            notify,
            next: view.next,
            result: view.result.filter(|_| now.version == e.seq),
            pictures: now.pictures,
            replayed,
            proposed: e.kind != EventKind::Answer
                && super::consent::proposal_in(e.context.as_ref()).is_some_and(|p| {
                    p.stage == super::consent::Stage::Asked && p.confirmed.is_empty()
                }),
            seats: view.seats,
        })
    }

    /// Writes an outcome and builds its reply.
    pub(super) async fn record(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        mut o: Outcome,
    ) -> Result<EventReply, MatchError> {
        o.event.interaction = caller.interaction.clone();
        let seq = match self.append(caller, m, &o.event).await {
            Ok(seq) => seq,
            Err(e) => {
                // A replay racing its first copy: answer with the first result.
                if let Some(r) = self.replayed(caller).await? {
                    return Ok(r);
                }
                return Err(e);
            }
        };
        let now = self
            .store
            .match_by_id(m.id)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let view = self.view(&now).await?;
        let notify = view.turn_notices();
        Ok(EventReply {
            match_id: m.id,
            event: o.event.kind,
            applied: true,
            seq: Some(seq),
            version: now.version,
            play: o.play,
            ruling: o.ruling,
            adjustment: o.adjustment,
            note: o.note,
            undone: o.undone,
            changes: o.changes,
            board: o.event.state,
            pending: view.pending,
            notify,
            next: view.next,
            result: view
                .result
                .filter(|_| matches!(o.event.transition, Transition::End(_))),
            pictures: now.pictures,
            replayed: false,
            proposed: o.proposed,
            seats: view.seats,
        })
    }

    /// A reply for a request that wrote nothing (an illegal play, a refused advance).
    async fn not_recorded(
        &self,
        m: &MatchRecord,
        kind: EventKind,
        play: Option<Value>,
        ruling: Ruling,
    ) -> Result<EventReply, MatchError> {
        let view = self.view(m).await?;
        let notify = view.turn_notices();
        Ok(EventReply {
            match_id: m.id,
            event: kind,
            applied: false,
            seq: None,
            version: m.version,
            play,
            changes: Vec::new(),
            board: m.state.clone().unwrap_or(Value::Null),
            ruling: Some(ruling),
            adjustment: None,
            note: None,
            undone: None,
            pending: view.pending,
            notify,
            next: view.next,
            result: None,
            pictures: m.pictures,
            replayed: false,
            proposed: false,
            seats: view.seats,
        })
    }

    /// The active match, its board, and no decision waiting.
    async fn ready(&self, caller: &Caller) -> Result<(MatchRecord, Value), MatchError> {
        self.settle(&caller.channel).await?;
        let m = self.active(&caller.channel).await?;
        let state = m
            .state
            .clone()
            .filter(|s| !s.is_null())
            .ok_or(MatchError::NoBoard)?;
        if let Some(top) = self.top(&m).await?
            && let Some(p) = super::pending_of(&m, &top)
        {
            return Err(self.waiting(&m, &top, p).await);
        }
        Ok((m, state))
    }

    /// The event a legal ruling writes: a play waiting on a decision leaves
    /// the board as it is; a result ends the match.
    fn ruled_event(
        &self,
        kind: EventKind,
        actor: &str,
        ruling: &Ruling,
        engine: &dyn GameEngine,
    ) -> NewEvent {
        let mut event = NewEvent::new(kind, actor, ruling.state.clone());
        event.ruling = Some(stored_ruling(ruling));
        if let Some(d) = &ruling.pending {
            // A decision the timeout's own answer raised has no deadline:
            // nobody answered in a channel, so nobody pinged its player, and
            // its default must not apply unseen too (found by an outside
            // tester: a guard and then a counter both timed out unpinged).
            // Its player, or a moderator, answers it when they come back.
            let unseen = actor == TIMEOUT_ACTOR;
            event.deadline = d.default.filter(|_| !unseen).map(|_| {
                now_ms() + i64::try_from(self.decision_timeout.as_millis()).unwrap_or(i64::MAX / 2)
            });
        } else if let Some(result) = ruling_status(ruling, engine).and_then(|s| s.result) {
            event.transition = Transition::End(serde_json::to_value(result).ok());
        }
        event
    }

    /// `play`: a line of notation or a YAML `play:` block, judged against
    /// the current board. Each player plays for their own seat (the engine
    /// says who a play is by). A legal play is recorded; one that reaches a
    /// choice of another player is recorded as waiting on their decision;
    /// an illegal one changes nothing. `expected_version` (from a board the
    /// user saw) makes a play on an older board fail with `BoardChanged`.
    pub async fn play(
        &self,
        caller: &Caller,
        text: &str,
        expected_version: Option<i64>,
    ) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        let (m, state) = self.ready(caller).await?;
        let caller = &caller.in_match(&m);
        // A moderator who holds no seat may enter a seat's play, the whole
        // exchange as written (a judge transcribing a table's game).
        let seat = seat_of(&m, &caller.user);
        if seat.is_none() && !caller.moderator {
            return Err(MatchError::forbidden(format!(
                "only the match's players (or a moderator) may play ({}); anyone may look at the board",
                m.players
                    .iter()
                    .map(|p| super::mention(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if let Some(v) = expected_version
            && v != m.version
        {
            return Err(MatchError::BoardChanged {
                version: m.version,
                board: Some(state),
            });
        }
        // As typed, the play goes on the record (a YAML comment included):
        // it may name the match's players ("agreed by @Maeoni"), nobody else.
        super::unsigned("play", &super::seats_unmentioned(text, &m.players))?;
        // A bidi override would turn the words around where they are shown.
        if let Some(c) = super::hidden_char(text) {
            return Err(MatchError::usage(format!(
                "a play may not hold the control character U+{:04X} (a direction override or control): it would show other words than it says",
                c as u32
            )));
        }
        let engine = self.engine_of(&m)?;
        let (text_owned, players) = (text.to_string(), m.players.clone());
        let (state, ruled) = self
            .cpu(move || {
                let ruled = rule_play(engine, &state, &text_owned, &players, seat);
                (state, ruled)
            })
            .await?;
        let (play, context, mut ruling) = ruled?;
        // An illegal play changes nothing, except a record the rules attach
        // to the attempt itself (Grand Archive 1.4 marks a must-attack
        // obligation attempted): such an attempt is logged with its ruling.
        if !ruling.legal && (ruling.changes.is_empty() || ruling.state == state) {
            ruling.changes.clear();
            return self
                .not_recorded(&m, EventKind::Play, Some(play), ruling)
                .await;
        }
        if seat.is_some() && !caller.moderator && m.players.len() > 1 {
            turn_taken_unagreed(&engine.status(&state)?, ruling.status.as_ref())?;
        }
        if let Some(seat) = seat {
            // `agreed by X` states X's choices: X is asked to confirm them.
            // A fact the play states that the board does not record (a
            // card makes the action free) is the author's word: every other
            // player still in the game is asked to confirm it.
            let claims = match ruling.legal {
                true => ruling.claims.clone(),
                false => Vec::new(),
            };
            let (asks, doubted) = play_asks(
                engine,
                m.state.as_ref(),
                m.players.len(),
                seat,
                &context.agreed_by,
                !claims.is_empty(),
            );
            if !asks.is_empty() {
                let claims = if doubted { &claims[..] } else { &[][..] };
                let asked = Asked {
                    by: seat,
                    asks,
                    claims,
                };
                return self
                    .propose_play(caller, &m, text, play, context, asked)
                    .await;
            }
        }
        let mut event = self.ruled_event(EventKind::Play, &caller.user, &ruling, engine);
        event.input = Some(text.trim().to_string());
        event.play = Some(play.clone());
        event.context = serde_json::to_value(&context).ok();
        let mut o = Outcome::new(event);
        o.changes = ruling.changes.clone();
        o.play = Some(play);
        o.ruling = Some(ruling);
        self.record(caller, &m, o).await
    }

    /// A play whose `agreed by` players are asked to confirm the choices
    /// it states for them, and whose claims (facts it states that the
    /// board does not record) every other player is asked to confirm; the
    /// board stays as it is until they do.
    async fn propose_play(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        text: &str,
        play: Value,
        context: PlayContext,
        asked: Asked<'_>,
    ) -> Result<EventReply, MatchError> {
        let (line, _) = split_agreed(text.trim());
        let proposal = super::consent::Proposal {
            by: asked.by,
            what: super::consent::Proposed::Play,
            // On one line: the question shows in the log, the reply and
            // the board, where a line break would start a forged entry.
            text: proposed_play_text(line, !context.agreed_by.is_empty(), asked.claims),
            asks: asked.asks,
            confirmed: Vec::new(),
            moderated: Vec::new(),
            stage: super::consent::Stage::Asked,
        };
        let mut event = NewEvent::new(
            EventKind::Play,
            &caller.user,
            m.state.clone().unwrap_or(Value::Null),
        );
        event.input = Some(text.trim().to_string());
        event.play = Some(play.clone());
        event.context = serde_json::to_value(&context).ok();
        let mut reply = self.propose(caller, m, event, proposal).await?;
        reply.play = Some(play);
        Ok(reply)
    }

    /// Whether every event after `version` is a note: a note changes
    /// neither the board nor the decision waiting, so the decision's
    /// buttons (which carry the version they were asked at) still answer it.
    async fn only_notes_since(&self, m: &MatchRecord, version: i64) -> Result<bool, MatchError> {
        if version <= 0 || version > m.version {
            return Ok(false);
        }
        let heads = self.store.event_heads(m.id).await?;
        Ok(heads
            .iter()
            .filter(|h| h.seq > version)
            .all(|h| h.kind == EventKind::Note))
    }

    /// The event that asked proposal `p` (the event in effect under the
    /// notes made since: `top` may be one, or an undo of one), when its
    /// author proposed it after
    /// withdrawing another proposal of theirs with nothing answered
    /// between: below it in the log, past notes (anyone's) and the
    /// author's undos of their own other events (each with the event it
    /// took back), the first event is an undo of a proposal of the same
    /// seat that still waited (not yet answered by everyone it asked: a
    /// proposal confirmed or rejected was answered) and proposed other
    /// words (the same proposal made again is no swap). A typed confirm
    /// without a version may have been meant for the one withdrawn (an
    /// outside tester's finding: the proposer controls the timing).
    async fn swapped(
        &self,
        m: &MatchRecord,
        top: &EventRecord,
        p: &super::consent::Proposal,
    ) -> Result<Option<i64>, MatchError> {
        use super::consent::{Proposal, Stage};
        let heads = self.store.event_heads(m.id).await?;
        // The event in effect under the notes since (`top` may be an
        // undo of a note, which brings the question back).
        let mut asker = top.seq;
        for seq in effective_stack(&heads).into_iter().rev() {
            asker = seq;
            match self.store.event(m.id, seq).await? {
                Some(e) if plain_note(&e) => continue,
                _ => break,
            }
        }
        let author = m.players.get(p.by);
        let mut withdrawn = Vec::new();
        for (i, h) in heads.iter().enumerate().rev() {
            if h.seq >= asker || withdrawn.contains(&h.seq) {
                continue;
            }
            let Some(e) = self.store.event(m.id, h.seq).await? else {
                break;
            };
            if plain_note(&e) {
                continue;
            }
            let (EventKind::Undo, Some(undoes)) = (e.kind, e.undoes) else {
                break;
            };
            let Some(undone) = self.store.event(m.id, undoes).await? else {
                break;
            };
            if Proposal::of(&undone).is_some_and(|q| q.by == p.by) {
                // What waited when it was undone (a note over it carries it).
                let Some(&then) = effective_stack(&heads[..i]).last() else {
                    break;
                };
                let waited = self.store.event(m.id, then).await?;
                let other = waited
                    .as_ref()
                    .and_then(Proposal::of)
                    .filter(|q| q.by == p.by && q.stage == Stage::Asked && !q.asks.is_empty())
                    .is_some_and(|q| q.what != p.what || q.text != p.text);
                return Ok(other.then_some(asker));
            }
            if author != Some(&e.actor) {
                break;
            }
            withdrawn.push(undoes);
        }
        Ok(None)
    }

    /// `answer`: the deciding player's answer (an option's number, 1-based,
    /// or its label) to the decision the last play waits on. `version`
    /// (quoted by the question's buttons) refuses an answer to a question
    /// that has since been answered or undone (notes since do not count).
    pub async fn answer(
        &self,
        caller: &Caller,
        choice: &str,
        version: Option<i64>,
    ) -> Result<EventReply, MatchError> {
        self.answer_in(caller, choice, version, None).await
    }

    /// [`Matches::answer`] of an answer picked from the list of match
    /// `match_id`: picked in another match (ended, and a new one started in
    /// the channel), its version says nothing here. A redelivered
    /// interaction answers as its first run did, also when that run ended
    /// the match.
    pub async fn answer_in(
        &self,
        caller: &Caller,
        choice: &str,
        version: Option<i64>,
        match_id: Option<i64>,
    ) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        self.settle(&caller.channel).await?;
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        let top = self.top(&m).await?.ok_or(MatchError::NoDecision)?;
        let pending = super::pending_of(&m, &top).ok_or(MatchError::NoDecision)?;
        if match_id.is_some_and(|id| id != m.id) {
            return Err(pending.stale());
        }
        if let Some(v) = version.filter(|&v| v != m.version)
            && !self.only_notes_since(&m, v).await?
        {
            return Err(pending.stale());
        }
        if pending.user != caller.user && !caller.moderator {
            // Any party a proposal still asks may reject it at once: one
            // rejection stops it, and the next party was refused until the
            // first answered (found by an outside tester).
            let option = pick_option(&pending.decision, choice).ok();
            if let Some(p) = super::consent::later_party(&m, &top, &caller.user) {
                if option.is_some_and(|o| o != 0) {
                    return self
                        .answer_proposal(caller, &m, &top, p, false, caller.user.as_str())
                        .await;
                }
                return Err(MatchError::forbidden(format!(
                    "this proposal asks {} ({}) first, then you: you may `reject` it now (one rejection stops it); to confirm it, wait until {} has",
                    pending.decision.player,
                    super::mention(&pending.user),
                    pending.decision.player,
                )));
            }
            return Err(MatchError::forbidden(format!(
                "this decision is {}'s ({}) to make; only they or a moderator who holds no seat in the match may answer it",
                pending.decision.player,
                super::mention(&pending.user)
            )));
        }
        let option = pick_option(&pending.decision, choice)?;
        // A typed confirm (no version) of a proposal made after its author
        // withdrew another: it names the one waiting and how to confirm
        // it. A rejection is taken as typed: it changes nothing.
        if let Some(p) = super::consent::Proposal::of(&top)
            .filter(|p| p.stage == super::consent::Stage::Asked && !p.asks.is_empty())
            .filter(|_| version.is_none() && option == 0)
            && let Some(seq) = self.swapped(&m, &top, &p).await?
        {
            return Err(swapped_refused(&m, &p, seq, pending.version));
        }
        self.apply_answer(
            caller,
            &m,
            &top,
            &pending.decision,
            option,
            caller.user.as_str(),
        )
        .await
    }

    async fn apply_answer(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        top: &EventRecord,
        d: &Decision,
        option: usize,
        actor: &str,
    ) -> Result<EventReply, MatchError> {
        // A proposal still waiting; once confirmed, the play's own
        // decisions are answered like any other.
        if let Some(p) = super::consent::Proposal::of(top)
            .filter(|p| p.stage == super::consent::Stage::Asked && !p.asks.is_empty())
        {
            return self
                .answer_proposal(caller, m, top, p, option == 0, actor)
                .await;
        }
        let mut play = top.play.clone().unwrap_or(Value::Null);
        let chosen = d.options.get(option).ok_or(MatchError::NoDecision)?;
        merge_patch(&mut play, &chosen.patch);
        let mut context = PlayContext::of(top);
        context.answered.push((d.key.clone(), d.seat));
        context.answered_for = Some(d.seat);
        let input = if actor == TIMEOUT_ACTOR && d.default_assumed {
            format!(
                "{} (timed out: assumed, the rules give no default)",
                chosen.label
            )
        } else if actor == TIMEOUT_ACTOR {
            format!("{} (timed out: the rules' default)", chosen.label)
        } else {
            chosen.label.clone()
        };
        self.judge_answer(caller, m, top, play, context, input, actor)
            .await
    }

    /// Judges the play `top` waits with, as answered, and records it.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn judge_answer(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        top: &EventRecord,
        play: Value,
        context: PlayContext,
        input: String,
        actor: &str,
    ) -> Result<EventReply, MatchError> {
        let engine = self.engine_of(m)?;
        let (state, asking) = (top.state.clone(), context.asking());
        let (play, context, mut ruling) = self
            .cpu(move || {
                let ruling = engine.judge(with_play(&state, &play), None, &asking);
                ruling.and_then(|mut r| {
                    r.state = without_play(r.state);
                    only_answers(engine, &state, play, context, r)
                })
            })
            .await??;
        if !ruling.legal && (ruling.changes.is_empty() || ruling.state == top.state) {
            // The answer made the play illegal: it ends here, on the record,
            // and the board stays as it was (but for a record the rules
            // attach to the attempt itself, kept as `play` keeps it).
            ruling.state = top.state.clone();
            ruling.changes.clear();
        }
        let asks = unconsented(engine, &top.state, m.players.len(), &context, &ruling);
        if let Some(by) = context.author.filter(|_| !asks.is_empty()) {
            // A claim the play reached only after this answer (which unit a
            // Legion play is for): the others are asked now, the answer
            // kept with the play.
            let line = match top.kind {
                EventKind::Play => top.input.clone().unwrap_or_default(),
                _ => serde_json::to_string(&play).unwrap_or_default(),
            };
            let (line, _) = split_agreed(line.trim());
            let proposal = super::consent::Proposal {
                by,
                what: super::consent::Proposed::Play,
                text: proposed_play_text(line, false, &ruling.claims),
                asks,
                confirmed: Vec::new(),
                moderated: Vec::new(),
                stage: super::consent::Stage::Asked,
            };
            let mut event = NewEvent::new(EventKind::Answer, actor, top.state.clone());
            event.input = Some(input);
            event.play = Some(play.clone());
            event.context = serde_json::to_value(&context).ok();
            let mut reply = self.propose(caller, m, event, proposal).await?;
            reply.play = Some(play);
            return Ok(reply);
        }
        let mut event = self.ruled_event(EventKind::Answer, actor, &ruling, engine);
        event.input = Some(input);
        event.play = Some(play.clone());
        event.context = serde_json::to_value(&context).ok();
        let mut o = Outcome::new(event);
        o.changes = ruling.changes.clone();
        o.play = Some(play);
        o.ruling = Some(ruling);
        self.record(caller, m, o).await
    }

    /// Applies the rules' default to a decision past its deadline, if the
    /// channel's match waits on one. Called before every request and by the
    /// servers' sweep; replicas race safely (the version check).
    pub async fn settle(&self, channel: &str) -> Result<(), MatchError> {
        let Some(m) = self.store.active_match(channel).await? else {
            return Ok(());
        };
        let Some(top) = self.top(&m).await? else {
            return Ok(());
        };
        let (Some(deadline), Some(p)) = (top.deadline, super::pending_of(&m, &top)) else {
            return Ok(());
        };
        let Some(default) = p.decision.default else {
            return Ok(());
        };
        if deadline > now_ms() {
            return Ok(());
        }
        let caller = super::Caller::new(channel, TIMEOUT_ACTOR, true);
        match self
            .apply_answer(&caller, &m, &top, &p.decision, default, TIMEOUT_ACTOR)
            .await
        {
            Ok(_) | Err(MatchError::BoardChanged { .. }) | Err(MatchError::Ended { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Settles every decision past its deadline (the servers' periodic sweep).
    pub async fn settle_all(&self) -> Result<usize, MatchError> {
        let due = self.store.expired_decisions(now_ms()).await?;
        for (_, channel) in &due {
            self.settle(channel).await?;
        }
        Ok(due.len())
    }

    /// `advance [to]`: the next phase or round as the game's turn structure
    /// says (or the phase `to`), recorded as outside the indexed rules where
    /// it is. By the player whose turn it is (any player when the engine
    /// names nobody), or a moderator.
    pub async fn advance(
        &self,
        caller: &Caller,
        to: Option<&str>,
    ) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        let (m, state) = self.ready(caller).await?;
        let caller = &caller.in_match(&m);
        let engine = self.engine_of(&m)?;
        let seat = seat_of(&m, &caller.user);
        let whose = engine.status(&state)?.turn_seat;
        let allowed = caller.moderator || (seat.is_some() && (whose.is_none() || whose == seat));
        if !allowed && seat.is_none() {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may move the match on",
            ));
        }
        if !allowed {
            let names = engine.players(&state)?;
            let name = whose
                .and_then(|s| names.get(s))
                .cloned()
                .unwrap_or_default();
            let user = whose
                .and_then(|s| m.players.get(s))
                .map_or("", String::as_str);
            return Err(MatchError::forbidden(format!(
                "it is {name}'s turn ({}): only they or a moderator may move the match on",
                super::mention(user)
            )));
        }
        let (board, target) = (state.clone(), to.map(str::to_string));
        let (mut ruling, unagreed) = self
            .cpu(move || engine.advance_unagreed(&board, target.as_deref()))
            .await??;
        if !ruling.legal {
            return self
                .not_recorded(&m, EventKind::Advance, None, ruling)
                .await;
        }
        if !caller.moderator {
            unagreed_refused(&unagreed)?;
            if let Some(seat) = seat {
                self.advance_deciding(&m, engine, &state, &ruling, seat)?;
            }
        }
        ruling.state = without_play(ruling.state);
        let mut event = self.ruled_event(EventKind::Advance, &caller.user, &ruling, engine);
        event.input = Some(to.map_or_else(|| "advance".to_string(), |t| format!("advance to {t}")));
        event.context = Some(json!({ "to": to }));
        let mut o = Outcome::new(event);
        o.changes = ruling.changes.clone();
        o.ruling = Some(ruling);
        self.record(caller, &m, o).await
    }

    /// Refuses a player's advance that would decide the match for anyone
    /// but another player alone (Legion: past the last round, the most
    /// points win): the other players' consent is wanted, as for a win
    /// claimed with `end`, and the refusal names that proposal. Before,
    /// such an advance ended the match at once with its author's own win,
    /// where `end --winner self` asks the others (found by an outside
    /// tester). One that hands the win to the other player of two is a
    /// concession, at once.
    fn advance_deciding(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        board: &Value,
        ruling: &Ruling,
        seat: usize,
    ) -> Result<(), MatchError> {
        let Some(result) = ruling_status(ruling, engine).and_then(|s| s.result) else {
            return Ok(());
        };
        let winner = self.winner_seat(m, engine, &result);
        let asks = super::consent::affected(m.players.len(), seat, None, Some(winner));
        if super::consent::waited_on(engine, Some(board), asks).is_empty() {
            return Ok(());
        }
        let (end, who) = match &result.winner {
            Some(w) => (format!("end --winner {w}"), format!("{w} wins")),
            None => ("end".to_string(), "no winner".to_string()),
        };
        Err(MatchError::forbidden(format!(
            "advancing now would end the match ({who}: {}), which the other players have not agreed to. \
             Propose the result instead: `{end} --reason …` (the other players confirm it), or ask a moderator to advance",
            result.reason
        )))
    }

    /// `adjust field value reason`: sets one board field, on the record. A
    /// player may change only their own seat's fields; a moderator any.
    pub async fn adjust(
        &self,
        caller: &Caller,
        field: &str,
        value: &str,
        reason: &str,
    ) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        let (m, state) = self.ready(caller).await?;
        let caller = &caller.in_match(&m);
        let seat = seat_of(&m, &caller.user);
        if seat.is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may adjust the board",
            ));
        }
        if reason.trim().is_empty() {
            return Err(MatchError::usage(
                "say why the board is adjusted (`reason:`): it goes on the record",
            ));
        }
        let reason = check_text("reason", reason)?;
        let engine = self.engine_of(&m)?;
        let a = self.adjustment(engine, &state, field, value).await?;
        // The texts set are checked, not the value as typed: an object
        // holding a card numbered at its end (`{name: "Iron Worker #2"}`)
        // read as a whole "holds `#` and a number followed by more words".
        super::no_mentions(&a.after, &a.field)?;
        // A seat renamed: the new name is held to the rules (a board kept
        // from before a rule is not refused for a name it already had).
        let seats_before = engine.players(&state).ok();
        if let (Some(before), Ok(after)) = (&seats_before, engine.players(&a.state)) {
            seats_kept(before, &after)?;
        }
        if engine.players(&a.state).ok() != seats_before {
            super::plain_seat_names(engine, &a.state, "", seats_before.as_deref())?;
        }
        if !caller.moderator
            && let Some(seat) = seat
        {
            // A change of nothing would still ask (and ping) the others.
            if a.before == a.after {
                return Err(MatchError::usage(format!(
                    "{} is already {}: nothing to adjust",
                    a.label, a.after
                )));
            }
            let result = engine.status(&a.state).ok().and_then(|s| s.result);
            let asks = adjust_asks(engine, &state, &m.players, seat, &a);
            if !asks.is_empty() {
                let proposal = super::consent::Proposal {
                    by: seat,
                    what: super::consent::Proposed::Adjust {
                        field: field.to_string(),
                        value: value.trim().to_string(),
                        reason: reason.clone(),
                    },
                    text: super::consent::adjust_text(
                        engine,
                        &state,
                        &a,
                        seat,
                        &reason,
                        result.as_ref(),
                    ),
                    asks,
                    confirmed: Vec::new(),
                    moderated: Vec::new(),
                    stage: super::consent::Stage::Asked,
                };
                let mut event = NewEvent::new(EventKind::Adjust, &caller.user, state);
                event.input = Some(format!("{} = {}", a.label, value.trim()));
                event.context =
                    Some(json!({ "field": field, "value": value.trim(), "reason": reason }));
                return self.propose(caller, &m, event, proposal).await;
            }
        }
        let context = serde_json::Map::new();
        self.record_adjust(caller, &m, a, field, value, reason, context)
            .await
    }

    /// The adjustment `field value` makes on `state`. A value YAML reads
    /// otherwise than it reads to a person is refused with how to write
    /// it: a `#` read as a comment (`Fervent Lancer #2` unquoted was
    /// recorded as "Fervent Lancer"), a text YAML refuses bare
    /// (`@everyone` read "this is not valid YAML" with no hint).
    async fn adjustment(
        &self,
        engine: &'static dyn GameEngine,
        state: &Value,
        field: &str,
        value: &str,
    ) -> Result<engine::Adjustment, MatchError> {
        let (board, f, v) = (state.clone(), field.to_string(), value.to_string());
        let e = match self.cpu(move || engine.adjust(&board, &f, &v)).await? {
            Ok(a) => {
                super::values::no_comment(value)?;
                return Ok(a);
            }
            Err(e) if super::values::is_value_syntax(&e) => e,
            Err(e) => return Err(e.into()),
        };
        let (board, f, q) = (
            state.clone(),
            field.to_string(),
            super::values::quoted(value),
        );
        let quotable = match self.cpu(move || engine.adjust(&board, &f, &q)).await? {
            Ok(a) => {
                // In quotes it would still be refused (a mention): say that.
                super::no_mentions(&a.after, &a.field)?;
                true
            }
            Err(_) => false,
        };
        Err(super::values::syntax_hint(e, value, quotable).into())
    }

    /// Sets a field as a confirmed proposal asked (the board as it is).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn apply_adjust(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        state: &Value,
        field: &str,
        value: &str,
        reason: String,
        context: serde_json::Map<String, Value>,
    ) -> Result<EventReply, MatchError> {
        let engine = self.engine_of(m)?;
        let (board, f, v) = (state.clone(), field.to_string(), value.to_string());
        let a = self.cpu(move || engine.adjust(&board, &f, &v)).await??;
        self.record_adjust(caller, m, a, field, value, reason, context)
            .await
    }

    /// Records an adjustment (ending the match when it decides the game).
    #[allow(clippy::too_many_arguments)]
    async fn record_adjust(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        a: engine::Adjustment,
        field: &str,
        value: &str,
        reason: String,
        mut context: serde_json::Map<String, Value>,
    ) -> Result<EventReply, MatchError> {
        let engine = self.engine_of(m)?;
        let mut event = NewEvent::new(EventKind::Adjust, &caller.user, a.state.clone());
        if let Some(result) = engine.status(&a.state).ok().and_then(|s| s.result) {
            event.transition = Transition::End(serde_json::to_value(result).ok());
        }
        event.input = Some(format!("{} = {}", a.label, value.trim()));
        context.insert("field".into(), json!(field));
        context.insert("value".into(), json!(value.trim()));
        context.insert("reason".into(), json!(reason));
        context.insert("adjustment".into(), json!(a));
        event.context = Some(Value::Object(context));
        let mut o = Outcome::new(event);
        o.changes = a.changes.clone();
        o.note = Some(reason);
        o.adjustment = Some(a);
        self.record(caller, m, o).await
    }

    /// `note text`: free text on the record (a judge's ruling, an agreement).
    pub async fn note(&self, caller: &Caller, text: &str) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        // Notes of one channel take turns in this process, so the retries
        // below race only other processes' writes.
        self.note_turns
            .in_turn(&caller.channel, self.note_retried(caller, text))
            .await
    }

    /// A note changes nothing a concurrent event could make stale: one
    /// that lost the race to another is written again on top of it
    /// (several notes at once were told "the board changed"), after a
    /// short wait that grows and differs between writers, for as long as
    /// [`NOTE_RETRY_FOR`]: 32 immediate tries lost 75 of 200 notes sent at
    /// once.
    async fn note_retried(&self, caller: &Caller, text: &str) -> Result<EventReply, MatchError> {
        let until = std::time::Instant::now() + NOTE_RETRY_FOR;
        let mut tries: u64 = 0;
        loop {
            match self.note_once(caller, text).await {
                Err(MatchError::BoardChanged { .. }) if std::time::Instant::now() < until => {
                    tries += 1;
                    tokio::time::sleep(note_backoff(tries)).await;
                }
                done => return done,
            }
        }
    }

    async fn note_once(&self, caller: &Caller, text: &str) -> Result<EventReply, MatchError> {
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        if seat_of(&m, &caller.user).is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may add notes",
            ));
        }
        let text = check_text("note", text)?;
        let top = self.top(&m).await?;
        // A note leaves everything as it was, a waiting decision included.
        let mut event = NewEvent::new(
            EventKind::Note,
            &caller.user,
            m.state.clone().unwrap_or(Value::Null),
        );
        let mut context = json!({ "text": text });
        if let Some(t) = top.as_ref().filter(|t| super::pending_of(&m, t).is_some()) {
            event.play = t.play.clone();
            event.ruling = t.ruling.clone();
            event.deadline = t.deadline;
            if let Some(Value::Object(c)) = &t.context {
                context = Value::Object(super::carried_context(c, Some(&text)));
            }
        }
        event.context = Some(context);
        event.input = Some(text.clone());
        let mut o = Outcome::new(event);
        o.note = Some(text);
        self.record(caller, &m, o).await
    }

    /// `undo`: takes back the last event in effect (a play, an answer, an
    /// advance, an adjustment, a note, an end). Allowed for whoever made
    /// it, a player who agreed to it, or a moderator; an event that decided
    /// the game needs the other side (the winner) or a moderator, and a
    /// moderator may always undo an `end`. Undoing what ended the match
    /// reopens it; undoing an answer asks the question again.
    pub async fn undo(&self, caller: &Caller) -> Result<EventReply, MatchError> {
        if let Some(r) = self.replayed(caller).await? {
            return Ok(r);
        }
        let m = self.latest(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        let heads = self.store.event_heads(m.id).await?;
        let ended = m.status == MatchStatus::Ended;
        if ended && !heads.last().is_some_and(|h| h.kind.undoable()) {
            return Err(self.ended(&m));
        }
        let (stack, passed) = self
            .past_notes(caller, &m, effective_stack(&heads), ended)
            .await?;
        let below = stack
            .len()
            .checked_sub(2)
            .and_then(|i| stack.get(i))
            .copied();
        // An end before any board is undone to no board (the match reopens);
        // so is a first board still proposed (its author withdraws it).
        let proposed = match self.top(&m).await? {
            Some(t) if stack.len() == 1 => super::setup_waiting(&m, &t).is_some(),
            _ => false,
        };
        // A note before any board changes none: its undo leaves the match
        // as it was before it (which may then be withdrawn).
        let first_note = stack.len() == 1
            && heads
                .iter()
                .any(|h| h.seq == stack[0] && h.kind == EventKind::Note);
        let Some(&top) = stack
            .last()
            .filter(|_| below.is_some() || ended || proposed || first_note)
        else {
            return Err(MatchError::NothingToUndo);
        };
        let undone = self
            .store
            .event(m.id, top)
            .await?
            .ok_or(MatchError::NothingToUndo)?;
        self.may_undo(caller, &m, &undone, ended)?;
        // What reverts is the board in effect now, whichever event the
        // undo takes back (a proposal withdrawn with its confirmations).
        let current = undone.state.clone();
        let (top, undone, below) = match self.proposal_origin(caller, &m, &stack, &undone).await? {
            Some((i, origin)) => (stack[i], origin, i.checked_sub(1).map(|j| stack[j])),
            None => (top, undone, below),
        };
        let restored = match below {
            Some(b) => Some(
                self.store
                    .event(m.id, b)
                    .await?
                    .ok_or(MatchError::NothingToUndo)?,
            ),
            None => None,
        };
        let state = restored.as_ref().map_or(Value::Null, |r| r.state.clone());
        let mut event = NewEvent::new(EventKind::Undo, &caller.user, state.clone());
        event.undoes = Some(top);
        if let Some(restored) = restored.filter(|r| super::pending_of(&m, r).is_some()) {
            // The question comes back: the play waits on it again.
            event.play = restored.play.clone();
            event.ruling = restored.ruling.clone();
            event.context = match &restored.context {
                Some(Value::Object(c)) => Some(Value::Object(super::carried_context(c, None))),
                other => other.clone(),
            };
            event.deadline = restored.deadline.map(|_| self.deadline());
        }
        if ended {
            event.transition = Transition::Reopen;
        }
        let mut o = Outcome::new(event);
        o.changes = named_whole(engine::diff(&current, &state));
        o.undone = Some(LogEntry::from_record(undone, false));
        o.note = notes_passed(&passed);
        self.record(caller, &m, o).await
    }

    /// The events in effect as `caller`'s undo takes them: when notes of
    /// other users lie over an event the caller may undo, that event is
    /// the one taken back, the notes with it (the log keeps them). Decision:
    /// a note blocks nobody's undo: an opponent's note on a play waiting on
    /// her decision made it hers to take back ("the last note was made by
    /// maeoni"), and its author could not (found by an outside tester). A
    /// moderator's undo takes the last event, a note included.
    async fn past_notes(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        mut stack: Vec<i64>,
        ended: bool,
    ) -> Result<(Vec<i64>, Vec<EventRecord>), MatchError> {
        if caller.moderator || ended {
            return Ok((stack, Vec::new()));
        }
        let mut notes = Vec::new();
        for i in (0..stack.len()).rev() {
            let e = self
                .store
                .event(m.id, stack[i])
                .await?
                .ok_or(MatchError::NothingToUndo)?;
            match past_note_step(&caller.user, &m.players, &e) {
                Some(true) => notes.push(e),
                Some(false) if !notes.is_empty() => {
                    stack.truncate(i + 1);
                    notes.reverse();
                    return Ok((stack, notes));
                }
                _ => break,
            }
        }
        Ok((stack, Vec::new()))
    }

    /// A proposal is its author's to take back whole: when `undone` (the
    /// top of `stack`) is another player's confirmation of `caller`'s
    /// proposal still waiting, the event that confirmed it in full, or
    /// the answer that rejected it or let it expire, the event that
    /// proposed it and its index in `stack`. Before, the author's undo took
    /// back the last confirmation alone and asked that player again, and a
    /// rejected or expired proposal was nobody's but a moderator's to undo,
    /// so every undo after it was refused (found by outside testers).
    async fn proposal_origin(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        stack: &[i64],
        undone: &EventRecord,
    ) -> Result<Option<(usize, EventRecord)>, MatchError> {
        let Some(p) = withdrawn_whole(&caller.user, caller.moderator, &m.players, undone) else {
            return Ok(None);
        };
        for i in (0..stack.len().saturating_sub(1)).rev() {
            let e = self
                .store
                .event(m.id, stack[i])
                .await?
                .ok_or(MatchError::NothingToUndo)?;
            match origin_step(&p, &e) {
                Some(true) => return Ok(Some((i, e))),
                Some(false) => {}
                None => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Whether `caller` may undo `undone` (the event in effect); the
    /// refusal names who may. `ended`: it ended the match.
    fn may_undo(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        undone: &EventRecord,
        ended: bool,
    ) -> Result<(), MatchError> {
        if caller.moderator {
            return Ok(());
        }
        let result: Option<GameResult> = m
            .result
            .clone()
            .filter(|_| ended)
            .and_then(|r| serde_json::from_value(r).ok());
        let engine = self.engine_of(m)?;
        let result = result.map(|r| {
            let winner = self.winner_seat(m, engine, &r);
            (r, winner)
        });
        undo_refused(&caller.user, &m.players, undone, result)
    }

    /// `end [winner] [reason]`: ends the match by agreement (a player) or by
    /// a moderator, with the result if one is given (outside the indexed rules).
    pub async fn end(
        &self,
        caller: &Caller,
        winner: Option<&str>,
        reason: Option<&str>,
    ) -> Result<super::MatchView, MatchError> {
        // A retried request whose first run ended the match: its result.
        if let Some(r) = self.replayed(caller).await? {
            let m = self.store.match_by_id(r.match_id).await?;
            return self.view(&m.ok_or(MatchError::NoMatch)?).await;
        }
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        if seat_of(&m, &caller.user).is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may end it",
            ));
        }
        let engine = self.engine_of(&m)?;
        let winner = match winner.map(str::trim).filter(|w| !w.is_empty()) {
            Some(w) => Some(self.player_name(&m, engine, w)?),
            None => None,
        };
        let reason = reason.map(|r| check_text("reason", r)).transpose()?;
        let seat = seat_of(&m, &caller.user);
        // A player's bare `end` on a board ends it with no winner, which the
        // other players confirm; before a board nothing is at stake.
        let has_board = m.state.as_ref().is_some_and(|s| !s.is_null());
        let bare_on_board = has_board && !caller.moderator;
        let result = (winner.is_some() || reason.is_some() || bare_on_board).then(|| GameResult {
            winner,
            reason: reason.unwrap_or_else(|| super::consent::NO_REASON.into()),
            rule: None,
        });
        let (Some(mut result), Some(seat), false) = (result.clone(), seat, caller.moderator) else {
            // A moderator's result, or an end before a board: at once.
            let result = result.map(|mut r| {
                r.reason = super::consent::end_reason(&r.reason, &EndedBy::Moderator);
                r
            });
            return self.end_now(caller, &m, result).await;
        };
        let winner = self.winner_seat(&m, engine, &result);
        let asks = end_asks(engine, m.state.as_ref(), &m.players, seat, &result);
        let names = self.names(&m);
        let name = |s: usize| {
            names
                .get(s)
                .cloned()
                .unwrap_or_else(|| m.players[s].clone())
        };
        if asks.is_empty() {
            // Nobody else loses by it: a concession when another seat wins;
            // one's own win (or none) with nobody left to ask is no
            // concession (a one-seat match read "Coal wins (conceded by
            // Coal)": an outside tester's).
            let by = match winner {
                Some(w) if w != seat => EndedBy::Conceded(name(seat)),
                _ => EndedBy::Alone(name(seat)),
            };
            result.reason = super::consent::end_reason(&result.reason, &by);
            return self.end_now(caller, &m, Some(result)).await;
        }
        let (m, state) = self.ready(caller).await?;
        let caller = &caller.in_match(&m);
        let proposal = super::consent::Proposal {
            by: seat,
            what: super::consent::Proposed::End {
                result: result.clone(),
            },
            text: super::consent::end_text(&result),
            asks,
            confirmed: Vec::new(),
            moderated: Vec::new(),
            stage: super::consent::Stage::Asked,
        };
        // On the record as a note until it is confirmed: an `end` event
        // would end the match.
        let mut event = NewEvent::new(EventKind::Note, &caller.user, state);
        event.input = Some(proposal.text.clone());
        self.propose(caller, &m, event, proposal).await?;
        self.view(
            &self
                .store
                .match_by_id(m.id)
                .await?
                .ok_or(MatchError::NoMatch)?,
        )
        .await
    }

    /// Ends the match now, with `result` if it has one.
    async fn end_now(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        result: Option<GameResult>,
    ) -> Result<super::MatchView, MatchError> {
        // Ended while a board waits on consent: on the board agreed before.
        let board = self.agreed_board(m).await?;
        let mut event = NewEvent::new(EventKind::End, &caller.user, board);
        event.transition =
            Transition::End(result.as_ref().and_then(|r| serde_json::to_value(r).ok()));
        event.context = result.as_ref().and_then(|r| serde_json::to_value(r).ok());
        event.interaction = caller.interaction.clone();
        self.append(caller, m, &event).await?;
        self.view(
            &self
                .store
                .match_by_id(m.id)
                .await?
                .ok_or(MatchError::NoMatch)?,
        )
        .await
    }

    /// A player named by mention (`<@id>`), user id, or board name.
    fn player_name(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        typed: &str,
    ) -> Result<String, MatchError> {
        let names = || -> Result<Vec<String>, MatchError> {
            let names = m.state.as_ref().map(|s| engine.players(s)).transpose()?;
            Ok(names.unwrap_or_default())
        };
        let seat = seat_named(&m.players, typed, names)?;
        Ok(names()?
            .get(seat)
            .cloned()
            .unwrap_or_else(|| m.players[seat].clone()))
    }
}

/// The seats a seated player's play asks (those its `agreed by` names,
/// then, when it makes claims, every other seat still in the game), and
/// whether the claims asked anyone. Live and at import (`permits`): a play
/// that asks someone is a proposal, never recorded at once.
pub(super) fn play_asks(
    engine: &dyn GameEngine,
    board: Option<&Value>,
    seats: usize,
    seat: usize,
    agreed_by: &[usize],
    claims: bool,
) -> (Vec<usize>, bool) {
    let others = (0..seats).filter(|s| *s != seat).collect();
    let doubters = match claims {
        true => super::consent::waited_on(engine, board, others),
        false => Vec::new(),
    };
    let mut asks = agreed_by.to_vec();
    for s in &doubters {
        if !asks.contains(s) {
            asks.push(*s);
        }
    }
    (asks, !doubters.is_empty())
}

/// The seats a seated player's adjustment `a` of `before` asks: the
/// field's owner, every other seat for a field the result is counted on,
/// and every loser when it decides the game. Live and at import.
pub(super) fn adjust_asks(
    engine: &dyn GameEngine,
    before: &Value,
    players: &[String],
    seat: usize,
    a: &engine::Adjustment,
) -> Vec<usize> {
    let result = engine.status(&a.state).ok().and_then(|s| s.result);
    let winner = result
        .as_ref()
        .map(|r| super::consent::winner_seat_on(engine, Some(before), players, r));
    // A field the result is counted on is every player's business.
    let owner = if a.standing || a.touches.is_some() {
        None
    } else {
        a.owner
    };
    let asks = super::consent::affected(players.len(), seat, Some(owner), winner);
    super::consent::waited_on(engine, Some(before), asks)
}

/// The seats a seated player's `end` with `result` on `board` asks: every
/// seat but the winner's still in the game. Live and at import.
pub(super) fn end_asks(
    engine: &dyn GameEngine,
    board: Option<&Value>,
    players: &[String],
    seat: usize,
    result: &GameResult,
) -> Vec<usize> {
    let winner = super::consent::winner_seat_on(engine, board, players, result);
    let asks = super::consent::affected(players.len(), seat, None, Some(winner));
    super::consent::waited_on(engine, board, asks)
}

/// The proposal a player's undo of `undone` (the event in effect) takes
/// back whole, when `user` is its author who is not a moderator holding
/// no seat: another player's confirmation of it still waiting, the event
/// that confirmed it in full, or the answer that rejected it or let it
/// expire. Before, the author's undo took back the last confirmation
/// alone and asked that player again, and a rejected or expired proposal
/// was nobody's but a moderator's to undo, so every undo after it was
/// refused (found by outside testers). Live and at import.
pub(super) fn withdrawn_whole(
    user: &str,
    moderator: bool,
    players: &[String],
    undone: &EventRecord,
) -> Option<super::consent::Proposal> {
    use super::consent::{Proposal, Stage};
    let p = Proposal::of(undone).filter(|_| !moderator)?;
    let whole = match p.stage {
        Stage::Asked => {
            undone.kind == EventKind::Answer && undone.actor != user && !p.confirmed.is_empty()
        }
        Stage::Confirmed | Stage::Rejected => undone.kind != EventKind::Note,
    };
    (whole && players.get(p.by).map(String::as_str) == Some(user)).then_some(p)
}

/// Walking down the events in effect (the top first) as a player's undo
/// passes over other users' notes (`Matches::past_notes`): `Some(true)`
/// when `e` is another user's note, passed over; `Some(false)` when `e`
/// is an event `user` may undo, taken back with the notes over it (the
/// caller's own note too: under another's note it was refused as "the
/// last note was made by …"; on top, nothing is passed and it is theirs
/// to take back alone); `None` when the walk stops (the undo takes the
/// top, as ever). A moderator who holds no seat passes over nothing. Live
/// and at import.
pub(super) fn past_note_step(user: &str, players: &[String], e: &EventRecord) -> Option<bool> {
    match plain_note(e) {
        true if e.actor != user => Some(true),
        true => Some(false),
        false => undo_refused(user, players, e, None).ok().map(|()| false),
    }
}

/// Walking down the events in effect under a proposal `p` withdrawn whole:
/// `Some(true)` when `e` is the event that proposed it (asked, confirmed
/// by nobody yet), `Some(false)` when `e` is a confirmation given so far
/// (they lie over it), `None` when the walk stops with no origin. A note
/// written while it waits is another's: taking the proposal back whole
/// would take the note with it, so then only the confirmation on top is
/// taken back (found by a review).
pub(super) fn origin_step(p: &super::consent::Proposal, e: &EventRecord) -> Option<bool> {
    use super::consent::{Proposal, Stage};
    if plain_note(e) {
        return None;
    }
    match Proposal::of(e).filter(|q| q.by == p.by && q.stage == Stage::Asked) {
        Some(q) if q.confirmed.is_empty() => Some(true),
        Some(_) if e.kind == EventKind::Answer => Some(false),
        _ => None,
    }
}

/// Who may undo the result `r` (won by the seat `winner`) in a match
/// seating `players`: its winner, or a moderator who holds no seat. The
/// words of the undo's refusal and of [`MatchError::Ended`].
pub(super) fn result_undoers(players: &[String], r: &GameResult, winner: Option<usize>) -> String {
    let name = r.winner.clone().unwrap_or_default();
    match winner.and_then(|w| players.get(w)) {
        Some(u) if *u == name => format!("{name}, who won it, or {MODERATOR}"),
        Some(u) => format!("{name} ({}), who won it, or {MODERATOR}", super::mention(u)),
        None => MODERATOR.to_string(),
    }
}

/// Whether the player `user` (not a moderator who holds no seat) may undo
/// `undone`, the event in effect in a match seating `players`; `ended`:
/// the result it ended the match with and the seat that won it. The
/// refusal names who may. Live and at import.
pub(super) fn undo_refused(
    user: &str,
    players: &[String],
    undone: &EventRecord,
    ended: Option<(GameResult, Option<usize>)>,
) -> Result<(), MatchError> {
    let seat = players.iter().position(|p| p == user);
    if let Some((r, winner)) = ended {
        // A result stands unless the side it favours gives it up. A
        // timeout's answer that ended the match is still the answer of
        // the player it was made for, who never made that choice: hers to
        // take back, which asks her again (it was refused as "needs the
        // other side's consent": found by an outside tester).
        let timed_out_for = super::timed_out_for(players, undone);
        if winner.is_some() && winner == seat || timed_out_for.map(String::as_str) == Some(user) {
            return Ok(());
        }
        let who = result_undoers(players, &r, winner);
        let what = r
            .winner
            .as_deref()
            .map_or("no winner".into(), |w| format!("{w} wins"));
        // A result with no winner favours nobody, so no player may
        // take back alone what every player agreed to (it read "needs
        // the other side's consent" to the players of a draw both had
        // agreed: found by an outside tester).
        if r.winner.is_none() {
            return Err(MatchError::forbidden(format!(
                "the match ended with no winner ({}): it favours no side, so no player may reopen it alone; only {MODERATOR} may undo it (ask one, who can reopen it for you all)",
                r.reason
            )));
        }
        return Err(MatchError::forbidden(format!(
            "undoing the result ({what}: {}) needs the other side's consent: only {who} may undo it",
            r.reason
        )));
    }
    // A proposal waiting on the caller is not theirs to take back: they
    // have agreed to nothing yet, and their undo read in the log as the
    // author's play taken back ("Maeoni undid #2", found by an outside
    // tester) where a rejection belongs.
    // Their own event still is (an answer of theirs that brought the
    // play to a claim, now waiting on them too; found by a review).
    let asked =
        super::consent::Proposal::of(undone).filter(|p| p.stage == super::consent::Stage::Asked);
    if let Some(p) = asked
        .as_ref()
        .filter(|p| seat.is_some_and(|s| p.asks.contains(&s) && s != p.by))
        .filter(|_| undone.actor != user)
    {
        return Err(proposal_refused(players, undone, p, true));
    }
    // Who agreed to a player's play may take it back; a moderator's
    // entry (every seat's choices as written, nobody asked) is a
    // moderator's to undo.
    // A note carries the `agreed_by` of the play it was made under, which
    // is no agreement to the note.
    let by_player = players.contains(&undone.actor) && !plain_note(undone);
    let agreed = by_player
        && PlayContext::of(undone)
            .agreed_by
            .iter()
            .any(|s| players.get(*s).map(String::as_str) == Some(user));
    let timed_out_for = super::timed_out_for(players, undone);
    if undone.actor == user
        || agreed
        || confirmed_setup(undone, seat)
        || timed_out_for.map(String::as_str) == Some(user)
    {
        return Ok(());
    }
    // A proposal still waiting is its author's to take back, with
    // the confirmations given so far ([`Matches::proposal_origin`]);
    // so is one rejected or expired, with its answer: it changed
    // nothing, and undo goes on under it.
    // A note made while a proposal waits carries its context, but is
    // a note, not the proposal.
    let proposal = super::consent::Proposal::of(undone)
        .filter(|p| p.stage != super::consent::Stage::Confirmed)
        .filter(|_| undone.kind == EventKind::Answer);
    let author = proposal.as_ref().and_then(|p| players.get(p.by));
    if author.map(String::as_str) == Some(user) {
        return Ok(());
    }
    // Still waiting, on someone else: named as the proposal it is (an
    // end proposed is recorded as a note, and the refusal read "the last
    // note was made by Coal").
    if let Some(p) = asked.as_ref().filter(|_| !plain_note(undone)) {
        return Err(proposal_refused(players, undone, p, false));
    }
    let who = match undone.actor.as_str() {
        TIMEOUT_ACTOR => "the decision's timeout".to_string(),
        actor => super::mention(actor),
    };
    if let Some(a) = author {
        // Rejected or expired: its author withdraws it; who rejected
        // it may take the rejection back (and is asked again).
        let by = match undone.actor.as_str() {
            TIMEOUT_ACTOR => String::new(),
            _ => format!(", {who}, who rejected it,"),
        };
        return Err(MatchError::forbidden(format!(
            "the last proposal ({}) changed nothing: only its author {}{by} or {MODERATOR} may undo it",
            if by.is_empty() { "expired" } else { "rejected" },
            super::mention(a)
        )));
    }
    let what = undone.kind.as_str();
    if undone.actor == TIMEOUT_ACTOR {
        // The timeout is nobody to ask: name the player it answered for.
        let (whose, only) = match timed_out_for {
            Some(u) => (
                format!(", for {}", super::mention(u)),
                format!("{} or {MODERATOR}", super::mention(u)),
            ),
            None => (String::new(), MODERATOR.to_string()),
        };
        return Err(MatchError::forbidden(format!(
            "the last {what} was made by {who}{whose}; only {only} may undo it"
        )));
    }
    Err(MatchError::forbidden(format!(
        "the last {what} was made by {who}; only they or {MODERATOR} may undo it"
    )))
}

/// The refusal of an undo whose last event in effect, `undone`, is (or
/// lies over, a note made since) proposal `p`, still waiting, when the
/// caller is not its author: the event, what it proposes and what to do.
/// `asked`: it waits on the caller's consent, which they refuse with
/// `reject`; else its author withdraws it, or its players answer it.
fn proposal_refused(
    players: &[String],
    undone: &EventRecord,
    p: &super::consent::Proposal,
    asked: bool,
) -> MatchError {
    let user = |s: usize| {
        players
            .get(s)
            .map_or_else(String::new, |u| super::mention(u))
    };
    let by = user(p.by);
    let last = match plain_note(undone) {
        true => format!(
            "the last event is #{}, a note by {}, made while {by}'s proposal waits",
            undone.seq,
            super::mention(&undone.actor),
        ),
        false if undone.kind == EventKind::Answer => format!(
            "the last event is #{}, {}'s confirmation of {by}'s proposal",
            undone.seq,
            super::mention(&undone.actor),
        ),
        false => format!("the last event is #{}, {by}'s proposal", undone.seq),
    };
    let next = match asked {
        true => "it waits on your consent, which you have not given: answer it with `reject` (its Reject button) to refuse it, on the record".to_string(),
        false => {
            let waits: Vec<String> = p.asks.iter().map(|s| user(*s)).collect();
            format!(
                "it waits on {}'s answer (Confirm or Reject); its author may withdraw it with `undo`",
                waits.join(", then ")
            )
        }
    };
    let only = match plain_note(undone) {
        true => format!(
            "only {} or {MODERATOR} may undo the note, and only {by} or {MODERATOR} the proposal",
            super::mention(&undone.actor)
        ),
        false => format!("only its author {by} or {MODERATOR} may undo it"),
    };
    MatchError::ProposalWaits {
        before: format!("{last} ({by} proposes "),
        proposes: p.text.clone(),
        after: format!("): {next}; {only}"),
    }
}

/// The refusal of a typed confirm (no version) of proposal `p`, asked by
/// event `seq` after its author withdrew another (`Matches::swapped`):
/// the proposal waiting, its words, and the answers that carry the
/// `version` it waits at (its button, the list's pick, the typed form
/// [`super::answer_value`] writes).
fn swapped_refused(
    m: &MatchRecord,
    p: &super::consent::Proposal,
    seq: i64,
    version: i64,
) -> MatchError {
    let by = m
        .players
        .get(p.by)
        .map_or_else(String::new, |u| super::mention(u));
    let confirm = super::answer_value("confirm", m.id, version);
    MatchError::ProposalWaits {
        before: format!(
            "a typed confirm is not taken here: the proposal waiting, #{seq}, was made after {by} withdrew another proposal of theirs, so your answer may have been meant for that one (now {by} proposes "
        ),
        proposes: p.text.clone(),
        after: format!(
            "): to confirm this one, press its Confirm button, pick `{confirm}` from `/match answer`'s list, or type `match answer {confirm}`; `reject` is taken as typed"
        ),
    }
}

/// Who besides a player may undo, as every refusal names them: a
/// moderator who holds a seat undoes as a player (docs/MATCHES.md), and
/// "or a moderator" read as a refusal of their own undo's grounds.
pub(super) const MODERATOR: &str = "a moderator who holds no seat in the match";

/// Refuses an adjust that adds, removes or reorders the board's players:
/// seat i of the match plays the board's `players[i]`, so one added made
/// a seat nobody holds (whose turn stuck the match), one removed left a
/// seat with no board player, and a reordered list swapped which user
/// plays whom, shown only as a blob of JSON (outside testers'). A seat
/// renamed in place is kept. Who sits where is set at `start`; a
/// moderator sets up a new board for other seats.
fn seats_kept(before: &[String], after: &[String]) -> Result<(), MatchError> {
    let fix = "who plays which seat is set at `start` (seat i of the match plays the board's players[i]); \
               to change it, end this match and start another, or ask a moderator to set up a new board";
    if after.len() != before.len() {
        return Err(MatchError::usage(format!(
            "this would leave the board with {} where the match seats {}: an adjust cannot add or remove a board's player; {fix}",
            crate::text::count(after.len(), "player"),
            crate::text::count(before.len(), "player"),
        )));
    }
    let moved = after.iter().enumerate().find_map(|(i, name)| {
        let was = before.iter().position(|b| b == name)?;
        (was != i).then_some((name, was, i))
    });
    if let Some((name, was, now)) = moved {
        return Err(MatchError::usage(format!(
            "this would move {name} from seat {} to seat {}, so the match's users would play other board players: an adjust cannot reorder a board's players; {fix}",
            was + 1,
            now + 1
        )));
    }
    Ok(())
}

/// The seat a mention (`<@id>`), a user id or a board player name names.
/// `seats`: the match's user ids by seat; `board_names`: the board's player
/// names, asked for only when `typed` is neither an id nor a mention.
fn seat_named(
    seats: &[String],
    typed: &str,
    board_names: impl FnOnce() -> Result<Vec<String>, MatchError>,
) -> Result<usize, MatchError> {
    let typed = typed.trim();
    // A role mention (`<@&id>`) names no user: it read as a user "&id"
    // who "does not play in this match".
    if typed.starts_with("<@&") && typed.ends_with('>') {
        return Err(MatchError::usage(format!(
            "`{typed}` mentions a role, not a user: name a seat's player (a user mention or the board's player name)"
        )));
    }
    let mentioned = typed.starts_with("<@") && typed.ends_with('>');
    let id = typed
        .trim_start_matches("<@")
        .trim_start_matches('!')
        .trim_end_matches('>')
        .trim_start_matches('@');
    // User ids compare as `start` compares them (`coal` and `Coal` are
    // one user there): compared exactly, `--winner Coal` missed the user
    // coal and took the seat named Coal without a word of the other
    // reading.
    if let Some(s) = seats.iter().position(|p| crate::text::fold_eq(p, id)) {
        if mentioned {
            return Ok(s);
        }
        // A user id that is also another seat's name on the board reads
        // two ways: the CLI's `--winner coal` once took the user `coal`
        // and conceded at once for a player who meant the seat named Coal.
        let key = crate::text::fold(id);
        let names = board_names()?;
        return match names.iter().position(|n| crate::text::fold(n) == key) {
            Some(other) if other != s => Err(MatchError::usage(format!(
                "“{id}” names two seats: the user {} plays seat {} ({}), and seat {} is named {} on the board (played by {}); name the player by mention: `<@{}>` for seat {}, `<@{}>` for seat {}",
                seats[s],
                s + 1,
                names.get(s).map_or("unnamed", String::as_str),
                other + 1,
                names[other],
                seats[other],
                seats[s],
                s + 1,
                seats[other],
                other + 1
            ))),
            _ => Ok(s),
        };
    }
    let names = board_names()?;
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    names::resolve_index(id, &refs, "player").map_err(|e| {
        // A user who holds no seat (`winner:@carol`): named as a mention,
        // with the seats (it was "unknown player '1300000000000000303'").
        if mentioned || (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())) {
            let list: Vec<String> = seats
                .iter()
                .enumerate()
                .map(|(i, user)| match names.get(i) {
                    Some(name) => format!("seat {} {} ({name})", i + 1, super::mention(user)),
                    None => format!("seat {} {}", i + 1, super::mention(user)),
                })
                .collect();
            MatchError::usage(format!(
                "{} does not play in this match; the seats: {}",
                super::mention(id),
                list.join(", ")
            ))
        } else {
            MatchError::usage(e.to_string())
        }
    })
}

/// Whether `undone` is a starting board `seat` confirmed, last and
/// themself: the board stands as its author's (who may replace it), but
/// the confirmation stays its giver's to take back, and asks them again,
/// as a confirmed adjust's does (docs/MATCHES.md, Consent; the confirmer's
/// undo was refused, "the last setup was made by coal").
fn confirmed_setup(undone: &EventRecord, seat: Option<usize>) -> bool {
    use super::consent::{Proposal, Stage};
    undone.kind == EventKind::Setup
        && Proposal::of(undone)
            .filter(|p| p.stage == Stage::Confirmed)
            .is_some_and(|p| {
                p.confirmed
                    .last()
                    .is_some_and(|s| Some(*s) == seat && !p.moderated.contains(s))
            })
}

/// `changes` with the whole board's change named `board`: a first board
/// withdrawn reverts the board itself, whose path is empty (the reply read
/// "reverted: : {…} → null").
fn named_whole(mut changes: Vec<engine::Change>) -> Vec<engine::Change> {
    for c in changes.iter_mut().filter(|c| c.path.is_empty()) {
        c.path = super::WHOLE_BOARD.into();
    }
    changes
}

/// Whether `e` is a note as `note` writes it ([`super::is_plain_note`]).
pub(super) fn plain_note(e: &EventRecord) -> bool {
    super::is_plain_note(e.kind, e.context.as_ref())
}

/// The notes an undo took back with the event under them, as its reply
/// says them.
fn notes_passed(notes: &[EventRecord]) -> Option<String> {
    let list: Vec<String> = notes
        .iter()
        .map(|n| {
            let text = n
                .context
                .as_ref()
                .and_then(|c| c.get("text"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            format!("note #{} ({}: {text})", n.seq, super::mention(&n.actor))
        })
        .collect();
    (!list.is_empty()).then(|| format!("made since, taken back with it: {}", list.join(", ")))
}

/// Whether a setup is among the events in effect.
fn has_setup(stack: &[i64], heads: &[EventHead]) -> bool {
    heads
        .iter()
        .any(|h| h.kind == EventKind::Setup && stack.contains(&h.seq))
}

/// Seqs of the events in effect, oldest first: the first setup starts
/// over, a setup over it, plays, answers, advances, adjustments and notes
/// stack up, an undo pops.
pub(super) fn effective_stack(heads: &[EventHead]) -> Vec<i64> {
    let mut stack = Vec::new();
    for h in heads {
        match h.kind {
            // A board set up again (a moderator's, mid-match) goes on top
            // of the one it replaces: its undo brings that board and its
            // question back. The first setup starts the stack (a note
            // before any board is not under it).
            EventKind::Setup if stack.is_empty() || !has_setup(&stack, heads) => {
                stack = vec![h.seq]
            }
            EventKind::Setup => stack.push(h.seq),
            // Back to below the undone event (older logs let an undo
            // pass over notes, which it takes back with it).
            EventKind::Undo => match h.undoes {
                Some(u) if stack.contains(&u) => while stack.pop().is_some_and(|s| s != u) {},
                _ => {
                    stack.pop();
                }
            },
            k if k.undoable() => stack.push(h.seq),
            _ => {}
        }
    }
    stack
}

/// The answer a choice names: its number (1-based) or label.
fn pick_option(d: &Decision, choice: &str) -> Result<usize, MatchError> {
    let choice = choice.trim();
    if let Ok(n) = choice.parse::<usize>()
        && (1..=d.options.len()).contains(&n)
    {
        return Ok(n - 1);
    }
    let labels: Vec<&str> = d.options.iter().map(|o| o.label.as_str()).collect();
    // As the notation says it: "no counter" for "do not counter",
    // "accepted" for "accept Ana's transaction".
    let plain: Vec<String> = labels.iter().map(|l| plain_answer(l)).collect();
    let plain_refs: Vec<&str> = plain.iter().map(String::as_str).collect();
    if let Ok(i) = names::resolve_index(&plain_answer(choice), &plain_refs, "answer") {
        return Ok(i);
    }
    names::resolve_index(choice, &labels, "answer").map_err(|e| {
        MatchError::usage(format!(
            "{e}; answer with a number from 1 to {} or an answer's words",
            d.options.len()
        ))
    })
}

/// An answer's words as plays write them: "do not X" / "don't X" as
/// "no X", "accepted" / "declined" as "accept" / "decline".
fn plain_answer(text: &str) -> String {
    let t = text.trim().to_lowercase();
    let t = ["do not ", "don't ", "dont ", "does not ", "doesn't "]
        .iter()
        .find_map(|p| t.strip_prefix(p).map(|rest| format!("no {rest}")))
        .unwrap_or(t);
    let (first, rest) = t.split_once(' ').unwrap_or((t.as_str(), ""));
    let first = match first {
        "accepted" => "accept",
        "declined" => "decline",
        other => other,
    };
    format!("{first} {rest}").trim_end().to_string()
}

/// The refusal of a play read as `actor`'s by a player of `seat`. A play
/// read as the player's on turn (a main action names no player: it is the
/// turn's) says whose turn it is, as `judge` does; it read "this play is
/// for Coal (seat 1, Coal)" for Maeoni's attack on Coal's turn.
fn not_your_play(
    engine: &dyn GameEngine,
    state: &Value,
    names: &[String],
    players: &[String],
    actor: usize,
    seat: usize,
) -> MatchError {
    let name = |s: usize| names.get(s).cloned().unwrap_or_default();
    let whose = super::mention(players.get(actor).map_or("", String::as_str));
    let on_turn = engine
        .status(state)
        .is_ok_and(|st| st.turn_seat == Some(actor));
    MatchError::forbidden(match on_turn {
        true => format!(
            "it is {}'s turn (seat {}, {whose}), not {}'s: this play is read as the turn's player's; you play for your own seat only (seat {}), on your turn",
            name(actor),
            actor + 1,
            name(seat),
            seat + 1
        ),
        false => format!(
            "this play is for {} (seat {}, {whose}); you play for your own seat only (seat {})",
            name(actor),
            actor + 1,
            seat + 1
        ),
    })
}

/// The engine's part of a play by `seat` (`None`: a moderator's, entered
/// for the seat it is for, every choice as written), on one read of the
/// board: the play (notation or YAML), whose it is, who agreed, and the
/// ruling. Runs on the CPU pool; `players` are the match's user ids by
/// seat.
fn rule_play(
    engine: &dyn GameEngine,
    state: &Value,
    text: &str,
    players: &[String],
    seat: Option<usize>,
) -> Result<(Value, PlayContext, Ruling), MatchError> {
    let board = engine.open(state, None)?;
    let (play, agreed_by) = read_play(&*board, text, players)?;
    let actor = board.actor(&play)?;
    let moderator = seat.is_none();
    let Some(seat) = seat.or(actor) else {
        return Err(MatchError::usage(
            "this play names no player: name the player it is for (`Name: …`, or `player:`)",
        ));
    };
    if let Some(actor) = actor
        && actor != seat
    {
        return Err(not_your_play(
            engine,
            state,
            &board.players(),
            players,
            actor,
            seat,
        ));
    }
    if agreed_by.contains(&seat) {
        return Err(MatchError::usage(
            "`agreed by` names the other players who agreed, not yourself",
        ));
    }
    // A player's `agreed by` is asked first; a moderator's play (who holds
    // no seat: `Caller::in_match`) records what it writes for every seat,
    // and a choice it leaves out is still asked of its owner.
    let agreed_by = match moderator {
        true => (0..players.len()).filter(|s| *s != seat).collect(),
        false => agreed_by,
    };
    let context = PlayContext {
        author: Some(seat),
        agreed: false,
        agreed_by,
        answered: Vec::new(),
        answered_for: None,
        proposal: None,
    };
    let mut ruling = board.judge(play.clone(), &context.asking())?;
    ruling.state = without_play(ruling.state);
    Ok(only_answers(engine, state, play, context, ruling)?)
}

/// The play `text` reads as on `state`, with the decisions it has one
/// answer only to taken as a play takes them, judged with what its event
/// records (`recorded`: its author and the seats that agreed), and the
/// seats its `agreed by` names. Replay checks a recorded play's `input`
/// against it: the log shows the words, replay judges the play, and an
/// edited export had the one say "pass" where the other attacked.
pub(super) fn reread_play(
    engine: &dyn GameEngine,
    state: &Value,
    text: &str,
    players: &[String],
    recorded: &PlayContext,
) -> Result<(Value, Vec<usize>), MatchError> {
    let board = engine.open(state, None)?;
    let (play, agreed_by) = read_play(&*board, text, players)?;
    let context = PlayContext {
        author: recorded.author,
        agreed: recorded.agreed,
        agreed_by: recorded.agreed_by.clone(),
        ..PlayContext::default()
    };
    let mut ruling = board.judge(play.clone(), &context.asking())?;
    ruling.state = without_play(ruling.state);
    let (play, _, _) = only_answers(engine, state, play, context, ruling)?;
    Ok((play, agreed_by))
}

/// The seats still in the game that have not agreed to the claims a
/// player's legal play makes (none for a moderator's play, whose
/// `agreed_by` is every other seat, nor once a proposal was confirmed).
fn unconsented(
    engine: &dyn GameEngine,
    board: &Value,
    seats: usize,
    context: &PlayContext,
    ruling: &Ruling,
) -> Vec<usize> {
    let Some(author) = context.author else {
        return Vec::new();
    };
    if !ruling.legal || ruling.claims.is_empty() || context.agreed {
        return Vec::new();
    }
    let others = (0..seats)
        .filter(|s| *s != author && !context.agreed_by.contains(s))
        .collect();
    super::consent::waited_on(engine, Some(board), others)
}

/// Who a proposed play asks, and the claims it asks them to confirm.
struct Asked<'a> {
    /// The proposing seat.
    by: usize,
    asks: Vec<usize>,
    claims: &'a [engine::Claim],
}

/// A proposed play in words, on one line: the choices it states for the
/// players asked (`agreed by`), and what it states that the board does not
/// record ("which states: a rule … makes this action free (play.free)").
fn proposed_play_text(line: &str, choices: bool, claims: &[engine::Claim]) -> String {
    let mut out = format!("the play `{}`", arbiter_text::single_spaced(line));
    if choices {
        out.push_str(", with the choices it states for you");
    }
    if !claims.is_empty() {
        let said: Vec<String> = claims
            .iter()
            .map(|c| format!("{} ({})", arbiter_text::single_spaced(&c.text), c.path))
            .collect();
        let and = if choices { " and" } else { "" };
        out.push_str(&format!(
            ",{and} which states what the board does not record: {}",
            said.join("; ")
        ));
    }
    out
}

/// Most decisions with one answer taken at once in one request.
const MAX_ONLY_ANSWERS: usize = 64;

/// Takes every decision the ruling stops at that has a single answer at
/// once (nobody is asked to press the only button), saying so in the
/// ruling, and judges again; returns the play, context and ruling after.
fn only_answers(
    engine: &dyn GameEngine,
    state: &Value,
    mut play: Value,
    mut context: PlayContext,
    mut ruling: Ruling,
) -> Result<(Value, PlayContext, Ruling), BoardError> {
    let mut said = Vec::new();
    while let Some(d) = ruling.pending.clone().filter(|d| d.options.len() == 1) {
        if said.len() >= MAX_ONLY_ANSWERS {
            break;
        }
        let only = &d.options[0];
        merge_patch(&mut play, &only.patch);
        context.answered.push((d.key.clone(), d.seat));
        said.push(engine::Diagnostic {
            severity: engine::Severity::Info,
            message: format!(
                "{} has one answer only, taken at once: {} ({})",
                d.player,
                only.label,
                d.question.trim_end_matches(['…', '?', ':', ' '])
            ),
            rule: (!d.rule.is_empty()).then(|| d.rule.clone()),
            path: (!d.path.is_empty()).then(|| d.path.clone()),
        });
        ruling = engine.judge(with_play(state, &play), None, &context.asking())?;
        ruling.state = without_play(ruling.state);
    }
    ruling.diagnostics.extend(said);
    Ok((play, context, ruling))
}

/// A play from a YAML `play:` block (with `agreed_by:` optionally beside
/// it), or else one line of the game's notation (ending `; agreed by …`
/// optionally). Returns the play and the seats that agreed.
fn read_play(
    board: &dyn OpenBoard,
    text: &str,
    players: &[String],
) -> Result<(Value, Vec<usize>), MatchError> {
    let text = document::extract_code_block(text);
    if text.is_empty() {
        return Err(MatchError::usage(
            "the play is empty: type it in the game's notation, or give a YAML `play:` block",
        ));
    }
    document::precheck(text)?;
    let parsed = document::parse_value(text);
    // Written as YAML (`play: …`, `{…}`): its YAML error, not a notation one
    // about a player named "play".
    let yaml = text.trim_start().starts_with("play:") || text.trim_start().starts_with('{');
    if let Err(e) = &parsed
        && yaml
    {
        return Err(e.clone().into());
    }
    if let Ok(Value::Object(mut doc)) = parsed
        && doc.contains_key("play")
    {
        let agreed = match doc.remove("agreed_by") {
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            Some(Value::String(s)) => vec![s],
            _ => Vec::new(),
        };
        if let Some(extra) = doc.keys().find(|k| *k != "play") {
            return Err(BoardError::semantic(extra.as_str(), "give only the `play:` block (and `agreed_by:`); the board is the match's (change it with `match adjust` or `match setup`)").into());
        }
        let seats = agreed
            .iter()
            .map(|a| seat_named(players, a, || Ok(board.players())))
            .collect::<Result<_, _>>()?;
        return Ok((doc.remove("play").unwrap_or(Value::Null), seats));
    }
    if text.lines().count() > 1 {
        return Err(BoardError::semantic(
            "play",
            "a play in notation is one line; for more, give a YAML `play:` block",
        )
        .into());
    }
    let (line, agreed) = split_agreed(text);
    let seats = agreed
        .iter()
        .map(|a| seat_named(players, a, || Ok(board.players())))
        .collect::<Result<_, _>>()?;
    Ok((board.parse_notation(line)?, seats))
}

/// `…; agreed by @B, @C` → (the play, the names that agreed).
fn split_agreed(line: &str) -> (&str, Vec<String>) {
    let clauses = engine::kit::notation::clauses(line);
    match clauses
        .last()
        .and_then(|c| engine::kit::notation::strip_word(c, &["agreed by", "agreed"]))
    {
        Some(names) => {
            let cut = line.rfind(';').unwrap_or(line.len());
            (line[..cut].trim(), engine::kit::notation::list(names))
        }
        None => (line, Vec::new()),
    }
}

pub(super) fn without_play(state: Value) -> Value {
    match state {
        Value::Object(mut o) => {
            o.remove("play");
            o.remove("plays");
            Value::Object(o)
        }
        other => other,
    }
}

/// Where a ruling leaves the game: the status the engine computed with it
/// (no second read of the state), else read from the state.
fn ruling_status(ruling: &Ruling, engine: &dyn GameEngine) -> Option<Status> {
    ruling
        .status
        .clone()
        .or_else(|| engine.status(&ruling.state).ok())
}

/// Refuses a player's advance that would settle a shared field (who acts
/// first) by the engine's default: the other players never agreed to it,
/// and whoever advanced first would decide it (found by an outside
/// tester). The field is agreed first with an `adjust` (a proposal the
/// other players confirm), or a moderator advances.
fn unagreed_refused(unagreed: &[engine::Unagreed]) -> Result<(), MatchError> {
    let Some(u) = unagreed.first() else {
        return Ok(());
    };
    Err(MatchError::forbidden(format!(
        "advancing now would settle `{f}` by a default nobody agreed to ({note}). Agree it first: `adjust {f} NAME` (a proposal the other players confirm), or ask a moderator to advance",
        f = u.field,
        note = u.note
    )))
}

/// Refuses a player's play that gives the turn to someone on a board that
/// says nobody's in its phase (a Legion board with no `turn` in the
/// Activation Phase): whoever played first took priority, nobody asked
/// (found by an outside tester). Who acts first is agreed, as for an
/// advance ([`unagreed_refused`]): `adjust turn NAME`, or a moderator's
/// entry.
fn turn_taken_unagreed(before: &Status, after: Option<&Status>) -> Result<(), MatchError> {
    let Some(after) = after.filter(|a| before.turn_seat.is_none() && a.phase == before.phase)
    else {
        return Ok(());
    };
    let Some(name) = after.turn.as_deref().filter(|_| after.turn_seat.is_some()) else {
        return Ok(());
    };
    Err(MatchError::forbidden(format!(
        "the board does not say whose `turn` it is in the {phase}, so this play would give it to {name} by whoever played first, which nobody agreed to. Agree it first: `adjust turn NAME` (a proposal the other players confirm), or ask a moderator to enter the play",
        phase = before.phase
    )))
}

/// How long a note that keeps losing the race to other writes is tried
/// again before the conflict is reported.
const NOTE_RETRY_FOR: std::time::Duration = std::time::Duration::from_secs(10);

/// The wait before a note's `tries`-th try again: up to 2 ms per try so
/// far (at most 40 ms), spread by the clock's nanoseconds so writers that
/// collided do not collide again in step.
fn note_backoff(tries: u64) -> std::time::Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::from(d.subsec_nanos()))
        .unwrap_or(0);
    let span = 2_000 * tries.min(20);
    std::time::Duration::from_micros(200 + nanos % span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_plays_write_them() {
        assert_eq!(plain_answer("do not counter"), "no counter");
        assert_eq!(plain_answer("No counter"), "no counter");
        assert_eq!(plain_answer("accepted"), "accept");
        assert_eq!(plain_answer("Declined"), "decline");
        assert_eq!(
            plain_answer("accept Ana's transaction"),
            "accept ana's transaction"
        );
    }

    #[test]
    fn undo_pops_the_last_event_in_effect() {
        let h = |seq, kind, undoes| EventHead { seq, kind, undoes };
        let heads = [
            h(1, EventKind::Setup, None),
            h(2, EventKind::Play, None),
            h(3, EventKind::Note, None),
            h(4, EventKind::Answer, None),
            h(5, EventKind::Undo, Some(4)),
            h(6, EventKind::Advance, None),
        ];
        assert_eq!(effective_stack(&heads), vec![1, 2, 3, 6]);
        // An older log whose undo passed over a note takes the note back too.
        let old = [
            h(1, EventKind::Setup, None),
            h(2, EventKind::Play, None),
            h(3, EventKind::Note, None),
            h(4, EventKind::Undo, Some(2)),
        ];
        assert_eq!(effective_stack(&old), vec![1]);
        // A board set up over another stacks on it; the first starts over
        // (a note before any board is not under it).
        let again = [
            h(1, EventKind::Note, None),
            h(2, EventKind::Setup, None),
            h(3, EventKind::Play, None),
            h(4, EventKind::Setup, None),
        ];
        assert_eq!(effective_stack(&again), vec![2, 3, 4]);
        assert_eq!(effective_stack(&again[..2]), vec![2]);
    }

    #[test]
    fn agreement_is_split_off_the_notation() {
        assert_eq!(
            split_agreed("attack Maeoni with X; block X with Y; agreed by @Maeoni"),
            (
                "attack Maeoni with X; block X with Y",
                vec!["@Maeoni".to_string()]
            )
        );
        assert_eq!(split_agreed("pass"), ("pass", vec![]));
    }
}
