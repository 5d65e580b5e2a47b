//! `/match …`: per-channel match tracking (issue 9) on the bot's
//! dispatcher. The request becomes an [`app::matches::MatchRequest`] for
//! the caller (channel, user, Manage Messages → moderator); the reply (or the
//! refusal) becomes a [`Message`].
//!
//! [`app::matches::MatchRequest`]: crate::app::matches::MatchRequest

use crate::app::cpu;
use crate::app::matches::{
    Caller, EventReply, MatchError, MatchReply, MatchRequest, Matches, NextKind,
};
use crate::engine::Ruling;
use crate::store::EventKind;
use crate::store::{DEFAULT_DATABASE_URL, Store, StoreError};

use super::reply::{
    Block, Button, ButtonStyle, Doc, FileAttachment, Ping, code_span, escape_inline, escape_md,
    ruling_message, truncate,
};
use super::{
    Action, BoardSource, Bot, Choice, ChoiceValue, Command, Input, MAX_CHOICES, Message,
    MessageKind, Modal, Origin, Reply, Request, internal_error,
};

/// The custom id of the form `/match setup` opens without a board.
pub const MATCH_SETUP_MODAL: &str = "match-setup";
/// Most players `/match start` takes (options `player1` … `player8`).
pub const MAX_MATCH_PLAYERS: usize = 8;
/// The channel of console requests (which have no channel id).
pub const CONSOLE_CHANNEL: &str = "console";

/// A `/match` subcommand with its options: the service's own request,
/// its setup board still where the user gave it (none: the form).
pub type MatchCommand = MatchRequest<Option<BoardSource>>;

/// Who asks, where: the channel (a thread is its own channel), the user
/// (a Discord id; on the console the configured name), and whether they hold
/// Manage Messages there.
/// The channel a request's match lives in.
fn channel_key(origin: &Origin) -> String {
    origin
        .channel_id
        .map_or_else(|| CONSOLE_CHANNEL.to_string(), |c| c.to_string())
}

pub fn caller(origin: &Origin) -> Caller {
    let channel = channel_key(origin);
    if origin.user_id != 0 {
        // A Discord interaction: its id makes the write exactly-once.
        Caller::new(channel, origin.user_id.to_string(), origin.moderator)
            .with_interaction(&origin.id)
            .with_guild(super::guild_key(origin))
    } else {
        Caller::new(channel, origin.user_name.clone(), origin.moderator)
            .with_guild(super::guild_key(origin))
    }
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

/// The longest `/rule` (or its and `/card`'s autocomplete) waits for the
/// channel's match game.
const MATCH_GAME_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

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
                Ok(Matches::for_app(store, &self.app)
                    .with_decision_timeout(self.config.decision_timeout))
            })
            .await
    }

    /// Whether the match database answers within `wait` (`GET /healthz`):
    /// `None` when this process has none open (`serve` opens it at start);
    /// `Ping::Busy` when every connection was in use for the whole wait
    /// (the database answers the requests holding them). Why it did not
    /// answer is logged, never said.
    pub async fn database_answers(
        &self,
        wait: std::time::Duration,
    ) -> Option<Result<crate::store::Ping, StoreError>> {
        let store = self.matches.get()?.store();
        let answer = store.ping(wait).await;
        match &answer {
            Err(e) => tracing::warn!("health: the match database does not answer: {e}"),
            Ok(crate::store::Ping::Busy) => {
                tracing::info!("health: every match database connection was busy for {wait:?}")
            }
            Ok(crate::store::Ping::Answers) => {}
        }
        Some(answer)
    }

    /// The game of the match in progress in the request's channel, for a
    /// `/rule` (or a `/rule` or `/card` autocomplete) that names none. Only
    /// from a match database already open (a console that has not used
    /// `/match` opens none), and never waiting more than
    /// [`MATCH_GAME_WAIT`]: the question is answered without it.
    pub(super) async fn channel_match_game(&self, origin: &Origin) -> Option<String> {
        let matches = self.matches.get()?;
        // A Discord request without a channel has no channel's match (the
        // console's requests have no channel id and use its own).
        if origin.channel_id.is_none() && origin.user_id != 0 {
            return None;
        }
        let channel = channel_key(origin);
        match tokio::time::timeout(MATCH_GAME_WAIT, matches.active_game(&channel)).await {
            Ok(Ok(game)) => game,
            Ok(Err(e)) => {
                tracing::warn!("the channel's match game: {e}");
                None
            }
            Err(_) => {
                tracing::warn!("the channel's match game: no answer in time");
                None
            }
        }
    }

    /// The rule-set version the channel's active match pinned (none
    /// without a match, or when the database does not answer in time).
    pub(super) async fn channel_match_pin(
        &self,
        origin: &Origin,
    ) -> Option<crate::store::RuleSetPin> {
        let matches = self.matches.get()?;
        if origin.channel_id.is_none() && origin.user_id != 0 {
            return None;
        }
        let channel = channel_key(origin);
        match tokio::time::timeout(MATCH_GAME_WAIT, matches.active_rule_set(&channel)).await {
            Ok(Ok(pin)) => pin,
            Ok(Err(e)) => {
                tracing::warn!("the channel's match rule set: {e}");
                None
            }
            Err(_) => None,
        }
    }

    /// Every 30 seconds: decisions past their deadline take the rules'
    /// default (any replica may do it: the version check keeps it to one),
    /// and the pending-decisions gauge is refreshed.
    pub fn spawn_decision_sweep(self: &std::sync::Arc<Bot>) {
        let bot = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(30));
            loop {
                tick.tick().await;
                let Ok(m) = bot.open_matches().await else {
                    continue;
                };
                if let Err(e) = m.settle_all().await {
                    tracing::warn!("settling timed-out decisions: {e}");
                }
                match m.store().pending_decisions().await {
                    Ok(n) => crate::metrics::set_pending_decisions(n),
                    Err(e) => tracing::warn!("counting pending decisions: {e}"),
                }
            }
        });
    }

    /// Answers `/match …`, its autocomplete and its setup form; `None` for
    /// every other request.
    pub(super) async fn handle_match(&self, request: &Request) -> Option<Reply> {
        let origin = &request.origin;
        let req = match &request.input {
            Input::Command(Command::Match(MatchRequest::Setup { text: None })) => {
                return Some(Reply::Modal(setup_modal()));
            }
            Input::Command(Command::Match(cmd)) => {
                let downloaded = match cmd {
                    MatchRequest::Setup {
                        text: Some(BoardSource::Attachment(a)),
                    } => match self.download(a, "Match").await {
                        Ok(text) => Some(text),
                        Err(reply) => return Some(reply),
                    },
                    _ => None,
                };
                cmd.clone().with_board(|board| match (board, downloaded) {
                    (Some(BoardSource::Text(text)), _) | (_, Some(text)) => text,
                    _ => String::new(),
                })
            }
            Input::Autocomplete {
                command,
                option,
                value,
                ..
            } if command == "match" => {
                return Some(self.match_autocomplete(origin, option, value).await);
            }
            Input::ModalSubmit { custom_id, fields } if custom_id == MATCH_SETUP_MODAL => {
                let text = fields
                    .iter()
                    .find(|(id, _)| id == super::JUDGE_MODAL_FIELD)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                MatchRequest::Setup { text }
            }
            Input::Component { custom_id } => match Action::parse(custom_id) {
                // As `/match` itself: a match's buttons belong to a server.
                Some(Action::Decide { .. } | Action::Picture { .. })
                    if origin.guild_id.is_none() && origin.channel_id.is_some() =>
                {
                    return Some(Reply::Message(Message::user_error(
                        "Match",
                        "matches are kept in a server channel; answer in the server, not in a direct message",
                    )));
                }
                Some(Action::Decide {
                    match_id,
                    version,
                    option,
                }) => {
                    return Some(self.decide(origin, match_id, version, option).await);
                }
                Some(Action::Picture { match_id }) => {
                    return Some(self.board_picture(origin, match_id).await);
                }
                _ => return None,
            },
            _ => return None,
        };
        // A play picked from autocomplete too long for its value came as
        // its short reference: the whole text it stands for.
        let req = match req {
            MatchRequest::Play {
                text,
                expected_version,
            } if arbiter_text::looks_like_short_ref(&text) => {
                match self.pages.long_value(&text).await {
                    Some(text) => MatchRequest::Play {
                        text,
                        expected_version,
                    },
                    None => {
                        return Some(Reply::Message(Message::user_error(
                            "Match",
                            "that play was picked from a list of choices no longer kept (they are kept for 15 minutes); type or pick it again",
                        )));
                    }
                }
            }
            other => other,
        };
        let matches = match self.open_matches().await {
            Ok(m) => m.clone(),
            Err(e) => return Some(internal_error("match database", &e)),
        };
        let who = caller(origin);
        let label = request.input.label();
        // Whether the play moved on (a new question, whose turn): a
        // setting of the match's replies is a write that asks nothing.
        let writes = req.writes() && !req.is_setting();
        // A panic in the service becomes an internal error with an id.
        // The spawned task keeps the request's share of the CPU pool.
        let scope = cpu::Scope::current();
        let outcome = tokio::spawn(cpu::scoped(scope, async move {
            matches.handle(&who, req).await
        }))
        .await;
        Some(match outcome {
            Ok(Ok(reply)) => not_to_self(self.match_message(reply, writes).await, origin),
            Ok(Err(e)) => refusal(&self.server_game_named(origin, e).await),
            Err(e) => internal_error(&format!("panic while handling {label}"), &e),
        })
    }

    /// A decision button: the answer of the user who pressed it. A button
    /// of another match, of a question since answered or undone, or of an
    /// option the question does not have, is refused (ephemerally) and
    /// records nothing.
    async fn decide(&self, origin: &Origin, match_id: i64, version: i64, option: usize) -> Reply {
        let matches = match self.open_matches().await {
            Ok(m) => m.clone(),
            Err(e) => return internal_error("match database", &e),
        };
        let who = caller(origin);
        let scope = cpu::Scope::current();
        let outcome = tokio::spawn(cpu::scoped(scope, async move {
            // The same interaction again (Discord retries, a replica's
            // restart): its first result, before the checks of the match as
            // the first run left it (no decision waiting any more).
            if let Some(r) = matches.replayed(&who).await? {
                return Ok(r);
            }
            match matches.board(&who.channel).await {
                // The option by its position: its number is never read as words.
                Ok(v)
                    if v.match_id == match_id
                        && v.pending
                            .as_ref()
                            .is_some_and(|p| option < p.decision.options.len()) => {}
                Ok(v) if v.match_id != match_id && v.pending.is_some() => {
                    return Err(matches.stale(&who.channel).await);
                }
                Ok(_) | Err(MatchError::NoMatch) => return Err(MatchError::NoDecision),
                Err(e) => return Err(e),
            }
            matches
                .answer(&who, &(option + 1).to_string(), Some(version))
                .await
        }))
        .await;
        match outcome {
            Ok(Ok(r)) => {
                let shown = self
                    .match_message(MatchReply::Event(Box::new(r)), true)
                    .await;
                not_to_self(shown, origin)
            }
            Ok(Err(e)) => refusal(&e),
            Err(e) => internal_error("panic while answering a decision", &e),
        }
    }

    /// Autocomplete for `/match`: the play's next words, the waiting
    /// question's answers, the game's phases, the board's fields.
    async fn match_autocomplete(&self, origin: &Origin, option: &str, value: &str) -> Reply {
        let channel = caller(origin).channel;
        let Ok(m) = self.open_matches().await else {
            return Reply::Choices(Vec::new());
        };
        let typed = value.trim_start();
        if option == "match" {
            let listed = m.listed(&channel, MAX_CHOICES).await.unwrap_or_default();
            return Reply::Choices(match_choices(listed, typed));
        }
        if option == "choice" {
            let pending = m
                .board(&channel)
                .await
                .ok()
                .and_then(|v| Some((v.match_id, v.pending?)));
            return Reply::Choices(answer_choices(pending, typed));
        }
        let lines: Vec<String> = match option {
            "to" => m.phases(&channel).await.unwrap_or_default(),
            "field" => m.fields(&channel, typed).await.unwrap_or_default(),
            _ => next_words(typed, m.complete(&channel, typed).await.unwrap_or_default()),
        };
        let key = arbiter_text::fold(typed);
        let mut long = Vec::new();
        let mut choices: Vec<Choice> = lines
            .into_iter()
            .filter(|l| {
                option == "text" || option == "field" || arbiter_text::fold(l).contains(&key)
            })
            .take(MAX_CHOICES)
            // Discord takes values of up to 100 characters: a longer one
            // travels as its short reference. Adjust finds a field's among
            // the board's fields; a play's continuation, which needs the
            // text typed before it, is kept for the play to find
            // (`Pages::long_value`).
            .map(|l| {
                let name = cut_middle(&l, 100);
                let value = if l.chars().count() > 100 {
                    let reference = arbiter_text::short_ref(&l).into_owned();
                    if option == "text" {
                        long.push(l);
                    }
                    reference
                } else {
                    l
                };
                Choice {
                    name,
                    value: value.into(),
                }
            })
            .collect();
        self.pages.keep_long_values(&long).await;
        // What was typed stays a choice.
        let typed = value.trim();
        if !typed.is_empty()
            && typed.chars().count() <= 100
            && !choices.iter().any(|c| c.value.is(typed))
        {
            if choices.len() == MAX_CHOICES {
                choices.pop();
            }
            choices.insert(
                0,
                Choice {
                    name: typed.to_string(),
                    value: typed.to_string().into(),
                },
            );
        }
        Reply::Choices(choices)
    }

    /// `wrote`: the request changed the match (its question is new).
    async fn match_message(&self, reply: MatchReply, wrote: bool) -> Reply {
        let text_doc = |kind: MessageKind, title: String, text: &str| Doc {
            kind,
            title: truncate(&title, 256),
            // Plain text, not a code block: mentions inside code blocks
            // would show as raw ids (the renderer fences the board).
            blocks: vec![Block {
                head: String::new(),
                body: text.trim_end().to_string(),
                code: false,
            }],
            footer: None,
            buttons: vec![],
        };
        let doc = match &reply {
            MatchReply::Match(v) => text_doc(
                MessageKind::Info,
                format!("Match #{} ({})", v.match_id, v.game),
                &discord_text(&reply),
            ),
            MatchReply::Event(p) if p.ruling.is_some() => {
                let Some(ruling) = &p.ruling else {
                    return Reply::Message(Message::info("Match", ""));
                };
                let mut doc = ruling_message(ruling);
                doc.title = event_title(p, ruling);
                self.pin_citations(&mut doc.buttons, p.match_id).await;
                // Whose turn or decision is next, as every other reply says.
                let style = crate::render::matches::Style::Discord;
                if let Some(next) =
                    crate::render::matches::next_text(p.next.as_ref(), &p.seats, style)
                {
                    doc.blocks.push(Block {
                        head: String::new(),
                        body: next,
                        code: false,
                    });
                }
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
                &discord_text(&reply),
            ),
            MatchReply::Log(l) => {
                // A log page is one message: its own pages are the log's,
                // so steps that would not fit give way to one line each.
                let mut text = discord_text(&reply);
                if text.chars().count() > super::PAGE_BUDGET {
                    let style = crate::render::matches::Style::Discord;
                    text = crate::render::matches::log_compact(l, style);
                }
                if text.chars().count() > super::PAGE_BUDGET {
                    text = fit_lines(&text, super::PAGE_BUDGET);
                }
                text_doc(
                    MessageKind::Info,
                    format!(
                        "Match #{} ({}): log page {}/{}",
                        l.match_id, l.game, l.page, l.pages
                    ),
                    &text,
                )
            }
            MatchReply::Export(e) => {
                let warning = e
                    .warning
                    .as_deref()
                    .map_or_else(String::new, |w| format!("\n\n⚠ {}", escape_md(w)));
                let mut m = Message::info(
                    "Match export",
                    &format!(
                        "The board and the whole log, attached as {}. Re-import the board with `/match setup file:`.{warning}",
                        code_span(&e.file_name)
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
                &discord_text(&reply),
            ),
            MatchReply::Completions(_) => {
                text_doc(MessageKind::Info, "Match".into(), &discord_text(&reply))
            }
        };
        let mut doc = doc;
        add_decision_buttons(&mut doc, &reply);
        let mut message = self.paged(doc, false).await;
        add_turn_ping(&mut message, &reply, wrote);
        if super::pictures::wanted(&reply) {
            message.picture = super::pictures::of_match_pooled(&reply).await;
        }
        if let Some(b) = super::pictures::button(&reply) {
            message.buttons.push(b);
        }
        Reply::Message(message)
    }
}

impl Bot {
    /// A game the match service does not know that this server's rule set
    /// holds (an uploaded game: `/rule` cites it) has rules but no engine:
    /// said so, not "unknown game" beside a list of the shipped games
    /// (found by an outside tester). Any other error as it is.
    async fn server_game_named(&self, origin: &Origin, e: MatchError) -> MatchError {
        let MatchError::UnknownGame { name, .. } = &e else {
            return e;
        };
        let Some(guild) = super::guild_key(origin) else {
            return e;
        };
        let Ok(sets) = self.open_rule_sets().await else {
            return e;
        };
        // `answering`, not `app_for`: a refusal never waits for an index
        // to be built (the newest one built, or the shipped games, names
        // the server's game as well once it has been indexed).
        match sets.answering(&guild).await.map(|a| a.app) {
            Ok(app) => match app.game(name) {
                Ok(game) => MatchError::NoEngine {
                    game: game.name.clone(),
                },
                Err(_) => e,
            },
            Err(_) => e,
        }
    }

    /// The "Picture" button: the board of the channel's match as it is now.
    /// A button of a match the channel has since replaced is refused.
    async fn board_picture(&self, origin: &Origin, match_id: i64) -> Reply {
        let matches = match self.open_matches().await {
            Ok(m) => m.clone(),
            Err(e) => return internal_error("match database", &e),
        };
        let channel = caller(origin).channel;
        let view = match matches.board(&channel).await {
            Ok(v) => v,
            Err(e) => return refusal(&e),
        };
        if view.match_id != match_id {
            return Reply::Message(Message::user_error(
                "Picture",
                &format!(
                    "that button is for match #{match_id}; this channel's match is now #{}: use `/match board`",
                    view.match_id
                ),
            ));
        }
        let reply = MatchReply::Match(Box::new(view));
        let Some(picture) = super::pictures::of_match_pooled(&reply).await else {
            return Reply::Message(Message::user_error(
                "Picture",
                "the match has no board to draw yet; give it one with `/match setup`",
            ));
        };
        let mut m = Message::info(
            &format!("Board of match #{match_id}"),
            &truncate(&picture.alt, super::PAGE_BUDGET),
        );
        m.picture = Some(picture);
        Reply::Message(m)
    }

    /// Citation buttons of a match's reply resolve against the rule-set
    /// version the match pinned.
    async fn pin_citations(&self, buttons: &mut [super::Button], match_id: i64) {
        let Ok(matches) = self.open_matches().await else {
            return;
        };
        match matches.pinned_rule_set(match_id).await {
            Ok(Some(pin)) => {
                for b in buttons {
                    b.action = b.action.clone().pinned(pin.version);
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("the match's rule-set version is unavailable: {e}"),
        }
    }
}

/// Match text for Discord: seats named with mentions (an embed shows them
/// as names and pings nobody).
fn discord_text(reply: &MatchReply) -> String {
    crate::render::matches::reply_as(reply, crate::render::matches::Style::Discord)
}

/// The title of an event with a ruling.
fn event_title(e: &EventReply, ruling: &Ruling) -> String {
    let verdict = if ruling.legal { "legal" } else { "ILLEGAL" };
    let what = match e.event {
        EventKind::Answer => "Answer",
        EventKind::Advance => "Advance",
        _ => "Play",
    };
    match (e.applied, e.seq) {
        (true, Some(seq)) if e.pending.is_some() => format!(
            "{what} #{seq} recorded ({}): waiting for a decision",
            ruling.game
        ),
        (true, Some(seq)) if e.event == EventKind::Advance => format!(
            "{what} #{seq} recorded ({}): the match moves on",
            ruling.game
        ),
        (true, Some(seq)) => format!(
            "{what} #{seq} recorded ({}): the play is {verdict}",
            ruling.game
        ),
        _ if e.event == EventKind::Advance => format!(
            "Not recorded ({}): the match cannot move on yet",
            ruling.game
        ),
        _ => format!(
            "Not recorded ({}): the play is {verdict}; the board is unchanged",
            ruling.game
        ),
    }
}

/// The most characters Discord shows on a button.
const BUTTON_CHARS: usize = 80;

/// Decision options as button labels within [`BUTTON_CHARS`], told apart:
/// a long label keeps its start and its end (where "… with Bear A" and
/// "… with Bear B" differ), and labels that would still read alike are
/// numbered as `/match answer` takes them. Cut at their first 80
/// characters, two answers once showed the same button (found by an
/// outside tester).
fn button_labels<'a>(labels: impl Iterator<Item = &'a str>) -> Vec<String> {
    let labels: Vec<&str> = labels.collect();
    let cut: Vec<String> = labels.iter().map(|l| middle_cut(l, BUTTON_CHARS)).collect();
    let distinct = cut.iter().collect::<std::collections::HashSet<_>>().len() == cut.len();
    if distinct {
        return cut;
    }
    labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let number = format!("{}. ", i + 1);
            let room = BUTTON_CHARS - number.chars().count();
            format!("{number}{}", middle_cut(l, room))
        })
        .collect()
}

/// `s` within `max` characters: its start, "…", and its end.
fn middle_cut(s: &str, max: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= max {
        return s.to_string();
    }
    let tail = (max - 1) / 2;
    let head = max - 1 - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// Buttons for a waiting decision (whoever presses, only the deciding player
/// or a moderator is heard), on every page of the reply.
fn add_decision_buttons(doc: &mut Doc, reply: &MatchReply) {
    let pending = match reply {
        MatchReply::Match(v) => v.pending.as_ref(),
        MatchReply::Event(e) => e.pending.as_ref(),
        _ => None,
    };
    if let Some(p) = pending {
        // At most four rows of answers: the pager may need the fifth.
        let room = 20usize.saturating_sub(doc.buttons.len().div_ceil(5) * 5);
        let options = &p.decision.options;
        let shown = if options.len() > room {
            room.saturating_sub(1)
        } else {
            options.len()
        };
        let match_id = match_id_of(reply);
        let labels = button_labels(options.iter().map(|o| o.label.as_str()));
        let mut buttons: Vec<Button> = labels
            .iter()
            .take(shown)
            .enumerate()
            .map(|(i, label)| {
                let style = if p.decision.default == Some(i) {
                    ButtonStyle::Secondary
                } else {
                    ButtonStyle::Primary
                };
                Button::new(
                    label,
                    Action::Decide {
                        match_id,
                        version: p.version,
                        option: i,
                    },
                    style,
                )
            })
            .collect();
        if shown < options.len() {
            // In the footer: on every page, as the buttons are.
            let more = format!(
                "{} more answers: use /match answer (it autocompletes them).",
                options.len() - shown
            );
            doc.footer = Some(match doc.footer.take() {
                Some(f) => format!("{f} · {more}"),
                None => more,
            });
        }
        buttons.append(&mut doc.buttons);
        doc.buttons = buttons;
    }
}

/// A reply without a ping of the user who sent it: whoever undid their own
/// play, or answered a question that hands them the turn, is looking at it.
fn not_to_self(mut reply: Reply, origin: &Origin) -> Reply {
    if let Reply::Message(m) | Reply::Update(m) = &mut reply
        && m.ping.as_ref().is_some_and(|p| p.user == origin.user_id)
    {
        m.ping = None;
    }
    reply
}

/// The ping of whose turn or decision it is (a follow-up of the first page).
/// `notify off` silences turn notices only (a player's own, or a
/// moderator's for the whole match): a new decision or proposal
/// always pings the player it waits on, since its default applies without
/// them (one player turned the notices off and won on a timeout his
/// opponent was never told of).
fn add_turn_ping(message: &mut Message, reply: &MatchReply, wrote: bool) {
    let decides =
        |n: Option<&crate::app::matches::Next>| n.is_some_and(|n| n.what == NextKind::Decision);
    let (next, pings) = match reply {
        // A board proposed, an end claimed: a new question. A look at the
        // board, or a change of notices or pictures, pings nobody: anyone
        // could ping a player again and again with `/match board`.
        MatchReply::Match(v) => (
            v.next.as_ref(),
            wrote && (v.turn_notices() || decides(v.next.as_ref())),
        ),
        MatchReply::Event(e) => {
            // A note, or the undo of one, changes neither the board nor
            // whose turn it is: the player to act was told already (each
            // note pinged them again).
            let is_note = |k: EventKind| k == EventKind::Note;
            let same_turn = is_note(e.event) || e.undone.as_ref().is_some_and(|u| is_note(u.kind));
            let fresh = e.applied && !e.replayed && !same_turn;
            (
                e.next.as_ref(),
                fresh && (e.notify || decides(e.next.as_ref())),
            )
        }
        _ => return,
    };
    if let Some(n) = next.filter(|_| pings)
        && let Ok(user) = n.user.parse::<u64>()
    {
        let who = n
            .name
            .as_deref()
            .map(|name| format!(" ({name})"))
            .unwrap_or_default();
        // `n.text` says "your turn (phase, round)": said once.
        let text = match n.what {
            NextKind::Turn => {
                let phase = n
                    .text
                    .strip_prefix("your turn (")
                    .and_then(|t| t.strip_suffix(')'))
                    .unwrap_or(&n.text);
                format!("your turn{who}: {phase}")
            }
            NextKind::Decision => format!("your decision{who}: {}", n.text),
        };
        // Content, not an embed: a user's words in it (a reason, a name)
        // show as typed, the bot's mentions of the seats kept.
        let text = crate::render::markdown::escape_keeping_mentions(&single_line(&text));
        message.ping = Some(Ping { user, text });
    }
}

/// `s` on one line: a line break in a quoted reason would start a line
/// of its own in the notice (a heading, `# BIG`).
fn single_line(s: &str) -> String {
    s.split(|c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn match_id_of(reply: &MatchReply) -> i64 {
    match reply {
        MatchReply::Match(v) => v.match_id,
        MatchReply::Event(e) => e.match_id,
        _ => 0,
    }
}

/// Completion words joined to what is typed: the lines autocomplete offers.
fn next_words(typed: &str, words: Vec<String>) -> Vec<String> {
    let (keep, last) = match typed.rfind(char::is_whitespace) {
        _ if typed.is_empty() || typed.ends_with(char::is_whitespace) => (typed, ""),
        Some(i) => typed.split_at(i + 1),
        None => ("", typed),
    };
    words
        .into_iter()
        .map(|w| {
            let fits =
                last.is_empty() || arbiter_text::fold(&w).starts_with(&arbiter_text::fold(last));
            if fits {
                format!("{keep}{w}")
            } else {
                format!("{typed} {w}")
            }
        })
        .collect()
}

/// Cuts the longest lines (with "…") to one length, so that the text fits
/// `budget` characters: a log page whose notes alone exceed a message
/// stays one message, every event on its line (it came out paged within
/// the log's own pages).
fn fit_lines(text: &str, budget: usize) -> String {
    let lens: Vec<usize> = text.lines().map(|l| l.chars().count()).collect();
    let newlines = lens.len();
    let fits = |cap: usize| lens.iter().map(|&n| n.min(cap)).sum::<usize>() + newlines <= budget;
    // The longest length every line may keep: the largest that fits.
    let (mut lo, mut hi) = (1, lens.iter().copied().max().unwrap_or(1));
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    text.lines()
        .map(|l| truncate(l, lo))
        .collect::<Vec<_>>()
        .join("\n")
}

/// At most `max` characters, cut in the middle with "…": a long field's
/// path keeps its end (`….life`), which tells it from its neighbours.
fn cut_middle(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let tail = max / 3;
    let head = max.saturating_sub(tail + 1);
    let h: String = s.chars().take(head).collect();
    let t: String = s.chars().skip(n - tail).collect();
    format!("{h}…{t}")
}

/// Text inside a code fence: a user's ``` cannot close it.
fn fence_safe(text: &str) -> String {
    text.trim_end().replace("```", "'''")
}

/// A refusal (ephemeral, says why) or, for a storage fault, an internal
/// error with its id. "Board changed" shows the new board.
pub(super) fn refusal(e: &MatchError) -> Reply {
    if !e.is_user_error() {
        return internal_error("match storage", e);
    }
    let mut why = refusal_md(e);
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
    match e {
        MatchError::Busy { .. } => Reply::Message(Message::busy("Match", &why)),
        _ => Reply::Message(Message::user_error("Match", &why)),
    }
}

/// A match error as Discord shows it. Not escaped whole: it names its
/// players as Discord mentions on purpose (`<@…>`), and its commands as
/// code. The words it quotes from the players are: a decision's question
/// and who may undo it (a proposed play's "the play `…`" holds the play as
/// typed: its backtick closed the span and the rest rendered, bold, a
/// masked link, a web address; found by an outside tester), on one line
/// with the bot's mentions kept, and a game's name and the words of a
/// proposal an undo is refused over as typed (mentions too: a proposal's
/// words are its author's alone). Its other
/// brackets are escaped: a refusal may quote what a board file says before
/// its names are checked (`game: "[x](https://…)"` came back as a live
/// masked link).
fn refusal_md(e: &MatchError) -> String {
    let said = |s: &str| crate::render::markdown::escape_keeping_mentions(&single_line(s));
    let shown = match e {
        MatchError::Waiting {
            player,
            question,
            seq,
            undo,
        } => MatchError::Waiting {
            player: said(player),
            question: said(question),
            seq: *seq,
            undo: said(undo),
        },
        MatchError::Stale { player, question } => MatchError::Stale {
            player: said(player),
            question: said(question),
        },
        MatchError::UnknownGame { name, suggestions } => MatchError::UnknownGame {
            name: escape_inline(name),
            suggestions: suggestions.iter().map(|s| escape_inline(s)).collect(),
        },
        MatchError::ProposalWaits {
            before,
            proposes,
            after,
        } => MatchError::ProposalWaits {
            before: before.clone(),
            proposes: escape_inline(proposes),
            after: after.clone(),
        },
        e => return e.to_string().replace('[', "\\["),
    };
    shown.to_string()
}

/// `match:`'s choices: this channel's matches, newest first, those whose
/// number or label holds what was typed ("12", "ended", "maeoni").
fn match_choices(listed: Vec<crate::app::matches::Listed>, typed: &str) -> Vec<Choice> {
    let key = arbiter_text::fold(typed.trim().trim_start_matches('#'));
    listed
        .into_iter()
        .filter(|l| arbiter_text::fold(&l.label).contains(&key))
        .map(|l| Choice {
            name: cut_middle(&l.label, 100),
            value: ChoiceValue::Integer(l.number),
        })
        .collect()
}

/// The waiting decision's answers for `/match answer`'s autocomplete: each
/// shown with the question it answers, its value carrying the version the
/// question was asked at (`commands::answer_value`), so an answer picked
/// from the list is refused if the decision was replaced meanwhile (a
/// proposal withdrawn and proposed again with other values). What was
/// typed stays a choice, without a version.
fn answer_choices(
    pending: Option<(i64, crate::app::matches::Pending)>,
    typed: &str,
) -> Vec<Choice> {
    let key = arbiter_text::fold(typed);
    let mut choices: Vec<Choice> = pending
        .map(|(match_id, p)| {
            // A proposal: what it would do, which fits the list; else the
            // rule's question.
            let (question, version) = (p.proposes.unwrap_or(p.decision.question), p.version);
            p.decision
                .options
                .into_iter()
                .enumerate()
                .filter(|(_, o)| arbiter_text::fold(&o.label).contains(&key))
                .map(|(i, o)| {
                    let mut value = crate::app::matches::answer_value(&o.label, match_id, version);
                    // Discord takes values of up to 100 characters: a longer
                    // answer travels as its number, which the answer reads
                    // first (as its button does), at the same version.
                    if value.chars().count() > 100 {
                        value = crate::app::matches::answer_value(
                            &(i + 1).to_string(),
                            match_id,
                            version,
                        );
                    }
                    Choice {
                        name: truncate(&format!("{} — {question}", o.label), 100),
                        value: value.into(),
                    }
                })
                .take(MAX_CHOICES)
                .collect()
        })
        .unwrap_or_default();
    let typed = typed.trim();
    if !typed.is_empty() && typed.chars().count() <= 100 && choices.len() < MAX_CHOICES {
        choices.push(Choice {
            name: typed.to_string(),
            value: typed.to_string().into(),
        });
    }
    choices
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::matches::{MatchView, Next, NextKind};
    use crate::store::MatchStatus;

    /// A board's quoted words in a refusal (its `game:`, read before any
    /// name is checked) never make a masked link on Discord.
    #[test]
    fn a_refusal_quoting_a_link_shows_it_as_text() {
        let e = MatchError::UnknownGame {
            name: "[Free Nitro](https://evil.example)".into(),
            suggestions: Vec::new(),
        };
        let Reply::Message(m) = refusal(&e) else {
            panic!("a refusal is a message");
        };
        assert!(m.body.contains("\\[Free Nitro"), "{}", m.body);
        assert!(!m.body.contains(" [Free Nitro]("), "{}", m.body);
        assert!(!m.body.contains("https://"), "{}", m.body);
    }

    /// A proposed play quoted in a refusal ("waiting for …'s decision: the
    /// play `…`", and an answer to a replaced question) shows as typed: a
    /// backtick in the play cannot close the span and render what follows
    /// (bold, a spoiler, a masked link, a web address); the bot's own
    /// mentions of the players stay mentions (a play may hold none).
    #[test]
    fn a_play_quoted_in_a_refusal_shows_as_typed() {
        let play = "the play `attack unit \"Mist `Spirit\" **x** ||y|| [c](https://evil.example) https://e.example`";
        let waiting = MatchError::Waiting {
            player: "<@1300000000000000302>".into(),
            question: play.into(),
            seq: 4,
            undo: "<@1300000000000000301> or a moderator who holds no seat in the match".into(),
        };
        let stale = MatchError::Stale {
            player: "<@1300000000000000302>".into(),
            question: play.into(),
        };
        // An undo refused over that proposal, still waiting, quotes it too
        // (with a mention typed in it: a proposal's words are its author's).
        let refused = MatchError::ProposalWaits {
            before: "the last event is #4, <@1300000000000000302>'s proposal (<@1300000000000000302> proposes ".into(),
            proposes: play.replace("**x**", "**x** <@123>"),
            after: "): it waits on your consent, which you have not given: answer it with `reject` (its Reject button) to refuse it, on the record; only its author <@1300000000000000302> or a moderator who holds no seat in the match may undo it".into(),
        };
        // Each keeps the command its template names, as code.
        for (e, command) in [
            (waiting, "`undo`"),
            (stale, "`/match answer`"),
            (refused, "`reject`"),
        ] {
            let Reply::Message(m) = refusal(&e) else {
                panic!("a refusal is a message");
            };
            for live in ["**x**", "||y||", " [c](", "://", "<@123>"] {
                assert!(!m.body.contains(live), "{live} in {}", m.body);
            }
            assert!(m.body.contains("<@1300000000000000302>"), "{}", m.body);
            assert!(m.body.contains(command), "{command} in {}", m.body);
        }
    }

    /// A match whose next player, seat 1 (`user`), is to take her turn.
    fn view(notify: bool, quiet: Vec<usize>) -> MatchReply {
        MatchReply::Match(Box::new(MatchView {
            match_id: 1,
            channel: "c".into(),
            game: "ashes".into(),
            status: MatchStatus::Active,
            seats: Vec::new(),
            version: 3,
            started_by: "1".into(),
            started_at: 0,
            ended_at: None,
            turn: None,
            game_status: None,
            pending: None,
            next: Some(Next {
                seat: 1,
                user: "1300000000000000302".into(),
                name: Some("Maeoni".into()),
                what: NextKind::Turn,
                text: "your turn (player turns, round 1)".into(),
            }),
            result: None,
            notify,
            quiet,
            pictures: true,
            rule_set: None,
            notes: Vec::new(),
            board: None,
        }))
    }

    fn pinged(reply: &MatchReply, wrote: bool) -> Option<u64> {
        let mut m = Message::info("Match", "");
        add_turn_ping(&mut m, reply, wrote);
        m.ping.map(|p| p.user)
    }

    /// A look at the board, or a switch of notices or pictures (`wrote`
    /// false), pings nobody; a change of the match pings the next player
    /// unless her own notices, or the match's, are off. (Over HTTP a look
    /// is answered at once, and an answer at once sends no ping anyway: only
    /// this function says whether a deferred one would.)
    #[test]
    fn a_look_pings_nobody_and_a_change_the_next_player_with_notices_on() {
        let maeoni = Some(1_300_000_000_000_000_302);
        assert_eq!(pinged(&view(true, Vec::new()), false), None);
        assert_eq!(pinged(&view(true, Vec::new()), true), maeoni);
        assert_eq!(pinged(&view(true, vec![1]), true), None);
        assert_eq!(pinged(&view(true, vec![0]), true), maeoni);
        assert_eq!(pinged(&view(false, Vec::new()), true), None);
    }
}

#[cfg(test)]
mod button_label_tests {
    use super::*;

    /// Two answers alike in their first 80 characters once showed the
    /// same button (an outside tester's long unit names).
    #[test]
    fn long_labels_stay_distinct_within_the_limit() {
        let long = "block with Frostback Bear of the Northern Wastes, Eldest of the Great Winter Clan and Keeper";
        let a = format!("{long} A");
        let b = format!("{long} B");
        let labels = button_labels([a.as_str(), b.as_str(), "no block"].into_iter());
        assert!(labels.iter().all(|l| l.chars().count() <= BUTTON_CHARS));
        assert_ne!(labels[0], labels[1]);
        assert!(labels[0].ends_with(" A") && labels[1].ends_with(" B"));
        assert_eq!(labels[2], "no block");
        // Alike at both ends, different in the middle: numbered.
        let mid = |x: &str| format!("{}{x}{}", "a".repeat(60), "b".repeat(60));
        let (c, d) = (mid("c"), mid("d"));
        let labels = button_labels([c.as_str(), d.as_str()].into_iter());
        assert!(labels[0].starts_with("1. ") && labels[1].starts_with("2. "));
        assert!(labels.iter().all(|l| l.chars().count() <= BUTTON_CHARS));
    }
}
