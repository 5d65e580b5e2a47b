//! Rules search: BM25 ranking (the `bm25` crate) over an analyzed corpus,
//! with heading boosts, glossary synonym expansion, typo repair, game
//! detection, a confidence cut-off and answer-sentence highlighting.
//!
//! I/O-free. Build once per corpus with [`Index::build`]; queries take `&self`.

mod analyze;
mod complete;

use std::collections::HashMap;

use bm25::{Embedder, EmbedderBuilder, Scorer};
use serde::Serialize;

use crate::corpus::{Corpus, PassageIdx, PassageKind};
pub use analyze::Analyzer;
pub use complete::{Completer, Suggestion};

/// Share of the question's weight that a passage must cover to be cited.
/// Set from the evaluation set (tests/eval_questions.yaml); see docs/SEARCH.md.
pub const MIN_COVERAGE: f32 = 0.40;
/// Words of the question that no indexed rule uses, tolerated at most…
pub const MAX_UNKNOWN_WORDS: usize = 1;
/// …and only when the question has at least this many known words.
pub const MIN_KNOWN_WITH_UNKNOWN: usize = 4;

/// Options for one search.
#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    /// Restrict to this game id; when `None`, a game named in the question is used.
    pub game: Option<String>,
    pub limit: usize,
}

/// One ranked passage.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub passage: PassageIdx,
    pub score: f32,
    /// Share of the question's weight found in the passage (0..=1).
    pub coverage: f32,
    /// The sentence of the passage that best answers the question, verbatim.
    pub highlight: String,
}

/// How sure a search is that its first passage answers the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// The first passage answers the question.
    Answer,
    /// The closest rules; they may not answer the question.
    Closest,
    /// Nothing indexed is relevant; no passages.
    None,
}

/// The outcome of a search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchOutcome {
    pub confidence: Confidence,
    /// The game searched: given, or detected in the question.
    pub game: Option<String>,
    /// Typos repaired: (as typed, as understood).
    pub corrections: Vec<(String, String)>,
    /// Confident hits, best first. Empty when no indexed rule covers the question.
    pub hits: Vec<Hit>,
}

/// One thing the question asks about: a word, or a glossary phrase. Any one
/// option satisfies it; an option is a set of tokens that must all appear
/// ("tapped units" → `exhausted units`). A group with no options is a word
/// no rule uses.
#[derive(Debug)]
struct Group {
    options: Vec<Vec<u32>>,
    weight: f32,
}

impl Group {
    /// Share of the group found among `has` (the best option's share).
    fn matched(&self, has: impl Fn(u32) -> bool) -> f32 {
        self.options
            .iter()
            .map(|o| o.iter().filter(|&&t| has(t)).count() as f32 / o.len().max(1) as f32)
            .fold(0.0, f32::max)
    }

    fn tokens(&self) -> impl Iterator<Item = u32> + '_ {
        self.options.iter().flatten().copied()
    }
}

/// A glossary entry: the phrase's words and its expansions (each a phrase).
type Synonym = (Vec<String>, Vec<String>);

/// A search index over a [`Corpus`].
pub struct Index {
    analyzer: Analyzer,
    embedder: Embedder<u32, analyze::PreTokenized>,
    scorer: Scorer<u32>,
    /// Interned vocabulary: stemmed token → id; `df[id]` = passages containing it.
    vocab: HashMap<String, u32>,
    words: Vec<String>,
    df: Vec<u32>,
    /// Each passage's distinct token ids, sorted (for coverage and highlights).
    passage_tokens: Vec<Box<[u32]>>,
    /// Game aliases, folded to lower-case words, longest first: (words, game id).
    aliases: Vec<(Vec<String>, String)>,
    /// Per game: (phrase words, expansion words), longest phrase first.
    synonyms: HashMap<String, Vec<Synonym>>,
    /// All games' glossaries merged (same phrase → all expansions), for
    /// questions that name no game.
    synonyms_all: Vec<Synonym>,
    /// Parent of each passage (a sub-item is read in its parent's context).
    parents: Vec<Option<PassageIdx>>,
    completer: Completer,
}

impl Index {
    pub fn build(corpus: &Corpus) -> Index {
        let analyzer = Analyzer::new();
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let mut words = Vec::new();
        let mut df: Vec<u32> = Vec::new();
        let mut docs: Vec<Vec<String>> = Vec::with_capacity(corpus.passages.len());
        let mut passage_tokens = Vec::with_capacity(corpus.passages.len());
        for p in &corpus.passages {
            let mut tokens = analyzer.tokens(&indexed_text(p));
            // "See 15.0" is a pointer, not about seeing.
            tokens.retain(|t| t != "see");
            let mut ids: Vec<u32> = tokens
                .iter()
                .map(|t| {
                    *vocab.entry(t.clone()).or_insert_with(|| {
                        words.push(t.clone());
                        df.push(0);
                        (words.len() - 1) as u32
                    })
                })
                .collect();
            ids.sort_unstable();
            ids.dedup();
            for &id in &ids {
                df[id as usize] += 1;
            }
            passage_tokens.push(ids.into_boxed_slice());
            docs.push(tokens);
        }
        let total: usize = docs.iter().map(Vec::len).sum();
        let avgdl = if docs.is_empty() {
            1.0
        } else {
            (total as f32 / docs.len() as f32).max(1.0)
        };
        let embedder = EmbedderBuilder::<u32, analyze::PreTokenized>::with_avgdl(avgdl).build();
        let mut scorer = Scorer::new();
        for (i, tokens) in docs.iter().enumerate() {
            if !tokens.is_empty() {
                scorer.upsert(&(i as u32), embedder.embed(&tokens.join(" ")));
            }
        }
        let mut aliases = Vec::new();
        let mut synonyms = HashMap::new();
        for g in &corpus.games {
            for name in std::iter::once(&g.id)
                .chain([&g.name])
                .chain(g.aliases.iter())
            {
                let w = analyze::words(name);
                if !w.is_empty() && !aliases.iter().any(|(a, _)| *a == w) {
                    aliases.push((w, g.id.clone()));
                }
            }
            let list = g
                .glossary
                .synonyms
                .iter()
                .map(|(k, v)| {
                    (
                        analyze::words(k),
                        v.iter().map(|e| analyze::words(e).join(" ")).collect(),
                    )
                })
                .filter(|(k, _): &Synonym| !k.is_empty())
                .collect();
            synonyms.insert(g.id.clone(), list);
        }
        aliases.sort_by_key(|(w, _)| std::cmp::Reverse(w.iter().map(String::len).sum::<usize>()));
        let mut merged: std::collections::BTreeMap<Vec<String>, Vec<String>> = Default::default();
        for g in &corpus.games {
            let list: &Vec<Synonym> = &synonyms[&g.id];
            for (k, v) in list {
                let e = merged.entry(k.clone()).or_default();
                for x in v {
                    if !e.contains(x) {
                        e.push(x.clone());
                    }
                }
            }
        }
        let mut synonyms_all: Vec<Synonym> = merged.into_iter().collect();
        synonyms_all.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        for list in synonyms.values_mut() {
            list.sort_by(|a: &Synonym, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        }
        let parents = corpus.passages.iter().map(|p| p.parent).collect();
        Index {
            analyzer,
            embedder,
            scorer,
            vocab,
            words,
            df,
            passage_tokens,
            aliases,
            synonyms,
            synonyms_all,
            parents,
            completer: Completer::build(corpus),
        }
    }

    pub fn completer(&self) -> &Completer {
        &self.completer
    }

    fn idf(&self, id: u32) -> f32 {
        let n = self.passage_tokens.len() as f32;
        let df = self.df[id as usize] as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    fn max_idf(&self) -> f32 {
        let n = self.passage_tokens.len() as f32;
        (1.0 + (n - 0.5) / 1.5).ln()
    }

    /// Finds a game named in the question; returns it and the question without it.
    pub fn detect_game(&self, question: &str) -> Option<(String, String)> {
        let words = analyze::words(question);
        for (alias, game) in &self.aliases {
            if let Some(pos) = words
                .windows(alias.len())
                .position(|w| w == alias.as_slice())
            {
                let mut rest = words.clone();
                rest.drain(pos..pos + alias.len());
                return Some((game.clone(), rest.join(" ")));
            }
        }
        None
    }

    /// Ranks passages for a question.
    pub fn search(&self, corpus: &Corpus, question: &str, opts: &SearchOptions) -> SearchOutcome {
        let limit = opts.limit.clamp(1, 50);
        let (game, text) = match &opts.game {
            Some(g) => (Some(g.clone()), analyze::words(question).join(" ")),
            None => match self.detect_game(question) {
                Some((g, rest)) => (Some(g), rest),
                None => (None, analyze::words(question).join(" ")),
            },
        };
        let (groups, corrections) = self.query_groups(&text, game.as_deref());
        let empty = SearchOutcome {
            confidence: Confidence::None,
            game: game.clone(),
            corrections: corrections.clone(),
            hits: Vec::new(),
        };
        if groups.is_empty() {
            return empty;
        }
        let mut query_tokens: Vec<&str> = groups
            .iter()
            .flat_map(|g| g.tokens())
            .map(|a| self.words[a as usize].as_str())
            .collect();
        query_tokens.sort_unstable();
        query_tokens.dedup();
        let embedding = self.embedder.embed(&query_tokens.join(" "));
        let total_weight: f32 = groups.iter().map(|g| g.weight).sum();
        if tracing::enabled!(tracing::Level::TRACE) {
            for g in &groups {
                let alts: Vec<Vec<&str>> = g
                    .options
                    .iter()
                    .map(|o| o.iter().map(|&a| self.words[a as usize].as_str()).collect())
                    .collect();
                tracing::trace!(?alts, weight = g.weight, "query term group");
            }
        }
        // A question about things no indexed rule mentions is not answered by
        // a passage that shares its other words ("fatigue damage").
        let unknown = groups.iter().filter(|g| g.options.is_empty()).count();
        let known = groups.len() - unknown;
        if unknown > MAX_UNKNOWN_WORDS || (unknown > 0 && known < MIN_KNOWN_WITH_UNKNOWN) {
            return empty;
        }
        let mut hits = Vec::new();
        let mut best = None;
        for m in self.scorer.matches(&embedding) {
            let idx = m.id as usize;
            let p = &corpus.passages[idx];
            if game.as_deref().is_some_and(|g| p.game != g) {
                continue;
            }
            let tokens = &self.passage_tokens[idx];
            let context = self.parents[idx]
                .filter(|&p| corpus.passages[p].kind == PassageKind::Item)
                .map(|p| &self.passage_tokens[p]);
            let has = |a: u32| {
                tokens.binary_search(&a).is_ok()
                    || context.is_some_and(|c| c.binary_search(&a).is_ok())
            };
            let covered: f32 = groups.iter().map(|g| g.weight * g.matched(has)).sum();
            let coverage = covered / total_weight;
            let top = *best.get_or_insert(m.score);
            tracing::trace!(id = %p.id, score = m.score, coverage, "candidate");
            if coverage < MIN_COVERAGE || m.score < top * 0.25 {
                continue;
            }
            hits.push(Hit {
                passage: idx,
                score: m.score,
                coverage,
                highlight: String::new(),
            });
            if hits.len() >= limit {
                break;
            }
        }
        for h in &mut hits {
            h.highlight = self.highlight(&corpus.passages[h.passage].text, &groups);
        }
        let confidence = if hits.is_empty() {
            Confidence::None
        } else {
            Confidence::Answer
        };
        SearchOutcome {
            hits,
            confidence,
            ..empty
        }
    }

    /// Turns the question into weighted term groups, expanding glossary
    /// phrases and repairing typos against the vocabulary.
    fn query_groups(&self, text: &str, game: Option<&str>) -> (Vec<Group>, Vec<(String, String)>) {
        let words: Vec<String> = text
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        let mut consumed = vec![false; words.len()];
        let mut groups = Vec::new();
        let mut corrections = Vec::new();
        let phrases = match game {
            Some(g) => self.synonyms.get(g).map_or(&[][..], Vec::as_slice),
            None => self.synonyms_all.as_slice(),
        };
        // Glossary phrases, longest first, each word used once.
        for (key, expansion) in phrases {
            if key.len() > words.len() {
                continue;
            }
            for start in 0..=words.len() - key.len() {
                if consumed[start..start + key.len()].iter().any(|&c| c)
                    || words[start..start + key.len()] != key[..]
                {
                    continue;
                }
                // Without a game, expand only slang the rules do not all use.
                let key_ids = self.term_ids(&key.join(" "));
                let key_tokens = self.analyzer.tokens(&key.join(" "));
                if game.is_none() && !key_tokens.is_empty() && key_ids.len() == key_tokens.len() {
                    continue;
                }
                consumed[start..start + key.len()]
                    .iter_mut()
                    .for_each(|c| *c = true);
                let mut options: Vec<Vec<u32>> = Vec::new();
                if !key_ids.is_empty() && key_ids.len() == key_tokens.len() {
                    options.push(key_ids);
                }
                for e in expansion {
                    let ids = self.term_ids(e);
                    if !ids.is_empty() && !options.contains(&ids) {
                        options.push(ids);
                    }
                }
                let weight = self.group_weight(&options);
                groups.push(Group { options, weight });
            }
        }
        for (i, raw) in words.iter().enumerate() {
            let Some(w) = analyze::strip_contraction(raw) else {
                continue;
            };
            if consumed[i] || analyze::is_question_filler(w) {
                continue;
            }
            for token in self.analyzer.tokens(w) {
                let mut options: Vec<Vec<u32>> = match self.vocab.get(&token) {
                    Some(&id) => vec![vec![id]],
                    None => Vec::new(),
                };
                // Inflections the stemmer keeps apart ("added"/"add", "blocker"/"blocking").
                for v in analyze::variants(w) {
                    for t in self.analyzer.tokens(&v) {
                        if let Some(&id) = self.vocab.get(&t)
                            && !options.contains(&vec![id])
                        {
                            options.push(vec![id]);
                        }
                    }
                }
                if options.is_empty()
                    && let Some(id) = self.repair(&token)
                {
                    corrections.push((w.to_string(), self.words[id as usize].clone()));
                    options.push(vec![id]);
                }
                if options.is_empty() {
                    // A word no rule uses still counts against confidence.
                    groups.push(Group {
                        options,
                        weight: self.max_idf(),
                    });
                } else if !groups.iter().any(|g| g.options == options) {
                    let weight = self.group_weight(&options);
                    groups.push(Group { options, weight });
                }
            }
        }
        (groups, corrections)
    }

    fn term_ids(&self, text: &str) -> Vec<u32> {
        self.analyzer
            .tokens(text)
            .iter()
            .filter_map(|t| self.vocab.get(t).copied())
            .collect()
    }

    /// A group weighs as its most common token: matching any option of it is
    /// worth no more than its easiest option.
    fn group_weight(&self, options: &[Vec<u32>]) -> f32 {
        options
            .iter()
            .flatten()
            .map(|&a| self.idf(a))
            .reduce(f32::min)
            .unwrap_or(self.max_idf())
    }

    /// The closest vocabulary word within a small edit distance.
    fn repair(&self, token: &str) -> Option<u32> {
        let len = token.chars().count();
        if len < 5 || token.chars().any(|c| c.is_ascii_digit()) {
            return None;
        }
        let max = if len >= 8 { 2 } else { 1 };
        let mut best: Option<(usize, u32, u32)> = None; // (distance, -df, id)
        for (i, w) in self.words.iter().enumerate() {
            let wl = w.chars().count();
            if wl.abs_diff(len) > max || wl < 3 {
                continue;
            }
            if let Some(d) = crate::text::edit_distance(token, w, max) {
                let key = (d, u32::MAX - self.df[i], i as u32);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|(_, _, id)| id)
    }

    /// The sentence that covers most of the question's weight.
    fn highlight(&self, text: &str, groups: &[Group]) -> String {
        let mut best = ("", -1.0f32);
        for sentence in analyze::sentences(text) {
            let ids = self.term_ids(sentence);
            let score: f32 = groups
                .iter()
                .map(|g| g.weight * g.matched(|t| ids.contains(&t)))
                .sum();
            if score > best.1 {
                best = (sentence, score);
            }
        }
        best.0.trim().to_string()
    }
}

/// What is indexed for a passage: its own text, its title twice and the
/// titles of the sections above it (below the document), so headings rank.
fn indexed_text(p: &crate::corpus::Passage) -> String {
    let mut s = String::new();
    let boost = if matches!(p.kind, PassageKind::Item) {
        1
    } else {
        2
    };
    for _ in 0..boost {
        s.push_str(&p.title);
        s.push_str(". ");
    }
    for title in p.path.iter().skip(1) {
        s.push_str(title);
        s.push_str(". ");
    }
    s.push_str(&p.text);
    s
}
