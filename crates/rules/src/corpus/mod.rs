//! The rule corpus: games, their documents, and every citable passage.
//!
//! This module is I/O-free. The application crate's `arbiter::load` reads files and hands the text
//! here; [`Corpus::build`] never fails: a document that does not parse cleanly
//! is indexed as well as possible and the problems come back as warnings.
//!
//! Passage ids are stable and typable (see `docs/RULE_IDS.md`):
//! `game:` followed by dot-separated segments: heading slugs, item numbers,
//! or a numbered document's own rule numbers (`ashes:attack-a-unit.4.2`,
//! `magewinds:13.4`, `mtg:702.19b`).

mod builder;
pub mod clean;
mod emit;
pub mod import;
pub mod manifest;
mod markdown;
mod numbered;
mod refs;
pub mod slang;

use std::collections::HashMap;

use serde::Serialize;

pub use manifest::{DocumentFormat, DocumentKind, DocumentManifest, GameManifest, Glossary};

/// Index of a passage in [`Corpus::passages`].
pub type PassageIdx = usize;

/// One document's text, already read, with its manifest entry.
#[derive(Debug, Clone)]
pub struct SourceDocument {
    pub manifest: DocumentManifest,
    pub text: String,
}

/// One game's manifest, glossary and document texts, already read.
#[derive(Debug, Clone)]
pub struct SourceGame {
    pub manifest: GameManifest,
    pub glossary: Glossary,
    pub documents: Vec<SourceDocument>,
}

/// What a passage is in its document's tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassageKind {
    /// The document itself; holds any preamble text.
    Document,
    /// A heading (markdown heading or numbered section title).
    Section,
    /// A numbered or bulleted item, or a numbered rule.
    Item,
    /// An example or hint block attached to a section.
    Example,
    /// A glossary entry.
    Glossary,
}

/// A cross-reference found in a passage.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CrossRef {
    /// The text that made the reference ("See 15.0 – Movement", "Active Player").
    pub label: String,
    /// The passage id it points to, when that passage is indexed.
    pub target: Option<String>,
}

/// A citable unit of rules text.
#[derive(Debug, Clone, Serialize)]
pub struct Passage {
    pub id: String,
    pub game: String,
    /// Index into [`Game::documents`] of this passage's game.
    pub document: usize,
    pub kind: PassageKind,
    /// Short human title: the heading, the item's lead phrase, or its number.
    pub title: String,
    /// Heading path from the document down to (not including) this passage:
    /// shared by siblings, and each heading's text shared by every path
    /// through it.
    pub path: std::sync::Arc<[std::sync::Arc<str>]>,
    /// The passage's own text, verbatim but cleaned of markup.
    pub text: String,
    #[serde(skip)]
    pub parent: Option<PassageIdx>,
    #[serde(skip)]
    pub children: Vec<PassageIdx>,
    pub refs: Vec<CrossRef>,
}

/// A document as indexed.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    pub slug: String,
    pub title: String,
    pub version: String,
    pub source: String,
    pub licence: String,
    pub kind: DocumentKind,
    /// The document's root passage.
    #[serde(skip)]
    pub root: PassageIdx,
    /// Added by a server (`/rules add`), not shipped: its answers name
    /// where they come from.
    #[serde(skip)]
    pub from_server: bool,
}

/// A game as indexed.
#[derive(Debug, Clone, Serialize)]
pub struct Game {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub documents: Vec<Document>,
    #[serde(skip)]
    pub glossary: Glossary,
}

/// A problem found while indexing. Never fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    pub game: String,
    pub document: String,
    pub line: usize,
    pub message: String,
    /// For an id given twice: the id and the one its repeat got (`g:2`,
    /// `g:2~2`), so a repeat left out of the index (an empty heading) is
    /// not named as if it were there.
    #[serde(skip)]
    pub duplicate: Option<(String, String)>,
    #[serde(skip)]
    pub kind: WarningKind,
}

/// What a warning is about: a preview lists the first few of a kind and
/// counts the rest (a hostile document's preview listed 17,190 lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WarningKind {
    /// An id given twice.
    DuplicateId,
    /// A passage too long for one, split into parts.
    LongPassage,
    /// A line starting like a numbered rule read as the text above it.
    NumberAsText,
    #[default]
    Other,
}

impl WarningKind {
    /// The kind in words, for "… and 17,170 more duplicate passage ids".
    pub fn plural(self) -> &'static str {
        match self {
            WarningKind::DuplicateId => "duplicate passage ids",
            WarningKind::LongPassage => "passages split into parts",
            WarningKind::NumberAsText => "numbered lines read as text",
            WarningKind::Other => "warnings of this kind",
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}:{}: {}",
            self.game, self.document, self.line, self.message
        )
    }
}

/// Every indexed game and passage.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    pub games: Vec<Game>,
    pub passages: Vec<Passage>,
    pub warnings: Vec<Warning>,
    /// Passage indices sorted by id.
    by_id: Vec<u32>,
    /// Documents of kind `cards`, in load order: data, not passages (read
    /// by `cards::Cards::build`).
    pub card_lists: Vec<CardList>,
    /// Every data document (card list, slang list) as (game, slug): they
    /// have no passages, yet their ids are taken (an upload's slug never
    /// equals one, so it never replaces one unasked).
    pub data_documents: Vec<(String, String)>,
    /// Headings left out for holding no text and no section with text
    /// (their titles, in document order).
    pub empty_headings: Vec<String>,
}

/// A card list as loaded: its game, manifest entry and text.
#[derive(Debug, Clone)]
pub struct CardList {
    pub game: String,
    pub manifest: DocumentManifest,
    pub text: String,
}

impl Corpus {
    /// Parses every document of every game. Never fails.
    pub fn build(sources: Vec<SourceGame>) -> Corpus {
        builder::build(sources)
    }

    /// The passage with exactly this id.
    pub fn get(&self, id: &str) -> Option<&Passage> {
        self.index_of(id).map(|i| &self.passages[i])
    }

    /// Whether `root` is a passage id, or the start of one below it
    /// (`root.…`, or a duplicate's `root~2`).
    pub fn has_id_under(&self, root: &str) -> bool {
        let from = self
            .by_id
            .partition_point(|&i| self.passages[i as usize].id.as_str() < root);
        self.by_id[from..]
            .iter()
            .map(|&i| self.passages[i as usize].id.as_str())
            .take_while(|id| id.starts_with(root))
            .any(|id| id.len() == root.len() || id[root.len()..].starts_with(['.', '~']))
    }

    pub fn index_of(&self, id: &str) -> Option<PassageIdx> {
        self.by_id
            .binary_search_by(|&i| self.passages[i as usize].id.as_str().cmp(id))
            .ok()
            .map(|k| self.by_id[k] as PassageIdx)
    }

    pub fn game(&self, id: &str) -> Option<&Game> {
        self.games.iter().find(|g| g.id == id)
    }

    /// Finds a game by id, name or alias, ignoring case and punctuation.
    pub fn resolve_game(&self, name: &str) -> Option<&Game> {
        if !name.chars().any(char::is_alphanumeric) {
            return None;
        }
        let same = |other: &str| crate::text::fold_eq(name, other);
        self.games
            .iter()
            .find(|g| same(&g.id) || same(&g.name) || g.aliases.iter().any(|a| same(a)))
    }

    /// Resolves an id as a user may type it: any case, a game alias as the
    /// prefix (`GA:general-rules.1`), or no prefix when the rest is unique.
    pub fn resolve_id(&self, typed: &str) -> Option<&Passage> {
        let typed = typed.trim();
        // No id holds a space: a question is not looked up passage by passage.
        if typed.is_empty() || typed.contains(char::is_whitespace) {
            return None;
        }
        if let Some(p) = self.get(typed) {
            return Some(p);
        }
        let lower = typed.to_lowercase();
        if let Some(p) = self.get(&lower) {
            return Some(p);
        }
        if crate::text::looks_like_short_ref(typed) {
            return self
                .passages
                .iter()
                .find(|p| crate::text::is_short_ref_of(typed, &p.id));
        }
        if let Some((game, rest)) = lower.split_once(':') {
            let game = self.resolve_game(game)?;
            return self.get(&format!("{}:{}", game.id, rest));
        }
        let mut found = self
            .passages
            .iter()
            .filter(|p| p.id.split_once(':').is_some_and(|(_, rest)| rest == lower));
        match (found.next(), found.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }

    /// The passages a rule number names ("13.4", "704.5j", "4.1"): those
    /// whose id's [`number_tail`] it is, in `game` when given. A question
    /// citing a rule by number types it as the rulebook prints it, without
    /// the headings' slugs before it (`ti4:action-phase.4.1` is "4.1").
    pub fn numbered(&self, number: &str, game: Option<&str>) -> Vec<PassageIdx> {
        if !is_rule_number(number) {
            return Vec::new();
        }
        let number = number.to_lowercase();
        self.passages
            .iter()
            .enumerate()
            .filter(|(_, p)| game.is_none_or(|g| p.game == g))
            .filter(|(_, p)| number_tail(&p.id) == Some(number.as_str()))
            .map(|(i, _)| i)
            .collect()
    }

    /// The passage and all its descendants, in document order.
    pub fn subtree(&self, idx: PassageIdx) -> Vec<PassageIdx> {
        let mut out = vec![idx];
        let mut i = 0;
        while i < out.len() {
            let kids = &self.passages[out[i]].children;
            out.splice(i + 1..i + 1, kids.iter().copied());
            i += 1;
        }
        out
    }

    /// Depth of a passage below its document root.
    pub fn depth(&self, mut idx: PassageIdx) -> usize {
        let mut d = 0;
        while let Some(p) = self.passages[idx].parent {
            d += 1;
            idx = p;
        }
        d
    }

    /// For each passage of a game's rules, the passages of its other
    /// documents (FAQ, errata, house rules…) that name it: by a reference the
    /// index resolved ("see rule 702.19b"), by its id written out
    /// (`ti4:action-phase.4.1`), or, in an errata, FAQ or house rules, by
    /// the rule number the passage leads with ([`lead_numbers`]: "## 1.1
    /// Opening hand", "Rule 1.1 now reads: …"). Each list is in document
    /// order. A document's own text counts as its passages' do: an errata
    /// of one paragraph, no heading over it, is one passage, its root.
    pub fn amendments(&self) -> HashMap<PassageIdx, Vec<PassageIdx>> {
        self.amendments_where(|_| true)
    }

    /// [`Corpus::amendments`] of one game's rules only: what a preview
    /// compares an upload's amendments with.
    pub fn game_amendments(&self, game: &str) -> HashMap<PassageIdx, Vec<PassageIdx>> {
        self.amendments_where(|p| p.game == game)
    }

    fn amendments_where(
        &self,
        keep: impl Fn(&Passage) -> bool,
    ) -> HashMap<PassageIdx, Vec<PassageIdx>> {
        let rules = |p: &Passage| self.document_of(p).is_some_and(|d| d.kind.is_rules());
        let mut out: HashMap<PassageIdx, Vec<PassageIdx>> = HashMap::new();
        let mut table: Option<RuleNumbers<'_>> = None;
        for (i, p) in self.passages.iter().enumerate() {
            if p.text.is_empty() || !keep(p) || rules(p) {
                continue;
            }
            let resolved = p.refs.iter().filter_map(|r| r.target.as_deref());
            let by_id = resolved
                .chain(written_ids(&p.text))
                .filter_map(|target| self.index_of(target));
            let leads = match self.document_of(p) {
                Some(d) if d.kind.amends_by_number() => lead_numbers(p),
                _ => Vec::new(),
            };
            let numbers = match leads.is_empty() {
                true => None,
                false => Some(table.get_or_insert_with(|| self.rule_numbers())),
            };
            let by_number = leads
                .into_iter()
                .filter_map(|n| numbers.as_ref()?.find(&p.game, n));
            for t in by_id.chain(by_number) {
                let amended = &self.passages[t];
                if amended.game == p.game && rules(amended) {
                    // Passages come in order: a repeat is the last one.
                    let list = out.entry(t).or_default();
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
        out
    }

    /// The rules documents' passages by the rule number their ids end
    /// with ([`number_tail`]), built once for many lookups: an errata of
    /// 50,000 passages looked each of its numbers up among every passage.
    pub fn rule_numbers(&self) -> RuleNumbers<'_> {
        let mut by_tail: HashMap<(&str, String), Vec<PassageIdx>> = HashMap::new();
        for (i, p) in self.passages.iter().enumerate() {
            let Some(tail) = number_tail(&p.id) else {
                continue;
            };
            if self.document_of(p).is_some_and(|d| d.kind.is_rules()) {
                by_tail
                    .entry((p.game.as_str(), tail.to_lowercase()))
                    .or_default()
                    .push(i);
            }
        }
        RuleNumbers {
            corpus: self,
            by_tail,
        }
    }

    /// What a passage of a document not yet added names as the rules it
    /// amends, for a preview to look up in the game's loaded rules
    /// ([`Corpus::named_rule`]): ids written out, the rules its references
    /// that its own document does not hold would resolve to
    /// (`game:number`), and, in an errata, FAQ or house rules, the rule
    /// numbers it leads with. Read where the document is (a conversion's
    /// child process); looked up where the game is.
    pub fn rule_names(&self, i: PassageIdx) -> Vec<String> {
        let p = &self.passages[i];
        if p.text.is_empty() {
            return Vec::new();
        }
        let unresolved: Vec<&str> = p
            .refs
            .iter()
            .filter(|r| r.target.is_none())
            .map(|r| r.label.as_str())
            .collect();
        let mut out: Vec<String> = written_ids(&p.text).map(String::from).collect();
        for r in refs::extract(&p.text) {
            if let refs::RawRef::Number { label, number } = r
                && unresolved.contains(&label.as_str())
            {
                out.push(format!("{}:{number}", p.game));
            }
        }
        if self
            .document_of(p)
            .is_some_and(|d| d.kind.amends_by_number())
        {
            out.extend(lead_numbers(p).into_iter().map(String::from));
        }
        out.dedup();
        out
    }

    /// The rule of `game` a [`Corpus::rule_names`] name is: an id (it
    /// holds a `:`) of a rules passage of the game, or a rule number
    /// ([`RuleNumbers::find`]).
    pub fn named_rule(
        &self,
        numbers: &RuleNumbers<'_>,
        game: &str,
        name: &str,
    ) -> Option<PassageIdx> {
        if !name.contains(':') {
            return numbers.find(game, name);
        }
        let i = self.index_of(name)?;
        let p = &self.passages[i];
        (p.game == game && self.document_of(p).is_some_and(|d| d.kind.is_rules())).then_some(i)
    }

    /// The document a passage belongs to.
    pub fn document_of(&self, p: &Passage) -> Option<&Document> {
        self.game(&p.game).and_then(|g| g.documents.get(p.document))
    }
}

/// A corpus's rules passages by rule number ([`Corpus::rule_numbers`]).
pub struct RuleNumbers<'a> {
    corpus: &'a Corpus,
    by_tail: HashMap<(&'a str, String), Vec<PassageIdx>>,
}

impl RuleNumbers<'_> {
    /// The rule of `game`'s rules documents a rule number names: the one
    /// whose id it is (`kitchen-table:1.1`), else the only one whose id
    /// ends with it (`ti4:action-phase.4.1` for "4.1"). `None` when it
    /// names none, or several (which one would be a guess).
    pub fn find(&self, game: &str, number: &str) -> Option<PassageIdx> {
        let corpus = self.corpus;
        let rules = |&i: &PassageIdx| {
            let p = &corpus.passages[i];
            corpus.document_of(p).is_some_and(|d| d.kind.is_rules())
        };
        if let Some(i) = corpus.index_of(&format!("{game}:{number}")).filter(rules) {
            return Some(i);
        }
        if !is_rule_number(number) {
            return None;
        }
        match self.ending_with(game, number) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The rules of `game` whose ids end with a rule number, in order.
    pub fn ending_with<'s>(&'s self, game: &'s str, number: &str) -> &'s [PassageIdx] {
        self.by_tail
            .get(&(game, number.to_lowercase()))
            .map_or(&[], Vec::as_slice)
    }

    /// The rule numbers of `game` one edit from `number` ("1.3" for
    /// "1.2", "2.1" for "21.1"), at most `max`, in order: a preview's
    /// did-you-mean for a number that names no rule.
    pub fn near(&self, game: &str, number: &str, max: usize) -> Vec<&str> {
        let number = number.to_lowercase();
        let mut out: Vec<(PassageIdx, &str)> = self
            .by_tail
            .iter()
            .filter(|((g, tail), _)| *g == game && *tail != number)
            .filter(|((_, tail), _)| crate::text::edit_distance(&number, tail, 1).is_some())
            .filter_map(|((_, tail), at)| Some((*at.first()?, tail.as_str())))
            .collect();
        out.sort_unstable();
        out.into_iter().take(max).map(|(_, tail)| tail).collect()
    }
}

/// Passage ids written out in a text (`ti4:action-phase.4.1`).
fn written_ids(text: &str) -> impl Iterator<Item = &str> {
    static ID: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b[a-z0-9][a-z0-9-]*:[a-z0-9][a-z0-9.~-]*[a-z0-9]").unwrap()
    });
    ID.find_iter(text).map(|m| m.as_str())
}

/// Words a passage's lead is read in: an errata names the rule it amends
/// first ("Rule 1.1 now reads: …", "Errata to 1.1: …", "Replace rule 1.1
/// with: …"), never far into its sentence.
const LEAD_WORDS: usize = 4;

/// The rule numbers a passage leads with: in its heading ("1.1 Opening
/// hand", "Rule 1.1"), in each of its paragraphs' first clause (its first
/// line, up to a colon or a dash), each among the first `LEAD_WORDS`
/// words, and in the first cell of each row of its tables ("| 2.1 | Matches
/// are best of five. |"). An errata's passage so headed, or so opened,
/// amends that rule; a number later in a sentence ("…as in 2.1") is a
/// mention, not what the passage is about. Every paragraph, since an
/// errata of paragraphs under one heading ("**[2.2] now reads:** …" /
/// "**Errata for 1.1:** …") amended only its first paragraph's rule, and
/// every row, since an errata table's rows amended nothing. Only dotted
/// numbers ([`is_rule_number`]): "Rule 7" or "2 players" may be counts.
pub fn lead_numbers(p: &Passage) -> Vec<&str> {
    let mut out = Vec::new();
    numbers_in_lead(p.title.as_str(), &mut out);
    for lead in paragraph_leads(&p.text) {
        numbers_in_lead(lead, &mut out);
    }
    out
}

/// The leads of a text's paragraphs: each paragraph's first clause, and
/// each table row's first cell.
fn paragraph_leads(text: &str) -> Vec<&str> {
    let mut leads = Vec::new();
    let mut blank = true;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            blank = true;
            continue;
        }
        if let Some(cell) = table_first_cell(trimmed) {
            leads.push(cell);
        } else if std::mem::replace(&mut blank, false) {
            leads.push(first_clause(trimmed));
        }
    }
    leads
}

/// The rule names among a lead's first [`LEAD_WORDS`] words: rule
/// numbers ("1.1") and ids written without their game
/// ([`is_local_id`]: "attack-a-unit.4", which a lookup prefixes with the
/// passage's game).
fn numbers_in_lead<'a>(lead: &'a str, out: &mut Vec<&'a str>) {
    for word in lead.split_whitespace().take(LEAD_WORDS) {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        if (is_rule_number(word) || is_local_id(word)) && !out.contains(&word) {
            out.push(word);
        }
    }
}

/// Whether a word is shaped like a passage id without its game: a
/// lowercase slug, then a dot and a rule number's pieces
/// ("attack-a-unit.4", "action-phase.4.1"), as `rules list` and cited
/// passages show ids after the game's colon.
pub fn is_local_id(word: &str) -> bool {
    let Some((slug, rest)) = word.split_once('.') else {
        return false;
    };
    slug.contains('-')
        && slug.starts_with(|c: char| c.is_ascii_lowercase())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && (is_rule_number(rest) || is_rule_number(&format!("{rest}.0")))
}

/// The part of an amending passage that names `amended`: the paragraphs
/// that lead with its number or id or write its id out, or that hold a
/// reference resolved to it. An errata of paragraphs ("Errata to 1.1: …"
/// / "Errata to 1.2: …") with no heading between them is one passage,
/// and each rule it amends showed every other rule's errata beside it.
/// The whole text when its heading names the rule, or no one paragraph
/// (or every one) does.
pub fn amending_part(p: &Passage, amended: &Passage) -> String {
    let names = |lead: &str| {
        let mut numbers = Vec::new();
        numbers_in_lead(lead, &mut numbers);
        numbers.iter().any(|n| {
            let n = n.to_lowercase();
            amended.id == format!("{}:{n}", amended.game)
                || number_tail(&amended.id).is_some_and(|t| t.eq_ignore_ascii_case(&n))
        })
    };
    let refers = |par: &str| {
        par.contains(amended.id.as_str())
            || p.refs.iter().any(|r| {
                r.target.as_deref() == Some(amended.id.as_str()) && par.contains(r.label.as_str())
            })
    };
    let paragraphs: Vec<&str> = p
        .text
        .split("\n\n")
        .filter(|par| !par.trim().is_empty())
        .collect();
    if paragraphs.len() < 2 || names(&p.title) {
        return p.text.clone();
    }
    let own: Vec<&str> = paragraphs
        .iter()
        .copied()
        .filter(|par| paragraph_leads(par).into_iter().any(names) || refers(par))
        .collect();
    match own.len() {
        0 => p.text.clone(),
        n if n == paragraphs.len() => p.text.clone(),
        _ => own.join("\n\n"),
    }
}

/// A line's first clause: up to a colon or a dash.
fn first_clause(line: &str) -> &str {
    let clause = line.split([':', '—', '–']).next().unwrap_or("");
    clause.split(" - ").next().unwrap_or("")
}

/// The first cell of a Markdown table's row ("| 2.1 | … |" → "2.1"), but
/// for its delimiter row; `None` for a line that is no row.
fn table_first_cell(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('|')?;
    let cell = rest.split('|').next()?.trim();
    let delimiter = !cell.is_empty() && cell.chars().all(|c| matches!(c, '-' | ':' | ' '));
    (!delimiter && rest.contains('|')).then_some(cell)
}

/// Whether a word is shaped like a rule number: numbers joined by dots,
/// perhaps a letter after the last ("13.4", "704.5j", "13.3.1"). A bare
/// number ("4") is a count, not a rule.
pub fn is_rule_number(word: &str) -> bool {
    let word = word
        .strip_suffix(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(word);
    let mut pieces = word.split('.');
    let whole = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    pieces.next().is_some_and(whole) && {
        let rest: Vec<&str> = pieces.collect();
        !rest.is_empty() && rest.iter().all(|p| whole(p))
    }
}

/// The rule number an id ends with, as a rulebook prints it: the whole id
/// after its game (`magewinds:13.4` → "13.4", `mtg:702.19b` → "702.19b"),
/// or its numbered segments after a heading's slug
/// (`ti4:action-phase.4.1` → "4.1"); `None` when it ends with no
/// [`is_rule_number`] ("ashes:attack-a-unit.3").
pub fn number_tail(id: &str) -> Option<&str> {
    let local = id.split_once(':').map_or(id, |(_, rest)| rest);
    let starts = std::iter::once(0).chain(
        local
            .char_indices()
            .filter(|&(i, c)| c == '.' && i > 0 && !local.as_bytes()[i - 1].is_ascii_digit())
            .map(|(i, _)| i + 1),
    );
    starts.map(|i| &local[i..]).find(|t| is_rule_number(t))
}

#[cfg(test)]
mod number_tests {
    use super::{is_rule_number, number_tail};

    #[test]
    fn rule_numbers_are_dotted_numbers() {
        for w in ["13.4", "704.5j", "13.3.1", "4.1"] {
            assert!(is_rule_number(w), "{w}");
        }
        for w in ["4", "4.", ".4", "a.1", "13.4jj", "1..2", "", "4/4"] {
            assert!(!is_rule_number(w), "{w}");
        }
    }

    #[test]
    fn an_id_ends_with_the_number_its_rulebook_prints() {
        assert_eq!(number_tail("magewinds:13.4"), Some("13.4"));
        assert_eq!(number_tail("mtg:702.19b"), Some("702.19b"));
        assert_eq!(number_tail("ti4:action-phase.4.1"), Some("4.1"));
        assert_eq!(number_tail("ashes:attack-a-unit.3"), None);
        assert_eq!(number_tail("ashes:attack-a-unit"), None);
    }
}
