//! `arbiter feedback export|summary`: feedback on `/rule` answers, for
//! operators, from the match database (`DATABASE_URL`).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use arbiter::store::DEFAULT_DATABASE_URL;
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct FeedbackArgs {
    /// Match database: sqlite://FILE or postgres://…
    #[arg(long, global = true, env = "DATABASE_URL", hide_env_values = true, default_value = DEFAULT_DATABASE_URL)]
    database_url: String,
    /// Only this server (guild id; the console's is `console`); default: every server.
    #[arg(long, global = true, env = "ARBITER_GUILD", value_parser = crate::guild_id)]
    guild: Option<String>,
    #[command(subcommand)]
    command: FeedbackCommand,
}

#[derive(Subcommand)]
enum FeedbackCommand {
    /// Write the feedback as evaluation questions (tests/eval_questions.yaml's
    /// format, source "feedback"): to FILE, or to stdout.
    Export {
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Counts and the latest entries, as moderators see them with `/feedback summary`.
    Summary,
}

/// Runs a feedback subcommand: 0 done, 1 failure.
pub fn run(args: FeedbackArgs) -> ExitCode {
    crate::match_cli::block_on(async move {
        let Some(store) = crate::match_cli::open_store(&args.database_url).await else {
            return ExitCode::FAILURE;
        };
        let list = store.feedback(args.guild.as_deref()).await;
        store.close().await;
        let list = match list {
            Ok(l) => l,
            Err(e) => {
                eprintln!("arbiter: cannot read the feedback: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (text, out) = match args.command {
            FeedbackCommand::Export { out } => (arbiter::store::evaluation_yaml(&list), out),
            FeedbackCommand::Summary => {
                let mut s = arbiter::bot::feedback_summary(&list);
                s.push('\n');
                (s, None)
            }
        };
        let written = match &out {
            Some(path) => std::fs::write(path, &text)
                .map_err(|e| format!("cannot write {}: {e}", path.display())),
            None => {
                let mut stdout = std::io::stdout().lock();
                stdout
                    .write_all(text.as_bytes())
                    .and_then(|_| stdout.flush())
                    .map_err(|e| format!("cannot write to stdout: {e}"))
            }
        };
        match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("arbiter: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
