//! Cross-references: found in text or links, resolved to passage ids where
//! the target is indexed, kept as unresolved labels otherwise.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::{Corpus, CrossRef, PassageIdx, PassageKind};

/// A reference before resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RawRef {
    /// A rule or section number: "(18.4)", "See 15.0 – Movement", "see rule 201.3".
    Number { label: String, number: String },
    /// A step inside the same section, written with a letter: "step 2.a.".
    Step {
        label: String,
        major: String,
        letter: char,
    },
    /// A page of a printed book: "see page 10".
    Page { label: String },
    /// A topic named by title ("Related Topics: Aim, Attack").
    Name(String),
    /// A markdown link.
    Link { label: String, url: String },
}

static SEE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bsee(?<gap>\s+)(?<word>rules?\s+|section\s+)?(?<number>[0-9]+(?:\.[0-9]+)*[a-z]?)(?:\s*[-–—,]\s*([A-Z][\w ]*\w))?",
    )
    .unwrap()
});
static RULE_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\brules?\s+([0-9]{3}(?:\.[0-9]+[a-z]?)?)\b").unwrap());
static PAREN_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(([0-9]+\.[0-9]+[a-z]?)\)").unwrap());
static PAGE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\bpage\s+([0-9]+)\b").unwrap());
static STEP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bsteps?\s+([0-9]+)\.([a-z])\b").unwrap());

/// Every reference written in a passage's text.
pub(super) fn extract(text: &str) -> Vec<RawRef> {
    let mut out = Vec::new();
    for c in SEE_NUMBER.captures_iter(text) {
        if starts_a_list(text, &c) {
            continue;
        }
        let label = c
            .get(0)
            .map_or("", |m| m.as_str())
            .trim_end_matches(['.', ')']);
        out.push(RawRef::Number {
            label: one_spaced(label),
            number: c["number"].to_string(),
        });
    }
    for c in RULE_NUMBER.captures_iter(text) {
        let number = c[1].to_string();
        if !out
            .iter()
            .any(|r| matches!(r, RawRef::Number { number: n, .. } if *n == number))
        {
            out.push(RawRef::Number {
                label: one_spaced(&c[0]),
                number,
            });
        }
    }
    for c in PAREN_NUMBER.captures_iter(text) {
        let number = c[1].to_string();
        if !out
            .iter()
            .any(|r| matches!(r, RawRef::Number { number: n, .. } if *n == number))
        {
            out.push(RawRef::Number {
                label: c[1].to_string(),
                number,
            });
        }
    }
    for c in PAGE.captures_iter(text) {
        out.push(RawRef::Page {
            label: one_spaced(&c[0]),
        });
    }
    for c in STEP.captures_iter(text) {
        let letter = c[2].chars().next().unwrap_or('a');
        out.push(RawRef::Step {
            label: one_spaced(&c[0]),
            major: c[1].to_string(),
            letter,
        });
    }
    out
}

/// A reference's words with one space between them: hard-wrapped text
/// breaks "see rule" / "5.2" across lines, and the label reads as one.
fn one_spaced(label: &str) -> String {
    arbiter_text::single_spaced(label)
}

/// Whether a bare "see" is followed, on the next line, by a list's step
/// ("…you will see" / "1. A card…"): a number alone at a line's start
/// before its full stop is the step's, not a reference's.
fn starts_a_list(text: &str, c: &regex::Captures) -> bool {
    let (Some(gap), Some(number)) = (c.name("gap"), c.name("number")) else {
        return false;
    };
    c.name("word").is_none()
        && gap.as_str().contains('\n')
        && !number.as_str().contains('.')
        && text[number.end()..]
            .strip_prefix('.')
            .is_some_and(|rest| rest.starts_with(char::is_whitespace))
}

/// Resolves a reference made by passage `from`.
pub(super) fn resolve(
    corpus: &Corpus,
    titles: &Titles,
    from: PassageIdx,
    raw: &RawRef,
) -> CrossRef {
    let p = &corpus.passages[from];
    let game = &p.game;
    match raw {
        RawRef::Number { label, number } => {
            // The document's own numbers first: a house rule's "see 1.2"
            // is its own 1.2 (`ashes:kitchen.1.2`), filed under a known
            // game whose ids its slug prefixes.
            let own = format!("{}.{number}", corpus.passages[root_of(corpus, from)].id);
            let direct = format!("{game}:{number}");
            let target = [own, direct]
                .iter()
                .find_map(|id| corpus.get(id))
                .map(|t| t.id.clone())
                .or_else(|| {
                    // Relative to the passage's top section: "2.1" inside a heading document.
                    let top = top_section(corpus, from)?;
                    let id = format!("{}.{number}", corpus.passages[top].id);
                    corpus.get(&id).map(|t| t.id.clone())
                });
            CrossRef {
                label: label.clone(),
                target,
            }
        }
        RawRef::Step {
            label,
            major,
            letter,
        } => {
            let minor = (*letter as u32).saturating_sub('a' as u32) + 1;
            let target = top_section(corpus, from).and_then(|top| {
                let id = format!("{}.{major}.{minor}", corpus.passages[top].id);
                corpus.get(&id).map(|t| t.id.clone())
            });
            CrossRef {
                label: label.clone(),
                target,
            }
        }
        RawRef::Page { label } => CrossRef {
            label: label.clone(),
            target: None,
        },
        RawRef::Name(label) => CrossRef {
            label: label.clone(),
            target: by_title(corpus, titles, game, label),
        },
        RawRef::Link { label, url } => {
            let from_url = url
                .rsplit('/')
                .next()
                .map(|s| s.trim_start_matches("r_").replace('_', " "))
                .and_then(|name| by_title(corpus, titles, game, &name));
            CrossRef {
                label: label.clone(),
                target: from_url.or_else(|| by_title(corpus, titles, game, label)),
            }
        }
    }
}

/// The document root a passage belongs to.
fn root_of(corpus: &Corpus, mut idx: PassageIdx) -> PassageIdx {
    while let Some(parent) = corpus.passages[idx].parent {
        idx = parent;
    }
    idx
}

/// The ancestor just below the document root.
fn top_section(corpus: &Corpus, mut idx: PassageIdx) -> Option<PassageIdx> {
    loop {
        let parent = corpus.passages[idx].parent?;
        if corpus.passages[parent].parent.is_none() {
            return Some(idx);
        }
        idx = parent;
    }
}

/// The sections and documents of a corpus by game and folded title, the
/// first of each in corpus order: a link or a named reference is resolved
/// by one lookup (a scan of every passage for each made a page of links
/// convert in quadratic time).
pub(super) struct Titles(HashMap<(String, String), PassageIdx>);

impl Titles {
    pub(super) fn new(corpus: &Corpus) -> Titles {
        let mut map = HashMap::new();
        for (i, p) in corpus.passages.iter().enumerate() {
            if matches!(p.kind, PassageKind::Section | PassageKind::Document) {
                let key = (p.game.clone(), crate::text::fold(&p.title));
                map.entry(key).or_insert(i);
            }
        }
        Titles(map)
    }
}

/// A section or document of the game whose title is this name.
fn by_title(corpus: &Corpus, titles: &Titles, game: &str, name: &str) -> Option<String> {
    let key = (game.to_string(), crate::text::fold(name));
    titles.0.get(&key).map(|&i| corpus.passages[i].id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<(String, String)> {
        extract(text)
            .into_iter()
            .filter_map(|r| match r {
                RawRef::Number { label, number } => Some((label, number)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_reference_broken_across_lines_reads_as_one() {
        let pair = |l: &str, n: &str| vec![(l.to_string(), n.to_string())];
        assert_eq!(numbers("see rule\n5.2 first"), pair("see rule 5.2", "5.2"));
        assert_eq!(numbers("(see\nrule 5.2)"), pair("see rule 5.2", "5.2"));
        assert_eq!(numbers("see\r\n  5.1b"), pair("see 5.1b", "5.1b"));
        assert_eq!(numbers("as in rule\n704.3"), pair("rule 704.3", "704.3"));
        assert_eq!(
            numbers("See rule\n704. They're"),
            pair("See rule 704", "704")
        );
        let page = extract("see page\n10");
        assert!(page.contains(&RawRef::Page {
            label: "page 10".into()
        }));
    }

    #[test]
    fn a_lists_step_after_see_is_no_reference() {
        assert!(numbers("every player can see\n1. The card's name.").is_empty());
        assert_eq!(numbers("see 1. Setup").len(), 1);
    }
}
