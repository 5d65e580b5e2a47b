//! An `adjust`'s value as typed against what YAML reads in it: a text the
//! typist meant that YAML reads otherwise is refused with how to write it,
//! never recorded as something else (found by an outside tester: `Fervent
//! Lancer #2` unquoted set the name to "Fervent Lancer", a no-op recorded).

use serde_json::Value;

use super::MatchError;
use crate::engine::BoardError;
use crate::engine::document::{self, ErrorKind};

/// Refuses a value part of which YAML read as a comment: `#` after a
/// space starts one, so `Fervent Lancer #2`, the name the engines advise
/// for a second card of one name, reads "Fervent Lancer". Told apart by
/// counting: every `#` typed is in a text of the value read, unless a
/// comment took it.
pub(super) fn no_comment(typed: &str) -> Result<(), MatchError> {
    let Ok(read) = document::parse::<Value>(typed.trim()) else {
        return Ok(());
    };
    if hashes_in(&read) >= typed.matches('#').count() {
        return Ok(());
    }
    let read = match &read {
        Value::Null => "nothing (no value)".to_string(),
        v => format!("“{}”", compact(v)),
    };
    Err(MatchError::Usage {
        message: format!(
            "`#` after a space starts a YAML comment, so `{}` reads as {read}: what follows the `#` is dropped. Quote the text that holds it: \"Fervent Lancer #2\" (in a list or an object too: {{name: \"Iron Worker #2\"}})",
            typed.trim()
        ),
    })
}

/// `e` (the value's YAML refused) with how to write what was meant:
/// `quotable`, when the value in quotes would be taken (a bare `@everyone`
/// or a backtick starts no YAML text), says to quote it; a `#` that may
/// have cut the value short as a comment says so.
pub(super) fn syntax_hint(mut e: BoardError, typed: &str, quotable: bool) -> BoardError {
    let typed = typed.trim();
    if quotable {
        e.message = format!(
            "{}; as a text, write it in quotes: \"{}\"",
            e.message,
            typed.replace('"', "\\\"")
        );
    } else if starts_comment(typed) {
        e.message = format!(
            "{}; `#` after a space starts a YAML comment, which cut the value short: quote the text that holds it (\"Fervent Lancer #2\")",
            e.message
        );
    }
    e
}

/// Whether a refusal of an adjust's value is YAML's (the value is no YAML
/// as written), as opposed to the board's.
pub(super) fn is_value_syntax(e: &BoardError) -> bool {
    e.kind == ErrorKind::Syntax && e.path.as_deref() == Some("value")
}

/// `typed` as a YAML text in double quotes (JSON's quoting is YAML's).
pub(super) fn quoted(typed: &str) -> String {
    serde_json::to_string(typed.trim()).unwrap_or_default()
}

/// Whether YAML reads a comment in `text`: a `#` at its start or after
/// white space.
fn starts_comment(text: &str) -> bool {
    text.starts_with('#') || text.contains(" #") || text.contains("\t#")
}

/// How many `#` the texts (keys and values) of `v` hold.
fn hashes_in(v: &Value) -> usize {
    match v {
        Value::String(s) => s.matches('#').count(),
        Value::Array(items) => items.iter().map(hashes_in).sum(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| k.matches('#').count() + hashes_in(v))
            .sum(),
        _ => 0,
    }
}

/// A value on one line, texts without their quotes.
fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_read_as_a_comment_is_refused_and_a_quoted_one_taken() {
        assert!(no_comment("Fervent Lancer #2").is_err());
        assert!(no_comment("[Iron Worker, Hammer Knight] # the two").is_err());
        assert!(no_comment("\"Fervent Lancer #2\"").is_ok());
        assert!(no_comment("'{with: \"Fervent Lancer #2\"}'").is_ok());
        assert!(no_comment("{with: \"Fervent Lancer #2\", source: x}").is_ok());
        assert!(no_comment("Lancer#2").is_ok());
        assert!(no_comment("3").is_ok());
    }

    #[test]
    fn a_value_yaml_refuses_says_how_to_write_it() {
        let e = || BoardError::semantic("value", "not valid YAML");
        assert!(
            syntax_hint(e(), "@Cole", true)
                .message
                .contains("in quotes: \"@Cole\"")
        );
        // In a flow mapping a comment cuts the closing brace off.
        let cut = syntax_hint(e(), "{name: Iron Worker #2}", false).message;
        assert!(cut.contains("YAML comment"), "{cut}");
        assert_eq!(syntax_hint(e(), "{name", false).message, "not valid YAML");
    }
}
