//! Crash and restart on SQLite with the real binary: a stream of
//! `arbiter match play` / `match undo` processes, about half of them killed
//! with SIGKILL at a random moment. Every acknowledged play (exit 0 with its
//! seq) must be in the log at that seq, the log has no gaps, the stored board
//! equals the replay, and the match continues after the crashes.
//!
//! Uses the first registered engine that has an example with a `plays` list
//! of several legal plays (TI4's whole action phase today): plays forward
//! through the list, then undoes back to the start, and again.

mod store_common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arbiter::app::matches::Matches;
use arbiter::engine::{self, document as board};
use arbiter::store::{EventKind, Store};
use serde_json::Value;

/// A copy of the binary (the shared target directory may be rebuilt by
/// others while this test runs).
fn binary(dir: &Path) -> PathBuf {
    let to = dir.join("arbiter");
    std::fs::copy(env!("CARGO_BIN_EXE_arbiter"), &to).expect("copy the binary");
    to
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A game, its starting board and a list of plays that are legal one after another.
fn scenario() -> Option<(String, Value, Vec<Value>)> {
    for e in engine::engines() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(e.game());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|x| x.ok()).map(|x| x.path()).collect();
        files.sort();
        for f in files {
            let Ok(text) = std::fs::read_to_string(&f) else {
                continue;
            };
            let Ok(Value::Object(mut doc)) = board::parse::<Value>(&text) else {
                continue;
            };
            let Some(Value::Array(plays)) = doc.remove("plays") else {
                continue;
            };
            if plays.len() < 5 || !e.judge_text(&text).is_ok_and(|r| r.legal) {
                continue;
            }
            return Some((e.game().to_string(), Value::Object(doc), plays));
        }
    }
    None
}

struct Run {
    bin: PathBuf,
    url: String,
    data: PathBuf,
}

impl Run {
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.bin);
        c.arg("match")
            .args(args)
            .args(["--database-url", &self.url, "--channel", "crash", "--json"])
            .env("ARBITER_DATA", &self.data)
            .env_remove("DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    fn ok(&self, args: &[&str]) -> Value {
        let out = self.command(args).output().expect("run arbiter");
        assert!(
            out.status.success(),
            "arbiter match {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("JSON reply")
    }
}

/// A tiny deterministic PRNG (xorshift) seeded from the clock.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Plays in effect (after the last setup, minus undos).
async fn depth(store: &Store, match_id: i64) -> usize {
    let mut d: usize = 0;
    for h in store.event_heads(match_id).await.unwrap() {
        match h.kind {
            EventKind::Setup => d = 0,
            EventKind::Undo => d = d.saturating_sub(1),
            k if k.undoable() => d += 1,
            _ => {}
        }
    }
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_during_a_stream_of_plays_loses_no_acknowledged_play() {
    let Some((game, start, plays)) = scenario() else {
        panic!("no registered engine has an example with a list of legal plays");
    };
    let dir = tempfile::tempdir().unwrap();
    let run = Run {
        bin: binary(dir.path()),
        url: format!("sqlite://{}", dir.path().join("arbiter.db").display()),
        data: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
    };
    let names: Vec<String> = start["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap_or("").to_string())
        .collect();
    let users: Vec<String> = (0..names.len()).map(|i| format!("user{i}")).collect();
    let mut start_args = vec!["start", "--game", &game, "--as", "user0"];
    for u in &users {
        start_args.extend(["--player", u.as_str()]);
    }
    let started = run.ok(&start_args);
    let match_id = started["match_id"].as_i64().unwrap();
    let board_file = dir.path().join("board.json");
    std::fs::write(&board_file, serde_json::to_string(&start).unwrap()).unwrap();
    run.ok(&["setup", board_file.to_str().unwrap(), "--as", "user0"]);
    // A player's board: every other player confirms it.
    for u in &users[1..] {
        run.ok(&["answer", "confirm", "--as", u.as_str()]);
    }

    let store = Store::connect(&run.url).await.unwrap();
    let mut rng = Rng(std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1);
    let mut acked: Vec<(i64, EventKind, Option<Value>)> = Vec::new();
    let mut typical = Duration::from_millis(150);
    let (mut kills, mut killed_runs, mut up) = (0, 0, true);
    for _ in 0..70 {
        let d = depth(&store, match_id).await;
        if d >= plays.len() {
            up = false;
        } else if d == 0 {
            up = true;
        }
        let (args, expect): (Vec<String>, Option<Value>) = if up {
            let play = &plays[d];
            let who = play["player"].as_str().unwrap_or("");
            let seat = names.iter().position(|n| fold(n) == fold(who)).unwrap_or(0);
            // A recorded sequence: the other players agreed to every play,
            // entered by a moderator who holds no seat (a player's
            // `agreed_by` alone only asks the others).
            let others: Vec<&String> = users.iter().filter(|u| **u != users[seat]).collect();
            // A moderator's entry asks the choices it leaves out: a
            // transaction's answer the example leaves unstated (judged as
            // declined) is written as judged.
            let mut play = play.clone();
            if play["type"] == "transaction" && play.get("accepted").is_none() {
                play["accepted"] = serde_json::json!(false);
            }
            let yaml =
                serde_json::to_string(&serde_json::json!({ "play": play, "agreed_by": others }))
                    .unwrap();
            (
                vec![
                    "play".into(),
                    "--as".into(),
                    "judge".into(),
                    "--moderator".into(),
                    yaml,
                ],
                Some(play.clone()),
            )
        } else {
            (
                vec![
                    "undo".into(),
                    "--as".into(),
                    "judge".into(),
                    "--moderator".into(),
                ],
                None,
            )
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let began = Instant::now();
        let mut child = run.command(&args).spawn().unwrap();
        let kill_at = if rng.below(2) == 0 {
            // From 60 % to 110 % of a typical run: where the
            // database work happens (the first half loads the rules).
            let ms = typical.as_millis() as u64;
            Some(Duration::from_millis(ms * 3 / 5 + rng.below(ms / 2)))
        } else {
            None
        };
        if let Some(at) = kill_at {
            kills += 1;
            while began.elapsed() < at {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if child.try_wait().unwrap().is_none() {
                child.kill().unwrap();
                killed_runs += 1;
            }
        }
        let out = child.wait_with_output().unwrap();
        if !out.status.success() {
            assert!(
                kill_at.is_some(),
                "arbiter match {args:?} failed without being killed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            continue;
        }
        if kill_at.is_none() {
            typical = (typical + began.elapsed()) / 2;
        }
        let reply: Value = serde_json::from_slice(&out.stdout).expect("JSON reply");
        if up {
            assert_eq!(reply["applied"], true, "{reply}");
            acked.push((reply["seq"].as_i64().unwrap(), EventKind::Play, expect));
        } else {
            acked.push((reply["seq"].as_i64().unwrap(), EventKind::Undo, None));
        }
    }
    eprintln!(
        "{} acknowledged, {kills} kills attempted, {killed_runs} processes killed mid-run",
        acked.len()
    );
    assert!(killed_runs > 0, "no process was killed mid-run");

    // Restart: a fresh process continues the match.
    let d = depth(&store, match_id).await;
    let next = if d < plays.len() {
        let play = &plays[d];
        let who = play["player"].as_str().unwrap_or("");
        let seat = names.iter().position(|n| fold(n) == fold(who)).unwrap_or(0);
        let yaml = serde_json::to_string(&serde_json::json!({ "play": play })).unwrap();
        run.ok(&["play", "--as", &users[seat], &yaml])
    } else {
        run.ok(&["undo", "--as", "judge", "--moderator"])
    };
    acked.push((
        next["seq"].as_i64().unwrap(),
        if d < plays.len() {
            EventKind::Play
        } else {
            EventKind::Undo
        },
        None,
    ));

    // Every acknowledged event is there, at its seq; no gaps.
    let m = store.match_by_id(match_id).await.unwrap().unwrap();
    let events = store.events(match_id, 1, m.version).await.unwrap();
    assert_eq!(events.len() as i64, m.version, "gaps in the log");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.seq, i as i64 + 1);
    }
    for (seq, kind, play) in &acked {
        let e = &events[(*seq - 1) as usize];
        assert_eq!(e.kind, *kind, "event {seq}");
        if let Some(p) = play {
            assert_eq!(e.play.as_ref(), Some(p), "event {seq}");
        }
    }
    let acked_seqs: std::collections::BTreeSet<i64> = acked.iter().map(|a| a.0).collect();
    let unacked = events
        .iter()
        .filter(|e| e.seq > 2 && !acked_seqs.contains(&e.seq))
        .count();
    eprintln!("{unacked} events committed by a process killed before it answered");
    // Acknowledged seqs are distinct and increasing.
    assert!(acked.windows(2).all(|w| w[0].0 < w[1].0));
    // The board equals the replay.
    let svc = Matches::new(store.clone());
    let r = svc.replay("crash").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
    assert_eq!(r.state, m.state);
    let verify = run.ok(&["verify"]);
    assert_eq!(verify["consistent"], true);
}
