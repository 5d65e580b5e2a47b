//! The rule corpus: every seed shape parses into the right passages, ids are
//! stable, text is verbatim and clean, cross-references resolve, bad input
//! is reported and never panics.

use crate::common;

use arbiter::corpus::{
    Corpus, DocumentManifest, GameManifest, Glossary, SourceDocument, SourceGame,
};
use arbiter::load;

fn text(id: &str) -> String {
    common::app()
        .corpus
        .get(id)
        .unwrap_or_else(|| panic!("{id} is indexed"))
        .text
        .clone()
}

fn one_doc(game: &str, text: &str, tweak: impl FnOnce(&mut DocumentManifest)) -> Corpus {
    let mut manifest = DocumentManifest {
        file: "doc.md".into(),
        sha256: None,
        slug: "doc".into(),
        title: "Doc".into(),
        version: String::new(),
        source: String::new(),
        licence: String::new(),
        format: Default::default(),
        kind: Default::default(),
        id_prefix: String::new(),
        transparent_headings: Vec::new(),
        drop_lines: Vec::new(),
        drop_image_names: false,
    };
    tweak(&mut manifest);
    Corpus::build(vec![SourceGame {
        manifest: GameManifest {
            game: game.into(),
            name: game.into(),
            aliases: vec![],
            glossary: None,
            documents: vec![manifest.clone()],
        },
        glossary: Glossary::default(),
        documents: vec![SourceDocument {
            manifest,
            text: text.into(),
        }],
    }])
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every shipped rules document (card lists are data the examples name, not
/// seed documents), with the SHA-256 its manifest records.
fn shipped_documents() -> Vec<(std::path::PathBuf, Option<String>)> {
    let data = common::repo().join("rules_data");
    let mut out = Vec::new();
    for game in std::fs::read_dir(&data).unwrap() {
        let dir = game.unwrap().path();
        let manifest = dir.join("manifest.yaml");
        if !manifest.is_file() {
            continue;
        }
        let m: GameManifest =
            serde_saphyr::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
        let rules = m
            .documents
            .into_iter()
            .filter(|d| d.kind != arbiter::corpus::DocumentKind::Cards);
        for d in rules {
            out.push((dir.join(&d.file), d.sha256));
        }
    }
    out.sort();
    out
}

/// The seed documents' identity, without the seeds: each shipped file's
/// SHA-256 equals the one its manifest records (taken from the seed
/// originals, see the next test).
#[test]
fn shipped_documents_match_the_sha256_in_their_manifests() {
    let docs = shipped_documents();
    assert_eq!(docs.len(), 5, "{docs:?}");
    for (path, sum) in docs {
        let sum = sum.unwrap_or_else(|| panic!("{} has no sha256 in its manifest", path.display()));
        assert_eq!(
            sha256_hex(&std::fs::read(&path).unwrap()),
            sum,
            "{} is not the document its manifest names",
            path.display()
        );
    }
}

/// `ARBITER_SHARED_DIR`, else `shared/` beside the clone.
fn shared_dir() -> std::path::PathBuf {
    std::env::var_os("ARBITER_SHARED_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::repo().join("../shared"))
}

#[test]
#[ignore = "needs ../shared/seeds (the seed originals; .ci/run runs it)"]
fn shipped_documents_are_the_seeds_verbatim() {
    let seeds = shared_dir().join("seeds");
    let pairs = [
        ("000_f2ee9ac9f29d1560.txt", "ashes/03-main-actions.md"),
        ("001_bca0a8a71178a1b0.txt", "ti4/action-phase.md"),
        (
            "002_a4519cfb934e2f9a.txt",
            "magewinds/core-rules-13-action-phase.txt",
        ),
        ("003_24a54c92dfb5f8c3.txt", "legion/actions.txt"),
        (
            "004_9d92c40da74309ee.txt",
            "grand-archive/combat-phase-attack-declaration.md",
        ),
    ];
    assert!(
        seeds.is_dir(),
        "the seeds are expected at {} (shared/ beside the clone, or ARBITER_SHARED_DIR)",
        seeds.display()
    );
    let sums = shipped_documents();
    for (seed, shipped) in pairs {
        let path = common::repo().join("rules_data").join(shipped);
        let ours = std::fs::read(&path).unwrap();
        let theirs = std::fs::read(seeds.join(seed)).unwrap();
        assert_eq!(ours, theirs, "{shipped} differs from seed {seed}");
        let recorded = sums
            .iter()
            .find(|(p, _)| *p == path)
            .and_then(|(_, s)| s.clone());
        assert_eq!(
            recorded.as_deref(),
            Some(sha256_hex(&theirs).as_str()),
            "the manifest of {shipped} does not record seed {seed}'s SHA-256"
        );
    }
}

#[test]
fn every_game_has_its_manifest_and_aliases() {
    let c = &common::app().corpus;
    let ids: Vec<&str> = c.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(
        ids,
        ["ashes", "grand-archive", "legion", "magewinds", "ti4"]
    );
    for (alias, game) in [
        ("TI4", "ti4"),
        ("Twilight Imperium", "ti4"),
        ("SWL", "legion"),
        ("GA", "grand-archive"),
        ("ashes reborn", "ashes"),
    ] {
        assert_eq!(
            c.resolve_game(alias).map(|g| g.id.as_str()),
            Some(game),
            "{alias}"
        );
    }
    let legion = c.game("legion").unwrap();
    assert!(
        legion.documents[0].licence.contains("CC-BY-SA"),
        "Legion text must be attributed"
    );
}

#[test]
fn markdown_headings_and_nested_numbered_lists() {
    // Ashes: "### Attack a Unit" > "4." > "1."/"2." (3-space nesting).
    let p = common::app().corpus.get("ashes:attack-a-unit.4.2").unwrap();
    assert!(
        p.text
            .starts_with("If the target unit counters, the attacking player’s units")
    );
    let path: Vec<&str> = p.path.iter().map(|t| &**t).collect();
    assert_eq!(
        path,
        ["03 - Main Actions", "Attack a Unit", "Resolve Damage"]
    );
    assert_eq!(
        common::app()
            .corpus
            .get("ashes:attack-a-phoenixborn.3")
            .unwrap()
            .title,
        "Declare Blockers"
    );
    // TI4: front matter, transparent "Rules Reference", Notes.
    assert!(text("ti4:action-phase.4.1").starts_with("During a three–player or four–player game"));
    assert_eq!(
        text("ti4:action-phase.notes.2"),
        "Any abilities that occur at the end of an action happen before any abilities that occur at the end of a player’s turn."
    );
    assert!(
        text("ti4:action-phase").starts_with("During the action phase, each player takes a turn")
    );
}

#[test]
fn numbered_sections_and_unnumbered_subheadings() {
    assert!(
        text("magewinds:13.1")
            .starts_with("When performing an action, a fighter may make a step move of up to 1”")
    );
    assert!(text("magewinds:13.1").contains("Hint: A step move can be used"));
    assert_eq!(
        text("magewinds:13.3.2"),
        "The step move must occur after the effects of the reaction have been resolved, instead of before."
    );
    assert!(text("magewinds:13.4.move-action").contains("Movement attribute minus 2"));
    assert!(
        common::app()
            .corpus
            .get("magewinds:13.0")
            .unwrap()
            .children
            .len()
            >= 5
    );
}

#[test]
fn bullets_sub_bullets_and_continuations() {
    let c = &common::app().corpus;
    let moves: Vec<&str> = (1..=7)
        .map(|i| {
            c.get(&format!("legion:actions.1.{i}"))
                .unwrap()
                .text
                .as_str()
        })
        .collect();
    assert_eq!(
        moves,
        [
            "Move",
            "Attack",
            "Aim",
            "Dodge",
            "Standby",
            "Recover",
            "Card Action"
        ]
    );
    assert!(text("legion:actions.3.1").starts_with("Each card action is a unique action"));
    // "For example, Darth Vader…" continues bullet 7.
    assert!(text("legion:actions.7").contains("For example, Darth Vader performs a move action"));
    // Image names are markup: "(Card Action icon-2.png)" is dropped.
    assert_eq!(
        text("legion:actions.3"),
        "If an ability is preceded by a card action icon, that ability is a card action."
    );
    // The attribution footer lives in the manifest, not the index.
    assert!(
        !c.passages
            .iter()
            .any(|p| p.text.contains("Community content is available"))
    );
}

#[test]
fn gitbook_hints_entities_mojibake_and_emphasis_are_cleaned() {
    let c = &common::app().corpus;
    assert!(
        text("grand-archive:general-rules.3").contains("champion’s intent"),
        "mojibake repaired"
    );
    assert_eq!(
        text("grand-archive:declaring-an-attack.1.1"),
        "The steps must be followed in order, but are considered to all happen at the same time."
    );
    let example = text("grand-archive:declaring-an-attack.example-1");
    assert!(example.starts_with("E.g., If a player under the effect of an opponent's Tariff Ring"));
    assert!(
        !example.contains("<img") && !example.contains("http"),
        "{example}"
    );
    assert!(
        text("ashes:attack-a-unit.3")
            .contains("Note: A Phoenixborn can guard even if it is exhausted.")
    );
    for p in &c.passages {
        for bad in ["**", "&#x", "â€", "{%", "<img", "![]("] {
            assert!(
                !p.text.contains(bad),
                "{} still holds markup {bad:?}: {}",
                p.id,
                p.text
            );
        }
    }
}

#[test]
fn cross_references_resolve_or_stay_labelled() {
    let c = &common::app().corpus;
    let refs = &c.get("magewinds:13.1").unwrap().refs;
    assert!(
        refs.iter()
            .any(|r| r.label.starts_with("See 15.0") && r.target.is_none()),
        "{refs:?}"
    );
    let refs = &c.get("grand-archive:declaring-an-attack.1.3").unwrap().refs;
    assert!(
        refs.iter()
            .any(|r| r.target.as_deref() == Some("grand-archive:declaring-an-attack.2.1")),
        "{refs:?}"
    );
    let related = &c.get("ti4:action-phase.related-topics").unwrap().refs;
    assert_eq!(related.len(), 7);
    assert!(
        related.iter().all(|r| r.target.is_none()),
        "those LRR entries are not indexed"
    );
    let refs = &c.get("ashes:pay-a-cost").unwrap().refs;
    assert!(
        refs.iter()
            .any(|r| r.label == "page 10" && r.target.is_none()),
        "{refs:?}"
    );
    assert_eq!(
        c.get("legion:actions.related-topics").unwrap().refs.len(),
        14
    );
}

#[test]
fn ids_are_unique_and_resolve_as_typed() {
    let c = &common::app().corpus;
    let mut seen = std::collections::HashSet::new();
    for p in &c.passages {
        assert!(seen.insert(&p.id), "duplicate id {}", p.id);
        assert!(p.id.starts_with(&format!("{}:", p.game)));
        assert!(!p.id.contains(' '), "ids are typable: {}", p.id);
    }
    assert_eq!(
        c.resolve_id("GA:General-Rules.1").map(|p| p.id.as_str()),
        Some("grand-archive:general-rules.1")
    );
    assert_eq!(
        c.resolve_id("13.4").map(|p| p.id.as_str()),
        Some("magewinds:13.4")
    );
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
#[ignore = "needs ../shared/corpora (the MTG Comprehensive Rules; .ci/run runs it)"]
fn mtg_comprehensive_rules_index_with_rule_numbers_as_ids() {
    let path = common::mtg_text_path();
    if !path.is_file() {
        panic!("the MTG corpus is expected at {}", path.display());
    }
    let games = load::load_dir(&common::mtg_dir()).unwrap();
    let c = Corpus::build(games);
    assert!(
        c.warnings.is_empty(),
        "{:?}",
        &c.warnings[..c.warnings.len().min(5)]
    );
    let p = c.get("mtg:702.19b").unwrap();
    assert!(
        p.text.starts_with(
            "The controller of an attacking creature with trample first assigns damage"
        )
    );
    assert!(
        p.text
            .contains("Example: A 2/2 creature that can block an additional creature")
    );
    assert_eq!(
        c.get("mtg:702.19b")
            .unwrap()
            .parent
            .map(|i| c.passages[i].id.as_str()),
        Some("mtg:702.19")
    );
    assert_eq!(c.get("mtg:100").unwrap().title, "General");
    assert!(
        c.get("mtg:glossary.trample")
            .unwrap()
            .text
            .contains("See rule 702.19")
    );
    let rules = c
        .passages
        .iter()
        .filter(|p| {
            p.id.split(':')
                .nth(1)
                .is_some_and(|r| r.starts_with(|ch: char| ch.is_ascii_digit()))
        })
        .count();
    assert!(rules > 2700, "{rules} numbered passages");
    // Cross-references between rules resolve.
    assert!(
        c.get("mtg:100.2a")
            .unwrap()
            .refs
            .iter()
            .any(|r| r.target.as_deref() == Some("mtg:201.3"))
    );
}

#[test]
fn unreadable_and_non_utf8_files_are_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("manifest.yaml"),
        "game: house\nname: House Rules\ndocuments:\n  - {file: rules.md, slug: rules, title: House}\n",
    )
    .unwrap();
    let err = load::load_dir(dir.path()).unwrap_err().to_string();
    assert!(err.contains("rules.md"), "{err}");
    std::fs::write(
        dir.path().join("rules.md"),
        b"### Ok\n\nfine \xff\xfe bytes",
    )
    .unwrap();
    let err = load::load_dir(dir.path()).unwrap_err().to_string();
    assert!(err.contains("rules.md") && err.contains("UTF-8"), "{err}");
    std::fs::write(dir.path().join("manifest.yaml"), "game: [unclosed\n").unwrap();
    let err = load::load_dir(dir.path()).unwrap_err().to_string();
    assert!(
        err.contains("manifest.yaml") && err.contains("line"),
        "{err}"
    );
}

#[test]
fn an_extra_directory_adds_a_game_without_code() {
    let (app, _dir) = common::app_with_folder(&[
        (
            "manifest.yaml",
            "game: house\nname: House Rules\naliases: [HR]\ndocuments:\n  - {file: rules.md, slug: rules, title: House Rules}\n",
        ),
        (
            "rules.md",
            "### Mulligans\n\n1. Each player may mulligan once.\n",
        ),
    ]);
    let reply = app
        .ask("how many times can I mulligan", Some("HR"), 3)
        .unwrap();
    assert_eq!(reply.game.as_deref(), Some("house"));
    assert!(
        ["house:mulligans", "house:mulligans.1"].contains(&reply.results[0].id.as_str()),
        "{:?}",
        reply.results
    );
}

#[test]
fn a_document_that_does_not_parse_cleanly_is_indexed_with_warnings() {
    let c = one_doc(
        "x",
        "### A\n\n1. One\n1. Again\n{% hint style=\"info\" %}\nNever closed\n",
        |_| {},
    );
    assert!(c.get("x:a.1").is_some());
    assert_eq!(
        c.get("x:a.2").map(|p| p.text.as_str()),
        Some("Again"),
        "lazy numbering falls back to position"
    );
    assert!(
        c.get("x:a.hint-1").is_some(),
        "the unclosed hint is still indexed"
    );
    assert!(!c.warnings.is_empty(), "an unclosed hint is reported");
    let c = one_doc("x", "---\ntitle: broken front matter\n### A\n", |_| {});
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("front matter")),
        "{:?}",
        c.warnings
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
    /// Parsing never fails and never panics, whatever the text.
    #[test]
    fn parsing_never_panics(text in "(\\PC|\n|#|•|»|>|\\{% hint %\\}|\\{% endhint %\\}|  |1\\. |2\\. |5\\.1 |13\\.1 - |100\\.1a |a\\) |see rule\n|&#x20;|â€™|\\*\\*){0,200}") {
        for format in [arbiter::corpus::DocumentFormat::Markdown, arbiter::corpus::DocumentFormat::Numbered] {
            let c = one_doc("p", &text, |m| m.format = format);
            for p in &c.passages {
                proptest::prop_assert!(c.get(&p.id).is_some());
            }
        }
    }
}

/// A document of one passage is listed "(1 passage)", not "(1 passages)".
#[test]
fn a_one_passage_document_is_counted_in_the_singular() {
    let app = arbiter::app::App::new(one_doc("tiny", "Roll a die.\n", |_| {}));
    let reply = app.rules(Some("tiny")).unwrap();
    assert_eq!(reply.games[0].documents[0].passages, 1, "one passage");
    let listed = arbiter::render::text::rules(&reply, 0);
    assert!(listed.contains("(1 passage)"), "{listed}");
}
