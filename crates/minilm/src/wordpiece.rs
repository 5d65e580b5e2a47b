//! BERT's uncased tokenizer (the "BasicTokenizer" then WordPiece) as the
//! shipped model was trained with: clean the text, space out CJK
//! ideographs, lower-case and strip accents (NFD, marks dropped), split on
//! whitespace and punctuation, then split each word greedily into the
//! longest word pieces of the vocabulary ("##" marks a piece inside a
//! word). Checked against the reference token ids (tests/semantic.rs).

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Words longer than this many characters are one `[UNK]`.
const MAX_WORD_CHARS: usize = 100;

pub struct WordPiece {
    vocab: HashMap<String, u32>,
    pub cls: u32,
    pub sep: u32,
    unk: u32,
}

impl WordPiece {
    /// From `vocab.txt`: one piece a line, its id the line number.
    pub fn new(vocab: &str) -> Result<WordPiece, String> {
        let vocab: HashMap<String, u32> = vocab
            .lines()
            .enumerate()
            .map(|(i, l)| (l.to_string(), i as u32))
            .collect();
        let id = |t: &str| {
            vocab
                .get(t)
                .copied()
                .ok_or_else(|| format!("the vocabulary has no {t}"))
        };
        Ok(WordPiece {
            cls: id("[CLS]")?,
            sep: id("[SEP]")?,
            unk: id("[UNK]")?,
            vocab,
        })
    }

    /// The ids of `text`'s pieces, at most `max` of them (without
    /// `[CLS]`/`[SEP]`).
    pub fn ids(&self, text: &str, max: usize) -> Vec<u32> {
        let mut out = Vec::new();
        for word in basic_tokens(text) {
            if out.len() >= max {
                break;
            }
            self.pieces(&word, &mut out);
        }
        out.truncate(max);
        out
    }

    fn pieces(&self, word: &str, out: &mut Vec<u32>) {
        if word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unk);
            return;
        }
        let from = out.len();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(&piece) {
                    found = Some(id);
                    break;
                }
                end = word[..end].char_indices().last().map_or(start, |(i, _)| i);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(from);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

/// The words and punctuation marks of `text`, lower-cased without accents.
fn basic_tokens(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if is_cjk(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else if is_whitespace(c) {
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let mut out = Vec::new();
    for word in spaced.split(' ').filter(|w| !w.is_empty()) {
        let folded: String = word
            .to_lowercase()
            .nfd()
            .filter(|&c| c.general_category() != GeneralCategory::NonspacingMark)
            .collect();
        let mut current = String::new();
        for c in folded.chars() {
            if is_punctuation(c) {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                out.push(c.to_string());
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r') || c.general_category() == GeneralCategory::SpaceSeparator
}

fn is_control(c: char) -> bool {
    if matches!(c, '\t' | '\n' | '\r') {
        return false;
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control | GeneralCategory::Format
    )
}

fn is_punctuation(c: char) -> bool {
    let cp = c as u32;
    (33..=47).contains(&cp)
        || (58..=64).contains(&cp)
        || (91..=96).contains(&cp)
        || (123..=126).contains(&cp)
        || c.general_category_group() == GeneralCategoryGroup::Punctuation
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::basic_tokens;

    #[test]
    fn words_are_folded_and_punctuation_split() {
        assert_eq!(
            basic_tokens("Ünïcödé, +1/+1 {T}"),
            ["unicode", ",", "+", "1", "/", "+", "1", "{", "t", "}"]
        );
    }
}
