//! An earlier match of a channel stays readable once a new one starts
//! there (an outside tester: the loser of a disputed game buried its log,
//! board and export with one `/match start`): `board`, `log`, `export` and
//! `verify` take `match:N` (the CLI `--match N`), a match of this channel
//! only.

use crate::match_integrity::{example, match_bot, run};

/// Match #1 (Coal and Maeoni, a note "first game ruling", conceded by
/// Maeoni) and match #2 started after it, in the console's channel.
fn two_matches(dir: &std::path::Path) -> arbiter::bot::Bot {
    let bot = match_bot(dir);
    let out = run(
        &bot,
        "Coal",
        &format!(
            "/match start game:ashes player1:Coal player2:Maeoni\n/as judge moderator\n/match setup file:{}\n\
             /as Coal\n/match note text:first game ruling\n/as Maeoni\n/match end winner:Coal reason:conceded\n",
            example("ashes-start.yaml")
        ),
    );
    assert!(out.contains("first game ruling"), "{out}");
    let out = run(
        &bot,
        "Maeoni",
        "/match start game:ashes player1:Maeoni player2:Zed\n/match log\n",
    );
    assert!(out.contains("#2"), "{out}");
    assert!(!out.contains("first game ruling"), "{out}");
    bot
}

/// `arbiter match` on the database of `dir` (the console's).
fn cli(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let url = format!("sqlite://{}", dir.join("integrity.db").display());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    (o.status.success(), text)
}

/// Match #3, Ana's and Ben's, started in channel "elsewhere" (by the CLI):
/// the start's reply.
fn third_match_elsewhere(dir: &std::path::Path) -> String {
    let (ok, out) = cli(
        dir,
        &[
            "--channel",
            "elsewhere",
            "--as",
            "Ana",
            "start",
            "--game",
            "ashes",
            "--player",
            "Ana",
            "--player",
            "Ben",
        ],
    );
    assert!(ok, "{out}");
    out
}

#[test]
fn an_ended_match_is_read_by_its_number_after_a_new_one_starts() {
    let dir = tempfile::tempdir().unwrap();
    let bot = two_matches(dir.path());
    let log = run(&bot, "Zed", "/match log match:1\n");
    assert!(
        log.contains("first game ruling") && log.contains("match #1"),
        "{log}"
    );
    let export = run(&bot, "Zed", "/match export match:1\n");
    assert!(
        export.contains("match_id: 1") && export.contains("first game ruling"),
        "{export}"
    );
    let board = run(&bot, "Zed", "/match board match:1\n");
    assert!(
        board.contains("match #1") && board.contains("Coal wins"),
        "{board}"
    );
    let verify = run(&bot, "Zed", "/match verify match:1\n");
    assert!(verify.contains("match #1"), "{verify}");
    // Without a number: the channel's current match, as before.
    let current = run(&bot, "Zed", "/match log\n");
    assert!(!current.contains("first game ruling"), "{current}");
}

#[test]
fn a_match_of_another_channel_is_not_read_by_its_number() {
    let dir = tempfile::tempdir().unwrap();
    let bot = two_matches(dir.path());
    let out = third_match_elsewhere(dir.path());
    assert!(out.contains("#3"), "{out}");
    for sub in ["log", "export", "board", "verify"] {
        let out = run(&bot, "Zed", &format!("/match {sub} match:3\n"));
        assert!(out.contains("no match #3 in this channel"), "{sub}: {out}");
        assert!(!out.contains("Ana"), "{sub}: {out}");
    }
    // Nor this channel's from there.
    let (ok, out) = cli(
        dir.path(),
        &["--channel", "elsewhere", "log", "--match", "1"],
    );
    assert!(!ok, "{out}");
    assert!(out.contains("no match #1 in this channel"), "{out}");
    assert!(!out.contains("first game ruling"), "{out}");
}

#[test]
fn the_cli_reads_an_earlier_match_with_match_n() {
    let dir = tempfile::tempdir().unwrap();
    two_matches(dir.path());
    let (ok, out) = cli(dir.path(), &["--channel", "console", "log", "--match", "1"]);
    assert!(ok && out.contains("first game ruling"), "{out}");
    let (ok, out) = cli(
        dir.path(),
        &["--channel", "console", "export", "--match", "1"],
    );
    assert!(ok && out.contains("match_id: 1"), "{out}");
    let (ok, out) = cli(
        dir.path(),
        &["--channel", "console", "verify", "--match", "1"],
    );
    assert!(ok, "{out}");
    let (ok, out) = cli(
        dir.path(),
        &["--channel", "console", "board", "--match", "1"],
    );
    assert!(ok && out.contains("Coal wins"), "{out}");
}

/// `match:` is autocompleted with this channel's matches, newest first,
/// each with its game, players and standing (what was typed filters them),
/// and nothing of another channel's; on Discord its choices are integers,
/// as the option is.
#[test]
fn match_numbers_are_autocompleted_with_this_channels_matches() {
    let dir = tempfile::tempdir().unwrap();
    let bot = two_matches(dir.path());
    third_match_elsewhere(dir.path());
    let out = run(&bot, "Zed", "/match complete log match:\n");
    let two = out.find("#2 ashes, Maeoni v Zed, in play").expect(&out);
    let one = out
        .find("#1 ashes, Coal v Maeoni, ended: Coal wins")
        .expect(&out);
    assert!(two < one, "newest first: {out}");
    assert!(!out.contains("#3") && !out.contains("Ana"), "{out}");
    let out = run(&bot, "Zed", "/match complete log match:ended\n");
    assert!(
        out.contains("#1 ashes") && !out.contains("#2 ashes"),
        "{out}"
    );
    // A number the channel has not had names the ones it has.
    let out = run(&bot, "Zed", "/match log match:7\n");
    assert!(
        out.contains(
            "no match #7 in this channel; this channel's matches: #2 (in play), #1 (ended)"
        ),
        "{out}"
    );
}
