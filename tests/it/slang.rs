//! A server's slang list (`/rules add kind:slang`): its terms are read by
//! that server's search as the game's glossary, never another server's;
//! unreadable lists are refused with where, nothing lost; `rules show`
//! lists its terms; the CLI and the console reach it.

use crate::common;
use crate::store_common;

use std::sync::Arc;

use arbiter::app::App;
use arbiter::app::rulesets::{RuleSets, RulesError, Upload};
use arbiter::corpus::DocumentKind;
use arbiter::store::Store;
use store_common::both;

fn sets(store: &Store) -> RuleSets {
    let shipped = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    let base = Arc::new(App::new(arbiter::corpus::Corpus::build(shipped.clone())));
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    RuleSets::new(store.clone(), shipped, base)
}

fn slang(file: &str, game: &str, text: &str) -> Upload {
    Upload {
        file_name: file.into(),
        bytes: text.as_bytes().to_vec(),
        game: game.into(),
        kind: DocumentKind::Slang,
        title: Some("Table talk".into()),
        replaces: None,
    }
}

/// Words no Ashes rule uses, as a playgroup says them.
const TABLE_TALK: &str =
    "synonyms:\n  dude: [unit]\n  dudes: [units]\n  smack: [attack]\n  hit back: [counter]\n";

const QUESTION: &str = "what happens when i smack a dude";

fn first_ids(app: &App, q: &str) -> Vec<String> {
    app.ask(q, Some("ashes"), 3)
        .unwrap()
        .results
        .into_iter()
        .map(|r| r.id)
        .collect()
}

async fn a_servers_slang_is_its_own(url: String) {
    let store = Store::connect(&url).await.unwrap();
    let sets = sets(&store);
    let before = sets.app_for("g").await.unwrap();
    assert!(
        first_ids(&before, QUESTION).is_empty(),
        "no Ashes rule says 'smack' or 'dude'"
    );
    let (added, preview) = sets
        .add("g", "mod", slang("talk.yaml", "Ashes", TABLE_TALK))
        .await
        .unwrap();
    assert_eq!(added.document, "ashes:table-talk");
    assert_eq!(preview.kind, DocumentKind::Slang);
    assert_eq!(
        preview.entries,
        [
            "dude → unit",
            "dudes → units",
            "hit back → counter",
            "smack → attack"
        ]
    );
    assert!(preview.passages.is_empty() && preview.cards.is_empty());

    let here = sets.app_for("g").await.unwrap();
    let ids = first_ids(&here, QUESTION);
    assert!(
        ids.first()
            .is_some_and(|id| id.starts_with("ashes:attack-a-unit")),
        "{ids:?}"
    );
    let counter = first_ids(&here, "my dude got smacked, does it hit back");
    assert_eq!(
        counter.first().map(String::as_str),
        Some("ashes:attack-a-unit.4.1"),
        "{counter:?}"
    );
    assert!(
        here.corpus.get("ashes:table-talk").is_none(),
        "a slang list adds no passage"
    );
    let there = sets.app_for("h").await.unwrap();
    assert!(
        first_ids(&there, QUESTION).is_empty(),
        "another server's search is unchanged"
    );

    // A card list of the same title goes beside it: a data list's id is
    // taken like a document's (a reviewer found one silently replacing
    // the other).
    let cards = Upload {
        file_name: "talk.csv".into(),
        bytes: b"name,text\nClub,Deal 1 damage.\n".to_vec(),
        game: "ashes".into(),
        kind: DocumentKind::Cards,
        title: Some("Table talk".into()),
        replaces: None,
    };
    let (beside, said) = sets.add("g", "mod", cards).await.unwrap();
    assert_eq!(beside.document, "ashes:table-talk-2");
    // A list is never quoted: the warning says both apply.
    assert!(
        said.warnings[0].contains("already live as `ashes:table-talk`")
            && said.warnings[0].contains("both lists' cards apply")
            && !said.warnings[0].contains("quote"),
        "{:?}",
        said.warnings
    );
    sets.remove("g", "ashes:table-talk-2", "mod").await.unwrap();

    let docs = sets.list("g").await.unwrap();
    let shown = arbiter::app::rulesets::data_doc(&docs, "ashes:table-talk").unwrap();
    assert_eq!(shown.items, preview.entries);
    assert_eq!(shown.doc.kind, DocumentKind::Slang);

    // Refusals: nothing is added, the live list stays.
    let e = sets
        .add(
            "g",
            "mod",
            slang("dup.yaml", "ashes", "dude: [unit]\ndude: [ally]\n"),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, RulesError::Import(_))
            && e.to_string()
                .contains("line 2:1: the key `dude` appears twice"),
        "{e}"
    );
    let e = sets
        .add("g", "mod", slang("talk.yaml", "Chess", TABLE_TALK))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("add the game's rules first"), "{e}");
    let e = sets
        .add("g", "mod", slang("talk.yaml", "ashse", TABLE_TALK))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("did you mean 'ashes'"), "{e}");
    let e = sets
        .add(
            "g",
            "mod",
            slang("none.csv", "ashes", "slang,meaning\n--,x\n"),
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no entry is left"), "{e}");
    assert_eq!(sets.list("g").await.unwrap().len(), 1);

    // Slang that maps stop words to words a game lacks is not said as a
    // topic no rule uses (an outside tester's `the: [sacrifice]`).
    let odd = "the: [sacrifice]\na: [sacrifice]\n";
    let (odd, _) = sets
        .add("g", "mod", slang("odd.yaml", "ashes", odd))
        .await
        .unwrap();
    let app = sets.app_for("g").await.unwrap();
    let r = app
        .ask("can a unit attack the phoenixborn", Some("ashes"), 3)
        .unwrap();
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    sets.remove("g", &odd.document, "mod").await.unwrap();

    sets.remove("g", "ashes:table-talk", "mod").await.unwrap();
    let after = sets.app_for("g").await.unwrap();
    assert!(
        first_ids(&after, QUESTION).is_empty(),
        "removed, its terms go"
    );
}
both!(a_servers_slang_is_its_own);

/// The console as on Discord: `/rules add … kind:slang`, Confirm, then
/// `/rule` reads the terms and `/rules show` lists them.
#[test]
fn the_console_adds_and_shows_a_slang_list() {
    let (db, dir) = store_common::sqlite_url();
    let file = dir.path().join("talk.csv");
    std::fs::write(&file, "slang,meaning\nsmack,attack\ndude,unit\n").unwrap();
    let bot = common::console_bot(db);
    let run = |guild: u64, script: &str| common::console_run(&bot, guild, true, script);
    let out = run(
        1,
        &format!(
            "/rules add file:{} game:ashes kind:slang\n1\n",
            file.display()
        ),
    );
    assert!(
        out.contains("Slang list **talk** for **Ashes Reborn** (`ashes`): 2 terms."),
        "{out}"
    );
    assert!(out.contains("• smack → attack"), "{out}");
    assert!(
        out.contains("is live in this server as `ashes:talk`"),
        "{out}"
    );
    let out = run(1, &format!("/rule query:{QUESTION} game:ashes\n"));
    assert!(out.contains("`ashes:attack-a-unit"), "{out}");
    let out = run(1, "/rules show id:ashes:talk\n");
    assert!(
        out.contains("Slang list **talk**") && out.contains("2 terms"),
        "{out}"
    );
    let out = run(2, &format!("/rule query:{QUESTION} game:ashes\n"));
    assert!(!out.contains("`ashes:attack-a-unit"), "{out}");
}

/// The CLI: `arbiter rules add --kind slang`, `rules show`, a typo'd kind.
#[test]
fn the_cli_adds_and_shows_a_slang_list() {
    let (db, dir) = store_common::sqlite_url();
    let file = dir.path().join("talk.yaml");
    std::fs::write(&file, TABLE_TALK).unwrap();
    let f = file.to_str().unwrap();
    let cli = |args: &[&str]| common::arbiter_cli(Some(&db), args);
    let text = |o: &std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let o = cli(&[
        "rules", "add", f, "--game", "ashes", "--kind", "slang", "--guild", "7",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text(&o).contains("Slang list “talk” for Ashes Reborn (ashes): 4 terms"),
        "{}",
        text(&o)
    );
    let o = cli(&["rules", "show", "ashes:talk", "--guild", "7"]);
    assert!(
        text(&o).contains("4 terms") && text(&o).contains("smack → attack"),
        "{}",
        text(&o)
    );
    let o = cli(&["ask", QUESTION, "--game", "ashes", "--guild", "7", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v["results"][0]["id"]
            .as_str()
            .unwrap()
            .starts_with("ashes:attack-a-unit"),
        "{v}"
    );
    let o = cli(&[
        "rules", "add", f, "--game", "ashes", "--kind", "slnag", "--guild", "7",
    ]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("did you mean 'slang'?"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
