//! Bold and italic a page marks by class in its `<style>` block, as
//! Google Docs' "Download → Web page" does (`.c3{font-weight:700}` and
//! `<span class="c3">`, never `<b>`): read as if they were `<b>` and
//! `<i>`, so a bold question opens its answer and a bold rule name reads
//! as the page shows it. Only a rule whose selector is one class
//! (`.c3`, in a list of them or alone) is read; any other selector,
//! at-rules (`@media { … }`) and other properties are passed over.

use std::collections::HashMap;
use std::rc::Rc;

use markup5ever_rcdom::{Handle, Node, NodeData};

use super::{BLOCK, tag, wiki};

/// Most class rules read from a page's style sheets: past it, the rest
/// are passed over (a page's own come to a few hundred; the cap bounds
/// the table a hostile style block could build).
const MAX_CLASSES: usize = 65_536;

/// Longest class name read (Google Docs' are `c12` or `lst-kix_…-0`).
const MAX_CLASS_CHARS: usize = 128;

/// What a class says of a text's weight or slant, and where in the
/// style sheets it says it (a later rule wins over an earlier one, as
/// CSS reads rules of one class each).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Said {
    bold: Option<(usize, bool)>,
    italic: Option<(usize, bool)>,
    /// Not shown: `display: none`, `visibility: hidden`, Word's
    /// `mso-hide: all` (`unseen.rs`).
    hidden: Option<(usize, bool)>,
    /// Struck through: `text-decoration: line-through`.
    struck: Option<(usize, bool)>,
}

impl Said {
    /// `self`, with what `other` says where it is the later rule.
    fn then(self, other: Said) -> Said {
        Said {
            bold: later(self.bold, other.bold),
            italic: later(self.italic, other.italic),
            hidden: later(self.hidden, other.hidden),
            struck: later(self.struck, other.struck),
        }
    }
}

/// Whether an element is hidden or struck through, by its classes and
/// its own `style` (`unseen.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Shown {
    pub hidden: bool,
    pub struck: bool,
}

/// Bold and italic, as text is shown or as it is marked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Look {
    bold: bool,
    italic: bool,
}

/// The page's class rules of weight, slant, display and strike.
#[derive(Debug, Default)]
pub(super) struct Classes(HashMap<String, Said>);

impl Classes {
    /// The rules of every `<style>` element under `node`.
    pub(super) fn read(node: &Node) -> Classes {
        let mut css = String::new();
        style_text(node, &mut css);
        parse(&css)
    }

    /// Whether no class says anything of weight or slant.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// What an element's classes' rules say, the last of each.
    fn said(&self, node: &Node) -> Said {
        let NodeData::Element { attrs, .. } = &node.data else {
            return Said::default();
        };
        let mut said = Said::default();
        for attr in attrs.borrow().iter().filter(|a| &*a.name.local == "class") {
            for class in attr.value.split_ascii_whitespace() {
                if let Some(s) = self.0.get(class) {
                    said = said.then(*s);
                }
            }
        }
        said
    }

    /// Whether an element is hidden or struck through by its classes or
    /// its own `style` attribute (which wins over a class, as in CSS).
    pub(super) fn shown(&self, node: &Node) -> Shown {
        let NodeData::Element { attrs, .. } = &node.data else {
            return Shown::default();
        };
        let inline = attrs
            .borrow()
            .iter()
            .find(|a| &*a.name.local == "style")
            .map(|a| declarations(&a.value, usize::MAX))
            .unwrap_or_default();
        let said = self.said(node).then(inline);
        Shown {
            hidden: said.hidden.is_some_and(|(_, h)| h),
            struck: said.struck.is_some_and(|(_, s)| s),
        }
    }

    /// An element's look: `inherited`, as its classes' last rules change it.
    fn look(&self, node: &Node, inherited: Look) -> Look {
        let said = self.said(node);
        Look {
            bold: said.bold.map_or(inherited.bold, |(_, b)| b),
            italic: said.italic.map_or(inherited.italic, |(_, i)| i),
        }
    }
}

/// Of two rules, the later one.
fn later(a: Option<(usize, bool)>, b: Option<(usize, bool)>) -> Option<(usize, bool)> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.0 > x.0 { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// The text of the `<style>` elements under `node`, one after another.
/// Recursive: the page's depth was bounded before it was parsed.
fn style_text(node: &Node, css: &mut String) {
    for child in node.children.borrow().iter() {
        if tag(child) == Some("style") {
            for text in child.children.borrow().iter() {
                if let NodeData::Text { contents } = &text.data {
                    css.push_str(&contents.borrow());
                }
            }
            css.push('\n');
        } else {
            style_text(child, css);
        }
    }
}

/// The class rules of weight and slant in a style sheet, in one pass
/// over it (comments out, at-rules' blocks passed over whole).
fn parse(css: &str) -> Classes {
    let css = without_comments(css);
    let mut classes: HashMap<String, Said> = HashMap::new();
    let mut rest = css.as_str();
    let mut order = 0;
    while let Some(open) = rest.find('{') {
        // A statement at-rule (`@import url(…);`) ends at its `;`.
        let selectors = rest[..open].rsplit(';').next().unwrap_or("");
        let body_start = open + 1;
        if selectors.trim_start().starts_with('@') {
            rest = &rest[block_end(rest, body_start)..];
            continue;
        }
        let close = rest[body_start..]
            .find('}')
            .map_or(rest.len(), |c| body_start + c);
        let said = declarations(&rest[body_start..close], order);
        order += 1;
        rest = rest.get(close + 1..).unwrap_or("");
        if said == Said::default() {
            continue;
        }
        for class in selectors.split(',').filter_map(one_class) {
            if classes.len() >= MAX_CLASSES && !classes.contains_key(class) {
                return Classes(classes);
            }
            let entry = classes.entry(class.to_string()).or_default();
            *entry = entry.then(said);
        }
    }
    Classes(classes)
}

/// A style sheet without its `/* … */` comments (one never closed runs
/// to the end).
fn without_comments(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        out.push(' ');
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    out.push_str(rest);
    out
}

/// Where the block opened before `from` ends: past its matching `}` (or
/// the sheet's end).
fn block_end(css: &str, from: usize) -> usize {
    let mut depth = 1usize;
    for (i, b) in css.bytes().enumerate().skip(from) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    css.len()
}

/// The class a selector is when it is one class alone (`.c3`).
fn one_class(selector: &str) -> Option<&str> {
    let name = selector.trim().strip_prefix('.')?;
    let ok = !name.is_empty()
        && name.len() <= MAX_CLASS_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then_some(name)
}

/// What a rule's declarations say of weight, slant, display and strike
/// (the last of each).
fn declarations(body: &str, order: usize) -> Said {
    let mut said = Said::default();
    for declaration in body.split(';') {
        let Some((property, value)) = declaration.split_once(':') else {
            continue;
        };
        let value = value.trim().trim_end_matches("!important").trim();
        match property.trim().to_ascii_lowercase().as_str() {
            "font-weight" => said.bold = weight(value).map(|b| (order, b)),
            "font-style" => said.italic = slant(value).map(|i| (order, i)),
            "display" => said.hidden = Some((order, value.eq_ignore_ascii_case("none"))),
            "visibility" => said.hidden = visibility(value).map(|h| (order, h)),
            "mso-hide" => said.hidden = Some((order, value.eq_ignore_ascii_case("all"))),
            "font-size" if zero_size(value) => said.hidden = Some((order, true)),
            "text-decoration" | "text-decoration-line" => {
                said.struck = strike(value).map(|s| (order, s));
            }
            _ => {}
        }
    }
    said
}

/// Whether a `font-weight` is bold (600 and over, `bold`, `bolder`).
fn weight(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "bold" | "bolder" => Some(true),
        "normal" | "lighter" => Some(false),
        v => v.parse::<f32>().ok().map(|w| w >= 600.0),
    }
}

/// Whether a `font-size` is zero (`0`, `0px`, `0pt`, `0em`, `0%`): text
/// no one sees.
fn zero_size(value: &str) -> bool {
    let number = value.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '%');
    number.parse::<f32>().is_ok_and(|n| n == 0.0)
}

/// Whether a `visibility` hides (`hidden`, `collapse`) or shows.
fn visibility(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "hidden" | "collapse" => Some(true),
        "visible" => Some(false),
        _ => None,
    }
}

/// Whether a `text-decoration` strikes through (`line-through` among its
/// values) or says it does not (`none`).
fn strike(value: &str) -> Option<bool> {
    let value = value.to_ascii_lowercase();
    if value.split_ascii_whitespace().any(|v| v == "line-through") {
        Some(true)
    } else if value.split_ascii_whitespace().any(|v| v == "none") {
        Some(false)
    } else {
        None
    }
}

/// Whether a `font-style` is italic (`italic`, `oblique`).
fn slant(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "italic" | "oblique" => Some(true),
        "normal" => Some(false),
        v if v.starts_with("oblique") => Some(true),
        _ => None,
    }
}

/// The look an element's own tag gives its text, which the Markdown shows
/// without a class: `<b>`, `<strong>`, a heading, a table's header cell
/// are bold; `<i>`, `<em>`, `<cite>`, `<var>`, `<dfn>` italic.
fn shown_by_tag(node: &Node) -> Look {
    let t = tag(node).unwrap_or("");
    Look {
        bold: matches!(
            t,
            "b" | "strong" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th"
        ),
        italic: matches!(t, "i" | "em" | "cite" | "var" | "dfn"),
    }
}

/// Marks the text `classes` make bold or italic with `<b>` and `<i>`
/// elements, each run of a parent's text and inline children of one look
/// wrapped once, where no element around it shows that look already.
/// Preformatted text, scripts and styles are left as they are.
/// Recursive: the page's depth was bounded before it was parsed.
pub(super) fn mark(node: &Handle, classes: &Classes) {
    if classes.is_empty() {
        return;
    }
    mark_under(node, classes, Look::default(), Look::default());
}

fn mark_under(node: &Handle, classes: &Classes, look: Look, shown: Look) {
    let children: Vec<Handle> = node.children.borrow().clone();
    let mut needs = Vec::with_capacity(children.len());
    for child in &children {
        let child_look = classes.look(child, look);
        let by_tag = shown_by_tag(child);
        let shown_here = Look {
            bold: shown.bold || by_tag.bold,
            italic: shown.italic || by_tag.italic,
        };
        let need = Look {
            bold: child_look.bold && !shown_here.bold,
            italic: child_look.italic && !shown_here.italic,
        };
        let inline = match tag(child) {
            Some(t) => !BLOCK.contains(&t) && !LEFT_ALONE.contains(&t),
            None => matches!(&child.data, NodeData::Text { .. }),
        };
        let need = if inline { need } else { Look::default() };
        needs.push(need);
        if tag(child).is_some_and(|t| !LEFT_ALONE.contains(&t)) {
            let inner = Look {
                bold: shown_here.bold || need.bold,
                italic: shown_here.italic || need.italic,
            };
            mark_under(child, classes, child_look, inner);
        }
    }
    if needs.iter().all(|n| *n == Look::default()) {
        return;
    }
    wrap_runs(node, children, &needs);
}

/// Elements whose text is left as it is written.
const LEFT_ALONE: [&str; 7] = [
    "pre", "code", "script", "style", "textarea", "title", "head",
];

/// Replaces `node`'s children by the same children, each run of
/// neighbours needing bold put in a new `<b>`, and in it or outside it
/// each run needing italic in a new `<i>` (a question bold from end to
/// end, a word of it italic, reads "**… *word* …?**", bold end to end).
fn wrap_runs(node: &Handle, children: Vec<Handle>, needs: &[Look]) {
    let items = children.into_iter().zip(needs.iter().copied()).collect();
    let mut out = Vec::new();
    for (bold, run) in runs(items, |l| l.bold) {
        let mut inner = Vec::new();
        for (italic, run) in runs(run, |l| l.italic) {
            let run: Vec<Handle> = run.into_iter().map(|(h, _)| h).collect();
            inner.extend(if italic { wrapped(node, run, "i") } else { run });
        }
        out.extend(if bold {
            wrapped(node, inner, "b")
        } else {
            inner
        });
    }
    for child in &out {
        child.parent.set(Some(Rc::downgrade(node)));
    }
    *node.children.borrow_mut() = out;
}

/// Children with their needs, in runs of neighbours `key` says alike.
fn runs(items: Vec<(Handle, Look)>, key: fn(Look) -> bool) -> Vec<(bool, Vec<(Handle, Look)>)> {
    let mut out: Vec<(bool, Vec<(Handle, Look)>)> = Vec::new();
    for (child, need) in items {
        match out.last_mut() {
            Some((k, run)) if *k == key(need) => run.push((child, need)),
            _ => out.push((key(need), vec![(child, need)])),
        }
    }
    out
}

/// `run` inside a new element `name`, in `parent`'s namespace; `run` as it
/// is when `parent` is no element to name it after.
fn wrapped(parent: &Handle, run: Vec<Handle>, name: &str) -> Vec<Handle> {
    let Some(element) = wiki::element_like(parent, name) else {
        return run;
    };
    for child in &run {
        child.parent.set(Some(Rc::downgrade(&element)));
    }
    *element.children.borrow_mut() = run;
    vec![element]
}
