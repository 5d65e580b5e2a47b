//! Shared by the store tests and benches: a tiny test game ("tally") so the
//! storage and service can be tested whatever engines are registered, and
//! real databases: a SQLite file in a temp dir, and PostgreSQL from
//! `ARBITER_TEST_POSTGRES_URL` or else a throwaway cluster started here.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter::engine::{BoardError, Diagnostic, GameEngine, RuleUse, Ruling, Severity, Step};
use serde::Deserialize;
use serde_json::{Value, json};

/// A counting game: `total` grows by each play's `add` (0..=100); a named
/// player's `score` grows too. `add` outside 0..=100 is illegal.
pub struct Tally;

pub static TALLY: Tally = Tally;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Board {
    game: String,
    #[serde(default)]
    turn: Option<String>,
    #[serde(default)]
    players: Vec<Player>,
    #[serde(default)]
    total: i64,
    #[serde(default)]
    play: Option<Play>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Player {
    name: String,
    #[serde(default)]
    score: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Play {
    add: i64,
    /// Whose score grows.
    #[serde(default, rename = "for")]
    to: Option<String>,
    /// Who plays (checked against the caller's seat by the service).
    #[serde(default)]
    #[allow(dead_code)]
    player: Option<String>,
}

fn state_of(b: &Board) -> Value {
    let mut v = json!({
        "game": b.game,
        "players": b.players.iter().map(|p| json!({"name": p.name, "score": p.score})).collect::<Vec<_>>(),
        "total": b.total,
    });
    if let Some(t) = &b.turn {
        v["turn"] = json!(t);
    }
    v
}

impl GameEngine for Tally {
    fn game(&self) -> &'static str {
        "tally"
    }
    fn rule_uses(&self) -> &'static [RuleUse] {
        &[]
    }
    fn schema(&self) -> Value {
        json!({"type": "object"})
    }
    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let mut b: Board = arbiter::engine::board::parse(document)?;
        let before = state_of(&b);
        let Some(play) = b.play.take() else {
            return Ok(Ruling {
                game: "tally".into(),
                legal: true,
                steps: vec![],
                diagnostics: vec![],
                state: before,
                changes: vec![],
            });
        };
        if !(0..=100).contains(&play.add) {
            return Ok(Ruling {
                game: "tally".into(),
                legal: false,
                steps: vec![],
                diagnostics: vec![Diagnostic {
                    severity: Severity::Error,
                    message: format!("cannot add {}: a play adds 0 to 100", play.add),
                    rule: Some("tally:add".into()),
                    path: Some("play.add".into()),
                }],
                state: before,
                changes: vec![],
            });
        }
        if let Some(name) = &play.to {
            let names: Vec<&str> = b.players.iter().map(|p| p.name.as_str()).collect();
            let who = arbiter::engine::board::resolve_name(name, &names, "play.for", "player")?
                .to_string();
            for p in &mut b.players {
                if p.name == who {
                    p.score += play.add;
                }
            }
        }
        b.total += play.add;
        let after = state_of(&b);
        Ok(Ruling {
            game: "tally".into(),
            legal: true,
            steps: vec![Step {
                rule: "tally:add".into(),
                text: format!("add {}", play.add),
                numbers: vec![("total".into(), b.total)],
                choice: None,
                assumption: None,
            }],
            diagnostics: vec![],
            changes: arbiter::engine::diff(&before, &after),
            state: after,
        })
    }
    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["add", n] | ["add", n, ..] => {
                let add: i64 = n.parse().map_err(|_| {
                    BoardError::semantic("play.add", format!("'{n}' is not a number"))
                })?;
                let mut play = json!({"add": add});
                if let ["add", _, "for", name @ ..] = words.as_slice() {
                    let names: Vec<&str> = board["players"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|p| p["name"].as_str()).collect())
                        .unwrap_or_default();
                    let who = arbiter::engine::board::resolve_name(
                        &name.join(" "),
                        &names,
                        "play.for",
                        "player",
                    )?;
                    play["for"] = json!(who);
                }
                Ok(play)
            }
            [w, ..] => Err(BoardError::semantic(
                "play",
                format!("unknown action '{w}'; did you mean 'add'?"),
            )),
            [] => Err(BoardError::semantic("play", "empty play")),
        }
    }
    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String> {
        if partial.trim().is_empty() {
            return vec!["add".into()];
        }
        if partial.split_whitespace().count() >= 2 && partial.ends_with(' ') {
            let mut v = vec!["for".to_string()];
            v.extend(
                board["players"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p["name"].as_str().map(str::to_string)),
            );
            return v;
        }
        vec![]
    }
}

/// A two-player tally board.
pub fn tally_board() -> &'static str {
    "game: tally\nplayers:\n  - { name: Ann }\n  - { name: Bob }\ntotal: 0\n"
}

pub fn matches(store: arbiter::store::Store) -> arbiter::app::matches::Matches {
    arbiter::app::matches::Matches::with_engines(store, vec![&TALLY])
}

// ---- databases ----

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh SQLite database file URL; keep the directory alive.
pub fn sqlite_url() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("arbiter.db").display());
    (url, dir)
}

/// A fresh, empty PostgreSQL database URL.
pub async fn postgres_url() -> String {
    let base = postgres_base_url();
    let name = format!(
        "arbiter_t_{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0)
    );
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&base)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {base}: {e}"));
    sqlx::Executor::execute(&mut conn, format!("CREATE DATABASE {name}").as_str())
        .await
        .expect("create database");
    conn.close().await.ok();
    with_database(&base, &name)
}

/// Replaces the database name in a postgres URL.
pub fn with_database(url: &str, db: &str) -> String {
    let (main, query) = match url.split_once('?') {
        Some((m, q)) => (m, Some(q)),
        None => (url, None),
    };
    let auth_start = main.find("://").map_or(0, |i| i + 3);
    let base = match main[auth_start..].find('/') {
        Some(i) => &main[..auth_start + i],
        None => main,
    };
    match query {
        Some(q) => format!("{base}/{db}?{q}"),
        None => format!("{base}/{db}"),
    }
}

static CLUSTER: OnceLock<String> = OnceLock::new();

/// `ARBITER_TEST_POSTGRES_URL`, or a throwaway cluster started once per
/// test binary (stopped and removed by a watchdog when the binary exits).
pub fn postgres_base_url() -> String {
    if let Ok(url) = std::env::var("ARBITER_TEST_POSTGRES_URL")
        && !url.trim().is_empty()
    {
        return url;
    }
    CLUSTER.get_or_init(|| start_cluster(true)).clone()
}

fn pg_bin_dir() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("pg_ctl").is_file() && d.join("initdb").is_file() {
                return Some(d);
            }
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("bin"))
        .filter(|d| d.join("pg_ctl").is_file())
        .collect();
    found.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    found.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Runs a PostgreSQL program, as the `postgres` user when we are root.
fn pg_command(bin: &Path, program: &str, root: bool) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Starts a throwaway cluster on loopback and returns its URL. `fast`
/// turns fsync off (tests); benchmarks keep the durable defaults.
pub fn start_cluster(fast: bool) -> String {
    let Some(bin) = pg_bin_dir() else {
        panic!(
            "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or in \
             /usr/lib/postgresql/*/bin. Install them (Debian/Ubuntu: `apt-get install postgresql`) \
             or set ARBITER_TEST_POSTGRES_URL to a server where the tests may create databases."
        );
    };
    let root = is_root();
    let dir = tempfile::Builder::new()
        .prefix("arbiter-pg-")
        .tempdir()
        .expect("temp dir")
        .keep();
    let data = dir.join("data");
    if root {
        let ok = Command::new("chown")
            .args(["-R", "postgres:"])
            .arg(&dir)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "cannot chown {} to the postgres user", dir.display());
    }
    let out = pg_command(&bin, "initdb", root)
        .arg("-D")
        .arg(&data)
        .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        .stdout(Stdio::null())
        .output()
        .expect("run initdb");
    assert!(
        out.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let port = free_port();
    let mut opts = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
        dir.display()
    );
    if fast {
        opts.push_str(" -c fsync=off -c synchronous_commit=off -c full_page_writes=off");
    }
    let out = pg_command(&bin, "pg_ctl", root)
        .arg("-D")
        .arg(&data)
        .arg("-l")
        .arg(dir.join("log"))
        .args(["-o", &opts, "-w", "start"])
        .stdout(Stdio::null())
        .output()
        .expect("run pg_ctl");
    assert!(
        out.status.success(),
        "pg_ctl start failed: {} (log: {})",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(dir.join("log")).unwrap_or_default()
    );
    // Stop and remove the cluster when this process exits.
    let stop = format!(
        "{}{} -D {} -m immediate stop",
        if root { "runuser -u postgres -- " } else { "" },
        bin.join("pg_ctl").display(),
        data.display()
    );
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; {stop} >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        dir = dir.display()
    );
    let _ = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    format!("postgres://postgres@127.0.0.1:{port}/postgres")
}

/// The tally total of a board.
pub fn total(board: &Value) -> i64 {
    board["total"].as_i64().unwrap_or(-1)
}
