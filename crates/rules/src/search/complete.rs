//! Fuzzy completion of passage ids and titles (Discord autocomplete, `arbiter complete`).

use std::cell::RefCell;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use serde::Serialize;

use crate::corpus::{Corpus, PassageIdx};

/// Discord allows at most 25 autocomplete choices.
pub const MAX_SUGGESTIONS: usize = 25;

/// What was typed is read up to this many characters: no id, title or
/// card name is longer, and 2,000 characters of short words made every
/// key's fuzzy score cost seconds.
pub const MAX_TYPED_CHARS: usize = 100;

/// `partial` trimmed and cut at [`MAX_TYPED_CHARS`].
fn typed(partial: &str) -> &str {
    let partial = partial.trim();
    let end = partial
        .char_indices()
        .nth(MAX_TYPED_CHARS)
        .map_or(partial.len(), |(i, _)| i);
    partial[..end].trim_end()
}

/// One completion: a passage id and its title.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion {
    pub id: String,
    pub title: String,
}

/// Haystacks ("id title") for every passage, folded to ASCII ("’" → "'",
/// "—" → "--", "é" → "e") so that nucleo scores every one on its ASCII fast
/// path; what is typed is folded the same way. Stored end to end in one
/// string: passage `i`'s key ends at `ends[i]`.
pub struct Completer {
    keys: String,
    ends: Vec<usize>,
}

thread_local! {
    static MATCHER: RefCell<Matcher> = RefCell::new(Matcher::new(Config::DEFAULT.match_paths()));
}

impl Completer {
    pub fn build(corpus: &Corpus) -> Completer {
        let mut keys = String::new();
        let mut ends = Vec::with_capacity(corpus.passages.len());
        for p in &corpus.passages {
            keys.push_str(&fold(&format!("{} {}", p.id, p.title)));
            ends.push(keys.len());
        }
        keys.shrink_to_fit();
        Completer { keys, ends }
    }

    /// Each passage's key, with its index.
    fn entries(&self) -> impl Iterator<Item = (&str, PassageIdx)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .enumerate()
            .map(|(i, (from, &to))| (self.keys.get(from..to).unwrap_or(""), i))
    }

    /// At most `limit` (≤ 25) suggestions for a partial id or title, best first.
    pub fn complete(
        &self,
        corpus: &Corpus,
        partial: &str,
        game: Option<&str>,
        limit: usize,
    ) -> Vec<Suggestion> {
        let limit = limit.clamp(1, MAX_SUGGESTIONS);
        let in_game = |i: PassageIdx| game.is_none_or(|g| corpus.passages[i].game == g);
        let partial = typed(partial);
        let suggestion = |i: PassageIdx| Suggestion {
            id: corpus.passages[i].id.clone(),
            title: corpus.passages[i].title.clone(),
        };
        if partial.is_empty() {
            // Nothing typed yet: the top of each document.
            return corpus
                .passages
                .iter()
                .enumerate()
                .filter(|(i, p)| in_game(*i) && corpus.depth(*i) <= 1 && !p.id.is_empty())
                .take(limit)
                .map(|(i, _)| suggestion(i))
                .collect();
        }
        let pattern = Pattern::parse(&fold(partial), CaseMatching::Ignore, Normalization::Smart);
        let typed_id = partial.to_lowercase();
        let mut chars = Vec::new();
        let mut scored: Vec<(u32, usize, PassageIdx)> = MATCHER.with_borrow_mut(|m| {
            self.entries()
                .filter(|&(_, i)| in_game(i))
                .filter_map(|(key, i)| {
                    let hay = Utf32Str::new(key, &mut chars);
                    pattern.score(hay, m).map(|s| {
                        // An id that starts with what was typed goes first.
                        let prefix = corpus.passages[i].id.starts_with(&typed_id);
                        (
                            s + if prefix { 10_000 } else { 0 },
                            corpus.passages[i].id.len(),
                            i,
                        )
                    })
                })
                .collect()
        });
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, _, i)| suggestion(i))
            .collect()
    }
}

/// ASCII text as it is; other text transliterated to ASCII.
fn fold(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        text.into()
    } else {
        deunicode::deunicode(text).into()
    }
}

/// Fuzzy ranking of a short list (games, a server's documents): the
/// indexes of at most `limit` keys that match `partial`, best first (a key
/// starting with what was typed first, then the shorter). Nothing typed:
/// the first `limit`, in order. A list ranked again and again (card names)
/// keeps its [`Keys`] instead.
pub fn rank<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    partial: &str,
    limit: usize,
) -> Vec<usize> {
    Keys::new(keys).rank(partial, limit, |_| true)
}

/// Keys folded to ASCII once and stored end to end in one string (key `i`
/// ends at `ends[i]`), ranked as [`rank`] ranks them: 34,953 card names are
/// not folded again at each keystroke, and a key lacking a letter or digit
/// that was typed is passed over on its letters mask alone.
#[derive(Debug, Clone, Default)]
pub struct Keys {
    text: String,
    ends: Vec<usize>,
    letters: Vec<u64>,
}

/// The letters and digits a text holds, case ignored, one bit each. Every
/// letter or digit typed is in a key nucleo matches, whatever the order.
fn letters(text: &str) -> u64 {
    text.bytes()
        .fold(0, |mask, b| match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => mask | 1 << (c - b'a'),
            c @ b'0'..=b'9' => mask | 1 << (26 + c - b'0'),
            _ => mask,
        })
}

impl Keys {
    pub fn new<'a>(keys: impl IntoIterator<Item = &'a str>) -> Keys {
        let mut text = String::new();
        let mut ends = Vec::new();
        let mut masks = Vec::new();
        for key in keys {
            let key = fold(key);
            masks.push(letters(&key));
            text.push_str(&key);
            ends.push(text.len());
        }
        text.shrink_to_fit();
        Keys {
            text,
            ends,
            letters: masks,
        }
    }

    fn get(&self, i: usize) -> &str {
        let from = if i == 0 { 0 } else { self.ends[i - 1] };
        self.text.get(from..self.ends[i]).unwrap_or("")
    }

    /// The indexes of at most `limit` keys that `keep` keeps and that
    /// match `partial`, best first; nothing typed: the first `limit` kept.
    pub fn rank(&self, partial: &str, limit: usize, keep: impl Fn(usize) -> bool) -> Vec<usize> {
        let kept = (0..self.ends.len()).filter(|&i| keep(i));
        let partial = typed(partial);
        if partial.is_empty() {
            return kept.take(limit).collect();
        }
        let typed = fold(partial).to_lowercase();
        let pattern = Pattern::parse(&typed, CaseMatching::Ignore, Normalization::Smart);
        let needed = needed_letters(&typed);
        let prefixed = |i: usize| {
            let key = self.get(i);
            key.get(..typed.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(&typed))
        };
        let mut pool: Vec<usize> = kept
            .filter(|&i| self.letters[i] & needed == needed)
            .collect();
        // A key starting with what was typed outranks every other (its
        // bonus is above any score a pattern this short reaches), so when
        // `limit` of them exist, the others need no score.
        if typed.len() <= PREFIX_ONLY_UP_TO
            && pool.iter().filter(|&&i| prefixed(i)).nth(limit).is_some()
        {
            pool.retain(|&i| prefixed(i));
        }
        let mut chars = Vec::new();
        let mut scored: Vec<(u32, usize, usize)> = MATCHER.with_borrow_mut(|m| {
            pool.into_iter()
                .filter_map(|i| {
                    let key = self.get(i);
                    let bonus = if prefixed(i) { PREFIX_BONUS } else { 0 };
                    pattern
                        .score(Utf32Str::new(key, &mut chars), m)
                        .map(|s| (s + bonus, key.len(), i))
                })
                .collect()
        });
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        scored.into_iter().take(limit).map(|(_, _, i)| i).collect()
    }
}

/// Added to the score of a key that starts with what was typed.
const PREFIX_BONUS: u32 = 10_000;

/// Typed text up to this many bytes scores below [`PREFIX_BONUS`] on any
/// key (nucleo gives a matched character a few dozen points at most).
const PREFIX_ONLY_UP_TO: usize = 48;

/// The letters and digits every key that `typed` matches holds: those of
/// its atoms, less negated ones (`!word`).
fn needed_letters(typed: &str) -> u64 {
    typed
        .split_whitespace()
        .filter(|atom| !atom.starts_with('!'))
        .fold(0, |mask, atom| mask | letters(atom))
}
