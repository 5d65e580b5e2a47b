//! The kit's typed diff on every example board of every game: a ruling's
//! changes are the value diff of the board before the play and the state
//! after it, and the typed diff agrees with the value diff on edits at
//! every node of each board.

use serde_json::Value;

use super::kit::Game;
use super::kit::typed_diff::tests::agrees;
use super::{GameEngine, document, engine, ruling};
use super::{ashes, grand_archive, legion, magewinds, ti4};

/// The typed board of a document as the kit reads it: without its plays.
fn board<G: Game>(mut doc: Value) -> G::Board {
    if let Value::Object(m) = &mut doc {
        m.remove("play");
        m.remove("plays");
        m.insert("game".into(), Value::String(G::ID.into()));
    }
    let mut b: G::Board = document::typed(&doc, "", None).expect("typed");
    G::validate(&mut b).expect("valid");
    b
}

fn examples<G: Game>(dir: &str) -> usize {
    let judge: &dyn GameEngine = engine(G::ID).expect("registered");
    let path = format!("{}/../../examples/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let ruling = judge.judge_text(&text).expect("judged");
        let board = board::<G>(document::parse_value(&text).expect("parses"));
        let before = serde_json::to_value(&board).expect("serializable");
        let want = ruling::diff(&before, &ruling.state);
        assert_eq!(ruling.changes, want, "{}", f.display());
        checked += agrees(&board, &ruling.state);
    }
    assert!(files.len() >= 5, "{path}: {} boards", files.len());
    checked
}

#[test]
fn every_example_board_diffs_as_its_value() {
    let n = examples::<ashes::Ashes>("ashes")
        + examples::<ti4::Ti4>("ti4")
        + examples::<magewinds::Magewinds>("magewinds")
        + examples::<legion::Legion>("legion")
        + examples::<grand_archive::GrandArchive>("grand-archive");
    assert!(n > 10_000, "{n} states compared");
}
