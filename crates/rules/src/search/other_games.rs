//! Games a question names that no rule set here indexes ("in pokemon can
//! I…"): such a question is told so, instead of being answered from
//! another game's rules. The list is data, `rules_data/other-games.yaml`,
//! compiled in.

use super::analyze;
use serde::Deserialize;
use std::sync::OnceLock;

/// One game of the list: its display name and the names players use.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    aliases: Vec<String>,
}

/// Aliases as folded words, each with its game's display name.
pub(super) type OtherAliases = Vec<(Vec<String>, String)>;

const LIST: &str = include_str!("../../../../rules_data/other-games.yaml");

/// The list's aliases, longest first.
fn shipped() -> &'static OtherAliases {
    static LIST_WORDS: OnceLock<OtherAliases> = OnceLock::new();
    LIST_WORDS.get_or_init(|| parse(LIST).unwrap_or_default())
}

/// Parses a list: every alias and the name itself, as folded words.
fn parse(text: &str) -> Result<OtherAliases, serde_saphyr::Error> {
    let entries: Vec<Entry> = serde_saphyr::from_str(text)?;
    let mut out: OtherAliases = Vec::new();
    for e in &entries {
        for alias in std::iter::once(&e.name).chain(&e.aliases) {
            let words = analyze::words(alias);
            if !words.is_empty() && !out.iter().any(|(w, _)| *w == words) {
                out.push((words, e.name.clone()));
            }
        }
    }
    out.sort_by_key(|(w, _)| std::cmp::Reverse(w.iter().map(String::len).sum::<usize>()));
    Ok(out)
}

/// The list's games that `indexed` (the index's own game aliases) does not
/// hold: a game of the list a server uploaded under one of its names is
/// indexed, so its entry goes, every alias of it.
pub(super) fn not_indexed(indexed: &[(Vec<String>, String)]) -> OtherAliases {
    let list = shipped();
    let known = |name: &str| {
        list.iter()
            .any(|(w, n)| n == name && indexed.iter().any(|(a, _)| a == w))
    };
    list.iter()
        .filter(|(_, name)| !known(name))
        .cloned()
        .collect()
}

/// A question's words, possessives dropped ("pokemon's" → "pokemon").
pub(super) fn question_words(question: &str) -> Vec<String> {
    analyze::words(question)
        .into_iter()
        .map(|w| {
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("’s"))
                .map_or(w.clone(), str::to_string)
        })
        .collect()
}

/// The first of `aliases` the words name, longest names first.
pub(super) fn first_named<'a>(aliases: &'a OtherAliases, words: &[String]) -> Option<&'a str> {
    aliases
        .iter()
        .filter_map(|(alias, name)| {
            let pos = words
                .windows(alias.len())
                .position(|w| w == alias.as_slice())?;
            Some((pos, name.as_str()))
        })
        .min_by_key(|(pos, _)| *pos)
        .map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_list_parses_and_names_no_english_word_alone() {
        let list = parse(LIST).expect("rules_data/other-games.yaml parses");
        assert!(list.len() > 20, "{} aliases", list.len());
        for (words, name) in &list {
            // "D&D" would be the words "d d", "5e" a rule's step.
            assert!(
                words.iter().any(|w| w.chars().count() >= 2)
                    && !words
                        .iter()
                        .all(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.len() <= 3),
                "{name}: {words:?} is letters alone or reads as a rule's number"
            );
            if let [one] = words.as_slice() {
                assert!(
                    !super::super::english::is_word(one),
                    "{name}: the one-word alias {one:?} is an English word and would misfire"
                );
            }
        }
    }

    #[test]
    fn a_game_named_in_the_question_is_found_longest_name_first() {
        let list = parse(LIST).unwrap();
        let words = question_words("In Pokémon's rules, can I retreat twice?");
        assert_eq!(first_named(&list, &words), Some("Pokémon TCG"));
        let words = question_words("does one piece tcg have a stack");
        assert_eq!(first_named(&list, &words), Some("One Piece Card Game"));
        // "one piece" alone is ordinary words.
        assert_eq!(
            first_named(&list, &question_words("is it one piece or two")),
            None
        );
        assert_eq!(
            first_named(&list, &question_words("can I attack twice")),
            None
        );
    }

    #[test]
    fn an_indexed_game_of_the_list_is_left_out_with_every_alias() {
        let indexed = vec![(vec!["mtg".to_string()], "mtg".to_string())];
        let left = not_indexed(&indexed);
        assert!(left.iter().all(|(_, n)| n != "Magic: The Gathering"));
        assert!(left.iter().any(|(_, n)| n == "Pokémon TCG"));
        assert_eq!(
            first_named(
                &left,
                &question_words("magic the gathering: what is trample")
            ),
            None
        );
    }
}
