//! The search evaluation report: per game and overall, tuning and held-out,
//! our search and a plain BM25 baseline (tests/eval/mod.rs).
//!
//! `cargo run --release --example search_eval` prints the tables (MTG too
//! when ../shared holds the corpus). `-- --misses` also lists the tuning
//! questions our search gets wrong; held-out misses are never listed, so
//! nobody tunes on them. Held-out tables are printed only with `--all`;
//! `--calibrate` prints the evidence behind each tuning question's label
//! (`--part calibration`: the calibration part's, written for fitting the
//! label alone), the last column the cosine between the question and the
//! first passage's highlighted sentence (tools/answer_sentence.py).
//! `--dump DIR` writes, for offline re-ranking experiments
//! (tools/emb_experiment.py), DIR/questions.jsonl (each tuning question with
//! its game filter, expected ids and our ranked candidates, scores included)
//! and DIR/passages.jsonl (every indexed passage: id, game, title, path, text).

#[path = "../tests/eval/mod.rs"]
mod eval;

use std::io::Write;
use std::path::{Path, PathBuf};

use arbiter::app::App;

fn main() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let args: Vec<String> = std::env::args().collect();
    let show_misses = args.iter().any(|a| a == "--misses");
    let calibrate = args.iter().any(|a| a == "--calibrate");
    // Whose evidence `--calibrate` prints: the tuning part, or with
    // `--part calibration` the part written for fitting the label.
    let part = match args.iter().position(|a| a == "--part") {
        None => "tuning",
        Some(i) => match args.get(i + 1).map(String::as_str) {
            Some(p @ ("tuning" | "calibration")) if calibrate => p,
            _ => {
                eprintln!(
                    "usage: --calibrate --part tuning|calibration (the held-out part's evidence is never printed)"
                );
                std::process::exit(2);
            }
        },
    };
    let dump_dir = args
        .iter()
        .position(|a| a == "--dump")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let mut dump = dump_dir.as_deref().map(Dump::create);
    let cases = eval::cases(&repo);
    let mut report = eval::Report::default();
    let seeds = App::load(&repo.join("rules_data"), &[]).expect("rules_data loads");
    let five: Vec<&eval::Case> = cases.iter().filter(|c| !c.is_mtg()).collect();
    eval::run(&seeds, &five, &mut report);
    if calibrate {
        evidence(&seeds, &five, part);
    }
    if let Some(d) = &mut dump {
        d.questions(&seeds, &five);
    }
    let mtg_dir = repo.join("tests/fixtures/mtg");
    match App::load(&repo.join("rules_data"), &[mtg_dir]) {
        Ok(app) if app.corpus.game("mtg").is_some() => {
            let mtg: Vec<&eval::Case> = cases.iter().filter(|c| c.is_mtg()).collect();
            eval::run(&app, &mtg, &mut report);
            if calibrate {
                evidence(&app, &mtg, part);
            }
            if let Some(d) = &mut dump {
                d.questions(&app, &mtg);
                d.passages(&app);
            }
        }
        _ => {
            eprintln!("(MTG skipped: the corpus is not at ../shared/corpora)");
            if let Some(d) = &mut dump {
                d.passages(&seeds);
            }
        }
    }
    // Held-out figures only when asked: tuning looks at the tuning part;
    // the calibration part's figures come with its evidence or `--all`.
    let splits: &[&str] = if args.iter().any(|a| a == "--all") {
        &["held-out", "tuning", "calibration"]
    } else if part == "calibration" {
        &["tuning", "calibration"]
    } else {
        &["tuning"]
    };
    println!("{}", report.table(splits));
    if show_misses {
        println!("\ntuning questions answered wrongly or not labelled \"answer\":");
        for m in report.misses.iter().filter(|m| m.split == "tuning") {
            println!(
                "{:<14} {:?}  {}\n      got {:?}\n      want {:?}",
                m.game, m.confidence, m.q, m.got, m.want
            );
        }
    }
}

/// The evidence behind each label of one part (tuning or calibration), for
/// setting thresholds: kind (hit, miss, uncovered), coverage, highlight
/// share, margin, terms.
fn evidence(app: &App, cases: &[&eval::Case], part: &str) {
    use arbiter::search::SearchOptions;
    for c in cases.iter().filter(|c| c.split == part) {
        let opts = SearchOptions {
            game: c.ask_game.then(|| c.game.clone()),
            fallback_game: None,
            limit: 3,
            ..Default::default()
        };
        let out = app.index.search(&app.corpus, &c.q, &opts);
        let kind = if !c.answerable() {
            "uncovered"
        } else if out
            .hits
            .iter()
            .any(|h| c.expect.contains(&app.corpus.passages[h.passage].id))
        {
            "hit"
        } else {
            "miss"
        };
        // Passages of the first passage's game: a whole rulebook's
        // neighbours compete more than a section's (counted here, not on
        // every search).
        let game_passages = out.evidence.as_ref().map_or(0, |e| {
            let game = &app.corpus.passages[e.passage].game;
            app.corpus
                .passages
                .iter()
                .filter(|p| &p.game == game)
                .count()
        });
        // The cosine between the question and the first passage's
        // highlighted sentence (the whole question's, for a multi-part one),
        // computed here: the label does not use it.
        let sentence_cosine = out.evidence.as_ref().and_then(|e| {
            let first = out.hits.iter().find(|h| h.passage == e.passage)?;
            let text = arbiter::search::semantic::with_context(&c.q, &[]);
            app.index.sentence_cosine(&text, &first.highlight)
        });
        match out.evidence {
            Some(e) => println!(
                "EVID\t{kind}\t{:.2}\t{:.2}\t{:.2}\t{}\t{}\t{:?}\t{}\t{}\t{:.1}\t{}\t{:.2}\t{:.2}\t{}\t{}\t{}\t{}",
                e.coverage,
                e.highlight,
                e.margin,
                e.terms,
                e.unknown_topics,
                out.confidence,
                c.q,
                e.rivals,
                e.weight,
                c.game,
                e.strength,
                e.family_margin,
                e.agree,
                game_passages,
                e.semantic.map_or("-".to_string(), |s| format!(
                    "{:.3}\t{:.3}\t{}\t{}",
                    s.cosine, s.cosine_gap, s.lexical_rank, s.semantic_rank
                )),
                sentence_cosine.map_or("-".to_string(), |c| format!("{c:.3}")),
            ),
            None => println!(
                "EVID\t{kind}\t-\t-\t-\t-\t-\tNone\t{}\t-\t-\t{}",
                c.q, c.game
            ),
        }
    }
}

/// Candidates kept per question in `--dump`.
const DUMP_DEPTH: usize = 30;

/// The `--dump` files: tuning questions only, never the held-out part.
struct Dump {
    questions: std::io::BufWriter<std::fs::File>,
    passages: std::io::BufWriter<std::fs::File>,
}

impl Dump {
    fn create(dir: &Path) -> Dump {
        std::fs::create_dir_all(dir).expect("the dump directory");
        let open = |name: &str| {
            let f = std::fs::File::create(dir.join(name)).expect("a dump file");
            std::io::BufWriter::new(f)
        };
        Dump {
            questions: open("questions.jsonl"),
            passages: open("passages.jsonl"),
        }
    }

    /// One line per tuning question: what was asked, the game searched, the
    /// expected ids, the label and the ranked candidates with their scores.
    fn questions(&mut self, app: &App, cases: &[&eval::Case]) {
        use arbiter::search::SearchOptions;
        for c in cases.iter().filter(|c| c.split == "tuning") {
            let opts = SearchOptions {
                game: c.ask_game.then(|| c.game.clone()),
                fallback_game: None,
                limit: DUMP_DEPTH,
                ..Default::default()
            };
            let out = app.index.search(&app.corpus, &c.q, &opts);
            let ranked: Vec<serde_json::Value> = out
                .hits
                .iter()
                .map(|h| {
                    let p = &app.corpus.passages[h.passage];
                    serde_json::json!({"id": p.id, "score": h.score, "coverage": h.coverage})
                })
                .collect();
            let line = serde_json::json!({
                "q": c.q,
                "game": c.game,
                "ask_game": c.ask_game,
                "searched_game": out.game,
                "expect": c.expect,
                "confidence": out.confidence,
                "ranked": ranked,
            });
            writeln!(self.questions, "{line}").expect("a dump line");
        }
        self.questions.flush().expect("the dump flushes");
    }

    /// Every indexed passage of `app`'s corpus.
    fn passages(&mut self, app: &App) {
        for p in &app.corpus.passages {
            let line = serde_json::json!({
                "id": p.id,
                "game": p.game,
                "title": p.title,
                "path": p.path,
                "text": p.text,
            });
            writeln!(self.passages, "{line}").expect("a dump line");
        }
        self.passages.flush().expect("the dump flushes");
    }
}
