//! `arbiter import`: conversion of Markdown, numbered text, HTML and PDF into
//! indexed passages, the preview, and refusals of bad input.

use crate::common;
use crate::pdf;

use std::collections::BTreeMap;
use std::process::{Command, Output, Stdio};

use arbiter::corpus::import::{Import, ImportError, ImportRequest, MAX_IMPORT_BYTES, SourceFormat};
use arbiter::corpus::{Corpus, DocumentFormat, DocumentKind, PassageKind};
use proptest::prelude::*;

fn shipped(path: &str) -> Vec<u8> {
    std::fs::read(common::repo().join(path)).expect("shipped document")
}

fn import_as(
    file: &str,
    bytes: &[u8],
    game: &str,
    kind: DocumentKind,
) -> Result<Import, ImportError> {
    common::app().import(&ImportRequest {
        file_name: file,
        bytes,
        game,
        kind,
        title: None,
    })
}

/// Passage texts by id without the game and document prefix, from an import.
/// A text's words, whitespace aside.
fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

fn texts_of_import(imp: &Import) -> BTreeMap<String, String> {
    ordered_texts(imp).into_iter().collect()
}

/// The same for a shipped document of a shipped game.
fn texts_of_shipped(game: &str) -> BTreeMap<String, String> {
    let prefix = format!("{game}:");
    common::app()
        .corpus
        .passages
        .iter()
        .filter(|p| p.game == game && p.kind != PassageKind::Document)
        .map(|p| (p.id.trim_start_matches(&prefix).to_string(), p.text.clone()))
        .collect()
}

#[test]
fn numbered_text_imports_as_the_shipped_parse_does() {
    let bytes = shipped("rules_data/magewinds/core-rules-13-action-phase.txt");
    let imp = import_as(
        "core-rules.txt",
        &bytes,
        "Magewinds Homebrew",
        DocumentKind::Rules,
    )
    .unwrap();
    let p = &imp.preview;
    assert!(p.new_game);
    assert_eq!(p.game, "magewinds-homebrew");
    assert_eq!(p.format, DocumentFormat::Numbered);
    assert_eq!(p.source_format, SourceFormat::Text);
    // A new game's rules keep the document's own numbers as ids.
    assert_eq!(texts_of_import(&imp), texts_of_shipped("magewinds"));
    assert!(p.passages.iter().any(|e| e.id == "magewinds-homebrew:13.1"));
}

#[test]
fn a_title_naming_a_live_section_takes_a_slug_of_its_own() {
    // "Attack a Unit" is a shipped Ashes section (`ashes:attack-a-unit`):
    // a house rule titled so must neither take its ids nor shadow it.
    let app = common::app();
    assert!(app.corpus.get("ashes:attack-a-unit").is_some());
    let imp = app
        .import(&ImportRequest {
            file_name: "shadow.txt",
            bytes: b"3. Declare a Guard: any player may guard.\n4. Resolve Damage: all damage is doubled.\n",
            game: "ashes",
            kind: DocumentKind::House,
            title: Some("Attack a Unit"),
        })
        .unwrap();
    let p = &imp.preview;
    assert_eq!(p.document, "attack-a-unit-2");
    assert!(
        p.warnings.iter().all(|w| !w.contains("already exist")),
        "{:?}",
        p.warnings
    );
    // What is stored is what the preview listed, and none of it is live.
    let mut games = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    games.push(imp.game.clone());
    let corpus = Corpus::build(games);
    for e in &p.passages {
        assert!(app.corpus.get(&e.id).is_none(), "{} is live", e.id);
        assert!(corpus.get(&e.id).is_some(), "{} is not stored", e.id);
    }
    let root = corpus.get("ashes:attack-a-unit").unwrap();
    assert_eq!(root.kind, PassageKind::Section, "the shipped section stays");
}

#[test]
fn numbered_house_rules_under_a_known_game_resolve_their_own_references() {
    // "see 1.2" in the house rules is their own 1.2, under the slug prefix.
    let txt = "Kitchen Table House Rules\n\n1. Setup\n1.1. Each player starts with 7 cards.\n1.2. The youngest player goes first.\n2. Turns\n2.1. A player may mulligan once.\n2.2. Turn time is limited to 3 minutes; see 1.2 for who starts.\n";
    let imp = common::app()
        .import(&ImportRequest {
            file_name: "house.txt",
            bytes: txt.as_bytes(),
            game: "ashes",
            kind: DocumentKind::House,
            title: Some("Kitchen"),
        })
        .unwrap();
    let mut games = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    games.push(imp.game.clone());
    let corpus = Corpus::build(games);
    let p = corpus.get("ashes:kitchen.2.2").expect("ashes:kitchen.2.2");
    let see = p.refs.iter().find(|r| r.label.contains("1.2")).unwrap();
    assert_eq!(
        see.target.as_deref(),
        Some("ashes:kitchen.1.2"),
        "{:?}",
        p.refs
    );
}

#[test]
fn markdown_extending_a_known_game_takes_no_live_id() {
    let bytes = shipped("rules_data/ti4/action-phase.md");
    let imp = common::app()
        .import(&ImportRequest {
            file_name: "action-phase.md",
            bytes: &bytes,
            game: "Twilight Imperium",
            kind: DocumentKind::House,
            title: Some("Our table's rules"),
        })
        .unwrap();
    let p = &imp.preview;
    assert!(!p.new_game, "an alias of a shipped game extends it");
    assert_eq!(p.game, "ti4");
    assert_eq!(p.document, "our-tables-rules");
    assert_eq!(p.kind, DocumentKind::House);
    assert!(p.passages.len() > 10, "{:?}", p.passages);
    for e in &p.passages {
        assert!(e.id.starts_with("ti4:our-tables-rules."), "{}", e.id);
        assert!(
            common::app().corpus.get(&e.id).is_none(),
            "{} is live",
            e.id
        );
    }
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // Loaded beside the shipped game, it extends it: both documents are there.
    let mut games = arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap();
    games.push(imp.game.clone());
    let corpus = Corpus::build(games);
    let ti4 = corpus.game("ti4").unwrap();
    assert_eq!(ti4.documents.len(), 2);
    assert_eq!(ti4.documents[1].kind, DocumentKind::House);
    assert!(corpus.get("ti4:action-phase.4.1").is_some());
    assert!(corpus.get(&p.passages[0].id).is_some());
}

#[test]
fn html_pages_become_sections_and_items_without_page_chrome() {
    let html = r#"<!DOCTYPE html><html><head><title>FAQ</title><style>h1{color:red}</style>
<script>var tracking = "never indexed";</script></head><body>
<nav><a href="/">Home</a></nav>
<h1>Frequently Asked Questions</h1>
<h2>Combat</h2>
<p>Damage is dealt <b>simultaneously</b> &amp; at once.</p>
<ol><li>Declare the attack.</li><li>Roll the dice.</li></ol>
<h2>Movement</h2>
<ul><li>Units move one at a time.</li><li>Terrain costs 2.</li></ul>
</body></html>"#;
    let imp = import_as("faq.html", html.as_bytes(), "Skirmish", DocumentKind::Faq).unwrap();
    let p = &imp.preview;
    assert_eq!(p.source_format, SourceFormat::Html);
    let texts = texts_of_import(&imp);
    let headings: Vec<&str> = p.headings().map(|e| e.title.as_str()).collect();
    assert_eq!(
        headings,
        ["Frequently Asked Questions", "Combat", "Movement"]
    );
    let all: String = texts.values().cloned().collect::<Vec<_>>().join("\n");
    assert!(
        all.contains("Damage is dealt simultaneously & at once."),
        "{all}"
    );
    assert!(all.contains("Roll the dice."), "{all}");
    assert!(
        !all.contains("tracking") && !all.contains("color:red") && !all.contains("Home"),
        "{all}"
    );
    let items = p
        .passages
        .iter()
        .filter(|e| e.kind == PassageKind::Item)
        .count();
    assert_eq!(items, 4);
}

#[test]
fn pdf_of_numbered_rules_reads_back_as_the_same_passages() {
    let text = String::from_utf8(shipped(
        "rules_data/magewinds/core-rules-13-action-phase.txt",
    ))
    .unwrap();
    let bytes = pdf::from_text(&text);
    let imp = import_as(
        "rules.pdf",
        &bytes,
        "Magewinds Homebrew",
        DocumentKind::Rules,
    )
    .unwrap();
    assert_eq!(imp.preview.source_format, SourceFormat::Pdf);
    assert_eq!(imp.preview.format, DocumentFormat::Numbered);
    assert_eq!(texts_of_import(&imp), texts_of_shipped("magewinds"));
}

/// Numbered rules with a rule reference ("see rule 107.8") in a long
/// line and a glossary with numbered definitions after it.
const WRAP_TEST: &str = "\
Rules

100. General

100.1. These rules apply to any game with two or more players.

100.1a A leveler has striated text boxes. For how its symbols work, see rule 107.8 and rule 711, \"Leveler Cards.\"

100.2. Some cards require coins or dice.
Example: A player rolls a die.

107. Numbers and Symbols

107.8. The text box of a leveler card contains two level symbols.

Glossary

Ability
1. Text on an object that explains what that object does or can do.
2. An activated or triggered ability on the stack. This kind of ability is an object.
See rule 113, \"Abilities.\"

Level Up
A keyword ability that can put level counters on a creature. See rule 702.87, \"Level Up.\"
";

/// Numbered rules wrapped as a page wraps them: a printed line that starts
/// with a rule number ("See rule" / "107.8 and rule 711.") is the
/// paragraph going on, not rule 107.8, and the glossary's "1." lines after
/// it stay in their entries (an outside tester's MTG PDF lost every
/// glossary entry from "Level Up" on and nested 34 deep).
#[test]
fn pdf_with_wrapped_lines_reads_back_as_the_same_passages() {
    let text = WRAP_TEST;
    // Wrapped just before "107.8": a printed line starts with a number.
    let long = text.lines().find(|l| l.contains("see rule 107.8")).unwrap();
    let columns = long.find(" 107.8").unwrap();
    let wrapped = text
        .lines()
        .flat_map(|l| pdf::wrap(l, columns))
        .collect::<Vec<_>>();
    assert!(wrapped.iter().any(|l| l.starts_with("107.8 and rule 711")));
    let from_text = import_as(
        "rules.txt",
        text.as_bytes(),
        "Wrap Test",
        DocumentKind::Rules,
    )
    .unwrap();
    let from_pdf = import_as(
        "rules.pdf",
        &pdf::from_text_wrapped(text, columns),
        "Wrap Test",
        DocumentKind::Rules,
    )
    .unwrap();
    assert_eq!(from_pdf.preview.format, DocumentFormat::Numbered);
    let texts = texts_of_import(&from_pdf);
    assert_eq!(texts, texts_of_import(&from_text));
    assert!(texts.contains_key("glossary.level-up"), "{texts:?}");
    assert!(
        texts["100.1a"].ends_with("see rule 107.8 and rule 711, \"Leveler Cards.\""),
        "{texts:?}"
    );
}

/// The same rules hard-wrapped in a text file (as text copied from a PDF
/// or an email is): the same passages, the wrapped lines kept as lines.
#[test]
fn text_with_hard_wrapped_lines_keeps_its_passages() {
    let long = WRAP_TEST
        .lines()
        .find(|l| l.contains("see rule 107.8"))
        .unwrap();
    let columns = long.find(" 107.8").unwrap();
    let wrapped = WRAP_TEST
        .lines()
        .flat_map(|l| pdf::wrap(l, columns))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(wrapped.contains("\n107.8 and rule 711"), "{wrapped}");
    let plain = texts_of_import(
        &import_as(
            "rules.txt",
            WRAP_TEST.as_bytes(),
            "Wrap Test",
            DocumentKind::Rules,
        )
        .unwrap(),
    );
    let hard = texts_of_import(
        &import_as(
            "rules.txt",
            wrapped.as_bytes(),
            "Wrap Test",
            DocumentKind::Rules,
        )
        .unwrap(),
    );
    assert_eq!(
        hard.keys().collect::<Vec<_>>(),
        plain.keys().collect::<Vec<_>>()
    );
    assert!(
        hard["100.1a"].ends_with("see rule\n107.8 and rule 711, \"Leveler Cards.\""),
        "{hard:?}"
    );
    assert!(
        hard["glossary.ability"].contains("\n2. An activated"),
        "{hard:?}"
    );
}

/// The shipped wiki text as the wiki shows it: its manifest leaves out its
/// icons' leftovers ("(Card Action icon-2.png)"), which in an upload are
/// words (`drop_image_names`).
fn wiki_text() -> String {
    String::from_utf8(shipped("rules_data/legion/actions.txt"))
        .unwrap()
        .replace(" (Card Action icon-2.png)", "")
        .replace(" (Card Action icon.png)", "")
}

#[test]
fn pdf_of_a_wiki_page_keeps_its_bullets_and_headings() {
    let text = wiki_text();
    let imp = import_as(
        "actions.pdf",
        &pdf::from_text(&text),
        "legion",
        DocumentKind::Rules,
    )
    .unwrap();
    let p = &imp.preview;
    assert_eq!(p.format, DocumentFormat::Markdown);
    let shipped_items = texts_of_shipped("legion");
    let imported = texts_of_import(&imp);
    // Every shipped passage text comes back, under the document's own ids.
    for (id, t) in &shipped_items {
        let ours = id.replacen("actions.", "actions-2.", 1);
        assert_eq!(imported.get(&ours), Some(t), "{id}");
    }
}

#[test]
fn pdf_at_wide_line_spacing_reads_back_as_the_same_passages() {
    // 1.5 spacing and more (as fpdf2 and word processors set it): lines
    // further apart than 1.5 font sizes are still one paragraph; only a
    // gap clearly wider than the document's own spacing is a paragraph.
    let text = wiki_text();
    let shipped_items = texts_of_shipped("legion");
    for (leading, blank) in [(15.0, 6.0), (17.0, 8.0), (20.0, 8.0)] {
        let pdf = pdf::from_text_spaced(&text, leading, blank);
        let imp = import_as("actions.pdf", &pdf, "legion", DocumentKind::Rules).unwrap();
        let imported = texts_of_import(&imp);
        for (id, t) in &shipped_items {
            let ours = id.replacen("actions.", "actions-2.", 1);
            assert_eq!(imported.get(&ours), Some(t), "{id} at leading {leading}");
        }
    }
}

#[test]
fn a_pdf_without_text_is_refused_as_a_scan() {
    let err = import_as(
        "scan.pdf",
        &pdf::without_text(3),
        "ti4",
        DocumentKind::Rules,
    )
    .unwrap_err();
    assert!(matches!(err, ImportError::NoTextLayer { .. }), "{err}");
    assert!(err.to_string().contains("OCR"), "{err}");
}

#[test]
fn oversized_empty_binary_and_non_utf8_files_are_refused_plainly() {
    let big = vec![b'a'; MAX_IMPORT_BYTES + 1];
    let err = import_as("big.md", &big, "ti4", DocumentKind::Rules).unwrap_err();
    // One byte over is said so, in exact bytes (it read "is 5120 KB;
    // documents over 5 MB are refused", as if at the limit).
    assert!(
        err.to_string()
            .contains("is 5,242,881 bytes, 1 byte over the limit of 5 MB (5,242,880 bytes)"),
        "{err}"
    );
    let err = import_as("empty.md", b"", "ti4", DocumentKind::Rules).unwrap_err();
    assert_eq!(
        err,
        ImportError::Empty {
            file: "empty.md".into()
        }
    );
    // White space, a byte-order mark and tabs (UTF-8 or UTF-16): no text.
    for (kind, bytes) in [
        (DocumentKind::Rules, &b"  \n\n"[..]),
        (DocumentKind::House, &b"\xef\xbb\xbf  \n\t\n \r\n"[..]),
        (DocumentKind::Errata, &b"\xef\xbb\xbf"[..]),
        (DocumentKind::Rules, &b"\xff\xfe \x00\t\x00\xa0\x00"[..]),
    ] {
        let err = import_as("ws.md", bytes, "ti4", kind).unwrap_err();
        assert_eq!(
            err,
            ImportError::Blank {
                file: "ws.md".into()
            },
            "{bytes:?}"
        );
    }
    let err = import_as(
        "card.png",
        b"\x89PNG\r\n\x1a\nrest",
        "ti4",
        DocumentKind::Rules,
    )
    .unwrap_err();
    assert!(err.to_string().contains("a PNG image"), "{err}");
    let err = import_as("rules.docx", b"PK\x03\x04....", "ti4", DocumentKind::Rules).unwrap_err();
    assert!(err.to_string().contains("ZIP"), "{err}");
    // Text that is not UTF-8 is read as Windows-1252 (Latin-1), and UTF-16
    // with its byte-order mark as UTF-16, each said in the preview (both
    // were refused: one as not UTF-8, the other as a binary file).
    let imp = import_as("latin1.txt", b"Caf\xe9 rules", "ti4", DocumentKind::Rules).unwrap();
    assert_eq!(imp.game.documents[0].text, "Café rules");
    assert!(
        imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("read as Windows-1252"))
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "# Rules\n\n1. Café.\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let imp = import_as("utf16.md", &utf16, "ti4", DocumentKind::House).unwrap();
    let texts = texts_of_import(&imp);
    assert_eq!(
        texts.get("utf16.rules.1").map(String::as_str),
        Some("Café."),
        "{texts:?}"
    );
    assert!(imp.preview.warnings.iter().any(|w| w.contains("UTF-16")));
    let err = import_as("fake.pdf", b"hello", "ti4", DocumentKind::Rules).unwrap_err();
    assert!(matches!(err, ImportError::BadPdf { .. }), "{err}");
    let err = import_as("x.md", b"# A\ntext", "!!!", DocumentKind::Rules).unwrap_err();
    assert!(matches!(err, ImportError::BadGame(_)), "{err}");
}

/// Old Mac line endings (a lone CR) break lines, as CRLF does: a heading
/// no longer runs into its rule, nor a section vanishes; hidden characters
/// (an escape sequence that retitles a terminal, a NUL PostgreSQL refuses,
/// a direction override) are not kept, in the text or the title (found by
/// an outside tester).
#[test]
fn line_breaks_of_any_kind_and_no_hidden_characters() {
    let md = b"## Setup\r1. Shuffle the deck.\r\r## Turns\r\r1. Take a turn.\r";
    let imp = import_as("eol.md", md, "ti4", DocumentKind::House).unwrap();
    let texts = texts_of_import(&imp);
    assert_eq!(
        texts.get("eol.setup.1").map(String::as_str),
        Some("Shuffle the deck."),
        "{texts:?}"
    );
    assert_eq!(
        texts.get("eol.turns.1").map(String::as_str),
        Some("Take a turn."),
        "{texts:?}"
    );
    let txt = "# Rules \u{1b}]0;PWNED\u{7}\u{1b}[2J\n\n1. Pay \u{202e}two\u{85} energy.\n";
    let imp = common::app()
        .import(&ImportRequest {
            file_name: "esc.md",
            bytes: txt.as_bytes(),
            game: "ti4",
            kind: DocumentKind::House,
            title: Some("Ours"),
        })
        .unwrap();
    let all: String = imp.game.documents.iter().map(|d| d.text.clone()).collect();
    assert!(!all.chars().any(|c| c.is_control() && c != '\n'), "{all:?}");
    assert!(!all.contains('\u{202e}'), "{all:?}");
    assert!(all.contains("Pay two energy."), "{all:?}");
}

/// A control character or an invisible one in a game's name or a given
/// title is refused with its column: taken out, it left its visible rest
/// (`--game $'\x1b[2J\x1b[31mAshes'` became the game "[2J[31mAshes";
/// found by an outside tester).
#[test]
fn hidden_characters_in_a_game_name_or_title_are_refused_with_their_column() {
    let file = b"1. Setup\n\n1.1. Each player draws seven cards.\n";
    let cases = [
        ("\u{1b}[2J\u{1b}[31mAshes", None, "game's name", 1, "U+001B"),
        ("Kitchen \u{202e}Table", None, "game's name", 9, "U+202E"),
        ("Kitchen\u{200b}Table", None, "game's name", 8, "U+200B"),
        ("ti4", Some("Ours\u{1b}[2J"), "title", 5, "U+001B"),
    ];
    for (game, title, want_field, want_column, want_code) in cases {
        let err = common::app()
            .import(&ImportRequest {
                file_name: "house.txt",
                bytes: file,
                game,
                kind: DocumentKind::Rules,
                title,
            })
            .unwrap_err();
        match &err {
            ImportError::HiddenCharacter {
                field,
                column,
                code,
                ..
            } => {
                assert_eq!(
                    (field.as_str(), *column),
                    (want_field, want_column),
                    "{game:?}"
                );
                assert_eq!(code, want_code, "{game:?}");
            }
            other => panic!("{game:?}: {other}"),
        }
        assert!(
            err.to_string().contains(&format!("column {want_column}")),
            "{err}"
        );
    }
}

/// A new game's name that reads as a loaded game's (a Cyrillic А in
/// "Ashes Reborn") is refused, naming the game it imitates and how to
/// add to it (it became a new game cited as "Аshes Reborn › Rules";
/// found by an outside tester); a name of its own is a new game.
#[test]
fn a_new_game_name_that_looks_like_a_loaded_game_is_refused() {
    let file = b"1. Setup\n\n1.1. Each player draws seven cards.\n";
    let import = |game: &str| {
        common::app().import(&ImportRequest {
            file_name: "house.txt",
            bytes: file,
            game,
            kind: DocumentKind::Rules,
            title: None,
        })
    };
    for game in ["\u{0410}shes Reborn", "\u{0430}SHES REBORN", "\u{0430}shes"] {
        let err = import(game).unwrap_err();
        match &err {
            ImportError::GameLookalike { imitates, id, .. } => {
                assert_eq!((imitates.as_str(), id.as_str()), ("Ashes Reborn", "ashes"))
            }
            other => panic!("{game:?}: {other}"),
        }
        assert!(err.to_string().contains("--game ashes"), "{err}");
    }
    let imp = import("Ashes Rising").unwrap();
    assert!(imp.preview.new_game);
}

/// Quotes are the document's words: plain text is not read as Markdown
/// ("2*3*4" stayed "234", "# of cards" became a heading, "&amp;" an "&"),
/// marks between letters or digits are no emphasis, and an HTML
/// converter's backslash escapes do not show (found by an outside tester).
#[test]
fn quotes_keep_the_documents_own_marks() {
    let txt = "Costs\n\nPay 2*3*4 energy for a *special* unit and __init__ tokens.\n# of cards is <7> and [x](y) link, &amp; entity.\n";
    let imp = import_as("verb.txt", txt.as_bytes(), "ti4", DocumentKind::House).unwrap();
    // No structure: the document's own passage holds the text.
    let built = Corpus::build(vec![imp.game.clone()]);
    let all: Vec<&str> = built.passages.iter().map(|p| p.text.as_str()).collect();
    let all = all.join("\n");
    for want in [
        "Pay 2*3*4 energy for a *special* unit and __init__ tokens.",
        "# of cards is <7> and [x](y) link, &amp; entity.",
    ] {
        assert!(all.contains(want), "`{want}` not in {all:?}");
    }
    let md = "# Scoring\n\n1. Damage is 2*3*4 minus snake_case_value; **bold** stays words.\n";
    let imp = import_as("verb.md", md.as_bytes(), "ti4", DocumentKind::House).unwrap();
    let texts = texts_of_import(&imp);
    assert_eq!(
        texts.get("verb.scoring.1").map(String::as_str),
        Some("Damage is 2*3*4 minus snake_case_value; bold stays words."),
        "{texts:?}"
    );
    let html = "<html><body><h1>Costs</h1><ol><li>Pay 2*3*4 energy [brackets] and under_score.</li></ol></body></html>";
    let imp = import_as("esc.html", html.as_bytes(), "ti4", DocumentKind::House).unwrap();
    let all: String = texts_of_import(&imp).into_values().collect();
    assert!(
        all.contains("Pay 2*3*4 energy [brackets] and under_score."),
        "{all:?}"
    );
    assert!(!all.contains('\\'), "{all:?}");
}

/// An FAQ for a game nobody added the rules of amends nothing: the preview
/// says it starts a game of its own (it did so silently).
#[test]
fn an_faq_for_a_game_with_no_rulebook_is_said_to_start_its_own() {
    let imp = import_as(
        "gloom.md",
        b"# FAQ\n\n1. Q: A?\n",
        "Gloomhaven",
        DocumentKind::Faq,
    )
    .unwrap();
    assert!(imp.preview.new_game);
    assert!(
        imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("no game here is named “Gloomhaven”")),
        "{:?}",
        imp.preview.warnings
    );
    let imp = import_as(
        "ti4faq.md",
        b"# FAQ\n\n1. Q: A?\n",
        "ti4",
        DocumentKind::Faq,
    )
    .unwrap();
    assert!(
        !imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("no game here"))
    );
}

/// A passage past the most one may hold is split into parts, verbatim, and
/// the preview says so: a one-line 100,000-character document made every
/// question slow for every server (found by an outside tester).
#[test]
fn an_enormous_passage_is_split_into_parts() {
    let text = format!(
        "# Rules\n\n{}\n",
        "Each player draws one card. ".repeat(4_000)
    );
    let imp = import_as("flat.md", text.as_bytes(), "ti4", DocumentKind::House).unwrap();
    let texts = texts_of_import(&imp);
    let parts: Vec<&String> = texts
        .iter()
        .filter(|(id, _)| id.starts_with("flat.rules.part-"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(parts.len(), 19, "{:?}", texts.keys().collect::<Vec<_>>());
    assert!(parts.iter().all(|t| t.chars().count() <= 6_000));
    assert!(
        imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("split into 19 parts")),
        "{:?}",
        imp.preview.warnings
    );
}

#[test]
fn previews_warn_of_duplicates_missing_structure_and_stray_lines() {
    let dup = "100. General\n\n100.1. First rule.\n\n100.1. The same number again.\n";
    let p = import_as("dup.txt", dup.as_bytes(), "dupgame", DocumentKind::Rules)
        .unwrap()
        .preview;
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("line 5") && w.contains("duplicate passage id dupgame:100.1")),
        "{:?}",
        p.warnings
    );
    let flat = "just some words\nwith no structure at all\n";
    let p = import_as("flat.txt", flat.as_bytes(), "flat", DocumentKind::Rules)
        .unwrap()
        .preview;
    // The whole document is its one passage, counted as one.
    assert_eq!(p.passages.len(), 1, "{:?}", p.passages);
    assert!(
        p.warnings
            .iter()
            .any(|w| w.starts_with("no recognisable structure")),
        "{:?}",
        p.warnings
    );
    let stray = "An intro line.\n\n# Heading\n\nBody.\n";
    let p = import_as("s.md", stray.as_bytes(), "stray", DocumentKind::Rules)
        .unwrap()
        .preview;
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("1 line comes before any heading") && w.contains("An intro line.")),
        "{:?}",
        p.warnings
    );
}

/// PDFs every desktop viewer opens though their cross-reference table does
/// not lead to their objects (found by outside testers; the parser refused
/// them with its own words, "Xref(Start)", or lost their pages): bytes
/// after `%%EOF`, line endings changed to CRLF (every offset and stream
/// length moved), wrong offsets in the table, `startxref` pointing
/// elsewhere. Each is made here from a good PDF and reads as the good one
/// does; a PDF damaged past reading is refused in plain words.
#[test]
fn damaged_but_readable_pdfs_read_as_the_good_one() {
    let text = "1. Setup\n\n1.1 Shuffle the deck and deal five cards.\n\n2. Turns\n\n2.1 Take a turn, then pass.\n";
    let good = pdf::from_text(text);
    let want = texts_of_import(&import_as("good.pdf", &good, "ti4", DocumentKind::House).unwrap());
    assert!(want.len() >= 4, "{want:?}");
    let xref = find(&good, b"\nxref\n") + 1;
    let mut trailing = good.clone();
    trailing
        .extend(std::iter::repeat_n(b"garbage after the end \x00\xff\n".as_slice(), 100).flatten());
    let crlf: Vec<u8> = good
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    // Every object's offset in the table 7 bytes too far.
    let table = String::from_utf8_lossy(&good[xref..]).into_owned();
    let shifted_table: String = table
        .lines()
        .map(|l| match l.strip_suffix(" 00000 n ") {
            Some(offset) => format!("{:010} 00000 n ", offset.parse::<usize>().unwrap() + 7),
            None => l.to_string(),
        })
        .map(|l| l + "\n")
        .collect();
    let mut offsets = good[..xref].to_vec();
    offsets.extend(shifted_table.as_bytes());
    let startxref = find(&good, b"startxref\n") + b"startxref\n".len();
    let mut pointer = good[..startxref].to_vec();
    pointer.extend(b"120\n%%EOF\n");
    for (shape, bytes) in [
        ("bytes after %%EOF", &trailing),
        ("CRLF line endings", &crlf),
        ("wrong xref offsets", &offsets),
        ("startxref pointing elsewhere", &pointer),
    ] {
        let imp = import_as("damaged.pdf", bytes, "ti4", DocumentKind::House)
            .unwrap_or_else(|e| panic!("{shape}: {e}"));
        let got: BTreeMap<String, String> = texts_of_import(&imp)
            .into_iter()
            .map(|(id, t)| (id.replacen("damaged.", "good.", 1), t))
            .collect();
        assert_eq!(got, want, "{shape}");
    }
    // Past reading: a PDF whose objects are gone. Plain words, and what to try.
    let mut gone = good[..15].to_vec();
    gone.extend(b"\nnothing of a PDF here\n%%EOF\n");
    let err = import_as("gone.pdf", &gone, "ti4", DocumentKind::House).unwrap_err();
    assert!(matches!(err, ImportError::BadPdf { .. }), "{err}");
    let message = err.to_string();
    assert!(message.contains("PDF printer"), "{message}");
    for jargon in [
        "xref",
        "Xref",
        "trailer",
        "startxref",
        "Parse",
        "nom",
        "Error",
    ] {
        assert!(!message.contains(jargon), "{jargon}: {message}");
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("in the PDF")
}

/// Truncations and byte flips of a real PDF: an error or a result, never a panic.
#[test]
fn corrupt_pdfs_never_panic() {
    let good = pdf::from_text("1. First\n\nSome rule text here.\n");
    for cut in (0..good.len()).step_by(7) {
        let _ = import_as("cut.pdf", &good[..cut], "ti4", DocumentKind::Rules);
    }
    for i in (0..good.len()).step_by(5) {
        let mut bad = good.clone();
        bad[i] ^= 0x5a;
        let _ = import_as("flip.pdf", &bad, "ti4", DocumentKind::Rules);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..2000), pdf_head in any::<bool>()) {
        let mut bytes = if pdf_head { b"%PDF-1.4\n".to_vec() } else { Vec::new() };
        bytes.extend(body);
        let _ = import_as("fuzz.bin", &bytes, "fuzz", DocumentKind::Rules);
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = import_as("fuzz.html", text.as_bytes(), "fuzz", DocumentKind::Rules);
        }
    }
}

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

#[test]
fn cli_import_writes_a_folder_that_rules_dir_loads() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("house");
    let src = tmp.path().join("house-rules.pdf");
    std::fs::write(&src, pdf::from_text("1. Setup\n\n1.1. Each player draws seven cards.\n\n1.2. The youngest player goes first.\n")).unwrap();
    let o = arbiter(&[
        "import",
        src.to_str().unwrap(),
        "--game",
        "Kitchen Table",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout.contains("new game Kitchen Table (kitchen-table)"),
        "{stdout}"
    );
    assert!(stdout.contains("kitchen-table:1  Setup"), "{stdout}");
    let manifest = std::fs::read_to_string(out.join("manifest.yaml")).unwrap();
    let doc = std::fs::read(out.join("house-rules.txt")).unwrap();
    assert!(
        manifest.contains(&arbiter::corpus::import::sha256_hex(&doc)),
        "{manifest}"
    );
    assert!(manifest.contains(&arbiter::corpus::import::sha256_hex(
        &std::fs::read(&src).unwrap()
    )));
    assert_eq!(
        std::fs::read_to_string(out.join("glossary.yaml")).unwrap(),
        "synonyms: {}\n"
    );

    let o = arbiter(&[
        "--rules-dir",
        out.to_str().unwrap(),
        "cite",
        "kitchen-table:1.2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("The youngest player goes first."));

    // An import into `out` that is refused (exit 2), with its message.
    let refused_into = |out: &std::path::Path| {
        let o = arbiter(&[
            "import",
            src.to_str().unwrap(),
            "--game",
            "Other",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    // A second import into the same folder is refused; the first stays intact.
    assert!(refused_into(&out).contains("already exists"));
    assert!(std::fs::read_to_string(out.join("manifest.yaml")).unwrap() == manifest);

    // A folder without a manifest but with the user's own glossary: kept,
    // and nothing written beside it.
    let mine = tmp.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(
        mine.join("glossary.yaml"),
        "synonyms:\n  pb: [phoenixborn]\n",
    )
    .unwrap();
    let err = refused_into(&mine);
    assert!(err.contains("glossary.yaml already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(mine.join("glossary.yaml")).unwrap(),
        "synonyms:\n  pb: [phoenixborn]\n"
    );
    assert!(!mine.join("manifest.yaml").exists());
    // A loaded game's name misspelt is refused with the game it meant,
    // not made a new game its documents would never reach.
    for typo in ["ashs", "Twilight Imperum"] {
        let o = arbiter(&[
            "import",
            src.to_str().unwrap(),
            "--game",
            typo,
            "--kind",
            "house",
        ]);
        assert_eq!(o.status.code(), Some(2), "{typo}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("did you mean"), "{typo}: {err}");
    }
    // Another edition, or a rulebook of a game whose name is near one,
    // starts a new game.
    for (name, kind) in [("Twilight Imperium 3", "house"), ("Legions", "rules")] {
        let o = arbiter(&[
            "import",
            src.to_str().unwrap(),
            "--game",
            name,
            "--kind",
            kind,
        ]);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("new game"),
            "{name}"
        );
    }
    // --out naming a file.
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    let err = refused_into(&file);
    assert!(err.contains("is a file, not a folder"), "{err}");
}

#[test]
fn cli_import_json_preview_and_refusal() {
    let o = arbiter(&[
        "import",
        "rules_data/ashes/03-main-actions.md",
        "--game",
        "ashes",
        "--kind",
        "errata",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["game"], "ashes");
    assert_eq!(v["kind"], "errata");
    assert_eq!(v["new_game"], false);
    assert!(v["passages"].as_array().unwrap().len() > 10);
    let o = arbiter(&["import", "Cargo.lock", "--game", "x", "--kind", "rumours"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("use one of: rules, faq, errata, house, tournament")
    );
}

#[test]
#[ignore = "needs ../shared/corpora (the MTG Comprehensive Rules; .ci/run runs it)"]
fn mtg_sized_text_and_pdf_import_in_full() {
    let bytes = std::fs::read(common::mtg_text_path()).unwrap();
    let imp = import_as("cr.txt", &bytes, "mtg", DocumentKind::Rules).unwrap();
    let n = imp.preview.passages.len();
    assert!(n > 3000, "{n}");
    assert!(imp.preview.passages.iter().any(|e| e.id == "mtg:702.19b"));
    let text = String::from_utf8(bytes).unwrap();
    let pdf = pdf::from_text(text.trim_start_matches('\u{feff}'));
    let from_pdf = import_as("cr.pdf", &pdf, "mtg", DocumentKind::Rules).unwrap();
    assert_eq!(from_pdf.preview.format, DocumentFormat::Numbered);
    let ids = |i: &Import| {
        i.preview
            .passages
            .iter()
            .map(|e| e.id.clone())
            .collect::<Vec<_>>()
    };
    // WinAnsi has no glyph for a few characters; the structure survives whole.
    let (a, b) = (ids(&from_pdf), ids(&imp));
    let only_pdf: Vec<_> = a.iter().filter(|x| !b.contains(x)).take(10).collect();
    let only_txt: Vec<_> = b.iter().filter(|x| !a.contains(x)).take(10).collect();
    assert_eq!(
        a, b,
        "only in the PDF: {only_pdf:?}; only in the text: {only_txt:?}"
    );
}

/// The whole MTG Comprehensive Rules as a PDF wrapped at 95 characters a
/// line (as a 10-point A4 page wraps it): the same passages, ids and
/// texts, as the text upload (both in the characters WinAnsi shows).
#[test]
#[ignore = "needs ../shared/corpora (the MTG Comprehensive Rules; .ci/run runs it)"]
fn mtg_rules_as_a_wrapped_pdf_read_back_as_the_same_passages() {
    let text = std::fs::read_to_string(common::mtg_text_path()).unwrap();
    let text = pdf::as_winansi(text.trim_start_matches('\u{feff}'));
    // The wrapping starts printed lines with rule numbers ("110.2 and
    // 112.2.", "601.2c. (If an activated…").
    let numbered_starts = text
        .lines()
        .flat_map(|l| pdf::wrap(l, 95).into_iter().skip(1))
        .filter(|l| {
            l.split('.')
                .next()
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .count();
    assert!(numbered_starts >= 5, "{numbered_starts}");
    let from_text = import_as("cr.txt", text.as_bytes(), "mtg", DocumentKind::Rules).unwrap();
    let from_pdf = import_as(
        "cr.pdf",
        &pdf::from_text_wrapped(&text, 95),
        "mtg",
        DocumentKind::Rules,
    )
    .unwrap();
    assert_eq!(from_pdf.preview.format, DocumentFormat::Numbered);
    let (a, b) = (texts_of_import(&from_pdf), texts_of_import(&from_text));
    // The same text hard-wrapped, as a text upload: the same passages.
    let hard: String = text
        .lines()
        .flat_map(|l| pdf::wrap(l, 95))
        .map(|l| l + "\n")
        .collect();
    let hard =
        texts_of_import(&import_as("cr.txt", hard.as_bytes(), "mtg", DocumentKind::Rules).unwrap());
    assert!(hard.keys().eq(b.keys()), "hard-wrapped text");
    // With a running header and page numbers: the same passages as without.
    let running =
        pdf::from_text_wrapped_running(&text, 95, "Frostmoor League - Comprehensive Rules");
    let running =
        texts_of_import(&import_as("cr.pdf", &running, "mtg", DocumentKind::Rules).unwrap());
    let wrong: Vec<_> = a
        .iter()
        .filter(|(id, t)| running.get(*id) != Some(t))
        .map(|(id, _)| id)
        .take(10)
        .collect();
    assert!(
        running.len() == a.len() && wrong.is_empty(),
        "with running lines: {wrong:?}"
    );
    // Wrapped at 72 columns, as an email is: printed lines start with ids
    // the document has ("…due to rule 704.5a or rule" / "704.5b. …"),
    // yet the same ids and words (they were mtg:704.5b~2 and a rule
    // quoting the wrapped tail).
    let hard: String = text
        .lines()
        .flat_map(|l| pdf::wrap(l, 72))
        .map(|l| l + "\n")
        .collect();
    let hard =
        texts_of_import(&import_as("cr.txt", hard.as_bytes(), "mtg", DocumentKind::Rules).unwrap());
    let only_hard: Vec<_> = hard.keys().filter(|id| !b.contains_key(*id)).collect();
    assert!(hard.keys().eq(b.keys()), "at 72 columns: {only_hard:?}");
    let differ: Vec<_> = b
        .iter()
        .filter(|(id, t)| hard.get(*id).map(|p| words(p)) != Some(words(t)))
        .map(|(id, _)| id)
        .collect();
    assert!(differ.is_empty(), "at 72 columns: {differ:?}");
    assert!(b.len() > 3000, "{}", b.len());
    let differ: Vec<_> = b
        .iter()
        .filter(|(id, t)| a.get(*id).map(|p| words(p)) != Some(words(t)))
        .map(|(id, _)| id)
        .take(10)
        .collect();
    // Word for word; a wrapped line that starts like a rule ("See rule /
    // 704. They're dealt with…") keeps its line break where the text has a
    // space: a line break the PDF cannot tell from a rule's own (rule
    // 117.2d, one passage of 3,421).
    let breaks: Vec<_> = b
        .iter()
        .filter(|(id, t)| a.get(*id) != Some(t))
        .map(|(id, t)| format!("{id}: {t:?} / {:?}", a.get(id)))
        .collect();
    assert!(
        breaks.len() <= 2,
        "{} passages differ in their whitespace: {breaks:#?}",
        breaks.len()
    );
    let only_pdf: Vec<_> = a
        .keys()
        .filter(|id| !b.contains_key(*id))
        .take(10)
        .collect();
    let first = differ.first().map(|id| (&b[*id], a.get(*id)));
    assert!(
        differ.is_empty() && only_pdf.is_empty(),
        "differ or missing in the PDF: {differ:?} (the first, text then PDF: {first:?}); only in the PDF: {only_pdf:?}"
    );
}

/// An encrypted PDF is refused as encrypted, not with a password error
/// nobody asked for (found by an outside tester).
#[test]
fn an_encrypted_pdf_is_refused_as_encrypted() {
    let pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R /Encrypt 2 0 R >>\n%%EOF\n";
    let err = arbiter::corpus::import::convert("locked.pdf", pdf).unwrap_err();
    assert!(err.to_string().contains("is an encrypted PDF"), "{err}");
}

/// Rules long enough for a dozen pages, their sentences running across
/// printed lines and pages.
fn many_rules() -> String {
    let mut text = String::new();
    for section in 1..=6 {
        text.push_str(&format!("{section}. Section {section}\n\n"));
        for rule in 1..=30 {
            text.push_str(&format!(
                "{section}.{rule}. When a player of section {section} takes action {rule}, \
                 each other player may respond once, in turn order, before the action \
                 resolves and its effects are applied to the board.\n\n"
            ));
        }
    }
    text
}

/// A PDF's running header and page numbers are left out of the rules,
/// said once each in the preview: the passages are those of the same PDF
/// without them (an outside tester's PDF quoted "…A limited / Page 4 /
/// Frostmoor League - Comprehensive Rules (league edition) / deck may
/// contain…" and read "Page 4" as a reference).
#[test]
fn a_pdfs_running_header_and_footer_are_not_read_as_rules() {
    let text = many_rules();
    let plain = import_as(
        "r.pdf",
        &pdf::from_text_wrapped(&text, 60),
        "Header Test",
        DocumentKind::Rules,
    )
    .unwrap();
    let header = "Frostmoor League - House Rules (league edition)";
    let running = import_as(
        "r.pdf",
        &pdf::from_text_wrapped_running(&text, 60, header),
        "Header Test",
        DocumentKind::Rules,
    )
    .unwrap();
    // Its rules repeat whole lines, at the pages' edges too: none is dropped.
    let from_text = texts_of_import(
        &import_as("r.txt", text.as_bytes(), "Header Test", DocumentKind::Rules).unwrap(),
    );
    let plain_texts = texts_of_import(&plain);
    assert!(
        plain.preview.warnings.is_empty(),
        "{:?}",
        plain.preview.warnings
    );
    assert!(plain_texts.keys().eq(from_text.keys()));
    assert!(
        from_text
            .iter()
            .all(|(id, t)| words(&plain_texts[id]) == words(t))
    );
    let texts = texts_of_import(&running);
    assert!(texts.len() > 180, "{}", texts.len());
    assert_eq!(texts, texts_of_import(&plain));
    let all: String = texts.values().cloned().collect();
    assert!(!all.contains("Frostmoor") && !all.contains("Page"), "{all}");
    let pages = text
        .lines()
        .flat_map(|l| pdf::wrap(l, 60))
        .count()
        .div_ceil(60);
    let warnings = &running.preview.warnings;
    assert!(pages > 3, "{pages}");
    for what in ["header", "footer"] {
        let said = format!("dropped a running {what}");
        let notes: Vec<_> = warnings.iter().filter(|w| w.contains(&said)).collect();
        assert_eq!(notes.len(), 1, "{warnings:?}");
        assert!(
            notes[0].ends_with(&format!("on {pages} pages")),
            "{notes:?}"
        );
    }
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    // A book's title over its left pages and its chapter over the right
    // ones: each is on half the pages, and each is dropped (an outside
    // tester's left-page header was read into the rules seven times).
    let sided = import_as(
        "r.pdf",
        &pdf::from_text_wrapped_sided(&text, 60, "Chapter One: Rules", header),
        "Header Test",
        DocumentKind::Rules,
    )
    .unwrap();
    assert_eq!(texts_of_import(&sided), texts_of_import(&plain));
    let said: Vec<_> = sided
        .preview
        .warnings
        .iter()
        .filter(|w| w.contains("dropped a running header"))
        .collect();
    assert_eq!(said.len(), 2, "{:?}", sided.preview.warnings);
}

/// A section given twice, the repeat an empty heading whose rules join the
/// first: the warning names only ids the index has (it named
/// `dup-test:2~2`, which `cite` did not know).
#[test]
fn a_duplicate_ids_warning_names_no_passage_left_out() {
    let text = "1. Concepts\n\n100.1. A rule.\n\n\
        2. Parts\nThe parts of a card.\n\n2. Parts\n\n200.1. Another rule.\n";
    let imp = import_as("d.txt", text.as_bytes(), "Dup Test", DocumentKind::Rules).unwrap();
    let ids: Vec<&str> = imp.preview.passages.iter().map(|p| p.id.as_str()).collect();
    let warnings = &imp.preview.warnings;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("dup-test:2"), "{warnings:?}");
    let named = warnings[0]
        .split_whitespace()
        .filter(|w| w.starts_with("dup-test:"))
        .map(|w| w.trim_end_matches([';', ':', ',']));
    for id in named {
        assert!(ids.contains(&id), "{id} in {warnings:?} is not in {ids:?}");
    }
}

/// A glossary whose numbered definitions a PDF sets larger than their
/// terms (a paragraph apart, as any change of size is): each entry keeps
/// its definitions, as the text's does (an outside tester's PDF made
/// "1. A zone used only…" an entry and left "Ante" empty).
#[test]
fn a_glossarys_definitions_set_larger_stay_in_their_entry() {
    let text = "100. General\n\n100.1. A rule.\n\n100.2. Another rule.\n\nGlossary\n\n\
        Ante\n1. A zone used only when playing \"for keeps.\"\n2. To put a card into the ante zone.\n\
        See rule 407, \"Ante.\"\n\n\
        Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)\n\
        Older wording for exile.\n\n\
        Attack\nTo declare a creature as an attacker.\n";
    let big = |l: &str| {
        if l.starts_with("1. ") || l.starts_with("2. ") {
            12
        } else {
            10
        }
    };
    let from_text = import_as("g.txt", text.as_bytes(), "Gloss Test", DocumentKind::Rules).unwrap();
    let pdf = pdf::from_text_sized(text, big);
    let from_pdf = import_as("g.pdf", &pdf, "Gloss Test", DocumentKind::Rules).unwrap();
    let (a, b) = (texts_of_import(&from_pdf), texts_of_import(&from_text));
    assert!(a.keys().eq(b.keys()), "{a:?}");
    assert!(a.iter().all(|(id, t)| words(t) == words(&b[id])), "{a:?}");
    assert!(a["glossary.ante"].contains("ante zone"), "{a:?}");
    assert_eq!(
        b.keys().filter(|id| id.starts_with("glossary.")).count(),
        3,
        "{b:?}"
    );
}

/// Rules set left-aligned in a proportional font, as a word processor
/// sets them: every printed line the wrapping broke goes on with a space,
/// so each rule reads as the text's (an outside tester's left-aligned PDF
/// kept about 380 line breaks inside sentences: a line was joined only
/// when the next word would not have fitted after a space a fifth of an
/// em wide, and a proportional font's space is near a third).
#[test]
fn a_left_aligned_pdf_joins_the_lines_its_wrapping_broke() {
    // Rules of words of every length, so the lines end anywhere.
    let vocabulary = [
        "a",
        "an",
        "the",
        "player",
        "may",
        "respond",
        "once",
        "in",
        "turn",
        "order",
        "before",
        "its",
        "effects",
        "resolve",
        "and",
        "each",
        "opponent",
        "chooses",
        "to",
        "attack",
        "with",
        "creatures",
        "they",
        "control",
        "if",
        "able",
        "counters",
        "battlefield",
        "of",
        "is",
        "draws",
        "cards",
        "damage",
        "dealt",
        "simultaneously",
        "by",
        "sources",
    ];
    let mut seed: u64 = 7;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut text = String::from("1. Rules\n\n");
    for rule in 1..=120 {
        let words: Vec<&str> = (0..20 + next(40))
            .map(|_| vocabulary[next(vocabulary.len())])
            .collect();
        text.push_str(&format!("1.{rule}. When {}.\n\n", words.join(" ")));
    }
    let from_text = texts_of_import(
        &import_as("r.txt", text.as_bytes(), "Ragged Test", DocumentKind::Rules).unwrap(),
    );
    for measure in [420.0, 450.0, 480.0, 500.0] {
        let pdf = pdf::from_text_ragged(&text, measure);
        let from_pdf =
            texts_of_import(&import_as("r.pdf", &pdf, "Ragged Test", DocumentKind::Rules).unwrap());
        let broken: Vec<_> = from_pdf
            .iter()
            .filter(|(id, t)| from_text.get(*id) != Some(t))
            .take(3)
            .collect();
        assert!(
            from_pdf.len() == from_text.len() && broken.is_empty(),
            "at {measure} points: {broken:?}"
        );
    }
}

/// A rulebook set in columns: a title and a chapter heading across them,
/// numbered rules, unnumbered headings, sentences running from a column's
/// foot into the next column and into the next page.
const COLUMNS_TEST: &str = "\
Skyforge: The Complete Rules of Play

1. Setup

1.1 Each player chooses a house and takes the matching player board, the five worker figures of that colour and the reference card that shows the order of a round. Place the board in front of you with the storage side facing up, so that every other player can see how many goods you hold at any moment of the game.

1.2 Shuffle the market deck and deal six cards face up in a row beside the main board. These cards form the market. Whenever a card leaves the market, slide the remaining cards towards the deck and deal a new card into the empty space at the far end of the row, so that the market always holds six cards while the deck lasts.

1.3 The player who most recently visited a harbour takes the first player marker. Going clockwise from the first player, each player places one worker on any free settlement space of the main board, then receives the starting goods printed on that space.

Components

The game contains one main board, four player boards, twenty worker figures, sixty market cards, forty goods tokens in four kinds, a first player marker and this rulebook. If any component is missing or damaged, contact the publisher before your first game rather than replacing it with a piece from another game.

2. Playing a Round

2.1 A round has three phases, played in order: the harvest, the market and the upkeep. Every player takes part in every phase, beginning with the first player and going clockwise around the table until everyone has had one turn in that phase.

2.2 In the harvest, each of your workers on the main board produces the goods shown on its space. Take those goods from the supply and put them on your storage. If the supply runs out of a kind of goods, the players who have not yet taken theirs receive nothing of that kind this round, and they may not take another kind instead of it.

2.3 In the market, you may buy one card from the market by paying the cost printed in its corner with goods from your storage. A card you buy goes face up in front of you and its ability can be used from the next round on. You may pass instead of buying, and a player who passes takes one goods token of any kind from the supply as a consolation for the lost chance.

2.4 In the upkeep, each worker you own must be fed with one grain. A worker you cannot feed is returned to your player board and cannot be placed again until a later round in which you pay two grain to wake it. Discard any goods beyond the ten your storage can hold, choosing which to keep.

2.5 A player who cannot feed any worker at all in the upkeep loses one victory point for every hungry worker, and the first player marker passes to the next player on the left, who will begin the harvest of the following round.

Trading

Players may trade goods with each other at any time during the market phase. A trade needs the agreement of both players and must be carried out at once; promises of future goods are allowed at the table but they never bind anyone, and the rules do not enforce them in any way.

3. Ending the Game

3.1 The game ends after the round in which the market deck runs out, or at once when a player owns seven cards. Finish the current phase first, so that every player has had the same number of turns before the final scores are counted.

3.2 Each card you own is worth the victory points printed on its banner. Add one point for every three goods left on your storage, rounded down, and two points for every worker still standing on the main board at the end of the game.

3.3 The player with the most points wins. In case of a tie, the tied player with more cards wins; if still tied, the players share the victory and are encouraged to play another game to settle the matter for good.

4. Variants

4.1 In a game for two players, remove the twelve market cards marked with three dots before shuffling the deck, and deal only five cards into the market. Each player also takes one extra worker at the start of the game, which makes the board feel as crowded as it does with more players around the table.

Solo Play

In the solo game you play against the automa, a deck of twelve action cards that takes the part of a rival house. At the start of each round, reveal the top action card and carry out its instructions from top to bottom, skipping any instruction the automa cannot follow. The automa never trades, never feeds its workers and never loses points for goods it cannot store.
";

/// Passage ids and texts in the order the document reads, from an import.
fn ordered_texts(imp: &Import) -> Vec<(String, String)> {
    let built = Corpus::build(vec![imp.game.clone()]);
    let prefix = format!("{}:", imp.preview.game);
    built
        .passages
        .iter()
        .filter(|p| p.kind != PassageKind::Document)
        .map(|p| (p.id.trim_start_matches(&prefix).to_string(), p.text.clone()))
        .collect()
}

/// A rulebook set in two columns, or three, drawn column by column or row
/// by row across them, reads as its text does: the same passages, in the
/// same order, each sentence whole across a column's foot and a page's
/// (the wrapping was measured against the page's right edge, so a left
/// column's lines stayed broken, and a page drawn row by row read its
/// columns' lines interleaved), the title and the heading across the
/// columns where they stand, the running header and footer dropped.
#[test]
fn a_pdf_set_in_columns_reads_column_by_column() {
    let from_text = import_as(
        "rules.txt",
        COLUMNS_TEST.as_bytes(),
        "Skyforge",
        DocumentKind::Rules,
    )
    .unwrap();
    let expected = ordered_texts(&from_text);
    assert!(
        expected.iter().any(|(id, _)| id == "2.trading"),
        "{expected:?}"
    );
    let across = |l: &str| l.starts_with("Skyforge:") || l == "3. Ending the Game";
    for (columns, measure) in [(2, 250.0), (3, 160.0)] {
        for order in [pdf::DrawOrder::Columns, pdf::DrawOrder::Rows] {
            let bytes = pdf::from_text_in_columns(COLUMNS_TEST, (columns, measure), across, order);
            let pages = bytes.windows(12).filter(|w| w == b"/Type /Page ").count();
            assert!(pages >= 3, "{pages} pages");
            let from_pdf = import_as("rules.pdf", &bytes, "Skyforge", DocumentKind::Rules).unwrap();
            let what = format!(
                "{columns} columns, drawn by {}",
                if order == pdf::DrawOrder::Rows {
                    "rows"
                } else {
                    "columns"
                }
            );
            let texts = ordered_texts(&from_pdf);
            // The same passages in the same order, each of the same words
            // in the same order (the columns read one after the other)...
            let ids = |t: &[(String, String)]| t.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&texts), ids(&expected), "{what}");
            for ((id, text), (_, want)) in texts.iter().zip(&expected) {
                assert_eq!(words(text), words(want), "{what}: {id}");
            }
            // ... and no sentence broken where a column or a page broke it.
            assert_eq!(texts, expected, "{what}");
            assert_eq!(
                from_pdf.preview.warnings.len(),
                2,
                "{what}: {:?}",
                from_pdf.preview.warnings
            );
        }
    }
}

/// A rulebook of two pages set in columns, its running header and its
/// "Page N of 2" footer set smaller than its text: they are dropped, as
/// on a longer book, and the sentence going on over the page break stays
/// whole (two pages were too few to tell a running line by count: the
/// footer and the header were read into the sentence).
#[test]
fn a_two_page_pdf_in_columns_drops_its_small_running_lines() {
    let across = |l: &str| l.starts_with("Skyforge:");
    let paragraphs: Vec<&str> = COLUMNS_TEST.split("\n\n").collect();
    let two_pages = (1..paragraphs.len()).rev().find_map(|n| {
        let text = paragraphs[..n].join("\n\n") + "\n";
        let bytes = pdf::from_text_in_columns(&text, (2, 250.0), across, pdf::DrawOrder::Columns);
        let pages = bytes.windows(12).filter(|w| w == b"/Type /Page ").count();
        (pages == 2).then_some((text, bytes))
    });
    let (text, bytes) = two_pages.expect("a prefix set on two pages");
    let from_text = import_as(
        "rules.txt",
        text.as_bytes(),
        "Skyforge",
        DocumentKind::Rules,
    )
    .unwrap();
    let from_pdf = import_as("rules.pdf", &bytes, "Skyforge", DocumentKind::Rules).unwrap();
    assert_eq!(ordered_texts(&from_pdf), ordered_texts(&from_text));
    // (The prefix may end on a heading, said as left out.)
    assert_eq!(
        from_pdf
            .preview
            .warnings
            .iter()
            .filter(|w| w.contains("dropped a running"))
            .count(),
        2,
        "{:?}",
        from_pdf.preview.warnings
    );
}

/// A wrapped line that starts with the id of a rule the document has
/// ("…due to rule 100.1c and rule" / "100.1b. Instead, …") is the
/// reference going on, whether the rule comes after it or before: the
/// rule keeps its id and its own text (an outside tester's wrapped text
/// gave the rule `100.1b~2` and quoted the wrapped tail as 100.1b).
#[test]
fn a_wrapped_line_starting_with_a_rules_id_does_not_take_it() {
    let text = "1. Game Concepts\n\n100. General\n\n\
        100.1. These rules apply to every game.\n\n\
        100.1a A player would lose the game due to rule 100.1c and rule\n\
        100.1b. Instead, the mirror replaces that game loss.\n\n\
        100.1b Second subrule text.\n\n\
        100.1c Third subrule text. A player who would win due to rule\n\
        100.1a. Instead, nothing happens.\n";
    let imp = import_as("w.txt", text.as_bytes(), "Wrap Test", DocumentKind::Rules).unwrap();
    assert!(
        imp.preview.warnings.is_empty(),
        "{:?}",
        imp.preview.warnings
    );
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert_eq!(ids, ["1", "100", "100.1", "100.1a", "100.1b", "100.1c"]);
    assert_eq!(texts["100.1b"], "Second subrule text.");
    assert!(texts["100.1a"].ends_with("that game loss."), "{texts:?}");
    assert!(texts["100.1c"].ends_with("nothing happens."), "{texts:?}");
}

/// Numbered house rules written without full stops keep every rule and
/// sub-rule, as text and as a wrapped PDF: only a numbered line that cannot
/// start a rule, or is out of order, goes on with the text before it (a
/// review found "1.2"–"1.4" swallowed into "1.1", and a lead-in's "1.4a").
#[test]
fn numbered_rules_without_full_stops_keep_every_rule() {
    let text = "1. Setup\n\n\
        1.1 Each player starts the game with seven cards in hand and two dice\n\
        1.2 The first player does not draw a card on their first turn of the game\n\
        1.3 Players may look at their own discard pile at any time during play\n\
        1.4 When a unit attacks, its controller chooses one of the following options\n\
        1.4a Charge. The unit gets plus one attack until the end of the turn\n\n\
        2. Turns\n\n\
        2.1 Players take turns in clockwise order around the table, starting with the first player\n\
        2.2 A turn has three steps, and the rules for each are in the next section\n";
    let want = [
        "ashes:h.1",
        "ashes:h.1.1",
        "ashes:h.1.2",
        "ashes:h.1.3",
        "ashes:h.1.4",
        "ashes:h.1.4a",
        "ashes:h.2",
        "ashes:h.2.1",
        "ashes:h.2.2",
    ];
    for (name, bytes) in [
        ("h.txt", text.as_bytes().to_vec()),
        ("h.pdf", pdf::from_text_wrapped(text, 95)),
    ] {
        let imp = import_as(name, &bytes, "ashes", DocumentKind::House).unwrap();
        let ids: Vec<&str> = imp.preview.passages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, want, "{name}");
    }
}

/// A title every answer's citation path shows may not be a mention or a
/// link (an outside tester's `[x](https://evil.example)` was a live link
/// in every `/rule` reply, `/rules list` and the Confirm message); a file
/// name is a title too.
#[test]
fn a_title_holding_a_mention_or_a_link_is_refused() {
    let app = common::app();
    let add = |file: &str, title: Option<&str>| {
        app.import(&ImportRequest {
            file_name: file,
            bytes: b"1. Guards exhaust.\n",
            game: "ashes",
            kind: DocumentKind::House,
            title,
        })
    };
    for title in [
        "Big [x](https://evil.example)",
        "@everyone rules",
        "<@1400000000000000001> says",
        "see https://evil.example",
    ] {
        let e = add("house.md", Some(title)).unwrap_err();
        assert!(matches!(e, ImportError::TitleLink { .. }), "{title}: {e:?}");
        assert!(e.to_string().contains("plain words"), "{e}");
    }
    let e = add("[x](https:evil).md", None).unwrap_err();
    assert!(matches!(e, ImportError::TitleLink { .. }), "{e:?}");
    assert!(add("house.md", Some("House rules [2024]")).is_ok());
}

/// A title is one line of at most 100 characters without hidden
/// characters: an outside tester's 5,000-character title pushed the quoted
/// rule out of every answer citing it, and a title kept its line break and
/// zero-width spaces ("Zero\u{200b}Width"), now refused with their column.
#[test]
fn a_title_is_one_short_plain_line() {
    let app = common::app();
    let add = |title: &str| {
        app.import(&ImportRequest {
            file_name: "house.md",
            bytes: b"1. Guards exhaust.\n",
            game: "ashes",
            kind: DocumentKind::House,
            title: Some(title),
        })
    };
    let long = "T".repeat(101);
    let e = add(&long).unwrap_err();
    assert!(
        matches!(e, ImportError::TitleTooLong { chars: 101, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("give a shorter title"), "{e}");
    assert!(add(&"T".repeat(100)).is_ok());
    let preview = add("House   rules  Zero Width").unwrap();
    assert_eq!(preview.preview.title, "House rules Zero Width");
    // A line break or a zero-width space is refused with its column.
    for (title, column) in [("House\nrules", 6), ("Zero\u{200b}Width", 5)] {
        let e = add(title).unwrap_err();
        assert!(
            matches!(e, ImportError::HiddenCharacter { column: c, .. } if c == column),
            "{title:?}: {e:?}"
        );
    }
    // A title taken from a long file name is cut, not refused.
    let file = format!("{}.md", "Long_rules_name_".repeat(10));
    let named = app
        .import(&ImportRequest {
            file_name: &file,
            bytes: b"1. Guards exhaust.\n",
            game: "ashes",
            kind: DocumentKind::House,
            title: None,
        })
        .unwrap();
    let title = &named.preview.title;
    assert!(
        title.chars().count() == 100 && title.ends_with('…'),
        "{title}"
    );
}

/// A new game's name is at most 100 characters, as a title is: a
/// 4,800-character name came in from the command line and the HTTP
/// endpoint and was shown in every citation.
#[test]
fn a_new_games_name_is_at_most_a_titles_length() {
    let app = common::app();
    let add = |game: &str| {
        app.import(&ImportRequest {
            file_name: "rules.md",
            bytes: b"# Setup\n\n1. Each player draws five cards.\n",
            game,
            kind: DocumentKind::Rules,
            title: Some("Rules"),
        })
    };
    let e = add(&"Heron ".repeat(800)).unwrap_err();
    assert!(
        matches!(e, ImportError::GameTooLong { chars: 4799, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("give a shorter name (game:)"), "{e}");
    assert!(add(&"H".repeat(100)).is_ok());
    // Plain words, as a title: no mention, masked link or web address.
    for game in [
        "@everyone",
        "<@&123456789012345678>",
        "[x](http://e.x)",
        "https://evil.example",
        "www.evil.example",
        "discord.gg/abcdef",
    ] {
        let e = add(game).unwrap_err();
        assert!(matches!(e, ImportError::GameLink { .. }), "{game}: {e:?}");
    }
}

/// A card list's preview lists its first warnings and counts the rest: a
/// list of 3,000 nameless rows listed a warning each.
#[test]
fn a_card_lists_preview_counts_warnings_past_the_first() {
    let mut csv = String::from("name,text\nGlacier Owl,Unit Guard.\n");
    for _ in 0..3000 {
        csv.push_str(",no name here\n");
    }
    let preview = common::app()
        .import(&ImportRequest {
            file_name: "cards.csv",
            bytes: csv.as_bytes(),
            game: "ashes",
            kind: DocumentKind::Cards,
            title: Some("Club cards"),
        })
        .unwrap()
        .preview;
    assert_eq!(preview.warning_count(), 3000);
    let shown = arbiter::render::text::import_preview(&preview);
    assert!(
        shown.lines().count() < 40,
        "{} lines",
        shown.lines().count()
    );
    assert!(shown.contains("3000 warnings:"), "{shown}");
    assert!(
        shown.contains(&format!(
            "… and {} more warnings",
            3000 - arbiter::corpus::import::WARNINGS_PER_KIND
        )),
        "{shown}"
    );
}

/// A heading with nothing under it, right above another of its level, is
/// left out and said so (it went without a word, found by an outside
/// tester); the sections under the next heading are kept.
#[test]
fn an_empty_heading_left_out_is_said() {
    let md = "## Chapter One\n## Section A\n\nText a.\n\n## Section B\n\nText b.\n";
    let imp = import_as("h.md", md.as_bytes(), "Heron", DocumentKind::Rules).unwrap();
    let warnings = &imp.preview.warnings;
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("left out 1 heading") && w.contains("“Chapter One”")),
        "{warnings:?}"
    );
    let ids: Vec<&str> = imp.preview.passages.iter().map(|p| p.id.as_str()).collect();
    assert!(ids.contains(&"heron:section-a"), "{ids:?}");
}

/// A card or slang list that is not text is refused as a list, with the
/// formats a list takes (it was told to send Markdown, HTML or a PDF).
#[test]
fn a_binary_list_is_refused_with_the_formats_of_a_list() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
    for kind in [DocumentKind::Cards, DocumentKind::Slang] {
        let e = import_as("weird.csv", png, "ashes", kind).unwrap_err();
        assert!(matches!(e, ImportError::NotAList { .. }), "{kind:?}: {e:?}");
        assert!(e.to_string().contains("CSV, YAML or JSON"), "{e}");
    }
    let e = import_as("weird.md", png, "ashes", DocumentKind::House).unwrap_err();
    assert!(matches!(e, ImportError::Unsupported { .. }), "{e:?}");
}

/// A Word file or a ZIP named `.pdf` is named as what it is, as under any
/// other name ("does not start as a PDF does" left the user guessing).
#[test]
fn a_zip_named_pdf_is_named_as_a_zip() {
    let docx = b"PK\x03\x04\x14\0\x06\0\x08\0\0\0!\0word/document.xml";
    for name in ["rules.pdf", "rules.md"] {
        let e = import_as(name, docx, "ashes", DocumentKind::House).unwrap_err();
        assert!(
            matches!(e, ImportError::Unsupported { .. }),
            "{name}: {e:?}"
        );
        assert!(e.to_string().contains("a ZIP archive"), "{e}");
    }
}

/// A rulebook's chapters 10, 11 and 12 are chapter 1's siblings: only a
/// number of three digits or more sits under its leading digit (MTG's rule
/// 100 in section 1; an outside tester's chapter 11 was filed under
/// chapter 1).
#[test]
fn chapter_ten_and_up_are_not_filed_under_chapter_one() {
    let text: String = (1..=12)
        .map(|c| {
            format!(
                "{c}. Chapter {c}\n\nThe prose of chapter {c}.\n\n{c}.1 Details of chapter {c}\n\nA lantern on a lit district never moves.\n\n"
            )
        })
        .collect();
    let imp = import_as("ch12.txt", text.as_bytes(), "Twelve", DocumentKind::Rules).unwrap();
    let built = Corpus::build(vec![imp.game.clone()]);
    let parent_id = |id: &str| {
        let p = &built.passages[built.index_of(id).unwrap_or_else(|| panic!("{id}"))];
        p.parent.map(|i| built.passages[i].id.clone())
    };
    let chapter_one_parent = parent_id("twelve:1");
    for c in 2..=12 {
        assert_eq!(
            parent_id(&format!("twelve:{c}")),
            chapter_one_parent,
            "chapter {c}"
        );
        assert_eq!(
            parent_id(&format!("twelve:{c}.1")),
            Some(format!("twelve:{c}")),
            "{c}.1"
        );
    }
}

/// A word the layout hyphenated at a line's end ("minia-" / "tures") is
/// read as the word; a hyphen the document writes stays: a compound it
/// writes whole elsewhere ("two-" / "player" beside "two-player"), a word
/// that already had one ("end-of-" / "game"). An outside tester's
/// hyphenated rulebook answered "No indexed rule uses “miniatures”".
#[test]
fn a_pdfs_hyphenated_line_ends_read_as_the_words() {
    // A printed line of exactly `n` characters from `start` to `end`.
    let exactly = |start: &str, end: &str, n: usize| {
        let mut s = format!("{start} ");
        s.push_str(&"rule ".repeat((n - s.len() - end.len() - 4) / 5));
        let fill = n - s.len() - 1 - end.len();
        s.push_str(&"z".repeat(fill.max(1)));
        s.push(' ');
        s.push_str(end);
        assert_eq!(s.len(), n, "{s}");
        s
    };
    let text = [
        "Components".to_string(),
        String::new(),
        exactly("The box", "holds eight minia-", 90),
        exactly("tures, and", "two-", 90),
        exactly("player games use the two-player board;", "end-of-", 90),
        "game scoring.".to_string(),
    ]
    .join("\n");
    let bytes = pdf::from_text_wrapped(&text, 90);
    let imp = import_as("hyph.pdf", &bytes, "Vell", DocumentKind::Rules).unwrap();
    let all: String = texts_of_import(&imp)
        .into_values()
        .collect::<Vec<_>>()
        .join("\n");
    for word in [
        "eight miniatures,",
        "two-player games",
        "end-of-game scoring",
    ] {
        assert!(all.contains(word), "{word}: {all}");
    }
}

/// A heading at a page's foot ("2.1 Fog Cards") before a sub-heading at
/// the next page's head ("2.1.1 Smother") stays a heading of its own: the
/// page break had joined them as one paragraph, and the sub-heading was
/// lost into the heading's text (an outside tester's rulebook).
#[test]
fn a_heading_at_a_pages_foot_does_not_swallow_the_next_pages() {
    let mut lines = vec!["1. Setup".to_string(), String::new()];
    let mut n = 0;
    while lines.len() < 53 {
        n += 1;
        lines.push(format!("1.{n} Step {n}"));
        lines.push(String::new());
        lines.push(format!(
            "In step {n} each player takes a board and the lanterns of one colour."
        ));
        lines.push(String::new());
    }
    while lines.len() < 56 {
        lines.push("Lanterns are kept beside the board.".into());
    }
    lines.push(String::new());
    lines.push("2. Fog".into());
    lines.push(String::new());
    // Line 60: the last of page 1; page 2 opens with the sub-heading.
    lines.push("2.1 Fog Cards".into());
    lines.push("2.1.1 Smother".into());
    lines.push(String::new());
    lines.push("Smother covers one district until the end of the round.".into());
    assert_eq!(lines[59], "2.1 Fog Cards");
    let bytes = pdf::from_text(&lines.join("\n"));
    let imp = import_as("fog.pdf", &bytes, "Vell", DocumentKind::Rules).unwrap();
    let built = Corpus::build(vec![imp.game.clone()]);
    let smother = built
        .passages
        .iter()
        .find(|p| p.title.ends_with("Smother"))
        .unwrap_or_else(|| panic!("a passage titled Smother: {:?}", imp.preview.passages));
    assert!(
        smother.text.contains("covers one district"),
        "{}",
        smother.text
    );
    let fog = built.get("vell:2.1").expect("2.1 Fog Cards");
    assert!(!fog.text.contains("Smother"), "{}", fog.text);
}

/// A board game's rulebook of `chapters` numbered chapters, a section and
/// prose each, after its table of contents when `contents` is set: a title
/// and dot leaders (spaced in odd chapters, as fpdf2 sets them, solid in
/// even ones, as LibreOffice does) filling 60 columns, then a page number.
fn rulebook(chapters: usize, contents: bool) -> String {
    let mut text = String::from("LANTERNS OF VELL\n\n");
    let leader = |title: &str, page: usize, spaced: bool| {
        let fill = 60 - title.len() - page.to_string().len() - 2;
        let dots = if spaced {
            ". ".repeat(fill / 2).trim_end().to_string()
        } else {
            ".".repeat(fill)
        };
        format!("{title} {dots} {page}\n")
    };
    if contents {
        text.push_str("Contents\n\n");
        for n in 1..=chapters {
            text.push_str(&leader(&format!("{n}. Chapter {n}"), n + 2, n % 2 == 1));
            text.push_str(&leader(
                &format!("{n}.1 Details of chapter {n}"),
                n + 2,
                n % 2 == 1,
            ));
        }
        text.push('\n');
    }
    for n in 1..=chapters {
        text.push_str(&format!(
            "{n}. Chapter {n}\n\nThis is the prose of chapter {n}: players move lanterns \
             ... 5 times at most.\n\n{n}.1 Details of chapter {n}\n\nMore detail for \
             chapter {n}: a lantern on a lit district never moves.\n\n"
        ));
    }
    text
}

/// A table of contents (titles, dot leaders, page numbers) is left out of
/// the rules, in numbered text and in PDFs, said once in the preview: the
/// ids are the same book's without it (its lines took the real ids, the
/// first chapter was filed in the last contents line, and a 30-chapter
/// book, each line nested in the one before, was refused as 31 levels
/// deep). A rule's own "... 5" (no leader) stays.
#[test]
fn a_table_of_contents_does_not_become_rules() {
    for chapters in [9, 30] {
        let bare = rulebook(chapters, false);
        let toc = rulebook(chapters, true);
        let expected = texts_of_import(
            &import_as("b.txt", bare.as_bytes(), "Toc Test", DocumentKind::Rules).unwrap(),
        );
        assert!(
            expected.contains_key(&format!("{chapters}.1")),
            "{expected:?}"
        );
        let from_text =
            import_as("b.txt", toc.as_bytes(), "Toc Test", DocumentKind::Rules).unwrap();
        let from_pdf = import_as(
            "b.pdf",
            &pdf::from_text_wrapped(&toc, 60),
            "Toc Test",
            DocumentKind::Rules,
        )
        .unwrap();
        for imp in [&from_text, &from_pdf] {
            let texts = texts_of_import(imp);
            assert!(texts.keys().eq(expected.keys()), "{:?}", texts.keys());
            assert!(
                expected.iter().all(|(id, t)| words(&texts[id]) == words(t)),
                "{texts:?}"
            );
            let all: String = texts.values().cloned().collect();
            assert!(
                !all.contains(". . . .") && !all.contains("Contents"),
                "{all}"
            );
            assert!(
                words(&all).join(" ").contains("lanterns ... 5 times"),
                "{all}"
            );
            let said = format!("dropped a table of contents of {} lines", chapters * 2);
            let notes: Vec<_> = imp
                .preview
                .warnings
                .iter()
                .filter(|w| w.contains("table of contents"))
                .collect();
            assert_eq!(notes.len(), 1, "{:?}", imp.preview.warnings);
            assert!(notes[0].ends_with(&said), "{notes:?}");
        }
    }
}

/// A rulebook's third level ("2.1.1 Mulligan") takes its own number as its
/// id, under its parent's: it had a slug of its title under the section
/// before ("vell:2.2-1-1-mulligan"), and `cite vell:2.1.1` found nothing.
#[test]
fn a_third_level_number_is_its_own_id() {
    let text = "1. Setup\n\n1.1 Boards\n\nEach player takes a board.\n\n2. Hands\n\n2.1 Drawing\n\nDraw seven cards.\n\n2.1.1 Mulligan\n\nOnce per game a player may shuffle their hand back and draw six.\n\n2.1.2 Keeping\n\nA player who keeps says so.\n\n2.2 Discarding\n\nDiscard down to seven at the end of your turn.\n";
    let imp = import_as("hands.txt", text.as_bytes(), "Vell", DocumentKind::Rules).unwrap();
    let built = Corpus::build(vec![imp.game.clone()]);
    let parent = |id: &str| {
        let p = built
            .get(id)
            .unwrap_or_else(|| panic!("{id}: {:?}", imp.preview.passages));
        p.parent.map(|i| built.passages[i].id.clone())
    };
    assert_eq!(parent("vell:2.1.1"), Some("vell:2.1".to_string()));
    assert_eq!(parent("vell:2.1.2"), Some("vell:2.1".to_string()));
    assert_eq!(parent("vell:2.2"), Some("vell:2".to_string()));
    assert!(built.get("vell:2.1.1").unwrap().text.contains("draw six"));
}

/// A board-game rulebook whose numbered sections hold numbered step lists
/// ("1. Choose an attacker."), some with lettered sub-lists: under a
/// rule, in a chapter before its first section, written as titles, and in
/// chapter 1 (where "2." is also the next chapter's number), before a
/// chapter of prose whose number is the list's next, and a list
/// of a chapter's own items with a list indented inside one.
const STEP_LISTS: &str = "1. Setup

1.1 Board
Place the board in the middle of the table.

1.2 Turn Order
Each turn has two steps:
1. Draw a card
2. Play a card
The player to the left goes next.

2. Turns

2.1 Order
Players take turns clockwise.

3. Movement

3.1 Moving
A unit moves up to its speed:
1. Pick a unit.
2. Pick a path.
3. Move along it.

4. Terrain

Forests cost two movement, and rivers stop a unit.

5. Combat

A fight has three parts:
1. Declare the fight.
2. Resolve it.
3. Clean up.

5.1 Attacking
To attack, follow these steps:
1. Choose an attacker.
   a) It must be ready.
   b) It must be in range.
2. Choose a target.
   (a) An enemy unit, or
   (b) An enemy building.
3. Roll dice.
   i. Add one die per weapon.
   ii. Reroll ones once.

5.2 Damage
Each hit removes one health, in this order
1. Shields first
2. Then armour
3. Then health

6. Winning

6.1 Victory
The first player to ten points wins.

7. Optional Rules

1. Heroes heal one health at dusk.
2. Heroes may move twice, as follows:
   1. once before combat,
   2. once after it.
3. Banners count as one point each.
";

/// The lines of `STEP_LISTS` from the one starting `from` up to the next
/// blank line, each trimmed: a passage's text as the document writes it.
fn step_block(from: &str) -> String {
    STEP_LISTS
        .split("\n\n")
        .find_map(|para| para.find(from).map(|at| &para[at..]))
        .unwrap_or_else(|| panic!("{from}"))
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A numbered step list inside a numbered section ("5.1 Attacking" /
/// "1. Choose an attacker.") is text of that section, its line breaks and
/// lettered sub-lists kept: its "1."–"3." took the chapters' ids ("1~2"),
/// or the section's ("5.1~2"), and rule 5.1 was quoted without its steps
/// (an outside tester's board-game rulebooks).
#[test]
fn a_numbered_step_list_stays_in_the_text_of_its_section() {
    let imp = import_as(
        "steps.txt",
        STEP_LISTS.as_bytes(),
        "Step Test",
        DocumentKind::Rules,
    )
    .unwrap();
    assert!(
        imp.preview.warnings.is_empty(),
        "{:?}",
        imp.preview.warnings
    );
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    let want = [
        "1", "1.1", "1.2", "2", "2.1", "3", "3.1", "4", "5", "5.1", "5.2", "6", "6.1", "7", "7.1",
        "7.2", "7.3",
    ];
    assert_eq!(ids, want, "{texts:?}");
    // A rule's text starts with its title ("5.1 Attacking").
    assert_eq!(texts["5.1"], step_block("Attacking"));
    assert_eq!(texts["5.2"], step_block("Damage"));
    assert_eq!(texts["1.2"], step_block("Turn Order"));
    assert_eq!(texts["5"], step_block("A fight"));
    assert_eq!(texts["3.1"], step_block("Moving"));
    assert_eq!(texts["4"], step_block("Forests"));
    // A list right under a chapter's heading is its items, as a section's
    // ("13.3 - Reactions" / "13.3.1") are; one indented inside an item is
    // the item's text, and the item after it is the outer list's.
    assert_eq!(
        texts["7.2"],
        "Heroes may move twice, as follows:\n1. once before combat,\n2. once after it."
    );
    assert_eq!(texts["7.3"], "Banners count as one point each.");
    let built = Corpus::build(vec![imp.game.clone()]);
    let parent = |id: &str| built.get(id).and_then(|p| p.parent);
    assert_eq!(parent("step-test:2"), parent("step-test:1"));
    assert_eq!(parent("step-test:6"), parent("step-test:1"));
    // The same book as a PDF: the same passages, word for word.
    let pdf = pdf::from_text_wrapped(STEP_LISTS, 95);
    let from_pdf =
        texts_of_import(&import_as("steps.pdf", &pdf, "Step Test", DocumentKind::Rules).unwrap());
    assert!(from_pdf.keys().eq(texts.keys()), "{from_pdf:?}");
    assert!(
        texts.iter().all(|(id, t)| words(&from_pdf[id]) == words(t)),
        "{from_pdf:?}"
    );
}

/// A reference wrapped inside a step list ("2. Choose a target; see rule" /
/// "5.2 for how the defender responds.") goes on with its step, as the
/// same wrap in a rule's text does: a short step read as a title, and the
/// wrapped line took rule 5.2's id, its title and the steps after it (an
/// outside tester's rulebook gave "5.2~2" and a duplicate id).
#[test]
fn a_reference_wrapped_inside_a_step_list_stays_in_its_step() {
    let text = "5. Combat\n\
        5.1 Attacking\n\
        1. Choose an attacker that has not attacked this round.\n\
        2. Choose a target within range; see rule\n\
        5.2 for how the defender may respond.\n\
        3. Roll the dice.\n\
        5.2 Blocking\n\
        5.2.1 The defender may exhaust an escort to block.\n\
        5.3 A ship with no hull left is destroyed.\n";
    let imp = import_as("b.txt", text.as_bytes(), "Wrap Step", DocumentKind::Rules).unwrap();
    assert!(
        imp.preview.warnings.is_empty(),
        "{:?}",
        imp.preview.warnings
    );
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert_eq!(ids, ["5", "5.1", "5.2", "5.2.1", "5.3"], "{texts:?}");
    let wrapped = "see rule\n5.2 for how the defender may respond.\n3. Roll the dice.";
    assert!(texts["5.1"].ends_with(wrapped), "{texts:?}");
    assert_eq!(texts["5.2"], "Blocking");
}

/// A rule hard-wrapped before a number ("904.5. The archenemy's starting
/// life total is" / "40. Each other player's…") goes on with that number,
/// short as the rule's first line is: it read as a title, and "40." became
/// rule 904.40 and cut 904.5 short (an outside tester's MTG rules wrapped
/// at 40 columns).
#[test]
fn a_number_wrapped_to_the_start_of_a_line_stays_in_its_rule() {
    let text = "9. Casual Variants\n\n904. Archenemy\n\n\
        904.4. The archenemy shuffles their scheme deck.\n\n\
        904.5. The archenemy's starting life total is\n\
        40. Each other player's starting life total is 20.\n\n\
        904.6. The archenemy takes the first turn.\n";
    let imp = import_as("a.txt", text.as_bytes(), "Wrap Rule", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert_eq!(ids, ["9", "904", "904.4", "904.5", "904.6"], "{texts:?}");
    assert!(
        texts["904.5"].ends_with("is\n40. Each other player's starting life total is 20."),
        "{texts:?}"
    );
}

/// A reference that hard-wrapped text breaks across lines ("see rule" /
/// "5.2", "see" / "rule 5.2") links to its rule as one on a line does (the
/// patterns matched one space only, and left these unlinked); its label
/// reads with one space.
#[test]
fn a_reference_broken_across_lines_is_linked() {
    let text = "1. Setup\n\n\
        1.1 Board\nPlace the board in the middle of the table. For the dice each player rolls, see rule\n\
        5.2 before you start.\n\n\
        1.2 Hands\nDeal five cards to each player, face down, and the rest as a deck (see\n\
        rule 5.2).\n\n\
        1.3 Tokens\nPut the tokens beside the board, where every player reaches them; see\n\
        5.1 for their use.\n\n\
        5. Combat\n\n5.1 Attacking\nRoll the dice.\n\n5.2 Damage\nEach hit removes one health.\n";
    let imp = import_as(
        "refs.txt",
        text.as_bytes(),
        "Wrap Refs",
        DocumentKind::Rules,
    )
    .unwrap();
    let built = Corpus::build(vec![imp.game.clone()]);
    for (from, label, to) in [
        ("1.1", "see rule 5.2", "5.2"),
        ("1.2", "see rule 5.2", "5.2"),
        ("1.3", "see 5.1", "5.1"),
    ] {
        let p = built
            .get(&format!("wrap-refs:{from}"))
            .unwrap_or_else(|| panic!("{from}: {:?}", imp.preview.passages));
        let want = Some(format!("wrap-refs:{to}"));
        assert!(
            p.refs.iter().any(|r| r.target == want && r.label == label),
            "{from}: {:?} in {:?} {:?}",
            p.refs,
            p.text,
            texts_of_import(&imp)
        );
    }
}

/// Rules whose sentences end in CJK full stops ("。", "！", "？") keep every
/// id, as the same layout in English does: "。" was not read as ending a
/// sentence, so each rule ran on and swallowed the next (an outside
/// tester's twelve Japanese rules gave three passages).
#[test]
fn rules_ending_in_cjk_full_stops_keep_every_rule() {
    let rule = "プレイヤーは攻撃するときにカードを引く。";
    let en = "Players draw a card when they attack.";
    let book = |chapter: &str, sentence: &str| {
        (1..=2)
            .map(|c| {
                let rules: String = (1..=3)
                    .map(|r| format!("{c}.{r} {sentence}{sentence}\n"))
                    .collect();
                format!("{c}. {chapter}{c}\n{rules}")
            })
            .collect::<String>()
    };
    let want = ["1", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "2.3"];
    for (name, text) in [
        ("ja.txt", book("第", rule)),
        ("en.txt", book("Chapter ", en)),
        ("bang.txt", book("第", "引く！")),
        ("ask.txt", book("第", "引く？")),
    ] {
        let imp = import_as(name, text.as_bytes(), "Cjk Test", DocumentKind::Rules).unwrap();
        let texts = texts_of_import(&imp);
        let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
        assert_eq!(ids, want, "{name}: {texts:?}");
        assert!(!texts["1.1"].contains("1.2"), "{name}: {texts:?}");
    }
}

/// A chapter's title in a script without letter case ("9. חוקי הבית")
/// is a title as "9. House Rules" is: it was read as an item of chapter 8,
/// `8.9`, which took 9.1–9.3 (an outside tester's right-to-left book).
#[test]
fn a_chapter_titled_in_a_script_without_case_is_a_chapter() {
    for title in ["House Rules", "חוקי הבית"] {
        let text = format!(
            "8. Endgame\n8.1 The game ends after the last round.\n\n\
            9. {title}\n9.1 Players may agree on house rules.\n9.2 Write them down.\n"
        );
        let imp = import_as("h.txt", text.as_bytes(), "Rtl Test", DocumentKind::Rules).unwrap();
        let texts = texts_of_import(&imp);
        let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
        assert_eq!(ids, ["8", "8.1", "9", "9.1", "9.2"], "{title}: {texts:?}");
        let built = Corpus::build(vec![imp.game.clone()]);
        assert_eq!(
            built.get("rtl-test:9").map(|p| p.title.as_str()),
            Some(title)
        );
    }
}

/// A chapter's title right after a list whose next step it would number
/// ("3. Playing the Game" after steps "1."–"2." in chapter 2), followed by
/// running text, is the chapter: it was read as the list's third step,
/// and chapter 3 went into 2.1's text (found by a review).
#[test]
fn a_chapter_title_after_a_list_followed_by_prose_is_the_chapter() {
    let text = "1. Overview\n1.1 Goal: score the most points.\n\
        2. Setup\n2.1 Preparing\nDo these steps:\n\
        1. Shuffle the deck.\n2. Deal five cards to each player.\n\
        3. Playing the Game\nOn your turn, draw a card and play one.\n\
        4. Ending\n4.1 Winning: the most points wins.\n";
    let imp = import_as("g.txt", text.as_bytes(), "Test Game", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert!(ids.contains(&"3"), "{texts:?}");
    assert!(!texts["2.1"].contains("Playing the Game"), "{texts:?}");
    assert!(
        texts["2.1"].ends_with("2. Deal five cards to each player."),
        "{texts:?}"
    );
}

/// A megabyte without a space converts in a small part of the sandbox's
/// memory (found by outside testers: a rule or list item of one long run,
/// or a long heading over long text, was refused as needing more than
/// 512 MB: its title, the whole run, was repeated in each of its parts'
/// titles). Converted in the child, with a quarter of the real heap.
#[test]
fn a_megabyte_without_spaces_converts_in_little_memory() {
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let run: String = (0..1_000_000u32)
        .map(|i| char::from(b'a' + (i.wrapping_mul(2_654_435_761) >> 28) as u8 % 26))
        .collect();
    let half = &run[..500_000];
    // Memory is what is measured: the processor and wall limits are
    // raised, as a loaded machine runs the debug child slowly.
    let limits = arbiter::sandbox::Limits {
        memory: arbiter::sandbox::Limits::default().memory / 4,
        cpu: std::time::Duration::from_secs(120),
        wall: std::time::Duration::from_secs(240),
        ..arbiter::sandbox::Limits::default()
    };
    for (file, text) in [
        ("run.txt", run.clone()),
        ("rule.txt", format!("1. {run}\n")),
        ("item.md", format!("# Rules\n\n- {run}\n")),
        ("heading.md", format!("# {half}\n\n{half}\n")),
    ] {
        let req = ImportRequest {
            file_name: file,
            bytes: text.as_bytes(),
            game: "Long Runs",
            kind: DocumentKind::Rules,
            title: None,
        };
        let target = common::app().import_target(&req).unwrap();
        let done = arbiter::sandbox::convert_blocking(&target, text.as_bytes(), &limits)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let passages = &done.converted.preview.passages;
        let parts: Vec<_> = passages.iter().filter(|p| p.id.contains("part-")).collect();
        assert!(parts.len() > 80, "{file}: {}", parts.len());
        let longest = parts.iter().map(|p| p.title.chars().count()).max();
        assert!(
            longest <= Some(220),
            "{file}: a part's title of {longest:?} characters"
        );
    }
}

/// A hostile document's preview lists the first warnings of each kind and
/// counts the rest (an outside tester's listed 17,190 lines): the CLI's
/// preview says how many there are in all and how many more of a kind.
#[test]
fn a_preview_lists_the_first_warnings_of_a_kind_and_counts_the_rest() {
    let long = "word ".repeat(1_300);
    let mut text = String::new();
    for i in 0..2_000 {
        text.push_str(&format!("# A\n\nRule {i}.\n\n"));
    }
    for i in 0..30 {
        text.push_str(&format!("# Long {i}\n\n{long}\n\n"));
    }
    let imp = import_as("dups.md", text.as_bytes(), "Dups", DocumentKind::Rules).unwrap();
    let p = &imp.preview;
    let per_kind = arbiter::corpus::import::WARNINGS_PER_KIND;
    assert_eq!(p.warning_count(), 1_999 + 30, "{:?}", p.more_warnings);
    assert_eq!(p.warnings.len(), 2 * per_kind, "{:?}", p.warnings);
    let mut more: Vec<usize> = p.more_warnings.iter().map(|m| m.count).collect();
    more.sort_unstable();
    assert_eq!(more, [30 - per_kind, 1_999 - per_kind]);
    let shown = arbiter::render::text::import_preview(p);
    assert!(
        shown.contains(&format!("{} warnings:", 1_999 + 30)),
        "{shown}"
    );
    assert!(
        shown.contains(&format!(
            "… and {} more duplicate passage ids",
            1_999 - per_kind
        )),
        "{shown}"
    );
    assert!(shown.lines().count() < 100, "{shown}");
}

/// A Hebrew and an Arabic rulebook exported to PDF by LibreOffice
/// (`tests/fixtures/pdf/`, from an HTML page of `dir="rtl"` paragraphs)
/// read in logical order, every numbered rule kept under its number: the
/// glyphs are drawn as they stand on the page, right to left, and were
/// read backwards ("1.1.םיפלק העבש"), chapters "1." and "2." lost as
/// "1הנכה ." (found by outside testers).
#[test]
fn right_to_left_pdfs_read_in_logical_order() {
    for (file, rules) in [
        (
            "hebrew-rules.pdf",
            [
                ("1", "הכנה"),
                ("1.1", "כל שחקן מקבל שבעה קלפים."),
                ("2.2", "שחק עד 3 קלפים ואז סיים את התור."),
            ],
        ),
        (
            "arabic-rules.pdf",
            [
                ("1", "الإعداد"),
                ("1.1", "يأخذ كل لاعب سبع بطاقات."),
                ("2.2", "العب حتى 3 بطاقات ثم أنهِ دورك."),
            ],
        ),
    ] {
        let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
        let imp = import_as(file, &bytes, "Rtl Pdf", DocumentKind::Rules).unwrap();
        let texts = texts_of_import(&imp);
        let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
        assert_eq!(
            ids,
            ["1", "1.1", "1.2", "2", "2.1", "2.2"],
            "{file}: {texts:?}"
        );
        let built = Corpus::build(vec![imp.game.clone()]);
        for (id, text) in rules {
            let passage = built.get(&format!("rtl-pdf:{id}")).unwrap();
            let read = format!("{}\n{}", passage.title, passage.text);
            assert!(read.contains(text), "{file} {id}: {read:?}");
        }
    }
}

/// LibreOffice Writer's PDFs (`tests/fixtures/pdf/libreoffice-*.pdf`, an
/// outside tester's, exported by `soffice --headless --convert-to pdf`
/// from HTML through Writer): a table's rows are the text of the rule
/// they stand in, a row a line and its cells "a | b" (each row was read
/// as a heading with nothing under it and left out, the only hand-limit
/// rule with them); footnotes at a page's foot, smaller than the text or
/// their number a tab before it, are taken out of the flowing text and
/// put after the paragraph whose superscript marker names them, the
/// marker read "[1]" apart from its word (a rule crossing a page break
/// was cut by them, "…an" / "1 Footnote 1: …" / "damage"); a two-page
/// document's running header and "Page N" footer in the text's own size
/// are dropped (they were a made-up heading and a reference to a page).
#[test]
fn libreoffice_pdfs_keep_tables_footnotes_and_running_lines_apart() {
    let read = |file: &str| {
        let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
        import_as(file, &bytes, "Lo Pdf", DocumentKind::Rules).unwrap()
    };
    let imp = read("libreoffice-table.pdf");
    let texts = texts_of_import(&imp);
    let rule = &texts["2.1"];
    for row in [
        "Phase | What happens",
        "Action | Play cards, attack",
        "End | Discard to 7 cards",
    ] {
        assert!(rule.lines().any(|l| l == row), "{row}: {rule:?}");
    }
    assert!(
        !imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("nothing to quote")),
        "{:?}",
        imp.preview.warnings
    );
    assert!(
        texts["1.2"].contains("draw four cards instead.[1]"),
        "{texts:?}"
    );

    for (file, id, next) in [
        (
            "libreoffice-footnotes.pdf",
            "2.3",
            "counterattacking an damage or value player",
        ),
        (
            "libreoffice-columns.pdf",
            "3.2",
            "attack control choose unit unit",
        ),
    ] {
        let imp = read(file);
        let texts = texts_of_import(&imp);
        let rule = &texts[id];
        assert!(rule.contains(next), "{file} {id}: {rule:?}");
        assert!(!rule.contains("Page"), "{file} {id}: {rule:?}");
        let notes: Vec<&str> = texts
            .values()
            .flat_map(|t| t.lines())
            .filter(|l| l.contains("Footnote"))
            .collect();
        assert!(!notes.is_empty(), "{file}");
        for note in notes {
            let mark = note.split(' ').next().unwrap_or_default();
            let number = &note[note.find("Footnote ").unwrap() + 9..note.find(':').unwrap()];
            assert_eq!(mark, format!("[{number}]"), "{file}: {note:?}");
            let owner = texts.values().find(|t| t.contains(note)).unwrap();
            let marker = owner.find(&format!(".{mark}")).unwrap_or(usize::MAX);
            assert!(marker < owner.find(note).unwrap(), "{file}: {owner:?}");
        }
        let ids: Vec<&String> = texts.keys().collect();
        assert!(
            ids.iter().all(|i| !i.contains("emberfall")),
            "{file}: {ids:?}"
        );
    }
}

/// A line that starts like a rule but is read as the text above it (out
/// of order, or starting in lower case, after a sentence that runs on)
/// is named in the preview: a rule lost so went without a word (an
/// outside tester's right-to-left PDF). A wrapped reference to a rule the
/// document has ("See rule" / "1.2 for …") is no such line.
#[test]
fn a_numbered_line_read_as_text_is_warned_of() {
    let text = "1. Setup\n1.1 Each player draws seven cards and\n3.1 Shuffles the rest.\n\
        1.2 Then see rule\n1.1 for the hand size.\n1.3 The youngest player starts.\n";
    let imp = import_as("w.txt", text.as_bytes(), "Warn Test", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert_eq!(ids, ["1", "1.1", "1.2", "1.3"], "{texts:?}");
    assert!(texts["1.1"].contains("3.1 Shuffles"), "{texts:?}");
    let warned: Vec<&String> = imp
        .preview
        .warnings
        .iter()
        .filter(|w| w.contains("starts like rule"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", imp.preview.warnings);
    assert!(warned[0].contains("rule 3.1"), "{warned:?}");
    assert!(warned[0].starts_with("line 3:"), "{warned:?}");
}

/// A PDF saved with object streams (`qpdf --object-streams=generate`),
/// its `startxref` damaged, reads as the good one: the table rebuilt from
/// the objects found in the file lost those kept in object streams, its
/// catalog and pages among them, and the file was refused as damaged.
#[test]
fn a_damaged_pdf_with_object_streams_reads_its_packed_objects() {
    let file = "object-streams-bad-startxref.pdf";
    let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
    let imp = import_as(file, &bytes, "Packed Test", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    let ids: Vec<&str> = texts.keys().map(String::as_str).collect();
    assert_eq!(ids, ["1", "1.1", "1.2"], "{texts:?}");
}

/// Skyward's rules, as text, Markdown and HTML, each with a back-of-book
/// index after its last rule when `index` is set.
fn skyward(format: &str, index: bool) -> String {
    let entries = [
        "Attack, 3.1",
        "Block, 3.1",
        "Draw, 1.1, 2.1",
        "Opening hand, 1.1",
    ];
    match format {
        "md" => {
            let mut md = String::from(
                "# Skyward\n\n## 1. Setup\n\n### 1.1 Opening hand\n\nEach player draws six cards.\n\n## 2. Turns\n\n2.1 At the start of your turn, draw one card.\n\n## 3. Combat\n\n3.1 The attacker chooses one target. The defender may block with one unit.\n",
            );
            if index {
                md.push_str("\n## Index\n\n");
                md.extend(entries.iter().map(|e| format!("- {e}\n")));
            }
            md
        }
        "html" => {
            let mut html = String::from(
                "<html><body><h1>Skyward</h1><h2>1. Setup</h2><p>1.1 Each player draws six cards.</p><h2>2. Turns</h2><p>2.1 At the start of your turn, draw one card.</p><h2>3. Combat</h2><p>3.1 The attacker chooses one target. The defender may block with one unit.</p>",
            );
            if index {
                html.push_str("<h2>Index</h2>");
                html.extend(entries.iter().map(|e| {
                    let (term, at) = e.split_once(", ").unwrap();
                    format!("<p>{term}, <a href=\"#r{at}\">{at}</a></p>")
                }));
            }
            html + "</body></html>"
        }
        _ => {
            let mut text = String::from(
                "Skyward Rulebook\n\n1. Setup\n\n1.1 Opening hand\nEach player draws six cards. A player may redraw once.\n\n2. Turns\n\n2.1 Drawing\nAt the start of your turn, draw one card.\n\n3. Combat\n\n3.1 The attacker chooses one target. The defender may block with one unit.\n",
            );
            if index {
                text.push_str("\nIndex\n");
                text.extend(entries.iter().map(|e| format!("{e}\n")));
            }
            text
        }
    }
}

/// A back-of-book index ("Index" over "Attack, 3.1" lines) is left out as
/// a table of contents is, in plain text, Markdown, HTML and a PDF, said
/// once in the preview: the passages are the same book's without it (it
/// ran on in 3.1's quote, "… block with one unit. Index Attack, 3.1 …",
/// and in a PDF became a glossary entry; found by an outside tester).
#[test]
fn a_back_of_book_index_does_not_become_rules() {
    let import =
        |file: &str, bytes: &[u8]| import_as(file, bytes, "Skyward", DocumentKind::Rules).unwrap();
    let text_pdf = |index| pdf::from_text_wrapped(&skyward("txt", index), 60);
    for (file, bare, indexed) in [
        (
            "s.txt",
            import("s.txt", skyward("txt", false).as_bytes()),
            import("s.txt", skyward("txt", true).as_bytes()),
        ),
        (
            "s.md",
            import("s.md", skyward("md", false).as_bytes()),
            import("s.md", skyward("md", true).as_bytes()),
        ),
        (
            "s.html",
            import("s.html", skyward("html", false).as_bytes()),
            import("s.html", skyward("html", true).as_bytes()),
        ),
        (
            "s.pdf",
            import("s.pdf", &text_pdf(false)),
            import("s.pdf", &text_pdf(true)),
        ),
    ] {
        let expected = texts_of_import(&bare);
        assert!(expected.contains_key("3.1"), "{file}: {expected:?}");
        let texts = texts_of_import(&indexed);
        assert!(
            texts.keys().eq(expected.keys()),
            "{file}: {:?}",
            texts.keys()
        );
        assert!(
            expected.iter().all(|(id, t)| words(&texts[id]) == words(t)),
            "{file}: {texts:?}"
        );
        let notes: Vec<_> = indexed
            .preview
            .warnings
            .iter()
            .filter(|w| w.contains("back-of-book index"))
            .collect();
        assert_eq!(notes.len(), 1, "{file}: {:?}", indexed.preview.warnings);
        assert!(notes[0].contains("index of 4 entries"), "{file}: {notes:?}");
    }
}

/// An outside tester's books whose index holds cross-references ("Block,
/// 3.1 (see also Guard)", "Guard, see Block"): the index is dropped, said
/// in the preview, and 3.2 is quoted without it (it ran on in 3.2's
/// quote: a "see" line ended the index, leaving too few entries).
#[test]
fn an_index_with_cross_references_is_dropped() {
    for file in ["toc_see2.txt", "toc_last.txt"] {
        let path = format!(
            "{}/tests/fixtures/uploads/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        let bare = text.split("\nIndex\n").next().unwrap();
        let indexed = import_as(file, &bytes, "Skyward", DocumentKind::Rules).unwrap();
        let plain = import_as(file, bare.as_bytes(), "Skyward", DocumentKind::Rules).unwrap();
        let (texts, expected) = (texts_of_import(&indexed), texts_of_import(&plain));
        assert!(expected.contains_key("3.2"), "{file}: {expected:?}");
        assert_eq!(words(&texts["3.2"]), words(&expected["3.2"]), "{file}");
        assert!(texts.keys().eq(expected.keys()), "{file}: {texts:?}");
        let notes = indexed.preview.warnings.iter();
        let notes: Vec<_> = notes.filter(|w| w.contains("back-of-book index")).collect();
        assert_eq!(notes.len(), 1, "{file}: {:?}", indexed.preview.warnings);
    }
}

/// LibreOffice sizes a table's first column to its widest word, which
/// then stands closer to the next cell (0.41 font sizes) than cells are
/// told apart by: that row read as one run of words, the table broke,
/// and its rows, a paragraph apart, were left out as headings with no
/// text under them ("Upkeep Roll the weather die", an outside admin's
/// house rules). Every row is read, its cells where the other rows' are.
#[test]
fn a_libreoffice_table_with_a_narrow_first_column_keeps_its_rows() {
    let file = "libreoffice-narrow-table.pdf";
    let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
    let imp = import_as(file, &bytes, "Thornwood", DocumentKind::House).unwrap();
    let texts = texts_of_import(&imp);
    let lines: Vec<&str> = texts.values().flat_map(|t| t.lines()).collect();
    for row in [
        "Phase | What happens",
        "Upkeep | Roll the weather die",
        "Draw | Draw two cards if it is raining",
    ] {
        assert!(lines.contains(&row), "{row}: {texts:?}");
    }
    assert!(
        !imp.preview
            .warnings
            .iter()
            .any(|w| w.contains("nothing to quote")),
        "{:?}",
        imp.preview.warnings
    );
}

/// LibreOffice breaks a line only where the text lets it: at a written
/// hyphen ("non-" / "Commander", "-2/-" / "0", "ability-" / "adding"),
/// after a minus sign ("-" / "2/4") or before a dash ("{rN2}" /
/// "—[Effect]"), and never hyphenates a word itself. The MTG rules'
/// paragraphs where it did (`libreoffice-mtg-hyphens.txt`, converted by
/// `soffice --headless --convert-to pdf`) read back as the text does, id
/// for id: the hyphens were joined with a space or dropped, and a
/// sentence's "25." kept on a line of its own.
#[test]
fn a_libreoffice_pdf_reads_back_as_its_text() {
    let read = |file: &str| {
        let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
        let imp = import_as("mtg.txt", &bytes, "Mtg Hyphens", DocumentKind::Rules).unwrap();
        texts_of_import(&imp)
    };
    let text = read("libreoffice-mtg-hyphens.txt");
    let pdf = read("libreoffice-mtg-hyphens.pdf");
    assert!(text.len() > 10, "{text:?}");
    assert_eq!(
        text.keys().collect::<Vec<_>>(),
        pdf.keys().collect::<Vec<_>>()
    );
    for (id, want) in &text {
        assert_eq!(&pdf[id], want, "{id}");
    }
}

/// A PDF that holds no text because it is damaged is told so, not sent
/// to OCR: one cut short (no end-of-file marker, its content half gone)
/// and one whose page nests an unrelated list 200 deep (past what the
/// reader follows, so the page is not read), both found by an outside
/// admin; the same page nested 50 deep is read.
#[test]
fn a_damaged_pdf_with_no_text_is_not_called_a_scan() {
    for (file, says) in [
        ("truncated-objects.pdf", "cut short"),
        ("deep-array-200.pdf", "201 deep"),
    ] {
        let bytes = shipped(&format!("tests/fixtures/pdf/{file}"));
        let err = import_as(file, &bytes, "Damaged", DocumentKind::House).unwrap_err();
        assert!(matches!(err, ImportError::BadPdf { .. }), "{file}: {err}");
        let message = err.to_string();
        assert!(message.contains(says), "{file}: {message}");
        assert!(!message.contains("OCR"), "{file}: {message}");
    }
    let shallow = String::from_utf8(shipped("tests/fixtures/pdf/deep-array-200.pdf"))
        .unwrap()
        .replace(&format!("{}{}", "[".repeat(200), "]".repeat(200)), "[[]]");
    let imp = import_as(
        "shallow.pdf",
        shallow.as_bytes(),
        "Damaged",
        DocumentKind::House,
    )
    .unwrap();
    let texts = texts_of_import(&imp);
    assert!(
        texts.values().any(|t| t.contains("draws seven cards")),
        "{texts:?}"
    );
}

fn upload(file: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/uploads/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap()
}

/// A bracket ending in an image's file name is the rule's own words in an
/// upload: "(JPG or PNG, e.g. deck.jpg)" was cut out of the quoted rule
/// (a strip meant for a scraped wiki's image leftovers, applied to every
/// line of every document; found by an outside tester).
#[test]
fn a_bracket_ending_in_an_image_name_is_quoted_as_written() {
    let bytes = upload("imgname.txt");
    for (name, bytes) in [
        ("imgname.txt", bytes.clone()),
        ("imgname.md", bytes.clone()),
        (
            "imgname.pdf",
            pdf::from_text(&String::from_utf8(bytes).unwrap()),
        ),
    ] {
        let imp = import_as(name, &bytes, "emb2", DocumentKind::Rules).unwrap();
        let texts = texts_of_import(&imp);
        assert_eq!(
            texts["1.1"],
            "Upload your deck photo (JPG or PNG, e.g. deck.jpg) to the tournament channel.",
            "{name}"
        );
        assert!(
            texts["1.2"].contains("(or visit emberfall.gif)"),
            "{name}: {texts:?}"
        );
    }
    // The shipped wiki text whose manifest says it holds such leftovers.
    let shipped = texts_of_shipped("legion");
    assert!(shipped.values().any(|t| t.contains("a card action icon")));
    assert!(!shipped.values().any(|t| t.contains(".png)")));
}

/// UTF-32 text (its byte-order mark `FF FE 00 00`) was read as UTF-16: its
/// NULs "left out" and "🔥" quoted as U+F525. Read as UTF-32, both ways.
#[test]
fn utf32_text_is_read_as_utf32() {
    let text = "1. Fire\n\n1.1 The 🔥 token burns one card.\n";
    let mut le = vec![0xFF, 0xFE, 0, 0];
    let mut be = vec![0, 0, 0xFE, 0xFF];
    for c in text.chars() {
        le.extend_from_slice(&u32::from(c).to_le_bytes());
        be.extend_from_slice(&u32::from(c).to_be_bytes());
    }
    for bytes in [le, be] {
        let imp = import_as("u32.txt", &bytes, "emb", DocumentKind::Rules).unwrap();
        assert_eq!(
            texts_of_import(&imp)["1.1"],
            "1.1 The 🔥 token burns one card."
        );
        let warnings = &imp.preview.warnings;
        assert!(
            warnings.iter().any(|w| w.contains("UTF-32")),
            "{warnings:?}"
        );
        assert!(!warnings.iter().any(|w| w.contains("NUL")), "{warnings:?}");
    }
}

/// "/Encrypt" in a PDF's text is no encryption (the file was refused as
/// encrypted by a scan of its bytes); the parser tells from the trailer. A
/// file locked by an owner password only opens with none and is read,
/// said; one that needs a password is refused as encrypted.
#[test]
fn encryption_is_the_trailers_not_the_bytes() {
    let says = import_as(
        "says_encrypt.pdf",
        &upload("says_encrypt.pdf"),
        "emb",
        DocumentKind::Rules,
    )
    .unwrap();
    assert_eq!(
        texts_of_import(&says)["1.1"],
        "Never put /Encrypt in your deck name."
    );
    let owner = import_as(
        "nopw.pdf",
        &upload("encrypted_nopw.pdf"),
        "emb",
        DocumentKind::Rules,
    )
    .unwrap();
    assert!(texts_of_import(&owner)["1.1"].contains("draws 7 Embers"));
    assert!(
        owner
            .preview
            .warnings
            .iter()
            .any(|w| w.contains("owner password only")),
        "{:?}",
        owner.preview.warnings
    );
    let err = import_as(
        "pw.pdf",
        &upload("encrypted_pw.pdf"),
        "emb",
        DocumentKind::Rules,
    )
    .unwrap_err();
    assert!(err.to_string().contains("is an encrypted PDF"), "{err}");
    // Its table damaged, the file is read from its objects: the rebuilt
    // trailer keeps its `/Encrypt`, so it is still refused as encrypted.
    let mut damaged = upload("encrypted_pw.pdf");
    let at = damaged.windows(9).rposition(|w| w == b"startxref").unwrap();
    for b in damaged[at + 9..].iter_mut().take_while(|b| **b != b'%') {
        if b.is_ascii_digit() {
            *b = b'1';
        }
    }
    let err = import_as("pw.pdf", &damaged, "emb", DocumentKind::Rules).unwrap_err();
    assert!(err.to_string().contains("is an encrypted PDF"), "{err}");
}

/// A page using a font its resources do not hold made the reader panic,
/// and the whole file was refused as "damaged (its pages could not be
/// found …)". The page is named and the others read, in the process and
/// in the conversion's child process, as an upload is converted.
#[test]
fn a_page_with_a_missing_font_is_named_and_the_rest_read() {
    let file = "badpage_missingfont.pdf";
    let bytes = upload(file);
    let imp = import_as(file, &bytes, "emb", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    assert_eq!(texts["1.1"], "Each player draws seven cards.");
    assert_eq!(texts["3.2"], "Block with one creature.");
    let said = |warnings: &[String]| {
        warnings
            .iter()
            .any(|w| w.contains(": page 2 of 3 is damaged"))
    };
    assert!(said(&imp.preview.warnings), "{:?}", imp.preview.warnings);
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let req = ImportRequest {
        file_name: file,
        bytes: &bytes,
        game: "emb",
        kind: DocumentKind::Rules,
        title: None,
    };
    let target = common::app().import_target(&req).unwrap();
    let limits = arbiter::sandbox::Limits {
        cpu: std::time::Duration::from_secs(120),
        wall: std::time::Duration::from_secs(240),
        ..arbiter::sandbox::Limits::default()
    };
    let done = arbiter::sandbox::convert_blocking(&target, &bytes, &limits).unwrap();
    let warnings = &done.converted.preview.warnings;
    assert!(said(warnings), "{warnings:?}");
    assert!(
        done.converted
            .preview
            .passages
            .iter()
            .any(|p| p.id.ends_with(":3.2")),
        "{:?}",
        done.converted.preview.passages
    );
}

/// Unicode's noncharacters stood in for escaped marks while a line was
/// cleaned and came back as them: nonchar.md's U+FDE6 … U+FDD5 were
/// quoted as a masked link and "&everyone" the file does not hold. They
/// are left out and said.
#[test]
fn noncharacters_never_become_markup() {
    let imp = import_as(
        "nonchar.md",
        &upload("nonchar.md"),
        "emb3",
        DocumentKind::Rules,
    )
    .unwrap();
    let texts = texts_of_import(&imp);
    let rule = texts
        .values()
        .find(|t| t.contains("Claim your prize"))
        .unwrap();
    assert!(!rule.contains(['[', ']', '(', ')', '&']), "{rule}");
    let said = imp
        .preview
        .warnings
        .iter()
        .find(|w| w.contains("noncharacter"));
    assert!(
        said.is_some_and(|w| w.contains("line:column 5:")),
        "{:?}",
        imp.preview.warnings
    );
}

/// A PDF whose page tree loops back on itself (an outside tester's: the
/// page's `/Kids` names its parent again) has its page read once: its
/// rules were stored three times, `1.1`, `1.1~2` and `1.1~3`.
#[test]
fn a_page_tree_that_loops_reads_each_page_once() {
    let file = "pagetree_cycle.pdf";
    let bytes = upload(file);
    let imp = import_as(file, &bytes, "loop", DocumentKind::Rules).unwrap();
    let texts = texts_of_import(&imp);
    let repeated: Vec<&String> = texts.keys().filter(|id| id.contains('~')).collect();
    assert!(repeated.is_empty(), "{repeated:?} in {texts:?}");
    assert!(!texts.is_empty(), "the page is read");
}
