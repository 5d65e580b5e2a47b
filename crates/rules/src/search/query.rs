//! A question → weighted term groups: game names removed, glossary phrases
//! expanded, inflections matched, typos repaired. Words no rule uses weigh
//! nothing: they neither rank nor veto.

use super::analyze::{self, Word};
use super::{Index, english};

/// One thing the question asks about: a word, or a glossary phrase. Any one
/// option satisfies it; an option is a set of tokens that must all appear
/// ("tapped units" → `exhausted units`).
#[derive(Debug)]
pub(super) struct Group {
    pub options: Vec<Vec<u32>>,
    pub weight: f32,
}

impl Group {
    /// Share of the group found among `has` (the best option's share).
    pub fn matched(&self, has: impl Fn(u32) -> bool) -> f32 {
        self.options
            .iter()
            .map(|o| o.iter().filter(|&&t| has(t)).count() as f32 / o.len().max(1) as f32)
            .fold(0.0, f32::max)
    }

    pub fn tokens(&self) -> impl Iterator<Item = u32> + '_ {
        self.options.iter().flatten().copied()
    }
}

/// A question as the index understands it.
#[derive(Debug, Default)]
pub(super) struct Query {
    pub groups: Vec<Group>,
    /// Typos repaired: (as typed, as understood).
    pub corrections: Vec<(String, String)>,
    /// Words no indexed rule uses (weight 0), each once.
    pub ignored: Vec<String>,
    /// Words the game's rules do not use but another loaded game's do
    /// (weight 0, each once): no rule's word in the game searched, yet not
    /// "no indexed rule uses" it.
    pub elsewhere: Vec<String>,
    /// Words shaped like a rule number that some loaded rule has ("13.4",
    /// "4.1" of `ti4:action-phase.4.1`): citations, not unknown words.
    pub rule_numbers: Vec<String>,
    /// The passages they cite, each named by one number alone
    /// (`Index::cited`): shown first.
    pub cited: Vec<crate::corpus::PassageIdx>,
    /// How many of them are English words written in lower case: topics the
    /// rules do not index ("fatigue", "dice"), unlike names, numbers and chat.
    pub unknown_topics: usize,
    /// Games whose slang the question uses (one entry per phrase and game).
    pub slang_of: Vec<String>,
    /// The groups are the named cards' text, the question's own words
    /// weighing nothing (`Index::with_cards`).
    pub led_by_cards: bool,
}

/// How many words of a question typo repair may try, at most: those of 5
/// letters or more that are no English word (repair compares each with the
/// whole vocabulary; the rest of a search costs little per word).
pub fn repair_candidates(question: &str) -> usize {
    analyze::question_words(question)
        .iter()
        .filter_map(|word| Some((word, analyze::strip_contraction(&word.text)?)))
        .filter(|(word, w)| w.chars().count() >= 5 && is_repairable(word, w))
        .count()
}

/// Only a word that is no English word, has no digit and is not a name
/// written with a capital inside a sentence is a typo.
fn is_repairable(word: &Word, text: &str) -> bool {
    !word.proper
        && !text.chars().any(|c| c.is_ascii_digit())
        && !english::is_word(text)
        && !analyze::is_symbol_word(text)
}

impl Index {
    /// Removes every game name from the question; returns the game named
    /// first (longest names win) and the remaining words.
    pub(super) fn strip_game_names(&self, mut words: Vec<Word>) -> (Option<String>, Vec<Word>) {
        let mut found: Option<(usize, String)> = None;
        for (alias, game) in &self.aliases {
            while let Some(pos) = words
                .windows(alias.len())
                .position(|w| w.iter().zip(alias).all(|(a, b)| a.text == *b))
            {
                if found.as_ref().is_none_or(|(p, _)| pos < *p) {
                    found = Some((pos, game.clone()));
                }
                words.drain(pos..pos + alias.len());
            }
        }
        (found.map(|(_, g)| g), words)
    }

    /// Every game the words name, each once, in the order named (longest
    /// names win, as in [`Index::strip_game_names`]).
    pub(super) fn named_games(&self, mut words: Vec<Word>) -> Vec<String> {
        let mut found: Vec<(usize, String)> = Vec::new();
        for (alias, game) in &self.aliases {
            while let Some(pos) = words
                .windows(alias.len())
                .position(|w| w.iter().zip(alias).all(|(a, b)| a.text == *b))
            {
                // Blanked, not removed: every name keeps its position.
                found.push((pos, game.clone()));
                for w in &mut words[pos..pos + alias.len()] {
                    w.text.clear();
                }
            }
        }
        found.sort_by_key(|(pos, _)| *pos);
        let mut games: Vec<String> = Vec::new();
        for (_, g) in found {
            if !games.contains(&g) {
                games.push(g);
            }
        }
        games
    }

    pub(super) fn query(&self, words: &[Word], game: Option<&str>) -> Query {
        let mut consumed = vec![false; words.len()];
        let mut q = Query::default();
        self.glossary_groups(words, game, &mut consumed, &mut q);
        for (i, word) in words.iter().enumerate() {
            let Some(w) = analyze::strip_contraction(&word.text) else {
                continue;
            };
            if consumed[i] || analyze::is_question_filler(w) {
                continue;
            }
            let cites = self.is_rule_number(w);
            if cites && !q.rule_numbers.iter().any(|n| n == w) {
                q.rule_numbers.push(w.to_string());
            }
            for token in self.analyzer.tokens(w) {
                let mut options = self.word_options(w, &token);
                let indexed = !options.is_empty();
                // A word only another game's rules use weighs nothing here
                // (and is reported as another game's word, not no rule's).
                options.retain(|o| o.iter().all(|&id| self.used_in(game, id)));
                if options.is_empty()
                    && !word.proper
                    && let Some((long, ids)) = self.abbreviation(w, game)
                {
                    q.corrections.push((w.to_string(), long.to_string()));
                    options.push(ids);
                } else if !indexed
                    && let Some(id) = is_repairable(word, w)
                        .then(|| self.repair(&token))
                        .flatten()
                        .filter(|&id| self.used_in(game, id))
                {
                    // Shown as a word of the rules, not its stem ("trampl").
                    let shown = self.analyzer.lexicon().form_of(id, w);
                    let shown = shown.unwrap_or_else(|| self.word(id));
                    q.corrections.push((w.to_string(), shown.to_string()));
                    options.push(vec![id]);
                }
                if options.is_empty() && (cites || indexed) {
                    // A rule's number, or a word of another game's rules:
                    // not a word "no indexed rule uses".
                    let shown = analyze::symbol_shown(w);
                    if indexed
                        && !cites
                        && !analyze::is_plain_filler(w)
                        && !q.elsewhere.iter().any(|e| *e == shown)
                    {
                        q.elsewhere.push(shown.into_owned());
                    }
                } else if options.is_empty() {
                    let shown = analyze::symbol_shown(w);
                    // A word the analyzer cuts in several tokens (a
                    // Japanese sentence) is one ignored word, said once; a
                    // lone letter ("ti4 q: …") is no topic to report.
                    let letter = w.len() == 1 && w.is_ascii();
                    if !letter && !q.ignored.iter().any(|i| *i == shown) {
                        q.ignored.push(shown.into_owned());
                    }
                    // A topic no rules indexed here use at all: in one
                    // game's terms, "after" would veto the label in Ashes
                    // (measured: three right tuning labels lost, no wrong
                    // one removed; docs/SEARCH.md, Pipeline step 6).
                    if !word.proper && w.len() >= 3 && english::is_word(w) {
                        q.unknown_topics += 1;
                    }
                } else if !q.groups.iter().any(|g| g.options == options) {
                    let weight = self.group_weight(&options);
                    q.groups.push(Group { options, weight });
                }
            }
        }
        q
    }

    /// Glossary phrases, longest first, each word used once.
    fn glossary_groups(
        &self,
        words: &[Word],
        game: Option<&str>,
        consumed: &mut [bool],
        q: &mut Query,
    ) {
        let phrases = match game {
            Some(g) => self.synonyms.get(g),
            None => Some(&self.synonyms_all),
        };
        for (key, expansion) in phrases.into_iter().flat_map(|p| p.candidates(words)) {
            if key.len() > words.len() {
                continue;
            }
            for start in 0..=words.len() - key.len() {
                let span = start..start + key.len();
                if consumed[span.clone()].iter().any(|&c| c)
                    || !words[span.clone()]
                        .iter()
                        .zip(key)
                        .all(|(w, k)| w.text == *k)
                {
                    continue;
                }
                // Without a game, expand only slang the rules do not all use.
                let key_ids = self.term_ids(&key.join(" "));
                let key_tokens = self.analyzer.tokens(&key.join(" "));
                let key_indexed = !key_tokens.is_empty() && key_ids.len() == key_tokens.len();
                if game.is_none() && key_indexed {
                    continue;
                }
                consumed[span].iter_mut().for_each(|c| *c = true);
                // An ordinary English word ("keep", "everyone", "shoot")
                // is no game's slang to name the game by: it still expands.
                let ordinary = key.len() == 1 && english::is_word(&key[0]);
                if game.is_none() && !ordinary {
                    q.slang_of.extend(self.slang_games(key));
                }
                let mut options: Vec<Vec<u32>> = Vec::new();
                if key_indexed {
                    options.push(key_ids);
                }
                for e in expansion {
                    let ids = self.term_ids(e);
                    if !ids.is_empty() && !options.contains(&ids) {
                        options.push(ids);
                    }
                }
                if options.is_empty() {
                    // A key of stop words alone ("the" in a server's slang)
                    // is no topic the rules lack: not said as one.
                    if !key_tokens.is_empty() {
                        q.ignored.push(key.join(" "));
                    }
                    continue;
                }
                let weight = self.phrase_weight(&options);
                q.groups.push(Group { options, weight });
            }
        }
    }

    /// A glossary phrase's group weighs as its easiest option, and an
    /// option of several words as its rarest word, what makes it that
    /// phrase: "legend rule" weighed as "rule", which nearly every rule
    /// uses, so "can I respond to the legend rule" was all "respond" and
    /// answered `none` (found by an outside tester).
    fn phrase_weight(&self, options: &[Vec<u32>]) -> f32 {
        options
            .iter()
            .filter_map(|o| o.iter().map(|&a| self.idf(a)).reduce(f32::max))
            .reduce(f32::min)
            .unwrap_or(0.0)
    }

    /// The games whose glossary has this phrase for a word of their own:
    /// shorthand for a word other games' rules use too ("opp" for
    /// "opponent") names no game.
    fn slang_games<'a>(&'a self, key: &'a [String]) -> impl Iterator<Item = String> + 'a {
        self.synonyms.iter().filter_map(move |(g, list)| {
            let (_, expansion) = list.iter().find(|(k, _)| k == key)?;
            let own = |id: &u32| {
                !self
                    .synonyms
                    .keys()
                    .any(|other| other != g && self.used_in(Some(other), *id))
            };
            let distinctive = expansion.iter().any(|e| self.term_ids(e).iter().any(own));
            distinctive.then(|| g.clone())
        })
    }

    /// The indexed token and inflections the stemmer keeps apart
    /// ("added"/"add", "blocker"/"blocking").
    fn word_options(&self, word: &str, token: &str) -> Vec<Vec<u32>> {
        let mut options: Vec<Vec<u32>> = match self.term(token) {
            Some(id) => vec![vec![id]],
            None => Vec::new(),
        };
        for v in analyze::variants(word) {
            for t in self.analyzer.tokens(&v) {
                if let Some(id) = self.term(&t)
                    && !options.contains(&vec![id])
                {
                    options.push(vec![id]);
                }
            }
        }
        options
    }

    pub(super) fn term_ids(&self, text: &str) -> Vec<u32> {
        self.analyzer
            .tokens(text)
            .iter()
            .filter_map(|t| self.term(t))
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
            .unwrap_or(0.0)
    }

    /// A chat abbreviation's full word ([`analyze::abbreviation`]) and its
    /// terms, when this game's rules use them all.
    fn abbreviation(&self, word: &str, game: Option<&str>) -> Option<(&'static str, Vec<u32>)> {
        let long = analyze::abbreviation(word)?;
        let ids = self.term_ids(long);
        (!ids.is_empty() && ids.iter().all(|&id| self.used_in(game, id))).then_some((long, ids))
    }

    /// The closest vocabulary word within a small edit distance.
    fn repair(&self, token: &str) -> Option<u32> {
        let len = token.chars().count();
        if len < 5 {
            return None;
        }
        let max = if len >= 8 { 2 } else { 1 };
        let mut best: Option<(usize, u32, u32)> = None; // (distance, -df, id)
        for (i, w) in self.analyzer.lexicon().terms() {
            let wl = w.chars().count();
            if wl.abs_diff(len) > max || wl < 3 {
                continue;
            }
            if let Some(d) = crate::text::edit_distance(token, w, max) {
                let key = (d, u32::MAX - self.df[i as usize], i);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        best.map(|(_, _, id)| id)
    }
}

/// `words` without every run that spells one of `names` (as
/// [`analyze::words`] splits a name), longest names first.
pub(super) fn strip_names(
    mut words: Vec<Word>,
    names: &[String],
    keep: impl Fn(&Word) -> bool,
) -> Vec<Word> {
    let mut names: Vec<Vec<String>> = names
        .iter()
        .map(|n| analyze::words(n))
        .filter(|w| !w.is_empty())
        .collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for name in &names {
        while let Some(pos) = words.windows(name.len()).position(|w| {
            w.iter().zip(name).all(|(a, b)| a.text == *b) && !(w.len() == 1 && keep(&w[0]))
        }) {
            words.drain(pos..pos + name.len());
        }
    }
    words
}
