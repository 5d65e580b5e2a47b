//! Board documents: YAML (or JSON) a player can type in a Discord code block.
//!
//! A document is parsed **once**, into a `serde_json::Value`
//! ([`parse_value`]); each game's typed board is then read from that value
//! ([`typed`]), which costs a few microseconds. Only when the typed read
//! fails is the text parsed again, into a tree of source positions
//! ([`locate`]), so the error can say `line L:C` as well as the field path.
//!
//! Parsing never panics. YAML anchors, aliases and merge keys are refused
//! beyond small budgets (a 1 KB "billion laughs" would otherwise take
//! seconds and hundreds of MB). Every error is worded for the user: no
//! library wording reaches them.

use std::cell::RefCell;

use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Budget, Error as YamlError, Options, Spanned};

/// Largest board document accepted (bytes).
pub const MAX_BOARD_BYTES: usize = 64 * 1024;
/// Largest match export `match setup` accepts (bytes): an export holds
/// every event's board, so it has its own limit (Discord's attachment
/// limit here); each board in it is still held to the board's limits.
pub const MAX_EXPORT_BYTES: usize = 1024 * 1024;
/// How many times a board's node budget an export may use.
const EXPORT_NODES_FACTOR: usize = 20;
/// YAML merge keys (`<<`) accepted in one document.
pub const MAX_MERGE_KEYS: usize = 8;
/// YAML aliases (`*name`) accepted in one document.
pub const MAX_ALIASES: usize = 64;
/// Events an alias may replay in all, across the document.
const MAX_REPLAYED_EVENTS: usize = 20_000;
/// Nesting depth accepted.
const MAX_DEPTH: usize = 32;
/// Nodes accepted (after alias expansion).
const MAX_NODES: usize = 50_000;

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
    /// Refused without reading (too large, empty, over a YAML budget).
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
    /// A decimal number read where a whole one is expected: the message
    /// quotes it as the document writes it once the text is at hand
    /// ([`BoardError::located`]); the value alone reads `1e3` as `1000.0`.
    /// Boxed: a `BoardError` stays small in every `Result` it is in.
    #[serde(skip)]
    pub not_whole: Option<Box<NotWhole>>,
}

/// What a refusal of a decimal number needs to be worded again with the
/// number as written ([`BoardError::not_whole`]).
#[derive(Debug, Clone, PartialEq)]
pub struct NotWhole {
    /// What the field takes, in words ("a whole number from 0 to 255").
    pub expected: String,
}

impl BoardError {
    pub fn semantic(path: impl Into<String>, message: impl Into<String>) -> BoardError {
        BoardError {
            kind: ErrorKind::Semantic,
            message: message.into(),
            pos: None,
            path: Some(path.into()),
            rule: None,
            not_whole: None,
        }
    }

    pub fn refused(message: impl Into<String>) -> BoardError {
        BoardError {
            kind: ErrorKind::Refused,
            message: message.into(),
            pos: None,
            path: None,
            rule: None,
            not_whole: None,
        }
    }

    fn syntax(message: impl Into<String>, pos: Option<SourcePos>) -> BoardError {
        BoardError {
            kind: ErrorKind::Syntax,
            message: message.into(),
            pos,
            path: None,
            rule: None,
            not_whole: None,
        }
    }

    pub fn with_rule(mut self, rule: impl Into<String>) -> BoardError {
        self.rule = Some(rule.into());
        self
    }

    /// The same error with the line:column of its field in `text`, when it
    /// names a field and has no position yet (an error found after the
    /// typed read: an unknown name, two units of one name).
    pub fn located(mut self, text: Option<&str>) -> BoardError {
        if let Some(text) = text
            && let Some(nw) = self.not_whole.take()
        {
            self = self.quoted_as_written(text, nw);
        }
        if self.pos.is_none()
            && let (Some(text), Some(path)) = (text, self.path.as_deref())
            && !path.is_empty()
        {
            self.pos = locate(text, path);
        }
        self
    }

    /// The refusal of a decimal number where a whole one is expected,
    /// worded with the number as `text` writes it at the error's field
    /// (`1e3`, which the value read as `1000.0`) and at its line:column.
    /// Unchanged when the field's scalar is not found, what it needs kept:
    /// serde's path may stop above the number (a field of a tagged play),
    /// and the reader that finds the field below quotes it then.
    fn quoted_as_written(self, text: &str, nw: Box<NotWhole>) -> BoardError {
        let found = self.path.as_deref().and_then(|p| scalar_at(text, p));
        let Some((written, pos)) = found else {
            return BoardError {
                not_whole: Some(nw),
                ..self
            };
        };
        BoardError {
            message: not_whole_as_written(&written, &nw.expected),
            pos: Some(pos),
            ..self
        }
    }

    /// The same error, its path put under `prefix` (`play` → `plays[2]`).
    pub fn under(mut self, prefix: &str) -> BoardError {
        self.path = Some(join_path(prefix, self.path.as_deref().unwrap_or("")));
        self
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        if let Some(p) = self.pos {
            s.push_str(&format!("line {}:{}: ", p.line, p.column));
        }
        if let Some(path) = self.path.as_deref().filter(|p| !p.is_empty()) {
            s.push_str(&format!("{path}: "));
        }
        s.push_str(&self.message);
        if let Some(r) = &self.rule {
            s.push_str(&format!(" [{r}]"));
        }
        s
    }
}

/// `a` + `b` as a field path (`players[0]` + `name` → `players[0].name`).
pub fn join_path(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ if b.starts_with('[') => format!("{a}{b}"),
        _ => format!("{a}.{b}"),
    }
}

/// Extracts the board text from a Discord message: the first fenced code
/// block (```yaml … ```), or the whole text when there is none.
///
/// A fence opens at the start of a line, or on the message's first line
/// ("board: ```yaml"); it closes at the start of a line, or else at the
/// last fence. Three backticks inside a YAML value further down ("name:
/// Iron``` x") are no fence: taking one for a fence cut the board there
/// and the error read "line 1:1: this is not valid YAML" (found by an
/// outside tester).
pub fn extract_code_block(message: &str) -> &str {
    let first_line = message.find('\n').unwrap_or(message.len());
    let Some(start) = message[..first_line]
        .find("```")
        .or_else(|| fence_at_line_start(message))
    else {
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
    let end = fence_at_line_start(body).or_else(|| body.rfind("```"));
    match end {
        Some(end) => body[..end].trim(),
        None => body.trim(),
    }
}

/// Where the first fence that only spaces precede on its line starts, in
/// one pass over the lines (testing each fence by looking back along its
/// line was quadratic on a megabyte line of fences).
fn fence_at_line_start(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let lead = line.len() - line.trim_start().len();
        if line[lead..].starts_with("```") {
            return Some(at + lead);
        }
        at += line.len();
    }
    None
}

/// Checks size and emptiness before parsing.
pub fn precheck(text: &str) -> Result<(), BoardError> {
    if text.len() > MAX_BOARD_BYTES {
        return Err(BoardError::refused(format!(
            "the board document is {} ({} bytes); the limit is {} KB",
            size_text(text.len()),
            text.len(),
            MAX_BOARD_BYTES / 1024
        )));
    }
    if text.trim().is_empty() {
        return Err(BoardError::refused("the board document is empty"));
    }
    Ok(())
}

/// A size in KB, rounded up (so a document over a limit never reads as
/// the limit itself).
pub fn size_text(bytes: usize) -> String {
    format!("{} KB", bytes.div_ceil(1024))
}

/// Whether `text` is a match export (`arbiter_export:` at its top level,
/// in YAML or JSON) rather than a board document.
pub fn is_export(text: &str) -> bool {
    let t = text.trim_start();
    t.lines().any(|l| l.starts_with("arbiter_export:"))
        || (t.starts_with('{') && t.contains("\"arbiter_export\""))
}

/// Parses a match export: its own size limit ([`MAX_EXPORT_BYTES`]) and a
/// node budget in proportion; aliases and merge keys as for a board.
pub fn parse_export(text: &str) -> Result<serde_json::Value, BoardError> {
    if text.len() > MAX_EXPORT_BYTES {
        return Err(BoardError::refused(format!(
            "the match export is {} ({} bytes); the limit for an export is {} KB. To go on from it, set up its board alone (the file's `board:` part, a board document)",
            size_text(text.len()),
            text.len(),
            MAX_EXPORT_BYTES / 1024
        )));
    }
    if text.trim_start().starts_with('{')
        && let Ok(v) = serde_json::from_str(text)
    {
        return Ok(v);
    }
    let mut o = options();
    if let Some(b) = o.budget.as_mut() {
        b.max_nodes = EXPORT_NODES_FACTOR * MAX_NODES;
        b.max_events = 4 * b.max_nodes;
        b.max_total_scalar_bytes = 4 * MAX_EXPORT_BYTES;
    }
    let limits = Limits::of(&o);
    serde_saphyr::from_str_with_options(text, o)
        .map_err(|e| tab_error(text).unwrap_or_else(|| yaml_error(&e, text, limits)))
}

/// The parser options every document is read with: small budgets for
/// anchors, aliases and merge keys, duplicate keys refused.
fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_merge_keys = MAX_MERGE_KEYS;
    budget.max_aliases = MAX_ALIASES;
    budget.max_anchors = MAX_ALIASES;
    budget.max_depth = MAX_DEPTH;
    budget.max_nodes = MAX_NODES;
    budget.max_events = 4 * MAX_NODES;
    budget.max_total_scalar_bytes = 4 * MAX_BOARD_BYTES;
    let mut o = Options::default();
    o.budget = Some(budget);
    o.alias_limits.max_total_replayed_events = MAX_REPLAYED_EVENTS;
    o.alias_limits.max_replay_stack_depth = MAX_DEPTH;
    o
}

/// `Ok` when `ok`, else a board error at `path` (every game's validation).
pub fn check(
    ok: bool,
    path: impl Into<String>,
    message: impl Into<String>,
) -> Result<(), BoardError> {
    if ok {
        Ok(())
    } else {
        Err(BoardError::semantic(path, message))
    }
}

/// Parses YAML or JSON text into a value (the one full parse of a request).
pub fn parse_value(text: &str) -> Result<serde_json::Value, BoardError> {
    precheck(text)?;
    parse_text(text)
}

/// Parses YAML or JSON text straight into a typed value, with line:column
/// on errors (for small side documents; boards go through [`parse_value`]).
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, BoardError> {
    precheck(text)?;
    parse_text(text)
}

/// Parses a rule folder's own YAML file (a manifest, a glossary) into a
/// typed value with a board's words, line:column on errors ("the key `pb`
/// appears twice", "did you mean"); the parser's own limits, not a board's
/// (size, nodes, aliases), since the folder is the operator's.
pub fn parse_data<T: DeserializeOwned>(text: &str) -> Result<T, BoardError> {
    parse_with(text, Options::default())
}

fn parse_text<T: DeserializeOwned>(text: &str) -> Result<T, BoardError> {
    let value = parse_with(text, options())?;
    match odd_number(text) {
        Some(e) => Err(e),
        None => Ok(value),
    }
}

/// A whole number spelt in a way YAML reads otherwise than a player may
/// mean it, refused with how to write it: `020` (a leading zero: YAML 1.2
/// reads no such integer, and the reader took it as the decimal 20.0, then
/// refused it as "out of range"), `0o20`, `0x10`, `0b10` (YAML 1.2's
/// octal, hexadecimal and binary: 16, 16 and 2, taken silently), `1_0`
/// (underscores, which the reader drops: 10). Only the plain scalars the
/// document holds as values are looked at, as written, and only when a
/// word of the text reads so (a cheap pass: most boards hold none).
fn odd_number(text: &str) -> Option<BoardError> {
    let words = text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}'));
    if !words.into_iter().any(|w| odd_spelling(w).is_some()) {
        return None;
    }
    let tree: Spanned<Tree> = serde_saphyr::from_str_with_options(text, options()).ok()?;
    let (path, at) = odd_leaf(text, &tree, String::new())?;
    let written = token_at(text, at)?;
    let (why, n) = odd_spelling(written)?;
    let message = format!(
        "`{written}` {why}; write the number in plain digits, {n} (or in quotes, \"{written}\", if it is text)"
    );
    let mut e = BoardError::syntax(message, Some(at));
    e.path = Some(path).filter(|p| !p.is_empty());
    Some(e)
}

/// The first value scalar (its path and position) written as [`odd_spelling`] reads.
fn odd_leaf(text: &str, node: &Spanned<Tree>, path: String) -> Option<(String, SourcePos)> {
    match &node.value {
        Tree::Leaf => {
            let at = pos_of(&node.referenced);
            odd_spelling(token_at(text, at)?).map(|_| (path, at))
        }
        Tree::Map(entries) => entries
            .iter()
            .find_map(|(k, v)| odd_leaf(text, v, join_path(&path, &k.value))),
        Tree::Seq(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| odd_leaf(text, v, format!("{path}[{i}]"))),
    }
}

/// Why a plain scalar is a whole number spelt as a player may not mean
/// it, and the number in plain digits; `None` for any other word.
fn odd_spelling(word: &str) -> Option<(&'static str, i128)> {
    let (sign, digits) = match word.strip_prefix(['-', '+']) {
        Some(rest) => (if word.starts_with('-') { -1 } else { 1 }, rest),
        None => (1, word),
    };
    let radix = |p: &str| {
        digits
            .strip_prefix(p)
            .or(digits.strip_prefix(&p.to_uppercase()))
    };
    let (why, value) = if let Some(d) = radix("0o") {
        ("is YAML's octal notation", i128::from_str_radix(d, 8).ok()?)
    } else if let Some(d) = radix("0x") {
        (
            "is YAML's hexadecimal notation",
            i128::from_str_radix(d, 16).ok()?,
        )
    } else if let Some(d) = radix("0b") {
        (
            "is YAML's binary notation",
            i128::from_str_radix(d, 2).ok()?,
        )
    } else if digits.len() > 1
        && digits.starts_with('0')
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        (
            "starts with a zero, which YAML does not read as a plain whole number",
            digits.parse().ok()?,
        )
    } else if digits.contains('_')
        && digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.ends_with(|c: char| c.is_ascii_digit())
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        (
            "holds underscores, which YAML drops",
            digits.replace('_', "").parse().ok()?,
        )
    } else {
        return None;
    };
    Some((why, sign * value))
}

fn parse_with<T: DeserializeOwned>(text: &str, options: Options) -> Result<T, BoardError> {
    let limits = Limits::of(&options);
    // JSON (what match tracking stores) takes serde_json's faster path;
    // one with a key twice in a mapping (which serde_json would take, the
    // last winning) goes to the YAML reader, which refuses it with where.
    // So does one nested past the reader's depth: serde_json's own limit
    // is 128, and JSON 33 to 128 levels deep was taken where the same
    // nesting in YAML was refused.
    if text.trim_start().starts_with('{')
        && let Ok(Unique(v)) = serde_json::from_str(text)
        && depth(&v) <= limits.depth
        && let Ok(t) = T::deserialize(v)
    {
        return Ok(t);
    }
    serde_saphyr::from_str_with_options(text, options)
        .map_err(|e| tab_error(text).unwrap_or_else(|| yaml_error(&e, text, limits)))
}

/// How deeply a value nests its lists and mappings, counted as the YAML
/// reader's depth budget counts them (a top-level mapping is 1). Recursion
/// is bounded by serde_json's own limit of 128.
fn depth(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// The limits a reader was given, said in its refusals: a board's are not
/// a rule folder's data file's ([`parse_data`], the parser's defaults).
#[derive(Debug, Clone, Copy)]
struct Limits {
    aliases: usize,
    merge_keys: usize,
    depth: usize,
}

impl Limits {
    fn of(o: &Options) -> Limits {
        let b = o.budget.clone().unwrap_or_default();
        Limits {
            aliases: b.max_aliases,
            merge_keys: b.max_merge_keys,
            depth: b.max_depth,
        }
    }
}

/// A YAML document the parser refused because a tab indents a line: YAML
/// forbids tabs there, and the parser's own position points elsewhere (at
/// the key before it). Said only when the tabs are the cause: the text with
/// its indenting tabs made spaces parses. Looked for on the error path only;
/// JSON (where tabs indent freely) never.
fn tab_error(text: &str) -> Option<BoardError> {
    if text.trim_start().starts_with('{') {
        return None;
    }
    let indent = |line: &str| line.len() - line.trim_start().len();
    let (line, column) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l[..indent(l)].find('\t').map(|c| (i + 1, c + 1)))?;
    let spaced: String = text
        .lines()
        .map(|l| {
            format!(
                "{}{}\n",
                l[..indent(l)].replace('\t', "  "),
                &l[indent(l)..]
            )
        })
        .collect();
    serde_saphyr::from_str_with_options::<serde_json::Value>(&spaced, options()).ok()?;
    Some(BoardError::syntax(
        "a tab indents this line; YAML indents with spaces only".to_string(),
        Some(SourcePos { line, column }),
    ))
}

/// A JSON value read with every mapping's keys checked to differ.
struct Unique(serde_json::Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Unique(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(out.into())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some((k, Unique(v))) = map.next_entry::<String, Unique>()? {
            if out.insert(k, v).is_some() {
                return Err(serde::de::Error::custom("a key appears twice"));
            }
        }
        Ok(out.into())
    }
}

/// A parser error in the user's words, with its position (and, for a
/// value that is not a finite number, its field path in `text`).
fn yaml_error(e: &YamlError, text: &str, limits: Limits) -> BoardError {
    let pos = e.location().map(|l| SourcePos {
        line: l.line() as usize,
        column: l.column() as usize,
    });
    let e = match e.without_snippet() {
        YamlError::AliasError { error, .. } => error.without_snippet(),
        other => other,
    };
    if let YamlError::NonFiniteFloat { value, .. } = e {
        let message = format!(
            "`{value}` is not a finite number (NaN and infinities are not accepted); give a number"
        );
        let path = pos.and_then(|at| path_at(text, at));
        let mut err = BoardError::syntax(message, pos);
        err.path = path;
        return err;
    }
    let message = match e {
        e if parser_too_deep(e) => return too_repetitive(pos, limits),
        YamlError::Budget { .. }
        | YamlError::AliasReplayCounterOverflow { .. }
        | YamlError::AliasReplayLimitExceeded { .. }
        | YamlError::AliasExpansionLimitExceeded { .. }
        | YamlError::AliasReplayStackDepthExceeded { .. } => return too_repetitive(pos, limits),
        YamlError::MultipleDocuments { .. } => {
            "give one board document (remove the extra `---` separators)".to_string()
        }
        YamlError::Eof { .. } => "the document ends in the middle of a value".to_string(),
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => {
            format!("unknown field `{field}`{}", did_you_mean(field, expected))
        }
        YamlError::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            format!(
                "unknown value '{variant}'{}",
                did_you_mean(variant, expected)
            )
        }
        YamlError::SerdeMissingField { field, .. } => format!("missing field `{field}`"),
        YamlError::SerdeInvalidType {
            unexpected,
            expected,
            ..
        }
        | YamlError::SerdeInvalidValue {
            unexpected,
            expected,
            ..
        } => {
            let (unexpected, expected) = (unexpected.to_string(), plain_expected(expected));
            match (
                not_whole(&unexpected, expected),
                pos.and_then(|at| token_at(text, at)),
            ) {
                (Some(_), Some(written)) => not_whole_as_written(written, expected),
                _ => wrong_kind(&unexpected, expected),
            }
        }
        // A number a typed file (a manifest, a data file) holds where the
        // parser reads the scalar itself: said as written.
        YamlError::InvalidScalar { ty, .. }
            if plain_expected(ty).starts_with("a whole number")
                && let Some(written) = pos.and_then(|at| token_at(text, at)) =>
        {
            let expected = plain_expected(ty);
            if written.parse::<f64>().is_ok() && written.contains(['.', 'e', 'E']) {
                not_whole_as_written(written, expected)
            } else {
                format!("`{written}` is not {expected}")
            }
        }
        YamlError::SerdeInvalidLength { len, expected, .. } => {
            format!(
                "{}, expected {}",
                crate::text::count(*len, "item"),
                plain_expected(expected)
            )
        }
        YamlError::Message { msg, .. } => msg.clone(),
        YamlError::DuplicateMappingKey { key, .. } => match key {
            Some(k) => format!("the key `{k}` appears twice in the same mapping; keep one"),
            None => "a key appears twice in the same mapping; keep one".to_string(),
        },
        YamlError::UnknownAnchor { .. } => unknown_anchor(pos.and_then(|at| token_at(text, at))),
        e => match scanner_kind(e).and_then(scan_hint) {
            Some(hint) => hint,
            None => "this is not valid YAML or JSON here (check indentation, colons and brackets)"
                .to_string(),
        },
    };
    BoardError::syntax(message, pos)
}

/// The YAML scanner's own error kind behind a parser error, if it is one.
fn scanner_kind(e: &YamlError) -> Option<&serde_saphyr::granit_parser::ErrorKind> {
    match e {
        YamlError::ExternalMessage { source, .. } => match &**source {
            serde_saphyr::ExternalMessageSource::Parser(scan) => Some(scan.kind()),
            _ => None,
        },
        _ => None,
    }
}

/// An alias (`*name`) whose anchor the document does not define.
fn unknown_anchor(written: Option<&str>) -> String {
    let alias = written.filter(|w| w.starts_with('*'));
    let name = alias.map_or("", |a| &a[1..]);
    match alias {
        Some(a) => format!(
            "`{a}` refers to an anchor `&{name}` the document does not define (a value starting with `*` is a YAML alias); define the anchor before it, or write the value itself (in quotes, \"{a}\", if it is text)"
        ),
        None => "this alias (`*name`) refers to an anchor the document does not define; write the value itself".to_string(),
    }
}

/// What the scanner's error kind says of the document, in its words, with
/// what to do; `None` for the kinds with no more to say than "not valid YAML".
fn scan_hint(kind: &serde_saphyr::granit_parser::ErrorKind) -> Option<String> {
    use serde_saphyr::granit_parser::ErrorKind as K;
    let close = |open: char| if open == '[' { ']' } else { '}' };
    Some(match kind {
        K::UnclosedFlowCollection { open } => format!(
            "a `{open}` opened earlier is not closed: end it with `{}`",
            close(*open)
        ),
        K::UnexpectedEofFlowSequence => "a list `[` is not closed: end it with `]`".to_string(),
        K::UnexpectedEofFlowMapping | K::UnexpectedEofImplicitFlowMapping => {
            "a mapping `{` is not closed: end it with `}`".to_string()
        }
        K::MismatchedFlowCollectionEnd { open, close: got } => format!(
            "`{got}` here closes a `{open}`, which ends with `{}`",
            close(*open)
        ),
        K::MisplacedFlowCollectionEnd => {
            "this `]` or `}` closes nothing: remove it, or open its list or mapping".to_string()
        }
        K::ExpectedFlowMappingSeparator | K::ExpectedFlowSequenceSeparator => {
            "a comma is missing before this point: the items of `{ … }` and `[ … ]` are separated by commas (`{ name: Coal, life: 15 }`)".to_string()
        }
        K::InvalidIndentation
        | K::ExpectedBlockMappingKey
        | K::ExpectedBlockSequenceEntry
        | K::UnexpectedEofBlockMapping
        | K::UnexpectedEofBlockSequence => {
            "this line's indentation does not line up: the fields of one mapping start in the same column, and a list item's fields under its first one (after `- `)".to_string()
        }
        K::InvalidSimpleKey
        | K::SimpleKeyExpected
        | K::MappingValueNotAllowed
        | K::InvalidColonPlacement => {
            "a `: ` here reads as a second key on one line: put a value holding `: ` in quotes (`name: \"Coal: Roarkwin\"`), or start the next field on its own line".to_string()
        }
        K::UnclosedQuotedScalar => "a quoted value is not closed: end it with its quote".to_string(),
        _ => return None,
    })
}

/// Whether the parser itself refused the document for nesting past its own
/// limit (255 brackets, which its scanner meets before the depth budget's
/// 32 levels are counted): the same refusal as the budget's, not "not
/// valid YAML" (`[[[…]]]` 300 deep read so).
fn parser_too_deep(e: &YamlError) -> bool {
    use serde_saphyr::granit_parser::ErrorKind as Scan;
    matches!(e, YamlError::ExternalMessage { source, .. }
        if matches!(&**source, serde_saphyr::ExternalMessageSource::Parser(scan)
            if matches!(scan.kind(), Scan::RecursionLimitExceeded)))
}

/// The refusal of a document over a budget: too deep, or too much
/// repeated through anchors, aliases or merge keys.
/// The numbers are the reader's own (`limits`): a rule folder's data
/// file nested too deeply was told a board's 32 levels.
fn too_repetitive(pos: Option<SourcePos>, limits: Limits) -> BoardError {
    let Limits {
        aliases,
        merge_keys,
        depth,
    } = limits;
    BoardError {
        kind: ErrorKind::Refused,
        message: format!(
            "the document is too deeply nested or repeats too much through YAML anchors, aliases or merge keys (at most {aliases} aliases, {merge_keys} merge keys, {depth} levels); write the values out"
        ),
        pos,
        path: None,
        rule: None,
        not_whole: None,
    }
}

/// "; did you mean `x`?" for the closest expected name within a typo's
/// reach ([`crate::text::typo_budget`]: `base` is no typo of `game`), else
/// the list.
fn did_you_mean(typed: &str, expected: &[&str]) -> String {
    let budget = crate::text::typo_budget(typed);
    match closest_as_written(typed, expected, budget) {
        Some(e) => format!("; did you mean `{e}`?"),
        None if expected.is_empty() => String::new(),
        None => format!("; expected one of {}", expected.join(", ")),
    }
}

/// The expected name closest to `typed` ([`crate::text::closest`], which
/// folds case and separators), and among names as close, the one nearest
/// as written: `attack-phoenixbon` is offered `attack-phoenixborn`, the
/// spelling the field takes, not its alias `attack phoenixborn`.
fn closest_as_written<'a>(typed: &str, expected: &[&'a str], budget: usize) -> Option<&'a str> {
    let best = crate::text::closest(typed, expected.iter().copied(), budget)?;
    let folded = |s: &str| crate::text::fold(s);
    let far = crate::text::edit_distance(&folded(typed), &folded(best), budget);
    let ties = expected
        .iter()
        .copied()
        .filter(|e| crate::text::edit_distance(&folded(typed), &folded(e), budget) == far);
    let raw = |e: &str| crate::text::edit_distance(typed, e, usize::MAX / 2).unwrap_or(usize::MAX);
    ties.min_by_key(|e| (raw(e), *e)).or(Some(best))
}

/// "wrong kind of value: …" in plain words; a decimal number where a
/// whole one is expected says it is not whole (it read "wrong kind of
/// value: floating point `1000.0`" for `1e3`). Without the text, the
/// number is serde's (`1000.0`): [`BoardError::located`] quotes it as
/// written.
fn wrong_kind(unexpected: &str, expected: &str) -> String {
    match unexpected.strip_prefix("floating point ") {
        Some(number) if not_whole(unexpected, expected).is_some() => format!(
            "{number} is a decimal number, not a whole one; give {expected}, in digits (no decimal point or exponent)"
        ),
        _ => format!("wrong kind of value: {unexpected}, expected {expected}"),
    }
}

/// A decimal number (serde's "floating point …") where a whole one is
/// expected (already in words, [`plain_expected`]).
fn not_whole(unexpected: &str, expected: &str) -> Option<Box<NotWhole>> {
    (unexpected.starts_with("floating point ") && expected.starts_with("a whole number")).then(
        || {
            Box::new(NotWhole {
                expected: expected.to_string(),
            })
        },
    )
}

/// The refusal of a decimal number where a whole one is expected, with
/// the number as the document writes it (`1e3`, not serde's `1000.0`) and,
/// when it is whole after all, its digits.
fn not_whole_as_written(written: &str, expected: &str) -> String {
    // Digits past what a whole number reads (`99999999999999999999`) come
    // as a decimal number: no decimal point or exponent to speak of.
    let plain = written.strip_prefix(['-', '+']).unwrap_or(written);
    if !plain.is_empty() && plain.bytes().all(|b| b.is_ascii_digit()) {
        return format!("`{written}` is out of range; give {expected}");
    }
    let digits = written
        .parse::<f64>()
        .ok()
        .filter(|x| x.fract() == 0.0 && x.abs() < 1e15)
        .map(|x| x as i64);
    match digits {
        Some(n) => format!(
            "`{written}` is not a whole number as written (a decimal point or an exponent makes it a decimal number); give {expected}, in digits: {n}"
        ),
        None => format!(
            "`{written}` is a decimal number, not a whole one; give {expected}, in digits (no decimal point or exponent)"
        ),
    }
}

/// A Rust type serde names as what it expected (`struct Block`, `enum
/// Kind`): what it is in words when nothing better is known, and its name
/// (to look up in a schema). `None` for anything else.
fn rust_type(expected: &str) -> Option<(&'static str, &str)> {
    let (kind, name) = match expected.split_once(' ')? {
        ("struct", name) => ("a mapping of fields", name),
        ("enum", name) => ("one of its names", name),
        _ => return None,
    };
    let ident = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then_some((kind, name))
}

/// What a serde error expected, without Rust type names, naming the bounds
/// of a whole number (it read "a whole number from 0" for a `u32`, with
/// 4294967296 refused).
fn plain_expected(expected: &str) -> &str {
    if let Some((kind, _)) = rust_type(expected) {
        return kind;
    }
    match expected.trim_start_matches("struct ") {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "usize" => "a whole number from 0 to 18446744073709551615",
        "i8" => "a whole number from -128 to 127",
        "i16" => "a whole number from -32768 to 32767",
        "i32" => "a whole number from -2147483648 to 2147483647",
        "i64" | "isize" => "a whole number from -9223372036854775808 to 9223372036854775807",
        "f32" | "f64" => "a number",
        // A list longer than a fixed-length one: the one a board holds is a
        // position (`magewinds::board::Pos`), as for too few items below.
        "fewer elements in array" => "a list of 2 numbers, [x, y]",
        "an array of length 2" | "a tuple of size 2" => "a list of 2 numbers, [x, y]",
        e if e.starts_with("internally tagged enum") => {
            "a mapping of fields (a one-line play goes in `--play` or `/match play`, not in the board's `play:`)"
        }
        "a boolean" => "true or false",
        "a string" => "text",
        "a sequence" => "a list",
        "a map" => "a mapping of fields",
        other => other,
    }
}

/// Writes the document's `game` as the id `id` when it names that game
/// another way (`game: Ashes Reborn`, an alias): `same` tells whether a
/// name is the game. Any other `game` is left for the engine to refuse.
pub fn name_game_by_id(doc: &mut serde_json::Value, id: &str, same: impl Fn(&str) -> bool) {
    if let Some(map) = doc.as_object_mut()
        && map
            .get("game")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|g| g != id && same(g))
    {
        map.insert("game".into(), id.into());
    }
}

/// The `game` field of a document value.
pub fn game_of(doc: &serde_json::Value) -> Result<&str, BoardError> {
    match doc.get("game") {
        Some(serde_json::Value::String(g)) => Ok(g),
        Some(_) => Err(BoardError::semantic("game", "`game` must be a game's name")),
        None if doc.is_object() => {
            // `Game: ashes`: a key that is `game` but for its case or a typo.
            let keys = doc.as_object().into_iter().flat_map(|m| m.keys());
            let near = keys
                .filter(|k| {
                    crate::text::closest(k, ["game"], crate::text::typo_budget(k)).is_some()
                })
                .min_by_key(|k| k.len());
            let hint = match near {
                Some(k) if k.to_lowercase() == "game" => {
                    format!(
                        "; did you mean `game` for `{k}`? (field names are written in lower case)"
                    )
                }
                Some(k) => format!("; did you mean `game` for `{k}`?"),
                None => " (for example `game: ashes`)".to_string(),
            };
            Err(BoardError::semantic(
                "game",
                format!("the board document needs a `game` field{hint}"),
            ))
        }
        None => Err(BoardError::semantic(
            "",
            "the board document must be a mapping of fields (`game: …`, `players: …`)",
        )),
    }
}

/// Reads a typed value out of a document value. On failure the error names
/// the field path (under `prefix`) and, when the text is given, its
/// line:column.
pub fn typed<T: DeserializeOwned>(
    value: &serde_json::Value,
    prefix: &str,
    text: Option<&str>,
) -> Result<T, BoardError> {
    typed_described(value, prefix, text, &|_| None)
}

/// [`typed`], with what a struct or enum serde names by its Rust type
/// (`expected struct Block`) takes said in the document's words by
/// `describe` (the game's schema: its fields or its names); without
/// words for it, "a mapping of fields" or "one of its names".
pub fn typed_described<T: DeserializeOwned>(
    value: &serde_json::Value,
    prefix: &str,
    text: Option<&str>,
    describe: &dyn Fn(&str) -> Option<String>,
) -> Result<T, BoardError> {
    // The happy path reads directly; only a failure is read again with the
    // path tracked (tracking costs on every field).
    if let Ok(v) = T::deserialize(value) {
        return Ok(v);
    }
    let _ = take_refused();
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = e.path().to_string();
        let inner = if inner == "." { String::new() } else { inner };
        // A value a bounded type refused is well-formed but wrong
        // (semantic); anything else serde refuses is the wrong shape.
        let refused = take_refused();
        let kind = match refused {
            Some(_) => ErrorKind::Semantic,
            None => ErrorKind::Syntax,
        };
        let inner = match refused {
            Some(refused) => refused_below(value, inner, &refused),
            None => inner,
        };
        let path = join_path(prefix, &inner);
        let (message, not_whole) = serde_wording(e.inner(), describe);
        let mut err = BoardError::semantic(path.clone(), message);
        err.kind = kind;
        err.not_whole = not_whole;
        err.pos = text.and_then(|t| locate(t, &path));
        err.located(text)
    })
}

/// What a bounded value refused when read, kept for the reader
/// ([`typed`]) to find it in the document where serde
/// loses the path (a field of an internally tagged enum's variant is read
/// from a buffer that does not track it).
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    Text(String),
    Number(u32),
    Entries(usize),
}

thread_local! {
    static REFUSED: RefCell<Option<Refused>> = const { RefCell::new(None) };
}

/// The value a bounded type last refused on this thread, if any (taken).
fn take_refused() -> Option<Refused> {
    REFUSED.with(|r| r.borrow_mut().take())
}

/// Records what a bounded type refused (`kit::bounded`); returns `why`.
pub fn refuse(what: Refused, why: String) -> String {
    REFUSED.with(|r| *r.borrow_mut() = Some(what));
    why
}

/// Where serde's path stops at an object (a variant of an internally
/// tagged enum, read from a buffer that does not track paths), the field
/// under it that holds the value a bounded type refused: the one string or
/// number equal to it, or the one list of its length. `path` unchanged when
/// it names no object, or no field or several could be it.
fn refused_below(value: &serde_json::Value, path: String, refused: &Refused) -> String {
    let mut node = value;
    for seg in path_segments(&path) {
        let next = match seg {
            Seg::Key(k) => node.get(k),
            Seg::Index(i) => node.get(i),
        };
        let Some(next) = next else { return path };
        node = next;
    }
    if !node.is_object() {
        return path;
    }
    let mut found = Vec::new();
    find_refused(node, refused, String::new(), &mut found);
    // Only where one value could be it: an equal value elsewhere (a valid
    // `attack: 12` beside a refused `power: 12`) leaves serde's path.
    match found.as_slice() {
        [below] => join_path(&path, below),
        _ => path,
    }
}

fn find_refused(v: &serde_json::Value, refused: &Refused, at: String, out: &mut Vec<String>) {
    use serde_json::Value;
    match (v, refused) {
        (Value::String(s), Refused::Text(t)) if s == t => out.push(at),
        (Value::Number(n), Refused::Number(m)) if n.as_u64() == Some(u64::from(*m)) => out.push(at),
        (Value::Array(items), _) => {
            if matches!(refused, Refused::Entries(n) if *n == items.len()) {
                out.push(at.clone());
            }
            for (i, item) in items.iter().enumerate() {
                find_refused(item, refused, format!("{at}[{i}]"), out);
            }
        }
        (Value::Object(map), _) => {
            for (k, item) in map {
                find_refused(item, refused, join_path(&at, k), out);
            }
        }
        _ => {}
    }
}

/// serde_json's data errors, reworded where they name Rust types
/// (`expected u32` → `expected a whole number`), with what a decimal
/// number where a whole one is expected needs to be quoted as written.
fn serde_wording(
    e: &serde_json::Error,
    describe: &dyn Fn(&str) -> Option<String>,
) -> (String, Option<Box<NotWhole>>) {
    let raw = e.to_string();
    // serde_json appends " at line L column C" for text input; values have none.
    let raw = raw.split(" at line ").next().unwrap_or(&raw);
    let raw = raw
        .replace("invalid type: ", "wrong kind of value: ")
        .replace("invalid length ", "wrong number of items: ");
    let Some((head, expected)) = raw.split_once(", expected ") else {
        return (raw, None);
    };
    if let Some(message) = unknown_name(head, expected) {
        return (message, None);
    }
    let expected = match rust_type(expected) {
        Some((kind, name)) => describe(name).unwrap_or_else(|| kind.to_string()),
        None => plain_expected(expected).to_string(),
    };
    let expected = expected.as_str();
    match head.strip_prefix("wrong kind of value: ") {
        Some(unexpected) => (
            wrong_kind(unexpected, expected),
            not_whole(unexpected, expected),
        ),
        None => (format!("{head}, expected {expected}"), None),
    }
}

/// serde's refusal of a name it does not know (a keyword, "unknown variant
/// `pas`", or a field) with the names it expected ("one of `pass`, …",
/// "`a` or `b`"), worded as the YAML reader's is when the name is a typo
/// of one of them: a did-you-mean (it listed every keyword for `pas`).
/// `None`, serde's own list said, when no name is near.
fn unknown_name(head: &str, expected: &str) -> Option<String> {
    let (what, rest) = match head.strip_prefix("unknown variant `") {
        Some(rest) => ("value", rest),
        None => ("field", head.strip_prefix("unknown field `")?),
    };
    let typed = rest.strip_suffix('`')?;
    // The names are the back-quoted spans: every other piece between quotes.
    let names: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let meant = closest_as_written(typed, &names, crate::text::typo_budget(typed))?;
    Some(match what {
        "value" => format!("unknown value '{typed}'; did you mean `{meant}`?"),
        _ => format!("unknown field `{typed}`; did you mean `{meant}`?"),
    })
}

/// The line:column of a field path (`players[1].units[0].life`) in a
/// document's text, when it can be found. Parses the text again: used on
/// the error path only.
pub fn locate(text: &str, path: &str) -> Option<SourcePos> {
    let tree: Spanned<Tree> = serde_saphyr::from_str_with_options(text, options()).ok()?;
    let mut node = &tree;
    let mut pos = None;
    for seg in path_segments(path) {
        let next = match (&node.value, seg) {
            (Tree::Map(entries), Seg::Key(k)) => entries.iter().find(|(key, _)| key.value == k),
            (Tree::Seq(items), Seg::Index(i)) => {
                // A sequence item has no key: point at the item itself.
                let Some(item) = items.get(i) else { break };
                pos = Some(pos_of(&item.referenced));
                node = item;
                continue;
            }
            _ => None,
        };
        let Some((key, value)) = next else { break };
        pos = Some(pos_of(&key.referenced));
        node = value;
    }
    pos.or(Some(pos_of(&tree.referenced)))
}

/// The scalar a field path names, as the document's text writes it, and
/// where it starts (the value's line:column, not its key's). Parses the
/// text again: used on the error path only.
fn scalar_at(text: &str, path: &str) -> Option<(String, SourcePos)> {
    let tree: Spanned<Tree> = serde_saphyr::from_str_with_options(text, options()).ok()?;
    let mut node = &tree;
    for seg in path_segments(path) {
        node = match (&node.value, seg) {
            (Tree::Map(entries), Seg::Key(k)) => &entries.iter().find(|(key, _)| key.value == k)?.1,
            (Tree::Seq(items), Seg::Index(i)) => items.get(i)?,
            _ => return None,
        };
    }
    if !matches!(node.value, Tree::Leaf) {
        return None;
    }
    let at = pos_of(&node.referenced);
    Some((token_at(text, at)?.to_string(), at))
}

/// "write it in quotes: name: \"On\"" for the scalar at a field path
/// written unquoted (which YAML read as true, false or a number where
/// text is taken), quoting what the document writes; `None` when it is
/// quoted already or not found.
pub fn quote_hint(text: &str, path: &str) -> Option<String> {
    let (written, _) = scalar_at(text, path)?;
    if written.starts_with(['"', '\'']) {
        return None;
    }
    let quoted = serde_json::to_string(&written).ok()?;
    Some(match path_segments(path).last() {
        Some(Seg::Key(k)) => format!("write it in quotes: {k}: {quoted}"),
        _ => format!("write it in quotes: {quoted}"),
    })
}

/// The plain scalar (a number) written at `at` (1-based line and column,
/// in characters): up to the next space, comma, bracket, brace or comment.
fn token_at(text: &str, at: SourcePos) -> Option<&str> {
    let line = text.lines().nth(at.line.checked_sub(1)?)?;
    let start = line
        .char_indices()
        .nth(at.column.checked_sub(1)?)
        .map(|(i, _)| i)?;
    let rest = &line[start..];
    let end = rest
        .find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | '}' | '#'))
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|t| !t.is_empty())
}

/// The field path of the scalar that starts at `at` in a document's
/// text, when it can be found (non-finite numbers read as text). Parses the
/// text again: used on the error path only.
fn path_at(text: &str, at: SourcePos) -> Option<String> {
    let mut o = options();
    o.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::AsString;
    let tree: Spanned<Tree> = serde_saphyr::from_str_with_options(text, o).ok()?;
    leaf_path(&tree, at, String::new())
}

fn leaf_path(node: &Spanned<Tree>, at: SourcePos, path: String) -> Option<String> {
    match &node.value {
        Tree::Leaf => (pos_of(&node.referenced) == at).then_some(path),
        Tree::Map(entries) => entries
            .iter()
            .find_map(|(k, v)| leaf_path(v, at, join_path(&path, &k.value))),
        Tree::Seq(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| leaf_path(v, at, format!("{path}[{i}]"))),
    }
}

fn pos_of(l: &serde_saphyr::Location) -> SourcePos {
    SourcePos {
        line: l.line() as usize,
        column: l.column() as usize,
    }
}

/// One segment of a field path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `players[1].units[0].life` into keys and indexes. Quoted names
/// (`split["Iron Worker"]`) are keys.
pub fn path_segments(path: &str) -> Vec<Seg<'_>> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            if i > 0 {
                out.push(Seg::Key(&rest[..i]));
            }
            rest = &rest[i..];
            while let Some(close) = rest.find(']') {
                let inner = &rest[1..close];
                match inner.parse::<usize>() {
                    Ok(n) => out.push(Seg::Index(n)),
                    Err(_) => out.push(Seg::Key(inner.trim_matches('"'))),
                }
                rest = &rest[close + 1..];
                if !rest.starts_with('[') {
                    break;
                }
            }
        } else {
            out.push(Seg::Key(rest));
        }
    }
    out
}

/// A document as a tree of source positions (keys and values).
#[derive(Debug)]
enum Tree {
    Map(Vec<(Spanned<String>, Spanned<Tree>)>),
    Seq(Vec<Spanned<Tree>>),
    Leaf,
}

impl<'de> Deserialize<'de> for Tree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Tree, D::Error> {
        d.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> Visitor<'de> for TreeVisitor {
    type Value = Tree;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(k) = m.next_key::<Spanned<String>>()? {
            entries.push((k, m.next_value()?));
        }
        Ok(Tree::Map(entries))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(t) = s.next_element()? {
            items.push(t);
        }
        Ok(Tree::Seq(items))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_str<E>(self, _: &str) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_none<E>(self) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_in_an_indent_is_named_at_its_line() {
        let e = parse_value("game: ashes\nplayers:\n\t- name: Coal\n").unwrap_err();
        assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((3, 1)), "{e}");
        assert!(e.message.contains("tab"), "{e}");
        // A tab inside a value is no indent.
        assert!(parse_value("game: ashes\nnote: \"a\tb\"\n").is_ok());
        // JSON indents with tabs freely: its own error is said.
        let e = parse_value("{\n\t\"game\": \"ashes\",\n\t\"game\": \"ti4\"\n}").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        // A tab that is not the fault leaves the real error said.
        let e = parse_value("game: ashes\nplayers:\n\t- a\nx: [\n").unwrap_err();
        assert!(!e.message.contains("tab"), "{e}");
    }

    #[test]
    fn expectations_are_said_without_rust_type_names() {
        assert_eq!(plain_expected("f64"), "a number");
        assert!(plain_expected("internally tagged enum Play").contains("one-line play"));
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Unit {
        name: String,
        life: u32,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct B {
        game: String,
        units: Vec<Unit>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "kebab-case")]
    #[allow(dead_code)]
    enum Act {
        Pass,
        DeclareAttack,
        Move,
    }

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Played {
        action: Act,
    }

    /// A misspelt keyword gets a did-you-mean at its line:column, as a
    /// misspelt field does (it listed every keyword); a name no keyword
    /// is near still gets the list.
    #[test]
    fn a_misspelt_keyword_is_offered_the_one_meant() {
        for (typo, meant) in [("pas", "pass"), ("declare-atack", "declare-attack")] {
            let text = format!("action: {typo}\n");
            let v = parse_value(&text).unwrap();
            let e = typed::<Played>(&v, "", Some(&text)).unwrap_err();
            assert!(
                e.message.contains(&format!("did you mean `{meant}`?")),
                "{e}"
            );
            assert!(e.message.contains(&format!("'{typo}'")), "{e}");
            assert!(!e.message.contains("one of"), "{e}");
            assert_eq!(e.path.as_deref(), Some("action"), "{e}");
            assert_eq!(e.pos.map(|p| p.line), Some(1), "{e}");
        }
        let v = parse_value("action: dance\n").unwrap();
        let e = typed::<Played>(&v, "", None).unwrap_err();
        assert!(!e.message.contains("did you mean"), "{e}");
        assert!(e.message.contains("declare-attack"), "{e}");
    }

    /// A name a typo's reach away is offered; one as far from every name
    /// as `base` is from `game` is not (it was, with a fixed reach of 3).
    #[test]
    fn a_suggestion_is_made_within_a_typos_reach_only() {
        assert_eq!(
            did_you_mean("gme", &["game", "units"]),
            "; did you mean `game`?"
        );
        assert!(!did_you_mean("base", &["game", "units"]).contains("did you mean"));
    }

    /// Digits past what a number holds are quoted as written, with the
    /// field's bounds, not as serde's decimal (`1e+20`).
    #[test]
    fn digits_past_a_number_are_quoted_as_written() {
        let text = "game: ashes\nunits:\n  - name: a\n    life: 99999999999999999999\n";
        let v = parse_value(text).unwrap();
        let e = typed::<B>(&v, "", Some(text)).unwrap_err();
        assert!(
            e.message
                .starts_with("`99999999999999999999` is out of range"),
            "{e}"
        );
        assert!(!e.message.contains("decimal"), "{e}");
        assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((4, 11)), "{e}");
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let e = parse_value("game: ashes\nplayers: [a, b\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.pos.is_some(), "{e:?}");
    }

    #[test]
    fn typed_errors_carry_the_path_and_line_and_column() {
        let text = "game: ashes\nunits:\n  - name: a\n    life: 2\n  - name: b\n    lfe: 3\n";
        let v = parse_value(text).unwrap();
        let e = typed::<B>(&v, "", Some(text)).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("units[1].lfe"), "{e:?}");
        assert!(e.message.contains("unknown field `lfe`"), "{}", e.message);
        assert_eq!(e.pos.map(|p| p.line), Some(6), "{e:?}");
        let text = "game: ashes\nunits:\n  - name: a\n    life: lots\n";
        let e = typed::<B>(&parse_value(text).unwrap(), "", Some(text)).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("units[0].life"));
        assert_eq!(e.pos.map(|p| p.line), Some(4));
        assert!(!e.message.contains("u32"), "{}", e.message);
    }

    /// A decimal number in a whole-number field is quoted as the board
    /// writes it, YAML or JSON, read with the text at hand or located
    /// after (a match's setup): `1e3`, at its line:column, not serde's
    /// `1000.0`.
    #[test]
    fn a_decimal_for_a_whole_number_is_quoted_as_written() {
        let yaml = "game: ashes\nunits:\n  - name: a\n    life: 1e3\n";
        let json = "{\"game\": \"ashes\",\n \"units\": [{\"name\": \"a\", \"life\": 1e3}]}";
        for (text, at) in [(yaml, (4, 11)), (json, (2, 34))] {
            let v = parse_value(text).unwrap();
            let read_with_text = typed::<B>(&v, "", Some(text)).unwrap_err();
            let located_after = typed::<B>(&v, "", None).unwrap_err().located(Some(text));
            for e in [read_with_text, located_after] {
                assert_eq!(e.path.as_deref(), Some("units[0].life"), "{e}");
                assert_eq!(
                    e.pos,
                    Some(SourcePos {
                        line: at.0,
                        column: at.1
                    }),
                    "{e}"
                );
                assert!(e.message.starts_with("`1e3` is not a whole number"), "{e}");
                assert!(
                    e.message.contains("a whole number from 0 to 4294967295"),
                    "{e}"
                );
                assert!(e.message.ends_with(": 1000"), "{e}");
                assert!(!e.message.contains("1000.0"), "{e}");
            }
        }
        // Not whole at all: quoted as written too, without digits.
        let text = "game: ashes\nunits:\n  - name: a\n    life: 2.50\n";
        let e = typed::<B>(&parse_value(text).unwrap(), "", Some(text)).unwrap_err();
        assert!(e.message.starts_with("`2.50` is a decimal number"), "{e}");
        // A data file read straight from YAML says the same.
        let e = parse_data::<B>(text).unwrap_err();
        assert!(e.message.starts_with("`2.50` is a decimal number"), "{e}");
        assert_eq!(e.pos.map(|p| p.line), Some(4), "{e}");
    }

    #[test]
    fn errors_found_after_reading_get_their_fields_position() {
        let text = "game: ashes\nplayers:\n  - name: A\n  - name: A\n";
        let e = BoardError::semantic("players[1].name", "two players are named 'A'");
        let at = e.clone().located(Some(text));
        assert_eq!(at.pos, Some(SourcePos { line: 4, column: 5 }));
        assert!(
            at.to_string().starts_with("line 4:5: players[1].name: "),
            "{at}"
        );
        assert_eq!(e.clone().located(None), e);
        let refused = BoardError::refused("too large").located(Some(text));
        assert_eq!(refused.pos, None);
    }

    #[test]
    fn merge_key_bombs_are_refused_quickly_in_user_words() {
        let mut doc = String::from("b0: &b0 {k0: 1}\n");
        for n in 1..30 {
            doc.push_str(&format!(
                "b{n}: &b{n} {{<<: [*b{m}, *b{m}], k{n}: 1}}\n",
                m = n - 1
            ));
        }
        let t = std::time::Instant::now();
        let e = parse_value(&doc).unwrap_err();
        assert!(t.elapsed().as_millis() < 500, "took {:?}", t.elapsed());
        assert_eq!(e.kind, ErrorKind::Refused, "{e:?}");
        assert!(e.message.contains("merge keys"), "{}", e.message);
        assert!(!e.message.contains("Budget"), "{}", e.message);
    }

    /// Nesting past the parser's own limit (255 brackets) is refused as
    /// too deep, as nesting past the budget's 32 levels is, in YAML and
    /// JSON (300 levels read "not valid YAML or JSON here").
    #[test]
    fn nesting_at_any_depth_is_refused_as_too_deep() {
        // (JSON under serde_json's own limit of 128 takes its fast path.)
        for depth in [200, 256, 300, 1000] {
            let (open, close) = ("[".repeat(depth), "]".repeat(depth));
            let yaml = format!("game: ashes\nplayers: {open}{close}\n");
            let json = format!("{{\"game\": \"ashes\", \"players\": {open}{close}}}");
            for text in [yaml, json] {
                let e = parse_value(&text).unwrap_err();
                assert_eq!(e.kind, ErrorKind::Refused, "{depth}: {e}");
                assert!(e.message.contains("too deeply nested"), "{depth}: {e}");
                assert!(e.message.contains("32 levels"), "{depth}: {e}");
            }
        }
    }

    /// JSON and YAML boards share one depth limit: JSON 33 to 128 levels
    /// deep took serde_json's fast path where YAML was refused.
    #[test]
    fn json_and_yaml_boards_share_one_depth_limit() {
        for levels in [30, 31, 32, 33, 34, 40, 100, 127] {
            // The top-level mapping is one level, `players` holds the rest.
            let (open, close) = ("[".repeat(levels - 1), "]".repeat(levels - 1));
            let yaml = format!("game: ashes\nplayers: {open}{close}\n");
            let json = format!("{{\"game\": \"ashes\", \"players\": {open}{close}}}");
            let (y, j) = (parse_value(&yaml), parse_value(&json));
            assert_eq!(y.is_ok(), j.is_ok(), "{levels}: {y:?} / {j:?}");
            assert_eq!(y.is_ok(), levels <= MAX_DEPTH, "{levels}: {y:?}");
            if let Err(e) = j {
                assert_eq!(e.kind, ErrorKind::Refused, "{levels}: {e}");
                assert!(e.message.contains("32 levels"), "{levels}: {e}");
            }
        }
    }

    /// A rule folder's data file nested too deeply is told its own reader's
    /// limits, not a board's 32 levels (past the parser's 255 brackets and
    /// past its depth budget alike).
    #[test]
    fn a_data_file_nested_too_deeply_is_told_its_own_limit() {
        let own = Budget::default().max_depth;
        assert_ne!(own, MAX_DEPTH);
        for levels in [own + 5, 300] {
            let text = format!("synonyms: {}{}\n", "[".repeat(levels), "]".repeat(levels));
            let e = parse_data::<serde_json::Value>(&text).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Refused, "{levels}: {e}");
            assert!(
                e.message.contains(&format!("{own} levels")),
                "{levels}: {e}"
            );
            assert!(!e.message.contains("32 levels"), "{levels}: {e}");
        }
        let fine = format!("synonyms: {}{}\n", "[".repeat(40), "]".repeat(40));
        assert!(parse_data::<serde_json::Value>(&fine).is_ok());
    }

    #[test]
    fn a_data_file_error_is_worded_and_located() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Glossary {
            synonyms: std::collections::BTreeMap<String, Vec<String>>,
        }
        let e = parse_data::<Glossary>("synonyms:\n  pb: [phoenixborn]\n  pb: [x]\n").unwrap_err();
        assert_eq!(e.pos.map(|p| p.line), Some(3), "{e}");
        assert!(e.message.contains("the key `pb` appears twice"), "{e}");
        assert!(!e.to_string().contains("DuplicateKeyPolicy"), "{e}");
        let e = parse_data::<Glossary>("synonym:\n  pb: [phoenixborn]\n").unwrap_err();
        assert!(e.message.contains("did you mean `synonyms`"), "{e}");
    }

    #[test]
    fn duplicate_keys_are_worded_for_users() {
        let e = parse_value("game: ashes\ngame: ti4\n").unwrap_err();
        assert!(e.message.contains("appears twice"), "{}", e.message);
        assert!(!e.message.contains("DuplicateKeyPolicy"), "{}", e.message);
    }

    #[test]
    fn paths_split_into_segments() {
        assert_eq!(
            path_segments("players[1].units[0].life"),
            vec![
                Seg::Key("players"),
                Seg::Index(1),
                Seg::Key("units"),
                Seg::Index(0),
                Seg::Key("life")
            ]
        );
        assert_eq!(
            path_segments("play.split[\"Iron Worker\"]"),
            vec![Seg::Key("play"), Seg::Key("split"), Seg::Key("Iron Worker")]
        );
    }

    #[test]
    fn code_blocks_are_extracted() {
        assert_eq!(
            extract_code_block("look:\n```yaml\ngame: ashes\n```\nthanks"),
            "game: ashes"
        );
        assert_eq!(extract_code_block("game: ashes"), "game: ashes");
        assert_eq!(extract_code_block("```game: ashes```"), "game: ashes");
        assert_eq!(
            extract_code_block("board: ```yaml\ngame: ashes```"),
            "game: ashes"
        );
        // Backticks inside a value further down are no fence (an outside
        // tester's unit named so could not be set up again).
        let named = "game: ashes\nunits:\n- name: Iron``` x ```\n  life: 2";
        assert_eq!(extract_code_block(named), named);
        let fenced = format!("```yaml\n{named}\n```\nthanks");
        assert_eq!(extract_code_block(&fenced), named);
        // Indented fences count; a line of many fences after text does not
        // open or close a block but the last.
        assert_eq!(
            extract_code_block("look:\n  ```\ngame: ashes\n  ```\n"),
            "game: ashes"
        );
        let many = format!("```\nx{}", "```".repeat(1000));
        assert_eq!(extract_code_block(&many), format!("x{}", "```".repeat(999)));
    }

    #[test]
    fn oversized_and_empty_documents_are_refused() {
        assert_eq!(precheck("").unwrap_err().kind, ErrorKind::Refused);
        let big = "a".repeat(MAX_BOARD_BYTES + 1);
        assert!(precheck(&big).unwrap_err().message.contains("limit"));
        // The size stated is the document's own: 77 KB, with its bytes.
        let big = "a".repeat(77 * 1024);
        assert_eq!(
            precheck(&big).unwrap_err().message,
            "the board document is 77 KB (78848 bytes); the limit is 64 KB"
        );
    }

    #[test]
    fn an_export_has_its_own_limit() {
        let export = format!("arbiter_export: 2\nnote: \"{}\"\n", "a".repeat(100 * 1024));
        assert!(is_export(&export) && !is_export("game: ashes\n"));
        assert!(parse_export(&export).is_ok());
        let huge = "a".repeat(MAX_EXPORT_BYTES + 1);
        let e = parse_export(&huge).unwrap_err().message;
        assert!(e.contains("the limit for an export is 1024 KB"), "{e}");
    }
}
