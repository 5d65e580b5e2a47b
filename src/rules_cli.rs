//! `arbiter rules add|list|remove|versions|history|prune`: a server's rule set, for
//! operators, against the match database (`DATABASE_URL`). A thin layer
//! over `app::rulesets::RuleSets`, as the console's `/rules` is.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use arbiter::app::App;
use arbiter::app::rulesets::{RuleSets, Upload};
use arbiter::corpus::DocumentKind;
use arbiter::corpus::import::MAX_IMPORT_BYTES;
use arbiter::render::text;
use arbiter::store::DEFAULT_DATABASE_URL;
use clap::{Args, Subcommand};

#[derive(Args)]
pub struct RuleSetOpts {
    /// Match database: sqlite://FILE (created if missing) or postgres://…
    #[arg(long, global = true, env = "DATABASE_URL", hide_env_values = true, default_value = DEFAULT_DATABASE_URL)]
    database_url: String,
    /// The server (guild id) whose rule set this is; the console's is
    /// `console` (the default). `arbiter rules [--coverage] GAME --guild G`
    /// shows that server's games, its documents included, as `/games` does.
    #[arg(long, global = true, env = "ARBITER_GUILD", value_parser = crate::guild_id)]
    guild: Option<String>,
    /// Who is acting (recorded in the history).
    #[arg(long = "as", global = true, env = "ARBITER_USER", value_name = "USER")]
    user: Option<String>,
}

impl RuleSetOpts {
    /// The server named, if one was (`--guild` or ARBITER_GUILD).
    pub fn server(&self) -> Option<&str> {
        self.guild.as_deref()
    }

    /// The database its rule set is read from.
    pub fn database_url(&self) -> &str {
        &self.database_url
    }
}

/// What to do, with the options that apply.
pub struct RuleSetArgs {
    pub opts: RuleSetOpts,
    pub command: RuleSetCommand,
    pub json: bool,
}

#[derive(Subcommand)]
pub enum RuleSetCommand {
    /// Convert a document (Markdown, numbered text, HTML, PDF; ≤ 5 MB), print
    /// its preview, and make it live in the server's rule set.
    Add {
        file: PathBuf,
        /// A known game's id, name or alias (extends it), or a new game's name.
        #[arg(long, short)]
        game: String,
        #[arg(long, default_value = "rules")]
        kind: DocumentKind,
        #[arg(long)]
        title: Option<String>,
        /// A live document (its id from `list`) this one replaces, keeping
        /// its id and its passages' ids, in one version.
        #[arg(long)]
        replace: Option<String>,
        /// Only print the preview; store nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// The server's live documents.
    List,
    /// One passage of the server's index (shipped games + its documents).
    Show { id: String },
    /// Take a document out of the rule set (its id from `list`); the history keeps it.
    Remove { id: String },
    /// Every change of the server's rule set (optionally one game's).
    Versions {
        #[arg(long, short)]
        game: Option<String>,
    },
    /// What the server stores: its live text, and each replaced or removed
    /// document's text with the open matches that pin it, or when it was
    /// pruned.
    History,
    /// Delete the text of every replaced or removed document no open match
    /// pins (the changes stay listed in `versions`).
    Prune,
}

/// Runs a rule-set subcommand: 0 done, 2 refused or bad input, 1 failure.
pub fn run(app: App, data: &Path, extra: &[PathBuf], args: RuleSetArgs) -> ExitCode {
    let shipped = match arbiter::load::load_all(data, extra) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    crate::match_cli::block_on(async move {
        let Some(store) = crate::match_cli::open_store(&args.opts.database_url).await else {
            return ExitCode::FAILURE;
        };
        let sets = RuleSets::new(store.clone(), shipped, Arc::new(app)).without_warming();
        let out = execute(&sets, &args).await;
        store.close().await;
        match out {
            Ok(text) => {
                let mut stdout = std::io::stdout().lock();
                match stdout
                    .write_all(text.as_bytes())
                    .and_then(|_| stdout.flush())
                {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(_) => ExitCode::FAILURE,
                }
            }
            Err((code, e)) => {
                eprintln!("arbiter: {e}");
                ExitCode::from(code)
            }
        }
    })
}

fn json<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

async fn execute(sets: &RuleSets, args: &RuleSetArgs) -> Result<String, (u8, String)> {
    use arbiter::app::rulesets::RulesError;
    let fail = |e: RulesError| match e {
        RulesError::Store(_) | RulesError::Build(_) => (1, e.to_string()),
        _ => (2, e.to_string()),
    };
    let guild = args.opts.guild.as_deref().unwrap_or("console").trim();
    let actor = args
        .opts
        .user
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "operator".into());
    Ok(match &args.command {
        RuleSetCommand::Add {
            file,
            game,
            kind,
            title,
            replace,
            dry_run,
        } => {
            let bytes = crate::read_bytes(file, MAX_IMPORT_BYTES).map_err(|e| (2, e))?;
            let upload = Upload {
                file_name: file.file_name().map_or_else(
                    || file.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
                bytes,
                game: game.clone(),
                kind: *kind,
                title: title.clone(),
                replaces: replace.clone(),
            };
            if *dry_run {
                let preview = sets.dry_run(guild, upload).await.map_err(fail)?;
                return Ok(if args.json {
                    json(&preview)
                } else {
                    text::import_preview(&preview)
                });
            }
            let (added, preview) = sets.add(guild, &actor, upload).await.map_err(fail)?;
            if args.json {
                json(&serde_json::json!({ "added": added, "preview": preview }))
            } else {
                format!(
                    "{}{}",
                    text::import_preview(&preview),
                    text::rule_added(&added)
                )
            }
        }
        RuleSetCommand::List => {
            let docs = sets.list(guild).await.map_err(fail)?;
            let views = arbiter::app::rulesets::doc_views(&docs);
            if args.json {
                json(&views)
            } else {
                text::rule_docs(guild, &views)
            }
        }
        RuleSetCommand::Show { id } => {
            let data = if arbiter::app::rulesets::is_document_id(id) {
                let docs = sets.list(guild).await.map_err(fail)?;
                arbiter::app::rulesets::data_doc(&docs, id)
            } else {
                None
            };
            if let Some(data) = data {
                return Ok(if args.json {
                    json(&data)
                } else {
                    text::data_doc(&data)
                });
            }
            let app = sets.app_for(guild).await.map_err(fail)?;
            let reply = app.cite(id, false).map_err(|e| (2, e.to_string()))?;
            if args.json {
                json(&reply)
            } else {
                text::cite(&reply)
            }
        }
        RuleSetCommand::Remove { id } => {
            let version = sets.remove(guild, id, &actor).await.map_err(fail)?;
            format!(
                "Removed {id} from the rule set of {guild}: now version {version}. The history keeps it (`arbiter rules versions`).\n"
            )
        }
        RuleSetCommand::Versions { game } => {
            let changes = sets.versions(guild, game.as_deref()).await.map_err(fail)?;
            if args.json {
                json(&changes)
            } else {
                text::rule_changes(guild, game.as_deref(), &changes)
            }
        }
        RuleSetCommand::History => {
            let history = sets.history(guild).await.map_err(fail)?;
            if args.json {
                json(&history)
            } else {
                text::rule_history(guild, &history)
            }
        }
        RuleSetCommand::Prune => {
            let pruned = sets.prune(guild).await.map_err(fail)?;
            if args.json {
                json(&pruned)
            } else {
                text::rule_pruned(guild, &pruned)
            }
        }
    })
}
