//! Tracked matches between players who argue (an outside tester's second
//! round): a card numbered at its name's end inside an object an adjust
//! sets, a `#` YAML reads as a comment, an opponent's note over a play
//! waiting on her decision, an answer the timeout made, a `(not set)`
//! field, a seat renamed, a draw both players agreed, and the players a
//! match is started with.

use crate::store_common;

use std::time::Duration;

use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::store::{MatchStatus, Store};
use store_common::both;

use store_common::{coal, judge, maeoni};

fn example(name: &str) -> String {
    let path = format!("{}/examples/matches/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

async fn version(m: &Matches) -> i64 {
    m.board("table").await.unwrap().version
}

both!(a_numbered_card_inside_an_adjusted_object_is_a_name);
/// A card numbered at its name's end ("Iron Worker #2", as the engines
/// advise) inside an object or a list an adjust sets is a name like any
/// other: the check reads each text, not the value as typed (a
/// moderator's `units.+ '{name: "Iron Worker #2", …}'` was refused as
/// "holds `#` and a number followed by more words"). A text that does
/// read as a log entry is still refused at its field.
async fn a_numbered_card_inside_an_adjusted_object_is_a_name(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let r = m
        .adjust(
            &judge(),
            "players.Coal.units.+",
            "{name: \"Iron Worker #2\", attack: 2, life: 2}",
            "summoned",
        )
        .await
        .unwrap();
    assert!(r.applied, "{r:?}");
    let board = m.board("table").await.unwrap().board.unwrap();
    let units = board["players"][0]["units"].as_array().unwrap();
    assert!(
        units.iter().any(|u| u["name"] == "Iron Worker #2"),
        "{board}"
    );
    let e = m
        .adjust(
            &judge(),
            "players.Coal.units.+",
            "{name: \"#9 Coal conceded\", attack: 1, life: 1}",
            "forged",
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("another entry of the log") && e.contains("units[+].name"),
        "{e}"
    );
    store_common::consistent(&m).await;
}

both!(a_hash_read_as_a_comment_is_refused_with_how_to_quote);
/// `#` after a space starts a YAML comment: `Fervent Lancer #2` unquoted
/// read "Fervent Lancer", and a moderator's adjust recorded the no-op
/// ("Fervent Lancer" → "Fervent Lancer"). It is refused, saying to quote
/// the text; nothing is recorded.
async fn a_hash_read_as_a_comment_is_refused_with_how_to_quote(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let before = version(&m).await;
    let e = m
        .adjust(
            &judge(),
            "players.Coal.units.0.name",
            "Iron Worker #2",
            "fix",
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("comment") && e.contains("Quote"), "{e}");
    assert_eq!(version(&m).await, before, "nothing recorded");
    // Quoted, it is the name.
    m.adjust(
        &judge(),
        "players.Coal.units.0.name",
        "\"Iron Worker #2\"",
        "fix",
    )
    .await
    .unwrap();
    assert_eq!(version(&m).await, before + 1);
    // A text YAML refuses bare says to quote it; in quotes a mention is
    // refused as a mention.
    let e = m
        .adjust(&judge(), "players.Coal.name", "@Cole", "rename")
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("in quotes"), "{e}");
    let e = m
        .adjust(&judge(), "players.Coal.name", "@everyone", "rename")
        .await
        .unwrap_err()
        .to_string();
    assert!(e.contains("Discord mention"), "{e}");
    assert_eq!(version(&m).await, before + 1);
}

both!(a_note_blocks_nobodys_undo);
/// An opponent's note made while her decision on a play waits neither
/// takes over the question nor blocks the play's author's undo: the
/// refusal names the play as the event that asked it, and the author's
/// undo takes the play back with the note (which the log keeps). It read
/// "#3, which asked it" and "the last note was made by maeoni".
async fn a_note_blocks_nobodys_undo(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let play = m
        .play(
            &coal(),
            "attack unit \"Mist Spirit\" with Iron Worker",
            None,
        )
        .await
        .unwrap();
    let play_seq = play.seq.unwrap();
    let note = m.note(&maeoni(), "thinking").await.unwrap();
    let e = m.play(&coal(), "pass", None).await.unwrap_err();
    let MatchError::Waiting { seq, undo, .. } = &e else {
        panic!("{e:?}");
    };
    assert_eq!(*seq, play_seq, "{e}");
    assert!(undo.contains("coal-user"), "{e}");
    let r = m.undo(&coal()).await.unwrap();
    assert_eq!(r.undone.as_ref().map(|u| u.seq), Some(play_seq), "{r:?}");
    let said = r.note.clone().unwrap_or_default();
    assert!(
        said.contains(&format!("#{}", note.seq.unwrap())) && said.contains("thinking"),
        "{r:?}"
    );
    let v = m.board("table").await.unwrap();
    assert!(v.pending.is_none(), "{v:?}");
    let log = m.log("table", None).await.unwrap();
    assert!(
        log.entries
            .iter()
            .any(|e| e.input.as_deref() == Some("thinking")),
        "the log keeps the note"
    );
    store_common::consistent(&m).await;
    // Her own note is still hers to take back alone.
    m.note(&maeoni(), "my note").await.unwrap();
    let r = m.undo(&maeoni()).await.unwrap();
    assert_eq!(
        r.undone.as_ref().map(|u| u.input.as_deref()),
        Some(Some("my note"))
    );
    store_common::consistent(&m).await;
}

both!(a_note_under_anothers_note_is_still_its_authors_to_undo);
/// A player's own note with another player's note over it is still hers
/// to take back, the note over it with it (the log keeps both), as her
/// play under a note is: her undo was refused ("the last note was made by
/// coal"), and only a moderator could take back her note. Verified as an
/// import replays it.
async fn a_note_under_anothers_note_is_still_its_authors_to_undo(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let mine = m
        .note(&maeoni(), "I think Mist Spirit is exhausted")
        .await
        .unwrap();
    let reply = m.note(&coal(), "no it is not").await.unwrap();
    let r = m.undo(&maeoni()).await.unwrap();
    assert_eq!(r.undone.as_ref().map(|u| u.seq), mine.seq, "{r:?}");
    let said = r.note.clone().unwrap_or_default();
    assert!(
        said.contains(&format!("#{}", reply.seq.unwrap())) && said.contains("no it is not"),
        "{r:?}"
    );
    store_common::consistent(&m).await;
    // His own note on top stays his to take back alone, and hers is not his.
    m.note(&maeoni(), "again").await.unwrap();
    m.note(&coal(), "his").await.unwrap();
    let r = m.undo(&coal()).await.unwrap();
    assert_eq!(
        r.undone.as_ref().map(|u| u.input.as_deref()),
        Some(Some("his"))
    );
    assert!(m.undo(&coal()).await.is_err());
    store_common::consistent(&m).await;
}

both!(the_player_a_timeout_answered_for_may_undo_it);
/// The answer a decision's timeout made is the deciding player's to take
/// back (it was made for her): her undo asks her again. The play's author
/// is refused, naming her, where it read "only they", the timeout.
async fn the_player_a_timeout_answered_for_may_undo_it(url: String) {
    let m = store_common::ashes_match(&url, Some(Duration::ZERO)).await;
    m.play(
        &coal(),
        "attack unit \"Mist Spirit\" with Iron Worker",
        None,
    )
    .await
    .unwrap();
    // The guard timed out; the counter it raised waits, with no deadline,
    // and promises no default nothing would take: the board says who
    // answers it (it said "if nobody answers, assumed: … no counter").
    let v = m.board("table").await.unwrap();
    let p = v.pending.as_ref().expect("a decision waits");
    assert_eq!((p.deadline, p.decision.default), (None, None), "{p:?}");
    assert!(!p.decision.default_assumed, "{p:?}");
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("has no deadline") && n.contains("maeoni-user")),
        "{:?}",
        v.notes
    );
    let e = m.undo(&coal()).await.unwrap_err().to_string();
    assert!(
        e.contains("timeout") && e.contains("only maeoni-user or a moderator"),
        "{e}"
    );
    assert!(!e.contains("only they"), "{e}");
    let r = m.undo(&maeoni()).await.unwrap();
    assert_eq!(
        r.undone.as_ref().map(|u| u.actor.as_str()),
        Some(arbiter::app::matches::TIMEOUT_ACTOR)
    );
    store_common::consistent(&m).await;
}

both!(a_timeouts_answer_that_ended_the_match_is_still_hers_to_undo);
/// A timeout's answer that ends the match is still the answer of the
/// player it was made for, who never made that choice: her undo takes it
/// back and reopens the match, where the result's rule refused it as
/// "needs the other side's consent" (found by an outside tester). The
/// winner's opponent is still refused any other result.
async fn a_timeouts_answer_that_ended_the_match_is_still_hers_to_undo(url: String) {
    let m = store_common::ashes_match(&url, Some(Duration::ZERO)).await;
    m.adjust(&judge(), "Maeoni.phoenixborn.damage", "19", "near the end")
        .await
        .unwrap();
    m.play(&coal(), "attack Maeoni Viper with Iron Worker", None)
        .await
        .unwrap();
    let v = m.board("table").await.unwrap();
    assert_eq!(v.status, MatchStatus::Ended, "{v:?}");
    let r = m.undo(&maeoni()).await.unwrap();
    assert_eq!(
        r.undone.as_ref().map(|u| u.actor.as_str()),
        Some(arbiter::app::matches::TIMEOUT_ACTOR)
    );
    // (With no time to answer, the question asked again times out again.)
    store_common::consistent(&m).await;
}

both!(a_draw_both_agreed_is_said_to_be_a_moderators_to_reopen);
/// A draw both players agreed favours no side, so neither may reopen it
/// alone; the refusal says so, where it read "needs the other side's
/// consent", though both had agreed. A bare `end` proposed says it gives
/// no reason, where it read "(the match was ended)".
async fn a_draw_both_agreed_is_said_to_be_a_moderators_to_reopen(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let v = m.end(&maeoni(), None, None).await.unwrap();
    let asked = v.pending.expect("coal is asked").decision.question;
    assert!(asked.contains("no reason given"), "{asked}");
    assert!(!asked.contains("the match was ended"), "{asked}");
    m.answer(&coal(), "confirm", None).await.unwrap();
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Ended);
    for p in [coal(), maeoni()] {
        let e = m.undo(&p).await.unwrap_err().to_string();
        assert!(
            e.contains("favours no side") && !e.contains("the other side's consent"),
            "{e}"
        );
    }
    m.undo(&judge()).await.unwrap();
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Active);
    store_common::consistent(&m).await;
}

both!(a_rename_says_what_it_renames);
/// A seat's rename says what is renamed and why it asks, not the seat's
/// whole record as JSON twice nor "it may raise their own standing"; a
/// name holding an invisible character is refused (a zero-width space
/// made a rename proposed as if nothing changed).
async fn a_rename_says_what_it_renames(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    let r = m
        .adjust(&coal(), "players.Coal.name", "Cole", "spelling")
        .await
        .unwrap();
    assert!(r.proposed, "{r:?}");
    let said = r.note.unwrap_or_default();
    assert!(said.contains("rename seat 1"), "{said}");
    assert!(!said.contains("phoenixborn"), "{said}");
    assert!(!said.contains("raise their own standing"), "{said}");
    m.undo(&coal()).await.unwrap();
    let before = version(&m).await;
    for who in [coal(), judge()] {
        let e = m
            .adjust(&who, "players.Coal.name", "Coal\u{200B}", "x")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("invisible character (U+200B)"), "{e}");
    }
    assert_eq!(version(&m).await, before);
}

/// A field the board did not set reads "(not set)" in an adjust's reply
/// and proposal (TI4 victory points read "null → 2", "from null to 1").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unset_field_adjusted_reads_not_set() {
    use arbiter::app::matches::MatchReply;
    use arbiter::render::matches::reply;
    let (url, _dir) = store_common::sqlite_url();
    let m = Matches::new(Store::connect(&url).await.unwrap());
    let ben = Caller::new("table", "ben", false);
    m.start(
        &judge(),
        "ti4",
        &["ana".into(), "ben".into(), "cleo".into()],
    )
    .await
    .unwrap();
    // Ben's and Cleo's seats leave `victory_points` out.
    m.setup(&judge(), &example("ti4-start.yaml")).await.unwrap();
    let r = m
        .adjust(&judge(), "players.Cleo.victory_points", "2", "scored")
        .await
        .unwrap();
    let out = reply(&MatchReply::Event(Box::new(r)));
    assert!(out.contains("victory_points: (not set) → 2"), "{out}");
    let r = m
        .adjust(&ben, "players.Ben.victory_points", "1", "scored")
        .await
        .unwrap();
    let said = r.note.unwrap_or_default();
    assert!(said.contains("from (not set) to 1"), "{said}");
}

/// A role, a channel or everyone named as a player is refused at `start`
/// (it was seated, where `end --winner` refuses a role); a user mention
/// is a player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_role_or_everyone_is_no_player() {
    let (url, _dir) = store_common::sqlite_url();
    let m = Matches::new(Store::connect(&url).await.unwrap());
    for bad in ["<@&123>", "@everyone", "@here", "<#55>"] {
        let e = m
            .start(&judge(), "ashes", &[bad.into(), "maeoni-user".into()])
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a user"), "{bad}: {e}");
    }
    m.start(&judge(), "ashes", &["<@123>".into(), "maeoni-user".into()])
        .await
        .unwrap();
}

/// A Grand Archive board naming a second card `Fervent Lancer #2`
/// unquoted (YAML drops ` #2` as a comment) is told to quote it: the
/// refusal's advice, to number the card, could not be followed as written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_numbered_card_in_a_board_is_told_to_be_quoted() {
    let (url, _dir) = store_common::sqlite_url();
    let m = Matches::new(Store::connect(&url).await.unwrap());
    m.start(&judge(), "grand-archive", &["alice".into(), "bob".into()])
        .await
        .unwrap();
    let twice = "game: grand-archive\nturn_player: Alice\nplayers:\n  - name: Alice\n    champion: { name: \"Lorraine, Wandering Warrior\" }\n    allies:\n      - name: Fervent Lancer\n      - name: Fervent Lancer #2\n  - name: Bob\n    champion: { name: \"Rai, Spellcrafter\" }\n";
    let e = m.setup(&judge(), twice).await.unwrap_err().to_string();
    assert!(e.contains("in quotes") && e.contains("comment"), "{e}");
}

/// An export over the size an import takes, or near it, says so with the
/// next step, its size in KB rounded up with the bytes (a 1.17 MB export
/// went out with no word, and its import was refused).
#[test]
fn a_large_export_is_said_to_be_too_large_to_import() {
    use arbiter::app::matches::export_warning;
    let over = export_warning(1_172_353).expect("over the limit");
    assert!(
        over.contains("1145 KB (1172353 bytes)") && over.contains("board alone"),
        "{over}"
    );
    let near = export_warning(1_000_000).expect("near the limit");
    assert!(near.contains("near"), "{near}");
    assert_eq!(export_warning(93 * 1024), None);
}

both!(a_typed_confirm_of_a_proposal_swapped_under_it_is_refused);
/// A proposal withdrawn by its author and proposed again with other
/// values is not confirmed by a typed `confirm` without a version: the
/// answer may have been typed for the first (Coal proposed a draw,
/// withdrew it and proposed his win while Maeoni typed her confirm; the
/// match ended as Coal's win "agreed by Maeoni": an outside tester's
/// finding). The refusal names the proposal waiting, its number and words,
/// and the answer that carries its version, which is taken; notes over
/// either do not hide the swap. Nothing is recorded by the refusal.
async fn a_typed_confirm_of_a_proposal_swapped_under_it_is_refused(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    m.end(&coal(), None, Some("time called, draw"))
        .await
        .unwrap();
    m.note(&coal(), "wait").await.unwrap();
    m.undo(&coal()).await.unwrap();
    m.undo(&coal()).await.unwrap();
    m.note(&coal(), "let me fix that").await.unwrap();
    let v = m
        .end(&coal(), Some("Coal"), Some("time called, coal ahead"))
        .await
        .unwrap();
    let asked = v.pending.expect("maeoni is asked");
    m.note(&maeoni(), "reading it").await.unwrap();
    // An undo of a note brings the question back: still the same swap.
    m.note(&maeoni(), "hmm").await.unwrap();
    m.undo(&maeoni()).await.unwrap();
    let before = version(&m).await;
    let e = m.answer(&maeoni(), "confirm", None).await.unwrap_err();
    assert!(matches!(e, MatchError::ProposalWaits { .. }), "{e:?}");
    let e = e.to_string();
    let typed = arbiter::app::matches::answer_value("confirm", v.match_id, before);
    assert!(
        e.contains(&format!("#{}", asked.version))
            && e.contains("coal ahead")
            && e.contains(&format!("`match answer {typed}`")),
        "{e}"
    );
    assert_eq!(version(&m).await, before, "nothing recorded");
    // A moderator's typed confirm for her is refused alike.
    let e = m.answer(&judge(), "confirm", None).await.unwrap_err();
    assert!(matches!(e, MatchError::ProposalWaits { .. }), "{e:?}");
    // The answer that carries the version is taken.
    m.answer(&maeoni(), "confirm", Some(before)).await.unwrap();
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Ended);
    store_common::consistent(&m).await;
}

both!(a_typed_reject_of_a_swapped_proposal_and_an_unswapped_confirm_are_taken);
/// What the swap rule leaves alone: a typed `reject` of a proposal made
/// after its author withdrew another (a rejection changes nothing, so it
/// needs no version), and a typed `confirm` of a proposal whose author
/// withdrew nothing since the last answer (here the first was rejected,
/// on the record, before the second was proposed).
async fn a_typed_reject_of_a_swapped_proposal_and_an_unswapped_confirm_are_taken(url: String) {
    let m = store_common::ashes_match(&url, None).await;
    m.end(&coal(), None, Some("time called, draw"))
        .await
        .unwrap();
    m.undo(&coal()).await.unwrap();
    m.end(&coal(), Some("Coal"), Some("time called, coal ahead"))
        .await
        .unwrap();
    m.answer(&maeoni(), "reject", None).await.unwrap();
    assert!(m.board("table").await.unwrap().pending.is_none());
    m.end(&coal(), None, Some("time called, draw"))
        .await
        .unwrap();
    m.answer(&maeoni(), "confirm", None).await.unwrap();
    assert_eq!(m.board("table").await.unwrap().status, MatchStatus::Ended);
    store_common::consistent(&m).await;
}
