//! A server's Markdown read as a Markdown viewer shows it, before the
//! parser the shipped documents use reads it: HTML comments left out (no
//! viewer shows them: a moderator's note in one was quoted to everyone),
//! setext headings (`Title` / `=====`) and HTML headings on a line of
//! their own (`<h2>Setup</h2>`) written as `#` headings, footnotes as
//! text ([`footnotes`]). Every line keeps its number, so the parser's
//! warnings name the lines of the file, but for the lines a footnote moved
//! to its section's end passes (they count its lines).

mod footnotes;

use std::sync::LazyLock;

use regex::Regex;

/// A heading element alone on its line: `<h1 align="center">Title</h1>`.
static HTML_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^ {0,3}<h([1-6])(?:\s[^>]*)?>(.*)</h([1-6])\s*>\s*$").unwrap()
});
/// Any tag, inside a heading element (a link, a `<b>`).
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<[^>]*>").unwrap());
/// An ATX heading, as the parser reads one.
static ATX: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(#{1,6})\s+(.*?)\s*#*\s*$").unwrap());
/// Line numbers named in a note before the rest are counted.
const NAMED: usize = 5;

/// The Markdown as stored, and the notes on what was left out.
pub(super) fn prepare(text: &str) -> (String, Vec<String>) {
    let (text, comments) = drop_comments(text);
    let mut notes = Vec::new();
    if !comments.is_empty() {
        notes.push(format!(
            "left out {} (<!-- … -->, which no Markdown viewer shows) at {}",
            crate::text::count(comments.len(), "HTML comment"),
            lines(&comments)
        ));
    }
    let text = footnotes::footnotes(&html_headings(&setext_headings(&callouts(&text))));
    (text, notes)
}

/// An `<aside>` tag opening or closing a line, or both (Notion's callout:
/// `<aside>`, its icon and words, `</aside>`, each tag on a line of its
/// own).
static ASIDE_OPEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^ {0,3}</?aside(?:\s[^>]*)?>\s*").unwrap());
/// See [`ASIDE_OPEN`].
static ASIDE_CLOSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*</aside\s*>\s*$").unwrap());

/// Notion's callouts as their text: the `<aside>` tags at a line's start
/// or end go (a line of a tag alone is left blank, so every line keeps its
/// number), their words and icon ("💡 **Note:** …") stay, a paragraph of
/// their own, outside code blocks. They were quoted raw, "<aside> 💡
/// Note: … </aside>" (found by an outside tester).
fn callouts(text: &str) -> String {
    if !text.contains("<aside") && !text.contains("<ASIDE") && !text.contains("</aside") {
        return text.to_string();
    }
    outside_fences(text, |line| {
        let opened = ASIDE_OPEN.replace(line, "");
        ASIDE_CLOSE.replace(&opened, "").into_owned()
    })
}

/// Each line outside fenced code blocks rewritten by `f`; a code block's
/// lines (fences included) as written.
fn outside_fences(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut in_fence = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            if is_fence(line) {
                in_fence = !in_fence;
                return line.to_string();
            }
            if in_fence { line.to_string() } else { f(line) }
        })
        .collect();
    lines.join("\n")
}

/// "line 7", "lines 7, 12 and 3 more".
fn lines(at: &[usize]) -> String {
    let named: Vec<String> = at.iter().take(NAMED).map(usize::to_string).collect();
    let word = if at.len() == 1 { "line" } else { "lines" };
    match at.len().saturating_sub(NAMED) {
        0 => format!("{word} {}", named.join(", ")),
        more => format!("{word} {} and {more} more", named.join(", ")),
    }
}

/// Whether a line opens or closes a fenced code block (its text is code,
/// shown as written).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    line.len() - t.len() < 4 && (t.starts_with("```") || t.starts_with("~~~"))
}

/// The text without its HTML comments, outside code blocks and code spans,
/// each comment's line breaks kept; the line each comment starts on. A
/// comment never closed runs to the end, as a viewer hides it.
fn drop_comments(text: &str) -> (String, Vec<usize>) {
    if !text.contains("<!--") {
        return (text.to_string(), Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut starts = Vec::new();
    let mut in_fence = false;
    let mut in_comment = false;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        if !in_comment && is_fence(line) {
            in_fence = !in_fence;
        }
        if in_fence && !in_comment {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        loop {
            if in_comment {
                match rest.find("-->") {
                    Some(end) => {
                        rest = &rest[end + 3..];
                        in_comment = false;
                    }
                    None => break,
                }
            }
            match open_comment(rest) {
                Some(at) => {
                    out.push_str(&rest[..at]);
                    starts.push(n + 1);
                    rest = &rest[at + 4..];
                    in_comment = true;
                }
                None => {
                    out.push_str(rest);
                    break;
                }
            }
        }
    }
    (out, starts)
}

/// Where a comment opens in a line, outside its code spans (an odd count
/// of backticks before it is a code span still open).
fn open_comment(line: &str) -> Option<usize> {
    // The backticks counted as the search goes, once (counting them from
    // the line's start for each `<!--` was quadratic on a line of them).
    let (mut from, mut ticks) = (0, 0);
    while let Some(i) = line[from..].find("<!--") {
        let at = from + i;
        ticks += line[from..at].matches('`').count();
        if ticks.is_multiple_of(2) {
            return Some(at);
        }
        ticks += line[at..at + 4].matches('`').count();
        from = at + 4;
    }
    None
}

/// Whether a line starts a list item or a quote.
fn starts_item_or_quote(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let after = &t[digits..];
    (digits > 0 && (after.starts_with(". ") || after.starts_with(") ")))
        || ["- ", "* ", "+ ", "•", "»", ">"]
            .iter()
            .any(|m| t.starts_with(m))
}

/// Whether a line may be a paragraph's (CommonMark): not blank, not
/// indented as code, and not a heading, list item, quote, table row, HTML
/// line, GitBook directive or fence.
fn is_paragraph_line(line: &str) -> bool {
    let t = line.trim_start();
    if t.is_empty() || line.len() - t.len() >= 4 || is_fence(line) {
        return false;
    }
    !starts_item_or_quote(line) && !t.starts_with(['#', '>', '|', '<', '{'])
}

/// The underline of a setext heading: its level, `=` for 1, `-` for 2
/// (two at least: a lone `-` is an empty list item's).
fn underline(line: &str) -> Option<usize> {
    let t = line.trim_end();
    let body = t.trim_start();
    if t.len() - body.len() >= 4 || body.is_empty() {
        return None;
    }
    if body.chars().all(|c| c == '=') {
        Some(1)
    } else if body.len() >= 2 && body.chars().all(|c| c == '-') {
        Some(2)
    } else {
        None
    }
}

/// Setext headings as `#` headings: the paragraph above an underline is
/// the heading (its lines joined), written on its first line; the other
/// lines are left blank. YAML front matter and code blocks are not read.
fn setext_headings(text: &str) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut start = 0;
    if lines.first().is_some_and(|l| l.trim() == "---")
        && let Some(end) = lines.iter().skip(1).position(|l| l.trim() == "---")
    {
        start = end + 2;
    }
    let mut in_fence = false;
    // First line of the paragraph the current line belongs to.
    let mut paragraph: Option<usize> = None;
    // Under a list item or a quote until a blank line: its lines go on
    // with it, so a line under them is no heading's ("- item\ncontinued\n
    // ---" made "continued" a heading; found by a review).
    let mut in_item = false;
    for i in start..lines.len() {
        if is_fence(&lines[i]) {
            in_fence = !in_fence;
            paragraph = None;
            continue;
        }
        if in_fence {
            continue;
        }
        if in_item {
            in_item = !lines[i].trim().is_empty();
            continue;
        }
        if let (Some(first), Some(level)) = (paragraph, underline(&lines[i])) {
            let title: Vec<&str> = lines[first..i].iter().map(|l| l.trim()).collect();
            let heading = format!("{} {}", "#".repeat(level), title.join(" "));
            for line in &mut lines[first..=i] {
                line.clear();
            }
            lines[first] = heading;
            paragraph = None;
            continue;
        }
        paragraph = match (paragraph, is_paragraph_line(&lines[i])) {
            (Some(first), true) => Some(first),
            (None, true) => Some(i),
            (_, false) if lines[i].trim().is_empty() => None,
            // A list item or quote: a line under it goes on with it.
            (_, false) => {
                in_item = starts_item_or_quote(&lines[i]);
                None
            }
        };
    }
    lines.join("\n")
}

/// Heading elements alone on their line as `#` headings (their tags out),
/// outside code blocks.
fn html_headings(text: &str) -> String {
    if !text.contains("<h") && !text.contains("<H") {
        return text.to_string();
    }
    outside_fences(text, |line| match HTML_HEADING.captures(line) {
        Some(c) if c[1] == c[3] => {
            let level: usize = c[1].parse().unwrap_or(1);
            let title = TAG.replace_all(&c[2], "");
            format!("{} {}", "#".repeat(level), title.trim())
        }
        _ => line.to_string(),
    })
}

/// The number of `#` headings when no heading has any text under it (a
/// heading with nothing under it is no passage, so such a document has
/// no structure, though it has headings); 0 otherwise. Lines before the
/// first heading are the document's introduction, under none.
pub(super) fn empty_headings(text: &str) -> usize {
    let mut headings = 0;
    let mut in_fence = false;
    for line in text.lines() {
        if is_fence(line) {
            in_fence = !in_fence;
        }
        if line.trim().is_empty() {
            continue;
        }
        if !in_fence && ATX.is_match(line) {
            headings += 1;
        } else if headings > 0 {
            return 0;
        }
    }
    headings
}

/// A document of headings alone as its headings' words, a line each: one
/// passage, every word findable (as headings they were no passages at all).
pub(super) fn headings_as_text(text: &str) -> String {
    text.lines()
        .map(|line| match ATX.captures(line) {
            Some(c) => format!("{}\n", &c[2]),
            None => format!("{line}\n"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_with_their_lines_kept_but_not_in_code() {
        let md =
            "# A\n\nText <!-- note -->more.\n<!-- a\nb -->\n```\n<!-- code -->\n```\n`<!--` stays";
        let (out, notes) = prepare(md);
        assert_eq!(out.lines().count(), md.lines().count(), "{out}");
        assert!(out.contains("Text more."), "{out}");
        assert!(!out.contains("note") && !out.contains("a\nb"), "{out}");
        assert!(
            out.contains("<!-- code -->") && out.contains("`<!--` stays"),
            "{out}"
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("2 HTML comments") && notes[0].contains("lines 3, 4"));
    }

    #[test]
    fn setext_and_html_headings_become_atx_headings() {
        let md = "---\ntitle: X\n---\nTitle\n=====\n\nSetup\nrules\n-----\n\n- item\n---\n<h2 align=\"c\">Scoring <b>now</b></h2>";
        let (out, _) = prepare(md);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[2], "---", "front matter is kept: {out}");
        assert_eq!(lines[3], "# Title");
        assert_eq!(lines[6], "## Setup rules");
        assert_eq!(lines[11], "---", "no paragraph above a list's rule: {out}");
        assert_eq!(lines[12], "## Scoring now");
        assert_eq!(lines.len(), md.lines().count());
        // A list item's lazy line is the item's, and no heading's; after a
        // `#` heading a paragraph starts again.
        let (out, _) = prepare("- item one\ncontinued\n---\n\n# Rules\nSetup\n-----\n");
        assert!(!out.contains("## continued"), "{out}");
        assert!(out.contains("## Setup"), "{out}");
    }

    #[test]
    fn a_comment_after_many_code_spans_is_found_by_their_count() {
        // One backtick, then many comment openings all inside its span.
        let line = format!("`{}", "<!--".repeat(2000));
        assert_eq!(open_comment(&line), None);
        assert_eq!(open_comment("`a` <!-- x"), Some(4));
        assert_eq!(open_comment("`<!--` <!-- x"), Some(7));
    }

    #[test]
    fn headings_alone_are_counted_and_kept_as_text() {
        let md = "# Combat\n# Movement\n\n## Scoring\n";
        assert_eq!(empty_headings(md), 3);
        assert_eq!(empty_headings("# Combat\nHit.\n"), 0);
        assert_eq!(empty_headings("Intro.\n# Combat\n# Movement\n"), 2);
        assert_eq!(headings_as_text(md), "Combat\nMovement\n\nScoring\n");
    }
}
