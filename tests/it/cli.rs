//! The `arbiter` binary: output contracts and exit status.

use crate::common;
use crate::hostile;

use std::process::{Command, Output, Stdio};

fn arbiter(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(common::repo())
        .env_remove("ARBITER_DATA")
        .env_remove("ARBITER_RULES_DIRS")
        .stdin(Stdio::null())
        .output()
        .expect("arbiter runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn ask_json_follows_the_documented_contract() {
    let o = arbiter(&[
        "ask",
        "can an exhausted phoenixborn guard?",
        "--json",
        "--limit",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["query"], "can an exhausted phoenixborn guard?");
    assert!(v["game"].is_null(), "no game given or named");
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty() && results.len() <= 2);
    let r = &results[0];
    for key in ["id", "game", "title", "text", "highlight"] {
        assert!(r[key].is_string(), "{key} in {r}");
    }
    assert!(r["path"].is_array() && r["score"].is_number());
    assert_eq!(r["id"], "ashes:attack-a-unit.3");
    assert_eq!(r["path"][0], "Ashes Reborn");
    assert_eq!(v["confidence"], "answer");
}

#[test]
fn a_multi_part_question_is_answered_part_by_part() {
    let q = "two quick ones. 1) can an exhausted phoenixborn guard 2) ti4 when can i pass with two strategy cards in a 4 player game";
    let o = arbiter(&["ask", q, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let parts = v["parts"].as_array().expect("parts");
    assert_eq!(parts.len(), 2, "{v}");
    assert_eq!(parts[0]["question"], "can an exhausted phoenixborn guard");
    assert_eq!(parts[0]["ids"][0], "ashes:attack-a-unit.3");
    assert_eq!(parts[1]["ids"][0], "ti4:action-phase.4.1");
    let ids: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids[..2], ["ashes:attack-a-unit.3", "ti4:action-phase.4.1"]);
    let out = stdout(&arbiter(&["ask", q]));
    let first = out
        .find("Part 1 of 2: “can an exhausted phoenixborn guard”")
        .expect(&out);
    let second = out.find("Part 2 of 2:").expect(&out);
    let answer2 = out.find("[ti4:action-phase.4.1]").expect(&out);
    assert!(first < second && second < answer2, "{out}");
    // A "closest" reply in parts says each part's heading tells its own
    // label: one caveat over the whole read as said of a part labelled
    // "answer" (found by an outside tester).
    let mixed = "two quick ones. 1) can an exhausted phoenixborn guard 2) do units in battle deal damage at the same time";
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["ask", mixed, "--json"]).stdout).unwrap();
    assert_eq!(v["confidence"], "closest", "{v}");
    assert_eq!(v["parts"][0]["confidence"], "answer", "{v}");
    let said = stdout(&arbiter(&["ask", mixed]));
    assert!(
        said.contains(arbiter::render::text::CLOSEST_PARTS)
            && !said.contains(arbiter::render::text::CLOSEST),
        "{said}"
    );
    // Numbered as shown: 1 and 2 under the first part, 3 under the second.
    let n3 = out.find("\n3. [ti4:").expect(&out);
    assert!(
        second < n3 && out[first..second].contains("\n2. ["),
        "{out}"
    );

    // Two parts with one best: the passage is shown once, under the first
    // part, and the second points to it with its own sentence (it showed
    // another passage alone under an "answer" heading, found by an outside
    // tester).
    let shared = "can a exhausted phoenixborn guard? also can 2 units guard the same attack";
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["ask", shared, "--json"]).stdout).unwrap();
    let parts = v["parts"].as_array().expect("parts");
    assert_eq!(parts[1]["ids"][0], "ashes:attack-a-unit.3", "{v}");
    let said = parts[1]["highlight"].as_str().expect("the part's sentence");
    assert!(!said.is_empty(), "{v}");
    let out = stdout(&arbiter(&["ask", shared]));
    let second = out.find("Part 2 of 2:").expect(&out);
    assert!(
        out[second..].contains(&format!("See 1 above, [ashes:attack-a-unit.3]: **{said}**")),
        "{out}"
    );

    // More parts than passages asked for: each part still gets its best,
    // and each part's ids are among the results.
    let five = "1) can an exhausted pb guard 2) ti4 when can i pass 3) legion how many actions 4) magewinds guard action 5) grand archive can attacks be responded to";
    let v: serde_json::Value =
        serde_json::from_slice(&arbiter(&["ask", five, "--json", "--limit", "3"]).stdout).unwrap();
    let results: Vec<&str> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let parts = v["parts"].as_array().expect("parts");
    assert_eq!(parts.len(), 5, "{v}");
    for p in parts {
        let ids = p["ids"].as_array().unwrap();
        assert!(!ids.is_empty(), "every part has a passage: {v}");
        assert!(
            ids.iter().all(|id| results.contains(&id.as_str().unwrap())),
            "{v}"
        );
    }
    // Two parts whose best passage is the same: the second still shows one
    // of its own (the shared one is shown under the first).
    let same = "1) can an exhausted pb guard 2) can an exhausted phoenixborn guard";
    let out = stdout(&arbiter(&["ask", same, "--limit", "2"]));
    let second = out.find("Part 2 of 2:").expect(&out);
    assert!(out[second..].contains("\n2. ["), "{out}");
    let one = arbiter(&["ask", "can an exhausted phoenixborn guard?", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert!(
        v.get("parts").is_none(),
        "a one-part question has no parts: {v}"
    );
}

#[test]
fn ask_says_when_nothing_indexed_covers_the_question() {
    let o = arbiter(&["ask", "what is the mulligan rule"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("No indexed rule covers this"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("The indexed rules cover:"),
        "{}",
        stdout(&o)
    );
    let o = arbiter(&["ask", "what is the mulligan rule", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["results"], serde_json::json!([]));
    assert_eq!(v["confidence"], "none");
    assert!(v["covers"].as_array().is_some_and(|c| !c.is_empty()), "{v}");
}

#[test]
fn ask_text_shows_citation_path_and_highlight() {
    let o = arbiter(&["ask", "how far can a fighter step move", "-n", "3"]);
    let out = stdout(&o);
    assert!(out.contains("[magewinds:13.1] Step Moves"), "{out}");
    assert!(
        out.contains(
            "Magewinds › Magewinds Free Rules for Magical Duels › Fighting a Battle › Action Phase"
        ),
        "{out}"
    );
    assert!(
        out.contains("**When performing an action, a fighter may make a step move of up to 1”"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let o = arbiter(&["ask", ""]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("empty"), "{}", stderr(&o));
    let long = "x".repeat(100 * 1024);
    let o = arbiter(&["ask", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("limit is 2000"), "{}", stderr(&o));
    let o = arbiter(&["cite", "ti4:action-phase.9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no passage has the id 'ti4:action-phase.9'"),
        "{}",
        stderr(&o)
    );
    // "chess" is no typo of "ashes" (two edits in five letters): the games
    // are listed, not offered as a guess; "ashs" is one.
    let o = arbiter(&["ask", "guard", "--game", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown game 'chess'. The games are: ashes, grand-archive,"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["ask", "guard", "--game", "ashs"]);
    assert!(
        stderr(&o).contains("unknown game 'ashs'. Did you mean ashes?"),
        "{}",
        stderr(&o)
    );
    let o = arbiter(&["--data", "/nonexistent/rules", "rules"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/rules"), "{}", stderr(&o));
}

#[test]
fn cite_rules_and_complete() {
    let o = arbiter(&["cite", "ti4:action-phase.3", "--children", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ids: Vec<&str> = v["passages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "ti4:action-phase.3",
            "ti4:action-phase.3.1",
            "ti4:action-phase.3.2",
            "ti4:action-phase.3.3"
        ]
    );
    let o = arbiter(&["rules", "SWL", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"][0]["id"], "legion");
    assert!(
        v["games"][0]["documents"][0]["toc"]
            .as_array()
            .unwrap()
            .len()
            > 15
    );
    let o = arbiter(&["complete", "guard", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let list = v.as_array().unwrap();
    assert!(!list.is_empty() && list.len() <= 25);
    assert!(
        list.iter()
            .any(|s| s["id"] == "magewinds:13.4.guard-action"),
        "{v}"
    );
}

#[test]
fn judge_reports_unreadable_input_with_exit_2() {
    let o = arbiter(&["judge", "/nonexistent/board.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/board.yaml"),
        "{}",
        stderr(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("b.yaml");
    std::fs::write(&f, "game: ashes\nplayers: [unclosed\n").unwrap();
    let o = arbiter(&["judge", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("line "), "{}", stderr(&o));
    std::fs::write(&f, "game: chesss\n").unwrap();
    let o = arbiter(&["judge", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 1:1: game: unknown game 'chesss'. The games are: ashes,")
            && !stderr(&o).contains("did you mean"),
        "{}",
        stderr(&o)
    );
    // A typo in `--game` is the flag's, not the document's: no line of
    // the board is named (it said "line 1:1: game: unknown game").
    std::fs::write(&f, "game: ashes\nturn: Coal\nplayers: []\n").unwrap();
    let o = arbiter(&["judge", f.to_str().unwrap(), "--game", "ashs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--game: unknown game 'ashs'. Did you mean ashes?")
            && !stderr(&o).contains("line "),
        "{}",
        stderr(&o)
    );
}

#[test]
#[ignore = "needs ../shared/corpora (the MTG Comprehensive Rules; .ci/run runs it)"]
fn extra_rule_directories_load_the_mtg_rules() {
    let o = arbiter(&[
        "--rules-dir",
        "tests/fixtures/mtg",
        "ask",
        "what happens when a player has 0 life",
        "-g",
        "mtg",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // 119.6 and 704.5a say the same ("loses the game"); either answers.
    let first = v["results"][0]["id"].as_str().unwrap();
    assert!(["mtg:119.6", "mtg:704.5a"].contains(&first), "{first}");
    let o = arbiter(&["--rules-dir", "tests/fixtures/mtg", "cite", "mtg:702.19b"]);
    assert!(stdout(&o).contains("trample"));
    // The fixture's card list (34,953 cards in two lists): `card` and a
    // question naming a card.
    let o = arbiter(&["--rules-dir", "tests/fixtures/mtg", "card", "Doom Blade"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Destroy target nonblack creature."));
    // A rule quoting a function word ("you", "may": 102.4, 603.5) is not
    // a rule the card's text names; a quoted term ("card", 108.2) is.
    let o = arbiter(&["--rules-dir", "tests/fixtures/mtg", "card", "Flash"]);
    let out = stdout(&o);
    assert!(out.contains("“card” → [mtg:108.2]"), "{out}");
    assert!(!out.contains("“you”") && !out.contains("“may”"), "{out}");
    let o = arbiter(&[
        "--rules-dir",
        "tests/fixtures/mtg",
        "ask",
        "-g",
        "mtg",
        "does hexproof save my creature from a Wrath of God?",
    ]);
    assert!(
        stdout(&o).starts_with("Card: Wrath of God (mtg): Destroy all creatures."),
        "{}",
        stdout(&o)
    );
}

#[test]
fn judge_prints_a_cited_ruling_and_exits_0_even_when_illegal() {
    let o = arbiter(&[
        "judge",
        "examples/ti4/pass-with-readied-card.yaml",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["game"], "ti4");
    assert_eq!(v["legal"], false);
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["severity"] == "error" && d["rule"] == "ti4:action-phase.4.1"),
        "{v}"
    );
    assert!(v["state"].is_object() && v["steps"].is_array());
    let o = arbiter(&["judge", "examples/ashes/attack-phoenixborn.yaml"]);
    let out = stdout(&o);
    assert!(out.starts_with("ashes — LEGAL"), "{out}");
    assert!(out.contains("[ashes:attack-a-phoenixborn.4.2]"), "{out}");
    // What the play states that the board does not record is said so.
    let o = arbiter(&[
        "judge",
        "examples/magewinds/free-ability-last-activation.yaml",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("stated by the player, not on the board:") && out.contains("plays[0].free"),
        "{out}"
    );
}

/// A board's `game:` may be the game's name or an alias, as `--game` may.
#[test]
fn a_board_names_its_game_by_name_or_alias() {
    let board = std::fs::read_to_string(common::repo().join("examples/ashes/pass.yaml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for name in ["Ashes Reborn", "ASHES"] {
        let path = dir.path().join("b.yaml");
        std::fs::write(
            &path,
            board.replace("game: ashes", &format!("game: {name}")),
        )
        .unwrap();
        let o = arbiter(&["judge", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(stdout(&o).starts_with("ashes — LEGAL"), "{}", stdout(&o));
    }
    // Another game's name is still refused.
    let path = dir.path().join("c.yaml");
    std::fs::write(
        &path,
        board.replace("game: ashes", "game: Twilight Imperium"),
    )
    .unwrap();
    let o = arbiter(&["judge", path.to_str().unwrap(), "--game", "ashes"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
}

#[test]
fn judge_takes_a_play_in_one_line_notation() {
    let o = arbiter(&[
        "judge",
        "examples/ashes/attack-phoenixborn.yaml",
        "--play",
        "attack unit \"Mist Spirit\" with Hammer Knight; no counter",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["legal"], true);
    let rules: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"ashes:attack-a-unit.4.1"), "{rules:?}");
    let o = arbiter(&[
        "judge",
        "examples/ashes/attack-phoenixborn.yaml",
        "--play",
        "attack unit \"Mist Sprit\" with Hammer Knight",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean 'Mist Spirit'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn schema_is_json_schema_for_each_game() {
    for game in ["ashes", "ti4", "magewinds", "legion", "grand-archive"] {
        let o = arbiter(&["schema", game]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(
            v["$schema"].is_string() || v["type"] == "object",
            "{game}: {v}"
        );
        assert!(v["properties"]["game"].is_object(), "{game}");
    }
}

#[test]
fn match_ask_searches_the_channels_match_game() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let q = "can I pass on my very first turn of the action phase";
    let in_match = |channel: &str, rest: &[&str]| {
        arbiter(&[&["match", "--database-url", &url, "-c", channel][..], rest].concat())
    };
    let ask = |channel: &str| {
        let o = in_match(channel, &["ask", "--json", q]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let games = |v: &serde_json::Value| -> Vec<String> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["game"].as_str().unwrap().to_string())
            .collect()
    };
    // No match: every game.
    let v = ask("table");
    assert!(v.get("game_from").is_none(), "{v}");
    assert!(games(&v).iter().any(|g| g != "ti4"), "{v}");
    let start = [
        "--as", "coal", "start", "-g", "ti4", "-p", "coal", "-p", "maeoni", "-p", "cleo",
    ];
    let o = in_match("table", &start);
    assert!(o.status.success(), "{}", stderr(&o));
    // In the match's channel: its game, said so; elsewhere: every game.
    let v = ask("table");
    assert_eq!(
        (&v["game"], &v["game_from"]),
        (&"ti4".into(), &"match".into())
    );
    assert!(games(&v).iter().all(|g| g == "ti4"), "{v}");
    let v = ask("another");
    assert!(v.get("game_from").is_none(), "{v}");
    let o = in_match("table", &["ask", "-n", "1", q]);
    assert!(
        stdout(&o).starts_with("(ti4 rules: this channel's match."),
        "{}",
        stdout(&o)
    );
}

/// `arbiter import` reads the file in a child process: a PDF whose form
/// draws itself (which aborted the whole process, exit 134) and a page of
/// 200,000 nested elements are each one clear error, exit 2, and nothing
/// is written.
#[test]
fn import_of_a_hostile_file_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "self-form.pdf",
            hostile::pdf_self_drawing_form(),
            "the converter stopped on this PDF",
        ),
        (
            "deep.html",
            hostile::html_nested("b", 200_000),
            "nests its HTML elements more than 400 deep",
        ),
    ];
    for (name, bytes, expected) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, bytes).unwrap();
        let out_dir = dir.path().join(format!("{name}-out"));
        let out = arbiter(&[
            "import",
            file.to_str().unwrap(),
            "--game",
            "Kitchen Table",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!out_dir.exists(), "{name}: nothing is written");
    }
}

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn judge_and_match_board_write_a_picture_and_print_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ruling.png");
    let out_s = out.to_str().unwrap();
    let o = arbiter(&[
        "judge",
        "examples/magewinds/attack-step-visible.yaml",
        "--picture",
        out_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("picture: {out_s} (1000×")),
        "{}",
        stdout(&o)
    );
    assert_eq!(png_size(&std::fs::read(&out).unwrap()).0, 1000);
    // With --json the JSON stays whole on stdout; the path goes to stderr.
    let o = arbiter(&[
        "judge",
        "examples/ti4/pass-with-readied-card.yaml",
        "--json",
        "--picture",
        out_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("JSON alone on stdout");
    assert!(stderr(&o).contains("picture: "), "{}", stderr(&o));
    // A folder that does not exist: refused with where and what to do.
    let o = arbiter(&[
        "judge",
        "examples/ti4/pass-with-readied-card.yaml",
        "--picture",
        "/nonexistent/dir/x.png",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("cannot write the picture to /nonexistent/dir/x.png"),
        "{}",
        stderr(&o)
    );

    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let m = |rest: &[&str]| {
        let o = arbiter(&[&["match", "--database-url", &url, "--as", "Ana"][..], rest].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    m(&["start", "-g", "legion", "-p", "Ana", "-p", "Ben"]);
    m(&["setup", "examples/matches/legion-start.yaml"]);
    let board = dir.path().join("board.png");
    let o = m(&["board", "--picture", board.to_str().unwrap()]);
    assert!(stdout(&o).contains("picture: "), "{}", stdout(&o));
    let (w, h) = png_size(&std::fs::read(&board).unwrap());
    assert!(w == 1000 && h > 100, "{w}×{h}");
}

/// `match board --picture` of an ended match draws its result: it was the
/// picture from before the end, byte for byte, still showing whose turn it
/// was (found by an outside tester). A moderator's end without a winner is
/// drawn as one too.
#[test]
fn an_ended_match_board_picture_is_not_the_one_before_the_end() {
    let dir = tempfile::tempdir().unwrap();
    for (channel, end) in [
        (
            "won",
            &["end", "--winner", "Alice", "--reason", "by agreement"][..],
        ),
        ("bare", &["end"][..]),
    ] {
        let url = format!("sqlite://{}", dir.path().join("m.db").display());
        let m = |rest: &[&str]| {
            let head = [
                "match",
                "--database-url",
                &url,
                "-c",
                channel,
                "--as",
                "mod",
            ];
            let o = arbiter(&[&head[..], &["--moderator"], rest].concat());
            assert!(o.status.success(), "{}", stderr(&o));
            o
        };
        m(&["start", "-g", "grand-archive", "-p", "alice", "-p", "bob"]);
        m(&["setup", "examples/matches/grand-archive-start.yaml"]);
        let before = dir.path().join(format!("{channel}-before.png"));
        let after = dir.path().join(format!("{channel}-after.png"));
        m(&["board", "--picture", before.to_str().unwrap()]);
        m(end);
        let o = m(&["board", "--picture", after.to_str().unwrap()]);
        assert!(stdout(&o).contains("ended"), "{}", stdout(&o));
        let (before, after) = (
            std::fs::read(&before).unwrap(),
            std::fs::read(&after).unwrap(),
        );
        assert_ne!(
            before, after,
            "{channel}: the ended match's picture is the one before"
        );
        // The result's strip under the banner makes it taller.
        assert!(png_size(&after).1 > png_size(&before).1, "{channel}");
    }
}

/// The CLI's `match` subcommands (clap) are a surface of their own (flags
/// such as `--picture` and `--expect-version`, CLI-only `cite`/`ask`) over
/// the same `MatchRequest`; every `/match` subcommand the registry declares
/// has one.
#[test]
fn every_declared_match_subcommand_is_reachable_from_the_cli() {
    let spec = arbiter::bot::commands::find("match").expect("declared");
    let subs = spec.sub_names();
    assert!(subs.len() >= 15, "{subs:?}");
    for sub in subs {
        let o = arbiter(&["match", sub, "--help"]);
        assert!(o.status.success(), "arbiter match {sub}: {}", stderr(&o));
    }
}

/// Every command takes the same `--guild` values, and refuses others
/// naming the flag (the console failed with "invalid digit found in
/// string" while `rules add --guild g1` took a name no server reaches).
#[test]
fn every_command_refuses_the_same_guild_ids_naming_the_flag() {
    for args in [
        &["console", "--guild", "cg"][..],
        &["rules", "list", "--guild", "g1"],
        &["ask", "what is a unit", "--guild", "g1"],
    ] {
        let o = arbiter(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("--guild") && err.contains("Copy Server ID"),
            "{args:?}: {err}"
        );
    }
}

/// A server's id is a snowflake: "0123" and "+123" parsed as 123 but
/// `rules add` stored the rule set under "0123", which neither server 123
/// nor `console --guild 0123` read (found by an outside tester). Refused
/// everywhere, the id meant named.
#[test]
fn a_guild_id_with_a_sign_or_a_leading_zero_is_refused_everywhere() {
    for id in ["0123", "+123"] {
        for args in [
            &["rules", "list", "--guild", id][..],
            &[
                "rules",
                "add",
                "README.md",
                "--game",
                "ashes",
                "--guild",
                id,
            ],
            &["console", "--guild", id],
            &["ask", "what is a unit", "--guild", id],
            &["semantic", "vectors", "--guild", id],
        ] {
            let o = arbiter(args);
            assert!(!o.status.success(), "{args:?}");
            let err = stderr(&o);
            assert!(
                err.contains("--guild") && err.contains("did you mean 123?"),
                "{args:?}: {err}"
            );
        }
    }
    for bad in ["0", "12a"] {
        let o = arbiter(&["rules", "list", "--guild", bad]);
        assert!(
            stderr(&o).contains("Copy Server ID"),
            "{bad}: {}",
            stderr(&o)
        );
    }
}

/// A folder or a missing file given to `judge` is said plainly, naming the
/// path ("Is a directory (os error 21)" was the system's words; found by
/// an outside judge).
#[test]
fn judge_says_plainly_when_its_file_cannot_be_read() {
    let o = arbiter(&["judge", "examples"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("cannot read examples: it is a folder"), "{e}");
    assert!(!e.contains("os error"), "{e}");
    let o = arbiter(&["judge", "examples/no-such-board.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("cannot read examples/no-such-board.yaml: there is no such file"),
        "{e}"
    );
    assert!(!e.contains("os error"), "{e}");
}

/// A decision's "give it as `play.split`" shows the field's shape with one
/// answer written out (the bare path left the shape to guess).
#[test]
fn a_pending_decision_shows_how_to_write_its_answer_on_a_board() {
    let dir = std::env::temp_dir().join(format!("arbiter-split-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("split.yaml");
    std::fs::write(&board, "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Ice Golem, attack: 3, life: 6 }\nplay:\n  action: attack-unit\n  attackers: [Hammer Knight, Iron Worker]\n  target: Ice Golem\n  guard: none\n  counter: true\n").unwrap();
    let o = arbiter(&["judge", board.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    let out = stdout(&o);
    assert!(
        out.contains("give it as `play.split`, for example `split: {\"Hammer Knight\":0}`"),
        "{out}"
    );
}

/// `match answer confirm` typed for a proposal its author withdrew and
/// proposed again with other values is refused (exit 2, nothing
/// recorded), naming the proposal waiting and the answer that carries its
/// version, `confirm @MATCH.VERSION`, which the CLI takes as typed (as
/// `--expect-version` does): an outside tester's finding, S2-12.
#[test]
fn match_answer_typed_for_a_swapped_proposal_needs_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let run = |who: &str, rest: &[&str]| {
        let head = ["match", "--database-url", &url, "-c", "s1", "--as", who];
        arbiter(&[&head[..], rest].concat())
    };
    let ok = |who: &str, rest: &[&str]| {
        let o = run(who, rest);
        assert!(o.status.success(), "{rest:?}: {}", stderr(&o));
        o
    };
    let moderator = ["--moderator"];
    ok(
        "judge",
        &[
            &moderator[..],
            &["start", "--game", "ashes", "--player", "coal"],
            &["--player", "maeoni"],
        ]
        .concat(),
    );
    ok(
        "judge",
        &["--moderator", "setup", "examples/matches/ashes-start.yaml"],
    );
    ok("coal", &["end", "--reason", "time called, draw"]);
    ok("coal", &["undo"]);
    let reason = ["--reason", "time called, draw"];
    ok(
        "coal",
        &[&["end", "--winner", "coal"][..], &reason].concat(),
    );
    let o = run("maeoni", &["answer", "confirm"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    let typed = e
        .split('`')
        .find_map(|s| s.strip_prefix("match answer "))
        .unwrap_or_else(|| panic!("no typed answer: {e}"))
        .to_string();
    assert!(typed.starts_with("confirm @"), "{e}");
    let o = ok("maeoni", &["board"]);
    assert!(!stdout(&o).contains("ended"), "{}", stdout(&o));
    ok("maeoni", &["answer", &typed]);
    let o = ok("maeoni", &["board"]);
    assert!(stdout(&o).contains("ended"), "{}", stdout(&o));
}
