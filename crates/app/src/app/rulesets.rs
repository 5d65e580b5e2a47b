//! Per-server rule sets: documents a server's moderators add, stored in the
//! match database (`store::rules`), searched with the shipped games by
//! `/rule` in that server only.
//!
//! Uploads are converted in a child process (`sandbox`): at most
//! [`CONVERSIONS`] at once, one per server, plus one lane for small text
//! documents ([`small_text`]) and one quick lane where any other upload
//! that finds the general places taken has a trial of [`QUICK_TRIAL`]
//! (a cheap file, a small PDF, is done there; a slow one then waits for a
//! general place), so one server's files never hold up another's. A server's index is built once per rule-set version
//! (single flight: concurrent requests wait for the same build), right
//! after a change is confirmed, on a thread of its own at a lower priority,
//! one build at a time; never by a request on its own thread. Until it is
//! ready `/rule` answers from the newest version already built and says so
//! ([`RuleSets::answering`]). Built indexes are kept in a cache bounded by
//! their measured heap bytes ([`crate::heap`]), least recently used out. A
//! replica notices another's upload by the version check on the next
//! request and builds that version once, lazily, the same way.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Semaphore, watch};

use crate::app::cpu::CpuError;
use crate::app::{App, Words};
use crate::corpus::import::{Converted, Import, ImportError, ImportRequest, Preview, Target};
use crate::corpus::{Corpus, DocumentKind, GameManifest, Glossary, SourceDocument, SourceGame};
use crate::sandbox::{self, SandboxError};
use crate::search::Suggestion;
use crate::search::semantic::Known;
use crate::store::{
    HistoryText, MatchPin, PendingRule, RuleChange, RuleDoc, Store, StoreError, StoredManifest,
};

/// Heap bytes of server indexes kept at most, by default
/// (`ARBITER_INDEX_CACHE_MB`): the newest version of every server in use
/// fits, older versions and idle servers go first.
pub const CACHE_BUDGET: usize = 512 * 1024 * 1024;
/// Live documents a server may have at most.
pub const MAX_SERVER_DOCUMENTS: usize = 50;
/// Total size of a server's live documents (their converted text), at most.
pub const MAX_SERVER_BYTES: usize = 25 * 1024 * 1024;
/// Total size of the document text a server stores, live or in its
/// history (replaced and removed documents, kept whole so every version a
/// match pinned can be rebuilt), at most: four times the live quota, so a
/// rulebook can be revised several times, but one server's loop of
/// replacements cannot fill the database for every server.
pub const MAX_SERVER_STORED_BYTES: usize = 4 * MAX_SERVER_BYTES;
/// Heap bytes a server's documents may take once indexed, at most (each
/// document's, measured when it is converted).
pub const MAX_SERVER_INDEX_BYTES: usize = 192 * 1024 * 1024;
/// Conversions running at once, across servers.
pub const CONVERSIONS: usize = 2;
/// Size up to which a document that is not a PDF may take the small
/// documents' lane ([`small_text`]).
pub const SMALL_TEXT_BYTES: usize = 256 * 1024;
/// How long an upload may convert in the quick lane before it gives the
/// lane up and waits for a general place: a PDF's cost is not told by its
/// size (a 2.9 KB one whose forms draw each other runs to the time
/// limit), so it is tried. A two-page PDF converts in about 50 ms (a
/// debug build's child on a loaded machine took up to 2 s); a slow upload
/// loses at most this much.
pub const QUICK_TRIAL: Duration = Duration::from_secs(3);
/// How long an upload waits for a conversion slot: more than twice a
/// conversion's wall limit (20 s, `sandbox::Limits`), so a server in the
/// queue is served when the conversions ahead of it end.
pub const CONVERSION_WAIT: Duration = Duration::from_secs(45);
/// How long a request waits for its server's index to finish building
/// before it answers from the previous version.
pub const BUILD_GRACE: Duration = Duration::from_millis(300);
/// How long an upload waits for Confirm.
pub const PENDING_TTL_MS: i64 = 15 * 60 * 1000;
/// How long an upload's preview (`Import::new`: the document read against
/// its game's rules, an errata's names looked up) may wait for a worker of
/// the CPU pool and run: as long as the conversion before it may take (the
/// sandbox's wall time); an upload's reply is deferred.
pub const PREVIEW_BUDGET: Duration = Duration::from_secs(20);

/// Why a rule-set request failed, in words for the user.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Convert(#[from] SandboxError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("{}", unknown_document(id, suggestion.as_deref()))]
    UnknownDocument {
        id: String,
        suggestion: Option<String>,
    },
    #[error(
        "this upload is no longer waiting (confirmed, cancelled, older than 15 minutes, or one of more than 3 previews the server had waiting); add it again"
    )]
    Expired,
    #[error("{0}")]
    Quota(Words),
    /// A change that would undo someone else's unseen (two previews of one
    /// title confirmed in turn).
    #[error("{0}")]
    Conflict(Words),
    #[error("{0}")]
    Busy(String),
    #[error("building the index failed: {0}")]
    Build(String),
    /// A game named that no rule set here knows (with its did-you-mean).
    #[error("{0}")]
    Game(crate::app::AppError),
}

/// [`RulesError::UnknownDocument`]'s words, the id typed and the
/// suggestion as given (escaped for Discord by [`RulesError::with_values`]).
fn unknown_document(id: &str, suggestion: Option<&str>) -> String {
    let tail = match suggestion {
        Some(s) => format!("; did you mean '{s}'?"),
        None => "; the rule set's list (`/rules list`, `arbiter rules list`) shows the ids".into(),
    };
    format!("no document '{id}' is live in this server's rule set{tail}")
}

impl RulesError {
    /// The words with every value someone typed passed through `shown`
    /// (Discord's reply escapes them) and the template's own code spans
    /// (the commands it names, the ids) kept as code; `None` for an error
    /// that is escaped whole. Escaped whole, "(`/rules list`, …)" showed
    /// its backticks (found by an outside tester), as did a quota's or a
    /// conflict's ids and commands ([`Words`]).
    pub fn with_values(&self, shown: &dyn Fn(&str) -> String) -> Option<String> {
        match self {
            RulesError::UnknownDocument { id, suggestion } => {
                let suggestion = suggestion.as_deref().map(shown);
                Some(unknown_document(&shown(id), suggestion.as_deref()))
            }
            RulesError::Quota(words) | RulesError::Conflict(words) => Some(words.shown(shown)),
            RulesError::Game(e) => e.with_values(shown),
            RulesError::Import(e) | RulesError::Convert(SandboxError::Refused(e)) => {
                e.with_values(shown)
            }
            _ => None,
        }
    }

    /// Whether the fault is the server's (logged with an id), not the request's.
    pub fn is_internal(&self) -> bool {
        match self {
            RulesError::Store(_) | RulesError::Build(_) => true,
            RulesError::Convert(e) => e.is_internal(),
            _ => false,
        }
    }
}

/// A document added: the server's new version and the document's id.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Added {
    pub version: i64,
    pub document: String,
    pub title: String,
    pub kind: DocumentKind,
    /// Bytes of history text pruned to make room (no open match pinned
    /// them; [`RuleSets::history`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub pruned: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Whether a quota check may prune the history to make room: the add
/// itself does; a preview or a dry run only counts what it would free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prune {
    Yes,
    No,
}

/// What a server stores (`rules history`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct History {
    /// Bytes of document text stored in all, live and history.
    pub stored: usize,
    /// Bytes of the live documents' text.
    pub live: usize,
    /// Bytes the server may store in all ([`MAX_SERVER_STORED_BYTES`]).
    pub quota: usize,
    /// Every replaced or removed document's text, oldest first.
    pub texts: Vec<HistoryEntry>,
    /// The server's open matches that pinned a version.
    pub pins: Vec<MatchPin>,
}

impl History {
    /// Bytes of history text kept for a match pinned at `version`.
    pub fn pinned_at(&self, version: i64) -> usize {
        self.texts
            .iter()
            .filter(|t| (t.text.version..t.text.until).contains(&version))
            .map(HistoryEntry::size)
            .sum()
    }
}

/// A replaced or removed document's text, with the open matches that need
/// it (a version it was live at is theirs).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HistoryEntry {
    #[serde(flatten)]
    pub text: HistoryText,
    pub pinned_by: Vec<MatchPin>,
}

impl HistoryEntry {
    /// Bytes its text takes (0 once pruned).
    pub fn size(&self) -> usize {
        usize::try_from(self.text.bytes).unwrap_or(0)
    }

    /// Whether pruning may take it: kept, and no open match pins it.
    pub fn prunable(&self) -> bool {
        self.text.pruned_at.is_none() && self.pinned_by.is_empty()
    }
}

/// What `rules prune` did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Pruned {
    /// Bytes of text deleted.
    pub freed: usize,
    /// The texts pruned now.
    pub pruned: Vec<HistoryText>,
    /// The history after.
    pub history: History,
}

/// The index a request answers from.
#[derive(Clone)]
pub struct Answering {
    pub app: Arc<App>,
    /// The rule-set version it holds (0: the shipped games only).
    pub version: i64,
    /// A newer version being indexed, when `app` is an older one.
    pub indexing: Option<i64>,
}

type Key = (String, i64);
/// A build's outcome, as every waiter sees it.
type Built = Option<Result<Arc<App>, String>>;

struct Cached {
    app: Arc<App>,
    bytes: usize,
    used: u64,
}

/// Indexes by server and rule-set version (the current one, versions
/// matches pinned, and older ones until the budget evicts them), and the
/// builds under way.
#[derive(Default)]
struct Cache {
    entries: HashMap<Key, Cached>,
    building: HashMap<Key, watch::Receiver<Built>>,
    bytes: usize,
    tick: u64,
    /// Servers' passage vectors by the key of their text, kept when their
    /// index leaves the cache: an index built again (evicted, then asked)
    /// reuses them instead of embedding a whole rulebook again, minutes of
    /// a processor (found by an outside tester). At most
    /// [`MAX_REMEMBERED_VECTORS`] (about 400 bytes each); cleared when full.
    vectors: crate::search::semantic::Known,
}

/// Passage vectors remembered apart from the indexes (about 20 MB).
const MAX_REMEMBERED_VECTORS: usize = 50_000;

/// The shipped games plus each server's documents.
pub struct RuleSets {
    store: Store,
    shipped: Arc<Vec<SourceGame>>,
    base: Arc<App>,
    budget: usize,
    cache: Arc<Mutex<Cache>>,
    /// One index build at a time.
    builds: Arc<Semaphore>,
    /// Index builds started so far.
    started: std::sync::atomic::AtomicUsize,
    /// Index builds done so far (a replaced version nobody waits for is
    /// skipped, not built).
    built: Arc<std::sync::atomic::AtomicUsize>,
    conversions: Arc<Semaphore>,
    /// The small documents' lane ([`small_text`]): one conversion.
    small: Arc<Semaphore>,
    /// The quick lane: one trial of [`QUICK_TRIAL`] at a time.
    quick: Arc<Semaphore>,
    /// Uploads whose trial ran out, waiting for a general place.
    after_trial: Arc<std::sync::atomic::AtomicUsize>,
    /// Servers with a conversion under way.
    converting: Arc<Mutex<std::collections::HashSet<String>>>,
    limits: sandbox::Limits,
    /// How long [`RuleSets::answering`] waits for a build under way.
    grace: Duration,
    /// Document text a server may store in all ([`MAX_SERVER_STORED_BYTES`]).
    stored_quota: usize,
    /// Build a server's new version as soon as it changes (a server);
    /// a one-shot command exits first, so it builds nothing ahead.
    warm: bool,
    /// [`PREVIEW_BUDGET`], or a test's.
    preview_budget: Duration,
}

/// An upload to convert and preview.
pub struct Upload {
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub game: String,
    pub kind: DocumentKind,
    pub title: Option<String>,
    /// The live document this one replaces (`/rules add replace:`,
    /// `arbiter rules add --replace`): it takes that document's id and
    /// passage ids, in one version.
    pub replaces: Option<String>,
}

impl RuleSets {
    /// `shipped` are the sources `base` was built from.
    pub fn new(store: Store, shipped: Vec<SourceGame>, base: Arc<App>) -> RuleSets {
        RuleSets::with_budget(store, shipped, base, CACHE_BUDGET)
    }

    /// With a cache of at most `budget` heap bytes of server indexes (the
    /// newest index built is kept even when it alone is larger).
    pub fn with_budget(
        store: Store,
        shipped: Vec<SourceGame>,
        base: Arc<App>,
        budget: usize,
    ) -> RuleSets {
        RuleSets {
            store,
            shipped: Arc::new(shipped),
            base,
            budget,
            cache: Arc::new(Mutex::new(Cache::default())),
            builds: Arc::new(Semaphore::new(1)),
            started: Default::default(),
            built: Arc::default(),
            conversions: Arc::new(Semaphore::new(CONVERSIONS)),
            small: Arc::new(Semaphore::new(1)),
            quick: Arc::new(Semaphore::new(1)),
            after_trial: Arc::default(),
            converting: Arc::default(),
            limits: sandbox::Limits::default(),
            grace: BUILD_GRACE,
            stored_quota: MAX_SERVER_STORED_BYTES,
            warm: true,
            preview_budget: PREVIEW_BUDGET,
        }
    }

    /// Builds nothing ahead after a change ([`RuleSets::prepare`]), and a
    /// build stops at the index (no passage vectors embedded after it): for
    /// a one-shot command (`arbiter rules add`, `ask --guild`), which would
    /// exit, closing the database, under the work it started. Such a
    /// command gives an index its stage with [`RuleSets::stage_now`].
    pub fn without_warming(mut self) -> RuleSets {
        self.warm = false;
        self
    }

    /// An upload's preview waits for a worker of the CPU pool and runs
    /// within `budget` ([`PREVIEW_BUDGET`] otherwise).
    pub fn with_preview_budget(mut self, budget: Duration) -> RuleSets {
        self.preview_budget = budget;
        self
    }

    /// Waits up to `grace` for a build under way before answering from an
    /// older version (the console waits for it: one user, offline).
    pub fn with_grace(mut self, grace: Duration) -> RuleSets {
        self.grace = grace;
        self
    }

    /// With at most `bytes` of document text stored per server, live and
    /// history (tests: a small quota filled by small documents).
    pub fn with_stored_quota(mut self, bytes: usize) -> RuleSets {
        self.stored_quota = bytes;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Server indexes currently cached.
    pub fn cached(&self) -> usize {
        lock(&self.cache).entries.len()
    }

    /// Index builds started so far (one per server and version, however
    /// many requests asked for it at once).
    pub fn builds_started(&self) -> usize {
        self.started.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Index builds done so far: a version a newer one replaced before
    /// its turn, that nobody waits for, is skipped.
    pub fn builds_done(&self) -> usize {
        self.built.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Holds the one index-build turn until the permit is dropped: builds
    /// queue meanwhile (what a server's burst of changes meets while
    /// another server's build runs). For tests.
    pub async fn hold_builds(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.builds
            .clone()
            .acquire_owned()
            .await
            .expect("the build semaphore is never closed")
    }

    /// Holds every general place among the conversions (not the small
    /// documents' lane nor the quick lane) until the permits are dropped (what uploads meet while other
    /// servers' long conversions run). For tests.
    pub async fn hold_conversions(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.conversions
            .clone()
            .acquire_many_owned(CONVERSIONS as u32)
            .await
            .expect("the conversion semaphore is never closed")
    }

    /// Servers with a conversion under way, waiting for a place or
    /// converting (each may have one).
    pub fn servers_converting(&self) -> usize {
        lock(&self.converting).len()
    }

    /// Uploads whose trial in the quick lane ran out, waiting for a
    /// general place.
    pub fn waiting_after_trial(&self) -> usize {
        self.after_trial.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Heap bytes of the server indexes currently cached.
    pub fn cached_bytes(&self) -> usize {
        lock(&self.cache).bytes
    }

    /// The index `/rule` uses in this server: the shipped games plus its
    /// documents at their current version, waiting for its build (single
    /// flight) when it is not ready. For the console and the CLI; the bot
    /// answers with [`RuleSets::answering`].
    pub async fn app_for(&self, guild: &str) -> Result<Arc<App>, RulesError> {
        let version = self.store.rule_set_version(guild).await?;
        self.ready_at(guild, version).await
    }

    /// The index of this server's rule set as it was at `version` (a
    /// match's pinned version): later uploads and removals do not change
    /// it. A version past the newest (a forged button) is the newest, and
    /// so is one whose history text was pruned (no open match pinned it:
    /// an ended match's rule buttons, say), never a version rebuilt with
    /// a document's text missing.
    pub async fn app_at(&self, guild: &str, version: i64) -> Result<Arc<App>, RulesError> {
        let newest = self.store.rule_set_version(guild).await?;
        let version = version.min(newest);
        if version < newest && self.store.rule_version_pruned(guild, version).await? {
            return self.ready_at(guild, newest).await;
        }
        self.ready_at(guild, version).await
    }

    /// The index a request answers from now: the current version when it
    /// is built (or finishes within the grace, [`BUILD_GRACE`] by default), else the newest
    /// version already built, with the one being indexed named. A request
    /// never builds an index itself; it may start the build.
    pub async fn answering(&self, guild: &str) -> Result<Answering, RulesError> {
        let version = self.store.rule_set_version(guild).await?;
        if version <= 0 {
            return Ok(self.shipped_only());
        }
        if let Some(app) = self.cached_at(guild, version) {
            return Ok(Answering {
                app,
                version,
                indexing: None,
            });
        }
        let mut rx = self.start_build(guild, version);
        if let Ok(Some(Ok(app))) = tokio::time::timeout(self.grace, wait(&mut rx)).await {
            return Ok(Answering {
                app,
                version,
                indexing: None,
            });
        }
        let older = self.newest_cached_before(guild, version);
        let (app, built) = older.unwrap_or_else(|| (self.base.clone(), 0));
        Ok(Answering {
            app,
            version: built,
            indexing: Some(version),
        })
    }

    fn shipped_only(&self) -> Answering {
        Answering {
            app: self.base.clone(),
            version: 0,
            indexing: None,
        }
    }

    /// Builds (single flight) and waits for the index of `version`.
    async fn ready_at(&self, guild: &str, version: i64) -> Result<Arc<App>, RulesError> {
        if version <= 0 {
            return Ok(self.base.clone());
        }
        if let Some(app) = self.cached_at(guild, version) {
            return Ok(app);
        }
        let mut rx = self.start_build(guild, version);
        match wait(&mut rx).await {
            Some(Ok(app)) => Ok(app),
            Some(Err(e)) => Err(RulesError::Build(e)),
            None => Err(RulesError::Build("the build was dropped".into())),
        }
    }

    /// The build of `(guild, version)`: the one under way, or a new one.
    /// The build runs in a task of its own: a waiter that gives up does
    /// not stop it, and later waiters share it.
    fn start_build(&self, guild: &str, version: i64) -> watch::Receiver<Built> {
        let key: Key = (guild.to_string(), version);
        let mut cache = lock(&self.cache);
        // A build whose task is gone (its runtime ended: one console
        // command after another) is started again.
        if let Some(rx) = cache
            .building
            .get(&key)
            .filter(|rx| rx.has_changed().is_ok())
        {
            return rx.clone();
        }
        let (tx, rx) = watch::channel(None);
        cache.building.insert(key.clone(), rx.clone());
        drop(cache);
        self.started
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let built = self.built.clone();
        let job = BuildJob {
            store: self.store.clone(),
            shipped: self.shipped.clone(),
            base: self.base.clone(),
            cache: self.cache.clone(),
            builds: self.builds.clone(),
            budget: self.budget,
            embed: self.warm,
        };
        tokio::spawn(async move {
            // Someone besides the cache's own handle waits for it.
            let wanted = || tx.receiver_count() > 1;
            let result = job.run(&key, wanted).await;
            let mut cache = lock(&job.cache);
            cache.building.remove(&key);
            if let Ok(Some((app, bytes))) = &result {
                insert(&mut cache, key.clone(), app.clone(), *bytes, job.budget);
                built.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            drop(cache);
            let result = match result {
                Ok(Some((app, _))) => Ok(app),
                Ok(None) => Err("a newer version of the rule set replaced this one".to_string()),
                Err(e) => {
                    tracing::warn!(guild = %key.0, version = key.1, "building a server's index failed: {e}");
                    Err(e)
                }
            };
            let _ = tx.send(Some(result));
        });
        rx
    }

    fn cached_at(&self, guild: &str, version: i64) -> Option<Arc<App>> {
        let mut cache = lock(&self.cache);
        cache.tick += 1;
        let tick = cache.tick;
        let entry = cache.entries.get_mut(&(guild.to_string(), version))?;
        entry.used = tick;
        Some(entry.app.clone())
    }

    fn newest_cached_before(&self, guild: &str, version: i64) -> Option<(Arc<App>, i64)> {
        let cache = lock(&self.cache);
        cache
            .entries
            .iter()
            .filter(|((g, v), _)| g == guild && *v < version)
            .max_by_key(|((_, v), _)| *v)
            .map(|((_, v), c)| (c.app.clone(), *v))
    }

    /// Starts building the server's current version now (after a change),
    /// so that the first question after it finds it ready.
    pub async fn prepare(&self, guild: &str) -> Result<(), RulesError> {
        if !self.warm {
            return Ok(());
        }
        let version = self.store.rule_set_version(guild).await?;
        if version > 0 && self.cached_at(guild, version).is_none() {
            drop(self.start_build(guild, version));
        }
        Ok(())
    }

    /// Converts an upload in a child process (`sandbox`) and previews it
    /// against this server's games. Nothing is stored.
    pub async fn convert(
        &self,
        guild: &str,
        upload: Upload,
    ) -> Result<(StoredManifest, String, Preview), RulesError> {
        let mut slot = self.conversion_slot(guild, small_text(&upload)).await?;
        // One version read first: the document replaced and the corpus the
        // ids are decided against are both of it.
        let decided_at = self.store.rule_set_version(guild).await?.max(0);
        let replaced = match &upload.replaces {
            Some(id) => Some(self.live_document(guild, id, decided_at).await?),
            None => None,
        };
        let current = self
            .current_corpus(guild, decided_at, replaced.as_ref())
            .await?;
        let known: &Corpus = match &current {
            Current::Cached(app) => &app.corpus,
            Current::Built(corpus) => corpus,
        };
        // A replacement keeps the replaced document's title unless given
        // one: a Markdown document's first heading names no level of its
        // ids only when it is the title.
        let title = upload
            .title
            .clone()
            .or_else(|| replaced.as_ref().map(|d| d.manifest.document.title.clone()));
        let req = ImportRequest {
            file_name: &upload.file_name,
            bytes: &upload.bytes,
            game: &upload.game,
            kind: upload.kind,
            title: title.as_deref(),
        };
        let mut target = crate::corpus::import::target(known, &req)?;
        if let Some(old) = &replaced {
            replace_target(&mut target, old)?;
        }
        let done = self
            .convert_in(&mut slot, target.clone(), upload.bytes)
            .await?;
        let mut imported = self
            .preview_on_pool(current, &target, done.converted)
            .await?;
        // A revision sent under the same title goes beside the live one:
        // answers would quote both, so the preview says how to replace it.
        let live = self.store.rule_docs(guild, None).await?;
        if let Some(old) = &replaced {
            let (old, preview) = (old.clone(), imported.preview.clone());
            let note = tokio::task::spawn_blocking(move || replace_note(&old, &preview))
                .await
                .map_err(|e| RulesError::Build(format!("comparing the ids failed: {e}")))?;
            imported.preview.warnings.insert(0, note);
        } else if let Some(old) = live.iter().find(|d| {
            d.manifest.game == target.game
                && crate::text::fold_eq(&d.manifest.document.title, &target.title)
        }) {
            let id = old.manifest.id();
            // A card or slang list is never quoted: both lists apply.
            let both = match target.kind.item_noun() {
                Some(noun) => format!("both lists' {noun}s apply"),
                None => "answers will quote both".to_string(),
            };
            imported.preview.warnings.insert(
                0,
                format!(
                    "a document titled “{}” is already live as `{id}`: this one is added beside it, and {both}; to replace it instead, keeping its ids, send it with `replace:{id}` (`arbiter rules add … --replace {id}`)",
                    old.manifest.document.title
                ),
            );
        }
        let doc = imported.document();
        // What is stored, as the quota counts it: a card list's YAML aliases
        // can multiply a small file (251 KB stored as 15 MB).
        if doc.text.len() > crate::corpus::import::MAX_TEXT_BYTES {
            return Err(RulesError::Quota(Words::fill(
                "this file converts to {} KB of text, past the {} KB a document may keep (YAML anchors and aliases are stored written out); write it shorter or split it",
                vec![
                    doc.text.len().div_ceil(1024).to_string(),
                    (crate::corpus::import::MAX_TEXT_BYTES / 1024).to_string(),
                ],
            )));
        }
        let mut document = doc.manifest.clone();
        document.version = format!("this server, added {}", date(crate::store::now_ms()));
        let manifest = StoredManifest {
            game: imported.preview.game.clone(),
            game_name: imported.preview.game_name.clone(),
            document,
            index_bytes: done.index_bytes,
            decided_at,
        };
        Ok((manifest, doc.text.clone(), imported.preview))
    }

    /// The preview of a converted upload against `current` (`Import::new`,
    /// the card aliases other cards hold), on the CPU pool: a large
    /// document's, or an errata's names looked up among a rulebook's, is
    /// work that would hold up every request of this async worker.
    async fn preview_on_pool(
        &self,
        current: Current,
        target: &Target,
        converted: Converted,
    ) -> Result<Import, RulesError> {
        let target = target.clone();
        let budget = self.preview_budget;
        crate::app::cpu::run_within(budget, move || {
            let known: &Corpus = match &current {
                Current::Cached(app) => &app.corpus,
                Current::Built(corpus) => corpus,
            };
            let mut imported = Import::new(known, &target, converted);
            crate::cards::warn_taken_aliases(known, &mut imported);
            imported
        })
        .await
        .map_err(|e| match e {
            CpuError::Panicked(why) => RulesError::Build(format!("previewing the upload failed: {why}")),
            CpuError::Busy { .. } => RulesError::Busy(format!(
                "Arbiter is busy with other work and could not preview this upload within {} s; please send it again in a moment",
                budget.as_secs()
            )),
            CpuError::TooSlow { .. } => RulesError::Busy(format!(
                "previewing this upload took longer than the {} s allowed and was stopped; a shorter document will go through",
                budget.as_secs()
            )),
        })
    }

    /// The corpus of the server's current version, which an upload's ids
    /// are decided against: the cached index's when it is built, else built
    /// here from the stored documents (no index, no wait for the build
    /// turn). Never an older version's: the shipped index, answering while
    /// a whole rulebook is still being indexed, would preview ids the live
    /// documents already use.
    /// Without `replaced`, the document an upload replaces (whose ids it
    /// takes over).
    async fn current_corpus(
        &self,
        guild: &str,
        version: i64,
        replaced: Option<&RuleDoc>,
    ) -> Result<Current, RulesError> {
        if version <= 0 {
            return Ok(Current::Cached(self.base.clone()));
        }
        if replaced.is_none()
            && let Some(app) = self.cached_at(guild, version)
        {
            return Ok(Current::Cached(app));
        }
        let mut docs = self.store.rule_docs(guild, Some(version)).await?;
        if let Some(old) = replaced {
            docs.retain(|d| d.manifest.id() != old.manifest.id());
        }
        let shipped = self.shipped.clone();
        tokio::task::spawn_blocking(move || Current::Built(server_corpus(&shipped, &docs)))
            .await
            .map_err(|e| RulesError::Build(format!("reading the rule set failed: {e}")))
    }

    /// A place among the conversions running: one per server, at most
    /// [`CONVERSIONS`] in all, waiting up to [`CONVERSION_WAIT`] for one.
    /// The queue is first come, first served (tokio's semaphore), and a
    /// conversion ends within its processor limit, so a server waits at
    /// most for the conversions already running: two servers sending
    /// hostile files over and over cannot keep a third out (they queue
    /// behind it). A small text document (`small`) takes whichever frees
    /// first of those and the small documents' lane: four servers' PDFs
    /// that each ran to the time limit kept a fifth server's 60-byte
    /// Markdown file waiting 39 s (found by an outside tester).
    async fn conversion_slot(
        &self,
        guild: &str,
        small: bool,
    ) -> Result<ConversionSlot, RulesError> {
        if !lock(&self.converting).insert(guild.to_string()) {
            return Err(RulesError::Busy(
                "this server is already converting a document; wait for its preview, then add the next".into(),
            ));
        }
        let mut slot = ConversionSlot {
            guild: guild.to_string(),
            converting: self.converting.clone(),
            _permit: None,
            trial: false,
        };
        let general = self.conversions.clone().acquire_owned();
        let place = async {
            if small {
                // The small lane first when both are free: a general place
                // taken by a small document is one a PDF then waits for.
                tokio::select! {
                    biased;
                    p = self.small.clone().acquire_owned() => p.map(|p| (p, false)),
                    p = general => p.map(|p| (p, false)),
                }
            } else {
                // A general place first when one is free: a trial's time is
                // spent only while every general place is taken.
                tokio::select! {
                    biased;
                    p = general => p.map(|p| (p, false)),
                    p = self.quick.clone().acquire_owned() => p.map(|p| (p, true)),
                }
            }
        };
        match tokio::time::timeout(CONVERSION_WAIT, place).await {
            Ok(Ok((permit, trial))) => {
                slot._permit = Some(permit);
                slot.trial = trial;
                Ok(slot)
            }
            _ => Err(busy()),
        }
    }

    /// Converts in the slot's lane: in the quick lane a trial of
    /// [`QUICK_TRIAL`] first; an upload that runs out of it frees the lane
    /// and waits for a general place, where it converts under the full
    /// limits (its wait for that place starts again: the trial is what it
    /// had of its turn). Any other end of a trial (done, refused, out of
    /// memory) is the conversion's, as under the full limits.
    async fn convert_in(
        &self,
        slot: &mut ConversionSlot,
        target: Target,
        bytes: Vec<u8>,
    ) -> Result<sandbox::Sandboxed, RulesError> {
        if slot.trial {
            let trial = sandbox::Limits {
                wall: self.limits.wall.min(QUICK_TRIAL),
                cpu: self.limits.cpu.min(QUICK_TRIAL),
                ..self.limits
            };
            match sandbox::convert(target.clone(), bytes.clone(), trial).await {
                Err(SandboxError::Wall { .. } | SandboxError::Cpu { .. }) => {
                    slot._permit = None;
                    slot.trial = false;
                    let general = self.conversions.clone().acquire_owned();
                    let _counted = Counted::new(&self.after_trial);
                    match tokio::time::timeout(CONVERSION_WAIT, general).await {
                        Ok(Ok(permit)) => slot._permit = Some(permit),
                        _ => return Err(busy()),
                    }
                }
                done => return done.map_err(conversion_error),
            }
        }
        sandbox::convert(target, bytes, self.limits)
            .await
            .map_err(conversion_error)
    }

    /// Converts and previews an upload and keeps it under a token until
    /// [`RuleSets::confirm`]: nothing is live before.
    pub async fn preview(
        &self,
        guild: &str,
        actor: &str,
        token: &str,
        upload: Upload,
    ) -> Result<Preview, RulesError> {
        let (manifest, body, preview) = self.convert(guild, upload).await?;
        self.check_quota(guild, &manifest, body.len(), Prune::No)
            .await?;
        let pending = PendingRule {
            guild: guild.to_string(),
            actor: actor.to_string(),
            manifest,
            body,
            created_at: 0,
        };
        let now = crate::store::now_ms();
        self.store
            .keep_pending_rule(token, &pending, now - PENDING_TTL_MS)
            .await?;
        Ok(preview)
    }

    /// Makes a previewed upload live: a new version of the server's rule
    /// set, whose index starts building at once.
    pub async fn confirm(&self, guild: &str, token: &str) -> Result<Added, RulesError> {
        let since = crate::store::now_ms() - PENDING_TTL_MS;
        let pending = self
            .store
            .take_pending_rule(token, guild, since)
            .await?
            .ok_or(RulesError::Expired)?;
        self.unchanged_since_decided(guild, &pending.manifest)
            .await?;
        let since = Some(pending.manifest.decided_at);
        self.store_doc(
            guild,
            &pending.manifest,
            &pending.body,
            &pending.actor,
            since,
        )
        .await
    }

    /// Refuses a document whose game changed after the version its ids and
    /// the document it replaces were decided against, naming the change.
    async fn unchanged_since_decided(
        &self,
        guild: &str,
        manifest: &StoredManifest,
    ) -> Result<(), RulesError> {
        // A change of the same game since this preview (another
        // moderator's upload, or a removal: of the document it replaces,
        // say) may have taken the ids or the title previewed, or brought
        // back what was removed: nothing is replaced or renumbered unseen.
        let id = manifest.id();
        let changes = self.store.rule_changes(guild).await?;
        // By version, not time: a change made while the preview converted
        // (after its version was read, before it was kept) counts too.
        let decided_at = manifest.decided_at;
        if let Some(c) = changes
            .iter()
            .find(|c| c.game == manifest.game && c.version > decided_at)
        {
            let done = match c.action {
                crate::store::RuleAction::Add => "added",
                crate::store::RuleAction::Remove => "removed",
            };
            return Err(RulesError::Conflict(if c.document == id {
                Words::fill(
                    "`{}` was {} after this preview; nothing changed: send yours again for a new preview",
                    vec![id, done.into()],
                )
            } else {
                Words::fill(
                    "`{}` was {} in this game after this preview, so what it showed may no longer hold; nothing changed: send yours again for a new preview",
                    vec![c.document.clone(), done.into()],
                )
            }));
        }
        Ok(())
    }

    /// Drops a previewed upload of this server; whether one was waiting
    /// (`false`: unknown, expired, or another server's).
    pub async fn cancel(&self, guild: &str, token: &str) -> Result<bool, RulesError> {
        Ok(self
            .store
            .take_pending_rule(token, guild, 0)
            .await?
            .is_some())
    }

    /// Converts and previews an upload as [`RuleSets::preview`] would, with
    /// its refusals (the same file live, the quota), keeping nothing
    /// (`arbiter rules add --dry-run`).
    pub async fn dry_run(&self, guild: &str, upload: Upload) -> Result<Preview, RulesError> {
        let (manifest, body, preview) = self.convert(guild, upload).await?;
        self.check_quota(guild, &manifest, body.len(), Prune::No)
            .await?;
        Ok(preview)
    }

    /// Converts and adds at once (operators: `arbiter rules add`).
    pub async fn add(
        &self,
        guild: &str,
        actor: &str,
        upload: Upload,
    ) -> Result<(Added, Preview), RulesError> {
        let replacing = upload.replaces.is_some();
        let (manifest, body, preview) = self.convert(guild, upload).await?;
        let added = self
            .add_converted(guild, actor, &manifest, &body, replacing)
            .await?;
        Ok((added, preview))
    }

    /// Adds a converted upload ([`RuleSets::convert`]). A replacement is
    /// added only while its game is unchanged since it was converted,
    /// checked in the insert itself as a Confirm's is: a removal of the
    /// document it replaces, committed meanwhile (`arbiter rules remove`
    /// racing `arbiter rules add --replace`), refuses it rather than
    /// bringing the removed document back as an add. Other adds of a
    /// game's documents both go in.
    pub async fn add_converted(
        &self,
        guild: &str,
        actor: &str,
        manifest: &StoredManifest,
        body: &str,
        replacing: bool,
    ) -> Result<Added, RulesError> {
        let since = replacing.then_some(manifest.decided_at);
        if replacing {
            self.unchanged_since_decided(guild, manifest).await?;
        }
        self.store_doc(guild, manifest, body, actor, since).await
    }

    /// Stores a document as the next version; with `unchanged_since` (a
    /// Confirm: the version its preview was decided against), only while no
    /// change of its game is past it, checked in the insert itself, so a
    /// change committed meanwhile on another replica refuses it. A direct
    /// add (`arbiter rules add`) converts and adds at once, and concurrent
    /// adds of other documents of the game both go in.
    async fn store_doc(
        &self,
        guild: &str,
        manifest: &StoredManifest,
        body: &str,
        actor: &str,
        unchanged_since: Option<i64>,
    ) -> Result<Added, RulesError> {
        let pruned = self
            .check_quota(guild, manifest, body.len(), Prune::Yes)
            .await?;
        let Some(version) = self
            .store
            .add_rule_doc(guild, manifest, body, actor, unchanged_since)
            .await?
        else {
            return Err(RulesError::Conflict(Words::fixed(
                "this game's documents changed while this upload was being added; nothing changed: send it again for a new preview",
            )));
        };
        self.prepare(guild).await?;
        Ok(Added {
            version,
            document: manifest.id(),
            title: manifest.document.title.clone(),
            kind: manifest.document.kind,
            pruned,
        })
    }

    /// Refuses a document that would take the server past its quota: its
    /// number of documents, their text, the text it stores in all (its
    /// history's too, less what pruning may free), and the memory their
    /// index takes. With [`Prune::Yes`] (the add itself, not a preview)
    /// prunes that history first; returns the bytes it freed.
    async fn check_quota(
        &self,
        guild: &str,
        manifest: &StoredManifest,
        bytes: usize,
        prune: Prune,
    ) -> Result<usize, RulesError> {
        let live = self.store.rule_docs(guild, None).await?;
        // The same file twice would answer every question with each
        // passage twice (a document replacing itself is no second one).
        // A replacement by the very same text, title and kind changes
        // nothing either (a new title or kind for the same text is a change).
        if let Some(same) = live.iter().find(|d| {
            d.manifest.game == manifest.game
                && d.manifest.document.sha256.is_some()
                && d.manifest.document.sha256 == manifest.document.sha256
                && (d.manifest.id() != manifest.id()
                    || (d.manifest.document.title == manifest.document.title
                        && d.manifest.document.kind == manifest.document.kind))
        }) {
            return Err(RulesError::Conflict(Words::fill(
                "this file is already live as `{}` (“{}”); nothing was added",
                vec![same.manifest.id(), same.manifest.document.title.clone()],
            )));
        }
        // A document replacing one of the same id takes its place.
        let live: Vec<&RuleDoc> = live
            .iter()
            .filter(|d| d.manifest.id() != manifest.id())
            .collect();
        if live.len() >= MAX_SERVER_DOCUMENTS {
            return Err(RulesError::Quota(Words::fill(
                "this server already has {} documents, the most it may keep; remove one first (`/rules list` and `/rules remove`, or `arbiter rules list` and `arbiter rules remove`)",
                vec![live.len().to_string()],
            )));
        }
        let used: usize = live.iter().map(|d| d.body.len()).sum();
        if used + bytes > MAX_SERVER_BYTES {
            return Err(RulesError::Quota(Words::fill(
                "this document ({} KB of text) would take the server's documents to {} KB, past its quota of {} MB; remove one first",
                vec![
                    (bytes / 1024).to_string(),
                    ((used + bytes) / 1024).to_string(),
                    (MAX_SERVER_BYTES / MB).to_string(),
                ],
            )));
        }
        let indexed: usize = live.iter().map(|d| index_bytes(d)).sum();
        let adds = manifest.index_bytes;
        if indexed + adds > MAX_SERVER_INDEX_BYTES {
            return Err(RulesError::Quota(Words::fill(
                "this document's index ({} MB in memory) would take the server's indexes to {} MB, past its quota of {} MB; remove a document first, or split this one",
                vec![
                    adds.div_ceil(MB).to_string(),
                    (indexed + adds).div_ceil(MB).to_string(),
                    (MAX_SERVER_INDEX_BYTES / MB).to_string(),
                ],
            )));
        }
        // Last: nothing is pruned for an add another check refuses.
        self.check_stored(guild, bytes, prune).await
    }

    /// Refuses a document that would take the text a server stores, its
    /// history's included, past [`MAX_SERVER_STORED_BYTES`] once the
    /// history's texts no open match pins are pruned: a loop of
    /// replacements grew the database 5 MB a cycle while the live quota saw
    /// one document (found by an outside tester), and a history kept whole
    /// then refused every add for good. With [`Prune::Yes`] those texts
    /// are pruned, oldest first, until the document fits; returns the
    /// bytes freed. A removal only moves text into the history, so only
    /// adds are checked.
    async fn check_stored(
        &self,
        guild: &str,
        bytes: usize,
        prune: Prune,
    ) -> Result<usize, RulesError> {
        let stored = usize::try_from(self.store.rule_text_bytes(guild).await?).unwrap_or(0);
        if stored + bytes <= self.stored_quota {
            return Ok(0);
        }
        let history = self.history(guild).await?;
        let prunable: Vec<&HistoryEntry> = history.texts.iter().filter(|t| t.prunable()).collect();
        let can_free: usize = prunable.iter().map(|t| t.size()).sum();
        if stored - can_free.min(stored) + bytes > self.stored_quota {
            return Err(self.stored_refusal(&history, bytes));
        }
        let mut freed = 0;
        if prune == Prune::Yes {
            for t in prunable {
                if stored - freed + bytes <= self.stored_quota {
                    break;
                }
                if self.store.prune_rule_text(guild, t.text.version).await? {
                    freed += t.size();
                }
            }
            // A match started meanwhile may pin what was to go.
            if stored - freed + bytes > self.stored_quota {
                return Err(self.stored_refusal(&self.history(guild).await?, bytes));
            }
        }
        Ok(freed)
    }

    /// The refusal of a document that does not fit even with every text
    /// no open match pins pruned: what the open matches pin, by match.
    fn stored_refusal(&self, history: &History, bytes: usize) -> RulesError {
        let pinned: usize = history
            .texts
            .iter()
            .filter(|t| !t.pinned_by.is_empty())
            .map(HistoryEntry::size)
            .sum();
        let matches: Vec<String> = history
            .pins
            .iter()
            .map(|p| {
                format!(
                    "match {} in channel {} (version {}: {} KB)",
                    p.match_id,
                    p.channel,
                    p.version,
                    history.pinned_at(p.version).div_ceil(1024)
                )
            })
            .collect();
        let (by, fix) = if matches.is_empty() {
            (String::new(), "remove a document, or send a shorter one")
        } else {
            (
                format!(
                    " by open matches, each keeping the rule-set version it started with until it ends: {}",
                    matches.join(", ")
                ),
                "end those matches, remove a document, or send a shorter one",
            )
        };
        RulesError::Quota(Words::fill(
            "this document ({} KB of text) would take the text this server stores to {} KB, past the {} KB it may store in all, even with every replaced or removed document no open match needs pruned: {} KB is live and {} KB of the history is pinned{}; nothing was added: {}",
            vec![
                bytes.div_ceil(1024).to_string(),
                (history.stored + bytes).div_ceil(1024).to_string(),
                (self.stored_quota / 1024).to_string(),
                history.live.div_ceil(1024).to_string(),
                pinned.div_ceil(1024).to_string(),
                by,
                fix.into(),
            ],
        ))
    }

    /// What the server stores (`rules history`): its live text, and each
    /// replaced or removed document's text with the open matches that pin
    /// a version it was live at, or when it was pruned.
    pub async fn history(&self, guild: &str) -> Result<History, RulesError> {
        let stored = usize::try_from(self.store.rule_text_bytes(guild).await?).unwrap_or(0);
        let pins = self.store.open_rule_set_pins(guild).await?;
        let texts: Vec<HistoryEntry> = self
            .store
            .rule_history_texts(guild)
            .await?
            .into_iter()
            .map(|text| HistoryEntry {
                pinned_by: pins
                    .iter()
                    .filter(|p| (text.version..text.until).contains(&p.version))
                    .cloned()
                    .collect(),
                text,
            })
            .collect();
        let kept: usize = texts.iter().map(HistoryEntry::size).sum();
        Ok(History {
            stored,
            live: stored.saturating_sub(kept),
            quota: self.stored_quota,
            texts,
            pins,
        })
    }

    /// `rules prune`: deletes the text of every replaced or removed
    /// document no open match pins (the changes stay listed in `rules
    /// versions`); returns what was pruned and the history after.
    pub async fn prune(&self, guild: &str) -> Result<Pruned, RulesError> {
        let before = self.history(guild).await?;
        let mut pruned = Vec::new();
        for t in before.texts.iter().filter(|t| t.prunable()) {
            if self.store.prune_rule_text(guild, t.text.version).await? {
                pruned.push(t.text.clone());
            }
        }
        Ok(Pruned {
            freed: pruned
                .iter()
                .map(|t| usize::try_from(t.bytes).unwrap_or(0))
                .sum(),
            pruned,
            history: self.history(guild).await?,
        })
    }

    /// Gives a server's index (from [`RuleSets::app_for`]) its semantic
    /// stage now, from the shipped passages' vectors and those stored for
    /// its own, embedding nothing: for a one-shot command, for which a
    /// whole rulebook would be minutes. Returns how many of its passages
    /// have no vector (ranked lexically; [`RuleSets::embed_now`] or a
    /// running bot computes and stores them).
    pub async fn stage_now(&self, app: &Arc<App>) -> usize {
        let Some((encoder, known, _)) = self.vectors_at_hand(app).await else {
            return 0;
        };
        let missing = crate::search::semantic::missing(&app.corpus, &known).len();
        app.index.set_semantic(crate::search::semantic::Stage::new(
            &app.corpus,
            encoder,
            &known,
        ));
        missing
    }

    /// Embeds the passages of a server's index that have no stored vector,
    /// on `threads` cores, and stores them (`arbiter semantic vectors
    /// --guild`); returns how many were embedded. `None` without the model.
    pub async fn embed_now(&self, app: &Arc<App>, threads: usize) -> Option<usize> {
        let (encoder, known, keys) = self.vectors_at_hand(app).await?;
        let todo = crate::search::semantic::missing(&app.corpus, &known);
        let texts = crate::app::semantic::missing_texts(&app.corpus, &todo);
        let done = tokio::task::spawn_blocking(move || {
            crate::app::semantic::embed(&texts, encoder.as_ref(), threads)
        })
        .await
        .ok()?;
        store_vectors(&self.store, &keys, &done)
            .await
            .then_some(done.len())
    }

    /// The shipped stage's encoder, the vectors at hand for `app`'s
    /// passages (the shipped ones and those stored) and the passages' keys.
    /// `None` without a complete shipped stage (no model, or the feature
    /// off).
    async fn vectors_at_hand(&self, app: &Arc<App>) -> Option<VectorsAtHand> {
        let base = self.base.clone();
        // Loads a one-shot command's model and shipped vectors (deferred).
        let stage = tokio::task::spawn_blocking(move || {
            base.semantic_state();
            base.index.semantic().filter(|s| s.complete())
        })
        .await
        .ok()??;
        let mut known = self.base.known_vectors();
        let keys = passage_keys(app);
        known.extend(stored_vectors(&self.store, &keys, &known).await);
        Some((stage.encoder(), known, keys))
    }

    /// The server's document `id` live at `version`, or which ids there are.
    async fn live_document(
        &self,
        guild: &str,
        id: &str,
        version: i64,
    ) -> Result<RuleDoc, RulesError> {
        let wanted = id.trim().to_lowercase();
        let live = self.store.rule_docs(guild, Some(version)).await?;
        if let Some(d) = live.iter().find(|d| d.manifest.id() == wanted) {
            return Ok(d.clone());
        }
        let ids: Vec<String> = live.iter().map(|d| d.manifest.id()).collect();
        Err(RulesError::UnknownDocument {
            id: id.trim().to_string(),
            suggestion: crate::text::closest(&wanted, ids.iter().map(String::as_str), 3)
                .map(str::to_string),
        })
    }

    /// Removes a live document; the history keeps it. Returns the new version.
    pub async fn remove(
        &self,
        guild: &str,
        document: &str,
        actor: &str,
    ) -> Result<i64, RulesError> {
        let id = document.trim().to_lowercase();
        let Some(version) = self.store.remove_rule_doc(guild, &id, actor).await? else {
            let live: Vec<String> = self
                .store
                .rule_docs(guild, None)
                .await?
                .iter()
                .map(|d| d.manifest.id())
                .collect();
            let suggestion =
                crate::text::closest(&id, live.iter().map(String::as_str), 3).map(str::to_string);
            return Err(RulesError::UnknownDocument {
                id: document.trim().to_string(),
                suggestion,
            });
        };
        self.prepare(guild).await?;
        Ok(version)
    }

    /// The server's live documents whose id or title fuzzily matches
    /// `partial` (at most `limit`, ≤ 25): `/rules remove id:` autocomplete.
    pub async fn complete_documents(
        &self,
        guild: &str,
        partial: &str,
        limit: usize,
    ) -> Result<Vec<Suggestion>, RulesError> {
        let docs = self.store.rule_docs(guild, None).await?;
        let keys: Vec<String> = docs
            .iter()
            .map(|d| format!("{} {}", d.manifest.id(), d.manifest.document.title))
            .collect();
        let limit = limit.min(crate::search::MAX_SUGGESTIONS);
        Ok(
            crate::search::rank(keys.iter().map(String::as_str), partial, limit)
                .into_iter()
                .map(|i| Suggestion {
                    id: docs[i].manifest.id(),
                    title: docs[i].manifest.document.title.clone(),
                })
                .collect(),
        )
    }

    /// `/rules show id:` autocomplete: the server's documents first, then
    /// passages of its index (shipped games and its documents).
    pub async fn complete_ids(
        &self,
        guild: &str,
        partial: &str,
        limit: usize,
    ) -> Result<Vec<Suggestion>, RulesError> {
        let limit = limit.min(crate::search::MAX_SUGGESTIONS);
        let mut out = self.complete_documents(guild, partial, limit).await?;
        let app = self.answering(guild).await?.app;
        let passages = app.complete(partial, None, limit).unwrap_or_default();
        for s in passages {
            if out.len() >= limit {
                break;
            }
            if !out.iter().any(|o| o.id == s.id) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// Games of this server's index (shipped and its own) matching `partial`.
    pub async fn complete_games(
        &self,
        guild: &str,
        partial: &str,
        limit: usize,
    ) -> Result<Vec<Suggestion>, RulesError> {
        let limit = limit.min(crate::search::MAX_SUGGESTIONS);
        Ok(self
            .answering(guild)
            .await?
            .app
            .complete_games(partial, limit))
    }

    /// The server's live documents.
    pub async fn list(&self, guild: &str) -> Result<Vec<RuleDoc>, RulesError> {
        Ok(self.store.rule_docs(guild, None).await?)
    }

    /// The server's rule-set history, optionally for one game (id, name or alias).
    pub async fn versions(
        &self,
        guild: &str,
        game: Option<&str>,
    ) -> Result<Vec<RuleChange>, RulesError> {
        let mut changes = self.store.rule_changes(guild).await?;
        if let Some(g) = game {
            let app = self.answering(guild).await?.app;
            // A game whose documents were all removed is no longer loaded,
            // but its history is still the server's.
            let id = match app.game(g) {
                Ok(known) => known.id.clone(),
                Err(e) => {
                    let slug = crate::corpus::clean::slug(g);
                    if !changes.iter().any(|c| c.game == slug) {
                        return Err(RulesError::Game(e));
                    }
                    slug
                }
            };
            changes.retain(|c| c.game == id);
        }
        Ok(changes)
    }
}

/// A live document as `/rules list` shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RuleDocView {
    pub id: String,
    pub game: String,
    pub kind: DocumentKind,
    pub title: String,
    /// The rule-set version that added it.
    pub version: i64,
    pub added_by: String,
    /// `YYYY-MM-DD`.
    pub added: String,
    pub source: String,
}

/// A document of the server that holds data, not passages (a card list, a
/// slang list), with what it holds: what `rules show` lists for it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct DataDocView {
    #[serde(flatten)]
    pub doc: RuleDocView,
    /// Its cards ("Ice Golem (Ally)") or terms ("sac → sacrifice"), in order.
    pub items: Vec<String>,
}

/// What becomes of a history text, in words: kept for the open matches
/// that pin it, pruned (when), or free to prune.
pub fn history_state(t: &HistoryEntry) -> String {
    if let Some(at) = t.text.pruned_at {
        return format!("pruned {}", date(at));
    }
    if t.pinned_by.is_empty() {
        return "no open match pins it: pruned when room is needed, or by `rules prune`".into();
    }
    let by: Vec<String> = t
        .pinned_by
        .iter()
        .map(|p| {
            format!(
                "match {} in channel {} (v{})",
                p.match_id, p.channel, p.version
            )
        })
        .collect();
    format!("pinned by {}", by.join(", "))
}

/// Kilobytes, rounded up, as the quota messages give them.
pub fn kb(bytes: usize) -> usize {
    bytes.div_ceil(1024)
}

/// What each change did, in words: "added", "removed", or "replaced" for
/// an add of an id live at the time (`/rules add replace:`); the changes in
/// version order, as [`RuleSets::versions`] gives them.
pub fn change_verbs(changes: &[crate::store::RuleChange]) -> Vec<&'static str> {
    let mut live = std::collections::HashSet::new();
    changes
        .iter()
        .map(|c| match c.action {
            crate::store::RuleAction::Add if !live.insert(c.document.as_str()) => "replaced",
            crate::store::RuleAction::Add => "added",
            crate::store::RuleAction::Remove => {
                live.remove(c.document.as_str());
                "removed"
            }
        })
        .collect()
}

/// Whether `id` has a document id's shape (`game:slug`, no passage path):
/// only such an id can name a data document, so only it is worth reading
/// the server's documents for (`rules show` of a passage reads none).
pub fn is_document_id(id: &str) -> bool {
    id.trim()
        .split_once(':')
        .is_some_and(|(_, rest)| !rest.is_empty() && !rest.contains('.'))
}

/// The server's data document `id` ([`DataDocView`]); `None` when no
/// document of the server has that id or it is a document of passages.
pub fn data_doc(docs: &[RuleDoc], id: &str) -> Option<DataDocView> {
    let d = docs.iter().find(|d| d.manifest.id() == id.trim())?;
    let items = match d.manifest.document.kind {
        DocumentKind::Slang => crate::corpus::slang::stored_entries(&d.body)?,
        DocumentKind::Cards => crate::cards::stored_names(&d.body)?,
        _ => return None,
    };
    Some(DataDocView {
        doc: doc_views(std::slice::from_ref(d)).remove(0),
        items,
    })
}

pub fn doc_views(docs: &[RuleDoc]) -> Vec<RuleDocView> {
    docs.iter()
        .map(|d| RuleDocView {
            id: d.manifest.id(),
            game: d.manifest.game.clone(),
            kind: d.manifest.document.kind,
            title: d.manifest.document.title.clone(),
            version: d.version,
            added_by: d.actor.clone(),
            added: date(d.at),
            source: d.manifest.document.source.clone(),
        })
        .collect()
}

const MB: usize = 1024 * 1024;

/// Heap bytes a document's index takes per byte of its text, for documents
/// stored before their index was measured (measured: about 6).
const INDEX_BYTES_PER_TEXT_BYTE: usize = 8;

/// A live document's index size: as measured at conversion, or estimated.
fn index_bytes(doc: &RuleDoc) -> usize {
    match doc.manifest.index_bytes {
        0 => doc.body.len() * INDEX_BYTES_PER_TEXT_BYTE,
        n => n,
    }
}

/// A server's place among the conversions; freed when dropped.
struct ConversionSlot {
    guild: String,
    converting: Arc<Mutex<std::collections::HashSet<String>>>,
    _permit: Option<tokio::sync::OwnedSemaphorePermit>,
    /// The place is the quick lane's: a trial ([`QUICK_TRIAL`]).
    trial: bool,
}

/// One more in a count while it lives.
struct Counted(Arc<std::sync::atomic::AtomicUsize>);

impl Counted {
    fn new(count: &Arc<std::sync::atomic::AtomicUsize>) -> Counted {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Counted(count.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// No conversion place came free in time.
fn busy() -> RulesError {
    RulesError::Busy(
        "Arbiter is converting other servers' documents and could not start on this one; try again in a minute".into(),
    )
}

/// A conversion's failure: the child's refusal is the import's.
fn conversion_error(e: SandboxError) -> RulesError {
    match e {
        SandboxError::Refused(e) => RulesError::Import(e),
        other => RulesError::Convert(other),
    }
}

/// Whether an upload may take the small documents' lane: at most
/// [`SMALL_TEXT_BYTES`] and not a PDF, whose cost its size does not tell
/// (a 2.9 KB PDF whose forms draw each other runs to the time limit).
pub fn small_text(upload: &Upload) -> bool {
    upload.bytes.len() <= SMALL_TEXT_BYTES
        && !crate::corpus::import::reads_as_pdf(&upload.file_name, &upload.bytes)
}

impl Drop for ConversionSlot {
    fn drop(&mut self) {
        lock(&self.converting).remove(&self.guild);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Waits until a build has an outcome (`None`: its task is gone).
async fn wait(rx: &mut watch::Receiver<Built>) -> Built {
    match rx.wait_for(Option::is_some).await {
        Ok(done) => done.clone(),
        Err(_) => None,
    }
}

/// Adds a built index; evicts the least recently used others while the
/// cache is over its budget.
fn insert(cache: &mut Cache, key: Key, app: Arc<App>, bytes: usize, budget: usize) {
    cache.tick += 1;
    let used = cache.tick;
    if let Some(old) = cache
        .entries
        .insert(key.clone(), Cached { app, bytes, used })
    {
        cache.bytes -= old.bytes;
    }
    cache.bytes += bytes;
    evict(cache, &key, budget);
}

/// Evicts indexes but `keep` while the cache is over its budget: the
/// least recently used of the server holding the most bytes first. A
/// server uploading version after version (or a rulebook after another)
/// evicts its own older indexes before another server's; plain least
/// recently used let one server's new versions push every quieter
/// server's index out, which was then answered from the shipped games
/// alone while it was built again (found by an outside tester).
fn evict(cache: &mut Cache, keep: &Key, budget: usize) {
    while cache.bytes > budget {
        let Some(k) = eviction_victim(&cache.entries, keep) else {
            break;
        };
        if let Some(gone) = cache.entries.remove(&k) {
            cache.bytes -= gone.bytes;
        }
    }
}

/// The next index to evict ([`evict`]), `None` when only `keep` is left.
fn eviction_victim(entries: &HashMap<Key, Cached>, keep: &Key) -> Option<Key> {
    let mut held: HashMap<&str, usize> = HashMap::new();
    for ((guild, _), c) in entries {
        *held.entry(guild.as_str()).or_default() += c.bytes;
    }
    entries
        .iter()
        .filter(|(k, _)| *k != keep)
        .max_by_key(|((guild, _), c)| (held[guild.as_str()], std::cmp::Reverse(c.used)))
        .map(|(k, _)| k.clone())
}

/// What a build needs, moved into its task.
struct BuildJob {
    store: Store,
    shipped: Arc<Vec<SourceGame>>,
    /// The shipped app: its semantic stage's encoder and passage vectors.
    base: Arc<App>,
    cache: Arc<Mutex<Cache>>,
    builds: Arc<Semaphore>,
    budget: usize,
    /// Whether the build goes on to the version's passage vectors (not
    /// for a one-shot command, which exits first: [`RuleSets::stage_now`]).
    embed: bool,
}

impl BuildJob {
    /// Reads the version's documents and builds its index on a thread of
    /// its own at a lower priority, one build at a time; returns it with
    /// the heap bytes it keeps.
    async fn run(&self, key: &Key, wanted: impl Fn() -> bool) -> Result<BuildOutcome, String> {
        // The turn first, then the documents: a build waiting for its turn
        // holds no copy of a server's text.
        let _turn = self.builds.acquire().await.map_err(|e| e.to_string())?;
        // A version a newer one replaced, that nobody waits for (a pinned
        // match would), is not built: a server adding and removing in a
        // loop queues one build, not one per change, ahead of the others.
        let newest = self
            .store
            .rule_set_version(&key.0)
            .await
            .map_err(|e| e.to_string())?;
        if key.1 < newest && !wanted() {
            return Ok(None);
        }
        let docs = self
            .store
            .rule_docs(&key.0, Some(key.1))
            .await
            .map_err(|e| e.to_string())?;
        let shipped = self.shipped.clone();
        let base = self.base.clone();
        let (cache, budget, key) = (self.cache.clone(), self.budget, key.clone());
        let embed = self.embed;
        let persist = Persist {
            store: self.store.clone(),
            runtime: tokio::runtime::Handle::current(),
        };
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("index-build".into())
            .spawn(move || {
                lower_priority();
                let built = std::panic::catch_unwind(|| {
                    crate::heap::retained(|| Arc::new(build_app(&shipped, &docs)))
                });
                let app = built.as_ref().ok().map(|(app, _)| app.clone());
                let _ = tx.send(built);
                // The version answers lexically from now on; its passage
                // vectors are computed here, once, and its semantic stage
                // is used once they are all there.
                if let Some(app) = app.filter(|_| embed) {
                    // The store's pool is not unwind-safe by type; a panic
                    // here leaves it as it was (no transaction is open).
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        add_semantic(&app, &base, &cache, &key, budget, &persist);
                    }));
                }
            })
            .map_err(|e| format!("cannot start the build thread: {e}"))?;
        match rx.await {
            Ok(Ok(built)) => Ok(Some(built)),
            Ok(Err(_)) => Err("the build panicked".into()),
            Err(_) => Err("the build thread ended without a result".into()),
        }
    }
}

/// A build's outcome: the index and the heap bytes it keeps, or `None`
/// when a newer version replaced it before its turn and nobody waited.
type BuildOutcome = Option<(Arc<App>, usize)>;

/// Lowers the calling thread's priority (Linux: nice 10), so that an index
/// build (or a rule folder's embedding, `App::load`) yields the processor
/// to requests.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority on this thread's own id; nothing else is touched.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// One embedding at a time in the process: a server's upload, or the rule
/// folders `App::load` was given without their vectors, take at most one
/// (niced) processor for their vectors, whoever else uploads. Turns are
/// served in the order they were asked (a ticket lock), and a long job
/// asks again between chunks ([`next_turn`]): another server's upload
/// waits one chunk, not a whole rulebook (an outside tester's 2-passage
/// document waited 1 min 47 s behind another server's MTG rules).
struct Turns {
    /// The next ticket to hand out, and the ticket being served.
    tickets: std::sync::Mutex<(u64, u64)>,
    served: std::sync::Condvar,
}

static EMBEDDING: Turns = Turns {
    tickets: std::sync::Mutex::new((0, 0)),
    served: std::sync::Condvar::new(),
};

/// The process's embedding turn, held until dropped.
#[must_use]
pub struct EmbeddingTurn(());

impl Drop for EmbeddingTurn {
    fn drop(&mut self) {
        let mut t = EMBEDDING
            .tickets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        t.1 += 1;
        EMBEDDING.served.notify_all();
    }
}

/// Waits for the process's embedding turn (after every turn asked before
/// it) and holds it until dropped. A test holds it to see an index before
/// its vectors.
pub fn embedding_turn() -> EmbeddingTurn {
    let mut t = EMBEDDING
        .tickets
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let ticket = t.0;
    t.0 += 1;
    while t.1 != ticket {
        t = EMBEDDING
            .served
            .wait(t)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    EmbeddingTurn(())
}

/// Gives `turn` back and waits for the next one: the turns asked
/// meanwhile go first. Between a long job's chunks.
pub fn next_turn(turn: &std::cell::RefCell<Option<EmbeddingTurn>>) {
    if turn.borrow_mut().take().is_some() {
        *turn.borrow_mut() = Some(embedding_turn());
    }
}

/// Gives a rule set's app the shipped app's semantic stage (on the build
/// thread, after the index is live): the vectors of the shipped passages
/// and of the server's versions still cached are reused, the rest embedded
/// once. Skipped when the version is no longer held by anyone (replaced
/// and evicted while it waited). The vectors' bytes are then counted in
/// the cache's budget.
fn add_semantic(
    app: &Arc<App>,
    base: &App,
    cache: &Mutex<Cache>,
    key: &Key,
    budget: usize,
    persist: &Persist,
) {
    let known = |base: &App| {
        let mut known = base.known_vectors();
        for s in siblings(cache, key, app) {
            known.extend(s.known_vectors());
        }
        known.extend(remembered(cache, app));
        known
    };
    base.attach_ready();
    let Some(stage) = base.index.semantic() else {
        return;
    };
    if !stage.complete() {
        // The shipped app's folders are still being embedded in the
        // background (`App::load`), in the one embedding turn: meanwhile
        // the version gets a partial stage from the vectors at hand.
        let partial =
            crate::search::semantic::Stage::new(&app.corpus, stage.encoder(), &known(base));
        app.index.set_semantic(partial);
    }
    // The vectors stored by an earlier build (before a restart, or on
    // another replica): a version they complete needs no embedding turn.
    let keys = passage_keys(app);
    let stored = persist.load(&keys, &known(base));
    let with_stored = |base: &App| {
        let mut k = known(base);
        k.extend(stored.iter().map(|(k, v)| (*k, *v)));
        k
    };
    let nothing_to_embed = base.index.semantic().is_some_and(|s| s.complete())
        && crate::search::semantic::missing(&app.corpus, &with_stored(base)).is_empty();
    {
        let turn = std::cell::RefCell::new((!nothing_to_embed).then(embedding_turn));
        if Arc::strong_count(app) <= 1 {
            return;
        }
        base.attach_ready();
        // Complete now (or from the start): the version's own passages are
        // embedded; still partial (the background embedding failed): it
        // keeps its partial stage.
        if let Some(stage) = base.index.semantic().filter(|s| s.complete()) {
            // Stopped when nobody holds the version any more (evicted or
            // replaced meanwhile); what was embedded is remembered, and
            // stored chunk by chunk, so that a restart keeps what was done.
            let held = || {
                next_turn(&turn);
                Arc::strong_count(app) > 1
            };
            let mut known = with_stored(base);
            let save = |chunk: &Known| persist.save(&keys, chunk);
            app.attach_semantic_saving(stage.encoder(), &mut known, &held, &save);
            remember(cache, &known);
        }
    }
    let bytes = app.index.semantic().map_or(0, |s| s.vector_bytes());
    let mut cache = lock(cache);
    let Some(entry) = cache
        .entries
        .get_mut(key)
        .filter(|c| Arc::ptr_eq(&c.app, app))
    else {
        return;
    };
    entry.bytes += bytes;
    cache.bytes += bytes;
    evict(&mut cache, key, budget);
}

/// An encoder, the vectors at hand and the passages' keys
/// ([`RuleSets::vectors_at_hand`]).
type VectorsAtHand = (
    Arc<dyn crate::search::semantic::Encode>,
    Known,
    Vec<(u64, String)>,
);

/// Where a build keeps passage vectors beyond the process: the store,
/// reached from the build thread through the runtime that started it.
struct Persist {
    store: Store,
    runtime: tokio::runtime::Handle,
}

impl Persist {
    /// The stored vectors of the passages (`keys`: [`passage_keys`]) that
    /// `known` lacks (none when the store cannot be read: they are
    /// embedded again, and said).
    fn load(&self, keys: &[(u64, String)], known: &Known) -> Known {
        self.runtime
            .block_on(stored_vectors(&self.store, keys, known))
    }

    /// Stores the vectors in `new` (a chunk just embedded) of the passages
    /// `keys` names.
    fn save(&self, keys: &[(u64, String)], new: &Known) {
        self.runtime.block_on(store_vectors(&self.store, keys, new));
    }
}

/// The stored vectors of the passages (`keys`: [`passage_keys`]) that
/// `known` lacks (none when the store cannot be read: they are embedded
/// again, and said).
async fn stored_vectors(store: &Store, keys: &[(u64, String)], known: &Known) -> Known {
    let wanted: Vec<&(u64, String)> = keys
        .iter()
        .filter(|(k, _)| !known.contains_key(k))
        .collect();
    if wanted.is_empty() {
        return Known::default();
    }
    match read_vectors(store, &wanted).await {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(error = %e, "stored passage vectors not read: they are embedded again");
            Known::default()
        }
    }
}

/// Stores the vectors in `new` of the passages `keys` names; whether they
/// were stored (a failure is said: a restart embeds them again).
async fn store_vectors(store: &Store, keys: &[(u64, String)], new: &Known) -> bool {
    let rows: Vec<(String, Vec<u8>)> = keys
        .iter()
        .filter_map(|(k, sha)| Some((sha.clone(), crate::search::semantic::to_bytes(new.get(k)?))))
        .collect();
    if rows.is_empty() {
        return true;
    }
    let model = crate::app::semantic::model_key();
    match store.save_passage_vectors(model, &rows).await {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!(error = %e, vectors = rows.len(), "passage vectors not stored: a restart embeds them again");
            false
        }
    }
}

/// The stored vectors of these passages (key, SHA-256 of the text), by key.
async fn read_vectors(store: &Store, wanted: &[&(u64, String)]) -> Result<Known, StoreError> {
    let by_sha: HashMap<&str, u64> = wanted.iter().map(|(k, s)| (s.as_str(), *k)).collect();
    let shas: Vec<String> = by_sha.keys().map(|s| s.to_string()).collect();
    let rows = store
        .passage_vectors(crate::app::semantic::model_key(), &shas)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(sha, bytes)| {
            Some((
                *by_sha.get(sha.as_str())?,
                crate::search::semantic::from_bytes(&bytes)?,
            ))
        })
        .collect())
}

/// Each of `app`'s passages' embedded text: its key (the index's) and its
/// SHA-256 (the store's).
fn passage_keys(app: &App) -> Vec<(u64, String)> {
    use crate::search::semantic::{key, passage_text};
    (0..app.corpus.passages.len())
        .map(|i| {
            let text = passage_text(&app.corpus, i);
            (
                key(&text),
                crate::corpus::import::sha256_hex(text.as_bytes()),
            )
        })
        .collect()
}

/// The remembered vectors of `app`'s passages.
fn remembered(cache: &Mutex<Cache>, app: &App) -> crate::search::semantic::Known {
    use crate::search::semantic::{key, passage_text};
    let cache = lock(cache);
    (0..app.corpus.passages.len())
        .filter_map(|i| {
            let k = key(&passage_text(&app.corpus, i));
            cache.vectors.get(&k).map(|v| (k, *v))
        })
        .collect()
}

/// Remembers `known` (a server's passages' vectors) apart from the indexes.
fn remember(cache: &Mutex<Cache>, known: &crate::search::semantic::Known) {
    let mut cache = lock(cache);
    // The shipped passages' vectors come with every server's: counted once.
    let new = known
        .keys()
        .filter(|k| !cache.vectors.contains_key(k))
        .count();
    if cache.vectors.len() + new > MAX_REMEMBERED_VECTORS {
        cache.vectors.clear();
    }
    if known.len() <= MAX_REMEMBERED_VECTORS {
        cache.vectors.extend(known.iter().map(|(k, v)| (*k, *v)));
    }
}

/// The server's other versions still cached (whose vectors `app` reuses).
fn siblings(cache: &Mutex<Cache>, key: &Key, app: &Arc<App>) -> Vec<Arc<App>> {
    lock(cache)
        .entries
        .iter()
        .filter(|(k, c)| k.0 == key.0 && !Arc::ptr_eq(&c.app, app))
        .map(|(_, c)| c.app.clone())
        .collect()
}

/// Makes `target` take over the document `old`: its id, and its passages'
/// ids (its id prefix). Refused for another game or another kind of
/// document's data (a card list cannot replace a rulebook).
fn replace_target(target: &mut Target, old: &RuleDoc) -> Result<(), RulesError> {
    let id = old.manifest.id();
    if old.manifest.game != target.game {
        return Err(RulesError::Conflict(Words::fill(
            "`{}` is a document of {}, not of {}; nothing was added",
            vec![id, old.manifest.game_name.clone(), target.game_name.clone()],
        )));
    }
    // A data list is replaced only by a list of its own kind.
    let (was, is) = (old.manifest.document.kind, target.kind);
    if (was.item_noun().is_some() || is.item_noun().is_some()) && was != is {
        let what = |k: DocumentKind| match k {
            DocumentKind::Cards => "a card list".to_string(),
            DocumentKind::Slang => "a slang list".to_string(),
            k => format!("a document of passages ({})", k.as_str()),
        };
        return Err(RulesError::Conflict(Words::fill(
            "`{}` is {}, which {} cannot replace; nothing was added",
            vec![id, what(old.manifest.document.kind), what(target.kind)],
        )));
    }
    target.slug = old.manifest.document.slug.clone();
    target.id_prefix = Some(old.manifest.document.id_prefix.clone());
    Ok(())
}

/// What a replacement's preview says of the document it replaces: whether
/// every passage id of the old text is in the new one, else how many are
/// not, with the first few (citations of them will not be found).
fn replace_note(old: &RuleDoc, preview: &Preview) -> String {
    let head = format!(
        "replaces `{}` (“{}”), in one version",
        old.manifest.id(),
        old.manifest.document.title
    );
    let corpus = server_corpus(&[], std::slice::from_ref(old));
    let root = old.manifest.id();
    let new: std::collections::HashSet<&str> =
        preview.passages.iter().map(|p| p.id.as_str()).collect();
    let old_ids: Vec<&str> = corpus
        .passages
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| **id != root)
        .collect();
    if old_ids.is_empty() {
        return head;
    }
    let gone: Vec<&str> = old_ids
        .iter()
        .copied()
        .filter(|id| !new.contains(id))
        .collect();
    if gone.is_empty() {
        return format!("{head}: its passages keep their ids");
    }
    let first: Vec<String> = gone.iter().take(3).map(|id| format!("`{id}`")).collect();
    format!(
        "{head}: {} of its {} passage ids are not in this text ({}{}): citations of them will no longer be found",
        gone.len(),
        old_ids.len(),
        first.join(", "),
        if gone.len() > 3 { ", …" } else { "" }
    )
}

/// A server's current corpus: its cached index's, or one built for it.
enum Current {
    Cached(Arc<App>),
    Built(Corpus),
}

/// The shipped games with a server's documents folded in.
fn build_app(shipped: &[SourceGame], docs: &[RuleDoc]) -> App {
    App::new(server_corpus(shipped, docs))
}

/// The corpus of the shipped games with a server's documents folded in,
/// each of them marked as the server's.
fn server_corpus(shipped: &[SourceGame], docs: &[RuleDoc]) -> Corpus {
    let mut sources = shipped.to_vec();
    sources.extend(docs.iter().map(|d| SourceGame {
        manifest: GameManifest {
            game: d.manifest.game.clone(),
            name: d.manifest.game_name.clone(),
            aliases: Vec::new(),
            glossary: None,
            documents: vec![d.manifest.document.clone()],
        },
        glossary: Glossary::default(),
        documents: vec![SourceDocument {
            manifest: d.manifest.document.clone(),
            text: d.body.clone(),
        }],
    }));
    let mut corpus = Corpus::build(sources);
    for d in docs {
        let game = corpus.games.iter_mut().find(|g| g.id == d.manifest.game);
        let doc = game.and_then(|g| {
            g.documents
                .iter_mut()
                .find(|x| x.slug == d.manifest.document.slug)
        });
        if let Some(doc) = doc {
            doc.from_server = true;
        }
    }
    corpus
}

/// `YYYY-MM-DD` (UTC) of a Unix time in milliseconds.
pub fn date(ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job that gives its turn back between chunks lets the turn asked
    /// meanwhile go first: a server's small upload waits one chunk of a
    /// big one, not all of it.
    #[test]
    fn turns_asked_meanwhile_go_before_the_next_chunk() {
        let order = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let turn = std::cell::RefCell::new(Some(embedding_turn()));
        let waiting = |n: u64| {
            let t = EMBEDDING.tickets.lock().unwrap();
            t.0 - t.1 > n
        };
        let other = {
            let order = order.clone();
            std::thread::spawn(move || {
                let _t = embedding_turn();
                order.lock().unwrap().push("small upload");
            })
        };
        while !waiting(1) {
            std::thread::yield_now();
        }
        next_turn(&turn);
        order.lock().unwrap().push("next chunk");
        drop(turn);
        other.join().unwrap();
        assert_eq!(*order.lock().unwrap(), ["small upload", "next chunk"]);
    }

    #[test]
    fn only_a_document_ids_shape_reads_the_documents() {
        assert!(super::is_document_id("ashes:talk"));
        assert!(super::is_document_id(" mtg:cr "));
        assert!(!super::is_document_id("ashes:talk.1"));
        assert!(!super::is_document_id("mtg:702.19b"));
        assert!(!super::is_document_id("talk"));
        assert!(!super::is_document_id("ashes:"));
    }

    /// Vectors remembered for a server's passages come back for an index
    /// of the same passages built again; a full memo starts over.
    #[test]
    fn remembered_vectors_outlive_their_index() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rules_data");
        let corpus = crate::corpus::Corpus::build(crate::load::load_dir(&dir).unwrap());
        let app = App::new(corpus);
        let cache = Mutex::new(Cache::default());
        assert!(remembered(&cache, &app).is_empty());
        let text = crate::search::semantic::passage_text(&app.corpus, 0);
        let k = crate::search::semantic::key(&text);
        let mut known = crate::search::semantic::Known::default();
        known.insert(k, [1; crate::search::semantic::DIMS]);
        remember(&cache, &known);
        assert_eq!(remembered(&cache, &app).get(&k), known.get(&k));
        let filler: crate::search::semantic::Known = (0..MAX_REMEMBERED_VECTORS as u64)
            .map(|i| {
                (
                    i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    [0; crate::search::semantic::DIMS],
                )
            })
            .collect();
        remember(&cache, &filler);
        assert!(lock(&cache).vectors.len() <= MAX_REMEMBERED_VECTORS);
        assert!(!remembered(&cache, &app).contains_key(&k), "started over");
    }
}
