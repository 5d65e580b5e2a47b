//! Shared by the store tests and benches: a tiny test game ("tally") so the
//! storage and service can be tested whatever engines are registered, and
//! real databases: a SQLite file in a temp dir, and PostgreSQL from
//! `ARBITER_TEST_POSTGRES_URL` or else a throwaway cluster started here.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbiter::engine::kit::{Cx, Game, Kit, Phase, Stop, names, notation};
use arbiter::engine::{BoardError, RuleUse, Status};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A two-seat Ashes board, Coal to play: the match tests' common start.
pub const ASHES_BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 15 }
    units:
      - { name: Iron Worker, attack: 2, life: 2 }
      - { name: Hammer Knight, attack: 3, life: 3 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20, damage: 5 }
    units:
      - { name: Frostback Bear, attack: 2, life: 4 }
      - { name: Mist Spirit, attack: 1, life: 1 }
";

/// The seats of [`ASHES_BOARD`] and a moderator who holds none, at one
/// table.
pub fn coal() -> arbiter::app::matches::Caller {
    arbiter::app::matches::Caller::new("table", "coal-user", false)
}
pub fn maeoni() -> arbiter::app::matches::Caller {
    arbiter::app::matches::Caller::new("table", "maeoni-user", false)
}
pub fn judge() -> arbiter::app::matches::Caller {
    arbiter::app::matches::Caller::new("table", "judge-user", true)
}

/// A counting game: `total` grows by each play's `add` (0..=100); a named
/// player's `score` grows too. `add` outside 0..=100 is illegal. Written on
/// the engine kit, as any game is.
pub struct Tally;

pub static TALLY: Kit<Tally> = Kit::new();

#[derive(Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Board {
    game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn: Option<String>,
    #[serde(default)]
    players: Vec<Player>,
    #[serde(default)]
    total: i64,
}

#[derive(Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    name: String,
    #[serde(default)]
    score: i64,
}

#[derive(Clone, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Play {
    add: i64,
    /// Whose score grows.
    #[serde(default, rename = "for", skip_serializing_if = "Option::is_none")]
    to: Option<String>,
    /// Who plays (checked against the caller's seat by the service).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<String>,
}

fn names_of(b: &Board) -> Vec<&str> {
    b.players.iter().map(|p| p.name.as_str()).collect()
}

impl Game for Tally {
    const ID: &'static str = "tally";
    type Board = Board;
    type Play = Play;
    const BOARD_READS: &'static [&'static str] = &["game", "turn", "players", "total"];
    const PHASES: &'static [Phase] = &[];

    fn rule_uses() -> &'static [RuleUse] {
        &[]
    }

    fn validate(b: &mut Board) -> Result<(), BoardError> {
        if let Some(t) = &b.turn {
            let n = names::resolve(t, &names_of(b), "player").map_err(|e| e.at("turn"))?;
            b.turn = Some(n.to_string());
        }
        Ok(())
    }

    fn players(b: &Board) -> Vec<String> {
        b.players.iter().map(|p| p.name.clone()).collect()
    }

    fn actor(b: &Board, play: &Play) -> Result<Option<usize>, BoardError> {
        let who = play.player.as_deref().or(b.turn.as_deref());
        who.map(|w| {
            names::resolve_index(w, &names_of(b), "player").map_err(|e| e.at("play.player"))
        })
        .transpose()
    }

    fn play_reads(_: &Play) -> &'static [&'static str] {
        &["add", "for", "player"]
    }

    fn play(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
        if !(0..=100).contains(&play.add) {
            cx.error(
                "tally:add",
                "play.add",
                format!("cannot add {}: a play adds 0 to 100", play.add),
            );
            return Ok(());
        }
        if let Some(name) = &play.to {
            let i =
                names::resolve_index(name, &names_of(b), "player").map_err(|e| e.at("play.for"))?;
            b.players[i].score += play.add;
        }
        b.total += play.add;
        let total = b.total;
        cx.step("tally:add", format!("add {}", play.add))
            .num("total", total);
        Ok(())
    }

    fn status(b: &Board) -> Status {
        Status {
            phase: "tallying".into(),
            round: None,
            turn_seat: b
                .turn
                .as_ref()
                .and_then(|t| b.players.iter().position(|p| &p.name == t)),
            turn: b.turn.clone(),
            result: None,
            out: Vec::new(),
        }
    }

    fn notation(line: &str, b: &Board) -> Result<Play, BoardError> {
        let Some(rest) = notation::strip_word(line, &["add"]) else {
            let w = line.split_whitespace().next().unwrap_or("");
            return Err(BoardError::semantic(
                "play",
                format!("unknown action '{w}'; did you mean 'add'?"),
            ));
        };
        let (n, to) = match notation::split_word(rest, "for") {
            Some((n, who)) => (n, Some(who)),
            None => (rest, None),
        };
        let add: i64 = n
            .trim()
            .parse()
            .map_err(|_| BoardError::semantic("play.add", format!("'{n}' is not a number")))?;
        let to = match to {
            Some(w) => Some(
                names::resolve(w, &names_of(b), "player")
                    .map_err(|e| e.at("play.for"))?
                    .to_string(),
            ),
            None => None,
        };
        Ok(Play {
            add,
            to,
            player: None,
        })
    }

    fn completions(partial: &str, b: &Board) -> Vec<String> {
        if partial.trim().is_empty() {
            return vec!["add".into()];
        }
        if partial.split_whitespace().count() >= 2 && partial.ends_with(' ') {
            let mut v = vec!["for".to_string()];
            v.extend(b.players.iter().map(|p| p.name.clone()));
            return v;
        }
        vec![]
    }
}

/// `both!(name)`: the async test `name(url)` on SQLite and on PostgreSQL.
#[allow(unused_macros)]
macro_rules! both {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let (url, _dir) = super::store_common::sqlite_url();
                super::$name(url).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(url) = super::store_common::postgres_or_skip().await else {
                    return;
                };
                super::$name(url).await;
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use both;

/// A two-player tally board.
pub fn tally_board() -> &'static str {
    "game: tally\nplayers:\n  - { name: Ann }\n  - { name: Bob }\ntotal: 0\n"
}

pub fn matches(store: arbiter::store::Store) -> arbiter::app::matches::Matches {
    arbiter::app::matches::Matches::with_engines(store, vec![&TALLY])
}

// ---- databases ----

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Sets up a board in `caller`'s channel as a moderator who holds no seat
/// (`judge`), at once: a player's starting board is a proposal the other
/// players confirm, which the tests of that flow do themselves
/// (tests/it/match_integrity.rs, tests/it/whole_match.rs).
pub async fn setup_as_judge(
    m: &arbiter::app::matches::Matches,
    caller: &arbiter::app::matches::Caller,
    board: &str,
) -> Result<arbiter::app::matches::MatchView, arbiter::app::matches::MatchError> {
    let mut judge = arbiter::app::matches::Caller::new(&caller.channel, "judge", true);
    judge.guild = caller.guild.clone();
    m.setup(&judge, board).await
}

/// An Ashes match of coal-user and maeoni-user at `table` on
/// [`ASHES_BOARD`], set up by a judge; with `timeout`, its decisions'.
pub async fn ashes_match(
    url: &str,
    timeout: Option<std::time::Duration>,
) -> arbiter::app::matches::Matches {
    let store = arbiter::store::Store::connect(url).await.expect("connect");
    let mut m = arbiter::app::matches::Matches::new(store);
    if let Some(t) = timeout {
        m = m.with_decision_timeout(t);
    }
    m.start(
        &coal(),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    setup_as_judge(&m, &coal(), ASHES_BOARD).await.unwrap();
    m
}

/// Asserts that the match at `table` replays to its stored boards.
pub async fn consistent(m: &arbiter::app::matches::Matches) {
    let r = m.replay("table").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
}

/// A fresh SQLite database file URL; keep the directory alive.
pub fn sqlite_url() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("arbiter.db").display());
    (url, dir)
}

/// The variable that makes the PostgreSQL tests mandatory (CI sets it):
/// without a server they fail instead of being skipped.
pub const REQUIRE_POSTGRES: &str = "ARBITER_REQUIRE_POSTGRES";

/// Where the PostgreSQL tests get a server, or why they are skipped.
#[derive(Debug, Clone, PartialEq)]
pub enum PostgresPlan {
    /// `ARBITER_TEST_POSTGRES_URL`.
    Url(String),
    /// A throwaway cluster from these server binaries.
    Cluster(PathBuf),
    /// Neither, and not required: the tests pass without running.
    Skip(String),
    /// Neither, and required: the tests fail with this.
    Fail(String),
}

const NO_POSTGRES: &str = "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or in \
     /usr/lib/postgresql/*/bin, and ARBITER_TEST_POSTGRES_URL is not set";
const HOW_TO_RUN: &str = "install PostgreSQL (Debian/Ubuntu: `apt-get install postgresql`) or set \
     ARBITER_TEST_POSTGRES_URL to a server where the tests may create databases";

/// Decides where the PostgreSQL tests run: the given URL, else a cluster
/// from the binaries found, else skipped — or failed when `required`.
pub fn postgres_plan(url: Option<String>, bin: Option<PathBuf>, required: bool) -> PostgresPlan {
    if let Some(url) = url.filter(|u| !u.trim().is_empty()) {
        return PostgresPlan::Url(url);
    }
    match bin {
        Some(bin) => PostgresPlan::Cluster(bin),
        None if required => PostgresPlan::Fail(format!(
            "{NO_POSTGRES}; {REQUIRE_POSTGRES}=1 makes the PostgreSQL tests mandatory: {HOW_TO_RUN}"
        )),
        None => PostgresPlan::Skip(format!(
            "note: the PostgreSQL tests were skipped (they pass without running): {NO_POSTGRES}. \
             To run them, {HOW_TO_RUN}; {REQUIRE_POSTGRES}=1 makes them mandatory (CI sets it)."
        )),
    }
}

/// The plan for this process's environment.
pub fn postgres_plan_here() -> PostgresPlan {
    let required = std::env::var(REQUIRE_POSTGRES).is_ok_and(|v| v.trim() == "1");
    postgres_plan(
        std::env::var("ARBITER_TEST_POSTGRES_URL").ok(),
        pg_bin_dir(),
        required,
    )
}

/// A fresh PostgreSQL database URL, or `None` when the PostgreSQL tests are
/// skipped here (said once per test binary, past the output capture).
pub async fn postgres_or_skip() -> Option<String> {
    if let PostgresPlan::Skip(why) = postgres_plan_here() {
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{why}");
        });
        return None;
    }
    Some(postgres_url().await)
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
    match postgres_plan_here() {
        PostgresPlan::Url(url) => url,
        PostgresPlan::Cluster(_) => CLUSTER.get_or_init(|| start_cluster(true)).clone(),
        PostgresPlan::Skip(why) | PostgresPlan::Fail(why) => panic!("{why}"),
    }
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
        panic!("{NO_POSTGRES}: {HOW_TO_RUN}");
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
