//! Rules search: BM25 ranking (the `bm25` crate's embeddings and scores, on
//! an inverted index of ours: `postings`) over an analyzed corpus,
//! with heading boosts, glossary synonym expansion, typo repair of non-words,
//! game detection, glossary-stub following, a confidence label and
//! answer-sentence highlighting.
//!
//! I/O-free. Build once per corpus with [`Index::build`]; queries take `&self`.

mod analyze;
mod complete;
mod confidence;
mod english;
pub mod levers;
mod lexicon;
mod lists;
mod other_games;
mod parts;
mod phrases;
mod postings;
mod query;
pub mod semantic;

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use bm25::{Embedder, EmbedderBuilder};
use serde::Serialize;

use crate::corpus::{Corpus, PassageIdx, PassageKind};
pub use analyze::{Analyzer, is_stop};
pub use complete::{Completer, Keys, MAX_SUGGESTIONS, Suggestion, rank};
pub use confidence::{Confidence, Evidence, SemanticEvidence};
use query::Group;
pub use query::repair_candidates;

/// Candidates (best BM25 scores) re-ranked with their coverage.
const RERANK_DEPTH: usize = 64;
/// Score = BM25 × (this + coverage).
const RERANK_FLOOR: f32 = 0.25;
/// Lettered sub-rules run from the general rule to special cases: the n-th
/// (from 0) scores × (1 + this / (n + 1)). Measured in docs/SEARCH.md.
const RULE_ORDER_PRIOR: f32 = 0.4;

/// A candidate under a section whose whole title the question names scores
/// × (1 + this). Measured in docs/SEARCH.md.
const TITLE_PRIOR: f32 = 0.3;

/// A candidate under a variant's or an option's section ("Two-Headed Giant
/// Variant", "Attack Multiple Players Option") scores × this when the
/// question names no word of that section's titles: the general rule
/// answers a general question. Measured in docs/SEARCH.md.
const VARIANT_FACTOR: f32 = 0.7;
/// Titles of at most this many terms count (names of rules, not sentences).
const TITLE_TERMS: usize = 3;
/// A title counts only where this share of the passages using its terms lie
/// under its section. Measured in docs/SEARCH.md.
const TITLE_CONCENTRATION: f32 = 0.3;

/// Options for one search.
#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    /// Restrict to this game id; when `None`, a game named in the question is used.
    pub game: Option<String>,
    /// The game searched when neither `game` nor the question names one (the
    /// game of the channel's match), before any guess from slang.
    pub fallback_game: Option<String>,
    /// The game of the cards the question names, when nothing above gives
    /// one (before any guess from slang).
    pub card_game: Option<String>,
    /// Rules text of the cards the question names: it re-scores the
    /// question's candidates with [`CARD_WEIGHT`], never adds passages, and
    /// never counts as the question's words for coverage or the label.
    pub context: Vec<String>,
    /// Names and aliases of the cards the question names: their words are
    /// taken out of the question before its game and its words are read,
    /// so "Ashes to Ashes" names no game and "Lightning Bolt" does not
    /// draw the rule whose example quotes the card.
    pub card_names: Vec<String>,
    pub limit: usize,
}

/// The cards' text adds at most this share of the best question score to
/// a candidate (scaled by its own BM25 score over the best). Not tuned:
/// with the MTG fixture's card list it moves one question either way
/// (docs/SEARCH.md, "Cards in the MTG fixture").
pub const CARD_WEIGHT: f32 = 0.3;

/// How a question's word stands beside the indexed rules
/// ([`Index::word_use`]), for telling a card's name from ordinary words
/// (`cards::Cards::named_in`).
/// `unused`: no indexed passage uses the word at all ("humility"), unlike
/// the card names of the rules' examples ("platinum", "fog").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordUse {
    /// A stop word, or a word the rules use in several passages: "the",
    /// "command", "exile".
    Common,
    /// Another English word: "sorry", "platinum".
    English { unused: bool },
    /// Neither: "Counterspell", "Anchornaut".
    Other { unused: bool },
}

impl WordUse {
    /// Whether no indexed passage uses the word.
    pub fn unused(self) -> bool {
        match self {
            WordUse::Common => false,
            WordUse::English { unused } | WordUse::Other { unused } => unused,
        }
    }
}

/// Passages that use a word for it to be common beside card names
/// ([`Index::word_use`]): the rules' own words are in many passages, the
/// card names in MTG's examples in one or two ("Platinum", "Doomed",
/// Rules one cited number may name (`Index::cited`): "4.1" ends three
/// rules of the five games; a number more end with is no citation.
const MAX_CITED_ALIKE: usize = 4;

/// "Fog"), and a short section's words in a few ("main" in Ashes).
pub const COMMON_WORD_PASSAGES: u32 = 3;

/// The text of the cards a question names, unless the `cards` lever is off.
fn cards(opts: &SearchOptions) -> &[String] {
    if levers::get().cards {
        &opts.context
    } else {
        &[]
    }
}

/// Where the game searched came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameFrom {
    /// Given with the question (`--game`, `game:`).
    Given,
    /// Named in the question ("… in ti4").
    Question,
    /// The game of the channel's match ([`SearchOptions::fallback_game`]).
    Match,
    /// Guessed from slang only one game's glossary has.
    Slang,
    /// The game of the cards the question names.
    Card,
}

/// One ranked passage.
#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub passage: PassageIdx,
    pub score: f32,
    /// Its BM25 score before the re-ranking (section-title prior included).
    pub lexical: f32,
    /// Share of the question's rule vocabulary found in the passage and its
    /// parent (0..=1).
    pub coverage: f32,
    /// The sentence of the passage that best answers the question, verbatim.
    pub highlight: String,
    /// Where `highlight` starts in the passage's text (bytes).
    pub highlight_at: usize,
    /// The glossary entry whose "See rule …" led here, shown as context.
    pub via: Option<PassageIdx>,
    /// Its semantic evidence, when the semantic stage re-scored it.
    pub semantic: Option<semantic::Semantic>,
}

/// The outcome of a search.
#[derive(Debug, Clone, Serialize)]
pub struct SearchOutcome {
    pub confidence: Confidence,
    /// The game searched: given, detected in the question, the channel's
    /// match's, or guessed from slang.
    pub game: Option<String>,
    pub game_from: Option<GameFrom>,
    /// Typos repaired: (as typed, as understood).
    pub corrections: Vec<(String, String)>,
    /// Question words no indexed rule uses; they weigh nothing.
    pub ignored: Vec<String>,
    /// Question words the searched game's rules do not use though another
    /// loaded game's do; they weigh nothing too, and are not said to be no
    /// rule's words ("guard" in a TI4 question: Ashes' rules use it).
    pub elsewhere: Vec<OtherGameWord>,
    /// Best passages first; empty when nothing indexed is relevant.
    pub hits: Vec<Hit>,
    /// What the label was decided from.
    pub evidence: Option<Evidence>,
    /// A multi-part question's parts, each with its own label and best
    /// passages (all of them among `hits`); empty for a one-part question.
    pub parts: Vec<Part>,
}

/// A question's word that the game searched does not use in its rules
/// though another loaded game's rules do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtherGameWord {
    pub word: String,
    /// The game whose rules were searched (and weighed the words).
    pub searched: String,
}

/// One part of a multi-part question.
#[derive(Debug, Clone, Serialize)]
pub struct Part {
    /// The part as asked.
    pub question: String,
    pub confidence: Confidence,
    /// Its best passages, best first (every one also in the outcome's hits
    /// when within the limit).
    pub hits: Vec<PassageIdx>,
    /// The game it was searched in (with no game, its first passage's).
    pub game: Option<String>,
    /// Why that game, when the reply should say so.
    pub why: Option<PartGame>,
    /// The sentence of its first passage that answers this part ("" when
    /// it has none): a passage two parts share is highlighted for the
    /// first part, and the second part says its own sentence beside it.
    pub highlight: String,
}

/// Why a part was searched in its game, when its own text does not say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum PartGame {
    /// Its text names several games, this one among them: each of them
    /// gets the part ("does a ti4 dreadnought or an ashes unit…").
    OneOfNamed,
    /// An earlier part named it: this part names no game and its words
    /// are not one other game's. Its rules may not answer it, and the
    /// reply then says so rather than answer from another game.
    Carried,
    /// An earlier part named `carried`, whose rules do not use `words`,
    /// and one of those words is one other game's own: the part was read
    /// outside `carried` ("1) ti4: … 2) can an exhausted phoenixborn guard").
    Left { carried: String, words: Vec<String> },
}

/// A part to search: its text and, when its text names several games, the
/// one game it is asked in, with the rule numbers its text ties to the
/// others ("whats 3.2 in ti4 and 4.1 in ashes": 4.1 is not TI4's).
struct Asked {
    text: String,
    game: Option<String>,
    not_cited: Vec<String>,
}

impl Asked {
    fn whole(text: &str) -> Asked {
        Asked {
            text: text.to_string(),
            game: None,
            not_cited: Vec::new(),
        }
    }
}

/// A glossary entry: the phrase's words and its expansions (each a phrase).
use phrases::{Phrases, Synonym};

/// The passages' analysed terms: the interned vocabulary, document
/// frequencies, each passage's tokens (for BM25) and distinct ids (for
/// coverage).
struct Terms {
    df: Vec<u32>,
    docs: Vec<Vec<String>>,
    passage_tokens: lists::Lists,
}

impl Terms {
    fn of(corpus: &Corpus, analyzer: &mut Analyzer) -> Terms {
        let n = corpus.passages.len();
        let mut t = Terms {
            df: Vec::new(),
            docs: Vec::with_capacity(n),
            passage_tokens: lists::Lists::with_capacity(n),
        };
        for p in &corpus.passages {
            t.add(p, analyzer);
        }
        t
    }

    fn add(&mut self, p: &crate::corpus::Passage, analyzer: &mut Analyzer) {
        // Sentence by sentence: the same tokens as the whole text (analysis
        // is context-free across sentence ends), and every word form's stem
        // learnt for the highlights, which are found again at query time.
        let mut tokens = analyzer.learn_stems(&indexed_head(p));
        for range in analyze::sentence_ranges(&p.text) {
            tokens.extend(analyzer.learn_stems(&p.text[range]));
        }
        analyze::add_base_forms(&mut tokens);
        // "See 15.0" is a pointer, not about seeing.
        tokens.retain(|t| t != "see");
        let mut ids: Vec<u32> = tokens.iter().map(|t| self.intern(analyzer, t)).collect();
        ids.sort_unstable();
        ids.dedup();
        for &id in &ids {
            self.df[id as usize] += 1;
        }
        self.passage_tokens.push(&ids);
        self.docs.push(tokens);
    }

    fn intern(&mut self, analyzer: &mut Analyzer, token: &str) -> u32 {
        let id = analyzer.lexicon_mut().intern_term(token);
        if id as usize == self.df.len() {
            self.df.push(0);
        }
        id
    }
}

/// BM25 over the passages' tokens (passages without any are left out).
fn bm25(docs: &[Vec<String>]) -> (Embedder<u32, analyze::PreTokenized>, postings::Postings) {
    let total: usize = docs.iter().map(Vec::len).sum();
    let avgdl = if docs.is_empty() {
        1.0
    } else {
        (total as f32 / docs.len() as f32).max(1.0)
    };
    let embedder = EmbedderBuilder::<u32, analyze::PreTokenized>::with_avgdl(avgdl)
        .k1(postings::K1)
        .b(postings::B)
        .build();
    let postings = postings::Postings::build(
        docs.iter()
            .enumerate()
            .filter(|(_, tokens)| !tokens.is_empty())
            .map(|(i, tokens)| (i as u32, embedder.embed(&tokens.join(" ")))),
        embedder.avgdl(),
    );
    (embedder, postings)
}

/// Game aliases, folded to lower-case words: (words, game id).
type Aliases = Vec<(Vec<String>, String)>;

/// Game aliases as words (longest first) and each game's glossary as
/// phrases; the glossary's words are taught to the stemmer.
fn game_words(
    corpus: &Corpus,
    analyzer: &mut Analyzer,
) -> (Aliases, HashMap<String, Vec<Synonym>>) {
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
            .collect::<Vec<Synonym>>();
        for (k, v) in &list {
            analyzer.learn_stems(&k.join(" "));
            for e in v {
                analyzer.learn_stems(e);
            }
        }
        synonyms.insert(g.id.clone(), list);
    }
    aliases.sort_by_key(|(w, _)| std::cmp::Reverse(w.iter().map(String::len).sum::<usize>()));
    (aliases, synonyms)
}

/// A lettered sub-rule's position among its siblings (702.33a → 0).
fn rule_order(corpus: &Corpus) -> Vec<Option<u16>> {
    let mut order = vec![None; corpus.passages.len()];
    for p in &corpus.passages {
        for (n, &c) in p.children.iter().enumerate() {
            if is_lettered_rule(&corpus.passages[c].id) {
                order[c] = Some(u16::try_from(n).unwrap_or(u16::MAX));
            }
        }
    }
    order
}

/// A search index over a [`Corpus`].
pub struct Index {
    analyzer: Analyzer,
    embedder: Embedder<u32, analyze::PreTokenized>,
    /// BM25 over the passages' embeddings.
    postings: postings::Postings,
    /// Passages containing each term (the analyzer's lexicon gives terms
    /// their ids and texts).
    df: Vec<u32>,
    /// Each passage's distinct token ids, sorted (for coverage).
    passage_tokens: lists::Lists,
    /// Game aliases, longest first.
    aliases: Aliases,
    /// Names of games this index does not hold (`rules_data/other-games.yaml`
    /// less the games it holds), longest first.
    other_games: other_games::OtherAliases,
    /// Per game: (phrase words, expansion words), longest phrase first.
    synonyms: HashMap<String, Phrases>,
    /// All games' glossaries merged (same phrase → all expansions), for
    /// questions that name no game.
    synonyms_all: Phrases,
    /// Where glossary entries point ("See rule 702.19"): (entry, target),
    /// sorted; most passages are not such entries.
    stub_targets: Vec<(u32, u32)>,
    /// A lettered sub-rule's position among its siblings (702.33a → 0).
    rule_order: Vec<Option<u16>>,
    /// Sections with a short title, and its terms (sorted): a question
    /// naming one ("defender", "state-based actions") is about its rules.
    titles: Vec<(PassageIdx, Box<[u32]>)>,
    /// Passages under a variant's or an option's section, sorted, each with
    /// the terms of the titles from that section down (sorted).
    variants: Vec<(u32, Box<[u32]>)>,
    completer: Completer,
    /// Per game, the terms its passages use (sorted): a word only another
    /// game's rules use weighs nothing in a question about this one.
    game_terms: HashMap<String, Vec<u32>>,
    /// The rule numbers ids end with (`corpus::number_tail`), sorted, each
    /// with its passage: a question citing "13.4" cites a rule, it does not
    /// use a word no rule uses.
    numbers: Vec<(Box<str>, u32)>,
    /// The semantic re-scoring, once a sentence encoder is given (a rule
    /// set's is given after its index is live; a partial stage is replaced
    /// by the complete one when its vectors are computed).
    semantic: std::sync::RwLock<Option<std::sync::Arc<semantic::Stage>>>,
}

impl Index {
    pub fn build(corpus: &Corpus) -> Index {
        let mut analyzer = Analyzer::new();
        let terms = Terms::of(corpus, &mut analyzer);
        let (embedder, postings) = bm25(&terms.docs);
        let (aliases, synonyms) = game_words(corpus, &mut analyzer);
        let synonyms_all = Phrases::new(merge_glossaries(&corpus.games, &synonyms));
        let synonyms: HashMap<String, Phrases> = synonyms
            .into_iter()
            .map(|(g, list)| (g, Phrases::new(list)))
            .collect();
        english::warm();
        let stub_targets = (0..corpus.passages.len())
            .filter_map(|i| Some((i as u32, stub_target(corpus, i)? as u32)))
            .collect();
        let titles = section_titles(corpus, &analyzer, &terms.passage_tokens);
        let variants = variant_passages(corpus, &analyzer);
        let game_terms = game_terms(corpus, &terms.passage_tokens);
        let numbers = rule_numbers(corpus);
        analyzer.lexicon_mut().shrink_to_fit();
        Index {
            analyzer,
            embedder,
            postings,
            df: terms.df,
            passage_tokens: {
                let mut p = terms.passage_tokens;
                p.shrink_to_fit();
                p
            },
            other_games: other_games::not_indexed(&aliases),
            aliases,
            synonyms,
            synonyms_all,
            stub_targets,
            rule_order: rule_order(corpus),
            titles,
            variants,
            completer: Completer::build(corpus),
            game_terms,
            numbers,
            semantic: std::sync::RwLock::new(None),
        }
    }

    /// Whether `game`'s passages use term `id` (no game: any passage).
    fn used_in(&self, game: Option<&str>, id: u32) -> bool {
        game.is_none_or(|g| {
            self.game_terms
                .get(g)
                .is_some_and(|t| t.binary_search(&id).is_ok())
        })
    }

    /// Whether a word is the rule number some loaded passage's id ends
    /// with ("13.4", "704.5j", "4.1" of `ti4:action-phase.4.1`).
    fn is_rule_number(&self, word: &str) -> bool {
        !self.numbered(word).is_empty()
    }

    /// The passages whose id ends with this rule number.
    fn numbered(&self, word: &str) -> &[(Box<str>, u32)] {
        if !crate::corpus::is_rule_number(word) {
            return &[];
        }
        let from = self.numbers.partition_point(|(n, _)| &**n < word);
        let to = from + self.numbers[from..].partition_point(|(n, _)| &**n == word);
        &self.numbers[from..to]
    }

    /// The passages a question cites by number, in the order cited: each
    /// passage of `game` (any game's when none is searched) whose id ends
    /// with a number cited, when at most [`MAX_CITED_ALIKE`] do, unless
    /// it quotes nothing of its own (a bare heading, "702.19 Trample": its
    /// rules rank by the words). A number several rules end with names
    /// them all ("what does 4.1 say": TI4's and Ashes' two; it was
    /// answered "nothing relevant", found by an outside tester); one that
    /// more end with names none.
    fn cited(&self, corpus: &Corpus, numbers: &[String], game: Option<&str>) -> Vec<PassageIdx> {
        let mut out = Vec::new();
        for n in numbers {
            let of_game: Vec<PassageIdx> = self
                .numbered(n)
                .iter()
                .map(|&(_, i)| i as PassageIdx)
                .filter(|&i| game.is_none_or(|g| corpus.passages[i].game == g))
                .collect();
            if of_game.len() > MAX_CITED_ALIKE {
                continue;
            }
            for one in of_game {
                if !out.contains(&one)
                    && !corpus.passages[one].text.trim().is_empty()
                    && (!is_bare_heading(corpus, one) || is_sentence(&corpus.passages[one].text))
                {
                    out.push(one);
                }
            }
        }
        out
    }

    /// Whether a word alone is a glossary phrase of the game (of any game
    /// when none is given): slang with its own meaning in the rules.
    fn is_slang(&self, word: &str, game: Option<&str>) -> bool {
        let phrases = match game {
            Some(g) => self.synonyms.get(g),
            None => Some(&self.synonyms_all),
        };
        phrases.is_some_and(|p| p.has_word(word))
    }

    /// Where a glossary entry points, if it is one that points.
    fn stub_target(&self, idx: PassageIdx) -> Option<PassageIdx> {
        let k = self
            .stub_targets
            .binary_search_by_key(&idx, |&(entry, _)| entry as usize)
            .ok()?;
        Some(self.stub_targets[k].1 as PassageIdx)
    }

    /// The id of an indexed term.
    fn term(&self, token: &str) -> Option<u32> {
        self.analyzer.lexicon().term(token)
    }

    /// How a word stands beside the indexed rules, for telling card names
    /// from words: common when every token of it (once analysed) is used by
    /// [`COMMON_WORD_PASSAGES`] passages or more (a stop word has none:
    /// "the", "command", "exile"), else English when the English word list
    /// has it ("sorry", "platinum"), else other ("Counterspell"); unused
    /// when no token of it is indexed at all. With a game, a word its own
    /// rules never use is not common, however many of another game's
    /// passages use it (a server's card "Guard" beside Ashes' "guard").
    pub fn word_use(&self, word: &str, game: Option<&str>) -> WordUse {
        let often = |t: &String| {
            self.term(t).is_some_and(|id| {
                self.df[id as usize] >= COMMON_WORD_PASSAGES && self.used_in(game, id)
            })
        };
        let tokens = self.analyzer.tokens(word);
        let unused = !tokens.is_empty() && tokens.iter().all(|t| self.term(t).is_none());
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
        let bare = ["'s", "’s"]
            .iter()
            .find_map(|s| bare.strip_suffix(s))
            .unwrap_or(bare);
        if tokens.iter().all(often) {
            WordUse::Common
        } else if english::is_word(&bare.to_lowercase()) {
            WordUse::English { unused }
        } else {
            WordUse::Other { unused }
        }
    }

    /// A term's text.
    fn word(&self, id: u32) -> &str {
        self.analyzer.lexicon().word(id)
    }

    /// Gives the index its semantic stage, in place of the one it had.
    pub fn set_semantic(&self, stage: semantic::Stage) {
        *self.semantic.write().unwrap_or_else(|e| e.into_inner()) =
            Some(std::sync::Arc::new(stage));
    }

    pub fn semantic(&self) -> Option<std::sync::Arc<semantic::Stage>> {
        self.semantic
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn completer(&self) -> &Completer {
        &self.completer
    }

    /// The IDF of a term only one passage uses: the most one term weighs.
    pub(crate) fn max_idf(&self) -> f32 {
        self.idf_of(1.0).max(f32::EPSILON)
    }

    fn idf(&self, id: u32) -> f32 {
        self.idf_of(self.df[id as usize] as f32)
    }

    /// The IDF of a term `df` passages use.
    fn idf_of(&self, df: f32) -> f32 {
        let n = self.passage_tokens.len() as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Ranks passages for a question and labels how sure the first is. A
    /// multi-part question ("1) … 2) …") is answered part by part
    /// ([`SearchOutcome::parts`]); its hits take each part's best in turn.
    pub fn search(&self, corpus: &Corpus, question: &str, opts: &SearchOptions) -> SearchOutcome {
        let limit = opts.limit.clamp(1, 50);
        let asked = if levers::get().multipart {
            let split = parts::split_with(question, |sentence| {
                self.leading_game(sentence, opts).is_some()
            });
            let asked: Vec<Asked> = split.iter().flat_map(|p| self.per_game(p, opts)).collect();
            if asked.len() > parts::MAX_PARTS {
                split.iter().map(|p| Asked::whole(p)).collect()
            } else {
                asked
            }
        } else {
            Vec::new()
        };
        if asked.len() >= 2 {
            return self.search_parts(corpus, question, &asked, opts, limit);
        }
        let (game, game_from, q) = self.read(question, opts, None, None);
        let (mut q, context) = self.with_cards(q, opts, game.as_deref());
        let text = semantic::with_context(question, cards(opts));
        q.cited = self.cited(
            corpus,
            &q.rule_numbers,
            cites_in(game.as_deref(), game_from),
        );
        let mut outcome = self.answer(corpus, &text, q, game.as_deref(), &context, limit);
        outcome.game = game;
        outcome.game_from = game_from;
        outcome
    }

    /// A part once per game its text names when it names several ("does a
    /// ti4 dreadnought or an ashes unit attack twice?", "how do attacks
    /// work in magewinds and legion?": only the first was searched), each
    /// citing only the rule numbers not tied to another of them ("whats
    /// 3.2 in ti4 and 4.1 in ashes" cited TI4's 4.1); else the part alone.
    /// A game given with the question is every part's.
    fn per_game(&self, part: &str, opts: &SearchOptions) -> Vec<Asked> {
        let words =
            |t: &str| self.without_cards(analyze::question_words(&analyze::symbol_words(t)), opts);
        let games = self.named_games(words(part));
        if opts.game.is_some() || games.len() < 2 {
            return vec![Asked::whole(part)];
        }
        // Each stretch of the text (between "and", "or", commas), the
        // games it names and the rule numbers it holds: a number is tied
        // to the one game named in its stretch.
        let stretches: Vec<(&str, Vec<String>, Vec<String>)> = parts::stretches(part)
            .into_iter()
            .map(|stretch| {
                let said = words(stretch);
                let numbers = said
                    .iter()
                    .filter_map(|w| analyze::strip_contraction(&w.text))
                    .filter(|w| self.is_rule_number(w))
                    .map(str::to_string)
                    .collect();
                (stretch, self.named_games(said), numbers)
            })
            .collect();
        let ties: Vec<(String, String)> = stretches
            .iter()
            .flat_map(|(_, named, numbers)| match named.as_slice() {
                [one] => numbers.iter().map(|n| (n.clone(), one.clone())).collect(),
                _ => Vec::new(),
            })
            .collect();
        games
            .iter()
            .map(|g| Asked {
                text: self
                    .own_stretches(&stretches, g, opts)
                    .unwrap_or_else(|| part.to_string()),
                game: Some(g.clone()),
                not_cited: ties
                    .iter()
                    .filter(|(n, t)| t != g && !ties.contains(&(n.clone(), g.clone())))
                    .map(|(n, _)| n.clone())
                    .collect(),
            })
            .collect()
    }

    /// A game's own words in a part naming several: the stretches (between
    /// "and", "or", commas) that name it or no game, when they leave out
    /// another game's and hold two rule words or more ("ti4 can i pass
    /// before my strat card and in magewinds who goes first": Magewinds
    /// was searched with TI4's words, found by an outside tester); `None`
    /// when the part is one question about both ("does a ti4 dreadnought
    /// or an ashes unit attack twice?": each game gets it whole).
    fn own_stretches(
        &self,
        stretches: &[(&str, Vec<String>, Vec<String>)],
        game: &str,
        opts: &SearchOptions,
    ) -> Option<String> {
        let kept: Vec<&str> = stretches
            .iter()
            .filter(|(_, named, _)| named.is_empty() || named.iter().any(|n| n == game))
            .map(|(s, ..)| *s)
            .collect();
        let text = kept.join(", ");
        let words = analyze::question_words(&analyze::symbol_words(&text));
        let (_, rest) = self.strip_game_names(self.without_cards(words, opts));
        let rule_words = rest.iter().filter(|w| !analyze::is_stop(&w.text)).count();
        (kept.len() < stretches.len() && rule_words >= 2).then_some(text)
    }

    /// Whether one of these words (another game's, not `carried`'s) is
    /// used by the rules of one game alone: that game's own term
    /// ("phoenixborn"), not a word many games share ("attack", "twice").
    fn one_games_word(&self, words: &[OtherGameWord], carried: &str) -> bool {
        words.iter().any(|w| {
            let ids: Vec<u32> = self
                .analyzer
                .tokens(&w.word)
                .iter()
                .filter_map(|t| self.term(t))
                .collect();
            let using = self
                .game_terms
                .keys()
                .filter(|g| *g != carried)
                .filter(|g| !ids.is_empty() && ids.iter().all(|&id| self.used_in(Some(g), id)))
                .count();
            using == 1
        })
    }

    /// The game a question names that this index does not hold ("in
    /// pokemon can I…"), by its display name, when it names no game the
    /// index holds: such a question is not answered from another game.
    pub fn unindexed_game(&self, question: &str) -> Option<&str> {
        let words = other_games::question_words(question);
        let named = analyze::question_words(question);
        if !self.named_games(named).is_empty() {
            return None;
        }
        other_games::first_named(&self.other_games, &words)
    }

    /// The game a sentence opens with ("ti4: can I pass…", "Ashes, can a
    /// pb guard…"), the cards' names aside.
    fn leading_game(&self, sentence: &str, opts: &SearchOptions) -> Option<String> {
        let words = analyze::question_words(&analyze::symbol_words(sentence));
        let words = self.without_cards(words, opts);
        self.aliases
            .iter()
            .find(|(alias, _)| {
                words.len() >= alias.len() && words.iter().zip(alias).all(|(w, a)| w.text == *a)
            })
            .map(|(_, g)| g.clone())
    }

    /// A question's game (given, the one of those it names it is asked in,
    /// named in it, named elsewhere in a multi-part question, the channel's
    /// match's, or from slang) and its query.
    fn read(
        &self,
        question: &str,
        opts: &SearchOptions,
        asked_in: Option<&str>,
        named_elsewhere: Option<&str>,
    ) -> (Option<String>, Option<GameFrom>, query::Query) {
        let text = analyze::symbol_words(question);
        let words = self.without_cards(analyze::question_words(&text), opts);
        let (named, words) = self.strip_game_names(words);
        let named = asked_in
            .map(str::to_string)
            .or(named)
            .or(named_elsewhere.map(str::to_string));
        let (mut game, mut game_from) = match (&opts.game, named, &opts.fallback_game) {
            (Some(g), _, _) => (Some(g.clone()), Some(GameFrom::Given)),
            (None, Some(g), _) => (Some(g), Some(GameFrom::Question)),
            (None, None, Some(g)) => (Some(g.clone()), Some(GameFrom::Match)),
            (None, None, None) => match &opts.card_game {
                Some(g) => (Some(g.clone()), Some(GameFrom::Card)),
                None => (None, None),
            },
        };
        let mut q = self.query(&words, game.as_deref());
        if game.is_none()
            && let Some(g) = slang_game(&q.slang_of)
        {
            q = self.query(&words, Some(&g));
            game = Some(g);
            game_from = Some(GameFrom::Slang);
        }
        (game, game_from, q)
    }

    /// The query and the cards' terms that re-score its candidates. When
    /// the question's own words weigh nothing once the cards' names are out
    /// ("if i Counterspell a Counterspell what happens"), the cards' text
    /// is the query instead (and re-scores nothing).
    fn with_cards(
        &self,
        q: query::Query,
        opts: &SearchOptions,
        game: Option<&str>,
    ) -> (query::Query, Vec<&str>) {
        let texts = cards(opts);
        if texts.is_empty() || q.groups.iter().any(|g| g.weight > 0.0) {
            return (q, self.context_tokens(texts));
        }
        let text = texts.join("\n");
        let words = analyze::question_words(&analyze::symbol_words(&text));
        let by_cards = self.query(&words, game);
        let q = query::Query {
            groups: by_cards.groups,
            led_by_cards: true,
            ..q
        };
        (q, Vec::new())
    }

    /// A question's words without the names of the cards it names.
    fn without_cards(&self, words: Vec<analyze::Word>, opts: &SearchOptions) -> Vec<analyze::Word> {
        if levers::get().cards {
            // A one-word name written in lower case that is the game's
            // slang stays a word of the question: "can my opponent
            // counterspell my land drop" is about countering, the card
            // Counterspell beside it.
            let game = opts.game.as_deref().or(opts.card_game.as_deref());
            query::strip_names(words, &opts.card_names, |w| {
                !w.proper && self.is_slang(&w.text, game)
            })
        } else {
            words
        }
    }

    /// One question's (or part's) ranked, highlighted and labelled passages.
    fn answer(
        &self,
        corpus: &Corpus,
        question: &str,
        q: query::Query,
        game: Option<&str>,
        context: &[&str],
        limit: usize,
    ) -> SearchOutcome {
        self.trace_query(&q);
        let mut ranked = self.rank(corpus, &q.groups, game, context);
        if let Some(stage) = self.semantic().filter(|_| levers::get().semantic) {
            stage.rescore(question, &mut ranked);
        }
        let mut hits = self.follow_stubs(corpus, &ranked, limit);
        self.cited_first(corpus, &mut hits, &ranked, &q.cited, &q.groups, limit);
        for h in &mut hits {
            (h.highlight_at, h.highlight) = self.highlight(corpus, h.passage, &q.groups);
        }
        let evidence = confidence::Evidence::of(self, corpus, &q, &hits, &ranked);
        let confidence = match evidence.as_ref().map_or(Confidence::None, Evidence::label) {
            // The cards' text reaches these rules, or the question cites
            // a rule by its number: the closest, not nothing.
            Confidence::None if (q.led_by_cards || !q.cited.is_empty()) && !hits.is_empty() => {
                Confidence::Closest
            }
            c => c,
        };
        if confidence == Confidence::None {
            hits.clear();
        }
        SearchOutcome {
            confidence,
            game: None,
            game_from: None,
            corrections: q.corrections,
            ignored: q.ignored,
            elsewhere: game
                .map(|g| {
                    q.elsewhere
                        .into_iter()
                        .map(|word| OtherGameWord {
                            word,
                            searched: g.to_string(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            hits,
            evidence,
            parts: Vec::new(),
        }
    }

    /// The passages the question cites by number first, in the order
    /// cited (a hit already ranked keeps its scores; one the words did not
    /// reach gets its coverage and no score), the rest after, `limit` in all.
    fn cited_first(
        &self,
        corpus: &Corpus,
        hits: &mut Vec<Hit>,
        ranked: &[Hit],
        cited: &[PassageIdx],
        groups: &[Group],
        limit: usize,
    ) {
        for &idx in cited.iter().rev() {
            let hit = match hits.iter().position(|h| h.passage == idx) {
                Some(at) => hits.remove(at),
                None => ranked
                    .iter()
                    .find(|h| h.passage == idx)
                    .cloned()
                    .unwrap_or_else(|| Hit {
                        passage: idx,
                        score: 0.0,
                        lexical: 0.0,
                        coverage: self.coverage(corpus, idx, groups),
                        highlight: String::new(),
                        highlight_at: 0,
                        via: None,
                        semantic: None,
                    }),
            };
            hits.insert(0, hit);
        }
        hits.truncate(limit.max(cited.len()));
    }

    /// One part of a question asked on its own, in `game` unless the part
    /// names its own: its answer and the game it was searched in.
    fn part_answer(
        &self,
        corpus: &Corpus,
        part: &Asked,
        opts: &SearchOptions,
        game: Option<&str>,
        limit: usize,
    ) -> (SearchOutcome, Option<String>, Option<GameFrom>) {
        let (game, from, mut q) = self.read(&part.text, opts, part.game.as_deref(), game);
        q.rule_numbers.retain(|n| !part.not_cited.contains(n));
        let (mut q, context) = self.with_cards(q, opts, game.as_deref());
        let text = semantic::with_context(&part.text, cards(opts));
        q.cited = self.cited(corpus, &q.rule_numbers, cites_in(game.as_deref(), from));
        let a = self.answer(corpus, &text, q, game.as_deref(), &context, limit);
        (a, game, from)
    }

    /// Each part asked on its own (in the game of the whole question); the
    /// hits interleave the parts' rankings (each part's first, then each
    /// part's second…); "answer" only when every part earns it, "none" only
    /// when no part has a relevant passage.
    fn search_parts(
        &self,
        corpus: &Corpus,
        question: &str,
        split: &[Asked],
        opts: &SearchOptions,
        limit: usize,
    ) -> SearchOutcome {
        // A game named outside every part ("ashes: 1) … 2) …") is every part's.
        let named_in = |t: &str| {
            let words = analyze::question_words(&analyze::symbol_words(t));
            self.strip_game_names(self.without_cards(words, opts)).0
        };
        let preamble = named_in(question).filter(|g| {
            split
                .iter()
                .all(|p| named_in(&p.text).as_deref() != Some(g.as_str()))
        });
        let mut games = Vec::new();
        // A part that names no game is in the game the nearest earlier part
        // named ("ti4: can I pass…? also when does the phase end?"), else
        // the one named outside every part.
        // Unless its own words say otherwise: a part more of whose words
        // only other games' rules use than the carried game's rules use is
        // read on its own ("1) ashes: … 2) how does trample work" searched
        // trample in Ashes; found by an outside tester). One mostly in the
        // carried game's words stays in that game.
        // And only when one of those words is one other game's own
        // ("phoenixborn"): words many games share ("attack", "twice") keep
        // it in the carried game, which then says its rules do not answer
        // ("ti4: … also can my dreadnought attack twice?" was answered from
        // Star Wars: Legion; found by an outside tester).
        let terms = |a: &SearchOutcome| a.evidence.as_ref().map_or(0, |e| e.terms);
        let mut last_named: Option<String> = None;
        let mut whys: Vec<Option<PartGame>> = Vec::new();
        let answers: Vec<SearchOutcome> = split
            .iter()
            .map(|part| {
                let own = part.game.clone().or_else(|| named_in(&part.text));
                if let Some(g) = &own {
                    last_named = Some(g.clone());
                }
                let carried = last_named.as_deref().filter(|_| own.is_none());
                let outside = preamble.as_deref();
                let run = |given: Option<&str>| self.part_answer(corpus, part, opts, given, limit);
                let (a, game, from) = run(own.as_deref().or(carried).or(outside));
                let leaves = carried.filter(|c| {
                    a.elsewhere.len() > terms(&a) && self.one_games_word(&a.elsewhere, c)
                });
                let (a, game, from, why) = match (leaves, carried) {
                    (Some(c), _) => {
                        let words = a.elsewhere.iter().map(|w| w.word.clone()).collect();
                        let (a, game, from) = run(outside);
                        let why = PartGame::Left {
                            carried: c.to_string(),
                            words,
                        };
                        (a, game, from, Some(why))
                    }
                    (None, Some(_)) => (a, game, from, Some(PartGame::Carried)),
                    (None, None) => {
                        let why = part.game.as_ref().map(|_| PartGame::OneOfNamed);
                        (a, game, from, why)
                    }
                };
                games.push((game, from));
                whys.push(why);
                a
            })
            .collect();
        let confidence = answers
            .iter()
            .map(|a| a.confidence)
            .min_by_key(|c| match c {
                Confidence::None => 0,
                Confidence::Closest => 1,
                Confidence::Answer => 2,
            })
            .unwrap_or(Confidence::None);
        let confidence = match confidence {
            Confidence::None if answers.iter().any(|a| !a.hits.is_empty()) => Confidence::Closest,
            c => c,
        };
        // The game searched, when every part searched the same one.
        let (game, game_from) = match games.split_first() {
            Some((first, rest)) if rest.iter().all(|g| g.0 == first.0) => first.clone(),
            _ => (None, None),
        };
        let mut out = SearchOutcome {
            confidence,
            game,
            game_from,
            corrections: Vec::new(),
            ignored: Vec::new(),
            elsewhere: Vec::new(),
            hits: Vec::new(),
            evidence: answers
                .iter()
                .find(|a| a.confidence == confidence)
                .and_then(|a| a.evidence.clone()),
            parts: Vec::new(),
        };
        // Every part first gets its best passage not already shown (two
        // parts may share a best), even past `limit`: six parts in a reply
        // of three left three empty. Then each part's best in turn.
        for a in &answers {
            if let Some(h) = a
                .hits
                .iter()
                .find(|h| !out.hits.iter().any(|o| o.passage == h.passage))
            {
                out.hits.push(h.clone());
            }
        }
        let room = limit.max(out.hits.len());
        let deepest = answers.iter().map(|a| a.hits.len()).max().unwrap_or(0);
        for rank in 0..deepest {
            for a in &answers {
                if let Some(h) = a.hits.get(rank)
                    && out.hits.len() < room
                    && !out.hits.iter().any(|o| o.passage == h.passage)
                {
                    out.hits.push(h.clone());
                }
            }
        }
        for (((part, a), (game, _)), why) in split.iter().zip(answers).zip(games).zip(whys) {
            for c in a.corrections {
                if !out.corrections.contains(&c) {
                    out.corrections.push(c);
                }
            }
            for w in a.ignored {
                if !out.ignored.contains(&w) {
                    out.ignored.push(w);
                }
            }
            for w in a.elsewhere {
                if !out.elsewhere.contains(&w) {
                    out.elsewhere.push(w);
                }
            }
            // The part's passages the reply shows (among `hits`).
            let shown = |p: &usize| out.hits.iter().any(|o| o.passage == *p);
            let hits: Vec<PassageIdx> = a.hits.iter().map(|h| h.passage).filter(shown).collect();
            let game = game.or_else(|| {
                let first = a.hits.first()?;
                Some(corpus.passages[first.passage].game.clone())
            });
            let highlight = a
                .hits
                .iter()
                .find(|h| shown(&h.passage))
                .map(|h| h.highlight.clone())
                .unwrap_or_default();
            out.parts.push(Part {
                question: part.text.clone(),
                confidence: a.confidence,
                hits,
                game,
                why,
                highlight,
            });
        }
        out
    }

    fn trace_query(&self, q: &query::Query) {
        if !tracing::enabled!(tracing::Level::TRACE) {
            return;
        }
        for g in &q.groups {
            let alts: Vec<Vec<&str>> = g
                .options
                .iter()
                .map(|o| o.iter().map(|&a| self.word(a)).collect())
                .collect();
            tracing::trace!(?alts, weight = g.weight, "query term group");
        }
        tracing::trace!(ignored = ?q.ignored, corrections = ?q.corrections, "question words");
    }

    /// BM25 candidates of the game, the best re-ranked by how much of the
    /// question's rule vocabulary they (with their parent) cover.
    /// The indexed terms of the cards' text (each once).
    fn context_tokens(&self, context: &[String]) -> Vec<&str> {
        let mut tokens: Vec<&str> = context
            .iter()
            .flat_map(|t| self.term_ids(t))
            .map(|id| self.word(id))
            .collect();
        tokens.sort_unstable();
        tokens.dedup();
        tokens
    }

    /// Adds the cards' text's say to the question's candidates: up to
    /// [`CARD_WEIGHT`] × the best question score, by the candidate's own
    /// BM25 score for the cards' terms over the best.
    fn add_context(&self, candidates: &mut [postings::Scored], context: &[&str]) {
        if context.is_empty() || candidates.is_empty() {
            return;
        }
        let found = self
            .postings
            .matches(&self.embedder.embed(&context.join(" ")));
        let best_card = found.iter().map(|m| m.score).fold(0.0, f32::max);
        let best = candidates.iter().map(|m| m.score).fold(0.0, f32::max);
        if best_card <= 0.0 {
            return;
        }
        let by_id: FxHashMap<u32, f32> = found.iter().map(|m| (m.id, m.score)).collect();
        for m in candidates.iter_mut() {
            if let Some(c) = by_id.get(&m.id) {
                m.score += CARD_WEIGHT * best * c / best_card;
            }
        }
    }

    fn rank(
        &self,
        corpus: &Corpus,
        groups: &[Group],
        game: Option<&str>,
        context: &[&str],
    ) -> Vec<Hit> {
        if groups.is_empty() {
            return Vec::new();
        }
        let mut tokens: Vec<&str> = groups
            .iter()
            .flat_map(Group::tokens)
            .map(|a| self.word(a))
            .collect();
        tokens.sort_unstable();
        tokens.dedup();
        let embedding = self.embedder.embed(&tokens.join(" "));
        let mut candidates = self.postings.matches(&embedding);
        candidates.retain(|m| game.is_none_or(|g| corpus.passages[m.id as usize].game == g));
        self.add_context(&mut candidates, context);
        // The best BM25 scores (ties: the earlier passage).
        let best_first = |a: &postings::Scored, b: &postings::Scored| {
            b.score.total_cmp(&a.score).then(a.id.cmp(&b.id))
        };
        // A question naming a section ("defender", "state-based actions")
        // is about the rules under it.
        let named = self.named_sections(groups);
        if !named.is_empty() {
            for m in &mut candidates {
                if is_below(corpus, m.id as usize, &named) {
                    m.score *= 1.0 + TITLE_PRIOR;
                }
            }
        }
        self.weigh_variants(&mut candidates, groups);
        if candidates.len() > RERANK_DEPTH {
            candidates.select_nth_unstable_by(RERANK_DEPTH, best_first);
            candidates.truncate(RERANK_DEPTH);
        }
        let mut hits: Vec<Hit> = candidates
            .into_iter()
            .map(|m| {
                let idx = m.id as usize;
                let coverage = self.coverage(corpus, idx, groups);
                let prior = self.rule_order[idx]
                    .map_or(1.0, |n| 1.0 + RULE_ORDER_PRIOR / (1.0 + f32::from(n)));
                tracing::trace!(id = %corpus.passages[idx].id, score = m.score, coverage, prior, "candidate");
                Hit {
                    passage: idx,
                    score: m.score * prior * (RERANK_FLOOR + coverage),
                    lexical: m.score,
                    coverage,
                    highlight: String::new(),
                    highlight_at: 0,
                    via: None,
                    semantic: None,
                }
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.passage.cmp(&b.passage)));
        hits
    }

    /// Lowers candidates under a variant's section whose titles the
    /// question does not name (`VARIANT_FACTOR`).
    fn weigh_variants(&self, candidates: &mut [postings::Scored], groups: &[Group]) {
        if self.variants.is_empty() {
            return;
        }
        let asked: Vec<u32> = groups.iter().flat_map(Group::tokens).collect();
        for m in candidates {
            let Ok(at) = self.variants.binary_search_by_key(&m.id, |(p, _)| *p) else {
                continue;
            };
            if !self.variants[at].1.iter().any(|t| asked.contains(t)) {
                m.score *= VARIANT_FACTOR;
            }
        }
    }

    /// Sections whose whole title the question names.
    fn named_sections(&self, groups: &[Group]) -> Vec<PassageIdx> {
        let mut asked: Vec<u32> = groups.iter().flat_map(Group::tokens).collect();
        asked.sort_unstable();
        asked.dedup();
        self.titles
            .iter()
            .filter(|(_, terms)| terms.iter().all(|t| asked.binary_search(t).is_ok()))
            .map(|(idx, _)| *idx)
            .collect()
    }

    /// Share of the groups' weight found in the passage or its parent item.
    fn coverage(&self, corpus: &Corpus, idx: PassageIdx, groups: &[Group]) -> f32 {
        let total: f32 = groups.iter().map(|g| g.weight).sum();
        if total <= 0.0 {
            return 0.0;
        }
        let tokens = self.passage_tokens.get(idx);
        let context = corpus.passages[idx]
            .parent
            .filter(|&p| corpus.passages[p].kind == PassageKind::Item)
            .map(|p| self.passage_tokens.get(p));
        let has = |a: u32| {
            tokens.binary_search(&a).is_ok() || context.is_some_and(|c| c.binary_search(&a).is_ok())
        };
        groups
            .iter()
            .map(|g| g.weight * g.matched(has))
            .sum::<f32>()
            / total
    }

    /// Replaces glossary entries that point to a rule ("See rule 702.19")
    /// with that rule, keeping the entry as context, and a bare heading
    /// ("702.19 Trample") with its best-ranked rule; drops repeats.
    fn follow_stubs(&self, corpus: &Corpus, ranked: &[Hit], limit: usize) -> Vec<Hit> {
        let rank_of = |i: PassageIdx| ranked.iter().position(|h| h.passage == i);
        let mut out: Vec<Hit> = Vec::with_capacity(limit);
        for h in ranked {
            let mut h = h.clone();
            if let Some(target) = self.stub_target(h.passage) {
                h.via = Some(h.passage);
                h.passage = target;
            }
            // Down through bare headings ("7. Additional Rules" → "701.
            // Keyword Actions" → 701.1) to a passage with text.
            while is_bare_heading(corpus, h.passage) {
                let kids = &corpus.passages[h.passage].children;
                let Some(c) = kids
                    .iter()
                    .copied()
                    .min_by_key(|&c| (rank_of(c).unwrap_or(usize::MAX), c))
                else {
                    break;
                };
                h.passage = c;
                h.coverage = h.coverage.max(self_coverage(ranked, c));
            }
            // A heading with no text of its own and no rule under it to
            // give way to quotes nothing: not an answer.
            if corpus.passages[h.passage].text.trim().is_empty() {
                continue;
            }
            match out.iter_mut().find(|o| o.passage == h.passage) {
                Some(o) => o.via = o.via.or(h.via),
                None => out.push(h),
            }
            if out.len() >= limit {
                break;
            }
        }
        out
    }

    /// The sentence of a passage that covers most of the question's weight
    /// (the first of equals), trimmed, and where it starts in the text; ""
    /// for a passage without text.
    fn highlight(&self, corpus: &Corpus, idx: PassageIdx, groups: &[Group]) -> (usize, String) {
        let text = &corpus.passages[idx].text;
        self.best_sentence(text, groups, EXAMPLE_WEIGHT)
            .and_then(|s| {
                let t = text.get(s.text.clone())?;
                let trimmed = t.trim_start();
                Some((
                    s.text.start + t.len() - trimmed.len(),
                    trimmed.trim_end().to_string(),
                ))
            })
            .unwrap_or_default()
    }

    /// The sentence of `text` that covers most of the groups' weight, a
    /// sentence of an example counting `examples` of its weight (the
    /// highlight: [`EXAMPLE_WEIGHT`]):
    /// an example names the cards and units a question names ("For
    /// example, Han Solo performs an attack action."), while the rule it
    /// illustrates is the answer.
    ///
    /// The label's evidence weighs every sentence alike (`examples: 1.0`):
    /// how much of the question one sentence of the passage holds, wherever
    /// it stands (measured: discounting there lost a right tuning label).
    fn best_sentence(&self, text: &str, groups: &[Group], examples: f32) -> Option<Sentence> {
        let mut best: Option<(Sentence, f32)> = None;
        let (mut line, mut seen) = (0, 0);
        for range in analyze::sentence_ranges(text) {
            if let Some(at) = text[seen..range.start].rfind('\n') {
                line = seen + at + 1;
            }
            seen = range.start;
            let example = analyze::in_example(text, line, range.start);
            let sentence = self.sentence(text, range);
            let score: f32 = groups
                .iter()
                .map(|g| g.weight * g.matched(|t| sentence.has(t)))
                .sum::<f32>()
                * if example { examples } else { 1.0 };
            if best.as_ref().is_none_or(|(_, b)| score > *b) {
                best = Some((sentence, score));
            }
        }
        best.map(|(s, _)| s)
    }

    /// A sentence of a passage's text with its terms, as the passage's
    /// were indexed: its stems' ids and those of their base forms. Found at
    /// query time for the few passages shown, not kept for every passage.
    fn sentence(&self, text: &str, range: std::ops::Range<usize>) -> Sentence {
        let mut stems = self.analyzer.stems(&text[range.clone()]);
        stems.retain(|t| t != "see");
        analyze::add_base_forms(&mut stems);
        let mut terms: Vec<u32> = stems.iter().filter_map(|t| self.term(t)).collect();
        terms.sort_unstable();
        terms.dedup();
        Sentence { text: range, terms }
    }
}

/// The share of its weight a sentence of an example counts for in choosing
/// the highlight ([`Index::best_sentence`]).
const EXAMPLE_WEIGHT: f32 = 0.25;

/// A sentence of a passage's text: where it is and its distinct terms.
struct Sentence {
    text: std::ops::Range<usize>,
    /// Sorted.
    terms: Vec<u32>,
}

impl Sentence {
    fn has(&self, term: u32) -> bool {
        self.terms.binary_search(&term).is_ok()
    }
}

/// Sections (below the document) and bare headings ("702.3 Defender")
/// whose title has 1..=[`TITLE_TERMS`] terms, all indexed, and names what
/// the section is about: of the game's passages using every title term, at
/// least [`TITLE_CONCENTRATION`] lie under the section ("Defender" does;
/// "Life", a word rules all over the game use, does not).
fn section_titles(
    corpus: &Corpus,
    analyzer: &Analyzer,
    passage_tokens: &lists::Lists,
) -> Vec<(PassageIdx, Box<[u32]>)> {
    let using = passages_using(passage_tokens, analyzer.lexicon().term_count());
    let mut out = Vec::new();
    for (i, p) in corpus.passages.iter().enumerate() {
        if p.kind != PassageKind::Section && !is_bare_heading(corpus, i) {
            continue;
        }
        let tokens = analyzer.tokens(&p.title);
        let mut ids: Vec<u32> = tokens
            .iter()
            .filter_map(|t| analyzer.lexicon().term(t))
            .collect();
        let all_indexed = ids.len() == tokens.len();
        ids.sort_unstable();
        ids.dedup();
        if all_indexed
            && (1..=TITLE_TERMS).contains(&ids.len())
            && title_concentration(corpus, passage_tokens, &using, i, &ids) >= TITLE_CONCENTRATION
        {
            out.push((i, ids.into_boxed_slice()));
        }
    }
    out
}

/// Passages below a section titled as a variant or an option ("810.
/// Two-Headed Giant Variant", "Casual Variants"), with the terms of the
/// titles from that section down, less "variant" and "option" themselves.
fn variant_passages(corpus: &Corpus, analyzer: &Analyzer) -> Vec<(u32, Box<[u32]>)> {
    let marks = analyzer.tokens("variant option");
    let mut out = Vec::new();
    for (i, p) in corpus.passages.iter().enumerate() {
        let Some(from) = p
            .path
            .iter()
            .skip(1)
            .position(|t| analyzer.tokens(t).iter().any(|x| marks.contains(x)))
        else {
            continue;
        };
        let mut terms: Vec<u32> = p.path[1 + from..]
            .iter()
            .flat_map(|t| analyzer.tokens(t))
            .filter(|t| !marks.contains(t))
            .filter_map(|t| analyzer.lexicon().term(&t))
            .collect();
        terms.sort_unstable();
        terms.dedup();
        out.push((i as u32, terms.into_boxed_slice()));
    }
    out
}

/// The rule number each id ends with (`corpus::number_tail`) and its
/// passage, sorted.
fn rule_numbers(corpus: &Corpus) -> Vec<(Box<str>, u32)> {
    let mut out: Vec<(Box<str>, u32)> = corpus
        .passages
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((crate::corpus::number_tail(&p.id)?.into(), i as u32)))
        .collect();
    out.sort_unstable();
    out.shrink_to_fit();
    out
}

/// Per game, the terms its passages use, sorted.
fn game_terms(corpus: &Corpus, passage_tokens: &lists::Lists) -> HashMap<String, Vec<u32>> {
    let mut out: HashMap<String, Vec<u32>> = HashMap::new();
    for (p, tokens) in corpus.passages.iter().zip(passage_tokens.iter()) {
        out.entry(p.game.clone())
            .or_default()
            .extend_from_slice(tokens);
    }
    for terms in out.values_mut() {
        terms.sort_unstable();
        terms.dedup();
        terms.shrink_to_fit();
    }
    out
}

/// Per term id, the passages that use it, in order.
fn passages_using(passage_tokens: &lists::Lists, terms: usize) -> Vec<Vec<u32>> {
    let mut using = vec![Vec::new(); terms];
    for (j, tokens) in passage_tokens.iter().enumerate() {
        for &t in tokens.iter() {
            using[t as usize].push(j as u32);
        }
    }
    using
}

/// Of the section's game's passages holding every term, the share under the
/// section (itself included). Only the passages using the rarest term are
/// read.
fn title_concentration(
    corpus: &Corpus,
    passage_tokens: &lists::Lists,
    using: &[Vec<u32>],
    section: PassageIdx,
    ids: &[u32],
) -> f32 {
    let game = &corpus.passages[section].game;
    let Some(rarest) = ids
        .iter()
        .map(|&t| &using[t as usize])
        .min_by_key(|l| l.len())
    else {
        return 0.0;
    };
    let (mut all, mut under) = (0u32, 0u32);
    for j in rarest.iter().map(|&j| j as usize) {
        if corpus.passages[j].game != *game
            || !ids
                .iter()
                .all(|t| passage_tokens.get(j).binary_search(t).is_ok())
        {
            continue;
        }
        all += 1;
        if is_below(corpus, j, &[section]) {
            under += 1;
        }
    }
    if all == 0 {
        return 0.0;
    }
    under as f32 / all as f32
}

/// The passage is one of `sections` or below one.
fn is_below(corpus: &Corpus, idx: PassageIdx, sections: &[PassageIdx]) -> bool {
    let mut at = Some(idx);
    while let Some(i) = at {
        if sections.contains(&i) {
            return true;
        }
        at = corpus.passages[i].parent;
    }
    false
}

/// A lettered sub-rule ("mtg:702.33a"): rules whose letters run from the
/// general definition to special cases.
fn is_lettered_rule(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() >= 2 && b[b.len() - 1].is_ascii_lowercase() && b[b.len() - 2].is_ascii_digit()
}

/// A heading with no text of its own beyond its title, above rules.
fn is_bare_heading(corpus: &Corpus, idx: PassageIdx) -> bool {
    let p = &corpus.passages[idx];
    (p.text.trim().is_empty() || p.text.trim() == p.title.trim()) && !p.children.is_empty()
}

/// A text that ends as a sentence or a lead-in does ("The state-based
/// actions are as follows:"): quoted when cited by number, though its
/// title is its text (704.5 was taken for a bare heading like "702.19
/// Trample" and never shown; found by an outside tester).
fn is_sentence(text: &str) -> bool {
    text.trim_end().ends_with(['.', ':', '!', '?'])
}

fn self_coverage(ranked: &[Hit], idx: PassageIdx) -> f32 {
    ranked
        .iter()
        .find(|h| h.passage == idx)
        .map_or(0.0, |h| h.coverage)
}

/// The game whose rules a question's rule numbers name: the game searched,
/// unless only slang guessed it ("does 13.4 let me move twice": Legion's
/// slang "move twice" does not make Magewinds' 13.4 another game's).
fn cites_in(game: Option<&str>, from: Option<GameFrom>) -> Option<&str> {
    game.filter(|_| from != Some(GameFrom::Slang))
}

/// The one game whose slang the question uses most, if one leads.
fn slang_game(votes: &[String]) -> Option<String> {
    let mut counts: Vec<(usize, &String)> = Vec::new();
    for g in votes {
        match counts.iter_mut().find(|(_, x)| *x == g) {
            Some(c) => c.0 += 1,
            None => counts.push((1, g)),
        }
    }
    counts.sort_by_key(|c| std::cmp::Reverse(c.0));
    match counts.as_slice() {
        [(_, g)] => Some((*g).clone()),
        [(a, g), (b, _), ..] if a > b => Some((*g).clone()),
        _ => None,
    }
}

/// All games' glossaries merged (same phrase: every game's expansions), for
/// questions that name no game.
fn merge_glossaries(
    games: &[crate::corpus::Game],
    per_game: &HashMap<String, Vec<Synonym>>,
) -> Vec<Synonym> {
    let mut merged: std::collections::BTreeMap<Vec<String>, Vec<String>> = Default::default();
    for (k, v) in games.iter().filter_map(|g| per_game.get(&g.id)).flatten() {
        let e = merged.entry(k.clone()).or_default();
        for x in v {
            if !e.contains(x) {
                e.push(x.clone());
            }
        }
    }
    merged.into_iter().collect()
}

/// Where a glossary entry points: its first "See rule N" target, or the
/// rule of the entry its "See Term." names; a bare heading ("702.19 Trample")
/// gives way to its first rule.
fn stub_target(corpus: &Corpus, idx: PassageIdx) -> Option<PassageIdx> {
    let p = &corpus.passages[idx];
    if p.kind != PassageKind::Glossary {
        return None;
    }
    let rule_ref = |p: &crate::corpus::Passage| {
        p.refs
            .iter()
            .filter_map(|r| r.target.as_deref())
            .filter_map(|id| corpus.index_of(id))
            .find(|&t| corpus.passages[t].kind != PassageKind::Glossary)
    };
    let target = rule_ref(p).or_else(|| {
        let term = p.text.trim().strip_prefix("See ")?.trim_end_matches('.');
        let entry = corpus.passages[p.parent?]
            .children
            .iter()
            .copied()
            .find(|&c| corpus.passages[c].title.eq_ignore_ascii_case(term))?;
        rule_ref(&corpus.passages[entry])
    })?;
    Some(target)
}

/// What is indexed for a passage before its text: its title twice and the
/// titles of the sections above it (below the document), so headings rank.
fn indexed_head(p: &crate::corpus::Passage) -> String {
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
    s
}
