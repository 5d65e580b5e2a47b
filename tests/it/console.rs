//! `arbiter console` driven by a piped script, and `arbiter commands --json`
//! checked against Discord's limits.
//!
//! The scripts run through the binary. Where a shared build directory holds
//! another branch's `arbiter` (parallel development), the same scripts run
//! in-process through `bot::console::run`, which is all `arbiter console` does.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};

use arbiter::app::App;
use arbiter::bot::{Bot, BotConfig};
use serde_json::Value;

fn bot() -> &'static Bot {
    static BOT: OnceLock<Bot> = OnceLock::new();
    BOT.get_or_init(|| {
        arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let app = App::load(&root.join("rules_data"), &[]).expect("rule data");
        Bot::new(Arc::new(app), BotConfig::default())
    })
}

/// Whether the built binary is this branch's (it has the console).
fn binary_is_current() -> bool {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("--help")
        .output();
    let ok = out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("console"));
    if !ok {
        eprintln!(
            "note: the arbiter binary in the shared build directory is another branch's; running in-process"
        );
    }
    ok
}

fn arbiter(args: &[&str], stdin: &str) -> (i32, String, String) {
    if !binary_is_current() {
        return in_process(args, stdin);
    }
    run_binary(args, stdin)
}

fn in_process(args: &[&str], stdin: &str) -> (i32, String, String) {
    match args {
        ["console"] => {
            let mut out = Vec::new();
            let bad =
                arbiter::bot::console::run(bot(), &mut stdin.as_bytes(), &mut out, false, false)
                    .unwrap();
            (
                if bad == 0 { 0 } else { 2 },
                String::from_utf8(out).unwrap(),
                String::new(),
            )
        }
        ["commands", "--json"] => {
            let v = arbiter::bot::discord::definitions_json(&bot().app);
            (0, serde_json::to_string_pretty(&v).unwrap(), String::new())
        }
        other => panic!("no in-process form of {other:?}"),
    }
}

fn run_binary(args: &[&str], stdin: &str) -> (i32, String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root)
        .env("ARBITER_DATA", format!("{root}/rules_data"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn board_path() -> String {
    format!(
        "{}/examples/ashes/attack-phoenixborn.yaml",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_piped_script_is_answered_in_order() {
    let script = format!(
        "# a comment, then a blank line\n\n\
         /rule query:can an exhausted phoenixborn guard game:ashes\n\
         1\n\
         /rule query:ashes:pass\n\
         /complete query:declare guard game:ashes\n\
         /games\n\
         /help\n\
         /judge file:{}\n\
         /quit\n\
         /games\n",
        board_path()
    );
    let (code, out, err) = arbiter(&["console"], &script);
    assert_eq!(code, 0, "{err}");
    // Replies in the order asked.
    let order = [
        "== Rules: can an exhausted phoenixborn guard ==",
        "== Section: Attack a Unit (only you see this) ==",
        "== Pass ==",
        "ashes:attack-a-unit.3 — Declare a Guard",
        "== Games indexed: 5 ==",
        "== Arbiter — help ==",
    ];
    let mut at = 0;
    for want in order {
        let i = out[at..]
            .find(want)
            .unwrap_or_else(|| panic!("`{want}` missing after byte {at}:\n{out}"));
        at += i + want.len();
    }
    // Piped output keeps **bold** markers rather than ANSI codes.
    assert!(
        out.contains("**Note: A Phoenixborn can guard even if it is exhausted.**"),
        "{out}"
    );
    assert!(!out.contains('\x1b'));
    // The button press showed the whole section.
    assert!(out.contains("`ashes:attack-a-unit.4.2`"), "{out}");
    // /judge read the file.
    assert!(
        out.contains("== Ruling (ashes): the play is legal =="),
        "{out}"
    );
    assert!(
        out.contains("**6.** `ashes:attack-a-phoenixborn.4`\nAnchornaut is unblocked: it deals 1 damage to Maeoni Viper"),
        "{out}"
    );
    // A ruling this long is paged; the pager buttons are listed.
    assert!(out.contains("-- Page 1 of 2"), "{out}");
    assert!(out.contains("] Next ▶"), "{out}");
    // Nothing after /quit was run.
    assert_eq!(out.matches("== Games indexed").count(), 1);
}

#[test]
fn a_multi_part_rule_question_is_answered_part_by_part_on_the_console() {
    let (code, out, err) = arbiter(
        &["console"],
        "/rule query:1) can an exhausted phoenixborn guard 2) can a unit move twice in legion\n",
    );
    assert_eq!(code, 0, "{err}");
    let first = out.find("Part 1 of 2").expect(&out);
    let second = out.find("Part 2 of 2").expect(&out);
    assert!(
        first < out.find("ashes:attack-a-unit.3").expect(&out),
        "{out}"
    );
    assert!(second < out.find("legion:actions.2").expect(&out), "{out}");
}

#[test]
fn a_rule_answer_shows_the_cards_it_names_with_their_card_button() {
    let (code, out, err) = arbiter(
        &["console"],
        "/rule query:does Hammer Knight deal damage when Frostback Bear does not counter\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("🃏 **Hammer Knight** (ashes)"), "{out}");
    let buttons = out.lines().find(|l| l.starts_with("buttons")).expect(&out);
    let n = buttons
        .split('[')
        .find(|b| b.contains("Card: Frostback Bear"))
        .and_then(|b| b.split(']').next())
        .expect(buttons)
        .to_string();
    let (_, out, _) = arbiter(
        &["console"],
        &format!(
            "/rule query:does Hammer Knight deal damage when Frostback Bear does not counter\n{n}\n"
        ),
    );
    assert!(out.contains("attack 2 · life 4"), "the /card reply: {out}");
}

/// What Discord is sent escaped, its web addresses broken (`https:\/\/`),
/// the console prints as typed: a question's title, and a card name in
/// `/card`'s refusal.
#[test]
fn a_users_words_print_as_typed_on_the_console() {
    let (_, out, err) = arbiter(
        &["console"],
        "/rule query:can **exhausted** units guard https://evil.example/claim\n/card name:Free **Nitro** [c]\n",
    );
    assert!(err.is_empty(), "{err}");
    assert!(
        out.contains("== Rules: can **exhausted** units guard https://evil.example/claim =="),
        "{out}"
    );
    assert!(
        out.contains("no card is named 'Free **Nitro** [c]'"),
        "{out}"
    );
    assert!(!out.contains('\\'), "{out}");
}

#[test]
fn schema_and_game_coverage_on_the_console() {
    let (code, out, err) = arbiter(&["console"], "/schema game:ashes\n/games game:ashes\n");
    assert_eq!(code, 0, "{err}");
    // The attached schema is printed fenced, so a pipe can cut it out.
    let start = out
        .find("--- ashes-board.schema.json ---\n")
        .unwrap_or_else(|| panic!("{out}"))
        + "--- ashes-board.schema.json ---\n".len();
    let end = out.find("--- end of ashes-board.schema.json ---").unwrap();
    let schema: Value = serde_json::from_str(&out[start..end]).expect("the file is JSON");
    assert_eq!(schema["properties"]["game"]["const"], "ashes");
    assert!(out.contains("$schema=ashes-board.schema.json"), "{out}");
    // Per passage: executed (with the procedure) or text only.
    assert!(
        out.contains("`ashes:attack-a-unit.4.2` If the target unit counters"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.contains("`ashes:main-actions`") && l.ends_with("text only")),
        "{out}"
    );
}

#[test]
fn judge_without_a_board_reads_it_from_the_following_lines() {
    let script = "/judge game:ashes\ngame: ashes\nplayers: [a, b\n.\n";
    let (code, out, _) = arbiter(&["console"], script);
    assert_eq!(code, 0);
    assert!(out.contains("== Judge a board =="), "{out}");
    assert!(
        out.contains("== Judge: cannot do that (only you see this) =="),
        "{out}"
    );
    // Input that ends mid-paste judges nothing and says why.
    let (code, out, _) = arbiter(&["console"], "/judge\ngame: ashes\nturn: Coal\n");
    assert_eq!(code, 2);
    assert!(
        out.contains("the input ended before the line with only"),
        "{out}"
    );
    assert!(!out.contains("missing field"), "{out}");
}

#[test]
fn bad_lines_are_explained_and_make_the_exit_status_2() {
    let (code, out, _) = arbiter(
        &["console"],
        "rule exhausted\n/frobnicate\n/rule game:ashes\n7\n/rule query:guard\n",
    );
    assert_eq!(code, 2);
    assert!(
        out.contains("error: commands start with `/`: try `/rule query:rule exhausted`"),
        "{out}"
    );
    assert!(out.contains("error: unknown command /frobnicate"), "{out}");
    assert!(out.contains("error: /rule needs query:…"), "{out}");
    assert!(out.contains("no button 7 on the last reply"), "{out}");
    // The good line still ran.
    assert!(out.contains("== Rules: guard =="), "{out}");
}

#[test]
fn misspelt_commands_options_and_subcommands_get_did_you_mean() {
    let script = "/rul query:guard\n/match strat game:ashes\n/rules lsit\n\
                  /rule quer:guard\n/card compelte name:ice\n/frobnicate\n\
                  /match start game:ashes players:alice bob\n\
                  /match start game:ashes player1:alice player2:bob colour:red\n\
                  /rule query:what does guard: mean\n\
                  /games game:Star Wars: Legion\n";
    let (code, out, _) = arbiter(&["console"], script);
    assert_eq!(code, 2);
    for want in [
        "error: unknown command /rul; did you mean /rule? Commands:",
        "error: unknown /match strat; did you mean /match start? Subcommands:",
        "error: unknown /rules lsit; did you mean /rules list? Subcommands:",
        "error: unknown option `quer:`; did you mean query:? The options here: query: game:",
        "error: unknown `/card compelte`; did you mean /card complete?",
        "error: unknown command /frobnicate. Commands:",
        // A mistyped option inside a player's or a game's value is not
        // read as part of it; a question's free text may hold `word:`.
        "error: unknown option `players:` (read inside `game:`'s value `ashes players:alice bob`); did you mean player1:? The options here: game: player1:",
        "error: unknown option `colour:` (read inside `player2:`'s value `bob colour:red`). The options here:",
    ] {
        assert!(out.contains(want), "`{want}` missing:\n{out}");
    }
    assert!(!out.contains("seat 2: bob colour:red"), "{out}");
    assert!(out.contains("== Rules: what does guard: mean =="), "{out}");
    assert!(!out.contains("unknown option `Wars:`"), "{out}");
}

// ---- command definitions against Discord's limits ----

fn is_slash_name(s: &str) -> bool {
    (1..=32).contains(&s.chars().count())
        && s.chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && s.to_lowercase() == s
}

fn text_len(v: &Value, key: &str) -> usize {
    v[key].as_str().map_or(0, |s| s.chars().count())
}

#[test]
fn every_command_declares_where_and_for_whom_it_is_offered() {
    let (code, out, err) = arbiter(&["commands", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let defs: Vec<Value> = serde_json::from_str(&out).expect("JSON array");
    for d in &defs {
        let name = d["name"].as_str().unwrap();
        // Installed to servers (0); guild (0) and the bot's DMs (1), except
        // /match, /rules and /feedback, which keep state per server.
        assert_eq!(
            d["integration_types"],
            serde_json::json!([0]),
            "{name}: {d}"
        );
        let contexts = if matches!(name, "match" | "rules" | "feedback") {
            serde_json::json!([0])
        } else {
            serde_json::json!([0, 1])
        };
        assert_eq!(d["contexts"], contexts, "{name}: {d}");
        // No command is for moderators only: undo of another's play and the
        // like are checked per call (Discord sets permissions per command).
        // /rules is for Manage Server (1 << 5), and checked per call too.
        let permissions = match name {
            "rules" => serde_json::json!("32"),
            _ => Value::Null,
        };
        assert_eq!(
            d["default_member_permissions"], permissions,
            "{name} is hidden from players: {d}"
        );
    }
    // Every command registered is declared (with its access) in the registry.
    for d in &defs {
        let name = d["name"].as_str().unwrap();
        assert!(
            arbiter::bot::commands::find(name).is_some(),
            "{name} is not declared in commands::ALL"
        );
    }
    // A moderator-only command would carry Manage Messages (1 << 13).
    use arbiter::bot::commands::{Audience, Reach};
    use arbiter::bot::discord::with_access;
    let v = serde_json::to_value(with_access(
        serenity::all::CreateCommand::new("mod").description("d"),
        Reach::GuildOnly,
        Audience::Moderators,
    ))
    .unwrap();
    assert_eq!(v["default_member_permissions"], "8192", "{v}");
    assert_eq!(v["contexts"], serde_json::json!([0]), "{v}");
}

#[test]
fn command_definitions_are_within_discords_limits() {
    let (code, out, err) = arbiter(&["commands", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let defs: Vec<Value> = serde_json::from_str(&out).expect("JSON array");
    let slash: Vec<&Value> = defs
        .iter()
        .filter(|d| d["type"].as_u64().unwrap_or(1) == 1)
        .collect();
    let message: Vec<&Value> = defs
        .iter()
        .filter(|d| d["type"].as_u64() == Some(3))
        .collect();
    assert!(slash.len() <= 100 && message.len() <= 5);
    assert_eq!(
        slash
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        [
            "rule", "judge", "games", "schema", "help", "match", "rules", "card", "feedback"
        ]
    );
    assert_eq!(message.len(), 1);
    assert_eq!(message[0]["name"], "Judge this board");
    let mut names = std::collections::HashSet::new();
    for d in &defs {
        let name = d["name"].as_str().unwrap();
        assert!(
            names.insert((d["type"].as_u64().unwrap_or(1), name)),
            "duplicate {name}"
        );
        let mut total = name.chars().count() + text_len(d, "description");
        if d["type"].as_u64() == Some(3) {
            assert!((1..=32).contains(&name.chars().count()));
            assert_eq!(
                text_len(d, "description"),
                0,
                "context-menu commands have no description"
            );
            assert!(d["options"].as_array().is_none_or(|o| o.is_empty()));
            continue;
        }
        assert!(is_slash_name(name), "{name}");
        assert!((1..=100).contains(&text_len(d, "description")), "{name}");
        let options = d["options"].as_array().cloned().unwrap_or_default();
        total += check_options(name, &options, 0);
        assert!(total <= 4000, "{name}: {total} characters");
    }
}

/// Checks a level of options (recursing into subcommands, at most two
/// levels, as Discord allows) and returns the characters it counts.
fn check_options(name: &str, options: &[Value], depth: usize) -> usize {
    assert!(depth <= 2, "{name}: nested too deep");
    assert!(options.len() <= 25, "{name}: {} options", options.len());
    let mut total = 0;
    let mut seen_optional = false;
    for o in options {
        let oname = o["name"].as_str().unwrap();
        assert!(is_slash_name(oname), "{name}.{oname}");
        assert!(
            (1..=100).contains(&text_len(o, "description")),
            "{name}.{oname}"
        );
        total += oname.chars().count() + text_len(o, "description");
        let kind = o["type"].as_u64().unwrap_or(0);
        if kind == 1 || kind == 2 {
            // A subcommand (group): its own options; never "required".
            assert!(!o["required"].as_bool().unwrap_or(false), "{name}.{oname}");
            let inner = o["options"].as_array().cloned().unwrap_or_default();
            if kind == 2 {
                assert!(inner.iter().all(|i| i["type"].as_u64() == Some(1)));
            }
            total += check_options(&format!("{name} {oname}"), &inner, depth + 1);
            continue;
        }
        let required = o["required"].as_bool().unwrap_or(false);
        assert!(
            !(required && seen_optional),
            "{name}: required options come first"
        );
        seen_optional |= !required;
        if let Some(m) = o["max_length"].as_u64() {
            assert!((1..=6000).contains(&m), "{name}.{oname}");
        }
        let choices = o["choices"].as_array().cloned().unwrap_or_default();
        assert!(choices.len() <= 25);
        assert!(
            !o["autocomplete"].as_bool().unwrap_or(false) || choices.is_empty(),
            "autocomplete excludes choices"
        );
        for c in &choices {
            assert!((1..=100).contains(&text_len(c, "name")));
            assert!((1..=100).contains(&text_len(c, "value")));
            total += text_len(c, "name") + text_len(c, "value");
        }
    }
    total
}

// ---- /match on the console (offline, embedded SQLite) ----

const MATCH_BOARD: &str = "\
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

/// A bot whose match database is `console.db` in `dir`.
fn match_bot(dir: &std::path::Path) -> Bot {
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let url = format!("sqlite://{}", dir.join("console.db").display());
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = App::load(&root.join("rules_data"), &[]).expect("rule data");
    Bot::new(
        Arc::new(app),
        BotConfig {
            database_url: Some(url),
            ..BotConfig::default()
        },
    )
}

fn session_run(bot: &Bot, user: &str, moderator: bool, script: &str) -> (usize, String) {
    let session = arbiter::bot::console::Session {
        user: user.into(),
        moderator,
        guild: None,
    };
    let mut out = Vec::new();
    let bad = arbiter::bot::console::run_as(
        bot,
        &session,
        &mut script.as_bytes(),
        &mut out,
        false,
        false,
    )
    .unwrap();
    (bad, String::from_utf8(out).unwrap())
}

#[test]
fn a_match_script_is_played_offline() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let play = "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by maeoni";
    let script = format!(
        "/match start game:ashes player1:coal player2:maeoni\n\
         /as judge moderator\n/match setup\n{MATCH_BOARD}.\n/as coal\n\
         /match complete attack unit\n\
         /match play {play}\n\
         /as maeoni\n1\n/as coal\n\
         /match board\n\
         /match log page:1\n\
         /match undo\n\
         /match play text:{play}\n\
         /as maeoni\n1\n/as coal\n\
         /match export\n\
         /match frobnicate\n"
    );
    let (bad, out) = session_run(&bot, "coal", false, &script);
    assert_eq!(bad, 1, "only the unknown subcommand is bad:\n{out}");
    for want in [
        "== Match #1 (ashes) ==",
        "seat 1: coal",
        "== Match: starting board ==",
        "attack unit Mist Spirit",
        // `agreed by maeoni` asks Maeoni; her confirmation records the play.
        "proposal #2 recorded: nothing changes unless it is confirmed",
        "== Answer #3 recorded (ashes): the play is legal ==",
        "`ashes:attack-a-unit",
        "log page 1/1",
        // Coal's undo takes back his proposal with Maeoni's confirmation,
        // in one step (it took back her confirmation alone first).
        "== Undone: event #2 ==",
        "proposal #5 recorded",
        "== Answer #6 recorded (ashes): the play is legal ==",
        "== Match export ==",
        "--- end of ",
        "error: unknown /match frobnicate",
    ] {
        assert!(out.contains(want), "`{want}` missing:\n{out}");
    }
    // The export is re-importable: it holds the board.
    assert!(out.contains("Maeoni Viper"), "{out}");

    // A stranger may not undo Coal's play; Maeoni, who agreed to it, may;
    // a moderator ends the match.
    let (_, out) = session_run(&bot, "eve", false, "/match undo\n");
    assert!(out.contains("(only you see this)"), "{out}");
    assert!(!out.contains("Undone"), "{out}");
    let (_, out) = session_run(&bot, "maeoni", false, "/match undo\n");
    assert!(out.contains("== Undone: event #6 =="), "{out}");
    let (_, out) = session_run(&bot, "judge", true, "/match end\n");
    assert!(out.contains("ended"), "{out}");
    let (_, out) = session_run(&bot, "coal", false, &format!("/match play {play}\n"));
    assert!(
        out.contains("(only you see this)") && out.contains("ended"),
        "{out}"
    );
}

/// The ids a `/rule` answer cites, in order.
fn cited_ids(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("**")?.split_once(". `")?.1.split_once('`'))
        .map(|(id, _)| id.to_string())
        .collect()
}

#[test]
fn rule_in_a_match_channel_searches_the_matchs_game() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let ask = "/rule query:can I pass on my very first turn of the action phase?\n";
    const CAVEAT: &str = "Twilight Imperium 4 rules: this channel's match";
    // No match yet (and no match database opened by `/rule`).
    let (_, out) = session_run(&bot, "coal", false, ask);
    assert!(!out.contains("this channel's match"), "{out}");
    assert!(
        cited_ids(&out).iter().any(|id| !id.starts_with("ti4:")),
        "{out}"
    );
    assert!(!dir.path().join("console.db").exists());

    let script = format!("/match start game:ti4 player1:coal player2:maeoni player3:cleo\n{ask}");
    let (bad, out) = session_run(&bot, "coal", false, &script);
    assert_eq!(bad, 0, "{out}");
    let answer = out.split("== Rules:").nth(1).expect("a /rule answer");
    assert!(answer.contains(CAVEAT), "{answer}");
    let ids = cited_ids(answer);
    assert!(
        !ids.is_empty() && ids.iter().all(|id| id.starts_with("ti4:")),
        "{answer}"
    );

    // `game:` and a game named in the question win; no caveat then.
    let script = "/rule query:can I pass on my very first turn? game:ashes\n\
                  /rule query:can I pass in magewinds\n";
    let (_, out) = session_run(&bot, "maeoni", false, script);
    assert!(!out.contains("this channel's match"), "{out}");
    let mut answers = out.split("== Rules:").skip(1);
    let ashes = cited_ids(answers.next().unwrap());
    let magewinds = cited_ids(answers.next().unwrap());
    assert!(
        !ashes.is_empty() && ashes.iter().all(|id| id.starts_with("ashes:")),
        "{out}"
    );
    assert!(
        magewinds.iter().all(|id| id.starts_with("magewinds:")),
        "{out}"
    );

    // Once the match has ended, the channel has no game again.
    let (_, out) = session_run(&bot, "judge", true, &format!("/match end\n{ask}"));
    assert!(out.contains("ended"), "{out}");
    assert!(!out.contains("this channel's match"), "{out}");
}

/// The lines of one completion reply (after the echoed typed text).
fn completion(out: &str, typed: &str) -> Vec<String> {
    out.split(&format!("{typed}\n"))
        .nth(1)
        .unwrap_or_default()
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn completion_in_a_match_channel_offers_the_matchs_game_first() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let script = "/complete query:pass\n/card complete name:ar\n";
    let (_, before) = session_run(&bot, "coal", false, script);
    let rules = completion(&before, "pass");
    assert!(rules[0].starts_with("ashes:"), "{before}");
    let cards = completion(&before, "ar");
    assert!(cards[0].ends_with("(ashes)"), "{before}");

    let start = "/match start game:grand-archive player1:coal player2:maeoni\n";
    let (bad, out) = session_run(&bot, "coal", false, &format!("{start}{script}"));
    assert_eq!(bad, 0, "{out}");
    // The match's game first, then the other games fill the list.
    let rules = completion(&out, "pass");
    let split = rules
        .iter()
        .position(|l| !l.starts_with("grand-archive:"))
        .expect("other games after the match's");
    assert!(split > 0, "{out}");
    assert!(
        rules[split..]
            .iter()
            .all(|l| !l.starts_with("grand-archive:")),
        "{out}"
    );
    assert!(rules.iter().any(|l| l.starts_with("ashes:pass ")), "{out}");
    let cards = completion(&out, "ar");
    assert!(cards[0].ends_with("(grand-archive)"), "{out}");
    assert!(cards.iter().any(|c| c.ends_with("(ashes)")), "{out}");

    // `game:` and a game's id typed as a prefix decide alone.
    let script = "/complete query:pass game:ti4\n/complete query:ashes:pass\n";
    let (_, out) = session_run(&bot, "coal", false, script);
    let ti4 = completion(&out, "pass");
    assert!(
        !ti4.is_empty() && ti4.iter().all(|l| l.starts_with("ti4:")),
        "{out}"
    );
    // The last reply (a typed value that is a choice is not repeated).
    let ashes: Vec<&str> = out
        .trim_end()
        .rsplit("\n\n")
        .next()
        .unwrap()
        .lines()
        .collect();
    assert!(ashes.iter().any(|l| l.starts_with("ashes:pass ")), "{out}");
    assert!(ashes.iter().all(|l| l.starts_with("ashes:")), "{out}");
}

#[test]
fn the_console_binary_takes_user_and_moderator_flags() {
    if !binary_is_current() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("flags.db").display());
    let root = env!("CARGO_MANIFEST_DIR");
    let run = |args: &[&str], script: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("console")
            .args(args)
            .current_dir(dir.path())
            .env("ARBITER_DATA", format!("{root}/rules_data"))
            .env("DATABASE_URL", &url)
            .env_remove("ARBITER_CONSOLE_USER")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    // Default user `local`; the match is kept in the database between runs.
    let (code, out) = run(&[], "/match start game:ashes player1:local player2:ben\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("seat 1: local"), "{out}");
    let (_, out) = run(&["--user", "eve"], "/match end\n");
    assert!(out.contains("(only you see this)"), "{out}");
    let (_, out) = run(&["--user", "eve", "--moderator"], "/match end\n");
    assert!(out.contains("ended") && !out.contains("only you"), "{out}");
    assert!(
        !dir.path().join("arbiter.db").exists(),
        "DATABASE_URL was used"
    );
}

/// Feedback on `/rule` answers, through the console's dispatcher (the
/// Discord transports share it): 👍 / 👎 buttons on every answer, "the right
/// rule is…" with `/feedback rule:`, the moderators' summary, counts in the
/// metrics, and the export in the evaluation file's format.
#[test]
fn feedback_on_rule_answers_is_kept_per_server_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let (bad, out) = session_run(
        &bot,
        "coal",
        false,
        "/rule query:can an exhausted phoenixborn guard\n",
    );
    assert_eq!(bad, 0, "{out}");
    let buttons = out.lines().find(|l| l.starts_with("buttons")).expect(&out);
    let up = buttons
        .split('[')
        .find(|b| b.contains("👍"))
        .and_then(|b| b.split(']').next())
        .expect(buttons)
        .to_string();
    assert!(buttons.contains("👎 Wrong answer"), "{buttons}");
    let script = format!(
        "/rule query:can an exhausted phoenixborn guard\n{up}\n/rule query:when can i pass in ti4 with two strategy cards\n/feedback rule:ti4:action-phase.4.1\n/feedback rule:ti4:nope\n/feedback rule:ti4:action-phase.44\n/feedback summary\n"
    );
    let (_, out) = session_run(&bot, "coal", false, &script);
    assert!(
        out.contains("Recorded 👍 for “can an exhausted phoenixborn guard”"),
        "{out}"
    );
    assert!(out.contains("Recorded: `ti4:action-phase.4.1` answers “when can i pass in ti4 with two strategy cards”"), "{out}");
    assert!(
        out.contains("no indexed rule has the id `ti4:nope`"),
        "{out}"
    );
    // A near miss is told the ids it may mean, as `/rule` tells them.
    assert!(
        out.contains(
            "no indexed rule has the id `ti4:action-phase.44`. Did you mean `ti4:action-phase.4`"
        ),
        "{out}"
    );
    assert!(
        out.contains("the feedback summary is for moderators"),
        "{out}"
    );
    let (_, out) = session_run(&bot, "judge", true, "/feedback summary\n");
    assert!(out.contains("👍 1 · 👎 0 · right rule given 1"), "{out}");
    let metrics = arbiter::metrics::encode();
    assert!(
        metrics.contains("arbiter_feedback_total{verdict=\"up\"}"),
        "{metrics}"
    );
    assert!(
        !metrics.contains("phoenixborn"),
        "no user text in the metrics"
    );

    let export = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["feedback", "export"])
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("console.db").display()),
        )
        .env(
            "ARBITER_DATA",
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data"),
        )
        .output()
        .unwrap();
    if binary_is_current() {
        let yaml = String::from_utf8_lossy(&export.stdout);
        assert!(
            export.status.success(),
            "{}",
            String::from_utf8_lossy(&export.stderr)
        );
        assert!(yaml.contains("- q: \"can an exhausted phoenixborn guard\"\n  game: \"ashes\"\n  ask_game: true\n  expect: [\"ashes:attack-a-unit.3\"]\n  source: \"feedback\""), "{yaml}");
        assert!(
            yaml.contains("expect: [\"ti4:action-phase.4.1\"]"),
            "{yaml}"
        );
    }
}

/// The paths of the pictures a transcript says it wrote.
fn picture_paths(out: &str) -> Vec<std::path::PathBuf> {
    out.lines()
        .filter_map(|l| l.strip_prefix("picture: "))
        .filter_map(|l| l.rsplit_once(" (").map(|(p, _)| p.into()))
        .collect()
}

#[test]
fn the_console_writes_the_board_picture_and_a_picture_button_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let play = "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by maeoni";
    let script = format!(
        "/match start game:ashes player1:coal player2:maeoni\n\
         /as judge moderator\n/match setup\n{MATCH_BOARD}.\n/as coal\n\
         /match play {play}\n\
         /as maeoni\n1\n/as coal\n\
         /match note text:the judge looked\n"
    );
    // Coal's agreed-by play asks Maeoni first; her confirmation records it.
    let (bad, out) = session_run(&bot, "coal", false, &script);
    assert_eq!(bad, 0, "{out}");
    // The setup's board and the play's board after it: written, with alt text.
    let written = picture_paths(&out);
    assert_eq!(written.len(), 2, "{out}");
    for p in &written {
        let bytes = std::fs::read(p).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", p.display());
    }
    assert!(out.contains("alt: Ashes Reborn board"), "{out}");
    // A note carries no picture but a button that draws the board now.
    let last = out.rsplit("== ").next().unwrap_or_default();
    assert!(last.contains("Picture"), "{last}");
    assert!(!last.contains("picture: "), "{last}");
    let n = last
        .split('[')
        .filter_map(|b| b.split_once("] "))
        .find(|(_, label)| label.starts_with("Picture"))
        .map(|(n, _)| n.to_string())
        .expect("a Picture button");
    let (_, out) = session_run(
        &bot,
        "coal",
        false,
        &format!("/match note text:again\n{n}\n"),
    );
    assert!(out.contains("== Board of match #1 =="), "{out}");
    assert_eq!(picture_paths(&out).len(), 1, "{out}");
}

/// `match pictures off`: replies stop carrying the board's picture and
/// offer the Picture button instead; only the match's players or a
/// moderator may switch it; `on` brings the pictures back.
#[test]
fn pictures_can_be_switched_off_for_a_match_and_a_button_stands_in() {
    let dir = tempfile::tempdir().unwrap();
    let bot = match_bot(dir.path());
    let script = format!(
        "/match start game:ashes player1:coal player2:maeoni\n\
         /as judge moderator\n/match setup\n{MATCH_BOARD}.\n/as coal\n\
         /match pictures state:off\n\
         /match board\n"
    );
    let (bad, out) = session_run(&bot, "coal", false, &script);
    assert_eq!(bad, 0, "{out}");
    // Only the setup drew a picture; after `off` the board offers a button.
    assert_eq!(picture_paths(&out).len(), 1, "{out}");
    let last = out.rsplit("== ").next().unwrap_or_default();
    assert!(last.contains("board pictures are off"), "{last}");
    assert!(last.contains("Picture"), "{last}");
    let (_, out) = session_run(&bot, "judy", false, "/match pictures state:on\n");
    assert!(
        out.contains("only the match's players or a moderator"),
        "a bystander may not switch it: {out}"
    );
    let (bad, out) = session_run(
        &bot,
        "maeoni",
        false,
        "/match pictures state:on\n/match board\n",
    );
    assert_eq!(bad, 0, "{out}");
    assert_eq!(picture_paths(&out).len(), 2, "on again: {out}");
}

/// A value the console takes for a declared option.
fn sample(o: &arbiter::bot::commands::Opt) -> String {
    use arbiter::bot::commands::{Choices, Kind};
    match (o.kind, o.choices) {
        (Kind::Text, Choices::Fixed(values)) => values[0].to_string(),
        (Kind::Text, Choices::DocumentKinds) => "rules".into(),
        (Kind::Text, Choices::Games) => "ashes".into(),
        (Kind::Text, Choices::Free) => "x".into(),
        (Kind::Integer, _) => "1".into(),
        (Kind::User, _) => "maeoni".into(),
        (Kind::File { .. }, _) => format!("{}/README.md", env!("CARGO_MANIFEST_DIR")),
    }
}

/// The command a console line with every required option becomes.
fn typed(path: &str, options: &[arbiter::bot::commands::Opt]) -> arbiter::bot::Command {
    let line: Vec<String> = std::iter::once(path.to_string())
        .chain(
            options
                .iter()
                .filter(|o| o.required)
                .map(|o| format!("{}:{}", o.name, sample(o))),
        )
        .collect();
    let line = line.join(" ");
    match arbiter::bot::console::parse(&line) {
        Ok(arbiter::bot::console::Line::Request(arbiter::bot::Input::Command(c))) => c,
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn every_declared_command_and_subcommand_is_reachable_from_the_console() {
    use arbiter::bot::commands::{ALL, Body, title};
    let mut reached = 0;
    for spec in ALL {
        assert_ne!(title(spec.name), "Arbiter", "{} has no title", spec.name);
        match spec.body {
            Body::Options { options, .. } => {
                let c = typed(&format!("/{}", spec.name), options);
                assert_eq!(c.name(), spec.name);
                reached += 1;
            }
            Body::Subs(subs) => {
                for sub in subs {
                    let c = typed(&format!("/{} {}", spec.name, sub.name), sub.options);
                    let full = format!("{} {}", spec.name, sub.name);
                    // `/feedback`'s requests are named by the command alone.
                    assert!(c.name() == full || c.name() == spec.name, "{full}: {c:?}");
                    // Every subcommand has its row in the deferral table (it
                    // compiles) and its requests carry the command's title.
                    let _ = arbiter::bot::commands::defer(&c);
                    assert_eq!(title(c.name()), spec.title, "{full}");
                    reached += 1;
                }
            }
            // On a message's menu: Discord only.
            Body::Message => {}
        }
    }
    assert!(reached >= 28, "{reached}");
    // The help lists every command that declares a paragraph, in order.
    let help = arbiter::bot::commands::help_body();
    for spec in ALL.iter().filter(|s| !s.help.is_empty()) {
        assert!(help.contains(spec.help), "{}", spec.name);
    }
}

/// A file over 5 MB given to the console is refused as the CLI and
/// Discord refuse it, in exact bytes and by how much it is over ("is
/// larger than 5 MB; refused" said neither; found by an outside tester).
#[test]
fn a_file_over_the_limit_is_refused_in_exact_bytes_on_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.md");
    let limit = arbiter::corpus::import::MAX_IMPORT_BYTES;
    std::fs::write(&path, "a".repeat(limit + 7)).unwrap();
    let (_, out, _) = arbiter(
        &["console"],
        &format!("/rules add file:{} game:ashes kind:house\n", path.display()),
    );
    assert!(
        out.contains("is 5,242,887 bytes, 7 bytes over the limit of 5 MB (5,242,880 bytes)"),
        "{out}"
    );
}
