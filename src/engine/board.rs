//! Board documents: YAML (or JSON) a player can type in a Discord code block.
//!
//! Parsing never panics. Syntax errors carry line:column; semantic errors
//! carry the field path (`players[1].units[0].life`) and, where a rule is
//! involved, its citation. Names resolve case-insensitively, with
//! did-you-mean on typos and a clear error on ambiguity.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Largest board document accepted (bytes).
pub const MAX_BOARD_BYTES: usize = 64 * 1024;

/// A position in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SourcePos {
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Not YAML/JSON, or the wrong shape.
    Syntax,
    /// Well-formed, but a value is wrong (unknown name, impossible number).
    Semantic,
    /// Refused without reading (too large, empty).
    Refused,
}

/// Why a board document could not be adjudicated.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{}", self.describe())]
pub struct BoardError {
    pub kind: ErrorKind,
    pub message: String,
    pub pos: Option<SourcePos>,
    pub path: Option<String>,
    pub rule: Option<String>,
}

impl BoardError {
    pub fn semantic(path: impl Into<String>, message: impl Into<String>) -> BoardError {
        BoardError {
            kind: ErrorKind::Semantic,
            message: message.into(),
            pos: None,
            path: Some(path.into()),
            rule: None,
        }
    }

    pub fn refused(message: impl Into<String>) -> BoardError {
        BoardError {
            kind: ErrorKind::Refused,
            message: message.into(),
            pos: None,
            path: None,
            rule: None,
        }
    }

    pub fn with_rule(mut self, rule: impl Into<String>) -> BoardError {
        self.rule = Some(rule.into());
        self
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        if let Some(p) = self.pos {
            s.push_str(&format!("line {}:{}: ", p.line, p.column));
        }
        if let Some(path) = &self.path {
            s.push_str(&format!("{path}: "));
        }
        s.push_str(&self.message);
        if let Some(r) = &self.rule {
            s.push_str(&format!(" [{r}]"));
        }
        s
    }
}

/// Extracts the board text from a Discord message: the first fenced code
/// block (```yaml … ```), or the whole text when there is none.
pub fn extract_code_block(message: &str) -> &str {
    let Some(start) = message.find("```") else {
        return message.trim();
    };
    let after = &message[start + 3..];
    let body_start = after.find('\n').map_or(0, |i| i + 1);
    let lang = after[..body_start].trim();
    let body = if lang.chars().all(|c| c.is_ascii_alphanumeric()) {
        &after[body_start..]
    } else {
        after
    };
    match body.find("```") {
        Some(end) => body[..end].trim(),
        None => body.trim(),
    }
}

/// Checks size and emptiness before parsing.
pub fn precheck(text: &str) -> Result<(), BoardError> {
    if text.len() > MAX_BOARD_BYTES {
        return Err(BoardError::refused(format!(
            "the board document is {} KB; the limit is {} KB",
            text.len().div_ceil(1024),
            MAX_BOARD_BYTES / 1024
        )));
    }
    if text.trim().is_empty() {
        return Err(BoardError::refused("the board document is empty"));
    }
    Ok(())
}

/// Parses YAML or JSON text into a typed document, with line:column on errors.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, BoardError> {
    precheck(text)?;
    serde_saphyr::from_str(text).map_err(|e| syntax_error(&e.to_string()))
}

/// The `game` field of a board document, read without validating the rest.
pub fn game_of(text: &str) -> Result<String, BoardError> {
    #[derive(serde::Deserialize)]
    struct Header {
        game: Option<String>,
    }
    let h: Header = parse(text)?;
    h.game.ok_or_else(|| {
        BoardError::semantic(
            "game",
            "the board document needs a `game` field (for example `game: ashes`)",
        )
    })
}

/// Turns a serde-saphyr error message into a [`BoardError`], pulling out
/// "line L column C" when present.
fn syntax_error(msg: &str) -> BoardError {
    let pos = find_pos(msg);
    // Keep the first line: the rest is a source snippet.
    let first = msg.lines().next().unwrap_or(msg);
    let first = first.trim_start_matches("error: ");
    // The position is carried in `pos`; do not repeat it in the message.
    let message = match (pos, first.split_once(": ")) {
        (Some(_), Some((head, rest))) if head.starts_with("line ") && head.contains("column") => {
            rest
        }
        _ => first,
    };
    BoardError {
        kind: ErrorKind::Syntax,
        message: message.to_string(),
        pos,
        path: None,
        rule: None,
    }
}

fn find_pos(msg: &str) -> Option<SourcePos> {
    let lower = msg.to_lowercase();
    let i = lower.find("line ")?;
    let rest = &lower[i + 5..];
    let line: usize = rest
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let j = rest.find("column ")?;
    let column: usize = rest[j + 7..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    Some(SourcePos { line, column })
}

/// The `name` of every entry of a list field of a board (as JSON), e.g. the
/// players of `players`: candidates for notation and its completions.
pub fn names_at(board: &serde_json::Value, field: &str) -> Vec<String> {
    board
        .get(field)
        .and_then(serde_json::Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|v| {
                    v.get("name")
                        .and_then(serde_json::Value::as_str)
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Resolves a typed name against candidates, ignoring case, spaces and
/// punctuation. Unknown → did-you-mean; several equally good → ambiguous.
pub fn resolve_name<'a>(
    typed: &str,
    candidates: &[&'a str],
    path: &str,
    what: &str,
) -> Result<&'a str, BoardError> {
    let key = crate::text::fold(typed);
    let exact: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| crate::text::fold(c) == key)
        .collect();
    if exact.len() == 1 {
        return Ok(exact[0]);
    }
    if exact.len() > 1 {
        return Err(BoardError::semantic(
            path,
            format!(
                "'{typed}' matches several {what}s: {}; name it exactly",
                exact.join(", ")
            ),
        ));
    }
    let prefixed: Vec<&str> = candidates
        .iter()
        .copied()
        .filter(|c| !key.is_empty() && crate::text::fold(c).starts_with(&key))
        .collect();
    if prefixed.len() == 1 {
        return Ok(prefixed[0]);
    }
    if prefixed.len() > 1 {
        return Err(BoardError::semantic(
            path,
            format!(
                "'{typed}' is ambiguous: it could be {}",
                prefixed.join(" or ")
            ),
        ));
    }
    let mut close: Vec<(usize, &str)> = candidates
        .iter()
        .filter_map(|c| {
            let d = crate::text::edit_distance(&key, &crate::text::fold(c), 3)?;
            Some((d, *c))
        })
        .collect();
    close.sort();
    let hint = match close.first() {
        Some((_, c)) => format!("; did you mean '{c}'?"),
        None if candidates.is_empty() => String::new(),
        None => format!("; known {what}s: {}", candidates.join(", ")),
    };
    Err(BoardError::semantic(
        path,
        format!("unknown {what} '{typed}'{hint}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_with_did_you_mean() {
        let c = ["Iron Worker", "Hammer Knight", "Mist Spirit"];
        assert_eq!(
            resolve_name("iron worker", &c, "p", "unit").unwrap(),
            "Iron Worker"
        );
        assert_eq!(
            resolve_name("hammer", &c, "p", "unit").unwrap(),
            "Hammer Knight"
        );
        let e = resolve_name("Mist Spirt", &c, "play.target", "unit").unwrap_err();
        assert!(
            e.message.contains("did you mean 'Mist Spirit'"),
            "{}",
            e.message
        );
        assert_eq!(e.path.as_deref(), Some("play.target"));
        let e = resolve_name("Mist", &["Mist Spirit", "Mist Typhoon"], "p", "unit").unwrap_err();
        assert!(e.message.contains("ambiguous"), "{}", e.message);
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct B {
            game: String,
        }
        let e = parse::<B>("game: ashes\nplayers: [a, b\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.pos.is_some(), "{e:?}");
    }

    #[test]
    fn code_blocks_are_extracted() {
        assert_eq!(
            extract_code_block("look:\n```yaml\ngame: ashes\n```\nthanks"),
            "game: ashes"
        );
        assert_eq!(extract_code_block("game: ashes"), "game: ashes");
    }

    #[test]
    fn oversized_and_empty_documents_are_refused() {
        assert_eq!(precheck("").unwrap_err().kind, ErrorKind::Refused);
        let big = "a".repeat(MAX_BOARD_BYTES + 1);
        assert!(precheck(&big).unwrap_err().message.contains("limit"));
    }
}
