//! Footnotes (`text[^1]`, `[^1]: the note`) read as a viewer shows them.
//! Decision: a reference is kept as its label in brackets ("cards.[1]"),
//! and a note is moved, as text ("[1] the note"), to the end of the
//! section that first refers to it (before the next heading): a viewer
//! lists the notes at the page's end, where they would join the last
//! section, far from the rule they qualify. A note nothing refers to stays
//! where it is written, as text. Both were stored raw ("[^1]:").

use std::sync::LazyLock;

use regex::Regex;
use rustc_hash::FxHashMap;

/// A footnote's definition: `[^label]: text`, indented three spaces at most.
static DEFINITION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {0,3}\[\^([^\]\s]+)\]:[ \t]?(.*)$").unwrap());
/// A reference to a footnote.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[\^([^\]\s]+)\]").unwrap());

/// A note: its label, its lines (the first's text and the continuation
/// lines, unindented) and the lines it spans.
struct Note<'a> {
    label: &'a str,
    lines: Vec<&'a str>,
    start: usize,
    end: usize,
}

/// The text with its footnotes read as a viewer shows them (see the
/// module's word). Lines in code blocks and code spans are the code's.
pub(super) fn footnotes(text: &str) -> String {
    if !text.contains("[^") {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut in_fence = false;
    let code: Vec<bool> = lines
        .iter()
        .map(|l| {
            let fence = super::is_fence(l);
            in_fence ^= fence;
            in_fence || fence
        })
        .collect();
    let notes = read_notes(&lines, &code);
    if notes.is_empty() {
        return text.to_string();
    }
    // Each label's note, found at once (a list searched for each of a
    // hostile page's many references would be quadratic).
    let index: FxHashMap<&str, usize> = notes
        .iter()
        .enumerate()
        .map(|(k, n)| (n.label, k))
        .collect();
    let known = |label: &str| index.contains_key(label);
    // Where each note goes: before the heading that ends the section of
    // its first reference, or where it stands.
    let mut taken = vec![false; lines.len()];
    let mut first_ref: Vec<Option<(usize, usize)>> = vec![None; notes.len()];
    for note in &notes {
        taken[note.start..note.end].fill(true);
    }
    let mut order = 0;
    for (i, line) in lines.iter().enumerate() {
        if code[i] || taken[i] {
            continue;
        }
        for c in REFERENCE.captures_iter(line) {
            if let Some(&k) = index.get(&c[1])
                && first_ref[k].is_none()
            {
                first_ref[k] = Some((i, order));
                order += 1;
            }
        }
    }
    let ends = section_ends(&lines, &code);
    let mut placed: Vec<(usize, usize, &Note)> = notes
        .iter()
        .zip(&first_ref)
        .map(|(note, r)| match r {
            Some((line, order)) => (ends[*line], *order, note),
            None => (note.start, usize::MAX, note),
        })
        .collect();
    placed.sort_by_key(|(at, order, _)| (*at, *order));
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + notes.len() * 2);
    let mut next = placed.iter().peekable();
    for i in 0..=lines.len() {
        while let Some((_, _, note)) = next.next_if(|(at, _, _)| *at == i) {
            write_note(&mut out, note, &known);
        }
        if i == lines.len() {
            break;
        }
        if taken[i] {
            continue;
        }
        out.push(match code[i] {
            true => lines[i].to_string(),
            false => references(lines[i], &known),
        });
    }
    out.join("\n")
}

/// The footnote definitions of the text, outside code blocks: each from
/// its `[^label]:` line through its continuation lines (indented, or a
/// paragraph's lazy lines), up to a blank line not followed by an
/// indented one, another definition or a heading.
fn read_notes<'a>(lines: &[&'a str], code: &[bool]) -> Vec<Note<'a>> {
    let mut notes: Vec<Note> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut i = 0;
    while i < lines.len() {
        let Some(c) = DEFINITION.captures(lines[i]).filter(|_| !code[i]) else {
            i += 1;
            continue;
        };
        let label = c.get(1).map_or("", |m| m.as_str());
        let mut note = Note {
            label,
            lines: vec![c.get(2).map_or("", |m| m.as_str())],
            start: i,
            end: i + 1,
        };
        let mut j = i + 1;
        while j < lines.len() && !code[j] {
            let line = lines[j];
            let indented = line.starts_with("    ") || line.starts_with('\t');
            let blank = line.trim().is_empty();
            let lazy = !blank && note.lines.last().is_some_and(|l| !l.trim().is_empty());
            let goes_on = match blank {
                true => lines
                    .get(j + 1)
                    .is_some_and(|n| n.starts_with("    ") || n.starts_with('\t')),
                false => {
                    !DEFINITION.is_match(line)
                        && (indented || (lazy && super::is_paragraph_line(line)))
                }
            };
            if !goes_on {
                break;
            }
            note.lines.push(line.trim());
            j += 1;
        }
        note.end = j;
        // The first definition of a label is the one a viewer shows.
        if seen.insert(label) {
            notes.push(note);
        }
        i = j;
    }
    notes
}

/// For each line, the line of the heading that ends its section (the
/// text's end when none follows): one pass from the end.
fn section_ends(lines: &[&str], code: &[bool]) -> Vec<usize> {
    let mut ends = vec![lines.len(); lines.len()];
    let mut next = lines.len();
    for i in (0..lines.len()).rev() {
        ends[i] = next;
        if !code[i] && super::ATX.is_match(lines[i]) {
            next = i;
        }
    }
    ends
}

/// A note as text, a paragraph apart from what is above it.
fn write_note(out: &mut Vec<String>, note: &Note, known: &dyn Fn(&str) -> bool) {
    if out.last().is_some_and(|l| !l.trim().is_empty()) {
        out.push(String::new());
    }
    let first = note.lines.first().copied().unwrap_or_default();
    out.push(references(&format!("[{}] {first}", note.label), known));
    for line in &note.lines[1..] {
        out.push(references(line, known));
    }
    out.push(String::new());
}

/// A line's references to known notes as "[label]", outside code spans
/// (an odd count of backticks before one is a span still open).
fn references(line: &str, known: &dyn Fn(&str) -> bool) -> String {
    if !line.contains("[^") {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let (mut last, mut ticks) = (0, 0);
    for c in REFERENCE.captures_iter(line) {
        let Some(whole) = c.get(0) else { continue };
        ticks += line[last..whole.start()].matches('`').count();
        out.push_str(&line[last..whole.start()]);
        match ticks.is_multiple_of(2) && known(&c[1]) {
            true => out.push_str(&format!("[{}]", &c[1])),
            false => out.push_str(whole.as_str()),
        }
        last = whole.end();
    }
    out.push_str(&line[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::footnotes;

    #[test]
    fn notes_go_to_the_end_of_the_section_that_refers_to_them() {
        // Many notes and references: each found at once.
        let many: String = (0..50_000)
            .map(|i| format!("# R{i}\n\nRule {i}.[^{i}]\n\n[^{i}]: Note {i}.\n\n"))
            .collect();
        let out = footnotes(&many);
        let (rule, note) = ("Rule 49999.[49999]", "[49999] Note 49999.");
        let between = out.split(rule).nth(1).and_then(|r| r.split(note).next());
        assert_eq!(
            between.map(str::trim),
            Some(""),
            "{}",
            &out[out.len() - 200..]
        );
        let md = "# A\n\nDraw five.[^1] See `[^1]`.\n\nShuffle.\n\n# B\n\nNo ref [^x].\n\n[^1]: Six with two\nplayers.\n\n    Even in winter.\n[^2]: Never referred to.\n";
        let out = footnotes(md);
        assert!(out.contains("Draw five.[1] See `[^1]`."), "{out}");
        let note = out
            .find("[1] Six with two\nplayers.\n\nEven in winter.")
            .expect(&out);
        assert!(
            note > out.find("Shuffle.").unwrap() && note < out.find("# B").unwrap(),
            "{out}"
        );
        assert!(out.contains("No ref [^x]."), "{out}");
        assert!(out.contains("[2] Never referred to."), "{out}");
        assert!(!out.contains("]:"), "{out}");
        let code = "```\n[^1]: code\n```\n";
        assert_eq!(footnotes(code), code);
    }
}
