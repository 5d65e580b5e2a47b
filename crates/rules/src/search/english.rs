//! An English word list (SCOWL size 50, lower-case entries; licence in
//! `english/LICENSE`), so typo repair leaves real words alone: "stole" is
//! not "style", "swing" is not "sing".

use std::sync::OnceLock;

const WORDS: &str = include_str!("english/words.txt");

fn list() -> &'static [&'static str] {
    static LIST: OnceLock<Vec<&'static str>> = OnceLock::new();
    LIST.get_or_init(|| WORDS.lines().collect())
}

/// Loads the list now (a few milliseconds), so that the first question
/// asked does not wait for it.
pub fn warm() {
    let _ = list();
}

/// Whether `word` (lower case) is an English word, or a plural or
/// possessive of one.
pub fn is_word(word: &str) -> bool {
    let known = |w: &str| list().binary_search(&w).is_ok();
    known(word) || word.strip_suffix('s').is_some_and(known)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_non_words() {
        for w in [
            "stole", "swing", "wrath", "edict", "speed", "guard", "tapped", "zombies",
        ] {
            assert!(is_word(w), "{w}");
        }
        for w in ["gaurd", "exausted", "phoenixbron", "unsummon", "etb", ""] {
            assert!(!is_word(w), "{w}");
        }
    }
}
