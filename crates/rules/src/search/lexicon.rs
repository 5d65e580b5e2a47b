//! The index's words, each string kept once: the word forms learnt from the
//! text with their stems, and the indexed terms (stems) with dense ids. One
//! interner holds them all (most stems are also word forms), so a word is
//! one copy in one buffer, not two `String`s in two maps.

use string_interner::backend::StringBackend;
use string_interner::symbol::SymbolU32;
use string_interner::{StringInterner, Symbol};

/// Not set (no stem learnt, not a term).
const NONE: u32 = u32::MAX;

#[derive(Default)]
pub struct Lexicon {
    strings: StringInterner<StringBackend<SymbolU32>>,
    /// Per string: its stem's string, when it is a learnt word form.
    stem_of: Vec<u32>,
    /// Per string: its term id, when it is an indexed term.
    term_of: Vec<u32>,
    /// Per term id: its string.
    terms: Vec<u32>,
}

impl Lexicon {
    /// The stem learnt for a word form.
    pub fn stem(&self, word: &str) -> Option<&str> {
        let at = self.find(word)?;
        self.string(*self.stem_of.get(at)?)
    }

    /// Remembers a word form's stem.
    pub fn learn(&mut self, word: &str, stem: &str) {
        let stem = self.slot(stem) as u32;
        let word = self.slot(word);
        self.stem_of[word] = stem;
    }

    /// The id of an indexed term.
    pub fn term(&self, token: &str) -> Option<u32> {
        let id = *self.term_of.get(self.find(token)?)?;
        (id != NONE).then_some(id)
    }

    /// The id of a term, given the next id when it is new.
    pub fn intern_term(&mut self, token: &str) -> u32 {
        let at = self.slot(token);
        if self.term_of[at] == NONE {
            self.term_of[at] = self.terms.len() as u32;
            self.terms.push(at as u32);
        }
        self.term_of[at]
    }

    /// A term's text ("" for an id not given out).
    pub fn word(&self, term: u32) -> &str {
        self.terms
            .get(term as usize)
            .and_then(|&at| self.string(at))
            .unwrap_or("")
    }

    /// The word form of the text whose stem is a term nearest to `typed`
    /// (fewest edits, then the shortest, then the first alphabetically:
    /// "exhausted" for `exhaust` typed "exhuasted"), to show a reader what
    /// a typo was read as; `None` when no form was learnt. A scan: for the
    /// rare reply that names a repaired word, never for ranking.
    pub fn form_of(&self, term: u32, typed: &str) -> Option<&str> {
        let stem = *self.terms.get(term as usize)?;
        let edits = |s: &str| {
            crate::text::edit_distance(typed, s, typed.len() + s.len()).unwrap_or(usize::MAX)
        };
        self.strings
            .iter()
            .filter(|(sym, _)| self.stem_of.get(sym.to_usize()) == Some(&stem))
            .map(|(_, s)| s)
            .min_by_key(|s| (edits(s), s.len(), *s))
    }

    /// Every term, by id.
    pub fn terms(&self) -> impl Iterator<Item = (u32, &str)> {
        (0..self.terms.len() as u32).map(|id| (id, self.word(id)))
    }

    pub fn term_count(&self) -> usize {
        self.terms.len()
    }

    /// Gives back spare capacity once the index is built.
    pub fn shrink_to_fit(&mut self) {
        self.strings.shrink_to_fit();
        self.stem_of.shrink_to_fit();
        self.term_of.shrink_to_fit();
        self.terms.shrink_to_fit();
    }

    fn find(&self, s: &str) -> Option<usize> {
        self.strings.get(s).map(|sym| sym.to_usize())
    }

    fn string(&self, at: u32) -> Option<&str> {
        if at == NONE {
            return None;
        }
        self.strings
            .resolve(SymbolU32::try_from_usize(at as usize)?)
    }

    /// The string's position, interning it (and growing the tables) when new.
    fn slot(&mut self, s: &str) -> usize {
        let at = self.strings.get_or_intern(s).to_usize();
        if at >= self.stem_of.len() {
            self.stem_of.resize(at + 1, NONE);
            self.term_of.resize(at + 1, NONE);
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_and_terms_share_one_copy_of_each_string() {
        let mut l = Lexicon::default();
        l.learn("rules", "rule");
        l.learn("rule", "rule");
        assert_eq!(l.stem("rules"), Some("rule"));
        assert_eq!(l.stem("ruling"), None);
        assert_eq!(l.term("rule"), None, "a stem is not a term until interned");
        assert_eq!(l.intern_term("rule"), 0);
        assert_eq!(l.intern_term("block"), 1);
        assert_eq!(l.intern_term("rule"), 0);
        assert_eq!(l.term("block"), Some(1));
        assert_eq!(l.word(1), "block");
        assert_eq!(l.word(7), "");
        l.learn("ruled", "rule");
        assert_eq!(l.form_of(0, "rulesz"), Some("rules"), "the nearest form");
        assert_eq!(l.form_of(0, "rled"), Some("ruled"));
        l.learn("blocks", "block");
        l.learn("blocked", "block");
        assert_eq!(l.form_of(1, "xx"), Some("blocks"), "then the shortest");
        assert_eq!(l.form_of(9, "rule"), None);
        assert_eq!(
            l.terms().collect::<Vec<_>>(),
            vec![(0, "rule"), (1, "block")]
        );
        // "rules", "rule", "block", "ruled", "blocks", "blocked": each
        // string once, whatever its roles.
        assert_eq!(l.strings.len(), 6);
    }
}
