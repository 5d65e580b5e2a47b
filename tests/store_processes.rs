//! 50 simultaneous plays on one channel from 50 separate `arbiter match
//! play` processes (each its own pool, as separate replicas are), on
//! PostgreSQL and on SQLite. A process told "board changed" is run again,
//! as a user would play again. Every play lands exactly once, the sequence
//! has no gaps, and the board equals the replay.
//!
//! The plays are Ashes side actions (`pay "Card N" no main`): legal in any
//! order and each recorded, so the outcome does not depend on who wins.
//! The variant through two `arbiter serve --http` replicas comes with the
//! bot's HTTP transport.

mod store_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arbiter::app::matches::Matches;
use arbiter::store::{EventKind, Store};
use serde_json::Value;

const PLAYS: usize = 50;

const BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 15 }
    units:
      - { name: Iron Worker, attack: 2, life: 2 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20 }
    units:
      - { name: Mist Spirit, attack: 1, life: 1 }
";

fn binary(dir: &Path) -> PathBuf {
    let to = dir.join("arbiter");
    std::fs::copy(env!("CARGO_BIN_EXE_arbiter"), &to).expect("copy the binary");
    to
}

fn arbiter(bin: &Path, url: &str, args: &[&str]) -> Command {
    let mut c = Command::new(bin);
    c.arg("match")
        .args(args)
        .args(["--database-url", url, "--channel", "race", "--json"])
        .env(
            "ARBITER_DATA",
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

async fn race(url: String) {
    let dir = tempfile::tempdir().unwrap();
    let bin = binary(dir.path());
    let board = dir.path().join("board.yaml");
    std::fs::write(&board, BOARD).unwrap();
    for args in [
        vec![
            "start", "--game", "ashes", "--player", "coal", "--player", "maeoni", "--as", "coal",
        ],
        vec!["setup", board.to_str().unwrap(), "--as", "coal"],
        // A player's board: the other player confirms it.
        vec!["answer", "confirm", "--as", "maeoni"],
    ] {
        let o = arbiter(&bin, &url, &args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    // 50 clients at once, each a process per attempt.
    let threads: Vec<_> = (1..=PLAYS)
        .map(|i| {
            let (bin, url) = (bin.clone(), url.clone());
            std::thread::spawn(move || {
                let line = format!("pay \"Card {i}\" no main");
                let mut conflicts = 0;
                loop {
                    let o = arbiter(&bin, &url, &["play", "--as", "coal", &line])
                        .output()
                        .unwrap();
                    let reply: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
                    if o.status.success() {
                        assert_eq!(reply["applied"], true, "{reply}");
                        return (i, reply["seq"].as_i64().unwrap(), conflicts);
                    }
                    assert_eq!(
                        reply["kind"],
                        "board_changed",
                        "play {i}: {}",
                        String::from_utf8_lossy(&o.stderr)
                    );
                    conflicts += 1;
                }
            })
        })
        .collect();
    let mut acked = BTreeMap::new();
    let mut conflicts = 0;
    for t in threads {
        let (i, seq, c) = t.join().unwrap();
        assert!(
            acked.insert(seq, i).is_none(),
            "seq {seq} acknowledged twice"
        );
        conflicts += c;
    }
    eprintln!("{PLAYS} processes, {conflicts} board-changed refusals played again");

    let store = Store::connect(&url).await.unwrap();
    let m = store.active_match("race").await.unwrap().unwrap();
    // The board proposed, its confirmation, then the plays.
    assert_eq!(m.version, PLAYS as i64 + 2);
    let events = store.events(m.id, 1, m.version).await.unwrap();
    assert_eq!(events.len(), PLAYS + 2, "gaps in the log");
    assert_eq!(
        acked.keys().copied().collect::<Vec<_>>(),
        (3..=PLAYS as i64 + 2).collect::<Vec<_>>()
    );
    for (seq, i) in &acked {
        let e = &events[(*seq - 1) as usize];
        assert_eq!(e.kind, EventKind::Play);
        assert_eq!(
            e.input.as_deref(),
            Some(format!("pay \"Card {i}\" no main").as_str()),
            "seq {seq}"
        );
    }
    let r = Matches::new(store.clone()).replay("race").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
    assert_eq!(r.state, m.state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_plays_from_fifty_processes_postgres() {
    let Some(url) = store_common::postgres_or_skip().await else {
        return;
    };
    race(url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_plays_from_fifty_processes_sqlite() {
    let (url, _dir) = store_common::sqlite_url();
    race(url).await;
}

/// Processes starting at once on a fresh SQLite file all migrate it (or
/// find it migrated): none fails.
#[test]
fn fresh_sqlite_file_opened_by_many_processes_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let bin = binary(dir.path());
    let url = format!("sqlite://{}", dir.path().join("fresh.db").display());
    let children: Vec<_> = (0..12)
        .map(|_| arbiter(&bin, &url, &["board"]).spawn().unwrap())
        .collect();
    for c in children {
        let o = c.wait_with_output().unwrap();
        let reply: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
        assert_eq!(
            reply["kind"],
            "no_match",
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
