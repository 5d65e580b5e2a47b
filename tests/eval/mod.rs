//! The search evaluation (tests/eval_questions.yaml), shared by
//! `tests/it/search_eval.rs` (floors on the held-out part) and
//! `examples/search_eval.rs` (the full report). Each question is asked of our
//! search and of a plain BM25 baseline (the `bm25` crate's search engine with
//! its default English tokenizer over each passage's text, nothing else).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use arbiter::app::App;
use arbiter::search::Confidence;
use bm25::{Language, SearchEngine, SearchEngineBuilder};
use serde::Deserialize;

/// Share of new questions held out: FNV-1a-64(q) % 100 below this.
pub const HELD_OUT_PERCENT: u64 = 55;
/// The source of every question of the calibration part: written after
/// search was tuned, for fitting the "answer" label alone (docs/SEARCH.md).
pub const CALIBRATION_SOURCE: &str = "calibration set: ";
/// Results looked at for MRR.
pub const DEPTH: usize = 10;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub q: String,
    pub game: String,
    #[serde(default)]
    pub ask_game: bool,
    pub expect: Vec<String>,
    pub source: String,
    pub split: String,
}

impl Case {
    pub fn answerable(&self) -> bool {
        !self.expect.is_empty()
    }

    pub fn is_mtg(&self) -> bool {
        self.game == "mtg"
    }

    /// Of the calibration part (for the "answer" label alone).
    pub fn calibration(&self) -> bool {
        self.split == "calibration"
    }

    /// The split the recorded rule gives this question.
    pub fn rule_split(&self) -> &'static str {
        if self.source.starts_with(CALIBRATION_SOURCE) {
            "calibration"
        } else if self.source == "prior set" || fnv1a64(&self.q) % 100 >= HELD_OUT_PERCENT {
            "tuning"
        } else {
            "held-out"
        }
    }
}

pub use arbiter::text::fnv1a64;

pub fn cases(repo: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(repo.join("tests/eval_questions.yaml"))
        .expect("tests/eval_questions.yaml");
    serde_saphyr::from_str(&text).expect("the evaluation set parses")
}

/// One engine's answer to one question: ranked ids and its label.
pub struct Answer {
    pub ids: Vec<String>,
    pub confidence: Confidence,
}

pub fn ours(app: &App, c: &Case) -> Answer {
    let game = c.ask_game.then_some(c.game.as_str());
    let reply = app
        .ask(&c.q, game, DEPTH)
        .expect("a question within limits");
    Answer {
        ids: reply.results.iter().map(|r| r.id.clone()).collect(),
        confidence: reply.confidence,
    }
}

/// Plain BM25 over each passage's text; the game filter only when the
/// question is asked with `--game`. It has no refusal: any match is an answer.
pub struct Baseline {
    engine: SearchEngine<u32>,
}

impl Baseline {
    pub fn build(app: &App) -> Baseline {
        let docs = app
            .corpus
            .passages
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.text.is_empty())
            .map(|(i, p)| bm25::Document::new(i as u32, p.text.clone()));
        Baseline {
            engine: SearchEngineBuilder::<u32>::with_documents(Language::English, docs).build(),
        }
    }

    pub fn ask(&self, app: &App, c: &Case) -> Answer {
        let mut found = self.engine.search(&c.q, usize::MAX);
        // Ties by passage, so the figures are the same on every run (the
        // crate returns tied scores in hash order).
        found.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.document.id.cmp(&b.document.id))
        });
        let ids: Vec<String> = found
            .into_iter()
            .map(|r| &app.corpus.passages[r.document.id as usize])
            .filter(|p| !c.ask_game || p.game == c.game)
            .take(DEPTH)
            .map(|p| p.id.clone())
            .collect();
        let confidence = if ids.is_empty() {
            Confidence::None
        } else {
            Confidence::Answer
        };
        Answer { ids, confidence }
    }
}

/// Counts for one (group, engine).
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub answerable: usize,
    pub uncovered: usize,
    pub top1: usize,
    pub top3: usize,
    pub rr: f64,
    /// Questions labelled "answer", and those whose shown passages (top 3)
    /// hold an expected id.
    pub labelled_answer: usize,
    pub answer_correct: usize,
    /// Of those, the ones whose first passage is expected.
    pub answer_correct_top1: usize,
    pub uncovered_not_answer: usize,
}

impl Tally {
    pub fn add(&mut self, c: &Case, a: &Answer) {
        let rank = a.ids.iter().position(|i| c.expect.contains(i));
        if c.answerable() {
            self.answerable += 1;
            self.top1 += usize::from(rank == Some(0));
            self.top3 += usize::from(rank.is_some_and(|r| r < 3));
            self.rr += rank.map_or(0.0, |r| 1.0 / (r as f64 + 1.0));
        } else {
            self.uncovered += 1;
            self.uncovered_not_answer += usize::from(a.confidence != Confidence::Answer);
        }
        if a.confidence == Confidence::Answer {
            self.labelled_answer += 1;
            self.answer_correct += usize::from(rank.is_some_and(|r| r < 3));
            self.answer_correct_top1 += usize::from(rank == Some(0));
        }
    }

    pub fn merge(&mut self, o: &Tally) {
        self.answerable += o.answerable;
        self.uncovered += o.uncovered;
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.rr += o.rr;
        self.labelled_answer += o.labelled_answer;
        self.answer_correct += o.answer_correct;
        self.answer_correct_top1 += o.answer_correct_top1;
        self.uncovered_not_answer += o.uncovered_not_answer;
    }

    pub fn top3_rate(&self) -> f64 {
        ratio(self.top3, self.answerable)
    }
    pub fn answer_precision(&self) -> f64 {
        ratio(self.answer_correct, self.labelled_answer)
    }
    pub fn uncovered_rate(&self) -> f64 {
        ratio(self.uncovered_not_answer, self.uncovered)
    }
}

pub fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 1.0 } else { n as f64 / d as f64 }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "—".into()
    } else {
        format!("{:.1}", 100.0 * n as f64 / d as f64)
    }
}

/// A question our search got wrong, or did not label "answer".
pub struct Miss {
    pub split: String,
    pub game: String,
    pub q: String,
    pub got: Vec<String>,
    pub want: Vec<String>,
    pub confidence: Confidence,
}

/// Results per (split, group): ours and the baseline.
#[derive(Default)]
pub struct Report {
    pub rows: BTreeMap<(String, String), (Tally, Tally)>,
    pub misses: Vec<Miss>,
}

impl Report {
    pub fn add(&mut self, c: &Case, ours: &Answer, base: &Answer) {
        let group = if c.is_mtg() { "mtg" } else { "five games" };
        let mut keys = vec![(c.split.clone(), c.game.clone())];
        // MTG is its own game and group: count it once.
        if group != c.game {
            keys.push((c.split.clone(), group.into()));
        }
        keys.push((c.split.clone(), "all".into()));
        for key in keys {
            let row = self.rows.entry(key).or_default();
            row.0.add(c, ours);
            row.1.add(c, base);
        }
        let rank = ours.ids.iter().position(|i| c.expect.contains(i));
        let wrong = if c.answerable() {
            rank.is_none_or(|r| r >= 3)
        } else {
            ours.confidence == Confidence::Answer
        };
        if wrong || (c.answerable() && ours.confidence != Confidence::Answer) {
            self.misses.push(Miss {
                split: c.split.clone(),
                game: c.game.clone(),
                q: c.q.clone(),
                got: ours.ids.iter().take(3).cloned().collect(),
                want: c.expect.clone(),
                confidence: ours.confidence,
            });
        }
    }

    pub fn get(&self, split: &str, group: &str) -> (Tally, Tally) {
        self.rows
            .get(&(split.to_string(), group.to_string()))
            .copied()
            .unwrap_or_default()
    }

    /// A markdown table per split.
    pub fn table(&self, splits: &[&str]) -> String {
        let mut out = String::new();
        for &split in splits {
            let _ = writeln!(out, "\n{split}:\n");
            let _ = writeln!(
                out,
                "| game | answerable / uncovered | top-1 | top-3 | MRR | \"answer\" correct | answerable labelled \"answer\" (correct) | uncovered not \"answer\" | BM25 top-1 | BM25 top-3 | BM25 MRR | BM25 \"answer\" correct | BM25 uncovered not \"answer\" |"
            );
            let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            let order = [
                "ashes",
                "grand-archive",
                "legion",
                "magewinds",
                "ti4",
                "none",
                "five games",
                "mtg",
                "all",
            ];
            for game in order {
                let Some((o, b)) = self.rows.get(&(split.to_string(), game.to_string())) else {
                    continue;
                };
                let name = if matches!(game, "five games" | "mtg" | "all") {
                    format!("**{game}**")
                } else {
                    game.to_string()
                };
                let _ = writeln!(
                    out,
                    "| {name} | {} / {} | {} | {} | {:.3} | {} ({}/{}) | {} ({}/{}) | {} ({}/{}) | {} | {} | {:.3} | {} ({}/{}) | {} ({}/{}) |",
                    o.answerable,
                    o.uncovered,
                    pct(o.top1, o.answerable),
                    pct(o.top3, o.answerable),
                    o.rr / o.answerable.max(1) as f64,
                    pct(o.answer_correct, o.labelled_answer),
                    o.answer_correct,
                    o.labelled_answer,
                    pct(o.answer_correct, o.answerable),
                    o.answer_correct,
                    o.answerable,
                    pct(o.uncovered_not_answer, o.uncovered),
                    o.uncovered_not_answer,
                    o.uncovered,
                    pct(b.top1, b.answerable),
                    pct(b.top3, b.answerable),
                    b.rr / b.answerable.max(1) as f64,
                    pct(b.answer_correct, b.labelled_answer),
                    b.answer_correct,
                    b.labelled_answer,
                    pct(b.uncovered_not_answer, b.uncovered),
                    b.uncovered_not_answer,
                    b.uncovered,
                );
            }
        }
        out
    }
}

/// Runs every case of `cases` through both engines.
pub fn run(app: &App, cases: &[&Case], report: &mut Report) {
    let baseline = Baseline::build(app);
    for c in cases {
        let o = ours(app, c);
        let b = baseline.ask(app, c);
        report.add(c, &o, &b);
    }
}
