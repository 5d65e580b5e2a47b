//! A probe of bad input against the built binary (`arbiter serve --http`,
//! SQLite, a stand-in for Discord's API): signed interactions of every
//! command with hostile option values, mutated and hostile board documents
//! (merge-key chains, alias fan-outs, deep nesting), random buttons and
//! forms, and raw HTTP garbage. Asserts no 5xx, no internal error shown to a
//! user, and a server still healthy; prints the figures for
//! docs/ROBUSTNESS.md (count, slowest input, peak memory).
//!
//! `ARBITER_PROBE_INPUTS` (default 300) sets how many inputs are sent.

use crate::discord_kit;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::{Value, json};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
}

struct Server {
    child: Child,
    addr: String,
    key: SigningKey,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn examples() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut out = Vec::new();
    for game in std::fs::read_dir(root).unwrap() {
        let dir = game.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "yaml") {
                out.push(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    out.sort();
    out
}

/// Hostile strings for option values.
fn nasty(rng: &mut Rng) -> String {
    let n = rng.below(12);
    match n {
        0 => String::new(),
        1 => " \t\n ".into(),
        2 => "a".repeat(7000),
        3 => "👍🏽‍🔥\u{202E}evil\u{200B}\u{0301}x".repeat(rng.below(200) + 1),
        4 => "@everyone <@123> ``` ** __ ~~ ||".into(),
        5 => "ashes:".repeat(rng.below(300) + 1),
        6 => "\u{0000}\u{FFFF}\u{10FFFF}".into(),
        7 => "{\"game\": \"ashes\", \"players\": [".into(),
        8 => "attack unit \"".repeat(rng.below(100) + 1),
        9 => format!("{}", u64::MAX),
        10 => "play: ".repeat(rng.below(500) + 1),
        _ => (0..rng.below(300))
            .map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'))
            .collect(),
    }
}

/// A board document mutated at random.
fn mutated(rng: &mut Rng, boards: &[String]) -> String {
    let mut lines: Vec<String> = rng.pick(boards).lines().map(str::to_string).collect();
    for _ in 0..rng.below(6) + 1 {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => lines[i] = lines[i].replace(|c: char| c.is_ascii_digit(), "99999999999999999999"),
            3 => lines[i] = format!("  {}", lines[i]),
            4 => lines[i] = lines[i].replacen(':', "", 1),
            5 => lines[i] = nasty(rng),
            _ => lines[i] = lines[i].replace(|c: char| c.is_ascii_digit(), "-1"),
        }
    }
    lines.join("\n")
}

/// Documents built to be expensive: the issue's merge-key chain, alias
/// fan-outs, deep nesting, long keys.
fn hostile(rng: &mut Rng) -> (String, &'static str) {
    match rng.below(5) {
        0 => {
            let mut s = String::from("game: ashes\nb0: &b0 {k0: 1}\n");
            for n in 1..=30 {
                s += &format!("b{n}: &b{n} {{<<: [*b{}, *b{}], k{n}: 1}}\n", n - 1, n - 1);
            }
            (s, "merge-key chain (30)")
        }
        1 => {
            let mut s = String::from("game: ashes\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
            for n in 1..=9 {
                s += &format!(
                    "a{n}: &a{n} [{}]\n",
                    vec![format!("*a{}", n - 1); 10].join(", ")
                );
            }
            (s, "alias fan-out (10^10)")
        }
        2 => {
            let depth = 5000;
            (
                format!(
                    "game: ashes\nx: {}{}\n",
                    "[".repeat(depth),
                    "]".repeat(depth)
                ),
                "nesting 5,000 deep",
            )
        }
        3 => (
            format!("game: ashes\n{}: 1\n", "k".repeat(60_000)),
            "a 60 KB key",
        ),
        _ => (
            format!("game: ti4\nplayers:\n{}", "  - {name: A}\n".repeat(4000)),
            "4,000 players",
        ),
    }
}

fn payload(rng: &mut Rng, boards: &[String]) -> (Value, String) {
    let games = [
        "ashes",
        "ti4",
        "legion",
        "magewinds",
        "grand-archive",
        "nope",
        "",
    ];
    match rng.below(12) {
        0 => (
            slash(
                "rule",
                vec![opt("query", &nasty(rng)), opt("game", rng.pick(&games))],
            ),
            "rule".into(),
        ),
        1 | 2 => (
            slash("judge", vec![opt("board", &mutated(rng, boards))]),
            "judge mutated board".into(),
        ),
        3 => {
            let (doc, what) = hostile(rng);
            (
                slash("judge", vec![opt("board", &doc)]),
                format!("judge {what}"),
            )
        }
        4 => (
            slash(
                "judge",
                vec![opt("board", &rng.pick(boards)), opt("play", &nasty(rng))],
            ),
            "judge play notation".into(),
        ),
        5 => (
            judge_message(&format!("```yaml\n{}\n```", mutated(rng, boards))),
            "judge this board".into(),
        ),
        6 => (
            autocomplete(
                "rule",
                "query",
                &nasty(rng),
                vec![opt("game", rng.pick(&games))],
            ),
            "autocomplete".into(),
        ),
        7 => (
            button(&format!(
                "{}:{}",
                rng.pick(&["cite", "section", "page", "x", ""]),
                nasty(rng).chars().take(90).collect::<String>()
            )),
            "button".into(),
        ),
        8 => (
            modal_submit(
                rng.pick(&["judge-modal", "judge-modal:ashes", "match-setup", "zzz"]),
                "board",
                &mutated(rng, boards),
            ),
            "form".into(),
        ),
        9 => (
            slash("schema", vec![opt("game", rng.pick(&games))]),
            "schema".into(),
        ),
        10 => {
            let sub = rng.pick(&[
                "start", "setup", "play", "board", "log", "undo", "end", "export", "verify",
            ]);
            let options = match sub {
                "setup" => vec![opt("board", &mutated(rng, boards))],
                "play" => vec![opt("text", &nasty(rng))],
                "log" => vec![json!({ "name": "page", "type": 4, "value": rng.next() as i64 })],
                "start" => vec![opt("game", rng.pick(&games))],
                _ => vec![],
            };
            (match_sub(sub, options), format!("match {sub}"))
        }
        _ => (
            slash(
                rng.pick(&["games", "help", "nope"]),
                vec![opt("game", &nasty(rng))],
            ),
            "other command".into(),
        ),
    }
}

/// Raw bytes that are not a proper request.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    match rng.below(6) {
        0 => (0..rng.below(4000)).map(|_| rng.next() as u8).collect(),
        1 => format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(rng.below(20_000))).into_bytes(),
        2 => format!(
            "POST / HTTP/1.1\r\nHost: x\r\n{}\r\n\r\n",
            "X-Junk: y\r\n".repeat(rng.below(200))
        )
        .into_bytes(),
        3 => b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".to_vec(),
        4 => b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".to_vec(),
        _ => format!(
            "POST /interactions HTTP/1.1\r\nHost: x\r\nX-Signature-Ed25519: {}\r\nX-Signature-Timestamp: 1\r\nContent-Length: 2\r\n\r\n{{}}",
            "0".repeat(128)
        )
        .into_bytes(),
    }
}

/// Sends raw bytes; the status code (0: closed without an answer).
fn send_raw(addr: &str, bytes: &[u8]) -> (u16, String) {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return (0, String::new());
    };
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // No half-close: the server takes that for the client going away.
    let _ = s.write_all(bytes);
    let out = String::from_utf8_lossy(&read_response(&mut s)).into_owned();
    let code = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, out)
}

/// One response: its head and `Content-Length` bytes of body, or what came
/// before the server closed (a kept-alive connection is not waited on).
fn read_response(s: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&out[..end]).to_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(0);
            if out.len() >= end + 4 + length {
                return out;
            }
        }
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&chunk[..n]),
        }
    }
}

fn signed(server: &Server, body: &[u8]) -> Vec<u8> {
    let (sig, ts) = sign(&server.key, now(), body);
    let mut req = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Signature-Ed25519: {sig}\r\nX-Signature-Timestamp: {ts}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body);
    req
}

fn vm_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Tally {
    sent: usize,
    by_status: std::collections::BTreeMap<u16, usize>,
    internal_errors: Vec<String>,
    server_errors: Vec<String>,
    slowest: (Duration, String),
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_no_5xx_no_internal_error_and_the_server_stays_up() {
    let inputs: usize = std::env::var("ARBITER_PROBE_INPUTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let fake = FakeDiscord::start().await;
    let key = keypair();
    let dir = tempfile::tempdir().unwrap();
    let addr = format!(
        "127.0.0.1:{}",
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    );
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--http", &addr])
        .env("DISCORD_PUBLIC_KEY", public_hex(&key))
        .env("DISCORD_API_URL", fake.url())
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("m.db").display()),
        )
        .env(
            "ARBITER_DATA",
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
        )
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Arc::new(Server {
        child,
        addr,
        key,
        _dir: dir,
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    while send_raw(
        &server.addr,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .0 != 200
    {
        assert!(Instant::now() < deadline, "the server never answered");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let pid = server.child.id();
    let rss_start = vm_kb(pid, "VmRSS:");
    let boards = Arc::new(examples());
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let workers: Vec<_> = (0..4u64)
        .map(|w| {
            let (server, boards, tally) = (server.clone(), boards.clone(), tally.clone());
            tokio::task::spawn_blocking(move || {
                let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (w + 1).wrapping_mul(0x1234_5678_9ABC));
                for _ in 0..inputs / 4 {
                    let (bytes, what) = if rng.below(8) == 0 {
                        (garbage(&mut rng), "raw HTTP garbage".to_string())
                    } else {
                        let (p, what) = payload(&mut rng, &boards);
                        (signed(&server, &serde_json::to_vec(&p).unwrap()), what)
                    };
                    let t = Instant::now();
                    let (code, out) = send_raw(&server.addr, &bytes);
                    let took = t.elapsed();
                    if took > Duration::from_secs(2) {
                        eprintln!("probe: slow input ({took:?}, status {code}): {what}");
                    }
                    let mut tally = tally.lock().unwrap();
                    tally.sent += 1;
                    *tally.by_status.entry(code).or_default() += 1;
                    if code >= 500 {
                        tally.server_errors.push(format!("{what}: {out}"));
                    }
                    if out.contains("Something went wrong on our side") {
                        tally.internal_errors.push(format!("{what}: {out}"));
                    }
                    if took > tally.slowest.0 {
                        tally.slowest = (took, what);
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.await.unwrap();
    }
    let elapsed = started.elapsed();
    // Deferred replies land at the stand-in for Discord.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (deferred, deferred_internal): (usize, Vec<String>) = {
        let rec = fake.recorded.lock().unwrap();
        let internal = rec
            .edits
            .iter()
            .chain(rec.followups.iter())
            .map(|(_, v)| v.to_string())
            .filter(|v| v.contains("Something went wrong on our side"))
            .collect();
        (rec.edits.len() + rec.followups.len(), internal)
    };
    let (code, _) = send_raw(
        &server.addr,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    let peak = vm_kb(pid, "VmHWM:");
    let mut server = Arc::try_unwrap(server).ok().expect("workers done");
    let alive = server.child.try_wait().unwrap().is_none();
    let t = tally.lock().unwrap();
    eprintln!(
        "probe: {} inputs in {:.1} s; statuses {:?}; slowest {:?} ({}); server RSS {} MB at start, peak {} MB; {} deferred replies",
        t.sent,
        elapsed.as_secs_f64(),
        t.by_status,
        t.slowest.0,
        t.slowest.1,
        rss_start / 1024,
        peak / 1024,
        deferred
    );
    assert!(alive, "the server died");
    assert_eq!(code, 200, "the server is not healthy after the probe");
    assert!(
        t.server_errors.is_empty(),
        "5xx: {:?}",
        &t.server_errors[..t.server_errors.len().min(3)]
    );
    assert!(
        t.internal_errors.is_empty() && deferred_internal.is_empty(),
        "internal errors on bad input: {:?} {:?}",
        &t.internal_errors[..t.internal_errors.len().min(3)],
        &deferred_internal[..deferred_internal.len().min(3)]
    );
    assert!(t.sent >= inputs / 4 * 4);
    drop(t);
    let _ = server.child.kill();
}
