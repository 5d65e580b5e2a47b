//! The Discord edge, shared by the gateway and the HTTP endpoint: serenity
//! `Interaction` → [`Request`], [`Reply`] → serenity response builders.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serenity::all::{
    ActionRowComponent, ApplicationId, ButtonStyle as DButtonStyle, ChannelId, CommandData,
    CommandDataOptionValue, CommandType, ComponentInteractionData, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateButton, CreateEmbed,
    CreateEmbedFooter, CreateInputText, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateModal,
    EditInteractionResponse, GuildId, InputTextStyle, Interaction, InteractionId, InteractionType,
    ModalInteractionData, Permissions, ResolvedValue, Unresolved, UserId,
};

use super::reply::truncate;
use super::{
    Action, Attachment, BoardSource, ButtonStyle, Command, Input, MatchCommand, Message,
    MessageKind, Origin, Reply, Request, commands,
};

/// Who sent an interaction, where.
struct Sender<'a> {
    id: String,
    user_id: u64,
    user_name: &'a str,
    permissions: Option<Permissions>,
    guild: Option<u64>,
    channel: u64,
}

impl Sender<'_> {
    fn origin(self) -> Origin {
        Origin {
            id: self.id,
            user_id: self.user_id,
            user_name: self.user_name.to_string(),
            guild_id: self.guild,
            channel_id: Some(self.channel),
            // The member's permissions in this channel, as Discord computed them.
            moderator: self.permissions.is_some_and(|p| p.manage_messages()),
            admin: self.permissions.is_some_and(|p| p.manage_guild()),
        }
    }
}

fn origin(
    id: impl ToString,
    user: &serenity::all::User,
    member: Option<&serenity::all::Member>,
    guild: Option<u64>,
    channel: u64,
) -> Origin {
    Sender {
        id: id.to_string(),
        user_id: user.id.get(),
        user_name: &user.name,
        permissions: member.and_then(|m| m.permissions),
        guild,
        channel,
    }
    .origin()
}

fn attachment(a: &serenity::all::Attachment) -> Attachment {
    Attachment {
        filename: a.filename.clone(),
        url: a.url.clone(),
        size: u64::from(a.size),
    }
}

/// The reply to an interaction this version does not know.
fn unknown(what: &str) -> Box<Reply> {
    Box::new(Reply::Message(Message::user_error(
        "Arbiter",
        &format!("{what} is not known to this version of Arbiter"),
    )))
}

/// Translates an interaction into a request. `Err` carries the reply for
/// interactions this version does not know (an old command, a ping).
pub fn to_request(interaction: &Interaction) -> Result<Request, Box<Reply>> {
    let (origin, input) = match interaction {
        Interaction::Command(ci) | Interaction::Autocomplete(ci) => {
            let origin = origin(
                ci.id,
                &ci.user,
                ci.member.as_deref(),
                ci.guild_id.map(|g| g.get()),
                ci.channel_id.get(),
            );
            let input = match interaction {
                Interaction::Command(_) => command_input(&ci.data)?,
                _ => autocomplete_input(&ci.data),
            };
            (origin, input)
        }
        Interaction::Component(ci) => (
            origin(
                ci.id,
                &ci.user,
                ci.member.as_ref(),
                ci.guild_id.map(|g| g.get()),
                ci.channel_id.get(),
            ),
            component_input(&ci.data),
        ),
        Interaction::Modal(mi) => (
            origin(
                mi.id,
                &mi.user,
                mi.member.as_ref(),
                mi.guild_id.map(|g| g.get()),
                mi.channel_id.get(),
            ),
            modal_input(&mi.data),
        ),
        Interaction::Ping(_) => return Err(Box::new(Reply::Choices(Vec::new()))),
        _ => return Err(unknown("this kind of interaction")),
    };
    Ok(Request { origin, input })
}

fn command_input(data: &CommandData) -> Result<Input, Box<Reply>> {
    if let Some(why) = invalid_option(data) {
        return Err(Box::new(Reply::Message(Message::user_error(
            "Arbiter", &why,
        ))));
    }
    command(data)
        .map(Input::Command)
        .ok_or_else(|| unknown(&format!("the command `{}`", data.name)))
}

/// A choice option whose value the command cannot take (a client that
/// ignores the choices offered): what is wrong and what it can be.
fn invalid_option(data: &CommandData) -> Option<String> {
    let opts = data.options();
    let (_, inner) = subcommand(&opts)?;
    let kind = string_option(inner, "kind").filter(|_| data.name == "rules")?;
    kind.parse::<crate::corpus::DocumentKind>().err()
}

fn autocomplete_input(data: &CommandData) -> Input {
    let (option, value) = data
        .autocomplete()
        .map(|a| (a.name.to_string(), a.value.to_string()))
        .unwrap_or_default();
    // A subcommand's options are nested in it.
    let (sub, options) = match data.options.first().map(|o| (&o.name, &o.value)) {
        Some((name, CommandDataOptionValue::SubCommand(inner))) => {
            (Some(name.clone()), inner.as_slice())
        }
        _ => (None, data.options.as_slice()),
    };
    let game = options
        .iter()
        .find(|o| o.name == "game")
        .and_then(|o| match &o.value {
            CommandDataOptionValue::String(s) => Some(s.clone()),
            CommandDataOptionValue::Autocomplete { value, .. } => Some(value.clone()),
            _ => None,
        });
    Input::Autocomplete {
        command: data.name.clone(),
        option,
        value,
        game,
        sub,
    }
}

fn component_input(data: &ComponentInteractionData) -> Input {
    Input::Component {
        custom_id: data.custom_id.clone(),
    }
}

fn modal_input(data: &ModalInteractionData) -> Input {
    let fields = data
        .components
        .iter()
        .flat_map(|row| row.components.iter())
        .filter_map(|c| match c {
            ActionRowComponent::InputText(t) => {
                Some((t.custom_id.clone(), t.value.clone().unwrap_or_default()))
            }
            _ => None,
        })
        .collect();
    Input::ModalSubmit {
        custom_id: data.custom_id.clone(),
        fields,
    }
}

/// What the HTTP endpoint reads of an interaction's body: the envelope's
/// ids and sender, `data` kept raw until the kind says what it is (then
/// serenity's type for it). The rest (channel, guild, entitlements, the
/// member's roles…) is skipped unread.
#[derive(Deserialize)]
pub struct Envelope<'a> {
    #[serde(rename = "type")]
    pub kind: InteractionType,
    pub id: InteractionId,
    pub application_id: ApplicationId,
    #[serde(borrow, default)]
    pub token: Cow<'a, str>,
    guild_id: Option<GuildId>,
    channel_id: Option<ChannelId>,
    #[serde(borrow)]
    member: Option<EnvelopeMember<'a>>,
    #[serde(borrow)]
    user: Option<EnvelopeUser<'a>>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct EnvelopeMember<'a> {
    #[serde(borrow)]
    user: EnvelopeUser<'a>,
    permissions: Option<Permissions>,
}

#[derive(Deserialize)]
struct EnvelopeUser<'a> {
    id: UserId,
    #[serde(borrow)]
    username: Cow<'a, str>,
}

/// An envelope whose `data` does not fit its kind.
#[derive(Debug, thiserror::Error)]
#[error("interaction data: {0}")]
pub struct BadData(#[from] serde_json::Error);

impl Envelope<'_> {
    /// The request, as [`to_request`] makes it from the whole interaction.
    /// `Ok(Err(reply))` for interactions answered without a request (a
    /// ping, an unknown command).
    pub fn to_request(&self) -> Result<Result<Request, Box<Reply>>, BadData> {
        fn data<'de, T: Deserialize<'de>>(raw: Option<&'de RawValue>) -> Result<T, BadData> {
            let raw = raw.map_or("null", RawValue::get);
            Ok(serde_json::from_str(raw)?)
        }
        let input = match self.kind {
            InteractionType::Ping => return Ok(Err(Box::new(Reply::Choices(Vec::new())))),
            InteractionType::Command => command_input(&data(self.data)?),
            InteractionType::Autocomplete => Ok(autocomplete_input(&data(self.data)?)),
            InteractionType::Component => Ok(component_input(&data(self.data)?)),
            InteractionType::Modal => Ok(modal_input(&data(self.data)?)),
            _ => Err(unknown("this kind of interaction")),
        };
        let user = self.member.as_ref().map(|m| &m.user).or(self.user.as_ref());
        let (Some(user), Some(channel)) = (user, self.channel_id) else {
            return Err(BadData(serde::de::Error::missing_field("user")));
        };
        Ok(input.map(|input| Request {
            origin: Sender {
                id: self.id.to_string(),
                user_id: user.id.get(),
                user_name: &user.username,
                permissions: self.member.as_ref().and_then(|m| m.permissions),
                guild: self.guild_id.map(GuildId::get),
                channel: channel.get(),
            }
            .origin(),
            input,
        }))
    }
}

fn command(data: &CommandData) -> Option<Command> {
    if data.kind == CommandType::Message {
        if data.name != commands::JUDGE_MESSAGE {
            return None;
        }
        let target = data
            .target_id
            .and_then(|t| data.resolved.messages.get(&t.to_message_id()));
        return Some(Command::JudgeMessage {
            content: target.map(|m| m.content.clone()).unwrap_or_default(),
            attachment: target.and_then(|m| m.attachments.first()).map(attachment),
        });
    }
    let opts = data.options();
    let string = |name: &str| {
        opts.iter()
            .find(|o| o.name == name)
            .and_then(|o| match o.value {
                ResolvedValue::String(s) => Some(s.to_string()),
                _ => None,
            })
    };
    Some(match data.name.as_str() {
        "rule" => Command::Rule {
            query: string("query").unwrap_or_default(),
            game: string("game"),
        },
        "judge" => {
            let file = opts
                .iter()
                .find(|o| o.name == "file")
                .and_then(|o| match o.value {
                    ResolvedValue::Attachment(a) => Some(attachment(a)),
                    _ => None,
                });
            let board = match (string("board"), file) {
                (Some(text), _) if !text.trim().is_empty() => Some(BoardSource::Text(text)),
                (_, Some(a)) => Some(BoardSource::Attachment(a)),
                _ => None,
            };
            Command::Judge {
                game: string("game"),
                board,
                play: string("play"),
            }
        }
        "games" => Command::Games {
            game: string("game"),
        },
        "schema" => Command::Schema {
            game: string("game").unwrap_or_default(),
        },
        "help" => Command::Help,
        "match" => Command::Match(match_command(&opts)?),
        "rules" => Command::Rules(rules_command(&opts)?),
        "card" => Command::Card {
            name: string("name").unwrap_or_default(),
            game: string("game"),
        },
        "feedback" => Command::Feedback(match subcommand(&opts)? {
            ("rule", inner) => super::FeedbackCommand::Rule {
                rule: string_option(inner, "rule")?,
            },
            ("summary", _) => super::FeedbackCommand::Summary,
            _ => return None,
        }),
        _ => return None,
    })
}

/// The subcommand's name and its own options.
fn subcommand<'a>(
    opts: &'a [serenity::all::ResolvedOption<'a>],
) -> Option<(&'a str, &'a [serenity::all::ResolvedOption<'a>])> {
    let sub = opts.first()?;
    match &sub.value {
        ResolvedValue::SubCommand(inner) => Some((sub.name, inner.as_slice())),
        _ => None,
    }
}

/// A string option's value.
fn string_option(opts: &[serenity::all::ResolvedOption<'_>], name: &str) -> Option<String> {
    opts.iter()
        .find(|o| o.name == name)
        .and_then(|o| match o.value {
            ResolvedValue::String(s) => Some(s.to_string()),
            _ => None,
        })
}

/// `/rules <subcommand> …`: the subcommand's own options.
fn rules_command(opts: &[serenity::all::ResolvedOption<'_>]) -> Option<super::RulesCommand> {
    use super::{RulesCommand, RulesFile};
    let (sub, inner) = subcommand(opts)?;
    let string = |name: &str| string_option(inner, name);
    Some(match sub {
        "add" => RulesCommand::Add {
            file: inner.iter().find_map(|o| match o.value {
                ResolvedValue::Attachment(a) if o.name == "file" => {
                    Some(RulesFile::Attachment(attachment(a)))
                }
                _ => None,
            })?,
            game: string("game")?,
            kind: string("kind")?.parse().ok()?,
            title: string("title"),
        },
        "list" => RulesCommand::List,
        "show" => RulesCommand::Show { id: string("id")? },
        "remove" => RulesCommand::Remove { id: string("id")? },
        "versions" => RulesCommand::Versions {
            game: string("game"),
        },
        _ => return None,
    })
}

/// `/match <subcommand> …`: the subcommand's own options.
fn match_command(opts: &[serenity::all::ResolvedOption<'_>]) -> Option<MatchCommand> {
    let (sub, inner) = subcommand(opts)?;
    let string = |name: &str| string_option(inner, name);
    Some(match sub {
        "start" => {
            let mut players: Vec<(u32, String)> = inner
                .iter()
                .filter_map(|o| {
                    let n: u32 = o.name.strip_prefix("player")?.parse().ok()?;
                    let id = match &o.value {
                        ResolvedValue::User(u, _) => u.id.get(),
                        ResolvedValue::Unresolved(Unresolved::User(id)) => id.get(),
                        _ => return None,
                    };
                    Some((n, id.to_string()))
                })
                .collect();
            players.sort();
            MatchCommand::Start {
                game: string("game").unwrap_or_default(),
                players: players.into_iter().map(|(_, id)| id).collect(),
            }
        }
        "setup" => {
            let file = inner
                .iter()
                .find(|o| o.name == "file")
                .and_then(|o| match o.value {
                    ResolvedValue::Attachment(a) => Some(attachment(a)),
                    _ => None,
                });
            let board = match (string("board"), file) {
                (Some(text), _) if !text.trim().is_empty() => Some(BoardSource::Text(text)),
                (_, Some(a)) => Some(BoardSource::Attachment(a)),
                _ => None,
            };
            MatchCommand::Setup { board }
        }
        "play" => MatchCommand::Play {
            text: string("text").unwrap_or_default(),
        },
        "board" => MatchCommand::Board,
        "log" => MatchCommand::Log {
            page: inner
                .iter()
                .find(|o| o.name == "page")
                .and_then(|o| match o.value {
                    ResolvedValue::Integer(n) => Some(n),
                    _ => None,
                }),
        },
        "answer" => MatchCommand::Answer {
            choice: string("choice").unwrap_or_default(),
        },
        "advance" => MatchCommand::Advance { to: string("to") },
        "adjust" => MatchCommand::Adjust {
            field: string("field").unwrap_or_default(),
            value: string("value").unwrap_or_default(),
            reason: string("reason").unwrap_or_default(),
        },
        "note" => MatchCommand::Note {
            text: string("text").unwrap_or_default(),
        },
        "notify" => MatchCommand::Notify {
            on: string("state").as_deref() != Some("off"),
        },
        "pictures" => MatchCommand::Pictures {
            on: string("state").as_deref() != Some("off"),
        },
        "undo" => MatchCommand::Undo,
        "end" => MatchCommand::End {
            winner: inner
                .iter()
                .find(|o| o.name == "winner")
                .and_then(|o| match &o.value {
                    ResolvedValue::User(u, _) => Some(u.id.get().to_string()),
                    ResolvedValue::Unresolved(Unresolved::User(id)) => Some(id.get().to_string()),
                    _ => None,
                }),
            reason: string("reason"),
        },
        "export" => MatchCommand::Export,
        "verify" => MatchCommand::Verify,
        _ => return None,
    })
}

fn color(kind: MessageKind) -> u32 {
    match kind {
        MessageKind::Answer => 0x5865F2,
        MessageKind::Legal => 0x57F287,
        MessageKind::Illegal => 0xED4245,
        MessageKind::Info => 0x99AAB5,
        MessageKind::UserError | MessageKind::Busy => 0xFEE75C,
        MessageKind::InternalError => 0xED4245,
    }
}

/// The embed of a message, within Discord's limits (title 256, description
/// 4096, footer 2048; one embed, well under 6000 in all).
pub fn embed(m: &Message) -> CreateEmbed {
    let mut e = CreateEmbed::new()
        .title(truncate(&m.title, 256))
        .description(truncate(&m.body, 4096))
        .color(color(m.kind));
    if let Some(f) = &m.footer {
        e = e.footer(CreateEmbedFooter::new(truncate(f, 2048)));
    }
    e
}

/// Buttons in rows of five (at most five rows).
pub fn rows(m: &Message) -> Vec<CreateActionRow> {
    m.buttons
        .chunks(5)
        .take(5)
        .map(|chunk| {
            CreateActionRow::Buttons(
                chunk
                    .iter()
                    .map(|b| {
                        let style = match b.style {
                            ButtonStyle::Primary => DButtonStyle::Primary,
                            ButtonStyle::Secondary => DButtonStyle::Secondary,
                        };
                        CreateButton::new(truncate(&b.action.custom_id(), 100))
                            .label(truncate(&b.label, 80))
                            .style(style)
                    })
                    .collect(),
            )
        })
        .collect()
}

fn message(m: &Message) -> CreateInteractionResponseMessage {
    CreateInteractionResponseMessage::new()
        .embed(embed(m))
        .components(rows(m))
        .ephemeral(m.ephemeral)
        .allowed_mentions(CreateAllowedMentions::new())
}

/// The interaction response for a reply.
pub fn response(reply: &Reply) -> CreateInteractionResponse {
    match reply {
        Reply::Message(m) => CreateInteractionResponse::Message(message(m)),
        Reply::Update(m) => CreateInteractionResponse::UpdateMessage(message(m)),
        Reply::Choices(choices) => CreateInteractionResponse::Autocomplete(
            choices
                .iter()
                .take(25)
                .fold(CreateAutocompleteResponse::new(), |r, c| {
                    r.add_string_choice(truncate(&c.name, 100), truncate(&c.value, 100))
                }),
        ),
        Reply::Modal(m) => CreateInteractionResponse::Modal(
            CreateModal::new(truncate(&m.custom_id, 100), truncate(&m.title, 45)).components(vec![
                CreateActionRow::InputText(
                    CreateInputText::new(
                        InputTextStyle::Paragraph,
                        truncate(&m.label, 45),
                        truncate(&m.field_id, 100),
                    )
                    .placeholder(truncate(&m.placeholder, 100))
                    .max_length(m.max_length.min(4000))
                    .required(true),
                ),
            ]),
        ),
    }
}

/// The deferred response ("Arbiter is thinking…").
pub fn defer(ephemeral: bool) -> CreateInteractionResponse {
    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(ephemeral))
}

/// The edit of a deferred response with the final reply.
pub fn edit(reply: &Reply) -> EditInteractionResponse {
    match reply {
        Reply::Message(m) | Reply::Update(m) => {
            let mut e = EditInteractionResponse::new()
                .embed(embed(m))
                .components(rows(m))
                .allowed_mentions(CreateAllowedMentions::new());
            for f in files(reply) {
                e = e.new_attachment(f);
            }
            e
        }
        // Only commands are deferred; they never answer with choices or a form.
        Reply::Choices(_) | Reply::Modal(_) => {
            EditInteractionResponse::new().content("(nothing to show)")
        }
    }
}

/// A reply sent as a follow-up message, with its own visibility.
pub fn followup(reply: &Reply) -> CreateInteractionResponseFollowup {
    match reply {
        Reply::Message(m) | Reply::Update(m) => CreateInteractionResponseFollowup::new()
            .embed(embed(m))
            .components(rows(m))
            .ephemeral(m.ephemeral)
            .allowed_mentions(CreateAllowedMentions::new())
            // Listed in the payload too, so each file keeps its description.
            .add_files(files(reply)),
        Reply::Choices(_) | Reply::Modal(_) => CreateInteractionResponseFollowup::new()
            .content("(nothing to show)")
            .ephemeral(true),
    }
}

/// Whether a reply is for the user alone.
pub fn is_ephemeral(reply: &Reply) -> bool {
    matches!(reply, Reply::Message(m) | Reply::Update(m) if m.ephemeral)
}

/// Sends the reply to a deferred interaction (both transports). When it is
/// for the audience the deferral was shown to, the deferred message is
/// edited into it. Otherwise (a refusal after a public "thinking…", the usual
/// case) the deferred message is deleted and the reply sent as a follow-up
/// with its own visibility: Discord gives a deferral's first follow-up the
/// deferral's visibility, so the deletion comes first.
pub async fn deliver_deferred(
    http: &serenity::http::Http,
    token: &str,
    reply: &Reply,
    deferred_ephemeral: bool,
) -> serenity::Result<()> {
    if is_ephemeral(reply) == deferred_ephemeral {
        http.edit_original_interaction_response(token, &edit(reply), files(reply))
            .await?;
    } else {
        if let Err(e) = http.delete_original_interaction_response(token).await {
            tracing::warn!("cannot delete the deferred message: {e}");
        }
        http.create_followup_message(token, &followup(reply), files(reply))
            .await?;
    }
    // An edited message notifies nobody: the turn notice is a new one.
    if let Some(ping) = ping_of(reply) {
        http.create_followup_message(token, &ping, Vec::new())
            .await?;
    }
    Ok(())
}

/// The turn notice of a reply, as a follow-up message that mentions (and
/// so notifies) the one user whose turn or decision it is, and nobody else.
pub fn ping_of(reply: &Reply) -> Option<CreateInteractionResponseFollowup> {
    let (Reply::Message(m) | Reply::Update(m)) = reply else {
        return None;
    };
    let p = m.ping.as_ref().filter(|_| !m.ephemeral)?;
    Some(
        CreateInteractionResponseFollowup::new()
            .content(truncate(&format!("<@{}> {}", p.user, p.text), 2000))
            .allowed_mentions(
                CreateAllowedMentions::new().users([serenity::all::UserId::new(p.user.max(1))]),
            ),
    )
}

/// The files a reply carries (`/match export`, a picture of the board with
/// its alt text), for the edit of a deferred reply (both transports send
/// them with the edit as multipart).
pub fn files(reply: &Reply) -> Vec<CreateAttachment> {
    match reply {
        Reply::Message(m) | Reply::Update(m) => m
            .attachment
            .iter()
            .map(|a| CreateAttachment::bytes(a.text.as_bytes().to_vec(), a.filename.clone()))
            .chain(m.picture.iter().map(picture_file))
            .collect(),
        _ => Vec::new(),
    }
}

/// A picture as Discord's attachment: PNG bytes, file name, and the alt
/// text as its description (at most 1,024 characters).
pub fn picture_file(p: &super::PictureFile) -> CreateAttachment {
    CreateAttachment::bytes(p.png.clone(), p.filename.clone()).description(truncate(&p.alt, 1024))
}

/// The picture of a reply sent at once (not deferred), as a follow-up
/// message of its own with the PNG attached: an immediate interaction
/// response carries no file on the HTTP endpoint. `None` without a picture.
pub fn picture_followup(
    reply: &Reply,
) -> Option<(CreateInteractionResponseFollowup, Vec<CreateAttachment>)> {
    let (Reply::Message(m) | Reply::Update(m)) = reply else {
        return None;
    };
    let p = m.picture.as_ref()?;
    // No text: the picture alone (its alt text says what it shows).
    let message = CreateInteractionResponseFollowup::new()
        .ephemeral(m.ephemeral)
        .allowed_mentions(CreateAllowedMentions::new())
        .add_file(picture_file(p));
    Some((message, vec![picture_file(p)]))
}

/// Sends the picture of a reply sent at once as its follow-up (both
/// transports); nothing without a picture.
pub async fn send_picture(
    http: &serenity::http::Http,
    token: &str,
    reply: &Reply,
) -> serenity::Result<()> {
    if let Some((message, files)) = picture_followup(reply) {
        http.create_followup_message(token, &message, files).await?;
    }
    Ok(())
}

/// Used by tests and `commands --json`: the custom id of an action.
pub fn custom_id(action: &Action) -> String {
    action.custom_id()
}
