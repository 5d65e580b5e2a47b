//! Match tracking: one active match per channel, its board, every play with
//! its ruling, undo, end and export. Transport-neutral: each call takes who
//! is asking ([`Caller`]: channel, user, moderator flag) and returns a
//! structured reply or a [`MatchError`] worded for the user. The CLI
//! (`arbiter match …`) and the Discord `/match` commands are thin layers over
//! [`Matches`]. Storage is [`crate::store`]; see `docs/MATCHES.md`.

use std::fmt::Write as _;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use super::App;
use crate::engine::{self, BoardError, GameEngine, Ruling, board};
use crate::store::{EventKind, EventRecord, MatchRecord, MatchStatus, NewEvent, Store, StoreError};

/// Log entries per page.
pub const LOG_PAGE_SIZE: i64 = 10;
/// Most players a match may seat.
pub const MAX_PLAYERS: usize = 16;
/// Longest channel or user id accepted.
pub const MAX_ID_CHARS: usize = 100;

/// Who is asking, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caller {
    /// Channel or thread id: one active match each.
    pub channel: String,
    /// The user's id (Discord snowflake, or any name on the console).
    pub user: String,
    /// Holds Manage Messages in the channel: may undo anyone's play, set up
    /// again after plays, and end the match.
    pub moderator: bool,
}

impl Caller {
    pub fn new(channel: impl Into<String>, user: impl Into<String>, moderator: bool) -> Caller {
        Caller {
            channel: channel.into(),
            user: user.into(),
            moderator,
        }
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
    #[error("the match has ended; start a new one with `match start`")]
    Ended,
    #[error("{message}")]
    Forbidden { message: String },
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
    #[error("there is no play to undo")]
    NothingToUndo,
    /// Someone else's play landed first; nothing was applied.
    #[error(
        "the board changed while your play was being judged (now at version {version}); nothing was applied: look at the board and play again"
    )]
    BoardChanged { version: i64, board: Option<Value> },
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
            StoreError::Ended => MatchError::Ended,
            StoreError::Conflict { version } => MatchError::BoardChanged {
                version,
                board: None,
            },
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

/// A match and its current board (`start`, `setup`, `board`, `end`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchView {
    pub match_id: i64,
    pub channel: String,
    pub game: String,
    pub status: MatchStatus,
    pub seats: Vec<Seat>,
    /// Number of events so far; a play may pass it as `expected_version`.
    pub version: i64,
    pub started_by: String,
    pub started_at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<i64>,
    /// Whose turn the board says it is (a seat's user), when it says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    pub board: Option<Value>,
}

/// The reply to `play`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayReply {
    /// True when the play was recorded: a legal play, or an illegal attempt
    /// the rules leave a record of (the ruling says `legal: false`).
    pub applied: bool,
    /// The play's sequence number when applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<i64>,
    /// The match version after the request.
    pub version: i64,
    /// The play value judged (from notation or YAML).
    pub play: Value,
    /// The ruling, step by step; when illegal, its diagnostics say why.
    pub ruling: Ruling,
    /// The board now (unchanged when the play was illegal).
    pub board: Value,
}

/// One event as the log shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    pub seq: i64,
    pub kind: EventKind,
    pub actor: String,
    /// Unix milliseconds.
    pub at: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<Value>,
    /// The ruling without its state (steps, diagnostics, changes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruling: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<i64>,
}

impl From<EventRecord> for LogEntry {
    fn from(e: EventRecord) -> LogEntry {
        LogEntry {
            seq: e.seq,
            kind: e.kind,
            actor: e.actor,
            at: e.at,
            input: e.input,
            play: e.play,
            ruling: e.ruling,
            undoes: e.undoes,
        }
    }
}

/// The reply to `log`: one page, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogReply {
    pub match_id: i64,
    pub game: String,
    pub page: i64,
    pub pages: i64,
    pub total: i64,
    pub entries: Vec<LogEntry>,
}

/// The reply to `undo`: exactly what was undone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UndoReply {
    /// The undo event's sequence number.
    pub seq: i64,
    pub version: i64,
    /// The play taken back.
    pub undone: LogEntry,
    /// What reverts (path, value with the play → value now).
    pub changes: Vec<engine::Change>,
    pub board: Value,
}

/// The reply to `export`: a YAML document that `setup` re-imports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExportReply {
    pub file_name: String,
    pub yaml: String,
}

/// What replaying a match's log found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReplayReport {
    pub match_id: i64,
    pub events: usize,
    /// The board the replay ends on.
    pub state: Option<Value>,
    /// True when every stored state equals the replayed one.
    pub consistent: bool,
    pub mismatches: Vec<String>,
}

/// A game name as `start` accepts it.
#[derive(Debug, Clone)]
struct GameName {
    id: String,
    names: Vec<String>,
}

type EngineLookup = Arc<dyn Fn(&str) -> Option<&'static dyn GameEngine> + Send + Sync>;

/// The match service. Cheap to clone; share one per process (or one per
/// replica: replicas coordinate through the database only).
#[derive(Clone)]
pub struct Matches {
    store: Store,
    games: Arc<Vec<GameName>>,
    lookup: EngineLookup,
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
                names: std::iter::once(g.id.clone())
                    .chain(std::iter::once(g.name.clone()))
                    .chain(g.aliases.iter().cloned())
                    .collect(),
            })
            .collect();
        Matches {
            store,
            games: Arc::new(games),
            lookup: Arc::new(engine::engine),
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
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn resolve_game(&self, name: &str) -> Result<(String, &'static dyn GameEngine), MatchError> {
        let key = crate::text::fold(name);
        let found = self
            .games
            .iter()
            .find(|g| g.names.iter().any(|n| crate::text::fold(n) == key));
        let Some(g) = found else {
            let mut close: Vec<(usize, &str)> = self
                .games
                .iter()
                .filter_map(|g| {
                    let d = g
                        .names
                        .iter()
                        .filter_map(|n| crate::text::edit_distance(&key, &crate::text::fold(n), 3))
                        .min()?;
                    Some((d, g.id.as_str()))
                })
                .collect();
            close.sort();
            let suggestions: Vec<String> = match close.first() {
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

    async fn active(&self, channel: &str) -> Result<MatchRecord, MatchError> {
        check_id("channel", channel)?;
        match self.store.active_match(channel).await? {
            Some(m) => Ok(m),
            None => match self.store.latest_match(channel).await? {
                Some(_) => Err(MatchError::Ended),
                None => Err(MatchError::NoMatch),
            },
        }
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
        let (game_id, _) = self.resolve_game(game)?;
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
            if players[..i].contains(p) {
                return Err(MatchError::usage(format!(
                    "{p} is named twice; each player takes one seat"
                )));
            }
        }
        if !caller.moderator && !players.contains(&caller.user) {
            return Err(MatchError::forbidden(
                "only a player of the match or a moderator may start it",
            ));
        }
        match self
            .store
            .create_match(&caller.channel, &game_id, players, &caller.user)
            .await
        {
            Ok(m) => Ok(view(&m)),
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

    /// `setup`: the starting board (a board document, or an `export`).
    /// Validated by the game's engine like `judge`. After plays only a
    /// moderator may set up again (the log keeps everything).
    pub async fn setup(&self, caller: &Caller, text: &str) -> Result<MatchView, MatchError> {
        let m = self.active(&caller.channel).await?;
        let seat = seat_of(&m, &caller.user);
        if seat.is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may set up its board",
            ));
        }
        if m.version > 0 && !caller.moderator {
            let heads = self.store.event_heads(m.id).await?;
            if heads.iter().any(|h| h.kind == EventKind::Play) {
                return Err(MatchError::forbidden(
                    "the match already has plays; only a moderator may replace its board",
                ));
            }
        }
        let engine = self.engine_of(&m)?;
        let board = self.read_board(&m, engine, text)?;
        let event = NewEvent {
            kind: EventKind::Setup,
            actor: caller.user.clone(),
            input: None,
            play: None,
            ruling: None,
            state: board,
            undoes: None,
        };
        let seq = self.append_or_changed(&m, &event).await?;
        let mut m = m;
        m.version = seq;
        m.state = Some(event.state);
        Ok(view(&m))
    }

    /// Parses and validates a starting board for match `m`.
    fn read_board(
        &self,
        m: &MatchRecord,
        engine: &dyn GameEngine,
        text: &str,
    ) -> Result<Value, MatchError> {
        let text = board::extract_code_block(text);
        board::precheck(text)?;
        let doc: Value = board::parse(text)?;
        let Value::Object(mut doc) = doc else {
            return Err(BoardError::semantic(
                "",
                "the board must be a YAML mapping (`game: …`, `players: …`)",
            )
            .into());
        };
        if doc.contains_key("arbiter_export") {
            match doc.remove("board") {
                Some(Value::Object(b)) => doc = b,
                _ => {
                    return Err(BoardError::semantic(
                        "board",
                        "this export has no board to import",
                    )
                    .into());
                }
            }
        }
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
        let board = Value::Object(doc);
        let json = serde_json::to_string(&board).map_err(|e| MatchError::Storage {
            message: e.to_string(),
        })?;
        board::precheck(&json)?;
        match engine.judge(&json) {
            Ok(_) => Ok(board),
            // An engine that insists on a play has read the board itself.
            Err(e) if e.path.as_deref() == Some("play") => Ok(board),
            Err(e) => Err(e.into()),
        }
    }

    /// `play`: a line of notation or a YAML `play:` block, judged against
    /// the current board. Legal plays are recorded; illegal ones change
    /// nothing. `expected_version` (from a board the user saw) makes a play
    /// on an older board fail with [`MatchError::BoardChanged`].
    pub async fn play(
        &self,
        caller: &Caller,
        text: &str,
        expected_version: Option<i64>,
    ) -> Result<PlayReply, MatchError> {
        let m = self.active(&caller.channel).await?;
        let Some(seat) = seat_of(&m, &caller.user) else {
            return Err(MatchError::forbidden(format!(
                "only the match's players may play ({}); anyone may look at the board",
                m.players.join(", ")
            )));
        };
        let Some(state) = m.state.clone() else {
            return Err(MatchError::NoBoard);
        };
        if let Some(v) = expected_version
            && v != m.version
        {
            return Err(MatchError::BoardChanged {
                version: m.version,
                board: Some(state),
            });
        }
        let engine = self.engine_of(&m)?;
        let play = read_play(engine, text, &state)?;
        // Each player plays for their own seat: the player the play names,
        // or else the one whose turn the board says it is. Whether the play
        // is legal at this moment is the engine's ruling.
        if let Some((acting, name)) = named_player(&state, &play).or_else(|| turn_of(&state))
            && acting != seat
        {
            let whose = m.players.get(acting).cloned().unwrap_or_default();
            return Err(MatchError::forbidden(format!(
                "this play is for {name} (seat {}, {whose}); you play for your own seat only (seat {})",
                acting + 1,
                seat + 1
            )));
        }
        let mut doc = match &state {
            Value::Object(o) => o.clone(),
            _ => {
                return Err(MatchError::Storage {
                    message: "the stored board is not a mapping".into(),
                });
            }
        };
        doc.insert("play".into(), play.clone());
        let json = serde_json::to_string(&Value::Object(doc)).map_err(|e| MatchError::Storage {
            message: e.to_string(),
        })?;
        board::precheck(&json)?;
        let mut ruling = engine.judge(&json)?;
        let new_state = without_play(ruling.state.clone());
        // An illegal play changes nothing, except a record the rules attach
        // to the attempt itself (Grand Archive 1.4 marks a must-attack
        // obligation attempted): such an attempt is logged with its ruling.
        if !ruling.legal && (ruling.changes.is_empty() || new_state == state) {
            ruling.state = state.clone();
            ruling.changes.clear();
            return Ok(PlayReply {
                applied: false,
                seq: None,
                version: m.version,
                play,
                ruling,
                board: state,
            });
        }
        ruling.state = new_state.clone();
        let event = NewEvent {
            kind: EventKind::Play,
            actor: caller.user.clone(),
            input: Some(text.trim().to_string()),
            play: Some(play.clone()),
            ruling: Some(stored_ruling(&ruling)),
            state: new_state.clone(),
            undoes: None,
        };
        let seq = self.append_or_changed(&m, &event).await?;
        Ok(PlayReply {
            applied: true,
            seq: Some(seq),
            version: seq,
            play,
            ruling,
            board: new_state,
        })
    }

    /// Appends, turning a lost race into `BoardChanged` with the new board.
    async fn append_or_changed(
        &self,
        m: &MatchRecord,
        event: &NewEvent,
    ) -> Result<i64, MatchError> {
        match self.store.append(m.id, m.version, event).await {
            Ok(seq) => Ok(seq),
            Err(StoreError::Conflict { .. }) => {
                let now = self.store.match_by_id(m.id).await?;
                Err(match now {
                    Some(n) if n.status == MatchStatus::Ended => MatchError::Ended,
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
        check_id("channel", channel)?;
        let m = self
            .store
            .latest_match(channel)
            .await?
            .ok_or(MatchError::NoMatch)?;
        Ok(view(&m))
    }

    /// `log`: one page of events, oldest first; the last page by default.
    pub async fn log(&self, channel: &str, page: Option<i64>) -> Result<LogReply, MatchError> {
        check_id("channel", channel)?;
        let m = self
            .store
            .latest_match(channel)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let pages = ((m.version + LOG_PAGE_SIZE - 1) / LOG_PAGE_SIZE).max(1);
        let page = page.unwrap_or(pages);
        if page < 1 || page > pages {
            return Err(MatchError::usage(format!(
                "page {page} does not exist; the log has {pages} page{}",
                if pages == 1 { "" } else { "s" }
            )));
        }
        let from = (page - 1) * LOG_PAGE_SIZE + 1;
        let to = page * LOG_PAGE_SIZE;
        let entries = self
            .store
            .events(m.id, from, to)
            .await?
            .into_iter()
            .map(LogEntry::from)
            .collect();
        Ok(LogReply {
            match_id: m.id,
            game: m.game,
            page,
            pages,
            total: m.version,
            entries,
        })
    }

    /// `undo`: takes back the last play still in effect. Allowed for the
    /// player who made it or a moderator. Recorded as an `undo` event.
    pub async fn undo(&self, caller: &Caller) -> Result<UndoReply, MatchError> {
        let m = self.active(&caller.channel).await?;
        let heads = self.store.event_heads(m.id).await?;
        let stack = effective_stack(&heads);
        let (Some(&top), Some(&below)) = (
            stack.last(),
            stack.len().checked_sub(2).and_then(|i| stack.get(i)),
        ) else {
            return Err(MatchError::NothingToUndo);
        };
        let is_play = heads
            .iter()
            .any(|h| h.seq == top && h.kind == EventKind::Play);
        if !is_play {
            return Err(MatchError::NothingToUndo);
        }
        let undone = self
            .store
            .event(m.id, top)
            .await?
            .ok_or(MatchError::NothingToUndo)?;
        if undone.actor != caller.user && !caller.moderator {
            return Err(MatchError::forbidden(format!(
                "the last play was made by {}; only they or a moderator may undo it",
                undone.actor
            )));
        }
        let before = self
            .store
            .event(m.id, below)
            .await?
            .ok_or(MatchError::NothingToUndo)?
            .state;
        let changes = engine::diff(&undone.state, &before);
        let event = NewEvent {
            kind: EventKind::Undo,
            actor: caller.user.clone(),
            input: None,
            play: undone.play.clone(),
            ruling: None,
            state: before.clone(),
            undoes: Some(top),
        };
        let seq = self.append_or_changed(&m, &event).await?;
        Ok(UndoReply {
            seq,
            version: seq,
            undone: undone.into(),
            changes,
            board: before,
        })
    }

    /// `end`: ends the match (a player or a moderator).
    pub async fn end(&self, caller: &Caller) -> Result<MatchView, MatchError> {
        let m = self.active(&caller.channel).await?;
        if seat_of(&m, &caller.user).is_none() && !caller.moderator {
            return Err(MatchError::forbidden(
                "only the match's players or a moderator may end it",
            ));
        }
        let event = NewEvent {
            kind: EventKind::End,
            actor: caller.user.clone(),
            input: None,
            play: None,
            ruling: None,
            state: m.state.clone().unwrap_or(Value::Null),
            undoes: None,
        };
        self.append_or_changed(&m, &event).await?;
        let m = self
            .store
            .match_by_id(m.id)
            .await?
            .ok_or(MatchError::NoMatch)?;
        Ok(view(&m))
    }

    /// `export`: the board and the whole log as YAML; `setup` re-imports the
    /// board from it. The channel's last match when none is active.
    pub async fn export(&self, channel: &str) -> Result<ExportReply, MatchError> {
        check_id("channel", channel)?;
        let m = self
            .store
            .latest_match(channel)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let log: Vec<LogEntry> = self
            .store
            .events(m.id, 1, m.version)
            .await?
            .into_iter()
            .map(LogEntry::from)
            .collect();
        let doc = serde_json::json!({
            "arbiter_export": 1,
            "game": m.game,
            "channel": m.channel,
            "match_id": m.id,
            "status": m.status,
            "players": m.players,
            "version": m.version,
            "board": m.state,
            "log": log,
        });
        let yaml = serde_saphyr::to_string(&doc).map_err(|e| MatchError::Storage {
            message: format!("cannot write the export: {e}"),
        })?;
        Ok(ExportReply {
            file_name: format!("{}-match-{}.yaml", m.game, m.id),
            yaml,
        })
    }

    /// Next-word candidates for a partly typed play (autocomplete).
    pub async fn complete(&self, channel: &str, partial: &str) -> Result<Vec<String>, MatchError> {
        let m = self.active(channel).await?;
        let Some(state) = &m.state else {
            return Ok(Vec::new());
        };
        let engine = self.engine_of(&m)?;
        Ok(engine.notation_completions(partial, state))
    }

    /// Replays the channel's latest match from its log through the engine
    /// and compares every stored state with the replayed one.
    pub async fn replay(&self, channel: &str) -> Result<ReplayReport, MatchError> {
        check_id("channel", channel)?;
        let m = self
            .store
            .latest_match(channel)
            .await?
            .ok_or(MatchError::NoMatch)?;
        let engine = self.engine_of(&m)?;
        let events = self.store.events(m.id, 1, m.version).await?;
        let mut mismatches = Vec::new();
        let mut stack: Vec<(i64, Value)> = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if e.seq != i as i64 + 1 {
                mismatches.push(format!("event {} has seq {}", i + 1, e.seq));
            }
            match e.kind {
                EventKind::Setup => stack = vec![(e.seq, e.state.clone())],
                EventKind::Play => {
                    let Some((_, top)) = stack.last() else {
                        mismatches.push(format!("play {} before any setup", e.seq));
                        continue;
                    };
                    let replayed = match (top, &e.play) {
                        (Value::Object(o), Some(play)) => {
                            let mut doc = o.clone();
                            doc.insert("play".into(), play.clone());
                            let json =
                                serde_json::to_string(&Value::Object(doc)).unwrap_or_default();
                            let was_legal = e
                                .ruling
                                .as_ref()
                                .and_then(|r| r.get("legal"))
                                .and_then(Value::as_bool)
                                .unwrap_or(true);
                            match engine.judge(&json) {
                                Ok(r) => {
                                    if r.legal != was_legal {
                                        mismatches.push(format!(
                                            "play {} is {} on replay",
                                            e.seq,
                                            if r.legal { "legal" } else { "illegal" }
                                        ));
                                    }
                                    Some(without_play(r.state))
                                }
                                Err(err) => {
                                    mismatches
                                        .push(format!("play {} fails on replay: {err}", e.seq));
                                    None
                                }
                            }
                        }
                        _ => {
                            mismatches.push(format!("play {} has no play or board", e.seq));
                            None
                        }
                    };
                    if let Some(r) = &replayed
                        && *r != e.state
                    {
                        mismatches.push(format!(
                            "play {}: stored state differs from the replayed one",
                            e.seq
                        ));
                    }
                    stack.push((e.seq, replayed.unwrap_or_else(|| e.state.clone())));
                }
                EventKind::Undo => {
                    let popped = stack.pop();
                    if popped.as_ref().map(|(s, _)| *s) != e.undoes || stack.is_empty() {
                        mismatches.push(format!(
                            "undo {} does not undo the last play in effect",
                            e.seq
                        ));
                    }
                    if stack.last().map(|(_, s)| s) != Some(&e.state) {
                        mismatches.push(format!(
                            "undo {}: stored state differs from the state before the play",
                            e.seq
                        ));
                    }
                }
                EventKind::End => {
                    if stack.last().map(|(_, s)| s) != Some(&e.state)
                        && !(stack.is_empty() && e.state.is_null())
                    {
                        mismatches.push(format!("end {}: stored state differs", e.seq));
                    }
                }
            }
        }
        let state = stack.last().map(|(_, s)| s.clone());
        let current = m.state.clone().filter(|s| !s.is_null());
        if state != current {
            mismatches.push("the match's current board differs from the replay".into());
        }
        Ok(ReplayReport {
            match_id: m.id,
            events: events.len(),
            state,
            consistent: mismatches.is_empty(),
            mismatches,
        })
    }
}

/// Every match command as one request, for transports that dispatch by
/// name (`/match <sub>`, the console, the CLI).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum MatchRequest {
    Start {
        game: String,
        players: Vec<String>,
    },
    Setup {
        text: String,
    },
    Play {
        text: String,
        expected_version: Option<i64>,
    },
    Board,
    Log {
        page: Option<i64>,
    },
    Undo,
    End,
    Export,
    Complete {
        partial: String,
    },
    Verify,
}

/// The reply to a [`MatchRequest`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum MatchReply {
    Match(MatchView),
    Play(Box<PlayReply>),
    Log(LogReply),
    Undo(UndoReply),
    Export(ExportReply),
    Completions(Vec<String>),
    Replay(ReplayReport),
}

impl MatchReply {
    /// Plain text for chat or a terminal. An export is its YAML (transports
    /// attach it as `ExportReply::file_name` instead).
    pub fn to_text(&self) -> String {
        match self {
            MatchReply::Match(v) => view_text(v),
            MatchReply::Play(r) => play_text(r),
            MatchReply::Log(r) => log_text(r),
            MatchReply::Undo(r) => undo_text(r),
            MatchReply::Export(r) => r.yaml.clone(),
            MatchReply::Completions(list) => list.iter().map(|s| format!("{s}\n")).collect(),
            MatchReply::Replay(r) if r.consistent => format!(
                "match #{}: {} events replayed; every stored board equals the replay\n",
                r.match_id, r.events
            ),
            MatchReply::Replay(r) => format!(
                "match #{}: the log does not replay: {}\n",
                r.match_id,
                r.mismatches.join("; ")
            ),
        }
    }
}

impl Matches {
    /// Runs one request for `caller` (its channel, user and moderator flag).
    pub async fn handle(
        &self,
        caller: &Caller,
        request: MatchRequest,
    ) -> Result<MatchReply, MatchError> {
        let channel = caller.channel.as_str();
        Ok(match request {
            MatchRequest::Start { game, players } => {
                MatchReply::Match(self.start(caller, &game, &players).await?)
            }
            MatchRequest::Setup { text } => MatchReply::Match(self.setup(caller, &text).await?),
            MatchRequest::Play {
                text,
                expected_version,
            } => MatchReply::Play(Box::new(self.play(caller, &text, expected_version).await?)),
            MatchRequest::Board => MatchReply::Match(self.board(channel).await?),
            MatchRequest::Log { page } => MatchReply::Log(self.log(channel, page).await?),
            MatchRequest::Undo => MatchReply::Undo(self.undo(caller).await?),
            MatchRequest::End => MatchReply::Match(self.end(caller).await?),
            MatchRequest::Export => MatchReply::Export(self.export(channel).await?),
            MatchRequest::Complete { partial } => {
                MatchReply::Completions(self.complete(channel, &partial).await?)
            }
            MatchRequest::Verify => MatchReply::Replay(self.replay(channel).await?),
        })
    }
}

/// Seqs of the setup and plays in effect, oldest first (undo pops).
fn effective_stack(heads: &[crate::store::EventHead]) -> Vec<i64> {
    let mut stack = Vec::new();
    for h in heads {
        match h.kind {
            EventKind::Setup => stack = vec![h.seq],
            EventKind::Play => stack.push(h.seq),
            EventKind::Undo => {
                stack.pop();
            }
            EventKind::End => {}
        }
    }
    stack
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

fn seat_of(m: &MatchRecord, user: &str) -> Option<usize> {
    m.players.iter().position(|p| p == user)
}

/// Top-level fields by which the games' boards say whose turn it is.
const TURN_FIELDS: [&str; 3] = ["turn", "turn_player", "active_player"];

/// The seat whose turn the board names (`turn: <player name>`), if any.
fn turn_of(state: &Value) -> Option<(usize, String)> {
    TURN_FIELDS
        .iter()
        .find_map(|f| seat_named(state, state.get(f)?.as_str()?))
}

/// The seat of the player a play names (`player: <name>`), if any.
fn named_player(state: &Value, play: &Value) -> Option<(usize, String)> {
    seat_named(state, play.get("player")?.as_str()?)
}

/// The board's seat index of a player name (case and spacing ignored).
fn seat_named(state: &Value, who: &str) -> Option<(usize, String)> {
    let key = crate::text::fold(who);
    let players = state.get("players")?.as_array()?;
    players.iter().enumerate().find_map(|(i, p)| {
        let name = p.get("name")?.as_str()?;
        (crate::text::fold(name) == key).then(|| (i, name.to_string()))
    })
}

fn view(m: &MatchRecord) -> MatchView {
    let board_players = m
        .state
        .as_ref()
        .and_then(|s| s.get("players"))
        .and_then(Value::as_array);
    let seats = m
        .players
        .iter()
        .enumerate()
        .map(|(i, u)| Seat {
            seat: i + 1,
            user: u.clone(),
            name: board_players
                .and_then(|p| p.get(i))
                .and_then(|p| p.get("name"))
                .and_then(Value::as_str)
                .map(str::to_string),
        })
        .collect();
    let turn = m
        .state
        .as_ref()
        .and_then(turn_of)
        .and_then(|(i, _)| m.players.get(i).cloned());
    MatchView {
        match_id: m.id,
        channel: m.channel.clone(),
        game: m.game.clone(),
        status: m.status,
        seats,
        version: m.version,
        started_by: m.started_by.clone(),
        started_at: m.started_at,
        ended_at: m.ended_at,
        turn,
        board: m.state.clone(),
    }
}

/// A play from a YAML `play:` block, or else one line of the game's notation.
fn read_play(engine: &dyn GameEngine, text: &str, state: &Value) -> Result<Value, MatchError> {
    let text = board::extract_code_block(text);
    if text.is_empty() {
        return Err(MatchError::usage(
            "the play is empty: type it in the game's notation, or give a YAML `play:` block",
        ));
    }
    board::precheck(text)?;
    if let Ok(Value::Object(mut doc)) = board::parse::<Value>(text)
        && doc.contains_key("play")
    {
        if doc.len() > 1 {
            let extra: Vec<&String> = doc.keys().filter(|k| *k != "play").collect();
            return Err(BoardError::semantic(
                extra.first().map(|k| k.as_str()).unwrap_or(""),
                "give only the `play:` block; the board is the match's (change it with `match setup`)",
            )
            .into());
        }
        return Ok(doc.remove("play").unwrap_or(Value::Null));
    }
    if text.lines().count() > 1 {
        return Err(BoardError::semantic(
            "play",
            "a play in notation is one line; for more, give a YAML `play:` block",
        )
        .into());
    }
    Ok(engine.parse_notation(text, state)?)
}

fn without_play(state: Value) -> Value {
    match state {
        Value::Object(mut o) => {
            o.remove("play");
            Value::Object(o)
        }
        other => other,
    }
}

/// The ruling as the log keeps it: without the state (the event has it).
fn stored_ruling(r: &Ruling) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        o.remove("state");
    }
    v
}

// ---- text rendering (CLI and console) ----

/// A match and its board as text.
pub fn view_text(v: &MatchView) -> String {
    let mut out = String::new();
    let status = match v.status {
        MatchStatus::Active => "active",
        MatchStatus::Ended => "ended",
    };
    let _ = writeln!(
        out,
        "{} match #{} in {} ({status}, version {})",
        v.game, v.match_id, v.channel, v.version
    );
    for s in &v.seats {
        let name = s
            .name
            .as_deref()
            .map(|n| format!(" as {n}"))
            .unwrap_or_default();
        let turn = if v.turn.as_deref() == Some(s.user.as_str()) {
            "  ← to play"
        } else {
            ""
        };
        let _ = writeln!(out, "  seat {}: {}{name}{turn}", s.seat, s.user);
    }
    match &v.board {
        Some(b) if !b.is_null() => {
            let _ = writeln!(out, "board:");
            let yaml = serde_saphyr::to_string(b).unwrap_or_else(|_| b.to_string());
            for line in yaml.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        _ => {
            let _ = writeln!(out, "no board yet: give one with `match setup`");
        }
    }
    out
}

/// A play's outcome as text.
pub fn play_text(r: &PlayReply) -> String {
    let mut out = String::new();
    if r.applied && r.ruling.legal {
        let _ = writeln!(out, "play #{} recorded", r.seq.unwrap_or(r.version));
    } else if r.applied {
        let _ = writeln!(
            out,
            "illegal play, recorded as #{} for the record the rules keep of the attempt",
            r.seq.unwrap_or(r.version)
        );
    } else {
        let _ = writeln!(out, "illegal play: nothing changed");
    }
    // The ruling without its full state dump: `match board` shows the board.
    let ruling = crate::render::text::ruling(&r.ruling);
    let ruling = match ruling.find("\nstate:\n") {
        Some(i) => &ruling[..=i],
        None => ruling.as_str(),
    };
    out.push_str(ruling);
    out
}

fn entry_text(out: &mut String, e: &LogEntry) {
    let what = match e.kind {
        EventKind::Setup => "set up the board".to_string(),
        EventKind::Play => format!("played {}", e.input.as_deref().unwrap_or("")),
        EventKind::Undo => format!("undid #{}", e.undoes.unwrap_or(0)),
        EventKind::End => "ended the match".to_string(),
    };
    let _ = writeln!(out, "#{} {} {} ({})", e.seq, e.actor, what, time_text(e.at));
    if let Some(r) = &e.ruling
        && let Some(steps) = r.get("steps").and_then(Value::as_array)
    {
        for s in steps {
            let _ = writeln!(
                out,
                "    [{}] {}",
                s.get("rule").and_then(Value::as_str).unwrap_or(""),
                s.get("text").and_then(Value::as_str).unwrap_or("")
            );
        }
    }
}

/// A log page as text.
pub fn log_text(r: &LogReply) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} match #{}: {} event{}, page {}/{}",
        r.game,
        r.match_id,
        r.total,
        if r.total == 1 { "" } else { "s" },
        r.page,
        r.pages
    );
    for e in &r.entries {
        entry_text(&mut out, e);
    }
    out
}

/// An undo as text: what was taken back.
pub fn undo_text(r: &UndoReply) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "undone (event #{}):", r.seq);
    entry_text(&mut out, &r.undone);
    if r.changes.is_empty() {
        let _ = writeln!(out, "no change to the board");
    } else {
        let _ = writeln!(out, "reverted:");
        for c in &r.changes {
            let _ = writeln!(out, "  {}: {} → {}", c.path, c.before, c.after);
        }
    }
    out
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn time_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc() {
        assert_eq!(time_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time_text(1_795_000_000_000), "2026-11-18 11:06:40 UTC");
    }

    #[test]
    fn undo_pops_the_last_play_in_effect() {
        use crate::store::EventHead;
        let h = |seq, kind, undoes| EventHead { seq, kind, undoes };
        let heads = [
            h(1, EventKind::Setup, None),
            h(2, EventKind::Play, None),
            h(3, EventKind::Play, None),
            h(4, EventKind::Undo, Some(3)),
        ];
        assert_eq!(effective_stack(&heads), vec![1, 2]);
    }

    #[test]
    fn turn_names_a_seat() {
        let s = serde_json::json!({"turn": "maeoni", "players": [{"name": "Coal"}, {"name": "Maeoni"}]});
        assert_eq!(turn_of(&s), Some((1, "Maeoni".to_string())));
        assert_eq!(turn_of(&serde_json::json!({"players": []})), None);
        let ga = serde_json::json!({"turn_player": "Bob", "players": [{"name": "Alice"}, {"name": "Bob"}]});
        assert_eq!(turn_of(&ga), Some((1, "Bob".to_string())));
        let play = serde_json::json!({"player": "alice"});
        assert_eq!(named_player(&ga, &play), Some((0, "Alice".to_string())));
    }
}
