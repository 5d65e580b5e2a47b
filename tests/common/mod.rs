//! Shared test helpers: the shipped corpus, loaded once per test binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbiter::app::App;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| App::load(&repo().join("rules_data"), &[]).expect("shipped rule data loads"))
}

/// The shipped rules and one extra rule folder written from `files`
/// (name, text), loaded once and lexical only (no background embedding
/// of the folder to race with). The folder lives as long as the guard.
pub fn app_with_folder(files: &[(&str, &str)]) -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let app = App::load_with(
        &repo().join("rules_data"),
        &[dir.path().to_path_buf()],
        arbiter::app::MissingVectors::Lexical,
    )
    .unwrap();
    (app, dir)
}

/// The MTG Comprehensive Rules fixture (../shared/corpora beside the repo).
pub fn mtg_dir() -> PathBuf {
    repo().join("tests/fixtures/mtg")
}

pub fn mtg_text_path() -> PathBuf {
    repo().join("../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt")
}

pub fn exists(p: &Path) -> bool {
    p.is_file()
}

/// A console bot on the shipped rules and the database at `db`, and a
/// runner: a script typed in server `guild` as `ops` (Manage Server and
/// Manage Messages when `moderator`), the transcript back.
pub fn console_bot(db: String) -> arbiter::bot::Bot {
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let shipped = arbiter::load::load_dir(&repo().join("rules_data")).unwrap();
    let app = std::sync::Arc::new(App::new(arbiter::corpus::Corpus::build(shipped.clone())));
    let config = arbiter::bot::BotConfig {
        database_url: Some(db),
        // As `arbiter console` does: a question after an upload waits for its index.
        index_wait: std::time::Duration::from_secs(120),
        ..Default::default()
    };
    arbiter::bot::Bot::new(app, config).with_shipped(shipped)
}

pub fn console_run(bot: &arbiter::bot::Bot, guild: u64, moderator: bool, script: &str) -> String {
    console_run_as(bot, "ops", guild, moderator, script)
}

/// A console script typed in server `guild` as `user`: the transcript.
pub fn console_run_as(
    bot: &arbiter::bot::Bot,
    user: &str,
    guild: u64,
    moderator: bool,
    script: &str,
) -> String {
    let session = arbiter::bot::console::Session {
        user: user.into(),
        moderator,
        guild: Some(guild),
    };
    let mut out = Vec::new();
    arbiter::bot::console::run_as(
        bot,
        &session,
        &mut script.as_bytes(),
        &mut out,
        false,
        false,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

/// The built `arbiter` with these arguments, in the repository, on the
/// shipped rules only (and the database `db`, when given).
pub fn arbiter_cli(db: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.args(args)
        .current_dir(repo())
        .env_remove("ARBITER_DATA")
        .env_remove("ARBITER_RULES_DIRS")
        .stdin(std::process::Stdio::null());
    if let Some(db) = db {
        cmd.env("DATABASE_URL", db);
    }
    cmd.output().expect("arbiter runs")
}
