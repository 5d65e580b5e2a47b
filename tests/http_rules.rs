//! `/rules` end to end: the HTTP interactions endpoint on loopback, signed
//! interactions in Discord's payload shapes (a subcommand with an attachment
//! in `resolved.attachments`, the member's permissions), the attachment
//! served by a fake Discord CDN, a SQLite file: preview, Confirm, `/rule` in
//! that server and not in another, Manage Server checked on the server side.

mod discord_kit;

use std::sync::Arc;

use arbiter::app::App;
use arbiter::bot::http::Running;
use arbiter::bot::{Bot, BotConfig};
use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::{Value, json};

const HOUSE: &str = "# Speaker\n\n1. The speaker breaks ties with a coin toss at our table. Ask @everyone or <@1300000000000000302>.\n";
const OTHER_GUILD: &str = "1300000000000000999";
/// Manage Server (0x20) plus what a member usually has.
const ADMIN_PERMISSIONS: &str = "2147483680";

struct Endpoint {
    server: Running,
    key: SigningKey,
    fake: FakeDiscord,
    _dir: tempfile::TempDir,
}

async fn endpoint() -> Endpoint {
    let dir = tempfile::tempdir().unwrap();
    let data = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data");
    let shipped = arbiter::load::load_dir(&data).unwrap();
    let app = Arc::new(App::new(arbiter::corpus::Corpus::build(shipped.clone())));
    let db = format!("sqlite://{}", dir.path().join("rules.db").display());
    let config = BotConfig {
        database_url: Some(db),
        ..BotConfig::default()
    };
    let bot = Arc::new(Bot::new(app, config).with_shipped(shipped));
    bot.open_rule_sets().await.expect("the database opens");
    let (key, fake) = (keypair(), FakeDiscord::start().await);
    let server = start_endpoint(bot, &key, &fake).await;
    Endpoint {
        server,
        key,
        fake,
        _dir: dir,
    }
}

impl Endpoint {
    /// Posts a signed interaction; a deferred one is followed to what it showed.
    async fn send(&self, payload: &Value) -> Value {
        let addr = self.server.addr.to_string();
        let v = post_signed(&reqwest::Client::new(), &self.key, &addr, payload).await;
        if v["type"] != 5 {
            return v;
        }
        let token = payload["token"].as_str().unwrap();
        let mut shown = self.fake.delivered(token).await.as_response();
        shown["deferral_flags"] = v["data"]["flags"].clone();
        shown
    }
}

fn rules_sub(sub: &str, options: Vec<Value>) -> Value {
    slash(
        "rules",
        vec![json!({ "name": sub, "type": 1, "options": options })],
    )
}

fn rules_add(url: &str, size: usize) -> Value {
    let att = "1300000000000000777";
    let mut v = rules_sub(
        "add",
        vec![
            json!({ "name": "file", "type": 11, "value": att }),
            opt("game", "ti4"),
            opt("kind", "house"),
            opt("title", "Table rules"),
        ],
    );
    v["data"]["resolved"] = json!({ "attachments": { att: {
        "id": att, "filename": "house.md", "size": size, "url": url, "proxy_url": url,
        "content_type": "text/markdown; charset=utf-8", "ephemeral": true
    } } });
    v
}

fn in_guild(mut payload: Value, guild: &str) -> Value {
    payload["guild_id"] = json!(guild);
    payload["guild"]["id"] = json!(guild);
    payload["channel"]["guild_id"] = json!(guild);
    payload
}

fn text_of(v: &Value) -> String {
    let d = &v["data"];
    format!(
        "{} {}",
        d["embeds"][0]["title"], d["embeds"][0]["description"]
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_house_rule_added_in_one_server_answers_there_only() {
    let e = endpoint().await;
    let url = e.fake.serve_file("house.md", HOUSE.as_bytes().to_vec());
    let member = |p: Value, perms: &str| as_member(p, "1300000000000000301", "Coal", perms);

    // Without Manage Server: refused, whatever the client shows.
    let v = e
        .send(&member(rules_add(&url, HOUSE.len()), PLAYER_PERMISSIONS))
        .await;
    assert!(
        text_of(&v).contains("only members with Manage Server"),
        "{v}"
    );

    // The preview, for its author only, with Confirm and Cancel.
    let v = e
        .send(&member(rules_add(&url, HOUSE.len()), ADMIN_PERMISSIONS))
        .await;
    assert_eq!(
        v["deferral_flags"], 64,
        "the preview is for its author only: {v}"
    );
    let t = text_of(&v);
    assert!(
        t.contains("2 passage(s) from Markdown") && t.contains("`ti4:table-rules.speaker` Speaker"),
        "{t}"
    );
    let buttons = &v["data"]["components"][0]["components"];
    let confirm = buttons[0]["custom_id"].as_str().unwrap().to_string();
    assert!(confirm.starts_with("rules-confirm:"), "{v}");
    assert_eq!(buttons[1]["label"], "Cancel");

    // Nothing is live before Confirm.
    let ask = || {
        slash(
            "rule",
            vec![opt("query", "speaker coin toss ties"), opt("game", "ti4")],
        )
    };
    assert!(!text_of(&e.send(&ask()).await).contains("table-rules"));
    let v = e.send(&member(button(&confirm), PLAYER_PERMISSIONS)).await;
    assert!(
        text_of(&v).contains("only members with Manage Server"),
        "{v}"
    );
    let v = e.send(&member(button(&confirm), ADMIN_PERMISSIONS)).await;
    assert_eq!(v["type"], 7, "Confirm replaces the preview: {v}");
    assert!(
        text_of(&v).contains("is live in this server as `ti4:table-rules`"),
        "{v}"
    );

    let answer = e.send(&ask()).await;
    let here = text_of(&answer);
    assert!(here.contains("ti4:table-rules.speaker.1"), "{here}");
    // Uploaded text is quoted, never a ping.
    assert!(here.contains("@everyone"), "{here}");
    let mentions = &answer["data"]["allowed_mentions"];
    assert_eq!(
        mentions,
        &json!({ "parse": [], "roles": [], "users": [] }),
        "{answer}"
    );
    assert!(here.contains("House rule — this server, added"), "{here}");
    let there = text_of(&e.send(&in_guild(ask(), OTHER_GUILD)).await);
    assert!(!there.contains("table-rules"), "{there}");

    let v = e.send(&rules_sub("list", vec![])).await;
    assert!(
        text_of(&v).contains("`ti4:table-rules` — House rule **Table rules** (v1"),
        "{v}"
    );
    let v = e
        .send(&in_guild(rules_sub("list", vec![]), OTHER_GUILD))
        .await;
    assert!(text_of(&v).contains("added no documents"), "{v}");
    e.server.stop().await.unwrap();
}

#[test]
fn rules_is_offered_in_servers_to_manage_server_only() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = App::load(&root.join("rules_data"), &[]).unwrap();
    let defs = arbiter::bot::commands::definitions_json(&app);
    let rules = defs
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "rules")
        .unwrap();
    assert_eq!(rules["default_member_permissions"], "32");
    assert_eq!(rules["contexts"], json!([0]));
    let subs: Vec<&str> = rules["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(subs, ["add", "list", "show", "remove", "versions"]);
}
