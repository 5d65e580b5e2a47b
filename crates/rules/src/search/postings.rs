//! BM25 candidates from an inverted index: the `bm25` crate's scores (its
//! embeddings, its idf, the same sums in the same order), computed per query
//! term over the passages that have it, instead of per matching passage over
//! every query term with hash sets in between.
//!
//! An entry keeps the term's count in the passage, not the crate's value:
//! the value is found again from the count and the passage's length with the
//! crate's formula, operation for operation (6 bytes an entry, not 8).

use bm25::Embedding;

/// The `bm25` crate's defaults, set explicitly where the embedder is built.
pub(super) const K1: f32 = 1.2;
pub(super) const B: f32 = 0.75;

/// One scored passage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Scored {
    pub id: u32,
    pub score: f32,
}

/// Per embedding index (sorted): its idf and where its list ends; the lists
/// are stored end to end (no list has a header or spare capacity of its own).
#[derive(Default)]
pub(super) struct Postings {
    /// (embedding index, idf, end of its list in `ids`/`counts`), by index.
    lists: Vec<(u32, f32, u32)>,
    ids: Vec<u32>,
    /// The index's count in the passage (saturating: past 65,535 the value
    /// no longer changes at f32 precision).
    counts: Vec<u16>,
    /// Per passage id: the crate's length term, `k1 × (1 − b + b × len / avgdl)`.
    norms: Vec<f32>,
}

impl Postings {
    /// From each passage's embedding (passages without tokens left out),
    /// made by an embedder with [`K1`], [`B`] and `avgdl`.
    pub fn build(docs: impl IntoIterator<Item = (u32, Embedding<u32>)>, avgdl: f32) -> Postings {
        let mut lists: rustc_hash::FxHashMap<u32, Vec<(u32, u16)>> = Default::default();
        let mut norms: Vec<f32> = Vec::new();
        let mut count = 0usize;
        for (id, embedding) in docs {
            count += 1;
            let at = id as usize;
            if norms.len() <= at {
                norms.resize(at + 1, 0.0);
            }
            // The embedding has one entry per token: its length is the
            // passage's, and an index repeats once per occurrence.
            let len = embedding.iter().count();
            norms[at] = K1 * (1.0 - B + B * (len as f32 / avgdl));
            for t in embedding.iter() {
                let list = lists.entry(t.index).or_default();
                match list.last_mut() {
                    Some((d, n)) if *d == id => *n = n.saturating_add(1),
                    _ => list.push((id, 1)),
                }
            }
        }
        let mut indices: Vec<u32> = lists.keys().copied().collect();
        indices.sort_unstable();
        let total = lists.values().map(Vec::len).sum();
        let mut out = Postings {
            lists: Vec::with_capacity(indices.len()),
            ids: Vec::with_capacity(total),
            counts: Vec::with_capacity(total),
            norms,
        };
        for index in indices {
            let list = &lists[&index];
            out.ids.extend(list.iter().map(|&(d, _)| d));
            out.counts.extend(list.iter().map(|&(_, n)| n));
            let idf = idf_of(count, list.len());
            out.lists.push((index, idf, out.ids.len() as u32));
        }
        out
    }

    /// The crate's value of an index seen `count` times in passage `id`.
    fn value(&self, id: usize, count: u16) -> f32 {
        let tf = f32::from(count);
        let numerator = tf * (K1 + 1.0);
        let denominator = tf + self.norms[id];
        numerator / denominator
    }

    /// An index's idf and its list's range.
    fn list(&self, index: u32) -> Option<(f32, std::ops::Range<usize>)> {
        let k = self
            .lists
            .binary_search_by_key(&index, |&(i, _, _)| i)
            .ok()?;
        let start = k.checked_sub(1).map_or(0, |p| self.lists[p].2 as usize);
        let (_, idf, end) = self.lists[k];
        Some((idf, start..end as usize))
    }

    /// Every passage with at least one of the query's indices, with its
    /// score, in no particular order.
    pub fn matches(&self, query: &Embedding<u32>) -> Vec<Scored> {
        let mut score = vec![0f32; self.norms.len()];
        let mut seen = vec![false; self.norms.len()];
        let mut out = Vec::new();
        for t in query.iter() {
            let Some((idf, range)) = self.list(t.index) else {
                continue;
            };
            for (&id, &n) in self.ids[range.clone()].iter().zip(&self.counts[range]) {
                let i = id as usize;
                score[i] += idf * self.value(i, n);
                if !seen[i] {
                    seen[i] = true;
                    out.push(id);
                }
            }
        }
        out.into_iter()
            .map(|id| Scored {
                id,
                score: score[id as usize],
            })
            .collect()
    }
}

/// The `bm25` crate's idf, operation for operation.
fn idf_of(docs: usize, with: usize) -> f32 {
    let with = with as f32;
    let numerator = docs as f32 - with + 0.5;
    let denominator = with + 0.5;
    (1f32 + (numerator / denominator)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bm25::{EmbedderBuilder, Scorer};

    /// The same scores as `bm25::Scorer`, bit for bit, for the same passages.
    #[test]
    fn scores_as_the_bm25_crate() {
        let texts = [
            "attack unit guard unit",
            "guard phoenixborn exhausted",
            "",
            "unit unit unit damage",
            "guard guard guard guard guard guard guard unit power dice damage attack block",
            "exhausted unit cannot guard or block",
            "dice power",
        ];
        let embedder =
            EmbedderBuilder::<u32, crate::search::analyze::PreTokenized>::with_avgdl(3.0)
                .k1(K1)
                .b(B)
                .build();
        let mut scorer = Scorer::<u32>::new();
        let mut docs = Vec::new();
        for (i, t) in texts.iter().enumerate().filter(|(_, t)| !t.is_empty()) {
            scorer.upsert(&(i as u32), embedder.embed(t));
            docs.push((i as u32, embedder.embed(t)));
        }
        let postings = Postings::build(docs, 3.0);
        for q in [
            "guard unit",
            "exhausted",
            "dice attack damage",
            "nothing here",
            "",
        ] {
            let query = embedder.embed(q);
            let mut ours: Vec<(u32, u32)> = postings
                .matches(&query)
                .iter()
                .map(|s| (s.id, s.score.to_bits()))
                .collect();
            let mut theirs: Vec<(u32, u32)> = scorer
                .matches(&query)
                .iter()
                .map(|s| (s.id, s.score.to_bits()))
                .collect();
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "{q}");
        }
        assert!(!postings.matches(&embedder.embed("guard")).is_empty());
    }
}
