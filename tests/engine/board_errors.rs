//! What the engines say of broken boards: every example board of the five
//! games, broken one field at a time in fixed ways (a field left out,
//! misspelt, emptied, a number out of range, a name nobody has, a list's
//! first entry twice), judged as `arbiter judge FILE --json` judges it. The
//! outcomes (the input error, or the ruling's legality and diagnostics) are
//! kept as one snapshot per example in
//! `tests/engine/snapshots/board_errors/<folder>/<file>.snap`: the ruling
//! snapshots pin what a legal board does, these pin the words and places of
//! the errors (the net under moving the engines' wording, issue 30).

use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use crate::{common, snapshot};

/// The example folders of the five games.
const FOLDERS: [&str; 5] = ["ashes", "grand-archive", "legion", "magewinds", "ti4"];

/// Breakages tried per example at the most, spread evenly over its fields.
const MOST: usize = 48;

/// Every place in the document below its top-level `game`: (path, value).
fn places(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if path.is_empty() && k == "game" {
                    continue;
                }
                let p = format!("{path}/{k}");
                out.push((p.clone(), x.clone()));
                places(x, &p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let p = format!("{path}/{i}");
                out.push((p.clone(), x.clone()));
                places(x, &p, out);
            }
        }
        _ => {}
    }
}

/// The ways a place is broken, each named: (name, document after).
fn breakages(doc: &Value, path: &str, value: &Value) -> Vec<(String, Value)> {
    let (parent, key) = path.rsplit_once('/').expect("a place below the top");
    let mut out = Vec::new();
    let mut with = |name: &str, f: &dyn Fn(&mut Value)| {
        let mut d = doc.clone();
        f(&mut d);
        out.push((format!("{path}: {name}"), d));
    };
    let in_object = matches!(doc.pointer(parent), Some(Value::Object(_)));
    if in_object {
        with("left out", &|d| {
            d.pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .map(|m| m.remove(key));
        });
        with("misspelt", &|d| {
            if let Some(m) = d.pointer_mut(parent).and_then(Value::as_object_mut)
                && let Some(v) = m.remove(key)
            {
                m.insert(format!("{key}x"), v);
            }
        });
    }
    let mut set =
        |name: &str, to: Value| with(name, &|d| *d.pointer_mut(path).unwrap() = to.clone());
    match value {
        Value::Number(_) => {
            set("-1", Value::from(-1));
            set("1000000", Value::from(1_000_000));
            set("a word", Value::from("three"));
        }
        Value::String(_) => {
            set("empty", Value::from(""));
            set("a name nobody has", Value::from("Zzyzx Qwerty"));
            set("201 characters", Value::from("n".repeat(201)));
        }
        Value::Bool(_) => set("a word", Value::from("yes please")),
        Value::Array(a) => {
            set("empty", Value::Array(Vec::new()));
            if let Some(first) = a.first() {
                let mut twice = a.clone();
                twice.insert(1, first.clone());
                set("first entry twice", Value::Array(twice));
            }
        }
        Value::Object(_) => set("a number", Value::from(7)),
        Value::Null => {}
    }
    out
}

/// The outcome of judging `doc` as the CLI does: the input error, or the
/// ruling's legality, status and diagnostics (its steps are the ruling
/// snapshots' business).
fn outcome(doc: &Value) -> String {
    let text = serde_json::to_string_pretty(doc).expect("a document serializes");
    match common::app().judge(&text, None) {
        Err(e) => format!("error: {e}"),
        Ok(r) => {
            let mut s = format!("legal: {}", r.legal);
            if let Some(p) = &r.pending {
                let options: Vec<&str> = p.options.iter().map(|o| o.label.as_str()).collect();
                write!(
                    s,
                    "; asks {} ({}): {} [{}]",
                    p.player,
                    p.key,
                    p.question,
                    options.join(" | ")
                )
                .unwrap();
            }
            for d in &r.diagnostics {
                let at = d.path.as_deref().unwrap_or("-");
                let rule = d.rule.as_deref().unwrap_or("-");
                write!(s, "\n    {:?} [{rule}] at {at}: {}", d.severity, d.message).unwrap();
            }
            s
        }
    }
}

/// The snapshot text of one example: each breakage and its outcome.
fn report(file: &std::path::Path) -> String {
    let text = std::fs::read_to_string(file).expect("the example reads");
    let doc: Value = serde_saphyr::from_str(&text).expect("the example is YAML");
    let mut all = Vec::new();
    places(&doc, "", &mut all);
    let tried: Vec<(String, Value)> = all
        .iter()
        .flat_map(|(path, value)| breakages(&doc, path, value))
        .collect();
    let step = tried.len().div_ceil(MOST).max(1);
    let mut out = String::new();
    for (name, broken) in tried.iter().step_by(step) {
        writeln!(out, "{name}\n  {}", outcome(broken)).unwrap();
    }
    out
}

fn folder(folder: &str) {
    let dir = common::repo().join("examples").join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut differ = Vec::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        let text = report(file);
        let dir = format!("board_errors/{folder}");
        if catch_unwind(AssertUnwindSafe(|| snapshot::check(&dir, &stem, &text))).is_err() {
            differ.push(format!("examples/{folder}/{stem}.yaml"));
        }
    }
    assert!(
        differ.is_empty(),
        "outcomes differ from their snapshots: {differ:?}"
    );
}

#[test]
fn ashes() {
    folder(FOLDERS[0]);
}

#[test]
fn grand_archive() {
    folder(FOLDERS[1]);
}

#[test]
fn legion() {
    folder(FOLDERS[2]);
}

#[test]
fn magewinds() {
    folder(FOLDERS[3]);
}

#[test]
fn ti4() {
    folder(FOLDERS[4]);
}

/// Judges a board's text as `arbiter judge FILE` does: the board error.
fn board_error(game: &str, text: &str) -> arbiter::engine::BoardError {
    let engine = arbiter::engine::engine(game).expect("a registered game");
    match engine.judge_text(text) {
        Err(e) => e,
        Ok(r) => panic!("judged, not refused: {r:?}\n{text}"),
    }
}

/// A value of the wrong kind inside a play (a tagged or untagged one,
/// which serde reads from a buffer that loses the path) is said at its own
/// field and line:column in every game: it read `line 16:1: play: wrong
/// kind of value` at the play's key.
#[test]
fn a_wrong_kind_inside_a_play_is_said_at_its_field() {
    let ashes = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\nplay:\n  action: attack-unit\n  attackers: [Iron Worker]\n  target: Mist Spirit\n  counter: \"maybe\"\n";
    let ti4 = "game: ti4\nplayers:\n  - { name: Ana, strategy_cards: [{ name: Leadership }, { name: Construction }] }\n  - { name: Ben, strategy_cards: [{ name: Diplomacy }, { name: Trade }] }\n  - { name: Cleo, strategy_cards: [{ name: Politics }, { name: Warfare }] }\nplay:\n  type: strategic_action\n  player: Ana\n  card: 7\n";
    let ti4_list = "game: ti4\nplayers:\n  - { name: Ana, strategy_cards: [{ name: Leadership }, { name: Construction }] }\n  - { name: Ben, strategy_cards: [{ name: Diplomacy }, { name: Trade }] }\n  - { name: Cleo, strategy_cards: [{ name: Politics }, { name: Warfare }] }\nplays:\n  - type: tactical_action\n    player: Ana\n    system: [1, 2]\n";
    let ga = "game: grand-archive\nphase: main\nturn_player: Alice\nplayers:\n  - name: Alice\n    champion: { name: \"Lorraine, Wandering Warrior\" }\n    allies:\n      - { name: Fervent Lancer }\n  - name: Bob\n    champion: { name: \"Rai, Spellcrafter\" }\n    allies:\n      - { name: Scout }\nplay:\n  action: declare-attack\n  attacker: Fervent Lancer\n  target: {name: Scout}\n";
    let mw = "game: magewinds\nturn: Bram\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Golem, movement: 4, position: [20, 12], attacks: [Slam]}\n  - name: Bram\n    fighters:\n      - {name: Windrunner, movement: 7, position: [20, 13], attacks: [Gale Cut]}\nplay:\n  activate: Windrunner\n  action: move\n  distance: \"five\"\n";
    for (game, text, path, line, column) in [
        ("ashes", ashes, "play.counter", 16, 3),
        ("ti4", ti4, "play.card", 9, 3),
        ("ti4", ti4_list, "plays[0].system", 9, 5),
        ("grand-archive", ga, "play.target", 16, 3),
        ("magewinds", mw, "play.distance", 13, 3),
    ] {
        let e = board_error(game, text);
        assert_eq!(e.path.as_deref(), Some(path), "{game}: {e}");
        assert_eq!(
            e.pos.map(|p| (p.line, p.column)),
            Some((line, column)),
            "{game}: {e}"
        );
        assert!(e.message.starts_with("wrong kind of value"), "{game}: {e}");
    }
}

/// A word YAML reads as true, false or a number where text is taken
/// (`name: On`, `system: No`) gets a hint to quote it, quoting what was
/// written; one written in quotes gets none.
#[test]
fn an_unquoted_yaml_word_read_as_a_boolean_is_hinted_to_be_quoted() {
    let ashes = "game: ashes\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units: [ { name: On, attack: 2, life: 2 } ]\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 15 }\n";
    let ti4 = "game: ti4\nplayers:\n  - { name: Ana, strategy_cards: [{ name: Leadership }, { name: Construction }] }\n  - { name: Ben, strategy_cards: [{ name: Diplomacy }, { name: Trade }] }\n  - { name: Cleo, strategy_cards: [{ name: Politics }, { name: Warfare }] }\nplays:\n  - { type: tactical_action, player: Ana, system: No }\n";
    for (game, text, path, hint) in [
        ("ashes", ashes, "players[0].units[0].name", "name: \"On\""),
        ("ti4", ti4, "plays[0].system", "system: \"No\""),
    ] {
        let e = board_error(game, text);
        assert_eq!(e.path.as_deref(), Some(path), "{game}: {e}");
        assert!(
            e.message.ends_with(&format!("write it in quotes: {hint}")),
            "{game}: {e}"
        );
    }
    // A number where text is taken, written as digits: quoted too.
    let e = board_error("ashes", &ashes.replace("name: On", "name: 12"));
    assert!(
        e.message.ends_with("write it in quotes: name: \"12\""),
        "{e}"
    );
    // A boolean field given a word is no case for quotes.
    let e = board_error(
        "ashes",
        &ashes.replace("life: 2 }", "life: 2, exhausted: \"yes\" }"),
    );
    assert!(!e.message.contains("quotes"), "{e}");
}

/// A decimal number or one past its type inside a tagged play is quoted as
/// the document writes it, at its own field and with that field's bounds,
/// as it is outside a play: once the wrong-kind search moved the path from
/// `play` to its field, `1e3` read "1000.0 is a decimal number".
#[test]
fn a_decimal_inside_a_play_is_quoted_as_written() {
    let doc = |n: &str| {
        format!(
            "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\n    units:\n      - {{ name: Iron Worker, attack: 2, life: 2 }}\n      - {{ name: Hammer Knight, attack: 3, life: 3 }}\n  - name: Maeoni\n    phoenixborn: {{ name: Maeoni Viper, life: 20 }}\n    units:\n      - {{ name: Mist Spirit, attack: 1, life: 1 }}\nplay:\n  action: attack-unit\n  attackers: [Iron Worker, Hammer Knight]\n  target: Mist Spirit\n  counter: true\n  split:\n    Iron Worker: {n}\n"
        )
    };
    for (written, starts) in [
        ("1e3", "`1e3` is not a whole number as written"),
        ("2.5", "`2.5` is a decimal number"),
        (
            "99999999999999999999",
            "`99999999999999999999` is out of range",
        ),
    ] {
        let e = board_error("ashes", &doc(written));
        assert_eq!(e.path.as_deref(), Some("play.split.Iron Worker"), "{e}");
        assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((19, 18)), "{e}");
        assert!(e.message.starts_with(starts), "{e}");
        assert!(
            e.message.contains("a whole number from 0 to 4294967295"),
            "{e}"
        );
        assert!(
            !e.message.contains("1000.0") && !e.message.contains("1e20"),
            "{e}"
        );
    }
}

/// A value of the wrong kind where a mapping or a name is taken says what
/// the field takes in the board's words, its fields, not a Rust type's
/// name (it read "expected Block", "expected Reaction").
#[test]
fn a_wrong_kind_names_what_the_field_takes_not_a_rust_type() {
    let ashes = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\nplay:\n  action: attack-phoenixborn\n  attackers: [Iron Worker]\n  blocks: [7]\n";
    let e = board_error("ashes", ashes);
    assert_eq!(e.path.as_deref(), Some("play.blocks[0]"), "{e}");
    assert!(
        e.message
            .ends_with("expected a mapping of fields (attacker, blocker, counter)"),
        "{e}"
    );
    let units = ashes.replace(
        "      - { name: Iron Worker, attack: 2, life: 2 }\n",
        "      - 7\n",
    );
    let e = board_error("ashes", &units);
    assert_eq!(e.path.as_deref(), Some("players[0].units[0]"), "{e}");
    assert!(e.message.contains("a mapping of fields (name, "), "{e}");
    for e in [board_error("ashes", ashes), board_error("ashes", &units)] {
        let rust = e.message.split("expected ").nth(1).unwrap_or("");
        assert!(!rust.starts_with(|c: char| c.is_ascii_uppercase()), "{e}");
    }
}

/// An Ashes board whose second Phoenixborn's life is written `LIFE`.
fn ashes_life(life: &str) -> String {
    format!(
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\n    units:\n      - {{ name: Hammer Knight, attack: 3, life: 3 }}\n  - name: Maeoni\n    phoenixborn: {{ name: Maeoni Viper, life: {life} }}\nplay:\n  action: attack-phoenixborn\n  attackers: [Hammer Knight]\n"
    )
}

/// A whole number with a leading zero, a 0o / 0x prefix or underscores is
/// refused, saying how to write it (`020` read "out of range", `0o20` was
/// taken as 16 and `1_0` as 10, silently; found by an outside judge); the
/// same words quoted, or in a name, are taken as text.
#[test]
fn a_number_written_in_a_spelling_yaml_reads_otherwise_is_refused_with_its_digits() {
    for (written, digits) in [("020", "20"), ("0o20", "16"), ("0x10", "16"), ("1_0", "10")] {
        let e = board_error("ashes", &ashes_life(written));
        assert_eq!(
            e.path.as_deref(),
            Some("players[1].phoenixborn.life"),
            "{e}"
        );
        assert_eq!(e.pos.map(|p| p.line), Some(9), "{e}");
        assert!(
            e.message.contains(&format!("`{written}`"))
                && e.message.contains(&format!("plain digits, {digits}")),
            "{e}"
        );
    }
    let engine = arbiter::engine::engine("ashes").unwrap();
    assert!(engine.judge_text(&ashes_life("20")).is_ok());
    let named = ashes_life("20").replace("Hammer Knight", "\"007\"");
    assert!(engine.judge_text(&named).is_ok(), "a quoted name is text");
}

/// `Game: ashes` is offered `game` (it read "needs a `game` field").
#[test]
fn a_missing_game_field_offers_a_key_that_is_game_but_for_its_case() {
    let text = ashes_life("20").replace("game: ashes", "Game: ashes");
    let e = arbiter::engine::document::parse_value(&text)
        .and_then(|v| arbiter::engine::document::game_of(&v).map(str::to_string))
        .unwrap_err();
    assert!(e.message.contains("did you mean `game` for `Game`"), "{e}");
}

/// What the YAML scanner knows is said, by its error's kind: an alias
/// with no anchor, an unclosed `[`, indentation, a missing comma in a
/// flow mapping, a second `: ` on one line (each read "this is not valid
/// YAML or JSON here").
#[test]
fn yaml_syntax_errors_say_what_the_scanner_found() {
    let head = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n";
    for (text, line, words) in [
        (
            "game: ashes\nturn: *nope\n".to_string(),
            2,
            "`*nope` refers to an anchor",
        ),
        (
            format!("{head}    phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\nextra: [1, 2\n"),
            6,
            "`[` opened earlier is not closed",
        ),
        (
            format!("{head}   phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\n"),
            5,
            "indentation",
        ),
        (
            format!("{head}    phoenixborn: {{ name: Coal Roarkwin life: 15 }}\n"),
            5,
            "a comma is missing",
        ),
        (
            format!("{head}    phoenixborn:\n      name: Coal: Roarkwin\n"),
            6,
            "in quotes",
        ),
    ] {
        let e = arbiter::engine::document::parse_value(&text).unwrap_err();
        assert_eq!(e.pos.map(|p| p.line), Some(line), "{e}\n{text}");
        assert!(e.message.contains(words), "{e}\n{text}");
        assert!(!e.message.contains("not valid YAML"), "{e}");
    }
}

/// A Legion `plays:` item written as one step says each item is one play,
/// a list of steps, and that `play:` takes one (it read "wrong kind of
/// value: map, expected a list").
#[test]
fn a_legion_plays_item_given_as_a_step_says_the_shape() {
    let text = "game: legion\nround: 2\nturn: Rebel player\nplayers:\n  - name: Rebel player\n    units:\n      - { name: Rebel Troopers }\n  - name: Imperial player\n    units:\n      - { name: Stormtroopers }\nplays:\n  - { activate: Rebel Troopers }\n  - { action: move }\n";
    let e = board_error("legion", text);
    assert_eq!(e.path.as_deref(), Some("plays[0]"), "{e}");
    assert!(
        e.message.contains("a list of steps") && e.message.contains("`play:`"),
        "{e}"
    );
}

/// A mapping of names to values given a number shows its shape (it read
/// "expected a mapping of fields").
#[test]
fn a_split_given_as_a_number_shows_the_mapping_it_takes() {
    let text = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Ice Golem, attack: 3, life: 6 }\nplay:\n  action: attack-unit\n  attackers: [Hammer Knight, Iron Worker]\n  target: Ice Golem\n  guard: none\n  counter: true\n  split: 1\n";
    let e = board_error("ashes", text);
    assert_eq!(e.path.as_deref(), Some("play.split"), "{e}");
    assert!(e.message.contains("split: { <name>: <number> }"), "{e}");
}

/// A misspelt keyword is offered in the spelling the field takes, not an
/// alias's (`attack-phoenixbon` was offered `attack phoenixborn`).
#[test]
fn a_misspelt_action_is_offered_as_the_field_spells_it() {
    let text = ashes_life("20").replace("action: attack-phoenixborn", "action: attack-phoenixbon");
    let e = board_error("ashes", &text);
    assert!(
        e.message.contains("did you mean `attack-phoenixborn`"),
        "{e}"
    );
}

/// Notation: a misspelt `phoenixborn` suggests the action, and an
/// unclosed quote is said (it read "name the attackers after `with`").
#[test]
fn notation_names_a_misspelt_action_and_an_unclosed_quote() {
    let engine = arbiter::engine::engine("ashes").unwrap();
    let board = arbiter::engine::document::parse_value(&ashes_life("20")).unwrap();
    let mut board = board;
    board.as_object_mut().unwrap().remove("play");
    let e = engine
        .parse_notation("attack pheonixborn with Hammer Knight", &board)
        .unwrap_err();
    assert!(e.message.contains("`attack phoenixborn`"), "{e}");
    let e = engine
        .parse_notation("attack unit \"Maeoni Viper with Hammer Knight", &board)
        .unwrap_err();
    assert!(e.message.contains("not closed"), "{e}");
}

/// The schema says what `judge` accepts: a Phoenixborn's `life` and a
/// unit's `attack` and `life` may be left out for the card list to fill
/// (it listed them as required).
#[test]
fn the_ashes_schema_leaves_card_stats_optional() {
    let schema = arbiter::engine::engine("ashes").unwrap().schema();
    for (def, field) in [
        ("Phoenixborn", "life"),
        ("Unit", "attack"),
        ("Unit", "life"),
    ] {
        let required = &schema["$defs"][def]["required"];
        assert!(
            !required.as_array().unwrap().iter().any(|f| f == field),
            "{def}.{field}: {required}"
        );
        let about = schema["$defs"][def]["properties"][field]["description"].as_str();
        assert!(
            about.is_some_and(|a| a.contains("card list")),
            "{def}.{field}"
        );
    }
}
