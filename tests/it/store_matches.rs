//! Match tracking through the app layer, on SQLite and on PostgreSQL: the
//! lifecycle, permissions, undo, export/re-import, the replay invariant,
//! restarts and bad input. Uses the "tally" test game (store_common).

use crate::store_common;

use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::store::{EventKind, MatchStatus, NewEvent, Store, StoreError};
use serde_json::json;
use store_common::{matches, tally_board, total};

use store_common::both;

fn ann() -> Caller {
    Caller::new("chan", "ann", false)
}
fn bob() -> Caller {
    Caller::new("chan", "bob", false)
}
fn eve() -> Caller {
    Caller::new("chan", "eve", false)
}
fn moderator() -> Caller {
    Caller::new("chan", "mod", true)
}

async fn started(url: &str) -> Matches {
    let m = matches(Store::connect(url).await.expect("connect"));
    m.start(&ann(), "tally", &["ann".into(), "bob".into()])
        .await
        .expect("start");
    store_common::setup_as_judge(&m, &ann(), tally_board())
        .await
        .expect("setup");
    m
}

async fn assert_consistent(m: &Matches, channel: &str) {
    let r = m.replay(channel).await.expect("replay");
    assert!(r.consistent, "replay mismatches: {:?}", r.mismatches);
    let b = m.board(channel).await.expect("board");
    assert_eq!(r.state, b.board, "current board is not the replay");
}

both!(lifecycle);
async fn lifecycle(url: String) {
    let m = started(&url).await;
    let v = m.board("chan").await.unwrap();
    assert_eq!(v.version, 1);
    assert_eq!(v.seats[0].name.as_deref(), Some("Ann"));
    assert_eq!(v.seats[1].user, "bob");

    // Notation and YAML plays.
    let r = m.play(&ann(), "add 3 for ann", None).await.unwrap();
    assert!(r.applied);
    assert_eq!(r.seq, Some(2));
    assert_eq!(total(&r.board), 3);
    assert_eq!(r.ruling.as_ref().unwrap().steps[0].rule, "tally:add");
    assert_eq!(r.board["players"][0]["score"], 3);
    let r = m
        .play(&bob(), "```yaml\nplay:\n  add: 4\n  for: Bob\n```", None)
        .await
        .unwrap();
    assert!(r.applied);
    assert_eq!(total(&r.board), 7);
    assert_eq!(r.board.get("play"), None, "the state has no play");

    // The log shows who played what, with the ruling.
    let log = m.log("chan", None).await.unwrap();
    assert_eq!(log.total, 3);
    assert_eq!(log.entries.len(), 3);
    assert_eq!(log.entries[1].actor, "ann");
    assert_eq!(log.entries[1].input.as_deref(), Some("add 3 for ann"));
    assert_eq!(log.entries[1].ruling.as_ref().unwrap()["legal"], true);
    assert_eq!(log.entries[2].play, Some(json!({"add": 4, "for": "Bob"})));

    // Completions come from the engine against the current board.
    let c = m.complete("chan", "add 2 ").await.unwrap();
    assert!(c.contains(&"Ann".to_string()), "{c:?}");

    assert_consistent(&m, "chan").await;

    // A player's bare `end` on a board ends it with no winner, so the
    // other player is asked; her confirmation ends it.
    let v = m.end(&bob(), None, None).await.unwrap();
    assert_eq!(v.status, MatchStatus::Active, "a proposal, not an end");
    let e = m.play(&ann(), "add 1", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Waiting { .. }), "{e:?}");
    m.answer(&ann(), "confirm", None).await.unwrap();
    let v = m.board("chan").await.unwrap();
    assert_eq!(v.status, MatchStatus::Ended);
    // Then plays are refused.
    let e = m.play(&ann(), "add 1", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Ended { .. }), "{e:?}");
    assert_eq!(
        total(m.board("chan").await.unwrap().board.as_ref().unwrap()),
        7
    );
    assert_consistent(&m, "chan").await;
    // A new match may start in the channel now.
    m.start(&bob(), "tally", &["bob".into()]).await.unwrap();
}

both!(log_pages);
async fn log_pages(url: String) {
    let m = started(&url).await;
    for i in 0..24 {
        let who = if i % 2 == 0 { ann() } else { bob() };
        m.play(&who, &format!("add {i}"), None).await.unwrap();
    }
    let last = m.log("chan", None).await.unwrap();
    assert_eq!((last.page, last.pages, last.total), (3, 3, 25));
    assert_eq!(last.entries.len(), 5);
    assert_eq!(last.entries.last().unwrap().seq, 25);
    let first = m.log("chan", Some(1)).await.unwrap();
    assert_eq!(first.entries.len(), 10);
    assert_eq!(first.entries[0].kind, EventKind::Setup);
    let e = m.log("chan", Some(4)).await.unwrap_err();
    assert!(e.to_string().contains("3 pages"), "{e}");
    assert!(m.log("chan", Some(0)).await.is_err());
}

both!(undo);
async fn undo(url: String) {
    let m = started(&url).await;
    m.play(&ann(), "add 5", None).await.unwrap();
    m.play(&bob(), "add 7 for bob", None).await.unwrap();
    // Not Ann's play: refused, nothing changes.
    let e = m.undo(&ann()).await.unwrap_err();
    assert!(
        matches!(&e, MatchError::Forbidden { message } if message.contains("bob")),
        "{e:?}"
    );
    assert_eq!(m.board("chan").await.unwrap().version, 3);
    // Bob undoes his own play: the reply shows exactly what reverts.
    let u = m.undo(&bob()).await.unwrap();
    assert_eq!(u.undone.as_ref().unwrap().seq, 3);
    assert_eq!(
        u.undone.as_ref().unwrap().input.as_deref(),
        Some("add 7 for bob")
    );
    assert_eq!(total(&u.board), 5);
    assert!(
        u.changes
            .iter()
            .any(|c| c.path == "total" && c.before == json!(12) && c.after == json!(5)),
        "{:?}",
        u.changes
    );
    // Ann's play is next; a moderator may undo it.
    let e = m.undo(&bob()).await.unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }));
    let u = m.undo(&moderator()).await.unwrap();
    assert_eq!(u.undone.as_ref().unwrap().seq, 2);
    assert_eq!(total(&u.board), 0);
    // Back at the setup: nothing left to undo.
    assert_eq!(
        m.undo(&moderator()).await.unwrap_err(),
        MatchError::NothingToUndo
    );
    // Play again after undoing; the log kept everything.
    m.play(&ann(), "add 1", None).await.unwrap();
    let b = m.board("chan").await.unwrap();
    assert_eq!(total(b.board.as_ref().unwrap()), 1);
    assert_eq!(b.version, 6);
    let log = m.log("chan", Some(1)).await.unwrap();
    let kinds: Vec<EventKind> = log.entries.iter().map(|e| e.kind).collect();
    use EventKind::*;
    assert_eq!(kinds, vec![Setup, Play, Play, Undo, Undo, Play]);
    assert_eq!(log.entries[3].undoes, Some(3));
    assert_consistent(&m, "chan").await;
}

both!(permissions);
async fn permissions(url: String) {
    let m = matches(Store::connect(&url).await.unwrap());
    // Only a player (or a moderator) starts a match.
    let e = m
        .start(&eve(), "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    m.start(&moderator(), "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    // One active match per channel.
    let e = m.start(&ann(), "tally", &["ann".into()]).await.unwrap_err();
    assert_eq!(
        e,
        MatchError::AlreadyActive {
            game: "tally".into()
        }
    );
    // Another channel is independent.
    m.start(
        &Caller::new("other", "eve", false),
        "tally",
        &["eve".into()],
    )
    .await
    .unwrap();
    // Non-players cannot set up or play; anyone may look.
    assert!(matches!(
        m.setup(&eve(), tally_board()).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    store_common::setup_as_judge(&m, &bob(), tally_board())
        .await
        .unwrap();
    let e = m.play(&eve(), "add 1", None).await.unwrap_err();
    assert!(e.to_string().contains("only the match's players"), "{e}");
    assert!(m.board("chan").await.is_ok());
    // Each plays for their own seat: the board's `turn` names Ann.
    let turn_board = format!("{}turn: Ann\n", tally_board());
    // Bob's board is his to replace, not Ann's.
    let e = m.setup(&ann(), &turn_board).await.unwrap_err();
    assert!(
        e.to_string()
            .contains("only they or a moderator may replace it"),
        "{e}"
    );
    store_common::setup_as_judge(&m, &bob(), &turn_board)
        .await
        .unwrap();
    assert_eq!(m.board("chan").await.unwrap().turn.as_deref(), Some("ann"));
    let e = m.play(&bob(), "add 1", None).await.unwrap_err();
    assert!(
        e.to_string().contains("it is Ann's turn")
            && e.to_string().contains("you play for your own seat only"),
        "{e}"
    );
    m.play(&ann(), "add 1", None).await.unwrap();
    // A play that names its player must be the caller's own seat, whoever's
    // turn it is (out-of-turn plays are the engine's to rule on).
    let e = m
        .play(&ann(), "play: { add: 1, player: Bob }", None)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("this play is for Bob"), "{e}");
    m.play(&bob(), "play: { add: 1, player: Bob }", None)
        .await
        .unwrap();
    // After plays, only a moderator may replace the board.
    let e = m.setup(&ann(), tally_board()).await.unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    store_common::setup_as_judge(&m, &moderator(), tally_board())
        .await
        .unwrap();
    // Non-players cannot end; a moderator can.
    assert!(matches!(
        m.end(&eve(), None, None).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    m.end(&moderator(), None, None).await.unwrap();
    assert_consistent(&m, "chan").await;
}

both!(export_reimport);
async fn export_reimport(url: String) {
    let m = started(&url).await;
    m.play(&ann(), "add 9 for ann", None).await.unwrap();
    m.play(&bob(), "add 2", None).await.unwrap();
    let x = m.export("chan").await.unwrap();
    assert!(x.file_name.ends_with(".yaml"));
    assert!(x.yaml.contains("arbiter_export"));
    assert!(x.yaml.contains("add 9 for ann"), "the log is exported");
    let before = m.board("chan").await.unwrap().board;
    m.end(&moderator(), None, None).await.unwrap();
    m.start(&ann(), "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    // A file anyone can edit: a player may not import its plays (who made
    // them is only the file's word), and nothing is recorded.
    let e = m.setup(&ann(), &x.yaml).await.unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    assert_eq!(m.board("chan").await.unwrap().version, 0);
    // A moderator's import replays the whole log: every event, the same board.
    store_common::setup_as_judge(&m, &moderator(), &x.yaml)
        .await
        .unwrap();
    let after = m.board("chan").await.unwrap();
    assert_eq!(after.board, before);
    assert_eq!(after.version, 3, "the setup and both plays are imported");
    assert_consistent(&m, "chan").await;
    m.play(&bob(), "add 1", None).await.unwrap();
    assert_eq!(
        total(m.board("chan").await.unwrap().board.as_ref().unwrap()),
        12
    );
}

both!(stale_board);
async fn stale_board(url: String) {
    let m = started(&url).await;
    let seen = m.board("chan").await.unwrap().version;
    m.play(&bob(), "add 2", None).await.unwrap();
    // Ann played against the board she saw: refused with the new board.
    let e = m.play(&ann(), "add 3", Some(seen)).await.unwrap_err();
    match e {
        MatchError::BoardChanged { version, board } => {
            assert_eq!(version, 2);
            assert_eq!(total(board.as_ref().unwrap()), 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        total(m.board("chan").await.unwrap().board.as_ref().unwrap()),
        2
    );
    m.play(&ann(), "add 3", Some(2)).await.unwrap();
}

both!(bad_input);
async fn bad_input(url: String) {
    let m = matches(Store::connect(&url).await.unwrap());
    // Unknown game, with did-you-mean.
    let e = m.start(&ann(), "taly", &["ann".into()]).await.unwrap_err();
    assert!(e.to_string().contains("did you mean 'tally'"), "{e}");
    // Bad player lists.
    assert!(m.start(&ann(), "tally", &[]).await.is_err());
    let e = m
        .start(&ann(), "tally", &["ann".into(), "ann".into()])
        .await
        .unwrap_err();
    assert!(e.to_string().contains("twice"), "{e}");
    // Two seats that look alike ("ann" and "Ann ") are one player.
    let e = m
        .start(&ann(), "tally", &["ann".into(), "Ann ".into()])
        .await
        .unwrap_err();
    assert!(e.to_string().contains("twice"), "{e}");
    assert!(
        m.start(&Caller::new("", "ann", false), "tally", &["ann".into()])
            .await
            .is_err()
    );
    // No match yet.
    assert_eq!(
        m.play(&ann(), "add 1", None).await.unwrap_err(),
        MatchError::NoMatch
    );
    m.start(&ann(), "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    // Play before setup.
    assert_eq!(
        m.play(&ann(), "add 1", None).await.unwrap_err(),
        MatchError::NoBoard
    );
    // Bad boards.
    let bad_setups = [
        ("game: tally\nplayers: [", "line"),
        ("game: chess\n", "unknown game"),
        ("game: tally\ntotal: 0\nplay: { add: 1 }\n", "no `play`"),
        ("game: tally\nplays: []\n", "no `play`"),
        ("game: tally\nscore: 3\n", "unknown field"),
        ("- 1\n- 2\n", "mapping"),
        ("", "empty"),
    ];
    for (doc, why) in bad_setups {
        let e = m.setup(&ann(), doc).await.unwrap_err();
        assert!(e.to_string().contains(why), "{doc:?}: {e}");
    }
    let huge = format!("{}# {}\n", tally_board(), "x".repeat(70_000));
    let e = m.setup(&ann(), &huge).await.unwrap_err();
    assert!(e.to_string().contains("limit"), "{e}");
    assert_eq!(m.board("chan").await.unwrap().version, 0, "nothing stored");

    store_common::setup_as_judge(&m, &ann(), tally_board())
        .await
        .unwrap();
    let board = m.board("chan").await.unwrap();
    // Malformed plays, unknown names, illegal plays, oversized plays.
    let bad_plays = [
        ("jump 3", "unknown action 'jump'"),
        ("add three", "not a number"),
        ("add 1 for Bobby Tables", "unknown player"),
        ("play:\n  add: 1\n  colour: red\n", "unknown field"),
        ("play: { add: 1 }\ntotal: 99\n", "only the `play:` block"),
        ("add 1\nadd 2", "one line"),
        ("   ", "empty"),
    ];
    for (play, why) in bad_plays {
        let e = m.play(&ann(), play, None).await.unwrap_err();
        assert!(e.to_string().contains(why), "{play:?}: {e}");
    }
    let e = m
        .play(&ann(), &format!("add 1 {}", "x".repeat(70_000)), None)
        .await
        .unwrap_err();
    assert!(e.to_string().contains("limit"), "{e}");
    // An illegal play: a ruling that says why, nothing stored.
    let r = m.play(&ann(), "add 500", None).await.unwrap();
    assert!(!r.applied);
    assert!(!r.ruling.as_ref().unwrap().legal);
    assert!(
        r.ruling.as_ref().unwrap().diagnostics[0]
            .message
            .contains("0 to 100")
    );
    assert_eq!(r.board, board.board.clone().unwrap());
    let now = m.board("chan").await.unwrap();
    assert_eq!(now.version, board.version, "state untouched");
    assert_eq!(now.board, board.board);
    // Plays for a finished match (ended with no winner, as both agreed).
    m.end(&ann(), None, None).await.unwrap();
    m.answer(&bob(), "confirm", None).await.unwrap();
    let e = m.play(&ann(), "add 1", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Ended { .. }), "{e:?}");
    // An `end` is undone like any event (issue 28: it used to stay ended),
    // reopening the match; one both agreed to, by a moderator only.
    for p in [ann(), bob()] {
        let e = m.undo(&p).await.unwrap_err();
        assert!(e.to_string().contains("a moderator"), "{e}");
    }
    let r = m.undo(&moderator()).await.unwrap();
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::End));
    // The proposal waits on Bob again; rejected, play goes on.
    let e = m.play(&ann(), "add 1", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Waiting { .. }), "{e:?}");
    m.answer(&bob(), "reject", None).await.unwrap();
    m.play(&ann(), "add 1", None).await.unwrap();
    assert_consistent(&m, "chan").await;
}

// A match ended before its board (nothing at stake: at once) is not a
// dead end: its author or a moderator reopens it, and it verifies.
both!(an_end_before_any_board_is_undone);
async fn an_end_before_any_board_is_undone(url: String) {
    let m = matches(Store::connect(&url).await.expect("connect"));
    m.start(&ann(), "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    let v = m.end(&ann(), None, None).await.unwrap();
    assert_eq!(v.status, MatchStatus::Ended);
    // Exported as it is (ended, no board), it imports elsewhere.
    let x = m.export("chan").await.unwrap();
    let fourth = Caller::new("fourth", "mod", true);
    m.start(&fourth, "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    let v = store_common::setup_as_judge(&m, &fourth, &x.yaml)
        .await
        .unwrap();
    assert_eq!((v.status, v.board.is_none()), (MatchStatus::Ended, true));
    assert!(m.undo(&bob()).await.is_err(), "not bob's end");
    let r = m.undo(&ann()).await.unwrap();
    assert_eq!(r.undone.map(|u| u.kind), Some(EventKind::End));
    assert_eq!(m.board("chan").await.unwrap().status, MatchStatus::Active);
    assert_consistent(&m, "chan").await;
    store_common::setup_as_judge(&m, &bob(), tally_board())
        .await
        .unwrap();
    m.play(&ann(), "add 1", None).await.unwrap();
    assert_consistent(&m, "chan").await;
    // Its export (an event whose board is `null`) imports elsewhere.
    let x = m.export("chan").await.unwrap();
    let other = Caller::new("other", "mod", true);
    m.start(&other, "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    let v = store_common::setup_as_judge(&m, &other, &x.yaml)
        .await
        .unwrap();
    assert_eq!(v.board, m.board("chan").await.unwrap().board);
    assert_consistent(&m, "other").await;
}

// An export's log that ends, reopens and plays on is imported whole, in
// one step, ending as its log does: the last play's board, active.
both!(an_export_that_reopened_imports_whole);
async fn an_export_that_reopened_imports_whole(url: String) {
    let m = started(&url).await;
    m.play(&ann(), "add 3", None).await.unwrap();
    m.end(&ann(), Some("bob"), Some("gg")).await.unwrap();
    m.undo(&bob()).await.unwrap();
    m.play(&bob(), "add 2", None).await.unwrap();
    let x = m.export("chan").await.unwrap();
    let before = m.board("chan").await.unwrap();
    let other = Caller::new("other", "mod", true);
    m.start(&other, "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    let v = store_common::setup_as_judge(&m, &other, &x.yaml)
        .await
        .unwrap();
    assert_eq!((v.status, v.version), (MatchStatus::Active, before.version));
    assert_eq!(v.board, before.board);
    assert_consistent(&m, "other").await;
    // The same export ending on the concession ends the copy with it.
    m.end(&bob(), Some("ann"), Some("time")).await.unwrap();
    let x = m.export("chan").await.unwrap();
    let third = Caller::new("third", "mod", true);
    m.start(&third, "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    let v = store_common::setup_as_judge(&m, &third, &x.yaml)
        .await
        .unwrap();
    let won = m.board("chan").await.unwrap();
    assert_eq!((v.status, &v.result), (MatchStatus::Ended, &won.result));
    assert!(v.result.is_some());
}

both!(restart);
async fn restart(url: String) {
    {
        let m = started(&url).await;
        m.play(&ann(), "add 4", None).await.unwrap();
        m.store().close().await;
    }
    // A new process: connect again (migrations are applied once), continue.
    let m = matches(Store::connect(&url).await.unwrap());
    let b = m.board("chan").await.unwrap();
    assert_eq!(b.version, 2);
    assert_eq!(total(b.board.as_ref().unwrap()), 4);
    m.play(&bob(), "add 6", None).await.unwrap();
    m.store().close().await;
    let m = matches(Store::connect(&url).await.unwrap());
    assert_eq!(
        total(m.board("chan").await.unwrap().board.as_ref().unwrap()),
        10
    );
    assert_consistent(&m, "chan").await;
}

both!(store_level);
async fn store_level(url: String) {
    // Raw JSON states and plays, without the service.
    let s = Store::connect(&url).await.unwrap();
    let m = s
        .create_match("c", "raw", &["u1".into(), "u2".into()], "u1")
        .await
        .unwrap();
    assert_eq!(m.version, 0);
    assert_eq!(
        s.create_match("c", "raw", &["u1".into()], "u1")
            .await
            .unwrap_err(),
        StoreError::AlreadyActive
    );
    let ev = |kind, n: i64| NewEvent {
        kind,
        actor: "u1".into(),
        input: Some(format!("n {n}")),
        play: Some(json!({"n": n})),
        ruling: Some(json!({"legal": true})),
        state: json!({"n": n, "text": "ünïcode ✓"}),
        undoes: None,
        context: None,
        interaction: None,
        deadline: None,
        transition: Default::default(),
    };
    assert_eq!(
        s.append(m.id, 0, &ev(EventKind::Setup, 0)).await.unwrap(),
        1
    );
    assert_eq!(s.append(m.id, 1, &ev(EventKind::Play, 1)).await.unwrap(), 2);
    // A second writer at the same version loses, and nothing is written.
    assert_eq!(
        s.append(m.id, 1, &ev(EventKind::Play, 99))
            .await
            .unwrap_err(),
        StoreError::Conflict { version: 2 }
    );
    // A version from the future is a conflict too.
    assert!(s.append(m.id, 7, &ev(EventKind::Play, 7)).await.is_err());
    let got = s.active_match("c").await.unwrap().unwrap();
    assert_eq!(got.version, 2);
    assert_eq!(got.state, Some(json!({"n": 1, "text": "ünïcode ✓"})));
    assert_eq!(got.players, vec!["u1".to_string(), "u2".to_string()]);
    let events = s.events(m.id, 1, 10).await.unwrap();
    assert_eq!(events.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(events[1].play, Some(json!({"n": 1})));
    let heads = s.event_heads(m.id).await.unwrap();
    assert_eq!(heads[0].kind, EventKind::Setup);
    // Ending is an event; afterwards nothing appends.
    assert_eq!(s.append(m.id, 2, &ev(EventKind::End, 1)).await.unwrap(), 3);
    assert_eq!(
        s.append(m.id, 3, &ev(EventKind::Play, 2))
            .await
            .unwrap_err(),
        StoreError::Ended
    );
    assert!(s.active_match("c").await.unwrap().is_none());
    let last = s.latest_match("c").await.unwrap().unwrap();
    assert_eq!(last.status, MatchStatus::Ended);
    assert!(last.ended_at.is_some());
    // Matches get distinct ids across channels.
    let a = s
        .create_match("d", "raw", &["u".into()], "u")
        .await
        .unwrap();
    let b = s
        .create_match("e", "raw", &["u".into()], "u")
        .await
        .unwrap();
    assert_ne!(a.id, b.id);
    // A match by its number, within its channel only (`log match:N`):
    // ended or not; another channel's number finds nothing.
    assert_eq!(
        s.match_in_channel("c", m.id).await.unwrap().unwrap().id,
        m.id
    );
    assert_eq!(
        s.match_in_channel("d", a.id).await.unwrap().unwrap().id,
        a.id
    );
    assert!(s.match_in_channel("d", b.id).await.unwrap().is_none());
    assert!(s.match_in_channel("e", m.id).await.unwrap().is_none());
    assert!(s.match_in_channel("c", b.id + 100).await.unwrap().is_none());
    // A channel's matches, newest first, within the limit (`match:`'s
    // autocomplete): another channel's are not among them.
    let c2 = s
        .create_match("c", "raw", &["u".into()], "u")
        .await
        .unwrap();
    let ids = |v: Vec<arbiter::store::MatchRecord>| v.iter().map(|m| m.id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.channel_matches("c", 25).await.unwrap()),
        [c2.id, m.id]
    );
    assert_eq!(ids(s.channel_matches("c", 1).await.unwrap()), [c2.id]);
    assert_eq!(ids(s.channel_matches("e", 25).await.unwrap()), [b.id]);
    assert!(s.channel_matches("f", 25).await.unwrap().is_empty());
}

#[tokio::test]
async fn bad_database_urls_are_refused_clearly() {
    let e = Store::connect("mysql://localhost/x").await.unwrap_err();
    assert!(e.to_string().contains("sqlite://"), "{e}");
    let e = Store::connect("sqlite::memory:").await.unwrap_err();
    assert!(e.to_string().contains("in-memory"), "{e}");
}

both!(dispatch);
async fn dispatch(url: String) {
    // The one-call API the transports use: request → reply → text/JSON.
    use arbiter::app::matches::{MatchReply, MatchRequest};
    let m = matches(Store::connect(&url).await.unwrap());
    let r = m
        .handle(
            &ann(),
            MatchRequest::Start {
                game: "Tally".into(),
                players: vec!["ann".into(), "bob".into()],
            },
        )
        .await
        .unwrap();
    assert!(
        arbiter::render::matches::reply(&r).contains("seat 2: bob"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    m.handle(
        &moderator(),
        MatchRequest::Setup {
            text: tally_board().into(),
        },
    )
    .await
    .unwrap();
    let r = m
        .handle(
            &bob(),
            MatchRequest::Play {
                text: "add 2".into(),
                expected_version: Some(1),
            },
        )
        .await
        .unwrap();
    let MatchReply::Event(p) = &r else {
        panic!("{r:?}")
    };
    assert!(p.applied);
    assert!(
        arbiter::render::matches::reply(&r).contains("play #2 recorded"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    assert!(
        !arbiter::render::matches::reply(&r).contains("state:"),
        "no state dump after a play"
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["seq"], 2);
    let r = m
        .handle(&eve(), MatchRequest::Log { page: None })
        .await
        .unwrap();
    assert!(
        arbiter::render::matches::reply(&r).contains("#2 Bob (bob) played add 2"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    let r = m.handle(&bob(), MatchRequest::Undo).await.unwrap();
    assert!(
        arbiter::render::matches::reply(&r).contains("total: 2 → 0"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    let r = m.handle(&eve(), MatchRequest::Export).await.unwrap();
    assert!(
        arbiter::render::matches::reply(&r).starts_with("arbiter_export: 2"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    let r = m.handle(&eve(), MatchRequest::Verify).await.unwrap();
    assert!(
        arbiter::render::matches::reply(&r).contains("equals the replay"),
        "{}",
        arbiter::render::matches::reply(&r)
    );
    // Refusals serialize with their kind for transports.
    let e = m
        .handle(
            &eve(),
            MatchRequest::Play {
                text: "add 1".into(),
                expected_version: None,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(serde_json::to_value(&e).unwrap()["kind"], "forbidden");
    assert!(e.is_user_error());
}

#[tokio::test]
async fn sqlite_file_is_created_in_wal_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sub-dir-free.db");
    assert!(!file.exists());
    let s = Store::connect(&format!("sqlite://{}", file.display()))
        .await
        .unwrap();
    s.create_match("c", "tally", &["u".into()], "u")
        .await
        .unwrap();
    assert!(file.exists(), "the database file is created when missing");
    let wal = dir.path().join("sub-dir-free.db-wal");
    assert!(wal.exists(), "journal_mode=WAL: {} missing", wal.display());
    assert_eq!(s.backend(), arbiter::store::Backend::Sqlite);
    let settings = s.settings().await.unwrap();
    assert_eq!(
        settings,
        vec![
            ("journal_mode".to_string(), "wal".to_string()),
            ("synchronous".to_string(), "1".to_string()), // NORMAL
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_pools_opening_a_fresh_sqlite_file_at_once_all_succeed() {
    let (url, _dir) = store_common::sqlite_url();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { Store::connect(&url).await })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().expect("connect and migrate");
    }
}

/// One vote per user per answer, held by the database: a newer press
/// replaces the user's vote, an older one arriving late (Discord's retry)
/// changes nothing, a right rule is kept beside the vote, and presses at
/// once from two connections (two replicas) count once.
async fn feedback_one_vote_per_user(url: String) {
    use arbiter::store::{Ask, Feedback, Verdict};
    let store = Store::connect(&url).await.unwrap();
    let ask = Ask {
        key: "k1".into(),
        guild: "g1".into(),
        channel: "c".into(),
        user_id: "asker".into(),
        question: "can an exhausted phoenixborn guard".into(),
        game: Some("ashes".into()),
        shown: vec!["ashes:attack-a-unit.3".into()],
        confidence: "answer".into(),
        created_at: 1,
        parts: vec![arbiter::store::AskedPart {
            question: "can an exhausted phoenixborn guard".into(),
            best: Some("ashes:attack-a-unit.3".into()),
        }],
    };
    store.keep_ask(&ask).await.unwrap();
    // A multi-part answer's parts are kept with it (migration 0014).
    assert_eq!(store.ask("k1").await.unwrap().unwrap().parts, ask.parts);
    let vote = |verdict, at, rule: Option<&str>| Feedback {
        ask: ask.clone(),
        user_id: "u1".into(),
        verdict,
        rule: rule.map(str::to_string),
        at,
    };
    store
        .add_feedback(&vote(Verdict::Up, 10, None))
        .await
        .unwrap();
    store
        .add_feedback(&vote(Verdict::Down, 20, None))
        .await
        .unwrap();
    store
        .add_feedback(&vote(Verdict::Up, 15, None))
        .await
        .unwrap();
    store
        .add_feedback(&vote(Verdict::Right, 30, Some("ashes:attack-a-unit.3")))
        .await
        .unwrap();
    let list = store.feedback(Some("g1")).await.unwrap();
    let verdicts: Vec<Verdict> = list.iter().map(|f| f.verdict).collect();
    assert_eq!(verdicts, [Verdict::Down, Verdict::Right], "{list:?}");
    assert!(list.iter().all(|f| f.ask.parts == ask.parts), "{list:?}");

    let other = Store::connect(&url).await.unwrap();
    let mut presses = Vec::new();
    for k in 0..8 {
        let (s, f) = (
            if k % 2 == 0 {
                store.clone()
            } else {
                other.clone()
            },
            Feedback {
                user_id: "u2".into(),
                ..vote(Verdict::Up, 40, None)
            },
        );
        presses.push(tokio::spawn(async move { s.add_feedback(&f).await }));
    }
    for p in presses {
        p.await.unwrap().unwrap();
    }
    let ups = store
        .feedback(Some("g1"))
        .await
        .unwrap()
        .iter()
        .filter(|f| f.user_id == "u2")
        .count();
    assert_eq!(ups, 1);
}
both!(feedback_one_vote_per_user);

both!(turn_notices_are_each_players_own);
/// `notify off` from a player silences that player's own turn notices, not
/// the other's (one player had silenced the other's); two players switching
/// theirs keep both; a stranger may not; a moderator without a seat
/// switches the whole match's.
async fn turn_notices_are_each_players_own(url: String) {
    let m = started(&url).await;
    let v = m.notify(&ann(), false).await.unwrap();
    assert!(v.notify, "the match's notices stay on");
    assert_eq!(v.quiet, vec![0], "Ann's seat alone");
    let v = m.notify(&bob(), false).await.unwrap();
    assert_eq!(v.quiet, vec![0, 1], "Bob's switch kept Ann's");
    let v = m.notify(&ann(), true).await.unwrap();
    assert_eq!(v.quiet, vec![1], "Ann's back on, Bob's still off");
    let e = m.notify(&eve(), false).await.unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    let v = m.notify(&moderator(), false).await.unwrap();
    assert!(!v.notify, "a moderator's switch is the match's");
    assert_eq!(v.quiet, vec![1]);
    // The tally game has no turns: a reply's notice follows the match's
    // switch (whose turn pings are the HTTP tests', tests/it/whole_match.rs).
    let r = m.play(&bob(), "add 1", None).await.unwrap();
    assert!(!r.notify, "the match's notices are off");
    m.notify(&moderator(), true).await.unwrap();
    let r = m.play(&bob(), "add 1", None).await.unwrap();
    assert!(r.notify, "on again");
}

both!(a_player_seated_twice_is_named_as_a_mention);
/// A Discord user seated twice is named as a mention (Discord shows the
/// member), not as a raw id; a console name as it is.
async fn a_player_seated_twice_is_named_as_a_mention(url: String) {
    let m = matches(Store::connect(&url).await.expect("connect"));
    let id = "1400000000000000951";
    let who = Caller::new("chan", id, false);
    let e = m
        .start(&who, "tally", &[id.into(), id.into()])
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains(&format!("<@{id}> is named twice")),
        "{e}"
    );
    let e = m
        .start(&ann(), "tally", &["ann".into(), "Ann ".into()])
        .await
        .unwrap_err();
    assert!(e.to_string().contains("Ann is named twice"), "{e}");
}
