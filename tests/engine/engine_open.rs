//! `GameEngine::open`: a board read once answers notation, whose play it is,
//! the players and the ruling exactly as the engine's one-shot methods do.

use crate::common;

use arbiter::engine::{self, Asking, ErrorKind, GameEngine, document};
use serde_json::Value;

/// Every example document of `e` with a single `play`, as (file, board
/// without the play, the play, the whole document).
fn examples_with_one_play(e: &dyn GameEngine) -> Vec<(String, Value, Value, Value)> {
    let dir = common::repo().join("examples").join(e.game());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let doc = document::parse_value(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let mut board = doc.clone();
        let Some(play) = board.as_object_mut().and_then(|m| m.remove("play")) else {
            continue;
        };
        out.push((f.display().to_string(), board, play, doc));
    }
    out
}

#[test]
fn an_opened_board_rules_as_the_whole_document_does() {
    let mut judged = 0;
    for e in engine::engines() {
        for (file, board, play, doc) in examples_with_one_play(*e) {
            let whole = e.judge(doc, None, &Asking::judge());
            let opened = e
                .open(&board, None)
                .and_then(|b| b.judge(play.clone(), &Asking::judge()));
            match (whole, opened) {
                (Ok(a), Ok(b)) => {
                    let (a, b) = (serde_json::to_value(a), serde_json::to_value(b));
                    assert_eq!(a.unwrap(), b.unwrap(), "{file}");
                    judged += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{file}"),
                (a, b) => panic!("{file}: the document gave {a:?}, the opened board {b:?}"),
            }
            let b = e.open(&board, None).unwrap();
            assert_eq!(b.players(), e.players(&board).unwrap(), "{file}");
            assert_eq!(b.actor(&play).ok(), e.actor(&board, &play).ok(), "{file}");
        }
    }
    assert!(judged >= 25, "only {judged} example plays judged");
}

#[test]
fn an_opened_board_names_its_game_as_the_engine_writes_it() {
    let e = engine::engine("ashes").unwrap();
    let (_, mut board, play, _) = examples_with_one_play(e).remove(0);
    board["game"] = "Ashes".into();
    let ruling = e
        .open(&board, None)
        .unwrap()
        .judge(play.clone(), &Asking::judge());
    assert_eq!(ruling.unwrap().state["game"], "ashes");

    board.as_object_mut().unwrap().remove("game");
    let ruling = e.open(&board, None).unwrap().judge(play, &Asking::judge());
    assert_eq!(ruling.unwrap().state["game"], "ashes");

    board["game"] = "ti4".into();
    let err = e.open(&board, None).err().expect("another game is refused");
    assert_eq!(err.path.as_deref(), Some("game"));
    assert!(err.message.contains("says game 'ti4'"), "{err}");
}

#[test]
fn a_board_error_under_a_notation_play_says_where() {
    let text = std::fs::read_to_string(common::repo().join("examples/ashes/pass.yaml")).unwrap();
    let broken = text.replacen("damage: 6", "damage: -6", 1);
    assert_ne!(broken, text, "the example gives Coal's damage");
    let err = common::app()
        .judge_notation(&broken, None, "pass")
        .expect_err("negative damage is refused");
    let arbiter::app::JudgeError::Board(err) = err else {
        panic!("not a board error: {err:?}");
    };
    assert_eq!(err.kind, ErrorKind::Syntax, "{err}");
    assert_eq!(
        err.path.as_deref(),
        Some("players[0].phoenixborn.damage"),
        "{err}"
    );
    let line = broken
        .lines()
        .position(|l| l.contains("damage: -6"))
        .unwrap()
        + 1;
    assert_eq!(err.pos.map(|p| p.line), Some(line), "{err}");
}

/// A play written twice over in notation ("counter; no counter", "step 0.5;
/// step 1", two targets, two answers) is refused with both clauses quoted,
/// not settled by taking one; a clause `pay` does not take is refused; a
/// unit whose name holds "and" stays one unit (issue found by an outside
/// tester).
#[test]
fn notation_refuses_what_is_said_twice_and_keeps_names_holding_and() {
    let read = |path: &str| {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
                .unwrap();
        let mut v: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("play");
        v
    };
    let cases = [
        (
            "ashes",
            "examples/ashes/attack-phoenixborn.yaml",
            "attack unit Frostback Bear with Iron Worker, Hammer Knight; counter; no counter",
            "play.counter",
            "“counter” and “no counter”",
        ),
        (
            "ashes",
            "examples/ashes/attack-phoenixborn.yaml",
            "attack unit Frostback Bear with Iron Worker, Hammer Knight; split Iron Worker 2, Iron Worker 0",
            "play.split[\"Iron Worker\"]",
            "“Iron Worker 2” and “Iron Worker 0”",
        ),
        (
            "ashes",
            "examples/ashes/attack-phoenixborn.yaml",
            "pay \"Molten Gold\" main; blah",
            "play",
            "unexpected 'blah'",
        ),
        (
            "ti4",
            "examples/matches/ti4-start.yaml",
            "Ana trades with Cleo; accepted; declined",
            "play.accepted",
            "“accepted” and “declined”",
        ),
        (
            "grand-archive",
            "examples/grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml",
            "attack with lorraine at rai at stalwart guard",
            "play",
            "“at rai” and “at stalwart guard”",
        ),
        (
            "grand-archive",
            "examples/grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml",
            "attack with lorraine at rai; no response; respond with Counter",
            "play.response",
            "both say this",
        ),
        (
            "magewinds",
            "examples/magewinds/attack-step-visible.yaml",
            "activate Pyromancer attack Shade with Fire Bolt; step 0.5; step 1",
            "play.step",
            "“step 0.5” and “step 1”",
        ),
    ];
    for (game, file, line, path, words) in cases {
        let e = arbiter::engine::engine(game)
            .unwrap()
            .parse_notation(line, &read(file))
            .unwrap_err();
        assert_eq!(e.path.as_deref(), Some(path), "{line}: {e}");
        assert!(e.message.contains(words), "{line}: {e}");
    }
    // A clause that is no answer at all is not understood, not "said twice".
    for (game, file, line) in [
        (
            "ti4",
            "examples/matches/ti4-start.yaml",
            "Ana trades with Cleo; accepted; 2 trade goods",
        ),
        (
            "grand-archive",
            "examples/grand-archive/example-2-bulwark-sword-and-tariff-ring.yaml",
            "attack with lorraine at rai; no response; hello",
        ),
    ] {
        let e = arbiter::engine::engine(game)
            .unwrap()
            .parse_notation(line, &read(file))
            .unwrap_err();
        assert!(!e.message.contains("both say this"), "{line}: {e}");
    }
    let mut b = read("examples/ashes/attack-phoenixborn.yaml");
    b["players"][0]["units"] = serde_json::json!([
        { "name": "Hammer and Anvil", "attack": 1, "life": 2 },
        { "name": "Anvil Golem", "attack": 5, "life": 5 },
    ]);
    let play = arbiter::engine::engine("ashes")
        .unwrap()
        .parse_notation("attack Maeoni Viper with Hammer and Anvil", &b)
        .unwrap();
    assert_eq!(play["attackers"], serde_json::json!(["Hammer and Anvil"]));
}

/// A JSON board with a key twice in a mapping is refused with where, as the
/// YAML form is (serde_json alone would take the last; found by an outside
/// tester).
#[test]
fn a_json_board_with_a_key_twice_is_refused_with_where() {
    let doc = r#"{"game":"ashes","turn":"Coal","turn":"Maeoni","players":[{"name":"Coal","phoenixborn":{"name":"Coal Roarkwin","life":15}},{"name":"Maeoni","phoenixborn":{"name":"Maeoni Viper","life":20}}],"play":{"action":"pass"}}"#;
    let e = arbiter::engine::engine("ashes")
        .unwrap()
        .judge_text(doc)
        .unwrap_err();
    assert!(e.message.contains("`turn` appears twice"), "{e}");
    assert!(e.pos.is_some(), "{e:?}");
    let once = doc.replacen(r#""turn":"Maeoni","#, "", 1);
    assert!(
        arbiter::engine::engine("ashes")
            .unwrap()
            .judge_text(&once)
            .is_ok()
    );
}
