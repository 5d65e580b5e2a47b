//! Discord test kit: a fresh Ed25519 key pair, signed requests, interaction
//! payloads in Discord's real shapes, and a local stand-in for Discord's
//! API and CDN (attachments and deferred-reply edits) on loopback.
#![allow(dead_code)]

use std::io::Read;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use ed25519_dalek::{Signer, SigningKey};
use serde_json::{Value, json};

pub const APP_ID: &str = "1300000000000000001";
pub const GUILD_ID: &str = "1300000000000000100";
pub const CHANNEL_ID: &str = "1300000000000000200";
pub const USER_ID: &str = "1300000000000000300";

/// A fresh key pair from the OS's randomness.
pub fn keypair() -> SigningKey {
    let mut seed = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut seed))
        .expect("urandom");
    SigningKey::from_bytes(&seed)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn public_hex(key: &SigningKey) -> String {
    hex(key.verifying_key().as_bytes())
}

pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// (signature hex, timestamp) over timestamp + body, as Discord signs.
pub fn sign(key: &SigningKey, timestamp: i64, body: &[u8]) -> (String, String) {
    let ts = timestamp.to_string();
    let msg = [ts.as_bytes(), body].concat();
    (hex(&key.sign(&msg).to_bytes()), ts)
}

static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn snowflake() -> String {
    (1_310_000_000_000_000_000u64 + SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
        .to_string()
}

fn user() -> Value {
    json!({
        "avatar": null, "avatar_decoration_data": null, "clan": null, "discriminator": "0",
        "global_name": "Player One", "id": USER_ID, "public_flags": 0, "username": "playerone"
    })
}

/// The envelope every guild interaction shares.
pub fn envelope(kind: u8, data: Value) -> Value {
    json!({
        "app_permissions": "562949953601536",
        "application_id": APP_ID,
        "attachment_size_limit": 10485760,
        "authorizing_integration_owners": { "0": GUILD_ID },
        "channel": {
            "flags": 0, "guild_id": GUILD_ID, "id": CHANNEL_ID, "last_message_id": null, "name": "rules-questions",
            "nsfw": false, "parent_id": null, "permissions": "2251799813685247", "position": 3,
            "rate_limit_per_user": 0, "topic": null, "type": 0
        },
        "channel_id": CHANNEL_ID,
        "context": 0,
        "data": data,
        "entitlement_sku_ids": [],
        "entitlements": [],
        "guild": { "features": [], "id": GUILD_ID, "locale": "en-US" },
        "guild_id": GUILD_ID,
        "guild_locale": "en-US",
        "id": snowflake(),
        "locale": "en-GB",
        "member": {
            "avatar": null, "banner": null, "communication_disabled_until": null, "deaf": false, "flags": 0,
            "joined_at": "2024-03-01T18:00:00.000000+00:00", "mute": false, "nick": null, "pending": false,
            "permissions": "2251799813685247", "premium_since": null, "roles": [], "unusual_dm_activity_until": null,
            "user": user()
        },
        "token": format!("aW50ZXJhY3Rpb246{}", snowflake()),
        "type": kind,
        "version": 1
    })
}

pub fn ping() -> Value {
    json!({ "application_id": APP_ID, "id": snowflake(), "token": "aW50ZXJhY3Rpb246cGluZw", "type": 1, "user": user(), "version": 1 })
}

/// A string option.
pub fn opt(name: &str, value: &str) -> Value {
    json!({ "name": name, "type": 3, "value": value })
}

/// A slash command (type 2, data.type 1).
pub fn slash(name: &str, options: Vec<Value>) -> Value {
    envelope(
        2,
        json!({ "id": "1300000000000000010", "name": name, "type": 1, "options": options }),
    )
}

/// Autocomplete (type 4): the focused option and the others.
pub fn autocomplete(name: &str, focused: &str, value: &str, others: Vec<Value>) -> Value {
    let mut options = vec![json!({ "name": focused, "type": 3, "value": value, "focused": true })];
    options.extend(others);
    envelope(
        4,
        json!({ "id": "1300000000000000010", "name": name, "type": 1, "options": options }),
    )
}

/// `/judge file:` with an attachment at `url`.
pub fn judge_with_attachment(url: &str, filename: &str, size: usize) -> Value {
    let att = snowflake();
    envelope(
        2,
        json!({
            "id": "1300000000000000011", "name": "judge", "type": 1,
            "options": [{ "name": "file", "type": 11, "value": att }],
            "resolved": { "attachments": { att.clone(): {
                "id": att, "filename": filename, "size": size, "url": url, "proxy_url": url,
                "content_type": "application/x-yaml; charset=utf-8", "ephemeral": true
            } } }
        }),
    )
}

/// A message object as Discord sends it.
pub fn message(id: &str, content: &str, embeds: Value, components: Value) -> Value {
    json!({
        "attachments": [], "author": user(), "channel_id": CHANNEL_ID, "components": components,
        "content": content, "edited_timestamp": null, "embeds": embeds, "flags": 0, "id": id,
        "mention_everyone": false, "mention_roles": [], "mentions": [], "pinned": false,
        "timestamp": "2026-11-22T02:30:00.000000+00:00", "tts": false, "type": 0
    })
}

/// "Judge this board" (type 2, data.type 3) on a message.
pub fn judge_message(content: &str) -> Value {
    let id = snowflake();
    envelope(
        2,
        json!({
            "id": "1300000000000000012", "name": "Judge this board", "type": 3, "target_id": id,
            "resolved": { "messages": { id.clone(): message(&id, content, json!([]), json!([])) } }
        }),
    )
}

/// A button press (type 3) on a bot message.
pub fn button(custom_id: &str) -> Value {
    let mut v = envelope(3, json!({ "component_type": 2, "custom_id": custom_id }));
    let components = json!([{ "type": 1, "components": [{ "type": 2, "style": 2, "label": "→", "custom_id": custom_id }] }]);
    let embeds = json!([{ "type": "rich", "title": "Rules", "description": "…" }]);
    let mut m = message(&snowflake(), "", embeds, components);
    m["author"] = json!({ "id": APP_ID, "username": "Arbiter", "discriminator": "0", "avatar": null, "bot": true, "global_name": null, "public_flags": 0 });
    m["interaction_metadata"] = json!({ "id": snowflake(), "type": 2, "user": user(), "authorizing_integration_owners": { "0": GUILD_ID } });
    v["message"] = m;
    v
}

/// A modal submit (type 5) with one text input.
pub fn modal_submit(custom_id: &str, field: &str, value: &str) -> Value {
    envelope(
        5,
        json!({ "custom_id": custom_id, "components": [{ "type": 1, "components": [{ "type": 4, "custom_id": field, "value": value }] }] }),
    )
}

/// What the stand-in for Discord received.
#[derive(Default)]
pub struct Recorded {
    /// Edits of the original (deferred) response: (token, body).
    pub edits: Vec<(String, Value)>,
    /// Deletions of the original response, by token.
    pub deletes: Vec<String>,
    /// Follow-up messages: (token, body).
    pub followups: Vec<(String, Value)>,
    /// The parts of every multipart edit or follow-up: (token, parts).
    pub parts: Vec<(String, Vec<Part>)>,
    pub downloads: usize,
    /// Statuses the next edits of an original are refused with, in order
    /// (429 with Discord's documented body, which has no `code`).
    pub refuse_edits: std::collections::VecDeque<u16>,
    /// Every edit of an original tried, refused or not.
    pub edit_tries: usize,
}

/// What a deferred interaction finally showed: the edited original, or
/// (after the original was deleted) a follow-up.
#[derive(Debug, Clone)]
pub enum Delivered {
    Edit(Value),
    /// The original was deleted first.
    Followup(Value),
}

impl Delivered {
    pub fn body(&self) -> &Value {
        match self {
            Delivered::Edit(v) | Delivered::Followup(v) => v,
        }
    }

    /// Whether only the user sees it (a follow-up's own flag; an edit keeps
    /// the deferral's visibility, public in these tests).
    pub fn ephemeral(&self) -> bool {
        match self {
            Delivered::Edit(_) => false,
            Delivered::Followup(v) => v["flags"].as_u64().unwrap_or(0) & 64 != 0,
        }
    }

    /// As an immediate response would have carried it (type 4, `data`), so
    /// assertions work on either path.
    pub fn as_response(&self) -> Value {
        let mut data = self.body().clone();
        if let Delivered::Edit(_) = self {
            data["flags"] = json!(0);
        }
        json!({ "type": 4, "data": data, "deferred": true })
    }
}

/// One part of a multipart body: its form name, file name, type, bytes.
#[derive(Debug, Clone)]
pub struct Part {
    pub name: String,
    pub filename: Option<String>,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

/// The parts of a `multipart/form-data` body (RFC 7578), as Discord reads
/// a message with files: `payload_json` and `files[n]`.
pub fn multipart_parts(content_type: &str, body: &[u8]) -> Vec<Part> {
    let Some(boundary) = content_type
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))
        .map(|b| b.trim_matches('"'))
    else {
        return Vec::new();
    };
    let delim = format!("--{boundary}").into_bytes();
    let find = |hay: &[u8], needle: &[u8], from: usize| {
        (from..=hay.len().saturating_sub(needle.len())).find(|&i| hay[i..].starts_with(needle))
    };
    let mut parts = Vec::new();
    let mut at = match find(body, &delim, 0) {
        Some(i) => i + delim.len(),
        None => return parts,
    };
    while !body[at..].starts_with(b"--") {
        let Some(next) = find(body, &delim, at) else {
            break;
        };
        let chunk = &body[at..next];
        let chunk = chunk.strip_prefix(b"\r\n").unwrap_or(chunk);
        let chunk = chunk.strip_suffix(b"\r\n").unwrap_or(chunk);
        if let Some(split) = find(chunk, b"\r\n\r\n", 0) {
            let head = String::from_utf8_lossy(&chunk[..split]).to_string();
            let param = |key: &str| {
                let pat = format!("{key}=\"");
                head.find(&pat).and_then(|i| {
                    let rest = &head[i + pat.len()..];
                    rest.find('"').map(|j| rest[..j].to_string())
                })
            };
            let content_type = head
                .lines()
                .find_map(|l| {
                    l.strip_prefix("Content-Type:")
                        .or(l.strip_prefix("content-type:"))
                })
                .map(|v| v.trim().to_string());
            parts.push(Part {
                name: param(" name").or_else(|| param("name")).unwrap_or_default(),
                filename: param("filename"),
                content_type,
                bytes: chunk[split + 4..].to_vec(),
            });
        }
        at = next + delim.len();
    }
    parts
}

/// A recorded body: JSON as it came; multipart as its `payload_json`
/// (so embeds read the same), with the raw text under `multipart` and the
/// files under `files` (name, size, whether the bytes are a PNG).
fn body_value(content_type: &str, body: &[u8]) -> Value {
    if let Ok(v) = serde_json::from_slice(body) {
        return v;
    }
    let parts = multipart_parts(content_type, body);
    let mut v = parts
        .iter()
        .find(|p| p.name == "payload_json")
        .and_then(|p| serde_json::from_slice::<Value>(&p.bytes).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    v["multipart"] = json!(String::from_utf8_lossy(body));
    v["files"] = parts
        .iter()
        .filter(|p| p.filename.is_some())
        .map(|p| {
            json!({
                "name": p.name, "filename": p.filename, "content_type": p.content_type,
                "size": p.bytes.len(), "png": p.bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            })
        })
        .collect();
    v
}

fn content_type(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// Discord's refusal with `status`, in its documented bodies: a 429's
/// (`retry_after`, no `code`), else a JSON error with a code.
fn refusal(status: u16) -> (axum::http::StatusCode, axum::Json<Value>) {
    let body = match status {
        429 => {
            json!({ "message": "You are being rate limited.", "retry_after": 0.1, "global": false })
        }
        404 => json!({ "message": "Unknown Webhook", "code": 10015 }),
        _ => json!({ "message": "500: Internal Server Error", "code": 0 }),
    };
    let status = axum::http::StatusCode::from_u16(status).expect("a status");
    (status, axum::Json(body))
}

/// A local stand-in for Discord's CDN (`GET /attachments/<name>`) and API
/// (`PATCH /api/v10/webhooks/<app>/<token>/messages/@original`).
pub struct FakeDiscord {
    pub addr: SocketAddr,
    pub recorded: Arc<Mutex<Recorded>>,
    pub files: Arc<Mutex<std::collections::HashMap<String, Vec<u8>>>>,
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        use axum::extract::{Path, State};
        use axum::routing::{get, patch};
        type St = (
            Arc<Mutex<Recorded>>,
            Arc<Mutex<std::collections::HashMap<String, Vec<u8>>>>,
        );
        let recorded = Arc::new(Mutex::new(Recorded::default()));
        let files = Arc::new(Mutex::new(std::collections::HashMap::new()));
        let app =
            axum::Router::new()
                .route(
                    "/attachments/{name}",
                    get(
                        |State((rec, files)): State<St>, Path(name): Path<String>| async move {
                            rec.lock().unwrap().downloads += 1;
                            match files.lock().unwrap().get(&name) {
                                Some(b) => (axum::http::StatusCode::OK, b.clone()),
                                None => (axum::http::StatusCode::NOT_FOUND, Vec::new()),
                            }
                        },
                    ),
                )
                .route(
                    "/slow/{name}",
                    get(
                        |State((rec, files)): State<St>, Path(name): Path<String>| async move {
                            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                            rec.lock().unwrap().downloads += 1;
                            let body = files
                                .lock()
                                .unwrap()
                                .get(&name)
                                .cloned()
                                .unwrap_or_default();
                            (axum::http::StatusCode::OK, body)
                        },
                    ),
                )
                .route(
                    "/api/v10/webhooks/{app}/{token}/messages/@original",
                    patch(
                        |State((rec, _)): State<St>,
                         Path((_app, token)): Path<(String, String)>,
                         headers: axum::http::HeaderMap,
                         body: axum::body::Bytes| async move {
                            use axum::response::IntoResponse;
                            let ct = content_type(&headers);
                            let mut rec = rec.lock().unwrap();
                            rec.edit_tries += 1;
                            if let Some(status) = rec.refuse_edits.pop_front() {
                                return refusal(status).into_response();
                            }
                            rec.parts.push((token.clone(), multipart_parts(&ct, &body)));
                            rec.edits.push((token, body_value(&ct, &body)));
                            axum::Json(message("1300000000000009999", "", json!([]), json!([])))
                                .into_response()
                        },
                    )
                    .delete(
                        |State((rec, _)): State<St>,
                         Path((_app, token)): Path<(String, String)>| async move {
                            rec.lock().unwrap().deletes.push(token);
                            axum::http::StatusCode::NO_CONTENT
                        },
                    ),
                )
                .route(
                    "/api/v10/webhooks/{app}/{token}",
                    axum::routing::post(
                        |State((rec, _)): State<St>,
                         Path((_app, token)): Path<(String, String)>,
                         headers: axum::http::HeaderMap,
                         body: axum::body::Bytes| async move {
                            let ct = content_type(&headers);
                            let mut rec = rec.lock().unwrap();
                            rec.parts.push((token.clone(), multipart_parts(&ct, &body)));
                            rec.followups.push((token, body_value(&ct, &body)));
                            axum::Json(message("1300000000000009998", "", json!([]), json!([])))
                        },
                    ),
                )
                .with_state((recorded.clone(), files.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        FakeDiscord {
            addr,
            recorded,
            files,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits (up to 10 s) for what a deferred interaction showed: the edit
    /// of its original, or a follow-up sent after the original was deleted.
    pub async fn delivered(&self, token: &str) -> Delivered {
        for _ in 0..200 {
            {
                let rec = self.recorded.lock().unwrap();
                if let Some((_, v)) = rec.edits.iter().find(|(t, _)| t == token) {
                    return Delivered::Edit(v.clone());
                }
                if let Some((_, v)) = rec.followups.iter().find(|(t, _)| t == token) {
                    assert!(
                        rec.deletes.iter().any(|t| t == token),
                        "a follow-up without deleting the deferred message first: {v}"
                    );
                    return Delivered::Followup(v.clone());
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("nothing was delivered for the deferred interaction");
    }

    /// Polls what was recorded every 50 ms, `tries` times, until `find`
    /// finds it.
    pub async fn wait_for(
        &self,
        tries: usize,
        find: impl Fn(&Recorded) -> Option<Value>,
    ) -> Option<Value> {
        for _ in 0..tries {
            if let Some(v) = find(&self.recorded.lock().unwrap()) {
                return Some(v);
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        None
    }

    /// Waits (up to 5 s) for the edit of a deferred reply.
    pub async fn edit(&self, token: &str) -> Value {
        let edit = |r: &Recorded| {
            let found = r.edits.iter().find(|(t, _)| t == token);
            found.map(|(_, v)| v.clone())
        };
        self.wait_for(100, edit)
            .await
            .expect("no edit of the deferred reply arrived")
    }

    /// The turn notice sent for the interaction `token` (up to 1 s): a
    /// follow-up message with content (the reply itself is an embed).
    pub async fn ping(&self, token: &str) -> Option<Value> {
        let notice = |r: &Recorded| {
            let found = r
                .followups
                .iter()
                .find(|(t, v)| t == token && v["content"].is_string());
            found.map(|(_, v)| v.clone())
        };
        self.wait_for(20, notice).await
    }

    /// Waits (up to 5 s) for a file sent for the interaction `token` (in
    /// an edit or a follow-up, as multipart) whose name ends with `suffix`.
    pub async fn file(&self, token: &str, suffix: &str) -> Option<Part> {
        for _ in 0..100 {
            {
                let rec = self.recorded.lock().unwrap();
                let found = rec
                    .parts
                    .iter()
                    .filter(|(t, _)| t == token)
                    .flat_map(|(_, parts)| parts)
                    .find(|p| p.filename.as_deref().is_some_and(|f| f.ends_with(suffix)));
                if let Some(p) = found {
                    return Some(p.clone());
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        None
    }

    pub fn serve_file(&self, name: &str, bytes: Vec<u8>) -> String {
        self.files.lock().unwrap().insert(name.to_string(), bytes);
        format!("{}/attachments/{name}", self.url())
    }
}

/// "Judge this board" on a message whose board is an attachment.
pub fn judge_message_with_attachment(
    content: &str,
    url: &str,
    filename: &str,
    size: usize,
) -> Value {
    let id = snowflake();
    let mut m = message(&id, content, json!([]), json!([]));
    m["attachments"] = json!([{
        "id": snowflake(), "filename": filename, "size": size, "url": url, "proxy_url": url,
        "content_type": "application/x-yaml; charset=utf-8"
    }]);
    envelope(
        2,
        json!({
            "id": "1300000000000000012", "name": "Judge this board", "type": 3, "target_id": id,
            "resolved": { "messages": { id.clone(): m } }
        }),
    )
}

// ---- /match (issue 9) ----

/// Permissions of a member without Manage Messages (view channel, send
/// messages, use application commands).
pub const PLAYER_PERMISSIONS: &str = "2147486720";
/// The same with Manage Messages (a moderator).
pub const MODERATOR_PERMISSIONS: &str = "2147494912";

/// Two players of an Ashes match.
pub const COAL: (&str, &str) = ("1300000000000000301", "Coal");
pub const MAEONI: (&str, &str) = ("1300000000000000302", "Maeoni");

/// A starting board for their match, and a legal first play of Coal's.
pub const MATCH_BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 15 }
    units:
      - { name: Iron Worker, attack: 2, life: 2 }
      - { name: Hammer Knight, attack: 3, life: 3 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20, damage: 5, exhausted: true }
    units:
      - { name: Mist Spirit, attack: 1, life: 1 }
";
pub const MATCH_PLAY: &str = "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by <@1300000000000000302>";

/// Arbiter's endpoint on loopback: the shipped rules, a SQLite match store
/// in `dir`, `fake` as Discord's API.
pub async fn start_with_matches(
    key: &SigningKey,
    dir: &std::path::Path,
    fake: &FakeDiscord,
) -> arbiter::bot::http::Running {
    use arbiter::bot::http::{self, HttpConfig};
    use arbiter::bot::{Bot, BotConfig};
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = arbiter::app::App::load(&root.join("rules_data"), &[]).expect("rule data");
    let config = BotConfig {
        database_url: Some(format!("sqlite://{}", dir.join("matches.db").display())),
        ..BotConfig::default()
    };
    let bot = Arc::new(Bot::new(Arc::new(app), config));
    bot.open_matches().await.expect("the database opens");
    http::start(
        bot,
        HttpConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            public_key: public_hex(key),
            api_base: Some(fake.url()),
            max_body: http::MAX_BODY_BYTES,
            limits: http::ConnLimits::default(),
        },
    )
    .await
    .expect("the endpoint starts")
}

/// A user object with this id and name.
pub fn user_with(id: &str, name: &str) -> Value {
    json!({
        "avatar": null, "avatar_decoration_data": null, "clan": null, "discriminator": "0",
        "global_name": name, "id": id, "public_flags": 0, "username": name.to_lowercase()
    })
}

/// The interaction as sent by another member, with these channel permissions.
pub fn as_member(mut payload: Value, id: &str, name: &str, permissions: &str) -> Value {
    payload["member"]["user"] = user_with(id, name);
    payload["member"]["permissions"] = json!(permissions);
    payload
}

/// `/match <sub>` with the subcommand's options.
pub fn match_sub(sub: &str, options: Vec<Value>) -> Value {
    slash(
        "match",
        vec![json!({ "name": sub, "type": 1, "options": options })],
    )
}

/// `/match start game:… player1:… …`: user options, resolved as Discord does.
pub fn match_start(game: &str, players: &[(&str, &str)]) -> Value {
    let mut options = vec![opt("game", game)];
    let mut users = serde_json::Map::new();
    for (n, (id, name)) in players.iter().enumerate() {
        options.push(json!({ "name": format!("player{}", n + 1), "type": 6, "value": id }));
        users.insert(id.to_string(), user_with(id, name));
    }
    let mut v = match_sub("start", options);
    v["data"]["resolved"] = json!({ "users": users });
    v
}

/// Autocomplete of `/match play text:…`.
pub fn match_play_autocomplete(value: &str) -> Value {
    match_autocomplete("play", "text", value)
}

/// Autocomplete of `/match SUB OPTION:…`, `value` typed so far.
pub fn match_autocomplete(sub: &str, option: &str, value: &str) -> Value {
    envelope(
        4,
        json!({ "id": "1300000000000000010", "name": "match", "type": 1, "options": [
            { "name": sub, "type": 1, "options": [
                { "name": option, "type": 3, "value": value, "focused": true }
            ] }
        ] }),
    )
}

/// `/match setup file:` with an attachment at `url`.
pub fn match_setup_with_attachment(url: &str, filename: &str, size: usize) -> Value {
    let att = snowflake();
    let mut v = match_sub(
        "setup",
        vec![json!({ "name": "file", "type": 11, "value": att })],
    );
    v["data"]["resolved"] = json!({ "attachments": { att.clone(): {
        "id": att, "filename": filename, "size": size, "url": url, "proxy_url": url,
        "content_type": "application/x-yaml; charset=utf-8", "ephemeral": true
    } } });
    v
}

/// The interaction in another channel of the guild.
pub fn in_channel(mut payload: Value, channel: &str) -> Value {
    payload["channel_id"] = json!(channel);
    payload["channel"]["id"] = json!(channel);
    payload
}

// ---- an in-process `serve --http` ----

/// Posts a signed interaction to the server at `addr`; it must answer 200
/// with JSON.
pub async fn post_signed(
    client: &reqwest::Client,
    key: &SigningKey,
    addr: &str,
    payload: &Value,
) -> Value {
    let body = serde_json::to_vec(payload).unwrap();
    let (sig, ts) = sign(key, now(), &body);
    let r = client
        .post(format!("http://{addr}/"))
        .header("content-type", "application/json")
        .header("x-signature-ed25519", sig)
        .header("x-signature-timestamp", ts)
        .body(body)
        .send()
        .await
        .expect("request sent");
    assert_eq!(r.status().as_u16(), 200);
    serde_json::from_slice(&r.bytes().await.unwrap()).unwrap()
}

/// The HTTP endpoint on a loopback port for `bot`, checking `key`'s
/// signatures, with the fake Discord as its API.
pub async fn start_endpoint(
    bot: Arc<arbiter::bot::Bot>,
    key: &SigningKey,
    fake: &FakeDiscord,
) -> arbiter::bot::http::Running {
    use arbiter::bot::http;
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    http::start(
        bot,
        http::HttpConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            public_key: public_hex(key),
            api_base: Some(fake.url()),
            max_body: http::MAX_BODY_BYTES,
            limits: http::ConnLimits::default(),
        },
    )
    .await
    .expect("server starts")
}

/// The HTTP interactions endpoint on loopback (the real axum server), with
/// the bot on a match database and a stand-in for Discord's API.
pub struct Server {
    pub server: arbiter::bot::http::Running,
    pub bot: Arc<arbiter::bot::Bot>,
    pub key: SigningKey,
    pub fake: FakeDiscord,
    pub client: reqwest::Client,
    _dir: Option<tempfile::TempDir>,
}

impl Server {
    /// On a SQLite file in a temp dir.
    pub async fn start() -> Server {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("matches.db").display());
        let mut s = Server::on(&url).await;
        s._dir = Some(dir);
        s
    }

    /// On the database at `url` (`sqlite://…` or `postgres://…`).
    pub async fn on(url: &str) -> Server {
        use arbiter::bot::http::{self, HttpConfig};
        arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let app =
            Arc::new(arbiter::app::App::load(&root.join("rules_data"), &[]).expect("rule data"));
        let key = keypair();
        let fake = FakeDiscord::start().await;
        let config = arbiter::bot::BotConfig {
            database_url: Some(url.to_string()),
            ..arbiter::bot::BotConfig::default()
        };
        let bot = Arc::new(arbiter::bot::Bot::new(app, config));
        bot.open_matches().await.expect("the database opens");
        let server = http::start(
            bot.clone(),
            HttpConfig {
                addr: "127.0.0.1:0".parse().unwrap(),
                public_key: public_hex(&key),
                api_base: Some(fake.url()),
                max_body: http::MAX_BODY_BYTES,
                limits: http::ConnLimits::default(),
            },
        )
        .await
        .expect("server starts");
        Server {
            server,
            bot,
            key,
            fake,
            client: reqwest::Client::new(),
            _dir: None,
        }
    }

    pub async fn post(&self, payload: &Value) -> Value {
        let addr = self.server.addr.to_string();
        post_signed(&self.client, &self.key, &addr, payload).await
    }

    /// An interaction as a member; a player has no Manage Messages. A
    /// deferred interaction is followed to what it finally showed (the
    /// edited original, or a follow-up after deleting it), as a response.
    pub async fn run(&self, who: (&str, &str), moderator: bool, payload: Value) -> Value {
        let perms = if moderator {
            MODERATOR_PERMISSIONS
        } else {
            PLAYER_PERMISSIONS
        };
        let payload = as_member(payload, who.0, who.1, perms);
        let v = self.post(&payload).await;
        if v["type"] != 5 {
            return v;
        }
        assert_eq!(
            v["data"]["flags"].as_u64().unwrap_or(0) & 64,
            0,
            "writes are deferred publicly: {v}"
        );
        let token = payload["token"].as_str().unwrap();
        self.fake.delivered(token).await.as_response()
    }

    /// As [`Harness::run`] for a player, also returning the interaction's
    /// token (its turn notice is a follow-up of it).
    pub async fn run_token(&self, who: (&str, &str), payload: Value) -> (Value, String) {
        let payload = as_member(payload, who.0, who.1, PLAYER_PERMISSIONS);
        let token = payload["token"].as_str().unwrap().to_string();
        let v = self.post(&payload).await;
        if v["type"] != 5 {
            return (v, token);
        }
        (self.fake.delivered(&token).await.as_response(), token)
    }

    pub async fn edit_for(&self, token: &str) -> Value {
        self.fake.edit(token).await
    }
}

/// A response's embed title.
pub fn title(v: &Value) -> String {
    v["data"]["embeds"][0]["title"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A response's embed description.
pub fn desc(v: &Value) -> String {
    v["data"]["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Whether a response is for the user alone.
pub fn ephemeral(v: &Value) -> bool {
    v["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
}

/// A response's buttons: (label, custom id).
pub fn buttons(v: &Value) -> Vec<(String, String)> {
    v["data"]["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .filter_map(|c| {
            Some((
                c["label"].as_str()?.to_string(),
                c["custom_id"].as_str()?.to_string(),
            ))
        })
        .collect()
}

// ---- `/rules` ----

/// Another server than [`GUILD_ID`].
pub const OTHER_GUILD: &str = "1300000000000000999";
/// Manage Server (0x20) plus what a member usually has.
pub const ADMIN_PERMISSIONS: &str = "2147483680";

/// `/rules <sub>` with the subcommand's options.
pub fn rules_sub(sub: &str, options: Vec<Value>) -> Value {
    slash(
        "rules",
        vec![json!({ "name": sub, "type": 1, "options": options })],
    )
}

/// `/rules add file:house.md game:ti4 kind:house title:Table rules`, the file at `url`.
pub fn rules_add(url: &str, size: usize) -> Value {
    rules_add_doc(url, size, ["house.md", "ti4", "house", "Table rules"])
}

/// `/rules add` with the attachment at `url`: its file name, the game, the
/// kind and the title.
pub fn rules_add_doc(url: &str, size: usize, [file, game, kind, title]: [&str; 4]) -> Value {
    let att = "1300000000000000777";
    let mut v = rules_sub(
        "add",
        vec![
            json!({ "name": "file", "type": 11, "value": att }),
            opt("game", game),
            opt("kind", kind),
            opt("title", title),
        ],
    );
    v["data"]["resolved"] = json!({ "attachments": { att: {
        "id": att, "filename": file, "size": size, "url": url, "proxy_url": url,
        "content_type": "text/markdown; charset=utf-8", "ephemeral": true
    } } });
    v
}

/// The interaction in another server.
pub fn in_guild(mut payload: Value, guild: &str) -> Value {
    payload["guild_id"] = json!(guild);
    payload["guild"]["id"] = json!(guild);
    payload["channel"]["guild_id"] = json!(guild);
    payload
}

/// Autocomplete (type 4) of an option of a subcommand (`/rules show id:`).
pub fn sub_autocomplete(name: &str, sub: &str, focused: &str, value: &str) -> Value {
    envelope(
        4,
        json!({ "id": "1300000000000000010", "name": name, "type": 1, "options": [
            { "name": sub, "type": 1, "options": [
                { "name": focused, "type": 3, "value": value, "focused": true }
            ] }
        ] }),
    )
}

/// The values of an autocomplete response's choices.
pub fn choice_values(v: &Value) -> Vec<String> {
    v["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect()
}
