//! `arbiter console`: commands typed as in Discord, answered by the same
//! dispatcher, rendered as text.
//!
//! ```text
//! /rule query:exhausted phoenixborn guard game:ashes
//! /rule query:ashes:attack-a-unit.3
//! /judge file:examples/ashes/attack-phoenixborn.yaml
//! /judge game:ashes            (then the board, ended by a line with only ".")
//! /complete query:guard game:ashes
//! /games
//! /help
//! /match start game:ashes player1:coal player2:maeoni
//! /match setup file:board.yaml    (or board:…, or neither: the form)
//! /match play attack unit "Mist Spirit" with Iron Worker
//! /match complete attack unit     (what autocomplete would offer)
//! /match board | log [page:N] | undo | end | export
//! /match answer 2 | advance | adjust field:F value:V reason:R | note TEXT
//! /as maeoni                   (act as another user; `/as judge moderator`)
//! 2                            (press button 2 of the last reply)
//! ```

use std::io::{BufRead, Write};

use super::{
    Action, BoardSource, Bot, Command, Input, MatchCommand, Origin, Reply, Request, matchcmd, text,
};

/// Who types at the console: `/match` commands run as this user (a name;
/// seats on the console are names), in the channel `console`.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub user: String,
    /// Acts as a moderator (Manage Messages) for `/match undo` and `end`,
    /// and as the server's admin (Manage Server) for `/rules add`/`remove`.
    pub moderator: bool,
    /// The server whose rule set `/rule` and `/rules` use (default: the
    /// console's own, `console`).
    pub guild: Option<u64>,
}

/// The user of a console that names none.
pub const DEFAULT_USER: &str = "local";

impl Default for Session {
    fn default() -> Self {
        Session {
            user: DEFAULT_USER.into(),
            moderator: false,
            guild: None,
        }
    }
}

/// What one console line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Request(Input),
    /// Press button N (1-based) of the last reply.
    Press(usize),
    /// Act as another user from now on (`/as maeoni`, `/as judge moderator`).
    As(Session),
    Quit,
    Nothing,
}

const HELP_LINE: &str = "Commands: /rule query:… [game:…]  /judge [game:…] [board:…] [file:PATH] [play:…]  /complete query:… [game:…]  /match start|setup|play|answer|advance|adjust|note|notify|complete|board|log|undo|end|export|verify …  /as USER [moderator]  /games [game:…]  /schema game:…  /card name:… [game:…]  /card complete name:…  /feedback rule:ID|summary  /help  /quit; a number presses that button";

const MATCH_HELP: &str = "/match start game:G player1:U player2:U …  |  setup [board:…] [file:PATH]  |  play TEXT  |  answer N|WORDS  |  advance [to:PHASE]  |  adjust field:F value:V reason:R  |  note TEXT  |  notify on|off  |  complete TEXT  |  board  |  log [page:N]  |  undo  |  end [winner:W] [reason:R]  |  export  |  verify";

/// The console's commands, `/match` subcommands and `/rules` subcommands,
/// for "did you mean".
const COMMANDS: &[&str] = &[
    "rule", "judge", "complete", "match", "rules", "card", "games", "schema", "help", "quit", "as",
    "feedback",
];
const MATCH_SUBS: &[&str] = &[
    "start", "setup", "play", "answer", "advance", "adjust", "note", "notify", "complete", "board",
    "log", "undo", "end", "export", "verify",
];
const RULES_SUBS: &[&str] = &["add", "list", "show", "remove", "versions", "complete"];

/// "; did you mean /rule?" for a name within two edits of a known one
/// (the closest), else ".": what follows `unknown … NAME`.
fn did_you_mean(typed: &str, known: &[&str], prefix: &str) -> String {
    crate::text::closest(typed, known.iter().copied(), 2).map_or_else(
        || ".".to_string(),
        |k| format!("; did you mean {prefix}{k}?"),
    )
}

/// `/match <sub> …`.
fn parse_match(rest: &str) -> Result<Input, String> {
    let rest = rest.trim();
    let (sub, rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let rest = rest.trim();
    // `play text:…` or the play as the rest of the line.
    let text_of = |rest: &str| {
        rest.strip_prefix("text:")
            .unwrap_or(rest)
            .trim()
            .to_string()
    };
    let command = match sub.to_lowercase().as_str() {
        "start" => {
            let keys: Vec<String> = std::iter::once("game".to_string())
                .chain((1..=matchcmd::MAX_MATCH_PLAYERS).map(|n| format!("player{n}")))
                .collect();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let o = options(rest, &keys)?;
            let mut players: Vec<(usize, String)> = o
                .iter()
                .filter_map(|(k, v)| {
                    let n = k.strip_prefix("player")?.parse().ok()?;
                    Some((n, matchcmd::user_ref(v)))
                })
                .filter(|(_, v)| !v.is_empty())
                .collect();
            players.sort();
            MatchCommand::Start {
                game: get(&o, "game").ok_or("/match start needs game:…")?,
                players: players.into_iter().map(|(_, p)| p).collect(),
            }
        }
        "setup" => {
            let o = options(rest, &["board", "file"])?;
            let board = match (get(&o, "board"), get(&o, "file")) {
                (Some(b), _) => Some(BoardSource::Text(b.replace("\\n", "\n"))),
                (None, Some(path)) => Some(BoardSource::Text(read_file(&path)?)),
                (None, None) => None,
            };
            MatchCommand::Setup { board }
        }
        "play" => {
            let text = text_of(rest);
            if text.is_empty() {
                return Err("/match play needs the play, e.g. `/match play pass`".into());
            }
            MatchCommand::Play { text }
        }
        "complete" => {
            return Ok(Input::Autocomplete {
                command: "match".into(),
                option: "text".into(),
                // The line is trimmed: complete the word after what is typed.
                value: match rest.strip_prefix("text:").unwrap_or(rest).trim() {
                    "" => String::new(),
                    typed => format!("{typed} "),
                },
                game: None,
                sub: Some("play".into()),
            });
        }
        "board" => MatchCommand::Board,
        "log" => {
            let o = options(rest, &["page"])?;
            let page = match get(&o, "page") {
                Some(p) => Some(
                    p.parse::<i64>()
                        .map_err(|_| format!("page:{p} is not a number"))?,
                ),
                None => None,
            };
            MatchCommand::Log { page }
        }
        "answer" => {
            let choice = rest
                .strip_prefix("choice:")
                .unwrap_or(rest)
                .trim()
                .to_string();
            if choice.is_empty() {
                return Err("/match answer needs an answer: its number or words".into());
            }
            MatchCommand::Answer { choice }
        }
        "advance" => {
            let o = options(rest, &["to"])?;
            MatchCommand::Advance { to: get(&o, "to") }
        }
        "adjust" => {
            let o = options(rest, &["field", "value", "reason"])?;
            let need = |k: &str| {
                get(&o, k).ok_or(format!(
                    "/match adjust needs field:… value:… reason:… ({k} is missing)"
                ))
            };
            MatchCommand::Adjust {
                field: need("field")?,
                value: need("value")?,
                reason: need("reason")?,
            }
        }
        "note" => {
            let text = text_of(rest);
            if text.is_empty() {
                return Err("/match note needs the text".into());
            }
            MatchCommand::Note { text }
        }
        "notify" => match rest.strip_prefix("state:").unwrap_or(rest).trim() {
            "on" => MatchCommand::Notify { on: true },
            "off" => MatchCommand::Notify { on: false },
            _ => return Err("/match notify takes on or off".into()),
        },
        "pictures" => match rest.strip_prefix("state:").unwrap_or(rest).trim() {
            "on" => MatchCommand::Pictures { on: true },
            "off" => MatchCommand::Pictures { on: false },
            _ => return Err("/match pictures takes on or off".into()),
        },
        "undo" => MatchCommand::Undo,
        "end" => {
            let o = options(rest, &["winner", "reason"])?;
            MatchCommand::End {
                winner: get(&o, "winner"),
                reason: get(&o, "reason"),
            }
        }
        "export" => MatchCommand::Export,
        "verify" => MatchCommand::Verify,
        "" => return Err(format!("/match needs a subcommand: {MATCH_HELP}")),
        other => {
            return Err(format!(
                "unknown /match {other}{} Subcommands: {MATCH_HELP}",
                did_you_mean(other, MATCH_SUBS, "/match ")
            ));
        }
    };
    Ok(Input::Command(Command::Match(command)))
}

/// Splits `key:value key:value` with only the given keys recognised, so
/// values may contain spaces and colons (`query:ashes:pass`).
pub fn options(rest: &str, keys: &[&str]) -> Result<Vec<(String, String)>, String> {
    let rest = rest.trim();
    let mut starts: Vec<(usize, &str)> = Vec::new();
    for key in keys {
        let pat = format!("{key}:");
        let mut from = 0;
        while let Some(i) = rest[from..].find(&pat) {
            let at = from + i;
            let boundary = at == 0 || rest[..at].ends_with(char::is_whitespace);
            if boundary && !starts.iter().any(|(s, _)| *s == at) {
                starts.push((at, key));
            }
            from = at + pat.len();
        }
    }
    starts.sort();
    // A key inside an earlier value (`query:game: …`) still starts a new option: by design.
    let lead = rest[..starts.first().map_or(rest.len(), |(at, _)| *at)].trim();
    if let Some(key) = lead
        .split_whitespace()
        .next()
        .and_then(|w| w.split_once(':'))
        .map(|(k, _)| k)
        .filter(|k| !k.is_empty())
    {
        let known: Vec<String> = keys.iter().map(|k| format!("{k}:")).collect();
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        return Err(format!(
            "unknown option `{key}:`{} The options here: {}",
            did_you_mean(&format!("{key}:"), &known, ""),
            known.join(" ")
        ));
    }
    if let Some((first, _)) = starts.first()
        && *first > 0
    {
        return Err(format!(
            "expected an option like {}:…, found `{}`",
            keys.first().unwrap_or(&"query"),
            lead
        ));
    }
    if starts.is_empty() && !rest.is_empty() {
        return Err(format!(
            "expected options {}",
            keys.iter()
                .map(|k| format!("{k}:…"))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let mut out = Vec::new();
    for (n, (at, key)) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(rest.len(), |(s, _)| *s);
        let value = rest[at + key.len() + 1..end].trim().to_string();
        out.push((key.to_string(), value));
    }
    Ok(out)
}

fn get(opts: &[(String, String)], key: &str) -> Option<String> {
    opts.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .filter(|v| !v.is_empty())
}

/// Parses one line.
pub fn parse(line: &str) -> Result<Line, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(Line::Nothing);
    }
    if let Ok(n) = line.parse::<usize>() {
        return Ok(Line::Press(n));
    }
    let Some(body) = line.strip_prefix('/') else {
        return Err(format!("commands start with `/`: try `/rule query:{line}`"));
    };
    let (name, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    if name.eq_ignore_ascii_case("as") {
        let mut words = rest.split_whitespace();
        let user = words
            .next()
            .ok_or("/as needs a user name, e.g. `/as maeoni`")?;
        let moderator = match words.next() {
            None => false,
            Some(w) if w.eq_ignore_ascii_case("moderator") => true,
            Some(w) => return Err(format!("/as USER [moderator], not '{w}'")),
        };
        return Ok(Line::As(Session {
            user: matchcmd::user_ref(user),
            moderator,
            guild: None,
        }));
    }
    let input = match name.to_lowercase().as_str() {
        "rule" => {
            let o = options(rest, &["query", "game"])?;
            let query = get(&o, "query").ok_or("/rule needs query:…")?;
            Input::Command(Command::Rule {
                query,
                game: get(&o, "game"),
            })
        }
        "judge" => {
            let o = options(rest, &["game", "board", "file", "play"])?;
            let board = match (get(&o, "board"), get(&o, "file")) {
                (Some(b), _) => Some(BoardSource::Text(b.replace("\\n", "\n"))),
                (None, Some(path)) => Some(BoardSource::Text(read_file(&path)?)),
                (None, None) => None,
            };
            Input::Command(Command::Judge {
                game: get(&o, "game"),
                board,
                play: get(&o, "play"),
            })
        }
        "complete" => {
            let o = options(rest, &["query", "game"])?;
            Input::Autocomplete {
                command: "rule".into(),
                option: "query".into(),
                value: get(&o, "query").unwrap_or_default(),
                game: get(&o, "game"),
                sub: None,
            }
        }
        "match" => parse_match(rest)?,
        "rules" => parse_rules(rest)?,
        "feedback" => parse_feedback(rest)?,
        "card" => {
            let first = rest.split_whitespace().next().unwrap_or_default();
            if !first.contains(':')
                && first != "complete"
                && crate::text::closest(first, ["complete"], 2).is_some()
            {
                return Err(format!(
                    "unknown `/card {first}`; did you mean /card complete?"
                ));
            }
            let (complete, rest) = match rest.trim_start().strip_prefix("complete") {
                Some(r) if r.is_empty() || r.starts_with(char::is_whitespace) => (true, r),
                _ => (false, rest),
            };
            let o = options(rest, &["name", "game"])?;
            let name = get(&o, "name").unwrap_or_default();
            if complete {
                // What autocomplete would offer: `/card complete name:ice`.
                Input::Autocomplete {
                    command: "card".into(),
                    option: "name".into(),
                    value: name,
                    game: get(&o, "game"),
                    sub: None,
                }
            } else {
                if name.trim().is_empty() {
                    return Err("/card needs name:…, e.g. `/card name:Ice Golem`".into());
                }
                Input::Command(Command::Card {
                    name,
                    game: get(&o, "game"),
                })
            }
        }
        "games" => {
            let o = options(rest, &["game"])?;
            Input::Command(Command::Games {
                game: get(&o, "game"),
            })
        }
        "schema" => {
            let o = options(rest, &["game"])?;
            let game = get(&o, "game").ok_or("/schema needs game:…, e.g. `/schema game:ashes`")?;
            Input::Command(Command::Schema { game })
        }
        "help" => Input::Command(Command::Help),
        "quit" | "exit" => return Ok(Line::Quit),
        other => {
            return Err(format!(
                "unknown command /{other}{} {HELP_LINE}",
                did_you_mean(other, COMMANDS, "/")
            ));
        }
    };
    Ok(Line::Request(input))
}

const RULES_HELP: &str = "/rules add file:PATH game:G kind:rules|faq|errata|house|tournament|cards [title:T]  |  list  |  show id:ID  |  remove id:ID  |  versions [game:G]  |  complete show|remove id:… / add|versions game:… (what autocomplete offers)  (add/remove: `/as USER moderator` first)";

/// `/rules …`: the console reads the file itself (at most 5 MB).
/// `/feedback rule:ID`, `/feedback summary`, `/feedback complete rule:PARTIAL`.
fn parse_feedback(rest: &str) -> Result<Input, String> {
    use super::FeedbackCommand;
    const USAGE: &str = "/feedback rule:ID (the rule that answers your last /rule question)  |  /feedback summary  |  /feedback complete rule:PARTIAL";
    let rest = rest.trim();
    let (sub, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match sub.to_lowercase().as_str() {
        "summary" => Ok(Input::Command(Command::Feedback(FeedbackCommand::Summary))),
        "complete" => Ok(Input::Autocomplete {
            command: "feedback".into(),
            option: "rule".into(),
            value: get(&options(tail, &["rule"])?, "rule").unwrap_or_default(),
            game: None,
            sub: Some("rule".into()),
        }),
        _ => {
            let o = options(rest.strip_prefix("rule ").unwrap_or(rest), &["rule"])?;
            match get(&o, "rule").filter(|r| !r.trim().is_empty()) {
                Some(rule) => Ok(Input::Command(Command::Feedback(FeedbackCommand::Rule {
                    rule,
                }))),
                None => Err(USAGE.into()),
            }
        }
    }
}

fn parse_rules(rest: &str) -> Result<Input, String> {
    use super::{RulesCommand, RulesFile};
    let (sub, rest) = rest
        .trim()
        .split_once(char::is_whitespace)
        .unwrap_or((rest.trim(), ""));
    let cmd = match sub.to_lowercase().as_str() {
        "add" => {
            let o = options(rest, &["file", "game", "kind", "title"])?;
            let path = get(&o, "file").ok_or("/rules add needs file:PATH")?;
            let bytes = read_bytes(&path, crate::corpus::import::MAX_IMPORT_BYTES as u64)?;
            let filename = std::path::Path::new(&path)
                .file_name()
                .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
            RulesCommand::Add {
                file: RulesFile::Read { filename, bytes },
                game: get(&o, "game").ok_or("/rules add needs game:…")?,
                kind: get(&o, "kind").ok_or("/rules add needs kind:…")?.parse()?,
                title: get(&o, "title"),
            }
        }
        "list" => RulesCommand::List,
        "show" => RulesCommand::Show {
            id: get(&options(rest, &["id"])?, "id").ok_or("/rules show needs id:…")?,
        },
        "remove" => RulesCommand::Remove {
            id: get(&options(rest, &["id"])?, "id").ok_or("/rules remove needs id:…")?,
        },
        "versions" => RulesCommand::Versions {
            game: get(&options(rest, &["game"])?, "game"),
        },
        // What autocomplete would offer: `/rules complete show id:ti4`.
        "complete" => {
            let (sub, rest) = rest
                .trim()
                .split_once(char::is_whitespace)
                .unwrap_or((rest.trim(), ""));
            let o = options(rest, &["id", "game"])?;
            let (option, value) = match (get(&o, "id"), get(&o, "game")) {
                (Some(id), _) => ("id", id),
                (None, Some(game)) => ("game", game),
                (None, None) => ("id", String::new()),
            };
            return Ok(Input::Autocomplete {
                command: "rules".into(),
                option: option.into(),
                value,
                game: None,
                sub: Some(sub.to_lowercase()),
            });
        }
        "" => return Err(RULES_HELP.into()),
        other => {
            return Err(format!(
                "unknown /rules {other}{} Subcommands: {RULES_HELP}",
                did_you_mean(other, RULES_SUBS, "/rules ")
            ));
        }
    };
    Ok(Input::Command(Command::Rules(cmd)))
}

/// At most `max` bytes of a file; a larger one is refused.
fn read_bytes(path: &str, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "{path} is larger than {} MB; refused",
            max / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

fn read_file(path: &str) -> Result<String, String> {
    let bytes = read_bytes(path, super::MAX_ATTACHMENT_BYTES)?;
    String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))
}

/// Reads commands until end of input or `/quit`; writes rendered replies.
/// Returns the number of lines that could not be parsed.
pub fn run(
    bot: &Bot,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    ansi: bool,
    prompt: bool,
) -> std::io::Result<usize> {
    run_as(bot, &Session::default(), input, out, ansi, prompt)
}

/// As [`run`], as the session's user. Requests are answered on a runtime of
/// the console's own (`/match` talks to the database); must not be called
/// from inside an async runtime.
pub fn run_as(
    bot: &Bot,
    session: &Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    ansi: bool,
    prompt: bool,
) -> std::io::Result<usize> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;

    let mut session = session.clone();
    let mut buttons: Vec<Action> = Vec::new();
    let mut bad = 0;
    let mut n = 0u64;
    let mut line = String::new();
    loop {
        if prompt {
            write!(out, "arbiter> ")?;
            out.flush()?;
        }
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        n += 1;
        let origin = Origin {
            id: format!("console-{n}"),
            user_name: session.user.clone(),
            moderator: session.moderator,
            admin: session.moderator,
            guild_id: session.guild,
            ..Origin::default()
        };
        let input_kind = match parse(&line) {
            Ok(Line::Nothing) => continue,
            Ok(Line::Quit) => break,
            Ok(Line::As(mut s)) => {
                s.guild = session.guild;
                let role = if s.moderator { " (moderator)" } else { "" };
                writeln!(out, "now acting as {}{role}", s.user)?;
                session = s;
                continue;
            }
            Ok(Line::Press(i)) => match i.checked_sub(1).and_then(|i| buttons.get(i)) {
                Some(a) => Input::Component {
                    custom_id: a.custom_id(),
                },
                None => {
                    writeln!(out, "no button {i} on the last reply")?;
                    bad += 1;
                    continue;
                }
            },
            Ok(Line::Request(i)) => i,
            Err(e) => {
                writeln!(out, "error: {e}")?;
                bad += 1;
                continue;
            }
        };
        let mut reply = runtime.block_on(bot.handle(&Request {
            origin: origin.clone(),
            input: input_kind,
        }));
        if let Reply::Modal(m) = &reply {
            write!(out, "{}", text::render(&reply, ansi))?;
            let mut board = String::new();
            let mut l = String::new();
            loop {
                l.clear();
                if input.read_line(&mut l)? == 0 || l.trim_end() == "." {
                    break;
                }
                board.push_str(&l);
            }
            let submit = Input::ModalSubmit {
                custom_id: m.custom_id.clone(),
                fields: vec![(m.field_id.clone(), board)],
            };
            reply = runtime.block_on(bot.handle(&Request {
                origin,
                input: submit,
            }));
        }
        if let Reply::Message(m) | Reply::Update(m) = &reply {
            buttons = m.buttons.iter().map(|b| b.action.clone()).collect();
        }
        write!(out, "{}", text::render(&reply, ansi))?;
        if let Reply::Message(m) = &reply
            && let Some(file) = &m.attachment
        {
            // The attachment's text, fenced, so a pipe can cut it out.
            writeln!(out, "--- {} ---", file.filename)?;
            write!(out, "{}", file.text)?;
            if !file.text.ends_with('\n') {
                writeln!(out)?;
            }
            writeln!(out, "--- end of {} ---", file.filename)?;
        }
        if let Some(p) = super::pictures::of_reply(&reply) {
            writeln!(out, "{}", save_picture(p, n))?;
        }
        writeln!(out)?;
    }

    Ok(bad)
}

/// Where the console writes pictures: `ARBITER_PICTURES`, or a folder
/// `arbiter-pictures` in the system's temporary directory.
pub fn pictures_dir() -> std::path::PathBuf {
    match std::env::var_os("ARBITER_PICTURES") {
        Some(d) if !d.is_empty() => d.into(),
        _ => std::env::temp_dir().join("arbiter-pictures"),
    }
}

/// Writes the picture of the reply to line `n` into [`pictures_dir`]; the
/// line saying where (and its alt text), or why it could not be written.
fn save_picture(p: &super::PictureFile, n: u64) -> String {
    let dir = pictures_dir();
    let path = dir.join(format!("board-{}-{n}.png", std::process::id()));
    let saved = std::fs::create_dir_all(&dir)
        .map_err(|e| {
            format!(
                "cannot create {}: {e}; set ARBITER_PICTURES to a folder you can write to",
                dir.display()
            )
        })
        .and_then(|()| {
            std::fs::write(&path, &p.png).map_err(|e| {
                format!(
                    "cannot write {}: {e}; set ARBITER_PICTURES to a folder you can write to",
                    path.display()
                )
            })
        });
    match saved {
        Ok(()) => format!(
            "picture: {} ({} bytes)\nalt: {}",
            path.display(),
            p.png.len(),
            p.alt
        ),
        Err(why) => format!("picture not written: {why}"),
    }
}
