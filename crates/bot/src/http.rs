//! Discord's HTTP interactions endpoint (`arbiter serve --http ADDR`).
//!
//! Every POST is verified (Ed25519 over timestamp + body, with serenity's
//! verifier) and refused with 401 when the signature is wrong or the
//! timestamp is more than [`MAX_SKEW`] from now; bodies over the limit get
//! 413. Only what a request needs is read of the body
//! ([`discord::Envelope`]: ids, sender, then `data` as serenity's type for
//! its kind); the answer is serenity's `CreateInteractionResponse`
//! serialized as JSON. Requests
//! declared deferred (`bot::deferral`) get type 5 at once and the reply
//! later through Discord's webhook API (`discord::deliver_deferred`).
//!
//! Connections are served by [`serve`]: hyper's HTTP/1.1 on our own accept
//! loop, with a header-read timeout (from a request's first byte), a
//! body-read timeout, an idle timeout, and a cap on open connections. At the
//! cap the oldest connection with no request in progress is closed to make
//! room; when every one is busy the new connection gets a minimal
//! `503 Service Unavailable` with `Retry-After` and is closed. See
//! [`ConnLimits`] and `docs/ROBUSTNESS.md`.

use std::collections::BTreeMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, FromRequest, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serenity::all::InteractionType;
use serenity::interactions_endpoint::Verifier;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tracing::Instrument;

use super::discord::{self, Envelope};
use super::{Bot, Defer, InFlight, Request};
use crate::metrics::{self, Closed};
use crate::store::Ping;

/// Largest request body accepted (Discord's interaction payloads are a few
/// KB; a message with a 4,000-character board fits many times over).
pub const MAX_BODY_BYTES: usize = 128 * 1024;
/// Requests signed further than this from now are refused (replays).
pub const MAX_SKEW: Duration = Duration::from_secs(5 * 60);

/// Connection limits and timeouts of the endpoint (flags and environment
/// variables of `arbiter serve`, see docs/DISCORD.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimits {
    /// Open connections at most. Keep it below the process's file-descriptor
    /// limit (`ulimit -n`) less ~100 for the database and Discord; at start
    /// it is lowered to fit the limit if need be.
    pub max_connections: usize,
    /// Time for a request's headers, from its first byte.
    pub header_timeout: Duration,
    /// Time for a request's body, once its headers are in.
    pub body_timeout: Duration,
    /// A connection with no request in progress is closed after this.
    pub idle_timeout: Duration,
    /// On shutdown: how long requests and deferred replies in flight may
    /// take to finish (keep it under `docker stop`'s 10 s).
    pub drain: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_connections: 1024,
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            drain: Duration::from_secs(8),
        }
    }
}

/// File descriptors kept free of connections (the listener, the database
/// pool, Discord's API, logs).
const FD_RESERVE: usize = 100;
/// A connection told to close that is still not closed after this (it
/// started sending a request meanwhile) is dropped, unless answering one.
const CLOSE_GRACE: Duration = Duration::from_millis(500);

/// Settings of the HTTP endpoint.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    pub addr: SocketAddr,
    /// The application's public key (64 hex digits).
    pub public_key: String,
    /// Base URL of Discord's API for editing deferred replies (tests point
    /// it at a local server). Default: Discord.
    pub api_base: Option<String>,
    pub max_body: usize,
    pub limits: ConnLimits,
}

/// Why the endpoint could not start.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("DISCORD_PUBLIC_KEY must be the application's public key as 64 hex digits")]
    BadKey,
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("server error: {0}")]
    Serve(std::io::Error),
}

/// How long a body declared over the limit is read (and dropped) before
/// its 413, so that the client that sent it reads the answer.
const DRAIN_BEFORE_REFUSING: Duration = Duration::from_secs(1);

struct HttpState {
    bot: Arc<Bot>,
    verifier: Verifier,
    api: Arc<serenity::http::Http>,
    in_flight: Arc<InFlight>,
    body_timeout: Duration,
    /// The body limit, checked against a declared length before the body
    /// is waited for.
    max_body: usize,
}

fn parse_key(hex: &str) -> Option<[u8; 32]> {
    let hex = hex.trim();
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// A bound, running endpoint (tests and `arbiter serve --http`).
pub struct Running {
    pub addr: SocketAddr,
    shutdown: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Result<(), HttpError>>,
}

impl Running {
    /// Stops accepting, finishes in-flight interactions, and returns.
    pub async fn stop(self) -> Result<(), HttpError> {
        let _ = self.shutdown.send(());
        self.task.await.unwrap_or(Ok(()))
    }
}

/// The routes: `POST /` (and `/interactions`), `GET /healthz`. Metrics are
/// never served here: [`bind_health`] serves them on an address of their own.
fn router(state: Arc<HttpState>, max_body: usize) -> Router {
    Router::new()
        .route("/", post(interactions))
        .route("/interactions", post(interactions))
        .route("/healthz", get(healthz))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// Binds and serves in the background until [`Running::stop`].
pub async fn start(bot: Arc<Bot>, config: HttpConfig) -> Result<Running, HttpError> {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (addr, fut) = bind(bot, config, async {
        let _ = rx.await;
    })
    .await?;
    Ok(Running {
        addr,
        shutdown: tx,
        task: tokio::spawn(fut),
    })
}

/// Binds, then returns the address and the serving future, which ends
/// (after draining in-flight work) once `shutdown` completes.
pub async fn bind(
    bot: Arc<Bot>,
    config: HttpConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<
    (
        SocketAddr,
        impl Future<Output = Result<(), HttpError>> + Send,
    ),
    HttpError,
> {
    let key = parse_key(&config.public_key).ok_or(HttpError::BadKey)?;
    let verifier = Verifier::try_new(key).map_err(|_| HttpError::BadKey)?;
    let mut api = serenity::http::HttpBuilder::new("");
    if let Some(base) = &config.api_base {
        api = api
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true);
    }
    let in_flight = Arc::new(InFlight::default());
    let state = Arc::new(HttpState {
        bot,
        verifier,
        api: Arc::new(api.build()),
        in_flight: in_flight.clone(),
        body_timeout: config.limits.body_timeout,
        max_body: config.max_body,
    });
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|source| HttpError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr().map_err(HttpError::Serve)?;
    let app = router(state, config.max_body);
    let limits = config.limits;
    let fut = async move {
        let asked = Arc::new(OnceLock::new());
        let noted = asked.clone();
        let shutdown = async move {
            shutdown.await;
            let _ = noted.set(Instant::now());
        };
        serve(listener, app, limits, shutdown).await;
        tracing::info!("HTTP endpoint stopped accepting; finishing deferred interactions");
        let spent = asked.get().map_or(Duration::ZERO, Instant::elapsed);
        in_flight.drain(limits.drain.saturating_sub(spent)).await;
        Ok(())
    };
    Ok((addr, fut))
}

async fn healthz(State(state): State<Arc<HttpState>>) -> Response {
    health_body(&state.bot).await
}

/// How long `GET /healthz` waits for the database's answer.
pub const HEALTH_DATABASE_WAIT: Duration = Duration::from_secs(1);

/// `GET /healthz`: 200 with `"status":"ok"` and the index's size, and the
/// match database's state: `"ok"` when it answered within
/// [`HEALTH_DATABASE_WAIT`], `"busy"` when every pooled connection stayed
/// in use that long (an import, a burst of writes: the database answers
/// the requests holding them), `"not configured"` when this process has
/// none open; 503 with `"status":"unavailable"` and
/// `"database":"unreachable"` when a query failed or did not answer, no
/// connection could be opened, or the SQLite file is gone (it said "ok" whatever the database did, so a
/// replica whose database was gone stayed in rotation). Nothing of the
/// database's address or error is said: the cause is logged.
async fn health_body(bot: &Bot) -> Response {
    let (code, database) = match bot.database_answers(HEALTH_DATABASE_WAIT).await {
        None => (StatusCode::OK, "not configured"),
        Some(Ok(Ping::Answers)) => (StatusCode::OK, "ok"),
        Some(Ok(Ping::Busy)) => (StatusCode::OK, "busy"),
        Some(Err(_)) => (StatusCode::SERVICE_UNAVAILABLE, "unreachable"),
    };
    let status = if code == StatusCode::OK {
        "ok"
    } else {
        "unavailable"
    };
    let app = &bot.app;
    let body = serde_json::json!({
        "status": status,
        "database": database,
        "games": app.corpus.games.len(),
        "passages": app.corpus.passages.len(),
    });
    (code, axum::Json(body)).into_response()
}

async fn metrics_text() -> Response {
    (
        [(header::CONTENT_TYPE, metrics::CONTENT_TYPE)],
        metrics::encode(),
    )
        .into_response()
}

/// `GET /healthz` alone (for the gateway transport, which has no HTTP
/// endpoint of its own), and `GET /metrics` with `with_metrics` (the
/// `--metrics` listener), with the same connection limits.
pub async fn bind_health(
    bot: Arc<Bot>,
    addr: SocketAddr,
    limits: ConnLimits,
    with_metrics: bool,
) -> Result<
    (
        SocketAddr,
        impl Future<Output = Result<(), HttpError>> + Send,
    ),
    HttpError,
> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| HttpError::Bind { addr, source })?;
    let bound = listener.local_addr().map_err(HttpError::Serve)?;
    let mut router = Router::new().route(
        "/healthz",
        get(move || {
            let bot = bot.clone();
            async move { health_body(&bot).await }
        }),
    );
    if with_metrics {
        router = router.route("/metrics", get(metrics_text));
    }
    Ok((bound, async move {
        serve(listener, router, limits, std::future::pending()).await;
        Ok(())
    }))
}

fn unauthorized(why: &'static str) -> Response {
    tracing::debug!(reason = why, "refused interaction");
    (StatusCode::UNAUTHORIZED, why).into_response()
}

/// A JSON response; `sent` (if any) fires once hyper has taken the whole
/// body (dropped it), i.e. the response is on its way.
fn json_response_then<T: serde::Serialize>(
    value: &T,
    sent: Option<tokio::sync::oneshot::Sender<()>>,
) -> Response {
    // Room for a typical reply (an embed of rules text) from the start.
    let mut body = Vec::with_capacity(4096);
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => {
            let body = match sent {
                Some(tx) => Body::new(SignalBody {
                    bytes: Some(Bytes::from(body)),
                    sent: Some(tx),
                }),
                None => Body::from(body),
            };
            ([(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(e) => {
            let id = super::error_id();
            tracing::error!(error_id = %id, "cannot serialize a response: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error {id}"),
            )
                .into_response()
        }
    }
}

fn json_response<T: serde::Serialize>(value: &T) -> Response {
    json_response_then(value, None)
}

/// A response body of one chunk that signals when it is dropped.
struct SignalBody {
    bytes: Option<Bytes>,
    sent: Option<tokio::sync::oneshot::Sender<()>>,
}

impl http_body::Body for SignalBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        Poll::Ready(self.bytes.take().map(|b| Ok(http_body::Frame::data(b))))
    }

    fn is_end_stream(&self) -> bool {
        self.bytes.is_none()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.bytes.as_ref().map_or(0, |b| b.len() as u64))
    }
}

impl Drop for SignalBody {
    fn drop(&mut self) {
        if let Some(tx) = self.sent.take() {
            let _ = tx.send(());
        }
    }
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

async fn interactions(
    State(state): State<Arc<HttpState>>,
    request: axum::extract::Request,
) -> Response {
    let headers = request.headers().clone();
    // A declared length over the limit is refused at once: the body limit
    // alone waited for the body (the body timeout, then 408).
    let declared =
        header_str(&headers, "content-length").and_then(|l| l.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > state.max_body as u64) {
        // What the client sends within a second, up to twice the limit, is
        // read and dropped first: a client that sends its whole body
        // before reading the answer got a reset connection, not the 413
        // (the unread body made the close a reset).
        let drain = axum::body::to_bytes(request.into_body(), 2 * state.max_body);
        let _ = tokio::time::timeout(DRAIN_BEFORE_REFUSING, drain).await;
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is too large",
        )
            .into_response();
    }
    // The body within the body timeout (413 over the limit).
    let body =
        match tokio::time::timeout(state.body_timeout, Bytes::from_request(request, &())).await {
            Ok(Ok(body)) => body,
            Ok(Err(rejection)) => return rejection.into_response(),
            Err(_) => {
                tracing::debug!("request body not received within the body timeout");
                return (
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body did not arrive in time",
                )
                    .into_response();
            }
        };
    let (Some(signature), Some(timestamp)) = (
        header_str(&headers, "x-signature-ed25519"),
        header_str(&headers, "x-signature-timestamp"),
    ) else {
        return unauthorized("missing signature headers");
    };
    let Ok(ts) = timestamp.trim().parse::<i64>() else {
        return unauthorized("bad timestamp");
    };
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    if (now - ts).unsigned_abs() > MAX_SKEW.as_secs() {
        return unauthorized("timestamp too far from now");
    }
    if state.verifier.verify(signature, timestamp, &body).is_err() {
        return unauthorized("invalid request signature");
    }
    let unreadable = |e: &dyn std::fmt::Display| {
        tracing::warn!("unreadable interaction payload: {e}");
        (StatusCode::BAD_REQUEST, "unreadable interaction payload").into_response()
    };
    let envelope: Envelope = match serde_json::from_slice(&body) {
        Ok(e) => e,
        Err(e) => return unreadable(&e),
    };
    if envelope.kind == InteractionType::Ping {
        return json_response(&serenity::all::CreateInteractionResponse::Pong);
    }
    let request = match envelope.to_request() {
        Ok(Ok(r)) => r,
        Ok(Err(reply)) => return json_response(&discord::response_body(&reply)),
        Err(e) => return unreadable(&e),
    };
    let span = interaction_span(&request);
    let started = Instant::now();
    let ephemeral = match state.bot.acknowledgement(&request) {
        Defer::No => {
            let reply = state.bot.handle(&request).instrument(span.clone()).await;
            span.in_scope(|| log_answered(started, false));
            if super::pictures::of_reply(&reply).is_none() {
                return json_response(&discord::response_body(&reply));
            }
            // The picture follows as a multipart follow-up once Discord has
            // the response.
            let (sent_tx, sent_rx) = tokio::sync::oneshot::channel();
            let (token, app_id) = (envelope.token.into_owned(), envelope.application_id);
            let (st, guard) = (state.clone(), state.in_flight.enter());
            let response = discord::response_body(&reply);
            tokio::spawn(
                async move {
                    let _guard = guard;
                    let _ = tokio::time::timeout(Duration::from_secs(5), sent_rx).await;
                    st.api.set_application_id(app_id);
                    if let Err(e) = discord::send_picture(&st.api, &token, &reply).await {
                        tracing::warn!("cannot send the picture: {e}");
                    }
                }
                .instrument(span),
            );
            return json_response_then(&response, Some(sent_tx));
        }
        deferred => deferred == Defer::Ephemeral,
    };
    let (token, app_id) = (envelope.token.into_owned(), envelope.application_id);
    let (sent_tx, sent_rx) = tokio::sync::oneshot::channel();
    let guard = state.in_flight.enter();
    let st = state.clone();
    tokio::spawn(
        async move {
            let _guard = guard;
            let reply = st.bot.handle(&request).await;
            // Discord must have the deferral before the reply arrives.
            let _ = tokio::time::timeout(Duration::from_secs(5), sent_rx).await;
            st.api.set_application_id(app_id);
            discord::deliver_or_report(&st.api, &token, &reply, ephemeral).await;
            log_answered(started, true);
        }
        .instrument(span),
    );
    json_response_then(&discord::defer(ephemeral), Some(sent_tx))
}

/// The span of one interaction: id, command, user, guild. Its fields are
/// the only per-interaction formatting at the default level (`info`).
pub fn interaction_span(request: &Request) -> tracing::Span {
    tracing::info_span!(
        "interaction",
        id = %request.origin.id,
        command = %request.input.label(),
        user = request.origin.user_id,
        guild = request.origin.guild_id,
    )
}

/// One line an interaction, with its latency: at debug level, so opt-in
/// (`RUST_LOG=info,arbiter_bot=debug`); at the default level it costs
/// nothing (docs/DISCORD.md). The latency is in the metrics either way.
pub fn log_answered(started: Instant, deferred: bool) {
    tracing::debug!(
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        deferred,
        "interaction answered"
    );
}

// ---- connections: accept loop, cap, timeouts ----

/// What a connection is doing.
const IDLE: u8 = 0;
/// Some bytes of a request's headers have arrived.
const HEAD: u8 = 1;
/// A request is being answered.
const BUSY: u8 = 2;

/// Milliseconds on a monotonic clock.
fn clock_ms() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_millis() as u64
}

/// One open connection, as the accept loop and its own task see it.
struct Conn {
    phase: AtomicU8,
    /// When the phase began ([`clock_ms`]).
    since: AtomicU64,
    /// Told to close (evicted, or the server is stopping).
    closing: AtomicBool,
    /// Poked on a phase change or when told to close.
    wake: tokio::sync::Notify,
}

impl Conn {
    fn new() -> Conn {
        Conn {
            phase: AtomicU8::new(IDLE),
            since: AtomicU64::new(clock_ms()),
            closing: AtomicBool::new(false),
            wake: tokio::sync::Notify::new(),
        }
    }

    fn set(&self, phase: u8) {
        self.since.store(clock_ms(), Ordering::Release);
        self.phase.store(phase, Ordering::Release);
        self.wake.notify_one();
    }

    fn close(&self) {
        self.closing.store(true, Ordering::Release);
        self.wake.notify_one();
    }
}

/// The open connections, oldest first.
struct Conns {
    open: Mutex<BTreeMap<u64, Arc<Conn>>>,
    next: AtomicU64,
    max: usize,
}

impl Conns {
    /// Registers a new connection, closing the oldest one with no request in
    /// progress when at the cap; `None` when every one is busy.
    fn admit(&self) -> Option<(u64, Arc<Conn>)> {
        let mut open = self.open.lock().ok()?;
        if open.len() >= self.max {
            let victim = open
                .iter()
                .find(|(_, c)| c.phase.load(Ordering::Acquire) != BUSY)
                .map(|(id, _)| *id)?;
            if let Some(c) = open.remove(&victim) {
                c.close();
                metrics::connection_dropped(Closed::evicted);
            }
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn::new());
        open.insert(id, conn.clone());
        Some((id, conn))
    }

    fn remove(&self, id: u64) {
        if let Ok(mut open) = self.open.lock() {
            open.remove(&id);
        }
    }

    fn close_all(&self) {
        if let Ok(open) = self.open.lock() {
            for c in open.values() {
                c.close();
            }
        }
    }
}

/// The soft limit on open files, from `/proc/self/limits` (Linux).
fn fd_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The connection cap in force: the configured one, lowered to fit the
/// file-descriptor limit.
pub fn effective_max_connections(configured: usize) -> usize {
    match fd_limit() {
        Some(fds) if fds.saturating_sub(FD_RESERVE) < configured => {
            let max = fds.saturating_sub(FD_RESERVE).max(16);
            tracing::warn!(
                configured,
                fd_limit = fds,
                max,
                "the connection cap is over the file-descriptor limit (ulimit -n) less {FD_RESERVE}; lowered"
            );
            max
        }
        _ => configured.max(1),
    }
}

/// Serves `router` on `listener` until `shutdown`, with `limits`; then
/// asks every connection to finish (in-flight requests complete, idle ones
/// close) and waits up to `limits.drain`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()> + Send,
) {
    let conns = Arc::new(Conns {
        open: Mutex::new(BTreeMap::new()),
        next: AtomicU64::new(0),
        max: effective_max_connections(limits.max_connections),
    });
    let mut tasks = tokio::task::JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, most likely: wait, don't spin.
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        match conns.admit() {
            Some((id, conn)) => {
                let (router, conns) = (router.clone(), conns.clone());
                tasks.spawn(async move {
                    metrics::connection_opened();
                    serve_connection(stream, conn, router, limits).await;
                    conns.remove(id);
                    metrics::connection_closed();
                });
            }
            None => {
                metrics::connection_dropped(Closed::over_cap);
                tasks.spawn(refuse(stream));
            }
        }
    }
    drop(listener);
    conns.close_all();
    let drained = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(limits.drain, drained).await.is_err() {
        tracing::warn!("connections still open after the drain time; closing them");
    }
}

/// Over the cap with every connection busy: a minimal answer, then close.
async fn refuse(mut stream: TcpStream) {
    const BUSY_RESPONSE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain\r\nContent-Length: 22\r\nConnection: close\r\n\r\ntoo many connections\r\n";
    let write = async {
        stream.write_all(BUSY_RESPONSE).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// One connection: hyper's HTTP/1.1 with keep-alive, watched for the idle
/// and header timeouts and for being told to close.
async fn serve_connection(stream: TcpStream, conn: Arc<Conn>, router: Router, limits: ConnLimits) {
    let io = hyper_util::rt::TokioIo::new(Watched {
        inner: stream,
        conn: conn.clone(),
    });
    let service = TrackedService {
        inner: hyper_util::service::TowerToHyperService::new(router),
        conn: conn.clone(),
    };
    let http = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        // hyper's own timer runs from the end of one request to the end of
        // the next one's headers: a backstop for ours.
        .header_read_timeout(limits.idle_timeout + limits.header_timeout)
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(http);
    let mut told_at: Option<Instant> = None;
    loop {
        let phase = conn.phase.load(Ordering::Acquire);
        let since = conn.since.load(Ordering::Acquire);
        let deadline_ms = match phase {
            IDLE => Some(since + limits.idle_timeout.as_millis() as u64),
            HEAD => Some(since + limits.header_timeout.as_millis() as u64),
            _ => None,
        };
        let wait = match (told_at, deadline_ms) {
            (Some(t), _) => CLOSE_GRACE.saturating_sub(t.elapsed()),
            (None, Some(d)) => Duration::from_millis(d.saturating_sub(clock_ms())),
            (None, None) => Duration::from_secs(3600),
        };
        tokio::select! {
            _ = http.as_mut() => return,
            () = conn.wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
        }
        let phase = conn.phase.load(Ordering::Acquire);
        if let Some(t) = told_at {
            // Told to close: a connection still holding partial headers after
            // the grace is dropped; a request in progress may finish.
            if phase != BUSY && t.elapsed() >= CLOSE_GRACE {
                return;
            }
            continue;
        }
        let expired = deadline_ms.is_some_and(|d| clock_ms() >= d)
            && conn.phase.load(Ordering::Acquire) == phase
            && conn.since.load(Ordering::Acquire) == since;
        if expired {
            metrics::connection_dropped(if phase == HEAD {
                Closed::header_timeout
            } else {
                Closed::idle_timeout
            });
        }
        if expired || conn.closing.load(Ordering::Acquire) {
            // Partial headers: no answer is owed, dropped at once. Idle
            // connections close at once too; one answering a request (or
            // still writing an answer) finishes it first.
            if phase == HEAD {
                return;
            }
            http.as_mut().graceful_shutdown();
            told_at = Some(Instant::now());
        }
    }
}

/// The socket, noting when a request's first bytes arrive.
struct Watched {
    inner: TcpStream,
    conn: Arc<Conn>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before && self.conn.phase.load(Ordering::Acquire) == IDLE {
            self.conn.set(HEAD);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// The router, marking the connection busy while a request is answered.
struct TrackedService<S> {
    inner: S,
    conn: Arc<Conn>,
}

impl<S, B> hyper::service::Service<hyper::Request<B>> for TrackedService<S>
where
    S: hyper::service::Service<hyper::Request<B>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn call(&self, request: hyper::Request<B>) -> Self::Future {
        self.conn.set(BUSY);
        let conn = self.conn.clone();
        let answer = self.inner.call(request);
        Box::pin(async move {
            let response = answer.await;
            conn.set(IDLE);
            response
        })
    }
}
