//! An edited export records nothing the live rules would not: each event
//! passes, at a moderator's import and at `verify`, the consent and undo
//! rules the live command applies, and the words a ruling or a proposal
//! is stored with are the replay's. Each test edits a real export (made
//! by driving the app through the console) as an outside tester did, and
//! each edit imported and verified clean before.

use serde_json::Value;

use crate::match_integrity::{example, match_bot, run};
use arbiter::app::matches::{LogEntry, replay_log};
use arbiter::bot::Bot;

/// A match of `game` seating `players` on its example's starting board
/// (set up by a judge), then `script` run as its first player; the bot
/// and the export the script ends with, read as JSON.
fn played(dir: &std::path::Path, game: &str, players: &[&str], script: &str) -> (Bot, Value) {
    let bot = match_bot(dir);
    let out = run(
        &bot,
        players[0],
        &format!(
            "/match start game:{game}{}\n/as judge moderator\n/match setup file:{}\n/as {}\n{script}/match export\n",
            seats(players),
            example(&format!("{game}-start.yaml")),
            players[0]
        ),
    );
    (bot, export_in(&out))
}

/// The export a console's output ends with, read as JSON.
fn export_in(out: &str) -> Value {
    let end = out.rfind("\n--- end of ").expect("the export's end");
    let start = out[..end].rfind("\n--- ").expect("an export") + 1;
    let body = &out[start..end];
    let yaml = &body[body.find('\n').unwrap() + 1..];
    serde_saphyr::from_str(yaml).expect("the export reads")
}

fn seats(players: &[&str]) -> String {
    players
        .iter()
        .enumerate()
        .map(|(i, p)| format!(" player{}:{p}", i + 1))
        .collect()
}

/// A moderator imports `export` (written as JSON) into a new match of the
/// same game and players, and shows its log.
fn import(
    bot: &Bot,
    dir: &std::path::Path,
    name: &str,
    players: &[&str],
    export: &Value,
) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(export).unwrap()).unwrap();
    let game = export["game"].as_str().unwrap();
    run(
        bot,
        "judge",
        &format!(
            "/as judge moderator\n/match end\n/match start game:{game}{}\n/as judge moderator\n/match setup file:{}\n/match log\n",
            seats(players),
            path.display()
        ),
    )
}

/// The log's event of `seq`.
fn event(export: &mut Value, seq: i64) -> &mut Value {
    export["log"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["seq"] == seq)
        .expect("the event")
}

/// The log without the event of `seq`, the later ones numbered down.
fn drop_event(export: &mut Value, seq: i64) {
    let log = export["log"].as_array_mut().unwrap();
    log.retain(|e| e["seq"] != seq);
    for (i, e) in log.iter_mut().enumerate() {
        e["seq"] = Value::from(i as i64 + 1);
    }
}

/// Drops the context keys named.
fn without(e: &mut Value, keys: &[&str]) {
    let context = e["context"].as_object_mut().unwrap();
    for k in keys {
        context.remove(*k);
    }
}

/// Refused naming every words of `why`, nothing imported; and the same
/// log refused by `verify`'s replay.
fn refused(out: &str, why: &[&str], game: &str, export: &Value) {
    for w in why {
        assert!(out.contains(w), "`{w}` in {out}");
    }
    assert!(out.contains("0 events"), "nothing imported: {out}");
    let engine = arbiter::engine::engine(game).unwrap();
    let players: Vec<String> = serde_json::from_value(export["players"].clone()).unwrap();
    let log: Vec<LogEntry> = serde_json::from_value(export["log"].clone()).unwrap();
    let (_, bad) = replay_log(engine, &players, &log);
    let said = bad.join("; ");
    for w in why {
        assert!(said.contains(w), "verify: `{w}` in {said}");
    }
}

/// Coal proposes Maeoni's damage, Maeoni confirms; Coal plays "agreed by
/// Maeoni", Maeoni confirms; Maeoni passes.
const ASHES: &str = "/match adjust field:Maeoni.phoenixborn.damage value:12 reason:burn card\n\
    /as Maeoni\n/match answer choice:confirm\n/as Coal\n\
    /match play attack unit \"Mist Spirit\" with Hammer Knight; no guard; no counter; agreed by Maeoni\n\
    /as Maeoni\n/match answer choice:confirm\n/match play pass\n";

/// Another seat's field adjusted, or a play that states another seat's
/// choices, each recorded at once as its author's own: live, either is a
/// proposal the other seat confirms (an outside tester's export read
/// "Coal adjusted players[Maeoni].phoenixborn.damage = 12", and a play
/// "agreed by Maeoni" that Maeoni never confirmed).
#[test]
fn what_asks_another_seat_is_not_imported_as_done_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, ASHES);
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(!out.contains("0 events") && out.contains("Maeoni"), "{out}");
    // The proposal dropped, its confirmation made Coal's own adjust.
    let mut at_once = file.clone();
    drop_event(&mut at_once, 2);
    let e = event(&mut at_once, 2);
    e["actor"] = "Coal".into();
    without(e, &["proposal", "agreed_by", "answered_for"]);
    let out = import(&bot, dir.path(), "at-once.json", &seats, &at_once);
    let why = [
        "adjust 2:",
        "`actor` reads Coal (seat 1)",
        "asking seat 2 (Maeoni)",
    ];
    refused(&out, &why, "ashes", &at_once);
    // ... with `agreed_by` left to stand for Maeoni's consent.
    let e = event(&mut at_once, 2);
    e["context"]["agreed_by"] = serde_json::json!([1]);
    let out = import(&bot, dir.path(), "agreed.json", &seats, &at_once);
    refused(&out, &why, "ashes", &at_once);
    // The play's proposal dropped, Maeoni's confirmation made Coal's play.
    let mut play = file.clone();
    drop_event(&mut play, 4);
    let e = event(&mut play, 4);
    let typed =
        "attack unit \"Mist Spirit\" with Hammer Knight; no guard; no counter; agreed by Maeoni";
    e["actor"] = "Coal".into();
    e["kind"] = "play".into();
    e["input"] = typed.into();
    without(e, &["proposal", "answered_for"]);
    let out = import(&bot, dir.path(), "play.json", &seats, &play);
    let why = [
        "play 4:",
        "`actor` reads Coal (seat 1)",
        "asking seat 2 (Maeoni)",
    ];
    refused(&out, &why, "ashes", &play);
    // A proposal edited to ask nobody.
    let mut nobody = file.clone();
    event(&mut nobody, 2)["context"]["proposal"]["asks"] = serde_json::json!([]);
    let out = import(&bot, dir.path(), "nobody.json", &seats, &nobody);
    let why = [
        "adjust 2:",
        "`context.proposal.asks` reads nobody, but the live command asks seat 2 (Maeoni)",
    ];
    refused(&out, &why, "ashes", &nobody);
}

/// The words the log shows that replay derives: a ruling's steps and
/// changes, and the question a proposal asks, edited, are refused naming
/// the field (an outside tester's step read "Maeoni concedes the match").
#[test]
fn a_rulings_and_a_proposals_words_are_the_replays() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, ASHES);
    let mut step = file.clone();
    let steps = event(&mut step, 5)["ruling"]["steps"]
        .as_array_mut()
        .unwrap();
    let last = steps.len() - 1;
    steps[last]["text"] = "Maeoni concedes the match".into();
    let out = import(&bot, dir.path(), "step.json", &seats, &step);
    let field = format!("`ruling.steps[{last}].text` reads \"Maeoni concedes the match\"");
    refused(&out, &["answer 5:", &field], "ashes", &step);
    let mut change = file.clone();
    let changes = &mut event(&mut change, 5)["ruling"]["changes"];
    assert_eq!(changes[0]["after"], true, "{changes}");
    changes[0]["after"] = false.into();
    let out = import(&bot, dir.path(), "change.json", &seats, &change);
    let why = ["answer 5:", "`ruling.changes[0].after` reads false"];
    refused(&out, &why, "ashes", &change);
    let mut question = file.clone();
    event(&mut question, 2)["ruling"]["pending"]["question"] =
        "Maeoni: Coal proposes a handshake".into();
    let out = import(&bot, dir.path(), "question.json", &seats, &question);
    let why = [
        "adjust 2:",
        "`ruling.pending` asks \"Maeoni: Coal proposes a handshake\"",
    ];
    refused(&out, &why, "ashes", &question);
}

/// Ben proposes Ana's win, Cleo rejects it, Ben withdraws it; a judge
/// adjusts Ben's score, Ana plays, the judge ends the match.
const TI4: &str = "/as Ben\n/match end winner:Ana\n/as Cleo\n/match answer choice:reject\n\
    /as Ben\n/match undo\n\
    /as judge moderator\n/match adjust field:Ben.victory_points value:3 reason:scored objective\n\
    /as Ana\n/match play Ana strategic Leadership\n\
    /as judge moderator\n/match end winner:Ben reason:time called\n";

/// A moderator's adjust and end rewritten as a player's, and undos no one
/// could have made at that point (Cleo undoing Ben's proposal, Ben's undo
/// taking back Cleo's rejection, Ana undoing Cleo's rejection), are
/// refused naming the event and the field.
#[test]
fn a_moderators_event_or_an_undo_is_not_imported_as_a_players() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Ana", "Ben", "Cleo"];
    let (bot, file) = played(dir.path(), "ti4", &seats, TI4);
    let kinds = kinds(&file);
    assert_eq!(
        kinds,
        ["setup", "note", "answer", "undo", "adjust", "play", "end"],
        "{file}"
    );
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(
        !out.contains("0 events") && out.contains("time called"),
        "{out}"
    );
    let edited = |seq: i64, edit: &dyn Fn(&mut Value)| {
        let mut f = file.clone();
        edit(event(&mut f, seq));
        f
    };
    let as_player = |actor: &'static str| {
        move |e: &mut Value| {
            e["actor"] = actor.into();
            without(e, &["moderator"]);
        }
    };
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            edited(5, &as_player("Ben")),
            vec![
                "adjust 5:",
                "`actor` reads Ben (seat 2)",
                "asking seat 1 (Ana), seat 3 (Cleo)",
            ],
        ),
        (
            edited(7, &as_player("Ana")),
            vec![
                "end 7:",
                "`actor` reads Ana (seat 1)",
                "asking seat 3 (Cleo)",
            ],
        ),
        (
            edited(4, &|e| e["actor"] = "Cleo".into()),
            vec![
                "undo 4:",
                "`undoes` reads 2, but an undo by Cleo at this point takes back event 3",
            ],
        ),
        (
            edited(4, &|e| e["undoes"] = 3.into()),
            vec![
                "undo 4:",
                "`undoes` reads 3, but an undo by Ben at this point takes back event 2",
            ],
        ),
        (
            edited(4, &|e| e["actor"] = "Ana".into()),
            vec![
                "undo 4:",
                "`actor` reads Ana, who may not undo answer 3 at this point",
            ],
        ),
    ];
    for (i, (f, why)) in cases.iter().enumerate() {
        let out = import(&bot, dir.path(), &format!("{i}.json"), &seats, f);
        refused(&out, why, "ti4", f);
    }
}

/// A rename proposed and confirmed, an undo passing over the opponent's
/// note to the play it lies on, and a bare `end` proposed: each as live,
/// so its export imports and verifies clean. The live words and rules
/// changed ("rename seat 1", "no reason given", a note blocking nobody's
/// undo) while import regenerated the old words and applied the old undo
/// rule, refusing the players' own export.
#[test]
fn a_rename_an_undo_past_a_note_and_a_bare_end_import_as_live() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let script = "/match adjust field:players.Coal.name value:Cole reason:spelling\n\
        /as Maeoni\n/match answer choice:confirm\n/as Coal\n\
        /match play attack unit \"Mist Spirit\" with Hammer Knight\n\
        /as Maeoni\n/match note text:thinking\n/as Coal\n/match undo\n/match end\n";
    let (bot, file) = played(dir.path(), "ashes", &seats, script);
    let kinds = kinds(&file);
    assert_eq!(
        kinds,
        ["setup", "adjust", "adjust", "play", "note", "undo", "note"],
        "{file}"
    );
    let said = file.to_string();
    assert!(
        said.contains("rename seat 1") && said.contains("no reason given"),
        "{said}"
    );
    assert_eq!(event(&mut file.clone(), 6)["undoes"], 4, "{file}");
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(
        !out.contains("0 events") && out.contains("thinking"),
        "{out}"
    );
    let engine = arbiter::engine::engine("ashes").unwrap();
    let log: Vec<LogEntry> = serde_json::from_value(file["log"].clone()).unwrap();
    let (_, bad) = replay_log(engine, &seats.map(String::from), &log);
    assert!(bad.is_empty(), "{bad:?}");
}

/// The kinds of an export's events, in order.
fn kinds(file: &Value) -> Vec<&str> {
    file["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect()
}

/// A judge adjusts Maeoni's damage, then ends the match for Maeoni.
const JUDGED: &str = "/as judge moderator\n\
    /match adjust field:Maeoni.phoenixborn.damage value:3 reason:burn card\n\
    /match end winner:Maeoni reason:time called\n";

/// A moderator's end taken off the moderator (the mark removed, a player
/// made its actor: it read as Coal's concession, "(by a moderator)"
/// kept), and a moderator's adjust whose value, words and boards were
/// edited while what it changed (`context.adjustment`) was kept: each
/// imported and verified clean; each is refused naming the event and
/// the field. The unedited export imports.
#[test]
fn a_moderators_end_or_adjust_edited_against_its_words_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, JUDGED);
    assert_eq!(kinds(&file), ["setup", "adjust", "end"], "{file}");
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(
        !out.contains("0 events") && out.contains("time called"),
        "{out}"
    );
    // The end made Coal's: a concession, at once, but its reason says a
    // moderator made it.
    let mut conceded = file.clone();
    let e = event(&mut conceded, 3);
    e["actor"] = "Coal".into();
    without(e, &["moderator"]);
    let out = import(&bot, dir.path(), "conceded.json", &seats, &conceded);
    let why = [
        "end 3:",
        "`context.reason` reads \"time called (by a moderator)\"",
        "Coal's concession, whose reason reads \"… (conceded by Coal)\"",
    ];
    refused(&out, &why, "ashes", &conceded);
    // The adjust's value made 5 throughout but what it changed.
    let mut value = file.clone();
    let e = event(&mut value, 2);
    let input = e["input"].as_str().unwrap().replace("= 3", "= 5");
    e["input"] = input.into();
    e["context"]["value"] = "5".into();
    for seq in [2, 3] {
        event(&mut value, seq)["state"]["players"][1]["phoenixborn"]["damage"] = 5.into();
    }
    value["board"]["players"][1]["phoenixborn"]["damage"] = 5.into();
    let out = import(&bot, dir.path(), "value.json", &seats, &value);
    let why = ["adjust 2:", "`context.adjustment.after` reads 3"];
    refused(&out, &why, "ashes", &value);
}

/// Coal claims the win: Maeoni rejects it, Coal withdraws it and claims
/// it again, and Maeoni confirms.
const CLAIMED: &str = "/match end winner:Coal reason:I win\n\
    /as Maeoni\n/match answer choice:reject\n/as Coal\n/match undo\n\
    /match end winner:Coal reason:again\n/as Maeoni\n/match answer choice:confirm\n";

/// A confirmed end's reason names who agreed as the live command wrote it
/// (it was compared by its first words only: "(agreed by a moderator for
/// Maeoni)" imported for Maeoni's own), and an answer to an end proposed
/// is checked as any answer (its question was looked for under the note
/// that asked it, so a rejection's words edited imported).
#[test]
fn a_confirmed_ends_reason_and_an_answer_to_an_end_are_the_logs() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, CLAIMED);
    assert_eq!(
        kinds(&file),
        ["setup", "note", "answer", "undo", "note", "end"],
        "{file}"
    );
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(!out.contains("0 events") && out.contains("again"), "{out}");
    let mut agreed = file.clone();
    event(&mut agreed, 6)["context"]["reason"] = "again (agreed by a moderator for Maeoni)".into();
    let out = import(&bot, dir.path(), "agreed.json", &seats, &agreed);
    let why = [
        "end 6:",
        "`context.reason` reads \"again (agreed by a moderator for Maeoni)\"",
        "whose reason reads \"again (agreed by Maeoni)\"",
    ];
    refused(&out, &why, "ashes", &agreed);
    let mut words = file.clone();
    event(&mut words, 3)["input"] = "rejected: a handshake".into();
    let out = import(&bot, dir.path(), "words.json", &seats, &words);
    let why = [
        "answer 3:",
        "`input` reads \"rejected: a handshake\", but the answer the log records is \"rejected: to end the match: Coal wins (I win)\"",
    ];
    refused(&out, &why, "ashes", &words);
}

/// Coal, a moderator who holds a seat, proposes Maeoni's damage, Maeoni
/// notes while it waits and confirms; a judge enters Coal's attack, which
/// waits on Maeoni's guard, and Coal notes under it.
const NOTED: &str = "/as Coal moderator\n\
    /match adjust field:Maeoni.phoenixborn.damage value:9 reason:burn card\n\
    /as Maeoni\n/match note text:checking\n/match answer choice:confirm\n\
    /as judge moderator\n/match play attack unit \"Mist Spirit\" with Hammer Knight\n\
    /as Coal moderator\n/match note text:seated note\n";

/// A note made while a question waits carries the asking event's context
/// (its proposal, a moderator's mark), yet it is its author's note, live
/// and at import by the same rule (`turns::plain_note`): Maeoni's note
/// under Coal's proposal imported as if she made the proposal, and the
/// note of Coal, who holds a seat (a moderator's makes him no less a
/// player), under a judge's entry as a moderator's, so the live log was
/// refused (and so was his undo of it, which brings the judge's question
/// back with its context). Live, Maeoni may not undo Coal's note and
/// Coal may; at import, the same undo made by Maeoni is refused and
/// Coal's imports.
#[test]
fn notes_under_a_waiting_question_are_their_authors_live_and_at_import() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, _) = played(dir.path(), "ashes", &seats, NOTED);
    let out = run(&bot, "Maeoni", "/match undo\n");
    assert!(
        out.contains("the last note was made by Coal; only they or a moderator who holds no seat"),
        "{out}"
    );
    let out = run(
        &bot,
        "Coal",
        "/as Coal moderator\n/match undo\n/match verify\n/match export\n",
    );
    assert!(
        out.contains("== Undone: event #6 ==") && out.contains("the log replays"),
        "{out}"
    );
    let file = export_in(&out);
    assert_eq!(
        kinds(&file),
        ["setup", "adjust", "note", "adjust", "play", "note", "undo"],
        "{file}"
    );
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(
        !out.contains("0 events") && out.contains("seated note"),
        "{out}"
    );
    let engine = arbiter::engine::engine("ashes").unwrap();
    let log: Vec<LogEntry> = serde_json::from_value(file["log"].clone()).unwrap();
    let (_, bad) = replay_log(engine, &seats.map(String::from), &log);
    assert!(bad.is_empty(), "{bad:?}");
    // The undo Maeoni could not make live, made hers.
    let mut hers = file.clone();
    event(&mut hers, 7)["actor"] = "Maeoni".into();
    let out = import(&bot, dir.path(), "hers.json", &seats, &hers);
    let why = [
        "undo 7:",
        "`actor` reads Maeoni, who may not undo note 6 at this point: the last note was made by Coal",
    ];
    refused(&out, &why, "ashes", &hers);
}

/// Coal proposes his win; a judge notes under it and Maeoni rejects it;
/// Coal proposes it again; a judge notes under it and takes the note
/// back, and Maeoni confirms it.
const ANSWERED: &str = "/match end winner:Coal reason:I win\n\
    /as judge moderator\n/match note text:ruling soon\n\
    /as Maeoni\n/match answer choice:reject\n\
    /as Coal\n/match end winner:Coal reason:I win again\n\
    /as judge moderator\n/match note text:noted\n/match undo\n\
    /as Maeoni\n/match answer choice:confirm\n";

/// A player's answer to a proposal under a moderator's note or undo is
/// hers, not a moderator's: it copied the context of the event on top,
/// the moderator's mark included, so Maeoni's rejection and her
/// confirmation read as a moderator's and the live log was refused at
/// import ("answer 4: `actor` reads Maeoni, who holds seat 2, but the
/// event is recorded as made by a moderator who holds none").
#[test]
fn an_answer_under_a_moderators_note_or_undo_is_its_players() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, ANSWERED);
    assert_eq!(
        kinds(&file),
        [
            "setup", "note", "note", "answer", "note", "note", "undo", "end"
        ],
        "{file}"
    );
    let mut f = file.clone();
    assert_eq!(event(&mut f, 3)["context"]["moderator"], true, "{file}");
    assert_eq!(event(&mut f, 7)["context"]["moderator"], true, "{file}");
    for seq in [4, 8] {
        let e = event(&mut f, seq);
        assert_eq!(e["actor"], "Maeoni", "{e}");
        assert!(e["context"].get("moderator").is_none(), "{e}");
    }
    let out = import(&bot, dir.path(), "same.json", &seats, &file);
    assert!(
        !out.contains("0 events") && out.contains("I win again"),
        "{out}"
    );
    let engine = arbiter::engine::engine("ashes").unwrap();
    let log: Vec<LogEntry> = serde_json::from_value(file["log"].clone()).unwrap();
    let (_, bad) = replay_log(engine, &seats.map(String::from), &log);
    assert!(bad.is_empty(), "{bad:?}");
}

/// Coal notes and takes it back, and so does a judge (no question comes
/// back); Coal proposes his win, and under it Coal, then a judge, note and
/// take the note back (the proposal comes back); Maeoni rejects it; a
/// judge enters Coal's attack, which waits on Maeoni's guard, and Coal
/// notes under it and takes the note back.
const UNDONE: &str = "/match note text:warming up\n/match undo\n\
    /as judge moderator\n/match note text:judge here\n/match undo\n\
    /as Coal\n/match end winner:Coal reason:I win\n\
    /match note text:checking\n/match undo\n\
    /as judge moderator\n/match note text:ruling soon\n/match undo\n\
    /as Maeoni\n/match answer choice:reject\n\
    /as judge moderator\n/match play attack unit \"Mist Spirit\" with Hammer Knight\n\
    /as Coal\n/match note text:seated note\n/match undo\n";

/// An undo that brings a question back carries the context of the event
/// that asked it, whose proposal the next answer confirms: an export whose
/// undo was edited to carry another proposal (Maeoni's win for Coal's)
/// imported, and the next Confirm applied it (found by a review). Refused
/// at import and at `verify` naming the undo and the field, as is an undo
/// that brings back no question carrying one, and a player's undo marked
/// as a moderator's. What is the undo's own is no part of it: a judge's
/// undo, marked as a moderator's, imports with or without a question
/// brought back (the first check compared the whole context and refused
/// every moderator's undo), and so does an older log's undo that copied
/// the judge's play's context whole, its moderator's mark included.
#[test]
fn an_undo_carries_the_context_of_the_question_it_brings_back() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, file) = played(dir.path(), "ashes", &seats, UNDONE);
    assert_eq!(
        kinds(&file),
        [
            "setup", "note", "undo", "note", "undo", "note", "note", "undo", "note", "undo",
            "answer", "play", "note", "undo"
        ],
        "{file}"
    );
    let mut whole = file.clone();
    assert_eq!(event(&mut whole, 5)["context"]["moderator"], true, "{file}");
    assert_eq!(
        event(&mut whole, 10)["context"]["moderator"],
        true,
        "{file}"
    );
    let proposal = event(&mut whole, 6)["context"].clone();
    assert!(proposal["proposal"]["text"].is_string(), "{file}");
    let play = event(&mut whole, 12)["context"].clone();
    assert_eq!(play["moderator"], true, "{file}");
    // An older log's undo: the play's context copied whole.
    event(&mut whole, 14)["context"] = play;
    for (i, f) in [&file, &whole].into_iter().enumerate() {
        let out = import(&bot, dir.path(), &format!("same{i}.json"), &seats, f);
        assert!(
            !out.contains("0 events") && out.contains("seated note"),
            "{out}"
        );
        let engine = arbiter::engine::engine("ashes").unwrap();
        let log: Vec<LogEntry> = serde_json::from_value(f["log"].clone()).unwrap();
        let (_, bad) = replay_log(engine, &seats.map(String::from), &log);
        assert!(bad.is_empty(), "{bad:?}");
    }
    let edited = |seq: i64, edit: &dyn Fn(&mut Value)| {
        let mut f = file.clone();
        edit(&mut event(&mut f, seq)["context"]);
        f
    };
    // Another proposal, whole in itself: its words are its result's.
    let conceded = |c: &mut Value| {
        let text = c["proposal"]["text"].as_str().unwrap().to_string();
        assert!(text.ends_with("(I win)"), "{text}");
        c["proposal"]["text"] = text.replace("(I win)", "(Maeoni conceded)").into();
        c["proposal"]["what"]["result"]["reason"] = "Maeoni conceded".into();
    };
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            edited(8, &conceded),
            vec![
                "undo 8:",
                "`context.proposal.text` reads \"to end the match: Coal wins (Maeoni conceded)\", \
                 but note 6, which it brings back, reads \"to end the match: Coal wins (I win)\"",
            ],
        ),
        (
            edited(3, &|c| *c = proposal.clone()),
            vec![
                "undo 3:",
                "`context.proposal` reads {",
                "but setup 1, which it brings back, waits on no question, so it carries no context",
            ],
        ),
        (
            edited(8, &|c| c["moderator"] = true.into()),
            vec![
                "undo 8:",
                "`context.moderator` reads true, but note 6, which it brings back, reads nothing",
            ],
        ),
    ];
    for (i, (f, why)) in cases.iter().enumerate() {
        let out = import(&bot, dir.path(), &format!("{i}.json"), &seats, f);
        refused(&out, why, "ashes", f);
    }
}

/// The question an undo brings back (its `ruling`, the log's `waiting:
/// …`, which the match then asks) is the one of the event it brings back,
/// a proposal's too: an undo bringing back Coal's end proposed was read as
/// asking a question of its own, and its question edited imported.
#[test]
fn the_question_an_undo_brings_back_with_a_proposal_is_the_proposals() {
    let dir = tempfile::tempdir().unwrap();
    let seats = ["Coal", "Maeoni"];
    let (bot, mut file) = played(dir.path(), "ashes", &seats, UNDONE);
    let pending = &mut event(&mut file, 8)["ruling"]["pending"];
    let question = pending["question"].as_str().unwrap().to_string();
    assert!(question.contains("(I win)"), "{question}");
    pending["question"] = question.replace("(I win)", "(Maeoni conceded)").into();
    let out = import(&bot, dir.path(), "question.json", &seats, &file);
    let why = [
        "undo 8:",
        "`ruling.pending.question` reads \"Maeoni: Coal proposes to end the match: Coal wins (Maeoni conceded)",
        "but the event it carries reads \"Maeoni: Coal proposes to end the match: Coal wins (I win)",
    ];
    refused(&out, &why, "ashes", &file);
}
