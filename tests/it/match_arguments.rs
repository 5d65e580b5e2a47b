//! Players who argue (an outside tester's faults in match tracking),
//! through the console as players type it: names that would forge a log
//! line, an undo by the player a proposal waits on, an answer that makes
//! its play illegal, a unit name two opponents share, a board name holding
//! a code fence, a note's hidden characters, a winner named two ways and
//! the Grand Archive stack left in combat.

use arbiter::bot::Bot;

use crate::match_integrity::{example, match_bot, run};

/// A match of `game` seating `players` with `board` (inline YAML) set up
/// by a judge; the console is the first player's again. With its output.
fn with_board(dir: &std::path::Path, game: &str, players: &[&str], board: &str) -> (Bot, String) {
    let bot = match_bot(dir);
    let seats: String = players
        .iter()
        .enumerate()
        .map(|(i, p)| format!(" player{}:{p}", i + 1))
        .collect();
    let out = run(
        &bot,
        players[0],
        &format!(
            "/match start game:{game}{seats}\n/as judge moderator\n/match setup\n{board}.\n/as {}\n",
            players[0]
        ),
    );
    (bot, out)
}

const ASHES3: &str = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\n  - name: Jessa\n    phoenixborn: { name: Jessa Na Ni, life: 18 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\n";

/// A seat named so that the log line it starts reads as two entries
/// ("#2 Maeoni (maeoni) conceded. #9 Coal (coal) set up the board") is
/// refused where the name enters, at its field; a card numbered at the end
/// ("Iron Worker #2") is not.
#[test]
fn names_that_read_as_another_log_entry_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let forged = ASHES3.replacen(
        "name: Coal\n",
        "name: \"Maeoni (maeoni) conceded. #9 Coal\"\n",
        1,
    );
    let forged = forged.replace("turn: Coal", "turn: Maeoni");
    let (bot, out) = with_board(dir.path(), "ashes", &["coal", "maeoni", "jessa"], &forged);
    assert!(
        out.contains("players[0].name") && out.contains("another entry of the log"),
        "{out}"
    );
    assert!(!out.contains("set up the board"), "{out}");
    // Without the number, the parenthesis still reads as Maeoni's entry.
    let forged = ASHES3
        .replacen(
            "name: Coal\n",
            "name: \"Maeoni (maeoni) conceded. Coal\"\n",
            1,
        )
        .replace("turn: Coal", "turn: Maeoni");
    let out = run(
        &bot,
        "judge",
        &format!("/as judge moderator\n/match setup\n{forged}.\n"),
    );
    assert!(
        out.contains("players[0].name") && out.contains("may not hold a parenthesis"),
        "{out}"
    );
    // Fullwidth marks read the same on Discord (found by a review).
    for name in [
        "Maeoni （maeoni） conceded. Coal",
        "Maeoni conceded. ＃９ Coal",
    ] {
        let forged = ASHES3
            .replacen("name: Coal\n", &format!("name: \"{name}\"\n"), 1)
            .replace("turn: Coal", "turn: Maeoni");
        let out = run(
            &bot,
            "judge",
            &format!("/as judge moderator\n/match setup\n{forged}.\n"),
        );
        assert!(
            out.contains("players[0].name")
                && (out.contains("may not hold a parenthesis")
                    || out.contains("another entry of the log")),
            "{name}: {out}"
        );
    }
    // A unit numbered at its end is a name like any other.
    let numbered = ASHES3.replace("Hammer Knight", "\"Hammer Knight #2\"");
    let out = run(
        &bot,
        "judge",
        &format!("/as judge moderator\n/match setup\n{numbered}.\n/match log\n"),
    );
    assert!(out.contains("set up the board"), "{out}");
    // Three backticks would end the code block a board is posted in.
    let fenced = ASHES3.replace("Hammer Knight", "\"Hammer``` **Maeoni conceded** ```\"");
    let out = run(
        &bot,
        "judge",
        &format!("/as judge moderator\n/match setup\n{fenced}.\n"),
    );
    assert!(
        out.contains("players[0].units[0].name") && out.contains("three backticks"),
        "{out}"
    );
    // Adjusting a name to a forged line is refused at its field too.
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:Jessa.units.Mist Spirit.name value:\"x #9 Coal conceded\" reason:typo\n",
    );
    assert!(out.contains("another entry of the log"), "{out}");
    // Unquoted, YAML reads the `#` as a comment: refused as such, not
    // recorded as "x".
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:Jessa.units.Mist Spirit.name value:x #9 Coal conceded reason:typo\n",
    );
    assert!(out.contains("YAML comment"), "{out}");
}

/// A seat name that reads as another seat's (a Cyrillic letter for its
/// Latin look-alike) is refused at setup and at a rename, naming the
/// other seat; so is a player that reads as another at the start (they
/// showed alike in the log and on the decision buttons; found by outside
/// testers). A rename that reads apart is recorded.
#[test]
fn look_alike_seat_and_player_names_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Jessa's seat named "Соal" (Cyrillic С and о) beside Coal.
    let twin = ASHES3.replacen("name: Jessa\n", "name: \"\u{421}\u{43e}al\"\n", 1);
    let (bot, out) = with_board(dir.path(), "ashes", &["Coal", "Maeoni", "Jessa"], &twin);
    assert!(
        out.contains("players[2].name") && out.contains("reads as “Coal”, the name of seat 1"),
        "{out}"
    );
    assert!(!out.contains("(active, version 1)"), "{out}");
    let out = run(
        &bot,
        "judge",
        &format!(
            "/as judge moderator\n/match setup\n{ASHES3}.\n/as Jessa\n/match adjust field:players.Jessa.name value:M\u{430}eoni reason:my name\n"
        ),
    );
    let reply = out.rsplit("/match adjust").next().unwrap_or(&out);
    assert!(
        reply.contains("reads as “Maeoni”, the name of seat 2") && !reply.contains("proposes"),
        "{out}"
    );
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:players.Jessa.name value:Jess reason:typo\n",
    );
    assert!(out.contains("recorded"), "{out}");
    // Players who read alike cannot both take a seat.
    let other = tempfile::tempdir().unwrap();
    let bot = match_bot(other.path());
    let out = run(
        &bot,
        "coal",
        "/match start game:ashes player1:coal player2:\u{441}oal\n",
    );
    assert!(out.contains("another player of the match"), "{out}");
}

/// The player an `agreed by` proposal waits on cannot undo it before
/// agreeing (the log read "Maeoni undid #2"): told to reject it, nothing
/// recorded; her rejection then stands on the record.
#[test]
fn the_player_asked_rejects_and_cannot_undo_a_proposal() {
    let dir = tempfile::tempdir().unwrap();
    let board = ASHES3.replacen("Mist Spirit", "Blood Archer", 2).replacen(
        "Blood Archer",
        "Mist Spirit",
        1,
    );
    let (bot, _) = with_board(dir.path(), "ashes", &["Coal", "Maeoni", "Jessa"], &board);
    let play =
        "attack unit \"Mist Spirit\" with Hammer Knight; no guard; no counter; agreed by Maeoni";
    let out = run(&bot, "Coal", &format!("/match play {play}\n"));
    assert!(out.contains("next: Maeoni decides"), "{out}");
    let out = run(&bot, "Maeoni", "/match undo\n/match log\n");
    assert!(
        out.contains("answer it with `reject`") && !out.contains("undid"),
        "{out}"
    );
    let out = run(&bot, "Maeoni", "/match answer choice:reject\n/match log\n");
    assert!(out.contains("answered: reject"), "{out}");
}

/// With three seats, a unit name two opponents share is ambiguous: the
/// error lists both by owner, and "Jessa's Mist Spirit" attacks Jessa's
/// (it once went to Maeoni's, and Jessa's could not be named).
#[test]
fn a_unit_name_two_opponents_share_is_named_with_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = with_board(dir.path(), "ashes", &["Coal", "Maeoni", "Jessa"], ASHES3);
    let out = run(
        &bot,
        "Coal",
        "/match play attack unit \"Mist Spirit\" with Hammer Knight; no guard; no counter\n",
    );
    assert!(
        out.contains("ambiguous")
            && out.contains("Maeoni's Mist Spirit")
            && out.contains("Jessa's Mist Spirit"),
        "{out}"
    );
    let out = run(
        &bot,
        "Coal",
        "/match play attack unit Jessa's Mist Spirit with Hammer Knight\n",
    );
    assert!(
        out.contains("Mist Spirit on Jessa's battlefield") && out.contains("next: Jessa decides"),
        "{out}"
    );
}

/// An answer that makes its play illegal is recorded, and the log says the
/// play turned out illegal, with the rule (it showed the steps as if done).
/// The effects' free attacks are claims: Ben confirms them first.
#[test]
fn an_answer_that_makes_the_play_illegal_says_so_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "ana",
        &format!(
            "/match start game:legion player1:ana player2:ben\n/as j moderator\n/match setup file:{}\n/as ana\n\
             /match play activate Darth Vader; move; free attack (effect: A); free attack (effect: B)\n\
             /as ben\n/match answer choice:confirm\n/as ana\n\
             /match answer choice:1\n/match answer choice:1\n/match log\n",
            example("legion-start.yaml")
        ),
    );
    let log = out.rsplit("/match log").next().unwrap_or(&out);
    assert!(out.contains("ILLEGAL"), "{out}");
    assert!(
        log.contains("turned out illegal") && log.contains("error: [legion:"),
        "{log}"
    );
}

/// A note keeps no direction control and no line break of any kind: one
/// line in the reply and the log.
#[test]
fn a_note_is_one_plain_line() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = with_board(dir.path(), "ashes", &["Coal", "Maeoni", "Jessa"], ASHES3);
    let note =
        "a\u{2028}b\u{0085}c\rd\u{000b}e\u{202e}f g\u{200b}h\u{200c}i\u{200d}j\u{2060}k\u{feff}l";
    let out = run(
        &bot,
        "Coal",
        &format!("/match note text:{note}\n/match log\n"),
    );
    assert!(out.contains("noted: a b c d ef ghijkl"), "{out:?}");
    // Zero-width characters are gone too (U+200B was kept), from an
    // adjustment's reason as well.
    let out = format!(
        "{out}{}",
        run(
            &bot,
            "Coal",
            "/match adjust field:players.Coal.phoenixborn.damage value:1 reason:mis\u{200b}read\n/match log\n",
        )
    );
    assert!(out.contains("misread"), "{out:?}");
    for c in [
        '\u{2028}', '\u{0085}', '\r', '\u{000b}', '\u{202e}', '\u{200b}', '\u{200c}', '\u{200d}',
        '\u{2060}', '\u{feff}',
    ] {
        assert!(!out.contains(c), "{c:?} in {out:?}");
    }
}

/// `end winner:coal`, where the user coal sits in one seat and another seat
/// is named Coal on the board, reads two ways: refused, naming both
/// (it conceded at once for the player who meant the seat named Coal).
#[test]
fn a_winner_named_two_ways_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "maeoni",
        &format!(
            "/match start game:ashes player1:maeoni player2:coal\n/as judge moderator\n/match setup file:{}\n/as maeoni\n/match end winner:coal\n/match board\n",
            example("ashes-start.yaml")
        ),
    );
    assert!(
        out.contains("names two seats") && !out.contains("result:"),
        "{out}"
    );
}

/// User ids compare as `start` compares them: where the user coal sits as
/// Maeoni and the user Maeoni as Coal, `winner:Coal` from coal reads two
/// ways too (compared exactly, it missed the user coal and conceded at
/// once to the seat named Coal; found by an outside tester).
#[test]
fn a_winner_named_two_ways_in_another_case_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Maeoni",
        &format!(
            "/match start game:ashes player1:Maeoni player2:coal\n/as judge moderator\n/match setup file:{}\n/as coal\n/match end winner:Coal\n/match board\n",
            example("ashes-start.yaml")
        ),
    );
    assert!(
        out.contains("names two seats") && !out.contains("result:"),
        "{out}"
    );
}

/// Grand Archive: the combat phase is not left while the defender's
/// response is on the Effects Stack (it stayed there into later turns);
/// the refusal cites the rule and says the rest is an assumption.
#[test]
fn grand_archive_combat_is_not_left_with_the_stack_full() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "alice",
        &format!(
            "/match start game:grand-archive player1:alice player2:bob\n/as judge moderator\n/match setup file:{}\n/as alice\n\
             /match play attack with fervent at stalwart guard\n/as bob\n/match answer choice:respond\n/as alice\n/match advance\n",
            example("grand-archive-start.yaml")
        ),
    );
    let last = out.rsplit("next:").next().unwrap_or(&out);
    assert!(
        out.contains("the Effects Stack still holds")
            && out.contains("grand-archive:general-rules.4")
            && out.contains("assumed"),
        "{out}"
    );
    assert!(last.contains("(Combat Phase"), "{last}");
}

/// The response question says once that passing is assumed, the rules
/// giving no default (it said so, then gave the assumption as a
/// "default:" as if the rules gave one).
#[test]
fn grand_archive_response_question_says_one_thing_of_its_default() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let db = dir.path().join("integrity.db");
    run(
        &bot,
        "alice",
        &format!(
            "/match start game:grand-archive player1:alice player2:bob\n/as judge moderator\n/match setup file:{}\n",
            example("grand-archive-start.yaml")
        ),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "play", "--channel", "console", "--as", "alice"])
        .arg("attack with fervent at stalwart guard")
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.contains("the rules give no default; if nobody answers, assumed:")
            && !out.contains("  default: "),
        "{out}"
    );
}

/// A Legion board that does not say whose `turn` it is in the Activation
/// Phase: a player's play does not take priority by playing first (it was
/// recorded, Ben never asked; found by an outside tester). It is refused
/// naming how to agree it; agreed with `adjust turn`, the play is recorded.
#[test]
fn legion_priority_is_agreed_not_taken_by_playing_first() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let text = std::fs::read_to_string(example("legion-start.yaml")).unwrap();
    assert!(text.contains("turn: Ana\n"));
    let file = dir.path().join("no-turn.yaml");
    std::fs::write(&file, text.replacen("turn: Ana\n", "", 1)).unwrap();
    let play = "/match play activate Stormtroopers; move; move\n";
    let out = run(
        &bot,
        "ana",
        &format!(
            "/match start game:legion player1:ana player2:ben\n/as j moderator\n/match setup file:{}\n/as ana\n{play}/match log\n",
            file.display()
        ),
    );
    let reply = after(&out, "== Match: cannot do that");
    assert!(
        reply.contains("does not say whose `turn` it is") && reply.contains("adjust turn NAME"),
        "{out}"
    );
    assert!(
        !after(&out, "#1 j set up").contains("#2"),
        "nothing recorded: {out}"
    );
    // Agreed: Ben confirms Ana's turn, and her play is recorded.
    let out = run(
        &bot,
        "ana",
        &format!(
            "/match adjust field:turn value:Ana reason:we rolled\n/as ben\n/match answer choice:confirm\n/as ana\n{play}"
        ),
    );
    assert!(out.contains("Play #4 recorded"), "{out}");
}

/// A Legion play that does not say which unit activates offers only the
/// units that can make it: Stormtroopers have no card action Force Choke
/// (offered, then refused when chosen, the question left waiting; found by
/// an outside tester). Darth Vader, the one left, is taken at once.
#[test]
fn legion_which_unit_offers_only_units_that_can_make_the_play() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "ana",
        &format!(
            "/match start game:legion player1:ana player2:ben\n/as j moderator\n/match setup file:{}\n/as ana\n\
             /match play move; card action Force Choke\n",
            example("legion-start.yaml")
        ),
    );
    assert!(
        out.contains("activate Darth Vader") && !out.contains("activate Stormtroopers"),
        "{out}"
    );
    // The one unit that can is taken at once, the play recorded.
    assert!(out.contains("has one answer only"), "{out}");
    let out = run(&bot, "ana", "/match board\n");
    assert!(
        after(&out, "== Match #").contains("active: Darth Vader"),
        "{out}"
    );
}

/// A seat renamed while `turn` names it: `turn` follows the new name (the
/// rename was refused as "turn: unknown player 'Ana'", even a moderator's;
/// found by an outside tester).
#[test]
fn a_seat_renamed_keeps_its_turn() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "ana",
        &format!(
            "/match start game:legion player1:ana player2:ben\n/as j moderator\n/match setup file:{}\n\
             /match adjust field:players.Ana.name value:Anna reason:typo\n/match board\n",
            example("legion-start.yaml")
        ),
    );
    assert!(!out.contains("unknown player"), "{out}");
    let board = after(&out, "== Match #");
    assert!(
        board.contains("turn: Anna") && board.contains("name: Anna"),
        "{out}"
    );
}

fn after<'a>(out: &'a str, marker: &str) -> &'a str {
    out.rfind(marker).map_or("", |i| &out[i..])
}

/// A board kept from before seat names with a parenthesis were refused
/// does not block another seat's rename: only the name being set is held
/// to the rule (Ana's rename was refused for Ben's old name; found by an
/// outside tester).
#[test]
fn an_older_seat_name_does_not_block_another_seats_rename() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        use arbiter::app::matches::{Caller, Matches};
        use arbiter::store::{EventKind, NewEvent, Store};
        let store = Store::connect(&url).await.unwrap();
        let m = Matches::new(store.clone());
        let judge = Caller::new("t", "judge", true);
        m.start(&judge, "legion", &["ana".into(), "ben".into()])
            .await
            .unwrap();
        let board = std::fs::read_to_string(example("legion-start.yaml")).unwrap();
        m.setup(&judge, &board).await.unwrap();
        // The board as an older release stored it, Ben's seat "Ben (old)".
        let rec = store.active_match("t").await.unwrap().unwrap();
        let mut old = rec.state.clone().unwrap();
        old["players"][1]["name"] = "Ben (old)".into();
        let event = NewEvent::new(EventKind::Setup, "judge", old);
        store.append(rec.id, rec.version, &event).await.unwrap();
        let r = m
            .adjust(&judge, "players.Ana.name", "Anna", "typo")
            .await
            .unwrap();
        assert!(!r.proposed);
        let v = m.board("t").await.unwrap();
        let names: Vec<&str> = v.board.as_ref().unwrap()["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(names, ["Anna", "Ben (old)"]);
        // The name being set is still held to it.
        let e = m
            .adjust(&judge, "players.Anna.name", "Anna (new)", "typo")
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("may not hold a parenthesis"), "{e}");
    });
}

const GA3: &str = "game: grand-archive\nturn_player: Alice\nplayers:\n  - name: Alice\n    reserve: 4\n    champion: { name: \"Lorraine, Wandering Warrior\" }\n    allies:\n      - name: Fervent Lancer\n  - name: Bob\n    champion: { name: \"Rai, Spellcrafter\" }\n    allies:\n      - name: Stalwart Guard\n  - name: Cara\n    champion: { name: \"Tristan, Underhanded\" }\n    allies:\n      - name: Stalwart Guard\n";

/// Grand Archive with a card name two opponents share: the target
/// question offers each with its owner ("Cara's Stalwart Guard"), which an
/// answer may name, and a play naming it so attacks Cara's; the name alone
/// is refused as ambiguous, listing both by owner (the question listed
/// "Stalwart Guard or Stalwart Guard"; found by an outside tester).
#[test]
fn grand_archive_cards_two_opponents_share_are_named_with_their_owner() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, out) = with_board(dir.path(), "grand-archive", &["Alice", "Bob", "Cara"], GA3);
    assert!(out.contains("(active, version 1)"), "{out}");
    let out = run(
        &bot,
        "Alice",
        "/match play attack with fervent at stalwart guard\n",
    );
    assert!(
        out.contains("ambiguous")
            && out.contains("Bob's Stalwart Guard")
            && out.contains("Cara's Stalwart Guard"),
        "{out}"
    );
    let out = run(&bot, "Alice", "/match play attack with fervent\n");
    assert!(
        out.contains("Bob's Stalwart Guard (ally)") && out.contains("Cara's Stalwart Guard (ally)"),
        "{out}"
    );
    let out = run(
        &bot,
        "Alice",
        "/match answer choice:Cara's Stalwart Guard\n/match board\n",
    );
    assert!(out.contains("next: Cara decides"), "{out}");
    // Named with its owner in the play itself.
    let out = run(
        &bot,
        "Alice",
        "/match undo\n/match undo\n/match play attack with fervent at Bob's Stalwart Guard\n",
    );
    assert!(out.contains("next: Bob decides"), "{out}");
}
