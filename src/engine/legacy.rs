//! TEMPORARY: engines not yet moved onto the kit, behind the new trait.
//! Removed once every game implements [`super::kit::Game`].

use serde_json::Value;

use super::kit::{Adjustment, Asking, Phase, fields};
use super::{BoardError, GameEngine, RuleUse, Ruling, Status};

pub use self::{names_at as names_at_, resolve_name as resolve_name_};

/// The old engine interface (judges text).
pub trait Old: Send + Sync {
    fn game(&self) -> &'static str;
    fn rule_uses(&self) -> &'static [RuleUse];
    fn schema(&self) -> Value;
    fn judge(&self, document: &str) -> Result<Ruling, BoardError>;
    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError>;
    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String>;
}

pub struct Legacy<E>(pub E);

fn text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn names(board: &Value) -> Vec<String> {
    board
        .get("players")
        .and_then(Value::as_array)
        .map(|ps| {
            ps.iter()
                .filter_map(|p| Some(p.get("name")?.as_str()?.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

impl<E: Old> GameEngine for Legacy<E> {
    fn game(&self) -> &'static str {
        self.0.game()
    }
    fn rule_uses(&self) -> &'static [RuleUse] {
        self.0.rule_uses()
    }
    fn schema(&self) -> Value {
        self.0.schema()
    }
    fn judge(
        &self,
        doc: Value,
        typed: Option<&str>,
        _asking: &Asking,
    ) -> Result<Ruling, BoardError> {
        match typed {
            Some(t) => self.0.judge(t),
            None => self.0.judge(&text(&doc)),
        }
    }
    fn check_board(&self, board: &Value) -> Result<Value, BoardError> {
        match self.0.judge(&text(board)) {
            Ok(_) => Ok(board.clone()),
            Err(e) if e.path.as_deref() == Some("play") => Ok(board.clone()),
            Err(e) => Err(e),
        }
    }
    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError> {
        self.0.parse_notation(line, board)
    }
    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String> {
        self.0.notation_completions(partial, board)
    }
    fn players(&self, board: &Value) -> Result<Vec<String>, BoardError> {
        Ok(names(board))
    }
    fn actor(&self, board: &Value, play: &Value) -> Result<Option<usize>, BoardError> {
        let names = names(board);
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let who = play
            .get("player")
            .and_then(Value::as_str)
            .or_else(|| board.get("turn").and_then(Value::as_str));
        match who {
            Some(w) => super::kit::names::resolve_index(w, &refs, "player")
                .map(Some)
                .map_err(|e| e.at("play.player")),
            None => Ok(None),
        }
    }
    fn status(&self, board: &Value) -> Result<Status, BoardError> {
        let turn = board
            .get("turn")
            .and_then(Value::as_str)
            .map(str::to_string);
        let names = names(board);
        Ok(Status {
            phase: board
                .get("phase")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            round: None,
            turn_seat: turn
                .as_ref()
                .and_then(|t| names.iter().position(|n| n == t)),
            turn,
            result: None,
        })
    }
    fn phases(&self) -> &'static [Phase] {
        &[]
    }
    fn advance(&self, _board: &Value, _to: Option<&str>) -> Result<Ruling, BoardError> {
        Err(BoardError::semantic(
            "phase",
            "this game's engine cannot advance phases yet",
        ))
    }
    fn adjust(&self, board: &Value, field: &str, value: &str) -> Result<Adjustment, BoardError> {
        let f = fields::resolve(board, &self.0.schema(), field)?;
        let v: Value = super::document::parse(value)?;
        let mut new = board.clone();
        fields::set(&mut new, &f, v)?;
        self.check_board(&new)?;
        Ok(Adjustment {
            before: fields::get(board, &f.path).cloned().unwrap_or(Value::Null),
            after: fields::get(&new, &f.path).cloned().unwrap_or(Value::Null),
            changes: super::diff(board, &new),
            field: f.path,
            label: f.label,
            owner: f.owner,
            state: new,
        })
    }
    fn fields(&self, board: &Value) -> Vec<String> {
        fields::labels(board)
    }
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
