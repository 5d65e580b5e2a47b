//! Glossary phrases ("slang → rules words"), longest first, with an index
//! from a phrase's first word to the phrases it starts, so that a question
//! is compared only with the phrases that can match it (issue 17: scanning
//! every phrase at every word was a third of a query's analysis).

use rustc_hash::FxHashMap;

use super::analyze::Word;

/// (phrase words, expansions: each a space-joined rules phrase).
pub type Synonym = (Vec<String>, Vec<String>);

#[derive(Default)]
pub struct Phrases {
    /// Longest phrase first, then in word order.
    list: Vec<Synonym>,
    /// First word → positions in `list`, ascending.
    by_first: FxHashMap<String, Vec<u32>>,
}

impl Phrases {
    pub fn new(mut list: Vec<Synonym>) -> Phrases {
        list.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        let mut by_first: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for (i, (key, _)) in list.iter().enumerate() {
            if let Some(first) = key.first() {
                by_first.entry(first.clone()).or_default().push(i as u32);
            }
        }
        Phrases { list, by_first }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Synonym> {
        self.list.iter()
    }

    /// Whether `word` alone is a phrase (looked up by its first word).
    pub fn has_word(&self, word: &str) -> bool {
        self.by_first
            .get(word)
            .is_some_and(|at| at.iter().any(|&i| self.list[i as usize].0.len() == 1))
    }

    /// The phrases that start with one of `words`, in the list's order
    /// (longest first): the only ones that can match inside `words`.
    pub fn candidates<'a>(&'a self, words: &[Word]) -> impl Iterator<Item = &'a Synonym> + 'a {
        let mut at: Vec<u32> = words
            .iter()
            .filter_map(|w| self.by_first.get(&w.text))
            .flatten()
            .copied()
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter().map(|i| &self.list[i as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<Word> {
        text.split(' ')
            .map(|w| Word {
                text: w.to_string(),
                proper: false,
            })
            .collect()
    }

    fn syn(key: &str) -> Synonym {
        (key.split(' ').map(String::from).collect(), vec![])
    }

    #[test]
    fn candidates_are_the_phrases_starting_with_a_question_word_longest_first() {
        let p = Phrases::new(vec![
            syn("chump"),
            syn("chump block"),
            syn("sac"),
            syn("enters the battlefield"),
        ]);
        let found: Vec<String> = p
            .candidates(&words("can i chump block then sac it"))
            .map(|(k, _)| k.join(" "))
            .collect();
        assert_eq!(found, ["chump block", "chump", "sac"]);
        assert_eq!(p.candidates(&words("nothing here")).count(), 0);
        assert_eq!(p.iter().count(), 4);
    }
}
