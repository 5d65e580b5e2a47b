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
use serenity::all::{
    CommandOptionType, CreateCommand, CreateCommandOption, InstallationContext, InteractionContext,
    ResolvedOption,
};

use super::commands::{self, Audience, Body, Choices, Given, Kind, Opt, Reach, Spec, Value};
use super::reply::{ChoiceValue, truncate};
use super::{
    Action, Attachment, ButtonStyle, Command, Input, Message, MessageKind, Origin, Reply, Request,
};
use crate::app::App;

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
            moderator: holds(self.permissions, Permissions::MANAGE_MESSAGES),
            admin: holds(self.permissions, Permissions::MANAGE_GUILD),
        }
    }
}

/// Whether the member holds `what`: Administrator is every permission (a
/// member whose permissions were exactly "8" was refused a moderator's
/// actions; Discord grants them all).
fn holds(permissions: Option<Permissions>, what: Permissions) -> bool {
    permissions.is_some_and(|p| p.administrator() || p.contains(what))
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
                Interaction::Command(_) => command_input(&ci.data, ci.application_id.get())?,
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

/// `app`: this application's id, which no seat or winner may name.
fn command_input(data: &CommandData, app: u64) -> Result<Input, Box<Reply>> {
    match command(data, app) {
        Some(Ok(command)) => Ok(Input::Command(command)),
        Some(Err(why)) => Err(Box::new(Reply::Message(Message::user_error(
            commands::title(&data.name),
            &why,
        )))),
        None => Err(unknown(&format!("the command `{}`", data.name))),
    }
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
            InteractionType::Command => command_input(&data(self.data)?, self.application_id.get()),
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

/// "Judge this board" on a message: its content and first attachment.
fn judge_message(data: &CommandData) -> Option<Command> {
    if data.name != commands::JUDGE_MESSAGE {
        return None;
    }
    let target = data
        .target_id
        .and_then(|t| data.resolved.messages.get(&t.to_message_id()));
    Some(Command::JudgeMessage {
        content: target.map(|m| m.content.clone()).unwrap_or_default(),
        attachment: target.and_then(|m| m.attachments.first()).map(attachment),
    })
}

/// A slash command through its declaration ([`commands::ALL`]): `None`
/// for a command or subcommand this version does not declare, `Err` for
/// options its declaration refuses.
fn command(data: &CommandData, app: u64) -> Option<Result<Command, String>> {
    if data.kind == CommandType::Message {
        return judge_message(data).map(Ok);
    }
    let spec = commands::find(&data.name)?;
    let opts = data.options();
    Some(match spec.body {
        Body::Options { options, parse } => {
            given(format!("/{}", spec.name), options, &opts, app).and_then(|g| parse(&g))
        }
        Body::Subs(_) => {
            let (name, inner) = subcommand(&opts)?;
            // A subcommand this version does not know (an old registration):
            // named as such, with the ones it knows (it was "the command
            // `match` is not known").
            let Some(sub) = spec.sub(name) else {
                return Some(Err(format!(
                    "`/{} {name}` is not known to this version of Arbiter; its subcommands: {}",
                    spec.name,
                    spec.sub_names().join(", ")
                )));
            };
            given(
                format!("/{} {}", spec.name, sub.name),
                sub.options,
                inner,
                app,
            )
            .and_then(|g| (sub.parse)(&g))
        }
        Body::Message => return None,
    })
}

/// The options Discord sent, as declared values (undeclared ones skipped).
fn given(
    path: String,
    declared: &[Opt],
    opts: &[ResolvedOption<'_>],
    app: u64,
) -> Result<Given, String> {
    let mut values = Vec::new();
    for o in opts {
        let Some(decl) = declared.iter().find(|d| d.name == o.name) else {
            continue;
        };
        let value = match &o.value {
            ResolvedValue::String(s) => Value::Text(s.to_string()),
            ResolvedValue::Integer(n) => Value::Integer(*n),
            // A bot (Arbiter itself, or another) takes no seat, wins no
            // match: it could never act. Arbiter is known by its id too
            // (a payload may leave out the bot flag).
            ResolvedValue::User(u, _) if u.bot || u.id.get() == app => {
                return Err(format!(
                    "{path}: `{}` names a bot ({}); name a player",
                    decl.name,
                    crate::render::markdown::escape_inline(&u.name)
                ));
            }
            ResolvedValue::User(u, _) => Value::User(u.id.get().to_string()),
            ResolvedValue::Unresolved(Unresolved::User(id)) => Value::User(id.get().to_string()),
            ResolvedValue::Attachment(a) => commands::attachment_file(attachment(a)),
            _ => continue,
        };
        values.push((decl.name.to_string(), value));
    }
    commands::given(path, declared, values)
}

/// The subcommand's name and its own options.
fn subcommand<'a>(opts: &'a [ResolvedOption<'a>]) -> Option<(&'a str, &'a [ResolvedOption<'a>])> {
    let sub = opts.first()?;
    match &sub.value {
        ResolvedValue::SubCommand(inner) => Some((sub.name, inner.as_slice())),
        _ => None,
    }
}

/// Every declared command as serenity's builder, in registration order
/// (registered at gateway start-up; printed by `arbiter commands --json`).
pub fn definitions(app: &App) -> Vec<CreateCommand> {
    commands::ALL.iter().map(|s| definition(app, s)).collect()
}

/// The definitions as the JSON Discord receives.
pub fn definitions_json(app: &App) -> serde_json::Value {
    serde_json::to_value(definitions(app)).unwrap_or(serde_json::Value::Null)
}

fn definition(app: &App, spec: &Spec) -> CreateCommand {
    let command = CreateCommand::new(spec.name);
    let command = match spec.body {
        Body::Message => command.kind(CommandType::Message),
        Body::Options { options, .. } => options
            .iter()
            .fold(command.description(spec.description), |c, o| {
                c.add_option(option(app, o))
            }),
        Body::Subs(subs) => subs
            .iter()
            .fold(command.description(spec.description), |c, s| {
                let sub =
                    CreateCommandOption::new(CommandOptionType::SubCommand, s.name, s.description);
                c.add_option(
                    s.options
                        .iter()
                        .fold(sub, |sub, o| sub.add_sub_option(option(app, o))),
                )
            }),
    };
    with_access(command, spec.reach, spec.audience)
}

fn option(app: &App, o: &Opt) -> CreateCommandOption {
    let kind = match o.kind {
        Kind::Text => CommandOptionType::String,
        Kind::Integer => CommandOptionType::Integer,
        Kind::User => CommandOptionType::User,
        Kind::File { .. } => CommandOptionType::Attachment,
    };
    let mut opt = CreateCommandOption::new(kind, o.name, o.description)
        .required(o.required)
        .set_autocomplete(o.autocomplete);
    if let Some(n) = o.max_length {
        opt = opt.max_length(n);
    }
    if let Some(n) = o.min_value {
        opt = opt.min_int_value(n as u64);
    }
    match o.choices {
        Choices::Free => opt,
        Choices::Games => app.corpus.games.iter().take(25).fold(opt, |opt, g| {
            opt.add_string_choice(g.name.chars().take(100).collect::<String>(), g.id.clone())
        }),
        Choices::DocumentKinds => crate::corpus::DocumentKind::ALL
            .iter()
            .fold(opt, |opt, k| opt.add_string_choice(k.label(), k.as_str())),
        Choices::Fixed(values) => values
            .iter()
            .fold(opt, |opt, v| opt.add_string_choice(*v, *v)),
    }
}

/// Contexts from the reach; installed to servers only (user installs would
/// need the app's installation settings in the Developer Portal); Manage
/// Messages by default for moderator commands.
pub fn with_access(command: CreateCommand, reach: Reach, audience: Audience) -> CreateCommand {
    let contexts = match reach {
        Reach::Anywhere => vec![InteractionContext::Guild, InteractionContext::BotDm],
        Reach::GuildOnly => vec![InteractionContext::Guild],
    };
    let command = command
        .contexts(contexts)
        .integration_types(vec![InstallationContext::Guild]);
    match audience {
        Audience::Everyone => command,
        Audience::Moderators => command.default_member_permissions(Permissions::MANAGE_MESSAGES),
        Audience::Admins => command.default_member_permissions(Permissions::MANAGE_GUILD),
    }
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

/// Discord's limit on the characters of an embed's title, description and
/// footer together.
const EMBED_TOTAL: usize = 6000;

/// The embed of a message, within Discord's limits (title 256, description
/// 4096, footer 2048, and 6000 in all: the footer gives way).
pub fn embed(m: &Message) -> CreateEmbed {
    let (title, body) = (truncate(&m.title, 256), truncate(&m.body, 4096));
    let used = title.chars().count() + body.chars().count();
    let mut e = CreateEmbed::new()
        .title(title)
        .description(body)
        .color(color(m.kind));
    let room = EMBED_TOTAL.saturating_sub(used).min(2048);
    if let Some(f) = m.footer.as_deref().filter(|_| room > 1) {
        e = e.footer(CreateEmbedFooter::new(truncate(f, room)));
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
        Reply::Choices(choices) => {
            CreateInteractionResponse::Autocomplete(choices.iter().take(25).fold(
                CreateAutocompleteResponse::new(),
                |r, c| match &c.value {
                    ChoiceValue::Text(v) => {
                        r.add_string_choice(truncate(&c.name, 100), truncate(v, 100))
                    }
                    ChoiceValue::Integer(n) => r.add_int_choice(truncate(&c.name, 100), *n),
                },
            ))
        }
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

/// The interaction response as sent (both transports). An update that
/// brings no file of its own (a page turned, a preview confirmed) leaves
/// out `attachments`: Discord keeps a message's files when the field is
/// absent and removes them all on `[]`, which is what serenity writes, so
/// a page turn would take the board's picture off the message.
pub fn response_body(reply: &Reply) -> serde_json::Value {
    let mut body = serde_json::to_value(response(reply)).unwrap_or_else(
        |_| serde_json::json!({"type": 4, "data": {"content": "(nothing to show)"}}),
    );
    if let Reply::Update(m) = reply
        && m.picture.is_none()
        && m.attachment.is_none()
        && let Some(data) = body
            .get_mut("data")
            .and_then(serde_json::Value::as_object_mut)
    {
        data.remove("attachments");
    }
    body
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
/// deferral's visibility, so the deletion comes first. A call Discord
/// refuses for a while (429, 5xx) is tried again (`retried`).
pub async fn deliver_deferred(
    http: &serenity::http::Http,
    token: &str,
    reply: &Reply,
    deferred_ephemeral: bool,
) -> serenity::Result<()> {
    if is_ephemeral(reply) == deferred_ephemeral {
        let body = edit(reply);
        retried(Retry::Repeatable, || {
            http.edit_original_interaction_response(token, &body, files(reply))
        })
        .await?;
    } else {
        let deleted = retried(Retry::Repeatable, || {
            http.delete_original_interaction_response(token)
        });
        if let Err(e) = deleted.await {
            tracing::warn!("cannot delete the deferred message: {e}");
        }
        let body = followup(reply);
        retried(Retry::Unprocessed, || {
            http.create_followup_message(token, &body, files(reply))
        })
        .await?;
    }
    // An edited message notifies nobody: the turn notice is a new one.
    if let Some(ping) = ping_of(reply) {
        retried(Retry::Unprocessed, || {
            http.create_followup_message(token, &ping, Vec::new())
        })
        .await?;
    }
    Ok(())
}

/// Delivers a deferred reply ([`deliver_deferred`]); when Discord still
/// refuses it after the retries, the user is told by an ephemeral message
/// with an error id (docs/DISCORD.md: "a failed edit"), the cause logged
/// with the id, rather than "Arbiter is thinking…" left forever. If even
/// that message cannot be sent, the log has both.
pub async fn deliver_or_report(
    http: &serenity::http::Http,
    token: &str,
    reply: &Reply,
    deferred_ephemeral: bool,
) {
    let Err(e) = deliver_deferred(http, token, reply, deferred_ephemeral).await else {
        return;
    };
    let id = super::error_id();
    tracing::error!(error_id = %id, "cannot send the deferred reply: {e}");
    let notice = Reply::Message(Message::internal_error(&id));
    if let Err(e) = deliver_deferred(http, token, &notice, deferred_ephemeral).await {
        tracing::error!(error_id = %id, "cannot report the failed reply either: {e}");
    }
}

/// Which refusals of a call to Discord are worth trying again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Retry {
    /// Sending it twice does no harm (an edit, a deletion): on 429 and on
    /// any 5xx.
    Repeatable,
    /// A new message: only on 429, which Discord answers before doing
    /// anything, so a 5xx after the message was made cannot post it twice.
    Unprocessed,
}

/// The waits between the tries of a call Discord refused for a while:
/// four tries within about 4 s, well inside the interaction token's
/// 15 minutes. Serenity's own ratelimiter (the gateway, and the HTTP
/// endpoint on Discord's own API) already waits out a 429's `Retry-After`
/// before its error reaches here; with `DISCORD_API_URL` set it is off
/// (serenity sends its ratelimited requests to Discord itself, not to the
/// proxy, so the proxy rate-limits) and a 429 comes here, its
/// `retry_after` unread (serenity's error keeps only a body carrying
/// `code`, which a 429's lacks), so it waits at least a second.
const RETRY_WAITS: [std::time::Duration; 3] = [
    std::time::Duration::from_millis(300),
    std::time::Duration::from_millis(1000),
    std::time::Duration::from_millis(2500),
];

/// Runs `send`, and again after each of [`RETRY_WAITS`] while Discord
/// refuses it with a status `retry` allows.
async fn retried<T, F>(retry: Retry, mut send: impl FnMut() -> F) -> serenity::Result<T>
where
    F: std::future::Future<Output = serenity::Result<T>>,
{
    for wait in RETRY_WAITS {
        match send().await {
            Err(e) if worth_retrying(&e, retry) => {
                let rate_limited = status_of(&e) == Some(429);
                tracing::warn!("Discord refused a call for now, trying again: {e}");
                let floor = std::time::Duration::from_secs(u64::from(rate_limited));
                tokio::time::sleep(wait.max(floor)).await;
            }
            done => return done,
        }
    }
    send().await
}

/// The HTTP status of a refusal by Discord, if it was one.
fn status_of(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    }
}

fn worth_retrying(e: &serenity::Error, retry: Retry) -> bool {
    match status_of(e) {
        Some(429) => true,
        Some(s) => retry == Retry::Repeatable && (500..600).contains(&s),
        None => false,
    }
}

/// The turn notice of a reply, as a follow-up message that mentions (and
/// so notifies) the one user whose turn or decision it is, and nobody else.
pub fn ping_of(reply: &Reply) -> Option<CreateInteractionResponseFollowup> {
    let (Reply::Message(m) | Reply::Update(m)) = reply else {
        return None;
    };
    let p = m.ping.as_ref().filter(|_| !m.ephemeral)?;
    // The notice is message content, where Discord previews a link: its
    // text may quote a user's words (a reason, a unit's name), so no
    // preview is made, whatever it holds (its text is escaped too,
    // `matchcmd::add_turn_ping`; found by an outside tester).
    Some(
        CreateInteractionResponseFollowup::new()
            .flags(serenity::all::MessageFlags::SUPPRESS_EMBEDS)
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

#[cfg(test)]
mod tests {
    use super::super::Choice;
    use super::*;

    /// An integer option's choices travel as numbers (`match:N`): Discord
    /// refuses a string choice for an integer option.
    #[test]
    fn choices_keep_their_values_type() {
        let reply = Reply::Choices(vec![
            Choice {
                name: "#12 ashes, Maeoni v Coal, in play".into(),
                value: ChoiceValue::Integer(12),
            },
            Choice {
                name: "guard".into(),
                value: ChoiceValue::Text("guard".into()),
            },
        ]);
        let v = response_body(&reply);
        assert_eq!(v["type"], 8);
        assert_eq!(v["data"]["choices"][0]["value"], serde_json::json!(12));
        assert_eq!(v["data"]["choices"][1]["value"], serde_json::json!("guard"));
    }

    /// Title, description and footer stay within 6000 characters together:
    /// the footer gives way (a card with a long name and many aliases went
    /// to 6,057 and Discord refused it).
    #[test]
    fn an_embed_stays_within_discords_total() {
        let mut m = Message::info(&"T".repeat(250), &"é".repeat(4000));
        m.footer = Some("a".repeat(2048));
        let v = serde_json::to_value(embed(&m)).unwrap();
        let n = |k: &str| v[k].as_str().map_or(0, |s| s.chars().count());
        let footer = v["footer"]["text"]
            .as_str()
            .map_or(0, |s| s.chars().count());
        assert_eq!(n("title"), 250);
        assert_eq!(n("description"), 4000);
        assert_eq!(n("title") + n("description") + footer, EMBED_TOTAL);
        m.footer = Some("short".into());
        let v = serde_json::to_value(embed(&m)).unwrap();
        assert_eq!(v["footer"]["text"], "short");
    }
}
