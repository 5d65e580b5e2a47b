//! The `arbiter` command line. Thin: parses arguments, calls the app layer,
//! renders the reply. Exit status: 0 answered, 2 bad input, 1 failure.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use arbiter::app::{App, AppError, DEFAULT_LIMIT};
use arbiter::render::text::{self, Style};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "arbiter", version, about = "Rules assistant for tabletop games: cites rules, adjudicates plays, tracks matches")]
struct Cli {
    /// Folder of shipped rule data (default: ./rules_data, or beside the binary).
    #[arg(long, global = true, env = "ARBITER_DATA", value_name = "DIR")]
    data: Option<PathBuf>,
    /// Extra rule folders to load (house rules, other games); repeatable.
    #[arg(long = "rules-dir", global = true, env = "ARBITER_RULES_DIRS", value_delimiter = ':', value_name = "DIR")]
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
        /// Table-of-contents depth shown in text output.
        #[arg(long, default_value_t = 3)]
        depth: usize,
        #[arg(long)]
        json: bool,
    },
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
    let data = cli.data.clone().unwrap_or_else(arbiter::load::default_data_dir);
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
    let mut s = serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    s.push('\n');
    s
}

fn run(app: &App, command: Command) -> Result<String, AppError> {
    let style = Style { ansi: std::io::stdout().is_terminal() };
    Ok(match command {
        Command::Ask { query, game, limit, json: as_json } => {
            let reply = app.ask(&query.join(" "), game.as_deref(), limit)?;
            if as_json { json(&reply) } else { text::ask(&reply, style) }
        }
        Command::Cite { id, children, json: as_json } => {
            let reply = app.cite(&id, children)?;
            if as_json { json(&reply) } else { text::cite(&reply) }
        }
        Command::Rules { game, depth, json: as_json } => {
            let reply = app.rules(game.as_deref())?;
            if as_json { json(&reply) } else { text::rules(&reply, depth) }
        }
        Command::Complete { partial, game, limit, json: as_json } => {
            let list = app.complete(&partial, game.as_deref(), limit)?;
            if as_json { json(&list) } else { text::suggestions(&list) }
        }
    })
}
