//! Migrations come from `sqlx::migrate!("./migrations")`: every file in the
//! folder is embedded (nothing listed by hand), a fresh database gets each
//! one, and a database migrated by this build takes a new file as the next
//! release would ship it. On SQLite and PostgreSQL.

use crate::store_common;

use std::path::PathBuf;

use arbiter::store::{Store, migrator};
use sqlx::Connection;

fn migration_files() -> Vec<(i64, String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/store/migrations");
    let mut out: Vec<(i64, String, String)> = std::fs::read_dir(&dir)
        .expect("crates/store/migrations/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            let (version, description) = name.split_once('_').expect("NNNN_name.sql");
            (
                version.parse().expect("a numeric version"),
                description.replace('_', " "),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_file_in_migrations_is_embedded() {
    let files = migration_files();
    assert!(files.len() >= 2, "{files:?}");
    let embedded: Vec<(i64, String, String)> = migrator()
        .iter()
        .map(|m| (m.version, m.description.to_string(), m.sql.to_string()))
        .collect();
    assert_eq!(
        embedded.iter().map(|m| m.0).collect::<Vec<_>>(),
        files.iter().map(|f| f.0).collect::<Vec<_>>(),
        "the embedded migrations are not the files in migrations/"
    );
    for (e, f) in embedded.iter().zip(&files) {
        assert_eq!(e.1, f.1, "description of {}", f.0);
        assert_eq!(e.2, f.2, "text of migration {}", f.0);
    }
}

async fn applied(url: &str) -> Vec<(i64, Vec<u8>)> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(
        "SELECT version, checksum FROM _sqlx_migrations WHERE success ORDER BY version",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    conn.close().await.ok();
    rows
}

/// A fresh database gets every migration; then a folder holding the same
/// files plus a new one (as a later release ships it) applies just the new
/// one: the embedded checksums equal what sqlx computes from the files.
async fn fresh_then_new_file(url: String) {
    let store = Store::connect(&url).await.expect("connects and migrates");
    store.close().await;
    let embedded: Vec<(i64, Vec<u8>)> = migrator()
        .iter()
        .map(|m| (m.version, m.checksum.to_vec()))
        .collect();
    assert_eq!(applied(&url).await, embedded);

    let dir = tempfile::tempdir().unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/store/migrations");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    std::fs::write(
        dir.path().join("9999_probe.sql"),
        "CREATE TABLE arbiter_probe (id BIGINT NOT NULL PRIMARY KEY);\n",
    )
    .unwrap();
    let next = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    next.run(&pool)
        .await
        .expect("the new file applies on top of this build's migrations");
    sqlx::query("INSERT INTO arbiter_probe (id) VALUES (1)")
        .execute(&pool)
        .await
        .expect("the new table exists");
    pool.close().await;
    let versions: Vec<i64> = applied(&url).await.into_iter().map(|(v, _)| v).collect();
    assert_eq!(versions.last(), Some(&9999), "{versions:?}");
    // This build, started again on that database, neither fails nor re-applies.
    let store = Store::connect(&url).await.expect("a newer database opens");
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_fresh_then_a_new_file() {
    let (url, _dir) = store_common::sqlite_url();
    fresh_then_new_file(format!("{url}?mode=rwc")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_fresh_then_a_new_file() {
    let Some(url) = store_common::postgres_or_skip().await else {
        return;
    };
    fresh_then_new_file(url).await;
}

/// A CLI run on a database already migrated logs nothing of the
/// migrations (PostgreSQL's NOTICE "relation … already exists" included).
async fn a_second_run_logs_nothing_of_the_migrations(url: String) {
    Store::connect(&url).await.unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "board", "--channel", "c", "--database-url", &url])
        .env("RUST_LOG", "info")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no active match"), "{err}");
    assert!(
        !err.contains("already exists") && !err.contains("INFO"),
        "{err}"
    );
}
store_common::both!(a_second_run_logs_nothing_of_the_migrations);

/// A file that is not a SQLite database is refused at once, saying so.
#[test]
fn a_file_that_is_not_a_database_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.db");
    std::fs::write(&path, "these are my notes, not a database\n").unwrap();
    let started = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["match", "board", "--channel", "c", "--database-url"])
        .arg(format!("sqlite://{}", path.display()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("is not a SQLite database"), "{err}");
    assert!(!err.contains("reachable"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "these are my notes, not a database\n",
        "the file is left as it was"
    );
}

/// Migration 0010 on a database with votes from before it: each user's
/// latest vote per answer is kept, an older duplicate goes, rows tied at
/// the same millisecond stay (without a key), and new presses upsert.
async fn feedback_votes_deduplicated_by_0010(url: String) {
    let dir = tempfile::tempdir().unwrap();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/store/migrations");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.as_str() < "0010" {
            std::fs::copy(&p, dir.path().join(&name)).unwrap();
        }
    }
    let before = sqlx::migrate::Migrator::new(dir.path()).await.unwrap();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    before.run(&pool).await.unwrap();
    for (user, verdict, at) in [
        ("u1", "up", 1),
        ("u1", "down", 2),
        ("u2", "up", 5),
        ("u2", "up", 5),
        ("u1", "right", 3),
    ] {
        sqlx::query(
            "INSERT INTO arbiter_feedback (guild, ask, user_id, verdict, rule, question, game, shown, confidence, at) \
             VALUES ('g', 'k', $1, $2, NULL, 'q', NULL, '[]', 'none', $3)",
        )
        .bind(user)
        .bind(verdict)
        .bind(at as i64)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let store = Store::connect(&url)
        .await
        .expect("0010 applies on old votes");
    let rows: Vec<(String, String, i64)> = store
        .feedback(Some("g"))
        .await
        .unwrap()
        .into_iter()
        .map(|f| (f.user_id, f.verdict.as_str().to_string(), f.at))
        .collect();
    assert_eq!(
        rows,
        [
            ("u1".into(), "down".into(), 2),
            ("u1".into(), "right".into(), 3),
            ("u2".into(), "up".into(), 5),
            ("u2".into(), "up".into(), 5),
        ]
    );
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_feedback_votes_deduplicated_by_0010() {
    let (url, _dir) = store_common::sqlite_url();
    feedback_votes_deduplicated_by_0010(format!("{url}?mode=rwc")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_feedback_votes_deduplicated_by_0010() {
    let Some(url) = store_common::postgres_or_skip().await else {
        return;
    };
    feedback_votes_deduplicated_by_0010(url).await;
}
