//! A match play is judged, and a setup's board parsed and validated, on
//! the CPU pool (`app::cpu`), not on the async worker that received it:
//! while every worker stays busy for the whole budget each is refused as
//! busy and nothing is recorded; once a worker is free the same play goes
//! through. (One test in this binary: the pool's
//! limits are per process.)

use std::time::Duration;

use arbiter::app::cpu::{self, Limits};
use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::store::Store;

const BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 20 }
    units:
      - { name: Hammer Knight, attack: 3, life: 5 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20 }
    units:
      - { name: Frostback Bear, attack: 2, life: 4 }
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_play_and_a_setup_board_go_through_the_cpu_pool_and_are_refused_while_it_stays_full() {
    let limits = Limits {
        workers: 1,
        budget: Duration::from_millis(300),
    };
    assert!(cpu::configure(limits), "the pool was configured before");
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let m = Matches::new(Store::connect(&url).await.unwrap());
    let coal = Caller::new("table", "coal-user", false);
    m.start(&coal, "ashes", &["coal-user".into(), "maeoni-user".into()])
        .await
        .unwrap();
    m.setup(&coal, BOARD).await.unwrap();
    // A player's board waits on the other player's consent.
    let maeoni = Caller::new("table", "maeoni-user", false);
    m.answer(&maeoni, "confirm", None).await.unwrap();
    let version = m.board("table").await.unwrap().version;

    // The pool's only worker is held until `release` is sent.
    let (started, running) = tokio::sync::oneshot::channel();
    let (release, held) = std::sync::mpsc::channel::<()>();
    let holder = tokio::spawn(cpu::run_within(Duration::from_secs(30), move || {
        let _ = started.send(());
        let _ = held.recv();
    }));
    running.await.unwrap();

    let line = "attack Maeoni with Hammer Knight";
    let err = m.play(&coal, line, None).await.unwrap_err();
    assert!(matches!(err, MatchError::Busy { .. }), "{err:?}");
    assert_eq!(m.board("table").await.unwrap().version, version);
    // A setup's board is read on the pool too (it was parsed and checked
    // on the async worker, so a large or hostile board held it): a
    // moderator's, which nothing else refuses, is refused as busy.
    let judge = Caller::new("table", "judge", true);
    let err = m.setup(&judge, BOARD).await.unwrap_err();
    assert!(matches!(err, MatchError::Busy { .. }), "{err:?}");
    assert_eq!(m.board("table").await.unwrap().version, version);

    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let played = m.play(&coal, line, None).await.unwrap();
    assert!(played.applied, "{played:?}");
    assert_eq!(m.board("table").await.unwrap().version, version + 1);
}
