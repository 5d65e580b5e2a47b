//! The action phase as a turn-order state machine on the board: each play is
//! checked against the rules of the "Action Phase" entry and applied. The
//! player's own impossible plays are illegal; the other party's agreement
//! to a transaction is theirs: asked of them, or read as declined (labelled).

use serde_json::json;

use super::board::{Abilities, Board, MAX_ABILITIES, Phase, ThisTurn, TurnAction};
use super::plays::Play;
use super::rules::*;
use crate::kit::bounded::Count;
use crate::kit::choices::Choice;
use crate::kit::{Cx, Opt, Stop};
use crate::{BoardError, Diagnostic, Severity};

/// What a play needs of the turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// A strategic, tactical or component action.
    Action,
    Pass,
    /// An "at the start of your turn" ability.
    Start,
    /// The player's own turn, after its action or pass (`end an action`).
    End(&'static str),
}

pub const ASSUME_INITIATIVE: &str = "Initiative Order is a Related Topic that is not indexed: a player's place in initiative order is read as the lowest initiative number among their strategy cards.";

/// The seat that makes the play: the player it names.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    b.seat(play.player(), "play.player")
}

/// The seat whose turn it is: the board's `turn`, else (in the action
/// phase) the first player in initiative order who has not passed.
pub fn current(b: &Board) -> Option<usize> {
    match (&b.turn, b.phase) {
        (Some(t), _) => b.players.iter().position(|p| p.name == t.as_str()),
        (None, Phase::Action) => b.waiting().first().copied(),
        _ => None,
    }
}

fn others_all_passed(b: &Board, p: usize) -> bool {
    b.players
        .iter()
        .enumerate()
        .all(|(j, q)| j == p || q.passed)
}

/// The seats after `cur` in initiative order, round to `cur` itself, and
/// whether each comes after the end of the order (turns begin again).
fn after(b: &Board, cur: usize) -> Vec<(usize, bool)> {
    let order = b.order();
    let pos = order.iter().position(|&i| i == cur).unwrap_or(0);
    let n = order.len();
    (1..=n)
        .map(|k| (order[(pos + k) % n], pos + k >= n))
        .collect()
}

/// Whose turns follow `cur`'s in initiative order, and who has passed.
pub fn upcoming(b: &Board, cur: usize) -> String {
    let seats: Vec<usize> = after(b, cur).into_iter().map(|(i, _)| i).collect();
    let next: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&i| i != cur && !b.players[i].passed)
        .collect();
    let passed: Vec<usize> = seats.into_iter().filter(|&i| b.players[i].passed).collect();
    let (name, next) = (b.name(cur), b.list(&next));
    let turns = match (next.is_empty(), b.players[cur].passed) {
        (true, true) => "no player is left to take a turn".to_string(),
        (true, false) => {
            format!("every other player has passed, so {name} takes the next turn too")
        }
        (false, true) => format!("next in initiative order: {next}"),
        (false, false) => format!("next in initiative order: {next}, then {name} again"),
    };
    match passed.is_empty() {
        true => format!("{turns}; no player has passed"),
        false => format!("{turns}; passed (no further turns): {}", b.list(&passed)),
    }
}

/// Notes that the ruling relies on a Related Topic that is not indexed.
fn topic(cx: &mut Cx, t: &str) {
    let message = format!(
        "This ruling relies on the Related Topic “{t}” of the Action Phase entry, which is not indexed; the reading chosen is stated in the step's assumption."
    );
    if !cx.diags.iter().any(|d| d.message == message) {
        let (severity, rule) = (Severity::Info, Some(RT.to_string()));
        cx.diags.push(Diagnostic {
            severity,
            message,
            rule,
            path: None,
        });
    }
}

/// Runs one play on the board.
pub fn run(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
    let p = actor(b, play)?;
    if cx.steps.is_empty() && b.phase != Phase::Strategy {
        opening(b, cx);
    }
    match play {
        Play::StrategicAction { card, .. } => strategic(b, p, card.as_deref(), cx)?,
        Play::TacticalAction { system, .. } => {
            let what = system.as_deref().map(|s| format!(", activating {s}"));
            action(b, p, TurnAction::Tactical, what.unwrap_or_default(), cx);
        }
        Play::ComponentAction { source, .. } => {
            let what = source.as_deref().map(|s| format!(" ({s})"));
            action(b, p, TurnAction::Component, what.unwrap_or_default(), cx);
        }
        Play::Pass { cannot_act, .. } => pass(b, p, *cannot_act, cx),
        Play::ActionCard {
            card, component, ..
        } => action_card(b, p, card, *component, cx),
        Play::Transaction { with, accepted, .. } => transaction(b, p, with, *accepted, cx)?,
        Play::Secondary { card, .. } => secondary(b, p, card, cx)?,
        Play::StartOfTurn { ability, .. }
        | Play::EndOfAction { ability, .. }
        | Play::EndOfTurn { ability, .. } => timed(b, p, play, ability, cx)?,
        Play::EndTurn { .. } => end_turn(b, p, cx),
    }
    if !cx.failed() {
        closing(b, cx);
    }
    Ok(())
}

/// Opening step: the initiative order and where the phase stands.
fn opening(b: &Board, cx: &mut Cx) {
    let order = b.order();
    let mut text = String::from("Initiative order: ");
    for (n, &i) in order.iter().enumerate() {
        if n > 0 {
            text.push_str("; ");
        }
        seat_summary(&mut text, &b.players[i]);
    }
    text.push('.');
    let st = cx.step(R_INTRO, text);
    for &i in &order {
        st.num(
            &format!("initiative {}", b.players[i].name),
            b.initiative(i),
        );
    }
    st.assume(ASSUME_INITIATIVE);
    if let (None, Some(i)) = (&b.turn, current(b)) {
        st.assume(format!("The document does not say whose turn it is; the engine takes {}, the first player in initiative order who has not passed.", b.name(i)));
    }
    topic(cx, TOPIC_INITIATIVE_ORDER);
}

/// "Name [Faction] (Warfare 6 exhausted, …) — passed", written in place.
fn seat_summary(out: &mut String, p: &super::board::Player) {
    use std::fmt::Write;
    out.push_str(&p.name);
    if let Some(f) = &p.faction {
        let _ = write!(out, " [{f}]");
    }
    out.push_str(" (");
    for (k, c) in p.strategy_cards.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{} {}", c.name, c.initiative.unwrap_or_default());
        if c.exhausted {
            out.push_str(" exhausted");
        }
    }
    out.push(')');
    if p.passed {
        out.push_str(" — passed");
    }
}

/// Closing step: whose turn it is now and whose turns follow.
fn closing(b: &mut Board, cx: &mut Cx) {
    if b.phase == Phase::Status && !cx.steps.iter().any(|s| s.rule == R5) {
        let text = "All players have passed: the action phase is over and play proceeds to the status phase.";
        cx.step(R5, text);
        topic(cx, TOPIC_STATUS_PHASE);
    }
    let Some(cur) = current(b).filter(|_| b.phase == Phase::Action) else {
        return;
    };
    let (name, next) = (b.name(cur), upcoming(b, cur));
    b.turn = Some(name.clone());
    let t = &b.this_turn;
    let done = match (t.action, &t.card) {
        (TurnAction::None, _) => {
            let init = b.initiative(cur);
            format!(
                "It is {name}'s turn (initiative {init}); {name} has not yet acted this turn; {next}."
            )
        }
        (TurnAction::Strategic, Some(c)) => format!("performed the strategic action of {c}"),
        (TurnAction::Pass, _) => "passed".to_string(),
        (other, _) => format!("performed {}", other.label()),
    };
    let text = match t.action {
        TurnAction::None => done,
        _ => format!(
            "It is still {name}'s turn: {name} has {done}. The turn ends when {name} ends it or when the next player begins theirs; {next}."
        ),
    };
    let left = b.players.iter().filter(|p| !p.passed).count();
    cx.step(R_INTRO, text)
        .num("players not passed", left as i64);
}

/// Ends the current turn and starts the next player's.
fn hand_on(b: &mut Board, why: &str, cx: &mut Cx) {
    let Some(cur) = current(b) else { return };
    b.this_turn = ThisTurn::default();
    let seats = after(b, cur);
    let Some(k) = seats.iter().position(|(i, _)| !b.players[*i].passed) else {
        b.turn = None;
        return;
    };
    let (next, wrapped) = seats[k];
    let skipped: Vec<usize> = seats[..k].iter().map(|(i, _)| *i).collect();
    let (cur_name, next_name, init) = (b.name(cur), b.name(next), b.initiative(next));
    b.turn = Some(next_name.clone());
    let ends = format!("{cur_name}'s turn ends ({why}).");
    let st = match (next == cur, wrapped) {
        (true, _) => cx.step(R3_3, format!("{ends} All other players have passed, so {cur_name} takes another, consecutive turn.")),
        (_, true) => cx.step(R_INTRO, format!("{ends} Every player has had a turn, so turns begin again in initiative order: it is {next_name}'s turn.")),
        _ => cx.step(R_INTRO, format!("{ends} Next in initiative order: it is {next_name}'s turn.")),
    };
    st.num(&format!("initiative {next_name}"), init);
    if !skipped.is_empty() {
        let verb = if skipped.len() == 1 { "is" } else { "are" };
        let who = b.list(&skipped);
        cx.step(
            R3,
            format!(
                "{who} passed earlier and {verb} skipped: a passed player has no further turns."
            ),
        );
    }
}

/// Whether `p` may make a play that needs the turn: refuses plays outside
/// the action phase, out of initiative order, by passed players and second
/// actions; ends the current turn when it is complete and `p` is next.
fn turn_for(b: &mut Board, p: usize, need: Need, cx: &mut Cx) -> bool {
    let (pn, end) = (b.name(p), matches!(need, Need::End(_)));
    let what = match need {
        Need::End(what) => what,
        _ => "take a turn",
    };
    match b.phase {
        Phase::Strategy => cx.error_unruled("phase", format!("the round is in the strategy phase: the action phase has not begun, so {pn} cannot {what} (advance to it once every player holds their strategy cards)")),
        Phase::Status if !end => cx.error(R5, "play", format!("all players have passed: the action phase is over and play has proceeded to the status phase, so {pn} cannot {what}")),
        _ => {}
    }
    if cx.failed() {
        return false;
    }
    let Some(cur) = current(b) else {
        cx.error(
            R5,
            "play",
            "the action phase is over and no turn is under way",
        );
        return false;
    };
    let (action, passed, cn) = (b.this_turn.action, b.players[p].passed, b.name(cur));
    match (cur == p, need) {
        (true, Need::End(_)) if action == TurnAction::None => cx.error(R2, "play", format!("{pn} has neither performed an action nor passed this turn, so the turn cannot end yet; a player who cannot perform an action must pass")),
        (true, Need::End(_)) => {}
        (true, Need::Start) if passed => cx.error(R3, "play", format!("{pn} has already passed this turn; “at the start of your turn” abilities come at the start of the turn, before the pass")),
        (true, _) if passed => cx.error(R3, "play", format!("{pn} passed this turn and cannot perform additional actions during this action phase")),
        (true, _) if action == TurnAction::None => {}
        (true, _) if others_all_passed(b, p) => hand_on(b, "its action is done", cx),
        (true, need) => {
            let (done, order) = (action.label(), upcoming(b, cur));
            match need {
                Need::Pass => cx.error(R_INTRO, "play", format!("{pn} has already performed {done} this turn, and a turn holds a single action or a pass; {pn} can pass on their next turn ({order})")),
                Need::Start => cx.error_unruled("play", format!("{pn} has already performed {done} this turn; an “at the start of your turn” ability resolves at the start of the turn, before the action (the ability's own timing)")),
                _ => cx.error(R1, "play", format!("{pn} has already performed {done} this turn; a player performs one action per turn (strategic, tactical or component); {order}")),
            }
        }
        _ if passed => cx.error(R3, "play", format!("{pn} has passed: after a player has passed they have no further turns and cannot perform additional actions during this action phase (it is {cn}'s turn)")),
        (_, Need::End(what)) => cx.error(R_INTRO, "play", format!("it is {cn}'s turn, not {pn}'s; {pn} cannot {what} out of initiative order")),
        _ if action == TurnAction::None => cx.error(R_INTRO, "play", format!("it is {cn}'s turn (initiative {}) and {cn} has not yet performed an action or passed; {pn} cannot act out of initiative order", b.initiative(cur))),
        _ => match after(b, cur).into_iter().find(|(i, _)| !b.players[*i].passed) {
            Some((next, _)) if next == p => hand_on(b, &format!("{pn} begins the next turn"), cx),
            Some((next, _)) => cx.error(R_INTRO, "play", format!("after {cn}'s turn the next player in initiative order is {} (initiative {}), not {pn} (initiative {}); players take turns in initiative order", b.name(next), b.initiative(next), b.initiative(p))),
            None => cx.error(R5, "play", "all players have passed"),
        },
    }
    !cx.failed()
}

fn strategic(b: &mut Board, p: usize, typed: Option<&str>, cx: &mut Cx) -> Result<(), Stop> {
    let pn = b.name(p);
    if b.phase != Phase::Action {
        turn_for(b, p, Need::Action, cx);
        return Ok(());
    }
    let (owner, ci) = match typed {
        Some(c) => b.find_card(c, "play.card")?,
        None => (p, own_card(b, p, cx)?),
    };
    let card = b.players[owner].strategy_cards[ci].clone();
    let name = &card.name;
    if owner != p {
        cx.error(R4, "play.card", format!("{name} is {}'s strategy card; {pn} can only perform the strategic action of their own strategy card (they may resolve its secondary ability instead)", b.name(owner)));
    } else if card.exhausted {
        cx.error(RT, "play.card", format!("{name} is already exhausted: {pn} has performed its strategic action this round (Strategic Action is a Related Topic that is not indexed; the engine reads an exhausted card as spent, as rule 4.1 ties passing to exhausting the cards)"));
        topic(cx, TOPIC_STRATEGIC_ACTION);
        topic(cx, TOPIC_GAME_ROUND);
    }
    if cx.failed() || !turn_for(b, p, Need::Action, cx) {
        return Ok(());
    }
    b.players[p].strategy_cards[ci].exhausted = true;
    b.this_turn.action = TurnAction::Strategic;
    b.this_turn.card = Some(name.to_string());
    cx.step(R1, format!("{pn} performs the strategic action of {name}: the one action of this turn. {name} is exhausted."))
        .num(&format!("initiative {name}"), card.initiative.map_or(0, Count::get))
        .chose(&pn, format!("strategic action of {name}"))
        .assume("Strategic Action is a Related Topic that is not indexed: performing a card's strategic action is read as exhausting it (rule 4.1 speaks of exhausting the cards before passing); the primary and secondary abilities themselves are not adjudicated.");
    topic(cx, TOPIC_STRATEGIC_ACTION);
    let left = b.readied(p);
    if !left.is_empty() {
        cx.step(
            R4_1,
            format!(
                "{pn} still has {} readied and cannot pass until it is exhausted.",
                left.join(", ")
            ),
        );
    } else if b.two_cards() {
        cx.step(
            R4_1,
            format!(
                "Both of {pn}'s strategy cards are now exhausted: {pn} may pass on a later turn."
            ),
        );
    } else {
        cx.step(R4, format!("{pn} has performed the strategic action of their strategy card: {pn} may pass on a later turn."));
    }
    Ok(())
}

/// The card of a strategic action that does not name it: the player's
/// readied card, or (with two readied) their choice, asked.
fn own_card(b: &Board, p: usize, cx: &mut Cx) -> Result<usize, Stop> {
    let cards = &b.players[p].strategy_cards;
    let readied: Vec<usize> = (0..cards.len()).filter(|&j| !cards[j].exhausted).collect();
    if readied.len() < 2 {
        return Ok(readied.first().copied().unwrap_or(0));
    }
    let opt = |j: usize| Opt::field(cards[j].name.as_str(), j, "card", json!(cards[j].name));
    let choice = Choice::new(p, "card", None, R1, "play.card");
    let ask = || {
        let question = format!(
            "{}: the strategic action of which strategy card?",
            b.name(p)
        );
        (question, readied.into_iter().map(opt).collect())
    };
    Ok(choice.settle(cx, None, ask)?.value())
}

/// A tactical or component action: the turn's one action.
fn action(b: &mut Board, p: usize, kind: TurnAction, what: String, cx: &mut Cx) {
    if !turn_for(b, p, Need::Action, cx) {
        return;
    }
    b.this_turn.action = kind;
    let (label, t) = match kind {
        TurnAction::Tactical => ("tactical action", TOPIC_TACTICAL_ACTION),
        _ => ("component action", TOPIC_COMPONENT_ACTION),
    };
    let pn = b.name(p);
    cx.step(R1, format!("{pn} performs a {label}{what}: the one action of this turn."))
        .chose(&pn, format!("{label}{what}"))
        .assume(format!("{t} is a Related Topic that is not indexed: the engine checks only when the action may be taken, not what it does."));
    topic(cx, t);
}

fn action_card(b: &mut Board, p: usize, card: &str, component: Option<bool>, cx: &mut Cx) {
    let (pn, passed) = (b.name(p), b.players[p].passed);
    if component == Some(true) && passed {
        cx.error(N1, "play", format!("{pn} has passed: only non-component action cards may still be played after passing, and {card} is a component action"));
        cx.error(R3, "play", format!("{pn} has passed and cannot perform additional actions during this action phase; a component action card is a component action"));
        return;
    } else if component == Some(true) {
        return action(
            b,
            p,
            TurnAction::Component,
            format!(" (action card {card})"),
            cx,
        );
    }
    let st = match passed {
        true => cx.step(N1, format!("{pn} has passed but plays {card}, a non-component action card: players may still play those after passing.")),
        false => cx.step(R1, format!("{pn} plays {card}, a non-component action card: it is not one of the three types of actions, so it does not use a turn's action.")),
    };
    st.chose(&pn, format!("play {card}"));
    if !passed {
        st.assume(
            "The timing written on the action card is not in the indexed text and is not checked.",
        );
    }
    if component.is_none() {
        st.assume(format!("{card} is not marked `component: true`, so it is read as a non-component action card (alternative: a component action card, which would be the turn's action)"));
    }
}

fn pass(b: &mut Board, p: usize, cannot_act: bool, cx: &mut Cx) {
    let (pn, readied) = (b.name(p), b.readied(p));
    if !b.players[p].passed && !readied.is_empty() {
        let list = readied.join(" and ");
        let why = match b.two_cards() {
            true => format!(
                "{list} {} still readied, and in a three- or four-player game a player cannot pass until both of their strategy cards are exhausted",
                if readied.len() == 1 { "is" } else { "are" }
            ),
            false => format!(
                "they have not yet performed the strategic action of their strategy card ({list} is readied)"
            ),
        };
        let rule = if b.two_cards() { "4.1" } else { "4" };
        if cannot_act {
            // Rule 2, weighed and set aside, is cited on its own step.
            cx.step(R2, format!("{pn} states they cannot perform an action; rule 2 says such a player must pass, but this ruling sets it aside for rule {rule}: a readied strategy card still offers its strategic action."))
                .assume(format!("a reading: rule {rule} prevails over rule 2 while a strategy card is readied (the alternative is that rule 2 lets {pn} pass anyway)"));
        }
        let aside = if cannot_act {
            " (rule 2, weighed and set aside: see its step)"
        } else {
            ""
        };
        cx.error(
            b.card_rule(),
            "play",
            format!("{pn} cannot pass: {why}{aside}"),
        );
        return;
    }
    if !turn_for(b, p, Need::Pass, cx) {
        if cannot_act {
            cx.note(Some("play.cannot_act"), format!("{pn}'s claim to be unable to act (rule 2) is not read: the pass itself is refused"));
        }
        return;
    }
    b.players[p].passed = true;
    b.this_turn.action = TurnAction::Pass;
    b.turn = Some(pn.clone());
    if cannot_act {
        cx.step(R2, format!("{pn} cannot perform an action, so {pn} must pass."))
            .chose(&pn, "pass (cannot act)")
            .assume("the board does not list what else the player could do, so the claim is taken as stated");
    }
    let st = cx.step(R3, format!("{pn} passes: {pn} has no further turns and cannot perform additional actions during this action phase."));
    if !cannot_act {
        st.chose(&pn, "pass");
    }
    let started = &b.this_turn.start_of_turn;
    if !started.is_empty() {
        cx.step(R3_1, format!("The “at the start of your turn” abilities {pn} resolved this turn ({}) stand: a player can resolve them during the turn they pass.", started.join(", ")));
    }
    let (left, passed) = (
        b.waiting(),
        b.players.iter().filter(|q| q.passed).count() as i64,
    );
    match left.as_slice() {
        [] => {
            cx.step(R5, format!("{pn} was the last player to pass. All players have passed: play proceeds to the status phase.")).num("players passed", passed);
            b.phase = Phase::Status;
            topic(cx, TOPIC_STATUS_PHASE);
        }
        [only] => {
            let only = b.name(*only);
            cx.step(R3_3, format!("Only {only} has not passed: {only} will take consecutive turns until they pass.")).num("players passed", passed);
        }
        _ => {}
    }
}

fn transaction(
    b: &Board,
    p: usize,
    with: &str,
    accepted: Option<bool>,
    cx: &mut Cx,
) -> Result<(), Stop> {
    let q = b.seat(with, "play.with")?;
    if q == p {
        return Err(
            BoardError::semantic("play.with", "a transaction needs two different players").into(),
        );
    }
    let (pn, qn, cur) = (b.name(p), b.name(q), current(b));
    let passing = |i| cur == Some(i) && b.this_turn.action == TurnAction::Pass;
    let mut reading = None;
    for (i, other) in [(p, q), (q, p)] {
        let n = b.name(i);
        if b.players[i].passed && !passing(i) && cur != Some(other) {
            cx.error(R3, "play", format!("{n} has passed and has no further turns; rule 3.1 lets a player resolve transactions during the turn they pass, and it is not {n}'s turn nor {}'s", b.name(other)));
            return Ok(());
        } else if b.players[i].passed && !passing(i) {
            reading = Some(format!(
                "{n} passed earlier and is not on the turn they passed; the indexed text (rule 3.1) speaks only of that turn, so the engine allows a passed player to be the other party of the transaction of the player whose turn it is (alternative reading: rule 3 keeps {n} out of it)."
            ));
        }
    }
    let on_pass = passing(p) || passing(q);
    let rule = if on_pass { R3_1 } else { R1 };
    let who = if passing(p) { &pn } else { &qn };
    let plain = match cur == Some(p) || cur == Some(q) {
        true => {
            "Transactions have no entry in the indexed text: the engine records it as not being an action."
        }
        false => {
            "Transactions have no entry in the indexed text, and neither player is the one whose turn it is; the engine records it without checking its timing."
        }
    };
    let st = match on_pass {
        true => cx.step(R3_1, format!("{pn} and {qn} may resolve a transaction during the turn {who} passes: a player can resolve transactions on that turn.")),
        false => cx.step(R1, format!("{pn} and {qn} may resolve a transaction; it is not one of the three types of actions, so it does not use the turn.")).assume(reading.unwrap_or(plain.into())),
    };
    st.chose(&pn, format!("transaction with {qn}"));
    if !on_pass {
        topic(cx, TOPIC_ACTIVE_PLAYER);
    }
    let why = format!(
        "{qn}'s answer is not stated; a transaction needs both players' agreement and the indexed text (which has no entry for transactions) gives no default, so it is read as declined (alternative: wait for {qn}'s answer)"
    );
    // The indexed text gives no default: declining is assumed (the question
    // says so).
    let choice = Choice::new(q, "accepted", Some((false, &why)), rule, "play.accepted");
    let answer = |label: String, v: bool| Opt::field(label, v, "accepted", json!(v));
    let chosen = choice.assuming().settle(cx, accepted, || {
        let options = vec![
            answer(format!("accept {pn}'s transaction"), true),
            answer("decline".into(), false),
        ];
        (
            format!("{qn}: accept the transaction {pn} proposes?"),
            options,
        )
    })?;
    let st = match chosen.value() {
        true => cx.step(
            rule,
            format!("{qn} agrees: {pn} and {qn} resolve the transaction."),
        ),
        false => cx.step(
            rule,
            format!("{qn} does not agree: no transaction takes place."),
        ),
    };
    let what = if chosen.value() {
        "to accept"
    } else {
        "to decline"
    };
    chosen.on(st, &qn, format!("{what} the transaction"));
    Ok(())
}

fn secondary(b: &Board, p: usize, typed: &str, cx: &mut Cx) -> Result<(), Stop> {
    let (owner, ci) = b.find_card(typed, "play.card")?;
    let card = b.players[owner].strategy_cards[ci].name.to_string();
    let (pn, on, t) = (b.name(p), b.name(owner), &b.this_turn);
    match b.phase {
        _ if owner == p => cx.error(R3_2, "play.card", format!("{card} is {pn}'s own strategy card; the secondary ability is resolved by the other players (“the secondary ability of other players’ strategy cards”)")),
        Phase::Status => cx.error(R5, "play", format!("all players have passed: the action phase is over and play has proceeded to the status phase, so {card}'s secondary ability can no longer be resolved")),
        Phase::Strategy => cx.error_unruled("phase", format!("the round is in the strategy phase: {card}'s strategic action (and so its secondary ability) belongs to the action phase")),
        Phase::Action => {}
    }
    if cx.failed() {
        return Ok(());
    }
    if current(b) != Some(owner)
        || t.action != TurnAction::Strategic
        || t.card.as_ref() != Some(&card)
    {
        cx.warn(Some(RT), Some("play.card"), format!("{on} is not resolving the strategic action of {card} right now; Strategic Action is a Related Topic that is not indexed, so the engine does not rule on when a secondary ability may be resolved"));
    }
    let st = match b.players[p].passed {
        true => cx.step(R3_2, format!("{pn} has passed but resolves the secondary ability of {card} ({on}'s card): a passed player can still do so.")),
        false => cx.step(RT, format!("{pn} resolves the secondary ability of {card} ({on}'s card); it is not {pn}'s action.")).assume("Strategic Action (which governs secondary abilities) is a Related Topic that is not indexed: the engine records the secondary ability without adjudicating it."),
    };
    st.chose(&pn, format!("secondary ability of {card}"));
    topic(cx, TOPIC_STRATEGIC_ACTION);
    Ok(())
}

/// Adds an ability to one of the turn's lists (at most [`MAX_ABILITIES`]).
fn record(list: &mut Abilities, ability: &str) -> Result<(), BoardError> {
    list.push(ability.to_string());
    let full = format!("more than {MAX_ABILITIES} abilities in one turn");
    (list.len() <= MAX_ABILITIES)
        .then_some(())
        .ok_or_else(|| BoardError::semantic("play.ability", full))
}

/// An ability with a turn timing: `start_of_turn`, `end_of_action`, `end_of_turn`.
fn timed(b: &mut Board, p: usize, play: &Play, ability: &str, cx: &mut Cx) -> Result<(), Stop> {
    let need = match play {
        Play::StartOfTurn { .. } => Need::Start,
        Play::EndOfAction { .. } => Need::End("end an action"),
        _ => Need::End("end a turn"),
    };
    if !turn_for(b, p, need, cx) {
        return Ok(());
    }
    let (pn, t, alone) = (b.name(p), &b.this_turn, others_all_passed(b, p));
    let after = if t.end_of_action.is_empty() {
        ""
    } else {
        " (after the end-of-action abilities)"
    };
    let st = match play {
        Play::StartOfTurn { .. } if alone => cx.step(N4, format!("{pn} resolves “{ability}” at the start of their turn: with all other players passed, they continue to resolve start-of-turn abilities.")),
        Play::StartOfTurn { .. } => cx.step(N3, format!("{pn} resolves “{ability}” at the start of their turn (it stands even if {pn} passes this turn).")),
        Play::EndOfAction { .. } if !t.action.is_action() => {
            cx.error(R1, "play", format!("{pn} passed this turn: passing is not one of the three types of actions, so there is no action whose end could trigger “{ability}”"));
            return Ok(());
        }
        Play::EndOfAction { .. } if !t.end_of_turn.is_empty() => {
            cx.error(N2, "play", format!("{pn} has already resolved end-of-turn abilities ({}); abilities at the end of an action happen before any at the end of a player's turn", t.end_of_turn.join(", ")));
            return Ok(());
        }
        Play::EndOfAction { .. } => cx.step(N2, format!("{pn} resolves “{ability}” at the end of their action, before any end-of-turn ability.")),
        _ if t.action == TurnAction::Pass => cx.step(N3, format!("{pn} resolves “{ability}” at the end of the turn they passed on: a player may do so on the turn they pass.")),
        _ if alone => cx.step(N4, format!("{pn} resolves “{ability}” at the end of their turn: with all other players passed, they continue to resolve end-of-turn abilities.")),
        _ => cx.step(N2, format!("{pn} resolves “{ability}” at the end of their turn{after}; no end-of-action ability can follow it this turn.")),
    };
    st.chose(&pn, ability);
    if b.phase == Phase::Status {
        st.assume("The last pass ended the action phase; the engine lets that turn's end-of-turn abilities resolve as the turn closes, before the status phase (Status Phase is a Related Topic that is not indexed).");
        topic(cx, TOPIC_STATUS_PHASE);
    }
    let t = &mut b.this_turn;
    match play {
        Play::StartOfTurn { .. } => record(&mut t.start_of_turn, ability)?,
        Play::EndOfAction { .. } => record(&mut t.end_of_action, ability)?,
        _ => record(&mut t.end_of_turn, ability)?,
    }
    Ok(())
}

fn end_turn(b: &mut Board, p: usize, cx: &mut Cx) {
    if !turn_for(b, p, Need::End("end a turn"), cx) {
        return;
    }
    let pn = b.name(p);
    if b.phase != Phase::Status {
        return hand_on(b, &format!("{pn} ends it"), cx);
    }
    b.turn = None;
    b.this_turn = ThisTurn::default();
    cx.step(
        R5,
        format!(
            "{pn}'s turn, the last of the action phase, ends; play proceeds to the status phase."
        ),
    );
    topic(cx, TOPIC_STATUS_PHASE);
}
