//! End-to-end: the HTTP interactions endpoint on loopback, a fresh key pair,
//! signed interactions in Discord's payload shapes, JSON responses asserted.
//! A local stand-in for Discord serves attachments and records the edits of
//! deferred replies. No Discord connection.

use crate::discord_kit;

use std::sync::{Arc, OnceLock};

use arbiter::app::App;
use arbiter::bot::http::{self, HttpConfig, Running};
use arbiter::bot::{Bot, BotConfig};
use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::{Value, json};

fn app() -> Arc<App> {
    static APP: OnceLock<Arc<App>> = OnceLock::new();
    APP.get_or_init(|| {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        Arc::new(App::load(&root.join("rules_data"), &[]).expect("shipped rule data loads"))
    })
    .clone()
}

struct Harness {
    server: Running,
    key: SigningKey,
    fake: FakeDiscord,
    client: reqwest::Client,
}

impl Harness {
    async fn start() -> Harness {
        let key = keypair();
        let fake = FakeDiscord::start().await;
        let bot = Arc::new(Bot::new(app(), BotConfig::default()));
        let config = HttpConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            public_key: public_hex(&key),
            api_base: Some(fake.url()),
            max_body: http::MAX_BODY_BYTES,
            limits: http::ConnLimits::default(),
        };
        let server = http::start(bot, config).await.expect("server starts");
        Harness {
            server,
            key,
            fake,
            client: reqwest::Client::new(),
        }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.server.addr)
    }

    async fn post_raw(&self, body: Vec<u8>, signature: &str, timestamp: &str) -> (u16, Value) {
        let r = self
            .client
            .post(self.url())
            .header("content-type", "application/json")
            .header("x-signature-ed25519", signature)
            .header("x-signature-timestamp", timestamp)
            .body(body)
            .send()
            .await
            .expect("request sent");
        let status = r.status().as_u16();
        let bytes = r.bytes().await.unwrap_or_default();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn post(&self, payload: &Value) -> Value {
        let body = serde_json::to_vec(payload).unwrap();
        let (sig, ts) = sign(&self.key, now(), &body);
        let (status, v) = self.post_raw(body, &sig, &ts).await;
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Waits for the edit of a deferred reply.
    async fn edit_for(&self, token: &str) -> Value {
        self.fake.edit(token).await
    }
}

fn embed(v: &Value) -> &Value {
    &v["data"]["embeds"][0]
}

fn custom_ids(data: &Value) -> Vec<String> {
    data["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .filter_map(|c| c["custom_id"].as_str().map(str::to_string))
        .collect()
}

fn board() -> String {
    example("examples/ashes/attack-phoenixborn.yaml")
}

/// The Ashes ruling of examples/ashes/attack-phoenixborn.yaml: every step
/// with its rule id, the assumption marked, the changes and the state.
fn assert_judged(embed: &Value) {
    assert_eq!(
        embed["title"], "Ruling (ashes): the play is legal",
        "{embed}"
    );
    let desc = embed["description"].as_str().unwrap_or_default();
    for step in [
        "**1.** `ashes:attack-a-phoenixborn`\nCoal attacks a Phoenixborn with 3 units",
        "**2.** `ashes:attack-a-phoenixborn.1`\nCoal declares 3 attackers",
        "**4.** `ashes:attack-a-phoenixborn.3`\nMaeoni declares 2 blockers",
        "**6.** `ashes:attack-a-phoenixborn.4`\nAnchornaut is unblocked: it deals 1 damage to Maeoni Viper",
        "**8.** `ashes:attack-a-phoenixborn.4.1`\nHammer Knight deals 3 damage to Mist Spirit",
        "**10.** `ashes:attack-a-phoenixborn.4.2`\nIron Worker and Frostback Bear are in battle",
    ] {
        assert!(desc.contains(step), "missing `{step}` in:\n{desc}");
    }
    assert!(
        desc.contains("choice: Maeoni chose to counter with Frostback Bear"),
        "{desc}"
    );
    assert!(
        desc.contains("*assumption (not in the indexed rules):"),
        "{desc}"
    );
    assert!(desc.chars().count() <= 4096);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_is_answered_with_pong_and_health_is_served() {
    let h = Harness::start().await;
    assert_eq!(h.post(&ping()).await["type"], 1, "PONG");
    let health = h
        .client
        .get(format!("http://{}/healthz", h.server.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status().as_u16(), 200);
    let v: Value = serde_json::from_slice(&health.bytes().await.unwrap()).unwrap();
    assert_eq!(v["status"], "ok");
    // This bot opened no match database: said so, not "ok".
    assert_eq!(v["database"], "not configured", "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_answers_with_the_cited_sentence_highlighted_and_buttons() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "rule",
            vec![
                opt("query", "can an exhausted phoenixborn guard"),
                opt("game", "ashes"),
            ],
        ))
        .await;
    assert_eq!(v["type"], 4, "{v}");
    let e = embed(&v);
    let desc = e["description"].as_str().unwrap();
    assert!(
        desc.contains("`ashes:attack-a-unit.3` Declare a Guard"),
        "{desc}"
    );
    assert!(
        desc.contains("**Note: A Phoenixborn can guard even if it is exhausted.**"),
        "{desc}"
    );
    assert!(
        e["title"]
            .as_str()
            .unwrap()
            .contains("can an exhausted phoenixborn guard")
    );
    // Echoed user text can never ping; the answer is public.
    assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]), "{v}");
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 0);
    assert!(
        custom_ids(&v["data"]).contains(&"section:ashes:attack-a-unit".to_string()),
        "{v}"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_with_an_exact_id_shows_that_passage_with_its_cross_reference_buttons() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "rule",
            vec![opt("query", "grand-archive:declaring-an-attack.1.3")],
        ))
        .await;
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(
        desc.starts_with("**`grand-archive:declaring-an-attack.1.3`"),
        "{desc}"
    );
    let ids = custom_ids(&v["data"]);
    assert!(
        ids.contains(&"cite:grand-archive:declaring-an-attack.2.1".to_string()),
        "{ids:?}"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn related_passage_button_opens_the_passage_ephemerally() {
    let h = Harness::start().await;
    let v = h
        .post(&button("cite:grand-archive:declaring-an-attack.2.1"))
        .await;
    assert_eq!(v["type"], 4, "{v}");
    assert_eq!(
        v["data"]["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "ephemeral: {v}"
    );
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(
        desc.starts_with("**`grand-archive:declaring-an-attack.2.1`"),
        "{desc}"
    );
    // The whole section, from its button.
    let v = h.post(&button("section:ashes:attack-a-unit")).await;
    let desc = embed(&v)["description"].as_str().unwrap();
    for id in ["ashes:attack-a-unit.1", "ashes:attack-a-unit.4.2"] {
        assert!(desc.contains(&format!("`{id}`")), "{id} missing: {desc}");
    }
    // An unknown button is a user error, not a crash.
    let v = h.post(&button("bogus:1")).await;
    assert_eq!(embed(&v)["title"], "Button: cannot do that");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_suggests_passage_ids_within_discords_limits() {
    let h = Harness::start().await;
    let v = h
        .post(&autocomplete(
            "rule",
            "query",
            "declare guard",
            vec![opt("game", "ashes")],
        ))
        .await;
    assert_eq!(v["type"], 8, "{v}");
    let choices = v["data"]["choices"].as_array().unwrap();
    assert!(!choices.is_empty() && choices.len() <= 25, "{v}");
    assert!(
        choices
            .iter()
            .any(|c| c["value"] == "ashes:attack-a-unit.3"),
        "{v}"
    );
    for c in choices {
        assert!(c["name"].as_str().unwrap().chars().count() <= 100);
        assert!(c["value"].as_str().unwrap().chars().count() <= 100);
    }
    // Nothing typed yet: the top of the documents, across games.
    let v = h.post(&autocomplete("rule", "query", "", vec![])).await;
    let n = v["data"]["choices"].as_array().unwrap().len();
    assert!((1..=25).contains(&n), "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_with_board_text() {
    let h = Harness::start().await;
    let v = h.post(&slash("judge", vec![opt("board", &board())])).await;
    assert_eq!(v["type"], 4, "{v}");
    assert_judged(embed(&v));
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_with_a_bad_board_is_an_ephemeral_user_error_with_the_position() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "judge",
            vec![opt("board", "game: ashes\nplayers: [a, b\n")],
        ))
        .await;
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(desc.contains("line "), "{desc}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_with_an_attachment_defers_then_edits_the_reply() {
    let h = Harness::start().await;
    let text = board();
    let url = h
        .fake
        .serve_file("attack-phoenixborn.yaml", text.clone().into_bytes());
    let payload = judge_with_attachment(&url, "attack-phoenixborn.yaml", text.len());
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred first: {v}");
    let edit = h.edit_for(&token).await;
    assert_eq!(h.fake.recorded.lock().unwrap().downloads, 1);
    assert_judged(&edit["embeds"][0]);
    assert_eq!(edit["allowed_mentions"]["parse"], json!([]), "{edit}");
    h.server.stop().await.unwrap();
}

/// Refused before any work: answered at once, for the user alone (no
/// public "thinking…" that then turns into an error).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attachments_over_one_megabyte_are_refused_at_once_without_download() {
    let h = Harness::start().await;
    let url = h.fake.serve_file("huge.yaml", vec![b'#'; 16]);
    let v = h
        .post(&judge_with_attachment(&url, "huge.yaml", 2 * 1024 * 1024))
        .await;
    assert_eq!(v["type"], 4, "not deferred: {v}");
    assert_eq!(v["data"]["flags"], 64, "ephemeral: {v}");
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(desc.contains("over 1024 KB are refused"), "{desc}");
    // A file that is not a board document by its name, likewise.
    let v = h.post(&judge_with_attachment(&url, "notes.pdf", 100)).await;
    assert_eq!(
        (v["type"].clone(), v["data"]["flags"].clone()),
        (json!(4), json!(64)),
        "{v}"
    );
    // It names every kind accepted, .txt too (it was left out).
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(desc.contains(".txt"), "{desc}");
    {
        let rec = h.fake.recorded.lock().unwrap();
        assert_eq!(rec.downloads, 0);
        assert!(rec.edits.is_empty() && rec.followups.is_empty());
    }
    h.server.stop().await.unwrap();
}

/// An error after a public deferral: the public "thinking…" message is
/// deleted and the error sent as an ephemeral follow-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attached_file_that_is_not_a_board_is_an_ephemeral_follow_up() {
    let h = Harness::start().await;
    let url = h
        .fake
        .serve_file("shopping.yaml", b"- eggs\n- milk: [\n".to_vec());
    let payload = judge_with_attachment(&url, "shopping.yaml", 17);
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred for the download: {v}");
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 0, "publicly");
    let d = h.fake.delivered(&token).await;
    let Delivered::Followup(f) = &d else {
        panic!("the error replaced the public message: {d:?}")
    };
    assert!(d.ephemeral(), "{f}");
    assert_eq!(f["embeds"][0]["title"], "Judge: cannot do that", "{f}");
    assert_eq!(f["allowed_mentions"]["parse"], json!([]), "{f}");
    assert!(h.fake.recorded.lock().unwrap().edits.is_empty());
    h.server.stop().await.unwrap();
}

/// A file the CDN no longer has (its message deleted, its link expired):
/// the user's to fix, said so, not "something went wrong on our side".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attachment_gone_from_the_cdn_is_the_users_to_attach_again() {
    let h = Harness::start().await;
    let url = format!("{}/attachments/deleted.yaml", h.fake.url());
    let payload = judge_with_attachment(&url, "deleted.yaml", 17);
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred for the download: {v}");
    let d = h.fake.delivered(&token).await;
    let Delivered::Followup(f) = &d else {
        panic!("an ephemeral follow-up: {d:?}")
    };
    assert_eq!(f["embeds"][0]["title"], "Judge: cannot do that", "{f}");
    let text = f["embeds"][0]["description"].as_str().unwrap_or_default();
    assert!(text.contains("no longer available"), "{f}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_without_a_board_opens_a_modal_and_its_submit_is_judged() {
    let h = Harness::start().await;
    let v = h.post(&slash("judge", vec![opt("game", "ashes")])).await;
    assert_eq!(v["type"], 9, "{v}");
    let custom_id = v["data"]["custom_id"].as_str().unwrap().to_string();
    assert_eq!(custom_id, "judge-modal:ashes");
    let input = &v["data"]["components"][0]["components"][0];
    assert_eq!(input["type"], 4);
    assert_eq!(input["style"], 2, "paragraph");
    let field = input["custom_id"].as_str().unwrap();
    let v = h.post(&modal_submit(&custom_id, field, &board())).await;
    assert_eq!(v["type"], 4, "{v}");
    assert_judged(embed(&v));
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_this_board_reads_the_messages_code_block() {
    let h = Harness::start().await;
    let content = format!(
        "Is this right? Maeoni says the bear counters.\n```yaml\n{}```\nthanks @everyone",
        board()
    );
    let v = h.post(&judge_message(&content)).await;
    assert_eq!(v["type"], 4, "{v}");
    assert_judged(embed(&v));
    assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]));
    // A message without a board: an ephemeral explanation.
    let v = h.post(&judge_message("no board here")).await;
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_and_help_answer() {
    let h = Harness::start().await;
    let v = h.post(&slash("games", vec![])).await;
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(desc.contains("**Ashes Reborn** (`ashes`)"), "{desc}");
    let v = h.post(&slash("help", vec![])).await;
    assert!(embed(&v)["description"].as_str().unwrap().contains("/rule"));
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_signature_stale_timestamp_and_oversized_body_are_refused() {
    let h = Harness::start().await;
    let body = serde_json::to_vec(&ping()).unwrap();
    // Signed by another key.
    let (sig, ts) = sign(&keypair(), now(), &body);
    assert_eq!(h.post_raw(body.clone(), &sig, &ts).await.0, 401);
    // Right key, body changed after signing.
    let (sig, ts) = sign(&h.key, now(), &body);
    let mut tampered = body.clone();
    tampered.push(b' ');
    assert_eq!(h.post_raw(tampered, &sig, &ts).await.0, 401);
    // Right key, but signed 6 minutes ago (a replay) or 6 minutes ahead.
    for skew in [-360, 360] {
        let (sig, ts) = sign(&h.key, now() + skew, &body);
        assert_eq!(
            h.post_raw(body.clone(), &sig, &ts).await.0,
            401,
            "skew {skew}"
        );
    }
    // Missing headers.
    let r = h
        .client
        .post(h.url())
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    // Oversized body, even correctly signed.
    let mut big = ping();
    big["padding"] = json!("x".repeat(http::MAX_BODY_BYTES));
    let big = serde_json::to_vec(&big).unwrap();
    let (sig, ts) = sign(&h.key, now(), &big);
    assert_eq!(h.post_raw(big, &sig, &ts).await.0, 413);
    // Signed garbage is a bad request, not a crash.
    let (sig, ts) = sign(&h.key, now(), b"{\"type\": 2}");
    assert_eq!(
        h.post_raw(b"{\"type\": 2}".to_vec(), &sig, &ts).await.0,
        400
    );
    // And a correct request still works.
    assert_eq!(h.post(&ping()).await["type"], 1, "PONG");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_replies_are_paged_with_buttons_that_update_the_message() {
    let h = Harness::start().await;
    let v = h.post(&button("section:ashes:main-actions")).await;
    assert_eq!(v["type"], 4, "{v}");
    let e = embed(&v);
    assert!(
        e["footer"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Page 1 of 2"),
        "{e}"
    );
    let next = custom_ids(&v["data"])
        .into_iter()
        .find(|id| id.starts_with("page:") && id.ends_with(":1"))
        .expect("a Next button");
    let v2 = h.post(&button(&next)).await;
    assert_eq!(v2["type"], 7, "page turns update the message: {v2}");
    // `attachments: []` would take the message's files (a board's picture)
    // off it; absent, Discord keeps them.
    assert!(
        v2["data"].get("attachments").is_none(),
        "a page turn keeps the message's files: {v2}"
    );
    let e2 = embed(&v2);
    assert!(
        e2["footer"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Page 2 of 2"),
        "{e2}"
    );
    assert!(
        custom_ids(&v2["data"])
            .iter()
            .any(|id| id.starts_with("page:") && id.ends_with(":0")),
        "a Previous button"
    );
    for e in [e, e2] {
        let desc = e["description"].as_str().unwrap();
        // Within Discord's limits, and every page starts at a citation.
        assert!(desc.chars().count() <= 4096);
        let total: usize = ["title", "description"]
            .iter()
            .map(|k| e[*k].as_str().unwrap_or("").chars().count())
            .sum::<usize>()
            + e["footer"]["text"].as_str().unwrap_or("").chars().count();
        assert!(total <= 6000);
        assert!(
            desc.trim_start().starts_with("**`ashes:")
                || desc.trim_start().starts_with("\u{2003}**`ashes:"),
            "{desc}"
        );
    }
    // A page past the last of pages still kept is no such page.
    let past = format!("{}:99", next.rsplit_once(':').unwrap().0);
    let v = h.post(&button(&past)).await;
    assert!(
        embed(&v)["description"]
            .as_str()
            .unwrap()
            .contains("no such page"),
        "{v}"
    );
    // Pages of another process (or expired) are a polite user error.
    let v = h.post(&button("page:ffff:1")).await;
    assert!(
        embed(&v)["description"]
            .as_str()
            .unwrap()
            .contains("expired")
    );
    h.server.stop().await.unwrap();
}

fn example(path: &str) -> String {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(path)).expect("example board")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_gives_a_ruling_step_by_step_with_citations_changes_and_state() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "judge",
            vec![opt(
                "board",
                &example("examples/ti4/end-turn-who-is-next.yaml"),
            )],
        ))
        .await;
    assert_eq!(v["type"], 4, "{v}");
    let e = embed(&v);
    assert_eq!(e["title"], "Ruling (ti4): the play is legal", "{e}");
    let desc = e["description"].as_str().unwrap();
    assert!(
        desc.contains("**1.** `ti4:action-phase`\nInitiative order: Ana"),
        "{desc}"
    );
    assert!(
        desc.contains("**3.** `ti4:action-phase.3`\nAna passed earlier and is skipped"),
        "{desc}"
    );
    assert!(
        desc.contains("`turn`: \"Gus\" → \"Ben\""),
        "changes: {desc}"
    );
    assert!(
        desc.contains("**Resulting state**\n```yaml\ngame: ti4\n"),
        "state: {desc}"
    );
    let ids = custom_ids(&v["data"]);
    assert!(
        ids.contains(&"cite:ti4:action-phase.3".to_string()),
        "buttons open the rules cited: {ids:?}"
    );
    assert_eq!(
        v["data"]["flags"].as_u64().unwrap_or(0) & 64,
        0,
        "rulings are public"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_play_is_ruled_illegal_with_the_rule_it_breaks() {
    let h = Harness::start().await;
    let content = format!(
        "Can Cleo do this?\n```yaml\n{}```",
        example("examples/ti4/second-action.yaml")
    );
    let v = h.post(&judge_message(&content)).await;
    let e = embed(&v);
    assert_eq!(e["title"], "Ruling (ti4): the play is ILLEGAL", "{e}");
    let desc = e["description"].as_str().unwrap();
    assert!(desc.contains("**❌ error** `ti4:action-phase.1`\nCleo has already performed a tactical action this turn"), "{desc}");
    assert!(desc.contains("no change to the board"), "{desc}");
    assert!(desc.contains("**State (unchanged)**\n```yaml\n"), "{desc}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_this_board_downloads_the_messages_attachment() {
    let h = Harness::start().await;
    let text = example("examples/ti4/end-turn-who-is-next.yaml");
    let url = h
        .fake
        .serve_file("who-is-next.yaml", text.clone().into_bytes());
    let payload = judge_message_with_attachment(
        "whose turn is it now?",
        &url,
        "who-is-next.yaml",
        text.len(),
    );
    let token = payload["token"].as_str().unwrap().to_string();
    assert_eq!(h.post(&payload).await["type"], 5, "deferred");
    let edit = h.edit_for(&token).await;
    assert_eq!(
        edit["embeds"][0]["title"], "Ruling (ti4): the play is legal",
        "{edit}"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_download_is_said_in_words_to_try_again() {
    let h = Harness::start().await;
    // Nothing listens there: the CDN cannot be reached (a 404 is the
    // user's: `an_attachment_gone_from_the_cdn_is_the_users_to_attach_again`).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let url = format!("http://127.0.0.1:{port}/attachments/missing.yaml");
    let payload = judge_with_attachment(&url, "missing.yaml", 100);
    let token = payload["token"].as_str().unwrap().to_string();
    assert_eq!(h.post(&payload).await["type"], 5);
    let d = h.fake.delivered(&token).await;
    assert!(
        matches!(d, Delivered::Followup(_)) && d.ephemeral(),
        "{d:?}"
    );
    // The CDN's failure, not the user's nor ours: said in words, to try
    // again (it was "Something went wrong on our side" with an error id).
    let e = &d.body()["embeds"][0];
    assert_ne!(e["title"], "Something went wrong on our side", "{d:?}");
    let said = e["description"].as_str().unwrap();
    assert!(
        said.contains("could not download `missing.yaml` just now")
            && said.contains("could not be reached")
            && said.contains("try again"),
        "{d:?}"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_deferred_interactions_in_flight() {
    let h = Harness::start().await;
    let text = example("examples/ti4/end-turn-who-is-next.yaml");
    h.fake.serve_file("slow.yaml", text.clone().into_bytes());
    // The stand-in CDN takes 500 ms to answer.
    let url = format!("{}/slow/slow.yaml", h.fake.url());
    let payload = judge_with_attachment(&url, "slow.yaml", text.len());
    let token = payload["token"].as_str().unwrap().to_string();
    assert_eq!(h.post(&payload).await["type"], 5);
    let recorded = h.fake.recorded.clone();
    h.server.stop().await.unwrap();
    let edits = &recorded.lock().unwrap().edits;
    let (_, edit) = edits
        .iter()
        .find(|(t, _)| *t == token)
        .expect("the deferred reply was edited before the server stopped");
    assert_eq!(
        edit["embeds"][0]["title"],
        "Ruling (ti4): the play is legal"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_passage_id_is_an_ephemeral_error_with_did_you_mean() {
    let h = Harness::start().await;
    let v = h
        .post(&slash("rule", vec![opt("query", "ashes:attack-a-unit.9")]))
        .await;
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(
        desc.contains("no passage has the id 'ashes:attack-a-unit.9'"),
        "{desc}"
    );
    assert!(desc.contains("Did you mean"), "{desc}");
    // An unknown game is the same kind of error.
    let v = h
        .post(&slash(
            "rule",
            vec![opt("query", "guard"), opt("game", "ashs")],
        ))
        .await;
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    assert!(
        embed(&v)["description"]
            .as_str()
            .unwrap()
            .contains("unknown game 'ashs'"),
        "{v}"
    );
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_takes_a_play_in_one_line_notation_against_the_board() {
    let h = Harness::start().await;
    let play = "attack unit \"Mist Spirit\" with Hammer Knight; no counter";
    let v = h
        .post(&slash(
            "judge",
            vec![opt("board", &board()), opt("play", play)],
        ))
        .await;
    let e = embed(&v);
    assert_eq!(e["title"], "Ruling (ashes): the play is legal", "{e}");
    let desc = e["description"].as_str().unwrap();
    assert!(desc.contains("**1.** `ashes:attack-a-unit`"), "{desc}");
    assert!(desc.contains("Mist Spirit"), "{desc}");
    // A notation typo is an ephemeral user error.
    let v = h
        .post(&slash(
            "judge",
            vec![
                opt("board", &board()),
                opt("play", "attack unit \"Mist Spirt\" with Hammer Knight"),
            ],
        ))
        .await;
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_this_board_prefers_the_attachment_over_an_unrelated_code_block() {
    let h = Harness::start().await;
    let text = board();
    let url = h.fake.serve_file("board.yaml", text.clone().into_bytes());
    let content = "my deck list:\n```\n3x Iron Worker\n3x Hammer Knight\n```\nboard attached";
    let payload = judge_message_with_attachment(content, &url, "board.yaml", text.len());
    let token = payload["token"].as_str().unwrap().to_string();
    assert_eq!(
        h.post(&payload).await["type"],
        5,
        "deferred for the download"
    );
    assert_judged(&h.edit_for(&token).await["embeds"][0]);
    h.server.stop().await.unwrap();
}

/// Every page of a paged reply: the first, then each "next page" button.
async fn all_pages(h: &Harness, first: &Value) -> String {
    let mut out = embed(first)["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mut data = first["data"].clone();
    for n in 1..50 {
        let Some(next) = custom_ids(&data)
            .into_iter()
            .find(|id| id.starts_with("page:") && id.ends_with(&format!(":{n}")))
        else {
            break;
        };
        let v = h.post(&button(&next)).await;
        assert_eq!(v["type"], 7, "{v}");
        let desc = embed(&v)["description"].as_str().unwrap_or_default();
        assert!(desc.chars().count() <= 4096);
        out.push('\n');
        out.push_str(desc);
        data = v["data"].clone();
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_is_sent_as_a_json_file_with_how_to_use_it() {
    let h = Harness::start().await;
    let payload = slash("schema", vec![opt("game", "ashes")]);
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred, the file comes with the edit: {v}");
    let edit = h.edit_for(&token).await;
    let raw = edit["multipart"].as_str().expect("an edit with a file");
    assert!(
        raw.contains("yaml-language-server: $schema=ashes-board.schema.json"),
        "{raw}"
    );
    let at = raw
        .find("filename=\"ashes-board.schema.json\"")
        .expect("the schema file");
    let body_start = at + raw[at..].find("\r\n\r\n").expect("part headers end") + 4;
    let body_end = body_start + raw[body_start..].find("\r\n--").expect("part ends");
    let schema: Value = serde_json::from_str(&raw[body_start..body_end]).expect("JSON");
    assert_eq!(schema["properties"]["game"]["const"], "ashes", "{schema}");
    assert!(schema["properties"]["players"].is_object(), "{schema}");

    // No such game: a polite refusal at once, for the user alone.
    let v = h.post(&slash("schema", vec![opt("game", "nope")])).await;
    assert_eq!(v["type"], 4, "not deferred: {v}");
    assert_eq!(v["data"]["flags"], 64, "ephemeral: {v}");
    let desc = embed(&v)["description"].as_str().unwrap_or_default();
    assert!(desc.contains("unknown game 'nope'"), "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_with_a_game_lists_each_passage_and_what_executes_it() {
    let h = Harness::start().await;
    let v = h.post(&slash("games", vec![opt("game", "ashes")])).await;
    assert_eq!(v["type"], 4, "{v}");
    assert!(
        embed(&v)["title"]
            .as_str()
            .unwrap()
            .contains("Ashes Reborn (`ashes`)"),
        "{v}"
    );
    let text = all_pages(&h, &v).await;
    assert!(text.contains("**03 - Main Actions**"), "{text}");
    let line = |id: &str| {
        text.lines()
            .find(|l| l.contains(&format!("`{id}` ")))
            .unwrap_or_else(|| panic!("no line for {id} in:\n{text}"))
            .to_string()
    };
    let executed = line("ashes:attack-a-unit.4.2");
    assert!(
        executed.contains("executed ← attack a unit: counter (battle)"),
        "{executed}"
    );
    let text_only = line("ashes:main-actions");
    assert!(text_only.ends_with("text only"), "{text_only}");
    assert!(!text_only.contains("executed"), "{text_only}");
    // Contents in order, nested by depth.
    let a = text.find("`ashes:attack-a-unit.4`").unwrap();
    let b = text.find("`ashes:attack-a-unit.4.1`").unwrap();
    assert!(a < b);
    h.server.stop().await.unwrap();
}

/// The endpoint reads only an envelope of the body (issue 17); it makes the
/// same request as serenity's whole `Interaction` does (the gateway's
/// path), for every payload shape: commands with resolved users and
/// messages, autocomplete, buttons, modals, a DM, and an unknown command.
#[test]
fn the_envelope_reads_the_same_request_as_the_whole_interaction() {
    use arbiter::bot::discord::{self, Envelope};
    let mut dm = match_start("ashes", &[("1300000000000000301", "Coal")]);
    let user = dm["member"]["user"].clone();
    for field in ["guild_id", "guild", "member", "guild_locale"] {
        dm.as_object_mut().unwrap().remove(field);
    }
    dm["user"] = user;
    let payloads = [
        slash(
            "rule",
            vec![opt("query", "can a unit guard"), opt("game", "ashes")],
        ),
        slash("judge", vec![opt("board", &board())]),
        judge_with_attachment("http://127.0.0.1:9/a.yaml", "a.yaml", 10),
        judge_message("```yaml\ngame: ashes\n```"),
        autocomplete("rule", "query", "gua", vec![opt("game", "ashes")]),
        match_play_autocomplete("attack"),
        as_member(
            match_sub("play", vec![opt("text", "pass")]),
            "1300000000000000302",
            "Maeoni",
            MODERATOR_PERMISSIONS,
        ),
        match_start(
            "ashes",
            &[
                ("1300000000000000301", "Coal"),
                ("1300000000000000302", "Maeoni"),
            ],
        ),
        button("section:ashes:main-actions"),
        modal_submit("judge-modal:ashes", "board", "game: ashes"),
        dm,
        slash("no-such-command", vec![]),
    ];
    for payload in payloads {
        let body = serde_json::to_vec(&payload).unwrap();
        let whole: serenity::all::Interaction = serde_json::from_slice(&body).unwrap();
        let envelope: Envelope = serde_json::from_slice(&body).unwrap();
        let lean = envelope.to_request().expect("readable");
        match (discord::to_request(&whole), lean) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{payload}"),
            (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{payload}"),
            (a, b) => panic!("{payload}:\n{a:?}\n{b:?}"),
        }
    }
    // A body that is no interaction is refused, not guessed at.
    for bad in [
        r#"{"type": 2}"#,
        r#"{"type": 2, "id": "1", "application_id": "2", "channel_id": "3", "user": {"id": "4", "username": "x"}, "data": {"name": 5}}"#,
    ] {
        let read = serde_json::from_str::<Envelope>(bad).map(|e| e.to_request().is_err());
        assert!(read.is_err() || read.unwrap(), "{bad}");
    }
}

/// The PNG signature.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_is_followed_by_the_board_picture_as_a_multipart_attachment_with_alt_text() {
    let h = Harness::start().await;
    let payload = slash("judge", vec![opt("board", &board())]);
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    // The ruling is answered at once, as JSON: no file in it.
    assert_eq!(v["type"], 4, "{v}");
    assert_judged(embed(&v));
    let files = v["data"]["attachments"].as_array();
    assert!(files.is_none_or(|a| a.is_empty()), "{v}");
    // The picture follows as Discord takes files: a multipart follow-up
    // whose payload_json names the file and describes it.
    let part = h
        .fake
        .file(&token, ".png")
        .await
        .expect("a picture follows");
    assert_eq!(part.filename.as_deref(), Some("board.png"));
    assert!(part.name.starts_with("files["), "{}", part.name);
    assert!(part.bytes.starts_with(PNG), "a PNG");
    let png = tiny_skia::Pixmap::decode_png(&part.bytes).expect("the PNG decodes");
    assert_eq!(png.width(), 1000);
    let followup = h
        .fake
        .wait_for(20, |r| {
            let found = r.followups.iter().find(|(t, _)| *t == token);
            found.map(|(_, v)| v.clone())
        })
        .await
        .expect("the follow-up");
    let att = &followup["attachments"][0];
    assert_eq!(att["filename"], "board.png", "{followup}");
    let alt = att["description"].as_str().unwrap_or_default();
    assert!(alt.starts_with("Ashes Reborn board"), "{alt}");
    assert!(alt.contains("Maeoni Viper"), "{alt}");
    assert_eq!(followup["files"][0]["png"], true, "{followup}");
    // The follow-up is the picture alone: no text that could read as a ping.
    assert!(followup["content"].is_null(), "{followup}");
}

/// A question's line breaks do not reach the answer's title: it is one
/// line ("## FAKE HEADER" on a line of its own read as a heading).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_questions_line_breaks_stay_out_of_the_answers_title() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "rule",
            vec![opt(
                "query",
                "can an exhausted\n## FAKE HEADER\nphoenixborn guard",
            )],
        ))
        .await;
    assert_eq!(
        embed(&v)["title"],
        "Rules: can an exhausted ## FAKE HEADER phoenixborn guard",
        "{v}"
    );
    // Nor a part's heading.
    let v = h
        .post(&slash(
            "rule",
            vec![opt(
                "query",
                "1) can an exhausted\npb guard 2) ti4 can i pass before my strategy card",
            )],
        ))
        .await;
    let text = embed(&v)["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        text.contains("Part 1 of 2: “can an exhausted pb guard”"),
        "{v}"
    );
}

/// A subcommand this version does not know (an old registration) is named
/// as such, with the subcommands it knows: it was "the command `match` is
/// not known", of a command that is (found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_subcommand_is_named_with_the_known_ones() {
    let h = Harness::start().await;
    let v = h
        .post(&slash(
            "match",
            vec![json!({ "name": "teleport", "type": 1, "options": [] })],
        ))
        .await;
    assert_eq!(
        (v["type"].clone(), v["data"]["flags"].clone()),
        (json!(4), json!(64)),
        "{v}"
    );
    let desc = embed(&v)["description"].as_str().unwrap();
    assert!(desc.contains("/match teleport"), "{desc}");
    assert!(desc.contains("board") && desc.contains("play"), "{desc}");
    h.server.stop().await.unwrap();
}

/// `/rule` with an unknown game is refused whether the query is a passage
/// id or a question (`query:pass game:chess` showed the passage, the game
/// dropped silently; found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_refuses_an_unknown_game_for_an_id_as_for_a_question() {
    let h = Harness::start().await;
    for query in ["pass", "ashes:pass", "when can I pass"] {
        let v = h
            .post(&slash(
                "rule",
                vec![opt("query", query), opt("game", "chess")],
            ))
            .await;
        assert_eq!(
            v["data"]["flags"].as_u64().unwrap_or(0) & 64,
            64,
            "{query}: {v}"
        );
        let desc = embed(&v)["description"].as_str().unwrap_or_default();
        assert!(desc.contains("unknown game 'chess'"), "{query}: {desc}");
    }
    h.server.stop().await.unwrap();
}

/// A board's error quotes what the board names (here an attacker nobody
/// has): a masked link, a mention, a spoiler or formatting in that name
/// shows as typed, not live, while the refusal still reads; no mention
/// pings. Sent as written, the masked link was live in the reply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_errors_quoted_name_is_shown_inert() {
    use arbiter::render::markdown::escape_inline;
    let h = Harness::start().await;
    let hostile =
        "[Free Nitro](https://evil.example) <@123456789012345678> @everyone ||spoiler|| **bold**";
    let text = board().replace(
        "attackers: [Iron Worker,",
        &format!("attackers: [\"{hostile}\","),
    );
    assert_ne!(text, board(), "the attacker was replaced");
    let url = h.fake.serve_file("hostile.yaml", text.clone().into_bytes());
    let payload = judge_with_attachment(&url, "hostile.yaml", text.len());
    let token = payload["token"].as_str().unwrap().to_string();
    h.post(&payload).await;
    let d = h.fake.delivered(&token).await;
    let f = d.body();
    assert_eq!(f["embeds"][0]["title"], "Judge: cannot do that", "{f}");
    let desc = f["embeds"][0]["description"].as_str().unwrap_or_default();
    assert!(desc.contains(&escape_inline(hostile)), "{desc}");
    for live in ["[Free Nitro](", " <@1", "||spoiler||", "**bold**"] {
        assert!(!desc.contains(live), "`{live}` is live in: {desc}");
    }
    assert!(desc.contains("line "), "still says where: {desc}");
    assert_eq!(f["allowed_mentions"]["parse"], json!([]), "{f}");
    h.server.stop().await.unwrap();
}

/// What Discord renders outside code, read as its markdown reads it, or
/// more strictly: code blocks (``` … ```, ending at the next three
/// backticks anywhere) and code spans (a run of backticks to the next run
/// of the same length, or to three backticks) are left out, and a backslash-escaped character is a NUL, so an escaped
/// `\[click\](` does not read as `[click](`.
fn rendered_outside_code(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|&&c| c == '`').count();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' if i + 1 < chars.len() => {
                out.push('\0');
                i += 2;
            }
            '`' => {
                let n = run_at(i);
                let fence = if n >= 3 { 3 } else { n };
                let mut j = i + n.min(fence);
                let close = loop {
                    if j >= chars.len() {
                        break None;
                    }
                    if chars[j] == '`' {
                        let m = run_at(j);
                        if (fence == 3 && m >= 3) || m == fence {
                            break Some(j + fence);
                        }
                        // Three backticks inside a span: read, as a
                        // reader may, as the span's end and a block's start.
                        if m >= 3 {
                            break Some(j);
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                };
                match close {
                    Some(end) => i = end,
                    None => {
                        out.push('`');
                        i += 1;
                    }
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[test]
fn the_markdown_reader_of_these_tests_sees_a_fence_closed_by_a_name() {
    let live = rendered_outside_code("```yaml\nname: a ``` [click](x) ```\n```");
    assert!(live.contains("[click](x)"), "{live}");
    let inert = rendered_outside_code("`a` \\[click\\](x) ``b ` c``");
    assert!(!inert.contains("[click]("), "{inert}");
}

/// A board name holding code fences, a masked link and a mention, judged
/// from a message ("Judge this board") and from `/judge board:`: nothing of
/// it renders on any page, not in the changes' code spans nor in the
/// resulting state's code block (found by an outside tester: the name's
/// backticks closed both, and the link and the mention went live).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_name_cannot_close_the_code_it_is_shown_in() {
    let h = Harness::start().await;
    let name = "Anchor ``` [click](http://evil.example) <@200000000000000002> ```";
    let text = board().replace("Anchornaut", &format!("'{name}'"));
    assert_ne!(text, board());
    let from_message = judge_message(&format!("is this legal?\n```yaml\n{text}```"));
    let from_option = slash("judge", vec![opt("board", &text)]);
    for payload in [from_message, from_option] {
        let v = h.post(&payload).await;
        assert_eq!(v["type"], 4, "{v}");
        assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]), "{v}");
        let all = all_pages(&h, &v).await;
        assert!(all.contains("**Changes**"), "{all}");
        assert!(all.contains("**Resulting state**"), "{all}");
        assert!(all.contains("exhausted"), "{all}");
        // Three backticks only as a fence's own line: anywhere else they
        // may end the span or block they are in, however a reader pairs them.
        for line in all.lines() {
            let t = line.trim();
            assert!(
                !line.contains("```") || t == "```" || t == "```yaml",
                "three backticks inside a line: {line:?}"
            );
        }
        let live = rendered_outside_code(&all);
        for bad in ["[click](", "<@2"] {
            assert!(!live.contains(bad), "`{bad}` renders in:\n{all}");
        }
        // The name is still there to read, in the state and the changes.
        let shown = all.replace('\u{200D}', "");
        assert!(
            shown.contains(&format!("name: {name}")) || shown.contains(name),
            "{all}"
        );
    }
    h.server.stop().await.unwrap();
}

/// `/judge game:` with a game it cannot judge is refused at once, with
/// "did you mean", before its form opens (a board pasted into the form
/// was lost to the refusal after submit); `board:` and `file:` together
/// are refused rather than one silently ignored; "Judge this board" on a
/// message without a board says how to write one without three backticks
/// on its line (Discord showed "yaml code block" as a code block). Found by
/// an outside tester.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_refuses_what_it_cannot_use_before_asking_for_more() {
    let h = Harness::start().await;
    let v = h.post(&slash("judge", vec![opt("game", "ashs")])).await;
    assert_eq!(v["type"], 4, "a refusal, not the form: {v}");
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    let desc = embed(&v)["description"].as_str().unwrap_or_default();
    assert!(desc.contains("'ashs'") && desc.contains("ashes"), "{desc}");
    // A known game still opens the form.
    let v = h.post(&slash("judge", vec![opt("game", "ashes")])).await;
    assert_eq!(v["type"], 9, "{v}");
    // Both a board and a file.
    let url = h.fake.serve_file("b.yaml", board().into_bytes());
    let mut both = judge_with_attachment(&url, "b.yaml", board().len());
    both["data"]["options"]
        .as_array_mut()
        .unwrap()
        .push(opt("board", &board()));
    let v = h.post(&both).await;
    assert_eq!(v["type"], 4, "{v}");
    assert_eq!(v["data"]["flags"].as_u64().unwrap_or(0) & 64, 64, "{v}");
    let desc = embed(&v)["description"].as_str().unwrap_or_default();
    assert!(desc.contains("not both"), "{desc}");
    // No board in the message.
    let v = h.post(&judge_message("no board here")).await;
    let desc = embed(&v)["description"].as_str().unwrap_or_default();
    assert!(desc.contains("code block"), "{desc}");
    assert!(!desc.contains("```"), "{desc}");
    h.server.stop().await.unwrap();
}

/// A declared length over the body limit is refused with 413 at once,
/// before any body: it waited out the body timeout, then answered 408
/// (found by an outside tester with `Content-Length: 99999999999`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_length_over_the_limit_is_refused_at_once() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let h = Harness::start().await;
    let mut conn = tokio::net::TcpStream::connect(h.server.addr).await.unwrap();
    let head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\
                X-Signature-Timestamp: 1\r\nX-Signature-Ed25519: 00\r\n\r\n";
    conn.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 64];
    let n = conn.read(&mut answer).await.unwrap();
    let status = String::from_utf8_lossy(&answer[..n]).to_string();
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
}

/// A bare web address in a board's unit name is no link in `/judge`'s
/// ruling: not in its steps, nor in its changes (found by an outside
/// tester: "Free Nitro https://…" was clickable in the embed); the
/// resulting state, a code block, still holds the name as typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_web_address_in_a_unit_name_is_no_link_in_the_ruling() {
    let h = Harness::start().await;
    let name = "Free Nitro https://evil.example/claim";
    let text = board().replace("Anchornaut", &format!("'{name}'"));
    assert_ne!(text, board());
    let v = h.post(&slash("judge", vec![opt("board", &text)])).await;
    assert_eq!(v["type"], 4, "{v}");
    let all = all_pages(&h, &v).await;
    assert!(
        all.contains("Free Nitro https:\\/\\/evil.example/claim"),
        "{all}"
    );
    assert!(all.contains(&format!("name: {name}")), "{all}");
    let live = rendered_outside_code(&all);
    assert!(!live.contains("://"), "a live address in:\n{all}");
    h.server.stop().await.unwrap();
}

/// An attachment's file name is shown inert in the refusals that name it:
/// in a code span as written, its backtick closed the span and the rest
/// rendered (bold, a spoiler, a masked link, a mention); no mention pings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attachments_name_cannot_close_its_code_span() {
    let h = Harness::start().await;
    let hostile = "x` **b** ||s|| [c](https://evil.example) <@200000000000000002> `y";
    let url = h.fake.serve_file("f.yaml", vec![b'#'; 16]);
    for (file, size) in [
        (format!("{hostile}.pdf"), 100),
        (format!("{hostile}.yaml"), 2 * 1024 * 1024),
    ] {
        let v = h.post(&judge_with_attachment(&url, &file, size)).await;
        assert_eq!(v["type"], 4, "{v}");
        assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]), "{v}");
        let desc = embed(&v)["description"].as_str().unwrap_or_default();
        assert!(desc.contains(&file), "the name as typed: {desc}");
        let live = rendered_outside_code(desc);
        for bad in ["**b**", "||s||", "[c](", "<@2", "://"] {
            assert!(!live.contains(bad), "`{bad}` renders in: {desc}");
        }
    }
    h.server.stop().await.unwrap();
}

/// A card name typed with a web address and bold is refused quoting it
/// inert (the refusal, escaped whole, left `https://…` a live link).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_card_name_is_quoted_with_no_link() {
    let h = Harness::start().await;
    let card = slash(
        "card",
        vec![opt("name", "Free Nitro https://evil.example/claim **now**")],
    );
    let v = h.post(&card).await;
    assert_eq!(v["type"], 4, "{v}");
    let desc = embed(&v)["description"].as_str().unwrap_or_default();
    assert!(desc.contains("Free Nitro https:\\/\\/evil"), "{desc}");
    let live = rendered_outside_code(desc);
    for bad in ["**now**", "://"] {
        assert!(!live.contains(bad), "`{bad}` renders in: {desc}");
    }
    h.server.stop().await.unwrap();
}

/// A question's title shows it as typed: its bold and web address were
/// rendered in the answer's title ("Rules: …"), which renders markup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_questions_markup_is_shown_as_typed_in_the_title() {
    let h = Harness::start().await;
    let ask = slash(
        "rule",
        vec![opt(
            "query",
            "can **exhausted** units guard https://evil.example/claim",
        )],
    );
    let v = h.post(&ask).await;
    assert_eq!(v["type"], 4, "{v}");
    let title = embed(&v)["title"].as_str().unwrap_or_default();
    assert!(title.starts_with("Rules: can \\*\\*exhausted"), "{title}");
    let live = rendered_outside_code(title);
    for bad in ["**exhausted**", "://"] {
        assert!(!live.contains(bad), "`{bad}` renders in the title: {title}");
    }
    h.server.stop().await.unwrap();
}
