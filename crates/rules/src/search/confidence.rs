//! How sure a search is that its first passage answers the question, decided
//! from evidence about that passage, never from words the rules do not use.

use serde::Serialize;

use super::query::Query;
use super::{Hit, Index};
use crate::corpus::{Corpus, PassageIdx};

/// The label an `ask` reply carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// The first passage answers the question.
    Answer,
    /// The closest rules; they may not answer the question.
    Closest,
    /// Nothing indexed is relevant; no passages.
    None,
}

/// Thresholds, set on the tuning part of the evaluation (docs/SEARCH.md):
/// "answer" needs the first passage to cover this share of the question's
/// rule vocabulary, its highlighted sentence this share, a score this many
/// times the second passage's, no other candidate covering as much, and no
/// English word of the question that no rule uses.
const ANSWER_COVERAGE: f32 = 0.5;
const ANSWER_HIGHLIGHT: f32 = 0.3;
const ANSWER_MARGIN: f32 = 1.6;
/// "answer" also needs this much rule evidence: the covered weight in units
/// of the rarest possible term's IDF. Set on the tuning part: more than any
/// question there that the rules do not answer reaches (1.53; docs/SEARCH.md).
const ANSWER_STRENGTH: f32 = 1.6;
/// Below this coverage nothing indexed is relevant: "none".
const RELEVANT_COVERAGE: f32 = 0.2;

/// What the label is decided from: the first passage's evidence.
#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    /// The first passage, which the evidence is about.
    #[serde(skip)]
    pub passage: PassageIdx,
    /// Share of the question's rule vocabulary (by weight) in the first
    /// passage and its parent.
    pub coverage: f32,
    /// Share of it in the highlighted sentence alone.
    pub highlight: f32,
    /// First score over the second (1 when they tie; 10 when alone).
    pub margin: f32,
    /// First score over the best candidate outside its rule family (not
    /// its parent, a child or a sibling): neighbouring rules share words.
    /// Evidence for calibration (`search_eval --calibrate`); not in the label.
    pub family_margin: f32,
    /// Whether the first passage was also plain BM25's first: the lexical
    /// score and the coverage re-ranking agree. Evidence for calibration;
    /// not in the label.
    pub agree: bool,
    /// Other candidates covering as much of the question.
    pub rivals: usize,
    /// Rule-vocabulary weight (summed IDF) the first passage covers.
    pub weight: f32,
    /// That weight over the largest IDF a term can have in this index: how
    /// many rare rules words' worth of evidence the passage carries.
    pub strength: f32,
    /// How many term groups the question has.
    pub terms: usize,
    /// English words of the question no rule uses: topics not indexed.
    pub unknown_topics: usize,
    /// The semantic stage's evidence, when it re-scored the candidates.
    /// Evidence for calibration (`search_eval --calibrate`); not in the
    /// label: the rule calibrated on it failed on held-out (docs/SEARCH.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<SemanticEvidence>,
}

/// What the semantic stage says of the first passage.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SemanticEvidence {
    /// Cosine between the question and the first passage.
    pub cosine: f32,
    /// That cosine minus the best of the other candidates' (outside the
    /// first's glossary entry).
    pub cosine_gap: f32,
    /// The first passage's rank (from 0) in the lexical ranking.
    pub lexical_rank: u16,
    /// Its rank (from 0) by cosine among the candidates re-scored.
    pub semantic_rank: u16,
}

impl Evidence {
    pub(super) fn of(
        index: &Index,
        corpus: &Corpus,
        q: &Query,
        hits: &[Hit],
        ranked: &[Hit],
    ) -> Option<Evidence> {
        let first = hits.first()?;
        let groups = &q.groups;
        let total: f32 = groups.iter().map(|g| g.weight).sum();
        if total <= 0.0 {
            return None;
        }
        // The highlight's sentence, as the index analysed it.
        let sentence = index.best_sentence(&corpus.passages[first.passage].text, groups, 1.0);
        let in_highlight: f32 = groups
            .iter()
            .map(|g| g.weight * g.matched(|t| sentence.as_ref().is_some_and(|s| s.has(t))))
            .sum();
        let margin = hits.get(1).map_or(10.0, |s| {
            (first.score / s.score.max(f32::EPSILON)).min(10.0)
        });
        let parent = |i: usize| corpus.passages[i].parent;
        let related = |a: usize, b: usize| {
            a == b
                || parent(a) == Some(b)
                || parent(b) == Some(a)
                || (parent(a).is_some() && parent(a) == parent(b))
        };
        let family_margin = ranked
            .iter()
            .find(|h| !related(h.passage, first.passage) && Some(h.passage) != first.via)
            .map_or(10.0, |s| {
                (first.score / s.score.max(f32::EPSILON)).min(10.0)
            });
        let agree = ranked
            .iter()
            .max_by(|a, b| {
                a.lexical
                    .total_cmp(&b.lexical)
                    .then(b.passage.cmp(&a.passage))
            })
            .is_some_and(|h| h.passage == first.passage || Some(h.passage) == first.via);
        let rivals = ranked
            .iter()
            .filter(|h| h.passage != first.passage && Some(h.passage) != first.via)
            .filter(|h| h.coverage >= first.coverage - 0.001)
            .count();
        let semantic = first.semantic.map(|s| {
            let best_other = ranked
                .iter()
                .filter(|h| h.passage != first.passage && Some(h.passage) != first.via)
                .filter_map(|h| h.semantic.map(|x| x.cosine))
                .fold(f32::MIN, f32::max);
            SemanticEvidence {
                cosine: s.cosine,
                cosine_gap: if best_other == f32::MIN {
                    1.0
                } else {
                    s.cosine - best_other
                },
                lexical_rank: s.lexical_rank,
                semantic_rank: s.semantic_rank,
            }
        });
        Some(Evidence {
            passage: first.passage,
            semantic,
            family_margin,
            agree,
            rivals,
            weight: total * first.coverage,
            strength: total * first.coverage / index.max_idf(),
            coverage: first.coverage,
            highlight: in_highlight / total,
            margin,
            terms: groups.len(),
            unknown_topics: q.unknown_topics,
        })
    }

    pub fn label(&self) -> Confidence {
        if self.coverage < RELEVANT_COVERAGE {
            Confidence::None
        } else if self.coverage >= ANSWER_COVERAGE
            && self.highlight >= ANSWER_HIGHLIGHT
            && self.margin >= ANSWER_MARGIN
            && self.strength >= ANSWER_STRENGTH
            && self.rivals == 0
            && self.unknown_topics == 0
        {
            Confidence::Answer
        } else {
            Confidence::Closest
        }
    }
}

impl Index {
    /// Cosine between a question's vector and a sentence's (the semantic
    /// stage's encoder), when the stage is on: evidence for calibration
    /// only (`search_eval --calibrate`). The label does not use it: the
    /// rules calibrated on it failed on held-out (docs/SEARCH.md, ""answer"
    /// from the highlighted sentence's meaning"), so `ask` embeds no
    /// sentence.
    pub fn sentence_cosine(&self, question: &str, sentence: &str) -> Option<f32> {
        let stage = self.semantic().filter(|_| super::levers::get().semantic)?;
        if sentence.trim().is_empty() {
            return None;
        }
        let q = stage.question(question);
        let v = stage.encoder().encode(sentence);
        Some(q.iter().zip(&v).map(|(a, b)| a * b).sum())
    }
}
