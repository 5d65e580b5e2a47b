//! How a line the wrapping broke goes on into the next: after a space, or
//! glued to it (a hyphen or a dash the document wrote, where the line
//! broke), or into one word (a word the layout hyphenated). The document's
//! own text tells which: the words it writes with a hyphen, the words it
//! writes whole, and whether it sets its dashes apart.

use std::collections::HashSet;

use super::Line;

/// What the document's text tells about the words and dashes its lines
/// break at.
#[derive(Debug, Default)]
pub(super) struct Spelling {
    /// The words it writes with a hyphen ("two-player"), lower-cased.
    compounds: HashSet<String>,
    /// Every word it writes, lower-cased, but a line's first word after a
    /// line ending in a hyphen (the rest of a broken word): "miniatures"
    /// beside "minia-" / "tures" tells the layout hyphenated it, and
    /// "ability" and "adding" each written elsewhere tell "ability-" /
    /// "adding" joins two words at a hyphen the document wrote.
    words: HashSet<String>,
    /// Whether it writes an em dash between words with no space around it
    /// ("{rN2}—[Effect]") more often than with one.
    glued_dashes: bool,
}

/// A word as looked up: its letters, digits and hyphens, lower-cased.
fn key(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
        .to_lowercase()
}

impl Spelling {
    /// Reads the pages' lines (in reading order).
    pub(super) fn of(pages: &[Vec<Line>]) -> Spelling {
        let lines = || pages.iter().flatten();
        let mut spelling = Spelling::default();
        let mut broken = false;
        for line in lines() {
            let text = line.text.trim();
            for word in text.split_whitespace().skip(usize::from(broken)).map(key) {
                if word.contains('-') && !word.starts_with('-') && !word.ends_with('-') {
                    spelling.compounds.insert(word);
                } else {
                    spelling.words.insert(word);
                }
            }
            broken = text.ends_with('-');
        }
        let (mut glued, mut spaced) = (0, 0);
        for line in lines() {
            let text: Vec<char> = line.text.trim().chars().collect();
            for (i, _) in text.iter().enumerate().filter(|(_, c)| **c == '—') {
                let (Some(before), Some(after)) = (i.checked_sub(1), text.get(i + 1)) else {
                    continue;
                };
                match text[before].is_whitespace() || after.is_whitespace() {
                    true => spaced += 1,
                    false => glued += 1,
                }
            }
        }
        spelling.glued_dashes = glued > spaced;
        spelling
    }

    /// What a line ending `left` ("minia-") before one starting `next`
    /// ("tures") says of a word broken at a hyphen, when the line's last
    /// word ends in letters and a hyphen and the next starts in lower
    /// case: written so when the word had a hyphen already or the document
    /// writes it with one elsewhere; hyphenated by the layout when it
    /// writes it whole elsewhere; else written so when both parts are
    /// words it writes on their own (a layout breaks a word between its
    /// syllables, "minia" / "tures", which are not).
    fn broken_word(&self, left: &str, next: &str) -> Option<Broken> {
        let left = left.rsplit(char::is_whitespace).next().unwrap_or_default();
        let stem = left
            .strip_suffix('-')
            .filter(|s| s.chars().next_back().is_some_and(char::is_alphabetic))?;
        if !next.starts_with(char::is_lowercase) {
            return None;
        }
        let word = stem
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let right: String = next.chars().take_while(|c| c.is_alphanumeric()).collect();
        let right = right.to_lowercase();
        let written = word.contains('-') || self.compounds.contains(&format!("{word}-{right}"));
        let words = [&word, &right].iter().all(|w| self.words.contains(*w));
        Some(if written {
            Broken::Written
        } else if self.words.contains(&format!("{word}{right}")) {
            Broken::Hyphenated
        } else if words {
            Broken::Written
        } else {
            Broken::Unknown
        })
    }
}

/// A word broken at a line-end hyphen, as the document's text tells.
#[derive(Debug, PartialEq)]
enum Broken {
    /// The document writes it with the hyphen ("two-player"), or the word
    /// had one before ("end-of-" / "game").
    Written,
    /// The document writes it whole ("miniatures").
    Hyphenated,
    /// Neither.
    Unknown,
}

/// Appends `next`, a line the wrapping broke off, to `out`: after a
/// space, or glued on where the break was in a written word: after a
/// hyphen the document wrote ("non-" / "Commander", "Assembly-" /
/// "Worker", "-2/-" / "0", a minus sign "-" / "2/4"; a hyphen before a
/// capital or a digit is no layout's) or beside a dash it writes with no
/// space ("{rN2}" / "—[Effect]"), or into one word where the layout
/// hyphenated it ("minia-" / "tures": the hyphen goes unless the document
/// writes the word with it, or the word had one, or both parts are words
/// it writes, [`Spelling::broken_word`]).
pub(super) fn push_wrapped(out: &mut String, next: &str, spelling: &Spelling) {
    let left = out.rsplit(char::is_whitespace).next().unwrap_or_default();
    if let Some(stem) = left.strip_suffix('\u{ad}') {
        // A soft hyphen is no hyphen: dropped, or "end-of-" kept.
        let written = spelling.broken_word(&format!("{stem}-"), next) == Some(Broken::Written);
        out.pop();
        if written {
            out.push('-');
        }
        if !written && !next.starts_with(char::is_lowercase) {
            out.push(' ');
        }
        out.push_str(next);
        return;
    }
    let first = next.chars().next().unwrap_or(' ');
    let broken = spelling.broken_word(left, next);
    let glued = match broken {
        Some(Broken::Written) => true,
        Some(Broken::Hyphenated | Broken::Unknown) => false,
        None => {
            let hyphen = left.ends_with('-') && !left.ends_with("--");
            // A dash the line itself spaces ("Plane —" / "Serra's",
            // "Instant" / "— Arcane") keeps its space whatever the
            // document mostly does (MTG's 304.3, 307.3 and 310.3 read
            // "Instant— Arcane").
            let glued_after = next.chars().nth(1).is_some_and(|c| !c.is_whitespace());
            let dash = spelling.glued_dashes
                && !left.is_empty()
                && ((first == '—' && glued_after)
                    || (left.ends_with('—') && left != "—" && first.is_alphanumeric()));
            (hyphen && left.len() > 1 && first.is_alphanumeric())
                || (left == "-" && first.is_ascii_digit())
                || dash
        }
    };
    match broken {
        _ if glued => {}
        Some(_) => {
            out.pop();
        }
        None => out.push(' '),
    }
    out.push_str(next);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            text: text.into(),
            ..Line::default()
        }
    }

    fn joined(lines: &[&str], left: &str, next: &str) -> String {
        let spelling = Spelling::of(&[lines.iter().map(|t| line(t)).collect()]);
        let mut out = left.to_string();
        push_wrapped(&mut out, next, &spelling);
        out
    }

    /// A hyphen written in the word stays, with no space after it: before
    /// a capital or a digit, in a minus sign, where the document writes
    /// the word so, and wherever a layout that never hyphenates broke the
    /// line; a hyphen the layout added goes.
    #[test]
    fn a_written_hyphen_stays_and_a_layouts_goes() {
        assert_eq!(
            joined(&[], "for non-", "Commander decks"),
            "for non-Commander decks"
        );
        assert_eq!(
            joined(&[], "gives it -2/-", "0, then"),
            "gives it -2/-0, then"
        );
        assert_eq!(
            joined(&[], "remains a -", "2/4 creature"),
            "remains a -2/4 creature"
        );
        assert_eq!(joined(&[], "a dash -", "then"), "a dash - then");
        assert_eq!(
            joined(&["two-player"], "a two-", "player game"),
            "a two-player game"
        );
        assert_eq!(
            joined(&["miniatures"], "the minia-", "tures"),
            "the miniatures"
        );
        assert_eq!(joined(&[], "the minia-", "tures"), "the miniatures");
        // Two words the document writes apart are joined at a hyphen it
        // wrote; a word's syllables are not words of their own.
        let apart = ["ability is", "adding mana"];
        assert_eq!(
            joined(&apart, "with ability-", "adding effects"),
            "with ability-adding effects"
        );
        assert_eq!(joined(&apart, "with abil-", "ity"), "with ability");
        let whole = ["ability is", "adding mana", "abilityadding"];
        assert_eq!(
            joined(&whole, "with ability-", "adding"),
            "with abilityadding"
        );
    }

    /// An em dash the document writes with no space around it stays so
    /// when the line breaks beside it; one it sets apart keeps its space.
    #[test]
    fn a_dash_keeps_the_documents_spacing() {
        let glued = ["{rN1}—[Effect] and {rN2}—[Effect]"];
        assert_eq!(
            joined(&glued, "and \"{rN2}", "—[Effect].\""),
            "and \"{rN2}—[Effect].\""
        );
        // A line's own spacing wins over the document's habit.
        assert_eq!(
            joined(&glued, "\"Plane —", "Serra's Realm.\""),
            "\"Plane — Serra's Realm.\""
        );
        assert_eq!(
            joined(&glued, "\"Instant", "— Arcane.\""),
            "\"Instant — Arcane.\""
        );
        let spaced = ["a rule — and another — here"];
        assert_eq!(
            joined(&spaced, "the rule", "— in short"),
            "the rule — in short"
        );
    }
}
