//! **The command registry**: every command and every `/match`, `/rules` and
//! `/feedback` subcommand declared once, as plain data: its name, options
//! (type, limits, choices, autocomplete), description, help, where and for
//! whom it is offered, the title of its refusals, and how its options
//! become a [`Command`]. Everything else derives from it: the Discord
//! definitions (`discord::definitions`), both parsers (Discord options in
//! `discord.rs`, console lines in `console.rs`, through [`Given`]), `/help`,
//! the console's usage lines; the CLI's `match` subcommands are checked
//! against it (`tests/it/cli.rs`). Names no serenity type.

use crate::app::{App, MAX_CARD_NAME_CHARS, MAX_QUERY_CHARS};
use crate::corpus::import::MAX_IMPORT_BYTES;

use super::reply::{self, Choice, Message, MessageKind, Reply};
use super::{
    Answerer, Attachment, BoardSource, Defer, MAX_ATTACHMENT_BYTES, MAX_CHOICES, MatchCommand,
    Origin, Request, RulesCommand, RulesFile, Weight, app_error, attachment_refusal, board_in_text,
    judge_modal, matchcmd::MAX_MATCH_PLAYERS, short_question,
};
use crate::app::matches::{MatchRequest, Reading};

/// The message context-menu command's name.
pub const JUDGE_MESSAGE: &str = "Judge this board";
/// Longest board accepted in the `board` option (Discord's maximum for a
/// string option).
pub const MAX_BOARD_OPTION: u16 = 6000;
/// Longest one-line play accepted in the `play` option.
pub const MAX_PLAY_OPTION: u16 = 500;

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
/// Moderator-only subcommands (undo of another's play, `end`) are checked
/// per call by the match service, since Discord sets permissions per
/// command, not per subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Everyone,
    Moderators,
    /// Members with Manage Server (a server's rule set).
    Admins,
}

/// What an option holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Integer,
    /// A Discord user (a mention or a name on the console).
    User,
    /// An attachment (a path the console reads, at most `max_bytes`).
    File {
        max_bytes: u64,
    },
}

/// The values a text option offers as a fixed list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choices {
    /// Anything (within the limits).
    Free,
    /// The indexed games (the first 25; any game id, name or alias is taken).
    Games,
    /// The kinds of a rules document (`DocumentKind`).
    DocumentKinds,
    /// Exactly these values (their own labels).
    Fixed(&'static [&'static str]),
}

/// One option of a command or subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: Kind,
    pub required: bool,
    pub max_length: Option<u16>,
    pub min_value: Option<i64>,
    pub autocomplete: bool,
    pub choices: Choices,
    /// A board document: the console reads `\n` typed as `\\n`.
    pub multiline: bool,
    /// Its completion, without a `game:`, offers the game of the channel's
    /// match first (the bot looks it up before answering).
    pub channel_game: bool,
}

const fn opt(kind: Kind, name: &'static str, description: &'static str) -> Opt {
    Opt {
        name,
        description,
        kind,
        required: false,
        max_length: None,
        min_value: None,
        autocomplete: false,
        choices: Choices::Free,
        multiline: false,
        channel_game: false,
    }
}

const fn text(name: &'static str, description: &'static str) -> Opt {
    opt(Kind::Text, name, description)
}

const fn user(name: &'static str, description: &'static str) -> Opt {
    opt(Kind::User, name, description)
}

const fn file(name: &'static str, description: &'static str, max_bytes: u64) -> Opt {
    opt(Kind::File { max_bytes }, name, description)
}

impl Opt {
    const fn required(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }
    const fn max(self, n: u16) -> Opt {
        Opt {
            max_length: Some(n),
            ..self
        }
    }
    const fn min(self, n: i64) -> Opt {
        Opt {
            min_value: Some(n),
            ..self
        }
    }
    const fn autocomplete(self) -> Opt {
        Opt {
            autocomplete: true,
            ..self
        }
    }
    const fn choices(self, choices: Choices) -> Opt {
        Opt { choices, ..self }
    }
    const fn channel_game(self) -> Opt {
        Opt {
            channel_game: true,
            ..self
        }
    }
    const fn multiline(self) -> Opt {
        Opt {
            multiline: true,
            ..self
        }
    }
}

/// How a command's (or subcommand's) options become a request.
pub type Parse = fn(&Given) -> Result<Command, String>;

/// A subcommand.
#[derive(Debug, Clone, Copy)]
pub struct Sub {
    pub name: &'static str,
    pub description: &'static str,
    pub options: &'static [Opt],
    /// On the console, the first option may be the rest of the line,
    /// without its `name:` (`/match play pass`).
    pub bare: bool,
    pub parse: Parse,
}

/// What a command takes.
#[derive(Debug, Clone, Copy)]
pub enum Body {
    /// Options of its own.
    Options {
        options: &'static [Opt],
        parse: Parse,
    },
    /// Subcommands, each with its options.
    Subs(&'static [Sub]),
    /// A message's context menu (no options; the message is the input).
    Message,
}

/// One command: everything said about it in one place.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub description: &'static str,
    pub reach: Reach,
    pub audience: Audience,
    /// The title of its replies when it is refused or times out.
    pub title: &'static str,
    /// Its paragraph of `/help` (none: not listed).
    pub help: &'static str,
    pub body: Body,
}

impl Spec {
    /// The subcommand named `name`.
    pub fn sub(&self, name: &str) -> Option<&'static Sub> {
        match self.body {
            Body::Subs(subs) => subs.iter().find(|s| s.name.eq_ignore_ascii_case(name)),
            _ => None,
        }
    }

    /// Whether any of its options is autocompleted.
    pub fn completes(&self) -> bool {
        match self.body {
            Body::Options { options, .. } => options.iter().any(|o| o.autocomplete),
            Body::Subs(subs) => subs
                .iter()
                .any(|s| s.options.iter().any(|o| o.autocomplete)),
            Body::Message => false,
        }
    }

    /// The subcommands' names (none for a command without).
    pub fn sub_names(&self) -> Vec<&'static str> {
        match self.body {
            Body::Subs(subs) => subs.iter().map(|s| s.name).collect(),
            _ => Vec::new(),
        }
    }
}

/// The declared option `option` of a command (or of its subcommand `sub`).
pub fn option(command: &str, sub: Option<&str>, option: &str) -> Option<&'static Opt> {
    let spec = find(command)?;
    let options = match (spec.body, sub) {
        (Body::Options { options, .. }, _) => options,
        (Body::Subs(_), Some(sub)) => spec.sub(sub)?.options,
        _ => return None,
    };
    options.iter().find(|o| o.name == option)
}

/// The declared command named `name` (as typed: any case).
pub fn find(name: &str) -> Option<&'static Spec> {
    ALL.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

/// A value given for an option, by Discord or typed on the console.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(String),
    Integer(i64),
    /// A user id (Discord) or a name as typed (console).
    User(String),
    File(RulesFile),
}

/// The options given to one command or subcommand, by name; `path` is how
/// it is typed (`/match play`), for messages.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Given {
    pub path: String,
    pub values: Vec<(String, Value)>,
}

impl Given {
    fn value(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A text option, if given and not empty.
    pub fn text(&self, name: &str) -> Option<String> {
        match self.value(name) {
            Some(Value::Text(s)) if !s.is_empty() => Some(s.clone()),
            _ => None,
        }
    }

    /// A required text option.
    pub fn need(&self, name: &str) -> Result<String, String> {
        self.text(name)
            .ok_or_else(|| format!("{} needs {name}:…", self.path))
    }

    pub fn integer(&self, name: &str) -> Option<i64> {
        match self.value(name) {
            Some(Value::Integer(n)) => Some(*n),
            _ => None,
        }
    }

    pub fn user(&self, name: &str) -> Option<String> {
        match self.value(name) {
            Some(Value::User(u)) if !u.is_empty() => Some(u.clone()),
            _ => None,
        }
    }

    pub fn file(&self, name: &str) -> Option<RulesFile> {
        match self.value(name) {
            Some(Value::File(f)) => Some(f.clone()),
            _ => None,
        }
    }

    /// A board: the `board` text when not blank, else the `file`. Both
    /// given are refused: one would be judged and the other silently
    /// ignored (found by an outside tester: the attachment was).
    pub fn board(&self) -> Result<Option<BoardSource>, String> {
        if let Some(text) = self.text("board").filter(|t| !t.trim().is_empty()) {
            if self.file("file").is_some() {
                return Err(
                    "give the board once: pasted in `board:` or attached as `file:`, not both"
                        .into(),
                );
            }
            return Ok(Some(BoardSource::Text(text)));
        }
        Ok(match self.file("file") {
            Some(RulesFile::Attachment(a)) => Some(BoardSource::Attachment(a)),
            Some(RulesFile::Read { filename, bytes }) => Some(BoardSource::Text(
                String::from_utf8(bytes).map_err(|_| format!("{filename} is not UTF-8 text"))?,
            )),
            None => None,
        })
    }
}

/// An attachment Discord sent.
pub fn attachment_file(a: Attachment) -> Value {
    Value::File(RulesFile::Attachment(a))
}

/// A game to search or show: autocompleted, since a server's own games
/// (`/rules add`) are not in a fixed list of choices (an outside tester's
/// server could not pick its own game in `/rule`).
const GAME_ONLY: Opt = text("game", "Only this game").autocomplete().max(100);
const BOARD: Opt = text("board", "The board document (YAML or JSON)")
    .max(MAX_BOARD_OPTION)
    .multiline();
const ON_OFF: Opt = text("state", "on or off")
    .required()
    .choices(Choices::Fixed(&["on", "off"]));

/// Every command, in registration order.
pub const ALL: &[Spec] = &[
    RULE, JUDGE, JUDGE_THIS, GAMES, SCHEMA, HELP, MATCH, RULES, CARD, FEEDBACK,
];

const RULE: Spec = Spec {
    name: "rule",
    description: "Find the rules passages that answer a question, with citations",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Rule",
    help: "**/rule** `query` `[game]` — cited rules passages for a question; the best sentence is in bold. \
Type a passage id (autocomplete suggests them) to show that passage.
> `/rule query:can an exhausted phoenixborn guard game:ashes`
> `/rule query:ashes:attack-a-unit.3`",
    body: Body::Options {
        options: &[
            text("query", "Your question, or a passage id")
                .required()
                .autocomplete()
                .channel_game()
                .max(MAX_QUERY_CHARS as u16),
            GAME_ONLY,
        ],
        parse: |g| {
            Ok(Command::Rule {
                query: g.need("query")?,
                game: g.text("game"),
            })
        },
    },
};

const JUDGE: Spec = Spec {
    name: "judge",
    description: "Adjudicate a board document: the ruling step by step, with citations",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Judge",
    help: "**/judge** `[game]` `[board]` `[file]` `[play]` — adjudicates a board document (YAML or JSON): the ruling step by step with citations, \
diagnostics and the resulting state. Paste the board, attach a `.yaml`/`.json` file (≤ 1 MB), or give neither to get a form. \
`play` judges a one-line play against the board instead of its own.
> `/judge file:board.yaml play:attack unit \"Mist Spirit\" with Hammer Knight; no counter`",
    body: Body::Options {
        options: &[
            text("game", "The game (default: the document's own `game` field)")
                .choices(Choices::Games),
            BOARD,
            file(
                "file",
                "A .yaml, .yml or .json board document (at most 1 MB)",
                MAX_ATTACHMENT_BYTES,
            ),
            text(
                "play",
                "The play in one-line notation, judged against the board (replaces its play)",
            )
            .max(MAX_PLAY_OPTION),
        ],
        parse: |g| {
            Ok(Command::Judge {
                game: g.text("game"),
                board: g.board()?,
                play: g.text("play"),
            })
        },
    },
};

const JUDGE_THIS: Spec = Spec {
    name: JUDGE_MESSAGE,
    description: "",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Judge",
    help: "**Judge this board** (right-click a message › Apps) — adjudicates the board in that message's code block or attachment.",
    body: Body::Message,
};

const GAMES: Spec = Spec {
    name: "games",
    description: "The games and rule documents indexed, with engine coverage",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Games",
    help: "**/games** `[game]` — the games and rule documents indexed, and how many passages each engine executes; with `game`, that game's contents and, per passage, whether the engine executes it.",
    body: Body::Options {
        options: &[text(
            "game",
            "One game: its contents and, per passage, what the engine executes",
        )
        .autocomplete()
        .max(100)],
        parse: |g| {
            Ok(Command::Games {
                game: g.text("game"),
            })
        },
    },
};

const SCHEMA: Spec = Spec {
    name: "schema",
    description: "A game's board document JSON Schema, as a file for your editor",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Schema",
    help: "**/schema** `game` — the game's board document JSON Schema as a file, for a YAML language server (`# yaml-language-server: $schema=…`).",
    body: Body::Options {
        options: &[text("game", "The game").required().choices(Choices::Games)],
        parse: |g| {
            Ok(Command::Schema {
                game: g.need("game")?,
            })
        },
    },
};

const HELP: Spec = Spec {
    name: "help",
    description: "How to use Arbiter, with examples",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Help",
    help: "",
    body: Body::Options {
        options: &[],
        parse: |_| Ok(Command::Help),
    },
};

const CARD: Spec = Spec {
    name: "card",
    description: "A card: its stats, text and rulings, with the rules its text names",
    reach: Reach::Anywhere,
    audience: Audience::Everyone,
    title: "Card",
    help: "**/card** `name` `[game]` — a card (autocompleted) with its type, cost, stats, text and rulings, and buttons to the rules its text names.
> `/card name:Ice Golem`",
    // Both autocompleted: a server's own cards and games are not in a fixed list.
    body: Body::Options {
        options: &[
            text("name", "The card's name (or an alias)")
                .required()
                .autocomplete()
                .channel_game()
                .max(MAX_CARD_NAME_CHARS as u16),
            GAME_ONLY,
        ],
        parse: |g| {
            Ok(Command::Card {
                name: g.need("name")?,
                game: g.text("game"),
            })
        },
    },
};

const MATCH: Spec = Spec {
    name: "match",
    description: "Keep a match in this channel: board, plays with rulings, undo, export",
    reach: Reach::GuildOnly,
    audience: Audience::Everyone,
    title: "Match",
    help: "**/match** — a match kept in this channel: `start` (game, players as seats), `setup` (the starting board, or an export), `play` (one-line notation, autocompleted), \
`answer` (a decision or proposal waiting on you: its number or words; the buttons do the same), `advance` (next phase or round), \
`adjust` (a board field, with a reason: at once for your own seat's field when it does not better your standing; another seat's, a shared one, one that ends the game or one that betters your standing is proposed to the players it touches), \
`note` (a judge's ruling on the record), `notify`, `pictures` (the board's picture on every reply, or a button), `board`, `log`, `undo` (the last event in effect, notes included: your own; a result only its winner; moderators any), \
`end` (naming the other player as winner concedes at once; claiming the win asks your opponent), `export`, `verify` (replays the log through the engine); \
`board`, `log`, `export` and `verify` take `match:N`, an earlier match of this channel. \
`; agreed by @player` asks that player to confirm the choices your play states for them.
> `/match play text:attack unit \"Mist Spirit\" with Iron Worker` (the defender then answers the guard and the counter with the buttons)
> `/match adjust field:players.Maeoni.phoenixborn.damage value:6 reason:misread die`",
    body: Body::Subs(MATCH_SUBS),
};

/// `/match` subcommands (issue 9).
const MATCH_SUBS: &[Sub] = &[
    Sub {
        name: "start",
        description: "Start a match in this channel; players take seats in order",
        options: &[
            text("game", "The game").required().choices(Choices::Games),
            user("player1", "Seat 1").required(),
            user("player2", "Seat 2").required(),
            user("player3", "Seat 3"),
            user("player4", "Seat 4"),
            user("player5", "Seat 5"),
            user("player6", "Seat 6"),
            user("player7", "Seat 7"),
            user("player8", "Seat 8"),
        ],
        bare: false,
        parse: |g| {
            let players = (1..=MAX_MATCH_PLAYERS)
                .filter_map(|n| g.user(&format!("player{n}")))
                .collect();
            matched(MatchCommand::Start {
                game: g.need("game")?,
                players,
            })
        },
    },
    Sub {
        name: "setup",
        description: "The starting board: paste it, attach it, or neither for a form",
        options: &[
            BOARD,
            file(
                "file",
                "A board or an export (.yaml, .yml, .json; at most 1 MB)",
                MAX_ATTACHMENT_BYTES,
            ),
        ],
        bare: false,
        parse: |g| matched(MatchCommand::Setup { text: g.board()? }),
    },
    Sub {
        name: "play",
        description: "Play for your seat, in one-line notation (or a YAML play:)",
        options: &[text("text", "The play")
            .required()
            .autocomplete()
            .max(MAX_PLAY_OPTION)],
        bare: true,
        parse: |g| {
            matched(MatchCommand::Play {
                text: g.need("text")?,
                expected_version: None,
            })
        },
    },
    Sub {
        name: "answer",
        description: "Answer the decision waiting for you (the buttons do the same)",
        options: &[text("choice", "The answer: its number or words")
            .required()
            .autocomplete()
            .max(100)],
        bare: true,
        parse: |g| {
            let picked = crate::app::matches::answer_of(&g.need("choice")?);
            matched(MatchCommand::Answer {
                choice: picked.choice,
                version: picked.version,
                match_id: picked.match_id,
            })
        },
    },
    Sub {
        name: "advance",
        description: "Move to the next phase or round (the turn structure; outside the indexed rules where it is)",
        options: &[text("to", "A phase to move on to").autocomplete().max(100)],
        bare: false,
        parse: |g| matched(MatchCommand::Advance { to: g.text("to") }),
    },
    Sub {
        name: "adjust",
        description: "Set one board field, on the record (your seat's fields; moderators: any)",
        options: &[
            text("field", "The field, e.g. players.Maeoni.phoenixborn.damage")
                .required()
                .autocomplete()
                .max(200),
            text(
                "value",
                "The new value (YAML: 3, true, [a, b]; null removes)",
            )
            .required()
            .max(MAX_PLAY_OPTION),
            text("reason", "Why (it goes on the record)")
                .required()
                .max(1000),
        ],
        bare: false,
        parse: |g| {
            matched(MatchCommand::Adjust {
                field: g.need("field")?,
                value: g.need("value")?,
                reason: g.need("reason")?,
            })
        },
    },
    Sub {
        name: "note",
        description: "Add a note to the record (a judge's ruling, an agreement)",
        options: &[text("text", "The note").required().max(1000)],
        bare: true,
        parse: |g| {
            matched(MatchCommand::Note {
                text: g.need("text")?,
            })
        },
    },
    Sub {
        name: "notify",
        description: "Your own turn notices (a moderator: the match's); a decision or proposal always pings",
        options: &[ON_OFF],
        bare: true,
        parse: |g| matched(MatchCommand::Notify { on: on(g) }),
    },
    Sub {
        name: "pictures",
        description: "Board pictures on this match's replies (off: a Picture button)",
        options: &[ON_OFF],
        bare: true,
        parse: |g| matched(MatchCommand::Pictures { on: on(g) }),
    },
    Sub {
        name: "board",
        description: "Show the match and its board",
        options: &[MATCH_NUMBER],
        bare: false,
        parse: |g| read(g, Reading::Board),
    },
    Sub {
        name: "log",
        description: "Plays and rulings: who, when",
        options: &[
            opt(Kind::Integer, "page", "Page (default: last)").min(1),
            MATCH_NUMBER,
        ],
        bare: false,
        parse: |g| {
            read(
                g,
                Reading::Log {
                    page: g.integer("page"),
                },
            )
        },
    },
    Sub {
        name: "undo",
        description: "Take back the last event in effect (yours; moderators: any)",
        options: &[],
        bare: false,
        parse: |_| matched(MatchCommand::Undo),
    },
    Sub {
        name: "end",
        description: "End the match (by agreement or a moderator), with a result if you like",
        options: &[
            user("winner", "The winner"),
            text("reason", "How it ended").max(1000),
        ],
        bare: false,
        parse: |g| {
            matched(MatchCommand::End {
                winner: g.user("winner"),
                reason: g.text("reason"),
            })
        },
    },
    Sub {
        name: "export",
        description: "The board and the log as a file, re-importable with setup",
        options: &[MATCH_NUMBER],
        bare: false,
        parse: |g| read(g, Reading::Export),
    },
    Sub {
        name: "verify",
        description: "Replay the log through the engine and check every stored board",
        options: &[MATCH_NUMBER],
        bare: false,
        parse: |g| read(g, Reading::Verify),
    },
];

fn matched(m: MatchCommand) -> Result<Command, String> {
    Ok(Command::Match(m))
}

/// `match:N` of the reads (`board`, `log`, `export`, `verify`): a match of
/// this channel by its number, ended or not (default: the current one).
const MATCH_NUMBER: Opt = opt(
    Kind::Integer,
    "match",
    "A match of this channel by its number, ended or not (default: the current one)",
)
.min(1)
.autocomplete();

/// A read of the channel's current match, or of the one `match:` names.
fn read(g: &Given, reading: Reading) -> Result<Command, String> {
    matched(reading.request(g.integer("match")))
}

/// `state:on|off` (validated against its choices by the parsers).
fn on(g: &Given) -> bool {
    g.text("state").as_deref() != Some("off")
}

const RULES: Spec = Spec {
    name: "rules",
    description: "This server's own rules documents: rulebooks, FAQ, errata, house rules",
    reach: Reach::GuildOnly,
    audience: Audience::Admins,
    title: "Rules",
    help: "**/rules** (server managers) — this server's own documents, seen by this server only: `add` (a rulebook, FAQ, errata, house rules or card list; Markdown, text, HTML, PDF or CSV/YAML cards; a preview to confirm first), `list`, `show` (a passage or document), `remove` (the history keeps it), `versions` (every change, by whom), `history` (the text kept of replaced and removed documents, and which open matches pin it), `prune` (delete what no open match pins; an add that needs the room prunes it too).
> `/rules add file:house.md game:ti4 kind:house`",
    body: Body::Subs(RULES_SUBS),
};

/// `/rules` subcommands (issue 16): the server's own documents.
const RULES_SUBS: &[Sub] = &[
    Sub {
        name: "add",
        description: "Add a document (Markdown, text, HTML or PDF; at most 5 MB): preview first",
        options: &[
            file("file", "The document", MAX_IMPORT_BYTES as u64).required(),
            text("game", "A game's id or name (a new name starts a new game)")
                .required()
                .max(100)
                .autocomplete(),
            text("kind", "What the document is")
                .required()
                .max(100)
                .choices(Choices::DocumentKinds),
            text("title", "The document's title (default: the file name)").max(100),
            text(
                "replace",
                "A live document this one replaces, keeping its ids (from /rules list)",
            )
            .max(100)
            .autocomplete(),
        ],
        bare: false,
        parse: |g| {
            Ok(Command::Rules(RulesCommand::Add {
                file: g.file("file").ok_or(format!("{} needs file:…", g.path))?,
                game: g.need("game")?,
                kind: g.need("kind")?.parse()?,
                title: g.text("title"),
                replace: g.text("replace"),
            }))
        },
    },
    Sub {
        name: "list",
        description: "The documents this server added",
        options: &[],
        bare: false,
        parse: |_| Ok(Command::Rules(RulesCommand::List)),
    },
    Sub {
        name: "show",
        description: "Show a passage or a document of this server's rules",
        options: &[text("id", "A passage or document id (from /rules list)")
            .required()
            .max(100)
            .autocomplete()],
        bare: false,
        parse: |g| Ok(Command::Rules(RulesCommand::Show { id: g.need("id")? })),
    },
    Sub {
        name: "remove",
        description: "Take a document out (the history keeps it)",
        options: &[text("id", "The document id, from /rules list")
            .required()
            .max(100)
            .autocomplete()],
        bare: false,
        parse: |g| Ok(Command::Rules(RulesCommand::Remove { id: g.need("id")? })),
    },
    Sub {
        name: "versions",
        description: "Every change of this server's rule set",
        options: &[text("game", "Only this game").max(100).autocomplete()],
        bare: false,
        parse: |g| {
            Ok(Command::Rules(RulesCommand::Versions {
                game: g.text("game"),
            }))
        },
    },
    Sub {
        name: "history",
        description: "What this server stores of replaced and removed documents, and which matches pin it",
        options: &[],
        bare: false,
        parse: |_| Ok(Command::Rules(RulesCommand::History)),
    },
    Sub {
        name: "prune",
        description: "Delete the text of replaced and removed documents no open match pins",
        options: &[],
        bare: false,
        parse: |_| Ok(Command::Rules(RulesCommand::Prune)),
    },
];

/// `/feedback rule|summary`: the rule that answers your last `/rule`
/// question (id autocompleted), and the server's feedback for moderators.
const FEEDBACK: Spec = Spec {
    name: "feedback",
    description: "Tell Arbiter which rule answers your last /rule question",
    // `summary` is checked per call (moderators), like `/match end`.
    reach: Reach::GuildOnly,
    audience: Audience::Everyone,
    title: "Feedback",
    help: "**/feedback** — `rule` names the rule that answers your last `/rule` question in this channel (autocompleted; the 👍 / 👎 buttons on every answer say whether it was right); `summary` (moderators) shows the server's feedback.
> `/feedback rule:ashes:attack-a-unit.3`",
    body: Body::Subs(&[
        Sub {
            name: "rule",
            description: "The rule that answers your last /rule question in this channel",
            options: &[text("rule", "The rule's id")
                .required()
                .autocomplete()
                .max(100)],
            bare: false,
            parse: |g| {
                Ok(Command::Feedback(FeedbackCommand::Rule {
                    rule: g.need("rule")?,
                }))
            },
        },
        Sub {
            name: "summary",
            description: "This server's feedback on /rule answers (moderators)",
            options: &[],
            bare: false,
            parse: |_| Ok(Command::Feedback(FeedbackCommand::Summary)),
        },
    ]),
};

/// How an option is typed on the console: `name:…`, `[name:…]` when
/// optional, the bare text first when the subcommand takes it so.
pub fn usage(options: &[Opt], bare: bool) -> String {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let shown = match (bare && i == 0, o.choices) {
                (_, Choices::Fixed(values)) => values.join("|"),
                (true, _) => o.name.to_uppercase(),
                (false, _) => format!("{}:…", o.name),
            };
            if o.required {
                shown
            } else {
                format!("[{shown}]")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `/help`: every command's paragraph, in registration order.
pub fn help_body() -> String {
    ALL.iter()
        .map(|s| s.help)
        .filter(|h| !h.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The title of a command's refusals.
pub fn title(name: &str) -> &'static str {
    let family = name.split_whitespace().next().unwrap_or(name);
    find(name)
        .or_else(|| find(family))
        .map_or("Arbiter", |s| s.title)
}

/// A value outside an option's fixed choices (a client that ignores the
/// choices offered, or a console line): what it can be.
pub fn check_choice(path: &str, opt: &Opt, value: &Value) -> Result<(), String> {
    match (opt.choices, value) {
        (Choices::Fixed(allowed), Value::Text(s)) if !allowed.contains(&s.as_str()) => {
            Err(format!("{path} takes {}", allowed.join(" or ")))
        }
        _ => Ok(()),
    }
}

/// The values given to a command or subcommand, checked against its
/// declared options: fixed choices kept to, required ones present.
pub fn given(
    path: String,
    declared: &[Opt],
    values: Vec<(String, Value)>,
) -> Result<Given, String> {
    for (name, value) in &values {
        if let Some(opt) = declared.iter().find(|o| o.name == name) {
            check_choice(&path, opt, value)?;
        }
    }
    let given = Given { path, values };
    match declared
        .iter()
        .find(|o| o.required && given.value(o.name).is_none())
    {
        Some(missing) => Err(format!("{} needs {}:…", given.path, missing.name)),
        None => Ok(given),
    }
}

// ---- The requests the declarations parse into, and how each is answered.

/// A command with its options.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `/rule query [game]`.
    Rule { query: String, game: Option<String> },
    /// `/judge [game] [board] [file] [play]`; no board opens the modal.
    /// `play` is a play in the game's one-line notation, replacing the board's.
    Judge {
        game: Option<String>,
        board: Option<BoardSource>,
        play: Option<String>,
    },
    /// "Judge this board" on a message: its content, and its first attachment.
    JudgeMessage {
        content: String,
        attachment: Option<Attachment>,
    },
    /// `/games [game]`: every game with counts, or one game's documents,
    /// contents and per-passage engine coverage.
    Games { game: Option<String> },
    /// `/schema game`: the JSON Schema of the game's board documents, as a file.
    Schema { game: String },
    /// `/help`.
    Help,
    /// `/match start|setup|play|board|log|undo|end|export`.
    Match(MatchCommand),
    /// `/rules add|list|show|remove|versions|history|prune`: the server's own documents.
    Rules(RulesCommand),
    /// `/card name [game]`: a card with its rulings and the rules it names.
    Card { name: String, game: Option<String> },
    /// `/feedback rule|summary`: feedback on `/rule` answers.
    Feedback(FeedbackCommand),
}

/// `/feedback` subcommands.
#[derive(Debug, Clone, PartialEq)]
pub enum FeedbackCommand {
    /// `/feedback rule:<id>`: the rule that answers the user's last
    /// question in this channel.
    Rule { rule: String },
    /// `/feedback summary`: the server's feedback (moderators).
    Summary,
}

impl Command {
    /// The name as logged and as typed (`rule`, `judge`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Rule { .. } => "rule",
            Command::Judge { .. } => "judge",
            Command::JudgeMessage { .. } => JUDGE_MESSAGE,
            Command::Games { .. } => "games",
            Command::Schema { .. } => "schema",
            Command::Help => "help",
            Command::Match(m) => m.name(),
            Command::Rules(r) => r.name(),
            Command::Card { .. } => "card",
            Command::Feedback(_) => "feedback",
        }
    }
}

/// **The deferral table** for commands (see [`super::deferral`]):
/// exhaustive, so a new command or `/match` subcommand does not compile
/// until it says how it is acknowledged.
pub fn defer(command: &Command) -> Defer {
    match command {
        Command::Rule { .. } | Command::Games { .. } | Command::Help | Command::Card { .. } => {
            Defer::No
        }
        // A download first.
        Command::Judge {
            board: Some(BoardSource::Attachment(_)),
            ..
        } => Defer::Public,
        Command::Judge { .. } => Defer::No,
        Command::JudgeMessage {
            content,
            attachment: Some(_),
        } if !board_in_text(content) => Defer::Public,
        Command::JudgeMessage { .. } => Defer::No,
        // A file: sent with the edit of the deferred reply.
        Command::Schema { .. } => Defer::Public,
        // A database write; the reply is for its author.
        Command::Feedback(_) => Defer::Ephemeral,
        // A download and a conversion; the preview is for its author.
        Command::Rules(RulesCommand::Add { .. }) => Defer::Ephemeral,
        // Database reads and writes.
        Command::Rules(_) => Defer::Public,
        Command::Match(m) => match m {
            // Writes: they may wait on the database.
            MatchRequest::Start { .. }
            | MatchRequest::Setup { text: Some(_) }
            | MatchRequest::Play { .. }
            | MatchRequest::Answer { .. }
            | MatchRequest::Advance { .. }
            | MatchRequest::Adjust { .. }
            | MatchRequest::Note { .. }
            | MatchRequest::Notify { .. }
            | MatchRequest::Pictures { .. }
            | MatchRequest::Undo
            | MatchRequest::End { .. } => Defer::Public,
            // Opens the form at once.
            MatchRequest::Setup { text: None } => Defer::No,
            // A file; a replay of the whole log.
            MatchRequest::Export | MatchRequest::Verify => Defer::Public,
            MatchRequest::Numbered {
                read: Reading::Export | Reading::Verify,
                ..
            } => Defer::Public,
            MatchRequest::Numbered { .. } => Defer::No,
            // Reads; `complete` is the console's (autocomplete on Discord).
            MatchRequest::Board | MatchRequest::Log { .. } | MatchRequest::Complete { .. } => {
                Defer::No
            }
        },
    }
}

/// The board attachment a command downloads before it is answered (at
/// most [`MAX_ATTACHMENT_BYTES`]; the refusals carry the command's title).
pub(super) fn board_upload(command: &Command) -> Option<&Attachment> {
    match command {
        Command::Judge {
            board: Some(BoardSource::Attachment(a)),
            ..
        }
        | Command::Match(MatchRequest::Setup {
            text: Some(BoardSource::Attachment(a)),
        }) => Some(a),
        Command::JudgeMessage {
            content,
            attachment: Some(a),
        } if !board_in_text(content) => Some(a),
        _ => None,
    }
}

/// A refusal that needs no work: a board attachment Arbiter will not
/// download, `/match`, `/rules` or `/feedback` in a direct message, a `/schema` game that is
/// unknown or has no engine. Answered at once (ephemeral), never deferred.
pub(super) fn precheck(app: &App, origin: &Origin, command: &Command) -> Option<Reply> {
    let refuse = |why: &str| {
        Some(Reply::Message(Message::user_error(
            title(command.name()),
            why,
        )))
    };
    if let Some(why) = board_upload(command).and_then(attachment_refusal) {
        return refuse(&why);
    }
    if crate::guild_key(origin).is_none()
        && let Some(why) = servers_only(command)
    {
        return refuse(why);
    }
    match command {
        Command::Schema { game } => match Answerer::new(app).schema(game) {
            Reply::Message(m) if m.kind == MessageKind::UserError => Some(Reply::Message(m)),
            _ => None,
        },
        // Neither board nor file: a form opens. A game it could not judge
        // is refused now, as `/schema` refuses it, not after a board was
        // pasted into the form and lost (found by an outside tester).
        Command::Judge {
            game: Some(game),
            board: None,
            ..
        } => Answerer::new(app).judge_game_refusal(game),
        _ => None,
    }
}

/// Why a command kept per server is refused in a direct message, or `None`
/// for a command answered anywhere. Refused before any work, so a direct
/// message never sees a public "thinking…" first (`/rules list` in a DM
/// was deferred publicly, then refused; found by an outside tester).
pub(super) fn servers_only(command: &Command) -> Option<&'static str> {
    match command {
        // A match belongs to a server channel; in a DM nobody else would see it.
        Command::Match(_) => Some(
            "matches are kept in a server channel, for all their players to see; use `/match` in a server, not in a direct message",
        ),
        Command::Rules(_) => Some(RULES_IN_A_SERVER),
        Command::Feedback(_) => Some(FEEDBACK_IN_A_SERVER),
        _ => None,
    }
}

/// `/rules` outside a server.
pub(super) const RULES_IN_A_SERVER: &str =
    "rule sets belong to a server; use `/rules` in a server, not in a direct message";
/// `/feedback` outside a server.
pub(super) const FEEDBACK_IN_A_SERVER: &str =
    "feedback is kept per server; use `/feedback` in a server, not in a direct message";

/// How much CPU answering a command takes (`app::cpu`).
pub(super) fn weight(command: &Command) -> Weight {
    match command {
        Command::Judge { .. } | Command::JudgeMessage { .. } | Command::Schema { .. } => {
            Weight::Heavy
        }
        Command::Rule { query, .. } if short_question(query) => Weight::Instant,
        _ => Weight::Light,
    }
}

/// Answers a command in the CPU pool: `fetched` is its downloaded
/// attachment, `match_game` the game of the channel's match.
pub(super) fn answer(
    a: &mut Answerer,
    request: &Request,
    command: &Command,
    fetched: Option<String>,
    match_game: Option<&str>,
) -> Reply {
    match command {
        Command::Rule { query, game } => a.rule(request, query, game.as_deref(), match_game),
        Command::Judge { game, board, play } => match (board, fetched) {
            (_, Some(text)) => a.judge_with(&text, game.as_deref(), play.as_deref()),
            (Some(BoardSource::Text(text)), None) => {
                a.judge_with(text, game.as_deref(), play.as_deref())
            }
            (Some(BoardSource::Attachment(_)), None) => Reply::Message(Message::user_error(
                "Judge",
                "the attachment could not be read",
            )),
            (None, None) => Reply::Modal(judge_modal(game.as_deref())),
        },
        Command::JudgeMessage { content, .. } => match fetched {
            Some(text) => a.judge(&text, None),
            // A code block without a `game` still gets judged, for its error.
            None if board_in_text(content) || content.contains("```") => a.judge(content, None),
            None => Reply::Message(Message::user_error(
                "Judge this board",
                "that message has no board: put a YAML board document in a code block (a line \\`\\`\\`yaml above it, a line \\`\\`\\` below it) or attach a .yaml/.yml/.json file",
            )),
        },
        Command::Games { game: None } => a.games(),
        Command::Games { game: Some(game) } => a.game_coverage(game),
        Command::Schema { game } => a.schema(game),
        Command::Help => Reply::Message(Message::info("Arbiter — help", &help_body())),
        Command::Card { name, game } => card(a, name, game.as_deref()),
        // Answered by `handle_match`, `handle_rules`, `handle_feedback` (the
        // database, async) before the pool.
        Command::Match(_) | Command::Rules(_) | Command::Feedback(_) => {
            let title = title(command.name());
            Reply::Message(Message::user_error(title, "not available here"))
        }
    }
}

/// `/card` (and a card button): the card, or did-you-mean.
pub(super) fn card(a: &mut Answerer, name: &str, game: Option<&str>) -> Reply {
    match a.app.card(name, game) {
        Ok(found) => Reply::Message(a.paged(reply::card_message(&found), false)),
        Err(e) => app_error("Card", &e),
    }
}

/// Autocomplete answered in the pool: `/rule query:` and `/card`; with no
/// `game:`, the game of the channel's match (`match_game`) is offered
/// first. (`/match`, `/rules`, `/feedback` complete from the database,
/// in their own files.)
pub(super) fn complete(
    a: &Answerer,
    command: &str,
    option: &str,
    value: &str,
    game: Option<&str>,
    match_game: Option<&str>,
) -> Reply {
    let app = a.app;
    let choices: Vec<Choice> = match (command, option) {
        ("rule", "query") => {
            // An unknown game option completes across all games rather than failing.
            let game = game.filter(|g| app.corpus.resolve_game(g).is_some());
            let list = app.complete_in(value, game, match_game, MAX_CHOICES);
            list.unwrap_or_default()
                .into_iter()
                .map(|s| Choice::passage(&s.id, &s.title))
                .collect()
        }
        ("card", "name") => app
            .complete_cards_in(value, game, match_game, MAX_CHOICES)
            .iter()
            .map(|c| Choice {
                name: reply::truncate(
                    &match c.card_type.as_str() {
                        "" => format!("{} ({})", c.name, c.game),
                        t => format!("{} — {t} ({})", c.name, c.game),
                    },
                    100,
                ),
                value: arbiter_text::short_ref(&c.name).into_owned().into(),
            })
            .collect(),
        // Games only: a typed word that is no game is no choice (it was
        // offered first, then refused as an unknown game).
        ("rule" | "card" | "games", "game") => {
            let games = app.complete_games(value, MAX_CHOICES);
            return Reply::Choices(
                games
                    .iter()
                    .map(|g| Choice::passage(&g.id, &g.title))
                    .collect(),
            );
        }
        ("card", _) => Vec::new(),
        _ => return Reply::Choices(Vec::new()),
    };
    // What was typed stays a choice, so a free question can still be sent.
    Reply::Choices(reply::keep_typed(choices, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every declared option list: the command's own or each subcommand's.
    fn option_lists() -> Vec<(String, &'static [Opt])> {
        ALL.iter()
            .flat_map(|s| match s.body {
                Body::Options { options, .. } => vec![(s.name.to_string(), options)],
                Body::Subs(subs) => subs
                    .iter()
                    .map(|sub| (format!("{} {}", s.name, sub.name), sub.options))
                    .collect(),
                Body::Message => Vec::new(),
            })
            .collect()
    }

    #[test]
    fn declarations_are_consistent() {
        for (path, options) in option_lists() {
            let mut names: Vec<&str> = options.iter().map(|o| o.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), options.len(), "{path}: an option twice");
            // Discord lists required options first.
            let first_optional = options.iter().position(|o| !o.required);
            let last_required = options.iter().rposition(|o| o.required);
            if let (Some(f), Some(l)) = (first_optional, last_required) {
                assert!(l < f, "{path}: a required option after an optional one");
            }
        }
        let start = MATCH.sub("start").expect("declared");
        let seats = start.options.iter().filter(|o| o.kind == Kind::User);
        assert_eq!(seats.count(), MAX_MATCH_PLAYERS);
        for spec in ALL {
            assert!(find(spec.name).is_some_and(|s| s.name == spec.name));
            assert_eq!(title(spec.name), spec.title);
        }
    }

    #[test]
    fn both_transports_check_choices_and_required_options_alike() {
        let notify = MATCH.sub("notify").expect("declared");
        let given = |v: &str| {
            let values = vec![("state".to_string(), Value::Text(v.into()))];
            given("/match notify".into(), notify.options, values)
        };
        assert!(given("off").is_ok());
        assert_eq!(given("maybe").unwrap_err(), "/match notify takes on or off");
        let none = super::given("/match notify".into(), notify.options, Vec::new());
        assert_eq!(none.unwrap_err(), "/match notify needs state:…");
    }
}
