//! Text analysis shared by indexing and querying.

use bm25::{Language, Tokenizer};

/// English analysis: Unicode normalisation, lower case, NLTK stop words,
/// Snowball stemming (the `bm25` crate's default tokenizer).
pub struct Analyzer {
    inner: bm25::DefaultTokenizer,
}

impl Default for Analyzer {
    fn default() -> Self {
        Self::new()
    }
}

impl Analyzer {
    pub fn new() -> Analyzer {
        Analyzer {
            inner: bm25::DefaultTokenizer::new(Language::English),
        }
    }

    pub fn tokens(&self, text: &str) -> Vec<String> {
        self.inner.tokenize(text)
    }
}

/// Text that is already analysed: tokens separated by single spaces.
#[derive(Default)]
pub struct PreTokenized;

impl Tokenizer for PreTokenized {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        input_text
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Lower-case words of a text, punctuation removed (for phrase matching).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '\'' || c == '’'))
        .map(|w| {
            w.trim_matches(|c: char| c == '.' || c == '\'' || c == '’')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Splits text into sentences (and lines), keeping each sentence verbatim.
pub fn sentences(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        let end_here = b == b'\n'
            || (matches!(b, b'.' | b'?' | b'!')
                && bytes.get(i + 1).is_some_and(|&n| n == b' ' || n == b'\n')
                && !is_abbreviation(&text[start..=i]));
        if end_here {
            let s = &text[start..=i];
            if !s.trim().is_empty() {
                out.push(s);
            }
            start = i + 1;
        }
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(&text[start..]);
    }
    out.into_iter()
}

fn is_abbreviation(s: &str) -> bool {
    let tail = s.rsplit(' ').next().unwrap_or("").to_lowercase();
    matches!(tail.as_str(), "e.g." | "i.e." | "etc." | "vs." | "cf.")
        // Rule numbers such as "2.d." or "13.4." do not end a sentence.
        || (tail.contains(|c: char| c.is_ascii_digit()) && tail.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
}

/// Levenshtein distance with transpositions, or `None` when above `max`.
pub fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[b.len()] <= max).then_some(prev[b.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_transpositions() {
        assert_eq!(edit_distance("phoenixborn", "phoenixbron", 2), Some(1));
        assert_eq!(edit_distance("guard", "gaurd", 1), Some(1));
        assert_eq!(edit_distance("attack", "defend", 2), None);
    }

    #[test]
    fn sentences_keep_text_verbatim() {
        let s: Vec<&str> =
            sentences("E.g., If a player must. Then stop (see 2.d. below).\nNext").collect();
        assert_eq!(
            s,
            vec![
                "E.g., If a player must.",
                " Then stop (see 2.d. below).",
                "\n",
                "Next"
            ]
            .into_iter()
            .filter(|x| !x.trim().is_empty())
            .collect::<Vec<_>>()
        );
    }
}
