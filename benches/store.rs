//! Match storage benchmarks: acknowledged plays per second on SQLite (WAL,
//! synchronous=NORMAL) and on a local PostgreSQL with durable defaults
//! (fsync on, synchronous_commit on), and loading a channel's match that has
//! 1,000 plays. Run: `cargo bench --bench store`. PostgreSQL comes from
//! ARBITER_TEST_POSTGRES_URL or a throwaway cluster started here.
//!
//! A play here is the whole service path: read the match, parse the
//! notation, judge (the tiny "tally" test game, so the engine costs ~nothing
//! and the figure is the store's), append in a transaction, commit.

#[path = "../tests/store_common/mod.rs"]
mod store_common;

use std::sync::OnceLock;

use arbiter::app::matches::{Caller, Matches};
use arbiter::store::{EventKind, NewEvent, Store};
use divan::Bencher;
use serde_json::json;

fn main() {
    divan::main();
}

fn rt() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
    })
}

struct Fixture {
    svc: Matches,
    _dir: Option<tempfile::TempDir>,
}

fn caller(channel: &str) -> Caller {
    Caller::new(channel, "ann", false)
}

async fn fixture(url: String, dir: Option<tempfile::TempDir>) -> Fixture {
    let svc = store_common::matches(Store::connect(&url).await.expect("connect"));
    // A match to play on.
    let c = caller("play");
    svc.start(&c, "tally", &["ann".into(), "bob".into()])
        .await
        .unwrap();
    store_common::setup_as_judge(&svc, &c, store_common::tally_board())
        .await
        .unwrap();
    // Matches in other channels, played in parallel.
    for ch in 0..CHANNELS {
        let c = caller(&format!("par{ch}"));
        svc.start(&c, "tally", &["ann".into()]).await.unwrap();
        store_common::setup_as_judge(&svc, &c, store_common::tally_board())
            .await
            .unwrap();
    }
    // A match with 1,000 plays and a board of a realistic size (~3 KB).
    let store = svc.store().clone();
    let m = store
        .create_match("loaded", "tally", &["ann".into(), "bob".into()], "ann")
        .await
        .unwrap();
    let units: Vec<_> = (0..30)
        .map(|i| json!({"name": format!("Unit {i}"), "attack": 2, "life": 3, "damage": 0, "exhausted": false}))
        .collect();
    for seq in 0..=1000i64 {
        let ev = NewEvent {
            kind: if seq == 0 {
                EventKind::Setup
            } else {
                EventKind::Play
            },
            actor: "ann".into(),
            input: Some(format!("attack unit \"Unit {}\" with Unit 1", seq % 30)),
            play: Some(json!({"action": "attack-unit", "target": format!("Unit {}", seq % 30)})),
            ruling: Some(json!({"legal": true, "steps": [{"rule": "ashes:x", "text": "damage"}]})),
            state: json!({"game": "tally", "round": seq, "players": [{"name": "Ann", "units": units}, {"name": "Bob", "units": units}]}),
            undoes: None,
            context: None,
            interaction: None,
            deadline: None,
            transition: Default::default(),
        };
        store.append(m.id, seq, &ev).await.unwrap();
    }
    Fixture { svc, _dir: dir }
}

fn sqlite() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let (url, dir) = store_common::sqlite_url();
        rt().block_on(fixture(url, Some(dir)))
    })
}

fn postgres() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| postgres_fixture(""))
}

/// The same server, with `synchronous_commit=off` for this client's
/// sessions (set in the URL): a commit returns before its WAL is flushed.
fn postgres_async_commit() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| postgres_fixture("?options=-c%20synchronous_commit%3Doff"))
}

fn pg_server() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        std::env::var("ARBITER_TEST_POSTGRES_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| store_common::start_cluster(false))
    })
}

fn postgres_fixture(params: &str) -> Fixture {
    let url = pg_server();
    rt().block_on(async {
        // A fresh database on that server.
        use sqlx::Connection;
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let name = format!(
            "arbiter_bench_{}_{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
        sqlx::Executor::execute(&mut conn, format!("CREATE DATABASE {name}").as_str())
            .await
            .expect("create database");
        let db = store_common::with_database(url, &name);
        let db = format!("{}{params}", db.split('?').next().unwrap_or(&db));
        fixture(db, None).await
    })
}

/// Channels played at once in the parallel benchmarks.
const CHANNELS: usize = 8;
/// Plays per channel per iteration there.
const PER_CHANNEL: usize = 10;

fn play(b: Bencher, f: &'static Fixture) {
    let c = caller("play");
    b.counter(divan::counter::ItemsCount::new(1usize))
        .bench_local(|| {
            rt().block_on(async {
                let r = f.svc.play(&c, "add 1", None).await.unwrap();
                assert!(r.applied);
            })
        });
}

/// `CHANNELS` channels, each playing `PER_CHANNEL` plays one after another
/// (one user per channel waits for each ruling), all channels at once.
fn play_parallel(b: Bencher, f: &'static Fixture) {
    b.counter(divan::counter::ItemsCount::new(CHANNELS * PER_CHANNEL))
        .bench_local(|| {
            rt().block_on(async {
                let mut tasks = Vec::new();
                for ch in 0..CHANNELS {
                    let svc = f.svc.clone();
                    tasks.push(tokio::spawn(async move {
                        let c = caller(&format!("par{ch}"));
                        for _ in 0..PER_CHANNEL {
                            let r = svc.play(&c, "add 1", None).await.unwrap();
                            assert!(r.applied);
                        }
                    }));
                }
                for t in tasks {
                    t.await.unwrap();
                }
            })
        });
}

fn load(b: Bencher, f: &'static Fixture) {
    b.bench_local(|| {
        rt().block_on(async {
            let v = f.svc.board("loaded").await.unwrap();
            assert_eq!(v.version, 1001);
        })
    });
}

/// One acknowledged play (read, judge, append, commit) on SQLite.
#[divan::bench(sample_count = 300)]
fn play_sqlite(b: Bencher) {
    play(b, sqlite());
}

/// One acknowledged play on local PostgreSQL (durable defaults).
#[divan::bench(sample_count = 300)]
fn play_postgres(b: Bencher) {
    play(b, postgres());
}

/// 8 channels playing at once on SQLite (one writer at a time: WAL).
#[divan::bench(sample_count = 30)]
fn play_8_channels_sqlite(b: Bencher) {
    play_parallel(b, sqlite());
}

/// 8 channels playing at once on PostgreSQL (commits overlap).
#[divan::bench(sample_count = 30)]
fn play_8_channels_postgres(b: Bencher) {
    play_parallel(b, postgres());
}

/// One acknowledged play on PostgreSQL with `synchronous_commit=off`.
#[divan::bench(sample_count = 300)]
fn play_postgres_async_commit(b: Bencher) {
    play(b, postgres_async_commit());
}

/// The append transaction alone (UPDATE version, INSERT event, COMMIT)
/// through `sqlx::Any`, as the store runs it on SQLite.
#[divan::bench(sample_count = 300)]
fn append_sqlite_any(b: Bencher) {
    let (url, dir) = store_common::sqlite_url();
    let store = rt().block_on(Store::connect(&url)).unwrap();
    let m = rt()
        .block_on(store.create_match("raw", "raw", &["u".into()], "u"))
        .unwrap();
    let ev = raw_event();
    let mut v = 0;
    b.counter(divan::counter::ItemsCount::new(1usize))
        .bench_local(|| {
            v = rt().block_on(store.append(m.id, v, &ev)).unwrap();
        });
    drop(dir);
}

/// The same statements through the native SQLite driver (no Any layer).
#[divan::bench(sample_count = 300)]
fn append_sqlite_native(b: Bencher) {
    use sqlx::sqlite::{
        SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
    };
    let (_, dir) = store_common::sqlite_url();
    let opts = SqliteConnectOptions::new()
        .filename(dir.path().join("native.db"))
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal);
    let pool = rt().block_on(async {
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(opts)
            .await
            .unwrap();
        arbiter::store::migrator().run(&pool).await.unwrap();
        sqlx::query(
            "INSERT INTO arbiter_matches (id, channel, game, players, status, version, started_by, started_at) \
             VALUES (1, 'raw', 'raw', '[]', 'active', 0, 'u', 0)",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool
    });
    let ev = raw_event();
    let state = serde_json::to_string(&ev.state).unwrap();
    let play = serde_json::to_string(&ev.play).unwrap();
    let mut v: i64 = 0;
    b.counter(divan::counter::ItemsCount::new(1usize))
        .bench_local(|| {
            rt().block_on(async {
                let mut tx = pool.begin().await.unwrap();
                let n = sqlx::query(
                    "UPDATE arbiter_matches SET version = $1 WHERE id = $2 AND version = $3 AND status = 'active'",
                )
                .bind(v + 1)
                .bind(1i64)
                .bind(v)
                .execute(&mut *tx)
                .await
                .unwrap()
                .rows_affected();
                assert_eq!(n, 1);
                sqlx::query(
                    "INSERT INTO arbiter_match_events (match_id, seq, kind, actor, input, play, ruling, state, undoes, at) \
                     VALUES ($1, $2, 'play', 'u', NULL, $3, NULL, $4, NULL, 0)",
                )
                .bind(1i64)
                .bind(v + 1)
                .bind(&play)
                .bind(&state)
                .execute(&mut *tx)
                .await
                .unwrap();
                tx.commit().await.unwrap();
                v += 1;
            })
        });
    drop(dir);
}

fn raw_event() -> NewEvent {
    NewEvent {
        kind: EventKind::Play,
        actor: "u".into(),
        input: None,
        play: Some(json!({"add": 1})),
        ruling: None,
        state: json!({"game": "tally", "players": [{"name": "Ann", "score": 1}], "total": 1}),
        undoes: None,
        context: None,
        interaction: None,
        deadline: None,
        transition: Default::default(),
    }
}

/// Loading a channel's match (row + current board) with 1,000 plays, SQLite.
#[divan::bench(sample_count = 300)]
fn load_1000_plays_sqlite(b: Bencher) {
    load(b, sqlite());
}

/// The same on PostgreSQL.
#[divan::bench(sample_count = 300)]
fn load_1000_plays_postgres(b: Bencher) {
    load(b, postgres());
}

/// The last log page of that match.
#[divan::bench(sample_count = 100)]
fn log_page_1000_plays_sqlite(b: Bencher) {
    let f = sqlite();
    b.bench_local(|| {
        rt().block_on(async {
            let l = f.svc.log("loaded", None).await.unwrap();
            assert_eq!(l.entries.len(), 1);
        })
    });
}
