//! Endpoint speed against a bare server (issue 17): in one process, with one
//! load generator, Arbiter's HTTP interactions endpoint and a bare axum
//! server that only verifies the Ed25519 signature and answers a fixed
//! reply. Per command (PING, `/rule`, autocomplete, `/judge` of a typical
//! board, `/match play` on SQLite) and per connection count (32, 128): the
//! throughput of each, the ratio, and p99 latency.
//!
//! Real Ed25519 signatures (the kit's fresh key pair), Discord's payload
//! shapes (tests/discord_kit). Logs go through a `fmt` subscriber at
//! Arbiter's default filter into a sink, so their cost counts as it does in
//! production. `/match play` is deferred: the figure is the
//! acknowledgement; the play itself is judged meanwhile on the same cores
//! and its reply delivered to a local stand-in for Discord's API.
//!
//! `cargo bench --bench endpoint` (env: ENDPOINT_SECS per server and
//! command, default 6, in slices taken in turn with the bare server;
//! ENDPOINT_CONNS, default "32,128"; ENDPOINT_ONLY, a command name).

#[path = "../tests/discord_kit/mod.rs"]
mod discord_kit;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::bot::http;
use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::Value;
use serenity::interactions_endpoint::Verifier;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const QUESTIONS: &[(&str, &str)] = &[
    ("can an exhausted phoenixborn guard", "ashes"),
    ("how much damage does a countering unit deal", "ashes"),
    ("when does the player turns phase end", "ashes"),
    ("can I attack with an exhausted unit", ""),
    ("what happens when a unit is destroyed", ""),
    ("how many actions can a unit perform", "legion"),
    ("declaring an attack target", "grand-archive"),
    ("tactical action activate a system", "ti4"),
    ("ashes:attack-a-unit.3", ""),
    ("strategic action", "ti4"),
];

const PARTIALS: &[&str] = &[
    "gua",
    "declare guard",
    "attack",
    "ashes:pa",
    "resolve dam",
    "tact",
    "",
    "counter",
    "ti4:",
    "blocking",
];

/// Channels with a match of their own (`/match play` rotates over them).
const MATCH_CHANNELS: usize = 4;

/// The bare server's whole answer.
const BARE_REPLY: &str = r#"{"type":4,"data":{"content":"ok"}}"#;

/// One command's payloads (cycled through by the connections).
struct Scenario {
    name: &'static str,
    payloads: Vec<Value>,
}

fn scenarios() -> Vec<Scenario> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let board = std::fs::read_to_string(root.join("examples/ashes/attack-phoenixborn.yaml"))
        .expect("the example board");
    let rule = |i: usize| {
        let (q, g) = QUESTIONS[i % QUESTIONS.len()];
        let mut opts = vec![opt("query", q)];
        if !g.is_empty() {
            opts.push(opt("game", g));
        }
        slash("rule", opts)
    };
    let play = |i: usize| {
        let channel = (1_300_000_000_000_000_400u64 + (i % MATCH_CHANNELS) as u64).to_string();
        let payload = match_sub("play", vec![opt("text", MATCH_PLAY)]);
        as_member(
            in_channel(payload, &channel),
            COAL.0,
            COAL.1,
            PLAYER_PERMISSIONS,
        )
    };
    let n = 200;
    vec![
        Scenario {
            name: "PING",
            payloads: (0..n).map(|_| ping()).collect(),
        },
        Scenario {
            name: "/rule",
            payloads: (0..n).map(rule).collect(),
        },
        Scenario {
            name: "autocomplete",
            payloads: (0..n)
                .map(|i| autocomplete("rule", "query", PARTIALS[i % PARTIALS.len()], vec![]))
                .collect(),
        },
        Scenario {
            name: "/judge",
            payloads: (0..n)
                .map(|_| slash("judge", vec![opt("board", &board)]))
                .collect(),
        },
        Scenario {
            name: "/match play",
            payloads: (0..n).map(play).collect(),
        },
    ]
}

/// Pre-built HTTP/1.1 requests, signed now (signing is the client's cost,
/// not the servers').
fn requests(key: &SigningKey, addr: SocketAddr, payloads: &[Value]) -> Arc<Vec<Vec<u8>>> {
    let built = payloads
        .iter()
        .map(|p| {
            let body = serde_json::to_vec(p).unwrap();
            let (sig, ts) = sign(key, now(), &body);
            let mut r = format!(
                "POST / HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\nx-signature-ed25519: {sig}\r\nx-signature-timestamp: {ts}\r\ncontent-length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            r.extend_from_slice(&body);
            r
        })
        .collect();
    Arc::new(built)
}

// ---- the bare server ----

async fn bare(
    axum::extract::State(verifier): axum::extract::State<Arc<Verifier>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let get = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(sig), Some(ts)) = (get("x-signature-ed25519"), get("x-signature-timestamp")) else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    if verifier.verify(sig, ts, &body).is_err() {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    ([(header::CONTENT_TYPE, "application/json")], BARE_REPLY).into_response()
}

async fn start_bare(key: &SigningKey) -> SocketAddr {
    let verifier = Verifier::try_new(key.verifying_key().to_bytes()).unwrap();
    let app = axum::Router::new()
        .route("/", axum::routing::post(bare))
        .with_state(Arc::new(verifier));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

// ---- the load generator ----

#[derive(Default)]
struct Stats {
    requests: usize,
    errors: usize,
    elapsed: Duration,
    /// Sorted.
    latencies: Vec<Duration>,
}

/// Slices a run is cut into, bare and Arbiter in turn.
const ROUNDS: u32 = 3;
/// Before each command and connection count, for each server.
const WARM_UP: Duration = Duration::from_secs(1);

impl Stats {
    fn add(&mut self, other: Stats) {
        self.requests += other.requests;
        self.errors += other.errors;
        self.elapsed += other.elapsed;
        self.latencies.extend(other.latencies);
        self.latencies.sort_unstable();
    }

    fn rps(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }

    fn pct(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[i]
    }
}

/// Where a response head ends and the length of its body.
fn head_end(buf: &[u8]) -> Option<(usize, usize)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let len = head
        .split("\r\n")
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    Some((end, len))
}

/// One request on a keep-alive connection: whether the answer was a 200.
/// (A raw client keeps the client's share of the 2 cores small.)
async fn exchange(
    conn: &mut tokio::net::TcpStream,
    request: &[u8],
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    conn.write_all(request).await?;
    buf.clear();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = conn.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some((end, len)) = head_end(buf) {
            while buf.len() < end + len {
                let n = conn.read(&mut chunk).await?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Ok(buf.starts_with(b"HTTP/1.1 200"));
        }
    }
}

/// `connections` keep-alive connections, each sending its next request as
/// soon as the last is answered, for `secs`.
async fn load(
    addr: SocketAddr,
    requests: Arc<Vec<Vec<u8>>>,
    connections: usize,
    run: Duration,
) -> Stats {
    let started = Instant::now();
    let deadline = started + run;
    let mut tasks = Vec::new();
    for worker in 0..connections {
        let requests = requests.clone();
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::with_capacity(4096);
            let mut errors = 0;
            let mut i = worker;
            let mut buf = Vec::with_capacity(16 * 1024);
            let mut conn = tokio::net::TcpStream::connect(addr).await.expect("connect");
            conn.set_nodelay(true).ok();
            while Instant::now() < deadline {
                let request = &requests[i % requests.len()];
                i += connections;
                let t = Instant::now();
                match exchange(&mut conn, request, &mut buf).await {
                    Ok(true) => {}
                    Ok(false) => errors += 1,
                    Err(_) => {
                        errors += 1;
                        conn = tokio::net::TcpStream::connect(addr)
                            .await
                            .expect("reconnect");
                    }
                }
                lat.push(t.elapsed());
            }
            (lat, errors)
        }));
    }
    let mut latencies = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.unwrap();
        latencies.extend(l);
        errors += e;
    }
    let elapsed = started.elapsed();
    latencies.sort();
    Stats {
        requests: latencies.len(),
        errors,
        elapsed,
        latencies,
    }
}

// ---- Arbiter ----

/// Arbiter's endpoint with a SQLite match store and a stand-in for
/// Discord's API; a match set up in each of [`MATCH_CHANNELS`] channels.
async fn start_arbiter(key: &SigningKey, dir: &std::path::Path) -> (http::Running, FakeDiscord) {
    let fake = FakeDiscord::start().await;
    let server = start_with_matches(key, dir, &fake).await;
    set_up_matches(key, server.addr, &fake).await;
    (server, fake)
}

async fn set_up_matches(key: &SigningKey, addr: SocketAddr, fake: &FakeDiscord) {
    let mut setup = Vec::new();
    for c in 0..MATCH_CHANNELS {
        let channel = (1_300_000_000_000_000_400u64 + c as u64).to_string();
        for payload in [
            match_start("ashes", &[COAL, MAEONI]),
            match_sub("setup", vec![opt("board", MATCH_BOARD)]),
        ] {
            setup.push(as_member(
                in_channel(payload, &channel),
                COAL.0,
                COAL.1,
                PLAYER_PERMISSIONS,
            ));
        }
    }
    let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut buf = Vec::new();
    for (n, request) in requests(key, addr, &setup).iter().enumerate() {
        assert!(exchange(&mut conn, request, &mut buf).await.unwrap());
        // Each write is deferred: wait for its reply before the next one.
        let delivered = async {
            while delivered(fake) <= n {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), delivered)
            .await
            .expect("the match set-up is delivered");
    }
}

/// Replies to deferred interactions the stand-in for Discord has received.
fn delivered(fake: &FakeDiscord) -> usize {
    let recorded = fake.recorded.lock().unwrap();
    recorded.edits.len() + recorded.followups.len()
}

/// Waits (at most 10 s) until deferred work acknowledged in the last slice
/// has been delivered, so that it does not weigh on the next slice.
async fn settle(fake: &FakeDiscord) {
    let started = Instant::now();
    let mut last = delivered(fake);
    while started.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = delivered(fake);
        if now == last {
            return;
        }
        last = now;
    }
}

/// Logs as `arbiter serve` writes them by default (RUST_LOG unset), into a sink.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::new("info,serenity=warn,tracing::span=warn");
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::sink)
        .with_ansi(false)
        .try_init();
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    init_logging();
    let secs: f64 = env_or("ENDPOINT_SECS", 6.0);
    let conns: Vec<usize> = env_or("ENDPOINT_CONNS", "32,128".to_string())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let only: String = env_or("ENDPOINT_ONLY", String::new());
    let run = Duration::from_secs_f64(secs);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let key = keypair();
        let bare_addr = start_bare(&key).await;
        let (server, fake) = start_arbiter(&key, dir.path()).await;
        let arbiter_addr = server.addr;
        println!(
            "endpoint: Arbiter vs bare verify-and-echo, same process, {} CPUs, {secs} s a server in {ROUNDS} slices taken in turn, after a {} s warm-up",
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            WARM_UP.as_secs()
        );
        println!(
            "| command | conns | bare req/s | Arbiter req/s | ratio | bare p99 ms | Arbiter p99 ms | p99 ratio | Arbiter p50 ms | errors |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for scenario in scenarios() {
            if !only.is_empty() && scenario.name != only {
                continue;
            }
            for &c in &conns {
                let servers = [bare_addr, arbiter_addr];
                let reqs = servers.map(|addr| requests(&key, addr, &scenario.payloads));
                for (addr, reqs) in servers.iter().zip(&reqs) {
                    let _ = load(*addr, reqs.clone(), c, WARM_UP).await;
                }
                // Turn about in short slices: what else runs on the machine
                // weighs on both alike.
                let mut stats = [Stats::default(), Stats::default()];
                for _ in 0..ROUNDS {
                    for (i, addr) in servers.iter().enumerate() {
                        stats[i].add(load(*addr, reqs[i].clone(), c, run / ROUNDS).await);
                        settle(&fake).await;
                    }
                }
                let (b, a) = (&stats[0], &stats[1]);
                println!(
                    "| {} | {c} | {:.0} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {} |",
                    scenario.name,
                    b.rps(),
                    a.rps(),
                    a.rps() / b.rps(),
                    ms(b.pct(0.99)),
                    ms(a.pct(0.99)),
                    ms(a.pct(0.99)) / ms(b.pct(0.99)).max(f64::EPSILON),
                    ms(a.pct(0.50)),
                    b.errors + a.errors,
                );
            }
        }
        println!(
            "deferred replies delivered to the stand-in for Discord: {}",
            delivered(&fake)
        );
        server.stop().await.unwrap();
    });
}
