//! Switches for the evaluation's ablation (docs/SEARCH.md): each lever of
//! the search can be turned off alone by naming it in the environment
//! variable `ARBITER_SEARCH_OFF` (comma-separated), read once per process.
//! Every lever is on by default; nothing else reads this variable.

use std::sync::OnceLock;

/// Which levers are on.
#[derive(Debug, Clone, Copy)]
pub struct Levers {
    /// Symbol tokens kept as words: "+1/+1", "-1/-1", "{T}", "0/1".
    pub symbols: bool,
    /// Agent nouns reduced to their verb: "striker" → strike.
    pub agent_nouns: bool,
    /// Numbered or "and separately" questions answered part by part.
    pub multipart: bool,
    /// The semantic stage re-scores the lexical candidates (when the index
    /// has one).
    pub semantic: bool,
    /// The text of the cards a question names re-scores its candidates
    /// (the cards are still found and shown).
    pub cards: bool,
}

impl Levers {
    fn from_env(off: &str) -> Levers {
        let off: Vec<&str> = off.split(',').map(str::trim).collect();
        Levers {
            symbols: !off.contains(&"symbols"),
            agent_nouns: !off.contains(&"agent_nouns"),
            multipart: !off.contains(&"multipart"),
            semantic: !off.contains(&"semantic"),
            cards: !off.contains(&"cards"),
        }
    }
}

/// The levers of this process.
pub fn get() -> Levers {
    static LEVERS: OnceLock<Levers> = OnceLock::new();
    *LEVERS
        .get_or_init(|| Levers::from_env(&std::env::var("ARBITER_SEARCH_OFF").unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_named_lever_is_off_and_the_rest_on() {
        let l = super::Levers::from_env("symbols, multipart");
        assert!(!l.symbols && !l.multipart && l.agent_nouns && l.semantic);
        let all = super::Levers::from_env("");
        assert!(all.symbols && all.multipart && all.agent_nouns && all.semantic);
        assert!(!super::Levers::from_env("semantic").semantic);
        assert!(all.cards && !super::Levers::from_env("cards").cards);
    }
}
