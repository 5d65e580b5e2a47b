//! `/rules` end to end: the HTTP interactions endpoint on loopback, signed
//! interactions in Discord's payload shapes (a subcommand with an attachment
//! in `resolved.attachments`, the member's permissions), the attachment
//! served by a fake Discord CDN, a SQLite file: preview, Confirm, `/rule` in
//! that server and not in another, Manage Server checked on the server side.

use crate::discord_kit;

use std::sync::Arc;

use arbiter::app::App;
use arbiter::bot::http::Running;
use arbiter::bot::{Bot, BotConfig};
use discord_kit::*;
use ed25519_dalek::SigningKey;
use serde_json::{Value, json};

const HOUSE: &str = "# Speaker\n\n1. The speaker breaks ties with a coin toss at our table. Ask @everyone or <@1300000000000000302>.\n";

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
        // These tests ask right after Confirm, faster than a person types:
        // a question waits for the new index (the 300 ms grace and the
        // answer from the version before are tested in tests/it/rule_sets.rs
        // and tests/it/upload_hostile.rs).
        index_wait: std::time::Duration::from_secs(60),
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
        t.contains("2 passages from Markdown") && t.contains("`ti4:table-rules.speaker` Speaker"),
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
    // Uploaded text is quoted, never a ping, and a mention in it shows
    // as typed (escaped: it rendered as a live mention).
    assert!(here.contains("@everyone"), "{here}");
    assert!(here.contains("\\<@1300000000000000302>"), "{here}");
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
    let defs = arbiter::bot::discord::definitions_json(&app);
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
    assert_eq!(
        subs,
        [
            "add", "list", "show", "remove", "versions", "history", "prune"
        ]
    );
}

/// A match pins the server's rule-set version it started with: the rule
/// buttons of its rulings, and `/rule` of an id in its channel, cite that
/// version after a later upload, while `/rule` elsewhere answers from the
/// newest, and `/match board` says one is newer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_cites_the_rule_set_version_it_started_with() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let coal = |p: Value| as_member(p, COAL.0, COAL.1, PLAYER_PERMISSIONS);
    let first = "# Guards\n\n1. Amends ashes:attack-a-unit.3: at our club a Phoenixborn guards only once a round.\n";
    let second = "# Guards\n\n1. Amends ashes:attack-a-unit.3: guarding exhausts the guard.\n";
    let add = |file: &'static str, text: &'static str, title: &'static str| {
        let url = e.fake.serve_file(file, text.as_bytes().to_vec());
        admin(rules_add_doc(
            &url,
            text.len(),
            [file, "ashes", "errata", title],
        ))
    };
    let confirm = |v: &Value| {
        buttons(v)
            .into_iter()
            .map(|(_, id)| id)
            .find(|id| id.starts_with("rules-confirm:"))
            .expect("Confirm")
    };
    let v = e.send(&add("one.md", first, "Errata one")).await;
    e.send(&admin(button(&confirm(&v)))).await;

    e.send(&coal(match_start("ashes", &[COAL, MAEONI]))).await;
    e.send(&coal(match_sub("setup", vec![opt("board", MATCH_BOARD)])))
        .await;
    // Coal's board, then his `agreed by` play: Maeoni confirms each.
    let maeoni = |p: Value| as_member(p, MAEONI.0, MAEONI.1, PLAYER_PERMISSIONS);
    e.send(&maeoni(match_sub("answer", vec![opt("choice", "confirm")])))
        .await;
    e.send(&coal(match_sub("play", vec![opt("text", MATCH_PLAY)])))
        .await;
    let ruling = e
        .send(&maeoni(match_sub("answer", vec![opt("choice", "confirm")])))
        .await;
    let ids: Vec<String> = buttons(&ruling).into_iter().map(|(_, id)| id).collect();
    let pinned = "citeat:1:ashes:attack-a-unit.3";
    assert!(ids.iter().any(|id| id == pinned), "{ids:?}");
    assert!(ids.iter().all(|id| !id.starts_with("cite:")), "{ids:?}");

    let v = e.send(&add("two.md", second, "Errata two")).await;
    e.send(&admin(button(&confirm(&v)))).await;

    let shown = e.send(&coal(button(pinned))).await;
    let cited = text_of(&shown);
    assert!(
        cited.contains("once a round") && !cited.contains("exhausts the guard"),
        "{cited}"
    );
    // Its own buttons (the whole section, references) stay at version 1:
    // "Whole section" had opened the newest version's amendment.
    let inner: Vec<String> = buttons(&shown).into_iter().map(|(_, id)| id).collect();
    let section = inner
        .iter()
        .find(|id| id.starts_with("sectionat:1:ashes:attack-a-unit"))
        .unwrap_or_else(|| panic!("a pinned section button: {inner:?}"));
    assert!(
        inner
            .iter()
            .all(|id| !id.starts_with("cite:") && !id.starts_with("section:")),
        "{inner:?}"
    );
    let whole = text_of(&e.send(&coal(button(section))).await);
    assert!(
        whole.contains("once a round") && !whole.contains("exhausts the guard"),
        "{whole}"
    );
    // `/rule` of that id in the match's channel cites the match's version
    // too, and says so (it showed version 2's text while the match's
    // buttons cited version 1; found by an outside tester); elsewhere in
    // the server, the newest.
    let rule = slash("rule", vec![opt("query", "ashes:attack-a-unit.3")]);
    let here = e.send(&rule).await;
    let in_match = text_of(&here);
    assert!(
        in_match.contains("once a round") && !in_match.contains("exhausts the guard"),
        "{in_match}"
    );
    let footer = here["data"]["embeds"][0]["footer"]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(footer.contains("version 1"), "{footer}");
    let here_ids: Vec<String> = buttons(&here).into_iter().map(|(_, id)| id).collect();
    assert!(
        here_ids
            .iter()
            .all(|id| !id.starts_with("cite:") && !id.starts_with("section:")),
        "{here_ids:?}"
    );
    let now = text_of(&e.send(&in_channel(rule, "1300000000000000777")).await);
    assert!(now.contains("exhausts the guard"), "{now}");
    let board = text_of(&e.send(&coal(match_sub("board", vec![]))).await);
    assert!(
        board.contains("rule set at version 1") && board.contains("a newer version (2) exists"),
        "{board}"
    );
    e.server.stop().await.unwrap();
}

/// `/rules show|remove id:` and `game:` autocomplete from this server's
/// rule set (fuzzy, ≤ 25, what is typed first); another server's offers none
/// of its documents.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_ids_and_games_autocomplete_per_server() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let url = e.fake.serve_file("house.md", HOUSE.as_bytes().to_vec());
    let v = e.send(&admin(rules_add(&url, HOUSE.len()))).await;
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    e.send(&admin(button(&confirm))).await;

    let v = e
        .send(&sub_autocomplete("rules", "remove", "id", "tabl rul"))
        .await;
    assert_eq!(v["type"], 8, "{v}");
    assert_eq!(choice_values(&v), ["tabl rul", "ti4:table-rules"], "{v}");
    // `show`: the server's documents first, then passages of its index.
    let v = e
        .send(&sub_autocomplete("rules", "show", "id", "table"))
        .await;
    assert_eq!(choice_values(&v)[..2], ["table", "ti4:table-rules"], "{v}");
    let v = e
        .send(&sub_autocomplete("rules", "show", "id", "speaker"))
        .await;
    let values = choice_values(&v);
    assert_eq!(values[..2], ["speaker", "ti4:table-rules.speaker"], "{v}");
    assert!(values.len() <= 25);
    let v = e
        .send(&sub_autocomplete("rules", "versions", "game", "twilight"))
        .await;
    assert_eq!(choice_values(&v)[1], "ti4", "{v}");
    let v = e.send(&sub_autocomplete("rules", "add", "game", "")).await;
    assert_eq!(choice_values(&v).len(), 5, "the shipped games: {v}");
    let v = e
        .send(&in_guild(
            sub_autocomplete("rules", "remove", "id", "tabl rul"),
            OTHER_GUILD,
        ))
        .await;
    assert_eq!(choice_values(&v), ["tabl rul"], "{v}");
    e.server.stop().await.unwrap();
}

/// A server's own game is offered by `/rule game:` and `/games game:`
/// autocomplete (they had the five shipped games as fixed choices, so a
/// game brought with `/rules add` could not be picked on Discord); another
/// server is not offered it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_own_game_is_offered_where_a_game_is_asked() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let doc = "# Kitchen Table\n\n1. The cook deals first.\n";
    let url = e.fake.serve_file("kitchen.md", doc.as_bytes().to_vec());
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            doc.len(),
            ["kitchen.md", "Kitchen Secret", "rules", "Kitchen rules"],
        )))
        .await;
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    e.send(&admin(button(&confirm))).await;
    for command in ["rule", "games"] {
        let v = e
            .send(&autocomplete(command, "game", "kitchen", vec![]))
            .await;
        assert_eq!(v["type"], 8, "{v}");
        assert!(
            choice_values(&v).iter().any(|c| c == "kitchen-secret"),
            "{command}: {v}"
        );
        assert!(!choice_values(&v).iter().any(|c| c == "kitchen"), "{v}");
        let v = e
            .send(&in_guild(
                autocomplete(command, "game", "kitchen", vec![]),
                OTHER_GUILD,
            ))
            .await;
        assert!(
            !choice_values(&v).iter().any(|c| c == "kitchen-secret"),
            "{command}: {v}"
        );
    }
    let v = e
        .send(&slash(
            "rule",
            vec![
                opt("query", "who deals first"),
                opt("game", "kitchen-secret"),
            ],
        ))
        .await;
    assert!(text_of(&v).contains("The cook deals first."), "{v}");
    // Its rules are cited, but it has no engine: said so, not "unknown game".
    let v = e
        .send(&admin(match_start("kitchen-secret", &[COAL, MAEONI])))
        .await;
    assert!(text_of(&v).contains("has no rules engine"), "{v}");
    e.server.stop().await.unwrap();
}

/// `/card` over the endpoint: a card list uploaded with `/rules add
/// kind:cards` (a CSV attachment), autocomplete of names, the card with a
/// button to the rule its text names, did-you-mean (ephemeral), and
/// nothing of it in another server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cards_uploaded_to_a_server_are_shown_there_only() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let csv = "name,type,attack,life,text\nBlood Archer,Ally,2,2,Attack a Unit twice. Ping @everyone [x](https://evil.example)\nGold *Mage*,Ally,1,1,x\n[Free Nitro](https://evil.example),Ally,1,1,x\n";
    let url = e.fake.serve_file("club.csv", csv.as_bytes().to_vec());
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            csv.len(),
            ["club.csv", "ashes", "cards", "Club cards"],
        )))
        .await;
    assert!(text_of(&v).contains("Card list **Club cards**"), "{v}");
    // A name that would show as a link is left out, said in the preview.
    assert!(text_of(&v).contains("mention or a link"), "{v}");
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    e.send(&admin(button(&confirm))).await;

    let v = e.send(&autocomplete("card", "name", "archr", vec![])).await;
    assert_eq!(choice_values(&v)[..2], ["archr", "Blood Archer"], "{v}");
    let v = e.send(&autocomplete("card", "game", "ash", vec![])).await;
    assert_eq!(choice_values(&v)[0], "ashes", "only games are offered: {v}");

    let v = e
        .send(&slash("card", vec![opt("name", "blood archer")]))
        .await;
    assert_eq!(v["type"], 4, "{v}");
    assert_eq!(v["data"]["embeds"][0]["title"], "Blood Archer", "{v}");
    assert!(text_of(&v).contains("attack 2 · life 2"), "{v}");
    // A masked link in a card's text shows as typed, not as a link.
    assert!(text_of(&v).contains("\\[x](https://evil.example)"), "{v}");
    assert_eq!(
        buttons(&v),
        [(
            "Attack a Unit".to_string(),
            "cite:ashes:attack-a-unit".to_string()
        )]
    );
    assert_eq!(
        v["data"]["allowed_mentions"],
        json!({ "parse": [], "roles": [], "users": [] }),
        "card text never pings"
    );
    let v = e
        .send(&slash("card", vec![opt("name", "Ice Gollem")]))
        .await;
    assert!(
        ephemeral(&v) && text_of(&v).contains("Did you mean Ice Golem?"),
        "{v}"
    );
    // An uploaded name in "did you mean" shows as typed, its marks escaped.
    let v = e.send(&slash("card", vec![opt("name", "Gold Mag")])).await;
    assert!(text_of(&v).contains("Gold \\\\*Mage\\\\*"), "{v}");
    let v = e.send(&slash("card", vec![opt("name", "Fre Nitro")])).await;
    assert!(!text_of(&v).contains("[Free Nitro]("), "{v}");
    let v = e
        .send(&in_guild(
            slash("card", vec![opt("name", "blood archer")]),
            OTHER_GUILD,
        ))
        .await;
    assert!(
        ephemeral(&v) && text_of(&v).contains("no card is named"),
        "{v}"
    );
    e.server.stop().await.unwrap();
}

/// `/card` over the endpoint after an outside tester's list: an alias
/// that is a shipped card's name is dropped, said in the preview; a name
/// written with a zero-width space is kept without it (the real name's
/// row below it then its duplicate); every name autocomplete offers shows
/// the card of that name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_alias_or_invisible_character_hides_no_card() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let csv = "name,type,attack,life,text,aliases\n\
               Coal Roarkwin,Phoenixborn,1,2,Burn,Maeoni|Iron Worker\n\
               Hammer\u{200B} Knight,Unit,1,1,zero width name,\n\
               Hammer Knight,Unit,1,1,real name dup,\n";
    let url = e.fake.serve_file("evil.csv", csv.as_bytes().to_vec());
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            csv.len(),
            ["evil.csv", "ashes", "cards", "Evil cards"],
        )))
        .await;
    let preview = text_of(&v);
    assert!(
        preview.contains("its alias 'Iron Worker' is already the name of the card 'Iron Worker'")
            && preview.contains("invisible characters"),
        "{v}"
    );
    assert!(!preview.contains('\u{200B}'), "{v}");
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    e.send(&admin(button(&confirm))).await;

    let card = |name: &str| slash("card", vec![opt("name", name), opt("game", "ashes")]);
    let v = e.send(&card("Iron Worker")).await;
    assert_eq!(v["data"]["embeds"][0]["title"], "Iron Worker", "{v}");
    assert!(!text_of(&v).contains("Coal"), "{v}");
    let v = e.send(&card("Hammer Knight")).await;
    assert_eq!(v["data"]["embeds"][0]["title"], "Hammer Knight", "{v}");
    assert!(text_of(&v).contains("zero width name"), "{v}");
    let in_ashes = vec![opt("game", "ashes")];
    let v = e
        .send(&autocomplete("card", "name", "Iron", in_ashes))
        .await;
    let offered = choice_values(&v);
    assert!(offered.iter().any(|c| c == "Iron Worker"), "{v}");
    for name in offered.iter().filter(|c| *c != "Iron") {
        let v = e.send(&card(name)).await;
        assert_eq!(v["data"]["embeds"][0]["title"], name.as_str(), "{v}");
    }
    e.server.stop().await.unwrap();
}

/// A kind the command does not offer (a client ignoring the choices) is
/// refused with the kinds listed; Cancel on a preview that is not this
/// server's (or no preview at all) says so and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_kind_lists_the_kinds_and_a_foreign_cancel_cancels_nothing() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, "1300000000000000301", "Coal", ADMIN_PERMISSIONS);
    let url = e.fake.serve_file("house.md", HOUSE.as_bytes().to_vec());
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            HOUSE.len(),
            ["house.md", "ti4", "nonsense", "Table"],
        )))
        .await;
    let t = text_of(&v);
    assert!(
        t.contains("unknown document kind 'nonsense'; use one of: rules, faq, errata, house, tournament, cards"),
        "{t}"
    );
    // A preview in this server, then Cancel pressed in another server and
    // with an unknown token: neither cancels it.
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            HOUSE.len(),
            ["house.md", "ti4", "house", "Table"],
        )))
        .await;
    let cancel = buttons(&v)
        .into_iter()
        .map(|(_, id)| id)
        .find(|id| id.starts_with("rules-cancel:"))
        .expect("Cancel");
    for payload in [
        in_guild(button(&cancel), OTHER_GUILD),
        button("rules-cancel:not-a-token"),
    ] {
        let t = text_of(&e.send(&admin(payload)).await);
        assert!(t.contains("no upload of this server waiting"), "{t}");
        assert!(!t.contains("Cancelled"), "{t}");
    }
    let t = text_of(&e.send(&admin(button(&cancel))).await);
    assert!(t.contains("Cancelled: nothing was added."), "{t}");
    e.server.stop().await.unwrap();
}

/// Posts an interaction; a deferred one is followed to what it showed.
async fn send(s: &Server, payload: &Value) -> Value {
    let v = s.post(payload).await;
    if v["type"] != 5 {
        return v;
    }
    let token = payload["token"].as_str().unwrap();
    s.fake.delivered(token).await.as_response()
}

/// The text of a reply: its embed's description, or its content.
fn reply_text(v: &Value) -> String {
    let d = &v["data"];
    d["embeds"][0]["description"]
        .as_str()
        .or(d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// 👍 / 👎 count once per user per answer (a press again, or a retried
/// request, replaces the user's vote), and only in the server that was
/// answered: the same button from another server or a direct message is
/// refused, nothing recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feedback_votes_count_once_per_user_and_only_in_their_server() {
    let s = Server::start().await;
    let v = s
        .post(&slash(
            "rule",
            vec![opt("query", "can an exhausted phoenixborn guard")],
        ))
        .await;
    let ids = buttons(&v);
    let id = |label: &str| {
        ids.iter()
            .find(|(l, _)| l.contains(label))
            .map(|(_, c)| c.clone())
            .unwrap_or_else(|| panic!("no {label} button: {ids:?}"))
    };
    let (up, down) = (id("👍"), id("👎"));
    for _ in 0..3 {
        let r = send(&s, &button(&up)).await;
        assert!(reply_text(&r).contains("Recorded 👍"), "{r}");
    }
    let r = send(&s, &button(&down)).await;
    assert!(reply_text(&r).contains("Recorded 👎"), "{r}");

    let mut elsewhere = button(&up);
    elsewhere["guild_id"] = json!("1300000000000000999");
    elsewhere["guild"]["id"] = json!("1300000000000000999");
    elsewhere["channel"]["guild_id"] = json!("1300000000000000999");
    let r = send(&s, &elsewhere).await;
    assert!(reply_text(&r).contains("another server"), "{r}");
    let mut dm = button(&up);
    for k in ["guild_id", "guild", "member", "guild_locale"] {
        dm.as_object_mut().unwrap().remove(k);
    }
    dm["user"] = user_with(USER_ID, "Player One");
    dm["context"] = json!(1);
    dm["channel"] = json!({ "id": "1300000000000000777", "type": 1, "flags": 0, "last_message_id": null, "recipients": [] });
    dm["channel_id"] = json!("1300000000000000777");
    dm["message"]["interaction_metadata"]["authorizing_integration_owners"] =
        json!({ "1": USER_ID });
    let r = send(&s, &dm).await;
    assert!(
        reply_text(&r).contains("feedback is kept per server"),
        "{r}"
    );

    let summary = slash(
        "feedback",
        vec![json!({ "name": "summary", "type": 1, "options": [] })],
    );
    let r = send(&s, &summary).await;
    assert!(
        reply_text(&r).contains("👍 0 · 👎 1 · right rule given 0"),
        "{r}"
    );
    s.server.stop().await.unwrap();
}

/// Passage ids longer than Discord's 100 characters (a house rule with long
/// headings) travel in buttons and autocomplete values as a short reference
/// that finds them again: every custom id within 100 and unique, the
/// section button opens the section, the autocompleted value cites the
/// passage (found by an outside tester: ids were cut with "…", two buttons
/// shared one id and Discord would refuse the message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_passage_ids_travel_as_short_references_that_resolve() {
    let e = endpoint().await;
    let doc = "# Frequently asked questions about movement through asteroid fields and nebulae in our league\n\n\
               ## Whether a ship that ends its movement inside a nebula may still retreat afterwards\n\n\
               1. A ship in a nebula may not retreat from that nebula. See also: Glorpic drift.\n\n\
               2. A ship in an asteroid field may retreat as usual.\n";
    let url = e.fake.serve_file("faq.md", doc.as_bytes().to_vec());
    let admin = |p: Value| as_member(p, "1300000000000000301", "Coal", ADMIN_PERMISSIONS);
    let v = e
        .send(&admin(rules_add_doc(
            &url,
            doc.len(),
            ["faq.md", "ti4", "faq", "League FAQ"],
        )))
        .await;
    let confirm = v["data"]["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let v = e.send(&admin(button(&confirm))).await;
    assert!(text_of(&v).contains("is live"), "{v}");

    // Each heading's segment is cut at a word within 64 characters; the id
    // is still longer than a custom id holds.
    let long = "ti4:league-faq.frequently-asked-questions-about-movement-through-asteroid.whether-a-ship-that-ends-its-movement-inside-a-nebula-may-still.1";
    let v = e.send(&slash("rule", vec![opt("query", long)])).await;
    assert!(
        text_of(&v).contains("may not retreat from that nebula"),
        "{v}"
    );
    let ids: Vec<String> = buttons(&v).into_iter().map(|(_, c)| c).collect();
    assert!(!ids.is_empty(), "{v}");
    for id in &ids {
        assert!(id.chars().count() <= 100, "{id}");
    }
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    let section = ids
        .iter()
        .find(|c| c.starts_with("section:"))
        .unwrap_or_else(|| panic!("{ids:?}"));
    let v = e.send(&button(section)).await;
    assert!(
        text_of(&v).contains("An asteroid field")
            || text_of(&v).contains("asteroid field may retreat"),
        "the whole section: {v}"
    );

    let v = e
        .send(&autocomplete(
            "rule",
            "query",
            "ship ends its movement inside a nebula retreat",
            vec![],
        ))
        .await;
    let choices = v["data"]["choices"].as_array().unwrap();
    let value = choices
        .iter()
        .filter_map(|c| c["value"].as_str())
        .find(|v| v.contains('~'))
        .unwrap_or_else(|| panic!("a long id's short reference among {choices:?}"));
    assert!(value.len() <= 100);
    let v = e.send(&slash("rule", vec![opt("query", value)])).await;
    assert!(
        text_of(&v).contains("League FAQ") || text_of(&v).contains("nebula"),
        "{v}"
    );
    e.server.stop().await.unwrap();
}

/// Two refusals of `/rules add` as Discord shows them: an attachment one
/// byte over the limit is said in exact bytes ("is 5120 KB; documents over
/// 5 MB are refused" read as one at the limit), and `replace:` naming no
/// live document names `/rules list` as code while the id typed stays
/// escaped (the whole text escaped showed "\`/rules list\`"; found by an
/// outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_add_refused_for_its_size_or_its_replace_reads_as_meant() {
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, "1300000000000000301", "Coal", ADMIN_PERMISSIONS);
    let limit = arbiter::corpus::import::MAX_IMPORT_BYTES;
    let url = e.fake.serve_file("house.md", HOUSE.as_bytes().to_vec());
    let v = e.send(&admin(rules_add(&url, limit + 1))).await;
    let said = text_of(&v);
    assert!(said.contains("is 5,242,881 bytes, 1 byte over"), "{said}");

    let mut add = rules_add(&url, HOUSE.len());
    let typed = "[x](https://evil.example)";
    add["data"]["options"][0]["options"]
        .as_array_mut()
        .unwrap()
        .push(opt("replace", typed));
    let v = e.send(&admin(add)).await;
    let said = v["data"]["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        said.contains("(`/rules list`, `arbiter rules list`) shows the ids"),
        "{v}"
    );
    assert!(said.contains("'\\[x\\](https:\\/\\/evil.example)'"), "{v}");
    e.server.stop().await.unwrap();
}

/// Refusals that name ids and commands as code, as Discord shows them: the
/// code reads as code and every name someone gave stays escaped (escaped
/// whole, they showed "\`ti4:…\`" and "(\`ashes\`)"). The same file added
/// again under another title names the live document and its title, a card
/// list sent to replace a rulebook names the rulebook, and `/card` of
/// another game's card names that game's id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_show_their_code_as_code_and_what_was_given_escaped() {
    use arbiter::render::markdown::escape_inline;
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let said = |v: &Value| {
        let s = v["data"]["embeds"][0]["description"].as_str();
        s.unwrap_or_default().to_string()
    };
    // A title of marks, live.
    let title = "Table *rules* ||x||";
    let url = e.fake.serve_file("house.md", HOUSE.as_bytes().to_vec());
    let add = |title: &str| rules_add_doc(&url, HOUSE.len(), ["house.md", "ti4", "house", title]);
    let v = e.send(&admin(add(title))).await;
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    let live = text_of(&e.send(&admin(button(&confirm))).await);
    let id = live
        .split_once("is live in this server as `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(id, _)| id.to_string())
        .unwrap_or_else(|| panic!("{live}"));

    let v = e.send(&admin(add("Another title"))).await;
    let refused = said(&v);
    assert!(
        refused.contains(&format!(
            "already live as `{id}` (“{}”)",
            escape_inline(title)
        )),
        "{v}"
    );
    assert!(!refused.contains("\\`") && !refused.contains(title), "{v}");

    let csv = "name,type,attack,life,text\nGold *Mage*,Ally,1,1,x\n";
    let cards = e.fake.serve_file("club.csv", csv.as_bytes().to_vec());
    let mut replace = rules_add_doc(&cards, csv.len(), ["club.csv", "ti4", "cards", "Club"]);
    replace["data"]["options"][0]["options"]
        .as_array_mut()
        .unwrap()
        .push(opt("replace", &id));
    let v = e.send(&admin(replace)).await;
    assert!(said(&v).starts_with(&format!("`{id}` is ")), "{v}");
    assert!(said(&v).contains("cannot replace"), "{v}");

    let v = e
        .send(&admin(rules_add_doc(
            &cards,
            csv.len(),
            ["club.csv", "ashes", "cards", "Club"],
        )))
        .await;
    let (_, confirm) = buttons(&v).into_iter().next().unwrap();
    e.send(&admin(button(&confirm))).await;
    let name = "Gold *Mage*";
    let v = e
        .send(&slash("card", vec![opt("name", name), opt("game", "ti4")]))
        .await;
    let refused = said(&v);
    let shown = escape_inline(name);
    assert!(
        refused.contains(&format!("named '{shown}'; '{shown}' is a card of ")),
        "{v}"
    );
    assert!(refused.ends_with("(`ashes`)"), "{v}");
    assert!(!refused.contains(name), "{v}");
    e.server.stop().await.unwrap();
}

/// A card or slang list that cannot be read, as Discord shows the refusal:
/// the fields, keys and columns it names read as code, and what the list
/// gave stays inert: inside a code span as given (a backtick in it cannot
/// end the span), elsewhere escaped. Escaped whole, "unknown field
/// \`atack\`" showed its backticks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lists_refusal_shows_its_code_as_code_and_the_lists_words_inert() {
    use arbiter::render::markdown::escape_inline;
    let e = endpoint().await;
    let admin = |p: Value| as_member(p, COAL.0, COAL.1, ADMIN_PERMISSIONS);
    let refused = |v: &Value| {
        let s = v["data"]["embeds"][0]["description"].as_str();
        s.unwrap_or_default().to_string()
    };
    let hostile = "a` [Free Nitro](https://evil.example) <@123456789012345678> ||s|| `b";
    let in_code = hostile.replace('`', "ˋ");
    let send = async |file: &str, kind: &str, text: String| {
        let url = e.fake.serve_file(file, text.clone().into_bytes());
        let add = rules_add_doc(&url, text.len(), [file, "ashes", kind, "Club"]);
        let v = e.send(&admin(add)).await;
        assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]), "{v}");
        refused(&v)
    };

    let yaml = format!(
        "cards:\n  - name: A\n'{}': 1\n",
        hostile.replace('\'', "''")
    );
    let said = send("club.yaml", "cards", yaml).await;
    assert!(
        said.contains(&format!("unknown field `{in_code}`; ")),
        "{said}"
    );
    assert!(said.starts_with("club.yaml is not a card list"), "{said}");
    assert!(!said.contains("\\`"), "code reads as code: {said}");

    let header = "type,[Free Nitro](https://evil.example) <@123456789012345678>";
    let said = send("club.csv", "cards", format!("{header}\nAlly,A\n")).await;
    let shown = escape_inline(&header.to_lowercase());
    assert!(
        said.contains(&format!("has no `name` column (it has: {shown}, ")),
        "{said}"
    );
    assert!(
        !said.contains("\\`") && !said.contains("[free nitro]("),
        "{said}"
    );

    let key = format!("'{}'", hostile.replace('\'', "''"));
    let slang = format!("{key}: [attack]\n{key}: [block]\n");
    let said = send("slang.yaml", "slang", slang).await;
    assert!(
        said.contains(&format!("the key `{in_code}` appears twice")),
        "{said}"
    );
    assert!(!said.contains("\\`"), "{said}");
    e.server.stop().await.unwrap();
}

/// `/rules`, `/feedback` and `/match` are kept per server: in a direct
/// message (an old registration, or a client that ignores `contexts`) each
/// is refused at once, ephemerally, never with a public "thinking…" first
/// (`/rules list` in a DM was deferred publicly, then refused; found by an
/// outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_commands_in_a_direct_message_are_refused_at_once() {
    let s = Server::start().await;
    let sub = |name: &str| json!({ "name": name, "type": 1, "options": [] });
    for (command, name, why) in [
        ("rules", "list", "rule sets belong to a server"),
        ("feedback", "summary", "feedback is kept per server"),
        ("match", "board", "matches are kept in a server channel"),
    ] {
        let mut dm = slash(command, vec![sub(name)]);
        let user = dm["member"]["user"].clone();
        for k in ["guild_id", "guild", "member", "guild_locale"] {
            dm.as_object_mut().unwrap().remove(k);
        }
        dm["user"] = user;
        dm["context"] = json!(1);
        dm["channel"] = json!({ "id": "1300000000000000777", "type": 1, "flags": 0, "last_message_id": null, "recipients": [] });
        dm["channel_id"] = json!("1300000000000000777");
        let v = s.post(&dm).await;
        assert_eq!(v["type"], 4, "/{command} {name}: answered at once: {v}");
        assert_eq!(v["data"]["flags"], 64, "/{command} {name}: ephemeral: {v}");
        assert!(reply_text(&v).contains(why), "/{command} {name}: {v}");
    }
    s.server.stop().await.unwrap();
}

/// A game typed into `/rules versions` that the server does not have is
/// refused quoting it inert: no bold, no live web address (the refusal,
/// escaped whole, left `https://…` a link).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_typed_into_versions_is_quoted_inert() {
    let e = endpoint().await;
    let typed = "**x** https://evil.example/claim";
    let v = e
        .send(&rules_sub("versions", vec![opt("game", typed)]))
        .await;
    let said = v["data"]["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(said.contains("unknown game"), "{v}");
    assert!(
        said.contains("\\*\\*x\\*\\* https:\\/\\/evil.example/claim"),
        "{said}"
    );
    for live in ["**x**", "://"] {
        assert!(!said.contains(live), "`{live}` renders in: {said}");
    }
    e.server.stop().await.unwrap();
}
