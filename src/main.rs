//! The `arbiter` command line. Thin: parses arguments, calls the app layer,
//! renders the reply. Exit status: 0 answered, 2 bad input, 1 failure.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use arbiter::app::{App, AppError, DEFAULT_LIMIT};
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
        /// How many passages at most.
        #[arg(long, short = 'n', default_value_t = DEFAULT_LIMIT)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Show one passage by id, or its whole sub-tree.
    Cite {
        id: String,
        #[arg(long)]
        children: bool,
        #[arg(long)]
        json: bool,
    },
    /// List games, documents and their tables of contents.
    Rules {
        game: Option<String>,
        /// For each passage, whether the engine executes it and where.
        #[arg(long)]
        coverage: bool,
        /// Table-of-contents depth shown in text output.
        #[arg(long, default_value_t = 3)]
        depth: usize,
        #[arg(long)]
        json: bool,
    },
    /// Adjudicate the play in a board document (a file, or - for stdin).
    Judge {
        file: PathBuf,
        /// Use this game instead of the document's `game` field.
        #[arg(long, short)]
        game: Option<String>,
        /// The play, in the game's one-line notation (replaces the document's `play`).
        #[arg(long)]
        play: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of a game's board documents.
    Schema { game: String },
    /// Suggest passage ids for a partial id or title (as Discord autocomplete does).
    Complete {
        partial: String,
        #[arg(long, short)]
        game: Option<String>,
        #[arg(long, short = 'n', default_value_t = 25)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let data = cli
        .data
        .clone()
        .unwrap_or_else(arbiter::load::default_data_dir);
    let app = match App::load(&data, &cli.rules_dirs) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&app, cli.command) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arbiter: {e}");
            ExitCode::from(2)
        }
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
fn read_input(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let res = if path.as_os_str() == "-" {
        std::io::stdin()
            .take(arbiter::engine::board::MAX_BOARD_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map(|_| ())
    } else {
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(arbiter::engine::board::MAX_BOARD_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map(|_| ())
    };
    res.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

fn run(app: &App, command: Command) -> Result<String, CliError> {
    let style = Style {
        ansi: std::io::stdout().is_terminal(),
    };
    Ok(match command {
        Command::Ask {
            query,
            game,
            limit,
            json: as_json,
        } => {
            let reply = app.ask(&query.join(" "), game.as_deref(), limit)?;
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
        } => {
            let reply = app.cite(&id, children)?;
            if as_json {
                json(&reply)
            } else {
                text::cite(&reply)
            }
        }
        Command::Rules {
            game,
            coverage: true,
            json: as_json,
            ..
        } => {
            let reply = app.coverage(game.as_deref())?;
            if as_json {
                json(&reply)
            } else {
                text::coverage(&reply)
            }
        }
        Command::Rules {
            game,
            depth,
            json: as_json,
            ..
        } => {
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
        } => {
            let input = read_input(&file).map_err(CliError::Input)?;
            let ruling = match play {
                Some(line) => app.judge_notation(&input, game.as_deref(), &line),
                None => app.judge(&input, game.as_deref()),
            }
            .map_err(|e| CliError::Input(e.to_string()))?;
            if as_json {
                json(&ruling)
            } else {
                text::ruling(&ruling)
            }
        }
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
        } => {
            let list = app.complete(&partial, game.as_deref(), limit)?;
            if as_json {
                json(&list)
            } else {
                text::suggestions(&list)
            }
        }
    })
}
