//! Fuzzy completion of passage ids and titles (Discord autocomplete, `arbiter complete`).

use std::cell::RefCell;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str, Utf32String};
use serde::Serialize;

use crate::corpus::{Corpus, PassageIdx};

/// Discord allows at most 25 autocomplete choices.
pub const MAX_SUGGESTIONS: usize = 25;

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
        let partial = partial.trim();
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

/// Fuzzy ranking of a short list (games, a server's documents, card
/// names): the indexes of at most `limit` keys that match `partial`, best
/// first (a key starting with what was typed first, then the shorter).
/// Nothing typed: the first `limit`, in order.
pub fn rank<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    partial: &str,
    limit: usize,
) -> Vec<usize> {
    let keys: Vec<&str> = keys.into_iter().collect();
    let partial = partial.trim();
    if partial.is_empty() {
        return (0..keys.len().min(limit)).collect();
    }
    let typed = fold(partial).to_lowercase();
    let pattern = Pattern::parse(&typed, CaseMatching::Ignore, Normalization::Smart);
    let mut scored: Vec<(u32, usize, usize)> = MATCHER.with_borrow_mut(|m| {
        keys.iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let folded = fold(k);
                let hay = Utf32String::from(folded.as_ref());
                let prefix = folded.to_lowercase().starts_with(&typed);
                pattern
                    .score(hay.slice(..), m)
                    .map(|s| (s + if prefix { 10_000 } else { 0 }, k.len(), i))
            })
            .collect()
    });
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    scored.into_iter().take(limit).map(|(_, _, i)| i).collect()
}
