//! Grand Archive: attack declaration (seed 004, "Combat Phase - Attack
//! Declaration") as an executable, reversible procedure.
//!
//! The board document ([`doc::Board`]) holds players with champion, allies
//! and objects, the costs and restrictions in play, the Effects Stack and
//! the phase; `play:` is an attempted declaration (or ending the Main
//! Phase). Steps 2.a–2.e run in order on a working copy; each action is
//! logged so an illegal declaration is reversed step by step and the board
//! checked to be exactly as before.

pub mod declare;
pub mod doc;
mod notation;
pub mod rules;
mod schema;

use crate::engine::{BoardError, RuleUse, Ruling, board, diff};

pub struct GrandArchive;

pub const ENGINE: crate::engine::legacy::Legacy<GrandArchive> =
    crate::engine::legacy::Legacy(GrandArchive);

impl GrandArchive {
    /// Parses and validates a board document.
    pub fn parse(document: &str) -> Result<doc::Board, BoardError> {
        let mut b: doc::Board = board::parse(document)?;
        b.validate()?;
        Ok(b)
    }

    /// Adjudicates an already parsed, validated board.
    pub fn judge_board(b: &doc::Board) -> Result<Ruling, BoardError> {
        let out = declare::run(b)?;
        let before = b.state_json();
        let state = out.after.state_json();
        let changes = diff(&before, &state);
        Ok(Ruling {
            pending: None,
            status: None,
            game: "grand-archive".into(),
            legal: out.legal,
            steps: out.steps,
            diagnostics: out.diagnostics,
            state,
            changes,
        })
    }
}

impl crate::engine::legacy::Old for GrandArchive {
    fn game(&self) -> &'static str {
        "grand-archive"
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        rules::RULE_USES
    }

    fn schema(&self) -> serde_json::Value {
        schema::schema()
    }

    fn judge(&self, document: &str) -> Result<Ruling, BoardError> {
        let b = Self::parse(document)?;
        Self::judge_board(&b)
    }

    fn parse_notation(
        &self,
        line: &str,
        board: &serde_json::Value,
    ) -> Result<serde_json::Value, BoardError> {
        notation::parse(line, board)
    }

    fn notation_completions(&self, partial: &str, board: &serde_json::Value) -> Vec<String> {
        notation::completions(partial, board)
    }
}
