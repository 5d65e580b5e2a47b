//! Name resolution for boards and notation: case, spaces and punctuation
//! ignored ([`fold`]), unique prefixes accepted, typed errors for unknown
//! (with did-you-mean) and ambiguous names. Callers branch on
//! [`NameError`]'s variant, never on its text.

use crate::BoardError;
use crate::text::{edit_distance, fold, fold_eq};

/// Why a typed name did not resolve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("unknown {what} '{typed}'{}", unknown_hint(suggestion.as_deref(), known, what))]
    Unknown {
        typed: String,
        what: &'static str,
        /// The closest candidate within a small edit distance.
        suggestion: Option<String>,
        known: Vec<String>,
    },
    #[error("'{typed}' is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        typed: String,
        what: &'static str,
        candidates: Vec<String>,
    },
}

fn unknown_hint(suggestion: Option<&str>, known: &[String], what: &str) -> String {
    // Names with commas in them ("Rai, Spellcrafter") are listed apart by ";".
    let sep = if known.iter().any(|k| k.contains(',')) {
        "; "
    } else {
        ", "
    };
    match suggestion {
        Some(s) => format!("; did you mean '{s}'?"),
        None if known.is_empty() => String::new(),
        None if known.len() <= 12 => format!("; known {}: {}", plural(what), known.join(sep)),
        None => String::new(),
    }
}

/// "unit" → "units", "opposing champion or ally" → "… or allies".
fn plural(what: &str) -> String {
    match what.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{stem}ies"),
        _ => format!("{what}s"),
    }
}

impl NameError {
    /// The error as a board error at a field path.
    pub fn at(self, path: &str) -> BoardError {
        BoardError::semantic(path, self.to_string())
    }

    pub fn is_unknown(&self) -> bool {
        matches!(self, NameError::Unknown { .. })
    }
}

/// Resolves a typed name against candidates: exact (folded) match, else a
/// unique prefix, else an error.
pub fn resolve<'a>(
    typed: &str,
    candidates: &[&'a str],
    what: &'static str,
) -> Result<&'a str, NameError> {
    resolve_index(typed, candidates, what).map(|i| candidates[i])
}

/// [`resolve`], returning the candidate's index.
pub fn resolve_index(
    typed: &str,
    candidates: &[&str],
    what: &'static str,
) -> Result<usize, NameError> {
    // The common case, one exact match, without folding every candidate.
    let mut exact = (0..candidates.len()).filter(|i| fold_eq(typed, candidates[*i]));
    if let (Some(i), None) = (exact.next(), exact.next()) {
        return Ok(i);
    }
    let key = fold(typed);
    let folded: Vec<String> = candidates.iter().map(|c| fold(c)).collect();
    let pick = |hits: Vec<usize>| -> Option<Result<usize, NameError>> {
        match hits.as_slice() {
            [] => None,
            [one] => Some(Ok(*one)),
            many => Some(Err(NameError::Ambiguous {
                typed: typed.to_string(),
                what,
                candidates: many.iter().map(|i| candidates[*i].to_string()).collect(),
            })),
        }
    };
    let exact = (0..candidates.len())
        .filter(|i| folded[*i] == key)
        .collect();
    if let Some(r) = pick(exact) {
        return r;
    }
    let prefixed = (0..candidates.len())
        .filter(|i| !key.is_empty() && folded[*i].starts_with(&key))
        .collect();
    if let Some(r) = pick(prefixed) {
        return r;
    }
    // Within a few edits of a whole name, or one edit of how a name
    // begins ("Raj" for "Rai, Spellcrafter", typed short as prefixes are).
    let begins = |f: &str| -> Option<usize> {
        let n = key.chars().count();
        let head: String = f.chars().take(n).collect();
        (n >= 3 && f.chars().count() > n)
            .then(|| edit_distance(&key, &head, 1))
            .flatten()
    };
    let suggestion = (0..candidates.len())
        .filter_map(|i| {
            let d = [edit_distance(&key, &folded[i], 3), begins(&folded[i])];
            Some((d.into_iter().flatten().min()?, i))
        })
        .min()
        .map(|(_, i)| candidates[i].to_string());
    Err(NameError::Unknown {
        typed: typed.to_string(),
        what,
        suggestion,
        known: candidates.iter().map(|c| c.to_string()).collect(),
    })
}

/// Resolves against `first`, and only when the name is unknown there,
/// against `then` (so an illegal choice such as an opponent's unit still
/// reaches the procedure, which explains why it is illegal). Returns the
/// group (0 or 1) and the index in it.
pub fn resolve_in_groups(
    typed: &str,
    first: &[&str],
    then: &[&str],
    what: &'static str,
) -> Result<(usize, usize), NameError> {
    match resolve_index(typed, first, what) {
        Ok(i) => Ok((0, i)),
        Err(e) if !e.is_unknown() => Err(e),
        Err(first_err) => match resolve_index(typed, then, what) {
            Ok(i) => Ok((1, i)),
            Err(e) if !e.is_unknown() => Err(e),
            Err(_) => {
                // Listed: the names asked for (`first`); suggested: the
                // closest of either group.
                let all: Vec<&str> = first.iter().chain(then).copied().collect();
                let closest = match resolve_index(typed, &all, what) {
                    Err(NameError::Unknown { suggestion, .. }) => suggestion,
                    _ => None,
                };
                Err(match first_err {
                    NameError::Unknown {
                        typed,
                        what,
                        suggestion,
                        known,
                    } => NameError::Unknown {
                        typed,
                        what,
                        suggestion: closest.or(suggestion),
                        known,
                    },
                    other => other,
                })
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_name_typed_wrong_is_suggested_and_lists_keep_names_whole() {
        let c = ["Rai, Spellcrafter", "Lorraine, Wandering Warrior"];
        let e = resolve("Raj", &c, "opposing champion or ally").unwrap_err();
        assert!(
            e.to_string().ends_with("did you mean 'Rai, Spellcrafter'?"),
            "{e}"
        );
        let e = resolve("Zzyzx", &c, "opposing champion or ally").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown opposing champion or ally 'Zzyzx'; known opposing champion or allies: Rai, Spellcrafter; Lorraine, Wandering Warrior"
        );
        // Listed: the names asked for, not the other group's.
        let e = resolve_in_groups("Zzyzx", &["Mist Spirit"], &["Iron Worker"], "unit").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown unit 'Zzyzx'; known units: Mist Spirit"
        );
    }

    #[test]
    fn names_resolve_with_did_you_mean() {
        let c = ["Iron Worker", "Hammer Knight", "Mist Spirit"];
        assert_eq!(resolve("iron worker", &c, "unit"), Ok("Iron Worker"));
        assert_eq!(resolve("hammer", &c, "unit"), Ok("Hammer Knight"));
        let e = resolve("Mist Spirt", &c, "unit").unwrap_err();
        assert!(matches!(&e, NameError::Unknown { suggestion: Some(s), .. } if s == "Mist Spirit"));
        assert!(e.to_string().contains("did you mean 'Mist Spirit'"), "{e}");
        let e = resolve("Mist", &["Mist Spirit", "Mist Typhoon"], "unit").unwrap_err();
        assert!(matches!(e, NameError::Ambiguous { .. }));
    }

    #[test]
    fn look_alike_letters_do_not_resolve_silently() {
        // Cyrillic В and е: not Ben, but close enough to suggest him.
        let e = resolve("Веn", &["Ana", "Ben"], "player").unwrap_err();
        assert!(matches!(e, NameError::Unknown { .. }), "{e:?}");
        assert_eq!(resolve("BEN", &["Ana", "Ben"], "player"), Ok("Ben"));
        assert_eq!(resolve("be", &["Ana", "Ben"], "player"), Ok("Ben"));
    }

    #[test]
    fn groups_prefer_the_first_and_keep_ambiguity() {
        let mine = ["Iron Worker"];
        let theirs = ["Ice Golem", "Iron Rhino"];
        assert_eq!(
            resolve_in_groups("iron", &mine, &theirs, "unit"),
            Ok((0, 0))
        );
        assert_eq!(resolve_in_groups("ice", &mine, &theirs, "unit"), Ok((1, 0)));
        let e = resolve_in_groups("nope", &mine, &theirs, "unit").unwrap_err();
        assert!(matches!(e, NameError::Unknown { .. }));
    }
}
