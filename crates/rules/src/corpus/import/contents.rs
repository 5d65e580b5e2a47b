//! A printed table of contents in text without markup (plain text, a PDF's
//! text): dropped before the text is read, as an HTML page's is
//! ([`super::html`]). Its lines ("1.1 Components . . . . 3", "Chapter
//! 30..............3") start with a rule's or a section's number: read as
//! rules, they took the real ids (the real one became `vell:1.1~2`), filed
//! the first chapter inside the last contents line and, each nested under
//! the one before, refused a 30-chapter book as 31 levels deep.

use regex::Regex;
use std::sync::LazyLock;

/// A contents entry's end: a leader (four dots or more, each at most one
/// space from the next: "....", ". . . .") then a page number (digits, or a
/// Roman numeral), at the line's end or before the next
/// entry a PDF's wrapping joined onto the line. A rule's "702.19b ... 5"
/// has no leader: three dots.
static ENTRY_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:\. ?){3}\.\s*(?:\d{1,4}|(?i:[ivxlc]{1,6}))(?:\s|$)").expect("a valid pattern")
});

/// An entry whose leader its long title squeezed to one dot ("2.1.2
/// Starting Positions. 5"): counted as one only between entries.
static SQUEEZED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\S\.\s?\d{1,4}$").expect("a valid pattern"));

/// Fewest entries a block needs to be a table of contents, not a line of
/// rules that happens to end in a leader.
const MIN_ENTRIES: usize = 3;

/// Most lines in a row between two entries that are not entries
/// themselves: a title the page wrapped ("2.2 Choosing the First" /
/// "Player.......5"), a leader squeezed to one dot ("Starting
/// Positions. 5"), a page number.
const MAX_BETWEEN: usize = 2;

/// Longest such a line in between may be, in characters.
const MAX_BETWEEN_CHARS: usize = 100;

/// How many contents entries a line holds: none unless it ends in one
/// (a paragraph that only quotes a leader is no entry).
fn entries(line: &str) -> usize {
    let line = line.trim_end();
    let count = ENTRY_END.find_iter(line).count();
    let ends = ENTRY_END
        .find_iter(line)
        .last()
        .is_some_and(|m| m.end() == line.len());
    if ends { count } else { 0 }
}

/// Whether a line is a table of contents' own heading.
fn contents_heading(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    matches!(
        words.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["contents"] | ["table", "of", "contents"]
    )
}

/// A block of contents found in `lines`: the line range it covers and its
/// entries.
struct Block {
    start: usize,
    end: usize,
    entries: usize,
}

/// The block of entries starting at line `first` (an entry): it goes on
/// over blank lines and up to [`MAX_BETWEEN`] short other lines while
/// another entry follows, and takes in a contents heading above it.
fn block_at(lines: &[&str], first: usize) -> Block {
    let mut block = Block {
        start: first,
        end: first + 1,
        entries: entries(lines[first]),
    };
    let mut i = first + 1;
    let mut between = 0;
    let mut squeezed = 0;
    while i < lines.len() && between <= MAX_BETWEEN {
        let line = lines[i];
        let n = entries(line);
        if n > 0 {
            block.entries += n + std::mem::take(&mut squeezed);
            block.end = i + 1;
            between = 0;
        } else if !line.trim().is_empty() {
            between += 1;
            squeezed += usize::from(SQUEEZED.is_match(line.trim_end()));
            if line.chars().count() > MAX_BETWEEN_CHARS {
                break;
            }
        }
        i += 1;
    }
    let above = (0..first).rev().find(|&j| !lines[j].trim().is_empty());
    if let Some(j) = above.filter(|&j| contents_heading(lines[j])) {
        block.start = j;
    }
    block
}

/// The text without its tables of contents (blocks of [`MIN_ENTRIES`]
/// entries or more, see [`block_at`]), and a preview note for each one
/// dropped.
pub(super) fn drop_contents(text: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut gone = vec![false; lines.len()];
    let mut notes = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if entries(lines[i]) == 0 {
            i += 1;
            continue;
        }
        let block = block_at(&lines, i);
        if block.entries >= MIN_ENTRIES {
            gone[block.start..block.end].fill(true);
            notes.push(format!(
                "dropped a table of contents of {} lines",
                block.entries
            ));
        }
        i = block.end;
    }
    if notes.is_empty() {
        return (text.to_string(), notes);
    }
    (without_lines(&lines, &gone, false), notes)
}

/// The lines `gone` does not mark, each ended by a line break; with
/// `blank`, an empty line stands in each dropped one's place, so the
/// lines after keep their numbers.
pub(super) fn without_lines(lines: &[&str], gone: &[bool], blank: bool) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for (line, &gone) in lines.iter().zip(gone) {
        if !gone {
            out.push_str(line);
        }
        if !gone || blank {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_end_in_a_leader_and_a_page_number() {
        assert_eq!(entries("1.1 Components . . . . . . . 3"), 1);
        assert_eq!(entries("Chapter 30..............3"), 1);
        assert_eq!(entries("Preface ........ iv"), 1);
        assert_eq!(
            entries("1.1.1 Oil Barrels . . . . 3 1.1.2 Fog Tokens . . . . 3"),
            2
        );
        assert_eq!(entries("....................10"), 1);
        // No leader, or not at the line's end: a rule.
        assert_eq!(entries("702.19b ... 5"), 0);
        assert_eq!(entries("702.19b Trample. See rule 5"), 0);
        assert_eq!(entries("Wait.... 3 players may then draw."), 0);
        assert_eq!(entries("Starting Positions. 5"), 0);
    }

    #[test]
    fn a_block_goes_with_its_heading_and_wrapped_titles() {
        let text = "Title\n\nContents\n1. Intro.....3\n2.2 Choosing the First\n\
                    Player.......5\n2.3 Starting Positions. 5\n3. End . . . . 6\n\n\
                    1. Intro\n\n1.1 Rules start here.\n";
        let (out, notes) = drop_contents(text);
        assert_eq!(out, "Title\n\n\n1. Intro\n\n1.1 Rules start here.\n");
        assert_eq!(notes, ["dropped a table of contents of 4 lines"]);
    }

    #[test]
    fn fewer_than_three_entries_stay() {
        let text = "Contents\n1. Intro.....3\n2. End.....4\n\n1. Intro\n";
        assert_eq!(drop_contents(text), (text.to_string(), Vec::new()));
    }
}
