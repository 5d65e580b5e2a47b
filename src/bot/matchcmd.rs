//! `/match …`: per-channel match tracking (issue 9) on the bot's
//! dispatcher. The request becomes an [`app::matches::MatchRequest`] for
//! the caller (channel, user, Manage Messages → moderator); the reply (or the
//! refusal) becomes a [`Message`].
//!
//! [`app::matches::MatchRequest`]: crate::app::matches::MatchRequest

use crate::app::matches::{Caller, MatchError, MatchReply, MatchRequest, Matches};
use crate::store::{DEFAULT_DATABASE_URL, Store};

use super::reply::{Block, Doc, FileAttachment, escape_md, ruling_message, truncate};
use super::{
    BoardSource, Bot, Choice, Command, Input, MAX_CHOICES, Message, MessageKind, Modal, Origin,
    Reply, Request, internal_error,
};

/// The custom id of the form `/match setup` opens without a board.
pub const MATCH_SETUP_MODAL: &str = "match-setup";
/// Most players `/match start` takes (options `player1` … `player8`).
pub const MAX_MATCH_PLAYERS: usize = 8;
/// The channel of console requests (which have no channel id).
pub const CONSOLE_CHANNEL: &str = "console";

/// A `/match` subcommand with its options.
#[derive(Debug, Clone, PartialEq)]
pub enum MatchCommand {
    /// Players are Discord user ids (console: any name), in seat order.
    Start {
        game: String,
        players: Vec<String>,
    },
    /// No board opens the form.
    Setup {
        board: Option<BoardSource>,
    },
    Play {
        text: String,
    },
    Board,
    Log {
        page: Option<i64>,
    },
    Undo,
    End,
    Export,
    /// Replays the log through the engine and checks every stored board.
    Verify,
}

impl MatchCommand {
    pub fn name(&self) -> &'static str {
        match self {
            MatchCommand::Start { .. } => "match start",
            MatchCommand::Setup { .. } => "match setup",
            MatchCommand::Play { .. } => "match play",
            MatchCommand::Board => "match board",
            MatchCommand::Log { .. } => "match log",
            MatchCommand::Undo => "match undo",
            MatchCommand::End => "match end",
            MatchCommand::Export => "match export",
            MatchCommand::Verify => "match verify",
        }
    }
}

/// Who asks, where: the channel (a thread is its own channel), the user
/// (a Discord id; on the console the configured name), and whether they hold
/// Manage Messages there.
pub fn caller(origin: &Origin) -> Caller {
    let channel = origin
        .channel_id
        .map_or_else(|| CONSOLE_CHANNEL.to_string(), |c| c.to_string());
    let user = if origin.user_id != 0 {
        origin.user_id.to_string()
    } else {
        origin.user_name.clone()
    };
    Caller::new(channel, user, origin.moderator)
}

/// A user given as a mention (`<@123>`, `<@!123>`) or an id/name as typed.
pub fn user_ref(s: &str) -> String {
    let t = s.trim();
    t.strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        .map(|r| r.trim_start_matches('!'))
        .filter(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
        .map_or_else(|| t.to_string(), str::to_string)
}

fn setup_modal() -> Modal {
    Modal {
        custom_id: MATCH_SETUP_MODAL.into(),
        title: "Match: starting board".into(),
        field_id: super::JUDGE_MODAL_FIELD.into(),
        label: "Board document (YAML or JSON)".into(),
        placeholder: "game: ashes\nturn: ...\nplayers: ...".into(),
        max_length: 4000,
    }
}

/// The match database's URL: the configured one, else `DATABASE_URL`,
/// else the SQLite file `arbiter.db` in the working directory.
pub fn database_url(configured: Option<&str>) -> String {
    configured
        .map(str::to_string)
        .or_else(|| std::env::var("DATABASE_URL").ok())
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string())
}

impl Bot {
    /// Opens the match database (once; applies the migrations). `serve`
    /// calls it at start-up; the console on its first `/match` line.
    pub async fn open_matches(&self) -> Result<&Matches, String> {
        self.matches
            .get_or_try_init(|| async {
                let url = database_url(self.config.database_url.as_deref());
                let store = Store::connect(&url)
                    .await
                    .map_err(|e| format!("cannot open the match database: {e}"))?;
                self.pages.use_store(store.clone());
                Ok(Matches::for_app(store, &self.app))
            })
            .await
    }

    /// Answers `/match …`, its autocomplete and its setup form; `None` for
    /// every other request.
    pub(super) async fn handle_match(&self, request: &Request) -> Option<Reply> {
        let origin = &request.origin;
        let req = match &request.input {
            Input::Command(Command::Match(cmd)) => match cmd {
                MatchCommand::Start { game, players } => MatchRequest::Start {
                    game: game.clone(),
                    players: players.clone(),
                },
                MatchCommand::Setup { board: None } => return Some(Reply::Modal(setup_modal())),
                MatchCommand::Setup {
                    board: Some(BoardSource::Text(text)),
                } => MatchRequest::Setup { text: text.clone() },
                MatchCommand::Setup {
                    board: Some(BoardSource::Attachment(a)),
                } => match self.download(a, "Match").await {
                    Ok(text) => MatchRequest::Setup { text },
                    Err(reply) => return Some(reply),
                },
                MatchCommand::Play { text } => MatchRequest::Play {
                    text: text.clone(),
                    expected_version: None,
                },
                MatchCommand::Board => MatchRequest::Board,
                MatchCommand::Log { page } => MatchRequest::Log { page: *page },
                MatchCommand::Undo => MatchRequest::Undo,
                MatchCommand::End => MatchRequest::End {
                    winner: None,
                    reason: None,
                },
                MatchCommand::Export => MatchRequest::Export,
                MatchCommand::Verify => MatchRequest::Verify,
            },
            Input::Autocomplete { command, value, .. } if command == "match" => {
                return Some(self.match_autocomplete(origin, value).await);
            }
            Input::ModalSubmit { custom_id, fields } if custom_id == MATCH_SETUP_MODAL => {
                let text = fields
                    .iter()
                    .find(|(id, _)| id == super::JUDGE_MODAL_FIELD)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                MatchRequest::Setup { text }
            }
            _ => return None,
        };
        let matches = match self.open_matches().await {
            Ok(m) => m.clone(),
            Err(e) => return Some(internal_error("match database", &e)),
        };
        let who = caller(origin);
        let label = request.input.label();
        // A panic in the service becomes an internal error with an id.
        let outcome = tokio::spawn(async move { matches.handle(&who, req).await }).await;
        Some(match outcome {
            Ok(Ok(reply)) => self.match_message(reply).await,
            Ok(Err(e)) => refusal(&e),
            Err(e) => internal_error(&format!("panic while handling {label}"), &e),
        })
    }

    async fn match_autocomplete(&self, origin: &Origin, value: &str) -> Reply {
        let mut choices: Vec<Choice> = Vec::new();
        let typed = value.trim_start();
        if let Ok(m) = self.open_matches().await
            && let Ok(words) = m.complete(&caller(origin).channel, typed).await
        {
            let (keep, last) = match typed.rfind(char::is_whitespace) {
                _ if typed.is_empty() || typed.ends_with(char::is_whitespace) => (typed, ""),
                Some(i) => typed.split_at(i + 1),
                None => ("", typed),
            };
            for w in words {
                let line = if last.is_empty()
                    || w.to_lowercase().starts_with(&last.to_lowercase())
                    || w.to_lowercase()
                        .trim_start_matches('"')
                        .starts_with(&last.to_lowercase())
                {
                    format!("{keep}{w}")
                } else {
                    format!("{typed} {w}")
                };
                if line.chars().count() <= 100 && !choices.iter().any(|c| c.value == line) {
                    choices.push(Choice {
                        name: line.clone(),
                        value: line,
                    });
                }
                if choices.len() == MAX_CHOICES {
                    break;
                }
            }
        }
        let typed = value.trim();
        if !typed.is_empty()
            && typed.chars().count() <= 100
            && !choices.iter().any(|c| c.value == typed)
        {
            if choices.len() == MAX_CHOICES {
                choices.pop();
            }
            choices.insert(
                0,
                Choice {
                    name: typed.to_string(),
                    value: typed.to_string(),
                },
            );
        }
        Reply::Choices(choices)
    }

    async fn match_message(&self, reply: MatchReply) -> Reply {
        let text_doc = |kind: MessageKind, title: String, text: &str| Doc {
            kind,
            title: truncate(&title, 256),
            blocks: vec![Block {
                head: String::new(),
                body: fence_safe(text),
                code: true,
            }],
            footer: None,
            buttons: vec![],
        };
        let doc = match &reply {
            MatchReply::Match(v) => text_doc(
                MessageKind::Info,
                format!("Match #{} ({})", v.match_id, v.game),
                &crate::render::matches::reply(&reply),
            ),
            MatchReply::Event(p) if p.ruling.is_some() => {
                let Some(ruling) = &p.ruling else {
                    return Reply::Message(Message::info("Match", ""));
                };
                let mut doc = ruling_message(ruling);
                let verdict = if ruling.legal { "legal" } else { "ILLEGAL" };
                doc.title = match (p.applied, p.seq) {
                    (true, Some(seq)) => {
                        format!(
                            "Play #{seq} recorded ({}): the play is {verdict}",
                            ruling.game
                        )
                    }
                    _ => format!(
                        "Not recorded ({}): the play is {verdict}; the board is unchanged",
                        ruling.game
                    ),
                };
                doc
            }
            MatchReply::Event(e) => text_doc(
                MessageKind::Info,
                match &e.undone {
                    Some(u) => format!("Undone: event #{}", u.seq),
                    None => format!(
                        "Match: {} #{}",
                        e.event.as_str(),
                        e.seq.unwrap_or(e.version)
                    ),
                },
                &crate::render::matches::reply(&reply),
            ),
            MatchReply::Log(l) => text_doc(
                MessageKind::Info,
                format!(
                    "Match #{} ({}): log page {}/{}",
                    l.match_id, l.game, l.page, l.pages
                ),
                &crate::render::matches::reply(&reply),
            ),
            MatchReply::Export(e) => {
                let mut m = Message::info(
                    "Match export",
                    &format!(
                        "The board and the whole log, attached as `{}`. Re-import the board with `/match setup file:`.",
                        escape_md(&e.file_name)
                    ),
                );
                m.attachment = Some(FileAttachment {
                    filename: e.file_name.clone(),
                    text: e.yaml.clone(),
                });
                return Reply::Message(m);
            }
            MatchReply::Replay(r) => text_doc(
                if r.consistent {
                    MessageKind::Info
                } else {
                    MessageKind::Illegal
                },
                format!(
                    "Match #{} verified: {}",
                    r.match_id,
                    if r.consistent {
                        "the log replays"
                    } else {
                        "the log does NOT replay"
                    }
                ),
                &crate::render::matches::reply(&reply),
            ),
            MatchReply::Completions(_) => text_doc(
                MessageKind::Info,
                "Match".into(),
                &crate::render::matches::reply(&reply),
            ),
        };
        Reply::Message(self.paged(doc, false).await)
    }
}

/// Text inside a code fence: a user's ``` cannot close it.
fn fence_safe(text: &str) -> String {
    text.trim_end().replace("```", "'''")
}

/// A refusal (ephemeral, says why) or, for a storage fault, an internal
/// error with its id. "Board changed" shows the new board.
fn refusal(e: &MatchError) -> Reply {
    if !e.is_user_error() {
        return internal_error("match storage", e);
    }
    let mut why = e.to_string();
    if let MatchError::BoardChanged {
        board: Some(board), ..
    } = e
    {
        let yaml = serde_saphyr::to_string(board).unwrap_or_else(|_| board.to_string());
        why = format!(
            "{why}\n\nThe board now:\n```yaml\n{}\n```",
            truncate(
                &fence_safe(&yaml),
                super::PAGE_BUDGET - why.len().min(1000) - 40
            )
        );
    }
    Reply::Message(Message::user_error("Match", &why))
}
