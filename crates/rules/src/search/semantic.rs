//! The semantic stage of the search (docs/SEARCH.md, "The semantic
//! stage"): the lexical ranking's first [`DEPTH`] candidates re-scored with
//! the cosine between the question's vector and each passage's, from a
//! sentence encoder given by the caller ([`Encode`]; the shipped one is
//! `crate::semantic`, feature `semantic`). I/O-free: passage vectors come
//! from vectors the caller read ([`Known`], keyed by the text embedded) or
//! are computed here once, when an index is given its stage; they are kept
//! as int8 (384 bytes a passage). A question's vector is cached.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

use crate::corpus::{Corpus, PassageIdx, PassageKind};

use super::Hit;

/// Dimensions of a vector.
pub const DIMS: usize = 384;
/// Lexical candidates re-scored.
pub const DEPTH: usize = 20;
/// Weight of the (min-max normalised) cosine against the lexical score
/// over the best; set on the tuning part (docs/SEARCH.md).
pub const WEIGHT: f32 = 0.5;
/// Questions whose vectors are kept.
const CACHE: usize = 256;

/// A sentence encoder: text → unit vector of [`DIMS`] dimensions.
pub trait Encode: Send + Sync + std::panic::RefUnwindSafe {
    fn encode(&self, text: &str) -> Vec<f32>;
}

/// An int8 vector: each component × 127 / the largest |component|.
pub type Quantized = [i8; DIMS];

/// Vectors already computed, by [`key`] of the text embedded.
pub type Known = FxHashMap<u64, Quantized>;

/// What is embedded for a passage: its heading path below the document,
/// its title and its text (the title alone for a heading without text).
pub fn passage_text(corpus: &Corpus, idx: PassageIdx) -> String {
    let p = &corpus.passages[idx];
    let mut s = String::new();
    for title in p.path.iter().skip(1) {
        s.push_str(title);
        s.push_str(". ");
    }
    if p.kind != PassageKind::Item || !p.text.starts_with(p.title.as_str()) {
        s.push_str(&p.title);
        s.push_str(". ");
    }
    s.push_str(p.text.trim());
    s
}

/// What is embedded for a question: the question, then the text of the
/// cards it names (as the lexical stage weighs them in).
pub fn with_context(question: &str, cards: &[String]) -> String {
    let mut s = question.trim().to_string();
    for c in cards {
        s.push('\n');
        s.push_str(c);
    }
    s
}

/// Characters of a question embedded (about 100 word pieces): a longer
/// message is a chat, not a question, and the cost grows with its length.
pub const QUESTION_CHARS: usize = 400;

/// The key of a text embedded: 64-bit FNV-1a of its bytes.
pub fn key(text: &str) -> u64 {
    crate::text::fnv1a64(text)
}

pub fn quantize(v: &[f32]) -> Quantized {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs())).max(f32::EPSILON);
    let mut q = [0i8; DIMS];
    for (q, x) in q.iter_mut().zip(v) {
        *q = (x * 127.0 / max).round().clamp(-127.0, 127.0) as i8;
    }
    q
}

/// A vector as bytes (each component's two's complement), to be stored.
pub fn to_bytes(v: &Quantized) -> Vec<u8> {
    v.iter().map(|&x| x as u8).collect()
}

/// A vector from the bytes [`to_bytes`] wrote; `None` for another length.
pub fn from_bytes(bytes: &[u8]) -> Option<Quantized> {
    let mut q = [0i8; DIMS];
    if bytes.len() != DIMS {
        return None;
    }
    for (q, &b) in q.iter_mut().zip(bytes) {
        *q = b as i8;
    }
    Some(q)
}

/// Cosine between a unit vector and a quantized one.
pub fn cosine(question: &[f32], passage: &Quantized) -> f32 {
    let (mut dot, mut norm) = (0f32, 0f32);
    for (q, &p) in question.iter().zip(passage) {
        let p = f32::from(p);
        dot += q * p;
        norm += p * p;
    }
    if norm <= 0.0 { 0.0 } else { dot / norm.sqrt() }
}

/// The vectors file (`semantic-vectors.bin` beside shipped rule data):
/// "ARBV1\n", then per text its [`key`] (u64 LE) and its vector; sorted by key.
pub fn write_known(known: &Known) -> Vec<u8> {
    let mut keys: Vec<&u64> = known.keys().collect();
    keys.sort_unstable();
    let mut out = Vec::with_capacity(6 + keys.len() * (8 + DIMS));
    out.extend_from_slice(MAGIC);
    for k in keys {
        out.extend_from_slice(&k.to_le_bytes());
        out.extend(known[k].iter().map(|&v| v as u8));
    }
    out
}

const MAGIC: &[u8] = b"ARBV1\n";

/// Reads [`write_known`]'s format.
pub fn read_known(bytes: &[u8]) -> Result<Known, String> {
    let body = bytes
        .strip_prefix(MAGIC)
        .ok_or("not a vectors file (no ARBV1 header)")?;
    if body.len() % (8 + DIMS) != 0 {
        return Err("a vectors file whose length is not whole entries".into());
    }
    Ok(body
        .chunks_exact(8 + DIMS)
        .map(|c| {
            let mut k = [0u8; 8];
            k.copy_from_slice(&c[..8]);
            let mut v = [0i8; DIMS];
            for (v, &b) in v.iter_mut().zip(&c[8..]) {
                *v = b as i8;
            }
            (u64::from_le_bytes(k), v)
        })
        .collect())
}

/// The keys of the passages of `corpus` that `known` lacks.
pub fn missing(corpus: &Corpus, known: &Known) -> Vec<PassageIdx> {
    (0..corpus.passages.len())
        .filter(|&i| !known.contains_key(&key(&passage_text(corpus, i))))
        .collect()
}

/// An index's semantic stage: the encoder, one vector a passage, and the
/// questions' vectors lately asked.
pub struct Stage {
    encoder: Arc<dyn Encode>,
    vectors: Vec<Quantized>,
    /// Which passages have a vector, for a partial stage ([`Stage::partial`]);
    /// empty when every passage has one.
    has: Vec<bool>,
    cache: Mutex<Vec<(String, Arc<[f32]>)>>,
}

impl Stage {
    /// A stage over the vectors `known` has, embedding nothing (the caller
    /// embeds what it lacks first, or leaves it partial): a passage without
    /// one keeps its lexical score (its share of the best counts for the
    /// semantic part too), and a question with fewer than two candidates
    /// that have one keeps its lexical ranking. Partial for the time a
    /// folder's vectors are computed in the background (the other games
    /// keep the stage meanwhile).
    pub fn new(corpus: &Corpus, encoder: Arc<dyn Encode>, known: &Known) -> Stage {
        let found: Vec<Option<Quantized>> = (0..corpus.passages.len())
            .map(|i| known.get(&key(&passage_text(corpus, i))).copied())
            .collect();
        let complete = found.iter().all(Option::is_some);
        Stage {
            encoder,
            has: if complete {
                Vec::new()
            } else {
                found.iter().map(Option::is_some).collect()
            },
            vectors: found.into_iter().map(|v| v.unwrap_or([0; DIMS])).collect(),
            cache: Mutex::new(Vec::new()),
        }
    }

    /// Whether every passage has its vector.
    pub fn complete(&self) -> bool {
        self.has.is_empty()
    }

    fn has(&self, passage: PassageIdx) -> bool {
        self.has.get(passage).copied().unwrap_or(true)
    }

    /// Its encoder (a rule set built on this index uses the same).
    pub fn encoder(&self) -> Arc<dyn Encode> {
        self.encoder.clone()
    }

    /// Its passage vectors by the key of their text (`corpus` is the one
    /// the stage was built for).
    pub fn known(&self, corpus: &Corpus) -> Known {
        (0..self.vectors.len().min(corpus.passages.len()))
            .filter(|&i| self.has(i))
            .map(|i| (key(&passage_text(corpus, i)), self.vectors[i]))
            .collect()
    }

    /// Forgets the questions' vectors (benchmarks of a new question).
    pub fn clear_cache(&self) {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Heap bytes of the passage vectors.
    pub fn vector_bytes(&self) -> usize {
        self.vectors.len() * DIMS
    }

    /// The question's vector, from the cache when asked lately.
    pub fn question(&self, text: &str) -> Arc<[f32]> {
        let text = match text.trim().char_indices().nth(QUESTION_CHARS) {
            Some((at, _)) => &text.trim()[..at],
            None => text.trim(),
        };
        {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = cache.iter().position(|(q, _)| q == text) {
                let hit = cache.remove(at);
                let v = hit.1.clone();
                cache.push(hit);
                return v;
            }
        }
        let v: Arc<[f32]> = self.encoder.encode(text).into();
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE {
            cache.remove(0);
        }
        cache.push((text.to_string(), v.clone()));
        v
    }

    /// Re-scores the first [`DEPTH`] of `ranked` (best first):
    /// (1 − [`WEIGHT`]) × score / best + [`WEIGHT`] × cosine min-max
    /// normalised among them, in units of the best score; the rest keep
    /// their order below. Records each candidate's cosine and ranks.
    pub fn rescore(&self, question: &str, ranked: &mut [Hit]) {
        let depth = ranked.len().min(DEPTH);
        // Fewer than two candidates with a vector: no cosine to compare (one
        // alone would be normalised to 0, under every passage without one).
        if ranked[..depth]
            .iter()
            .filter(|h| self.has(h.passage))
            .count()
            < 2
        {
            return;
        }
        let q = self.question(question);
        let best = ranked[0].score.max(f32::EPSILON);
        let cos: Vec<Option<f32>> = ranked[..depth]
            .iter()
            .map(|h| {
                self.has(h.passage)
                    .then(|| cosine(&q, &self.vectors[h.passage]))
            })
            .collect();
        let (lo, hi) = cos
            .iter()
            .flatten()
            .fold((f32::MAX, f32::MIN), |(l, h), &c| (l.min(c), h.max(c)));
        let mut by_cos: Vec<usize> = (0..depth).filter(|&i| cos[i].is_some()).collect();
        let c = |i: usize| cos[i].unwrap_or(f32::MIN);
        by_cos.sort_by(|&a, &b| c(b).total_cmp(&c(a)).then(a.cmp(&b)));
        for (lexical_rank, h) in ranked.iter_mut().enumerate() {
            let share = h.score / best;
            h.semantic = None;
            h.score = best * (1.0 - WEIGHT) * share;
            match cos.get(lexical_rank).copied() {
                // A candidate without a vector (a partial stage) keeps its
                // lexical share for the semantic part too.
                Some(None) => h.score += best * WEIGHT * share,
                Some(Some(c)) => {
                    let norm = if hi > lo { (c - lo) / (hi - lo) } else { 0.0 };
                    h.score += best * WEIGHT * norm;
                    h.semantic = Some(Semantic {
                        cosine: c,
                        lexical_rank: lexical_rank as u16,
                        semantic_rank: by_cos.iter().position(|&i| i == lexical_rank).unwrap_or(0)
                            as u16,
                    });
                }
                None => {}
            }
        }
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.passage.cmp(&b.passage)));
    }
}

/// A candidate's semantic evidence.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Semantic {
    /// Cosine between the question's vector and the passage's.
    pub cosine: f32,
    /// Its rank (from 0) in the lexical ranking.
    pub lexical_rank: u16,
    /// Its rank (from 0) by cosine among the candidates re-scored.
    pub semantic_rank: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantized_vectors_keep_their_cosine() {
        let v: Vec<f32> = (0..DIMS)
            .map(|i| ((i * 7919) % 101) as f32 - 50.0)
            .collect();
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let v: Vec<f32> = v.iter().map(|x| x / n).collect();
        assert!((cosine(&v, &quantize(&v)) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn the_vectors_file_reads_back() {
        let mut known = Known::default();
        known.insert(key("a"), quantize(&[0.5; DIMS]));
        known.insert(key("b"), quantize(&[-0.25; DIMS]));
        assert_eq!(read_known(&write_known(&known)).unwrap(), known);
        assert!(read_known(b"nope").is_err());
    }
}
