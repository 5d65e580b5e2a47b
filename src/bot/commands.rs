//! The application command definitions, as serenity builders (registered
//! at gateway start-up; printed by `arbiter commands --json`).

use serenity::all::{
    CommandOptionType, CommandType, CreateCommand, CreateCommandOption, InstallationContext,
    InteractionContext, Permissions,
};

use crate::app::{App, MAX_QUERY_CHARS};

/// The message context-menu command's name.
pub const JUDGE_MESSAGE: &str = "Judge this board";
/// Longest board accepted in the `board` option (Discord's maximum for a
/// string option).
pub const MAX_BOARD_OPTION: u16 = 6000;
/// Longest one-line play accepted in the `play` option.
pub const MAX_PLAY_OPTION: u16 = 500;

fn game_option(app: &App, description: &str) -> CreateCommandOption {
    let mut opt =
        CreateCommandOption::new(CommandOptionType::String, "game", description).required(false);
    for g in app.corpus.games.iter().take(25) {
        let name: String = g.name.chars().take(100).collect();
        opt = opt.add_string_choice(name, g.id.clone());
    }
    opt
}

fn sub(name: &str, description: &str) -> CreateCommandOption {
    CreateCommandOption::new(CommandOptionType::SubCommand, name, description)
}

/// `/match` and its subcommands (issue 9).
fn match_command(app: &App) -> CreateCommand {
    let mut start = sub(
        "start",
        "Start a match in this channel; players take seats in order",
    )
    .add_sub_option({
        let mut g =
            CreateCommandOption::new(CommandOptionType::String, "game", "The game").required(true);
        for game in app.corpus.games.iter().take(25) {
            let name: String = game.name.chars().take(100).collect();
            g = g.add_string_choice(name, game.id.clone());
        }
        g
    });
    for n in 1..=super::matchcmd::MAX_MATCH_PLAYERS {
        start = start.add_sub_option(
            CreateCommandOption::new(
                CommandOptionType::User,
                format!("player{n}"),
                format!("Seat {n}"),
            )
            .required(n <= 2),
        );
    }
    CreateCommand::new("match")
        .description("Keep a match in this channel: board, plays with rulings, undo, export")
        .add_option(start)
        .add_option(
            sub(
                "setup",
                "The starting board: paste it, attach it, or neither for a form",
            )
            .add_sub_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "board",
                    "The board document (YAML or JSON)",
                )
                .required(false)
                .max_length(MAX_BOARD_OPTION),
            )
            .add_sub_option(
                CreateCommandOption::new(
                    CommandOptionType::Attachment,
                    "file",
                    "A board or an export (.yaml, .yml, .json; at most 1 MB)",
                )
                .required(false),
            ),
        )
        .add_option(
            sub(
                "play",
                "Play for your seat, in one-line notation (or a YAML play:)",
            )
            .add_sub_option(
                CreateCommandOption::new(CommandOptionType::String, "text", "The play")
                    .required(true)
                    .set_autocomplete(true)
                    .max_length(MAX_PLAY_OPTION),
            ),
        )
        .add_option(
            sub("answer", "Answer the decision waiting for you (the buttons do the same)").add_sub_option(
                CreateCommandOption::new(CommandOptionType::String, "choice", "The answer: its number or words")
                    .required(true)
                    .set_autocomplete(true)
                    .max_length(100),
            ),
        )
        .add_option(
            sub("advance", "Move to the next phase or round (the turn structure; outside the indexed rules where it is)")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "to", "A phase to move on to")
                        .required(false)
                        .set_autocomplete(true)
                        .max_length(100),
                ),
        )
        .add_option(
            sub("adjust", "Set one board field, on the record (your seat's fields; moderators: any)")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "field", "The field, e.g. players.Maeoni.phoenixborn.damage")
                        .required(true)
                        .set_autocomplete(true)
                        .max_length(200),
                )
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "value", "The new value (YAML: 3, true, [a, b]; null removes)")
                        .required(true)
                        .max_length(MAX_PLAY_OPTION),
                )
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "reason", "Why (it goes on the record)")
                        .required(true)
                        .max_length(1000),
                ),
        )
        .add_option(
            sub("note", "Add a note to the record (a judge's ruling, an agreement)").add_sub_option(
                CreateCommandOption::new(CommandOptionType::String, "text", "The note")
                    .required(true)
                    .max_length(1000),
            ),
        )
        .add_option(
            sub("notify", "Ping whose turn or decision it is after each event").add_sub_option(
                CreateCommandOption::new(CommandOptionType::String, "state", "on or off")
                    .required(true)
                    .add_string_choice("on", "on")
                    .add_string_choice("off", "off"),
            ),
        )
        .add_option(
            sub("pictures", "Board pictures on this match's replies (off: a Picture button)")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "state", "on or off")
                        .required(true)
                        .add_string_choice("on", "on")
                        .add_string_choice("off", "off"),
                ),
        )
        .add_option(sub("board", "Show the match and its board"))
        .add_option(
            sub("log", "Plays and rulings: who, when").add_sub_option(
                CreateCommandOption::new(
                    CommandOptionType::Integer,
                    "page",
                    "Page (default: last)",
                )
                .required(false)
                .min_int_value(1),
            ),
        )
        .add_option(sub(
            "undo",
            "Take back the last event in effect (yours; moderators: any)",
        ))
        .add_option(
            sub("end", "End the match (by agreement or a moderator), with a result if you like")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::User, "winner", "The winner").required(false),
                )
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "reason", "How it ended")
                        .required(false)
                        .max_length(1000),
                ),
        )
        .add_option(sub(
            "export",
            "The board and the log as a file, re-importable with setup",
        ))
        .add_option(sub(
            "verify",
            "Replay the log through the engine and check every stored board",
        ))
}

/// `/rules` and its subcommands (issue 16): the server's own documents.
fn rules_command() -> CreateCommand {
    let text = |name: &str, description: &str, required: bool| {
        CreateCommandOption::new(CommandOptionType::String, name, description)
            .required(required)
            .max_length(100)
    };
    let mut kind = text("kind", "What the document is", true);
    for k in crate::corpus::DocumentKind::ALL {
        kind = kind.add_string_choice(k.label(), k.as_str());
    }
    CreateCommand::new("rules")
        .description("This server's own rules documents: rulebooks, FAQ, errata, house rules")
        .add_option(
            sub(
                "add",
                "Add a document (Markdown, text, HTML or PDF; at most 5 MB): preview first",
            )
            .add_sub_option(
                CreateCommandOption::new(CommandOptionType::Attachment, "file", "The document")
                    .required(true),
            )
            .add_sub_option(
                text(
                    "game",
                    "A game's id or name (a new name starts a new game)",
                    true,
                )
                .set_autocomplete(true),
            )
            .add_sub_option(kind)
            .add_sub_option(text(
                "title",
                "The document's title (default: the file name)",
                false,
            )),
        )
        .add_option(sub("list", "The documents this server added"))
        .add_option(
            sub(
                "show",
                "Show a passage or a document of this server's rules",
            )
            .add_sub_option(
                text("id", "A passage or document id (from /rules list)", true)
                    .set_autocomplete(true),
            ),
        )
        .add_option(
            sub("remove", "Take a document out (the history keeps it)").add_sub_option(
                text("id", "The document id, from /rules list", true).set_autocomplete(true),
            ),
        )
        .add_option(
            sub("versions", "Every change of this server's rule set")
                .add_sub_option(text("game", "Only this game", false).set_autocomplete(true)),
        )
}

/// `/feedback rule|summary`: the rule that answers your last `/rule`
/// question (id autocompleted), and the server's feedback for moderators.
fn feedback_command() -> CreateCommand {
    CreateCommand::new("feedback")
        .description("Tell Arbiter which rule answers your last /rule question")
        .add_option(
            sub(
                "rule",
                "The rule that answers your last /rule question in this channel",
            )
            .add_sub_option(
                CreateCommandOption::new(CommandOptionType::String, "rule", "The rule's id")
                    .required(true)
                    .set_autocomplete(true)
                    .max_length(100),
            ),
        )
        .add_option(sub(
            "summary",
            "This server's feedback on /rule answers (moderators)",
        ))
}

/// Where a command can be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Servers and direct messages with the bot: nothing is kept per channel.
    Anywhere,
    /// Servers only: the command keeps state in the channel for everyone
    /// there (a match), which a DM would hide from the other players.
    GuildOnly,
}

/// Who may see a command: everyone, or members with Manage Messages
/// (Discord hides it from the others; server admins can change that).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Everyone,
    Moderators,
    /// Members with Manage Server (a server's rule set).
    Admins,
}

/// **Where and for whom each command is offered**, by name: one row per
/// command, checked against the definitions by a test (every command has a
/// row). Moderator-only subcommands (undo of another's play, `end`) are
/// checked per call by the match service, since Discord sets permissions
/// per command, not per subcommand.
pub const ACCESS: &[(&str, Reach, Audience)] = &[
    ("rule", Reach::Anywhere, Audience::Everyone),
    ("judge", Reach::Anywhere, Audience::Everyone),
    (JUDGE_MESSAGE, Reach::Anywhere, Audience::Everyone),
    ("games", Reach::Anywhere, Audience::Everyone),
    ("schema", Reach::Anywhere, Audience::Everyone),
    ("help", Reach::Anywhere, Audience::Everyone),
    ("match", Reach::GuildOnly, Audience::Everyone),
    ("rules", Reach::GuildOnly, Audience::Admins),
    ("card", Reach::Anywhere, Audience::Everyone),
    // `summary` is checked per call (moderators), like `/match end`.
    ("feedback", Reach::GuildOnly, Audience::Everyone),
];

/// The command with its contexts, installation type and default
/// permissions as declared in [`ACCESS`] (a command without a row is
/// guild-only, the safe default).
fn scoped(name: &str, command: CreateCommand) -> CreateCommand {
    let (reach, audience) = ACCESS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or((Reach::GuildOnly, Audience::Everyone), |(_, r, a)| (*r, *a));
    with_access(command, reach, audience)
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

/// Every command, in registration order.
pub fn definitions(app: &App) -> Vec<CreateCommand> {
    unscoped(app)
        .into_iter()
        .map(|(name, command)| scoped(name, command))
        .collect()
}

fn unscoped(app: &App) -> Vec<(&'static str, CreateCommand)> {
    vec![
        ("rule", CreateCommand::new("rule")
            .description("Find the rules passages that answer a question, with citations")
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "query",
                    "Your question, or a passage id",
                )
                .required(true)
                .set_autocomplete(true)
                .max_length(MAX_QUERY_CHARS as u16),
            )
            .add_option(game_option(app, "Only this game"))),
        ("judge", CreateCommand::new("judge")
            .description("Adjudicate a board document: the ruling step by step, with citations")
            .add_option(game_option(
                app,
                "The game (default: the document's own `game` field)",
            ))
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "board",
                    "The board document (YAML or JSON)",
                )
                .required(false)
                .max_length(MAX_BOARD_OPTION),
            )
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::Attachment,
                    "file",
                    "A .yaml, .yml or .json board document (at most 1 MB)",
                )
                .required(false),
            )
            .add_option(
                CreateCommandOption::new(
                    CommandOptionType::String,
                    "play",
                    "The play in one-line notation, judged against the board (replaces its play)",
                )
                .required(false)
                .max_length(MAX_PLAY_OPTION),
            )),
        (JUDGE_MESSAGE, CreateCommand::new(JUDGE_MESSAGE).kind(CommandType::Message)),
        ("games", CreateCommand::new("games")
            .description("The games and rule documents indexed, with engine coverage")
            .add_option(game_option(
                app,
                "One game: its contents and, per passage, what the engine executes",
            ))),
        ("schema", CreateCommand::new("schema")
            .description("A game's board document JSON Schema, as a file for your editor")
            .add_option(game_option(app, "The game").required(true))),
        ("help", CreateCommand::new("help").description("How to use Arbiter, with examples")),
        ("match", match_command(app)),
        ("rules", rules_command()),
        ("card", card_command()),
        ("feedback", feedback_command()),
    ]
}

/// `/card name [game]`: both autocompleted (a server's own cards and games
/// are not in a fixed choice list).
fn card_command() -> CreateCommand {
    let text = |name: &str, description: &str, max: u16| {
        CreateCommandOption::new(CommandOptionType::String, name, description)
            .set_autocomplete(true)
            .max_length(max)
    };
    CreateCommand::new("card")
        .description("A card: its stats, text and rulings, with the rules its text names")
        .add_option(
            text(
                "name",
                "The card's name (or an alias)",
                crate::app::MAX_CARD_NAME_CHARS as u16,
            )
            .required(true),
        )
        .add_option(text("game", "Only this game", 100).required(false))
}

/// The definitions as the JSON Discord receives.
pub fn definitions_json(app: &App) -> serde_json::Value {
    serde_json::to_value(definitions(app)).unwrap_or(serde_json::Value::Null)
}
