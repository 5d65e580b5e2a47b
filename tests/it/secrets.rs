//! Secrets stay out of help, errors and logs; a database that cannot be
//! opened fails within the connect timeout with the real cause (CLI and
//! server log) and a generic message with an error id on Discord.

use crate::discord_kit;
use crate::store_common;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use discord_kit::*;

const SECRET: &str = "hunter2-S3cret";
const TOKEN: &str = "MTIzNDU2Nzg5.secret-bot-token";

fn arbiter() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.env(
        "ARBITER_DATA",
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
    )
    .env_remove("ARBITER_RULES_DIRS")
    .env("RUST_LOG", "info")
    .stdin(Stdio::null());
    c
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A URL that refuses at once: nothing listens on port 1.
fn refused_url() -> String {
    format!("postgres://arbiter:{SECRET}@127.0.0.1:1/matches")
}

#[test]
fn help_never_shows_the_values_of_secret_variables() {
    for args in [
        &["serve", "--help"][..],
        &["match", "--help"],
        &["match", "board", "--help"],
        &["console", "--help"],
    ] {
        let o = arbiter()
            .args(args)
            .env("DATABASE_URL", refused_url())
            .env("DISCORD_TOKEN", TOKEN)
            .env("DISCORD_PUBLIC_KEY", "ab".repeat(32))
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let out = text(&o);
        assert!(out.contains("DATABASE_URL"), "{args:?}: {out}");
        for secret in [SECRET, TOKEN, &"ab".repeat(32)] {
            assert!(!out.contains(secret), "{args:?} shows a secret: {out}");
        }
    }
}

#[test]
fn a_refused_database_fails_at_once_with_the_cause_and_no_password() {
    let t = Instant::now();
    let o = arbiter()
        .args(["match", "board", "--database-url", &refused_url()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let out = text(&o);
    assert!(out.contains("Connection refused"), "{out}");
    assert!(out.contains("arbiter:***@127.0.0.1:1"), "{out}");
    assert!(!out.contains(SECRET), "{out}");
    assert!(!out.contains("pool timed out"), "{out}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn a_database_that_never_answers_fails_after_the_connect_timeout() {
    // Accepts connections (the kernel's backlog) and never says a word.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "postgres://arbiter:{SECRET}@{}/matches",
        silent.local_addr().unwrap()
    );
    let t = Instant::now();
    let o = arbiter()
        .args(["match", "board"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    let took = t.elapsed();
    assert!(!o.status.success());
    let out = text(&o);
    assert!(out.contains("no answer within 5 s"), "{out}");
    assert!(!out.contains(SECRET), "{out}");
    assert!(
        took >= Duration::from_secs(4) && took < Duration::from_secs(9),
        "{took:?}"
    );
}

#[test]
fn a_sqlite_file_that_cannot_be_created_says_so() {
    let o = arbiter()
        .args([
            "match",
            "board",
            "--database-url",
            "sqlite:///no/such/folder/arbiter.db",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let out = text(&o);
    assert!(out.contains("unable to open database file"), "{out}");
}

#[test]
fn serve_stops_with_the_cause_when_the_database_cannot_be_opened() {
    let t = Instant::now();
    let o = arbiter()
        .args(["serve", "--http", "127.0.0.1:0"])
        .env("DISCORD_PUBLIC_KEY", "ab".repeat(32))
        .env("DATABASE_URL", refused_url())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("Connection refused"), "{out}");
    assert!(!out.contains(SECRET), "{out}");
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
}

/// The database goes away under a running server: the Discord user gets a
/// generic message with an error id; the server's log has the same id with
/// the cause, and never the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_failure_at_run_time_is_an_error_id_for_users_and_the_cause_in_the_log() {
    let Some(url) = store_common::postgres_or_skip().await else {
        return;
    };
    // Trust authentication ignores the password, which is the point: it is
    // in the URL, and must appear nowhere.
    let with_password = url.replacen("postgres@", &format!("postgres:{SECRET}@"), 1);
    let db = url.rsplit('/').next().unwrap().to_string();
    let key = keypair();
    // Two distinct free ports: both held until both are chosen.
    let (a, b) = (
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
    );
    let addr = a.local_addr().unwrap().to_string();
    let metrics_addr = b.local_addr().unwrap().to_string();
    drop((a, b));
    let mut child = arbiter()
        .args(["serve", "--http", &addr, "--metrics", &metrics_addr])
        .env("DISCORD_PUBLIC_KEY", public_hex(&key))
        .env("DATABASE_URL", &with_password)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while client
        .get(format!("http://{addr}/healthz"))
        .send()
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "the server never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The database disappears.
    {
        use sqlx::Connection;
        let base = store_common::with_database(&url, "postgres");
        let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
        sqlx::Executor::execute(
            &mut admin,
            format!("DROP DATABASE {db} WITH (FORCE)").as_str(),
        )
        .await
        .unwrap();
    }
    let payload = as_member(
        match_sub("board", vec![]),
        "1300000000000000301",
        "Coal",
        PLAYER_PERMISSIONS,
    );
    let v = post_signed(&client, &key, &addr, &payload).await;
    let e = &v["data"]["embeds"][0];
    assert_eq!(e["title"], "Something went wrong on our side", "{v}");
    assert_eq!(v["data"]["flags"], 64, "ephemeral: {v}");
    let id = e["footer"]["text"]
        .as_str()
        .and_then(|f| f.strip_prefix("error id "))
        .expect("an error id")
        .to_string();
    let shown = v.to_string();
    assert!(
        !shown.contains("database") && !shown.contains(SECRET),
        "{v}"
    );
    // Metrics are on their own listener, never on the public endpoint.
    let public = client
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), 404);
    let metrics = client
        .get(format!("http://{metrics_addr}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let db_errors: f64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("arbiter_db_errors_total "))
        .and_then(|n| n.trim().parse().ok())
        .expect("arbiter_db_errors_total");
    assert!(db_errors >= 1.0, "{metrics}");

    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    let line = log
        .lines()
        .find(|l| l.contains(&id))
        .unwrap_or_else(|| panic!("the error id {id} is not in the log:\n{log}"));
    assert!(line.contains("database") || line.contains(&db), "{line}");
    assert!(!log.contains(SECRET), "the password is in the log:\n{log}");
}
