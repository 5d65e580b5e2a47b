//! The log as the lasting record: a result a play decided shows on its
//! line, each entry names its seats as they were then, a setup says which
//! waiting decision it replaced, a rename carries the passes naming the
//! seat, the refusal while a decision waits names who may undo now, and
//! any party a proposal asks may reject it at once.

use crate::store_common;

use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::render::matches::{Style, event, log};
use arbiter::store::{EventKind, Store};
use store_common::both;

use store_common::{ASHES_BOARD as BOARD, coal, judge, maeoni};

async fn started(url: &str, players: &[&str], board: &str) -> Matches {
    let m = Matches::new(Store::connect(url).await.expect("connect"));
    let players: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    m.start(&coal(), "ashes", &players).await.unwrap();
    store_common::setup_as_judge(&m, &coal(), board)
        .await
        .unwrap();
    m
}

both!(a_result_an_answer_decided_is_on_its_log_line);
async fn a_result_an_answer_decided_is_on_its_log_line(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    m.adjust(&judge(), "Maeoni.phoenixborn.damage", "18", "catch-up")
        .await
        .unwrap();
    m.play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    let r = m.answer(&maeoni(), "no blocker", None).await.unwrap();
    assert!(r.result.is_some());
    // The reply says the result once, and hands no turn on.
    let text = event(&r, Style::Console);
    assert_eq!(text.matches("result: Coal wins").count(), 1, "{text}");
    assert!(!text.contains("hands the turn"), "{text}");
    let l = m.log("table", None).await.unwrap();
    let last = l.entries.last().unwrap();
    assert_eq!(last.kind, EventKind::Answer);
    assert_eq!(
        last.result.as_ref().and_then(|r| r.winner.as_deref()),
        Some("Coal")
    );
    let page = log(&l, Style::Console);
    let line = page
        .lines()
        .find(|s| s.starts_with(&format!("#{} ", last.seq)));
    assert!(line.is_some_and(|s| s.contains("Coal wins")), "{page}");
    // Only the event that decided it says so.
    assert!(l.entries.iter().filter(|e| e.result.is_some()).count() == 1);
    let x = m.export("table").await.unwrap();
    // The match's result and the deciding entry's.
    assert!(x.yaml.matches("winner: Coal").count() >= 2, "{}", x.yaml);
}

both!(a_log_entry_names_the_seat_as_it_was_then);
async fn a_log_entry_names_the_seat_as_it_was_then(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    m.play(&coal(), "pass", None).await.unwrap();
    // Coal's pass is in consecutive_passes: the rename carries it.
    let r = m
        .adjust(&judge(), "players.Coal.name", "Kohl", "typo")
        .await
        .unwrap();
    assert!(
        r.changes
            .iter()
            .any(|c| c.path.contains("consecutive_passes"))
    );
    let page = log(&m.log("table", None).await.unwrap(), Style::Console);
    assert!(page.contains("#2 Coal (coal-user) played pass"), "{page}");
    // The board now names Kohl.
    let v = m.board("table").await.unwrap();
    assert_eq!(v.seats[0].name.as_deref(), Some("Kohl"));
}

both!(a_setup_over_a_waiting_decision_says_which_it_replaced);
async fn a_setup_over_a_waiting_decision_says_which_it_replaced(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    let r = m
        .play(&coal(), "attack Maeoni with Hammer Knight", None)
        .await
        .unwrap();
    let seq = r.seq.unwrap_or(r.version);
    let v = m
        .setup(&judge(), &BOARD.replace("damage: 5", "damage: 9"))
        .await
        .unwrap();
    let note = v.notes.iter().find(|n| n.contains(&format!("#{seq}")));
    assert!(
        note.is_some_and(|n| n.contains("Maeoni") && n.contains("undo")),
        "{:?}",
        v.notes
    );
    let page = log(&m.log("table", None).await.unwrap(), Style::Console);
    assert!(page.contains(&format!("replacing #{seq}")), "{page}");
}

both!(the_waiting_refusal_names_who_may_undo_now);
async fn the_waiting_refusal_names_who_may_undo_now(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    m.adjust(&judge(), "turn", "Maeoni", "t").await.unwrap();
    m.play(
        &maeoni(),
        "attack unit \"Iron Worker\" with Frostback Bear",
        None,
    )
    .await
    .unwrap();
    m.answer(&coal(), "no guard", None).await.unwrap();
    let e = m.play(&maeoni(), "pass", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Waiting { .. }), "{e}");
    let text = e.to_string();
    assert!(text.contains("Coal (coal-user) or a moderator"), "{text}");
    assert!(!text.contains("Maeoni (maeoni-user) or"), "{text}");
    // Who it names may.
    m.undo(&coal()).await.unwrap();
}

const THREE: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 15 }
    units:
      - { name: Iron Worker, attack: 2, life: 2 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20, damage: 5 }
    units:
      - { name: Mist Spirit, attack: 1, life: 1 }
  - name: Leo
    phoenixborn: { name: Leo Sunshadow, life: 18 }
    units:
      - { name: Frostback Bear, attack: 2, life: 4 }
";

both!(any_party_a_proposal_asks_may_reject_it_at_once);
async fn any_party_a_proposal_asks_may_reject_it_at_once(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user", "leo-user"], THREE).await;
    let r = m
        .adjust(&coal(), "Coal.phoenixborn.life", "30", "misread")
        .await
        .unwrap();
    assert!(r.proposed);
    let first = r.pending.expect("asks the others").user;
    let later = if first == "maeoni-user" {
        "leo-user"
    } else {
        "maeoni-user"
    };
    let later = Caller::new("table", later, false);
    // Confirming waits its turn, saying so.
    let e = m.answer(&later, "confirm", None).await.unwrap_err();
    assert!(e.to_string().contains("reject"), "{e}");
    let r = m.answer(&later, "reject", None).await.unwrap();
    assert_eq!(r.event, EventKind::Answer);
    assert!(r.pending.is_none(), "one rejection stops it");
    let v = m.board("table").await.unwrap();
    assert!(v.pending.is_none());
    let life = v.board.as_ref().unwrap()["players"][0]["phoenixborn"]["life"].clone();
    assert_eq!(life, serde_json::json!(15));
    // The later party's rejection replays as theirs (verify and import
    // read the log so; it was refused as "the decision it answers is seat
    // 2's", found in review).
    let report = m.replay("table").await.unwrap();
    assert!(report.consistent, "{:?}", report.mismatches);
}

/// `text` with the line `question: …` that first follows `after` (past
/// its `nth` occurrence, from 0) set to `question`.
fn asked_instead(text: &str, after: &str, nth: usize, question: &str) -> String {
    let mut at = 0;
    for _ in 0..=nth {
        at += text[at..].find(after).expect("the marker") + after.len();
    }
    let q = at + text[at..].find("question: ").expect("a question") + "question: ".len();
    let end = q + text[q..].find('\n').unwrap();
    format!("{}\"{question}\"{}", &text[..q], &text[end..])
}

both!(what_a_setup_replaced_and_a_note_carries_is_the_replays);
/// A setup's "replacing #N, which waited on X's decision: …" and a note's
/// `waiting: …` are the decisions the events before them wait on: an
/// export edited to name another (a question nobody was asked) is refused
/// naming the event and the field, and one imported into a match that has
/// events already names the replaced event by its number there (it kept
/// the file's and named a note). Found by an outside tester.
async fn what_a_setup_replaced_and_a_note_carries_is_the_replays(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    m.play(
        &coal(),
        "attack unit \"Mist Spirit\" with Hammer Knight",
        None,
    )
    .await
    .unwrap();
    m.note(&coal(), "hmm").await.unwrap();
    m.setup(&judge(), BOARD).await.unwrap();
    let file = m.export("table").await.unwrap().yaml;
    let other = |user: &str, moderator: bool| Caller::new("other", user, moderator);
    m.start(
        &other("coal-user", false),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    let judge2 = other("judge-user", true);
    m.setup(&judge2, BOARD).await.unwrap();
    m.note(&other("coal-user", false), "gg").await.unwrap();
    let invented = "Maeoni: do you concede the match?";
    // The setup's text alone; the note's and the setup's alike.
    let setup = asked_instead(&file, "replaced:", 0, invented);
    let note = asked_instead(&setup, "kind: note\n", 0, invented);
    for (text, why) in [
        (setup, "setup 4: `context.replaced.question` reads"),
        (note, "note 3: `ruling.pending.question` reads"),
    ] {
        let e = m.setup(&judge2, &text).await.unwrap_err();
        assert!(e.to_string().contains(why), "`{why}` in {e}");
        assert!(e.to_string().contains(invented), "{e}");
    }
    assert_eq!(
        m.board("other").await.unwrap().version,
        2,
        "nothing imported"
    );
    // As exported: events 3 to 6 here, the setup replacing the note #5.
    m.setup(&judge2, &file).await.unwrap();
    let page = log(&m.log("other", None).await.unwrap(), Style::Console);
    assert!(
        page.contains("#6 judge-user set up the board, replacing #5, which waited on Maeoni"),
        "{page}"
    );
    let report = m.replay("other").await.unwrap();
    assert!(report.consistent, "{:?}", report.mismatches);
}

both!(an_end_states_its_result_and_sets_its_reason_apart);
/// An end's line states its result itself ("no winner", "Coal wins") and
/// who agreed, then the reason quoted: a reason reading "time called;
/// Maeoni wins (agreed by Coal)" was the whole line of an end with no
/// winner, read as Maeoni's confirmed win (found by an outside tester).
async fn an_end_states_its_result_and_sets_its_reason_apart(url: String) {
    let m = started(&url, &["coal-user", "maeoni-user"], BOARD).await;
    let reason = "time called; Maeoni wins (agreed by Coal)";
    m.end(&maeoni(), None, Some(reason)).await.unwrap();
    m.answer(&coal(), "confirm", None).await.unwrap();
    let page = log(&m.log("table", None).await.unwrap(), Style::Console);
    let line = page.lines().find(|l| l.starts_with("#3 ")).unwrap();
    assert!(
        line.starts_with(
            "#3 Coal (coal-user) ended the match: no winner, proposed by Maeoni (maeoni-user), \
             confirmed by Coal (coal-user) — reason: \"time called; Maeoni wins (agreed by Coal)\" ("
        ),
        "{line}"
    );
    // A quote inside the reason cannot close it early.
    m.undo(&judge()).await.unwrap();
    m.end(&maeoni(), Some("coal-user"), Some("he said \"I win\""))
        .await
        .unwrap();
    let page = log(&m.log("table", None).await.unwrap(), Style::Console);
    assert!(
        page.contains("ended the match: Coal wins — reason: \"he said \\\"I win\\\" "),
        "{page}"
    );
}
