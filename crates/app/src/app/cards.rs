//! Cards (`/card`, `arbiter card`): a card by name with its rulings and the
//! rules its text names; fuzzy completion of card names; card lists
//! uploaded like documents (`/rules add kind:cards`, `arbiter import
//! --kind cards`).

use serde::Serialize;

use super::{App, AppError, Words};
use crate::cards::{Card, CardEntry};
use crate::corpus::PassageKind;
use crate::corpus::import::{Import, ImportError, ImportRequest};

/// Longest card name looked up.
pub const MAX_CARD_NAME_CHARS: usize = 200;
/// Rules linked from one card at most (one button each).
pub const MAX_CARD_RULES: usize = 5;
/// Shortest term that links a card to a rule (shorter ones are noise).
const MIN_TERM_CHARS: usize = 4;

/// The reply to `card`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CardReply {
    pub game: String,
    pub game_name: String,
    /// The card list it comes from.
    pub source: String,
    pub card: Card,
    /// Rules its text names (a passage's title, or a term the passage
    /// quotes, appearing in the card's text), in the order the text names them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleLink>,
}

/// A rule a card's text names.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RuleLink {
    pub id: String,
    pub title: String,
    /// The words of the card's text that name it.
    pub term: String,
}

/// A card completion: its name, type and game.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CardSuggestion {
    pub name: String,
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub card_type: String,
    pub game: String,
}

impl App {
    /// A card by name or alias (optionally in one game), with its rulings
    /// and the rules its text names; unknown: did-you-mean.
    pub fn card(&self, name: &str, game: Option<&str>) -> Result<CardReply, AppError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(AppError::Usage(Words::fixed(
                "give a card's name, for example Ice Golem",
            )));
        }
        if name.chars().count() > MAX_CARD_NAME_CHARS {
            return Err(AppError::Usage(Words::fill(
                "a card name is at most {} characters",
                vec![MAX_CARD_NAME_CHARS.to_string()],
            )));
        }
        let game = game
            .map(|g| self.game(g).map(|g| g.id.clone()))
            .transpose()?;
        let entry = self.cards.find(name, game.as_deref()).map_err(|u| {
            let suggestions = self.card_suggestions(name, game.as_deref(), u.suggestions);
            match game.as_deref() {
                Some(g) => self.not_this_games_card(name, g, suggestions),
                None => AppError::UnknownCard {
                    name: name.to_string(),
                    suggestions,
                },
            }
        })?;
        Ok(self.card_reply(entry))
    }

    /// The "did you mean" of an unknown card: the first cards the name's
    /// autocomplete offers (the same fuzzy matcher, so the suggestions are
    /// the choices listed under what was typed: `nitro` offered cards
    /// with "Nitro" in their names and, refused, suggested B-I-N-G-O by
    /// spelling; found by an outside tester), else the spelling's.
    fn card_suggestions(
        &self,
        name: &str,
        game: Option<&str>,
        spelling: Vec<String>,
    ) -> Vec<String> {
        let listed: Vec<String> = self
            .cards
            .complete(name, game, SUGGESTIONS)
            .into_iter()
            .map(|e| e.card.name.clone())
            .collect();
        if listed.is_empty() { spelling } else { listed }
    }

    /// A card not found in game `g`: said so when `g` has no card list at
    /// all, or when the card is another game's.
    fn not_this_games_card(&self, name: &str, g: &str, suggestions: Vec<String>) -> AppError {
        let game_name = self.corpus.game(g).map_or(g, |x| x.name.as_str());
        if let Ok(other) = self.cards.find(name, None) {
            let other_name = self
                .corpus
                .game(&other.game)
                .map_or(other.game.as_str(), |x| x.name.as_str());
            return AppError::Usage(Words::fill(
                "no card of {} is named '{}'; '{}' is a card of {} (`{}`)",
                vec![
                    game_name.into(),
                    name.into(),
                    other.card.name.clone(),
                    other_name.into(),
                    other.game.clone(),
                ],
            ));
        }
        if self.cards.of_game(Some(g)).next().is_none() {
            return AppError::Usage(Words::fill(
                "{} has no card list loaded",
                vec![game_name.into()],
            ));
        }
        AppError::UnknownCard {
            name: name.to_string(),
            suggestions,
        }
    }

    fn card_reply(&self, entry: &CardEntry) -> CardReply {
        CardReply {
            game: entry.game.clone(),
            game_name: self
                .corpus
                .game(&entry.game)
                .map_or_else(|| entry.game.clone(), |g| g.name.clone()),
            source: entry.source.clone(),
            card: entry.card.clone(),
            rules: self.rules_named(&entry.game, &entry.card.text),
        }
    }

    /// Card names matching `partial` (fuzzy, at most `limit` ≤ 25).
    pub fn complete_cards(
        &self,
        partial: &str,
        game: Option<&str>,
        limit: usize,
    ) -> Vec<CardSuggestion> {
        let game = game
            .and_then(|g| self.corpus.resolve_game(g))
            .map(|g| g.id.as_str());
        self.cards
            .complete(partial, game, limit)
            .into_iter()
            .map(|e| CardSuggestion {
                name: e.card.name.clone(),
                card_type: e.card.card_type.clone(),
                game: e.game.clone(),
            })
            .collect()
    }

    /// Card names as `/card name:` autocomplete offers them in a channel:
    /// with no `game`, the channel's match game (`fallback`) first, then
    /// the other games' cards.
    pub fn complete_cards_in(
        &self,
        partial: &str,
        game: Option<&str>,
        fallback: Option<&str>,
        limit: usize,
    ) -> Vec<CardSuggestion> {
        let fallback = fallback.filter(|g| self.corpus.resolve_game(g).is_some());
        match (game, fallback) {
            (None, Some(first)) => super::prefer(
                self.complete_cards(partial, Some(first), limit),
                self.complete_cards(partial, None, limit),
                |c| (c.game.clone(), c.name.clone()),
                limit,
            ),
            _ => self.complete_cards(partial, game, limit),
        }
    }

    /// Rules of `game` that `text` names: a passage's title, or a term it
    /// quotes (‘Unit Guard’), found in the text as whole words.
    pub fn rules_named(&self, game: &str, text: &str) -> Vec<RuleLink> {
        let hay = words(text);
        if hay.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<(usize, RuleLink)> = Vec::new();
        for p in self.corpus.passages.iter().filter(|p| p.game == game) {
            if p.kind == PassageKind::Document || found.iter().any(|(_, l)| l.id == p.id) {
                continue;
            }
            let terms = std::iter::once(p.title.as_str()).chain(quoted(&p.text));
            let hit = terms
                .filter(|t| t.chars().count() >= MIN_TERM_CHARS && !function_words(t))
                .filter(|t| !holds_symbol(t))
                .filter_map(|t| word_at(&hay, &words(t)).map(|at| (at, t)))
                .min_by_key(|(at, t)| (*at, usize::MAX - t.len()));
            if let Some((at, term)) = hit {
                // The term as the card's text has it: a title's or quote's
                // own full stop or comma is not the card's ("Damage.").
                let term = whole_term(term);
                found.push((
                    at,
                    RuleLink {
                        id: p.id.clone(),
                        title: p.title.clone(),
                        term: term.to_string(),
                    },
                ));
            }
        }
        found.sort_by_key(|(at, l)| (*at, usize::MAX - l.term.len()));
        // One rule a term: the first passage that names it (the rules
        // before their glossary).
        let mut seen = std::collections::HashSet::new();
        found
            .into_iter()
            .map(|(_, l)| l)
            .filter(|l| seen.insert(l.term.to_lowercase()))
            .take(MAX_CARD_RULES)
            .collect()
    }

    /// A card list someone brings, read and previewed (nothing goes live).
    pub fn import_cards(&self, req: &ImportRequest) -> Result<Import, ImportError> {
        let target = crate::corpus::import::target(&self.corpus, req)?;
        let converted = crate::cards::import_to(&target, req.bytes)?;
        let mut import = Import::new(&self.corpus, &target, converted);
        crate::cards::warn_taken_aliases(&self.corpus, &mut import);
        Ok(import)
    }
}

/// How many cards an unknown name's "did you mean" suggests.
const SUGGESTIONS: usize = 3;

/// Phrases a passage quotes: ‘…’, “…” or "…" (short ones: terms, not speech).
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    [('‘', '’'), ('“', '”'), ('"', '"')]
        .into_iter()
        .flat_map(move |(open, close)| {
            let mut rest = text;
            std::iter::from_fn(move || {
                let (_, after) = rest.split_once(open)?;
                let (inside, next) = after.split_once(close)?;
                rest = next;
                Some(inside.trim())
            })
        })
        .filter(|q| !q.is_empty() && q.chars().count() <= 40)
}

/// A quoted phrase holding a symbol (`{T}: Add {G}.`, MTG's Forest): an
/// ability or a cost the rule quotes as its example, not a term it names.
/// Found by an outside tester: Llanowar Elves' "{T}: Add {G}." linked to
/// the glossary's Forest, shown as “T}: Add {G”.
fn holds_symbol(term: &str) -> bool {
    term.split_once('{')
        .is_some_and(|(_, rest)| rest.split_once('}').is_some_and(|(sym, _)| !sym.is_empty()))
}

/// A term as the card's text has it: a title's or quote's own full stop
/// or comma is not the card's ("Damage."); brackets and braces stay
/// paired (a symbol is never cut in half).
fn whole_term(term: &str) -> &str {
    term.trim_matches(|c: char| {
        c.is_whitespace() || (c.is_ascii_punctuation() && !"{}[]()<>".contains(c))
    })
}

/// A term of function words alone: MTG's rules quote "you" and "may"
/// (102.4, 603.5), which every card's text uses without naming a rule
/// (found by an outside tester: `card Flash` linked “you” to 102.4).
fn function_words(term: &str) -> bool {
    words(term).split(' ').all(crate::search::is_stop)
}

/// Lower-case words separated by single spaces (punctuation dropped).
fn words(text: &str) -> String {
    let spaced: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    arbiter_text::single_spaced(&spaced)
}

/// Where `needle` first occurs in `hay` as whole words (both [`words`]).
fn word_at(hay: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    hay.match_indices(needle).map(|(i, _)| i).find(|&i| {
        boundary(hay[..i].chars().next_back()) && boundary(hay[i + needle.len()..].chars().next())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_match_whole_words_only() {
        assert_eq!(word_at("unit guard this unit", "unit guard"), Some(0));
        assert_eq!(word_at("a guardian", "guard"), None);
        assert_eq!(word_at(&words("may Guard."), "guard"), Some(4));
        let q: Vec<&str> = quoted("with the ‘Unit Guard’ ability, or \"Pass\"").collect();
        assert_eq!(q, ["Unit Guard", "Pass"]);
    }

    #[test]
    fn a_quoted_ability_with_symbols_is_not_a_term_and_no_term_is_cut() {
        let forest = "Forest has \"{T}: Add {G}.\" and \"Damage.\"";
        let terms: Vec<&str> = quoted(forest).filter(|t| !holds_symbol(t)).collect();
        assert_eq!(terms, ["Damage."]);
        assert_eq!(whole_term("Damage."), "Damage");
        assert_eq!(whole_term("{T}: Add {G}."), "{T}: Add {G}");
        assert!(!holds_symbol("a {} b"));
    }
}
