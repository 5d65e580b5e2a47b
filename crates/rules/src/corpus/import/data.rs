//! What every uploaded data document (a card list, a slang list) is read
//! with: the YAML reader's budgets, its errors in words a community reads
//! with the parser's position, and CSV's unclosed quote found with its line.

use crate::text::Words;
use serde_saphyr::{Budget, Options};

/// "line L:C: " (or "line L: "), the prefix of a located error.
pub fn position(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!("line {l}:{c}: "),
        (Some(l), None) => format!("line {l}: "),
        _ => String::new(),
    }
}

/// The YAML reader's budgets for an uploaded data document.
pub fn yaml_options() -> Options {
    let mut budget = Budget::default();
    budget.max_aliases = 64;
    budget.max_anchors = 64;
    budget.max_merge_keys = 8;
    budget.max_depth = MAX_DATA_DEPTH;
    budget.max_nodes = 2_000_000;
    budget.max_events = 8_000_000;
    budget.max_total_scalar_bytes = 16 * 1024 * 1024;
    let mut o = Options::default();
    o.budget = Some(budget);
    o.alias_limits.max_total_replayed_events = 20_000;
    o.alias_limits.max_replay_stack_depth = 16;
    o
}

/// A YAML error of an uploaded data document (`what`: "card list") as
/// (words, line, column): the parser's position, in words a community
/// reads, never the library's own hints. The fields and keys it names are
/// values in code spans ([`Words`]): escaped whole on Discord, "the key
/// `sac` appears twice" showed its backticks.
pub fn yaml_error(e: serde_saphyr::Error, what: &str) -> (Words, Option<usize>, Option<usize>) {
    let (line, column) = e
        .location()
        .map(|l| (Some(l.line() as usize), Some(l.column() as usize)))
        .unwrap_or((None, None));
    let inner = match e.without_snippet() {
        serde_saphyr::Error::AliasError { error, .. } => error.without_snippet(),
        other => other,
    };
    if nests_too_deep(inner) {
        return (too_deep(what), line, column);
    }
    let words = match inner {
        serde_saphyr::Error::Budget { .. } => Words::given(format!(
            "the {what} is too large once its YAML anchors and aliases are written out (at most 16 MB of text, 64 aliases, 16 levels); write the values out or split the list"
        )),
        serde_saphyr::Error::DuplicateMappingKey { key: Some(k), .. } => Words::fill(
            "the key `{}` appears twice in the same mapping; keep one",
            vec![k.to_string()],
        ),
        serde_saphyr::Error::DuplicateMappingKey { key: None, .. } => {
            Words::fixed("a key appears twice in the same mapping; keep one")
        }
        serde_saphyr::Error::MultipleDocuments { .. } => {
            Words::fixed("give one document (remove the extra `---` separators)")
        }
        serde_saphyr::Error::SerdeUnknownField {
            field, expected, ..
        } => match crate::text::closest(field, expected.iter().copied(), 3) {
            Some(x) => Words::fill(
                "unknown field `{}`; did you mean `{}`?",
                vec![field.to_string(), x.to_string()],
            ),
            None => Words::fill(
                "unknown field `{}`; the fields are: {}",
                vec![field.to_string(), expected.join(", ")],
            ),
        },
        other => Words::given(without_position(&other.to_string())),
    };
    (words, line, column)
}

/// Deepest nesting of lists and mappings in an uploaded data document
/// (a card list needs 4: the file's mapping, its list, a card, its stats).
pub const MAX_DATA_DEPTH: usize = 16;

/// Whether a YAML error is the document nesting past [`MAX_DATA_DEPTH`]
/// (the reader's budget) or past the parser's own limit (255 brackets
/// `[[[…`, which the parser reads ahead before the budget counts them),
/// told by the errors' kinds.
fn nests_too_deep(e: &serde_saphyr::Error) -> bool {
    use serde_saphyr::budget::BudgetBreach;
    use serde_saphyr::granit_parser::ErrorKind;
    match e {
        serde_saphyr::Error::Budget { breach, .. } => matches!(breach, BudgetBreach::Depth { .. }),
        serde_saphyr::Error::ExternalMessage { source, .. } => matches!(
            &**source,
            serde_saphyr::ExternalMessageSource::Parser(scan)
                if matches!(scan.kind(), ErrorKind::RecursionLimitExceeded)
        ),
        _ => false,
    }
}

/// The refusal of a data document (`what`: "card list") nesting past
/// [`MAX_DATA_DEPTH`], said at the place it does.
pub fn too_deep(what: &str) -> Words {
    Words::given(format!(
        "the {what} nests lists or mappings more than {MAX_DATA_DEPTH} levels deep here; \
         a {what} needs a few (the list, an entry, its fields): look for brackets `[` or `{{` \
         opened and never closed, or indentation that keeps growing, and write the values out flat"
    ))
}

/// Where JSON first nests past `limit` brackets (`[` and `{` outside
/// strings), as 1-based (line, column), if it does: `serde_json` stops at
/// 128 with only its own words for it.
pub fn json_too_deep(text: &str, limit: usize) -> Option<(usize, usize)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            (line, column) = (line + 1, 0);
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth > limit {
                    return Some((line, column));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// `message` without the parser's own " at line N, column M" (the prefix
/// gives the position once, and the two could disagree).
fn without_position(message: &str) -> String {
    const AT: &str = " at line ";
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find(AT) {
        let after = &rest[i + AT.len()..];
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let n = digits(after);
        let tail = &after[n..];
        let located = n > 0
            && tail
                .strip_prefix(", column ")
                .is_some_and(|t| digits(t) > 0);
        if located {
            let t = &tail[", column ".len()..];
            out.push_str(&rest[..i]);
            rest = &t[digits(t)..];
        } else {
            out.push_str(&rest[..i + AT.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The line of a quote that is never closed, if any: the `csv` reader
/// takes everything after it as one field (a card's text swallowed the
/// rest of the list, unwarned).
pub fn unclosed_quote(text: &str) -> Option<usize> {
    // A quote opens a quoted field only at the field's start ("5\" tall"
    // in an unquoted field is an inch mark); inside one, "" is a quote.
    let (mut open_at, mut line, mut field_start) = (None, 1, true);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')) {
            line += 1;
        }
        if open_at.is_some() {
            if c == '"' && chars.next_if_eq(&'"').is_none() {
                open_at = None;
            }
            continue;
        }
        match c {
            '"' if field_start => open_at = Some(line),
            ',' | '\n' | '\r' => field_start = true,
            _ => field_start = false,
        }
        if c == '"' {
            field_start = false;
        }
    }
    open_at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parsers_own_position_is_taken_out() {
        assert_eq!(
            without_position("invalid type: map, expected x at line 1, column 7"),
            "invalid type: map, expected x"
        );
        assert_eq!(
            without_position("a at line 3, column 2: b at line x"),
            "a: b at line x"
        );
        assert_eq!(without_position("no position"), "no position");
    }
}
