//! Multi-part questions ("two quick ones. 1) … 2) …", "… and separately …"):
//! split so that each part gets its own best passages.

use std::sync::OnceLock;

use regex::Regex;

/// A part needs this many words to stand alone.
const MIN_PART_WORDS: usize = 2;

/// A question is split into this many parts at most: each part is a
/// search of its own, so a question cut into 99 would cost 99 searches.
/// Past it, the question is asked whole.
pub const MAX_PARTS: usize = 12;

/// The parts of a question, in order: numbered parts ("1) …", "2. …",
/// "(1) …"), parts joined by "and separately" / "; also", or, after a
/// preamble that announces several ("two questions:", "couple things:"),
/// parts split at "?", ";" and ", and", or questions joined by "? and"
/// and a question's opening word ("… do? and does …"). One part (the whole
/// question) when it is not split.
pub fn split(question: &str) -> Vec<String> {
    let parts = numbered(question)
        .or_else(|| joined(question))
        .or_else(|| announced(question))
        .or_else(|| asked_again(question));
    match parts {
        Some(p)
            if (2..=MAX_PARTS).contains(&p.len())
                && p.iter().all(|s| word_count(s) >= MIN_PART_WORDS) =>
        {
            p
        }
        _ => vec![question.trim().to_string()],
    }
}

/// [`split`], once the question is cut at each sentence that opens with a
/// game's name (`opens_with_game`): "ti4: can I pass before strat card.
/// ashes: can an exhausted pb guard?", also with " / " between them. Two
/// such sentences or more make a part each, with the sentences after it up
/// to the next (the text before the first is a preamble, not a part,
/// unless it asks something: it holds a "?"), and
/// each such part is split further as [`split`] splits a question.
pub fn split_with(question: &str, opens_with_game: impl Fn(&str) -> bool) -> Vec<String> {
    let Some(chunks) = by_game(question, opens_with_game) else {
        return split(question);
    };
    let parts: Vec<String> = chunks.iter().flat_map(|c| split(c)).collect();
    if (2..=MAX_PARTS).contains(&parts.len())
        && parts.iter().all(|s| word_count(s) >= MIN_PART_WORDS)
    {
        parts
    } else {
        vec![question.trim().to_string()]
    }
}

/// The question cut before each sentence that opens with a game's name,
/// when two sentences or more do; the text before the first is left out.
fn by_game(question: &str, opens_with_game: impl Fn(&str) -> bool) -> Option<Vec<String>> {
    static BREAK: OnceLock<Regex> = OnceLock::new();
    let breaks: Vec<(usize, usize)> = regex(&BREAK, r"[.?!]\s+|\s+/\s+")
        .find_iter(question)
        .map(|m| (m.start(), m.end()))
        .collect();
    // Each sentence: where it starts and where the next break is.
    let sentences = std::iter::once(0)
        .chain(breaks.iter().map(|b| b.1))
        .zip(breaks.iter().map(|b| b.0).chain([question.len()]));
    let starts: Vec<usize> = sentences
        .filter(|&(start, end)| opens_with_game(&question[start..end.max(start)]))
        .map(|(start, _)| start)
        .collect();
    if starts.len() < 2 {
        return None;
    }
    let ends = starts.iter().skip(1).copied().chain([question.len()]);
    // The text before the first is a part too when it asks something ("how
    // does trample work? ti4: … ashes: …" dropped trample; found by a
    // review); a greeting or a lead-in is not.
    let before = clean(&question[..starts[0]]);
    let asks = before.contains('?') && word_count(&before) >= MIN_PART_WORDS;
    Some(
        asks.then_some(before)
            .into_iter()
            .chain(
                starts
                    .iter()
                    .zip(ends)
                    .map(|(&start, end)| clean(&question[start..end])),
            )
            .collect(),
    )
}

/// A part's stretches between "and", "or", "vs" and commas or semicolons
/// ("whats 3.2 in ti4" / "4.1 in ashes"): what a game named in one of them
/// is said of.
pub fn stretches(part: &str) -> Vec<&str> {
    static CUT: OnceLock<Regex> = OnceLock::new();
    regex(&CUT, r"(?i)\s+(?:and|or|vs\.?|versus)\s+|\s*[,;]\s*")
        .split(part)
        .filter(|s| !s.trim().is_empty())
        .collect()
}

fn word_count(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

fn regex(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("a valid pattern"))
}

/// "1) … 2) …": markers numbered from 1 upwards, each after a space or the
/// start; the text before the first marker is a preamble, not a part.
fn numbered(question: &str) -> Option<Vec<String>> {
    static MARK: OnceLock<Regex> = OnceLock::new();
    let mark = regex(&MARK, r"(?:^|\s)\(?([1-9][0-9]?)[).:]\s");
    let mut starts = Vec::new();
    let mut next = 1;
    for c in mark.captures_iter(question) {
        let (Some(all), Some(n)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if n.as_str().parse::<u32>().ok() == Some(next) {
            starts.push((all.start(), all.end()));
            next += 1;
        }
    }
    if starts.len() < 2 {
        return None;
    }
    let ends = starts.iter().skip(1).map(|s| s.0).chain([question.len()]);
    Some(
        starts
            .iter()
            .zip(ends)
            .map(|(&(_, body), end)| clean(&question[body..end]))
            .collect(),
    )
}

/// "… and separately …", "…; also …".
fn joined(question: &str) -> Option<Vec<String>> {
    static JOIN: OnceLock<Regex> = OnceLock::new();
    let join = regex(
        &JOIN,
        r"(?i)(?:,?\s+and\s+separately\b,?|;\s*also\b,?|\.\s+also\b,?|\?\s+also\b,?|\bseparately,)",
    );
    let pieces: Vec<String> = join.split(question).map(clean).collect();
    (pieces.len() >= 2).then_some(pieces)
}

/// "two questions: A, and B" / "couple things: A? B".
fn announced(question: &str) -> Option<Vec<String>> {
    static PREAMBLE: OnceLock<Regex> = OnceLock::new();
    static SPLIT: OnceLock<Regex> = OnceLock::new();
    let preamble = regex(
        &PREAMBLE,
        r"(?i)^\s*(?:(?:a\s+)?(?:two|2|couple(?:\s+of)?|few)\s+(?:quick\s+)?(?:questions|qs|ones|things))\b[^:.?]*[:.]",
    );
    let rest = &question[preamble.find(question)?.end()..];
    let split = regex(
        &SPLIT,
        r"(?i)\?\s+|;\s*|,\s*and\s+|\s+and\s+(?:what|how|when|can|does|do|is|are)\b",
    );
    let pieces: Vec<String> = split.split(rest).map(clean).collect();
    (pieces.len() >= 2).then_some(pieces)
}

/// "what does first strike do? and does trample …": a question mark, then
/// "and" and a word that opens a question (an interrogative or an
/// auxiliary verb). "and" alone joins one question's halves ("can I swing
/// with tapped units and then pass"), and so does "? and if so" or
/// "? and then": no question opens after them.
fn asked_again(question: &str) -> Option<Vec<String>> {
    static AGAIN: OnceLock<Regex> = OnceLock::new();
    let again = regex(
        &AGAIN,
        r"(?i)\?\s+and\s+(?:also\s+)?((?:what|how|when|where|why|who|which|can|could|does|do|did|is|are|am|was|will|would|should|may|must)\b)",
    );
    let mut pieces = Vec::new();
    let mut start = 0;
    for c in again.captures_iter(question) {
        let (Some(all), Some(opener)) = (c.get(0), c.get(1)) else {
            continue;
        };
        pieces.push(clean(&question[start..=all.start()]));
        start = opener.start();
    }
    pieces.push(clean(&question[start..]));
    (pieces.len() >= 2).then_some(pieces)
}

fn clean(s: &str) -> String {
    s.trim()
        .trim_end_matches([',', ';', '/'])
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::{split, split_with};

    #[test]
    fn sentences_opening_with_a_game_are_parts() {
        let games = |s: &str| {
            let first = s.split_whitespace().next().unwrap_or("");
            ["ti4", "ashes"].contains(&first.trim_end_matches(':').to_lowercase().as_str())
        };
        for q in [
            "ti4: can I pass before strat card. ashes: can an exhausted pb guard?",
            "ti4: can I pass before strat card / ashes: can an exhausted pb guard?",
            "hi all. ti4: can I pass before strat card? Ashes: can an exhausted pb guard?",
        ] {
            let parts = split_with(q, games);
            assert_eq!(parts.len(), 2, "{q}: {parts:?}");
            assert!(
                parts[0].to_lowercase().starts_with("ti4: can i pass"),
                "{parts:?}"
            );
            assert!(!parts[0].ends_with('/'), "{parts:?}");
            assert_eq!(parts[1].to_lowercase(), "ashes: can an exhausted pb guard?");
        }
        // One game-led sentence alone cuts nothing; the other splits stay.
        let q = "ti4: can I pass before strat card. when does it end";
        assert_eq!(split_with(q, games), vec![q.to_string()]);
        let q = "ti4 q: can i pass? also when does the action phase end?";
        assert_eq!(split_with(q, games), split(q));
        // A game-led part is split further as any question is.
        let parts = split_with(
            "ti4: can I pass? also when does the phase end? ashes: can a pb guard?",
            games,
        );
        assert_eq!(parts.len(), 3, "{parts:?}");
        // A question before the first game-led sentence is a part of its own.
        let parts = split_with(
            "how does trample work? ti4: can I pass before strat card. ashes: can an exhausted pb guard?",
            games,
        );
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert_eq!(parts[0], "how does trample work?");
    }

    #[test]
    fn numbered_parts_are_split_without_the_preamble() {
        assert_eq!(
            split("two quick ones. 1) does vigilance untap 2) does lifelink work on blocks"),
            vec!["does vigilance untap", "does lifelink work on blocks"]
        );
        assert_eq!(
            split("(1) can i pass? (2) when does the round end?"),
            vec!["can i pass?", "when does the round end?"]
        );
    }

    #[test]
    fn ten_parts_and_more_are_split_up_to_the_cap() {
        let ten: String = (1..=10)
            .map(|i| format!("{i}) what is rule {i} "))
            .collect();
        let parts = split(&ten);
        assert_eq!(parts.len(), 10, "{parts:?}");
        assert_eq!(parts[9], "what is rule 10");
        let many: String = (1..=super::MAX_PARTS + 1)
            .map(|i| format!("{i}) what is rule {i} "))
            .collect();
        assert_eq!(split(&many).len(), 1, "past the cap, asked whole");
    }

    #[test]
    fn joined_and_announced_parts_are_split() {
        assert_eq!(
            split("how does cascade work and separately does it count as casting"),
            vec!["how does cascade work", "does it count as casting"]
        );
        assert_eq!(
            split("two questions: can i mulligan to zero, and do i draw first on the play"),
            vec!["can i mulligan to zero", "do i draw first on the play"]
        );
    }

    #[test]
    fn questions_joined_by_a_question_mark_and_and_are_split() {
        assert_eq!(
            split("what does first strike do? and does trample work with deathtouch?"),
            vec![
                "what does first strike do?",
                "does trample work with deathtouch?"
            ]
        );
        assert_eq!(
            split("is it a spell? AND also how many can i cast"),
            vec!["is it a spell?", "how many can i cast"]
        );
    }

    #[test]
    fn one_question_stays_whole() {
        for q in [
            "see rule 13.1. then what",
            "step 1. roll the dice",
            "does deathtouch + trample only need to assign 1 dmg?",
            "can I swing with tapped units and then pass",
            "1) ok 2) yes",
            "does it die? and if so who gets the trigger",
            "can I attack and what happens to blockers?",
            "does it untap? and then what",
        ] {
            assert_eq!(split(q), vec![q.trim().to_string()], "{q}");
        }
    }
}
