//! The CPU pool's workers are shared by scope (`app::cpu::Scope`): a
//! request from a Discord server counts to that server's share, and so does
//! its match play (judged on the task the bot spawns for it). While another
//! server's work holds all but one worker and queues more, the server's
//! board and play are still judged.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter::app::App;
use arbiter::app::cpu::{self, Scope};
use arbiter::bot::{Bot, BotConfig};

use crate::store_common::ASHES_BOARD as BOARD;

const GUILD: u64 = 4242;

/// The server whose work holds its share of the workers meanwhile.
const OTHER_GUILD: u64 = 4343;

fn bot(dir: &std::path::Path) -> Bot {
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let url = format!("sqlite://{}", dir.join("share.db").display());
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let app = App::load(&root.join("rules_data"), &[]).expect("rule data");
    let config = BotConfig {
        database_url: Some(url),
        ..BotConfig::default()
    };
    Bot::new(Arc::new(app), config)
}

/// A console script typed in the server as `user`: the transcript.
fn in_server(bot: &Bot, user: &str, moderator: bool, script: &str) -> String {
    crate::common::console_run_as(bot, user, GUILD, moderator, script)
}

#[test]
fn a_servers_board_and_play_are_judged_while_other_work_holds_its_share() {
    let dir = tempfile::tempdir().unwrap();
    let bot = bot(dir.path());
    let out = in_server(
        &bot,
        "coal",
        false,
        &format!(
            "/match start game:ashes player1:coal player2:maeoni\n/as judge moderator\n/match setup\n{BOARD}.\n"
        ),
    );
    assert!(out.contains("== Match: starting board =="), "{out}");

    // Another server's work holds all the workers it may, and queues one
    // more job, until released. (Not `Scope::Local`'s: the other tests
    // run their console scripts as Local, in parallel, and would be told
    // busy while this one held Local's share.)
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let share = cpu::limits().workers.saturating_sub(1).max(1);
    let (started, running) = std::sync::mpsc::channel();
    let (release, held) = std::sync::mpsc::channel::<()>();
    let held = Arc::new(Mutex::new(held));
    let other: Vec<_> = (0..=share)
        .map(|_| {
            let (started, held) = (started.clone(), held.clone());
            runtime.spawn(cpu::scoped(
                Scope::Server(OTHER_GUILD),
                cpu::run_within(Duration::from_secs(120), move || {
                    let _ = started.send(());
                    let _ = held.lock().unwrap().recv();
                }),
            ))
        })
        .collect();
    for _ in 0..share {
        running.recv().unwrap();
    }

    let play = "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by maeoni";
    let judged = in_server(&bot, "coal", false, &format!("/judge\n{BOARD}.\n"));
    let played = in_server(&bot, "coal", false, &format!("/match play {play}\n"));
    let confirmed = in_server(&bot, "maeoni", false, "/match answer choice:confirm\n");

    drop(release);
    for job in other {
        assert_eq!(runtime.block_on(job).unwrap(), Ok(()));
    }
    for out in [&judged, &played, &confirmed] {
        assert!(!out.contains("busy"), "{out}");
    }
    assert!(judged.contains("legal"), "{judged}");
    assert!(played.contains("proposal #2 recorded"), "{played}");
    assert!(
        confirmed.contains("== Answer #3 recorded (ashes): the play is legal =="),
        "{confirmed}"
    );
}
