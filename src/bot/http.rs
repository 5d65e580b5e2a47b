//! Discord's HTTP interactions endpoint (`arbiter serve --http ADDR`).
//!
//! Every POST is verified (Ed25519 over timestamp + body, with serenity's
//! verifier) and refused with 401 when the signature is wrong or the
//! timestamp is more than [`MAX_SKEW`] from now; bodies over the limit get
//! 413. The body is deserialized into serenity's `Interaction`; the answer is
//! serenity's `CreateInteractionResponse` serialized as JSON. Work that may
//! take longer than Discord's 3 seconds is deferred (type 5) and the reply
//! then edited in through Discord's webhook API.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serenity::all::Interaction;
use serenity::interactions_endpoint::Verifier;
use tracing::Instrument;

use super::{Bot, InFlight, Request, discord};

/// Largest request body accepted (Discord's interaction payloads are a few
/// KB; a message with a 4,000-character board fits many times over).
pub const MAX_BODY_BYTES: usize = 128 * 1024;
/// Requests signed further than this from now are refused (replays).
pub const MAX_SKEW: Duration = Duration::from_secs(5 * 60);

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

struct HttpState {
    bot: Arc<Bot>,
    verifier: Verifier,
    api: Arc<serenity::http::Http>,
    in_flight: Arc<InFlight>,
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

/// The routes: `POST /` (and `/interactions`), `GET /healthz`.
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
    });
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| HttpError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr().map_err(HttpError::Serve)?;
    let app = router(state, config.max_body);
    let fut = async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(HttpError::Serve)?;
        tracing::info!("HTTP endpoint stopped accepting; finishing deferred interactions");
        in_flight.drain(Duration::from_secs(15)).await;
        Ok(())
    };
    Ok((addr, fut))
}

async fn healthz(State(state): State<Arc<HttpState>>) -> Response {
    health_body(&state.bot.app)
}

fn health_body(app: &crate::app::App) -> Response {
    let body = serde_json::json!({ "status": "ok", "games": app.corpus.games.len(), "passages": app.corpus.passages.len() });
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// `GET /healthz` alone (for the gateway transport, which has no HTTP
/// endpoint of its own).
pub async fn bind_health(
    app: Arc<crate::app::App>,
    addr: SocketAddr,
) -> Result<
    (
        SocketAddr,
        impl Future<Output = Result<(), HttpError>> + Send,
    ),
    HttpError,
> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| HttpError::Bind { addr, source })?;
    let bound = listener.local_addr().map_err(HttpError::Serve)?;
    let router = Router::new().route("/healthz", get(move || async move { health_body(&app) }));
    Ok((bound, async move {
        axum::serve(listener, router)
            .await
            .map_err(HttpError::Serve)
    }))
}

fn unauthorized(why: &'static str) -> Response {
    tracing::debug!(reason = why, "refused interaction");
    (StatusCode::UNAUTHORIZED, why).into_response()
}

fn json_response<T: serde::Serialize>(value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
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

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

async fn interactions(
    State(state): State<Arc<HttpState>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
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
    let interaction: Interaction = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!("unreadable interaction payload: {e}");
            return (StatusCode::BAD_REQUEST, "unreadable interaction payload").into_response();
        }
    };
    if let Interaction::Ping(_) = interaction {
        return json_response(&serenity::all::CreateInteractionResponse::Pong);
    }
    let request = match discord::to_request(&interaction) {
        Ok(r) => r,
        Err(reply) => return json_response(&discord::response(&reply)),
    };
    let span = interaction_span(&request);
    let started = Instant::now();
    if state.bot.needs_defer(&request) {
        let token = match &interaction {
            Interaction::Command(ci) => Some((ci.token.clone(), ci.application_id)),
            _ => None,
        };
        if let Some((token, app_id)) = token {
            let guard = state.in_flight.enter();
            let st = state.clone();
            let ephemeral = state.bot.defer_ephemeral(&request);
            let task_span = span.clone();
            tokio::spawn(
                async move {
                    let _guard = guard;
                    let reply = st.bot.handle(&request).await;
                    st.api.set_application_id(app_id);
                    if let Err(e) = st
                        .api
                        .edit_original_interaction_response(
                            &token,
                            &discord::edit(&reply),
                            discord::files(&reply),
                        )
                        .await
                    {
                        let id = super::error_id();
                        tracing::error!(error_id = %id, "cannot edit the deferred reply: {e}");
                    }
                    tracing::Span::current()
                        .record("latency_ms", started.elapsed().as_secs_f64() * 1000.0);
                    tracing::info!(deferred = true, "interaction answered");
                }
                .instrument(task_span),
            );
            return json_response(&discord::defer(ephemeral));
        }
    }
    let reply = state.bot.handle(&request).instrument(span.clone()).await;
    span.record("latency_ms", started.elapsed().as_secs_f64() * 1000.0);
    span.in_scope(|| tracing::info!("interaction answered"));
    json_response(&discord::response(&reply))
}

/// The span of one interaction: id, command, user, guild, latency.
pub fn interaction_span(request: &Request) -> tracing::Span {
    tracing::info_span!(
        "interaction",
        id = %request.origin.id,
        command = %request.input.label(),
        user = request.origin.user_id,
        guild = request.origin.guild_id,
        latency_ms = tracing::field::Empty,
    )
}
