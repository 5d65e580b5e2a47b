//! Every registered game engine through match tracking: each example board
//! in `examples/<game>/` is set up as a match (without its play), its play
//! (or each of its `plays`, one after another) is made through the service,
//! and the outcome must equal judging the whole document at once; the
//! stored log must replay to the stored board. This covers each engine as it
//! lands, and the contract that a ruling's `state` plus a new play is again
//! a board document.

use crate::store_common;

use std::path::PathBuf;

use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::engine::{self, document as board};
use arbiter::store::Store;
use serde_json::Value;

fn examples(game: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The user who may make `play` on `board`: the seat the engine's own name
/// resolution gives (seat 1 when the play names nobody).
fn actor(engine: &dyn engine::GameEngine, board: &Value, play: &Value) -> String {
    let seat = engine.actor(board, play).ok().flatten().unwrap_or(0);
    format!("user{seat}")
}

fn strip(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(o) = &mut v {
        o.remove("play");
        o.remove("plays");
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_engine_example_plays_through_a_match() {
    let (url, _dir) = store_common::sqlite_url();
    let svc = Matches::new(Store::connect(&url).await.unwrap());
    let mut checked = 0;
    let mut recorded_attempts = 0;
    let mut report = Vec::new();
    for engine in engine::engines() {
        for path in examples(engine.game()) {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let Ok(Value::Object(doc)) = board::parse::<Value>(&text) else {
                continue;
            };
            let doc = Value::Object(doc);
            let whole = engine.judge_text(&text);
            let channel = format!("ex{checked}");
            let seats = doc["players"].as_array().map_or(1, |a| a.len().max(1));
            // A rule question about one player's units is judged, never
            // played as a match: a match seats the game's fewest at least.
            if seats < engine.min_players().count {
                continue;
            }
            let users: Vec<String> = (0..seats).map(|i| format!("user{i}")).collect();
            let starter = Caller::new(&channel, "user0", false);
            svc.start(&starter, engine.game(), &users).await.unwrap();
            let setup_doc = serde_json::to_string(&strip(&doc)).unwrap();
            if let Err(e) = store_common::setup_as_judge(&svc, &starter, &setup_doc).await {
                // Only a board the engine itself rejects may fail setup.
                assert!(whole.is_err(), "{name}: setup refused a valid board: {e}");
                report.push(format!("{name}: board refused ({e})"));
                checked += 1;
                continue;
            }
            let plays: Vec<Value> = match (&doc["play"], &doc["plays"]) {
                (Value::Null, Value::Array(list)) => list.clone(),
                (Value::Null, _) => vec![],
                (p, _) => vec![p.clone()],
            };
            let mut all_applied = true;
            let mut board_now = svc.board(&channel).await.unwrap().board.unwrap();
            for play in &plays {
                // An example board states every player's choices: as a match
                // play, the other players agreed to it, which a player's
                // `agreed_by` asks them (issue 28): each confirms.
                let caller = Caller::new(&channel, actor(*engine, &board_now, play), false);
                let others: Vec<&String> = users.iter().filter(|u| **u != caller.user).collect();
                let yaml = serde_json::to_string(
                    &serde_json::json!({ "play": play, "agreed_by": others }),
                )
                .unwrap();
                let before = svc.board(&channel).await.unwrap();
                let mut reply = svc.play(&caller, &yaml, None).await;
                // Then a choice the play left open is its player's: the
                // rules' default, as judging the example takes it.
                while let Ok(r) = &reply
                    && let Some(p) = &r.pending
                {
                    let d = &p.decision;
                    let choice = match d.key.as_str() {
                        "consent" => "confirm".to_string(),
                        _ => match d.default {
                            Some(i) => d.options[i].label.clone(),
                            None => break,
                        },
                    };
                    let asked = Caller::new(&channel, &p.user, false);
                    reply = svc.answer(&asked, &choice, None).await;
                }
                match reply {
                    Ok(r) if r.applied && r.ruling.as_ref().unwrap().legal => board_now = r.board,
                    Ok(r) if r.applied && r.ruling.as_ref().unwrap().changes.is_empty() => {
                        // Illegal once its players confirmed it: only the
                        // confirmations are on the record.
                        assert!(!r.ruling.as_ref().unwrap().legal, "{name}");
                        let after = svc.board(&channel).await.unwrap();
                        assert_eq!(
                            after.board, before.board,
                            "{name}: illegal play changed the board"
                        );
                        all_applied = false;
                        break;
                    }
                    Ok(r) if r.applied => {
                        // An illegal attempt the rules keep a record of:
                        // logged, the board carries only that record.
                        assert!(!r.ruling.as_ref().unwrap().changes.is_empty(), "{name}");
                        let after = svc.board(&channel).await.unwrap();
                        // (After the proposal and its confirmations.)
                        assert!(after.version > before.version, "{name}");
                        assert_eq!(after.board.as_ref(), Some(&r.board), "{name}");
                        // The plays after it go on from that record, as
                        // judging the whole list does.
                        recorded_attempts += 1;
                        all_applied = false;
                        board_now = r.board;
                    }
                    Ok(r) => {
                        assert!(!r.ruling.as_ref().unwrap().legal);
                        let after = svc.board(&channel).await.unwrap();
                        assert_eq!(after.version, before.version, "{name}: illegal play stored");
                        assert_eq!(
                            after.board, before.board,
                            "{name}: illegal play changed the board"
                        );
                        all_applied = false;
                        break;
                    }
                    Err(MatchError::Board { error }) => {
                        let after = svc.board(&channel).await.unwrap();
                        assert_eq!(after.version, before.version, "{name}: {error}");
                        all_applied = false;
                        break;
                    }
                    Err(e) => panic!("{name}: {e}"),
                }
            }
            match &whole {
                Ok(r) if !r.legal && !plays.is_empty() && !r.changes.is_empty() => {
                    assert_eq!(
                        strip(&board_now),
                        strip(&r.state),
                        "{name}: the attempt's record"
                    );
                }
                Ok(r) if r.legal && !plays.is_empty() => {
                    assert!(
                        all_applied,
                        "{name}: legal as a whole, refused play by play"
                    );
                    assert_eq!(
                        strip(&board_now),
                        strip(&r.state),
                        "{name}: the match's board differs from judging the document"
                    );
                }
                Ok(r) if !plays.is_empty() => {
                    assert!(
                        !all_applied,
                        "{name}: illegal as a whole, yet every play applied ({:?})",
                        r.diagnostics
                    );
                }
                _ => {}
            }
            let replay = svc.replay(&channel).await.unwrap();
            assert!(replay.consistent, "{name}: {:?}", replay.mismatches);
            report.push(format!(
                "{name}: {} plays, {}",
                plays.len(),
                if all_applied { "applied" } else { "refused" }
            ));
            checked += 1;
        }
    }
    eprintln!("{}", report.join("\n"));
    eprintln!("{recorded_attempts} illegal attempts recorded with the rules' record");
    if !engine::engines().is_empty() {
        assert!(
            checked > 0,
            "engines are registered but no example was found"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notation_and_completions_reach_the_engine() {
    // For each engine: a notation line that the engine cannot parse is a
    // clear refusal that stores nothing; completions come back for a blank line.
    let (url, _dir) = store_common::sqlite_url();
    let svc = Matches::new(Store::connect(&url).await.unwrap());
    for (i, engine) in engine::engines().iter().enumerate() {
        // The first example a match can seat (a rule question about one
        // player's units is judged, never played as a match).
        let seats_of = |doc: &Value| doc["players"].as_array().map_or(1, |a| a.len().max(1));
        let Some(doc) = examples(engine.game()).into_iter().find_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            board::parse::<Value>(&text)
                .ok()
                .filter(|doc| seats_of(doc) >= engine.min_players().count)
        }) else {
            continue;
        };
        let channel = format!("n{i}");
        let seats = seats_of(&doc);
        let users: Vec<String> = (0..seats).map(|i| format!("user{i}")).collect();
        let c = Caller::new(&channel, "user0", false);
        svc.start(&c, engine.game(), &users).await.unwrap();
        let board = serde_json::to_string(&strip(&doc)).unwrap();
        if store_common::setup_as_judge(&svc, &c, &board)
            .await
            .is_err()
        {
            continue;
        }
        let before = svc.board(&channel).await.unwrap();
        let mut refused = 0;
        for u in &users {
            let c = Caller::new(&channel, u, false);
            match svc.play(&c, "xyzzy plugh frobnicate", None).await {
                Err(e) => {
                    assert!(!e.to_string().is_empty());
                    refused += 1;
                }
                Ok(r) => assert!(!r.applied, "{}: gibberish applied", engine.game()),
            }
        }
        assert!(
            refused > 0,
            "{}: gibberish was never refused",
            engine.game()
        );
        let after = svc.board(&channel).await.unwrap();
        assert_eq!(after.version, before.version);
        let _ = svc.complete(&channel, "").await.unwrap();
    }
}
