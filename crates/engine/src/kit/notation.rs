//! The lexer every game's one-line play notation builds on: clauses split
//! on `;`, keywords matched case-insensitively on word boundaries, names
//! that may be quoted, lists on commas and `and`, an optional `PLAYER:`
//! prefix, and next-word completion. Quotes (straight or curly) protect
//! separators inside names. Each game writes only its grammar on top.

use crate::BoardError;
use crate::text::fold;

/// Longest notation line accepted.
pub const MAX_LINE: usize = 2000;

/// Refuses an empty or oversized line.
pub fn check_line(line: &str) -> Result<&str, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play is {} characters long; the limit is {MAX_LINE}",
            line.len()
        )));
    }
    let line = line.trim();
    if line.is_empty() {
        return Err(BoardError::semantic("play", "the play is empty"));
    }
    // Past an unclosed quote every word is read as quoted, so the words
    // after it (`with`, `at`) went unseen and the line was refused for
    // lacking them.
    if let Some(i) = unclosed_quote(line) {
        let after: String = line[i..].chars().take(24).collect();
        return Err(BoardError::semantic(
            "play",
            format!(
                "the quote opened at `{after}` is not closed: close it after the name it holds, or leave the quotes out"
            ),
        ));
    }
    Ok(line)
}

/// The byte offset of a quote the line opens and never closes.
fn unclosed_quote(line: &str) -> Option<usize> {
    let mut open = None;
    for (i, _) in line.char_indices().filter(|&(_, c)| is_quote(c)) {
        open = match open {
            Some(_) => None,
            None => Some(i),
        };
    }
    open
}

fn is_quote(c: char) -> bool {
    matches!(c, '"' | '“' | '”' | '`')
}

/// Byte offsets in `s` that are outside quotes.
fn outside_quotes(s: &str) -> impl Iterator<Item = usize> + '_ {
    let mut quoted = false;
    s.char_indices().filter_map(move |(i, c)| {
        if is_quote(c) {
            quoted = !quoted;
            None
        } else {
            (!quoted).then_some(i)
        }
    })
}

/// Removes surrounding quotes and spaces.
pub fn unquote(s: &str) -> &str {
    s.trim().trim_matches(|c| is_quote(c) || c == '\'').trim()
}

/// Splits on `sep` outside quotes; trimmed, empty parts dropped.
pub fn split_outside(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in outside_quotes(s) {
        if s[i..].starts_with(sep) {
            out.push(s[start..i].trim());
            start = i + sep.len_utf8();
        }
    }
    out.push(s[start..].trim());
    out.retain(|p| !p.is_empty());
    out
}

/// The clauses of a line, split on `;` outside quotes.
pub fn clauses(line: &str) -> Vec<&str> {
    split_outside(line, ';')
}

/// Whether `s[at..]` starts with `word` (ASCII case-insensitive) followed
/// by the end or a non-alphanumeric character.
fn word_at(s: &str, at: usize, word: &str) -> bool {
    s.get(at..at + word.len())
        .is_some_and(|x| x.eq_ignore_ascii_case(word))
        && s[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
        && s[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// If `s` starts with one of `words` (longest first), the word and the rest.
pub fn keyword<'a>(s: &'a str, words: &[&'static str]) -> Option<(&'static str, &'a str)> {
    let t = s.trim_start();
    let mut sorted: Vec<&'static str> = words.to_vec();
    sorted.sort_by_key(|w| std::cmp::Reverse(w.len()));
    sorted
        .into_iter()
        .find(|w| word_at(t, 0, w))
        .map(|w| (w, t[w.len()..].trim_start()))
}

/// `s` without a leading keyword, if it has one of `words`.
pub fn strip_word<'a>(s: &'a str, words: &[&'static str]) -> Option<&'a str> {
    keyword(s, words).map(|(_, rest)| rest)
}

/// `s` without a trailing keyword, if it ends with one of `words`.
pub fn strip_suffix_word<'a>(
    s: &'a str,
    words: &[&'static str],
) -> Option<(&'static str, &'a str)> {
    let t = s.trim_end();
    let mut sorted: Vec<&'static str> = words.to_vec();
    sorted.sort_by_key(|w| std::cmp::Reverse(w.len()));
    sorted.into_iter().find_map(|w| {
        let at = t.len().checked_sub(w.len())?;
        (t.is_char_boundary(at) && word_at(t, at, w)).then(|| (w, t[..at].trim_end()))
    })
}

/// Splits at the first `word` outside quotes: (before, after).
pub fn split_word<'a>(s: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let i = outside_quotes(s).find(|i| word_at(s, *i, word))?;
    Some((s[..i].trim(), s[i + word.len()..].trim()))
}

/// Two clauses of one play that say the same thing ("counter; no counter",
/// "step 0.5; step 1"): refused, both quoted, rather than one taken.
pub fn said_twice(path: &str, first: &str, again: &str) -> BoardError {
    BoardError::semantic(
        path,
        format!("“{first}” and “{again}” both say this; say it once"),
    )
}

/// Notes that `clause` says what `said` keeps track of: refused when an
/// earlier clause said it ([`said_twice`]).
pub fn once<'a>(said: &mut Option<&'a str>, clause: &'a str, path: &str) -> Result<(), BoardError> {
    match said {
        Some(first) => Err(said_twice(path, first, clause)),
        None => {
            *said = Some(clause);
            Ok(())
        }
    }
}

/// A list of names on commas and the word `and`, unquoted.
pub fn list(s: &str) -> Vec<String> {
    list_of(s, &[])
}

/// [`list`], where a name of `known` that holds the word `and` ("Hammer
/// and Anvil") is kept whole: the longest run of pieces that spells a known
/// name wins over splitting it.
pub fn list_of(s: &str, known: &[&str]) -> Vec<String> {
    let is_known = |t: &str| known.iter().any(|k| fold(k) == fold(t));
    let mut out = Vec::new();
    for part in split_outside(s, ',') {
        let mut pieces = Vec::new();
        let mut rest = part;
        while let Some((a, b)) = split_word(rest, "and") {
            pieces.push(a);
            rest = b;
        }
        pieces.push(rest);
        let mut i = 0;
        while i < pieces.len() {
            // Quoted pieces are names as written: never joined.
            let quoted = |k: usize| pieces[k].trim_start().starts_with('"');
            let longest = (i + 1..pieces.len())
                .rev()
                .filter(|&j| (i..=j).all(|k| !quoted(k)))
                .find(|&j| is_known(&pieces[i..=j].join(" and ")));
            match longest {
                Some(j) => {
                    out.push(pieces[i..=j].join(" and "));
                    i = j + 1;
                }
                None => {
                    out.push(unquote(pieces[i]).to_string());
                    i += 1;
                }
            }
        }
    }
    out.retain(|x| !x.is_empty());
    out
}

/// An optional `PLAYER:` prefix naming who plays: the index of the player
/// (resolved like any name) and the rest of the line.
pub fn speaker<'a>(
    line: &'a str,
    players: &[&str],
) -> Result<(Option<usize>, &'a str), BoardError> {
    let Some(i) = outside_quotes(line).find(|i| line[*i..].starts_with(':')) else {
        return Ok((None, line));
    };
    let who = unquote(&line[..i]);
    let named = players.iter().any(|p| fold(p) == fold(who));
    if who.is_empty() || (who.contains(' ') && !named) {
        return Ok((None, line));
    }
    let p = super::names::resolve_index(who, players, "player").map_err(|e| e.at("play.player"))?;
    Ok((Some(p), line[i + 1..].trim()))
}

/// The fragment being typed at the end of `partial` (after the last
/// delimiter) and what comes before it.
pub fn fragment<'a>(partial: &'a str, delimiters: &[&str]) -> (&'a str, &'a str) {
    let cut = delimiters
        .iter()
        .filter_map(|d| partial.rfind(d).map(|i| i + d.len()))
        .max()
        .or_else(|| partial.rfind(' ').map(|i| i + 1))
        .unwrap_or(0);
    (&partial[..cut], &partial[cut..])
}

/// Candidates that continue `typed` (folded prefix), without duplicates.
pub fn complete(typed: &str, candidates: impl IntoIterator<Item = String>) -> Vec<String> {
    let f = fold(typed);
    let mut out: Vec<String> = Vec::new();
    for c in candidates {
        if fold(&c).starts_with(&f) && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_and_lists_respect_quotes() {
        assert_eq!(
            clauses("attack with \"A; B\"; block x"),
            vec!["attack with \"A; B\"", "block x"]
        );
        assert_eq!(
            list("Iron Worker, \"Rock and Roll\" and Mist Spirit"),
            vec!["Iron Worker", "Rock and Roll", "Mist Spirit"]
        );
    }

    #[test]
    fn a_known_name_holding_and_is_kept_whole() {
        let known = ["Hammer and Anvil", "Anvil Golem", "Rock and Roll and Jazz"];
        assert_eq!(
            list_of("Hammer and Anvil", &known),
            vec!["Hammer and Anvil"]
        );
        assert_eq!(
            list_of("hammer and anvil and Anvil Golem", &known),
            vec!["hammer and anvil", "Anvil Golem"]
        );
        assert_eq!(
            list_of("Rock and Roll and Jazz, Hammer", &known),
            vec!["Rock and Roll and Jazz", "Hammer"]
        );
        assert_eq!(list_of("Iron and Steel", &known), vec!["Iron", "Steel"]);
        assert_eq!(
            list_of("\"Hammer\" and \"Anvil\"", &known),
            vec!["Hammer", "Anvil"],
            "quoted names are kept apart"
        );
    }

    #[test]
    fn keywords_match_on_word_boundaries() {
        assert_eq!(
            keyword("Attack unit X", &["attack"]),
            Some(("attack", "unit X"))
        );
        assert_eq!(keyword("attacker X", &["attack"]), None);
        assert_eq!(
            strip_suffix_word("Molten Gold no main", &["main", "no main"]),
            Some(("no main", "Molten Gold"))
        );
        assert_eq!(
            split_word("A with B with C", "with"),
            Some(("A", "B with C"))
        );
        assert_eq!(
            split_word("Withering with B", "with"),
            Some(("Withering", "B"))
        );
    }

    #[test]
    fn a_speaker_prefix_names_a_player() {
        let p = ["Coal", "Maeoni"];
        assert_eq!(speaker("coal: pass", &p).unwrap(), (Some(0), "pass"));
        assert_eq!(speaker("pass", &p).unwrap(), (None, "pass"));
        assert!(speaker("zed: pass", &p).is_err());
    }

    #[test]
    fn fragments_and_completion() {
        assert_eq!(
            fragment("attack with Iron Worker, Ham", &[",", " with "]),
            ("attack with Iron Worker,", " Ham")
        );
        assert_eq!(
            complete(" ham", ["Hammer Knight".to_string(), "Iron".to_string()]),
            vec!["Hammer Knight"]
        );
    }
}
