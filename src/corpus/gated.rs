//! Regexes behind a cheap test that every match needs (a character, a
//! word, how a line starts). Text without it is never searched, and a regex
//! no text needs is never compiled: the CLI's start-up spent ~20 % of its
//! time compiling and running the corpus regexes (issue 17).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex, Replacer};

pub(super) struct Gated {
    /// False only where the regex cannot match.
    needs: fn(&str) -> bool,
    re: LazyLock<Regex>,
}

impl Gated {
    pub(super) const fn new(needs: fn(&str) -> bool, re: fn() -> Regex) -> Gated {
        Gated {
            needs,
            re: LazyLock::new(re),
        }
    }

    pub(super) fn is_match(&self, text: &str) -> bool {
        (self.needs)(text) && self.re.is_match(text)
    }

    pub(super) fn captures<'h>(&self, text: &'h str) -> Option<Captures<'h>> {
        if (self.needs)(text) {
            self.re.captures(text)
        } else {
            None
        }
    }

    pub(super) fn captures_iter<'h>(&self, text: &'h str) -> impl Iterator<Item = Captures<'h>> {
        (self.needs)(text)
            .then(|| self.re.captures_iter(text))
            .into_iter()
            .flatten()
    }

    pub(super) fn replace_all<'h>(&self, text: &'h str, rep: impl Replacer) -> Cow<'h, str> {
        if (self.needs)(text) {
            self.re.replace_all(text, rep)
        } else {
            Cow::Borrowed(text)
        }
    }
}

/// After leading white space (`\s*`), an ASCII digit.
pub(super) fn starts_with_digit(line: &str) -> bool {
    line.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

/// `needle` (ASCII) in `text`, ASCII letters in either case.
pub(super) fn contains_ignore_ascii_case(text: &str, needle: &str) -> bool {
    text.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    static WORD: Gated = Gated::new(
        |s| contains_ignore_ascii_case(s, "page "),
        || Regex::new(r"(?i)\bpage ([0-9]+)\b").unwrap(),
    );

    #[test]
    fn a_gate_only_skips_text_the_regex_cannot_match() {
        assert_eq!(&WORD.captures("see PAGE 12.").unwrap()[1], "12");
        assert!(WORD.captures("see pages 12").is_none());
        assert_eq!(WORD.captures_iter("page 1, Page 2").count(), 2);
        assert_eq!(WORD.replace_all("no pager here", "x"), "no pager here");
        assert!(starts_with_digit(" \u{a0}12. Rule") && !starts_with_digit("a 12"));
    }
}
