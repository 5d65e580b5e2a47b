//! Cards as data (issue 16): a game's card list — name, type, cost, stats,
//! text, rulings, aliases — read from YAML, JSON or CSV, and looked up by
//! name (exact, then fuzzy with did-you-mean). I/O-free: text in, cards and
//! warnings out; parse errors say where (line:column, or the CSV line).
//!
//! Card lists are documents of kind `cards` in a game's manifest (shipped
//! in `rules_data/<game>/`) or in a server's rule set (`/rules add
//! kind:cards`); the corpus keeps their text aside ([`CardList`]) and
//! [`Cards::build`] reads them all, a later list's card replacing an
//! earlier one of the same name (a server's card list corrects the shipped).

mod parse;

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use crate::corpus::CardList;
use crate::search::WordUse;

pub use parse::{CardError, Parsed, parse};

/// Cards one list may hold.
pub const MAX_CARDS: usize = 20_000;

/// One card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub card_type: String,
    /// As printed (`1 [[main]] 1 [[charm:class]]`, or a number).
    #[serde(
        default,
        deserialize_with = "parse::scalar",
        skip_serializing_if = "String::is_empty"
    )]
    pub cost: String,
    /// Printed numbers by name (`attack: 3`, `life: 3`).
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// The card's rules text, verbatim.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Official rulings and clarifications about the card, verbatim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<String>,
    /// Other names players use for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

/// A card's printed numbers by name, in name order. A sorted list: a card
/// has two or three, and a map's first node takes hundreds of bytes (5.4
/// MB of the MTG fixture's 34,953 cards; docs/SEARCH.md, "Cards in the MTG
/// fixture"). Read and written as a map.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats(Vec<(String, serde_json::Value)>);

impl Stats {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each stat as (name, value), in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &serde_json::Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn get(&self, name: &str) -> Option<&serde_json::Value> {
        let at = self
            .0
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()?;
        Some(&self.0[at].1)
    }

    /// Sets a stat, in place of the one of the same name.
    pub fn insert(&mut self, name: String, value: serde_json::Value) {
        match self.0.binary_search_by(|(k, _)| k.cmp(&name)) {
            Ok(at) => self.0[at].1 = value,
            Err(at) => self.0.insert(at, (name, value)),
        }
    }
}

impl std::ops::Index<&str> for Stats {
    type Output = serde_json::Value;

    /// The stat of that name; a stat the card lacks panics, as a map's would.
    fn index(&self, name: &str) -> &serde_json::Value {
        self.get(name).expect("the card has this stat")
    }
}

impl Serialize for Stats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

/// A stat named twice is refused where it stands, as YAML's reader
/// refuses a key given twice: JSON's kept the last value without a word
/// (`"attack":2,"attack":9` read as 9).
impl<'de> Deserialize<'de> for Stats {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stats, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = BTreeMap<String, serde_json::Value>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map of stats")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                    if out.contains_key(&key) {
                        return Err(serde::de::Error::custom(format!(
                            "the stat `{key}` is given twice in one card; keep one"
                        )));
                    }
                    out.insert(key, value);
                }
                Ok(out)
            }
        }
        let map = d.deserialize_map(Visit)?;
        Ok(Stats(map.into_iter().collect()))
    }
}

impl Card {
    /// Every name the card answers to: its name, then its aliases.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str()).chain(self.aliases.iter().map(String::as_str))
    }

    /// A stat as text (`3`, `"X"`).
    pub fn stat_text(value: &serde_json::Value) -> String {
        match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// A card with where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardEntry {
    pub game: String,
    /// The card list's title ("Cards", "Errata cards — this server, …").
    pub source: String,
    pub card: Card,
}

/// Every game's cards, looked up by name or alias.
#[derive(Debug, Clone, Default)]
pub struct Cards {
    pub entries: Vec<CardEntry>,
    /// Problems found while reading the lists (a list that did not parse is
    /// left out, with its error here).
    pub warnings: Vec<String>,
    /// (game, folded name or alias) → entry; ordered, so a question's
    /// words are extended into a name only while some name starts with
    /// them ([`Cards::exact_in`]).
    by_name: BTreeMap<(String, String), usize>,
    /// (game, letters) → the folded names and aliases of that many
    /// letters, with their entry: "did you mean" compares a typed name
    /// with names of about its length only.
    by_length: HashMap<(String, usize), Vec<(String, usize)>>,
    /// Each entry's names and aliases as one autocomplete key, folded on
    /// the first completion and kept (a list is never changed once built).
    keys: std::sync::OnceLock<crate::search::Keys>,
}

/// Capitalised spans of a question tried as misspelt card names, at most:
/// a question in Title Case gibberish costs a few milliseconds, not seconds.
const MAX_NEAR_SPANS: usize = 32;

/// An English word in lower case names a card only with this many letters
/// or more: short ones are everyday words that are also cards ("arena",
/// "reset", "sorry" in the MTG fixture), long ones rarely ("humility",
/// "opalescence"). Set on the tuning part's detections (docs/SEARCH.md).
const LOWER_CASE_ENGLISH_NAME: usize = 8;

/// A question's words, folded, and which start with a capital.
struct Spans<'q> {
    words: Vec<&'q str>,
    folded: Vec<String>,
    capital: Vec<bool>,
    uses: Vec<WordUse>,
    /// Words that open a sentence, whose capital may be grammar's.
    opens: Vec<bool>,
    /// Words a punctuation mark or the text's end follows ("Sorry,").
    alone: Vec<bool>,
}

impl Spans<'_> {
    /// Whether a span is written as a name is: its first and last words
    /// with a capital, each word between with one or a small joining word
    /// names keep in lower case ("Kor'vash, the Tidecallr", "Thing in the
    /// Ise": a misspelt name with "the" or "in" had no "did you mean").
    fn capitalised(&self, span: std::ops::Range<usize>) -> bool {
        const JOINING: &[&str] = &[
            "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
            "with",
        ];
        let (first, last) = (span.start, span.end - 1);
        span.into_iter().all(|i| {
            self.capital[i]
                || (i != first && i != last && JOINING.contains(&self.folded[i].as_str()))
        })
    }

    fn common(&self, span: std::ops::Range<usize>) -> bool {
        self.uses[span].iter().all(|&u| u == WordUse::Common)
    }

    /// Whether a span that spells a card's name (`printed`, as the list
    /// writes it) names the card. Common words name cards too, so a
    /// one-word name needs a capital and three letters or more ("X" is a
    /// card), and where a sentence starts (the capital may be grammar's)
    /// neither a common word ("Exile is a zone") nor an English word
    /// standing alone ("Sorry, does Fog…"): "Brainstorm with a miracle on
    /// top?" and "Counterspell on a spell…" name their cards. In lower case,
    /// a one-word name counts only as the card's own name (`own`: not an
    /// alias, "coal" is no Coal Roarkwin; not "tapper" for "T.A.P.P.E.R.")
    /// and a word no rules use (`Spans::one_word_names_card`). A name of
    /// common words only needs the printed name's capitals ("The Command
    /// Zone", not "the Command Zone"; "Fight with Fire" keeps its "with").
    fn names_card(&self, span: std::ops::Range<usize>, printed: &str, own: bool) -> bool {
        let first = span.start;
        if span.len() == 1 {
            return self.one_word_names_card(first, own);
        }
        if !self.common(span.clone()) {
            return true;
        }
        let printed: Vec<&str> = printed
            .split_whitespace()
            .filter(|w| !crate::text::fold(w).is_empty())
            .collect();
        let capitals_kept = if printed.len() == span.len() {
            span.clone()
                .zip(&printed)
                .all(|(i, p)| self.capital[i] || !p.chars().next().is_some_and(char::is_uppercase))
        } else {
            span.clone().all(|i| self.capital[i])
        };
        self.capital[first] && capitals_kept
    }

    /// Whether the word at `at` names the card it spells. A rules word is
    /// no card, capital or not: players capitalise keywords ("has
    /// Lifelink", "Flashback", "Taunt"). With a capital, where a sentence
    /// starts, an English word standing alone is grammar's ("Sorry, …"). In
    /// lower case, only the card's own name as printed (`own`), when the
    /// word is no English word ("tarmogoyf") or an English word of
    /// [`LOWER_CASE_ENGLISH_NAME`] letters or more that no indexed rule
    /// uses at all ("by humility"; not "fog", which a rules example quotes,
    /// nor "my arena rank", "sorry, …").
    fn one_word_names_card(&self, at: usize, own: bool) -> bool {
        let letters = self.folded[at].chars().count();
        if self.uses[at] == WordUse::Common || letters < 3 {
            return false;
        }
        let english = matches!(self.uses[at], WordUse::English { .. });
        if self.capital[at] {
            return !(english && self.opens[at] && self.alone[at]);
        }
        own && (!english || (self.uses[at].unused() && letters >= LOWER_CASE_ENGLISH_NAME))
    }

    /// Every span of up to `max` words, longest first.
    fn all(&self, max: usize) -> Vec<std::ops::Range<usize>> {
        let n = self.words.len();
        (1..=max.min(n))
            .rev()
            .flat_map(|len| (0..=n - len).map(move |start| start..start + len))
            .collect()
    }
}

/// The key a card is found by: its name folded ([`crate::text::fold`]),
/// except a name with a blank to fill in ("________ Goblin", MTG's name
/// stickers), kept as printed, lower-cased: folded, it would be "Goblin",
/// and "my Goblin token" would name it.
fn name_key(name: &str) -> String {
    if name.contains("__") {
        name.to_lowercase()
    } else {
        crate::text::fold(name)
    }
}

/// Whether a word after `before` opens a sentence: nothing but spaces,
/// quotes, brackets and list marks before it since the text's start or a
/// full stop, question or exclamation mark or colon.
fn opens_sentence(before: &str) -> bool {
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || "\"'(“‘*-•".contains(c));
    before.is_empty() || before.ends_with(['.', '?', '!', ':'])
}

/// Whether `word`, followed by `after`, stands alone: a punctuation mark
/// or the text's end follows it ("Sorry, …", "Sorry. …", "Thanks!").
fn stands_alone(word: &str, after: &str) -> bool {
    let mark = |c: char| matches!(c, ',' | '.' | '!' | '?' | ';' | ':');
    word.ends_with(mark) || after.chars().next().is_none_or(mark)
}

/// The cards a question names, and near misses: (as typed, the card meant).
#[derive(Debug, Default)]
pub struct NamedCards<'a> {
    pub cards: Vec<&'a CardEntry>,
    pub near: Vec<(String, String)>,
}

/// A card name no list holds, with the closest names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCard {
    pub suggestions: Vec<String>,
}

/// An alias [`Cards::index`] dropped: the list of its card, the list of
/// the card holding it, and the warning.
struct Dropped {
    list: usize,
    holder: usize,
    warning: String,
    /// The card left out, when the card itself is (a look-alike), not
    /// only an alias of it.
    card: Option<String>,
}

impl Cards {
    /// Reads every card list; never fails. A card named again (by a later
    /// list, e.g. a server's) replaces the earlier one; an alias another
    /// card holds is dropped (`Cards::index`), said in `warnings`.
    pub fn build(lists: &[CardList]) -> Cards {
        let (mut cards, dropped, _) = Cards::read(lists);
        let dropped = dropped.into_iter().map(|d| {
            let file = &lists[d.list].manifest.file;
            format!("{file}: {}", d.warning)
        });
        cards.warnings.extend(dropped);
        cards
    }

    /// The aliases of `list` (a card list someone brings) that the card
    /// lists of its game already loaded (`known`) give another card, as
    /// [`Cards::build`] will drop them once it is added, and the aliases
    /// of those lists its cards' names take: the preview's warnings. An
    /// outside tester's card aliased "Iron Worker" took the shipped Iron
    /// Worker's name, with no word.
    /// Also the names of its cards left out (look-alikes of a card
    /// loaded before them), which its preview and stored list must not
    /// show.
    pub fn taken_aliases(known: &[CardList], list: &CardList) -> (Vec<String>, Vec<String>) {
        let lists: Vec<CardList> = known
            .iter()
            .filter(|l| l.game == list.game)
            .chain(std::iter::once(list))
            .cloned()
            .collect();
        let last = lists.len() - 1;
        let (_, dropped, notes) = Cards::read(&lists);
        let left_out = dropped
            .iter()
            .filter(|d| d.list == last)
            .filter_map(|d| d.card.clone())
            .collect();
        // What is dropped first: a preview shows its first warnings.
        let warnings = dropped
            .into_iter()
            .chain(notes)
            .filter(|d| d.list == last || d.holder == last)
            .map(|d| d.warning)
            .collect();
        (warnings, left_out)
    }

    /// The cards of every list, indexed, and the aliases dropped.
    fn read(lists: &[CardList]) -> (Cards, Vec<Dropped>, Vec<Dropped>) {
        let mut cards = Cards::default();
        // Each entry's list (the last to set it), and the entry of each
        // (game, name key): a card replaces only a card of its own name.
        let mut from: Vec<usize> = Vec::new();
        let mut names: HashMap<(String, String), usize> = HashMap::new();
        // The first entry of each (game, look-alike key), and what reading
        // left out (look-alikes) or said (replacements, preview only).
        let mut looks: HashMap<(String, String), usize> = HashMap::new();
        let (mut dropped, mut notes) = (Vec::new(), Vec::new());
        for (l, list) in lists.iter().enumerate() {
            match parse(&list.manifest.file, &list.text) {
                Ok(parsed) => {
                    let source = source_label(list);
                    for card in parsed.cards {
                        let key = (list.game.clone(), name_key(&card.name));
                        let entry = CardEntry {
                            game: list.game.clone(),
                            source: source.clone(),
                            card,
                        };
                        let look = (
                            list.game.clone(),
                            crate::text::skeleton_key(&entry.card.name),
                        );
                        let twin = look_alike(&cards.entries, &looks, &look, &entry.card.name);
                        if let (None, Some(j)) = (names.get(&key), twin) {
                            // Left out, as a game named so is refused.
                            let holder = &cards.entries[j];
                            dropped.push(Dropped {
                                list: l,
                                holder: from[j],
                                warning: format!(
                                    "card '{}' reads as the card '{}' ({}) but is not it (a look-alike letter or hidden character); the card is left out",
                                    entry.card.name, holder.card.name, holder.source
                                ),
                                card: Some(entry.card.name.clone()),
                            });
                            continue;
                        }
                        match names.get(&key) {
                            Some(&i) => {
                                if from[i] != l {
                                    notes.push(Dropped {
                                        list: l,
                                        holder: from[i],
                                        warning: format!(
                                            "card '{}' replaces the card '{}' ({})",
                                            entry.card.name,
                                            cards.entries[i].card.name,
                                            cards.entries[i].source
                                        ),
                                        card: None,
                                    });
                                }
                                let old = std::mem::replace(&mut cards.entries[i], entry);
                                keep_aliases(&mut cards.entries[i].card, old.card.aliases);
                                from[i] = l;
                            }
                            None => {
                                looks.entry(look).or_insert(cards.entries.len());
                                names.insert(key, cards.entries.len());
                                cards.entries.push(entry);
                                from.push(l);
                            }
                        }
                    }
                    let w = parsed.warnings.into_iter();
                    cards
                        .warnings
                        .extend(w.map(|w| format!("{}: {w}", list.manifest.file)));
                }
                Err(e) => cards
                    .warnings
                    .push(format!("{}: left out: {e}", list.manifest.file)),
            }
        }
        dropped.extend(cards.index(&from));
        for ((game, name), &i) in &cards.by_name {
            let key = (game.clone(), name.chars().count());
            cards
                .by_length
                .entry(key)
                .or_default()
                .push((name.clone(), i));
        }
        (cards, dropped, notes)
    }

    /// Fills `by_name`: every card's name first, then the aliases, list by
    /// list (`from`: each entry's list). An alias that is another card's
    /// name, or an alias of a card of an earlier list, is dropped from its
    /// card, so that lookups, autocomplete and "also called" agree: a
    /// name always finds its own card (as a list's own aliases are
    /// checked by `parse::unique_names`, across lists here).
    fn index(&mut self, from: &[usize]) -> Vec<Dropped> {
        let key = |game: &str, name: &str| (game.to_string(), name_key(name));
        for (i, e) in self.entries.iter().enumerate() {
            self.by_name.insert(key(&e.game, &e.card.name), i);
        }
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| from[i]);
        let mut dropped = Vec::new();
        for i in order {
            let aliases = std::mem::take(&mut self.entries[i].card.aliases);
            let mut kept = Vec::with_capacity(aliases.len());
            for alias in aliases {
                let k = key(&self.entries[i].game, &alias);
                match self.by_name.get(&k).copied() {
                    Some(j) if j != i && !k.1.is_empty() => {
                        dropped.push(self.dropped(i, j, &alias, from));
                        continue;
                    }
                    None if !k.1.is_empty() => {
                        self.by_name.insert(k, i);
                    }
                    _ => {}
                }
                kept.push(alias);
            }
            self.entries[i].card.aliases = kept;
        }
        dropped
    }

    /// Entry `i`'s alias, held by entry `j`, as a warning.
    fn dropped(&self, i: usize, j: usize, alias: &str, from: &[usize]) -> Dropped {
        let (card, holder) = (&self.entries[i], &self.entries[j]);
        let what = match name_key(&holder.card.name) == name_key(alias) {
            true => "the name of",
            false => "an alias of",
        };
        Dropped {
            list: from[i],
            holder: from[j],
            warning: format!(
                "card '{}': its alias '{alias}' is already {what} the card '{}' ({}); the alias is dropped",
                card.card.name, holder.card.name, holder.source
            ),
            card: None,
        }
    }

    /// The cards a question names (by name or alias, case and punctuation
    /// ignored, longest name first, each once; `Spans::names_card` for
    /// names made of common words), and "did you mean" for a capitalised
    /// name no list holds but one is close to (at most 2 edits; 1 for names
    /// under 8 letters). `word_use` tells how each word stands beside the
    /// rules. Common words only are no misspelt name: players capitalise
    /// the rules' own terms ("Commander" is not "Commandeer", "Double
    /// Strike" not "Double Stroke", "Main Actions" not "Main Action"), at
    /// the cost of "Lighting Bolt", whose words the rules use too.
    pub fn named_in(
        &self,
        question: &str,
        game: Option<&str>,
        word_use: impl Fn(&str) -> WordUse,
    ) -> NamedCards<'_> {
        // Each word with its byte offset in the question.
        let mut words: Vec<(usize, &str)> = Vec::new();
        let mut start = 0;
        for (at, c) in question.char_indices() {
            if c.is_whitespace() || matches!(c, ',' | '?' | '!' | ';' | '(' | ')' | '"') {
                words.push((start, &question[start..at]));
                start = at + c.len_utf8();
            }
        }
        words.push((start, &question[start..]));
        words.retain(|(_, w)| !crate::text::fold(w).is_empty());
        let spans = Spans {
            folded: words.iter().map(|(_, w)| crate::text::fold(w)).collect(),
            capital: words
                .iter()
                .map(|(_, w)| {
                    w.chars()
                        .find(|c| c.is_alphanumeric())
                        .is_some_and(char::is_uppercase)
                })
                .collect(),
            uses: words.iter().map(|(_, w)| word_use(w)).collect(),
            opens: words
                .iter()
                .map(|&(at, _)| opens_sentence(&question[..at]))
                .collect(),
            alone: words
                .iter()
                .map(|&(at, w)| stands_alone(w, &question[at + w.len()..]))
                .collect(),
            words: words.into_iter().map(|(_, w)| w).collect(),
        };
        let mut used = vec![false; spans.words.len()];
        let mut games: Vec<&str> = self.of_game(game).map(|e| e.game.as_str()).collect();
        games.sort_unstable();
        games.dedup();
        let cards = self.exact_in(&spans, &games, &mut used);
        let near = self.near_in(&spans, &games, &mut used);
        NamedCards { cards, near }
    }

    /// Names and aliases written in full among the cards of `games`,
    /// longest span first.
    fn exact_in(&self, spans: &Spans, games: &[&str], used: &mut [bool]) -> Vec<&CardEntry> {
        let mut out: Vec<&CardEntry> = Vec::new();
        for (span, key) in self.spelt_names(spans, games) {
            if used[span.clone()].iter().any(|&u| u) {
                continue;
            }
            let hit = games
                .iter()
                .filter_map(|g| self.by_name.get(&(g.to_string(), key.clone())))
                .copied()
                .min();
            let printed = |i: usize| {
                let card = &self.entries[i].card;
                let mut names = card.names();
                names
                    .find(|n| crate::text::fold(n) == key)
                    .unwrap_or(&card.name)
            };
            // A one-word span typed as the card's own name (case aside).
            let own = |i: usize| {
                let typed = spans.words[span.start].trim_matches(|c: char| !c.is_alphanumeric());
                span.len() == 1 && typed.to_lowercase() == self.entries[i].card.name.to_lowercase()
            };
            if let Some(i) = hit.filter(|&i| spans.names_card(span.clone(), printed(i), own(i))) {
                used[span].iter_mut().for_each(|u| *u = true);
                if !out.iter().any(|c| std::ptr::eq(*c, &self.entries[i])) {
                    out.push(&self.entries[i]);
                }
            }
        }
        out
    }

    /// Every span of the question that spells a name or alias of the cards
    /// of `games` (with its key), longest first, then in the question's
    /// order. Of any length: a span is extended word by word only while
    /// some name starts with it, so the cost is the question's words times
    /// the words of the names they begin, not a fixed span length (six
    /// words left "Golem Variant Number 03 With An Unusually Verbose Title
    /// Indeed Friend" unrecognised; found by an outside tester).
    fn spelt_names(&self, spans: &Spans, games: &[&str]) -> Vec<(std::ops::Range<usize>, String)> {
        let n = spans.folded.len();
        let mut found = Vec::new();
        for start in 0..n {
            let mut key = String::new();
            for end in start..n {
                key.push_str(&spans.folded[end]);
                let (mut begun, mut whole) = (false, false);
                for g in games {
                    let from = (g.to_string(), key.clone());
                    if let Some(((game, name), _)) = self.by_name.range(from..).next()
                        && game == g
                        && name.starts_with(&key)
                    {
                        begun = true;
                        whole |= *name == key;
                    }
                }
                if whole {
                    found.push((start..end + 1, key.clone()));
                }
                if !begun {
                    break;
                }
            }
        }
        found.sort_by_key(|(span, _)| (std::cmp::Reverse(span.len()), span.start));
        found
    }

    /// Capitalised spans close to a card's name: (as typed, the card),
    /// in the question's order. Where spans overlap, the closest wins, then
    /// the longest ("can I Counterspel": "Counterspel", not "I Counterspel").
    fn near_in(&self, spans: &Spans, games: &[&str], used: &mut [bool]) -> Vec<(String, String)> {
        let mut tried: Vec<_> = spans
            .all(4)
            .into_iter()
            .filter(|span| {
                !used[span.clone()].iter().any(|&u| u)
                    && spans.folded[span.clone()]
                        .iter()
                        .map(String::len)
                        .sum::<usize>()
                        >= 5
                    && spans.capitalised(span.clone())
                    && !spans.common(span.clone())
            })
            .collect();
        // A misspelt name is most often one word: those are tried first.
        tried.sort_by_key(|span| span.len());
        let mut found = Vec::new();
        for span in tried.into_iter().take(MAX_NEAR_SPANS) {
            let key: String = spans.folded[span.clone()].concat();
            if let Some((d, name)) = self.nearest(&key, games)
                && d > 0
            {
                found.push((d, span, name));
            }
        }
        found.sort_by_key(|(d, span, _)| (*d, std::cmp::Reverse(span.len()), span.start));
        let mut out = Vec::new();
        for (_, span, name) in found {
            if !used[span.clone()].iter().any(|&u| u) {
                used[span.clone()].iter_mut().for_each(|u| *u = true);
                out.push((span.start, spans.words[span].join(" "), name.to_string()));
            }
        }
        out.sort();
        out.into_iter()
            .map(|(_, typed, name)| (typed, name))
            .collect()
    }

    /// The card whose name or alias is nearest a folded key of 5 letters or
    /// more among the cards of `games`, within 2 edits (1 under 8
    /// letters): (edits, card name).
    fn nearest(&self, key: &str, games: &[&str]) -> Option<(usize, &str)> {
        let len = key.chars().count();
        if len < 5 {
            return None;
        }
        let max = if len >= 8 { 2 } else { 1 };
        let mut best: Option<(usize, &str)> = None;
        for &g in games {
            for n in len - max..=len + max {
                let Some(names) = self.by_length.get(&(g.to_string(), n)) else {
                    continue;
                };
                for (name, i) in names {
                    if let Some(d) = crate::text::edit_distance(key, name, max) {
                        let hit = (d, self.entries[*i].card.name.as_str());
                        best = Some(best.map_or(hit, |b| b.min(hit)));
                    }
                }
            }
        }
        best
    }

    /// The cards of a game (all games: `None`).
    pub fn of_game<'a>(&'a self, game: Option<&'a str>) -> impl Iterator<Item = &'a CardEntry> {
        self.entries
            .iter()
            .filter(move |e| game.is_none_or(|g| e.game == g))
    }

    /// The card with this name or alias (case and punctuation ignored);
    /// unknown: the closest names.
    pub fn find(&self, name: &str, game: Option<&str>) -> Result<&CardEntry, UnknownCard> {
        let key = name_key(name);
        // One lookup with a game; without, each game's (the first listed).
        let exact = match game {
            Some(g) => self.by_name.get(&(g.to_string(), key.clone())).copied(),
            None => self
                .by_name
                .iter()
                .filter(|((_, n), _)| *n == key)
                .map(|(_, &i)| i)
                .min(),
        };
        if let Some(i) = exact {
            return Ok(&self.entries[i]);
        }
        // A long name as a button or an autocomplete value carries it.
        if crate::text::looks_like_short_ref(name)
            && let Some(e) = self.entries.iter().find(|e| {
                game.is_none_or(|g| e.game == g) && crate::text::is_short_ref_of(name, &e.card.name)
            })
        {
            return Ok(e);
        }
        Err(UnknownCard {
            suggestions: self.closest(&key, game),
        })
    }

    /// Up to three names holding the typed word whole ("Emrakul" → "Emrakul,
    /// the Aeons Torn"; those it starts first, then the shortest), else within a small edit distance,
    /// else the best fuzzy matches.
    fn closest(&self, key: &str, game: Option<&str>) -> Vec<String> {
        if key.chars().count() >= 3 {
            let holds = |n: &str| n.split_whitespace().any(|w| crate::text::fold(w) == key);
            let mut whole: Vec<&str> = self
                .of_game(game)
                .filter(|e| e.card.names().any(holds))
                .map(|e| e.card.name.as_str())
                .collect();
            let first = |n: &str| n.split_whitespace().next().map(crate::text::fold);
            whole.sort_by_key(|n| (first(n).as_deref() != Some(key), n.len(), *n));
            whole.dedup();
            if !whole.is_empty() {
                return whole.into_iter().take(3).map(str::to_string).collect();
            }
        }
        let mut near: Vec<(usize, &str)> = self
            .of_game(game)
            .filter_map(|e| {
                let d = e
                    .card
                    .names()
                    .filter_map(|n| crate::text::edit_distance(key, &crate::text::fold(n), 3))
                    .min()?;
                Some((d, e.card.name.as_str()))
            })
            .collect();
        near.sort();
        let mut out: Vec<String> = near.iter().take(3).map(|(_, n)| n.to_string()).collect();
        if out.is_empty() {
            out = self
                .complete(key, game, 3)
                .into_iter()
                .map(|e| e.card.name.clone())
                .collect();
        }
        out
    }

    /// Fuzzy completion of a card name or alias (at most `limit`, ≤ 25),
    /// best first.
    pub fn complete<'a>(
        &'a self,
        partial: &str,
        game: Option<&'a str>,
        limit: usize,
    ) -> Vec<&'a CardEntry> {
        let keys = self.keys.get_or_init(|| {
            let joined: Vec<String> = self
                .entries
                .iter()
                .map(|e| e.card.names().collect::<Vec<_>>().join(" "))
                .collect();
            crate::search::Keys::new(joined.iter().map(String::as_str))
        });
        let limit = limit.min(crate::search::MAX_SUGGESTIONS);
        let in_game = |i: usize| game.is_none_or(|g| self.entries[i].game == g);
        keys.rank(partial, limit, in_game)
            .into_iter()
            .map(|i| &self.entries[i])
            .collect()
    }
}

/// A card a board named without (some of) its stats, filled from the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Filled {
    /// The object's path in the board (`players[1].units[0]`).
    pub path: String,
    pub card: String,
    pub source: String,
    /// The stats set, as `(name, value)`.
    pub stats: Vec<(String, serde_json::Value)>,
    /// The card's text, which filling does not apply.
    pub text: String,
}

impl Filled {
    /// Which stats came from the card list.
    pub fn note(&self) -> String {
        let stats: Vec<String> = self
            .stats
            .iter()
            .map(|(k, v)| format!("{k} {}", Card::stat_text(v)))
            .collect();
        format!(
            "{}: {} taken from the card list ({}), as the board does not state them",
            self.card,
            stats.join(", "),
            self.source
        )
    }

    /// That the card's text is not applied from the list (None: no text).
    pub fn text_note(&self) -> Option<String> {
        (!self.text.is_empty()).then(|| {
            format!(
                "{}: its card text “{}” is not applied from the card list; only what the board states is",
                self.card, self.text
            )
        })
    }
}

/// Fills the stats a board document leaves out from the game's card list:
/// every object whose `name` is a card's name (not an alias: a player may
/// be called like a card's alias) gets the card's stats it does not state.
/// What the board states always wins. Plain data in, data out.
pub fn fill_stats(doc: &mut serde_json::Value, cards: &Cards, game: &str) -> Vec<Filled> {
    let mut filled = Vec::new();
    fill_at(doc, cards, game, String::new(), &mut filled);
    filled
}

fn fill_at(
    value: &mut serde_json::Value,
    cards: &Cards,
    game: &str,
    path: String,
    out: &mut Vec<Filled>,
) {
    use serde_json::Value;
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                fill_at(item, cards, game, format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            let named = map.get("name").and_then(Value::as_str).and_then(|n| {
                cards
                    .find(n, Some(game))
                    .ok()
                    .filter(|e| crate::text::fold(&e.card.name) == crate::text::fold(n))
            });
            if let Some(entry) = named {
                let missing: Vec<(String, Value)> = entry
                    .card
                    .stats
                    .iter()
                    .filter(|(k, _)| !map.contains_key(k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if !missing.is_empty() {
                    for (k, v) in &missing {
                        map.insert(k.clone(), v.clone());
                    }
                    out.push(Filled {
                        path: path.clone(),
                        card: entry.card.name.clone(),
                        source: entry.source.clone(),
                        stats: missing,
                        text: entry.card.text.clone(),
                    });
                }
            }
            for (k, v) in map.iter_mut() {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                fill_at(v, cards, game, sub, out);
            }
        }
        _ => {}
    }
}

/// The aliases of the card `card` replaces that it does not give, after
/// its own: an errata'd card seldom repeats them, and players go on
/// calling it so ("Coal" for a server's Coal Roarkwin).
fn keep_aliases(card: &mut Card, old: Vec<String>) {
    for alias in old {
        let key = name_key(&alias);
        if !card.names().any(|n| name_key(n) == key) {
            card.aliases.push(alias);
        }
    }
}

/// Adds to a card list's preview the aliases its game's loaded cards
/// already hold ([`Cards::taken_aliases`]); any other import is left as
/// it is. Called after `Import::new` (the child reads the list alone).
pub fn warn_taken_aliases(
    known: &crate::corpus::Corpus,
    import: &mut crate::corpus::import::Import,
) {
    if import.preview.kind != crate::corpus::DocumentKind::Cards {
        return;
    }
    let doc = import.document();
    let list = CardList {
        game: import.game.manifest.game.clone(),
        manifest: doc.manifest.clone(),
        text: doc.text.clone(),
    };
    let (taken, left_out) = Cards::taken_aliases(&known.card_lists, &list);
    import.preview.warnings.extend(taken);
    if left_out.is_empty() {
        return;
    }
    // What is stored and listed is what loads: the preview counted and
    // listed a look-alike its own warning said was left out, and `rules
    // show` listed it from the stored list.
    let Ok(mut cards) = serde_json::from_str::<Vec<Card>>(&list.text) else {
        return;
    };
    cards.retain(|c| !left_out.contains(&c.name));
    if let Ok(text) = serde_json::to_string_pretty(&cards) {
        import.game.documents[0].text = text;
        import.preview.cards = cards.iter().map(item).collect();
    }
}

/// A card as a preview lists it: "Ice Golem (Unit)".
fn item(c: &Card) -> String {
    match c.card_type.as_str() {
        "" => c.name.clone(),
        t => format!("{} ({t})", c.name),
    }
}

/// The entry whose name reads as `name` (the same [`crate::text::skeleton_key`],
/// `look`) but is another name, when either holds a letter outside ASCII:
/// a Cyrillic о in "Irоn Worker" (two ASCII names such as "Burn" and "Bum"
/// are two cards, whatever TR39 makes of "rn").
fn look_alike(
    entries: &[CardEntry],
    looks: &HashMap<(String, String), usize>,
    look: &(String, String),
    name: &str,
) -> Option<usize> {
    let &j = looks.get(look)?;
    let other = &entries[j].card.name;
    let differ = name_key(other) != name_key(name);
    (differ && !(name.is_ascii() && other.is_ascii())).then_some(j)
}

/// Where a list's cards come from, as replies show it.
fn source_label(list: &CardList) -> String {
    match list.manifest.version.trim() {
        "" => list.manifest.title.clone(),
        v => format!("{} ({v})", list.manifest.title),
    }
}

/// The cards of a stored card list (its JSON, as [`import_to`] wrote it),
/// as its preview listed them: `rules show` of the list.
pub fn stored_names(text: &str) -> Option<Vec<String>> {
    let cards: Vec<Card> = serde_json::from_str(text).ok()?;
    Some(cards.iter().map(item).collect())
}

/// Reads a card list's bytes for `target`: the part of a card-list import
/// that reads untrusted input (run in a child process by `sandbox`).
pub fn import_to(
    target: &crate::corpus::import::Target,
    bytes: &[u8],
) -> Result<crate::corpus::import::Converted, crate::corpus::import::ImportError> {
    let file = &target.file_name;
    let text = crate::corpus::import::data_text(file, bytes)?;
    let bad = |reason: crate::text::Words| crate::corpus::import::ImportError::BadCards {
        file: file.clone(),
        reason,
    };
    let parsed = parse(file, &text).map_err(|e| bad(e.words()))?;
    let items = parsed.cards.iter().map(item).collect();
    // Stored as JSON, whatever it came as: one form to read back.
    let text = serde_json::to_string_pretty(&parsed.cards)
        .map_err(|e| bad(crate::text::Words::given(e.to_string())))?;
    let data = crate::corpus::import::DataDocument {
        text,
        ext: "json",
        items,
        warnings: parsed.warnings,
    };
    Ok(crate::corpus::import::data_to(target, bytes, data))
}

#[cfg(test)]
mod import_tests {
    #[test]
    fn a_card_list_saved_as_unicode_text_is_read() {
        // Excel's "Unicode Text": UTF-16 little-endian with its byte-order
        // mark, tab-separated; refused before as "a binary file".
        let text = "name\ttype\tcost\ttext\r\nIce Golem\tUnit\t2\tUnit Guard\r\nÉclair\tSpell\t1\tDeals 1 damage.\r\n";
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let target = crate::corpus::import::target(
            &crate::corpus::Corpus::build(Vec::new()),
            &crate::corpus::import::ImportRequest {
                file_name: "cards.csv",
                bytes: &bytes,
                game: "Heron",
                kind: crate::corpus::DocumentKind::Cards,
                title: None,
            },
        )
        .unwrap();
        let converted = super::import_to(&target, &bytes).unwrap();
        assert_eq!(
            converted.preview.cards,
            ["Ice Golem (Unit)", "Éclair (Spell)"]
        );
    }
}
