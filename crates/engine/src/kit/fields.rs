//! Board fields as data, for every game at once: which fields of a
//! document an engine does not read, field paths as players type them
//! (`adjust`), phase resets, and the schema's field names for did-you-mean.

use serde_json::{Map, Value};

use super::names::{self, NameError};
use crate::BoardError;
use crate::document::{Seg, path_segments};
use crate::text::{closest, fold, typo_budget};

/// Leaf paths of `doc` that no pattern in `reads` covers, indexes written
/// `[]` (`players[].units[].name`), each once. A subtree a pattern covers
/// whole (`players` covers `players[].units[].name`) is not walked.
fn uncovered(doc: &Value, reads: &[&str], path: &mut String, out: &mut Vec<String>) {
    let whole = |path: &str| reads.iter().any(|p| is_prefix(p, path));
    match doc {
        Value::Object(m) if !m.is_empty() => {
            if whole(path) {
                return;
            }
            for (k, v) in m {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                uncovered(v, reads, path, out);
                path.truncate(len);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            if whole(path) {
                return;
            }
            let len = path.len();
            path.push_str("[]");
            for v in items {
                uncovered(v, reads, path, out);
            }
            path.truncate(len);
        }
        Value::Null => {}
        _ => {
            if !reads.iter().any(|p| covers(p, path)) && !out.contains(path) {
                out.push(path.clone());
            }
        }
    }
}

/// `a` is `b` or a field path above it.
fn is_prefix(a: &str, b: &str) -> bool {
    b.strip_prefix(a)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// A pattern covers a leaf above, at or below it (a scalar where the engine
/// reads deeper is the typed read's business, not an unread field).
fn covers(pattern: &str, leaf: &str) -> bool {
    is_prefix(pattern, leaf) || is_prefix(leaf, pattern)
}

/// The fields present in `doc` that no pattern in `reads` covers, as
/// patterns (`players[].faction`), in document order.
pub fn unread(doc: &Value, reads: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    uncovered(doc, reads, &mut String::new(), &mut out);
    out
}

/// A field of a board, resolved from what a player typed.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPath {
    /// Canonical path (`players[1].units[0].damage`).
    pub path: String,
    /// The same with names (`players[Maeoni].units[Iron Worker].damage`).
    pub label: String,
    /// The seat whose field this is (`players[i]…`), `None` for shared fields.
    pub owner: Option<usize>,
    pub(crate) steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    Key(String),
    Index(usize),
    Append,
}

/// Resolves a typed field path against a board: keys by did-you-mean over
/// the keys present and the schema's, list items by index or by `name`
/// (fuzzy), `[+]` to append. A first segment naming a player stands for
/// `players[that player]`.
pub fn resolve(board: &Value, schema: &Value, typed: &str) -> Result<FieldPath, BoardError> {
    let typed = typed.trim();
    let segs = split_typed(typed)?;
    if segs.is_empty() {
        return Err(BoardError::semantic(
            "field",
            "name a field, for example `players.Maeoni.phoenixborn.damage`",
        ));
    }
    let mut steps = Vec::new();
    let mut node = Some(board);
    let mut sch = Some(schema);
    let mut label = String::new();
    for (i, seg) in segs.iter().enumerate() {
        let here = node.unwrap_or(&Value::Null);
        match here {
            Value::Array(items) => {
                let (step, text) = list_step(items, seg, typed)?;
                node = match step {
                    Step::Index(n) => items.get(n),
                    _ => None,
                };
                label.push_str(&format!("[{text}]"));
                steps.push(step);
                sch = sch.and_then(|s| schema_child(schema, s, None));
            }
            _ if i == 0 && is_player_shorthand(board, schema, seg) => {
                let players = board.get("players").and_then(Value::as_array);
                let (step, text) = list_step(players.map_or(&[][..], |v| v), seg, typed)?;
                if let Step::Index(n) = step {
                    node = players.and_then(|p| p.get(n));
                }
                label.push_str(&format!("players[{text}]"));
                steps.push(Step::Key("players".into()));
                steps.push(step);
                sch = sch
                    .and_then(|s| schema_child(schema, s, Some("players")))
                    .and_then(|s| schema_child(schema, s, None));
            }
            _ => {
                let key = key_step(here, sch.map(|s| schema_props(schema, s)), seg, typed)?;
                if !label.is_empty() {
                    label.push('.');
                }
                label.push_str(&key);
                node = here.get(&key);
                sch = sch.and_then(|s| schema_child(schema, s, Some(&key)));
                steps.push(Step::Key(key));
            }
        }
    }
    let owner = match (steps.first(), steps.get(1)) {
        (Some(Step::Key(k)), Some(Step::Index(i))) if k == "players" => Some(*i),
        _ => None,
    };
    Ok(FieldPath {
        path: canonical(&steps),
        label,
        owner,
        steps,
    })
}

/// Which way a score the result is counted on is better for its seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
    /// Higher, and the result ranks the seats by it (the most points wins):
    /// with more than two seats in the game, a player's own lowered decides
    /// who leads among the others (kingmaking), which is theirs to agree
    /// to (a concession to one of them asks the rest).
    Ranked,
    /// Neither way is the seat's business alone: a change either way
    /// changes what the other players may do (TI4: a strategy card
    /// exhausted by its player skips its strategic action and the others'
    /// secondary abilities with it), so it is theirs to agree to.
    Shared,
    /// A list of obligations on the seat (Grand Archive's must-attack): an
    /// item added, every other kept as it was, only narrows what the seat
    /// may do; any other change of the list may free it.
    Fewer,
}

/// How a field stands to the scores a game's result is counted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Neither a score nor holding one.
    Apart,
    /// A score itself.
    Score(Better),
    /// Holds a score (`players[1].phoenixborn`) or lies in one.
    Holds,
}

/// The value `field` holds in `board` before a change and in `state`
/// after it: an appended item is absent before and the list's last after;
/// a list item set to `null` is removed, so absent after (the item that
/// moved into its place is not what changed). A field `given` a value the
/// board leaves out as its default (an empty list) is that value after,
/// and before too when it was left out already: not `null` ("to set
/// effects_stack from […] to null" for `[]`); a list left out that the
/// change gives items was empty before ("from [] to \[x\]", not "from null").
pub fn before_after(
    board: &Value,
    state: &Value,
    field: &FieldPath,
    given: &Value,
) -> (Value, Value) {
    let at = |v: &Value| get(v, &field.path).cloned().unwrap_or(Value::Null);
    match field.steps.last() {
        Some(Step::Append) => {
            let list = get(state, &canonical(&field.steps[..field.steps.len() - 1]));
            let last = list.and_then(Value::as_array).and_then(|l| l.last());
            (Value::Null, last.cloned().unwrap_or(Value::Null))
        }
        Some(Step::Index(_)) if given.is_null() => (at(board), Value::Null),
        _ => match (get(board, &field.path), get(state, &field.path)) {
            // A list the board left out was the empty list: the change adds
            // to it ("from [] to [x]", not "from null to [x]").
            (None, Some(after @ Value::Array(_))) => (Value::Array(Vec::new()), after.clone()),
            (before, Some(after)) => (before.cloned().unwrap_or(Value::Null), after.clone()),
            (Some(before), None) => (before.clone(), given.clone()),
            (None, None) => (given.clone(), given.clone()),
        },
    }
}

/// Whether `field` is a seat's name (`players[1].name`).
pub fn is_seat_name(field: &FieldPath) -> bool {
    matches!(
        field.steps.as_slice(),
        [Step::Key(p), Step::Index(_), Step::Key(n)] if p == "players" && n == "name"
    )
}

/// How the list `field` appends to stands to the `scores` patterns
/// (`None`: `field` appends to no list).
pub fn appended_to(field: &FieldPath, scores: &[(&str, Better)]) -> Option<Standing> {
    let (Step::Append, parent) = field.steps.split_last()? else {
        return None;
    };
    let parent = FieldPath {
        path: canonical(parent),
        label: String::new(),
        owner: field.owner,
        steps: parent.to_vec(),
    };
    Some(standing(&parent, scores))
}

/// Where `field` stands to the `scores` patterns (`players[].victory_points`):
/// list items match `[]`, an appended item too.
pub fn standing(field: &FieldPath, scores: &[(&str, Better)]) -> Standing {
    let pattern = pattern(field);
    if let Some((_, better)) = scores.iter().find(|(p, _)| *p == pattern) {
        Standing::Score(*better)
    } else if scores.iter().any(|(p, _)| covers(p, &pattern)) {
        Standing::Holds
    } else {
        Standing::Apart
    }
}

fn canonical(steps: &[Step]) -> String {
    let mut s = String::new();
    for st in steps {
        match st {
            Step::Key(k) if s.is_empty() => s.push_str(k),
            Step::Key(k) => s.push_str(&format!(".{k}")),
            Step::Index(i) => s.push_str(&format!("[{i}]")),
            Step::Append => s.push_str("[+]"),
        }
    }
    s
}

/// Splits `players.Maeoni.units[Iron Worker].damage` (dots outside brackets).
/// The segments of a typed path; an empty one (`players..phoenixborn`, a
/// leading or trailing dot) is an error at its position, not skipped (it
/// was, and the next segment read as a player's name).
fn split_typed(typed: &str) -> Result<Vec<String>, BoardError> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0;
    // A `.` right after `]` (`players[0].name`) follows a segment.
    let mut closed = false;
    let empty = |at: usize| {
        BoardError::semantic(
            "field",
            format!(
                "the field path `{typed}` has an empty part at character {at}: write a field or a name between each pair of dots (for example `players.Maeoni.phoenixborn`)"
            ),
        )
    };
    for (i, c) in typed.chars().enumerate() {
        match c {
            '[' => {
                if depth == 0 && !cur.trim().is_empty() {
                    out.push(cur.trim().to_string());
                    cur.clear();
                }
                depth += 1;
            }
            ']' => {
                depth -= 1;
                if depth == 0 {
                    out.push(cur.trim().trim_matches('"').to_string());
                    cur.clear();
                    closed = true;
                    continue;
                }
            }
            '.' if depth == 0 => {
                if cur.trim().is_empty() && !closed {
                    return Err(empty(i + 1));
                }
                if !cur.trim().is_empty() {
                    out.push(cur.trim().to_string());
                }
                cur.clear();
            }
            _ => cur.push(c),
        }
        closed = false;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    } else if typed.ends_with('.') {
        return Err(empty(typed.chars().count()));
    }
    Ok(out)
}

fn is_player_shorthand(board: &Value, schema: &Value, seg: &str) -> bool {
    let known = board.get(seg).is_some()
        || schema_props(schema, schema)
            .iter()
            .any(|p| fold(p) == fold(seg));
    !known
        && board
            .get("players")
            .and_then(Value::as_array)
            .is_some_and(|ps| {
                let names: Vec<&str> = ps.iter().filter_map(|p| p.get("name")?.as_str()).collect();
                names::resolve(seg, &names, "player").is_ok()
            })
}

fn list_step(items: &[Value], seg: &str, typed: &str) -> Result<(Step, String), BoardError> {
    if seg == "+" {
        return Ok((Step::Append, "+".into()));
    }
    if let Ok(n) = seg.parse::<usize>() {
        return match items.get(n) {
            Some(v) => Ok((Step::Index(n), name_or(v, n))),
            None => Err(BoardError::semantic(
                typed,
                format!("there is no item {n}: the list has {}", items.len()),
            )),
        };
    }
    let names: Vec<&str> = items
        .iter()
        .map(|v| v.get("name").and_then(Value::as_str).unwrap_or(""))
        .collect();
    let i = names::resolve_index(seg, &names, "name").map_err(|e: NameError| e.at(typed))?;
    Ok((Step::Index(i), names[i].to_string()))
}

fn name_or(v: &Value, n: usize) -> String {
    v.get("name")
        .and_then(Value::as_str)
        .map_or_else(|| n.to_string(), str::to_string)
}

fn key_step(
    here: &Value,
    schema_keys: Option<Vec<String>>,
    seg: &str,
    typed: &str,
) -> Result<String, BoardError> {
    let mut keys: Vec<String> = here
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    for k in schema_keys.unwrap_or_default() {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    if let Some(k) = keys.iter().find(|k| fold(k) == fold(seg)) {
        return Ok(k.clone());
    }
    let close = closest(seg, keys.iter().map(String::as_str), typo_budget(seg))
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_else(|| {
            if keys.is_empty() {
                String::new()
            } else {
                format!("; fields here: {}", keys.join(", "))
            }
        });
    Err(BoardError::semantic(
        typed,
        format!("unknown field `{seg}`{close}"),
    ))
}

/// Every leaf field of a board, as a player types it
/// (`players.Maeoni.phoenixborn.damage`): candidates for autocomplete.
pub fn labels(board: &Value) -> Vec<String> {
    let mut out = Vec::new();
    label_leaves(board, &mut String::new(), &mut out);
    out
}

fn label_leaves(v: &Value, path: &mut String, out: &mut Vec<String>) {
    let len = path.len();
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, c) in m {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                label_leaves(c, path, out);
                path.truncate(len);
            }
        }
        Value::Array(items)
            if items.iter().all(|i| i.get("name").is_some()) && !items.is_empty() =>
        {
            for (i, c) in items.iter().enumerate() {
                path.push('.');
                path.push_str(&name_or(c, i));
                label_leaves(c, path, out);
                path.truncate(len);
            }
        }
        _ => out.push(path.clone()),
    }
}

/// A seat renamed (`players[i].name`): the board's top-level fields that
/// named it by its old name (`turn`, `first_to_pass`), and the game's
/// `seat_fields` (`consecutive_passes[]`), name it by the new one. Before,
/// the rename was refused as naming an unknown player in `turn`, whoever
/// asked, a moderator too (found by an outside tester).
pub fn carry_rename(before: &Value, after: &mut Value, field: &FieldPath, seat_fields: &[&str]) {
    let [Step::Key(list), Step::Index(i), Step::Key(key)] = field.steps.as_slice() else {
        return;
    };
    if list != "players" || key != "name" {
        return;
    }
    let name = |b: &Value| {
        b.get("players")
            .and_then(|p| p.get(*i))
            .and_then(|s| s.get("name"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let (Some(old), Some(new)) = (name(before), name(after)) else {
        return;
    };
    if let Value::Object(m) = after {
        for (_, v) in m.iter_mut().filter(|(k, _)| k.as_str() != "players") {
            if v.as_str() == Some(old.as_str()) {
                *v = Value::String(new.clone());
            }
        }
    }
    for path in seat_fields {
        let parts: Vec<&str> = path.split('.').collect();
        rename_at(after, &parts, &old, &new);
    }
}

/// Renames `old` to `new` wherever `parts` (a path of keys, `key[]` for
/// each item of a list) leads in `v`.
fn rename_at(v: &mut Value, parts: &[&str], old: &str, new: &str) {
    let Some((first, rest)) = parts.split_first() else {
        if v.as_str() == Some(old) {
            *v = Value::String(new.to_string());
        }
        return;
    };
    let (key, each) = match first.strip_suffix("[]") {
        Some(k) => (k, true),
        None => (*first, false),
    };
    let Some(child) = v.get_mut(key) else {
        return;
    };
    match (each, child) {
        (true, Value::Array(items)) => {
            for item in items {
                rename_at(item, rest, old, new);
            }
        }
        // A list written as its one item (`Many`).
        (_, child) => rename_at(child, rest, old, new),
    }
}

/// Sets `value` at `field` (null removes an optional field or a list item).
pub fn set(board: &mut Value, field: &FieldPath, value: Value) -> Result<(), BoardError> {
    let Some((last, parents)) = field.steps.split_last() else {
        return Ok(());
    };
    let mut node = board;
    for st in parents {
        node = match (st, node) {
            (Step::Key(k), Value::Object(m)) => {
                m.entry(k.clone()).or_insert(Value::Object(Map::new()))
            }
            (Step::Index(i), Value::Array(a)) => match a.get_mut(*i) {
                Some(v) => v,
                None => {
                    return Err(BoardError::semantic(
                        field.path.clone(),
                        "that item no longer exists",
                    ));
                }
            },
            _ => {
                return Err(BoardError::semantic(
                    field.path.clone(),
                    "this field cannot be set here",
                ));
            }
        };
    }
    match (last, node) {
        (Step::Key(k), Value::Object(m)) if value.is_null() => {
            m.remove(k);
        }
        (Step::Key(k), Value::Object(m)) => {
            m.insert(k.clone(), value);
        }
        (Step::Index(i), Value::Array(a)) if value.is_null() && *i < a.len() => {
            a.remove(*i);
        }
        (Step::Index(i), Value::Array(a)) if *i < a.len() => a[*i] = value,
        (Step::Append, Value::Array(a)) => a.push(value),
        (Step::Append, slot @ Value::Null) => *slot = Value::Array(vec![value]),
        _ => {
            return Err(BoardError::semantic(
                field.path.clone(),
                "this field cannot be set here",
            ));
        }
    }
    Ok(())
}

/// Reads the value at a canonical path (`players[1].units[0].damage`).
pub fn get<'v>(board: &'v Value, path: &str) -> Option<&'v Value> {
    path_segments(path)
        .into_iter()
        .try_fold(board, |v, s| match s {
            Seg::Key(k) => v.get(k),
            Seg::Index(i) => v.get(i),
        })
}

/// Sets `value` at every place `pattern` matches (`players[].units[].exhausted`):
/// existing keys are replaced, missing ones added where their parent exists.
pub fn set_all(board: &mut Value, pattern: &str, value: &Value) {
    let parts: Vec<&str> = pattern.split('.').collect();
    set_parts(board, &parts, value);
}

fn set_parts(node: &mut Value, parts: &[&str], value: &Value) {
    let Some((first, rest)) = parts.split_first() else {
        return;
    };
    let (key, each) = match first.strip_suffix("[]") {
        Some(k) => (k, true),
        None => (*first, false),
    };
    let Value::Object(m) = node else { return };
    if rest.is_empty() && !each {
        m.insert(key.to_string(), value.clone());
        return;
    }
    let Some(child) = m.get_mut(key) else { return };
    match (each, child) {
        (true, Value::Array(items)) => {
            for it in items {
                set_parts(it, rest, value);
            }
        }
        (false, c) => set_parts(c, rest, value),
        _ => {}
    }
}

/// The pattern a field falls under (`players[].units[].life` for
/// `players[1].units[0].life`), as [`schema_at`] and the games' score
/// lists name fields.
pub fn pattern(field: &FieldPath) -> String {
    let mut pattern = String::new();
    for st in &field.steps {
        match st {
            Step::Key(k) => {
                if !pattern.is_empty() {
                    pattern.push('.');
                }
                pattern.push_str(k);
            }
            Step::Index(_) | Step::Append => pattern.push_str("[]"),
        }
    }
    pattern
}

/// The schema of the field a pattern names (`players[].units[].exhausted`),
/// when the board schema has it.
pub fn schema_at<'s>(root: &'s Value, pattern: &str) -> Option<&'s Value> {
    let mut node = root;
    for part in pattern.split('.') {
        let (key, each) = match part.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (part, false),
        };
        node = schema_child(root, node, Some(key))?;
        if each {
            node = schema_child(root, node, None)?;
        }
    }
    Some(deref(root, node))
}

/// The property names a schema node allows (following `$ref`, `anyOf`).
pub fn schema_props(root: &Value, node: &Value) -> Vec<String> {
    let node = deref(root, node);
    if let Some(p) = node.get("properties").and_then(Value::as_object) {
        return p.keys().cloned().collect();
    }
    alternatives(node)
        .into_iter()
        .flat_map(|a| schema_props(root, a))
        .collect()
}

/// What the schema's type `name` (a key of its `$defs`, serde's name for
/// it) takes, in the document's words: a mapping with its fields (those
/// it needs first), or one of its names. serde's refusal said `expected
/// Block`, a Rust type's name.
pub fn describe_type(root: &Value, name: &str) -> Option<String> {
    const SHOWN: usize = 8;
    let node = root.get("$defs")?.get(name)?;
    let props = schema_props(root, node);
    if !props.is_empty() {
        let required: Vec<&str> = deref(root, node)
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields: Vec<&str> = required.clone();
        fields.extend(
            props
                .iter()
                .map(String::as_str)
                .filter(|p| !required.contains(p)),
        );
        fields.dedup();
        let more = if fields.len() > SHOWN { ", …" } else { "" };
        fields.truncate(SHOWN);
        return Some(format!("a mapping of fields ({}{more})", fields.join(", ")));
    }
    let names = enum_names(root, node);
    (!names.is_empty()).then(|| {
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        format!("one of {}", quoted.join(", "))
    })
}

/// The names an enumeration of text takes (`enum`, or alternatives each a
/// `const`).
fn enum_names(root: &Value, node: &Value) -> Vec<String> {
    let node = deref(root, node);
    let strings = |v: &Value| v.as_str().map(str::to_string);
    if let Some(e) = node.get("enum").and_then(Value::as_array) {
        return e.iter().filter_map(strings).collect();
    }
    if let Some(c) = node.get("const").and_then(Value::as_str) {
        return vec![c.to_string()];
    }
    alternatives(node)
        .into_iter()
        .flat_map(|a| enum_names(root, a))
        .collect()
}

/// The schema of a property (`Some(key)`) or of list items (`None`).
fn schema_child<'s>(root: &'s Value, node: &'s Value, key: Option<&str>) -> Option<&'s Value> {
    let node = deref(root, node);
    let direct = match key {
        Some(k) => node.get("properties").and_then(|p| p.get(k)),
        None => node.get("items"),
    };
    direct.or_else(|| {
        alternatives(node)
            .into_iter()
            .find_map(|a| schema_child(root, a, key))
    })
}

fn alternatives(node: &Value) -> Vec<&Value> {
    ["anyOf", "oneOf", "allOf"]
        .iter()
        .filter_map(|k| node.get(*k).and_then(Value::as_array))
        .flatten()
        .collect()
}

fn deref<'s>(root: &'s Value, node: &'s Value) -> &'s Value {
    let mut node = node;
    for _ in 0..8 {
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(name) = r.strip_prefix("#/$defs/") else {
            break;
        };
        match root.get("$defs").and_then(|d| d.get(name)) {
            Some(n) => node = n,
            None => break,
        }
    }
    node
}

/// The first field of `doc` the schema does not allow, with did-you-mean:
/// a better error than serde's when a typed read fails.
pub fn unknown_field(doc: &Value, schema: &Value) -> Option<BoardError> {
    unknown_in(doc, schema, schema, String::new())
}

/// For a tagged union (`oneOf` of objects each with a `const` tag), the
/// alternative the document's tag selects.
fn tagged<'s>(root: &'s Value, node: &'s Value, doc: &Value) -> &'s Value {
    let node = deref(root, node);
    let consistent: Vec<&Value> = alternatives(node)
        .into_iter()
        .map(|a| deref(root, a))
        .filter(|a| {
            a.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|props| {
                    props.iter().all(|(k, p)| match p.get("const") {
                        Some(c) => doc.get(k) == Some(c),
                        None => true,
                    })
                })
        })
        .collect();
    match consistent.as_slice() {
        [one] => one,
        _ => node,
    }
}

fn unknown_in(doc: &Value, root: &Value, node: &Value, path: String) -> Option<BoardError> {
    let node = tagged(root, node, doc);
    match doc {
        Value::Object(m) => {
            let allowed = schema_props(root, node);
            let open = deref(root, node).get("additionalProperties") != Some(&Value::Bool(false))
                && allowed.is_empty();
            for (k, v) in m {
                let child_path = crate::document::join_path(&path, k);
                if !open && !allowed.contains(k) {
                    let hint = closest(k, allowed.iter().map(String::as_str), typo_budget(k))
                        .map(|a| format!("; did you mean `{a}`?"))
                        .unwrap_or_else(|| format!("; fields here: {}", allowed.join(", ")));
                    return Some(BoardError::semantic(
                        child_path,
                        format!("unknown field `{k}`{hint}"),
                    ));
                }
                if let Some(c) = schema_child(root, node, Some(k))
                    && let Some(e) = unknown_in(v, root, c, child_path)
                {
                    return Some(e);
                }
            }
            None
        }
        Value::Array(items) => {
            let c = schema_child(root, node, None)?;
            items
                .iter()
                .enumerate()
                .find_map(|(i, v)| unknown_in(v, root, c, format!("{path}[{i}]")))
        }
        _ => None,
    }
}

/// The first object of `doc` that lacks a field its schema requires: the
/// object's path and the field. serde names the field but, inside a tagged
/// play, not where (`play: missing field`).
pub fn missing_field(doc: &Value, schema: &Value) -> Option<(String, String)> {
    missing_in(doc, schema, schema, String::new())
}

fn missing_in(doc: &Value, root: &Value, node: &Value, path: String) -> Option<(String, String)> {
    let node = tagged(root, node, doc);
    match doc {
        Value::Object(m) => {
            let required = deref(root, node).get("required").and_then(Value::as_array);
            let lacking = required
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .find(|k| !m.contains_key(*k));
            if let Some(k) = lacking {
                return Some((path, k.to_string()));
            }
            m.iter().find_map(|(k, v)| {
                let c = schema_child(root, node, Some(k))?;
                missing_in(v, root, c, crate::document::join_path(&path, k))
            })
        }
        Value::Array(items) => {
            let c = schema_child(root, node, None)?;
            items
                .iter()
                .enumerate()
                .find_map(|(i, v)| missing_in(v, root, c, format!("{path}[{i}]")))
        }
        _ => None,
    }
}

/// The first value of `doc` whose kind (text, number, true or false, list,
/// mapping) its schema does not take, or a list of a length it does not
/// take: its path. serde names what is wrong but, inside a tagged or
/// untagged play (read from a buffer that does not track paths), not where
/// (`play: wrong kind of value`). Walked in the document's order, as serde
/// reads it, so the value found is the one serde refused.
pub fn wrong_kind(doc: &Value, schema: &Value) -> Option<WrongKind> {
    wrong_in(doc, schema, schema, String::new())
}

/// A value of a kind its field does not take ([`wrong_kind`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongKind {
    /// Where it is.
    pub path: String,
    /// Whether the field takes text: YAML reads `On`, `no` or `12`
    /// unquoted as true, false or a number where text was meant.
    pub takes_text: bool,
    /// For a field that takes a mapping of names to values (`split`): its
    /// shape (`{ <name>: <number> }`) and its schema's description, so the
    /// refusal shows what to write ("expected a mapping of fields" did not).
    pub map_of: Option<(String, Option<String>)>,
}

fn wrong_in(doc: &Value, root: &Value, node: &Value, path: String) -> Option<WrongKind> {
    let node = tagged(root, node, doc);
    if !takes(root, node, doc) {
        let takes_text = takes(root, node, &Value::String(String::new()));
        let map_of = map_values(root, node).map(|v| {
            let value = match deref(root, v).get("type").and_then(Value::as_str) {
                Some("integer" | "number") => "<number>",
                Some("string") => "<text>",
                Some("boolean") => "true",
                _ => "…",
            };
            let about = deref(root, node).get("description").and_then(Value::as_str);
            (format!("{{ <name>: {value} }}"), about.map(str::to_string))
        });
        return Some(WrongKind {
            path,
            takes_text,
            map_of,
        });
    }
    match doc {
        Value::Object(m) => m.iter().find_map(|(k, v)| {
            let c = schema_child(root, node, Some(k)).or_else(|| map_values(root, node))?;
            wrong_in(v, root, c, crate::document::join_path(&path, k))
        }),
        Value::Array(items) => {
            let c = schema_child(root, node, None)?;
            items
                .iter()
                .enumerate()
                .find_map(|(i, v)| wrong_in(v, root, c, format!("{path}[{i}]")))
        }
        _ => None,
    }
}

/// The schema of a mapping's values, for a mapping of names to values
/// (`split: {Iron Worker: 2}`).
fn map_values<'s>(root: &'s Value, node: &'s Value) -> Option<&'s Value> {
    let node = deref(root, node);
    let direct = node.get("additionalProperties").filter(|a| a.is_object());
    direct.or_else(|| {
        alternatives(node)
            .into_iter()
            .find_map(|a| map_values(root, a))
    })
}

/// Whether a schema node takes `v`'s kind (and a list's length), looking
/// no deeper than `v` itself; a node that states no kind takes any.
fn takes(root: &Value, node: &Value, v: &Value) -> bool {
    let node = deref(root, node);
    let Some(kinds) = node.get("type") else {
        let alts: Vec<&Value> = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|k| node.get(*k).and_then(Value::as_array))
            .flatten()
            .collect();
        return alts.is_empty() || alts.iter().any(|a| takes(root, a, v));
    };
    let kinds: Vec<&str> = match kinds {
        Value::String(k) => vec![k.as_str()],
        Value::Array(ks) => ks.iter().filter_map(Value::as_str).collect(),
        _ => return true,
    };
    let length = |key: &str| node.get(key).and_then(Value::as_u64);
    let fits = |k: &&str| match (*k, v) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) => true,
        ("string", Value::String(_)) | ("object", Value::Object(_)) => true,
        ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        ("array", Value::Array(items)) => {
            let n = items.len() as u64;
            length("minItems").is_none_or(|m| n >= m) && length("maxItems").is_none_or(|m| n <= m)
        }
        _ => false,
    };
    kinds.iter().any(fits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn board() -> Value {
        json!({"game": "ashes", "turn": "Coal", "players": [
            {"name": "Coal", "phoenixborn": {"name": "Coal Roarkwin", "life": 15}, "units": [{"name": "Iron Worker", "attack": 2, "life": 2}]},
            {"name": "Maeoni", "phoenixborn": {"name": "Maeoni Viper", "life": 20, "damage": 3}}
        ]})
    }

    #[test]
    fn a_missing_field_is_found_in_the_object_that_lacks_it() {
        let schema = json!({
            "type": "object",
            "properties": {"blocks": {"type": "array", "items": {"$ref": "#/$defs/Block"}}},
            "$defs": {"Block": {
                "type": "object",
                "required": ["attacker"],
                "properties": {"attacker": {"type": "string"}, "blocker": {"type": "string"}}
            }}
        });
        let doc = json!({"blocks": [{"attacker": "a"}, {"blocker": "b"}]});
        let found = missing_field(&doc, &schema);
        assert_eq!(
            found,
            Some(("blocks[1]".to_string(), "attacker".to_string()))
        );
        assert_eq!(missing_field(&json!({"blocks": []}), &schema), None);
    }

    #[test]
    fn an_empty_path_segment_is_an_error_at_its_position() {
        for (typed, at) in [
            ("players..phoenixborn", "character 9"),
            (".turn", "character 1"),
            ("turn.", "character 5"),
        ] {
            let e = split_typed(typed).unwrap_err().to_string();
            assert!(e.contains("empty part") && e.contains(at), "{typed}: {e}");
        }
        assert_eq!(
            split_typed("players[0].name").unwrap(),
            ["players", "0", "name"]
        );
        assert_eq!(
            split_typed("players.Maeoni.phoenixborn").unwrap(),
            ["players", "Maeoni", "phoenixborn"]
        );
    }

    #[test]
    fn unread_fields_are_listed_as_patterns() {
        let reads = [
            "game",
            "turn",
            "players[].name",
            "players[].phoenixborn",
            "players[].units[].name",
        ];
        assert_eq!(
            unread(&board(), &reads),
            vec!["players[].units[].attack", "players[].units[].life"]
        );
    }

    #[test]
    fn typed_paths_resolve_names_and_owners() {
        let b = board();
        let s = json!({});
        let f = resolve(&b, &s, "players.maeoni.phoenixborn.damage").unwrap();
        assert_eq!(f.path, "players[1].phoenixborn.damage");
        assert_eq!(f.owner, Some(1));
        let f = resolve(&b, &s, "Coal.units[iron].attack").unwrap();
        assert_eq!(f.path, "players[0].units[0].attack");
        assert_eq!(f.label, "players[Coal].units[Iron Worker].attack");
        assert_eq!(resolve(&b, &s, "turn").unwrap().owner, None);
        let e = resolve(&b, &s, "players.Maeoni.phoenixborn.damge").unwrap_err();
        assert!(e.message.contains("did you mean `damage`"), "{}", e.message);
    }

    #[test]
    fn standing_fields_match_at_above_and_below_the_pattern() {
        let b = board();
        let s = json!({});
        let pats = [("players[].phoenixborn.damage", Better::Lower)];
        let is = |typed: &str| standing(&resolve(&b, &s, typed).unwrap(), &pats);
        assert_eq!(
            is("Maeoni.phoenixborn.damage"),
            Standing::Score(Better::Lower)
        );
        assert_eq!(is("Coal.phoenixborn"), Standing::Holds);
        assert_eq!(is("players"), Standing::Holds, "the whole list");
        assert_eq!(is("Coal.units[iron].attack"), Standing::Apart);
        assert_eq!(is("turn"), Standing::Apart);
    }

    #[test]
    fn set_replaces_removes_and_appends() {
        let mut b = board();
        let s = json!({});
        let f = resolve(&b, &s, "Maeoni.phoenixborn.damage").unwrap();
        set(&mut b, &f, json!(5)).unwrap();
        assert_eq!(get(&b, "players[1].phoenixborn.damage"), Some(&json!(5)));
        let f = resolve(&b, &s, "Coal.units[+]").unwrap();
        set(
            &mut b,
            &f,
            json!({"name": "Anchornaut", "attack": 0, "life": 1}),
        )
        .unwrap();
        assert_eq!(b["players"][0]["units"].as_array().unwrap().len(), 2);
        let f = resolve(&b, &s, "Coal.units.Iron Worker").unwrap();
        set(&mut b, &f, Value::Null).unwrap();
        assert_eq!(b["players"][0]["units"][0]["name"], "Anchornaut");
    }

    #[test]
    fn resets_apply_to_every_match() {
        let mut b = json!({"players": [{"units": [{"exhausted": true}, {}]}, {"units": []}]});
        set_all(&mut b, "players[].units[].exhausted", &json!(false));
        assert_eq!(b["players"][0]["units"][0]["exhausted"], false);
        assert_eq!(b["players"][0]["units"][1]["exhausted"], false);
    }

    #[test]
    fn unknown_fields_get_did_you_mean_from_the_schema() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"units": {"type": "array", "items": {"$ref": "#/$defs/U"}}},
            "$defs": {"U": {"type": "object", "additionalProperties": false, "properties": {"name": {}, "life": {}}}}});
        let e = unknown_field(&json!({"units": [{"name": "a", "lfe": 2}]}), &schema).unwrap();
        assert_eq!(e.path.as_deref(), Some("units[0].lfe"));
        assert!(e.message.contains("did you mean `life`"), "{}", e.message);
        assert!(unknown_field(&json!({"units": [{"name": "a"}]}), &schema).is_none());
    }
}
