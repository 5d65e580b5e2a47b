//! Whole-game match benchmarks (Ashes Reborn, SQLite in a temp dir):
//! replaying a 200-event match (plays, answers to decisions, advances,
//! adjustments) through the engine — target < 5 ms — and a play that waits
//! on the defender's decision, round trip through the service (play, then
//! the undo that restores the board for the next iteration) — target
//! < 2 ms for the play. Run: `cargo bench --bench matches`.

use std::sync::OnceLock;

use arbiter::app::matches::{Caller, LogEntry, Matches, replay_log};
use arbiter::store::Store;
use divan::Bencher;

fn main() {
    divan::main();
}

const BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 200 }
    units:
      - { name: Iron Worker, attack: 0, life: 2 }
      - { name: Hammer Knight, attack: 1, life: 900 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 900 }
    units:
      - { name: Frostback Bear, attack: 0, life: 900 }
";

fn rt() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

fn seat(channel: &str, user: &str) -> Caller {
    Caller::new(channel, user, false)
}

async fn service(dir: &tempfile::TempDir) -> Matches {
    let url = format!("sqlite://{}", dir.path().join("bench.db").display());
    Matches::new(Store::connect(&url).await.expect("connect"))
}

/// A match of about 200 events: rounds of attacks answered by the
/// defender (block, counter), passes and advances, and adjustments.
async fn long_match(svc: &Matches) -> Vec<LogEntry> {
    let (coal, maeoni) = (seat("long", "coal"), seat("long", "maeoni"));
    svc.start(&coal, "ashes", &["coal".into(), "maeoni".into()])
        .await
        .unwrap();
    svc.setup(&coal, BOARD).await.unwrap();
    // A player's board waits on the other player's consent.
    svc.answer(&maeoni, "confirm", None).await.unwrap();
    let mut events = 2;
    while events < 200 {
        let first = svc
            .board("long")
            .await
            .unwrap()
            .next
            .map(|n| n.user)
            .unwrap_or_default();
        let (a, b) = if first == "coal" {
            (&coal, &maeoni)
        } else {
            (&maeoni, &coal)
        };
        let attacker = if first == "coal" {
            "Hammer Knight"
        } else {
            "Frostback Bear"
        };
        svc.play(a, &format!("attack with {attacker}"), None)
            .await
            .unwrap();
        svc.answer(b, "1", None).await.unwrap();
        svc.answer(b, "2", None).await.unwrap();
        svc.adjust(
            b,
            &format!(
                "{}.phoenixborn.damage",
                if first == "coal" { "Maeoni" } else { "Coal" }
            ),
            "0",
            "bench",
        )
        .await
        .unwrap();
        svc.play(b, "pass", None).await.unwrap();
        svc.play(a, "pass", None).await.unwrap();
        svc.advance(a, None).await.unwrap();
        events += 7;
    }
    let x = svc.export("long").await.unwrap();
    let doc: serde_json::Value = serde_saphyr::from_str(&x.yaml).unwrap();
    serde_json::from_value(doc["log"].clone()).unwrap()
}

#[divan::bench]
fn replay_a_200_event_match(bencher: Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let log = rt().block_on(async { long_match(&service(&dir).await).await });
    assert!(log.len() >= 200, "{} events", log.len());
    let engine = arbiter::engine::engine("ashes").unwrap();
    let players = ["coal".to_string(), "maeoni".to_string()];
    let (_, bad) = replay_log(engine, &players, &log);
    assert!(bad.is_empty(), "{bad:?}");
    bencher.bench_local(|| replay_log(engine, &players, divan::black_box(&log)));
}

#[divan::bench]
fn play_waiting_on_a_decision_then_undo(bencher: Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let svc = rt().block_on(async {
        let svc = service(&dir).await;
        let coal = seat("rt", "coal");
        svc.start(&coal, "ashes", &["coal".into(), "maeoni".into()])
            .await
            .unwrap();
        svc.setup(&coal, BOARD).await.unwrap();
        let maeoni = seat("rt", "maeoni");
        svc.answer(&maeoni, "confirm", None).await.unwrap();
        svc
    });
    let coal = seat("rt", "coal");
    bencher.bench_local(|| {
        rt().block_on(async {
            let r = svc
                .play(&coal, "attack Maeoni with Hammer Knight", None)
                .await
                .unwrap();
            assert!(r.pending.is_some());
            svc.undo(&coal).await.unwrap();
        })
    });
}
