//! A back-of-book index (a heading "Index", then lines of a term and the
//! pages or rules it is on: "Attack, 3.1", "Draw, 1.1, 2.1"): dropped
//! before the text is read, as a printed table of contents is
//! ([`super::contents`]), in plain text, Markdown, an HTML page's Markdown
//! and a PDF's text. Read as rules, its lines ran on in the last rule's
//! quote ("… block with one unit. Index / Attack, 3.1 / Block, 3.1") or
//! became a glossary entry titled by all of them
//! (`emberfall:glossary.attack-3-1-ember-1-1-2-1-…`); an index names
//! where a term is, never what it means, so no answer quotes it.

use regex::Regex;
use std::sync::LazyLock;

/// A term then where it is, one entry: the term starts with a letter and
/// holds no digit (a rule's line starts with its number: "3.1 The
/// attacker…"), then a comma, a colon or a dot leader, then page or rule
/// numbers ("3.1", "12–14", "p. 7", "iv"), separated by commas or
/// semicolons.
const ENTRY: &str = r"[^\W\d_][^\d;:]*?(?:[,:]?\s+|\s*(?:\.\s?){2,}\s*)(?:p\.\s?)?(?:\d{1,4}(?:\.\d{1,4}){0,4}[a-z]?(?:\s?[-–]\s?\d{1,4}(?:\.\d{1,4}){0,4})?|(?i:[ivxlc]{1,6}))(?:\s*[,;]\s*(?:p\.\s?)?\d{1,4}(?:\.\d{1,4}){0,4}[a-z]?(?:\s?[-–]\s?\d{1,4}(?:\.\d{1,4}){0,4})?)*";

/// One entry, for counting a line's.
static ONE: LazyLock<Regex> = LazyLock::new(|| Regex::new(ENTRY).expect("a valid pattern"));

/// A whole line of entries: one, or several a PDF's wrapping joined
/// ("Attack, 3.1 Ember, 1.1, 2.1 Guard, 3.2.1").
static LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^(?:{ENTRY}\s+)*(?:{ENTRY})\.?$")).expect("a valid pattern")
});

/// A cross-reference entry ("Combat, see Attack", "Guard (see also
/// Block)"): an entry of the index, counted as one (an index of a few
/// entries, some of them "see" lines, ran on in the last rule's quote).
static SEE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[^\W\d_][^\d.;:()]*?[,.]?\s+\(?see(?:\s+also)?\s+[^\W\d_][^\d()]*\)?$")
        .expect("a valid pattern")
});

/// A cross-reference after an entry's numbers ("Block, 3.1 (see also
/// Guard)"), left out before the entry is read.
static SEE_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s*\(\s*see(?:\s+also)?\s+[^\W\d_][^\d()]*\)$").expect("a valid pattern")
});

/// A Markdown link, kept as its label (an HTML index links its numbers
/// to the rules: "[3.1](#r3-1)").
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]]*)\]\([^)]*\)").expect("a valid pattern"));

/// Fewest entries under the heading for it to be an index, not a section
/// of rules about index cards.
const MIN_ENTRIES: usize = 3;

/// A line as an index's words: no Markdown heading marks, list bullets,
/// emphasis, escapes or links.
fn words(line: &str) -> String {
    let line = line.trim();
    let line = line.trim_start_matches('#').trim_end_matches('#').trim();
    let line = ["- ", "* ", "+ ", "• "]
        .iter()
        .find_map(|b| line.strip_prefix(b))
        .unwrap_or(line);
    let line = LINK.replace_all(line, "$1");
    line.chars()
        .filter(|c| !matches!(c, '*' | '_' | '\\' | '`'))
        .collect::<String>()
        .trim()
        .to_string()
}

/// Whether a line is an index's own heading ("Index", "## Index",
/// "**General Index**", "Index of Terms").
fn index_heading(line: &str) -> bool {
    let words: Vec<String> = words(line)
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    matches!(
        words.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["index"]
            | ["general" | "rules" | "subject", "index"]
            | ["index", "of", "terms" | "keywords"]
    )
}

/// Longest an entry may be, in characters: a term is a few words.
const MAX_ENTRY_CHARS: usize = 100;

/// How many entries a line holds: none unless the whole line is entries
/// (a cross-reference, [`SEE`], is one; one after an entry's numbers,
/// [`SEE_AFTER`], is part of it).
fn entries(line: &str) -> usize {
    let line = words(line);
    if line.chars().count() > MAX_ENTRY_CHARS {
        return 0;
    }
    if SEE.is_match(&line) {
        return 1;
    }
    let line = SEE_AFTER.replace(&line, "");
    if !LINE.is_match(&line) {
        return 0;
    }
    let found: Vec<&str> = ONE.find_iter(&line).map(|m| m.as_str()).collect();
    match found.iter().all(|e| e.chars().count() <= MAX_ENTRY_CHARS) {
        true => found.len(),
        false => 0,
    }
}

/// Whether a line may stand inside an index without being an entry: a
/// letter dividing it ("A", "— B —").
fn inside(line: &str) -> bool {
    let line = words(line);
    let letters: Vec<char> = line.chars().filter(|c| c.is_alphanumeric()).collect();
    letters.len() == 1 && letters[0].is_alphabetic()
}

/// An index's first entry, single-spaced, as its note quotes it.
fn first_entry(lines: &[&str]) -> String {
    let line = lines.iter().map(|l| words(l)).find(|l| entries(l) > 0);
    // A cross-reference holds no numbers: quoted whole.
    let entry = line
        .as_deref()
        .map_or("", |l| ONE.find(l).map_or(l, |m| m.as_str()));
    super::short(&crate::text::single_spaced(entry), 40)
}

/// The lines of the index under the heading at `at` (the heading
/// included), and its entries: it runs over entries, blank lines,
/// cross-references and letters up to the first other line.
fn block_at(lines: &[&str], at: usize) -> (std::ops::Range<usize>, usize) {
    let mut end = at + 1;
    let mut count = 0;
    for (i, line) in lines.iter().enumerate().skip(at + 1) {
        let n = entries(line);
        if n > 0 {
            count += n;
            end = i + 1;
        } else if line.trim().is_empty() || inside(line) {
            continue;
        } else {
            break;
        }
    }
    (at..end, count)
}

/// The text without its back-of-book indexes (a heading [`index_heading`]
/// over [`MIN_ENTRIES`] entries or more, see [`block_at`]), each line
/// left blank so that every other keeps its number, and a preview note
/// for each one dropped.
pub(super) fn drop_index(text: &str) -> (String, Vec<String>) {
    if !text.to_lowercase().contains("index") {
        return (text.to_string(), Vec::new());
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut gone = vec![false; lines.len()];
    let mut notes = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !index_heading(lines[i]) {
            i += 1;
            continue;
        }
        let (range, count) = block_at(&lines, i);
        if count < MIN_ENTRIES {
            i += 1;
            continue;
        }
        notes.push(format!(
            "dropped a back-of-book index of {count} entries (“{}” …): it says where terms are, not what a rule says",
            first_entry(&lines[i + 1..range.end])
        ));
        i = range.end;
        gone[range].fill(true);
    }
    if notes.is_empty() {
        return (text.to_string(), notes);
    }
    (super::contents::without_lines(&lines, &gone, true), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_a_term_then_where_it_is() {
        assert_eq!(entries("Attack, 3.1"), 1);
        assert_eq!(entries("Draw, 1.1, 2.1"), 1);
        assert_eq!(entries("- Opening hand: 12–14"), 1);
        assert_eq!(entries("Setup ........ 4"), 1);
        assert_eq!(entries("Preface, iv"), 1);
        assert_eq!(entries("* [Block](#b), [3.1](#r3-1)"), 1);
        assert_eq!(entries("Attack, 3.1 Ember, 1.1, 2.1 Guard, 3.2.1"), 3);
        // A rule leads with its number; a sentence does not end in one.
        assert_eq!(entries("3.1 The attacker chooses one target."), 0);
        assert_eq!(entries("Each player draws six cards."), 0);
        assert_eq!(entries("1. Setup"), 0);
    }

    #[test]
    fn a_cross_reference_is_an_entry() {
        assert_eq!(entries("Guard, see Block"), 1);
        assert_eq!(entries("Guard (see also Block)"), 1);
        assert_eq!(entries("Block, 3.1 (see also Guard)"), 1);
        assert_eq!(entries("- Block, 3.1 (see Guard, Wall)"), 1);
        // A sentence naming "see" is no cross-reference.
        assert_eq!(entries("3.1 Players see the top card."), 0);
        assert_eq!(entries("You may see 2 cards."), 0);
    }

    #[test]
    fn an_index_of_few_entries_with_cross_references_is_dropped() {
        let text = "3.2 Damage is dealt at once.\n\nIndex\nAttack, 3.1\nBlock, 3.1 (see also Guard)\nGuard, see Block\n";
        let (out, notes) = drop_index(text);
        assert_eq!(out, "3.2 Damage is dealt at once.\n\n\n\n\n\n");
        assert!(notes[0].contains("index of 3 entries"), "{notes:?}");
        // A section titled "Index" with rules under it stays, see lines or not.
        let rules = "Index\nThe index card holds 2 tokens; see 3.1.\nGuard, see Block\nBlock, 3.1\nDraw, 2.1\n";
        assert_eq!(drop_index(rules), (rules.to_string(), Vec::new()));
        let few = "Index\nGuard, see Block\nBlock, 3.1\n";
        assert_eq!(drop_index(few), (few.to_string(), Vec::new()));
    }

    #[test]
    fn an_index_under_its_heading_is_dropped_its_lines_left_blank() {
        let text = "1. Combat\n\n1.1 Attack.\n\nIndex\nA\nAttack, 1.1\nBlock, 1.1\n\nCombat, see Attack\nDraw, 2.1, 3.4\n";
        let (out, notes) = drop_index(text);
        assert_eq!(out, "1. Combat\n\n1.1 Attack.\n\n\n\n\n\n\n\n\n");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("index of 4 entries"), "{notes:?}");
    }

    #[test]
    fn text_after_an_index_stays() {
        let text = "## Index\n\n- Attack, 1.1\n- Block, 1.1\n- Draw, 2.1\n\n## Credits\n\nDesigned by Ann.\n";
        let (out, _) = drop_index(text);
        assert_eq!(out, "\n\n\n\n\n\n## Credits\n\nDesigned by Ann.\n");
    }

    #[test]
    fn a_section_titled_index_with_rules_under_it_stays() {
        let text = "Index\nThe index card holds 2 tokens.\nAttack, 1.1\nBlock, 1.1\nDraw, 2.1\n";
        assert_eq!(drop_index(text), (text.to_string(), Vec::new()));
        let few = "Index\nAttack, 1.1\nBlock, 1.1\n";
        assert_eq!(drop_index(few), (few.to_string(), Vec::new()));
    }
}
