//! Pictures of boards: golden images for every example board of every
//! game (compared with a pixel tolerance), determinism, and the bounds on
//! hostile boards (the largest each game's types read: every list and
//! name at its limit, coordinates of 10⁹ where a game has them): drawn
//! within fixed dimensions, quickly.
//!
//! When a drawing changes on purpose, regenerate the goldens with
//! `ARBITER_BLESS_PICTURES=1 cargo test --test it pictures::`, look at them, and
//! commit them.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arbiter::render::pictures::{self, Picture, PictureError, kit};
use serde_json::{Value, json};

const GAMES: [&str; 5] = ["ashes", "ti4", "magewinds", "legion", "grand-archive"];
/// A channel differing by more than this counts a pixel as different.
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this share of a picture's pixels may differ from its golden.
const PIXEL_TOLERANCE: f64 = 0.002;
/// The bound on a picture's size.
const MAX_PNG_BYTES: usize = 300 * 1024;

fn golden_dir() -> PathBuf {
    common::repo().join("tests/golden/pictures")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

/// The picture of an example: a ruling's (board after it, changes marked)
/// or, for a starting board, the board's.
fn example_picture(path: &Path) -> Picture {
    let text = std::fs::read_to_string(path).unwrap();
    let app = common::app();
    let doc = app.judged_document(&text, None, None).unwrap();
    if doc.get("play").is_none() && doc.get("plays").is_none() {
        let game = doc["game"].as_str().unwrap();
        return pictures::board(game, &doc).unwrap();
    }
    let ruling = app.judge(&text, None).unwrap();
    pictures::ruling(&ruling, &doc).unwrap()
}

/// How many pixels differ beyond the channel tolerance; `None` when the
/// sizes differ.
fn differing(a: &[u8], b: &[u8]) -> Option<(usize, usize)> {
    let a = tiny_skia::Pixmap::decode_png(a).ok()?;
    let b = tiny_skia::Pixmap::decode_png(b).ok()?;
    if (a.width(), a.height()) != (b.width(), b.height()) {
        return None;
    }
    let pixels = (a.width() * a.height()) as usize;
    // Most pictures are identical: one comparison of the bytes, not one
    // tolerance test per channel (this crate is built unoptimised).
    if a.data() == b.data() {
        return Some((0, pixels));
    }
    let n = a
        .data()
        .chunks(4)
        .zip(b.data().chunks(4))
        .filter(|(x, y)| {
            x.iter()
                .zip(*y)
                .any(|(p, q)| p.abs_diff(*q) > CHANNEL_TOLERANCE)
        })
        .count();
    Some((n, pixels))
}

#[test]
fn every_example_board_matches_its_golden_picture() {
    let bless = std::env::var_os("ARBITER_BLESS_PICTURES").is_some();
    let mut failures = Vec::new();
    let mut dirs: Vec<String> = GAMES.iter().map(|g| g.to_string()).collect();
    dirs.push("matches".into());
    let mut count = 0;
    for dir in &dirs {
        for path in yaml_files(&common::repo().join("examples").join(dir)) {
            count += 1;
            let pic = example_picture(&path);
            assert!(
                pic.png.len() <= MAX_PNG_BYTES,
                "{}: {} bytes",
                path.display(),
                pic.png.len()
            );
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let golden = golden_dir().join(dir).join(format!("{stem}.png"));
            if bless {
                std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
                std::fs::write(&golden, &pic.png).unwrap();
                continue;
            }
            let Ok(want) = std::fs::read(&golden) else {
                failures.push(format!("{}: no golden (bless them)", golden.display()));
                continue;
            };
            match differing(&pic.png, &want) {
                Some((n, total)) if (n as f64) <= PIXEL_TOLERANCE * total as f64 => {}
                other => {
                    let out =
                        std::env::temp_dir().join(format!("arbiter-picture-{dir}-{stem}.png"));
                    let _ = std::fs::write(&out, &pic.png);
                    failures.push(format!(
                        "{}: {} (drawn now: {})",
                        golden.display(),
                        match other {
                            Some((n, total)) => format!("{n} of {total} pixels differ"),
                            None => "another size".into(),
                        },
                        out.display()
                    ));
                }
            }
        }
    }
    assert!(count >= 60, "only {count} example boards");
    assert!(
        failures.is_empty(),
        "pictures differ from their goldens (if on purpose: ARBITER_BLESS_PICTURES=1 cargo test --test it pictures::):\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_tolerance_catches_a_changed_picture() {
    let path = common::repo().join("examples/ashes/attack-phoenixborn.yaml");
    let pic = example_picture(&path);
    let other = example_picture(&common::repo().join("examples/ashes/pass.yaml"));
    assert_eq!(
        differing(&pic.png, &pic.png),
        Some((0, (pic.width * pic.height) as usize))
    );
    let changed = differing(&pic.png, &other.png);
    assert!(
        changed.is_none_or(|(n, total)| n as f64 > PIXEL_TOLERANCE * total as f64),
        "{changed:?}"
    );
}

#[test]
fn the_same_board_gives_the_same_bytes() {
    for g in GAMES {
        let path = common::repo().join(format!("examples/matches/{g}-start.yaml"));
        let a = example_picture(&path);
        let b = example_picture(&path);
        assert_eq!(a, b, "{g}");
        assert!(a.alt.len() > 40, "{g}: {}", a.alt);
    }
}

fn long_name(i: usize) -> String {
    format!("{i} {}", "Wandering Knight of the Long Name ".repeat(6))
        .chars()
        .take(200)
        .collect()
}

/// A hostile board of each game: 10⁴ units, fighters, cards or players,
/// names of 200 characters, coordinates of 10⁹ (or the most its types read).
fn hostile(game: &str) -> Value {
    let n = 10_000;
    let names = |f: &dyn Fn(usize, String) -> Value| -> Vec<Value> {
        (0..n).map(|i| f(i, long_name(i))).collect()
    };
    match game {
        // As many units and as long names as the Ashes types read (64
        // units on a battlefield, names of 100 characters).
        "ashes" => {
            let name = |i: usize| long_name(i).chars().take(100).collect::<String>();
            let units = |f: &dyn Fn(String) -> Value| -> Vec<Value> {
                (0..64).map(|i| f(name(i))).collect()
            };
            json!({
                "game": "ashes",
                "players": [
                    { "name": name(0), "phoenixborn": { "name": name(1), "life": 999, "damage": 999 },
                      "units": units(&|name| json!({ "name": name, "attack": 999, "life": 999, "damage": 500, "exhausted": true })) },
                    { "name": name(2), "phoenixborn": { "name": name(3), "life": 1 },
                      "units": units(&|name| json!({ "name": name, "attack": 1, "life": 1 })) },
                ]
            })
        }
        // Its limits are on its board types: 8 players, initiative 99, the
        // most that read.
        "ti4" => json!({
            "game": "ti4",
            "players": names(&|_, name| json!({ "name": name, "faction": long_name(7),
                "strategy_cards": [{ "name": long_name(9), "initiative": 99 }] }))[..8],
            "turn": long_name(0),
        }),
        // The most the Magewinds types read (8 players of 40 fighters,
        // names of 80 characters); Movement and positions are plain numbers.
        "magewinds" => {
            let name = |i: usize| long_name(i).chars().take(80).collect::<String>();
            let fighters = |p: usize| -> Vec<Value> {
                (0..40).map(|i| {
                    let x = if i % 2 == 0 { 1e9 } else { -1e9 };
                    json!({ "name": name(p * 40 + i), "movement": 1e9, "position": [x, -x * 0.5], "counter": "double" })
                }).collect()
            };
            json!({
                "game": "magewinds", "round": 1, "phase": "action", "first_turn": true,
                "players": (0..8).map(|p| json!({ "name": name(1000 + p), "fighters": fighters(p) })).collect::<Vec<_>>(),
            })
        }
        // Legion's limits are on its board types: 64 units, the most that read.
        "legion" => json!({
            "game": "legion", "phase": "activation",
            "players": [{ "name": long_name(0), "units": names(&|_, name| json!({ "name": name,
                "reduced_by": [{ "amount": 1, "source": long_name(3) }],
                "tokens": [{ "kind": "aim", "source": "effect", "name": long_name(4) }] }))[..64] }],
            "active": long_name(0),
        }),
        // Its limits are on its types, read with the board: the largest board
        // it reads (200 allies and objects, names of 100 characters).
        "grand-archive" => {
            let name = |i| long_name(i).chars().take(100).collect::<String>();
            let most =
                |f: &dyn Fn(String) -> Value| (0..200).map(|i| f(name(i))).collect::<Vec<_>>();
            json!({
                "game": "grand-archive", "phase": "main",
                "players": [{ "name": name(0), "reserve": 10_000,
                    "champion": { "name": name(1) },
                    "allies": most(&|name| json!({ "name": name, "rested": true, "keywords": [long_name(2)] })),
                    "objects": most(&|name| json!({ "name": name })) }],
            })
        }
        other => panic!("no hostile board for {other}"),
    }
}

#[test]
fn hostile_boards_are_drawn_within_fixed_dimensions_quickly() {
    for g in GAMES {
        let board = hostile(g);
        let started = Instant::now();
        let pic = pictures::board(g, &board).unwrap_or_else(|e| panic!("{g}: {e}"));
        let took = started.elapsed();
        assert!(
            pic.width <= kit::MAX_WIDTH && pic.height <= kit::MAX_HEIGHT,
            "{g}: {}×{}",
            pic.width,
            pic.height
        );
        assert!(
            pic.png.len() <= MAX_PNG_BYTES,
            "{g}: {} bytes",
            pic.png.len()
        );
        assert!(pic.alt.chars().count() <= pictures::MAX_ALT, "{g}");
        // Unoptimized test builds: far above the release figure (benches/), far below a hang.
        assert!(took < Duration::from_secs(3), "{g}: {took:?}");
        // To look at them: ARBITER_PICTURES=DIR cargo test --test it pictures::hostile
        if let Some(dir) = std::env::var_os("ARBITER_PICTURES") {
            std::fs::write(Path::new(&dir).join(format!("hostile-{g}.png")), &pic.png).unwrap();
        }
        let decoded = tiny_skia::Pixmap::decode_png(&pic.png).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (pic.width, pic.height));
    }
}

#[test]
fn a_board_that_does_not_read_is_refused_with_where_and_why() {
    let board = json!({ "game": "ashes", "players": [{ "name": "Coal", "phoenixborn": { "name": "X", "life": "many" } }] });
    let e = pictures::board("ashes", &board).unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, PictureError::Board { .. }), "{e:?}");
    assert!(text.contains("players[0].phoenixborn.life"), "{text}");
    let e = pictures::board("chess", &json!({})).unwrap_err();
    assert!(e.to_string().contains("pictures exist for ashes"), "{e}");
}

#[test]
fn a_ruling_marks_what_changed_against_the_board_before() {
    // The same board drawn as a ruling's result with and without the board
    // before: the marks (gold outlines) make the pictures differ.
    let path = common::repo().join("examples/ashes/attack-phoenixborn.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let app = common::app();
    let ruling = app.judge(&text, None).unwrap();
    let doc = app.judged_document(&text, None, None).unwrap();
    let marked = pictures::ruling(&ruling, &doc).unwrap();
    let plain = pictures::board("ashes", &ruling.state).unwrap();
    assert_ne!(marked.png, plain.png);
    assert!(marked.alt.contains("Legal."), "{}", marked.alt);
}

#[test]
fn the_board_before_a_match_event_is_rebuilt_from_its_changes() {
    let before = json!({ "game": "ashes", "players": [
        { "name": "Coal", "units": [{ "name": "Iron Worker", "damage": 0 }, { "name": "Anchornaut" }] },
        { "name": "Maeoni \"M\"", "units": [] } ] });
    let after = json!({ "game": "ashes", "turn": "Maeoni", "players": [
        { "name": "Coal", "units": [{ "name": "Iron Worker", "damage": 2, "exhausted": true }] },
        { "name": "Maeoni \"M\"", "units": [{ "name": "Ghost" }] } ] });
    let changes = arbiter::engine::diff(&before, &after);
    assert!(!changes.is_empty());
    assert_eq!(pictures::before_changes(&after, &changes), before);
}

/// A Legion board with no unit activating (the Command Phase) says so in
/// its alt text by saying nothing of one: it named the first unit as
/// activating (found by an outside tester).
#[test]
fn a_legion_board_without_an_activating_unit_names_none() {
    let board = json!({
        "game": "legion", "phase": "command", "round": 2,
        "players": [
            { "name": "Ana", "units": [{ "name": "Darth Vader" }] },
            { "name": "Ben", "units": [{ "name": "Luke Skywalker" }] }
        ]
    });
    let pic = pictures::board("legion", &board).unwrap();
    assert!(!pic.alt.contains("Activating"), "{}", pic.alt);
    let mut active = board.clone();
    active["phase"] = json!("activation");
    active["active"] = json!("Darth Vader");
    let pic = pictures::board("legion", &active).unwrap();
    assert!(pic.alt.contains("Activating: Darth Vader"), "{}", pic.alt);
}

/// Every example starting board, by game.
fn start(game: &str) -> Value {
    let path = common::repo().join(format!("examples/matches/{game}-start.yaml"));
    let text = std::fs::read_to_string(path).unwrap();
    common::app().judged_document(&text, None, None).unwrap()
}

/// A match that ended (a moderator's end, a concession) is drawn with its
/// result and no player's turn: its picture was the board's last turn,
/// byte for byte the picture from before the end (found by an outside
/// tester).
#[test]
fn an_ended_match_is_drawn_with_its_result_and_no_turn() {
    for g in GAMES {
        let board = start(g);
        let going = pictures::of_match(g, &board, None).unwrap();
        assert_eq!(going, pictures::board(g, &board).unwrap(), "{g}");
        let won = arbiter::engine::GameResult {
            winner: Some("Ana".into()),
            reason: "by agreement".into(),
            rule: None,
        };
        let ended = pictures::of_match(g, &board, Some(&won)).unwrap();
        assert_ne!(ended.png, going.png, "{g}");
        assert!(
            ended.alt.contains("Game over: Ana wins — by agreement"),
            "{g}: {}",
            ended.alt
        );
        assert!(!ended.alt.contains("'s turn"), "{g}: {}", ended.alt);
        let none = arbiter::engine::GameResult {
            winner: None,
            ..won.clone()
        };
        let tie = pictures::of_match(g, &board, Some(&none)).unwrap();
        assert!(tie.alt.contains("Game over: no winner"), "{g}: {}", tie.alt);
        assert_ne!(tie.png, ended.png, "{g}");
    }
}

/// A board that decides the game itself (10 victory points) is drawn with
/// the engine's result, not the turn it stopped on.
#[test]
fn a_board_that_decides_the_game_is_drawn_with_the_result() {
    let board = json!({ "game": "ti4", "phase": "action", "turn": "Ben", "players": [
        { "name": "Ana", "victory_points": 10, "strategy_cards": [{ "name": "Leadership" }, { "name": "Trade" }] },
        { "name": "Ben", "strategy_cards": [{ "name": "Diplomacy" }, { "name": "Warfare" }] },
        { "name": "Cleo", "strategy_cards": [{ "name": "Politics" }, { "name": "Imperial" }] } ] });
    let pic = pictures::board("ti4", &board).unwrap();
    assert!(pic.alt.contains("Game over: Ana wins"), "{}", pic.alt);
    assert!(!pic.alt.contains("Ben's turn"), "{}", pic.alt);
    let mut going = board.clone();
    going["players"][0]["victory_points"] = json!(3);
    let going = pictures::board("ti4", &going).unwrap();
    assert!(going.alt.contains("Ben's turn"), "{}", going.alt);
}

/// An Ashes player whose Phoenixborn is destroyed while others play on is
/// marked out of the game, in the picture and its alt text.
#[test]
fn an_ashes_player_out_of_the_game_is_marked() {
    let board = json!({ "game": "ashes", "turn": "Coal", "players": [
        { "name": "Coal", "phoenixborn": { "name": "Coal Roarkwin", "life": 15, "damage": 3 } },
        { "name": "Maeoni", "phoenixborn": { "name": "Maeoni Viper", "life": 20, "damage": 20 } },
        { "name": "Fox", "phoenixborn": { "name": "Aradel", "life": 16 } } ] });
    let out = pictures::board("ashes", &board).unwrap();
    assert!(out.alt.contains("Maeoni (out of the game)"), "{}", out.alt);
    assert!(!out.alt.contains("Coal (out"), "{}", out.alt);
    assert!(!out.alt.contains("Game over"), "{}", out.alt);
    let mut standing = board.clone();
    standing["players"][1]["phoenixborn"]["damage"] = json!(19);
    let standing = pictures::board("ashes", &standing).unwrap();
    assert!(
        !standing.alt.contains("out of the game"),
        "{}",
        standing.alt
    );
    assert_ne!(out.png, standing.png);
}

/// A Legion board on which no unit activates (the End Phase, the Command
/// Phase) draws no unit's card: it drew the first unit's as "ACTIVATING
/// UNIT … 0 used of 2" while the alt text named none. The first unit's
/// card-only facts (its abilities and card actions) then change nothing.
#[test]
fn a_legion_board_without_an_activating_unit_draws_no_card() {
    for phase in ["end", "command", "activation"] {
        let board = json!({
            "game": "legion", "phase": phase, "round": 2,
            "players": [
                { "name": "Ana", "units": [{ "name": "Darth Vader" }] },
                { "name": "Ben", "units": [{ "name": "Luke Skywalker" }] }
            ]
        });
        let mut carded = board.clone();
        carded["players"][0]["units"][0]["card_actions"] = json!(["Force Choke"]);
        let a = pictures::board("legion", &board).unwrap();
        let b = pictures::board("legion", &carded).unwrap();
        assert_eq!(a.png, b.png, "{phase}: the first unit's card was drawn");
        assert!(!a.alt.contains("Activating"), "{phase}: {}", a.alt);
    }
    // With a unit activating, its card is drawn.
    let active = json!({
        "game": "legion", "phase": "activation", "active": "Darth Vader",
        "players": [{ "name": "Ana", "units": [{ "name": "Darth Vader" }] }]
    });
    let mut carded = active.clone();
    carded["players"][0]["units"][0]["card_actions"] = json!(["Force Choke"]);
    assert_ne!(
        pictures::board("legion", &active).unwrap().png,
        pictures::board("legion", &carded).unwrap().png
    );
}

/// A refused play leaves the board as it stands, and so does its picture:
/// Cleo's out-of-turn activation was drawn as her unit activating with a
/// move used, the alt text saying it had actions available.
#[test]
fn a_refused_legion_play_is_drawn_as_the_board_stands() {
    let text = "game: legion\nphase: activation\nturn: Ana\nplayers:\n  - name: Ana\n    units: [{ name: Darth Vader }]\n  - name: Cleo\n    units: [{ name: Boba Fett }]\n";
    let line = "activate Boba Fett; move; end";
    let app = common::app();
    let ruling = app.judge_notation(text, None, line).unwrap();
    assert!(!ruling.legal, "{ruling:?}");
    let doc = app.judged_document(text, None, Some(line)).unwrap();
    let pic = pictures::ruling(&ruling, &doc).unwrap();
    assert!(!pic.alt.contains("Activating"), "{}", pic.alt);
    assert!(pic.alt.contains("Not legal."), "{}", pic.alt);
    assert!(
        pic.alt
            .contains("Play refused, not on the board: activate Boba Fett: move."),
        "{}",
        pic.alt
    );
    // The card is the board's as it stands: the refused steps are not
    // counted on it (the play changes only the line that says it).
    let mut other = doc.clone();
    other["play"] = json!([{ "activate": "Boba Fett", "action": "move" }, { "action": "attack" }]);
    let attempt = pictures::ruling(&ruling, &other).unwrap();
    let verdict = pictures::verdict(&ruling);
    let unplayed = pictures::draw(
        "legion",
        &ruling.state,
        Some(&doc),
        None,
        Some(&verdict),
        None,
    )
    .unwrap();
    assert_ne!(unplayed.png, pic.png);
    assert!(!unplayed.alt.contains("Boba Fett:"), "{}", unplayed.alt);
    assert!(
        attempt.alt.contains("activate Boba Fett: move; attack"),
        "{}",
        attempt.alt
    );
    // A legal activation is still drawn with its steps.
    let mine = "activate Darth Vader; move; end";
    let ruling = app.judge_notation(text, None, mine).unwrap();
    assert!(ruling.legal, "{ruling:?}");
    let doc = app.judged_document(text, None, Some(mine)).unwrap();
    let pic = pictures::ruling(&ruling, &doc).unwrap();
    assert!(pic.alt.contains("Activating: Darth Vader"), "{}", pic.alt);
    assert!(pic.alt.contains("steps: move"), "{}", pic.alt);
}

/// A board of three seats of 40 fighters (or 30 units): every seat is
/// drawn and named in the alt text, each counting what it leaves out; the
/// first seat's list took the whole cap and the others were not named.
#[test]
fn every_seat_of_a_large_board_is_drawn_and_named() {
    let seats = ["Ana", "Ben", "Cleo"];
    let mw = json!({ "game": "magewinds", "round": 1, "phase": "action", "turn": "Ana",
        "players": seats.iter().enumerate().map(|(p, name)| json!({ "name": name,
            "fighters": (0..40).map(|i| json!({ "name": format!("{name} fighter number {i}"),
                "movement": 3, "position": [i as f64, p as f64 * 10.0] })).collect::<Vec<_>>() })).collect::<Vec<_>>() });
    let legion = json!({ "game": "legion", "phase": "activation", "turn": "Ana",
        "players": seats.iter().map(|name| json!({ "name": name, "points": 99,
            "units": (0..30).map(|i| json!({ "name": format!("{name} unit number {i}") })).collect::<Vec<_>>() })).collect::<Vec<_>>() });
    for (game, board, each) in [("magewinds", mw, "fighter"), ("legion", legion, "unit")] {
        let pic = pictures::board(game, &board).unwrap();
        assert!(pic.alt.chars().count() <= pictures::MAX_ALT, "{game}");
        for name in seats {
            assert!(
                pic.alt.contains(&format!(" {name}"))
                    && pic.alt.contains(&format!("{name} {each} number 0")),
                "{game}: {name} is not named: {}",
                pic.alt
            );
        }
        assert_eq!(pic.alt.matches(" more.").count(), 3, "{game}: {}", pic.alt);
        if game == "legion" {
            assert!(pic.alt.contains("Cleo (99 points)"), "{}", pic.alt);
        }
        // The last seat is drawn: its name changes the picture.
        let mut renamed = board.clone();
        renamed["players"][2]["name"] = json!("Dora");
        if game == "legion" {
            renamed["turn"] = json!("Ana");
        }
        let other = pictures::board(game, &renamed).unwrap();
        assert_ne!(pic.png, other.png, "{game}: the third seat is not drawn");
    }
}

/// TI4's eight players of 200-character names: each is in the alt text
/// (its name cut to its share), in initiative order, the play after them.
#[test]
fn every_ti4_player_of_long_names_is_in_the_alt_text() {
    let board = hostile("ti4");
    let pic = pictures::board("ti4", &board).unwrap();
    assert!(pic.alt.chars().count() <= pictures::MAX_ALT);
    for k in 1..=8 {
        assert!(pic.alt.contains(&format!(" {k}. ")), "{k}: {}", pic.alt);
    }
}

/// An eight-seat board's picture draws every seat (Ashes and Grand
/// Archive drew four, "… and 4 more players (not drawn)", the attacked
/// seat among those left out): renaming the last seat, or its card
/// under attack, changes the picture, which stays within the bounds.
#[test]
fn every_seat_of_an_eight_seat_board_is_drawn() {
    let ashes = json!({ "game": "ashes", "turn": "P0",
        "players": (0..8).map(|p| json!({ "name": format!("P{p}"),
            "phoenixborn": { "name": format!("Phoenix {p}"), "life": 20 },
            "units": (0..7).map(|i| json!({ "name": format!("U{p}-{i}"), "attack": 1, "life": 2 })).collect::<Vec<_>>() })).collect::<Vec<_>>() });
    let ashes_play =
        json!({ "action": "attack-phoenixborn", "attackers": ["U0-0"], "target": "Phoenix 7" });
    let ga = json!({ "game": "grand-archive", "phase": "main", "turn_player": "P0",
        "players": (0..8).map(|p| json!({ "name": format!("P{p}"), "champion": { "name": format!("C{p}") },
            "allies": (0..30).map(|i| json!({ "name": format!("A{p}-{i}") })).collect::<Vec<_>>() })).collect::<Vec<_>>() });
    let ga_play = json!({ "action": "declare-attack", "attacker": "A0-0", "target": "C7" });
    for (game, board, play, target) in [
        ("ashes", ashes, ashes_play, ("phoenixborn", "Phoenix 7")),
        ("grand-archive", ga, ga_play, ("champion", "C7")),
    ] {
        let pic = pictures::draw(game, &board, None, Some(&play), None, None).unwrap();
        assert!(
            pic.width <= kit::MAX_WIDTH && pic.height <= kit::MAX_HEIGHT,
            "{game}"
        );
        assert!(!pic.alt.contains("not drawn"), "{game}: {}", pic.alt);
        let mut renamed = board.clone();
        renamed["players"][7]["name"] = json!("Zed");
        let other = pictures::draw(game, &renamed, None, Some(&play), None, None).unwrap();
        assert_ne!(pic.png, other.png, "{game}: the eighth seat is not drawn");
        // The target's card is drawn (and the attack's panel naming it).
        let mut moved = board.clone();
        moved["players"][7][target.0]["name"] = json!(format!("{} bis", target.1));
        let mut play2 = play.clone();
        play2["target"] = json!(format!("{} bis", target.1));
        let other = pictures::draw(game, &moved, None, Some(&play2), None, None).unwrap();
        assert_ne!(pic.png, other.png, "{game}: the target is not drawn");
    }
}

/// The play's arrows are the ruling's: a block by an exhausted unit, a
/// guard by a unit without Unit Guard and a counter by an exhausted
/// target are refused, and drawn as if never stated (the block, guard
/// and counter arrows were drawn as made).
#[test]
fn refused_defender_choices_are_not_drawn() {
    let app = common::app();
    let board = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\n      - { name: Tired Golem, attack: 2, life: 4, abilities: [Unit Guard], exhausted: true }\n      - { name: Frost Bear, attack: 3, life: 4, exhausted: true }\n";
    let cases = [
        (
            "play: { action: attack-phoenixborn, attackers: [Iron Worker], blocks: [ {attacker: Iron Worker, blocker: Tired Golem, counter: true} ] }",
            "play: { action: attack-phoenixborn, attackers: [Iron Worker], blocks: [ {attacker: Iron Worker} ] }",
        ),
        (
            "play: { action: attack-unit, attackers: [Iron Worker], target: Mist Spirit, guard: Tired Golem, counter: false }",
            "play: { action: attack-unit, attackers: [Iron Worker], target: Mist Spirit, guard: none, counter: false }",
        ),
        (
            "play: { action: attack-unit, attackers: [Iron Worker], target: Frost Bear, guard: none, counter: true }",
            "play: { action: attack-unit, attackers: [Iron Worker], target: Frost Bear, guard: none }",
        ),
    ];
    for (stated, ruled) in cases {
        let text = format!("{board}{stated}\n");
        let ruling = app.judge(&text, None).unwrap();
        assert!(ruling.legal, "{stated}: {ruling:?}");
        let verdict = pictures::verdict(&ruling);
        assert!(!verdict.refused.is_empty(), "{stated}: {ruling:?}");
        let doc = app.judged_document(&text, None, None).unwrap();
        let as_ruled = app
            .judged_document(&format!("{board}{ruled}\n"), None, None)
            .unwrap();
        let drawn = |play: &Value| {
            pictures::draw(
                "ashes",
                &ruling.state,
                Some(&doc),
                Some(play),
                Some(&verdict),
                None,
            )
            .unwrap()
            .png
        };
        assert_eq!(
            drawn(&doc["play"]),
            drawn(&as_ruled["play"]),
            "{stated}: a refused choice is drawn"
        );
    }
}

/// An attack on a Phoenixborn that leaves `target` out (optional with one
/// opponent) is drawn with its arrow to the Phoenixborn the engine
/// resolved, as if named (an outside tester's had no arrow though its
/// damage was ruled); with no attack drawn the picture differs.
#[test]
fn an_attack_without_a_target_is_drawn_to_the_one_opponent() {
    let app = common::app();
    let board = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20, exhausted: true }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\n";
    let drawn = |play: &str| {
        let text = format!("{board}play: {play}\n");
        let ruling = app.judge(&text, None).unwrap();
        assert!(ruling.legal, "{play}: {ruling:?}");
        let doc = app.judged_document(&text, None, None).unwrap();
        let verdict = pictures::verdict(&ruling);
        let png = |play: &Value| {
            pictures::draw(
                "ashes",
                &ruling.state,
                Some(&doc),
                Some(play),
                Some(&verdict),
                None,
            )
            .unwrap()
            .png
        };
        (png(&doc["play"]), png(&json!({ "action": "pass" })))
    };
    let (unnamed, _) = drawn("{ action: attack-phoenixborn, attackers: [Iron Worker] }");
    let (named, no_arrow) =
        drawn("{ action: attack-phoenixborn, attackers: [Iron Worker], target: Maeoni Viper }");
    assert_ne!(named, no_arrow, "the named attack draws something");
    assert_eq!(
        unnamed, named,
        "the unnamed target is not drawn as resolved"
    );
}

/// A unit past a seat's cap that the ruling names or changes is drawn
/// first (an attacker that was the 64th unit went undrawn, its arrows
/// with it): renaming it changes the picture.
#[test]
fn the_rulings_units_are_drawn_first_when_a_seat_is_capped() {
    let ashes = |attacker: &str| {
        let mut units: Vec<Value> = (0..63)
            .map(|i| json!({ "name": format!("U{i}"), "attack": 1, "life": 2 }))
            .collect();
        units.push(json!({ "name": attacker, "attack": 1, "life": 2 }));
        let board = json!({ "game": "ashes", "turn": "Coal", "players": [
            { "name": "Coal", "phoenixborn": { "name": "Coal Roarkwin", "life": 15 }, "units": units },
            { "name": "Jessa", "phoenixborn": { "name": "Jessa Na Ni", "life": 18 }, "units": [] } ] });
        let play = json!({ "action": "attack-phoenixborn", "attackers": [attacker], "target": "Jessa Na Ni" });
        pictures::draw("ashes", &board, None, Some(&play), None, None).unwrap()
    };
    assert_ne!(ashes("Last One").png, ashes("Final One").png, "ashes");
    let ga = |attacker: &str| {
        let mut allies: Vec<Value> = (0..199)
            .map(|i| json!({ "name": format!("A{i}") }))
            .collect();
        allies.push(json!({ "name": attacker }));
        let board = json!({ "game": "grand-archive", "phase": "main", "turn_player": "Ana", "players": [
            { "name": "Ana", "champion": { "name": "Lorraine" }, "allies": allies },
            { "name": "Ben", "champion": { "name": "Rai" } } ] });
        let play = json!({ "action": "declare-attack", "attacker": attacker, "target": "Rai" });
        pictures::draw("grand-archive", &board, None, Some(&play), None, None).unwrap()
    };
    let (a, b) = (ga("Last One"), ga("Final One"));
    assert_ne!(a.png, b.png, "grand-archive");
}

/// A refused play is said in the picture of every game (Ashes,
/// Magewinds and TI4 said nothing of it), and a TI4 board's `plays` is
/// read as its play.
#[test]
fn a_refused_play_is_said_in_every_game() {
    let app = common::app();
    let boards = [
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\nplay: { action: attack-unit, attackers: [Hammer Knight, Hammer Knight], target: Mist Spirit }\n",
        "game: magewinds\nturn: Bram\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]}\n  - name: Bram\n    fighters:\n      - {name: Windrunner, movement: 7, position: [20, 13], attacks: [Gale Cut], visible: [Pyromancer]}\nplay: { activate: Windrunner, action: attack, target: Windrunner }\n",
        "game: ti4\nplayers:\n  - { name: Ana, strategy_cards: [{ name: Leadership }, { name: Construction, exhausted: true }] }\n  - { name: Ben, strategy_cards: [{ name: Diplomacy }, { name: Trade }] }\n  - { name: Cleo, strategy_cards: [{ name: Politics, exhausted: true }, { name: Warfare, exhausted: true }] }\nplays: [ { type: pass, player: Ana } ]\n",
    ];
    for text in boards {
        let ruling = app.judge(text, None).unwrap();
        assert!(!ruling.legal, "{text}: {ruling:?}");
        let doc = app.judged_document(text, None, None).unwrap();
        let pic = pictures::ruling(&ruling, &doc).unwrap();
        assert!(
            pic.alt.contains("Play refused"),
            "{}: {}",
            ruling.game,
            pic.alt
        );
        // The picture says it too: it is not the board's own picture.
        let verdict = pictures::verdict(&ruling);
        let unplayed = pictures::draw(
            &ruling.game,
            &ruling.state,
            Some(&doc),
            None,
            Some(&verdict),
            None,
        )
        .unwrap();
        assert_ne!(pic.png, unplayed.png, "{}", ruling.game);
    }
}

/// The picture of a board judged as in the CLI's `judge --picture`.
fn judged_picture(text: &str) -> (arbiter::engine::Ruling, Picture) {
    let app = common::app();
    let ruling = app.judge(text, None).unwrap();
    let doc = app.judged_document(text, None, None).unwrap();
    let pic = pictures::ruling(&ruling, &doc).unwrap();
    (ruling, pic)
}

/// A Magewinds attack is drawn as the ruling read its visibility: with no
/// `visible` list the ruling takes the target to be visible (a labelled
/// assumption), and the picture says "assumed visible" (it said "not
/// visible" of an attack ruled legal); a list that names the target
/// reads "visible".
#[test]
fn a_magewinds_attack_is_drawn_as_the_ruling_read_its_visibility() {
    let board = |visible: &str| {
        format!(
            "game: magewinds\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {{name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]{visible}}}\n  - name: Bram\n    fighters:\n      - {{name: Stonewarden, movement: 4, position: [12, 8], attacks: [Maul]}}\nplay: {{activate: Pyromancer, action: attack, attack: Fire Bolt, target: Stonewarden, reactions: []}}\n"
        )
    };
    let (ruling, assumed) = judged_picture(&board(""));
    assert!(ruling.legal, "{ruling:?}");
    assert!(
        ruling.steps.iter().any(|s| s
            .assumption
            .as_deref()
            .is_some_and(|a| a.contains("taken to be visible"))),
        "{ruling:?}"
    );
    assert!(
        assumed
            .alt
            .contains("Pyromancer attacks Stonewarden, assumed visible."),
        "{}",
        assumed.alt
    );
    let (ruling, seen) = judged_picture(&board(", visible: [Stonewarden]"));
    assert!(ruling.legal, "{ruling:?}");
    assert!(
        seen.alt
            .contains("Pyromancer attacks Stonewarden, visible."),
        "{}",
        seen.alt
    );
    assert_ne!(assumed.png, seen.png, "the label differs");
}

/// A legal play's refused choices are said in its picture and alt text
/// (the banner read "Legal. …", its steps cut before the refusal): a
/// second block by one unit and a Phoenixborn's counter in Ashes, a
/// Dodge in Magewinds.
#[test]
fn a_legal_plays_refused_choices_are_said() {
    let boards = [
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n      - { name: Iron Worker, attack: 2, life: 2 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Ice Golem, attack: 2, life: 4 }\nplay:\n  action: attack-phoenixborn\n  attackers: [Hammer Knight, Iron Worker]\n  blocks:\n    - { attacker: Hammer Knight, blocker: Ice Golem, counter: false }\n    - { attacker: Iron Worker, blocker: Ice Golem, counter: true }\n",
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20, exhausted: true }\n    units:\n      - { name: Mist Spirit, attack: 1, life: 1 }\nplay:\n  action: attack-unit\n  attackers: [Hammer Knight]\n  target: Mist Spirit\n  guard: phoenixborn\n  counter: true\n",
        "game: magewinds\nturn: Ana\nplayers:\n  - name: Ana\n    fighters:\n      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [Fire Bolt]}\n  - name: Bram\n    fighters:\n      - name: Stonewarden\n        movement: 4\n        counter: double\n        position: [12, 8]\n        attacks: [Maul]\n        reactions: [{name: Dodge, trigger: attacked}]\nplay:\n  activate: Pyromancer\n  action: attack\n  attack: Fire Bolt\n  target: Stonewarden\n  reactions:\n    - {react: Dodge, fighter: Stonewarden}\n",
    ];
    for text in boards {
        let (ruling, pic) = judged_picture(text);
        assert!(ruling.legal, "{text}: {ruling:?}");
        let verdict = pictures::verdict(&ruling);
        assert!(!verdict.refusals.is_empty(), "{text}: {ruling:?}");
        assert!(
            verdict
                .headline
                .starts_with("Legal, with 1 choice refused.")
                || verdict
                    .headline
                    .starts_with("Legal, with 2 choices refused."),
            "{}",
            verdict.headline
        );
        for why in &verdict.refusals {
            let said: String = why.chars().skip(1).take(40).collect();
            assert!(
                pic.alt.contains("Refused: ") && pic.alt.contains(&said),
                "{why}: {}",
                pic.alt
            );
        }
        // The picture says them too.
        let unsaid = pictures::Verdict {
            refusals: Vec::new(),
            ..verdict.clone()
        };
        let doc = common::app().judged_document(text, None, None).unwrap();
        let plain = pictures::ruling(&ruling, &doc).unwrap();
        let without = pictures::draw(
            &ruling.game,
            &ruling.state,
            Some(&doc),
            Some(&doc["play"]),
            Some(&unsaid),
            None,
        )
        .unwrap();
        assert_ne!(plain.png, without.png, "{}", ruling.game);
    }
}

/// A unit the ruling destroyed is drawn with the damage that destroyed
/// it, not its damage from before the play (an Ice Golem dealt 2 against
/// life 2 had a full green bar and no "+2 damage").
#[test]
fn a_destroyed_unit_is_drawn_with_the_damage_that_destroyed_it() {
    let text = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Iron Worker, attack: 2, life: 2, damage: 1 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Ice Golem, attack: 2, life: 2 }\nplay:\n  action: attack-phoenixborn\n  attackers: [Iron Worker]\n  blocks:\n    - { attacker: Iron Worker, blocker: Ice Golem, counter: true }\n";
    let (ruling, pic) = judged_picture(text);
    assert!(ruling.legal, "{ruling:?}");
    let units = |seat: usize| {
        ruling.state["players"][seat]["units"]
            .as_array()
            .map_or(0, Vec::len)
    };
    assert_eq!((units(0), units(1)), (0, 0), "both destroyed: {ruling:?}");
    for said in [
        "Iron Worker 2/2 damage 3 destroyed",
        "Ice Golem 2/2 damage 2 destroyed",
    ] {
        assert!(pic.alt.contains(said), "{said}: {}", pic.alt);
    }
}

/// TI4's status phase shows nobody's turn, as the engine's status reads
/// it (the board keeps the last passer's `turn`, so they may still end
/// it; the picture said "status phase · Cleo's turn").
#[test]
fn a_ti4_status_phase_shows_no_turn() {
    let text = "game: ti4\nplayers:\n  - { name: Ana, strategy_cards: [{ name: Leadership, exhausted: true }], passed: true }\n  - { name: Ben, strategy_cards: [{ name: Diplomacy, exhausted: true }], passed: true }\n  - { name: Cleo, strategy_cards: [{ name: Politics, exhausted: true }] }\n  - { name: Dan, strategy_cards: [{ name: Warfare, exhausted: true }], passed: true }\n  - { name: Eve, strategy_cards: [{ name: Trade, exhausted: true }], passed: true }\nturn: Cleo\nplays:\n  - { type: tactical_action, player: Cleo }\n  - { type: end_turn, player: Cleo }\n  - { type: pass, player: Cleo }\n";
    let (ruling, pic) = judged_picture(text);
    assert!(ruling.legal, "{ruling:?}");
    let status = ruling.status.as_ref().unwrap();
    assert!(status.turn.is_none(), "{status:?}");
    assert_eq!(ruling.state["turn"], "Cleo", "the board keeps the turn");
    assert!(
        pic.alt
            .starts_with("Twilight Imperium 4 board, round 1 · status phase."),
        "{}",
        pic.alt
    );
    assert!(
        !pic.alt.contains("status phase · Cleo's turn"),
        "{}",
        pic.alt
    );
}

/// A refused play's reason begins its sentence ("Not legal. an attack
/// needs…" read as a slip).
#[test]
fn a_refusals_reason_begins_a_sentence() {
    let text = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight, attack: 3, life: 3 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\nplay:\n  action: attack-phoenixborn\n  attackers: []\n";
    let (ruling, _) = judged_picture(text);
    assert!(!ruling.legal, "{ruling:?}");
    let headline = pictures::verdict(&ruling).headline;
    let first = headline
        .strip_prefix("Not legal. ")
        .unwrap()
        .chars()
        .next()
        .unwrap();
    assert!(!first.is_lowercase(), "{headline}");
}
