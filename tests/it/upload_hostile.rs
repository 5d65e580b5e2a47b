//! Hostile uploads through the real `/rules add` path of a running
//! `arbiter serve --http` (issue 27): signed interactions, the file served
//! by a loopback stand-in of Discord's CDN, the conversion in its child
//! process. Throughout, `/healthz` and another server's `/rule` and
//! `/judge` answer within 1 s; each uploader gets one clear error naming
//! the limit; nothing is stored; the server's peak memory stays in budget.

use crate::discord_kit;
use crate::hostile;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::Value;

const UPLOADER: &str = "1300000000000000100";
const OTHER: &str = "1300000000000000999";
/// Peak resident memory the server may reach in this test.
const RSS_BUDGET_KB: u64 = 600 * 1024;

struct Server {
    child: Child,
    addr: String,
    key: SigningKey,
    fake: FakeDiscord,
    client: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start() -> Server {
    let key = keypair();
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--http", &addr, "--discord-api", &fake.url()])
        .env("DISCORD_PUBLIC_KEY", public_hex(&key))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("rules.db").display()),
        )
        .env(
            "ARBITER_DATA",
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
        )
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start arbiter serve --http");
    let mut server = Server {
        child,
        addr,
        key,
        fake,
        client: reqwest::Client::new(),
        _dir: dir,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.healthz().await.is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            panic!("the server exited: {status}");
        }
        assert!(Instant::now() < deadline, "the server never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    server
}

impl Server {
    async fn healthz(&self) -> Result<(), reqwest::Error> {
        self.client
            .get(format!("http://{}/healthz", self.addr))
            .timeout(Duration::from_secs(5))
            .send()
            .await?
            .error_for_status()
            .map(|_| ())
    }

    async fn post(&self, payload: &Value) -> Value {
        post_signed(&self.client, &self.key, &self.addr, payload).await
    }

    /// What a deferred interaction finally showed (up to 60 s).
    async fn shown(&self, payload: &Value, ack: &Value) -> String {
        if ack["type"] != 5 {
            return text(&ack["data"]);
        }
        let token = payload["token"].as_str().unwrap().to_string();
        let found = self
            .fake
            .wait_for(1200, |r| {
                let edit = r.edits.iter().find(|(t, _)| *t == token);
                let follow = r.followups.iter().find(|(t, _)| *t == token);
                edit.or(follow).map(|(_, v)| v.clone())
            })
            .await;
        text(&found.expect("the deferred upload was answered"))
    }

    /// Peak resident memory of the server process (kB).
    fn peak_rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

fn text(data: &Value) -> String {
    let e = &data["embeds"][0];
    format!("{} {} {}", e["title"], e["description"], data["content"])
}

fn upload(s: &Server, name: &str, bytes: Vec<u8>, kind: &str) -> Value {
    let size = bytes.len();
    let url = s.fake.serve_file(name, bytes);
    let payload = rules_add_doc(&url, size, [name, "Kitchen Table", kind, "Upload"]);
    as_member(
        in_guild(payload, UPLOADER),
        USER_ID,
        "Mallory",
        ADMIN_PERMISSIONS,
    )
}

/// Asks, every 150 ms until stopped, `/healthz` and another server's
/// `/rule` and `/judge`; returns the slowest answer and any failure.
fn probe(
    s: Arc<Server>,
    stop: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<(Duration, Vec<String>)> {
    let board = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/ashes/attack-phoenixborn.yaml"),
    )
    .unwrap();
    tokio::spawn(async move {
        let (mut slowest, mut failures) = (Duration::ZERO, Vec::new());
        while !stop.load(Ordering::Relaxed) {
            let t = Instant::now();
            if let Err(e) = s.healthz().await {
                failures.push(format!("healthz: {e}"));
            }
            let rule = in_guild(
                slash(
                    "rule",
                    vec![
                        opt("query", "can an exhausted phoenixborn guard"),
                        opt("game", "ashes"),
                    ],
                ),
                OTHER,
            );
            let v = s.post(&rule).await;
            if !text(&v["data"]).contains("ashes:attack-a-unit.3") {
                failures.push(format!("/rule: {v}"));
            }
            let judge = in_guild(slash("judge", vec![opt("board", &board)]), OTHER);
            let v = s.post(&judge).await;
            if v["type"] != 4 && v["type"] != 5 {
                failures.push(format!("/judge: {v}"));
            }
            slowest = slowest.max(t.elapsed() / 3);
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        (slowest, failures)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_uploads_get_a_clear_error_and_hurt_nobody() {
    let s = Arc::new(start().await);
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = probe(s.clone(), stop.clone());
    let cases: Vec<(&str, Vec<u8>, &str, &[&str])> = vec![
        (
            "self-form.pdf",
            hostile::pdf_self_drawing_form(),
            "rules",
            &["stopped on this PDF", "needs more than"],
        ),
        (
            "fan-out.pdf",
            hostile::pdf_fan_out(10, 8),
            "rules",
            &["processor time", "took longer than"],
        ),
        (
            "bomb.pdf",
            hostile::pdf_flate_bomb(1 << 30),
            "rules",
            &["MB of memory", "converts to more than", "MB of text"],
        ),
        (
            "cmap.pdf",
            hostile::pdf_cmap_bomb(200_000),
            "rules",
            &[
                "MB of memory",
                "processor time",
                "MB of text",
                "stopped on",
                "took longer",
                "no text could be read",
                "cannot be read as a PDF",
            ],
        ),
        (
            "deep.html",
            hostile::html_nested("b", 200_000),
            "rules",
            &["nests its HTML elements more than 400 deep"],
        ),
        (
            "deep-div.html",
            hostile::html_nested("div", 100_000),
            "rules",
            &["nests its HTML elements more than 400 deep"],
        ),
        (
            "lists.md",
            hostile::markdown_nested_lists(1500),
            "rules",
            &["levels deep", "processor time", "took longer"],
        ),
        (
            "cards.csv",
            hostile::csv_rows(1_000_000),
            "cards",
            &["more than 20000 cards"],
        ),
    ];
    for (name, bytes, kind, expected) in cases {
        let t = Instant::now();
        let payload = upload(&s, name, bytes, kind);
        let ack = s.post(&payload).await;
        let shown = s.shown(&payload, &ack).await;
        assert!(
            expected.iter().any(|e| shown.contains(e)),
            "{name}: {shown}"
        );
        assert!(
            !shown.contains("rules-confirm"),
            "{name}: no preview to confirm: {shown}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(40),
            "{name}: {:?}",
            t.elapsed()
        );
        eprintln!("{name}: refused in {:?}", t.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    let (slowest, failures) = watcher.await.unwrap();
    assert!(failures.is_empty(), "{failures:?}");
    assert!(
        slowest < Duration::from_secs(1),
        "slowest answer {slowest:?}"
    );

    // Nothing was stored.
    let list = as_member(
        in_guild(rules_sub("list", vec![]), UPLOADER),
        USER_ID,
        "Mallory",
        ADMIN_PERMISSIONS,
    );
    let v = s.post(&list).await;
    let shown = s.shown(&list, &v).await;
    assert!(shown.contains("added no documents"), "{shown}");

    // Two servers each add a real rulebook; both are answered, and the
    // server stays within its memory budget.
    let book = rulebook();
    let ask = |guild: &str| {
        in_guild(
            slash(
                "rule",
                vec![opt("query", "what does rule 105 say about ties")],
            ),
            guild,
        )
    };
    for guild in [UPLOADER, OTHER] {
        let url = s.fake.serve_file("book.txt", book.clone());
        let payload = as_member(
            in_guild(
                rules_add_doc(&url, book.len(), ["book.txt", "Big Game", "rules", "Big"]),
                guild,
            ),
            USER_ID,
            "Ops",
            ADMIN_PERMISSIONS,
        );
        let ack = s.post(&payload).await;
        let preview = s.shown(&payload, &ack).await;
        let token = payload["token"].as_str().unwrap().to_string();
        let confirm = s
            .fake
            .wait_for(20, |r| {
                let v = r
                    .edits
                    .iter()
                    .chain(r.followups.iter())
                    .find(|(t, _)| *t == token)?;
                Some(v.1.clone())
            })
            .await
            .map(|v| buttons(&serde_json::json!({ "data": v })))
            .and_then(|b| {
                b.into_iter()
                    .map(|(_, id)| id)
                    .find(|id| id.starts_with("rules-confirm:"))
            })
            .unwrap_or_else(|| panic!("a preview with Confirm: {preview}"));
        let v = s
            .post(&as_member(
                in_guild(button(&confirm), guild),
                USER_ID,
                "Ops",
                ADMIN_PERMISSIONS,
            ))
            .await;
        assert!(text(&v["data"]).contains("is live in this server"), "{v}");
        // The first question after Confirm is answered at once: from the
        // new version if it is built, else from the one before, saying so.
        let t = Instant::now();
        let v = s.post(&ask(guild)).await;
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        let shown = format!("{} {}", text(&v["data"]), v["data"]["embeds"][0]["footer"]);
        assert!(
            shown.contains("big-game:") || shown.contains("is being indexed; until it is ready"),
            "{shown}"
        );
        eprintln!("first /rule after Confirm answered in {:?}", t.elapsed());
        // Asked about the new version's own game meanwhile: answered from
        // it, or told it is still being indexed, never "unknown game"
        // (found by an outside tester after a restart).
        let own = in_guild(
            slash(
                "rule",
                vec![
                    opt("query", "what does rule 105 say about ties"),
                    opt("game", "Big Game"),
                ],
            ),
            guild,
        );
        let v = s.post(&own).await;
        let shown = format!("{} {}", text(&v["data"]), v["data"]["embeds"][0]["footer"]);
        assert!(!shown.contains("unknown game"), "{shown}");
        assert!(
            shown.contains("big-game:105") || shown.contains("still being indexed"),
            "{shown}"
        );
        // `/rules show` of a passage of the new version, meanwhile: shown,
        // or said to be indexing, never "no passage has the id" alone.
        let show = as_member(
            in_guild(rules_sub("show", vec![opt("id", "big-game:105.1")]), guild),
            USER_ID,
            "Ops",
            ADMIN_PERMISSIONS,
        );
        let v = s.post(&show).await;
        let shown = s.shown(&show, &v).await;
        assert!(
            shown.contains("105.1") && !shown.contains("no passage has the id")
                || shown.contains("still being indexed"),
            "{shown}"
        );
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    for guild in [UPLOADER, OTHER] {
        loop {
            let v = s.post(&ask(guild)).await;
            if text(&v["data"]).contains("big-game:") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the rulebook was never searchable: {v}"
            );
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }
    let peak = s.peak_rss_kb();
    eprintln!("peak RSS of the server: {} MB", peak / 1024);
    assert!(peak > 0 && peak < RSS_BUDGET_KB, "peak RSS {peak} kB");
}

/// A real rulebook: the MTG Comprehensive Rules beside the clone when
/// present, else numbered rules of the same shape and size.
fn rulebook() -> Vec<u8> {
    let mtg = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt");
    if let Ok(b) = std::fs::read(mtg) {
        return b;
    }
    let mut s = String::from("Big Game Rules\n\n");
    for section in 100..900 {
        s.push_str(&format!("{section}. Section {section}\n\n"));
        for rule in 1..5 {
            s.push_str(&format!(
                "{section}.{rule}. When two effects tie, the active player chooses the order; rule {section}.{rule} applies to permanents and players alike.\n\n"
            ));
        }
    }
    s.into_bytes()
}
