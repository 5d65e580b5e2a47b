//! The semantic stage (docs/SEARCH.md, "The semantic stage"): the encoder
//! against reference vectors, the vectors computed ahead for shipped rule
//! data kept fresh, and the stage reachable from `ask`.

use crate::common;
#[cfg(feature = "semantic")]
use crate::eval;

use arbiter::corpus::Corpus;
use arbiter::search::semantic;

/// Every passage of the rule folder has its vector in the folder's vectors
/// file: a change of the rules (or of what is embedded) without
/// `arbiter semantic vectors` fails here.
fn assert_fresh(dir: &std::path::Path) {
    let corpus = Corpus::build(arbiter::load::load_all(dir, &[]).expect("the folder loads"));
    let bytes = std::fs::read(dir.join("semantic-vectors.bin")).expect("a vectors file");
    let known = semantic::read_known(&bytes).expect("it reads");
    let missing = semantic::missing(&corpus, &known);
    assert!(
        missing.is_empty(),
        "{} of {} passages of {} have no vector (first: {}): run `cargo run --release -- semantic vectors {}`",
        missing.len(),
        corpus.passages.len(),
        dir.display(),
        corpus.passages[missing[0]].id,
        dir.display()
    );
    let mut keys: Vec<u64> = (0..corpus.passages.len())
        .map(|i| semantic::key(&semantic::passage_text(&corpus, i)))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(
        keys.len(),
        known.len(),
        "stale vectors kept in {}",
        dir.display()
    );
}

#[test]
fn shipped_vectors_are_fresh() {
    assert_fresh(&common::repo().join("rules_data"));
}

#[test]
#[ignore = "needs ../shared (the MTG corpus)"]
fn mtg_fixture_vectors_are_fresh() {
    assert_fresh(&common::mtg_dir());
}

#[test]
fn a_stale_vectors_file_is_detected() {
    let corpus = Corpus::build(
        arbiter::load::load_all(&common::repo().join("rules_data"), &[]).expect("loads"),
    );
    let bytes = std::fs::read(common::repo().join("rules_data/semantic-vectors.bin")).unwrap();
    let mut known = semantic::read_known(&bytes).unwrap();
    let k = semantic::key(&semantic::passage_text(&corpus, 3));
    known.remove(&k);
    assert_eq!(semantic::missing(&corpus, &known), vec![3]);
}

#[cfg(feature = "semantic")]
mod model {
    use super::*;
    use crate::store_common;
    use arbiter::app::App;

    #[derive(serde::Deserialize)]
    struct Reference {
        text: String,
        ids: Vec<u32>,
        vector: Vec<f32>,
    }

    fn encoder() -> arbiter::semantic::Encoder {
        arbiter::app::semantic::load_encoder(&common::repo().join("models/all-minilm-l6-v2"))
            .expect("the shipped model loads")
    }

    fn shared_encoder() -> &'static arbiter::semantic::Encoder {
        static E: std::sync::OnceLock<arbiter::semantic::Encoder> = std::sync::OnceLock::new();
        E.get_or_init(encoder)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]
        /// Any text (a question is cut at 400 characters before this)
        /// embeds to a finite unit vector, never a panic.
        #[test]
        fn any_text_embeds_to_a_unit_vector(q in "\\PC{0,400}") {
            let v = shared_encoder().embed(&q);
            proptest::prop_assert_eq!(v.len(), semantic::DIMS);
            proptest::prop_assert!(v.iter().all(|x| x.is_finite()));
            let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            proptest::prop_assert!((norm - 1.0).abs() < 1e-3 || norm == 0.0, "norm {}", norm);
        }
    }

    /// A rule set's embedding stops between chunks once nobody holds its
    /// index (evicted or replaced), keeping what it embedded, and sets no
    /// stage (found by an outside tester: an evicted rulebook's embedding
    /// ran on for minutes).
    #[test]
    fn an_embedding_stops_when_told_and_keeps_what_it_did() {
        let corpus = arbiter::corpus::Corpus::build(
            arbiter::load::load_dir(&common::repo().join("rules_data")).unwrap(),
        );
        let app = App::new(corpus);
        let encoder: std::sync::Arc<dyn semantic::Encode> = std::sync::Arc::new(encoder());
        let mut known = semantic::Known::default();
        let calls = std::cell::Cell::new(0);
        let go = || {
            calls.set(calls.get() + 1);
            calls.get() == 1
        };
        // Each chunk is handed over as soon as it is embedded (a server's
        // upload stores it then: a restart mid-way keeps it).
        let saved = std::cell::RefCell::new(semantic::Known::default());
        let save = |chunk: &semantic::Known| saved.borrow_mut().extend(chunk.clone());
        assert_eq!(
            app.attach_semantic_saving(encoder.clone(), &mut known, &go, &save),
            None
        );
        assert_eq!(known.len(), 32, "one chunk embedded, then stopped");
        assert_eq!(
            *saved.borrow(),
            known,
            "the chunk was handed over before the stop"
        );
        assert!(
            app.index.semantic().is_none(),
            "no stage from a stopped embedding"
        );
        let done = app.attach_semantic_while(encoder, &mut known, &|| true);
        assert_eq!(
            done.map(|n| n + 32),
            Some(semantic::missing(&app.corpus, &semantic::Known::default()).len()),
            "the rest embedded once, the first chunk reused"
        );
        assert!(app.index.semantic().is_some_and(|s| s.complete()));
    }

    /// Token ids and vectors of tools/semantic_model.py (HF tokenizers and
    /// an f32 forward pass of the original weights).
    #[test]
    fn embeddings_match_the_reference() {
        let refs: Vec<Reference> = serde_json::from_str(
            &std::fs::read_to_string(common::repo().join("tests/semantic_reference.json")).unwrap(),
        )
        .unwrap();
        let e = encoder();
        for r in refs {
            assert_eq!(e.token_ids(&r.text), r.ids, "token ids of {:?}", r.text);
            let v = e.embed(&r.text);
            let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4);
            let cos: f32 = v.iter().zip(&r.vector).map(|(a, b)| a * b).sum();
            assert!(cos > 0.999, "cosine {cos} for {:?}", r.text);
            for (a, b) in v.iter().zip(&r.vector).take(8) {
                assert!((a - b).abs() < 2e-3, "{a} vs {b} in {:?}", r.text);
            }
        }
    }

    #[test]
    fn related_sentences_are_closer_than_unrelated_ones() {
        let e = encoder();
        let cos = |a: &str, b: &str| -> f32 {
            e.embed(a).iter().zip(e.embed(b)).map(|(x, y)| x * y).sum()
        };
        let q = "can I attack with a creature the turn I play it?";
        assert!(
            cos(
                q,
                "A creature can't attack unless it has been under its controller's control continuously since their most recent turn began."
            ) > cos(q, "Each player draws seven cards at the start of the game.")
        );
    }

    /// On the five games' tuning questions, the stage puts the right
    /// passage into the top 3 where the lexical ranking alone did not
    /// (concept questions), more often than it pushes one out.
    #[test]
    fn the_stage_moves_right_passages_up() {
        let with = common::app();
        let without = App::new(Corpus::build(
            arbiter::load::load_all(&common::repo().join("rules_data"), &[]).unwrap(),
        ));
        assert!(without.index.semantic().is_none());
        let top3 = |app: &App, c: &eval::Case| {
            let game = c.ask_game.then_some(c.game.as_str());
            let r = app.ask(&c.q, game, 3).unwrap();
            r.results.iter().any(|x| c.expect.contains(&x.id))
        };
        let (mut up, mut down) = (0, 0);
        for c in eval::cases(&common::repo())
            .iter()
            .filter(|c| c.split == "tuning" && !c.is_mtg() && c.answerable())
        {
            match (top3(with, c), top3(&without, c)) {
                (true, false) => up += 1,
                (false, true) => down += 1,
                _ => {}
            }
        }
        assert!(
            up >= 3 && up > 2 * down,
            "{up} moved into the top 3, {down} out"
        );
    }

    /// A small rules folder of one game, without a vectors file.
    fn house_rules(dir: &std::path::Path) {
        std::fs::write(
            dir.join("manifest.yaml"),
            "game: house\nname: House Rules\ndocuments:\n  - {file: rules.md, slug: rules, title: House Rules}\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("rules.md"),
            "### Mulligans\n\n1. Each player may mulligan once, shuffling their hand back.\n2. A player who mulligans draws one card fewer.\n\n### Dice\n\n1. Reroll a die that falls off the table.\n",
        )
        .unwrap();
    }

    /// The same question of the same rules, answered without a stage.
    fn lexical(dirs: &[std::path::PathBuf], q: &str) -> arbiter::app::AskReply {
        lexical_in(dirs, q, "house")
    }

    fn lexical_in(dirs: &[std::path::PathBuf], q: &str, game: &str) -> arbiter::app::AskReply {
        let app = App::new(Corpus::build(
            arbiter::load::load_all(&common::repo().join("rules_data"), dirs).unwrap(),
        ));
        app.ask(q, Some(game), 3).unwrap()
    }

    /// A question about a shipped game, whose passages all have vectors.
    const SHIPPED: &str = "can I swing with a unit the turn it comes in";

    /// A rules folder without vectors: the index answers at once,
    /// lexically, saying that its vectors are being embedded; the stage is
    /// attached once they are.
    #[test]
    fn a_folder_without_vectors_answers_lexically_until_they_are_embedded() {
        use arbiter::app::SemanticState;
        let dir = tempfile::tempdir().unwrap();
        house_rules(dir.path());
        let dirs = [dir.path().to_path_buf()];
        let q = "how many times can I mulligan";
        let (app, shipped) = {
            // Held: the background embedding cannot start before the first question.
            let _turn = arbiter::app::rulesets::embedding_turn();
            let app = App::load(&common::repo().join("rules_data"), &dirs).unwrap();
            match app.semantic_state() {
                SemanticState::Embedding { passages, folders } => {
                    assert!(passages > 0);
                    assert_eq!(folders, dirs);
                }
                other => panic!("{other:?}"),
            }
            assert!(
                app.index.semantic().is_some_and(|s| !s.complete()),
                "a partial stage meanwhile"
            );
            let first = app.ask(q, Some("house"), 3).unwrap();
            assert_eq!(
                first,
                lexical(&dirs, q),
                "the first answer is the lexical one"
            );
            assert!(first.results[0].id.starts_with("house:mulligans"));
            // The shipped games keep the stage meanwhile (re-scored, not
            // the lexical answer); below, the same answer once complete.
            let lexical_only = lexical_in(&dirs, SHIPPED, "ashes");
            let shipped = app.ask(SHIPPED, Some("ashes"), 3).unwrap();
            assert_ne!(shipped, lexical_only, "re-scored by the stage");
            (app, shipped)
        };
        let started = std::time::Instant::now();
        while app.semantic_state() != SemanticState::Ready {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(300),
                "the stage was not attached: {:?}",
                app.semantic_state()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(app.index.semantic().is_some_and(|s| s.complete()));
        assert_eq!(app.ask(SHIPPED, Some("ashes"), 3).unwrap(), shipped);
        let later = app.ask(q, Some("house"), 3).unwrap();
        assert!(later.results[0].id.starts_with("house:mulligans"));
    }

    /// A rules folder whose vectors file is complete (as `arbiter semantic
    /// vectors` writes it) gets its stage at load, nothing embedded.
    #[test]
    fn a_folder_with_its_vectors_gets_its_stage_at_load() {
        let dir = tempfile::tempdir().unwrap();
        house_rules(dir.path());
        let alone = Corpus::build(arbiter::load::load_all(dir.path(), &[]).unwrap());
        let (known, embedded) =
            arbiter::app::semantic::complete(&alone, &semantic::Known::default(), &encoder(), 1);
        assert_eq!(embedded, known.len());
        std::fs::write(
            dir.path().join("semantic-vectors.bin"),
            semantic::write_known(&known),
        )
        .unwrap();
        let app = App::load(
            &common::repo().join("rules_data"),
            &[dir.path().to_path_buf()],
        )
        .unwrap();
        assert!(app.index.semantic().is_some(), "attached at load");
        assert_eq!(app.semantic_state(), arbiter::app::SemanticState::Ready);
    }

    /// A one-shot `ask` does not wait for vectors: it answers lexically
    /// and says how to compute them.
    #[test]
    fn a_one_shot_ask_on_a_folder_without_vectors_says_it_is_lexical() {
        let dir = tempfile::tempdir().unwrap();
        house_rules(dir.path());
        let d = dir.path().to_str().unwrap();
        let arbiter = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(args)
                .current_dir(common::repo())
                .env_remove("ARBITER_DATA")
                .env_remove("ARBITER_RULES_DIRS")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap()
        };
        let o = arbiter(&[
            "--rules-dir",
            d,
            "ask",
            "how many times can I mulligan",
            "--json",
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(
            err.contains(&format!("passages of {d} have no semantic vector, so they are ranked lexically; `arbiter semantic vectors {d}`")),
            "{err}"
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let dirs = [dir.path().to_path_buf()];
        let q = "how many times can I mulligan";
        assert_eq!(
            v["results"][0]["id"],
            lexical(&dirs, q).results[0].id.as_str()
        );
        // Without --rules-dir every passage has its vector: no note.
        let o = arbiter(&["ask", "can an exhausted phoenixborn guard?"]);
        assert!(o.status.success());
        assert!(!String::from_utf8_lossy(&o.stderr).contains("semantic vector"));
    }

    /// A one-shot command reads the model at its first question only: a
    /// `judge` or a `match play` never pays for it.
    #[test]
    fn a_one_shot_command_loads_the_stage_at_its_first_question() {
        use arbiter::app::MissingVectors;
        let app = App::load_with(
            &common::repo().join("rules_data"),
            &[],
            MissingVectors::Lexical,
        )
        .unwrap();
        assert!(app.index.semantic().is_none(), "nothing read at load");
        app.ask("can a unit attack twice in one turn?", None, 3)
            .unwrap();
        assert!(app.index.semantic().is_some_and(|s| s.complete()));
    }

    #[test]
    fn ask_uses_the_semantic_stage_by_default() {
        let app = common::app();
        assert!(
            app.index.semantic().is_some(),
            "the shipped app has its stage"
        );
        let reply = app
            .ask("can a unit attack twice in one turn?", None, 3)
            .unwrap();
        assert!(!reply.results.is_empty());
    }

    /// Whether an app's semantic stage holds every passage's vector.
    fn complete(app: &App) -> bool {
        app.index.semantic().is_some_and(|s| s.complete())
    }

    /// Waits (at most `secs`) for an app's stage to be complete.
    async fn until_complete(app: &App, secs: u64) -> bool {
        let started = std::time::Instant::now();
        while !complete(app) {
            if started.elapsed() > std::time::Duration::from_secs(secs) {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        true
    }

    /// A server's uploaded passages are embedded once: their vectors are
    /// stored, and a restart (or another replica: the same store) reads
    /// them back, so its stage is complete while someone else holds the
    /// process's one embedding turn. Before, every start embedded every
    /// server's documents again (minutes of a core for a whole rulebook).
    // The process's one embedding turn is a std mutex, held on purpose
    // while the restarted rule set is awaited.
    #[allow(clippy::await_holding_lock)]
    async fn an_uploads_vectors_are_embedded_once(url: String) {
        use arbiter::app::rulesets::{RuleSets, Upload};
        let store = arbiter::store::Store::connect(&url).await.unwrap();
        let start = || {
            arbiter::sandbox::use_program(env!("CARGO_BIN_EXE_arbiter"));
            let dir = common::repo().join("rules_data");
            let shipped = arbiter::load::load_dir(&dir).unwrap();
            let base = std::sync::Arc::new(App::load(&dir, &[]).unwrap());
            RuleSets::new(store.clone(), shipped, base)
        };
        let upload = Upload {
            file_name: "table.md".into(),
            bytes: b"# Speaker\n\n1. The speaker always breaks ties with a coin toss at our table.\n2. A new speaker is chosen by the previous one.\n".to_vec(),
            game: "ti4".into(),
            kind: arbiter::corpus::DocumentKind::House,
            title: Some("Table rules".into()),
            replaces: None,
        };
        let first = start();
        first.add("g", "m", upload).await.unwrap();
        let app = first.app_for("g").await.unwrap();
        assert!(until_complete(&app, 300).await, "embedded once");
        drop((app, first));

        let turn = arbiter::app::rulesets::embedding_turn();
        let again = start();
        let app = again.app_for("g").await.unwrap();
        assert!(
            until_complete(&app, 30).await,
            "a restart reads the stored vectors without the embedding turn"
        );
        drop(turn);
        let found = app.ask("who breaks speaker ties", Some("ti4"), 3).unwrap();
        assert!(
            found
                .results
                .iter()
                .any(|r| r.id.starts_with("ti4:table-rules")),
            "{found:?}"
        );
    }
    store_common::both!(an_uploads_vectors_are_embedded_once);

    /// A one-shot `ask --guild` answers with the stage from the vectors at
    /// hand and says which of the server's passages have none (an outside
    /// tester found every answer there lexical, silently); `arbiter
    /// semantic vectors --guild` computes and stores them once.
    #[test]
    fn a_one_shot_question_to_a_server_says_which_passages_are_lexical() {
        let (db, dir) = store_common::sqlite_url();
        let file = dir.path().join("house.md");
        std::fs::write(
            &file,
            "# Speaker\n\n1. The speaker always breaks ties with a coin toss at our table.\n2. A new speaker is chosen by the previous one.\n",
        )
        .unwrap();
        let cli = |args: &[&str]| common::arbiter_cli(Some(&db), args);
        let f = file.to_str().unwrap();
        let o = cli(&[
            "rules", "add", f, "--game", "ti4", "--kind", "house", "--guild", "9",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ask = || cli(&["ask", "who breaks speaker ties", "--guild", "9"]);
        let o = ask();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("4 passages of server 9's documents have no semantic vector yet")
                && err.contains("`arbiter semantic vectors --guild 9`"),
            "{err}"
        );
        let o = cli(&["semantic", "vectors", "--guild", "9"]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("server 9: 4 passages embedded and stored"),
            "{out}"
        );
        let o = ask();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && !err.contains("semantic vector"),
            "{err}"
        );
        assert!(String::from_utf8_lossy(&o.stdout).contains("ti4:house.speaker.1"));
    }
}

#[cfg(not(feature = "semantic"))]
#[test]
fn without_the_feature_ask_answers_lexically() {
    let app = common::app();
    assert!(app.index.semantic().is_none());
    let reply = app
        .ask("can a unit attack twice in one turn?", None, 3)
        .unwrap();
    assert!(!reply.results.is_empty());
}
