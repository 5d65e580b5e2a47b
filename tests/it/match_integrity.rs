//! Match integrity (issue 28), through the console as players type it: no
//! player decides for another, a result nobody can fake, an undo that
//! follows the log. Each test is a cheating attempt or a consent flow.

use std::sync::Arc;

use crate::store_common;

use arbiter::app::App;
use arbiter::bot::{Bot, BotConfig};

/// A bot whose match database is a file in `dir`.
pub(crate) fn match_bot(dir: &std::path::Path) -> Bot {
    let url = format!("sqlite://{}", dir.join("integrity.db").display());
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = App::load(&root.join("rules_data"), &[]).expect("rule data");
    Bot::new(
        Arc::new(app),
        BotConfig {
            database_url: Some(url),
            ..BotConfig::default()
        },
    )
}

/// An example board with one edit (`from` → `to`), written in `dir`: the
/// file and its text.
fn edited_example(
    dir: &std::path::Path,
    name: &str,
    from: &str,
    to: &str,
) -> (std::path::PathBuf, String) {
    let text = std::fs::read_to_string(example(name)).unwrap();
    assert!(text.contains(from), "{name} has no `{from}`");
    let text = text.replacen(from, to, 1);
    let file = dir.join(format!("edited-{name}"));
    std::fs::write(&file, &text).unwrap();
    (file, text)
}

/// Runs a console script as `user`; the output.
pub(crate) fn run(bot: &Bot, user: &str, script: &str) -> String {
    let session = arbiter::bot::console::Session {
        user: user.into(),
        moderator: false,
        guild: None,
    };
    let mut out = Vec::new();
    arbiter::bot::console::run_as(
        bot,
        &session,
        &mut script.as_bytes(),
        &mut out,
        false,
        false,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

pub(crate) fn example(name: &str) -> String {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    root.join("examples/matches")
        .join(name)
        .display()
        .to_string()
}

/// An Ashes match of Coal and Maeoni on the shipped starting board.
fn ashes(dir: &std::path::Path) -> Bot {
    let (bot, out) = set_up(dir, "ashes", &["Coal", "Maeoni"]);
    assert!(out.contains("next: Coal: your turn"), "{out}");
    bot
}

/// A match of `game` seating `players`, its example's starting board set up
/// by a judge; the console is the first player's again. With what it said.
fn set_up(dir: &std::path::Path, game: &str, players: &[&str]) -> (Bot, String) {
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
            "/match start game:{game}{seats}\n/as judge moderator\n/match setup file:{}\n/as {}\n",
            example(&format!("{game}-start.yaml")),
            players[0]
        ),
    );
    (bot, out)
}

/// A three-player TI4 match (Ana, Ben, Cleo) on the example's starting board.
fn ti4(dir: &std::path::Path) -> Bot {
    let (bot, out) = set_up(dir, "ti4", &["Ana", "Ben", "Cleo"]);
    assert!(out.contains("(active, version 1)"), "{out}");
    bot
}

#[test]
fn a_claimed_win_waits_for_the_opponent_and_a_concession_is_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    // Coal claims the win: Maeoni is asked; the match goes on meanwhile.
    let out = run(&bot, "Coal", "/match end winner:Coal reason:I win\n");
    assert!(
        out.contains("Coal proposes to end the match: Coal wins (I win)")
            && out.contains("(active, version 2)")
            && out.contains("[1] confirm  [2] reject"),
        "{out}"
    );
    // Coal cannot confirm his own claim.
    let out = run(&bot, "Coal", "/match answer choice:confirm\n");
    assert!(
        out.contains("(only you see this)") && out.contains("only they or a moderator"),
        "{out}"
    );
    // Maeoni rejects: recorded, nothing changes.
    let out = run(&bot, "Maeoni", "/match answer choice:reject\n");
    assert!(out.contains("answer #3 recorded"), "{out}");
    let out = run(&bot, "Maeoni", "/match log\n");
    assert!(
        out.contains("Maeoni answered: rejected: to end the match: Coal wins (I win)"),
        "{out}"
    );
    // Maeoni concedes: at once, and it says so.
    let out = run(&bot, "Maeoni", "/match end winner:Coal reason:concession\n");
    assert!(
        out.contains("(ended, version 4)")
            && out.contains("result: Coal wins: concession (conceded by Maeoni)"),
        "{out}"
    );
}

/// A moderator who holds a seat is a player in their own match: their
/// claimed win asks the opponent, and their opponent's play is not theirs
/// to undo (found by an outside tester: a seated moderator stated her
/// choices, set her damage and named himself winner, all at once).
#[test]
fn a_moderator_who_holds_a_seat_is_a_player_in_that_match() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/as Coal moderator\n/match end winner:Coal reason:I win\n",
    );
    assert!(
        out.contains("Coal proposes to end the match: Coal wins (I win)")
            && out.contains("(active, version 2)"),
        "{out}"
    );
    let out = run(
        &bot,
        "Coal",
        "/as Coal moderator\n/match answer choice:confirm\n",
    );
    assert!(out.contains("(only you see this)"), "{out}");
    // Waiting on Maeoni: the refusal names who answers, not this moderator
    // (it said "Maeoni or a moderator answers it" to a seated one).
    let out = run(&bot, "Coal", "/as Coal moderator\n/match play pass\n");
    assert!(
        out.contains("Maeoni or a moderator who holds no seat in the match answers it"),
        "{out}"
    );
    // Another moderator, who holds no seat, still answers for Maeoni.
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match answer choice:reject\n",
    );
    assert!(out.contains("answer #3 recorded"), "{out}");
    run(&bot, "Coal", "/as Coal moderator\n/match play pass\n");
    let out = run(&bot, "Maeoni", "/match play pass\n");
    assert!(out.contains("Play #5 recorded"), "{out}");
    let out = run(&bot, "Coal", "/as Coal moderator\n/match undo\n");
    assert!(
        out.contains("(only you see this)") && !out.contains("Undone"),
        "{out}"
    );
    // Named as every other refusal names a moderator: "or a moderator"
    // told this moderator, who holds a seat, that they might.
    assert!(
        out.contains("only they or a moderator who holds no seat in the match may undo it"),
        "{out}"
    );
}

#[test]
fn the_loser_cannot_rewind_a_result_and_a_moderator_reopens_an_end() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match end winner:Coal reason:I win\n/as Maeoni\n1\n/match undo\n",
    );
    assert!(
        out.contains("result: Coal wins: I win (agreed by Maeoni)"),
        "{out}"
    );
    // The loser's undo is refused, naming who may.
    assert!(
        out.contains(
                "undoing the result (Coal wins: I win (agreed by Maeoni)) needs the other side's consent: only Coal, who won it, or a moderator who holds no seat in the match may undo it"
            ),
        "{out}"
    );
    // A moderator undoes the `end`: the match reopens (the claim is asked again).
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match undo\n/match board\n",
    );
    assert!(
        out.contains("== Undone: event #3 ==") && out.contains("(active, version 4)"),
        "{out}"
    );
    // The winner may give the result up himself: his claim goes with
    // Maeoni's confirmation, nobody asked again.
    let out = run(
        &bot,
        "Maeoni",
        "/match answer choice:confirm\n/as Coal\n/match undo\n/match board\n",
    );
    assert!(out.contains("== Undone: event #2 =="), "{out}");
    assert!(!after(&out, "== Match #").contains("waiting for"), "{out}");
}

#[test]
fn agreed_by_asks_the_player_instead_of_speaking_for_her() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let play =
        "attack unit \"Mist Spirit\" with Hammer Knight; no guard; no counter; agreed by Maeoni";
    let out = run(&bot, "Coal", &format!("/match play {play}\n"));
    // Nothing is said for Maeoni: she is asked, and the board is as it was.
    assert!(
        out.contains("proposal #2 recorded: nothing changes unless it is confirmed")
            && out.contains("next: Maeoni decides")
            && !out.contains("Maeoni declares"),
        "{out}"
    );
    let out = run(&bot, "Coal", "/match board\n");
    assert!(out.contains("Mist Spirit"), "{out}");
    // Only Maeoni (or a moderator) confirms; her confirmation records the play.
    let out = run(&bot, "Coal", "/match answer choice:1\n");
    assert!(out.contains("(only you see this)"), "{out}");
    let out = run(&bot, "Maeoni", "/match answer choice:confirm\n");
    assert!(
        out.contains("Answer #3 recorded (ashes): the play is legal")
            && out.contains("Maeoni declares no guard"),
        "{out}"
    );
}

#[test]
fn a_self_adjust_that_wins_the_game_asks_every_other_player() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:10 reason:trust me\n",
    );
    assert!(
        out.contains("proposal #2 recorded")
            && out.contains("it ends the game (Ana wins)")
            && !out.contains("the match has ended"),
        "{out}"
    );
    // Ben confirms; Cleo is asked next, and rejects: nothing changed.
    let out = run(&bot, "Ben", "/match answer choice:confirm\n");
    assert!(out.contains("next: Cleo decides"), "{out}");
    let out = run(&bot, "Cleo", "/match answer choice:reject\n/match board\n");
    assert!(
        out.contains("(active, version 4)") && out.contains("victory_points: 0"),
        "{out}"
    );
    // Confirmed by both, the adjustment ends the game.
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:10 reason:trust me\n\
         /as Ben\n/match answer choice:confirm\n/as Cleo\n/match answer choice:confirm\n",
    );
    assert!(out.contains("the match has ended"), "{out}");
    assert!(out.contains("Ana wins"), "{out}");
}

/// A change of one's own seat that only binds its player is recorded at
/// once (it asked the others for consent; found by outside testers): a
/// Grand Archive must-attack obligation added to one's own list, or
/// marked not yet attempted, and Ashes' `main_action_used` set on one's
/// own turn. Freeing oneself of one asks, and so does the same change on
/// another player's turn, of that player only.
#[test]
fn a_change_that_only_binds_its_player_is_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "grand-archive", &["Alice", "Bob"]);
    let out = run(
        &bot,
        "Alice",
        "/match adjust field:players.Alice.must_attack value:[{with: Fervent Lancer}] reason:my own effect\n\
         /match adjust field:players.Alice.must_attack.+ value:{with: Bulwark Sword} reason:and this\n",
    );
    assert!(
        out.matches("Match: adjust #").count() == 2 && !out.contains("proposal"),
        "{out}"
    );
    // Marked attempted, or taken away, it may free her: Bob is asked.
    for (field, value) in [
        ("players.Alice.must_attack.0.attempted", "true"),
        ("players.Alice.must_attack", "[{with: Bulwark Sword}]"),
    ] {
        let out = run(
            &bot,
            "Alice",
            &format!("/match adjust field:{field} value:{value} reason:x\n/match undo\n"),
        );
        assert!(out.contains("next: Bob decides"), "{field}: {out}");
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:main_action_used value:true reason:spent it\n",
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains("proposal"),
        "{out}"
    );
    // Given back, it asks; Maeoni's on Coal's turn asks Coal.
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:main_action_used value:false reason:oops\n",
    );
    assert!(out.contains("next: Maeoni decides"), "{out}");
    let out = run(
        &bot,
        "Coal",
        "/match undo\n/match undo\n/as Maeoni\n/match adjust field:main_action_used value:true reason:he did\n",
    );
    assert!(out.contains("next: Coal decides"), "{out}");
}

/// A score the result is counted on is every player's business, even a
/// player's own: Ana's 9 victory points of 10 wait for Ben and Cleo, Coal's
/// healed phoenixborn for Maeoni; a player's own bookkeeping (a faction) and
/// a score made worse for themselves (damage taken) are recorded at once.
#[test]
fn a_self_adjust_of_a_score_asks_the_other_players() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:9 reason:trust me\n",
    );
    assert!(
        out.contains("proposal #2 recorded")
            && out.contains("it may raise their own standing")
            && out.contains("next: Ben decides"),
        "{out}"
    );
    let out = run(&bot, "Ben", "/match answer choice:reject\n/match board\n");
    assert!(out.contains("victory_points: 0"), "{out}");
    // Confirmed by both, the log says who proposed and who agreed (it read
    // as Cleo's own adjustment; found by an outside tester).
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:1 reason:scored\n/as Ben\n/match answer choice:confirm\n/as Cleo\n/match answer choice:confirm\n/match log\n",
    );
    assert!(
        out.contains("adjusted players[Ana].victory_points = 1 (reason: scored), proposed by Ana, confirmed by Ben, Cleo"),
        "{out}"
    );
    // Her own score made worse is at once; any other field of her seat
    // (one the game gives no better direction) may help her, and asks
    // (found by an outside tester: a TI4 initiative set to 0 took the turn).
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:0 reason:counted again\n",
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains("proposal"),
        "{out}"
    );
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.faction value:Emirates of Hacan reason:forgot\n",
    );
    assert!(
        out.contains("recorded: nothing changes unless it is confirmed"),
        "{out}"
    );

    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:Coal.phoenixborn.damage value:0 reason:healed\n",
    );
    assert!(
        out.contains("recorded: nothing changes unless it is confirmed")
            && out.contains("next: Maeoni decides"),
        "{out}"
    );
    let out = run(
        &bot,
        "Coal",
        "/as Maeoni\n/match answer choice:reject\n/as Coal\n\
         /match adjust field:Coal.phoenixborn.damage value:5 reason:Molten Gold\n",
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains("proposal"),
        "{out}"
    );
    // A unit's attack decides fights: raising one's own asks too.
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:Coal.units.Iron Worker.attack value:999 reason:buff\n",
    );
    assert!(out.contains("next: Maeoni decides"), "{out}");
}

/// What a proposal asks to confirm is the change itself: an appended unit
/// "from null to" the unit, a removed one "to null"; a seat renamed by its
/// own player asks the other, and a look-alike of the other's name is
/// refused; a score left out counts from 0, so setting it to 0 is
/// nobody else's business.
#[test]
fn a_proposal_states_the_change_it_makes() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:players.Coal.units[+] value:{name: Giant, attack: 999, life: 99} reason:new\n",
    );
    assert!(
        out.contains("from null to {")
            && out.contains("Giant")
            && out.contains("next: Maeoni decides"),
        "{out}"
    );
    let out = run(
        &bot,
        "Coal",
        "/match undo\n/match adjust field:players.Maeoni.units.Frostback Bear value:null reason:gone\n",
    );
    assert!(
        out.contains("\"name\":\"Frostback Bear\"} to null"),
        "{out}"
    );
    run(&bot, "Coal", "/match undo\n");
    // A look-alike of Coal's name ("Coa1") is refused outright, naming
    // his seat; another name asks him.
    let out = run(
        &bot,
        "Maeoni",
        "/match adjust field:players.Maeoni.name value:Coa1 reason:typo\n",
    );
    assert!(
        out.contains("reads as “Coal”, the name of seat 1") && !out.contains("next: Coal decides"),
        "{out}"
    );
    let out = run(
        &bot,
        "Maeoni",
        "/match adjust field:players.Maeoni.name value:Mae reason:typo\n",
    );
    assert!(out.contains("next: Coal decides"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ben",
        "/match adjust field:players.Ben.victory_points value:0 reason:counting\n",
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains("proposal"),
        "{out}"
    );
}

/// A player's starting board sets every seat's standing: it is a proposal
/// the other players confirm, and nothing is played meanwhile (a player
/// alone set his opponent one hit from defeat, then attacked; found by an
/// outside tester). The other player's own board waits for her answer; her
/// rejection brings back no board; its author may replace it meanwhile.
#[test]
fn a_players_starting_board_waits_for_the_other_players_consent() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (nearly, _) = edited_example(dir.path(), "ashes-start.yaml", "damage: 4", "damage: 19");
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n/match play attack Maeoni with Hammer Knight\n",
            nearly.display()
        ),
    );
    assert!(
        out.contains("Coal proposes the starting board shown")
            && out.contains("[1] confirm  [2] reject")
            && out.contains("waiting for Maeoni's decision"),
        "{out}"
    );
    // Her own board waits for her answer; she rejects: no board again.
    let out = run(
        &bot,
        "Maeoni",
        &format!(
            "/match setup file:{}\n/match answer choice:reject\n/match board\n",
            example("ashes-start.yaml")
        ),
    );
    assert!(out.contains("waiting for Maeoni's decision"), "{out}");
    assert!(out.contains("no board yet"), "{out}");
    // Coal proposes again and replaces his own proposal; she confirms the
    // second: it is the board, his to replace before any play.
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match setup file:{}\n/match setup file:{}\n",
            nearly.display(),
            example("ashes-start.yaml")
        ),
    );
    assert!(!out.contains("cannot do that"), "{out}");
    let out = run(&bot, "Maeoni", "/match answer choice:confirm\n/match log\n");
    assert!(
        out.contains("#2 Maeoni answered: rejected: the starting board shown")
            && out.contains("#3 Coal proposed the starting board (asked for consent)")
            && out.contains("#5 Coal set up the board, confirmed by Maeoni"),
        "{out}"
    );
    let v = run(&bot, "Maeoni", "/match board\n");
    assert!(v.contains("damage: 4") && !v.contains("damage: 19"), "{v}");
    assert!(v.contains("next: Coal: your turn"), "{v}");
}

/// A board proposed again over one still waiting does not bring the first
/// back when the second is rejected: the board every player agreed to
/// does (none yet), and `verify` agrees; a note does not make another
/// player's board replaceable; a moderator's confirmation says so in the
/// log (found by an outside reviewer).
#[test]
fn a_rejected_replacement_brings_back_the_agreed_board_not_the_first_proposal() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (evil, _) = edited_example(dir.path(), "ashes-start.yaml", "damage: 4", "damage: 19");
    let fair = example("ashes-start.yaml");
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n/match setup file:{fair}\n/as Maeoni\n/match answer choice:reject\n/match board\n/match verify\n",
            evil.display()
        ),
    );
    assert!(out.contains("no board yet"), "{out}");
    assert!(out.contains("the log replays"), "{out}");
    // Maeoni's board, confirmed by a moderator for Coal; Coal's note does
    // not make it his to replace.
    let out = run(
        &bot,
        "Maeoni",
        &format!(
            "/match setup file:{fair}\n/as judge moderator\n/match answer choice:confirm\n/as Coal\n/match note text:hi\n/match setup file:{}\n/match log\n",
            evil.display()
        ),
    );
    assert!(
        out.contains("Maeoni set up this board; only they or a moderator may replace it"),
        "{out}"
    );
    assert!(
        out.contains("set up the board, confirmed by a moderator for Coal"),
        "{out}"
    );
}

/// A note made while a board waits does not take the board from its
/// author: he may still replace it, and her rejection brings back no board
/// (found by a reviewer: the note hid the proposal).
#[test]
fn a_note_on_a_waiting_board_leaves_it_its_authors_to_replace() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (evil, _) = edited_example(dir.path(), "ashes-start.yaml", "damage: 4", "damage: 19");
    let fair = example("ashes-start.yaml");
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n/as Maeoni\n/match note text:checking\n/as Coal\n/match setup file:{fair}\n",
            evil.display()
        ),
    );
    assert!(!out.contains("cannot do that"), "{out}");
    let out = run(
        &bot,
        "Maeoni",
        "/match answer choice:reject\n/match board\n/match verify\n",
    );
    assert!(out.contains("no board yet"), "{out}");
    assert!(out.contains("the log replays"), "{out}");
}

/// A match ended while a board waits on consent ends on the board agreed
/// before, not on the one proposed (found by an outside reviewer), and its
/// log replays.
#[test]
fn an_end_while_a_board_waits_keeps_the_agreed_board() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let (evil, _) = edited_example(dir.path(), "ashes-start.yaml", "damage: 4", "damage: 19");
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match setup file:{}\n/match end winner:Maeoni reason:concession\n/match board\n/match verify\n",
            evil.display()
        ),
    );
    assert!(out.contains("the log replays"), "{out}");
    let board = after(&out, "(ended, version");
    let board = board.split("== ").next().unwrap_or_default();
    assert!(
        board.contains("damage: 4") && !board.contains("damage: 19"),
        "{board}"
    );
}

/// Its author withdraws a first board still proposed with `undo` (it said
/// "nothing to undo"); the match is back to no board, and replays.
#[test]
fn a_first_board_proposed_is_withdrawn_by_its_author() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n/as Maeoni\n/match undo\n/as Coal\n/match undo\n/match board\n/match verify\n",
            example("ashes-start.yaml")
        ),
    );
    let (before_coal, coal) = out.split_once("now acting as Coal").expect("both acted");
    let maeoni = after(before_coal, "now acting as Maeoni");
    assert!(
        maeoni.contains("(only you see this)") && !maeoni.contains("Undone"),
        "not hers to withdraw: {out}"
    );
    assert!(coal.contains("== Undone: event #1 =="), "{out}");
    assert!(out.contains("no board yet"), "{out}");
    assert!(out.contains("the log replays"), "{out}");
}

/// A board that puts a player out of the game asks them too: who is out is
/// read on the board in effect, not on the one proposed (found by an
/// outside reviewer).
#[test]
fn a_board_that_puts_a_player_out_asks_that_player_too() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = dir.path().join("three.yaml");
    std::fs::write(
        &board,
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n  - name: Noah\n    phoenixborn: { name: Noah Redmoon, life: 18, damage: 18 }\n",
    )
    .unwrap();
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni player3:Noah\n/match setup file:{}\n/as Maeoni\n/match answer choice:confirm\n",
            board.display()
        ),
    );
    assert!(out.contains("next: Noah decides"), "{out}");
}

/// A moderator who holds no seat enters a seat's play with every choice
/// it writes; a choice it leaves out is still asked of its owner (it was
/// taken at the rules' default), and the opponent cannot undo the entry.
#[test]
fn a_moderators_entry_asks_the_choices_it_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match play attack unit \"Mist Spirit\" with Hammer Knight\n",
    );
    assert!(out.contains("⏳ waiting for Maeoni"), "{out}");
    let out = run(&bot, "Maeoni", "/match undo\n");
    assert!(
        out.contains("(only you see this)") && !out.contains("Undone"),
        "{out}"
    );
}

/// A proposal half confirmed is still its author's to take back: Ana's
/// undo takes back Ben's confirmation, then her proposal; Cleo is told the
/// proposal is Ana's, not Ben's (found by an outside tester).
#[test]
fn a_half_confirmed_proposal_is_its_authors_to_take_back() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:9 reason:scored\n\
             /as Ben\n/match answer choice:confirm\n",
    );
    // Cleo, whom it waits on, is told to reject it instead.
    let out = run(&bot, "Cleo", "/match undo\n");
    assert!(
        out.contains(
            "the last event is #3, Ben's confirmation of Ana's proposal (Ana proposes to set"
        ) && out.contains("it waits on your consent")
            && out.contains("answer it with `reject`")
            && out.contains(
                "only its author Ana or a moderator who holds no seat in the match may undo it"
            ),
        "{out}"
    );
    // Her undo takes back the whole proposal, not Ben's confirmation
    // alone (which asked him again; found by an outside tester).
    let out = run(&bot, "Ana", "/match undo\n/match board\n");
    assert!(
        out.contains("== Undone: event #2 ==") && out.contains("victory_points: 0"),
        "{out}"
    );
    let board = out.split("== Match #1").nth(1).unwrap_or_default();
    assert!(!board.contains("waiting: "), "nobody is asked: {out}");
    let out = run(&bot, "Ana", "/match log\n/match verify\n");
    assert!(out.contains("Ana undid #2"), "{out}");
    assert!(
        out.contains("every stored board equals the replay"),
        "{out}"
    );
    // A note another player wrote while it waited is not taken with it:
    // her undo takes back the confirmation on top alone (found by a review).
    run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:9 reason:scored\n\
         /as Cleo\n/match note text:hello\n/as Ben\n/match answer choice:confirm\n",
    );
    let out = run(&bot, "Ana", "/match undo\n/match log\n");
    assert!(
        out.contains("Cleo noted: hello") && out.contains("Ana undid #"),
        "{out}"
    );
    assert!(out.contains("Ana undid #7"), "the note stays: {out}");
}

/// A player's own field that may help them whichever way it moves asks
/// the others: a strategy card's initiative (it orders the turns), a unit's
/// activation given back, a fighter's movement; their own made worse, or a
/// change of nothing, does not (found by an outside tester: Cleo set her
/// initiative to 0 and took Ana's turn; Ben's Luke activated twice).
#[test]
fn an_own_field_that_may_help_its_player_asks_the_others() {
    let proposed = "recorded: nothing changes unless it is confirmed";
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Cleo",
        "/match adjust field:players.Cleo.strategy_cards.Politics.initiative value:0 reason:Naalu\n/match board\n",
    );
    assert!(out.contains(proposed), "{out}");
    assert!(out.contains("from 3 to 0"), "{out}");
    // Said once in the log ("proposed … (proposed) (asked for consent)").
    let log = run(&bot, "Cleo", "/match log\n");
    assert!(
        log.contains(
            "proposed players[Cleo].strategy_cards[Politics].initiative = 0 (asked for consent)"
        ),
        "{log}"
    );
    assert!(
        !out.contains("Cleo: your turn"),
        "the turn stays Ana's: {out}"
    );
    let out = run(
        &bot,
        "Cleo",
        "/match undo\n/match adjust field:players.Cleo.passed value:false reason:oops\n",
    );
    assert!(out.contains("is already false: nothing to adjust"), "{out}");
    let adjusted = |game: &str, other: &str, first: &str, field: &str, value: &str| {
        let dir = tempfile::tempdir().unwrap();
        let (bot, _) = set_up(dir.path(), game, &["Ana", other]);
        let adjust = format!("/match adjust field:{field} value:{value} reason:bookkeeping\n");
        run(&bot, "Ana", &format!("{first}{adjust}"))
    };
    for (game, other, first, field, value) in [
        (
            "legion",
            "Ben",
            "/match play activate Darth Vader; move; end\n",
            "players.Ana.units.Darth Vader.activated",
            "false",
        ),
        (
            "legion",
            "Ben",
            "",
            "players.Ana.units.Stormtroopers.actions",
            "2",
        ),
        (
            "magewinds",
            "Bram",
            "",
            "players.Ana.fighters.Pyromancer.movement",
            "99",
        ),
    ] {
        let out = adjusted(game, other, first, field, value);
        assert!(out.contains(proposed), "{game}: {out}");
    }
    // Her own fighter slowed is at once.
    let out = adjusted(
        "magewinds",
        "Bram",
        "",
        "players.Ana.fighters.Pyromancer.movement",
        "3",
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains(proposed),
        "{out}"
    );
}

/// A match started right after a result cannot bury it: nothing recorded
/// in the new match, `undo` withdraws it (its players or a moderator, not
/// a stranger), and the moderator's next undo reopens the ended one (found
/// by an outside tester: "there is nothing to undo", and no command
/// reached the ended match).
#[test]
fn a_new_match_cannot_bury_an_ended_one() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match end winner:Coal reason:judge ruling\n\
         /as Coal\n/match start game:ashes player1:Coal player2:Maeoni\n/as Stranger\n/match undo\n",
    );
    assert!(
        out.contains("only the match's players or a moderator may withdraw it"),
        "{out}"
    );
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match undo\n/match undo\n/match board\n",
    );
    assert!(
        out.contains(
            "match #2 withdrawn: nothing in it was in effect; match #1 is this channel's again"
        ),
        "{out}"
    );
    assert!(out.contains("== Undone: event #"), "{out}");
    assert!(
        out.contains("match #1 in console (active"),
        "reopened: {out}"
    );
}

/// A note made while a proposal waits is a note, not the proposal, and
/// it blocks nobody's undo of their own event: the proposal's author
/// withdraws it, the note with it (it was refused "the last note was made
/// by Ben", which a reviewer had found called "the last proposal"; an
/// outside tester's opponent so kept a play from its author). A player the
/// proposal waits on is still told to reject it.
#[test]
fn a_note_under_a_waiting_proposal_blocks_not_its_authors_undo() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:9 reason:scored\n\
             /as Ben\n/match note text:checking the objective\n",
    );
    let out = run(&bot, "Cleo", "/match undo\n");
    assert!(out.contains("answer it with `reject`"), "{out}");
    let out = run(&bot, "Ana", "/match undo\n/match board\n");
    assert!(
        out.contains("== Undone: event #2 ==")
            && out.contains(
                "notes: made since, taken back with it: note #3 (Ben: checking the objective)"
            ),
        "{out}"
    );
    assert!(!out.contains("waiting for a decision"), "{out}");
}

#[test]
fn a_players_import_is_credited_to_them_without_the_files_words() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(&bot, "Coal", "/match export\n");
    let yaml = exported(&out).replacen(
        "- actor: judge\n",
        "- actor: judge\n  input: 'Maeoni: I concede'\n",
        1,
    );
    assert!(yaml.contains("I concede"), "{yaml}");
    let file = dir.path().join("export.yaml");
    std::fs::write(&file, &yaml).unwrap();
    let other = tempfile::tempdir().unwrap();
    let bot2 = match_bot(other.path());
    let out = run(
        &bot2,
        "Maeoni",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n/match log\n",
            file.display()
        ),
    );
    // Hers, as a board she proposes (Coal confirms it).
    assert!(
        out.contains("#1 Maeoni proposed the starting board"),
        "{out}"
    );
    assert!(!out.contains("I concede"), "{out}");
}

/// A player out of the game (an Ashes Phoenixborn destroyed, two others
/// standing) is not waited on: a concession between the two left is at
/// once (found by an outside tester: it waited on the player who was out).
#[test]
fn a_player_out_of_the_game_is_not_asked_to_consent() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = dir.path().join("three.yaml");
    std::fs::write(
        &board,
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n  - name: Jessa\n    phoenixborn: { name: Jessa Na Ni, life: 18, damage: 18 }\n",
    )
    .unwrap();
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni player3:Jessa\n/as judge moderator\n/match setup file:{}\n/as Coal\n",
            board.display()
        ),
    );
    assert!(!out.contains("cannot do that"), "{out}");
    let out = run(&bot, "Maeoni", "/match end winner:Coal reason:concession\n");
    assert!(
        out.contains("conceded by Maeoni") && !out.contains("Jessa decides"),
        "{out}"
    );
}

/// `agreed by` speaks for the seats it names only: Cleo's consent does
/// not accept Ana's trade for Ben, who is still asked his own choice.
#[test]
fn agreed_by_one_player_does_not_speak_for_another() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ana",
        "/match play text:Ana trades with Ben; accepted; agreed by Cleo\n",
    );
    // Refused at once (nothing recorded), or asked of Cleo; never taken as Ben's.
    let out = format!(
        "{out}{}",
        run(&bot, "Cleo", "/match answer choice:confirm\n/match log\n")
    );
    assert!(!out.contains("Ben agrees"), "{out}");
    assert!(!out.contains("Ben accepts"), "{out}");
    assert!(
        out.contains("Ben's choice") || out.contains("Ben decides"),
        "{out}"
    );
}

/// A choice the attacker wrote for the defender ("no counter") did not
/// stop the play, which waited on her guard; her answer was then refused
/// for that choice, even a moderator's, and the match was stuck. Then her
/// answer was taken and the counter asked, the written one dropped (an
/// outside tester's `counter: true`); now the play is refused when made.
#[test]
fn a_choice_written_for_the_defender_behind_her_guard_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    // Her counter (or split) comes after her guard: it was recorded,
    // dropped, and asked of her after the guard; an empty `blocks` read
    // as left out. Each is refused as her guard written for her is.
    for play in [
        "attack unit Frostback Bear with Hammer Knight; no counter",
        "play: {action: attack-unit, attackers: [Iron Worker], target: Mist Spirit, counter: true}",
        "play: {action: attack-unit, attackers: [Iron Worker], target: Mist Spirit, counter: false}",
        "play: {action: attack-unit, attackers: [Iron Worker, Hammer Knight], target: Mist Spirit, split: {Iron Worker: 1}}",
    ] {
        let out = run(&bot, "Coal", &format!("/match play text:{play}\n"));
        assert!(
            out.contains("this is Maeoni's choice: leave it out") && !out.contains("recorded"),
            "{play}: {out}"
        );
    }
    let out = run(
        &bot,
        "Coal",
        "/match play text:play: {action: attack-phoenixborn, attackers: [Iron Worker], blocks: []}\n",
    );
    assert!(
        out.contains("`blocks: []` states nothing") && !out.contains("recorded"),
        "{out}"
    );
    let out = run(&bot, "Coal", "/match board\n");
    assert!(out.contains("(active, version 1)"), "{out}");
    // Left out, her counter is asked of her after her guard.
    let out = run(
        &bot,
        "Coal",
        "/match play text:attack unit Frostback Bear with Hammer Knight\n",
    );
    assert!(out.contains("Maeoni"), "{out}");
    let out = run(&bot, "Maeoni", "/match answer choice:2\n");
    assert!(out.contains("Answer #3 recorded"), "{out}");
    assert!(
        out.contains(
            "Maeoni decides: Maeoni: Frostback Bear is attacked; counter with Frostback Bear?"
        ),
        "{out}"
    );
}

/// `match setup` says where a board is wrong (line:column and field), as
/// `judge` does; it used to give the field alone.
#[test]
fn a_wrong_starting_board_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (file, board) = edited_example(
        dir.path(),
        "ashes-start.yaml",
        "damage: 1 }",
        "damage: -5 }",
    );
    let line = 1 + board
        .lines()
        .position(|l| l.contains("damage: -5"))
        .unwrap();
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/as judge moderator\n/match setup file:{}\n/as Coal\n",
            file.display()
        ),
    );
    assert!(out.contains(&format!("line {line}:")), "{out}");
    assert!(out.contains(".damage: "), "{out}");
}

/// A moderator who confirms for a player is on the record as such: the
/// result said "(agreed by Maeoni)" when Maeoni never answered.
#[test]
fn a_moderators_confirmation_is_not_the_players() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match end winner:Coal reason:out of time\n/as judge moderator\n/match answer choice:confirm\n/match board\n",
    );
    assert!(out.contains("agreed by a moderator for Maeoni"), "{out}");
    assert!(!out.contains("(agreed by Maeoni)"), "{out}");
}

/// A play written as YAML gets its YAML error (it was read as notation:
/// "unknown player 'play'").
#[test]
fn a_broken_yaml_play_gets_its_yaml_error() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let deep = format!("play: {}{}", "[".repeat(40), "]".repeat(40));
    let out = run(&bot, "Coal", &format!("/match play text:{deep}\n"));
    assert!(out.contains("too deeply nested"), "{out}");
    assert!(!out.contains("unknown player"), "{out}");
}

/// After a confirmed `agreed by` play, the author's own decision is a
/// decision like any other: answering it panicked ("removal index") or was
/// recorded as a rejection nobody made.
#[test]
fn the_authors_decision_after_a_confirmed_proposal_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (file, _) = edited_example(
        dir.path(),
        "magewinds-start.yaml",
        "attacks: [Fire Bolt]",
        "attacks: [Fire Bolt, Staff Strike]",
    );
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:magewinds player1:Ana player2:Bram\n/as judge moderator\n/match setup file:{}\n/as Ana\n\
             /match play text:activate Pyromancer attack Stonewarden; no reaction; agreed by Bram\n\
             /as Bram\n/match answer choice:confirm\n",
            file.display()
        ),
    );
    assert!(out.contains("which attack does Pyromancer make?"), "{out}");
    let out = run(&bot, "Ana", "/match answer choice:2\n/match log\n");
    assert!(
        !out.contains("went wrong") && !out.contains("(only you see this)"),
        "{out}"
    );
    assert!(!out.contains("rejected"), "{out}");
    assert!(out.contains("Staff Strike"), "{out}");
}

/// `agreed by Maeoni` covers the choices written for her ("no guard"), not
/// those left out: her counter is still asked of her.
#[test]
fn agreed_by_covers_only_the_choices_written() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    run(
        &bot,
        "Coal",
        "/match play text:attack unit Frostback Bear with Iron Worker, Hammer Knight; no guard; agreed by Maeoni\n",
    );
    let out = run(&bot, "Maeoni", "/match answer choice:confirm\n");
    assert!(out.contains("counter with Frostback Bear?"), "{out}");
    assert!(!out.contains("Maeoni does not counter"), "{out}");
}

/// A starting board that is already decided is refused: the next play
/// (a pass) would be credited with its result.
#[test]
fn a_decided_board_is_not_set_up() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (file, _) = edited_example(
        dir.path(),
        "ashes-start.yaml",
        "damage: 4 }",
        "damage: 20 }",
    );
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/as judge moderator\n/match setup file:{}\n/as Coal\n/match board\n",
            file.display()
        ),
    );
    assert!(out.contains("already decided"), "{out}");
    assert!(out.contains("no board yet"), "{out}");
}

#[test]
fn undo_takes_back_the_note_first() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play pass\n/match note text:judge: ok\n/match undo\n",
    );
    assert!(out.contains("== Undone: event #3 =="), "{out}");
    assert!(out.contains("#3 Coal noted: judge: ok"), "{out}");
    let out = run(&bot, "Coal", "/match undo\n");
    assert!(
        out.contains("== Undone: event #2 ==") && out.contains("played pass"),
        "{out}"
    );
}

#[test]
fn an_unanswered_proposal_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        use arbiter::app::matches::{Caller, Matches};
        let store = arbiter::store::Store::connect(&url).await.unwrap();
        let m = Matches::new(store).with_decision_timeout(std::time::Duration::ZERO);
        let coal = Caller::new("t", "Coal", false);
        m.start(&coal, "ashes", &["Coal".into(), "Maeoni".into()])
            .await
            .unwrap();
        let board = std::fs::read_to_string(example("ashes-start.yaml")).unwrap();
        store_common::setup_as_judge(&m, &coal, &board)
            .await
            .unwrap();
        let r = m
            .adjust(&coal, "players.Maeoni.phoenixborn.damage", "30", "trust me")
            .await
            .unwrap();
        assert!(r.proposed);
        // Past its deadline it expires: recorded, nothing changed.
        let v = m.board("t").await.unwrap();
        assert!(v.pending.is_none(), "{v:?}");
        assert_eq!(v.status, arbiter::store::MatchStatus::Active);
        let log = m.log("t", None).await.unwrap();
        let last = log.entries.last().unwrap();
        assert!(
            last.input
                .as_deref()
                .unwrap_or("")
                .starts_with("expired, nothing changed"),
            "{last:?}"
        );
        // Expired, it is its author's to withdraw, and undo goes on under
        // it: the other player's undo names him (every player's undo was
        // refused as "made by the decision's timeout", found by an outside
        // tester).
        let maeoni = Caller::new("t", "Maeoni", false);
        let e = m.undo(&maeoni).await.unwrap_err().to_string();
        assert!(
            e.contains("only its author Coal") && e.contains("expired"),
            "{e}"
        );
        let r = m.undo(&coal).await.unwrap();
        assert!(r.changes.is_empty(), "{r:?}");
        assert!(m.board("t").await.unwrap().pending.is_none());
        assert!(m.replay("t").await.unwrap().consistent);
        assert!(m.replay("t").await.unwrap().consistent);
    });
}

/// A game's long match: seats, starting board, its first real plays and
/// answers (console lines, `/as` switching seats), and a field a moderator
/// adjusts to fill the match up (values cycling below what would end it).
struct Long {
    game: &'static str,
    seats: &'static [&'static str],
    board: &'static str,
    opening: &'static str,
    field: &'static str,
}

const LONG: &[Long] = &[
    Long {
        game: "ashes",
        seats: &["Coal", "Maeoni"],
        board: "ashes-start.yaml",
        opening: "/as Coal\n/match play attack Maeoni with Hammer Knight\n/as Maeoni\n\
                  /match answer choice:no blocker\n/match play pass\n/as Coal\n/match play pass\n\
                  /as judge moderator\n/match advance\n",
        field: "Maeoni.phoenixborn.damage",
    },
    Long {
        game: "ti4",
        seats: &["Ana", "Ben", "Cleo"],
        board: "ti4-start.yaml",
        opening: "/as Ana\n/match play Ana strategic Leadership\n/as Ben\n\
                  /match play Ben strategic Diplomacy\n/as Cleo\n/match play Cleo trades with Ana\n\
                  /as Ana\n/match answer choice:accept Cleo's transaction\n/as Cleo\n\
                  /match play Cleo strategic Politics\n",
        field: "Ana.victory_points",
    },
    Long {
        game: "magewinds",
        seats: &["Ana", "Bram"],
        board: "magewinds-start.yaml",
        opening: "/as Ana\n/match play activate Pyromancer attack Stonewarden\n/as Bram\n\
                  /match answer choice:Dodge with Stonewarden\n\
                  /match play activate Stonewarden guard\n/as Ana\n\
                  /match play activate Pyromancer move 2\n",
        field: "Ana.fighters.Pyromancer.movement",
    },
    Long {
        game: "legion",
        seats: &["Ana", "Ben"],
        board: "legion-start.yaml",
        opening: "/as Ana\n/match play move\n/match answer choice:activate Darth Vader\n\
                  /match play free attack; end\n/as Ben\n\
                  /match play activate luke; card action force push; move; end\n",
        field: "Ben.points",
    },
    Long {
        game: "grand-archive",
        seats: &["Alice", "Bob"],
        board: "grand-archive-start.yaml",
        opening: "/as Alice\n/match play attack with fervent at stalwart guard\n/as Bob\n\
                  /match answer choice:pass\n",
        field: "Bob.reserve",
    },
];

/// A moderator ends the channel's match, starts an Ashes match of Coal
/// and `player2`, and sets it up from `text` written to `name` in `dir`;
/// then the script `after`. The console's output.
fn import_as_judge(
    bot: &Bot,
    dir: &std::path::Path,
    name: &str,
    player2: &str,
    text: &str,
    after: &str,
) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    run(
        bot,
        "judge",
        &format!(
            "/as judge moderator\n/match end\n/match start game:ashes player1:Coal player2:{player2}\n\
             /as judge moderator\n/match setup file:{}\n{after}",
            path.display()
        ),
    )
}

/// The file the console printed between `--- name ---` markers.
fn exported(out: &str) -> String {
    let end = out.rfind("\n--- end of ").expect("the export's end");
    let start = out[..end].rfind("\n--- ").expect("an export") + 1;
    let body = &out[start..end];
    body[body.find('\n').unwrap() + 1..].to_string()
}

/// A log is imported only into a match of the same players: into another
/// match's seats it credited Maeoni's answers to Mallory (found by an
/// outside tester); its board alone may still be set up.
#[test]
fn a_log_is_not_imported_into_a_match_of_other_players() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack Maeoni with Hammer Knight\n/as Maeoni\n/match answer choice:no blocker\n/match export\n",
    );
    let out = import_as_judge(
        &bot,
        dir.path(),
        "export.yaml",
        "Mallory",
        &exported(&out),
        "/as Coal\n/match log\n",
    );
    assert!(
        out.contains(
            "this export's log was played by Coal, Maeoni, but this match seats Coal, Mallory"
        ),
        "{out}"
    );
    assert!(out.contains("0 events"), "nothing imported: {out}");
}

/// An export edited so that it contradicts itself is refused naming the
/// event and the field (an outside tester's edits each imported as the
/// record): the file's `players`, an answer's `actor` (a user who holds
/// no seat, or the other player), an answer's `input`, a stored board,
/// and a confirmed end's `winner`. The file as exported imports whole.
#[test]
fn an_export_edited_against_itself_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack unit \"Mist Spirit\" with Hammer Knight\n/as Maeoni\n\
         /match answer choice:no guard\n/match answer choice:no counter\n\
         /as judge moderator\n/match note hello\n/as Coal\n\
         /match end winner:Coal reason:I won\n/as Maeoni\n/match answer choice:confirm\n\
         /match export\n",
    );
    let file = exported(&out);
    let import = |name: &str, players: &str, text: &str| {
        import_as_judge(&bot, dir.path(), name, players, text, "/match log\n")
    };
    // The first occurrence: Maeoni's first answer is the log's third event.
    let edit = |from: &str, to: &str| {
        assert!(file.contains(from), "`{from}` in {file}");
        file.replacen(from, to, 1)
    };
    // As exported: imported whole, the judge's note and all.
    let out = import("same.yaml", "Maeoni", &file);
    assert!(out.contains("judge noted: hello"), "{out}");
    assert!(out.contains("result: Coal wins"), "{out}");
    let refused = |out: &str, why: &[&str]| {
        for w in why {
            assert!(out.contains(w), "`{w}` in {out}");
        }
        assert!(out.contains("0 events"), "nothing imported: {out}");
    };
    let answer = "- actor: Maeoni\n  at:";
    let cases = [
        (
            "players.yaml",
            "Mallory",
            edit(
                "players:\n- Coal\n- Maeoni\n",
                "players:\n- Coal\n- Mallory\n",
            ),
            vec!["answer 3:", "`actor` reads Maeoni, who holds no seat"],
        ),
        (
            "stranger.yaml",
            "Maeoni",
            edit(answer, "- actor: Zed\n  at:"),
            vec!["answer 3:", "`actor` reads Zed, who holds no seat"],
        ),
        (
            "other-seat.yaml",
            "Maeoni",
            edit(answer, "- actor: Coal\n  at:"),
            vec!["answer 3:", "the decision it answers is seat 2's (Maeoni)"],
        ),
        (
            "input.yaml",
            "Maeoni",
            edit("input: no guard\n", "input: guard with Maeoni Viper\n"),
            vec![
                "answer 3:",
                "`input` reads \"guard with Maeoni Viper\", but its play answers \"no guard\"",
            ],
        ),
        (
            "winner.yaml",
            "Maeoni",
            edit(
                "\n    winner: Coal\n  input:",
                "\n    winner: Maeoni\n  input:",
            ),
            vec!["end 7:", "`context.winner` reads Maeoni", "reads Coal"],
        ),
    ];
    for (name, players, text, why) in cases {
        refused(&import(name, players, &text), &why);
    }
    // A stored board edited: the field and both values.
    let at = file.find("  seq: 2\n").expect("play 2");
    let damage = file[at..].find("damage: 4").unwrap() + at;
    let mut text = file.clone();
    text.replace_range(damage..damage + "damage: 4".len(), "damage: 19");
    refused(
        &import("state.yaml", "Maeoni", &text),
        &[
            "play 2:",
            "phoenixborn.damage`: the file has 19, the replay 4",
        ],
    );
}

/// An adjustment that carries its proposal is refused when its own
/// `context.reason` (or field, or value) differs from the proposal's (an
/// outside tester's export edited to "stolen" imported clean while its
/// proposal read "healed").
#[test]
fn an_adjustment_edited_against_its_proposal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:Coal.phoenixborn.damage value:0 reason:healed
         /as Maeoni
/match answer choice:confirm
/match export
",
    );
    let file = exported(&out);
    reimported_whole(&bot, dir.path(), &file);
    let from = "\n    reason: healed\n";
    assert!(file.contains(from), "{file}");
    let edited = file.replacen(from, "\n    reason: stolen\n", 1);
    let out = import_as_judge(
        &bot,
        dir.path(),
        "reason.yaml",
        "Maeoni",
        &edited,
        "/match log\n",
    );
    for w in [
        "adjust ",
        "`context.reason` reads \"stolen\"",
        "(`context.proposal.what.reason`) reads \"healed\"",
        "0 events",
    ] {
        assert!(out.contains(w), "`{w}` in {out}");
    }
}

/// An `input` holding a bidi override (U+202E) is refused at import: a
/// live entry's words are read without it (an outside tester's was
/// stored and shown in the log).
#[test]
fn an_input_with_a_bidi_override_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack Maeoni with Hammer Knight\u{202E}\n/as Maeoni\n\
         /match answer choice:no blocker\n/match log\n/match export\n",
    );
    assert!(out.contains("U+202E"), "a live play is refused it: {out}");
    let out = run(
        &bot,
        "Coal",
        "/match play attack Maeoni with Hammer Knight\n/as Maeoni\n\
         /match answer choice:no blocker\n/match export\n",
    );
    let file = exported(&out);
    let from = "input: attack Maeoni with Hammer Knight\n";
    assert!(file.contains(from), "{file}");
    let edited = file.replacen(from, "input: attack Maeoni with Hammer Knight\u{202E}\n", 1);
    let out = import_as_judge(
        &bot,
        dir.path(),
        "bidi.yaml",
        "Maeoni",
        &edited,
        "/match log\n",
    );
    for w in ["play 2:", "U+202E", "0 events"] {
        assert!(out.contains(w), "`{w}` in {out}");
    }
}

/// A role mention named as the winner is said to be a role, not a user
/// (it read "&2 does not play in this match").
#[test]
fn a_role_named_as_winner_is_said_to_be_a_role() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(&bot, "Coal", "/match end winner:<@&2> reason:won\n");
    assert!(out.contains("mentions a role, not a user"), "{out}");
    assert!(!out.contains("does not play in this match"), "{out}");
}

/// A proposal's words (`context.proposal.text`, every copy of them: the
/// note, the confirmation's `input`, each event's context) edited so that
/// they no longer say what its `what` proposes are refused at import and
/// at `verify`, naming the event and the field: the words expected are
/// written from `what` by the function that wrote them live.
#[test]
fn a_proposal_whose_words_are_edited_against_what_it_proposes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match adjust field:Coal.phoenixborn.damage value:0 reason:healed
/as Maeoni
/match answer choice:confirm
/as Coal
/match end winner:Coal reason:I win
/as Maeoni
/match answer choice:confirm
/match export
",
    );
    let file = exported(&out);
    reimported_whole(&bot, dir.path(), &file);
    let log = |text: &str| {
        let doc = arbiter::engine::document::parse_export(text).unwrap();
        serde_json::from_value::<Vec<arbiter::app::matches::LogEntry>>(doc["log"].clone()).unwrap()
    };
    let ashes = arbiter::engine::engine("ashes").unwrap();
    let players = ["Coal".to_string(), "Maeoni".to_string()];
    let (_, bad) = arbiter::app::matches::replay_log(ashes, &players, &log(&file));
    assert!(bad.is_empty(), "{bad:?}");
    // Every copy of each proposal's words says something else.
    for (from, to, event) in [
        (
            "to end the match: Coal wins",
            "to end the match: Maeoni wins",
            "note ",
        ),
        ("(reason: healed)", "(reason: stolen)", "adjust "),
    ] {
        assert!(file.matches(from).count() > 2, "`{from}` in {file}");
        let edited = file.replace(from, to);
        let out = import_as_judge(
            &bot,
            dir.path(),
            "words.yaml",
            "Maeoni",
            &edited,
            "/match log\n",
        );
        for w in [
            event,
            "`context.proposal.text` reads \"",
            to,
            "(`context.proposal.what`) is \"",
            from,
            "0 events",
        ] {
            assert!(out.contains(w), "`{w}` in {out}");
        }
        // `verify` replays the log with the same checks.
        let (_, bad) = arbiter::app::matches::replay_log(ashes, &players, &log(&edited));
        let found = bad.iter().find(|b| b.contains("`context.proposal.text`"));
        assert!(
            found.is_some_and(|b| b.starts_with(event) && b.contains(to)),
            "{bad:?}"
        );
    }
}

/// The version the last `(active, version N)` in `out` names.
fn version_of(out: &str) -> usize {
    let at = out.rfind("(active, version ").expect("a match view") + "(active, version ".len();
    out[at..].split(')').next().unwrap().parse().unwrap()
}

/// Issue 28, item 5: an export the bot produced sets up again and
/// verifies, for a 60-event match of every game.
#[test]
fn a_long_match_of_each_game_exports_sets_up_again_and_verifies() {
    let mut sizes = Vec::new();
    for g in LONG {
        let dir = tempfile::tempdir().unwrap();
        let bot = match_bot(dir.path());
        let players: String = g
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| format!(" player{}:{s}", i + 1))
            .collect();
        let mut script = format!(
            "/match start game:{}{players}\n/as judge moderator\n/match setup file:{}\n{}",
            g.game,
            example(g.board),
            g.opening
        );
        // Fill up to 60 events: a judge's note, an adjustment, a player's
        // proposal the other rejects, an undo.
        let (first, second) = (g.seats[0], g.seats[1]);
        for k in 0..12 {
            script.push_str(&format!(
                "/as judge moderator\n/match note text:judge: table check {k}\n\
                 /match adjust field:{} value:{} reason:catching up {k}\n/match undo\n\
                 /as {second}\n/match end winner:{second} reason:claim {k}\n/as {first}\n\
                 /match answer choice:reject\n",
                g.field,
                k % 3
            ));
        }
        // A note with a fence of its own: the export is still taken whole.
        script.push_str("/as judge moderator\n/match note text:judge: ```yaml a: 1``` as shown\n");
        script.push_str("/match export\n");
        let out = run(&bot, first, &script);
        assert!(!out.contains("(only you see this)"), "{}:\n{out}", g.game);
        let version = version_of(&run(&bot, first, "/match board\n"));
        assert!(version >= 60, "{}: {version} events", g.game);
        let yaml = exported(&out);
        sizes.push(format!("{} {} KB", g.game, yaml.len().div_ceil(1024)));
        let file = dir.path().join("export.yaml");
        std::fs::write(&file, &yaml).unwrap();

        // Another table (a fresh database) sets it up and verifies it.
        let other = tempfile::tempdir().unwrap();
        let bot2 = match_bot(other.path());
        let out = run(
            &bot2,
            first,
            &format!(
                "/match start game:{}{players}\n/as judge moderator\n/match setup file:{}\n/match verify\n/match board\n",
                g.game,
                file.display()
            ),
        );
        assert!(
            !out.contains("(only you see this)")
                && out.contains("every stored board equals the replay"),
            "{}:\n{out}",
            g.game
        );
        assert_eq!(version_of(&out), version, "{}: {out}", g.game);

        // The CLI takes the same file whole, past a board's 64 KB (it used
        // to cut it there and report broken YAML).
        if sizes.len() == 1 {
            assert!(yaml.len() > 64 * 1024, "{} KB", yaml.len() / 1024);
            let third = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", third.path().join("cli.db").display());
            let cli = |args: &[&str]| {
                let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
                    .args(["match", "--channel", "copy", "--as", "judge", "--moderator"])
                    .args(args)
                    .env("DATABASE_URL", &url)
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&o.stdout).to_string()
                    + &String::from_utf8_lossy(&o.stderr);
                assert!(o.status.success(), "{args:?}: {text}");
                text
            };
            let mut start = vec!["start", "--game", g.game];
            for s in g.seats {
                start.extend(["--player", s]);
            }
            cli(&start);
            cli(&["setup", &file.display().to_string()]);
            let out = cli(&["verify"]);
            assert!(
                out.contains("every stored board equals the replay"),
                "{out}"
            );
        }
    }
    eprintln!("export sizes: {}", sizes.join(", "));
}

/// Issue 28, item 10: a decision with one answer is taken at once and said
/// so (nobody is pinged to press the only button); the reply to a play
/// names who is next, as every other reply does.
#[test]
fn a_decision_with_one_answer_resolves_at_once_and_the_reply_names_who_is_next() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1, exhausted: true }\n";
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/as judge moderator\n/match setup\n{board}.\n/as Coal\n\
             /match play attack Maeoni with Hammer Knight\n"
        ),
    );
    assert!(
        out.contains("Play #2 recorded (ashes): the play is legal")
            && out.contains("Maeoni has one answer only, taken at once: no blocker")
            && !out.contains("waiting for a decision"),
        "{out}"
    );
    assert!(
        after(&out, "Play #2").contains("next: Maeoni: your turn"),
        "{out}"
    );
}

#[test]
fn help_names_every_match_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(&bot, "Coal", "/help\n");
    for sub in ["`answer`", "`advance`", "`adjust`", "`note`", "agreed by"] {
        assert!(out.contains(sub), "{sub} missing:\n{out}");
    }
}

/// The text from the last `marker` in `out` on.
fn after<'a>(out: &'a str, marker: &str) -> &'a str {
    out.rfind(marker).map_or("", |i| &out[i..])
}

/// Issue 28, item 7: a player cannot take the turn from a unit of the
/// other player that still has an action left.
#[test]
fn legion_no_player_activates_while_the_others_unit_still_has_an_action() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben\n/as judge moderator\n/match setup file:{}\n/as Ana\n\
             /match play activate Stormtroopers; aim; end\n/as Ben\n\
             /match play activate Rebel Troopers; move\n/as Ana\n\
             /match play activate Darth Vader; move\n",
            example("legion-start.yaml")
        ),
    );
    let last = after(&out, "== ");
    assert!(
        last.contains("ILLEGAL")
            && last.contains(
                "Rebel Troopers (Ben's) is still activating with 1 action left: only Ben moves on"
            ),
        "{out}"
    );
    // Ben uses his last action; then the turn is Ana's.
    let out = run(
        &bot,
        "Ben",
        "/match play move\n/as Ana\n/match play activate Darth Vader; move; end\n",
    );
    assert!(after(&out, "== ").contains("the play is legal"), "{out}");
}

/// A moderator who holds no seat enters Ana's Legion play with an
/// effect's free action and leaves out whether it has a type: rules 7 and 8
/// give no default, so Ana is asked (it was decided for her as "the rules'
/// default"; found by an outside tester), the offered default marked as
/// assumed.
#[test]
fn legion_a_moderators_entry_asks_the_units_player_whether_a_free_action_is_typed() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben\n/as judge moderator\n/match setup file:{}\n\
             /match play activate Stormtroopers; free dodge (effect: Take Initiative)\n",
            example("legion-start.yaml")
        ),
    );
    let last = after(&out, "== ");
    assert!(last.contains("⏳ waiting for Ana"), "{out}");
    assert!(!last.contains("the rules' default"), "{out}");
}

/// Issue 28, item 8: an attacked fighter that cannot react is said so in
/// the ruling (with the open question Guard raises), and a reaction to an
/// attack already resolved is refused.
#[test]
fn magewinds_reactions_are_settled_with_their_attack() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = "game: magewinds\nround: 1\nphase: action\nfirst_to_pass: Ana\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]}\n  - name: Bram\n    fighters:\n      - {name: Stonewarden, movement: 4, position: [12, 10], attacks: [Maul], counter: double, guard: true, reactions: [{name: Dodge, trigger: attacked}]}\n";
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:magewinds player1:Ana player2:Bram\n/as judge moderator\n/match setup\n{board}.\n/as Ana\n\
             /match play activate Pyromancer attack Stonewarden\n"
        ),
    );
    let last = after(&out, "== Play #2");
    assert!(
        last.contains("the play is legal")
            && last.contains("Stonewarden is attacked, but it has a double action counter")
            && last.contains("so Bram is not asked to react")
            && last.contains("open question: the indexed text does not say whether Guard"),
        "{out}"
    );

    // Bram declines the reaction; a Dodge afterwards is refused.
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:magewinds player1:Ana player2:Bram\n/as judge moderator\n/match setup file:{}\n/as Ana\n\
             /match play activate Pyromancer attack Stonewarden\n/as Bram\n\
             /match answer choice:no reaction\n/match play react Stonewarden dodge\n",
            example("magewinds-start.yaml")
        ),
    );
    let last = after(&out, "== ");
    assert!(
        last.contains("ILLEGAL")
            && last.contains("Pyromancer's attack on Stonewarden has resolved"),
        "{out}"
    );
}

/// A default read from a rule's "may" (Ashes' guard, block and counter,
/// Magewinds' reaction) is not one the quoted text gives: it is labelled
/// assumed, with its quote, as `judge` labels the same choice (the match
/// called it "the rules' default"; found by an outside tester).
#[test]
fn a_may_choice_offers_its_default_as_assumed() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack unit \"Mist Spirit\" with Hammer Knight\n",
    );
    let last = after(&out, "== ");
    assert!(
        last.contains(
            "no guard *(taken if nobody answers: the rules give no default, so this is assumed)*"
        ) && !last.contains("the rules' default"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:magewinds player1:Ana player2:Bram\n/as judge moderator\n/match setup file:{}\n/as Ana\n\
             /match play activate Pyromancer attack Stonewarden\n",
            example("magewinds-start.yaml")
        ),
    );
    let last = after(&out, "== ");
    assert!(
        last.contains(
            "no reaction *(taken if nobody answers: the rules give no default, so this is assumed)*"
        ) && !last.contains("the rules' default"),
        "{out}"
    );
}

/// Issue 28, item 9: a default the quoted text does not give is labelled
/// "assumed", never "the rules' default" (TI4's transaction, Grand
/// Archive's response); a rule a ruling weighs is cited on its own step.
#[test]
fn assumed_defaults_say_so_and_every_rule_weighed_has_its_step() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ana",
        "/match play Ana strategic Leadership\n/as Ben\n/match play Ben strategic Diplomacy\n\
             /as Cleo\n/match play Cleo trades with Ana\n",
    );
    let last = after(&out, "== Play #4");
    assert!(
        last.contains(
            "decline *(taken if nobody answers: the rules give no default, so this is assumed)*"
        ) && !last.contains("the rules' default"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Alice",
        &format!(
            "/match start game:grand-archive player1:Alice player2:Bob\n/as judge moderator\n/match setup file:{}\n/as Alice\n\
             /match play attack with fervent at stalwart guard\n",
            example("grand-archive-start.yaml")
        ),
    );
    let last = after(&out, "== Play #2");
    assert!(
        last.contains(
            "pass *(taken if nobody answers: the rules give no default, so this is assumed)*"
        ) && !last.contains("the rules' default"),
        "{out}"
    );
    // A TI4 player who says they cannot act, with a readied card: rule 2 is
    // weighed and set aside on its own step, rule 4 refuses the pass.
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["judge", "--json", "--play", "Dana pass cannot act"])
        .arg(root.join("examples/ti4/pass-with-readied-card.yaml"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert!(
        steps.iter().any(|s| s["rule"] == "ti4:action-phase.2"
            && s["text"].as_str().unwrap().contains("sets it aside")),
        "{v}"
    );
    assert_eq!(v["diagnostics"][0]["rule"], "ti4:action-phase.4.1", "{v}");
}

/// Issue 28, item 10: a log page is one message with its line breaks, not
/// a page of pages.
#[test]
fn a_long_log_page_is_one_message_with_its_lines() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let mut script = String::new();
    for _ in 0..8 {
        script.push_str(
            "/as Coal\n/match play attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight\n\
             /as Maeoni\n1\n/as judge moderator\n/match undo\n/match undo\n",
        );
    }
    script.push_str("/match log page:2\n");
    let out = run(&bot, "Coal", &script);
    let page = after(&out, "== Match #1 (ashes): log page 2/");
    assert!(!page.contains("Page 1 of"), "{page}");
    assert!(
        page.contains("\n#11 ") && page.contains("\n#12 ") && page.contains("\n#20 "),
        "{page}"
    );
}

/// Who acts first is a shared field: a player's advance does not settle it
/// by the engine's seat-order default once the other player rejected a
/// proposal for it (found by an outside tester: Ben rejected Ana's
/// priority, then advanced, and the default gave it to him at once). It is
/// agreed by a proposal, or a moderator advances on the default, named as
/// an assumption.
#[test]
fn who_acts_first_is_not_settled_by_whoever_advances_first() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = "game: legion\nphase: command\nround: 2\nlast_round: 3\nplayers:\n  - name: Ana\n    units:\n      - {name: Darth Vader}\n  - name: Ben\n    units:\n      - {name: Luke Skywalker}\n";
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben\n/as judge moderator\n/match setup\n{board}.\n/as Ana\n\
             /match adjust field:turn value:Ana reason:fewer pips\n/as Ben\n/match answer choice:reject\n\
             /match advance\n/match board\n"
        ),
    );
    let refused = after(&out, "== Match: cannot do that");
    assert!(
        refused.contains("(only you see this)")
            && refused.contains("adjust turn NAME")
            && refused.contains("an assumption outside the indexed rules"),
        "{out}"
    );
    let board = after(&out, "== Match #");
    assert!(
        board.contains("(active, version 3)") && board.contains("phase: command"),
        "nothing recorded: {out}"
    );
    // Agreed by a proposal Ben confirms, his advance gives Ana the first
    // activation.
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:turn value:Ana reason:fewer pips\n/as Ben\n/match answer choice:confirm\n\
         /match advance\n/match board\n",
    );
    let board = after(&out, "== Match #");
    assert!(
        board.contains("phase: activation") && board.contains("turn: Ana"),
        "{out}"
    );

    // Magewinds: who passed first in the Channelling Phase gives the first
    // turn; a moderator's advance takes the seat-order default at once.
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let board = "game: magewinds\nround: 2\nphase: channelling\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]}\n  - name: Bram\n    fighters:\n      - {name: Stonewarden, movement: 4, position: [12, 10], attacks: [Maul]}\n";
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:magewinds player1:Ana player2:Bram\n/as judge moderator\n/match setup\n{board}.\n/as Bram\n\
             /match advance\n/match board\n"
        ),
    );
    assert!(
        after(&out, "== Match: cannot do that").contains("adjust first_to_pass NAME")
            && after(&out, "== Match #").contains("phase: channelling"),
        "{out}"
    );
    let out = run(
        &bot,
        "Bram",
        "/as judge moderator\n/match advance\n/match board\n",
    );
    let board = after(&out, "== Match #");
    assert!(
        board.contains("phase: action") && board.contains("turn: Bram"),
        "{out}"
    );
}

/// A field whose change either way alters what the other players may do is
/// theirs to agree to, even made worse for its own player: Ana exhausting
/// her own strategy cards (or marking herself passed) would skip the
/// strategic action rule 4.1 requires before passing, and Ben's and Cleo's
/// secondary abilities with it (found by an outside tester: it was at once
/// as "worse for her", then her pass was legal).
#[test]
fn exhausting_ones_own_strategy_card_asks_the_other_players() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.strategy_cards.Leadership.exhausted value:true reason:used it\n",
    );
    assert!(
        out.contains("recorded: nothing changes unless it is confirmed")
            && out.contains("it changes what the other players may do")
            && out.contains("next: Ben decides"),
        "{out}"
    );
    // Ben rejects: the card stays readied, and her pass is still illegal.
    let out = run(
        &bot,
        "Ben",
        "/match answer choice:reject\n/as Ana\n/match play Ana pass\n",
    );
    let last = after(&out, "== ");
    assert!(last.contains("ILLEGAL"), "{out}");
    // Confirmed by both, the card is exhausted; a moderator's is at once.
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.strategy_cards.Leadership.exhausted value:true reason:used it\n\
         /as Ben\n/match answer choice:confirm\n/as Cleo\n/match answer choice:confirm\n\
         /as judge moderator\n/match adjust field:players.Ana.strategy_cards.Construction.exhausted value:true reason:used it\n/match board\n",
    );
    let board = after(&out, "== Match #");
    assert_eq!(board.matches("exhausted: true").count(), 2, "{out}");
    // Both her cards exhausted, marking herself passed (instead of `Ana
    // pass`) asks too: it gives the others the turns.
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:players.Ana.passed value:true reason:I pass\n",
    );
    assert!(
        out.contains("it changes what the other players may do")
            && out.contains("next: Ben decides"),
        "{out}"
    );
}

/// With more than two seats, a player's own score lowered decides who
/// leads among the others, so it asks them, as a concession to one of them
/// does (found by an outside tester: Ana set her own Legion points to 0 at
/// once, and the advance past the last round made Ben the winner over
/// Cleo). With two seats it is at once: it can only hurt its player.
#[test]
fn lowering_ones_own_score_with_three_seats_asks_the_others() {
    let board = "game: legion\nphase: end\nround: 2\nlast_round: 2\nplayers:\n  - name: Ana\n    points: 5\n    units:\n      - { name: Darth Vader, activated: true }\n  - name: Ben\n    points: 4\n    units:\n      - { name: Luke Skywalker, activated: true }\n  - name: Cleo\n    points: 3\n    units:\n      - { name: Boba Fett, activated: true }\n";
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben player3:Cleo\n/as judge moderator\n/match setup\n{board}.\n/as Ana\n\
             /match adjust field:players.Ana.points value:0 reason:miscounted\n"
        ),
    );
    assert!(
        out.contains("recorded: nothing changes unless it is confirmed")
            && out.contains("decides who leads among the others")
            && out.contains("next: Ben decides"),
        "{out}"
    );
    // Ben confirms, Cleo rejects: the points stand, and the last round's
    // end gives the result the board held.
    let out = run(
        &bot,
        "Ben",
        "/match answer choice:confirm\n/as Cleo\n/match answer choice:reject\n/as judge moderator\n/match advance\n",
    );
    assert!(
        out.contains("result: Ana wins") && out.contains("Ana 5, Ben 4, Cleo 3"),
        "{out}"
    );

    // Two seats: her own points lowered is at once.
    let board = board.split("  - name: Cleo").next().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben\n/as judge moderator\n/match setup\n{board}.\n/as Ana\n\
             /match adjust field:players.Ana.points value:0 reason:miscounted\n"
        ),
    );
    assert!(
        out.contains("Match: adjust #") && !out.contains("proposal"),
        "{out}"
    );
}

#[test]
fn a_moderators_answer_says_whose_decision_it_settled() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack unit \"Mist Spirit\" with Hammer Knight\n",
    );
    assert!(out.contains("guard"), "{out}");
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match answer choice:2\n/match log\n",
    );
    assert!(out.contains("judge answered for Maeoni: "), "{out}");
    // A moderator's answer to a proposal says whose consent it gave.
    let dir2 = tempfile::tempdir().unwrap();
    let (bot2, _) = set_up(dir2.path(), "ti4", &["Ana", "Ben", "Cleo"]);
    run(
        &bot2,
        "Ana",
        "/match adjust field:players.Ana.victory_points value:9 reason:scored\n",
    );
    let out = run(
        &bot2,
        "judge",
        "/as judge moderator\n/match answer choice:confirm\n/match log\n",
    );
    assert!(out.contains("judge answered for Ben: confirmed: "), "{out}");
    // So does a moderator's confirmation of a play "agreed by" another,
    // which records the play (found by a review).
    let dir3 = tempfile::tempdir().unwrap();
    let bot3 = ashes(dir3.path());
    run(
        &bot3,
        "Coal",
        "/match play attack unit \"Mist Spirit\" with Hammer Knight; no guard; agreed by Maeoni\n",
    );
    let out = run(
        &bot3,
        "judge",
        "/as judge moderator\n/match answer choice:confirm\n/match log\n",
    );
    assert!(
        out.contains("judge answered for Maeoni: confirmed: "),
        "{out}"
    );
    // Undone, and answered by her: her own answer needs no "for".
    run(&bot, "judge", "/as judge moderator\n/match undo\n");
    let out = run(&bot, "Maeoni", "/match answer choice:2\n/match log\n");
    assert!(out.contains("Maeoni answered: "), "{out}");
}

/// A Magewinds play that says a rule makes its action free states what the
/// board does not record, to its author's benefit: the opponent is asked to
/// confirm it and nothing changes meanwhile; rejected, it is on the record
/// and changes nothing; confirmed, the action is free (found by outside
/// testers: the engine took `free` as true on the author's word). A
/// moderator's is at once, and so is a play that states nothing unrecorded.
#[test]
fn a_players_free_action_waits_for_the_opponents_consent() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    let free = "/match play activate Pyromancer guard; free\n";
    let out = run(&bot, "Ana", free);
    assert!(
        out.contains("proposal #2 recorded: nothing changes unless it is confirmed")
            && out.contains("next: Bram decides")
            && out.contains("makes Pyromancer's action free")
            && out.contains("play.free"),
        "{out}"
    );
    let out = run(&bot, "Ana", "/match board\n");
    assert!(!out.contains("guard: true"), "{out}");
    // Rejected: on the record, and the board is as it was.
    let out = run(
        &bot,
        "Bram",
        "/match answer choice:reject\n/match board\n/match log\n",
    );
    assert!(
        out.contains("Bram answered: rejected: the play `activate Pyromancer guard; free`"),
        "{out}"
    );
    assert!(!out.contains("guard: true"), "{out}");
    // Confirmed: recorded without asking again, the action free.
    let out = run(
        &bot,
        "Ana",
        &format!("{free}/as Bram\n/match answer choice:confirm\n/match board\n"),
    );
    let board = after(&out, "== Match #");
    assert!(
        out.contains("the play is legal")
            && board.contains("guard: true")
            && !board.contains("counter: single"),
        "{out}"
    );

    // A moderator's is at once; a player's play that states nothing the
    // board does not record is at once too.
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    let out = run(&bot, "Ana", &format!("/as judge moderator\n{free}"));
    assert!(
        out.contains("Play #2 recorded") && !out.contains("proposal"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    let out = run(
        &bot,
        "Ana",
        "/match play activate Pyromancer guard\n/match board\n",
    );
    assert!(
        out.contains("Play #2 recorded") && out.contains("counter: single"),
        "{out}"
    );
}

/// A proposal every player confirmed is its author's to take back whole:
/// her undo takes back the play with the confirmation, nobody asked again
/// (it took back Bram's confirmation alone and asked him again; found by
/// an outside tester), while Bram's own undo still takes back only his
/// confirmation. The same for a player's starting board.
#[test]
fn a_confirmed_proposal_is_its_authors_to_take_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    let free =
        "/match play activate Pyromancer guard; free\n/as Bram\n/match answer choice:confirm\n";
    run(&bot, "Ana", free);
    let out = run(&bot, "Ana", "/match undo\n/match board\n");
    // What reverts is said: the guard the confirmed play took.
    assert!(
        out.contains("== Undone: event #2 ==") && out.contains("guard: true → false"),
        "{out}"
    );
    let board = after(&out, "== Match #");
    assert!(
        !board.contains("guard: true") && !board.contains("waiting for"),
        "{out}"
    );
    let out = run(&bot, "Ana", "/match log\n/match verify\n");
    assert!(
        out.contains("Ana undid #2") && out.contains("every stored board equals the replay"),
        "{out}"
    );
    // Bram's undo of his own confirmation asks him again.
    run(&bot, "Ana", free);
    let out = run(&bot, "Bram", "/match undo\n/match board\n");
    assert!(
        out.contains("Undone: event #6") && after(&out, "== Match #").contains("waiting for"),
        "{out}"
    );

    // A starting board its author set up and Maeoni confirmed: his undo
    // takes it back whole (no board), not her confirmation alone.
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n\
             /as Maeoni\n/match answer choice:confirm\n/as Coal\n/match undo\n/match board\n",
            example("ashes-start.yaml")
        ),
    );
    assert!(out.contains("== Undone: event #1 =="), "{out}");
    let board = after(&out, "== Undone");
    assert!(
        board.contains("no board yet") && !board.contains("waiting for Maeoni"),
        "{out}"
    );
}

/// A rejected proposal changed nothing: its author withdraws it with its
/// rejection, and the next undo goes on under it (her undo was refused as
/// "made by bram", so nobody but a moderator could undo again; found by an
/// outside tester). Whoever rejected it may still take the rejection back.
#[test]
fn a_rejected_proposal_does_not_block_undo() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    run(
        &bot,
        "Bram",
        "/match note text:ready\n/as Ana\n/match play activate Pyromancer guard; free\n\
         /as Bram\n/match answer choice:reject\n",
    );
    let out = run(&bot, "Ana", "/match undo\n/match board\n");
    assert!(out.contains("== Undone: event #3 =="), "{out}");
    assert!(!after(&out, "== Match #").contains("waiting for"), "{out}");
    // Next in effect is Bram's note: his to undo, and he may.
    let out = run(&bot, "Ana", "/match undo\n");
    assert!(out.contains("made by Bram"), "{out}");
    let out = run(&bot, "Bram", "/match undo\n/match verify\n");
    assert!(
        out.contains("== Undone: event #2 ==")
            && out.contains("every stored board equals the replay"),
        "{out}"
    );
    // Rejected again: Bram's undo takes his rejection back (asked again).
    run(
        &bot,
        "Ana",
        "/match play activate Pyromancer guard; free\n/as Bram\n/match answer choice:reject\n",
    );
    let out = run(&bot, "Bram", "/match undo\n/match board\n");
    assert!(after(&out, "== Match #").contains("waiting for"), "{out}");
}

/// A Legion free action from an effect the board does not record is its
/// author's word: the opponent is asked; confirmed, it is recorded.
#[test]
fn a_legion_effects_free_action_waits_for_the_opponents_consent() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "legion", &["Ana", "Ben"]);
    let play =
        "/match play activate Stormtroopers; free action as dodge (effect: Take Initiative)\n";
    let out = run(&bot, "Ana", play);
    assert!(
        out.contains("proposal #2 recorded: nothing changes unless it is confirmed")
            && out.contains("next: Ben decides")
            && out.contains("Take Initiative"),
        "{out}"
    );
    // Its author withdraws it as an `agreed by` play's: nothing changed.
    let out = run(&bot, "Ana", "/match undo\n/match board\n");
    assert!(
        out.contains("Undone: event #2") && !out.contains("performed:"),
        "{out}"
    );
    // Proposed again and confirmed: recorded, the free action made.
    let out = run(
        &bot,
        "Ana",
        &format!("{play}/as Ben\n/match answer choice:confirm\n"),
    );
    assert!(
        out.contains("recorded (legion): the play is legal")
            && out.contains("free action without a type (Take Initiative)")
            && !after(&out, "== Answer").contains("proposes"),
        "{out}"
    );
}

/// A claim the play reaches only after one of its decisions (which unit a
/// Legion play without `activate` is for, asked of its own player) asks
/// the other players once that decision is answered, not recorded at once.
#[test]
fn a_claim_reached_after_a_decision_waits_for_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let (bot, _) = set_up(dir.path(), "legion", &["Ana", "Ben"]);
    let out = run(
        &bot,
        "Ana",
        "/match play free action as dodge (effect: Take Initiative)\n",
    );
    assert!(out.contains("next: Ana decides"), "{out}");
    let out = run(&bot, "Ana", "/match answer choice:activate Stormtroopers\n");
    assert!(
        out.contains("nothing changes unless it is confirmed")
            && out.contains("next: Ben decides")
            && out.contains("Take Initiative"),
        "{out}"
    );
    let out = run(&bot, "Ben", "/match answer choice:confirm\n/match board\n");
    assert!(
        out.contains("the play is legal") && out.contains("free_action: dodge"),
        "{out}"
    );
}

/// A player's first board, confirmed and then withdrawn by its author,
/// replays: the log verifies and its export sets up again (the undo of the
/// first board with its confirmation over it read as an undo of no event
/// in effect, so `verify` failed for good and a moderator's import was
/// refused; found by an outside tester). The reply names what reverts.
#[test]
fn a_confirmed_first_board_withdrawn_by_its_author_replays() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let start = example("ashes-start.yaml");
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{start}\n\
             /as Maeoni\n/match answer choice:confirm\n/as Coal\n/match undo\n/match verify\n"
        ),
    );
    let undo = after(&out, "== Undone");
    assert!(
        undo.contains("board: the starting board (2 seats) → none"),
        "the board reverts, named and summarised: {out}"
    );
    assert!(
        out.contains("every stored board equals the replay"),
        "{out}"
    );
    // Set up again and played on: the export sets up again, whole.
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match setup file:{start}\n/as Maeoni\n/match answer choice:confirm\n/as Coal\n\
             /match play attack Maeoni with Hammer Knight\n/match verify\n/match export\n"
        ),
    );
    assert!(
        out.contains("every stored board equals the replay"),
        "{out}"
    );
    let out = import_as_judge(
        &bot,
        dir.path(),
        "export.yaml",
        "Maeoni",
        &exported(&out),
        "/match verify\n",
    );
    assert!(!out.contains("does not replay"), "{out}");
    assert!(version_of(&out) > 5, "imported whole: {out}");
    assert!(
        out.contains("every stored board equals the replay"),
        "{out}"
    );
}

/// The player who confirmed a starting board may take her confirmation
/// back (and is asked again), as a confirmer of an adjust may: the board
/// stands as its author's, which refused her ("the last setup was made by
/// Coal"; found by an outside tester).
#[test]
fn a_confirmer_takes_back_her_confirmation_of_a_starting_board() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/match setup file:{}\n\
             /as Maeoni\n/match answer choice:confirm\n/match undo\n/match board\n/match verify\n",
            example("ashes-start.yaml")
        ),
    );
    let undo = after(&out, "now acting as Maeoni");
    assert!(
        undo.contains("== Undone: event #2 ==") && !undo.contains("only they or a moderator"),
        "{out}"
    );
    assert!(
        after(&out, "== Undone").contains("waiting for a decision: Maeoni: Coal proposes"),
        "asked again: {out}"
    );
    assert!(
        out.contains("every stored board equals the replay"),
        "{out}"
    );
}

/// A player's advance that would decide the match (Legion: past the last
/// round, the most points win) is refused, naming the proposal to make:
/// it ended the match at once with its author's own win, where `end
/// winner:self` asks the other player (found by an outside tester). The
/// other player's advance onto that result concedes, at once; so is a
/// moderator's.
#[test]
fn a_players_advance_that_would_win_the_match_is_refused() {
    let board = "game: legion\nphase: end\nround: 1\nlast_round: 1\nplayers:\n  - name: Ana\n    points: 1\n    units:\n      - { name: Darth Vader, activated: true }\n  - name: Ben\n    points: 0\n    units:\n      - { name: Luke Skywalker, activated: true }\n";
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "Ana",
        &format!(
            "/match start game:legion player1:Ana player2:Ben\n/as judge moderator\n/match setup\n{board}.\n/as Ana\n\
             /match advance\n/match board\n"
        ),
    );
    assert!(
        out.contains("advancing now would end the match (Ana wins")
            && out.contains("`end --winner Ana")
            && !out.contains("result: Ana wins"),
        "{out}"
    );
    let out = run(&bot, "Ben", "/match advance\n");
    assert!(out.contains("result: Ana wins"), "a concession: {out}");
}

/// A play whose `context.author` is gone from the file is still its
/// seat's: the engine's reading of it on the board before it says whose
/// (an edited actor with the author deleted went unnoticed at a
/// moderator's import; found in review).
#[test]
fn a_play_that_asked_nobody_is_its_seats_at_import() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(&bot, "Coal", "/match play pass\n/match export\n");
    let file = exported(&out);
    // Keys are written in order: the judge set the board up, so Coal's
    // first event is the play.
    let from = "- actor: Coal\n";
    assert!(file.contains(from), "{file}");
    // ... and the play's `context.author`, which the check read.
    let edited = file.replacen(from, "- actor: Maeoni\n", 1).replacen(
        "    answered: []\n    author: 0\n",
        "    answered: []\n",
        1,
    );
    assert_ne!(
        edited.matches("author: 0").count(),
        file.matches("author: 0").count()
    );
    let out = import_as_judge(&bot, dir.path(), "edited.yaml", "Maeoni", &edited, "");
    assert!(
        out.contains("`actor` reads Maeoni (seat 2), but the play is seat 1's (Coal)"),
        "{out}"
    );
}

/// Every event's words are checked against what it recorded, not only
/// an answer's (an outside tester's edited export logged "Coal played
/// pass" for an attack with Hammer Knight, Coal's proposal as Maeoni's
/// field, Maeoni's confirmation as "reject", and a confirmation given as
/// a moderator's as Maeoni's own): each is refused naming the event and
/// the field. An adjustment reads with names, said once.
#[test]
fn every_events_words_agree_with_what_it_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match play attack Maeoni with Hammer Knight\n/as Maeoni\n/match answer choice:no blocker\n\
         /as Coal\n/match adjust field:Coal.phoenixborn.damage value:0 reason:healed\n\
         /as Maeoni\n/match answer choice:confirm\n/match log\n/match export\n",
    );
    // The field with names, and the one change said once.
    assert!(
        out.contains("proposed players[Coal].phoenixborn.damage = 0"),
        "{out}"
    );
    assert!(!out.contains("and with it"), "{out}");
    let file = exported(&out);
    let edit = |from: &str, to: &str, nth: usize| {
        let at = file.match_indices(from).nth(nth).expect(from).0;
        let mut text = file.clone();
        text.replace_range(at..at + from.len(), to);
        text
    };
    let out = import_as_judge(&bot, dir.path(), "same.yaml", "Maeoni", &file, "");
    assert!(!out.contains("0 events"), "as exported, imported: {out}");
    let adjusted = "input: players[Coal].phoenixborn.damage = 0\n";
    let cases = [
        (
            edit(
                "input: attack Maeoni with Hammer Knight\n",
                "input: pass\n",
                0,
            ),
            vec!["play 2:", "`input` reads \"pass\""],
        ),
        (
            edit(
                "input: attack Maeoni with Hammer Knight\n",
                "input: attack Maeoni with Anchornaut\n",
                0,
            ),
            vec!["play 2:", "`input` reads \"attack Maeoni with Anchornaut\""],
        ),
        (
            edit(adjusted, "input: players[1].phoenixborn.damage = 0\n", 0),
            vec![
                "adjust 4:",
                "`input` reads \"players[1].phoenixborn.damage = 0\"",
            ],
        ),
        (
            edit(adjusted, "input: reject\n", 1),
            vec!["adjust 5:", "`input` reads \"reject\""],
        ),
        (
            edit("- actor: Maeoni\n", "- actor: judge\n", 1).replacen(
                "  context:\n    adjustment:",
                "  context:\n    moderator: true\n    adjustment:",
                1,
            ),
            vec![
                "adjust 5:",
                "`context.proposal.moderated` does not hold seat 2",
            ],
        ),
    ];
    for (i, (text, why)) in cases.iter().enumerate() {
        assert_ne!(*text, file);
        let out = import_as_judge(
            &bot,
            dir.path(),
            &format!("{i}.yaml"),
            "Maeoni",
            text,
            "/match log\n",
        );
        for w in why {
            assert!(out.contains(w), "`{w}` in {out}");
        }
        assert!(out.contains("0 events"), "nothing imported: {out}");
    }
}

/// An export of a format this version does not read is refused naming
/// the format it reads (formats 1, 3, 99 and "banana" imported as 2).
#[test]
fn an_export_of_another_format_is_refused_naming_the_one_read() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(&bot, "Coal", "/match play pass\n/match export\n");
    let file = exported(&out);
    assert!(file.contains("arbiter_export: 2\n"), "{file}");
    for format in ["1", "3", "99", "banana"] {
        let text = file.replacen(
            "arbiter_export: 2\n",
            &format!("arbiter_export: {format}\n"),
            1,
        );
        let out = import_as_judge(&bot, dir.path(), "x.yaml", "Maeoni", &text, "/match log\n");
        assert!(
            out.contains("reads format 2 only (`arbiter_export: 2`)"),
            "{format}: {out}"
        );
        assert!(out.contains("0 events"), "nothing imported: {out}");
    }
}

/// A player's import refused says what its log holds beyond setting up
/// (setups, a note and its undo were refused as "an export with plays").
#[test]
fn a_players_import_refused_names_what_its_log_holds() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match note hello\n/match undo\n/match export\n",
    );
    let file = exported(&out);
    let path = dir.path().join("s.yaml");
    std::fs::write(&path, file).unwrap();
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/as judge moderator\n/match end\n/as Coal\n/match start game:ashes player1:Coal player2:Maeoni\n\
             /match setup file:{}\n",
            path.display()
        ),
    );
    assert!(out.contains("(this one holds 1 note, 1 undo)"), "{out}");
    assert!(!out.contains("with plays"), "{out}");
}

/// Imports an unedited export (`file`) as the judge, Maeoni's channel,
/// and asserts that every event came in.
fn reimported_whole(bot: &Bot, dir: &std::path::Path, file: &str) {
    let out = import_as_judge(bot, dir, "same.yaml", "Maeoni", file, "/match log\n");
    assert!(!out.contains("0 events"), "imported whole: {out}");
}

/// An end proposed (recorded as a note until it is confirmed) is named
/// as the proposal it is when an undo of it is refused, with what to do:
/// the player it waits on is told to reject it, a player it does not ask
/// that it waits on another's answer and its author may withdraw it (it
/// read "the last note was made by Ana").
#[test]
fn an_undo_refused_over_an_end_proposed_names_the_proposal() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ti4(dir.path());
    // Ana proposes Cleo's win: Ben is asked, not Cleo, who wins by it.
    let out = run(&bot, "Ana", "/match end winner:Cleo reason:time called\n");
    assert!(out.contains("Ana proposes to end the match"), "{out}");
    let out = run(&bot, "Cleo", "/match undo\n");
    assert!(
        out.contains(
            "the last event is #2, Ana's proposal (Ana proposes to end the match: Cleo wins (time called))"
        ) && out.contains("it waits on Ben's answer (Confirm or Reject)")
            && out.contains("its author may withdraw it with `undo`")
            && out.contains("only its author Ana or a moderator who holds no seat")
            && !out.contains("note"),
        "{out}"
    );
    let out = run(&bot, "Ben", "/match undo\n");
    assert!(
        out.contains("the last event is #2, Ana's proposal (Ana proposes to end the match")
            && out.contains("it waits on your consent")
            && out.contains("answer it with `reject`")
            && !out.contains("note"),
        "{out}"
    );
    // Its author withdraws it.
    let out = run(&bot, "Ana", "/match undo\n");
    assert!(out.contains("== Undone: event #2 =="), "{out}");
}

/// A note's text and a moderator's end reason are imported only as a live
/// `note` or `end` would have recorded them: a line break (the rest read
/// as a log entry of its own), a role mention, a masked link, a
/// zero-width character or a note over the length limit is refused,
/// naming the event and the field (a moderator's import stored each one
/// and `verify` called it consistent: found by an outside tester).
#[test]
fn an_imported_note_or_reason_no_live_command_writes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(
        &bot,
        "Coal",
        "/match note text:x\n/as judge moderator\n/match end winner:Coal reason:done\n/match export\n",
    );
    let file = exported(&out);
    reimported_whole(&bot, dir.path(), &file);
    let long = "x".repeat(1001);
    for (from, to, field) in [
        (
            "text: x\n",
            "text: \"ok\\n#99 Maeoni ended the match\"\n",
            "`context.text`",
        ),
        (
            "text: x\n",
            "text: \"ok <@&123> @everyone\"\n",
            "`context.text`",
        ),
        (
            "text: x\n",
            "text: \"[click](https://evil.example)\"\n",
            "`context.text`",
        ),
        ("text: x\n", "text: \"o\\u200bk\"\n", "`context.text`"),
        ("text: x\n", &format!("text: {long}\n"), "`context.text`"),
        (
            "reason: done (by a moderator)\n",
            "reason: \"done\\n#19 Maeoni conceded (by a moderator)\"\n",
            "`context.reason`",
        ),
        (
            "reason: done (by a moderator)\n",
            &format!("reason: {long} (by a moderator)\n"),
            "`context.reason`",
        ),
    ] {
        assert!(file.contains(from), "{from} in {file}");
        let edited = file.replace(from, to);
        let out = import_as_judge(
            &bot,
            dir.path(),
            "text.yaml",
            "Maeoni",
            &edited,
            "/match log\n",
        );
        assert!(out.contains(field), "`{field}` for {to} in {out}");
        assert!(out.contains("0 events"), "{out}");
    }
}

/// After the end, a moderator who holds a seat is told who may reopen it
/// as the undo's rule says: not "a moderator", which she is, and her undo
/// was then refused (found by an outside tester).
#[test]
fn an_ended_match_names_who_may_reopen_it_as_undo_does() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    run(
        &bot,
        "Coal",
        "/match end winner:Coal reason:I win\n/as Maeoni\n1\n",
    );
    let out = run(
        &bot,
        "Maeoni",
        "/as Maeoni moderator\n/match end winner:Maeoni\n/match undo\n",
    );
    let who = "only Coal, who won it, or a moderator who holds no seat in the match may";
    assert!(
        out.contains(&format!("the match has ended; {who} reopen it")),
        "{out}"
    );
    assert!(out.contains(&format!("{who} undo it")), "{out}");
}

/// A field of the wrong kind in an export is refused at its line:column,
/// with its path and its event, as a board's is: it read "this is not an
/// Arbiter export this version reads: invalid type: string \"banana\"",
/// with neither (found by an outside tester).
#[test]
fn a_mistyped_export_field_is_located() {
    let dir = tempfile::tempdir().unwrap();
    let bot = ashes(dir.path());
    let out = run(&bot, "Coal", "/match note text:x\n/match export\n");
    let file = exported(&out);
    let second = file.match_indices("\n  at: ").nth(1).expect("two events").0 + 1;
    let end = second + file[second..].find('\n').unwrap();
    let line = file[..second].lines().count() + 1;
    let edited = format!("{}  at: banana{}", &file[..second], &file[end..]);
    let out = import_as_judge(&bot, dir.path(), "at.yaml", "Maeoni", &edited, "");
    for w in [
        &format!("line {line}:"),
        "log[1].at: ",
        "banana",
        "(in event #2)",
    ] {
        assert!(out.contains(w), "`{w}` in {out}");
    }
    assert!(!out.contains("not an Arbiter export"), "{out}");
}
