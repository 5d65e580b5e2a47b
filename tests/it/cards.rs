//! Cards as data: the shipped card lists, lookups with did-you-mean, the
//! rules a card's text names, card lists uploaded per server (SQLite and
//! PostgreSQL) and refused when they cannot be read, and the CLI.

use crate::common;
use crate::store_common;

use std::sync::Arc;

use arbiter::app::rulesets::{RuleSets, RulesError, Upload};
use arbiter::app::{App, AppError};
use arbiter::corpus::DocumentKind;
use arbiter::store::Store;
use store_common::both;

fn shipped() -> App {
    App::load(&common::repo().join("rules_data"), &[]).unwrap()
}

#[test]
fn shipped_cards_are_found_by_name_or_alias_with_the_rules_they_name() {
    let app = shipped();
    let golem = app.card("  ice GOLEM ", None).unwrap();
    assert_eq!(
        (golem.game.as_str(), golem.card.name.as_str()),
        ("ashes", "Ice Golem")
    );
    assert_eq!(golem.card.stats["life"], 4);
    let linked: Vec<&str> = golem.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(linked, ["ashes:attack-a-unit.3"]);
    assert_eq!(golem.rules[0].term, "Unit Guard");
    assert_eq!(
        app.card("Coal", Some("ashes")).unwrap().card.name,
        "Coal Roarkwin"
    );
    // Every card's linked rules exist; rulings are verbatim passage text.
    let texts: Vec<&str> = app
        .corpus
        .passages
        .iter()
        .map(|p| p.text.as_str())
        .collect();
    for e in &app.cards.entries {
        let reply = app.card(&e.card.name, Some(&e.game)).unwrap();
        for r in &reply.rules {
            assert!(app.corpus.get(&r.id).is_some(), "{}", r.id);
        }
        for ruling in &e.card.rulings {
            assert!(
                texts.iter().any(|t| t.contains(ruling.as_str())),
                "not verbatim: {ruling}"
            );
        }
    }
    assert!(app.cards.warnings.is_empty(), "{:?}", app.cards.warnings);
    // Card lists are data, not passages.
    assert!(app.corpus.get("ashes:cards").is_none());
}

#[test]
fn unknown_cards_get_did_you_mean_and_bad_names_a_plain_refusal() {
    let app = shipped();
    let e = app.card("Ice Gollem", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no card is named 'Ice Gollem'. Did you mean Ice Golem?"
    );
    assert!(matches!(e, AppError::UnknownCard { .. }));
    // Another game's card: said whose it is.
    let e = app.card("Tariff Ring", Some("ashes")).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("no card of Ashes Reborn is named 'Tariff Ring'; 'Tariff Ring' is a card of Grand Archive"),
        "{e}"
    );
    // A game with no card list says so.
    let e = app.card("Nonexistent Card", Some("ti4")).unwrap_err();
    assert_eq!(e.to_string(), "Twilight Imperium 4 has no card list loaded");
    let e = app.card("Frostbak Bear", Some("ashes")).unwrap_err();
    assert!(matches!(e, AppError::UnknownCard { .. }), "{e}");
    assert!(matches!(app.card("", None), Err(AppError::Usage(_))));
    assert!(matches!(
        app.card(&"x".repeat(201), None),
        Err(AppError::Usage(_))
    ));
    assert!(matches!(
        app.card("Ice Golem", Some("chess")),
        Err(AppError::UnknownGame { .. })
    ));
}

#[test]
fn completion_is_fuzzy_and_bounded() {
    let app = shipped();
    let names = |p: &str, g: Option<&str>| -> Vec<String> {
        app.complete_cards(p, g, 25)
            .into_iter()
            .map(|c| c.name)
            .collect()
    };
    assert_eq!(names("frstbk", None)[0], "Frostback Bear");
    assert_eq!(names("tariff", None), ["Tariff Ring"]);
    assert!(
        names("", Some("grand archive"))
            .iter()
            .all(|n| n != "Ice Golem")
    );
    assert!(names("", None).len() <= 25);
}

/// Completion over the MTG fixture's 34,953 cards: a prefix with more
/// than 25 names starting with it gives only those, a misspelt prefix the
/// card, a negated word (nucleo's `!word`) keeps the names without it, and
/// a name's letters in another order still match (fuzzy, not a prefix).
/// The lists are read on their own: the fixture's rules need ../shared.
#[test]
fn completion_over_a_whole_card_list() {
    let dir = common::repo().join("tests/fixtures/mtg");
    let lists: Vec<arbiter::corpus::CardList> = ["cards-a-l.csv", "cards-m-z.csv"]
        .into_iter()
        .map(|file| arbiter::corpus::CardList {
            game: "mtg".into(),
            manifest: arbiter::corpus::DocumentManifest {
                file: file.into(),
                kind: DocumentKind::Cards,
                ..Default::default()
            },
            text: std::fs::read_to_string(dir.join(file)).unwrap(),
        })
        .collect();
    let cards = arbiter::cards::Cards::build(&lists);
    assert_eq!(cards.entries.len(), 34_953, "{:?}", cards.warnings);
    let names = |p: &str| -> Vec<String> {
        cards
            .complete(p, Some("mtg"), 25)
            .into_iter()
            .map(|c| c.card.name.clone())
            .collect()
    };
    let sol = names("sol");
    assert_eq!(sol.len(), 25);
    assert!(
        sol.iter().all(|n| n.to_lowercase().starts_with("sol")),
        "{sol:?}"
    );
    assert!(sol.contains(&"Sol Ring".to_string()), "{sol:?}");
    assert_eq!(names("lightn bol")[0], "Lightning Bolt");
    let negated = names("lightning !bolt");
    assert!(!negated.is_empty());
    assert!(
        negated.iter().all(|n| !n.to_lowercase().contains("bolt")),
        "{negated:?}"
    );
    assert!(names("bolt lightning").contains(&"Lightning Bolt".to_string()));
    assert!(names("qqqzzzxxj").is_empty());
    // What was typed is read up to 100 characters (2,000 cost seconds):
    // what follows them changes nothing.
    let first = "sol ".repeat(25);
    assert!(!names(&first).is_empty());
    assert!(names("qqqzzz").is_empty());
    assert_eq!(
        names(&format!("{first}qqqzzz {}", "ab ".repeat(600))),
        names(&first)
    );
}

fn sets(store: &Store) -> RuleSets {
    let shipped = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    let base = Arc::new(App::new(arbiter::corpus::Corpus::build(shipped.clone())));
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    RuleSets::new(store.clone(), shipped, base)
}

fn cards(file: &str, text: &[u8]) -> Upload {
    Upload {
        file_name: file.into(),
        bytes: text.to_vec(),
        game: "ashes".into(),
        kind: DocumentKind::Cards,
        title: Some("Club cards".into()),
        replaces: None,
    }
}

const CLUB_CSV: &str = "name,type,cost,attack,life,text,rulings,aliases\n\
Ice Golem,Conjuration,2,2,4,\"Unit Guard. Once per round, this unit may guard.\",Only one guard per attack.|Errata 2025.,Golem\n\
Blood Archer,Ally,3,2,2,Attack a Unit twice,,Archer\n\
Blood Archer,Ally,3,9,9,dupe,,\n";

/// A card list added to one server is found there (its card replacing the
/// shipped one of the same name), not in another; duplicate names are
/// preview warnings; unreadable lists are refused with where, nothing lost.
async fn server_card_lists(url: String) {
    let store = Store::connect(&url).await.unwrap();
    let sets = sets(&store);
    let (added, preview) = sets
        .add("g", "mod", cards("club.csv", CLUB_CSV.as_bytes()))
        .await
        .unwrap();
    assert_eq!(added.document, "ashes:club-cards");
    assert_eq!(
        preview.cards,
        ["Ice Golem (Conjuration)", "Blood Archer (Ally)"]
    );
    // The shipped Ice Golem it replaces is said, not silently.
    assert_eq!(preview.warnings.len(), 2, "{:?}", preview.warnings);
    assert!(preview.warnings[1].contains("card 'Ice Golem' replaces the card 'Ice Golem'"));
    assert!(
        preview.warnings[0].contains(
            "card #3 (line 4) 'Blood Archer': the name 'Blood Archer' is already card #2 (line 3)"
        ),
        "{:?}",
        preview.warnings
    );
    assert!(preview.passages.is_empty());

    let here = sets.app_for("g").await.unwrap();
    let golem = here.card("golem", None).unwrap();
    assert_eq!(
        golem.card.card_type, "Conjuration",
        "the server's card replaces the shipped"
    );
    assert_eq!(
        golem.card.rulings,
        ["Only one guard per attack.", "Errata 2025."]
    );
    assert!(
        golem
            .source
            .starts_with("Club cards (this server, added 20"),
        "{}",
        golem.source
    );
    let archer = here.card("archer", Some("ashes")).unwrap();
    assert_eq!(
        archer.card.stats["attack"], 2,
        "the first of two duplicates is kept"
    );
    let linked: Vec<&str> = archer.rules.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(linked, ["ashes:attack-a-unit"], "{linked:?}");
    let there = sets.app_for("h").await.unwrap();
    assert!(there.card("Blood Archer", None).is_err());
    assert_eq!(
        there.card("Ice Golem", None).unwrap().card.card_type,
        "Unit"
    );

    // Refusals: nothing is added, the live list stays.
    let bad = "cards:\n  - name: Ash Spirit\n    atack: 2\n";
    let e = sets
        .add("g", "mod", cards("bad.yaml", bad.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        matches!(e, RulesError::Import(_)) && e.to_string().contains("line 3:5"),
        "{e}"
    );
    let e = sets
        .add("g", "mod", cards("bad.csv", b"name,life\nA,1\nB,2,3\n"))
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("line 3: this row has 3 fields"),
        "{e}"
    );
    let e = sets
        .add(
            "g",
            "mod",
            cards("cards.json", &[0x50, 0x4b, 0x03, 0x04, 0, 0]),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("cannot be read as a list"), "{e}");
    let huge = vec![b'a'; arbiter::corpus::import::MAX_IMPORT_BYTES + 1];
    let e = sets
        .add("g", "mod", cards("big.csv", &huge))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("over the limit of 5 MB"), "{e}");
    assert_eq!(sets.list("g").await.unwrap().len(), 1);
    assert!(
        sets.app_for("g")
            .await
            .unwrap()
            .card("Blood Archer", None)
            .is_ok()
    );
}
both!(server_card_lists);

/// A server's card aliased like another card of its game (a shipped
/// card's name, a shipped card's alias) takes neither: the alias is
/// dropped, said in the preview naming the card that holds it, and the
/// name finds its own card, by lookup and by autocomplete alike. An
/// outside tester's Coal Roarkwin aliased "Iron Worker" answered `/card
/// Iron Worker`, while autocomplete still offered the shipped Iron Worker.
async fn a_server_cards_alias_never_takes_another_cards_name(url: String) {
    let store = Store::connect(&url).await.unwrap();
    let sets = sets(&store);
    let csv = "name,type,aliases\n\
               Coal Roarkwin,Phoenixborn,Maeoni|Iron Worker|Coaly\n\
               Blood Archer,Ally,Archer|blood-archer\n";
    let (_, preview) = sets
        .add("g", "mod", cards("club.csv", csv.as_bytes()))
        .await
        .unwrap();
    let w = preview.warnings.join("\n");
    assert!(
        w.contains("its alias 'Iron Worker' is already the name of the card 'Iron Worker'")
            && w.contains("its alias 'Maeoni' is already an alias of the card 'Maeoni Viper'")
            && w.contains("card 'Coal Roarkwin' replaces the card 'Coal Roarkwin'"),
        "{w}"
    );
    assert_eq!(preview.warnings.len(), 3, "{w}");
    let here = sets.app_for("g").await.unwrap();
    let found = |name: &str| here.card(name, Some("ashes")).unwrap().card;
    assert_eq!(found("Iron Worker").name, "Iron Worker");
    assert_eq!(found("Maeoni").name, "Maeoni Viper");
    let coal = found("coaly");
    // The shipped card's own alias stays with the card that replaces it.
    assert_eq!(
        (coal.name.as_str(), coal.aliases),
        (
            "Coal Roarkwin",
            vec!["Coaly".to_string(), "Coal".to_string()]
        )
    );
    assert_eq!(found("archer").name, "Blood Archer");
    // Every name autocomplete offers finds the card it names.
    for partial in ["Iron", "iron worker", "Maeoni"] {
        let offered = here.complete_cards(partial, Some("ashes"), 25);
        assert!(!offered.is_empty(), "{partial}");
        for s in offered {
            assert_eq!(found(&s.name).name, s.name, "{partial}");
        }
    }
    let coal_offered = here.complete_cards("iron worker", Some("ashes"), 25);
    assert!(
        coal_offered.iter().all(|s| s.name != "Coal Roarkwin"),
        "{coal_offered:?}"
    );
}
both!(a_server_cards_alias_never_takes_another_cards_name);

/// A server's card whose name reads as another card of its game (a
/// Cyrillic о in "Irоn Worker" beside the shipped Iron Worker, or beside
/// the list's own card) is left out, said in the preview, as a game named
/// so is refused: autocomplete listed "Iron Worker  Unit" twice, looking
/// identical (found by an outside tester).
async fn a_look_alike_card_name_is_left_out(url: String) {
    let store = Store::connect(&url).await.unwrap();
    let sets = sets(&store);
    let csv = "name,type\nIr\u{43e}n Worker,Unit\nAsh Bear,Unit\n\u{410}sh Bear,Unit\n";
    let (_, preview) = sets
        .add("g", "mod", cards("club.csv", csv.as_bytes()))
        .await
        .unwrap();
    let w = preview.warnings.join("\n");
    assert!(
        w.contains("card 'Ir\u{43e}n Worker' reads as the card 'Iron Worker'")
            && w.contains("card '\u{410}sh Bear' reads as the card 'Ash Bear'"),
        "{w}"
    );
    let here = sets.app_for("g").await.unwrap();
    let offered = here.complete_cards("Iron", Some("ashes"), 25);
    let irons = offered.iter().filter(|c| c.name.contains("Worker"));
    assert_eq!(irons.count(), 1, "{offered:?}");
    assert!(here.card("Ash Bear", Some("ashes")).is_ok());
    // What the preview lists and counts, and what is stored (`rules
    // show`), is what loads: both listed the look-alikes left out.
    assert_eq!(preview.cards, ["Ash Bear (Unit)"], "{:?}", preview.cards);
    let docs = sets.list("g").await.unwrap();
    let stored = arbiter::cards::stored_names(&docs[0].body).unwrap();
    assert_eq!(stored, ["Ash Bear (Unit)"]);
}
both!(a_look_alike_card_name_is_left_out);

fn arbiter(args: &[&str]) -> std::process::Output {
    common::arbiter_cli(None, args)
}

#[test]
fn the_cli_shows_completes_and_imports_cards() {
    let out = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let o = arbiter(&["card", "ice", "golem"]);
    assert!(o.status.success());
    assert!(
        out(&o).contains("Ice Golem — Unit") && out(&o).contains("[ashes:attack-a-unit.3]"),
        "{}",
        out(&o)
    );
    let o = arbiter(&["card", "frostbak"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Did you mean Frostback Bear?"));
    let o = arbiter(&["card", "lanc", "--complete", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["name"], "Fervent Lancer");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.csv");
    std::fs::write(&file, CLUB_CSV).unwrap();
    let folder = dir.path().join("club");
    let (f, d) = (file.to_str().unwrap(), folder.to_str().unwrap());
    let o = arbiter(&[
        "import", f, "--game", "ashes", "--kind", "cards", "--out", d,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out(&o).contains("Cards “club” for Ashes Reborn (ashes): 2 cards"),
        "{}",
        out(&o)
    );
    assert!(out(&o).contains("2 warnings:"), "{}", out(&o));
    let o = arbiter(&["--rules-dir", d, "card", "Blood Archer"]);
    assert!(out(&o).contains("Blood Archer — Ally"), "{}", out(&o));
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[{\"name\": \"A\", \"cost\": [1]}]").unwrap();
    let o = arbiter(&[
        "import",
        bad.to_str().unwrap(),
        "--game",
        "ashes",
        "--kind",
        "cards",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("line 1:"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The console: a card list added with `/rules add … kind:cards` and
/// Confirm; `/card` shows it with the button of the rule its text names;
/// `/card complete` offers names; another server has no such card.
#[test]
fn the_console_adds_shows_and_completes_cards() {
    let (db, dir) = store_common::sqlite_url();
    let file = dir.path().join("club.csv");
    std::fs::write(&file, CLUB_CSV).unwrap();
    let bot = common::console_bot(db);
    let run = |guild: u64, script: &str| common::console_run(&bot, guild, true, script);
    let add = format!(
        "/rules add file:{} game:ashes kind:cards\n1\n",
        file.display()
    );
    let out = run(1, &add);
    assert!(
        out.contains("Card list **club** for **Ashes Reborn** (`ashes`): 2 cards."),
        "{out}"
    );
    assert!(
        out.contains("is live in this server as `ashes:club`"),
        "{out}"
    );
    let out = run(1, "/card name:blood archer\n1\n");
    assert!(
        out.contains("Blood Archer") && out.contains("attack 2"),
        "{out}"
    );
    assert!(
        out.contains("Attack a target unit with 1 or more of your units"),
        "button 1 cites the rule: {out}"
    );
    let out = run(1, "/card complete name:archr\n");
    assert!(out.contains("Blood Archer — Ally (ashes)"), "{out}");
    let out = run(2, "/card name:blood archer\n");
    assert!(out.contains("no card is named 'blood archer'"), "{out}");
}

/// A board may name a card without its stats: they come from the card list
/// (what the board states wins), each one said in an info note, and the
/// card's text is listed as not applied.
#[test]
fn a_board_takes_the_stats_it_leaves_out_from_the_card_list() {
    let app = shipped();
    let board = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin }\n    units:\n      - { name: Hammer Knight, life: 9 }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper }\n    units:\n      - { name: Mist Spirit }\n      - { name: Ice Golem, abilities: [Unit Guard] }\nplay:\n  action: attack-unit\n  attackers: [Hammer Knight]\n  target: Mist Spirit\n  guard: Ice Golem\n  counter: true\n";
    let r = app.judge(board, None).unwrap();
    assert!(r.legal, "{:?}", r.diagnostics);
    let golem = &r.state["players"][1]["units"][1];
    assert_eq!(
        (golem["life"].as_i64(), golem["damage"].as_i64()),
        (Some(4), Some(3))
    );
    let knight = &r.state["players"][0]["units"][0];
    assert_eq!(
        (knight["attack"].as_i64(), knight["life"].as_i64()),
        (Some(3), Some(9)),
        "the board's own value wins"
    );
    let notes: Vec<&str> = r.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(
        notes.contains(&"Hammer Knight: attack 3 taken from the card list (Cards the shipped examples name), as the board does not state them"),
        "{notes:?}"
    );
    let text = r
        .diagnostics
        .iter()
        .find(|d| d.message.contains("not applied"))
        .expect("the card's text is listed as not applied");
    assert_eq!(text.severity, arbiter::engine::Severity::Warning);
    assert_eq!(text.path.as_deref(), Some("players[1].units[1]"));
    // A player called like a card's alias ("Coal") gets nothing.
    assert!(r.state["players"][0].get("life").is_none());
}

/// A match's starting board takes the stats it leaves out from the card list
/// too: the recorded board states them (a replay needs no list), and the
/// reply says which came from the list and that card text is not applied.
async fn a_match_setup_takes_card_stats(url: String) {
    use arbiter::app::matches::{Caller, Matches};
    let app = shipped();
    let m = Matches::for_app(Store::connect(&url).await.unwrap(), &app);
    let coal = Caller::new("cards-table", "coal-user", false);
    m.start(&coal, "ashes", &["coal-user".into(), "maeoni-user".into()])
        .await
        .unwrap();
    let board = "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: { name: Coal Roarkwin, life: 15 }\n    units:\n      - { name: Hammer Knight }\n  - name: Maeoni\n    phoenixborn: { name: Maeoni Viper, life: 20 }\n    units:\n      - { name: Ice Golem, life: 9 }\n";
    let view = store_common::setup_as_judge(&m, &coal, board)
        .await
        .unwrap();
    let b = view.board.as_ref().expect("the board");
    let knight = &b["players"][0]["units"][0];
    assert_eq!(knight["attack"].as_i64(), Some(3), "{b}");
    assert_eq!(
        b["players"][1]["units"][0]["life"].as_i64(),
        Some(9),
        "the board's own value wins"
    );
    assert!(
        view.notes
            .iter()
            .any(|n| n.starts_with("Hammer Knight: attack 3, life 3 taken from the card list")),
        "{:?}",
        view.notes
    );
    assert!(
        view.notes
            .iter()
            .any(|n| n.starts_with("Ice Golem: its card text")),
        "{:?}",
        view.notes
    );
    let text = arbiter::render::matches::view(&view, arbiter::render::matches::Style::Console);
    assert!(
        text.contains("note: Hammer Knight: attack 3, life 3 taken"),
        "{text}"
    );
    let r = m.replay("cards-table").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
}

both!(a_match_setup_takes_card_stats);

/// A server's card whose name runs to many words is named in a question
/// as a short one is: the recogniser tried spans of at most six words, so
/// "Golem Variant Number 03 With An Unusually Verbose Title Indeed Friend"
/// (eleven) was no card and its words were reported as unknown, though
/// `/card` found it (found by an outside tester).
#[test]
fn a_card_with_a_long_name_is_named_in_a_question() {
    let long = "Golem Variant Number 03 With An Unusually Verbose Title Indeed Friend";
    let csv = format!(
        "name,type,cost,text\n\"{long}\",Unit,1,\"Unit Guard\"\n\"{}\",Unit,1,\"Unit Guard\"\nShort Golem,Unit,1,\"Unit Guard\"\n",
        long.replace("03", "04")
    );
    let app = with_cards("ashes", &csv);
    assert_eq!(app.card(long, Some("ashes")).unwrap().card.name, long);
    let r = app
        .ask(&format!("can {long} guard"), Some("ashes"), 3)
        .unwrap();
    let named: Vec<&str> = r.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(named, [long]);
    assert!(
        !r.ignored.iter().any(|w| long.contains(w.as_str())),
        "{:?}",
        r.ignored
    );
    let r = app.ask("can Short Golem guard", Some("ashes"), 3).unwrap();
    let named: Vec<&str> = r.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(named, ["Short Golem"]);
}

/// The shipped games with a card list uploaded for Star Wars: Legion.
fn with_legion_cards(csv: &str) -> App {
    with_cards("legion", csv)
}

/// The shipped games with a card list uploaded for `game`.
fn with_cards(game: &str, csv: &str) -> App {
    let imp = shipped()
        .import(&arbiter::corpus::import::ImportRequest {
            file_name: "cards.csv",
            bytes: csv.as_bytes(),
            game,
            kind: DocumentKind::Cards,
            title: None,
        })
        .unwrap();
    let mut sources = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    sources.push(imp.game);
    App::new(arbiter::corpus::Corpus::build(sources))
}

#[test]
fn a_card_named_by_another_games_common_word_is_found_in_its_games_questions() {
    // Ashes' rules use "phoenixborn" in many passages; Legion's never do.
    let app = with_legion_cards("name,type,text\nPhoenixborn,Unit,\"Relentless\"\n");
    let r = app
        .ask("can Phoenixborn attack twice", Some("legion"), 3)
        .unwrap();
    let named: Vec<&str> = r.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(named, ["Phoenixborn"]);
}

#[test]
fn a_misspelt_name_with_small_lower_case_words_gets_did_you_mean() {
    let app = with_legion_cards("name,type,text\n\"Kor'vash, the Tidecaller\",Unit,\"\"\n");
    let r = app
        .ask("how does Kor'vash, the Tidecallr attack", Some("legion"), 3)
        .unwrap();
    assert!(
        r.card_suggestions
            .iter()
            .any(|(_, name)| name == "Kor'vash, the Tidecaller"),
        "{:?}",
        r.card_suggestions
    );
}

#[test]
fn a_lower_case_card_name_that_is_slang_stays_a_word_of_the_question() {
    // "supp" is Legion players' "suppression", and here a card's name too.
    let app = with_legion_cards("name,type,text\nSupp,Unit,\"\"\n");
    let r = app.ask("what does supp do", Some("legion"), 3).unwrap();
    let named: Vec<&str> = r.cards.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(named, ["Supp"]);
    let first = r.results.first().map(|x| x.text.as_str()).unwrap_or("");
    assert!(first.contains("Suppression"), "{:?}", r.results);
}

/// An unknown name's "did you mean" names the cards its autocomplete
/// lists under what was typed (one fuzzy matcher for both): `nitro` was
/// offered cards with "Nitro" in their names and, picked as typed, was
/// refused with cards spelt alike (B-I-N-G-O, Down // Dirty, Hit // Run;
/// found by an outside tester).
#[test]
fn an_unknown_cards_did_you_mean_is_what_its_autocomplete_lists() {
    let app = with_legion_cards(
        "name,type,text\nNitroglyph,Unit,\"\"\nGoblin Nitrocrew,Unit,\"\"\nBingo,Unit,\"\"\nIntro,Unit,\"\"\n",
    );
    for game in [None, Some("legion")] {
        let listed: Vec<String> = app
            .complete_cards("nitro", game, 3)
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert!(listed.contains(&"Nitroglyph".to_string()), "{listed:?}");
        let e = app.card("nitro", game).unwrap_err();
        let AppError::UnknownCard { suggestions, .. } = &e else {
            panic!("{e}");
        };
        assert_eq!(suggestions, &listed, "{e}");
    }
    // A misspelling the matcher lists nothing for still gets its spelling's.
    let e = app.card("Bimgo", Some("legion")).unwrap_err();
    assert!(e.to_string().contains("Bingo"), "{e}");
}
