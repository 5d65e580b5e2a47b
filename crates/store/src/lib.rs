//! Match storage: a row per match plus an append-only log of events, on
//! SQLite (default, one file, WAL) or PostgreSQL (several replicas), through
//! `sqlx::Any` with one set of migrations (`migrations/`).
//!
//! Event-sourced: every event stores the board it leaves, so the current
//! board is the state of the last event, and replaying the log through the
//! game's engine reproduces every stored state (`app::matches` checks it).
//!
//! Concurrency: `arbiter_matches.version` is the seq of the last event. An
//! append runs `UPDATE … SET version = v+1 WHERE version = v` first, inside
//! the transaction, then inserts event `v+1` under the unique
//! `(match_id, seq)` key. A writer that lost the race updates no row (or hits
//! the key) and gets [`StoreError::Conflict`]; nothing is written.
//! Taking the write first also means SQLite never has to upgrade a read lock
//! (which fails at once instead of waiting on `busy_timeout`).

// What this crate names by the paths the application uses.
pub(crate) use arbiter_metrics as metrics;
pub(crate) use arbiter_rules::corpus;
pub(crate) use arbiter_text as text;

mod feedback;
mod rules;
mod vectors;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::Migrator;
use sqlx::{AnyPool, Executor, Row};

pub use feedback::{Ask, AskedPart, Feedback, Verdict, evaluation_yaml};
pub use rules::{
    HistoryText, MatchPin, PendingRule, RuleAction, RuleChange, RuleDoc, StoredManifest,
};

/// The database used when none is configured: a SQLite file in the working
/// directory, created if missing.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://arbiter.db";

/// How long opening the database may take; past it, [`Store::connect`]
/// fails with the cause (an unreachable host, a refused login, a file that
/// cannot be created) instead of a pool's "timed out".
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Which server the store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StoreError {
    /// Another writer appended first; `version` is the match's version now.
    #[error("the board changed (now at version {version})")]
    Conflict { version: i64 },
    /// The channel already has an active match.
    #[error("this channel already has an active match")]
    AlreadyActive,
    /// The match has ended; nothing more can be appended.
    #[error("the match has ended")]
    Ended,
    /// The URL is redacted (no password).
    #[error("unsupported database URL '{0}': use sqlite://FILE or postgres://…")]
    BadUrl(String),
    /// The database could not be opened within [`CONNECT_TIMEOUT`]; the
    /// URL is redacted, the cause is the driver's (with any password removed).
    #[error("cannot open the database {url}: {cause}")]
    Connect { url: String, cause: String },
    #[error("database error: {0}")]
    Database(String),
    /// A stored value that does not read back (hand-edited database).
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    /// This interaction already wrote event `seq` of match `match_id`: a
    /// replay, answered with the first result.
    #[error("this request was already recorded as event {seq}")]
    Duplicate { match_id: i64, seq: i64 },
    /// A match cannot be reopened: the channel has another active match.
    #[error("the channel has another active match")]
    Reopen,
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        crate::metrics::db_error();
        StoreError::Database(e.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> StoreError {
        crate::metrics::db_error();
        StoreError::Database(format!("migration failed: {e}"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchStatus {
    Active,
    Ended,
    /// Taken out of its channel's way before anything in it took effect
    /// (every event undone, no board): kept with its log, never the
    /// channel's match again.
    Withdrawn,
}

/// A match as stored, with its current board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchRecord {
    pub id: i64,
    pub channel: String,
    pub game: String,
    /// User ids in seat order.
    pub players: Vec<String>,
    pub status: MatchStatus,
    /// Seq of the last event; 0 before any.
    pub version: i64,
    pub started_by: String,
    /// Unix milliseconds.
    pub started_at: i64,
    pub ended_at: Option<i64>,
    /// The board after the last event; `None` before setup.
    pub state: Option<serde_json::Value>,
    /// The match's turn notices, a moderator's switch: ping whose turn it is after each recorded event (a new decision or proposal pings its player whatever this says).
    pub notify: bool,
    /// Seats whose players turned their own turn notices off (bit `1 << seat`).
    pub quiet_seats: u64,
    /// Replies carry a picture of the board (else a "Picture" button).
    pub pictures: bool,
    /// How the match ended, when it has a result (JSON `GameResult`).
    pub result: Option<serde_json::Value>,
    /// The server's rule set the match pinned when it started.
    pub rule_set: Option<RuleSetPin>,
}

/// A server's rule-set version, as a match pinned it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetPin {
    /// The server (guild id, or the console's rule set).
    pub guild: String,
    /// Its rule-set version when the match started (0: no documents).
    pub version: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    /// The starting board.
    Setup,
    /// A play: recorded when legal, or when it waits on a decision.
    Play,
    /// A player's answer to the decision a play waits on.
    Answer,
    /// The match moved to the next phase or round.
    Advance,
    /// A board field set by hand, with a reason.
    Adjust,
    /// Free text on the record (a judge's ruling, an agreement).
    Note,
    /// The last event in effect taken back.
    Undo,
    /// The match ended.
    End,
}

impl EventKind {
    pub const ALL: [EventKind; 8] = [
        EventKind::Setup,
        EventKind::Play,
        EventKind::Answer,
        EventKind::Advance,
        EventKind::Adjust,
        EventKind::Note,
        EventKind::Undo,
        EventKind::End,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Setup => "setup",
            EventKind::Play => "play",
            EventKind::Answer => "answer",
            EventKind::Advance => "advance",
            EventKind::Adjust => "adjust",
            EventKind::Note => "note",
            EventKind::Undo => "undo",
            EventKind::End => "end",
        }
    }

    fn parse(s: &str) -> Result<EventKind, StoreError> {
        EventKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown event kind '{s}'")))
    }

    /// Whether undo takes the event back as any other (everything but a
    /// setup, which the match service stacks on its own terms, and an undo).
    pub fn undoable(self) -> bool {
        matches!(
            self,
            EventKind::Play
                | EventKind::Answer
                | EventKind::Advance
                | EventKind::Adjust
                | EventKind::Note
                | EventKind::End
        )
    }
}

/// What an append does to the match besides adding the event.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Transition {
    #[default]
    None,
    /// The match ends, with its result (JSON) when there is one.
    End(Option<serde_json::Value>),
    /// An ended match becomes active again (undoing the play that ended it).
    Reopen,
}

/// An event to append.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub kind: EventKind,
    pub actor: String,
    pub input: Option<String>,
    pub play: Option<serde_json::Value>,
    pub ruling: Option<serde_json::Value>,
    pub state: serde_json::Value,
    pub undoes: Option<i64>,
    pub context: Option<serde_json::Value>,
    /// The interaction that writes it: at most one event per interaction.
    pub interaction: Option<String>,
    /// When a decision this event waits on times out (unix ms).
    pub deadline: Option<i64>,
    pub transition: Transition,
}

impl NewEvent {
    /// An event of `kind` by `actor` leaving `state`; everything else empty.
    pub fn new(kind: EventKind, actor: &str, state: serde_json::Value) -> NewEvent {
        NewEvent {
            kind,
            actor: actor.to_string(),
            input: None,
            play: None,
            ruling: None,
            state,
            undoes: None,
            context: None,
            interaction: None,
            deadline: None,
            transition: Transition::None,
        }
    }
}

/// One stored event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventRecord {
    pub seq: i64,
    pub kind: EventKind,
    pub actor: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<serde_json::Value>,
    pub state: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// Unix milliseconds.
    pub at: i64,
}

/// An event without its JSON bodies (for undo bookkeeping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventHead {
    pub seq: i64,
    pub kind: EventKind,
    pub undoes: Option<i64>,
}

/// The embedded migrations (one set for both servers): every file in
/// `migrations/`, embedded at compile time by `sqlx::migrate!` (`build.rs`
/// rebuilds when the folder changes). Migrations only add: a database
/// already migrated by a newer release (a rolling update) still opens.
pub fn migrator() -> Migrator {
    let mut m = sqlx::migrate!("./migrations");
    m.set_ignore_missing(true);
    m
}

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// What [`Store::ping`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ping {
    /// A pooled connection answered.
    Answers,
    /// Every open connection was in use for the whole wait: the database
    /// answers the requests holding them, none was free for the ping.
    Busy,
}

/// The match store. Cheap to clone (a pool handle).
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// A SQLite store's file, as opened (for [`Store::ping`]).
    file: Option<std::path::PathBuf>,
}

const MATCH_COLUMNS: &str = "m.id, m.channel, m.game, m.players, m.status, m.version, \
     m.started_by, m.started_at, m.ended_at, m.notify, m.quiet_seats, m.pictures, m.result, m.guild, m.rule_set_version, \
     e.state";

/// Where [`MATCH_COLUMNS`] come from: a match and its last event's board.
const MATCH_FROM: &str = "FROM arbiter_matches m \
     LEFT JOIN arbiter_match_events e ON e.match_id = m.id AND e.seq = m.version";

impl Store {
    /// Connects, creating a SQLite file if missing (WAL, synchronous=NORMAL),
    /// and applies the migrations.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, None).await
    }

    /// As [`Store::connect`], with a pool size.
    pub async fn connect_with(
        url: &str,
        max_connections: Option<u32>,
    ) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = normalize_url(url)?;
        let file = (backend == Backend::Sqlite)
            .then(|| std::path::absolute(sqlite_path(&url)))
            .transpose()
            .map_err(|e| connect_error(&url, &e.to_string()))?;
        if backend == Backend::Sqlite {
            sqlite_file_check(&url)?;
        }
        probe(&url).await?;
        let max = max_connections.unwrap_or(match backend {
            Backend::Sqlite => 4,
            Backend::Postgres => 8,
        });
        let pool = AnyPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute(
                            "PRAGMA busy_timeout = 30000; PRAGMA journal_mode = WAL; \
                             PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url);
        let pool = match tokio::time::timeout(CONNECT_TIMEOUT, pool).await {
            Ok(Ok(pool)) => pool,
            Ok(Err(e)) => return Err(connect_error(&url, &e.to_string())),
            Err(_) => return Err(connect_error(&url, &no_answer())),
        };
        // PostgreSQL serializes migrations with an advisory lock; SQLite has
        // none, so two processes starting on a fresh file can race: the
        // loser's transaction fails after the winner's committed, and a
        // second look finds the migration applied.
        let mut attempt = 0;
        loop {
            match migrator().run(&pool).await {
                Ok(()) => break,
                Err(_) if attempt < 10 => {
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Store {
            pool,
            backend,
            file,
        })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers within `wait`: one trivial query on a
    /// pooled connection (no table read, no lock taken; cheap enough to
    /// poll) and, for SQLite, its file still where it was opened: a
    /// connection keeps a deleted file open and answers from it, and what
    /// it then writes is lost at the next start.
    ///
    /// [`Ping::Busy`] when the pool lent no connection within `wait` while
    /// every one it has open is in use (an import, a burst of writes): the
    /// database answers the requests holding them. An error when the
    /// query failed or did not answer, when no connection could be opened,
    /// or when the SQLite file is gone.
    pub async fn ping(&self, wait: Duration) -> Result<Ping, StoreError> {
        let deadline = tokio::time::Instant::now() + wait;
        let late = || StoreError::Database(format!("no answer within {wait:?}"));
        if let Some(file) = &self.file {
            // A stat can block (a network file system): off the async worker.
            let path = file.clone();
            let found = tokio::task::spawn_blocking(move || std::fs::metadata(path));
            let found = tokio::time::timeout_at(deadline, found)
                .await
                .map_err(|_| late())?
                .map_err(|e| StoreError::Database(e.to_string()))?;
            if let Err(e) = found {
                return Err(StoreError::Database(format!(
                    "the database file {} cannot be read: {e}",
                    file.display()
                )));
            }
        }
        let mut conn = match tokio::time::timeout_at(deadline, self.pool.acquire()).await {
            Ok(conn) => conn?,
            Err(_) if self.pool.size() > 0 && self.pool.num_idle() == 0 => return Ok(Ping::Busy),
            Err(_) => return Err(late()),
        };
        tokio::time::timeout_at(deadline, sqlx::query("SELECT 1").execute(&mut *conn))
            .await
            .map_err(|_| late())??;
        Ok(Ping::Answers)
    }

    /// The durability settings in force on a pooled connection: SQLite's
    /// `journal_mode` and `synchronous` (1 = NORMAL), PostgreSQL's
    /// `synchronous_commit`.
    pub async fn settings(&self) -> Result<Vec<(String, String)>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        let mut out = Vec::new();
        let names: &[&str] = match self.backend {
            Backend::Sqlite => &["journal_mode", "synchronous"],
            Backend::Postgres => &["synchronous_commit"],
        };
        for name in names {
            let sql = match self.backend {
                Backend::Sqlite => format!("PRAGMA {name}"),
                Backend::Postgres => format!("SHOW {name}"),
            };
            let row = sqlx::query(&sql).fetch_one(&mut *conn).await?;
            let value = row
                .try_get::<String, _>(0)
                .or_else(|_| row.try_get::<i64, _>(0).map(|v| v.to_string()))?;
            out.push((name.to_string(), value));
        }
        Ok(out)
    }

    /// Closes the pool (waits for connections to be returned).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The channel's active match with its current board.
    pub async fn active_match(&self, channel: &str) -> Result<Option<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.channel = $1 AND m.status = 'active'"
        );
        let row = sqlx::query(&sql)
            .bind(channel)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| match_from_row(&r)).transpose()
    }

    /// The channel's active match, or else its most recently started one.
    pub async fn latest_match(&self, channel: &str) -> Result<Option<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.channel = $1 AND m.status <> 'withdrawn' \
             ORDER BY CASE WHEN m.status = 'active' THEN 0 ELSE 1 END, m.id DESC LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(channel)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| match_from_row(&r)).transpose()
    }

    /// Match `id` if it was played in `channel` (ended or not; not one
    /// withdrawn): a number from another channel finds nothing, so a
    /// channel's reader never sees another channel's (or server's) match.
    pub async fn match_in_channel(
        &self,
        channel: &str,
        id: i64,
    ) -> Result<Option<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.channel = $1 AND m.id = $2 AND m.status <> 'withdrawn'"
        );
        let row = sqlx::query(&sql)
            .bind(channel)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| match_from_row(&r)).transpose()
    }

    /// The channel's matches, newest first, at most `limit` (withdrawn
    /// ones left out): what `match:` autocomplete offers.
    pub async fn channel_matches(
        &self,
        channel: &str,
        limit: i64,
    ) -> Result<Vec<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.channel = $1 AND m.status <> 'withdrawn' \
             ORDER BY m.id DESC LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(channel)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(match_from_row).collect()
    }

    /// The channel's match started before match `id`, if any.
    pub async fn match_before(
        &self,
        channel: &str,
        id: i64,
    ) -> Result<Option<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.channel = $1 AND m.id < $2 AND m.status <> 'withdrawn' \
             ORDER BY m.id DESC LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(channel)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| match_from_row(&r)).transpose()
    }

    /// Withdraws a match nothing in which is in effect (the caller checked
    /// at `m.version`): one in which nothing was recorded (version 0, no
    /// event) is deleted, which loses nothing; one whose events were all
    /// taken back is marked withdrawn, its log kept. False when something
    /// was recorded meanwhile, or it is gone.
    /// `interaction`, when given, is recorded with it in the same
    /// transaction ([`Store::withdrawn_by`]).
    pub async fn withdraw_match(
        &self,
        m: &MatchRecord,
        interaction: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = if m.version == 0 {
            sqlx::query(
                "DELETE FROM arbiter_matches WHERE id = $1 AND version = 0 \
                 AND NOT EXISTS (SELECT 1 FROM arbiter_match_events WHERE match_id = $1)",
            )
            .bind(m.id)
        } else {
            sqlx::query(
                "UPDATE arbiter_matches SET status = 'withdrawn', ended_at = $3 \
                 WHERE id = $1 AND version = $2 AND status = 'active'",
            )
            .bind(m.id)
            .bind(m.version)
            .bind(now_ms())
        }
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(i) = interaction {
            sqlx::query(
                "INSERT INTO arbiter_withdrawn_matches (interaction, channel, match_id, at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(i)
            .bind(&m.channel)
            .bind(m.id)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The match an interaction withdrew, if it withdrew one.
    pub async fn withdrawn_by(&self, interaction: &str) -> Result<Option<i64>, StoreError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT match_id FROM arbiter_withdrawn_matches WHERE interaction = $1")
                .bind(interaction)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| r.0))
    }

    /// A match by id.
    pub async fn match_by_id(&self, id: i64) -> Result<Option<MatchRecord>, StoreError> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} {MATCH_FROM} \
             WHERE m.id = $1"
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| match_from_row(&r)).transpose()
    }

    /// Starts a match (version 0, no board yet).
    pub async fn create_match(
        &self,
        channel: &str,
        game: &str,
        players: &[String],
        started_by: &str,
    ) -> Result<MatchRecord, StoreError> {
        self.create_pinned_match(channel, game, players, started_by, None)
            .await
    }

    /// Starts a match pinned to a server's rule-set version.
    pub async fn create_pinned_match(
        &self,
        channel: &str,
        game: &str,
        players: &[String],
        started_by: &str,
        rule_set: Option<RuleSetPin>,
    ) -> Result<MatchRecord, StoreError> {
        let players_json =
            serde_json::to_string(players).map_err(|e| StoreError::Database(e.to_string()))?;
        let at = now_ms();
        // Ids come from MAX(id)+1: two starts racing on different channels
        // may pick the same id; the loser retries.
        for _ in 0..20 {
            let res = sqlx::query(
                "INSERT INTO arbiter_matches \
                 (id, channel, game, players, status, version, started_by, started_at, \
                  guild, rule_set_version) \
                 SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, 'active', 0, $4, $5, $6, $7 \
                 FROM arbiter_matches RETURNING id",
            )
            .bind(channel)
            .bind(game)
            .bind(&players_json)
            .bind(started_by)
            .bind(at)
            .bind(rule_set.as_ref().map(|p| p.guild.clone()))
            .bind(rule_set.as_ref().map(|p| p.version))
            // All rows, not the first: on SQLite `fetch_one` can answer
            // before the statement (and its implicit commit) has finished
            // (sqlx issues 2099, 3430).
            .fetch_all(&self.pool)
            .await;
            match res {
                Ok(rows) => {
                    let row = rows.first().ok_or_else(|| {
                        StoreError::Database("INSERT … RETURNING gave no row".into())
                    })?;
                    let id: i64 = row.try_get("id")?;
                    return Ok(MatchRecord {
                        id,
                        channel: channel.to_string(),
                        game: game.to_string(),
                        players: players.to_vec(),
                        status: MatchStatus::Active,
                        version: 0,
                        started_by: started_by.to_string(),
                        started_at: at,
                        ended_at: None,
                        state: None,
                        notify: true,
                        quiet_seats: 0,
                        pictures: true,
                        result: None,
                        rule_set,
                    });
                }
                Err(e) if is_unique_violation(&e) => {
                    if self.active_match(channel).await?.is_some() {
                        return Err(StoreError::AlreadyActive);
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Database(
            "could not allocate a match id; try again".into(),
        ))
    }

    /// Appends event `expected + 1` if the match is still at version
    /// `expected` (and active, or ended for a reopening undo); the event's
    /// transition ends or reopens the match in the same transaction.
    /// Returns the new seq. A replayed interaction gets
    /// [`StoreError::Duplicate`] and writes nothing.
    pub async fn append(
        &self,
        match_id: i64,
        expected: i64,
        event: &NewEvent,
    ) -> Result<i64, StoreError> {
        let seq = expected + 1;
        let at = now_ms();
        let json = |v: &Option<serde_json::Value>| v.as_ref().map(json_text).transpose();
        // An `end` event always ends the match.
        let transition = match (&event.transition, event.kind) {
            (Transition::None, EventKind::End) => Transition::End(None),
            (t, _) => t.clone(),
        };
        let mut tx = self.pool.begin().await?;
        let (update, result) = match &transition {
            Transition::None => (
                "UPDATE arbiter_matches SET version = $1 WHERE id = $2 AND version = $3 AND status = 'active'",
                None,
            ),
            Transition::End(result) => (
                "UPDATE arbiter_matches SET version = $1, status = 'ended', ended_at = $4, result = $5 \
                 WHERE id = $2 AND version = $3 AND status = 'active'",
                Some(json(result)?),
            ),
            Transition::Reopen => (
                "UPDATE arbiter_matches SET version = $1, status = 'active', ended_at = NULL, result = NULL \
                 WHERE id = $2 AND version = $3 AND status = 'ended'",
                None,
            ),
        };
        let mut q = sqlx::query(update).bind(seq).bind(match_id).bind(expected);
        if let Some(result) = result {
            q = q.bind(at).bind(result);
        }
        let updated = match q.execute(&mut *tx).await {
            Ok(r) => r.rows_affected(),
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                return Err(StoreError::Reopen);
            }
            Err(e) => return Err(e.into()),
        };
        if updated != 1 {
            tx.rollback().await?;
            return Err(self.why_not_appended(match_id, event).await);
        }
        let inserted = insert_event(&mut tx, match_id, seq, at, event).await;
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                return Err(self.why_not_appended(match_id, event).await);
            }
            Err(e) => return Err(e.into()),
        }
        tx.commit().await?;
        Ok(seq)
    }

    /// Appends `events` as `expected + 1…` in one transaction, all or
    /// nothing, if the match is active at version `expected`; the match
    /// then takes `last` (ending it or not) once, after the last event.
    /// The events' own transitions are not applied: an imported log may
    /// end and reopen the match on its way. Returns the new version.
    pub async fn append_all(
        &self,
        match_id: i64,
        expected: i64,
        events: &[NewEvent],
        last: Transition,
    ) -> Result<i64, StoreError> {
        let n = match i64::try_from(events.len()) {
            Ok(0) => return Err(StoreError::Corrupt("no events to append".into())),
            Ok(n) => n,
            Err(_) => return Err(StoreError::Corrupt("too many events".into())),
        };
        let version = expected + n;
        let at = now_ms();
        let mut tx = self.pool.begin().await?;
        let updated = match &last {
            Transition::End(result) => {
                let result = result.as_ref().map(json_text).transpose()?;
                sqlx::query(
                    "UPDATE arbiter_matches SET version = $1, status = 'ended', ended_at = $4, result = $5 \
                     WHERE id = $2 AND version = $3 AND status = 'active'",
                )
                .bind(version)
                .bind(match_id)
                .bind(expected)
                .bind(at)
                .bind(result)
                .execute(&mut *tx)
                .await?
            }
            _ => sqlx::query(
                "UPDATE arbiter_matches SET version = $1 WHERE id = $2 AND version = $3 AND status = 'active'",
            )
            .bind(version)
            .bind(match_id)
            .bind(expected)
            .execute(&mut *tx)
            .await?,
        };
        if updated.rows_affected() != 1 {
            tx.rollback().await?;
            // The event that carries the request's interaction, if any:
            // a retried request is told it was done.
            let told = events
                .iter()
                .find(|e| e.interaction.is_some())
                .unwrap_or(&events[0]);
            return Err(self.why_not_appended(match_id, told).await);
        }
        for (seq, event) in (expected + 1..).zip(events) {
            if let Err(e) = insert_event(&mut tx, match_id, seq, at, event).await {
                tx.rollback().await?;
                return Err(match e {
                    e if is_unique_violation(&e) => self.why_not_appended(match_id, event).await,
                    e => e.into(),
                });
            }
        }
        tx.commit().await?;
        Ok(version)
    }

    /// The event an interaction wrote, if any: (match id, event).
    pub async fn event_by_interaction(
        &self,
        interaction: &str,
    ) -> Result<Option<(i64, EventRecord)>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT match_id, {EVENT_COLUMNS} FROM arbiter_match_events WHERE interaction = $1"
        ))
        .bind(interaction)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("match_id")?, event_from_row(&r)?)))
            .transpose()
    }

    /// Turns pings after each recorded event on or off.
    /// `match pictures on|off`.
    pub async fn set_pictures(&self, match_id: i64, on: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE arbiter_matches SET pictures = $1 WHERE id = $2")
            .bind(i64::from(on))
            .bind(match_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's own turn notices (`match notify on|off` from a seat): one
    /// statement, so two players switching theirs at once both hold.
    pub async fn set_seat_notify(
        &self,
        match_id: i64,
        seat: usize,
        on: bool,
    ) -> Result<(), StoreError> {
        // A match seats at most 16 (the app's `MAX_PLAYERS`).
        let Some(bit) = u32::try_from(seat)
            .ok()
            .filter(|s| *s < 63)
            .map(|s| 1i64 << s)
        else {
            return Err(StoreError::Corrupt(format!(
                "seat {seat} is past the last seat"
            )));
        };
        let sql = if on {
            "UPDATE arbiter_matches SET quiet_seats = quiet_seats & ~$1 WHERE id = $2"
        } else {
            "UPDATE arbiter_matches SET quiet_seats = quiet_seats | $1 WHERE id = $2"
        };
        sqlx::query(sql)
            .bind(bit)
            .bind(match_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_notify(&self, match_id: i64, on: bool) -> Result<(), StoreError> {
        sqlx::query("UPDATE arbiter_matches SET notify = $1 WHERE id = $2")
            .bind(i64::from(on))
            .bind(match_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Active matches whose last event waits on a decision past its
    /// deadline: (match id, channel).
    pub async fn expired_decisions(&self, now: i64) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id, m.channel FROM arbiter_matches m \
             JOIN arbiter_match_events e ON e.match_id = m.id AND e.seq = m.version \
             WHERE m.status = 'active' AND e.deadline IS NOT NULL AND e.deadline <= $1 \
             ORDER BY e.deadline LIMIT 100",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("channel")?)))
            .collect()
    }

    /// Matches waiting on a decision now (for the metrics gauge).
    pub async fn pending_decisions(&self) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM arbiter_matches m \
             JOIN arbiter_match_events e ON e.match_id = m.id AND e.seq = m.version \
             WHERE m.status = 'active' AND e.deadline IS NOT NULL",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }

    async fn why_not_appended(&self, match_id: i64, event: &NewEvent) -> StoreError {
        if let Some(i) = &event.interaction {
            match self.event_by_interaction(i).await {
                Ok(Some((m, e))) => {
                    return StoreError::Duplicate {
                        match_id: m,
                        seq: e.seq,
                    };
                }
                Ok(None) => {}
                Err(e) => return e,
            }
        }
        match self.match_by_id(match_id).await {
            Ok(Some(m)) if m.status == MatchStatus::Ended => StoreError::Ended,
            Ok(Some(m)) => StoreError::Conflict { version: m.version },
            Ok(None) => StoreError::Corrupt(format!("match {match_id} vanished")),
            Err(e) => e,
        }
    }

    /// Events `from..=to` (by seq), oldest first.
    pub async fn events(
        &self,
        match_id: i64,
        from: i64,
        to: i64,
    ) -> Result<Vec<EventRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {EVENT_COLUMNS} FROM arbiter_match_events \
             WHERE match_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq"
        ))
        .bind(match_id)
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_from_row).collect()
    }

    /// One event.
    pub async fn event(&self, match_id: i64, seq: i64) -> Result<Option<EventRecord>, StoreError> {
        Ok(self.events(match_id, seq, seq).await?.into_iter().next())
    }

    /// Every event's seq, kind and undo target, oldest first.
    pub async fn event_heads(&self, match_id: i64) -> Result<Vec<EventHead>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, kind, undoes FROM arbiter_match_events WHERE match_id = $1 ORDER BY seq",
        )
        .bind(match_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EventHead {
                    seq: r.try_get("seq")?,
                    kind: EventKind::parse(&r.try_get::<String, _>("kind")?)?,
                    undoes: r.try_get("undoes")?,
                })
            })
            .collect()
    }
}

/// Pager pages of long replies (`bot::pages`): written once, read by any
/// replica, deleted once old.
impl Store {
    /// Keeps the pages of one reply (JSON text each) under `pager`. A
    /// pager kept again (a long autocomplete value offered anew, kept
    /// under its hash) is written over, its time starting over.
    pub async fn keep_pages(
        &self,
        pager: &str,
        pages: &[String],
        at: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (n, page) in pages.iter().enumerate() {
            sqlx::query(
                "INSERT INTO arbiter_pages (pager, page, created_at, message) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (pager, page) DO UPDATE SET created_at = excluded.created_at, message = excluded.message",
            )
            .bind(pager)
            .bind(n as i64)
            .bind(at)
            .bind(page)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Page `page` of `pager`, if kept since `since` (Unix milliseconds).
    pub async fn page(
        &self,
        pager: &str,
        page: i64,
        since: i64,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT message FROM arbiter_pages WHERE pager = $1 AND page = $2 AND created_at >= $3",
        )
        .bind(pager)
        .bind(page)
        .bind(since)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("message")).transpose()?)
    }

    /// Deletes pages kept before `before`; returns how many.
    pub async fn prune_pages(&self, before: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM arbiter_pages WHERE created_at < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}

/// Opens one connection directly, within [`CONNECT_TIMEOUT`]: a pool would
/// only say "pool timed out" after its acquire timeout, hiding the cause.
/// The header every SQLite database file starts with.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Refuses at once a file that exists, holds something, and is not a
/// SQLite database (SQLite would only say so on the first query).
/// The file of a `sqlite:` URL (its query left out).
fn sqlite_path(url: &str) -> &str {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    rest.split('?').next().unwrap_or(rest)
}

fn sqlite_file_check(url: &str) -> Result<(), StoreError> {
    let path = sqlite_path(url);
    let mut head = Vec::with_capacity(SQLITE_HEADER.len());
    let read = std::fs::File::open(path).and_then(|f| {
        use std::io::Read;
        f.take(SQLITE_HEADER.len() as u64).read_to_end(&mut head)
    });
    match read {
        Ok(n) if n > 0 && head != SQLITE_HEADER => Err(connect_error(
            url,
            &format!(
                "{path} is not a SQLite database (it does not start with SQLite's header); give a new file name, or an Arbiter database"
            ),
        )),
        _ => Ok(()),
    }
}

async fn probe(url: &str) -> Result<(), StoreError> {
    use sqlx::Connection;
    match tokio::time::timeout(CONNECT_TIMEOUT, sqlx::AnyConnection::connect(url)).await {
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            Ok(())
        }
        Ok(Err(e)) => Err(connect_error(url, &e.to_string())),
        Err(_) => Err(connect_error(url, &no_answer())),
    }
}

fn no_answer() -> String {
    format!(
        "no answer within {} s (is the server running and reachable?)",
        CONNECT_TIMEOUT.as_secs()
    )
}

fn connect_error(url: &str, cause: &str) -> StoreError {
    crate::metrics::db_error();
    StoreError::Connect {
        url: redact_url(url),
        cause: scrub(cause, url),
    }
}

/// The URL with its password (userinfo after `:`, or a `password=` query
/// parameter) replaced by `***`: safe to print in errors and logs.
pub fn redact_url(url: &str) -> String {
    let mut out = url.to_string();
    if let Some(secret) = password_of(url) {
        out = out.replacen(&format!(":{secret}@"), ":***@", 1);
    }
    if let Some(q) = out.find('?') {
        let (head, query) = out.split_at(q + 1);
        let query: Vec<String> = query
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => kv.to_string(),
            })
            .collect();
        out = format!("{head}{}", query.join("&"));
    }
    out
}

/// The password in a URL's userinfo (`scheme://user:PASSWORD@host`).
fn password_of(url: &str) -> Option<&str> {
    let rest = &url[url.find("://")? + 3..];
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let userinfo = &authority[..authority.rfind('@')?];
    let (_, secret) = userinfo.split_once(':')?;
    (!secret.is_empty()).then_some(secret)
}

/// A driver's message with the URL's password (as written and
/// percent-decoded) removed, should the driver ever echo it.
fn scrub(message: &str, url: &str) -> String {
    let mut out = message.replace(url, &redact_url(url));
    if let Some(secret) = password_of(url) {
        out = out.replace(secret, "***");
        let decoded = percent_decode(secret);
        if !decoded.is_empty() {
            out = out.replace(&decoded, "***");
        }
    }
    out
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Accepts `sqlite://FILE`, `sqlite:FILE`, `postgres://…`, `postgresql://…`;
/// SQLite files are created when missing.
fn normalize_url(url: &str) -> Result<(String, Backend), StoreError> {
    let url = url.trim();
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        // The server's NOTICEs (`relation "_sqlx_migrations" already
        // exists, skipping` on every start) are not ours to log.
        let quiet = "options=-c%20client_min_messages%3Dwarning";
        let url = match url {
            u if u.contains("options=") => u.to_string(),
            u if u.contains('?') => format!("{u}&{quiet}"),
            u => format!("{u}?{quiet}"),
        };
        return Ok((url, Backend::Postgres));
    }
    if let Some(rest) = url.strip_prefix("sqlite:") {
        if rest.is_empty() || rest.starts_with(":memory:") || rest == "//:memory:" {
            return Err(StoreError::BadUrl(format!(
                "{} (an in-memory database would lose the matches; give a file)",
                redact_url(url)
            )));
        }
        let url = if rest.contains("mode=") {
            url.to_string()
        } else if rest.contains('?') {
            format!("{url}&mode=rwc")
        } else {
            format!("{url}?mode=rwc")
        };
        return Ok((url, Backend::Sqlite));
    }
    Err(StoreError::BadUrl(redact_url(url)))
}

/// Inserts one event row as `seq`, written at `at`, in `tx`.
async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    match_id: i64,
    seq: i64,
    at: i64,
    event: &NewEvent,
) -> Result<(), sqlx::Error> {
    let text = |v: &Option<serde_json::Value>| v.as_ref().map(json_text).transpose();
    let encode = |e: StoreError| sqlx::Error::Encode(e.to_string().into());
    let (play, ruling, context) = (
        text(&event.play).map_err(encode)?,
        text(&event.ruling).map_err(encode)?,
        text(&event.context).map_err(encode)?,
    );
    let state = json_text(&event.state).map_err(encode)?;
    sqlx::query(
        "INSERT INTO arbiter_match_events \
         (match_id, seq, kind, actor, input, play, ruling, state, undoes, at, context, interaction, deadline) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(match_id)
    .bind(seq)
    .bind(event.kind.as_str())
    .bind(&event.actor)
    .bind(event.input.as_deref())
    .bind(play.as_deref())
    .bind(ruling.as_deref())
    .bind(&state)
    .bind(event.undoes)
    .bind(at)
    .bind(context.as_deref())
    .bind(event.interaction.as_deref())
    .bind(event.deadline)
    .execute(&mut **tx)
    .await
    .map(|_| ())
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

fn json_text(v: &serde_json::Value) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| StoreError::Database(e.to_string()))
}

fn json_value(column: &str, text: &str) -> Result<serde_json::Value, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}

fn match_from_row(r: &AnyRow) -> Result<MatchRecord, StoreError> {
    let players: String = r.try_get("players")?;
    let players: Vec<String> =
        serde_json::from_str(&players).map_err(|e| StoreError::Corrupt(format!("players: {e}")))?;
    let status = match r.try_get::<String, _>("status")?.as_str() {
        "active" => MatchStatus::Active,
        "ended" => MatchStatus::Ended,
        "withdrawn" => MatchStatus::Withdrawn,
        other => return Err(StoreError::Corrupt(format!("unknown status '{other}'"))),
    };
    let state: Option<String> = r.try_get("state")?;
    Ok(MatchRecord {
        id: r.try_get("id")?,
        channel: r.try_get("channel")?,
        game: r.try_get("game")?,
        players,
        status,
        version: r.try_get("version")?,
        started_by: r.try_get("started_by")?,
        started_at: r.try_get("started_at")?,
        ended_at: r.try_get("ended_at")?,
        // An end before any board, and its undo, leave `null`: no board.
        state: state
            .map(|s| json_value("state", &s))
            .transpose()?
            .filter(|v| !v.is_null()),
        notify: r.try_get::<i64, _>("notify")? != 0,
        // Bits of seats; a negative value is no seat's (nothing writes one).
        quiet_seats: u64::try_from(r.try_get::<i64, _>("quiet_seats")?).unwrap_or(0),
        pictures: r.try_get::<i64, _>("pictures")? != 0,
        result: r
            .try_get::<Option<String>, _>("result")?
            .map(|s| json_value("result", &s))
            .transpose()?,
        rule_set: match (
            r.try_get::<Option<String>, _>("guild")?,
            r.try_get::<Option<i64>, _>("rule_set_version")?,
        ) {
            (Some(guild), Some(version)) => Some(RuleSetPin { guild, version }),
            _ => None,
        },
    })
}

const EVENT_COLUMNS: &str =
    "seq, kind, actor, input, play, ruling, state, undoes, at, context, deadline";

fn event_from_row(r: &AnyRow) -> Result<EventRecord, StoreError> {
    let opt_json = |col: &str| -> Result<Option<serde_json::Value>, StoreError> {
        let s: Option<String> = r.try_get(col)?;
        s.map(|s| json_value(col, &s)).transpose()
    };
    let state: String = r.try_get("state")?;
    Ok(EventRecord {
        seq: r.try_get("seq")?,
        kind: EventKind::parse(&r.try_get::<String, _>("kind")?)?,
        actor: r.try_get("actor")?,
        input: r.try_get("input")?,
        play: opt_json("play")?,
        ruling: opt_json("ruling")?,
        state: json_value("state", &state)?,
        undoes: r.try_get("undoes")?,
        context: opt_json("context")?,
        deadline: r.try_get("deadline")?,
        at: r.try_get("at")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SQLite store on a file of its own, in a folder the caller removes.
    async fn sqlite_store(name: &str) -> (Store, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("m.db").display());
        (Store::connect(&url).await.unwrap(), dir)
    }

    /// Every connection held (an import, a burst of writes) is "busy", not
    /// an error: the database answers the requests holding them. A ping
    /// that could not borrow one within its wait read as unreachable, and
    /// a healthy replica left rotation. The file gone is still an error.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_pool_all_in_use_is_busy_and_a_file_gone_is_an_error() {
        let (store, dir) = sqlite_store("ping-busy").await;
        let wait = Duration::from_millis(200);
        assert_eq!(store.ping(wait).await.unwrap(), Ping::Answers);
        let mut held = Vec::new();
        for _ in 0..4 {
            held.push(store.pool.acquire().await.unwrap());
        }
        assert_eq!(store.pool.num_idle(), 0);
        assert_eq!(store.ping(wait).await.unwrap(), Ping::Busy);
        drop(held);
        assert_eq!(store.ping(wait).await.unwrap(), Ping::Answers);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(store.ping(wait).await.is_err());
    }

    #[test]
    fn passwords_are_redacted_from_urls_and_messages() {
        assert_eq!(
            redact_url("postgres://ann:s3cr%40t@db.example:5432/arbiter?sslmode=off"),
            "postgres://ann:***@db.example:5432/arbiter?sslmode=off"
        );
        assert_eq!(
            redact_url("postgres://db/arbiter?user=ann&password=s3cret"),
            "postgres://db/arbiter?user=ann&password=***"
        );
        assert_eq!(
            redact_url("postgres://ann@db/arbiter"),
            "postgres://ann@db/arbiter"
        );
        assert_eq!(redact_url("sqlite://arbiter.db"), "sqlite://arbiter.db");
        let url = "postgres://ann:s3cr%40t@db/x";
        assert_eq!(
            scrub(
                "login for s3cr@t failed at postgres://ann:s3cr%40t@db/x",
                url
            ),
            "login for *** failed at postgres://ann:***@db/x"
        );
        let e = normalize_url("mysql://ann:s3cret@db/x").unwrap_err();
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }

    #[test]
    fn urls_are_normalized() {
        assert_eq!(
            normalize_url("sqlite://arbiter.db").unwrap(),
            ("sqlite://arbiter.db?mode=rwc".to_string(), Backend::Sqlite)
        );
        assert_eq!(
            normalize_url("postgres://u@localhost/db").unwrap().1,
            Backend::Postgres
        );
        assert!(matches!(
            normalize_url("mysql://x"),
            Err(StoreError::BadUrl(_))
        ));
        assert!(matches!(
            normalize_url("sqlite::memory:"),
            Err(StoreError::BadUrl(_))
        ));
    }
}
