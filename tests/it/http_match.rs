//! `/match` end to end: the HTTP interactions endpoint on loopback, signed
//! interactions in Discord's payload shapes (subcommands, user options with
//! `resolved.users`, the member's channel permissions), a SQLite file in a
//! temp dir, the real Ashes engine.

use crate::discord_kit;

use std::sync::Arc;

use arbiter::app::App;
use arbiter::bot::{Bot, BotConfig, MatchCommand};
use discord_kit::*;
use serde_json::{Value, json};

const COAL: (&str, &str) = ("1300000000000000301", "Coal");
const MAEONI: (&str, &str) = ("1300000000000000302", "Maeoni");
const STRANGER: (&str, &str) = ("1300000000000000303", "Stranger");
const JUDGE: (&str, &str) = ("1300000000000000304", "Judge");

const BOARD: &str = "\
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

const PLAY: &str = "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by <@1300000000000000302>";

type Harness = Server;

/// A database that cannot be opened: `/match` answers with an internal
/// error and its id (no detail), other commands still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_failure_is_an_internal_error_with_an_id() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = Arc::new(App::load(&root.join("rules_data"), &[]).expect("rule data"));
    let bot = Bot::new(
        app,
        BotConfig {
            database_url: Some("nosuchdb://nowhere/x".into()),
            ..BotConfig::default()
        },
    );
    let request = arbiter::bot::Request {
        origin: arbiter::bot::Origin {
            id: "1".into(),
            user_id: 7,
            guild_id: Some(8),
            channel_id: Some(9),
            ..Default::default()
        },
        input: arbiter::bot::Input::Command(arbiter::bot::Command::Match(
            arbiter::bot::MatchCommand::Board,
        )),
    };
    let arbiter::bot::Reply::Message(m) = bot.handle(&request).await else {
        panic!("a message")
    };
    assert_eq!(m.kind, arbiter::bot::MessageKind::InternalError);
    assert!(m.ephemeral);
    assert!(m.footer.unwrap_or_default().starts_with("error id E"));
    assert!(!m.body.contains("nosuchdb"), "{}", m.body);
}

/// A public reply that can ping no one.
fn public(v: &Value) {
    assert_eq!(v["type"], 4, "{v}");
    assert!(!ephemeral(v), "{v}");
    assert_eq!(v["data"]["allowed_mentions"]["parse"], json!([]), "{v}");
}

/// An ephemeral refusal containing `why`.
fn refused(v: &Value, why: &str) {
    assert_eq!(v["type"], 4, "{v}");
    assert!(ephemeral(v), "refusals are ephemeral: {v}");
    assert!(title(v).starts_with("Match"), "{v}");
    assert!(desc(v).contains(why), "expected `{why}` in {}", desc(v));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_through_discord_interactions() {
    let h = Harness::start().await;

    // No match yet: clear and ephemeral.
    let v = h.run(COAL, false, match_sub("board", vec![])).await;
    refused(&v, "no active match");

    let v = h
        .run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    public(&v);
    let d = desc(&v);
    assert!(d.contains(&format!("seat 1: <@{}>", COAL.0)), "{d}");
    assert!(d.contains(&format!("seat 2: <@{}>", MAEONI.0)), "{d}");

    // `/rule` with no game, in this channel: the match's game, said so; in
    // another channel: every game, no such line.
    let ask = slash("rule", vec![opt("query", "when can I pass my turn")]);
    let v = h.run(MAEONI, false, ask.clone()).await;
    public(&v);
    let d = desc(&v);
    assert!(d.contains("Ashes Reborn rules: this channel"), "{d}");
    assert!(d.contains("`ashes:") && !d.contains("`ti4:"), "{d}");
    let v = h
        .run(MAEONI, false, in_channel(ask, "1300000000000000999"))
        .await;
    let d = desc(&v);
    assert!(!d.contains("this channel"), "{d}");
    // Its autocomplete offers the match's game first here; elsewhere, not.
    let typing = autocomplete("rule", "query", "attack", vec![]);
    let ids = |v: &Value| -> Vec<String> {
        choice_values(v)
            .into_iter()
            .filter(|c| c != "attack")
            .collect()
    };
    let v = h.run(MAEONI, false, typing.clone()).await;
    let here = ids(&v);
    assert!(here[0].starts_with("ashes:"), "{v}");
    assert!(here.iter().any(|c| !c.starts_with("ashes:")), "{v}");
    let v = h
        .run(MAEONI, false, in_channel(typing, "1300000000000000999"))
        .await;
    assert!(!ids(&v)[0].starts_with("ashes:"), "{v}");

    // Setup with neither board nor file: the form; its submit sets the board.
    let v = h.run(COAL, false, match_sub("setup", vec![])).await;
    assert_eq!(v["type"], 9, "a modal: {v}");
    assert_eq!(v["data"]["custom_id"], "match-setup");
    // A broken board is refused like /judge's, with the line.
    let v = h
        .run(
            COAL,
            false,
            match_sub("setup", vec![opt("board", "game: ashes\nplayers: [")]),
        )
        .await;
    refused(&v, "line");
    let v = h
        .run(COAL, false, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    public(&v);
    assert!(desc(&v).contains("Mist Spirit"), "{}", desc(&v));
    // A player's board sets every seat's standing: Maeoni confirms it.
    // Its author is named by the board and by the user (a board naming
    // the seats otherwise cannot make it read as Maeoni's own proposal).
    assert!(
        desc(&v).contains(&format!(
            "Coal (<@{}>) proposes the starting board shown",
            COAL.0
        )),
        "{}",
        desc(&v)
    );
    let (_, confirm) = buttons(&v)
        .into_iter()
        .find(|(label, _)| label == "confirm")
        .expect("a confirm button");
    let v = h.run(COAL, false, button(&confirm)).await;
    assert!(ephemeral(&v), "not his to confirm: {}", desc(&v));
    public(&h.run(MAEONI, false, button(&confirm)).await);

    // Autocomplete of the play: Maeoni's units after `attack unit `.
    let v = h
        .post(&as_member(
            match_play_autocomplete("attack unit "),
            COAL.0,
            COAL.1,
            PLAYER_PERMISSIONS,
        ))
        .await;
    assert_eq!(v["type"], 8, "{v}");
    let choices: Vec<String> = v["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["value"].as_str().unwrap().to_string())
        .collect();
    assert!(
        choices
            .iter()
            .any(|c| c.starts_with("attack unit ") && c.contains("Mist Spirit")),
        "{choices:?}"
    );
    assert!(choices.len() <= 25);

    // Not Maeoni's turn; a stranger is not a player.
    let v = h
        .run(MAEONI, false, match_sub("play", vec![opt("text", "pass")]))
        .await;
    assert!(ephemeral(&v), "{v}");
    let v = h
        .run(STRANGER, false, match_sub("play", vec![opt("text", PLAY)]))
        .await;
    refused(&v, "only the match's players (or a moderator) may play");

    // An illegal play: the ruling says why (public), nothing is recorded.
    let v = h
        .run(
            COAL,
            false,
            match_sub(
                "play",
                vec![opt(
                    "text",
                    "attack unit \"Iron Worker\" with Hammer Knight",
                )],
            ),
        )
        .await;
    public(&v);
    assert!(title(&v).starts_with("Not recorded"), "{}", title(&v));
    assert!(title(&v).contains("ILLEGAL"), "{}", title(&v));
    assert!(desc(&v).contains("`ashes:attack-a-unit.2`"), "{}", desc(&v));
    let v = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&v).contains("version 2"), "{}", desc(&v));

    // The play, in notation, with `agreed by` Maeoni: it does not speak for
    // her (issue 28); it is a proposal (deferred: the play may wait on the
    // database) with Confirm / Reject buttons, and only Maeoni is pinged.
    let (v, token) = h
        .run_token(COAL, match_sub("play", vec![opt("text", PLAY)]))
        .await;
    public(&v);
    assert_eq!(v["deferred"], true, "{v}");
    assert!(title(&v).contains("play #3"), "{}", title(&v));
    assert!(
        desc(&v).contains(&format!("Coal (<@{}>) proposes the play", COAL.0)),
        "{}",
        desc(&v)
    );
    let ping = h.fake.ping(&token).await.expect("Maeoni is pinged");
    assert_eq!(
        ping["allowed_mentions"]["users"],
        json!([MAEONI.0]),
        "{ping}"
    );
    assert!(
        ping["content"].as_str().unwrap().contains("your decision"),
        "{ping}"
    );
    let confirm = buttons(&v)
        .into_iter()
        .find(|(label, _)| label == "confirm")
        .expect("a Confirm button")
        .1;
    // Coal cannot press it for her; Maeoni's press records the play.
    let v = h.run(COAL, false, button(&confirm)).await;
    assert!(ephemeral(&v), "{v}");
    let v = h.run(MAEONI, false, button(&confirm)).await;
    assert!(title(&v).starts_with("Answer #4 recorded"), "{}", title(&v));
    assert!(desc(&v).contains("`ashes:attack-a-unit"), "{}", desc(&v));

    // A typo: did-you-mean, nothing stored.
    let v = h
        .run(
            MAEONI,
            false,
            match_sub(
                "play",
                vec![opt("text", "attack unit \"Iron Wroker\" with Mist Spirit")],
            ),
        )
        .await;
    refused(&v, "Iron Worker");

    let v = h.run(STRANGER, false, match_sub("board", vec![])).await;
    public(&v);
    assert!(desc(&v).contains("version 4"), "{}", desc(&v));

    let v = h.run(STRANGER, false, match_sub("log", vec![])).await;
    public(&v);
    assert!(
        desc(&v).contains("Iron Worker, Hammer Knight"),
        "{}",
        desc(&v)
    );
    let v = h
        .run(
            STRANGER,
            false,
            match_sub(
                "log",
                vec![json!({ "name": "page", "type": 4, "value": 1 })],
            ),
        )
        .await;
    public(&v);
    assert!(title(&v).contains("log page 1/1"), "{}", title(&v));

    // Undo by the player who made the play: shows what reverts, and
    // withdraws the proposal with Maeoni's confirmation in one step.
    let v = h.run(COAL, false, match_sub("undo", vec![])).await;
    public(&v);
    assert!(title(&v).contains("Undone: event #3"), "{}", title(&v));
    assert!(desc(&v).contains("damage"), "{}", desc(&v));

    // Played again without Maeoni's agreement: her guard is hers to choose.
    let unagreed = PLAY.split("; agreed by").next().unwrap();
    let v = h
        .run(COAL, false, match_sub("play", vec![opt("text", unagreed)]))
        .await;
    assert!(ephemeral(&v), "{v}");
    assert!(desc(&v).contains("Maeoni's choice"), "{v}");
    // With it: a stranger may not undo the play; Maeoni, who agreed, could.
    let v = h
        .run(COAL, false, match_sub("play", vec![opt("text", PLAY)]))
        .await;
    assert!(title(&v).contains("play #6"), "{}", title(&v));
    let v = h
        .run(
            MAEONI,
            false,
            match_sub("answer", vec![opt("choice", "confirm")]),
        )
        .await;
    assert!(title(&v).starts_with("Answer #7 recorded"), "{}", title(&v));
    let v = h.run(STRANGER, false, match_sub("undo", vec![])).await;
    assert!(ephemeral(&v), "{v}");
    assert!(!title(&v).contains("Undone"), "{v}");
    // A moderator (Manage Messages in the channel) may.
    let v = h.run(JUDGE, true, match_sub("undo", vec![])).await;
    public(&v);
    assert!(title(&v).contains("Undone"), "{}", title(&v));

    // Export: deferred, then the edit carries the file (multipart).
    let payload = as_member(
        match_sub("export", vec![]),
        STRANGER.0,
        STRANGER.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred: {v}");
    let edit = h.edit_for(&token).await;
    let raw = edit["multipart"].as_str().expect("an edit with a file");
    assert!(raw.contains("payload_json"), "{raw}");
    assert!(raw.contains("filename=\""), "{raw}");
    assert!(
        raw.contains("Mist Spirit") && raw.contains("guard phoenixborn"),
        "{raw}"
    );

    // Only a player or a moderator ends it; then plays are refused.
    let v = h.run(STRANGER, false, match_sub("end", vec![])).await;
    assert!(ephemeral(&v), "{v}");
    let v = h
        .run(
            MAEONI,
            false,
            match_sub(
                "end",
                vec![json!({ "name": "winner", "type": 6, "value": COAL.0 })],
            ),
        )
        .await;
    public(&v);
    assert!(desc(&v).contains("ended"), "{}", desc(&v));
    let v = h
        .run(COAL, false, match_sub("play", vec![opt("text", PLAY)]))
        .await;
    assert!(ephemeral(&v), "{v}");
    assert!(desc(&v).contains("match"), "{}", desc(&v));
    // Viewing still works after the end.
    let v = h.run(STRANGER, false, match_sub("board", vec![])).await;
    public(&v);
    h.server.stop().await.unwrap();
}

/// `/match setup file:`: deferred, downloaded, validated, the edit shows the
/// board; each channel keeps its own match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn setup_from_an_attachment_in_another_channel() {
    let h = Harness::start().await;
    let other = "1300000000000000299";
    let v = h
        .run(
            COAL,
            false,
            in_channel(match_start("ashes", &[COAL, MAEONI]), other),
        )
        .await;
    public(&v);
    let url = h.fake.serve_file("board.yaml", BOARD.as_bytes().to_vec());
    let payload = as_member(
        in_channel(
            match_setup_with_attachment(&url, "board.yaml", BOARD.len()),
            other,
        ),
        COAL.0,
        COAL.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred: {v}");
    let edit = h.edit_for(&token).await;
    let d = edit["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        d.contains("Mist Spirit") && d.contains("version 1"),
        "{edit}"
    );
    // The default channel has no match.
    let v = h.run(COAL, false, match_sub("board", vec![])).await;
    refused(&v, "no active match");
    h.server.stop().await.unwrap();
}

/// Errors after a public deferral (issue 14): the public "thinking…" is
/// deleted and the error goes to the user alone as a follow-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_after_a_deferral_are_ephemeral_follow_ups() {
    let h = Harness::start().await;
    // `/match export` with no match.
    let payload = as_member(
        match_sub("export", vec![]),
        STRANGER.0,
        STRANGER.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred: {v}");
    let d = h.fake.delivered(&token).await;
    assert!(
        matches!(d, Delivered::Followup(_)) && d.ephemeral(),
        "{d:?}"
    );
    assert!(
        d.body()["embeds"][0]["description"]
            .as_str()
            .unwrap_or_default()
            .contains("no active match"),
        "{d:?}"
    );

    // A refused `/match setup file:`: a stranger's, then a broken board.
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let url = h.fake.serve_file("board.yaml", BOARD.as_bytes().to_vec());
    for (who, file, why) in [
        (STRANGER, "board.yaml", "player"),
        (COAL, "broken.yaml", "line"),
    ] {
        let url = if file == "broken.yaml" {
            h.fake
                .serve_file("broken.yaml", b"game: ashes\nplayers: [\n".to_vec())
        } else {
            url.clone()
        };
        let payload = as_member(
            match_setup_with_attachment(&url, file, 100),
            who.0,
            who.1,
            PLAYER_PERMISSIONS,
        );
        let token = payload["token"].as_str().unwrap().to_string();
        assert_eq!(h.post(&payload).await["type"], 5);
        let d = h.fake.delivered(&token).await;
        assert!(
            matches!(d, Delivered::Followup(_)) && d.ephemeral(),
            "{d:?}"
        );
        let desc = d.body()["embeds"][0]["description"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(desc.contains(why), "expected `{why}` in {desc}");
    }
    // An attachment refused by its size is refused at once, ephemerally.
    let v = h
        .post(&as_member(
            match_setup_with_attachment(&url, "board.yaml", 5 * 1024 * 1024),
            COAL.0,
            COAL.1,
            PLAYER_PERMISSIONS,
        ))
        .await;
    assert_eq!(v["type"], 4, "{v}");
    assert!(ephemeral(&v), "{v}");
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_verify_replays_the_log_through_the_engine() {
    let h = Harness::start().await;
    let v = h.run(COAL, false, match_sub("verify", vec![])).await;
    refused(&v, "no active match");
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    let v = h
        .run(COAL, false, match_sub("play", vec![opt("text", PLAY)]))
        .await;
    assert!(title(&v).contains("play #2"), "{}", title(&v));
    // Anyone may verify; the answer is public.
    let v = h.run(STRANGER, false, match_sub("verify", vec![])).await;
    public(&v);
    assert!(title(&v).contains("the log replays"), "{}", title(&v));
    let d = desc(&v);
    assert!(
        d.contains("2 events replayed; every stored board equals the replay"),
        "{d}"
    );
    h.server.stop().await.unwrap();
}

/// `/match` in a direct message (an old registration, or a client that
/// ignores `contexts`): refused, nothing stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_in_a_direct_message_is_refused() {
    let h = Harness::start().await;
    let mut dm = match_start("ashes", &[COAL, MAEONI]);
    let user = dm["member"]["user"].clone();
    for field in ["guild_id", "guild", "member", "guild_locale"] {
        dm.as_object_mut().unwrap().remove(field);
    }
    dm["user"] = user;
    dm["context"] = json!(1);
    dm["channel"] = json!({ "id": "1300000000000000777", "type": 1, "flags": 0, "last_message_id": null, "recipients": [] });
    dm["channel_id"] = json!("1300000000000000777");
    let v = h.post(&dm).await;
    refused(&v, "server");
    assert!(h.fake.recorded.lock().unwrap().edits.is_empty());
    h.server.stop().await.unwrap();
}

/// A bot (Arbiter itself) named as a seat is refused: it could never act.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_takes_no_seat() {
    let h = Harness::start().await;
    let bot = ("1300000000000000001", "Arbiter");
    let mut start = match_start("ashes", &[COAL, bot]);
    // Known by its own application id even without the bot flag.
    let v = h.run(COAL, false, start.clone()).await;
    refused(&v, "names a bot");
    start["data"]["resolved"]["users"][bot.0]["bot"] = json!(true);
    let v = h.run(COAL, false, start).await;
    refused(&v, "names a bot");
    let b = h.run(COAL, false, match_sub("board", vec![])).await;
    assert!(
        !desc(&b).contains("Match #"),
        "no match was started: {}",
        desc(&b)
    );
    h.server.stop().await.unwrap();
}

/// `/match end winner:` as `Cmd::End` writes it: a user option, resolved.
fn end_with_winner(id: &str, reason: &str) -> Value {
    let user = json!({ "name": "winner", "type": 6, "value": id });
    let mut v = match_sub("end", vec![user, opt("reason", reason)]);
    v["data"]["resolved"] = json!({ "users": { id: user_with(id, "Winner") } });
    v
}

/// Issue 28 on the signed path: a claimed win waits for the opponent's
/// Confirm button (her ping alone), her Reject changes nothing, her
/// concession is at once, her undo of the result is refused naming the
/// winner, and a moderator's undo reopens the match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_win_waits_for_the_opponents_confirm_and_only_a_moderator_or_the_winner_undoes_a_result()
 {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    let (v, token) = h.run_token(COAL, end_with_winner(COAL.0, "I win")).await;
    public(&v);
    assert!(desc(&v).contains("(active, version 2)"), "{}", desc(&v));
    assert!(
        desc(&v).contains("proposes to end the match"),
        "{}",
        desc(&v)
    );
    let ping = h.fake.ping(&token).await.expect("Maeoni is pinged");
    assert_eq!(
        ping["allowed_mentions"]["users"],
        json!([MAEONI.0]),
        "{ping}"
    );
    let pressed = |label: &str| {
        buttons(&v)
            .into_iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("a {label} button: {v}"))
            .1
    };
    let (confirm, reject) = (pressed("confirm"), pressed("reject"));
    // Coal cannot confirm his own claim; Maeoni rejects it.
    let v2 = h.run(COAL, false, button(&confirm)).await;
    assert!(ephemeral(&v2), "{v2}");
    let v2 = h.run(MAEONI, false, button(&reject)).await;
    assert!(!ephemeral(&v2), "{v2}");
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("(active, version 3)"), "{}", desc(&b));
    // Her concession is at once.
    let v = h
        .run(MAEONI, false, end_with_winner(COAL.0, "concession"))
        .await;
    assert!(desc(&v).contains("conceded by Maeoni"), "{}", desc(&v));
    // The loser cannot rewind it; a moderator can.
    let v = h.run(MAEONI, false, match_sub("undo", vec![])).await;
    refused(&v, "who won it, or a moderator");
    let v = h.run(JUDGE, true, match_sub("undo", vec![])).await;
    public(&v);
    assert!(title(&v).contains("Undone: event #4"), "{}", title(&v));
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("(active, version 5)"), "{}", desc(&b));
    // A claim confirmed by the other player ends the match with the final
    // board's picture, as a concession does.
    let v = h.run(COAL, false, end_with_winner(COAL.0, "I win")).await;
    let confirm = buttons(&v)
        .into_iter()
        .find(|(l, _)| l == "confirm")
        .expect("a confirm button")
        .1;
    let payload = as_member(button(&confirm), MAEONI.0, MAEONI.1, PLAYER_PERMISSIONS);
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred: {v}");
    let part = h
        .fake
        .file(&token, "board.png")
        .await
        .expect("the final board's picture");
    assert!(part.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    h.server.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_play_carries_the_board_picture_in_the_edit_of_its_deferred_reply() {
    let h = Harness::start().await;
    let v = h
        .run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    public(&v);
    let v = h
        .run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    public(&v);
    // A play recorded at once (an agreed-by one asks the other player
    // first).
    let payload = as_member(
        match_sub("play", vec![opt("text", "pass")]),
        COAL.0,
        COAL.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 5, "deferred: {v}");
    let edit = h.edit_for(&token).await;
    // The edit is multipart: the ruling's embed in payload_json, the PNG
    // as files[0], described by its alt text.
    assert!(
        edit["embeds"][0]["title"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Play #"),
        "{edit}"
    );
    let att = &edit["attachments"][0];
    assert_eq!(att["filename"], "board.png", "{edit}");
    let alt = att["description"].as_str().unwrap_or_default();
    assert!(
        alt.contains("Mist Spirit") || alt.contains("Maeoni"),
        "{alt}"
    );
    let part = h.fake.file(&token, "board.png").await.expect("the picture");
    assert!(part.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));

    // `/match board` is answered at once; its picture follows.
    let payload = as_member(
        match_sub("board", vec![]),
        COAL.0,
        COAL.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 4, "{v}");
    let part = h.fake.file(&token, "board.png").await.expect("the picture");
    assert!(tiny_skia::Pixmap::decode_png(&part.bytes).is_ok());
}

/// `/match pictures state:off` over the signed path: `/match board` then
/// sends no picture, and offers the Picture button instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_off_sends_no_file_and_offers_the_button() {
    let h = Harness::start().await;
    public(
        &h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
            .await,
    );
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
            .await,
    );
    let v = h
        .run(
            MAEONI,
            false,
            match_sub("pictures", vec![opt("state", "off")]),
        )
        .await;
    assert!(desc(&v).contains("board pictures are off"), "{v}");
    let payload = as_member(
        match_sub("board", vec![]),
        COAL.0,
        COAL.1,
        PLAYER_PERMISSIONS,
    );
    let token = payload["token"].as_str().unwrap().to_string();
    let v = h.post(&payload).await;
    assert_eq!(v["type"], 4, "{v}");
    assert!(
        buttons(&v).iter().any(|(label, _)| label == "Picture"),
        "{v}"
    );
    assert!(
        h.fake.file(&token, "board.png").await.is_none(),
        "no picture follows"
    );
}

/// A bot over the shipped rules and a SQLite file of its own (kept while
/// the directory lives), answering requests without a transport.
fn bot_on_sqlite() -> (Bot, tempfile::TempDir) {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let app = Arc::new(App::load(&root.join("rules_data"), &[]).expect("rule data"));
    let database_url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let config = BotConfig {
        database_url: Some(database_url),
        ..BotConfig::default()
    };
    (Bot::new(app, config), dir)
}

/// A ruling long enough for pages keeps the decision's answer buttons on
/// every page: a page turn used to bring back only the pager.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paged_decision_keeps_its_answer_buttons_on_every_page() {
    use arbiter::bot::{Command, Input, Origin, Reply, Request};
    let (bot, _dir) = bot_on_sqlite();
    let mut guards = String::new();
    for n in 1..=22 {
        guards.push_str(&format!(
            "      - {{ name: Sentinel of the Long Watch over the Eastern Gate Number {n}, attack: 1, life: 4, abilities: [Unit Guard] }}\n"
        ));
    }
    let board = format!(
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\n    units:\n      - {{ name: Iron Worker, attack: 2, life: 2 }}\n  - name: Maeoni\n    phoenixborn: {{ name: Maeoni Viper, life: 20 }}\n    units:\n      - {{ name: Mist Spirit, attack: 1, life: 1 }}\n{guards}"
    );
    let mut n = 0;
    let mut send = |user: u64, input: Input| {
        n += 1;
        let request = Request {
            origin: Origin {
                id: format!("{n}"),
                user_id: user,
                user_name: format!("u{user}"),
                guild_id: Some(8),
                channel_id: Some(9),
                ..Default::default()
            },
            input,
        };
        let bot = &bot;
        async move { bot.handle(&request).await }
    };
    let command = |m| Input::Command(Command::Match(m));
    send(
        301,
        command(MatchCommand::Start {
            game: "ashes".into(),
            players: vec!["301".into(), "302".into()],
        }),
    )
    .await;
    send(
        301,
        command(MatchCommand::Setup {
            text: Some(arbiter::bot::BoardSource::Text(board)),
        }),
    )
    .await;
    // A player's board: the other player confirms it.
    send(
        302,
        command(MatchCommand::Answer {
            choice: "confirm".into(),
            version: None,
            match_id: None,
        }),
    )
    .await;
    let Reply::Message(first) = send(
        301,
        command(MatchCommand::Play {
            text: "attack unit \"Mist Spirit\" with Iron Worker".into(),
            expected_version: None,
        }),
    )
    .await
    else {
        panic!("a message")
    };
    let ids = |m: &arbiter::bot::Message| -> Vec<String> {
        m.buttons.iter().map(|b| b.action.custom_id()).collect()
    };
    let decisions = |ids: &[String]| ids.iter().filter(|i| i.starts_with("decide:")).count();
    let first_ids = ids(&first);
    let next = first_ids
        .iter()
        .find(|i| i.starts_with("page:") && i.ends_with(":1"))
        .unwrap_or_else(|| panic!("the ruling is paged: {first_ids:?}"))
        .clone();
    assert!(decisions(&first_ids) >= 13, "{first_ids:?}");
    let Reply::Update(second) = send(302, Input::Component { custom_id: next }).await else {
        panic!("a page turn updates the message")
    };
    assert_eq!(
        decisions(&ids(&second)),
        decisions(&first_ids),
        "{:?}",
        ids(&second)
    );
}

/// A match's buttons pressed in a direct message are refused as `/match`
/// is there (a match belongs to a server channel).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_buttons_in_a_direct_message_are_refused() {
    use arbiter::bot::{Input, MessageKind, Origin, Reply, Request};
    let (bot, _dir) = bot_on_sqlite();
    for custom_id in ["decide:1:2:0", "picture:1"] {
        let request = Request {
            origin: Origin {
                id: "1".into(),
                user_id: 301,
                guild_id: None,
                channel_id: Some(777),
                ..Default::default()
            },
            input: Input::Component {
                custom_id: custom_id.into(),
            },
        };
        let Reply::Message(m) = bot.handle(&request).await else {
            panic!("a message")
        };
        assert_eq!(m.kind, MessageKind::UserError, "{custom_id}: {}", m.body);
        assert!(m.ephemeral && m.body.contains("server"), "{}", m.body);
    }
}

/// The same interaction sent again (Discord retries it, or a replica
/// restarted before answering) gets its first result, also when that
/// first run answered the last decision: the button's checks of the match
/// as it is now ("no decision waiting") came first (found by an outside
/// tester). Nothing is recorded twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decision_sent_twice_gets_its_first_result() {
    let h = Harness::start().await;
    public(
        &h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
            .await,
    );
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
            .await,
    );
    let play = "attack unit \"Mist Spirit\" with Iron Worker";
    let v = h
        .run(COAL, false, match_sub("play", vec![opt("text", play)]))
        .await;
    let (_, decide) = buttons(&v)
        .into_iter()
        .find(|(_, id)| id.starts_with("decide:"))
        .expect("a decision button");
    let first = as_member(button(&decide), MAEONI.0, MAEONI.1, PLAYER_PERMISSIONS);
    h.post(&first).await;
    let token = first["token"].as_str().unwrap().to_string();
    let shown = h.fake.delivered(&token).await.as_response();
    assert!(title(&shown).starts_with("Answer #"), "{}", title(&shown));
    let mut again = first.clone();
    again["token"] = json!("retried-token");
    h.post(&again).await;
    let replayed = h.fake.delivered("retried-token").await.as_response();
    assert_eq!(title(&replayed), title(&shown));
    h.server.stop().await.unwrap();
}

/// Coal's proposal that Maeoni's Phoenixborn took `value` damage.
fn adjust_damage(value: &str) -> Value {
    match_sub(
        "adjust",
        vec![
            opt("field", "players.Maeoni.phoenixborn.damage"),
            opt("value", value),
            opt("reason", "missed a wound"),
        ],
    )
}

/// An answer picked from `/match answer`'s list answers the question the
/// list showed: a proposal withdrawn and proposed again with another value
/// meanwhile is not confirmed by it (found by an outside tester: Maeoni's
/// typed "confirm" confirmed damage 19 where she had read 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_picked_from_the_list_answers_the_question_it_showed() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    let listed = |v: &Value| -> Vec<(String, String)> {
        v["data"]["choices"]
            .as_array()
            .unwrap_or(&Vec::new())
            .iter()
            .map(|c| {
                let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
                (s("name"), s("value"))
            })
            .collect()
    };
    public(&h.run(COAL, false, adjust_damage("6")).await);
    let ask = as_member(
        match_autocomplete("answer", "choice", ""),
        MAEONI.0,
        MAEONI.1,
        PLAYER_PERMISSIONS,
    );
    let v = h.post(&ask).await;
    assert_eq!(v["type"], 8, "{v}");
    let (name, confirm) = listed(&v)
        .into_iter()
        .find(|(n, _)| n.starts_with("confirm"))
        .unwrap_or_else(|| panic!("confirm is listed: {v}"));
    assert!(
        name.contains("from 5 to 6"),
        "the question is shown: {name}"
    );
    assert!(confirm.starts_with("confirm @"), "{confirm}");
    // Coal withdraws it and proposes 19; the answer Maeoni picked is refused.
    public(&h.run(COAL, false, match_sub("undo", vec![])).await);
    public(&h.run(COAL, false, adjust_damage("19")).await);
    let answer = |value: &str| match_sub("answer", vec![opt("choice", value)]);
    let v = h.run(MAEONI, false, answer(&confirm)).await;
    assert!(ephemeral(&v), "a stale answer is refused: {v}");
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("damage: 5"), "{}", desc(&b));
    // The list now shows 19, and its answer confirms it.
    let (name, confirm) = listed(&h.post(&ask).await)
        .into_iter()
        .find(|(n, _)| n.starts_with("confirm"))
        .expect("confirm is listed");
    assert!(name.contains("from 5 to 19"), "{name}");
    public(&h.run(MAEONI, false, answer(&confirm)).await);
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("damage: 19"), "{}", desc(&b));
    h.server.stop().await.unwrap();
}

/// An answer picked from the list of a match that has since ended is not an
/// answer in the next match of the channel, even where the new question was
/// asked at the same version (the list's value names the match).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_picked_in_an_ended_match_does_not_answer_the_next_one() {
    let h = Harness::start().await;
    let ask = as_member(
        match_autocomplete("answer", "choice", ""),
        MAEONI.0,
        MAEONI.1,
        PLAYER_PERMISSIONS,
    );
    let confirm_listed = |v: &Value| -> String {
        v["data"]["choices"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["value"].as_str())
            .find(|s| s.starts_with("confirm"))
            .unwrap_or_else(|| panic!("confirm is listed: {v}"))
            .to_string()
    };
    let new_match = || async {
        h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
            .await;
        h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
            .await;
        public(&h.run(COAL, false, adjust_damage("6")).await);
    };
    new_match().await;
    let old = confirm_listed(&h.post(&ask).await);
    public(&h.run(JUDGE, true, match_sub("end", vec![])).await);
    // The next match asks the same question at the same version.
    new_match().await;
    let listed = confirm_listed(&h.post(&ask).await);
    assert_ne!(old, listed, "the values name their match");
    let answer = |value: &str| match_sub("answer", vec![opt("choice", value)]);
    let v = h.run(MAEONI, false, answer(&old)).await;
    assert!(ephemeral(&v), "the ended match's answer is refused: {v}");
    assert!(
        desc(&v).contains("the question waiting now is Maeoni's"),
        "{v}"
    );
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("damage: 5"), "{}", desc(&b));
    public(&h.run(MAEONI, false, answer(&listed)).await);
    let b = h.run(STRANGER, false, match_sub("board", vec![])).await;
    assert!(desc(&b).contains("damage: 6"), "{}", desc(&b));
    // Coal claims the win; Maeoni's listed confirm ends the match, and the
    // same interaction delivered again answers as its first run did (the
    // match check had refused it: the match had ended).
    let claim = match_sub(
        "end",
        vec![
            opt("winner", &format!("<@{}>", COAL.0)),
            opt("reason", "I win"),
        ],
    );
    public(&h.run(COAL, false, claim).await);
    let confirm = confirm_listed(&h.post(&ask).await);
    let first = as_member(answer(&confirm), MAEONI.0, MAEONI.1, PLAYER_PERMISSIONS);
    h.post(&first).await;
    let token = first["token"].as_str().unwrap().to_string();
    let shown = h.fake.delivered(&token).await.as_response();
    assert!(!ephemeral(&shown), "the end confirmed: {shown}");
    let mut again = first.clone();
    again["token"] = json!("retried-token");
    h.post(&again).await;
    let replayed = h.fake.delivered("retried-token").await.as_response();
    assert_eq!(title(&replayed), title(&shown), "{replayed}");
    h.server.stop().await.unwrap();
}

/// A board of Maeoni's guards with names of `long` characters or so: 30 of
/// them, enough for a board of more than one page.
fn long_guards_board() -> String {
    let mut guards = String::new();
    for n in 0..30 {
        guards.push_str(&format!(
            "      - {{ name: \"Guardian {n:02} of the Extremely Long and Winding Road Through the Valley of Very Long Names Indeed\", attack: 1, life: 3, abilities: [Unit Guard] }}\n"
        ));
    }
    format!(
        "game: ashes\nturn: Coal\nplayers:\n  - name: Coal\n    phoenixborn: {{ name: Coal Roarkwin, life: 15 }}\n    units:\n      - {{ name: Hammer Knight, attack: 3, life: 3 }}\n  - name: Maeoni\n    phoenixborn: {{ name: Maeoni Viper, life: 20 }}\n    units:\n      - {{ name: Mist Spirit, attack: 1, life: 1 }}\n{guards}"
    )
}

/// A paged `/match board` keeps its line breaks and its YAML fence on every
/// page (every page of a reply longer than one page came out as one line,
/// its fence flattened; found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paged_board_keeps_its_lines_and_fences_on_every_page() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let board = long_guards_board();
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", &board)]))
            .await,
    );
    let first = h.run(STRANGER, false, match_sub("board", vec![])).await;
    public(&first);
    let next = buttons(&first)
        .into_iter()
        .find(|(_, id)| id.starts_with("page:") && id.ends_with(":1"))
        .map(|(_, id)| id)
        .unwrap_or_else(|| panic!("the board is paged: {first}"));
    let second = h.post(&button(&next)).await;
    assert_eq!(
        second["type"], 7,
        "a page turn updates the message: {second}"
    );
    let pages = [desc(&first), desc(&second)];
    for page in &pages {
        assert_eq!(
            page.matches("```").count() % 2,
            0,
            "unbalanced fence: {page}"
        );
        assert!(page.lines().count() > 10, "one line: {page}");
    }
    assert!(pages[1].starts_with("```yaml\n"), "{}", pages[1]);
    let all = pages.join("\n");
    for n in [0, 14, 15, 29] {
        assert!(
            all.contains(&format!("Guardian {n:02} of")),
            "guard {n} lost: {all}"
        );
    }
    h.server.stop().await.unwrap();
}

/// Answers too long for an autocomplete value (a guard's 95-character
/// name) are offered all the same, as their number at the question's
/// version, and answer it (they were left out while the ruling's footer
/// said to pick them from this list; found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_answers_are_offered_and_answer_by_their_number() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let board = long_guards_board();
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", &board)]))
            .await,
    );
    let play = "attack unit \"Mist Spirit\" with Hammer Knight";
    let played = h
        .run(COAL, false, match_sub("play", vec![opt("text", play)]))
        .await;
    public(&played);
    let ask = as_member(
        match_autocomplete("answer", "choice", ""),
        MAEONI.0,
        MAEONI.1,
        PLAYER_PERMISSIONS,
    );
    let v = h.post(&ask).await;
    assert_eq!(v["type"], 8, "{v}");
    let choices: Vec<(String, String)> = v["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (s("name"), s("value"))
        })
        .collect();
    for (name, value) in &choices {
        assert!(
            name.chars().count() <= 100 && value.chars().count() <= 100,
            "{v}"
        );
    }
    let (name, value) = choices
        .iter()
        .find(|(n, _)| n.contains("Guardian 02 of"))
        .unwrap_or_else(|| panic!("the long answer is offered: {v}"));
    assert!(name.ends_with('…'), "{name}");
    let answered = h
        .run(
            MAEONI,
            false,
            match_sub("answer", vec![opt("choice", value)]),
        )
        .await;
    public(&answered);
    let shown = format!("{}\n{}", title(&answered), desc(&answered));
    assert!(shown.contains("Guardian 02"), "{shown}");
    assert!(!shown.contains("Guardian 01 of"), "{shown}");
    h.server.stop().await.unwrap();
}

/// A log page whose notes alone exceed a message is still one message,
/// each event on its line (cut to fit): it was paged within the log's own
/// pages, "log page 1/2" above and "Page 1 of 2" with its own Next below
/// (found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_page_of_long_notes_is_one_message() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let long = "lorem ipsum dolor sit amet. ".repeat(35);
    for n in 0..11 {
        let text = format!("note {n} {long}");
        public(
            &h.run(COAL, false, match_sub("note", vec![opt("text", &text)]))
                .await,
        );
    }
    let page = json!({"name": "page", "type": 4, "value": 1});
    let v = h.run(STRANGER, false, match_sub("log", vec![page])).await;
    public(&v);
    assert!(title(&v).contains("log page 1/2"), "{}", title(&v));
    let ids = buttons(&v);
    assert!(
        ids.iter().all(|(_, id)| !id.starts_with("page:")),
        "no pager within a log page: {ids:?}"
    );
    let d = desc(&v);
    assert!(d.chars().count() <= 4096, "{}", d.chars().count());
    // Ten events a page: the first nine notes at least (the start may count).
    for n in 0..9 {
        let line = d
            .lines()
            .find(|l| l.contains(&format!("note {n} lorem")))
            .unwrap_or_else(|| panic!("note {n} is on the page: {d}"));
        assert!(line.ends_with('…'), "{line}");
    }
    h.server.stop().await.unwrap();
}

/// A member whose permissions are exactly Administrator ("8") is a
/// moderator: Discord grants an administrator every permission (such a
/// member was refused a moderator's actions; found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_administrator_is_a_moderator() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let setup = || match_sub("setup", vec![opt("board", BOARD)]);
    let stranger = as_member(setup(), STRANGER.0, STRANGER.1, PLAYER_PERMISSIONS);
    let v = followed(&h, &stranger).await;
    assert!(ephemeral(&v), "a stranger is refused: {v}");
    let admin = as_member(setup(), STRANGER.0, STRANGER.1, "8");
    let v = followed(&h, &admin).await;
    public(&v);
    h.server.stop().await.unwrap();
}

/// `/match end winner:` naming a member without a seat is refused naming
/// them as a mention, with the seats (it said "unknown player '1300…303'";
/// found by an outside tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_winner_without_a_seat_is_named_with_the_seats() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    let v = h
        .run(COAL, false, end_with_winner(STRANGER.0, "concession"))
        .await;
    assert!(ephemeral(&v), "{v}");
    let d = desc(&v);
    assert!(
        d.contains(&format!("<@{}> does not play", STRANGER.0)),
        "{d}"
    );
    assert!(
        d.contains(&format!("seat 1 <@{}>", COAL.0))
            && d.contains(&format!("seat 2 <@{}>", MAEONI.0)),
        "{d}"
    );
    h.server.stop().await.unwrap();
}

/// A board field too long for an autocomplete value (a guard's long name
/// in its path) is offered as its short reference, which `adjust`
/// resolves (it was left out of the list).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_fields_are_offered_as_references_that_adjust_resolves() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let board = long_guards_board();
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", &board)]))
            .await,
    );
    let ask = as_member(
        match_autocomplete("adjust", "field", "Guardian 27"),
        JUDGE.0,
        JUDGE.1,
        MODERATOR_PERMISSIONS,
    );
    let v = h.post(&ask).await;
    assert_eq!(v["type"], 8, "{v}");
    let choices = v["data"]["choices"].as_array().cloned().unwrap_or_default();
    let field = choices
        .iter()
        .filter(|c| c["value"].as_str().is_some_and(|s| s.contains('~')))
        .find(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.contains("Guardian 27") && n.ends_with(".life"))
        })
        .unwrap_or_else(|| panic!("the long field is offered, its end shown: {v}"));
    let (name, value) = (
        field["name"].as_str().unwrap(),
        field["value"].as_str().unwrap(),
    );
    assert!(
        name.chars().count() <= 100 && value.chars().count() <= 100,
        "{v}"
    );
    let adjust = match_sub(
        "adjust",
        vec![
            opt("field", value),
            opt("value", "5"),
            opt("reason", "test"),
        ],
    );
    let done = h.run(JUDGE, true, adjust).await;
    public(&done);
    let shown = desc(&done);
    assert!(shown.contains("Guardian 27"), "{shown}");
    h.server.stop().await.unwrap();
}

/// A play's continuation too long for an autocomplete value (a long unit
/// name typed before it) is offered as its short reference, which the
/// play resolves to the whole text (it was left out of the list); a
/// reference nothing was offered for is refused, nothing recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_plays_are_offered_as_references_that_play_resolves() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let board = long_guards_board();
    public(
        &h.run(JUDGE, true, match_sub("setup", vec![opt("board", &board)]))
            .await,
    );
    let typed = "attack Guardian 27 of the Extremely Long and Winding Road Through the Valley of Very Long Names Indeed with Ham";
    let ask = match_autocomplete("play", "text", typed);
    let v = h
        .post(&as_member(ask, COAL.0, COAL.1, PLAYER_PERMISSIONS))
        .await;
    assert_eq!(v["type"], 8, "{v}");
    let choices = v["data"]["choices"].as_array().cloned().unwrap_or_default();
    let play = choices
        .iter()
        .find(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.ends_with("Hammer Knight"))
        })
        .unwrap_or_else(|| panic!("the long continuation is offered, its end shown: {v}"));
    let value = play["value"].as_str().unwrap();
    assert!(value.contains('~') && value.chars().count() <= 100, "{v}");
    let played = h
        .run(COAL, false, match_sub("play", vec![opt("text", value)]))
        .await;
    public(&played);
    let shown = format!("{} {}", title(&played), desc(&played));
    assert!(
        shown.contains("Guardian 27") && shown.contains("Hammer Knight"),
        "{shown}"
    );
    // A reference no list offered: refused, nothing recorded.
    let forged = format!("attack Guardian 27 of the Extremely Lon~{:016x}", 42);
    let refused = h
        .run(COAL, false, match_sub("play", vec![opt("text", &forged)]))
        .await;
    assert!(ephemeral(&refused), "{refused}");
    assert!(desc(&refused).contains("no longer kept"), "{refused}");
    h.server.stop().await.unwrap();
}

/// What an interaction finally showed: its response, or a deferred one's
/// edit or follow-up.
async fn followed(h: &Harness, payload: &Value) -> Value {
    let v = h.post(payload).await;
    if v["type"] != 5 {
        return v;
    }
    let token = payload["token"].as_str().unwrap();
    h.fake.delivered(token).await.as_response()
}

/// A user's words in a match's messages show as typed, in the embeds and
/// in the decision notice (message content, which Discord previews links
/// in): a claimed win's reason holding a web address, bold and a spoiler
/// (an outside tester's) renders none of them, the notice carries
/// SUPPRESS_EMBEDS and still pings its one player by mention; a unit named
/// with a web address is refused at setup, as a card's name is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_words_show_as_typed_in_every_match_message() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    let linked = BOARD.replace("Mist Spirit", "Free Nitro https://evil.example/claim");
    let v = h
        .run(JUDGE, true, match_sub("setup", vec![opt("board", &linked)]))
        .await;
    refused(&v, "web address");
    h.run(JUDGE, true, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    let reason = "I won https://evil.example/p **bold** ||spoil||";
    let (v, token) = h.run_token(COAL, end_with_winner(COAL.0, reason)).await;
    public(&v);
    let ping = h.fake.ping(&token).await.expect("Maeoni is pinged");
    let content = ping["content"].as_str().unwrap_or_default();
    assert!(content.starts_with(&format!("<@{}>", MAEONI.0)), "{ping}");
    assert!(
        content.contains("I won https"),
        "the reason is there: {ping}"
    );
    assert_eq!(ping["flags"].as_u64().unwrap_or(0) & 4, 4, "{ping}");
    let board = h.run(STRANGER, false, match_sub("board", vec![])).await;
    for shown in [content, desc(&v).as_str(), desc(&board).as_str()] {
        for live in ["https://", "**bold**", "||spoil||"] {
            assert!(!shown.contains(live), "`{live}` renders in: {shown}");
        }
    }
    assert!(desc(&board).contains("I won"), "{}", desc(&board));
    h.server.stop().await.unwrap();
}

/// Discord refusing the edit of a deferred reply for a while (500, then a
/// 429 with its documented body) does not lose the reply: the edit is
/// tried again until it goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_edit_of_a_deferred_reply_is_tried_again() {
    let h = Harness::start().await;
    h.fake.recorded.lock().unwrap().refuse_edits = [500, 429].into();
    let v = h
        .run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    public(&v);
    assert!(desc(&v).contains(&format!("seat 1: <@{}>", COAL.0)), "{v}");
    assert_eq!(h.fake.recorded.lock().unwrap().edit_tries, 3);
}

/// An edit Discord keeps refusing is reported to the user: the deferred
/// message is replaced by the ephemeral internal error with its id, not
/// left "thinking…" forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_refused_for_good_is_reported_with_an_error_id() {
    let h = Harness::start().await;
    h.fake.recorded.lock().unwrap().refuse_edits = [500, 502, 429, 503, 404].into();
    let v = h
        .run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    assert!(ephemeral(&v), "{v}");
    assert!(desc(&v).contains("report error id `E"), "{v}");
    let rec = h.fake.recorded.lock().unwrap();
    assert_eq!(rec.edit_tries, 4, "tried four times, then reported");
    assert!(rec.edits.is_empty());
}

/// A note changes neither the board nor whose turn it is: it pings nobody
/// (each note by one player during the other's turn pinged the other
/// "your turn" again; 200 notes sent 129 pings, found by an outside
/// tester).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_note_pings_nobody() {
    let h = Harness::start().await;
    h.run(COAL, false, match_start("ashes", &[COAL, MAEONI]))
        .await;
    h.run(COAL, false, match_sub("setup", vec![opt("board", BOARD)]))
        .await;
    // The board waits on Maeoni's consent: Coal's note is not her news.
    let (v, token) = h
        .run_token(
            COAL,
            match_sub("note", vec![opt("text", "waiting on Maeoni")]),
        )
        .await;
    public(&v);
    assert_eq!(h.fake.ping(&token).await, None, "a note pinged Maeoni");
    h.server.stop().await.unwrap();
}

/// `GET /healthz` asks the match database: "ok" while it answers; once
/// the SQLite file is gone with its folder (a connection keeps answering
/// from a deleted file, whose writes the next start loses), 503 and
/// "unreachable", naming neither the file nor the URL. It said "ok"
/// whatever the database did.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_asks_the_database_and_says_when_it_is_unreachable() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("health-check.db");
    let h = Harness::on(&format!("sqlite://{}", file.display())).await;
    let (code, v, body) = health(&h).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(v["status"], "ok", "{body}");
    assert_eq!(v["database"], "ok", "{body}");
    assert!(v["passages"].as_u64().unwrap_or(0) > 0, "{body}");
    drop(dir);
    assert!(!file.exists());
    let (code, v, body) = health(&h).await;
    assert_eq!(code, 503, "{body}");
    assert_eq!(v["status"], "unavailable", "{body}");
    assert_eq!(v["database"], "unreachable", "{body}");
    for secret in ["health-check", "sqlite", "/tmp"] {
        assert!(!body.contains(secret), "{secret} in {body}");
    }
    h.server.stop().await.unwrap();
}

/// `GET /healthz`: its status code, its body read as JSON, and as text.
async fn health(h: &Harness) -> (u16, Value, String) {
    let url = format!("http://{}/healthz", h.server.addr);
    let r = h.client.get(&url).send().await.unwrap();
    let code = r.status().as_u16();
    let body = r.text().await.unwrap();
    let v: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    (code, v, body)
}
