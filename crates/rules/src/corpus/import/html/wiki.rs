//! A wiki page's own furniture (MediaWiki, Fandom): its infobox, its
//! chrome inside the content (navboxes, categories, "Retrieved from",
//! edit links) and its references list, read before the page is written
//! as Markdown.

use std::cell::RefCell;
use std::rc::Rc;

use markup5ever_rcdom::{Handle, Node, NodeData};

use super::{count_words, marks_content, tag};

/// Classes of a wiki's chrome inside its content: navigation boxes at an
/// article's foot (`navbox`, `vertical-navbox`), the printed footer
/// ("Retrieved from …", `printfooter`), the categories (`catlinks`), the
/// headings' edit links (`mw-editsection`), "Jump to navigation" links
/// (`mw-jump-link`) and what the wiki marks as not printed (`noprint`).
const CHROME_CLASSES: [&str; 7] = [
    "navbox",
    "vertical-navbox",
    "printfooter",
    "catlinks",
    "mw-editsection",
    "mw-jump-link",
    "noprint",
];

/// Ids of the same: the categories, "From Heron Wiki" under the title
/// (`siteSub`) and the old skins' "Jump to: navigation, search".
const CHROME_IDS: [&str; 3] = ["catlinks", "siteSub", "jump-to-nav"];

/// Words a wiki's furniture held, left out.
#[derive(Debug, Default)]
pub(super) struct LeftOut {
    /// The infobox's (the page's data: [`is_infobox`]).
    pub infobox: usize,
    /// The chrome's ([`is_chrome`]).
    pub chrome: usize,
    /// A Google Docs export's comments and their markers
    /// ([`is_docs_comment`]).
    pub comments: usize,
}

impl LeftOut {
    /// The preview's notes on what was left out.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.infobox > 0 {
            notes.push(format!(
                "left out {} of the page's infobox (a wiki's box of the page's data, \
                 not its text: it read as headings and took the page's first paragraph)",
                crate::text::count(self.infobox, "word")
            ));
        }
        if self.chrome > 0 {
            notes.push(format!(
                "left out {} of the wiki's chrome (navigation boxes, categories, \
                 “Retrieved from”, edit links, what it does not print)",
                crate::text::count(self.chrome, "word")
            ));
        }
        if self.comments > 0 {
            notes.push(format!(
                "left out {} of the document's comments (Google Docs writes its \
                 reviewers' comments at the page's end, each with a marker in the \
                 text: they read as the rules' text, quoted to everyone)",
                crate::text::count(self.comments, "word")
            ));
        }
        notes
    }
}

/// Whether an element is a Google Docs comment as "Download as HTML"
/// writes it: a `<div>` whose first element's first element is the link
/// back to the text (`<div><p><a href="#cmnt_ref1" id="cmnt1">[a]</a>Bob:
/// …</p></div>`, at the page's end), or the text's marker (`<sup><a
/// href="#cmnt1" id="cmnt_ref1">[a]</a></sup>`).
fn is_docs_comment(node: &Node) -> bool {
    let first_element = |n: &Node| {
        n.children
            .borrow()
            .iter()
            .find(|c| matches!(c.data, NodeData::Element { .. }))
            .cloned()
    };
    let id_is = |n: &Node, prefix: &str| {
        tag(n) == Some("a")
            && attr(n, "id").is_some_and(|id| {
                id.strip_prefix(prefix)
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            })
    };
    match tag(node) {
        Some("div") => first_element(node)
            .and_then(|p| first_element(&p))
            .is_some_and(|a| id_is(&a, "cmnt")),
        Some("sup") => first_element(node).is_some_and(|a| id_is(&a, "cmnt_ref")),
        _ => false,
    }
}

/// Whether an element's `class` attribute holds one of these classes.
fn has_class(node: &Node, classes: &[&str]) -> bool {
    attr(node, "class").is_some_and(|value| {
        value
            .split_ascii_whitespace()
            .any(|c| classes.iter().any(|k| k.eq_ignore_ascii_case(c)))
    })
}

/// An element's attribute, by name.
fn attr(node: &Node, name: &str) -> Option<String> {
    let NodeData::Element { attrs, .. } = &node.data else {
        return None;
    };
    attrs
        .borrow()
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| a.value.to_string())
}

/// Whether an element is a wiki's infobox: Fandom's portable infobox
/// (`aside.portable-infobox`) or MediaWiki's (`table.infobox`). Its
/// fields are the page's data ("Phase: Encounter", "Edition: 3rd"); read
/// as text, its title and labels were headings, and the lead paragraph
/// below it was filed under its last field ("Edition › 3rd / Combat
/// occurs when …", found by an outside tester).
fn is_infobox(node: &Node) -> bool {
    match tag(node) {
        Some("aside") => has_class(node, &["portable-infobox"]),
        Some("table") => has_class(node, &["infobox"]),
        _ => false,
    }
}

/// Whether an element is a wiki's chrome inside its content
/// ([`CHROME_CLASSES`], [`CHROME_IDS`]).
fn is_chrome(node: &Node) -> bool {
    has_class(node, &CHROME_CLASSES)
        || attr(node, "id").is_some_and(|id| CHROME_IDS.contains(&id.as_str()))
}

/// Removes a wiki's infobox and chrome from the tree wherever they stand,
/// counting their words; never an element holding the page's content
/// (`<main>` under a `noprint` wrapper stays). Decision: the infobox is
/// left out, not moved after the lead: its fields are labels and values
/// with no sentence to quote, and the rules' text never depends on them.
/// Recursive: the page's depth was bounded before it was parsed.
pub(super) fn drop_furniture(node: &Node, left: &mut LeftOut) {
    node.children.borrow_mut().retain(|child| {
        if is_docs_comment(child) {
            left.comments += count_words(child);
            return false;
        }
        if is_infobox(child) && !marks_content(child) {
            left.infobox += count_words(child);
            return false;
        }
        if is_chrome(child) && !marks_content(child) {
            left.chrome += count_words(child);
            return false;
        }
        true
    });
    for child in node.children.borrow().iter() {
        drop_furniture(child, left);
    }
}

/// MediaWiki's references list (`ol.references`, in a `div.reflist`) as
/// its notes' paragraphs, "[1] Runebound Rulebook, p. 14", without their
/// back-links ("↑", "^", "a b"): the notes of the section that holds it,
/// as a Markdown document's footnotes read. As a numbered list each note
/// was a rule of its own (`runebound:combat.damage.1`, "↑ Runebound
/// Rulebook, p. 14"). The text's markers ("[1]") are kept as written.
/// Recursive: the page's depth was bounded before it was parsed.
pub(super) fn references_as_notes(node: &Node) {
    let mut children = node.children.borrow_mut();
    for child in children.iter_mut() {
        if tag(child) == Some("ol") && has_class(child, &["references"]) {
            if let Some(notes) = notes(child) {
                notes.parent.set(child.parent.take());
                *child = notes;
            }
        } else {
            references_as_notes(child);
        }
    }
}

/// A citation's link to its note (`<a href="#cite_note-1">[1]</a>`) as
/// its words, "[1]": the note is text of the section now, no passage, and
/// the link was shown as a reference to something not indexed ("→ [1]
/// (not indexed)"). Recursive: the page's depth was bounded before it was
/// parsed.
pub(super) fn unlink_citations(node: &Handle) {
    let children: Vec<Handle> = node.children.borrow().clone();
    let mut kept = Vec::with_capacity(children.len());
    for child in children {
        unlink_citations(&child);
        let citation = tag(&child) == Some("a")
            && attr(&child, "href").is_some_and(|h| h.starts_with("#cite_note"));
        match citation {
            true => {
                for word in child.children.borrow_mut().drain(..) {
                    word.parent.set(Some(Rc::downgrade(node)));
                    kept.push(word);
                }
            }
            false => kept.push(child),
        }
    }
    *node.children.borrow_mut() = kept;
}

/// A references list's items as a `div` of paragraphs, each opening with
/// its number in brackets (the list's `start` counted).
fn notes(list: &Handle) -> Option<Handle> {
    let start: usize = attr(list, "start")
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1);
    let block = element_like(list, "div")?;
    let items: Vec<Handle> = list
        .children
        .borrow()
        .iter()
        .filter(|c| tag(c) == Some("li"))
        .cloned()
        .collect();
    for (n, item) in items.iter().enumerate() {
        drop_back_links(item);
        let paragraph = element_like(list, "p")?;
        let number = Node::new(NodeData::Text {
            contents: RefCell::new(format!("[{}] ", start.saturating_add(n)).as_str().into()),
        });
        let mut words = vec![number];
        words.extend(item.children.borrow_mut().drain(..));
        for word in &words {
            word.parent.set(Some(Rc::downgrade(&paragraph)));
        }
        *paragraph.children.borrow_mut() = words;
        paragraph.parent.set(Some(Rc::downgrade(&block)));
        block.children.borrow_mut().push(paragraph);
    }
    Some(block)
}

/// Removes a note's back-links to where it is cited: MediaWiki's
/// `span.mw-cite-backlink`, or a bare link to a `#cite_ref…` anchor.
/// Recursive: the page's depth was bounded before it was parsed.
fn drop_back_links(node: &Node) {
    node.children.borrow_mut().retain(|child| {
        let back = has_class(child, &["mw-cite-backlink"])
            || (tag(child) == Some("a")
                && attr(child, "href").is_some_and(|h| h.starts_with("#cite_ref")));
        !back
    });
    for child in node.children.borrow().iter() {
        drop_back_links(child);
    }
}

/// A new element named `local`, in the namespace of `like` (an element).
pub(super) fn element_like(like: &Node, local: &str) -> Option<Handle> {
    let NodeData::Element { name, .. } = &like.data else {
        return None;
    };
    let mut name = name.clone();
    name.local = local.into();
    Some(Node::new(NodeData::Element {
        name,
        attrs: Default::default(),
        template_contents: Default::default(),
        mathml_annotation_xml_integration_point: false,
    }))
}
