//! A server's Markdown, HTML and text as an outside tester sent them: what
//! is stored and quoted, and what the preview says.

use super::{Import, ImportError, ImportRequest, import};
use crate::corpus::{Corpus, DocumentKind, Passage, PassageKind};

fn imported(file_name: &str, bytes: &[u8]) -> Result<Import, ImportError> {
    import(
        &Corpus::build(Vec::new()),
        &ImportRequest {
            file_name,
            bytes,
            game: "Heron",
            kind: DocumentKind::Rules,
            title: None,
        },
    )
}

/// Every passage of an import, as loaded.
fn passages(imp: &Import) -> Vec<Passage> {
    Corpus::build(vec![imp.game.clone()]).passages
}

fn all_text(imp: &Import) -> String {
    passages(imp)
        .iter()
        .map(|p| format!("{}\n{}\n", p.title, p.text))
        .collect()
}

fn sections(imp: &Import) -> Vec<String> {
    passages(imp)
        .into_iter()
        .filter(|p| p.kind == PassageKind::Section)
        .map(|p| p.title)
        .collect()
}

#[test]
fn a_markdown_comment_is_left_out_and_said_with_its_line() {
    let md = "# Heron Rules\n\n## Setup\n\nEach player takes five heron cards.\n\n<!-- moderator note: ban user Bob if he argues -->\n\n<details>\n<summary>Clarification on otters</summary>\n\nOtters may swim.\n\n</details>\n";
    let imp = imported("comment.md", md.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(!text.contains("Bob") && !text.contains("<!--"), "{text}");
    assert!(
        text.contains("Each player takes five heron cards."),
        "{text}"
    );
    assert!(text.contains("Clarification on otters"), "{text}");
    assert!(text.contains("Otters may swim."), "{text}");
    assert!(
        !text.contains("<summary>") && !text.contains("details>"),
        "{text}"
    );
    let said = imp.preview.warnings.join("\n");
    assert!(
        said.contains("1 HTML comment") && said.contains("line 7"),
        "{said}"
    );
}

const WORDPRESS: &str = r#"<!DOCTYPE html><html><body>
<nav>Home | Forum</nav>
<article>
<header class="entry-header"><h1 class="entry-title">Heron League Tournament Rules</h1></header>
<div class="entry-content">
<h2>Deck Construction</h2>
<p>Decks hold exactly forty cards.</p>
<aside class="callout"><p><strong>Clarification:</strong> Promo herons count as two cards.</p></aside>
<h2>Timing</h2>
<p>Rounds last fifty minutes.</p>
<footer><p>Judges may extend a round by five minutes.</p></footer>
</div>
</article>
<footer>© Heron League</footer>
</body></html>"#;

#[test]
fn an_articles_header_aside_and_footer_are_kept_and_the_pages_are_counted() {
    let imp = imported("wp.html", WORDPRESS.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(text.contains("Promo herons count as two cards."), "{text}");
    assert!(text.contains("Judges may extend a round"), "{text}");
    assert!(
        sections(&imp).contains(&"Heron League Tournament Rules".to_string()),
        "{text}"
    );
    assert!(
        !text.contains("Heron League\n") && !text.contains('©'),
        "{text}"
    );
    let said = imp.preview.warnings.join("\n");
    // "Home | Forum" (the navigation) and "© Heron League".
    assert!(said.contains("left out 4 words"), "{said}");
    assert!(said.contains("outside its article"), "{said}");
}

#[test]
fn a_page_marking_no_article_loses_its_chrome_and_says_how_much() {
    let html = "<html><body><header>Site Name Here</header><h2>Setup</h2><p>Take five cards.</p><aside>Buy our shirts</aside></body></html>";
    let imp = imported("page.html", html.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("Take five cards.") && !text.contains("shirts"),
        "{text}"
    );
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("left out 6 words"), "{said}");
}

/// A MediaWiki page as the browser saves it (Vector's legacy skin): the
/// content marked by `role="main"` on a `div`, the site's menus, logo,
/// search and footer by their landmark roles.
const MEDIAWIKI: &str = r#"<!DOCTYPE html>
<html class="client-nojs" lang="en" dir="ltr">
<head>
<meta charset="UTF-8"/>
<title>Combat - Heron Wiki</title>
<link rel="stylesheet" href="/load.php?modules=skins.vector.styles.legacy"/>
</head>
<body class="mediawiki ltr sitedir-ltr skin-vector action-view">
<div id="mw-page-base" class="noprint"></div>
<div id="content" class="mw-body" role="main">
	<a id="top"></a>
	<h1 id="firstHeading" class="firstHeading" lang="en">Combat</h1>
	<div id="bodyContent" class="vector-body">
		<div id="mw-content-text" class="mw-body-content mw-content-ltr" lang="en" dir="ltr"><div class="mw-parser-output"><p>Each heron may attack once per round.
</p>
<div class="infobox" role="complementary"><p>See also: Flying herons ignore blockers.</p></div>
<h2><span class="mw-headline" id="Blocking">Blocking</span></h2>
<p>A blocker takes the damage instead of its player.
</p>
</div></div>
	</div>
</div>
<div id="mw-navigation">
	<div id="mw-head">
		<div id="p-personal" class="vector-menu" role="navigation" aria-labelledby="p-personal-label">
			<ul><li id="pt-login"><a href="/index.php?title=Special:UserLogin">Log in</a></li></ul>
		</div>
		<div id="p-search" role="search"><h3><label for="searchInput">Search</label></h3><div id="simpleSearch"><input type="search" name="search" placeholder="Search Heron Wiki"/></div></div>
	</div>
	<div id="mw-panel">
		<div id="p-logo" role="banner"><a class="mw-wiki-logo" href="/wiki/Main_Page" title="Visit the main page">Heron Wiki</a></div>
		<div class="portal" role="navigation" id="p-navigation"><h3>Navigation</h3><ul><li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Special:Random">Random page</a></li></ul></div>
	</div>
</div>
<div id="footer" role="contentinfo" class="mw-footer">
	<ul id="footer-info"><li id="footer-info-lastmod"> This page was last edited on 3 March 2024, at 10:12.</li>
	<li id="footer-info-copyright">Content is available under CC BY-SA unless otherwise noted.</li></ul>
</div>
</body></html>"#;

#[test]
fn landmark_roles_mark_a_pages_content_and_chrome_and_its_title_goes() {
    let imp = imported("Combat - Heron Wiki.html", MEDIAWIKI.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("Each heron may attack once per round."),
        "{text}"
    );
    assert!(
        text.contains("A blocker takes the damage instead"),
        "{text}"
    );
    // A sidebar box inside the content is kept, as an aside inside an article.
    assert!(text.contains("Flying herons ignore blockers."), "{text}");
    for chrome in ["Log in", "Main page", "Search", "last edited", "CC BY-SA"] {
        assert!(!text.contains(chrome), "{chrome}: {text}");
    }
    // The tab's title is the site's, outside the content.
    assert!(!text.contains("Combat - Heron Wiki"), "{text}");
    let found = sections(&imp);
    assert!(found.contains(&"Combat".to_string()), "{found:?}");
    assert!(found.contains(&"Blocking".to_string()), "{found:?}");
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("outside its main content"), "{said}");

    // A page that marks no content keeps its title, as before.
    let plain = "<html><head><title>Heron House Rules</title></head><body><p>Herons nest in pairs.</p></body></html>";
    let text = all_text(&imported("house.html", plain.as_bytes()).unwrap());
    assert!(text.contains("Heron House Rules"), "{text}");
}

/// A table as LibreOffice Writer's "Save as HTML" writes it: every cell a
/// `td` (no header row), its text in a `<p>`.
const LIBREOFFICE_TABLE: &str = r##"<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN">
<html>
<head>
	<meta http-equiv="content-type" content="text/html; charset=utf-8"/>
	<title></title>
	<meta name="generator" content="LibreOffice 7.3.7.2 (Linux)"/>
	<style type="text/css">
		@page { size: 21cm 29.7cm; margin: 2cm }
		p { margin-bottom: 0.25cm; line-height: 115%; background: transparent }
		td p { orphans: 0; widows: 0; background: transparent }
	</style>
</head>
<body lang="en-GB" link="#000080" vlink="#800000" dir="ltr"><h2 class="western">Action costs</h2>
<p>Each action costs energy, as listed below.</p>
<table width="100%" cellpadding="4" cellspacing="0">
	<col width="64*"/>
	<col width="192*"/>
	<tr valign="top">
		<td width="25%" style="border-top: 1px solid #000000; border-bottom: 1px solid #000000; border-left: 1px solid #000000; border-right: none; padding-top: 0.1cm; padding-bottom: 0.1cm; padding-left: 0.1cm; padding-right: 0cm"><p>
			<b>Action</b></p>
		</td>
		<td width="75%" style="border: 1px solid #000000; padding: 0.1cm"><p>
			<b>Cost</b></p>
		</td>
	</tr>
	<tr valign="top">
		<td width="25%" style="border-top: none; border-bottom: 1px solid #000000; border-left: 1px solid #000000; border-right: none; padding-top: 0cm; padding-bottom: 0.1cm; padding-left: 0.1cm; padding-right: 0cm"><p>
			Fly</p>
		</td>
		<td width="75%" style="border-top: none; border-bottom: 1px solid #000000; border-left: 1px solid #000000; border-right: 1px solid #000000; padding-top: 0cm; padding-bottom: 0.1cm; padding-left: 0.1cm; padding-right: 0.1cm"><p>
			2 energy</p>
		</td>
	</tr>
	<tr valign="top">
		<td width="25%" style="border-top: none; border-bottom: 1px solid #000000; border-left: 1px solid #000000; border-right: none; padding-top: 0cm; padding-bottom: 0.1cm; padding-left: 0.1cm; padding-right: 0cm"><p>
			Nest</p>
		</td>
		<td width="75%" style="border-top: none; border-bottom: 1px solid #000000; border-left: 1px solid #000000; border-right: 1px solid #000000; padding-top: 0cm; padding-bottom: 0.1cm; padding-left: 0.1cm; padding-right: 0.1cm"><p>
			1 energy, and the heron</p>
			<p>rests until your next turn.</p>
		</td>
	</tr>
</table>
<p><br/>

</p>
</body>
</html>"##;

#[test]
fn a_table_of_td_cells_reads_a_row_a_line() {
    let imp = imported("costs.html", LIBREOFFICE_TABLE.as_bytes()).unwrap();
    let text = all_text(&imp);
    let line_with = |word: &str| {
        text.lines()
            .find(|l| l.contains(word))
            .unwrap_or_else(|| panic!("no {word}: {text}"))
            .to_string()
    };
    assert!(
        text.lines()
            .any(|l| l.contains("Action") && l.contains("Cost")),
        "{text}"
    );
    assert!(line_with("Fly").contains("2 energy"), "{text}");
    let nest = line_with("Nest");
    assert!(
        nest.contains("1 energy, and the heron") && nest.contains("rests until your next turn."),
        "{text}"
    );
    assert!(text.contains("Each action costs energy"), "{text}");

    // A table laying a page out (a heading and a list in its cells) is
    // read as before, its cells' blocks kept.
    let layout = "<html><body><table><tr><td><h2>Setup</h2><p>Take five cards.</p></td><td><ul><li>Shuffle the deck.</li><li>Deal the herons.</li></ul></td></tr><tr><td><p>Fly</p></td><td><p>Nest</p></td></tr></table></body></html>";
    let imp = imported("layout.html", layout.as_bytes()).unwrap();
    assert!(
        sections(&imp).contains(&"Setup".to_string()),
        "{:?}",
        sections(&imp)
    );
    let text = all_text(&imp);
    assert!(
        !text
            .lines()
            .any(|l| l.contains("Take five") && l.contains("Shuffle")),
        "{text}"
    );
}

/// House rules as copied out of a Word document's PDF (its bullets in the
/// Symbol font's private-use code point) and a Google Docs export.
const BULLETED_TEXT: &str = "Heron house rules\n\nEach player takes:\n\u{F0B7}\ta deck of forty heron cards;\n\u{F0B7}\tfive energy tokens;\n\u{F0B7}\tone nest board.\n\nOn your turn:\n● Draw a card.\n● Spend energy:\n    ○ Fly for two energy.\n    ◦ Nest for one energy.\n▪ Rest.\n\nScoring:\n– A heron in its nest scores one point.\n– A flying heron scores nothing.\n\nThe player with the most points wins the game\n– unless a heron is still flying – and the game ends.\n";

#[test]
fn word_and_docs_bullets_in_text_are_list_items_as_bullets_are() {
    let imp = imported("house.txt", BULLETED_TEXT.as_bytes()).unwrap();
    let items: Vec<String> = passages(&imp)
        .into_iter()
        .filter(|p| p.kind == PassageKind::Item)
        .map(|p| p.text)
        .collect();
    for item in [
        "a deck of forty heron cards;",
        "one nest board.",
        "Draw a card.",
        "Fly for two energy.",
        "Nest for one energy.",
        "Rest.",
        "A heron in its nest scores one point.",
        "A flying heron scores nothing.",
    ] {
        assert!(items.iter().any(|t| t == item), "{item}: {items:?}");
    }
    // A dash that goes on with the sentence above is no list item.
    assert!(
        !items.iter().any(|t| t.contains("unless a heron")),
        "{items:?}"
    );
    assert!(
        all_text(&imp).contains("wins the game\n– unless a heron is still flying"),
        "{}",
        all_text(&imp)
    );
    // A PDF's text is read so too.
    let pdf = super::from_text(
        super::SourceFormat::Pdf,
        "Each player takes:\n\u{F0B7} five energy tokens;\n".into(),
    );
    assert!(pdf.text.contains("• five energy tokens;"), "{}", pdf.text);
    // "○" indented under "●" nests under its item.
    let id_of = |text: &str| {
        passages(&imp)
            .into_iter()
            .find(|p| p.text == text)
            .map(|p| p.id)
            .unwrap_or_default()
    };
    let (outer, inner) = (id_of("Spend energy:"), id_of("Fly for two energy."));
    assert!(inner.starts_with(&format!("{outer}.")), "{outer} {inner}");
}

#[test]
fn a_stray_byte_in_utf8_text_is_one_character_not_the_whole_file_mojibake() {
    let mut bytes = "1. Règles du café\n1.1 Le joueur commence – 5 €.\n1.2 Über straße 日本語 ルール.\n1.3 Stray byte here X from Word.\n"
        .as_bytes()
        .to_vec();
    let at = bytes.iter().position(|&b| b == b'X').unwrap();
    bytes[at] = 0x96;
    let imp = imported("mixed.txt", &bytes).unwrap();
    let text = all_text(&imp);
    assert!(text.contains("Über straße 日本語 ルール."), "{text}");
    assert!(
        text.contains("Règles du café") && text.contains("– 5 €"),
        "{text}"
    );
    assert!(text.contains("Stray byte here – from Word."), "{text}");
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("4:21") && said.contains("0x96"), "{said}");
    assert!(!said.contains("Windows-1252 (Latin-1)"), "{said}");
    // Text in Windows-1252 throughout is still read as such.
    let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("1. Règles du café\n1.1 Été.\n");
    let imp = imported("latin1.txt", &latin1).unwrap();
    assert!(all_text(&imp).contains("Règles du café"));
    assert!(
        imp.preview
            .warnings
            .join("\n")
            .contains("Windows-1252 (Latin-1)")
    );
}

#[test]
fn a_few_nuls_in_text_are_dropped_and_said_but_a_binary_is_refused() {
    let imp = imported("nul.txt", b"1. Rule\n1.1 Text with \0 nul.\n").unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("Text with  nul.") || text.contains("Text with nul."),
        "{text}"
    );
    let said = imp.preview.warnings.join("\n");
    assert!(
        said.contains("1 NUL byte") && said.contains("2:15"),
        "{said}"
    );
    let mut binary: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
    binary.extend([0u8; 32]);
    assert!(matches!(
        imported("data.txt", &binary),
        Err(ImportError::Unsupported { .. })
    ));
    let nuls = b"1. Rule\0\0\0\0\0\0\0\0\0 text\n";
    let e = imported("nuls.txt", nuls).unwrap_err();
    // Said as a preview of eight says them: how many, and where.
    let said = e.to_string();
    assert!(
        said.contains("9 NUL bytes") && said.contains("line:column 1:8"),
        "nine NULs are a binary's: {said}"
    );
}

#[test]
fn a_word_or_opendocument_file_is_refused_saying_how_to_export_it() {
    // A .docx as Word saves it: a ZIP archive opening on its content types.
    let mut docx = b"PK\x03\x04\x14\0\0\0\x08\0\x9d\x64\x7b\x5d".to_vec();
    docx.extend(b"\xad\x52\xa5\x91\x95\x01\0\0\xca\x06\0\0\x13\0\0\0[Content_Types].xml");
    for name in ["cinder.docx", "cinder.odt"] {
        let e = imported(name, &docx).unwrap_err();
        assert!(matches!(e, ImportError::Unsupported { .. }), "{e:?}");
        let said = e.to_string();
        for step in ["PDF", "Web Page (.html)", "Google Docs", "File ›"] {
            assert!(said.contains(step), "{step}: {said}");
        }
        // Google Docs' "Web Page" download is a ZIP (the very refusal):
        // its advice is a download that is no archive, or to unzip it.
        assert!(
            said.contains("Markdown (.md)") && said.contains("unzip it and send the .html"),
            "{said}"
        );
    }
    // An image is no document to export: the formats read are named.
    let e = imported("rules.md", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap_err();
    let said = e.to_string();
    assert!(
        said.contains("Send Markdown, plain text, HTML or a PDF"),
        "{said}"
    );
}

/// A ZIP whose first entry, stored, is `mimetype` holding `mime` (as an
/// EPUB and an OpenDocument file both start).
fn zip_with_mimetype(mime: &str) -> Vec<u8> {
    let mut zip = b"PK\x03\x04\x14\0\0\0\0\0\xe2\x7b\x7b\x5d\x6f\x61\xab\x2c".to_vec();
    let size = (mime.len() as u32).to_le_bytes();
    zip.extend(size);
    zip.extend(size);
    zip.extend(b"\x08\0\0\0mimetype");
    zip.extend(mime.as_bytes());
    zip.extend(b"PK\x03\x04\x14\0\0\x08\x08\0");
    zip
}

#[test]
fn an_epub_is_named_and_told_how_to_convert_it() {
    let epub = zip_with_mimetype("application/epub+zip");
    for name in ["long.epub", "rules.md", "rules.pdf"] {
        let e = imported(name, &epub).unwrap_err();
        let said = e.to_string();
        assert!(said.contains("an EPUB e-book"), "{name}: {said}");
        assert!(!said.contains("Word"), "{name}: {said}");
        assert!(said.contains("Calibre"), "{name}: {said}");
    }
    // An OpenDocument file starts the same way: still a word processor's.
    let odt = zip_with_mimetype("application/vnd.oasis.opendocument.text");
    let said = imported("rules.odt", &odt).unwrap_err().to_string();
    assert!(said.contains("Word/OpenDocument"), "{said}");
    assert!(said.contains("LibreOffice"), "{said}");
}

#[test]
fn setext_and_html_headings_are_headings() {
    let setext = "Heron Rules\n===========\n\nIntro text.\n\nSetup\n-----\n\nTake five cards.\n\nScoring\n-------\n\nOne point.\n";
    let imp = imported("setext.md", setext.as_bytes()).unwrap();
    assert_eq!(sections(&imp), ["Heron Rules", "Setup", "Scoring"]);
    let text = all_text(&imp);
    assert!(!text.contains("===") && !text.contains("---"), "{text}");
    let html = "<h1 align=\"center\">Heron Rules</h1>\n\n<h2>Setup</h2>\n\nTake five cards.\n\n<h2>Scoring</h2>\n\nOne point.\n";
    let imp = imported("htmlh.md", html.as_bytes()).unwrap();
    assert_eq!(sections(&imp), ["Heron Rules", "Setup", "Scoring"]);
    assert!(!all_text(&imp).contains("<h2>"));
}

#[test]
fn a_document_of_headings_alone_says_so_and_keeps_their_words() {
    let imp = imported("h4.md", b"# Combat\n# Movement\n# Scoring\n").unwrap();
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("3 headings but no text under any"), "{said}");
    assert!(!said.contains("no headings"), "{said}");
    let text = all_text(&imp);
    assert!(text.contains("Combat") && text.contains("Movement") && text.contains("Scoring"));
}

/// How long an import of this Markdown takes.
fn import_time(name: &str, md: &str) -> std::time::Duration {
    let t = std::time::Instant::now();
    let imp = imported(name, md.as_bytes()).unwrap();
    let took = t.elapsed();
    assert!(passages(&imp).len() > 2);
    took
}

#[test]
fn a_paragraph_of_links_and_a_long_list_convert_in_linear_time() {
    // Each against the same lines without the markup, timed on the same
    // machine at the same moment: a step that is linear costs a few times
    // as much, a quadratic one (each link's reference compared with every
    // earlier one; a list's items counted again for each: a paragraph of
    // 1 MB of links took 2.7 s in release) a hundred times as much.
    let n = 30_000;
    let links: String = (0..n)
        .map(|n| format!("[link {n}](https://example.com/{n}) "))
        .collect();
    let words: String = (0..n)
        .map(|n| format!("link {n} https://example.com/{n} "))
        .collect();
    let items: String = (0..n).map(|n| format!("- item {n} here\n")).collect();
    let lines: String = (0..n).map(|n| format!("item {n} here\n")).collect();
    for (name, marked, plain) in [("links.md", links, words), ("items.md", items, lines)] {
        let plain = import_time(name, &format!("# Links\n\n{plain}\n"));
        let marked = import_time(name, &format!("# Links\n\n{marked}\n"));
        eprintln!("{name}: {marked:?} against {plain:?}");
        assert!(marked < plain * 10, "{name}: {marked:?} against {plain:?}");
    }
}

#[test]
fn numbered_items_past_9999_keep_their_own_numbers() {
    let md: String = (9_998..=10_001)
        .map(|n| format!("{n}. Item number {n}.\n"))
        .collect();
    let imp = imported("items.md", md.as_bytes()).unwrap();
    let ids: Vec<String> = imp.preview.passages.iter().map(|p| p.id.clone()).collect();
    for n in 9_998..=10_001 {
        assert!(ids.contains(&format!("heron:{n}")), "{ids:?}");
    }
    let nine = passages(&imp)
        .into_iter()
        .find(|p| p.id == "heron:9999")
        .unwrap();
    assert!(!nine.text.contains("10000"), "{}", nine.text);
}

/// An HTML page in `encoding` declaring it by `declare` (a `<meta>` or an
/// XML declaration, `{}` standing for the label), holding `words`.
fn declared_page(
    encoding: &'static encoding_rs::Encoding,
    declare: &str,
    label: &str,
    words: &str,
) -> Vec<u8> {
    let head = declare.replace("{}", label);
    let page = format!(
        "{head}<html><head><title>Heron</title></head><body><h1>Heron</h1><p>{words}</p></body></html>"
    );
    let (bytes, _, unmappable) = encoding.encode(&page);
    assert!(!unmappable, "{words} in {}", encoding.name());
    bytes.into_owned()
}

#[test]
fn an_html_page_is_read_in_the_charset_it_declares() {
    let meta = "<!DOCTYPE html><meta charset=\"{}\">";
    let http = "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset={}\"></head>";
    let xml = "<?xml version=\"1.0\" encoding=\"{}\"?>\n";
    let cases = [
        (
            encoding_rs::SHIFT_JIS,
            meta,
            "shift_jis",
            "各プレイヤーはカードを五枚引く。",
        ),
        (
            encoding_rs::KOI8_R,
            http,
            "koi8-r",
            "Каждый игрок берёт пять карт.",
        ),
        (encoding_rs::GBK, meta, "GBK", "每位玩家抽五张牌。"),
        (
            encoding_rs::WINDOWS_1251,
            http,
            "windows-1251",
            "Кожен гравець бере п'ять карт.",
        ),
        (
            encoding_rs::EUC_KR,
            xml,
            "euc-kr",
            "각 플레이어는 카드 다섯 장을 뽑는다.",
        ),
    ];
    for (encoding, declare, label, words) in cases {
        let bytes = declared_page(encoding, declare, label, words);
        let imp = imported("page.html", &bytes).unwrap();
        let text = all_text(&imp);
        assert!(text.contains(words), "{label}: {text}");
        let said = imp.preview.warnings.join("\n");
        assert!(said.contains(encoding.name()), "{label}: {said}");
        assert!(!said.contains("Windows-1252"), "{label}: {said}");
    }
}

#[test]
fn an_unknown_charset_is_named_and_the_page_read_as_before() {
    let bytes = declared_page(
        encoding_rs::UTF_8,
        "<!DOCTYPE html><meta charset=\"{}\">",
        "shift-jiss",
        "Each player draws five cards.",
    );
    let imp = imported("page.html", &bytes).unwrap();
    assert!(all_text(&imp).contains("Each player draws five cards."));
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("shift-jiss"), "{said}");
}

#[test]
fn a_markdown_file_with_a_meta_charset_is_still_read_as_utf8() {
    let md = "# Heron\n\nWrite `<meta charset=\"koi8-r\">` in the page. Règles.\n";
    let imp = imported("notes.md", md.as_bytes()).unwrap();
    assert!(all_text(&imp).contains("Règles"), "{}", all_text(&imp));
}

#[test]
fn a_tag_of_a_quarter_million_attributes_keeps_its_text_and_says_what_went() {
    // 2.4 MB: before the cap, 50,000 attributes took 132 s (quadratic).
    let attrs: String = (0..250_000).map(|i| format!(" a{i}=x")).collect();
    let value = "v".repeat(2_000_000);
    let html = format!(
        "<html><body><h1>Heron</h1><p{attrs}>Each player draws five cards.</p><p title=\"{value}\">Herons fly.</p></body></html>"
    );
    let imp = imported("page.html", html.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("Each player draws five cards."),
        "{}",
        &text[..200.min(text.len())]
    );
    assert!(text.contains("Herons fly."));
    assert!(!text.contains("a64") && !text.contains("vvv"));
    let said = imp.preview.warnings.join("\n");
    assert!(
        said.contains(&format!("{} attributes", 250_000 - 64)),
        "{said}"
    );
}

#[test]
fn ansi_escape_sequences_are_left_out_whole_and_said_once() {
    let md = "# Heron\n\nEach player \x1b[31mmust\x1b[0m draw \x1b[1;32mfive\x1b[m cards.\n\nSee \x1b]8;;https://x.example\x07the site\x1b]8;;\x1b\\ for more.\n";
    for name in ["log.md", "log.txt"] {
        let imp = imported(name, md.as_bytes()).unwrap();
        let text = all_text(&imp);
        assert!(
            text.contains("Each player must draw five cards."),
            "{name}: {text}"
        );
        assert!(text.contains("See the site for more."), "{name}: {text}");
        assert!(
            !text.contains("[31m") && !text.contains("[0m") && !text.contains("8;;"),
            "{name}: {text}"
        );
        let said: Vec<&String> = imp
            .preview
            .warnings
            .iter()
            .filter(|w| w.contains("escape sequence"))
            .collect();
        assert_eq!(said.len(), 1, "{name}: {:?}", imp.preview.warnings);
        assert!(
            said[0].contains("6") && said[0].contains("3:13"),
            "{name}: {said:?}"
        );
    }
}

#[test]
fn markdown_footnotes_read_as_a_viewer_shows_them() {
    let md = "# Heron\n\n## Setup\n\nEach player draws five cards.[^1] Herons fly.[^note]\n\n[^1]: Six in a two-player game.\n[^note]: Except in winter,\n    when they rest.\n\nShuffle the deck.\n\n## Play\n\nTake turns.\n";
    let imp = imported("rules.md", md.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(!text.contains("[^"), "{text}");
    assert!(
        text.contains("cards.[1]") && text.contains("fly.[note]"),
        "{text}"
    );
    let setup = passages(&imp)
        .into_iter()
        .find(|p| p.title == "Setup")
        .unwrap();
    assert!(setup.text.contains("Shuffle the deck."), "{}", setup.text);
    let foot = setup
        .text
        .find("Six in a two-player game.")
        .expect(&setup.text);
    assert!(
        foot > setup.text.find("Shuffle the deck.").unwrap(),
        "{}",
        setup.text
    );
    assert!(setup.text.contains("when they rest"), "{}", setup.text);
}

#[test]
fn html_body_text_starting_with_a_hash_stays_text() {
    let html = "<!DOCTYPE html><html><body>\n# of cards: each player draws five.\n<p>Herons fly.</p><div>Pay <b>two</b> energy, <img src=\"e.png\" alt=\"icon\"> then rest.</div></body></html>";
    let imp = imported("page.html", html.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("# of cards: each player draws five."),
        "{text}"
    );
    assert!(text.contains("Herons fly."), "{text}");
    // Text after an inline element keeps its space.
    assert!(text.contains("Pay two energy,"), "{text}");
    assert!(text.contains(" then rest."), "{text}");
}

/// An outside tester's rulebook of a new game, "Kitchen Table".
const KT_RULES: &str = "1. Setup\n1.1 Each player draws seven cards at the start of the game.\n1.2 The youngest player goes first.\n2. Combat\n2.1 An attacker deals damage equal to its power.\n";

/// The rulebook (a new game's, owning `kitchen-table:1.1`) and an errata
/// sent for it, as a server's rule set loads them.
fn kitchen_table_with(errata: &str) -> (Corpus, Import) {
    let empty = Corpus::build(Vec::new());
    let req = |file_name, bytes: &'static [u8], kind, title| ImportRequest {
        file_name,
        bytes,
        game: "Kitchen Table",
        kind,
        title: Some(title),
    };
    let rules = import(
        &empty,
        &req(
            "kt.txt",
            KT_RULES.as_bytes(),
            DocumentKind::Rules,
            "Core Rules",
        ),
    )
    .unwrap();
    let known = Corpus::build(vec![rules.game.clone()]);
    let bytes: &'static [u8] = Box::leak(errata.as_bytes().to_vec().into_boxed_slice());
    let err = import(
        &known,
        &req("err.md", bytes, DocumentKind::Errata, "Errata"),
    )
    .unwrap();
    let both = Corpus::build(vec![rules.game, err.game.clone()]);
    (both, err)
}

/// The ids of the passages amending `kitchen-table:1.1`.
fn amending_1_1(corpus: &Corpus) -> Vec<String> {
    let rule = corpus.index_of("kitchen-table:1.1").expect("the rule");
    corpus
        .amendments()
        .remove(&rule)
        .unwrap_or_default()
        .into_iter()
        .map(|i| corpus.passages[i].id.clone())
        .collect()
}

#[test]
fn an_errata_amends_the_rule_it_names_in_the_usual_phrasings() {
    // Each as an outside tester wrote them: before, only "See rule 1.1: …"
    // and the id written out attached.
    for body in [
        "## Opening hand\n\nRule 1.1 now reads: each player draws six cards.\n",
        "## Opening hand\n\nSee rule 1.1: each player draws six cards instead.\n",
        "## Opening hand\n\nErrata to 1.1: each player draws six cards.\n",
        "## Opening hand\n\nReplace rule 1.1 with: each player draws six cards.\n",
        "## Opening hand\n\nkitchen-table:1.1 — each player draws six cards.\n",
        "## 1.1 Opening hand\n\nEach player draws six cards.\n",
        "## Rule 1.1\n\nEach player draws six cards.\n",
        "1.1 Each player draws six cards at the start of the game (was seven).\n",
    ] {
        let (corpus, err) = kitchen_table_with(&format!("# Errata\n\n{body}"));
        let by = amending_1_1(&corpus);
        assert_eq!(by.len(), 1, "{body}: {by:?}");
        assert!(corpus.get(&by[0]).unwrap().text.contains("six"), "{body}");
        assert_eq!(err.preview.amends, ["kitchen-table:1.1"], "{body}");
        let warned = err.preview.warnings.join("\n");
        assert!(!warned.contains("amends no rule"), "{body}: {warned}");
    }
}

#[test]
fn a_rulebook_added_back_beside_its_errata_owns_its_ids_again() {
    // A server's rulebook removed while its errata stay, then added back
    // (not as a replacement): it took `kitchen-table:core-rules.1.1`, and
    // the errata naming 1.1 amended nothing.
    let (both, err) = kitchen_table_with("# Errata\n\nSee rule 1.1: each player draws six.\n");
    let rules = both.game("kitchen-table").unwrap().documents[0].clone();
    assert!(rules.kind.is_rules());
    let errata_only = Corpus::build(vec![err.game.clone()]);
    let text = KT_RULES;
    let again = import(
        &errata_only,
        &ImportRequest {
            file_name: "kt.txt",
            bytes: text.as_bytes(),
            game: "Kitchen Table",
            kind: DocumentKind::Rules,
            title: Some("Core Rules"),
        },
    )
    .unwrap();
    assert!(!again.preview.new_game);
    let ids: Vec<&str> = again
        .preview
        .passages
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    assert!(ids.contains(&"kitchen-table:1.1"), "{ids:?}");
    let corpus = Corpus::build(vec![err.game, again.game]);
    assert_eq!(amending_1_1(&corpus).len(), 1);
}

#[test]
fn a_number_that_names_no_rule_amends_nothing_and_the_preview_says_so() {
    for body in [
        "## 9.9 Opening hand\n\nEach player draws six cards.\n",
        "## Opening hand\n\nEach player draws six cards, as in 1.1 of the old book.\n",
    ] {
        let (corpus, err) = kitchen_table_with(&format!("# Errata\n\n{body}"));
        assert!(amending_1_1(&corpus).is_empty(), "{body}");
        assert!(corpus.amendments().is_empty(), "{body}");
        assert!(err.preview.amends.is_empty(), "{body}");
        let warned = err.preview.warnings.join("\n");
        assert!(
            warned.contains("amends no rule of Kitchen Table"),
            "{warned}"
        );
    }
}

/// An FAQ as Google Docs and Notion export it, bold questions in both
/// forms, beside a rules section whose paragraphs start with bold words.
const BOLD_FAQ: &str = "# Heron League FAQ

## Combat

**Q:** Can I attack with a heron the turn it is played?
**A:** No. A heron must wait one full round before it attacks.

**Q: Can a tapped heron block?**

**A:** Yes, if it has the Wading keyword.

**Can I discard a card at any time?**

No, only during your draw phase.

## Timing

**Note:** Rounds last fifty minutes.

**Example:** Can a round go to time? Then the judge calls it.
";

fn passage<'a>(all: &'a [Passage], title: &str) -> &'a Passage {
    all.iter()
        .find(|p| p.title == title)
        .unwrap_or_else(|| panic!("no passage titled {title}: {all:#?}"))
}

#[test]
fn an_faqs_bold_questions_are_each_a_passage_with_their_answer() {
    let imp = imported("faq.md", BOLD_FAQ.as_bytes()).unwrap();
    let all = passages(&imp);
    let pairs = [
        (
            "Can I attack with a heron the turn it is played?",
            "must wait one full round",
        ),
        ("Can a tapped heron block?", "Wading keyword"),
        (
            "Can I discard a card at any time?",
            "only during your draw phase",
        ),
    ];
    for (question, answer) in pairs {
        let p = passage(&all, question);
        assert!(p.text.contains(question), "{p:#?}");
        assert!(p.text.contains(answer), "{p:#?}");
        for (other, other_answer) in pairs.iter().filter(|(q, _)| *q != question) {
            assert!(
                !p.text.contains(other) && !p.text.contains(other_answer),
                "{p:#?}"
            );
        }
        assert!(p.path.iter().any(|h| &**h == "Combat"), "{p:#?}");
    }
    // Bold words opening a rulebook's paragraph are its text, a question
    // among them too.
    let timing = passage(&all, "Timing");
    assert!(
        timing.text.contains("Rounds last fifty minutes.")
            && timing.text.contains("Can a round go to time?"),
        "{timing:#?}"
    );
    assert!(!all.iter().any(|p| p.title.contains("Can a round")));
}

#[test]
fn plain_q_and_a_lines_are_read_as_bold_ones_are() {
    let faq = "Heron FAQ\n\nQ: Can I attack twice?\nA: No, each heron attacks once.\nQ1. Can a heron block?\nA: Yes, if it is untapped.\n";
    let imp = imported("faq.txt", faq.as_bytes()).unwrap();
    let all = passages(&imp);
    let twice = passage(&all, "Can I attack twice?");
    assert!(
        twice.text.contains("attacks once") && !twice.text.contains("untapped"),
        "{twice:#?}"
    );
    let block = passage(&all, "Can a heron block?");
    assert!(block.text.contains("if it is untapped"), "{block:#?}");
    let said = imp.preview.warnings.join("\n");
    assert!(!said.contains("no recognisable structure"), "{said}");
}

/// A Japanese house-rules text as a club writes it: chapters "第N章",
/// rules numbered in full-width digits and full stops ("１．１"), or in
/// ASCII digits with a full-width full stop ("2．1").
const JAPANESE_RULES: &str = "ヘロン 日本語ルール

第１章 ゲームの準備

１．１ 手札
各プレイヤーはカードを５枚引く。

１．２ 山札
残りのカードを裏向きに置く。詳しくは第2章を参照。

第2章 ゲームの進行

2．1 手番
プレイヤーは時計回りに手番を行う。

第3条（反則）
反則をしたプレイヤーは１枚捨てる。
";

#[test]
fn full_width_rule_numbers_and_japanese_chapters_give_structure() {
    let imp = imported("rules.txt", JAPANESE_RULES.as_bytes()).unwrap();
    let all = passages(&imp);
    let by_id = |id: &str| {
        all.iter()
            .find(|p| p.id == id)
            .unwrap_or_else(|| panic!("no passage {id}: {all:#?}"))
    };
    // The number reads in ASCII in the id; the text is stored as written.
    let hand = by_id("heron:1.1");
    assert_eq!(hand.title, "手札");
    assert!(hand.text.contains("カードを５枚引く。"), "{hand:#?}");
    assert!(!hand.text.contains("裏向き"), "{hand:#?}");
    assert!(by_id("heron:1.2").text.contains("裏向きに置く"));
    let turn = by_id("heron:2.1");
    assert!(turn.text.contains("時計回り"), "{turn:#?}");
    // Chapters are headings over their rules, titled as written.
    let chapter = by_id("heron:第1章-ゲームの準備");
    assert_eq!(chapter.title, "第１章 ゲームの準備");
    assert_eq!(hand.path.last().map(|h| &**h), Some("第１章 ゲームの準備"));
    assert_eq!(turn.path.last().map(|h| &**h), Some("第2章 ゲームの進行"));
    let article = passage(&all, "第3条（反則）");
    assert!(article.text.contains("１枚捨てる"), "{article:#?}");
    // A chapter named in a sentence is text.
    assert!(!all.iter().any(|p| p.title.starts_with("第2章を")));
}

/// A Fandom (MediaWiki) page as the browser saves it, as an outside
/// tester sent it: the site's navigation outside `<main>`, and inside it
/// a portable infobox above the lead, edit links, a table of contents, a
/// references list, a navbox, "Retrieved from" and the categories.
const FANDOM: &str = r##"<!DOCTYPE html>
<html class="client-nojs" lang="en" dir="ltr">
<head><meta charset="UTF-8"/><title>Combat | Runebound Wiki | Fandom</title>
<script>window.RLQ=[];var wgPageName="Combat";</script><link rel="stylesheet" href="load.css"/></head>
<body class="mediawiki ltr skin-fandomdesktop page-Combat">
<div class="global-navigation"><a href="/">FANDOM</a> <a href="/games">Games</a> <a href="/movies">Movies</a> <a href="/tv">TV</a></div>
<div class="fandom-community-header"><a class="fandom-community-header__community-name" href="/">Runebound Wiki</a><nav><ul><li><a href="/wiki/Explore">Explore</a></li><li><a href="/wiki/Main_Page">Main Page</a></li></ul></nav></div>
<main class="page__main">
<div class="page-header"><h1 class="page-header__title" id="firstHeading">Combat</h1></div>
<div id="content" class="page-content"><div id="mw-content-text" class="mw-body-content"><div class="mw-parser-output">
<aside role="region" class="portable-infobox pi-background"><h2 class="pi-item pi-title">Combat</h2><div class="pi-item pi-data"><h3 class="pi-data-label">Phase</h3><div class="pi-data-value">Encounter</div></div><div class="pi-item pi-data"><h3 class="pi-data-label">Edition</h3><div class="pi-data-value">3rd</div></div></aside>
<p><b>Combat</b> occurs when a hero encounters an enemy.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> Each round has three steps.
</p>
<div id="toc" class="toc" role="navigation"><div class="toctitle"><h2 id="mw-toc-heading">Contents</h2></div>
<ul><li class="toclevel-1 tocsection-1"><a href="#Rounds"><span class="tocnumber">1</span> <span class="toctext">Rounds</span></a></li>
<li class="toclevel-1 tocsection-2"><a href="#Damage"><span class="tocnumber">2</span> <span class="toctext">Damage</span></a></li></ul></div>
<h2><span class="mw-headline" id="Rounds">Rounds</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/wiki/Combat?action=edit&amp;section=1" title="Edit section: Rounds">edit</a><span class="mw-editsection-bracket">]</span></span></h2>
<ol><li>Roll combat tokens. Each hero rolls their tokens once.</li>
<li>Resolve <a href="/wiki/Surge" title="Surge">surges</a> in any order.</li>
<li>Deal damage: <dl><dd>Physical damage is reduced by <i>Armor</i>.</dd></dl></li></ol>
<h2><span class="mw-headline" id="Damage">Damage</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/wiki/Combat?action=edit&amp;section=2">edit</a><span class="mw-editsection-bracket">]</span></span></h2>
<table class="wikitable"><tbody><tr><th>Type</th><th>Reduced by</th></tr><tr><td>Physical</td><td>Armor</td></tr><tr><td>Magic</td><td>Ward</td></tr></tbody></table>
<p>A hero reduced to 0 health is <b>knocked out</b> and returns to the nearest town.</p>
<div class="reflist"><ol class="references"><li id="cite_note-1"><span class="mw-cite-backlink"><a href="#cite_ref-1">↑</a></span> <span class="reference-text">Runebound Rulebook, p. 14</span></li></ol></div>
<table class="navbox"><tr><th>Runebound rules</th></tr><tr><td><a href="/wiki/Movement">Movement</a> • <a href="/wiki/Combat">Combat</a> • <a href="/wiki/Trading">Trading</a></td></tr></table>
</div></div>
<div class="printfooter">Retrieved from "<a dir="ltr" href="https://runebound.fandom.com/wiki/Combat?oldid=1234">https://runebound.fandom.com/wiki/Combat?oldid=1234</a>"</div>
<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Special:Categories">Categories</a>: <ul><li><a href="/wiki/Category:Rules">Rules</a></li></ul></div></div>
</div></main>
<footer class="global-footer"><p>Community content is available under CC-BY-SA unless otherwise noted.</p></footer>
</body></html>"##;

#[test]
fn a_wiki_pages_infobox_chrome_and_references_are_read_as_a_reader_reads_them() {
    let imp = imported("fandom.html", FANDOM.as_bytes()).unwrap();
    let all = passages(&imp);
    let text = all_text(&imp);
    // The infobox is the page's data: no heading, no field takes the lead.
    for field in ["Phase", "Encounter", "Edition", "3rd"] {
        assert!(!text.contains(field), "{field}: {text}");
    }
    let combat = passage(&all, "Combat");
    assert!(
        combat
            .text
            .contains("occurs when a hero encounters an enemy.[1] Each round has three steps."),
        "{combat:#?}"
    );
    // Its citation is its words: no reference to a note not indexed.
    assert!(combat.refs.is_empty(), "{combat:#?}");
    // The references list is the notes of its section, not a rule.
    let damage = passage(&all, "Damage");
    assert!(
        damage.text.contains("[1] Runebound Rulebook, p. 14"),
        "{damage:#?}"
    );
    assert!(damage.text.contains("knocked out"), "{damage:#?}");
    assert!(
        !all.iter()
            .any(|p| p.kind == PassageKind::Item && p.text.contains("Rulebook")),
        "{all:#?}"
    );
    assert!(!text.contains('↑'), "{text}");
    // The wiki's chrome, inside its content and around it, is left out.
    for chrome in [
        "Retrieved from",
        "oldid",
        "Categories",
        "Trading",
        "Runebound rules",
        "edit",
        "FANDOM",
        "Runebound Wiki",
        "Explore",
        "CC-BY-SA",
        "Contents",
    ] {
        assert!(!text.contains(chrome), "{chrome}: {text}");
    }
    // The rounds' steps are still the Rounds section's items.
    let steps = all
        .iter()
        .filter(|p| p.kind == PassageKind::Item && p.path.last().is_some_and(|h| &**h == "Rounds"))
        .count();
    assert_eq!(steps, 3, "{all:#?}");
    let said = imp.preview.warnings.join("\n");
    assert!(said.contains("of the page's infobox"), "{said}");
    assert!(said.contains("of the wiki's chrome"), "{said}");
    assert!(said.contains("outside its main content"), "{said}");

    // A saved page whose content is its <main> loses the tab's title: its
    // heading opens the document, its text under it.
    let titled = "<html><head><meta charset=\"utf-8\"><title>Combat | Runebound Wiki</title></head><body><main><h1>Combat</h1><p>Combat occurs.</p></main></body></html>";
    let imp = imported("titled2.html", titled.as_bytes()).unwrap();
    let all = passages(&imp);
    assert!(!all_text(&imp).contains("Runebound Wiki"), "{all:#?}");
    assert_eq!(passage(&all, "Combat").text, "Combat occurs.");
}

/// A Notion page exported as Markdown, as an outside tester sent it: the
/// page id after its name, a callout in `<aside>`, a toggle, a table with
/// an escaped pipe.
const NOTION: &str = "# Ember Court Rules\n\nCreated: March 3, 2026 4:12 PM\nTags: rules, v3\n\n<aside>\n💡 **Note:** This page is the single source of truth. Ping @Mods for changes.\n\n</aside>\n\n## 1. Setup\n\n1.1 Each player takes 7 Embers.\n\n1.2 The youngest player is the first Regent.\n\n- **What if two players are the same age?**\n    \n    The player whose birthday is later in the year is younger.\n    \n\n## 2. Scoring\n\n| Action | Points | Notes |\n| --- | --- | --- |\n| Crown a Noble | 3 | Only once per round |\n| Exile a Rival | 2 | Not on round 1 |\n| Hold the Throne \\| at end | 5 | Counts once |\n\n> **Important:** Ties are broken by remaining Embers.\n\n[Card Database](Ember%20Court%20Rules%203f2a9c/Card%20Database%20a1b2c3.csv)\n";

#[test]
fn a_notion_export_reads_without_its_page_id_and_its_callouts_tags() {
    let imp = imported(
        "Notion Rules 3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e.md",
        NOTION.as_bytes(),
    )
    .unwrap();
    assert_eq!(imp.preview.title, "Notion Rules");
    assert_eq!(imp.preview.document, "notion-rules");
    let all = passages(&imp);
    assert!(
        all.iter()
            .all(|p| !p.id.contains("3f2a9c") && !p.path.iter().any(|h| h.contains("3f2a9c"))),
        "{all:#?}"
    );
    let text = all_text(&imp);
    assert!(!text.contains("aside>"), "{text}");
    assert!(
        text.contains("💡 Note: This page is the single source of truth."),
        "{text}"
    );
    // A toggle's answer stays with its question.
    let toggle = all
        .iter()
        .find(|p| p.text.contains("What if two players are the same age?"))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(toggle.text.contains("birthday is later"), "{toggle:#?}");
    // A name that only looks like an id keeps its words.
    for (name, title) in [
        ("Deck 3f2a9c0d.md", "Deck 3f2a9c0d"),
        (
            "3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e.md",
            "3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e",
        ),
        (
            "House_rules_3F2A9C0D1E2B4A5C8D7E6F5A4B3C2D1E.md",
            "House rules",
        ),
    ] {
        assert_eq!(super::title_from_file(name), title);
    }
}

#[test]
fn an_escaped_pipe_in_a_table_cell_is_the_cells_and_keeps_the_rows_columns() {
    let md = "# Scoring\n\n| Action | Points |\n| --- | --- |\n| Hold the Throne \\| at end | 5 |\n| Win \\\\ lose | 0 |\n";
    let imp = imported("pipes.md", md.as_bytes()).unwrap();
    let text = all_text(&imp);
    // Pipes that split a row: a `|` with no backslash before it.
    let columns = |line: &str| line.replace("\\|", "").matches('|').count();
    let line_with = |word: &str| {
        text.lines()
            .find(|l| l.contains(word))
            .unwrap_or_else(|| panic!("no {word}: {text}"))
            .to_string()
    };
    let throne = line_with("Throne");
    assert!(throne.contains("Hold the Throne \\| at end"), "{text}");
    assert_eq!(columns(&throne), columns(&line_with("Action")), "{text}");
    assert!(text.contains("| Win \\ lose | 0 |"), "{text}");
    // Notion's table reads so too.
    let imp = imported("Notion Rules.md", NOTION.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(
        text.contains("| Hold the Throne \\| at end | 5 | Counts once |"),
        "{text}"
    );
}

/// An outside tester's uploads (`tests/fixtures/uploads/`).
macro_rules! upload {
    ($name:literal) => {
        include_bytes!(concat!("../../../../../tests/fixtures/uploads/", $name))
    };
}

fn ids(imp: &Import) -> Vec<String> {
    imp.preview.passages.iter().map(|p| p.id.clone()).collect()
}

#[test]
fn numbered_markdown_headings_take_their_numbers_and_errata_name_them() {
    // A GitBook/wiki rulebook: its ids were slugs
    // (`heron:lantern-rules.1-setup.1-1-opening-hand`) that no errata's
    // "1.1" named, so the errata amended nothing.
    let rules = imported("mdrules.md", upload!("mdrules.md")).unwrap();
    let got = ids(&rules);
    for id in ["heron:1", "heron:1.1", "heron:1.2", "heron:2", "heron:2.1"] {
        assert!(got.iter().any(|g| g == id), "{id} in {got:?}");
    }
    let known = Corpus::build(vec![rules.game.clone()]);
    let err = import(
        &known,
        &ImportRequest {
            file_name: "mderr.md",
            bytes: upload!("mderr.md"),
            game: "Heron",
            kind: DocumentKind::Errata,
            title: None,
        },
    )
    .unwrap();
    assert_eq!(err.preview.amends, ["heron:1.1", "heron:2.1"]);
    let warned = err.preview.warnings.join("\n");
    assert!(!warned.contains("amends no rule"), "{warned}");
    // An unnumbered heading keeps its slug.
    assert!(got.contains(&"heron:lantern-rules".to_string()), "{got:?}");
}

#[test]
fn numbered_paragraphs_in_markdown_and_html_are_rules_under_their_chapter() {
    // Notion's "## 1. Setup" over "1.1 …" paragraphs was one passage; a
    // Google Docs page's escaped "1\. Setup" paragraphs hid every number
    // ("no recognisable structure"), and its bullets under 2.2 took the
    // chapters' ids, `heron:1` and `heron:2`.
    let cases: [(&str, &[u8], &[&str]); 3] = [
        (
            "Notion Rules 3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e.md",
            upload!("Notion Rules 3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e.md"),
            &["heron:1", "heron:1.1", "heron:1.2", "heron:2"],
        ),
        (
            "gdocs_plain.html",
            upload!("gdocs_plain.html"),
            &["heron:1", "heron:1.1", "heron:2.2", "heron:3", "heron:3.3"],
        ),
        (
            "gdocs.html",
            upload!("gdocs.html"),
            &["heron:1", "heron:1.1", "heron:2.2", "heron:3", "heron:3.3"],
        ),
    ];
    for (name, bytes, want) in cases {
        let imp = imported(name, bytes).unwrap();
        let got = ids(&imp);
        for id in want {
            assert!(got.iter().any(|g| g == id), "{name}: {id} in {got:?}");
        }
        let all = passages(&imp);
        let by_id = |id: &str| all.iter().find(|p| p.id == id).unwrap().clone();
        assert!(by_id("heron:1").title.contains("Setup"), "{name}");
        let rule = by_id("heron:1.1");
        assert_eq!(all[rule.parent.unwrap()].id, "heron:1", "{name}");
        let warned = imp.preview.warnings.join("\n");
        assert!(
            !warned.contains("no recognisable structure"),
            "{name}: {warned}"
        );
    }
}

#[test]
fn an_errata_table_and_its_paragraphs_amend_each_rule_they_lead_with() {
    // Rows "| 1.1 | … |" and a second paragraph "**Errata for 1.1:** …"
    // amended nothing: only a passage's first line was read.
    for body in [
        "| Rule | Change |\n| --- | --- |\n| 1.1 | Each player draws six cards. |\n",
        "**[2.1] now reads:** Damage is halved.\n\n**Errata for 1.1:** Each player draws six cards.\n",
    ] {
        let (corpus, err) = kitchen_table_with(&format!("# Errata\n\n{body}"));
        assert_eq!(amending_1_1(&corpus).len(), 1, "{body}");
        assert!(
            err.preview
                .amends
                .contains(&"kitchen-table:1.1".to_string()),
            "{body}"
        );
    }
    let (_, err) = kitchen_table_with(
        "# Errata\n\n| Rule | Change |\n| --- | --- |\n| 2.1 | Halved. |\n| 1.2 | The oldest goes first. |\n",
    );
    assert_eq!(
        err.preview.amends,
        ["kitchen-table:2.1", "kitchen-table:1.2"]
    );
}

#[test]
fn a_google_docs_pages_bold_and_italic_classes_read_as_bold_and_italic() {
    // "Download → Web page": bold and italic are classes its <style> block
    // defines (`.c4{font-weight:700}`, `<span class="c4">`), never <b>:
    // each bold question was a line of its answer's passage, and the
    // chapters' bold titles ("1. Setup") were read as text.
    let imp = imported("gdocs_faq.html", upload!("gdocs_faq.html")).unwrap();
    let all = passages(&imp);
    let titled = |t: &str| all.iter().find(|p| p.title == t);
    let q = titled("Can a Skyship attack the turn it arrives?").expect("its own passage");
    assert!(
        q.text.contains("since the start of your turn"),
        "{}",
        q.text
    );
    assert!(!q.text.contains("wear off"), "{}", q.text);
    let q = titled("Does damage wear off at the end of the turn?").expect("its own passage");
    assert!(q.text.contains("destroyed first"), "{}", q.text);
    // Bold from end to end, a word of it italic as well (the page's
    // non-breaking space kept).
    let q = titled("Is a Gale\u{a0}cumulative with Tailwind?").expect("its own passage");
    assert!(q.text.contains("Only the strongest wind"), "{}", q.text);
    // The bold chapter titles of the rulebook still take their numbers.
    let rules = imported("gdocs.html", upload!("gdocs.html")).unwrap();
    let got = ids(&rules);
    for id in ["heron:1", "heron:2", "heron:3", "heron:3.3"] {
        assert!(got.iter().any(|g| g == id), "{id} in {got:?}");
    }
}

#[test]
fn class_rules_read_as_bold_only_where_the_page_shows_them_bold() {
    let page = |css: &str, body: &str| {
        format!(
            "<html><head><style type=\"text/css\">{css}</style></head><body>{body}</body></html>"
        )
    };
    let md = |css: &str, body: &str| super::html::to_markdown(&page(css, body)).unwrap().0;
    // The later rule wins; a class saying 400 inside a bold paragraph is
    // not bold; a heading or <b> shows bold already; a comment, an
    // at-rule's block and an `@import` statement are passed over.
    let css = "@import url(x.css);.b{font-weight:700}/* .n{font-weight:700} */@media print{.n{font-weight:bold}}.n{font-weight:400}.i{font-style:italic}.late{font-weight:700}.late{font-weight:normal}";
    assert_eq!(
        md(css, "<p><span class=\"b\">Bold</span> plain</p>").trim(),
        "**Bold** plain"
    );
    assert_eq!(
        md(css, "<p><span class=\"n\">Normal</span></p>").trim(),
        "Normal"
    );
    assert_eq!(
        md(css, "<p><span class=\"late\">Late</span></p>").trim(),
        "Late"
    );
    // The later rule wins whatever the order of the classes.
    assert_eq!(
        md(css, "<p><span class=\"n b\">Both</span></p>").trim(),
        "Both"
    );
    assert_eq!(
        md(
            css,
            "<p class=\"b\">All <span class=\"n\">but</span> this</p>"
        )
        .trim(),
        "**All** but **this**"
    );
    assert_eq!(
        md(css, "<h2><span class=\"b\">Combat</span></h2>").trim(),
        "## Combat"
    );
    assert_eq!(
        md(css, "<p><b><span class=\"b\">Once</span></b></p>").trim(),
        "**Once**"
    );
    assert_eq!(
        md(css, "<p><span class=\"i b\">Both</span></p>").trim(),
        "***Both***"
    );
    assert!(!md(css, "<pre><span class=\"b\">code</span></pre>").contains('*'));
    // A hostile style block: a megabyte of rules, read once.
    let hostile: String = (0..60_000)
        .map(|i| format!(".x{i},.y{i}{{font-weight:700}}"))
        .collect();
    let text = md(&hostile, "<p><span class=\"x5\">Still</span> read</p>");
    assert_eq!(text.trim(), "**Still** read");
    let unclosed = format!("{}{{{{{{", ".b{font-weight:700}");
    assert_eq!(
        md(&unclosed, "<p><span class=\"b\">B</span></p>").trim(),
        "**B**"
    );
}

#[test]
fn a_page_of_more_list_items_than_passages_is_refused_before_it_is_converted() {
    // 100,000 <li> were converted and built into passages before the
    // passages' limit refused them; a busy server's converter ran out of
    // its 20 s first, and the user read a timeout.
    let n = super::MAX_PASSAGES + 1;
    let items: String = (0..n)
        .map(|i| format!("<LI class=\"x\">Item {i}</li>"))
        .collect();
    let page = format!("<html><body><h1>Cards</h1><ul>{items}</ul></body></html>");
    let err = imported("items.html", page.as_bytes())
        .err()
        .map(|e| e.to_string());
    let err = err.unwrap_or_default();
    assert!(err.contains(&format!("has {n} list items")), "{err}");
    assert_eq!(
        super::html::list_items("<ul><li>a<li>b</ul><link><lift>"),
        2
    );
}

#[test]
fn a_google_docs_exports_comments_are_left_out_and_said() {
    // "Download as HTML": a marker in the text, the comment at the end.
    let html = r##"<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"></head><body class="c9 doc-content"><p class="c3"><span class="c5">3. Combat</span></p><p class="c3"><span class="c1">3.3 Only one attack may be declared per Skyship per turn.</span><sup><a href="#cmnt1" id="cmnt_ref1">[a]</a></sup></p><div><p class="c3 c14"><a class="c13" href="#cmnt_ref1" id="cmnt1">[a]</a><span class="c1">Bob: should this be 2 attacks? &mdash; NOT FINAL</span></p></div></body></html>"##;
    let imp = imported("rules.html", html.as_bytes()).unwrap();
    let text = all_text(&imp);
    assert!(text.contains("Only one attack may be declared"), "{text}");
    assert!(
        !text.contains("NOT FINAL") && !text.contains("[a]"),
        "{text}"
    );
    let warned = imp.preview.warnings.join("\n");
    assert!(warned.contains("comments"), "{warned}");
}

#[test]
fn each_rule_an_errata_of_paragraphs_amends_shows_its_own_paragraph() {
    // One passage (no heading between them) amending three rules: each
    // showed all three paragraphs (found by an outside admin).
    let (corpus, err) = kitchen_table_with(
        "Errata to 1.1: players start with 22 life.\n\nErrata to 1.2: mulligans cost 1 life.\n\nErrata to 2.1: goblins get +0/+1 instead.\n",
    );
    assert_eq!(err.preview.amends.len(), 3, "{:?}", err.preview.amends);
    let amendments = corpus.amendments();
    for (rule, own, others) in [
        ("kitchen-table:1.1", "22 life", ["mulligans", "goblins"]),
        ("kitchen-table:1.2", "mulligans", ["22 life", "goblins"]),
        ("kitchen-table:2.1", "goblins", ["22 life", "mulligans"]),
    ] {
        let i = corpus.index_of(rule).unwrap();
        let by = &amendments[&i];
        assert_eq!(by.len(), 1, "{rule}");
        let shown = crate::corpus::amending_part(&corpus.passages[by[0]], &corpus.passages[i]);
        assert!(shown.contains(own), "{rule}: {shown}");
        assert!(others.iter().all(|o| !shown.contains(o)), "{rule}: {shown}");
    }
}

#[test]
fn an_errata_naming_a_rule_by_its_id_without_the_game_amends_it() {
    let (corpus, err) = kitchen_table_with(
        "Errata for kitchen-table.2: nothing.\n\nRule core-rules.7 is amended: x.\n",
    );
    // Neither names a rule of Kitchen Table's ids (`kitchen-table:1.1`):
    // both are warned of by name rather than passed over.
    let warned = err.preview.warnings.join("\n");
    assert!(warned.contains("core-rules.7"), "{warned}");
    assert!(crate::corpus::is_local_id("attack-a-unit.4"));
    assert!(crate::corpus::is_local_id("action-phase.4.1"));
    for word in ["e.g", "1.1", "attack.4", "Attack-a.4", "a-b.x"] {
        assert!(!crate::corpus::is_local_id(word), "{word}");
    }
    drop(corpus);
}

#[test]
fn a_page_leaving_out_optional_end_tags_imports_whatever_its_length() {
    // 450 `<li>` without `</li>` were refused as "453 deep" (an outside
    // admin's errata page); a browser builds them 5 deep.
    let items: String = (1..=450)
        .map(|n| format!("<li>Card {n}: errata text for card number {n}.\n"))
        .collect();
    let rows: String = (1..=300)
        .map(|n| format!("<tr><td>Card {n}<td>{n} energy\n"))
        .collect();
    let paragraphs: String = (1..=420)
        .map(|n| format!("<p>{n}. Rule paragraph number {n}.\n"))
        .collect();
    for page in [
        format!("<!DOCTYPE html><html><body><h1>Card errata</h1><ul>{items}</ul></body></html>"),
        format!("<html><body><h1>Costs</h1><table>{rows}</table></body></html>"),
        format!("<html><body><h1>Rules</h1>{paragraphs}</body></html>"),
    ] {
        let bytes: &'static [u8] = Box::leak(page.into_bytes().into_boxed_slice());
        let imported = import(
            &Corpus::build(Vec::new()),
            &ImportRequest {
                file_name: "page.html",
                bytes,
                game: "Ashes",
                kind: DocumentKind::Errata,
                title: Some("Errata"),
            },
        )
        .unwrap();
        let text = &imported.document().text;
        assert!(
            text.contains("Card 300") || text.contains("number 420"),
            "{}",
            &text[..200.min(text.len())]
        );
    }
}

#[test]
fn characters_that_show_as_nothing_are_left_out_of_headings_and_text_and_said() {
    // An outside admin's upload: the heading "Sp\u{200B}eed" was a title
    // and id no one could type, and "tw\u{AD}ice" a word no question holds.
    let imp = imported(
        "bidi.md",
        "# Sp\u{200B}eed\n\nA unit with Speed may attack tw\u{AD}ice. Fire\u{200D}\u{2060}ball deals 3.\n"
            .as_bytes(),
    )
    .unwrap();
    let text = all_text(&imp);
    assert!(text.contains("attack twice. Fireball deals 3."), "{text}");
    assert!(
        imp.preview
            .passages
            .iter()
            .all(|p| !p.title.contains('\u{200B}')),
        "{:?}",
        imp.preview.passages
    );
    let said = imp.preview.warnings.join("\n");
    assert!(
        said.contains("left out 4 characters that show as nothing"),
        "{said}"
    );
}
