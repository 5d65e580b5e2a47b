//! BM25 candidates from an inverted index: the `bm25` crate's scores (its
//! embeddings, its idf, the same sums in the same order), computed per query
//! term over the passages that have it, instead of per matching passage over
//! every query term with hash sets in between.

use rustc_hash::FxHashMap;

use bm25::Embedding;

/// One scored passage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Scored {
    pub id: u32,
    pub score: f32,
}

/// Per embedding index: its idf and the passages that have it, with the
/// index's BM25 value in each. The lists are stored end to end in one
/// vector (no list has a header or spare capacity of its own).
#[derive(Default)]
pub(super) struct Postings {
    /// Embedding index → its idf and its list's range in `entries`.
    lists: FxHashMap<u32, (f32, u32, u32)>,
    entries: Vec<(u32, f32)>,
    /// One past the highest passage id.
    len: usize,
}

impl Postings {
    /// From each passage's embedding (passages without tokens left out).
    pub fn build(docs: impl IntoIterator<Item = (u32, Embedding<u32>)>) -> Postings {
        let mut lists: FxHashMap<u32, (f32, Vec<(u32, f32)>)> = FxHashMap::default();
        let (mut count, mut len) = (0usize, 0usize);
        for (id, embedding) in docs {
            count += 1;
            len = len.max(id as usize + 1);
            for t in embedding.iter() {
                let list = &mut lists.entry(t.index).or_default().1;
                // An index repeats once per occurrence, with one value.
                if list.last().is_none_or(|&(d, _)| d != id) {
                    list.push((id, t.value));
                }
            }
        }
        let total = lists.values().map(|(_, l)| l.len()).sum();
        let mut entries = Vec::with_capacity(total);
        let mut ranges = FxHashMap::default();
        ranges.reserve(lists.len());
        for (index, (_, list)) in lists {
            let start = entries.len() as u32;
            entries.extend_from_slice(&list);
            let idf = idf_of(count, list.len());
            ranges.insert(index, (idf, start, entries.len() as u32));
        }
        Postings {
            lists: ranges,
            entries,
            len,
        }
    }

    /// Every passage with at least one of the query's indices, with its
    /// score, in no particular order.
    pub fn matches(&self, query: &Embedding<u32>) -> Vec<Scored> {
        let mut score = vec![0f32; self.len];
        let mut seen = vec![false; self.len];
        let mut out = Vec::new();
        for t in query.iter() {
            let Some(&(idf, start, end)) = self.lists.get(&t.index) else {
                continue;
            };
            for &(id, value) in &self.entries[start as usize..end as usize] {
                let i = id as usize;
                score[i] += idf * value;
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
            "exhausted unit cannot guard or block",
            "dice power",
        ];
        let embedder =
            EmbedderBuilder::<u32, crate::search::analyze::PreTokenized>::with_avgdl(3.0).build();
        let mut scorer = Scorer::<u32>::new();
        let mut docs = Vec::new();
        for (i, t) in texts.iter().enumerate().filter(|(_, t)| !t.is_empty()) {
            scorer.upsert(&(i as u32), embedder.embed(t));
            docs.push((i as u32, embedder.embed(t)));
        }
        let postings = Postings::build(docs);
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
