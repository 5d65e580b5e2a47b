//! The application layer: one request in, one structured reply out.
//!
//! Every transport (CLI, console, Discord gateway, HTTP interactions) calls
//! these functions and renders the reply; none of them holds rules logic.
//! Replies are plain data and serialize to the documented JSON contracts.

mod cards;
pub mod cpu;
mod judge;
pub mod matches;
mod rules;
pub mod rulesets;
pub mod semantic;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::corpus::{Corpus, CrossRef, Passage, PassageKind};
use crate::load::{self, LoadError};
use crate::search::{Index, SearchOptions, Suggestion};

pub use crate::search::{Confidence, GameFrom, OtherGameWord};
pub use arbiter_text::Words;
pub use cards::{CardReply, CardSuggestion, MAX_CARD_NAME_CHARS, RuleLink};
pub use judge::{CoverageEntry, CoverageReply, GameCoverage, JudgeError};
pub use rules::{DocumentToc, GameInfo, RulesReply, TocEntry};

/// Longest question accepted (a whole Discord message); longer input is
/// refused rather than searched.
pub const MAX_QUERY_CHARS: usize = 2000;
/// Default number of results for `ask`.
pub const DEFAULT_LIMIT: usize = 3;

/// Passages embedded in one embedding turn: a long job gives the turn back
/// between chunks (`rulesets::next_turn`), and stores each chunk.
const EMBED_CHUNK: usize = 32;

/// A request that could not be answered, in words for the user.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Usage(Words),
    #[error(
        "the question is {len} characters long; the limit is {max}. Ask about one rule at a time."
    )]
    TooLong { len: usize, max: usize },
    #[error("unknown game '{name}'{}", game_hint(suggestions, games))]
    UnknownGame {
        name: String,
        /// The games the name is a typo of (`text::typo_budget`).
        suggestions: Vec<String>,
        /// Every game, listed when the name is no typo of one.
        games: Vec<String>,
    },
    #[error("no passage has the id '{id}'{}", did_you_mean(suggestions))]
    UnknownId {
        id: String,
        suggestions: Vec<String>,
    },
    #[error("no card is named '{name}'{}", did_you_mean(suggestions))]
    UnknownCard {
        name: String,
        suggestions: Vec<String>,
    },
}

/// "Did you mean …?" for a typo, else the games there are.
pub(crate) fn game_hint(suggestions: &[String], games: &[String]) -> String {
    match (suggestions, games) {
        ([], []) => String::new(),
        ([], all) => format!(". The games are: {}", all.join(", ")),
        (near, _) => did_you_mean(near),
    }
}

fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!(". Did you mean {one}?"),
        many => format!(". Did you mean one of: {}?", many.join(", ")),
    }
}

impl AppError {
    /// The words with every value someone gave passed through `shown`
    /// (Discord's reply escapes them) and the template's own code spans
    /// kept as code; `None` for an error with no code span, escaped whole.
    /// Escaped whole, "a card of Ashes (`ashes`)" showed its backticks.
    pub fn with_values(&self, shown: &dyn Fn(&str) -> String) -> Option<String> {
        match self {
            AppError::Usage(words) => Some(words.shown(shown)),
            _ => None,
        }
    }
}

/// One passage as replies carry it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PassageView {
    pub id: String,
    pub game: String,
    pub title: String,
    pub path: Vec<String>,
    pub text: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<CrossRef>,
    /// FAQ, errata and house-rule passages that name this rule (the first
    /// [`MAX_AMENDMENTS`]). Omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub amended_by: Vec<Amendment>,
    /// How many more name it than are shown. Omitted when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub amended_more: usize,
    #[serde(skip)]
    pub depth: usize,
    #[serde(skip)]
    pub kind: Option<PassageKind>,
}

/// One search result (`ask --json`: `results[]`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AskResult {
    pub id: String,
    pub game: String,
    pub title: String,
    pub path: Vec<String>,
    pub text: String,
    pub highlight: String,
    /// Where `highlight` starts in `text` (bytes).
    #[serde(skip)]
    pub highlight_at: usize,
    pub score: f32,
    /// The glossary entry whose "See rule …" led to this passage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<GlossaryVia>,
    #[serde(skip)]
    pub refs: Vec<CrossRef>,
    /// FAQ, errata and house-rule passages that name this rule, shown
    /// beside it (the first [`MAX_AMENDMENTS`]). Omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub amended_by: Vec<Amendment>,
    /// How many more name it than are shown. Omitted when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub amended_more: usize,
}

/// Amendments shown beside one rule: a server's errata naming a rule
/// twenty thousand times must not make every answer citing it slow.
pub const MAX_AMENDMENTS: usize = 10;

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A passage of a FAQ, errata or house rules that names a rule.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Amendment {
    pub id: String,
    /// Where it comes from: "Errata — this server, added 2026-03-14".
    pub source: String,
    pub text: String,
    /// The passage of an errata added before this one's that amends the
    /// same rule (the nearest above it): this one, added later, reads
    /// after it and holds where they differ. `None` for the first
    /// errata, an FAQ or house rules. Omitted when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads_after: Option<String>,
}

/// A glossary entry shown as context above the rule it points to.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GlossaryVia {
    pub id: String,
    pub term: String,
    pub text: String,
}

/// The reply to `ask`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AskReply {
    pub query: String,
    /// `answer`: the first result answers; `closest`: the closest rules,
    /// which may not answer; `none`: nothing relevant (no results).
    pub confidence: Confidence,
    pub game: Option<String>,
    /// Where `game` came from: `given`, `question`, `match` (the channel's
    /// match), `slang`. Omitted when no game was searched alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_from: Option<GameFrom>,
    pub results: Vec<AskResult>,
    /// Typos repaired, as `[typed, understood]`. Omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<(String, String)>,
    /// Question words no indexed rule uses (they weigh nothing). Omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<String>,
    /// Question words the searched game's rules do not use though another
    /// loaded game's rules do (they weigh nothing), each with the game
    /// searched: not in `ignored`, which says no rule uses them. Omitted
    /// when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<OtherGameWord>,
    /// With `none`: what the indexed rules in scope do cover, one line per
    /// document ("Ashes Reborn: 03 - Main Actions (Pay a Cost, …)").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
    /// A multi-part question ("1) … 2) …"), part by part: each part's label
    /// and the ids of its best passages (among `results`). Omitted for a
    /// one-part question.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<AskPart>,
    /// Cards the question names (shipped or the server's): shown beside the
    /// passages with a `/card` button; their text re-scored the passages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<AskCard>,
    /// Capitalised names close to a card's: `[typed, card]` ("did you mean").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub card_suggestions: Vec<(String, String)>,
    /// A game the question names that these rules do not index ("Pokémon
    /// TCG", from `rules_data/other-games.yaml`), when it names no indexed
    /// one and none is given: the question is not answered from another
    /// game's rules (`none`, no results). Omitted otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_indexed: Option<String>,
}

/// What the cards a question names add to its search and reply.
struct CardContext {
    cards: Vec<AskCard>,
    /// The cards' names and aliases.
    names: Vec<String>,
    suggestions: Vec<(String, String)>,
    game: Option<String>,
    texts: Vec<String>,
}

/// A card a question names.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AskCard {
    pub name: String,
    pub game: String,
    /// Its rules text, verbatim ("" when the list has none).
    pub text: String,
}

/// One part of a multi-part question.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AskPart {
    pub question: String,
    pub confidence: Confidence,
    /// Its best passages that the reply shows (all among `results`), best first.
    pub ids: Vec<String>,
    /// The game it was searched in (with none, its first passage's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// Why that game, when its own text does not name it (or names others too).
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub why: Option<crate::search::PartGame>,
    /// The sentence of its first passage that answers it ("" with none).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub highlight: String,
}

/// A part of a reply (`None`: results of no part) and its numbered results.
pub type PartResults<'a> = (Option<&'a AskPart>, Vec<(usize, &'a AskResult)>);

impl AskReply {
    /// The reply to a question about `game`, a game these rules do not
    /// index: nothing searched, nothing shown.
    fn not_indexed(query: &str, game: &str) -> AskReply {
        AskReply {
            query: query.to_string(),
            confidence: Confidence::None,
            game: None,
            game_from: None,
            results: Vec::new(),
            corrections: Vec::new(),
            ignored: Vec::new(),
            elsewhere: Vec::new(),
            covers: Vec::new(),
            parts: Vec::new(),
            cards: Vec::new(),
            card_suggestions: Vec::new(),
            not_indexed: Some(game.to_string()),
        }
    }

    /// The first passage of `groups[i]`'s part when an earlier group
    /// shows it (two parts share their best: it is shown once, under the
    /// first), with its number.
    pub fn best_shown_above<'a>(
        groups: &[PartResults<'a>],
        i: usize,
    ) -> Option<(usize, &'a AskResult)> {
        let (Some(part), mine) = &groups[i] else {
            return None;
        };
        let best = part.ids.first()?;
        if mine.iter().any(|(_, r)| &r.id == best) {
            return None;
        }
        groups[..i]
            .iter()
            .flat_map(|(_, rs)| rs.iter())
            .find(|(_, r)| &r.id == best)
            .copied()
    }

    /// The results grouped by part, in part order (a result shared by two
    /// parts is shown once), then any result of no part; one
    /// group with every result for a one-part question. Each part shows its
    /// first passage not shown above before any part shows a second.
    /// Numbered from 0 in that order.
    pub fn by_part(&self) -> Vec<PartResults<'_>> {
        let numbered: Vec<(usize, &AskResult)> = self.results.iter().enumerate().collect();
        if self.parts.is_empty() {
            return vec![(None, numbered)];
        }
        let mut shown = vec![false; numbered.len()];
        let mut mine: Vec<Vec<(usize, &AskResult)>> = vec![Vec::new(); self.parts.len()];
        // Each part its first passage not yet shown, then the rest in part
        // order: two parts with the same passages both show one.
        for round in 0..2 {
            for (p, part) in self.parts.iter().enumerate() {
                for id in &part.ids {
                    if let Some(n) = self.results.iter().position(|r| &r.id == id)
                        && !shown[n]
                    {
                        shown[n] = true;
                        mine[p].push(numbered[n]);
                        if round == 0 {
                            break;
                        }
                    }
                }
            }
        }
        let mut out: Vec<PartResults<'_>> = self.parts.iter().map(Some).zip(mine).collect();
        let rest: Vec<(usize, &AskResult)> =
            numbered.into_iter().filter(|(n, _)| !shown[*n]).collect();
        if !rest.is_empty() {
            out.push((None, rest));
        }
        // Numbered as shown, part after part (not by rank: "1, 3" under
        // the first part and "2" under the second read as missing ones).
        let mut n = 0;
        for (_, results) in &mut out {
            for r in results.iter_mut() {
                r.0 = n;
                n += 1;
            }
        }
        out
    }
}

/// The reply to `cite`: the passage, then its descendants when asked.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CiteReply {
    pub passages: Vec<PassageView>,
}

/// Where a passage comes from, when it is not the game's own rules: "House
/// rule — this server, added 2026-03-14", "Errata — 2025-03". Shown in every
/// answer's heading path, before the document's title.
fn source_label(doc: &crate::corpus::Document) -> Option<String> {
    if doc.kind.is_rules() && !doc.from_server {
        return None;
    }
    Some(if doc.version.is_empty() {
        doc.kind.label().to_string()
    } else {
        format!("{} — {}", doc.kind.label(), doc.version)
    })
}

/// The application: the indexed corpus and its search index.
pub struct App {
    pub corpus: Corpus,
    pub index: Index,
    /// Every game's cards (the corpus's card lists, read).
    pub cards: std::sync::Arc<crate::cards::Cards>,
    /// Rules passage → the FAQ/errata/house passages that name it.
    amended_by:
        std::collections::HashMap<crate::corpus::PassageIdx, Vec<crate::corpus::PassageIdx>>,
    /// The semantic stage's vectors still missing at load ([`App::load`]).
    pending: std::sync::Arc<std::sync::Mutex<Pending>>,
    /// A one-shot command's stage is loaded once; a caller meanwhile waits
    /// for it rather than finding no stage ([`Pending::Deferred`]).
    deferred_load: std::sync::Once,
}

/// What [`App::load_with`] does with passages whose vector no folder's
/// vectors file has (docs/SEARCH.md, "The semantic stage").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingVectors {
    /// Embeds them on a background thread (niced, one embedding at a time
    /// in the process); until they are all there, questions about them are
    /// answered lexically and the rest with a partial stage
    /// ([`crate::search::semantic::Stage::new`]) (`serve`, `console`).
    Background,
    /// Leaves them: questions about them are answered lexically, the rest
    /// with a partial stage. For one-shot commands: nothing of the stage
    /// (the model, the vectors files) is read until the first question, so
    /// `judge` or `match play` never reads the 45 MB model.
    Lexical,
}

/// Whether answers use the semantic stage ([`App::semantic_state`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SemanticState {
    /// The index has its stage.
    Ready,
    /// No stage: built without the feature `semantic`, or no model.
    Off,
    /// `passages` passages (of `folders`) have no vector yet; they are
    /// being embedded in the background. Until then a question whose
    /// candidates have no vector is answered lexically; the other passages
    /// keep the stage (a partial one).
    Embedding {
        passages: usize,
        folders: Vec<PathBuf>,
    },
    /// `passages` passages (of `folders`) have no vector and none is being
    /// computed ([`MissingVectors::Lexical`]): questions about them are
    /// answered lexically; the other passages keep the stage.
    Missing {
        passages: usize,
        folders: Vec<PathBuf>,
    },
}

/// A rule folder's document, by game and slug (which folder's vectors a
/// passage lacks).
#[cfg_attr(not(feature = "semantic"), allow(dead_code))]
struct Owner {
    dir: PathBuf,
    game: String,
    slug: String,
}

/// The stage's state between [`App::load`] and its attaching.
#[derive(Default)]
#[cfg_attr(not(feature = "semantic"), allow(dead_code))]
enum Pending {
    #[default]
    None,
    Embedding {
        passages: usize,
        folders: Vec<PathBuf>,
    },
    Missing {
        passages: usize,
        folders: Vec<PathBuf>,
    },
    /// A one-shot command's stage, loaded by its first question (a command
    /// that asks none never reads the model).
    Deferred {
        dirs: Vec<PathBuf>,
        owners: Vec<Owner>,
    },
    /// Every vector is there: the stage is attached by the next question.
    Done {
        encoder: std::sync::Arc<dyn crate::search::semantic::Encode>,
        known: crate::search::semantic::Known,
    },
}

impl App {
    pub fn new(corpus: Corpus) -> App {
        let index = Index::build(&corpus);
        let amended_by = corpus.amendments();
        let cards = std::sync::Arc::new(crate::cards::Cards::build(&corpus.card_lists));
        App {
            corpus,
            index,
            cards,
            amended_by,
            pending: Default::default(),
            deferred_load: std::sync::Once::new(),
        }
    }

    /// Converts a document someone brings and previews it against the games
    /// loaded here (`arbiter import`, `/rules add`). Nothing goes live.
    pub fn import(
        &self,
        req: &crate::corpus::import::ImportRequest,
    ) -> Result<crate::corpus::import::Import, crate::corpus::import::ImportError> {
        match req.kind {
            crate::corpus::DocumentKind::Cards => self.import_cards(req),
            crate::corpus::DocumentKind::Slang => {
                let target = crate::corpus::import::target(&self.corpus, req)?;
                let converted = crate::corpus::slang::import_to(&target, req.bytes)?;
                Ok(crate::corpus::import::Import::new(
                    &self.corpus,
                    &target,
                    converted,
                ))
            }
            _ => crate::corpus::import::import(&self.corpus, req),
        }
    }

    /// Where an import goes among the games loaded here (the file unread).
    pub fn import_target(
        &self,
        req: &crate::corpus::import::ImportRequest,
    ) -> Result<crate::corpus::import::Target, crate::corpus::import::ImportError> {
        crate::corpus::import::target(&self.corpus, req)
    }

    /// Loads the shipped rule data plus extra folders, with the semantic
    /// stage when the model loads (feature `semantic`): passage vectors from
    /// each folder's vectors file. When every passage has one, the stage is
    /// attached now; otherwise a partial stage is (the passages without a
    /// vector answered lexically) and the missing vectors are embedded on a
    /// background thread ([`MissingVectors::Background`]), the complete
    /// stage attached once they are all there ([`App::semantic_state`]).
    pub fn load(data_dir: &Path, extra: &[PathBuf]) -> Result<App, LoadError> {
        App::load_with(data_dir, extra, MissingVectors::Background)
    }

    /// [`App::load`], saying what becomes of passages no vectors file has:
    /// embedded in the background, or left (the index answers lexically:
    /// one-shot commands, which would exit before the vectors are there).
    pub fn load_with(
        data_dir: &Path,
        extra: &[PathBuf],
        missing: MissingVectors,
    ) -> Result<App, LoadError> {
        let dirs: Vec<&Path> = std::iter::once(data_dir)
            .chain(extra.iter().map(PathBuf::as_path))
            .collect();
        // `load::load_all`, folder by folder: which folder each document
        // comes from names the folders whose vectors are missing.
        let mut owners: Vec<Owner> = Vec::new();
        let mut sources = Vec::new();
        for &dir in &dirs {
            for game in load::load_dir(dir)? {
                owners.extend(game.documents.iter().map(|d| Owner {
                    dir: dir.to_path_buf(),
                    game: game.manifest.game.clone(),
                    slug: d.manifest.slug.clone(),
                }));
                sources.push(game);
            }
        }
        let app = App::new(Corpus::build(sources));
        #[cfg(feature = "semantic")]
        match missing {
            MissingVectors::Background => app.start_semantic(&dirs, &owners, missing),
            MissingVectors::Lexical => {
                let dirs = dirs.iter().map(|d| d.to_path_buf()).collect();
                *app.lock_pending() = Pending::Deferred { dirs, owners };
            }
        }
        #[cfg(not(feature = "semantic"))]
        let _ = (owners, missing);
        Ok(app)
    }

    /// Gives the index its semantic stage from the folders' vectors files,
    /// now when they hold every passage's vector, else as `missing` says.
    #[cfg(feature = "semantic")]
    fn start_semantic(&self, dirs: &[&Path], owners: &[Owner], missing: MissingVectors) {
        use crate::search::semantic as stage;
        let Some(encoder) = semantic::encoder() else {
            return;
        };
        let mut known = semantic::read_vectors(dirs);
        let lacking = stage::missing(&self.corpus, &known);
        if lacking.is_empty() {
            self.attach_semantic(encoder, &mut known);
            return;
        }
        let passages = lacking.len();
        let folders = self.folders_of(&lacking, dirs, owners);
        let named = folders
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        // The passages that have vectors keep the stage meanwhile.
        self.index
            .set_semantic(stage::Stage::new(&self.corpus, encoder.clone(), &known));
        if missing == MissingVectors::Lexical {
            *self.lock_pending() = Pending::Missing { passages, folders };
            return;
        }
        tracing::info!(
            passages,
            folders = %named,
            "passages without a semantic vector: answers are lexical until they are embedded in the background (`arbiter semantic vectors {named}` computes them ahead)"
        );
        let texts = semantic::missing_texts(&self.corpus, &lacking);
        let missing = Pending::Missing {
            passages,
            folders: folders.clone(),
        };
        *self.lock_pending() = Pending::Embedding { passages, folders };
        let pending = self.pending.clone();
        let spawned = std::thread::Builder::new()
            .name("embed-vectors".into())
            .spawn(move || {
                rulesets::lower_priority();
                let turn = std::cell::RefCell::new(Some(rulesets::embedding_turn()));
                if std::sync::Arc::strong_count(&pending) == 1 {
                    return; // the app is gone: nobody would use the vectors
                }
                let started = std::time::Instant::now();
                // A turn a chunk: a server's upload waits one chunk.
                let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let mut done = crate::search::semantic::Known::default();
                    for part in texts.chunks(EMBED_CHUNK) {
                        rulesets::next_turn(&turn);
                        done.extend(semantic::embed(part, encoder.as_ref(), 1));
                    }
                    done
                }));
                let mut pending = pending.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match done {
                    Ok(done) => {
                        tracing::info!(
                            embedded = done.len(),
                            seconds = started.elapsed().as_secs_f64(),
                            "passage vectors embedded: the semantic stage is used from the next question"
                        );
                        known.extend(done);
                        *pending = Pending::Done { encoder, known };
                    }
                    Err(_) => {
                        tracing::warn!("embedding the passage vectors panicked: the folders' passages stay lexical");
                        *pending = missing;
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(
                "cannot start the embedding thread, the folders' passages stay lexical: {e}"
            );
            let mut pending = self.lock_pending();
            if let Pending::Embedding { passages, folders } = std::mem::take(&mut *pending) {
                *pending = Pending::Missing { passages, folders };
            }
        }
    }

    /// The folders (among `dirs`) of these passages: all of them when a
    /// passage's document is not found in `owners`.
    #[cfg(feature = "semantic")]
    fn folders_of(
        &self,
        passages: &[crate::corpus::PassageIdx],
        dirs: &[&Path],
        owners: &[Owner],
    ) -> Vec<PathBuf> {
        let mut seen: Vec<(&str, Option<&str>)> = Vec::new();
        let mut out: Vec<PathBuf> = Vec::new();
        for &i in passages {
            let p = &self.corpus.passages[i];
            let slug = self.corpus.document_of(p).map(|d| d.slug.as_str());
            if seen.contains(&(p.game.as_str(), slug)) {
                continue;
            }
            seen.push((p.game.as_str(), slug));
            let of_game = |o: &&Owner| {
                self.corpus
                    .resolve_game(&o.game)
                    .is_some_and(|g| g.id == p.game)
            };
            let owner = owners
                .iter()
                .filter(of_game)
                .find(|o| Some(o.slug.as_str()) == slug)
                .or_else(|| owners.iter().find(of_game));
            let Some(owner) = owner else {
                return dirs.iter().map(|d| d.to_path_buf()).collect();
            };
            if !out.contains(&owner.dir) {
                out.push(owner.dir.clone());
            }
        }
        out
    }

    /// Whether answers use the semantic stage now; attaches it when its
    /// vectors have just been computed in the background.
    pub fn semantic_state(&self) -> SemanticState {
        self.load_deferred();
        let mut pending = self.lock_pending();
        self.attach_done(&mut pending);
        if self.index.semantic().is_some_and(|s| s.complete()) {
            return SemanticState::Ready;
        }
        match &*pending {
            Pending::Embedding { passages, folders } => SemanticState::Embedding {
                passages: *passages,
                folders: folders.clone(),
            },
            Pending::Missing { passages, folders } => SemanticState::Missing {
                passages: *passages,
                folders: folders.clone(),
            },
            Pending::None | Pending::Done { .. } | Pending::Deferred { .. } => SemanticState::Off,
        }
    }

    /// Attaches the stage when its vectors were computed in the background
    /// (once; a question that finds them there pays for the attaching:
    /// the passages' keys looked up, nothing embedded).
    fn attach_ready(&self) {
        if !self.index.semantic().is_some_and(|s| s.complete()) {
            self.load_deferred();
            self.attach_done(&mut self.lock_pending());
        }
    }

    /// Loads a one-shot command's stage ([`MissingVectors::Lexical`]) at its
    /// first question.
    fn load_deferred(&self) {
        // Once (`Deferred` is set at load, before any caller): a second
        // caller waits here until the first has loaded it.
        self.deferred_load.call_once(|| self.load_deferred_now());
    }

    fn load_deferred_now(&self) {
        let mut pending = self.lock_pending();
        if let Pending::Deferred { .. } = &*pending
            && let Pending::Deferred { dirs, owners } = std::mem::take(&mut *pending)
        {
            drop(pending);
            #[cfg(feature = "semantic")]
            {
                let dirs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
                self.start_semantic(&dirs, &owners, MissingVectors::Lexical);
            }
            #[cfg(not(feature = "semantic"))]
            let _ = (dirs, owners);
        }
    }

    fn attach_done(&self, pending: &mut Pending) {
        if let Pending::Done { .. } = pending
            && let Pending::Done { encoder, mut known } = std::mem::take(pending)
        {
            self.attach_semantic(encoder, &mut known);
        }
    }

    fn lock_pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Gives the index its semantic stage: passage vectors from `known`,
    /// the others embedded now (and added to `known`); returns how many.
    pub fn attach_semantic(
        &self,
        encoder: std::sync::Arc<dyn crate::search::semantic::Encode>,
        known: &mut crate::search::semantic::Known,
    ) -> usize {
        self.attach_semantic_while(encoder, known, &|| true)
            .unwrap_or(0)
    }

    /// [`App::attach_semantic`], embedding a few passages at a time while
    /// `go` holds; `None` when it stopped (no stage set, the vectors
    /// embedded so far added to `known`).
    pub fn attach_semantic_while(
        &self,
        encoder: std::sync::Arc<dyn crate::search::semantic::Encode>,
        known: &mut crate::search::semantic::Known,
        go: &dyn Fn() -> bool,
    ) -> Option<usize> {
        self.attach_semantic_saving(encoder, known, go, &|_| {})
    }

    /// [`App::attach_semantic_while`], handing each chunk's new vectors to
    /// `save` as soon as they are embedded (a server's upload stores them,
    /// so that a restart mid-way keeps what was done).
    pub fn attach_semantic_saving(
        &self,
        encoder: std::sync::Arc<dyn crate::search::semantic::Encode>,
        known: &mut crate::search::semantic::Known,
        go: &dyn Fn() -> bool,
        save: &dyn Fn(&crate::search::semantic::Known),
    ) -> Option<usize> {
        use crate::search::semantic as stage;
        let todo = semantic::missing_texts(&self.corpus, &stage::missing(&self.corpus, known));
        let mut embedded = 0;
        for part in todo.chunks(EMBED_CHUNK) {
            if !go() {
                tracing::info!(
                    embedded,
                    left = todo.len() - embedded,
                    "embedding stopped: nobody holds the index any more"
                );
                return None;
            }
            let done = semantic::embed(part, encoder.as_ref(), 1);
            embedded += done.len();
            save(&done);
            known.extend(done);
        }
        if embedded > 0 {
            tracing::info!(embedded, "passages embedded for the semantic stage");
        }
        self.index
            .set_semantic(stage::Stage::new(&self.corpus, encoder, known));
        Some(embedded)
    }

    /// The passage vectors of this app's stage, by the key of their text
    /// (empty without one): a rule set built on this app reuses them.
    pub fn known_vectors(&self) -> crate::search::semantic::Known {
        self.index
            .semantic()
            .map(|s| s.known(&self.corpus))
            .unwrap_or_default()
    }

    /// Resolves a game name, id or alias, with suggestions when unknown:
    /// the nearest within a typo's budget (`text::typo_budget`), else
    /// every game.
    pub fn game(&self, name: &str) -> Result<&crate::corpus::Game, AppError> {
        self.corpus.resolve_game(name).ok_or_else(|| {
            let max = crate::text::typo_budget(name);
            let mut scored: Vec<(usize, String)> = self
                .corpus
                .games
                .iter()
                .flat_map(|g| {
                    std::iter::once((g, &g.id)).chain(g.aliases.iter().map(move |a| (g, a)))
                })
                .filter_map(|(g, n)| {
                    let d =
                        crate::text::edit_distance(&name.to_lowercase(), &n.to_lowercase(), max)?;
                    Some((d, g.id.clone()))
                })
                .collect();
            scored.sort();
            let best = scored.first().map(|(d, _)| *d);
            let mut suggestions: Vec<String> = Vec::new();
            for (_, id) in scored.into_iter().filter(|(d, _)| Some(*d) == best) {
                if !suggestions.contains(&id) {
                    suggestions.push(id);
                }
            }
            AppError::UnknownGame {
                name: name.to_string(),
                suggestions,
                games: self.corpus.games.iter().map(|g| g.id.clone()).collect(),
            }
        })
    }

    /// Answers a rules question with cited passages.
    pub fn ask(&self, query: &str, game: Option<&str>, limit: usize) -> Result<AskReply, AppError> {
        self.ask_in(query, game, None, limit)
    }

    /// [`App::ask`] in a channel whose match plays `match_game`: that game is
    /// searched when neither `game` nor the question names one. A match game
    /// these rules do not index is no error: the question is asked without it.
    pub fn ask_in(
        &self,
        query: &str,
        game: Option<&str>,
        match_game: Option<&str>,
        limit: usize,
    ) -> Result<AskReply, AppError> {
        self.attach_ready();
        let query = query.trim();
        if query.is_empty() {
            return Err(AppError::Usage(Words::fixed(
                "the question is empty: ask a rules question, e.g. \"can an exhausted phoenixborn guard?\"",
            )));
        }
        let len = query.chars().count();
        if len > MAX_QUERY_CHARS {
            return Err(AppError::TooLong {
                len,
                max: MAX_QUERY_CHARS,
            });
        }
        let game = game
            .map(|g| self.game(g).map(|g| g.id.clone()))
            .transpose()?;
        if game.is_none()
            && let Some(other) = self.index.unindexed_game(query)
        {
            return Ok(AskReply::not_indexed(query, other));
        }
        let fallback_game = match_game
            .and_then(|g| self.game(g).ok())
            .map(|g| g.id.clone());
        let named = self.card_context(query, game.as_deref());
        let searched = self.ids_as_citations(query);
        let query_as_asked = query;
        let query = searched.as_ref();
        let opts = SearchOptions {
            game,
            fallback_game,
            card_game: named.game,
            context: named.texts,
            card_names: named.names,
            limit,
        };
        let mut outcome = self.index.search(&self.corpus, query, &opts);
        // Sentences around the question ("Sorry, new player here. …") can
        // drown it: when the whole finds nothing relevant, its question
        // sentence is asked alone.
        if outcome.confidence == Confidence::None
            && let Some(q) = question_sentence(query)
        {
            let again = self.index.search(&self.corpus, q, &opts);
            if again.confidence != Confidence::None {
                outcome = again;
            }
        }
        let results = outcome
            .hits
            .into_iter()
            .map(|h| {
                let p = &self.corpus.passages[h.passage];
                AskResult {
                    id: p.id.clone(),
                    game: p.game.clone(),
                    title: p.title.clone(),
                    path: self.full_path(p),
                    text: p.text.clone(),
                    highlight: h.highlight,
                    highlight_at: h.highlight_at,
                    score: (h.score * 1000.0).round() / 1000.0,
                    via: h.via.map(|v| {
                        let g = &self.corpus.passages[v];
                        GlossaryVia {
                            id: g.id.clone(),
                            term: g.title.clone(),
                            text: g.text.clone(),
                        }
                    }),
                    refs: p.refs.clone(),
                    amended_by: self.amendments_of(h.passage),
                    amended_more: self.amendments_beyond(h.passage),
                }
            })
            .collect();
        let covers = if outcome.confidence == Confidence::None {
            self.covers(outcome.game.as_deref())
        } else {
            Vec::new()
        };
        let parts = outcome
            .parts
            .iter()
            .map(|p| AskPart {
                question: p.question.clone(),
                confidence: p.confidence,
                ids: p
                    .hits
                    .iter()
                    .map(|&i| self.corpus.passages[i].id.clone())
                    .collect(),
                game: p.game.clone(),
                why: p.why.clone(),
                highlight: p.highlight.clone(),
            })
            .collect();
        let ignored = not_card_words(outcome.ignored, &opts.card_names);
        let kept = not_card_words(
            outcome.elsewhere.iter().map(|e| e.word.clone()).collect(),
            &opts.card_names,
        );
        let elsewhere = outcome
            .elsewhere
            .into_iter()
            .filter(|e| kept.contains(&e.word))
            .collect();
        Ok(AskReply {
            cards: named.cards,
            card_suggestions: named.suggestions,
            parts,
            query: query_as_asked.to_string(),
            confidence: outcome.confidence,
            game: outcome.game,
            game_from: outcome.game_from,
            results,
            corrections: outcome.corrections,
            ignored,
            elsewhere,
            covers,
            not_indexed: None,
        })
    }

    /// The cards a question names (its game's when one is given), the
    /// game they all belong to, their texts, and near misses.
    fn card_context(&self, query: &str, game: Option<&str>) -> CardContext {
        let named = self
            .cards
            .named_in(query, game, |w| self.index.word_use(w, game));
        let mut games: Vec<&str> = named.cards.iter().map(|c| c.game.as_str()).collect();
        games.sort_unstable();
        games.dedup();
        CardContext {
            game: match games.as_slice() {
                [one] => Some(one.to_string()),
                _ => None,
            },
            texts: named
                .cards
                .iter()
                .map(|c| c.card.text.clone())
                .filter(|t| !t.is_empty())
                .collect(),
            names: named
                .cards
                .iter()
                .flat_map(|c| c.card.names())
                .map(str::to_string)
                .collect(),
            cards: named
                .cards
                .iter()
                .map(|c| AskCard {
                    name: c.card.name.clone(),
                    game: c.game.clone(),
                    text: c.card.text.clone(),
                })
                .collect(),
            suggestions: named.near,
        }
    }

    /// What the indexed rules cover: per document of the game (or of every
    /// game), its title and top sections.
    pub fn covers(&self, game: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        for g in self
            .corpus
            .games
            .iter()
            .filter(|g| game.is_none_or(|x| x == g.id))
        {
            for d in &g.documents {
                let sections: Vec<&str> = self.corpus.passages[d.root]
                    .children
                    .iter()
                    .map(|&c| &self.corpus.passages[c])
                    .filter(|p| p.kind == PassageKind::Section)
                    .map(|p| p.title.as_str())
                    .take(12)
                    .collect();
                if sections.is_empty() {
                    out.push(format!("{}: {}", g.name, d.title));
                } else {
                    out.push(format!("{}: {} ({})", g.name, d.title, sections.join(", ")));
                }
            }
        }
        out
    }

    /// The passage a question asks for by its number alone ("what does
    /// 13.4 say", "rule 702.19a", "704.5j?", "ti4 rule 3.2"): its id, when
    /// the words around the number only ask to show it and the number names
    /// one passage (in `game` when given or named): its whole id after the
    /// game, or the rule number its id ends with ("whats 4.1 in ti4" is
    /// `ti4:action-phase.4.1`). A question about the
    /// rule ("does 702.19b let me…") is a question, not a lookup.
    pub fn rule_named(&self, query: &str, game: Option<&str>) -> Option<String> {
        const SHOW: [&str; 21] = [
            "what", "whats", "what's", "does", "do", "say", "says", "said", "rule", "rules",
            "show", "me", "the", "is", "text", "of", "read", "cr", "tell", "number", "in",
        ];
        let mut game = game
            .and_then(|g| self.corpus.resolve_game(g))
            .map(|g| g.id.clone());
        let mut number = None;
        let mut id = None;
        for w in query.split_whitespace() {
            if let Some(p) = self.id_word(w).filter(|_| id.is_none() && number.is_none()) {
                id = Some(p);
                continue;
            }
            let w = w.trim_matches(|c: char| "?!,;:\"'()“”‘’".contains(c) || c == '.');
            if w.is_empty() || SHOW.contains(&w.to_lowercase().as_str()) {
                continue;
            }
            if w.starts_with(|c: char| c.is_ascii_digit()) && number.is_none() {
                number = Some(w.to_lowercase());
            } else if let Some(g) = self.corpus.resolve_game(w).filter(|_| game.is_none()) {
                game = Some(g.id.clone());
            } else {
                return None;
            }
        }
        // A passage's id as the replies print it ("[ti4:action-phase.4.1]"),
        // in the game given, if one is.
        if let Some(p) = id {
            let p = &self.corpus.passages[p];
            return game.is_none_or(|g| g == p.game).then(|| p.id.clone());
        }
        let number = number?;
        let p = match &game {
            Some(g) => self.corpus.get(&format!("{g}:{number}")),
            None => self.corpus.resolve_id(&number),
        };
        // Or the number a heading's rules end with ("4.1" of
        // `ti4:action-phase.4.1`), when it names one passage.
        let p = p.or_else(
            || match self.corpus.numbered(&number, game.as_deref())[..] {
                [one] => Some(&self.corpus.passages[one]),
                _ => None,
            },
        )?;
        Some(p.id.clone())
    }

    /// The passage a word of a question is the id of, as the replies print
    /// it ("ti4:action-phase.4.1", "[mtg:702.19b]", "(ashes:pass)."): the
    /// game, a colon and the rest, in brackets or not.
    fn id_word(&self, word: &str) -> Option<crate::corpus::PassageIdx> {
        let w = word
            .trim_end_matches(|c: char| "?!,;\"'“”‘’".contains(c))
            .trim_matches(|c: char| "[]()".contains(c))
            .trim_end_matches(['.', ':'])
            .trim_start_matches(|c: char| "\"'“”‘’".contains(c));
        if !w.contains(':') {
            return None;
        }
        let p = self.corpus.resolve_id(w)?;
        self.corpus.index_of(&p.id)
    }

    /// The question as searched: a passage's id in it ("does
    /// ti4:action-phase.4.1 let me pass early") is its game and the rule
    /// number its id ends with, "ti4 4.1", which the search reads as a
    /// citation in that game (the id's words were searched as words and
    /// "phase.4.1" said to be used by no rule; found by an outside
    /// tester). An id ending in no number stays as it is.
    fn ids_as_citations<'q>(&self, query: &'q str) -> std::borrow::Cow<'q, str> {
        let cited = |w: &str| {
            let p = &self.corpus.passages[self.id_word(w)?];
            crate::corpus::number_tail(&p.id).map(|n| format!("{} {n}", p.game))
        };
        if !query.split_whitespace().any(|w| cited(w).is_some()) {
            return std::borrow::Cow::Borrowed(query);
        }
        // Each word replaced in place, the white space between kept (a
        // question's line breaks part it).
        let mut out = String::with_capacity(query.len());
        for piece in query.split_inclusive(char::is_whitespace) {
            let word = piece.trim_end_matches(char::is_whitespace);
            out.push_str(cited(word).as_deref().unwrap_or(word));
            out.push_str(&piece[word.len()..]);
        }
        std::borrow::Cow::Owned(out)
    }

    /// One passage, or its whole sub-tree.
    pub fn cite(&self, id: &str, children: bool) -> Result<CiteReply, AppError> {
        let p = self
            .corpus
            .resolve_id(id)
            .ok_or_else(|| self.unknown_id(id))?;
        let idx = self.corpus.index_of(&p.id).unwrap_or_default();
        let indices = if children {
            self.corpus.subtree(idx)
        } else {
            vec![idx]
        };
        let base = self.corpus.depth(idx);
        let passages = indices
            .into_iter()
            .map(|i| {
                let mut v = self.view(&self.corpus.passages[i]);
                v.depth = self.corpus.depth(i) - base;
                v
            })
            .collect();
        Ok(CiteReply { passages })
    }

    /// Completion for a partial id or title (at most 25).
    pub fn complete(
        &self,
        partial: &str,
        game: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Suggestion>, AppError> {
        let game = game
            .map(|g| self.game(g).map(|g| g.id.clone()))
            .transpose()?;
        Ok(self
            .index
            .completer()
            .complete(&self.corpus, partial, game.as_deref(), limit))
    }

    /// Completion as `/rule` autocomplete offers it in a channel: with no
    /// `game`, the game of the channel's match (`fallback`) comes first and
    /// the other games fill what is left, unless what is typed starts with
    /// a game's id or alias (`legion:`), which then decides alone.
    pub fn complete_in(
        &self,
        partial: &str,
        game: Option<&str>,
        fallback: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Suggestion>, AppError> {
        match self.preferred_game(partial, game, fallback) {
            Some(first) => Ok(prefer(
                self.complete(partial, Some(first), limit)?,
                self.complete(partial, None, limit)?,
                |s| s.id.clone(),
                limit,
            )),
            None => self.complete(partial, game, limit),
        }
    }

    /// The fallback game for a completion, when neither `game` nor a game
    /// prefix in `partial` says otherwise.
    fn preferred_game<'a>(
        &self,
        partial: &str,
        game: Option<&str>,
        fallback: Option<&'a str>,
    ) -> Option<&'a str> {
        let named = partial
            .split_once(':')
            .is_some_and(|(g, _)| self.corpus.resolve_game(g).is_some());
        let fallback = fallback.filter(|g| self.corpus.resolve_game(g).is_some());
        fallback.filter(|_| game.is_none() && !named)
    }

    /// Games whose id, name or an alias fuzzily matches `partial` (at most
    /// `limit`): the id and the name.
    pub fn complete_games(&self, partial: &str, limit: usize) -> Vec<Suggestion> {
        let games = &self.corpus.games;
        let keys: Vec<String> = games
            .iter()
            .map(|g| format!("{} {} {}", g.id, g.name, g.aliases.join(" ")))
            .collect();
        crate::search::rank(keys.iter().map(String::as_str), partial, limit)
            .into_iter()
            .map(|i| Suggestion {
                id: games[i].id.clone(),
                title: games[i].name.clone(),
            })
            .collect()
    }

    pub fn view(&self, p: &Passage) -> PassageView {
        let idx = self.corpus.index_of(&p.id);
        PassageView {
            id: p.id.clone(),
            game: p.game.clone(),
            title: p.title.clone(),
            path: self.full_path(p),
            text: p.text.clone(),
            refs: p.refs.clone(),
            amended_by: idx.map(|i| self.amendments_of(i)).unwrap_or_default(),
            amended_more: idx.map_or(0, |i| self.amendments_beyond(i)),
            depth: 0,
            kind: Some(p.kind),
        }
    }

    /// Game › document › sections above the passage.
    /// The passages that amend a rules passage, labelled with their source.
    /// The last [`MAX_AMENDMENTS`], in document order: the order the
    /// documents were added (shipped, then a server's oldest first), so
    /// an errata added later comes after, and reads after, an earlier
    /// errata of the same rule ([`Amendment::reads_after`]); past the
    /// limit the oldest are left out, never the one that holds.
    pub fn amendments_of(&self, idx: crate::corpus::PassageIdx) -> Vec<Amendment> {
        let Some(list) = self.amended_by.get(&idx) else {
            return Vec::new();
        };
        // The last errata passage shown, and its document.
        let mut errata: Option<(usize, &str)> = None;
        list.iter()
            .skip(list.len().saturating_sub(MAX_AMENDMENTS))
            .map(|&a| {
                let p = &self.corpus.passages[a];
                let doc = self.corpus.document_of(p);
                let source = doc.and_then(source_label).unwrap_or_default();
                let title = doc.map(|d| d.title.as_str()).unwrap_or_default();
                let mut reads_after = None;
                if doc.is_some_and(|d| d.kind == crate::corpus::DocumentKind::Errata) {
                    let before = errata.replace((p.document, p.id.as_str()));
                    reads_after = before
                        .filter(|(d, _)| *d != p.document)
                        .map(|(_, id)| id.to_string());
                }
                Amendment {
                    id: p.id.clone(),
                    source: format!("{source}, {title}"),
                    text: crate::corpus::amending_part(p, &self.corpus.passages[idx]),
                    reads_after,
                }
            })
            .collect()
    }

    /// How many passages amend `idx` beyond the ones shown.
    pub fn amendments_beyond(&self, idx: crate::corpus::PassageIdx) -> usize {
        self.amended_by
            .get(&idx)
            .map_or(0, |l| l.len().saturating_sub(MAX_AMENDMENTS))
    }

    fn full_path(&self, p: &Passage) -> Vec<String> {
        let mut path = Vec::with_capacity(p.path.len() + 1);
        if let Some(g) = self.corpus.game(&p.game) {
            path.push(g.name.clone());
        }
        if let Some(label) = self.corpus.document_of(p).and_then(source_label) {
            path.push(label);
        }
        path.extend(p.path.iter().map(|t| t.to_string()));
        path
    }

    fn unknown_id(&self, id: &str) -> AppError {
        AppError::UnknownId {
            id: id.to_string(),
            suggestions: self.ids_like(id),
        }
    }

    /// At most three passage ids close to `id`, which names none: by
    /// spelling first ("attack-a-unti"), then fuzzy ("atk unit").
    pub fn ids_like(&self, id: &str) -> Vec<String> {
        let typed = id.trim().to_lowercase();
        let mut close: Vec<(usize, &str)> = self
            .corpus
            .passages
            .iter()
            .filter_map(|p| {
                let rest = p.id.split_once(':').map_or(p.id.as_str(), |(_, r)| r);
                let d = crate::text::edit_distance(&typed, &p.id, 3)
                    .or_else(|| crate::text::edit_distance(&typed, rest, 3))?;
                Some((d, p.id.as_str()))
            })
            .collect();
        close.sort();
        let mut suggestions: Vec<String> = close
            .into_iter()
            .take(3)
            .map(|(_, id)| id.to_string())
            .collect();
        if suggestions.is_empty() {
            suggestions = self
                .index
                .completer()
                .complete(&self.corpus, id, None, 3)
                .into_iter()
                .map(|s| s.id)
                .collect();
        }
        suggestions
    }
}

/// The question sentence of a text of several sentences: the last one
/// ending in `?`, else the last one; `None` for a single sentence.
fn question_sentence(text: &str) -> Option<&str> {
    let mut sentences = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let next = text[i + c.len_utf8()..].chars().next();
        if matches!(c, '.' | '!' | '?') && next.is_none_or(char::is_whitespace) {
            sentences.push(text[start..i + c.len_utf8()].trim());
            start = i + c.len_utf8();
        }
    }
    sentences.push(text[start..].trim());
    sentences.retain(|s| s.split_whitespace().count() >= 2);
    if sentences.len() < 2 {
        return None;
    }
    sentences
        .iter()
        .rev()
        .find(|s| s.ends_with('?'))
        .or(sentences.last())
        .copied()
}

/// `first`, then what of `rest` is not in it, at most `limit` in all.
fn prefer<T, K: PartialEq>(
    first: Vec<T>,
    rest: Vec<T>,
    key: impl Fn(&T) -> K,
    limit: usize,
) -> Vec<T> {
    let mut out = first;
    out.truncate(limit);
    for item in rest {
        if out.len() >= limit {
            break;
        }
        if !out.iter().any(|o| key(o) == key(&item)) {
            out.push(item);
        }
    }
    out
}

/// The words no rule uses, less those of the cards the question names
/// (their names and aliases; an entry of several words goes when all its
/// words are the cards'): "No indexed rule uses “wrath”" is no news when the
/// reply shows Wrath of God.
fn not_card_words(ignored: Vec<String>, card_names: &[String]) -> Vec<String> {
    let card_words: std::collections::HashSet<String> = card_names
        .iter()
        .flat_map(|n| n.split_whitespace())
        .map(crate::text::fold)
        .collect();
    ignored
        .into_iter()
        .filter(|w| {
            !w.split_whitespace()
                .all(|x| card_words.contains(&crate::text::fold(x)))
        })
        .collect()
}
