//! Match tracking: one active match per channel, its board, every event
//! with its ruling (plays, players' answers to decisions, phase advances,
//! adjustments, notes, undos), the result, and export/import.
//!
//! Transport-neutral: each call takes who is asking ([`Caller`]: channel,
//! user, moderator flag, interaction id) and returns a structured reply or a
//! [`MatchError`] worded for the user. The CLI (`arbiter match …`), the
//! console and Discord's `/match` are thin layers over [`Matches`]. No
//! game's fields are known here: the engine says whose turn it is, the
//! phase, the result and who makes a play. Storage is [`crate::store`];
//! text rendering is [`crate::render::matches`]. See `docs/MATCHES.md`.

mod consent;
mod integrity;
mod permits;
mod queue;
mod replay;
mod turns;
mod values;

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

pub use consent::{CONSENT_KEY, Proposal, Proposed, Stage, proposal_in};
pub use replay::{ReplayReport, replay_log};

use super::App;
use crate::engine::{
    self, Adjustment, Asking, BoardError, Decision, GameEngine, GameResult, Ruling, Status,
    document,
};
use crate::store::{
    EventKind, EventRecord, MatchRecord, MatchStatus, NewEvent, RuleSetPin, Store, StoreError,
};

/// Log entries per page.
pub const LOG_PAGE_SIZE: i64 = 10;
/// The path a change of the whole board goes by (a first board withdrawn
/// reverts to none): replies summarise its values.
pub const WHOLE_BOARD: &str = "board";
/// Most players a match may seat.
pub const MAX_PLAYERS: usize = 16;
/// Longest channel or user id accepted.
pub const MAX_ID_CHARS: usize = 100;
/// Longest note, reason or winner text accepted.
pub const MAX_TEXT_CHARS: usize = 1000;
/// How long a decision waits before the rules' default applies, unless
/// configured (`--decision-timeout`).
pub const DEFAULT_DECISION_TIMEOUT: Duration = Duration::from_secs(24 * 3600);
/// The actor recorded for a decision answered by its timeout.
pub const TIMEOUT_ACTOR: &str = "arbiter:timeout";

/// Who is asking, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caller {
    /// Channel or thread id: one active match each.
    pub channel: String,
    /// The user's id (Discord snowflake, or any name on the console).
    pub user: String,
    /// Holds Manage Messages in the channel: may undo anyone's event, set
    /// up again after plays, adjust any field, end the match.
    pub moderator: bool,
    /// The interaction (or request) id: an event is written at most once
    /// per interaction; a replay gets the first result.
    pub interaction: Option<String>,
    /// The server whose rule set a match started here pins (its current
    /// version); `None`: the match pins none.
    pub guild: Option<String>,
}

impl Caller {
    pub fn new(channel: impl Into<String>, user: impl Into<String>, moderator: bool) -> Caller {
        Caller {
            channel: channel.into(),
            user: user.into(),
            moderator,
            interaction: None,
            guild: None,
        }
    }

    /// In this server (or the console's rule set): `start` pins its version.
    pub fn with_guild(mut self, guild: Option<String>) -> Caller {
        self.guild = guild;
        self
    }

    pub fn with_interaction(mut self, id: impl Into<String>) -> Caller {
        self.interaction = Some(id.into());
        self
    }

    /// The caller as they act in match `m`: a moderator who holds one of
    /// its seats is a player there, as a judge does not rule on their own
    /// match (another moderator does).
    pub(super) fn in_match(&self, m: &MatchRecord) -> Caller {
        let mut c = self.clone();
        c.moderator = self.moderator && seat_of(m, &self.user).is_none();
        c
    }
}

/// Why a match request was refused or failed. Every variant but `Storage`
/// is the user's to fix; transports show them ephemerally.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MatchError {
    #[error("{message}")]
    Usage { message: String },
    #[error("there is no active match in this channel; start one with `match start`")]
    NoMatch,
    #[error("this channel already has an active match of {game}; end it first with `match end`")]
    AlreadyActive { game: String },
    /// `who`: who may undo its result (`turns::result_undoers`, the
    /// undo's own rule: it told a moderator who holds a seat that "a
    /// moderator" may, and her undo was refused; found by an outside
    /// tester).
    #[error(
        "the match has ended; only {who} may reopen it with `match undo`, or start a new one with `match start`"
    )]
    Ended { who: String },
    #[error("{message}")]
    Forbidden { message: String },
    /// An undo refused over a proposal still waiting: `proposes` is the
    /// proposal's words as the player typed them (a play's line, an end's
    /// reason), kept apart from the bot's text around them so that Discord
    /// shows them as typed (quoted inside a `Forbidden`, a backtick in the
    /// play closed its code span and what followed rendered).
    #[error("{before}{proposes}{after}")]
    ProposalWaits {
        before: String,
        proposes: String,
        after: String,
    },
    #[error(
        "the match has no board yet; give the starting board with `match setup` (YAML, as for `judge`)"
    )]
    NoBoard,
    #[error("{error}")]
    Board { error: BoardError },
    #[error("unknown game '{name}'{}", hint(suggestions))]
    UnknownGame {
        name: String,
        suggestions: Vec<String>,
    },
    #[error("{game} has no rules engine yet, so matches of it cannot be tracked")]
    NoEngine { game: String },
    #[error("there is nothing to undo")]
    NothingToUndo,
    /// A play waits on a player's decision: nothing else moves the match.
    /// `undo`: who may take back the event that asked it, now (its
    /// author, or the proposal's; it said "whoever asked it", and the
    /// asker's undo was refused when a later answer of another player's
    /// asked it: found by an outside tester).
    #[error(
        "waiting for {player}'s decision: {question} ({player} or a moderator who holds no seat in the match answers it; {undo} may take back #{seq}, which asked it, with `undo`)"
    )]
    Waiting {
        player: String,
        question: String,
        seq: i64,
        undo: String,
    },
    /// An answer to a decision that is not (or no longer) waiting.
    #[error("there is no decision waiting in this match (it was answered, undone or replaced)")]
    NoDecision,
    /// An answer to an earlier question (a button or a listed answer of a
    /// decision since replaced, or of another match) while another waits.
    #[error(
        "that answer is for another question (since answered, undone or replaced, or another match's); the question waiting now is {player}'s: {question} (answer it with its buttons or `/match answer`)"
    )]
    Stale { player: String, question: String },
    /// Someone else's event landed first; nothing was applied.
    #[error(
        "the board changed while your request was being judged (now at version {version}); nothing was applied: look at the board and try again"
    )]
    BoardChanged { version: i64, board: Option<Value> },
    /// The CPU pool had no room (or the work ran out of time): try again.
    #[error("{message}")]
    Busy { message: String },
    #[error("{message}")]
    Storage { message: String },
}

impl MatchError {
    /// Whether the user can fix it (as opposed to a fault of ours).
    pub fn is_user_error(&self) -> bool {
        !matches!(self, MatchError::Storage { .. })
    }

    fn usage(message: impl Into<String>) -> MatchError {
        MatchError::Usage {
            message: message.into(),
        }
    }

    fn forbidden(message: impl Into<String>) -> MatchError {
        MatchError::Forbidden {
            message: message.into(),
        }
    }
}

fn hint(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("; did you mean '{one}'?"),
        many => format!("; known games: {}", many.join(", ")),
    }
}

impl From<StoreError> for MatchError {
    fn from(e: StoreError) -> MatchError {
        match e {
            StoreError::Ended => MatchError::Ended {
                who: format!("its winner or {}", turns::MODERATOR),
            },
            StoreError::Conflict { version } => MatchError::BoardChanged {
                version,
                board: None,
            },
            StoreError::Reopen => MatchError::forbidden(
                "the match cannot be reopened: the channel has another active match",
            ),
            other => MatchError::Storage {
                message: other.to_string(),
            },
        }
    }
}

impl From<BoardError> for MatchError {
    fn from(error: BoardError) -> MatchError {
        MatchError::Board { error }
    }
}

/// A seat: the user bound to it and the player's name on the board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Seat {
    pub seat: usize,
    pub user: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Who is to act next, and on what.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Next {
    /// 0-based seat.
    pub seat: usize,
    pub user: String,
    /// The board's name for the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `turn` or `decision`.
    pub what: NextKind,
    /// In plain words: "your turn (player turns, round 2)", the question.
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NextKind {
    Turn,
    Decision,
}

/// A decision a play waits on, with who answers it and until when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pending {
    pub decision: Decision,
    /// The deciding seat's user.
    pub user: String,
    /// The match version it waits at (answers quote it).
    pub version: i64,
    /// Unix ms after which the rules' default applies; `None`: no timeout
    /// (the rules give no default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// What a proposal would do ("to set … from 5 to 6 (reason: …)"), for
    /// lists too short for the whole question; `None` for a rule's decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposes: Option<String>,
}

impl Pending {
    /// The refusal of an answer to another question while this one waits.
    pub fn stale(&self) -> MatchError {
        MatchError::Stale {
            player: self.decision.player.clone(),
            question: self
                .proposes
                .clone()
                .unwrap_or_else(|| self.decision.question.clone()),
        }
    }

    /// A proposal waiting on a player's consent (not a rule's decision).
    pub fn is_consent(&self) -> bool {
        self.decision.key == CONSENT_KEY
    }
}

/// A match and its current board (`start`, `setup`, `board`, `end`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchView {
    pub match_id: i64,
    pub channel: String,
    pub game: String,
    pub status: MatchStatus,
    pub seats: Vec<Seat>,
    /// Number of events so far; a request may pass it as `expected_version`.
    pub version: i64,
    pub started_by: String,
    pub started_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<i64>,
    /// Whose turn the engine says it is (a seat's user), when one player is to act.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Phase, round, turn and result as the engine reads the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_status: Option<Status>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Next>,
    /// How the match ended, when it has a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The match's turn notices (a moderator's switch; on unless turned off).
    pub notify: bool,
    /// Seats whose players turned their own turn notices off.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quiet: Vec<usize>,
    /// Replies carry a picture of the board (`match pictures on|off`).
    pub pictures: bool,
    /// The server's rule set the match pinned, and its newest version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_set: Option<RuleSetState>,
    /// What the reply took from elsewhere than the request (stats from the
    /// card list at setup), said so the players can check it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub board: Option<Value>,
}

impl MatchView {
    /// How the match ended, for its picture: its result, or no winner for
    /// a match a moderator ended without one; `None` while it goes on.
    pub fn ending(&self) -> Option<GameResult> {
        match (&self.result, self.status) {
            (Some(r), _) => Some(r.clone()),
            (None, MatchStatus::Ended) => Some(GameResult {
                winner: None,
                reason: "the match was ended".into(),
                rule: None,
            }),
            (None, MatchStatus::Active | MatchStatus::Withdrawn) => None,
        }
    }

    /// Whether a reply pings the player to act next that it is their turn.
    pub fn turn_notices(&self) -> bool {
        self.notify
            && self
                .next
                .as_ref()
                .is_none_or(|n| !self.quiet.contains(&n.seat))
    }
}

/// The rule-set version a match pinned when it started and the server's
/// newest: citations in the match resolve against `pinned`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetState {
    pub guild: String,
    pub pinned: i64,
    pub latest: i64,
}

impl RuleSetState {
    /// A newer version exists than the one the match uses.
    pub fn outdated(&self) -> bool {
        self.latest > self.pinned
    }
}

/// The reply to an event request (`play`, `answer`, `advance`, `adjust`,
/// `note`, `undo`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventReply {
    pub match_id: i64,
    pub event: EventKind,
    /// True when the event was recorded: a legal play (or one waiting on a
    /// decision), an illegal attempt the rules keep a record of, an answer…
    pub applied: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<i64>,
    /// The match version after the request.
    pub version: i64,
    /// The play judged (from notation or YAML), with the answers so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<Value>,
    /// The ruling, step by step; when illegal, its diagnostics say why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<Ruling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjustment: Option<Adjustment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// An undo: the event taken back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undone: Option<LogEntry>,
    /// What changed on the board.
    pub changes: Vec<engine::Change>,
    /// The board now (unchanged when nothing was applied).
    pub board: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Next>,
    /// Set when this event ended the match with a result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// Whether the player to act next gets a turn notice: the match's
    /// notices are on and that player did not turn theirs off.
    pub notify: bool,
    /// Replies carry a picture of the board (`match pictures on|off`).
    pub pictures: bool,
    /// True when this is a replayed interaction answered with its first result.
    pub replayed: bool,
    /// True when the event is a proposal: it changes nothing until the
    /// players it touches confirm it (`pending` asks the first).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proposed: bool,
    /// The seats, for naming players in replies.
    pub seats: Vec<Seat>,
}

/// A decision a setup replaced, as its event's context keeps it
/// (`replaced`): the event that waited on it, whose and what.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Replaced {
    pub seq: i64,
    pub player: String,
    pub question: String,
}

impl Replaced {
    /// The decision a setup made right after the event `seq` replaces:
    /// the one that event waits on (its `ruling.pending`), if any. Live
    /// and on replay alike: an edited export's setup once read "replacing
    /// #1, which waited on Maeoni's decision: …" over an event that waited
    /// on none (found by an outside tester).
    pub(crate) fn after(seq: i64, ruling: Option<&Value>) -> Option<Replaced> {
        let decision: Decision = serde_json::from_value(ruling?.get("pending")?.clone()).ok()?;
        Some(Replaced {
            seq,
            player: decision.player,
            question: decision.question,
        })
    }
}

/// One event as the log shows it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct LogEntry {
    pub seq: i64,
    pub kind: EventKind,
    pub actor: String,
    /// Unix milliseconds.
    pub at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Value>,
    /// The ruling without its state (steps, diagnostics, changes, pending).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Value>,
    /// The board after the event (`null` for an end before any board:
    /// read back as such, not as no board).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "some_value"
    )]
    pub state: Option<Value>,
    /// The result this event's board decided (a play, an answer, an
    /// advance or an adjust that ended the match): the log is the lasting
    /// record, and it showed an `end`'s result only (found by an outside
    /// tester). An `end` keeps its own in `context`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    /// The board's seat names when the event was recorded (the board
    /// before it; a first board's own): a later rename or setup does not
    /// relabel it (found by an outside tester: "#2 Judge (coal) played …"
    /// after a setup renamed Coal). Empty: name the seats as they are now.
    #[serde(skip)]
    pub names: Vec<String>,
}

/// An optional JSON value that keeps an explicit `null` (serde reads it as
/// `None` otherwise).
fn some_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

impl LogEntry {
    fn from_record(e: EventRecord, with_state: bool) -> LogEntry {
        LogEntry {
            seq: e.seq,
            kind: e.kind,
            actor: e.actor,
            at: e.at,
            input: e.input,
            play: e.play,
            ruling: e.ruling,
            undoes: e.undoes,
            context: e.context,
            state: with_state.then_some(e.state),
            result: None,
            names: Vec::new(),
        }
    }

    /// The seats as this entry names them: their users now, with the
    /// names they had when it was recorded.
    pub fn seats_then(&self, now: &[Seat]) -> Vec<Seat> {
        now.iter()
            .map(|s| Seat {
                name: self.names.get(s.seat).cloned().or_else(|| s.name.clone()),
                ..s.clone()
            })
            .collect()
    }
}

/// The log's entries `from` on, out of `records` (which may start with the
/// event before `from`, whose board names the seats the first one was
/// recorded under), each with its seats' names then and the result its
/// board decided.
fn entries_as_recorded(
    engine: Option<&dyn GameEngine>,
    records: Vec<EventRecord>,
    from: i64,
    with_state: bool,
) -> Vec<LogEntry> {
    let mut before: Option<Value> = None;
    let mut out = Vec::new();
    for e in records {
        let state = Some(e.state.clone()).filter(|s| !s.is_null());
        if e.seq >= from {
            let mut entry = LogEntry::from_record(e, with_state);
            if let Some(engine) = engine {
                let board = before.as_ref().or(state.as_ref());
                entry.names = board
                    .and_then(|b| engine.players(b).ok())
                    .unwrap_or_default();
                entry.result = state.as_ref().and_then(|s| decided(engine, &entry, s));
            }
            out.push(entry);
        }
        before = state.or(before);
    }
    out
}

/// The result `board` decides, when `e` is an event that can decide one by
/// its board (an `end` states its own; an undo reopens; a proposal still
/// asked changed nothing).
fn decided(engine: &dyn GameEngine, e: &LogEntry, board: &Value) -> Option<GameResult> {
    let by_board = matches!(
        e.kind,
        EventKind::Play | EventKind::Answer | EventKind::Advance | EventKind::Adjust
    );
    let asked = proposal_in(e.context.as_ref()).is_some_and(|p| p.stage == Stage::Asked);
    if !by_board || asked {
        return None;
    }
    engine.status(board).ok()?.result
}

/// How long a whole log's work (export, verify, an export's import) may
/// wait for a worker of the CPU pool and run: longer than a request's
/// budget, as every transport defers these replies (Discord's 15
/// minutes), and a long match's log is hundreds of boards.
pub const WHOLE_LOG_BUDGET: Duration = Duration::from_secs(20);

/// The reply to `log`: one page, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogReply {
    pub match_id: i64,
    pub game: String,
    pub page: i64,
    pub pages: i64,
    pub total: i64,
    pub entries: Vec<LogEntry>,
    pub seats: Vec<Seat>,
}

/// The reply to `export`: a YAML document that `setup` re-imports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportReply {
    pub file_name: String,
    pub yaml: String,
    /// Said beside the file when `setup` would refuse it, or nearly
    /// ([`export_warning`]).
    pub warning: Option<String>,
}

/// What an export of `bytes` needs said: over the size `setup` imports
/// (or within a tenth of it), its import is refused, so the next step is
/// named. A 631-event match exported 1.17 MB with no word, and its own
/// import was refused (found by an outside tester).
pub fn export_warning(bytes: usize) -> Option<String> {
    let limit = document::MAX_EXPORT_BYTES;
    let size = format!("{} ({bytes} bytes)", document::size_text(bytes));
    let board_alone = "to go on from it in another channel or match, set up its board alone (the file's `board:` part, a board document); the whole log stays in this match and its export";
    if bytes > limit {
        Some(format!(
            "this export is {size}, over the {} KB an import takes: `setup` of this file will be refused; {board_alone}",
            limit / 1024
        ))
    } else if bytes > limit / 10 * 9 {
        Some(format!(
            "this export is {size}, near the {} KB an import takes: a few more events and `setup` of it will be refused; {board_alone}",
            limit / 1024
        ))
    } else {
        None
    }
}

/// A game name as `start` accepts it.
#[derive(Debug, Clone)]
struct GameName {
    id: String,
    names: Vec<String>,
}

type EngineLookup = Arc<dyn Fn(&str) -> Option<&'static dyn GameEngine> + Send + Sync>;

/// A setup's document as read on the pool: a board (with the stats its
/// cards took from the card list), or an export to import.
enum SetupRead {
    Board(Value, Vec<crate::cards::Filled>),
    Export(Value),
}

/// One of a channel's matches, as `match:` lists it ([`Matches::listed`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    /// The match's number (`match:N`).
    pub number: i64,
    /// "#12 ashes, Maeoni v Coal, ended: Maeoni wins" (the board's player
    /// names, else the seats' user ids).
    pub label: String,
}

/// How many of a channel's matches a refused `match:N` names.
const LISTED_IN_REFUSAL: i64 = 10;

/// The match service. Cheap to clone; share one per process (or one per
/// replica: replicas coordinate through the database only).
#[derive(Clone)]
pub struct Matches {
    store: Store,
    games: Arc<Vec<GameName>>,
    lookup: EngineLookup,
    decision_timeout: Duration,
    /// The shipped card lists, for stats a setup board leaves out.
    cards: Arc<crate::cards::Cards>,
    /// Notes of one channel are written one at a time in this process.
    note_turns: Arc<queue::ChannelQueue>,
}

impl std::fmt::Debug for Matches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matches")
            .field("store", &self.store)
            .finish_non_exhaustive()
    }
}

impl Matches {
    /// Games are the registered engines, by id.
    pub fn new(store: Store) -> Matches {
        Matches::with_engines(store, engine::engines().to_vec())
    }

    /// Games are named as the rule corpus names them (id, name, aliases).
    pub fn for_app(store: Store, app: &App) -> Matches {
        let games = app
            .corpus
            .games
            .iter()
            .map(|g| GameName {
                id: g.id.clone(),
                names: [g.id.clone(), g.name.clone()]
                    .into_iter()
                    .chain(g.aliases.iter().cloned())
                    .collect(),
            })
            .collect();
        Matches {
            store,
            games: Arc::new(games),
            lookup: Arc::new(engine::engine),
            decision_timeout: DEFAULT_DECISION_TIMEOUT,
            cards: app.cards.clone(),
            note_turns: Arc::default(),
        }
    }

    /// Only these engines (tests, embedders).
    pub fn with_engines(store: Store, engines: Vec<&'static dyn GameEngine>) -> Matches {
        let games = engines
            .iter()
            .map(|e| GameName {
                id: e.game().to_string(),
                names: vec![e.game().to_string()],
            })
            .collect();
        Matches {
            store,
            games: Arc::new(games),
            lookup: Arc::new(move |id| engines.iter().copied().find(|e| e.game() == id)),
            decision_timeout: DEFAULT_DECISION_TIMEOUT,
            cards: Arc::default(),
            note_turns: Arc::default(),
        }
    }

    /// How long a decision with a default waits before the default applies.
    pub fn with_decision_timeout(mut self, timeout: Duration) -> Matches {
        self.decision_timeout = timeout;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Runs engine work off the async workers, on the CPU pool
    /// (`app::cpu`): a big board cannot hold up other requests.
    async fn cpu<T, F>(&self, job: F) -> Result<T, MatchError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.cpu_within(super::cpu::limits().budget, job).await
    }

    /// [`Matches::cpu`] for a whole log's work (export, verify, an
    /// export's import), within [`WHOLE_LOG_BUDGET`].
    pub(super) async fn cpu_whole_log<T, F>(&self, job: F) -> Result<T, MatchError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.cpu_within(WHOLE_LOG_BUDGET, job).await
    }

    async fn cpu_within<T, F>(&self, budget: Duration, job: F) -> Result<T, MatchError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        super::cpu::run_within(budget, job)
            .await
            .map_err(|e| match e {
                super::cpu::CpuError::Panicked(why) => MatchError::Storage {
                    message: format!("internal error while judging: {why}"),
                },
                busy => MatchError::Busy {
                    message: busy.to_string(),
                },
            })
    }

    fn resolve_game(&self, name: &str) -> Result<(String, &'static dyn GameEngine), MatchError> {
        let key = crate::text::fold(name);
        let found = self
            .games
            .iter()
            .find(|g| g.names.iter().any(|n| crate::text::fold(n) == key));
        let Some(g) = found else {
            // Past a typo's budget, the list of games.
            let max = crate::text::typo_budget(name);
            let mut close: Vec<(usize, &str)> = self
                .games
                .iter()
                .filter_map(|g| {
                    let d = g
                        .names
                        .iter()
                        .filter_map(|n| {
                            crate::text::edit_distance(&key, &crate::text::fold(n), max)
                        })
                        .min()?;
                    Some((d, g.id.as_str()))
                })
                .collect();
            close.sort();
            let suggestions = match close.first() {
                Some((_, id)) => vec![id.to_string()],
                None => self.games.iter().map(|g| g.id.clone()).collect(),
            };
            return Err(MatchError::UnknownGame {
                name: name.to_string(),
                suggestions,
            });
        };
        let engine = (self.lookup)(&g.id).ok_or_else(|| MatchError::NoEngine {
            game: g.names.get(1).cloned().unwrap_or_else(|| g.id.clone()),
        })?;
        Ok((g.id.clone(), engine))
    }

    fn engine_of(&self, m: &MatchRecord) -> Result<&'static dyn GameEngine, MatchError> {
        (self.lookup)(&m.game).ok_or_else(|| MatchError::NoEngine {
            game: m.game.clone(),
        })
    }

    /// [`MatchError::Ended`] for the ended match `m`, naming who may
    /// reopen it.
    fn ended(&self, m: &MatchRecord) -> MatchError {
        let result: Option<GameResult> = m
            .result
            .clone()
            .and_then(|r| serde_json::from_value(r).ok());
        let who = match (result, self.engine_of(m)) {
            (Some(r), Ok(engine)) => {
                let winner = self.winner_seat(m, engine, &r);
                turns::result_undoers(&m.players, &r, winner)
            }
            _ => turns::MODERATOR.to_string(),
        };
        MatchError::Ended { who }
    }

    async fn active(&self, channel: &str) -> Result<MatchRecord, MatchError> {
        check_id("channel", channel)?;
        match self.store.active_match(channel).await? {
            Some(m) => Ok(m),
            None => match self.store.latest_match(channel).await? {
                Some(m) => Err(self.ended(&m)),
                None => Err(MatchError::NoMatch),
            },
        }
    }

    async fn latest(&self, channel: &str) -> Result<MatchRecord, MatchError> {
        check_id("channel", channel)?;
        self.store
            .latest_match(channel)
            .await?
            .ok_or(MatchError::NoMatch)
    }

    /// The match a read (`board`, `log`, `export`, `verify`) names: match
    /// `number` of this channel, ended or not, or without one the
    /// channel's current match ([`Matches::latest`]). A number of another
    /// channel's match is refused as none of this one's: a new match must
    /// not bury the record of the one before (an outside tester's loser
    /// started one at once), and no channel reads another's.
    pub(super) async fn read_match(
        &self,
        channel: &str,
        number: Option<i64>,
    ) -> Result<MatchRecord, MatchError> {
        let Some(id) = number else {
            return self.latest(channel).await;
        };
        check_id("channel", channel)?;
        if let Some(m) = self.store.match_in_channel(channel, id).await? {
            return Ok(m);
        }
        // Numbers and standing only: a label holds the boards' player
        // names, words a player typed.
        let its = match &self
            .store
            .channel_matches(channel, LISTED_IN_REFUSAL)
            .await?[..]
        {
            [] => "; this channel has had no match".into(),
            some => format!(
                "; this channel's matches: {}",
                some.iter()
                    .map(|m| format!(
                        "#{} ({})",
                        m.id,
                        if m.status == MatchStatus::Active {
                            "in play"
                        } else {
                            "ended"
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        Err(MatchError::usage(format!(
            "no match #{id} in this channel{its}"
        )))
    }

    /// This channel's matches, newest first, at most `limit`: a number and
    /// a label for `match:` (autocomplete, and the refusal of a number the
    /// channel has not had). Withdrawn matches are left out.
    pub async fn listed(&self, channel: &str, limit: usize) -> Result<Vec<Listed>, MatchError> {
        check_id("channel", channel)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let matches = self.store.channel_matches(channel, limit).await?;
        Ok(matches.iter().map(|m| self.listing(m)).collect())
    }

    /// "#12 ashes, Maeoni v Coal, ended: Maeoni wins".
    fn listing(&self, m: &MatchRecord) -> Listed {
        let engine = self.engine_of(m).ok();
        let seats: Vec<String> = self
            .seats(m, engine)
            .into_iter()
            .map(|s| s.name.unwrap_or(s.user))
            .collect();
        let result: Option<GameResult> = m
            .result
            .clone()
            .and_then(|r| serde_json::from_value(r).ok());
        let standing = match (m.status, result) {
            (MatchStatus::Active, _) => "in play".to_string(),
            (
                _,
                Some(GameResult {
                    winner: Some(w), ..
                }),
            ) => format!("ended: {w} wins"),
            (_, Some(_)) => "ended: no winner".to_string(),
            (_, None) => "ended".to_string(),
        };
        Listed {
            number: m.id,
            label: format!("#{} {}, {}, {standing}", m.id, m.game, seats.join(" v ")),
        }
    }

    /// The last event (the one in effect at the match's version).
    async fn top(&self, m: &MatchRecord) -> Result<Option<EventRecord>, MatchError> {
        if m.version == 0 {
            return Ok(None);
        }
        Ok(self.store.event(m.id, m.version).await?)
    }

    /// The game of the channel's match in progress, if there is one.
    pub async fn active_game(&self, channel: &str) -> Result<Option<String>, MatchError> {
        check_id("channel", channel)?;
        Ok(self.store.active_match(channel).await?.map(|m| m.game))
    }

    /// The rule-set version the channel's active match pinned, if any.
    pub async fn active_rule_set(&self, channel: &str) -> Result<Option<RuleSetPin>, MatchError> {
        check_id("channel", channel)?;
        Ok(self
            .store
            .active_match(channel)
            .await?
            .and_then(|m| m.rule_set))
    }

    /// `start`: a new match with players bound to seats in order.
    pub async fn start(
        &self,
        caller: &Caller,
        game: &str,
        players: &[String],
    ) -> Result<MatchView, MatchError> {
        check_id("channel", &caller.channel)?;
        check_id("user", &caller.user)?;
        let (game_id, engine) = self.resolve_game(game)?;
        if players.is_empty() {
            return Err(MatchError::usage(
                "name the players, in seat order (for example `--player @alice --player @bob`)",
            ));
        }
        if players.len() > MAX_PLAYERS {
            return Err(MatchError::usage(format!(
                "{} players; a match seats at most {MAX_PLAYERS}",
                players.len()
            )));
        }
        for (i, p) in players.iter().enumerate() {
            check_id("player", p)?;
            // A role, a channel or everyone seats nobody who could act, and
            // reads as a mention in every prompt (`end --winner` refused a
            // role; `start` took one).
            if is_mention(p) && !is_user_mention(p) {
                return Err(MatchError::usage(format!(
                    "`{}` mentions a role, a channel or everyone, not a user: name each player by a user mention or id",
                    p.trim()
                )));
            }
            // "coal" and "Coal " would be two seats that look alike.
            if players[..i].iter().any(|q| crate::text::fold_eq(q, p)) {
                return Err(MatchError::usage(format!(
                    "{} is named twice; each player takes one seat",
                    mention(p.trim())
                )));
            }
            // So would "coal" and "сoal" (a Cyrillic с), or a zero-width
            // character in one: the log writes each seat's user.
            if let Some(q) = players[..i].iter().find(|q| crate::text::confusable(q, p)) {
                return Err(MatchError::usage(format!(
                    "{} reads as {}, another player of the match: the log and the prompts would show them alike; name each player so they read apart",
                    mention(p.trim()),
                    mention(q.trim())
                )));
            }
        }
        if let Some(few) = too_few(engine, players.len()) {
            return Err(MatchError::usage(format!("the match names {few}")));
        }
        if !caller.moderator && !players.contains(&caller.user) {
            return Err(MatchError::forbidden(
                "only a player of the match or a moderator may start it",
            ));
        }
        let pin = match &caller.guild {
            Some(guild) => Some(RuleSetPin {
                guild: guild.clone(),
                version: self.store.rule_set_version(guild).await?,
            }),
            None => None,
        };
        match self
            .store
            .create_pinned_match(&caller.channel, &game_id, players, &caller.user, pin)
            .await
        {
            Ok(m) => self.view(&m).await,
            Err(StoreError::AlreadyActive) => {
                let game = self
                    .store
                    .active_match(&caller.channel)
                    .await?
                    .map(|m| m.game)
                    .unwrap_or_default();
                Err(MatchError::AlreadyActive { game })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// `setup`: the starting board (a board document), or an `export` of a
    /// match, whose log is replayed and imported. Validated by the game's
    /// engine like `judge`. After other events only a moderator may set up
    /// again (the log keeps everything).
    pub async fn setup(&self, caller: &Caller, text: &str) -> Result<MatchView, MatchError> {
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        if seat_of(&m, &caller.user).is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may set up its board",
            ));
        }
        if m.version > 0 && !caller.moderator {
            // A setup waiting on the other players is its author's to
            // replace; any other question is answered first.
            if let Some(top) = self.top(&m).await?
                && let Some(p) = pending_of(&m, &top)
                && !own_setup_waiting(&m, &top, &caller.user)
            {
                return Err(self.waiting(&m, &top, p).await);
            }
            let heads = self.store.event_heads(m.id).await?;
            // Notes, ends before any board, answers to a board proposed
            // and undos are not plays.
            let played = |k| matches!(k, EventKind::Play | EventKind::Advance | EventKind::Adjust);
            if heads.iter().any(|h| played(h.kind)) {
                return Err(MatchError::forbidden(
                    "the match already has plays; only a moderator who holds no seat in it may replace its board",
                ));
            }
            // A board another player set up is theirs to replace (or undo):
            // a new one could change every seat's standing unasked. The
            // setup in effect, under any notes made since.
            // A board only proposed (rejected since) is nobody's.
            let stack = turns::effective_stack(&heads);
            let mut setup = None;
            for &seq in stack.iter().rev() {
                if !heads
                    .iter()
                    .any(|h| h.seq == seq && h.kind == EventKind::Setup)
                {
                    continue;
                }
                let e = self.store.event(m.id, seq).await?;
                let proposed = e.as_ref().and_then(consent::Proposal::of);
                if proposed.is_none_or(|p| p.stage == consent::Stage::Confirmed) {
                    setup = e;
                    break;
                }
            }
            if let Some(top) = setup
                && top.actor != caller.user
            {
                return Err(MatchError::forbidden(format!(
                    "{} set up this board; only they or a moderator may replace it (or ask them to `undo` it)",
                    mention(&top.actor)
                )));
            }
        }
        let engine = self.engine_of(&m)?;
        // An export file is taken whole: its rulings and notes may hold
        // fences of their own; a message may fence a board or an export.
        let raw = text.trim();
        let text = if document::is_export(raw) && !raw.starts_with("```") {
            raw
        } else {
            document::extract_code_block(text)
        };
        if document::is_export(text) {
            // An export has its own limit: it holds every event's board,
            // read on the pool.
            let owned = text.to_string();
            let doc = self
                .cpu_whole_log(move || document::parse_export(&owned))
                .await??;
            return self.import(caller, &m, engine, doc, text).await;
        }
        // Parsed, filled and validated on the pool, as `judge`'s boards
        // are: a large or hostile board (deep, many aliases) held an
        // async worker for as long as it took.
        let (service, record, owned) = (self.clone(), m.clone(), text.to_string());
        let (board, filled) = match self
            .cpu(move || service.read_setup(&record, engine, &owned))
            .await??
        {
            SetupRead::Board(board, filled) => (board, filled),
            SetupRead::Export(doc) => return self.import(caller, &m, engine, doc, text).await,
        };
        let mut view = self.setup_board(caller, &m, board).await?;
        view.notes.extend(
            filled
                .iter()
                .flat_map(|f| std::iter::once(f.note()).chain(f.text_note())),
        );
        Ok(view)
    }

    /// A setup's board document read (on the pool): parsed, its game
    /// named by id, cards named without stats filled from the card list
    /// (as in `judge`; the recorded board states them, so a replay needs
    /// no list) and validated, errors saying where, as `judge`'s do; or
    /// an export written as JSON inside a fence, to import.
    fn read_setup(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        text: &str,
    ) -> Result<SetupRead, MatchError> {
        let mut doc = document::parse_value(text)?;
        if doc.get("arbiter_export").is_some() {
            return Ok(SetupRead::Export(doc));
        }
        // `game: Ashes Reborn` or an alias names the match's game, as in `judge`.
        document::name_game_by_id(&mut doc, &m.game, |g| {
            self.resolve_game(g).is_ok_and(|(id, _)| id == m.game)
        });
        let filled = crate::cards::fill_stats(&mut doc, &self.cards, &m.game);
        let board = self.read_board(m, engine, doc).map_err(|e| match e {
            MatchError::Board { error } => MatchError::Board {
                error: error.located(Some(text)),
            },
            other => other,
        })?;
        Ok(SetupRead::Board(board, filled))
    }

    /// Records a validated starting board: a moderator's at once; a
    /// player's as a proposal the other players confirm (it sets every
    /// seat's standing: a player alone set his opponent one hit from
    /// defeat, then attacked), the board shown meanwhile and no play made.
    async fn setup_board(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        board: Value,
    ) -> Result<MatchView, MatchError> {
        let engine = self.engine_of(m)?;
        let seat = seat_of(m, &caller.user).filter(|_| !caller.moderator);
        // Under a board still proposed (its author replacing it), the one
        // that proposal replaced; a rejection brings it back.
        let agreed = self.agreed_board(m).await?;
        // Who is out is read on that board, not the proposed one (a board
        // putting a player out asks them too).
        let asks = seat.map_or_else(Vec::new, |seat| {
            let others = (0..m.players.len()).filter(|s| *s != seat).collect();
            consent::waited_on(engine, Some(&agreed).filter(|b| !b.is_null()), others)
        });
        let mut event = NewEvent::new(EventKind::Setup, &caller.user, board.clone());
        event.interaction = caller.interaction.clone();
        let replaced = self.replaced_decision(m).await?;
        event.context = replaced
            .as_ref()
            .map(|r| serde_json::json!({ "replaced": r }));
        if let (Some(seat), false) = (seat, asks.is_empty()) {
            let proposal = consent::Proposal {
                by: seat,
                what: consent::Proposed::Setup,
                text: "the starting board shown (it sets every seat's standing)".into(),
                asks,
                confirmed: Vec::new(),
                moderated: Vec::new(),
                stage: consent::Stage::Asked,
            };
            let mut context = serde_json::json!({ "before": agreed });
            if let Some(r) = &replaced {
                context["replaced"] = serde_json::json!(r);
            }
            event.context = Some(context);
            // The question names the seats as the proposed board does.
            let mut named = m.clone();
            named.state = Some(board);
            self.propose(caller, &named, event, proposal).await?;
        } else {
            self.append(caller, m, &event).await?;
        }
        let mut view = self
            .view(
                &self
                    .store
                    .match_by_id(m.id)
                    .await?
                    .ok_or(MatchError::NoMatch)?,
            )
            .await?;
        if let Some(r) = replaced {
            view.notes.push(format!(
                "this board replaces #{}, which waited on {}'s decision: {}; `undo` of this setup brings it back",
                r.seq, r.player, r.question
            ));
        }
        Ok(view)
    }

    /// The decision a new board replaces: the one waiting on the last
    /// event. A moderator's setup over it dropped it without a word, and
    /// its answer then found "no decision waiting" (found by an outside
    /// tester); the setup's reply and log line say which it was.
    async fn replaced_decision(&self, m: &MatchRecord) -> Result<Option<Replaced>, MatchError> {
        let Some(top) = self.top(m).await? else {
            return Ok(None);
        };
        Ok(Replaced::after(top.seq, top.ruling.as_ref()))
    }

    /// Validates a starting board for match `m` (as the engine writes it).
    pub(super) fn read_board(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        doc: Value,
    ) -> Result<Value, MatchError> {
        let Value::Object(mut doc) = doc else {
            return Err(BoardError::semantic(
                "",
                "the board must be a YAML mapping (`game: …`, `players: …`)",
            )
            .into());
        };
        if let Some(key) = ["play", "plays"].into_iter().find(|k| doc.contains_key(*k)) {
            return Err(BoardError::semantic(
                key,
                "a starting board has no `play`; set it up, then give each play with `match play`",
            )
            .into());
        }
        match doc.get("game") {
            Some(Value::String(g)) => {
                let (id, _) = self
                    .resolve_game(g)
                    .map_err(|e| MatchError::from(BoardError::semantic("game", e.to_string())))?;
                if id != m.game {
                    return Err(BoardError::semantic(
                        "game",
                        format!("this board is for {id}, but the match is {}", m.game),
                    )
                    .into());
                }
                doc.insert("game".into(), Value::String(id));
            }
            Some(_) => {
                return Err(BoardError::semantic("game", "`game` must be a game's name").into());
            }
            None => {
                doc.insert("game".into(), Value::String(m.game.clone()));
            }
        }
        let board = engine.check_board(&Value::Object(doc))?;
        no_mentions(&board, "")?;
        plain_seat_names(engine, &board, "", None)?;
        // A board already decided would credit the next play with its
        // result (a player could set up a won position, then pass).
        if let Some(r) = engine.status(&board)?.result {
            return Err(BoardError::semantic(
                "",
                format!(
                    "this board is already decided ({}); set up a board still in play",
                    r.reason
                ),
            )
            .into());
        }
        let players = engine.players(&board)?;
        if let Some(few) = too_few(engine, players.len()) {
            return Err(BoardError::semantic("players", format!("the board has {few}")).into());
        }
        if !players.is_empty() && players.len() != m.players.len() {
            return Err(BoardError::semantic(
                "players",
                format!(
                    "the board has {} but the match seats {}; seat i of the match plays the board's players[i]",
                    crate::text::count(players.len(), "player"),
                    crate::text::count(m.players.len(), "player")
                ),
            )
            .into());
        }
        Ok(board)
    }

    /// Appends, turning a lost race into `BoardChanged` with the new board.
    /// An event a moderator who holds no seat makes says so in its context
    /// ([`integrity::BY_MODERATOR`]): an import checks that whoever made an
    /// event held its seat or was marked so then (an export's `actor` or
    /// `players` edited credited a player's answer to someone else).
    async fn append(
        &self,
        caller: &Caller,
        m: &MatchRecord,
        event: &NewEvent,
    ) -> Result<i64, MatchError> {
        let moderator = caller.moderator
            && caller.user == event.actor
            && event.actor != TIMEOUT_ACTOR
            && seat_of(m, &caller.user).is_none();
        let marked;
        let event = match moderator {
            true => {
                let mut e = event.clone();
                // Every event's context is an object or none.
                if let Value::Object(o) = e.context.get_or_insert_with(json_object) {
                    o.insert(integrity::BY_MODERATOR.into(), Value::Bool(true));
                }
                marked = e;
                &marked
            }
            false => event,
        };
        match self.store.append(m.id, m.version, event).await {
            Ok(seq) => Ok(seq),
            Err(StoreError::Conflict { .. }) => {
                let now = self.store.match_by_id(m.id).await?;
                Err(match now {
                    Some(n) if n.status == MatchStatus::Ended => self.ended(&n),
                    Some(n) if n.status == MatchStatus::Withdrawn => MatchError::NoMatch,
                    Some(n) => MatchError::BoardChanged {
                        version: n.version,
                        board: n.state,
                    },
                    None => MatchError::NoMatch,
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// `board`: the match and its current board (anyone may look). Shows
    /// the channel's last match when none is active.
    pub async fn board(&self, channel: &str) -> Result<MatchView, MatchError> {
        self.board_of(channel, None).await
    }

    /// `board match:N`: match `number` of this channel (`Matches::read_match`).
    pub async fn board_of(
        &self,
        channel: &str,
        number: Option<i64>,
    ) -> Result<MatchView, MatchError> {
        self.settle(channel).await?;
        let m = self.read_match(channel, number).await?;
        self.view(&m).await
    }

    /// The seats, with the board's names.
    fn seats(&self, m: &MatchRecord, engine: Option<&dyn GameEngine>) -> Vec<Seat> {
        let names = match (engine, &m.state) {
            (Some(e), Some(s)) => e.players(s).unwrap_or_default(),
            _ => Vec::new(),
        };
        m.players
            .iter()
            .enumerate()
            .map(|(i, u)| Seat {
                seat: i,
                user: u.clone(),
                name: names.get(i).cloned(),
            })
            .collect()
    }

    /// A match as the replies show it: seats, status, pending decision, next.
    /// `undo`: the last event in effect, or, in a match nothing was
    /// recorded in yet, the match itself (its players or a moderator): the
    /// channel's match before it is the channel's again, so a new match
    /// cannot bury an ended one out of a moderator's reach (found by an
    /// outside tester: a start right after a moderator's result left
    /// "nothing to undo").
    async fn undo_or_withdraw(&self, caller: &Caller) -> Result<MatchReply, MatchError> {
        // The same interaction again: the withdrawal it made, not an undo
        // of the match before.
        if let Some(i) = &caller.interaction
            && let Some(id) = self.store.withdrawn_by(i).await?
        {
            let m = self.latest(&caller.channel).await?;
            return self.withdrawn(&m, id).await;
        }
        let m = self.latest(&caller.channel).await?;
        let before = match self.nothing_in_effect(&m).await? {
            true => self.store.match_before(&caller.channel, m.id).await?,
            false => None,
        };
        let Some(before) = before else {
            return Ok(MatchReply::Event(Box::new(self.undo(caller).await?)));
        };
        let c = caller.in_match(&m);
        if !c.moderator && seat_of(&m, &c.user).is_none() {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may withdraw it",
            ));
        }
        let interaction = caller.interaction.as_deref();
        if !self.store.withdraw_match(&m, interaction).await? {
            // Something was recorded meanwhile: that is what undo takes.
            return Err(MatchError::BoardChanged {
                version: m.version + 1,
                board: None,
            });
        }
        tracing::debug!(match_id = m.id, by = %c.user, "match withdrawn before anything was recorded");
        self.withdrawn(&before, m.id).await
    }

    /// Whether an active match holds nothing in effect: nothing recorded,
    /// or every event taken back before any board (a note undone, a first
    /// board proposed and withdrawn). Such a match may be withdrawn: a
    /// stranger's note in a new match must not bury the ended one before
    /// it (found by an outside tester).
    async fn nothing_in_effect(&self, m: &MatchRecord) -> Result<bool, MatchError> {
        if m.status != MatchStatus::Active || m.state.as_ref().is_some_and(|s| !s.is_null()) {
            return Ok(false);
        }
        if m.version == 0 {
            return Ok(true);
        }
        let heads = self.store.event_heads(m.id).await?;
        Ok(turns::effective_stack(&heads).is_empty())
    }

    /// The reply to a withdrawal: the channel's match now, saying so.
    async fn withdrawn(&self, now: &MatchRecord, id: i64) -> Result<MatchReply, MatchError> {
        let mut v = self.view(now).await?;
        v.notes.push(format!(
            "match #{id} withdrawn: nothing in it was in effect; match #{} is this channel's again (`undo` takes back its last event, an end included)",
            now.id
        ));
        Ok(MatchReply::Match(Box::new(v)))
    }

    async fn view(&self, m: &MatchRecord) -> Result<MatchView, MatchError> {
        let engine = self.engine_of(m).ok();
        let top = self.top(m).await?;
        let status = match (engine, &m.state) {
            (Some(e), Some(s)) if !s.is_null() => e.status(s).ok(),
            _ => None,
        };
        let pending = top.as_ref().and_then(|t| pending_of(m, t));
        let (pending, waits) = match pending {
            Some(p) => {
                let (p, note) = without_unapplied_default(p);
                (Some(p), note)
            }
            None => (None, None),
        };
        let result = m
            .result
            .clone()
            .and_then(|r| serde_json::from_value(r).ok());
        let next = if m.status == MatchStatus::Active {
            next_of(m, status.as_ref(), pending.as_ref(), &self.seats(m, engine))
        } else {
            None
        };
        Ok(MatchView {
            match_id: m.id,
            channel: m.channel.clone(),
            game: m.game.clone(),
            status: m.status,
            seats: self.seats(m, engine),
            version: m.version,
            started_by: m.started_by.clone(),
            started_at: m.started_at,
            ended_at: m.ended_at,
            turn: status
                .as_ref()
                .and_then(|s| s.turn_seat)
                .and_then(|i| m.players.get(i).cloned()),
            game_status: status,
            pending,
            next,
            result,
            notify: m.notify,
            quiet: (0..m.players.len()).filter(|s| quiet(m, *s)).collect(),
            pictures: m.pictures,
            notes: waits.into_iter().collect(),
            rule_set: self.rule_set_state(m).await?,
            board: m.state.clone(),
        })
    }

    /// The rule set match `m` pinned, with the server's newest version.
    async fn rule_set_state(&self, m: &MatchRecord) -> Result<Option<RuleSetState>, MatchError> {
        let Some(pin) = &m.rule_set else {
            return Ok(None);
        };
        Ok(Some(RuleSetState {
            guild: pin.guild.clone(),
            pinned: pin.version,
            latest: self.store.rule_set_version(&pin.guild).await?,
        }))
    }

    /// The rule set the match `match_id` pinned (citations in its replies
    /// resolve against it); `None` for a match that pinned none.
    pub async fn pinned_rule_set(&self, match_id: i64) -> Result<Option<RuleSetPin>, MatchError> {
        Ok(self
            .store
            .match_by_id(match_id)
            .await?
            .and_then(|m| m.rule_set))
    }

    /// `log`: one page of events, oldest first; the last page by default.
    pub async fn log(&self, channel: &str, page: Option<i64>) -> Result<LogReply, MatchError> {
        self.log_of(channel, None, page).await
    }

    /// `log match:N`: match `number` of this channel (`Matches::read_match`).
    pub async fn log_of(
        &self,
        channel: &str,
        number: Option<i64>,
        page: Option<i64>,
    ) -> Result<LogReply, MatchError> {
        let m = self.read_match(channel, number).await?;
        let pages = ((m.version + LOG_PAGE_SIZE - 1) / LOG_PAGE_SIZE).max(1);
        let page = page.unwrap_or(pages);
        if page < 1 || page > pages {
            return Err(MatchError::usage(format!(
                "page {page} does not exist; the log has {}",
                crate::text::count(pages as usize, "page")
            )));
        }
        let from = (page - 1) * LOG_PAGE_SIZE + 1;
        let records = self
            .store
            .events(m.id, (from - 1).max(1), page * LOG_PAGE_SIZE)
            .await?;
        let engine = self.engine_of(&m).ok();
        let entries = self
            .cpu(move || entries_as_recorded(engine, records, from, false))
            .await?;
        Ok(LogReply {
            match_id: m.id,
            game: m.game.clone(),
            page,
            pages,
            total: m.version,
            entries,
            seats: self.seats(&m, self.engine_of(&m).ok()),
        })
    }

    /// `export`: the board and the whole log (with every event's board) as
    /// YAML; `setup` re-imports it, replaying the log. The channel's last
    /// match when none is active.
    pub async fn export(&self, channel: &str) -> Result<ExportReply, MatchError> {
        self.export_of(channel, None).await
    }

    /// `export match:N`: match `number` of this channel (`Matches::read_match`).
    pub async fn export_of(
        &self,
        channel: &str,
        number: Option<i64>,
    ) -> Result<ExportReply, MatchError> {
        let m = self.read_match(channel, number).await?;
        let records = self.store.events(m.id, 1, m.version).await?;
        let engine = self.engine_of(&m).ok();
        let file_name = format!("{}-match-{}.yaml", m.game, m.id);
        // Every event's board read and the whole file written: a long
        // match's export is work for the pool, not for this worker.
        let yaml = self
            .cpu_whole_log(move || {
                let log = entries_as_recorded(engine, records, 1, true);
                let doc = serde_json::json!({
                    "arbiter_export": replay::EXPORT_FORMAT,
                    "game": m.game,
                    "channel": m.channel,
                    "match_id": m.id,
                    "status": m.status,
                    "players": m.players,
                    "version": m.version,
                    "result": m.result,
                    "board": m.state,
                    "log": log,
                });
                serde_saphyr::to_string(&doc)
            })
            .await?
            .map_err(|e| MatchError::Storage {
                message: format!("cannot write the export: {e}"),
            })?;
        Ok(ExportReply {
            file_name,
            warning: export_warning(yaml.len()),
            yaml,
        })
    }

    /// Next-word candidates for a partly typed play (autocomplete).
    pub async fn complete(&self, channel: &str, partial: &str) -> Result<Vec<String>, MatchError> {
        let m = self.active(channel).await?;
        let Some(state) = &m.state else {
            return Ok(Vec::new());
        };
        Ok(self.engine_of(&m)?.notation_completions(partial, state))
    }

    /// Candidates for `adjust field:` (the board's fields as typed).
    pub async fn fields(&self, channel: &str, partial: &str) -> Result<Vec<String>, MatchError> {
        let m = self.active(channel).await?;
        let Some(state) = &m.state else {
            return Ok(Vec::new());
        };
        let key = crate::text::fold(partial);
        Ok(self
            .engine_of(&m)?
            .fields(state)
            .into_iter()
            .filter(|f| crate::text::fold(f).contains(&key))
            .take(25)
            .collect())
    }

    /// The board's field whose short reference (`text::short_ref`) was
    /// given: a field too long for an autocomplete value travels as one.
    pub async fn field_of_ref(
        &self,
        channel: &str,
        typed: &str,
    ) -> Result<Option<String>, MatchError> {
        if !crate::text::looks_like_short_ref(typed) {
            return Ok(None);
        }
        let m = self.active(channel).await?;
        let Some(state) = &m.state else {
            return Ok(None);
        };
        Ok(self
            .engine_of(&m)?
            .fields(state)
            .into_iter()
            .find(|f| crate::text::is_short_ref_of(typed, f)))
    }

    /// The phases `advance to:` accepts.
    pub async fn phases(&self, channel: &str) -> Result<Vec<String>, MatchError> {
        let m = self.active(channel).await?;
        Ok(self
            .engine_of(&m)?
            .phases()
            .iter()
            .map(|p| p.id.to_string())
            .collect())
    }

    /// `pictures on|off`: whether this match's replies carry a picture of
    /// the board (off: a "Picture" button draws it on demand). The match's
    /// players or a moderator.
    pub async fn pictures(&self, caller: &Caller, on: bool) -> Result<MatchView, MatchError> {
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        if seat_of(&m, &caller.user).is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may change its pictures",
            ));
        }
        self.store.set_pictures(m.id, on).await?;
        let m = self
            .store
            .match_by_id(m.id)
            .await?
            .ok_or(MatchError::NoMatch)?;
        self.view(&m).await
    }

    /// The refusal of an answer to an earlier question: the one waiting
    /// now, if any (a replaced decision's button said "no decision
    /// waiting" while one was).
    pub async fn stale(&self, channel: &str) -> MatchError {
        match self.board(channel).await {
            Ok(MatchView {
                pending: Some(p), ..
            }) => p.stale(),
            _ => MatchError::NoDecision,
        }
    }

    /// `notify on|off`: a player's own turn notices (the pings that say
    /// it is their turn), or from a moderator without a seat the whole
    /// match's. A new decision or proposal pings its player whatever these say.
    pub async fn notify(&self, caller: &Caller, on: bool) -> Result<MatchView, MatchError> {
        let m = self.active(&caller.channel).await?;
        let caller = &caller.in_match(&m);
        match seat_of(&m, &caller.user) {
            Some(seat) => self.store.set_seat_notify(m.id, seat, on).await?,
            None if caller.moderator => self.store.set_notify(m.id, on).await?,
            None => {
                return Err(MatchError::forbidden(
                    "only the match's players (each for their own turn notices) or a moderator may change its notices",
                ));
            }
        }
        self.view(
            &self
                .store
                .match_by_id(m.id)
                .await?
                .ok_or(MatchError::NoMatch)?,
        )
        .await
    }
}

/// Every match command as one request: the one enum of the `/match`
/// family, for every transport (`/match <sub>` on Discord, the console,
/// the CLI). `Board` is what a setup's board is until it is read: the
/// service takes its text (`String`); a transport may hold where it comes
/// from (an attachment to download, or none: a form) and read it with
/// [`MatchRequest::with_board`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum MatchRequest<Board = String> {
    Start {
        game: String,
        players: Vec<String>,
    },
    Setup {
        text: Board,
    },
    Play {
        text: String,
        expected_version: Option<i64>,
    },
    /// An answer to the decision waiting: an option's number (1-based) or
    /// label; `version` (and `match_id`) from the question, to refuse a
    /// stale answer.
    Answer {
        choice: String,
        version: Option<i64>,
        match_id: Option<i64>,
    },
    Advance {
        to: Option<String>,
    },
    Adjust {
        field: String,
        value: String,
        reason: String,
    },
    Note {
        text: String,
    },
    Board,
    Log {
        page: Option<i64>,
    },
    Undo,
    End {
        winner: Option<String>,
        reason: Option<String>,
    },
    Notify {
        on: bool,
    },
    /// `pictures on|off`: replies carry the board's picture, or a button.
    Pictures {
        on: bool,
    },
    Export,
    Complete {
        partial: String,
    },
    Verify,
    /// `board`, `log`, `export` or `verify` of match `match_id` of this
    /// channel (`match:N`), ended or not, rather than its current one.
    Numbered {
        match_id: i64,
        read: Reading,
    },
}

/// What a [`MatchRequest::Numbered`] reads of the match it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "read", rename_all = "snake_case")]
pub enum Reading {
    Board,
    Log { page: Option<i64> },
    Export,
    Verify,
}

impl Reading {
    /// The request reading the channel's current match, or match `number`.
    pub fn request<B>(self, number: Option<i64>) -> MatchRequest<B> {
        match (number, self) {
            (Some(match_id), read) => MatchRequest::Numbered { match_id, read },
            (None, Reading::Board) => MatchRequest::Board,
            (None, Reading::Log { page }) => MatchRequest::Log { page },
            (None, Reading::Export) => MatchRequest::Export,
            (None, Reading::Verify) => MatchRequest::Verify,
        }
    }
}

impl<B> MatchRequest<B> {
    /// The name as logged and as typed (`match play`).
    pub fn name(&self) -> &'static str {
        match self {
            MatchRequest::Start { .. } => "match start",
            MatchRequest::Setup { .. } => "match setup",
            MatchRequest::Play { .. } => "match play",
            MatchRequest::Answer { .. } => "match answer",
            MatchRequest::Advance { .. } => "match advance",
            MatchRequest::Adjust { .. } => "match adjust",
            MatchRequest::Note { .. } => "match note",
            MatchRequest::Notify { .. } => "match notify",
            MatchRequest::Pictures { .. } => "match pictures",
            MatchRequest::Board => "match board",
            MatchRequest::Log { .. } => "match log",
            MatchRequest::Undo => "match undo",
            MatchRequest::End { .. } => "match end",
            MatchRequest::Export => "match export",
            MatchRequest::Complete { .. } => "match complete",
            MatchRequest::Verify => "match verify",
            MatchRequest::Numbered { read, .. } => match read {
                Reading::Board => "match board",
                Reading::Log { .. } => "match log",
                Reading::Export => "match export",
                Reading::Verify => "match verify",
            },
        }
    }

    /// The same request with a setup's board read by `read`.
    pub fn with_board<T>(self, read: impl FnOnce(B) -> T) -> MatchRequest<T> {
        use MatchRequest as R;
        match self {
            R::Start { game, players } => R::Start { game, players },
            R::Setup { text } => R::Setup { text: read(text) },
            R::Play {
                text,
                expected_version,
            } => R::Play {
                text,
                expected_version,
            },
            R::Answer {
                choice,
                version,
                match_id,
            } => R::Answer {
                choice,
                version,
                match_id,
            },
            R::Advance { to } => R::Advance { to },
            R::Adjust {
                field,
                value,
                reason,
            } => R::Adjust {
                field,
                value,
                reason,
            },
            R::Note { text } => R::Note { text },
            R::Board => R::Board,
            R::Log { page } => R::Log { page },
            R::Undo => R::Undo,
            R::End { winner, reason } => R::End { winner, reason },
            R::Notify { on } => R::Notify { on },
            R::Pictures { on } => R::Pictures { on },
            R::Export => R::Export,
            R::Complete { partial } => R::Complete { partial },
            R::Verify => R::Verify,
            R::Numbered { match_id, read } => R::Numbered { match_id, read },
        }
    }

    /// Whether the request writes to the match (transports defer those).
    /// A switch of the match's replies (notices, pictures): recorded, but
    /// no play, no question, nobody's turn.
    pub fn is_setting(&self) -> bool {
        matches!(
            self,
            MatchRequest::Notify { .. } | MatchRequest::Pictures { .. }
        )
    }

    pub fn writes(&self) -> bool {
        !matches!(
            self,
            MatchRequest::Board
                | MatchRequest::Log { .. }
                | MatchRequest::Export
                | MatchRequest::Complete { .. }
                | MatchRequest::Verify
                | MatchRequest::Numbered { .. }
        )
    }
}

/// The reply to a [`MatchRequest`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum MatchReply {
    Match(Box<MatchView>),
    Event(Box<EventReply>),
    Log(LogReply),
    Export(ExportReply),
    Completions(Vec<String>),
    Replay(ReplayReport),
}

impl Matches {
    /// Runs one request for `caller` (its channel, user and moderator flag).
    pub async fn handle(
        &self,
        caller: &Caller,
        request: MatchRequest,
    ) -> Result<MatchReply, MatchError> {
        let channel = caller.channel.as_str();
        let view = |v: MatchView| MatchReply::Match(Box::new(v));
        let event = |e: EventReply| MatchReply::Event(Box::new(e));
        Ok(match request {
            MatchRequest::Start { game, players } => {
                view(self.start(caller, &game, &players).await?)
            }
            MatchRequest::Setup { text } => view(self.setup(caller, &text).await?),
            MatchRequest::Play {
                text,
                expected_version,
            } => event(self.play(caller, &text, expected_version).await?),
            MatchRequest::Answer {
                choice,
                version,
                match_id,
            } => event(self.answer_in(caller, &choice, version, match_id).await?),
            MatchRequest::Advance { to } => event(self.advance(caller, to.as_deref()).await?),
            MatchRequest::Adjust {
                field,
                value,
                reason,
            } => {
                let field = self.field_of_ref(channel, &field).await?.unwrap_or(field);
                event(self.adjust(caller, &field, &value, &reason).await?)
            }
            MatchRequest::Note { text } => event(self.note(caller, &text).await?),
            MatchRequest::Board => view(self.board(channel).await?),
            MatchRequest::Log { page } => MatchReply::Log(self.log(channel, page).await?),
            MatchRequest::Undo => self.undo_or_withdraw(caller).await?,
            MatchRequest::End { winner, reason } => view(
                self.end(caller, winner.as_deref(), reason.as_deref())
                    .await?,
            ),
            MatchRequest::Notify { on } => view(self.notify(caller, on).await?),
            MatchRequest::Pictures { on } => view(self.pictures(caller, on).await?),
            MatchRequest::Export => MatchReply::Export(self.export(channel).await?),
            MatchRequest::Complete { partial } => {
                MatchReply::Completions(self.complete(channel, &partial).await?)
            }
            MatchRequest::Verify => MatchReply::Replay(self.replay(channel).await?),
            MatchRequest::Numbered { match_id, read } => {
                self.read_numbered(channel, match_id, read).await?
            }
        })
    }

    /// A [`MatchRequest::Numbered`]: `read` of match `id` of this channel.
    async fn read_numbered(
        &self,
        channel: &str,
        id: i64,
        read: Reading,
    ) -> Result<MatchReply, MatchError> {
        let n = Some(id);
        Ok(match read {
            Reading::Board => MatchReply::Match(Box::new(self.board_of(channel, n).await?)),
            Reading::Log { page } => MatchReply::Log(self.log_of(channel, n, page).await?),
            Reading::Export => MatchReply::Export(self.export_of(channel, n).await?),
            Reading::Verify => MatchReply::Replay(self.replay_of(channel, n).await?),
        })
    }
}

impl Matches {
    /// The board every player agreed to: the board in effect, or, while a
    /// board waits on consent, the one it would replace (`null`: none).
    pub(super) async fn agreed_board(&self, m: &MatchRecord) -> Result<Value, MatchError> {
        let top = self.top(m).await?;
        let board = match top.filter(|t| setup_waiting(m, t).is_some()) {
            Some(t) => t.context.and_then(|c| c.get("before").cloned()),
            None => m.state.clone(),
        };
        Ok(board.unwrap_or(Value::Null))
    }
}

/// The board proposal the match waits on, if `top` (or a note made since,
/// which carries it) waits on one.
pub(super) fn setup_waiting(m: &MatchRecord, top: &EventRecord) -> Option<consent::Proposal> {
    pending_of(m, top)?;
    consent::Proposal::of(top)
        .filter(|p| p.what == consent::Proposed::Setup && p.stage == consent::Stage::Asked)
}

/// Whether the match waits on a board `user` proposed (theirs to replace).
fn own_setup_waiting(m: &MatchRecord, top: &EventRecord, user: &str) -> bool {
    setup_waiting(m, top).is_some_and(|p| m.players.get(p.by).map(String::as_str) == Some(user))
}

/// Whether a board text is written as a Discord mention (`<@id>`, `<@&id>`,
/// `<#id>`) or `@everyone` / `@here`: a seat or unit named so reads as that
/// user or role in every prompt ("@Maeoni attacks…" for Coal's play).
fn is_mention(text: &str) -> bool {
    let lower = text.to_lowercase();
    text.contains("<@")
        || text.contains("<#")
        // A command mention (`</match end:123>`) shows as a clickable command.
        || text.contains("</")
        || lower.contains("@everyone")
        || lower.contains("@here")
}

/// Whether `text` is one user's mention (`<@123>`, `<@!123>`).
fn is_user_mention(text: &str) -> bool {
    let t = text.trim();
    t.strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        .map(|id| id.strip_prefix('!').unwrap_or(id))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

/// Refuses a match board any of whose texts is a mention ([`is_mention`]),
/// at its field path.
pub(super) fn no_mentions(value: &Value, path: &str) -> Result<(), BoardError> {
    match value {
        Value::String(s) if is_mention(s) || is_masked_link(s) => Err(BoardError::semantic(
            path,
            format!(
                "“{s}” is written as a Discord mention or a masked link, which would read as that user or role, or hide where it leads, in every prompt; name it in plain words"
            ),
        )),
        // A board is posted and exported in a code block: three backticks
        // in a name would end it there.
        Value::String(s) if s.contains("```") => Err(BoardError::semantic(
            path,
            format!(
                "“{s}” holds three backticks (```), which would end the code block a board is posted and exported in; write it without them"
            ),
        )),
        // A web address in a seat's or a unit's name would be a live link
        // in every prompt and, in a turn notice's text, a link preview; a
        // card's name holding one is left out of its list alike
        // (`cards::parse::links_out`). Found by an outside tester ("Free
        // Nitro https://…" as a unit).
        Value::String(s) if crate::corpus::clean::holds_link(s) => Err(BoardError::semantic(
            path,
            format!(
                "“{s}” holds a web address, which would show as a link in every prompt and notice; name it in plain words"
            ),
        )),
        Value::String(s) if starts_an_entry(s) => Err(BoardError::semantic(
            path,
            format!(
                "“{s}” holds `#` and a number followed by more words, which reads as another entry of the log (“#9 Coal conceded”) wherever the name is shown; number a card at the end of its name (“Fervent Lancer #2”)"
            ),
        )),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| no_mentions(v, &format!("{path}[{i}]"))),
        Value::Object(map) => map
            .iter()
            .try_for_each(|(k, v)| no_mentions(v, &document::join_path(path, k))),
        _ => Ok(()),
    }
}

/// Whether `text` holds `#` and digits followed by more words: a log line
/// starts so (`#9 Coal (coal) conceded`), and a name holding it forged
/// one (an outside tester's seat "Maeoni (maeoni) conceded. #9 Coal"). A
/// number at the end ("Fervent Lancer #2", as the engines advise for two
/// cards of one name) starts nothing.
/// Fullwidth `＃` and digits (`＃９ Coal`) read the same on Discord.
fn starts_an_entry(text: &str) -> bool {
    text.match_indices(['#', '＃']).any(|(i, m)| {
        let rest = &text[i + m.len()..];
        let digits = rest.len() - rest.trim_start_matches(char::is_numeric).len();
        digits > 0 && rest[digits..].chars().any(char::is_alphanumeric)
    })
}

/// Refuses a seat's name being set that holds a parenthesis or reads as
/// another seat's. The log and the prompts write a seat's user in
/// parentheses after its name (`Coal (coal)`), so "Maeoni (maeoni)
/// conceded. Coal" would read as Maeoni's entry; a name confusable with
/// another seat's ("Аlice", its А Cyrillic, beside "Alice"; one differing
/// by a zero-width character, by case or by width) reads as that seat in
/// the log and on the decision buttons (found by outside testers). Only
/// the names being set are held to it: every seat's at a setup (`before`
/// `None`), at an adjust those that differ from `before`'s, so a board
/// kept from before a rule does not block another seat's rename. The
/// error names the field the name is in, and the other seat.
pub(super) fn plain_seat_names(
    engine: &dyn GameEngine,
    board: &Value,
    path: &str,
    before: Option<&[String]>,
) -> Result<(), BoardError> {
    let names = engine.players(board)?;
    for (i, name) in names.iter().enumerate() {
        if before.is_some_and(|b| b.get(i) == Some(name)) {
            continue;
        }
        let at = || path_of(board, name, path).unwrap_or_else(|| path.to_string());
        // Fullwidth and small parentheses read as these.
        if name.contains(['(', ')', '（', '）', '﹙', '﹚']) {
            return Err(BoardError::semantic(
                at(),
                format!(
                    "a seat's name may not hold a parenthesis: the log writes each seat's user in parentheses after its name (“Coal (coal) played …”), so “{name}” would read as another player's entry; name the seat in plain words"
                ),
            ));
        }
        // An invisible character makes a name differ from the one it
        // shows: a rename to "Coal" with a zero-width space was proposed
        // as if nothing changed (found by an outside tester).
        if let Some(c) = name.chars().find(|&c| crate::text::is_format(c)) {
            return Err(BoardError::semantic(
                at(),
                format!(
                    "“{name}” holds an invisible character (U+{:04X}), so it reads as a name it is not in the log and on the decision buttons; write the name without it",
                    u32::from(c)
                ),
            ));
        }
        // At a setup the later of two look-alikes is the one refused.
        let twin = names.iter().enumerate().find(|&(j, other)| {
            j != i && (before.is_some() || j < i) && crate::text::confusable(name, other)
        });
        if let Some((j, other)) = twin {
            return Err(BoardError::semantic(
                at(),
                format!(
                    "“{name}” reads as “{other}”, the name of seat {} (look-alike letters of another script, invisible characters, case or width): in the log and on the decision buttons one would pass for the other; name the seat so it reads apart",
                    j + 1
                ),
            ));
        }
    }
    Ok(())
}

/// The path of the first text in `value` equal to `text` (where a name the
/// engine reports is written).
fn path_of(value: &Value, text: &str, path: &str) -> Option<String> {
    match value {
        Value::String(s) if s == text => Some(path.to_string()),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| path_of(v, text, &format!("{path}[{i}]"))),
        Value::Object(map) => map
            .iter()
            .find_map(|(k, v)| path_of(v, text, &document::join_path(path, k))),
        _ => None,
    }
}

/// `n` players and the game's fewest with where that count comes from,
/// when `n` is fewer: a one-seat match let its only player record his own
/// win as a concession (an outside tester's).
fn too_few(engine: &dyn GameEngine, n: usize) -> Option<String> {
    let min = engine.min_players();
    (n < min.count).then(|| {
        format!(
            "{}; {} is played by at least {} ({})",
            crate::text::count(n, "player"),
            engine.game(),
            min.count,
            min.source
        )
    })
}

fn check_id(what: &str, id: &str) -> Result<(), MatchError> {
    if id.trim().is_empty() {
        return Err(MatchError::usage(format!("the {what} id is empty")));
    }
    if id.chars().count() > MAX_ID_CHARS {
        return Err(MatchError::usage(format!(
            "the {what} id is longer than {MAX_ID_CHARS} characters"
        )));
    }
    Ok(())
}

/// A note or a reason as recorded: on one line (every line break, Unicode's
/// separators and other control characters a space) with no format
/// character (`text::is_format`: text-direction controls, zero-width
/// characters and tags among them). Kept raw, a note's U+202E displayed the rest of its log line
/// reversed and its carriage returns and U+2028 broke the reply's lines
/// (found by an outside tester).
fn plain_text(text: &str) -> String {
    let spaced: String = text
        .chars()
        .filter(|&c| !crate::text::is_format(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    crate::text::single_spaced(&spaced)
}

fn check_text(what: &str, text: &str) -> Result<String, MatchError> {
    let text = plain_text(text);
    let text = text.as_str();
    if text.is_empty() {
        return Err(MatchError::usage(format!("the {what} is empty")));
    }
    if text.chars().count() > MAX_TEXT_CHARS {
        return Err(MatchError::usage(format!(
            "the {what} is longer than {MAX_TEXT_CHARS} characters"
        )));
    }
    unsigned(what, text)?;
    Ok(text.to_string())
}

/// A text of an imported event as the live command that writes it would
/// have recorded it: `typed`, the part its author typed (an end's reason
/// without the words the service adds after it), passes [`check_text`],
/// and `stored`, the whole, is already as [`plain_text`] records it and
/// holds no mention (a moderator's import stored a note with line breaks,
/// role pings, masked links and 5,000 characters: found by an outside
/// tester). `Err` is the live refusal's words.
fn recorded_text(what: &str, stored: &str, typed: &str) -> Result<(), String> {
    check_text(what, typed).map_err(|e| e.to_string())?;
    if plain_text(stored) != stored {
        return Err(format!(
            "the {what} holds a line break, a control or an invisible character, which a live {what} is recorded without"
        ));
    }
    unsigned(what, stored).map_err(|e| e.to_string())
}

/// Refuses a text of the record (a note, a reason, a play as typed) that
/// holds a Discord mention or a masked link: in the log and in the other
/// players' prompts it would read as that user's word ("approved by
/// @TO"), or hide where a link leads.
fn unsigned(what: &str, text: &str) -> Result<(), MatchError> {
    if is_mention(text) || is_masked_link(text) {
        return Err(MatchError::usage(format!(
            "a {what} may not hold a Discord mention (`<@…>`, `<#…>`, @everyone, @here) or a masked link (`[text](url)`): it would read as that user's word, or hide where it leads, in the log and the prompts; name them in plain words"
        )));
    }
    Ok(())
}

/// `text` with the mentions of `players` (`<@id>`, `<@!id>`) taken out: a
/// play may name the match's seats so, and nobody else.
fn seats_unmentioned(text: &str, players: &[String]) -> String {
    let mut out = text.to_string();
    for p in players {
        out = out
            .replace(&format!("<@{p}>"), "")
            .replace(&format!("<@!{p}>"), "");
    }
    out
}

/// `[text](https://…)`, as Discord shows a link under words of the author's.
fn is_masked_link(text: &str) -> bool {
    text.match_indices("](").any(|(i, _)| {
        let rest = text[i + 2..].trim_start().trim_start_matches('<');
        rest.get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case("http"))
    })
}

/// An answer's value as `/match answer`'s autocomplete offers it: the
/// option's label, the match and the version its question was asked at
/// (`confirm @7.12`: match #7, version 12), read back by [`answer_of`].
pub fn answer_value(label: &str, match_id: i64, version: i64) -> String {
    format!("{label} @{match_id}.{version}")
}

/// An answer as typed or picked from the autocomplete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picked {
    pub choice: String,
    /// The version the question was asked at, when picked from the list.
    pub version: Option<i64>,
    /// The match it was asked in, when picked from the list.
    pub match_id: Option<i64>,
}

/// The choice and, when the value came from the autocomplete, the match
/// and version it answers: `confirm @7.12` → ("confirm", match 7, version
/// 12); `confirm @12` (as earlier lists wrote it) → ("confirm", version 12);
/// `confirm` → ("confirm").
pub fn answer_of(value: &str) -> Picked {
    let typed = Picked {
        choice: value.to_string(),
        version: None,
        match_id: None,
    };
    let Some((label, at)) = value.rsplit_once(" @") else {
        return typed;
    };
    let (match_id, version) = match at.trim().split_once('.') {
        Some((m, v)) => (m.parse().ok().map(Some), v.parse().ok()),
        None => (Some(None), at.trim().parse().ok()),
    };
    match (label.trim(), match_id, version) {
        ("", ..) | (_, None, _) | (_, _, None) => typed,
        (label, Some(match_id), Some(version)) => Picked {
            choice: label.to_string(),
            version: Some(version),
            match_id,
        },
    }
}

/// A user as refusals name them: a Discord id as a mention (shown as the
/// member's name; a refusal is ephemeral and pings no one), a console or
/// CLI name as it is.
fn mention(user: &str) -> String {
    if !user.is_empty() && user.bytes().all(|b| b.is_ascii_digit()) {
        format!("<@{user}>")
    } else {
        user.to_string()
    }
}

/// Whether the player at `seat` turned their own turn notices off.
fn quiet(m: &MatchRecord, seat: usize) -> bool {
    seat < 63 && m.quiet_seats & (1 << seat) != 0
}

fn seat_of(m: &MatchRecord, user: &str) -> Option<usize> {
    m.players.iter().position(|p| p == user)
}

/// The decision the match's last event waits on, if any.
fn pending_of(m: &MatchRecord, top: &EventRecord) -> Option<Pending> {
    let decision: Decision =
        serde_json::from_value(top.ruling.as_ref()?.get("pending")?.clone()).ok()?;
    Some(Pending {
        user: m.players.get(decision.seat).cloned().unwrap_or_default(),
        decision,
        version: top.seq,
        deadline: top.deadline,
        proposes: consent::Proposal::of(top)
            .filter(|p| p.stage == consent::Stage::Asked)
            .map(|p| p.text),
    })
}

/// A decision with a default but no deadline (one the timeout's own
/// answer raised: nobody saw it asked, so its default is not applied
/// unseen) shows no default, and a note says who answers it: the board
/// said "if nobody answers, assumed: …" of a default nothing would ever
/// take (found by an outside tester).
fn without_unapplied_default(mut p: Pending) -> (Pending, Option<String>) {
    if p.deadline.is_some() || p.decision.default.is_none() {
        return (p, None);
    }
    p.decision.default = None;
    p.decision.default_assumed = false;
    p.decision.default_reason = None;
    let note = format!(
        "{}'s decision has no deadline (the decision's timeout answered the one before it, unseen): nothing is taken by itself; {} or a moderator answers it",
        p.decision.player,
        mention(&p.user)
    );
    (p, Some(note))
}

/// The context of a note made while the event whose `context` is given
/// waits on a question (with the note's `text`), or of an undo that
/// brings that question back: it carries that event's (its play's
/// asking, the proposal it asks: the question is shown again), but not
/// what speaks for that event's author (its moderator mark, the seat an
/// answer was for): a player's note or undo under a moderator's entry
/// carried its mark, and an import refused the live log, "recorded as
/// made by a moderator who holds none". Whoever makes the note or the
/// undo is marked as `append` marks any event. What they carry is no
/// standing of their author's, live and at import (`integrity::owned`;
/// [`is_plain_note`] for the undo rules).
pub(super) fn carried_context(
    asking: &serde_json::Map<String, Value>,
    text: Option<&str>,
) -> serde_json::Map<String, Value> {
    let mut c = asking.clone();
    c.remove(integrity::BY_MODERATOR);
    c.remove("answered_for");
    if let Some(text) = text {
        c.insert("text".into(), serde_json::json!(text));
    }
    c
}

/// The context an answer to a proposal starts from: that of the event on
/// top (`top`, the proposal's or what carries it), without what it says
/// of its own maker: a note's words, and the mark of a moderator's note,
/// undo or confirmation for another seat, which made a player's answer
/// under it read as a moderator's and the live log refused at import.
/// The answer's own maker is marked as `append` marks any event.
pub(super) fn answering_context(
    top: &serde_json::Map<String, Value>,
) -> serde_json::Map<String, Value> {
    let mut c = top.clone();
    c.remove("text");
    c.remove(integrity::BY_MODERATOR);
    c
}

/// Whether an event of `kind` with `context` is a note as `note` writes
/// it: free text, changing nothing (an `end` proposed is recorded as a
/// note too, with no text). What a note carries of the event it was made
/// under is no standing of its author's, live (`turns::plain_note`, the
/// undo rules) and at import (`integrity::owned`).
pub(super) fn is_plain_note(kind: EventKind, context: Option<&Value>) -> bool {
    kind == EventKind::Note
        && context
            .and_then(|c| c.get("text"))
            .and_then(Value::as_str)
            .is_some_and(|t| !t.is_empty())
}

/// A character no play's words may hold: a bidi control (U+202E turns
/// what follows around where the log shows it) or a control other than a
/// line break or tab (a play is YAML, on several lines).
pub(crate) fn hidden_char(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            || (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    })
}

/// The user a decision's timeout answered for, when `e` is that answer:
/// the answer assumed was made for them, so it is theirs to take back
/// (it was a moderator's alone, and the refusal read "only they", the
/// timeout: found by an outside tester). A proposal's expiry is not: its
/// author withdraws it (Consent).
fn timed_out_for<'a>(players: &'a [String], e: &EventRecord) -> Option<&'a String> {
    if e.actor != TIMEOUT_ACTOR || e.kind != EventKind::Answer {
        return None;
    }
    if consent::Proposal::of(e).is_some_and(|p| p.stage != consent::Stage::Confirmed) {
        return None;
    }
    let seat = e.context.as_ref()?.get("answered_for")?.as_u64()?;
    players.get(usize::try_from(seat).ok()?)
}

impl Matches {
    /// The refusal while `p` waits on `top`: [`waiting`] for the event that
    /// asked it, under the notes made since (a note carries the question
    /// on, and was named as the event that asked it: found by an outside
    /// tester).
    pub(super) async fn waiting(
        &self,
        m: &MatchRecord,
        top: &EventRecord,
        p: Pending,
    ) -> MatchError {
        match self.asker(m, top).await {
            Ok(asker) => waiting(m, &asker, p),
            Err(e) => e,
        }
    }

    /// The event under the notes `top` may be the last of.
    async fn asker(&self, m: &MatchRecord, top: &EventRecord) -> Result<EventRecord, MatchError> {
        if !turns::plain_note(top) {
            return Ok(top.clone());
        }
        let heads = self.store.event_heads(m.id).await?;
        for seq in turns::effective_stack(&heads).into_iter().rev() {
            let e = self
                .store
                .event(m.id, seq)
                .await?
                .ok_or(MatchError::NothingToUndo)?;
            if !turns::plain_note(&e) {
                return Ok(e);
            }
        }
        Ok(top.clone())
    }
}

/// The refusal while `p` waits on `top`, naming who may undo `top` now:
/// its author, the proposal's author when it is a confirmation (a
/// proposal is withdrawn whole), or a moderator.
fn waiting(m: &MatchRecord, top: &EventRecord, p: Pending) -> MatchError {
    let names = m
        .state
        .as_ref()
        .and_then(|s| s.get("players"))
        .and_then(serde_json::Value::as_array);
    let name = |user: &str| {
        let seat = seat_of(m, user)?;
        let named = names
            .and_then(|n| n.get(seat))
            .and_then(|p| p.get("name"))
            .and_then(serde_json::Value::as_str);
        Some(match named {
            Some(n) if n != user => format!("{n} ({})", mention(user)),
            _ => mention(user),
        })
    };
    let author = consent::Proposal::of(top)
        .filter(|_| top.kind == EventKind::Answer)
        .and_then(|pr| m.players.get(pr.by).cloned());
    // Who agreed to a player's play may take it back too (`undo`'s rule).
    let agreed: Vec<String> = if m.players.contains(&top.actor) {
        PlayContext::of(top)
            .agreed_by
            .iter()
            .filter_map(|s| m.players.get(*s).cloned())
            .collect()
    } else {
        Vec::new()
    };
    let mut who: Vec<String> = std::iter::once(top.actor.as_str())
        .chain(timed_out_for(&m.players, top).map(String::as_str))
        .chain(author.as_deref())
        .chain(agreed.iter().map(String::as_str))
        .filter_map(name)
        .collect();
    let mut seen = std::collections::HashSet::new();
    who.retain(|w| seen.insert(w.clone()));
    who.push("a moderator who holds no seat in the match".into());
    let undo = match who.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    };
    MatchError::Waiting {
        player: p.decision.player,
        question: p.decision.question,
        seq: top.seq,
        undo,
    }
}

/// Who acts next: the player a decision waits on, else whose turn it is.
fn next_of(
    m: &MatchRecord,
    status: Option<&Status>,
    pending: Option<&Pending>,
    seats: &[Seat],
) -> Option<Next> {
    let name = |i: usize| seats.get(i).and_then(|s| s.name.clone());
    if let Some(p) = pending {
        return Some(Next {
            seat: p.decision.seat,
            user: p.user.clone(),
            name: name(p.decision.seat),
            what: NextKind::Decision,
            text: p.decision.question.clone(),
        });
    }
    let s = status?;
    let seat = s.turn_seat?;
    let round = s.round.map(|r| format!(", round {r}")).unwrap_or_default();
    Some(Next {
        seat,
        user: m.players.get(seat)?.clone(),
        name: name(seat),
        what: NextKind::Turn,
        text: format!("your turn ({}{round})", s.phase),
    })
}

/// The ruling as the log keeps it: without the state (the event has it).
fn stored_ruling(r: &Ruling) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        o.remove("state");
    }
    v
}

/// An empty JSON object.
fn json_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// The board with a play in it, as the engine judges it.
fn with_play(board: &Value, play: &Value) -> Value {
    let mut doc = board.clone();
    if let Value::Object(o) = &mut doc {
        o.insert("play".into(), play.clone());
    }
    doc
}

/// What an event request leaves, before it is written.
struct Outcome {
    event: NewEvent,
    ruling: Option<Ruling>,
    play: Option<Value>,
    adjustment: Option<engine::Adjustment>,
    note: Option<String>,
    undone: Option<LogEntry>,
    changes: Vec<engine::Change>,
    /// The event is a proposal waiting on consent.
    proposed: bool,
}

impl Outcome {
    fn new(event: NewEvent) -> Outcome {
        Outcome {
            event,
            ruling: None,
            play: None,
            adjustment: None,
            note: None,
            undone: None,
            changes: Vec::new(),
            proposed: false,
        }
    }
}

/// The asking context stored with a play waiting on decisions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
struct PlayContext {
    author: Option<usize>,
    /// Every seat's stated choices stand (a moderator's play; and, in logs
    /// written before `agreed_by` was per seat, any confirmed play).
    #[serde(default)]
    agreed: bool,
    /// The seats whose stated choices stand: those who confirmed them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    agreed_by: Vec<usize>,
    #[serde(default)]
    answered: Vec<(String, usize)>,
    /// The seat whose decision this event answers, on the answer's own
    /// event only (read back, a context starts without it): the log says
    /// whose choice a moderator or the timeout made.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    answered_for: Option<usize>,
    /// The consent this play waited on (`agreed by`), once asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    proposal: Option<consent::Proposal>,
}

impl PlayContext {
    fn asking(&self) -> Asking {
        Asking {
            author: self.author,
            agreed: self.agreed,
            agreed_by: self.agreed_by.clone(),
            answered: self.answered.clone(),
        }
    }

    fn of(e: &EventRecord) -> PlayContext {
        e.context
            .as_ref()
            .and_then(|c| serde_json::from_value(c.clone()).ok())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Picked, answer_of, answer_value};

    #[test]
    fn a_listed_answer_reads_back_with_its_match_and_version() {
        let picked = |choice: &str, version, match_id| Picked {
            choice: choice.into(),
            version,
            match_id,
        };
        let value = answer_value("guard with Iron Worker", 7, 12);
        assert_eq!(value, "guard with Iron Worker @7.12");
        assert_eq!(
            answer_of(&value),
            picked("guard with Iron Worker", Some(12), Some(7))
        );
        // As lists wrote it before they named the match.
        assert_eq!(answer_of("confirm @12"), picked("confirm", Some(12), None));
        // Typed words stay words, "@" and all.
        assert_eq!(answer_of("confirm"), picked("confirm", None, None));
        for typed in ["reply @Coal", "x @7.", "x @.3", " @7.12", "x @7.12.1"] {
            assert_eq!(answer_of(typed), picked(typed, None, None), "{typed}");
        }
    }
}
