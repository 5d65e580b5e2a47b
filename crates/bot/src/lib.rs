//! The bot: one transport-neutral dispatcher behind three thin transports.
//!
//! A [`Request`] (a command with its options, or an autocomplete, a button
//! press, a modal submit; plus who asked and where) goes into
//! [`Bot::handle`], which calls the application layer and returns a
//! [`Reply`]: plain data (pages of text, buttons, choices, a modal). The
//! transports only translate:
//! - [`discord`]: serenity `Interaction` → [`Request`], [`Reply`] → serenity
//!   response builders (shared by the gateway and the HTTP endpoint);
//! - [`http`]: Discord's interactions webhook (axum, Ed25519);
//! - [`gateway`]: a serenity client (`arbiter serve`);
//! - [`console`]: lines typed on a terminal or piped in, rendered by
//!   [`text`].
//!
//! Every command is declared once in [`commands`] (the registry): its
//! options, help, access, title, how its options become a [`Command`], its
//! deferral and how it is answered; the transports derive from it.
//!
//! Match tracking (issue 9): `/match …` is [`Command::Match`], answered by
//! [`matchcmd`] through `app::matches::Matches`, which [`Bot::open_matches`]
//! connects from [`BotConfig::database_url`].

// What this crate names by the paths the application uses (the core's
// `text` helpers are `arbiter_text`: `text` here is the console's renderer).
pub(crate) use arbiter_app::{app, render};
pub(crate) use arbiter_engine as engine;
pub(crate) use arbiter_metrics as metrics;
pub(crate) use arbiter_rules::{cards, corpus, search};
pub(crate) use arbiter_store as store;

pub mod commands;
pub mod console;
pub mod discord;
mod feedback;
pub mod gateway;
pub mod http;
pub mod matchcmd;
mod pages;
pub mod pictures;
mod reply;
pub mod rulescmd;
pub mod text;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::app::{App, AppError, JudgeError, cpu};
use crate::engine::document;

pub use commands::{Command, FeedbackCommand};
pub use feedback::summary_text as feedback_summary;
pub use matchcmd::MatchCommand;
pub use pages::{PAGE_BUDGET, Pages};
pub use reply::{
    Action, Button, ButtonStyle, Choice, ChoiceValue, FileAttachment, Message, MessageKind, Modal,
    PictureFile, Reply,
};
pub use rulescmd::{RulesCommand, RulesFile};

/// Largest attachment downloaded for `/judge` and "Judge this board".
pub const MAX_ATTACHMENT_BYTES: u64 = 1024 * 1024;
/// The custom id of the modal `/judge` opens without a board.
pub const JUDGE_MODAL_ID: &str = "judge-modal";
/// The custom id of the paragraph field in that modal.
pub const JUDGE_MODAL_FIELD: &str = "board";
/// Results shown for a `/rule` question.
pub const RULE_RESULTS: usize = 3;
/// Discord allows at most 25 autocomplete choices.
pub const MAX_CHOICES: usize = 25;

/// Who sent a request, and where.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Origin {
    /// The interaction id (Discord) or a line number (console).
    pub id: String,
    pub user_id: u64,
    pub user_name: String,
    pub guild_id: Option<u64>,
    pub channel_id: Option<u64>,
    /// Holds Manage Messages in the channel (Discord sends the member's
    /// permissions with every guild interaction): a match moderator.
    pub moderator: bool,
    /// Holds Manage Server: may change the server's rule set (`/rules add`).
    pub admin: bool,
}

/// The rule set a request belongs to: its server, or the console's
/// (`console`, or the console's `--guild`); none in a direct message.
pub fn guild_key(origin: &Origin) -> Option<String> {
    match (origin.guild_id, origin.channel_id) {
        (Some(g), _) => Some(g.to_string()),
        (None, None) => Some(matchcmd::CONSOLE_CHANNEL.to_string()),
        (None, Some(_)) => None,
    }
}

/// Whose share of the CPU pool a request's work takes (`app::cpu::Scope`):
/// its server's; a DM's, its user's own; the console's without a server,
/// the shared local one.
pub fn cpu_scope(origin: &Origin) -> cpu::Scope {
    match origin.guild_id {
        Some(g) => cpu::Scope::Server(g),
        None if origin.user_id != 0 => cpu::Scope::Direct(origin.user_id),
        None => cpu::Scope::Local,
    }
}

/// An attachment to fetch (a Discord CDN URL) or already read (console).
#[derive(Debug, Clone, PartialEq)]
pub struct Attachment {
    pub filename: String,
    pub url: String,
    /// Size Discord reports, in bytes.
    pub size: u64,
}

/// Where a board document comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum BoardSource {
    /// Typed or pasted text (a message, an option, a modal field).
    Text(String),
    /// An attached file still to download.
    Attachment(Attachment),
}

/// What the user did.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Command(Command),
    /// Typing in an autocompleted option: the command, the option, what is
    /// typed so far, and the `game` option if already chosen. `sub`: the
    /// subcommand the option belongs to (`/rules show id:` → `show`).
    Autocomplete {
        command: String,
        option: String,
        value: String,
        game: Option<String>,
        sub: Option<String>,
    },
    /// A button press (its custom id).
    Component {
        custom_id: String,
    },
    /// A modal submitted: its custom id and the fields' (custom id, value).
    ModalSubmit {
        custom_id: String,
        fields: Vec<(String, String)>,
    },
}

impl Input {
    /// A short label for logs: `rule`, `autocomplete:rule`, `button:cite`.
    pub fn label(&self) -> String {
        match self {
            Input::Command(c) => c.name().to_string(),
            Input::Autocomplete { command, .. } => format!("autocomplete:{command}"),
            Input::Component { custom_id } => {
                format!("button:{}", custom_id.split(':').next().unwrap_or_default())
            }
            Input::ModalSubmit { custom_id, .. } => format!("modal:{custom_id}"),
        }
    }

    /// The label for metrics: from a fixed set (command names, known button
    /// and form kinds), never from what a user typed.
    pub fn metric_label(&self) -> String {
        match self {
            Input::Command(c) => c.name().to_string(),
            Input::Autocomplete { command, .. } => match commands::find(command) {
                Some(spec) if spec.completes() => format!("autocomplete:{}", spec.name),
                _ => "autocomplete:other".into(),
            },
            Input::Component { custom_id } => match Action::parse(custom_id) {
                Some(_) => self.label(),
                None => "button:unknown".into(),
            },
            Input::ModalSubmit { custom_id, .. } => {
                match custom_id.split(':').next().unwrap_or_default() {
                    JUDGE_MODAL_ID => format!("modal:{JUDGE_MODAL_ID}"),
                    matchcmd::MATCH_SETUP_MODAL => format!("modal:{}", matchcmd::MATCH_SETUP_MODAL),
                    _ => "modal:unknown".into(),
                }
            }
        }
    }
}

/// One request to the bot.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub origin: Origin,
    pub input: Input,
}

/// How a request is acknowledged to Discord.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defer {
    /// Answered at once (within Discord's 3 seconds).
    No,
    /// Deferred ("Arbiter is thinking…" for everyone), the reply sent when
    /// ready: for replies that are public when all goes well (a ruling, a
    /// recorded play, a file).
    Public,
    /// Deferred for the user alone, the reply sent when ready.
    Ephemeral,
}

/// **The deferral table**: how each request is acknowledged, declared once
/// per command and subcommand (beside its declaration, in
/// [`commands::defer`]), button and form (here). Exhaustive on purpose: a
/// new `/match` subcommand or button does not compile until it is declared.
///
/// When the reply turns out to be for the other audience (a refusal after a
/// public deferral), the transport deletes the deferred message and sends
/// the reply as a follow-up with its own visibility
/// ([`discord::deliver_deferred`]). Requests refused before any work (an
/// attachment too large, an unknown game for `/schema`) are answered at once,
/// ephemerally, whatever this table says ([`Bot::acknowledgement`]).
pub fn deferral(input: &Input) -> Defer {
    match input {
        Input::Command(command) => commands::defer(command),
        // Discord does not let autocomplete be deferred.
        Input::Autocomplete { .. } => Defer::No,
        Input::Component { custom_id } => match Action::parse(custom_id) {
            Some(
                Action::Cite(_)
                | Action::Section(_)
                | Action::CiteAt { .. }
                | Action::SectionAt { .. }
                | Action::Page { .. },
            )
            | None => Defer::No,
            // An answer to a decision: a write.
            Some(Action::Decide { .. }) => Defer::Public,
            // A database write; the thanks are for the one who pressed.
            Some(Action::Feedback { .. }) => Defer::Ephemeral,
            Some(Action::Card(_)) => Defer::No,
            // One row written (the index is rebuilt lazily, on the next
            // `/rule`): answered at once, replacing the preview in place.
            Some(Action::RulesConfirm(_) | Action::RulesCancel(_)) => Defer::No,
            // A database read and a drawing; the picture rides the edit.
            Some(Action::Picture { .. }) => Defer::Public,
        },
        // The `/match setup` form is a write.
        Input::ModalSubmit { custom_id, .. } if custom_id == matchcmd::MATCH_SETUP_MODAL => {
            Defer::Public
        }
        Input::ModalSubmit { .. } => Defer::No,
    }
}

/// Settings shared by every transport.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The match database (`sqlite://…` or `postgres://…`); else
    /// `DATABASE_URL`, else `sqlite://arbiter.db`.
    pub database_url: Option<String>,
    /// Timeout for attachment downloads.
    pub download_timeout: Duration,
    /// Time budget of a deferred request's CPU work (judging an attached
    /// board); requests answered at once get the CPU pool's own budget
    /// (`app::cpu::Limits::budget`, within Discord's 3 seconds).
    pub deferred_budget: Duration,
    /// How long a match decision waits before the rules' default applies.
    pub decision_timeout: Duration,
    /// Heap bytes of servers' rule-set indexes kept in memory at most.
    pub index_cache_bytes: usize,
    /// How long a question waits for its server's index being built before
    /// it is answered from the version before (the console waits longer).
    pub index_wait: Duration,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            database_url: None,
            download_timeout: Duration::from_secs(10),
            deferred_budget: Duration::from_secs(10),
            decision_timeout: crate::app::matches::DEFAULT_DECISION_TIMEOUT,
            index_cache_bytes: crate::app::rulesets::CACHE_BUDGET,
            index_wait: crate::app::rulesets::BUILD_GRACE,
        }
    }
}

/// Interactions still being answered (drained on shutdown).
#[derive(Default)]
pub struct InFlight {
    count: std::sync::atomic::AtomicUsize,
    done: tokio::sync::Notify,
}

pub struct InFlightGuard(Arc<InFlight>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.done.notify_waiters();
        }
    }
}

impl InFlight {
    pub fn enter(self: &Arc<Self>) -> InFlightGuard {
        self.count.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(self.clone())
    }

    /// Waits until none is left, or `limit`.
    pub async fn drain(&self, limit: std::time::Duration) {
        let wait = async {
            while self.count.load(Ordering::Acquire) > 0 {
                let notified = self.done.notified();
                if self.count.load(Ordering::Acquire) == 0 {
                    break;
                }
                notified.await;
            }
        };
        let _ = tokio::time::timeout(limit, wait).await;
    }
}

/// The dispatcher and its state.
pub struct Bot {
    pub app: Arc<App>,
    pub config: BotConfig,
    pages: Pages,
    client: reqwest::Client,
    /// Match tracking, opened by [`Bot::open_matches`].
    matches: tokio::sync::OnceCell<crate::app::matches::Matches>,
    /// Per-server rule sets, on the match database.
    rule_sets: tokio::sync::OnceCell<crate::app::rulesets::RuleSets>,
    /// The sources the shipped index was built from (for server indexes);
    /// empty: server documents are searched without the shipped games.
    shipped: Vec<crate::corpus::SourceGame>,
    /// `/rule` asks the feedback buttons refer to, kept in this process.
    asks: feedback::Asks,
}

static ERROR_SEQ: AtomicU64 = AtomicU64::new(0);

/// A short id for an internal error, unique within a process run, which
/// appears in the user's message and in the logs.
pub fn error_id() -> String {
    let n = ERROR_SEQ.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mixed =
        (t as u64 ^ (u64::from(std::process::id()) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n;
    format!("E{:08X}", (mixed >> 16) as u32)
}

/// A server's rule-set version being indexed while an answer comes from
/// an older one (`from`; 0: the shipped rules alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Indexing {
    pub version: i64,
    pub from: i64,
}

/// A reply answered from an older rule-set version while another is being
/// indexed (after a change, or built again after it left memory), saying
/// which in its footer.
/// How long a request naming a game waits for the server's version being
/// indexed ([`Bot::named_game_wait`]): `/rule` is not deferred, and Discord
/// drops an answer after 3 s.
const NAMED_GAME_WAIT: std::time::Duration = std::time::Duration::from_millis(1000);

/// The game a command names in its `game` option.
fn named_game(input: &Input) -> Option<&str> {
    match input {
        Input::Command(
            Command::Rule { game, .. }
            | Command::Card { game, .. }
            | Command::Games { game }
            | Command::Judge { game, .. },
        ) => game.as_deref(),
        _ => None,
    }
}

pub(crate) fn indexing_note(reply: Reply, ix: Indexing) -> Reply {
    let from = match ix.from {
        0 => "the shipped rules alone, without this server's documents".to_string(),
        v => format!("its version {v}"),
    };
    let note = format!(
        "This server's rule set (version {}) is being indexed; until it is ready, answers come from {from}.",
        ix.version
    );
    match reply {
        Reply::Message(mut m) => {
            m.footer = Some(match m.footer.take() {
                Some(f) => format!("{note}\n{f}"),
                None => note,
            });
            // Without any of the server's documents, the answer is not the
            // server's: said first, so that "No indexed rule covers this"
            // is not read as the server's rules saying so.
            if ix.from == 0 {
                m.body = format!(
                    "*This server's documents are still being indexed: this answer comes from the shipped rules alone. Ask again in a few seconds.*\n\n{}",
                    m.body
                );
            }
            Reply::Message(m)
        }
        other => other,
    }
}

/// A reply's citation buttons pinned to `version` (a match's rule set),
/// when the reply itself is of that version.
fn pinned(mut doc: reply::Doc, version: Option<i64>) -> reply::Doc {
    if let Some(v) = version {
        for b in &mut doc.buttons {
            b.action = b.action.clone().pinned(v);
        }
    }
    doc
}

/// An internal error: logged with an id, reported to the user by that id only.
pub fn internal_error(what: &str, detail: &dyn std::fmt::Display) -> Reply {
    let id = error_id();
    tracing::error!(error_id = %id, "{what}: {detail}");
    Reply::Message(Message::internal_error(&id))
}

impl Bot {
    pub fn new(app: Arc<App>, config: BotConfig) -> Bot {
        let client = reqwest::Client::builder()
            .timeout(config.download_timeout)
            .user_agent(concat!("arbiter/", env!("CARGO_PKG_VERSION")))
            .build()
            .unwrap_or_default();
        Bot {
            app,
            config,
            pages: Pages::default(),
            client,
            matches: tokio::sync::OnceCell::new(),
            rule_sets: tokio::sync::OnceCell::new(),
            shipped: Vec::new(),
            asks: feedback::Asks::default(),
        }
    }

    /// The sources the shipped index was built from, so a server's index
    /// holds the shipped games beside its own documents.
    pub fn with_shipped(mut self, shipped: Vec<crate::corpus::SourceGame>) -> Bot {
        self.shipped = shipped;
        self
    }

    /// The per-server rule sets, on the match database (opened with it).
    pub async fn open_rule_sets(&self) -> Result<&crate::app::rulesets::RuleSets, String> {
        let matches = self.open_matches().await?;
        let store = matches.store().clone();
        Ok(self
            .rule_sets
            .get_or_init(|| async {
                crate::app::rulesets::RuleSets::with_budget(
                    store,
                    self.shipped.clone(),
                    self.app.clone(),
                    self.config.index_cache_bytes,
                )
                .with_grace(self.config.index_wait)
            })
            .await)
    }

    /// The index a request searches: its server's (shipped games plus the
    /// server's documents), or the shipped one when there is no server,
    /// no database, or the server added nothing. While the server's
    /// newest version is being indexed, the newest one built, and the
    /// version it waits for.
    pub async fn app_for(&self, origin: &Origin) -> (Arc<App>, Option<Indexing>) {
        let Some(guild) = guild_key(origin) else {
            return (self.app.clone(), None);
        };
        if self.shipped.is_empty() {
            return (self.app.clone(), None);
        }
        let Ok(sets) = self.open_rule_sets().await else {
            return (self.app.clone(), None);
        };
        match sets.answering(&guild).await {
            Ok(a) => {
                let from = a.version;
                let indexing = a.indexing.map(|version| Indexing { version, from });
                (a.app, indexing)
            }
            Err(e) => {
                tracing::warn!(
                    "server rule set unavailable, answering from the shipped rules: {e}"
                );
                (self.app.clone(), None)
            }
        }
    }

    /// A request naming a game the answering index does not hold while the
    /// server's newest version is being indexed: the game may be one of
    /// that version's documents, so the request waits a little for the
    /// build ([`NAMED_GAME_WAIT`]: `/rule` is answered without deferring),
    /// and is told so if it is not ready, never "unknown game" (an outside
    /// tester's first `/rule` about the server's own game after a restart
    /// was).
    async fn named_game_wait(
        &self,
        request: &Request,
        app: Arc<App>,
        indexing: Option<Indexing>,
    ) -> Result<(Arc<App>, Option<Indexing>), Reply> {
        let (Some(ix), Some(game)) = (indexing, named_game(&request.input)) else {
            return Ok((app, indexing));
        };
        if app.game(game).is_ok() {
            return Ok((app, indexing));
        }
        if let (Some(guild), Ok(sets)) = (guild_key(&request.origin), self.open_rule_sets().await)
            && let Ok(Ok(newer)) = tokio::time::timeout(NAMED_GAME_WAIT, sets.app_for(&guild)).await
        {
            return Ok((newer, None));
        }
        Err(Reply::Message(Message::user_error(
            title_of(&request.input),
            &format!(
                "“{game}” is not among the games indexed so far, and this server's rule set (version {}) is still being indexed: if it is one of this server's games, ask again in a few seconds.",
                ix.version
            ),
        )))
    }

    /// `/rule ID` in the channel of a match that pinned an older version of
    /// this server's rule set that holds the id: that version's index, so
    /// the passage is cited as the match's rulings cite it (README: "its
    /// rule buttons cite that version"; `/rule` showed the newer text).
    async fn rule_pin(&self, request: &Request) -> Option<(Arc<App>, i64)> {
        let Input::Command(Command::Rule { query, .. }) = &request.input else {
            return None;
        };
        let query = query.trim();
        if query.is_empty() || query.contains(char::is_whitespace) || self.shipped.is_empty() {
            return None;
        }
        let guild = guild_key(&request.origin)?;
        let pin = self.channel_match_pin(&request.origin).await?;
        if pin.guild != guild || pin.version == 0 {
            return None;
        }
        let sets = self.open_rule_sets().await.ok()?;
        let current = sets.store().rule_set_version(&guild).await.ok()?;
        if current == pin.version {
            return None;
        }
        let app = sets.app_at(&guild, pin.version).await.ok()?;
        app.corpus.resolve_id(query)?;
        Some((app, pin.version))
    }

    /// The index a request answers from: [`Bot::app_for`], or for a
    /// citation button of a match, its server's rule set at the version
    /// the match pinned.
    async fn app_for_request(&self, request: &Request) -> (Arc<App>, Option<Indexing>) {
        let version = match &request.input {
            Input::Component { custom_id } => {
                Action::parse(custom_id).and_then(|a| a.rule_set_version())
            }
            _ => None,
        };
        let (Some(version), Some(guild)) = (version, guild_key(&request.origin)) else {
            return self.app_for(&request.origin).await;
        };
        if self.shipped.is_empty() {
            return (self.app.clone(), None);
        }
        let Ok(sets) = self.open_rule_sets().await else {
            return (self.app.clone(), None);
        };
        match sets.app_at(&guild, version).await {
            Ok(app) => (app, None),
            Err(e) => {
                tracing::warn!(
                    "pinned rule set unavailable, answering from the shipped rules: {e}"
                );
                (self.app.clone(), None)
            }
        }
    }

    /// The match database's URL as configured (see [`matchcmd::database_url`]).
    pub fn database_url(&self) -> Option<&str> {
        self.config.database_url.as_deref()
    }

    /// How the transport acknowledges the request: as declared in
    /// [`deferral`], except that a request refused before any work is
    /// answered at once.
    pub fn acknowledgement(&self, request: &Request) -> Defer {
        match deferral(&request.input) {
            Defer::No => Defer::No,
            _ if self.precheck(request).is_some() => Defer::No,
            declared => declared,
        }
    }

    /// Answers a request. Never panics: a panic in the application layer
    /// becomes an internal error with an id. Recorded in the metrics.
    pub async fn handle(&self, request: &Request) -> Reply {
        let started = Instant::now();
        // The CPU pool's work for this request counts to its server's share.
        let scope = cpu_scope(&request.origin);
        let reply = cpu::scoped(scope, self.answer_request(request)).await;
        metrics::request(
            &request.input.metric_label(),
            outcome(&reply),
            started.elapsed().as_secs_f64(),
        );
        reply
    }

    async fn answer_request(&self, request: &Request) -> Reply {
        if let Some(reply) = self.precheck(request) {
            return reply;
        }
        if let Some(reply) = self.handle_match(request).await {
            return reply;
        }
        if let Some(reply) = self.handle_rules(request).await {
            return reply;
        }
        if let Some(reply) = self.handle_feedback(request).await {
            return reply;
        }
        if let Input::Component { custom_id } = &request.input
            && let Some(Action::Page { key, page }) = Action::parse(custom_id)
        {
            return match self.pages.get(key, page).await {
                Some(msg) => Reply::Update(msg),
                // A forged or stale page number of pages still kept.
                None if page > 0 && self.pages.get(key, 0).await.is_some() => {
                    Reply::Message(Message::user_error(
                        "Pages",
                        "there is no such page; use the buttons of the message",
                    ))
                }
                None => Reply::Message(Message::user_error(
                    "Pages",
                    "these pages have expired (they are kept for 15 minutes); run the command again",
                )),
            };
        }
        // Fetch what must be fetched first (async), then answer in the CPU pool.
        let fetched = match &request.input {
            Input::Command(c) => match commands::board_upload(c) {
                Some(a) => Some(self.download(a, commands::title(c.name())).await),
                None => None,
            },
            _ => None,
        };
        let fetched = match fetched {
            Some(Err(reply)) => return reply,
            Some(Ok(text)) => Some(text),
            None => None,
        };
        let budget = match deferral(&request.input) {
            Defer::No => cpu::limits().budget,
            Defer::Public | Defer::Ephemeral => self.config.deferred_budget,
        };
        let rule_pin = self.rule_pin(request).await;
        let pinned = rule_pin.as_ref().map(|(_, v)| *v);
        let fetched = Fetched {
            text: fetched,
            match_game: match &request.input {
                Input::Command(Command::Rule { game: None, .. }) => {
                    self.channel_match_game(&request.origin).await
                }
                Input::Autocomplete {
                    command,
                    option,
                    game: None,
                    sub,
                    ..
                } if commands::option(command, sub.as_deref(), option)
                    .is_some_and(|o| o.channel_game) =>
                {
                    self.channel_match_game(&request.origin).await
                }
                _ => None,
            },
            pinned,
        };
        let (app, indexing) = match rule_pin {
            Some((app, _)) => (app, None),
            None => {
                let (app, indexing) = self.app_for_request(request).await;
                match self.named_game_wait(request, app, indexing).await {
                    Ok(answering) => answering,
                    Err(reply) => return reply,
                }
            }
        };
        let weight = weight(&request.input);
        let answered = if matches!(weight, Weight::Instant) {
            // On this thread: nothing to move, so nothing is copied.
            cpu::run_inline(|| Answerer::run(&app, request, fetched))
        } else {
            let req = request.clone();
            let job = move || Answerer::run(&app, &req, fetched);
            match weight {
                Weight::Heavy => cpu::run_within(budget, job).await,
                _ => cpu::run_light(budget, job).await,
            }
        };
        match answered {
            Ok((reply, kept, asked)) => {
                self.pages.keep(kept).await;
                if let Some(ask) = asked {
                    self.keep_ask(ask).await;
                }
                match indexing {
                    Some(ix) => indexing_note(reply, ix),
                    None => reply,
                }
            }
            Err(cpu::CpuError::Panicked(msg)) => internal_error(
                &format!("panic while handling {}", request.input.label()),
                &msg,
            ),
            Err(busy @ cpu::CpuError::Busy { .. }) => {
                Reply::Message(Message::busy(title_of(&request.input), &busy.to_string()))
            }
            Err(slow) => Reply::Message(Message::user_error(
                title_of(&request.input),
                &slow.to_string(),
            )),
        }
    }

    /// A refusal that needs no work: an attachment Arbiter will not
    /// download, a `/schema` game that is unknown or has no engine. Such
    /// requests are answered at once (ephemeral), never deferred.
    pub fn precheck(&self, request: &Request) -> Option<Reply> {
        match &request.input {
            Input::Command(command) => commands::precheck(&self.app, &request.origin, command),
            _ => None,
        }
    }

    /// Downloads an attachment (after [`attachment_refusal`] let it through).
    async fn download(&self, a: &Attachment, title: &str) -> Result<String, Reply> {
        if let Some(why) = attachment_refusal(a) {
            return Err(Reply::Message(Message::user_error(title, &why)));
        }
        let bytes = self.download_bytes(a, MAX_ATTACHMENT_BYTES, title).await?;
        String::from_utf8(bytes).map_err(|_| {
            Reply::Message(Message::user_error(
                title,
                &format!("{} is not UTF-8 text", reply::code_span(&a.filename)),
            ))
        })
    }

    /// Downloads at most `limit` bytes of an attachment; more is refused.
    async fn download_bytes(
        &self,
        a: &Attachment,
        limit: u64,
        title: &str,
    ) -> Result<Vec<u8>, Reply> {
        let refuse = |why: String| Reply::Message(Message::user_error(title, &why));
        let mut response = match self
            .client
            .get(&a.url)
            .send()
            .await
            .and_then(|r| r.error_for_status())
        {
            Ok(r) => r,
            // Discord's CDN answers 403/404 for a file whose message was
            // deleted or whose signed URL expired: the user's to fix.
            Err(e)
                if e.status()
                    .is_some_and(|s| matches!(s.as_u16(), 403 | 404 | 410)) =>
            {
                return Err(refuse(format!(
                    "{} is no longer available (its message was deleted or its link expired); attach it again",
                    reply::code_span(&a.filename)
                )));
            }
            Err(e) if transient(&e) => return Err(not_downloaded(a, title, &e)),
            Err(e) => return Err(internal_error("attachment download failed", &e)),
        };
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() as u64 + chunk.len() as u64 > limit {
                        return Err(refuse(format!(
                            "{} is larger than {} KB; refused",
                            reply::code_span(&a.filename),
                            limit / 1024
                        )));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) if transient(&e) => return Err(not_downloaded(a, title, &e)),
                Err(e) => return Err(internal_error("attachment download failed", &e)),
            }
        }
        Ok(bytes)
    }

    /// Splits a long message into pages; page 1 is returned, the rest kept
    /// (in the database when one is open) for the pager buttons.
    async fn paged(&self, doc: reply::Doc, ephemeral: bool) -> Message {
        let (first, rest) = pages::paginate(doc, ephemeral);
        self.pages.keep(rest.into_iter().collect()).await;
        first
    }
}

/// A download that failed on the way (Discord's CDN unreachable, too slow,
/// cut off): nothing the user or Arbiter got wrong, and worth trying again.
fn transient(e: &reqwest::Error) -> bool {
    e.is_timeout() || e.is_connect() || e.is_body() || e.is_decode() || e.is_request()
}

/// The reply to a [`transient`] download failure: said in words, counted
/// with the busy answers (an outside tester's slow CDN got "Something went
/// wrong on our side" and an error id).
fn not_downloaded(a: &Attachment, title: &str, e: &reqwest::Error) -> Reply {
    tracing::warn!(file = %a.filename, "attachment download failed: {e}");
    let how = if e.is_timeout() {
        "the download took too long"
    } else if e.is_connect() {
        "Discord's file server could not be reached"
    } else {
        "the download was cut off"
    };
    Reply::Message(Message::busy(
        title,
        &format!(
            "Arbiter could not download {} just now ({how}); try again in a moment",
            reply::code_span(&a.filename)
        ),
    ))
}

/// Why an attachment is refused before download (its name or its size), if it is.
fn attachment_refusal(a: &Attachment) -> Option<String> {
    let lower = a.filename.to_lowercase();
    if ![".yaml", ".yml", ".json", ".txt"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        return Some(format!(
            "{} is not a board document: attach a .yaml, .yml, .json or .txt file",
            reply::code_span(&a.filename)
        ));
    }
    (a.size > MAX_ATTACHMENT_BYTES).then(|| {
        format!(
            "{} is {} KB; attachments over {} KB are refused",
            reply::code_span(&a.filename),
            a.size.div_ceil(1024),
            MAX_ATTACHMENT_BYTES / 1024
        )
    })
}

/// Whether answering parses and judges a board (or builds a schema): the
/// CPU pool's judging workers. Everything else (searches, completions,
/// lists, buttons) is bounded by its input's size and runs on the light ones.
/// How much CPU a request takes, so where it runs (`app::cpu`).
enum Weight {
    /// Judging, parsing boards: the pool.
    Heavy,
    /// Searching, listing: the pool's light workers.
    Light,
    /// A completion of what was typed, a short question (tens of
    /// microseconds, bounded): at once, on the async worker; a thread hop
    /// would cost more (issue 17).
    Instant,
}

fn weight(input: &Input) -> Weight {
    match input {
        Input::Command(c) => commands::weight(c),
        Input::ModalSubmit { .. } => Weight::Heavy,
        Input::Autocomplete { value, .. } if value.len() <= INSTANT_COMPLETION_BYTES => {
            Weight::Instant
        }
        Input::Autocomplete { .. } | Input::Component { .. } => Weight::Light,
    }
}

/// Longest typed text completed at once (longer goes to the pool).
const INSTANT_COMPLETION_BYTES: usize = 100;

/// A `/rule` question answered at once: at most this long, with at most
/// [`INSTANT_REPAIRS`] words typo repair may try (each is compared with the
/// whole vocabulary, some 70 µs; the rest of a search, some tens of µs).
const INSTANT_QUESTION_BYTES: usize = 100;
const INSTANT_REPAIRS: usize = 1;

fn short_question(query: &str) -> bool {
    query.len() <= INSTANT_QUESTION_BYTES
        && crate::search::repair_candidates(query) <= INSTANT_REPAIRS
}

/// How a reply counts in the metrics.
fn outcome(reply: &Reply) -> metrics::Outcome {
    match reply {
        Reply::Message(m) | Reply::Update(m) => match m.kind {
            MessageKind::Busy => metrics::Outcome::busy,
            MessageKind::UserError => metrics::Outcome::refused,
            MessageKind::InternalError => metrics::Outcome::error,
            _ => metrics::Outcome::ok,
        },
        Reply::Choices(_) | Reply::Modal(_) => metrics::Outcome::ok,
    }
}

/// The title of a refusal for this input ("Judge", "Rule", …): the
/// command's declared title ([`commands::title`]).
fn title_of(input: &Input) -> &'static str {
    match input {
        Input::Command(c) => commands::title(c.name()),
        Input::ModalSubmit { .. } => "Judge",
        Input::Autocomplete { .. } | Input::Component { .. } => "Arbiter",
    }
}

/// What the async side gathered for a request before it is answered.
struct Fetched {
    /// The downloaded attachment.
    text: Option<String>,
    /// `/rule` (and its and `/card`'s autocomplete) without a game: the
    /// game of the channel's match.
    match_game: Option<String>,
    /// `/rule ID` answered from the rule-set version the channel's match
    /// pinned ([`Bot::rule_pin`]).
    pinned: Option<i64>,
}

/// What the CPU pool answers: the reply, pages to keep, the `/rule` ask.
type Answered = (Reply, Vec<pages::PageSet>, Option<crate::store::Ask>);

/// Answers without I/O: everything that runs in the CPU pool. Pages beyond
/// the first are collected in `kept`, for the caller to store.
struct Answerer<'a> {
    app: &'a App,
    kept: Vec<pages::PageSet>,
    /// The `/rule` question its reply's feedback buttons refer to.
    asked: Option<crate::store::Ask>,
    /// The rule-set version of the channel's match a `/rule ID` cites.
    pinned: Option<i64>,
}

impl<'a> Answerer<'a> {
    /// The reply, the pages beyond the first to keep, and the `/rule`
    /// question its feedback buttons refer to.
    fn run(app: &App, request: &Request, fetched: Fetched) -> Answered {
        let mut answerer = Answerer::new(app);
        let reply = answerer.answer(request, fetched);
        (reply, answerer.kept, answerer.asked)
    }

    fn new(app: &'a App) -> Answerer<'a> {
        Answerer {
            app,
            kept: Vec::new(),
            asked: None,
            pinned: None,
        }
    }

    fn answer(&mut self, request: &Request, fetched: Fetched) -> Reply {
        let Fetched {
            text: fetched,
            match_game,
            pinned,
        } = fetched;
        self.pinned = pinned;
        match &request.input {
            Input::Command(command) => {
                commands::answer(self, request, command, fetched, match_game.as_deref())
            }
            Input::Autocomplete {
                command,
                option,
                value,
                game,
                ..
            } => self.autocomplete(
                command,
                option,
                value,
                game.as_deref(),
                match_game.as_deref(),
            ),
            Input::Component { custom_id } => self.component(custom_id),
            Input::ModalSubmit { custom_id, fields } => self.modal_submit(custom_id, fields),
        }
    }

    /// `/rule`: an exact id shows that passage; anything else is a question.
    fn rule(
        &mut self,
        request: &Request,
        query: &str,
        game: Option<&str>,
        match_game: Option<&str>,
    ) -> Reply {
        let query = query.trim();
        // An unknown game is refused whatever the query (an id's lookup
        // dropped it silently while a question was refused).
        if let Some(Err(e)) = game.map(|g| self.app.game(g)) {
            return app_error("Rule", &e);
        }
        let exact = self
            .app
            .corpus
            .resolve_id(query)
            .filter(|_| !query.contains(char::is_whitespace))
            .map(|p| p.id.clone());
        // "what does 13.4 say": the passage it names, as an id would show it.
        let named = || self.app.rule_named(query, game.or(match_game));
        if let Some(id) = exact.or_else(named) {
            return match self.app.cite(&id, false) {
                Ok(reply) => {
                    let mut doc = reply::passages_message(self.app, &reply, false);
                    if let Some(v) = self.pinned {
                        doc = pinned(doc, Some(v));
                        let note =
                            format!("This match's rule set: version {v}, as when it started");
                        doc.footer = Some(match doc.footer {
                            Some(f) => format!("{note} · {f}"),
                            None => note,
                        });
                    }
                    Reply::Message(self.paged(doc, false))
                }
                Err(e) => app_error("Rule", &e),
            };
        }
        // Shaped like an id (`ashes:attack-a-unit.9`) but not one: say so, with did-you-mean.
        let id_like = !query.contains(char::is_whitespace)
            && query.split_once(':').is_some_and(|(g, rest)| {
                !rest.is_empty() && self.app.corpus.resolve_game(g).is_some()
            });
        if id_like {
            return match self.app.cite(query, false) {
                Ok(reply) => Reply::Message(
                    self.paged(reply::passages_message(self.app, &reply, false), false),
                ),
                Err(e) => app_error("Rule", &e),
            };
        }
        match self.app.ask_in(query, game, match_game, RULE_RESULTS) {
            Ok(reply) => {
                let mut doc = reply::ask_message(self.app, &reply);
                if let Some(ask) = feedback::ask_of(request, &reply) {
                    // 👍 / 👎 always fit: other buttons give way to them.
                    let fb = feedback::buttons(&ask.key);
                    doc.buttons
                        .truncate(pages::MAX_ACTION_BUTTONS.saturating_sub(fb.len()));
                    doc.buttons.extend(fb);
                    self.asked = Some(ask);
                }
                Reply::Message(self.paged(doc, false))
            }
            Err(e) => app_error("Rule", &e),
        }
    }

    fn judge(&mut self, text: &str, game: Option<&str>) -> Reply {
        self.judge_with(text, game, None)
    }

    fn judge_with(&mut self, text: &str, game: Option<&str>, play: Option<&str>) -> Reply {
        let result = match play.map(str::trim).filter(|p| !p.is_empty()) {
            Some(line) => self.app.judge_notation(text, game, line),
            None => self.app.judge(text, game),
        };
        match result {
            Ok(ruling) => {
                let mut m = self.paged(reply::ruling_message(&ruling), false);
                m.picture = judge_picture(self.app, &ruling, text, game, play);
                Reply::Message(m)
            }
            Err(e) => judge_refusal(&e),
        }
    }

    /// Why `/judge` could not judge a board of `game` (unknown, with "did
    /// you mean"; or without an engine), before its form opens.
    fn judge_game_refusal(&self, game: &str) -> Option<Reply> {
        self.app.schema(game).err().map(|e| judge_refusal(&e))
    }

    fn games(&mut self) -> Reply {
        match (self.app.rules(None), self.app.coverage(None)) {
            (Ok(rules), Ok(coverage)) => {
                Reply::Message(self.paged(reply::games_message(&rules, &coverage), false))
            }
            (Err(e), _) | (_, Err(e)) => app_error("Games", &e),
        }
    }

    /// `/games game:`: the documents, their contents and, per passage,
    /// whether the engine executes it and in which procedure.
    fn game_coverage(&mut self, game: &str) -> Reply {
        match (self.app.rules(Some(game)), self.app.coverage(Some(game))) {
            (Ok(rules), Ok(coverage)) => {
                Reply::Message(self.paged(reply::coverage_message(&rules, &coverage), false))
            }
            (Err(e), _) | (_, Err(e)) => app_error("Games", &e),
        }
    }

    /// `/schema game:`: the board documents' JSON Schema as a file.
    fn schema(&self, game: &str) -> Reply {
        let id = match self.app.corpus.resolve_game(game) {
            Some(g) => g.id.clone(),
            None => game.trim().to_string(),
        };
        match self.app.schema(game) {
            Ok(schema) => {
                let filename = format!("{id}-board.schema.json");
                let text = serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n";
                let mut m = Message::info(
                    &format!("Board schema: {id}"),
                    &format!(
                        "The JSON Schema of `{id}` board documents, attached as `{filename}`. Save it next to your boards and put `# yaml-language-server: $schema={filename}` as the first line of a board YAML file: editors with the YAML language server then validate and complete it."
                    ),
                );
                m.attachment = Some(FileAttachment { filename, text });
                Reply::Message(m)
            }
            Err(JudgeError::App(e)) => app_error("Schema", &e),
            Err(JudgeError::NoEngine { game }) => Reply::Message(Message::user_error(
                "Schema",
                &format!(
                    "{game} has rules text but no rules engine yet, so it has no board documents; `/games` shows which games have an engine"
                ),
            )),
            Err(e) => Reply::Message(Message::user_error("Schema", &judge_error_md(&e))),
        }
    }

    /// An autocomplete answered in the pool (`/rule query:`, `/card`).
    fn autocomplete(
        &self,
        command: &str,
        option: &str,
        value: &str,
        game: Option<&str>,
        match_game: Option<&str>,
    ) -> Reply {
        commands::complete(self, command, option, value, game, match_game)
    }

    fn component(&mut self, custom_id: &str) -> Reply {
        let action = Action::parse(custom_id);
        // A match's pinned citation opens its section and references at
        // the same version (the app is that version's index already).
        let pin = action.as_ref().and_then(Action::rule_set_version);
        match action {
            Some(Action::Cite(id) | Action::CiteAt { id, .. }) => match self.app.cite(&id, false) {
                Ok(reply) => {
                    let doc = reply::passages_message(self.app, &reply, false);
                    Reply::Message(self.paged(pinned(doc, pin), true))
                }
                Err(e) => app_error("Rule", &e),
            },
            Some(Action::Section(id) | Action::SectionAt { id, .. }) => {
                match self.app.cite(&id, true) {
                    Ok(reply) => {
                        let doc = reply::passages_message(self.app, &reply, true);
                        Reply::Message(self.paged(pinned(doc, pin), true))
                    }
                    Err(e) => app_error("Rule", &e),
                }
            }
            // Answered by `handle_match` (it needs the database, async).
            Some(Action::Decide { .. } | Action::Picture { .. }) => Reply::Message(
                Message::user_error("Match", "decisions are not available here"),
            ),
            // Answered by `handle_rules` (the database, async).
            Some(Action::RulesConfirm(_) | Action::RulesCancel(_)) => Reply::Message(
                Message::user_error("Rules", "rule set buttons are not available here"),
            ),
            Some(Action::Card(name)) => commands::card(self, &name, None),
            // Answered by `handle_feedback` (the database, async).
            Some(Action::Feedback { .. }) => Reply::Message(Message::user_error(
                "Feedback",
                "feedback buttons are not available here",
            )),
            // Page turns read the kept pages (`Bot::answer_request`).
            Some(Action::Page { .. }) => Reply::Message(Message::user_error(
                "Pages",
                "these pages have expired (they are kept for 15 minutes); run the command again",
            )),
            None => Reply::Message(Message::user_error(
                "Button",
                "this button is not known to this version of Arbiter",
            )),
        }
    }

    fn modal_submit(&mut self, custom_id: &str, fields: &[(String, String)]) -> Reply {
        let Some(game_part) = custom_id.strip_prefix(JUDGE_MODAL_ID) else {
            return Reply::Message(Message::user_error(
                "Form",
                "this form is not known to this version of Arbiter",
            ));
        };
        let game = game_part.strip_prefix(':').filter(|g| !g.is_empty());
        let board = fields
            .iter()
            .find(|(id, _)| id == JUDGE_MODAL_FIELD)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default();
        self.judge(board, game)
    }

    /// Splits a long message into pages; page 1 is returned, the rest
    /// collected for the caller to keep.
    fn paged(&mut self, doc: reply::Doc, ephemeral: bool) -> Message {
        let (first, rest) = pages::paginate(doc, ephemeral);
        self.kept.extend(rest);
        first
    }
}

/// Whether a message's text (its first code block, or the whole text) is a
/// board document: it names its game. Otherwise its attachment is the board.
fn board_in_text(content: &str) -> bool {
    let text = document::extract_code_block(content);
    document::parse_value(text).is_ok_and(|doc| document::game_of(&doc).is_ok())
}

fn app_error(title: &str, e: &AppError) -> Reply {
    Reply::Message(Message::user_error(title, &app_error_md(e)))
}

/// An app error as Discord shows it: every name in it someone typed or
/// uploaded escaped, so none shows as a masked link, a mention or
/// formatting (an outside tester's card named `[Free Nitro](https://…)`
/// was a live link in `/card`'s "did you mean"; a name typed as
/// `https://…` was one in its refusal: web addresses are broken,
/// [`reply::escape_unlinked`]), and the code spans of its template as code
/// ([`AppError::with_values`]; escaped whole, "a card of Ashes (`ashes`)"
/// showed its backticks).
fn app_error_md(e: &AppError) -> String {
    e.with_values(&reply::escape_inline)
        .unwrap_or_else(|| reply::escape_unlinked(&e.to_string()))
}

/// A board `/judge` cannot judge, in words.
fn judge_refusal(e: &JudgeError) -> Reply {
    match e {
        JudgeError::App(e) => app_error("Judge", e),
        JudgeError::NoEngine { game } => Reply::Message(Message::user_error(
            "Judge",
            &format!(
                "{} has rules text but no rules engine yet, so its boards cannot be judged; `/rule` can still cite its rules, and `/games` shows which games have an engine",
                reply::escape_inline(game)
            ),
        )),
        e => Reply::Message(Message::user_error("Judge", &judge_error_md(e))),
    }
}

/// A board's error as Discord shows it: escaped whole and on one line.
/// It quotes what the board says (a unit's or player's name, a field and
/// its value): sent as written, a unit named `[Free Nitro](https://…)`
/// was a live link in the "unknown unit" refusal quoting it. Its
/// words are formatted in the engines with the values in them, so its own
/// code spans show their backticks rather than as code.
fn judge_error_md(e: &JudgeError) -> String {
    reply::escape_inline(&e.to_string())
}

/// The picture of a ruling made by `/judge`: the board after it, changes
/// marked against the document judged. A board the drawing cannot read
/// goes without a picture (the ruling still answers).
fn judge_picture(
    app: &App,
    ruling: &crate::engine::Ruling,
    text: &str,
    game: Option<&str>,
    play: Option<&str>,
) -> Option<reply::PictureFile> {
    let play = play.map(str::trim).filter(|p| !p.is_empty());
    let doc = app.judged_document(text, game, play).ok()?;
    match crate::render::pictures::ruling(ruling, &doc) {
        Ok(p) => Some(reply::PictureFile::of(p)),
        Err(e) => {
            tracing::debug!("no picture for the ruling: {e}");
            None
        }
    }
}

fn judge_modal(game: Option<&str>) -> Modal {
    Modal {
        custom_id: match game {
            Some(g) => format!(
                "{JUDGE_MODAL_ID}:{}",
                g.chars().take(60).collect::<String>()
            ),
            None => JUDGE_MODAL_ID.to_string(),
        },
        title: "Judge a board".into(),
        field_id: JUDGE_MODAL_FIELD.into(),
        label: "Board document (YAML or JSON)".into(),
        placeholder: "game: ashes\nplayers: ...\nplay: ...".into(),
        max_length: 4000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Change, Diagnostic, Ruling, Severity, Step};

    #[test]
    fn short_questions_are_answered_at_once_and_costly_ones_in_the_pool() {
        let rule = |q: &str| {
            let input = Input::Command(Command::Rule {
                query: q.into(),
                game: None,
            });
            matches!(weight(&input), Weight::Instant)
        };
        assert!(rule("can an exhausted phoenixborn guard"));
        assert!(rule("ashes:attack-a-unit.3"));
        // One word typo repair may try: still at once.
        assert!(rule("can an exausted unit guard"));
        // Two or more such words, or a long question: the pool.
        assert!(!rule("can an exausted unit gaurdd"));
        assert!(!rule("qwertyx zxcvbnma plokijuh"));
        assert!(!rule(&"can a unit guard ".repeat(7)));
    }

    #[test]
    fn a_huge_ruling_is_paged_within_discords_limits_without_cutting_citations() {
        let steps: Vec<Step> = (0..300)
            .map(|i| Step {
                rule: format!("ashes:attack-a-unit.{}", i % 4 + 1),
                text: format!(
                    "Unit {i} deals 2 damage to the target. {}",
                    "It is a long explanation. ".repeat(i % 7 * 10)
                ),
                numbers: vec![("damage".into(), 2)],
                choice: None,
                assumption: (i % 50 == 0).then(|| "read as simultaneous".to_string()),
            })
            .collect();
        let ruling = Ruling {
            pending: None,
            claims: Vec::new(),
            status: None,
            game: "ashes".into(),
            legal: true,
            steps,
            diagnostics: vec![Diagnostic {
                severity: Severity::Warning,
                message: "@everyone look".into(),
                rule: None,
                path: None,
            }],
            state: serde_json::json!({ "units": (0..500).map(|i| serde_json::json!({ "name": format!("Unit {i}"), "damage": i })).collect::<Vec<_>>() }),
            changes: vec![Change {
                path: "units[0].damage".into(),
                before: 0.into(),
                after: 2.into(),
            }],
        };
        let (first, set) = pages::paginate(reply::ruling_message(&ruling), false);
        let set = set.expect("paged");
        let key = first.buttons.iter().find_map(|btn| match btn.action {
            Action::Page { key, .. } => Some(key),
            _ => None,
        });
        assert_eq!(key, Some(set.key));
        let mut n = 0;
        for page in &set.pages {
            let page = page.clone();
            let embed = serde_json::to_value(discord::embed(&page)).unwrap();
            let desc = embed["description"].as_str().unwrap();
            assert!(desc.chars().count() <= PAGE_BUDGET);
            let total = desc.chars().count()
                + embed["title"].as_str().unwrap().chars().count()
                + embed["footer"]["text"]
                    .as_str()
                    .unwrap_or("")
                    .chars()
                    .count();
            assert!(total <= 6000);
            assert!(page.buttons.len() <= 25);
            // Every step's citation is whole: a step number is always followed by its rule id.
            for line in desc
                .lines()
                .filter(|l| l.starts_with("**") && l.contains(".** `"))
            {
                assert!(
                    line.ends_with('`') || line.ends_with("*(continued)*"),
                    "cut citation: {line}"
                );
            }
            // Code blocks are balanced on every page.
            assert_eq!(desc.matches("```").count() % 2, 0);
            n += 1;
        }
        assert!(n > 10, "{n} pages");
        let json = serde_json::to_value(discord::response(&Reply::Message(first))).unwrap();
        assert_eq!(
            json["data"]["allowed_mentions"]["parse"],
            serde_json::json!([])
        );
    }

    #[tokio::test]
    async fn shutdown_waits_for_in_flight_interactions() {
        let in_flight = Arc::new(InFlight::default());
        let guard = in_flight.enter();
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let d = done.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            d.store(true, Ordering::SeqCst);
            drop(guard);
        });
        let t = std::time::Instant::now();
        in_flight.drain(std::time::Duration::from_secs(5)).await;
        assert!(
            done.load(Ordering::SeqCst),
            "drained before the interaction finished"
        );
        assert!(t.elapsed() < std::time::Duration::from_secs(2));
        // Nothing in flight: returns at once.
        in_flight.drain(std::time::Duration::from_secs(5)).await;
    }

    #[test]
    fn busy_is_counted_by_kind_not_by_wording() {
        let busy = Message::busy("Judge", "no room just now");
        assert!(busy.ephemeral);
        assert_eq!(outcome(&Reply::Message(busy)), metrics::Outcome::busy);
        // A refusal that happens to start like one is still a refusal.
        let refusal = Message::user_error("Judge", "Arbiter is busy, said the user");
        assert_eq!(outcome(&Reply::Message(refusal)), metrics::Outcome::refused);
        let m = matchcmd_refusal_kind(&crate::app::matches::MatchError::Busy {
            message: "the pool is full".into(),
        });
        assert_eq!(m, Some(MessageKind::Busy));
    }

    fn matchcmd_refusal_kind(e: &crate::app::matches::MatchError) -> Option<MessageKind> {
        match matchcmd::refusal(e) {
            Reply::Message(m) => Some(m.kind),
            _ => None,
        }
    }

    #[test]
    fn internal_errors_carry_an_id_and_are_ephemeral() {
        let Reply::Message(m) = internal_error("test", &"boom") else {
            panic!()
        };
        assert!(m.ephemeral);
        assert_eq!(m.kind, MessageKind::InternalError);
        let id = m
            .footer
            .unwrap()
            .trim_start_matches("error id ")
            .to_string();
        assert!(
            id.starts_with('E') && id.len() == 9 && m.body.contains(&id),
            "{id}"
        );
        assert_ne!(error_id(), error_id());
    }

    #[test]
    fn actions_round_trip_through_custom_ids_within_100_characters() {
        for a in [
            Action::Cite("ashes:attack-a-unit.3".into()),
            Action::Section("ti4:action-phase".into()),
            Action::Page {
                key: u64::MAX,
                page: 12,
            },
        ] {
            let id = a.custom_id();
            assert!(id.len() <= 100);
            assert_eq!(Action::parse(&id), Some(a));
        }
        assert_eq!(Action::parse("nonsense"), None);
        assert_eq!(Action::parse("page:zz:1"), None);
    }

    /// An answer from the shipped rules alone while the server's first
    /// index builds says so first, not only in its footer (an outside
    /// tester read "No indexed rule covers this" as the server's rules
    /// saying so); an answer from an older version says it in the footer.
    #[test]
    fn an_answer_without_the_servers_documents_says_so_first() {
        let m = || Reply::Message(Message::info("Rules", "No indexed rule covers this."));
        let Reply::Message(alone) = indexing_note(
            m(),
            Indexing {
                version: 1,
                from: 0,
            },
        ) else {
            panic!("a message")
        };
        assert!(
            alone
                .body
                .starts_with("*This server's documents are still being indexed"),
            "{}",
            alone.body
        );
        assert!(alone.footer.unwrap().contains("the shipped rules alone"));
        let Reply::Message(older) = indexing_note(
            m(),
            Indexing {
                version: 3,
                from: 2,
            },
        ) else {
            panic!("a message")
        };
        assert_eq!(older.body, "No indexed rule covers this.");
        assert!(older.footer.unwrap().contains("its version 2"));
    }
}
