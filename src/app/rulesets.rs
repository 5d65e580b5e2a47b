//! Per-server rule sets: documents a server's moderators add, stored in the
//! match database (`store::rules`), searched with the shipped games by
//! `/rule` in that server only.
//!
//! Each server's index is built lazily, off the async workers, when its
//! rule-set version changes, and kept in a bounded cache (least recently
//! used out). A replica notices another's upload by the version check on
//! the next request. Servers with no documents share the shipped index.
//! Conversions run in the CPU pool (`app::cpu`), bounded in concurrency and
//! time ([`CONVERT_BUDGET`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::app::App;
use crate::corpus::import::{ImportError, ImportRequest, Preview};
use crate::corpus::{Corpus, DocumentKind, GameManifest, Glossary, SourceDocument, SourceGame};
use crate::search::Suggestion;
use crate::store::{PendingRule, RuleChange, RuleDoc, Store, StoreError, StoredManifest};

/// Server indexes kept at most.
pub const CACHE_CAPACITY: usize = 64;
/// Live documents a server may have at most.
pub const MAX_SERVER_DOCUMENTS: usize = 50;
/// Total size of a server's live documents (as stored), at most.
pub const MAX_SERVER_BYTES: usize = 25 * 1024 * 1024;
/// Time a conversion may take (an MTG-sized PDF takes well under 1 s).
pub const CONVERT_BUDGET: std::time::Duration = std::time::Duration::from_secs(20);
/// How long an upload waits for Confirm.
pub const PENDING_TTL_MS: i64 = 15 * 60 * 1000;

/// Why a rule-set request failed, in words for the user.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("{0}")]
    Import(#[from] ImportError),
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("no document '{0}' is live in this server's rule set; `/rules list` shows the ids")]
    UnknownDocument(String),
    #[error(
        "this upload is no longer waiting (confirmed, cancelled, or older than 15 minutes); add it again"
    )]
    Expired,
    #[error("{0}")]
    Quota(String),
    #[error("{0}")]
    Busy(String),
    #[error("building the index failed: {0}")]
    Build(String),
}

/// A document added: the server's new version and the document's id.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Added {
    pub version: i64,
    pub document: String,
    pub title: String,
    pub kind: DocumentKind,
}

struct Cached {
    app: Arc<App>,
    used: u64,
}

/// Indexes by server and rule-set version: the current one, and versions
/// matches pinned.
#[derive(Default)]
struct Cache {
    entries: HashMap<(String, i64), Cached>,
    tick: u64,
}

/// The shipped games plus each server's documents.
pub struct RuleSets {
    store: Store,
    shipped: Arc<Vec<SourceGame>>,
    base: Arc<App>,
    capacity: usize,
    cache: Mutex<Cache>,
}

/// An upload to convert and preview.
pub struct Upload {
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub game: String,
    pub kind: DocumentKind,
    pub title: Option<String>,
}

impl RuleSets {
    /// `shipped` are the sources `base` was built from.
    pub fn new(store: Store, shipped: Vec<SourceGame>, base: Arc<App>) -> RuleSets {
        RuleSets::with_capacity(store, shipped, base, CACHE_CAPACITY)
    }

    pub fn with_capacity(
        store: Store,
        shipped: Vec<SourceGame>,
        base: Arc<App>,
        capacity: usize,
    ) -> RuleSets {
        RuleSets {
            store,
            shipped: Arc::new(shipped),
            base,
            capacity: capacity.max(1),
            cache: Mutex::new(Cache::default()),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Server indexes currently cached.
    pub fn cached(&self) -> usize {
        self.lock().entries.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The index `/rule` uses in this server: the shipped games plus its
    /// documents at their current version.
    pub async fn app_for(&self, guild: &str) -> Result<Arc<App>, RulesError> {
        let version = self.store.rule_set_version(guild).await?;
        self.build_at(guild, version).await
    }

    /// The index of this server's rule set as it was at `version` (a
    /// match's pinned version): later uploads and removals do not change
    /// it. A version past the newest (a forged button) is the newest.
    pub async fn app_at(&self, guild: &str, version: i64) -> Result<Arc<App>, RulesError> {
        let newest = self.store.rule_set_version(guild).await?;
        self.build_at(guild, version.min(newest)).await
    }

    async fn build_at(&self, guild: &str, version: i64) -> Result<Arc<App>, RulesError> {
        if version <= 0 {
            return Ok(self.base.clone());
        }
        if let Some(app) = self.cached_at(guild, version) {
            return Ok(app);
        }
        let docs = self.store.rule_docs(guild, Some(version)).await?;
        let shipped = self.shipped.clone();
        let app = tokio::task::spawn_blocking(move || Arc::new(build_app(&shipped, &docs)))
            .await
            .map_err(|e| RulesError::Build(e.to_string()))?;
        self.insert(guild, version, app.clone());
        Ok(app)
    }

    fn cached_at(&self, guild: &str, version: i64) -> Option<Arc<App>> {
        let mut cache = self.lock();
        cache.tick += 1;
        let tick = cache.tick;
        let entry = cache.entries.get_mut(&(guild.to_string(), version))?;
        entry.used = tick;
        Some(entry.app.clone())
    }

    fn insert(&self, guild: &str, version: i64, app: Arc<App>) {
        let mut cache = self.lock();
        cache.tick += 1;
        let used = cache.tick;
        cache
            .entries
            .insert((guild.to_string(), version), Cached { app, used });
        while cache.entries.len() > self.capacity {
            let oldest = cache
                .entries
                .iter()
                .min_by_key(|(_, c)| c.used)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => cache.entries.remove(&k),
                None => break,
            };
        }
    }

    /// Converts an upload and previews it against this server's games,
    /// off the async workers. Nothing is stored.
    pub async fn convert(
        &self,
        guild: &str,
        upload: Upload,
    ) -> Result<(StoredManifest, String, Preview), RulesError> {
        let app = self.app_for(guild).await?;
        let job = move || {
            app.import(&ImportRequest {
                file_name: &upload.file_name,
                bytes: &upload.bytes,
                game: &upload.game,
                kind: upload.kind,
                title: upload.title.as_deref(),
            })
        };
        let imported = crate::app::cpu::run_within(CONVERT_BUDGET, job)
            .await
            .map_err(|e| match e {
                crate::app::cpu::CpuError::Busy { .. } => RulesError::Busy(
                    "Arbiter is busy with other work and could not start on this document; try again in a moment".into(),
                ),
                crate::app::cpu::CpuError::TooSlow { budget } => RulesError::Busy(format!(
                    "converting this document took longer than {} s and was stopped; split it into smaller documents",
                    budget.as_secs()
                )),
                other => RulesError::Build(other.to_string()),
            })??;
        let doc = imported.document();
        let mut document = doc.manifest.clone();
        document.version = format!("this server, added {}", date(crate::store::now_ms()));
        let manifest = StoredManifest {
            game: imported.preview.game.clone(),
            game_name: imported.preview.game_name.clone(),
            document,
        };
        Ok((manifest, doc.text.clone(), imported.preview))
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
        self.check_quota(guild, body.len()).await?;
        let pending = PendingRule {
            guild: guild.to_string(),
            actor: actor.to_string(),
            manifest,
            body,
        };
        let now = crate::store::now_ms();
        self.store
            .keep_pending_rule(token, &pending, now - PENDING_TTL_MS)
            .await?;
        Ok(preview)
    }

    /// Makes a previewed upload live: a new version of the server's rule set.
    pub async fn confirm(&self, guild: &str, token: &str) -> Result<Added, RulesError> {
        let since = crate::store::now_ms() - PENDING_TTL_MS;
        let pending = self
            .store
            .take_pending_rule(token, guild, since)
            .await?
            .ok_or(RulesError::Expired)?;
        self.store_doc(guild, &pending.manifest, &pending.body, &pending.actor)
            .await
    }

    /// Drops a previewed upload; whether one was waiting.
    pub async fn cancel(&self, guild: &str, token: &str) -> Result<bool, RulesError> {
        Ok(self
            .store
            .take_pending_rule(token, guild, 0)
            .await?
            .is_some())
    }

    /// Converts and adds at once (operators: `arbiter rules add`).
    pub async fn add(
        &self,
        guild: &str,
        actor: &str,
        upload: Upload,
    ) -> Result<(Added, Preview), RulesError> {
        let (manifest, body, preview) = self.convert(guild, upload).await?;
        let added = self.store_doc(guild, &manifest, &body, actor).await?;
        Ok((added, preview))
    }

    async fn store_doc(
        &self,
        guild: &str,
        manifest: &StoredManifest,
        body: &str,
        actor: &str,
    ) -> Result<Added, RulesError> {
        self.check_quota(guild, body.len()).await?;
        let version = self
            .store
            .add_rule_doc(guild, manifest, body, actor)
            .await?;
        Ok(Added {
            version,
            document: manifest.id(),
            title: manifest.document.title.clone(),
            kind: manifest.document.kind,
        })
    }

    /// Refuses a document that would take the server past its quota.
    async fn check_quota(&self, guild: &str, bytes: usize) -> Result<(), RulesError> {
        let live = self.store.rule_docs(guild, None).await?;
        if live.len() >= MAX_SERVER_DOCUMENTS {
            return Err(RulesError::Quota(format!(
                "this server already has {} documents, the most it may keep; remove one first (`/rules list`, `/rules remove`)",
                live.len()
            )));
        }
        let used: usize = live.iter().map(|d| d.body.len()).sum();
        if used + bytes > MAX_SERVER_BYTES {
            return Err(RulesError::Quota(format!(
                "this document ({} KB) would take the server's documents to {} KB, past its quota of {} MB; remove one first",
                bytes / 1024,
                (used + bytes) / 1024,
                MAX_SERVER_BYTES / (1024 * 1024)
            )));
        }
        Ok(())
    }

    /// Removes a live document; the history keeps it. Returns the new version.
    pub async fn remove(
        &self,
        guild: &str,
        document: &str,
        actor: &str,
    ) -> Result<i64, RulesError> {
        let id = document.trim().to_lowercase();
        self.store
            .remove_rule_doc(guild, &id, actor)
            .await?
            .ok_or_else(|| RulesError::UnknownDocument(document.trim().to_string()))
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
        let app = self.app_for(guild).await?;
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
        Ok(self.app_for(guild).await?.complete_games(partial, limit))
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
            let app = self.app_for(guild).await?;
            let id = app
                .corpus
                .resolve_game(g)
                .map_or_else(|| crate::corpus::clean::slug(g), |g| g.id.clone());
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

/// The shipped games with a server's documents folded in.
fn build_app(shipped: &[SourceGame], docs: &[RuleDoc]) -> App {
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
    App::new(corpus)
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
