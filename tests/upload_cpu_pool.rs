//! An upload's preview (`Import::new`: the document read against its
//! game's rules, an errata's names looked up) is made on the CPU pool
//! (`app::cpu`), not on the async worker that received it: while every
//! worker stays busy for the whole budget the upload is refused as busy;
//! once a worker is free the same upload is previewed. (A binary of its
//! own: the pool's limits are per process.)

use std::sync::Arc;
use std::time::Duration;

use arbiter::app::App;
use arbiter::app::cpu::{self, Limits};
use arbiter::app::rulesets::{RuleSets, RulesError, Upload};
use arbiter::corpus::DocumentKind;
use arbiter::store::Store;

const HOUSE: &str =
    "# Speaker\n\n1. The speaker always breaks ties with a coin toss at our table.\n";

fn upload() -> Upload {
    Upload {
        file_name: "house.md".into(),
        bytes: HOUSE.as_bytes().to_vec(),
        game: "TI4".into(),
        kind: DocumentKind::House,
        title: Some("Table rules".into()),
        replaces: None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploads_preview_is_made_on_the_cpu_pool_and_refused_while_it_stays_full() {
    let budget = Duration::from_millis(300);
    assert!(
        cpu::configure(Limits { workers: 1, budget }),
        "the pool was configured before"
    );
    arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shipped = arbiter::load::load_dir(&root.join("rules_data")).unwrap();
    let base = Arc::new(App::new(arbiter::corpus::Corpus::build(shipped.clone())));
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("r.db").display());
    let sets = RuleSets::new(Store::connect(&url).await.unwrap(), shipped, base)
        .with_preview_budget(budget);

    // The pool's only worker is held until `release` is sent.
    let (started, running) = tokio::sync::oneshot::channel();
    let (release, held) = std::sync::mpsc::channel::<()>();
    let holder = tokio::spawn(cpu::run_within(Duration::from_secs(60), move || {
        let _ = started.send(());
        let _ = held.recv();
    }));
    running.await.unwrap();

    let err = sets.dry_run("guild", upload()).await.unwrap_err();
    assert!(matches!(err, RulesError::Busy(_)), "{err:?}");

    release.send(()).unwrap();
    holder.await.unwrap().unwrap();
    let preview = sets.dry_run("guild", upload()).await.unwrap();
    assert_eq!(preview.passages.len(), 2, "{preview:?}");
}
