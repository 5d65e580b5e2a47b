//! Whole-game matches through the match service, on SQLite and PostgreSQL,
//! with the Ashes Reborn engine: a play waiting on the defender's decision,
//! answered by her (and refused from anyone else, from a stale question, or
//! while it waits), undo re-asking a question, adjust with its rights and
//! undo, passes and advance across rounds, notes, the result ending the
//! match and undo reopening it, exactly-once writes per interaction,
//! decisions timing out to the rules' default, and export/import with a
//! decision pending. Every step keeps the replay invariant.

use crate::store_common;

use std::time::Duration;

use arbiter::app::matches::{Caller, MatchError, Matches, NextKind, TIMEOUT_ACTOR};
use arbiter::store::{EventKind, MatchStatus, Store};
use serde_json::Value;
use store_common::both;

use store_common::{ASHES_BOARD as BOARD, coal, judge, maeoni};

fn pb_damage(board: &Value, seat: usize) -> i64 {
    board["players"][seat]["phoenixborn"]["damage"]
        .as_i64()
        .unwrap_or(-1)
}

both!(the_defender_decides_and_only_she);
async fn the_defender_decides_and_only_she(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let r = m
        .play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    assert!(
        r.applied && r.changes.is_empty(),
        "recorded, nothing happens yet"
    );
    let p = r.pending.expect("waiting on Maeoni");
    assert_eq!(
        (p.user.as_str(), p.decision.player.as_str()),
        ("maeoni-user", "Maeoni")
    );
    let next = r.next.expect("who is next");
    assert_eq!(
        (next.user.as_str(), next.what),
        ("maeoni-user", NextKind::Decision)
    );
    assert!(
        p.deadline.is_some(),
        "the rules give a default, so the question times out"
    );
    // While it waits nothing else moves the match.
    let e = m.play(&coal(), "pass", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Waiting { .. }), "{e:?}");
    let e = m.advance(&coal(), None).await.unwrap_err();
    assert!(matches!(e, MatchError::Waiting { .. }), "{e:?}");
    // Only Maeoni (or a moderator) answers; a stale question is refused.
    let e = m
        .answer(&coal(), "no blocker", Some(p.version))
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    // It says which question waits now (it said none waited).
    let e = m
        .answer(&maeoni(), "1", Some(p.version - 1))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        MatchError::Stale {
            player: "Maeoni".into(),
            question: p.decision.question.clone()
        }
    );
    assert!(
        e.to_string()
            .contains("the question waiting now is Maeoni's"),
        "{e}"
    );
    let e = m
        .answer(&maeoni(), "dance", Some(p.version))
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Usage { .. }), "{e:?}");
    // A note changes nothing: the buttons of the question (its version)
    // still answer it.
    let n = m.note(&coal(), "judge was called").await.unwrap();
    assert!(n.pending.is_some_and(|q| q.version > p.version));
    let r = m
        .answer(&maeoni(), "block with Frostback Bear", Some(p.version))
        .await
        .unwrap();
    let q = r.pending.expect("the counter is hers too");
    assert_eq!(q.decision.key, "counter:Hammer Knight");
    let r = m.answer(&maeoni(), "2", Some(q.version)).await.unwrap();
    assert!(r.pending.is_none());
    assert_eq!(
        r.board["players"][1]["units"][0]["damage"], 3,
        "the bear takes 3"
    );
    assert_eq!(
        r.next.as_ref().map(|n| (n.user.as_str(), n.what)),
        Some(("maeoni-user", NextKind::Turn))
    );
    // Her undo takes the answer back and asks the question again.
    let r = m.undo(&maeoni()).await.unwrap();
    assert_eq!(
        r.pending.map(|p| p.decision.key),
        Some("counter:Hammer Knight".to_string())
    );
    assert_eq!(r.board["players"][1]["units"][0]["damage"], 0);
    let r = m
        .answer(&maeoni(), "counter with Frostback Bear", None)
        .await
        .unwrap();
    assert_eq!(
        r.board["players"][0]["units"][1]["damage"], 2,
        "the counter hits back"
    );
    // An answer to a question already answered is refused.
    assert_eq!(
        m.answer(&maeoni(), "1", None).await.unwrap_err(),
        MatchError::NoDecision
    );
    store_common::consistent(&m).await;
}

both!(adjust_note_advance_and_rounds);
async fn adjust_note_advance_and_rounds(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    // A player sets only their own seat's fields; another seat's field or
    // a shared one is a proposal its player confirms or rejects (issue 28:
    // this was refused outright before; now it asks).
    let r = m
        .adjust(&maeoni(), "Coal.phoenixborn.damage", "3", "Molten Gold")
        .await
        .unwrap();
    assert!(r.proposed && r.applied, "{r:?}");
    assert_eq!(pb_damage(&r.board, 0), 0, "nothing changes yet");
    let p = r.pending.expect("Coal is asked");
    assert_eq!((p.user.as_str(), p.decision.seat), ("coal-user", 0));
    // Only Coal (or a moderator) answers; he rejects: on the record, no change.
    assert!(matches!(
        m.answer(&maeoni(), "confirm", None).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    let r = m.answer(&coal(), "reject", None).await.unwrap();
    assert_eq!(pb_damage(&r.board, 0), 0);
    assert!(r.pending.is_none());
    let r = m
        .adjust(&maeoni(), "turn", "Maeoni", "my turn")
        .await
        .unwrap();
    assert!(r.proposed, "a shared field asks the other players");
    // The proposer may withdraw it.
    let r = m.undo(&maeoni()).await.unwrap();
    assert!(r.pending.is_none());
    assert_eq!(r.board["turn"], "Coal");
    let e = m
        .adjust(&coal(), "Coal.phoenixborn.damge", "3", "typo")
        .await
        .unwrap_err();
    assert!(e.to_string().contains("did you mean `damage`"), "{e}");
    let e = m
        .adjust(&coal(), "Coal.phoenixborn.damage", "3", " ")
        .await
        .unwrap_err();
    assert!(
        matches!(e, MatchError::Usage { .. }),
        "a reason is required: {e:?}"
    );
    let before = m.board("table").await.unwrap().version;
    assert_eq!(
        m.board("table").await.unwrap().version,
        before,
        "nothing recorded"
    );
    let r = m
        .adjust(
            &coal(),
            "Coal.phoenixborn.damage",
            "3",
            "Molten Gold hit me",
        )
        .await
        .unwrap();
    assert_eq!(pb_damage(&r.board, 0), 3);
    assert_eq!(r.adjustment.as_ref().map(|a| a.owner), Some(Some(0)));
    // Undoable like any event, by its author.
    assert!(matches!(
        m.undo(&maeoni()).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    let r = m.undo(&coal()).await.unwrap();
    assert_eq!(pb_damage(&r.board, 0), 0);
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::Adjust));
    // A moderator may adjust shared fields.
    m.adjust(&judge(), "main_action_used", "false", "table agreement")
        .await
        .unwrap();
    let r = m
        .note(
            &maeoni(),
            "judge: Frostback Bear's ability was applied by hand",
        )
        .await
        .unwrap();
    assert_eq!(r.event, EventKind::Note);
    // The round: advancing while players still have to pass is refused, with the rule.
    let r = m.advance(&coal(), None).await.unwrap();
    assert!(!r.applied);
    assert!(
        r.ruling
            .unwrap()
            .diagnostics
            .iter()
            .any(|d| d.rule.as_deref() == Some("ashes:pass"))
    );
    m.play(&coal(), "pass", None).await.unwrap();
    let e = m.advance(&coal(), None).await.unwrap_err();
    assert!(
        matches!(e, MatchError::Forbidden { .. }),
        "Maeoni's turn: {e:?}"
    );
    let r = m.play(&maeoni(), "pass", None).await.unwrap();
    assert_eq!(r.board["phase"], "recovery");
    assert!(
        r.next.is_none(),
        "nobody in particular acts in the recovery phase"
    );
    // Who takes round 2's first turn is not in the indexed text: a
    // player's advance would settle it by the engine's assumption, so it
    // is refused, naming how to agree it; a moderator's takes it.
    let e = m.advance(&maeoni(), None).await.unwrap_err();
    assert!(
        matches!(e, MatchError::Forbidden { .. }) && e.to_string().contains("adjust turn"),
        "{e:?}"
    );
    let r = m.advance(&judge(), None).await.unwrap();
    assert!(r.applied);
    assert_eq!(
        (r.board["round"].as_i64(), r.board["phase"].as_str()),
        (Some(2), Some("player-turns"))
    );
    let notes: Vec<String> = r
        .ruling
        .unwrap()
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("outside the indexed rules")),
        "{notes:?}"
    );
    // Round 2 plays on.
    let who = r.next.unwrap();
    let caller = if who.user == "coal-user" {
        coal()
    } else {
        maeoni()
    };
    m.play(&caller, "pass", None).await.unwrap();
    let log = m.log("table", None).await.unwrap();
    assert!(log.entries.iter().any(|e| e.kind == EventKind::Advance));
    store_common::consistent(&m).await;
}

both!(a_result_ends_the_match_and_undo_reopens_it);
async fn a_result_ends_the_match_and_undo_reopens_it(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    m.adjust(
        &judge(),
        "Maeoni.phoenixborn.damage",
        "18",
        "catching up to the table",
    )
    .await
    .unwrap();
    m.play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    let r = m.answer(&maeoni(), "no blocker", None).await.unwrap();
    let result = r.result.expect("the Phoenixborn is destroyed");
    assert_eq!(result.winner.as_deref(), Some("Coal"));
    assert!(result.rule.is_none(), "outside the indexed rules");
    let v = m.board("table").await.unwrap();
    assert_eq!(v.status, MatchStatus::Ended);
    assert_eq!(v.result.map(|r| r.winner), Some(Some("Coal".to_string())));
    let e = m.play(&maeoni(), "pass", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Ended { .. }), "{e:?}");
    // The loser cannot take the result back (issue 28, item 4): the refusal
    // names who may. The winner can: the answer that decided it is undone,
    // the match reopens and the question is asked again.
    let e = m.undo(&maeoni()).await.unwrap_err();
    assert!(
        matches!(e, MatchError::Forbidden { .. })
            && e.to_string()
                .contains("only Coal (coal-user), who won it, or a moderator"),
        "{e}"
    );
    let r = m.undo(&coal()).await.unwrap();
    assert_eq!(
        r.pending.map(|p| p.decision.key),
        Some("block:Hammer Knight".to_string())
    );
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Active);
    m.answer(&maeoni(), "no blocker", None).await.unwrap();
    m.undo(&coal()).await.unwrap();
    // Maeoni concedes, naming the winner by mention: at once.
    let v = m
        .end(&maeoni(), Some("<@coal-user>"), Some("Maeoni concedes"))
        .await
        .unwrap();
    assert_eq!(v.status, MatchStatus::Ended);
    let res = v.result.unwrap();
    assert_eq!(res.winner.as_deref(), Some("Coal"));
    assert!(
        res.reason.contains("Maeoni concedes") && res.reason.contains("conceded by Maeoni"),
        "{}",
        res.reason
    );
    // A moderator can always undo an `end` (issue 28, item 1): the match
    // reopens where it was, the question asked again.
    let r = m.undo(&judge()).await.unwrap();
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::End));
    assert_eq!(
        r.pending.map(|p| p.decision.key),
        Some("block:Hammer Knight".to_string())
    );
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Active);
    store_common::consistent(&m).await;
}

both!(each_interaction_writes_once);
async fn each_interaction_writes_once(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let call = coal().with_interaction("1400000000000000001");
    let first = m
        .play(&call, "attack Maeoni with Iron Worker", None)
        .await
        .unwrap();
    assert!(!first.replayed);
    let again = m
        .play(&call, "attack Maeoni with Iron Worker", None)
        .await
        .unwrap();
    assert!(again.replayed);
    assert_eq!((again.seq, again.version), (first.seq, first.version));
    assert_eq!(
        again.pending.map(|p| p.decision.key),
        first.pending.map(|p| p.decision.key)
    );
    let answer = maeoni().with_interaction("1400000000000000002");
    let a = m.answer(&answer, "no blocker", None).await.unwrap();
    let b = m.answer(&answer, "no blocker", None).await.unwrap();
    assert!(b.replayed && a.seq == b.seq);
    assert_eq!(
        m.board("table").await.unwrap().version,
        3,
        "setup, play, answer: nothing twice"
    );
    store_common::consistent(&m).await;
}

both!(a_decision_times_out_to_the_rules_default);
async fn a_decision_times_out_to_the_rules_default(url: String) {
    let m = store_common::ashes_match(&url, Some(Duration::ZERO)).await;
    m.play(&coal(), "attack Maeoni with Iron Worker", None)
        .await
        .unwrap();
    // Any request settles it first (the servers also sweep).
    let v = m.board("table").await.unwrap();
    assert!(v.pending.is_none(), "{:?}", v.pending);
    assert_eq!(
        pb_damage(v.board.as_ref().unwrap(), 1),
        7,
        "no blocker: the default"
    );
    let log = m.log("table", None).await.unwrap();
    let last = log.entries.last().unwrap();
    assert_eq!(
        (last.kind, last.actor.as_str()),
        (EventKind::Answer, TIMEOUT_ACTOR)
    );
    assert!(
        last.input
            .as_deref()
            .is_some_and(|i| i.contains("timed out")),
        "{:?}",
        last.input
    );
    assert_eq!(m.settle_all().await.unwrap(), 0);
    store_common::consistent(&m).await;
}

both!(an_export_with_a_pending_decision_imports_as_it_was);
async fn an_export_with_a_pending_decision_imports_as_it_was(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    m.play(
        &coal(),
        "attack Maeoni with Iron Worker, Hammer Knight",
        None,
    )
    .await
    .unwrap();
    m.answer(&maeoni(), "block with Mist Spirit", None)
        .await
        .unwrap();
    let before = m.board("table").await.unwrap();
    let x = m.export("table").await.unwrap();
    let at = |c: &Caller| Caller::new("other-table", c.user.clone(), c.moderator);
    m.start(
        &at(&coal()),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    // An export with plays: a moderator's to import (docs/MATCHES.md).
    let judge = Caller::new("other-table", "judge", true);
    let v = store_common::setup_as_judge(&m, &judge, &x.yaml)
        .await
        .unwrap();
    assert_eq!(v.board, before.board);
    assert_eq!(v.version, before.version);
    assert_eq!(
        v.pending.as_ref().map(|p| &p.decision),
        before.pending.as_ref().map(|p| &p.decision)
    );
    // The imported question is answered there like the original.
    let r = m.answer(&at(&maeoni()), "no blocker", None).await.unwrap();
    assert_eq!(
        r.pending.map(|p| p.decision.key),
        Some("counter:Iron Worker".to_string()),
        "then the counter"
    );
    let r = m.replay("other-table").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
    // A doctored export does not import.
    let doctored = x.yaml.replacen("damage: 5", "damage: 6", 1);
    m.start(
        &Caller::new("third", "coal-user", false),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    // (A player is refused before any replay; a moderator's import of it
    // is refused by the replay.)
    let e = m
        .setup(&Caller::new("third", "coal-user", false), &doctored)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("only a moderator"), "{e}");
    let e = m
        .setup(&Caller::new("third", "judge", true), &doctored)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("does not replay"), "{e}");
    // So does one whose waiting decision was given to another seat.
    let at = x.yaml.rfind("seat: 1").expect("a decision of seat 2 waits");
    let forged = format!(
        "{}seat: 0{}",
        &x.yaml[..at],
        &x.yaml[at + "seat: 1".len()..]
    );
    let e = m
        .setup(&Caller::new("third", "judge", true), &forged)
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("decision it waits on differs"),
        "{e}"
    );
}

both!(a_board_set_up_again_mid_match_is_undone_to_the_board_and_question_it_replaced);
async fn a_board_set_up_again_mid_match_is_undone_to_the_board_and_question_it_replaced(
    url: String,
) {
    let m = store_common::ashes_match(&url, None).await;
    let r = m
        .play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    let asked = r.pending.expect("waiting on Maeoni").decision.key;
    let before = m.board("table").await.unwrap().board;
    // A moderator replaces the board mid-match (the question goes with it).
    let v = m
        .setup(&judge(), &BOARD.replace("damage: 5", "damage: 9"))
        .await
        .unwrap();
    assert!(v.pending.is_none());
    // A player may not take the moderator's setup back; the moderator may.
    assert!(m.undo(&coal()).await.is_err());
    let u = m.undo(&judge()).await.unwrap();
    assert_eq!(Some(u.board), before, "the board it replaced");
    assert_eq!(u.pending.map(|p| p.decision.key), Some(asked));
    store_common::consistent(&m).await;
}

both!(an_answer_may_be_worded_as_the_play_notation_words_it);
async fn an_answer_may_be_worded_as_the_play_notation_words_it(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let r = m
        .play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    let p = r.pending.expect("waiting on Maeoni");
    let r = m
        .answer(&maeoni(), "block with Frostback Bear", Some(p.version))
        .await
        .unwrap();
    let q = r.pending.expect("the counter is hers too");
    assert!(
        q.decision
            .options
            .iter()
            .any(|o| o.label == "do not counter"),
        "{:?}",
        q.decision.options
    );
    // "no counter", as a play writes it, is the option "do not counter".
    let r = m
        .answer(&maeoni(), "no counter", Some(q.version))
        .await
        .unwrap();
    assert!(r.pending.is_none());
    store_common::consistent(&m).await;
}

both!(the_log_names_the_winner_of_a_concession);
async fn the_log_names_the_winner_of_a_concession(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    m.end(&maeoni(), Some("coal-user"), Some("concession"))
        .await
        .unwrap();
    let log = m.log("table", None).await.unwrap();
    let text = arbiter::render::matches::reply(&arbiter::app::matches::MatchReply::Log(log));
    assert!(
        text.contains("ended the match: Coal wins — reason: \"concession"),
        "{text}"
    );
}

both!(an_unknown_game_is_suggested_only_when_it_is_a_typo);
async fn an_unknown_game_is_suggested_only_when_it_is_a_typo(url: String) {
    let m = Matches::new(Store::connect(&url).await.expect("connect"));
    let players = ["coal-user".to_string(), "maeoni-user".to_string()];
    let e = m.start(&coal(), "chess", &players).await.unwrap_err();
    assert!(!e.to_string().contains("did you mean"), "{e}");
    assert!(e.to_string().contains("known games"), "{e}");
    let e = m.start(&coal(), "ashs", &players).await.unwrap_err();
    assert!(e.to_string().contains("did you mean 'ashes'"), "{e}");
}

both!(a_match_with_nothing_recorded_is_withdrawn_and_the_one_before_comes_back);
async fn a_match_with_nothing_recorded_is_withdrawn_and_the_one_before_comes_back(url: String) {
    use arbiter::app::matches::{MatchReply, MatchRequest};
    let m = store_common::ashes_match(&url, None).await;
    m.end(&judge(), Some("Coal"), Some("judge ruling"))
        .await
        .unwrap();
    m.start(
        &coal(),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    let undo = judge().with_interaction("1400000000000000077");
    let MatchReply::Match(v) = m.handle(&undo, MatchRequest::Undo).await.unwrap() else {
        panic!("the match before, as a view")
    };
    assert_eq!((v.match_id, v.status), (1, MatchStatus::Ended));
    assert!(v.notes[0].contains("match #2 withdrawn"), "{:?}", v.notes);
    // The same interaction again answers as the first did: the end stays.
    let MatchReply::Match(again) = m.handle(&undo, MatchRequest::Undo).await.unwrap() else {
        panic!("the withdrawal, replayed")
    };
    assert_eq!(again.notes, v.notes);
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Ended);
    let MatchReply::Event(r) = m.handle(&judge(), MatchRequest::Undo).await.unwrap() else {
        panic!("the end undone")
    };
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::End));
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Active);
    store_common::consistent(&m).await;
}

both!(a_strangers_note_in_a_new_match_cannot_bury_the_ended_one);
/// A note before any board, or a first board proposed and withdrawn, left
/// a new match with events and nothing to undo: the ended match before it
/// was out of everyone's reach (found by an outside tester).
async fn a_strangers_note_in_a_new_match_cannot_bury_the_ended_one(url: String) {
    use arbiter::app::matches::{MatchReply, MatchRequest};
    let m = store_common::ashes_match(&url, None).await;
    m.end(&judge(), Some("Coal"), Some("judge ruling"))
        .await
        .unwrap();
    let troll = Caller::new("table", "troll", false);
    m.start(&troll, "ashes", &["troll".into(), "maeoni-user".into()])
        .await
        .unwrap();
    m.note(&troll, "lol").await.unwrap();
    // The note is taken back, then the match it was all of.
    let MatchReply::Event(r) = m.handle(&judge(), MatchRequest::Undo).await.unwrap() else {
        panic!("the note undone")
    };
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::Note));
    let MatchReply::Match(v) = m.handle(&judge(), MatchRequest::Undo).await.unwrap() else {
        panic!("the match withdrawn")
    };
    assert_eq!((v.match_id, v.status), (1, MatchStatus::Ended));
    assert!(v.notes[0].contains("match #2 withdrawn"), "{:?}", v.notes);
    // Its log is kept; the channel's match is the one before.
    let store = Store::connect(&url).await.expect("connect");
    assert_eq!(store.event_heads(2).await.unwrap().len(), 2);
    let MatchReply::Event(r) = m.handle(&judge(), MatchRequest::Undo).await.unwrap() else {
        panic!("the end undone")
    };
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::End));
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Active);
    // A new match can be started after it.
    m.end(&judge(), Some("Coal"), None).await.unwrap();
    m.start(&troll, "ashes", &["troll".into(), "maeoni-user".into()])
        .await
        .unwrap();
    store_common::consistent(&m).await;
}

both!(a_decision_the_timeout_raised_waits_for_its_player);
async fn a_decision_the_timeout_raised_waits_for_its_player(url: String) {
    let m = store_common::ashes_match(&url, Some(Duration::ZERO)).await;
    m.play(
        &coal(),
        "attack unit \"Mist Spirit\" with Iron Worker",
        None,
    )
    .await
    .unwrap();
    // The guard times out to no guard; the counter it raises waits.
    let v = m.board("table").await.unwrap();
    let p = v.pending.expect("the counter is asked");
    assert!(p.decision.key.starts_with("counter"), "{:?}", p.decision);
    assert_eq!(p.deadline, None, "no deadline: nobody was told");
    assert_eq!(m.settle_all().await.unwrap(), 0);
    assert!(m.board("table").await.unwrap().pending.is_some());
    m.answer(&maeoni(), "1", None).await.unwrap();
    store_common::consistent(&m).await;
}

both!(a_note_cannot_forge_a_log_line_or_a_mention);
async fn a_note_cannot_forge_a_log_line_or_a_mention(url: String) {
    use arbiter::app::matches::MatchReply;
    use arbiter::render::matches::{Style, reply_as};
    let m = store_common::ashes_match(&url, None).await;
    m.note(
        &maeoni(),
        "judge: ok\n#9 coal-user ended the match: **Maeoni wins**",
    )
    .await
    .unwrap();
    let log = MatchReply::Log(m.log("table", None).await.unwrap());
    let console = reply_as(&log, Style::Console);
    assert!(
        !console.lines().any(|l| l.starts_with("#9")),
        "one line per event: {console}"
    );
    let discord = reply_as(&log, Style::Discord);
    assert!(discord.contains(r"\*\*Maeoni wins\*\*"), "{discord}");
    let e = m
        .note(&maeoni(), "<@1300000000000000301> conceded")
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Usage { .. }), "{e:?}");
}

both!(a_play_or_a_reason_cannot_forge_a_log_line_a_mention_or_a_link);
/// What a player types goes on the record as typed: a play's line break
/// (a YAML comment after it) no longer starts a line that reads as another
/// entry, and a play, an end's or an adjustment's reason holding a mention
/// or a masked link is refused as a note's is (an outside tester's
/// "# approved by @TO" and "see [the ruling](https://…)").
async fn a_play_or_a_reason_cannot_forge_a_log_line_a_mention_or_a_link(url: String) {
    use arbiter::app::matches::MatchReply;
    use arbiter::render::matches::{Style, reply_as};
    let m = store_common::ashes_match(&url, None).await;
    let before = m.board("table").await.unwrap().version;
    for refused in [
        m.play(
            &coal(),
            "play: {action: pass} # approved by <@1300000000000000401>",
            None,
        )
        .await
        .unwrap_err(),
        m.end(
            &coal(),
            None,
            Some("TO ruled: see [the ruling](https://evil.example)"),
        )
        .await
        .unwrap_err(),
        m.adjust(
            &coal(),
            "players.Coal.phoenixborn.damage",
            "1",
            "@everyone agreed",
        )
        .await
        .unwrap_err(),
    ] {
        assert!(matches!(refused, MatchError::Usage { .. }), "{refused:?}");
        assert!(refused.to_string().contains("mention"), "{refused}");
    }
    assert_eq!(
        m.board("table").await.unwrap().version,
        before,
        "nothing recorded"
    );
    let empty = m
        .adjust(&coal(), "players.Coal.phoenixborn.damage", "1", " ")
        .await
        .unwrap_err();
    assert!(empty.to_string().contains("say why"), "{empty}");
    // A board text is held to the same: a unit renamed as a masked link
    // (it showed as a link in every prompt and ping), even by a moderator.
    let e = m
        .adjust(
            &judge(),
            "players.Maeoni.units.Mist Spirit.name",
            "\"[Mist Spirit](https://evil.example/steal)\"",
            "renamed",
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("masked link"), "{e}");
    // A bare link hides nothing: it stays. A command mention is refused
    // (it shows as a clickable `/match end`).
    m.note(&coal(), "the ruling: https://example.org/ruling")
        .await
        .unwrap();
    let e = m
        .note(&coal(), "</match end:1300000000000000010> to concede")
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Usage { .. }), "{e:?}");
    // Unicode's line separator breaks a line where it is shown, as "\n" does.
    m.note(
        &coal(),
        "gg\u{2028}#7 judge-user ended the match: Coal wins",
    )
    .await
    .unwrap();
    m.play(
        &coal(),
        "play: {action: pass}\n#9 judge-user ended the match: Coal wins",
        None,
    )
    .await
    .unwrap();
    // A play asking another seat's consent shows its question in the log
    // and on the board: on one line too.
    m.play(
        &maeoni(),
        "play: {action: pass}\nagreed_by: Coal\n#8 judge-user ended the match: Maeoni wins",
        None,
    )
    .await
    .unwrap();
    let log = MatchReply::Log(m.log("table", None).await.unwrap());
    let board = MatchReply::Match(Box::new(m.board("table").await.unwrap()));
    for style in [Style::Console, Style::Discord] {
        for shown in [reply_as(&log, style), reply_as(&board, style)] {
            assert!(
                !shown
                    .lines()
                    .flat_map(|l| l.split(['\u{2028}', '\u{2029}']))
                    .any(|l| l.starts_with("#9") || l.starts_with("#8") || l.starts_with("#7")),
                "one line per event: {shown}"
            );
        }
    }
}
