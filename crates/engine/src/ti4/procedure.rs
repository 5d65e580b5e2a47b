//! The action phase as a turn-order state machine on the board: each play is
//! checked against the rules of the "Action Phase" entry and applied. The
//! player's own impossible plays are illegal; the other party's agreement
//! to a transaction is theirs: asked of them, or read as declined (labelled).

use serde_json::json;

use super::board::{Abilities, Board, MAX_ABILITIES, Phase, Player, ThisTurn, TurnAction};
use super::plays::Play;
use super::rules::*;
use super::wording::{
    ASSUME_CANNOT_ACT, ASSUME_CARD_TIMING, ASSUME_INITIATIVE, ASSUME_LAST_TURN, ASSUME_SECONDARY,
    ASSUME_START_AFTER_PASS, ASSUME_STRATEGIC, ASSUME_STRATEGIC_ONE_CARD, ASSUME_TRANSACTION,
    ASSUME_TRANSACTION_OFF_TURN, ASSUME_TURN_END, Action, Asks, Between, Chose, DECLINE, Deed,
    Done, Ends, Held, Invalid, OutOfTurn, OwnTurn, Passing, Readied, Reading, Refusal, Says, Seat,
    Timed, Turn, Upcoming, Via, Why, initiative_of, topic_in_refusal, topic_note,
};
use crate::kit::bounded::Count;
use crate::kit::choices::Choice;
use crate::kit::{Chosen, Cx, Opt, Stop};
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
    End(Deed),
}

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
    let (name, next, passed) = (b.name(cur), names(b, &next), names(b, &passed));
    let upcoming = Upcoming {
        player: &name,
        player_passed: b.players[cur].passed,
        next: next.as_deref(),
        passed: passed.as_deref(),
    };
    upcoming.to_string()
}

/// The players of `seats` by name, if any.
fn names(b: &Board, seats: &[usize]) -> Option<String> {
    (!seats.is_empty()).then(|| b.list(seats))
}

/// Notes that the ruling relies on a Related Topic that is not indexed.
fn topic(cx: &mut Cx, t: &str) {
    note_topic(cx, topic_note(t));
}

/// [`topic`] for a reading stated in a refusal rather than on a step.
fn refusal_topic(cx: &mut Cx, t: &str) {
    note_topic(cx, topic_in_refusal(t));
}

fn note_topic(cx: &mut Cx, message: String) {
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
            let via = system.as_deref().map_or(Via::Unsaid, Via::System);
            action(b, p, TurnAction::Tactical, via, cx);
        }
        Play::ComponentAction { source, .. } => {
            let via = source.as_deref().map_or(Via::Unsaid, Via::Source);
            action(b, p, TurnAction::Component, via, cx);
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
    let seats = order.iter().map(|&i| seat(&b.players[i])).collect();
    let st = cx.step(R_INTRO, Turn::Order(seats));
    for &i in &order {
        st.num(&initiative_of(&b.players[i].name), b.initiative(i));
    }
    st.assume(ASSUME_INITIATIVE);
    if let (None, Some(i)) = (&b.turn, current(b)) {
        st.assume(Reading::FirstNotPassed(&b.name(i)));
    }
    topic(cx, TOPIC_INITIATIVE_ORDER);
}

/// A player as the opening step shows them.
fn seat(p: &Player) -> Seat<'_> {
    let cards = p.strategy_cards.iter().map(|c| Held {
        card: &c.name,
        initiative: c.initiative.map_or(0, Count::get),
        exhausted: c.exhausted,
    });
    Seat {
        name: &p.name,
        faction: p.faction.as_deref(),
        cards: cards.collect(),
        passed: p.passed,
    }
}

/// Closing step: whose turn it is now and whose turns follow.
fn closing(b: &mut Board, cx: &mut Cx) {
    if b.phase == Phase::Status && !cx.steps.iter().any(|s| s.rule == R5) {
        cx.step(R5, Turn::AllPassed);
        topic(cx, TOPIC_STATUS_PHASE);
    }
    let Some(cur) = current(b).filter(|_| b.phase == Phase::Action) else {
        return;
    };
    let (name, next) = (b.name(cur), upcoming(b, cur));
    b.turn = Some(name.clone());
    let t = &b.this_turn;
    let (player, upcoming) = (name.as_str(), next.as_str());
    let done = match (t.action, &t.card) {
        (TurnAction::None, _) => None,
        (TurnAction::Strategic, Some(c)) => Some(Done::Strategic(c)),
        (TurnAction::Pass, _) => Some(Done::Passed),
        (other, _) => Some(Done::Other(other.label())),
    };
    let still = done.is_some();
    let text = match done {
        None => Turn::Now {
            player,
            initiative: b.initiative(cur),
            upcoming,
        },
        Some(done) => Turn::Still {
            player,
            done,
            upcoming,
        },
    };
    let left = b.players.iter().filter(|p| !p.passed).count();
    let st = cx.step(R_INTRO, text);
    st.num("players not passed", left as i64);
    if still {
        st.assume(ASSUME_TURN_END);
    }
}

/// Ends the current turn and starts the next player's.
fn hand_on(b: &mut Board, why: Why, cx: &mut Cx) {
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
    let ends = Ends {
        player: &cur_name,
        why,
    };
    let st = match (next == cur, wrapped) {
        (true, _) => cx.step(R3_3, Turn::Consecutive(ends)),
        (_, true) => cx.step(
            R_INTRO,
            Turn::Again {
                ends,
                next: &next_name,
            },
        ),
        _ => cx.step(
            R_INTRO,
            Turn::Next {
                ends,
                next: &next_name,
            },
        ),
    };
    st.num(&initiative_of(&next_name), init);
    if !skipped.is_empty() {
        let (players, count) = (&b.list(&skipped), skipped.len());
        cx.step(R3, Turn::Skipped { players, count });
    }
}

/// Whether `p` may make a play that needs the turn: refuses plays outside
/// the action phase, out of initiative order, by passed players and second
/// actions; ends the current turn when it is complete and `p` is next.
fn turn_for(b: &mut Board, p: usize, need: Need, cx: &mut Cx) -> bool {
    let (pn, end) = (b.name(p), matches!(need, Need::End(_)));
    let deed = match need {
        Need::End(deed) => deed,
        _ => Deed::TakeTurn,
    };
    let player = pn.as_str();
    match b.phase {
        Phase::Strategy => cx.error_unruled("phase", OutOfTurn::StrategyPhase { player, deed }),
        Phase::Status if !end => cx.error(R5, "play", OutOfTurn::StatusPhase { player, deed }),
        _ => {}
    }
    if cx.failed() {
        return false;
    }
    let Some(cur) = current(b) else {
        cx.error(R5, "play", OutOfTurn::NoTurn);
        return false;
    };
    let (action, passed, cn) = (b.this_turn.action, b.players[p].passed, b.name(cur));
    let current = cn.as_str();
    match (cur == p, need) {
        (true, Need::End(Deed::EndAction)) if action == TurnAction::None => {
            cx.error_unruled("play", OwnTurn::NoActionEnded { player })
        }
        (true, Need::End(_)) if action == TurnAction::None => {
            cx.error(R2, "play", OwnTurn::NotActed { player })
        }
        (true, Need::End(_)) => {}
        // Recorded with its reading (`timed`): rule 3.1 does not say when.
        (true, Need::Start) if passed => {}
        (true, _) if passed => cx.error(R3, "play", OwnTurn::PassedThisTurn { player }),
        (true, _) if action == TurnAction::None => {}
        (true, _) if others_all_passed(b, p) => hand_on(b, Why::ActionDone, cx),
        (true, need) => acted_already(b, p, need, cx),
        _ if passed => cx.error(R3, "play", OutOfTurn::Passed { player, current }),
        (_, Need::End(deed)) => {
            let refusal = OutOfTurn::NotTheirs {
                player,
                current,
                deed,
            };
            cx.error(R_INTRO, "play", refusal)
        }
        _ if action == TurnAction::None => {
            let initiative = b.initiative(cur);
            let refusal = OutOfTurn::NotActedYet {
                player,
                current,
                initiative,
            };
            cx.error(R_INTRO, "play", refusal)
        }
        _ => match after(b, cur)
            .into_iter()
            .find(|(i, _)| !b.players[*i].passed)
        {
            Some((next, _)) if next == p => hand_on(b, Why::Begins(player), cx),
            Some((next, _)) => {
                let refusal = OutOfTurn::NotNext {
                    player,
                    initiative: b.initiative(p),
                    current,
                    next: &b.name(next),
                    next_initiative: b.initiative(next),
                };
                cx.error(R_INTRO, "play", refusal)
            }
            None => cx.error(R5, "play", OutOfTurn::AllPassed),
        },
    }
    !cx.failed()
}

/// A play that needs the turn's action (or pass), by `p` whose turn it is,
/// after the action: refused.
fn acted_already(b: &Board, p: usize, need: Need, cx: &mut Cx) {
    let (pn, done, order) = (b.name(p), b.this_turn.action.label(), upcoming(b, p));
    let (player, upcoming) = (pn.as_str(), order.as_str());
    match need {
        Need::Pass => {
            let refusal = OwnTurn::PassAfterAction {
                player,
                done,
                upcoming,
            };
            cx.error(R_INTRO, "play", refusal)
        }
        Need::Start => cx.error_unruled("play", OwnTurn::StartAfterAction { player, done }),
        _ => {
            let refusal = OwnTurn::SecondAction {
                player,
                done,
                upcoming,
            };
            cx.error(R1, "play", refusal)
        }
    }
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
    let (player, name) = (pn.as_str(), card.name.as_str());
    if owner != p {
        let owner = &b.name(owner);
        let refusal = Refusal::NotOwnCard {
            player,
            card: name,
            owner,
        };
        // Rule 4 does not say it: the Strategic Action reading (no rule).
        cx.error_unruled("play.card", refusal);
        refusal_topic(cx, TOPIC_STRATEGIC_ACTION);
    } else if card.exhausted {
        let two_cards = b.two_cards();
        let refusal = Refusal::Exhausted {
            player,
            card: name,
            two_cards,
        };
        cx.error_unruled("play.card", refusal);
        refusal_topic(cx, TOPIC_STRATEGIC_ACTION);
        refusal_topic(cx, TOPIC_GAME_ROUND);
    }
    if cx.failed() || !turn_for(b, p, Need::Action, cx) {
        return Ok(());
    }
    b.players[p].strategy_cards[ci].exhausted = true;
    b.this_turn.action = TurnAction::Strategic;
    b.this_turn.card = Some(name.to_string());
    cx.step(R1, Says::Strategic { player, card: name })
        .num(&initiative_of(name), card.initiative.map_or(0, Count::get))
        .chose(player, Chose::Strategic(name))
        .assume(match b.two_cards() {
            true => ASSUME_STRATEGIC,
            false => ASSUME_STRATEGIC_ONE_CARD,
        });
    topic(cx, TOPIC_STRATEGIC_ACTION);
    let left = b.readied(p);
    if !left.is_empty() {
        let cards = &left.join(", ");
        cx.step(R4_1, Says::StillReadied { player, cards });
    } else if b.two_cards() {
        cx.step(R4_1, Says::BothExhausted { player });
    } else {
        cx.step(R4, Says::MayPass { player });
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
        let question = Asks::WhichCard(&b.name(p)).to_string();
        (question, readied.into_iter().map(opt).collect())
    };
    Ok(choice.settle(cx, None, ask)?.value())
}

/// A tactical or component action: the turn's one action.
fn action(b: &mut Board, p: usize, kind: TurnAction, via: Via, cx: &mut Cx) {
    if !turn_for(b, p, Need::Action, cx) {
        return;
    }
    b.this_turn.action = kind;
    let t = match kind {
        TurnAction::Tactical => TOPIC_TACTICAL_ACTION,
        _ => TOPIC_COMPONENT_ACTION,
    };
    let tactical = kind == TurnAction::Tactical;
    let (pn, action) = (b.name(p), Action { tactical, via });
    cx.step(
        R1,
        Says::Performs {
            player: &pn,
            action,
        },
    )
    .chose(&pn, Chose::Action(action))
    .assume(Reading::ActionTopic(t));
    topic(cx, t);
}

fn action_card(b: &mut Board, p: usize, card: &str, component: Option<bool>, cx: &mut Cx) {
    let (pn, passed) = (b.name(p), b.players[p].passed);
    let player = pn.as_str();
    if component == Some(true) && passed {
        cx.error(N1, "play", Refusal::ComponentAfterPass { player, card });
        cx.error(R3, "play", Refusal::ComponentIsAction { player });
        return;
    } else if component == Some(true) {
        let via = Via::ActionCard(card);
        return action(b, p, TurnAction::Component, via, cx);
    }
    let st = match passed {
        true => cx.step(N1, Says::CardAfterPass { player, card }),
        false => cx.step(R1, Says::CardNotAction { player, card }),
    };
    st.chose(player, Chose::Play(card));
    if !passed {
        st.assume(ASSUME_CARD_TIMING);
    }
    match component {
        None => st.assume(Reading::NotComponent(card)),
        Some(_) => st.assume(Reading::StatedNotComponent { player, card }),
    };
}

/// A pass while a strategy card is readied: refused (rule 2, when claimed,
/// weighed and set aside on its own step).
fn cannot_pass(b: &Board, p: usize, cannot_act: bool, cx: &mut Cx) {
    let (pn, readied) = (b.name(p), b.readied(p));
    let player = pn.as_str();
    let readied = Readied {
        cards: &readied.join(" and "),
        count: readied.len(),
        two_cards: b.two_cards(),
    };
    let rule = if b.two_cards() { "4.1" } else { "4" };
    if cannot_act {
        // Rule 2, weighed and set aside, is cited on its own step.
        cx.step(R2, Passing::SetAside { player, rule })
            .assume(Reading::Prevails { rule, player });
    }
    let refusal = Refusal::CannotPass {
        player,
        readied,
        set_aside: cannot_act,
    };
    cx.error(b.card_rule(), "play", refusal);
}

fn pass(b: &mut Board, p: usize, cannot_act: bool, cx: &mut Cx) {
    if !b.players[p].passed && !b.readied(p).is_empty() {
        return cannot_pass(b, p, cannot_act, cx);
    }
    let pn = b.name(p);
    let player = pn.as_str();
    if !turn_for(b, p, Need::Pass, cx) {
        if cannot_act {
            cx.note(Some("play.cannot_act"), Refusal::ClaimNotRead { player });
        }
        return;
    }
    b.players[p].passed = true;
    b.this_turn.action = TurnAction::Pass;
    b.turn = Some(pn.clone());
    if cannot_act {
        cx.step(R2, Passing::MustPass { player })
            .chose(player, Chose::PassCannotAct)
            .assume(ASSUME_CANNOT_ACT);
    }
    let st = cx.step(R3, Passing::Passes { player });
    if !cannot_act {
        st.chose(player, Chose::Pass);
    }
    let started = &b.this_turn.start_of_turn;
    if !started.is_empty() {
        let abilities = &started.join(", ");
        cx.step(R3_1, Passing::StartStands { player, abilities });
    }
    let (left, passed) = (
        b.waiting(),
        b.players.iter().filter(|q| q.passed).count() as i64,
    );
    match left.as_slice() {
        [] => {
            cx.step(R5, Passing::LastToPass { player })
                .num("players passed", passed);
            b.phase = Phase::Status;
            topic(cx, TOPIC_STATUS_PHASE);
        }
        [only] => {
            let only = b.name(*only);
            cx.step(R3_3, Passing::OnlyLeft { player: &only })
                .num("players passed", passed);
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
        return Err(BoardError::semantic("play.with", Invalid::SameParty).into());
    }
    let (pn, qn, cur) = (b.name(p), b.name(q), current(b));
    let passing = |i| cur == Some(i) && b.this_turn.action == TurnAction::Pass;
    // A passed party off its passing turn: rule 3.1 permits the passing
    // turn without saying "only then", so the engine records it, the
    // reading named (as for any transaction off its parties' turns).
    let (mut reading, mut off) = (None, Vec::new());
    for (i, other) in [(p, q), (q, p)] {
        let n = b.name(i);
        if b.players[i].passed && !passing(i) && cur != Some(other) {
            off.push(n);
        } else if b.players[i].passed && !passing(i) {
            reading = Some(Reading::PassedParty(&n).to_string());
        }
    }
    if !off.is_empty() {
        let (who, both) = (off.join(" and "), off.len() > 1);
        reading = Some(Reading::PassedOffTurn { who: &who, both }.to_string());
    }
    let on_pass = passing(p) || passing(q);
    let rule = if on_pass { R3_1 } else { R1 };
    let (player, with) = (pn.as_str(), qn.as_str());
    let passer = if passing(p) { player } else { with };
    let plain = match cur == Some(p) || cur == Some(q) {
        true => ASSUME_TRANSACTION,
        false => ASSUME_TRANSACTION_OFF_TURN,
    };
    let st = match on_pass {
        true => cx.step(
            R3_1,
            Between::TransactionOnPass {
                player,
                with,
                passer,
            },
        ),
        false => cx
            .step(R1, Between::Transaction { player, with })
            .assume(reading.unwrap_or(plain.into())),
    };
    st.chose(player, Chose::Transaction(with));
    if !on_pass {
        topic(cx, TOPIC_ACTIVE_PLAYER);
    }
    let accepted = answer(q, accepted, rule, (player, with), cx)?;
    let st = match accepted.value() {
        true => cx.step(rule, Between::Agrees { player, with }),
        false => cx.step(rule, Between::Declines { with }),
    };
    accepted.on(st, with, Chose::Answer(accepted.value()));
    Ok(())
}

/// The other party's answer to a transaction: stated, asked, or read as
/// declined. `names`: (the proposing player, the other party).
fn answer(
    q: usize,
    accepted: Option<bool>,
    rule: &'static str,
    (player, with): (&str, &str),
    cx: &mut Cx,
) -> Result<Chosen<bool>, Stop> {
    let why = Reading::Unanswered(with).to_string();
    // The indexed text gives no default: declining is assumed (the question
    // says so).
    let choice = Choice::new(q, "accepted", Some((false, &why)), rule, "play.accepted");
    let answer = |label: String, v: bool| Opt::field(label, v, "accepted", json!(v));
    choice.assuming().settle(cx, accepted, || {
        let options = vec![
            answer(Asks::Accepts(player).to_string(), true),
            answer(DECLINE.into(), false),
        ];
        (Asks::Accept { player, with }.to_string(), options)
    })
}

fn secondary(b: &mut Board, p: usize, typed: &str, cx: &mut Cx) -> Result<(), Stop> {
    let (seat, ci) = b.find_card(typed, "play.card")?;
    let card = b.players[seat].strategy_cards[ci].name.to_string();
    let (pn, on, t) = (b.name(p), b.name(seat), &b.this_turn);
    let (player, owner, card) = (pn.as_str(), on.as_str(), card.as_str());
    match b.phase {
        // Rule 3.2 is about passed players: that a card's owner never
        // resolves its secondary is the Strategic Action topic's (not
        // indexed), a reading stated in the refusal, which cites no rule
        // (it cited 3.2; found by an outside tester).
        _ if seat == p => {
            cx.error_unruled("play.card", Refusal::OwnSecondary { player, card });
            refusal_topic(cx, TOPIC_STRATEGIC_ACTION);
        }
        Phase::Status => cx.error(R5, "play", Refusal::SecondaryInStatus { card }),
        Phase::Strategy => cx.error_unruled("phase", Refusal::SecondaryInStrategy { card }),
        Phase::Action => {}
    }
    if cx.failed() {
        return Ok(());
    }
    let during = current(b) == Some(seat)
        && t.action == TurnAction::Strategic
        && t.card.as_deref() == Some(card);
    if !during {
        let warning = Refusal::NotResolving { owner, card };
        cx.warn(None, Some("play.card"), warning);
    }
    // The text is silent on a second resolution in one strategic action:
    // recorded, with the reading and its alternative (it went unsaid).
    let again = during && t.secondaries.iter().any(|s| s == player);
    if again {
        cx.warn(
            None,
            Some("play.card"),
            Refusal::SecondaryAgain { player, card },
        );
    }
    let st = match b.players[p].passed {
        true => cx.step(
            R3_2,
            Between::SecondaryAfterPass {
                player,
                card,
                owner,
            },
        ),
        false => cx
            .step(
                RT,
                Between::Secondary {
                    player,
                    card,
                    owner,
                },
            )
            .assume(ASSUME_SECONDARY),
    };
    st.chose(player, Chose::Secondary(card));
    topic(cx, TOPIC_STRATEGIC_ACTION);
    if during && !again {
        // One entry per seat, within the list's bound (the players).
        b.this_turn.secondaries.push(player.to_string());
    }
    Ok(())
}

/// Adds an ability to one of the turn's lists (at most [`MAX_ABILITIES`]).
fn record(list: &mut Abilities, ability: &str) -> Result<(), BoardError> {
    list.push(ability.to_string());
    (list.len() <= MAX_ABILITIES).then_some(()).ok_or_else(|| {
        BoardError::semantic("play.ability", Invalid::TooManyAbilities(MAX_ABILITIES))
    })
}

/// An ability with a turn timing: `start_of_turn`, `end_of_action`, `end_of_turn`.
fn timed(b: &mut Board, p: usize, play: &Play, ability: &str, cx: &mut Cx) -> Result<(), Stop> {
    let need = match play {
        Play::StartOfTurn { .. } => Need::Start,
        Play::EndOfAction { .. } => Need::End(Deed::EndAction),
        _ => Need::End(Deed::EndTurn),
    };
    if !turn_for(b, p, need, cx) {
        return Ok(());
    }
    let (pn, t, alone) = (b.name(p), &b.this_turn, others_all_passed(b, p));
    let player = pn.as_str();
    let after = !t.end_of_action.is_empty();
    let st = match play {
        Play::StartOfTurn { .. } if t.action == TurnAction::Pass => cx
            .step(N3, Timed::StartOnPass(player, ability))
            .assume(ASSUME_START_AFTER_PASS),
        Play::StartOfTurn { .. } if alone => cx.step(N4, Timed::StartAlone(player, ability)),
        Play::StartOfTurn { .. } => cx.step(N3, Timed::Start(player, ability)),
        Play::EndOfAction { .. } if !t.action.is_action() => {
            cx.error(R1, "play", Refusal::NoAction { player, ability });
            return Ok(());
        }
        Play::EndOfAction { .. } if !t.end_of_turn.is_empty() => {
            let abilities = &t.end_of_turn.join(", ");
            cx.error(N2, "play", Refusal::AfterEndOfTurn { player, abilities });
            return Ok(());
        }
        Play::EndOfAction { .. } => cx.step(N2, Timed::EndOfAction(player, ability)),
        _ if t.action == TurnAction::Pass => cx.step(N3, Timed::EndOnPass(player, ability)),
        _ if alone => cx.step(N4, Timed::EndAlone(player, ability)),
        _ => cx.step(N2, Timed::End(player, ability, after)),
    };
    st.chose(player, ability);
    if b.phase == Phase::Status {
        st.assume(ASSUME_LAST_TURN);
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
    if !turn_for(b, p, Need::End(Deed::EndTurn), cx) {
        return;
    }
    let pn = b.name(p);
    if b.phase != Phase::Status {
        return hand_on(b, Why::EndsIt(&pn), cx);
    }
    b.turn = None;
    b.this_turn = ThisTurn::default();
    cx.step(R5, Turn::LastEnds { player: &pn });
    topic(cx, TOPIC_STATUS_PHASE);
}
