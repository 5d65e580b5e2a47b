//! The `arbiter` command line. Thin: parses arguments, calls the app layer,
//! renders the reply. Exit status: 0 answered, 2 bad input, 1 failure.

mod feedback_cli;
mod match_cli;
mod rules_cli;
#[cfg(feature = "semantic")]
mod semantic_cli;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use arbiter::app::{App, AppError, DEFAULT_LIMIT, MissingVectors, SemanticState};
use arbiter::render::pictures;
use arbiter::render::text::{self, Style};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Rules assistant for tabletop games: cites rules, adjudicates plays, tracks matches"
)]
struct Cli {
    /// Folder of shipped rule data (default: ./rules_data, or beside the binary).
    #[arg(long, global = true, env = "ARBITER_DATA", value_name = "DIR")]
    data: Option<PathBuf>,
    /// Extra rule folders to load (house rules, other games); repeatable.
    #[arg(
        long = "rules-dir",
        global = true,
        env = "ARBITER_RULES_DIRS",
        value_delimiter = ':',
        value_name = "DIR"
    )]
    rules_dirs: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer a rules question with cited passages.
    Ask {
        /// The question, as a player would type it.
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
        /// Only this game (id, name or alias).
        #[arg(long, short)]
        game: Option<String>,
        /// How many passages at most, 1 to 50 (a question in parts gets at
        /// least one a part).
        #[arg(long, short = 'n', default_value_t = DEFAULT_LIMIT, value_parser = passages)]
        limit: usize,
        #[command(flatten)]
        server: ServerArgs,
        /// Print the reply as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show one passage by id, or its whole sub-tree.
    Cite {
        /// The passage's id, e.g. ashes:attack-a-unit.4 (`complete` finds ids).
        id: String,
        /// Also every passage under it.
        #[arg(long)]
        children: bool,
        #[command(flatten)]
        server: ServerArgs,
        /// Print the reply as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List games, documents and their tables of contents; or, with
    /// add|list|remove|versions, a server's rule set in DATABASE_URL.
    Rules(RulesArgs),
    /// Feedback on `/rule` answers in DATABASE_URL: export (as evaluation
    /// questions) or summary.
    Feedback(feedback_cli::FeedbackArgs),
    /// Convert a rules document (Markdown, numbered text, HTML, PDF) into a
    /// rule-data folder that --rules-dir loads, and print its preview.
    Import {
        /// The document (at most 5 MB).
        file: PathBuf,
        /// The game: a known id, name or alias (extends it), or a new name.
        #[arg(long, short)]
        game: String,
        /// What the document is.
        #[arg(long, default_value = "rules")]
        kind: arbiter::corpus::DocumentKind,
        /// Document title (default: from the file name).
        #[arg(long)]
        title: Option<String>,
        /// Folder to write (created; must not hold a manifest.yaml yet).
        /// Without it, only the preview is printed.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print the preview as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Adjudicate the play in a board document (a file, or - for stdin).
    Judge {
        /// The board document (YAML or JSON; `arbiter schema GAME` gives its shape).
        file: PathBuf,
        /// Use this game instead of the document's `game` field.
        #[arg(long, short)]
        game: Option<String>,
        /// The play, in the game's one-line notation (replaces the document's `play`).
        #[arg(long)]
        play: Option<String>,
        #[command(flatten)]
        server: ServerArgs,
        /// Print the ruling as JSON.
        #[arg(long)]
        json: bool,
        /// Also draw the board after the ruling, changes marked, as a PNG at this path.
        #[arg(long, value_name = "PNG")]
        picture: Option<PathBuf>,
    },
    /// Print the JSON Schema of a game's board documents.
    Schema {
        /// The game: id, name or alias.
        game: String,
    },
    /// Suggest passage ids for a partial id or title (as Discord autocomplete does).
    Complete {
        /// The beginning of an id, or words of a title.
        partial: String,
        /// Only this game (id, name or alias).
        #[arg(long, short)]
        game: Option<String>,
        /// How many suggestions at most.
        #[arg(long, short = 'n', default_value_t = 25)]
        limit: usize,
        #[command(flatten)]
        server: ServerArgs,
        /// Print the suggestions as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show a card (by name or alias): stats, text, rulings, the rules its
    /// text names; with --complete, card names matching NAME (fuzzy, ≤ 25).
    Card {
        /// The card's name or alias (a near miss gets a did-you-mean).
        #[arg(required = true, num_args = 1..)]
        name: Vec<String>,
        /// Only this game's cards (id, name or alias).
        #[arg(long, short)]
        game: Option<String>,
        /// List the card names matching NAME instead (as Discord autocomplete does).
        #[arg(long)]
        complete: bool,
        #[command(flatten)]
        server: ServerArgs,
        /// Print the card as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Track a match in a channel: start, setup, play, board, log, undo, end, export.
    Match(match_cli::MatchArgs),
    /// The semantic stage: compute rule folders' passage vectors ahead
    /// (`vectors`), time the encoder (`time`), print a vector (`embed`).
    #[cfg(feature = "semantic")]
    #[command(subcommand)]
    Semantic(semantic_cli::SemanticCommand),
    /// Run the Discord bot: the gateway (DISCORD_TOKEN), or the HTTP
    /// interactions endpoint with --http (DISCORD_PUBLIC_KEY).
    Serve(Box<ServeArgs>),
    /// Type bot commands (`/rule query:… game:…`, `/match …`) and read the replies, offline.
    Console(ConsoleArgs),
    /// Exit 0 when the server's GET /healthz answers 200 (for container HEALTHCHECKs).
    Healthcheck {
        /// Address of the server (default: ARBITER_HEALTH_LISTEN, else ARBITER_LISTEN, else 127.0.0.1:8080).
        #[arg(long, value_name = "ADDR")]
        addr: Option<String>,
    },
    /// Print the Discord command definitions.
    Commands {
        /// As the JSON Discord receives (the only format).
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct RulesArgs {
    /// One game's documents and table of contents (id, name or alias).
    game: Option<String>,
    /// For each passage, whether the engine executes it and where.
    #[arg(long)]
    coverage: bool,
    /// Table-of-contents depth shown in text output.
    #[arg(long, default_value_t = 3)]
    depth: usize,
    /// Print the reply as JSON.
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    set_opts: rules_cli::RuleSetOpts,
    /// A server's rule set (DATABASE_URL): add, list, remove, versions.
    #[command(subcommand)]
    set: Option<rules_cli::RuleSetCommand>,
}

/// Which rule set a one-shot command reads: the shipped games alone, or a
/// server's (the shipped games plus its uploaded documents), as `/rule`,
/// `/judge` and `/card` in that server do.
#[derive(clap::Args, Clone)]
struct ServerArgs {
    /// Answer from this server's rule set (its guild id; the console's is
    /// `console`): the shipped games plus the documents it added with
    /// `rules add` or `/rules add`, read from DATABASE_URL.
    #[arg(long, value_name = "GUILD", value_parser = guild_id)]
    guild: Option<String>,
    /// With --guild: the database of servers' rule sets (default
    /// sqlite://arbiter.db).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
}

#[derive(clap::Args)]
struct ConsoleArgs {
    /// Who you are for `/match` (seats on the console are names).
    #[arg(long, env = "ARBITER_CONSOLE_USER", default_value = arbiter::bot::console::DEFAULT_USER)]
    user: String,
    /// Act as a moderator (Manage Messages): undo anyone's play, end the
    /// match; and as the server's admin for `/rules add` and `remove`.
    #[arg(long)]
    moderator: bool,
    /// The server (guild id) whose rule set `/rule` and `/rules` use
    /// (default: the console's own).
    #[arg(long, env = "ARBITER_GUILD", value_parser = guild_id)]
    guild: Option<String>,
    /// The match database (default: sqlite://arbiter.db, created if missing).
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// How long a match decision waits before the rules' default applies.
    #[arg(long, env = "ARBITER_DECISION_TIMEOUT", default_value = "86400", value_parser = seconds, value_name = "SECS")]
    decision_timeout: std::time::Duration,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Serve Discord's HTTP interactions endpoint on this address instead of the gateway.
    #[arg(long, env = "ARBITER_LISTEN", value_name = "ADDR")]
    http: Option<std::net::SocketAddr>,
    /// The application's public key (hex), for --http.
    #[arg(long, env = "DISCORD_PUBLIC_KEY", hide_env_values = true)]
    public_key: Option<String>,
    /// The bot token, for the gateway.
    #[arg(long, env = "DISCORD_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Register commands to this guild only (instant, for development) instead of globally.
    #[arg(long, env = "DISCORD_GUILD_ID", value_parser = snowflake)]
    guild: Option<u64>,
    /// Run this many shards in this process (default: as Discord recommends).
    #[arg(long, conflicts_with = "shard_range")]
    shards: Option<u32>,
    /// Run shards FIRST-LAST (inclusive) of --total-shards, for several processes.
    #[arg(long, value_name = "FIRST-LAST", requires = "total_shards")]
    shard_range: Option<String>,
    /// Total shards across all processes (with --shard-range).
    #[arg(long)]
    total_shards: Option<u32>,
    /// Match database: sqlite://PATH (default sqlite://arbiter.db) or postgres://….
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Log format: text or json.
    #[arg(long, env = "ARBITER_LOG_FORMAT", default_value = "text")]
    log_format: String,
    /// With the gateway: also serve GET /healthz on this address.
    #[arg(long, env = "ARBITER_HEALTH_LISTEN", value_name = "ADDR")]
    health: Option<std::net::SocketAddr>,
    /// Serve GET /metrics (Prometheus) and GET /healthz on this address, for
    /// a scraper on a private network; never on the public endpoint.
    #[arg(long, env = "ARBITER_METRICS_LISTEN", value_name = "ADDR")]
    metrics: Option<std::net::SocketAddr>,
    /// Memory for servers' rule-set indexes, in MB: the least recently used
    /// are dropped past it (and rebuilt when asked again).
    #[arg(
        long,
        env = "ARBITER_INDEX_CACHE_MB",
        default_value_t = 512,
        value_name = "MB"
    )]
    index_cache_mb: usize,
    /// Base URL of Discord's API (for tests and proxies).
    #[arg(long, env = "DISCORD_API_URL", hide = true)]
    discord_api: Option<String>,
    /// Most open HTTP connections (keep under `ulimit -n` less 100); past it
    /// an idle one is closed, or the new one answered 503.
    #[arg(
        long,
        env = "ARBITER_MAX_CONNECTIONS",
        default_value_t = 1024,
        value_name = "N"
    )]
    max_connections: usize,
    /// How long a match decision waits for its player before the rules'
    /// default applies (decisions with no default wait until answered).
    #[arg(long, env = "ARBITER_DECISION_TIMEOUT", default_value = "86400", value_parser = seconds, value_name = "SECS")]
    decision_timeout: std::time::Duration,
    /// Seconds a client may take to send a request's headers.
    #[arg(long, env = "ARBITER_HEADER_TIMEOUT", default_value = "5", value_parser = seconds, value_name = "SECS")]
    header_timeout: std::time::Duration,
    /// Seconds a client may take to send a request's body.
    #[arg(long, env = "ARBITER_BODY_TIMEOUT", default_value = "10", value_parser = seconds, value_name = "SECS")]
    body_timeout: std::time::Duration,
    /// Seconds an HTTP connection may stay open with no request.
    #[arg(long, env = "ARBITER_IDLE_TIMEOUT", default_value = "60", value_parser = seconds, value_name = "SECS")]
    idle_timeout: std::time::Duration,
    /// Seconds shutdown waits for interactions in flight (under docker stop's 10).
    #[arg(long, env = "ARBITER_DRAIN_TIMEOUT", default_value = "8", value_parser = seconds, value_name = "SECS")]
    drain_timeout: std::time::Duration,
    /// Boards judged at once (default: the CPU cores, at least 2).
    #[arg(long, env = "ARBITER_CPU_WORKERS", value_name = "N")]
    cpu_workers: Option<usize>,
    /// Seconds one interaction answered at once may spend waiting for and
    /// using a CPU worker (deferred ones get 10).
    #[arg(long, env = "ARBITER_CPU_BUDGET", default_value = "2.5", value_parser = seconds, value_name = "SECS")]
    cpu_budget: std::time::Duration,
}

/// A duration in seconds (`2.5`), positive and at most a day.
fn seconds(s: &str) -> Result<std::time::Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(v > 0.0 && v <= 86_400.0) {
        return Err(format!("{s} s is out of range (0 < seconds ≤ 86400)"));
    }
    Ok(std::time::Duration::from_secs_f64(v))
}

/// A `--guild` value: a server's id (its digits, as Discord's "Copy Server
/// ID" gives it) or `console`, the console's own rule set. Every command
/// takes the same ones: `arbiter console --guild cg` failed with "invalid
/// digit found in string" while `rules add --guild g1` stored a rule set
/// no server or console could reach (found by an outside tester).
pub(crate) fn guild_id(s: &str) -> Result<String, String> {
    let s = s.trim();
    if s == "console" {
        return Ok(s.to_string());
    }
    snowflake(s).map(|id| id.to_string())
}

/// A server's id exactly as Discord writes it: digits, no sign, no leading
/// zero (a snowflake). "0123" and "+123" parsed as 123, but `rules add`
/// stored the rule set under "0123", which server 123 (and `console
/// --guild 0123`, which read 123) never reached (found by an outside
/// tester): such a value is refused, the id it may mean named.
pub(crate) fn snowflake(s: &str) -> Result<u64, String> {
    const HOW: &str = "a server's id is its digits, as Discord's \"Copy Server ID\" gives them (or `console`, the console's own rule set)";
    let s = s.trim();
    let digits = s.strip_prefix('+').unwrap_or(s);
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match digits.trim_start_matches('0').parse::<u64>() {
        Ok(id) if all_digits && digits == s && !s.starts_with('0') => Ok(id),
        Ok(id) if all_digits => Err(format!(
            "'{s}' is written with a sign or a leading zero, which no server's id has; {HOW} (did you mean {id}?)"
        )),
        _ => Err(HOW.into()),
    }
}

/// How many passages a search returns: 1 to 50 (what the search serves).
pub(crate) fn passages(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ 1..=50) => Ok(n),
        _ => Err(format!("'{s}' is not a number of passages from 1 to 50")),
    }
}

fn main() -> ExitCode {
    // A document conversion in a child process (arbiter::sandbox): before
    // anything else is read or loaded.
    let raw: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if raw.get(1).map(String::as_str) == Some(arbiter::sandbox::CHILD_COMMAND) {
        return arbiter::sandbox::child_main(&raw[2..]);
    }
    let cli = Cli::parse();
    let log_format = match &cli.command {
        Command::Serve(a) => a.log_format.clone(),
        _ => std::env::var("ARBITER_LOG_FORMAT").unwrap_or_default(),
    };
    init_logging(&log_format);
    if let Command::Healthcheck { addr } = &cli.command {
        return healthcheck(addr.clone());
    }
    let data = cli
        .data
        .clone()
        .unwrap_or_else(arbiter::load::default_data_dir);
    #[cfg(feature = "semantic")]
    if let Command::Semantic(command) = cli.command {
        return semantic_cli::run(command, data);
    }
    // Serving and the console embed the passages no vectors file has in
    // the background; a one-shot command would exit first: it answers
    // lexically and says so (docs/SEARCH.md, "The semantic stage").
    let missing = match &cli.command {
        Command::Serve(_) | Command::Console(_) => MissingVectors::Background,
        _ => MissingVectors::Lexical,
    };
    let app = match App::load_with(&data, &cli.rules_dirs, missing) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    let command = match cli.command {
        Command::Match(args) => {
            return match_cli::run(app, shipped_sources(&data, &cli.rules_dirs), args);
        }
        Command::Rules(RulesArgs {
            set: Some(command),
            set_opts,
            json,
            ..
        }) => {
            let args = rules_cli::RuleSetArgs {
                opts: set_opts,
                command,
                json,
            };
            return rules_cli::run(app, &data, &cli.rules_dirs, args);
        }
        Command::Feedback(args) => return feedback_cli::run(args),
        Command::Serve(args) => return serve(app, *args, shipped_sources(&data, &cli.rules_dirs)),
        Command::Console(args) => {
            return console(app, args, shipped_sources(&data, &cli.rules_dirs));
        }
        other => other,
    };
    let asks = matches!(command, Command::Ask { .. });
    let server = match &command {
        // `rules GAME --guild G`: that server's games, as `/games` shows them.
        Command::Rules(RulesArgs { set_opts, .. }) => set_opts
            .server()
            .map(|g| (g, Some(set_opts.database_url()))),
        _ => command.server().and_then(ServerArgs::guild),
    };
    let app = match server {
        Some((guild, url)) => match server_app(app, &data, &cli.rules_dirs, guild, url, asks) {
            Ok(app) => app,
            Err((code, e)) => {
                eprintln!("arbiter: {e}");
                return ExitCode::from(code);
            }
        },
        None => std::sync::Arc::new(app),
    };
    match run(&app, command) {
        Ok(out) => {
            if !emit(&out) {
                return ExitCode::from(2);
            }
            if asks {
                lexical_note(&app);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::from(2)
        }
    }
}

impl Command {
    /// The rule-set option of a one-shot command that reads rules.
    fn server(&self) -> Option<&ServerArgs> {
        match self {
            Command::Ask { server, .. }
            | Command::Cite { server, .. }
            | Command::Judge { server, .. }
            | Command::Complete { server, .. }
            | Command::Card { server, .. } => Some(server),
            _ => None,
        }
    }
}

impl ServerArgs {
    /// The server named, and the database to read its rule set from.
    fn guild(&self) -> Option<(&str, Option<&str>)> {
        let guild = self.guild.as_deref()?;
        Some((guild, self.database_url.as_deref()))
    }
}

/// The index of a server's rule set for a one-shot command (`--guild`):
/// the shipped games plus the server's live documents, built once, as the
/// bot answers in that server. A server that added nothing answers from
/// the shipped rules, and says so. With `stage` (a question), the index
/// gets its semantic stage from the vectors at hand (shipped and stored),
/// and passages without one are said on stderr. Errors: (exit status,
/// message).
fn server_app(
    app: App,
    data: &std::path::Path,
    extra: &[PathBuf],
    guild: &str,
    url: Option<&str>,
    stage: bool,
) -> Result<std::sync::Arc<App>, (u8, String)> {
    use arbiter::app::rulesets::RuleSets;
    let guild = guild.trim();
    if guild.is_empty() {
        return Err((
            2,
            "--guild is empty: give the server's guild id (the console's rule set is `console`)"
                .into(),
        ));
    }
    let shipped = arbiter::load::load_all(data, extra).map_err(|e| (2, e.to_string()))?;
    let url = database_url(url);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| (1, format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        let store = arbiter::store::Store::connect(url)
            .await
            .map_err(|e| (1, e.to_string()))?;
        let sets = RuleSets::new(store.clone(), shipped, std::sync::Arc::new(app)).without_warming();
        let built = async {
            if store.rule_set_version(guild).await? == 0 {
                eprintln!("arbiter: server {guild} has added no documents: answering from the shipped rules");
            }
            let app = sets.app_for(guild).await?;
            let missing = if stage { sets.stage_now(&app).await } else { 0 };
            if missing > 0 {
                eprintln!(
                    "arbiter: {} of server {guild}'s documents have no semantic vector yet, so they are ranked lexically; `arbiter semantic vectors --guild {guild}` computes and stores them once (a running bot does it too)",
                    arbiter::text::count(missing, "passage")
                );
            }
            Ok::<_, arbiter::app::rulesets::RulesError>(app)
        }
        .await
        .map_err(|e| (1, e.to_string()));
        store.close().await;
        built
    })
}

/// The database a `--guild` command reads: the one given, else the default.
fn database_url(url: Option<&str>) -> &str {
    url.map(str::trim)
        .filter(|u| !u.is_empty())
        .unwrap_or(arbiter::store::DEFAULT_DATABASE_URL)
}

/// `arbiter semantic vectors --guild G`: embeds the passages of a server's
/// documents that have no stored vector (every core) and stores them, so
/// that every later answer there, one-shot or bot, uses the stage.
#[cfg(feature = "semantic")]
pub fn server_vectors(
    data: &std::path::Path,
    guild: &str,
    url: Option<&str>,
) -> Result<String, String> {
    use arbiter::app::rulesets::RuleSets;
    let shipped = arbiter::load::load_all(data, &[]).map_err(|e| e.to_string())?;
    let app = App::load_with(data, &[], arbiter::app::MissingVectors::Lexical)
        .map_err(|e| e.to_string())?;
    let url = database_url(url);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let store = arbiter::store::Store::connect(url).await.map_err(|e| e.to_string())?;
        let sets = RuleSets::new(store.clone(), shipped, std::sync::Arc::new(app)).without_warming();
        let started = std::time::Instant::now();
        let server = sets.app_for(guild.trim()).await.map_err(|e| e.to_string())?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let done = sets.embed_now(&server, threads).await;
        store.close().await;
        match done {
            Some(n) => Ok(format!(
                "server {}: {n} passages embedded and stored in {:.1} s ({} passages in its index)\n",
                guild.trim(),
                started.elapsed().as_secs_f64(),
                server.corpus.passages.len()
            )),
            None => Err("the semantic model could not be loaded, or the vectors could not be stored".into()),
        }
    })
}

/// Says on stderr, after an answer, that the passages of rule folders
/// without vectors are ranked lexically, and how to compute them.
fn lexical_note(app: &App) {
    if let SemanticState::Missing { passages, folders } = app.semantic_state() {
        let folders: Vec<String> = folders.iter().map(|f| f.display().to_string()).collect();
        eprintln!(
            "arbiter: {passages} passages of {} have no semantic vector, so they are ranked lexically; `arbiter semantic vectors {}` computes them once for every later question",
            folders.join(", "),
            folders.join(" ")
        );
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    let mut s =
        serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

/// A failure the CLI reports with exit status 2.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("{0}")]
    App(#[from] AppError),
    #[error("{0}")]
    Input(String),
}

/// Reads a file, or standard input for `-`, with a reason on failure.
/// Writes a command's output; a reader that stops early (`| head`) is no
/// error. False (said on stderr) when the output cannot be written.
fn emit(text: &str) -> bool {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("arbiter: cannot write the output: {e}");
            false
        }
        _ => true,
    }
}

fn read_input(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    // Read whole up to the largest document a command takes (an export):
    // the app states a board's or an export's own limit with the real
    // size; a cut text would read as broken YAML.
    let cap = arbiter::engine::document::MAX_EXPORT_BYTES;
    let mut bytes = Vec::new();
    let res = if path.as_os_str() == "-" {
        std::io::stdin()
            .take(cap as u64 + 1)
            .read_to_end(&mut bytes)
            .map(|_| ())
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(cap as u64 + 1).read_to_end(&mut bytes))
            .map(|_| ())
    };
    res.map_err(|e| cannot_read(path, &e))?;
    if bytes.len() > cap {
        // In KB rounded up, with the bytes, as every size over a limit.
        let size = std::fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map_or_else(
                || format!("more than {} KB ({cap} bytes)", cap / 1024),
                |m| {
                    let bytes = usize::try_from(m.len()).unwrap_or(usize::MAX);
                    let kb = arbiter::engine::document::size_text(bytes);
                    format!("{kb} ({bytes} bytes)")
                },
            );
        return Err(format!(
            "{} is too large, {size}: a board may be {} KB and a match export {} KB. To go on from a match export this large, set up its board alone (the file's `board:` part, a board document)",
            path.display(),
            arbiter::engine::document::MAX_BOARD_BYTES / 1024,
            cap / 1024
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

fn run(app: &App, command: Command) -> Result<String, CliError> {
    let style = Style::for_stdout();
    Ok(match command {
        Command::Ask {
            query,
            game,
            limit,
            json: as_json,
            ..
        } => {
            let query = query.join(" ");
            // "what does 13.4 say" shows that passage, as `/rule` does (the
            // JSON stays an ask reply for scripts).
            if let Some(id) = app.rule_named(&query, game.as_deref()).filter(|_| !as_json) {
                return Ok(text::cite(&app.cite(&id, false)?));
            }
            let reply = app.ask(&query, game.as_deref(), limit)?;
            if as_json {
                json(&reply)
            } else {
                text::ask(&reply, style)
            }
        }
        Command::Cite {
            id,
            children,
            json: as_json,
            ..
        } => {
            let reply = app.cite(&id, children)?;
            if as_json {
                json(&reply)
            } else {
                text::cite(&reply)
            }
        }
        Command::Rules(RulesArgs {
            game,
            coverage: true,
            json: as_json,
            ..
        }) => {
            let reply = app.coverage(game.as_deref())?;
            if as_json {
                json(&reply)
            } else {
                text::coverage(&reply)
            }
        }
        Command::Rules(RulesArgs {
            game,
            depth,
            json: as_json,
            ..
        }) => {
            let reply = app.rules(game.as_deref())?;
            if as_json {
                json(&reply)
            } else {
                text::rules(&reply, depth)
            }
        }
        Command::Judge {
            file,
            game,
            play,
            json: as_json,
            picture,
            ..
        } => {
            let input = read_input(&file).map_err(CliError::Input)?;
            let ruling = match &play {
                Some(line) => app.judge_notation(&input, game.as_deref(), line),
                None => app.judge(&input, game.as_deref()),
            }
            .map_err(judge_error)?;
            let mut out = if as_json {
                json(&ruling)
            } else {
                text::ruling(&ruling)
            };
            if let Some(path) = picture {
                let doc = app
                    .judged_document(&input, game.as_deref(), play.as_deref())
                    .map_err(judge_error)?;
                let pic =
                    pictures::ruling(&ruling, &doc).map_err(|e| CliError::Input(e.to_string()))?;
                let line = pictures::save(&pic, &path).map_err(CliError::Input)?;
                if as_json {
                    eprintln!("{line}");
                } else {
                    out.push_str(&line);
                    out.push('\n');
                }
            }
            out
        }
        Command::Import {
            file,
            game,
            kind,
            title,
            out,
            json: as_json,
        } => import(
            app,
            &file,
            &game,
            kind,
            title.as_deref(),
            out.as_deref(),
            as_json,
        )?,
        Command::Schema { game } => {
            let schema = app
                .schema(&game)
                .map_err(|e| CliError::Input(e.to_string()))?;
            json(&schema)
        }
        Command::Complete {
            partial,
            game,
            limit,
            json: as_json,
            ..
        } => {
            let list = app.complete(&partial, game.as_deref(), limit)?;
            if as_json {
                json(&list)
            } else {
                text::suggestions(&list)
            }
        }
        Command::Card {
            name,
            game,
            complete: true,
            json: as_json,
            ..
        } => {
            let list = app.complete_cards(&name.join(" "), game.as_deref(), 25);
            if as_json {
                json(&list)
            } else {
                text::card_suggestions(&list)
            }
        }
        Command::Card {
            name,
            game,
            json: as_json,
            ..
        } => {
            let reply = app.card(&name.join(" "), game.as_deref())?;
            if as_json {
                json(&reply)
            } else {
                text::card(&reply)
            }
        }
        Command::Commands { .. } => json(&arbiter::bot::discord::definitions_json(app)),
        Command::Serve(_)
        | Command::Feedback(_)
        | Command::Console(_)
        | Command::Healthcheck { .. }
        | Command::Match(_) => {
            return Err(CliError::Input("handled in main".into()));
        }
        #[cfg(feature = "semantic")]
        Command::Semantic(_) => {
            return Err(CliError::Input("handled in main".into()));
        }
    })
}

/// `arbiter import`: convert, preview, and write the folder when asked.
fn import(
    app: &App,
    file: &std::path::Path,
    game: &str,
    kind: arbiter::corpus::DocumentKind,
    title: Option<&str>,
    out: Option<&std::path::Path>,
    as_json: bool,
) -> Result<String, CliError> {
    use arbiter::corpus::import::{ImportRequest, MAX_IMPORT_BYTES};
    let bytes = read_bytes(file, MAX_IMPORT_BYTES).map_err(CliError::Input)?;
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let req = ImportRequest {
        file_name: &name,
        bytes: &bytes,
        game,
        kind,
        title,
    };
    let target = app
        .import_target(&req)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let limits = arbiter::sandbox::Limits::default();
    let done = arbiter::sandbox::convert_blocking(&target, &bytes, &limits)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let mut imported = arbiter::corpus::import::Import::new(&app.corpus, &target, done.converted);
    arbiter::cards::warn_taken_aliases(&app.corpus, &mut imported);
    if let Some(dir) = out {
        arbiter::load::write_import(dir, &imported).map_err(|e| CliError::Input(e.to_string()))?;
    }
    let mut shown = if as_json {
        json(&imported.preview)
    } else {
        text::import_preview(&imported.preview)
    };
    if let (Some(dir), false) = (out, as_json) {
        shown.push_str(&format!(
            "Wrote {}; load it with: arbiter --rules-dir {} …\n",
            dir.display(),
            dir.display()
        ));
    }
    Ok(shown)
}

/// Reads at most `limit + 1` bytes of a file (one more than allowed, so an
/// oversized file is seen as such without reading all of it).
fn read_bytes(path: &std::path::Path, limit: usize) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let size = std::fs::metadata(path).map_or(0, |m| m.len() as usize);
    if size > limit {
        let file = path.display().to_string();
        return Err(
            arbiter::corpus::import::ImportError::TooLarge { file, size, limit }.to_string(),
        );
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| cannot_read(path, &e))?;
    Ok(bytes)
}

/// Why a file given on the command line could not be read, in words (by
/// the error's kind; "Is a directory (os error 21)" was the system's).
fn cannot_read(path: &std::path::Path, e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let file = path.display();
    match e.kind() {
        K::NotFound => format!("cannot read {file}: there is no such file"),
        K::IsADirectory => format!("cannot read {file}: it is a folder; give a file in it"),
        K::PermissionDenied => format!("cannot read {file}: permission to read it is denied"),
        _ => format!("cannot read {file}: {e}"),
    }
}

/// Logs go to stderr: human-readable, or JSON lines with `json`. The level
/// comes from RUST_LOG (default `info`, serenity at `warn`).
fn init_logging(format: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,serenity=warn,tracing::span=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if format.eq_ignore_ascii_case("json") {
        builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .try_init()
    } else {
        builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init()
    };
}

/// The shipped sources again (the app keeps only their index), for the
/// per-server indexes; empty, with a warning, if they no longer load.
fn shipped_sources(data: &std::path::Path, extra: &[PathBuf]) -> Vec<arbiter::corpus::SourceGame> {
    arbiter::load::load_all(data, extra).unwrap_or_else(|e| {
        tracing::warn!("server rule sets will be searched without the shipped games: {e}");
        Vec::new()
    })
}

fn console(app: App, args: ConsoleArgs, shipped: Vec<arbiter::corpus::SourceGame>) -> ExitCode {
    use arbiter::bot::{Bot, BotConfig, console::Session};
    let config = BotConfig {
        database_url: args.database_url,
        decision_timeout: args.decision_timeout,
        // One user, offline: a question after an upload waits for its index.
        index_wait: std::time::Duration::from_secs(300),
        ..BotConfig::default()
    };
    let bot = Bot::new(std::sync::Arc::new(app), config).with_shipped(shipped);
    let session = Session {
        user: args.user,
        moderator: args.moderator,
        // `console` is the console's own rule set, as with no --guild.
        guild: args.guild.and_then(|g| g.parse().ok()),
    };
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    if interactive {
        eprintln!(
            "Arbiter console: type /help, /games, /rule query:… game:…, /match start|setup|play|board|log|undo|end|export …; /quit or Ctrl-D to leave."
        );
    }
    let ansi = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    match arbiter::bot::console::run_as(
        &bot,
        &session,
        &mut stdin.lock(),
        &mut out,
        ansi,
        interactive,
    ) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(2),
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves on ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutdown requested; finishing in-flight interactions");
}

fn serve(app: App, args: ServeArgs, shipped: Vec<arbiter::corpus::SourceGame>) -> ExitCode {
    use arbiter::bot::{Bot, BotConfig, gateway, http};
    let defaults = arbiter::app::cpu::Limits::default();
    arbiter::app::cpu::configure(arbiter::app::cpu::Limits {
        workers: args.cpu_workers.unwrap_or(defaults.workers),
        budget: args.cpu_budget,
    });
    let limits = http::ConnLimits {
        max_connections: args.max_connections,
        header_timeout: args.header_timeout,
        body_timeout: args.body_timeout,
        idle_timeout: args.idle_timeout,
        drain: args.drain_timeout,
    };
    let config = BotConfig {
        database_url: args.database_url.clone(),
        decision_timeout: args.decision_timeout,
        index_cache_bytes: args.index_cache_mb.saturating_mul(1024 * 1024),
        ..BotConfig::default()
    };
    let (sandbox, missing) = arbiter::sandbox::describe(&arbiter::sandbox::Limits::default());
    tracing::info!("{sandbox}");
    if let Some(missing) = missing {
        tracing::warn!("{missing}");
    }
    let bot = std::sync::Arc::new(Bot::new(std::sync::Arc::new(app), config).with_shipped(shipped));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arbiter: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result: Result<(), String> = runtime.block_on(async move {
        // The match database: opened (and migrated) before serving anything;
        // decisions past their deadline are settled by a periodic sweep.
        bot.open_matches().await?;
        bot.spawn_decision_sweep();
        if let Some(addr) = args.http {
            let public_key = args.public_key.ok_or("--http needs DISCORD_PUBLIC_KEY (the application's public key, hex)")?;
            let cfg = http::HttpConfig { addr, public_key, api_base: args.discord_api, max_body: http::MAX_BODY_BYTES, limits };
            serve_metrics(&bot, args.metrics, limits).await?;
            let (bound, fut) = http::bind(bot, cfg, shutdown_signal()).await.map_err(|e| e.to_string())?;
            tracing::info!(addr = %bound, "serving Discord interactions over HTTP (POST /, GET /healthz)");
            fut.await.map_err(|e| e.to_string())
        } else {
            let token = args.token.ok_or("serve needs DISCORD_TOKEN (or --http ADDR with DISCORD_PUBLIC_KEY)")?;
            let sharding = match (args.shards, args.shard_range, args.total_shards) {
                (_, Some(range), Some(total)) => {
                    let (a, b) = range.split_once('-').ok_or("--shard-range is FIRST-LAST, e.g. 0-3")?;
                    let first: u32 = a.trim().parse().map_err(|_| "--shard-range: FIRST is not a number")?;
                    let last: u32 = b.trim().parse().map_err(|_| "--shard-range: LAST is not a number")?;
                    if first > last || last >= total {
                        return Err(format!("--shard-range {first}-{last} does not fit in {total} shards"));
                    }
                    gateway::Sharding::Range { first, last, total }
                }
                (Some(n), _, _) => gateway::Sharding::Total(n.max(1)),
                _ => gateway::Sharding::Auto,
            };
            if let Some(addr) = args.health {
                let (bound, fut) = http::bind_health(bot.clone(), addr, limits, false).await.map_err(|e| e.to_string())?;
                tracing::info!(addr = %bound, "serving GET /healthz");
                tokio::spawn(fut);
            }
            serve_metrics(&bot, args.metrics, limits).await?;
            let cfg = gateway::GatewayConfig { token, guild_id: args.guild, sharding, drain: limits.drain };
            gateway::run(bot, cfg, shutdown_signal()).await.map_err(|e| e.to_string())
        }
    });
    // Work still running after the drain is abandoned: the whole shutdown
    // stays within docker stop's 10 s (drain 8 s + 1 s).
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::from(2)
        }
    }
}

/// `--metrics ADDR`: GET /metrics and GET /healthz on their own listener.
async fn serve_metrics(
    bot: &std::sync::Arc<arbiter::bot::Bot>,
    addr: Option<std::net::SocketAddr>,
    limits: arbiter::bot::http::ConnLimits,
) -> Result<(), String> {
    let Some(addr) = addr else { return Ok(()) };
    let (bound, fut) = arbiter::bot::http::bind_health(bot.clone(), addr, limits, true)
        .await
        .map_err(|e| e.to_string())?;
    tracing::info!(addr = %bound, "serving GET /metrics and GET /healthz");
    tokio::spawn(fut);
    Ok(())
}

/// A minimal HTTP GET of /healthz (no client library needed in the image).
fn healthcheck(addr: Option<String>) -> ExitCode {
    use std::io::{Read, Write};
    use std::net::ToSocketAddrs;
    let addr = addr
        .or_else(|| std::env::var("ARBITER_HEALTH_LISTEN").ok())
        .or_else(|| std::env::var("ARBITER_LISTEN").ok())
        .unwrap_or_else(|| "127.0.0.1:8080".into())
        .replace("0.0.0.0", "127.0.0.1");
    let timeout = std::time::Duration::from_secs(3);
    let result = (|| -> std::io::Result<bool> {
        let sock = addr
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| std::io::Error::other("no address"))?;
        let mut s = std::net::TcpStream::connect_timeout(&sock, timeout)?;
        s.set_read_timeout(Some(timeout))?;
        write!(
            s,
            "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )?;
        let mut head = [0u8; 12];
        s.read_exact(&mut head)?;
        Ok(head.starts_with(b"HTTP/1.1 200"))
    })();
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("arbiter: {addr}/healthz did not answer 200");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("arbiter: {addr}/healthz: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A `judge` refusal as the CLI says it: an unknown game is the `--game`
/// flag's (the document's own `game:` is a board error, with its line).
fn judge_error(e: arbiter::app::JudgeError) -> CliError {
    match e {
        arbiter::app::JudgeError::App(e @ AppError::UnknownGame { .. }) => {
            CliError::Input(format!("--game: {e}"))
        }
        other => CliError::Input(other.to_string()),
    }
}
