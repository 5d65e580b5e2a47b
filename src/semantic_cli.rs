//! `arbiter semantic`: the semantic stage's passage vectors computed ahead
//! for rule folders, and the encoder's speed (docs/SEARCH.md, "The
//! semantic stage").

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use arbiter::app::semantic as files;
use arbiter::corpus::Corpus;
use arbiter::search::semantic;
use clap::Subcommand;

#[derive(Subcommand)]
pub enum SemanticCommand {
    /// Write each rule folder's vectors file (`semantic-vectors.bin`) for
    /// its passages as they are now (default: the shipped rule data); with
    /// --guild, embed and store the vectors a server's documents lack.
    Vectors {
        dirs: Vec<PathBuf>,
        /// A server (guild id) whose uploaded documents' vectors are
        /// computed and stored in DATABASE_URL (no folder is written).
        #[arg(long, value_name = "GUILD", conflicts_with = "dirs", value_parser = crate::guild_id)]
        guild: Option<String>,
        /// With --guild: the database of servers' rule sets (default
        /// sqlite://arbiter.db).
        #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
        database_url: Option<String>,
    },
    /// Time the encoder on questions: load, first call, p50 of 30 rounds.
    Time {
        #[arg(required = true)]
        questions: Vec<String>,
    },
    /// Print a text's vector (JSON).
    Embed { text: String },
}

pub fn run(command: SemanticCommand, data: PathBuf) -> ExitCode {
    let started = Instant::now();
    let encoder = match files::load_encoder(&files::default_model_dir()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    let loaded = started.elapsed();
    match command {
        SemanticCommand::Embed { text } => {
            crate::emit(&format!("{}\n", serde_json::json!(encoder.embed(&text))));
        }
        SemanticCommand::Time { questions } => {
            let first = Instant::now();
            encoder.embed(&questions[0]);
            let first = first.elapsed();
            let mut times = Vec::new();
            for _ in 0..30 {
                for q in &questions {
                    let t = Instant::now();
                    std::hint::black_box(encoder.embed(q));
                    times.push(t.elapsed());
                }
            }
            times.sort();
            let tokens: usize = questions.iter().map(|q| encoder.token_ids(q).len()).sum();
            crate::emit(&format!(
                "arbiter (1 thread): p50 {:.2} ms per question ({:.1} tokens on average); model loaded in {:.0} ms, first question {:.2} ms\n",
                times[times.len() / 2].as_secs_f64() * 1000.0,
                tokens as f64 / questions.len() as f64,
                loaded.as_secs_f64() * 1000.0,
                first.as_secs_f64() * 1000.0,
            ));
        }
        SemanticCommand::Vectors {
            guild: Some(guild),
            database_url,
            ..
        } => match crate::server_vectors(&data, &guild, database_url.as_deref()) {
            Ok(out) => {
                crate::emit(&out);
            }
            Err(e) => {
                eprintln!("arbiter: {e}");
                return ExitCode::from(1);
            }
        },
        SemanticCommand::Vectors { dirs, .. } => {
            let dirs = if dirs.is_empty() { vec![data] } else { dirs };
            for dir in dirs {
                let sources = match arbiter::load::load_all(&dir, &[]) {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("arbiter: {e}");
                        return ExitCode::from(2);
                    }
                };
                let corpus = Corpus::build(sources);
                let old = files::read_vectors(&[&dir]);
                let t = Instant::now();
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                let (known, embedded) = files::complete(&corpus, &old, &encoder, threads);
                let path = dir.join(files::VECTORS_FILE);
                if let Err(e) = std::fs::write(&path, semantic::write_known(&known)) {
                    eprintln!("arbiter: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
                crate::emit(&format!(
                    "{}: {} passages, {} embedded in {:.1} s, {} kept\n",
                    path.display(),
                    known.len(),
                    embedded,
                    t.elapsed().as_secs_f64(),
                    known.len() - embedded,
                ));
            }
        }
    }
    ExitCode::SUCCESS
}
