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

use super::commands::{self, Body, Given, Kind, Opt, Spec, Sub, Value};
use super::{Action, Bot, Input, Origin, Reply, Request, RulesFile, matchcmd, text};

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

/// "; did you mean /rule?" for a name within two edits of a known one
/// (the closest), else ".": what follows `unknown … NAME`.
fn did_you_mean(typed: &str, known: &[&str], prefix: &str) -> String {
    arbiter_text::closest(typed, known.iter().copied(), 2).map_or_else(
        || ".".to_string(),
        |k| format!("; did you mean {prefix}{k}?"),
    )
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

/// What the console adds to the declared commands ([`commands::ALL`]).
const CONSOLE_HELP: &str = "/complete query:… [game:…]  /COMMAND complete [SUB] OPTION:… (what autocomplete offers)  /as USER [moderator]  /quit; a number presses that button";
/// Console-only words, for "did you mean".
const CONSOLE_WORDS: &[&str] = &["complete", "quit", "as"];

/// Every command as typed: the declared ones, then the console's own.
fn help_line() -> String {
    let declared: Vec<String> = commands::ALL
        .iter()
        .filter_map(|spec| match spec.body {
            Body::Options { options, .. } => Some(
                format!("/{} {}", spec.name, commands::usage(options, false))
                    .trim_end()
                    .to_string(),
            ),
            Body::Subs(_) => Some(format!("/{} {} …", spec.name, spec.sub_names().join("|"))),
            Body::Message => None,
        })
        .collect();
    format!("Commands: {}  {CONSOLE_HELP}", declared.join("  "))
}

/// A command's subcommands as typed, with what the console adds.
fn subs_help(spec: &Spec) -> String {
    let Body::Subs(subs) = spec.body else {
        return String::new();
    };
    let mut lines: Vec<String> = subs
        .iter()
        .map(|s| {
            format!("{} {}", s.name, commands::usage(s.options, s.bare))
                .trim_end()
                .to_string()
        })
        .collect();
    lines.push("complete … (what autocomplete offers)".into());
    format!("/{} {}", spec.name, lines.join("  |  "))
}

/// `/<command> …` as its declaration reads it.
fn parse_declared(spec: &Spec, rest: &str) -> Result<Input, String> {
    let (path, sub) = match spec.body {
        Body::Options { options, parse } => {
            let given = typed(format!("/{}", spec.name), options, false, rest)?;
            return parse(&given).map(Input::Command);
        }
        Body::Subs(subs) => {
            let rest = rest.trim();
            let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            match (spec.sub(word), subs.first()) {
                (Some(sub), _) => (format!("/{} {}", spec.name, sub.name), (sub, tail)),
                // Only options: the first subcommand's (`/feedback rule:ID`).
                (None, Some(first)) if takes_option(first.options, word) => {
                    (format!("/{} {}", spec.name, first.name), (first, rest))
                }
                _ => return Err(unknown_sub(spec, word)),
            }
        }
        Body::Message => return Err(format!("{} is on a message's menu, not typed", spec.name)),
    };
    let (sub, rest) = sub;
    let given = typed(path, sub.options, sub.bare, rest)?;
    (sub.parse)(&given).map(Input::Command)
}

/// Whether `word` starts one of these options (`rule:…`).
fn takes_option(options: &[Opt], word: &str) -> bool {
    options.iter().any(|o| {
        word.strip_prefix(o.name)
            .is_some_and(|r| r.starts_with(':'))
    })
}

fn unknown_sub(spec: &Spec, word: &str) -> String {
    if word.is_empty() {
        return format!("/{} needs a subcommand: {}", spec.name, subs_help(spec));
    }
    let mut known = spec.sub_names();
    known.push("complete");
    format!(
        "unknown /{} {word}{} Subcommands: {}",
        spec.name,
        did_you_mean(word, &known, &format!("/{} ", spec.name)),
        subs_help(spec)
    )
}

/// A line's `key:value` options as declared values; the console reads a
/// file option's file itself.
fn typed(path: String, declared: &[Opt], bare: bool, rest: &str) -> Result<Given, String> {
    let pairs = match declared.first() {
        Some(first) if bare => {
            let rest = rest.trim();
            let prefix = format!("{}:", first.name);
            let value = rest.strip_prefix(&prefix).unwrap_or(rest).trim();
            vec![(first.name.to_string(), value.to_string())]
        }
        _ => options(rest, &declared.iter().map(|o| o.name).collect::<Vec<_>>())?,
    };
    let mut values = Vec::new();
    for (name, raw) in pairs.into_iter().filter(|(_, v)| !v.is_empty()) {
        if let Some(opt) = declared.iter().find(|o| o.name == name) {
            stray_option(opt, &raw, declared)?;
            values.push((name, typed_value(opt, raw)?));
        }
    }
    commands::given(path, declared, values)
}

/// A `word:value` inside the value of an option that takes no free text
/// (a player, a number, a game, a kind): a mistyped option (`game:ashes
/// players:alice`), which would otherwise be read as part of the value.
/// Free text and file paths (`C:\boards\b.yaml`) may hold one, and a
/// colon before a space is text (`game:Star Wars: Legion`).
fn stray_option(opt: &Opt, raw: &str, declared: &[Opt]) -> Result<(), String> {
    let free = opt.kind == Kind::Text && opt.choices == commands::Choices::Free;
    if free || matches!(opt.kind, Kind::File { .. }) {
        return Ok(());
    }
    let word = raw.split_whitespace().find_map(|w| {
        let (key, value) = w.split_once(':')?;
        let plain = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        (plain && !key.is_empty() && !value.is_empty()).then_some(key)
    });
    let Some(word) = word else {
        return Ok(());
    };
    let known: Vec<String> = declared.iter().map(|o| format!("{}:", o.name)).collect();
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    Err(format!(
        "unknown option `{word}:` (read inside `{}:`'s value `{}`){} The options here: {}",
        opt.name,
        raw.trim(),
        did_you_mean(&format!("{word}:"), &known, ""),
        known.join(" ")
    ))
}

/// One typed value as its option's kind.
fn typed_value(opt: &Opt, raw: String) -> Result<Value, String> {
    Ok(match opt.kind {
        Kind::Text if opt.multiline => Value::Text(raw.replace("\\n", "\n")),
        Kind::Text => Value::Text(raw),
        Kind::Integer => Value::Integer(
            raw.parse()
                .map_err(|_| format!("{}:{raw} is not a number", opt.name))?,
        ),
        Kind::User => Value::User(matchcmd::user_ref(&raw)),
        Kind::File { max_bytes } => Value::File(RulesFile::Read {
            filename: std::path::Path::new(&raw)
                .file_name()
                .map_or(raw.clone(), |n| n.to_string_lossy().into_owned()),
            bytes: read_bytes(&raw, max_bytes)?,
        }),
    })
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
    let name = name.to_lowercase();
    if let Some(line) = console_only(&name, rest)? {
        return Ok(line);
    }
    match commands::find(&name) {
        Some(spec) => parse_declared(spec, rest).map(Line::Request),
        None => {
            let mut known: Vec<&str> = commands::ALL.iter().map(|s| s.name).collect();
            known.extend(CONSOLE_WORDS);
            Err(format!(
                "unknown command /{name}{} {}",
                did_you_mean(&name, &known, "/"),
                help_line()
            ))
        }
    }
}

/// The console's own lines: `/as`, `/quit`, and `complete`, which shows
/// what autocomplete would offer (`/complete query:…` for `/rule`).
fn console_only(name: &str, rest: &str) -> Result<Option<Line>, String> {
    let (first, tail) = rest
        .trim()
        .split_once(char::is_whitespace)
        .unwrap_or((rest.trim(), ""));
    let spec = commands::find(name);
    Ok(Some(match (name, spec) {
        ("as", _) => as_line(rest)?,
        ("quit" | "exit", _) => Line::Quit,
        ("complete", _) => completion(commands::find("rule").ok_or("no /rule")?, rest)?,
        (_, Some(spec)) if first.eq_ignore_ascii_case("complete") => completion(spec, tail)?,
        (_, Some(spec))
            if matches!(spec.body, Body::Options { .. })
                && !first.is_empty()
                && !first.contains(':')
                && arbiter_text::closest(first, ["complete"], 2).is_some() =>
        {
            return Err(format!(
                "unknown `/{name} {first}`; did you mean /{name} complete?"
            ));
        }
        _ => return Ok(None),
    }))
}

/// `/<command> complete [sub] [option:value …]`: what autocomplete would
/// offer for the declared option given (else the first autocompleted one).
/// A subcommand taking the rest of the line (`/match complete attack unit`)
/// completes the word after what is typed.
fn completion(spec: &Spec, rest: &str) -> Result<Line, String> {
    let rest = rest.trim();
    let (word, tail) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let completes = |s: &&Sub| s.options.iter().any(|o| o.autocomplete);
    let (sub, declared, bare, rest) = match spec.body {
        Body::Options { options, .. } => (None, options, false, rest),
        Body::Subs(subs) => match (spec.sub(word), subs.iter().find(completes)) {
            (Some(sub), _) => (Some(sub), sub.options, sub.bare, tail),
            (None, Some(sub)) => (Some(sub), sub.options, sub.bare, rest),
            (None, None) => return Err(format!("/{} completes nothing", spec.name)),
        },
        Body::Message => return Err(format!("/{} completes nothing", spec.name)),
    };
    let completed: Vec<&Opt> = declared.iter().filter(|o| o.autocomplete).collect();
    let Some(first) = completed.first() else {
        return Err(format!("/{} completes nothing", spec.name));
    };
    let (option, value, game) = if bare {
        let typed = rest
            .strip_prefix(&format!("{}:", first.name))
            .unwrap_or(rest)
            .trim();
        let value = match typed {
            "" => String::new(),
            typed => format!("{typed} "),
        };
        (first.name, value, None)
    } else {
        let o = options(rest, &declared.iter().map(|o| o.name).collect::<Vec<_>>())?;
        let chosen = completed
            .iter()
            .find(|c| get(&o, c.name).is_some())
            .unwrap_or(first);
        let game = get(&o, "game").filter(|_| chosen.name != "game");
        (chosen.name, get(&o, chosen.name).unwrap_or_default(), game)
    };
    Ok(Line::Request(Input::Autocomplete {
        command: spec.name.into(),
        option: option.into(),
        value,
        game,
        sub: sub.map(|s| s.name.to_string()),
    }))
}

/// `/as USER [moderator]`: act as another user from now on.
fn as_line(rest: &str) -> Result<Line, String> {
    let mut words = rest.split_whitespace();
    let user = words
        .next()
        .ok_or("/as needs a user name, e.g. `/as maeoni`")?;
    let moderator = match words.next() {
        None => false,
        Some(w) if w.eq_ignore_ascii_case("moderator") => true,
        Some(w) => return Err(format!("/as USER [moderator], not '{w}'")),
    };
    Ok(Line::As(Session {
        user: matchcmd::user_ref(user),
        moderator,
        guild: None,
    }))
}

/// At most `max` bytes of a file; a larger one is refused, as an import
/// refuses it.
fn read_bytes(path: &str, max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > max {
        // Said as the CLI and Discord say it: the exact size and by how
        // much it is over ("is larger than 5 MB; refused" said neither).
        let size = std::fs::metadata(path).map_or(bytes.len() as u64, |m| m.len());
        let too_large = arbiter_rules::corpus::import::ImportError::TooLarge {
            file: path.to_string(),
            size: usize::try_from(size).unwrap_or(usize::MAX),
            limit: usize::try_from(max).unwrap_or(usize::MAX),
        };
        return Err(too_large.to_string());
    }
    Ok(bytes)
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
        let help = matches!(input_kind, Input::Command(crate::Command::Help));
        let mut reply = runtime.block_on(bot.handle(&Request {
            origin: origin.clone(),
            input: input_kind,
        }));

        if let Reply::Modal(m) = &reply {
            write!(out, "{}", text::render(&reply, ansi))?;
            let mut board = String::new();
            let mut l = String::new();
            let ended = loop {
                l.clear();
                if input.read_line(&mut l)? == 0 {
                    break false;
                }
                if l.trim_end() == "." {
                    break true;
                }
                board.push_str(&l);
            };
            // Input that stops mid-paste is no board to judge (the lines
            // may be half of one).
            if !ended {
                writeln!(
                    out,
                    "error: the input ended before the line with only \".\" that ends the board; nothing was judged"
                )?;
                bad += 1;
                break;
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
        if help {
            // The console's own lines, which Discord has not.
            writeln!(out, "Console: {CONSOLE_HELP}")?;
        }
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

/// The console's pictures kept in its folder: the newest this many …
const KEEP_PICTURES: usize = 200;
/// … and of those, only the ones younger than this (the folder was never
/// pruned, and an outside tester's held a gigabyte).
const KEEP_FOR: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// A file the console wrote: `board-<process>-<line>.png` (a folder set
/// by `ARBITER_PICTURES` may hold other files, which are left alone).
fn console_picture(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("board-")
        .and_then(|r| r.strip_suffix(".png"))
    else {
        return false;
    };
    let mut parts = rest.split('-');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Of the console's pictures (path, last written), those to delete:
/// older than [`KEEP_FOR`] at `now`, or past the newest [`KEEP_PICTURES`].
fn stale(
    mut files: Vec<(std::path::PathBuf, std::time::SystemTime)>,
    now: std::time::SystemTime,
) -> Vec<std::path::PathBuf> {
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    files
        .into_iter()
        .enumerate()
        .filter(|(k, (_, at))| {
            *k >= KEEP_PICTURES || now.duration_since(*at).is_ok_and(|age| age > KEEP_FOR)
        })
        .map(|(_, (p, _))| p)
        .collect()
}

/// Deletes the console's stale pictures from `dir` ([`stale`]); a file
/// that cannot be read or deleted is left (pruning never stops a reply).
fn prune_pictures(dir: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let files = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(console_picture))
        .filter_map(|e| Some((e.path(), e.metadata().ok()?.modified().ok()?)))
        .collect();
    for path in stale(files, std::time::SystemTime::now()) {
        let _ = std::fs::remove_file(path);
    }
}

/// Writes the picture of the reply to line `n` into [`pictures_dir`]
/// (pruning its old pictures first); the line saying where (and its alt
/// text), or why it could not be written.
fn save_picture(p: &super::PictureFile, n: u64) -> String {
    let dir = pictures_dir();
    prune_pictures(&dir);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::{Duration, SystemTime};

    /// Only the console's own file names are pruned.
    #[test]
    fn only_the_consoles_pictures_are_its_own() {
        assert!(console_picture("board-20745-1.png"));
        for other in [
            "board-1.png",
            "board-a-1.png",
            "notes.png",
            "board-1-2-3.png",
            "board--1.png",
        ] {
            assert!(!console_picture(other), "{other}");
        }
    }

    /// A day-old picture goes, and past the newest [`KEEP_PICTURES`] the
    /// oldest go; the newest are kept.
    #[test]
    fn old_pictures_and_the_oldest_past_the_cap_are_pruned() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(10_000_000);
        let files: Vec<(PathBuf, SystemTime)> = (0..KEEP_PICTURES + 5)
            .map(|k| {
                let at = now - Duration::from_secs(k as u64);
                (PathBuf::from(format!("board-1-{k}.png")), at)
            })
            .chain([(
                PathBuf::from("board-2-1.png"),
                now - KEEP_FOR - Duration::from_secs(1),
            )])
            .collect();
        let gone = stale(files, now);
        assert_eq!(gone.len(), 6, "{gone:?}");
        assert!(gone.contains(&PathBuf::from("board-2-1.png")));
        assert!(gone.contains(&PathBuf::from(format!("board-1-{}.png", KEEP_PICTURES + 4))));
        assert!(!gone.contains(&PathBuf::from("board-1-0.png")));
        let few = vec![(PathBuf::from("board-1-1.png"), now)];
        assert!(stale(few, now).is_empty());
    }
}
