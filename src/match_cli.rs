//! `arbiter match …`: every match capability offline, against the match
//! database (`--database-url`, env `DATABASE_URL`, default a SQLite file
//! `arbiter.db` in the working directory). A thin layer over
//! `app::matches::Matches`, as the Discord `/match` commands are.

use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::Arc;

use arbiter::app::App;
use arbiter::app::matches::{
    Caller, MatchError, MatchReply, MatchRequest, Matches, Reading, answer_of,
};
use arbiter::app::rulesets::RuleSets;
use arbiter::corpus::SourceGame;
use arbiter::store::{DEFAULT_DATABASE_URL, Store};
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct MatchArgs {
    /// Match database: sqlite://FILE (created if missing) or postgres://…
    #[arg(
        long,
        global = true,
        env = "DATABASE_URL",
        hide_env_values = true,
        default_value = DEFAULT_DATABASE_URL
    )]
    database_url: String,
    /// The channel (or thread) the match lives in.
    #[arg(
        long,
        short,
        global = true,
        env = "ARBITER_CHANNEL",
        default_value = "console"
    )]
    channel: String,
    /// Who is acting (a user id; on Discord, the caller).
    #[arg(long = "as", global = true, env = "ARBITER_USER", value_name = "USER")]
    user: Option<String>,
    /// Act as a moderator (may undo anyone's play, end, set up again).
    #[arg(long, global = true)]
    moderator: bool,
    /// The server (guild id) whose rule set a match started here pins;
    /// the console's is `console`.
    #[arg(long, global = true, env = "ARBITER_GUILD", default_value = "console", value_parser = crate::guild_id)]
    guild: String,
    /// Print the reply as JSON.
    #[arg(long, global = true)]
    json: bool,
    /// How long (seconds) a decision waits before the rules' default applies.
    #[arg(
        long,
        global = true,
        env = "ARBITER_DECISION_TIMEOUT",
        default_value_t = 86400
    )]
    decision_timeout: u64,
    #[command(subcommand)]
    command: MatchCommand,
}

#[derive(Subcommand)]
enum MatchCommand {
    /// Start a match: players in seat order (repeat --player).
    Start {
        #[arg(long, short)]
        game: String,
        #[arg(long = "player", short, required = true)]
        players: Vec<String>,
    },
    /// Give the starting board: a board document or an export (file, or - for stdin).
    Setup { file: PathBuf },
    /// Make a play: one line of the game's notation, or a YAML `play:` block.
    Play {
        #[arg(required = true, num_args = 1..)]
        play: Vec<String>,
        /// Refuse the play if the match is no longer at this version.
        #[arg(long)]
        expect_version: Option<i64>,
    },
    /// Show the match and its current board.
    Board {
        /// Also draw the board as a PNG at this path.
        #[arg(long, value_name = "PNG")]
        picture: Option<PathBuf>,
        /// A match of this channel by its number, ended or not (default: the current one).
        #[arg(long = "match", value_name = "N")]
        number: Option<i64>,
    },
    /// Show the log: plays, rulings, who, when (the last page by default).
    Log {
        #[arg(long)]
        page: Option<i64>,
        /// A match of this channel by its number, ended or not (default: the current one).
        #[arg(long = "match", value_name = "N")]
        number: Option<i64>,
    },
    /// Answer the decision a play waits on: an answer's number or words
    /// (only the deciding player, or a moderator).
    Answer {
        #[arg(required = true, num_args = 1..)]
        choice: Vec<String>,
        /// Refuse the answer if the match is no longer at this version
        /// (an answer typed `confirm @7.12`, as a refusal writes it: match
        /// #7, version 12, does the same).
        #[arg(long)]
        expect_version: Option<i64>,
    },
    /// Move to the next phase or round (or to --to PHASE) as the game's turn
    /// structure says; recorded as outside the indexed rules where it is.
    Advance {
        #[arg(long)]
        to: Option<String>,
    },
    /// Set one board field, on the record: `adjust players.Maeoni.phoenixborn.damage 6 --reason "…"`.
    Adjust {
        field: String,
        value: String,
        #[arg(long, required = true)]
        reason: String,
    },
    /// Add a note to the record (a judge's ruling, an agreement).
    Note {
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Your own turn notices on or off (a moderator without a seat: the whole match's).
    Notify {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Board pictures on this match's replies on or off (off: a Picture button).
    Pictures {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Take back the last event in effect (its author, or a moderator).
    Undo,
    /// End the match, optionally with a winner and a reason.
    End {
        #[arg(long)]
        winner: Option<String>,
        #[arg(long)]
        reason: Option<String>,
    },
    /// Print the board and the whole log as YAML (re-importable with `setup`).
    Export {
        /// A match of this channel by its number, ended or not (default: the current one).
        #[arg(long = "match", value_name = "N")]
        number: Option<i64>,
    },
    /// Suggest the next word of a partly typed play.
    Complete { partial: String },
    /// Replay the log through the engine and compare every stored state.
    Verify {
        /// A match of this channel by its number, ended or not (default: the current one).
        #[arg(long = "match", value_name = "N")]
        number: Option<i64>,
    },
    /// A passage as the match cites it: the server's rule set at the
    /// version the match pinned when it started.
    Cite {
        id: String,
        /// With everything under it.
        #[arg(long)]
        children: bool,
    },
    /// A rules question asked in the match's channel (as `/rule` there):
    /// when neither --game nor the question names a game, the game of the
    /// channel's match in progress is searched.
    Ask {
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
        /// Only this game (id, name or alias).
        #[arg(long, short)]
        game: Option<String>,
        /// How many passages at most, 1 to 50.
        #[arg(long, short = 'n', default_value_t = 3, value_parser = crate::passages)]
        limit: usize,
    },
}

/// Runs a `match` subcommand: 0 answered, 2 refused or bad input, 1 failure.
/// `shipped` are the sources `app` was built from (for the server's rule set).
pub fn run(app: App, shipped: Vec<SourceGame>, args: MatchArgs) -> ExitCode {
    block_on(run_async(app, shipped, args))
}

/// Runs a command's future on a runtime of its own.
pub fn block_on(command: impl std::future::Future<Output = ExitCode>) -> ExitCode {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime.block_on(command),
        Err(e) => {
            eprintln!("arbiter: cannot start the async runtime: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Opens the database (an empty URL, set but blank, means the default);
/// on failure prints why (the URL redacted) and returns `None`.
pub async fn open_store(database_url: &str) -> Option<Store> {
    let url = match database_url.trim() {
        "" => DEFAULT_DATABASE_URL,
        url => url,
    };
    match Store::connect(url).await {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("arbiter: {e}");
            None
        }
    }
}

async fn run_async(app: App, shipped: Vec<SourceGame>, args: MatchArgs) -> ExitCode {
    let Some(store) = open_store(&args.database_url).await else {
        return ExitCode::FAILURE;
    };
    let svc = Matches::for_app(store.clone(), &app)
        .with_decision_timeout(std::time::Duration::from_secs(args.decision_timeout));
    let user = args
        .user
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "console".into());
    let caller = Caller::new(args.channel.clone(), user, args.moderator)
        .with_guild(Some(args.guild.trim().to_string()));
    let out = match args.command {
        MatchCommand::Cite { id, children } => {
            let sets = RuleSets::new(store.clone(), shipped, Arc::new(app));
            cite(&svc, &sets, &caller, &id, children, args.json).await
        }
        MatchCommand::Ask { query, game, limit } => {
            let sets = RuleSets::new(store.clone(), shipped, Arc::new(app));
            let q = Question {
                text: &query.join(" "),
                game: game.as_deref(),
                limit,
            };
            ask(&svc, &sets, &caller, q, args.json).await
        }
        command => execute(&svc, &caller, command, args.json).await,
    };
    store.close().await;
    match out {
        Ok(text) => {
            if !crate::emit(&text) {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            if args.json {
                println!("{}", json(&e));
            }
            if let MatchError::BoardChanged { board: Some(b), .. } = &e {
                eprintln!("arbiter: {e}\nthe board now:");
                eprintln!("{}", serde_saphyr::to_string(b).unwrap_or_default());
            } else {
                let e = arbiter::render::text::plain_mentions(&e.to_string());
                eprintln!("arbiter: {e}");
            }
            if e.is_user_error() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// `match cite`: the passage from the rule set the channel's latest match
/// pinned (the server's current one for a match that pinned none).
async fn cite(
    svc: &Matches,
    sets: &RuleSets,
    caller: &Caller,
    id: &str,
    children: bool,
    as_json: bool,
) -> Result<String, MatchError> {
    let view = svc.board(&caller.channel).await?;
    let app = match &view.rule_set {
        Some(r) => sets.app_at(&r.guild, r.pinned).await.map_err(storage)?,
        None => match &caller.guild {
            Some(g) => sets.app_for(g).await.map_err(storage)?,
            None => return Err(MatchError::NoMatch),
        },
    };
    let reply = app.cite(id, children).map_err(|e| MatchError::Usage {
        message: e.to_string(),
    })?;
    Ok(if as_json {
        json(&reply)
    } else {
        arbiter::render::text::cite(&reply)
    })
}

/// A question for `match ask`.
struct Question<'a> {
    text: &'a str,
    game: Option<&'a str>,
    limit: usize,
}

/// `match ask`: the question, answered as `/rule` is in the match's channel:
/// from the current rule set of the server (`--guild`, else the match's), with the match's game searched when
/// neither `--game` nor the question names one.
async fn ask(
    svc: &Matches,
    sets: &RuleSets,
    caller: &Caller,
    q: Question<'_>,
    as_json: bool,
) -> Result<String, MatchError> {
    let match_game = svc.active_game(&caller.channel).await?;
    // Without --guild: the server the match was started in (it was the
    // console's rule set, whatever server the match belonged to).
    let pin = svc.active_rule_set(&caller.channel).await?;
    let guild = caller
        .guild
        .as_deref()
        .or(pin.as_ref().map(|p| p.guild.as_str()))
        .unwrap_or("console");
    let app = sets.app_for(guild).await.map_err(storage)?;
    let reply = app
        .ask_in(q.text, q.game, match_game.as_deref(), q.limit)
        .map_err(|e| MatchError::Usage {
            message: e.to_string(),
        })?;
    Ok(if as_json {
        json(&reply)
    } else {
        arbiter::render::text::ask(&reply, arbiter::render::text::Style::for_stdout())
    })
}

/// A rule set that cannot be read, as the match commands report it.
fn storage(e: arbiter::app::rulesets::RulesError) -> MatchError {
    MatchError::Storage {
        message: e.to_string(),
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    let mut s =
        serde_json::to_string_pretty(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

async fn execute(
    svc: &Matches,
    caller: &Caller,
    command: MatchCommand,
    as_json: bool,
) -> Result<String, MatchError> {
    let picture = match &command {
        MatchCommand::Board { picture, .. } => picture.clone(),
        _ => None,
    };
    let request = match command {
        MatchCommand::Start { game, players } => MatchRequest::Start { game, players },
        MatchCommand::Setup { file } => MatchRequest::Setup {
            text: crate::read_input(&file).map_err(|message| MatchError::Usage { message })?,
        },
        MatchCommand::Play {
            play,
            expect_version,
        } => MatchRequest::Play {
            text: play.join(" "),
            expected_version: expect_version,
        },
        MatchCommand::Board { number, .. } => Reading::Board.request(number),
        MatchCommand::Log { page, number } => Reading::Log { page }.request(number),
        // `confirm @7.12`, as a refusal or Discord's list writes it,
        // carries its match and version as `--expect-version` does.
        MatchCommand::Answer {
            choice,
            expect_version,
        } => {
            let picked = answer_of(&choice.join(" "));
            MatchRequest::Answer {
                choice: picked.choice,
                version: expect_version.or(picked.version),
                match_id: picked.match_id,
            }
        }
        MatchCommand::Advance { to } => MatchRequest::Advance { to },
        MatchCommand::Adjust {
            field,
            value,
            reason,
        } => MatchRequest::Adjust {
            field,
            value,
            reason,
        },
        MatchCommand::Note { text } => MatchRequest::Note {
            text: text.join(" "),
        },
        MatchCommand::Notify { state } => MatchRequest::Notify { on: state == "on" },
        MatchCommand::Pictures { state } => MatchRequest::Pictures { on: state == "on" },
        MatchCommand::Undo => MatchRequest::Undo,
        MatchCommand::End { winner, reason } => MatchRequest::End { winner, reason },
        MatchCommand::Export { number } => Reading::Export.request(number),
        MatchCommand::Complete { partial } => MatchRequest::Complete { partial },
        MatchCommand::Verify { number } => Reading::Verify.request(number),
        MatchCommand::Cite { .. } | MatchCommand::Ask { .. } => {
            return Err(MatchError::Usage {
                message: "`match cite` and `match ask` are answered from the rule set, not the match service".into(),
            });
        }
    };
    let reply = svc.handle(caller, request).await?;
    // The file goes to stdout whole; what it needs said, to stderr.
    if let MatchReply::Export(x) = &reply
        && let Some(w) = &x.warning
    {
        eprintln!("warning: {w}");
    }
    if let MatchReply::Replay(r) = &reply
        && !r.consistent
    {
        return Err(MatchError::Storage {
            message: arbiter::render::matches::reply(&reply)
                .trim_end()
                .to_string(),
        });
    }
    let mut out = if as_json {
        json(&reply)
    } else {
        arbiter::render::matches::reply(&reply)
    };
    if let Some(path) = picture {
        let line = save_board_picture(&reply, &path)?;
        if as_json {
            eprintln!("{line}");
        } else {
            out.push_str(&line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// `match board --picture`: the board drawn and written to `path`.
fn save_board_picture(reply: &MatchReply, path: &std::path::Path) -> Result<String, MatchError> {
    use arbiter::render::pictures;
    let usage = |message: String| MatchError::Usage { message };
    let MatchReply::Match(v) = reply else {
        return Err(usage("only `match board` draws a picture".into()));
    };
    let Some(board) = &v.board else {
        return Err(usage(
            "the match has no board yet; give it one with `match setup FILE`".into(),
        ));
    };
    let p = pictures::of_match(&v.game, board, v.ending().as_ref())
        .map_err(|e| usage(e.to_string()))?;
    pictures::save(&p, path).map_err(usage)
}
