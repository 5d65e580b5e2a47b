//! The rules engine: executable step procedures that produce cited rulings.
//!
//! I/O-free. Each game is a [`kit::Game`] (typed board and plays, its
//! procedure, its turn structure) made object-safe by [`kit::Kit`] as a
//! [`GameEngine`]: it judges a board document (parsed once), advances
//! phases, adjusts fields, reads the game's status, and parses one-line
//! play notation. A ruling lists every resolved step with the rule id it
//! applied, diagnostics, a decision it stopped at, and the resulting state.
//!
//! Invariants (enforced by `tests/it/citations.rs`):
//! - every rule id an engine can cite is listed in its
//!   [`GameEngine::rule_uses`] and exists in the corpus;
//! - every `quote` there is verbatim text of that passage;
//! - a ruling's `state` is itself a valid board document of its game.

pub mod ashes;
pub mod document;
pub mod grand_archive;
pub mod kit;
pub mod legion;
pub mod magewinds;
pub mod ruling;
pub mod ti4;

/// The text helpers, under the path the modules here name them by.
pub(crate) use arbiter_text as text;
#[cfg(test)]
mod typed_diff_examples;

use serde_json::Value;

pub use document::{BoardError, ErrorKind, SourcePos};
pub use kit::{Adjustment, Asking, MinPlayers, Phase, Touches, Unagreed};
pub use ruling::{
    Change, Choice, Claim, Decision, DecisionOption, Diagnostic, GameResult, RuleUse, Ruling,
    Severity, Side, Status, Step, diff, merge_patch,
};

/// A game's executable rules, as the app layer uses them. Every method
/// takes board documents as JSON values (what matches store); text is only
/// passed along to locate errors. Implemented for every [`kit::Game`] by
/// [`kit::Kit`].
pub trait GameEngine: Send + Sync {
    /// The game id (as in `rules_data/<game>/manifest.yaml`).
    fn game(&self) -> &'static str;
    /// Every rule the engine may cite.
    fn rule_uses(&self) -> &'static [RuleUse];
    /// JSON Schema of this game's board documents (derived from the types).
    fn schema(&self) -> Value;
    /// Adjudicates the play (or `plays`) in a board document. The ruling's
    /// `state` is itself a valid board document of this game, without the
    /// play: match tracking feeds it back with the next play. `text` is the
    /// document as typed, used only to give errors a line:column.
    fn judge(&self, doc: Value, text: Option<&str>, asking: &Asking) -> Result<Ruling, BoardError>;
    /// [`GameEngine::judge`] on a document's text, as a board judged
    /// outside a match (one parse).
    fn judge_text(&self, text: &str) -> Result<Ruling, BoardError> {
        let doc = document::parse_value(text)?;
        self.judge(doc, Some(text), &Asking::judge())
    }
    /// Validates a board without a play and returns it as the engine writes
    /// it (names canonical, defaults filled in).
    fn check_board(&self, board: &Value) -> Result<Value, BoardError>;
    /// Reads a board once (typed and validated) for a request that asks
    /// several things of it: a match play asks whose play a line is, who
    /// the players are and the ruling, on one read. `board` is a board
    /// without its play (the play goes to [`OpenBoard::judge`]); `text`
    /// (the document as typed) locates errors.
    fn open<'a>(
        &'a self,
        board: &'a Value,
        text: Option<&'a str>,
    ) -> Result<Box<dyn OpenBoard + 'a>, BoardError>;
    /// Parses one line of play notation (as typed in `/match play`) into the
    /// `play` value of a board document, resolving names against `board`.
    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError> {
        self.open(board, None)?.parse_notation(line)
    }
    /// Candidates for the next word of a partly typed notation line.
    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String>;
    /// The board's players in seat order.
    fn players(&self, board: &Value) -> Result<Vec<String>, BoardError> {
        Ok(self.open(board, None)?.players())
    }
    /// The seat of the player who makes `play`, by the engine's own name
    /// resolution; `None` when nobody is named (any seat may make it).
    fn actor(&self, board: &Value, play: &Value) -> Result<Option<usize>, BoardError> {
        self.open(board, None)?.actor(play)
    }
    /// Phase, round, whose turn it is, and the result when the board decides one.
    fn status(&self, board: &Value) -> Result<Status, BoardError>;
    /// The game's turn structure.
    fn phases(&self) -> &'static [Phase];
    /// The fewest players a match of the game seats, and why.
    fn min_players(&self) -> MinPlayers;
    /// Moves to the next phase (or to `to`), as the turn structure says;
    /// illegal when the rules forbid leaving the current phase.
    fn advance(&self, board: &Value, to: Option<&str>) -> Result<Ruling, BoardError> {
        self.advance_unagreed(board, to).map(|(ruling, _)| ruling)
    }
    /// [`GameEngine::advance`], with the shared fields it settled by a
    /// default nobody agreed to (who acts first when the board does not
    /// say): match tracking takes such an advance from a moderator only.
    fn advance_unagreed(
        &self,
        board: &Value,
        to: Option<&str>,
    ) -> Result<(Ruling, Vec<Unagreed>), BoardError>;
    /// Sets one board field (typed path, value as YAML); the result is
    /// validated like any board.
    fn adjust(&self, board: &Value, field: &str, value: &str) -> Result<Adjustment, BoardError>;
    /// The board's fields as players type them, for autocomplete.
    fn fields(&self, board: &Value) -> Vec<String>;
}

/// A board read once by [`GameEngine::open`]: what the engine's methods
/// of the same names answer, without reading the board again.
pub trait OpenBoard: Send {
    /// The board's players in seat order.
    fn players(&self) -> Vec<String>;
    /// One line of play notation as the `play` value of a board document.
    fn parse_notation(&self, line: &str) -> Result<Value, BoardError>;
    /// The seat of the player who makes `play` (`None`: any seat).
    fn actor(&self, play: &Value) -> Result<Option<usize>, BoardError>;
    /// The ruling on `play` made on this board (the board is used up).
    fn judge(self: Box<Self>, play: Value, asking: &Asking) -> Result<Ruling, BoardError>;
}

/// Every game with an engine.
pub fn engines() -> &'static [&'static dyn GameEngine] {
    &[
        &ti4::ENGINE,
        &magewinds::ENGINE,
        &legion::ENGINE,
        &grand_archive::ENGINE,
        &ashes::ENGINE,
    ]
}

/// The engine of a game id.
pub fn engine(game: &str) -> Option<&'static dyn GameEngine> {
    engines().iter().copied().find(|e| e.game() == game)
}

#[cfg(test)]
mod tests {
    use super::engines;
    use crate::kit::fields;

    /// JSON types a schema node allows (`type`, following `anyOf`/`oneOf`).
    fn types(root: &serde_json::Value, node: &serde_json::Value) -> Vec<String> {
        let mut out: Vec<String> = match node.get("type") {
            Some(serde_json::Value::String(t)) => vec![t.clone()],
            Some(serde_json::Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        for k in ["anyOf", "oneOf"] {
            for alt in node.get(k).and_then(|a| a.as_array()).into_iter().flatten() {
                let alt = match alt.get("$ref").and_then(|r| r.as_str()) {
                    Some(r) => r
                        .strip_prefix("#/$defs/")
                        .and_then(|n| root.get("$defs")?.get(n))
                        .unwrap_or(alt),
                    None => alt,
                };
                out.extend(types(root, alt));
            }
        }
        if node.get("enum").is_some() || node.get("const").is_some() {
            out.push("string".into());
        }
        out
    }

    /// A reset naming a field the board does not have would do nothing on
    /// entering its phase: every reset's field is in the board schema, with
    /// a type its value fits.
    #[test]
    fn phase_resets_name_board_fields() {
        let mut checked = 0;
        for e in engines() {
            let schema = e.schema();
            for phase in e.phases() {
                for r in phase.resets {
                    let node = fields::schema_at(&schema, r.field).unwrap_or_else(|| {
                        panic!(
                            "{}: {} resets {}, not a board field",
                            e.game(),
                            phase.id,
                            r.field
                        )
                    });
                    let value = r.value.value();
                    let want = match &value {
                        serde_json::Value::Bool(_) => "boolean",
                        serde_json::Value::Null => "null",
                        serde_json::Value::Array(_) => "array",
                        serde_json::Value::Object(_) => "object",
                        serde_json::Value::String(_) => "string",
                        serde_json::Value::Number(_) => "number",
                    };
                    let allowed = types(&schema, node);
                    assert!(
                        allowed.iter().any(|t| t == want),
                        "{}: {} sets {} to {value}, the schema allows {allowed:?}",
                        e.game(),
                        phase.id,
                        r.field
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked} resets checked");
    }
}
