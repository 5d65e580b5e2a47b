//! Per-server rule sets: documents a server adds, as an append-only log of
//! changes (`arbiter_rule_changes`). The server's rule-set version is the
//! number of its last change; the live documents at any version are the
//! adds not removed by then. Uploads waiting for Confirm live in
//! `arbiter_rule_pending` so any replica can confirm them.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{Store, StoreError, is_unique_violation, now_ms};
use crate::corpus::{DocumentKind, DocumentManifest};

/// How often an add retries after another replica took the same version.
const VERSION_RETRIES: usize = 8;

/// What is stored of a document besides its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredManifest {
    /// The game's id and display name (a new game's, or the known one's).
    pub game: String,
    pub game_name: String,
    pub document: DocumentManifest,
    /// Heap bytes the document's index takes, measured when it was
    /// converted (0: stored before it was measured).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub index_bytes: usize,
    /// The server's rule-set version the preview was decided against (its
    /// ids, its title's place): a change of the game after it refuses the
    /// Confirm (0: stored before it was recorded).
    #[serde(default, skip_serializing_if = "is_zero_version")]
    pub decided_at: i64,
}

fn is_zero_version(v: &i64) -> bool {
    *v == 0
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl StoredManifest {
    /// The document's id: `game:slug`.
    pub fn id(&self) -> String {
        format!("{}:{}", self.game, self.document.slug)
    }
}

/// A live document of a server's rule set.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleDoc {
    /// The version that added it.
    pub version: i64,
    pub manifest: StoredManifest,
    pub body: String,
    pub actor: String,
    pub at: i64,
}

/// Add or remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleAction {
    Add,
    Remove,
}

/// One entry of a server's rule-set history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleChange {
    pub version: i64,
    pub action: RuleAction,
    pub document: String,
    pub game: String,
    /// Title and kind of the document added (for a removal, of the add it undoes).
    pub title: String,
    pub kind: DocumentKind,
    pub actor: String,
    pub at: i64,
}

/// A replaced or removed document's text in a server's history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HistoryText {
    /// The version that added it.
    pub version: i64,
    /// The version that replaced or removed it: it was live at
    /// `version..until`.
    pub until: i64,
    pub document: String,
    pub title: String,
    /// Bytes of its text (0 once pruned).
    pub bytes: i64,
    /// When its text was pruned (Unix ms), if it was.
    pub pruned_at: Option<i64>,
}

/// A match that pinned one of its server's rule-set versions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchPin {
    pub match_id: i64,
    pub channel: String,
    pub version: i64,
}

/// Previews a server keeps waiting for Confirm at most; an older one is
/// dropped by a newer one.
pub const MAX_PENDING_PER_GUILD: i64 = 3;

/// An upload shown in a preview, waiting for Confirm.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingRule {
    pub guild: String,
    pub actor: String,
    pub manifest: StoredManifest,
    pub body: String,
    /// When it was previewed (Unix ms; set by the store, read back).
    pub created_at: i64,
}

fn manifest_json(m: &StoredManifest) -> Result<String, StoreError> {
    serde_json::to_string(m).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn manifest_of(text: &str) -> Result<StoredManifest, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("rule manifest: {e}")))
}

impl Store {
    /// The server's rule-set version: the number of its last change (0: none).
    pub async fn rule_set_version(&self, guild: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COALESCE(MAX(version), 0) AS v FROM arbiter_rule_changes WHERE guild = $1",
        )
        .bind(guild)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("v")?)
    }

    /// Appends a change as the next version, retrying when another writer
    /// took that version first; with `unchanged_since`, only while no
    /// change of the same game is past that version (`None` returned
    /// otherwise). One statement, so SQLite takes its write lock at once and
    /// the condition and the insert are one (a writer on another replica
    /// that commits first makes this one's retry see its change).
    async fn append_rule_change(
        &self,
        guild: &str,
        action: RuleAction,
        manifest: &StoredManifest,
        body: Option<&str>,
        actor: &str,
        unchanged_since: Option<i64>,
    ) -> Result<Option<i64>, StoreError> {
        let json = manifest_json(manifest)?;
        let action = match action {
            RuleAction::Add => "add",
            RuleAction::Remove => "remove",
        };
        for _ in 0..VERSION_RETRIES {
            let inserted = sqlx::query(
                "INSERT INTO arbiter_rule_changes \
                 (guild, version, action, document, game, manifest, body, actor, at) \
                 SELECT $1, v.next, $2, $3, $4, $5, $6, $7, $8 \
                 FROM (SELECT COALESCE(MAX(version), 0) + 1 AS next \
                       FROM arbiter_rule_changes WHERE guild = $1) v \
                 WHERE NOT EXISTS (SELECT 1 FROM arbiter_rule_changes c \
                       WHERE c.guild = $1 AND c.game = $4 AND c.version > $9) \
                 RETURNING version",
            )
            .bind(guild)
            .bind(action)
            .bind(manifest.id())
            .bind(&manifest.game)
            .bind(&json)
            .bind(body)
            .bind(actor)
            .bind(now_ms())
            .bind(unchanged_since.unwrap_or(i64::MAX))
            // All rows, not the first: the statement must run to its end
            // (and commit) before the caller reads the new version.
            .fetch_all(&self.pool)
            .await;
            match inserted {
                Ok(rows) => {
                    return match rows.first() {
                        Some(row) => Ok(Some(row.try_get("version")?)),
                        // The condition held nothing back without a bound.
                        None if unchanged_since.is_some() => Ok(None),
                        None => Err(StoreError::Database(
                            "the insert returned no version".into(),
                        )),
                    };
                }
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict {
            version: self.rule_set_version(guild).await?,
        })
    }

    /// Adds a document to the server's rule set; returns the new version,
    /// or `None` when a change of its game is past `unchanged_since` (the
    /// version its preview was decided against).
    pub async fn add_rule_doc(
        &self,
        guild: &str,
        manifest: &StoredManifest,
        body: &str,
        actor: &str,
        unchanged_since: Option<i64>,
    ) -> Result<Option<i64>, StoreError> {
        self.append_rule_change(
            guild,
            RuleAction::Add,
            manifest,
            Some(body),
            actor,
            unchanged_since,
        )
        .await
    }

    /// Removes a live document (by its `game:slug` id); returns the new
    /// version, or `None` when no such document is live. The add stays in
    /// the history.
    pub async fn remove_rule_doc(
        &self,
        guild: &str,
        document: &str,
        actor: &str,
    ) -> Result<Option<i64>, StoreError> {
        let live = self.rule_docs(guild, None).await?;
        let Some(doc) = live.iter().find(|d| d.manifest.id() == document) else {
            return Ok(None);
        };
        self.append_rule_change(guild, RuleAction::Remove, &doc.manifest, None, actor, None)
            .await
    }

    /// The documents live at `version` (default: now), oldest first.
    pub async fn rule_docs(
        &self,
        guild: &str,
        version: Option<i64>,
    ) -> Result<Vec<RuleDoc>, StoreError> {
        // Only the adds no later change of the same document replaced:
        // the text of removed and replaced documents is not read (a
        // server's history may hold four times its live text).
        let rows = sqlx::query(
            "SELECT version, manifest, body, actor, at FROM arbiter_rule_changes c \
             WHERE c.guild = $1 AND c.version <= $2 AND c.action = 'add' \
             AND NOT EXISTS (SELECT 1 FROM arbiter_rule_changes l \
                 WHERE l.guild = c.guild AND l.document = c.document \
                 AND l.version > c.version AND l.version <= $2) \
             ORDER BY c.version",
        )
        .bind(guild)
        .bind(version.unwrap_or(i64::MAX))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let manifest: Option<String> = r.try_get("manifest")?;
                Ok(RuleDoc {
                    version: r.try_get("version")?,
                    manifest: manifest_of(manifest.as_deref().unwrap_or_default())?,
                    body: r.try_get::<Option<String>, _>("body")?.unwrap_or_default(),
                    actor: r.try_get("actor")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Bytes of every document text the server's history stores: its live
    /// documents' and those replaced or removed (append-only, kept so each
    /// version can be rebuilt), which a quota on live text alone lets grow
    /// without bound.
    pub async fn rule_text_bytes(&self, guild: &str) -> Result<i64, StoreError> {
        // `octet_length`: bytes, not characters, on both backends.
        let row = sqlx::query(
            "SELECT COALESCE(SUM(octet_length(body)), 0) AS n FROM arbiter_rule_changes \
             WHERE guild = $1 AND action = 'add'",
        )
        .bind(guild)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    /// The texts of the server's history: every add a later change of the
    /// same document replaced or removed, oldest first, with the versions
    /// it was live at and whether its text was pruned.
    pub async fn rule_history_texts(&self, guild: &str) -> Result<Vec<HistoryText>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.version, c.document, c.manifest, c.pruned_at, \
             COALESCE(octet_length(c.body), 0) AS bytes, \
             (SELECT MIN(l.version) FROM arbiter_rule_changes l \
                 WHERE l.guild = c.guild AND l.document = c.document AND l.version > c.version) AS until \
             FROM arbiter_rule_changes c WHERE c.guild = $1 AND c.action = 'add' \
             ORDER BY c.version",
        )
        .bind(guild)
        .fetch_all(&self.pool)
        .await?;
        let mut texts = Vec::new();
        for r in &rows {
            // A live document's text is not history.
            let Some(until) = r.try_get::<Option<i64>, _>("until")? else {
                continue;
            };
            let manifest: Option<String> = r.try_get("manifest")?;
            let m = manifest_of(manifest.as_deref().unwrap_or_default())?;
            texts.push(HistoryText {
                version: r.try_get("version")?,
                until,
                document: r.try_get("document")?,
                title: m.document.title,
                bytes: r.try_get("bytes")?,
                pruned_at: r.try_get("pruned_at")?,
            });
        }
        Ok(texts)
    }

    /// The rule-set versions of the server that its open matches pinned
    /// (an ended match replays from its own log, not from the rule set).
    pub async fn open_rule_set_pins(&self, guild: &str) -> Result<Vec<MatchPin>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, channel, rule_set_version FROM arbiter_matches \
             WHERE guild = $1 AND status = 'active' AND rule_set_version IS NOT NULL ORDER BY id",
        )
        .bind(guild)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MatchPin {
                    match_id: r.try_get("id")?,
                    channel: r.try_get("channel")?,
                    version: r.try_get("rule_set_version")?,
                })
            })
            .collect()
    }

    /// Deletes the text of the history's add at `version` (the row stays,
    /// marked pruned) unless the document is still live or an open match
    /// pins a version the text was live at, both checked in the statement
    /// itself; returns whether it was pruned now (false: kept, or pruned
    /// already).
    pub async fn prune_rule_text(&self, guild: &str, version: i64) -> Result<bool, StoreError> {
        let rows = sqlx::query(
            "UPDATE arbiter_rule_changes SET body = NULL, pruned_at = $3 \
             WHERE guild = $1 AND version = $2 AND action = 'add' AND body IS NOT NULL \
             AND EXISTS (SELECT 1 FROM arbiter_rule_changes l WHERE l.guild = $1 \
                 AND l.document = arbiter_rule_changes.document AND l.version > $2) \
             AND NOT EXISTS (SELECT 1 FROM arbiter_matches m \
                 WHERE m.guild = $1 AND m.status = 'active' AND m.rule_set_version >= $2 \
                 AND m.rule_set_version < (SELECT MIN(l.version) FROM arbiter_rule_changes l \
                     WHERE l.guild = $1 AND l.document = arbiter_rule_changes.document AND l.version > $2)) \
             RETURNING pruned_at",
        )
        .bind(guild)
        .bind(version)
        .bind(now_ms())
        .fetch_all(&self.pool)
        .await?;
        // All rows (at most one): the update must finish before we answer.
        Ok(!rows.is_empty())
    }

    /// Whether the text of a document live at `version` was pruned (that
    /// version can no longer be rebuilt whole).
    pub async fn rule_version_pruned(&self, guild: &str, version: i64) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM arbiter_rule_changes c \
             WHERE c.guild = $1 AND c.version <= $2 AND c.action = 'add' AND c.pruned_at IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM arbiter_rule_changes l \
                 WHERE l.guild = c.guild AND l.document = c.document \
                 AND l.version > c.version AND l.version <= $2)",
        )
        .bind(guild)
        .bind(version)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// Every change of the server's rule set, oldest first.
    pub async fn rule_changes(&self, guild: &str) -> Result<Vec<RuleChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT version, action, document, game, manifest, actor, at FROM arbiter_rule_changes \
             WHERE guild = $1 ORDER BY version",
        )
        .bind(guild)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let manifest: Option<String> = r.try_get("manifest")?;
                let m = manifest_of(manifest.as_deref().unwrap_or_default())?;
                Ok(RuleChange {
                    version: r.try_get("version")?,
                    action: match r.try_get::<String, _>("action")?.as_str() {
                        "add" => RuleAction::Add,
                        _ => RuleAction::Remove,
                    },
                    document: r.try_get("document")?,
                    game: r.try_get("game")?,
                    title: m.document.title,
                    kind: m.document.kind,
                    actor: r.try_get("actor")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }

    /// Keeps an upload awaiting Confirm under `token`; uploads older than
    /// `prune_before` (Unix ms) are deleted.
    pub async fn keep_pending_rule(
        &self,
        token: &str,
        pending: &PendingRule,
        prune_before: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM arbiter_rule_pending WHERE created_at < $1")
            .bind(prune_before)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO arbiter_rule_pending (token, guild, actor, created_at, manifest, body) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(token)
        .bind(&pending.guild)
        .bind(&pending.actor)
        .bind(now_ms())
        .bind(manifest_json(&pending.manifest)?)
        .bind(&pending.body)
        .execute(&self.pool)
        .await?;
        // A server keeps its newest few previews waiting, not as many as
        // it sends (each holds a converted document).
        sqlx::query(
            "DELETE FROM arbiter_rule_pending WHERE guild = $1 AND token NOT IN \
             (SELECT token FROM arbiter_rule_pending WHERE guild = $1 ORDER BY created_at DESC, token LIMIT $2)",
        )
        .bind(&pending.guild)
        .bind(MAX_PENDING_PER_GUILD)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes (reads and deletes) an upload kept since `since`, for this
    /// server only. `None` when unknown, expired, already taken, or another
    /// server's.
    pub async fn take_pending_rule(
        &self,
        token: &str,
        guild: &str,
        since: i64,
    ) -> Result<Option<PendingRule>, StoreError> {
        let rows = sqlx::query(
            "DELETE FROM arbiter_rule_pending WHERE token = $1 AND guild = $2 AND created_at >= $3 \
             RETURNING guild, actor, manifest, body, created_at",
        )
        .bind(token)
        .bind(guild)
        .bind(since)
        // All rows (at most one): the delete must finish before we answer.
        .fetch_all(&self.pool)
        .await?;
        rows.first()
            .map(|r| {
                Ok(PendingRule {
                    guild: r.try_get("guild")?,
                    actor: r.try_get("actor")?,
                    manifest: manifest_of(&r.try_get::<String, _>("manifest")?)?,
                    body: r.try_get("body")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .transpose()
    }
}
