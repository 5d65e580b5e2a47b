//! HTML pages (a saved wiki page, an exported rules site) to Markdown, with
//! `htmd`; scripts, styles and page chrome are left out (chrome only
//! around the page's article when it marks one: [`drop_chrome`]; all of
//! the page outside its `<main>` when it has one: [`keep_main`]), and a
//! wiki's infobox, chrome and references list read as `wiki.rs` says;
//! bold and italic marked by class in the page's `<style>` block read as
//! `<b>` and `<i>` (`styles.rs`); text the page hides or strikes through
//! left out and said (`unseen.rs`).

mod depth;
mod styles;
mod unseen;
mod wiki;

pub(super) use depth::nesting;

use std::rc::Rc;
use std::sync::LazyLock;

use htmd::HtmlToMarkdown;
use htmd::options::{BulletListMarker, Options};
use markup5ever_rcdom::{Handle, Node, NodeData};

/// Elements that never hold rules text.
const SKIPPED: [&str; 6] = ["script", "style", "noscript", "nav", "form", "iframe"];

/// Of those, the ones that hold words a reader sees (counted when left out).
const SHOWN: [&str; 2] = ["nav", "form"];

/// A page's chrome: left out around the page's content, kept inside it
/// (an article's own header holds its title; a WordPress post's asides
/// and footers hold clarifications and rulings). See [`drop_chrome`].
const CHROME: [&str; 3] = ["header", "footer", "aside"];

/// Elements that hold a page's content when it marks it.
const CONTENT: [&str; 2] = ["article", "main"];

/// Landmark roles (WAI-ARIA `role="…"`, as MediaWiki and many themes mark
/// a `div`) read as the element of that role is: `main` marks the content
/// as `<main>` does ([`CONTENT_ROLES`]); `banner`, `contentinfo` and
/// `complementary` are chrome as `header`, `footer` and `aside` are
/// ([`CHROME_ROLES`]); `navigation` and `search` are left out wherever
/// they stand, as `nav` and `form` are ([`SHOWN_ROLES`]). A `div` so
/// marked was read as any `div`: its sidebar and site footer kept, and a
/// page marking its content only by role lost the chrome inside it.
const CONTENT_ROLES: [&str; 1] = ["main"];

/// See [`CONTENT_ROLES`].
const CHROME_ROLES: [&str; 3] = ["banner", "contentinfo", "complementary"];

/// See [`CONTENT_ROLES`].
const SHOWN_ROLES: [&str; 2] = ["navigation", "search"];

static CONVERTER: LazyLock<HtmlToMarkdown> = LazyLock::new(|| {
    HtmlToMarkdown::builder()
        .options(Options {
            bullet_list_marker: BulletListMarker::Dash,
            ul_bullet_spacing: 1,
            ol_number_spacing: 1,
            ..Options::default()
        })
        .skip_tags(SKIPPED.to_vec())
        .build()
});

/// Whether text starts like an HTML page rather than Markdown (after an
/// XML declaration, as an XHTML page starts).
pub(super) fn looks_like_html(text: &str) -> bool {
    let text = text.trim_start();
    let text = match text.strip_prefix("<?xml") {
        Some(decl) => decl
            .split_once("?>")
            .map_or("", |(_, rest)| rest.trim_start()),
        None => text,
    };
    let head: String = text.chars().take(512).collect();
    let head = head.to_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html") || head.contains("<body")
}

/// Whether an upload will be read as an HTML page (by its name, or its
/// start read as ASCII): whether the encoding it declares is read.
pub(super) fn is_html(lower_name: &str, bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]);
    lower_name.ends_with(".html") || lower_name.ends_with(".htm") || looks_like_html(&head)
}

/// A wiki's edit-section link at the end of a heading (MediaWiki's
/// `[edit]`, `[edit source]`, as `htmd` writes it).
static EDIT_LINK: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)\s*(?:\\\[)?\[edit(?: source)?\]\([^)]*\)(?:\\\])?\s*$").unwrap()
});

/// A list item that is only a link within the page (a table of contents).
static ANCHOR_ITEM: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^\s*[-*+]\s+\[[^\]]*\]\(#[^)]*\)\s*$").unwrap());

/// The page as Markdown, without a wiki's edit links in its headings or
/// its table of contents (items that only link within the page: the
/// headings themselves follow), nor its chrome ([`keep_main`],
/// [`drop_chrome`]) nor a wiki's infobox and chrome, its references list
/// as notes ([`wiki`]); and the notes on what was left out.
#[cfg(test)]
pub(super) fn to_markdown(html: &str) -> Result<(String, Vec<String>), String> {
    to_markdown_within(html, usize::MAX).map_err(|e| e.unwrap_or_default())
}

/// [`to_markdown`], refusing (`Err(None)`) a page whose parsed tree
/// nests deeper than `limit`: measured without recursion on the tree the
/// parser built, before anything walks it recursively. [`nesting`]
/// refuses a deep page before it is parsed (the parser slows on some
/// deep pages); this holds wherever that estimate falls short.
pub(super) fn to_markdown_within(
    html: &str,
    limit: usize,
) -> Result<(String, Vec<String>), Option<String>> {
    let tree = CONVERTER
        .html_to_tree(html)
        .map_err(|e| Some(format!("cannot read the HTML: {e}")))?;
    if deepest(&tree) > limit {
        return Err(None);
    }
    starts_at_line_start(&tree, true);
    let mut referenced = Referenced::default();
    strip_referenced(&tree, &mut referenced);
    let classes = styles::Classes::read(&tree);
    let mut unseen = unseen::LeftOut::default();
    unseen::drop_unseen(&tree, &classes, &mut unseen);
    styles::mark(&tree, &classes);
    let marked = marks_content(&tree);
    let mut words = 0;
    let main = keep_main(&tree, &mut words);
    drop_chrome(&tree, marked, false, &mut words);
    let mut wiki = wiki::LeftOut::default();
    wiki::drop_furniture(&tree, &mut wiki);
    wiki::references_as_notes(&tree);
    wiki::unlink_citations(&tree);
    head_tables(&tree);
    let markdown = CONVERTER.tree_to_markdown(&tree);
    let mut out = String::with_capacity(markdown.len());
    for line in markdown.lines() {
        if ANCHOR_ITEM.is_match(line) {
            continue;
        }
        if line.starts_with('#') {
            out.push_str(&EDIT_LINK.replace(line, ""));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    let mut notes: Vec<String> = (words > 0)
        .then(|| {
            let whose = match (main, marked) {
                (true, _) => "title, menus, header, footer and everything else outside its main content (<main> or role=\"main\"), and its navigation and forms",
                (false, true) => "title, navigation, forms, header, footer and asides outside its article (<article>, <main> or role=\"main\")",
                (false, false) => "navigation, forms, header, footer and asides (it marks no <article>, <main> or role=\"main\")",
            };
            format!(
                "left out {} of the page's {whose}",
                crate::text::count(words, "word")
            )
        })
        .into_iter()
        .collect();
    notes.extend(referenced.notes());
    notes.extend(unseen.notes());
    notes.extend(wiki.notes());
    Ok((out, notes))
}

/// Characters that show as nothing, and terminal escapes, written as
/// character references (`&#8203;`, `&shy;`, `&#x1B;[31m`): the import
/// leaves them out of the file's text before the page is parsed, where
/// the references are not yet characters, so they came back in the
/// parsed text ("Sp\u{200B}eed" took an id, "[31m" was quoted; found by an
/// outside tester). Counted here, left out of every text of the page.
#[derive(Debug, Default)]
struct Referenced {
    invisible: usize,
    escapes: usize,
}

impl Referenced {
    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.invisible > 0 {
            notes.push(format!(
                "left out {} that show as nothing (zero-width spaces, soft hyphens, word joiners), written as character references (&#8203;, &shy;), so headings, ids and quotes read as the page shows",
                crate::text::count(self.invisible, "character")
            ));
        }
        if self.escapes > 0 {
            notes.push(format!(
                "left out {} (a terminal's colours and links, as in “ESC[31m”), written as character references (&#x1B;)",
                crate::text::count(self.escapes, "escape sequence")
            ));
        }
        notes
    }
}

/// Leaves [`Referenced`] characters out of the text under `node`.
/// Recursive: the page's depth was bounded before it was parsed.
fn strip_referenced(node: &Node, counts: &mut Referenced) {
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => {
                let mut text = contents.borrow_mut();
                let (escaped, escapes, _) = super::escapes::strip(&text);
                let (shown, invisible) = super::invisible::strip(&escaped);
                if escapes > 0 || !invisible.is_empty() {
                    counts.escapes += escapes;
                    counts.invisible += invisible.len();
                    *text = shown.as_str().into();
                }
            }
            _ => strip_referenced(child, counts),
        }
    }
}

/// How many list items a page opens (`<li` tags, in any case), counted in
/// one pass over its text before it is parsed. Decision: a page opening
/// more than a document may have passages is refused as it stands, items
/// in a table of contents or under a numbered rule (which would be text)
/// counted too: 100,000 items were converted and built into passages
/// (1.4 s of processor time in a release build, 24 s in a debug one)
/// before the passages' limit refused them, and a busy server's
/// converter, which runs at a low priority, ran out of its 20 s first.
pub(super) fn list_items(html: &str) -> usize {
    let bytes = html.as_bytes();
    bytes
        .windows(3)
        .enumerate()
        .filter(|(i, w)| {
            w[0] == b'<'
                && w[1].eq_ignore_ascii_case(&b'l')
                && w[2].eq_ignore_ascii_case(&b'i')
                && bytes
                    .get(i + 3)
                    .is_none_or(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
        })
        .count()
}

/// How deep a parsed tree nests its elements, without recursion.
fn deepest(tree: &Handle) -> usize {
    let mut deepest = 0;
    let mut open = vec![(tree.clone(), 0usize)];
    while let Some((node, depth)) = open.pop() {
        let depth = depth + usize::from(matches!(node.data, NodeData::Element { .. }));
        deepest = deepest.max(depth);
        for child in node.children.borrow().iter() {
            open.push((child.clone(), depth));
        }
    }
    deepest
}

/// Elements that start a line of the Markdown, and end one: text in
/// them, or after them, starts a line. Any other element is inline.
const BLOCK: [&str; 40] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "center",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "html",
    "li",
    "main",
    "ol",
    "p",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Text that starts a line of the page's Markdown (first in a block, or
/// after a block) loses its leading white space, so the converter sees
/// its first character and escapes a Markdown mark there: it escapes only
/// a text's first character, so "<body>\n# of cards" (white space, then
/// the mark) became a heading, "of cards", its "#" lost (found by an
/// outside tester). HTML is no Markdown: the "#" is the page's text.
/// Recursive: the page's depth was bounded before it was parsed.
fn starts_at_line_start(node: &Node, block: bool) {
    let mut at_start = block;
    for child in node.children.borrow().iter() {
        match &child.data {
            NodeData::Text { contents } => {
                let mut text = contents.borrow_mut();
                let trimmed = text.trim_start();
                if at_start && !trimmed.is_empty() && trimmed.len() < text.len() {
                    let kept: String = trimmed.to_string();
                    *text = kept.as_str().into();
                }
                at_start = text.trim().is_empty() && at_start;
            }
            NodeData::Element { .. } => {
                let inline = !tag(child).is_some_and(|t| BLOCK.contains(&t));
                if !matches!(tag(child), Some("pre" | "code" | "textarea")) {
                    starts_at_line_start(child, !inline || at_start);
                }
                at_start = !inline;
            }
            _ => {}
        }
    }
}

/// A node's tag name, when it is an element.
fn tag(node: &Node) -> Option<&str> {
    match &node.data {
        NodeData::Element { name, .. } => Some(&*name.local),
        _ => None,
    }
}

/// Whether an element's landmark role (its `role` attribute's first
/// token, as ARIA reads it, in any case) is one of these.
fn has_role(node: &Node, roles: &[&str]) -> bool {
    let NodeData::Element { attrs, .. } = &node.data else {
        return false;
    };
    attrs.borrow().iter().any(|a| {
        &*a.name.local == "role"
            && a.value
                .split_ascii_whitespace()
                .next()
                .is_some_and(|role| roles.iter().any(|r| r.eq_ignore_ascii_case(role)))
    })
}

/// Whether an element holds the page's content: `<article>`, `<main>`, or
/// `role="main"`.
fn is_content(node: &Node) -> bool {
    tag(node).is_some_and(|t| CONTENT.contains(&t)) || has_role(node, &CONTENT_ROLES)
}

/// Whether an element is the page's chrome: `header`, `footer`, `aside`,
/// or their landmark roles.
fn is_chrome(node: &Node) -> bool {
    tag(node).is_some_and(|t| CHROME.contains(&t)) || has_role(node, &CHROME_ROLES)
}

/// Whether an element is navigation or a form (by tag or role), left out
/// wherever it stands.
fn is_shown_skip(node: &Node) -> bool {
    tag(node).is_some_and(|t| SHOWN.contains(&t)) || has_role(node, &SHOWN_ROLES)
}

/// Whether the page marks its content anywhere ([`is_content`]).
/// Recursive: the page's depth was bounded before it was parsed.
fn marks_content(node: &Node) -> bool {
    is_content(node) || node.children.borrow().iter().any(|c| marks_content(c))
}

/// Removes a page's navigation and forms, and its chrome (`header`,
/// `footer`, `aside`, and their landmark roles: [`CONTENT_ROLES`]), from
/// the tree, counting their words. Decision: a page that marks its content
/// (`<article>`, `<main>` or `role="main"`, `marked`) keeps the chrome
/// inside it, where WordPress and most blog themes put the post's title,
/// call-outs and closing notes, and loses the chrome around it (the site's
/// header and footer, its sidebar); a page that marks none loses all of
/// it, as before. Decision: a page that marks its content loses its
/// `<title>` too (the browser tab's label, "Combat – Heron Wiki", outside
/// the content, which names itself in its own heading: it was read as a
/// paragraph before the content's first heading); a page that marks none
/// keeps it, as before (it may be the only name the page gives itself).
/// Recursive: the page's depth was bounded before it was parsed.
fn drop_chrome(node: &Node, marked: bool, inside: bool, words: &mut usize) {
    let inside = inside || is_content(node);
    node.children.borrow_mut().retain(|child| {
        let chrome = is_chrome(child) && !(marked && inside);
        let title = tag(child) == Some("title") && marked && !inside;
        if is_shown_skip(child) || chrome || title {
            *words += count_words(child);
            return false;
        }
        true
    });
    for child in node.children.borrow().iter() {
        drop_chrome(child, marked, inside, words);
    }
}

/// Whether an element is the page's main content: `<main>` or
/// `role="main"` (not `<article>`: a page may hold several, with text
/// between them).
fn is_main(node: &Node) -> bool {
    tag(node) == Some("main") || has_role(node, &CONTENT_ROLES)
}

/// Removes everything outside a page's main content ([`is_main`]) when it
/// has one, counting its words; whether it has one. Decision: HTML says
/// `<main>` is the page's dominant content, and what stands around it is
/// the site's: a Fandom page's global navigation ("FANDOM Games Movies
/// TV") and community header, in `div`s no tag or role marks as chrome,
/// became the document's introduction (found by an outside tester). A
/// page marking its content by `<article>` alone keeps what is outside
/// it but its chrome ([`drop_chrome`]), as before. A node holding the
/// main content loses its children that do not; each node is visited
/// once. Recursive: the page's depth was bounded before it was parsed.
fn keep_main(node: &Node, words: &mut usize) -> bool {
    if is_main(node) {
        return true;
    }
    let children: Vec<Handle> = node.children.borrow().clone();
    let holding: Vec<bool> = children.iter().map(|c| keep_main(c, words)).collect();
    if !holding.contains(&true) {
        return false;
    }
    let mut at = 0;
    node.children.borrow_mut().retain(|child| {
        let keep = holding[at];
        at += 1;
        if !keep {
            *words += count_words(child);
        }
        keep
    });
    true
}

/// Gives each table of rows with no header row ([`is_headless_grid`]) a
/// `thead` of its first row, so the converter writes it as a Markdown
/// table, a row a line, as it writes a table with a header (`th` or
/// `thead`). Without one it wrote every cell as a paragraph of its own
/// ("Cost", "Effect", "2", "Draw a card." four paragraphs): LibreOffice's
/// and Word's "Save as HTML" write every cell as a `td`, its text in a
/// `<p>`, as Google Docs does. Decision: the first row reads as the
/// header (a Markdown table needs one; it is where such a table's
/// headings stand). Tables inside a table's cells are left as they are.
/// Recursive: the page's depth was bounded before it was parsed.
fn head_tables(node: &Node) {
    for child in node.children.borrow().iter() {
        match tag(child) {
            Some("table") => {
                if is_headless_grid(child) {
                    give_head(child);
                }
            }
            _ => head_tables(child),
        }
    }
}

/// A table's rows: its own `tr`s, directly or in its row groups.
fn rows(table: &Node) -> Vec<Handle> {
    let mut rows = Vec::new();
    for child in table.children.borrow().iter() {
        match tag(child) {
            Some("tr") => rows.push(Rc::clone(child)),
            Some("thead" | "tbody" | "tfoot") => rows.extend(
                child
                    .children
                    .borrow()
                    .iter()
                    .filter(|r| tag(r) == Some("tr"))
                    .cloned(),
            ),
            _ => {}
        }
    }
    rows
}

/// A row's cells (`td` and `th`).
fn cells(row: &Node) -> Vec<Handle> {
    row.children
        .borrow()
        .iter()
        .filter(|c| matches!(tag(c), Some("td" | "th")))
        .cloned()
        .collect()
}

/// Whether a table is a grid of text with no header row: no `thead` nor
/// `th`, two rows or more and a row of two cells or more, every cell
/// holding text and paragraphs alone (a cell holding a heading, a list, a
/// `div`, preformatted text or another table lays a page out, and a
/// Markdown table's row would run it into one line), and not declared a
/// layout (`role="presentation"` or `"none"`).
fn is_headless_grid(table: &Node) -> bool {
    let rows = rows(table);
    let all: Vec<Handle> = rows.iter().flat_map(|r| cells(r)).collect();
    let headed = table
        .children
        .borrow()
        .iter()
        .any(|c| tag(c) == Some("thead"))
        || all.iter().any(|c| tag(c) == Some("th"));
    !headed
        && !has_role(table, &["presentation", "none"])
        && rows.len() >= 2
        && rows.iter().any(|r| cells(r).len() >= 2)
        && all.iter().all(|c| holds_text_alone(c))
}

/// Whether an element holds text, inline elements and paragraphs alone.
/// Recursive: the page's depth was bounded before it was parsed.
fn holds_text_alone(node: &Node) -> bool {
    node.children.borrow().iter().all(|child| match tag(child) {
        Some("p" | "br") | None => holds_text_alone(child),
        Some(t) => !BLOCK.contains(&t) && t != "pre" && holds_text_alone(child),
    })
}

/// Moves a table's first row into a new `thead` before the rows (see
/// [`head_tables`]).
fn give_head(table: &Handle) {
    let Some(first) = rows(table).into_iter().next() else {
        return;
    };
    let Some(group) = first.parent.take().and_then(|p| p.upgrade()) else {
        return;
    };
    group
        .children
        .borrow_mut()
        .retain(|r| !Rc::ptr_eq(r, &first));
    let Some(head) = wiki::element_like(table, "thead") else {
        return;
    };
    first.parent.set(Some(Rc::downgrade(&head)));
    head.children.borrow_mut().push(first);
    head.parent.set(Some(Rc::downgrade(table)));
    let mut children = table.children.borrow_mut();
    // Before the first row group or row, after a caption and columns.
    let at = children
        .iter()
        .position(|c| matches!(tag(c), Some("tr" | "tbody" | "tfoot")))
        .unwrap_or(children.len());
    children.insert(at, head);
}

/// The words of a node's text (a "|" between links is none), script and
/// style aside.
fn count_words(node: &Node) -> usize {
    match &node.data {
        NodeData::Text { contents } => contents
            .borrow()
            .split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .count(),
        _ if tag(node).is_some_and(|t| SKIPPED.contains(&t) && !SHOWN.contains(&t)) => 0,
        _ => node.children.borrow().iter().map(|c| count_words(c)).sum(),
    }
}

#[cfg(test)]
mod tests {
    /// Zero-width characters, soft hyphens and terminal escapes written as
    /// character references are left out of the page's text and said.
    #[test]
    fn referenced_invisible_characters_and_escapes_are_left_out() {
        let html = "<h2>Sp&#8203;eed</h2><p>Roll tw&shy;ice. &#x1B;[31mDanger&#x1b;[0m now.</p>";
        let (md, notes) = super::to_markdown(html).unwrap();
        assert!(md.contains("## Speed\n"), "{md:?}");
        assert!(md.contains("Roll twice. Danger now."), "{md:?}");
        let said = notes.join("\n");
        assert!(
            said.contains("left out 2 characters that show as nothing"),
            "{said}"
        );
        assert!(said.contains("left out 2 escape sequences"), "{said}");
    }

    #[test]
    fn a_wiki_heading_loses_its_edit_link_and_the_contents_list_goes() {
        let html = r##"<div class="toc"><ul><li><a href="#General">1 General rules</a></li></ul></div>
<h2><span class="mw-headline" id="General">General rules</span><span class="mw-editsection">[<a href="?action=edit&amp;section=1">edit</a>]</span></h2>
<p>Each unit may attack once. See <a href="/Range">Range</a>.</p>"##;
        let (md, _) = super::to_markdown(html).unwrap();
        assert!(md.contains("## General rules\n"), "{md}");
        assert!(!md.contains("edit"), "{md}");
        assert!(!md.contains("#General"), "{md}");
        assert!(md.contains("[Range](/Range)"), "{md}");
    }
}
