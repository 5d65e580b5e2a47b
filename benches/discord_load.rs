//! Load benchmark of the HTTP interactions endpoint: a loopback client
//! sends signed `/rule` and autocomplete interactions (Discord's payload
//! shapes) to an in-process server and reports requests/s and latency
//! percentiles. Bounded: a fixed duration per scenario, loopback only.
//!
//! `cargo bench --bench discord_load` (env: LOAD_SECS, LOAD_CONCURRENCY).

#[path = "../tests/discord_kit/mod.rs"]
mod discord_kit;

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::app::App;
use arbiter::bot::http::{self, HttpConfig};
use arbiter::bot::{Bot, BotConfig};
use discord_kit::*;

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

struct Stats {
    requests: usize,
    errors: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

impl Stats {
    fn pct(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[i]
    }

    fn report(&self, name: &str) {
        let rps = self.requests as f64 / self.elapsed.as_secs_f64();
        println!(
            "{name:<14} {:>7} requests in {:>5.2}s = {:>7.0} req/s   p50 {:>6.2} ms   p99 {:>6.2} ms   max {:>6.2} ms   errors {}",
            self.requests,
            self.elapsed.as_secs_f64(),
            rps,
            self.pct(0.50).as_secs_f64() * 1000.0,
            self.pct(0.99).as_secs_f64() * 1000.0,
            self.pct(1.0).as_secs_f64() * 1000.0,
            self.errors
        );
    }
}

/// Pre-signed request bodies (signing is the client's cost, not the server's).
fn signed(
    key: &ed25519_dalek::SigningKey,
    payloads: Vec<serde_json::Value>,
) -> Arc<Vec<(Vec<u8>, String, String)>> {
    Arc::new(
        payloads
            .into_iter()
            .map(|p| {
                let body = serde_json::to_vec(&p).unwrap();
                let (sig, ts) = sign(key, now(), &body);
                (body, sig, ts)
            })
            .collect(),
    )
}

/// One keep-alive connection: writes a pre-built HTTP/1.1 request, reads the
/// response head and its Content-Length body. (A raw client keeps the
/// client's share of the 2 cores small, so the figure is the server's.)
async fn exchange(
    conn: &mut tokio::net::TcpStream,
    request: &[u8],
    buf: &mut Vec<u8>,
) -> std::io::Result<bool> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    conn.write_all(request).await?;
    buf.clear();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = conn.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + len {
                let n = conn.read(&mut chunk).await?;
                if n == 0 {
                    return Err(std::io::ErrorKind::UnexpectedEof.into());
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Ok(head.starts_with("http/1.1 200"));
        }
    }
}

async fn run(
    addr: std::net::SocketAddr,
    bodies: Arc<Vec<(Vec<u8>, String, String)>>,
    concurrency: usize,
    secs: u64,
) -> Stats {
    let requests: Arc<Vec<Vec<u8>>> = Arc::new(
        bodies
            .iter()
            .map(|(body, sig, ts)| {
                let mut r = format!(
                    "POST / HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\nx-signature-ed25519: {sig}\r\nx-signature-timestamp: {ts}\r\ncontent-length: {}\r\n\r\n",
                    body.len()
                )
                .into_bytes();
                r.extend_from_slice(body);
                r
            })
            .collect(),
    );
    let started = Instant::now();
    let deadline = started + Duration::from_secs(secs);
    let mut tasks = Vec::new();
    for worker in 0..concurrency {
        let requests = requests.clone();
        tasks.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            let mut errors = 0;
            let mut i = worker;
            let mut buf = Vec::with_capacity(16 * 1024);
            let mut conn = tokio::net::TcpStream::connect(addr).await.expect("connect");
            conn.set_nodelay(true).ok();
            while Instant::now() < deadline {
                let request = &requests[i % requests.len()];
                i += concurrency;
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

fn main() {
    let secs: u64 = std::env::var("LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let concurrency: usize = std::env::var("LOAD_CONCURRENCY")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let app = Arc::new(App::load(&root.join("rules_data"), &[]).expect("rule data"));
        let key = keypair();
        let bot = Arc::new(Bot::new(app, BotConfig::default()));
        let config = HttpConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            public_key: public_hex(&key),
            api_base: None,
            max_body: http::MAX_BODY_BYTES,
            limits: http::ConnLimits::default(),
        };
        let server = http::start(bot, config).await.unwrap();
        let addr = server.addr;
        println!("discord_load: server and client share this machine ({} CPUs); {concurrency} connections, {secs}s per scenario", std::thread::available_parallelism().map_or(0, |n| n.get()));

        let rule = signed(
            &key,
            (0..200)
                .map(|i| {
                    let (q, g) = QUESTIONS[i % QUESTIONS.len()];
                    let mut opts = vec![opt("query", q)];
                    if !g.is_empty() {
                        opts.push(opt("game", g));
                    }
                    slash("rule", opts)
                })
                .collect(),
        );
        let complete = signed(
            &key,
            (0..200).map(|i| autocomplete("rule", "query", PARTIALS[i % PARTIALS.len()], vec![])).collect(),
        );
        // Warm-up.
        let _ = run(addr, rule.clone(), concurrency, 1).await;
        run(addr, rule, concurrency, secs).await.report("/rule");
        run(addr, complete, concurrency, secs).await.report("autocomplete");
        server.stop().await.unwrap();
    });
}
