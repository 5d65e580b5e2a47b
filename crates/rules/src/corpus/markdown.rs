//! Markdown-shaped documents: front matter, `#` headings, nested numbered
//! lists, `-`/`•` bullets with `»` sub-bullets, blockquote notes, GitBook
//! `{% hint %}` blocks and "Related Topics" lists.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::emit::{DocBuilder, item_title};
use super::{PassageIdx, PassageKind, clean};

static HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(#{1,6})\s+(.*?)\s*#*\s*$").unwrap());
/// An ordered list item: up to nine digits, as CommonMark reads one (four
/// folded every item from 10000 on into item 9999's text).
static ORDERED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\s*)([0-9]{1,9})[.)]\s+(.*)$").unwrap());
static BULLET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\s*)([•\-*+])\s+(.*)$").unwrap());
static SUB_BULLET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\s*)»\s*(.*)$").unwrap());
static RELATED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*Related Topics:\s*(.*)$").unwrap());
/// A question's label, as FAQs write it: "Q:", "Q1.", "Question:" (with a
/// full-width colon too), followed by the question.
static QUESTION_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Q|Question|QUESTION)\s*[0-9]{0,4}\s*[:.：．]\s*(\S.*)$").unwrap()
});

/// The level a question-and-answer pair takes among the open headings:
/// below every `#` heading, so the next heading of any level ends it.
const QUESTION_LEVEL: usize = 7;

struct Item {
    indent: usize,
    idx: PassageIdx,
}

struct State {
    /// Open headings: (level, passage that receives their text).
    headings: Vec<(usize, PassageIdx)>,
    items: Vec<Item>,
    /// Indent of the most recent `•`/`-` bullet, so `»` nests under it.
    bullet_indent: Option<usize>,
    /// Where a line with no marker continues.
    current: Option<PassageIdx>,
    last_blank: bool,
    hint: Option<(usize, Vec<String>)>,
    /// Items added under each passage so far: an item's position among
    /// its siblings (counting them for each item made a long list
    /// quadratic).
    item_counts: HashMap<PassageIdx, usize>,
    /// Passages whose id is a rule number (a numbered heading or
    /// paragraph): a list under one is its text, since the list's items
    /// would take the ids of its rules (`g:1.1` under chapter `g:1`).
    numbered: std::collections::HashSet<PassageIdx>,
}

fn indent_of(s: &str) -> usize {
    s.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

pub(super) fn parse(b: &mut DocBuilder, text: &str) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<(usize, &str)> = text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect();
    // YAML front matter: only `title` matters for transparency; the manifest is authoritative.
    if lines.first().is_some_and(|(_, l)| l.trim() == "---") {
        match lines.iter().skip(1).position(|(_, l)| l.trim() == "---") {
            Some(end) => {
                lines.drain(..end + 2);
            }
            None => b.warn(
                1,
                "front matter is never closed with ---; treating it as text",
            ),
        }
    }
    let mut st = State {
        headings: Vec::new(),
        items: Vec::new(),
        bullet_indent: None,
        current: None,
        last_blank: true,
        hint: None,
        item_counts: HashMap::new(),
        numbered: std::collections::HashSet::new(),
    };
    for (n, line) in lines {
        let trimmed = line.trim();
        if let Some((start, buf)) = st.hint.as_mut() {
            if trimmed.starts_with("{% endhint") {
                let (start, buf) = (*start, std::mem::take(buf));
                st.hint = None;
                flush_hint(b, &st, start, &buf);
            } else {
                buf.push(line.to_string());
            }
            continue;
        }
        if trimmed.starts_with("{% hint") {
            st.hint = Some((n, Vec::new()));
            continue;
        }
        if trimmed.starts_with("{%") {
            continue; // other GitBook directives carry no rules text
        }
        if b.is_dropped(line) {
            continue;
        }
        if trimmed.is_empty() {
            st.last_blank = true;
            continue;
        }
        let blank_before = std::mem::replace(&mut st.last_blank, false);

        if let Some(c) = HEADING.captures(line) {
            let level = c[1].len();
            let (title, _) = clean::clean_inline(&c[2]);
            st.items.clear();
            st.bullet_indent = None;
            while st.headings.last().is_some_and(|&(l, _)| l >= level) {
                st.headings.pop();
            }
            let parent = section(b, &st);
            let idx = if title.is_empty() || b.is_transparent(&title) {
                parent
            } else {
                let id = heading_id(b, parent, &title);
                let numbered = heading_number(&title).is_some_and(|num| b.absolute_id(num) == id);
                let idx = b.add(parent, id, PassageKind::Section, title, n);
                if numbered {
                    st.numbered.insert(idx);
                }
                idx
            };
            st.headings.push((level, idx));
            st.current = Some(idx);
            continue;
        }
        if let Some(c) = RELATED.captures(line) {
            st.items.clear();
            let parent = section(b, &st);
            let id = b.child_id(parent, "related-topics");
            let idx = b.add(parent, id, PassageKind::Section, "Related Topics".into(), n);
            b.append(idx, &c[1], "\n");
            for label in c[1].split([',', ';']).filter(|s| !s.trim().is_empty()) {
                b.add_named_ref(idx, label);
            }
            st.current = Some(idx);
            continue;
        }
        if let Some(c) = ORDERED.captures(line) {
            let indent = indent_of(&c[1]);
            let number = c[2].trim_start_matches('0');
            let number = if number.is_empty() { "0" } else { number };
            add_item(b, &mut st, indent, Some(number), &c[3], n);
            continue;
        }
        if let Some(c) = SUB_BULLET.captures(line) {
            let indent = st.bullet_indent.map_or(indent_of(&c[1]) + 1, |i| i + 1);
            add_item(b, &mut st, indent, None, &c[2], n);
            continue;
        }
        if let Some(c) = BULLET.captures(line) {
            let indent = indent_of(&c[1]);
            st.bullet_indent = Some(indent);
            let (label, links) = clean::clean_inline(&c[3]);
            // A bullet that is only a link is a reference list entry, not a rule.
            if links.len() == 1 && links[0].label == label {
                let parent = st.items.last().map_or_else(|| section(b, &st), |i| i.idx);
                b.add_links(parent, &links);
                b.append(parent, &label, "\n");
                continue;
            }
            add_item(b, &mut st, indent, None, &c[3], n);
            continue;
        }
        // Plain text: a blockquote, a continuation, or a new paragraph.
        let body = trimmed.strip_prefix('>').map_or(trimmed, str::trim);
        let continues_item = !st.items.is_empty() && (!blank_before || indent_of(line) > 0);
        let new_paragraph = !continues_item && (blank_before || st.current.is_none());
        if new_paragraph && add_numbered_paragraph(b, &mut st, trimmed, n) {
            continue;
        }
        if !continues_item && let Some(title) = question(trimmed, new_paragraph) {
            add_question(b, &mut st, title, trimmed, n);
            continue;
        }
        if continues_item || (!blank_before && st.current.is_some()) {
            let target = st.current.unwrap_or(b.root);
            b.append(target, body, "\n");
        } else {
            st.items.clear();
            st.bullet_indent = None;
            // A numbered rule's text runs to the next rule or heading, as
            // in numbered text.
            let target = st
                .current
                .filter(|c| st.numbered.contains(c))
                .unwrap_or_else(|| section(b, &st));
            b.append(target, body, "\n\n");
            st.current = Some(target);
        }
    }
    if let Some((start, buf)) = st.hint.take() {
        b.warn(
            start,
            "{% hint %} block is never closed; indexed up to the end of the document",
        );
        flush_hint(b, &st, start, &buf);
    }
}

/// The question a line opens a question-and-answer pair with, as FAQs are
/// written (and as Google Docs, Notion and Discord pins export them): a
/// labelled question ("Q: Can I …?", "**Q:** Can I …?", "**Q: Can I …?**")
/// anywhere but in a list item, or, opening a paragraph, a line bold from
/// end to end that ends with a question mark ("**Can I …?**"). A paragraph
/// that merely starts with bold words ("**Note:** …", "**Example:** Can a
/// heron fly?") is text. The question is returned without its label.
fn question(line: &str, new_paragraph: bool) -> Option<String> {
    // Most lines are neither: they are not cleaned twice.
    let bold_start = line.starts_with("**") || line.starts_with("__");
    if !bold_start && !line.trim_start_matches(['*', '_']).starts_with('Q') {
        return None;
    }
    let (text, _) = clean::clean_inline(line);
    if let Some(c) = QUESTION_LABEL.captures(&text) {
        return Some(c[1].trim().to_string());
    }
    let bold = ["**", "__"].iter().any(|m| {
        line.strip_prefix(m)
            .and_then(|l| l.strip_suffix(m))
            .is_some_and(|inner| !inner.is_empty() && !inner.contains(m))
    });
    (new_paragraph && bold && text.trim_end().ends_with(['?', '？']))
        .then(|| text.trim().to_string())
}

/// A question and its answer are one passage, titled by the question, under
/// the heading above (its id the question's slug): a user's question finds
/// that pair and cites it alone, not the whole FAQ. Its text is the
/// question's line and every line after it, up to the next question or
/// heading.
fn add_question(b: &mut DocBuilder, st: &mut State, title: String, line: &str, n: usize) {
    st.items.clear();
    st.bullet_indent = None;
    while st
        .headings
        .last()
        .is_some_and(|&(l, _)| l >= QUESTION_LEVEL)
    {
        st.headings.pop();
    }
    let parent = section(b, st);
    let id = b.child_id(parent, &clean::slug(&title));
    let idx = b.add(parent, id, PassageKind::Section, title, n);
    b.append(idx, line, "\n");
    st.headings.push((QUESTION_LEVEL, idx));
    st.current = Some(idx);
}

/// A heading's id: the rule number it starts with, as numbered text's
/// rules take theirs ("### 1.1 Opening hand" is `lantern:1.1`, "## 1.
/// Setup" `lantern:1`), so an errata's "Errata to 1.1" and `/rule 1.1`
/// find it; else, or when another passage has that id already, the slug
/// of its words under its parent's id. (A GitBook or wiki rulebook's
/// numbered headings took slugs, `lantern:rules.1-setup.1-1-opening-hand`,
/// that no rule number names.) No shipped document's heading is numbered,
/// so their ids are as before.
fn heading_id(b: &DocBuilder, parent: PassageIdx, title: &str) -> String {
    if let Some(number) = heading_number(title) {
        let id = b.absolute_id(number);
        if !b.by_id.contains_key(&id) {
            return id;
        }
    }
    b.child_id(parent, &clean::slug(title))
}

/// The rule number a heading's title starts with, after an optional "§",
/// "Rule" or "Section": a dotted number ("1.1", "1.1.", "704.5j") or a
/// chapter's number with its full stop ("1. Setup"), followed by the
/// heading's words or nothing. A bare number ("2 Players") may be a count.
fn heading_number(title: &str) -> Option<&str> {
    static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^(?i:§\s*|rule\s+|section\s+)?([0-9]{1,9}(?:\.[0-9]{1,9})*[a-z]?)(\.?)(?:\s|$)",
        )
        .unwrap()
    });
    let c = NUMBERED.captures(title.trim())?;
    let number = c.get(1)?.as_str();
    let dotted = super::is_rule_number(number);
    let chapter = number.bytes().all(|b| b.is_ascii_digit()) && !c[2].is_empty();
    (dotted || chapter).then_some(number)
}

/// The passage that receives text at the current heading level.
fn section(b: &DocBuilder, st: &State) -> PassageIdx {
    st.headings.last().map_or(b.root, |&(_, idx)| idx)
}

fn add_item(
    b: &mut DocBuilder,
    st: &mut State,
    indent: usize,
    number: Option<&str>,
    raw: &str,
    n: usize,
) {
    while st.items.last().is_some_and(|i| i.indent > indent) {
        st.items.pop();
    }
    if st.items.last().is_some_and(|i| i.indent == indent) {
        st.items.pop();
    }
    let parent = st.items.last().map_or_else(|| section(b, st), |i| i.idx);
    if let Some(rule) = st
        .current
        .filter(|c| st.numbered.contains(c) || st.numbered.contains(&parent))
    {
        b.append(rule, raw_line(number, raw).as_str(), "\n");
        return;
    }
    let ordinal = st.item_counts.get(&parent).copied().unwrap_or(0) + 1;
    let mut segment = number.map_or_else(|| ordinal.to_string(), str::to_string);
    let mut id = b.child_id(parent, &segment);
    if number.is_some() && b.by_id.contains_key(&id) {
        // Lazy markdown numbering ("1." for every item): fall back to position.
        segment = ordinal.to_string();
        id = b.child_id(parent, &segment);
    }
    let (text, _) = clean::clean_inline(raw);
    let idx = b.add(parent, id, PassageKind::Item, item_title(&text), n);
    st.item_counts.insert(parent, ordinal);
    b.append(idx, raw, "\n");
    st.items.push(Item { indent, idx });
    st.current = Some(idx);
}

/// A list item's line as written, its text under a numbered rule.
fn raw_line(number: Option<&str>, raw: &str) -> String {
    match number {
        Some(n) => format!("{n}. {raw}"),
        None => format!("- {raw}"),
    }
}

/// A paragraph that opens with a rule number, as numbered text's rules do
/// and as Notion, Google Docs and Word write a rulebook's rules under its
/// headings ("1.1 Each player takes 7 Embers.", "1.1\u{a0}\u{a0}Decks
/// must…"), or a chapter's title a converter escaped ("1\\. Setup", a
/// Google Docs paragraph "1. Setup" not a list): a passage whose id is
/// the number, under the passage of the number before its last dot when
/// that is one, else under the current heading. They were the heading's
/// text, one passage, and no errata's "1.1" named them. A number another
/// passage has already is text, as is a chapter's line that reads as a
/// sentence.
fn add_numbered_paragraph(b: &mut DocBuilder, st: &mut State, line: &str, n: usize) -> bool {
    static RULE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^([0-9]{1,9}(?:\.[0-9]{1,9})+[a-z]?)\.?\s+(\S.*)$").unwrap());
    static CHAPTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^([0-9]{1,9})\\\.\s+(\S.*)$").unwrap());
    let unmarked = without_leading_emphasis(line);
    let (number, kind, rest) = if let Some(c) = RULE.captures(&unmarked) {
        (c.get(1), PassageKind::Item, c.get(2))
    } else if let Some(c) = CHAPTER.captures(&unmarked) {
        (c.get(1), PassageKind::Section, c.get(2))
    } else {
        return false;
    };
    let (Some(number), Some(rest)) = (number.map(|m| m.as_str()), rest) else {
        return false;
    };
    let (text, _) = clean::clean_inline(rest.as_str());
    if kind == PassageKind::Section
        && (text.ends_with(['.', '!', '?', ':', ';']) || text.split_whitespace().count() > 8)
    {
        return false;
    }
    let id = b.absolute_id(number);
    if b.by_id.contains_key(&id) {
        return false;
    }
    let above = number.rsplit_once('.').map(|(head, _)| b.absolute_id(head));
    let parent = above
        .and_then(|a| b.by_id.get(&a).copied())
        .filter(|p| st.numbered.contains(p))
        .unwrap_or_else(|| section(b, st));
    let title = match kind {
        PassageKind::Section => format!("{number}. {}", text.trim()),
        _ => item_title(&text),
    };
    let idx = b.add(parent, id, kind, title, n);
    if kind == PassageKind::Item {
        b.append(idx, line, "\n");
    }
    st.items.clear();
    st.bullet_indent = None;
    st.numbered.insert(idx);
    st.current = Some(idx);
    true
}

/// A line without the markers of the emphasis it opens with, when it
/// opens with some ("**1\\. Setup**", "**1.1** Each player…", "*1.1 …*":
/// a page's bold run, `<b>` or a class its style sheet makes bold, round
/// a chapter's title or a rule's number), so its number is read as it
/// is without them; the line as it is otherwise.
fn without_leading_emphasis(line: &str) -> std::borrow::Cow<'_, str> {
    for marker in ["***", "**", "__", "*", "_"] {
        let Some(after) = line.strip_prefix(marker) else {
            continue;
        };
        if let Some(close) = after.find(marker).filter(|&c| c > 0) {
            let (inside, outside) = (&after[..close], &after[close + marker.len()..]);
            return format!("{inside}{outside}").into();
        }
        break;
    }
    line.into()
}

fn flush_hint(b: &mut DocBuilder, st: &State, line: usize, buf: &[String]) {
    let parent = section(b, st);
    let number = b.passages[parent]
        .children
        .iter()
        .filter(|&&c| b.passages[c].kind == PassageKind::Example)
        .count()
        + 1;
    let joined = buf.join("\n");
    let (text, _) = clean::clean_inline(&joined);
    if text.is_empty() {
        return;
    }
    let is_example = {
        let l = text.to_lowercase();
        l.starts_with("e.g") || l.starts_with("example") || l.starts_with("for example")
    };
    let kind = if is_example { "example" } else { "hint" };
    let id = b.child_id(parent, &format!("{kind}-{number}"));
    let title = format!("{} {number}", if is_example { "Example" } else { "Hint" });
    let idx = b.add(parent, id, PassageKind::Example, title, line);
    for l in buf {
        b.append(idx, l, "\n");
    }
}
