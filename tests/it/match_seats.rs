//! Who plays which seat, and how many seats a game takes (an outside
//! tester's findings): an adjust cannot add, remove or reorder a board's
//! players, a board or a match with fewer players than its game is
//! refused, and a win one records for oneself is no concession.

use crate::match_integrity::{example, match_bot, run};

/// A match of `game` seating `players` on the example's starting board,
/// set up by a judge who holds no seat.
fn set_up(dir: &std::path::Path, game: &str, players: &[&str]) -> arbiter::bot::Bot {
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
            "/match start game:{game}{seats}\n/as judge moderator\n/match setup file:{}\n",
            example(&format!("{game}-start.yaml"))
        ),
    );
    assert!(out.contains("version 1"), "{out}");
    bot
}

/// The version a board reply shows.
fn version(out: &str) -> String {
    let at = out.rfind("version ").expect("a version");
    out[at..].chars().take_while(|c| *c != ')').collect()
}

#[test]
fn an_adjust_cannot_add_remove_or_reorder_the_boards_players() {
    let games: [(&str, [&str; 2]); 5] = [
        ("ashes", ["Coal", "Maeoni"]),
        ("magewinds", ["Ana", "Bram"]),
        ("legion", ["Ana", "Ben"]),
        ("grand-archive", ["Alice", "Bob"]),
        ("ti4", ["Ana", "Ben"]),
    ];
    for (game, [first, second]) in games {
        let dir = tempfile::tempdir().unwrap();
        let players: &[&str] = match game {
            "ti4" => &["Ana", "Ben", "Cleo"],
            _ => &[first, second],
        };
        let bot = set_up(dir.path(), game, players);
        let before = version(&run(&bot, "judge", "/match board\n"));
        // Even a moderator: seat 2 would have no board player, or the
        // users would play each other's.
        let script = format!(
            "/as judge moderator\n/match adjust field:players.{second} value:null reason:gone\n"
        );
        let out = run(&bot, "judge", &script);
        // TI4's boards seat three at least: refused as a board first.
        let refused = match game {
            "ti4" => "at least 3 needed; 2 given",
            _ => "an adjust cannot add or remove a board's player",
        };
        assert!(out.contains(refused), "{game}: {out}");
        // A player's proposal to reorder them is refused, not proposed.
        let board = run(&bot, "judge", "/match export\n");
        assert!(board.contains(second), "{game}: {board}");
        let out = run(
            &bot,
            players[0],
            &format!("/match adjust field:players.{first}.name value:{second} reason:swap\n"),
        );
        // A rename to another seat's name is refused as reading alike.
        assert!(out.contains("(only you see this)"), "{game}: {out}");
        assert_eq!(
            version(&run(&bot, "judge", "/match board\n")),
            before,
            "{game}: nothing recorded"
        );
    }
}

#[test]
fn swapping_the_players_list_is_refused_naming_the_seats() {
    let dir = tempfile::tempdir().unwrap();
    let bot = set_up(dir.path(), "ashes", &["Coal", "Maeoni"]);
    let export = run(&bot, "judge", "/match export\n");
    assert!(export.contains("Maeoni Viper"), "{export}");
    let swapped = "[{name: Maeoni, phoenixborn: {name: Maeoni Viper, life: 20}}, \
                   {name: Coal, phoenixborn: {name: Coal Roarkwin, life: 15}}]";
    for user in ["Coal", "judge"] {
        let script = match user {
            "judge" => format!(
                "/as judge moderator\n/match adjust field:players value:{swapped} reason:swap\n"
            ),
            _ => format!("/match adjust field:players value:{swapped} reason:swap\n"),
        };
        let out = run(&bot, user, &script);
        assert!(
            out.contains("move Maeoni from seat 2 to seat 1")
                && out.contains("cannot reorder a board's players"),
            "{user}: {out}"
        );
    }
    // A player appended: a seat no user holds (whose turn stuck the match).
    let zed = "{name: Zed, phoenixborn: {name: Jessa Na Ni, life: 18}}";
    let out = run(
        &bot,
        "Coal",
        &format!("/match adjust field:players.+ value:{zed} reason:my friend joins\n"),
    );
    assert!(
        out.contains("the board with 3 players where the match seats 2 players")
            && !out.contains("proposes"),
        "{out}"
    );
    // A seat renamed in place is still a rename, the turn with it.
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:players.Coal.name value:Cole reason:spelling\n/match board\n",
    );
    assert!(out.contains("Cole") && out.contains("version 2"), "{out}");
}

#[test]
fn a_board_with_fewer_players_than_the_game_takes_is_refused() {
    let boards = [
        (
            "ashes",
            "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n",
        ),
        (
            "magewinds",
            "game: magewinds\nround: 1\nphase: action\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - { name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt] }\n",
        ),
        (
            "legion",
            "game: legion\nphase: activation\nturn: Ana\nplayers:\n  - name: Ana\n    units:\n      - name: Stormtroopers\n",
        ),
        (
            "grand-archive",
            "game: grand-archive\nturn_player: Alice\nplayers:\n  - name: Alice\n    champion: { name: \"Lorraine, Wandering Warrior\" }\n",
        ),
    ];
    for (game, board) in boards {
        let dir = tempfile::tempdir().unwrap();
        // A one-seat match is refused at the start, saying why (the CLI
        // starts one; the console asks for two).
        let url = format!("sqlite://{}", dir.path().join("start.db").display());
        let refused = tokio::runtime::Runtime::new().unwrap().block_on(async {
            let store = arbiter::store::Store::connect(&url).await.unwrap();
            let svc = arbiter::app::matches::Matches::new(store);
            let coal = arbiter::app::matches::Caller::new("c1", "coal", false);
            svc.start(&coal, game, &["coal".to_string()]).await
        });
        let refused = refused.unwrap_err().to_string();
        assert!(
            refused.contains("the match names 1 player")
                && refused.contains("played by at least 2")
                && refused.contains("read as two or more"),
            "{game}: {refused}"
        );
        let bot = match_bot(dir.path());
        // A board of one player is refused at setup, into any match.
        let file = dir.path().join("solo.yaml");
        std::fs::write(&file, board).unwrap();
        let out = run(
            &bot,
            "coal",
            &format!(
                "/match start game:{game} player1:coal player2:maeoni\n/as judge moderator\n/match setup file:{}\n",
                file.display()
            ),
        );
        assert!(
            out.contains("the board has 1 player") && out.contains("played by at least 2"),
            "{game}: {out}"
        );
    }
}

#[test]
fn ones_own_win_with_nobody_to_ask_is_not_a_concession() {
    let dir = tempfile::tempdir().unwrap();
    // A one-seat match, as matches started before the minimum were (the
    // start refuses one now): made in the store directly.
    let url = format!("sqlite://{}", dir.path().join("integrity.db").display());
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = arbiter::store::Store::connect(&url).await.unwrap();
        let seats = ["coal".to_string()];
        store
            .create_match("console", "ashes", &seats, "coal")
            .await
            .unwrap();
    });
    let bot = match_bot(dir.path());
    let out = run(
        &bot,
        "coal",
        "/match end winner:coal
/match board
",
    );
    assert!(out.contains("coal wins"), "{out}");
    assert!(
        !out.contains("conceded by") && out.contains("with no other player in the game to ask"),
        "{out}"
    );
}

#[test]
fn magewinds_first_to_pass_takes_the_first_turn_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let bot = set_up(dir.path(), "magewinds", &["Ana", "Bram"]);
    // Each alone was refused as disagreeing with the other.
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:turn value:Bram reason:misread\n",
    );
    assert!(
        out.contains("the first turn follows `first_to_pass`"),
        "{out}"
    );
    // A player's proposal names both fields it changes.
    let out = run(
        &bot,
        "Ana",
        "/match adjust field:first_to_pass value:Bram reason:misread\n",
    );
    assert!(
        out.contains("first_to_pass from") && out.contains("and with it turn from"),
        "{out}"
    );
    run(&bot, "Bram", "/match answer choice:reject\n");
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:first_to_pass value:Bram reason:misread\n/match export\n",
    );
    assert!(
        out.contains("first_to_pass: Bram") && out.contains("turn: Bram"),
        "{out}"
    );
    // An empty part of a path is a path error, not a player's name.
    let out = run(
        &bot,
        "judge",
        "/as judge moderator\n/match adjust field:players..movement value:1 reason:x\n",
    );
    assert!(
        out.contains("empty part at character 9") && !out.contains("unknown name"),
        "{out}"
    );
}
